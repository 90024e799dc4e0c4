"""Typed errors. Every error a learner can cause names the value or the rule at fault.

All of them derive from :class:`TricklabError`, which is a :class:`ValueError`, so
``except ValueError`` keeps working for code that does not care about the details.
"""

from __future__ import annotations

import builtins
import math
import reprlib

#: How much of a value an error message quotes: longer text is cut to this many characters,
#: a whole number with more digits is described by its length.
QUOTE_LIMIT = 40


def describe(value: object) -> str:
    """A value as error messages quote it: short, and never failing.

    Small values read as their ``repr`` (``'QS'``, ``2.0``, ``True``); a whole number of more
    than 40 digits is "a 5,001-digit number"; text longer than 40 characters is its first 40
    characters, "…" and its length; containers show their first few items and two levels of
    nesting; other objects their ``repr``, shortened.
    """
    return _DESCRIBER.repr(value)


def _digits(n: int) -> int:
    n = abs(n)
    if n < 10**QUOTE_LIMIT:
        return len(str(n))
    digits = int(math.log10(n)) + 1  # a float estimate, corrected below near powers of ten
    while digits > 1 and 10 ** (digits - 1) > n:
        digits -= 1
    while 10**digits <= n:
        digits += 1
    return digits


class _Describer(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 2
        self.maxtuple = self.maxlist = self.maxarray = self.maxdeque = 6
        self.maxdict = self.maxset = self.maxfrozenset = 6
        self.maxother = 60

    def repr_int(self, x: int, level: int) -> str:
        digits = _digits(x)
        if digits > QUOTE_LIMIT:
            return f"a {digits:,}-digit {'negative ' if x < 0 else ''}number"
        return builtins.repr(x)

    def repr_str(self, x: str, level: int) -> str:
        if len(x) <= QUOTE_LIMIT:
            return builtins.repr(x)
        quoted = builtins.repr(x[:QUOTE_LIMIT])
        return f"{quoted[:-1]}…{quoted[-1]} ({len(x):,} characters)"

    def repr_bytes(self, x: bytes, level: int) -> str:
        if len(x) <= QUOTE_LIMIT:
            return builtins.repr(x)
        quoted = builtins.repr(x[:QUOTE_LIMIT])
        return f"{quoted[:-1]}…{quoted[-1]} ({len(x):,} bytes)"

    def repr_instance(self, x: object, level: int) -> str:
        try:
            text = builtins.repr(x)
        except Exception:
            return f"a {type(x).__name__} object"
        if len(text) > self.maxother:
            return f"{text[: self.maxother]}… ({len(text):,} characters)"
        return text


_DESCRIBER = _Describer()


class TricklabError(ValueError):
    """Base class of every error raised by tricklab.

    ``rule_id`` is the id of the rule clause at fault when there is one (see each
    game's ``rules.rulebook``), else ``None``.
    """

    def __init__(self, message: str, *, rule_id: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule_id = rule_id

    def __str__(self) -> str:
        return self.message


class UnknownGame(TricklabError):
    """The game name is not in the registry."""


class InvalidOption(TricklabError):
    """A player count, an option, a seed or a combination of them is not allowed."""


class InvalidCard(TricklabError):
    """A card could not be parsed, or is not part of this game's deck."""


class InvalidTrick(TricklabError):
    """A trick holds a card twice, or more cards than a trick can hold."""


class InvalidScoreInput(TricklabError):
    """A scoring function got a value out of range (a bid, a count, a gem layout)."""


class IllegalAction(TricklabError):
    """An action that the rules forbid right now; ``rule_id`` names the rule.

    ``str(exc)`` states the reason about the table (``"must follow suit: hearts ♥ were led and
    Player 2 holds 7♥"``); ``to_you`` is the same reason spoken to the seat whose move was
    refused (``"You must follow hearts: you hold 7♥"``), what a learner playing that seat reads.
    Where a game gives no second-person text, ``to_you`` is ``str(exc)``.
    """

    def __init__(self, message: str, *, rule_id: str | None = None, to_you: str | None = None) -> None:
        super().__init__(message, rule_id=rule_id)
        self.to_you = message if to_you is None else to_you


class InvalidAction(TricklabError):
    """An action's text could not be parsed."""


class RecordError(TricklabError):
    """A saved match record is malformed or was tampered with."""


class MissingExtra(TricklabError, ImportError):
    """A part of tricklab needs packages this install lacks; names the extra that adds them
    (``pip install 'tricklab[widgets]'``). Also an ``ImportError``, as a missing module is."""


class EndlessMatch(TricklabError):
    """A match played by bots went past the bound its game declares (``rules.max_decisions``)
    without ending: a rule that lets a game go on forever. Names the game, the seed and how
    many decisions were made."""
