"""Band of Tricks' review (:mod:`tricklab.review`): how a sampled deal goes into a state (the
odd card of three players aside), the view a bot decides from and the seat's score for a deal."""

from __future__ import annotations

from typing import Any

from ...judge import Wording
from ...review import ReviewEntry, nothing_given
from .. import band_of_tricks as bt
from ..base import GameState, Rules
from .advice import hands_of, round_of, with_hands


def _bt_deal(rules: Rules[Any], state: GameState, hands: tuple[int, ...], aside: int) -> GameState:
    assert isinstance(rules, bt.BandOfTricks) and isinstance(state, bt.BandOfTricksState)
    return rules.with_hands(state, hands)._replace(aside_mask=aside)  # the odd card of 3 players (BT-1)


def _bt_view(rules: Rules[Any], state: GameState, seat: int) -> object:
    assert isinstance(rules, bt.BandOfTricks) and isinstance(state, bt.BandOfTricksState)
    return rules.core_view(state, seat)


def _bt_score(rules: Rules[Any], start: GameState, end: GameState, seat: int, round_index: int) -> int:
    assert isinstance(end, bt.BandOfTricksState)
    return end.deal_scores[round_index][seat]


#: Thresholds: one trick off a suit's bid costs that suit's b + 1 points and one more; the
#: rounds swing wider than in Tricks & Stones.
BT_REVIEW = ReviewEntry(
    bt.IDS,
    round_of,
    hands_of,
    with_hands,
    nothing_given,
    _bt_deal,
    _bt_view,
    frozenset(),
    _bt_score,
    Wording("bt.trick", None, None, "bt.score.deal"),
    thresholds={"inaccuracy": 1.0, "mistake": 2.5, "blunder": 5.0},
)
