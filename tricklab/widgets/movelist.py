"""MoveList: a match's move list beside a board; a click on a move jumps to its step."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from ..display.movelist import CURRENT, FOLD, movelist_html
from ..errors import InvalidOption, describe
from ..movelist import Outline
from .board import Board
from .inputs import check_flag

#: what a jump's value may be: a step's number, as the page sends it
_STEP = re.compile(r"[0-9]{1,9}")


class MoveList(w.VBox):  # type: ignore[misc]
    """The move list of an :class:`~tricklab.movelist.Outline` (:func:`tricklab.movelist.outline`),
    the move of the step shown marked, in a :class:`Board` of its own.

    It decides nothing: a click on a move calls the handlers given to :meth:`on_jump` with the
    move's first step, and the keys pressed in the list go to the handlers of :meth:`on_key`
    (the widget that shows the steps moves on, then calls :meth:`show`). Its fold button hides
    the moves, or shows them again. Any widget that steps through a match can show one beside
    its board; the replay's stepper, one anywidget, draws the same list
    (:func:`tricklab.display.movelist.movelist_html`) inside its own board instead.
    """

    def __init__(
        self, outline: Outline, *, step: int = 0, large: bool = False, folded: bool = False, title: str = "Moves"
    ) -> None:
        check_flag("large", large)
        check_flag("folded", folded)
        if not isinstance(title, str) or not title:
            raise InvalidOption(f"title is the list's heading in words, not {describe(title)}")
        self.board = Board()
        self.outline = _checked(outline)
        self.large = large
        self.folded = folded
        self.title = title
        self.step = -1
        self._focus = CURRENT  # where focus goes after a redraw, when the list had it
        self._jumps: list[Callable[[int], None]] = []
        self._keys: list[Callable[[str], None]] = []
        self.board.on_intent(self._intent)
        super().__init__([self.board])
        self.add_class("tricklab-movelist")
        self.show(step)

    def show(self, step: int, *, outline: Outline | None = None, large: bool | None = None) -> None:
        """Mark the move of ``step`` (of ``outline``, when the steps shown have changed: another
        seat's view), at projector size when ``large``."""
        if outline is not None:
            self.outline = _checked(outline)
        if large is not None:
            check_flag("large", large)
            self.large = large
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < self.outline.size:
            raise InvalidOption(f"step is a step's number, 0 to {self.outline.size - 1}, not {describe(step)}")
        self.step = step
        self._draw()

    def fold(self, folded: bool) -> None:
        """Hide the moves (``True``) or show them again."""
        check_flag("folded", folded)
        self.folded = folded
        self._focus = FOLD
        self._draw()
        self._focus = CURRENT

    def on_jump(self, handler: Callable[[int], None]) -> None:
        """Call ``handler(step)`` when a move (or a round) of the list is clicked."""
        if not callable(handler):
            raise InvalidOption(f"handler must be a function handler(step), not {describe(handler)}")
        self._jumps.append(handler)

    def on_key(self, handler: Callable[[str], None]) -> None:
        """Call ``handler(key)`` for a step key pressed in the list (``"ArrowRight"``, ``"PageUp"``...)."""
        if not callable(handler):
            raise InvalidOption(f"handler must be a function handler(key), not {describe(handler)}")
        self._keys.append(handler)

    def _intent(self, intent: str, value: str | None) -> None:
        if intent == "jump" and value is not None and _STEP.fullmatch(value):
            step = int(value)
            if step < self.outline.size:
                for jump in self._jumps:
                    jump(step)
        elif intent == "fold":
            self.fold(not self.folded)
        elif intent == "key" and value is not None:
            for key in self._keys:
                key(value)

    def _draw(self) -> None:
        here = self.outline.entry_at(self.step)
        self.board.scene = {
            "html": movelist_html(self.outline, self.step, folded=self.folded, large=self.large, title=self.title),
            "label": f"{self.title}: {here.label}",
            "step": self.step,
            "reveal": CURRENT,
            "focus": self._focus,
            "keys": list(KEYS),
            "kind": "list",
        }

    def __repr__(self) -> str:
        return f"MoveList(step={self.step}, moves={len(self.outline.entries)}, folded={self.folded})"


#: the keys a move list passes on, as the stepper takes them
KEYS = ("ArrowLeft", "ArrowRight", "Shift+ArrowLeft", "Shift+ArrowRight", "PageUp", "PageDown", "Home", "End")


def _checked(outline: Any) -> Outline:
    if not isinstance(outline, Outline):
        raise InvalidOption(f"outline must be a match's move list (tricklab.movelist.outline), not {describe(outline)}")
    return outline
