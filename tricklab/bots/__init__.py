"""Bots: players that choose an action from what their seat can see.

A bot implements ``choose(view, legal_actions) -> action``. It never sees a state,
only its seat's view. Each game provides a heuristic bot; :class:`RandomBot` works
for every game.

The bots of tricklab also say why: ``decide(view, legal_actions) -> Decision`` gives the
same action as ``choose`` (the same code decides both) with its reasons, for a learner's
hint (:func:`tricklab.hints.hint`). The first reason is the rule that limits the choice, as
the game's rules give it (``rules.explain_choice``: a clause id of ``rules.rulebook`` such as
``ts.follow``); the last is the bot's own rule of thumb that picked the action, with an id
that starts with ``bot.`` (``bot.ts.duck``, ``bot.random``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ..actions import Action
from ..errors import InvalidOption, describe
from ..explain import Reason, plural
from ..games.base import Rules, SeatView, check_rules, check_seed


@runtime_checkable
class Bot(Protocol):
    """A player: chooses one of ``legal_actions`` from its seat's view of the match (a game's
    bot reads its own game's view type, which it checks)."""

    def choose(self, view: SeatView, legal_actions: Sequence[Action]) -> Action: ...


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's choice and why it made it.

    ``action`` is one of the legal actions the bot was given (what its ``choose`` returns for
    the same view and actions). ``reasons`` explain it, in order: first the rule that limits
    the choice (a clause id of the game's rulebook, spoken to the seat: ``"You must follow
    hearts: you hold 7♥ and J♥"``), then the bot's rule of thumb that picked this action (an id
    starting with ``bot.``, such as ``bot.ts.duck``).
    """

    action: Action
    reasons: tuple[Reason, ...]


@runtime_checkable
class Decider(Protocol):
    """A bot that can say why: ``decide`` gives the action ``choose`` would, with its reasons."""

    def choose(self, view: SeatView, legal_actions: Sequence[Action]) -> Action: ...

    def decide(self, view: SeatView, legal_actions: Sequence[Action]) -> Decision: ...


#: The reason of a bot that had nothing to decide by (actions that are not its game's own): it
#: took the first action listed.
FIRST_LISTED = "bot.first-listed"


def first_listed() -> Reason:
    return Reason(FIRST_LISTED, "The bot has no rule for these actions: it takes the first one listed.")


class RandomBot:
    """Chooses uniformly among the legal actions; seeded, so matches repeat."""

    def __init__(self, seed: int | str = 0) -> None:
        self._rng = random.Random(check_bot_seed(seed))

    def choose(self, view: SeatView, legal_actions: Sequence[Action]) -> Action:
        return self._pick(legal_actions)

    def decide(self, view: SeatView, legal_actions: Sequence[Action]) -> Decision:
        """The action :meth:`choose` would take (the same draw of the same random source), and
        the one reason there is: it was chosen at random (``bot.random``)."""
        action = self._pick(legal_actions)
        listed = plural(len(legal_actions), "action")
        return Decision(action, (Reason("bot.random", f"Chosen at random among the {listed} allowed now."),))

    def _pick(self, legal_actions: Sequence[Action]) -> Action:
        if not isinstance(legal_actions, Sequence) or isinstance(legal_actions, (str, bytes)) or not legal_actions:
            raise InvalidOption(
                f"legal_actions must be the actions allowed now (match.legal_actions()), not {describe(legal_actions)}"
            )
        return legal_actions[self._rng.randrange(len(legal_actions))]

    def __repr__(self) -> str:
        return "RandomBot()"


_SEED_LIMIT = 10**4300  # a whole number below it can be written as text (bots' seeds are joined as text)


def check_bot_seed(seed: object) -> int | str:
    """A bot's seed: a whole number (of at most 4,300 digits, so it reads as text) or a text."""
    too_long = isinstance(seed, int) and abs(seed) >= _SEED_LIMIT
    if isinstance(seed, bool) or not isinstance(seed, (int, str)) or too_long:
        raise InvalidOption(f"a bot's seed is a whole number or a text, not {describe(seed)}")
    return seed


def heuristic_bot(rules: Rules[Any], seat: int, seed: int | str = 0) -> Bot:
    """The game's heuristic bot for ``seat`` (the bot its declaration names ``"heuristic"``)."""
    check_rules(rules, "a bot").check_seat(seat)
    check_bot_seed(seed)
    ref = rules.capabilities.bot("heuristic")
    if ref is None:
        raise InvalidOption(f"{rules.title} has no heuristic bot; use 'random'")
    return ref.load()(rules, seat, seed)


def hint_bot(rules: Rules[Any], seat: int, seed: int | str = 0) -> Bot:
    """The bot whose choice a hint shows (the one the game's declaration names ``hint_bot``:
    the heuristic bot, or a stronger one where the game has it, such as Kalah's search)."""
    check_rules(rules, "a bot").check_seat(seat)
    check_bot_seed(seed)
    name = rules.capabilities.hint_bot
    ref = rules.capabilities.bot(name)
    if ref is None:
        raise InvalidOption(f"{rules.title} has no {name} bot; use 'random'")
    return ref.load()(rules, seat, seed)


def table_bot(rules: Rules[Any], seat: int, seed: int, decision: int, name: str = "heuristic") -> Bot:
    """The bot that makes decision number ``decision`` (0 for the first) for ``seat`` at a table
    (the play app, a table of classmates): the ``name`` bot (``"heuristic"`` or ``"random"``)
    with a random source of its own for that one decision, so its choice depends only on the
    match's seed and the moves before it. Undoing and playing again, opening a link whose moves
    leave a bot's unseen choice out (:func:`tricklab.links.moves_code`), or another kernel at a
    shared table choosing for the same seat, gives the same choice."""
    check_rules(rules, "a table's bot")
    rules.check_seat(seat)
    check_seed(seed)
    if name not in BOT_NAMES:
        raise InvalidOption(f"a table's bot is one of {', '.join(BOT_NAMES)}, not {describe(name)}")
    if isinstance(decision, bool) or not isinstance(decision, int) or not 0 <= decision < rules.max_decisions:
        raise InvalidOption(
            f"decision is how many decisions the match has made (0 to {rules.max_decisions - 1}), "
            f"not {describe(decision)}"
        )
    if name == "random":
        return RandomBot(f"table:{seed}:{seat}:{decision}")
    return heuristic_bot(rules, seat, f"table:{seed}:{seat}:{decision}")


BOT_NAMES = ("random", "heuristic")


def make_bots(rules: Rules[Any], bots: str | Sequence[str | Bot], seed: int) -> list[Bot]:
    """One bot per seat from a name (``"random"``/``"heuristic"``) or a list of names/bots."""
    check_rules(rules, "bots")
    check_bot_seed(seed)
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
