"""Typed errors. Every error a learner can cause names the value or the rule at fault.

All of them derive from :class:`TricklabError`, which is a :class:`ValueError`, so
``except ValueError`` keeps working for code that does not care about the details.
"""

from __future__ import annotations


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
    """An action that the rules forbid right now; ``rule_id`` names the rule."""


class InvalidAction(TricklabError):
    """An action's text could not be parsed."""


class RecordError(TricklabError):
    """A saved match record is malformed or was tampered with."""
