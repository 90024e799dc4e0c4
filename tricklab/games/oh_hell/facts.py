"""What Oh Hell's rules do, as data: the card ids, the ranking of a trick, and the facts a deal's
steps record for the narrator (:mod:`.narrate`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...cards import FRENCH_SUITS
from ..base import EventKind
from ..core import ACE_HIGH, ACE_HIGH_IDS, Fact

RANKS = ACE_HIGH  # low to high: the Ace is high
STRENGTHS = len(RANKS)
IDS = ACE_HIGH_IDS  # card id = suit * 13 + strength
SUIT_OF = tuple(c // STRENGTHS for c in range(len(IDS)))
SUIT_INDEX = {suit: i for i, suit in enumerate(FRENCH_SUITS)}
NO_TRUMP = 4  # the trump index of a trick ranked without trump (the trick explainer may ask for one)


def _value(card: int, led: int, trump: int) -> int:
    """How strongly ``card`` stands in a trick led in suit ``led`` (``oh.trick``): a trump above
    the led suit, each by rank; any other card 0 (it cannot take the trick)."""
    suit, strength = SUIT_OF[card], card % STRENGTHS
    if suit == trump:
        return 40 + strength
    if suit == led:
        return 20 + strength
    return 0


#: VALUE[trump][led][card]: the card's place in a trick (``oh.trick``); the highest takes it
VALUE = tuple(tuple(tuple(_value(c, led, t) for c in range(len(IDS))) for led in range(4)) for t in range(5))


def ranking(ids: tuple[int, ...], trump: int) -> tuple[int, ...]:
    """The play-order indices of the trick ``ids``, first place to last: the trumps, then the led
    suit, each from high to low, then the cards that cannot take it in play order (``oh.trick``).
    Only the first place matters to the rules."""
    value = VALUE[trump][SUIT_OF[ids[0]]]
    return tuple(sorted(range(len(ids)), key=lambda i: (-value[ids[i]], i)))


def winning_index(ids: tuple[int, ...], trump: int) -> int:
    """The play-order index of the card that takes (or is taking) the trick ``ids``."""
    value = VALUE[trump][SUIT_OF[ids[0]]]
    best = 0
    for i in range(1, len(ids)):
        if value[ids[i]] > value[ids[best]]:
            best = i
    return best


@dataclass(frozen=True, slots=True)
class Dealt(Fact):
    """A deal's cards were dealt by ``seat`` and ``turned`` was turned up (its suit is trump)."""

    kind: ClassVar[EventKind] = EventKind.DEAL
    round: int
    size: int  # cards each
    turned: int


@dataclass(frozen=True, slots=True)
class BidMade(Fact):
    """``seat`` bid ``n`` tricks aloud (everyone hears it); ``forbidden`` is the bid the dealer's
    hook kept it from (``None``: no bid was kept back)."""

    kind: ClassVar[EventKind] = EventKind.PREDICT
    n: int
    forbidden: int | None


@dataclass(frozen=True, slots=True)
class CardPlayed(Fact):
    """``seat`` played ``card``; ``trick`` is the trick with it (card ids in play order)."""

    kind: ClassVar[EventKind] = EventKind.PLAY
    card: int
    trick: tuple[int, ...]
    trump: int


@dataclass(frozen=True, slots=True)
class TrickTaken(Fact):
    """Trick ``number`` of the deal is complete; ``seat`` took it."""

    kind: ClassVar[EventKind] = EventKind.TRICK
    number: int
    leader: int
    cards: tuple[int, ...]
    ranking: tuple[int, ...]
    trump: int


@dataclass(frozen=True, slots=True)
class DealScored(Fact):
    """The deal was scored from its bids and tricks."""

    kind: ClassVar[EventKind] = EventKind.SCORE
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchEnded(Fact):
    """The last deal was scored: the match is over."""

    kind: ClassVar[EventKind] = EventKind.END
