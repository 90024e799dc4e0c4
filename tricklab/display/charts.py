"""Small SVG bar charts for the bid trainer: pure functions returning markup."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import esc, palette


@dataclass(frozen=True)
class Bar:
    """One bar: its label, its value, an optional error half-width and marks (``"yours"``, ``"best"``)."""

    label: str
    value: float
    error: float = 0.0
    marks: tuple[str, ...] = ()
    text: str = ""


def bar_chart(
    bars: Sequence[Bar], *, title: str, unit: str = "", width: int = 460, height: int = 180, percent: bool = False
) -> str:
    """A labelled bar chart; negative values go below a zero line. Marked bars get a class and a word."""
    if not bars:
        return ""
    top = max(0.0, *(b.value + b.error for b in bars))
    bottom = min(0.0, *(b.value - b.error for b in bars))
    span = (top - bottom) or 1.0
    pad_left, pad_bottom, pad_top = 20, 34, 18
    inner_h = height - pad_bottom - pad_top
    step = (width - pad_left) / len(bars)
    bar_w = max(4.0, step * 0.7)

    def y(value: float) -> float:
        return pad_top + (top - value) / span * inner_h

    # each shape carries its own colour (the stylesheet overrides it), for a page without the stylesheet
    ink, accent, best = palette("fg2"), palette("accent"), palette("win")
    parts = [f'<line x1="{pad_left}" x2="{width}" y1="{y(0):.1f}" y2="{y(0):.1f}" class="tl-axis" stroke="{ink}"/>']
    for i, bar in enumerate(bars):
        x = pad_left + i * step + (step - bar_w) / 2
        y0, y1 = sorted((y(0), y(bar.value)))
        classes = " ".join(f"tl-bar-{m}" for m in bar.marks)
        value_text = f"{bar.value:.0%}" if percent else f"{bar.value:.2f}{unit}"
        label = f"{bar.label}: {value_text}" + (f" ± {bar.error:.2f}" if bar.error else "")
        if bar.marks:
            label += " (" + ", ".join(bar.marks) + ")"
        parts.append(
            f'<rect x="{x:.1f}" y="{y0:.1f}" width="{bar_w:.1f}" height="{max(y1 - y0, 0.5):.1f}" '
            f'fill="{best if "best" in bar.marks else accent}" class="tl-bar {classes}" '
            f'data-label="{esc(bar.label)}" data-value="{bar.value:.6f}">'
            f"<title>{esc(label)}</title></rect>"
        )
        if not percent or bar.value >= 0.03:
            shown = f"{bar.value:.0%}" if percent else f"{bar.value:.1f}"
            above = y(max(bar.value + bar.error, 0)) - 3
            parts.append(
                f'<text x="{x + bar_w / 2:.1f}" y="{above:.1f}" text-anchor="middle" '
                f'class="tl-bar-value">{shown}</text>'
            )
        if bar.error:
            cx = x + bar_w / 2
            parts.append(
                f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(bar.value + bar.error):.1f}" '
                f'y2="{y(bar.value - bar.error):.1f}" class="tl-error" stroke="{ink}"/>'
            )
        parts.append(
            f'<text x="{x + bar_w / 2:.1f}" y="{height - pad_bottom + 14}" text-anchor="middle" '
            f'class="tl-bar-label">{esc(bar.label)}</text>'
        )
        if bar.marks:
            parts.append(
                f'<text x="{x + bar_w / 2:.1f}" y="{height - 4}" text-anchor="middle" class="tl-bar-mark">'
                f"{esc('/'.join(bar.marks))}</text>"
            )
    described = "; ".join(f"{b.label} {b.value:.0%}" if percent else f"{b.label} {b.value:.2f}" for b in bars[:12])
    return (
        f'<figure class="tl-chart"><figcaption>{esc(title)}</figcaption>'
        f'<svg viewBox="0 0 {width} {height}" width="{width}" height="{height}" fill="{ink}" role="img" '
        f'aria-label="{esc(title)}: {esc(described)}">{"".join(parts)}</svg></figure>'
    )
