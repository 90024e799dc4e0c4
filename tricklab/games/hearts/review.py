"""Hearts' review (:mod:`tricklab.review`): how a sampled deal goes into a state, the view a bot
decides from, and the seat's hand score. Points are bad in Hearts, so the review's score of a
hand is the points taken with their sign turned: more is better, as the review reads it."""

from __future__ import annotations

from typing import Any

from ...judge import Wording
from ...review import ReviewEntry
from ..base import GameState, Rules
from .facts import IDS
from .rules import PASS, PLAYERS, Hearts, HeartsState


def round_of(state: GameState) -> int:
    assert isinstance(state, HeartsState)
    return state.round


def hands_of(state: GameState) -> tuple[int, ...]:
    assert isinstance(state, HeartsState)
    return state.held


def with_hands(rules: Rules[Any], state: GameState, hands: tuple[int, ...]) -> GameState:
    assert isinstance(state, HeartsState)
    return state._replace(held=hands)


def given(rules: Rules[Any], state: GameState, seat: int) -> tuple[int, int] | None:
    """Where the cards ``seat`` passed are, once they have changed hands: with the receiver."""
    assert isinstance(state, HeartsState)
    if not state.gave[seat] or not state.direction:
        return None
    return (seat + state.direction) % PLAYERS, state.gave[seat]


def _deal(rules: Rules[Any], state: GameState, hands: tuple[int, ...], aside: int) -> GameState:
    """The sampled hands in the state (every card is in a hand or played: nothing lies aside)."""
    assert isinstance(state, HeartsState) and not aside
    return state._replace(held=hands)


def _view(rules: Rules[Any], state: GameState, seat: int) -> object:
    assert isinstance(rules, Hearts) and isinstance(state, HeartsState)
    return rules.core_view(state, seat)


def _score(rules: Rules[Any], start: GameState, end: GameState, seat: int, round_index: int) -> int:
    """The hand's points of the seat, their sign turned (fewer points, a higher score)."""
    assert isinstance(end, HeartsState)
    return -end.round_scores[round_index][seat]


#: Thresholds, in points taken: a heart is 1, so a card that costs a heart or two is an
#: inaccuracy, one that costs the Queen of spades (13) a blunder.
HT_REVIEW = ReviewEntry(
    IDS,
    round_of,
    hands_of,
    with_hands,
    given,
    _deal,
    _view,
    frozenset({PASS}),
    _score,
    Wording("ht.trick", None, None, "ht.score"),
    thresholds={"inaccuracy": 1.0, "mistake": 3.0, "blunder": 8.0},
)
