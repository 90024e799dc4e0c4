"""Widgets in Python: what a learner's clicks and keys do, without a browser."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote

import pytest

import tricklab
from tricklab.widgets import TrickExplainer, TrickStepper
from tricklab.widgets.apps import (
    MAX_FIELDS,
    MAX_SEED,
    bid_trainer_app,
    explain_trick_app,
    parse_params,
    play_app,
    quiz_app,
    replay_app,
)


def test_explainer_shows_the_engines_ranking() -> None:
    explainer = TrickExplainer("tricks-and-stones", 4, trump="S", cards="7H AH 8S KD")
    expected = tricklab.get_rules("tricks-and-stones", players=4).resolve_trick(["7H", "AH", "8S", "KD"], trump="S")
    assert explainer.outcome is not None
    assert explainer.outcome.ranking == expected.ranking
    assert explainer.board.scene["winner"] == "8S"
    for reason in expected.reasons:
        assert reason.rule_id in explainer.board.scene["html"]


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("7H 6S", "not a card of Tricks & Stones"),
        ("7H 7H", "twice"),
        ("7H 8H 9H 10H JH", "at most 4"),
        ("hello", "not a card"),
    ],
)
def test_explainer_bad_input_shows_the_engines_message_and_keeps_the_trick(bad: str, words: str) -> None:
    explainer = TrickExplainer("tricks-and-stones", 4, cards="7H AH")
    scene = explainer.board.scene
    assert explainer.type_trick(bad) is False
    assert words in explainer.message  # plain text, shown as text in the widget's live region
    assert [str(c) for c in explainer.cards] == ["7H", "AH"]
    assert explainer.board.scene == scene


def test_explainer_deck_clicks_add_cards_and_refuse_a_duplicate() -> None:
    explainer = TrickExplainer("band-of-tricks", 4)
    for card in ("P3", "S5", "R13", "M13"):
        explainer.board.intent("add", card)
    assert explainer.board.scene["winner"] == "M13"
    explainer.board.intent("add", "P4")
    assert "at most 4" in explainer.message
    explainer.control("back", None)  # the page's press of "Remove last"
    assert [str(c) for c in explainer.cards] == ["P3", "S5", "R13"]
    assert explainer.message == "", "a trick shown clears the message"
    explainer.board.intent("add", "S5")
    assert "twice" in explainer.message


def test_explainer_switching_game_and_trump() -> None:
    explainer = TrickExplainer("tricks-and-stones", 4, cards="7H 8S")
    assert explainer.board.scene["winner"] == "8S"
    explainer.control("trump", "1")  # the page picks the second trump: hearts
    assert explainer.trump == "H" and explainer.board.scene["winner"] == "7H"
    explainer.set_game("jewel-vault", players=2)
    assert explainer.rules.name == "jewel-vault" and explainer.rules.players == 2
    assert explainer.trump_picker.hidden
    drawn = {c["name"]: c for row in explainer.scene["controls"] for c in row}
    counts = [str(n) for n in type(tricklab.get_rules("jewel-vault", players=2)).player_counts]
    assert drawn["trump"]["hidden"] and drawn["players"]["options"] == counts
    assert drawn["players"]["options"][drawn["players"]["index"]] == "2"
    assert explainer.type_trick("4D 3D 7H 8D") and explainer.board.scene["winner"] == "8D"
    assert repr(explainer) == "TrickExplainer(game='jewel-vault', players=2, cards='4D 3D 7H 8D')"


def test_stepper_steps_through_the_timeline() -> None:
    match = tricklab.get_rules("tricks-and-stones", players=4).play(seed=7)
    stepper = TrickStepper(match)
    steps = match.timeline()
    assert stepper.caption == steps[0].event.text
    stepper.next_button.click()
    stepper.next_button.click()
    assert stepper.step == 2 and stepper.board.scene["step"] == 2
    assert steps[2].event.text in stepper.board.scene["html"]
    stepper.board.intent("key", "End")
    assert stepper.step == len(steps) - 1
    stepper.board.intent("key", "ArrowLeft")
    assert stepper.step == len(steps) - 2
    stepper.board.intent("key", "Home")
    assert stepper.step == 0
    stepper.go(10_000)
    assert stepper.step == len(steps) - 1
    assert (
        repr(stepper)
        == f"TrickStepper(game='tricks-and-stones', players=4, seed=7, step={len(steps) - 1}/{len(steps) - 1})"
    )


def test_stepper_from_record_and_seat_view() -> None:
    match = tricklab.get_rules("jewel-vault", players=3).play(seed=4)
    stepper = TrickStepper(record=match.to_json(), seat=1, step=3)
    assert stepper.seat == 1 and stepper.step == 3
    assert "face-down card" in stepper.board.scene["html"]
    # a seat's stepper has no view picker, only a label saying whose view it is
    assert stepper.view_picker is None and stepper.view_label is not None
    assert stepper.view_label.label.startswith("Player 2's view") and "view" not in stepper.controls
    assert stepper.board.scene["label"].endswith("Player 2's view")
    # the teacher's stepper (no seat) shows every hand and may show one seat's view
    teacher = TrickStepper(record=match.to_json(), step=3)
    assert teacher.seat is None and "face-down card" not in teacher.board.scene["html"]
    teacher.view_picker.value = 1
    assert teacher.seat == 1 and teacher.board.scene["html"] == stepper.board.scene["html"]
    default = TrickStepper()  # the default game, played by bots, as other widgets default to it
    assert (default.rules.name, default.rules.players) == ("tricks-and-stones", 4)
    with pytest.raises(tricklab.InvalidOption, match="not match and game"):
        TrickStepper(match, game="kalah")
    with pytest.raises(tricklab.TricklabError):
        TrickStepper(match, seat=3)


@pytest.mark.parametrize(
    ("query", "game", "players", "seed", "message"),
    [
        ("", "tricks-and-stones", 4, 1, None),
        ("game=band-of-tricks&players=5&seed=42", "band-of-tricks", 5, 42, None),
        ("game=BT&players=3", "band-of-tricks", 3, 1, None),
        ("game=chess", "tricks-and-stones", 4, 1, "There is no game"),
        ("game=jewel-vault&players=7", "jewel-vault", 4, 1, "not possible"),
        ("game=jewel-vault&players=-1", "jewel-vault", 4, 1, "not possible"),
        ("players=four", "tricks-and-stones", 4, 1, "not possible"),
        ("seed=abc", "tricks-and-stones", 4, 1, "whole number"),
        ("seed=-5", "tricks-and-stones", 4, 1, "whole number"),
        ("seed=99999999999999999999999", "tricks-and-stones", 4, 1, "whole number"),
        ("seed=9223372036854775808", "tricks-and-stones", 4, 1, "whole number"),
        ("seed=1e5", "tricks-and-stones", 4, 1, "whole number"),
        ("seed=%D9%A3", "tricks-and-stones", 4, 1, "whole number"),  # an Arabic-Indic 3: int() reads it, a link may not
        ("players=%D9%A3", "tricks-and-stones", 4, 1, "not possible"),
        ("game=" + "x" * 3000, "tricks-and-stones", 4, 1, "too long"),
        ("game=%3Cimg%20src=x%20onerror=alert(1)%3E", "tricks-and-stones", 4, 1, "There is no game"),
    ],
)
def test_query_parameters_are_checked(query: str, game: str, players: int, seed: int, message: str | None) -> None:
    params = parse_params(query)
    assert (params.game, params.players, params.seed) == (game, players, seed)
    if message is None:
        assert params.messages == []
    else:
        assert any(message in m for m in params.messages)


def test_replay_app_starts_at_the_linked_step() -> None:
    app = replay_app("game=band-of-tricks&players=3&seed=5&step=12&seat=2")
    stepper = app.children[1]
    assert stepper.step == 12 and stepper.seat == 1
    assert replay_app("seed=5&step=99999").children[1].step == len(replay_app("seed=5").children[1].steps) - 1
    bad = replay_app("seed=5&step=-3")
    assert bad.children[1].step == 0 and "not a step number" in bad.children[0].value
    unicode = replay_app("seed=5&step=%D9%A3&seat=%D9%A2")  # Arabic-Indic digits: not a step, not a seat
    assert unicode.children[1].step == 0 and unicode.children[1].seat is None
    assert "not a step number" in unicode.children[0].value and "There is no player" in unicode.children[0].value


def test_apps_escape_whatever_the_link_says() -> None:
    app = replay_app("game=%3Cimg%20src=x%20onerror=alert(1)%3E&seat=%3Cb%3E")
    header = app.children[0].value
    assert "<img" not in header and "&lt;img" in header
    assert "<b>" not in header
    explain = explain_trick_app("game=band-of-tricks&players=4&cards=P3,S5,R13,M13&trump=%3Cx%3E")
    assert explain.children[1].board.scene["winner"] == "M13"
    assert "“&lt;X&gt;” is not a trump suit" in explain.children[0].value


def test_projector_size_and_four_colour_toggles() -> None:
    stepper = TrickStepper(game="jewel-vault", players=4, seed=1)
    assert stepper.board.scene["large"] is False and "tl-four" not in stepper.board.scene["html"]
    stepper.large = True
    stepper.control("four_colour", "true")  # the page's toggle, as the page sends it
    assert stepper.board.scene["large"] is True and "tl-four" in stepper.board.scene["html"]
    assert stepper.four_colour and stepper.controls["large"].value is True
    explainer = TrickExplainer("tricks-and-stones", 4, cards="7D 7C", large=True)
    assert explainer.board.scene["large"] is True and explainer.controls["large"].value is True
    explainer.control("four_colour", "true")
    assert explainer.four_colour is True and "tl-suit-D tl-four" in explainer.board.scene["html"]


# --- every parameter of every app, against hostile links -----------------------------------------

APPS = {
    "explain_trick": (explain_trick_app, ("trump", "cards")),
    "replay": (replay_app, ("seat", "step")),
    "play": (play_app, ("seat", "pace", "partnerships", "known_deck")),
    "quiz": (quiz_app, ("level",)),
    "bid_trainer": (bid_trainer_app, ("seat",)),
}
CORE = ("game", "players", "seed")
# values no parameter of any app accepts: each must give a message and a default
INVALID = (
    "-1",
    "1e9",
    "NaN",
    "0x1F",
    "4 4",
    "9" * 40,
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "'; DROP TABLE users; --",
    "../../../etc/passwd",
    "{{7*7}}${7*7}%(x)s",
    "\x00",
    "\u202e4",
    "☃" * 300,
)
# values some parameters accept and others refuse: each must give no traceback and a usable app
EDGE = ("", "   ", "0", "1", "99", "3.5", "٣", "+4", "yes")
# whole query strings that are not well formed
MALFORMED = ("&&&", "=", "game", "%", "%ZZ", "game=%C0%AF", "a=1&" * 25, "game=jv&game=chess", "x" * 2100)


def alerts(app: Any) -> list[str]:
    """The messages an app's header shows, as text."""
    header: str = app.children[0].value
    return [html.unescape(m).removeprefix("⚠ ") for m in re.findall(r'role="alert">(.*?)</p>', header)]


class Elements(HTMLParser):
    """Every element and attribute in a piece of HTML."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.found: set[tuple[str, str]] = set()
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.add((tag, ""))
        self.found.update((tag, name) for name, _ in attrs)


def assert_no_markup_from_the_link(app: Any) -> None:
    """The header holds only its own markup: the link's text is escaped, control characters dropped."""
    header: str = app.children[0].value
    allowed = {("div", ""), ("div", "class"), ("h2", ""), ("p", ""), ("p", "class"), ("p", "role")}
    assert Elements(header).found <= allowed, header[:300]
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\u202a-\u202e\u2066-\u2069]", header), repr(header[:300])


@pytest.mark.parametrize("name", list(APPS))
def test_every_parameter_of_every_app_refuses_hostile_values_with_a_message(name: str) -> None:
    build, extras = APPS[name]
    for parameter in (*CORE, *extras):
        for value in INVALID:
            app = build(f"{parameter}={quote(value)}")
            assert_no_markup_from_the_link(app)
            assert alerts(app), f"{name}: {parameter}={value[:20]!r} gave no message"


@pytest.mark.parametrize("name", list(APPS))
def test_every_parameter_of_every_app_takes_edge_values_without_a_traceback(name: str) -> None:
    build, extras = APPS[name]
    for parameter in (*CORE, *extras):
        for value in EDGE:
            assert_no_markup_from_the_link(build(f"{parameter}={quote(value)}"))
    for query in MALFORMED:
        assert_no_markup_from_the_link(build(query))
    assert alerts(build("x" * 2100)) == ["The link's settings were too long and were ignored."]
    assert alerts(build("a=1&" * (MAX_FIELDS + 5))) == ["The link's settings could not be read and were ignored."]


@pytest.mark.parametrize("value", INVALID + EDGE)
def test_core_parameters_fall_back_to_safe_defaults(value: str) -> None:
    for parameter in CORE:
        params = parse_params(f"{parameter}={quote(value)}")
        assert params.game in tricklab.games()
        assert params.players in tricklab.find_game(params.game).player_counts
        assert 0 <= params.seed <= MAX_SEED
        if not params.messages:  # taken as given: it must mean what it says
            given = value.strip()
            chosen = {"game": params.game, "players": params.players, "seed": params.seed}[parameter]
            assert (tricklab.find_game(given).name if parameter == "game" else int(given)) == chosen


# --- the replay's move list and its jumps -----------------------------------------------------------


def _current(markup: str) -> list[str]:
    """The steps of the moves the list marks as the one shown."""
    return re.findall(r'data-value="([0-9]+)"[^>]*aria-current="step"', markup)


def test_the_steppers_buttons_and_keys_jump_by_trick_and_round() -> None:
    from tricklab.movelist import outline

    match = tricklab.get_rules("tricks-and-stones", players=4).play(seed=7)
    moves = outline(match)
    stepper = TrickStepper(match, step=20)
    assert _current(stepper.scene["html"]) == [str(moves.entry_at(20).step)]
    for press, find in [
        (stepper.next_part_button.click, moves.next_part),
        (stepper.next_round_button.click, moves.next_round),
        (stepper.previous_part_button.click, moves.previous_part),
        (stepper.previous_round_button.click, moves.previous_round),
        (lambda: stepper.board.intent("key", "Shift+ArrowRight"), moves.next_part),
        (lambda: stepper.board.intent("key", "PageDown"), moves.next_round),
        (lambda: stepper.intent("key", "Shift+ArrowLeft"), moves.previous_part),
        (lambda: stepper.intent("key", "PageUp"), moves.previous_round),
    ]:
        before = stepper.step
        press()
        assert stepper.step == find(before) and stepper.step != before
        assert stepper.link_state()["step"] == str(stepper.step)
        assert _current(stepper.scene["html"]) == [str(moves.entry_at(stepper.step).step)]
    stepper.go(0)
    assert stepper.previous_part_button.disabled and stepper.previous_round_button.disabled
    assert not stepper.next_part_button.disabled
    stepper.go(moves.size - 1)
    assert stepper.next_part_button.disabled and stepper.next_round_button.disabled
    stepper.board.intent("key", "PageDown")  # nothing after the last round: nothing moves
    assert stepper.step == moves.size - 1


def test_a_click_on_a_move_of_the_list_shows_its_step_and_junk_is_ignored() -> None:
    stepper = TrickStepper(game="jewel-vault", players=3, seed=4)
    entry = stepper.outline.rounds[0].parts[2].entries[1]
    stepper.intent("jump", str(entry.step))
    assert stepper.step == entry.step and stepper.slider.value == str(entry.step)
    for junk in ["-1", "", "٣", "1e3", " 5", str(stepper.outline.size), "9" * 40, None]:
        stepper.intent("jump", junk)
        assert stepper.step == entry.step, junk
    # the other rounds are one line each, a button to their first step
    markup = stepper.scene["html"]
    second = stepper.outline.rounds[1]
    assert f'data-value="{second.first}" aria-label="Round 2: go to its first step"' in markup
    assert f'data-value="{second.parts[1].first}"' not in markup, "a round not shown lists no moves"
    stepper.intent("jump", str(second.first))
    assert stepper.step == second.first and f'data-value="{second.parts[1].first}"' in stepper.scene["html"]


def test_the_move_list_folds_and_unfolds() -> None:
    stepper = TrickStepper(game="kalah", seed=2, step=9)
    stepper.intent("fold", "fold")
    folded = stepper.scene["html"]
    assert 'aria-expanded="false"' in folded and "tl-ml-entry" not in folded and "Show the moves" in folded
    stepper.go(30)  # the list stays folded while the steps go on
    assert "tl-ml-entry" not in stepper.scene["html"]
    stepper.intent("fold", "fold")
    assert _current(stepper.scene["html"]) == [str(stepper.outline.entry_at(30).step)]


def test_a_game_of_one_round_has_turns_and_no_round_buttons() -> None:
    stepper = TrickStepper(game="mandala", seed=3)
    assert stepper.controls is not None
    controls = stepper.controls.rows[0]
    assert stepper.next_part_button.label == "Turn ▶" and stepper.next_part_button in controls
    assert stepper.next_round_button not in controls and stepper.previous_round_button not in controls
    assert "tl-ml-round-title" not in stepper.scene["html"]


def test_the_list_follows_the_view_picked_and_the_projector_size() -> None:
    match = tricklab.get_rules("tricks-and-stones", players=4).play(seed=2)
    stepper = TrickStepper(match, step=3)
    assert stepper.view_picker is not None
    stepper.view_picker.value = 2
    assert stepper.outline.size == len(match.timeline(2))
    assert stepper.outline.entries[3].label == match.timeline(2)[3].text.rstrip(".")
    assert "tl-stacked" not in stepper.scene["html"]
    stepper.large = True
    assert "tl-stacked" in stepper.scene["html"] and "tl-ml-large" in stepper.scene["html"]
