"""Quiz: who wins this trick? Seeded questions, each answer marked by the engine."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import ipywidgets as w

from ..cards import Card
from ..display import PLACE_WORDS, card_html, esc, reasons_html, trick_html
from ..errors import InvalidCard, TricklabError
from ..explain import Reason
from ..games import DEFAULT_GAME
from ..games.base import CardLike
from ..quiz import DEFAULT_COUNT, Question, QuizSummary, Verdict, check, levels, questions, summary
from .board import Board, LookToggles, controls_row
from .inputs import clicked_card, number, quote


class Quiz(w.VBox):  # type: ignore[misc]
    """A quiz of ``count`` tricks: click the card that wins (or, for a podium question,
    every card from first place to last) and see at once whether it was right, the
    right answer and the engine's reason that decides the pick (every reason folded
    below it), with a running score. A podium answer has each place marked; it counts
    in the score only when every place is right. After the last question the quiz
    reviews the missed ones and offers the level to take next (:func:`tricklab.quiz.summary`).

    The same ``game``, ``players``, ``seed`` and ``level`` always give the same questions,
    so a class can share one quiz. ``podium=None`` asks for every place only where the
    level is about places (Tricks & Stones level 3); ``True`` or ``False`` always or never.
    Bad settings raise the engine's :class:`~tricklab.TricklabError`.
    """

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        players: int | None = None,
        seed: int = 0,
        level: int = 1,
        count: int = DEFAULT_COUNT,
        podium: bool | None = None,
        *,
        question: int = 1,
        four_colour: bool = False,
        large: bool = False,
    ) -> None:
        self.questions: tuple[Question, ...] = questions(game, players, seed, level, count, podium)
        first = self.questions[0]
        self.rules = first.rules
        self.seed = seed
        self.podium = podium
        self.index = min(max(question, 1), len(self.questions)) - 1  # a link's question; the earlier ones unanswered
        self.picks: tuple[Card, ...] = ()
        self.verdicts: list[Verdict | None] = [None] * len(self.questions)

        self.level_picker = w.Dropdown(
            options=[(f"{step.number}: {step.title}", step.number) for step in levels(self.rules.name)],
            value=first.level,
            description="Level",
        )
        self.next_button = w.Button(
            description="Next ▶", button_style="primary", tooltip="the next question (→)", disabled=True
        )
        self.again_button = w.Button(description="Start again", tooltip="the same questions from the first one")
        self.new_deal_button = w.Button(description="New deal", tooltip="new questions at this level (the next seed)")
        self.message = w.HTML()
        self.board = Board()
        self.look = LookToggles(large=large, four_colour=four_colour, on_change=self._render)

        self.level_picker.observe(self._level_changed, "value")
        self.next_button.on_click(lambda _: self.next())
        self.again_button.on_click(lambda _: self.restart())
        self.new_deal_button.on_click(lambda _: self.new_deal())
        self.board.on_intent(self._intent)

        settings = controls_row([self.level_picker, self.look])
        controls = controls_row([self.next_button, self.again_button, self.new_deal_button])
        super().__init__([settings, self.message, self.board, controls])
        self.add_class("tricklab-quiz")
        self._render()

    # --- what the learner sees -----------------------------------------------------------------------

    @property
    def question(self) -> Question:
        return self.questions[self.index]

    @property
    def verdict(self) -> Verdict | None:
        """How the current question was answered, or ``None`` while it is open."""
        return self.verdicts[self.index]

    @property
    def level(self) -> int:
        return self.question.level

    @property
    def score(self) -> tuple[int, int]:
        """``(right, answered)`` so far."""
        done = [v for v in self.verdicts if v is not None]
        return sum(v.correct for v in done), len(done)

    @property
    def score_text(self) -> str:
        right, answered = self.score
        return f"{right} of {answered} right"

    @property
    def finished(self) -> bool:
        """Whether every question is answered."""
        return all(v is not None for v in self.verdicts)

    @property
    def summary(self) -> QuizSummary | None:
        """The end of the quiz (missed questions, next level) once every question is answered."""
        return summary(self.verdicts) if self.finished else None

    def start_suggested(self) -> bool:
        """Start the level the summary suggests (the same level starts again from the first
        question); ``False`` while the quiz is not finished."""
        result = self.summary
        if result is None:
            return False
        if result.suggested == self.level:
            self.restart()
        else:
            self.set_level(result.suggested)
        return True

    # --- what the learner does -----------------------------------------------------------------------

    def pick(self, card: str | Card) -> Verdict | None:
        """What clicking a card of the trick does: answer a winner question; for a podium
        question, give the next place (clicking a picked card takes it and the later ones
        back). Returns the verdict once the question is answered."""
        question = self.question
        if self.verdict is not None:
            self._answered_already()
            return None
        try:
            parsed = self.rules.card(card)
            if parsed not in question.cards:
                listed = ", ".join(str(c) for c in question.cards)
                raise InvalidCard(f"{parsed} is not in this trick; pick one of {listed}")
        except TricklabError as exc:
            self._error(exc)
            return None
        if question.kind == "winner":
            return self.answer(parsed)
        if parsed in self.picks:
            self.picks = self.picks[: self.picks.index(parsed)]
        else:
            self.picks = (*self.picks, parsed)
        left = [c for c in question.cards if c not in self.picks]
        if len(left) == 1:  # the last place goes to the card nobody picked
            return self.answer((*self.picks, left[0]))
        self.message.value = ""
        self._render()
        return None

    def answer(self, answer: CardLike | Iterable[CardLike]) -> Verdict | None:
        """Answer the current question at once (one card, or every card first to last)."""
        if self.verdict is not None:
            self._answered_already()
            return None
        try:
            verdict = check(self.question, answer)
        except TricklabError as exc:
            self._error(exc)
            return None
        self.verdicts[self.index] = verdict
        self.picks = verdict.given
        self.message.value = ""
        self.next_button.disabled = self.index == len(self.questions) - 1
        self._render()
        return verdict

    def next(self) -> bool:
        """Go to the next question, once this one is answered."""
        if self.verdict is None or self.index == len(self.questions) - 1:
            return False
        self.index += 1
        self.picks = ()
        self.message.value = ""
        self.next_button.disabled = True
        self._render()
        return True

    def restart(self) -> None:
        """The same questions again, from the first one, with the score back to nothing."""
        self.index = 0
        self.picks = ()
        self.verdicts = [None] * len(self.questions)
        self.message.value = ""
        self.next_button.disabled = True
        self._render()

    def new_deal(self) -> None:
        """New questions at the same level, from the next seed, with the score back to nothing."""
        self.seed += 1
        self.questions = questions(
            self.rules.name, self.rules.players, self.seed, self.level, len(self.questions), self.podium
        )
        self.restart()

    def link_state(self) -> dict[str, str]:
        """What a link needs to ask this question again: seed, level, question, look toggles."""
        state = {"seed": str(self.seed), "level": str(self.level), "question": str(self.index + 1)}
        return {**state, **self.look.link_state()}

    def set_level(self, level: int) -> None:
        """Start a new quiz at ``level``, with the same game, players, seed and length."""
        self.level_picker.value = level

    # --- internals -----------------------------------------------------------------------------------

    def _level_changed(self, change: dict[str, Any]) -> None:
        if change["new"] is None:  # a blank choice from the page: the level being asked stays
            self.level_picker.value = self.level
            return
        if change["new"] == self.level:
            return
        self.questions = questions(
            self.rules.name, self.rules.players, self.seed, change["new"], len(self.questions), self.podium
        )
        self.restart()

    def _intent(self, intent: str, value: str | None) -> None:
        if intent == "answer":
            self._clicked(value)
        elif intent == "level":
            self._level_clicked(value)
        elif intent == "key" and value == "ArrowRight":
            self.next()

    def _level_clicked(self, value: str | None) -> None:
        """The summary's button: it sends the suggested level, and only the finished quiz shows it."""
        result = self.summary
        if result is None or number(value) != result.suggested:
            self._say(f"There is no button for level “{quote(value)}” here: finish the quiz to see the next level.")
            return
        self.start_suggested()

    def _clicked(self, value: str | None) -> None:
        """A click on a card of the trick: its value must be a card as the button writes it."""
        try:
            card = clicked_card(self.rules, value)
        except TricklabError as exc:
            self._error(exc)
            return
        self.pick(card)

    def _error(self, exc: TricklabError) -> None:
        self._say(str(exc))

    def _say(self, message: str) -> None:
        self.message.value = f'<div class="tricklab-message" role="alert">{esc(message)}</div>'

    def _answered_already(self) -> None:
        where = "press Next for the next one" if self.index < len(self.questions) - 1 else "that was the last one"
        self.message.value = (
            f'<div class="tricklab-message" role="alert">This question is answered already: {where}.</div>'
        )

    def _render(self) -> None:
        question = self.question
        verdict = self.verdict
        four = self.look.four_colour.value
        step = levels(self.rules.name)[question.level - 1]
        total = len(self.questions)
        body = (
            f'<p class="tl-caption"><span class="tl-step-no">Question {question.number} of '
            f"{total}:</span> {esc(question.prompt)}</p>"
            f'<p class="tl-summary"><strong>Level {step.number}: {esc(step.title)}.</strong> {esc(step.text)}</p>'
        )
        score = f'<p class="tl-summary tl-score">Score: <strong>{self.score_text}</strong></p>'
        if verdict is None:
            body += self._open_trick(question, four) + score
        else:
            body += self._marked_trick(question, verdict, four) + score
            if self.index == total - 1:
                body += f'<p class="tl-summary tl-done">That was the last question: {self.score_text}.</p>'
            result = self.summary
            if result is not None:
                body += self._end_html(result)
        self.board.scene = {
            "html": body,
            "label": f"{self.rules.title} quiz: question {question.number} of {total}",
            "large": self.look.large.value,
            "step": question.number,
            "question": question.number,
            "kind": question.kind,
            "picks": [str(c) for c in self.picks],
            "correct": None if verdict is None else verdict.correct,
            "score": self.score_text,
            # said by the board's one live region: the question, or the verdict and the score
            "announce": f"Question {question.number} of {total}: {question.prompt}"
            if verdict is None
            else f"{verdict.feedback} Score: {self.score_text}.",
        }

    def _open_trick(self, question: Question, four: bool) -> str:
        """The trick with every card a button to click."""
        parts = []
        for i, card in enumerate(question.cards):
            classes = ["tl-in-trick"]
            notes = []
            if i == 0:
                classes.append("tl-led")
                notes.append("led")
            if card in self.picks:
                classes.append("tl-picked")
                notes.append(f"your {PLACE_WORDS[self.picks.index(card)]}")
            picture = card_html(card, four_colour=four, intent="answer", classes=classes, note=", ".join(notes))
            parts.append(
                f'<figure class="tl-played">{picture}<figcaption><span class="tl-who">card {i + 1}</span>'
                "</figcaption></figure>"
            )
        if question.kind == "winner":
            ask = "click the card that wins"
            hint = ""
        else:
            ask = "click the cards from first place to last"
            place = PLACE_WORDS[len(self.picks)]
            so_far = ", ".join(c.pretty for c in self.picks)
            hint = (
                f'<p class="tl-summary tl-hint">Your order so far: {esc(so_far)}. Now click the card for {place} '
                "place, or a picked card to take it back.</p>"
                if self.picks
                else f'<p class="tl-summary tl-hint">Click the card for {PLACE_WORDS[0]} place.</p>'
            )
        trick = f'<div class="tl-trick" role="group" aria-label="trick: {ask}">{"".join(parts)}</div>'
        return trick + hint

    def _marked_trick(self, question: Question, verdict: Verdict, four: bool) -> str:
        """The trick with the engine's places and the learner's answer marked, then the feedback:
        the deciding reason first, each place of a podium marked, every reason folded."""
        ranking = verdict.outcome.ranking
        ranked = verdict.outcome.ranked_cards
        if question.kind == "winner":
            mark = "✓ your pick" if verdict.correct else "✗ your pick"
            notes = [mark if card is verdict.given[0] else "" for card in ranked]
        else:
            notes = [
                "✓ your place"
                if verdict.given[place] is card
                else f"✗ you said {PLACE_WORDS[verdict.given.index(card)]}"
                for place, card in enumerate(ranked)
            ]
        trick = trick_html(
            self.rules, question.cards, ranking=ranking, complete=True, four_colour=four, place_notes=notes
        )
        mark, kind = ("✓", "right") if verdict.correct else ("✗", "wrong")
        head = (
            f'<p class="tl-feedback tl-{kind} tl-quiz-{kind}"><span class="tl-quiz-mark">{mark}</span> '
            f"{esc(verdict.feedback)}</p>"
        )
        places = self._places_html(verdict) if question.kind == "podium" else ""
        folded = (
            '<details class="tl-quiz-all"><summary>All the reasons</summary>'
            f"{reasons_html(verdict.reasons, title='Why')}</details>"
        )
        feedback = f'<div class="tl-quiz-feedback tl-quiz-{kind}-box">{head}{places}</div>'
        return trick + feedback + folded

    @staticmethod
    def _places_html(verdict: Verdict) -> str:
        """Each place of the learner's order: right or wrong in words and a mark, and for a
        misplaced card the reasons that put it in its own place."""
        items = []
        right_place = {card: i for i, card in enumerate(verdict.right)}
        for place in verdict.places:
            where = PLACE_WORDS[place.place]
            card = place.given.pretty
            if place.correct:
                items.append(
                    f'<li class="tl-quiz-place tl-quiz-ok" data-place="{place.place + 1}" data-correct="true">'
                    f'<span class="tl-quiz-mark" aria-hidden="true">✓</span> {where}: {esc(card)}, right</li>'
                )
                continue
            own = PLACE_WORDS[right_place[place.given]]
            items.append(
                f'<li class="tl-quiz-place tl-quiz-miss" data-place="{place.place + 1}" data-correct="false">'
                f'<span class="tl-quiz-mark" aria-hidden="true">✗</span> <strong>{where}: {esc(card)}, wrong: '
                f"{esc(card)} is {own}.</strong> {_reason_text(place.reasons)}</li>"
            )
        return (
            f'<section class="tl-quiz-places" aria-label="your order, place by place">'
            f'<p class="tl-summary">Your order, place by place:</p><ol>{"".join(items)}</ol></section>'
        )

    def _end_html(self, result: QuizSummary) -> str:
        """The end of the quiz: the score, each missed question reviewed, the suggested level."""
        if result.missed:
            rows = []
            for verdict in result.missed:
                q = verdict.question
                trick = " ".join(card.pretty for card in q.cards)
                chose = ", ".join(card.pretty for card in verdict.given)
                answer = ", ".join(card.pretty for card in verdict.right)
                marked = f" ({verdict.places_right} of {len(verdict.right)} places right)" if q.kind == "podium" else ""
                rows.append(
                    f'<li class="tl-quiz-missed-item" data-question="{q.number}"><strong>Question {q.number}</strong>: '
                    f"{esc(trick)}{setting(q)}. You chose {esc(chose)}{marked}; the answer is {esc(answer)}. "
                    f"{_reason_text(verdict.deciding)}</li>"
                )
            review = (
                f'<p class="tl-summary">The {len(result.missed)} missed, with the reason that decides each:</p>'
                f'<ol class="tl-quiz-missed">{"".join(rows)}</ol>'
            )
        else:
            review = '<p class="tl-summary">Nothing to review: every answer was right.</p>'
        label = {
            "up": f"Start level {result.suggested} ▶",
            "stay": f"Start level {result.suggested} again",
            "back": f"◀ Start level {result.suggested}",
        }[result.move]
        button = (
            f'<button type="button" class="tl-quiz-level jupyter-button mod-primary" data-intent="level" '
            f'data-value="{result.suggested}">{esc(label)}</button>'
        )
        return (
            '<section class="tl-quiz-end" aria-label="the end of the quiz">'
            f"<h4>The end: {esc(result.score_text)}</h4>{review}"
            f'<p class="tl-summary tl-quiz-advice">{esc(result.advice)}</p>{button}</section>'
        )

    def __repr__(self) -> str:
        right, answered = self.score
        podium = "" if self.podium is None else f", podium={self.podium}"
        return (
            f"Quiz(game={self.rules.name!r}, players={self.rules.players}, seed={self.seed}, level={self.level}"
            f"{podium}, question={self.question.number}/{len(self.questions)}, score={right}/{answered})"
        )


def _reason_text(reasons: tuple[Reason, ...]) -> str:
    """The engine's reasons as one escaped sentence or a few."""
    return esc(" ".join(reason.text for reason in reasons))


def setting(question: Question) -> str:
    """The trick's context (the trump) in brackets, escaped, or nothing."""
    return f" ({esc(question.setting.removesuffix('.'))})" if question.setting else ""
