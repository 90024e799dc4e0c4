"""Mandala's facts: what its core reports, as data, for the narrator (:mod:`.narrate`).

Colours are given as words (``"red"``); counts per colour as tuples in the order of
:data:`~tricklab.cards.COLOURS`. Mandalas are numbered 1 and 2, as the actions name them.
A fact that holds a secret (the cards dealt or drawn) leaves it out for every other seat
(:meth:`~tricklab.games.core.Fact.seen_by`); face-down Cup cards are left out for the other
seat (MD-4: a player may look at their own Cup).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from ..base import EventKind, TieBreak
from ..core import Fact
from .rulebook import EndCause

Counts = tuple[int, ...]  # cards per colour, in the order of COLOURS


@dataclass(frozen=True, slots=True)
class Dealt(Fact):
    """The setup: each Mountain's face-up cards, the hands and the Cups (``None`` where the
    seat reading it may not see them), how many cards the deck holds and who starts."""

    kind: ClassVar[EventKind] = EventKind.DEAL
    mountains: tuple[Counts, ...]
    hands: tuple[Counts | None, ...]
    cups: tuple[Counts | None, ...]
    deck: int
    first: int

    def seen_by(self, seat: int | None) -> Fact:
        if seat is None:
            return self
        hands = tuple(h if s == seat else None for s, h in enumerate(self.hands))
        cups = tuple(c if s == seat else None for s, c in enumerate(self.cups))  # MD-4: one's own Cup
        return Dealt(self.seat, self.mountains, hands, cups, self.deck, self.first)


@dataclass(frozen=True, slots=True)
class IntoMountain(Fact):
    """``seat`` put one ``colour`` card into the Mountain of Mandala ``mandala``."""

    kind: ClassVar[EventKind] = EventKind.MOUNTAIN
    mandala: int
    colour: str


@dataclass(frozen=True, slots=True)
class IntoField(Fact):
    """``seat`` put ``count`` ``colour`` cards into their Field of Mandala ``mandala``."""

    kind: ClassVar[EventKind] = EventKind.FIELD
    mandala: int
    colour: str
    count: int


@dataclass(frozen=True, slots=True)
class Discarded(Fact):
    """``seat`` discarded ``count`` ``colour`` cards from their hand."""

    kind: ClassVar[EventKind] = EventKind.DISCARD
    colour: str
    count: int


@dataclass(frozen=True, slots=True)
class Drew(Fact):
    """``seat`` drew ``count`` cards of the ``wanted``; ``colours`` are the cards drawn, ``None``
    for the other seat. ``rule`` is the clause the draw follows (``md.turn.draw`` or
    ``md.turn.discard``).

    A draw that meets the end of the deck is told in parts: the last cards of the old deck
    (``emptied``), the reshuffle, then the rest from the new deck (``continued``; ``wanted`` is
    then what was still due). ``short``: fewer than wanted, and nothing more could be drawn.
    """

    kind: ClassVar[EventKind] = EventKind.DRAW
    count: int
    wanted: int
    colours: tuple[str, ...] | None
    rule: str
    continued: bool = False
    emptied: bool = False
    short: bool = False

    def seen_by(self, seat: int | None) -> Fact:
        if seat is None or seat == self.seat or self.colours is None:
            return self
        return replace(self, colours=None)


@dataclass(frozen=True, slots=True)
class Reshuffled(Fact):
    """The discard pile (``count`` cards) was shuffled into a new deck; ``number`` counts the
    reshuffles so far (1 for the first)."""

    kind: ClassVar[EventKind] = EventKind.RESHUFFLE
    count: int
    number: int


@dataclass(frozen=True, slots=True)
class Completed(Fact):
    """``seat`` completed Mandala ``mandala``. ``fields`` are the cards in each seat's Field of it,
    ``first`` the seat that chooses first, ``tie`` whether the Fields were equal, and ``last``
    whether this completion ends the game (the deck ran out before it)."""

    kind: ClassVar[EventKind] = EventKind.COMPLETE
    mandala: int
    fields: tuple[int, ...]
    first: int
    tie: bool
    last: bool


@dataclass(frozen=True, slots=True)
class Claimed(Fact):
    """``seat`` took the ``count`` ``colour`` cards of the completed Mandala's Mountain.
    ``river_space`` is the River space one of them went to (``None``: the colour was known, or
    the cards were discarded), ``to_cup`` how many went into the Cup, and ``discarded`` whether
    they went onto the discard pile (the seat's Field was empty)."""

    kind: ClassVar[EventKind] = EventKind.CLAIM
    mandala: int
    colour: str
    count: int
    river_space: int | None
    to_cup: int
    discarded: bool


@dataclass(frozen=True, slots=True)
class Cleared(Fact):
    """Both Fields of Mandala ``mandala`` (``count`` cards) went onto the discard pile."""

    kind: ClassVar[EventKind] = EventKind.CLEAR
    mandala: int
    count: int


@dataclass(frozen=True, slots=True)
class Refilled(Fact):
    """New face-up cards (``colours``) went into the Mountain of Mandala ``mandala``."""

    kind: ClassVar[EventKind] = EventKind.REFILL
    mandala: int
    colours: tuple[str, ...]
    continued: bool = False  # these come from a new deck, after a reshuffle


@dataclass(frozen=True, slots=True)
class Ended(Fact):
    """The game ended (``cause``): the totals, Cup sizes, winners and tie-break used, and each
    seat's Cup by colour (opened at the end)."""

    kind: ClassVar[EventKind] = EventKind.END
    cause: EndCause
    totals: tuple[int, ...]
    cup_sizes: tuple[int, ...]
    cups: tuple[Counts, ...]
    rivers: tuple[tuple[str, ...], ...]
    winners: tuple[int, ...]
    tie_break: TieBreak | None
