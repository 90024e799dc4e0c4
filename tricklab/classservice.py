"""The class service: the class store behind a JupyterHub service, so that learners' servers hold
no database password.

Under ``tricklab serve`` every page's kernel runs on the teacher's machine, where no learner runs
code. Under JupyterHub each learner has a Jupyter server of their own and may run any code in it:
a server that held ``TRICKLAB_CLASS_DB=postgresql://...`` would let its learner read every
answer before the reveal. So the hub runs ``tricklab class-service`` as one of its services, with
the database's URL in its environment only; each learner's server is given the service's address
instead (``TRICKLAB_CLASS_DB=http://...``), and its class app talks to it through a
:class:`StoreClient`.

Each request carries the server's own hub token (``$JUPYTERHUB_API_TOKEN``); the service asks
the hub whose it is (``GET /hub/api/user``, which every token may ask) and then acts for that
hub user only, whatever the request says:

- a session is started, and its teacher's link opened, only by the hub user who is its teacher;
- a learner joins under their hub name, and acts as a student only while they are that student;
- the service's own clock stamps every action (a client's clock could dodge the limit on
  guessing join codes);
- every other rule is the store's own (:class:`tricklab.store.Store`): an answer is given to a
  student only once revealed, names and counts only to the teacher, and so on.

The service speaks JSON: ``POST /call/<method>`` with ``{"args": [...]}``, a :class:`Session`
sent as its teacher's secret and a :class:`Student` as their token; it answers ``{"ok": result}``
or ``{"error": "<the error's class>", "message": "..."}``. Only the calls of
:class:`tricklab.store.ClassStore` are answered.

A seat at a table of classmates is not among them. A seat's kernel holds its table's seed, to check
moves with the engine, and a learner may run any code in their own server; so under JupyterHub the
tables are played in the hub's ``tricklab serve`` service, where learners log in through the hub and
run no code (:func:`tricklab.store.tables_at`). Here the teacher only lists and watches the
session's tables.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from .errors import TricklabError, describe
from .store import (
    NotAllowed,
    Question,
    SeatInfo,
    Session,
    Store,
    StoreError,
    Student,
    TablePoll,
    TableSummary,
    TooManyTries,
    UnknownSession,
)

if TYPE_CHECKING:
    from tornado.web import Application

#: the errors a call may answer with, by name: the client raises the same class
ERRORS: dict[str, type[TricklabError]] = {
    cls.__name__: cls for cls in (StoreError, NotAllowed, UnknownSession, TooManyTries)
}
#: how long the service trusts what the hub said a token is (seconds)
IDENTITY_TTL = 60.0
#: how long a client waits for the service (seconds)
TIMEOUT = 15.0


# --- the client: in a learner's (or the teacher's) kernel -----------------------------------------


def _session(value: object) -> Session:
    fields_ = _fields(value, "a session")
    return Session(
        str(fields_["id"]),
        str(fields_["join_code"]),
        str(fields_["teacher_secret"]),
        str(fields_["teacher"]),
        bool(fields_["paced"]),
    )


def _student(value: object) -> Student:
    fields_ = _fields(value, "a student")
    return Student(str(fields_["id"]), str(fields_["session_id"]), str(fields_["name"]), str(fields_["token"]))


def _question(value: object) -> Question:
    fields_ = _fields(value, "a question")
    shown = fields_["shown"]
    return Question(
        str(fields_["id"]),
        str(fields_["session_id"]),
        int(str(fields_["number"])),
        str(fields_["kind"]),
        dict(shown) if isinstance(shown, dict) else {},
        bool(fields_["revealed"]),
    )


def _seat_infos(value: object) -> tuple[SeatInfo, ...]:
    seats = [_fields(info, "a seat") for info in _list(value)]
    return tuple(SeatInfo(str(info["kind"]), str(info["name"]), int(str(info["seen"]))) for info in seats)


def _poll(value: object) -> TablePoll:
    fields_ = _fields(value, "a table's news")
    return TablePoll(
        int(str(fields_["since"])),
        tuple(str(action) for action in _list(fields_["actions"])),
        _seat_infos(fields_["seats"]),
    )


def _summary(value: object) -> TableSummary:
    fields_ = _fields(value, "a table of the session")
    return TableSummary(
        str(fields_["code"]),
        str(fields_["game"]),
        int(str(fields_["players"])),
        _seat_infos(fields_["seats"]),
        int(str(fields_["actions"])),
    )


def _fields(value: object, what: str) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise StoreError(f"the class service sent {describe(value)} where {what} belongs")
    return value


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise StoreError(f"the class service sent {describe(value)} where a list belongs")
    return value


class StoreClient:
    """A class store that is the class service at ``url`` (see the module's notes), asked with
    ``token`` (default ``$JUPYTERHUB_API_TOKEN``). The ``now`` its calls are given is not sent:
    the service stamps every action with its own clock."""

    def __init__(self, url: str, token: str | None = None) -> None:
        self.url = url.rstrip("/")
        self.where = f"the class service at {self.url}"
        self._token = token if token is not None else os.environ.get("JUPYTERHUB_API_TOKEN", "")

    def close(self) -> None:
        """Nothing to close: each call is one request."""

    def _call(self, method: str, *args: object) -> object:
        body = json.dumps({"args": list(args)}).encode()
        request = urllib.request.Request(
            f"{self.url}/call/{method}",
            data=body,
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"token {self._token}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                answer = json.loads(response.read())
        except urllib.error.HTTPError as failed:
            try:
                answer = json.loads(failed.read())
            except ValueError:
                answer = {}
            if not isinstance(answer, dict) or "error" not in answer:
                raise StoreError(f"{self.where} answered {failed.code} {failed.reason}") from None
        except (OSError, ValueError) as failed:
            raise StoreError(f"{self.where} cannot be reached: {failed}") from None
        if not isinstance(answer, dict) or ("ok" not in answer and "error" not in answer):
            raise StoreError(f"{self.where} answered {describe(answer)}, not a class store's answer")
        if "error" in answer:
            raise ERRORS.get(str(answer["error"]), StoreError)(str(answer.get("message", "")))
        return answer["ok"]

    def new_session(self, teacher: str, *, now: float) -> Session:
        return _session(self._call("new_session"))  # the teacher is the hub user who asks

    def new_set(self, session: Session, *, now: float) -> Session:
        return _session(self._call("new_set", session.teacher_secret))

    def paced(self, student: Student) -> bool:
        return bool(self._call("paced", student.token))

    def join(self, join_code: str, name: str, *, now: float, who: str = "") -> Student:
        return _student(self._call("join", join_code))  # under the hub user's name

    def teacher_session(self, teacher_secret: str) -> Session:
        return _session(self._call("teacher_session", teacher_secret))

    def student(self, token: str) -> Student:
        return _student(self._call("student", token))

    def students(self, session: Session) -> list[str]:
        return [str(name) for name in _list(self._call("students", session.teacher_secret))]

    def send(self, session: Session, kind: str, shown: dict[str, object], answer: object, *, now: float) -> Question:
        return _question(self._call("send", session.teacher_secret, kind, shown, answer))

    def current(self, student: Student) -> Question | None:
        found = self._call("current", student.token)
        return None if found is None else _question(found)

    def stamp(self, student: Student) -> tuple[int, bool]:
        number, revealed = _list(self._call("stamp", student.token))
        return int(str(number)), bool(revealed)

    def question(self, student: Student, number: int) -> Question | None:
        found = self._call("question", student.token, number)
        return None if found is None else _question(found)

    def set_size(self, student: Student) -> int:
        return int(str(self._call("set_size", student.token)))

    def answer(self, student: Student, question_id: str, choice: str, *, now: float) -> None:
        self._call("answer", student.token, question_id, choice)

    def given(self, student: Student, question_id: str) -> str | None:
        found = self._call("given", student.token, question_id)
        return None if found is None else str(found)

    def history(self, student: Student) -> list[tuple[Question, str | None, object]]:
        rows = [_list(row) for row in _list(self._call("history", student.token))]
        return [(_question(q), None if given is None else str(given), answer) for q, given, answer in rows]

    def counts(self, session: Session, question_id: str) -> dict[str, int]:
        counted = _fields(self._call("counts", session.teacher_secret, question_id), "counts")
        return {str(choice): int(str(count)) for choice, count in counted.items()}

    def reveal(self, session: Session, question_id: str, *, now: float) -> object:
        return self._call("reveal", session.teacher_secret, question_id)

    def revealed_answer(self, student: Student, question_id: str) -> object:
        return self._call("revealed_answer", student.token, question_id)

    def questions(self, session: Session) -> list[tuple[Question, object]]:
        rows = [_list(row) for row in _list(self._call("questions", session.teacher_secret))]
        return [(_question(q), answer) for q, answer in rows]

    def results(self, session: Session) -> list[tuple[int, str, str]]:
        rows = [_list(row) for row in _list(self._call("results", session.teacher_secret))]
        return [(int(str(number)), str(name), str(choice)) for number, name, choice in rows]

    def class_tables(self, session: Session) -> list[TableSummary]:
        return [_summary(row) for row in _list(self._call("class_tables", session.teacher_secret))]

    def watch_start(self, session: Session, code: str) -> dict[str, object]:
        return dict(_fields(self._call("watch_start", session.teacher_secret, code), "a table's start"))

    def watch_poll(self, session: Session, code: str, since: int = 0) -> TablePoll:
        return _poll(self._call("watch_poll", session.teacher_secret, code, since))


# --- the service: run by the hub --------------------------------------------------------------------


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise StoreError(f"{what} is text, not {describe(value)}")
    return value


def _plain(value: object) -> object:
    """``value`` as JSON: the store's records as objects, tuples as lists."""
    if isinstance(value, Session | Student | Question | TablePoll | TableSummary | SeatInfo):
        return asdict(value)
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    return value


@dataclass
class Calls:
    """The calls the service answers for one hub ``user``, each checked as the store checks it and
    then as the service does (see the module's notes)."""

    store: Store
    user: str
    clock: Callable[[], float] = time.time
    table: dict[str, Callable[..., object]] = field(init=False)

    def __post_init__(self) -> None:
        store, now = self.store, self.clock
        self.table = {
            "new_session": lambda: store.new_session(self.user, now=now()),
            "new_set": lambda secret: store.new_set(self.teacher(secret), now=now()),
            "paced": lambda token: store.paced(self.student(token)),
            "join": lambda code: store.join(_text(code, "a join code"), self.user, now=now(), who=self.user),
            "teacher_session": lambda secret: self.teacher(secret),
            "student": lambda token: self.student(token),
            "students": lambda secret: store.students(self.teacher(secret)),
            "send": lambda secret, kind, shown, answer: store.send(
                self.teacher(secret), _text(kind, "a question's kind"), shown, answer, now=now()
            ),
            "current": lambda token: store.current(self.student(token)),
            "stamp": lambda token: store.stamp(self.student(token)),
            "question": lambda token, number: store.question(self.student(token), number),
            "set_size": lambda token: store.set_size(self.student(token)),
            "answer": lambda token, question, choice: store.answer(
                self.student(token), _text(question, "a question's id"), choice, now=now()
            ),
            "given": lambda token, question: store.given(self.student(token), _text(question, "a question's id")),
            "history": lambda token: store.history(self.student(token)),
            "counts": lambda secret, question: store.counts(self.teacher(secret), _text(question, "a question's id")),
            "reveal": lambda secret, question: store.reveal(
                self.teacher(secret), _text(question, "a question's id"), now=now()
            ),
            "revealed_answer": lambda token, question: store.revealed_answer(
                self.student(token), _text(question, "a question's id")
            ),
            "questions": lambda secret: store.questions(self.teacher(secret)),
            "results": lambda secret: store.results(self.teacher(secret)),
            "class_tables": lambda secret: store.class_tables(self.teacher(secret)),
            "watch_start": lambda secret, code: store.watch_start(self.teacher(secret), _text(code, "a table's code")),
            "watch_poll": lambda secret, code, since: store.watch_poll(
                self.teacher(secret), _text(code, "a table's code"), since
            ),
        }

    def teacher(self, secret: object) -> Session:
        """The session of a teacher's ``secret``, if this hub user is its teacher."""
        session = self.store.teacher_session(_text(secret, "a teacher's secret"))
        if session.teacher != self.user:
            raise NotAllowed(
                f"only the teacher who started this class session may act as its teacher, not {describe(self.user)}"
            )
        return session

    def student(self, token: object) -> Student:
        """The student of ``token``, if this hub user is that student."""
        student = self.store.student(_text(token, "a student's token"))
        if student.name != self.user:
            raise NotAllowed(f"only {describe(student.name)} may act as that student, not {describe(self.user)}")
        return student

    def call(self, method: str, args: Sequence[object]) -> object:
        """Run ``method`` with ``args``; its result as JSON. A call it does not know, or given the
        wrong number of arguments, is refused."""
        run = self.table.get(method)
        if run is None:
            raise StoreError(f"the class service answers {', '.join(sorted(self.table))}, not {describe(method)}")
        try:
            inspect.signature(run).bind(*args)
        except TypeError:
            raise StoreError(f"{method} takes other arguments than the {len(args)} it was given") from None
        return _plain(run(*args))


#: who a hub token belongs to: a function that asks the hub (see :func:`hub_identity`)
Identify = Callable[[str], Awaitable[str | None]]


def hub_identity(api_url: str) -> Identify:
    """Who a token belongs to, as the hub at ``api_url`` says (``None``: nobody it knows). What it
    said is kept :data:`IDENTITY_TTL` seconds, by the token's hash."""
    from tornado.httpclient import AsyncHTTPClient, HTTPClientError

    known: dict[str, tuple[float, str | None]] = {}

    async def identify(token: str) -> str | None:
        key = hashlib.sha256(token.encode()).hexdigest()
        seen = known.get(key)
        if seen is not None and time.monotonic() - seen[0] < IDENTITY_TTL:
            return seen[1]
        try:
            response = await AsyncHTTPClient().fetch(
                f"{api_url.rstrip('/')}/user", headers={"Authorization": f"token {token}"}, request_timeout=TIMEOUT
            )
            model = json.loads(response.body)
            name = str(model["name"]) if isinstance(model, dict) and model.get("kind", "user") == "user" else None
        except HTTPClientError as failed:
            if failed.code not in (401, 403, 404):
                raise
            name = None
        if len(known) > 10_000:
            known.clear()
        known[key] = (time.monotonic(), name)
        return name

    return identify


def application(store: Store, identify: Identify, clock: Callable[[], float] = time.time) -> Application:
    """The service's tornado application over ``store``; ``identify`` says whose a token is."""
    from tornado.web import Application, RequestHandler

    class Call(RequestHandler):
        def set_default_headers(self) -> None:
            self.set_header("Content-Type", "application/json")
            self.set_header("Cache-Control", "no-store")

        def answer(self, status: int, body: Mapping[str, object]) -> None:
            self.set_status(status)
            self.finish(json.dumps(body))

        async def post(self, method: str) -> None:
            header = self.request.headers.get("Authorization", "")
            scheme, _, token = header.partition(" ")
            user = await identify(token.strip()) if scheme.lower() in ("token", "bearer") and token.strip() else None
            if user is None:
                self.answer(403, {"error": "NotAllowed", "message": "the class service needs a hub user's token"})
                return
            try:
                sent = json.loads(self.request.body)
            except ValueError:
                sent = None
            try:
                args = sent.get("args") if isinstance(sent, dict) else None
                if not isinstance(args, list):
                    raise StoreError(f"a call to the class service is JSON: {{'args': [...]}}, not {describe(sent)}")
                result = Calls(store, user, clock).call(method, args)
            except TricklabError as refused:
                status = 429 if isinstance(refused, TooManyTries) else 403 if isinstance(refused, NotAllowed) else 400
                name = type(refused).__name__ if type(refused).__name__ in ERRORS else "StoreError"
                self.answer(status, {"error": name, "message": str(refused)})
                return
            self.answer(200, {"ok": result})

    class About(RequestHandler):
        def get(self) -> None:
            from . import __version__

            self.set_header("Content-Type", "application/json")
            self.finish(json.dumps({"service": "tricklab class store", "version": __version__}))

    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/").rstrip("/")
    routes: list[tuple[str, type[RequestHandler]]] = [(r"/call/([a-z_]+)", Call), (r"/", About)]
    if prefix:  # also under the hub's proxy: /services/<name>/...
        routes += [(prefix + r"/call/([a-z_]+)", Call), (prefix + "/", About)]
    return Application(routes)


def serve(host: str, port: int, database: str | None = None) -> None:
    """Run the class service on ``host:port`` until stopped: the store at ``database`` (else
    ``$TRICKLAB_CLASS_DB``), identities from the hub at ``$JUPYTERHUB_API_URL``."""
    import asyncio

    api_url = os.environ.get("JUPYTERHUB_API_URL", "")
    if not api_url:
        raise StoreError("the class service runs as a JupyterHub service: $JUPYTERHUB_API_URL is not set")
    store = Store.open(database)

    async def run() -> None:
        application(store, hub_identity(api_url)).listen(port, host)
        print(f"tricklab class service: http://{host}:{port}/ keeps class sessions in {store.where}", flush=True)
        await asyncio.Event().wait()

    asyncio.run(run())


__all__ = ["ERRORS", "Calls", "StoreClient", "application", "hub_identity", "serve"]
