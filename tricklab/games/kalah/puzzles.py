"""Kalah's position puzzles (:mod:`tricklab.puzzles`): where does the last stone of a sowing
land (a short sowing, and a long one that goes round), and which move captures. Each is asked of
a position reached by play, and marked from the engine's own events for the move."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, cast

from ...explain import Reason
from ...puzzles import Asked, Choice, Marking, Puzzle, events_of, play_to_position
from ..base import Event, EventKind, Rules, SeatView
from .rules import Kalah, KalahView


def _once(reasons: Sequence[Reason]) -> tuple[Reason, ...]:
    """``reasons`` without repeats, in order."""
    return tuple(dict.fromkeys(reasons))


def _sown(events: Sequence[Event]) -> tuple[Event, list[Event], Event]:
    """The pick-up, the stones sown and the last of them, from a sowing's events."""
    picked = next(e for e in events if e.kind is EventKind.SOW)
    stones = [e for e in events if e.kind is EventKind.STONE]
    return picked, stones, stones[-1]


def _after(events: Sequence[Event]) -> list[Event]:
    """What the rules did after the last stone fell (a capture, another move, the end)."""
    return [e for e in events if e.kind not in (EventKind.SOW, EventKind.STONE)]


def _places(rules: Rules[Any], view: SeatView) -> tuple[Choice, ...]:
    kalah, board = cast(Kalah, rules), cast(KalahView, view)  # a puzzle Kalah declares is asked of Kalah
    return tuple(Choice(str(i), kalah.place_name(i)) for i in range(len(board.pits)))


def _last_stone_asker(long: bool) -> Callable[[Rules[Any], random.Random], Asked | None]:
    def ask(rules: Rules[Any], rng: random.Random) -> Asked | None:
        position = play_to_position(rules, rng, 40)
        if position is None:
            return None
        state = position.state
        moves = rules.legal_actions(state)
        move = rng.choice(moves)
        picked, _, _ = _sown(events_of(rules, state, move))
        stones = int(picked.data["stones"])
        if (stones >= 7) != long:  # the level: a short sowing, or a long one that goes round
            return None
        view = rules.view(state, position.to_play)
        who = rules.seat_name(position.to_play)
        prompt = (
            f"{who} is to move and sows pit {picked.data['pit']}, which holds {stones} "
            f"stone{'s' if stones != 1 else ''}. Where does the last stone land?"
        )
        return Asked(position, prompt, str(move), _places(rules, view), f"{who}'s pit {picked.data['pit']}")

    return ask


def _mark_last_stone(rules: Rules[Any], asked: Asked, given: str | None) -> Marking:
    assert asked.action is not None
    events = events_of(rules, asked.position.state, asked.action)
    _, stones, last = _sown(events)
    place = str(last.data["index"])
    skips = [r for e in stones for r in e.reasons if e.data.get("skipped")]
    after = _after(events)
    reasons = _once([*last.reasons, *skips, *(r for e in after for r in e.reasons)])
    then = " ".join(e.text for e in after)
    where = next(c.label for c in asked.choices if c.value == place)
    answer = f"The last stone lands in {where}. {last.text}" + (f" Then: {then}" if then else "")
    said = ""
    deciding = reasons
    if given is not None and given != place:
        passed = any(str(e.data["index"]) == given for e in stones)
        said = (
            "A stone of this sowing falls there, but not the last one."
            if passed
            else "No stone of this sowing falls there."
        )
        deciding = _once([*last.reasons, *skips])
    return Marking((place,), answer, reasons, said, deciding, last)


def _ask_capture(rules: Rules[Any], rng: random.Random) -> Asked | None:
    position = play_to_position(rules, rng, 40)
    if position is None:
        return None
    state = position.state
    moves = rules.legal_actions(state)
    captures = [m for m in moves if any(e.kind is EventKind.CAPTURE for e in events_of(rules, state, m))]
    if not captures or len(captures) == len(moves):  # the level: some moves capture, some do not
        return None
    view = rules.view(state, position.to_play)
    who = rules.seat_name(position.to_play)
    choices = tuple(Choice(str(m), rules.describe_action(m, view)) for m in moves)
    more = " (more than one may)" if len(captures) > 1 else ""
    prompt = f"{who} is to move. Which move captures{more}?"
    return Asked(position, prompt, None, choices, f"{who}'s moves")


def _mark_capture(rules: Rules[Any], asked: Asked, given: str | None) -> Marking:
    state = asked.position.state
    told = {c.value: events_of(rules, state, c.value) for c in asked.choices}
    right = tuple(v for v, events in told.items() if any(e.kind is EventKind.CAPTURE for e in events))
    catches = [e for v in right for e in told[v] if e.kind is EventKind.CAPTURE]
    reasons = _once([r for e in catches for r in e.reasons])
    answer = " ".join(f"“{v}” captures: {e.text}" for v in right for e in told[v] if e.kind is EventKind.CAPTURE)
    said, deciding = "", reasons
    if given is not None and given not in right:
        events = told[given]
        _, _, last = _sown(events)
        after = _after(events)
        said = " ".join([last.text, *(e.text for e in after), "Nothing is captured."])
        rule = rules.rulebook["mk.capture"]
        deciding = _once([*last.reasons, *(r for e in after for r in e.reasons), Reason(rule.id, rule.text)])
    return Marking(right, answer.strip(), reasons, said, deciding)


KALAH_LAST_STONE = Puzzle("place", _last_stone_asker(long=False), _mark_last_stone)
KALAH_LONG_SOWING = Puzzle("place", _last_stone_asker(long=True), _mark_last_stone)
KALAH_CAPTURE = Puzzle("move", _ask_capture, _mark_capture)
