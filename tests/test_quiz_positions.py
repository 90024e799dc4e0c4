"""The position quiz (tricklab.puzzles) of the games without tricks, and the Quiz widget asking it.

Every answer is checked here against the checked Match API on a match rebuilt from the
question's seed and actions: the steps of its timeline (the last stone sown, a capture) and
its refusals (``IllegalAction`` and its rule id)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

import tricklab
from tricklab import puzzles, quiz
from tricklab.actions import Sow, ToField, ToMountain
from tricklab.display import esc
from tricklab.errors import IllegalAction, InvalidOption, TricklabError
from tricklab.games.base import EventKind
from tricklab.games.kalah import pit_index
from tricklab.puzzles import InvalidAnswer, PositionQuestion
from tricklab.widgets import Quiz
from tricklab.widgets.apps import quiz_app

GAMES = ["kalah", "mandala"]
SETUPS = [(game, step.number) for game in GAMES for step in puzzles.levels(game)]


def rebuilt(question: PositionQuestion) -> tricklab.Match:
    """The question's position, replayed with the checked API from its seed and actions."""
    match = tricklab.get_rules(question.game, players=question.players).new_match(seed=question.position.seed)
    for action in question.position.actions:
        match.apply(action)
    assert match.state == question.position.state
    return match


def after(match: tricklab.Match, action: str) -> list[Any]:
    """The events of the timeline that ``action`` adds to ``match`` (a copy of it is changed)."""
    played = match.copy()
    played.apply(action)
    return [step.event for step in played.timeline() if step.decisions == len(played.actions)]


def last_stone(events: list[Any]) -> int:
    return int([e for e in events if e.kind is EventKind.STONE][-1].data["index"])


def captures(events: list[Any]) -> bool:
    return any(e.kind is EventKind.CAPTURE for e in events)


def engine_answer(question: PositionQuestion) -> set[str]:
    """The right answer as the checked Match API gives it, worked out here from scratch."""
    match = rebuilt(question)
    if question.kind == "place":
        assert question.asked.action is not None
        return {str(last_stone(after(match, question.asked.action)))}
    if question.kind == "move":
        return {str(a) for a in match.legal_actions() if captures(after(match, str(a)))}
    assert question.asked.action is not None
    try:
        match.copy().apply(question.asked.action)
    except IllegalAction:
        return {"no"}
    return {"yes"}


# --- the questions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "level"), SETUPS)
def test_every_answer_agrees_with_the_checked_match(game: str, level: int) -> None:
    for question in puzzles.questions(game, seed=11, level=level, count=12):
        assert set(question.answer) == engine_answer(question), question
        for value in question.answer:
            assert puzzles.check(question, value).correct


@pytest.mark.parametrize(("game", "level"), SETUPS)
def test_the_choices_are_what_the_question_asks_among(game: str, level: int) -> None:
    for question in puzzles.questions(game, seed=4, level=level, count=6):
        match = rebuilt(question)
        values = [c.value for c in question.choices]
        assert len(set(values)) == len(values) and all(c.label for c in question.choices)
        if question.kind == "move":  # every legal move, and nothing else
            assert values == [str(a) for a in match.legal_actions()]
        elif question.kind == "place":  # every place of the board, the opponent's store too
            assert values == [str(i) for i in range(14)]
            assert question.asked.action in {str(a) for a in match.legal_actions()}
        else:
            assert values == ["yes", "no"]


def test_the_same_seed_gives_the_same_questions() -> None:
    for game, level in SETUPS:
        first = puzzles.questions(game, seed=5, level=level, count=5)
        again = puzzles.questions(game, seed=5, level=level, count=8)
        assert first == again[:5], "a longer quiz starts with the questions of a shorter one"
        assert [q.prompt for q in first] == [q.prompt for q in again[:5]]
        assert [q.answer for q in first] == [q.answer for q in again[:5]]
        other = puzzles.questions(game, seed=6, level=level, count=5)
        assert [q.position for q in other] != [q.position for q in first]


def test_a_quiz_is_the_same_in_another_python_process() -> None:
    code = (
        "from tricklab import puzzles\n"
        "for q in puzzles.questions('kalah', seed=9, level=3, count=4) + puzzles.questions('mandala', seed=9, "
        "level=3, count=4):\n"
        "    print(q.position.seed, q.position.actions, q.asked.action, q.answer)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    here = [
        f"{q.position.seed} {q.position.actions} {q.asked.action} {q.answer}"
        for q in puzzles.questions("kalah", seed=9, level=3, count=4)
        + puzzles.questions("mandala", seed=9, level=3, count=4)
    ]
    assert out.splitlines() == here


def test_no_question_is_asked_twice_in_a_quiz() -> None:
    for game, level in SETUPS:
        asked = [(q.position.state, q.asked.action) for q in puzzles.questions(game, seed=2, level=level, count=30)]
        assert len(set(asked)) == len(asked)


def test_each_kalah_level_asks_what_it_says() -> None:
    rules = tricklab.get_rules("kalah", players=2)
    for level in (1, 2):
        for question in puzzles.questions("kalah", seed=3, level=level, count=15):
            assert question.kind == "place"
            action = rules.parse_action(question.asked.action or "")
            assert isinstance(action, Sow)
            stones = question.position.state.pits[pit_index(question.position.to_play, action.pit)]
            assert (stones <= 6) if level == 1 else (stones >= 7), question
            assert f"sows pit {action.pit}, which holds {stones} stone" in question.prompt
    long_skips = 0
    for question in puzzles.questions("kalah", seed=3, level=2, count=30):
        assert question.asked.action is not None
        events = after(rebuilt(question), question.asked.action)
        long_skips += any(e.data.get("skipped") for e in events if e.kind is EventKind.STONE)
    assert long_skips, "some long sowings pass the other player's store"
    for question in puzzles.questions("kalah", seed=3, level=3, count=15):
        match = rebuilt(question)
        assert question.kind == "move" and question.asked.action is None
        caught = [captures(after(match, str(a))) for a in match.legal_actions()]
        assert any(caught) and not all(caught), "some moves capture and some do not"


def test_each_mandala_level_asks_what_it_says() -> None:
    rules = tricklab.get_rules("mandala", players=2)
    kinds = {1: (ToMountain,), 2: (ToField,), 3: (ToMountain, ToField)}
    for level, allowed in kinds.items():
        seen: set[type] = set()
        answers: set[str] = set()
        for question in puzzles.questions("mandala", seed=8, level=level, count=24):
            action = rules.parse_action(question.asked.action or "")
            assert isinstance(action, allowed) and question.kind == "yes-no"
            seen.add(type(action))
            answers |= set(question.answer)
            view = question.view()
            held = view.hands[question.position.to_play]  # type: ignore[attr-defined]
            assert held.get(action.colour), "the question is about a card the player holds"
            assert action.colour in question.prompt and action.colour in question.asked.about
            assert str(rebuilt(question).phase) == "play"
        assert seen == set(allowed)
        assert answers == {"yes", "no"}, "both answers come up"


# --- checking answers --------------------------------------------------------------------------------


def test_a_wrong_last_stone_answer_gives_the_engines_reasons() -> None:
    question = puzzles.questions("kalah", seed=1, level=2, count=1)[0]
    wrong = next(c.value for c in question.choices if c.value not in question.answer)
    verdict = puzzles.check(question, wrong)
    assert not verdict.correct and verdict.right == question.answer
    events = after(rebuilt(question), question.asked.action or "")
    last = [e for e in events if e.kind is EventKind.STONE][-1]
    assert set(last.reasons) <= set(verdict.deciding), "the reasons of the stone that fell last"
    assert "mk.sow" in {r.rule_id for r in verdict.deciding}
    assert last.text in verdict.feedback and question.label(wrong) in verdict.feedback
    assert verdict.feedback.startswith(f"You chose “{question.label(wrong)}”.")
    right = puzzles.check(question, question.answer[0])
    assert right.correct and right.feedback.startswith("Right. The last stone lands in")


def test_a_wrong_capture_answer_says_what_that_move_does() -> None:
    question = puzzles.questions("kalah", seed=1, level=3, count=1)[0]
    match = rebuilt(question)
    wrong = next(c.value for c in question.choices if c.value not in question.answer)
    verdict = puzzles.check(question, wrong)
    events = after(match, wrong)
    assert not verdict.correct and not captures(events)
    assert "mk.capture" in {r.rule_id for r in verdict.deciding}
    assert [e for e in events if e.kind is EventKind.STONE][-1].text in verdict.said
    assert "Nothing is captured." in verdict.feedback
    right = puzzles.check(question, question.answer[0])
    capture = next(e for e in after(match, question.answer[0]) if e.kind is EventKind.CAPTURE)
    assert right.correct and capture.text in right.feedback and set(capture.reasons) <= set(right.reasons)


def test_a_wrong_may_answer_gives_the_engines_refusal_or_what_happens() -> None:
    questions = puzzles.questions("mandala", seed=2, level=3, count=20)
    no = next(q for q in questions if q.answer == ("no",))
    yes = next(q for q in questions if q.answer == ("yes",))
    with pytest.raises(IllegalAction) as refused:
        rebuilt(no).apply(no.asked.action or "")
    verdict = puzzles.check(no, "yes")
    assert not verdict.correct
    assert [r.rule_id for r in verdict.deciding] == [refused.value.rule_id]
    assert str(refused.value).rstrip(".").lower() in verdict.feedback.lower()
    verdict = puzzles.check(yes, "no")
    first = after(rebuilt(yes), yes.asked.action or "")[0]
    assert not verdict.correct and verdict.deciding == first.reasons and first.text in verdict.feedback
    assert "md.color" in {r.rule_id for r in verdict.deciding}


def test_answers_are_read_loosely_but_only_as_choices() -> None:
    kalah = puzzles.questions("kalah", seed=1, level=3, count=1)[0]
    assert puzzles.check(kalah, "  " + kalah.answer[0].upper() + " ").given == kalah.answer[0]
    mandala = puzzles.questions("mandala", seed=1, level=1, count=1)[0]
    assert puzzles.check(mandala, "YES").given == "yes"


@pytest.mark.parametrize(
    ("game", "level", "answer", "words"),
    [
        ("kalah", 1, 3, "not 3"),
        ("kalah", 1, None, "not None"),
        ("kalah", 1, "14", "'14' is not one of this question's choices"),
        ("kalah", 1, "yes", "'yes' is not one of"),
        ("kalah", 3, "sow 9", "'sow 9' is not one of"),
        ("kalah", 3, "<script>alert(1)</script>", "is not one of"),
        ("kalah", 3, "x" * 100_000, "100000"),
        ("mandala", 1, "maybe", "'maybe' is not one of this question's choices; pick one of “yes”, “no”"),
        ("mandala", 1, "sow 1", "'sow 1' is not one of"),
        ("mandala", 1, ["yes"], "not ['yes']"),
    ],
)
def test_bad_answers_raise_typed_errors(game: str, level: int, answer: object, words: str) -> None:
    question = puzzles.questions(game, seed=1, level=level, count=1)[0]
    with pytest.raises(InvalidAnswer) as error:
        puzzles.check(question, answer)
    message = str(error.value)
    assert isinstance(error.value, TricklabError) and (words in message or words in message.replace(",", ""))
    assert len(str(error.value)) < 300, "a long value is quoted shortened"


def test_bad_settings_raise_typed_errors() -> None:
    with pytest.raises(InvalidOption, match="levels 1 to 3, not 4"):
        puzzles.questions("kalah", level=4)
    with pytest.raises(InvalidOption, match="levels 1 to 3, not True"):
        puzzles.questions("mandala", level=True)
    with pytest.raises(InvalidOption, match="2 players, not 4"):
        puzzles.questions("kalah", players=4)
    with pytest.raises(InvalidOption, match="1 to 100 questions, not 0"):
        puzzles.questions("kalah", count=0)
    with pytest.raises(InvalidOption, match="seed"):
        puzzles.questions("mandala", seed=-1)
    with pytest.raises(InvalidOption, match="asks about tricks"):
        puzzles.questions("band-of-tricks", players=4)
    with pytest.raises(InvalidOption, match=r"tricklab\.puzzles\.questions"):
        quiz.questions("kalah", players=2)
    with pytest.raises(tricklab.UnknownGame):
        puzzles.questions("<b>chess</b>")
    with pytest.raises(InvalidOption, match="position question"):
        puzzles.check(quiz.questions("jewel-vault", count=1)[0], "yes")  # type: ignore[arg-type]


def test_the_summary_and_the_next_level_take_position_verdicts() -> None:
    questions = puzzles.questions("kalah", seed=1, level=2, count=10)
    verdicts: list[Any] = [puzzles.check(q, q.answer[0]) for q in questions[:8]]
    verdicts += [puzzles.check(q, next(c.value for c in q.choices if c.value not in q.answer)) for q in questions[8:]]
    result = quiz.summary(verdicts)
    assert (result.right, result.asked, result.suggested, result.move) == (8, 10, 3, "up")
    assert result.missed == tuple(verdicts[8:])
    assert "ready for level 3, which move captures?" in result.advice
    top = quiz.summary([puzzles.check(q, q.answer[0]) for q in puzzles.questions("mandala", level=3, count=4)])
    assert top.move == "stay" and "another seed deals new positions" in top.advice
    assert quiz.suggested_level("mandala", 1, 2, 10) == 1 and quiz.suggested_level("mandala", 2, 2, 10) == 1
    assert [s.number for s in quiz.steps("kalah")] == [1, 2, 3] and quiz.levels("kalah") == ()
    with pytest.raises(InvalidOption, match="levels 1 to 3, not 4"):
        quiz.suggested_level("kalah", 4, 1, 2)


# --- the widget ------------------------------------------------------------------------------------------


def open_state(widget: Quiz) -> tuple[Any, ...]:
    scene = dict(widget.board.scene)
    return widget.index, list(widget.verdicts), widget.score, scene["html"], scene["question"]


HOSTILE = [
    "<script>alert(1)</script>",
    '" onmouseover="alert(1)',
    "x" * 100_000,
    "",
    None,
    "sow 1 ",
    "\u202eon",
]


@pytest.mark.parametrize("game", GAMES)
def test_widget_asks_on_the_board_and_marks_with_the_engine(game: str) -> None:
    widget = Quiz(game, seed=5, level=1, count=3)
    question = widget.question
    assert isinstance(question, PositionQuestion)
    assert question == puzzles.questions(game, seed=5, level=1, count=3)[0]
    html = widget.board.scene["html"]
    assert 'class="tl-board' in html, "the game's board is drawn"
    for choice in question.choices:
        assert f'data-intent="answer" data-value="{choice.value}"' in html
    assert widget.board.scene["kind"] == question.kind and widget.next_button.disabled
    widget.board.intent("answer", question.answer[0])
    verdict = widget.verdict
    assert verdict is not None and verdict.correct and widget.score == (1, 1)
    html = widget.board.scene["html"]
    assert "Score: <strong>1 of 1 right</strong>" in html and widget.board.scene["correct"] is True
    for reason in verdict.reasons:
        assert f'data-rule="{reason.rule_id}"' in html
    assert 'data-intent="answer"' not in html, "an answered question takes no more clicks"
    assert not widget.next_button.disabled
    assert widget.board.scene["picks"] == [question.answer[0]]
    if question.kind == "place":  # the board marks where the engine says the last stone fell
        assert html.count("tl-marked") == 1
        tag = html[html.index("tl-marked") :].split(">", 1)[0]
        assert f'aria-label="{esc(question.label(question.answer[0]))}:' in tag
    widget.board.intent("key", "ArrowRight")
    assert widget.index == 1 and widget.verdict is None


def test_widget_move_questions_are_answered_on_the_boards_pits() -> None:
    widget = Quiz("kalah", seed=2, level=3, count=2)
    question = widget.question
    assert isinstance(question, PositionQuestion)
    html = widget.board.scene["html"]
    for choice in question.choices:  # the board's own pit buttons, each sowing one pit
        assert html.count(f'data-intent="answer" data-value="{choice.value}"') == 1
    wrong = next(c.value for c in question.choices if c.value not in question.answer)
    widget.board.intent("answer", wrong)
    verdict = widget.verdict
    assert verdict is not None and not verdict.correct and widget.score == (0, 1)
    html = widget.board.scene["html"]
    assert "✗" in html and 'data-rule="mk.capture"' in html and "Nothing is captured." in html
    assert f'data-value="{question.answer[0]}" data-correct="true"' in html


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("value", HOSTILE)
def test_widget_refuses_values_no_button_sends(game: str, value: str | None) -> None:
    widget = Quiz(game, seed=3, level=3, count=2)
    before = open_state(widget)
    widget.board.intent("answer", value)
    assert open_state(widget) == before, "nothing changed"
    message = widget.message  # plain text, shown as text in the widget's live region
    assert message and len(message) < 600
    assert "\u202e" not in message, "no text direction turned around (markup in it is shown as text)"


@pytest.mark.parametrize("game", GAMES)
def test_widget_refuses_an_answer_to_another_question(game: str) -> None:
    other = "yes" if game == "kalah" else "sow 1"  # the other game's answer
    widget = Quiz(game, seed=3, level=1, count=3)
    second = widget.questions[1]
    assert isinstance(second, PositionQuestion)
    for value in (other, "claim red", "14"):
        before = open_state(widget)
        widget.board.intent("answer", value)
        assert open_state(widget) == before
        assert "is not one of this question's choices" in widget.message
    first = widget.question
    assert isinstance(first, PositionQuestion)
    widget.board.intent("answer", first.answer[0])
    answered = open_state(widget)
    widget.board.intent("answer", second.answer[0])  # the next question's answer, sent before Next
    assert open_state(widget) == answered and "answered already" in widget.message


def test_widget_ends_with_the_review_and_the_next_level() -> None:
    widget = Quiz("mandala", seed=4, level=1, count=3)
    for n, question in enumerate(widget.questions):
        assert isinstance(question, PositionQuestion)
        pick = question.answer[0] if n else ("yes" if question.answer == ("no",) else "no")
        widget.board.intent("answer", pick)
        widget.next()
    assert widget.finished and widget.score == (2, 3)
    result = widget.summary
    assert result is not None and result.right == 2 and len(result.missed) == 1
    html = widget.board.scene["html"]
    assert 'class="tl-quiz-end"' in html and 'data-question="1"' in html
    missed = result.missed[0]
    assert missed.deciding and all(f'data-rule="{r.rule_id}"' in html for r in missed.reasons)
    assert f'data-intent="level" data-value="{result.suggested}"' in html
    widget.board.intent("level", str(result.suggested))
    assert widget.level == result.suggested and widget.score == (0, 0) and widget.index == 0


def test_widget_level_picker_new_deal_and_bad_settings() -> None:
    widget = Quiz("kalah", seed=1, level=1, count=2)
    assert [label for label, _ in widget.level_picker.options] == [
        "1: Where does the last stone land?",
        "2: Long sowings",
        "3: Which move captures?",
    ]
    widget.set_level(3)
    assert widget.level == 3 and widget.question == puzzles.questions("kalah", seed=1, level=3, count=2)[0]
    widget.new_deal()
    assert widget.seed == 2 and widget.question == puzzles.questions("kalah", seed=2, level=3, count=2)[0]
    assert widget.link_state()["level"] == "3"
    with pytest.raises(InvalidOption, match="podium"):
        Quiz("kalah", podium=True)
    with pytest.raises(InvalidOption, match="levels 1 to 3"):
        Quiz("mandala", level=7)


def test_quiz_app_opens_a_position_quiz_and_escapes_the_link() -> None:
    app = quiz_app("game=kalah&seed=4&level=3&question=2")
    widget = next(child for child in _walk(app) if isinstance(child, Quiz))
    assert (widget.level, widget.seed, widget.index, widget.question.kind) == (3, 4, 1, "move")
    app = quiz_app("game=mandala&level=%3Cscript%3E&question=%22%3E%3Cb%3E")
    widget = next(child for child in _walk(app) if isinstance(child, Quiz))
    assert widget.level == 1 and widget.index == 0
    texts = " ".join(str(getattr(child, "value", "")) for child in _walk(app))
    assert "<script>" not in texts and "<b>" not in texts
    assert "There is no level “&lt;script&gt;” in the Mandala quiz (1 to 3)" in texts


def _walk(widget: Any) -> list[Any]:
    found = [widget]
    for child in getattr(widget, "children", ()):
        found += _walk(child)
    return found
