"""Who may do what in a class session, tried from raw requests against ``tricklab serve``: a
student's page is a Voilà page with a kernel of its own, and everything a page can send its
kernel goes over that kernel's websocket. Here a student who knows the protocol speaks it by
hand (as a page's front end would, and as no page would): they read every widget's state, send
answers that are not choices, set the page's read-only state, press the teacher's buttons by
name, and ask the kernel to run code. Nothing of that reaches the answer before the reveal,
another student's name or answer, the teacher's secret, a seed or a record; nothing changes in
the class store but the student's own valid answer."""

from __future__ import annotations

import base64
import json
import os
import re
import tempfile
import time
import urllib.request
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tricklab import classwork as cw
from tricklab.classroom import LearnerDesk, TeacherDesk
from tricklab.store import Store

from .servers import KernelSocket, _unpack, free_port, open_app_page, serving, voila_command

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Path]]:
    """``tricklab serve`` with a class store this test also opens (as the teacher's side)."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "class.sqlite3"
        with serving(
            voila_command(port), f"http://127.0.0.1:{port}/", env={**os.environ, "TRICKLAB_CLASS_DB": str(store)}
        ) as s:
            yield s.url.rstrip("/"), store


def _scene(value: object) -> str:
    """A board's scene (its ``_packed`` state) as text, inflated if it came deflated (``z:``...)."""
    if isinstance(value, str) and value.startswith("z:"):
        return zlib.decompress(base64.b64decode(value[2:])).decode()
    return json.dumps(value) if not isinstance(value, str) else value


class Page:
    """A student's page spoken by hand: its kernel's websocket, the widgets' states, and every
    message the kernel sent it (as text, scenes inflated)."""

    def __init__(self, base: str, query: str) -> None:
        self.kernel_id, cookie = open_app_page(base, "class", query)
        self.socket = KernelSocket(base, self.kernel_id, cookie)
        self.heard: list[str] = []
        self.socket.request("kernel_info_request", {})
        self.control = "c" + str(time.monotonic_ns())
        self.socket.send(
            "shell",
            "comm_open",
            {"comm_id": self.control, "target_name": "jupyter.widget.control", "data": {}},
            {"version": "1.0.0"},  # the widget protocol's version, as a page's widget manager sends it
        )
        self.socket.send("shell", "comm_msg", {"comm_id": self.control, "data": {"method": "request_states"}})
        reply = self._until(lambda m: m["content"].get("comm_id") == self.control and "states" in m["content"]["data"])
        states = reply["content"]["data"]["states"]
        self.states: dict[str, Any] = states
        self.board = next(k for k, v in states.items() if "_packed" in v["state"] and "given" in v["state"])

    def _until(self, found: Any, timeout: float = 30) -> dict[str, Any]:
        message = self.listen(timeout, until=found)
        if message is None:
            raise TimeoutError("the kernel did not answer")
        return message

    def _hear(self, message: dict[str, Any]) -> None:
        data = message["content"].get("data", {})
        text = json.dumps(message["content"])
        for state in [data.get("state", {})] + [s.get("state", {}) for s in data.get("states", {}).values()]:
            if "_packed" in state:
                text += _scene(state["_packed"])
        self.heard.append(text)

    def listen(self, seconds: float, until: Any = None) -> dict[str, Any] | None:
        """Hear whatever the kernel sends for ``seconds`` (its poll redraws included), or until a
        message ``until(message)`` holds true: that message (``None``: none came)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.socket.ws.settimeout(max(0.05, end - time.monotonic()))
            try:
                _, message = _unpack(self.socket.ws.recv())
            except Exception:
                continue
            self._hear(message)
            if until is not None and until(message):
                return message
        return None

    def custom(self, content: dict[str, Any]) -> None:
        self.socket.send("shell", "comm_msg", {"comm_id": self.board, "data": {"method": "custom", "content": content}})

    def update(self, state: dict[str, Any]) -> None:
        data = {"method": "update", "state": state, "buffer_paths": []}
        self.socket.send("shell", "comm_msg", {"comm_id": self.board, "data": data})

    def everything(self) -> str:
        return (
            json.dumps(self.states)
            + "".join(_scene(v["state"].get("_packed")) for v in self.states.values())
            + "".join(self.heard)
        )

    def close(self) -> None:
        self.socket.close()


def test_a_student_speaking_the_kernel_protocol_by_hand_gets_nothing_that_is_not_theirs(
    served: tuple[str, Path],
) -> None:
    base, path = served
    store = Store.open(str(path))
    desk = TeacherDesk.start(store, "teacher")
    ana = LearnerDesk.join(store, desk.join_code, "Ana Secretname")
    mallory = LearnerDesk.join(store, desk.join_code, "Mallory")
    question = cw.which_wins("tricks-and-stones", "7H AH 8S KD", players=4, trump="S")
    sent = desk.send(question)
    ana.answer(question.right[0])
    winner = question.answer  # "Eight of Spades wins."
    page = Page(base, f"student={mallory.student.token}")
    try:
        scene = _scene(page.states[page.board]["state"]["_packed"])
        assert question.prompt in scene, "the student's page shows the question"

        # 1. what the page is given holds no answer, no other name, no secret, no seed
        page.listen(1.5)
        said = page.everything()
        reasons = [r.text for r in question.reasons]
        for secret in (winner, "Ana Secretname", desk.session.teacher_secret, ana.student.token, *reasons):
            assert secret not in said, f"{secret!r} reached a student's page"
        assert not re.search(r'"seed"\s*:', said), "no seed"
        assert not re.search(r'"right"\s*:\s*\[', said), "no list of the right answers"

        # 2. an answer that is not a choice, a read-only state, the teacher's buttons: refused
        page.custom({"intent": "answer", "value": "not-a-card"})
        page.custom({"intent": "answer", "value": "R15 <script>alert(1)</script>"})
        page.update({"given": "R15", "right": True, "question_number": 9, "name": "Ana Secretname"})
        for control in ("send", "reveal", "results", "start"):
            page.custom({"intent": "control", "name": control, "value": None})
        page.custom({"intent": "page", "value": "http://evil.example/x"})
        # 3. code: Voilà's kernels take no execute request from a page
        page.socket.send("shell", "execute_request", {"code": "import os; print(os.environ)", "silent": False})
        page.listen(2.0)
        assert desk.current() is not None and not desk.current()[0].revealed, "nothing revealed"  # type: ignore[index]
        assert store.counts(desk.session, sent.id) == {question.right[0]: 1}, "only Ana's answer is counted"
        assert store.students(desk.session) == ["Ana Secretname", "Mallory"]
        assert mallory.now().given is None and mallory.now().answer is None
        said = page.everything()
        assert "execute_reply" not in said and "TRICKLAB_CLASS_DB" not in said, "no code ran"
        for secret in (winner, "Ana Secretname", desk.session.teacher_secret):
            assert secret not in said, f"{secret!r} reached a student's page"

        # 4. a valid answer counts as Mallory's own, and the answer comes only with the reveal
        wrong = next(c.value for c in question.choices if c.value not in question.right)
        page.custom({"intent": "answer", "value": wrong})
        page.listen(1.5)
        assert store.counts(desk.session, sent.id) == {question.right[0]: 1, wrong: 1}
        assert winner not in page.everything()
        desk.reveal()
        page.listen(2.0)
        assert winner in page.everything(), "the reveal reaches the page"
        assert "Ana Secretname" not in page.everything()
    finally:
        page.close()
        store.close()


def test_a_wrong_teacher_link_shows_no_session(served: tuple[str, Path]) -> None:
    base, path = served
    store = Store.open(str(path))
    desk = TeacherDesk.start(store, "teacher")
    LearnerDesk.join(store, desk.join_code, "Ana Secretname")
    for query in ("teacher=" + desk.session.teacher_secret[:-1] + "x", "teacher=", "student=nope"):
        with urllib.request.urlopen(f"{base}/voila/render/class.ipynb?{query}", timeout=120) as response:
            html = response.read().decode()
        assert "Ana Secretname" not in html and desk.join_code not in html, query
    store.close()
