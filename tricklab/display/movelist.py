"""A match's move list as HTML: the outline of :mod:`tricklab.movelist`, the step shown marked.

Pure markup, like the rest of :mod:`tricklab.display`: every move is a button with
``data-intent="jump"`` and its first step as ``data-value``, so a :class:`~tricklab.widgets.Board`
showing the list sends ``("jump", "<step>")`` when one is clicked; the fold button sends
``("fold", "fold")``. The round of the step shown lists its tricks (or turns) and their moves; the
other rounds are one line each, a button to their first step. A game played in one round is
listed without the round's line. The list scrolls in its own box (``data-keep-scroll``), so a
long match never makes the page long, and the move of the step shown is ``aria-current="step"``.
"""

from __future__ import annotations

from ..explain import plural
from ..movelist import Entry, Outline, Part, PartKind, Round
from . import esc, seat_colour

#: the CSS selector of the move of the step shown (a scene's ``reveal`` and ``focus``)
CURRENT = ".tl-ml-current"
#: the CSS selector of the fold button
FOLD = ".tl-ml-fold"


def movelist_html(
    outline: Outline, current: int, *, folded: bool = False, large: bool = False, title: str = "Moves"
) -> str:
    """The move list of ``outline`` with the move of step ``current`` marked; ``folded``: only
    its heading and the button that unfolds it (a phone's short screen); ``large``: projector size."""
    here = outline.entry_at(current)
    toggle = "Show" if folded else "Hide"
    head = (
        f'<div class="tl-ml-head"><h4 class="tl-ml-heading">{esc(title)}</h4>'
        f'<span class="tl-ml-where">{esc(_where(outline, current))}</span>'
        f'<button type="button" class="tl-ml-fold" data-intent="fold" data-value="fold" '
        f'aria-expanded="{"false" if folded else "true"}" aria-label="{toggle} the moves">{toggle}</button></div>'
    )
    classes = "tl-movelist" + (" tl-ml-folded" if folded else "") + (" tl-ml-large" if large else "")
    body = ""
    if not folded:
        single = len(outline.rounds) == 1
        rounds = "".join(_round_html(outline, r, here, current, single) for r in outline.rounds)
        body = f'<div class="tl-ml-scroll" data-keep-scroll="moves"><ol class="tl-ml-rounds">{rounds}</ol></div>'
    return f'<section class="{classes}" aria-label="{esc(title)}">{head}{body}</section>'


def _where(outline: Outline, step: int) -> str:
    """Where the step shown is, in words: ``"Round 2 · Trick 3"``."""
    part = outline.part_at(step)
    if len(outline.rounds) == 1:
        return part.title
    return f"{outline.round_at(step).title} · {part.title}"


def _round_html(outline: Outline, round_: Round, here: Entry, current: int, single: bool) -> str:
    shown = round_.first <= current <= round_.last
    if not shown:
        plays = plural(len(round_.plays), outline.part)
        return (
            f'<li class="tl-ml-round">{_jump(round_.first, round_.title, "tl-ml-round-title")}'
            f'<span class="tl-ml-count">{esc(plays)}</span></li>'
        )
    parts = "".join(_part_html(part, here, current) for part in round_.parts)
    title = "" if single else _jump(round_.first, round_.title, "tl-ml-round-title")
    return f'<li class="tl-ml-round tl-ml-here">{title}<ol class="tl-ml-parts">{parts}</ol></li>'


def _part_html(part: Part, here: Entry, current: int) -> str:
    shown = part.first <= current <= part.last
    entries = "".join(_entry_html(entry, entry == here) for entry in part.entries)
    kind = "tl-ml-play" if part.kind in (PartKind.TRICK, PartKind.TURN) else f"tl-ml-{part.kind.value}"
    return (
        f'<li class="tl-ml-part {kind}{" tl-ml-here" if shown else ""}">'
        f'<span class="tl-ml-title">{esc(part.title)}</span><ol class="tl-ml-entries">{entries}</ol></li>'
    )


def _entry_html(entry: Entry, current: bool) -> str:
    seat = "" if entry.seat is None else f' style="--tl-seat:{seat_colour(entry.seat)}"'
    mark = ' aria-current="step"' if current else ""
    cls = "tl-ml-entry" + (" tl-ml-seat" if entry.seat is not None else "") + (" tl-ml-current" if current else "")
    return (
        f'<li><button type="button" class="{cls}" data-intent="jump" data-value="{entry.step}"{seat}{mark}>'
        f'<span class="tl-ml-step" aria-hidden="true">{entry.step}</span>'
        f'<span class="tl-ml-label">{esc(entry.label)}</span></button></li>'
    )


def _jump(step: int, text: str, cls: str) -> str:
    label = f"{text}: go to its first step"
    return (
        f'<button type="button" class="{cls}" data-intent="jump" data-value="{step}" '
        f'aria-label="{esc(label)}">{esc(text)}</button>'
    )
