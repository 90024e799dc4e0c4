"""PlayTable: play one seat of a whole match against bots, every decision by clicking.

The widget only turns clicks into actions and asks the engine: legal cards are the
engine's ``legal_actions``; an illegal click shows the engine's own reason and changes
nothing. Decisions other than playing a card are drawn from the legal actions too:
number buttons for predictions, a bid builder, card picking for a pass, the chamber
board for gem actions, and a button per choice for the rest (Metal wins, ♣ targets...).

What the learner sees stays until it is understood: a finished trick stays on the table,
every card with its place, the winner and the deciding reason, until the learner continues
(the Continue button, the → key, or after a pause the learner sets); a round's score sheet,
with the board as it was scored, stays until the learner starts the next round; at the end
of the game the final result stays, with a new deal and a link that reopens the match in the
replay app. The bots' pace is the learner's to set (slower, faster, paused, one move at a
time), and the round's log keeps every step of the round.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

import traitlets

from .. import get_rules
from ..actions import (
    Action,
    Announce,
    AssignMetal,
    Bid,
    Move,
    Pass,
    Place,
    Play,
    Predict,
    Skip,
    Steal,
)
from ..bots import hint_bot, table_bot
from ..cards import COLOURS, Card
from ..display import (
    PLACE_WORDS,
    PlaceAllowances,
    bid_rows,
    card_html,
    esc,
    finished_trick_html,
    reasons_html,
    view_html,
)
from ..display import choice_button as _button
from ..display import decision_html as _decision
from ..display.boards import MANDALA_PLACES, Picking, mandala_place, one_card
from ..display.panels import PodiumView, panel_html
from ..display.review import judged_reasons_html
from ..errors import IllegalAction, InvalidOption, TricklabError, describe
from ..explain import Reason, and_list, plural
from ..games import DEFAULT_GAME, default_players, find_game
from ..games.base import EventKind, Rules, SeatView, next_seed
from ..games.capabilities import BoardKind
from ..hints import Hint, judged_hint
from ..links import moves_code
from ..match import Match, Step
from ..platform import app_link
from ..review import reviewable_rounds
from .board import Board
from .controls import Button, Controls, look_toggles
from .inputs import bid_step, check_flag, check_seconds, clicked_card, number, quote, short, too_long
from .review import INTENTS as REVIEW_INTENTS
from .review import RETRIED, ReviewView

ROUND_END = ("score", "round-end")  # the event kinds that close a round (scores, or Jewel Vault's round actions)
#: the bots' paces a learner steps through with Slower and Faster (seconds between two moves)
_WHY_IDS = itertools.count(1)  # one id a play table: its cards point at its sentence of why
PACES = (0.3, 0.8, 1.6, 3.0)
#: the longest ``pace`` and ``hold`` a table takes (seconds)
MAX_WAIT = 60.0
#: how long a finished trick stays when the learner chose "go on by itself" (seconds)
AUTO_HOLD = 3.0
#: how long the gathering of a trick is shown (the stylesheet's tl-gather animation)
GATHER = 0.45
#: how long one stone of a Kalah sowing is shown, as a share of the bots' pace (a move every 0.8 s:
#: a stone every 0.2 s); the front end shows the sowing, and the bots wait until it is shown
STONE_SHARE = 0.25


@dataclass(frozen=True, slots=True)
class Pause:
    """Something the table shows until the learner continues.

    ``trick``: a finished trick (``step`` is its trick step). ``round``: a round is over;
    ``step`` is the last step before the next deal, its state the table as it was scored, and
    ``sheet`` the steps that scored it.
    """

    kind: Literal["trick", "round"]
    step: Step
    sheet: tuple[Step, ...] = ()


class PlayTable(Board):
    """One learner seat against heuristic bots, in any game, player count and variant.

    ``players=None`` is the game's default count (:func:`tricklab.games.default_players`).
    ``pace`` is the pause in seconds between two bot moves (0 plays them at once, at most 60).
    ``hold`` is how long a finished trick stays on the table: ``None`` (the default) until the
    learner continues, a number of seconds (at most 60), or ``0`` for no pauses at all, not
    even at a round's end (for scripts that play a table through).
    Rules options (e.g. ``partnerships=True``) and match options (``first_dealer=2``) are
    passed on to the game.

    One anywidget (a :class:`Board`): Undo, Hint, New deal and the look toggles are drawn by the
    front end from the scene (``table.controls["hint"].click()``); cards, bids, moves, the bots'
    pace and the review are the board's own clicks. What a notebook cares about is synced traits,
    observable and linkable:

    - ``seat``: the learner's seat, fixed when the table is made (the table shows only what
      that seat may see, whatever the page sends);
    - ``turn``: the seat to play (``None`` once the game is over); ``my_turn`` says whether it
      is the learner's;
    - ``round``: the number of the round (deal) under way, from 1; ``scores``: each seat's
      points from the rounds scored so far (the final totals once the game is over; empty
      before then in a game that scores only at its end);
    - ``selection``: what the learner has picked for the decision at hand, in words of the
      game's notation (the cards picked for a pass ``"7H AH"``, the bid being built
      ``"bid 1 0 2"``, the chambers clicked ``"1 3"``, the Mandala colour picked), ``""`` for
      nothing; ``last_move``: the learner's last decision, as text (``"play 7H"``);
    - ``large``, ``four_colour``: the look (the only ones the page may set, through the toggles);
    - ``message``: the last refusal or note, in words (``""`` for none).

    The table's own traits (all but ``large``, ``four_colour`` and ``message``) follow the match:
    setting one from outside raises :class:`~tricklab.errors.InvalidOption` and changes nothing.
    """

    seat = traitlets.Int(0).tag(sync=True)
    turn = traitlets.Int(None, allow_none=True).tag(sync=True)
    round = traitlets.Int(1).tag(sync=True)
    scores = traitlets.List(traitlets.Int()).tag(sync=True)
    selection = traitlets.Unicode("").tag(sync=True)
    last_move = traitlets.Unicode("").tag(sync=True)
    large = traitlets.Bool(False).tag(sync=True)
    four_colour = traitlets.Bool(False).tag(sync=True)
    _page_traits = frozenset({"large", "four_colour"})
    #: the traits the table sets itself from the match
    _own_traits = ("seat", "turn", "round", "scores", "selection", "last_move")

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        players: int | None = None,
        *,
        seat: int = 0,
        seed: int = 0,
        pace: float = 0.8,
        hold: float | None = None,
        four_colour: bool = False,
        large: bool = False,
        match: Match | None = None,
        **options: Any,
    ) -> None:
        cls = find_game(game)
        players = players if players is not None else default_players(cls)
        rules = get_rules(cls.name, players=players)
        rules.check_seat(seat)
        pace = check_seconds("pace", pace, MAX_WAIT)
        hold = None if hold is None else check_seconds("hold", hold, MAX_WAIT)
        check_flag("large", large)
        check_flag("four_colour", four_colour)
        if match is not None and not isinstance(match, Match):
            raise InvalidOption(f"match must be a Match to go on with, or None, not {describe(match)}")
        self._ready = False  # the observers wait until the whole table is made
        self._setting = 0  # > 0 while the table sets its own traits
        super().__init__()
        self._options = dict(options)
        with self._own():
            self.seat = seat
        self.large = large
        self.four_colour = four_colour
        self.pace = pace
        self.hold = hold
        self._bots_paused = False
        self._pending: asyncio.TimerHandle | None = None  # the next bot move (or continue), when paced
        self._review: ReviewView | None = None  # the review shown in place, under the button that asked for it
        self._reveal = ""  # what the next scene brings into view (a CSS selector), once
        self._reveals = 0
        self.on_intent(self._intent)
        self.undo_button = Button("undo", "Undo my last move", tooltip="take back your last decision")
        self.hint_button = Button("hint", "Hint", tooltip="the best choice found by playing out deals, and why")
        self.new_deal_button = Button("new_deal", "New deal", tooltip="a new match, the next seed")
        self.large_toggle, self.colour_toggle = look_toggles(large, four_colour, suits=cls.capabilities.board is None)
        self.undo_button.on_click(self.undo)
        self.hint_button.on_click(self.hint)
        self.new_deal_button.on_click(self.new_deal)
        self.large_toggle.on_change(lambda value: setattr(self, "large", value))
        self.colour_toggle.on_change(lambda value: setattr(self, "four_colour", value))
        self.add_class("tricklab-playtable")
        if match is not None:  # a match played so far (a link's moves): it goes on from where it is
            if (match.rules.name, match.rules.players) != (cls.name, players):
                raise InvalidOption(f"the match is {match.rules.name} with {match.rules.players} players")
            variants = match.rules.capabilities.variants
            self._options.update({k: True for k in variants if getattr(match.rules.options, k, False)})
        with self.hold_redraw():
            self.use_controls(
                Controls(
                    [
                        [
                            self.undo_button,
                            self.hint_button,
                            self.new_deal_button,
                            self.large_toggle,
                            self.colour_toggle,
                        ]
                    ]
                )
            )
            self._ready = True
            if match is not None:
                self._start(match.rules, match.seed, match)
            else:
                self._start(rules, seed)

    # --- the synced state ------------------------------------------------------------------------------

    @contextmanager
    def _own(self) -> Iterator[None]:
        """The table sets its own traits inside (from outside they are refused)."""
        self._setting += 1
        try:
            yield
        finally:
            self._setting -= 1

    @traitlets.validate(*_own_traits)
    def _only_the_table(self, proposal: Any) -> Any:
        if not getattr(self, "_setting", 0):
            name = proposal["trait"].name
            raise InvalidOption(
                f"{name} follows the match: the table sets it"
                + (" (the seat is fixed when the table is made)" if name == "seat" else "")
            )
        return proposal["value"]

    @traitlets.validate("large", "four_colour")
    def _check_look(self, proposal: Any) -> bool:
        check_flag(proposal["trait"].name, proposal["value"])
        return bool(proposal["value"])

    @traitlets.observe("large", "four_colour")
    def _look_changed(self, change: dict[str, Any]) -> None:
        if not getattr(self, "_ready", False):
            return
        with self.hold_redraw():
            toggle = self.large_toggle if change["name"] == "large" else self.colour_toggle
            toggle.value = change["new"]
            self._render()

    def _sync_state(self) -> None:
        """The synced traits, from the match and the learner's picks."""
        match = self.match
        steps = match.timeline(self.seat)
        scores: list[int] = []
        for step in steps:
            round_scores = step.event.data.get("scores") if step.event.kind == EventKind.SCORE else None
            if isinstance(round_scores, tuple) and all(isinstance(x, int) for x in round_scores):
                scores = [a + b for a, b in zip(scores or [0] * len(round_scores), round_scores, strict=False)]
        if match.result is not None:
            scores = list(match.result.totals)
        mine = [a for a, state in zip(match.actions, match.states, strict=False) if state.to_play == self.seat]
        with self._own():
            self.turn = match.to_play
            self.round = max(1, sum(1 for s in steps if s.event.kind == EventKind.DEAL))
            self.scores = scores
            self.selection = self._selection()
            self.last_move = str(mine[-1]) if mine else ""

    def _selection(self) -> str:
        if self._pick.colour:
            return str(self._pick.colour) + (f" {self._pick.place}" if self._pick.place else "")
        if self._picked:
            return " ".join(self._picked)
        if any(self._bid.values()) and Bid in self._offered():  # the bid being built, while a bid is asked
            return str(Bid.of(self._bid))
        return ""

    @property
    def _message(self) -> str:
        """The message shown (older name of ``message``)."""
        return self.message

    def _start(self, rules: Rules[Any], seed: int, match: Match | None = None) -> None:
        """A new match of ``rules`` from ``seed`` (or ``match`` as it is), and the bots' next
        moves. The bots are the table's (:func:`tricklab.bots.table_bot`): each decision's choice
        depends only on the seed and the moves before it, so undoing, or opening a link that
        leaves their unseen choices out, brings the same choices back."""
        self.match: Match = rules.new_match(seed, **self._options) if match is None else match
        # the matches this table has started: a sowing's key names its match by this, never by its
        # seed (a table of classmates keeps its seed from the page)
        self._started = getattr(self, "_started", 0) + 1
        self.rules: Rules[Any] = self.match.rules
        self._adviser = hint_bot(self.rules, self.seat, f"{seed}:hint")
        self._scanned = len(self.match.timeline(self.seat))  # steps already looked at for pauses
        self._pauses: list[Pause] = []
        self._gathering = False
        self._show_last = False
        self._arrived = -1  # the number of actions when a card last slid onto the table
        self._why_id = f"tl-why-{next(_WHY_IDS)}"  # the sentence saying why a card is not playable now
        self._drawn_step = -1  # the step of the scene last drawn: focus moves on only when it changes
        self.message = ""
        self._hint: Hint | None = None
        self._picked: list[str] = []  # cards chosen for a pass, or chambers for gems
        self._gem_mode = ""
        self._pick = Picking()  # a Mandala move being made on the board: the card picked, the place
        self._focus = ""  # where focus goes after the next drawing, when the learner's pick asks
        self._sown = -1  # the number of actions when the last move was made here (its sowing is shown)
        self._sowing: tuple[int, dict[str, Any] | None] = (-1, None)
        self._still = False  # the page asked for reduced motion: no sowing is shown stone by stone
        self._bid = dict.fromkeys(self.rules.capabilities.decision.suits, 0)
        self._run_bots()

    # --- what the learner does ----------------------------------------------------------------------

    @property
    def _round_word(self) -> str:
        """What the game calls a round: "round", or "deal" (Band of Tricks)."""
        return self.rules.capabilities.round_word

    @property
    def my_turn(self) -> bool:
        return self.match.to_play == self.seat

    @property
    def bots_paused(self) -> bool:
        """Whether the learner has paused the bots (they move again on Resume or Next bot move)."""
        return self._bots_paused

    @property
    def paused(self) -> Pause | None:
        """What the table is holding for the learner (a finished trick, a round's sheet), if anything."""
        return self._pauses[0] if self._pauses else None

    def act(self, action: Action | str) -> bool:
        """Take a decision for the learner's seat (an action, or its text like ``"play 7H"``); an
        illegal one shows the engine's reason."""
        if not isinstance(action, Action | str):
            raise InvalidOption(f"action must be an action or its text, like 'play 7H', not {describe(action)}")
        if not self.my_turn:
            self._refuse(self._wait())
            return False
        if not self.live:
            self._refuse(self._continue_first())
            return False
        try:
            landed = self._decide(action)
        except IllegalAction as exc:
            self.message = exc.to_you  # the engine's reason, spoken to the learner
            self._render()
            return False
        except TricklabError as exc:
            self.message = str(exc)
            self._render()
            return False
        # the decision under way is over either way: it landed, or another move came first (the
        # same seat's other tab at a table of classmates) and the learner looks again
        self._hint = None
        self._picked = []
        self._gem_mode = ""
        self._pick = Picking()
        if not landed:
            self.message = "Another move came first: the table is up to date, look again."
            self._after_moves()
            self._run_bots()
            return False
        self.message = ""
        self._sown = len(self.match.actions)
        self._pauses = [p for p in self._pauses if p.kind != "trick"]  # the learner's move continues
        self._gathering = False
        self._cancel_pending()
        self._after_moves()
        self._run_bots()
        return True

    def _decide(self, action: Action | str) -> bool:
        """Apply the learner's decision to the match (the engine checks it); whether it landed."""
        self.match.apply(action)
        return True

    def _wait(self) -> str:
        return "Wait for your turn: " + (
            "the game is over."
            if self.match.is_over
            else f"{self.rules.seat_name(self.match.to_play or 0)} is to play."
        )

    def _continue_first(self) -> str:
        pause = self.paused
        if pause is not None and pause.kind == "round":
            return f"The {self._round_word} is over: read its score sheet, then press “{self._continue_label(pause)}”."
        return "Press “Continue” first: the last trick is still on the table."

    def continue_(self, *, animate: bool = True) -> bool:
        """Go on from what the table holds (a finished trick is gathered by its winner first,
        for a moment, unless ``animate`` is false or the bots play at once)."""
        pause = self.paused
        if pause is None:
            self._refuse("There is nothing to continue from: the game goes on.")
            return False
        self._cancel_pending()
        if pause.kind == "trick" and animate and self.pace > 0 and not self._gathering:
            self._gathering = True
            self._render()
            self._schedule(self._gathered, GATHER)
            return True
        self._gathered()
        return True

    def _gathered(self) -> None:
        self._pending = None
        self._gathering = False
        if self._pauses and self._pauses.pop(0).kind == "round":
            self._stop_review()  # the review of a round goes with its sheet
        if not self._pauses:
            self._went_on()
        self.message = ""
        self._hold_timer()
        self._run_bots()

    def undo(self) -> bool:
        """Take back the learner's last decision (and the bot moves after it)."""
        seats = [state.to_play for state in self.match.states[:-1]]
        if self.seat not in seats:
            self.message = "There is nothing of yours to undo yet."
            self._render()
            return False
        self._cancel_pending()
        while True:
            seat = self.match.states[-2].to_play
            self.match.undo()
            if seat == self.seat:
                break
        self._scanned = len(self.match.timeline(self.seat))
        self._pauses = []
        self._stop_review()
        self._gathering = False
        self.message = "Your last move was taken back."
        self._hint = None
        self._picked = []
        self._gem_mode = ""
        self._pick = Picking()
        self._sown = -1
        self._render()
        return True

    def hint(self) -> Action | None:
        """Show (and return) what the heuristic bot would do in the learner's place: the action
        in words and the bot's own reasons (the rule that limits the choice, then the rule of
        thumb that picks it), as :func:`tricklab.hints.hint` gives them."""
        if not (self.my_turn and self.live):
            self._refuse("A hint is for your own turn." if not self.my_turn else self._continue_first())
            return None
        # the one judge of the review and the trainer, on the same seed: they name the same best choice
        self._hint = judged_hint(self.match, self._adviser, seed=self.match.seed)
        self._render()
        return self._hint.action

    def review(self, round: int | None = None, *, background: bool = True) -> ReviewView | None:
        """Rate the learner's decisions in ``round`` (from 0; ``None``: the last complete
        round), shown in place: in the round's sheet (or the final result) right under the
        button that asked, brought into view, with its progress and Cancel while it runs
        (:class:`~tricklab.widgets.review.ReviewView`); in the background unless ``background``
        is false."""
        if self.rules.capabilities.review is None:
            self._refuse(f"There is no review of {self.rules.title} games yet.")
            return None
        rounds = reviewable_rounds(self.match)
        if round is None:
            round = rounds[-1]
        if isinstance(round, bool) or not isinstance(round, int):
            raise InvalidOption(f"round is a round's number from 0, or None for the last, not {describe(round)}")
        if round not in rounds:
            word = self._round_word
            self._refuse(
                f"{word.capitalize()} {describe(round + 1)} cannot be reviewed yet: only a {word} that is over can be."
            )
            return None
        self._stop_review()  # one review at a time: the one under way stops first
        view = ReviewView(self.match, self.seat, round, seed=self.match.seed, on_change=self._review_changed)
        self._review = view
        self.message = ""
        view.run(background=background)
        return view

    def _review_changed(self, reveal: str) -> None:
        """The review's markup changed (from its thread while it runs): draw it, bringing ``reveal`` into view."""
        if reveal:
            self._reveal = reveal
        self._render()

    def _stop_review(self) -> None:
        """Stop the review shown, if it is under way, and wait until it has (see ``ReviewView.stop``)."""
        if self._review is not None:
            review, self._review = self._review, None
            review.stop()

    def _review_html(self, round_index: int | None) -> str:
        """The review in place, if it is of ``round_index`` (``None``: any round, the game's end)."""
        review = self._review
        if review is None or (round_index is not None and review.round != round_index):
            return ""
        return review.html(four_colour=self.four_colour)

    def new_deal(self) -> None:
        """A new match with the next seed (the same game, players, seat and variants)."""
        self._cancel_pending()
        seed = next_seed(self.match.seed)
        self._stop_review()  # a review of the last match goes with it
        self._start(get_rules(self.rules.name, players=self.rules.players), seed)
        self.message = f"A new deal: seed {seed}."
        self._render()

    def link_state(self) -> dict[str, str]:
        """What a link needs to reopen this match at this point: the seed, the code of its
        moves (:mod:`tricklab.links`), the first dealer it was given, the look toggles."""
        state = {"seed": str(self.match.seed), "moves": moves_code(self.match, self.seat)}
        if "first_dealer" in self.match.match_options:
            state["first_dealer"] = str(self.match.match_options["first_dealer"] + 1)
        look = {"large": self.large, "four_colour": self.four_colour}
        return {**state, **{name: "1" for name, on in look.items() if on}}

    def replay_link(self) -> str:
        """The replay app's address (relative to this app's) that reopens this match: its
        settings and the compact, checked code of its moves (:mod:`tricklab.links`)."""
        from urllib.parse import urlencode

        query: dict[str, str] = {"game": self.rules.name, "players": str(self.rules.players)}
        query["seed"] = str(self.match.seed)
        for name in self.rules.capabilities.variants:
            if getattr(self.rules.options, name, False):
                query[name] = "yes"
        if "first_dealer" in self.match.match_options:
            query["first_dealer"] = str(self.match.match_options["first_dealer"] + 1)
        query["moves"] = moves_code(self.match, self.seat)
        return app_link("replay.ipynb?" + urlencode(query))

    # --- bots and pauses -------------------------------------------------------------------------------

    @property
    def live(self) -> bool:
        """Whether the table shows the match as it is now, so the learner may decide: nothing
        is held, or only a finished trick of the state the match is in (the learner's decision
        then continues the game)."""
        pause = self.paused
        if pause is None:
            return True
        return pause.kind == "trick" and self._is_current(pause)

    def _is_current(self, pause: Pause) -> bool:
        """Whether nothing that changes the table (a score, a deal) came after the paused step."""
        later = self.match.timeline(self.seat)[pause.step.index + 1 :]
        return not any(s.event.kind in (*ROUND_END, EventKind.DEAL, EventKind.END) for s in later)

    def _after_moves(self) -> None:
        """Look at the steps since the last look: a finished trick, a round's end."""
        steps = self.match.timeline(self.seat)
        new = steps[self._scanned :]
        self._scanned = len(steps)
        if self.hold == 0:
            return
        had = bool(self._pauses)
        for step in new:
            kind = step.event.kind
            if kind == EventKind.TRICK:
                self._pauses.append(Pause("trick", step))
            elif kind == EventKind.DEAL and step.index > 0:
                self._pauses.append(Pause("round", steps[step.index - 1], self._sheet(steps, step.index)))
        if not had:
            self._hold_timer()

    @staticmethod
    def _sheet(steps: list[Step], deal: int) -> tuple[Step, ...]:
        """The steps that scored the round before the deal at ``deal``: from its first score (or
        Jewel Vault's round end) after the last trick."""
        start = deal
        while start > 0 and steps[start - 1].event.kind not in (EventKind.TRICK, EventKind.PLAY):
            start -= 1
        closing = [s for s in steps[start:deal] if s.event.kind in ROUND_END]
        first = closing[0].index if closing else start
        return tuple(steps[first:deal])

    def _hold_timer(self) -> None:
        """With a timed hold, the finished trick goes on by itself after that many seconds."""
        pause = self.paused
        if pause is not None and pause.kind == "trick" and self.hold and self.hold > 0:
            self._schedule(lambda: self.continue_(animate=True), self.hold)

    def _went_on(self) -> None:
        """The learner has gone on from everything the table held (a table of classmates tells
        the others)."""

    def _bots_may_move(self) -> bool:
        """Whether a bot is to move now: it is not the learner's turn, nothing is held for the
        learner, the bots are not paused, and the game goes on."""
        return not (self.match.is_over or self.my_turn or self._pauses or self._bots_paused)

    def _run_bots(self) -> None:
        """Let the bots move until it is the learner's turn, one move per ``pace`` seconds;
        they wait while the table holds something for the learner, or while paused."""
        if not self._bots_may_move():
            self._render()
            return
        if self.pace <= 0:
            while self._bots_may_move():
                self._bot_move()
            self._render()
            return
        self._render()
        self._schedule(self._bot_step, self.pace + self._sowing_seconds())

    def _bot_step(self) -> None:
        self._pending = None
        if not self._bots_may_move():
            return
        self._bot_move()
        self._render()
        if self._bots_may_move():
            self._schedule(self._bot_step, self.pace + self._sowing_seconds())

    def _bot_move(self) -> None:
        seat = self.match.to_play
        assert seat is not None
        bot = table_bot(self.rules, seat, self.match.seed, len(self.match.actions))
        self.match.apply(bot.choose(self.match.view(seat), self.match.legal_actions()))
        self._sown = len(self.match.actions)
        self._after_moves()

    # --- a sowing shown stone by stone ----------------------------------------------------------------

    def sowing(self) -> dict[str, Any] | None:
        """The last move's sowing as the front end shows it, stone by stone, at the bots' pace:
        ``frames`` (the board before the move, then after each step the engine told: the pick-up,
        every stone sown, a capture, the end) each with the 14 counts (``pits``), the stones still
        in hand (``lifted``), the place a stone fell into (``mark``) and the step in words
        (``text``); ``stone_ms``, how long each frame stays; ``key``, the move's own name (the
        match's number at the table, and the move's).
        ``None`` when there is nothing to show: another game, bots at once (pace 0), or a move
        this table did not just make (a link's moves, an undo)."""
        n = len(self.match.actions)
        if self.rules.capabilities.board is not BoardKind.PITS or self.pace <= 0 or self._sown != n or n == 0:
            return None
        if self._sowing[0] == n and self._sowing[1] is not None:
            return {**self._sowing[1], "stone_ms": round(self.pace * STONE_SHARE * 1000)}
        steps = self.match.timeline(self.seat)
        first = len(steps)
        while first > 0 and steps[first - 1].decisions == n:
            first -= 1
        if first == 0 or first == len(steps):
            return None
        frames = [self._frame(steps[first - 1].state, None, "")]
        for step in steps[first:]:
            index = step.event.data.get("index") if step.event.kind == EventKind.STONE else None
            frames.append(self._frame(step.state, index if isinstance(index, int) else None, step.event.text))
        shown = {"key": f"{self._started}:{n}", "frames": frames}
        self._sowing = (n, shown)
        return {**shown, "stone_ms": round(self.pace * STONE_SHARE * 1000)}

    @staticmethod
    def _frame(view: Any, mark: int | None, text: str) -> dict[str, Any]:
        return {"pits": list(view.pits), "lifted": view.lifted, "mark": mark, "text": text}

    def _sowing_seconds(self) -> float:
        """How long the front end takes to show the last move's sowing (0 where it shows none)."""
        shown = None if self._still else self.sowing()
        return 0.0 if shown is None else (len(shown["frames"]) - 1) * shown["stone_ms"] / 1000

    def _schedule(self, fn: Callable[[], object], delay: float) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = asyncio.get_event_loop()
        self._cancel_pending()
        self._pending = loop.call_later(delay, fn)

    def _cancel_pending(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    def finish_bots(self) -> None:
        """Play every pending bot move now, continuing past every pause (tests and impatient
        learners)."""
        self._cancel_pending()
        self._gathering = False
        while not (self.match.is_over or (self.my_turn and not self._pauses)):
            if self._pauses:
                self._pauses.pop(0)
                continue
            self._bot_move()
        self._render()

    def next_bot_move(self) -> bool:
        """One bot move now (the learner steps the bots one move at a time)."""
        if self.match.is_over or self.my_turn:
            self._refuse("It is not a bot's turn." if not self.match.is_over else self._wait())
            return False
        if self._pauses:
            self._refuse(self._continue_first())
            return False
        self._cancel_pending()
        self._bot_move()
        self._render()
        return True

    def set_pace(self, what: str) -> bool:
        """``slower``, ``faster``, ``pause`` or ``resume`` the bots (what the pace buttons send)."""
        if what in ("slower", "faster"):
            current = min(range(len(PACES)), key=lambda i: abs(PACES[i] - self.pace))
            step = 1 if what == "slower" else -1
            self.pace = PACES[max(0, min(len(PACES) - 1, current + step))]
        elif what == "pause":
            self._bots_paused = True
            self._cancel_pending()
        elif what == "resume":
            self._bots_paused = False
        else:
            self._refuse(f"“{quote(what)}” is not a pace: use the Slower, Faster and Pause buttons.")
            return False
        self.message = ""
        if what != "pause" and not self._pauses:
            self._cancel_pending()
            self._run_bots()
        else:
            self._render()
        return True

    def set_hold(self, what: str) -> bool:
        """How a finished trick goes: ``wait`` for the learner, or go on by itself (``auto``)."""
        if what not in ("wait", "auto"):
            self._refuse(f"“{quote(what)}” is not a choice for finished tricks: wait, or go on by itself.")
            return False
        self.hold = None if what == "wait" else AUTO_HOLD
        self.message = ""
        if self.hold is None:
            self._cancel_pending()
        else:
            self._hold_timer()
        self._render()
        return True

    # --- clicks ----------------------------------------------------------------------------------------------

    def _intent(self, intent: str, value: str | None) -> None:
        """Clicks on the board. A value from the page is read strictly (a card as its button
        writes it, a chamber as ASCII digits) and the engine decides whether the decision is
        allowed; anything refused changes nothing and the table says why."""
        read = {
            "play": self._play_card,
            "act": self._act_text,
            "pick": self._toggle,
            "gem-mode": self._set_gem_mode,
            "chamber": self._pick_chamber,
            "bid": self._adjust_bid,
            "md-card": self._pick_card,
            "md-place": self._pick_place,
        }.get(intent)
        if read is not None:
            text = short(value)
            if text is None:
                self._refuse(too_long(value) if value else "That click carried no value.")
            else:
                read(text)
        elif intent == "confirm":
            self._confirm()
        elif intent == "clear":
            self._picked = []
            self._render()
        elif intent == "continue":
            self.continue_()
        elif intent == "key":
            if value == "ArrowRight" and self._pauses:  # → continues, as in the replay's stepper
                self.continue_()
        elif intent == "pace":
            if value == "step":
                self.next_bot_move()
            else:
                self.set_pace(short(value, 12) or "")
        elif intent == "hold":
            self.set_hold(short(value, 12) or "")
        elif intent == "last-trick":
            self._show_last = not self._show_last
            self._render()
        elif intent == "motion":  # the page's wish: "reduce" (no sowing shown stone by stone) or not
            self._still = value == "reduce"
        elif intent == "new-deal":
            self.new_deal()
        elif intent in REVIEW_INTENTS:
            if self._review is not None:
                self._review.intent(intent, short(value, 40))
        elif intent == "review":
            chosen = number(value) if value else None
            if value and chosen is None:
                self._refuse(f"“{quote(value)}” is not a {self._round_word}: use the Review buttons.")
            else:
                self.review(None if chosen is None else chosen - 1)

    def _refuse(self, message: str) -> None:
        self.message = message
        self._render()

    def _card(self, text: str) -> Card | None:
        """The card a card button names (its notation exactly), or ``None`` with the reason shown."""
        try:
            return clicked_card(self.rules, text)
        except TricklabError as exc:
            self._refuse(str(exc))
            return None

    def _play_card(self, text: str) -> None:
        card = self._card(text)
        if card is not None:
            self.act(Play(card))

    def _act_text(self, text: str) -> None:
        try:
            action = self.rules.parse_action(text)
        except TricklabError as exc:
            self._refuse(str(exc))
            return
        self.act(action)

    def _offered(self) -> set[type[Action]]:
        """The kinds of decision the engine offers the learner now."""
        return {type(a) for a in self.match.legal_actions()} if self.my_turn else set()

    def _toggle(self, text: str) -> None:
        if Pass not in self._offered():
            self._refuse("There are no cards to pick now.")
            return
        card = self._card(text)
        if card is None:
            return
        if str(card) in self._picked:
            self._picked.remove(str(card))
        else:
            count = len(next(a for a in self.match.legal_actions() if isinstance(a, Pass)).cards)
            if len(self._picked) >= count:  # said at once, where the cards are, not after "Pass"
                self._refuse(f"You pass {count}: click a picked card to put it back first.")
                return
            self._picked.append(str(card))
        self.message = ""
        self._render()

    def _set_gem_mode(self, text: str) -> None:
        modes = {"place": Place, "move": Move}
        if text not in modes or modes[text] not in self._offered():
            self._refuse(f"“{quote(text)}” is not a gem action you can take now.")
            return
        self._gem_mode = text
        self._picked = []
        self.message = ""
        self._render()

    def _pick_chamber(self, text: str) -> None:
        if not (self._gem_mode and self._offered()):
            self._refuse("Choose Place gems or Move gems first, then click the chambers.")
            return
        chamber = number(text)
        if chamber is None:
            self._refuse(f"“{quote(text)}” is not a chamber: click one on the chamber board.")
            return
        self._picked.append(str(chamber))
        self.message = ""
        self._render()

    def _placing(self) -> list[Action]:
        """The learner's Mandala moves that put cards somewhere (not claims), when it is their move."""
        if not (self.my_turn and self.live):
            return []
        return [a for a in self.match.legal_actions() if mandala_place(a) is not None]

    def _no_pick(self) -> str:
        """Why no card can be picked now."""
        if self.rules.capabilities.board is not BoardKind.MANDALAS:
            return "There are no cards to pick on this table."
        if not self.my_turn:
            return self._wait()
        if not self.live:
            return self._continue_first()
        return self.rules.explain_choice(self.match.view(self.seat), self.seat).text

    def _pick_card(self, text: str) -> None:
        """A card of the hand tapped (its colour): picked, or put back when it was picked."""
        moves = self._placing()
        if not moves:
            self._refuse(self._no_pick())
            return
        if text not in COLOURS:
            self._refuse(f"“{quote(text)}” is not a card of your hand: tap one of its cards.")
            return
        if not any(getattr(a, "colour", None) == text for a in moves):
            refused = self.rules.refusal(self.match.state, one_card("discard", text))
            self._refuse(refused.to_you if refused is not None else f"You cannot play {text} now.")
            return
        self._pick = Picking() if self._pick.colour == text else Picking(text, self._refused_places(text, moves))
        self._focus = "button.tl-place.tl-open" if self._pick.colour else ""
        self.message = ""
        self._render()

    def _refused_places(self, colour: str, moves: list[Action]) -> dict[str, str]:
        """Each place ``colour`` may not go now, with the engine's reason (to the learner)."""
        open_ = {mandala_place(a) for a in moves if getattr(a, "colour", None) == colour}
        refused = {}
        for place in MANDALA_PLACES:
            if place in open_:
                continue
            why = self.rules.refusal(self.match.state, one_card(place, colour))
            if why is not None:
                refused[place] = why.to_you
        return refused

    def _pick_place(self, text: str) -> None:
        """A place tapped after a card: the move, a choice of how many cards, or the engine's why not."""
        moves = self._placing()
        if not moves:
            self._refuse(self._no_pick())
            return
        if text not in MANDALA_PLACES:
            where = "a Mountain, your Field or the discard pile"
            self._refuse(f"“{quote(text)}” is not a place on the board: tap {where}.")
            return
        colour = self._pick.colour
        if colour is None:
            self._refuse("Tap a card in your hand first, then the place it goes.")
            return
        here = [a for a in moves if mandala_place(a) == text and getattr(a, "colour", None) == colour]
        if len(here) == 1:
            self.act(here[0])
            return
        if not here:
            refused = self.rules.refusal(self.match.state, one_card(text, colour))
            if refused is None:  # the engine allows the one card after all: it decides
                self.act(one_card(text, colour))
                return
            why = Reason(refused.rule_id or "", refused.to_you.rstrip(".") + ".")
            self._pick = Picking(colour, self._pick.refused, None, why)
            self.message = ""
            self._render()
            return
        self._pick = Picking(colour, self._pick.refused, text)
        self._focus = ".tl-counts button"
        self.message = ""
        self._render()

    def _adjust_bid(self, text: str) -> None:
        step = bid_step(text)
        if step is None:
            self._refuse(f"“{quote(text)}” is not a step of a bid: use the \u2212 and + buttons.")
            return
        if not self.my_turn:
            self._refuse(self._wait())
            return
        bid = dict(self._bid)
        bid[step[0]] = bid.get(step[0], 0) + step[1]  # (a game without a suit bid: the engine refuses it)
        try:  # the engine says whether this seat could bid that now
            self.rules.apply(self.match.state, Bid.of(bid))
        except TricklabError as exc:
            self._refuse(str(exc))
            return
        self._bid = bid
        self.message = ""
        self._render()

    def _confirm(self) -> None:
        legal = self.match.legal_actions()
        kinds = {type(a) for a in legal}
        try:  # building the action: the engine checks its fields
            if Bid in kinds:
                action: Action = Bid.of(self._bid)
            elif Pass in kinds:
                action = Pass(tuple(self.rules.card(c) for c in self._picked))
            elif self._gem_mode == "place":
                action = Place(tuple(int(c) for c in self._picked))
            elif self._gem_mode == "move":
                chambers = [int(c) for c in self._picked]
                if len(chambers) % 2:
                    self._refuse("A move step needs two chambers: where the gem is, then its neighbour.")
                    return
                action = Move(tuple(zip(chambers[::2], chambers[1::2], strict=True)))
            else:
                return
        except TricklabError as exc:
            self._refuse(str(exc))
            return
        self.act(action)

    # --- drawing -------------------------------------------------------------------------------------------------

    def _render(self) -> None:
        pause = self.paused
        live = self.live
        view = self.match.view(self.seat) if live or pause is None else pause.step.state
        legal = self.match.legal_actions() if self.my_turn and live else []
        plays = [a.card for a in legal if isinstance(a, Play)]
        four = self.four_colour
        parts = [self._table_html(), self._controls_html()]
        status = self._status()
        parts.append(f'<p class="tl-caption">{esc(status)}</p>')
        if self._hint is not None:
            judged = self._hint.evaluation
            why = (
                "Why"
                if judged is None
                else f"Why: played out on {plural(judged.samples, 'deal')} that fit what you know"
            )
            parts.append(
                f'<section class="tl-hint" aria-label="Hint"><p><strong>Hint: {esc(self._hint.text)}.</strong></p>'
                f"{judged_reasons_html(self._hint.reasons, title=why)}</section>"
            )
        if pause is not None and pause.kind == "round":
            parts.append(self._sheet_html(pause))
        elif self.match.is_over:
            parts.append(self._over_html())
        centre = None
        if pause is not None and pause.kind == "trick":
            centre = finished_trick_html(
                self.rules,
                pause.step.event,
                four_colour=four,
                viewer=self.seat,
                gathering=self._gathering,
                footer=self._continue_html(pause),
            )
        arriving = len(self.match.actions) != self._arrived and live and bool(getattr(view, "trick", ()))
        self._arrived = len(self.match.actions)
        # a chamber a Place may not go into is marked only while placing: moving into it is allowed (TS-7)
        closed = self._closed_chambers(legal) if self._gem_mode == "place" else {}
        received, note = self._received() if live else ({}, "")
        if note:
            parts.append(f'<p class="tl-received-note" role="status">{esc(note)}</p>')
        parts.append(
            view_html(
                self.rules,
                view,
                four_colour=four,
                legal=plays,
                hand_intent="play" if plays else None,
                centre=centre,
                arriving=arriving,
                with_panels=False,
                marked=received,
                why_id=self._why_id,
                actions=legal,
                action_intent="act",
                picking=self._pick if self.rules.capabilities.board is BoardKind.MANDALAS else None,
            )
        )
        parts.append(self._decision_html(view, legal))
        parts.append(
            panel_html(
                self.rules,
                view,
                four_colour=four,
                board_intent="chamber" if self._gem_mode and legal else None,
                closed=closed,
            )
        )
        if self._show_last:
            parts.append(self._last_trick_html())
        parts.append(self._history_html())
        step = len(self.match.actions) * 4 + len(self._pauses) + (2 if self._gathering else 0)
        reveal, self._reveal = self._reveal, ""
        if reveal:  # what the learner just asked for comes into view (the review, a moment of it)
            self._reveals += 1
        moved, self._drawn_step = step != self._drawn_step, step
        focus, self._focus = (self._next_focus(pause, legal) if moved else self._focus), ""
        scene: dict[str, Any] = {
            "html": "".join(parts),
            "label": f"{self.rules.title}: you are {self.rules.seat_name(self.seat)}",
            "large": self.large,
            "step": step,
            "announce": status,
            "focus": focus,
            "reveal": reveal,
            "reveal_id": self._reveals,
            "reveal_block": "nearest" if reveal == RETRIED else "start",
            "data": {
                "turn": self.my_turn and live,
                "over": self.match.is_over,
                "rounds": self._rounds_scored(),
                "paused": pause.kind if pause is not None else "",
            },
        }
        sowing = self.sowing() if live else None
        if sowing is not None:
            scene["sowing"] = sowing
        scene.update(self._scene_more())
        self._sync_state()
        self.scene = scene

    def _table_html(self) -> str:
        """What the table shows above its controls (a table of classmates: who sits where)."""
        return ""

    def _scene_more(self) -> dict[str, Any]:
        """More of the scene (a table of classmates: what the page keeps, its address)."""
        return {}

    def _next_focus(self, pause: Pause | None, legal: Sequence[Action]) -> str:
        """A CSS selector of what the learner does next: go on past a pause, else the first
        playable card, else the decision's first choice; empty when it is not their move."""
        if pause is not None:
            return "[data-intent='continue']"
        if not legal:
            return ""
        if any(isinstance(a, Play) for a in legal):
            return "button.tl-card.tl-legal[data-intent='play']"
        if self.rules.capabilities.board is BoardKind.MANDALAS:  # a card of the hand, or a claim's colour
            return "button.tl-pick-card, button.tl-claim"
        if self.rules.capabilities.board is not None:  # the moves are on the board
            return "button.tl-move[data-intent='act']"
        return ".tl-decision button"

    def _rounds_scored(self) -> int:
        return sum(1 for step in self.match.timeline(self.seat) if step.event.kind in ROUND_END)

    def _status(self) -> str:
        pause = self.paused
        if pause is not None and pause.kind == "trick":
            winner = pause.step.event.seat
            who = "You win" if winner == self.seat else f"{self.rules.seat_name(winner or 0)} wins"
            return f"{who} the trick: see why on the table, then continue."
        if pause is not None:
            return f"The {self._round_word} is over: here is how it was scored."
        if self.match.is_over:
            result = self.match.result
            if result is None or not result.winners:
                return "The game is over."
            names = [("you" if s == self.seat else self.rules.seat_name(s)) for s in result.winners]
            if len(names) > 1:
                return f"The game is over: {' and '.join(names)} share the win."
            return "The game is over: you win!" if names == ["you"] else f"The game is over: {names[0]} wins."
        if self.my_turn:
            return f"Your turn, {self.rules.seat_name(self.seat)}."
        if self._bots_paused:
            return f"{self.rules.seat_name(self.match.to_play or 0)} is to play: the bots are paused."
        return f"{self.rules.seat_name(self.match.to_play or 0)} is thinking…"

    def _controls_html(self) -> str:
        """The bots' pace, how a finished trick goes, and the last trick: one click each."""
        paused = self._bots_paused
        pace = (
            "Bots: paused" if paused else "Bots: at once" if self.pace <= 0 else f"Bots: a move every {self.pace:g} s"
        )
        buttons = [
            _button("pace", "slower", "Slower", label="bots slower"),
            _button("pace", "faster", "Faster", label="bots faster"),
            _button("pace", "resume" if paused else "pause", "Resume bots" if paused else "Pause bots"),
        ]
        if paused or self.pace > 0:
            buttons.append(_button("pace", "step", "Next bot move"))
        waits = self.hold is None
        if self.rules.capabilities.tricks:  # what happens after a trick: only where there are tricks
            buttons.append(
                _button(
                    "hold",
                    "auto" if waits else "wait",
                    "After a trick: wait for me" if waits else f"After a trick: go on after {AUTO_HOLD:g} s",
                    label="after a trick: "
                    + (
                        "wait until I continue (press to go on by itself)"
                        if waits
                        else "go on by itself (press to wait)"
                    ),
                )
            )
        if any(s.event.kind == EventKind.TRICK for s in self._round_steps()):
            buttons.append(
                _button(
                    "last-trick", "", "Hide last trick" if self._show_last else "Last trick", pressed=self._show_last
                )
            )
        return (
            f'<div class="tl-controls" role="group" aria-label="Pace and view">'
            f'<span class="tl-pace">{esc(pace)}</span>{"".join(buttons)}</div>'
        )

    def _continue_label(self, pause: Pause) -> str:
        if pause.kind == "trick":
            return "Continue"
        following = [s for s in self.match.timeline(self.seat)[pause.step.index + 1 :] if s.event.kind == "deal"]
        return f"Start {self._round_word} {self._round_number(pause) + 1}" if following else "Continue"

    def _round_number(self, pause: Pause) -> int:
        """The number (1, 2, ...) of the round a pause closes."""
        return sum(1 for s in self.match.timeline(self.seat)[: pause.step.index + 1] if s.event.kind == "deal")

    def _continue_html(self, pause: Pause) -> str:
        more = " (or play on: your move continues)" if self.live and self.my_turn else ""
        hint = " It goes on by itself in a moment." if self.hold and pause.kind == "trick" else ""
        return (
            f'<div class="tl-continue">{_button("continue", "", self._continue_label(pause))}'
            f'<span class="tl-pace">Press the button<span class="tl-keys"> (or →)</span> to go on{esc(more)}.'
            f"{esc(hint)}</span></div>"
        )

    def _sheet_html(self, pause: Pause) -> str:
        """A round's score sheet: each scoring step with its reasons; the table below shows the
        board as it was scored."""
        items = "".join(
            f"<li><p>{esc(s.event.text)}</p>{reasons_html(s.event.reasons, title='How')}</li>" for s in pause.sheet
        )
        number = self._round_number(pause)
        word = self._round_word.capitalize()
        review = f"Review my decisions in this {self._round_word}"
        return (
            f'<section class="tl-sheet" aria-label="{word} {number} score sheet"><h3>{word} {number} is over</h3>'
            f'<ol class="tl-sheet-steps">{items}</ol>'
            + (
                f'<div class="tl-choices">{_button("review", str(number), review)}</div>{self._review_html(number - 1)}'
                if self.rules.capabilities.review is not None
                else ""
            )
            + f"{self._continue_html(pause)}</section>"
        )

    def _over_html(self) -> str:
        result = self.match.result
        totals = ""
        if result is not None:
            rows = "".join(
                f"<li>{esc(self.rules.seat_name(s))}{' (you)' if s == self.seat else ''}: "
                f"{esc(plural(t, 'point'))}{' — wins' if s in result.winners else ''}</li>"
                for s, t in enumerate(result.totals)
            )
            totals = f'<ol class="tl-totals">{rows}</ol>{reasons_html(result.reasons, title="How the game was won")}'
        link = esc(self.replay_link())
        review = _button("review", "", "Review my game") if self.rules.capabilities.review is not None else ""
        actions = (
            review + self._again_html() + f'<a class="tl-choice tl-link" href="{link}" target="_blank" rel="noopener">'
            "Open this game in the replay app</a>"
        )
        others = ""
        if self._review is not None and self.rules.capabilities.review is not None:
            rounds = reviewable_rounds(self.match)
            word = self._round_word
            others = "".join(
                _button("review", str(r + 1), f"Review {word} {r + 1}") for r in rounds if r != self._review.round
            )
            others = f'<div class="tl-choices" aria-label="Other {word}s">{others}</div>' if others else ""
        return (
            f'<section class="tl-sheet tl-final" aria-label="Final result"><h3>The game is over</h3>{totals}'
            f"<p>Send the replay link to your teacher: it opens this exact game, every move.</p>"
            f'<div class="tl-choices">{actions}</div>{self._review_html(None)}{others}</section>'
        )

    def _again_html(self) -> str:
        """How the learner plays again once the game is over: a new deal."""
        return _button("new-deal", "", "New deal")

    def _round_steps(self) -> list[Step]:
        """The steps of the round the table shows (the one that ended, while its sheet is
        shown), from its deal."""
        steps = self.match.timeline(self.seat)
        pause = self.paused
        if pause is not None and not self.live:
            steps = steps[: pause.step.index + 1]
        start = max((s.index for s in steps if s.event.kind == EventKind.DEAL), default=0)
        return steps[start:]

    def _last_trick_html(self) -> str:
        tricks = [s for s in self._round_steps() if s.event.kind == EventKind.TRICK]
        if not tricks:
            return ""
        shown = finished_trick_html(
            self.rules, tricks[-1].event, four_colour=self.four_colour, viewer=self.seat, title="Last trick"
        )
        return f'<section class="tl-sheet tl-last-trick" aria-label="Last trick">{shown}</section>'

    def _history_html(self) -> str:
        """Every step of this round so far, newest first: it never clears, not on an undo either
        (an undo only takes back the steps it undid)."""
        steps = self._round_steps()
        items = "".join(f"<li>{esc(s.event.text)}</li>" for s in reversed(steps))
        what = self._round_word if self.rules.capabilities.tricks else "game"
        return (
            f'<details class="tl-history" open><summary>This {what}, newest first ({plural(len(steps), "step")})'
            f'</summary><ol class="tl-log" reversed tabindex="0" aria-label="What happened this {what}">'
            f"{items}</ol></details>"
        )

    def _received(self) -> tuple[dict[Card, str], str]:
        """The cards a pass brought the learner this round (marked in the hand until the
        learner's first card of the round), and a sentence naming them and who passed them."""
        steps = self._round_steps()
        exchange = next((s for s in steps if s.event.kind == EventKind.EXCHANGE), None)
        if exchange is None or exchange.index == 0:
            return {}, ""
        after = steps[steps.index(exchange) + 1 :]
        if any(s.event.kind == EventKind.PLAY and s.event.seat == self.seat for s in after):
            return {}, ""
        before = self.match.timeline(self.seat)[exchange.index - 1].state.hand
        cards = [c for c in exchange.state.hand if c not in before]
        if not cards:
            return {}, ""
        receivers = exchange.event.data.get("receivers", ())
        givers = [g for g, r in enumerate(receivers) if r == self.seat and g != self.seat]
        source = f" from {self.rules.seat_name(givers[0])}" if len(givers) == 1 else ""
        return (
            dict.fromkeys(cards, "received"),
            f"You received {and_list(c.pretty for c in cards)}{source}: they are marked in your hand.",
        )

    def _closed_chambers(self, legal: Sequence[Action]) -> dict[int, str]:
        """The chambers a Place may not go into now, each with the engine's reason (Tricks &
        Stones: the own expedition chamber); empty when no Place is offered."""
        places = [a for a in legal if isinstance(a, Place)]
        if not places:
            return {}
        open_ = {c for a in places for c in a.chambers}
        closed = {}
        for chamber in range(6):
            if chamber in open_:
                continue
            try:
                self.rules.apply(self.match.state, Place((chamber,)))
            except IllegalAction as exc:
                closed[chamber] = exc.to_you
            except TricklabError:
                continue
        return closed

    def _decision_html(self, view: SeatView, legal: Sequence[Action]) -> str:
        """The learner's decision, in words, just under the table and above the board it uses."""
        if not legal:
            return ""
        kinds = {type(a) for a in legal}
        if self.rules.capabilities.board is not None:  # the board draws each move where it is made
            why = self.rules.explain_choice(view, self.seat)
            return _decision(
                f"Your move: {why.text} Make it on the board.",
                "",
            )
        if kinds == {Play}:
            cards = [a.card for a in legal if isinstance(a, Play)]
            which = "any of your cards" if len(cards) == len(view.hand) else "a card with a green border"
            why = self.rules.explain_choice(view, self.seat)
            return _decision(
                f"Your turn to play: click {which} in your hand above.",
                f'<p class="tl-why" id="{self._why_id}">{esc(why.text)}</p>',
            )
        if Predict in kinds:  # the game's own words: what the number is, and what it does
            buttons = "".join(
                _button("act", str(a), str(a.n), label=self._describe(a, view)) for a in legal if isinstance(a, Predict)
            )
            return _decision(self.rules.explain_choice(view, self.seat).text, buttons)
        if Bid in kinds:
            return self._bid_html()
        if Pass in kinds:
            return self._pass_html(view, legal)
        if kinds & {Place, Move, Skip} and kinds <= {Place, Move, Skip}:
            return self._gems_html(view, legal)
        buttons = "".join(_button("act", str(a), self._describe(a, view)) for a in legal)
        return _decision(self._choice_prompt(legal), buttons)

    def _choice_prompt(self, legal: Sequence[Action]) -> str:
        kinds = {type(a) for a in legal}
        if AssignMetal in kinds:
            return "You won this trick with Metal: choose the suit it counts for."
        if Steal in kinds:
            return "Choose whose showroom you take a jewel from."
        if Announce in kinds:
            return "You are the dealer: announce how many cards everyone passes."
        return "Your decision: choose one."

    def _describe(self, action: Action, view: SeatView) -> str:
        return self.rules.describe_action(action, view)

    def _bid_html(self) -> str:
        rows = bid_rows(self._bid)
        zero = _button("act", "bid zero", self.rules.describe_action(Bid(zero=True)))
        if any(self._bid.values()):
            bid = Bid.of(self._bid)
            confirm = _button("confirm", "bid", self.rules.describe_action(bid))
            body = rows + confirm + zero
        else:  # 0 0 0 is Zero Success: one button for the one bid
            body = rows + zero
        return _decision(
            "Your bid: how many tricks you will win in each suit (\u2212 and +), or Zero Success: no trick at all.",
            body,
        )

    def _pass_html(self, view: SeatView, legal: Sequence[Action]) -> str:
        count = len(next(a for a in legal if isinstance(a, Pass)).cards)
        cards = "".join(
            card_html(
                c,
                intent="pick",
                four_colour=self.four_colour,
                classes=["tl-picked"] if str(c) in self._picked else [],
            )
            for c in view.hand
        )
        picked = and_list(self.rules.card(c).pretty for c in self._picked) or "none yet"
        confirm = _button("confirm", "pass", f"Pass {picked}" if self._picked else "Pass")
        return _decision(
            f"Pick {count} card{'s' if count > 1 else ''} to pass (picked: {picked}).",
            f'<div class="tl-cards">{cards}</div>' + confirm + _button("clear", "", "Clear"),
        )

    def _gems_html(self, view: SeatView, legal: Sequence[Action]) -> str:
        can_place = any(isinstance(a, Place) for a in legal)
        can_move = any(isinstance(a, Move) for a in legal)
        allowance = ""
        if isinstance(view, PodiumView) and isinstance(self.rules, PlaceAllowances) and view.gem_queue:
            seat, place = view.gem_queue[0]
            if seat == self.seat:
                allowance = f"You finished {PLACE_WORDS[place]} in the trick: {self.rules.describe_allowance(place)}. "
        modes = ""
        if can_place:
            modes += _button("gem-mode", "place", "Place gems", pressed=self._gem_mode == "place")
        if can_move:
            modes += _button("gem-mode", "move", "Move gems", pressed=self._gem_mode == "move")
        modes += _button("act", "skip", "Skip (use no points)")
        placing = self._gem_mode == "place" or (can_place and not can_move)
        closed = self._closed_chambers(legal) if placing else {}
        shut = "".join(f" {why.rstrip('.')}." for why in closed.values())  # the engine's words name the chamber
        chambers = ""
        if self._gem_mode:
            if self._gem_mode == "move":  # each step on its own: from a chamber to the next one
                steps = [self._picked[i : i + 2] for i in range(0, len(self._picked), 2)]
                picked = ", ".join(" → ".join(step) + ("" if len(step) == 2 else " → …") for step in steps)
            else:
                picked = ", ".join(self._picked)
            what = "where to place" if self._gem_mode == "place" else "a gem's chamber, then the chamber it goes to"
            chambers = (
                f"<p>Click on the chamber board {what}: {esc(picked) or 'nothing yet'}</p>"
                + _button("confirm", self._gem_mode, "Done")
                + _button("clear", "", "Clear")
            )
        if can_place or can_move:
            press = (
                "Choose Place or Move" if can_place and can_move else f"Press {'Place' if can_place else 'Move'} gems"
            )
            said = f"{press}, then click chambers on the chamber board."
        else:
            said = "There is nothing you can do with your points now: skip."
        return _decision(f"Your gem action. {allowance}{said}{shut}", modes + chambers)

    def __repr__(self) -> str:
        return (
            f"PlayTable(game={self.rules.name!r}, players={self.rules.players}, seat={self.seat}, "
            f"seed={self.match.seed}, actions={len(self.match.actions)})"
        )
