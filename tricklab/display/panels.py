"""Each game's board beside the table: a registry of panel functions by panel kind.

A game declares which panels its view has (``Capabilities.panels``, in the order shown): the
display's own by :class:`PanelKind`, or a panel of its own, in its folder, by a ``Ref``;
each panel is a function ``(rules, view, *, four_colour, board_intent) -> str`` returning
its markup, or ``""`` when it has nothing to show yet.

Each panel reads the view through a small protocol of its own (``ChambersView``,
``JewelsView``, ...) naming exactly the fields it reads, and checks the view against it
before drawing: the fields are typed, and a view without them is refused by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..actions import Bid
from ..cards import SUIT_NAME, SUIT_SYMBOL, Card
from ..explain import plural
from ..games.base import Rules, SeatView, Trick
from ..games.capabilities import Panel, PanelKind
from . import PLACE_WORDS, PlaceAllowances, esc, seat_badge, seat_colour, unreadable

DASH = "\u2013"  # an en dash: nothing yet

Closed = Mapping[int, str] | None
"""Places of the board that the decision at hand cannot use, each with the engine's reason
(Tricks & Stones: the chambers a Place may not go into); the panel marks them."""


PANELS: dict[PanelKind, Panel] = {}


# --- what each panel reads of a view ----------------------------------------------------------------


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


@runtime_checkable
class PodiumView(Protocol):
    """The last trick with its places, the place actions still to take (seat, place index;
    the current one first) and the trick so far."""

    @property
    def last_trick(self) -> Trick | None: ...

    @property
    def gem_queue(self) -> Sequence[tuple[int, int]]: ...

    @property
    def trick(self) -> Sequence[Card]: ...


@runtime_checkable
class BidsAndWinsView(Protocol):
    """Each seat's bid (``None``: not made yet) and its wins per suit (Rock, Soul, Pops, then
    Metal wins counted for no suit), the scores of each deal, the totals, which deal of how
    many it is and the suit to follow."""

    @property
    def bids(self) -> Sequence[Bid | None]: ...

    @property
    def won(self) -> Sequence[Sequence[int]]: ...

    @property
    def deal_scores(self) -> Sequence[Sequence[int]]: ...

    @property
    def totals(self) -> Sequence[int]: ...

    @property
    def deal(self) -> int: ...

    @property
    def deals(self) -> int: ...

    @property
    def extra_deal(self) -> bool: ...

    @property
    def to_follow(self) -> str | None: ...


class MetalChoiceItem(Protocol):
    """One way to count a Metal win: the suit and what it does to the score, in words."""

    @property
    def suit(self) -> str: ...

    @property
    def text(self) -> str: ...


@runtime_checkable
class MetalChoiceView(Protocol):
    """The ways to count a Metal win while its winner (the seat to play) chooses."""

    @property
    def metal_choices(self) -> Sequence[MetalChoiceItem]: ...

    @property
    def to_play(self) -> int | None: ...


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


def panel(kind: PanelKind) -> Callable[[Panel], Panel]:
    def register(fn: Panel) -> Panel:
        PANELS[kind] = fn
        return fn

    return register


def panel_html(
    rules: Rules[Any],
    view: SeatView,
    *,
    four_colour: bool = False,
    board_intent: str | None = None,
    closed: Closed = None,
) -> str:
    """The game's board: the panels its declaration names, in that order. With ``board_intent``,
    its places (Tricks & Stones: the chambers) are buttons that send that intent with the place
    as value; the ``closed`` ones are marked with the reason they cannot be used now."""
    kinds = rules.capabilities.panels
    if not kinds:
        return ""
    parts = (
        (PANELS[kind] if isinstance(kind, PanelKind) else kind.load())(
            rules, view, four_colour=four_colour, board_intent=board_intent, closed=closed
        )
        for kind in kinds
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


@panel(PanelKind.CHAMBERS)
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


@panel(PanelKind.ROUND_SCORES)
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


@panel(PanelKind.PODIUM)
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


@panel(PanelKind.BIDS_AND_WINS)
def bids_and_wins(
    rules: Rules[Any],
    view: SeatView,
    *,
    four_colour: bool = False,
    board_intent: str | None = None,
    closed: Closed = None,
) -> str:
    if not isinstance(view, BidsAndWinsView):
        raise unreadable(view, BidsAndWinsView, "the bids and wins")
    n = rules.players
    rows = []
    for seat in range(n):
        bid = view.bids[seat]
        won = view.won[seat]
        cells = [seat_badge(rules, seat)]
        if bid is None:
            cells += [DASH] * 3 + [DASH]
        elif bid.zero:
            total = sum(won)
            cells += [f"{w}" for w in won[:3]] + [f"Zero Success · {total} won"]
        else:
            for i, target in enumerate((bid.rock, bid.soul, bid.pops)):
                mark = "✓" if won[i] == target else ("▲" if won[i] > target else "")
                cells.append(f"{won[i]} / {target} {mark}")
            cells.append("per suit")
        if won[3]:
            cells[-1] += f" · {won[3]} Metal"
        deals = " ".join(str(d[seat]) for d in view.deal_scores) or DASH
        cells += [deals, f"<strong>{view.totals[seat]}</strong>"]
        rows.append(cells)
    label = f"Deal {view.deal + 1} of {view.deals}" + (" (an extra deal to break a tie)" if view.extra_deal else "")
    table = score_table(
        ["Player", "Rock won / bid", "Soul won / bid", "Pops won / bid", "Bid", "Deals", "Total"],
        rows,
        label="Bids against wins per suit",
    )
    follow = ""
    if view.to_follow:
        from ..cards import BAND_SUIT_NAME

        follow = f"<p>Suit to follow: <strong>{esc(BAND_SUIT_NAME[view.to_follow])}</strong> (or any Metal card)</p>"
    return f'<section class="tl-panel" aria-label="Bids and wins"><h4>{esc(label)}</h4>{follow}{table}</section>'


@panel(PanelKind.METAL_CHOICE)
def metal_choice(
    rules: Rules[Any],
    view: SeatView,
    *,
    four_colour: bool = False,
    board_intent: str | None = None,
    closed: Closed = None,
) -> str:
    if not isinstance(view, MetalChoiceView):
        raise unreadable(view, MetalChoiceView, "the Metal choice")
    if not view.metal_choices or view.to_play is None:
        return ""
    items = "".join(f"<li>{esc(c.text)}</li>" for c in view.metal_choices)
    return (
        f'<section class="tl-panel" aria-label="Counting a Metal win"><h4>{esc(rules.seat_name(view.to_play))} '
        f"won with Metal and chooses the suit it counts for</h4><ul>{items}</ul></section>"
    )


_JV_SUITS = ("S", "H", "D", "C")


@panel(PanelKind.JEWELS)
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


@panel(PanelKind.ACTIONS_OWED)
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
