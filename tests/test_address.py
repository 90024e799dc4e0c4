"""The address is the state: what each app writes into the page's address, and that the app
reads it back into the same state. Also the link parameters every app shares (``large``,
``four_colour``, ``theme``) and the rule ids that link to their clause."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs

import pytest

import tricklab
from tricklab.display import reasons_html, rule_id_html
from tricklab.games.base import next_seed
from tricklab.links import moves_code
from tricklab.widgets import MoveTrainer, PlayTable, apps
from tricklab.widgets.apps import bid_trainer_app, play_app, quiz_app
from tricklab.widgets.board import Board


def widget(app: Any) -> Any:
    return app.children[1]


def address(app: Any) -> dict[str, str]:
    query = widget(app).board.scene["address"]
    assert isinstance(query, str)
    return {k: v[0] for k, v in parse_qs(query, keep_blank_values=True).items()}


def messages(app: Any) -> list[str]:
    return re.findall(r'role="alert">(.*?)</p>', app.children[0].value)


def test_a_board_without_an_address_writes_none() -> None:
    board = Board()
    board.scene = {"html": "<p>x</p>"}
    assert "address" not in board.scene and "copy-link" not in board.scene["html"]
    board.show_address(lambda: "a=1")
    assert board.scene["address"] == "a=1" and 'data-intent="copy-link"' in board.scene["html"]


def test_replay_address_follows_the_step_and_reopens_there() -> None:
    app = apps.replay_app("game=band-of-tricks&players=4&seed=7&step=3&theme=dark")
    assert address(app) == {"game": "band-of-tricks", "players": "4", "seed": "7", "step": "3", "theme": "dark"}
    widget(app).go(11)
    query = widget(app).board.scene["address"]
    assert address(app)["step"] == "11"
    again = apps.replay_app(query)
    assert widget(again).step == 11 and messages(again) == []


def test_explainer_address_holds_the_trick_and_the_trump() -> None:
    app = apps.explain_trick_app("game=tricks-and-stones&players=4&trump=H")
    explainer = widget(app)
    explainer.type_trick("7H AH 8S")
    seen = address(app)
    assert seen["cards"] == "7H AH 8S" and seen["trump"] == "H"
    explainer.trump_picker.value = None  # "no trump" picked
    assert explainer.trump is None and address(app)["trump"] == "none"
    again = apps.explain_trick_app(explainer.board.scene["address"])
    assert [str(c) for c in widget(again).cards] == ["7H", "AH", "8S"]
    assert widget(again).trump is None and widget(again).trump_picker.value is None and messages(again) == []


def test_quiz_address_names_the_question_and_the_link_asks_it() -> None:
    app = apps.quiz_app("game=tricks-and-stones&seed=4&level=2")
    quiz = widget(app)
    quiz.answer(quiz.question.answer)
    quiz.next()
    assert address(app)["question"] == "2" and address(app)["level"] == "2"
    again = widget(apps.quiz_app(quiz.board.scene["address"]))
    assert again.index == 1 and again.question.cards == quiz.question.cards


def test_quiz_question_is_checked() -> None:
    app = apps.quiz_app("question=<b>")
    assert widget(app).index == 0 and any("not a question number" in m for m in messages(app))
    assert widget(apps.quiz_app("question=999")).index == len(widget(app).questions) - 1


def test_play_address_is_the_match_and_the_link_reopens_it_at_that_point() -> None:
    app = apps.play_app("game=tricks-and-stones&players=4&seed=5&pace=0")
    table = widget(app)
    for _ in range(3):
        table.act(table.match.legal_actions()[0])
    seen = address(app)
    assert seen["moves"] == moves_code(table.match) and seen["seed"] == "5" and seen["pace"] == "0"
    again = widget(apps.play_app(table.board.scene["address"]))
    # the same match from the same point on (a trick the table held goes on at once)
    assert again.match.actions[: len(table.match.actions)] == table.match.actions and again.seat == table.seat
    if table.my_turn:
        assert again.match.actions == table.match.actions


def test_play_reads_a_replay_link_with_variants_and_refuses_a_damaged_one() -> None:
    rules = tricklab.get_rules("jewel-vault", players=4).with_options(partnerships=True)
    match = rules.new_match(3)
    for _ in range(5):
        match.apply(match.legal_actions()[0])
    query = f"game=jewel-vault&players=4&seed=3&partnerships=yes&pace=0&moves={moves_code(match)}"
    table = widget(apps.play_app(query))
    assert table.match.actions[:5] == match.actions and table.rules.options.partnerships
    broken = apps.play_app(query[:-2])
    assert any("could not be replayed" in m for m in messages(broken))
    assert widget(broken).match.seed == 3


def test_new_deal_moves_the_seed_in_the_address() -> None:
    for make in (apps.play_app, apps.quiz_app, apps.bid_trainer_app):
        app = make("seed=8&pace=0" if make is apps.play_app else "seed=8")
        widget(app).new_deal()
        assert address(app)["seed"] == "9", make


LARGEST = apps.MAX_SEED  # the largest seed a link may give, 2**63 - 1


@pytest.mark.parametrize(
    ("make", "query"),
    [
        (apps.play_app, "game=tricks-and-stones&pace=0"),
        (apps.play_app, "game=kalah&pace=0"),
        (apps.quiz_app, "game=band-of-tricks"),
        (apps.quiz_app, "game=kalah"),  # a quiz about positions
        (apps.bid_trainer_app, "game=tricks-and-stones"),
        (apps.bid_trainer_app, "game=mandala"),  # the move trainer
    ],
)
def test_a_new_deal_from_the_largest_seed_starts_again_from_seed_0(make: Any, query: str) -> None:
    app = make(f"{query}&seed={LARGEST}")
    header, trainer = app.children[:2]
    assert messages(app) == [] and f"seed {LARGEST}" in header.value
    button = trainer.new_button if isinstance(trainer, MoveTrainer) else trainer.new_deal_button
    for seed in (0, 1):  # through the button's own handler, which loses an error (a dead click)
        button.click()
        assert (trainer.match.seed if isinstance(trainer, PlayTable) else trainer.seed) == seed
        assert address(app)["seed"] == str(seed) and re.search(rf"seed {seed}\b", header.value)
    again = make(widget(app).board.scene["address"])  # the address a new deal wrote is a link the app reads
    assert messages(again) == []


def test_the_seed_after_the_largest_is_0() -> None:
    assert next_seed(7) == 8 and next_seed(LARGEST) == 0 and LARGEST == 2**63 - 1
    table = apps.play_app(f"seed={LARGEST}&pace=0").children[1]
    table.board.intent("new-deal")
    assert table.match.seed == 0 and "seed 0" in table.message


@pytest.mark.parametrize(
    "make, query",
    [
        (apps.replay_app, ""),
        (apps.play_app, "&pace=0"),
        (apps.quiz_app, ""),
        (apps.bid_trainer_app, "&game=tricks-and-stones"),  # the bid trainer
        (apps.bid_trainer_app, "&game=kalah"),  # the move trainer
    ],
)
def test_large_and_four_colour_are_link_parameters(make: Any, query: str) -> None:
    app = make(f"large=1&four_colour=yes{query}")
    shown = widget(app)
    assert shown.large and shown.four_colour and shown.controls["large"].value and messages(app) == []
    assert address(app)["large"] == "1" and address(app)["four_colour"] == "1"
    shown.control("large", "false")  # the page's press of "Large"
    assert shown.large is False and "large" not in address(app) and not shown.board.scene["large"]


def test_explainer_takes_large_and_four_colour() -> None:
    app = apps.explain_trick_app("large=1&four_colour=1")
    assert widget(app).large and widget(app).four_colour and widget(app).board.scene["large"]


@pytest.mark.parametrize("value", ["2", "<script>", "maybe", ""])
def test_a_bad_look_value_is_a_message(value: str) -> None:
    app = apps.replay_app(f"large={value}&four_colour={value}")
    assert len([m for m in messages(app) if "must be 1 or 0" in m]) == 2
    assert not widget(app).large
    assert "<script>" not in app.children[0].value


def test_only_light_or_dark_theme_is_kept() -> None:
    assert address(apps.quiz_app("theme=dark"))["theme"] == "dark"
    assert "theme" not in address(apps.quiz_app("theme=%22%3E%3Cb%3E"))


def test_a_refused_value_is_not_written_back() -> None:
    app = apps.play_app("seat=9&pace=fast")
    seen = address(app)
    assert seen["seat"] == "1" and seen["pace"] == "0.8"
    assert "moves" not in address(apps.replay_app("moves=1AAAAxx"))


def test_titles_name_the_seed() -> None:
    for make in (apps.play_app, apps.quiz_app, apps.bid_trainer_app, apps.replay_app):
        assert "seed 12" in make("seed=12&pace=0").children[0].value, make


def test_rule_ids_link_to_their_clause() -> None:
    link = rule_id_html("ts.rank.within")
    assert 'href="rulebooks.ipynb#ts.rank.within"' in link and 'rel="noopener"' in link
    assert "&lt;b&gt;" in rule_id_html("<b>") and "<b>" not in rule_id_html("<b>")
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    outcome = rules.resolve_trick(["7H", "AH", "8S"], trump="S")
    html = reasons_html(outcome.reasons)
    for reason in outcome.reasons:
        assert f'data-rule="{reason.rule_id}"' in html
        assert f'href="rulebooks.ipynb#{reason.rule_id}"' in html
        assert f'id="{reason.rule_id}"' in rules.rulebook._repr_html_()


@pytest.mark.parametrize(
    ("app", "query"),
    [
        (play_app, "game=jewel-vault&seed=4&pace=0"),
        (quiz_app, "game=band-of-tricks&seed=4"),
        (bid_trainer_app, "game=tricks-and-stones&seed=4"),
    ],
)
def test_the_title_names_the_seed_shown_after_a_new_deal(app: Any, query: str) -> None:
    page = app(query)
    header, widget = page.children[:2]
    assert "seed 4" in header.value
    widget.new_deal()
    assert "seed 5" in header.value and "seed 4" not in header.value


def test_first_dealer_without_moves_deals_the_new_match_and_stays_in_the_address() -> None:
    """A link's ``first_dealer`` (1..players) without ``moves`` is honoured, not dropped: the
    replay's bots' match and the play table's new deal start with that player dealing."""
    replay = apps.replay_app("game=jewel-vault&players=4&seed=3&first_dealer=3")
    stepper = widget(replay)
    assert stepper.match.match_options == {"first_dealer": 2} and stepper.match.states[0].dealer == 2
    assert messages(replay) == [] and address(replay)["first_dealer"] == "3"
    table = widget(apps.play_app("game=tricks-and-stones&players=4&seed=3&first_dealer=2&pace=0"))
    assert table.match.match_options == {"first_dealer": 1}
    assert address(apps.play_app(table.board.scene["address"]))["first_dealer"] == "2"
    table.new_deal()
    assert table.match.match_options == {"first_dealer": 1}


@pytest.mark.parametrize("make", [apps.replay_app, apps.play_app])
def test_a_first_dealer_the_game_has_not_is_a_message(make: Any) -> None:
    app = make("game=kalah&seed=3&first_dealer=2&pace=0")
    assert any("Kalah has no first dealer" in m for m in messages(app))
    assert "first_dealer" not in address(app)
    wrong = make("game=tricks-and-stones&players=4&seed=3&first_dealer=7&pace=0")
    assert any("There is no player “7” to deal first" in m for m in messages(wrong))
    assert "first_dealer" not in address(wrong)


def test_apps_default_to_the_games_own_player_count() -> None:
    assert widget(apps.replay_app("game=kalah&seed=1")).rules.players == 2
    assert widget(apps.explain_trick_app("game=kalah")).rules.players == 4  # not played in tricks: the default game
    assert widget(apps.bid_trainer_app("game=mandala")).rules.players == 2
