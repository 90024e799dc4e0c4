"""Cards of the two card families tricklab knows.

* :class:`FrenchCard` -- the ordinary deck (Tricks & Stones, Jewel Vault). ``rank`` is the
  face value with Ace = 1, Jack = 11, Queen = 12, King = 13; each game decides whether the
  Ace is high or low. Notation: rank then suit letter, ``7S``, ``10H``, ``JD``, ``AS``;
  ``T`` for ten and the symbols ♠♥♦♣ are accepted on input.
* :class:`BandCard` -- Band of Tricks: suit letter then number, ``R13``, ``S5``, ``P3``, ``M10``.
* :class:`ColourCard` -- Mandala: a colour and the card's copy number (1-18), ``red3``,
  ``blue18``. The copies of a colour play alike; the number only tells them apart.

Cards are small immutable values, interned: a card parsed twice is the same object.
Each game's ``Rules.card`` checks that a card belongs to its deck.
"""

from __future__ import annotations

import re
from typing import ClassVar, Self

from .errors import InvalidCard, describe

FRENCH_SUITS = ("S", "H", "D", "C")
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAME = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
SUIT_SINGULAR = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
_SYMBOL_SUIT = {v: k for k, v in SUIT_SYMBOL.items()}
_RANK_LETTER = {1: "A", 11: "J", 12: "Q", 13: "K"}
_LETTER_RANK = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
RANK_NAME = {
    1: "Ace",
    2: "Two",
    3: "Three",
    4: "Four",
    5: "Five",
    6: "Six",
    7: "Seven",
    8: "Eight",
    9: "Nine",
    10: "Ten",
    11: "Jack",
    12: "Queen",
    13: "King",
}

BAND_SUITS = ("R", "S", "P", "M")
BAND_SUIT_NAME = {"R": "Rock", "S": "Soul", "P": "Pops", "M": "Metal"}
BAND_SUIT_KEY = {"R": "rock", "S": "soul", "P": "pops", "M": "metal"}

COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")  # Mandala's six colours, in this order
COLOUR_COPIES = 18  # Mandala: cards of each colour


class Card:
    """Common base of the card families; use :class:`FrenchCard` or :class:`BandCard`.

    Cards are interned flyweights: ``FrenchCard("H", 12)`` always returns the same
    object, so equality and hashing are identity (fast, and exact), and a card is
    immutable. Pickling and copying keep the identity.
    """

    __slots__ = ("rank", "suit")
    suit: str
    rank: int
    _interned: ClassVar[dict[tuple[type[Card], str, int], Card]] = {}

    def __new__(cls, suit: str, rank: int) -> Self:
        if type(suit) is not str or type(rank) is not int:
            raise InvalidCard(
                f"a card is made of a suit letter and a whole number, not {describe(suit)} and {describe(rank)}"
            )
        key = (cls, suit, rank)
        card = Card._interned.get(key)
        if card is None:
            cls._check(suit, rank)
            card = object.__new__(cls)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "rank", rank)
            Card._interned[key] = card
        return card  # type: ignore[return-value]

    @classmethod
    def _check(cls, suit: str, rank: int) -> None:
        """Raise :class:`InvalidCard` unless ``suit`` and ``rank`` make a card of this family."""
        raise InvalidCard("Card is the common base of the card families: make a FrenchCard or a BandCard")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cards are immutable: cannot set {name}")

    def __reduce__(self) -> tuple[type[Card], tuple[str, int]]:
        return (type(self), (self.suit, self.rank))

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: object) -> Self:
        return self

    def _repr_html_(self) -> str:
        from .display import card_html, wrap

        return wrap(card_html(self), label=self.name)

    @property
    def name(self) -> str:
        """A spoken name, e.g. ``"Queen of Hearts"`` or ``"Rock 13"`` (used for ARIA labels)."""
        raise NotImplementedError

    @property
    def suit_name(self) -> str:
        raise NotImplementedError

    @property
    def symbol(self) -> str:
        """The suit's symbol or letter as drawn on the card."""
        raise NotImplementedError

    @property
    def pretty(self) -> str:
        """The card for prose: ``"Q♥"`` for French cards, ``"R13"`` for Band of Tricks."""
        raise NotImplementedError


class FrenchCard(Card):
    __slots__ = ()

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(r"^(10|[2-9TJQKA])([SHDC♠♥♦♣])$")

    @classmethod
    def _check(cls, suit: str, rank: int) -> None:
        if suit not in FRENCH_SUITS or not 1 <= rank <= 13:
            raise InvalidCard(
                f"a French card has a suit S, H, D or C and a rank from 1 (Ace) to 13 (King), "
                f"not {describe(suit)} and {describe(rank)}"
            )

    def __str__(self) -> str:
        return f"{_RANK_LETTER.get(self.rank, str(self.rank))}{self.suit}"

    def __repr__(self) -> str:
        return f"FrenchCard('{self}')"

    @property
    def pretty(self) -> str:
        """``"Q♥"``: the rank with the suit symbol."""
        return f"{_RANK_LETTER.get(self.rank, str(self.rank))}{SUIT_SYMBOL[self.suit]}"

    @property
    def name(self) -> str:
        return f"{RANK_NAME[self.rank]} of {SUIT_NAME[self.suit]}"

    @property
    def suit_name(self) -> str:
        return SUIT_NAME[self.suit]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOL[self.suit]

    @classmethod
    def parse(cls, text: str) -> FrenchCard:
        """Parse ``"QH"``, ``"10h"``, ``"T♥"``...; checks the notation only, not a deck."""
        if not isinstance(text, str):
            raise InvalidCard(f"a card must be given as text like 'QH', not {describe(text)}")
        match = cls._PATTERN.match(text.strip().upper())
        if match is None:
            raise InvalidCard(
                f"{describe(text)} is not a card: write the rank then the suit letter, "
                "for example 7S, 10H, JD, QC, KH or AS"
            )
        rank_text, suit_text = match.groups()
        rank = _LETTER_RANK.get(rank_text) or int(rank_text)
        return cls(_SYMBOL_SUIT.get(suit_text, suit_text), rank)


class BandCard(Card):
    __slots__ = ()

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(r"^([RSPM])(\d{1,2})$")

    @classmethod
    def _check(cls, suit: str, rank: int) -> None:
        if suit not in BAND_SUITS or not 0 <= rank <= 99:
            raise InvalidCard(
                f"a Band of Tricks card has a suit R, S, P or M and a number from 0 to 99, "
                f"not {describe(suit)} and {describe(rank)}"
            )

    def __str__(self) -> str:
        return f"{self.suit}{self.rank}"

    def __repr__(self) -> str:
        return f"BandCard('{self}')"

    @property
    def pretty(self) -> str:
        return str(self)

    @property
    def name(self) -> str:
        return f"{BAND_SUIT_NAME[self.suit]} {self.rank}"

    @property
    def suit_name(self) -> str:
        return BAND_SUIT_NAME[self.suit]

    @property
    def symbol(self) -> str:
        return self.suit

    @classmethod
    def parse(cls, text: str) -> BandCard:
        """Parse ``"R13"``, ``"s5"``...; checks the notation only, not a deck."""
        if not isinstance(text, str):
            raise InvalidCard(f"a card must be given as text like 'R13', not {describe(text)}")
        match = cls._PATTERN.match(text.strip().upper())
        if match is None:
            raise InvalidCard(
                f"{describe(text)} is not a Band of Tricks card: write the suit letter "
                "(R Rock, S Soul, P Pops, M Metal) then the number, for example R13 or M10"
            )
        return cls(match.group(1), int(match.group(2)))


class ColourCard(Card):
    """A Mandala card: ``suit`` is its colour (``"red"``) and ``rank`` its copy number, 1 to 18."""

    __slots__ = ()

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(r"^([a-z]+)(\d{1,2})$")

    @classmethod
    def _check(cls, suit: str, rank: int) -> None:
        if suit not in COLOURS or not 1 <= rank <= COLOUR_COPIES:
            raise InvalidCard(
                f"a Mandala card has a colour ({', '.join(COLOURS)}) and a copy number from 1 to "
                f"{COLOUR_COPIES}, not {describe(suit)} and {describe(rank)}"
            )

    def __str__(self) -> str:
        return f"{self.suit}{self.rank}"

    def __repr__(self) -> str:
        return f"ColourCard('{self}')"

    @property
    def pretty(self) -> str:
        """The colour alone: the copies of a colour play alike."""
        return self.suit

    @property
    def name(self) -> str:
        return f"{self.suit.capitalize()} card {self.rank}"

    @property
    def suit_name(self) -> str:
        return self.suit.capitalize()

    @property
    def symbol(self) -> str:
        return self.suit[0].upper()

    @classmethod
    def parse(cls, text: str) -> ColourCard:
        """Parse ``"red3"``, ``"Blue18"``...; checks the notation only, not a deck."""
        if not isinstance(text, str):
            raise InvalidCard(f"a card must be given as text like 'red3', not {describe(text)}")
        match = cls._PATTERN.match(text.strip().lower())
        if match is None or match.group(1) not in COLOURS:
            raise InvalidCard(
                f"{describe(text)} is not a Mandala card: write the colour ({', '.join(COLOURS)}) "
                "then the copy number, for example red3 or blue18"
            )
        return cls(match.group(1), int(match.group(2)))


def any_card(value: object) -> Card:
    """A card of either family from its text (``"AS"``, ``"10H"``, ``"R13"``), or a card as it is.

    No text is a card of both families (French cards are rank then suit, Band of Tricks cards
    suit then number), so the text decides the family. Deck membership is the game's to check.
    """
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        for family in (FrenchCard, BandCard, ColourCard):
            try:
                return family.parse(value)
            except InvalidCard:
                pass
    raise InvalidCard(
        f"{describe(value)} is not a card: write a card like AS, 10H or QC (rank then suit), "
        "or like R13 or M10 in Band of Tricks (suit then number)"
    )


class Deck:
    """A game's deck: an ordered tuple of cards with fast parsing and membership.

    Parsing goes through a table of every accepted spelling, so a known card costs one
    dictionary look-up; anything else falls back to the family's parser for the message.
    """

    __slots__ = ("_by_text", "card_type", "cards", "game")

    def __init__(
        self, game: str, card_type: type[FrenchCard] | type[BandCard] | type[ColourCard], cards: tuple[Card, ...]
    ):
        self.game = game
        self.card_type = card_type
        self.cards = cards
        self._by_text: dict[object, Card] = {}
        for card in cards:
            self._by_text[card] = card
            self._by_text[str(card)] = card
            self._by_text[str(card).lower()] = card
            if isinstance(card, FrenchCard):
                self._by_text[card.pretty] = card
                if card.rank == 10:
                    self._by_text["T" + card.suit] = card

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and card in self._by_text

    def card(self, value: str | Card) -> Card:
        """The deck's card for ``value`` (text or card); :class:`InvalidCard` otherwise."""
        try:
            found = self._by_text.get(value)
        except TypeError:
            found = None
        if found is not None:
            return found
        if isinstance(value, Card):
            raise InvalidCard(f"{value} is not a card of {self.game}")
        parsed = self.card_type.parse(value)  # raises on bad notation
        if parsed in self._by_text:
            return self._by_text[parsed]
        raise InvalidCard(f"{describe(value)} is not a card of {self.game}: its deck has no {parsed}")


def rank_word(card: Card) -> str:
    """A card's rank with its article, as a sentence says it: "an Ace", "a 9", "a Queen"."""
    return {1: "an Ace", 8: "an 8", 11: "a Jack", 12: "a Queen", 13: "a King"}.get(card.rank, f"a {card.rank}")


def suit_words(suit: str) -> str:
    """A French suit as a sentence says it: "hearts ♥"."""
    return f"{SUIT_NAME[suit].lower()} {SUIT_SYMBOL[suit]}"
