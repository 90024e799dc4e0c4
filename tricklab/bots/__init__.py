"""Bots: players that choose an action from what their seat can see.

A bot implements ``choose(view, legal_actions) -> action``. It never sees a state,
only its seat's view. Each game provides a heuristic bot; :class:`RandomBot` works
for every game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

from ..actions import Action
from ..errors import InvalidOption, describe
from ..games.base import Rules, SeatView


@runtime_checkable
class Bot(Protocol):
    """A player: chooses one of ``legal_actions`` from its seat's view of the match (a game's
    bot reads its own game's view type, which it checks)."""

    def choose(self, view: SeatView, legal_actions: Sequence[Action]) -> Action: ...


class RandomBot:
    """Chooses uniformly among the legal actions; seeded, so matches repeat."""

    def __init__(self, seed: int | str = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, legal_actions: Sequence[Action]) -> Action:
        return legal_actions[self._rng.randrange(len(legal_actions))]

    def __repr__(self) -> str:
        return "RandomBot()"


def heuristic_bot(rules: Rules[Any], seat: int, seed: int | str = 0) -> Bot:
    """The game's heuristic bot for ``seat`` (the bot its declaration names ``"heuristic"``)."""
    ref = rules.capabilities.bot("heuristic")
    if ref is None:
        raise InvalidOption(f"{rules.title} has no heuristic bot; use 'random'")
    return ref.load()(rules, seat, seed)


BOT_NAMES = ("random", "heuristic")


def make_bots(rules: Rules[Any], bots: str | Sequence[str | Bot], seed: int) -> list[Bot]:
    """One bot per seat from a name (``"random"``/``"heuristic"``) or a list of names/bots."""
    if not isinstance(bots, (str, Iterable)):
        raise InvalidOption(f"bots is a bot name ('random' or 'heuristic') or one bot per seat, not {describe(bots)}")
    specs: list[str | Bot] = [bots] * rules.players if isinstance(bots, str) else list(bots)
    if len(specs) != rules.players:
        raise InvalidOption(f"give one bot per seat: {rules.players} seats, {len(specs)} bots")
    players: list[Bot] = []
    for seat, spec in enumerate(specs):
        bot_seed = f"{seed}:{seat}"
        if spec == "random":
            players.append(RandomBot(bot_seed))
        elif spec == "heuristic":
            players.append(heuristic_bot(rules, seat, bot_seed))
        elif isinstance(spec, Bot):
            players.append(spec)
        else:
            raise InvalidOption(f"unknown bot {describe(spec)}: use 'random', 'heuristic' or an object with choose()")
    return players
