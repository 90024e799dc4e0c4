"""The boards of the games played without a card table, drawn in the table's place.

A game that is not played in tricks declares its board (``Capabilities.board``, a
:class:`~tricklab.games.capabilities.BoardKind`); :func:`~tricklab.display.view_html` then
draws that board instead of seats, hands and a trick. Each board is a function
``(rules, view, *, actions, intent, event) -> str``:

* ``actions`` are the moves the viewer may make now: with ``intent``, each is drawn where it
  is made (Kalah: the pit it sows) as a button sending ``(intent, str(action))``, labelled with
  the game's own words for it (``rules.describe_action``), so a board never decides what is legal;
* ``event`` is the step of a timeline the view belongs to (a stone sown, a colour claimed):
  the board marks the place it names.

Like the panels, each board reads its view through a small protocol naming exactly the
fields it reads, and refuses a view without them by name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..actions import Action, Claim, Discard, Sow, ToField, ToMountain
from ..cards import COLOURS
from ..explain import plural
from ..games.base import Event, Rules, SeatView
from ..games.capabilities import BoardKind
from . import esc, seat_badge, seat_colour, unreadable


class Board(Protocol):
    """A board: its markup for a game's rules and a seat's view."""

    def __call__(
        self,
        rules: Rules[Any],
        view: SeatView,
        *,
        actions: Sequence[Action] = ...,
        intent: str | None = ...,
        event: Event | None = ...,
    ) -> str: ...


BOARDS: dict[BoardKind, Board] = {}


def board(kind: BoardKind) -> Callable[[Board], Board]:
    def register(fn: Board) -> Board:
        BOARDS[kind] = fn
        return fn

    return register


def board_html(
    rules: Rules[Any],
    view: SeatView,
    *,
    actions: Sequence[Action] = (),
    intent: str | None = None,
    event: Event | None = None,
) -> str:
    """The game's declared board for ``view`` (``""`` for a game played at a card table)."""
    kind = rules.capabilities.board
    if kind is None:
        return ""
    return BOARDS[kind](rules, view, actions=actions, intent=intent, event=event)


def _button(intent: str, action: Action, text: str, label: str, classes: str = "") -> str:
    return (
        f'<button type="button" class="tl-move {classes}" data-intent="{esc(intent)}" '
        f'data-value="{esc(action)}" aria-label="{esc(label)}">{text}</button>'
    )


def _event_index(event: Event | None) -> int | None:
    """The board place a step names (``event.data["index"]``), if any."""
    index = event.data.get("index") if event is not None else None
    return index if isinstance(index, int) and not isinstance(index, bool) else None


# --- Kalah: two rows of pits and two stores ------------------------------------------------------------


@runtime_checkable
class PitsView(Protocol):
    """What the Kalah board reads: 14 counts (seat 0's pits 1-6, its store, seat 1's pits 1-6,
    its store), who moves, which seat looks, and the stones in the mover's hand mid-sowing."""

    @property
    def seat(self) -> int | None: ...

    @property
    def to_play(self) -> int | None: ...

    @property
    def pits(self) -> Sequence[int]: ...

    @property
    def lifted(self) -> int: ...


_ROW = 7  # places a side: six pits and the store
_DRAWN = 24  # stones drawn one by one; more are shown as their count only


def _stones_svg(count: int) -> str:
    """Up to ``_DRAWN`` stones as dots on a grid, the count beside them for the rest (none: nothing)."""
    shown = min(count, _DRAWN)
    if not shown:  # an empty place shows its 0 alone, centred
        return ""
    cols = 4 if shown > 9 else 3
    rows = -(-shown // cols)
    dots = []
    for k in range(shown):
        row, col = divmod(k, cols)
        short = cols - min(cols, shown - row * cols)  # a row that is not full is centred
        dots.append(f'<circle cx="{6 + col * 10 + short * 5}" cy="{6 + row * 10}" r="4"/>')
    return (
        f'<svg class="tl-stones" viewBox="0 0 {cols * 10 + 2} {rows * 10 + 2}" aria-hidden="true" '
        f'focusable="false">{"".join(dots)}</svg>'
    )


def _place(
    rules: Rules[Any],
    index: int,
    count: int,
    *,
    store: bool,
    move: Action | None,
    intent: str | None,
    view: SeatView,
    marked: bool,
) -> str:
    owner = index // _ROW
    name = rules.seat_name(owner)
    what = f"{name}'s store" if store else f"{name}'s pit {index % _ROW + 1}"
    said = f"{what}: {plural(count, 'stone')}"
    body = f'<span class="tl-count-n">{count}</span>{_stones_svg(count)}'
    head = "store" if store else str(index % _ROW + 1)
    body = f'<span class="tl-pit-n" aria-hidden="true">{head}</span>' + body
    classes = ("tl-store" if store else "tl-pit") + (" tl-marked" if marked else "")
    style = f' style="--tl-seat:{seat_colour(owner)}"'
    if move is not None and intent is not None:
        label = f"{said}. {rules.describe_action(move, view)}"
        return (
            f'<button type="button" class="{classes} tl-move tl-legal"{style} data-intent="{esc(intent)}" '
            f'data-value="{esc(move)}" aria-label="{esc(label)}">{body}</button>'
        )
    return f'<div class="{classes}"{style} role="img" aria-label="{esc(said)}">{body}</div>'


@board(BoardKind.PITS)
def pits(
    rules: Rules[Any],
    view: SeatView,
    *,
    actions: Sequence[Action] = (),
    intent: str | None = None,
    event: Event | None = None,
) -> str:
    """Kalah's board as the viewer sits at it: their pits along the bottom, sown left to right
    into their store on the right; the other side's along the top, from right to left."""
    if not isinstance(view, PitsView):
        raise unreadable(view, PitsView, "the Kalah board")
    me = view.seat if view.seat is not None else 0
    other = 1 - me
    moves = {a.pit: a for a in actions if isinstance(a, Sow)}
    mark = _event_index(event)

    def place(index: int, *, mine: bool) -> str:
        store = index % _ROW == _ROW - 1
        move = moves.get(index % _ROW + 1) if mine and not store and view.to_play == me else None
        return _place(
            rules,
            index,
            view.pits[index],
            store=store,
            move=move,
            intent=intent,
            view=view,
            marked=index == mark,
        )

    top = "".join(place(other * _ROW + k, mine=False) for k in reversed(range(_ROW - 1)))
    bottom = "".join(place(me * _ROW + k, mine=True) for k in range(_ROW - 1))
    lifted = view.lifted  # stones still in the mover's hand, mid-sowing
    heads = []
    for seat in (other, me):
        turn = ' <span class="tl-mark tl-turn">to move</span>' if view.to_play == seat else ""
        if lifted and view.to_play == seat:
            turn += f' <span class="tl-mark tl-lifted">{esc(plural(lifted, "stone"))} in hand</span>'
        heads.append(f'<p class="tl-side" style="--tl-seat:{seat_colour(seat)}">{seat_badge(rules, seat)}{turn}</p>')
    return (
        f'<section class="tl-board tl-kalah" aria-label="Kalah board">{heads[0]}'
        f'<div class="tl-kalah-grid">{place(other * _ROW + _ROW - 1, mine=False)}'
        f'<div class="tl-row tl-row-top" role="group" aria-label="{esc(rules.seat_name(other))}\'s pits">{top}</div>'
        f'<div class="tl-row tl-row-bottom" role="group" aria-label="{esc(rules.seat_name(me))}\'s pits">'
        f"{bottom}</div>{place(me * _ROW + _ROW - 1, mine=True)}</div>{heads[1]}</section>"
    )


# --- Mandala: two Mandalas, the hands, the Rivers and the Cups ------------------------------------------


class AreaView(Protocol):
    """One Mandala: its Mountain and one Field per seat, each as colour -> cards."""

    @property
    def mountain(self) -> Mapping[str, int]: ...

    @property
    def fields(self) -> Sequence[Mapping[str, int]]: ...


@runtime_checkable
class MandalasView(Protocol):
    """What the Mandala board reads of a seat's view."""

    @property
    def seat(self) -> int | None: ...

    @property
    def to_play(self) -> int | None: ...

    @property
    def hands(self) -> Sequence[Mapping[str, int] | None]: ...

    @property
    def hand_sizes(self) -> Sequence[int]: ...

    @property
    def mandalas(self) -> Sequence[AreaView]: ...

    @property
    def rivers(self) -> Sequence[Sequence[str]]: ...

    @property
    def cups(self) -> Sequence[Mapping[str, int] | None]: ...

    @property
    def cup_sizes(self) -> Sequence[int]: ...

    @property
    def deck_size(self) -> int: ...

    @property
    def discards(self) -> Mapping[str, int]: ...

    @property
    def claiming(self) -> int | None: ...

    @property
    def scores(self) -> Sequence[int] | None: ...


def _chip(colour: str, count: int | None = None, *, extra: str = "") -> str:
    said = colour if count is None else f"{count} {colour}"
    shown = esc(colour) if count is None else f"{count}\u00d7 {esc(colour)}"
    return f'<span class="tl-chip tl-colour-{esc(colour)}" aria-label="{esc(said)}{esc(extra)}">{shown}</span>'


def _chips(cards: Mapping[str, int], empty: str = "empty") -> str:
    shown = [_chip(c, cards[c]) for c in COLOURS if cards.get(c)]
    return "".join(shown) if shown else f'<span class="tl-empty">{esc(empty)}</span>'


def _area(title: str, cards: Mapping[str, int], seat: int | None = None) -> str:
    style = f' style="--tl-seat:{seat_colour(seat)}"' if seat is not None else ""
    return (
        f'<div class="tl-area"{style} role="group" aria-label="{esc(title)}"><h5>{esc(title)}</h5>'
        f'<div class="tl-chips">{_chips(cards)}</div></div>'
    )


def _mandala_moves(
    rules: Rules[Any], view: SeatView, actions: Sequence[Action], intent: str, hand: Mapping[str, int]
) -> str:
    """The moves of the turn, one row per colour of the hand, headed by the cards of that colour
    in ``hand`` (so the hand is in sight where the moves are); claims: one row."""
    rows: dict[str, list[str]] = defaultdict(list)
    claims = []
    for a in actions:
        label = rules.describe_action(a, view)
        if isinstance(a, ToMountain):
            rows[a.colour].append(_button(intent, a, f"Mountain {a.mandala}", label))
        elif isinstance(a, ToField):
            rows[a.colour].append(_button(intent, a, f"Your Field {a.mandala}: {esc(plural(a.count, 'card'))}", label))
        elif isinstance(a, Discard):
            rows[a.colour].append(_button(intent, a, f"Discard {esc(plural(a.count, 'card'))}", label))
        elif isinstance(a, Claim):
            claims.append(_button(intent, a, f"{_chip(a.colour)}", label, "tl-claim"))
    parts = []
    if claims:
        parts.append(
            f'<div class="tl-move-row" role="group" aria-label="Claim a colour">'
            f'<span class="tl-move-buttons">{"".join(claims)}</span></div>'
        )
    for colour in COLOURS:
        if rows[colour]:
            parts.append(
                f'<div class="tl-move-row" role="group" aria-label="Moves with {esc(colour)}">'
                f"{_chip(colour, hand.get(colour) or None)}"
                f'<span class="tl-move-buttons">{"".join(rows[colour])}</span></div>'
            )
    return f'<div class="tl-moves">{"".join(parts)}</div>' if parts else ""


@board(BoardKind.MANDALAS)
def mandalas(
    rules: Rules[Any],
    view: SeatView,
    *,
    actions: Sequence[Action] = (),
    intent: str | None = None,
    event: Event | None = None,
) -> str:
    """Both Mandalas (the other player's Field above each Mountain, the viewer's below), then
    each player's hand, River (spaces 1 to 6, each worth its number) and Cup (face down)."""
    if not isinstance(view, MandalasView):
        raise unreadable(view, MandalasView, "the Mandalas")
    me = view.seat if view.seat is not None else 0
    other = 1 - me
    areas = []
    for number, area in enumerate(view.mandalas, start=1):
        claimed = " tl-claiming" if view.claiming == number else ""
        note = " (being shared out)" if view.claiming == number else ""
        areas.append(
            f'<section class="tl-mandala{claimed}" aria-label="Mandala {number}{note}">'
            f"<h4>Mandala {number}{esc(note)}</h4>"
            + _area(f"{rules.seat_name(other)}'s Field", area.fields[other], other)
            + _area("Mountain", area.mountain)
            + _area(f"{rules.seat_name(me)}'s Field", area.fields[me], me)
            + "</section>"
        )
    players = []
    for seat in (me, other):
        hand = view.hands[seat]
        size = view.hand_sizes[seat]
        shown = (
            _chips(hand, "no cards")
            if hand is not None
            else f'<span class="tl-empty">{esc(plural(size, "card"))}, face down</span>'
        )
        river = view.rivers[seat]
        spaces = "".join(
            f'<li aria-label="space {k + 1}: '
            f'{esc(river[k]) if k < len(river) else "empty"}">'
            f'<span class="tl-space-n">{k + 1}</span>{_chip(river[k]) if k < len(river) else ""}</li>'
            for k in range(6)
        )
        cup = view.cups[seat]
        cup_text = (
            _chips(cup, "empty")
            if cup is not None
            else f'<span class="tl-empty">{esc(plural(view.cup_sizes[seat], "card"))}, face down</span>'
        )
        if cup is not None and seat == view.seat and view.scores is None:  # MD-4: one's own, face down
            cup_text += '<span class="tl-empty"> face down: only you see it</span>'

        score = f" · {plural(view.scores[seat], 'point')}" if view.scores is not None else ""
        turn = ' <span class="tl-mark tl-turn">to play</span>' if view.to_play == seat else ""
        players.append(
            f'<section class="tl-player" style="--tl-seat:{seat_colour(seat)}" '
            f'aria-label="{esc(rules.seat_name(seat))}"><header>{seat_badge(rules, seat)}{turn}{esc(score)}</header>'
            f'<p class="tl-line"><span class="tl-what">Hand ({esc(plural(size, "card"))})</span>{shown}</p>'
            f'<div class="tl-line"><span class="tl-what">River</span><ol class="tl-river">{spaces}</ol></div>'
            f'<p class="tl-line"><span class="tl-what">Cup</span>{cup_text}</p></section>'
        )
    discards = sum(view.discards.values())
    pile = f"Draw pile: {plural(view.deck_size, 'card')} · discard pile: {plural(discards, 'card')}"
    mover = view.to_play if view.to_play is not None else me
    moves = _mandala_moves(rules, view, actions, intent, view.hands[mover] or {}) if intent and actions else ""
    return (
        f'<section class="tl-board tl-mandala-board" aria-label="Mandala table">'
        f'<div class="tl-mandalas">{"".join(areas)}</div>{moves}'
        f'<div class="tl-players">{"".join(players)}</div><p class="tl-pile">{esc(pile)}</p></section>'
    )
