"""TrickStepper: step through a whole match, forward and back, with a caption per step."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from .. import get_rules
from ..bots import Bot
from ..display import esc, finished_trick_html, reasons_html, view_html
from ..errors import InvalidOption, describe
from ..games import DEFAULT_GAME, default_players, find_game
from ..games.base import EventKind, SeatView
from ..match import Match, Step
from ..movelist import Outline, outline_steps
from ..review import reviewable_rounds
from .board import Board, LookToggles, controls_row
from .inputs import check_flag, check_whole
from .movelist import KEYS, MoveList
from .review import ReviewPanel

KEY_MOVES = {"ArrowLeft": -1, "ArrowRight": 1}
KEY_JUMPS = {
    "Shift+ArrowLeft": ("previous", "part"),
    "Shift+ArrowRight": ("next", "part"),
    "PageUp": ("previous", "round"),
    "PageDown": ("next", "round"),
}


class TrickStepper(w.VBox):  # type: ignore[misc]
    """Walk through every step of a match: the deal, each decision, each card, each
    automatic step of the rules and each score, with a one-line caption and its reasons.
    Beside the board, the match's move list (:class:`~tricklab.widgets.movelist.MoveList`): its
    rounds, its tricks (or turns) and their moves, the move shown marked; a click on a move jumps
    there, and buttons and keys jump to the previous or next trick (turn) and round: ← and →
    step, Shift+← and Shift+→ go by trick, Page Up and Page Down by round, Home and End to the
    first and last step.

    Give a :class:`~tricklab.Match`, a saved ``record`` (JSON text), or a ``game`` with
    ``players`` and ``seed`` to have ``bots`` play one (one of the three; with none of them,
    bots play the default game, as every widget shows it unless told: ``TrickStepper()`` is
    a match of Tricks & Stones). ``players=None`` is the game's default count
    (:func:`tricklab.games.default_players`). States come from the match's timeline, so
    stepping either way is instant. ``step`` is the step shown first (clamped to the
    timeline), ``interval`` the milliseconds between steps while playing (50 to 60,000).

    With a ``seat`` (0 to players - 1) it is that seat's stepper: the board shows only what
    that seat may see at each step, a label says whose view it is, and no control of the
    page can show more. Without one it is the teacher's stepper: every hand, and a "View"
    dropdown to show the table as one seat sees it.
    """

    def __init__(
        self,
        match: Match | None = None,
        *,
        record: str | None = None,
        game: str | None = None,
        players: int | None = None,
        seed: int = 0,
        bots: str | Sequence[str | Bot] = "heuristic",
        seat: int | None = None,
        step: int = 0,
        four_colour: bool = False,
        large: bool = False,
        interval: int = 1200,
    ) -> None:
        given = [name for name, value in (("match", match), ("record", record), ("game", game)) if value is not None]
        if len(given) > 1:
            raise InvalidOption(f"give a match, a record or a game, not {' and '.join(given)}")
        if match is not None and not isinstance(match, Match):
            raise InvalidOption(f"match must be a Match (rules.new_match(...)), not {describe(match)}")
        if isinstance(step, bool) or not isinstance(step, int):
            raise InvalidOption(f"step is the number of the step to show first, not {describe(step)}")
        check_whole("interval", interval, 50, 60_000)
        check_flag("four_colour", four_colour)
        check_flag("large", large)
        if match is None:
            if record is not None:
                match = Match.from_json(record)
            else:
                cls = find_game(DEFAULT_GAME if game is None else game)
                rules = get_rules(cls.name, players=default_players(cls) if players is None else players)
                match = rules.play(seed=seed, bots=bots)
        self.match = match
        self.rules = match.rules
        self.rules.check_view_seat(seat)
        self._seat = seat  # fixed here: the page cannot change whose view a seat's stepper shows
        self._timelines: dict[int | None, list[Step]] = {}  # per seat: each step as that seat saw it
        self._outlines: dict[int | None, Outline] = {}  # per seat: the move list of that timeline
        self.steps: list[Step] = self._timeline(seat)
        last = len(self.steps) - 1

        # ipywidgets' slider and Play draw controls without an accessible name (a slider handle
        # and icon-only buttons): a labelled number box and a named toggle step instead, the
        # toggle's clock running here in the kernel
        self.slider = w.BoundedIntText(
            value=0, min=0, max=last, description="Step", continuous_update=False, layout=w.Layout(width="180px")
        )
        self.player = w.ToggleButton(
            value=False, description="Play", icon="play", tooltip="step on by itself; click again to pause"
        )
        self.interval = interval  # milliseconds between steps while playing
        self._tick: asyncio.TimerHandle | None = None
        self._shown = -1  # the step on the board
        self.first_button = w.Button(description="|◀", tooltip="first step (Home)", layout=w.Layout(width="44px"))
        self.back_button = w.Button(description="◀", tooltip="step back (←)", layout=w.Layout(width="44px"))
        self.next_button = w.Button(description="▶", tooltip="step forward (→)", layout=w.Layout(width="44px"))
        self.last_button = w.Button(description="▶|", tooltip="last step (End)", layout=w.Layout(width="44px"))
        moves = self._outline(seat)
        part, round_ = moves.part, moves.round_word
        self.previous_round_button = w.Button(
            description=f"◀ {round_.capitalize()}", tooltip=f"the start of this {round_}, or the one before (Page Up)"
        )
        self.previous_part_button = w.Button(
            description=f"◀ {part.capitalize()}", tooltip=f"the start of this {part}, or the one before (Shift+←)"
        )
        self.next_part_button = w.Button(description=f"{part.capitalize()} ▶", tooltip=f"the next {part} (Shift+→)")
        self.next_round_button = w.Button(
            description=f"{round_.capitalize()} ▶", tooltip=f"the next {round_} (Page Down)"
        )
        self.view_picker: w.Dropdown | None = None  # the teacher's stepper only
        self.view_label: w.HTML | None = None  # a seat's stepper only
        view: w.Widget | None = None
        if seat is None and self.rules.capabilities.hidden:  # a game that hides nothing has one view
            views = [("Every hand (the teacher's view)", -1)] + [
                (f"{self.rules.seat_name(s)}'s view", s) for s in range(self.rules.players)
            ]
            self.view_picker = w.Dropdown(options=views, value=-1, description="View")
            self.view_picker.observe(self._view_changed, "value")
            view = self.view_picker
        elif seat is not None:
            hidden = ": the other players' cards stay face down" if self.rules.capabilities.hidden else ""
            self.view_label = w.HTML(
                f'<span class="tl-view-label"><strong>{esc(self.rules.seat_name(seat))}\'s view</strong>{hidden}</span>'
            )
            view = self.view_label
        self.board = Board()
        self.look = LookToggles(
            large=large,
            four_colour=four_colour,
            on_change=self._render,
            suits=self.rules.capabilities.board is None,
        )

        self.first_button.on_click(lambda _: self.go(0))
        self.previous_round_button.on_click(lambda _: self.jump("previous", "round"))
        self.previous_part_button.on_click(lambda _: self.jump("previous", "part"))
        self.next_part_button.on_click(lambda _: self.jump("next", "part"))
        self.next_round_button.on_click(lambda _: self.jump("next", "round"))
        self.back_button.on_click(lambda _: self.go(self.step - 1))
        self.next_button.on_click(lambda _: self.go(self.step + 1))
        self.last_button.on_click(lambda _: self.go(len(self.steps) - 1))
        # Play, the slider, the buttons and the keys all go through go(); the kernel keeps
        # Play and the slider in step (a link in the browser would echo every step back)
        self.slider.observe(lambda change: self.go(change["new"]), "value")
        self.player.observe(self._playing_changed, "value")
        self.slider.observe(self._keep_bounds, ["min", "max"])  # the page may send other bounds: the timeline's stay
        self.board.on_intent(self._intent)

        rounds = [self.previous_round_button, self.next_round_button]
        if len(moves.rounds) == 1:  # a game played in one round has no round to jump to
            rounds = []
        controls = controls_row(
            [
                self.player,
                self.first_button,
                *rounds[:1],
                self.previous_part_button,
                self.back_button,
                self.next_button,
                self.next_part_button,
                *rounds[1:],
                self.last_button,
                self.slider,
            ]
        )
        # the move list: beside the board where the page is wide, under it where it is narrow
        self.moves = MoveList(moves, step=max(0, min(len(self.steps) - 1, step)), large=large)
        self.moves.on_jump(self.go)
        self.moves.on_key(lambda key: self._intent("key", key))
        self.board.add_class("tl-stepper-board")
        self.body = w.Box([self.board, self.moves])
        self.body.add_class("tl-stepper-body")
        self.review: ReviewPanel | None = None  # the review of a round, once asked for
        self.review_button = w.Button(
            description="Review a round", tooltip="rate a player's decisions in a round of this match"
        )
        self.review_button.on_click(lambda _: self.open_review())
        reviews = self.rules.capabilities.review is not None  # only a game with a review offers one
        shown = [view] if view is not None else []
        self._rows = [
            controls,
            controls_row([*shown, self.look, *([self.review_button] if reviews else [])]),
            self.body,
        ]
        super().__init__(self._rows)
        self.add_class("tricklab-stepper")
        self.go(step)  # the first go() always draws: nothing is shown yet

    @property
    def step(self) -> int:
        return self._shown

    def link_state(self) -> dict[str, str]:
        """What a link needs to show the board as it is: the step, and the look toggles."""
        return {"step": str(self.step), **self.look.link_state()}

    @property
    def seat(self) -> int | None:
        """Whose view the board shows: the stepper's seat, or the teacher's choice (``None``: every hand)."""
        if self.view_picker is None:
            return self._seat
        value = self.view_picker.value
        return value if isinstance(value, int) and value >= 0 else None

    @property
    def caption(self) -> str:
        return self.steps[self.step].event.text

    def go(self, step: int) -> None:
        """Jump to a step (clamped to the timeline)."""
        if isinstance(step, bool) or not isinstance(step, int):
            raise InvalidOption(f"step is a step's number, 0 to {len(self.steps) - 1}, not {describe(step)}")
        value = max(0, min(len(self.steps) - 1, step))
        if value == self._shown:
            return
        self._shown = value
        self._render()  # the board first: it is what the learner waits for
        self.slider.value = value  # this calls go(value) again, which returns at once

    def jump(self, way: str, to: str) -> None:
        """Jump to the ``"previous"`` or ``"next"`` trick or turn (``to="part"``) or ``"round"``:
        "previous" goes to the start of the one shown first, when the step shown is past it (as a
        player's "previous" goes back to the start of a song). Where there is none, nothing moves."""
        moves = self._outline(self.seat)
        finders = {
            ("previous", "part"): moves.previous_part,
            ("next", "part"): moves.next_part,
            ("previous", "round"): moves.previous_round,
            ("next", "round"): moves.next_round,
        }
        if not (isinstance(way, str) and isinstance(to, str)) or (way, to) not in finders:
            raise InvalidOption(f"a jump is previous or next, to a part or a round, not {describe(way)} {describe(to)}")
        found = finders[way, to](self.step)
        if found is not None:
            self.go(found)

    def open_review(self) -> ReviewPanel:
        """A :class:`~tricklab.widgets.review.ReviewPanel` under the board for the round of the
        step shown: the seat's own decisions in a seat's stepper, any seat's for the teacher."""
        if self.rules.capabilities.review is None:
            raise InvalidOption(f"there is no review of {self.rules.title} games yet")
        rounds = reviewable_rounds(self.match)
        deals = sum(1 for s in self.steps[: self.step + 1] if s.event.kind == EventKind.DEAL)
        round_ = min(max(deals - 1, 0), rounds[-1])
        seat = self.seat if self.seat is not None else 0
        if self.review is None:
            self.review = ReviewPanel(self.match, seat, rounds=rounds, round=round_, seats=self._seat is None)
            self.children = (*self._rows, self.review)
        else:
            self.review.round_picker.value = round_
            if self._seat is None:
                self.review.seat_picker.value = seat
        return self.review

    def _view_changed(self, change: dict[str, Any]) -> None:
        if change["new"] is None:  # a blank choice from the page: keep the view shown
            change["owner"].value = change["old"]
            return
        self._render()

    def _playing_changed(self, change: dict[str, Any]) -> None:
        playing = bool(change["new"])
        self.player.description = "Pause" if playing else "Play"
        self.player.icon = "pause" if playing else "play"
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        if playing:
            if self.step >= len(self.steps) - 1:
                self.go(0)  # from the start again, as a player does
            self._schedule_tick()

    def _schedule_tick(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = asyncio.get_event_loop()
        self._tick = loop.call_later(max(self.interval, 50) / 1000, self._step_on)

    def _step_on(self) -> None:
        """One step while playing; at the last step Play stops by itself."""
        self._tick = None
        if not self.player.value:
            return
        self.go(self.step + 1)
        if self.step >= len(self.steps) - 1:
            self.player.value = False
        else:
            self._schedule_tick()

    def _keep_bounds(self, change: dict[str, Any]) -> None:
        control = change["owner"]
        control.min = 0
        control.max = len(self.steps) - 1

    def _intent(self, intent: str, value: str | None) -> None:
        if intent != "key" or value is None:
            return
        if value in KEY_MOVES:
            self.go(self.step + KEY_MOVES[value])
        elif value in KEY_JUMPS:
            self.jump(*KEY_JUMPS[value])
        elif value == "Home":
            self.go(0)
        elif value == "End":
            self.go(len(self.steps) - 1)

    def _timeline(self, seat: int | None) -> list[Step]:
        """The match's timeline as ``seat`` saw it (``None``: the teacher's, with every secret).
        Every seat's timeline has the same steps, so a step number means the same moment."""
        if seat not in self._timelines:
            self._timelines[seat] = self.match.timeline(seat)
        return self._timelines[seat]

    def _outline(self, seat: int | None) -> Outline:
        """The move list of the timeline as ``seat`` saw it."""
        if seat not in self._outlines:
            self._outlines[seat] = outline_steps(self.rules, self._timeline(seat))
        return self._outlines[seat]

    def _render(self) -> None:
        seat = self.seat
        self.steps = self._timeline(seat)
        step = self.steps[self.step]
        # a seat's timeline holds that seat's views; the teacher's holds states, viewed here
        view: SeatView = step.state if seat is not None else self.rules.view(step.state, None)
        total = len(self.steps) - 1
        caption = (
            f'<p class="tl-caption"><span class="tl-step-no">Step {self.step} of {total}:</span> '
            f'<span class="tl-step-text">{esc(step.event.text)}</span></p>'
        )
        four = self.look.four_colour.value
        if step.event.kind == EventKind.TRICK:  # the whole trick, on the table, with why it went that way
            centre = finished_trick_html(self.rules, step.event, four_colour=four, viewer=seat, caption=False)
            body = caption + view_html(self.rules, view, four_colour=four, centre=centre)
        else:
            played = step.event.kind == EventKind.PLAY
            body = caption + view_html(self.rules, view, four_colour=four, arriving=played, event=step.event)
            body += reasons_html(step.event.reasons, title="Which rules made it so")
        whose = "every hand" if self.seat is None else f"{self.rules.seat_name(self.seat)}'s view"
        self.board.scene = {
            "html": body,
            "label": f"{self.rules.title}: step {self.step} of {total}, {whose}",
            "large": self.look.large.value,
            "step": self.step,
            "caption": step.event.text,
            "announce": f"Step {self.step} of {total}: {step.event.text}",
            "keys": list(KEYS),
        }
        large = bool(self.look.large.value)
        moves = self._outline(seat)
        self.moves.show(self.step, outline=moves, large=large)
        # at projector size the board is wide: the list goes under it
        (self.body.add_class if large else self.body.remove_class)("tl-stacked")
        self.previous_part_button.disabled = moves.previous_part(self.step) is None
        self.next_part_button.disabled = moves.next_part(self.step) is None
        self.previous_round_button.disabled = moves.previous_round(self.step) is None
        self.next_round_button.disabled = moves.next_round(self.step) is None

    def __repr__(self) -> str:
        seat = "" if self._seat is None else f", seat={self._seat}"
        return (
            f"TrickStepper(game={self.rules.name!r}, players={self.rules.players}, seed={self.match.seed}{seat}, "
            f"step={self.step}/{len(self.steps) - 1})"
        )
