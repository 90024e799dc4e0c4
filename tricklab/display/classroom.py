"""What the class app shows (:mod:`tricklab.classroom`): the join code for the projector, the
answers as they come in (counts only, never names), the reveal, the results, and each learner's
own page. Every name and every answer is text, escaped here; the question's picture is the one
the teacher's side drew (:mod:`tricklab.classwork`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import quote

from ..classroom import Dashboard, Live, Mark, Now, Reveal, choices_of
from ..explain import Reason, plural
from . import esc, reasons_html


def join_html(join_code: str, link: str, qr_svg: str = "", *, small: bool = False) -> str:
    """The join code, large, the join link and its QR code: what the projector shows first;
    ``small`` once a question is out (the code and the link on one line, for latecomers)."""
    qr = (
        f'<div class="tl-class-qr" role="img" aria-label="QR code of the join link">{qr_svg}</div>'
        if qr_svg and not small
        else ""
    )
    return (
        f'<section class="tl-class-join{" tl-class-join-small" if small else ""}" aria-label="How to join">'
        f'<p class="tl-class-code-line">Join code <strong class="tl-class-code">{esc(join_code)}</strong></p>'
        f'<p class="tl-class-link">Open <a href="{esc(link)}" target="_blank" rel="noopener">{esc(link)}</a>'
        " on your phone, tablet or computer, or scan the code.</p>"
        f"{qr}</section>"
    )


def from_apps_html(links: Sequence[tuple[str, str]]) -> str:
    """Links to the apps a question can be sent from (``(href, words)``): each opens in a page of
    its own, with a *Send to the class* button below its board."""
    if not links:
        return ""
    items = "".join(
        f'<li><a href="{esc(href)}" target="_blank" rel="noopener">{esc(words)}</a></li>' for href, words in links
    )
    return (
        '<details class="tl-class-from-apps"><summary>Or send a question from an app</summary>'
        "<p>Open an app, go to the trick, step or question you want, and press <strong>Send to the class</strong> "
        f"below its board:</p><ul>{items}</ul></details>"
    )


def spread_html(
    spread: Sequence[tuple[str, str, int]], *, answered: int, students: int, right: Sequence[str] = ()
) -> str:
    """How many chose each answer, as bars (no names); after the reveal the ``right`` ones marked."""
    top = max((n for _, _, n in spread), default=0) or 1
    rows = []
    for value, label, count in spread:
        ok = value in right
        mark = '<span class="tl-class-right">✓ right</span>' if ok else ""
        rows.append(
            f'<li class="tl-class-bar{" tl-class-bar-right" if ok else ""}" data-value="{esc(value)}" '
            f'data-count="{count}"><span class="tl-class-bar-label">{esc(label)} {mark}</span>'
            f'<span class="tl-class-bar-track"><span class="tl-class-bar-fill" style="width:{100 * count / top:.0f}%">'
            f'</span></span><span class="tl-class-bar-count">{count}</span></li>'
        )
    return (
        f'<section class="tl-class-spread" aria-label="Answers so far">'
        f'<p class="tl-class-answered" role="status">{answered} of {plural(students, "student")} answered</p>'
        f'<ol class="tl-class-bars">{"".join(rows)}</ol></section>'
    )


def _reasons(answer: Mapping[str, object]) -> tuple[Reason, ...]:
    listed = answer.get("reasons")
    if not isinstance(listed, list):
        return ()
    return tuple(Reason(str(r.get("rule_id", "")), str(r.get("text", ""))) for r in listed if isinstance(r, Mapping))


def answer_html(answer: Mapping[str, object]) -> str:
    """The answer in words and the engine's reasons."""
    words = f'<p class="tl-summary"><strong>{esc(answer.get("answer", ""))}</strong></p>'
    return f'<div class="tl-class-answer">{words}{reasons_html(_reasons(answer))}</div>'


def figures_html(chosen: Sequence[Mapping[str, object]]) -> str:
    """The judge's figures for the answers most chosen (and its best): a table."""
    if not chosen:
        return ""
    rows = "".join(
        f"<tr><td>{esc(f.get('label', ''))}</td><td>{int(str(f.get('count', 0)))}</td>"
        f"<td>{float(str(f.get('mean', 0.0))):.1f}</td>"
        f"<td>{'told apart: worse' if f.get('apart') else 'about the best'}</td></tr>"
        for f in chosen
    )
    return (
        '<table class="tl-class-figures"><caption>The judge\'s figures for the answers chosen most</caption>'
        "<thead><tr><th>answer</th><th>chosen by</th><th>likely points</th><th>against the best</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def live_html(live: Live) -> str:
    """The projector while answers come in: the question and the counts."""
    question = live.question
    return (
        f'<p class="tl-caption"><span class="tl-step-no">Question {question.number}:</span> '
        f"{esc(question.shown.get('prompt', ''))}</p>"
        # the picture as the learners see it, shown, not clicked, on the projector
        f'<div class="tl-class-picture" inert>{question.shown.get("html", "")}</div>'
        + spread_html(live.spread, answered=live.answered, students=live.students)
    )


def reveal_html(reveal: Reveal, *, students: int) -> str:
    """The projector after the reveal: the counts with the right answers marked, the answer and why."""
    question = reveal.question
    right = reveal.answer.get("right")
    answered = sum(n for _, _, n in reveal.spread)
    return (
        f'<p class="tl-caption"><span class="tl-step-no">Question {question.number}:</span> '
        f"{esc(question.shown.get('prompt', ''))}</p>"
        f'<div class="tl-class-picture" inert>{question.shown.get("html", "")}</div>'
        + spread_html(
            reveal.spread,
            answered=answered,
            students=students,
            right=[str(r) for r in right] if isinstance(right, list) else (),
        )
        + answer_html(reveal.answer)
        + figures_html(reveal.chosen)
    )


def _mark(mark: Mark | None) -> str:
    if mark is None:
        return '<td class="tl-class-none">no answer</td>'
    sign = {True: "✓", False: "✗", None: "…"}[mark.right]
    said = {True: "right", False: "wrong", None: "not revealed yet"}[mark.right]
    return f'<td class="tl-class-mark" title="{esc(said)}">{sign} {esc(mark.label)}</td>'


def dashboard_html(board: Dashboard, csv_text: str) -> str:
    """The results: each student's answers marked, the questions most missed and what was chosen
    instead, and the CSV to download."""
    numbers = [q.number for q in board.questions]
    head = "".join(f'<th scope="col">Q{n}</th>' for n in numbers)
    rows = []
    for name, marks in board.students:
        by_number = {m.number: m for m in marks}
        right = sum(1 for m in marks if m.right)
        cells = "".join(_mark(by_number.get(n)) for n in numbers)
        rows.append(f'<tr><th scope="row">{esc(name)}</th>{cells}<td>{right}</td></tr>')
    table = (
        '<table class="tl-class-results"><caption>Each student\'s answers</caption>'
        f'<thead><tr><th scope="col">student</th>{head}<th scope="col">right</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    missed = "".join(
        f"<li><strong>Question {m.number}</strong> ({esc(m.prompt)}): {m.wrong} of {m.answered} wrong"
        + (f"; chosen instead: {esc(m.instead)} ({m.instead_count})" if m.instead else "")
        + "</li>"
        for m in board.missed
        if m.answered
    )
    missed_html = f'<section aria-label="Most missed"><h4>Most missed</h4><ol>{missed}</ol></section>' if missed else ""
    download = (
        f'<a class="tl-class-csv" download="class-results.csv" '
        f'href="data:text/csv;charset=utf-8,{quote(csv_text)}">Download the results (CSV)</a>'
    )
    return f'<section class="tl-class-dashboard" aria-label="Results">{table}{missed_html}<p>{download}</p></section>'


def saved_set_html(join_code: str, join_link: str, results_link: str) -> str:
    """The homework set just saved: its join code and link for the students, and the link to its
    results for the teacher (the teacher's own: it is not for the class)."""
    join = f'<a href="{esc(join_link)}" target="_blank" rel="noopener">{esc(join_link)}</a>' if join_link else ""
    results = (
        f' <a href="{esc(results_link)}" target="_blank" rel="noopener">Open the set\'s results</a> (yours alone: '
        "do not share this link)."
        if results_link
        else ""
    )
    return (
        '<section class="tl-class-saved" role="status" aria-label="Homework set saved">'
        f"<p><strong>Homework set saved.</strong> Students join it with the code "
        f'<strong class="tl-class-code-small">{esc(join_code)}</strong>{", at " + join if join else ""}, '
        f"and answer at their own pace.{results}</p></section>"
    )


def set_done_html(marks: Sequence[Mark], of: int) -> str:
    """A learner's page once every question of a homework set is answered: their own results."""
    right = sum(1 for m in marks if m.right)
    rows = "".join(
        f"<li>Question {m.number}: {esc(m.label)} {_mark(m)}</li>" for m in sorted(marks, key=lambda m: m.number)
    )
    return (
        f'<p class="tl-class-waiting" role="status">You have answered all {plural(of, "question")}: '
        f"{right} right.</p>"
        f'<ol class="tl-class-own" aria-label="Your answers">{rows}</ol>'
    )


def learner_html(now: Now, name: str, marks: Sequence[Mark] = ()) -> str:
    """A learner's page: waiting, the open question, or the answer with their own answer marked
    (in a homework set: "question k of n", a Next button once answered, and at the end the
    learner's own results, ``marks``)."""
    who = f'<p class="tl-class-me">You are <strong>{esc(name)}</strong>.</p>'
    question = now.question
    if question is None and now.of:
        return who + set_done_html(marks, now.of)
    if question is None:
        return who + '<p class="tl-class-waiting" role="status">Waiting for the teacher…</p>'
    choices = dict(choices_of(question))
    of = f" of {now.of}" if now.of else ""
    head = (
        f'<p class="tl-caption"><span class="tl-step-no">Question {question.number}{of}:</span> '
        f"{esc(question.shown.get('prompt', ''))}</p>"
    )
    given = "" if now.given is None else esc(choices.get(now.given, now.given))
    if now.answer is None:
        said = (
            f'<p class="tl-class-given" role="status">Your answer: <strong>{given}</strong>. You can change it until '
            "the teacher shows the answer.</p>"
            if now.given is not None
            else '<p class="tl-class-given" role="status">Click your answer.</p>'
        )
        if now.of and now.given is None:
            said = '<p class="tl-class-given" role="status">Click your answer: its answer is shown at once.</p>'
        picture = _pressed(str(question.shown.get("html", "")), now.given)
        return who + head + f'<div class="tl-class-picture">{picture}</div>' + said
    if now.given is None:
        verdict = '<p class="tl-feedback">You did not answer this one.</p>'
    elif now.right:
        verdict = f'<p class="tl-feedback tl-right"><span class="tl-quiz-mark">✓</span> Right: {given}.</p>'
    else:
        verdict = f'<p class="tl-feedback tl-wrong"><span class="tl-quiz-mark">✗</span> You chose {given}.</p>'
    return (
        who
        + head
        + f'<div class="tl-class-picture" inert>{_pressed(str(question.shown.get("html", "")), now.given)}</div>'
        + f'<div class="tl-quiz-feedback" role="status">{verdict}</div>'
        + answer_html(now.answer)
        + (
            '<p><button type="button" class="jupyter-button mod-primary tl-class-next" data-intent="next">'
            f"{'Next question' if question.number < now.of else 'See your results'}</button></p>"
            if now.of
            else ""
        )
    )


def _pressed(picture: str, given: str | None) -> str:
    """The question's picture with the learner's own answer marked as the button pressed
    (``aria-pressed``): its card outlined, its button filled."""
    if given is None:
        return picture
    value = f'data-intent="answer" data-value="{esc(given)}"'
    return picture.replace(value, f'{value} aria-pressed="true"', 1)
