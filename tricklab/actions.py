"""Actions: the small frozen values a player's decisions are made of.

Every action has a text form (``str(action)``) that :func:`parse_action` reads back,
so a match record is readable JSON: ``["predict 3", "play QS", "place 1 4", ...]``.
Which actions a game accepts, and when, is the game's business; this module only
knows their shapes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from .cards import Card
from .errors import InvalidAction, TricklabError


@dataclass(frozen=True, slots=True)
class Action:
    """Base class of all actions."""

    verb: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card to the current trick."""

    card: Card
    verb: ClassVar[str] = "play"

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, slots=True)
class Predict(Action):
    """Tricks & Stones: the secret prediction (0-5) of tricks this round."""

    n: int
    verb: ClassVar[str] = "predict"

    def __str__(self) -> str:
        return f"predict {self.n}"


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Tricks & Stones: put gems from the own supply into these chambers (one gem each)."""

    chambers: tuple[int, ...]
    verb: ClassVar[str] = "place"

    def __str__(self) -> str:
        return "place " + " ".join(str(c) for c in self.chambers)


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Tricks & Stones: move own gems, one chamber per step, steps applied in order."""

    steps: tuple[tuple[int, int], ...]
    verb: ClassVar[str] = "move"

    def __str__(self) -> str:
        return "move " + " ".join(f"{a}>{b}" for a, b in self.steps)


@dataclass(frozen=True, slots=True)
class Skip(Action):
    """Use none of the points or choices on offer."""

    verb: ClassVar[str] = "skip"

    def __str__(self) -> str:
        return "skip"


BID_SUITS = ("rock", "soul", "pops")


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Band of Tricks: a public bid per suit (0-6 each), or Zero Success when ``zero``."""

    rock: int = 0
    soul: int = 0
    pops: int = 0
    zero: bool = False
    verb: ClassVar[str] = "bid"

    def __str__(self) -> str:
        if self.zero:
            return "bid zero"
        return f"bid {self.rock} {self.soul} {self.pops}"

    @classmethod
    def zero_success(cls) -> Bid:
        return cls(zero=True)

    def as_dict(self) -> dict[str, int]:
        return {"rock": self.rock, "soul": self.soul, "pops": self.pops}


@dataclass(frozen=True, slots=True)
class AssignMetal(Action):
    """Band of Tricks: count a trick won with Metal for ``suit`` (rock, soul or pops)."""

    suit: str
    verb: ClassVar[str] = "count"

    def __str__(self) -> str:
        return f"count {self.suit}"


@dataclass(frozen=True, slots=True)
class Announce(Action):
    """Jewel Vault: the dealer names how many cards everyone passes (1-3)."""

    n: int
    verb: ClassVar[str] = "announce"

    def __str__(self) -> str:
        return f"announce {self.n}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Jewel Vault: the cards this player passes on."""

    cards: tuple[Card, ...]
    verb: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass " + " ".join(str(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class Steal(Action):
    """Jewel Vault: the ♣ action's target seat."""

    target: int
    verb: ClassVar[str] = "steal"

    def __str__(self) -> str:
        return f"steal {self.target}"


def _int(word: str, text: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise InvalidAction(f"{text!r}: {word!r} is not a whole number") from None


def parse_action(text: str | Action, card: Callable[[str], Card]) -> Action:
    """Read an action's text form back; ``card`` parses card notation for the game."""
    if isinstance(text, Action):
        return text
    if not isinstance(text, str) or not text.strip():
        raise InvalidAction(f"an action must be text like 'play QS', not {text!r}")
    verb, *args = text.split()
    verb = verb.lower()
    try:
        if verb == "play" and len(args) == 1:
            return Play(card(args[0]))
        if verb == "predict" and len(args) == 1:
            return Predict(_int(args[0], text))
        if verb == "place" and args:
            return Place(tuple(_int(a, text) for a in args))
        if verb == "move" and args:
            steps = []
            for arg in args:
                a, sep, b = arg.partition(">")
                if not sep:
                    raise InvalidAction(f"{text!r}: a move step is written FROM>TO, like 2>3")
                steps.append((_int(a, text), _int(b, text)))
            return Move(tuple(steps))
        if verb == "skip" and not args:
            return Skip()
        if verb == "bid" and args == ["zero"]:
            return Bid(zero=True)
        if verb == "bid" and len(args) == 3:
            rock, soul, pops = (_int(a, text) for a in args)
            return Bid(rock, soul, pops)
        if verb == "count" and len(args) == 1:
            return AssignMetal(args[0].lower())
        if verb == "announce" and len(args) == 1:
            return Announce(_int(args[0], text))
        if verb == "pass" and args:
            return Pass(tuple(card(a) for a in args))
        if verb == "steal" and len(args) == 1:
            return Steal(_int(args[0], text))
    except InvalidAction:
        raise
    except TricklabError as exc:
        raise InvalidAction(f"{text!r}: {exc}") from None
    raise InvalidAction(
        f"{text!r} is not an action; actions look like 'play QS', 'predict 3', 'place 1 4', "
        "'move 2>3', 'skip', 'bid 1 3 0', 'bid zero', 'count rock', 'announce 2', "
        "'pass 2H 3S' or 'steal 1'"
    )
