"""Oh Hell's review (:mod:`tricklab.review`): how a sampled deal goes into a state, the view a bot
decides from, and the seat's deal score, tricks and bid."""

from __future__ import annotations

from typing import Any

from ...judge import Wording
from ...review import ReviewEntry, nothing_given
from ..base import GameState, Rules
from .advice import hands_of, round_of, shown, with_hands
from .facts import IDS
from .rulebook import EXACT_BONUS
from .rules import OhHell, OhHellState


def _deal(rules: Rules[Any], state: GameState, hands: tuple[int, ...], aside: int) -> GameState:
    """The sampled hands in the state; the aside and the turned-up card are the stock."""
    assert isinstance(state, OhHellState)
    return state._replace(held=hands, stock=aside | 1 << state.turned)


def _view(rules: Rules[Any], state: GameState, seat: int) -> object:
    assert isinstance(rules, OhHell) and isinstance(state, OhHellState)
    return rules.core_view(state, seat)


def _score(rules: Rules[Any], start: GameState, end: GameState, seat: int, round_index: int) -> int:
    assert isinstance(end, OhHellState)
    return end.round_scores[round_index][seat]


def _tricks(rules: Rules[Any], state: GameState, seat: int) -> int:
    assert isinstance(state, OhHellState)
    return state.tricks_won[seat]


def _target(rules: Rules[Any], state: GameState, seat: int) -> int | None:
    assert isinstance(state, OhHellState)
    return state.bids[seat]


#: Thresholds: a deal scores a point a trick and 10 more for an exact bid, so a card that costs
#: the bid is a blunder; losing a trick that scored only its point is an inaccuracy.
OH_REVIEW = ReviewEntry(
    IDS,
    round_of,
    hands_of,
    with_hands,
    nothing_given,
    _deal,
    _view,
    frozenset(),
    _score,
    Wording("oh.trick", None, "oh.score", "oh.score", "bid", "bid", f"the {EXACT_BONUS}-point bonus"),
    _tricks,
    _target,
    thresholds={"inaccuracy": 1.0, "mistake": 3.0, "blunder": 6.0},
    shown=shown,
)
