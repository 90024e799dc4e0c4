"""PlayTable in Python: every kind of decision made by clicking (board intents)."""

from __future__ import annotations

import re
from html import escape as html_escape
from typing import Any

import pytest
import traitlets

from tricklab.actions import Bid, Pass, Place, Play, Predict, Skip
from tricklab.errors import IllegalAction, InvalidOption
from tricklab.widgets import Board, PlayTable
from tricklab.widgets.apps import play_app


def buttons(table: PlayTable, intent: str) -> list[str]:
    return re.findall(rf'data-intent="{intent}" data-value="([^"]*)"', table.board.scene["html"])


def test_legal_cards_are_highlighted_and_an_illegal_click_changes_nothing() -> None:
    table = PlayTable("tricks-and-stones", 4, seat=0, seed=11, pace=0, hold=0)

    def illegal_now() -> list[str]:
        legal = {str(a.card) for a in table.match.legal_actions() if isinstance(a, Play)}
        return sorted({str(c) for c in table.match.state.hands[0]} - legal) if legal else []

    while not illegal_now():  # play on until the learner holds a card that may not be played
        assert not table.match.is_over
        table.act(table.match.legal_actions()[0])
    legal = {str(a.card) for a in table.match.legal_actions() if isinstance(a, Play)}
    html = table.board.scene["html"]
    for card in (str(c) for c in table.match.state.hands[0]):
        cls = "tl-legal" if card in legal else "tl-not-legal"
        assert re.search(rf'class="tl-card {cls}" data-intent="play" data-value="{card}"', html), card
    before = table.match.to_json()
    card = illegal_now()[0]
    with pytest.raises(IllegalAction) as expected:
        table.match.copy().apply(f"play {card}")
    table.board.intent("play", card)
    assert table.match.to_json() == before
    assert table.message == expected.value.to_you  # the engine's reason, to the learner (its live region)


def test_tricks_and_stones_predictions_and_gems_by_clicking() -> None:
    table = PlayTable("tricks-and-stones", 4, seat=0, seed=5, pace=0, hold=0)
    table.finish_bots()
    assert buttons(table, "act") == [f"predict {n}" for n in range(6)]
    table.board.intent("act", "predict 2")
    assert Predict(2) in table.match.actions and table.match.state.predictions[0] == 2
    # play until the learner has a gem action with Place available
    for _ in range(400):
        if table.match.is_over:
            break
        legal = table.match.legal_actions()
        if any(isinstance(a, Place) for a in legal):
            break
        table.act(legal[0])
    legal = table.match.legal_actions()
    assert any(isinstance(a, Place) for a in legal)
    table.board.intent("gem-mode", "place")
    chambers = buttons(table, "chamber")
    assert chambers == [str(c) for c in range(6)], "in gem mode the chambers of the board are buttons"
    assert 'class="tl-chamber-button"' in table.board.scene["html"]
    table.board.intent("chamber", "2")  # the own expedition chamber: the engine refuses
    table.board.intent("confirm")
    assert "expedition token" in table.board.scene["html"]
    table.board.intent("clear")
    table.board.intent("chamber", "1")
    decided = len(table.match.actions)
    before = table.match.state.board[0]
    table.board.intent("confirm")
    assert table.match.actions[decided] == Place((1,))
    after = table.match.states[decided + 1].board[0]
    assert after[1] == before[1] + 1 and sum(after) == sum(before) + 1


def test_band_of_tricks_bid_builder_and_metal_choice() -> None:
    table = PlayTable("band-of-tricks", 4, seat=2, seed=8, pace=0, hold=0)
    table.finish_bots()
    for _ in range(2):
        table.board.intent("bid", "soul:+1")
    table.board.intent("bid", "rock:+1")
    table.board.intent("bid", "rock:-1")
    table.board.intent("bid", "pops:-1")  # stays at 0
    table.board.intent("confirm")
    mine = [a for s, a in zip(table.match.states, table.match.actions, strict=False) if s.to_play == 2]
    assert mine[0] == Bid(0, 2, 0)
    assert "bid 0 2 0" in [str(a) for a in table.match.actions]


def test_band_of_tricks_zero_success_button() -> None:
    table = PlayTable("band-of-tricks", 3, seat=0, seed=2, pace=0, hold=0)
    table.finish_bots()
    assert "bid zero" in buttons(table, "act")
    table.board.intent("act", "bid zero")
    assert Bid(zero=True) in table.match.actions


def test_jewel_vault_announce_pass_and_steal_by_clicking() -> None:
    table = PlayTable("jewel-vault", 4, seat=0, seed=3, pace=0, hold=0, first_dealer=0)
    assert buttons(table, "act") == ["announce 1", "announce 2", "announce 3"]
    table.board.intent("act", "announce 2")
    table.finish_bots()
    hand = [str(c) for c in table.match.state.hands[0]]
    table.board.intent("pick", hand[0])
    table.board.intent("confirm")  # one card is not enough: the engine explains
    assert table.message and table.selection == hand[0]
    table.board.intent("pick", hand[1])
    table.board.intent("confirm")
    assert Pass((table.rules.card(hand[0]), table.rules.card(hand[1]))) in table.match.actions


def test_undo_takes_back_the_learners_last_decision_and_the_bots_after_it() -> None:
    table = PlayTable("tricks-and-stones", 4, seat=1, seed=4, pace=0, hold=0)
    table.act(Predict(1))
    count = len(table.match.actions)
    assert table.undo()
    assert len(table.match.actions) < count
    assert table.my_turn and table.match.phase == "predict"
    assert Predict(1) not in table.match.actions[-1:]


def test_hint_is_what_the_heuristic_bot_would_do() -> None:
    table = PlayTable("jewel-vault", 3, seat=0, seed=6, pace=0, hold=0, first_dealer=2)
    table.finish_bots()
    action = table.hint()
    assert action in table.match.legal_actions()
    assert action is not None
    view = table.match.view(0)
    assert html_escape(f"Hint: {table.rules.describe_action(action, view)}.") in table.board.scene["html"]


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("tricks-and-stones", 3, {}),
        ("band-of-tricks", 5, {}),
        ("jewel-vault", 6, {"partnerships": True}),
        ("jewel-vault", 3, {"known_deck": True}),
        ("jewel-vault", 2, {}),
    ],
)
def test_a_whole_match_can_be_played_through_the_table(game: str, players: int, options: dict[str, bool]) -> None:
    table = PlayTable(game, players, seat=players - 1, seed=9, pace=0, hold=0, **options)
    for _ in range(3000):
        if table.match.is_over:
            break
        legal = table.match.legal_actions()
        assert table.act(legal[-1])
    assert table.match.is_over
    assert "The game is over" in table.board.scene["html"]
    assert not table.act(Skip())


def test_play_app_checks_its_link() -> None:
    app = play_app("game=jewel-vault&players=4&partnerships=yes&pace=0&seat=3")
    table = app.children[1]
    assert table.rules.options.partnerships is True and table.seat == 2 and table.pace == 0
    bad = play_app("game=tricks-and-stones&players=4&partnerships=yes&pace=slow&seat=9")
    text = bad.children[0].value
    assert "Jewel Vault variant" in text and "pace" in text and "no player" in text
    assert "with partnerships" not in text


# --- one anywidget: its controls drawn from the scene, its state synced traits ---------------------


def test_the_table_is_one_board_with_its_controls_drawn_from_the_scene() -> None:
    table = PlayTable("tricks-and-stones", 4, seat=1, seed=2, pace=0)
    assert isinstance(table, Board) and table.board is table and not hasattr(table, "children")
    drawn = [c["name"] for row in table.scene["controls"] for c in row]
    assert drawn == ["undo", "hint", "new_deal", "large", "four_colour"]
    table.control("new_deal", None)  # the page's press of "New deal"
    assert table.match.seed == 3 and "seed 3" in table.message
    table.control("four_colour", "true")
    assert table.four_colour and table.controls["four_colour"].value and " tl-four" in table.scene["html"]


def test_the_synced_traits_follow_the_match_and_can_be_observed() -> None:
    table = PlayTable("band-of-tricks", 4, seat=0, seed=3, pace=0, hold=0)
    seen: list[tuple[str, Any]] = []
    table.observe(lambda change: seen.append((change["name"], change["new"])), ["turn", "selection", "last_move"])
    assert table.turn == table.match.to_play == 0 and table.round == 1 and table.scores == []
    table.intent("bid", "rock:+1")
    assert table.selection == "bid 1 0 0" and ("selection", "bid 1 0 0") in seen
    table.intent("confirm")
    assert table.last_move == "bid 1 0 0" and table.selection == ""
    assert ("last_move", "bid 1 0 0") in seen and table.turn == table.match.to_play
    while table.round == 1:
        table.act(table.match.legal_actions()[0])
        table.finish_bots()
    assert table.round == 2 and len(table.scores) == 4  # the first deal is scored


def test_look_traits_link_and_the_page_sets_only_them() -> None:
    table = PlayTable("jewel-vault", 4, seat=0, seed=1, pace=0)
    other = Toggleable()
    traitlets.link((other, "on"), (table, "large"))
    other.on = True
    assert table.large and table.scene["large"] and table.controls["large"].value
    table.set_state({"four_colour": True, "seat": 2, "turn": 3, "selection": "QS", "last_move": "play QS"})
    assert table.four_colour and table.seat == 0 and table.selection == "" and table.last_move == ""
    assert table.turn == table.match.to_play


@pytest.mark.parametrize(
    ("name", "value"), [("seat", 2), ("turn", 3), ("round", 4), ("scores", [9]), ("selection", "AS"), ("large", "yes")]
)
def test_a_refused_value_changes_nothing(name: str, value: Any) -> None:
    table = PlayTable("tricks-and-stones", 4, seat=0, seed=4, pace=0)
    before, scene = getattr(table, name), table.scene
    with pytest.raises((InvalidOption, traitlets.TraitError)):
        setattr(table, name, value)
    assert getattr(table, name) == before and table.scene == scene


class Toggleable(traitlets.HasTraits):
    on = traitlets.Bool(False)
