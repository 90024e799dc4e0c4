"""BidTrainer: try a bid on a dealt hand and see what it would likely bring.

The numbers come from :func:`tricklab.advisor.advise`; this widget only collects the
learner's bid, runs the advisor (in the background, :mod:`tricklab.platform`: a worker
thread in a kernel, steps on the event loop in the browser; so the progress bar moves and
"Cancel" works), and draws the advisor's result.
"""

from __future__ import annotations

import re
import threading
from typing import TYPE_CHECKING, Any, ClassVar

import traitlets

from .. import get_rules
from ..actions import Action, Bid, Pass, Predict
from ..advisor import MAX_SAMPLES, Advice, AdviceCancelled, AdvisorEntry, BidEstimate
from ..bots import make_bots
from ..cards import Card
from ..display import bid_rows, card_html, choice_button, decision_html, esc, rule_id_html, view_html
from ..display.charts import Bar, bar_chart
from ..errors import InvalidOption, TricklabError, describe
from ..games import DEFAULT_GAME, default_players, find_game, games_with
from ..games.base import Rules, next_seed
from ..games.capabilities import Capabilities, DecisionKind
from ..judge import evaluate_steps
from ..match import Match
from ..platform import Background, Steps, finish, in_background, reporting
from .board import Board, for_hosting
from .controls import Button, Controls, Note, Progress, look_toggles
from .inputs import bid_step, check_flag, check_whole, quote, short
from .stepper import TrickStepper

if TYPE_CHECKING:
    from ..classwork import ClassQuestion

TOP_BIDS = 10
#: the highest seed (a link's seed is at most this)
MAX_SEED = 2**63 - 1


class BidTrainer(Board):
    """Deal a hand (from ``seed``), pick a bid, press "Try it", read the advisor's answer.

    The bid is the game's declared pre-round decision (``Capabilities.decision``): a
    prediction (Tricks & Stones: 0-5), a bid per suit (Band of Tricks: 0-6 each, or Zero
    Success) or the cards to pass (Jewel Vault: as many as the dealer named). The same
    ``seed`` always deals the same hand and gives the same numbers; ``players=None`` is the
    game's default count (:func:`tricklab.games.default_players`), ``seat`` 0 to players - 1,
    ``samples`` the deals each try plays out (1 to 1,000,000).
    "Play it out" shows the deal played out with the bid in the board's place, as this seat
    sees it; "Back to the trainer" (and Try it, and New deal) bring the board back.

    One anywidget (a :class:`Board`): its buttons, progress bar and look toggles are drawn by
    the front end from the scene (``trainer.controls["try"].click()``); the bid is picked on
    the board itself (its numbers, steppers or cards). The play-out is another board shown in
    this one's place (:meth:`Board.host`). What a notebook cares about is synced traits,
    observable and linkable: ``seed`` (setting it deals that seed's hand), ``choice`` (the bid
    as the engine writes it, like ``"predict 2"``, ``"bid 1 0 1"`` or ``"pass AS KH"``; setting
    it picks that bid, if the rules allow it), ``large``, ``four_colour`` and, read only,
    ``verdict`` (the advisor's sentence on the bid tried, ``""`` before a try) and ``message``
    (what went wrong, in words). The page may set ``large`` and ``four_colour`` only; a refused
    value raises (or, from the page, shows) its :class:`~tricklab.errors.TricklabError` and
    changes nothing.
    """

    seed = traitlets.Int(0).tag(sync=True)
    choice = traitlets.Unicode("").tag(sync=True)
    large = traitlets.Bool(False).tag(sync=True)
    four_colour = traitlets.Bool(False).tag(sync=True)
    verdict = traitlets.Unicode("", read_only=True).tag(sync=True)
    _page_traits = frozenset({"large", "four_colour"})

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        players: int | None = None,
        *,
        seed: int = 0,
        seat: int = 0,
        samples: int = 1000,
        four_colour: bool = False,
        large: bool = False,
    ) -> None:
        cls = find_game(game)
        if not trains(cls):
            raise InvalidOption(f"the bid trainer is for {', '.join(GAMES)}, not {cls.name}")
        players = players if players is not None else default_players(cls)
        rules = get_rules(cls.name, players=players)
        rules.check_seat(seat)
        check_whole("samples", samples, 1, MAX_SAMPLES)
        check_whole("seed", seed, 0, MAX_SEED)
        check_flag("four_colour", four_colour)
        check_flag("large", large)
        self._ready = False  # the observers wait until the whole widget is made
        self._syncing = False  # the trainer itself sets ``choice`` to the bid it shows
        super().__init__()
        self.rules = rules
        self._form = form_of(rules.capabilities)
        self.seat = seat
        self.samples = samples
        self._deal(seed)
        self.set_trait("seed", seed)
        self.large = large
        self.four_colour = four_colour
        self._cancel = threading.Event()
        self._worker: Background | None = None

        what = self._form.what  # the game's word: prediction, bid, pass
        self.try_button = Button("try", "Try it", primary=True, tooltip=f"simulate this {what}")
        self.cancel_button = Button("cancel", "Cancel", disabled=True, tooltip="stop the play-outs")
        self.progress = Progress("progress", "Play-outs", value=0, maximum=samples)
        self.play_button = Button("play", "Play it out", tooltip=f"play this deal with this {what}, with bots")
        self.new_deal_button = Button("new_deal", "New deal", tooltip="another hand to try (the next seed)")
        self.large_toggle, self.colour_toggle = look_toggles(large, four_colour)
        # shown only with the play-out, in a row under the play-out's own controls
        self.playout_note = Note("playout", "", hidden=True)
        self.back_button = Button(
            "to-trainer", "Back to the trainer", tooltip=f"the hand, your {what} and its numbers", hidden=True
        )
        self.try_button.on_click(self.start)
        self.cancel_button.on_click(self._cancel.set)
        self.play_button.on_click(self.play_out)
        self.back_button.on_click(self.show_trainer)
        self.new_deal_button.on_click(self.new_deal)
        self.large_toggle.on_change(lambda value: setattr(self, "large", value))
        self.colour_toggle.on_change(lambda value: setattr(self, "four_colour", value))
        self.stepper: TrickStepper | None = None  # the last play-out
        self.replay: Board | None = None  # the board that shows it (hosted in this one's place)
        self.on_intent(self._intent)
        self.use_controls(
            Controls(
                [
                    [
                        self.try_button,
                        self.cancel_button,
                        self.progress,
                        self.play_button,
                        self.new_deal_button,
                        self.large_toggle,
                        self.colour_toggle,
                    ],
                    [self.playout_note, self.back_button],
                ]
            )
        )
        self.add_class("tricklab-bidtrainer")
        self._ready = True
        self._render()

    def _deal(self, seed: int) -> None:
        """The deal of ``seed``, the bots before this seat having bid, and no bid tried yet."""
        rules, seat = self.rules, self.seat
        self.match: Match = rules.new_match(seed)
        self._bots = make_bots(rules, "heuristic", seed)
        phase = rules.capabilities.decision.phase
        # the players before this seat bid first (and a dealer names the number to pass)
        while not (self.match.to_play == seat and self.match.phase == phase):
            to_play = self.match.to_play
            assert to_play is not None
            self.match.apply(self._bots[to_play].choose(self.match.view(to_play), self.match.legal_actions()))
        self.picked: list[Card] = []  # the cards picked to pass
        self.prediction = _PredictionForm.START
        self.bid = dict.fromkeys(rules.capabilities.decision.suits, 0)
        self.bid.update(_SuitBidForm.START)
        self.zero = False
        self.advice: Advice | None = None

    def new_deal(self) -> None:
        """Another hand to bid on: the deal of the next seed (a running trial is cancelled)."""
        self.seed = next_seed(self.seed)
        self.message = f"A new deal: seed {self.seed}."

    def class_question(self) -> ClassQuestion:
        """This hand's decision before the round, as a question for a class: what would you
        predict, bid or pass? (The reveal shows the judge's figures for the answers chosen most.)"""
        from ..classwork import decision

        return decision(self.match, four_colour=self.four_colour)

    def link_state(self) -> dict[str, str]:
        """What a link needs to show this hand again: the seed and the look toggles."""
        look = {"large": self.large, "four_colour": self.four_colour}
        return {"seed": str(self.seed), **{name: "1" for name, on in look.items() if on}}

    # --- the state, checked -------------------------------------------------------------------------

    @traitlets.validate("seed")
    def _valid_seed(self, proposal: Any) -> int:
        return check_whole("seed", proposal["value"], 0, MAX_SEED)

    @traitlets.observe("seed")
    def _seed_changed(self, change: dict[str, Any]) -> None:
        if not self._ready:
            return
        self._cancel.set()
        if self._worker is not None:
            self._worker.stop()
            with self.hold_redraw():
                self.try_button.disabled = False
                self.cancel_button.disabled = True
        self._cancel.clear()
        self._deal(change["new"])
        self.stepper = None
        self.replay = None
        with self.hold_redraw():
            self._reset_progress()
            self.show_trainer()
            self.message = ""
            self._render()

    @traitlets.validate("choice")
    def _valid_choice(self, proposal: Any) -> str:
        text = proposal["value"]
        if self._syncing or not self._ready:
            return str(text)
        action = self._parse_choice(text)
        return str(action)

    @traitlets.observe("choice")
    def _choice_changed(self, change: dict[str, Any]) -> None:
        if self._syncing or not self._ready:
            return
        action = self._parse_choice(change["new"])
        if isinstance(action, Bid):
            self._form.choose(self, "zero" if action.zero else {k: getattr(action, k) for k in self.bid})
        else:
            self._form.choose(self, action)
        self.message = ""
        self._render()

    def _parse_choice(self, text: object) -> Action:
        """The bid ``text`` names, if it is this game's kind of bid and the rules allow it now."""
        if not isinstance(text, str) or len(text) > 200:
            raise InvalidOption(f"a {self.what} is text like {describe(str(self.action))}, not {describe(text)}")
        action = self.rules.parse_action(text)
        if not isinstance(action, Predict | Bid | Pass) or self._form.action(self).__class__ is not type(action):
            raise InvalidOption(f"“{quote(text)}” is not a {self.what}: the trainer tries {self.what}s here")
        refusal = self._refusal(action)
        if refusal is not None:
            raise InvalidOption(refusal)
        return action

    @traitlets.observe("large", "four_colour")
    def _look_changed(self, _change: dict[str, Any]) -> None:
        if self._ready:
            self._render()

    # --- the learner's bid -----------------------------------------------------------------------------

    @property
    def what(self) -> str:
        """What the learner tries, in a word: prediction, bid or pass."""
        return self._form.what

    @property
    def action(self) -> Action:
        """The bid being tried, as the engine's action."""
        return self._form.action(self)

    def choose(self, bid: object) -> None:
        """Set the bid from code: a number or ``Predict(n)`` (Tricks & Stones), a dict or ``"zero"``
        (Band of Tricks), a list of cards or ``Pass(...)`` (Jewel Vault).

        A bid the rules do not allow raises the engine's :class:`~tricklab.TricklabError`.
        """
        self._form.choose(self, bid)
        self._render()

    # --- running the advisor ---------------------------------------------------------------------------

    def try_bid(self) -> Advice | None:
        """Run the advisor for the current bid now (blocking) and show the result."""
        self._cancel.clear()
        return finish(self._trial(), None, AdviceCancelled)

    def _trial(self) -> Steps[Advice | None]:
        """Try the current bid in steps: the advisor's play-outs, the bar following them, and
        Cancel heard at each report; then the result (or the message) shown."""
        self.show_trainer()
        self._reset_progress()

        def progress(done: int, total: int) -> bool:
            with self.hold_redraw():  # the bar's length and its value in one scene
                self.progress.set(min(done, total), max(total, 1))
            return not self._cancel.is_set()

        try:
            # the one judge of the hint and the review: at a bidding position it is the advisor's answer
            steps = evaluate_steps(self.match, tried=self.action, samples=self.samples, seed=self.seed)
            evaluation = yield from reporting(steps, progress, AdviceCancelled)
            advice = evaluation.advice
            assert advice is not None, "a bidding position is judged by the advisor"
        except AdviceCancelled:
            self._say("Cancelled: press Try it to start again.")
            return None
        except TricklabError as exc:
            self._say(str(exc))
            return None
        self.advice = advice
        self.message = ""
        self._render()
        return advice

    def start(self) -> None:
        """What "Try it" does: the advisor in the background, with the progress bar and Cancel."""
        if self._worker is not None and self._worker.running:
            return
        # the bar is emptied by the click itself, before the page is told that a run started:
        # left to the worker, the page showed the new run with the last run's full bar until
        # the worker's first report arrived
        with self.hold_redraw():
            self.show_trainer()
            self._reset_progress()
            self.try_button.disabled = True
            self.cancel_button.disabled = False

        def run() -> Steps[None]:
            try:
                yield from self._trial()
            finally:
                with self.hold_redraw():
                    self.try_button.disabled = False
                    self.cancel_button.disabled = True

        self._cancel.clear()
        self._worker = in_background(run())

    def _reset_progress(self) -> None:
        """An empty bar for a run of ``samples`` deals."""
        with self.hold_redraw():
            self.progress.set(0, self.samples)

    def show_trainer(self) -> None:
        """The board (the hand, the bid and the advisor's numbers) in view, the play-out put away."""
        with self.hold_redraw():
            self.playout_note.hidden = True
            self.back_button.hidden = True
            if self.hosted is not None:
                self.host(None)

    def show_play_out(self) -> None:
        """The last play-out in the board's place, with "Back to the trainer" (if there is one)."""
        if self.replay is None:
            return
        with self.hold_redraw():
            # the play-out's title as a line of text, then the way back
            self.playout_note.hidden = False
            self.back_button.hidden = False
            self.host(self.replay, [self.playout_note, self.back_button])

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a trial in a worker thread (in the browser the page's loop runs it)."""
        if self._worker is not None:
            self._worker.wait(timeout)

    def play_out(self) -> TrickStepper | None:
        """Play this deal to the end of the round with the tried bid, and step through it as
        this seat sees it. A bid the rules refuse shows the engine's message instead (``None``)."""
        match = self.match.copy()
        start = len(match.timeline())
        try:
            match.apply(self.action)
        except TricklabError as exc:  # no click makes such a bid; the engine has the last word
            self.show_trainer()
            self._say(str(exc))
            return None
        round_of = _advice(self.rules).round_of  # the advisor knows each trained game's rounds
        first_round = round_of(match.state)
        while not match.is_over and round_of(match.state) == first_round:
            to_play = match.to_play
            assert to_play is not None
            match.apply(self._bots[to_play].choose(match.view(to_play), match.legal_actions()))
        with for_hosting():  # shown in this board's place, never on its own
            stepper = TrickStepper(match, seat=self.seat, step=start, four_colour=self.four_colour)
        action = self.action
        if isinstance(action, Pass):
            shown = " ".join(c.pretty for c in action.cards)
        else:
            shown = str(action).removeprefix("predict ").removeprefix("bid ")
        title = f"This deal played out with your {self.what} ({shown}), as {self.rules.seat_name(self.seat)} sees it"
        self.stepper = stepper
        self.replay = stepper  # shown in this board's place
        self.playout_note.label = title
        self.message = ""
        self.show_play_out()
        return stepper

    # --- clicks and drawing ----------------------------------------------------------------------------

    def _intent(self, intent: str, value: str | None) -> None:
        """The picker's buttons. Values from the page are parsed strictly, and the engine says
        whether the bid they make is allowed; a refused one changes nothing and says why."""
        self._form.intent(self, intent, value)

    def _pick_prediction(self, value: str | None) -> None:
        text = short(value, 2)
        if text is None or not re.fullmatch(r"-?[0-9]+", text):
            self._say(f"“{quote(value or '')}” is not a number of tricks: click one of the numbers.")
            return
        try:
            action = Predict(int(text))
        except TricklabError as exc:
            self._say(str(exc))
            return
        refusal = self._refusal(action)
        if refusal is None:
            self.prediction = action.n
        self._say(refusal or "")

    def _step_bid(self, value: str | None) -> None:
        step = bid_step(value)
        if step is None:
            self._say(f"“{quote(value or '')}” is not a step of a bid: use the \u2212 and + buttons.")
            return
        bid = dict(self.bid)
        bid[step[0]] += step[1]
        try:
            action = Bid.of(bid)
        except TricklabError as exc:
            self._say(str(exc))
            return
        refusal = self._refusal(action)
        if refusal is None:
            self.bid = bid
            self.zero = False
        self._say(refusal or "")

    def _pick_card(self, value: str | None) -> None:
        """Pick or unpick a card to pass; a card not in the hand, or one too many, changes nothing."""
        text = short(value, 4)
        hand = self.match.view(self.seat).hand
        card = next((c for c in hand if text is not None and str(c) == text), None)
        if card is None:
            self._say(f"“{quote(value or '')}” is not a card in your hand: click one of your cards.")
            return
        if card in self.picked:
            self.picked.remove(card)
        elif len(self.picked) >= _PassForm.count(self):
            self._say(f"You pass {_PassForm.count(self)}: click a picked card to put it back first.")
            return
        else:
            self.picked.append(card)
        self._say("")

    def _refusal(self, action: Action) -> str | None:
        """The engine's reason why this seat may not make ``action`` now, or ``None``."""
        try:
            self.rules.apply(self.match.state, action)
        except TricklabError as exc:
            return str(exc)
        return None

    def _say(self, message: str) -> None:
        self.message = message
        self._render()

    def _refused(self, exc: TricklabError) -> None:
        self._say(str(exc))

    def _render(self) -> None:
        parts = [f'<p class="tl-caption">{esc(self._intro())}</p>']
        parts.append(self._picker())
        if self.advice is not None:
            parts.append(self._result(self.advice))
        parts.append(view_html(self.rules, self.match.view(self.seat), four_colour=self.four_colour))
        data: dict[str, Any] = {"bid": str(self.action)}
        if self.advice is not None:
            tried = self.advice.tried
            data.update(
                best=self.advice.best.text,
                best_mean=f"{self.advice.best.mean:.4f}",
                tried=str(self.advice.bid),
                mean=f"{tried.mean:.4f}" if tried else "",
                exact=f"{tried.p_exact:.4f}" if tried else "",
            )
        advice = self.advice
        tried = advice.tried if advice is not None else None
        verdict = "" if advice is None or tried is None else self._form.sentence(tried, advice.best)
        self._syncing = True  # the bid shown, as it is (a pass being picked is not one the rules take yet)
        try:
            self.choice = str(self.action)
        finally:
            self._syncing = False
        self.set_trait("verdict", verdict)
        with self.hold_redraw():
            self.large_toggle.value = self.large
            self.colour_toggle.value = self.four_colour
            self.scene = {
                "html": "".join(parts),
                "label": f"{self.rules.title} {self._form.what} trainer",
                "large": self.large,
                "data": data,
            }

    def _intro(self) -> str:
        return self._form.intro(self)

    def _picker(self) -> str:
        return self._form.picker(self)

    def _result(self, advice: Advice) -> str:
        tried = advice.tried
        assert tried is not None
        best = advice.best
        sentence = self._form.sentence(tried, best)
        charts = [self._distribution_chart(advice, tried)]
        if best is not tried:  # the best's own chart beside it: each chart is of the choice played for
            charts.append(self._form.distribution_chart(self, best, " (the best)"))
        charts.append(self._score_chart(advice, tried))
        note = f"{advice.samples} sampled deals of the cards you cannot see, played out by the bots. " + (
            self._form.note(advice)
        )
        why = _reasons_html(f"{_aim(self._form.name(tried))} (yours)", tried)
        if best is not tried:
            why += _reasons_html(f"{_aim(self._form.name(best))} (the best)", best)
        return (
            f'<section class="tl-panel tl-advice" aria-label="What your {self._form.what} would bring">'
            f'<p class="tl-advice-sentence" role="status"><strong>{esc(sentence)}</strong></p>'
            f'<div class="tl-panels">{"".join(charts)}</div>{why}<p class="tl-summary">{esc(note)}</p></section>'
        )

    def _distribution_chart(self, advice: Advice, tried: BidEstimate) -> str:
        return self._form.distribution_chart(self, tried, " (yours)")

    def _score_chart(self, advice: Advice, tried: BidEstimate) -> str:
        shown = self._form.shown(advice, tried)
        width = max(460, 64 * len(shown)) if isinstance(tried.bid, Pass) and len(tried.bid.cards) > 1 else 460
        bars = []
        for estimate in shown:
            marks = tuple(m for m, hit in (("yours", estimate is tried), ("best", estimate is advice.best)) if hit)
            label = self._form.label(estimate, advice)
            value = self._form.value(estimate) if isinstance(self._form, _PassForm) else estimate.mean
            bars.append(Bar(label, value, error=estimate.stderr, marks=marks))
        what = "Expected points" if isinstance(self._form, _PassForm) and self._form.lowest else "Expected score"
        return bar_chart(bars, title=f"{what} per {self._form.score_what}", width=width)

    def __repr__(self) -> str:
        return (
            f"BidTrainer(game={self.rules.name!r}, players={self.rules.players}, seed={self.seed}, "
            f"seat={self.seat}, bid={str(self.action)!r})"
        )


def _advice(rules: Rules[Any]) -> AdvisorEntry:
    """The advisor's entry for the game, which the game declares (every trained game has one)."""
    ref = rules.capabilities.advice
    if ref is None:
        raise InvalidOption(f"the bid trainer is for {' and '.join(GAMES)}, not {rules.name}")
    return ref.load_as(AdvisorEntry)


def _suit(letter: str) -> str:
    from ..cards import SUIT_NAME, SUIT_SYMBOL

    return f"{SUIT_NAME[letter]} {SUIT_SYMBOL[letter]}"


def _compare(first: str, other: str, tried: BidEstimate, best: BidEstimate) -> str:
    """One plain sentence: how often the bid is hit exactly (``first``), and how the best
    bid (``other``: "predicting 3") compares."""
    if best is tried or best.mean - tried.mean < 0.05:
        return f"{first}; no other choice scores more on average."
    return f"{first}; {other} scores {best.mean - tried.mean:.1f} more on average."


def _reasons_html(title: str, estimate: BidEstimate) -> str:
    """The advisor's reasons for one bid, as a short list (a rule's id links to its clause)."""
    if not estimate.reasons:
        return ""
    items = []
    for reason in estimate.reasons:
        cite = f" ({rule_id_html(reason.rule_id)})" if not reason.rule_id.startswith("advice.") else ""
        items.append(f"<li>{esc(reason.text)}{cite}</li>")
    return f'<div class="tl-advice-why"><h5>{esc(title)}</h5><ul>{"".join(items)}</ul></div>'


def _aim(name: str) -> str:
    """A choice as the condition its reasons hold under: "predicting 2" -> "If you predict 2 and play for it"."""
    verb, _, rest = name.partition(" ")
    base = {"predicting": "predict", "bidding": "bid", "passing": "pass"}.get(verb, verb)
    return f"If you {base} {rest}" + (" and play for it" if base != "pass" else "")


def _race_note(advice: Advice, choices: str) -> str:
    """How the race of the choices played for went, in words: how many played every deal,
    after how many deals the others stopped, and that only the former are recommended."""
    played = [e for e in advice.estimates if e.played_for]
    full = sum(e.samples == advice.samples for e in played)
    early = sorted({e.samples for e in played if e.samples < advice.samples})
    stopped = f"; the others stopped after {' or '.join(map(str, early))} deals (wider error bars)" if early else ""
    return (
        f"The {choices} raced on the same deals: {full} in the chart played every deal{stopped}. "
        f"Only one played for on every deal is recommended."
    )


def _short(estimate: BidEstimate) -> str:
    """A bid in a learner's words, for chart titles and sentences: the prediction's number, the
    bid's suits and numbers ("Rock 1, Soul 0, Pops 2" or "Zero Success"), the passed cards."""
    bid = estimate.bid
    if isinstance(bid, Pass):
        return " ".join(c.pretty for c in bid.cards)
    if isinstance(bid, Bid):
        return "Zero Success" if bid.zero else f"Rock {bid.rock}, Soul {bid.soul}, Pops {bid.pops}"
    return estimate.text.removeprefix("predict ")


# --- one form per kind of decision: how the trainer takes, shows and charts it -------------------------


class _PredictionForm:
    """A prediction of a number of tricks (``Predict(n)``), picked from the bids the rules allow
    the seat now, in the game's own words (``Decision.noun``: "prediction", "bid")."""

    START: ClassVar[int] = 2

    def __init__(self, noun: str = "prediction", gerund: str = "predicting") -> None:
        self.what = self.score_what = noun
        self.gerund = gerund

    def name(self, estimate: BidEstimate) -> str:
        return f"{self.gerund} {_short(estimate)}"

    @staticmethod
    def label(estimate: BidEstimate, advice: Advice) -> str:
        return _short(estimate)

    def note(self, advice: Advice) -> str:
        return f"Each {self.what} was played for. " + _race_note(advice, f"{self.what}s")

    @staticmethod
    def action(t: BidTrainer) -> Action:
        return Predict(t.prediction)

    def choose(self, t: BidTrainer, bid: object) -> None:
        decision = t.rules.capabilities.decision
        if isinstance(bid, Predict):
            bid = bid.n
        if isinstance(bid, bool) or not isinstance(bid, int):
            raise InvalidOption(
                f"a {self.what} is a whole number of tricks, not {describe(bid)}", rule_id=decision.rule_id
            )
        t.rules.apply(t.match.state, Predict(bid))  # the engine says whether it may be made
        t.prediction = bid

    @staticmethod
    def intent(t: BidTrainer, intent: str, value: str | None) -> None:
        if intent == "predict":
            t._pick_prediction(value)

    def intro(self, t: BidTrainer) -> str:
        view = t.match.view(t.seat)  # the trump is the trick context the game declares
        trump = next(getattr(view, c.key) for c in t.rules.capabilities.context if c.key == "trump")
        return (
            f"You are {t.rules.seat_name(t.seat)}; trump is {_suit(trump)}. How many tricks will you "
            f"win? Pick a {self.what} and press Try it."
        )

    def picker(self, t: BidTrainer) -> str:
        """A button for each number the rules let the seat pick now (a dealer's barred bid is not one)."""
        allowed = [a.n for a in t.match.legal_actions() if isinstance(a, Predict)]
        buttons = "".join(choice_button("predict", str(n), str(n), pressed=n == t.prediction) for n in allowed)
        return decision_html(self.what.capitalize(), buttons)

    @staticmethod
    def distribution_chart(t: BidTrainer, tried: BidEstimate, note: str = "") -> str:
        aim = tried.bid.n if isinstance(tried.bid, Predict) else t.prediction
        bars = [Bar(str(k), p, marks=("yours",) if k == aim else ()) for k, p in enumerate(tried.distribution)]
        title = f"Tricks you win (how often), playing for {aim}{note}"
        return bar_chart(bars, title=title, percent=True, width=360)

    @staticmethod
    def shown(advice: Advice, tried: BidEstimate) -> list[BidEstimate]:
        return list(advice.estimates)

    def sentence(self, tried: BidEstimate, best: BidEstimate) -> str:
        n = _short(tried)
        first = f"You make exactly {n} about {tried.p_exact:.0%} of the time and score {tried.mean:.1f} on average"
        return _compare(first, f"{self.gerund} {_short(best)}", tried, best)


class _SuitBidForm:
    """A bid per declared suit (``Bid(...)``), or Zero Success (all zero)."""

    START: ClassVar[dict[str, int]] = {"soul": 1}
    score_what: ClassVar[str] = "bid played for (the best, and yours)"
    what: ClassVar[str] = "bid"

    @staticmethod
    def name(estimate: BidEstimate) -> str:
        return f"bidding {_short(estimate)}"

    @staticmethod
    def label(estimate: BidEstimate, advice: Advice) -> str:
        return _short(estimate)

    @staticmethod
    def note(advice: Advice) -> str:
        rough = sum(not e.played_for for e in advice.estimates)
        return (
            f"The bids in the chart were each played for; the other {rough} were only scored on the play for "
            "the bot's own bid (rough figures), to pick the ones to play for. " + _race_note(advice, "bids")
        )

    @staticmethod
    def action(t: BidTrainer) -> Action:
        if t.zero:
            return Bid(zero=True)
        return Bid.of(t.bid)

    @staticmethod
    def choose(t: BidTrainer, bid: object) -> None:
        decision = t.rules.capabilities.decision
        if bid == "zero":
            t.zero = True
        elif isinstance(bid, dict):
            _advice(t.rules).normalise_bid(bid)  # the game checks the bid, as its deal scoring does
            t.bid = {k: int(bid.get(k, 0)) for k in decision.suits}
            t.zero = not any(t.bid.values())
        else:
            suits = "/".join(decision.suits)
            raise InvalidOption(f"a bid is a dict of {suits} or 'zero', not {describe(bid)}", rule_id=decision.rule_id)

    @staticmethod
    def intent(t: BidTrainer, intent: str, value: str | None) -> None:
        if intent == "bid":
            t._step_bid(value)
        elif intent == "zero":
            t.zero = not t.zero
            t._say("")

    @staticmethod
    def intro(t: BidTrainer) -> str:
        return (
            f"You are {t.rules.seat_name(t.seat)}. Pick a bid per suit (or Zero Success) and press Try it; "
            "the bids made before yours are in the table."
        )

    @staticmethod
    def picker(t: BidTrainer) -> str:
        zero = choice_button("zero", "", "Zero Success", pressed=t.zero)
        return decision_html(t.rules.describe_action(t.action), bid_rows(t.bid, zero=t.zero) + zero)

    @staticmethod
    def distribution_chart(t: BidTrainer, tried: BidEstimate, note: str = "") -> str:
        charts = []
        bid = tried.bid if isinstance(tried.bid, Bid) else t.action
        for i, key in enumerate(t.rules.capabilities.decision.suits):
            counts = tried.suits[i] if tried.suits else ()
            total = sum(counts) or 1
            target = None if isinstance(bid, Bid) and bid.zero else int(getattr(bid, key))
            bars = [Bar(str(k), c / total, marks=("yours",) if k == target else ()) for k, c in enumerate(counts)]
            title = f"{key.title()} tricks you win, bidding {_short(tried)}{note}"
            charts.append(bar_chart(bars, title=title, percent=True, width=220, height=150))
        return "".join(charts)

    @staticmethod
    def shown(advice: Advice, tried: BidEstimate) -> list[BidEstimate]:
        played = [e for e in advice.estimates if e.played_for]
        ranked = sorted(played, key=lambda e: (-e.samples, -e.mean))[:TOP_BIDS]
        return ranked + [e for e in (tried,) if e not in ranked]

    @staticmethod
    def sentence(tried: BidEstimate, best: BidEstimate) -> str:
        first = (
            f"Your bid ({_short(tried)}) comes out exactly about {tried.p_exact:.0%} of the time "
            f"and scores {tried.mean:.1f} on average"
        )
        return _compare(first, f"bidding {_short(best)}", tried, best)


class _PassForm:
    """Cards to pass (``Pass(...)``): as many of the hand's cards as the dealer named (Jewel Vault),
    or as the game declares (its one declared choice, Hearts: 3). Where the lowest total wins
    (``Capabilities.lowest_wins``) the advisor's figures are points with their sign turned, and
    the trainer shows them as the points you take."""

    what: ClassVar[str] = "pass"

    def __init__(self, lowest_wins: bool = False) -> None:
        self.lowest = lowest_wins
        self.score_what = "pass tried (points you take, fewer is better)" if lowest_wins else "pass tried (points)"

    @staticmethod
    def count(t: BidTrainer) -> int:
        announced = getattr(t.match.view(t.seat), "announced", None)
        if announced is None:  # a fixed number: the game's one declared choice
            (announced,) = t.rules.capabilities.decision.choices
        assert isinstance(announced, int), "the trainer waits for the count to be named"
        return announced

    @staticmethod
    def action(t: BidTrainer) -> Action:
        return Pass(tuple(t.picked))

    @staticmethod
    def choose(t: BidTrainer, bid: object) -> None:
        cards = bid.cards if isinstance(bid, Pass) else bid
        if not isinstance(cards, (list, tuple)):
            rule_id = t.rules.capabilities.decision.rule_id
            raise InvalidOption(f"a pass is a list of cards, not {describe(bid)}", rule_id=rule_id)
        picked = [t.rules.card(c) for c in cards]
        t.rules.apply(t.match.state, Pass(tuple(picked)))  # the engine says whether it may be made
        t.picked = picked

    @staticmethod
    def intent(t: BidTrainer, intent: str, value: str | None) -> None:
        if intent == "pick":
            t._pick_card(value)
        elif intent == "clear":
            t.picked = []
            t._say("")

    @staticmethod
    def intro(t: BidTrainer) -> str:
        view = t.match.view(t.seat)
        k = _PassForm.count(t)
        if getattr(view, "announced", None) is None:  # the game's own words for its pass
            return (
                f"You are {t.rules.seat_name(t.seat)}. {t.rules.explain_choice(view, t.seat).text} Then press Try it."
            )
        dealer = "You" if getattr(view, "dealer", None) == t.seat else "The dealer"
        receiver = getattr(t.rules, "receiver", None)
        to = f" to {t.rules.seat_name(receiver(t.seat))}" if callable(receiver) else ""
        return (
            f"You are {t.rules.seat_name(t.seat)}. {dealer} named {k}: pick {k} card{'s' if k > 1 else ''} "
            f"to pass{to}, and press Try it."
        )

    @staticmethod
    def picker(t: BidTrainer) -> str:
        k = _PassForm.count(t)
        hand = t.match.view(t.seat).hand
        four = t.four_colour
        cards = "".join(
            card_html(c, intent="pick", four_colour=four, classes=["tl-picked"] if c in t.picked else []) for c in hand
        )
        picked = " ".join(c.pretty for c in t.picked) or "none yet"
        return decision_html(
            f"Pass {k}: picked {picked}",
            f'<div class="tl-cards">{cards}</div>' + choice_button("clear", "", "Clear"),
        )

    def distribution_chart(self, t: BidTrainer, tried: BidEstimate, note: str = "") -> str:
        if self.lowest:
            bars = [Bar(str(-points), k / tried.samples) for points, k in reversed(tried.scores)]
            title = f"Points you take this {t.rules.capabilities.round_word} (how often), passing {_short(tried)}{note}"
        else:
            bars = [Bar(f"{points:+d}", k / tried.samples) for points, k in tried.scores]
            title = f"Points this round brings your side (how often), passing {_short(tried)}{note}"
        return bar_chart(bars, title=title, percent=True, width=360)

    @staticmethod
    def shown(advice: Advice, tried: BidEstimate) -> list[BidEstimate]:
        ranked = sorted(advice.estimates, key=lambda e: (-e.samples, -e.mean))[:TOP_BIDS]
        return ranked + [e for e in (tried,) if e not in ranked]

    @staticmethod
    def name(estimate: BidEstimate) -> str:
        return f"passing {_short(estimate)}"

    @staticmethod
    def label(estimate: BidEstimate, advice: Advice) -> str:
        return _short(estimate)

    @staticmethod
    def note(advice: Advice) -> str:
        return _race_note(advice, "passes")

    def value(self, estimate: BidEstimate) -> float:
        """The figure the score chart shows: the points taken where fewer is better."""
        return -estimate.mean if self.lowest else estimate.mean

    def sentence(self, tried: BidEstimate, best: BidEstimate) -> str:
        gap = best.mean - tried.mean
        if self.lowest:
            first = f"Passing {_short(tried)} you take {-tried.mean:.1f} points on average this hand"
            if best is tried or gap < 0.05:
                return f"{first}; no pass tried takes fewer."
            return f"{first}; passing {_short(best)} takes {gap:.1f} fewer."
        first = f"Passing {_short(tried)} brings your side {tried.mean:.1f} points on average this round"
        if best is tried or gap < 0.05:
            return f"{first}; no pass tried brings more."
        return f"{first}; passing {_short(best)} brings {gap:.1f} more."


_Form = _PredictionForm | type[_SuitBidForm] | _PassForm
#: the kinds of decision the trainer takes
FORMS = frozenset({DecisionKind.PREDICTION, DecisionKind.SUIT_BID, DecisionKind.PASS})


def form_of(offers: Capabilities) -> _Form:
    """How the trainer takes the game's decision: a prediction in the game's own words, a pass
    whose figures are points taken where the lowest total wins."""
    decision = offers.decision
    if decision.kind is DecisionKind.PREDICTION:
        return _PredictionForm(decision.noun or "prediction", decision.gerund or "predicting")
    return _SuitBidForm if decision.kind is DecisionKind.SUIT_BID else _PassForm(offers.lowest_wins)


def _trainable(offers: Capabilities) -> bool:
    return offers.decision.kind in FORMS and offers.advice is not None


def trains(game: type[Rules[Any]]) -> bool:
    """Whether the trainer takes this game: one whose declared decision it knows how to show,
    and that the advisor knows."""
    return _trainable(game.capabilities)


GAMES = tuple(cls.name for cls in games_with(_trainable))  # the games the bid trainer is for
