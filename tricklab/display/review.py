"""A round's review as HTML: each decision with its verdict in words and why, a moment to open and retry.

Pure markup from a :class:`~tricklab.review.RoundReview` (the figures and reasons are the
judge's, :mod:`tricklab.judge`; this module only lays them out): a summary, the costliest
decision with the better choice and both figures, every decision with its verdict in words,
its reasons (each rule's id a link to its clause in the rulebooks) and a "Show this moment"
button; an opened moment shows the table as the learner saw it then and every rated choice
as a button, and a choice tried there shows its figure from the same evaluation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..actions import Action, Play
from ..explain import Reason, and_list, plural
from . import esc, rule_id_html

if TYPE_CHECKING:
    from ..games.base import Rules
    from ..match import Match
    from ..review import DecisionReview, RoundReview

#: what the count of each verdict is called in the summary
PLURALS = {
    "best": "the best choice",
    "same": "about the same as the best",
    "good": "a good choice",
    "inaccuracy": "small slips",
    "mistake": "mistakes",
    "blunder": "big mistakes",
}
SINGULARS = {"inaccuracy": "small slip", "mistake": "mistake", "blunder": "big mistake"}


def _limit(x: float) -> str:
    return f"{x:g} point" + ("" if x == 1 else "s")


def cites_rule(rule_id: str) -> bool:
    """Whether a reason's id is a rulebook clause (linked), not the judge's or the advisor's own note."""
    return not rule_id.startswith(("judge.", "advice."))


def judged_reasons_html(reasons: Sequence[Reason], *, title: str = "Why") -> str:
    """Reasons as a list, each rule's id a link to its clause (the judge's own notes carry none)."""
    if not reasons:
        return ""
    items = []
    for r in reasons:
        cite = f" ({rule_id_html(r.rule_id)})" if cites_rule(r.rule_id) else ""
        items.append(f'<li data-rule="{esc(r.rule_id)}">{esc(r.text)}{cite}</li>')
    return f'<div class="tl-review-why"><h5>{esc(title)}</h5><ul>{"".join(items)}</ul></div>'


def decision_words(rules: Rules[Any], review: RoundReview, decision: DecisionReview) -> str:
    """What the seat did, in words, with the trick it was in for a card."""
    trick = next((h.trick for h in review.hindsight if h.index == decision.index), None)
    what = rules.describe_action(decision.action)
    return f"Trick {trick}: {what}" if trick is not None and isinstance(decision.action, Play) else what


def review_html(
    rules: Rules[Any],
    review: RoundReview,
    *,
    match: Match | None = None,
    moment: int | None = None,
    tried: Action | None = None,
    four_colour: bool = False,
) -> str:
    """The whole review of one seat's round; with ``match``, each decision has a "Show this
    moment" button, and the decision at ``moment`` (its index) is opened there, with ``tried``
    the choice tried in it."""
    from ..judge import score_text

    you = rules.seat_name(review.seat)
    word = rules.capabilities.round_word  # "round", "deal", "hand": the game's own word
    limits = review.thresholds
    counts = review.verdicts()
    tally = ", ".join(f"{n} {PLURALS[v] if n > 1 else SINGULARS.get(v, PLURALS[v])}" for v, n in counts.items() if n)
    summary = (
        f"<p>{plural(len(review.decisions), 'decision')} rated"
        + (f" ({review.forced} with only one choice left out)" if review.forced else "")
        + f": {esc(tally or 'none')}.</p>"
        f'<p class="tl-review-thresholds">Each decision was played out on up to {plural(review.samples, "deal")} '
        f"that fit what {esc(you)} knew then (the bots play the rest of the {word}; fewer when the leading choices "
        "were soon clearly apart, or scored alike). A choice counts as better only when it "
        "is ahead by more than twice the uncertainty of the difference; otherwise it is “about the same”. A small "
        f"slip costs {_limit(limits['inaccuracy'])} or more, a mistake {_limit(limits['mistake'])}, a big mistake "
        f"{_limit(limits['blunder'])}.</p>"
    )
    worst = review.costliest
    callout = ""
    if worst is not None and worst.verdict not in ("best", "same"):
        better = rules.describe_action(worst.best_action)
        callout = (
            f'<p class="tl-review-costliest"><strong>The costliest decision</strong>: '
            f"{esc(decision_words(rules, review, worst))}, likely {score_text(rules, worst.expected)}. "
            f"Better: {esc(better)}, likely {score_text(rules, worst.best_expected)}. "
            f"{esc(worst.words[:1].upper() + worst.words[1:])}.</p>"
        )
    elif worst is not None:
        callout = (
            '<p class="tl-review-all-best"><strong>Every decision was the best one found, '
            "or about the same as it.</strong></p>"
        )
    rows = []
    for d in review.decisions:
        best = (
            ""
            if d.best_action == d.action
            else f"; best: {esc(rules.describe_action(d.best_action))}, {score_text(rules, d.best_expected)}"
        )
        button = ""
        opened = ""
        if match is not None:
            is_open = d.index == moment
            label = "Hide this moment" if is_open else "Show this moment"
            value = "" if is_open else str(d.index)
            button = (
                f'<button type="button" class="tl-choice tl-review-open" data-intent="review-moment" '
                f'data-value="{esc(value)}" aria-expanded="{str(is_open).lower()}">{label}</button>'
            )
            if is_open:
                opened = moment_html(rules, review, match, d, tried, four_colour=four_colour)
        rows.append(
            f'<li class="tl-review-row tl-verdict-{esc(d.verdict)}" data-index="{d.index}">'
            f'<p class="tl-review-what"><strong>{esc(decision_words(rules, review, d))}</strong>: '
            f'<span class="tl-review-verdict">{esc(d.words)}</span>.</p>'
            f'<p class="tl-review-figures">Likely {score_text(rules, d.expected)}{best}.</p>'
            f"{judged_reasons_html(d.reasons)}{button}{opened}</li>"
        )
    listed = f'<ol class="tl-review-list" aria-label="Every decision rated">{"".join(rows)}</ol>'
    return (
        f'<section class="tl-review" aria-label="Review of {word} {review.round + 1}">'
        f"<h3>Review of {word} {review.round + 1}: {esc(you)}</h3>{summary}{callout}"
        f"{listed}{hindsight_html(rules, review)}</section>"
    )


def moment_html(
    rules: Rules[Any],
    review: RoundReview,
    match: Match,
    decision: DecisionReview,
    tried: Action | None,
    *,
    four_colour: bool = False,
) -> str:
    """The table as the seat saw it before ``decision``, every rated choice as a button to try,
    and the figure of the choice ``tried`` (from the same evaluation as the review's)."""
    from ..judge import choice_name
    from . import view_html

    view = rules.view(match.states[decision.index], review.seat)
    table = view_html(rules, view, four_colour=four_colour)
    buttons = []
    for c in decision.choices:
        pressed = c.action == tried
        mark = " (yours)" if c.action == decision.action else ""
        buttons.append(
            f'<button type="button" class="tl-choice" data-intent="review-retry" data-value="{esc(c.text)}" '
            f'aria-pressed="{str(pressed).lower()}">{esc(choice_name(rules, c.action))}{mark}</button>'
        )
    result = ""
    if tried is not None:
        result = tried_html(rules, decision, tried)
    return (
        f'<section class="tl-moment" aria-label="The moment of this decision" tabindex="-1">'
        f"<h4>The moment: before you chose</h4>{table}"
        f"<p>Try another choice here: each shows what it was likely to score on the same deals.</p>"
        f'<div class="tl-choices tl-retry">{"".join(buttons)}</div>{result}</section>'
    )


def tried_html(rules: Rules[Any], decision: DecisionReview, tried: Action) -> str:
    """How ``tried`` fares at that moment: its figure, its verdict against the best, and why."""
    from ..judge import Evaluation, choice_reasons, points, score_text
    from ..review import ReviewEntry, verdict_of

    fig = next(c for c in decision.choices if c.action == tried)
    best = decision.choices[0]
    if fig.action == best.action:
        words = "the best choice"
    else:
        verdict = verdict_of(rules.name, fig.loss, fig.loss_stderr)
        words = {"same": "about the same as the best", "best": "the best choice"}.get(
            verdict, f"costs about {points(fig.loss)} points against the best"
        )
    entry = rules.capabilities.review
    reasons: tuple[Reason, ...] = ()
    if entry is not None:
        ev = Evaluation(rules.name, 0, decision.index, decision.samples, 0, decision.choices, decision.action)
        reasons = choice_reasons(rules, entry.load_as(ReviewEntry).wording, ev, fig)
    yours = " (your choice)" if tried == decision.action else ""
    return (
        f'<div class="tl-retry-result" role="status"><p><strong>{esc(rules.describe_action(tried))}{yours}: likely '
        f"{score_text(rules, fig.mean)}</strong> (from {plural(fig.samples, 'deal')}): {esc(words)}.</p>"
        f"{judged_reasons_html(reasons)}</div>"
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
