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

The code is ``2`` (its version), four characters of checksum, then one number per decision:
0 for a choice the link leaves out (see below), else 1 + the index of the action taken in
``rules.legal_actions(state)`` at that point, written in URL-safe base-64 characters, five
bits each, the low bits first; a character from the upper half of the alphabet means another
one follows, and a number has one spelling only (no trailing zero digits). Most decisions
offer fewer than 32 actions, so a whole match is a few hundred characters.

**A link holds no secret.** A link made for a seat (``moves_code(match, seat)``, as the play
app writes its address and its Copy link) leaves out every secret choice of another seat that
the seat has not seen (:meth:`~tricklab.games.base.Rules.unseen_by`: a bot's prediction before
the reveal, the cards it passed to someone else). Those choices were made by the table's bots,
whose choice depends only on the seed and the moves before it (:func:`tricklab.bots.table_bot`),
so opening the link has the same bots make them again: the same match, with nothing in the
address that the seat could not see on its own screen.

The checksum covers the settings and every number, so a code that was cut short, mistyped or
opened with other settings is refused with :class:`~tricklab.errors.RecordError`, never
replayed into some other match. The order of ``legal_actions`` is part of what a link means:
``tests/test_links.py`` pins codes made with each version. Codes of version ``1`` (every index
written out, +0) still open, with the rules as they were when such links were made (options
added since take their legacy value: :meth:`~tricklab.games.base.Options.legacy`).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from .actions import Action
from .errors import RecordError, TricklabError, describe
from .games.base import Rules
from .match import Match

__all__ = ["LINK_VERSION", "MAX_CODE", "match_from_moves", "moves_code"]

LINK_VERSION = "2"
_VERSIONS = ("1", "2")
#: the longest code read (a match of the longest game is about 600 characters)
MAX_CODE = 4000
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_VALUE = {c: i for i, c in enumerate(_ALPHABET)}
_CHECK = 4
UNSEEN = 0  # the number of a choice the link leaves out (version 2)

#: who makes a choice a link left out: given the match so far, the action of the seat to play
Filler = Callable[[Match], Action]


def _checksum(version: str, rules: Rules[Any], seed: int, match_options: Mapping[str, Any], numbers: list[int]) -> str:
    if version == "1":  # as version 1 wrote it (no option then had a legacy value)
        settings: list[object] = [rules.name, rules.players, rules.options.stored(), dict(match_options), seed, numbers]
    else:
        settings = [version, rules.name, rules.players, rules.options.stored(), dict(match_options), seed, numbers]
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True, separators=(",", ":")).encode()).digest()
    return base64.urlsafe_b64encode(digest[:3]).decode()[:_CHECK]


def _digits(value: int) -> str:
    out = []
    while value >= 32:
        out.append(_ALPHABET[32 + (value & 31)])
        value >>= 5
    out.append(_ALPHABET[value])
    return "".join(out)


def moves_code(match: Match, seat: int | None = None) -> str:
    """The code of ``match``'s moves (see the module's text); ``match_from_moves`` reads it back.

    With ``seat``, the code as that seat may hold it: another seat's secret choice that ``seat``
    has not seen by now is left out, and the table's bot makes it again when the link is opened.
    Should such a choice not be the table bot's (a match played by other bots, or opened from a
    link of version 1), the code stops before it: the link then opens at that point, where the
    bots choose afresh, and still tells nothing the seat has not seen."""
    if not isinstance(match, Match):
        raise RecordError(f"moves_code writes the moves of a Match (rules.new_match(...)), not {describe(match)}")
    rules, now = match.rules, match.state
    if seat is not None:
        rules.check_view_seat(seat)
    numbers = []
    for k, (state, action) in enumerate(zip(match.states, match.actions, strict=False)):
        if seat is not None and state.to_play != seat and rules.unseen_by(state, action, seat, now):
            if not _made_by_table(match, k):
                break
            numbers.append(UNSEEN)
        else:
            numbers.append(rules.legal_actions(state).index(action) + 1)
    body = "".join(_digits(n) for n in numbers)
    return LINK_VERSION + _checksum(LINK_VERSION, rules, match.seed, match.match_options, numbers) + body


def _read(code: str) -> tuple[str, str, list[int]]:
    if not isinstance(code, str):
        raise RecordError(f"the moves of a link are text, not {describe(code)}")
    if len(code) > MAX_CODE:
        raise RecordError(f"the link's moves are too long ({len(code)} characters; at most {MAX_CODE})")
    if code[:1] not in _VERSIONS:
        raise RecordError(
            f"the link's moves are not in a form this tricklab reads (versions {' and '.join(_VERSIONS)}): "
            f"{describe(code[:8])}"
        )
    if len(code) < 1 + _CHECK:
        raise RecordError("the link's moves were cut short: the checksum is missing")
    version, check, body = code[0], code[1 : 1 + _CHECK], code[1 + _CHECK :]
    bad = next((c for c in code if c not in _VALUE), None)
    if bad is not None:
        raise RecordError(f"the link's moves hold a character that is not part of them: {describe(bad)}")
    numbers: list[int] = []
    value = shift = 0
    for char in body:
        digit = _VALUE[char]
        value |= (digit & 31) << shift
        if digit < 32:
            if shift and not digit:
                raise RecordError("the link's moves are damaged: a number in them is written with a needless digit")
            numbers.append(value)
            value = shift = 0
        else:
            shift += 5
            if shift > 20:
                raise RecordError("the link's moves are damaged: a number in them is far too long")
    if shift:
        raise RecordError("the link's moves were cut short: the last number is not complete")
    return version, check, numbers


_MADE: dict[tuple[object, ...], bool] = {}  # (rules, seed, match options, the moves up to one) -> the table's?


def _made_by_table(match: Match, k: int) -> bool:
    """Whether decision ``k`` of ``match`` is what the table's bot makes there (remembered: a
    table asks again at every change of its address)."""
    actions = match.actions
    key = (match.rules, match.seed, tuple(sorted(match.match_options.items())), actions[: k + 1])
    found = _MADE.get(key)
    if found is None:
        found = _table_action(match.rules, match.seed, match.states[k], k) == actions[k]
        if len(_MADE) > 20_000:
            _MADE.clear()
        _MADE[key] = found
    return found


def _table_action(rules: Rules[Any], seed: int, state: Any, decision: int) -> Action:
    """What the table's bot for the seat to play chooses at ``state``, decision ``decision``."""
    from .bots import table_bot

    seat = state.to_play
    assert seat is not None
    return table_bot(rules, seat, seed, decision).choose(rules.view(state, seat), rules.legal_actions(state))


def _table_choice(match: Match) -> Action:
    return _table_action(match.rules, match.seed, match.state, len(match.actions))


def match_from_moves(
    rules: Rules[Any],
    seed: int,
    code: str,
    match_options: Mapping[str, Any] | None = None,
    *,
    fill: Filler | None = None,
) -> Match:
    """The match whose moves ``code`` holds, with these settings; anything wrong (a damaged or
    shortened code, other settings than the code was made with, a move that is not legal)
    raises :class:`~tricklab.errors.RecordError`, and nothing half-replayed is returned.

    A choice the code leaves out is made again by ``fill`` (by default the table's bots,
    :func:`tricklab.bots.table_bot`, which made it)."""
    version, check, numbers = _read(code)
    if not isinstance(rules, Rules):
        raise RecordError(f"a link's moves are read with a game's rules, not {describe(rules)}")
    if version == "1":
        rules = rules.as_legacy()  # the rules as they were when version 1 links were made
    try:
        match = Match(rules, seed, match_options=match_options)
    except TricklabError as exc:
        raise RecordError(f"the link's settings are invalid: {exc}") from None
    if check != _checksum(version, rules, match.seed, match.match_options, numbers):
        raise RecordError(
            "the link's moves do not belong to these settings (game, players, seed, variants), "
            "or were changed or cut short"
        )
    offset = 0 if version == "1" else 1
    refill = fill or _table_choice
    for number, written in enumerate(numbers, start=1):
        if match.is_over:
            raise RecordError(f"the link holds more moves than the match has: move {number} comes after the end")
        legal = match.legal_actions()
        if version != "1" and written == UNSEEN:
            action = refill(match)
            if action not in legal:
                raise RecordError(f"move {number} of the link could not be made again: {describe(str(action))}")
            match.apply(action)
            continue
        index = written - offset
        if index >= len(legal):
            raise RecordError(f"move {number} of the link is not one of the {len(legal)} actions allowed there")
        match.apply(legal[index])
    return match
