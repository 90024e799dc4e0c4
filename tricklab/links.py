"""A match in a link: the compact, checked code of its moves.

A saved record (:meth:`~tricklab.match.Match.to_json`) names every action in words and is
a few kilobytes long, too long for the address of a page. A link instead says which of the
legal actions was taken at each decision: the settings (game, players, seed, variants) are
link parameters of their own, and ``moves`` is this code::

    >>> import tricklab
    >>> from tricklab.links import match_from_moves, moves_code
    >>> match = tricklab.get_rules("jewel-vault", players=3).play(seed=4)
    >>> code = moves_code(match)
    >>> match_from_moves(match.rules, 4, code).to_json() == match.to_json()
    True

The code is ``1`` (its version), four characters of checksum, then one number per decision:
the index of the action taken in ``rules.legal_actions(state)`` at that point, written in
URL-safe base-64 characters, five bits each, the low bits first; a character from the upper
half of the alphabet means another one follows. Most decisions offer fewer than 32 actions,
so a whole match is a few hundred characters.

The checksum covers the settings and every index, so a code that was cut short, mistyped or
opened with other settings is refused with :class:`~tricklab.errors.RecordError`, never
replayed into some other match. The order of ``legal_actions`` is part of what a link
means: ``tests/test_links.py`` pins codes made with this version.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from typing import Any

from .errors import RecordError, TricklabError, describe
from .games.base import Rules
from .match import Match

__all__ = ["LINK_VERSION", "MAX_CODE", "match_from_moves", "moves_code"]

LINK_VERSION = "1"
#: the longest code read (a match of the longest game is about 600 characters)
MAX_CODE = 4000
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_VALUE = {c: i for i, c in enumerate(_ALPHABET)}
_CHECK = 4


def _checksum(rules: Rules[Any], seed: int, match_options: Mapping[str, Any], indices: list[int]) -> str:
    settings = [rules.name, rules.players, rules.options.as_dict(), dict(match_options), seed, indices]
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True, separators=(",", ":")).encode()).digest()
    return base64.urlsafe_b64encode(digest[:3]).decode()[:_CHECK]


def _digits(value: int) -> str:
    out = []
    while value >= 32:
        out.append(_ALPHABET[32 + (value & 31)])
        value >>= 5
    out.append(_ALPHABET[value])
    return "".join(out)


def moves_code(match: Match) -> str:
    """The code of ``match``'s moves (see the module's text); ``match_from_moves`` reads it back."""
    if not isinstance(match, Match):
        raise RecordError(f"moves_code writes the moves of a Match (rules.new_match(...)), not {describe(match)}")
    indices = []
    for state, action in zip(match.states, match.actions, strict=False):
        indices.append(match.rules.legal_actions(state).index(action))
    body = "".join(_digits(i) for i in indices)
    return LINK_VERSION + _checksum(match.rules, match.seed, match.match_options, indices) + body


def _read(code: str) -> tuple[str, list[int]]:
    if not isinstance(code, str):
        raise RecordError(f"the moves of a link are text, not {describe(code)}")
    if len(code) > MAX_CODE:
        raise RecordError(f"the link's moves are too long ({len(code)} characters; at most {MAX_CODE})")
    if code[:1] != LINK_VERSION:
        raise RecordError(
            f"the link's moves are not in a form this tricklab reads (version {LINK_VERSION}): {describe(code[:8])}"
        )
    if len(code) < 1 + _CHECK:
        raise RecordError("the link's moves were cut short: the checksum is missing")
    check, body = code[1 : 1 + _CHECK], code[1 + _CHECK :]
    bad = next((c for c in code if c not in _VALUE), None)
    if bad is not None:
        raise RecordError(f"the link's moves hold a character that is not part of them: {describe(bad)}")
    indices: list[int] = []
    value = shift = 0
    for char in body:
        digit = _VALUE[char]
        value |= (digit & 31) << shift
        if digit < 32:
            indices.append(value)
            value = shift = 0
        else:
            shift += 5
            if shift > 20:
                raise RecordError("the link's moves are damaged: a number in them is far too long")
    if shift:
        raise RecordError("the link's moves were cut short: the last number is not complete")
    return check, indices


def match_from_moves(rules: Rules[Any], seed: int, code: str, match_options: Mapping[str, Any] | None = None) -> Match:
    """The match whose moves ``code`` holds, with these settings; anything wrong (a damaged or
    shortened code, other settings than the code was made with, a move that is not legal)
    raises :class:`~tricklab.errors.RecordError`, and nothing half-replayed is returned."""
    check, indices = _read(code)
    try:
        match = Match(rules, seed, match_options=match_options)
    except TricklabError as exc:
        raise RecordError(f"the link's settings are invalid: {exc}") from None
    if check != _checksum(rules, match.seed, match.match_options, indices):
        raise RecordError(
            "the link's moves do not belong to these settings (game, players, seed, variants), "
            "or were changed or cut short"
        )
    for number, index in enumerate(indices, start=1):
        if match.is_over:
            raise RecordError(f"the link holds more moves than the match has: move {number} comes after the end")
        legal = match.legal_actions()
        if index >= len(legal):
            raise RecordError(f"move {number} of the link is not one of the {len(legal)} actions allowed there")
        match.apply(legal[index])
    return match
