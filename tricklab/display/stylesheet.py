"""The stylesheet of the static pictures, sent once to a page instead of with every picture.

A picture (``Card``, ``Cards``, ``TrickOutcome``, ``Match``) is HTML with ``tl-*`` classes; the
classes mean something only with ``static/tricklab.css``. Sending that sheet with every
picture made a notebook of a few cards hundreds of kilobytes, so a kernel sends it once: with
its first picture, deflated in a ``<script data-tricklab-css="...">`` that puts it into the page's
head as a ``<style>`` element (:func:`style_tag`; 11 KB instead of 41). A notebook's outputs share
one page (JupyterLab, Voilà, an exported or rendered notebook), so that one element styles
every picture on it, those of later cells too, and the boards.

Why this way, and what keeps it right:

* **Once per kernel, not once per page load.** The kernel cannot see the page; it can see
  its own history. A new Voilà page is a new kernel, so it gets the sheet with its first
  picture; so does a notebook whose kernel was restarted. A notebook saved and viewed later
  (nbviewer, an HTML export) holds the first picture of the run, with the sheet, above the
  others.
* **The cell that carries it may be run again.** Its old outputs are about to be replaced, so
  when a cell starts (IPython's ``pre_run_cell``) and it is the carrier (the same cell id, as
  JupyterLab and Notebook 7 send it; without ids, the same source), the sheet goes with the
  next picture again, of that cell or a later one. The same holds when the front end says the
  carrier cell was deleted (JupyterLab's ``deletedCells``) and when the carrier's own run
  clears its output (``clear_output``, as a loop that redraws a match does).
* **Idempotent, and kept by the page.** The sheet goes into the page's head unless a copy
  with its digest is there (two runs in one page, the boards' own copy): the page keeps it
  when the carrier output is cleared by hand, or taken out of the page by a notebook that
  draws only the cells in view.
* **Where the sheet is missing anyway** (a viewer that runs no output's script: an untrusted
  notebook, GitHub-like renderers and sanitizers, which drop ``<style>`` as well; a browser
  without ``DecompressionStream``), every SVG carries its own size and colours as presentation
  attributes (which the sheet overrides where it is present), so a card is still a card of a
  card's size with its rank and suit.

Outside a kernel (a script, a test) every picture is a standalone page and carries the sheet;
in a kernel, ``wrap(..., standalone=True)`` makes one for a file. Every picture in Google Colab
carries it too: Colab shows each output in a frame of its own.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.resources
import re
import sys
import zlib
from dataclasses import dataclass, field
from functools import cache
from typing import Any

#: the attribute of the ``<style>`` element that carries the sheet; its value is the sheet's digest
MARK = "data-tricklab-css"


@cache
def css() -> str:
    """The stylesheet shared by static pictures and the widgets."""
    # read through the package, which may be a folder or a zip on ``sys.path`` (the static site),
    # when first asked for: a zip is then opened only while it is read
    return (importlib.resources.files(__package__) / "static" / "tricklab.css").read_text(encoding="utf-8")


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')
_COMMENT = re.compile(r"/\*.*?\*/", re.S)


@cache
def minified() -> str:
    """:func:`css` without comments and with its white space collapsed (strings kept as written):
    what a picture carries. The widgets read the file itself."""
    text = css()
    strings: list[str] = []

    def keep(match: re.Match[str]) -> str:
        strings.append(match.group(0))
        return f"\x00{len(strings) - 1}\x00"

    text = _STRING.sub(keep, _COMMENT.sub("", text))
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r" ?([{};,>]) ?", r"\1", text).replace(": ", ":").replace(";}", "}")
    return re.sub(r"\x00(\d+)\x00", lambda m: strings[int(m.group(1))], text).strip()


@cache
def digest() -> str:
    return hashlib.sha256(css().encode("utf-8")).hexdigest()[:12]


@cache
def style_tag() -> str:
    """The sheet as a picture carries it: one ``<script>`` marked with :data:`MARK` that holds the
    sheet deflated (zlib, in base64: a fifth of its size) and puts it into the page's head once,
    as a ``<style>`` element marked the same way, unless one is there (the boards' front end
    marks its copy alike). Every page that honours an output's ``<style>`` runs its scripts too
    (JupyterLab and Notebook 7 with a trusted notebook, Voilà, VS Code, Colab, nbviewer, an HTML
    export, a documentation page); those that run neither (an untrusted notebook, GitHub) and a
    browser without ``DecompressionStream`` show the SVGs' own sizes and colours."""
    packed = base64.b64encode(zlib.compress(minified().encode("utf-8"), 9)).decode("ascii")
    mark = f'{MARK}="{digest()}"'
    return (
        f"<script {mark}>(function(){{var m='style[{mark}]';"
        "if(document.head.querySelector(m)||typeof DecompressionStream!=='function')return;"
        f"var b=Uint8Array.from(atob('{packed}'),function(c){{return c.charCodeAt(0)}});"
        "new Response(new Blob([b]).stream().pipeThrough(new DecompressionStream('deflate'))).text()"
        ".then(function(css){if(document.head.querySelector(m))return;"
        f"var s=document.createElement('style');s.setAttribute('{MARK}','{digest()}');"
        "s.textContent=css;document.head.appendChild(s)})})()</script>"
    )


@dataclass
class Sender:
    """Whether the next picture carries the sheet, from what a kernel has run (no Jupyter in here).

    A run is one cell's execution: ``cell_starts`` opens it, ``take`` is asked by each picture,
    ``output_cleared`` is told when the running cell clears its output."""

    runs: int = 0
    #: the run that is going on: its number, its cell id (``None``: not sent) and its source
    current: tuple[int, str | None, str] = (0, None, "")
    #: the run whose output carries the sheet (``None``: no output holds it now)
    carrier: tuple[int, str | None, str] | None = field(default=None)
    #: the display id of the carrier's output, when it was shown with one (it may be updated)
    carrier_display: str | None = None

    def cell_starts(self, cell_id: str | None, source: str, deleted: tuple[str, ...] = ()) -> None:
        self.runs += 1
        if self.carrier is not None:
            _, carrier_id, carrier_source = self.carrier
            if cell_id is not None and carrier_id is not None:
                again = cell_id == carrier_id
            else:
                again = source == carrier_source
            if again or (carrier_id is not None and carrier_id in deleted):
                self.carrier = self.carrier_display = None
        self.current = (self.runs, cell_id, source)

    def output_cleared(self) -> None:
        if self.carrier is not None and self.carrier[0] == self.current[0]:
            self.carrier = self.carrier_display = None

    def shown(self, display_id: str | None, html: str) -> None:
        """A display was sent: if it carries the sheet, its id (``display(..., display_id=True)``)."""
        if display_id and style_tag() in html:
            self.carrier_display = display_id

    def updated(self, display_id: str | None, html: str) -> str:
        """A display is replaced by ``html``: the markup to send. Replacing the carrier's display
        keeps the sheet with it when the new content is a picture; anything else gives it up."""
        if display_id is None or display_id != self.carrier_display or style_tag() in html:
            return html
        if 'class="tricklab' in html:
            return style_tag() + html
        self.carrier = self.carrier_display = None
        return html

    def take(self) -> bool:
        """True when this picture is to carry the sheet (and is then the carrier)."""
        if self.carrier is not None:
            return False
        self.carrier, self.carrier_display = self.current, None
        return True


# --- the kernel's side ---------------------------------------------------------------------------

_SENDERS: dict[int, Sender] = {}


def _kernel_shell() -> Any:
    """The IPython shell of a running kernel, else ``None`` (IPython is never imported here)."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return None
    try:
        shell = ipython.get_ipython()
    except Exception:  # an IPython too broken to answer: a standalone picture
        return None
    return shell if getattr(shell, "kernel", None) is not None else None


def _sender(shell: Any) -> Sender:
    sender = _SENDERS.get(id(shell))
    if sender is not None:
        return sender
    sender = _SENDERS[id(shell)] = Sender()

    def starts(cell_id: object, source: object, meta: object) -> None:
        deleted = meta.get("deletedCells") if isinstance(meta, dict) else None
        ids = tuple(str(d) for d in deleted) if isinstance(deleted, (list, tuple)) else ()
        sender.cell_starts(str(cell_id) if cell_id else None, source if isinstance(source, str) else "", ids)

    def pre_run_cell(info: Any) -> None:
        starts(getattr(info, "cell_id", None), getattr(info, "raw_cell", ""), getattr(info, "cell_meta", None))

    shell.events.register("pre_run_cell", pre_run_cell)
    # the cell running now, which showed the first picture, started before the hook was there:
    # its request (ipykernel 6 and later) names it
    try:
        request = shell.kernel.get_parent("shell")
    except Exception:  # another kernel: the run is known by nothing, which no later run matches
        request = None
    if isinstance(request, dict) and request.get("msg_type") == "execute_request":
        meta, content = request.get("metadata"), request.get("content")
        code = content.get("code") if isinstance(content, dict) else None
        starts(meta.get("cellId") if isinstance(meta, dict) else None, code, meta)

    def watch(msg: Any) -> Any:
        """Every display message the kernel sends (ipykernel's display hooks): a cleared output,
        a display shown or updated."""
        kind = msg.get("msg_type") if isinstance(msg, dict) else None
        if kind == "clear_output":
            sender.output_cleared()
            return msg
        content = msg.get("content") if kind in ("display_data", "update_display_data") else None
        data = content.get("data") if isinstance(content, dict) else None
        if not isinstance(content, dict) or not isinstance(data, dict):
            return msg
        transient = content.get("transient")
        display_id = transient.get("display_id") if isinstance(transient, dict) else None
        display_id = str(display_id) if display_id else None
        html = data.get("text/html")
        html = html if isinstance(html, str) else ""
        if kind == "display_data":
            sender.shown(display_id, html)
        elif (sent := sender.updated(display_id, html)) != html:
            data["text/html"] = sent
        return msg

    register = getattr(getattr(shell, "display_pub", None), "register_hook", None)
    if callable(register):
        register(watch)
    return sender


def page_has_sheet() -> bool:
    """Whether a picture shown in this kernel's page carries the sheet now (so a board made now
    need not bring it): never outside a kernel, nor in Colab, whose outputs are pages of their own."""
    shell = _kernel_shell()
    if shell is None or "google.colab" in sys.modules:
        return False
    sender = _SENDERS.get(id(shell))
    return sender is not None and sender.carrier is not None


def sheet_for_picture() -> str:
    """The ``<style>`` element a picture shown now carries: the sheet, or nothing when this
    kernel's page already has it (see the module's notes)."""
    shell = _kernel_shell()
    if shell is None or "google.colab" in sys.modules:
        return style_tag()
    return style_tag() if _sender(shell).take() else ""
