"""The boards' front end and stylesheet, sent once per page rather than with every board.

anywidget keeps a widget's script (``_esm``) and stylesheet (``_css``) as traits of each widget,
so every board used to carry its own copy of ``board.js`` and of the stylesheet: about 90 KB of
each board's state, saved again for every board in an executed notebook. Here one board of a
kernel, the *carrier*, holds the full module (``board.js`` with the minified stylesheet added),
deflated (:func:`carrier_module`: about 27 KB instead of 75); every other board holds a small
*waiting* module that renders with the carrier's module once the page has loaded it. The pieces
meet on ``globalThis`` under a key made from the module's digest, so two versions of tricklab in
one page never mix.

What keeps every board drawn:

* **The carrier is made first.** The first board a kernel makes carries the module. A host
  creates every widget model of a page (shown or not) when it loads the page, and anywidget
  loads a model's module as the model is created, so the carrier's module is there for the
  others (JupyterLab, Notebook 7, Voilà, a saved notebook's widget state).
* **A waiting board asks.** Where the carrier's model never reaches the page (a host that sends
  only the widgets shown, as marimo does, when the carrier is not one of them; a carrier whose
  output was cleared by hand), a waiting board asks its kernel for the module after a moment
  (:data:`ASK_AFTER_MS`) and imports the text it is sent. So does the carrier in a browser
  without ``DecompressionStream`` (before 2023), which cannot inflate what it holds.
* **A closed carrier hands over.** When the carrier is closed, another open board becomes the
  carrier (its ``_esm`` becomes the full module), so a notebook saved afterwards still holds the
  module once.
* **Colab** draws each output in a frame of its own: there every board carries the module.
* **The stylesheet once per page.** The module puts the sheet into the page's head (or the
  shadow root a host draws the view in) unless it is there, marked as the static pictures' sheet
  is (:data:`tricklab.display.stylesheet.MARK`), so pictures and boards share one copy. When a
  picture shown in the kernel's page carries the sheet already, the carrier's module goes
  without it: the board takes the picture's copy from the page's head, or asks its kernel for
  the sheet (:data:`ASK_SHEET`) when none is there after :data:`ASK_AFTER_MS`.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.resources
import json
import re
import sys
import weakref
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING

from ..display import stylesheet

if TYPE_CHECKING:
    from .board import Board


@cache
def script() -> str:
    """The boards' front end, ``static/board.js``: read through the package, which may be a folder
    or a zip on ``sys.path`` (the static site), when it is first asked for (a zip is then opened
    only while it is read)."""
    return (importlib.resources.files(__package__) / "static" / "board.js").read_text(encoding="utf-8")


#: how long a waiting board waits for the carrier's module before it asks its kernel for it
ASK_AFTER_MS = 1500
#: what a waiting board sends to ask for the module, and the key of the answer
ASK = "module"
#: what a board whose module came without the stylesheet sends to ask for it, and the answer's key
ASK_SHEET = "sheet"


@cache
def key() -> str:
    """The name the boards of one page share on ``globalThis``: the module's own digest."""
    digest = hashlib.sha256(script().encode("utf-8") + stylesheet.digest().encode()).hexdigest()[:16]
    return f"tricklab.board.{digest}"


def _slot() -> str:
    """A line of script that finds (or makes) the shared slot: a promise of the module."""
    return (
        f"const slot = (globalThis[{json.dumps(key())}] ??= (() => {{ let resolve; "
        "const ready = new Promise((r) => { resolve = r; }); return { ready, resolve }; })());\n"
    )


_BLOCK_COMMENT = re.compile(r"^[ \t]*/\*.*?\*/[ \t]*\n", re.S | re.M)


def without_comments(script: str) -> str:
    """``script`` without its comment blocks and comment lines (``/* ... */`` and ``// ...``
    starting a line), its indentation and its empty lines: a third smaller. Each line of code
    stays a line of its own, as written, so nothing is joined that must stay apart."""
    lines = (line.strip() for line in _BLOCK_COMMENT.sub("", script).splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("//")) + "\n"


@cache
def full_module(sheet: bool = True) -> str:
    """``board.js`` (without its comments) with the stylesheet, registering itself in the shared
    slot; without the sheet (``sheet=False``) for a page a picture has brought it to already."""
    given: dict[str, object] = {"digest": stylesheet.digest()}
    given.update({"css": stylesheet.minified()} if sheet else {"ask_after_ms": ASK_AFTER_MS})
    code = without_comments(script())
    return f"{code}SHEET = {json.dumps(given, ensure_ascii=False)};\n{_slot()}slot.resolve({{ render }});\n"


def _loader(packed: str | None) -> str:
    """A module that renders with the shared module once the page has it: from ``packed`` (the
    full module deflated, in base64) where the browser can inflate it, else from the carrier or,
    after :data:`ASK_AFTER_MS`, from the kernel, which sends the full module as text."""
    unpack = (
        "async function unpack(packed) {\n"
        "  if (typeof DecompressionStream !== 'function') return false;\n"
        "  const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));\n"
        "  const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));\n"
        "  const text = await new Response(inflated).text();\n"
        "  const url = URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));\n"
        "  try { await import(url); } finally { URL.revokeObjectURL(url); }\n"
        "  return true;\n"
        "}\n"
        f"const unpacked = unpack({json.dumps(packed)}).catch(() => false);\n"
    )
    waits = f"Promise.race([slot.ready, new Promise((r) => setTimeout(r, {ASK_AFTER_MS}))])"
    return (
        (
            "// tricklab board: the boards' module, deflated; it inflates itself where the browser can\n"
            if packed is not None
            else "// tricklab board: this board renders with the module another board of the page brought\n"
        )
        + _slot()
        + (unpack if packed is not None else "")
        + "async function render(ctx) {\n"
        + (
            "  let module = (await unpacked) ? await slot.ready : null;\n"
            if packed is not None
            else f"  let module = await {waits};\n"
        )
        + "  if (!module) {\n"
        + "    const onMessage = (content) => {\n"
        + f"      const text = content && typeof content === 'object' ? content[{json.dumps(ASK)}] : null;\n"
        + "      if (typeof text !== 'string') return;\n"
        + "      ctx.model.off('msg:custom', onMessage);\n"
        + "      const url = URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));\n"
        + "      import(url).finally(() => URL.revokeObjectURL(url));\n"
        + "    };\n"
        + "    ctx.model.on('msg:custom', onMessage);\n"
        + f"    try {{ ctx.model.send({{ intent: {json.dumps(ASK)} }}); }} catch {{ /* no kernel */ }}\n"
        + "    module = await slot.ready;\n"
        + "  }\n"
        + "  return module.render(ctx);\n"
        + "}\n"
        + "export default { render };\n"
    )


@cache
def waiting_module() -> str:
    """The module of every other board: it renders with the carrier's module once there is one,
    and asks the kernel for it when none has come after :data:`ASK_AFTER_MS`."""
    return _loader(None)


@cache
def carrier_module(sheet: bool = True) -> str:
    """The module the carrier holds: :func:`full_module` deflated (about a quarter of its size in
    a saved notebook and on the wire), inflated by the page where it has ``DecompressionStream``
    (every browser since 2023); elsewhere the board asks its kernel for the full module, as a
    waiting board does. ``sheet=False``: without the stylesheet, which a picture brought."""
    packed = base64.b64encode(zlib.compress(full_module(sheet).encode("utf-8"), 9)).decode("ascii")
    return _loader(packed)


def _carrier_for_now() -> str:
    """The carrier's module for a board made now: without the sheet when a picture shown in this
    kernel's page carries it (:func:`tricklab.display.stylesheet.page_has_sheet`), so that a
    saved notebook holds the sheet once."""
    return carrier_module(sheet=not stylesheet.page_has_sheet())


_live: weakref.WeakSet[Board] = weakref.WeakSet()
_carrier: weakref.ref[Board] | None = None


def _open(board: Board | None) -> bool:
    return board is not None and board.comm is not None


_unseen = 0  # how many ``unseen()`` blocks are open


@contextmanager
def unseen() -> Iterator[None]:
    """Boards made inside are never on a page of their own (a board drawn by the board hosting
    it): they hold the small module and are never the carrier."""
    global _unseen
    _unseen += 1
    try:
        yield
    finally:
        _unseen -= 1


def module_for_new_board() -> str:
    """The module a board made now starts with: the full one when no open board carries it, and
    always in Google Colab, which draws each output in a page (a frame) of its own."""
    if _unseen:
        return waiting_module()
    if "google.colab" in sys.modules:
        return carrier_module()
    return waiting_module() if _open(_carrier() if _carrier else None) else _carrier_for_now()


def made(board: Board) -> None:
    """Note a new board (after its module was chosen): the carrier when it holds the full module."""
    global _carrier
    if _unseen:
        return
    _live.add(board)
    if board._esm in (carrier_module(sheet=True), carrier_module(sheet=False)):
        _carrier = weakref.ref(board)


def closing(board: Board) -> None:
    """``board`` is being closed: if it carried the module, the next open board carries it."""
    global _carrier
    _live.discard(board)
    if _carrier is None or _carrier() is not board:
        return
    _carrier = None
    for other in list(_live):
        if _open(other):
            other.set_trait("_esm", _carrier_for_now())
            _carrier = weakref.ref(other)
            return
