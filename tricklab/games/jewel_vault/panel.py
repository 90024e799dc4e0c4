"""Jewel Vault's panels beside the table: the showrooms, vaults and cards won, and the suit
actions still owed. Each reads the view through a small protocol naming exactly the fields it
reads, and refuses a view without them by name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from ...cards import SUIT_SYMBOL
from ...display import esc, seat_badge, seat_colour, unreadable
from ...display.panels import DASH, Closed, score_table
from ...explain import plural
from ..base import Rules, SeatView


@runtime_checkable
class JewelsView(Protocol):
    """Each seat's side, each side's showroom and vault (``None``: hidden), tricks and cards
    won per seat (per suit ♠ ♥ ♦ ♣), the points (``None`` until scored), the round of how
    many, the jewels in supply and the number of cards announced for the pass."""

    @property
    def sides(self) -> Sequence[int]: ...

    @property
    def partnerships(self) -> bool: ...

    @property
    def showrooms(self) -> Sequence[int]: ...

    @property
    def vaults(self) -> Sequence[int | None]: ...

    @property
    def tricks_won(self) -> Sequence[int]: ...

    @property
    def won_counts(self) -> Sequence[Sequence[int]]: ...

    @property
    def scores(self) -> Sequence[int] | None: ...

    @property
    def round(self) -> int: ...

    @property
    def rounds(self) -> int: ...

    @property
    def supply(self) -> int: ...

    @property
    def announced(self) -> int | None: ...


class OwedAction(Protocol):
    """A suit action owed: the seat that takes it, the suit and why it is owed."""

    @property
    def seat(self) -> int: ...

    @property
    def suit(self) -> str: ...

    @property
    def cause(self) -> str: ...


@runtime_checkable
class OwedWords(Protocol):
    """Rules that say an owed suit action in words (Jewel Vault's ``describe_due``), and what
    each suit's action does (its ``action_legend``: symbol and words, for the table's legend)."""

    def describe_due(self, due: OwedAction) -> str: ...

    def action_legend(self) -> tuple[tuple[str, str], ...]: ...


@runtime_checkable
class ActionsOwedView(Protocol):
    """The suit actions owed and not yet taken, the current one first."""

    @property
    def pending(self) -> Sequence[OwedAction]: ...


_JV_SUITS = ("S", "H", "D", "C")


def jewels(
    rules: Rules[Any],
    view: SeatView,
    *,
    four_colour: bool = False,
    board_intent: str | None = None,
    closed: Closed = None,
) -> str:
    if not isinstance(view, JewelsView):
        raise unreadable(view, JewelsView, "the jewels")
    sides = sorted(set(view.sides))
    rows = []
    for side in sides:
        members = [s for s in range(rules.players) if view.sides[s] == side]
        vault = view.vaults[side]
        won = [sum(view.won_counts[s][i] for s in members) for i in range(4)]
        tricks = sum(view.tricks_won[s] for s in members)
        badges = " ".join(seat_badge(rules, s) for s in members)
        rows.append(
            [
                badges,
                str(view.showrooms[side]),
                "hidden" if vault is None else str(vault),
                str(tricks),
                " ".join(f"{SUIT_SYMBOL[x]}{won[i]}" for i, x in enumerate(_JV_SUITS)),
                DASH if view.scores is None else f"<strong>{view.scores[side]}</strong>",
            ]
        )
    table = score_table(
        ["Player" if not view.partnerships else "Partnership", "Showroom", "Vault", "Tricks", "Cards won", "Points"],
        rows,
        label="Showrooms, vaults and won cards",
    )
    notes = [f"Round {view.round + 1} of {view.rounds}", f"supply: {plural(view.supply, 'jewel')}"]
    if view.announced is not None:
        notes.append(f"everyone passes {view.announced} card{'s' if view.announced > 1 else ''}")
    legend = ""
    if isinstance(rules, OwedWords):  # what each suit's action does, always in sight
        items = "".join(
            f'<li><span class="tl-suit">{esc(sym)}</span> {esc(words)}</li>' for sym, words in rules.action_legend()
        )
        title = "What a suit action does: the player who earns it moves"
        legend = f'<div class="tl-legend"><h5>{title}</h5><ul>{items}</ul></div>'
    return f'<section class="tl-panel" aria-label="Jewels"><h4>{esc(" · ".join(notes))}</h4>{table}{legend}</section>'


def actions_owed(
    rules: Rules[Any],
    view: SeatView,
    *,
    four_colour: bool = False,
    board_intent: str | None = None,
    closed: Closed = None,
) -> str:
    if not isinstance(view, ActionsOwedView):
        raise unreadable(view, ActionsOwedView, "the actions owed")
    if not view.pending:
        return ""
    if isinstance(rules, OwedWords):  # the game's own words: what the action does, and why it is owed
        items = "".join(
            f'<li style="--tl-seat:{seat_colour(d.seat)}">{esc(rules.describe_due(d))}</li>' for d in view.pending
        )
    else:
        items = "".join(
            f"<li>{seat_badge(rules, d.seat)} {esc(SUIT_SYMBOL[d.suit])} action ({esc(d.cause)})</li>"
            for d in view.pending
        )
    return f'<section class="tl-panel" aria-label="Actions owed"><h4>Actions to take</h4><ul>{items}</ul></section>'
