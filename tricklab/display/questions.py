"""A question as a learner's page draws it while it is open: the trick with its cards to click, or
a position with its choices as buttons. Every button sends the ``answer`` intent with its value.

The quiz (:class:`~tricklab.widgets.Quiz`) and a class's questions
(:mod:`tricklab.classwork`) draw their questions here, so a question looks the same on a
learner's own quiz and on every device of a class."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..cards import Card
from . import PLACE_WORDS, card_html, esc, view_html

if TYPE_CHECKING:
    from ..puzzles import PositionQuestion, PositionVerdict

#: the intent every answer button sends, its value the answer
ANSWER = "answer"


def open_trick_html(
    cards: Sequence[Card], *, kind: str = "winner", picks: Sequence[Card] = (), four_colour: bool = False
) -> str:
    """The trick with every card a button to click: for ``kind`` ``"winner"`` the card that wins,
    for ``"podium"`` every card from first place to last (``picks`` are the cards picked so far)."""
    parts = []
    for i, card in enumerate(cards):
        classes = ["tl-in-trick"]
        notes = []
        if i == 0:
            classes.append("tl-led")
            notes.append("led")
        if card in picks:
            classes.append("tl-picked")
            notes.append(f"your {PLACE_WORDS[list(picks).index(card)]}")
        picture = card_html(card, four_colour=four_colour, intent=ANSWER, classes=classes, note=", ".join(notes))
        parts.append(
            f'<figure class="tl-played">{picture}<figcaption><span class="tl-who">card {i + 1}</span>'
            "</figcaption></figure>"
        )
    if kind == "winner":
        ask = "click the card that wins"
        hint = ""
    else:
        ask = "click the cards from first place to last"
        place = PLACE_WORDS[len(picks)]
        so_far = ", ".join(c.pretty for c in picks)
        hint = (
            f'<p class="tl-summary tl-hint">Your order so far: {esc(so_far)}. Now click the card for {place} '
            "place, or a picked card to take it back.</p>"
            if picks
            else f'<p class="tl-summary tl-hint">Click the card for {PLACE_WORDS[0]} place.</p>'
        )
    trick = f'<div class="tl-trick" role="group" aria-label="trick: {ask}">{"".join(parts)}</div>'
    return trick + hint


def position_board_html(question: PositionQuestion, verdict: PositionVerdict | None = None) -> str:
    """The game's board for the position. For a "which move?" question its buttons are the
    choices (the legal actions, sending the ``answer`` intent); once a question is answered,
    it marks the place the engine's answer names (the last stone's)."""
    clickable = question.kind == "move" and verdict is None
    actions = [question.rules.parse_action(c.value) for c in question.choices] if clickable else []
    return view_html(
        question.rules,
        question.view(),
        actions=actions,
        action_intent=ANSWER if clickable else None,
        event=None if verdict is None else question.marking.event,
    )


def choices_html(question: PositionQuestion, verdict: PositionVerdict | None = None) -> str:
    """The choices of a position question: buttons while it is open; once answered, the right
    choices and the learner's pick, marked."""
    if verdict is None and question.kind == "move":  # the board's own pits are the buttons
        return '<p class="tl-summary tl-hint">Click the pit of the move you choose on the board.</p>'
    if verdict is None:
        ask = {
            "place": "click the place where the last stone lands",
            "move": "click a move",
            "yes-no": "click Yes or No",
        }[question.kind]
        if question.kind == "place":
            buttons = _place_rows(question)
        else:
            buttons = "".join(answer_button(c.value, c.label) for c in question.choices)
        classes = f"tl-quiz-choices tl-quiz-{question.kind}"
        return f'<div class="{classes}" role="group" aria-label="choices: {ask}">{buttons}</div>'
    items = []
    for c in question.choices:
        right, given = c.value in verdict.right, c.value == verdict.given
        if not (right or given):
            continue
        note = "✓ the answer" if right else "✗ your pick"
        if right and given:
            note = "✓ your pick, the answer"
        items.append(
            f'<li class="tl-quiz-choice {"tl-quiz-ok" if right else "tl-quiz-miss"}" data-value="{esc(c.value)}" '
            f'data-correct="{"true" if right else "false"}">{esc(c.label)}: {note}</li>'
        )
    return f'<ul class="tl-quiz-choices tl-quiz-marked" aria-label="the answer and your pick">{"".join(items)}</ul>'


def about_html(question: PositionQuestion) -> str:
    """What a "may this card go here?" question is about, in words (nothing for other questions)."""
    if question.kind != "yes-no":
        return ""
    return (
        f'<p class="tl-summary tl-quiz-about"><strong>The card and the place:</strong> {esc(question.asked.about)}.</p>'
    )


def open_position_html(question: PositionQuestion) -> str:
    """An open position question: the board as the player to move sees it, what is asked about,
    and the choices as buttons."""
    return position_board_html(question) + about_html(question) + choices_html(question)


def answer_button(value: str, label: str, shown: str | None = None) -> str:
    """One choice's button; ``shown`` is shorter words for it where a row's heading says the rest
    (its accessible name stays the whole ``label``)."""
    named = "" if shown is None else f' aria-label="{esc(label)}"'
    return (
        f'<button type="button" class="tl-quiz-choice jupyter-button" data-intent="{ANSWER}" '
        f'data-value="{esc(value)}"{named}>{esc(label if shown is None else shown)}</button>'
    )


def _place_rows(question: PositionQuestion) -> str:
    """The places of the board as buttons laid out as the board draws them: one row for each
    player, the player to move along the bottom (pits in sowing order, then the store), the other
    side on top from its store across its pits, so each button sits where its place is drawn.
    A place is grouped by its owner as its label names it (``"Player 2's pit 3"``)."""
    mover = question.rules.seat_name(question.position.to_play)
    rows: dict[str, list[tuple[str, str, str]]] = {}
    for c in question.choices:
        owner, mark, place = c.label.partition("'s ")
        if not mark:  # a place that names no owner: all the places in one row, as listed
            return "".join(answer_button(c.value, c.label) for c in question.choices)
        rows.setdefault(owner, []).append((c.value, c.label, place))
    order = [o for o in rows if o != mover] + ([mover] if mover in rows else [])
    html = []
    for owner in order:
        places = rows[owner] if owner == mover else rows[owner][::-1]
        buttons = "".join(answer_button(value, label, place) for value, label, place in places)
        html.append(
            f'<div class="tl-quiz-choice-row" role="group" aria-label="{esc(owner)}\'s places">'
            f'<span class="tl-quiz-choice-owner" aria-hidden="true">{esc(owner)}:</span>{buttons}</div>'
        )
    return "".join(html)
