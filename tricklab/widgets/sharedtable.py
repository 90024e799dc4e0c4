"""SharedPlayTable: one classmate's seat at a table of classmates (:mod:`tricklab.tables`).

It is the play table (:class:`~tricklab.widgets.playtable.PlayTable`) with its match kept in the
class store's log instead of in the widget: the learner's decisions are checked by the engine and
appended to the log, the bots' moves are made by whichever kernel at the table gets there first,
and every :data:`POLL` seconds the widget follows the log on the kernel's own event loop (so a
poll never runs in the middle of a click). A finished trick stays until every classmate has gone
on from it; the table says whom it waits for.

What the page is given is this seat's view only, as at the play table: the seed stays in the
kernel, the address holds the table's code (to join or sit down again), and the seat's token is
kept by the page itself (``scene.keep``), never shown or put in the address.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Collection
from html import escape as esc
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import traitlets

from ..actions import Action
from ..display import finished_trick_html, view_html
from ..display.tables import table_seats_html
from ..errors import TricklabError
from ..games import GAMES, default_players, find_game
from ..games.base import EventKind
from ..match import Match
from ..store import PLAYER, ClassStore, SeatInfo, Session, TableSeat, TableStore, open_store, open_table_store
from ..tables import SharedTable
from .board import Board
from .classapp import PAGE, RECALL, client
from .controls import Button, Control, Controls, Picker, TextEntry, Toggle
from .playtable import PlayTable

#: seconds between two looks at the table's log
POLL = 0.25
#: seconds a classmate may keep the table waiting before the others are offered a bot to stand in
STAND_IN_AFTER = 20.0


class _OnTheLoop:
    """Call ``step`` every ``every`` seconds on the kernel's own event loop (so never in the middle
    of a click) until :meth:`stop`; ``every`` 0: never (a test calls ``step`` itself)."""

    def __init__(self, step: Callable[[], object], every: float) -> None:
        self._step = step
        self._every = every
        self._handle: asyncio.TimerHandle | None = None
        self._schedule()

    def _schedule(self) -> None:
        if self._every <= 0:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = asyncio.get_event_loop()
        self._handle = loop.call_later(self._every, self._run)

    def _run(self) -> None:
        self._handle = None
        try:
            self._step()
        finally:
            self._schedule()

    def stop(self) -> None:
        self._every = 0
        if self._handle is not None:
            self._handle.cancel()


class SharedPlayTable(PlayTable):
    """A seat at a table of classmates, from its place in the store (``seat``: what
    :meth:`~tricklab.store.Store.new_table` or :meth:`~tricklab.store.Store.join_table` gave).

    Synced traits, beyond the play table's: ``code`` (the table's code, for classmates to join)
    and ``waiting`` (the names of the classmates the table waits for to go on from the last trick)."""

    code = traitlets.Unicode("").tag(sync=True)
    waiting = traitlets.List(traitlets.Unicode()).tag(sync=True)

    @traitlets.validate("code", "waiting")
    def _only_this_table(self, proposal: Any) -> Any:
        return self._only_the_table(proposal)

    def __init__(
        self,
        seat: TableSeat,
        store: TableStore | None = None,
        *,
        poll: float = POLL,
        pace: float = 0.8,
        hold: float | None = None,
        stand_in_after: float = STAND_IN_AFTER,
        four_colour: bool = False,
        large: bool = False,
    ) -> None:
        self.shared = SharedTable(store if store is not None else open_table_store(), seat)
        self._stand_in_after = stand_in_after
        self._changed = time.monotonic()  # when the table last moved on, as this kernel saw it
        self.page = ""  # the table app's address, once the page has said it: the join link is shown
        self._seats_shown: object = None  # who sat where and whom the table waited for, as last drawn
        match = self.shared.match
        self._followed = len(match.actions)  # the number of actions when the table last looked for finished tricks
        super().__init__(
            match.rules.name,
            match.rules.players,
            seat=seat.seat,
            seed=match.seed,
            pace=pace,
            hold=hold if hold is not None else seat.hold,
            four_colour=four_colour,
            large=large,
            match=match,
        )
        self.add_class("tricklab-sharedtable")
        with self._own():
            self.code = seat.code
        self.leave_button = Button("leave", "Let a bot play for me", tooltip="you can sit down again later")
        self.sit_button = Button("sit", "Sit down again", primary=True, hidden=True)
        self.stand_in_button = Button("stand_in", "Let a bot play for a classmate", hidden=True)
        self.leave_button.on_click(lambda: self._seat_change(lambda: self.hand_over(self.seat)))
        self.sit_button.on_click(lambda: self._seat_change(self.sit_down))
        self.stand_in_button.on_click(self._stand_in)
        # one row: Undo and New deal are not offered here, and a projector's screen keeps its height
        # for the table (the seat's choices stay above the fold)
        self.use_controls(
            Controls(
                [
                    [
                        self.hint_button,
                        self.large_toggle,
                        self.colour_toggle,
                        self.leave_button,
                        self.sit_button,
                        self.stand_in_button,
                    ]
                ]
            )
        )
        self._render()
        self._poller = _OnTheLoop(self.poll, poll)

    # --- the log -------------------------------------------------------------------------------------

    @property
    def my_turn(self) -> bool:
        """This classmate's decision is due: their turn, and no classmate still looks at the last
        trick (until then their cards are not offered, and the table says whom it waits for)."""
        return self.shared.my_turn and not self.shared.waiting_for()

    def poll(self) -> bool:
        """Follow the log now (what the widget does every ``poll`` seconds): the classmates' and
        the bots' moves since the last look are shown; whether anything changed."""
        try:
            self.shared.follow()
        except TricklabError as exc:
            self.message = str(exc)
            self._render()
            return False
        # every action the match has followed since the last look (here, or in going on or acting)
        moved = len(self.match.actions) != self._followed
        if moved:
            self._sown = len(self.match.actions)
            self._after_moves()
        if not self._pauses:  # nothing held here (also after one's own move ended a round): go on
            self._went_on()
        if moved or self._seat_lines() != self._seats_shown:
            self._changed = time.monotonic()
        elif (self.missing() is None) == self.stand_in_button.hidden:
            return False
        if not moved:  # who sits where, or whom a bot may stand in for: drawn again
            self._render()
        self._run_bots()
        return True

    def _seat_lines(self) -> object:
        """What the page shows of the seats: who plays them, and whom the table waits for (how far
        each classmate has followed the table is not drawn: a change of it alone draws nothing)."""
        return (tuple((info.kind, info.name) for info in self.shared.seats), tuple(self.shared.waiting_for()))

    def _after_moves(self) -> None:
        self._followed = len(self.match.actions)
        super()._after_moves()

    def _decide(self, action: Action | str) -> bool:
        return self.shared.act(action)

    def _went_on(self) -> None:
        try:
            self.shared.went_on()
        except TricklabError as exc:
            self.message = str(exc)

    def _bots_may_move(self) -> bool:
        to_play = self.match.to_play
        return (
            to_play is not None and self.shared.is_bot(to_play) and not self._pauses and not self.shared.waiting_for()
        )

    def _bot_move(self) -> None:
        try:
            self.shared.play_bot()
        except TricklabError as exc:  # the store out of reach: the next poll tries again
            self.message = str(exc)
            return
        self._sown = len(self.match.actions)
        self._after_moves()

    def _sync_state(self) -> None:
        super()._sync_state()
        self._seats_shown = self._seat_lines()
        with self._own():
            self.waiting = [self.shared.seats[n].name for n in self.shared.waiting_for()]

    # --- who plays which seat ---------------------------------------------------------------------------

    def hand_over(self, seat: int, bot: str = "heuristic") -> None:
        """A bot (``heuristic`` or ``random``) plays ``seat`` from now on: this classmate's own
        (leaving the table a while) or a classmate's who has gone."""
        self.shared.store.table_hand_over(self.shared.seat, seat, bot)
        self.poll()
        self._render()

    def sit_down(self) -> None:
        """This classmate plays their seat again, after a bot played it."""
        self.shared.store.table_sit(self.shared.seat)
        self.poll()
        self._render()

    def missing(self) -> int | None:
        """The seat of a classmate who has kept the table waiting (to play, or to go on from a
        finished trick) ``stand_in_after`` seconds while this classmate has not: a bot may stand in."""
        if self.match.is_over or self._pauses or time.monotonic() - self._changed < self._stand_in_after:
            return None
        waiting = self.shared.waiting_for()
        if waiting:
            return waiting[0]
        to_play = self.match.to_play
        if to_play is not None and to_play != self.seat and not self.shared.is_bot(to_play):
            return to_play
        return None

    def _seat_change(self, change: Callable[[], object]) -> None:
        try:
            change()
        except TricklabError as exc:
            self._refuse(str(exc))

    def _stand_in(self) -> None:
        seat = self.missing()
        if seat is None:
            self._refuse("Nobody keeps the table waiting now.")
            return
        self._seat_change(lambda: self.hand_over(seat))

    def _seat_buttons(self) -> None:
        mine = self.shared.is_bot(self.seat)
        over = self.match.is_over
        self.leave_button.hidden = mine or over
        self.sit_button.hidden = not mine or over
        missing = self.missing()
        self.stand_in_button.hidden = missing is None
        if missing is not None:
            name = self.shared.seats[missing].name or self.rules.seat_name(missing)
            self.stand_in_button.label = f"Let a bot play for {name}"

    def _render(self) -> None:
        if not hasattr(self, "stand_in_button"):  # the play table draws once before the buttons are made
            super()._render()
            return
        with self.hold_redraw():
            self._seat_buttons()
            super()._render()

    # --- what a solo table does and a shared one does not --------------------------------------------

    def undo(self) -> bool:
        self._refuse("At a table of classmates a move stays played: there is no undo.")
        return False

    def new_deal(self) -> None:
        self._refuse("A table of classmates plays one deal: make a new table for another.")

    def finish_bots(self) -> None:
        """Make every bot move there is to make now (as far as the classmates' turns allow)."""
        while self._bots_may_move():
            self._bot_move()
        self._render()

    def next_bot_move(self) -> bool:
        if not self._bots_may_move():
            self._refuse("It is not a bot's turn now.")
            return False
        self._bot_move()
        self._render()
        return True

    def link_state(self) -> dict[str, str]:
        """A table's link holds its code only (never the seed or the moves): see :meth:`_scene_more`."""
        return {"join": self.shared.seat.code}

    # --- drawing -------------------------------------------------------------------------------------------

    def _status(self) -> str:
        waiting = self.shared.waiting_for() if not self._pauses else []
        to_play = self.match.to_play
        if waiting and not self.match.is_over:
            names = " and ".join(self.shared.seats[n].name for n in waiting)
            return f"Waiting for {names} to go on from the last trick."
        if to_play is not None and not self.shared.is_bot(to_play) and to_play != self.seat and not self._pauses:
            name = self.shared.seats[to_play].name
            if not name:
                return f"Waiting for a classmate to join as {self.rules.seat_name(to_play)}: share the code."
            return f"{name} ({self.rules.seat_name(to_play)}) is to play."
        if to_play == self.seat and self.shared.is_bot(self.seat) and not self._pauses:
            return "A bot plays your seat: press “Sit down again” to play it yourself."
        return super()._status()

    def _controls_html(self) -> str:
        """No pace or pause at a table of classmates (the bots keep the table's pace for everyone)."""
        return ""

    def _table_html(self) -> str:
        link = f"{self.page}?{urlencode({'join': self.shared.seat.code})}" if self.page else ""
        return table_seats_html(
            [self.rules.seat_name(n) for n in range(self.rules.players)],
            [(info.kind, info.name) for info in self.shared.seats],
            self.seat,
            self.shared.seat.code,
            link,
        )

    def _again_html(self) -> str:
        """A table of classmates plays one deal: once it is over, the lobby makes another (the
        same game and players), when the page has said where the table app is."""
        if not self.page:
            return ""
        query = urlencode({"game": self.rules.name, "players": self.rules.players})
        return (
            f'<a class="tl-choice tl-link" href="{esc(self.page)}?{esc(query)}" target="_blank" rel="noopener">'
            "Make a new table</a>"
        )

    def _scene_more(self) -> dict[str, Any]:
        return {
            "address": urlencode({"join": self.shared.seat.code}),
            "keep": urlencode({"seat": self.shared.seat.token}),
            "keep_on_device": True,  # a classmate who closed the tab sits down again from the same device
        }

    def close(self) -> None:
        poller = getattr(self, "_poller", None)  # None: closed as it was being made
        if poller is not None:
            poller.stop()
        super().close()


class TableWatcher(Board):
    """The teacher's view of a table of their class session (``code``): the table as one seat
    sees it (the ``show`` picker; the first seat's at first) or, only when the teacher picks it,
    every hand. It follows the table's log every ``poll`` seconds and takes no part in the game."""

    def __init__(
        self,
        session: Session,
        code: str,
        store: ClassStore | None = None,
        *,
        poll: float = POLL,
        four_colour: bool = False,
        large: bool = False,
    ) -> None:
        super().__init__()
        self.store = store if store is not None else open_store()
        self.session = session
        self.code = code
        self.match = Match.from_record(self.store.watch_start(session, code))
        self.seats: tuple[SeatInfo, ...] = ()
        self._look = {"four_colour": four_colour, "large": large}
        rules = self.match.rules
        shows = [(f"{rules.seat_name(n)}'s view", n) for n in range(rules.players)] + [("Every hand", -1)]
        self.show_picker = Picker("show", "Show", shows, 0)
        self.show_picker.on_change(lambda _: self._draw())
        self.use_controls(Controls([[self.show_picker]]))
        self.follow()
        self._draw()
        self._poller = _OnTheLoop(self.follow, poll)

    def follow(self) -> bool:
        """Bring the match up to the table's log; whether anything changed."""
        try:
            poll = self.store.watch_poll(self.session, self.code, len(self.match.actions))
        except TricklabError as exc:
            self.message = str(exc)
            return False
        for text in poll.actions:
            self.match.apply(text)
        changed = bool(poll.actions) or poll.seats != self.seats
        self.seats = poll.seats
        if changed:
            self._draw()
        return changed

    def _draw(self) -> None:
        rules, match = self.match.rules, self.match
        shown = int(self.show_picker.value)
        view = match.view(None if shown < 0 else shown)
        seats = table_seats_html(
            [rules.seat_name(n) for n in range(rules.players)],
            [(info.kind, info.name) for info in self.seats],
            -1,
            self.code,
            "",
        )
        to_play = match.to_play
        if match.is_over:
            status = "The game is over."
        elif to_play is None:
            status = ""
        else:
            name = self.seats[to_play].name if to_play < len(self.seats) else ""
            status = f"{rules.seat_name(to_play)}{f' ({name})' if name else ''} is to play."
        whose = "every hand" if shown < 0 else f"as {rules.seat_name(shown)} sees it"
        self.scene = {
            "html": (
                f'{seats}<p class="tl-caption">Watching table {esc(self.code)}, {whose}: '
                f"{len(match.actions)} moves. {esc(status)}</p>"
                + view_html(rules, view, four_colour=self._look["four_colour"])
                + self._deal_html(None if shown < 0 else shown)
            ),
            "label": f"Watching table {self.code}",
            "large": self._look["large"],
            "step": len(match.actions),
            "address": urlencode({"watch": self.code}),
            "keep": urlencode({"teacher": self.session.teacher_secret}),
        }

    def _deal_html(self, seat: int | None) -> str:
        """The deal so far as ``seat`` lived it (``None``: every hand): its last finished trick
        with why it won (what the classmates' tables hold for them), and every step, newest first."""
        steps = self.match.timeline(seat)
        start = max((s.index for s in steps if s.event.kind == EventKind.DEAL), default=0)
        steps = steps[start:]
        tricks = [s for s in steps if s.event.kind == EventKind.TRICK]
        four = self._look["four_colour"]
        last = (
            '<section class="tl-sheet tl-last-trick" aria-label="Last trick">'
            + finished_trick_html(self.match.rules, tricks[-1].event, four_colour=four, viewer=seat, title="Last trick")
            + "</section>"
            if tricks
            else ""
        )
        items = "".join(f"<li>{esc(s.event.text)}</li>" for s in reversed(steps))
        return (
            f'{last}<details class="tl-history" open><summary>This deal, newest first</summary>'
            f'<ol class="tl-log" reversed tabindex="0" aria-label="What happened this deal">{items}</ol></details>'
        )

    def close(self) -> None:
        poller = getattr(self, "_poller", None)
        if poller is not None:
            poller.stop()
        super().close()


#: who may sit at a seat other than one's own, as the lobby offers it: (label, value)
SEAT_CHOICES = (("A classmate", PLAYER), ("A bot", "heuristic"), ("A bot that plays at random", "random"))
#: how long a finished trick stays on every classmate's table, as the lobby offers it: (label, seconds)
HOLD_CHOICES = (("until everyone goes on", None), ("5 seconds", 5), ("10 seconds", 10))
#: the most seats a game has (a picker for each seat but the maker's)
MOST_SEATS = max(max(cls.player_counts) for cls in GAMES.values())
#: every yes/no variant a game declares: the lobby has a toggle for each, shown for the games that have it
VARIANTS = tuple(dict.fromkeys(name for cls in GAMES.values() for name in cls.capabilities.variants))


class TableLobby(Board):
    """Make a table of classmates (the game, how many players, its variants, who sits at each other
    seat, one's name) or join one with its code; then the table itself (:class:`SharedPlayTable`) is
    ``table``, and ``on_seated`` is called with it (the table app shows it in the lobby's place).

    ``join`` is a code typed in (from the app's ``?join=`` link); with ``recall`` the page is asked
    first for the seat it kept (a reload): the same seat is taken again when it is at that table.
    ``variants`` are switched on at first (a link's, or the play app's)."""

    def __init__(
        self,
        store: TableStore | None = None,
        *,
        join: str = "",
        recall: bool = False,
        on_seated: Callable[[SharedPlayTable], object] | None = None,
        poll: float = POLL,
        pace: float = 0.8,
        game: str = "",
        players: int | None = None,
        variants: Collection[str] = (),
        class_code: str = "",
        four_colour: bool = False,
        large: bool = False,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__()
        self.class_code = "".join(class_code.split()).upper()[:20] if isinstance(class_code, str) else ""
        self.store = store if store is not None else open_table_store()
        self.table: SharedPlayTable | None = None
        self.page = ""
        self._on_seated = on_seated
        self._poll = poll
        self._pace = pace
        self._look = {"four_colour": four_colour, "large": large}
        self._clock = clock
        self._join = "".join(join.split()).upper()[:20] if isinstance(join, str) else ""
        self._recalling = recall and bool(self._join)  # a seat is kept for the table whose code is given
        first = game if game in GAMES else next(iter(GAMES))
        self._players = players
        self.game_picker = Picker("game", "Game", [(cls.title, name) for name, cls in GAMES.items()], first)
        self.players_picker = Picker("players", "Players", [("4", 4)], 4)
        self.seat_pickers = [
            Picker(f"seat{n + 1}", f"Player {n + 1}", SEAT_CHOICES, PLAYER if n == 1 else "heuristic")
            for n in range(1, MOST_SEATS)
        ]
        self.name_entry = TextEntry("name", "Your name", placeholder="how classmates will see you", max_length=40)
        self.variant_toggles = {
            name: Toggle(name, name.replace("_", " ").capitalize(), value=name in variants) for name in VARIANTS
        }
        self.hold_picker = Picker("hold", "A finished trick stays", HOLD_CHOICES, None)
        self.make_button = Button("make", "Make the table", primary=True)
        self.code_entry = TextEntry("code", "Table code", value=self._join, placeholder="6 letters and digits")
        self.join_button = Button("join", "Join the table", primary=True)
        self.game_picker.on_change(lambda _: self._game_changed())
        self.players_picker.on_change(lambda _: self._draw())
        self.make_button.on_click(lambda: self._try(self.make))
        self.join_button.on_click(lambda: self._try(self.join))
        self.use_controls(
            Controls(
                [
                    [self.name_entry],
                    [self.code_entry, self.join_button],
                    [self.game_picker, self.players_picker, *self.variant_toggles.values()],
                    list(self.seat_pickers),
                    [self.hold_picker, self.make_button],
                ]
            )
        )
        self.on_intent(self._intent)
        self._game_changed()

    def make(self) -> SharedPlayTable:
        """Make a table of the chosen game, players and seats, and sit at its first seat."""
        cls = find_game(str(self.game_picker.value))
        players = int(self.players_picker.value)
        seats = [PLAYER] + [str(p.value) for p in self.seat_pickers[: players - 1]]
        hold = self.hold_picker.value
        chosen = [name for name, toggle in self.variant_toggles.items() if toggle.value]
        options: dict[str, object] = {name: True for name in chosen if name in cls.capabilities.variants}
        seat = self.store.new_table(
            cls.name, players, options, seats, self._name(), now=self._clock(), hold=hold, class_code=self.class_code
        )
        return self._sit(seat)

    def join(self) -> SharedPlayTable:
        """Join the table whose code is typed in, at its first free classmate's seat."""
        seat = self.store.join_table(str(self.code_entry.value), self._name(), now=self._clock(), who=client())
        return self._sit(seat)

    def _name(self) -> str:
        return str(self.name_entry.value)

    def _sit(self, seat: TableSeat) -> SharedPlayTable:
        table = SharedPlayTable(seat, self.store, poll=self._poll, pace=self._pace, **self._look)
        table.page = self.page
        table._render()
        self.table = table
        self.message = ""
        if self._on_seated is not None:
            self._on_seated(table)
        self._draw()
        return table

    def _try(self, action: Callable[[], object]) -> None:
        try:
            action()
        except TricklabError as exc:
            self.message = str(exc)
            self._draw()

    def _game_changed(self) -> None:
        cls = find_game(str(self.game_picker.value))
        counts = [(str(n), n) for n in cls.player_counts]
        wanted, self._players = self._players, None  # the link's count, the first time only
        self.players_picker.set_options(counts, wanted if wanted in cls.player_counts else default_players(cls))
        self._draw()

    def _recall(self, kept: str) -> None:
        """The page sent the seat it kept: sit there again if it is at the table of the code given."""
        if not self._recalling:
            return
        self._recalling = False
        token = parse_qs(kept[:500]).get("seat", [""])[0]
        if token:
            try:
                seat = self.store.table_seat(token)
            except TricklabError:
                seat = None
            if seat is not None and self._join and seat.code == self._join:
                self._sit(seat)
                return
        self._draw()

    def _intent(self, intent: str, value: str | None) -> None:
        if intent == PAGE and isinstance(value, str):
            parts = urlsplit(value) if len(value) <= 500 else None
            if parts is not None and parts.scheme in ("http", "https") and parts.netloc:
                self.page = f"{parts.scheme}://{parts.netloc}{parts.path}"
        elif intent == RECALL and isinstance(value, str):
            self._recall(value)

    def _draw(self) -> None:
        seated = self.table is not None
        players = int(self.players_picker.value)
        joining = bool(self._join)
        for n, picker in enumerate(self.seat_pickers, start=1):
            picker.hidden = seated or joining or n >= players
        making: list[Control] = [self.game_picker, self.players_picker, self.hold_picker, self.make_button]
        for control in making:
            control.hidden = seated or joining
        offered = find_game(str(self.game_picker.value)).capabilities.variants
        for name, toggle in self.variant_toggles.items():
            toggle.hidden = seated or joining or name not in offered
        for control in (self.code_entry, self.join_button):
            control.hidden = seated
        self.name_entry.hidden = seated
        if self._recalling:
            html = '<p class="tl-summary" role="status">Finding your seat…</p>'
            hidden = [*self.seat_pickers, *making, *self.variant_toggles.values(), self.code_entry, self.join_button]
            for control in [*hidden, self.name_entry]:
                control.hidden = True
        elif seated:
            html = '<p class="tl-summary">You are at the table.</p>'
        elif joining:
            html = f'<p class="tl-summary">Join table {esc(self._join)}: give your name, then press Join.</p>'
        else:
            html = (
                '<p class="tl-summary">Play with classmates: make a table and share its code, or join a '
                "classmate's table with theirs. Seats nobody takes are played by bots.</p>"
            )
            if self.class_code:
                html += (
                    f'<p class="tl-summary">A table you make is in class {esc(self.class_code)}: '
                    "your teacher may watch it.</p>"
                )
        self.scene = {"html": html, "label": "A table of classmates", "read_page": True, "recall": self._recalling}


__all__ = [
    "HOLD_CHOICES",
    "MOST_SEATS",
    "POLL",
    "SEAT_CHOICES",
    "STAND_IN_AFTER",
    "VARIANTS",
    "SharedPlayTable",
    "TableLobby",
    "TableWatcher",
]
