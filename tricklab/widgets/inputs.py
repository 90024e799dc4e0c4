"""What the page sends, checked before the engine sees it.

A widget's front end sends intents as ``(intent, value)`` text, and a page can send any
text at all, as long as it likes. Widgets read those values only through these helpers:
a number is ASCII digits of a bounded length, a text value is bounded, and a value is
quoted in a message shortened and without control characters. Whether a value is legal
is never decided here: that is the engine's answer.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from ..cards import Card
from ..errors import InvalidOption, TricklabError, describe
from ..games.base import Rules

MAX_VALUE = 80  # the longest value a widget's own markup sends is an action text like "move 1>2 2>3 3>4"
MAX_TYPED = 200  # typed card lists (the trick explainer's text box)
QUOTE = 40
_BID_STEP = re.compile(r"(rock|soul|pops):([+-]1)")


def quote(text: object) -> str:
    """A value as a message quotes it: without control or direction-changing characters (they
    could garble or reorder the message), 40 characters at most. A value that is not text is
    quoted as :func:`~tricklab.errors.describe` quotes it."""
    if not isinstance(text, str):
        return describe(text)
    value = "".join(ch for ch in text[: QUOTE * 4] if unicodedata.category(ch) not in ("Cc", "Cf"))
    return value if len(value) <= QUOTE else value[: QUOTE - 3] + "..."


def number(value: str | None, *, digits: int = 2) -> int | None:
    """``value`` as a whole number if it is 1 to ``digits`` ASCII digits, else ``None``.

    ``"²".isdigit()`` is true and ``int("٣")`` is 3: neither is a number a button sends.
    """
    if value is None or len(value) > digits or not re.fullmatch(r"[0-9]+", value):
        return None
    return int(value)


def short(value: str | None, limit: int = MAX_VALUE) -> str | None:
    """``value`` if it is a text of at most ``limit`` characters, else ``None``."""
    if value is None or len(value) > limit:
        return None
    return value


def bid_step(value: str | None) -> tuple[str, int] | None:
    """A bid stepper's click (``"rock:+1"``, ``"pops:-1"``, as :func:`tricklab.display.bid_rows`
    writes them) as ``(suit, +1 or -1)``, else ``None``."""
    found = _BID_STEP.fullmatch(value) if value is not None and len(value) <= 8 else None
    return (found[1], int(found[2])) if found else None


class PageValue(TricklabError):
    """A value from the page that none of the widget's own buttons sends."""


def clicked_card(rules: Rules[Any], value: str | None) -> Card:
    """The card a card button names: the game's notation of a card, exactly as the button writes it.

    Raises :class:`PageValue` for anything else (no value, too long, another spelling), or the
    game's :class:`~tricklab.errors.InvalidCard` for text that is no card of this game.
    """
    text = short(value)
    if text is None:
        raise PageValue(too_long(value) if value else "That click carried no card.")
    card = rules.card(text)
    if str(card) != text:
        raise PageValue(f"“{quote(text)}” is not a card as its button writes it (like {card}): click a card.")
    return card


def too_long(value: str) -> str:
    """The message for a value longer than any the widget's buttons send."""
    return f"The page sent a value {len(value):,} characters long, longer than any button sends; nothing was changed."


# --- what code gives a widget: checked like the engine's arguments ---------------------------------


def check_flag(name: str, value: object) -> bool:
    """``value`` if it is ``True`` or ``False``, else :class:`InvalidOption` naming ``name``."""
    if not isinstance(value, bool):
        raise InvalidOption(f"{name} must be True or False, not {describe(value)}")
    return value


def check_whole(name: str, value: object, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``, else :class:`InvalidOption`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidOption(f"{name} must be a whole number from {low:,} to {high:,}, not {describe(value)}")
    return value


def check_seconds(name: str, value: object, high: float) -> float:
    """``value`` if it is a number of seconds from 0 to ``high``, else :class:`InvalidOption`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= high:
        raise InvalidOption(f"{name} must be a number of seconds from 0 to {high:g}, not {describe(value)}")
    return float(value)
