"""A sensible Jewel Vault bot.

* Values each suit action by what it is worth to its side right now: ♦ puts 2 points in
  the vault, ♥ 1 point in the showroom, ♠ 1 point and moves a jewel out of reach (worth
  more the bigger and more exposed its showroom), ♣ 1 point for itself and 1 fewer for
  one of its rivals. An action that cannot be done is worth nothing.
* Passes its weakest suits, emptying the shortest one first: a void lets it choose an
  action whenever that suit is led.
* Values zero-trick rounds: with no trick won yet and a hand without high cards, it
  ducks every trick it can and aims for the two ♦ actions (4 points) at the end.
* Otherwise wins tricks whose led suit is worth having, as cheaply as it can.
* Steals from the largest showroom; on equal showrooms, from the side with more tricks
  this round (the one most likely to be ahead).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action, Announce, Pass, Play, Steal
from ..cards import Card
from ..games.jewel_vault import ANNOUNCE, PASS, PLAY, STEAL, JewelVault, JewelVaultView

_HIGH = 11  # Jack or better counts as a likely trick


class HeuristicBot:
    def __init__(self, rules: JewelVault, seat: int, seed: int | str = 0) -> None:
        self.rules = rules
        self.seat = seat
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"{self.rules.name} HeuristicBot(seat={self.seat})"

    def choose(self, view: JewelVaultView, legal_actions: Sequence[Action]) -> Action:
        if view.phase == PLAY:
            return self._play(view, legal_actions)
        if view.phase == STEAL:
            return self._steal(view, legal_actions)
        if view.phase == PASS:
            return self._pass(view, legal_actions)
        if view.phase == ANNOUNCE:
            return self._announce(view, legal_actions)
        return legal_actions[0]

    # --- values -----------------------------------------------------------------------------

    def action_value(self, view: JewelVaultView, suit: str) -> float:
        """Points this side gains (or a rival loses) from one ``suit`` action now."""
        side = self.rules.side_of(self.seat)
        if suit == "D":
            return 2.0 if view.supply else 0.0
        if suit == "H":
            return 1.0 if view.supply else 0.0
        own = view.showrooms[side]
        others = [v for s, v in enumerate(view.showrooms) if s != side]
        if suit == "S":
            if not own:
                return 0.0
            # safety matters more the more the showroom stands out as a target
            exposed = own >= max(others, default=0)
            return 1.0 + (min(1.0, 0.15 * own) if exposed else 0.05 * own)
        if not any(others):
            return 0.0
        # one point for this side, and one fewer for one of the rivals
        return 1.0 + 1.0 / len(others)

    def _ducking(self, view: JewelVaultView) -> bool:
        """Aim for no trick this round: none won yet and few high cards in hand."""
        if view.tricks_won[self.seat]:
            return False
        high = sum(1 for c in view.hand if c.rank >= _HIGH)
        return high <= max(1, len(view.hand) // 6) and view.supply > 0

    # --- decisions --------------------------------------------------------------------------

    def _announce(self, view: JewelVaultView, legal: Sequence[Action]) -> Action:
        lengths = sorted(len([c for c in view.hand if c.suit == s]) for s in "SHDC")
        short = [n for n in lengths if 1 <= n <= 3]
        n = short[0] if short else 1
        return Announce(n) if Announce(n) in legal else legal[0]

    def _pass(self, view: JewelVaultView, legal: Sequence[Action]) -> Action:
        hand = view.hand
        k = view.announced or 1
        by_suit: dict[str, list[Card]] = {}
        for card in hand:
            by_suit.setdefault(card.suit, []).append(card)

        def weakness(card: Card) -> tuple[int, int, int]:
            cards = by_suit[card.suit]
            return (len(cards), sum(c.rank for c in cards), card.rank)

        chosen = set(sorted(hand, key=weakness)[:k])
        action = Pass(tuple(c for c in hand if c in chosen))
        return action if action in legal else legal[0]

    def _steal(self, view: JewelVaultView, legal: Sequence[Action]) -> Action:
        steals = [a for a in legal if isinstance(a, Steal)]
        if not steals:
            return legal[0]
        sides = view.sides

        def tricks(side: int) -> int:
            return sum(t for s, t in enumerate(view.tricks_won) if sides[s] == side)

        def appeal(action: Steal) -> tuple[int, int, int]:
            side = sides[action.target]
            return (view.showrooms[side], tricks(side), -action.target)

        return max(steals, key=appeal)

    def _play(self, view: JewelVaultView, legal: Sequence[Action]) -> Action:
        plays = [a for a in legal if isinstance(a, Play)]
        if len(plays) == 1:
            return plays[0]
        trick = view.trick
        ducking = self._ducking(view)
        if not trick:
            return self._lead(view, plays, ducking)
        led = trick[0].suit
        follows = [a for a in plays if a.card.suit == led]
        if not follows:
            return self._discard(view, plays, ducking)
        best = max(c.rank for c in trick if c.suit == led)
        winners = [a for a in follows if a.card.rank > best]
        losers = [a for a in follows if a.card.rank < best]
        last = len(trick) == self.rules.trick_size - 1
        wanted = self.action_value(view, led) > 0 and not ducking
        if ducking or not wanted:
            if losers:
                return max(losers, key=lambda a: a.card.rank)
            return min(follows, key=lambda a: a.card.rank)
        if winners:
            return min(winners, key=lambda a: a.card.rank) if last else max(winners, key=lambda a: a.card.rank)
        return min(follows, key=lambda a: a.card.rank)

    def _lead(self, view: JewelVaultView, plays: list[Play], ducking: bool) -> Action:
        if ducking:
            return min(plays, key=lambda a: (a.card.rank, -self.action_value(view, a.card.suit)))
        return max(plays, key=lambda a: (a.card.rank + 2 * self.action_value(view, a.card.suit), -a.card.rank))

    def _discard(self, view: JewelVaultView, plays: list[Play], ducking: bool) -> Action:
        counts: dict[str, int] = {}
        for card in view.hand:
            counts[card.suit] = counts.get(card.suit, 0) + 1

        def score(action: Play) -> tuple[float, int, int]:
            card = action.card
            # best action first; then the shorter suit (a new void); then the card to shed
            shed = card.rank if ducking else -card.rank
            return (self.action_value(view, card.suit), -counts[card.suit], shed)

        return max(plays, key=score)
