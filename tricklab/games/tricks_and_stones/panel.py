"""Tricks & Stones' panels beside the table: the chamber board (gems, prediction tokens, trump),
the podium (the last trick's places and the gem actions still to take) and the round scores.
Each reads the view through a small protocol naming exactly the fields it reads, and refuses a
view without them by name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from ...cards import SUIT_NAME, SUIT_SYMBOL
from ...display import PLACE_WORDS, PlaceAllowances, esc, seat_badge, seat_colour, unreadable
from ...display.panels import DASH, Closed, PodiumView, score_table
from ..base import Rules, SeatView


@runtime_checkable
class ChambersView(Protocol):
    """The chamber board: each seat's gems per chamber, the predictions (a token per chamber),
    the round, its trump and whether trumps are broken."""

    @property
    def board(self) -> Sequence[Sequence[int]]: ...

    @property
    def predictions(self) -> Sequence[int | None]: ...

    @property
    def round(self) -> int: ...

    @property
    def trump(self) -> str: ...

    @property
    def trump_broken(self) -> bool: ...


@runtime_checkable
class RoundScoresView(Protocol):
    """Predictions (``None``: hidden or not made; ``predicted``: made), tricks, gems in supply,
    the scores of each round and the totals, per seat."""

    @property
    def predictions(self) -> Sequence[int | None]: ...

    @property
    def predicted(self) -> Sequence[bool]: ...

    @property
    def tricks_won(self) -> Sequence[int]: ...

    @property
    def supply(self) -> Sequence[int]: ...

    @property
    def round_scores(self) -> Sequence[Sequence[int]]: ...

    @property
    def totals(self) -> Sequence[int]: ...


def chambers(
    rules: Rules[Any],
    view: SeatView,
    *,
    four_colour: bool = False,
    board_intent: str | None = None,
    closed: Closed = None,
) -> str:
    if not isinstance(view, ChambersView):
        raise unreadable(view, ChambersView, "the chamber board")
    n = rules.players
    chambers = []
    for c in range(6):
        gems = []
        spoken = []
        for seat in range(n):
            count = view.board[seat][c]
            if count:
                gems.append(
                    f'<span class="tl-gem" style="--tl-seat:{seat_colour(seat)}" title="{esc(rules.seat_name(seat))}">'
                    f"{seat + 1}</span>" * count
                )
                spoken.append(f"{rules.seat_name(seat)} {count} gem{'s' if count > 1 else ''}")
        tokens = []
        for seat in range(n):
            if view.predictions[seat] == c:
                tokens.append(f'<span class="tl-token" style="--tl-seat:{seat_colour(seat)}">⚑ {seat + 1}</span>')
                spoken.append(f"{rules.seat_name(seat)}'s expedition token")
        label = f"Chamber {c}: " + (", ".join(spoken) if spoken else "empty")
        shut = (closed or {}).get(c)
        note = ""
        if shut is not None:
            label += f". Closed now: {shut}"
            note = f'<span class="tl-closed-note" title="{esc(shut)}">closed</span>'
        inside = (
            f'<span class="tl-chamber-no">{c}</span>'
            f'<span class="tl-tokens">{"".join(tokens)}</span><span class="tl-gems">{"".join(gems)}</span>{note}'
        )
        if board_intent is not None:
            dis = ' aria-disabled="true"' if shut is not None else ""
            inside = (
                f'<button type="button" class="tl-chamber-button" data-intent="{esc(board_intent)}" '
                f'data-value="{c}" aria-label="{esc(label)}"{dis}>{inside}</button>'
            )
        chambers.append(f'<li class="tl-chamber" aria-label="{esc(label)}">{inside}</li>')
    trump = f"{SUIT_NAME[view.trump]} {SUIT_SYMBOL[view.trump]}"
    return (
        f'<section class="tl-panel tl-chambers" aria-label="Chamber board"><h4>Round {view.round + 1} · trump '
        f'{esc(trump)}{" (broken)" if view.trump_broken else ""}</h4><ol class="tl-chamber-row" start="0">'
        f"{''.join(chambers)}</ol></section>"
    )


def round_scores(
    rules: Rules[Any],
    view: SeatView,
    *,
    four_colour: bool = False,
    board_intent: str | None = None,
    closed: Closed = None,
) -> str:
    if not isinstance(view, RoundScoresView):
        raise unreadable(view, RoundScoresView, "the round scores")
    n = rules.players
    rows = []
    for seat in range(n):
        prediction = view.predictions[seat]
        shown = (
            "?" if prediction is None and view.predicted[seat] else (DASH if prediction is None else str(prediction))
        )
        rounds = " ".join(str(r[seat]) for r in view.round_scores) or DASH
        rows.append(
            [
                seat_badge(rules, seat),
                shown,
                str(view.tricks_won[seat]),
                str(view.supply[seat]),
                rounds,
                f"<strong>{view.totals[seat]}</strong>",
            ]
        )
    return score_table(
        ["Player", "Prediction", "Tricks", "Gems in supply", "Rounds", "Total"],
        rows,
        label="Predictions, tricks and scores",
    )


def podium(
    rules: Rules[Any],
    view: SeatView,
    *,
    four_colour: bool = False,
    board_intent: str | None = None,
    closed: Closed = None,
) -> str:
    if not isinstance(view, PodiumView):
        raise unreadable(view, PodiumView, "the podium")
    if not isinstance(rules, PlaceAllowances):
        raise unreadable(rules, PlaceAllowances, "the podium")
    last = view.last_trick
    if last is None or last.places is None or not (view.gem_queue or not view.trick):
        return ""
    items = []
    for place, seat in enumerate(last.places):
        card = last.cards[last.seats.index(seat)]  # a seat plays once to a trick with places
        waiting = any(s == seat for s, _ in view.gem_queue) and rules.gem_allowance(place) != (0, 0)
        status = " (acting now)" if view.gem_queue and view.gem_queue[0][0] == seat else ""
        status = status or (" (to act)" if waiting else "")
        items.append(
            f"<li>{PLACE_WORDS[place]}: {seat_badge(rules, seat)} {esc(card.pretty)} — "
            f"{esc(rules.describe_allowance(place))}{esc(status)}</li>"
        )
    return (
        f'<section class="tl-panel tl-podium" aria-label="Podium of the last trick"><h4>Last trick: places and '
        f"gem actions</h4><ol>{''.join(items)}</ol></section>"
    )
