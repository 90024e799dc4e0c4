"""The class store (tricklab/store.py), the same tests on SQLite and on a real PostgreSQL server:
its schema and migrations, a session joined and answered, what a student may and may not see, and
bad input refused by name with nothing written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tricklab.errors import TricklabError
from tricklab.store import (
    CODE_LENGTH,
    GUESS_WINDOW,
    MIGRATIONS,
    WRONG_CODES_ALL,
    WRONG_CODES_EACH,
    NotAllowed,
    Session,
    Store,
    StoreError,
    Student,
    TooManyTries,
    UnknownSession,
)

pytestmark = pytest.mark.server


@pytest.fixture
def store(class_store: Store) -> Store:
    """The store on SQLite, then on PostgreSQL (tests/conftest.py)."""
    return class_store


def test_a_new_store_has_every_migration_once_and_opening_again_changes_nothing(store: Store) -> None:
    assert store.version() == len(MIGRATIONS)
    assert store.migrate() == len(MIGRATIONS)
    with store._transaction():
        rows = store._run("SELECT version FROM schema_version ORDER BY version").fetchall()
    assert [row[0] for row in rows] == list(range(1, len(MIGRATIONS) + 1))


def test_a_store_of_a_newer_tricklab_is_refused_not_written(store: Store) -> None:
    with store._transaction():
        store._run(f"INSERT INTO schema_version (version) VALUES ({len(MIGRATIONS) + 1})")
    with pytest.raises(StoreError, match="newer than this tricklab"):
        store.migrate()


def test_a_session_is_joined_asked_answered_and_revealed(store: Store) -> None:
    session = store.new_session("Ms Rivera", now=1.0)
    assert len(session.join_code) == CODE_LENGTH and session.teacher_secret
    ana = store.join(session.join_code.lower(), "  Ana  ", now=2.0)  # a code typed in lower case
    ben = store.join(f" {session.join_code[:3]} {session.join_code[3:]} ", "Ben", now=2.0)
    assert ana.name == "Ana" and ana.session_id == ben.session_id == session.id
    assert store.current(ana) is None
    question = store.send(session, "which-wins", {"trick": ["7H", "AH"], "trump": "S"}, "AH", now=3.0)
    seen = store.current(ben)
    assert seen is not None and seen.id == question.id and seen.shown == {"trick": ["7H", "AH"], "trump": "S"}
    assert not seen.revealed and "AH" not in [v for v in vars(seen).values() if isinstance(v, str)]
    store.answer(ana, question.id, "7H", now=4.0)
    store.answer(ana, question.id, "AH", now=4.5)  # a second answer replaces the first
    store.answer(ben, question.id, "7H", now=5.0)
    assert store.counts(session, question.id) == {"AH": 1, "7H": 1}
    with pytest.raises(NotAllowed, match="when the teacher reveals it"):
        store.revealed_answer(ana, question.id)
    assert store.reveal(session, question.id, now=6.0) == "AH"
    assert store.revealed_answer(ben, question.id) == "AH"
    after = store.current(ana)
    assert after is not None and after.revealed
    with pytest.raises(StoreError, match="answers are closed"):
        store.answer(ben, question.id, "AH", now=7.0)
    assert store.results(session) == [(1, "Ana", "AH"), (1, "Ben", "7H")]
    assert store.given(ana, question.id) == "AH" and store.given(ben, question.id) == "7H"
    assert [(q.number, answer) for q, answer in store.questions(session)] == [(1, "AH")]
    second = store.send(session, "bid", {"hand": ["7H"]}, 2, now=8.0)
    assert second.number == 2


def test_only_the_teacher_sends_counts_reveals_and_sees_results(store: Store) -> None:
    session = store.new_session("Ms Rivera", now=1.0)
    student = store.join(session.join_code, "Ana", now=2.0)
    question = store.send(session, "quiz", {"q": 1}, "A", now=3.0)
    impostor = Session(session.id, session.join_code, "guessed-secret", session.teacher)
    for call in (
        lambda: store.send(impostor, "quiz", {}, "B", now=4.0),
        lambda: store.counts(impostor, question.id),
        lambda: store.reveal(impostor, question.id, now=4.0),
        lambda: store.results(impostor),
        lambda: store.results(student),  # type: ignore[arg-type]
        lambda: store.students(impostor),
        lambda: store.questions(impostor),
    ):
        with pytest.raises(NotAllowed):
            call()
    forged = Student(student.id, student.session_id, student.name, "not-the-token")
    with pytest.raises(NotAllowed):
        store.answer(forged, question.id, "A", now=5.0)
    assert store.counts(session, question.id) == {}, "nothing written by a refused call"


def test_a_student_of_one_session_reaches_no_question_of_another(store: Store) -> None:
    one, other = store.new_session("A", now=1.0), store.new_session("B", now=1.0)
    ana = store.join(one.join_code, "Ana", now=2.0)
    question = store.send(other, "quiz", {}, "A", now=3.0)
    with pytest.raises(StoreError, match="no question"):
        store.answer(ana, question.id, "A", now=4.0)
    with pytest.raises(StoreError, match="no question"):
        store.revealed_answer(ana, question.id)
    assert store.current(ana) is None


@pytest.mark.parametrize(
    ("code", "said"), [("", "6 letters"), ("ABC", "6 letters"), ("ABCDE0", "6 letters"), (123456, "6 letters")]
)
def test_a_bad_join_code_is_refused_by_name(store: Store, code: object, said: str) -> None:
    with pytest.raises(UnknownSession, match=said) as refused:
        store.join(code, "Ana", now=1.0)  # type: ignore[arg-type]
    assert isinstance(refused.value, TricklabError)


def test_an_unknown_code_and_a_taken_or_bad_name_are_refused_and_nothing_is_written(store: Store) -> None:
    session = store.new_session("T", now=1.0)
    free = next(c for c in ("ABCDEF", "GHJKMN") if c != session.join_code)
    with pytest.raises(UnknownSession, match="check it with your teacher"):
        store.join(free, "Ana", now=2.0)
    store.join(session.join_code, "Ana", now=2.0)
    with pytest.raises(StoreError, match="called 'Ana' already"):
        store.join(session.join_code, " Ana", now=3.0)
    for bad in ("", "   ", "x" * 41, "bell\x07", 7):
        with pytest.raises(StoreError, match="display name"):
            store.join(session.join_code, bad, now=3.0)  # type: ignore[arg-type]
    markup = store.join(session.join_code, "<b>Bo</b>", now=3.0)
    assert markup.name == "<b>Bo</b>", "a name is text, kept as typed (escaped wherever it is shown)"
    with store._transaction():
        (count,) = store._run("SELECT COUNT(*) FROM student").fetchone()
    assert count == 2


def test_a_question_must_be_a_known_kind_in_json(store: Store) -> None:
    session = store.new_session("T", now=1.0)
    with pytest.raises(StoreError, match="kind is one of"):
        store.send(session, "essay", {}, "A", now=2.0)
    with pytest.raises(StoreError, match="must be JSON"):
        store.send(session, "quiz", {"x": object()}, "A", now=2.0)
    with pytest.raises(StoreError, match="JSON object"):
        store.send(session, "quiz", ["not", "an", "object"], "A", now=2.0)  # type: ignore[arg-type]
    with store._transaction():
        (count,) = store._run("SELECT COUNT(*) FROM question").fetchone()
    assert count == 0


def test_the_embedded_store_is_one_file_in_wal_mode_and_keeps_everything_across_opening(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "class.sqlite3"
    store = Store.open(f"sqlite:///{path}")
    session = store.new_session("T", now=1.0)
    store.join(session.join_code, "Ana", now=2.0)
    store.close()
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone() == ("wal",)
    again = Store.open(str(path))  # a restarted server: the session goes on
    assert again.join(session.join_code, "Ben", now=3.0).session_id == session.id
    again.close()


def test_the_store_s_place_comes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKLAB_CLASS_DB", str(tmp_path / "from-env.sqlite3"))
    store = Store.open()
    assert store.where == str(tmp_path / "from-env.sqlite3") and Path(store.where).exists()
    store.close()
    with pytest.raises(StoreError, match=r"SQLite .* or PostgreSQL"):
        Store.open("mysql://nowhere/db")
    with pytest.raises(StoreError) as long:
        Store.open("odd://" + "x" * 1_000_000)
    assert len(str(long.value)) < 300, "a long value is described, not repeated"
    with pytest.raises(StoreError, match="cannot be reached") as refused:
        Store.open("postgresql://someone:hunter2@/nothing?host=/nonexistent-folder")
    assert "hunter2" not in str(refused.value), "a password is never repeated in a message"


def test_a_page_opened_again_goes_on_as_its_teacher_or_its_student(store: Store) -> None:
    session = store.new_session("Ms Rivera", now=1.0)
    ana = store.join(session.join_code, "Ana", now=2.0)
    store.join(session.join_code, "Ben", now=2.5)
    assert store.teacher_session(session.teacher_secret) == session
    assert store.student(ana.token) == ana
    assert store.students(session) == ["Ana", "Ben"]
    for bad in ("", "x" * 101, None, "not-a-secret", ana.token):
        with pytest.raises(NotAllowed, match="teacher's link"):
            store.teacher_session(bad)  # type: ignore[arg-type]
    for bad in ("", None, "not-a-token", session.teacher_secret):
        with pytest.raises(NotAllowed, match="join again"):
            store.student(bad)  # type: ignore[arg-type]
    question = store.send(session, "quiz", {}, "A", now=3.0)
    assert store.given(ana, question.id) is None
    second = store.send(session, "quiz", {"n": 2}, "B", now=3.5)
    store.answer(ana, question.id, "C", now=4.0)
    store.reveal(session, question.id, now=5.0)
    record = store.history(ana)
    assert [(q.number, given, answer) for q, given, answer in record] == [(1, "C", "A"), (2, None, None)]
    assert record[1][0].id == second.id and not record[1][0].revealed, "an answer not revealed is not given"


def test_a_client_guessing_join_codes_is_stopped_and_the_class_still_joins(store: Store) -> None:
    session = store.new_session("T", now=1.0)
    wrong = next(c for c in ("ABCDEF", "GHJKMN") if c != session.join_code)
    for _ in range(WRONG_CODES_EACH):
        with pytest.raises(UnknownSession):
            store.join(wrong, "Eve", now=10.0, who="guesser")
    with pytest.raises(TooManyTries, match="wait a minute"):
        store.join(session.join_code, "Eve", now=11.0, who="guesser")  # even the right code, for now
    assert store.join(session.join_code, "Ana", now=11.0, who="ana's page").name == "Ana", "others still join"
    assert store.join(session.join_code, "Eve", now=11.0 + GUESS_WINDOW, who="guesser").name == "Eve", "a minute on"
    with store._transaction():  # many clients guessing at once (each wrong try is kept as join writes it)
        for i in range(WRONG_CODES_ALL - 1):
            store._run(f"INSERT INTO join_attempt (who, tried, ok) VALUES ({store._marks(3)})", (f"bot {i}", 200.0, 0))
    with pytest.raises(UnknownSession):
        store.join(wrong, "X", now=200.0, who="the last bot")
    with pytest.raises(TooManyTries):  # then everyone waits
        store.join(session.join_code, "Cy", now=201.0, who="a newcomer")


def test_a_store_written_before_homework_sets_opens_and_goes_on(tmp_path: Path) -> None:
    """A class store at schema version 2 (before homework sets) is migrated when opened: its
    session reopens as the class session it was, its question and answer kept."""
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    for version, statements in enumerate(MIGRATIONS[:2], start=1):
        for statement in statements:
            old.execute(statement)
        old.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
    old.execute("INSERT INTO class_session VALUES ('s1', 'ABCDEF', 'secret-of-the-teacher', 'Ms Rivera', 1.0, NULL)")
    old.execute("INSERT INTO student VALUES ('p1', 's1', 'Ana', 'token-of-ana', 2.0)")
    old.execute(
        "INSERT INTO question VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
        ("q1", "s1", 1, "quiz", '{"prompt": "Which?"}', '{"right": ["a"]}', 3.0),
    )
    old.execute("INSERT INTO answer VALUES ('q1', 'p1', 'a', 4.0)")
    old.commit()
    old.close()
    store = Store.open(str(path))
    try:
        assert store.version() == len(MIGRATIONS)
        session = store.teacher_session("secret-of-the-teacher")
        assert session.paced is False and session.join_code == "ABCDEF"
        ana = store.student("token-of-ana")
        assert store.paced(ana) is False and store.given(ana, "q1") == "a"
        assert [(q.number, q.shown, answer) for q, answer in store.questions(session)] == [
            (1, {"prompt": "Which?"}, {"right": ["a"]})
        ]
    finally:
        store.close()


def test_what_a_students_page_polls_changes_with_a_question_and_its_reveal(store: Store) -> None:
    session = store.new_session("T", now=1.0)
    ana = store.join(session.join_code, "Ana", now=2.0)
    assert store.stamp(ana) == (0, False), "nothing sent yet"
    first = store.send(session, "quiz", {"prompt": "1?"}, {"right": ["a"]}, now=3.0)
    assert store.stamp(ana) == (1, False)
    store.answer(ana, first.id, "a", now=4.0)
    assert store.stamp(ana) == (1, False), "the learner's own answer is not the teacher's doing"
    store.reveal(session, first.id, now=5.0)
    assert store.stamp(ana) == (1, True)
    store.send(session, "quiz", {"prompt": "2?"}, {"right": ["b"]}, now=6.0)
    assert store.stamp(ana) == (2, False)
    forged = Student(ana.id, ana.session_id, ana.name, "not-her-token")
    with pytest.raises(NotAllowed, match="not a student of this class"):
        store.stamp(forged)
