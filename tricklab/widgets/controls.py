"""Controls a board's front end draws from its scene: pickers, buttons, a text box, toggles.

A widget that is one :class:`~tricklab.widgets.board.Board` does not nest ipywidgets controls
(hosts such as marimo show only anywidgets). It describes its controls in Python instead, as
rows of :class:`Control` objects held by a :class:`Controls`; the board puts their description
in ``scene["controls"]`` and ``board.js`` draws each as the real element (``<select>`` with a
``<label>``, ``<button>``, ``<input>``, a toggle as a button with ``aria-pressed``). A change
the learner makes comes back as one message, ``{"intent": "control", "name": ..., "value": ...}``,
and reaches :meth:`Controls.receive`, which checks it like any text from the page: an unknown
control, an option that is not offered, a disabled control or a value of the wrong shape is
refused with :class:`~tricklab.widgets.inputs.PageValue` (the board shows its words as its
message) and changes nothing.

Python reads and sets the same objects: ``controls["trump"].value = "H"`` is what picking
hearts does (its ``on_change`` handlers run), ``controls["show"].click()`` is a press and
``controls["entry"].submit("7H AH")`` is typing and Enter. Each control is a
:class:`traitlets.HasTraits`, so ``.observe`` and :func:`traitlets.link` work on it.

Every text here reaches the page as text (``textContent``, attribute values), never as markup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

import traitlets

from ..errors import InvalidOption, describe
from .inputs import PageValue, quote

#: the longest text a text box takes from the page unless it says otherwise
MAX_TEXT = 1000
#: the most options a picker offers (an option's index is what the page sends back)
MAX_OPTIONS = 200


class Control(traitlets.HasTraits):
    """One control: its ``name`` (unique in its :class:`Controls`, what the page sends back),
    ``label`` (shown, and its accessible name), ``tooltip``, ``disabled`` and ``hidden``."""

    kind: ClassVar[str] = ""
    label = traitlets.Unicode("")
    tooltip = traitlets.Unicode("")
    disabled = traitlets.Bool(False)
    hidden = traitlets.Bool(False)

    def __init__(self, name: str, label: str, *, tooltip: str = "", disabled: bool = False, hidden: bool = False):
        if not isinstance(name, str) or not name.replace("-", "").replace("_", "").isalnum() or not name.isascii():
            raise InvalidOption(f"a control's name is letters, digits, - and _, not {describe(name)}")
        super().__init__(label=label, tooltip=tooltip, disabled=disabled, hidden=hidden)
        self.name = name

    def describe(self) -> dict[str, Any]:
        """What the front end needs to draw this control (plain JSON)."""
        return {
            "kind": self.kind,
            "name": self.name,
            "label": self.label,
            "tooltip": self.tooltip,
            "disabled": self.disabled,
            "hidden": self.hidden,
        }

    def receive(self, value: str | None) -> None:
        """Take ``value`` as the page sends it; :class:`PageValue` if it is refused."""
        raise NotImplementedError

    def _usable(self) -> None:
        if self.disabled or self.hidden:
            raise PageValue(f"“{self.label}” cannot be used now.")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class Picker(Control):
    """A choice among ``options``, ``(label, value)`` pairs: drawn as a ``<select>``. The page
    sends the chosen option's index; ``value`` is that option's value (any Python value)."""

    kind = "picker"
    options: traitlets.List[Any] = traitlets.List()
    value = traitlets.Any()

    def __init__(self, name: str, label: str, options: Sequence[tuple[str, Any]], value: Any, **kwargs: Any) -> None:
        super().__init__(name, label, **kwargs)
        self.set_options(options, value)

    def set_options(self, options: Sequence[tuple[str, Any]], value: Any) -> None:
        """Offer other options, ``value`` (one of them) chosen; the page is told once."""
        pairs = [tuple(option) for option in options]
        if (
            not pairs
            or len(pairs) > MAX_OPTIONS
            or not all(len(p) == 2 and isinstance(p[0], str) for p in pairs)
            or len({p[1] for p in pairs}) != len(pairs)
        ):
            raise InvalidOption(f"a picker's options are distinct (label, value) pairs, not {describe(options)}")
        if value not in [p[1] for p in pairs]:
            raise InvalidOption(f"{describe(value)} is not one of the options of “{self.label}”")
        with self.hold_trait_notifications():
            self.options = pairs
            self.value = value

    @traitlets.validate("value")
    def _offered(self, proposal: Any) -> Any:
        value = proposal["value"]
        if value not in [p[1] for p in self.options]:
            raise InvalidOption(f"{describe(value)} is not one of the options of “{self.label}”")
        return value

    @property
    def index(self) -> int:
        """The chosen option's place in ``options``."""
        return [p[1] for p in self.options].index(self.value)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "options": [p[0] for p in self.options], "index": self.index}

    def receive(self, value: str | None) -> None:
        self._usable()
        if value is None or len(value) > 3 or not value.isascii() or not value.isdigit():
            raise PageValue(f"“{quote(value)}” is not one of the choices of “{self.label}”.")
        index = int(value)
        if index >= len(self.options):
            raise PageValue(f"“{quote(value)}” is not one of the choices of “{self.label}”.")
        self.value = self.options[index][1]

    def on_change(self, handler: Callable[[Any], None]) -> None:
        """Call ``handler(value)`` each time another option is chosen (by the page or by code)."""
        self.observe(lambda change: handler(change["new"]), "value")


class Button(Control):
    """A button: ``click()`` (or the page's press) calls the ``on_click`` handlers, unless it is
    disabled or hidden. ``primary`` draws it as the main action of its row."""

    kind = "button"
    primary = traitlets.Bool(False)

    def __init__(self, name: str, label: str, *, primary: bool = False, **kwargs: Any) -> None:
        super().__init__(name, label, **kwargs)
        self.primary = primary
        self._handlers: list[Callable[[], object]] = []

    def on_click(self, handler: Callable[[], object]) -> None:
        self._handlers.append(handler)

    def click(self) -> None:
        """Press the button, as the page does (nothing happens while it is disabled or hidden)."""
        if self.disabled or self.hidden:
            return
        for handler in self._handlers:
            handler()

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "primary": self.primary}

    def receive(self, value: str | None) -> None:
        self._usable()
        self.click()


class TextEntry(Control):
    """A one-line text box: the page sends its text on Enter or when the box loses the focus
    (``submit``); ``value`` is the last text submitted or set by code."""

    kind = "text"
    value = traitlets.Unicode("")
    placeholder = traitlets.Unicode("")

    def __init__(
        self,
        name: str,
        label: str,
        *,
        value: str = "",
        placeholder: str = "",
        max_length: int = MAX_TEXT,
        **kwargs: Any,
    ) -> None:
        super().__init__(name, label, **kwargs)
        self.value = value
        self.placeholder = placeholder
        self.max_length = max_length
        self._handlers: list[Callable[[str], object]] = []

    def on_submit(self, handler: Callable[[str], object]) -> None:
        """Call ``handler(text)`` on each submission, the same text again included."""
        self._handlers.append(handler)

    def submit(self, text: str) -> None:
        """Type ``text`` and press Enter."""
        if not isinstance(text, str):
            raise InvalidOption(f"a text box takes text, not {describe(text)}")
        self.value = text
        for handler in self._handlers:
            handler(text)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "value": self.value, "placeholder": self.placeholder, "max": self.max_length}

    def receive(self, value: str | None) -> None:
        self._usable()
        if value is None:
            raise PageValue(f"“{self.label}” sent no text.")
        if len(value) > self.max_length:
            raise PageValue(
                f"That is {len(value):,} characters: “{self.label}” takes {self.max_length:,} at most; "
                "nothing was changed."
            )
        self.submit(value)


class Toggle(Control):
    """A button that stays pressed or not: ``value``. The page sends ``"true"`` or ``"false"``,
    the state it asks for."""

    kind = "toggle"
    value = traitlets.Bool(False)

    def __init__(self, name: str, label: str, *, value: bool = False, **kwargs: Any) -> None:
        super().__init__(name, label, **kwargs)
        self.value = value

    def on_change(self, handler: Callable[[bool], None]) -> None:
        self.observe(lambda change: handler(change["new"]), "value")

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "value": self.value}

    def receive(self, value: str | None) -> None:
        self._usable()
        if value not in ("true", "false"):
            raise PageValue(f"“{quote(value)}” is not on or off, for “{self.label}”.")
        self.value = value == "true"


class Progress(Control):
    """A progress bar: ``value`` out of ``maximum`` (whole numbers, ``0 <= value <= maximum``),
    drawn as a ``<progress>`` with its ``<label>``. It only shows: the page sends nothing back."""

    kind = "progress"
    value = traitlets.Int(0)
    maximum = traitlets.Int(100)

    def __init__(self, name: str, label: str, *, value: int = 0, maximum: int = 100, **kwargs: Any) -> None:
        super().__init__(name, label, **kwargs)
        self.set(value, maximum)

    def set(self, value: int, maximum: int | None = None) -> None:
        """Show ``value`` out of ``maximum`` (the old maximum when ``None``)."""
        top = self.maximum if maximum is None else maximum
        if not isinstance(top, int) or isinstance(top, bool) or top < 1:
            raise InvalidOption(f"a progress bar's maximum is a whole number of at least 1, not {describe(top)}")
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
            raise InvalidOption(f"a progress bar's value is a whole number from 0 to {top}, not {describe(value)}")
        with self.hold_trait_notifications():
            self.maximum = top
            self.value = value

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "value": self.value, "max": self.maximum}

    def receive(self, value: str | None) -> None:
        raise PageValue(f"“{self.label}” only shows progress; nothing was changed.")


class Note(Control):
    """A line of plain text among the controls (whose view it is, what a button will do):
    ``label`` is the text. It only shows: the page sends nothing back."""

    kind = "note"

    def receive(self, value: str | None) -> None:
        raise PageValue(f"“{self.label}” is only text; nothing was changed.")


def look_toggles(large: bool, four_colour: bool, *, suits: bool = True) -> tuple[Toggle, Toggle]:
    """The two toggles every widget offers: ``large`` (projector size) and ``four_colour`` (a
    deck whose diamonds and clubs have colours of their own; hidden without ``suits``: a game
    drawn on a board has no suits to colour)."""
    size = Toggle("large", "Large", value=large, tooltip="projector size")
    colours = Toggle(
        "four_colour", "4 colours", value=four_colour, tooltip="four-colour deck: ♦ blue, ♣ green", hidden=not suits
    )
    return size, colours


class Controls:
    """A widget's controls, in rows (a row wraps onto more lines on a narrow screen).

    ``controls["name"]`` is one control; :meth:`receive` is a change from the page, checked;
    :meth:`describe` is what the scene carries. Any change to a control (its value, options,
    label, disabled or hidden) calls ``on_change`` so the board sends the page the new state.
    """

    def __init__(self, rows: Sequence[Sequence[Control]]) -> None:
        self.rows: list[list[Control]] = []
        self._by_name: dict[str, Control] = {}
        self._listeners: list[Callable[[], None]] = []
        for row in rows:
            self.add_row(row)

    def add_row(self, row: Sequence[Control]) -> None:
        """Add ``row`` below the others (each control checked first: nothing is added if one is refused)."""
        if not isinstance(row, list | tuple):
            raise InvalidOption(f"a row of controls is a list of controls, not {describe(row)}")
        row = list(row)
        names = [control.name for control in row if isinstance(control, Control)]
        for control in row:
            if not isinstance(control, Control):
                raise InvalidOption(f"a row of controls holds controls, not {describe(control)}")
            if control.name in self._by_name or names.count(control.name) > 1:
                raise InvalidOption(f"two controls are named {describe(control.name)}")
        self.rows.append(row)
        for control in row:
            self._by_name[control.name] = control
            control.observe(self._changed)
        self._changed(None)

    def on_change(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def _changed(self, _change: object) -> None:
        for listener in self._listeners:
            listener()

    def __getitem__(self, name: str) -> Control:
        try:
            return self._by_name[name]
        except (KeyError, TypeError):
            raise InvalidOption(f"there is no control named {describe(name)}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __iter__(self) -> Iterator[Control]:
        return iter(self._by_name.values())

    def describe(self) -> list[list[dict[str, Any]]]:
        return [[control.describe() for control in row] for row in self.rows]

    def receive(self, name: str | None, value: str | None) -> None:
        """A change the page sent: checked, then applied; :class:`PageValue` if refused."""
        if not isinstance(name, str) or name not in self._by_name:
            raise PageValue(f"The page named a control that is not here (“{quote(name)}”); nothing was changed.")
        if value is not None and not isinstance(value, str):
            raise PageValue(f"“{self._by_name[name].label}” sent {describe(value)}, not text; nothing was changed.")
        self._by_name[name].receive(value)

    def __repr__(self) -> str:
        return f"Controls({', '.join(self._by_name)})"
