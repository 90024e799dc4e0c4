"""The one anywidget of tricklab: a board that shows a scene and reports intents."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as w
import traitlets

from ..display import STATIC as DISPLAY_STATIC

STATIC = Path(__file__).resolve().parent / "static"

Intent = Callable[[str, str | None], None]

#: the front end's "are you there?": answered by the Board itself, never passed to handlers
PING = "ping"
#: what a ping may carry: the page's count of pings, echoed back in the pong
_PING_VALUE = re.compile(r"[0-9]{1,12}")


class Board(anywidget.AnyWidget):
    """Shows ``scene["html"]`` (markup from :mod:`tricklab.display`) and sends back intents.

    The scene is a small JSON object: ``html``, ``label`` (ARIA label), ``large``
    (projector mode), ``step``, ``data`` (scalar facts set as ``data-*`` attributes),
    ``announce`` (the latest event in words, put in one live region kept outside the
    redrawn markup, so screen readers say it once) and ``focus`` (a CSS selector: where focus
    goes after the redraw, when the board had it, e.g. the next card to play).
    Clicks on elements with ``data-intent`` and the keys ←/→/Home/End arrive as
    ``(intent, value)`` calls of the handlers given to :meth:`on_intent`; the front end
    decides nothing.

    After a click or key anywhere on the page the front end sends ``("ping", n)`` and waits
    a few seconds for the custom message ``{"pong": n}``; without it the page says that the
    connection is lost. The Board answers pings itself, so no handler ever sees one.
    """

    _esm = STATIC / "board.js"
    _css = DISPLAY_STATIC / "tricklab.css"
    scene = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._handlers: list[Intent] = []
        self.on_msg(self._on_message)

    def on_intent(self, handler: Intent) -> None:
        self._handlers.append(handler)

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        if not isinstance(content, dict):
            return
        intent = content.get("intent")
        value = content.get("value")
        if not isinstance(intent, str) or not (value is None or isinstance(value, str)):
            return
        self.intent(intent, value)

    def intent(self, intent: str, value: str | None = None) -> None:
        """Handle an intent as if the front end had sent it (used by tests and keys)."""
        if intent == PING:
            self._pong(value)
            return
        for handler in self._handlers:
            handler(intent, value)

    def _pong(self, value: str | None) -> None:
        """Answer a ping, echoing its number; anything else in a ping is not echoed back."""
        if value is not None and _PING_VALUE.fullmatch(value):
            self.send({"pong": value})

    def __repr__(self) -> str:
        return f"Board(label={self.scene.get('label', '')!r})"


class LookToggles(w.HBox):  # type: ignore[misc]
    """Two toggles every widget offers: projector size and the four-colour deck."""

    def __init__(self, *, large: bool, four_colour: bool, on_change: Callable[[], None]) -> None:
        self.large = w.ToggleButton(
            value=large, description="Large", tooltip="projector size", layout=w.Layout(width="80px")
        )
        self.four_colour = w.ToggleButton(
            value=four_colour,
            description="4 colours",
            tooltip="four-colour deck: ♦ blue, ♣ green",
            layout=w.Layout(width="96px"),
        )
        self.large.observe(lambda _: on_change(), "value")
        self.four_colour.observe(lambda _: on_change(), "value")
        super().__init__([self.large, self.four_colour])
