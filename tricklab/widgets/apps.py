"""The Voilà apps' entry points: read and check the page's query string, build the widget.

A teacher shares a link such as ``.../replay.ipynb?game=band-of-tricks&players=4&seed=7``
and every student sees the same deal. Every parameter is checked; a bad value shows a
message and falls back to a default, never a traceback.

Every app also takes ``large=1`` (projector size) and ``four_colour=1`` (the four-colour deck),
and keeps ``theme`` (light or dark, which the server has checked) in its address. As the
learner goes on, the page's address follows (:meth:`Board.show_address`): the replay's step,
the explainer's trick, the quiz's question, the played match's moves, so a copied link opens
the same thing.

Where the kernel cannot see the page's address (Python in the browser, :mod:`tricklab.platform`)
an app called without a query shows a reader first: a :class:`Board` whose front end sends the
page's ``location.search`` once (the ``address`` intent); the app is then built from it, through
the same checks as a link read by Voilà.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, TypedDict
from urllib.parse import parse_qs, urlencode

import ipywidgets as w

from .. import get_rules
from ..display import esc
from ..errors import InvalidOption, TricklabError, describe
from ..games import DEFAULT_GAME, GAMES, default_players, find_game
from ..match import Match
from ..platform import in_browser
from .inputs import quote

DEFAULT_SEED = 1
MAX_SEED = 2**63 - 1
MAX_QUERY = 2000
#: the most parameters a link may hold (past it the whole link is ignored)
MAX_FIELDS = 32


@dataclass
class AppParams:
    """Checked query parameters; ``messages`` says what was wrong and what was used instead."""

    game: str = DEFAULT_GAME
    players: int = field(default_factory=lambda: default_players(GAMES[DEFAULT_GAME]))
    seed: int = DEFAULT_SEED
    large: bool = False
    four_colour: bool = False
    #: ``light`` or ``dark`` when the link chose it (the server drops any other theme)
    theme: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)


def read_query_string() -> str:
    """The page's query string under Voilà, else ``""``.

    A kernel Voilà starts for a page gets the query string in its environment. A kernel
    from the preheated pool was started before any page asked for it: it learns which
    request took it by asking the server's ``voila/query/<kernel id>`` websocket (what
    ``voila.utils.get_query_string`` does). That helper imports Voilà's whole server into
    every kernel (about 2 s and 40 MB), so the few lines are done here with tornado, which
    the kernel has loaded already.
    """
    if os.environ.get("VOILA_PREHEAT") == "True" and "VOILA_KERNEL_ID" in os.environ:
        with contextlib.suppress(Exception):  # an app must still start if the server cannot be asked
            os.environ.update(_pooled_request_info())
    return os.environ.get("QUERY_STRING", "")


def kernel_sees_address() -> bool:
    """Whether :func:`read_query_string` can know the page's address: not in the browser,
    where the kernel runs in a web worker and the page must send it (:func:`_from_page`)."""
    return not in_browser()


def _from_page(build: Callable[[str], w.VBox]) -> w.VBox:
    """The app ``build(query)`` makes, once the page has sent its query string: until then a
    reader asks the page for it. Only the first answer is used; what the page sends is
    untrusted and goes through ``build``'s checks (:func:`parse_params`) like any link."""
    from .board import ADDRESS, Board

    reader = Board()
    reader.scene = {
        "html": '<p class="tricklab-loading" role="status">Opening the link…</p>',
        "label": "Opening the link",
        "read_address": True,
    }
    box = w.VBox([reader])
    box.add_class("tricklab-app")

    def arrived(intent: str, value: str | None) -> None:
        if intent != ADDRESS or reader not in box.children:
            return
        query = value or ""
        app = build(query[1:] if query.startswith("?") else query)
        box.children = app.children
        reader.close()

    reader.on_intent(arrived)
    return box


def _pooled_request_info(timeout: float = 5.0) -> dict[str, str]:
    """The request info Voilà hands a pooled kernel when a page takes it (environment values).

    A pooled kernel runs the app's notebook before any page asks for it, so this waits
    (as long as it takes) for the page that takes the kernel; ``timeout`` bounds the connection.
    """
    import asyncio
    import json
    import threading

    from tornado.websocket import websocket_connect

    env = os.environ
    base = env.get("VOILA_WS_BASE_URL") or env.get("VOILA_SERVER_URL") or "/"
    url = (
        f"{env.get('VOILA_WS_PROTOCOL', 'ws')}://{env.get('VOILA_APP_IP', '127.0.0.1')}:"
        f"{env.get('VOILA_APP_PORT', '8866')}{base}voila/query/{env['VOILA_KERNEL_ID']}"
    )
    received: list[str] = []

    async def fetch() -> None:
        connection = await websocket_connect(url, connect_timeout=timeout)
        message = await connection.read_message()
        connection.close()
        if isinstance(message, str):
            received.append(message)

    # the kernel's own event loop is busy running this cell: talk from a thread with its own loop
    thread = threading.Thread(target=lambda: asyncio.run(fetch()), daemon=True)
    thread.start()
    thread.join()
    info = json.loads(received[0]) if received else {}
    return {str(k): str(v) for k, v in info.items()} if isinstance(info, dict) else {}


def parse_params(query: str, *, extras: tuple[str, ...] = (), long: tuple[str, ...] = ()) -> AppParams:
    """Check ``game``, ``players``, ``seed`` (and the named ``extras``, kept as short text, and
    ``long`` ones, kept up to the query's length: a match's moves)."""
    _text("query", query)
    for label, given in (("extras", extras), ("long", long)):
        if not isinstance(given, tuple) or not all(isinstance(n, str) for n in given):
            raise InvalidOption(f"{label} is a tuple of parameter names, not {describe(given)}")
    params = AppParams()
    if len(query) > MAX_QUERY:
        params.messages.append("The link's settings were too long and were ignored.")
        query = ""
    try:
        values = parse_qs(query, keep_blank_values=True, max_num_fields=MAX_FIELDS)
    except ValueError:
        params.messages.append("The link's settings could not be read and were ignored.")
        values = {}

    def first(name: str) -> str | None:
        got = values.get(name)
        return got[0].strip() if got else None

    game = first("game")
    if game is not None:
        try:
            params.game = find_game(game).name
        except TricklabError:
            names = ", ".join(GAMES)
            params.messages.append(
                f"There is no game “{quote(game)}”; showing {GAMES[DEFAULT_GAME].title}. Games: {names}."
            )
    counts = find_game(params.game).player_counts
    params.players = default_players(find_game(params.game))
    players = first("players")
    if players is not None:
        if re.fullmatch(r"[0-9]{1,2}", players) and int(players) in counts:
            params.players = int(players)
        else:
            allowed = f"{counts[0]} only" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
            params.messages.append(
                f"“{quote(players)}” players is not possible in {GAMES[params.game].title} "
                f"({allowed}); showing {params.players} players."
            )
    seed = first("seed")
    if seed is not None:
        if re.fullmatch(r"[0-9]{1,19}", seed) and int(seed) <= MAX_SEED:
            params.seed = int(seed)
        else:
            params.messages.append(
                f"The seed must be a whole number from 0 to {MAX_SEED}, not “{quote(seed)}”; "
                f"showing seed {DEFAULT_SEED}."
            )
    for name in ("large", "four_colour"):
        value = first(name)
        if value is not None:
            if value.lower() in ("1", "yes", "true", "0", "no", "false"):
                setattr(params, name, value.lower() in ("1", "yes", "true"))
            else:
                params.messages.append(f"{name} must be 1 or 0, not “{quote(value)}”; using 0.")
    theme = first("theme")
    if theme in ("light", "dark"):
        params.theme = theme
    for name in extras:
        value = first(name)
        if value is not None:
            params.extra[name] = value[:200]
    for name in long:
        value = first(name)
        if value is not None:
            params.extra[name] = value
    return params


def _text(name: str, query: object) -> str:
    if not isinstance(query, str):
        raise InvalidOption(f"{name} is a link's query string, like 'game=kalah&seed=2', not {describe(query)}")
    return query


def _query(query: object) -> str:
    """The query string an app is built from: the page's (``None``), or the text given."""
    return read_query_string() if query is None else _text("query", query)


def _seat(params: AppParams, default: int | None, fallback: str) -> int | None:
    """The ``seat`` parameter (1..players in the link, a seat index here), or ``default``."""
    text = params.extra.get("seat")
    if text is None:
        return default
    if re.fullmatch(r"[0-9]", text) and 1 <= int(text) <= params.players:
        return int(text) - 1
    params.messages.append(f"There is no player “{quote(text)}”; {fallback}.")
    return default


class _Look(TypedDict):
    large: bool
    four_colour: bool


def _look(params: AppParams) -> _Look:
    """The link's ``large`` and ``four_colour``, as the widgets take them."""
    return {"large": params.large, "four_colour": params.four_colour}


def _show_address(widget: Any, params: AppParams, kept: dict[str, str] | None = None) -> None:
    """Have ``widget``'s board put the address of what it shows in the page's location: the
    checked settings (and ``kept``, the other checked values of the link that were used),
    then ``widget.link_state()``. A value that was refused is not written back."""
    base = {"game": params.game, "players": str(params.players), "seed": str(params.seed), **(kept or {})}
    theme = {"theme": params.theme} if params.theme else {}

    def address() -> str:
        return urlencode({**base, **widget.link_state(), **theme})

    widget.board.show_address(address)


def _offer_to_class(widget: Any, params: AppParams) -> None:
    """With ``teacher`` (a class session's teacher secret, as the class app's links give it), add
    a *Send to the class* button below the widget's board. The secret is never written back into
    the page's address, so a link copied from the page does not carry it."""
    secret = params.extra.get("teacher")
    if secret is None:
        return
    try:
        from .classapp import offer_to_class

        offer_to_class(widget, secret)
    except ImportError:  # the static site has no class store
        params.messages.append("Sending to a class needs the class app's server; this page cannot send.")
    except TricklabError as exc:
        params.messages.append(f"This page cannot send to a class: {exc}.")


def _seeded_header(widget: Any, params: AppParams, title_of: Callable[[str], str], *, describe: str) -> w.HTML:
    """The app's header, its title naming the seed the widget shows (``title_of(seed)``): after
    a New deal the title follows, since every deal redraws the widget's board."""
    shown = str(params.seed)
    header = _header(title_of(shown), params, describe=describe)

    def follow(_: object) -> None:
        nonlocal shown
        seed = widget.link_state().get("seed", shown)
        if seed != shown:
            shown = seed
            header.value = _header(title_of(seed), params, describe=describe).value

    widget.board.observe(follow, "scene")
    return header


def _header(title: str, params: AppParams, *, describe: str, keys: str = "") -> w.HTML:
    """The app's title, what it does, ``keys`` (the keys it takes, shown only where there is a
    keyboard: not on a touch screen alone) and the messages about the link."""
    notes = "".join(f'<p class="tricklab-message" role="alert">{esc(m)}</p>' for m in params.messages)
    hint = f'<p class="tl-keys">{esc(keys)}</p>' if keys else ""
    return w.HTML(f'<div class="tricklab-app-header"><h2>{esc(title)}</h2><p>{esc(describe)}</p>{hint}{notes}</div>')


def explain_trick_app(query: str | None = None) -> w.VBox:
    """The ``explain_trick`` app: a :class:`TrickExplainer` set from the query string
    (``game``, ``players``; ``trump`` and ``cards`` optional)."""
    if query is None and not kernel_sees_address():
        return _from_page(explain_trick_app)
    from .explainer import TrickExplainer

    params = parse_params(_query(query), extras=("trump", "cards", "teacher"))
    if not GAMES[params.game].capabilities.tricks:
        params.messages.append(
            f"{GAMES[params.game].title} is not played in tricks; showing {GAMES[DEFAULT_GAME].title}."
        )
        params.game, params.players = DEFAULT_GAME, default_players(GAMES[DEFAULT_GAME])
    trump = params.extra.get("trump", "S").upper()
    if trump not in ("S", "H", "D", "C", "NONE"):
        params.messages.append(f"“{quote(trump)}” is not a trump suit (S, H, D, C or none); using spades.")
        trump = "S"
    explainer = TrickExplainer(params.game, params.players, trump=trump if trump != "NONE" else None, **_look(params))
    cards = params.extra.get("cards")
    if cards and not explainer.type_trick(cards.replace(",", " ")):
        params.messages.append("The cards in the link could not be shown; see the message below.")
    _offer_to_class(explainer, params)
    header = _header(
        "Why did that card win?",
        params,
        describe="Build a trick by clicking cards or typing them; the ranking and every reason "
        "come from the rules engine.",
    )
    _show_address(explainer, params)
    return _app(header, explainer)


def replay_app(query: str | None = None) -> w.VBox:
    """The ``replay`` app: a :class:`TrickStepper` over a bot match from ``game``, ``players``, ``seed``
    (``seat``, the player whose view to show, and ``step``, where to start, are optional).

    With ``moves`` (the code of a played match, :mod:`tricklab.links`, as the play app's
    "Open this game in the replay app" writes it, with the game's variants and ``first_dealer``)
    it replays that match instead: a learner's own game, sent to a teacher. A code that does
    not fit the settings is refused with a message and the bots' match is shown.

    ``first_dealer`` (1..players) without ``moves`` is honoured too: the bots' match starts
    with that player dealing, and the address keeps it. A game without a first dealer (one
    that is not dealt by a player, or whose first player has another name) says so and ignores it.

    With a ``seat`` the page shows that player's view only, with no control to see more;
    without one it is the teacher's stepper (every hand)."""
    if query is None and not kernel_sees_address():
        return _from_page(replay_app)
    from .stepper import TrickStepper

    offered = _variants()
    params = parse_params(
        _query(query),
        extras=("seat", "step", "first_dealer", "teacher", *offered),
        long=("moves",),
    )
    seat = _seat(params, None, "showing the teacher's view")
    step = 0
    if "step" in params.extra:
        text = params.extra["step"]
        if re.fullmatch(r"[0-9]{1,6}", text):
            step = int(text)  # the stepper clamps it to the match's last step
        else:
            params.messages.append(f"“{quote(text)}” is not a step number; starting at the deal.")
    match = _linked_match(params, offered, "showing the bots' match")
    dealer = _unlinked_dealer(params, match)
    if match is not None:
        stepper = TrickStepper(match, seat=seat, step=step, **_look(params))
        title = f"Replay of a played game: {GAMES[params.game].title}, {params.players} players, seed {params.seed}"
    else:
        rules = get_rules(params.game, players=params.players)
        bots_match = rules.play(params.seed) if dealer is None else rules.play(params.seed, first_dealer=dealer)
        stepper = TrickStepper(bots_match, seat=seat, step=step, **_look(params))
        title = f"Replay: {GAMES[params.game].title}, {params.players} players, seed {params.seed}"
    _offer_to_class(stepper, params)
    moves = stepper.outline
    part = moves.part
    rounds = f", Page Up and Page Down a {moves.round_word}" if len(moves.rounds) > 1 else ""
    header = _header(
        title,
        params,
        describe=f"Step through a whole match, or jump to any move in the list or by {part} with the buttons.",
        keys=f"Keys: ← and → a step, Shift+← and Shift+→ a {part}{rounds}, Home and End the first and last step.",
    )
    kept = {} if seat is None else {"seat": str(seat + 1)}
    if dealer is not None:
        kept["first_dealer"] = str(dealer + 1)
    if match is not None:
        kept.update({name: "yes" for name in offered if getattr(match.rules.options, name, False)})
        if "first_dealer" in match.match_options:
            kept["first_dealer"] = str(match.match_options["first_dealer"] + 1)
        kept["moves"] = params.extra["moves"]
    _show_address(stepper, params, kept)
    return _app(header, stepper)


def _linked_match(params: AppParams, offered: dict[str, str], otherwise: str) -> Match | None:
    """The match of the link's ``moves`` (with its variants and ``first_dealer``), or ``None``
    without them; moves that do not fit the settings get a message (ending with ``otherwise``)."""
    from ..links import match_from_moves

    code = params.extra.get("moves")
    if code is None:
        return None
    options = _variant_options(params, offered)
    match_options: dict[str, int] = {}
    dealer = _first_dealer(params, "the link's moves need one")
    if dealer is not None:
        match_options["first_dealer"] = dealer
    try:
        rules = get_rules(params.game, players=params.players).with_options(**options)
        return match_from_moves(rules, params.seed, code, match_options)
    except TricklabError as exc:
        params.messages.append(f"The game in the link could not be replayed ({exc}); {otherwise}.")
        return None


def _first_dealer(params: AppParams, otherwise: str) -> int | None:
    """The link's ``first_dealer`` (1..players) as a seat, or ``None`` without one; a value that
    is no player gets a message (ending with ``otherwise``)."""
    text = params.extra.get("first_dealer")
    if text is None:
        return None
    if re.fullmatch(r"[0-9]", text) and 1 <= int(text) <= params.players:
        return int(text) - 1
    params.messages.append(f"There is no player “{quote(text)}” to deal first; {otherwise}.")
    return None


def _unlinked_dealer(params: AppParams, linked: Match | None) -> int | None:
    """The link's ``first_dealer`` for a new match (a link without ``moves``, or whose moves were
    refused): the seat to deal first where the game has a first dealer; otherwise a message says
    it is ignored. ``None`` where the link names none, or the match is the link's own."""
    if linked is not None or "first_dealer" not in params.extra:
        return None
    cls = GAMES[params.game]
    if "first_dealer" not in cls.match_option_names:
        params.messages.append(f"{cls.title} has no first dealer to choose; first_dealer is ignored.")
        return None
    if "moves" in params.extra:  # the moves were refused: their message said what was wrong
        return None
    return _first_dealer(params, "the seed chooses the dealer")


def _variant_options(params: AppParams, offered: dict[str, str]) -> dict[str, bool]:
    """The yes/no variants of the link that the game offers; a wrong value or a variant of
    another game gets a message and is left out."""
    options: dict[str, bool] = {}
    for name, offered_by in offered.items():
        if name in params.extra:
            text = params.extra[name].lower()
            if text not in ("yes", "no", "true", "false", "1", "0"):
                params.messages.append(f"{name} must be yes or no, not “{quote(text)}”; using no.")
            elif name not in GAMES[params.game].capabilities.variants:
                params.messages.append(f"{name} is a {offered_by} variant; ignored for {GAMES[params.game].title}.")
            elif text in ("yes", "true", "1"):
                options[name] = True
    return options


def play_app(query: str | None = None) -> w.VBox:
    """The ``play`` app: a :class:`PlayTable` from ``game``, ``players``, ``seed``, and optionally
    ``seat`` (1..players), ``pace`` (seconds between bot moves, 0-3), and the variants a game
    declares (``Capabilities.variants``; Jewel Vault: ``partnerships`` and ``known_deck``), ``yes``/``no``.

    With ``moves`` (:mod:`tricklab.links`) the table goes on with that match, its variants and
    ``first_dealer``. ``first_dealer`` (1..players) without ``moves`` is honoured: the new deal
    starts with that player dealing (and so does each New deal), and the address keeps it; a
    game without a first dealer says so and ignores it."""
    if query is None and not kernel_sees_address():
        return _from_page(play_app)
    from .playtable import PlayTable

    offered = _variants()
    params = parse_params(
        _query(query),
        extras=("seat", "pace", "first_dealer", *offered),
        long=("moves",),
    )
    seat = _seat(params, 0, "you play Player 1") or 0
    pace = _pace(params)
    look = _look(params)
    match = _linked_match(params, offered, "a new deal instead")
    dealer = _unlinked_dealer(params, match)
    options: dict[str, Any] = {} if match is not None else {**_variant_options(params, offered)}
    if dealer is not None:
        options["first_dealer"] = dealer
    try:
        table = PlayTable(
            params.game, params.players, seat=seat, seed=params.seed, pace=pace, match=match, **look, **options
        )
    except TricklabError as exc:
        params.messages.append(f"{exc}; playing without the variants.")
        table = PlayTable(params.game, params.players, seat=seat, seed=params.seed, pace=pace, **look)
    used = [k for k in offered if getattr(table.rules.options, k, False)]
    variants = " with " + " and ".join(k.replace("_", " ") for k in used) if used else ""
    you = table.rules.seat_name(seat)
    header = _seeded_header(
        table,
        params,
        lambda seed: f"Play {GAMES[params.game].title}{variants}, seed {seed}: you are {you}",
        describe="Play against bots. Click your "
        + ("cards and your choices" if GAMES[params.game].capabilities.board is None else "moves on the board")
        + "; a move the rules do not allow is explained and changes nothing.",
    )
    kept = {"seat": str(seat + 1), "pace": f"{pace:g}", **dict.fromkeys(used, "yes")}
    _show_address(table, params, kept)
    box = _app(header, table)
    if not in_browser():  # with a server (the class store): the same game at a table of classmates
        from ..store import tables_at

        together = urlencode({"game": params.game, "players": str(params.players), **dict.fromkeys(used, "yes")})
        link = f"{tables_at('')}table.ipynb?{together}"
        box.children = (
            header,
            table,
            w.HTML(
                f'<p class="tricklab-also"><a href="{esc(link)}">Play {esc(GAMES[params.game].title)} '
                "with classmates</a>: each on their own device, bots in the empty seats.</p>"
            ),
        )
    return box


def quiz_app(query: str | None = None) -> w.VBox:
    """The ``quiz`` app: a :class:`Quiz` from ``game``, ``players``, ``seed`` and ``level``
    (1 to the game's last level; a bad one shows a message and level 1). A game without tricks
    gets its quiz about positions (its declared position levels)."""
    if query is None and not kernel_sees_address():
        return _from_page(quiz_app)
    from ..quiz import asks_positions, steps
    from .quiz import Quiz

    params = parse_params(_query(query), extras=("level", "question", "teacher"))
    last = len(steps(params.game))
    level = 1
    if "level" in params.extra:
        text = params.extra["level"]
        if re.fullmatch(r"[0-9]", text) and 1 <= int(text) <= last:
            level = int(text)
        else:
            params.messages.append(
                f"There is no level “{quote(text)}” in the {GAMES[params.game].title} quiz "
                f"(1 to {last}); starting at level 1."
            )
    question = 1
    if "question" in params.extra:
        text = params.extra["question"]
        if re.fullmatch(r"[0-9]{1,3}", text) and int(text) >= 1:
            question = int(text)  # the quiz asks its last question at most
        else:
            params.messages.append(f"“{quote(text)}” is not a question number; starting at question 1.")
    quiz = Quiz(params.game, params.players, seed=params.seed, level=level, question=question, **_look(params))
    _offer_to_class(quiz, params)
    header = _seeded_header(
        quiz,
        params,
        lambda seed: f"Quiz: {GAMES[params.game].title}, {params.players} players, seed {seed}",
        describe="Each question shows a position of the game and asks about it. Click your answer: the rules "
        "say at once whether it is right, and why. The same link gives everyone the same questions."
        if asks_positions(params.game)
        else "Who wins this trick? Click the card that wins, or at some levels every card from first "
        "place to last. The same link gives everyone the same questions.",
    )
    _show_address(quiz, params)
    return _app(header, quiz)


def bid_trainer_app(query: str | None = None) -> w.VBox:
    """The ``bid_trainer`` app: a :class:`BidTrainer` from ``game`` (every game with a pre-round
    decision the advisor knows: a prediction, a bid or a pass), ``players`` and ``seed`` (and
    optionally ``seat``, 1..players).

    A game with no pre-round decision that declares "try a move" (``Capabilities.moves``: Kalah,
    Mandala) gets the :class:`MoveTrainer` instead: the position after ``ply`` moves of the bots
    (0 to 200, default 6), every move with its outcome and why."""
    if query is None and not kernel_sees_address():
        return _from_page(bid_trainer_app)
    from .bidtrainer import GAMES as TRAINER_GAMES
    from .bidtrainer import BidTrainer, trains
    from .movetrainer import DEFAULT_PLY, MAX_PLY, MoveTrainer, trains_moves
    from .movetrainer import GAMES as MOVE_GAMES

    params = parse_params(_query(query), extras=("seat", "ply", "teacher"))
    if trains_moves(GAMES[params.game]):
        ply = DEFAULT_PLY
        text = params.extra.get("ply")
        if text is not None:
            if re.fullmatch(r"[0-9]{1,3}", text) and int(text) <= MAX_PLY:
                ply = int(text)
            else:
                params.messages.append(
                    f"The moves before the position must be a whole number from 0 to {MAX_PLY}, "
                    f"not “{quote(text)}”; using {DEFAULT_PLY}."
                )
        if "seat" in params.extra:
            params.messages.append("In this trainer you are the player whose move it is; the seat was ignored.")
        moves = MoveTrainer(params.game, params.players, seed=params.seed, ply=ply, **_look(params))
        _offer_to_class(moves, params)
        header = _seeded_header(
            moves,
            params,
            lambda seed: f"Try a move: {GAMES[params.game].title}, seed {seed}",
            describe="Every move you can make in this position, what it does and which rules say so. "
            "Press Try it on a move to see the board after it.",
        )
        _show_address(moves, params)
        return _app(header, moves)
    if not trains(GAMES[params.game]):
        with_bids = " and ".join(GAMES[name].title for name in (*TRAINER_GAMES, *MOVE_GAMES))
        params.messages.append(
            f"The trainer is for {with_bids}, not {GAMES[params.game].title}; showing {GAMES[DEFAULT_GAME].title}."
        )
        params.game, params.players = DEFAULT_GAME, default_players(GAMES[DEFAULT_GAME])
    seat = _seat(params, 0, "you are Player 1") or 0
    trainer = BidTrainer(params.game, params.players, seed=params.seed, seat=seat, **_look(params))
    _offer_to_class(trainer, params)
    tries = trainer.what + ("es" if trainer.what.endswith("s") else "s")  # predictions, bids, passes
    header = _seeded_header(
        trainer,
        params,
        lambda seed: f"Try {tries}: {GAMES[params.game].title}, {params.players} players, seed {seed}",
        describe=f"Pick a {trainer.what} and press Try it: the bots play your hand out a thousand times, "
        "with the cards you cannot see dealt at random.",
    )
    _show_address(trainer, params, {"seat": str(seat + 1)})
    return _app(header, trainer)


def class_app(query: str | None = None) -> w.VBox:
    """The ``class`` app, a class session: ``teach=1`` is the teacher's projector (the session this
    tab kept, after a reload, else a new one), ``teacher=<secret>`` reopens that session;
    ``join=<code>`` opens a learner's page with the code typed in, ``student=<token>`` reopens a
    learner's; with none of these, the learner's page to join. It
    needs a server (the class store): under ``tricklab serve`` or JupyterHub, not in the static site."""
    from .classapp import ClassLearner, ClassTeacher

    params = parse_params(_query(query), extras=("teach", "teacher", "join", "student"))
    extra = params.extra
    widget: Any
    try:
        if "teacher" in extra or extra.get("teach") == "1":
            widget = ClassTeacher(secret=extra.get("teacher"), recall="teacher" not in extra)
            header = _header(
                "Class session",
                params,
                describe="Ask the whole class: each question appears on every device at once, the answers come "
                "back as counts, never names, and Reveal shows the answer and why.",
            )
        else:
            widget = ClassLearner(join=extra.get("join", ""), token=extra.get("student"))
            header = _header("Class", params, describe="Your teacher's questions appear here: click your answer.")
    except TricklabError as exc:  # a teacher's link that is no longer a session's: start again
        params.messages.append(str(exc))
        widget = ClassTeacher()
        header = _header("Class session", params, describe="Start a new class session.")
    return _app(header, widget)


def table_app(query: str | None = None) -> w.VBox:
    """The ``table`` app, play with classmates: make a table (``game``, ``players`` and the game's
    variants, ``yes``/``no``, choose what the lobby offers first) and share its code, or
    ``join=<code>`` to join one; a page opened again with its table's code sits down again at the
    seat this device kept. ``pace`` (0-3 seconds) is the bots' pace. Like the class app it needs a
    server (the class store)."""
    from ..store import NotAllowed
    from .sharedtable import SharedPlayTable, TableLobby

    offered = _variants()
    params = parse_params(_query(query), extras=("join", "pace", "class", "watch", "teacher", *offered))
    if "watch" in params.extra:
        return _watch_table(params)
    pace = _pace(params)
    variants = tuple(_variant_options(params, offered))
    join = params.extra.get("join", "")
    says = (
        "Each classmate plays a seat from their own device; bots play the other seats. Every finished "
        "trick stays, with its reasons, until everyone has gone on."
    )
    header = _header("Play with classmates", params, describe=says)
    box = w.VBox([header])
    box.add_class("tricklab-app")

    def seated(table: SharedPlayTable) -> None:
        rules = table.rules
        used = [name.replace("_", " ") for name in offered if getattr(rules.options, name, False)]
        title = (
            f"Play with classmates: {rules.title}{' with ' + ' and '.join(used) if used else ''}, "
            f"table {table.code}: you are {rules.seat_name(table.seat)}"
        )
        header.value = _header(title, params, describe=says).value
        box.children = (header, table)

    try:
        lobby = TableLobby(
            join=join,
            recall=bool(join),
            on_seated=seated,
            pace=pace,
            game=params.game,
            players=params.players,
            variants=variants,
            class_code=params.extra.get("class", ""),
            **_look(params),
        )
    except NotAllowed as refused:  # a learner's own server under JupyterHub: the tables are elsewhere
        box.children = (header, _tables_elsewhere(_query(query), offered, refused))
        return box
    if not box.children[1:]:
        box.children = (header, lobby)
    return box


def _tables_elsewhere(query: str, offered: Collection[str], refused: TricklabError) -> w.DOMWidget:
    """What the table app says where it may not seat anyone (:func:`~tricklab.store.open_table_store`):
    why, and a link to the same table where tables are played (:func:`~tricklab.store.tables_at`)."""
    from ..store import tables_at
    from .board import Board

    where = tables_at("")
    kept = {
        key: values[0]
        for key, values in parse_qs(query).items()
        if key in ("game", "players", "join", "class", "pace", *offered)
    }
    link = f"{where}table.ipynb?{urlencode(kept)}" if where else ""
    if link:
        html = (
            '<p class="tl-summary">Tables of classmates are played on the class\'s own tricklab pages, '
            "where no one can peek at the cards dealt.</p>"
            f'<p><a class="tl-choice tl-link" href="{esc(link)}">Open the table there</a></p>'
        )
    else:
        html = f'<p class="tl-summary" role="alert">{esc(str(refused).capitalize())}.</p>'
    shown = Board()
    shown.scene = {"html": html, "label": "Tables of classmates"}
    return shown


def _watch_table(params: AppParams) -> w.VBox:
    """The teacher's view of a table of their class session (``watch=<code>``), with the session's
    secret from the link (``teacher=``, from the projector) or, after a reload, from the tab's
    keeping: the address keeps the table's code only."""
    from ..store import open_store
    from .board import Board
    from .classapp import RECALL
    from .sharedtable import TableWatcher

    code = params.extra["watch"]
    header = _header(
        f"Watching table {code}",
        params,
        describe="The table as the seat you choose sees it, as it is played; every hand only if you choose it.",
    )
    box = w.VBox([header])
    box.add_class("tricklab-app")
    store = open_store()

    def watch(secret: str, shown: Board) -> None:
        try:
            watcher = TableWatcher(store.teacher_session(secret), code, store, **_look(params))
        except TricklabError as exc:
            shown.message = str(exc)
            shown.scene = {"html": '<p class="tl-summary">This table cannot be watched from here.</p>', "keep": ""}
            return
        box.children = (header, watcher)

    reader = Board()
    box.children = (header, reader)
    if "teacher" in params.extra:
        watch(params.extra["teacher"], reader)
        return box

    def recalled(intent: str, value: str | None) -> None:
        if intent == RECALL and isinstance(value, str):
            watch(parse_qs(value[:500]).get("teacher", [""])[0], reader)

    reader.on_intent(recalled)
    reader.scene = {"html": '<p class="tl-summary" role="status">Opening the table…</p>', "recall": True}
    return box


def _pace(params: AppParams) -> float:
    """The bots' pace a link chose (``pace``, 0 to 3 seconds), else 0.8; a bad one is said."""
    text = params.extra.get("pace")
    if text is None:
        return 0.8
    if re.fullmatch(r"[0-9](\.[0-9]{1,2})?", text) and float(text) <= 3:
        return float(text)
    params.messages.append(f"The pace must be 0 to 3 seconds, not “{quote(text)}”; using 0.8.")
    return 0.8


def _variants() -> dict[str, str]:
    """Every yes/no variant a game declares, with the titles of the games that offer it."""
    offered: dict[str, list[str]] = {}
    for cls in GAMES.values():
        for name in cls.capabilities.variants:
            offered.setdefault(name, []).append(cls.title)
    return {name: " and ".join(titles) for name, titles in offered.items()}


def _app(header: w.HTML, widget: Any) -> w.VBox:
    box = w.VBox([header, widget])
    box.add_class("tricklab-app")
    return box
