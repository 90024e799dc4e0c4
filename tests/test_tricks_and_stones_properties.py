"""Property tests: many seeded bot matches of Tricks & Stones keep the game's invariants.

As many matches per player count as the hypothesis profile gives (tests/conftest.py: 200 by
default), random and heuristic bots mixed. Every decision is judged by the rules stated
directly in this file (follow suit and trump leads, when trump breaks, the gem points of
each place, where gems may be placed and moved), not by the engine's own functions.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import tricklab
from tricklab import Move, Place, Play, Predict, Skip
from tricklab.cards import Card
from tricklab.games.tricks_and_stones import TricksAndStonesState

bots = st.sampled_from(["random", "heuristic"])
seeds = st.integers(min_value=0, max_value=2**63 - 1)


def check_state(rules: Any, state: TricksAndStonesState) -> None:
    deck = Counter(rules.deck())
    held = Counter(itertools.chain(state.aside, state.trick, *state.hands, *state.won_cards))
    assert held == deck, "all 32 cards accounted for, each exactly once"
    for seat in range(rules.players):
        assert state.supply[seat] + sum(state.board[seat]) == 8, "gems conserved per player"
        assert all(g >= 0 for g in state.board[seat]) and state.supply[seat] >= 0
    assert sum(state.tricks_won) == state.tricks_played
    for scores in state.round_scores:
        assert all(0 <= s <= 11 for s in scores), "a round scores 0 to 11"


# (place points, move points) by finishing place, first place first (the seed's gem table)
GEM_POINTS = {3: ((2, 2), (1, 1), (0, 1)), 4: ((2, 2), (1, 1), (0, 1), (0, 0))}


def oracle_may_play(
    hand: tuple[Card, ...], trick: tuple[Card, ...], trump: str | None, broken: bool, card: Card
) -> bool:
    """TS-4 and the seed's "Playing a Trick", stated directly: follow the led suit if able;
    trump is led only once broken, or from a hand of nothing but trumps."""
    if card not in hand:
        return False
    if trick:
        led = trick[0].suit
        return card.suit == led or not any(c.suit == led for c in hand)
    if trump and card.suit == trump and not broken:
        return all(c.suit == trump for c in hand)
    return True


def oracle_gems_ok(state: TricksAndStonesState, action: Any, players: int, ring: bool) -> bool:
    """TS-6/TS-7 and the seed's gem table, stated directly, for the player first in the queue."""
    seat, place = state.gem_queue[0]
    place_points, move_points = GEM_POINTS[players][place]
    if isinstance(action, Skip):
        return True
    if isinstance(action, Place):
        chambers = action.chambers
        return (
            0 < len(chambers) <= place_points
            and len(set(chambers)) == len(chambers)
            and all(0 <= c < 6 and c != state.predictions[seat] for c in chambers)
            and len(chambers) <= state.supply[seat]
        )
    assert isinstance(action, Move)
    if not 0 < len(action.steps) <= move_points:
        return False
    gems = list(state.board[seat])
    for a, b in action.steps:
        adjacent = abs(a - b) == 1 or (ring and {a, b} == {0, 5})
        if not (0 <= a < 6 and 0 <= b < 6 and adjacent and gems[a] > 0):
            return False
        gems[a] -= 1
        gems[b] += 1
    return True


def check_match(players: int, seed: int, bot: str) -> None:
    rules = tricklab.get_rules("tricks-and-stones", players=players)
    match = rules.play(seed=seed, bots=bot)
    states = match.states
    for before, action, after in zip(states[:-1], match.actions, states[1:], strict=True):
        check_state(rules, before)
        seat = before.to_play
        assert seat is not None
        if isinstance(action, Play):
            assert before.phase == "play"
            hand, trick, trump = before.hands[seat], before.trick, before.trump
            assert oracle_may_play(hand, trick, trump, before.trump_broken, action.card)
            offered = {a.card for a in rules.legal_actions(before) if isinstance(a, Play)}
            assert offered == {c for c in hand if oracle_may_play(hand, trick, trump, before.trump_broken, c)}
            # TS-4: broken by a trump played on another led suit, never by leading one
            breaks = bool(trick) and action.card.suit == trump != trick[0].suit
            if after.round == before.round:
                assert after.trump_broken == (before.trump_broken or breaks)
        elif isinstance(action, Predict):
            assert before.phase == "predict" and 0 <= action.n <= 5
        else:
            assert before.phase == "gems" and before.gem_queue[0][0] == seat
            assert oracle_gems_ok(before, action, players, rules.options.chambers == "ring"), str(action)
    check_state(rules, match.state)
    assert match.is_over and len(match.state.round_scores) == 4
    replayed = tricklab.Match.from_json(match.to_json())
    assert replayed.states == states, "replaying the record reproduces every state"
    result = match.result
    assert result is not None and result.totals == match.state.totals


@given(seed=seeds, bot=bots)
def test_three_player_matches_keep_invariants(seed: int, bot: str) -> None:
    check_match(3, seed, bot)


@given(seed=seeds, bot=bots)
def test_four_player_matches_keep_invariants(seed: int, bot: str) -> None:
    check_match(4, seed, bot)
