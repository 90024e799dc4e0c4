"""Property tests: many seeded bot matches of Tricks & Stones keep the game's invariants.

As many matches per player count as the hypothesis profile gives (tests/conftest.py: 200 by
default), random and heuristic bots mixed.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import tricklab
from tricklab import Play
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


def check_match(players: int, seed: int, bot: str) -> None:
    rules = tricklab.get_rules("tricks-and-stones", players=players)
    match = rules.play(seed=seed, bots=bot)
    states = match.states
    for before, action in zip(states, match.actions, strict=False):
        check_state(rules, before)
        if isinstance(action, Play):
            seat = before.to_play
            legal = rules.legal_plays(
                before.hands[seat], trick=before.trick, trump=before.trump, trump_broken=before.trump_broken
            )
            assert action.card in legal, "every played card was legal"
        assert action in rules.legal_actions(before), "every action was one of the legal actions"
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
