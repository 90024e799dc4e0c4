"""Hearts' panel beside the table: where this hand's cards are passed, whether hearts are broken,
and each player's points taken this hand, the score of each hand and the total (the display's
parts, this game's fields)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...display import esc, seat_badge, unreadable
from ...display.panels import DASH, score_table
from ..base import Rules, SeatView
from .rules import DIRECTION_WORDS, HeartsView


def points_taken(
    rules: Rules[Any],
    view: SeatView,
    *,
    four_colour: bool = False,
    board_intent: str | None = None,
    closed: Mapping[int, str] | None = None,
) -> str:
    if not isinstance(view, HeartsView):
        raise unreadable(view, HeartsView, "the points taken")
    rows = []
    for seat in range(rules.players):
        hands = " ".join(str(r[seat]) for r in view.round_scores) or DASH
        passed = "chosen" if view.passed[seat] else DASH
        rows.append(
            [seat_badge(rules, seat), passed, str(view.points[seat]), hands, f"<strong>{view.totals[seat]}</strong>"]
        )
    passing = "no pass" if not view.direction else f"pass {DIRECTION_WORDS[view.direction]}"
    broken = "hearts broken" if view.broken else "hearts not broken"
    title = f"Hand {view.round + 1}: {passing} · {broken}"
    table = score_table(["Player", "Pass", "Points", "Hands", "Total"], rows, label="Points taken and scores")
    return f'<section class="tl-panel tl-points-taken" aria-label="Points taken"><h4>{esc(title)}</h4>{table}</section>'
