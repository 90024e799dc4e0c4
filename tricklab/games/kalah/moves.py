"""Kalah's "try a move" entry (:mod:`tricklab.moves`): the position from a view (Kalah hides
nothing), what a sowing did (stones stored, another move, a capture, the end) and the searching
bot's best move with every move's value."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...actions import Action
from ...explain import plural
from ...moves import Best, Effect, MovesEntry, Tried
from ..base import Event, GameState, Rules, SeatView
from ..core import Facts
from .bots import SearchBot
from .rules import Captured, GameEnded, Kalah, KalahState, KalahView, MovedAgain, Swept, store_of

#: how many moves ahead Kalah's search looks for the values shown (a fixed depth, so the same
#: position always gets the same values)
SEARCH_DEPTH = 8


def _narrated(rules: Kalah, facts: Facts, seat: int) -> list[Event]:
    """Kalah's events for ``facts``, each told as ``seat`` may see it (Kalah hides nothing)."""
    return [rules.narrate(fact.seen_by(seat), after) for fact, after in facts]


def _kalah_position(rules: Rules[Any], view: SeatView) -> GameState:
    assert isinstance(view, KalahView)
    return KalahState(0, view.phase, view.to_play, tuple(view.pits))  # Kalah hides nothing


def _kalah_tally(rules: Rules[Any], seat: int, before: GameState, facts: Facts, after: GameState) -> Tried:
    assert isinstance(rules, Kalah) and isinstance(before, KalahState) and isinstance(after, KalahState)
    store = store_of(seat)
    gained = after.pits[store] - before.pits[store]
    effects = [Effect("gained", gained, f"{plural(gained, 'stone')} into your store")]
    for fact, _ in facts:
        if isinstance(fact, MovedAgain):
            effects.append(Effect("again", 1, "your last stone lands in your store: you move again"))
        elif isinstance(fact, Captured):
            effects.append(
                Effect(
                    "captured",
                    fact.stones,
                    f"captures {plural(fact.stones, 'stone')} from the pit across (pit {fact.across}), "
                    "with your last stone",
                )
            )
        elif isinstance(fact, Swept) and fact.seat != seat:
            effects.append(
                Effect("swept", fact.stones, f"the other player stores the {plural(fact.stones, 'stone')} left")
            )
        elif isinstance(fact, GameEnded):
            effects.append(Effect("ends", 1, "the game ends"))
    events = _narrated(rules, facts, seat)
    return Tried(rules.view(after, seat), tuple(effects), tuple(events))


def _kalah_best(rules: Rules[Any], view: SeatView, seat: int, legal: Sequence[Action]) -> Best:
    assert isinstance(rules, Kalah) and isinstance(view, KalahView)
    bot = SearchBot(rules, seat, depth=SEARCH_DEPTH)
    decision = bot.decide(view, legal)
    return Best(decision.action, tuple(decision.reasons), bot.values(view))


KALAH_MOVES = MovesEntry(
    position=_kalah_position,
    tally=_kalah_tally,
    best=_kalah_best,
    value_title=f"Search value ({SEARCH_DEPTH} moves ahead)",
    best_title="the searching bot",
)
