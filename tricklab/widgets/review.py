"""The review of a round where the learner is: its progress, its result, a moment opened and retried.

The figures are :func:`tricklab.review.review_round`'s (the one judge, :mod:`tricklab.judge`)
and the markup :mod:`tricklab.display.review`'s; this module only asks and shows.
:class:`ReviewView` is the review's state and markup, with no widget of its own: the play
table draws it inside its own board, right under the button that asked for it, and the
replay's :class:`ReviewPanel` (its pickers and buttons as controls) inside the stepper's board.
In a kernel the review runs in a thread, so the page stays live: the progress bar moves and
Cancel is heard (the review checks it between play-outs and stops, changing nothing). In the
browser, where there are no threads, the same review takes a step per turn of the page's event
loop (:mod:`tricklab.platform`).
One review runs at a time: a new one first stops the one under way.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..actions import Action
from ..display import esc
from ..display.review import review_html
from ..errors import TricklabError
from ..judge import JUDGE_SAMPLES
from ..match import Match
from ..platform import Background, Steps, finish, in_background, reporting
from ..review import ReviewCancelled, RoundReview, review_steps
from .controls import Button, Control, Picker, Progress
from .inputs import quote

DEFAULT_SAMPLES = JUDGE_SAMPLES

#: what a retry brings into view: its result, the moment's board kept in sight above it if it fits
RETRIED = ".tl-retry-result"

#: the intents a review's markup sends (its buttons)
INTENTS = ("review-moment", "review-retry", "review-cancel")


class ReviewView:
    """One seat's review of one round of ``match`` (a copy is taken), as state and markup.

    ``on_change(reveal)`` is called whenever the markup changes (from the review's thread while
    it runs); ``reveal`` names what should come into view (a CSS selector) or is empty.
    """

    def __init__(
        self,
        match: Match,
        seat: int,
        round: int,
        *,
        samples: int = DEFAULT_SAMPLES,
        seed: int = 0,
        on_change: Callable[[str], None] = lambda reveal: None,
    ) -> None:
        self.match = match.copy()
        self.rules = match.rules
        self.seat = seat
        self.round = round
        self.samples = samples
        self.seed = seed
        self.on_change = on_change
        self.review: RoundReview | None = None
        self.percent = 0
        self.message = ""
        self.moment: int | None = None
        self.tried: Action | None = None
        self._cancel = threading.Event()
        self._worker: Background | None = None
        self._running = False

    @property
    def running(self) -> bool:
        """Whether the review is under way (until its result, its message, or its cancellation is shown)."""
        return self._running

    def run(self, *, background: bool = True) -> None:
        """Start the review (``background=False``: wait for it)."""
        self.stop()
        self._cancel = cancel = threading.Event()
        self.review, self.percent, self.message, self.moment, self.tried = None, 0, "", None, None
        self._running = True
        self.on_change(".tl-review-box")
        if background:
            self._worker = in_background(self._work(cancel))
        else:
            finish(self._work(cancel), None, ReviewCancelled)

    def wait(self, timeout: float | None = None) -> None:
        if self._worker is not None:
            self._worker.wait(timeout)

    def cancel(self) -> None:
        self._cancel.set()

    def stop(self) -> None:
        """Cancel a review under way and return once it has stopped."""
        self._cancel.set()
        if self._worker is not None:
            self._worker.stop()

    def _progress(self, done: int, total: int, cancel: threading.Event) -> bool:
        if cancel.is_set():
            return False
        percent = 100 * done // total if total else 100
        if percent // 5 != self.percent // 5:  # a redraw every 5 %
            self.percent = percent
            self.on_change("")
        return True

    def _work(self, cancel: threading.Event) -> Steps[None]:
        try:
            steps = review_steps(self.match, self.seat, self.round, samples=self.samples, seed=self.seed)
            review = yield from reporting(
                steps, lambda done, total: self._progress(done, total, cancel), ReviewCancelled
            )
        except ReviewCancelled:
            self.message = "The review was cancelled. Press the review button to start it again."
        except TricklabError as exc:
            self.message = str(exc)
        else:
            self.review = review
        finally:
            self._running = False
        self.on_change(".tl-review-box")

    # --- what the learner does in it ---------------------------------------------------------------------

    def intent(self, intent: str, value: str | None) -> bool:
        """Handle one of :data:`INTENTS`; ``False`` for any other. A value that names no decision
        or no choice of it shows a message and changes nothing else."""
        if intent == "review-cancel":
            self.cancel()
            return True
        if intent == "review-moment":
            self.open_moment(value or None)
            return True
        if intent == "review-retry":
            self.retry(value or "")
            return True
        return False

    def open_moment(self, index: str | int | None) -> bool:
        """Open the moment of the decision at ``index`` (``None`` closes it)."""
        review = self.review
        if review is None:
            return False
        if index is None:
            self.moment, self.tried = None, None
            self.on_change("")
            return True
        number = (
            int(index) if isinstance(index, int) or (index.isascii() and index.isdigit() and len(index) < 8) else -1
        )
        if number not in {d.index for d in review.decisions}:
            self.message = f"“{quote(str(index))}” is not a decision of this review."
            self.on_change("")
            return False
        self.moment, self.tried, self.message = number, None, ""
        self.on_change(".tl-moment")
        return True

    def retry(self, text: str) -> bool:
        """Try the choice ``text`` (an action's text as its button sends it) at the open moment."""
        review = self.review
        decision = None if review is None else next((d for d in review.decisions if d.index == self.moment), None)
        if decision is None:
            return False
        choice = next((c for c in decision.choices if c.text == text), None)
        if choice is None:
            self.message = f"“{quote(text)}” is not one of the choices rated at that moment."
            self.on_change("")
            return False
        self.tried, self.message = choice.action, ""
        self.on_change(RETRIED)
        return True

    # --- markup ------------------------------------------------------------------------------------------

    def html(self, *, four_colour: bool = False, controls: bool = True) -> str:
        """The review as it stands: its progress with Cancel while it runs (with ``controls``),
        its result, or its message."""
        parts = []
        if self.message:
            parts.append(f'<p class="tl-message" role="alert">{esc(self.message)}</p>')
        if self.running:
            who = self.rules.seat_name(self.seat)
            word = self.rules.capabilities.round_word
            cancel = (
                '<button type="button" class="tl-choice" data-intent="review-cancel" data-value="">Cancel</button>'
                if controls
                else ""
            )
            parts.append(
                f'<div class="tl-review-progress" role="status"><p>Reviewing {word} {self.round + 1} for {esc(who)}: '
                f"playing out every choice…</p>"
                f'<progress max="100" value="{self.percent}" aria-label="Review progress">{self.percent} %</progress>'
                f" {cancel}</div>"
            )
        elif self.review is not None:
            parts.append(
                review_html(
                    self.rules,
                    self.review,
                    match=self.match,
                    moment=self.moment,
                    tried=self.tried,
                    four_colour=four_colour,
                )
            )
        return f'<div class="tl-review-box" tabindex="-1" data-value="tl-review-box">{"".join(parts)}</div>'


class ReviewPanel:
    """Rate ``seat``'s decisions in a round of ``match`` (a copy is taken: play may go on): the
    replay's "Review a round", drawn by the widget that shows it (the stepper's board).

    It is no widget of its own: its pickers, buttons and progress bar are
    :mod:`~tricklab.widgets.controls` (``controls``, one row for the board that shows them), and
    :attr:`html` is its result as markup, for that board's scene. ``on_change(reveal)`` is called
    whenever either changes (from the review's thread while it runs).

    ``rounds`` are the rounds (from 0) the learner may pick, ``round`` the one shown first;
    with ``seats`` (the replay's teacher) any seat may be picked, else the seat is fixed (its
    picker is not shown and refuses any change).
    """

    def __init__(
        self,
        match: Match,
        seat: int,
        *,
        rounds: tuple[int, ...] = (0,),
        round: int | None = None,
        seats: bool = False,
        samples: int = DEFAULT_SAMPLES,
        seed: int = 0,
        on_change: Callable[[str], None] = lambda reveal: None,
    ) -> None:
        self.match = match.copy()
        self.rules = match.rules
        self.samples = samples
        self.seed = seed
        self.on_change = on_change
        self.view: ReviewView | None = None
        self._html = ""
        word = self.rules.capabilities.round_word
        self.round_picker = Picker(
            "review-round",
            word.capitalize(),
            [(f"{word.capitalize()} {r + 1}", r) for r in rounds],
            round if round in rounds else rounds[-1],
        )
        self.seat_picker = Picker(
            "review-seat",
            "Player",
            [(self.rules.seat_name(s), s) for s in range(self.rules.players)],
            seat,
            disabled=not seats,
            hidden=not seats,
        )
        self.run_button = Button("review-run", "Review", tooltip="rate every decision of that round")
        self.cancel_button = Button("review-cancel", "Cancel", tooltip="stop the review", disabled=True)
        self.progress = Progress("review-progress", "Working", hidden=True)
        self.run_button.on_click(self.run)
        self.cancel_button.on_click(self.cancel)
        #: the row of controls, for the board that shows this review
        self.controls: list[Control] = [
            self.round_picker,
            self.seat_picker,
            self.run_button,
            self.cancel_button,
            self.progress,
        ]

    @property
    def review(self) -> RoundReview | None:
        return None if self.view is None else self.view.review

    @property
    def running(self) -> bool:
        return self.view is not None and self.view.running

    @property
    def html(self) -> str:
        """The review's markup as it stands ("" before the first review)."""
        return self._html

    def run(self, *, background: bool = True) -> None:
        """Review the picked seat's picked round; ``background=False`` waits for the result
        (scripts and tests). A review under way is stopped first: one runs at a time."""
        seat, round_ = self.seat_picker.value, self.round_picker.value
        self.stop()
        self.view = ReviewView(self.match, seat, round_, samples=self.samples, seed=self.seed, on_change=self._changed)
        self.view.run(background=background)

    def wait(self, timeout: float | None = None) -> None:
        if self.view is not None:
            self.view.wait(timeout)

    def cancel(self) -> None:
        if self.view is not None:
            self.view.cancel()

    def stop(self) -> None:
        if self.view is not None:
            self.view.stop()

    def intent(self, intent: str, value: str | None) -> bool:
        """An intent of the review's markup (:data:`INTENTS`); ``False`` for any other."""
        if intent not in INTENTS:
            return False
        if self.view is not None:
            self.view.intent(intent, value)
        return True

    def _changed(self, reveal: str) -> None:
        view = self.view
        if view is None:
            return
        running = view.running
        self.run_button.disabled = running
        self.cancel_button.disabled = not running
        self.progress.set(view.percent if running else 0, 100)
        self.progress.hidden = not running
        body = view.html(controls=False)
        self._html = f'<div class="tl-game-{esc(self.rules.name)}" role="group" aria-label="Review">{body}</div>'
        self.on_change(reveal)

    def __repr__(self) -> str:
        return f"ReviewPanel(game={self.rules.name!r}, seat={self.seat_picker.value}, round={self.round_picker.value})"
