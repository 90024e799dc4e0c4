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

It decides from the compact fields of a view (card ids, hand masks, bid indices), which the
game's full view and its cheap core view both have: :meth:`HeuristicBot.choose_id` takes
action ids and gives one, :meth:`HeuristicBot.choose` is the same on actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from ...actions import BID_SUITS, Action, AssignMetal
from ...bots import FIRST_LISTED, Decision, first_listed
from ...cards import Card
from ...explain import Reason, and_list, plural, signed
from ..core import bits
from . import (
    ASSIGN,
    ASSIGN0,
    ASSIGN_IDS,
    BID,
    BID0,
    BID_IDS,
    BID_INDEX,
    BID_VALUES,
    IDS,
    LABEL,
    MAX_BID,
    METAL_SUIT,
    NO_BID,
    PLAY,
    RANK,
    SUIT,
    SUIT_POINTS,
    ZERO_BID,
    BandOfTricks,
    BandOfTricksView,
    Phase,
    Wins,
)
from .rules import _to_beat

# The number from which a card starts to win tricks, per suit (a suit's top cards are
# strong because they win the one- and two-suit tricks of that suit too).
_FLOOR = {"R": 10, "S": 9, "P": 8, "M": 11}
_SPAN = 5.0
# More players: more cards in each trick, so each card wins less often.
_SCALE = {3: 0.78, 4: 0.68, 5: 0.61}
_ZERO_BELOW = 0.8
_LEAD_WINS = 0.6  # a lead is played to win when its chance is at least this


def _chance(card: Card, players: int) -> float:
    raw = (card.rank - _FLOOR[card.suit] + 1) / _SPAN
    return max(0.0, min(1.0, raw)) * _SCALE[players]


# per player count: each card id's chance to win a trick
_CHANCES: dict[int, tuple[float, ...]] = {n: tuple(_chance(c, n) for c in IDS.cards) for n in _SCALE}
# per player count: whether a lead with each card id is played to win
_LEADS_TO_WIN: dict[int, tuple[bool, ...]] = {n: tuple(p >= _LEAD_WINS for p in _CHANCES[n]) for n in _SCALE}

# How the bot ranks the cards it may play, per card id: of the kind of card it plays, the one
# with the highest key, the first of equal keys (adding 64 puts a card above every card
# without it, as numbers are at most 16).
_IS_METAL = tuple(s == METAL_SUIT for s in SUIT)
_WIN_CHEAP = tuple(-(64 * m + r) for m, r in zip(_IS_METAL, RANK, strict=True))  # non-Metal first, lowest
_WIN_HIGH = tuple(64 * (not m) + r for m, r in zip(_IS_METAL, RANK, strict=True))  # non-Metal first, highest
# a losing card: of a suit needing no more wins (_SHED, the highest first) above one of a suit
# that needs wins (_KEEP, the lowest first)
_SHED = tuple(64 + r for r in RANK)
_KEEP = tuple(32 - r for r in RANK)
# every card wins: the lowest number of a suit that needs no wins (as only those are left)
_FORCED = tuple(-r for r in RANK)
_NO_KEY = -(1 << 30)


class CoreView(Protocol):
    """The compact fields of a Band of Tricks view the bot reads (``BandOfTricksView`` and
    ``BandOfTricksCoreView`` both have them)."""

    @property
    def seat(self) -> int | None: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def held(self) -> tuple[int | None, ...]: ...
    @property
    def bid_ids(self) -> tuple[int, ...]: ...
    @property
    def trick_ids(self) -> tuple[int, ...]: ...
    @property
    def best(self) -> int: ...
    @property
    def suits_in(self) -> int: ...
    @property
    def won(self) -> tuple[Wins, ...]: ...


def metal_suit(bid: Sequence[int], won: Sequence[int]) -> int:
    """Where the bot counts a Metal win (0-2: Rock, Soul, Pops) under the per-suit bid ``bid``,
    with ``won`` the suits' wins so far: the suit where one more win helps the score most, then
    the one furthest short of its bid, then the first."""
    return max(
        range(3),
        key=lambda j: (SUIT_POINTS[bid[j]][won[j] + 1] - SUIT_POINTS[bid[j]][won[j]], bid[j] - won[j] - 1),
    )


# the rules of thumb (each decision names the one that chose)
BID_WORTH = "bot.bt.bid"  # bid the rounded chances per suit
BID_ZERO = "bot.bt.zero"  # too few chances: Zero Success
WIN_CHEAP = "bot.bt.win-cheap"  # a suit needs wins, last to play: the cheapest sure winner
WIN_HIGH = "bot.bt.win-high"  # a suit needs wins: the strongest winner (later cards may beat it)
SHED = "bot.bt.shed"  # the highest losing card of a suit that needs no more wins
KEEP = "bot.bt.keep"  # only cards of suits that need wins lose: the lowest of them
FORCED = "bot.bt.forced"  # every card wins: the least useful
COUNT = "bot.bt.count"  # a Metal win counts where it helps the score most


class HeuristicBot:
    """The Band of Tricks heuristic bot of one seat: :meth:`choose` plays, :meth:`decide` says why
    (the same decision), :meth:`choose_id` is the same on the core's ids (the advisor's play-outs)."""

    def __init__(self, rules: BandOfTricks, seat: int, seed: int | str = 0) -> None:
        self.rules = rules
        self.seat = seat
        self._rng = random.Random(seed)
        self._players = rules.players
        self._chances = _CHANCES[rules.players]
        self._leads_to_win = _LEADS_TO_WIN[rules.players]
        # the suits that need wins (Rock, Soul, Pops; Metal: any) for the bid and wins last seen
        self._wanted_for: tuple[int, Wins | None] = (NO_BID, None)
        self._wanted = (False, False, False, False)

    def __repr__(self) -> str:
        return f"{self.rules.name} HeuristicBot(seat={self.seat})"

    def choose(self, view: CoreView, legal_actions: Sequence[Action]) -> Action:
        return self._decision(view, legal_actions)[0]

    def decide(self, view: CoreView, legal_actions: Sequence[Action]) -> Decision:
        """The action :meth:`choose` takes (the same code decides) and why: the rule that limits
        the choice (``rules.explain_choice``, given the game's own view), then the bot's rule of
        thumb (``bot.bt.*``)."""
        action, tag = self._decision(view, legal_actions)
        why = self._why(tag, view, action)
        if isinstance(view, BandOfTricksView):
            return Decision(action, (self.rules.explain_choice(view, self.seat), why))
        return Decision(action, (why,))

    def _decision(self, view: CoreView, legal_actions: Sequence[Action]) -> tuple[Action, str]:
        if not legal_actions:
            raise IndexError("no legal action to choose from")
        rules = self.rules
        phase = view.phase
        if phase is BID or phase is ASSIGN:
            # every bid (every suit) is offered: decide on all of them, then keep to those listed
            chosen, tag = self._choice(view, BID_IDS if phase is BID else ASSIGN_IDS)
            action = rules.actions[chosen]
            return (action, tag) if action in legal_actions else (legal_actions[0], FIRST_LISTED)
        ids = [rules.action_id(a) for a in legal_actions]
        listed = [i for i in ids if i is not None]
        if phase is not PLAY or len(listed) < len(ids):  # nothing to decide on
            return legal_actions[0], FIRST_LISTED
        chosen, tag = self._choice(view, listed)
        return legal_actions[listed.index(chosen)], tag

    def choose_id(self, view: CoreView, legal_ids: Sequence[int]) -> int:
        """The bot's decision as an action id, from ``legal_ids`` (as ``core_legal`` lists them)."""
        if view.phase is PLAY:  # the most frequent decision (a play-out makes thousands), at once
            return self._play(view, legal_ids)[0]
        return self._choice(view, legal_ids)[0]

    def _choice(self, view: CoreView, legal_ids: Sequence[int]) -> tuple[int, str]:
        """The decision as an action id and the rule of thumb that made it."""
        phase = view.phase
        if phase is PLAY:
            return self._play(view, legal_ids)
        if phase is BID:
            return self._bid(view, legal_ids)
        if phase is ASSIGN:
            return self._assign(view, legal_ids)
        return legal_ids[0], FIRST_LISTED

    # bidding ----------------------------------------------------------------------------------

    def chance(self, card: Card) -> float:
        """A rough chance that ``card`` wins a trick."""
        return _chance(card, self._players)

    def estimate(self, hand: Sequence[Card]) -> dict[str, float]:
        """Expected wins per suit letter (R, S, P, M) for ``hand``."""
        expected = {"R": 0.0, "S": 0.0, "P": 0.0, "M": 0.0}
        for card in hand:
            expected[card.suit] += self.chance(card)
        return expected

    def expected_wins(self, hand: int) -> list[float]:
        """Expected wins per suit (Rock, Soul, Pops, Metal) of the hand mask ``hand``."""
        expected = [0.0, 0.0, 0.0, 0.0]
        chances = self._chances
        for c in bits(hand):
            expected[SUIT[c]] += chances[c]
        return expected

    def bid_of(self, hand: int) -> int:
        """The bid for the hand mask ``hand``, as an index into ``ALL_BIDS`` (0: Zero Success)."""
        return self.bid_choice(hand)[0]

    def bid_choice(self, hand: int) -> tuple[int, str]:
        """:meth:`bid_of` and the rule of thumb that chose it (``BID_WORTH`` or ``BID_ZERO``)."""
        expected = self.expected_wins(hand)
        metal = expected[METAL_SUIT]
        if expected[0] + expected[1] + expected[2] + metal < _ZERO_BELOW:
            return ZERO_BID, BID_ZERO
        # Metal wins are counted where the bidder plans: add them to the strongest suit.
        strongest = max(range(3), key=expected.__getitem__)
        expected[strongest] += metal
        values = (
            max(0, min(MAX_BID, round(expected[0]))),
            max(0, min(MAX_BID, round(expected[1]))),
            max(0, min(MAX_BID, round(expected[2]))),
        )
        return BID_INDEX.get(values, ZERO_BID), BID_WORTH

    def _bid(self, view: CoreView, legal: Sequence[int]) -> tuple[int, str]:
        seat = view.seat
        own = view.held[seat] if seat is not None else None
        bid, tag = self.bid_choice(own or 0)
        return (BID0 + bid, tag) if BID0 + bid in legal else (legal[0], FIRST_LISTED)

    # playing ----------------------------------------------------------------------------------

    def _needs(self, view: CoreView) -> tuple[int, int, int]:
        """The wins still wanted in Rock, Soul and Pops (none under Zero Success)."""
        bid = view.bid_ids[self.seat]
        if bid < 0 or bid == ZERO_BID:  # wins still wanted per suit; none under Zero Success
            return 0, 0, 0
        won = view.won[self.seat]
        r, s, p = BID_VALUES[bid]
        return r - won[0], s - won[1], p - won[2]

    @staticmethod
    def play_aim(bid: int, won: Wins) -> tuple[bool, bool, bool, bool]:
        """All that the bot's choice of a card reads of its bid (an index into ``ALL_BIDS``) with
        the wins ``won`` so far: whether Rock, Soul and Pops still need wins, then whether any
        does. Two bids with the same aim play the same card (the advisor plays them together)."""
        if bid < 0 or bid == ZERO_BID:
            return False, False, False, False
        r, s, p = BID_VALUES[bid]
        need0, need1, need2 = r - won[0], s - won[1], p - won[2]
        return need0 > 0, need1 > 0, need2 > 0, need0 > 0 or need1 > 0 or need2 > 0

    def _wanted_suits(self, view: CoreView) -> tuple[bool, bool, bool, bool]:
        """Whether Rock, Soul and Pops still need wins (from :meth:`_needs`), then whether any does
        (Metal can count for any of them)."""
        bid_and_wins = (view.bid_ids[self.seat], view.won[self.seat])
        if bid_and_wins != self._wanted_for:  # the wins change a few times a deal
            self._wanted_for = bid_and_wins
            self._wanted = self.play_aim(*bid_and_wins)
        return self._wanted

    def _play(self, view: CoreView, legal: Sequence[int]) -> tuple[int, str]:
        needs = self._wanted_suits(view)
        trick = view.trick_ids
        i = len(trick)
        best, suits = view.best, view.suits_in
        # per suit, once asked: the keys of the next card and the key it must pass to win
        to_beat: list[tuple[tuple[int, ...], int] | None] = [None, None, None, None]
        leads = self._leads_to_win
        # last to play: the cheapest sure winner (keeping Metal, which can count for any suit,
        # for later); otherwise the strongest, as later cards may beat it
        last = i == self._players - 1
        win_keys = _WIN_CHEAP if last else _WIN_HIGH
        # the best card of each kind so far by its key (see the tables): on equal keys the first
        good = loser = forced = -1  # a useful card that wins (Metal is useful while any suit needs wins)
        good_key = loser_key = forced_key = _NO_KEY
        for c in legal:
            if c >= BID0:
                continue
            suit = SUIT[c]
            # a lead wins by its chance; a later card if the trick's winner would be it
            if not i:
                wins = leads[c]
            else:
                against = to_beat[suit]
                if against is None:
                    against = to_beat[suit] = _to_beat(trick, best, suits, suit)
                wins = against[0][c] > against[1]
            if not wins:
                key = _KEEP[c] if needs[suit] else _SHED[c]
                if key > loser_key:
                    loser, loser_key = c, key
            elif needs[suit]:
                key = win_keys[c]
                if key > good_key:
                    good, good_key = c, key
            else:
                key = _FORCED[c]
                if key > forced_key:
                    forced, forced_key = c, key
        if good >= 0:
            return good, WIN_CHEAP if last else WIN_HIGH
        if loser >= 0:
            # shed the most dangerous card: a high card of a suit that needs no more wins
            return loser, KEEP if needs[SUIT[loser]] else SHED
        if forced < 0:
            raise ValueError("no card to play among the legal actions")
        # every card wins: give up the least valuable one
        return forced, FORCED

    # counting Metal wins ------------------------------------------------------------------------

    def _assign(self, view: CoreView, legal: Sequence[int]) -> tuple[int, str]:
        bid = view.bid_ids[self.seat]
        if bid < 0 or bid == ZERO_BID:
            return legal[0], FIRST_LISTED
        action = ASSIGN0 + metal_suit(BID_VALUES[bid], view.won[self.seat])
        return (action, COUNT) if action in legal else (legal[0], FIRST_LISTED)

    # the reasons ---------------------------------------------------------------------------------

    def _why(self, tag: str, view: CoreView, action: Action) -> Reason:
        """The rule of thumb ``tag`` in words, for the seat's position ``view``."""
        if tag == FIRST_LISTED:
            return first_listed()
        seat = self.seat
        if tag in (BID_WORTH, BID_ZERO):
            hand = view.held[seat] if seat < len(view.held) else None
            r, s, p, m = self.expected_wins(hand or 0)
            if tag == BID_ZERO:
                return Reason(
                    tag,
                    f"Your cards are worth only about {r + s + p + m:.1f} wins in all (less than {_ZERO_BELOW}): "
                    "bid Zero Success.",
                )
            strongest = LABEL[BID_SUITS[max(range(3), key=(r, s, p).__getitem__)]]
            return Reason(
                tag,
                f"Your cards are worth about Rock {r:.1f}, Soul {s:.1f}, Pops {p:.1f} and Metal {m:.1f} wins; "
                f"the Metal wins go to {strongest}, your strongest suit, and each suit is rounded.",
            )
        bid = view.bid_ids[seat]
        if tag == COUNT and isinstance(action, AssignMetal):
            j = BID_SUITS.index(action.suit)
            b, w = BID_VALUES[bid][j], view.won[seat][j]
            before, after = SUIT_POINTS[b][w], SUIT_POINTS[b][w + 1]
            label = LABEL[action.suit]
            return Reason(
                tag,
                f"One more {label} win helps your score most there ({label} goes from {signed(before)} to "
                f"{signed(after)}): count it for {label}.",
            )
        if bid < 0 or bid == ZERO_BID:
            wanting = "You bid Zero Success and want no trick"
        else:
            r, s, p = BID_VALUES[bid]
            wanted = [plural(n, f"{LABEL[k]} win") for k, n in zip(BID_SUITS, self._needs(view), strict=True) if n > 0]
            still = f"you still need {and_list(wanted)}" if wanted else "you need no more wins"
            wanting = f"You bid Rock {r}, Soul {s}, Pops {p}: {still}"
        lead = not view.trick_ids
        texts = {
            WIN_CHEAP: f"{wanting}. You play last: win this trick with your cheapest card that wins it in a suit that "
            "needs wins (keeping Metal for later).",
            WIN_HIGH: f"{wanting}. "
            + (
                "Lead your strongest card of a suit that needs wins, likely to win the trick."
                if lead
                else "Play your strongest card that wins now in a suit that needs wins, as later players may still "
                "beat a weaker one."
            ),
            SHED: f"{wanting}. Play your highest card of a suit that needs no more wins, as it "
            + ("is unlikely to win." if lead else "does not win this trick."),
            KEEP: f"{wanting}. No card you may play wins in a suit that needs wins, so play your lowest "
            + ("card." if lead else "losing card."),
            FORCED: f"{wanting}. Every card you may play would win this trick: give up the least useful one.",
        }
        return Reason(tag, texts[tag])
