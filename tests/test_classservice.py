"""The class service (tricklab.classservice) over a real store, on SQLite and on PostgreSQL: a
whole session through it, and what a learner who runs code in their own server may try against it
with their own hub token. Here a token's owner is told by a table instead of a hub; the hub itself
answers in tests/test_jupyterhub.py."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tricklab import classwork as cw
from tricklab.classroom import LearnerDesk, TeacherDesk
from tricklab.classservice import StoreClient, application
from tricklab.store import NotAllowed, Store, StoreError, TooManyTries

from .servers import free_port

pytestmark = pytest.mark.server

#: whose each token is, as the hub would say
TOKENS = {"t-rivera": "rivera", "t-ada": "ada", "t-bo": "bo"}


@pytest.fixture
def service(class_store: Store) -> Iterator[str]:
    """The class service over ``class_store`` on a port of its own, in a thread; yields its URL."""
    port = free_port()
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    async def identify(token: str) -> str | None:
        return TOKENS.get(token)

    def run() -> None:
        asyncio.set_event_loop(loop)
        server = application(class_store, identify).listen(port, "127.0.0.1")
        loop.call_soon(ready.set)
        loop.run_forever()
        server.stop()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    yield f"http://127.0.0.1:{port}"
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def raw(url: str, method: str, args: object, token: str = "t-ada") -> tuple[int, dict[str, object]]:
    """One request as a learner's own code could send it: the status and the JSON answer."""
    request = urllib.request.Request(
        f"{url}/call/{method}",
        data=json.dumps({"args": args}).encode() if not isinstance(args, bytes) else args,
        method="POST",
        headers={"Authorization": f"token {token}"} if token else {},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def test_a_session_through_the_service(service: str) -> None:
    rivera = TeacherDesk.start(StoreClient(service, "t-rivera"), "whoever the page says")
    assert rivera.session.teacher == "rivera", "the teacher is the hub user who asks"
    ada = LearnerDesk.join(StoreClient(service, "t-ada"), rivera.join_code, "Bo, says Ada's page")
    bo = LearnerDesk.join(StoreClient(service, "t-bo"), rivera.join_code, "bo")
    assert (ada.name, bo.name) == ("ada", "bo"), "each learner joins under their hub name"
    trick = cw.which_wins("tricks-and-stones", "7H AH 8S KD", players=4, trump="S")
    rivera.send(trick)
    assert ada.now().question is not None and ada.now().answer is None
    assert ada.stamp() == (1, False)
    ada.answer("8S")
    bo.answer("AH")
    live = rivera.live()
    assert live is not None and (live.students, live.answered) == (2, 2)
    revealed = rivera.reveal()
    assert revealed is not None and revealed.answer["right"] == ["8S"]
    assert ada.now().right is True and bo.now().right is False
    assert [m.right for m in ada.results()] == [True]
    again = TeacherDesk.reopen(StoreClient(service, "t-rivera"), rivera.session.teacher_secret)
    assert "ada,1," in again.csv() and "bo,1," in again.csv()
    homework = again.save_set()
    late = LearnerDesk.join(StoreClient(service, "t-ada"), homework.join_code, "ada")
    assert late.paced and late.now().of == 1


def test_what_a_learner_may_try_with_their_own_token(service: str) -> None:
    rivera = TeacherDesk.start(StoreClient(service, "t-rivera"), "rivera")
    secret = rivera.session.teacher_secret
    bo = LearnerDesk.join(StoreClient(service, "t-bo"), rivera.join_code, "bo")
    ada = LearnerDesk.join(StoreClient(service, "t-ada"), rivera.join_code, "ada")
    question = rivera.send(cw.which_wins("tricks-and-stones", "7H AH 8S KD", players=4, trump="S"))

    # the teacher's link, if it reached a learner, does not make them the teacher
    for method, args in (
        ("teacher_session", [secret]),
        ("questions", [secret]),
        ("results", [secret]),
        ("students", [secret]),
        ("counts", [secret, question.id]),
        ("reveal", [secret, question.id]),
    ):
        status, answer = raw(service, method, args)
        assert (status, answer["error"]) == (403, "NotAllowed"), (method, answer)
        assert "only the teacher who started" in str(answer["message"])
    # another learner's token, if it reached ada, does not make her that learner
    status, answer = raw(service, "current", [bo.student.token])
    assert status == 403 and "only 'bo' may act as that student" in str(answer["message"])
    # the answer before the reveal: refused by the store's own rule
    status, answer = raw(service, "revealed_answer", [ada.student.token, question.id])
    assert status == 403 and "when the teacher reveals it" in str(answer["message"])
    # calls the store has but the service does not answer, or with other arguments than its own
    for method, args in (("session_by_code", [rivera.join_code]), ("migrate", []), ("join", [rivera.join_code, "bo"])):
        status, answer = raw(service, method, args)
        assert status == 400 and answer["error"] == "StoreError", method
    # no token, a token the hub does not know, a body that is not a call
    assert raw(service, "current", ["x"], token="")[0] == 403
    assert raw(service, "current", ["x"], token="forged")[0] == 403
    with pytest.raises(NotAllowed, match="needs a hub user's token"):  # the client raises the store's classes
        StoreClient(service, "forged").student(ada.student.token)
    assert raw(service, "current", b"{not json")[0] == 400
    assert raw(service, "current", {"token": "x"})[0] == 400
    # guessing join codes: stopped after a few, whatever clock the learner's code would give
    guesser = StoreClient(service, "t-ada")
    for _ in range(5):
        with pytest.raises(StoreError, match="no class session has the join code"):
            guesser.join("ZZZZZZ", "ada", now=1e12)
    with pytest.raises(TooManyTries):
        guesser.join(rivera.join_code, "ada", now=1e12)
    assert [q.number for q, _ in rivera.store.questions(rivera.session)] == [1], "nothing was changed"


def test_the_service_out_of_reach_is_a_clear_error() -> None:
    client = StoreClient(f"http://127.0.0.1:{free_port()}", "t-ada")
    with pytest.raises(StoreError, match=r"the class service at http://127\.0\.0\.1:\d+ cannot be reached"):
        client.student("x")


def test_the_service_seats_no_one_at_a_table(service: str, tmp_path: Path) -> None:
    """A seat's kernel holds its table's seed, and a learner's own server may run any code: the
    service answers no call of a seat (the tables are played in the hub's tricklab serve), and a
    table app opened in such a server says so and links to where they are played."""
    from tricklab.store import PLAYER, open_table_store

    for method, args in (
        ("new_table", ["kalah", 2, {}, [PLAYER, PLAYER], "", 0]),
        ("join_table", ["ABC123"]),
        ("table_start", ["a-seat-token"]),
        ("table_poll", ["a-seat-token", 0]),
        ("table_append", ["a-seat-token", 0, "sow 1"]),
    ):
        status, answer = raw(service, method, args, token="t-ada")
        assert status == 400 and f"not {method!r}" in str(answer["message"]), (method, answer)
    with pytest.raises(NotAllowed, match="tables of classmates are not played from this server"):
        open_table_store(service)
    os.environ["TRICKLAB_TABLES"] = "/services/tricklab/voila/render/"
    try:
        with pytest.raises(NotAllowed, match="played at /services/tricklab/voila/render/"):
            open_table_store(service)
    finally:
        del os.environ["TRICKLAB_TABLES"]
    assert isinstance(open_table_store(str(tmp_path / "class.sqlite3")), Store), "a database seats classmates"


def test_the_teacher_watches_a_class_table_through_the_service(service: str, class_store: Store) -> None:
    from tricklab.store import PLAYER

    rivera = TeacherDesk.start(StoreClient(service, "t-rivera"), "")
    # the table is made where tables are played (the hub's tricklab serve, on the same database)
    seat = class_store.new_table(
        "kalah", 2, {}, [PLAYER, "random"], "ada", now=0.0, hold=5, class_code=rivera.join_code
    )
    assert seat.hold == 5.0
    teacher = StoreClient(service, "t-rivera")
    listed = teacher.class_tables(rivera.session)
    assert [(t.code, t.game, t.players) for t in listed] == [(seat.code, "kalah", 2)]
    assert listed[0].seats[0].name == "ada" and listed[0].seats[1].kind == "random"
    assert teacher.watch_start(rivera.session, seat.code)["game"] == "kalah"
    assert teacher.watch_poll(rivera.session, seat.code).actions == ()
    # a learner with the teacher's secret in hand is not the teacher
    status, answer = raw(service, "watch_start", [rivera.session.teacher_secret, seat.code], token="t-ada")
    assert status == 403, answer


def test_a_learners_own_server_links_its_table_app_to_where_tables_are_played(
    service: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tricklab.widgets.apps import table_app

    monkeypatch.setenv("TRICKLAB_CLASS_DB", service)
    monkeypatch.setenv("TRICKLAB_TABLES", "/services/tricklab/voila/render/")
    app = table_app('game=hearts&players=4&join=ABC123&seat="><script>x</script>')
    html = str(app.children[1].scene["html"])
    assert 'href="/services/tricklab/voila/render/table.ipynb?game=hearts&amp;players=4&amp;join=ABC123"' in html
    assert "<script>" not in html and "seat=" not in html
    monkeypatch.delenv("TRICKLAB_TABLES")
    html = str(table_app("game=hearts").children[1].scene["html"])
    assert "href" not in html and "not played from this server" in html
