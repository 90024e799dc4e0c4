"""TrickStepper: step through a whole match, forward and back, with a caption per step."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import traitlets

from .. import get_rules
from ..bots import Bot
from ..display import esc, finished_trick_html, reasons_html, view_html
from ..display.movelist import CURRENT, FOLD, movelist_html
from ..errors import InvalidOption, TricklabError, describe
from ..games import DEFAULT_GAME, default_players, find_game
from ..games.base import EventKind, SeatView
from ..match import Match, Step
from ..movelist import Outline, outline_steps
from ..review import reviewable_rounds
from .board import Board
from .controls import Button, Control, Controls, Note, Picker, TextEntry, Toggle, look_toggles
from .inputs import PageValue, check_flag, check_whole, quote
from .review import RETRIED, ReviewPanel

if TYPE_CHECKING:
    from ..classwork import ClassQuestion

#: the keys the stepper (its board and its move list) takes
KEYS = ("ArrowLeft", "ArrowRight", "Shift+ArrowLeft", "Shift+ArrowRight", "PageUp", "PageDown", "Home", "End")
KEY_MOVES = {"ArrowLeft": -1, "ArrowRight": 1}
KEY_JUMPS = {
    "Shift+ArrowLeft": ("previous", "part"),
    "Shift+ArrowRight": ("next", "part"),
    "PageUp": ("previous", "round"),
    "PageDown": ("next", "round"),
}

#: what the step box and a move's click may send: a step's number, ASCII digits
_STEP = re.compile(r"[0-9]{1,9}")
#: where the focus goes after a redraw when it was in the move list: the move shown
_FOCUS_IN = {".tl-movelist": CURRENT}


class _View(traitlets.TraitType[int | None, int | None]):
    """A seat or ``None`` (every hand). Unlike ``Int(allow_none=True)``, ``None`` too goes through
    the widget's validator: a seat's stepper must refuse "every hand" like any other view."""

    default_value = None
    info_text = "a seat's number or None"

    def validate(self, obj: Any, value: Any) -> int | None:
        if value is None or (isinstance(value, int) and not isinstance(value, bool)):
            return value
        self.error(obj, value)


class TrickStepper(Board):
    """Walk through every step of a match: the deal, each decision, each card, each
    automatic step of the rules and each score, with a one-line caption and its reasons.
    Beside the board (under it on a narrow screen or at projector size), the match's move list:
    its rounds, its tricks (or turns) and their moves, the move shown marked; a click on a move
    jumps there, and buttons and keys jump to the previous or next trick (turn) and round: ← and →
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
    that seat may see at each step, a label says whose view it is, and nothing the page sends
    can show more. Without one it is the teacher's stepper: every hand, and a "View"
    picker to show the table as one seat sees it.

    One anywidget (a :class:`Board`): its buttons, step box, Play toggle, view picker and the
    review's pickers are drawn by the front end from the scene (``stepper.controls["next"]``,
    ``stepper.next_button.click()``), the move list and the review's result are in the scene's
    markup. What a notebook cares about is synced traits, observable and linkable: ``step``
    (the step shown), ``playing`` (whether Play steps on by itself), ``view`` (the seat whose
    view is shown, ``None`` for every hand; a seat's stepper keeps its seat), ``large``,
    ``four_colour`` and ``message`` (why something was refused, in words; ``""`` when nothing
    was). Setting one is checked: a refused value raises its
    :class:`~tricklab.errors.TricklabError` and changes nothing (from the page, it is shown as
    the message).
    """

    step = traitlets.Int(0).tag(sync=True)
    playing = traitlets.Bool(False).tag(sync=True)
    view = _View().tag(sync=True)
    large = traitlets.Bool(False).tag(sync=True)
    four_colour = traitlets.Bool(False).tag(sync=True)
    _page_traits = frozenset({"step", "playing", "view", "large", "four_colour"})

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
        match.rules.check_view_seat(seat)
        self._ready = False  # the observers wait until the whole widget is made
        super().__init__()
        self.match = match
        self.rules = match.rules
        self._seat = seat  # fixed here: the page cannot change whose view a seat's stepper shows
        self._timelines: dict[int | None, list[Step]] = {}  # per seat: each step as that seat saw it
        self._outlines: dict[int | None, Outline] = {}  # per seat: the move list of that timeline
        self.steps: list[Step] = self._timeline(seat)
        self.interval = interval  # milliseconds between steps while playing
        self._tick: asyncio.TimerHandle | None = None
        self.folded = False  # the move list folded away
        self._focus = ""  # where the focus goes after the next redraw (the fold button after a fold)
        self._reveals = 0  # how many times the review asked to be brought into view
        self._reveal = ""
        self.view = seat
        self.large = large
        self.four_colour = four_colour

        # a labelled number box and a named toggle step (a slider's handle and icon-only buttons
        # would have no accessible name); the toggle's clock runs here in the kernel
        last = len(self.steps) - 1
        self.slider = TextEntry("step", "Step", value="0", max_length=12, tooltip=f"a step's number, 0 to {last}")
        self.player = Toggle("play", "Play", tooltip="step on by itself; click again to pause")
        self.first_button = Button("first", "|◀", tooltip="first step (Home)")
        self.back_button = Button("back", "◀", tooltip="step back (←)")
        self.next_button = Button("next", "▶", tooltip="step forward (→)")
        self.last_button = Button("last", "▶|", tooltip="last step (End)")
        moves = self._outline(seat)
        part, round_ = moves.part, moves.round_word
        self.previous_round_button = Button(
            "previous-round",
            f"◀ {round_.capitalize()}",
            tooltip=f"the start of this {round_}, or the one before (Page Up)",
        )
        self.previous_part_button = Button(
            "previous-part", f"◀ {part.capitalize()}", tooltip=f"the start of this {part}, or the one before (Shift+←)"
        )
        self.next_part_button = Button("next-part", f"{part.capitalize()} ▶", tooltip=f"the next {part} (Shift+→)")
        self.next_round_button = Button(
            "next-round", f"{round_.capitalize()} ▶", tooltip=f"the next {round_} (Page Down)"
        )
        self.view_picker: Picker | None = None  # the teacher's stepper only
        self.view_label: Note | None = None  # a seat's stepper only
        shown: list[Control] = []
        if seat is None and self.rules.capabilities.hidden:  # a game that hides nothing has one view
            views: list[tuple[str, int | None]] = [("Every hand", None)]
            views += [(f"{self.rules.seat_name(s)}'s view", s) for s in range(self.rules.players)]
            self.view_picker = Picker("view", "View", views, None)
            self.view_picker.on_change(lambda value: self._from_control("view", value))
            shown.append(self.view_picker)
        elif seat is not None:
            hidden = ": the other players' cards stay face down" if self.rules.capabilities.hidden else ""
            self.view_label = Note("view-label", f"{self.rules.seat_name(seat)}'s view{hidden}")
            shown.append(self.view_label)
        self.large_toggle, self.colour_toggle = look_toggles(large, four_colour)
        look: list[Control] = [self.large_toggle]
        if self.rules.capabilities.board is None:  # a game drawn on a board has no suits to colour
            look.append(self.colour_toggle)
        self.review_button = Button(
            "review", "Review a round", tooltip="rate a player's decisions in a round of this match"
        )
        self.review: ReviewPanel | None = None  # the review of a round, shown once asked for
        reviews: list[Control] = []
        review_row: list[Control] = []
        if self.rules.capabilities.review is not None:  # only a game with a review offers one
            rounds = reviewable_rounds(self.match)
            self.review = ReviewPanel(
                self.match,
                seat if seat is not None else 0,
                rounds=rounds,
                round=rounds[0],
                seats=seat is None,
                on_change=self._review_changed,
            )
            reviews = [self.review_button]
            review_row = self.review.controls
            for control in review_row:
                control.hidden = True  # until "Review a round" is pressed
        self._review_open = False

        self.first_button.on_click(lambda: self.go(0))
        self.previous_round_button.on_click(lambda: self.jump("previous", "round"))
        self.previous_part_button.on_click(lambda: self.jump("previous", "part"))
        self.next_part_button.on_click(lambda: self.jump("next", "part"))
        self.next_round_button.on_click(lambda: self.jump("next", "round"))
        self.back_button.on_click(lambda: self.go(self.step - 1))
        self.next_button.on_click(lambda: self.go(self.step + 1))
        self.last_button.on_click(lambda: self.go(len(self.steps) - 1))
        self.review_button.on_click(self.open_review)
        self.slider.on_submit(self._typed)
        self.player.on_change(lambda value: self._from_control("playing", value))
        self.large_toggle.on_change(lambda value: self._from_control("large", value))
        self.colour_toggle.on_change(lambda value: self._from_control("four_colour", value))
        self.on_intent(self._intent)

        rounds_buttons = [self.previous_round_button, self.next_round_button]
        if len(moves.rounds) == 1:  # a game played in one round has no round to jump to
            rounds_buttons = []
        steps_row: list[Control] = [
            self.player,
            self.first_button,
            *rounds_buttons[:1],
            self.previous_part_button,
            self.back_button,
            self.next_button,
            self.next_part_button,
            *rounds_buttons[1:],
            self.last_button,
            self.slider,
        ]
        rows = [steps_row, [*shown, *look, *reviews]]
        if review_row:
            rows.append(review_row)
        self.add_class("tricklab-stepper")
        self._ready = True
        with self.hold_redraw():
            self.use_controls(Controls(rows))
            self.step = max(0, min(last, step))
            self._render()

    def class_question(self) -> ClassQuestion:
        """The decision after the step shown, as a question for a class, as the player to move
        saw it: which card would you play, what would you bid (the judge's figures at the reveal),
        or, in a game played on a board, which move would you make?"""
        from ..classwork import ClassworkError, best_move, decision

        at = self.steps[self.step].decisions
        seat = self.match.states[at].to_play
        if seat is None:
            raise ClassworkError("nobody is to play after this step: step back to a decision to send it")
        if self.rules.capabilities.review is not None:
            return decision(self.match, at, four_colour=self.four_colour)
        return best_move(self.match, at)

    def link_state(self) -> dict[str, str]:
        """What a link needs to show the board as it is: the step, and the look toggles."""
        look = {"large": self.large, "four_colour": self.four_colour}
        return {"step": str(self.step), **{name: "1" for name, on in look.items() if on}}

    @property
    def seat(self) -> int | None:
        """Whose view the board shows: the stepper's seat, or the teacher's choice (``None``: every hand)."""
        return self.view

    @property
    def caption(self) -> str:
        return self.steps[self.step].event.text

    @property
    def outline(self) -> Outline:
        """The move list of the steps shown (the view shown's timeline)."""
        return self._outline(self.seat)

    def go(self, step: int) -> None:
        """Jump to a step (clamped to the timeline)."""
        if isinstance(step, bool) or not isinstance(step, int):
            raise InvalidOption(f"step is a step's number, 0 to {len(self.steps) - 1}, not {describe(step)}")
        self.step = max(0, min(len(self.steps) - 1, step))

    def jump(self, way: str, to: str) -> None:
        """Jump to the ``"previous"`` or ``"next"`` trick or turn (``to="part"``) or ``"round"``:
        "previous" goes to the start of the one shown first, when the step shown is past it (as a
        player's "previous" goes back to the start of a song). Where there is none, nothing moves."""
        moves = self.outline
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

    def fold(self, folded: bool) -> None:
        """Fold the move list away (``True``) or show it again."""
        check_flag("folded", folded)
        self.folded = folded
        self._focus = FOLD
        self._render()
        self._focus = ""

    def open_review(self) -> ReviewPanel:
        """Show the review's pickers and buttons (a :class:`~tricklab.widgets.review.ReviewPanel`)
        under the step buttons, set to the round of the step shown: the seat's own decisions in a
        seat's stepper, any seat's for the teacher. Its "Review" button starts it."""
        review = self.review
        if review is None:
            raise InvalidOption(f"there is no review of {self.rules.title} games yet")
        rounds = [value for _, value in review.round_picker.options]
        deals = sum(1 for s in self.steps[: self.step + 1] if s.event.kind == EventKind.DEAL)
        with self.hold_redraw():
            review.round_picker.value = min(max(deals - 1, 0), rounds[-1])
            if self._seat is None:
                review.seat_picker.value = self.seat if self.seat is not None else 0
            self._review_open = True
            for control in review.controls:
                control.hidden = control is review.seat_picker and self._seat is not None
            review.progress.hidden = not review.running
        return review

    # --- the state, checked -------------------------------------------------------------------------

    @traitlets.validate("step")
    def _check_step(self, proposal: Any) -> int:
        value = proposal["value"]
        last = len(self.steps) - 1 if hasattr(self, "steps") else 0
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= last:
            raise InvalidOption(f"step is a step's number, 0 to {last}, not {describe(value)}")
        return value

    @traitlets.validate("view")
    def _check_view(self, proposal: Any) -> int | None:
        value: int | None = proposal["value"]
        if not hasattr(self, "_seat"):
            return value  # the value the trait starts with, before the stepper is made
        if self._seat is not None:
            if value != self._seat:  # a seat's stepper shows that seat, whatever is asked
                raise PageValue(f"This is {self.rules.seat_name(self._seat)}'s view; it shows no other.")
            return value
        if value is None:
            return None
        if not self.rules.capabilities.hidden:
            raise InvalidOption(f"{self.rules.title} hides nothing: there is one view, every hand (None)")
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < self.rules.players:
            raise InvalidOption(
                f"view is a seat, 0 to {self.rules.players - 1}, or None for every hand, not {describe(value)}"
            )
        return value

    @traitlets.observe("step", "view", "large", "four_colour")
    def _state_changed(self, _change: dict[str, Any]) -> None:
        if self._ready:
            self.message = ""
            self._render()

    @traitlets.observe("playing")
    def _playing_changed(self, change: dict[str, Any]) -> None:
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        if change["new"]:
            if self.step >= len(self.steps) - 1:
                self.go(0)  # from the start again, as a player does
            self._schedule_tick()
        if self._ready:
            self._sync_controls()

    # --- internals -----------------------------------------------------------------------------------

    def _from_control(self, name: str, value: Any) -> None:
        """A control's new value, given to the trait it shows; refused, the control shows the trait again."""
        try:
            setattr(self, name, value)
        except TricklabError:
            self._sync_controls()
            raise

    def _typed(self, text: str) -> None:
        """A step number typed in the box: ASCII digits, clamped to the timeline."""
        if not _STEP.fullmatch(text.strip()):
            self.slider.value = str(self.step)
            raise PageValue(f"“{quote(text)}” is not a step number: type one from 0 to {len(self.steps) - 1}.")
        self.go(int(text.strip()))
        self.slider.value = str(self.step)

    def _schedule_tick(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = asyncio.get_event_loop()
        self._tick = loop.call_later(max(self.interval, 50) / 1000, self._step_on)

    def _step_on(self) -> None:
        """One step while playing; at the last step Play stops by itself."""
        self._tick = None
        if not self.playing:
            return
        self.go(self.step + 1)
        if self.step >= len(self.steps) - 1:
            self.playing = False
        else:
            self._schedule_tick()

    def _intent(self, intent: str, value: str | None) -> None:
        if intent == "key" and value is not None:
            if value in KEY_MOVES:
                self.go(self.step + KEY_MOVES[value])
            elif value in KEY_JUMPS:
                self.jump(*KEY_JUMPS[value])
            elif value == "Home":
                self.go(0)
            elif value == "End":
                self.go(len(self.steps) - 1)
        elif intent == "jump" and value is not None and _STEP.fullmatch(value):
            step = int(value)
            if step < len(self.steps):
                self.go(step)
        elif intent == "fold":
            self.fold(not self.folded)
        elif self.review is not None and self._review_open:
            self.review.intent(intent, value)

    def _review_changed(self, reveal: str) -> None:
        """The review's controls or result changed (from its thread while it runs)."""
        if reveal:
            self._reveals += 1
            self._reveal = reveal
        self._render()

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

    def _sync_controls(self) -> None:
        """The controls show the state: the step, Play or Pause, the view, the look, the jumps."""
        moves = self.outline
        self.slider.value = str(self.step)
        self.player.value = self.playing
        self.player.label = "Pause" if self.playing else "Play"
        if self.view_picker is not None:
            self.view_picker.value = self.view
        self.large_toggle.value = self.large
        self.colour_toggle.value = self.four_colour
        self.previous_part_button.disabled = moves.previous_part(self.step) is None
        self.next_part_button.disabled = moves.next_part(self.step) is None
        self.previous_round_button.disabled = moves.previous_round(self.step) is None
        self.next_round_button.disabled = moves.next_round(self.step) is None

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
        four = self.four_colour
        if step.event.kind == EventKind.TRICK:  # the whole trick, on the table, with why it went that way
            centre = finished_trick_html(self.rules, step.event, four_colour=four, viewer=seat, caption=False)
            table = caption + view_html(self.rules, view, four_colour=four, centre=centre)
        else:
            played = step.event.kind == EventKind.PLAY
            table = caption + view_html(self.rules, view, four_colour=four, arriving=played, event=step.event)
            table += reasons_html(step.event.reasons, title="Which rules made it so")
        moves = movelist_html(self.outline, self.step, folded=self.folded, large=self.large)
        # the move list: beside the board where the page is wide, under it where it is narrow or
        # at projector size (the board needs the width)
        stacked = " tl-stacked" if self.large else ""
        body = (
            f'<div class="tl-stepper-body{stacked}"><div class="tl-stepper-main">{table}</div>'
            f'<div class="tricklab-list">{moves}</div></div>'
        )
        review = self.review
        if review is not None and self._review_open and review.html:
            body += f'<div class="tl-stepper-review">{review.html}</div>'
        whose = "every hand" if seat is None else f"{self.rules.seat_name(seat)}'s view"
        with self.hold_redraw():
            self._sync_controls()
            self.scene = {
                "html": body,
                "label": f"{self.rules.title}: step {self.step} of {total}, {whose}",
                "large": self.large,
                "step": self.step,
                "caption": step.event.text,
                "announce": f"Step {self.step} of {total}: {step.event.text}",
                "keys": list(KEYS),
                "focus": self._focus,
                "focus_in": _FOCUS_IN,
                "reveal": self._reveal or CURRENT,
                "reveal_id": self._reveals,
                "reveal_block": "nearest" if self._reveal == RETRIED else "start",
            }
        self._reveal = ""

    def __repr__(self) -> str:
        seat = "" if self._seat is None else f", seat={self._seat}"
        return (
            f"TrickStepper(game={self.rules.name!r}, players={self.rules.players}, seed={self.match.seed}{seat}, "
            f"step={self.step}/{len(self.steps) - 1})"
        )
