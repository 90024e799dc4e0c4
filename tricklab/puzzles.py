"""Position questions: the quiz of a game without tricks, marked by the rules engine.

A game that has no tricks (Kalah, Mandala) declares its quiz as position levels
(:class:`~tricklab.games.capabilities.PositionLevel`), each naming a :class:`Puzzle`. A
puzzle plays seeded random moves from the start of a match to a position and asks about
it: *where does the last stone land?*, *which move captures?*, *may this card go here?*.
The same game, players, level and seed give the same questions everywhere:

>>> from tricklab import puzzles
>>> first = puzzles.questions("kalah", seed=7, level=1, count=3)[0]
>>> first.kind, first.prompt.endswith("Where does the last stone land?")
('place', True)
>>> verdict = puzzles.check(first, first.answer[0])
>>> verdict.correct, verdict.reasons[0].rule_id
(True, 'mk.sow')

The answer and its reasons always come from the engine, both when a question is made and
when an answer is marked: the puzzle applies the move to the position with the game's
checked core (:meth:`~tricklab.games.core.CoreRules.facts`) and reads the narrated events
of what happened (the stone that fell last, a capture), or asks the engine whether an action
is listed and, when it is not, takes the engine's refusal (``explain_illegal``) with its rule
id. No rule is written here a second time.

This is the engine side: plain Python, nothing from Jupyter. :func:`tricklab.quiz.summary`
and :func:`tricklab.quiz.suggested_level` take these verdicts as they take the trick quiz's;
``tricklab.quiz.questions`` and ``check`` stay the trick quiz's (a game with position levels
is asked through :func:`questions` and :func:`check` here).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from .actions import Action
from .errors import InvalidOption, describe
from .explain import Reason
from .games import find_game, rules_for
from .games.base import Event, GameState, Rules, SeatView, check_rules, check_seed
from .games.capabilities import PositionLevel
from .games.core import CoreRules

DEFAULT_COUNT = 10
MAX_COUNT = 100
# Playing to positions until one fits a level: every level fits a good share of them, so this
# many tries without a fit would mean a mistake in a level.
MAX_TRIES = 5_000
#: the most random moves :func:`play_to_position` plays to a position
MAX_MOVES = 1_000

ChoiceKind = Literal["place", "move", "yes-no"]


class InvalidAnswer(InvalidOption):
    """An answer that is none of the question's choices."""


# --- what a puzzle makes and what the engine says --------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer a learner may give: ``value`` is what its button sends, ``label`` its words."""

    value: str
    label: str


@dataclass(frozen=True, slots=True)
class Position:
    """A position reached by play: the match's ``seed`` and the ``actions`` made from the start
    (their texts, so ``Match(rules, seed, actions=actions)`` rebuilds it), and its ``state``."""

    seed: int
    actions: tuple[str, ...]
    state: Any = field(compare=False, repr=False)

    @property
    def to_play(self) -> int:
        seat = cast(GameState, self.state).to_play
        assert seat is not None, "a question's position is never the end of a match"
        return seat


@dataclass(frozen=True, slots=True)
class Asked:
    """What a puzzle asks: the ``position``, the ``prompt``, the ``action`` asked about (its
    text; ``None`` when the question is which action to take), the ``choices`` and ``about``,
    the thing asked about in words (``"a red card into the Mountain of Mandala 1"``)."""

    position: Position
    prompt: str
    action: str | None
    choices: tuple[Choice, ...]
    about: str = ""


@dataclass(frozen=True, slots=True)
class Marking:
    """The engine's answer to a question: the ``right`` choices' values, the ``answer`` in
    words, the engine's ``reasons`` for it, and -- for a pick -- what the engine says about
    the pick (``said``) and the reasons that decide it (``deciding``)."""

    right: tuple[str, ...]
    answer: str
    reasons: tuple[Reason, ...]
    said: str = ""
    deciding: tuple[Reason, ...] = ()
    event: Event | None = field(default=None, compare=False)  # the engine's step naming the answer's place


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A kind of position question a game declares for a quiz level.

    ``ask(rules, rng)`` plays to a position from the seeded ``rng`` and asks about it, or gives
    ``None`` when the position does not fit the level (the quiz then tries another);
    ``mark(rules, asked, given)`` gives the engine's answer, and with a ``given`` choice value
    what the engine says about that pick. ``kind`` says what the choices are: ``"place"``
    (places of the board), ``"move"`` (the legal actions) or ``"yes-no"``.
    """

    kind: ChoiceKind
    ask: Callable[[Rules[Any], random.Random], Asked | None]
    mark: Callable[[Rules[Any], Asked, str | None], Marking]


# --- questions and verdicts -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, repr=False)
class PositionQuestion:
    """One position question of a quiz: what was ``asked`` at a position of ``game``, at
    ``level``, the ``number``-th of its quiz, and the engine's ``marking`` when it was made."""

    game: str
    players: int
    level: int
    number: int
    kind: ChoiceKind
    asked: Asked
    marking: Marking = field(compare=False)

    @property
    def prompt(self) -> str:
        return self.asked.prompt

    @property
    def position(self) -> Position:
        return self.asked.position

    @property
    def choices(self) -> tuple[Choice, ...]:
        return self.asked.choices

    @property
    def answer(self) -> tuple[str, ...]:
        """The right choices' values (one, or -- for "which move captures?" -- each move that does)."""
        return self.marking.right

    @property
    def rules(self) -> Rules[Any]:
        return rules_for(self.game, self.players)

    def view(self) -> SeatView:
        """The position as the player to move sees it (what the learner is shown)."""
        return self.rules.view(self.position.state, self.position.to_play)

    def label(self, value: str) -> str:
        """The words of the choice ``value``."""
        return next((c.label for c in self.choices if c.value == value), value)

    def __repr__(self) -> str:
        about = f" {self.asked.action!r}" if self.asked.action else ""
        return f"<PositionQuestion {self.game} level {self.level} #{self.number}: {self.kind}{about}>"


@dataclass(frozen=True, slots=True, repr=False)
class PositionVerdict:
    """How an answer to a position question fared, as the engine marks it: ``correct``, the
    ``right`` choices, the engine's ``reasons`` for the answer and the ``deciding`` ones that
    answer the learner's pick."""

    question: PositionQuestion
    given: str
    correct: bool
    right: tuple[str, ...]
    reasons: tuple[Reason, ...]
    deciding: tuple[Reason, ...]
    answer: str
    said: str

    @property
    def feedback(self) -> str:
        """What the learner reads first: right or wrong, the answer and the engine's words."""
        q = self.question
        if self.correct:
            return f"Right. {self.answer}"
        picked = q.label(self.given)
        said = f" {self.said}" if self.said else ""
        return f"You chose “{picked}”.{said} {self.answer}"

    def __repr__(self) -> str:
        return f"<PositionVerdict {'right' if self.correct else 'wrong'}: gave {self.given!r}, answer {self.right}>"


def levels(game: str) -> tuple[PositionLevel, ...]:
    """The position levels of ``game`` (a name or alias), easiest first (empty for a trick game)."""
    return find_game(game).capabilities.quiz.positions


def questions(
    game: str,
    players: int | None = None,
    seed: int = 0,
    level: int = 1,
    count: int = DEFAULT_COUNT,
) -> tuple[PositionQuestion, ...]:
    """``count`` position questions of ``game`` at ``level``, the same for the same game,
    players, seed and level (a longer quiz starts with the questions of a shorter one).
    ``players=None`` means the game's only (or largest) player count. Bad values raise a
    :class:`~tricklab.TricklabError` that says what is allowed."""
    rules = rules_for(game, players)
    step = _level(rules, level)
    seed = check_seed(seed)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise InvalidOption(f"a quiz has 1 to {MAX_COUNT} questions, not {describe(count)}")
    puzzle = step.puzzle.load_as(Puzzle)
    rng = random.Random(f"tricklab:puzzle:{rules.name}:{rules.players}:{step.number}:{seed}")
    found: list[PositionQuestion] = []
    seen: set[tuple[object, str | None]] = set()
    tries = 0
    while len(found) < count:
        tries += 1
        if tries > MAX_TRIES * count:
            raise RuntimeError(f"no position of {rules.title} fits quiz level {step.number}")
        asked = puzzle.ask(rules, rng)
        if asked is None:
            continue
        key = (asked.position.state, asked.action)
        if key in seen:
            continue
        seen.add(key)
        marking = puzzle.mark(rules, asked, None)
        found.append(
            PositionQuestion(rules.name, rules.players, step.number, len(found) + 1, puzzle.kind, asked, marking)
        )
    return tuple(found)


def check(question: PositionQuestion, answer: object) -> PositionVerdict:
    """Mark ``answer`` (the value of one of the question's choices: a place, an action's text such
    as ``"sow 3"``, or ``"yes"``/``"no"``) with the engine, which works the position out again.
    Anything else raises :class:`InvalidAnswer` naming the value and the choices."""
    if not isinstance(question, PositionQuestion):
        raise InvalidOption(f"check marks a position question, not {describe(question)}")
    given = _choice(question, answer)
    puzzle = _level(question.rules, question.level).puzzle.load_as(Puzzle)
    marking = puzzle.mark(question.rules, question.asked, given)
    correct = given in marking.right
    deciding = marking.reasons if correct else marking.deciding or marking.reasons
    return PositionVerdict(
        question, given, correct, marking.right, marking.reasons, deciding, marking.answer, marking.said
    )


def _choice(question: PositionQuestion, answer: object) -> str:
    values = [c.value for c in question.choices]
    listed = ", ".join(f"“{v}”" for v in values[:8]) + (", ..." if len(values) > 8 else "")
    if not isinstance(answer, str):
        raise InvalidAnswer(f"an answer is the text of one of the choices ({listed}), not {describe(answer)}")
    text = " ".join(answer.split()).lower()
    for value in values:
        if text == value.lower():
            return value
    raise InvalidAnswer(f"{describe(answer)} is not one of this question's choices; pick one of {listed}")


# --- internals ----------------------------------------------------------------------------------------


def _level(rules: Rules[Any], number: object) -> PositionLevel:
    steps = rules.capabilities.quiz.positions
    if not steps:
        raise InvalidOption(
            f"{rules.title}'s quiz asks about tricks, not positions: use tricklab.quiz.questions for it"
        )
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(steps):
        raise InvalidOption(f"{rules.title} has quiz levels 1 to {len(steps)}, not {describe(number)}")
    return steps[number - 1]


def _core(value: object) -> CoreRules[Any]:
    rules = check_rules(value, "a position")
    if not isinstance(rules, CoreRules):
        raise InvalidOption(f"position questions need a game played on the core, not {rules.title}")
    return rules


def play_to_position(
    rules: Rules[Any], rng: random.Random, most: int, *, keep: Callable[[Any], bool] | None = None
) -> Position | None:
    """A position after up to ``most`` random legal moves from a seeded new match (the match's
    seed drawn from ``rng`` too); ``None`` if the match ended first or ``keep`` refuses it."""
    core = _core(rules)
    if not isinstance(rng, random.Random):
        raise InvalidOption(f"rng must be a random.Random, like random.Random(1), not {describe(rng)}")
    if isinstance(most, bool) or not isinstance(most, int) or not 0 <= most <= MAX_MOVES:
        raise InvalidOption(f"most is a number of moves from 0 to {MAX_MOVES}, not {describe(most)}")
    if keep is not None and not callable(keep):
        raise InvalidOption(f"keep must be a function keep(state) -> bool, or None, not {describe(keep)}")
    seed = rng.randrange(2**31)
    state = core.initial_state(seed)
    played: list[str] = []
    for _ in range(rng.randrange(most + 1)):
        ids = core.core_legal(state)
        if not ids:
            return None
        a = rng.choice(ids)
        played.append(str(core.actions[a]))
        state = core.core_step(state, a)
    if cast(GameState, state).to_play is None or (keep is not None and not keep(state)):
        return None
    return Position(seed, tuple(played), state)


def events_of(rules: Rules[Any], state: Any, action: str | Action) -> list[Event]:
    """The narrated events of applying ``action`` to ``state`` with the checked core (raises the
    engine's :class:`~tricklab.IllegalAction` if the action is not listed)."""
    core = _core(rules)
    return [core.narrate(fact, after) for fact, after in core.facts(state, action)]


__all__ = [
    "Asked",
    "Choice",
    "InvalidAnswer",
    "Marking",
    "Position",
    "PositionQuestion",
    "PositionVerdict",
    "Puzzle",
    "check",
    "levels",
    "questions",
]
