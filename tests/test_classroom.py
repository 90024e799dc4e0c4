"""A class session, desk by desk (tricklab.classroom), on SQLite and on PostgreSQL: the teacher
sends, learners answer, the projector counts without names, the reveal marks each learner's own
answer, the results and the CSV hold every answer, and a reopened page goes on."""

from __future__ import annotations

import csv
import io
from itertools import count

import pytest

import tricklab
from tricklab import classwork as cw
from tricklab.classroom import LearnerDesk, TeacherDesk
from tricklab.classwork import ClassworkError
from tricklab.store import NotAllowed, Store

pytestmark = pytest.mark.server


def _clock() -> count[float]:
    return count(1.0)


def test_a_whole_session_on_the_desks(class_store: Store) -> None:
    ticks = _clock()
    clock = lambda: next(ticks)  # noqa: E731
    teacher = TeacherDesk.start(class_store, "Ms Rivera", clock)
    assert teacher.live() is None and teacher.current() is None
    ana = LearnerDesk.join(class_store, teacher.join_code, "Ana", who="a", clock=clock)
    ben = LearnerDesk.join(class_store, teacher.join_code.lower(), "Ben", who="b", clock=clock)
    cy = LearnerDesk.join(class_store, teacher.join_code, "=SUM(A1)", who="c", clock=clock)
    assert ana.now().question is None, "waiting for the teacher"

    trick = cw.which_wins("tricks-and-stones", "7H AH 8S KD", players=4, trump="S")
    teacher.send(trick)
    now = ben.now()
    assert now.question is not None and now.answer is None and now.given is None
    assert now.question.shown == trick.shown(), "each learner is shown what the class is shown, no more"
    ana.answer("8S")
    ben.answer("AH")
    ben.answer("7H")  # a learner may change their answer until the reveal
    live = teacher.live()
    assert live is not None and (live.students, live.answered) == (3, 2)
    assert [(v, n) for v, _, n in live.spread] == [("7H", 1), ("AH", 0), ("8S", 1), ("KD", 0)]
    with pytest.raises(ClassworkError, match="not one of this question's choices"):
        cy.answer("2C")
    revealed = teacher.reveal()
    assert revealed is not None and revealed.answer["right"] == ["8S"] and revealed.chosen == ()
    assert ana.now().right is True and ben.now().right is False and cy.now().right is None
    assert ben.now().answer == trick.hidden(), "after the reveal each learner gets the answer and its reasons"
    with pytest.raises(tricklab.TricklabError, match="answers are closed"):
        cy.answer("8S")

    match = tricklab.get_rules("tricks-and-stones", players=4).play(seed=3, bots="heuristic")
    bid = cw.decision(match, 0, samples=30, seed=1)
    teacher.send(bid)
    assert ana.now().given is None, "a new question: no answer yet"
    worst = bid.figures[-1].value
    ana.answer(worst)
    ben.answer(worst)
    cy.answer(bid.figures[0].value)
    shown = teacher.reveal()
    assert shown is not None and shown.chosen[0]["value"] == worst and shown.chosen[0]["count"] == 2
    assert shown.chosen[-1]["value"] == bid.figures[0].value, "the judge's best, with the most chosen"

    board = teacher.dashboard()
    assert [name for name, _ in board.students] == ["Ana", "Ben", "=SUM(A1)"]
    marks = dict(board.students)
    assert [(m.number, m.choice, m.right) for m in marks["Ana"]] == [(1, "8S", True), (2, worst, worst in bid.right)]
    assert [(m.number, m.right) for m in marks["=SUM(A1)"]] == [(2, True)]
    first = next(m for m in board.missed if m.number == 1)
    assert (first.answered, first.wrong, first.instead, first.instead_count) == (2, 1, "Seven of Hearts", 1)
    rows = list(csv.reader(io.StringIO(teacher.csv())))
    assert rows[0] == ["student", "question", "prompt", "answer", "right"]
    assert ["Ana", "1", trick.prompt, "Eight of Spades", "yes"] in rows
    assert ["Ben", "1", trick.prompt, "Seven of Hearts", "no"] in rows
    assert any(row[0] == "'=SUM(A1)" for row in rows), "a name is never a spreadsheet formula"
    assert len(rows) == 1 + 5
    assert [(m.number, m.right) for m in ana.results()] == [(1, True), (2, worst in bid.right)]


def test_reopened_pages_go_on_and_a_learner_sees_only_their_own(class_store: Store) -> None:
    teacher = TeacherDesk.start(class_store, "T")
    ana = LearnerDesk.join(class_store, teacher.join_code, "Ana")
    ben = LearnerDesk.join(class_store, teacher.join_code, "Ben")
    teacher.send(cw.which_wins("band-of-tricks", "P3 S5 R13 M13", players=4))
    ana.answer("M13")
    again = LearnerDesk.reopen(class_store, ana.student.token)  # the page reloaded, or its kernel restarted
    assert again.name == "Ana" and again.now().given == "M13"
    assert TeacherDesk.reopen(class_store, teacher.session.teacher_secret).live().answered == 1  # type: ignore[union-attr]
    assert ben.results() == [] and ben.now().given is None, "another learner's answer is never theirs"
    assert ana.now().answer is None, "no answer before the reveal"
    with pytest.raises(NotAllowed):
        TeacherDesk.reopen(class_store, ana.student.token)
    with pytest.raises(ClassworkError, match="a ClassQuestion"):
        teacher.send({"prompt": "made up"})  # type: ignore[arg-type]


def test_a_homework_set_is_answered_at_each_learners_pace(class_store: Store) -> None:
    ticks = _clock()
    clock = lambda: next(ticks)  # noqa: E731
    teacher = TeacherDesk.start(class_store, "Ms Rivera", clock)
    with pytest.raises(tricklab.TricklabError, match="send one first"):
        teacher.save_set()
    sent = [
        cw.which_wins("tricks-and-stones", "7H AH 8S KD", players=4, trump="S"),
        cw.which_wins("tricks-and-stones", "9C KC 7C", players=4, trump="H"),
        cw.from_quiz(tricklab.puzzles.questions("kalah", 2, seed=1, level=1, count=1)[0]),
    ]
    for question in sent:
        teacher.send(question)
    homework = teacher.save_set()
    assert homework.paced and homework.join_code != teacher.join_code
    assert [q.shown for q, _ in homework.store.questions(homework.session)] == [q.shown() for q in sent]
    with pytest.raises(NotAllowed, match="questions are fixed"):
        homework.send(sent[0])
    with pytest.raises(NotAllowed, match="once they have answered"):
        class_store.reveal(homework.session, homework.current()[0].id, now=1)  # type: ignore[index]

    ana = LearnerDesk.join(class_store, homework.join_code, "Ana", who="a", clock=clock)
    ben = LearnerDesk.join(class_store, homework.join_code, "Ben", who="b", clock=clock)
    assert ana.paced and not LearnerDesk.join(class_store, teacher.join_code, "Cy", clock=clock).paced
    first = ana.now()
    assert first.of == 3 and first.question is not None and first.question.number == 1 and first.answer is None
    with pytest.raises(NotAllowed, match="once you have answered"):
        class_store.revealed_answer(ana.student, first.question.id)
    ana.answer(sent[0].right[0])
    shown = ana.now()  # the answer at once, hers marked right
    assert shown.question is not None and shown.question.number == 1 and shown.right is True
    assert shown.answer is not None and shown.answer["answer"] == sent[0].answer
    with pytest.raises(ClassworkError, match="press Next"):
        ana.answer(sent[0].right[0])
    with pytest.raises(tricklab.TricklabError, match="answered this question already"):
        class_store.answer(ana.student, first.question.id, sent[0].choices[0].value, now=9)
    ana.next()
    assert ana.now().question.number == 2  # type: ignore[union-attr]
    assert ben.now().question.number == 1, "each at their own pace"  # type: ignore[union-attr]
    wrong = next(c.value for c in sent[1].choices if c.value not in sent[1].right)
    ana.answer(wrong)
    assert ana.now().right is False
    ana.next()
    ana.answer(sent[2].right[0])
    ana.next()
    done = ana.now()
    assert done.question is None and done.of == 3
    assert [m.right for m in ana.results()] == [True, False, True]

    board = homework.dashboard()
    assert dict(board.students)["Ana"] and [m.right for m in dict(board.students)["Ana"]] == [True, False, True]
    assert dict(board.students)["Ben"] == ()
    assert board.missed[0].number == 2 and board.missed[0].wrong == 1
    rows = list(csv.DictReader(io.StringIO(homework.csv())))
    assert [(r["student"], r["question"], r["right"]) for r in rows] == [
        ("Ana", "1", "yes"),
        ("Ana", "2", "no"),
        ("Ana", "3", "yes"),
    ]
    # the class session itself is untouched: no answers, nothing revealed
    assert teacher.dashboard().students == (("Cy", ()),) and not teacher.current()[0].revealed  # type: ignore[index]
    # a reopened page goes on where the learner was
    again = LearnerDesk.reopen(class_store, ben.student.token, clock)
    assert again.paced and again.now().question.number == 1  # type: ignore[union-attr]
    assert TeacherDesk.reopen(class_store, homework.session.teacher_secret).paced


def test_under_a_hub_the_teachers_link_works_only_for_the_teacher_who_started_it(class_store: Store) -> None:
    teacher = TeacherDesk.start(class_store, "rivera")
    secret = teacher.session.teacher_secret
    assert TeacherDesk.reopen(class_store, secret, who="rivera").session == teacher.session
    assert TeacherDesk.reopen(class_store, secret).session == teacher.session, "under serve the secret is enough"
    with pytest.raises(NotAllowed, match="not 'ada'"):
        TeacherDesk.reopen(class_store, secret, who="ada")
