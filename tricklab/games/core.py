"""The compact core every game's rules run on, and what it shares between games.

A game's rules are written once, as a *core*: a compact, immutable state (integer card ids,
bit-mask hands, small tuples of ints), ``core_legal(state)`` listing the integer ids of the
actions allowed now and ``core_step(state, action_id, facts)`` making one of them, automatic
steps included. That pair is the only implementation of each rule. Everything else runs on
it (in the manner of OpenSpiel's ``legal_actions``/``apply_action``):

* the checked API (:class:`CoreRules`, behind ``Rules.apply`` and ``Match``): an action is
  accepted exactly when the core lists it; otherwise the game's one ``explain_illegal``
  says which rule forbids it, using the same core functions (never a second copy);
* the bots and the advisor, which step the core directly and read cheap views of it;
* narration: with a fact list, ``core_step`` appends small typed :class:`Fact` values (a card
  played, a trick won, choices revealed) each with the state right after it, and the game's
  narrator turns them into :class:`~tricklab.games.base.Event` captions and reasons, apart
  from the rules. A seat's timeline narrates each fact as that seat may see it
  (:meth:`Fact.seen_by`), so nothing hidden from a seat is ever in its timeline.

A game may write its rules of play as a *round* instead (:meth:`CoreRules.core_round`, a
generator that keeps the state in locals and packs a frozen one only when asked, see
:data:`Round`): ``core_legal``/``core_step`` then run on it, a match keeps one running
(:class:`LiveRound`), play-outs follow one (:func:`stepper`). A trick game's round is
:func:`trick_round`, the trick machinery of every such game, with the game's own rules as the
hooks of its :class:`TrickDeal`.

What every trick-taking game shares is written here once: card ids and masks
(:class:`CardIds`), the seeded deal, the follow-suit mask, secret simultaneous choices
revealed together, tie-break chains, and per-seat masking of hands.
"""

from __future__ import annotations

from abc import abstractmethod
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any, ClassVar, Generic, Self, TypeVar, overload

from ..actions import Action
from ..cards import FRENCH_SUITS, Card, FrenchCard
from ..errors import IllegalAction
from ..explain import Reason
from .base import Event, EventKind, GameState, Log, Rules, TieBreak, check_log, check_seed, leaders

S = TypeVar("S", bound=GameState)

# --- card ids and bit masks -------------------------------------------------------------------

_CHUNKS = 8  # masks of up to 64 cards, read a byte at a time
_BYTE_BITS = tuple(tuple(tuple(8 * k + b for b in range(8) if m >> b & 1) for m in range(256)) for k in range(_CHUNKS))
_BYTES_0, _BYTES_1, _BYTES_2, _BYTES_3, _BYTES_4, _BYTES_5, _BYTES_6 = _BYTE_BITS[:7]


def bits(mask: int) -> tuple[int, ...]:
    """The set bits of ``mask``, lowest first (the card ids of a hand, in hand order)."""
    if mask < 256:
        return _BYTE_BITS[0][mask]
    if mask < 1 << 40:  # up to 40 cards, the most often asked (a hand of Band of Tricks): at once
        return (
            _BYTES_0[mask & 255]
            + _BYTES_1[mask >> 8 & 255]
            + _BYTES_2[mask >> 16 & 255]
            + _BYTES_3[mask >> 24 & 255]
            + _BYTES_4[mask >> 32]
        )
    if mask < 1 << 56:  # up to 56 cards (a 52-card deck's hands): at once
        return (
            _BYTES_0[mask & 255]
            + _BYTES_1[mask >> 8 & 255]
            + _BYTES_2[mask >> 16 & 255]
            + _BYTES_3[mask >> 24 & 255]
            + _BYTES_4[mask >> 32 & 255]
            + _BYTES_5[mask >> 40 & 255]
            + _BYTES_6[mask >> 48]
        )
    out: tuple[int, ...] = ()
    for table in _BYTE_BITS:
        if not mask:
            break
        out += table[mask & 255]
        mask >>= 8
    return out


def mask_of(ids: Iterable[int]) -> int:
    """The bit mask holding the card ids ``ids``."""
    m = 0
    for i in ids:
        m |= 1 << i
    return m


def lowest(mask: int) -> int:
    """The lowest set bit of a non-empty ``mask`` (the first card of a hand)."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """The highest set bit of a non-empty ``mask``."""
    return mask.bit_length() - 1


#: per suit, the ids of each mask of that suit's cards, and the shift that indexes them (CardIds.by_suit)
SuitTables = tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[int, ...]]


@cache
def _suit_table(offset: int, width: int) -> tuple[tuple[int, ...], ...]:
    """The ids of each mask of ``width`` cards numbered from ``offset``, by the mask shifted down."""
    return tuple(tuple(offset + b for b in range(width) if m >> b & 1) for m in range(1 << width))


class CardIds:
    """A game's cards numbered ``0..n-1`` in its hand order, so a hand is a bit mask and the
    set bits of a mask, lowest first, are the hand as the game sorts it.

    ``suit[i]`` is the suit index of card ``i`` (into ``suits``) and ``suit_mask[k]`` the mask
    of every card of suit ``k``. Cards convert both ways: ``ids.card(i)``, ``ids.id[card]``,
    ``ids.hand(mask)`` (a tuple of cards) and ``ids.mask(cards)``.
    """

    __slots__ = ("_by_suit", "_hands", "_reader", "cards", "id", "rank", "suit", "suit_mask", "suits")

    def __init__(self, cards: Sequence[Card], suits: Sequence[str]) -> None:
        self.cards: tuple[Card, ...] = tuple(cards)
        self.suits: tuple[str, ...] = tuple(suits)
        self.id: dict[Card, int] = {c: i for i, c in enumerate(self.cards)}
        self.suit: tuple[int, ...] = tuple(self.suits.index(c.suit) for c in self.cards)
        self.rank: tuple[int, ...] = tuple(c.rank for c in self.cards)
        self.suit_mask: tuple[int, ...] = tuple(
            mask_of(i for i, c in enumerate(self.cards) if c.suit == s) for s in self.suits
        )
        self._hands: dict[int, tuple[Card, ...]] = {}
        self._by_suit: SuitTables | None = None
        self._reader: Callable[[int], tuple[int, ...]] | None = None

    def by_suit(self) -> SuitTables | None:
        """``(tables, shifts)`` such that the ids of a mask ``m`` of suit ``k``'s cards only are
        ``tables[k][m >> shifts[k]]`` (what :func:`bits` gives, in one look-up: the cards a hand
        may follow with), when each suit's cards are numbered in one run of at most 13; else
        ``None``. Built when first asked (a 13-card suit's table has 8,192 entries, shared)."""
        if self._by_suit is None:
            runs = []
            for m in self.suit_mask:
                shift = (m & -m).bit_length() - 1
                width = m.bit_length() - shift
                if m >> shift != (1 << width) - 1 or width > 13:
                    return None
                runs.append((shift, width))
            self._by_suit = (tuple(_suit_table(o, w) for o, w in runs), tuple(o for o, _ in runs))
        return self._by_suit

    def reader(self) -> Callable[[int], tuple[int, ...]]:
        """A function as :func:`bits` for this deck's masks: for four suits each numbered in
        one run (:meth:`by_suit`), four look-ups instead of one a byte (made once)."""
        if self._reader is not None:
            return self._reader
        by_suit = self.by_suit()
        if by_suit is None or len(by_suit[0]) != 4:
            self._reader = bits
            return bits
        (t0, t1, t2, t3), (s0, s1, s2, s3) = by_suit
        w0, w1, w2, w3 = (len(t) - 1 for t in by_suit[0])

        def read(mask: int) -> tuple[int, ...]:
            return t0[mask >> s0 & w0] + t1[mask >> s1 & w1] + t2[mask >> s2 & w2] + t3[mask >> s3 & w3]

        self._reader = read
        return read

    def __len__(self) -> int:
        return len(self.cards)

    def card(self, i: int) -> Card:
        return self.cards[i]

    def mask(self, cards: Iterable[Card]) -> int:
        ids = self.id
        return mask_of(ids[c] for c in cards)

    def hand(self, mask: int) -> tuple[Card, ...]:
        """The cards of ``mask`` in hand order (cached: views ask for the same hands often)."""
        found = self._hands.get(mask)
        if found is None:
            cards = self.cards
            found = tuple(cards[i] for i in bits(mask))
            if len(self._hands) > 50_000:
                self._hands.clear()
            self._hands[mask] = found
        return found

    def hands(self, masks: Iterable[int]) -> tuple[tuple[Card, ...], ...]:
        """Several masks as hands of cards (a state's hands, or the cards each seat has won)."""
        hand = self.hand
        return tuple(hand(m) for m in masks)

    def of(self, ids: Iterable[int]) -> tuple[Card, ...]:
        """The cards of the ids ``ids``, in the order given (a trick in play order)."""
        cards = self.cards
        return tuple(cards[i] for i in ids)


ACE_HIGH = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1)
"""The ranks of a French suit from low to high, the Ace highest."""

ACE_HIGH_IDS = CardIds(tuple(FrenchCard(suit, rank) for suit in FRENCH_SUITS for rank in ACE_HIGH), FRENCH_SUITS)
"""The 52 cards numbered suit by suit (♠ ♥ ♦ ♣), each from the 2 up to the Ace: card id = suit * 13
+ strength, so the set bits of a hand's mask, lowest first, are the hand as it is sorted."""


def totals_of(round_scores: Sequence[Sequence[int]], players: int) -> tuple[int, ...]:
    """Each seat's total over the rounds scored so far (zeros before the first)."""
    if not round_scores:
        return (0,) * players
    return tuple(map(sum, zip(*round_scores, strict=True)))


@cache
def _index_combinations(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    return tuple(combinations(range(n), k))


class HandChoices(Sequence[int]):
    """Every choice of ``k`` cards of ``hand`` as action ids (``ids``: a choice's mask -> its id;
    ``masks[a - base]``: id ``a``'s mask), in the order ``combinations(bits(hand), k)`` lists
    them, without building the list: a play-out draws one by index and a match checks one with
    ``in``, each at the cost of one choice (286 of them for 3 of 13 cards); iterating lists all."""

    __slots__ = ("_base", "_cards", "_combos", "_hand", "_ids", "_k", "_masks")

    def __init__(self, hand: int, k: int, ids: Mapping[int, int], masks: Sequence[int], base: int) -> None:
        self._hand, self._k, self._ids, self._masks, self._base = hand, k, ids, masks, base
        self._cards = bits(hand)
        self._combos = _index_combinations(len(self._cards), k)

    def __len__(self) -> int:
        return len(self._combos)

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[int, ...]: ...
    def __getitem__(self, index: int | slice) -> int | tuple[int, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        cards = self._cards
        mask = 0
        for i in self._combos[index]:
            mask |= 1 << cards[i]
        return self._ids[mask]

    def __iter__(self) -> Iterator[int]:
        # a choice's mask is the sum of its cards' bits: the ids read off at C speed
        return map(self._ids.__getitem__, map(sum, combinations([1 << c for c in self._cards], self._k)))

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, int) or not 0 <= action - self._base < len(self._masks):
            return False
        mask = self._masks[action - self._base]
        return mask & self._hand == mask and mask.bit_count() == self._k

    def __eq__(self, other: object) -> bool:
        if isinstance(other, HandChoices):
            return tuple(self) == tuple(other)
        return isinstance(other, tuple) and tuple(self) == other

    __hash__ = None  # type: ignore[assignment]  # as a list: compared by its ids, never hashed

    def __repr__(self) -> str:
        return f"HandChoices({tuple(self)!r})"


class ListedActions(Sequence[Action]):
    """The actions listed now, as :meth:`Match.legal_actions <tricklab.Match.legal_actions>` gives
    them: ``actions[i]`` for each id ``i`` of ``ids``, in that order. A list when there are few;
    read through when the ids are a :class:`HandChoices` (286 passes of 3 cards of 13), so a
    player who takes one by index, or checks one with ``in``, pays for that one only."""

    __slots__ = ("_actions", "_ids", "_numbers")

    def __init__(self, actions: Sequence[Action], ids: Sequence[int], numbers: Mapping[Action, int]) -> None:
        self._actions, self._ids, self._numbers = actions, ids, numbers

    def __len__(self) -> int:
        return len(self._ids)

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return list(map(self._actions.__getitem__, self._ids[index]))
        return self._actions[self._ids[index]]

    def __iter__(self) -> Iterator[Action]:
        return map(self._actions.__getitem__, self._ids)

    def __contains__(self, action: object) -> bool:
        a = self._numbers.get(action) if isinstance(action, Action) else None
        return a is not None and a in self._ids

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (ListedActions, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # as a list: compared by its actions, never hashed

    def __repr__(self) -> str:
        return repr(list(self))


def follow_mask(hand: int, led_suit: int, ids: CardIds) -> int:
    """The cards of ``hand`` that may be played to a trick led in suit ``led_suit`` under
    "follow suit if you can": the cards of that suit, or the whole hand if it has none."""
    same = hand & ids.suit_mask[led_suit]
    return same or hand


def shuffled_ids(rules: Rules[Any], seed: int, round_index: int, deck: Sequence[int]) -> list[int]:
    """The card ids of ``deck`` (in the deck's order) shuffled by the round's seeded random
    source: the same permutation the deal has always used, so a seed keeps its deal."""
    return shuffle_ids(deck, rules.deal_rng(seed, round_index).getrandbits)


def shuffle_ids(deck: Sequence[int], getrandbits: Callable[[int], int], first: int | None = None) -> list[int]:
    """``deck`` shuffled as ``random.Random.shuffle`` shuffles it, drawing from ``getrandbits``
    (a record's deal: the seeded source of :func:`shuffled_ids`; a simulation's: its own).

    With ``first`` (a simulation's deal, which need not be a record's), only the first ``first``
    cards of the order are drawn, uniformly and in a uniform order, and the rest follow in no
    particular order: a deal that uses that many cards costs that many draws."""
    order = list(deck)
    last = len(order) - 1
    # random.Random.shuffle's own steps (Fisher-Yates, each index drawn by rejection from
    # getrandbits), written out: the same permutation in about a fifth of the time
    # (tests/test_engine_contract.py checks it against shuffle); a position is final once drawn
    for i in range(last, 0 if first is None else max(last - first, 0), -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]
    if first is not None:
        cut = len(order) - first
        return order[cut:] + order[:cut]
    return order


#: ``_BITS[i] == 1 << i``: a set of distinct card ids' mask is the sum of their bits, at C speed
_BITS = tuple(1 << i for i in range(128))


def deal_hands(order: Sequence[int], players: int, each: int) -> tuple[tuple[int, ...], int]:
    """Hands of ``each`` cards dealt in blocks from a shuffled order (the first ``each`` to
    the first seat dealt, and so on), as masks, and the mask of the cards left over."""
    bit = _BITS.__getitem__
    hands = tuple([sum(map(bit, order[s * each : (s + 1) * each])) for s in range(players)])
    return hands, sum(map(bit, order[players * each :]))


def mask_census(masks: Iterable[int | None], ids: Iterable[int] = ()) -> Counter[object]:
    """The card ids in ``masks`` (``None``: none) and ``ids``, counted: a card game's
    :meth:`~tricklab.games.base.Rules.census`."""
    counted: Counter[object] = Counter(ids)
    for mask in masks:
        if mask:
            counted.update(bits(mask))
    return counted


def hidden_hands(hands: tuple[int, ...], seat: int | None) -> tuple[int | None, ...]:
    """Per-seat masking: every hand for the teacher (``seat is None``), otherwise only the
    seat's own; the others are ``None``."""
    if seat is None:
        return hands
    shown: list[int | None] = [None] * len(hands)
    if 0 <= seat < len(hands):  # (an unknown seat sees none)
        shown[seat] = hands[seat]
    return tuple(shown)


# --- secret simultaneous choices ----------------------------------------------------------------

V = TypeVar("V")


def choose_secretly(chosen: tuple[V | None, ...], seat: int, value: V) -> tuple[V | None, ...]:
    """Record one seat's secret choice; the others are kept."""
    return chosen[:seat] + (value,) + chosen[seat + 1 :]


def secrets_seen_by(chosen: tuple[V | None, ...], seat: int | None, revealed: bool) -> tuple[V | None, ...]:
    """What ``seat`` knows of secret choices made one seat at a time and revealed together:
    everything once revealed (and always for the teacher), before that only its own."""
    if revealed or seat is None:
        return chosen
    return tuple(v if s == seat else None for s, v in enumerate(chosen))


# --- results ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decided:
    """How a match was won: the seats with the best total (``tied``), then the winners after the
    tie-break chain, which tie-break decided (``None`` if the totals did) and the values that
    tie-break compared."""

    tied: tuple[int, ...]
    winners: tuple[int, ...]
    tie_break: TieBreak | None
    values: tuple[int, ...] | None


def decide(totals: Sequence[int], chain: Sequence[tuple[TieBreak, Sequence[int]]]) -> Decided:
    """The winners of ``totals`` after a declared tie-break chain: each ``(tie_break, values)``
    in turn keeps the tied seats with the highest of ``values``, until one seat is left. If
    seats are still tied after the whole chain they share the win (:attr:`TieBreak.SHARED`)."""
    tied = tuple(leaders(totals))
    still = tied
    used: TieBreak | None = None
    values: tuple[int, ...] | None = None
    for tie_break, compared in chain:
        if len(still) == 1:
            break
        still = tuple(leaders(compared, still))
        used, values = tie_break, tuple(compared)
    if len(still) > 1:
        used = TieBreak.SHARED
    return Decided(tied, still, used, values)


# --- facts and narration ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fact:
    """Something the rules did, as data: what a narrator turns into an :class:`Event`.

    Each game defines its facts as small frozen dataclasses deriving from this one, with the
    :class:`EventKind` they are narrated as. ``seat`` is who acted (``None``: the table).
    A fact that holds a secret (a prediction, passed cards) overrides :meth:`seen_by` to give
    the fact as another seat may see it.
    """

    kind: ClassVar[EventKind]
    seat: int | None

    def seen_by(self, seat: int | None) -> Fact:
        """This fact as ``seat`` may see it (``None``: the teacher, who sees everything)."""
        return self


Facts = list[tuple[Fact, Any]]  # (fact, the state right after it)


@dataclass(frozen=True, slots=True)
class Chose(Fact):
    """A seat made a secret choice (``value``; ``None`` where the seat reading it may not know it).
    Revealed together by a later fact of the game's own."""

    kind: ClassVar[EventKind] = EventKind.PREDICT
    value: object

    def seen_by(self, seat: int | None) -> Fact:
        if seat is None or seat == self.seat or self.value is None:
            return self
        return type(self)(self.seat, None)


# --- the checked API over a core --------------------------------------------------------------------


#: what a driver sends a round to have its state packed (:data:`Round`)
PACK = -1

#: a game's rules in generator form: started from any state at a decision (``core_round``), the
#: round yields ``(seat, legal ids)`` at each decision and is sent the id chosen; sent
#: :data:`PACK` instead, it yields the frozen state of that moment (and then waits for the id).
#: Automatic steps run inside; it returns the state at the match's end.
Round = Generator["tuple[int, Sequence[int]] | S", int, S]

#: decisions a round makes with ``yield from`` (bids, passes: :meth:`TrickDeal.before_tricks`;
#: gem actions after a trick: :attr:`TrickDeal.after_trick`), returning the state at the match's
#: end when the match ended in them, else ``None``
Decisions = Generator["tuple[int, Sequence[int]] | S", int, "S | None"]


def round_step(round_: Round[S], action: int) -> S:
    """Start ``round_`` (a fresh :data:`Round`), make ``action`` and return the state after it."""
    next(round_)
    try:
        round_.send(action)
        return round_.send(PACK)  # type: ignore[return-value]  # a round yields its state when sent PACK
    except StopIteration as end:
        return end.value  # type: ignore[no-any-return]  # the round's return value: S


def decision(
    seat: int, listed: Sequence[int], pack: Callable[[int | None], S]
) -> Generator[tuple[int, Sequence[int]] | S, int, int]:
    """One decision of a round, with ``yield from``: ``(seat, listed)`` yielded, ``pack(seat)``
    for each :data:`PACK` sent, and the id chosen returned."""
    a = yield seat, listed
    while a < 0:  # PACK (an action id is never negative)
        a = yield pack(seat)
    return a


#: a game's narrowing of the cards a hand may play (a hand's mask -> the mask of those allowed)
CardRule = Callable[[int], int]


class TrickDeal(Generic[S]):
    """A deal of a trick game in play: what :func:`trick_round`, the round every trick game runs
    on, reads and changes, and the hooks by which a game says what is its own.

    A game's deal sets, before each trick (when it is made, in :meth:`before_tricks` or in
    :meth:`trick_taken`):

    * ``held``, ``played``, ``taken``: each seat's hand (a mask), the trick so far (ids in play
      order; a round started mid-trick goes on from it) and each seat's cards taken (masks),
      lists the round changes in place;
    * ``seat`` (to play; the trick's next card) and ``leader`` (who led it);
    * ``values[led suit][card]``: the card of the highest value takes the trick (ties: the
      first played), e.g. trumps above the led suit above the rest; ``None`` for a game whose
      trick is not won that way nor followed by the led suit (Band of Tricks: the first card
      not Metal sets the suit, and the suits in the trick decide its ranking), which writes
      :meth:`allowed` and :meth:`placed` instead;
    * ``lead`` and ``discard``: the cards a hand may lead, and play when it cannot follow
      (``None``: any), as :data:`CardRule` (read once a deal: a rule that changes within a
      deal, as trumps broken, reads the deal itself);
    * ``facts``: the list the round notes its facts in, or ``None``;
    * ``after_trick``: set by :meth:`trick_taken` when decisions follow the trick before the next
      (the players' gem actions, say): the round makes them with ``yield from`` and clears it;
      they end by setting ``seat`` and ``leader`` for the next trick, or with the deal's end;
    * ``after_card``: the same within a trick, set by :meth:`placed` (a deal without ``values``)
      when a card calls for something before the next card (Jewel Vault's suit action of a
      player who cannot follow), made after the card's fact;
    * ``trick_size``: the cards of a trick where it is not one a player (Jewel Vault's two players
      play two each); ``0``: one a player.

    and writes :meth:`pack` (the frozen state, its seat to play given), :meth:`before_tricks`
    (the decisions before a deal's first trick, bids or passes, if any are due), :meth:`card_fact`
    (the fact of a card played) and :meth:`trick_taken` (its bookkeeping, the deal's score and
    the next deal, or the match's end). A new deal is loaded as new lists (``held`` and the
    rest): the round then asks :meth:`before_tricks` and reads the deal afresh."""

    held: list[int]
    played: list[int]
    taken: list[int]
    seat: int
    leader: int
    next_seat: Sequence[int]
    ids: CardIds
    values: Sequence[Sequence[int]] | None
    lead: CardRule | None = None
    discard: CardRule | None = None
    facts: Facts | None = None
    after_trick: Decisions[S] | None = None
    after_card: Decisions[S] | None = None
    trick_size: int = 0

    def pack(self, to_play: int | None) -> S:
        """The state now, frozen, with ``to_play`` to play."""
        raise NotImplementedError

    def before_tricks(self) -> Decisions[S] | None:
        """The decisions due before the deal's first trick (each with :func:`decision`), or
        ``None`` when the trick is next; ``seat``, ``leader`` and the rest are set when they end.
        A round started between tricks (at a decision :attr:`after_trick` made) is given those
        decisions here too: what is due before the next trick (and, when they end the deal, the
        next deal's decisions after them)."""
        return None

    def allowed(self, hand: int) -> Sequence[int]:
        """For a deal without ``values``: the ids of the cards of ``hand`` (a mask) that may be
        played to the trick so far (``played``)."""
        raise NotImplementedError

    def placed(self, card: int) -> int:
        """For a deal without ``values``: the seat winning the trick so far, ``card`` (the last in
        ``played``) just placed in it."""
        raise NotImplementedError

    def winning(self) -> int:
        """For a deal without ``values``: the seat winning the trick so far (a round started
        mid-trick asks it before any card is placed)."""
        raise NotImplementedError

    def card_fact(self, player: int, card: int, trick: tuple[int, ...]) -> Fact:
        """The fact of ``player``'s ``card`` (``trick``: the trick so far, that card last)."""
        raise NotImplementedError

    def trick_taken(self, winner: int, cards: int, trick: tuple[int, ...]) -> S | None:
        """After ``winner`` took the trick (``cards``: its mask; ``trick``: its ids in play order;
        ``taken`` already holds it, ``played`` is empty): the game's bookkeeping, then ``seat``
        and ``leader`` for the next trick (or a new deal's); the state at the match's end when
        it ended, else ``None``."""
        raise NotImplementedError


def trick_round(deal: TrickDeal[S]) -> Round[S]:
    """The round of a trick game (:data:`Round`), from a decision to the match's end: the trick
    machinery every trick game shares, written once, with ``deal``'s hooks for the rest.

    Before a deal's tricks, the decisions ``deal.before_tricks()`` has due. Then each trick: at each
    turn the round yields ``(seat, ids of the cards allowed)``, to lead any card (or those
    ``deal.lead`` allows), then the led suit if the hand has it (:func:`follow_mask`), else any
    card (or those ``deal.discard`` allows); sent :data:`PACK`, it yields ``deal.pack(seat)``.
    The card goes from ``held[seat]`` to ``played``, its fact noted with the state then (no one
    to play at the trick's last card: it is not taken yet). The card of the highest
    ``values[led suit][card]`` takes the trick: its cards go into ``taken[winner]``, ``played``
    is emptied, and ``deal.trick_taken`` goes on from there, then the decisions it left due
    (``deal.after_trick``). A deal without ``values`` plays its tricks by its own rules: the
    cards allowed are ``deal.allowed(hand)``, the seat winning is ``deal.placed(card)`` after
    each card, and the decisions a card leaves due (``deal.after_card``) are made after its
    fact, before the next card."""
    ids = deal.ids
    suit_of, suit_mask = ids.suit, ids.suit_mask
    by_suit = ids.by_suit()  # the ids a hand may follow with, in one look-up where suits run in order
    cards_of = ids.reader()
    tables, shifts = by_suit if by_suit is not None else ((), ())
    facts = deal.facts
    listed: Sequence[int]
    while True:  # a deal: its decisions before the tricks, then its tricks
        before = deal.before_tricks()
        if before is not None:
            over = yield from before
            if over is not None:
                return over
        held, played, taken, next_seat = deal.held, deal.played, deal.taken, deal.next_seat
        values, lead, discard = deal.values, deal.lead, deal.discard
        n = len(held)
        size = deal.trick_size or n
        own = -2  # ``led`` of a trick played by the deal's own rules (no ``values``)
        while held is deal.held:  # a trick (a new deal is a new list of hands)
            seat = deal.seat
            if values is None:
                led, cards = own, mask_of(played)
                if played:
                    winner = deal.winning()
            elif played:  # a round started mid-trick
                led = suit_of[played[0]]
                value, led_mask = values[led], suit_mask[led]
                best_at = 0
                for i in range(1, len(played)):
                    if value[played[i]] > value[played[best_at]]:
                        best_at = i
                best, winner, cards = value[played[best_at]], (deal.leader + best_at) % n, mask_of(played)
                follow = tables[led] if tables else ()
                shift = shifts[led] if tables else 0
            else:
                led = -1
            for k in range(len(played), size):
                hand = held[seat]
                if led >= 0:
                    allowed = hand & led_mask  # follow suit if you can (follow_mask, written in)
                    if not allowed:
                        listed = cards_of(hand if discard is None else discard(hand))
                    elif follow:
                        listed = follow[allowed >> shift]
                    else:
                        listed = cards_of(allowed)
                elif led == -1:
                    listed = cards_of(hand if lead is None else lead(hand))
                else:
                    listed = deal.allowed(hand)
                a = yield seat, listed
                while a < 0:  # PACK (as in decision(), written in: the trick's hot loop)
                    a = yield deal.pack(seat)
                card = 1 << a
                held[seat] = hand ^ card
                played.append(a)
                if led >= 0:
                    cards |= card
                    if value[a] > best:
                        best, winner = value[a], seat
                elif led == -1:
                    assert values is not None
                    led = suit_of[a]
                    value, led_mask = values[led], suit_mask[led]
                    follow = tables[led] if tables else ()
                    shift = shifts[led] if tables else 0
                    best, winner, cards = value[a], seat, card
                else:
                    cards |= card
                    winner = deal.placed(a)
                if k < size - 1:
                    player, seat = seat, next_seat[seat]
                    if facts is not None:
                        facts.append((deal.card_fact(player, a, tuple(played)), deal.pack(seat)))
                elif facts is not None:
                    facts.append((deal.card_fact(seat, a, tuple(played)), deal.pack(None)))
                if led == own:
                    after = deal.after_card
                    if after is not None:
                        deal.after_card = None
                        over = yield from after
                        if over is not None:
                            return over
            trick = tuple(played)
            taken[winner] |= cards
            played.clear()
            over = deal.trick_taken(winner, cards, trick)
            if over is not None:
                return over
            after = deal.after_trick
            if after is not None:
                deal.after_trick = None
                over = yield from after
                if over is not None:
                    return over


class LiveRound(Generic[S]):
    """A round kept running between the decisions of one line of play (a match, a play-out), so
    each step is a resume and a pack rather than a fresh start: ``step(state, action)`` continues
    when ``state`` is the one the round last packed, and starts the round from ``state``
    otherwise (after an undo, say). A step that asks for its facts when the round does not
    record them (or the other way round) starts the round again, recording or not: a line of
    play that wants facts at every step, or at none, resumes all along."""

    __slots__ = ("_facts", "_legal", "_round", "_rules", "_state")

    def __init__(self, rules: CoreRules[S]) -> None:
        self._rules = rules
        self._state: object = None
        self._round: Round[S] | None = None
        self._legal: Sequence[int] = ()
        self._facts: Facts | None = None  # the list the running round records into, if it records

    @property
    def rules(self) -> CoreRules[S]:
        return self._rules

    def legal(self, state: S) -> Sequence[int]:
        """The ids listed in ``state``, from the round when it stands there."""
        if self._state is not state or self._round is None:
            return self._rules.legal_ids(state)
        return self._legal

    def step(self, state: S, action: int, facts: Facts | None = None) -> S:
        """The state after ``action`` (listed in ``state``); with ``facts``, the step's facts
        appended to it, each with the state after it, as :meth:`CoreRules.core_step` does."""
        round_ = self._round if self._state is state else None
        if round_ is not None and (facts is None) != (self._facts is None):
            round_ = None  # the round records and no facts are wanted now, or the other way round
        if round_ is None:
            recording: Facts | None = [] if facts is not None else None
            round_ = self._rules.core_round(state, recording)
            if round_ is None:
                return self._rules.core_step(state, action, facts)
            next(round_)
            self._facts = recording
        self._round = None  # resumed below: if anything raises, the next step starts afresh
        recorded = self._facts
        if recorded is not None:
            recorded.clear()
        try:
            decision = round_.send(action)
            new: S = round_.send(PACK)  # type: ignore[assignment]  # a round yields its state when sent PACK
        except StopIteration as end:
            self._state = None
            if facts is not None and recorded is not None:
                facts.extend(recorded)
            return end.value  # type: ignore[no-any-return]  # the round's return value: S
        if facts is not None and recorded is not None:
            facts.extend(recorded)
        self._state, self._round, self._legal = new, round_, decision[1]  # type: ignore[index]
        return new


def stepper(rules: CoreRules[S]) -> tuple[Callable[[S], Sequence[int]], Callable[[S, int, Facts | None], S]]:
    """``(legal, step)`` for a loop that follows one line of play (a play-out, a review's replay):
    a :class:`LiveRound`'s for a game written as a round, the core's own for any other. Each
    step is taken from the state the previous one returned, as :meth:`CoreRules.core_step` is."""
    if type(rules).core_round is CoreRules.core_round:
        return rules.core_legal, rules.core_step
    live = LiveRound(rules)
    return live.legal, live.step


class CoreRules(Rules[S]):
    """:class:`Rules` whose checked API is the game's core plus one ``explain_illegal``.

    A game implements :meth:`core_initial`, :meth:`core_legal`, :meth:`core_step`,
    :meth:`explain_illegal` and :meth:`narrate`, and builds ``self.actions`` (action id ->
    :class:`Action`, one listed spelling each). This class provides ``initial_state``,
    ``legal_actions`` and ``apply``: an action is applied exactly when the core lists it.
    """

    actions: tuple[Action, ...]
    _action_ids: dict[Action, int]
    # the listed objects themselves, by identity (built when first asked): what legal_actions
    # hands out comes back to apply, and an int key is cheaper to look up than an action's hash
    _listed_objects: dict[int, int] | None = None
    _legal_cache: tuple[object, Sequence[int]] = (None, ())

    def set_actions(self, actions: Sequence[Action]) -> None:
        """Number the game's actions: ``actions[i]`` is action id ``i``."""
        self.actions = tuple(actions)
        self._action_ids = {a: i for i, a in enumerate(self.actions)}
        self._listed_objects = None

    def legal_ids(self, state: S) -> Sequence[int]:
        """:meth:`core_legal`, remembered for the last state asked about: a match lists the
        actions of a state and then applies one of them, which checks the same list."""
        cached_state, ids = self._legal_cache  # one tuple, read and written whole
        if cached_state is not state:
            ids = self.core_legal(state)
            self._legal_cache = (state, ids)
        return ids

    def parse_action(self, text: str | Action) -> Action:
        if isinstance(text, Action) and text in self._action_ids:  # an action the game lists somewhere
            return text
        return super().parse_action(text)

    def action_id(self, action: Action) -> int | None:
        """The id of ``action`` as listed, or ``None`` if the game has no such action."""
        return self._action_ids.get(action)

    # --- what a game writes -----------------------------------------------------------------

    @abstractmethod
    def core_initial(self, seed: int, facts: Facts | None, **match_options: Any) -> S:
        """The state after the first deal; ``match_options`` are checked here."""

    @abstractmethod
    def core_legal(self, state: S) -> Sequence[int]:
        """The ids of the actions allowed now, in the order ``legal_actions`` lists them."""

    @abstractmethod
    def core_step(self, state: S, action: int, facts: Facts | None = None) -> S:
        """Make the listed action ``action`` and every automatic step after it. Unchecked: the
        caller took ``action`` from :meth:`core_legal`."""

    def core_deal(self, getrandbits: Callable[[int], int], first_dealer: int = 0) -> S | None:
        """A first deal shuffled with the caller's own random source (``random.getrandbits``), as a
        simulation deals: cheaper than a record's deal (:meth:`core_initial`, fixed by the seed),
        which a simulation need not reproduce. ``None`` for a game that does not deal this way."""
        return None

    def core_round(self, state: S, facts: Facts | None) -> Round[S] | None:
        """The game's rules as a :data:`Round` started from ``state`` (appending to ``facts``
        as :meth:`core_step` does), for a game written in that form; ``None`` otherwise."""
        return None

    @abstractmethod
    def explain_illegal(self, state: S, action: Action) -> IllegalAction:
        """Why ``action`` (not listed now) is refused: the rule id and a message for a learner."""

    @abstractmethod
    def narrate(self, fact: Fact, state: S) -> Event:
        """The event (caption, reasons, data) for ``fact``; ``state`` is the state right after it."""

    # --- the checked API ------------------------------------------------------------------

    def initial_state(self, seed: int, log: Log = None, **match_options: Any) -> S:
        seed = check_seed(seed)
        check_log(log)
        if log is None:
            return self.core_initial(seed, None, **match_options)
        facts: Facts = []
        state = self.core_initial(seed, facts, **match_options)
        log.extend((self.narrate(fact, after), after) for fact, after in facts)
        return state

    def legal_actions(self, state: S) -> list[Action]:
        self.check_state(state)
        return list(map(self.actions.__getitem__, self.legal_ids(state)))

    def _listed(self, state: S, action: Action) -> int | None:
        """The id of ``action`` if the core lists it now (in any spelling the game accepts)."""
        a = self._action_ids.get(self.canonical_action(state, action))
        return a if a is not None and a in self.legal_ids(state) else None

    def listed_id(self, state: S, action: Action) -> int:
        """The id of ``action`` if the core lists it now (in any spelling the game accepts),
        otherwise the :class:`IllegalAction` of :meth:`explain_illegal`."""
        a = self._listed(state, action)
        if a is None:
            raise self.explain_illegal(state, action)
        return a

    def refusal(self, state: S, action: Action | str) -> IllegalAction | None:
        """Why ``action`` is not allowed in ``state`` (the :class:`IllegalAction` of
        :meth:`explain_illegal`, which :meth:`apply` raises), or ``None`` when the core lists it.
        Nothing is played: a board asks this of every place a piece may not go."""
        self.check_state(state)
        if not isinstance(action, Action):
            action = self.parse_action(action)
        return None if self._listed(state, action) is not None else self.explain_illegal(state, action)

    def listed_action_id(self, state: S, action: str | Action, listed: Sequence[int] | None = None) -> int:
        """The id of ``action`` (an Action, or its text) if the core lists it now: a listed
        Action costs one look-up; any other input is parsed and checked as :meth:`listed_id`.
        ``listed``: the ids listed in ``state`` when the caller has them (a :class:`LiveRound`'s)."""
        a = self.quick_listed_id(action, self.legal_ids(state) if listed is None else listed)
        if a is not None:
            return a
        return self.listed_id(state, self.parse_action(action))

    def listed_objects(self) -> dict[int, int]:
        """The id of each listed Action object, by the object's identity (built when first asked):
        what ``legal_actions`` hands out comes back to ``apply``, and an int key is cheaper to look
        up than an action's hash. Check ``self.actions[id] is action`` on a hit."""
        objects = self._listed_objects
        if objects is None:
            objects = self._listed_objects = {id(a): i for i, a in enumerate(self.actions)}
        return objects

    def quick_listed_id(self, action: object, listed: Sequence[int]) -> int | None:
        """The id of ``action`` if it is an Action whose id is in ``listed`` (the ids listed now),
        in one look-up for an object ``legal_actions`` handed out; ``None`` for anything else (text,
        another spelling, an action not listed), which :meth:`listed_id` then reads and explains."""
        a = self.listed_objects().get(id(action))
        if a is None or self.actions[a] is not action:
            a = self._action_ids.get(action) if isinstance(action, Action) else None
        return a if a is not None and a in listed else None

    def _apply(self, state: S, action: Action, log: Log) -> S:
        a = self.listed_id(state, action)
        if log is None:
            return self.core_step(state, a, None)
        facts: Facts = []
        new = self.core_step(state, a, facts)
        log.extend((self.narrate(fact, after), after) for fact, after in facts)
        return new  # Rules.apply ends the logged steps at the state returned

    def facts(self, state: S, action: Action | str) -> Facts:
        """The facts of applying ``action`` (an Action or its text) to ``state`` (checked), each with
        the state after it."""
        self.check_state(state)
        facts: Facts = []
        self.core_step(state, self.listed_action_id(state, action), facts)
        return facts


D = TypeVar("D", bound="TrickDeal[Any]")


class TrickGame(CoreRules[S], Generic[S, D]):
    """The rules of a trick game written on the engine's trick round (:func:`trick_round`): the
    game writes its deal (:class:`TrickDeal`, made by :meth:`new_deal`) and the rest is here. The
    round is the game's one implementation of its rules; the core's step-at-a-time API starts it
    from the state it is given (``core_legal``, ``core_step``), a match drives it
    (``core_round``), and a play-out drives it and reads the running deal (``live_deal``)."""

    @abstractmethod
    def new_deal(self, state: S, facts: Facts | None) -> D:
        """The game's deal in play from ``state`` (at a decision), noting its facts in ``facts``."""

    def core_legal(self, state: S) -> Sequence[int]:
        if state.to_play is None:
            return ()
        decision = next(self.core_round(state, None))
        return decision[1]  # type: ignore[index]  # a round's first yield is a decision

    def core_step(self, state: S, action: int, facts: Facts | None = None) -> S:
        return round_step(self.core_round(state, facts), action)

    def core_round(self, state: S, facts: Facts | None) -> Round[S]:
        return trick_round(self.new_deal(state, facts))

    def live_deal(self, state: S, deal: Callable[[Self, S, Facts | None], D] | None = None) -> tuple[D, Round[S]]:
        """The round from ``state`` (at a decision) with its deal, whose ``seat_view`` a play-out's
        bots read between decisions instead of a packed state (``deal``: a subclass of the
        game's deal, as a play-out's that stops at the deal's end)."""
        live = self.new_deal(state, None) if deal is None else deal(self, state, None)
        return live, trick_round(live)


def event(kind: EventKind, seat: int | None, text: str, reasons: Iterable[Reason] = (), **data: object) -> Event:
    """An :class:`Event` from a narrator: ``data`` as keywords."""
    return Event(kind, seat, text, tuple(reasons), data)


def data_of(fact: Fact) -> Mapping[str, object]:
    """A fact's fields (but ``seat``) as an event's data."""
    return {name: getattr(fact, name) for name in fact.__dataclass_fields__ if name != "seat"}
