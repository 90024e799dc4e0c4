"""The Board's Python side: intents reach the handlers, pings are answered and reach no one."""

from __future__ import annotations

from typing import Any

import pytest

from tricklab.widgets.board import Board


class Recorded:
    """A Board whose custom messages to the front end are kept, and the intents its handler saw."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.board = Board(scene={"html": "", "label": "test"})
        self.sent: list[Any] = []
        self.seen: list[tuple[str, str | None]] = []
        monkeypatch.setattr(self.board, "send", lambda content, buffers=None: self.sent.append(content))
        self.board.on_intent(lambda intent, value: self.seen.append((intent, value)))

    def receive(self, content: Any) -> None:
        """A custom message from the front end, through ipywidgets' own dispatch."""
        self.board._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


@pytest.fixture
def rec(monkeypatch: pytest.MonkeyPatch) -> Recorded:
    return Recorded(monkeypatch)


def test_intents_reach_the_handlers(rec: Recorded) -> None:
    rec.receive({"intent": "add", "value": "7H"})
    rec.receive({"intent": "key", "value": "ArrowRight"})
    rec.receive({"intent": "undo", "value": None})
    assert rec.seen == [("add", "7H"), ("key", "ArrowRight"), ("undo", None)]
    assert rec.sent == []


def test_a_ping_is_answered_with_its_number_and_reaches_no_handler(rec: Recorded) -> None:
    rec.receive({"intent": "ping", "value": "1"})
    rec.receive({"intent": "add", "value": "7H"})
    rec.receive({"intent": "ping", "value": "2"})
    assert rec.sent == [{"pong": "1"}, {"pong": "2"}]
    assert rec.seen == [("add", "7H")]
    rec.board.intent("ping", "3")  # as if the front end had sent it
    assert rec.sent[-1] == {"pong": "3"} and rec.seen == [("add", "7H")]


@pytest.mark.parametrize(
    "content",
    [
        {"intent": "ping"},
        {"intent": "ping", "value": None},
        {"intent": "ping", "value": ""},
        {"intent": "ping", "value": "²"},  # "²".isdigit() is true
        {"intent": "ping", "value": "١٢"},  # Arabic-Indic digits
        {"intent": "ping", "value": "1\n"},
        {"intent": "ping", "value": "9" * 13},
        {"intent": "ping", "value": "<img src=x onerror=alert(1)>"},
        {"intent": "ping", "value": "x" * 1_000_000},
        {"intent": "ping", "value": 7},
        {"intent": "ping", "value": ["1"]},
        {"intent": ["ping"], "value": "1"},
        {"pong": "1"},
        ["ping", "1"],
        "ping",
        None,
    ],
)
def test_a_malformed_ping_is_not_echoed_and_reaches_no_handler(rec: Recorded, content: Any) -> None:
    rec.receive(content)
    assert rec.sent == [] and rec.seen == []
