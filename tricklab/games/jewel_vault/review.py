"""Jewel Vault's review (:mod:`tricklab.review`): how a sampled deal goes into a state, the view a
bot decides from and the points the seat's side gained in the round (JV-8)."""

from __future__ import annotations

from typing import Any

from ...judge import Wording
from ...review import ReviewEntry
from .. import jewel_vault as jv
from ..base import GameState, Rules
from .advice import given, hands_of, round_of, with_hands


def _jv_deal(rules: Rules[Any], state: GameState, hands: tuple[int, ...], aside: int) -> GameState:
    assert isinstance(rules, jv.JewelVault) and isinstance(state, jv.JewelVaultState)
    return rules.with_hands(state, hands)  # the cards in no hand become the cards aside


def _jv_view(rules: Rules[Any], state: GameState, seat: int) -> object:
    assert isinstance(rules, jv.JewelVault) and isinstance(state, jv.JewelVaultState)
    return rules.core_view(state, seat)


def _jv_score(rules: Rules[Any], start: GameState, end: GameState, seat: int, round_index: int) -> int:
    """The points the seat's side gained in the round (JV-8 values of the jewels)."""
    assert isinstance(rules, jv.JewelVault)
    assert isinstance(start, jv.JewelVaultState) and isinstance(end, jv.JewelVaultState)
    side = rules.side_of(seat)
    return rules.points_of(end.jewels)[side] - rules.points_of(start.jewels)[side]


#: Thresholds: a suit action moves one jewel (1 or 2 points), so a round's gains are small and
#: one lost ♦ action (2 points) is already a mistake.
JV_REVIEW = ReviewEntry(
    jv.CARD_IDS,
    round_of,
    hands_of,
    with_hands,
    given,
    _jv_deal,
    _jv_view,
    frozenset({jv.PASS}),
    _jv_score,
    Wording("jv.trick.action", None, None, "jv.score"),
    thresholds={"inaccuracy": 0.75, "mistake": 1.5, "blunder": 3.0},
)
