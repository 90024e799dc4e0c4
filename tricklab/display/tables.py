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


def class_tables_html(make_link: str, class_code: str, tables: Sequence[tuple[str, str, str, str]]) -> str:
    """The projector's list of the session's tables of classmates: how a student makes one
    (``make_link``, the table app with the class's code) and each table (``(code, what, who,
    watch_link)``), with a link to watch it in a tab of its own."""
    make = (
        f'<a href="{esc(make_link)}" target="_blank" rel="noopener">{esc(make_link)}</a>'
        if make_link
        else f"the table app with class code {esc(class_code)}"
    )
    rows = "".join(
        f'<li><strong class="tl-code">{esc(code)}</strong> {esc(what)}: {esc(who)}'
        + (f' <a href="{esc(watch)}" target="_blank" rel="noopener">Watch table {esc(code)}</a>' if watch else "")
        + "</li>"
        for code, what, who, watch in tables
    )
    listed = f'<ul class="tl-class-table-list">{rows}</ul>' if rows else "<p>No table yet.</p>"
    return (
        '<details class="tl-class-tables"><summary>Tables of classmates</summary>'
        f"<p>Students play a game together, each on their own device: a student makes a table at {make} "
        "and classmates join it with its code. Watch any table here.</p>"
        f"{listed}</details>"
    )


__all__ = ["KINDS", "class_tables_html", "table_seats_html", "who_plays"]
