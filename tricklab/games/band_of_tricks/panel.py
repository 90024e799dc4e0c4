"""Band of Tricks' panels beside the table: bids against wins per suit with the deal scores, and
the ways to count a Metal win while its winner chooses. Each reads the view through a small
protocol naming exactly the fields it reads, and refuses a view without them by name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from ...actions import Bid
from ...display import esc, seat_badge, unreadable
from ...display.panels import DASH, Closed, score_table
from ..base import Rules, SeatView


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
        from ...cards import BAND_SUIT_NAME

        follow = f"<p>Suit to follow: <strong>{esc(BAND_SUIT_NAME[view.to_follow])}</strong> (or any Metal card)</p>"
    return f'<section class="tl-panel" aria-label="Bids and wins"><h4>{esc(label)}</h4>{follow}{table}</section>'


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
