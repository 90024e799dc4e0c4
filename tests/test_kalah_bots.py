"""The Kalah bots (tricklab.games.kalah.bots): the heuristic bot's rules of thumb on hand-made
positions and its moves on many random ones; seeded matches against each other and a random
player; the search bot against a plain minimax written here over the core's functions; its
declaration in Kalah's capabilities."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Protocol

import pytest

from tricklab.actions import Sow
from tricklab.bots import Decider, heuristic_bot, make_bots
from tricklab.games.kalah import Kalah, KalahState, KalahView, store_of
from tricklab.games.kalah.bots import AGAIN, CAPTURE, GUARD, KEEP, SEARCH, HeuristicBot, SearchBot

RULES = Kalah.create(2)


def board(p0: tuple[int, ...], s0: int, p1: tuple[int, ...], s1: int) -> tuple[int, ...]:
    return (*p0, s0, *p1, s1)


def view_of(pits: tuple[int, ...], seat: int = 0) -> tuple[KalahState, KalahView]:
    state = RULES.position(pits, seat)
    return state, RULES.view(state, seat)


def random_positions(count: int, seed: int = 0) -> list[KalahState]:
    """Positions with a move to make, from seeded random games."""
    rng = random.Random(seed)
    found: list[KalahState] = []
    while len(found) < count:
        state = RULES.initial_state(0)
        for _ in range(rng.randrange(40)):
            if state.is_over:
                break
            state = RULES.core_step(state, rng.choice(RULES.core_legal(state)))
        if not state.is_over:
            found.append(state)
    return found


# --- the heuristic bot -------------------------------------------------------------------------


def test_heuristic_bot_moves_legally_and_decide_agrees_with_choose() -> None:
    for state in random_positions(300):
        seat = state.to_play
        assert seat is not None
        bot = HeuristicBot(RULES, seat)
        view = RULES.view(state, seat)
        legal = RULES.legal_actions(state)
        action = bot.choose(view, legal)
        assert action in legal
        decision = bot.decide(view, legal)
        assert decision.action == action
        assert decision.reasons[0].rule_id == "mk.turn"
        assert decision.reasons[-1].rule_id in (AGAIN, CAPTURE, GUARD, KEEP)
        assert RULES.actions[bot.choose_id(view, RULES.core_legal(state))] == action


def test_heuristic_bot_takes_an_extra_turn_nearest_the_store_first() -> None:
    # pit 6 (1 stone) and pit 5 (2 stones) both end in the store; pit 1 would capture 7
    state, view = view_of(board((1, 0, 0, 0, 2, 1), 0, (0, 0, 0, 0, 7, 0), 0))
    decision = HeuristicBot(RULES, 0).decide(view, RULES.legal_actions(state))
    assert decision.action == Sow(6)
    assert decision.reasons[-1].rule_id == AGAIN
    assert "move again" in decision.reasons[-1].text
    # the start: pit 3's four stones end in the store
    start = RULES.initial_state(0)
    assert HeuristicBot(RULES, 0).choose(RULES.view(start, 0), RULES.legal_actions(start)) == Sow(3)


def test_heuristic_bot_captures_the_most() -> None:
    # pit 1's stone falls into empty pit 2, across from 5 stones; pit 3 ends in pit 6, across from 2
    state, view = view_of(board((1, 0, 3, 0, 0, 0), 0, (2, 0, 0, 0, 5, 0), 0))
    decision = HeuristicBot(RULES, 0).decide(view, RULES.legal_actions(state))
    assert decision.action == Sow(1)
    assert decision.reasons[-1].rule_id == CAPTURE
    assert "6 stones" in decision.reasons[-1].text
    # the same for the second seat
    state, view = view_of(board((2, 0, 0, 0, 5, 0), 0, (1, 0, 3, 0, 0, 0), 0), seat=1)
    assert HeuristicBot(RULES, 1).choose(view, RULES.legal_actions(state)) == Sow(1)


def test_heuristic_bot_guards_against_a_capture() -> None:
    # sowing pit 2 would let the opponent's pit 5 stone capture the 2 stones of pit 1
    state, view = view_of(board((2, 2, 0, 0, 0, 0), 0, (0, 0, 0, 0, 1, 0), 0))
    decision = HeuristicBot(RULES, 0).decide(view, RULES.legal_actions(state))
    assert decision.action == Sow(1)
    assert decision.reasons[-1].rule_id == GUARD
    assert "nothing to capture" in decision.reasons[-1].text


def test_heuristic_bot_keeps_stones_on_its_side() -> None:
    state, view = view_of(board((0, 0, 0, 1, 0, 2), 0, (0, 0, 0, 2, 0, 0), 0))
    decision = HeuristicBot(RULES, 0).decide(view, RULES.legal_actions(state))
    assert decision.action == Sow(4)
    assert decision.reasons[-1].rule_id == KEEP


# --- matches -----------------------------------------------------------------------------------


class IdBot(Protocol):
    def choose_id(self, view: KalahView, legal_ids: Sequence[int]) -> int: ...


class RandomIds:
    def __init__(self, seed: str) -> None:
        self._rng = random.Random(seed)

    def choose_id(self, view: KalahView, legal_ids: Sequence[int]) -> int:
        return self._rng.choice(list(legal_ids))


Maker = Callable[[int, int], IdBot]  # (seat, game) -> bot


def score(first: Maker, second: Maker, games: int, opening: int) -> tuple[int, int, int]:
    """Wins, losses and draws of ``first`` against ``second`` over ``games`` seeded games,
    ``first`` taking seat 0 in the even games and seat 1 in the odd ones; each game opens
    with ``opening`` random sowings (the bots are deterministic: this varies the games)."""
    wins = losses = draws = 0
    for game in range(games):
        seat = game % 2
        bots: list[IdBot] = [first(seat, game), second(1 - seat, game)]
        if seat:
            bots.reverse()
        rng = random.Random(f"opening:{game}")
        state = RULES.initial_state(game)
        for _ in range(opening):
            state = RULES.core_step(state, rng.choice(RULES.core_legal(state)))
        while state.to_play is not None:
            mover = state.to_play
            legal = RULES.core_legal(state)
            action = bots[mover].choose_id(RULES.view(state, mover), legal)
            assert action in legal
            state = RULES.core_step(state, action)
        ahead = state.stores[seat] - state.stores[1 - seat]
        wins += ahead > 0
        losses += ahead < 0
        draws += ahead == 0
    return wins, losses, draws


def test_heuristic_bot_beats_a_random_player() -> None:
    wins, losses, _ = score(
        lambda seat, game: HeuristicBot(RULES, seat), lambda seat, game: RandomIds(f"{game}:{seat}"), 30, 0
    )
    assert wins >= 24, (wins, losses)


def test_search_bot_beats_the_heuristic_bot() -> None:
    wins, losses, _ = score(
        lambda seat, game: SearchBot(RULES, seat, depth=5), lambda seat, game: HeuristicBot(RULES, seat), 30, 2
    )
    assert wins >= 2 * losses and wins >= 18, (wins, losses)


# --- the search against a plain minimax -------------------------------------------------------


def minimax(state: KalahState, depth: int) -> int:
    """The value of ``state`` (not over) for the side to move, ``depth`` sowings deep, no pruning."""
    mover = state.to_play
    assert mover is not None
    if depth == 0:
        return state.pits[store_of(mover)] - state.pits[store_of(1 - mover)]
    return max(move_value(state, a, depth) for a in RULES.core_legal(state))


def move_value(state: KalahState, action: int, depth: int) -> int:
    mover = state.to_play
    assert mover is not None
    after = RULES.core_step(state, action)
    if after.to_play is None:
        return after.pits[store_of(mover)] - after.pits[store_of(1 - mover)]
    value = minimax(after, depth - 1)
    return value if after.to_play == mover else -value


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_search_values_equal_plain_minimax(depth: int) -> None:
    positions = [RULES.initial_state(0), *random_positions(5, seed=depth)]
    for state in positions:
        seat = state.to_play
        assert seat is not None
        bot = SearchBot(RULES, seat, depth=depth)
        view = RULES.view(state, seat)
        expected = {RULES.actions[a]: move_value(state, a, depth) for a in RULES.core_legal(state)}
        assert bot.values(view) == expected
        action = bot.choose(view, RULES.legal_actions(state))
        assert expected[action] == max(expected.values())
        decision = bot.decide(view, RULES.legal_actions(state))
        assert decision.action == action
        assert decision.reasons[-1].rule_id == SEARCH


def test_search_decide_says_how_far_it_looked() -> None:
    start = RULES.initial_state(0)
    decision = SearchBot(RULES, 0, depth=3).decide(RULES.view(start, 0), RULES.legal_actions(start))
    assert decision.reasons[-1].text.startswith("Searching 3 moves ahead, sowing pit ")
    # near the end the search sees every line to the end of the game
    state, view = view_of(board((0, 0, 0, 0, 0, 1), 20, (0, 0, 0, 0, 1, 0), 26))
    decision = SearchBot(RULES, 0).decide(view, RULES.legal_actions(state))
    assert decision.action == Sow(6)
    assert decision.reasons[-1].text.startswith("Searching to the end of the game")


def test_search_bot_answers_within_its_budget() -> None:
    start = RULES.initial_state(0)
    bot = SearchBot(RULES, 0)
    began = time.process_time()
    action = bot.choose(RULES.view(start, 0), RULES.legal_actions(start))
    assert time.process_time() - began < 2.0
    assert action in RULES.legal_actions(start)
    assert bot.reached >= 1


# --- the declaration -----------------------------------------------------------------------------


def test_kalah_declares_both_bots() -> None:
    offered = RULES.capabilities
    assert [name for name, _ in offered.bots] == ["heuristic", "search"]
    search = offered.bot("search")
    assert search is not None
    loaded: object = search.load()
    assert loaded is SearchBot
    bot = heuristic_bot(RULES, 1, "7:1")
    assert isinstance(bot, HeuristicBot) and isinstance(bot, Decider)
    assert isinstance(SearchBot(RULES, 0), Decider)
    match = RULES.play(seed=5, bots=make_bots(RULES, "heuristic", 5))
    assert RULES.result(match.state) is not None
