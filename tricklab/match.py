"""Matches: a seed plus a list of actions, every state derived by replaying them.

:class:`Match` is the one mechanism behind step-through, undo, saving, sharing and
replay tests. It holds frozen states, one per decision; the game's ``Rules.apply``
checks each action and never changes a state in place.

For a game written as a round (``rules.core_round``: its rules as one generator that yields at
each decision) the match drives the round itself: each action is checked against the ids the
round lists and sent to it, and the frozen state of a decision is packed only when asked for
(``match.state``, ``match.states``, a timeline, an undo), from the running round or, for a decision
already passed, by stepping the core from the last state packed before it. The states are the
same either way (the contract suite compares a live round's states with the core's steps).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .errors import IllegalAction, InvalidOption, RecordError, TricklabError, describe
from .games.base import Event, GameState, MatchResult, Rules, SeatView, Word, check_seed, game_named, quote_names
from .games.core import PACK, CoreRules, HandChoices, ListedActions, LiveRound, Round

RECORD_FORMAT = "tricklab-match"
RECORD_VERSION = 1


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a match's timeline: the event and the state right after it.

    ``decisions`` is how many actions had been applied when the step happened. In a seat's
    timeline (``match.timeline(seat)``) ``state`` is that seat's view of the state and the
    event is told as that seat may see it.
    """

    index: int
    event: Event
    state: Any  # the game's state, or a seat's view of it: each game has its own types
    decisions: int

    @property
    def text(self) -> str:
        return self.event.text


class Match:
    """A match of one game: ``rules``, ``seed``, match options and the actions so far."""

    def __init__(
        self,
        rules: Rules[Any],
        seed: int = 0,
        *,
        match_options: Mapping[str, Any] | None = None,
        actions: Iterable[Action | str] = (),
    ) -> None:
        if not isinstance(rules, Rules):
            raise InvalidOption(f"a match needs a game's rules, like tricklab.get_rules(...), not {describe(rules)}")
        if not isinstance(actions, Iterable) or isinstance(actions, (str, bytes, Mapping)):
            raise InvalidOption(
                f"actions must be a list of actions or action texts, like ['predict 2'], not {describe(actions)}"
            )
        self.rules = rules
        self.seed = check_seed(seed)
        self.match_options: dict[str, Any] = rules.check_match_options(match_options)
        # the state after each decision: None where it was not packed yet (a game written as a round)
        self._states: list[GameState | None] = [rules.initial_state(self.seed, **self.match_options)]
        self._actions: list[Action] = []
        self._timeline: list[Step] | None = None
        self._seat_timelines: dict[int, list[Step]] = {}
        self._start(rules)
        for action in actions:
            self.apply(action)

    def _start(self, rules: Rules[Any]) -> None:
        """How this match steps: on the game's round (``self._core``, ``self._ids``: the id of each
        action; ``self._round``: the round at the next decision, started when first needed), on
        the core's steps (``self._live``), or through ``rules.apply``."""
        core = rules if isinstance(rules, CoreRules) else None
        self._core: CoreRules[Any] | None = None
        self._objects: dict[int, int] = {}  # the core's listed_objects
        self._live: LiveRound[Any] | None = None
        if core is not None and type(core).core_round is not CoreRules.core_round:
            self._core = core
            self._objects = core.listed_objects()
        elif core is not None:
            self._live = LiveRound(core)
        self._ids: list[int] = []
        self._round: Round[Any] | None = None
        self._to_play: int | None = None
        self._listed: Sequence[int] = ()

    def _at_decision(self) -> Round[Any] | None:
        """The round standing at the next decision (started from the last state if it is not
        running), or ``None`` when the match is over."""
        round_ = self._round
        if round_ is None:
            core = self._core
            assert core is not None, "only a game written as a round has one"
            state = self._state_at(len(self._states) - 1)
            if state.to_play is None:
                return None
            round_ = core.core_round(state, None)
            assert round_ is not None, "a game written as a round starts one from any decision"
            self._to_play, self._listed = next(round_)  # a round's first yield is a decision
            self._round = round_
        return round_

    def _state_at(self, n: int) -> GameState:
        """The state after ``n`` decisions, packed now if it was not yet: by the running round
        for the last one, else stepped by the core from the last state packed before it."""
        states = self._states
        state = states[n]
        if state is not None:
            return state
        if n == len(states) - 1 and self._round is not None:
            packed: GameState = self._round.send(PACK)  # type: ignore[assignment]  # a round at a decision yields its state when sent PACK
            states[n] = packed
            return packed
        core = self._core
        assert core is not None, "states are left unpacked only on a round"
        k = n
        while states[k] is None:
            k -= 1
        state = states[k]
        for i in range(k + 1, n + 1):
            state = states[i] = core.core_step(state, self._ids[i - 1])
        assert state is not None
        return state

    # --- state ------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        states = self._states
        state = states[-1]
        return state if state is not None else self._state_at(len(states) - 1)

    @property
    def states(self) -> tuple[GameState, ...]:
        """The state before any decision, then the state after each decision."""
        return tuple(self._state_at(n) for n in range(len(self._states)))

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def phase(self) -> Word:
        """The game's phase (a ``StrEnum`` of the game: ``match.phase == "play"``)."""
        return self.state.phase

    @property
    def to_play(self) -> int | None:
        if self._round is not None:
            return self._to_play
        return self.state.to_play

    @property
    def is_over(self) -> bool:
        return self._round is None and self.state.to_play is None  # a running round is at a decision

    @property
    def result(self) -> MatchResult | None:
        return self.rules.result(self.state)

    def legal_actions(self) -> Sequence[Action]:
        """The actions the rules allow now, in the game's order: a list, or for a choice among
        very many (Hearts' 286 passes) a sequence that lists one when it is taken."""
        core = self._core
        if core is not None:
            if self._round is None and self._at_decision() is None:
                return []
            ids = self._listed
            if type(ids) is tuple:  # the round's few listed ids (not HandChoices)
                return list(map(core.actions.__getitem__, ids))
        elif self._live is not None:
            core = self._live.rules
            ids = self._live.legal(self.state)
        else:
            return self.rules.legal_actions(self.state)
        if type(ids) is HandChoices:
            return ListedActions(core.actions, ids, core._action_ids)
        return list(map(core.actions.__getitem__, ids))

    def view(self, seat: int | None = None) -> SeatView:
        """What ``seat`` may see; ``None`` gives the teacher's view (every hand)."""
        return self.rules.view(self.state, seat)

    # --- changes ------------------------------------------------------------------------------

    def apply(self, action: Action | str) -> None:
        """Apply one checked action (an Action or its text form, like ``"play QS"``).

        Raises :class:`IllegalAction` naming the rule; then nothing changed.
        """
        core = self._core
        if core is not None:
            round_ = self._round
            if round_ is not None:  # the hot path: an action legal_actions listed, sent to the round
                a = self._objects.get(id(action))
                if a is not None and core.actions[a] is action and a in self._listed:
                    self._send(core, round_, a)
                    return
            self._apply_to_round(core, action)
            return
        rules = self.rules
        state = self.state
        live = self._live
        if live is not None:
            # raises IllegalAction unless the core lists it
            listed = live.rules.listed_action_id(state, action, live.legal(state))
            self._states.append(live.step(state, listed))
            # the listed spelling: "place 2 1" is recorded as "place 1 2"
            self._actions.append(live.rules.actions[listed])
            return
        parsed = rules.parse_action(action)
        self._states.append(rules.apply(state, parsed))
        self._actions.append(rules.canonical_action(state, parsed))

    def _apply_to_round(self, core: CoreRules[Any], action: Action | str) -> None:
        """:meth:`apply` on a game written as a round: checked against the ids it lists, then sent."""
        round_ = self._round or self._at_decision()
        a = core.quick_listed_id(action, self._listed) if round_ is not None else None
        if a is None:  # text, another spelling, or an action not listed: read, then explained if refused
            state = self.state
            parsed = core.parse_action(action)
            a = core.quick_listed_id(parsed, self._listed) if round_ is not None else None
            if a is None:
                a = core.listed_id(state, parsed)  # IllegalAction unless the rules list it
        assert round_ is not None, "a listed action has a round to go to"
        self._send(core, round_, a)

    def _send(self, core: CoreRules[Any], round_: Round[Any], a: int) -> None:
        """Make the listed action ``a``: sent to the round, which stands at the next decision
        (or returns the state at the match's end)."""
        self._round = None  # if anything below raises, the next step starts afresh from the states kept
        try:
            self._to_play, self._listed = round_.send(a)  # a decision is yielded
        except StopIteration as end:
            self._states.append(end.value)
        else:
            self._states.append(None)
            self._round = round_
        self._ids.append(a)
        self._actions.append(core.actions[a])  # the listed spelling

    def undo(self) -> Action:
        """Take back the last decision (and the automatic steps that followed it)."""
        if not self._actions:
            raise IllegalAction(
                "there is nothing to undo: no decision has been made yet",
                rule_id=f"{self.rules.rulebook_prefix()}.undo",
            )
        if self._core is not None:
            self._state_at(len(self._states) - 2)  # the state gone back to, packed while it can be stepped to
            self._ids.pop()
            self._round = None
        self._states.pop()
        action = self._actions.pop()
        kept = len(self._actions)
        if self._timeline is not None:
            self._timeline = [step for step in self._timeline if step.decisions <= kept]
        for seat, steps in self._seat_timelines.items():
            self._seat_timelines[seat] = [step for step in steps if step.decisions <= kept]
        return action

    def copy(self) -> Match:
        other = Match.__new__(Match)
        other.rules = self.rules
        other.seed = self.seed
        other.match_options = dict(self.match_options)
        self.state  # noqa: B018  # packed now: the round that could pack it stays with this match
        other._states = list(self._states)
        other._actions = list(self._actions)
        other._timeline = None if self._timeline is None else list(self._timeline)
        other._seat_timelines = {seat: list(steps) for seat, steps in self._seat_timelines.items()}
        other._start(self.rules)  # a round each
        other._ids = list(self._ids)
        return other

    def timeline(self, seat: int | None = None) -> list[Step]:
        """Every step from the deal on: decisions and the automatic steps of the rules.

        Built by replaying with explanations on, once: later calls only add the steps
        of decisions applied since (and ``undo`` drops the steps it takes back).

        With ``seat``, the timeline as that seat lived it: each step's state is the seat's
        view, and each event is told as the seat may see it (another seat's secret
        prediction, bid or passed cards are not in it until they are revealed).
        """
        if seat is not None:
            return self._timeline_of(seat)
        if self._timeline is None:
            log: list[tuple[Event, Any]] = []
            self.rules.initial_state(self.seed, log, **self.match_options)
            self._timeline = [Step(i, event, st, 0) for i, (event, st) in enumerate(log)]
        steps = self._timeline
        done = steps[-1].decisions if steps else 0
        for n in range(done + 1, len(self._actions) + 1):
            log = []
            self.rules.apply(self._state_at(n - 1), self._actions[n - 1], log)
            base = len(steps)
            steps.extend(Step(base + i, e, st, n) for i, (e, st) in enumerate(log))
        return list(steps)

    def _timeline_of(self, seat: int) -> list[Step]:
        rules = self.rules
        rules.check_view_seat(seat)
        if not isinstance(rules, CoreRules):
            raise InvalidOption(f"{rules.title} has no timeline per seat")
        steps = self._seat_timelines.setdefault(seat, [])
        done = steps[-1].decisions if steps else -1
        for n in range(done + 1, len(self._actions) + 1):
            if n == 0:
                facts: list[Any] = []
                rules.core_initial(self.seed, facts, **self.match_options)
            else:
                facts = rules.facts(self._state_at(n - 1), self._actions[n - 1])
            last = len(facts) - 1
            for i, (fact, after) in enumerate(facts):
                if i == last:  # the moves the game makes by itself end the decision's step (see Rules.apply)
                    after = self._state_at(n)
                view = rules.view(after, seat)
                steps.append(Step(len(steps), rules.narrate(fact.seen_by(seat), after), view, n))
        return list(steps)

    # --- records ------------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The match as plain data: what ``to_json`` writes."""
        body: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.rules.name,
            "players": self.rules.players,
            "options": self.rules.options.stored(),
            "match_options": dict(self.match_options),
            "seed": self.seed,
            "actions": [str(a) for a in self._actions],
        }
        body["digest"] = _digest(body)
        return body

    def to_json(self, indent: int | None = None) -> str:
        """The record as JSON text, on one line, or with ``indent`` spaces (0 to 16) a level."""
        if indent is not None and (isinstance(indent, bool) or not isinstance(indent, int) or not 0 <= indent <= 16):
            raise InvalidOption(f"indent must be a number of spaces from 0 to 16, or None, not {describe(indent)}")
        return json.dumps(self.record(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_record(cls, record: object) -> Match:
        """Load a record (the data of :meth:`record`); anything wrong with it raises
        :class:`RecordError`, and no half-loaded match is ever returned."""
        if not isinstance(record, dict):
            raise RecordError(f"a match record must be a JSON object, not {describe(record)}")
        if record.get("format") != RECORD_FORMAT:
            raise RecordError(f"not a tricklab match record (format is {describe(record.get('format'))})")
        version = record.get("version")
        if version != RECORD_VERSION or type(version) is not int:
            raise RecordError(
                f"record version {describe(version)} is not supported (this tricklab reads version {RECORD_VERSION})"
            )
        missing = [k for k in RECORD_FIELDS if k not in record]
        extra = [k for k in record if k not in RECORD_FIELDS]
        if missing or extra:
            parts = [
                f"missing {', '.join(missing)}" if missing else "",
                f"unexpected {quote_names(extra)}" if extra else "",
            ]
            raise RecordError("the record's fields are wrong: " + "; ".join(p for p in parts if p))
        body = {k: v for k, v in record.items() if k != "digest"}
        if record["digest"] != _digest(body):
            raise RecordError("the record was changed after it was saved: its digest does not match")
        actions = record["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("the record's actions must be a list of action texts")
        if not isinstance(record["options"], dict) or not isinstance(record["match_options"], dict):
            raise RecordError("the record's options must be JSON objects")
        try:
            rules = game_named(record["game"]).from_stored_options(record["players"], record["options"])
            match = cls(rules, record["seed"], match_options=record["match_options"])
        except TricklabError as exc:
            raise RecordError(f"the record's game settings are invalid: {exc}") from None
        for number, text in enumerate(actions, start=1):
            try:
                match.apply(text)
            except TricklabError as exc:
                raise RecordError(
                    f"action {number} of the record, {describe(text)}, cannot be replayed: {exc}"
                ) from None
        return match

    @classmethod
    def from_json(cls, text: str | bytes) -> Match:
        """Load a record written by :meth:`to_json`; a bad record raises :class:`RecordError`."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise RecordError(f"a record is JSON text, not {describe(text)}")
        try:
            record = json.loads(text)
        except RecursionError:
            raise RecordError("the record is not a match record: it is nested far too deeply") from None
        except ValueError as exc:  # also UnicodeDecodeError, and numbers too long to read
            raise RecordError(f"the record is not valid JSON: {exc}") from None
        return cls.from_record(record)

    def _repr_html_(self) -> str:
        from .display import match_html

        return match_html(self)

    def __repr__(self) -> str:
        status = "over" if self.is_over else f"{self.phase}, {self.rules.seat_name(self.to_play or 0)} to play"
        return (
            f"<Match {self.rules.name} players={self.rules.players} seed={self.seed} "
            f"actions={len(self._actions)} ({status})>"
        )


RECORD_FIELDS = ("format", "version", "game", "players", "options", "match_options", "seed", "actions", "digest")


def _digest(body: Mapping[str, Any]) -> str:
    try:
        canonical = json.dumps(body, sort_keys=True, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        raise RecordError("the record is not plain JSON data (or is nested far too deeply)") from None
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()
