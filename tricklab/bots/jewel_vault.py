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

It decides on the core's terms: card ids and masks from the view (``hand_mask``,
``trick_ids``) and action ids (:meth:`HeuristicBot.choose_id`, what the advisor calls);
:meth:`HeuristicBot.choose` is the same decision for the checked API's actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from ..actions import Action
from ..games.core import bits, mask_of
from ..games.jewel_vault import (
    ANNOUNCE,
    ANNOUNCE_BASE,
    CARD_IDS,
    PASS,
    PASS_BASE,
    PLAY,
    STEAL,
    STEAL_BASE,
    SUIT_INDEX,
    JewelVault,
    JewelVaultView,
    Phase,
    action_table,
)

_HIGH = 11  # Jack or better counts as a likely trick
_HIGH_MASK = mask_of(i for i, rank in enumerate(CARD_IDS.rank) if rank >= _HIGH)
_SUIT, _RANK, _SUIT_MASKS = CARD_IDS.suit, CARD_IDS.rank, CARD_IDS.suit_mask
_SPADE, _HEART, _DIAMOND = SUIT_INDEX["S"], SUIT_INDEX["H"], SUIT_INDEX["D"]
_PLAYS = len(CARD_IDS)  # action ids below this play the card of that id


class SeatView(Protocol):
    """What the bot reads of a seat's view: :class:`~tricklab.games.jewel_vault.JewelVaultView`
    (the checked API's) and :class:`~tricklab.games.jewel_vault.JewelVaultCoreView` (the core's,
    cheap) both have it."""

    @property
    def phase(self) -> Phase: ...
    @property
    def hand_mask(self) -> int: ...
    @property
    def trick_ids(self) -> tuple[int, ...]: ...
    @property
    def announced(self) -> int | None: ...
    @property
    def tricks_won(self) -> tuple[int, ...]: ...
    @property
    def supply(self) -> int: ...
    @property
    def showrooms(self) -> tuple[int, ...]: ...
    @property
    def sides(self) -> tuple[int, ...]: ...


class HeuristicBot:
    def __init__(self, rules: JewelVault, seat: int, seed: int | str = 0) -> None:
        self.rules = rules
        self.seat = seat
        self._side = rules.side_of(seat)
        self._trick_size = rules.trick_size
        self._pass_ids = action_table().pass_ids
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"{self.rules.name} HeuristicBot(seat={self.seat})"

    def choose(self, view: JewelVaultView, legal_actions: Sequence[Action]) -> Action:
        ids = [self.rules.action_id(a) for a in legal_actions]
        known = [i for i in ids if i is not None]
        if not known:
            return legal_actions[0]
        return legal_actions[ids.index(self.choose_id(view, known))]

    def choose_id(self, view: SeatView, legal_ids: Sequence[int]) -> int:
        """The decision as an action id, from a view of the seat (the checked API's or the
        core's, ``rules.core_view``) and the ids the core lists."""
        phase = view.phase
        if phase == PLAY:
            return self._play(view, legal_ids)
        if phase == STEAL:
            return self._steal(view, legal_ids)
        if phase == PASS:
            return self._pass(view, legal_ids)
        if phase == ANNOUNCE:
            return self._announce(view, legal_ids)
        return legal_ids[0]

    # --- values -----------------------------------------------------------------------------

    def action_value(self, view: SeatView, suit: str) -> float:
        """Points this side gains (or a rival loses) from one ``suit`` action now."""
        return self._value(view, SUIT_INDEX[suit])

    def _value(self, view: SeatView, suit: int) -> float:
        if suit == _DIAMOND:
            return 2.0 if view.supply else 0.0
        if suit == _HEART:
            return 1.0 if view.supply else 0.0
        side = self._side
        own = view.showrooms[side]
        others = [v for s, v in enumerate(view.showrooms) if s != side]
        if suit == _SPADE:
            if not own:
                return 0.0
            # safety matters more the more the showroom stands out as a target
            exposed = own >= max(others, default=0)
            return 1.0 + (min(1.0, 0.15 * own) if exposed else 0.05 * own)
        if not any(others):
            return 0.0
        # one point for this side, and one fewer for one of the rivals
        return 1.0 + 1.0 / len(others)

    def _ducking(self, view: SeatView) -> bool:
        """Aim for no trick this round: none won yet and few high cards in hand."""
        if view.tricks_won[self.seat]:
            return False
        hand = view.hand_mask
        high = (hand & _HIGH_MASK).bit_count()
        return high <= max(1, hand.bit_count() // 6) and view.supply > 0

    # --- decisions --------------------------------------------------------------------------

    def _announce(self, view: SeatView, legal: Sequence[int]) -> int:
        hand = view.hand_mask
        lengths = sorted((hand & m).bit_count() for m in _SUIT_MASKS)
        short = [n for n in lengths if 1 <= n <= 3]
        n = short[0] if short else 1
        choice = ANNOUNCE_BASE + n - 1
        return choice if choice in legal else legal[0]

    def _pass(self, view: SeatView, legal: Sequence[int]) -> int:
        hand = view.hand_mask
        k = view.announced or 1
        ids = bits(hand)
        count = [(hand & m).bit_count() for m in _SUIT_MASKS]
        total = [0, 0, 0, 0]
        for c in ids:
            total[_SUIT[c]] += _RANK[c]

        def weakness(c: int) -> tuple[int, int, int]:
            suit = _SUIT[c]
            return (count[suit], total[suit], _RANK[c])

        choice = self._pass_ids.get(mask_of(sorted(ids, key=weakness)[:k]))
        return choice if choice is not None and choice in legal else legal[0]

    def _steal(self, view: SeatView, legal: Sequence[int]) -> int:
        steals = [a for a in legal if STEAL_BASE <= a < PASS_BASE]
        if not steals:
            return legal[0]
        sides = view.sides

        def tricks(side: int) -> int:
            return sum(t for s, t in enumerate(view.tricks_won) if sides[s] == side)

        def appeal(action: int) -> tuple[int, int, int]:
            target = action - STEAL_BASE
            side = sides[target]
            return (view.showrooms[side], tricks(side), -target)

        return max(steals, key=appeal)

    def _play(self, view: SeatView, legal: Sequence[int]) -> int:
        plays = [a for a in legal if a < _PLAYS]
        if len(plays) == 1:
            return plays[0]
        trick = view.trick_ids
        ducking = self._ducking(view)
        values = [self._value(view, suit) for suit in range(4)]
        if not trick:
            return self._lead(plays, values, ducking)
        led = _SUIT[trick[0]]
        follows = [a for a in plays if _SUIT[a] == led]
        if not follows:
            return self._discard(view, plays, values, ducking)
        best = max(_RANK[c] for c in trick if _SUIT[c] == led)
        winners = [a for a in follows if _RANK[a] > best]
        losers = [a for a in follows if _RANK[a] < best]
        last = len(trick) == self._trick_size - 1
        wanted = values[led] > 0 and not ducking
        rank = _RANK.__getitem__
        if ducking or not wanted:
            if losers:
                return max(losers, key=rank)
            return min(follows, key=rank)
        if winners:
            return min(winners, key=rank) if last else max(winners, key=rank)
        return min(follows, key=rank)

    @staticmethod
    def _lead(plays: list[int], values: list[float], ducking: bool) -> int:
        if ducking:
            return min(plays, key=lambda a: (_RANK[a], -values[_SUIT[a]]))
        return max(plays, key=lambda a: (_RANK[a] + 2 * values[_SUIT[a]], -_RANK[a]))

    @staticmethod
    def _discard(view: SeatView, plays: list[int], values: list[float], ducking: bool) -> int:
        hand = view.hand_mask
        counts = [(hand & m).bit_count() for m in _SUIT_MASKS]

        def score(action: int) -> tuple[float, int, int]:
            # best action first; then the shorter suit (a new void); then the card to shed
            suit, rank = _SUIT[action], _RANK[action]
            return (values[suit], -counts[suit], rank if ducking else -rank)

        return max(plays, key=score)
