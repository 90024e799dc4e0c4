"""The boards' module and stylesheet go with one board of a kernel (tricklab.widgets.frontend)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tricklab.display import stylesheet
from tricklab.widgets import Board, TrickExplainer, frontend
from tricklab.widgets.frontend import carrier_module, full_module, waiting_module

pytestmark = pytest.mark.engine


@pytest.fixture(autouse=True)
def no_carrier(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts as a fresh kernel does: no board made yet."""
    monkeypatch.setattr(frontend, "_carrier", None)
    monkeypatch.setattr(frontend, "_live", frontend.weakref.WeakSet())
    monkeypatch.setattr(frontend, "_unseen", 0)


def sent(board: Board) -> list[Any]:
    messages: list[Any] = []
    board.send = messages.append  # type: ignore[method-assign]
    return messages


def test_the_first_board_carries_the_module_and_the_others_wait_for_it() -> None:
    first, second, third = Board(), TrickExplainer(), Board()
    assert first._esm == carrier_module()
    assert second._esm == third._esm == waiting_module()
    assert len(waiting_module()) < 2_000 < 40_000 < len(full_module())
    assert len(carrier_module()) < len(full_module()) // 2, "the carrier holds the module deflated"
    # no board carries anywidget's per-board stylesheet: the sheet is in the module, once
    assert not any(board.has_trait("_css") for board in (first, second, third))
    assert json.dumps(stylesheet.minified(), ensure_ascii=False) in full_module()
    assert f'"digest": "{stylesheet.digest()}"' in full_module()
    # both modules meet under the same key, made from the module's digest
    assert frontend.key() in waiting_module() and frontend.key() in full_module()


def test_the_carriers_module_inflates_to_the_full_module() -> None:
    import base64
    import re
    import zlib

    found = re.search(r'unpack\("([A-Za-z0-9+/=]+)"\)', carrier_module())
    assert found, "the carrier's module holds the full module in base64"
    assert zlib.decompress(base64.b64decode(found.group(1))).decode("utf-8") == full_module()
    assert frontend.key() in carrier_module(), "and registers in the same slot as the waiting boards"


def test_a_waiting_board_that_asks_is_sent_the_module_and_no_handler_sees_the_ask() -> None:
    Board()
    waiting = Board()
    seen: list[tuple[str, str | None]] = []
    waiting.on_intent(lambda intent, value: seen.append((intent, value)))
    messages = sent(waiting)
    waiting.intent(frontend.ASK)
    assert messages == [{frontend.ASK: full_module()}]
    assert seen == []


def test_a_closed_carrier_hands_the_module_to_an_open_board() -> None:
    carrier, waiting = Board(), Board()
    carrier.close()
    assert waiting._esm == carrier_module()
    # and the next board made waits for the new carrier
    assert Board()._esm == waiting_module()
    # a closed waiting board changes nothing
    later = Board()
    later.close()
    assert waiting._esm == carrier_module()


def test_with_every_board_closed_the_next_one_carries_the_module() -> None:
    for board in (Board(), Board()):
        board.close()
    assert Board()._esm == carrier_module()


def test_in_colab_every_board_carries_the_module(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    Board()
    monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    assert Board()._esm == carrier_module()


def test_a_board_made_to_be_hosted_never_carries_the_module() -> None:
    from tricklab.widgets.board import for_hosting

    with for_hosting():
        hosted = Board()
    assert hosted._esm == waiting_module()
    shown = Board()
    assert shown._esm == carrier_module()
    with for_hosting():
        Board().close()
    assert shown._esm == carrier_module()


def _code_lines(script: str) -> list[str]:
    """The lines of ``script`` that hold code, stripped, read line by line: those outside
    comment blocks, neither empty nor a line comment."""
    code, in_block = [], False
    for line in script.splitlines():
        text = line.strip()
        if in_block:
            in_block = not text.endswith("*/")
            continue
        if text.startswith("/*"):
            in_block = not text.endswith("*/")
            continue
        if text and not text.startswith("//"):
            code.append(text)
    return code


def test_the_module_is_board_js_without_its_comments_and_every_line_of_code_kept() -> None:
    source = frontend.script()
    module = full_module()
    assert module.startswith("\n".join(_code_lines(source)) + "\n"), "every line of code, in order, nothing else"
    assert len(module) < len(source) + len(stylesheet.minified()), "the comments are left out"
    assert "// tricklab board" not in module and "/**" not in module


def test_the_module_is_valid_javascript(tmp_path: Any) -> None:
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: the module is checked by the browser tests that load it")
    path = tmp_path / "board.mjs"
    path.write_text(full_module(), encoding="utf-8")
    checked = subprocess.run([node, "--check", str(path)], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr


def test_after_a_picture_carried_the_sheet_the_carrier_goes_without_it_and_is_sent_it_on_asking(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import base64
    import re
    import zlib

    monkeypatch.setattr(stylesheet, "page_has_sheet", lambda: True)
    carrier = Board()
    assert carrier._esm == carrier_module(sheet=False) != carrier_module(sheet=True)
    packed = re.search(r'unpack\("([A-Za-z0-9+/=]+)"\)', carrier._esm)
    assert packed
    module = zlib.decompress(base64.b64decode(packed.group(1))).decode("utf-8")
    assert json.dumps(stylesheet.minified(), ensure_ascii=False) not in module
    assert f'"digest": "{stylesheet.digest()}"' in module
    assert Board()._esm == waiting_module(), "it is the carrier all the same"
    messages = sent(carrier)
    carrier.intent(frontend.ASK_SHEET)
    assert messages == [{frontend.ASK_SHEET: stylesheet.minified()}]
    carrier.intent(frontend.ASK)
    assert messages[-1] == {frontend.ASK: full_module()}
    assert json.dumps(stylesheet.minified(), ensure_ascii=False) in full_module(), "asked for, it comes whole"
