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
from functools import lru_cache
from typing import Protocol

from ...actions import Action, Announce, Play
from ...bots import FIRST_LISTED, Decision, first_listed
from ...cards import SUIT_SYMBOL
from ...explain import Reason, plural
from ..core import bits, mask_of
from . import (
    ANNOUNCE,
    ANNOUNCE_BASE,
    CARD_IDS,
    PASS,
    PASS_BASE,
    PLAY,
    STEAL,
    STEAL_BASE,
    SUIT_INDEX,
    SUITS,
    JewelVault,
    JewelVaultView,
    Phase,
    action_table,
)

_HIGH = 11  # Jack or better counts as a likely trick
_HIGH_MASK = mask_of(i for i, rank in enumerate(CARD_IDS.rank) if rank >= _HIGH)
_SUIT, _RANK, _SUIT_MASKS = CARD_IDS.suit, CARD_IDS.rank, CARD_IDS.suit_mask
_SPADE, _HEART, _DIAMOND, _CLUB = SUIT_INDEX["S"], SUIT_INDEX["H"], SUIT_INDEX["D"], SUIT_INDEX["C"]
_PLAYS = len(CARD_IDS)  # action ids below this play the card of that id
# card ids run by suit, then rank (Ace low): a suit's cards are one run of ids, lowest card first


@lru_cache(maxsize=256)
def _lead_keys(values: tuple[float, ...]) -> tuple[tuple[tuple[int, float], ...], tuple[tuple[float, int], ...]]:
    """What a lead compares, per card id, for these values of the suits' actions: ducking, the
    lowest card, then of the suit worth most; else the best mix of rank and worth, then the lower."""
    low = tuple((_RANK[a], -values[_SUIT[a]]) for a in range(_PLAYS))
    high = tuple((_RANK[a] + 2 * values[_SUIT[a]], -_RANK[a]) for a in range(_PLAYS))
    return low, high


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


# the rules of thumb (each decision names the one that chose)
ANNOUNCE_SHORT = "bot.jv.announce"  # the length of the shortest suit of 1 to 3 cards
ANNOUNCE_ONE = "bot.jv.announce.one"  # no such suit: 1
PASS_WEAK = "bot.jv.pass"  # the cards of the shortest, weakest suits
STEAL_BIG = "bot.jv.steal"  # the largest showroom, then the side with more tricks
ONLY = "bot.jv.only"  # one card may be played
LEAD_LOW = "bot.jv.lead-low"  # aiming at no trick: the lowest card
LEAD = "bot.jv.lead"  # a high card of a suit whose action is worth having
DISCARD = "bot.jv.discard"  # off suit: the card whose action is worth most now
DUCK = "bot.jv.duck"  # the trick is not wanted: the highest card that does not win
DUCK_FAILS = "bot.jv.duck-fails"  # not wanted, but every card beats the winner: the lowest
WIN_CHEAP = "bot.jv.win-cheap"  # wanted, last to play: the cheapest winner
WIN_HIGH = "bot.jv.win-high"  # wanted: the strongest winner
NO_WINNER = "bot.jv.no-winner"  # wanted but nothing wins: the lowest

_WORTH_WORDS = {  # suit index -> what its action is worth to the bot, as _value counts it
    _SPADE: "♠ (a showroom jewel into the vault: 1 point, and out of reach)",
    _HEART: "♥ (a jewel from the supply into the showroom: 1 point)",
    _DIAMOND: "♦ (a jewel from the supply into the vault: 2 points)",
    _CLUB: "♣ (a jewel from a rival's showroom: 1 point for you, 1 less for them)",
}


class HeuristicBot:
    """The Jewel Vault heuristic bot of one seat: :meth:`choose` plays, :meth:`decide` says why
    (the same decision), :meth:`choose_id` is the same on the core's ids (the advisor's play-outs)."""

    def __init__(self, rules: JewelVault, seat: int, seed: int | str = 0) -> None:
        self.rules = rules
        self.seat = seat
        self._side = rules.side_of(seat)
        self._trick_size = rules.trick_size
        self._pass_ids = action_table().pass_ids
        self._rng = random.Random(seed)
        self._winning_index = rules.winning_index
        self._values_stocked: dict[tuple[int, ...], tuple[float, ...]] = {}  # showrooms -> _values
        self._values_empty: dict[tuple[int, ...], tuple[float, ...]] = {}  # the same, the supply empty

    def __repr__(self) -> str:
        return f"{self.rules.name} HeuristicBot(seat={self.seat})"

    def choose(self, view: JewelVaultView, legal_actions: Sequence[Action]) -> Action:
        return self._decision(view, legal_actions)[0]

    def decide(self, view: JewelVaultView, legal_actions: Sequence[Action]) -> Decision:
        """The action :meth:`choose` takes (the same code decides) and why: the rule that limits
        the choice (``rules.explain_choice``), then the bot's rule of thumb (``bot.jv.*``)."""
        action, tag = self._decision(view, legal_actions)
        limit = self.rules.explain_choice(view, self.seat)
        return Decision(action, (limit, self._why(tag, view, action)))

    def _decision(self, view: JewelVaultView, legal_actions: Sequence[Action]) -> tuple[Action, str]:
        ids = [self.rules.action_id(a) for a in legal_actions]
        known = [i for i in ids if i is not None]
        if not known:
            return legal_actions[0], FIRST_LISTED
        chosen, tag = self._choice(view, known)
        return legal_actions[ids.index(chosen)], tag

    def choose_id(self, view: SeatView, legal_ids: Sequence[int]) -> int:
        """The decision as an action id, from a view of the seat (the checked API's or the
        core's, ``rules.core_view``) and the ids the core lists."""
        return self._choice(view, legal_ids)[0]

    def _choice(self, view: SeatView, legal_ids: Sequence[int]) -> tuple[int, str]:
        """The decision as an action id and the rule of thumb that made it."""
        phase = view.phase
        if phase == PLAY:
            return self._play(view, legal_ids)
        if phase == STEAL:
            return self._steal(view, legal_ids)
        if phase == PASS:
            return self._pass(view, legal_ids)
        if phase == ANNOUNCE:
            return self._announce(view, legal_ids)
        return legal_ids[0], FIRST_LISTED

    # --- values -----------------------------------------------------------------------------

    def action_value(self, view: SeatView, suit: str) -> float:
        """Points this side gains (or a rival loses) from one ``suit`` action now."""
        return self._value(view, SUIT_INDEX[suit])

    def _value(self, view: SeatView, suit: int) -> float:
        return self._values(view)[suit]

    def _values(self, view: SeatView) -> tuple[float, ...]:
        """What each suit's action is worth now, by suit index (♠ ♥ ♦ ♣); kept per showrooms for
        the next decisions (:meth:`_worth` reads only them and whether the supply is empty)."""
        supply = view.supply
        cache = self._values_stocked if supply else self._values_empty
        rooms = view.showrooms
        found = cache.get(rooms)
        if found is None:
            if len(cache) > 10_000:
                cache.clear()
            found = cache[rooms] = self._worth(bool(supply), rooms)
        return found

    def _worth(self, supply: bool, rooms: tuple[int, ...]) -> tuple[float, ...]:
        """The value of each suit's action, by suit index, with jewels in the supply or not and
        these showrooms (one per side)."""
        worth = [0.0, 0.0, 0.0, 0.0]
        if supply:
            worth[_DIAMOND], worth[_HEART] = 2.0, 1.0
        side = self._side
        own = rooms[side]
        others = rooms[:side] + rooms[side + 1 :]
        if own:
            # safety matters more the more the showroom stands out as a target
            exposed = own >= max(others, default=0)
            worth[_SPADE] = 1.0 + (min(1.0, 0.15 * own) if exposed else 0.05 * own)
        if any(others):
            # one point for this side, and one fewer for one of the rivals
            worth[_CLUB] = 1.0 + 1.0 / len(others)
        return tuple(worth)

    def _ducking(self, view: SeatView) -> bool:
        """Aim for no trick this round: none won yet and few high cards in hand."""
        if view.tricks_won[self.seat]:
            return False
        hand = view.hand_mask
        high = (hand & _HIGH_MASK).bit_count()
        return high <= max(1, hand.bit_count() // 6) and view.supply > 0

    # --- decisions --------------------------------------------------------------------------

    def _announce(self, view: SeatView, legal: Sequence[int]) -> tuple[int, str]:
        hand = view.hand_mask
        lengths = sorted((hand & m).bit_count() for m in _SUIT_MASKS)
        short = [n for n in lengths if 1 <= n <= 3]
        n = short[0] if short else 1
        choice = ANNOUNCE_BASE + n - 1
        return (choice, ANNOUNCE_SHORT if short else ANNOUNCE_ONE) if choice in legal else (legal[0], FIRST_LISTED)

    @staticmethod
    def pass_order(hand: int) -> list[int]:
        """The card ids of the hand mask ``hand``, the first to pass first: the cards of the
        shortest suit, then of the weaker suit (lower ranks in all), then the lower card."""
        ids = bits(hand)
        count = [(hand & m).bit_count() for m in _SUIT_MASKS]
        total = [0, 0, 0, 0]
        for c in ids:
            total[_SUIT[c]] += _RANK[c]
        # weakest first: the shortest suit, then the lowest total of ranks, then the lowest card
        # (then hand order, the order of ids)
        weakest = sorted([(count[_SUIT[c]], total[_SUIT[c]], _RANK[c], c) for c in ids])
        return [w[3] for w in weakest]

    def _pass(self, view: SeatView, legal: Sequence[int]) -> tuple[int, str]:
        k = view.announced or 1
        choice = self._pass_ids.get(mask_of(self.pass_order(view.hand_mask)[:k]))
        return (choice, PASS_WEAK) if choice is not None and choice in legal else (legal[0], FIRST_LISTED)

    def _steal(self, view: SeatView, legal: Sequence[int]) -> tuple[int, str]:
        steals = [a for a in legal if STEAL_BASE <= a < PASS_BASE]
        if not steals:
            return legal[0], FIRST_LISTED
        sides, rooms = view.sides, view.showrooms
        tricks = [0] * len(sides)  # tricks won this round, per side
        for seat, won in enumerate(view.tricks_won):
            tricks[sides[seat]] += won
        # the largest showroom, then more tricks, then the lower target (the first of equals, as max gives)
        chosen, top = -1, (0, 0, 0)
        for action in steals:
            target = action - STEAL_BASE
            side = sides[target]
            appeal = (rooms[side], tricks[side], -target)
            if chosen < 0 or appeal > top:
                chosen, top = action, appeal
        return chosen, STEAL_BIG

    def _play(self, view: SeatView, legal: Sequence[int]) -> tuple[int, str]:
        plays = legal if max(legal) < _PLAYS else [a for a in legal if a < _PLAYS]
        if len(plays) == 1:
            return plays[0], ONLY
        trick = view.trick_ids
        ducking = self._ducking(view)
        values = self._values(view)
        if not trick:
            return self._lead(plays, values, ducking), LEAD_LOW if ducking else LEAD
        led = _SUIT[trick[0]]
        follows: Sequence[int] = plays
        low, high = min(plays), max(plays)
        if _SUIT[low] != led or _SUIT[high] != led:  # not all of the led suit (its ids are one run)
            follows = [a for a in plays if _SUIT[a] == led]
            if not follows:
                return self._discard(view, plays, values, ducking), DISCARD
            low, high = min(follows), max(follows)
        # within a suit the higher card has the higher id: compare the ids with the winning card's
        best = trick[self._winning_index(trick)]
        if ducking or not values[led] > 0:  # the trick is not wanted
            if low < best:
                return max(a for a in follows if a < best), DUCK
            return low, DUCK_FAILS
        if high > best:
            if len(trick) == self._trick_size - 1:
                return min(a for a in follows if a > best), WIN_CHEAP
            return high, WIN_HIGH
        return low, NO_WINNER

    @staticmethod
    def _lead(plays: Sequence[int], values: tuple[float, ...], ducking: bool) -> int:
        low, high = _lead_keys(values)
        return min(plays, key=low.__getitem__) if ducking else max(plays, key=high.__getitem__)

    @staticmethod
    def _discard(view: SeatView, plays: Sequence[int], values: tuple[float, ...], ducking: bool) -> int:
        hand = view.hand_mask
        counts = [(hand & m).bit_count() for m in _SUIT_MASKS]
        # best action first; then the shorter suit (a new void); then the card to shed
        # (the first of equals, as max gives)
        chosen, top = -1, (0.0, 0, 0)
        for action in plays:
            suit, rank = _SUIT[action], _RANK[action]
            score = (values[suit], -counts[suit], rank if ducking else -rank)
            if chosen < 0 or score > top:
                chosen, top = action, score
        return chosen

    # --- the reasons ---------------------------------------------------------------------------

    def _why(self, tag: str, view: JewelVaultView, action: Action) -> Reason:
        """The rule of thumb ``tag`` in words, for the seat's position ``view``."""
        if tag == FIRST_LISTED:
            return first_listed()
        if tag == ANNOUNCE_SHORT:
            n = action.n if isinstance(action, Announce) else 1
            return Reason(
                tag,
                f"Your shortest suit has {plural(n, 'card')}: ask for {n}, so you can pass that whole suit away; "
                "with no card of a suit, you take a suit action whenever it is led.",
            )
        if tag == ANNOUNCE_ONE:
            return Reason(tag, "No suit of yours is short (1 to 3 cards): ask for 1.")
        if tag == PASS_WEAK:
            return Reason(
                tag,
                "Pass the cards of your shortest and weakest suits (fewest cards first, then the lowest ranks): "
                "with no card of a suit, you take a suit action whenever it is led.",
            )
        if tag == STEAL_BIG:
            return Reason(
                tag,
                "Take from the largest showroom you can (on equal showrooms, from the side that has won more "
                "tricks this round, the more likely leader).",
            )
        if tag == ONLY:
            return Reason(tag, "It is the only card you may play.")
        ducking = self._ducking(view)
        aim = (
            "You have won no trick yet and hold few high cards: aim to win none this round, for the two ♦ "
            "actions at its end"
        )
        if tag == LEAD_LOW:
            return Reason(tag, f"{aim}. Lead your lowest card.")
        if tag == LEAD:
            return Reason(
                tag,
                "Lead the card that best combines a high rank with a suit whose action is worth having: the "
                "trick's winner takes the led suit's action.",
            )
        card = action.card if isinstance(action, Play) else None
        suit = SUIT_INDEX[card.suit] if card is not None else _DIAMOND
        if tag == DISCARD:
            which = "highest" if ducking else "lowest"
            return Reason(
                tag,
                f"You cannot follow suit, so the card you play earns its suit's action at once: {_WORTH_WORDS[suit]} "
                f"is worth the most to you now (in your shortest such suit); give up your {which} one.",
            )
        led = _SUIT[view.trick_ids[0]] if view.trick_ids else suit
        sym = SUITS[led]
        if ducking:
            why = aim
        elif tag in (DUCK, DUCK_FAILS):
            why = f"The {SUIT_SYMBOL[sym]} action this trick's winner takes would do nothing for you now"
        else:
            why = f"This trick's winner takes the {SUIT_SYMBOL[sym]} action, worth having now"
        texts = {
            DUCK: f"{why}: play your highest card that does not win.",
            DUCK_FAILS: f"{why}, but every card you may play beats the winning card: play your lowest.",
            WIN_CHEAP: f"{why}: you play last, so win it with your cheapest winning card.",
            WIN_HIGH: f"{why}: win it with your highest card, as later players may still beat a lower one.",
            NO_WINNER: f"{why}, but no card you may play beats the winning card: play your lowest.",
        }
        return Reason(tag, texts[tag])
