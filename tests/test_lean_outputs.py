"""Executed notebooks stay lean: the stylesheet goes with the first picture of a kernel, once,
and again whenever the output that carried it is replaced (tricklab.display.stylesheet).

The tutorials are run as ``jupyter nbconvert --to notebook --execute`` runs them, each once for
the whole module; a real kernel is driven cell by cell the way JupyterLab drives it (cell ids,
deleted cells) for the re-runs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tricklab.display.stylesheet import MARK

from .servers import ROOT

pytestmark = pytest.mark.notebook

TUTORIALS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SHEET = f"<script {MARK}="
#: what an executed tutorial may weigh (issue 27, part 5)
LIMIT = 100_000


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every tutorial run top to bottom by nbconvert and written as nbconvert writes it."""
    import nbformat
    from nbconvert.preprocessors import ExecutePreprocessor

    out = tmp_path_factory.mktemp("executed")
    done = {}
    for path in TUTORIALS:
        notebook = nbformat.read(path, as_version=4)
        ExecutePreprocessor(timeout=300, kernel_name="python3").preprocess(notebook, {"metadata": {"path": str(ROOT)}})
        target = out / path.name
        nbformat.write(notebook, target)
        done[path.name] = target
    return done


def _html_outputs(path: Path) -> list[str]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", ()):
            html = output.get("data", {}).get("text/html")
            if html is not None:
                found.append(html if isinstance(html, str) else "".join(html))
    return found


@pytest.mark.parametrize("name", [p.name for p in TUTORIALS])
def test_an_executed_tutorial_carries_the_stylesheet_once(executed: dict[str, Path], name: str) -> None:
    outputs = _html_outputs(executed[name])
    # a picture, or a rulebook's table (which the sheet styles too)
    pictures = [html for html in outputs if 'class="tricklab' in html or 'class="tl-rulebook"' in html]
    assert pictures, f"{name} shows no picture"
    assert pictures[0].startswith(SHEET), "the first picture carries the stylesheet"
    assert "<style" not in "".join(pictures), "no picture or table carries a style of its own"
    assert sum(html.count(SHEET) for html in outputs) == 1, "and no other output does"
    svgs = [tag for html in pictures for tag in re.findall(r"<svg[^>]*>", html)]
    assert all(" width=" in tag and " height=" in tag for tag in svgs), "every SVG carries its size"


def _widget_state(path: Path) -> int:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return len(json.dumps(notebook["metadata"].get("widgets", {}), ensure_ascii=False).encode())


@pytest.mark.parametrize("name", [p.name for p in TUTORIALS])
def test_an_executed_tutorial_saves_the_boards_module_once(executed: dict[str, Path], name: str) -> None:
    notebook = json.loads(executed[name].read_text(encoding="utf-8"))
    state = notebook["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    boards = [model["state"] for model in state.values() if "_esm" in model["state"]]
    assert boards, f"{name} shows no board"
    carriers = [board for board in boards if "const unpacked = unpack(" in board["_esm"]]
    assert len(carriers) == 1, f"{len(carriers)} of {len(boards)} boards carry the module"
    assert all(len(board["_esm"]) < 2_000 for board in boards if board not in carriers)
    assert not any("_css" in board for board in boards), "the stylesheet goes with the module, not per board"


@pytest.mark.parametrize("name", [p.name for p in TUTORIALS])
def test_an_executed_tutorial_saves_the_stylesheet_once(executed: dict[str, Path], name: str) -> None:
    """With its first picture, or in the boards' module where no picture came before."""
    import base64
    import zlib

    from tricklab.display.stylesheet import minified

    notebook = json.loads(executed[name].read_text(encoding="utf-8"))
    state = notebook["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    modules = []
    for model in state.values():
        packed = re.search(r'unpack\("([A-Za-z0-9+/=]+)"\)', model["state"].get("_esm", ""))
        if packed:
            modules.append(zlib.decompress(base64.b64decode(packed.group(1))).decode("utf-8"))
    in_modules = sum(json.dumps(minified(), ensure_ascii=False) in module for module in modules)
    in_outputs = sum(html.count(SHEET) for html in _html_outputs(executed[name]))
    assert (in_outputs, in_modules) in ((1, 0), (0, 1)), (in_outputs, in_modules)


@pytest.mark.parametrize("name", [p.name for p in TUTORIALS])
def test_an_executed_tutorial_stays_under_100_kb(executed: dict[str, Path], name: str) -> None:
    size = executed[name].stat().st_size
    assert size < LIMIT, f"{name}: {size:,} bytes, {_widget_state(executed[name]):,} of them the widget state"


# --- a kernel driven as JupyterLab drives it --------------------------------------------------------


@pytest.fixture(scope="module")
def kernel() -> Iterator[Any]:
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3", cwd=str(ROOT))
    try:
        yield client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def _run(client: Any, cell_id: str, code: str, deleted: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Run ``code`` as JupyterLab runs cell ``cell_id`` (its id and the cells deleted since in the
    request's metadata); the (message type, HTML) of each display it sends, in order."""
    content = {
        "code": code,
        "silent": False,
        "store_history": True,
        "user_expressions": {},
        "allow_stdin": False,
        "stop_on_error": True,
    }
    metadata = {"cellId": cell_id, "deletedCells": list(deleted)}
    request = client.session.msg("execute_request", content, metadata=metadata)
    client.shell_channel.send(request)
    sent = []
    while True:
        msg = client.get_iopub_msg(timeout=60)
        if msg["parent_header"].get("msg_id") != request["header"]["msg_id"]:
            continue
        kind = msg["msg_type"]
        if kind == "error":
            raise AssertionError("\n".join(msg["content"]["traceback"]))
        if kind in ("display_data", "execute_result", "update_display_data"):
            sent.append((kind, msg["content"]["data"].get("text/html", "")))
        if kind == "status" and msg["content"]["execution_state"] == "idle":
            return sent


def _carries(sent: list[tuple[str, str]]) -> list[bool]:
    return [SHEET in html for _, html in sent]


def test_a_kernel_sends_the_sheet_again_when_its_carrier_is_replaced(kernel: Any) -> None:
    setup = (
        "import tricklab\nfrom IPython.display import clear_output, display\n"
        "ts = tricklab.get_rules('tricks-and-stones', players=4)"
    )
    assert _run(kernel, "setup", setup) == []
    loop = "for name in ('7H', '8S', 'QD'):\n    clear_output(wait=True)\n    display(ts.card(name))"
    assert _carries(_run(kernel, "loop", loop)) == [True, True, True], "each frame replaces the one before"
    assert _carries(_run(kernel, "b", "ts.card('AS')")) == [False]
    assert _carries(_run(kernel, "c", "display(ts.card('AS')); ts.card('KS')")) == [False, False]
    assert _carries(_run(kernel, "loop", loop)) == [True, True, True], "the carrier run again"
    assert _carries(_run(kernel, "d", "ts.card('AS')")) == [False]
    assert _carries(_run(kernel, "e", "ts.card('AS')", deleted=("loop",))) == [True], "the carrier deleted"
    shown = _run(kernel, "f", "handle = display(ts.card('9C'), display_id=True)", deleted=("e",))
    assert _carries(shown) == [True]
    updated = _run(kernel, "g", "handle.update(ts.card('10C'))")
    assert updated[0][0] == "update_display_data" and _carries(updated) == [True], "its display updated"
    assert "Ten of Clubs" in updated[0][1]
    assert _carries(_run(kernel, "h", "ts.card('AS')")) == [False]
    plain = _run(kernel, "i", "handle.update(3)")
    assert _carries(plain) == [False]
    assert _carries(_run(kernel, "j", "ts.card('AS')")) == [True], "the carrier's display holds no picture now"
