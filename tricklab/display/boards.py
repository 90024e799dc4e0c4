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
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..actions import Action, Claim, Discard, Sow, ToField, ToMountain
from ..cards import COLOURS
from ..explain import Reason, plural
from ..games.base import Event, Rules, SeatView
from ..games.capabilities import BoardKind
from . import esc, palette, rule_id_html, seat_badge, seat_colour, unreadable


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
        picking: Picking | None = ...,
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
    picking: Picking | None = None,
) -> str:
    """The game's declared board for ``view`` (``""`` for a game played at a card table)."""
    kind = rules.capabilities.board
    if kind is None:
        return ""
    return BOARDS[kind](rules, view, actions=actions, intent=intent, event=event, picking=picking)


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
    width, height = cols * 10 + 2, rows * 10 + 2  # its own size and colour, for a page without the stylesheet
    return (
        f'<svg class="tl-stones" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'fill="{palette("face-line")}" aria-hidden="true" focusable="false">{"".join(dots)}</svg>'
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
    style = f' style="--tl-seat:{seat_colour(owner)}" data-index="{index}"'
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
    picking: Picking | None = None,
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


#: the places a card of the hand may go on the Mandala board (what a place button sends)
MANDALA_PLACES = ("mountain-1", "field-1", "mountain-2", "field-2", "discard")


def mandala_place(action: Action) -> str | None:
    """The board place an action puts cards into (``"mountain-1"``, ``"field-2"``, ``"discard"``),
    ``None`` for a claim or an action of another game."""
    if isinstance(action, ToMountain):
        return f"mountain-{action.mandala}"
    if isinstance(action, ToField):
        return f"field-{action.mandala}"
    if isinstance(action, Discard):
        return "discard"
    return None


def one_card(place: str, colour: str) -> Action:
    """The move of one ``colour`` card into ``place`` (one of :data:`MANDALA_PLACES`): what the
    engine is asked about when a place is chosen, so that its refusal says why."""
    kind, _, number = place.partition("-")
    if kind == "mountain":
        return ToMountain(int(number), colour)
    if kind == "field":
        return ToField(int(number), colour, 1)
    return Discard(colour, 1)


@dataclass(frozen=True, slots=True)
class Picking:
    """A Mandala turn made on the board: a card of the hand first, then a place.

    ``colour`` is the colour picked in the hand (``None``: nothing yet); ``refused`` maps each
    place the picked colour may not go to the engine's reason (:meth:`Rules.refusal`, spoken to
    the learner); ``place`` is the place chosen when it takes a number of cards (the moves of
    ``actions`` into it are then offered as numbers); ``why`` is the reason shown after a refused
    place was chosen. The board draws from these what the widget holds; it decides nothing.
    """

    colour: str | None = None
    refused: Mapping[str, str] = field(default_factory=dict)
    place: str | None = None
    why: Reason | None = None
    card_intent: str = "md-card"
    place_intent: str = "md-place"


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


def _place_area(title: str, said: str, chips: str, place: str, picking: Picking, seat: int | None) -> str:
    """An area the picked card may be put into (lit), or may not (dimmed, still focusable: choosing
    it says why); its title and its cards (``chips``) on the button."""
    style = f' style="--tl-seat:{seat_colour(seat)}"' if seat is not None else ""
    colour = picking.colour or ""
    chosen = " tl-chosen" if picking.place == place else ""
    if place in picking.refused:
        state = ' aria-disabled="true"'
        classes = "tl-shut"
        label = f"{said}: {colour} may not go here. Choose it to hear why."
    else:
        state = ""
        classes = "tl-open"
        label = f"{said}: put {colour} here"
    return (
        f'<button type="button" class="tl-area tl-place {classes}{chosen}"{style} '
        f'data-intent="{esc(picking.place_intent)}" data-value="{esc(place)}"{state} aria-label="{esc(label)}">'
        f'<span class="tl-area-title">{esc(title)}</span><span class="tl-chips">{chips}</span></button>'
    )


def _hand_cards(hand: Mapping[str, int], picking: Picking) -> str:
    """The learner's hand as cards to pick, one button per colour."""
    buttons = []
    for colour in COLOURS:
        n = hand.get(colour, 0)
        if not n:
            continue
        picked = picking.colour == colour
        buttons.append(
            f'<button type="button" class="tl-chip tl-colour-{esc(colour)} tl-pick-card" '
            f'data-intent="{esc(picking.card_intent)}" data-value="{esc(colour)}" aria-pressed="{str(picked).lower()}" '
            f'aria-label="{esc(colour)}, {esc(plural(n, "card"))} in your hand">{n}\u00d7 {esc(colour)}</button>'
        )
    return "".join(buttons) or '<span class="tl-empty">no cards</span>'


def _place_words(place: str) -> str:
    kind, _, number = place.partition("-")
    if kind == "mountain":
        return f"the Mountain of Mandala {number}"
    if kind == "field":
        return f"your Field of Mandala {number}"
    return "the discard pile"


def _picking_bar(
    rules: Rules[Any],
    view: SeatView,
    actions: Sequence[Action],
    intent: str,
    picking: Picking,
    discards: int,
) -> str:
    """What to do next, under the Mandalas: pick a card, then a lit place (or the discard pile,
    drawn here); the numbers of cards when the place takes several; why a place was refused."""
    colour = picking.colour
    parts = []
    if colour is None:
        parts.append(
            '<p class="tl-pick-say">Tap a card in your hand, then a lit place: a Mountain, your own Field, '
            "or the discard pile.</p>"
        )
    elif picking.place is not None:
        counts = [a for a in actions if mandala_place(a) == picking.place and getattr(a, "colour", None) == colour]
        buttons = "".join(
            _button(intent, a, esc(plural(getattr(a, "count", 1), "card")), rules.describe_action(a, view))
            for a in counts
        )
        where = _place_words(picking.place)
        parts.append(
            f'<p class="tl-pick-say">How many {esc(colour)} cards into {esc(where)}?</p>'
            f'<div class="tl-move-buttons tl-counts" role="group" aria-label="How many cards">{buttons}</div>'
        )
    else:
        parts.append(
            f'<p class="tl-pick-say">{_chip(colour)} Now tap where it goes: a lit place on a Mandala, '
            "or the discard pile. Tap the card again to put it back.</p>"
        )
    if colour is not None:
        pile = f'<span class="tl-empty">{esc(plural(discards, "card"))}</span>'
        said = f"The discard pile ({plural(discards, 'card')}); you draw as many as you discard"
        parts.append(
            f'<div class="tl-discard-place">{_place_area("Discard pile", said, pile, "discard", picking, None)}</div>'
        )
    if picking.why is not None:
        why = picking.why
        title = rules.rulebook[why.rule_id].title if why.rule_id in rules.rulebook else ""
        named = f"<strong>{esc(title)}:</strong> " if title else ""
        parts.append(
            f'<p class="tl-message tl-why-not" role="alert" data-rule="{esc(why.rule_id)}">Not there. '
            f"{named}{esc(why.text)} {rule_id_html(why.rule_id)}</p>"
        )
    return f'<div class="tl-moves tl-pick-bar" role="group" aria-label="Your move">{"".join(parts)}</div>'


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
    picking: Picking | None = None,
) -> str:
    """Both Mandalas (the other player's Field above each Mountain, the viewer's below), then
    each player's hand, River (spaces 1 to 6, each worth its number) and Cup (face down).

    With ``intent`` and ``actions`` the moves are buttons: a list of them under the Mandalas, or,
    with ``picking``, on the board itself: the hand's cards to pick, then the places the picked
    card may go lit and the places it may not dimmed (choosing one says why), and a claim's
    colours in the Mountain being shared out."""
    if not isinstance(view, MandalasView):
        raise unreadable(view, MandalasView, "the Mandalas")
    me = view.seat if view.seat is not None else 0
    other = 1 - me
    on_board = picking is not None and intent is not None and bool(actions)
    turn = on_board and any(mandala_place(a) for a in actions)
    claims = {a.colour: a for a in actions if isinstance(a, Claim)} if on_board else {}
    placing = picking if turn and picking is not None and picking.colour is not None else None
    areas = []
    for number, area in enumerate(view.mandalas, start=1):
        claimed = " tl-claiming" if view.claiming == number else ""
        note = " (being shared out)" if view.claiming == number else ""
        mine = f"{rules.seat_name(me)}'s Field"
        if placing is not None:
            mountain = _place_area(
                "Mountain",
                f"The Mountain of Mandala {number}",
                _chips(area.mountain),
                f"mountain-{number}",
                placing,
                None,
            )
            field_ = _place_area(
                mine, f"Your Field of Mandala {number}", _chips(area.fields[me]), f"field-{number}", placing, me
            )
        elif claims and view.claiming == number and intent is not None:
            mountain = _claim_area(rules, view, area.mountain, claims, intent)
            field_ = _area(mine, area.fields[me], me)
        else:
            mountain = _area("Mountain", area.mountain)
            field_ = _area(mine, area.fields[me], me)
        areas.append(
            f'<section class="tl-mandala{claimed}" aria-label="Mandala {number}{note}">'
            f"<h4>Mandala {number}{esc(note)}</h4>"
            + _area(f"{rules.seat_name(other)}'s Field", area.fields[other], other)
            + mountain
            + field_
            + "</section>"
        )
    players = []
    for seat in (me, other):
        hand = view.hands[seat]
        size = view.hand_sizes[seat]
        if turn and picking is not None and seat == me and hand is not None:
            shown = _hand_cards(hand, picking)
        elif hand is not None:
            shown = _chips(hand, "no cards")
        else:
            shown = f'<span class="tl-empty">{esc(plural(size, "card"))}, face down</span>'
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
        to_play = ' <span class="tl-mark tl-turn">to play</span>' if view.to_play == seat else ""
        hand_line = "div" if turn and seat == me else "p"
        players.append(
            f'<section class="tl-player" style="--tl-seat:{seat_colour(seat)}" '
            f'aria-label="{esc(rules.seat_name(seat))}"><header>{seat_badge(rules, seat)}{to_play}{esc(score)}</header>'
            f'<{hand_line} class="tl-line tl-hand"><span class="tl-what">Hand ({esc(plural(size, "card"))})</span>'
            f"{shown}</{hand_line}>"
            f'<div class="tl-line"><span class="tl-what">River</span><ol class="tl-river">{spaces}</ol></div>'
            f'<p class="tl-line"><span class="tl-what">Cup</span>{cup_text}</p></section>'
        )
    discards = sum(view.discards.values())
    pile = f"Draw pile: {plural(view.deck_size, 'card')} · discard pile: {plural(discards, 'card')}"
    if turn and picking is not None and intent is not None:
        moves = _picking_bar(rules, view, actions, intent, picking, discards)
    elif claims:
        moves = (
            f'<div class="tl-moves tl-pick-bar" role="group" aria-label="Your move"><p class="tl-pick-say">'
            f"Mandala {view.claiming} is complete: tap a colour of its Mountain to claim it.</p></div>"
        )
    elif intent and actions:
        mover = view.to_play if view.to_play is not None else me
        moves = _mandala_moves(rules, view, actions, intent, view.hands[mover] or {})
    else:
        moves = ""
    return (
        f'<section class="tl-board tl-mandala-board" aria-label="Mandala table">'
        f'<div class="tl-mandalas">{"".join(areas)}</div>{moves}'
        f'<div class="tl-players">{"".join(players)}</div><p class="tl-pile">{esc(pile)}</p></section>'
    )


def _claim_area(
    rules: Rules[Any], view: SeatView, mountain: Mapping[str, int], claims: Mapping[str, Action], intent: str
) -> str:
    """The Mountain being shared out, each of its colours a button claiming it."""
    buttons = "".join(
        _button(intent, claims[c], _chip(c, mountain[c]), rules.describe_action(claims[c], view), "tl-claim")
        for c in COLOURS
        if c in claims and mountain.get(c)
    )
    return (
        f'<div class="tl-area tl-claim-area" role="group" aria-label="Mountain: claim a colour"><h5>Mountain</h5>'
        f'<div class="tl-chips">{buttons}</div></div>'
    )
