"""Actions: the small frozen values a player's decisions are made of.

Every action has a text form (``str(action)``) that :func:`parse_action` reads back,
so a match record is readable JSON: ``["predict 3", "play QS", "place 1 4", ...]``.
Which actions a game accepts, and when, is the game's business; this module only
knows their shapes. An action checks and canonicalises its fields when it is built, so
every action that exists reads back from its text (``parse_action(str(a)) == a``):
card text becomes the card (``Play("AS")`` holds the Ace of Spades), numbers must be
whole numbers (not ``True``, not ``2.0``), tuples have the right shape; anything else
raises :class:`~tricklab.errors.InvalidAction`. Whether a value is *allowed* (a
prediction of 7, a card the player does not hold) is for the rules to say on apply.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from .cards import COLOURS, Card, any_card
from .errors import InvalidAction, InvalidCard, TricklabError, describe

#: Numbers in actions are refused beyond this size: no game counts that far, and a
#: number this size still prints in a record.
NUMBER_LIMIT = 2**63

BID_SUITS = ("rock", "soul", "pops")


def _set(action: Action, name: str, value: object) -> None:
    object.__setattr__(action, name, value)


def _whole(action: str, name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(f"{action}: {name} must be a whole number, not {describe(value)}")
    if not -NUMBER_LIMIT < value < NUMBER_LIMIT:
        raise InvalidAction(f"{action}: {name} must be a whole number of a sensible size, not {describe(value)}")
    return int(value)


def _items(action: str, name: str, value: object, example: str) -> tuple[object, ...]:
    if not isinstance(value, (tuple, list)):
        raise InvalidAction(f"{action}: {name} must be a tuple like {example}, not {describe(value)}")
    return tuple(value)


def _card(action: str, value: object) -> Card:
    try:
        return any_card(value)
    except InvalidCard as exc:
        raise InvalidAction(f"{action}: {exc}") from None


#: every kind of action by its verb, in the order they were defined (:meth:`Action.__init_subclass__`)
VERBS: dict[str, type[Action]] = {}


@dataclass(frozen=True, slots=True)
class Action:
    """Base class of all actions. A kind of action says its ``verb`` (the first word of its text
    form) and reads the rest of its text (``_from_words``); each kind is known by its verb as
    soon as it is defined (:data:`VERBS`), so :func:`parse_action` reads every kind, a game's own
    included, with no list of them."""

    verb: ClassVar[str] = ""
    #: how the action is written (for the message that lists what actions look like)
    examples: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: object) -> None:
        super(Action, cls).__init_subclass__(**kwargs)  # (not super(): slots make the class anew)
        if isinstance(cls.verb, str) and cls.verb:  # (a verb a dataclass took for a field is no verb)
            VERBS[cls.verb] = cls  # (a dataclass with slots is made again: the last one is kept)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        """The action of the words after the verb (``args``; ``text`` is the whole text, for
        messages; ``card`` reads card notation for the game), or ``None`` when they are not this
        action's words. A value the action refuses raises its error."""
        return None

    def __post_init__(self) -> None:
        if type(self) is Action:
            raise InvalidAction("Action is the base class of the actions: make a Play, Predict, Bid, ... instead")

    def named_cards(self) -> tuple[Card, ...]:
        """The cards the action names (a game checks that they belong to its deck)."""
        return ()


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card to the current trick (a Card, or its text: ``Play("QS")``)."""

    card: Card
    verb: ClassVar[str] = "play"
    examples: ClassVar[tuple[str, ...]] = ("play QS",)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        return cls(card(args[0])) if len(args) == 1 else None

    def __post_init__(self) -> None:
        _set(self, "card", _card("Play", self.card))

    def named_cards(self) -> tuple[Card, ...]:
        return (self.card,)

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, slots=True)
class Predict(Action):
    """Tricks & Stones: the secret prediction (0-5) of tricks this round."""

    n: int
    verb: ClassVar[str] = "predict"
    examples: ClassVar[tuple[str, ...]] = ("predict 3",)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        return cls(_int(args[0], text)) if len(args) == 1 else None

    def __post_init__(self) -> None:
        _set(self, "n", _whole("Predict", "the prediction", self.n))

    def __str__(self) -> str:
        return f"predict {self.n}"


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Tricks & Stones: put gems from the own supply into these chambers (one gem each)."""

    chambers: tuple[int, ...]
    verb: ClassVar[str] = "place"
    examples: ClassVar[tuple[str, ...]] = ("place 1 4",)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        return cls(tuple(_int(a, text) for a in args))

    def __post_init__(self) -> None:
        chambers = _items("Place", "the chambers", self.chambers, "(1, 4)")
        _set(self, "chambers", tuple(_whole("Place", "a chamber", c) for c in chambers))

    def __str__(self) -> str:
        return "place" + "".join(f" {c}" for c in self.chambers)


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Tricks & Stones: move own gems, one chamber per step, steps applied in order."""

    steps: tuple[tuple[int, int], ...]
    verb: ClassVar[str] = "move"
    examples: ClassVar[tuple[str, ...]] = ("move 2>3",)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        steps = []
        for arg in args:
            a, sep, b = arg.partition(">")
            if not sep:
                raise InvalidAction(f"{describe(text)}: a move step is written FROM>TO, like 2>3")
            steps.append((_int(a, text), _int(b, text)))
        return cls(tuple(steps))

    def __post_init__(self) -> None:
        steps = []
        for step in _items("Move", "the steps", self.steps, "((2, 3),)"):
            pair = _items("Move", "a step", step, "(2, 3)")
            if len(pair) != 2:
                raise InvalidAction(f"Move: a step is a pair (from, to) like (2, 3), not {describe(step)}")
            steps.append((_whole("Move", "a chamber", pair[0]), _whole("Move", "a chamber", pair[1])))
        _set(self, "steps", tuple(steps))

    def __str__(self) -> str:
        return "move" + "".join(f" {a}>{b}" for a, b in self.steps)


@dataclass(frozen=True, slots=True)
class Skip(Action):
    """Use none of the points or choices on offer."""

    verb: ClassVar[str] = "skip"
    examples: ClassVar[tuple[str, ...]] = ("skip",)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        return None if args else cls()

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Band of Tricks: a public bid per suit (0-6 each), or Zero Success when ``zero``.

    Zero Success has no numbers; a zero bid built with numbers anyway is written
    ``bid zero 1 0 0`` so that it reads back as itself, and the rules refuse it.
    """

    rock: int = 0
    soul: int = 0
    pops: int = 0
    zero: bool = False
    verb: ClassVar[str] = "bid"
    examples: ClassVar[tuple[str, ...]] = ("bid 1 3 0", "bid zero")

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        if args and args[0].lower() == "zero" and len(args) in (1, 4):
            rock, soul, pops = (_int(a, text) for a in args[1:]) if len(args) == 4 else (0, 0, 0)
            return cls(rock, soul, pops, zero=True)
        if len(args) == 3:
            rock, soul, pops = (_int(a, text) for a in args)
            return cls(rock, soul, pops)
        return None

    def __post_init__(self) -> None:
        for suit in BID_SUITS:
            _set(self, suit, _whole("Bid", suit, getattr(self, suit)))
        if not isinstance(self.zero, bool):
            raise InvalidAction(f"Bid: zero must be True or False, not {describe(self.zero)}")

    def __str__(self) -> str:
        numbers = f"{self.rock} {self.soul} {self.pops}"
        if self.zero:
            return "bid zero" if numbers == "0 0 0" else f"bid zero {numbers}"
        return f"bid {numbers}"

    @classmethod
    def zero_success(cls) -> Bid:
        return cls(zero=True)

    def as_dict(self) -> dict[str, int]:
        return {suit: int(getattr(self, suit)) for suit in BID_SUITS}

    @classmethod
    def of(cls, numbers: Mapping[str, int]) -> Bid:
        """The bid of ``numbers`` per suit (a suit not given: 0), as a widget builds it up."""
        if not isinstance(numbers, Mapping):
            raise InvalidAction(f"Bid: the numbers are a number per suit, like {{'rock': 1}}, not {describe(numbers)}")
        unknown = [key for key in numbers if key not in BID_SUITS]
        if unknown:
            raise InvalidAction(f"Bid: the suits bid on are {', '.join(BID_SUITS)}, not {describe(unknown[0])}")
        rock, soul, pops = (numbers.get(suit, 0) for suit in BID_SUITS)
        return cls(rock, soul, pops)


@dataclass(frozen=True, slots=True)
class AssignMetal(Action):
    """Band of Tricks: count a trick won with Metal for ``suit`` (rock, soul or pops)."""

    suit: str
    verb: ClassVar[str] = "count"
    examples: ClassVar[tuple[str, ...]] = ("count rock",)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        return cls(args[0]) if len(args) == 1 else None

    def __post_init__(self) -> None:
        key = self.suit.strip().lower() if isinstance(self.suit, str) else None
        if key not in BID_SUITS:
            raise InvalidAction(
                f"AssignMetal: a Metal win counts for rock, soul or pops, not {describe(self.suit)}",
                rule_id="bt.metal.assign",
            )
        _set(self, "suit", key)

    def __str__(self) -> str:
        return f"count {self.suit}"


@dataclass(frozen=True, slots=True)
class Announce(Action):
    """Jewel Vault: the dealer names how many cards everyone passes (1-3)."""

    n: int
    verb: ClassVar[str] = "announce"
    examples: ClassVar[tuple[str, ...]] = ("announce 2",)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        return cls(_int(args[0], text)) if len(args) == 1 else None

    def __post_init__(self) -> None:
        _set(self, "n", _whole("Announce", "the number of cards", self.n))

    def __str__(self) -> str:
        return f"announce {self.n}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Jewel Vault: the cards this player passes on (Cards, or their text)."""

    cards: tuple[Card, ...]
    verb: ClassVar[str] = "pass"
    examples: ClassVar[tuple[str, ...]] = ("pass 2H 3S",)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        return cls(tuple(card(a) for a in args))

    def __post_init__(self) -> None:
        cards = _items("Pass", "the cards", self.cards, "('2H', '3S')")
        _set(self, "cards", tuple(_card("Pass", c) for c in cards))

    def named_cards(self) -> tuple[Card, ...]:
        return self.cards

    def __str__(self) -> str:
        return "pass" + "".join(f" {c}" for c in self.cards)


@dataclass(frozen=True, slots=True)
class Steal(Action):
    """Jewel Vault: the ♣ action's target seat."""

    target: int
    verb: ClassVar[str] = "steal"
    examples: ClassVar[tuple[str, ...]] = ("steal 1",)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        return cls(_int(args[0], text)) if len(args) == 1 else None

    def __post_init__(self) -> None:
        _set(self, "target", _whole("Steal", "the target seat", self.target))

    def __str__(self) -> str:
        return f"steal {self.target}"


@dataclass(frozen=True, slots=True)
class Sow(Action):
    """Kalah: sow the stones of the mover's pit ``pit`` (1-6, counted in the sowing direction:
    1 is the pit furthest from the mover's store, 6 the one next to it)."""

    pit: int
    verb: ClassVar[str] = "sow"
    examples: ClassVar[tuple[str, ...]] = ("sow 3",)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        if len(args) != 1:
            return None
        if _WHOLE.fullmatch(args[0]) is None:
            raise InvalidAction(
                f"{describe(text)}: the pit to sow is a whole number from 1 to 6, not {describe(args[0])}",
                rule_id="mk.sow",
            )
        return cls(int(args[0]))

    def __post_init__(self) -> None:
        if isinstance(self.pit, bool) or not isinstance(self.pit, int):
            raise InvalidAction(
                f"Sow: the pit must be a whole number from 1 to 6, not {describe(self.pit)}", rule_id="mk.sow"
            )
        _set(self, "pit", _whole("Sow", "the pit", self.pit))

    def __str__(self) -> str:
        return f"sow {self.pit}"


def _colour(action: str, value: object) -> str:
    key = value.strip().lower() if isinstance(value, str) else None
    if key not in COLOURS:
        raise InvalidAction(f"{action}: the colour must be one of {', '.join(COLOURS)}, not {describe(value)}")
    return key


@dataclass(frozen=True, slots=True)
class ToMountain(Action):
    """Mandala: put one card of ``colour`` into the Mountain of Mandala ``mandala`` (1 or 2),
    then draw up to three cards. Text: ``mountain 1 red``."""

    mandala: int
    colour: str
    verb: ClassVar[str] = "mountain"
    examples: ClassVar[tuple[str, ...]] = ("mountain 1 red",)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        return cls(_int(args[0], text), args[1]) if len(args) == 2 else None

    def __post_init__(self) -> None:
        _set(self, "mandala", _whole("ToMountain", "the Mandala", self.mandala))
        _set(self, "colour", _colour("ToMountain", self.colour))

    def __str__(self) -> str:
        return f"mountain {self.mandala} {self.colour}"


@dataclass(frozen=True, slots=True)
class ToField(Action):
    """Mandala: put ``count`` cards of ``colour`` into the own Field of Mandala ``mandala``
    (1 or 2); no draw. Text: ``field 2 blue 3``."""

    mandala: int
    colour: str
    count: int
    verb: ClassVar[str] = "field"
    examples: ClassVar[tuple[str, ...]] = ("field 2 blue 3",)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        return cls(_int(args[0], text), args[1], _int(args[2], text)) if len(args) == 3 else None

    def __post_init__(self) -> None:
        _set(self, "mandala", _whole("ToField", "the Mandala", self.mandala))
        _set(self, "colour", _colour("ToField", self.colour))
        _set(self, "count", _whole("ToField", "the number of cards", self.count))

    def __str__(self) -> str:
        return f"field {self.mandala} {self.colour} {self.count}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Mandala: discard ``count`` cards of ``colour`` and draw as many. Text: ``discard green 2``."""

    colour: str
    count: int
    verb: ClassVar[str] = "discard"
    examples: ClassVar[tuple[str, ...]] = ("discard green 2",)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        return cls(args[0], _int(args[1], text)) if len(args) == 2 else None

    def __post_init__(self) -> None:
        _set(self, "colour", _colour("Discard", self.colour))
        _set(self, "count", _whole("Discard", "the number of cards", self.count))

    def __str__(self) -> str:
        return f"discard {self.colour} {self.count}"


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """Mandala: take every card of ``colour`` from the Mountain of the completed Mandala.
    Text: ``claim red``."""

    colour: str
    verb: ClassVar[str] = "claim"
    examples: ClassVar[tuple[str, ...]] = ("claim red",)

    @classmethod
    def _from_words(cls, args: list[str], text: str, card: Callable[[str], Card]) -> Action | None:
        return cls(args[0]) if len(args) == 1 else None

    def __post_init__(self) -> None:
        _set(self, "colour", _colour("Claim", self.colour))

    def __str__(self) -> str:
        return f"claim {self.colour}"


_WHOLE = re.compile(r"-?[0-9]{1,19}")


def _int(word: str, text: str) -> int:
    if _WHOLE.fullmatch(word) is None:
        raise InvalidAction(f"{describe(text)}: {describe(word)} is not a whole number of a sensible size")
    return int(word)


def parse_action(text: str | Action, card: Callable[[str], Card]) -> Action:
    """Read an action's text form back; ``card`` parses card notation for the game."""
    if isinstance(text, Action):
        return text
    if not isinstance(text, str) or not text.strip():
        raise InvalidAction(f"an action must be text like 'play QS', not {describe(text)}")
    verb, *args = text.split()
    kind = VERBS.get(verb.lower())
    try:
        found = kind._from_words(args, text, card) if kind is not None else None
        if found is not None:
            return found
    except InvalidAction:
        raise
    except TricklabError as exc:
        raise InvalidAction(f"{describe(text)}: {exc}") from None
    shown = [f"'{example}'" for cls in VERBS.values() for example in cls.examples]
    raise InvalidAction(f"{describe(text)} is not an action; actions look like {', '.join(shown[:-1])} or {shown[-1]}")
