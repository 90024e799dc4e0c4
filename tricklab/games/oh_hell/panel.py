"""Oh Hell's panel beside the table: the turned-up card, and each player's bid, tricks taken,
the points of each deal and the total (the display's parts, this game's fields)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...cards import SUIT_NAME, SUIT_SYMBOL
from ...display import cards_html, esc, seat_badge, unreadable
from ...display.panels import DASH, score_table
from ...explain import plural
from ..base import Rules, SeatView
from .rules import OhHellView


def bids_and_tricks(
    rules: Rules[Any],
    view: SeatView,
    *,
    four_colour: bool = False,
    board_intent: str | None = None,
    closed: Mapping[int, str] | None = None,
) -> str:
    if not isinstance(view, OhHellView):
        raise unreadable(view, OhHellView, "the bids and tricks")
    rows = []
    for seat in range(rules.players):
        bid = view.bids[seat]
        deals = " ".join(str(r[seat]) for r in view.round_scores) or DASH
        rows.append(
            [
                seat_badge(rules, seat),
                DASH if bid is None else str(bid),
                str(view.tricks_won[seat]),
                deals,
                f"<strong>{view.totals[seat]}</strong>",
            ]
        )
    turned = cards_html([view.turned], four_colour=four_colour, label=f"Turned up: {view.turned.name}")
    bids = sum(b for b in view.bids if b is not None)
    title = (
        f"Deal {view.round + 1}: {plural(view.cards, 'card')} each · trump {SUIT_NAME[view.trump]} "
        f"{SUIT_SYMBOL[view.trump]} · bids add up to {bids}"
    )
    table = score_table(["Player", "Bid", "Tricks", "Deals", "Total"], rows, label="Bids, tricks and scores")
    return (
        f'<section class="tl-panel tl-bids-and-tricks" aria-label="Bids and tricks"><h4>{esc(title)}</h4>'
        f"{turned}{table}</section>"
    )
