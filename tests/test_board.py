"""The Board's Python side: intents reach the handlers, pings are answered and reach no one, and
the page watches the connection only on an app's own page (Voilà, the static site)."""

from __future__ import annotations

from typing import Any

import pytest

from tricklab import platform
from tricklab.display import with_defs
from tricklab.errors import InvalidOption
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


# --- where the page itself tells that Python stopped answering ---------------------------------


@pytest.fixture
def notebook_host(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """A kernel as a notebook host starts it: none of Voilà's marks, Python not in the browser."""
    for mark in platform.VOILA_MARKS:
        monkeypatch.delenv(mark, raising=False)
    monkeypatch.setattr(platform, "IN_BROWSER", False)
    return monkeypatch


def test_in_a_notebook_host_the_board_leaves_the_connection_to_the_host(notebook_host: pytest.MonkeyPatch) -> None:
    board = Board(scene={"html": "", "label": "test"})
    assert not platform.on_app_page()
    assert board.watch_connection is False
    assert board.get_state()["watch_connection"] is False  # what the front end is told


@pytest.mark.parametrize(
    "where",
    [
        {"VOILA_PREHEAT": "False", "VOILA_BASE_URL": "/"},  # a kernel Voilà starts for a request
        {"VOILA_PREHEAT": "True", "VOILA_BASE_URL": "/"},  # one of Voilà's pooled kernels
        {"VOILA_BASE_URL": "/voila/"},
        {"VOILA_PREHEAT": "False"},
    ],
)
def test_on_a_voila_page_the_board_watches_the_connection(
    notebook_host: pytest.MonkeyPatch, where: dict[str, str]
) -> None:
    for name, value in where.items():
        notebook_host.setenv(name, value)
    board = Board(scene={"html": "", "label": "test"})
    assert board.watch_connection is True and board.get_state()["watch_connection"] is True


def test_in_the_static_site_the_board_watches_the_connection(notebook_host: pytest.MonkeyPatch) -> None:
    notebook_host.setattr(platform, "IN_BROWSER", True)  # Python in the visitor's browser
    assert Board(scene={"html": "", "label": "test"}).get_state()["watch_connection"] is True


def test_where_a_board_was_made_stays_its_setting_and_no_keyword_changes_it(
    notebook_host: pytest.MonkeyPatch,
) -> None:
    board = Board(scene={"html": "", "label": "test"})
    notebook_host.setenv("VOILA_PREHEAT", "True")
    assert board.watch_connection is False  # read once, when the board was made
    assert Board().watch_connection is True
    with pytest.raises(InvalidOption, match="watch_connection"):
        Board(scene={}, watch_connection=True)


# --- the scene as the page gets it --------------------------------------------------------------


def _unpacked(text: str) -> Any:
    import base64
    import json
    import zlib

    from tricklab.widgets.board import PACKED

    if text.startswith(PACKED):
        text = zlib.decompress(base64.b64decode(text[len(PACKED) :])).decode("utf-8")
    return json.loads(text)


def test_a_long_scene_goes_to_the_page_deflated_and_a_short_one_as_it_is() -> None:
    from tricklab.widgets import TrickExplainer

    explainer = TrickExplainer()
    packed = explainer.get_state("_packed")["_packed"]
    assert packed.startswith("z:") and len(packed) * 4 < len(explainer.scene["html"]), "about tenfold smaller"
    assert _unpacked(packed) == {**explainer.scene, "html": with_defs(explainer.scene["html"])}
    assert "<use " in explainer.scene["html"] and '<svg class="tl-defs"' in _unpacked(packed)["html"], (
        "the page gets the parts the cards share with the scene"
    )
    short = Board(scene={"html": "<p>♠ A</p>", "label": "short"})
    assert short._packed == '{"html":"<p>♠ A</p>","label":"short"}'
    assert "scene" not in short.get_state(), "the page gets the scene only packed"
    explainer.control("cards", "7H 8S QD 9C")
    assert _unpacked(explainer._packed)["label"] == explainer.scene["label"]
    assert "Queen of Diamonds" in _unpacked(explainer._packed)["html"]


def test_the_boards_of_a_kernel_share_one_layout_and_a_hosted_board_has_its_own() -> None:
    from tricklab.widgets import Quiz, TrickExplainer
    from tricklab.widgets.board import for_hosting

    first, second = TrickExplainer(), Quiz()
    assert first.layout is second.layout and first.layout.comm is not None
    with for_hosting():
        hosted = Board(scene={"html": "", "label": "hosted"})
    assert hosted.layout is not first.layout, "a layout whose comm talks to nobody is never shared"
    first.layout.close()
    third = Board(scene={"html": "", "label": "after"})
    assert third.layout is not first.layout and third.layout.comm is not None, "a closed layout is not reused"


def test_a_page_that_cannot_inflate_is_sent_plain_scenes_and_no_handler_sees_it(rec: Recorded) -> None:
    from tricklab.widgets.board import PLAIN

    long_scene = {"html": "<span>card</span>" * 200, "label": "long"}
    rec.board.scene = long_scene
    assert rec.board._packed.startswith("z:")
    rec.receive({"intent": PLAIN, "value": None})
    assert rec.board._packed.startswith("{") and _unpacked(rec.board._packed) == long_scene
    rec.board.scene = {**long_scene, "label": "next"}
    assert _unpacked(rec.board._packed)["label"] == "next" and rec.board._packed.startswith("{"), "from then on"
    assert rec.seen == [] and rec.sent == []
