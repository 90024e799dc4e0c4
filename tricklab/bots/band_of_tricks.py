"""A sensible Band of Tricks bot.

* Bids from its hand: every card gets a chance to win a trick from its number (high
  numbers win tricks of three or more suits, and a suit's top cards win the rest); the
  chances are added up per suit, and the Metal chances go to the suit it expects most
  wins in. A hand with almost no chance bids Zero Success.
* Plays toward its bid: it tries to win a trick only with a card whose suit still needs
  wins (or with Metal while any suit does), as cheaply as it can when it plays last; it
  gets rid of dangerous high cards when it wants to lose.
* Counts a Metal win for the suit where it helps its score most, preferring the suit
  that is furthest short of its bid.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action, AssignMetal, Bid, Play
from ..cards import Card
from ..games.band_of_tricks import (
    ASSIGN,
    BID,
    METAL,
    PLAY,
    WIN_INDEX,
    BandOfTricks,
    BandOfTricksView,
    _rank,
)

# The number from which a card starts to win tricks, per suit (a suit's top cards are
# strong because they win the one- and two-suit tricks of that suit too).
_FLOOR = {"R": 10, "S": 9, "P": 8, "M": 11}
_SPAN = 5.0
# More players: more cards in each trick, so each card wins less often.
_SCALE = {3: 0.78, 4: 0.68, 5: 0.61}
_ZERO_BELOW = 0.8


class HeuristicBot:
    def __init__(self, rules: BandOfTricks, seat: int, seed: int | str = 0) -> None:
        self.rules = rules
        self.seat = seat
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"{self.rules.name} HeuristicBot(seat={self.seat})"

    def choose(self, view: BandOfTricksView, legal_actions: Sequence[Action]) -> Action:
        if view.phase == BID:
            return self._bid(view, legal_actions)
        if view.phase == PLAY:
            return self._play(view, legal_actions)
        if view.phase == ASSIGN:
            return self._assign(view, legal_actions)
        return legal_actions[0]

    # bidding ----------------------------------------------------------------------------------

    def chance(self, card: Card) -> float:
        """A rough chance that ``card`` wins a trick."""
        raw = (card.rank - _FLOOR[card.suit] + 1) / _SPAN
        return max(0.0, min(1.0, raw)) * _SCALE[self.rules.players]

    def estimate(self, hand: Sequence[Card]) -> dict[str, float]:
        """Expected wins per suit letter (R, S, P, M) for ``hand``."""
        expected = {"R": 0.0, "S": 0.0, "P": 0.0, "M": 0.0}
        for card in hand:
            expected[card.suit] += self.chance(card)
        return expected

    def _bid(self, view: BandOfTricksView, legal: Sequence[Action]) -> Action:
        expected = self.estimate(view.hand)
        metal = expected.pop(METAL)
        if sum(expected.values()) + metal < _ZERO_BELOW:
            return Bid.zero_success()
        # Metal wins are counted where the bidder plans: add them to the strongest suit.
        strongest = max(expected, key=lambda s: expected[s])
        expected[strongest] += metal
        values = {s: max(0, min(6, round(v))) for s, v in expected.items()}
        bid = Bid(values["R"], values["S"], values["P"])
        if bid.rock + bid.soul + bid.pops == 0:
            return Bid.zero_success()
        return bid if bid in legal else legal[0]

    # playing ----------------------------------------------------------------------------------

    def _needs(self, view: BandOfTricksView) -> dict[str, int]:
        """Wins still wanted per suit letter; all zero under Zero Success."""
        bid = view.bids[self.seat]
        won = view.won[self.seat]
        if bid is None or bid.zero:
            return {"R": 0, "S": 0, "P": 0}
        return {
            "R": bid.rock - won[WIN_INDEX["R"]],
            "S": bid.soul - won[WIN_INDEX["S"]],
            "P": bid.pops - won[WIN_INDEX["P"]],
        }

    def _play(self, view: BandOfTricksView, legal: Sequence[Action]) -> Action:
        plays = [a.card for a in legal if isinstance(a, Play)]
        needs = self._needs(view)
        trick = view.trick
        last = len(trick) == self.rules.players - 1

        def useful(card: Card) -> bool:
            if card.suit == METAL:
                return any(n > 0 for n in needs.values())
            return needs[card.suit] > 0

        def wins(card: Card) -> bool:
            if not trick:
                return self.chance(card) >= 0.6
            cards = (*trick, card)
            return _rank(cards)[0] == len(cards) - 1

        def keep_metal(card: Card) -> tuple[bool, int]:
            # Metal can count for any suit, so keep it for later when another card does the job
            return (card.suit == METAL, card.rank)

        good = [c for c in plays if useful(c) and wins(c)]
        if good:
            # last to play: the cheapest sure winner; otherwise the strongest, as later cards may beat it
            choice = min(good, key=keep_metal) if last else max(good, key=lambda c: (c.suit != METAL, c.rank))
            return Play(choice)
        losers = [c for c in plays if not wins(c)]
        if losers:
            # shed the most dangerous card: a high card of a suit that needs no more wins
            choice = max(losers, key=lambda c: (not useful(c), c.rank if not useful(c) else -c.rank))
            return Play(choice)
        # every card wins: give up the least valuable one
        return Play(min(plays, key=lambda c: (useful(c), c.rank)))

    # counting Metal wins ------------------------------------------------------------------------

    def _assign(self, view: BandOfTricksView, legal: Sequence[Action]) -> Action:
        choices = view.metal_choices
        if not choices:
            return legal[0]
        best = max(choices, key=lambda c: (c.change, c.bid - c.won))
        action = AssignMetal(best.suit)
        return action if action in legal else legal[0]
