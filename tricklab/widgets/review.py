"""ReviewPanel: a seat's decisions in a round rated, with progress and a Cancel button.

The figures are :func:`tricklab.review.review_round`'s and the markup
:func:`tricklab.display.review.review_html`'s; the panel only asks and shows. In a kernel
the review runs in a thread, so the page stays live: the progress bar moves and Cancel is
heard (the review checks it between play-outs and stops, changing nothing). In the browser,
where there are no threads, the same review takes a step per turn of the page's event loop
(:mod:`tricklab.platform`). One review runs at a time: a new one first stops the one under way.
"""

from __future__ import annotations

import threading

import ipywidgets as w

from ..display import esc
from ..display.review import review_html
from ..errors import TricklabError
from ..match import Match
from ..platform import Background, Steps, finish, in_background, reporting
from ..review import ReviewCancelled, RoundReview, review_steps
from .board import controls_row

DEFAULT_SAMPLES = 24


class ReviewPanel(w.VBox):  # type: ignore[misc]
    """Rate ``seat``'s decisions in a round of ``match`` (a copy is taken: play may go on).

    ``rounds`` are the rounds (from 0) the learner may pick, ``round`` the one shown first;
    with ``seats`` (the replay's teacher) any seat may be picked, else the seat is fixed.
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
    ) -> None:
        self.match = match.copy()
        self.rules = match.rules
        self.samples = samples
        self.seed = seed
        self.review: RoundReview | None = None
        self._cancel = threading.Event()  # the review under way's own: each run has a new one
        self._worker: Background | None = None
        self.round_picker = w.Dropdown(
            options=[(f"Round {r + 1}", r) for r in rounds],
            value=round if round in rounds else rounds[-1],
            description="Round",
        )
        self.seat_picker = w.Dropdown(
            options=[(self.rules.seat_name(s), s) for s in range(self.rules.players)],
            value=seat,
            description="Player",
            disabled=not seats,
        )
        self.run_button = w.Button(description="Review", tooltip="rate every decision of that round")
        self.cancel_button = w.Button(description="Cancel", tooltip="stop the review", disabled=True)
        self.progress = w.IntProgress(
            value=0, min=0, max=100, description="Working", layout=w.Layout(width="260px", max_width="100%")
        )
        self.progress.layout.visibility = "hidden"
        self.output = w.HTML("")
        self.run_button.on_click(lambda _: self.run())
        self.cancel_button.on_click(lambda _: self.cancel())
        pickers = [self.round_picker] + ([self.seat_picker] if seats else [])
        controls = controls_row([*pickers, self.run_button, self.cancel_button, self.progress])
        super().__init__([controls, self.output])
        self.add_class("tricklab-review")

    @property
    def running(self) -> bool:
        return self._worker is not None and self._worker.running

    def run(self, *, background: bool = True) -> None:
        """Review the picked seat's picked round; ``background=False`` waits for the result
        (scripts and tests). A review under way is stopped first (:meth:`stop`): one runs at a time."""
        seat, round_ = self.seat_picker.value, self.round_picker.value
        if not isinstance(seat, int) or not isinstance(round_, int):  # a blank choice sent by the page
            if not self.running:
                self._show('<p class="tl-message" role="alert">Pick a round (and a player) to review.</p>')
            return
        self.stop()
        self._cancel = cancel = threading.Event()
        self.review = None
        self.run_button.disabled = True
        self.cancel_button.disabled = False
        self.progress.value = 0
        self.progress.layout.visibility = "visible"
        who = self.rules.seat_name(seat)
        self._show(f'<p role="status">Reviewing round {round_ + 1} for {esc(who)}…</p>')
        if background:
            self._worker = in_background(self._work(seat, round_, cancel))
        else:
            finish(self._work(seat, round_, cancel), None, ReviewCancelled)

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a review in a worker thread (in the browser the page's loop runs it)."""
        if self._worker is not None:
            self._worker.wait(timeout)

    def cancel(self) -> None:
        """Stop a review under way (nothing is shown of it)."""
        self._cancel.set()

    def stop(self) -> None:
        """Cancel a review under way and return once it has stopped: a thread at its next report
        of progress (between two play-outs), a browser's task at once."""
        self._cancel.set()
        if self._worker is not None:
            self._worker.stop()

    def _progress(self, done: int, total: int, cancel: threading.Event) -> bool:
        if cancel.is_set():
            return False
        percent = 100 * done // total if total else 100
        if percent != self.progress.value:
            self.progress.value = percent
        return True

    def _work(self, seat: int, round_: int, cancel: threading.Event) -> Steps[None]:
        """The review in steps: the bar follows the play-outs and ``cancel`` is heard at each report."""
        try:
            steps = review_steps(self.match, seat, round_, samples=self.samples, seed=self.seed)
            review = yield from reporting(
                steps, lambda done, total: self._progress(done, total, cancel), ReviewCancelled
            )
        except ReviewCancelled:
            self._show('<p role="status">The review was cancelled. Press Review to start it again.</p>')
        except TricklabError as exc:
            self._show(f'<p class="tl-message" role="alert">{esc(exc)}</p>')
        else:
            self.review = review
            self._show(review_html(self.rules, review))
        finally:
            self.run_button.disabled = False
            self.cancel_button.disabled = True
            self.progress.layout.visibility = "hidden"

    def _show(self, body: str) -> None:
        # styled by the stylesheet the board beside it brings to the page (no <style> of its own)
        self.output.value = (
            f'<div class="tricklab tl-game-{esc(self.rules.name)}" role="group" aria-label="Review">{body}</div>'
        )

    def __repr__(self) -> str:
        return f"ReviewPanel(game={self.rules.name!r}, seat={self.seat_picker.value}, round={self.round_picker.value})"
