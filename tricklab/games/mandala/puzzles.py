"""Mandala's position puzzles (:mod:`tricklab.puzzles`): may this card go into this Mountain or
Field? Asked of a position reached by play, and marked from the engine's own answer: the move is
listed, or the engine's refusal says which rule stops it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

from ...actions import Action, ToField, ToMountain
from ...errors import IllegalAction
from ...explain import Reason
from ...puzzles import Asked, Choice, Marking, Puzzle, events_of, play_to_position
from ..base import Rules
from .rules import MandalaView

YES_NO = (Choice("yes", "Yes, it may"), Choice("no", "No, it may not"))


def _may_asker(kinds: tuple[str, ...]) -> Callable[[Rules[Any], random.Random], Asked | None]:
    def ask(rules: Rules[Any], rng: random.Random) -> Asked | None:
        position = play_to_position(rules, rng, 40, keep=lambda s: str(s.phase) == "play")
        if position is None:
            return None
        state = position.state
        seat = position.to_play
        hand = cast(MandalaView, rules.view(state, seat)).hands[seat] or {}  # a puzzle Mandala declares
        asked: list[Action] = []
        for m in (1, 2):
            for colour in hand:
                if "mountain" in kinds:
                    asked.append(ToMountain(m, colour))
                if "field" in kinds:
                    asked.append(ToField(m, colour, 1))
        listed = set(rules.legal_actions(state))
        wanted = rng.random() < 0.5  # as many questions answered yes as no
        pool = [a for a in asked if (a in listed) == wanted]
        if not pool:
            return None
        action = rng.choice(pool)
        who = rules.seat_name(seat)
        if isinstance(action, ToMountain):
            about = f"a {action.colour} card into the Mountain of Mandala {action.mandala}"
        else:
            assert isinstance(action, ToField)
            about = f"a {action.colour} card into {who}'s own Field of Mandala {action.mandala}"
        prompt = f"It is {who}'s turn. May {who} put {about}?"
        return Asked(position, prompt, str(action), YES_NO, about)

    return ask


def _mark_may(rules: Rules[Any], asked: Asked, given: str | None) -> Marking:
    assert asked.action is not None
    try:
        events = events_of(rules, asked.position.state, asked.action)
    except IllegalAction as refusal:  # the engine's refusal: its rule id and words
        reason = Reason(refusal.rule_id or "", _sentence(str(refusal)))
        return Marking(("no",), f"No: {reason.text}", (reason,), "", (reason,))
    first = events[0]
    return Marking(("yes",), f"Yes: {first.text}", first.reasons, "", first.reasons)


def _sentence(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."


MANDALA_MOUNTAIN = Puzzle("yes-no", _may_asker(("mountain",)), _mark_may)
MANDALA_FIELD = Puzzle("yes-no", _may_asker(("field",)), _mark_may)
MANDALA_ANYWHERE = Puzzle("yes-no", _may_asker(("mountain", "field")), _mark_may)
