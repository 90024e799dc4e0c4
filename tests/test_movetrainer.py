"""The MoveTrainer widget and the bid trainer app's "Try a move" for games without bids."""

from __future__ import annotations

import re

import pytest
import traitlets
from hypothesis import given, settings
from hypothesis import strategies as st

import tricklab
from tricklab.display import esc
from tricklab.errors import InvalidOption
from tricklab.games.kalah.bots import SearchBot
from tricklab.games.kalah.moves import SEARCH_DEPTH
from tricklab.widgets import MoveTrainer
from tricklab.widgets.apps import bid_trainer_app
from tricklab.widgets.movetrainer import DEFAULT_PLY

KALAH = tricklab.get_rules("kalah", players=2)


def html(trainer: MoveTrainer) -> str:
    return str(trainer.board.scene["html"])


def try_buttons(markup: str) -> list[str]:
    """The values of every "try" button in the markup, in order."""
    return re.findall(r'<button[^>]*data-intent="try"[^>]*data-value="([^"]*)"', markup)


@pytest.mark.parametrize(("game", "seed", "ply"), [("kalah", 3, 6), ("kalah", 8, 0), ("mandala", 2, 10)])
def test_the_scene_lists_every_move_on_the_board_and_in_the_list(game: str, seed: int, ply: int) -> None:
    trainer = MoveTrainer(game, seed=seed, ply=ply)
    markup = html(trainer)
    legal = [str(a) for a in trainer.match.legal_actions()]
    assert [o.text for o in trainer.outcomes] == legal
    board, listed = markup.split('<section class="tl-panel tl-move-list"', 1)
    assert sorted(try_buttons(board)) == sorted(esc(t) for t in legal)  # each move is a button on the board
    assert try_buttons(listed) == [esc(t) for t in legal]  # and a row of the list, in the rules' order
    for o in trainer.outcomes:
        assert esc(o.description) in markup
        for effect in o.effects:
            assert esc(effect.text) in markup
    best = [o for o in trainer.outcomes if o.best]
    assert len(best) == 1 and trainer.board.scene["data"]["best"] == best[0].text
    assert f'<tr class="tl-verdict-best" data-move="{esc(best[0].text)}">' in markup
    assert trainer.board.scene["data"]["tried"] == ""


def test_kalah_marks_the_searchs_best_move_with_its_value() -> None:
    trainer = MoveTrainer("kalah", seed=3, ply=6)
    view = trainer.match.view(trainer.seat)
    bot = SearchBot(KALAH, trainer.seat, depth=SEARCH_DEPTH)
    assert trainer.best.action == bot.choose(view, trainer.match.legal_actions())
    values = bot.values(view)
    markup = html(trainer)
    for o in trainer.outcomes:
        assert o.value == values[o.action]
        row = re.search(rf'data-move="{re.escape(o.text)}">(.*?)</tr>', markup)
        assert row is not None and f"<td>{o.value:+d}</td>" in row[1]
        assert ("(best)" in row[1]) == o.best
        assert ("(just as good)" in row[1]) == (not o.best and o.value == trainer.best.value)
    assert "bot.kalah.search" in markup


def test_trying_a_move_on_the_board_shows_the_board_after_it_and_why() -> None:
    trainer = MoveTrainer("kalah", seed=3, ply=6)
    state = trainer.match.state
    chosen = trainer.outcomes[-1]
    trainer.board.intent("try", chosen.text)
    assert trainer.tried is chosen and trainer.board.scene["data"]["tried"] == chosen.text
    real = trainer.match.copy()
    real.apply(chosen.text)
    assert chosen.view == real.view(trainer.seat)  # the board after it is what the move does
    markup = html(trainer)
    assert f"You tried: {esc(chosen.description)}" in markup
    for event in chosen.events:
        assert esc(event.text) in markup
    for rule_id in chosen.rule_ids:
        assert f'data-rule="{rule_id}"' in markup
    assert 'aria-pressed="true"' in markup and trainer.match.state is state
    trainer.clear()
    assert trainer.tried is None and "You tried" not in html(trainer)


def test_a_mandala_move_says_it_draws_without_naming_the_cards() -> None:
    trainer = MoveTrainer("mandala", seed=2, ply=10)
    mountain = next(o for o in trainer.outcomes if o.text.startswith("mountain"))
    trainer.board.intent("try", mountain.text)
    markup = html(trainer)
    drawn = mountain.effect("drawn")
    assert drawn > 0 and esc(f"then you draw {drawn} card") in markup
    draw = re.search(r"<li>(Player \d draws [^<]*)</li>", markup)
    assert draw is not None and ":" not in draw[1]  # "draws 3 cards.", never "draws 3 cards: red, ..."


@pytest.mark.parametrize(
    "value",
    ["<script>alert(1)</script>", "sow 9", "sow 2", "mountain 1 red", "x" * 500, "", "\u202esow 1"],
)
def test_a_hostile_or_illegal_value_is_refused_with_a_message_and_changes_nothing(value: str) -> None:
    trainer = MoveTrainer("kalah", seed=3, ply=6)  # pits 1, 4, 5 and 6 hold stones
    trainer.board.intent("try", "sow 4")
    state, tried, before = trainer.match.state, trainer.tried, trainer.outcomes
    trainer.board.intent("try", value)
    markup = html(trainer)
    assert trainer.message  # the refusal, shown by the board as text
    assert "<script>" not in markup and "\u202e" not in markup
    assert trainer.match.state is state and trainer.tried is tried and trainer.outcomes is before
    assert trainer.board.scene["data"]["tried"] == "sow 4"


def test_a_try_without_a_value_is_refused() -> None:
    trainer = MoveTrainer("kalah", seed=3, ply=6)
    trainer.board.intent("try", None)
    assert trainer.tried is None and "That is not a move" in trainer.message


def test_the_engines_reason_is_shown_for_an_empty_pit() -> None:
    trainer = MoveTrainer("kalah", seed=3, ply=6)
    assert trainer.try_move("sow 2") is None
    assert "pit 2 is empty" in trainer.message


def test_the_same_seed_gives_the_same_position_and_new_position_takes_the_next() -> None:
    first, again = MoveTrainer("kalah", seed=5, ply=4), MoveTrainer("kalah", seed=5, ply=4)
    assert html(first) == html(again)
    first.try_move(first.outcomes[0].text)
    first.new_button.click()
    assert first.seed == 6 and first.tried is None
    assert first.match.actions == MoveTrainer("kalah", seed=6, ply=4).match.actions
    assert first.link_state()["seed"] == "6" and first.link_state()["ply"] == "4"


def test_bad_settings_raise_typed_errors() -> None:
    with pytest.raises(InvalidOption, match="-1"):
        MoveTrainer("kalah", ply=-1)
    with pytest.raises(InvalidOption, match="'3'"):
        MoveTrainer("kalah", ply="3")  # type: ignore[arg-type]
    with pytest.raises(InvalidOption, match="not tricks-and-stones"):
        MoveTrainer("tricks-and-stones")
    with pytest.raises(InvalidOption, match="not 4"):
        MoveTrainer("kalah", 4)


def test_the_bid_trainer_app_tries_moves_for_games_without_bids() -> None:
    app = bid_trainer_app("game=kalah&seed=4&ply=3")
    header, trainer = app.children
    assert isinstance(trainer, MoveTrainer) and trainer.seed == 4 and trainer.played == 3
    assert "<h2>Try a move: Kalah, seed 4</h2>" in header.value
    assert "ply=3" in trainer.board.scene["address"] and "seed=4" in trainer.board.scene["address"]
    trainer.new_position()
    assert "seed 5" in header.value
    mandala = bid_trainer_app("game=mandala&seed=2").children[1]
    assert isinstance(mandala, MoveTrainer) and mandala.ply == DEFAULT_PLY
    bids = bid_trainer_app("game=tricks-and-stones&seed=2")
    assert not isinstance(bids.children[1], MoveTrainer) and "Try predictions" in bids.children[0].value


@pytest.mark.parametrize("ply", ["<script>", "-1", "201", "1e3", "٣"])
def test_the_apps_ply_is_checked_and_never_reaches_the_page_unescaped(ply: str) -> None:
    from urllib.parse import quote as url

    header, trainer = bid_trainer_app(f"game=kalah&seed=4&ply={url(ply)}").children
    assert trainer.ply == DEFAULT_PLY
    assert "tricklab-message" in header.value and "<script>" not in header.value
    assert f"ply={DEFAULT_PLY}" in trainer.board.scene["address"]


_FUZZED = MoveTrainer("kalah", seed=3, ply=6)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=60) | st.sampled_from(["sow 1", "sow 4", " sow 5 ", "SOW 6", "sow 04", "<b>sow 1</b>", "<"]))
def test_any_value_from_the_page_tries_a_listed_move_or_changes_nothing(value: str) -> None:
    trainer = _FUZZED
    trainer.clear()
    state, outcomes = trainer.match.state, trainer.outcomes
    trainer.board.intent("try", value)
    assert trainer.match.state is state and trainer.outcomes is outcomes
    markup = html(trainer)
    if trainer.tried is None:
        assert trainer.message  # plain text, drawn by the board as text
    else:
        assert trainer.tried in outcomes and "You tried" in markup


def test_the_trainers_state_is_synced_traits_one_can_observe_and_link() -> None:
    trainer = MoveTrainer("kalah", seed=3, ply=6)
    seen: list[tuple[str, object]] = []
    trainer.observe(lambda c: seen.append((c["name"], c["new"])), names=["seed", "move", "verdict", "message"])
    assert trainer.best_move == trainer.best.text and trainer.move == "" and trainer.verdict == ""
    trainer.intent("try", "sow 4")  # a click on the page
    assert trainer.move == "sow 4" and trainer.tried is not None and trainer.verdict
    assert ("move", "sow 4") in seen and ("verdict", trainer.verdict) in seen
    trainer.move = "sow 5"  # from Python: the same as a click
    assert trainer.tried is not None and trainer.tried.text == "sow 5"
    assert trainer.controls is not None and trainer.controls["clear"].disabled is False
    trainer.controls["clear"].click()  # type: ignore[attr-defined]
    assert trainer.move == "" and trainer.tried is None and trainer.verdict == ""
    # linked: a second trainer follows the first one's seed and move
    other = MoveTrainer("kalah", seed=0, ply=6)
    traitlets.link((trainer, "seed"), (other, "seed"))
    traitlets.link((trainer, "move"), (other, "move"))
    assert other.seed == 3
    trainer.controls["new"].click()  # type: ignore[attr-defined]
    assert trainer.seed == other.seed == 4 and other.match.actions == trainer.match.actions
    trainer.move = trainer.outcomes[0].text
    assert other.tried is not None and other.tried.text == trainer.move
    # the look toggles are traits too, and their controls follow them
    trainer.large = True
    assert trainer.scene["large"] is True and trainer.controls["large"].value is True  # type: ignore[attr-defined]
    assert trainer.link_state()["large"] == "1"


@pytest.mark.parametrize(
    ("name", "value"), [("seed", -1), ("seed", "3"), ("seed", 2**64), ("move", "sow 2"), ("move", "<b>")]
)
def test_a_refused_value_raises_and_changes_nothing(name: str, value: object) -> None:
    trainer = MoveTrainer("kalah", seed=3, ply=6)
    trainer.move = "sow 4"
    before = (trainer.seed, trainer.move, trainer.match.state, trainer.scene)
    with pytest.raises((tricklab.TricklabError, traitlets.TraitError)):
        setattr(trainer, name, value)
    assert (trainer.seed, trainer.move, trainer.match.state, trainer.scene) == before


def test_the_page_sets_only_the_look_and_through_its_checks() -> None:
    trainer = MoveTrainer("kalah", seed=3, ply=6)
    trainer.set_state({"seed": 9, "move": "sow 4", "best_move": "x", "verdict": "x", "large": True})
    assert trainer.seed == 3 and trainer.move == "" and trainer.best_move == trainer.best.text
    assert trainer.large is True and trainer.scene["large"] is True
    trainer.set_state({"four_colour": "yes"})  # not even a bool: the value kept
    assert trainer.four_colour is False
    trainer.control("large", "maybe")  # the toggle as the page sends it: refused, shown as the message
    assert trainer.large is True and trainer.message
    trainer.control("new", None)
    assert trainer.seed == 4
