"""Questions for a class: what the teacher sends, what every learner's page shows, and the answer
the teacher reveals.

A :class:`ClassQuestion` is made on the teacher's side from what the apps already have:

- :func:`which_wins`: a trick (the explainer's, a replay's): which card wins it?
- :func:`from_quiz`: a quiz question of any game and level: a trick's winner, or a position
  question of Kalah or Mandala (where does the last stone land? which move captures?);
- :func:`decision`: a decision of a match, as the seat to play saw it (a replay's step, the play
  table's position): which card would you play, what would you predict, bid or pass?
- :func:`best_move`: a position of a game played on a board (Kalah, Mandala: the move trainer's,
  a replay's step): which move would you make?

It splits in two. :meth:`ClassQuestion.shown` is what each learner's page is given: the prompt,
the picture with its choices as buttons (drawn as the quiz draws an open question,
:mod:`tricklab.display.questions`) and the choices. It holds nothing the answer follows from
beyond what the learner is asked to work out: no seed, no record, no card the seat to play could
not see, no marking. :meth:`ClassQuestion.hidden` is what the reveal shows: the right choices, the
answer in words and the engine's reasons, and, for a question of judgment (a card to play, a bid),
the judge's figures for every choice (:func:`tricklab.judge.evaluate`). The class store
(:mod:`tricklab.store`) keeps the two apart and gives the hidden part to a learner's page only
after the reveal.

A question of judgment is marked right for the judge's best choice and for every choice its
figures do not tell apart from the best (:attr:`tricklab.judge.ChoiceFigure.apart`): two choices
about as good are both good answers.

Nothing here imports Jupyter; bad input raises a :class:`~tricklab.errors.TricklabError` that
names the value at fault.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action, Play
from .display import view_html, with_defs
from .display.questions import answer_button, open_position_html, open_trick_html
from .errors import TricklabError, describe
from .explain import Reason
from .games import rules_for
from .games.base import CardLike, Rules, TrickOutcome
from .judge import JUDGE_SAMPLES, ChoiceFigure, choice_name, choice_reasons, evaluate, score_text
from .match import Match
from .moves import try_moves
from .puzzles import Choice, PositionQuestion
from .quiz import Question, winner_prompt, winning_reasons
from .review import ReviewEntry

#: the kinds of class question (the store's ``KINDS``)
KINDS = ("quiz", "which-wins", "play", "bid", "move")


class ClassworkError(TricklabError):
    """A class question that cannot be made, or an answer that is not one of its choices."""


@dataclass(frozen=True, slots=True)
class Figure:
    """The judge's figure for one choice of a question of judgment: its likely round score
    (``mean`` points, ``stderr`` its standard error, over ``samples`` deals), how much less than
    the best it scored (``loss``) and whether that is told apart from the best (``apart``)."""

    value: str
    label: str
    mean: float
    stderr: float | None
    samples: int
    loss: float
    apart: bool

    def as_dict(self) -> dict[str, object]:
        return {
            "value": self.value,
            "label": self.label,
            "mean": self.mean,
            "stderr": self.stderr,
            "samples": self.samples,
            "loss": self.loss,
            "apart": self.apart,
        }


@dataclass(frozen=True, slots=True)
class ClassQuestion:
    """A question for a class (see the module's notes): ``kind`` is one of :data:`KINDS`."""

    kind: str
    game: str
    players: int
    prompt: str
    picture: str
    choices: tuple[Choice, ...]
    right: tuple[str, ...]
    answer: str
    reasons: tuple[Reason, ...]
    figures: tuple[Figure, ...] = ()

    def shown(self) -> dict[str, object]:
        """What every learner's page is given (JSON): the prompt, the picture (whole: the parts
        its cards share in it, :func:`~tricklab.display.with_defs`), the choices."""
        return {
            "game": self.game,
            "players": self.players,
            "prompt": self.prompt,
            "html": with_defs(self.picture),
            "choices": [[c.value, c.label] for c in self.choices],
        }

    def hidden(self) -> dict[str, object]:
        """What the reveal shows (JSON): the right choices, the answer in words, the engine's
        reasons and the judge's figures."""
        return {
            "right": list(self.right),
            "answer": self.answer,
            "reasons": [{"rule_id": r.rule_id, "text": r.text} for r in self.reasons],
            "figures": [f.as_dict() for f in self.figures],
        }

    def mark(self, choice: object) -> bool:
        """Whether ``choice`` (a choice's value) is a right answer; anything else is refused."""
        return mark(self.hidden(), choice, [c.value for c in self.choices])


# --- questions ------------------------------------------------------------------------------------


def which_wins(
    game: str,
    cards: Iterable[CardLike] | str,
    *,
    players: int | None = None,
    four_colour: bool = False,
    **context: Any,
) -> ClassQuestion:
    """ "Which card wins this trick?" for ``cards`` (in play order, the first led) of ``game``,
    with the trick's ``context`` (the trump)."""
    rules = rules_for(game, players)
    outcome = rules.resolve_trick(cards, **context)
    setting = {str(k): None if v is None else str(v) for k, v in outcome.context.items()}
    return _trick_question("which-wins", rules, outcome, winner_prompt(setting), four_colour)


def from_quiz(question: Question | PositionQuestion, *, four_colour: bool = False) -> ClassQuestion:
    """A quiz question for the class: a trick asks which card wins (a podium question too: a class
    answers with one click), a position question asks what it asks (``kind`` ``"move"`` for
    "which move?", else ``"quiz"``)."""
    if isinstance(question, Question):
        prompt = question.prompt if question.kind == "winner" else winner_prompt(question.context)
        return _trick_question("quiz", question.rules, question.outcome, prompt, four_colour)
    if isinstance(question, PositionQuestion):
        marking = question.marking
        return ClassQuestion(
            "move" if question.kind == "move" else "quiz",
            question.game,
            question.players,
            question.prompt,
            open_position_html(question),
            question.choices,
            marking.right,
            marking.answer,
            marking.reasons,
        )
    raise ClassworkError(
        f"a quiz question is one of tricklab.quiz.questions or tricklab.puzzles.questions, not {describe(question)}"
    )


def decision(
    match: Match, at: int | None = None, *, samples: int = JUDGE_SAMPLES, seed: int = 0, four_colour: bool = False
) -> ClassQuestion:
    """The decision at ``match.states[at]`` (default: now) as the seat to play saw it: "which card
    would you play?" (``kind`` ``"play"``), or the prediction, bid or pass before the round
    (``"bid"``). The judge rates every choice (:func:`tricklab.judge.evaluate`, ``samples`` deals
    drawn with ``seed``); the learners see the seat's own view only."""
    if not isinstance(match, Match):
        raise ClassworkError(f"a decision is asked of a Match, not {describe(match)}")
    rules = match.rules
    review = rules.capabilities.review
    if review is None:
        raise ClassworkError(
            f"{rules.title} has no judge of its decisions: send one of its quiz questions (from_quiz) instead"
        )
    at, state, seat = _decision_at(match, at, "play")
    ev = evaluate(match, at, samples=samples, seed=seed)
    view = rules.view(state, seat)
    # the choices in the rules' own order (a hand's order, bids from the lowest): the judge's,
    # best first, would give the answer away
    legal = {action: i for i, action in enumerate(rules.legal_actions(state))}
    rated = sorted(ev.choices, key=lambda c: legal.get(c.action, len(legal)))
    cards = all(isinstance(c.action, Play) for c in rated)
    choices = tuple(Choice(_value(c.action), _label(rules, c.action, view)) for c in rated)
    if cards:
        playable = [c.action.card for c in rated if isinstance(c.action, Play)]
        picture = view_html(rules, view, legal=playable, hand_intent="answer", four_colour=four_colour)
        prompt = f"You are {rules.seat_name(seat)}. Which card would you play?"
    else:
        buttons = "".join(answer_button(c.value, c.label) for c in choices)
        picture = view_html(rules, view, four_colour=four_colour) + (
            f'<div class="tl-quiz-choices tl-quiz-move" role="group" aria-label="choices">{buttons}</div>'
        )
        prompt = f"You are {rules.seat_name(seat)}. Which would you choose?"
    kind = "bid" if ev.advice is not None else "play"
    if kind == "bid":
        prompt = f"You are {rules.seat_name(seat)}, and these are your cards. Which would you choose before the round?"
    best = ev.best
    label = {c.value: c.label for c in choices}
    figures = tuple(_figure(c, label[_value(c.action)]) for c in ev.choices)  # the judge's order: best first
    right = tuple(f.value for f in figures if not f.apart)
    answer = (
        f"The judge's choice: {choice_name(rules, best.action)}, about {score_text(rules, best.mean)} on average "
        f"over {best.samples} deals that fit what {rules.seat_name(seat)} knew."
    )
    reasons = choice_reasons(rules, review.load_as(ReviewEntry).wording, ev, best)
    return ClassQuestion(kind, rules.name, rules.players, prompt, picture, choices, right, answer, reasons, figures)


def best_move(match: Match, at: int | None = None) -> ClassQuestion:
    """ "Which move would you make?" at ``match.states[at]`` (default: now) of a game played on a
    board, as the player to move sees it (:func:`tricklab.moves.try_moves`). The right answers are
    the game's bot's move and every move its search values as highly; the reveal gives the rules
    the best move's steps cite."""
    if not isinstance(match, Match):
        raise ClassworkError(f"a move is asked of a Match, not {describe(match)}")
    rules = match.rules
    at, state, seat = _decision_at(match, at, "move")
    outcomes = try_moves(rules, state)
    if len(outcomes) < 2:
        raise ClassworkError(f"only one move is allowed at step {at}: there is nothing to choose")
    best = next(o for o in outcomes if o.best)
    right = tuple(o.text for o in outcomes if o.best or (o.value is not None and o.value == best.value))
    choices = tuple(Choice(o.text, o.description) for o in outcomes)
    buttons = "".join(answer_button(c.value, c.label) for c in choices)
    picture = view_html(rules, rules.view(state, seat)) + (
        f'<div class="tl-quiz-choices tl-quiz-move" role="group" aria-label="choices">{buttons}</div>'
    )
    prompt = f"You are {rules.seat_name(seat)}, to move. Which move would you make?"
    tied = " (or any move its search values as highly)" if len(right) > 1 else ""
    who = "The engine's search chooses" if best.value is not None else "The game's bot chooses"
    answer = f"{who}: {best.description}{tied}."
    cited = {r.rule_id for r in best.verdict}
    reasons = best.verdict + tuple(r for r in best.reasons if r.rule_id not in cited)
    return ClassQuestion("move", rules.name, rules.players, prompt, picture, choices, right, answer, reasons)


# --- answers --------------------------------------------------------------------------------------


def mark(hidden: Mapping[str, object], choice: object, choices: Sequence[str]) -> bool:
    """Whether ``choice`` is right by a question's ``hidden`` part; a choice that is not one of
    ``choices`` (the values the learners were shown) is refused."""
    if not isinstance(choice, str) or choice not in choices:
        listed = ", ".join(f"“{c}”" for c in list(choices)[:8]) + (", ..." if len(choices) > 8 else "")
        raise ClassworkError(f"{describe(choice)} is not one of this question's choices ({listed})")
    right = hidden.get("right")
    return isinstance(right, list) and choice in right


def spread(choices: Sequence[tuple[str, str]], counts: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """How many chose each choice, in the choices' order (none left out): ``(value, label, count)``."""
    return [(value, label, int(counts.get(value, 0))) for value, label in choices]


def most_chosen(hidden: Mapping[str, object], counts: Mapping[str, int], top: int = 3) -> list[dict[str, object]]:
    """The judge's figures of the ``top`` most chosen answers (most chosen first), and of the
    judge's best if it is not among them: what the reveal shows for a question of judgment."""
    figures = hidden.get("figures")
    if not isinstance(figures, list) or not figures:
        return []
    chosen = sorted((f for f in figures if counts.get(str(f["value"]), 0)), key=lambda f: -counts[str(f["value"])])
    shown = chosen[:top]
    best = figures[0]
    if best not in shown:
        shown.append(best)
    return [{**f, "count": int(counts.get(str(f["value"]), 0))} for f in shown]


# --- internals ------------------------------------------------------------------------------------


def _decision_at(match: Match, at: object, verb: str) -> tuple[int, Any, int]:
    """The step ``at`` of ``match`` (``None``: now), checked: ``(at, its state, the seat to play)``."""
    at = len(match.states) - 1 if at is None else at
    if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at < len(match.states):
        raise ClassworkError(f"at is a step of the match, 0 to {len(match.states) - 1}, not {describe(at)}")
    state = match.states[at]
    seat = state.to_play
    if seat is None:
        raise ClassworkError(f"nobody is to {verb} at step {at}: the match is over there")
    return at, state, int(seat)


def _trick_question(kind: str, rules: Rules[Any], outcome: TrickOutcome, prompt: str, four: bool) -> ClassQuestion:
    """Which card of the trick wins: its cards are the choices, the engine's ranking the answer."""
    winner = outcome.winning_card
    choices = tuple(Choice(str(card), card.name) for card in outcome.cards)
    reasons = winning_reasons(outcome)
    answer = f"{winner.name} wins."
    picture = open_trick_html(outcome.cards, four_colour=four)
    return ClassQuestion(kind, rules.name, rules.players, prompt, picture, choices, (str(winner),), answer, reasons)


def _value(action: Action) -> str:
    """A choice's value: a card's code (what a card's button sends), else the action's text."""
    return str(action.card) if isinstance(action, Play) else str(action)


def _label(rules: Rules[Any], action: Action, view: Any) -> str:
    return rules.describe_action(action, view)


def _figure(fig: ChoiceFigure, label: str) -> Figure:
    stderr = fig.stderr if math.isfinite(fig.stderr) else None
    return Figure(_value(fig.action), label, fig.mean, stderr, fig.samples, fig.loss, fig.apart)
