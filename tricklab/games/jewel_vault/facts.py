"""Jewel Vault's card ids, its value objects, and the facts its core reports.

Card ids: the 52 cards of the ordinary deck numbered in hand order (♠ ♥ ♦ ♣, Ace to King
in each), ``id = 13 * suit + rank - 1``, the same numbering in every variant (the known deck
uses the low ids of each suit only). A hand is a bit mask of these ids.

A fact is what the rules did, as data (:class:`~tricklab.games.core.Fact`); the narrator
(:mod:`.narrate`) turns each into the event a learner reads. A seat's passed cards are a
secret until the exchange: :meth:`Passed.seen_by` leaves them out for every other seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from ...cards import FrenchCard
from ...explain import Reason
from ..base import EventKind
from ..core import CardIds, Fact
from .rulebook import SUITS, Blocked, Cause

CARD_IDS = CardIds(tuple(FrenchCard(suit, rank) for suit in SUITS for rank in range(1, 14)), SUITS)
SUIT_OF = CARD_IDS.suit  # suit index of each card id (0 ♠, 1 ♥, 2 ♦, 3 ♣)
RANK_OF = CARD_IDS.rank  # rank of each card id (Ace 1 ... King 13)
SUIT_MASKS = CARD_IDS.suit_mask


# --- value objects ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Jewels:
    """Where the jewels are: the shared supply, and per *side* a showroom and a vault.

    A side is one player, or one partnership in the partnership variant.
    """

    supply: int
    showrooms: tuple[int, ...]
    vaults: tuple[int, ...]

    @property
    def total(self) -> int:
        return self.supply + sum(self.showrooms) + sum(self.vaults)


@dataclass(frozen=True, slots=True)
class ActionResult:
    """A suit action as data: who took it and why, and what moved from where to where.

    ``source`` is ``"supply"`` or ``"showroom"`` and ``destination`` ``"vault"`` or
    ``"showroom"``; ``from_side`` is the side whose showroom gave the jewel (``None``
    for the supply) and ``to_side`` the side that received it. When ``done`` is false
    nothing moved and ``blocked`` says why: ``"supply-empty"``, ``"showroom-empty"`` or
    ``"no-target"`` (every showroom one could take from is empty). ``cause`` is
    ``"void"`` (could not follow), ``"trick"`` (won the trick), ``"most"`` (most cards
    of the suit at the end of the round) or ``"no-trick"`` (won no trick). ``after`` are the
    jewels once it is done: ``None`` in a seat's own timeline, which may not see the vaults.
    """

    seat: int
    suit: str
    cause: Cause
    source: str
    destination: str
    from_side: int | None
    to_side: int
    done: bool
    blocked: Blocked | None
    text: str
    reasons: tuple[Reason, ...]
    after: Jewels | None


class DueAction(NamedTuple):
    """A suit action that is owed and not yet taken: ``seat`` takes ``suit`` because of ``cause``."""

    seat: int
    suit: str
    cause: Cause


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """The end-of-round actions in the order they happen, and why (ties included)."""

    actions: tuple[DueAction, ...]
    reasons: tuple[Reason, ...]


# --- owed actions, as the core keeps them: one int each ---------------------------------------------

CAUSES = tuple(Cause)  # void, trick, most, no-trick: the low two bits of an owed action


def owe(seat: int, suit: int, cause: int) -> int:
    """An owed suit action as one int: ``seat``, the suit index and the cause's index."""
    return seat << 4 | suit << 2 | cause


def due_action(owed: int) -> DueAction:
    """An owed action as the value object views and events show."""
    return DueAction(owed >> 4, SUITS[owed >> 2 & 3], CAUSES[owed & 3])


# --- facts ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealt(Fact):
    """A round was dealt (``seat``: the dealer); ``jewels`` as the round starts. The vaults are
    hidden from the seats (JV-8): a seat's copy has ``jewels=None`` (the supply and the
    showrooms are in its view)."""

    kind: ClassVar[EventKind] = EventKind.DEAL
    round: int
    supply: int
    jewels: Jewels | None

    def seen_by(self, seat: int | None) -> Fact:
        if seat is None or self.jewels is None:
            return self
        return Dealt(self.seat, self.round, self.supply, None)


@dataclass(frozen=True, slots=True)
class Announced(Fact):
    """The dealer announced how many cards everyone passes."""

    kind: ClassVar[EventKind] = EventKind.ANNOUNCE
    n: int


@dataclass(frozen=True, slots=True)
class Passed(Fact):
    """A seat chose the cards it passes (``cards``, a mask of card ids), a secret until the
    exchange: another seat's copy has ``cards=None``."""

    kind: ClassVar[EventKind] = EventKind.PASS
    n: int
    cards: int | None

    def seen_by(self, seat: int | None) -> Fact:
        if seat is None or seat == self.seat or self.cards is None:
            return self
        return Passed(self.seat, self.n, None)


@dataclass(frozen=True, slots=True)
class Exchanged(Fact):
    """Every seat's passed cards reached their receivers at once; ``leader`` leads."""

    kind: ClassVar[EventKind] = EventKind.EXCHANGE
    receivers: tuple[int, ...]
    leader: int


@dataclass(frozen=True, slots=True)
class Played(Fact):
    """A card was played; ``trick`` is the trick so far (card ids, play order), ``void`` that
    the card did not follow the led suit."""

    kind: ClassVar[EventKind] = EventKind.PLAY
    card: int
    trick: tuple[int, ...]
    void: bool


@dataclass(frozen=True, slots=True)
class TrickWon(Fact):
    """Trick ``number`` (from 1) was won by ``seat``; ``leader`` led ``cards`` (ids, play
    order); ``more``: another trick follows in this round."""

    kind: ClassVar[EventKind] = EventKind.TRICK
    number: int
    leader: int
    cards: tuple[int, ...]
    more: bool


@dataclass(frozen=True, slots=True)
class RoundEnded(Fact):
    """A round's last trick is over: the won cards per seat and suit (♠ ♥ ♦ ♣), the tricks
    won, and the end-of-round actions owed (ints, see :func:`owe`)."""

    kind: ClassVar[EventKind] = EventKind.ROUND_END
    round: int
    dealer: int
    counts: tuple[tuple[int, ...], ...]
    tricks_won: tuple[int, ...]
    owed: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Acted(Fact):
    """A suit action was taken by ``seat``: ``suit`` (index), why, the side robbed by ♣
    (``target``), why nothing moved (``blocked``) and the jewels after. ``card`` is the card
    that could not follow (a void action), ``count`` the side's won cards of the suit (most).
    The jewels hold every side's vault: a seat's copy has ``jewels=None``."""

    kind: ClassVar[EventKind] = EventKind.ACTION
    suit: int
    cause: Cause
    target: int | None
    blocked: Blocked | None
    jewels: Jewels | None
    card: int | None = None
    count: int | None = None

    def seen_by(self, seat: int | None) -> Fact:
        """A seat's copy leaves the jewels out: they hold every side's vault (JV-8)."""
        if seat is None or self.jewels is None:
            return self
        return Acted(self.seat, self.suit, self.cause, self.target, self.blocked, None, self.card, self.count)


@dataclass(frozen=True, slots=True)
class Ended(Fact):
    """The last round's actions are done: the game is over with these jewels."""

    kind: ClassVar[EventKind] = EventKind.END
    jewels: Jewels
