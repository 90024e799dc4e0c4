"""The play table, the stepper and the look toggles for the games drawn on a board (Kalah,
Mandala): what they offer follows what each game declares."""

from __future__ import annotations

import random
import re

import pytest

import tricklab
from tricklab.widgets import PlayTable, TrickStepper

BOARD_GAMES = [name for name in tricklab.games() if tricklab.find_game(name).capabilities.board is not None]


def test_the_board_games_are_kalah_and_mandala() -> None:
    assert BOARD_GAMES == ["kalah", "mandala"]


def _play_out(table: PlayTable, seed: int) -> None:
    """The learner clicks a random legal move on the board until the game is over."""
    rng = random.Random(seed)
    for _ in range(2000):
        if table.match.is_over:
            return
        if table.my_turn:
            html = table.board.scene["html"]
            action = rng.choice(table.match.legal_actions())
            assert f'data-intent="act" data-value="{action}"' in html, action  # every move is on the board
            table._intent("act", str(action))
        else:
            table.finish_bots()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_a_whole_game_through_the_boards_moves(game: str) -> None:
    table = PlayTable(game, seed=4)
    _play_out(table, 4)
    result = table.match.result
    assert result is not None
    html = table.board.scene["html"]
    assert "Review my game" not in html  # the game declares no review
    assert table.review() is None and "no review of" in table.board.scene["html"]
    status = table.board.scene["announce"]
    if len(result.winners) == 1:
        winner = "you" if result.winners[0] == table.seat else table.rules.seat_name(result.winners[0])
        assert winner in status and status.startswith("The game is over")
    assert "This game, newest first" in html and "This round" not in html


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_on_the_learners_turn_focus_goes_to_a_move_on_the_board(game: str) -> None:
    table = PlayTable(game, seed=2, pace=0)
    table.finish_bots()  # the seed may give the bot the first move
    assert table.my_turn
    assert table._next_focus(None, table.match.legal_actions()) == "button.tl-move[data-intent='act']"
    # the selector finds the board's move buttons
    assert re.search(
        r'<button type="button" class="[^"]*\btl-move\b[^"]*"[^>]* data-intent="act"', table.board.scene["html"]
    )


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_no_four_colour_toggle_and_no_trick_controls(game: str) -> None:
    table = PlayTable(game, seed=1)
    assert list(table.look.children) == [table.look.large]
    assert "After a trick: wait for me" not in table.board.scene["html"]
    stepper = TrickStepper(game=game, players=2, seed=1)
    assert list(stepper.look.children) == [stepper.look.large]
    assert stepper.review_button not in stepper._rows[1].children
    with pytest.raises(tricklab.TricklabError, match="no review"):
        stepper.open_review()


def test_card_games_keep_their_toggles_and_review() -> None:
    table = PlayTable("jewel-vault", 4, seed=1)
    assert list(table.look.children) == [table.look.large, table.look.four_colour]
    stepper = TrickStepper(game="jewel-vault", players=4, seed=1)
    assert stepper.review_button in stepper._rows[1].children


def test_an_illegal_sow_from_the_page_is_refused_and_changes_nothing() -> None:
    table = PlayTable("kalah", seed=1)
    table._intent("act", "sow 3")  # 4 stones: the last lands in the store, Player 1 moves again
    empty = next(p for p in range(1, 7) if table.match.view(0).pits[p - 1] == 0)
    before = table.match.actions
    table._intent("act", f"sow {empty}")
    assert table.match.actions == before
    assert "empty" in table.board.scene["html"] and 'role="alert"' in table.board.scene["html"]
    table._intent("act", '<img src=x onerror="alert(1)">')
    assert table.match.actions == before and "<img src=x" not in table.board.scene["html"]


def test_the_kalah_hint_is_the_search_bots_move() -> None:
    from tricklab.bots.kalah import SearchBot

    table = PlayTable("kalah", seed=5)
    hinted = table.hint()
    bot = SearchBot(table.rules, 0, "5:hint")
    assert hinted == bot.choose(table.match.view(0), table.match.legal_actions())
    assert any(r.rule_id == "bot.kalah.search" for r in table._hint.reasons)  # type: ignore[union-attr]


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_the_prompt_is_the_engines_own_words_for_the_choice(game: str) -> None:
    table = PlayTable(game, seed=3, pace=0)
    table.finish_bots()
    why = table.rules.explain_choice(table.match.view(table.seat), table.seat)
    assert why.rule_id in table.rules.rulebook
    assert f"Your move: {why.text}" in table.board.scene["html"]


def test_each_mandala_move_row_shows_the_cards_of_its_colour_in_hand() -> None:
    table = PlayTable("mandala", seed=1, pace=0)
    table.finish_bots()
    hand = table.match.view(table.seat).hands[table.seat]
    assert hand
    rows = dict(
        re.findall(
            r'aria-label="Moves with ([a-z]+)"><span class="tl-chip[^"]*" aria-label="(\d+) \1"',
            table.board.scene["html"],
        )
    )
    assert {colour: int(n) for colour, n in rows.items()} == dict(hand)
