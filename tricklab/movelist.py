"""A way around a match: its timeline outlined as rounds, tricks or turns, and moves.

:func:`outline` groups every step of a match's timeline (:meth:`tricklab.Match.timeline`) as a
move list does: each round (or deal: the game's ``Capabilities.round_word``) holds the part
before play, then its tricks (or a game without tricks: its turns), then its end (the score,
the end of the match); each part holds its moves. A move is one entry of the list: the step it
starts at, the steps that follow from it (a trick's gem actions, a sowing's stones, the draw
after a card put down) and a label in words, the first sentence the game's own narration says
of it (``"Player 2 leads K♣"``), never an action's code. Every step is in exactly one move, in
order, so any step can be found in the list and every entry leads to a step.

How a game is grouped is its own declaration (``Capabilities.grouping``, a
:class:`~tricklab.games.capabilities.Grouping`): which events start a round, a trick or turn
and a round's end, and which follow from the move before them. Nothing here knows a game.

The outline also finds where to jump: the previous or next trick (turn) or round from a step::

    >>> import tricklab
    >>> match = tricklab.get_rules("tricks-and-stones", players=4).play(seed=1)
    >>> moves = outline(match)
    >>> moves.rounds[0].title, moves.rounds[0].parts[1].title, moves.rounds[0].parts[1].entries[0].label
    ('Round 1', 'Trick 1', 'Player 2 leads K♣')
    >>> moves.next_part(0), moves.next_round(0)
    (6, 79)
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .errors import InvalidOption, describe
from .games.base import EventKind, Rules, Word, check_rules
from .games.capabilities import Grouping
from .match import Match, Step


class PartKind(Word):
    """What a part of a round is: the part before play, a trick, a turn, or the round's end."""

    START = "start"
    TRICK = "trick"
    TURN = "turn"
    END = "end"


@dataclass(frozen=True, slots=True)
class Entry:
    """One move of the list: the steps ``step`` to ``last`` (the step the move starts at, then
    the steps that follow from it), the move in words, the seat that made it (``None``: the
    table) and the kind of its first event."""

    step: int
    last: int
    label: str
    seat: int | None
    kind: EventKind

    @property
    def steps(self) -> range:
        return range(self.step, self.last + 1)


@dataclass(frozen=True, slots=True)
class Part:
    """A part of a round: the part before play, a trick or a turn (``number``, counted from 1 in
    the round for a trick, in the match for a turn; 0 otherwise), or the round's end; its
    ``title`` in words and its moves."""

    kind: PartKind
    number: int
    title: str
    entries: tuple[Entry, ...]

    @property
    def first(self) -> int:
        return self.entries[0].step

    @property
    def last(self) -> int:
        return self.entries[-1].last

    @property
    def seat(self) -> int | None:
        """Who leads the trick or moves in the turn (the seat of its first move)."""
        return self.entries[0].seat


@dataclass(frozen=True, slots=True)
class Round:
    """One round (or deal) of the match: its number from 1, its title and its parts."""

    number: int
    title: str
    parts: tuple[Part, ...]

    @property
    def first(self) -> int:
        return self.parts[0].first

    @property
    def last(self) -> int:
        return self.parts[-1].last

    @property
    def plays(self) -> tuple[Part, ...]:
        """The round's tricks or turns."""
        return tuple(part for part in self.parts if part.kind in (PartKind.TRICK, PartKind.TURN))


@dataclass(frozen=True)
class Outline:
    """A match's timeline as a move list: its rounds, each with its parts, each with its moves.
    ``part`` is what the game's parts of play are called (``"trick"`` or ``"turn"``),
    ``round_word`` what its rounds are called (``"round"`` or ``"deal"``) and ``size`` the number
    of steps (every step from 0 to ``size - 1`` is in exactly one entry)."""

    rounds: tuple[Round, ...]
    part: str
    round_word: str
    size: int

    @cached_property
    def entries(self) -> tuple[Entry, ...]:
        """Every move, in order."""
        return tuple(entry for round_ in self.rounds for part in round_.parts for entry in part.entries)

    @cached_property
    def parts(self) -> tuple[Part, ...]:
        return tuple(part for round_ in self.rounds for part in round_.parts)

    @cached_property
    def _starts(self) -> tuple[int, ...]:
        return tuple(entry.step for entry in self.entries)

    @cached_property
    def _play_starts(self) -> tuple[int, ...]:
        return tuple(part.first for round_ in self.rounds for part in round_.plays)

    @cached_property
    def _round_starts(self) -> tuple[int, ...]:
        return tuple(round_.first for round_ in self.rounds)

    def _check(self, step: object) -> int:
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < self.size:
            raise InvalidOption(f"a step is a number from 0 to {self.size - 1}, not {describe(step)}")
        return step

    def entry_at(self, step: int) -> Entry:
        """The move that ``step`` is part of."""
        return self.entries[bisect_right(self._starts, self._check(step)) - 1]

    def round_at(self, step: int) -> Round:
        """The round that ``step`` is in."""
        return self.rounds[bisect_right(self._round_starts, self._check(step)) - 1]

    def part_at(self, step: int) -> Part:
        """The part (before play, trick, turn, end) that ``step`` is in."""
        self._check(step)
        return next(part for part in self.round_at(step).parts if part.first <= step <= part.last)

    def next_part(self, step: int) -> int | None:
        """The first step of the next trick (turn) after ``step``; ``None`` after the last one."""
        return _after(self._play_starts, self._check(step))

    def previous_part(self, step: int) -> int | None:
        """The first step of the trick (turn) ``step`` is in, when ``step`` is past it; else of the
        one before (as a player's "previous" goes back to the start of a song first); ``None``
        before the first trick (turn)."""
        return _before(self._play_starts, self._check(step))

    def next_round(self, step: int) -> int | None:
        """The first step of the next round; ``None`` in the last one."""
        return _after(self._round_starts, self._check(step))

    def previous_round(self, step: int) -> int | None:
        """The first step of the round ``step`` is in, when ``step`` is past it; else of the
        round before; ``None`` at the very start."""
        return _before(self._round_starts, self._check(step))


def _after(starts: Sequence[int], step: int) -> int | None:
    at = bisect_right(starts, step)
    return starts[at] if at < len(starts) else None


def _before(starts: Sequence[int], step: int) -> int | None:
    at = bisect_left(starts, step)
    return starts[at - 1] if at > 0 else None


def outline(match: Match, seat: int | None = None) -> Outline:
    """The move list of ``match``'s timeline as ``seat`` saw it (``None``: the teacher's, where
    every hand is open; a seat's labels say only what that seat was told)."""
    if not isinstance(match, Match):
        raise InvalidOption(f"a move list is made of a match (rules.new_match(...)), not {describe(match)}")
    return outline_steps(match.rules, match.timeline(seat))


#: the end of a narration's first sentence: a full stop (or ! or ?) before the next sentence
_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z0-9\"“(])|[.!?]\s*$")


def first_sentence(text: str) -> str:
    """The first sentence of a narration, without its full stop: the label of its move."""
    found = _SENTENCE_END.search(text)
    return (text[: found.start()] if found else text).strip()


def outline_steps(rules: Rules[Any], steps: Sequence[Step]) -> Outline:
    """The move list of a timeline of ``rules`` (``match.timeline(seat)``, or its first steps).

    Raises :class:`InvalidOption` for steps that are not a timeline from its start."""
    rules = check_rules(rules, "a move list")
    if isinstance(steps, (str, bytes)) or not isinstance(steps, Sequence):
        raise InvalidOption(f"steps must be a match's timeline (match.timeline()), not {describe(steps)}")
    for number, step in enumerate(steps):
        if not isinstance(step, Step) or step.index != number:
            raise InvalidOption(f"steps must be a match's timeline from its first step; step {number} is not")
    if not steps:
        raise InvalidOption("a match's timeline has at least its deal: there are no steps")
    grouping = rules.capabilities.grouping
    return _Builder(grouping, rules.capabilities.round_word).build(steps)


class _Builder:
    """Walks a timeline once, opening rounds, parts and entries as the game's grouping says."""

    def __init__(self, grouping: Grouping, round_word: str) -> None:
        self.grouping = grouping
        self.round_word = round_word
        self.unit = PartKind.TRICK if grouping.part == PartKind.TRICK else PartKind.TURN
        self.rounds: list[Round] = []
        self.parts: list[Part] = []  # the open round's finished parts
        self.entries: list[Entry] = []  # the open part's moves
        self.part: PartKind = PartKind.START
        self.part_seat: int | None = None  # the seat of the open turn
        self.complete = False  # the open trick has had its trick event
        self.plays = 0  # tricks in the open round, or turns in the match
        self.ended = False  # the open round's end has the end of the match in it

    def build(self, steps: Sequence[Step]) -> Outline:
        g = self.grouping
        for step in steps:
            kind = step.event.kind
            seat = step.event.seat
            if kind in g.rounds and (self.rounds or self.parts or self.entries):
                self._close_round()
            if kind in g.closes and self.part != PartKind.END:
                self._close_part()
                self.part = PartKind.END
            elif kind in g.opens and self._opens_part(seat):
                self._close_part()
                self.plays += 1
                self.part, self.part_seat, self.complete = self.unit, seat, False
            if kind == EventKind.END:
                self.ended = True
            if kind == EventKind.TRICK:
                self.complete = True
            if kind in g.follows and self.entries:
                last = self.entries[-1]
                self.entries[-1] = Entry(last.step, step.index, last.label, last.seat, last.kind)
            else:
                self.entries.append(Entry(step.index, step.index, first_sentence(step.event.text), seat, kind))
        self._close_round()
        return Outline(tuple(self.rounds), self.unit.value, self.round_word, len(steps))

    def _opens_part(self, seat: int | None) -> bool:
        if self.part == PartKind.END:
            return False  # the round is over: nothing more is played in it
        if self.part == PartKind.START:
            return True
        if self.unit == PartKind.TRICK:
            return self.complete
        return seat != self.part_seat

    def _close_part(self) -> None:
        if not self.entries:
            return
        number = self.plays if self.part in (PartKind.TRICK, PartKind.TURN) else 0
        self.parts.append(Part(self.part, number, self._part_title(number), tuple(self.entries)))
        self.entries = []

    def _part_title(self, number: int) -> str:
        if self.part == PartKind.START:
            return f"Before the first {self.unit.value}"
        if self.part == PartKind.END:
            return "End of the match" if self.ended else f"End of the {self.round_word}"
        return f"{self.unit.value.capitalize()} {number}"

    def _close_round(self) -> None:
        self._close_part()
        if self.parts:
            number = len(self.rounds) + 1
            self.rounds.append(Round(number, f"{self.round_word.capitalize()} {number}", tuple(self.parts)))
        self.parts = []
        self.part, self.part_seat, self.complete, self.ended = PartKind.START, None, False, False
        if self.unit == PartKind.TRICK:
            self.plays = 0  # tricks are counted in their round; turns through the match
