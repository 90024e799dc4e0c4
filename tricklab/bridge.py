"""Jupyter widgets without a kernel: their comm carried over one message channel to the page.

The static site runs each app's Python in Pyodide, in a Web Worker of the app's page, with no
Jupyter kernel, IPython or notebook front end (``tricklab/share/site/``). The widgets are the same
ones (ipywidgets containers, anywidget boards): only their *comm*, the channel each widget's
traits and messages travel by, is this module's :class:`PageComm`, which hands every message to
one function, ``post``: in the worker, the worker's ``postMessage`` to the page. The page's small
widget manager (``app.js``) draws the widgets from those messages and sends back what the learner
does, which :func:`receive` hands to the widget it is for, as the kernel's comm manager does.

The messages are JSON text, one object each:

* Python to the page: ``{"kind": "open", "comm_id", "target_name", "data", "metadata"}`` (a widget
  is made: ``data`` holds its state), ``{"kind": "msg", "comm_id", "data"}`` (a state update or a
  custom message), ``{"kind": "close", "comm_id"}``, ``{"kind": "show", "bundle", "cell"}`` (what
  an app's cell shows: a widget's view, or HTML; ``cell``, its place in the notebook).
* The page to Python: ``{"kind": "msg", "comm_id", "data"}`` (``data["method"]``: ``"update"``
  with ``state``, ``"custom"`` with ``content``, or ``"request_state"``).

ipywidgets imports a few names from IPython at import time, and the site has no IPython:
:func:`install` puts small stand-ins for those names in ``sys.modules`` first (only when IPython
is not importable). Nothing here imports Jupyter itself: :func:`install` is called before the
widgets are imported, so this module is outside :mod:`tricklab.widgets` (whose import brings
ipywidgets); the engine never imports it.
"""

from __future__ import annotations

import gc
import importlib
import importlib.metadata
import json
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any

import comm
from comm.base_comm import BaseComm, BuffersType, CommManager, MaybeDict

from .errors import TricklabError

#: where messages to the page go (set by :func:`install`)
_post: Callable[[str], None] | None = None
#: the notebook cell that runs (or ran last): what it shows goes there on the page
_cell: int | None = None


class BridgeError(TricklabError):
    """The page sent something that is not a message of the bridge (it is ignored, and said why)."""


class PageComm(BaseComm):
    """A widget's comm whose messages go to the page through :func:`install`'s ``post``."""

    def publish_msg(
        self,
        msg_type: str,
        data: MaybeDict = None,
        metadata: MaybeDict = None,
        buffers: BuffersType = None,
        **keys: Any,
    ) -> None:
        kind = {"comm_open": "open", "comm_msg": "msg", "comm_close": "close"}[msg_type]
        message: dict[str, object] = {"kind": kind, "comm_id": self.comm_id, "data": data or {}}
        if kind == "open":
            message["target_name"] = keys.get("target_name", self.target_name)
            message["metadata"] = metadata or {}
        send(message)


def send(message: Mapping[str, object]) -> None:
    """Post ``message`` (JSON) to the page."""
    if _post is None:
        raise BridgeError("the bridge to the page is not installed (tricklab.bridge.install)")
    _post(json.dumps(message, separators=(",", ":"), ensure_ascii=False))


def _create_comm(*args: Any, **kwargs: Any) -> BaseComm:
    return PageComm(*args, **kwargs)


_manager = CommManager()


def _get_comm_manager() -> CommManager:
    return _manager


def install(post: Callable[[str], None]) -> None:
    """Carry every widget comm made from now on to ``post`` (a function taking JSON text), and
    put the IPython stand-ins in place where IPython is missing (before ipywidgets is imported)."""
    global _post
    _post = post
    comm.create_comm = _create_comm
    comm.get_comm_manager = _get_comm_manager
    _ipython_or_stand_ins()


def _ipython_or_stand_ins() -> None:
    """IPython where it is installed, else the stand-ins for what ipywidgets imports from it."""
    if "IPython" not in sys.modules:
        try:
            importlib.import_module("IPython")
        except ImportError:
            _stand_in_for_ipython()


#: tricklab's modules no page runs: the command line, the servers, the class store and the site's build
SERVER_SIDE = (
    "tricklab.__main__",
    "tricklab._site_",
    "tricklab.serve",
    "tricklab.site",
    "tricklab.store",
    # the class app keeps its sessions in the class store: it runs on a server only
    "tricklab.classroom",
    "tricklab.classservice",
    "tricklab.display.classroom",
    "tricklab.widgets.classapp",
    # a table of classmates is a log in the class store: on a server only
    "tricklab.tables",
    "tricklab.display.tables",
    "tricklab.widgets.sharedtable",
)


def prepare() -> list[str]:
    """Import every module of tricklab a page may run, and the widgets with them, as a prepared
    interpreter holds them (a page keeps such an interpreter to start from the next time);
    returns their names. Nothing from the page is touched: a prepared interpreter holds no
    reference to it."""
    import pkgutil

    import tricklab

    _ipython_or_stand_ins()
    names = []
    for module in pkgutil.walk_packages(tricklab.__path__, "tricklab."):
        if not module.name.startswith(SERVER_SIDE):
            importlib.import_module(module.name)
            names.append(module.name)
    # a zip opened now (to read a package's metadata) would be a closed file in an interpreter
    # restored from this one: nothing keeps one open
    new = getattr(getattr(importlib.metadata, "FastPath", None), "__new__", None)
    forget = getattr(new, "cache_clear", None)
    if callable(forget):
        forget()
    gc.collect()
    return names


def receive(text: str) -> None:
    """Hand a message from the page (JSON text) to the widget it is for; a message that is not
    one of the bridge's raises :class:`BridgeError` and changes nothing."""
    try:
        message = json.loads(text)
    except ValueError as exc:
        raise BridgeError(f"a message from the page is not JSON: {exc}") from None
    if not isinstance(message, dict) or message.get("kind") != "msg":
        raise BridgeError("a message from the page is not a widget message ({'kind': 'msg', ...})")
    comm_id, data = message.get("comm_id"), message.get("data")
    if not isinstance(comm_id, str) or not isinstance(data, dict):
        raise BridgeError("a widget message from the page needs a comm_id (text) and data (an object)")
    target = _manager.get_comm(comm_id)
    if target is None:
        return  # a widget closed meanwhile: what the page said about it is too late, as in a kernel
    target.handle_msg({"content": {"comm_id": comm_id, "data": data}, "buffers": [], "metadata": {}})


def show(value: object) -> bool:
    """Show what an app's cell gives (a widget, or anything with ``_repr_html_``) on the page;
    returns whether there was something to show."""
    if value is None:
        return False
    bundle: dict[str, object] = {}
    mimebundle = getattr(value, "_repr_mimebundle_", None)
    if callable(mimebundle):
        made = mimebundle()
        given = made[0] if isinstance(made, tuple) else made
        if isinstance(given, dict):
            bundle.update(given)
    html = getattr(value, "_repr_html_", None)
    if "text/html" not in bundle and callable(html):
        bundle["text/html"] = html()
    wanted = ("application/vnd.jupyter.widget-view+json", "text/html")
    bundle = {mime: data for mime, data in bundle.items() if mime in wanted and data is not None}
    if not bundle:
        return False
    send({"kind": "show", "bundle": bundle, "cell": _cell})
    return True


class _HTML:
    """What ``IPython.display.HTML`` is to a cell that shows markup."""

    def __init__(self, data: str = "") -> None:
        self.data = data

    def _repr_html_(self) -> str:
        return self.data


def _display(*values: object, **_options: object) -> None:
    for value in values:
        show(value)


def _stand_in_for_ipython() -> None:
    """Modules named as IPython's that hold what ipywidgets (and an app cell) import from it:
    ``get_ipython`` (no shell: None), ``display``, ``clear_output``, ``HTML`` and
    ``InteractiveShell`` (a class no one makes)."""
    root = types.ModuleType("IPython", "Stands in for IPython where the widgets run without it.")
    display = types.ModuleType("IPython.display")
    core = types.ModuleType("IPython.core")
    shell = types.ModuleType("IPython.core.interactiveshell")
    vars(root).update(get_ipython=lambda: None, display=display, core=core)
    vars(display).update(display=_display, clear_output=lambda wait=False: None, HTML=_HTML)
    vars(core).update(interactiveshell=shell)
    vars(shell).update(InteractiveShell=type("InteractiveShell", (), {}))
    for module in (root, display, core, shell):
        sys.modules[module.__name__] = module


def run_cell(code: str, namespace: dict[str, Any], cell: int | None = None) -> None:
    """Run an app's cell as a notebook does: its statements, then its last expression's value
    shown (:func:`show`). ``cell``: the cell's place in the notebook, where the page shows what
    it (and whatever it shows later) displays."""
    import ast

    global _cell
    _cell = cell
    tree = ast.parse(code, "<app>", "exec")
    last: ast.expr | None = None
    final = tree.body[-1] if tree.body else None
    if isinstance(final, ast.Expr):
        tree.body.pop()
        last = final.value
    exec(compile(tree, "<app>", "exec"), namespace)
    if last is not None:
        show(eval(compile(ast.Expression(last), "<app>", "eval"), namespace))


__all__ = ["BridgeError", "PageComm", "install", "prepare", "receive", "run_cell", "send", "show"]
