"""A round's review as HTML: the learner's decisions rated, the costliest named, hindsight.

Pure markup from a :class:`~tricklab.review.RoundReview` (the figures are the review's; this
module only lays them out): a summary with the thresholds by name, the costliest decision
with the better choice and both figures, a table of every decision, and the tricks whose
winner another card would have changed, with every hand open.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Play
from ..explain import and_list, plural
from . import esc

if TYPE_CHECKING:
    from ..games.base import Rules
    from ..review import DecisionReview, RoundReview

#: a verdict's mark, as chess notation writes them, beside its word (never the mark alone)
MARKS = {"best": "✓", "good": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}


PLURALS = {"best": "best", "good": "good", "inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def _points(x: float) -> str:
    return f"{x:.1f}".replace("-", "\u2212")


def _limit(x: float) -> str:
    return f"{x:g} point" + ("" if x == 1 else "s")


def decision_words(rules: Rules[Any], review: RoundReview, decision: DecisionReview) -> str:
    """What the seat did, in words, with the trick it was in for a card."""
    trick = next((h.trick for h in review.hindsight if h.index == decision.index), None)
    what = rules.describe_action(decision.action)
    return f"Trick {trick}: {what}" if trick is not None and isinstance(decision.action, Play) else what


def review_html(rules: Rules[Any], review: RoundReview) -> str:
    """The whole review of one seat's round."""
    you = rules.seat_name(review.seat)
    limits = review.thresholds
    counts = review.verdicts()
    tally = ", ".join(f"{n} {v if n == 1 else PLURALS[v]}" for v, n in counts.items() if n)
    summary = (
        f"<p>{plural(len(review.decisions), 'decision')} rated"
        + (f" ({review.forced} with only one choice left out)" if review.forced else "")
        + f": {esc(tally or 'none')}.</p>"
        f'<p class="tl-review-thresholds">A decision is rated by the round score it was likely to cost, '
        f"against the best choice, from {plural(review.samples, 'deal')} that fit what {esc(you)} knew then "
        f"(the bots play the rest of the round): an inaccuracy costs {_limit(limits['inaccuracy'])} or more, "
        f"a mistake {_limit(limits['mistake'])}, a blunder {_limit(limits['blunder'])}.</p>"
    )
    worst = review.costliest
    callout = ""
    if worst is not None and worst.loss > 0:
        better = rules.describe_action(worst.best_action)
        callout = (
            f'<p class="tl-review-costliest"><strong>The costliest decision</strong>: '
            f"{esc(decision_words(rules, review, worst))}, likely {_points(worst.expected)} points. "
            f"Better: {esc(better)}, likely {_points(worst.best_expected)} points. "
            f"It cost about {_points(worst.loss)} points: {esc(worst.verdict)} {esc(MARKS[worst.verdict])}.</p>"
        )
    elif worst is not None:
        callout = '<p class="tl-review-all-best"><strong>Every decision was the best one found.</strong></p>'
    rows = []
    for d in review.decisions:
        best = "the same" if d.best_action == d.action else rules.describe_action(d.best_action)
        mark = MARKS[d.verdict]
        rows.append(
            f'<tr class="tl-verdict-{esc(d.verdict)}"><td>{esc(decision_words(rules, review, d))}</td>'
            f"<td>{_points(d.expected)}</td><td>{esc(best)}</td><td>{_points(d.best_expected)}</td>"
            f"<td>{_points(d.loss)}</td><td>{esc(d.verdict)}{' ' + esc(mark) if mark else ''}</td></tr>"
        )
    table = (
        '<table class="tl-score-table tl-review-table" aria-label="Every decision rated"><thead><tr>'
        "<th scope='col'>Your decision</th><th scope='col'>Likely points</th><th scope='col'>Best choice</th>"
        "<th scope='col'>Its likely points</th><th scope='col'>Cost</th><th scope='col'>Verdict</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    return (
        f'<section class="tl-review" aria-label="Review of round {review.round + 1}">'
        f"<h3>Review of round {review.round + 1}: {esc(you)}</h3>{summary}{callout}"
        f'<div class="tl-scroll">{table}</div>{hindsight_html(rules, review)}</section>'
    )


def hindsight_html(rules: Rules[Any], review: RoundReview) -> str:
    """With every hand open: the tricks where another of the seat's cards would have changed who won."""
    items = []
    same = []
    for h in review.hindsight:
        if not h.changes:
            same.append(str(h.trick))
            continue
        won = "you" if h.winner == review.seat else rules.seat_name(h.winner)
        others = "; ".join(
            f"{c.pretty} would have let {'you' if w == review.seat else rules.seat_name(w)} win" for c, w in h.changes
        )
        items.append(f"<li>Trick {h.trick}: you played {esc(h.played.pretty)} and {esc(won)} won. {esc(others)}.</li>")
    if not review.hindsight:
        return ""
    same = list(dict.fromkeys(same))  # with two players a seat plays twice to a trick
    tricks = "tricks" if len(same) > 1 else "trick"
    rest = f"<p>No other card of yours would have changed who won {tricks} {esc(and_list(same))}.</p>" if same else ""
    listed = f"<ul>{''.join(items)}</ul>" if items else ""
    return (
        '<section class="tl-hindsight" aria-label="Hindsight"><h4>Hindsight, with every hand open</h4>'
        f"{listed}{rest}</section>"
    )
