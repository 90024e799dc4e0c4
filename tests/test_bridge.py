"""The bridge that carries the widgets' comm to the static site's page (tricklab/bridge.py), in process:
what a page is sent when an app is made and shown, what it sends back, and what it may not send."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import comm
import pytest

from tricklab import bridge
from tricklab.errors import TricklabError
from tricklab.widgets.board import Board

from .servers import ROOT
from .test_board import _unpacked as read_packed


@pytest.fixture
def sent() -> Iterator[list[dict[str, Any]]]:
    """The messages posted to the page while the bridge is installed (the comm as it was, after)."""
    messages: list[dict[str, Any]] = []
    before = comm.create_comm, comm.get_comm_manager
    bridge.install(lambda text: messages.append(json.loads(text)))
    try:
        yield messages
    finally:
        comm.create_comm, comm.get_comm_manager = before
        bridge._post = None


def opened(messages: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The models the page was sent, each with its state as the later updates left it."""
    models = {m["comm_id"]: m for m in messages if m["kind"] == "open"}
    for m in messages:
        if m["kind"] == "msg" and m["data"].get("method") == "update":
            models[m["comm_id"]]["data"]["state"].update(m["data"]["state"])
    return models


def test_an_app_cell_is_sent_as_widget_models_and_its_view(sent: list[dict[str, Any]]) -> None:
    namespace: dict[str, Any] = {}
    cell = (
        "from tricklab.widgets.apps import explain_trick_app\nexplain_trick_app('game=tricks-and-stones&cards=7H%20AH')"
    )
    bridge.run_cell(cell, namespace)
    models = opened(sent)
    show = [m for m in sent if m["kind"] == "show"]
    assert len(show) == 1, "the cell's last value, shown once"
    view = show[0]["bundle"]["application/vnd.jupyter.widget-view+json"]
    app = models[view["model_id"]]
    assert app["target_name"] == "jupyter.widget" and app["data"]["state"]["_model_name"] == "VBoxModel"
    children = [child.removeprefix("IPY_MODEL_") for child in app["data"]["state"]["children"]]
    assert all(child in models for child in children), "each child is made before the box that holds it"
    boards = [models[c] for c in children if models[c]["data"]["state"]["_model_name"] == "AnyModel"]
    scenes = [read_packed(board["data"]["state"]["_packed"]) for board in boards]
    assert any("tl-trick" in scene.get("html", "") for scene in scenes), "the explainer's board, with the trick"
    assert "tricklab-app" in app["data"]["state"]["_dom_classes"]


def test_what_the_page_sends_reaches_the_board_and_its_answer_goes_back(sent: list[dict[str, Any]]) -> None:
    board = Board()
    heard: list[tuple[str, str | None]] = []
    board.on_intent(lambda intent, value: heard.append((intent, value)))
    message = {
        "kind": "msg",
        "comm_id": board.comm.comm_id,
        "data": {"method": "custom", "content": {"intent": "play", "value": "7H"}},
    }
    bridge.receive(json.dumps(message))
    assert heard == [("play", "7H")]
    ping = {**message, "data": {"method": "custom", "content": {"intent": "ping", "value": "3"}}}
    bridge.receive(json.dumps(ping))
    answers = [m for m in sent if m["kind"] == "msg" and m["comm_id"] == board.comm.comm_id]
    assert {"method": "custom", "content": {"pong": "3"}} in [m["data"] for m in answers], answers
    board.scene = {"html": "<p>new</p>"}
    updates = [m["data"] for m in sent if m["kind"] == "msg" and m["data"].get("method") == "update"]
    assert read_packed(updates[-1]["state"]["_packed"])["html"] == "<p>new</p>"
    board.close()
    assert sent[-1] == {"kind": "close", "comm_id": message["comm_id"], "data": {}}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not a widget message"),
        ('{"kind": "open", "comm_id": "x", "data": {}}', "not a widget message"),
        ('{"kind": "msg", "comm_id": 3, "data": {}}', "comm_id (text)"),
        ('{"kind": "msg", "comm_id": "x", "data": "update"}', "data (an object)"),
    ],
)
def test_what_is_not_a_widget_message_is_refused_by_name_and_changes_nothing(
    sent: list[dict[str, Any]], text: str, said: str
) -> None:
    board = Board()
    board.scene = {"html": "<p>kept</p>"}
    before = len(sent)
    with pytest.raises(bridge.BridgeError, match=re.escape(said)) as refused:
        bridge.receive(text)
    assert isinstance(refused.value, TricklabError)
    assert len(sent) == before and board.scene == {"html": "<p>kept</p>"}


def test_a_message_for_a_widget_closed_meanwhile_is_dropped(sent: list[dict[str, Any]]) -> None:
    bridge.receive(json.dumps({"kind": "msg", "comm_id": "gone", "data": {"method": "custom", "content": {}}}))
    assert sent == []


def test_markup_a_cell_shows_goes_as_html_and_none_shows_nothing(sent: list[dict[str, Any]]) -> None:
    class Picture:
        def _repr_html_(self) -> str:
            return "<svg></svg>"

    assert bridge.show(Picture()) and sent[-1] == {"kind": "show", "bundle": {"text/html": "<svg></svg>"}, "cell": None}
    assert not bridge.show(None) and not bridge.show(3)
    bridge.run_cell("x = 1\nx = x + 1", {})  # no expression last: nothing shown
    assert len(sent) == 1
    bridge.run_cell("Picture()", {"Picture": Picture}, cell=2)
    assert sent[-1]["cell"] == 2, "shown in the place of the cell that showed it"


def test_without_a_bridge_nothing_is_sent_and_it_says_why() -> None:
    with pytest.raises(bridge.BridgeError, match="not installed"):
        bridge.send({"kind": "show", "bundle": {}})


def test_the_widgets_and_the_apps_work_where_ipython_is_missing() -> None:
    """As in the site's worker: IPython cannot be imported, the stand-ins take its place, and the
    rulebooks' cell (which imports IPython.display.HTML) shows its markup."""
    script = r"""
import importlib.abc, json, sys
class NoIPython(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "IPython" or name.startswith("IPython."):
            raise ModuleNotFoundError(name)
        return None
sys.meta_path.insert(0, NoIPython())
for name in [m for m in sys.modules if m == "IPython" or m.startswith("IPython.")]:
    del sys.modules[name]
posted = []
from tricklab import bridge
bridge.install(posted.append)
bridge.run_cell("from tricklab.widgets.apps import replay_app\nreplay_app('game=kalah&seed=3')", {})
bridge.run_cell("from IPython.display import HTML\nHTML('<b>rules</b>')", {})
kinds = [json.loads(p)["kind"] for p in posted]
said = {"ipython": sys.modules["IPython"].__doc__, "kinds": sorted(set(kinds)), "last": json.loads(posted[-1])}
print(json.dumps(said))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["ipython"].startswith("Stands in for IPython")
    assert {"open", "show"} <= set(result["kinds"])
    assert result["last"] == {"kind": "show", "bundle": {"text/html": "<b>rules</b>"}, "cell": None}


def test_the_site_s_dataclasses_run_the_code_the_build_kept_and_compile_what_it_did_not(tmp_path: Any) -> None:
    """``tricklab/share/site/boot.py`` with what ``tricklab/_site_compile.py`` keeps: a source the
    build met runs the kept code (here, a marked one, to see that it is that code which runs);
    any other source is compiled as ever."""
    import dataclasses
    import importlib.util
    import marshal

    from tricklab import _site_compile

    spec = importlib.util.spec_from_file_location("site_boot", ROOT / "tricklab" / "share" / "site" / "boot.py")
    assert spec is not None and spec.loader is not None
    boot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(boot)
    try:
        kept = _site_compile.keep_dataclass_code()

        @dataclasses.dataclass
        class Seen:
            x: int

        assert Seen(3).x == 3 and kept, "the sources the dataclass compiled, kept"
        init = next(source for source in kept if "def __create_fn__" in source and "__init__" in source)
        marked = init.replace("self.x=x", "self.x=x; self.marked=True")
        assert marked != init
        path = tmp_path / "dataclasses.bin"
        path.write_bytes(marshal.dumps({init: compile(marked, "<string>", "exec")}))
        assert boot.use_dataclass_code(str(path)) == 1

        @dataclasses.dataclass
        class Again:
            x: int

        @dataclasses.dataclass
        class Other:
            y: str

        assert Again(4).x == 4 and getattr(Again(4), "marked", False) is True, "the kept code ran"
        assert Other("a").y == "a" and not hasattr(Other("a"), "marked"), "a source not kept: compiled"
    finally:
        vars(dataclasses).pop("exec", None)
