"""Try a move: every legal move of a position, what it does, and why.

For the seat to move, :func:`try_moves` makes each legal move on a copy of the position with
the game's own core step (``core_step``) and reads what the rules did from the game's own facts
and narration: nothing here works out a rule a second time. Each :class:`MoveOutcome` holds the
move, the position after it as the seat sees it, a short tally of what it did (stones gained,
an extra turn, a capture; cards drawn, a Mandala completed), the events and reasons the game
narrates for it, and the move a bot of the game would pick, with the bot's reasons.

What is particular to a game is declared by the game: ``Capabilities.moves`` names a
:class:`MovesEntry` (in this module, one per game, like the advisor's entries). An entry says
how to rebuild the position from the seat's view (only what the seat may see: the other hand,
the deck and the face-down cards are not known, so an outcome that depends on them says so,
"then draws 3 cards", without naming them), how to tally a move's facts, and how the best move
is found (Kalah: the searching bot, which also gives every move a value).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .errors import InvalidOption, describe
from .explain import Reason
from .games.base import Event, GameState, Rules, SeatView, check_rules
from .games.core import CoreRules, Facts
from .match import Match


@dataclass(frozen=True, slots=True)
class Effect:
    """One thing a move does, counted: ``key`` names it (``"gained"``, ``"again"``,
    ``"captured"``, ``"drawn"``, ``"completed"``, ...), ``amount`` counts it and ``text`` says it
    in plain words."""

    key: str
    amount: int
    text: str


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """One legal move and what it does, as the seat to move can know it.

    ``text`` is the move's text form (``"sow 3"``), ``description`` the move in words, ``view``
    the position after it as the seat sees it, ``effects`` the tally of what it did, ``events``
    the game's own narration of the move (automatic steps included), ``value`` the searched
    value where the game has a search (own store minus the opponent's, looking ahead), and
    ``best`` whether it is the move the game's bot picks, with ``verdict``, the bot's reasons.
    """

    action: Action
    text: str
    description: str
    view: SeatView
    effects: tuple[Effect, ...]
    events: tuple[Event, ...]
    value: int | None = None
    best: bool = False
    verdict: tuple[Reason, ...] = ()

    def effect(self, key: str) -> int:
        """The amount of the effect ``key`` (0 if the move does not have it)."""
        return sum(e.amount for e in self.effects if e.key == key)

    @property
    def reasons(self) -> tuple[Reason, ...]:
        """The rules the move's events cite, each once, in the order they first apply."""
        seen: dict[tuple[str, str], Reason] = {}
        for event in self.events:
            for reason in event.reasons:
                seen.setdefault((reason.rule_id, reason.text), reason)
        return tuple(seen.values())

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.rule_id for r in self.reasons))


@dataclass(frozen=True, slots=True)
class Tried:
    """What an entry makes of one move's facts: the view after it, the tally and the events."""

    view: SeatView
    effects: tuple[Effect, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Best:
    """The move a game's bot picks (and why), and each move's value if the game searches."""

    action: Action
    reasons: tuple[Reason, ...]
    values: dict[Action, int] | None = None


@dataclass(frozen=True, slots=True)
class MovesEntry:
    """How "try a move" works for one game. A game names its entry in its declaration
    (``Capabilities(moves=Ref("tricklab.games.kalah.moves:KALAH_MOVES"))``).

    ``position(rules, view)`` is the position as the seat knows it, rebuilt from its view (what
    the seat cannot see filled in with stand-ins that the rules never read for this move, or
    whose part in it ``tally`` hides). ``tally(rules, seat, before, facts, after)`` turns the
    facts of one move (each with the state right after it) and the state the move ends in into
    the view after it, the effects and the events.
    ``best(rules, view, seat, legal)`` is the bot's pick. ``value_title`` names the values, if
    the game gives any (``""``: none); ``best_title`` names the bot that picks the best move.
    """

    position: Callable[[Rules[Any], SeatView], GameState]
    tally: Callable[[Rules[Any], int, GameState, Facts, GameState], Tried]
    best: Callable[[Rules[Any], SeatView, int, Sequence[Action]], Best]
    value_title: str = ""
    best_title: str = "the bot"


def entry_of(rules: Rules[Any]) -> MovesEntry:
    """The game's declared entry, or :class:`InvalidOption` for a game that has none."""
    ref = check_rules(rules, "trying moves").capabilities.moves
    if ref is None or not isinstance(rules, CoreRules):
        raise InvalidOption(f"trying moves is not offered for {rules.title}")
    return ref.load_as(MovesEntry)


def offers_moves(game: type[Rules[Any]] | Rules[Any]) -> bool:
    """Whether the game declares "try a move" (``game``: its rules, or its class)."""
    if not isinstance(game, Rules) and not (isinstance(game, type) and issubclass(game, Rules)):
        raise InvalidOption(f"offers_moves asks about a game's rules or its class, not {describe(game)}")
    return game.capabilities.moves is not None


def try_moves(
    source: Match | Rules[Any], state: GameState | None = None, seat: int | None = None
) -> tuple[MoveOutcome, ...]:
    """Every legal move of the position with what it does, for the seat to move.

    ``source`` is a match (its current state is used) or a game's rules with ``state``. ``seat``
    must be the seat to move (by default it is). Only what that seat sees is used: its view,
    never the whole state.
    """
    if isinstance(source, Match):
        if state is not None:
            raise InvalidOption("give a match, or rules and a state, not a match and a state")
        rules: Rules[Any] = source.rules
        state = source.state
    elif isinstance(source, Rules):
        rules = source
        if state is None:
            raise InvalidOption(f"trying moves with {rules.title}'s rules needs a state (or give a match)")
    else:
        raise InvalidOption(f"try_moves takes a match or a game's rules, not {describe(source)}")
    entry = entry_of(rules)
    assert isinstance(rules, CoreRules)
    rules.check_state(state)
    mover = state.to_play
    if mover is None:
        raise InvalidOption("the game is over: there is no move to try")
    if seat is None:
        seat = mover
    seat = rules.check_seat(seat)
    if seat != mover:
        raise InvalidOption(
            f"it is {rules.seat_name(mover)}'s turn, not {rules.seat_name(seat)}'s (seat {seat}): "
            "only the player to move can try moves"
        )
    view = rules.view(state, seat)
    known = entry.position(rules, view)
    legal = rules.legal_actions(known)
    best = entry.best(rules, view, seat, legal)
    outcomes = []
    for action in legal:
        facts: Facts = []
        after = rules.core_step(known, rules.listed_action_id(known, action), facts)
        tried = entry.tally(rules, seat, known, facts, after)
        outcomes.append(
            MoveOutcome(
                action=action,
                text=str(action),
                description=rules.describe_action(action, view),
                view=tried.view,
                effects=tried.effects,
                events=tried.events,
                value=None if best.values is None else best.values.get(action),
                best=action == best.action,
                verdict=best.reasons if action == best.action else (),
            )
        )
    return tuple(outcomes)
