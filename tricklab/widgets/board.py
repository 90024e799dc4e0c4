"""The one anywidget of tricklab: a board that shows a scene and reports intents."""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar

import anywidget
import comm
import ipywidgets as w
import traitlets

from ..display import stylesheet, with_defs
from ..errors import InvalidOption, TricklabError, describe
from ..games.base import quote_names
from ..platform import on_app_page
from . import frontend
from .controls import Control, Controls

#: the board's "Copy link" button; the front end copies the page's address itself, or shows
#: it selected in the text field where the page may not use the clipboard
COPY_LINK = (
    '<p class="tl-copy-link"><button type="button" class="tl-copy-button" data-intent="copy-link">'
    "Copy link</button>"
    '<input class="tl-link-field" type="text" readonly hidden aria-label="The link to this page"></p>'
)

Intent = Callable[[str, str | None], None]

#: the page's query string (``location.search``), sent once by a board whose scene has
#: ``read_address`` (where the kernel cannot see the page's address); untrusted like any link
ADDRESS = "address"
#: the front end's "are you there?": answered by the Board itself, never passed to handlers
PING = "ping"
#: a change to one of the scene's controls, ``{"intent": "control", "name": ..., "value": ...}``:
#: handled by the Board's :class:`~tricklab.widgets.controls.Controls`, never passed to handlers
CONTROL = "control"
#: what a ping may carry: the page's count of pings, echoed back in the pong
_PING_VALUE = re.compile(r"[0-9]{1,12}")
#: the front end's "send me plain scenes" (a browser that cannot inflate): answered by the Board
PLAIN = "plain"
#: a scene whose JSON is longer than this goes deflated (:func:`pack`)
PACK_OVER = 1024
#: what starts a deflated scene
PACKED = "z:"


def pack(scene: dict[str, Any], *, plain: bool = False) -> str:
    """``scene`` as the page gets it: its JSON, or, when that is longer than :data:`PACK_OVER`,
    :data:`PACKED` and the JSON deflated (zlib) in base64. A scene is mostly cards drawn alike, so
    it shrinks about tenfold: on the wire at every step, and in a notebook saved with its widgets.
    ``plain`` for a page that cannot inflate (it asks with :data:`PLAIN`). The scene's markup gets
    the parts its cards share (:func:`tricklab.display.with_defs`) here, as the page gets it."""
    if "html" in scene:
        scene = {**scene, "html": with_defs(str(scene["html"]))}
    text = json.dumps(scene, ensure_ascii=False, separators=(",", ":"))
    if plain or len(text) <= PACK_OVER:
        return text
    return PACKED + base64.b64encode(zlib.compress(text.encode("utf-8"), 6)).decode("ascii")


#: the one Layout of the kernel's boards (see :func:`_shared_layout`)
_LAYOUT: list[w.Layout] = []


def _shared_layout() -> w.Layout:
    """The Layout every board of the kernel shares. A board never sets one (its look is the
    stylesheet's), and each Layout is a model of some forty empty fields: one for all the boards
    keeps a saved notebook a kilobyte a board lighter. A board made for hosting (its comm talks to
    nobody, :func:`for_hosting`) gets one of its own, so the shared one always has a front end."""
    if comm.create_comm is comm.DummyComm:
        return w.Layout()
    if not _LAYOUT or _LAYOUT[0].comm is None:
        _LAYOUT[:] = [w.Layout()]
    return _LAYOUT[0]


@contextmanager
def for_hosting() -> Iterator[None]:
    """Widgets made inside have no front end of their own (their comm talks to nobody): make a
    board to :meth:`Board.host` here when a click makes it. A hosted board is drawn by the board
    hosting it, so it needs none, and some hosts cannot give one to a widget made outside a
    cell's run (marimo fails there)."""
    made, callback = comm.create_comm, w.Widget._widget_construction_callback
    comm.create_comm = comm.DummyComm
    w.Widget._widget_construction_callback = None
    try:
        with frontend.unseen():
            yield
    finally:
        comm.create_comm, w.Widget._widget_construction_callback = made, callback


class Board(anywidget.AnyWidget):
    """Shows ``scene["html"]`` (markup from :mod:`tricklab.display`) and sends back intents.

    The page gets the scene as ``_packed`` (:func:`pack`: deflated when long; a page that cannot
    inflate asks for plain scenes). The scene is a small JSON object: ``html``, ``label`` (ARIA label), ``large``
    (projector mode), ``step``, ``data`` (scalar facts set as ``data-*`` attributes),
    ``announce`` (the latest event in words, put in one live region kept outside the
    redrawn markup, so screen readers say it once) and ``focus`` (a CSS selector: where focus
    goes after the redraw, when the board had it, e.g. the next card to play), ``focus_in``
    (``{region: selector}``: focus that was inside an element matching ``region`` goes to
    ``selector``'s element instead, e.g. a move list's move shown), ``keys`` (the
    keys the board sends, a shifted one written ``"Shift+ArrowRight"``; by default ←/→/Home/End)
    and ``reveal`` (a CSS selector: the element brought into sight inside its own scrolling box,
    one marked ``data-keep-scroll``, which keeps its scroll position from scene to scene) and
    ``kind``: ``"list"`` for a board that shows a list beside another board (a move list: its
    root is ``.tricklab-list``, not ``.tricklab-board``, so a page has one board).
    Clicks on elements with ``data-intent`` and those keys arrive as ``(intent, value)`` calls
    (a key as ``("key", name)``) of the handlers given to :meth:`on_intent`; the front end
    decides nothing.

    With :meth:`show_address` every scene also carries ``address``, the query string of the
    page that shows this state (built by Python), and a "Copy link" button: the front end puts
    the address in the page's location with ``history.replaceState`` and copies the page's
    address when the button is pressed (the one thing it does without asking Python).

    After a click or key anywhere on the page the front end sends ``("ping", n)`` and waits
    a few seconds for the custom message ``{"pong": n}``; without it the page says that the
    connection is lost. The Board answers pings itself, so no handler ever sees one.

    That watch is kept only where it is right, and Python decides where: ``watch_connection``
    (a synced trait, fixed when the Board is made) is :func:`tricklab.platform.on_app_page`,
    true on an app's own page (Voilà, the static site), where nobody else would tell. In a
    notebook host (JupyterLab, Notebook 7, VS Code, Colab) it is false: the host shows its
    kernel's state itself, and a cell that runs for a while (the kernel busy, every answer
    late) must not put "Connection lost" over the host's menus. The front end adds one guard
    of its own: each watching board says hello when it is shown, and a page where no pong has
    ever come never shows the message, so a static export of the widgets' state (nbviewer, a
    Jupyter Book page, ``nbconvert --to html``: no kernel at all) is never told that it lost one.

    **A whole widget in one Board.** A public widget is one anywidget, so that it works in every
    host (JupyterLab, Notebook 7, VS Code, Colab, marimo, Voilà): no ipywidgets around it. Such a
    widget subclasses Board (:class:`~tricklab.widgets.explainer.TrickExplainer` is the simplest):

    - its controls are :class:`~tricklab.widgets.controls.Controls` given to :meth:`use_controls`:
      every scene then carries ``controls`` (rows of pickers, buttons, a text box, toggles), drawn
      by the front end above the board as real ``<select>``, ``<button>`` and ``<input>`` elements
      with labels; a change comes back as a ``"control"`` message that the Controls check and
      apply (their ``on_change``/``on_click``/``on_submit`` handlers then run). Tests and code
      use the same objects: ``widget.controls["show"].click()``, ``widget.control(name, value)``
      (exactly what the page sends);
    - ``message`` (plain text) is shown above the board in a live region (``role="alert"``),
      as text, never as markup; a refused control change is shown there (``_refused``);
    - the state a notebook cares about is synced traits of the widget (``.tag(sync=True)``), so
      ``observe``, :func:`traitlets.link` and ``jslink`` work. The page may set only the traits
      named in ``_page_traits``; each such value goes through the trait's validators like a value
      from Python, and one they refuse (a typed :class:`~tricklab.errors.TricklabError`) is shown
      as the message and the page is sent the value kept. Any other trait the page sends is ignored;
    - the widget's ``board`` is itself, so code written for the board inside a widget still works.

    A new widget is written the same way: its controls in ``Controls``, its words for the
    learner in ``message``, its state in synced traits observed to redraw the scene.
    """

    @property
    def _esm(self) -> str:
        """The module a board starts with (anywidget reads it once, as the board is made, and
        keeps it as a synced trait): the full one for one board of the kernel, a small one that
        waits for it for the others (:mod:`tricklab.widgets.frontend`)."""
        return frontend.module_for_new_board()

    #: what the board shows (see above); the page gets it as :attr:`_packed`
    scene = traitlets.Dict()
    #: the scene as the page gets it (:func:`pack`): its JSON, deflated when it is long
    _packed = traitlets.Unicode("{}").tag(sync=True)
    #: whether the page itself tells that Python stopped answering (see above); set from where
    #: the kernel runs when the Board is made, never by a keyword
    watch_connection = traitlets.Bool().tag(sync=True)
    #: words for the learner shown above the board (plain text: an error, a refusal), "" for none
    message = traitlets.Unicode("").tag(sync=True)
    #: the synced traits the page may set (through their validators); a subclass names its own
    _page_traits: ClassVar[frozenset[str]] = frozenset()
    #: whether the page asked for plain scenes (:data:`PLAIN`)
    _plain = False

    def __init__(self, **kwargs: Any) -> None:
        unknown = [name for name in kwargs if name not in ("scene", "layout")]
        if unknown:
            raise InvalidOption(f"a Board takes scene= (and layout=), not {quote_names(unknown)}")
        if not isinstance(kwargs.get("scene", {}), dict):
            raise InvalidOption(f"a Board's scene is a dict, not {describe(kwargs['scene'])}")
        super().__init__(**kwargs)
        frontend.made(self)
        self._handlers: list[Intent] = []
        self._address: Callable[[], str] | None = None
        self._controls: Controls | None = None
        self._hosted: Board | None = None
        self._host_row: list[Control] = []
        self.on_msg(self._on_message)

    @traitlets.default("layout")
    def _layout_default(self) -> w.Layout:
        return _shared_layout()

    @traitlets.default("watch_connection")
    def _watch_connection_default(self) -> bool:
        return on_app_page()

    @property
    def board(self) -> Board:
        """The board that shows this widget: itself (widgets made of several parts have a ``board``)."""
        return self

    @property
    def controls(self) -> Controls | None:
        """The controls drawn above the board (:meth:`use_controls`), or ``None``."""
        return self._controls

    def use_controls(self, controls: Controls) -> None:
        """Have every scene carry ``controls`` (drawn above the board); each change to them is
        sent to the page at once."""
        if not isinstance(controls, Controls):
            raise InvalidOption(f"controls must be a Controls, not {describe(controls)}")
        self._controls = controls
        controls.on_change(self._redraw)
        self._redraw()

    def add_controls(self, row: Sequence[Control]) -> None:
        """Add ``row`` of controls below this board's own (its first row if it has none)."""
        if self._controls is None:
            self.use_controls(Controls([row]))
        else:
            self._controls.add_row(row)  # a change to the controls redraws

    # --- a board hosting another -------------------------------------------------------------------

    @property
    def hosted(self) -> Board | None:
        """The board this one shows in its place (:meth:`host`), or ``None``."""
        return self._hosted

    def host(self, other: Board | None, controls: Sequence[Control] | None = None) -> None:
        """Show ``other`` in this board's place (``None``: this board's own scene again).

        While hosting, this board's scene is the other's (its markup and its controls), with
        ``controls`` (some of this board's own controls; by default all of them) added as one row
        below the other's; a change to one of those reaches this board, every other intent and
        control change goes to ``other``, and this board's ``message`` shows the other's. The
        other board need not be shown anywhere itself: one anywidget on the page shows both, so
        a widget can show another (a trainer its play-out) in every host.
        """
        if other is not None and (not isinstance(other, Board) or other is self or other.hosted is not None):
            raise InvalidOption(f"a board hosts another board (not itself, nor one hosting), not {describe(other)}")
        own = list(self._controls) if self._controls is not None else []
        if controls is not None and not isinstance(controls, list | tuple):
            raise InvalidOption(f"controls is a list of this board's own controls, not {describe(controls)}")
        row = own if controls is None else list(controls)
        if any(not any(control is mine for mine in own) for control in row):
            raise InvalidOption("a board hosting another adds only its own controls")
        if other is not None and other.controls is not None and any(c.name in other.controls for c in row):
            raise InvalidOption("the hosting board's controls and the hosted board's have the same names")
        if self._hosted is not None:
            self._hosted.unobserve(self._hosted_changed, names=["scene", "message"])
        self._hosted, self._host_row = other, row
        if other is not None:
            other.observe(self._hosted_changed, names=["scene", "message"])
        self.message = "" if other is None else other.message
        self._redraw()

    def _hosted_changed(self, change: dict[str, Any]) -> None:
        if change["owner"] is not self._hosted:
            return
        if change["name"] == "message":
            self.message = change["new"]
        else:
            self._redraw()

    def _redraw(self) -> None:
        """Send the scene again, as it was set, with what the board adds to it now (once, at the
        end, inside :meth:`hold_redraw`)."""
        if getattr(self, "_held", 0):
            self._dirty = True
            return
        self.scene = dict(getattr(self, "_set_scene", self.scene))

    @contextmanager
    def hold_redraw(self) -> Iterator[None]:
        """Changes to the controls inside are sent with one scene: the one set inside, or the
        scene on the board again at the end."""
        self._held = getattr(self, "_held", 0) + 1
        try:
            yield
        finally:
            self._held -= 1
            if not self._held and getattr(self, "_dirty", False):
                self._redraw()

    def control(self, name: str | None, value: str | None) -> None:
        """Handle a change of a control as the page sends it (its name and its value as text):
        checked by the controls; a refusal is shown as the message and changes nothing."""
        hosted = self._hosted
        if hosted is not None and not any(control.name == name for control in self._host_row):
            hosted.control(name, value)  # the hosted board's own control (it shows a refusal itself)
            return
        if self._controls is None:
            return
        try:
            self._controls.receive(name, value)
        except TricklabError as exc:
            self._refused(exc)

    def _refused(self, exc: TricklabError) -> None:
        """Show why something the page sent was refused (a subclass may say it elsewhere)."""
        self.message = str(exc)

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """State from the page: only the traits in ``_page_traits``, each through its validators
        (a refused value is shown as the message and the page is sent the value kept); any other
        trait the page sends is ignored and sent back as it is."""
        if not isinstance(sync_data, dict):
            return  # not a state at all
        for name, value in sync_data.items():
            if name not in self.keys:
                continue
            if name not in self._page_traits:
                if self.get_state(name).get(name) != value:
                    self.send_state(name)
                continue
            try:
                from_json = self.trait_metadata(name, "from_json", self._trait_from_json)
                with self._lock_property(**{name: value}):
                    setattr(self, name, from_json(value, self))
            except TricklabError as exc:
                self._refused(exc)
                self.send_state(name)
            except traitlets.TraitError:
                self.send_state(name)  # not even the trait's type: the page gets the value kept

    def show_address(self, address: Callable[[], str]) -> None:
        """Have every scene carry ``address()`` (a query string, ``key=value&...``) and a
        "Copy link" button; the scene on the board now gets them at once."""
        if not callable(address):
            raise InvalidOption(f"address must be a function that gives the query string, not {describe(address)}")
        self._address = address
        self._redraw()

    @traitlets.validate("scene")
    def _with_address(self, proposal: Any) -> dict[str, Any]:
        self._set_scene = dict(proposal["value"])  # as set: what the board adds is added anew each time
        self._dirty = False
        scene = dict(proposal["value"])
        hosted = getattr(self, "_hosted", None)
        if hosted is not None:  # the other board's scene in this one's place, with this board's row
            scene = dict(hosted.scene)
            scene.pop("address", None)
            rows = list(scene.get("controls", []))
            if self._host_row:
                rows.append([control.describe() for control in self._host_row])
            scene["controls"] = rows
            address = getattr(self, "_address", None)
            if address is not None:
                scene["address"] = address()
                if COPY_LINK not in str(scene.get("html", "")):
                    scene["html"] = str(scene.get("html", "")) + COPY_LINK
            return scene
        address = getattr(self, "_address", None)  # None while the widget is being made
        if address is not None:
            scene["address"] = address()
            scene["html"] = str(scene.get("html", "")) + COPY_LINK
        controls = getattr(self, "_controls", None)
        if controls is not None:
            scene["controls"] = controls.describe()
        return scene

    @traitlets.observe("scene")
    def _pack(self, change: dict[str, Any]) -> None:
        self._packed = pack(change["new"], plain=self._plain)

    def on_intent(self, handler: Intent) -> None:
        """Call ``handler(intent, value)`` for every intent the page sends."""
        if not callable(handler):
            raise InvalidOption(f"handler must be a function handler(intent, value), not {describe(handler)}")
        self._handlers.append(handler)

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        if not isinstance(content, dict):
            return
        intent = content.get("intent")
        value = content.get("value")
        if not isinstance(intent, str) or not (value is None or isinstance(value, str)):
            return
        if intent == CONTROL:
            name = content.get("name")
            self.control(name if isinstance(name, str) else None, value)
            return
        self.intent(intent, value)

    def intent(self, intent: str, value: str | None = None) -> None:
        """Handle an intent as if the front end had sent it (used by tests and keys): text, as
        the page sends it."""
        if not isinstance(intent, str):
            raise InvalidOption(f"an intent is a text, like 'play', not {describe(intent)}")
        if value is not None and not isinstance(value, str):
            raise InvalidOption(f"an intent's value is a text or None, as the page sends it, not {describe(value)}")
        if intent == PING:
            self._pong(value)
            return
        if intent == frontend.ASK:
            self.send({frontend.ASK: frontend.full_module()})
            return
        if intent == frontend.ASK_SHEET:
            self.send({frontend.ASK_SHEET: stylesheet.minified()})
            return
        if intent == PLAIN:
            self._plain = True
            self._packed = pack(self.scene, plain=True)
            return
        if self._hosted is not None:
            self._hosted.intent(intent, value)
            return
        for handler in self._handlers:
            handler(intent, value)

    def _pong(self, value: str | None) -> None:
        """Answer a ping, echoing its number; anything else in a ping is not echoed back."""
        if value is not None and _PING_VALUE.fullmatch(value):
            self.send({"pong": value})

    def close(self) -> None:
        frontend.closing(self)
        super().close()

    def __repr__(self) -> str:
        return f"Board(label={self.scene.get('label', '')!r})"
