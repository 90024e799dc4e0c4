"""tricklab: learn the rules of trick-taking card games.

>>> import tricklab
>>> rules = tricklab.get_rules("tricks-and-stones", players=4)
>>> out = rules.resolve_trick(["7H", "AH", "8S", "KD"], trump="S")
>>> out.winner, [str(c) for c in out.ranked_cards]
(2, ['8S', 'AH', '7H', 'KD'])
"""

from __future__ import annotations

from typing import Any

from .actions import (
    Action,
    Announce,
    AssignMetal,
    Bid,
    Move,
    Pass,
    Place,
    Play,
    Predict,
    Skip,
    Sow,
    Steal,
)
from .bots import Bot, RandomBot
from .cards import BandCard, Card, FrenchCard
from .errors import (
    EndlessMatch,
    IllegalAction,
    InvalidAction,
    InvalidCard,
    InvalidOption,
    InvalidScoreInput,
    InvalidTrick,
    MissingExtra,
    RecordError,
    TricklabError,
    UnknownGame,
)
from .explain import Clause, Reason, Rulebook
from .games import GAMES, find_game
from .games.base import Event, MatchResult, Rules, Score, ScoreLine, TrickOutcome
from .match import Match, Step

__version__ = "0.1.0"


def get_rules(game: str, players: int, **options: Any) -> Rules[Any]:
    """The rules of ``game`` for ``players`` players; keywords are the game's options."""
    return find_game(game).from_options(players, options)


def games() -> list[str]:
    """The names of the games tricklab knows."""
    return list(GAMES)


__all__ = [
    "Action",
    "Announce",
    "AssignMetal",
    "BandCard",
    "Bid",
    "Bot",
    "Card",
    "Clause",
    "EndlessMatch",
    "Event",
    "FrenchCard",
    "IllegalAction",
    "InvalidAction",
    "InvalidCard",
    "InvalidOption",
    "InvalidScoreInput",
    "InvalidTrick",
    "Match",
    "MatchResult",
    "MissingExtra",
    "Move",
    "Pass",
    "Place",
    "Play",
    "Predict",
    "RandomBot",
    "Reason",
    "RecordError",
    "Rulebook",
    "Rules",
    "Score",
    "ScoreLine",
    "Skip",
    "Sow",
    "Steal",
    "Step",
    "TrickOutcome",
    "TricklabError",
    "UnknownGame",
    "find_game",
    "games",
    "get_rules",
]
