"""What Hearts' rules do, as data: the card ids, the points of the cards, the ranking of a trick,
and the facts a hand's steps record for the narrator (:mod:`.narrate`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..base import EventKind
from ..core import ACE_HIGH, ACE_HIGH_IDS, Fact
from .rulebook import JACK_POINTS, QUEEN_POINTS

RANKS = ACE_HIGH  # low to high: the Ace is high
STRENGTHS = len(RANKS)
IDS = ACE_HIGH_IDS  # card id = suit * 13 + strength
SUIT_OF = tuple(c // STRENGTHS for c in range(len(IDS)))
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
TWO_OF_CLUBS = CLUBS * STRENGTHS
QUEEN_OF_SPADES = SPADES * STRENGTHS + RANKS.index(12)
JACK_OF_DIAMONDS = DIAMONDS * STRENGTHS + RANKS.index(11)
HEART_MASK = IDS.suit_mask[HEARTS]
POINT_CARDS = HEART_MASK | 1 << QUEEN_OF_SPADES  # the cards a moon shot takes, all 26 points


def points_of(taken: int, jack: bool) -> int:
    """The points of the cards in ``taken`` (a mask): 1 a heart, 13 the Queen of spades, and with
    the variant ``jack`` 10 off for the Jack of diamonds (``ht.score``)."""
    points = (taken & HEART_MASK).bit_count() + QUEEN_POINTS * (taken >> QUEEN_OF_SPADES & 1)
    if jack and taken >> JACK_OF_DIAMONDS & 1:
        points += JACK_POINTS
    return points


#: VALUE[led][card]: the card's place in a trick led in suit ``led`` (``ht.trick``): a card of the
#: led suit by its rank, any other 0 (it cannot take the trick); the highest takes it
VALUE = tuple(tuple(1 + c % STRENGTHS if SUIT_OF[c] == led else 0 for c in range(len(IDS))) for led in range(4))


def ranking(ids: tuple[int, ...]) -> tuple[int, ...]:
    """The play-order indices of the trick ``ids``, first place to last: the led suit from high to
    low, then the cards that cannot take it in play order (``ht.trick``)."""
    value = VALUE[SUIT_OF[ids[0]]]
    return tuple(sorted(range(len(ids)), key=lambda i: (-value[ids[i]], i)))


def winning_index(ids: tuple[int, ...]) -> int:
    """The play-order index of the card that takes (or is taking) the trick ``ids``."""
    value = VALUE[SUIT_OF[ids[0]]]
    best = 0
    for i in range(1, len(ids)):
        if value[ids[i]] > value[ids[best]]:
            best = i
    return best


@dataclass(frozen=True, slots=True)
class Dealt(Fact):
    """Hand ``round`` was dealt by ``seat``; the cards go ``direction`` (``None``: kept)."""

    kind: ClassVar[EventKind] = EventKind.DEAL
    round: int
    direction: int | None  # how many seats on the cards go: 1 left, 3 right, 2 across


@dataclass(frozen=True, slots=True)
class PassChosen(Fact):
    """``seat`` chose the cards ``cards`` (a mask) to pass; another seat sees only that it chose."""

    kind: ClassVar[EventKind] = EventKind.PASS
    cards: int | None

    def seen_by(self, seat: int | None) -> Fact:
        return self if seat is None or seat == self.seat else PassChosen(self.seat, None)


@dataclass(frozen=True, slots=True)
class PassesExchanged(Fact):
    """Every pass changed hands: ``passes[s]`` went from seat ``s`` to seat ``s + direction``;
    a seat sees only the cards it got (those it gave are in another hand now)."""

    kind: ClassVar[EventKind] = EventKind.EXCHANGE
    passes: tuple[int, ...]
    direction: int

    def seen_by(self, seat: int | None) -> Fact:
        if seat is None:
            return self
        n = len(self.passes)
        giver = (seat - self.direction) % n  # the cards it got are in its hand now; the ones it gave are not
        shown = tuple(p if s == giver else 0 for s, p in enumerate(self.passes))
        return PassesExchanged(None, shown, self.direction)


@dataclass(frozen=True, slots=True)
class CardPlayed(Fact):
    """``seat`` played ``card``; ``trick`` is the trick with it (card ids in play order);
    ``broke`` says that it broke hearts."""

    kind: ClassVar[EventKind] = EventKind.PLAY
    card: int
    trick: tuple[int, ...]
    broke: bool


@dataclass(frozen=True, slots=True)
class TrickTaken(Fact):
    """Trick ``number`` of the hand is complete; ``seat`` took it, with ``points``."""

    kind: ClassVar[EventKind] = EventKind.TRICK
    number: int
    leader: int
    cards: tuple[int, ...]
    ranking: tuple[int, ...]
    points: int


@dataclass(frozen=True, slots=True)
class HandScored(Fact):
    """The hand was scored: ``taken[s]`` the points of seat ``s``'s cards, ``scores`` what each
    scores for the hand, ``moon`` the seat that shot the moon (``None``: nobody)."""

    kind: ClassVar[EventKind] = EventKind.SCORE
    taken: tuple[int, ...]
    scores: tuple[int, ...]
    moon: int | None


@dataclass(frozen=True, slots=True)
class MatchEnded(Fact):
    """A total reached the target at the end of a hand: the match is over."""

    kind: ClassVar[EventKind] = EventKind.END
