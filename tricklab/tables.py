"""A table of classmates, as one seat's kernel holds it: a match whose actions are the class
store's append-only log (:meth:`tricklab.store.Store.table_append`).

There is no leader. Every kernel at the table follows the log with the engine
(:meth:`SharedTable.follow`), checks its own seat's decision with the engine and appends it under
the next number (:meth:`SharedTable.act`); when two kernels try the same number, the store keeps
one and the other learns it lost, follows the log and thinks again. Bots are deterministic given
the table's seed and the actions before (:func:`tricklab.bots.table_bot`), so any kernel may
append a bot's move: whichever does it first wins, and the others find the same move there.

A finished trick (or round) stays on every classmate's table until each has gone on from it
(:meth:`SharedTable.went_on`): the next action waits for them (:meth:`SharedTable.waiting_for`).

The seed and the other seats' choices are in this kernel (it checks actions with the engine); a
seat's page is only ever given its own seat's view.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .actions import Action
from .bots import table_bot
from .errors import InvalidOption, TricklabError, describe
from .games.base import EventKind, Rules
from .match import Match
from .store import PLAYER, SeatInfo, TableSeat, TableStore

#: the event kinds after which a table holds what it shows until every classmate has gone on
HOLDS = (EventKind.TRICK, EventKind.SCORE, EventKind.ROUND_END)


class TableWaits(TricklabError):
    """The table waits for a classmate to go on from the last finished trick or round first."""


class SharedTable:
    """One seat's hold on a table of classmates in ``store`` (a :class:`~tricklab.store.Store`:
    see :class:`~tricklab.store.TableStore` for where it may run); ``clock`` stamps its actions."""

    def __init__(self, store: TableStore, seat: TableSeat, clock: Callable[[], float] = time.time) -> None:
        if not isinstance(seat, TableSeat):
            raise InvalidOption(f"a shared table is held from a seat (store.join_table), not {describe(seat)}")
        self.store = store
        self.seat = seat
        self._clock = clock
        self.match = Match.from_record(store.table_start(seat))
        self.seats: tuple[SeatInfo, ...] = ()
        self.follow()

    @property
    def rules(self) -> Rules[Any]:
        return self.match.rules

    def follow(self) -> int:
        """Bring the match up to the log (each action checked by the engine) and read the seats;
        how many actions were new."""
        poll = self.store.table_poll(self.seat, len(self.match.actions))
        for text in poll.actions:
            self.match.apply(text)
        self.seats = poll.seats
        return len(poll.actions)

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays ``seat`` now (a seat kept for a classmate is not a bot's, even empty)."""
        return self.seats[seat].kind != PLAYER

    @property
    def my_turn(self) -> bool:
        return self.match.to_play == self.seat.seat and not self.is_bot(self.seat.seat)

    def holds(self) -> int:
        """How many actions the table's last hold came after: the number of actions when its last
        finished trick or round was (0: none yet)."""
        for step in reversed(self.match.timeline()):
            if step.event.kind in HOLDS:
                return step.decisions
        return 0

    def waiting_for(self) -> list[int]:
        """The classmates' seats that have not gone on from the last finished trick or round: the
        table's next action waits for them (a seat a bot plays does not hold the table)."""
        held = self.holds()
        return [n for n, info in enumerate(self.seats) if info.kind == PLAYER and info.name and info.seen < held]

    def went_on(self) -> None:
        """This seat's classmate has gone on from everything the table has shown so far."""
        count = len(self.match.actions)
        if self.seats[self.seat.seat].seen < count:
            self.store.table_seen(self.seat, count)
            self.follow()

    def act(self, action: Action | str) -> bool:
        """Take this seat's decision: checked by the engine (an illegal one raises its
        :class:`~tricklab.errors.IllegalAction`, and nothing is written), then appended as the
        log's next action. ``False``: another kernel's action came first; the match has
        followed the log, so look again before deciding."""
        trial = self.match.copy()
        trial.apply(action)
        self.went_on()  # deciding is going on from what the table showed
        self._check_waits()
        return self._append(str(trial.actions[-1]))

    def _check_waits(self) -> None:
        waiting = self.waiting_for()
        if waiting:
            names = " and ".join(self.seats[n].name for n in waiting)
            raise TableWaits(f"the table waits for {names} to go on from the last trick first")

    def bot_action(self) -> Action | None:
        """The move of the bot whose turn it is (``None``: it is no bot's turn)."""
        seat = self.match.to_play
        if seat is None or not self.is_bot(seat):
            return None
        bot = table_bot(self.rules, seat, self.match.seed, len(self.match.actions), self.seats[seat].kind)
        return bot.choose(self.match.view(seat), self.match.legal_actions())

    def play_bot(self) -> bool:
        """Append the move of the bot whose turn it is, unless another kernel did; whether there
        was a bot's move to make now (the match has it either way; none while the table waits for a
        classmate to go on)."""
        action = self.bot_action()
        if action is None or self.waiting_for():
            return False
        self._append(str(action))
        return True

    def _append(self, text: str) -> bool:
        number = len(self.match.actions)
        landed = self.store.table_append(self.seat, number, text, now=self._clock())
        self.follow()
        return landed

    def __repr__(self) -> str:
        return f"SharedTable({self.rules.title}, seat {self.seat.seat + 1}, {len(self.match.actions)} actions)"


__all__ = ["HOLDS", "SharedTable", "TableWaits"]
