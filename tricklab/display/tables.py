"""What a table of classmates shows above its cards (:mod:`tricklab.widgets.sharedtable`): the
table's code and join link, and who plays each seat, on one wrapping line so a phone still shows
the hand near the top. Every name is text, escaped here."""

from __future__ import annotations

from collections.abc import Sequence

from ..store import PLAYER
from . import esc

#: what a seat at the table is played by, in words
KINDS = {PLAYER: "a classmate", "heuristic": "a bot", "random": "a bot that plays at random"}


def who_plays(kind: str, name: str) -> str:
    """Who plays a seat, in words: the classmate's name, a free seat, or which bot (and for whom)."""
    if kind == PLAYER:
        return name or "a free seat for a classmate"
    return KINDS.get(kind, "a bot") + (f" (for {name})" if name else "")


def table_seats_html(titles: Sequence[str], seats: Sequence[tuple[str, str]], you: int, code: str, link: str) -> str:
    """The table's code, its join ``link`` (``""``: not known yet) and each seat (``titles[n]``,
    ``seats[n]`` its ``(kind, name)``), ``you`` marked."""
    items = "".join(
        f"<li><strong>{esc(title)}</strong>: {esc(who_plays(kind, name))}</li>"
        if number != you
        else f'<li class="tl-seat-you"><strong>{esc(title)}</strong>: {esc(who_plays(kind, name))} (you)</li>'
        for number, (title, (kind, name)) in enumerate(zip(titles, seats, strict=True))
    )
    join = f' or the link <a href="{esc(link)}" target="_blank" rel="noopener">{esc(link)}</a>' if link else ""
    return (
        '<section class="tl-table-seats" aria-label="Who sits where">'
        f'<p>Table <strong class="tl-code">{esc(code)}</strong>: classmates join with this code{join}.</p>'
        f'<ul class="tl-seat-list">{items}</ul></section>'
    )


__all__ = ["KINDS", "table_seats_html", "who_plays"]
