"""Band of Tricks rules over a compact core: data, the one copy of each rule, the state, views
and facts (:mod:`tricklab.games.band_of_tricks` puts the game together).

Cards are ids 0-39 in hand order (:data:`IDS`), hands are bit masks, bids are indices into
:data:`ALL_BIDS`. Each rule is written once, over ids: who wins a trick (:func:`_card_key`),
the suit to follow (:func:`_follows`), which cards may be played (:func:`_playable`) and what a
suit scores (:func:`_suit_points`); the tables the core steps with are built from those
functions, and the Card-level helpers call them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import product
from typing import ClassVar, NamedTuple, cast

from ...actions import BID_SUITS, Action, AssignMetal, Bid, Play
from ...cards import BAND_SUITS, BandCard, Card
from ...errors import IllegalAction, InvalidScoreInput, describe
from ...explain import Reason, plural
from ..base import EventKind, Options, Score, ScoreLine, Trick, Word, illegal
from ..core import CardIds, Fact, follow_mask

NAME = "band-of-tricks"
TITLE = "Band of Tricks"
NUMBERS = {"R": range(7, 16), "S": range(4, 15), "P": range(1, 14), "M": range(10, 17)}
METAL = "M"
CARDS_EACH = {3: 13, 4: 10, 5: 8}
ZERO_SUCCESS_POINTS = {3: 6, 4: 4, 5: 3}
MAX_BID = 6
MAX_EXTRA_DEALS = 10
MAX_EXTRA_DEALS_LIMIT = 100

# A player's wins in a deal: Rock, Soul, Pops, and Metal wins of a Zero Success bidder
# (those count as tricks but for no suit).
WIN_KEYS = (*BID_SUITS, "metal")
SUIT_OF_KEY = {"rock": "R", "soul": "S", "pops": "P"}
KEY_OF_SUIT = {v: k for k, v in SUIT_OF_KEY.items()}
WIN_INDEX = {"R": 0, "S": 1, "P": 2}
LABEL = {"rock": "Rock", "soul": "Soul", "pops": "Pops", "metal": "Metal"}
BEATS = {"R": "S", "S": "P", "P": "R"}  # rock-paper-scissors: key beats value


class Phase(Word):
    """What a deal of Band of Tricks is waiting for: secret bids, a card, the suit a trick won
    with Metal counts for; ``OVER`` once the match has ended. Each member equals its word."""

    BID = "bid"
    PLAY = "play"
    ASSIGN = "assign"
    OVER = "over"


BID, PLAY, ASSIGN, OVER = Phase.BID, Phase.PLAY, Phase.ASSIGN, Phase.OVER

Wins = tuple[int, int, int, int]
NO_WINS: Wins = (0, 0, 0, 0)
ZERO = Bid(zero=True)


@dataclass(frozen=True, slots=True)
class BandOfTricksOptions(Options):
    """Rule options.

    ``max_extra_deals`` (default 10): BT-8 plays extra deals until one player leads, which
    in theory might never happen. A tie for the lead is uncommon (about one bot game in
    twelve needs an extra deal, and two in a row are rare), so ten tied extra deals in a
    row practically never occur: the cap of 10 does not change a real game but guarantees
    that every match ends. If the leaders are still tied after that many extra deals,
    they share the victory; ``0`` shares at once.
    """

    max_extra_deals: int = MAX_EXTRA_DEALS


@dataclass(frozen=True, slots=True)
class CountedTrick(Trick):
    """A completed trick of Band of Tricks (its rules use only the winner, so ``places`` is
    ``None``) and the suit it counts for: ``"rock"``/``"soul"``/``"pops"``, ``"metal"`` for a
    Metal win of a Zero Success bidder, ``None`` while its winner still chooses."""

    counts_for: str | None = None


@dataclass(frozen=True, slots=True)
class MetalChoice:
    """One way to count a trick won with Metal, with what it does to the suit's score.

    ``won`` is the suit's wins after counting the trick there; ``points`` what the suit
    would score if the deal ended now, ``change`` the difference to its score without it.
    """

    suit: str
    bid: int
    won: int
    points: int
    change: int
    text: str

    @property
    def action(self) -> AssignMetal:
        return AssignMetal(self.suit)


# --- cards as ids, actions as ids ----------------------------------------------------------------

DECK: tuple[Card, ...] = tuple(BandCard(suit, n) for suit in BAND_SUITS for n in NUMBERS[suit])
# The deck is in hand order (suits Rock, Soul, Pops, Metal, numbers up), so card ``i`` of the
# deck is card id ``i`` and the set bits of a hand mask, lowest first, are the sorted hand.
IDS = CardIds(DECK, BAND_SUITS)
SUIT: tuple[int, ...] = IDS.suit  # 0 Rock, 1 Soul, 2 Pops, 3 Metal
RANK: tuple[int, ...] = IDS.rank
METAL_SUIT = BAND_SUITS.index(METAL)
METAL_MASK = IDS.suit_mask[METAL_SUIT]
DECK_IDS = range(len(DECK))

# Every distinct bid: Zero Success, then every non-zero triple (0 0 0 *is* Zero Success).
ALL_BIDS: tuple[Bid, ...] = (ZERO,) + tuple(
    Bid(r, s, p) for r, s, p in product(range(MAX_BID + 1), repeat=3) if (r, s, p) != (0, 0, 0)
)
ASSIGN_ACTIONS: tuple[AssignMetal, ...] = tuple(AssignMetal(k) for k in BID_SUITS)
# Action ids: a play is its card id (0-39), then every bid in ALL_BIDS order, then the three
# ways to count a Metal win. A state's bids are indices into ALL_BIDS (0: Zero Success).
BID0 = len(DECK)
ASSIGN0 = BID0 + len(ALL_BIDS)
ACTIONS: tuple[Action, ...] = (*(Play(c) for c in DECK), *ALL_BIDS, *ASSIGN_ACTIONS)
BID_IDS = range(BID0, ASSIGN0)
ASSIGN_IDS = range(ASSIGN0, ASSIGN0 + len(ASSIGN_ACTIONS))
NO_BID = -1
BID_OR_NONE: tuple[Bid | None, ...] = (*ALL_BIDS, None)  # indexed by a state's bid: -1 (no bid yet) is None
ZERO_BID = 0  # the index of Zero Success in ALL_BIDS
BID_VALUES: tuple[tuple[int, int, int], ...] = tuple((b.rock, b.soul, b.pops) for b in ALL_BIDS)
BID_INDEX: dict[tuple[int, int, int], int] = {v: i for i, v in enumerate(BID_VALUES) if i != ZERO_BID}
# How a trick counts, in a compact trick: for a suit (0-2), as a Metal win of a Zero Success
# bidder (3), or not yet (the winner still chooses).
COUNTS_METAL = 3
NOT_COUNTED = -1


# --- the rules over ids (each written once; the Card-level helpers below call these) -------------


def _two_suit_winner(a: str, b: str) -> str:
    """The suit that wins a trick holding exactly the suits ``a`` and ``b`` (BT-5)."""
    if a == METAL:
        return b
    if b == METAL:
        return a
    return a if BEATS[a] == b else b


def _card_key(suits: int, index: int, card: int) -> int:
    """How strongly ``card``, played ``index``-th, places in a trick holding the suits of the
    mask ``suits`` (BT-5): the higher key places higher. One suit: the number; two suits: the
    winning suit above the other, then the number; three or more: the number, then the later."""
    count = suits.bit_count()
    if count == 1:
        return RANK[card]
    if count == 2:
        a, b = (BAND_SUITS[s] for s in range(4) if suits >> s & 1)
        top = BAND_SUITS.index(_two_suit_winner(a, b))
        return RANK[card] + (64 if SUIT[card] == top else 0)
    return RANK[card] * 8 + index


# KEY[suits][index][card]: _card_key as a table (the trick's suits, the card's place in play order)
KEY: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_card_key(m, i, c) for c in DECK_IDS) for i in range(5)) if m else () for m in range(16)
)


def _rank_ids(trick: Sequence[int]) -> tuple[int, ...]:
    """Play-order indices of the trick ``trick`` (card ids) from first place to last (BT-5)."""
    suits = 0
    for c in trick:
        suits |= 1 << SUIT[c]
    keys = KEY[suits]
    return tuple(sorted(range(len(trick)), key=lambda i: -keys[i][trick[i]]))


def _to_beat(trick: tuple[int, ...], best: int, suits: int, suit: int) -> tuple[tuple[int, ...], int]:
    """For a card of the suit ``suit`` played next to the non-empty ``trick`` (``best`` and
    ``suits`` as in :func:`_next_best`): the keys by card id it places with, and the key it
    must pass to win the trick (that of the card placing first so far, by the trick's suits with
    the new card's): card ``c`` of that suit wins when ``keys[c] > to_pass``, exactly when
    ``_next_best(trick, best, suits, c) == len(trick)``, as the keys of a trick's cards never
    tie (numbers differ within a suit, and with three or more suits the play order decides)."""
    more = suits | 1 << suit
    keys = KEY[more]
    i = len(trick)
    if more == suits:  # the same suits: the earlier cards keep their keys
        return keys[i], keys[best][trick[best]]
    high = keys[0][trick[0]]  # a new suit: the earlier cards' highest key by the suits with it
    for j in range(1, i):
        k = keys[j][trick[j]]
        if k > high:
            high = k
    return keys[i], high


def _next_best(trick: tuple[int, ...], best: int, suits: int, card: int) -> int:
    """The play-order index of the card winning ``trick + (card,)``, given the index ``best``
    of the card winning ``trick`` and the mask ``suits`` of the suits in it (by :func:`_card_key`)."""
    i = len(trick)
    if not i:
        return 0
    more = suits | 1 << SUIT[card]
    keys = KEY[more]
    if more == suits:  # the same suits: the earlier cards keep their keys
        return i if keys[i][card] > keys[best][trick[best]] else best
    top, high = i, keys[i][card]
    for j in range(i):
        k = keys[j][trick[j]]
        if k > high:
            top, high = j, k
    return top


def _follows(follow: int, card: int) -> int:
    """The suit to follow after ``card`` is played to a trick whose suit to follow was ``follow``
    (-1: none yet): the first card that is not Metal sets it (BT-4)."""
    return follow if follow >= 0 or SUIT[card] == METAL_SUIT else SUIT[card]


# FOLLOWS[follow + 1][card]: _follows as a table
FOLLOWS: tuple[tuple[int, ...], ...] = tuple(tuple(_follows(f, c) for c in DECK_IDS) for f in range(-1, 4))


def _follow_of(trick: Sequence[int]) -> int:
    """The suit (index) to follow in ``trick`` (card ids), -1 while only Metal was played."""
    follow = -1
    for c in trick:
        follow = FOLLOWS[follow + 1][c]
    return follow


def _playable(hand: int, follow: int) -> int:
    """The mask of the cards of ``hand`` that may be played when ``follow`` is the suit to
    follow (-1: none). BT-4: holding the suit to follow, play that suit or Metal; otherwise
    anything."""
    if follow < 0:
        return hand
    return follow_mask(hand, follow, IDS) | (hand & METAL_MASK)


def _plays(hand: int, follow: int) -> tuple[int, str | None]:
    """The mask of the cards of ``hand`` that may be played (:func:`_playable`) and the rule
    that limited them (``None``: every card may be played)."""
    allowed = _playable(hand, follow)
    return allowed, ("bt.follow" if allowed != hand else None)


def _holding(hand: int, before: tuple[int, ...], card: int) -> bool | None:
    """For the narration of Metal played to a trick with a suit to follow (``None`` otherwise):
    whether ``hand`` (the hand after playing ``card``) still holds that suit."""
    follow = _follow_of(before)
    if follow < 0 or SUIT[card] != METAL_SUIT:
        return None
    return bool(hand & IDS.suit_mask[follow])


def _suit_points(bid: int, won: int) -> int:
    """BT-7 for one suit: the bid plus 1 when hit, else minus the distance to it."""
    return bid + 1 if won == bid else -abs(won - bid)


def _zero_points(tricks: int, players: int) -> int:
    """BT-7 for Zero Success."""
    return ZERO_SUCCESS_POINTS[players] if tricks == 0 else -tricks


# SUIT_POINTS[bid][won]: _suit_points as a table (a deal has at most 13 tricks)
SUIT_POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_suit_points(b, w) for w in range(max(CARDS_EACH.values()) + 2)) for b in range(MAX_BID + 1)
)


def _points_of(bid: int, won: Wins, players: int) -> int:
    """A deal's points (BT-7) for the bid ``bid`` (an index into ALL_BIDS) and the wins ``won``."""
    if bid == ZERO_BID:
        return _zero_points(won[0] + won[1] + won[2] + won[3], players)
    r, s, p = BID_VALUES[bid]
    return SUIT_POINTS[r][won[0]] + SUIT_POINTS[s][won[1]] + SUIT_POINTS[p][won[2]]


def _add_win(wins: Wins, index: int) -> Wins:
    if index == 0:
        return (wins[0] + 1, wins[1], wins[2], wins[3])
    if index == 1:
        return (wins[0], wins[1] + 1, wins[2], wins[3])
    if index == 2:
        return (wins[0], wins[1], wins[2] + 1, wins[3])
    return (wins[0], wins[1], wins[2], wins[3] + 1)


# --- the compact state ---------------------------------------------------------------------------


class TrickIds(NamedTuple):
    """The last completed trick, compactly: who led, its card ids in play order, the play-order
    index of the winning card, and what it counts for (0-2: Rock, Soul, Pops; 3: a Metal win of a
    Zero Success bidder; -1: its winner still chooses)."""

    leader: int
    ids: tuple[int, ...]
    winning: int
    counts: int


# A compact trick from its fields in order (built as each trick ends).
_new_trick_ids = cast(Callable[[type[TrickIds], tuple[object, ...]], TrickIds], tuple.__new__)

_COUNTED_TRICKS: dict[tuple[TrickIds, int], CountedTrick] = {}


def _counted_trick(last: TrickIds, players: int) -> CountedTrick:
    """``last`` as the :class:`CountedTrick` value object (built once per trick and table size)."""
    found = _COUNTED_TRICKS.get((last, players))
    if found is None:
        leader, ids, winning, counts = last
        seats = tuple((leader + i) % players for i in range(len(ids)))
        counts_for = None if counts == NOT_COUNTED else WIN_KEYS[counts]
        found = CountedTrick(leader, IDS.of(ids), seats, winning, None, counts_for)
        if len(_COUNTED_TRICKS) > 50_000:
            _COUNTED_TRICKS.clear()
        _COUNTED_TRICKS[(last, players)] = found
    return found


class BandOfTricksState(NamedTuple):
    """The whole state (the teacher's knowledge), compact: card ids, hands as bit masks.

    ``held[seat]`` is the seat's hand as a mask of card ids (:data:`IDS`), ``aside_mask`` the card
    left over with three players. ``bid_ids[seat]`` indexes :data:`ALL_BIDS` (0: Zero Success;
    -1: not bid yet). ``trick_ids`` is the current trick in play order, ``follow`` its suit to
    follow (0-2; -1 while only Metal was played), ``best`` the play-order index of the card
    winning it so far (-1: empty) and ``suits_in`` the mask of the suits in it. ``won[seat]``
    counts the seat's tricks this deal for Rock, Soul, Pops and, last, Metal wins of a Zero
    Success bidder (which count for no suit); ``won_masks[seat]`` are the cards of those tricks.
    ``deal_scores`` holds one tuple of seat scores per finished deal.

    The Card-valued fields of earlier versions read the same as properties: ``hands``,
    ``aside``, ``bids``, ``trick``, ``won_cards``, ``last_trick``.
    """

    seed: int
    phase: Phase
    to_play: int | None
    deal: int
    start_player: int
    held: tuple[int, ...]
    aside_mask: int
    bid_ids: tuple[int, ...]
    leader: int
    trick_ids: tuple[int, ...]
    follow: int
    best: int
    suits_in: int
    tricks_played: int
    won: tuple[Wins, ...]
    won_masks: tuple[int, ...]
    last: TrickIds | None
    deal_scores: tuple[tuple[int, ...], ...]

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return IDS.hands(self.held)

    @property
    def aside(self) -> tuple[Card, ...]:
        return IDS.hand(self.aside_mask)

    @property
    def bids(self) -> tuple[Bid | None, ...]:
        return tuple([BID_OR_NONE[b] for b in self.bid_ids])

    @property
    def trick(self) -> tuple[Card, ...]:
        return IDS.of(self.trick_ids)

    @property
    def won_cards(self) -> tuple[tuple[Card, ...], ...]:
        """The cards of the tricks each seat won this deal, in hand order."""
        return IDS.hands(self.won_masks)

    @property
    def last_trick(self) -> CountedTrick | None:
        last = self.last
        return None if last is None else _counted_trick(last, len(self.held))

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    @property
    def totals(self) -> tuple[int, ...]:
        scores = self.deal_scores
        return tuple(map(sum, zip(*scores, strict=True))) if scores else (0,) * len(self.held)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(sum(w) for w in self.won)

    def seat_of(self, index: int) -> int:
        """The seat that played card ``index`` of the current trick."""
        return (self.leader + index) % len(self.held)


# A state from its fields in order, without the keyword handling of the generated constructor
# (this is on every step of play).
_new_state = cast(Callable[[type[BandOfTricksState], tuple[object, ...]], BandOfTricksState], tuple.__new__)


class BandOfTricksCoreView(NamedTuple):
    """What one seat may see, compactly (for bots and the advisor): ``held`` has the seat's
    own hand mask and ``None`` for every other hand (every hand for the teacher, ``seat is
    None``). The other fields are those of :class:`BandOfTricksState`, all public."""

    seat: int | None
    phase: Phase
    to_play: int | None
    deal: int
    start_player: int
    held: tuple[int | None, ...]
    bid_ids: tuple[int, ...]
    leader: int
    trick_ids: tuple[int, ...]
    follow: int
    best: int
    suits_in: int
    tricks_played: int
    won: tuple[Wins, ...]


# A core view from its fields in order (as _new_state: one is built before every bot decision).
_new_core_view = cast(Callable[[type[BandOfTricksCoreView], tuple[object, ...]], BandOfTricksCoreView], tuple.__new__)


@dataclass(frozen=True, slots=True)
class BandOfTricksView:
    """What one seat may see (``seat is None``: the teacher, who sees every hand).

    ``hands[s]`` is ``None`` for a hand the seat may not see. Bids are public as soon as
    they are made. ``metal_choices`` lists the ways to count a Metal win while its winner
    chooses (phase ``assign``), each with its effect on that player's score.

    The compact fields the bots read: ``held`` (hand masks, ``None`` where hidden, like
    ``hands``), ``bid_ids``, ``trick_ids``, ``best`` and ``suits_in``, as in
    :class:`BandOfTricksState`.
    """

    seat: int | None
    phase: Phase
    to_play: int | None
    deal: int
    deals: int
    start_player: int
    hands: tuple[tuple[Card, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    aside_size: int
    bids: tuple[Bid | None, ...]
    leader: int
    trick: tuple[Card, ...]
    to_follow: str | None
    tricks_played: int
    won: tuple[Wins, ...]
    last_trick: CountedTrick | None
    metal_choices: tuple[MetalChoice, ...]
    deal_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    held: tuple[int | None, ...] = ()
    bid_ids: tuple[int, ...] = ()
    trick_ids: tuple[int, ...] = ()
    best: int = -1
    suits_in: int = 0

    @property
    def hand(self) -> tuple[Card, ...]:
        if self.seat is None:
            return ()
        own = self.hands[self.seat]
        return own if own is not None else ()

    @property
    def extra_deal(self) -> bool:
        """Whether the current deal is an extra deal played to break a tie (BT-8)."""
        return self.deal >= self.deals


# --- facts: what the rules did, for the narrator -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealt(Fact):
    """A deal (``deal``, from 0) was dealt; ``seat`` is its start player."""

    kind: ClassVar[EventKind] = EventKind.DEAL
    deal: int


@dataclass(frozen=True, slots=True)
class BidMade(Fact):
    """``seat`` bid ``bid`` (an index into ALL_BIDS; public at once, BT-3). ``last``: the deal's
    last bid, after which ``leader`` leads; ``as_numbers``: Zero Success written as 0 0 0."""

    kind: ClassVar[EventKind] = EventKind.BID
    bid: int
    last: bool
    leader: int
    as_numbers: bool = False


@dataclass(frozen=True, slots=True)
class Played(Fact):
    """``seat`` played the card ``card`` (an id), making the trick ``trick`` (ids in play order),
    which the card at index ``best`` is winning so far. ``holding``: whether the player still
    holds the suit to follow after playing Metal to it (``None``: not told, as for every seat but
    the player's own and the teacher: it tells about a hidden hand)."""

    kind: ClassVar[EventKind] = EventKind.PLAY
    card: int
    trick: tuple[int, ...]
    best: int
    holding: bool | None = None

    def seen_by(self, seat: int | None) -> Fact:
        if seat is None or seat == self.seat or self.holding is None:
            return self
        return replace(self, holding=None)


@dataclass(frozen=True, slots=True)
class TrickWon(Fact):
    """``seat`` won the trick ``trick``, trick ``number`` of the deal (from 1)."""

    kind: ClassVar[EventKind] = EventKind.TRICK
    trick: TrickIds
    number: int


@dataclass(frozen=True, slots=True)
class Counted(Fact):
    """``seat`` counted its Metal win with the card ``card`` (an id) for the suit ``suit`` (0-2:
    Rock, Soul, Pops)."""

    kind: ClassVar[EventKind] = EventKind.COUNT
    suit: int
    card: int


@dataclass(frozen=True, slots=True)
class DealScored(Fact):
    """Deal ``deal`` (from 0) was scored: ``scores`` per seat."""

    kind: ClassVar[EventKind] = EventKind.SCORE
    deal: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TiedForLead(Fact):
    """After the last deal, ``leaders`` share the highest total ``best``: another deal follows."""

    kind: ClassVar[EventKind] = EventKind.TIE
    leaders: tuple[int, ...]
    best: int


@dataclass(frozen=True, slots=True)
class Ended(Fact):
    """The match is over with the totals ``totals`` after ``deals`` deals."""

    kind: ClassVar[EventKind] = EventKind.END
    totals: tuple[int, ...]
    deals: int


# --- the rules on Card objects (for the public API), and scores with their reasons -------------


# --- pure rule functions ------------------------------------------------------------------------


def _sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards of the deck in hand order (the order of their ids)."""
    return tuple(sorted(cards, key=IDS.id.__getitem__))


def _rank(trick: tuple[Card, ...]) -> tuple[int, ...]:
    """Play-order indices from first place to last (BT-5; see ``resolve_trick``)."""
    return _rank_ids(tuple(IDS.id[c] for c in trick))


def _to_follow(trick: tuple[Card, ...]) -> str | None:
    """The suit letter to follow in ``trick``, ``None`` while only Metal was played (BT-4)."""
    follow = _follow_of(tuple(IDS.id[c] for c in trick))
    return None if follow < 0 else BAND_SUITS[follow]


def _legal(hand: tuple[Card, ...], trick: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of ``hand`` (in its order) that may be played to ``trick`` (BT-4)."""
    ids = IDS.id
    allowed, _ = _plays(IDS.mask(hand), _follow_of(tuple(ids[c] for c in trick)))
    return tuple(c for c in hand if allowed >> ids[c] & 1)


def _check_bid_action(bid: Bid) -> Bid:
    """The bid as the rules see it (an all-zero bid becomes Zero Success); raises if not allowed.
    (A Bid holds whole numbers and a true/false ``zero``: it checks that when it is made.)"""
    values = (bid.rock, bid.soul, bid.pops)
    if bid.zero:
        if any(v != 0 for v in values):
            raise illegal(
                "bt.bid.zero",
                "Zero Success means winning no trick at all, so it has no numbers: bid 'bid zero' alone",
                "Zero Success means you win no trick at all, so it has no numbers: bid Zero Success alone.",
            )
        return ZERO
    for key, value in zip(BID_SUITS, values, strict=True):
        if not 0 <= value <= MAX_BID:
            raise illegal(
                "bt.bid",
                f"a bid for {LABEL[key]} is a whole number from 0 to {MAX_BID}, not {value}",
                f"Your bid for {LABEL[key]} is a whole number from 0 to {MAX_BID}, not {value}.",
            )
    return ZERO if values == (0, 0, 0) else bid


def _bid_refusal(bid: Bid) -> IllegalAction | None:
    """Why the bid ``bid`` is not one of the bids offered (BT-3), or ``None`` if it is."""
    try:
        _check_bid_action(bid)
    except IllegalAction as exc:
        return exc
    return None


def _check_bid_input(bid: object) -> Bid:
    """A bid given to ``score_deal``: a mapping, a Bid or ``"zero"``; :class:`InvalidScoreInput` otherwise."""
    if isinstance(bid, Bid):
        try:
            return _check_bid_action(bid)
        except IllegalAction as exc:  # same message, as the scoring error type
            raise InvalidScoreInput(exc.message, rule_id=exc.rule_id) from None
    if isinstance(bid, str):
        if bid.strip().lower() == "zero":
            return ZERO
        raise InvalidScoreInput(
            f"a bid is {{'rock': r, 'soul': s, 'pops': p}} (each 0 to 6) or 'zero' for Zero Success, "
            f"not {describe(bid)}",
            rule_id="bt.bid",
        )
    if not isinstance(bid, Mapping):
        raise InvalidScoreInput(
            f"a bid is {{'rock': r, 'soul': s, 'pops': p}} (each 0 to 6) or 'zero' for Zero Success, "
            f"not {describe(bid)}",
            rule_id="bt.bid",
        )
    values = {"rock": 0, "soul": 0, "pops": 0}
    for key, value in bid.items():
        if key == "metal":
            raise InvalidScoreInput(
                "there is no bid for Metal: add the Metal wins you expect to Rock, Soul or Pops",
                rule_id="bt.bid.metal",
            )
        if key not in values:
            raise InvalidScoreInput(
                f"{describe(key)} is not a suit you can bid on; bid on rock, soul and pops", rule_id="bt.bid"
            )
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_BID:
            raise InvalidScoreInput(
                f"a bid for {LABEL[key]} is a whole number from 0 to {MAX_BID}, not {describe(value)}",
                rule_id="bt.bid",
            )
        values[key] = value
    if all(v == 0 for v in values.values()):
        return ZERO
    return Bid(values["rock"], values["soul"], values["pops"])


def _suit_line(key: str, bid: int, won: int) -> tuple[ScoreLine, Reason]:
    label = LABEL[key]
    points = _suit_points(bid, won)
    if won == bid:
        detail = f"bid {bid}, won {won}: success, {bid} + 1 for the bid cube = {points}"
        return (
            ScoreLine(key, label, points, "success", detail),
            Reason(
                "bt.score.success",
                f"{label}: bid {bid} and won exactly {won}, so {plural(points, 'point')} ({bid} + 1).",
            ),
        )
    if won > bid:
        over = won - bid
        return (
            ScoreLine(key, label, points, "overrun", f"bid {bid}, won {won}: overrun by {over}, {points}"),
            Reason(
                "bt.score.overrun",
                f"{label}: bid {bid} but won {won}, {over} too many, so {points} and the bid scores nothing.",
            ),
        )
    short = bid - won
    return (
        ScoreLine(key, label, points, "short", f"bid {bid}, won {won}: short by {short}, {points}"),
        Reason("bt.score.short", f"{label}: bid {bid} but won only {won}, {short} short, so {points}."),
    )


def _score(bid: Bid, won: Wins, players: int) -> Score:
    """A deal's score (BT-7); ``won`` is Rock, Soul, Pops and unassigned Metal wins."""
    if bid.zero:
        tricks = sum(won)
        points = _zero_points(tricks, players)
        if tricks == 0:
            line = ScoreLine(
                "zero",
                "Zero Success",
                points,
                "success",
                f"no trick won: +{points} with {plural(players, 'player')}",
            )
            reason = Reason(
                "bt.score.zero",
                f"Zero Success kept: no trick won, which is worth {plural(points, 'point')} "
                f"with {plural(players, 'player')}.",
            )
        else:
            line = ScoreLine(
                "zero",
                "Zero Success",
                points,
                "overrun",
                f"bid Zero Success, won {plural(tricks, 'trick')}: overrun by {tricks}, {points}",
            )
            reason = Reason(
                "bt.score.zero",
                f"Zero Success failed: {plural(tricks, 'trick')} won, so {points}.",
            )
        return Score(line.points, (line,), (reason,))
    lines = []
    reasons = []
    for i, key in enumerate(BID_SUITS):
        line, reason = _suit_line(key, getattr(bid, key), won[i])
        lines.append(line)
        reasons.append(reason)
    total = sum(line.points for line in lines)
    reasons.append(
        Reason("bt.score.deal", "Deal total: " + " ".join(f"{line.points:+d}" for line in lines) + f" = {total}.")
    )
    return Score(total, tuple(lines), tuple(reasons))


def _metal_choices(bid: Bid, won: Wins) -> tuple[MetalChoice, ...]:
    choices = []
    for i, key in enumerate(BID_SUITS):
        b = getattr(bid, key)
        before = _suit_points(b, won[i])
        after = _suit_points(b, won[i] + 1)
        w = won[i] + 1
        label = LABEL[key]
        if w == b:
            effect = "exactly the bid"
        elif w < b:
            effect = f"still {b - w} short"
        else:
            effect = f"{w - b} too many"
        text = (
            f"Count it for {label}: {plural(w, label + ' win')} for a bid of {b}, {effect}, "
            f"so {label} would score {after:+d} (it scores {before:+d} now)."
        )
        choices.append(MetalChoice(key, b, w, after, after - before, text))
    return tuple(choices)


def _join(names: Iterable[str]) -> str:
    items = list(names)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
