"""The class store: class sessions, who joined them, the questions sent and the answers given.

One store for a class, in one of two databases with the same schema:

- **SQLite**, embedded, by default: one file (WAL mode, so a page's writes never wait on another
  page's reads), at ``$TRICKLAB_CLASS_DB`` when that is a path or a ``sqlite:///path`` URL, else
  in the user's data folder (:func:`default_path`);
- **PostgreSQL** when ``$TRICKLAB_CLASS_DB`` is a ``postgresql://`` URL: what a JupyterHub
  deployment uses, so that learners' servers on several machines share one class (``psycopg``,
  in the ``apps`` extra).

The schema is made and changed by numbered migrations (:data:`MIGRATIONS`), each applied once, in
order, in one transaction with the version it brings (:meth:`Store.migrate`). Every change is one
transaction: nothing is half-written. What a student may not see (a question's answer before the
reveal, another student's name or answer) is kept apart from what a student's page is given, and
each call says whose view it is.

Bad input gets a :class:`StoreError` that names the value at fault.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .errors import TricklabError, describe

if TYPE_CHECKING:
    from .match import Match

#: the schema, one migration per version: each a list of statements, written for both databases
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE class_session (
            id TEXT PRIMARY KEY,
            join_code TEXT NOT NULL UNIQUE,
            teacher_secret TEXT NOT NULL,
            teacher TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            ended DOUBLE PRECISION
        )""",
        """CREATE TABLE student (
            id TEXT PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES class_session(id),
            name TEXT NOT NULL,
            token TEXT NOT NULL UNIQUE,
            joined DOUBLE PRECISION NOT NULL,
            UNIQUE (session_id, name)
        )""",
        """CREATE TABLE question (
            id TEXT PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES class_session(id),
            number INTEGER NOT NULL,
            kind TEXT NOT NULL,
            shown TEXT NOT NULL,
            answer TEXT NOT NULL,
            sent DOUBLE PRECISION NOT NULL,
            revealed DOUBLE PRECISION,
            UNIQUE (session_id, number)
        )""",
        """CREATE TABLE answer (
            question_id TEXT NOT NULL REFERENCES question(id),
            student_id TEXT NOT NULL REFERENCES student(id),
            choice TEXT NOT NULL,
            given DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (question_id, student_id)
        )""",
    ),
    (
        # every try to join, kept a while: a client that guesses join codes is stopped (Store.join)
        """CREATE TABLE join_attempt (
            who TEXT NOT NULL,
            tried DOUBLE PRECISION NOT NULL,
            ok INTEGER NOT NULL
        )""",
        "CREATE INDEX join_attempt_tried ON join_attempt (tried)",
    ),
    (
        # a homework set: a session whose questions are fixed and answered at each student's pace
        "ALTER TABLE class_session ADD COLUMN paced INTEGER NOT NULL DEFAULT 0",
    ),
    (
        # a table of classmates: a match whose actions are an append-only log, one row per action
        # under a unique (table, number) key, so two kernels acting at once never both land
        """CREATE TABLE play_table (
            id TEXT PRIMARY KEY,
            code TEXT NOT NULL UNIQUE,
            start TEXT NOT NULL,
            seats TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE table_seat (
            table_id TEXT NOT NULL REFERENCES play_table(id),
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            token TEXT NOT NULL UNIQUE,
            seen INTEGER NOT NULL DEFAULT 0,
            joined DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, seat)
        )""",
        """CREATE TABLE table_action (
            table_id TEXT NOT NULL REFERENCES play_table(id),
            number INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            given DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, number)
        )""",
    ),
    (
        # how long a table holds a finished trick: NULL until every classmate has gone on from it
        "ALTER TABLE play_table ADD COLUMN hold DOUBLE PRECISION",
        # the class session a table was made in (its teacher may watch it), if any
        "ALTER TABLE play_table ADD COLUMN session_id TEXT REFERENCES class_session(id)",
    ),
)
#: the longest a table may hold a finished trick (seconds)
MAX_TABLE_HOLD = 30
#: a join code's letters: no 0/O, 1/I/L, so a code read off a projector is typed right
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: the longest display name a student may give, in characters
MAX_NAME = 40
#: question kinds (what the answer is: a card, a place order, a number, a move)
KINDS = ("quiz", "which-wins", "play", "bid", "move")
#: wrong join codes a client may try in :data:`GUESS_WINDOW` seconds, and all clients together:
#: a class types its code once or twice, a guesser needs millions of tries (31 ** 6 codes)
WRONG_CODES_EACH, WRONG_CODES_ALL, GUESS_WINDOW = 5, 300, 60.0


class StoreError(TricklabError):
    """A class store call refused: the value at fault is named."""


class UnknownSession(StoreError):
    """No class session has that join code or id (or it has ended)."""


class TooManyTries(StoreError):
    """Too many wrong join codes in a short time: the client waits before trying again."""


class NotAllowed(StoreError):
    """The caller may not do that: a student asked for what only the teacher may do or see."""


class _Connection(Protocol):
    def execute(self, sql: str, parameters: Sequence[object] = ...) -> Any: ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Session:
    """A class session as the teacher holds it: ``teacher_secret`` is what lets one act as its teacher."""

    id: str
    join_code: str
    teacher_secret: str
    teacher: str
    paced: bool = False  # a homework set (:meth:`Store.new_set`)


@dataclass(frozen=True)
class Student:
    """One who joined a session: ``token`` is what their page presents for every answer."""

    id: str
    session_id: str
    name: str
    token: str


@dataclass(frozen=True)
class Question:
    """A question as a student's page is given it: what to show, not its answer. ``revealed``:
    its answer may be shown to whoever holds this (in a homework set, to a student once they
    have answered it; to the teacher, always)."""

    id: str
    session_id: str
    number: int
    kind: str
    shown: dict[str, object]
    revealed: bool


#: what a seat at a table of classmates is: kept for a classmate, or played by a bot of that name
PLAYER = "player"
TABLE_BOTS = ("heuristic", "random")


@dataclass(frozen=True)
class TableSeat:
    """One classmate's place at a table: ``token`` is what their page presents for every action
    (kept on their own device, so they can sit down again after a reload)."""

    table_id: str
    code: str
    seat: int
    name: str
    token: str
    #: how many seconds the table holds a finished trick (``None``: until every classmate goes on)
    hold: float | None = None


@dataclass(frozen=True)
class SeatInfo:
    """A seat as everyone at the table may know it: who plays it (:data:`PLAYER`, a classmate,
    or a bot's name), the classmate's name (``""`` while the seat waits for one) and how far they
    have followed the table (the number of actions whose finished tricks they have gone on from)."""

    kind: str
    name: str
    seen: int


@dataclass(frozen=True)
class TableSummary:
    """A table of a class session as its teacher's dashboard lists it: its code, game, players,
    seats and how many actions its log holds."""

    code: str
    game: str
    players: int
    seats: tuple[SeatInfo, ...]
    actions: int


@dataclass(frozen=True)
class TablePoll:
    """What a seat's kernel reads each time it looks: the actions from the one it asked for on,
    how many the log holds, and the seats."""

    since: int
    actions: tuple[str, ...]
    seats: tuple[SeatInfo, ...]

    @property
    def count(self) -> int:
        return self.since + len(self.actions)


class ClassStore(Protocol):
    """What a class store does, wherever it is: a :class:`Store` on a database this process
    opens, or a :class:`tricklab.classservice.StoreClient` that asks the class service (under
    JupyterHub, so that learners' servers hold no database password). Each call says whose view
    it is: a :class:`Session` holds its teacher's secret, a :class:`Student` their token."""

    where: str

    def close(self) -> None: ...

    def new_session(self, teacher: str, *, now: float) -> Session: ...

    def new_set(self, session: Session, *, now: float) -> Session: ...

    def paced(self, student: Student) -> bool: ...

    def join(self, join_code: str, name: str, *, now: float, who: str = "") -> Student: ...

    def teacher_session(self, teacher_secret: str) -> Session: ...

    def student(self, token: str) -> Student: ...

    def students(self, session: Session) -> list[str]: ...

    def send(
        self, session: Session, kind: str, shown: dict[str, object], answer: object, *, now: float
    ) -> Question: ...

    def current(self, student: Student) -> Question | None: ...

    def stamp(self, student: Student) -> tuple[int, bool]: ...

    def question(self, student: Student, number: int) -> Question | None: ...

    def set_size(self, student: Student) -> int: ...

    def answer(self, student: Student, question_id: str, choice: str, *, now: float) -> None: ...

    def given(self, student: Student, question_id: str) -> str | None: ...

    def history(self, student: Student) -> list[tuple[Question, str | None, object]]: ...

    def counts(self, session: Session, question_id: str) -> dict[str, int]: ...

    def reveal(self, session: Session, question_id: str, *, now: float) -> object: ...

    def revealed_answer(self, student: Student, question_id: str) -> object: ...

    def questions(self, session: Session) -> list[tuple[Question, object]]: ...

    def results(self, session: Session) -> list[tuple[int, str, str]]: ...

    def class_tables(self, session: Session) -> list[TableSummary]: ...

    def watch_start(self, session: Session, code: str) -> dict[str, object]: ...

    def watch_poll(self, session: Session, code: str, since: int = 0) -> TablePoll: ...


class TableStore(ClassStore, Protocol):
    """A class store that also seats classmates at tables (:mod:`tricklab.tables`): only a
    :class:`Store` on a database this process opens. A seat's kernel holds its table's seed to
    check moves with the engine, so it must run where its learner runs no code: under ``tricklab
    serve``, or under JupyterHub in the hub's ``tricklab serve`` service (:func:`tables_at`), never
    in a learner's own server, which reaches the class store through the class service and may
    run any code."""

    def new_table(
        self,
        game: str,
        players: int,
        options: dict[str, object],
        seats: Sequence[str],
        name: str,
        *,
        now: float,
        seat: int = 0,
        hold: float | None = None,
        class_code: str = "",
    ) -> TableSeat: ...

    def join_table(self, code: str, name: str, *, now: float, who: str = "") -> TableSeat: ...

    def table_seat(self, token: str) -> TableSeat: ...

    def table_start(self, seat: TableSeat) -> dict[str, object]: ...

    def table_poll(self, seat: TableSeat, since: int = 0) -> TablePoll: ...

    def table_append(self, seat: TableSeat, number: int, action: str, *, now: float) -> bool: ...

    def table_seen(self, seat: TableSeat, count: int) -> None: ...

    def table_hand_over(self, seat: TableSeat, other: int, bot: str) -> None: ...

    def table_sit(self, seat: TableSeat) -> None: ...


def open_store(url: str | None = None) -> ClassStore:
    """The class store at ``url`` (else ``$TRICKLAB_CLASS_DB``): a database (:meth:`Store.open`),
    or, for an ``http://`` or ``https://`` URL, the class service there (:mod:`tricklab.classservice`)."""
    given = url if url is not None else os.environ.get("TRICKLAB_CLASS_DB", "")
    if isinstance(given, str) and given.startswith(("http://", "https://")):
        from .classservice import StoreClient

        return StoreClient(given)
    return Store.open(url)


def open_table_store(url: str | None = None) -> TableStore:
    """The class store at ``url`` (else ``$TRICKLAB_CLASS_DB``) for tables of classmates: a
    database only. The class service (an ``http://`` URL, a learner's own server under JupyterHub)
    is refused with where the tables are played instead (:func:`tables_at`)."""
    given = url if url is not None else os.environ.get("TRICKLAB_CLASS_DB", "")
    if isinstance(given, str) and given.startswith(("http://", "https://")):
        where = tables_at("")
        raise NotAllowed(
            "tables of classmates are not played from this server, which reaches the class store through the "
            "class service: a table's seed would be within reach of its code"
            + (f"; they are played at {where}" if where else "")
        )
    return Store.open(url)


def tables_at(here: str) -> str:
    """The folder of apps (a URL path ending in ``/``) where tables of classmates are played:
    ``$TRICKLAB_TABLES`` when set (under JupyterHub the hub's ``tricklab serve`` service, e.g.
    ``/services/tricklab/voila/render/``), else ``here``, this server's own apps folder."""
    where = os.environ.get("TRICKLAB_TABLES", "").strip()
    if not where:
        return here
    return where if where.endswith("/") else where + "/"


def default_path() -> Path:
    """Where the embedded store lives when ``$TRICKLAB_CLASS_DB`` says nothing: the user's data folder."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tricklab" / "class.sqlite3"


class Store:
    """The class store (see the module's notes): :meth:`open` it, then call what a class does."""

    def __init__(self, connection: _Connection, placeholder: str, where: str) -> None:
        self._connection = connection
        self._mark = placeholder
        self.where = where
        # one connection, one transaction at a time: a page's poll and its clicks run on two threads
        self._lock = threading.RLock()
        self._matches: dict[str, Match] = {}  # each table's match as last read (:meth:`_table_match`)

    # --- opening -----------------------------------------------------------------------------

    @staticmethod
    def location(url: str | None = None) -> str:
        """Where :meth:`open` would open the store, in words a person reads (a file's path, or the
        PostgreSQL URL without its password), without opening it."""
        given = url if url is not None else os.environ.get("TRICKLAB_CLASS_DB") or str(default_path())
        if given.startswith(("postgresql://", "postgres://")):
            return _safe(given)
        return given.removeprefix("sqlite://") if given.startswith("sqlite:") else given

    @classmethod
    def open(cls, url: str | None = None) -> Store:
        """The store at ``url`` (else ``$TRICKLAB_CLASS_DB``, else :func:`default_path`), its schema
        brought up to date: a path or ``sqlite:///path`` (SQLite), or ``postgresql://...``."""
        given = url if url is not None else os.environ.get("TRICKLAB_CLASS_DB") or str(default_path())
        if not isinstance(given, str) or not given:
            raise StoreError(f"a class store is a path or a URL (sqlite:///..., postgresql://...), not {describe(url)}")
        if given.startswith(("postgresql://", "postgres://")):
            store = cls._postgresql(given)
        elif given.startswith("sqlite:///") or "://" not in given:
            store = cls._sqlite(Path(given.removeprefix("sqlite://")) if given.startswith("sqlite:") else Path(given))
        else:
            raise StoreError(
                "a class store is SQLite (a path, sqlite:///...) or PostgreSQL (postgresql://...), "
                f"not {describe(given)}"
            )
        store.migrate()
        return store

    @classmethod
    def _sqlite(cls, path: Path) -> Store:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA foreign_keys=ON")
        connection.execute("PRAGMA busy_timeout=30000")
        return cls(_SQLite(connection), "?", str(path))

    @classmethod
    def _postgresql(cls, url: str) -> Store:
        try:
            import psycopg
        except ImportError:
            raise StoreError(
                "a PostgreSQL class store needs psycopg: pip install 'tricklab[apps]' (or psycopg[binary])"
            ) from None
        try:
            connection = psycopg.connect(url, autocommit=False)
        except psycopg.Error as exc:
            raise StoreError(f"the PostgreSQL class store at {_safe(url)} cannot be reached: {exc}") from None
        return cls(connection, "%s", _safe(url))

    def close(self) -> None:
        self._connection.close()

    # --- the schema --------------------------------------------------------------------------

    def version(self) -> int:
        """The schema's version: how many of :data:`MIGRATIONS` are applied."""
        with self._transaction():
            self._run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = self._run("SELECT MAX(version) FROM schema_version").fetchone()
        return int(row[0] or 0)

    def migrate(self) -> int:
        """Apply the migrations not applied yet, each in one transaction with its version; returns
        the version. A store made by a newer tricklab is refused rather than written to."""
        done = self.version()
        if done > len(MIGRATIONS):
            raise StoreError(
                f"the class store at {self.where} has schema version {done}, newer than this tricklab's "
                f"{len(MIGRATIONS)}: upgrade tricklab"
            )
        for version, statements in enumerate(MIGRATIONS[done:], start=done + 1):
            with self._transaction():
                for statement in statements:
                    self._run(statement)
                self._run(f"INSERT INTO schema_version (version) VALUES ({self._mark})", (version,))
        return len(MIGRATIONS)

    # --- a session ---------------------------------------------------------------------------

    def new_session(self, teacher: str, *, now: float) -> Session:
        """A new class session of ``teacher`` (a hub user's name, or who started ``serve``), with
        a join code no open session has and the teacher's secret."""
        return self._new(_name(teacher, "the teacher's name"), (), now=now)

    def _new(self, teacher: str, questions: Sequence[Sequence[object]], *, now: float) -> Session:
        """A new session with a join code no session has; with ``questions`` (``number, kind,
        shown, answer`` rows) a homework set of them, written in the same transaction."""
        for _ in range(20):
            paced = bool(questions)
            session = Session(secrets.token_hex(8), _join_code(), secrets.token_urlsafe(24), teacher, paced)
            with self._transaction():
                taken = self._run(
                    f"SELECT 1 FROM class_session WHERE join_code = {self._mark}", (session.join_code,)
                ).fetchone()
                if taken:
                    continue
                self._run(
                    "INSERT INTO class_session (id, join_code, teacher_secret, teacher, created, paced) "
                    f"VALUES ({self._marks(6)})",
                    (session.id, session.join_code, session.teacher_secret, teacher, now, int(paced)),
                )
                for number, kind, shown, answer in questions:
                    self._run(
                        "INSERT INTO question (id, session_id, number, kind, shown, answer, sent) "
                        f"VALUES ({self._marks(7)})",
                        (secrets.token_hex(8), session.id, number, kind, shown, answer, now),
                    )
            return session
        raise StoreError("no free join code was found; try again")  # pragma: no cover (31**6 codes)

    def new_set(self, session: Session, *, now: float) -> Session:
        """The teacher saves the questions sent so far in ``session`` as a homework set: a new
        session with a join code of its own, whose students answer every question at their own
        pace, each seeing a question's answer once they have answered it."""
        self._teacher(session)
        with self._transaction():
            rows = self._run(
                f"SELECT number, kind, shown, answer FROM question WHERE session_id = {self._mark} ORDER BY number",
                (session.id,),
            ).fetchall()
        if not rows:
            raise StoreError("a homework set is made of the questions sent: send one first")
        copied = [(int(number), str(kind), str(shown), str(answer)) for number, kind, shown, answer in rows]
        return self._new(session.teacher, copied, now=now)

    def paced(self, student: Student) -> bool:
        """Whether the student's session is a homework set (answered at the student's own pace)."""
        return self._student(student)

    def session_by_code(self, join_code: str) -> str:
        """The id of the open session whose join code is ``join_code`` (case and spaces ignored)."""
        code = "".join(str(join_code).split()).upper() if isinstance(join_code, str) else ""
        if len(code) != CODE_LENGTH or not set(code) <= set(CODE_LETTERS):
            raise UnknownSession(f"a join code is {CODE_LENGTH} letters and digits, not {describe(join_code)}")
        row = self._row(f"SELECT id FROM class_session WHERE join_code = {self._mark} AND ended IS NULL", (code,))
        if row is None:
            raise UnknownSession(f"no class session has the join code {code}: check it with your teacher")
        return str(row[0])

    def join(self, join_code: str, name: str, *, now: float, who: str = "") -> Student:
        """``name`` joins the session of ``join_code``; a name taken in that session is refused.

        ``who`` names the client (a hub user, a page's kernel): one that has tried
        :data:`WRONG_CODES_EACH` wrong codes in :data:`GUESS_WINDOW` seconds, or all clients
        together :data:`WRONG_CODES_ALL`, is refused (:class:`TooManyTries`) before its code is
        even looked at, so join codes cannot be guessed."""
        who = self._guard(who, now)
        try:
            session_id = self.session_by_code(join_code)
        except UnknownSession:
            self._missed(who, now)
            raise
        name = _name(name, "a display name")
        student = Student(secrets.token_hex(8), session_id, name, secrets.token_urlsafe(24))
        with self._transaction():
            taken = self._run(
                f"SELECT 1 FROM student WHERE session_id = {self._mark} AND name = {self._mark}", (session_id, name)
            ).fetchone()
            if taken:
                raise StoreError(f"someone in this class is called {describe(name)} already: choose another name")
            self._run(
                f"INSERT INTO student (id, session_id, name, token, joined) VALUES ({self._marks(5)})",
                (student.id, session_id, name, student.token, now),
            )
        return student

    def teacher_session(self, teacher_secret: str) -> Session:
        """The session whose teacher's secret is ``teacher_secret``: the teacher's page, opened
        again from its link (a reload, a restarted server), goes on with its session."""
        row = self._by_secret(
            "SELECT id, join_code, teacher_secret, teacher, paced FROM class_session "
            f"WHERE teacher_secret = {self._mark}",
            teacher_secret,
            "that teacher's link is not (or no longer) a class session's: start a new session",
        )
        return Session(str(row[0]), str(row[1]), str(row[2]), str(row[3]), bool(row[4]))

    def student(self, token: str) -> Student:
        """The student whose token is ``token``: a student's page, opened again from its link,
        goes on as the same student."""
        row = self._by_secret(
            f"SELECT id, session_id, name, token FROM student WHERE token = {self._mark}",
            token,
            "that link is not (or no longer) a student's of a class session: join again",
        )
        return Student(str(row[0]), str(row[1]), str(row[2]), str(row[3]))

    def students(self, session: Session) -> list[str]:
        """The names of the session's students, in the order they joined (the teacher only)."""
        self._teacher(session)
        rows = self._rows(
            f"SELECT name FROM student WHERE session_id = {self._mark} ORDER BY joined, name", (session.id,)
        )
        return [str(row[0]) for row in rows]

    # --- questions and answers ---------------------------------------------------------------

    def send(self, session: Session, kind: str, shown: dict[str, object], answer: object, *, now: float) -> Question:
        """The teacher sends a question: ``shown`` is what every student's page draws (it must
        hold nothing from which the answer follows), ``answer`` what is revealed later."""
        if self._teacher(session):
            raise NotAllowed("a homework set's questions are fixed: send questions in a class session")
        if kind not in KINDS:
            raise StoreError(f"a question's kind is one of {', '.join(KINDS)}, not {describe(kind)}")
        if not isinstance(shown, dict):
            raise StoreError(f"what a question shows is a JSON object, not {describe(shown)}")
        shown_text, answer_text = _json(shown, "what a question shows"), _json(answer, "a question's answer")
        with self._transaction():
            row = self._run(
                f"SELECT COALESCE(MAX(number), 0) FROM question WHERE session_id = {self._mark}", (session.id,)
            ).fetchone()
            question = Question(secrets.token_hex(8), session.id, int(row[0]) + 1, kind, dict(shown), False)
            self._run(
                f"INSERT INTO question (id, session_id, number, kind, shown, answer, sent) VALUES ({self._marks(7)})",
                (question.id, session.id, question.number, kind, shown_text, answer_text, now),
            )
        return question

    def current(self, student: Student) -> Question | None:
        """The latest question of the student's session, as their page is given it (no answer)."""
        if self.paced(student):  # a homework set: the first question the student has not answered
            row = self._row(
                "SELECT id, session_id, number, kind, shown, revealed FROM question "
                f"WHERE session_id = {self._mark} AND id NOT IN "
                f"(SELECT question_id FROM answer WHERE student_id = {self._mark}) ORDER BY number LIMIT 1",
                (student.session_id, student.id),
            )
        else:
            row = self._row(
                "SELECT id, session_id, number, kind, shown, revealed FROM question "
                f"WHERE session_id = {self._mark} ORDER BY number DESC LIMIT 1",
                (student.session_id,),
            )
        if row is None:
            return None
        return Question(str(row[0]), str(row[1]), int(row[2]), str(row[3]), json.loads(row[4]), row[5] is not None)

    def stamp(self, student: Student) -> tuple[int, bool]:
        """What a student's page polls for, in one read: the number of the session's latest
        question (0: none yet) and whether it is revealed. Only when it changes does the page
        read the question itself."""
        if not isinstance(student, Student):
            raise NotAllowed(f"only a student of the session may do this, not {describe(student)}")
        row = self._row(
            "SELECT student.token, question.number, question.revealed FROM student LEFT JOIN question "
            "ON question.session_id = student.session_id "
            f"WHERE student.id = {self._mark} ORDER BY question.number DESC LIMIT 1",
            (student.id,),
        )
        if row is None or not secrets.compare_digest(str(row[0]), student.token):
            raise NotAllowed("that is not a student of this class")
        return (0 if row[1] is None else int(row[1]), row[2] is not None)

    def question(self, student: Student, number: int) -> Question | None:
        """The question ``number`` of a homework set as the student is given it (``revealed``
        once they have answered it); ``None`` if the set has no such question."""
        if not self.paced(student):
            raise NotAllowed("a class session's questions come one at a time, as the teacher sends them")
        if isinstance(number, bool) or not isinstance(number, int):
            raise StoreError(f"a question's number is a whole number, not {describe(number)}")
        row = self._row(
            "SELECT question.id, question.session_id, question.number, question.kind, question.shown, answer.choice "
            f"FROM question LEFT JOIN answer ON answer.question_id = question.id AND answer.student_id = {self._mark} "
            f"WHERE question.session_id = {self._mark} AND question.number = {self._mark}",
            (student.id, student.session_id, number),
        )
        if row is None:
            return None
        return Question(str(row[0]), str(row[1]), int(row[2]), str(row[3]), json.loads(row[4]), row[5] is not None)

    def set_size(self, student: Student) -> int:
        """How many questions the student's session has (a homework set's length)."""
        self._student(student)
        row = self._row(f"SELECT COUNT(*) FROM question WHERE session_id = {self._mark}", (student.session_id,))
        return int(row[0]) if row else 0

    def answer(self, student: Student, question_id: str, choice: str, *, now: float) -> None:
        """``student`` answers the question: once (a second answer replaces the first until the
        reveal); after the reveal, no more answers."""
        self._student(student)
        if not isinstance(choice, str) or not choice or len(choice) > 200:
            raise StoreError(f"an answer is a short text, not {describe(choice)}")
        paced = self.paced(student)
        with self._transaction():
            row = self._run(
                f"SELECT session_id, revealed FROM question WHERE id = {self._mark}", (question_id,)
            ).fetchone()
            if row is None or row[0] != student.session_id:
                raise StoreError(f"there is no question {describe(question_id)} in your class")
            if row[1] is not None:
                raise StoreError("the answer has been shown already: answers are closed for this question")
            mine = self._run(
                f"SELECT 1 FROM answer WHERE question_id = {self._mark} AND student_id = {self._mark}",
                (question_id, student.id),
            ).fetchone()
            if mine and paced:
                raise StoreError("you have answered this question already: its answer is shown")
            self._run(
                f"DELETE FROM answer WHERE question_id = {self._mark} AND student_id = {self._mark}",
                (question_id, student.id),
            )
            self._run(
                f"INSERT INTO answer (question_id, student_id, choice, given) VALUES ({self._marks(4)})",
                (question_id, student.id, choice, now),
            )

    def given(self, student: Student, question_id: str) -> str | None:
        """The student's own answer to the question (``None``: none yet)."""
        self._student(student)
        row = self._row(
            f"SELECT choice FROM answer WHERE question_id = {self._mark} AND student_id = {self._mark}",
            (question_id, student.id),
        )
        return None if row is None else str(row[0])

    def history(self, student: Student) -> list[tuple[Question, str | None, object]]:
        """The student's own record: every question of their session, in order, with their answer
        (``None``: none) and the question's answer once revealed (``None`` before)."""
        paced = self.paced(student)
        rows = self._rows(
            "SELECT question.id, question.session_id, question.number, question.kind, question.shown, "
            "question.revealed, question.answer, answer.choice FROM question LEFT JOIN answer "
            f"ON answer.question_id = question.id AND answer.student_id = {self._mark} "
            f"WHERE question.session_id = {self._mark} ORDER BY question.number",
            (student.id, student.session_id),
        )
        shown = [r[5] is not None or (paced and r[7] is not None) for r in rows]  # may its answer be shown?
        return [
            (
                Question(str(r[0]), str(r[1]), int(r[2]), str(r[3]), json.loads(r[4]), open_),
                None if r[7] is None else str(r[7]),
                json.loads(r[6]) if open_ else None,
            )
            for r, open_ in zip(rows, shown, strict=True)
        ]

    def counts(self, session: Session, question_id: str) -> dict[str, int]:
        """How many chose each answer (no names): what the projector shows while answers come in."""
        self._teacher(session)
        rows = self._rows(
            "SELECT choice, COUNT(*) FROM answer JOIN question ON question.id = answer.question_id "
            f"WHERE question_id = {self._mark} AND question.session_id = {self._mark} GROUP BY choice",
            (question_id, session.id),
        )
        return {str(choice): int(count) for choice, count in rows}

    def reveal(self, session: Session, question_id: str, *, now: float) -> object:
        """The teacher reveals the question's answer (answers close); returns the answer."""
        if self._teacher(session):
            raise NotAllowed("a homework set's answers are shown to each student once they have answered")
        with self._transaction():
            row = self._run(
                f"SELECT answer FROM question WHERE id = {self._mark} AND session_id = {self._mark}",
                (question_id, session.id),
            ).fetchone()
            if row is None:
                raise StoreError(f"there is no question {describe(question_id)} in this session")
            self._run(
                f"UPDATE question SET revealed = {self._mark} WHERE id = {self._mark} AND revealed IS NULL",
                (now, question_id),
            )
        return json.loads(row[0])

    def revealed_answer(self, student: Student, question_id: str) -> object:
        """The answer, for a student's page, once the teacher has revealed it (before: refused)."""
        paced = self.paced(student)
        row = self._row(
            f"SELECT answer, revealed FROM question WHERE id = {self._mark} AND session_id = {self._mark}",
            (question_id, student.session_id),
        )
        if row is None:
            raise StoreError(f"there is no question {describe(question_id)} in your class")
        if paced and self.given(student, question_id) is None:
            raise NotAllowed("a homework question's answer is shown once you have answered it")
        if row[1] is None and not paced:
            raise NotAllowed("the answer is shown when the teacher reveals it")
        return json.loads(row[0])

    def questions(self, session: Session) -> list[tuple[Question, object]]:
        """Every question of the session with its answer, in order (the teacher only; a homework
        set's questions are all ``revealed`` to its teacher)."""
        paced = self._teacher(session)
        rows = self._rows(
            "SELECT id, session_id, number, kind, shown, revealed, answer FROM question "
            f"WHERE session_id = {self._mark} ORDER BY number",
            (session.id,),
        )
        return [
            (
                Question(str(r[0]), str(r[1]), int(r[2]), str(r[3]), json.loads(r[4]), paced or r[5] is not None),
                json.loads(r[6]),
            )
            for r in rows
        ]

    def results(self, session: Session) -> list[tuple[int, str, str]]:
        """Every answer of the session, for the teacher: ``(question number, student's name,
        choice)``, in question order, then by name."""
        self._teacher(session)
        rows = self._rows(
            "SELECT question.number, student.name, answer.choice FROM answer "
            "JOIN question ON question.id = answer.question_id JOIN student ON student.id = answer.student_id "
            f"WHERE question.session_id = {self._mark} ORDER BY question.number, student.name",
            (session.id,),
        )
        return [(int(number), str(name), str(choice)) for number, name, choice in rows]

    # --- tables of classmates ----------------------------------------------------------------

    def new_table(
        self,
        game: str,
        players: int,
        options: dict[str, object],
        seats: Sequence[str],
        name: str,
        *,
        now: float,
        seat: int = 0,
        hold: float | None = None,
        class_code: str = "",
    ) -> TableSeat:
        """A new table of ``game`` for ``players`` with rules and match ``options`` (variants,
        ``first_dealer``), ``seats`` saying who plays each seat (:data:`PLAYER`: a classmate who
        joins with the code; else a bot of :data:`TABLE_BOTS`); ``name`` sits at ``seat``. A
        finished trick stays on every classmate's table until each has gone on from it, or, with
        ``hold`` (1 to :data:`MAX_TABLE_HOLD` seconds), that long. With ``class_code`` (a class
        session's join code) the table is that session's: its teacher may watch it. The deal's seed
        is drawn here and stays in the store: only the seats' kernels are given it."""
        from . import get_rules

        name = _name(name, "a display name")
        if hold is not None and (
            isinstance(hold, bool) or not isinstance(hold, int | float) or not 1 <= hold <= MAX_TABLE_HOLD
        ):
            raise StoreError(f"a table holds a finished trick 1 to {MAX_TABLE_HOLD} seconds, not {describe(hold)}")
        if not isinstance(options, dict):
            raise StoreError(f"a table's options are a JSON object, not {describe(options)}")
        rules = get_rules(game, players=players)
        if isinstance(seats, str) or not isinstance(seats, Sequence) or len(seats) != rules.players:
            raise StoreError(f"a table of {rules.players} says who plays each seat, not {describe(seats)}")
        kinds = list(seats)
        for kind in kinds:
            if kind != PLAYER and kind not in TABLE_BOTS:
                raise StoreError(
                    f"a seat is played by a classmate ({PLAYER!r}) or a bot ({', '.join(TABLE_BOTS)}), "
                    f"not {describe(kind)}"
                )
        rules.check_seat(seat)
        if kinds[seat] != PLAYER:
            raise StoreError(f"seat {seat + 1} is a bot's: sit at a classmate's seat")
        session_id = self._class_of(class_code) if class_code else None
        start = rules.new_match(secrets.randbelow(2**62), **options).record()
        for _ in range(20):
            table_id, code, token = secrets.token_hex(8), _join_code(), secrets.token_urlsafe(24)
            with self._transaction():
                if self._run(f"SELECT 1 FROM play_table WHERE code = {self._mark}", (code,)).fetchone():
                    continue
                self._run(
                    "INSERT INTO play_table (id, code, start, seats, created, hold, session_id) "
                    f"VALUES ({self._marks(7)})",
                    (
                        table_id,
                        code,
                        _json(start, "a table's start"),
                        _json(kinds, "a table's seats"),
                        now,
                        hold,
                        session_id,
                    ),
                )
                self._run(
                    f"INSERT INTO table_seat (table_id, seat, name, token, joined) VALUES ({self._marks(5)})",
                    (table_id, seat, name, token, now),
                )
            return TableSeat(table_id, code, seat, name, token, None if hold is None else float(hold))
        raise StoreError("no free table code was found; try again")  # pragma: no cover (31**6 codes)

    def join_table(self, code: str, name: str, *, now: float, who: str = "") -> TableSeat:
        """``name`` sits at the first free classmate's seat of the table whose code is ``code``;
        guessing codes is stopped as for a class session's (:meth:`join`)."""
        who = self._guard(who, now)
        given = "".join(str(code).split()).upper() if isinstance(code, str) else ""
        row = None
        if len(given) == CODE_LENGTH and set(given) <= set(CODE_LETTERS):
            row = self._row(f"SELECT id, seats, hold FROM play_table WHERE code = {self._mark}", (given,))
        if row is None:
            self._missed(who, now)
            raise UnknownSession(f"no table has the code {describe(code)}: check it with whoever made the table")
        name = _name(name, "a display name")
        table_id, kinds, hold = str(row[0]), json.loads(row[1]), _seconds(row[2])
        token = secrets.token_urlsafe(24)
        with self._transaction():
            taken = self._run(
                f"SELECT seat, name FROM table_seat WHERE table_id = {self._mark}", (table_id,)
            ).fetchall()
            if name in {str(other) for _, other in taken}:
                raise StoreError(f"someone at this table is called {describe(name)} already: choose another name")
            sat = {int(seat) for seat, _ in taken}
            free = [seat for seat, kind in enumerate(kinds) if kind == PLAYER and seat not in sat]
            if not free:
                raise StoreError("every classmate's seat at this table is taken")
            self._run(
                f"INSERT INTO table_seat (table_id, seat, name, token, joined) VALUES ({self._marks(5)})",
                (table_id, free[0], name, token, now),
            )
        return TableSeat(table_id, given, free[0], name, token, hold)

    def table_seat(self, token: str) -> TableSeat:
        """The seat whose token is ``token``: a page opened again on the same device sits down again."""
        row = self._by_secret(
            "SELECT table_seat.table_id, play_table.code, table_seat.seat, table_seat.name, table_seat.token, "
            "play_table.hold FROM table_seat JOIN play_table ON play_table.id = table_seat.table_id "
            f"WHERE token = {self._mark}",
            token,
            "that is not (or no longer) a seat at a table: join the table again",
        )
        return TableSeat(str(row[0]), str(row[1]), int(row[2]), str(row[3]), str(row[4]), _seconds(row[5]))

    def table_start(self, seat: TableSeat) -> dict[str, object]:
        """The table's match before its first action, as a record (:meth:`tricklab.Match.record`):
        for a seat's kernel, which checks and follows the log with the engine. It holds the seed:
        a kernel never puts it in a page, a link or a synced state."""
        self._seat(seat)
        row = self._row(f"SELECT start FROM play_table WHERE id = {self._mark}", (seat.table_id,))
        start: dict[str, object] = json.loads(row[0])
        return start

    def table_poll(self, seat: TableSeat, since: int = 0) -> TablePoll:
        """The table's actions from number ``since`` on, and its seats, in one read."""
        self._seat(seat)
        return self._poll_table(seat.table_id, since)

    def _poll_table(self, table_id: str, since: object) -> TablePoll:
        if isinstance(since, bool) or not isinstance(since, int) or since < 0:
            raise StoreError(f"since is an action's number from 0, not {describe(since)}")
        with self._transaction(write=False):
            actions = self._run(
                f"SELECT action FROM table_action WHERE table_id = {self._mark} AND number >= {self._mark} "
                "ORDER BY number",
                (table_id, since),
            ).fetchall()
            seats = self._seats(table_id)
        return TablePoll(since, tuple(str(row[0]) for row in actions), seats)

    def table_append(self, seat: TableSeat, number: int, action: str, *, now: float) -> bool:
        """Add ``action`` as the table's action number ``number`` (from 0), for ``seat`` or for a
        bot's seat whose turn it is. ``False``: that number is taken already (another kernel acted
        first: follow the log and think again). The engine checks the action against the log: an
        illegal one raises its :class:`~tricklab.errors.IllegalAction` and nothing is written; for
        a bot's seat only the move its bot makes (:func:`tricklab.bots.table_bot`) is taken."""
        from .bots import table_bot

        self._seat(seat)
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise StoreError(f"an action's number is a whole number from 0, not {describe(number)}")
        if not isinstance(action, str) or not 0 < len(action) <= 200:
            raise StoreError(f"an action is its short text, like 'play 7H', not {describe(action)}")
        try:
            with self._transaction():
                match = self._table_match(seat.table_id)
                if number < len(match.actions):
                    return False
                if number > len(match.actions):
                    raise StoreError(
                        f"the table has {len(match.actions)} actions: the next is number {len(match.actions)}"
                    )
                to_play = match.to_play
                if to_play is None:
                    raise StoreError("the game at this table is over")
                kinds = [info.kind for info in self._seats(seat.table_id)]
                if to_play != seat.seat and kinds[to_play] == PLAYER:
                    raise NotAllowed(f"it is {match.rules.seat_name(to_play)}'s turn: a classmate's seat")
                after = match.copy()
                after.apply(action)  # the engine's check: IllegalAction names the rule
                if kinds[to_play] != PLAYER:  # a bot's seat: its move is the one its bot makes, no other
                    bot = table_bot(match.rules, to_play, match.seed, len(match.actions), kinds[to_play])
                    chosen = bot.choose(match.view(to_play), match.legal_actions())
                    if str(chosen) != str(after.actions[-1]):
                        raise NotAllowed(
                            f"a bot plays {match.rules.seat_name(to_play)} now: its move is {chosen}, not {action}"
                        )
                self._run(
                    f"INSERT INTO table_action (table_id, number, seat, action, given) VALUES ({self._marks(5)})",
                    (seat.table_id, number, to_play, str(after.actions[-1]), now),
                )
        except Exception as exc:
            if _duplicate(exc):  # another kernel's action took the number between our read and write
                return False
            raise
        self._matches[seat.table_id] = after
        return True

    def table_seen(self, seat: TableSeat, count: int) -> None:
        """The seat's classmate has gone on from every finished trick of the first ``count`` actions."""
        self._seat(seat)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise StoreError(f"count is a number of actions, not {describe(count)}")
        with self._transaction():
            self._run(
                f"UPDATE table_seat SET seen = {self._mark} WHERE table_id = {self._mark} AND seat = {self._mark} "
                f"AND seen < {self._mark}",
                (count, seat.table_id, seat.seat, count),
            )

    def table_hand_over(self, seat: TableSeat, other: int, bot: str) -> None:
        """A bot (one of :data:`TABLE_BOTS`) plays seat ``other`` from now on: one's own seat when
        leaving, or a classmate's who has gone. Its classmate sits down again with :meth:`table_sit`."""
        self._seat(seat)
        if bot not in TABLE_BOTS:
            raise StoreError(f"a seat is handed to a bot ({', '.join(TABLE_BOTS)}), not {describe(bot)}")
        self._set_kind(seat, other, bot)

    def table_sit(self, seat: TableSeat) -> None:
        """The seat's classmate plays it again (after a bot took it over)."""
        self._seat(seat)
        self._set_kind(seat, seat.seat, PLAYER)

    def _set_kind(self, seat: TableSeat, other: object, kind: str) -> None:
        with self._transaction():
            kinds = json.loads(
                self._run(f"SELECT seats FROM play_table WHERE id = {self._mark}", (seat.table_id,)).fetchone()[0]
            )
            if isinstance(other, bool) or not isinstance(other, int) or not 0 <= other < len(kinds):
                raise StoreError(f"a seat is a number from 0 to {len(kinds) - 1}, not {describe(other)}")
            kinds[other] = kind
            self._run(
                f"UPDATE play_table SET seats = {self._mark} WHERE id = {self._mark}",
                (json.dumps(kinds), seat.table_id),
            )

    # --- the teacher's view of the session's tables -------------------------------------------------

    def _class_of(self, class_code: object) -> str:
        """The id of the live class session whose join code is ``class_code``."""
        given = "".join(class_code.split()).upper() if isinstance(class_code, str) else ""
        row = (
            self._row(
                f"SELECT id FROM class_session WHERE join_code = {self._mark} AND ended IS NULL AND paced = 0",
                (given,),
            )
            if len(given) == CODE_LENGTH
            else None
        )
        if row is None:
            raise UnknownSession(f"no class session has the code {describe(class_code)}: ask your teacher for it")
        return str(row[0])

    def class_tables(self, session: Session) -> list[TableSummary]:
        """The tables made in the session, the newest first (its teacher only)."""
        self._teacher(session)
        with self._transaction(write=False):
            rows = self._run(
                f"SELECT id, code, start FROM play_table WHERE session_id = {self._mark} ORDER BY created DESC",
                (session.id,),
            ).fetchall()
            summaries = []
            for table_id, code, start in rows:
                record = json.loads(start)
                count = self._run(
                    f"SELECT COUNT(*) FROM table_action WHERE table_id = {self._mark}", (str(table_id),)
                ).fetchone()[0]
                summaries.append(
                    TableSummary(
                        str(code), str(record["game"]), int(record["players"]), self._seats(str(table_id)), int(count)
                    )
                )
        return summaries

    def _watched(self, session: Session, code: object) -> str:
        """The id of the session's table whose code is ``code`` (its teacher only)."""
        self._teacher(session)
        row = self._row(
            f"SELECT id FROM play_table WHERE code = {self._mark} AND session_id = {self._mark}",
            (code if isinstance(code, str) else "", session.id),
        )
        if row is None:
            raise UnknownSession(f"the class session has no table {describe(code)}")
        return str(row[0])

    def watch_start(self, session: Session, code: str) -> dict[str, object]:
        """The session's table's match before its first action (its teacher only): as
        :meth:`table_start` gives a seat's kernel, for the teacher's view of the table."""
        table_id = self._watched(session, code)
        start: dict[str, object] = json.loads(
            self._row(f"SELECT start FROM play_table WHERE id = {self._mark}", (table_id,))[0]
        )
        return start

    def watch_poll(self, session: Session, code: str, since: int = 0) -> TablePoll:
        """The session's table's actions from number ``since`` on, and its seats (its teacher only)."""
        table_id = self._watched(session, code)
        return self._poll_table(table_id, since)

    def _seats(self, table_id: str) -> tuple[SeatInfo, ...]:
        """The table's seats (inside a transaction)."""
        kinds = json.loads(
            self._run(f"SELECT seats FROM play_table WHERE id = {self._mark}", (table_id,)).fetchone()[0]
        )
        sat = {
            int(row[0]): (str(row[1]), int(row[2]))
            for row in self._run(
                f"SELECT seat, name, seen FROM table_seat WHERE table_id = {self._mark}", (table_id,)
            ).fetchall()
        }
        return tuple(SeatInfo(str(kind), *sat.get(number, ("", 0))) for number, kind in enumerate(kinds))

    def _table_match(self, table_id: str) -> Match:
        """The table's match as its log stands (inside a transaction): the one kept from the last
        look, brought up to date with the actions since."""
        from .match import Match

        match = self._matches.get(table_id)
        if match is None:
            start = self._run(f"SELECT start FROM play_table WHERE id = {self._mark}", (table_id,)).fetchone()
            match = Match.from_record(json.loads(start[0]))
        else:
            match = match.copy()
        rows = self._run(
            f"SELECT action FROM table_action WHERE table_id = {self._mark} AND number >= {self._mark} ORDER BY number",
            (table_id, len(match.actions)),
        ).fetchall()
        for (text,) in rows:
            match.apply(str(text))
        self._matches[table_id] = match
        return match

    def _guard(self, who: object, now: float) -> str:
        """Refuse a client that has tried too many wrong codes lately (see :meth:`join`)."""
        name = str(who)[:200]
        since = now - GUESS_WINDOW
        with self._transaction():
            self._run(f"DELETE FROM join_attempt WHERE tried < {self._mark}", (now - 10 * GUESS_WINDOW,))
            mine, everyone = self._run(
                f"SELECT COALESCE(SUM(CASE WHEN who = {self._mark} THEN 1 ELSE 0 END), 0), COUNT(*) "
                f"FROM join_attempt WHERE ok = 0 AND tried >= {self._mark}",
                (name, since),
            ).fetchone()
        if int(mine) >= WRONG_CODES_EACH or int(everyone) >= WRONG_CODES_ALL:
            raise TooManyTries("too many wrong join codes were tried: wait a minute, then check the code and try again")
        return name

    def _missed(self, who: str, now: float) -> None:
        """Note a wrong code tried by ``who``."""
        with self._transaction():
            self._run(f"INSERT INTO join_attempt (who, tried, ok) VALUES ({self._marks(3)})", (who, now, 0))

    def _seat(self, seat: TableSeat) -> None:
        """Check that ``seat`` holds its token."""
        if not isinstance(seat, TableSeat):
            raise NotAllowed(f"only a seat at the table may do this, not {describe(seat)}")
        row = self._row(
            f"SELECT token FROM table_seat WHERE table_id = {self._mark} AND seat = {self._mark}",
            (seat.table_id, seat.seat),
        )
        if row is None or not secrets.compare_digest(str(row[0]), seat.token):
            raise NotAllowed("that is not a seat at this table")

    # --- who is who --------------------------------------------------------------------------

    def _by_secret(self, sql: str, secret: object, refusal: str) -> Any:
        """The row ``sql`` finds by ``secret`` (a teacher's secret, a student's or a seat's token);
        a value that is no such secret is refused with ``refusal``, found or not alike."""
        row = self._row(sql, (secret,)) if isinstance(secret, str) and 0 < len(secret) <= 100 else None
        if row is None:
            raise NotAllowed(refusal)
        return row

    def _teacher(self, session: Session) -> bool:
        """Check that ``session`` holds its teacher's secret; whether it is a homework set."""
        if not isinstance(session, Session):
            raise NotAllowed(f"only the teacher's session may do this, not {describe(session)}")
        row = self._row(f"SELECT teacher_secret, paced FROM class_session WHERE id = {self._mark}", (session.id,))
        if row is None:
            raise UnknownSession(f"there is no class session {describe(session.id)}")
        if not secrets.compare_digest(str(row[0]), session.teacher_secret):
            raise NotAllowed("only the session's teacher may do this")
        return bool(row[1])

    def _student(self, student: Student) -> bool:
        """Check that ``student`` holds its token; whether its session is a homework set."""
        if not isinstance(student, Student):
            raise NotAllowed(f"only a student of the session may do this, not {describe(student)}")
        row = self._row(
            "SELECT student.token, student.session_id, class_session.paced FROM student "
            f"JOIN class_session ON class_session.id = student.session_id WHERE student.id = {self._mark}",
            (student.id,),
        )
        if row is None or not secrets.compare_digest(str(row[0]), student.token) or row[1] != student.session_id:
            raise NotAllowed("that is not a student of this class")
        return bool(row[2])

    # --- the database ------------------------------------------------------------------------

    def _marks(self, count: int) -> str:
        return ", ".join([self._mark] * count)

    def _run(self, sql: str, parameters: Sequence[object] = ()) -> Any:
        return self._connection.execute(sql, parameters)

    def _row(self, sql: str, parameters: Sequence[object] = ()) -> Any:
        """The first row ``sql`` reads (None: none), in a read-only transaction of its own."""
        with self._transaction(write=False):
            return self._run(sql, parameters).fetchone()

    def _rows(self, sql: str, parameters: Sequence[object] = ()) -> list[Any]:
        """Every row ``sql`` reads, in a read-only transaction of its own."""
        with self._transaction(write=False):
            return list(self._run(sql, parameters).fetchall())

    @contextmanager
    def _transaction(self, *, write: bool = True) -> Iterator[None]:
        """One transaction: committed when the block ends, rolled back if it raises. On SQLite a
        transaction that may write takes the write lock as it begins (a writer waits its turn,
        never fails midway); one that only reads does not, so the pages' polls read side by side
        and never queue behind each other (WAL mode)."""
        with self._lock:
            if isinstance(self._connection, _SQLite):
                self._connection.immediate = write
            try:
                yield
            except BaseException:
                self._connection.rollback()
                raise
            self._connection.commit()


class _SQLite:
    """sqlite3 with explicit transactions: ``BEGIN IMMEDIATE`` for one that may write (a writer
    waits, never fails midway), ``BEGIN`` for one that only reads (``immediate`` off)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection
        self._open = False
        self.immediate = True

    def execute(self, sql: str, parameters: Sequence[object] = ()) -> sqlite3.Cursor:
        if not self._open:
            self._connection.execute("BEGIN IMMEDIATE" if self.immediate else "BEGIN")
            self._open = True
        return self._connection.execute(sql, parameters)

    def commit(self) -> None:
        if self._open:
            self._connection.execute("COMMIT")
            self._open = False

    def rollback(self) -> None:
        if self._open:
            self._connection.execute("ROLLBACK")
            self._open = False

    def close(self) -> None:
        self._connection.close()


def _duplicate(error: BaseException) -> bool:
    """Whether ``error`` is the database refusing a second row under a unique key."""
    if isinstance(error, sqlite3.IntegrityError):
        return True
    try:
        import psycopg
    except ImportError:  # pragma: no cover (only SQLite here)
        return False
    return isinstance(error, psycopg.errors.UniqueViolation)


def _join_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def _name(value: object, what: str) -> str:
    """A display name: text of 1 to :data:`MAX_NAME` printable characters, spaces squeezed."""
    if not isinstance(value, str):
        raise StoreError(f"{what} is text, not {describe(value)}")
    name = " ".join(value.split())
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise StoreError(f"{what} is 1 to {MAX_NAME} printable characters, not {describe(value)}")
    return name


def _seconds(value: object) -> float | None:
    """A number of seconds as the database gives it (``None`` stays ``None``)."""
    return None if value is None else float(str(value))


def _json(value: object, what: str) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        raise StoreError(f"{what} must be JSON (text, numbers, lists, objects), not {describe(value)}") from None


def _safe(url: str) -> str:
    """``url`` without its password, to name it in a message."""
    head, at, tail = url.rpartition("@")
    scheme, _, user = head.partition("://")
    if not at or ":" not in user:
        return url
    return f"{scheme}://{user.split(':')[0]}:***@{tail}"


__all__ = [
    "KINDS",
    "MAX_TABLE_HOLD",
    "MIGRATIONS",
    "PLAYER",
    "TABLE_BOTS",
    "ClassStore",
    "NotAllowed",
    "Question",
    "SeatInfo",
    "Session",
    "Store",
    "StoreError",
    "Student",
    "TablePoll",
    "TableSeat",
    "TableStore",
    "TableSummary",
    "TooManyTries",
    "UnknownSession",
    "open_store",
    "open_table_store",
    "tables_at",
]
