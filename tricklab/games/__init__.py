"""The registry of games: name (or alias) -> Rules class.

What each game offers is declared on its class (``cls.capabilities``, see
:mod:`tricklab.games.capabilities`); nothing outside this package asks which game it holds.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..errors import InvalidOption, describe
from .band_of_tricks import BandOfTricks
from .base import Rules, game_named, register_games
from .capabilities import Capabilities
from .hearts import Hearts
from .jewel_vault import JewelVault
from .kalah import Kalah
from .mandala import Mandala
from .oh_hell import OhHell
from .tricks_and_stones import TricksAndStones

GAMES: dict[str, type[Rules[Any]]] = {
    cls.name: cls for cls in (TricksAndStones, BandOfTricks, JewelVault, Kalah, Mandala, OhHell, Hearts)
}
DEFAULT_GAME: str = next(iter(GAMES))  # what a widget or an app shows unless told otherwise
register_games(GAMES.values())  # a record's game is read by name (tricklab.match), from the engine


def find_game(name: object) -> type[Rules[Any]]:
    """The Rules class for a game name or alias (case-insensitive)."""
    return game_named(name)


def games_with(offers: Callable[[Capabilities], object]) -> list[type[Rules[Any]]]:
    """The games, in registry order, whose declaration passes ``offers``
    (e.g. ``games_with(lambda c: c.advice)``)."""
    if not callable(offers):
        raise InvalidOption(f"offers must be a function of a game's capabilities, not {describe(offers)}")
    return [cls for cls in GAMES.values() if offers(cls.capabilities)]


def default_players(cls: type[Rules[Any]]) -> int:
    """The player count a widget or an app shows unless told: four where the game allows it,
    else its largest."""
    if not (isinstance(cls, type) and issubclass(cls, Rules)):
        raise InvalidOption(f"default_players takes a game's class (find_game(name)), not {describe(cls)}")
    return 4 if 4 in cls.player_counts else cls.player_counts[-1]


@lru_cache(maxsize=64)
def _shared(name: str, players: int) -> Rules[Any]:
    return GAMES[name].create(players)


def rules_for(game: object, players: object = None) -> Rules[Any]:
    """The rules of a game (name or alias) with its default options, made once and shared (the
    quizzes ask for them question by question); ``players`` is checked (``None``: the default)."""
    cls = find_game(game)
    if players is None:
        players = default_players(cls)
    if isinstance(players, int) and not isinstance(players, bool) and players in cls.player_counts:
        return _shared(cls.name, players)
    return cls.create(players)  # raises InvalidOption, naming the player counts allowed
