"""A class session, the teacher's side and each learner's: what the class app's pages show, with
no Jupyter in it.

A :class:`TeacherDesk` starts a session (its join code goes on the projector), sends questions
(:mod:`tricklab.classwork`), follows the answers as they come in (how many answered, how many
chose each answer, never who), reveals the answer with the engine's reasons and, for a question of
judgment, the judge's figures for the answers most chosen, and reads the results: each student's
answers marked, the questions most missed and what was chosen instead, and a CSV of it all.

A :class:`LearnerDesk` joins with the code and a display name, is given the current question (what
every learner is shown, never its answer), answers it (again, until the reveal), sees the answer
once it is revealed with their own answer marked, and reads their own results only.

Everything is kept in the class store (:mod:`tricklab.store`): a page opened again from its link
(a reload, a restarted server or kernel) reopens its desk (:meth:`TeacherDesk.reopen`,
:meth:`LearnerDesk.reopen`) and the session goes on.
"""

from __future__ import annotations

import csv
import io
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .classwork import ClassQuestion, ClassworkError, mark, most_chosen, spread
from .errors import describe
from .store import ClassStore, NotAllowed, Question, Session, Student

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Live:
    """The current question as the projector shows it while answers come in: ``answered`` of
    ``students``, and how many chose each choice (``(value, label, count)``), no names."""

    question: Question
    students: int
    answered: int
    spread: tuple[tuple[str, str, int], ...]


@dataclass(frozen=True, slots=True)
class Reveal:
    """A revealed question: the ``answer`` part the class store kept (the right choices, the answer
    in words, the engine's reasons, the judge's figures) and, for a question of judgment, the
    figures of the answers most ``chosen``."""

    question: Question
    answer: Mapping[str, object]
    spread: tuple[tuple[str, str, int], ...]
    chosen: tuple[Mapping[str, object], ...]


@dataclass(frozen=True, slots=True)
class Mark:
    """One answer of one student, marked: ``right`` is ``None`` while the question is not revealed."""

    number: int
    choice: str
    label: str
    right: bool | None


@dataclass(frozen=True, slots=True)
class Missed:
    """A question as the class answered it: how many were ``wrong`` of those who ``answered``, and
    the wrong answer chosen most (its label and how many chose it)."""

    number: int
    prompt: str
    answered: int
    wrong: int
    instead: str
    instead_count: int


@dataclass(frozen=True, slots=True)
class Dashboard:
    """The results of a session: each student's answers (by name, in the order they joined), and the
    revealed questions, most missed first."""

    questions: tuple[Question, ...]
    students: tuple[tuple[str, tuple[Mark, ...]], ...]
    missed: tuple[Missed, ...]


def choices_of(question: Question) -> list[tuple[str, str]]:
    """The question's choices as its learners were shown them: ``(value, label)``."""
    listed = question.shown.get("choices")
    if not isinstance(listed, list):
        return []
    return [(str(c[0]), str(c[1])) for c in listed if isinstance(c, list) and len(c) == 2]


def _label(question: Question, value: str) -> str:
    return dict(choices_of(question)).get(value, value)


def _marked(question: Question, answer: object, choice: str) -> bool | None:
    if not question.revealed or not isinstance(answer, Mapping):
        return None
    try:
        return mark(answer, choice, [value for value, _ in choices_of(question)])
    except ClassworkError:
        return False


class TeacherDesk:
    """The teacher's side of a session (see the module's notes)."""

    def __init__(self, store: ClassStore, session: Session, clock: Clock = time.time) -> None:
        self.store = store
        self.session = session
        self._clock = clock

    @classmethod
    def start(cls, store: ClassStore, teacher: str, clock: Clock = time.time) -> TeacherDesk:
        """A new session of ``teacher`` (the hub user, or who runs ``tricklab serve``)."""
        return cls(store, store.new_session(teacher, now=clock()), clock)

    @classmethod
    def reopen(cls, store: ClassStore, teacher_secret: str, clock: Clock = time.time, *, who: str = "") -> TeacherDesk:
        """The session of the teacher's link (its secret): a reloaded page goes on with it.
        ``who`` (under JupyterHub: the hub user) must be the teacher who started it, so a link
        that reached someone else does not make them the teacher."""
        session = store.teacher_session(teacher_secret)
        if who and who != session.teacher:
            raise NotAllowed(
                f"only the teacher who started this class session may open its teacher's link, not {describe(who)}"
            )
        return cls(store, session, clock)

    @property
    def join_code(self) -> str:
        return self.session.join_code

    def send(self, question: ClassQuestion) -> Question:
        """Send ``question`` to the class: every learner's page shows it at once."""
        if not isinstance(question, ClassQuestion):
            raise ClassworkError(f"a class is sent a ClassQuestion (tricklab.classwork), not {describe(question)}")
        return self.store.send(self.session, question.kind, question.shown(), question.hidden(), now=self._clock())

    @property
    def paced(self) -> bool:
        """Whether this is a homework set (its questions fixed, answered at each student's pace)."""
        return self.session.paced

    def save_set(self) -> TeacherDesk:
        """Save the questions sent so far as a homework set: the set's own desk (its join code
        and link are the students', its teacher's secret reopens its results)."""
        return TeacherDesk(self.store, self.store.new_set(self.session, now=self._clock()), self._clock)

    def current(self) -> tuple[Question, object] | None:
        """The latest question sent and its answer, or ``None`` before the first."""
        asked = self.store.questions(self.session)
        return asked[-1] if asked else None

    def live(self) -> Live | None:
        """The current question as answers come in (``None`` before the first question)."""
        current = self.current()
        if current is None:
            return None
        question, _ = current
        counts = self.store.counts(self.session, question.id)
        students = len(self.store.students(self.session))
        return Live(question, students, sum(counts.values()), tuple(spread(choices_of(question), counts)))

    def reveal(self) -> Reveal | None:
        """Reveal the current question's answer (answers close): what the projector then shows."""
        current = self.current()
        if current is None:
            return None
        self.store.reveal(self.session, current[0].id, now=self._clock())
        return self.revealed()

    def revealed(self) -> Reveal | None:
        """The current question's reveal, if it has been revealed (a projector reloaded after the
        reveal shows the same), else ``None``."""
        current = self.current()
        if current is None or not current[0].revealed:
            return None
        question, answer = current
        counts = self.store.counts(self.session, question.id)
        shown = answer if isinstance(answer, Mapping) else {}
        return Reveal(question, shown, tuple(spread(choices_of(question), counts)), tuple(most_chosen(shown, counts)))

    def dashboard(self) -> Dashboard:
        """Each student's answers marked, and the revealed questions most missed first."""
        asked = self.store.questions(self.session)
        by_number = {q.number: (q, answer) for q, answer in asked}
        given: dict[str, dict[int, str]] = {}
        for number, name, choice in self.store.results(self.session):
            given.setdefault(name, {})[number] = choice
        students = []
        for name in self.store.students(self.session):
            marks = []
            for number, choice in sorted(given.get(name, {}).items()):
                question, answer = by_number[number]
                marks.append(Mark(number, choice, _label(question, choice), _marked(question, answer, choice)))
            students.append((name, tuple(marks)))
        missed = []
        for question, answer in asked:
            if not question.revealed:
                continue
            choices = [given[name][question.number] for name in given if question.number in given[name]]
            wrong = Counter(c for c in choices if _marked(question, answer, c) is False)
            instead, count = wrong.most_common(1)[0] if wrong else ("", 0)
            missed.append(
                Missed(
                    question.number,
                    str(question.shown.get("prompt", "")),
                    len(choices),
                    sum(wrong.values()),
                    _label(question, instead) if instead else "",
                    count,
                )
            )
        missed.sort(key=lambda m: (-m.wrong, m.number))
        return Dashboard(tuple(q for q, _ in asked), tuple(students), tuple(missed))

    def csv(self) -> str:
        """The session's answers as CSV: one row per answer (student, question, its prompt, the
        answer given, right or wrong, blank while not revealed)."""
        board = self.dashboard()
        prompts = {q.number: str(q.shown.get("prompt", "")) for q in board.questions}
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["student", "question", "prompt", "answer", "right"])
        for name, marks in board.students:
            for m in marks:
                right = "" if m.right is None else ("yes" if m.right else "no")
                writer.writerow([_cell(name), m.number, _cell(prompts[m.number]), _cell(m.label), right])
        return out.getvalue()


def _cell(text: str) -> str:
    """A CSV cell a spreadsheet reads as text: a leading ``= + - @`` would start a formula."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


@dataclass(frozen=True, slots=True)
class Now:
    """What a learner's page shows: the current ``question`` (``None``: waiting for the teacher,
    or, in a homework set, every question answered), the learner's own answer (``given``), and
    once revealed the ``answer`` part and whether the learner's answer was ``right``. In a
    homework set a question's answer is shown once the learner has answered it."""

    question: Question | None
    given: str | None
    answer: Mapping[str, object] | None
    right: bool | None
    #: in a homework set: how many questions it has (0: a class session, led by the teacher)
    of: int = 0


class LearnerDesk:
    """A learner's side of a session (see the module's notes)."""

    def __init__(self, store: ClassStore, student: Student, clock: Clock = time.time) -> None:
        self.store = store
        self.student = student
        self._clock = clock
        self.paced = store.paced(student)
        #: in a homework set, the question answered last, shown with its answer until :meth:`next`
        self._showing: int | None = None

    @classmethod
    def join(
        cls, store: ClassStore, join_code: str, name: str, *, who: str = "", clock: Clock = time.time
    ) -> LearnerDesk:
        """Join the session of ``join_code`` as ``name`` (``who``: the client, see :meth:`Store.join`)."""
        return cls(store, store.join(join_code, name, now=clock(), who=who), clock)

    @classmethod
    def reopen(cls, store: ClassStore, token: str, clock: Clock = time.time) -> LearnerDesk:
        """The learner of the page's link (its token): a reloaded page goes on as them."""
        return cls(store, store.student(token), clock)

    @property
    def name(self) -> str:
        return self.student.name

    def stamp(self) -> object:
        """Changes when what :meth:`now` shows may have changed by the teacher's doing (a question
        sent, an answer revealed): one read, for a page to poll. In a homework set only the
        learner's own actions change it, so it is constant."""
        return ("set",) if self.paced else self.store.stamp(self.student)

    def now(self) -> Now:
        """The current question, the learner's answer, and the answer once revealed (in a
        homework set: the question just answered with its answer, else the next one)."""
        of = self.store.set_size(self.student) if self.paced else 0
        question = None
        if self._showing is not None:
            question = self.store.question(self.student, self._showing)
        if question is None:
            question = self.store.current(self.student)
        if question is None:
            return Now(None, None, None, None, of)
        given = self.store.given(self.student, question.id)
        if not question.revealed:
            return Now(question, given, None, None, of)
        answer = self.store.revealed_answer(self.student, question.id)
        shown = answer if isinstance(answer, Mapping) else {}
        return Now(question, given, shown, None if given is None else _marked(question, shown, given), of)

    def answer(self, choice: str) -> None:
        """Answer the current question with one of its choices (again: the new answer counts,
        until the reveal; in a homework set, once, and its answer is shown)."""
        question = self.store.current(self.student)
        if question is None or (self.paced and self._showing is not None):
            wait = "press Next for the next question" if self.paced else "wait for the teacher"
            raise ClassworkError(f"there is no question to answer now: {wait}")
        values = [value for value, _ in choices_of(question)]
        if not isinstance(choice, str) or choice not in values:
            raise ClassworkError(f"{describe(choice)} is not one of this question's choices")
        self.store.answer(self.student, question.id, choice, now=self._clock())
        if self.paced:
            self._showing = question.number

    def next(self) -> None:
        """In a homework set: on to the next question not yet answered."""
        if not self.paced:
            raise ClassworkError("the teacher sends the next question in a class session")
        self._showing = None

    def results(self) -> list[Mark]:
        """The learner's own answers, marked where the answer has been revealed."""
        return [
            Mark(q.number, given, _label(q, given), _marked(q, answer, given))
            for q, given, answer in self.store.history(self.student)
            if given is not None
        ]


__all__ = ["Dashboard", "LearnerDesk", "Live", "Mark", "Missed", "Now", "Reveal", "TeacherDesk", "choices_of"]
