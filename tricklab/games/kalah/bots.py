"""Kalah bots: a heuristic player and a searching one.

Both read only the seat's view (Kalah hides nothing, so the view holds the whole board) and
see where a move ends by the core's own :meth:`~tricklab.games.kalah.Kalah.core_step` on a
copy of the position: the sowing is never worked out here a second time.

* :class:`HeuristicBot` plays by four rules of thumb, in order: a move whose last stone falls
  into its own store (an extra turn; the pit nearest the store first, so the pits further back
  can still reach the store afterwards), else the move that captures most, else a move that
  leaves the opponent the least to capture, else the move keeping the most stones on its side.
* :class:`SearchBot` looks ahead: alpha-beta (negamax) over ``core_legal``/``core_step``,
  valuing a position by the own store minus the opponent's (at the end the rules sweep the
  stones left on each side into the stores, so an ended game counts them), an extra turn
  keeping the same side to move. It deepens move by move within a time budget, or searches a
  fixed depth (then it is deterministic), trying extra-turn moves first.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Protocol

from ...actions import Action, Sow
from ...bots import FIRST_LISTED, Decision, first_listed
from ...explain import Reason, plural
from ..core import Facts
from .rules import PITS, Captured, Kalah, KalahState, MovedAgain, Phase, store_of

# the rules of thumb (each decision names the one that chose)
AGAIN = "bot.kalah.again"  # the last stone into the own store: move again
CAPTURE = "bot.kalah.capture"  # the largest capture
GUARD = "bot.kalah.guard"  # leave the opponent the least to capture
KEEP = "bot.kalah.keep"  # keep the most stones on the own side
SEARCH = "bot.kalah.search"  # the best move found by looking ahead


class SeatView(Protocol):
    """What the bots read of a view: :class:`~tricklab.games.kalah.KalahView` has it (and so
    does :class:`~tricklab.games.kalah.KalahState`)."""

    @property
    def phase(self) -> Phase: ...
    @property
    def to_play(self) -> int | None: ...
    @property
    def pits(self) -> tuple[int, ...]: ...


def _position(view: SeatView) -> KalahState:
    """A copy of the position the view shows, for the core to step."""
    return KalahState(0, view.phase, view.to_play, tuple(view.pits))


def _side_stones(pits: tuple[int, ...], seat: int) -> int:
    start = seat * (PITS + 1)
    return sum(pits[start : start + PITS])


def _ids(rules: Kalah, legal_actions: Sequence[Action]) -> list[int | None]:
    return [rules.action_id(a) for a in legal_actions]


class _Outcome:
    """Where one move ends, as the core steps it: whether it moves again, what it captures,
    the stones it keeps on the mover's side, and the most the opponent could capture next."""

    __slots__ = ("action", "again", "captured", "kept", "threat")

    def __init__(self, action: int, again: bool, captured: int, kept: int, threat: int) -> None:
        self.action, self.again, self.captured, self.kept, self.threat = action, again, captured, kept, threat


class HeuristicBot:
    """The Kalah heuristic bot of one seat: :meth:`choose` plays, :meth:`decide` says why (the
    same decision), :meth:`choose_id` is the same on the core's action ids. ``seed`` is taken
    for the bots' common signature; the bot's choices do not depend on it."""

    def __init__(self, rules: Kalah, seat: int, seed: int | str = 0) -> None:
        self.rules = rules
        self.seat = seat

    def __repr__(self) -> str:
        return f"{self.rules.name} HeuristicBot(seat={self.seat})"

    def choose(self, view: SeatView, legal_actions: Sequence[Action]) -> Action:
        return self._decision(view, legal_actions)[0]

    def decide(self, view: SeatView, legal_actions: Sequence[Action]) -> Decision:
        """The action :meth:`choose` takes (the same code decides) and why: the rule that limits
        the choice (``rules.explain_choice``), then the bot's rule of thumb (``bot.kalah.*``)."""
        action, tag, outcomes = self._decision(view, legal_actions)
        limit = self.rules.explain_choice(view, self.seat)  # type: ignore[arg-type]
        return Decision(action, (limit, self._why(tag, action, outcomes)))

    def choose_id(self, view: SeatView, legal_ids: Sequence[int]) -> int:
        """The decision as an action id (``k`` sows pit ``k + 1``), from the seat's view and the
        ids the core lists."""
        return self._choice(view, legal_ids)[0]

    def _decision(self, view: SeatView, legal_actions: Sequence[Action]) -> tuple[Action, str, list[_Outcome]]:
        ids = _ids(self.rules, legal_actions)
        known = [i for i in ids if i is not None]
        if not known or view.to_play is None:
            return legal_actions[0], FIRST_LISTED, []
        chosen, tag, outcomes = self._choice(view, known)
        return legal_actions[ids.index(chosen)], tag, outcomes

    # --- the decision -----------------------------------------------------------------------

    def outcome(self, state: KalahState, action: int) -> tuple[KalahState, bool, int]:
        """The core's step of ``action`` from ``state``: the state after it, whether the mover
        moves again, and the stones the move captured (the last stone included)."""
        facts: Facts = []
        after = self.rules.core_step(state, action, facts)
        again = any(isinstance(f, MovedAgain) for f, _ in facts)
        captured = sum(f.stones + 1 for f, _ in facts if isinstance(f, Captured))
        return after, again, captured

    def _threat(self, after: KalahState, mover: int) -> int:
        """The most the opponent of ``mover`` could capture with one move from ``after``."""
        if after.to_play is None or after.to_play == mover:
            return 0
        return max((self.outcome(after, a)[2] for a in self.rules.core_legal(after)), default=0)

    def _choice(self, view: SeatView, legal_ids: Sequence[int]) -> tuple[int, str, list[_Outcome]]:
        """The decision as an action id, the rule of thumb that made it, and what each move
        does (for the reason)."""
        mover = view.to_play
        if mover is None:
            return legal_ids[0], FIRST_LISTED, []
        state = _position(view)
        outcomes: list[_Outcome] = []
        for a in legal_ids:
            after, again, captured = self.outcome(state, a)
            outcomes.append(_Outcome(a, again, captured, _side_stones(after.pits, mover), 0))
        agains = [o for o in outcomes if o.again]
        if agains:  # the pit nearest the store: the others may still reach it afterwards
            return max(o.action for o in agains), AGAIN, outcomes
        best_capture = max(o.captured for o in outcomes)
        if best_capture:
            return (
                max((o for o in outcomes if o.captured == best_capture), key=lambda o: o.action).action,
                CAPTURE,
                outcomes,
            )
        for o in outcomes:
            o.threat = self._threat(self.rules.core_step(state, o.action), mover)
        least = min(o.threat for o in outcomes)
        safe = [o for o in outcomes if o.threat == least]
        chosen = max(safe, key=lambda o: (o.kept, o.action)).action
        if len(safe) < len(outcomes):
            return chosen, GUARD, outcomes
        return chosen, KEEP, outcomes

    # --- the reasons ---------------------------------------------------------------------------

    @staticmethod
    def _why(tag: str, action: Action, outcomes: list[_Outcome]) -> Reason:
        """The rule of thumb ``tag`` in words, for the move ``action``."""
        if tag == FIRST_LISTED:
            return first_listed()
        pit = action.pit if isinstance(action, Sow) else 0
        mine = next(o for o in outcomes if o.action == pit - 1)
        if tag == AGAIN:
            return Reason(
                tag,
                f"Sowing pit {pit} drops its last stone into your own store, so you move again. Of such moves, "
                "take the one nearest your store first: the pits further back can still reach the store afterwards.",
            )
        if tag == CAPTURE:
            return Reason(
                tag,
                f"No move gives you an extra turn. Sowing pit {pit} ends in an empty pit of yours with stones across: "
                f"you capture them with your last stone, {plural(mine.captured, 'stone')} into your store, "
                "the most any move takes.",
            )
        worst = max(o.threat for o in outcomes)
        if tag == GUARD:
            left = (
                "leaves your opponent nothing to capture"
                if mine.threat == 0
                else f"leaves your opponent at most {plural(mine.threat, 'stone')} to capture"
            )
            return Reason(
                tag,
                f"No move gives you an extra turn or a capture. Sowing pit {pit} {left}; another move would let "
                f"them take up to {plural(worst, 'stone')}. Of the safest moves, it keeps the most stones on your "
                "side.",
            )
        return Reason(
            tag,
            f"No move gives you an extra turn or a capture, and none changes what your opponent could capture. "
            f"Sowing pit {pit} keeps the most stones on your side ({mine.kept}): the stones on your side "
            "are yours when the game ends.",
        )


def _ended(state: KalahState, seat: int) -> int:
    """An ended game's value for ``seat``: its store minus the other's (every stone is stored)."""
    pits = state.pits
    return pits[store_of(seat)] - pits[store_of(1 - seat)]


class _OutOfTime(Exception):
    """The time budget ran out in the middle of a search."""


#: seconds of search a decision may take by default: with the check of the clock every 256
#: positions and the unwinding, the answer comes within 0.2 s (``benchmarks/kalah.py`` measures it)
BUDGET = 0.18


_INF = 1 << 20
_MAX_DEPTH = 60


class SearchBot:
    """A Kalah bot that looks ahead: alpha-beta (negamax) over the core's moves.

    A position is worth the mover's store minus the opponent's store (an ended game's stores
    hold the stones the rules swept). A move that moves again keeps the same side to move; every
    sowing counts one move of depth. With ``depth`` given the bot searches exactly that many
    moves ahead (deterministic); otherwise it deepens one move at a time while ``budget``
    seconds last, keeping the last depth it finished. :attr:`reached` is the depth of the last
    decision."""

    def __init__(
        self, rules: Kalah, seat: int, seed: int | str = 0, depth: int | None = None, budget: float = BUDGET
    ) -> None:
        self.rules = rules
        self.seat = seat
        self.depth = depth
        self.budget = budget
        self.reached = 0
        self.complete = False  # the last search saw every line to the end of the game
        self._deadline = 0.0
        self._nodes = 0
        self._cut = False  # some line stopped at the depth limit before the end
        self._last_order: tuple[int, ...] = ()  # the root moves of the last search, best first

    def __repr__(self) -> str:
        return f"{self.rules.name} SearchBot(seat={self.seat}, depth={self.depth})"

    def choose(self, view: SeatView, legal_actions: Sequence[Action]) -> Action:
        return self._decision(view, legal_actions)[0]

    def choose_id(self, view: SeatView, legal_ids: Sequence[int]) -> int:
        """The decision as an action id (``k`` sows pit ``k + 1``)."""
        return self._best(_position(view), legal_ids)[0]

    def decide(self, view: SeatView, legal_actions: Sequence[Action]) -> Decision:
        """The action :meth:`choose` takes and why: the rule that limits the choice, then how far
        the bot looked and what the move is worth there (``bot.kalah.search``). With a fixed
        ``depth`` it is exactly :meth:`choose`'s move; with a time budget each call searches
        anew and may reach another depth."""
        action, value = self._decision(view, legal_actions)
        limit = self.rules.explain_choice(view, self.seat)  # type: ignore[arg-type]
        if value is None:
            return Decision(action, (limit, first_listed()))
        pit = action.pit if isinstance(action, Sow) else 0
        if value > 0:
            standing = f"keeps you {plural(value, 'stone')} ahead"
        elif value < 0:
            standing = f"leaves you only {plural(-value, 'stone')} behind, the best you can do"
        else:
            standing = "keeps the stores level"
        if self.complete:
            if value > 0:
                standing = f"wins by {plural(value, 'stone')}"
            elif value < 0:
                standing = f"loses by only {plural(-value, 'stone')}, the best you can do"
            else:
                standing = "draws"
            ahead = "Searching to the end of the game"
        else:
            ahead = f"Searching {plural(self.reached, 'move')} ahead"
        text = (
            f"{ahead}, sowing pit {pit} {standing}, if both players then make their best moves "
            "(counting the stones in the stores)."
        )
        return Decision(action, (limit, Reason(SEARCH, text)))

    def values(self, view: SeatView) -> dict[Action, int]:
        """Every legal move's searched value (own store minus the opponent's, for the mover) at
        the depth reached: the fixed ``depth``, or as deep as the budget allows."""
        state = _position(view)
        legal = tuple(self.rules.core_legal(state))
        if not legal:
            return {}
        found = self._deepen(state, legal, exact=True)[1]
        return {self.rules.actions[a]: v for a, v in found.items()}

    # --- the search -------------------------------------------------------------------------

    def _decision(self, view: SeatView, legal_actions: Sequence[Action]) -> tuple[Action, int | None]:
        ids = _ids(self.rules, legal_actions)
        known = [i for i in ids if i is not None]
        if not known or view.to_play is None:
            return legal_actions[0], None
        chosen, value = self._best(_position(view), known)
        return legal_actions[ids.index(chosen)], value

    def _best(self, state: KalahState, legal: Sequence[int]) -> tuple[int, int]:
        found = self._deepen(state, tuple(legal), exact=False)[1]
        best = max(found.values())
        order = self._last_order
        return next(a for a in order if found[a] == best), best

    def _deepen(self, state: KalahState, legal: tuple[int, ...], exact: bool) -> tuple[int, dict[int, int]]:
        """The depth searched and each root move's value there (exact values with ``exact``;
        otherwise only the best move's value is exact, the others are upper bounds)."""
        self._nodes = 0
        if self.depth is not None:
            self._deadline = float("inf")
            self._cut = False
            order, found = self._root(state, legal, max(1, self.depth), exact)
            self._last_order, self.reached, self.complete = order, max(1, self.depth), not self._cut
            return self.reached, found
        self._deadline = time.perf_counter() + self.budget
        result: tuple[tuple[int, ...], dict[int, int]] | None = None
        depth = 0
        complete = False
        order = legal
        for d in range(1, _MAX_DEPTH + 1):
            self._cut = False
            try:
                result = self._root(state, order, d, exact)
            except _OutOfTime:
                break
            depth = d
            order = result[0]
            complete = not self._cut
            if complete:
                break
        if result is None:  # not even depth 1 in time: finish it anyway
            self._deadline = float("inf")
            result = self._root(state, legal, 1, exact)
            depth, complete = 1, not self._cut
        self._last_order, self.reached, self.complete = result[0], depth, complete
        return depth, result[1]

    def _root(
        self, state: KalahState, legal: tuple[int, ...], depth: int, exact: bool
    ) -> tuple[tuple[int, ...], dict[int, int]]:
        """Search each root move ``depth`` moves deep (the move itself the first): the moves
        ordered best first, for the next depth, and their values."""
        mover = state.to_play
        assert mover is not None
        step = self.rules.core_step
        children = [(a, step(state, a)) for a in legal]
        alpha = -_INF
        found: dict[int, int] = {}
        for a, child in children:
            lower = -_INF if exact else alpha
            if child.to_play is None:
                v = _ended(child, mover)
            elif child.to_play == mover:
                v = self._negamax(child, depth - 1, lower, _INF)
            else:
                v = -self._negamax(child, depth - 1, -_INF, -lower)
            found[a] = v
            if v > alpha:
                alpha = v
        # best first; equal values keep the order they were searched in (the last depth's best first)
        order = tuple(sorted(found, key=lambda a: -found[a]))
        return order, found

    def _negamax(self, state: KalahState, depth: int, alpha: int, beta: int) -> int:
        """The value of ``state`` for the side to move, searched ``depth`` moves deep, within the
        window (``alpha``, ``beta``) (fail-hard: a value outside it is clamped to the bound)."""
        mover = state.to_play
        assert mover is not None, "an ended game is valued by the move that ended it"
        pits = state.pits
        own, their = store_of(mover), store_of(1 - mover)
        if depth <= 0:
            self._cut = True
            return pits[own] - pits[their]
        self._nodes += 1
        if not self._nodes & 255 and time.perf_counter() > self._deadline:
            raise _OutOfTime
        rules = self.rules
        step = rules.core_step
        agains: list[KalahState] = []
        others: list[KalahState] = []
        for a in rules.core_legal(state):
            child = step(state, a)
            if child.to_play == mover:
                agains.append(child)
            else:
                others.append(child)
        for child in agains:  # extra turns first: often the best, and they keep the same side to move
            v = self._negamax(child, depth - 1, alpha, beta)
            if v >= beta:
                return beta
            if v > alpha:
                alpha = v
        # then the moves that gain most at once (captures), by the store after them
        others.sort(key=lambda c: c.pits[their] - c.pits[own])
        for child in others:
            if child.to_play is None:  # the game is over: the stores hold every stone
                v = child.pits[own] - child.pits[their]
            else:
                v = -self._negamax(child, depth - 1, -beta, -alpha)
            if v >= beta:
                return beta
            if v > alpha:
                alpha = v
        return alpha
