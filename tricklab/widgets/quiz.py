"""Quiz: who wins this trick? -- or, for a game without tricks, a question about a position
(where does the last stone land? which move captures? may this card go here?). Seeded
questions, each answer marked by the engine (:mod:`tricklab.quiz`, :mod:`tricklab.puzzles`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import traitlets

from .. import puzzles
from ..cards import Card
from ..display import PLACE_WORDS, esc, reasons_html, trick_html
from ..display.questions import about_html, choices_html, open_trick_html, position_board_html
from ..errors import InvalidCard, InvalidOption, TricklabError, describe
from ..explain import Reason
from ..games import DEFAULT_GAME
from ..games.base import CardLike, next_seed
from ..puzzles import PositionQuestion, PositionVerdict
from ..quiz import (
    DEFAULT_COUNT,
    Question,
    QuizSummary,
    Verdict,
    asks_positions,
    check,
    questions,
    steps,
    summary,
)
from .board import Board
from .controls import Button, Controls, Picker, look_toggles
from .inputs import PageValue, check_flag, clicked_card, number, quote, short, too_long

if TYPE_CHECKING:
    from ..classwork import ClassQuestion

AnyQuestion = Question | PositionQuestion
AnyVerdict = Verdict | PositionVerdict


class Quiz(Board):
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

    For a game that declares position levels (Kalah, Mandala) each question is a position
    drawn as the game's board, with the choices as buttons (the board's own pits for "which
    move?", a row of places or Yes/No under it otherwise); a click sends the choice, and the
    engine's :func:`tricklab.puzzles.check` marks it. ``podium`` does not apply there.

    One anywidget (a :class:`Board`): its level picker, toggles and buttons are drawn by the
    front end from the scene (``quiz.controls["level"]``, ``quiz.controls["next"].click()``),
    and what a notebook cares about is synced traits, observable and linkable: ``level`` (setting
    it starts a new quiz at that level), ``question_number`` (1 to the number of questions;
    setting it asks that question), ``large``, ``four_colour``, and, read only, ``seed``,
    ``score`` (``(right, answered)``), ``picked`` (the current pick: card codes in order, or the
    chosen value of a position question), ``correct`` (the verdict: ``None`` while the question
    is open) and ``message`` (what went wrong, in words; ``""`` when nothing did). The page may
    set ``level``, ``large`` and ``four_colour``, checked like a value from Python: a refused
    value raises (or, from the page, shows) its :class:`~tricklab.errors.TricklabError` and
    changes nothing.
    """

    level = traitlets.Int(1).tag(sync=True)
    question_number = traitlets.Int(1).tag(sync=True)
    large = traitlets.Bool(False).tag(sync=True)
    four_colour = traitlets.Bool(False).tag(sync=True)
    seed = traitlets.Int(0, read_only=True).tag(sync=True)
    score = traitlets.Tuple(traitlets.Int(), traitlets.Int(), default_value=(0, 0), read_only=True).tag(sync=True)
    picked = traitlets.List(traitlets.Unicode(), read_only=True).tag(sync=True)
    correct = traitlets.Bool(None, allow_none=True, read_only=True).tag(sync=True)
    _page_traits = frozenset({"level", "large", "four_colour"})

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
        if isinstance(question, bool) or not isinstance(question, int):
            raise InvalidOption(f"question is the number of the question to ask first, not {describe(question)}")
        check_flag("four_colour", four_colour)
        check_flag("large", large)
        self._ready = False  # the observers wait until the whole widget is made
        self.positions = asks_positions(game)
        self.podium = podium
        made = self._make(game, players, seed, level, count)
        super().__init__()
        self.questions: tuple[AnyQuestion, ...] = made
        first = self.questions[0]
        self.rules = first.rules
        self.picks: tuple[Card, ...] = ()
        self.verdicts: list[AnyVerdict | None] = [None] * len(self.questions)
        self.set_trait("seed", seed)
        self.level = first.level
        self.question_number = min(max(question, 1), len(self.questions))  # a link's; the earlier ones unanswered
        self.large = large
        self.four_colour = four_colour

        self.level_picker = Picker(
            "level",
            "Level",
            [(f"{step.number}: {step.title}", step.number) for step in steps(self.rules.name)],
            first.level,
        )
        self.large_toggle, self.colour_toggle = look_toggles(
            large, four_colour, suits=self.rules.capabilities.board is None
        )
        self.next_button = Button("next", "Next ▶", primary=True, tooltip="the next question (→)", disabled=True)
        self.again_button = Button("again", "Start again", tooltip="the same questions from the first one")
        self.new_deal_button = Button("new_deal", "New deal", tooltip="new questions at this level (the next seed)")

        self.level_picker.on_change(lambda value: self._from_control("level", value))
        self.large_toggle.on_change(lambda value: self._from_control("large", value))
        self.colour_toggle.on_change(lambda value: self._from_control("four_colour", value))
        self.next_button.on_click(self.next)
        self.again_button.on_click(self.restart)
        self.new_deal_button.on_click(self.new_deal)
        self.on_intent(self._intent)
        self.use_controls(
            Controls(
                [
                    [self.level_picker, self.large_toggle, self.colour_toggle],
                    [self.next_button, self.again_button, self.new_deal_button],
                ]
            )
        )
        self.add_class("tricklab-quiz")
        self._ready = True
        self._render()

    # --- what the learner sees -----------------------------------------------------------------------

    @property
    def index(self) -> int:
        """The place of the current question in ``questions`` (``question_number - 1``)."""
        return self.question_number - 1

    @index.setter
    def index(self, value: int) -> None:
        self.question_number = value + 1

    @property
    def question(self) -> AnyQuestion:
        return self.questions[self.index]

    @property
    def verdict(self) -> AnyVerdict | None:
        """How the current question was answered, or ``None`` while it is open."""
        return self.verdicts[self.index]

    def _score(self) -> tuple[int, int]:
        """``(right, answered)`` so far."""
        done = [v for v in self.verdicts if v is not None]
        return sum(v.correct for v in done), len(done)

    @property
    def score_text(self) -> str:
        right, answered = self._score()
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

    def pick(self, card: str | Card) -> AnyVerdict | None:
        """What clicking a card of the trick does: answer a winner question; for a podium
        question, give the next place (clicking a picked card takes it and the later ones
        back). Returns the verdict once the question is answered."""
        if not isinstance(card, str | Card):
            raise InvalidOption(f"card must be a card or its text, like 'AS', not {describe(card)}")
        question = self.question
        if self.verdict is not None:
            self._answered_already()
            return None
        if isinstance(question, PositionQuestion):
            return self.answer(str(card))
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
        self.message = ""
        self._render()
        return None

    def answer(self, answer: CardLike | Iterable[CardLike]) -> AnyVerdict | None:
        """Answer the current question at once (one card, or every card first to last; for a
        position question, the value of one of its choices, like ``"sow 3"`` or ``"yes"``)."""
        if self.verdict is not None:
            self._answered_already()
            return None
        question = self.question
        verdict: AnyVerdict
        try:
            if isinstance(question, PositionQuestion):
                verdict = puzzles.check(question, answer)
            else:
                verdict = check(question, answer)
        except TricklabError as exc:
            self._error(exc)
            return None
        self.verdicts[self.index] = verdict
        self.picks = verdict.given if isinstance(verdict, Verdict) else ()
        self.message = ""
        self._render()
        return verdict

    def next(self) -> bool:
        """Go to the next question, once this one is answered."""
        if self.verdict is None or self.index == len(self.questions) - 1:
            return False
        self.question_number += 1
        return True

    def restart(self) -> None:
        """The same questions again, from the first one, with the score back to nothing."""
        self.verdicts = [None] * len(self.questions)
        self.picks = ()
        self.message = ""
        ready, self._ready = self._ready, False  # one redraw, below
        try:
            self.question_number = 1
        finally:
            self._ready = ready
        self._render()

    def new_deal(self) -> None:
        """New questions at the same level, from the next seed, with the score back to nothing."""
        seed = next_seed(self.seed)
        self.questions = self._make(self.rules.name, self.rules.players, seed, self.level, len(self.questions))
        self.set_trait("seed", seed)
        self.restart()

    def class_question(self) -> ClassQuestion:
        """The question shown, as a question for a class (a podium question asks only which card wins)."""
        from ..classwork import from_quiz

        return from_quiz(self.question, four_colour=self.four_colour)

    def link_state(self) -> dict[str, str]:
        """What a link needs to ask this question again: seed, level, question, look toggles."""
        state = {"seed": str(self.seed), "level": str(self.level), "question": str(self.question_number)}
        look = {"large": self.large, "four_colour": self.four_colour}
        return {**state, **{name: "1" for name, on in look.items() if on}}

    def set_level(self, level: int) -> None:
        """Start a new quiz at ``level``, with the same game, players, seed and length."""
        self.level = self._level_of(level)

    def _level_of(self, level: object) -> int:
        """``level`` if it is one of this game's quiz levels, else :class:`InvalidOption`."""
        found = steps(self.rules.name)
        if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= len(found):
            raise InvalidOption(f"{self.rules.title} has quiz levels 1 to {len(found)}, not {describe(level)}")
        return level

    # --- the state, checked -------------------------------------------------------------------------

    @traitlets.validate("level")
    def _check_level(self, proposal: Any) -> int:
        level = proposal["value"]
        if not hasattr(self, "rules"):  # being made: the engine checked it
            return int(level)
        return self._level_of(level)

    @traitlets.validate("question_number")
    def _check_number(self, proposal: Any) -> int:
        asked = proposal["value"]
        total = len(self.questions) if hasattr(self, "questions") else 1
        if isinstance(asked, bool) or not isinstance(asked, int) or not 1 <= asked <= total:
            raise InvalidOption(f"this quiz has questions 1 to {total}, not {describe(asked)}")
        return asked

    @traitlets.observe("level")
    def _level_changed(self, change: dict[str, Any]) -> None:
        if not self._ready or change["new"] == self.question.level:
            return
        self.questions = self._make(self.rules.name, self.rules.players, self.seed, change["new"], len(self.questions))
        self.restart()

    @traitlets.observe("question_number")
    def _number_changed(self, _change: dict[str, Any]) -> None:
        if not self._ready:
            return
        self.picks = ()
        self.message = ""
        self._render()

    @traitlets.observe("large", "four_colour")
    def _look_changed(self, _change: dict[str, Any]) -> None:
        if self._ready:
            self._render()

    def _make(self, game: str, players: int | None, seed: int, level: int, count: int) -> tuple[AnyQuestion, ...]:
        """The quiz's questions: about positions where the game declares them, else about tricks."""
        if self.positions:
            if self.podium is not None:
                raise InvalidOption("podium is for a quiz about tricks; a position quiz asks one choice")
            return puzzles.questions(game, players, seed, level, count)
        return questions(game, players, seed, level, count, self.podium)

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
        """A click on a card of the trick: its value must be a card as the button writes it. For a
        position question, a choice's button: its value must be one of the question's choices."""
        if isinstance(self.question, PositionQuestion):
            if self.verdict is not None:
                self._answered_already()
                return
            text = short(value)
            if text is None:
                self._error(PageValue(too_long(value) if value else "That click carried no choice."))
                return
            if text not in {c.value for c in self.question.choices}:  # exactly as a button of this question writes it
                self._say(f"“{quote(text)}” is not one of this question's choices: click one of its buttons.")
                return
            self.answer(text)
            return
        try:
            card = clicked_card(self.rules, value)
        except TricklabError as exc:
            self._error(exc)
            return
        self.pick(card)

    def _error(self, exc: TricklabError) -> None:
        self._say(str(exc))

    def _refused(self, exc: TricklabError) -> None:
        self._error(exc)

    def _say(self, message: str) -> None:
        self.message = message

    def _answered_already(self) -> None:
        where = "press Next for the next one" if self.index < len(self.questions) - 1 else "that was the last one"
        self._say(f"This question is answered already: {where}.")

    def _from_control(self, name: str, value: Any) -> None:
        """A control's new value, given to the trait it shows; refused, the control shows the trait again."""
        try:
            setattr(self, name, value)
        except TricklabError:
            self._sync_controls()
            raise

    def _sync_controls(self) -> None:
        """The controls show the state: the level, Next usable once the question is answered
        (but the last), the look toggles."""
        self.level_picker.value = self.level
        self.next_button.disabled = self.verdict is None or self.index == len(self.questions) - 1
        self.large_toggle.value = self.large
        self.colour_toggle.value = self.four_colour

    def _update_state(self) -> None:
        """The read-only traits follow the answers: the score, the current pick, the verdict."""
        verdict = self.verdict
        picked = [str(c) for c in self.picks] if isinstance(verdict, Verdict) or verdict is None else [verdict.given]
        with self.hold_trait_notifications():  # an observer of one sees the others already changed
            self.set_trait("score", self._score())
            self.set_trait("picked", picked)
            self.set_trait("correct", None if verdict is None else verdict.correct)

    def _render(self) -> None:
        self._update_state()
        question = self.question
        verdict = self.verdict
        four = self.four_colour
        step = steps(self.rules.name)[question.level - 1]
        total = len(self.questions)
        body = (
            f'<p class="tl-caption"><span class="tl-step-no">Question {question.number} of '
            f"{total}:</span> {esc(question.prompt)}</p>"
            f'<p class="tl-summary"><strong>Level {step.number}: {esc(_sentence(step.title))}</strong> '
            f"{esc(step.text)}</p>"
        )
        score = f'<p class="tl-summary tl-score">Score: <strong>{self.score_text}</strong></p>'
        if isinstance(question, PositionQuestion):
            assert verdict is None or isinstance(verdict, PositionVerdict)
            body += self._position_html(question, verdict) + score
        elif verdict is None:
            body += self._open_trick(question, four) + score
        else:
            assert isinstance(verdict, Verdict)
            body += self._marked_trick(question, verdict, four) + score
        if verdict is not None:
            if self.index == total - 1:
                body += f'<p class="tl-summary tl-done">That was the last question: {self.score_text}.</p>'
            result = self.summary
            if result is not None:
                body += self._end_html(result)
        scene = {
            "html": body,
            "label": f"{self.rules.title} quiz: question {question.number} of {total}",
            "large": self.large,
            "step": question.number,
            "question": question.number,
            "kind": question.kind,
            "picks": list(self.picked),
            "correct": None if verdict is None else verdict.correct,
            "score": self.score_text,
            # said by the board's one live region: the question, or the verdict and the score
            "announce": f"Question {question.number} of {total}: {question.prompt}"
            if verdict is None
            else f"{verdict.feedback} Score: {self.score_text}.",
        }
        if isinstance(question, PositionQuestion) and verdict is not None:
            # the verdict is drawn below the board and the choices: on a small screen it would
            # be out of sight after the click, so the board brings it into view
            scene["focus"] = ".tl-quiz-feedback"
        with self.hold_redraw():
            self._sync_controls()
            self.scene = scene

    def _open_trick(self, question: Question, four: bool) -> str:
        """The trick with every card a button to click."""
        return open_trick_html(question.cards, kind=question.kind, picks=self.picks, four_colour=four)

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

    def _position_html(self, question: PositionQuestion, verdict: PositionVerdict | None) -> str:
        """A position question: the board as the player to move sees it, what is asked about, the
        choices as buttons; once answered, the choices marked and the engine's reasons."""
        board = position_board_html(question, verdict)
        about = about_html(question)
        choices = choices_html(question, verdict)
        if verdict is None:
            return board + about + choices
        mark, kind = ("✓", "right") if verdict.correct else ("✗", "wrong")
        head = (
            f'<p class="tl-feedback tl-{kind} tl-quiz-{kind}"><span class="tl-quiz-mark">{mark}</span> '
            f"{esc(verdict.feedback)}</p>"
        )
        why = reasons_html(verdict.deciding, title="Why")
        folded = (
            '<details class="tl-quiz-all"><summary>All the reasons</summary>'
            f"{reasons_html(verdict.reasons, title='Why')}</details>"
        )
        # focusable from the script only: the board moves focus (and so the screen) to the verdict
        box = f'<div class="tl-quiz-feedback tl-quiz-{kind}-box" tabindex="-1">{head}{why}</div>'
        return board + about + choices + box + folded

    def _end_html(self, result: QuizSummary) -> str:
        """The end of the quiz: the score, each missed question reviewed, the suggested level."""
        if result.missed:
            rows = []
            for verdict in result.missed:
                if isinstance(verdict, PositionVerdict):
                    rows.append(_missed_position(verdict))
                    continue
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
        right, answered = self._score()
        podium = "" if self.podium is None else f", podium={self.podium}"
        return (
            f"Quiz(game={self.rules.name!r}, players={self.rules.players}, seed={self.seed}, level={self.level}"
            f"{podium}, question={self.question.number}/{len(self.questions)}, score={right}/{answered})"
        )


def _sentence(title: str) -> str:
    """A level's title as a sentence: ending with a full stop unless it asks a question."""
    return title if title.endswith(("?", "!", ".")) else f"{title}."


def _missed_position(verdict: PositionVerdict) -> str:
    """One missed position question in the end's review: the question, the pick, the answer, why."""
    q = verdict.question
    answer = " or ".join(q.label(v) for v in verdict.right)
    return (
        f'<li class="tl-quiz-missed-item" data-question="{q.number}"><strong>Question {q.number}</strong>: '
        f"{esc(q.prompt)} You chose {esc(q.label(verdict.given))}; the answer is {esc(answer)}. "
        f"{_reason_text(verdict.deciding)}</li>"
    )


def _reason_text(reasons: Sequence[Reason]) -> str:
    """The engine's reasons as one escaped sentence or a few."""
    return esc(" ".join(reason.text for reason in reasons))


def setting(question: Question) -> str:
    """The trick's context (the trump) in brackets, escaped, or nothing."""
    return f" ({esc(question.setting.removesuffix('.'))})" if question.setting else ""
