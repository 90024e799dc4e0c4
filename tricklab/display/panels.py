"""Each game's board beside the table, drawn by the panels the game declares.

A game declares which panels its view has (``Capabilities.panels``, in the order shown), each a
``Ref`` to a function in its own folder (``tricklab.games.<game>.panel``): ``(rules, view, *,
four_colour, board_intent, closed) -> str`` returning its markup, or ``""`` when it has nothing
to show yet. This module draws them in order and holds the parts they share (``score_table``,
``DASH``); it names no game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..cards import Card
from ..games.base import Rules, SeatView, Trick
from . import esc

DASH = "\u2013"  # an en dash: nothing yet

Closed = Mapping[int, str] | None
"""Places of the board that the decision at hand cannot use, each with the engine's reason
(the chambers a gem may not go into, say); the panel marks them."""


@runtime_checkable
class PodiumView(Protocol):
    """The last trick with its places, the place actions still to take (seat, place index;
    the current one first) and the trick so far: a podium panel's view, which the table widget
    also reads to offer the place actions."""

    @property
    def last_trick(self) -> Trick | None: ...

    @property
    def gem_queue(self) -> Sequence[tuple[int, int]]: ...

    @property
    def trick(self) -> Sequence[Card]: ...


def panel_html(
    rules: Rules[Any],
    view: SeatView,
    *,
    four_colour: bool = False,
    board_intent: str | None = None,
    closed: Closed = None,
) -> str:
    """The game's board: the panels its declaration names, in that order. With ``board_intent``,
    its places (a board's chambers, say) are buttons that send that intent with the place
    as value; the ``closed`` ones are marked with the reason they cannot be used now."""
    kinds = rules.capabilities.panels
    if not kinds:
        return ""
    parts = (
        ref.load()(rules, view, four_colour=four_colour, board_intent=board_intent, closed=closed) for ref in kinds
    )
    return f'<div class="tl-panels">{"".join(parts)}</div>'


def score_table(headers: list[str], rows: list[list[str]], *, label: str) -> str:
    """A panel's table: a header row of ``headers`` and ``rows`` of cells (markup), named ``label``."""
    head = "".join(f'<th scope="col">{h}</th>' for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return (
        f'<table class="tl-score-table" aria-label="{esc(label)}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )
