"""Tricks & Stones' review (:mod:`tricklab.review`): how a sampled deal goes into a state, the
view a bot decides from, the seat's round score, tricks and prediction, and another player's gem
action (skipped, as in the advice)."""

from __future__ import annotations

from typing import Any

from ...judge import Wording
from ...review import ReviewEntry, nothing_given
from ..base import GameState, Rules
from . import rules as ts
from .advice import hands_of, round_of, with_hands


def _ts_deal(rules: Rules[Any], state: GameState, hands: tuple[int, ...], aside: int) -> GameState:
    assert isinstance(rules, ts.TricksAndStones) and isinstance(state, ts.TricksAndStonesState)
    return rules.with_hands(state, hands, aside)


def _ts_view(rules: Rules[Any], state: GameState, seat: int) -> object:
    assert isinstance(rules, ts.TricksAndStones) and isinstance(state, ts.TricksAndStonesState)
    return rules.core_view(state, seat)


def _ts_score(rules: Rules[Any], start: GameState, end: GameState, seat: int, round_index: int) -> int:
    assert isinstance(end, ts.TricksAndStonesState)
    return end.round_scores[round_index][seat]


def _ts_tricks(rules: Rules[Any], state: GameState, seat: int) -> int:
    assert isinstance(state, ts.TricksAndStonesState)
    return state.tricks_won[seat]


def _ts_target(rules: Rules[Any], state: GameState, seat: int) -> int | None:
    assert isinstance(state, ts.TricksAndStonesState)
    return state.predictions[seat]


def _ts_aside(state: GameState, seat: int) -> int | None:
    """Another player's gem action: skipped (it moves only that player's gems, TS-7)."""
    assert isinstance(state, ts.TricksAndStonesState)
    return ts.SKIP_ID if state.phase is ts.GEMS and state.to_play != seat else None


#: Thresholds: a round scores 0 to 11 and one trick off the prediction costs the 3-point
#: expedition bonus (and usually the gems in the planned chamber): that is a blunder.
TS_REVIEW = ReviewEntry(
    ts.IDS,
    round_of,
    hands_of,
    with_hands,
    nothing_given,
    _ts_deal,
    _ts_view,
    frozenset({ts.PREDICT}),
    _ts_score,
    Wording("ts.trick", "ts.gems.places", "ts.score.bonus", "ts.score.chamber", bonus="the 3-point bonus"),
    _ts_tricks,
    _ts_target,
    _ts_aside,
    thresholds={"inaccuracy": 1.0, "mistake": 2.0, "blunder": 3.0},
)
