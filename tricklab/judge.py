"""One judge: what every choice of one decision is likely worth, for the hint, the review and the trainer.

:func:`evaluate` takes a match, a point of it (the state before a decision) and the seat to
play there, and rates every choice listed there by the round score it was likely to bring,
from deals of the cards the seat could not see that fit what it knew then. The play table's
hint, the round review and the bid trainer all take their figures from it, so in one
position, with one seed and one number of deals, they name the same best choice with the
same figures::

    >>> import tricklab
    >>> from tricklab.judge import evaluate
    >>> rules = tricklab.get_rules("tricks-and-stones", players=4)
    >>> match = rules.play(seed=3, bots="heuristic")
    >>> at = next(i for i, s in enumerate(match.states) if s.phase == "play" and s.to_play == 0)
    >>> ev = evaluate(match, at, samples=8, seed=1)
    >>> ev.best.mean == max(c.mean for c in ev.choices)
    True

How the figures are made
------------------------
* **The pre-round decision** (a prediction, a bid, the cards to pass): the advisor's
  play-outs (:func:`tricklab.advisor.advise`), the choice under test played for on every
  deal. The trainer shows the same :class:`~tricklab.advisor.Advice` (``Evaluation.advice``).
* **Every other decision** (a card, a gem action, a Metal count, a ♣ target): the sampled
  deals (:class:`~tricklab.advisor.DealSampler`, what the seat knew at the start of the
  decision's phase of secret choices, else just before it) are played to the round's end
  by the heuristic bots on the rules' core, each choice on the same deals. The choices race:
  all of them on the first :data:`RACE` share of the deals, then the best
  ``RACE[0][1]`` and the choice under test on every deal. Each figure says on how many
  deals it was made.

**A verdict is only as strong as its figures.** Two choices are told apart only when the
difference of their figures is more than :data:`SEPARATION` standard errors of that
difference (paired over the same deals; for the pre-round decision, where the advisor
reports each choice alone, from both standard errors); otherwise they are "about the same".

**Reasons.** Each choice carries what its play-outs showed: for a card, in how many deals
it would have won the trick (and, in Tricks & Stones, the place it would most often have
finished in, each place giving its own gem action); the deals in which the seat's
prediction came out exactly; for the pre-round decision, the advisor's own reasons. The
words, with the rule behind each, are :func:`choice_reasons`'.

Results depend only on the match, the point, ``tried``, ``samples`` and ``seed``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from .actions import Action, Play
from .advisor import Advice, DealSampler, Knowledge, advise_steps
from .bots import heuristic_bot
from .cards import BandCard, Card
from .errors import InvalidOption, TricklabError, describe
from .explain import Reason, plural
from .games.base import EventKind, GameState, check_seed
from .games.core import CoreRules, Facts, stepper
from .match import Match
from .platform import Steps, finish

if TYPE_CHECKING:
    from .review import ReviewEntry

__all__ = [
    "JUDGE_SAMPLES",
    "RACE",
    "SEPARATION",
    "ChoiceFigure",
    "Evaluation",
    "JudgeUnavailable",
    "choice_reasons",
    "evaluate",
    "evaluate_steps",
]

JUDGE_SAMPLES = 100
"""The deals a review or a hint plays out per decision: enough for a standard error of the
difference of two choices of about 0.1-0.3 points."""
RACE: tuple[tuple[float, int], ...] = ((0.2, 2),)
"""The race of the choices of a decision: all of them on the first 20 % of the deals (at least
:data:`RACE_LEAST`), then the 2 best so far, and the choice under test beside them, until the
two are settled (:data:`SETTLE`). The best is the better of the two: its figure is the same
whichever choice is under test."""
RACE_LEAST = 10
"""Every choice plays at least this many deals (all of them when there are fewer)."""
SEPARATION = 2.0
"""Two figures are told apart ("better", "costs") only when they differ by more than this many
standard errors of their difference."""
MAX_SAMPLES = 100_000
SETTLE = 3.0
"""Once past the race's first stage, a decision's play-outs stop early when the choices still
playing are settled: their difference is beyond this many standard errors, or they have scored
alike on every deal so far (at least :data:`SETTLE_ALIKE` deals), or only one plays on."""
SETTLE_ALIKE = 40
SETTLE_EVERY = 10


class JudgeUnavailable(TricklabError):
    """There is nothing to judge here (no seat to play, one choice only, a game without review)."""


class JudgeCancelled(TricklabError):
    def __init__(self, done: int, total: int) -> None:
        super().__init__(f"evaluation cancelled after {done} of {total} play-outs")
        self.done, self.total = done, total


class _IdBot(Protocol):
    def choose_id(self, view: Any, legal_ids: Sequence[int]) -> int: ...


# --- results ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChoiceFigure:
    """One choice of a decision and what it was likely worth.

    ``mean`` is its expected round score over ``samples`` deals with ``stderr`` its standard
    error (``math.inf`` from one deal); ``loss`` is the best choice's mean less this one's (0
    for the best) and ``loss_stderr`` the standard error of that difference. ``won`` counts the
    deals in which a card would have won the trick it went to and ``places`` the deals by the
    place it would have finished in (Tricks & Stones; empty elsewhere), ``None``/empty for
    other decisions; ``exact`` counts the deals in which the seat's prediction came out exactly
    (``None`` where the game has none). ``reasons`` are the advisor's own, for the pre-round
    decision.
    """

    action: Action
    text: str
    mean: float
    stderr: float
    samples: int
    loss: float = 0.0
    loss_stderr: float = 0.0
    won: int | None = None
    places: tuple[int, ...] = ()
    exact: int | None = None
    target: int | None = None
    reasons: tuple[Reason, ...] = ()

    @property
    def apart(self) -> bool:
        """Whether this choice is told apart from the best (worse by more than SEPARATION standard errors)."""
        return self.loss > 1e-9 and self.loss > SEPARATION * self.loss_stderr

    def as_dict(self) -> dict[str, Any]:
        return {
            "action": self.text,
            "mean": self.mean,
            "stderr": _finite(self.stderr),
            "samples": self.samples,
            "loss": self.loss,
            "loss_stderr": _finite(self.loss_stderr),
            "won": self.won,
            "places": list(self.places),
            "exact": self.exact,
            "reasons": [{"rule_id": r.rule_id, "text": r.text} for r in self.reasons],
        }


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every choice of the decision at ``match.states[at]`` for ``seat``, best first.

    ``choices`` are the choices with figures (for a Band of Tricks bid, the bids played for);
    ``tried`` is the choice under test (played on every deal), ``advice`` the advisor's whole
    answer for a pre-round decision (``None`` otherwise).
    """

    game: str
    seat: int
    at: int
    samples: int
    seed: int
    choices: tuple[ChoiceFigure, ...]
    tried: Action | None
    advice: Advice | None = None

    @property
    def best(self) -> ChoiceFigure:
        return self.choices[0]

    def figure(self, action: Action) -> ChoiceFigure:
        """The figure of ``action``; :class:`InvalidOption` if it has none here."""
        for c in self.choices:
            if c.action == action:
                return c
        raise InvalidOption(f"{action} has no figure in this evaluation: it rated {len(self.choices)} choices")

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "at": self.at,
            "samples": self.samples,
            "seed": self.seed,
            "tried": None if self.tried is None else str(self.tried),
            "choices": [c.as_dict() for c in self.choices],
        }


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


# --- the judge ----------------------------------------------------------------------------------------------


Progress = Callable[[int, int], object]


def evaluate(
    match: Match,
    at: int | None = None,
    *,
    tried: Action | str | None = None,
    samples: int = JUDGE_SAMPLES,
    seed: int = 0,
    progress: Progress | None = None,
) -> Evaluation:
    """Rate every choice of the decision at ``match.states[at]`` (default: now) for the seat to
    play there. ``tried`` is the choice under test (default: the one the match made there, if
    it went on). ``progress(done, total)`` returning ``False`` cancels."""
    if progress is not None and not callable(progress):
        raise InvalidOption(f"progress must be a function progress(done, total), not {describe(progress)}")
    return finish(evaluate_steps(match, at, tried=tried, samples=samples, seed=seed), progress, JudgeCancelled)


def evaluate_steps(
    match: Match,
    at: int | None = None,
    *,
    tried: Action | str | None = None,
    samples: int = JUDGE_SAMPLES,
    seed: int = 0,
) -> Steps[Evaluation]:
    """:func:`evaluate` in steps (:mod:`tricklab.platform`)."""
    if not isinstance(match, Match):
        raise InvalidOption(f"the judge needs a Match, not {describe(match)}")
    rules = match.rules
    review = rules.capabilities.review
    if review is None or not isinstance(rules, CoreRules):
        raise JudgeUnavailable(f"{rules.title} has no evaluation of its decisions")
    last = len(match.states) - 1
    if at is None:
        at = last
    if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= last:
        raise InvalidOption(f"at must be a point of the match, 0 to {last}, not {describe(at)}")
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise InvalidOption(f"samples must be a whole number from 1 to {MAX_SAMPLES:,}, not {describe(samples)}")
    seed = check_seed(seed)
    state = match.states[at]
    seat = state.to_play
    if seat is None:
        raise JudgeUnavailable("nobody is to play there: there is no decision to judge")
    if tried is None and at < len(match.actions):
        tried = match.actions[at]
    listed = tuple(rules.core_legal(state))
    tried_id = None
    if tried is not None:
        action = rules.parse_action(tried) if isinstance(tried, str) else tried
        if not isinstance(action, Action):
            raise InvalidOption(f"tried must be an action or its text, not {describe(tried)}")
        tried_id = rules.action_id(action)
        if tried_id is None or tried_id not in listed:
            rules.apply(state, action)  # the engine says why it may not be taken there
            tried_id = rules.action_id(rules.canonical_action(state, action))
        if tried_id is None or tried_id not in listed:
            raise InvalidOption(f"{describe(tried)} is not one of the choices there")
    from .review import ReviewEntry  # the review builds on the judge

    entry = review.load_as(ReviewEntry)
    return _Judge(match, rules, entry, at, seat, listed, tried_id, samples, seed).steps()


def judge_work(match: Match, at: int, samples: int) -> int:
    """About how many play-outs :func:`evaluate` makes at ``at`` (for a progress bar over many)."""
    rules = match.rules
    state = match.states[at]
    if state.phase == rules.capabilities.decision.phase and rules.capabilities.advice is not None:
        return samples * 4
    listed = len(rules.legal_actions(state))
    return race_work(listed, samples)


def race_work(choices: int, samples: int) -> int:
    first = min(samples, max(RACE_LEAST, math.ceil(RACE[0][0] * samples)))
    return first * choices + (samples - first) * min(choices, RACE[0][1] + 1)


class _Judge:
    def __init__(
        self,
        match: Match,
        rules: CoreRules[Any],
        entry: ReviewEntry,
        at: int,
        seat: int,
        listed: tuple[int, ...],
        tried: int | None,
        samples: int,
        seed: int,
    ) -> None:
        self.match, self.rules, self.entry = match, rules, entry
        self.at, self.seat, self.listed, self.tried = at, seat, listed, tried
        self.samples, self.seed = samples, seed
        self.state = match.states[at]
        self.round = entry.round_of(self.state)
        states = match.states
        self.round_start = next(i for i in range(at, -1, -1) if i == 0 or entry.round_of(states[i - 1]) != self.round)
        self.start = self._phase_start()
        self.plays = frozenset(i for i, a in enumerate(rules.actions) if isinstance(a, Play))

    def steps(self) -> Steps[Evaluation]:
        rules = self.rules
        offers = rules.capabilities
        if self.state.phase == offers.decision.phase and offers.advice is not None:
            return (yield from self._advised())
        return (yield from self._raced())

    # --- the pre-round decision: the advisor's play-outs ---------------------------------------------

    def _advised(self) -> Steps[Evaluation]:
        rules, seat = self.rules, self.seat
        view = rules.view(self.state, seat)
        bid = None if self.tried is None else rules.actions[self.tried]
        advice = yield from advise_steps(rules, view, bid=bid, samples=self.samples, seed=self.seed)
        listed = {rules.actions[a] for a in self.listed}
        played = [e for e in advice.estimates if e.played_for and e.bid in listed]
        most = max(e.samples for e in played)
        full = [e for e in played if e.samples == most]
        best = max(full, key=lambda e: (e.mean, e.p_exact, -played.index(e)))
        target_of = self.entry.target
        figures = []
        for e in played:
            loss = max(0.0, best.mean - e.mean) if e is not best else 0.0
            err = math.sqrt(best.stderr**2 + e.stderr**2) if e is not best else 0.0
            target = target_of(rules, rules.apply(self.state, e.bid), seat) if target_of is not None else None
            exact = e.hits if target is not None else None
            figures.append(
                ChoiceFigure(
                    e.bid, str(e.bid), e.mean, e.stderr, e.samples, loss, err, None, (), exact, target, e.reasons
                )
            )
        ordered = _ordered(figures, best.bid, None if self.tried is None else rules.actions[self.tried])
        return Evaluation(rules.name, seat, self.at, self.samples, self.seed, tuple(ordered), advice.bid, advice)

    # --- every other decision: raced play-outs on the core --------------------------------------------

    def _phase_start(self) -> int:
        states = self.match.states
        phase = states[self.at].phase
        if phase not in self.entry.secret:
            return self.at
        j = self.at
        while j > self.round_start and states[j - 1].phase == phase:
            j -= 1
        return j

    def draw(self) -> list[tuple[tuple[int, ...], int]]:
        knowledge = Knowledge.from_match(self.match, self.seat, at=self.start)
        sampler = DealSampler(self.rules, knowledge)
        rng = random.Random(f"tricklab:judge:{self.rules.name}:{self.seed}:{self.at}")
        return [sampler.sample_masks(rng) for _ in range(self.samples)]

    def _raced(self) -> Steps[Evaluation]:
        rules, entry = self.rules, self.entry
        bots = [_bot(rules, s) for s in range(rules.players)]
        deals = self.draw()
        opening = self.match.states[self.start]
        memo: dict[tuple[tuple[int, ...], int, int], _Outcome] = {}
        listed, tried, samples = self.listed, self.tried, self.samples
        total = race_work(len(listed), samples)
        results: dict[int, list[_Outcome]] = {a: [] for a in listed}
        first = min(samples, max(RACE_LEAST, math.ceil(RACE[0][0] * samples)))
        running = list(listed)
        done = 0
        yield 0, total
        keep = list(listed)
        for i, (hands, aside) in enumerate(deals):
            if i == first:  # the leaders go on (and the choice under test, which never changes their figures)
                order = {a: k for k, a in enumerate(listed)}
                keep = sorted(listed, key=lambda a: (-_mean([o.score for o in results[a]]), order[a]))[: RACE[0][1]]
                running = [a for a in listed if a in keep or a == tried]
            if i >= first and i % SETTLE_EVERY == 0 and _settled(keep, results, i):
                break
            start = None
            for a in running:
                key = (hands, aside, a)
                outcome = memo.get(key)
                if outcome is None:
                    if start is None:
                        start = entry.deal(rules, opening, hands, aside)
                    outcome = memo[key] = self._play_out(start, a, bots)
                results[a].append(outcome)
            done += len(running)
            yield done, total
        if done != total:
            yield total, total
        return self._figures(results, keep)

    def _play_out(self, state: GameState, action: int, bots: list[_IdBot]) -> _Outcome:
        """The seat's round score with ``action`` at its first turn, the bots everywhere else;
        for a card, whether it won its trick and its place there; the seat's tricks at the end."""
        rules, entry, seat, round_index = self.rules, self.entry, self.seat, self.round
        (legal, step), view, round_of = stepper(rules), entry.view, entry.round_of
        counting = entry.tricks is not None
        aside = entry.aside
        tricks = entry.tricks(rules, state, seat) if entry.tricks is not None else 0
        target = None
        pending = True
        watching = False  # the trick the seat's card went to is not complete yet
        won: bool | None = None
        place: int | None = None
        while state.to_play is not None and round_of(state) == round_index:
            mover = state.to_play
            facts: Facts | None
            if pending and mover == seat:
                facts = []
                state = step(state, action, facts)
                pending = False
                watching = action in self.plays
                if entry.target is not None:
                    target = entry.target(rules, state, seat)
            else:
                facts = [] if (watching or counting) else None
                other = aside(state, seat) if aside is not None else None
                if other is None:
                    other = bots[mover].choose_id(view(rules, state, mover), legal(state))
                state = step(state, other, facts)
            if facts:
                for fact, _ in facts:
                    if fact.kind is not EventKind.TRICK:
                        continue
                    if fact.seat == seat:
                        tricks += 1
                    if watching:
                        watching = False
                        won = fact.seat == seat
                        places = getattr(fact, "places", None)
                        place = None if places is None or seat not in places else list(places).index(seat)
        score = entry.round_score(rules, self.match.states[self.round_start], state, seat, round_index)
        return _Outcome(score, won, place, tricks if counting else None, target)

    def _figures(self, results: dict[int, list[_Outcome]], keep: list[int]) -> Evaluation:
        rules, seat = self.rules, self.seat
        actions = rules.actions
        stats = {a: _mean_err([o.score for o in out]) for a, out in results.items()}
        # the best is the leader of the choices that went on: its figure does not depend on the choice under test
        order = {a: k for k, a in enumerate(self.listed)}
        best = min(keep, key=lambda a: (-stats[a][0], order[a]))
        best_scores = [o.score for o in results[best]]
        figures = []
        for a in self.listed:
            out = results[a]
            mean, err = stats[a]
            if a == best:
                loss, loss_err = 0.0, 0.0
            else:
                k = min(len(out), len(best_scores))
                diffs = [b - o.score for b, o in zip(best_scores[:k], out[:k], strict=True)]
                loss = max(0.0, stats[best][0] - mean)
                loss_err = _mean_err(diffs)[1]
            card = a in self.plays
            places: tuple[int, ...] = ()
            if card and any(o.place is not None for o in out):
                counts = [0] * rules.players
                for o in out:
                    if o.place is not None:
                        counts[o.place] += 1
                places = tuple(counts)
            targets = [o.target for o in out if o.target is not None]
            target = targets[0] if targets and all(t == targets[0] for t in targets) else None
            exact = None if target is None else sum(o.tricks == o.target for o in out)
            won = sum(bool(o.won) for o in out) if card else None
            figures.append(
                ChoiceFigure(
                    actions[a], str(actions[a]), mean, err, len(out), loss, loss_err, won, places, exact, target
                )
            )
        tried = None if self.tried is None else actions[self.tried]
        ordered = _ordered(figures, actions[best], tried)
        return Evaluation(rules.name, seat, self.at, self.samples, self.seed, tuple(ordered), tried)


@dataclass(frozen=True, slots=True)
class _Outcome:
    score: int
    won: bool | None
    place: int | None
    tricks: int | None
    target: int | None


def _settled(keep: list[int], results: dict[int, list[_Outcome]], played: int) -> bool:
    """Whether more deals cannot change what the race of the leaders says (see :data:`SETTLE`)."""
    if len(keep) < 2:
        return True
    if len(keep) > 2:
        return False
    one, two = ([o.score for o in results[a][:played]] for a in keep)
    diffs = [a - b for a, b in zip(one, two, strict=True)]
    if played >= SETTLE_ALIKE and not any(diffs):
        return True
    mean, err = _mean_err(diffs)
    return err > 0 and abs(mean) > SETTLE * err


def _ordered(figures: list[ChoiceFigure], best: Action, tried: Action | None) -> list[ChoiceFigure]:
    """Best first, then by mean (ties: the choice under test, then as listed)."""
    index = {f.action: k for k, f in enumerate(figures)}
    return sorted(figures, key=lambda f: (f.action != best, -f.mean, f.action != tried, index[f.action]))


def _bot(rules: CoreRules[Any], seat: int) -> _IdBot:
    bot = heuristic_bot(rules, seat)
    if not callable(getattr(bot, "choose_id", None)):
        raise JudgeUnavailable(f"{rules.title}'s heuristic bot cannot decide on the core (no choose_id)")
    return cast(_IdBot, bot)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else -math.inf


def _mean_err(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    squares = sum((v - mean) ** 2 for v in values)
    return mean, math.sqrt(squares / (n - 1) / n)


# --- reasons in words -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Wording:
    """How a game's reasons cite its rules: the clause on who wins a trick, the one on what a
    place in a trick gives (``None`` where only the winner counts), the one on an exact
    prediction, and the one on the round's score; then the game's own words for an exact
    prediction: what it is called (``target``: "prediction", "bid"), its past tense (``made``:
    "predicted", "bid") and what it brings (``bonus``: "the 3-point bonus")."""

    trick: str
    place: str | None
    exact: str | None
    score: str
    target: str = "prediction"
    made: str = "predicted"
    bonus: str = "a bonus"


def points(x: float) -> str:
    """A figure of points as people read it: one decimal, a true minus sign."""
    return f"{x:.1f}".replace("-", "\u2212")


def score_figure(rules: Any, x: float) -> str:
    """A figure of the round's score in the game's own sense: as it is, or, where the lowest
    total wins (``Capabilities.lowest_wins``: the judge's figures are the points taken with
    their sign turned, so that more is better everywhere), the points taken."""
    return points(-x + 0.0) if rules.capabilities.lowest_wins else points(x)


def score_text(rules: Any, x: float) -> str:
    """:func:`score_figure` with its unit: "-1.5 points" (a true minus sign), or "7.7 points taken"."""
    figure = score_figure(rules, x)
    return f"{figure} points taken" if rules.capabilities.lowest_wins else f"{figure} points"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def choice_name(rules: Any, action: Action) -> str:
    """A choice as a short name inside a sentence: a card's name (A♣, Rock 14), else its words."""
    if isinstance(action, Play):
        card: Card = action.card
        return card.name if isinstance(card, BandCard) else card.pretty
    text: str = rules.describe_action(action)
    return f"“{text}”"  # quoted as it is written on its button: "Predict 2 tricks"


def choice_reasons(
    rules: Any, wording: Wording, ev: Evaluation, chosen: ChoiceFigure, other: ChoiceFigure | None = None
) -> tuple[Reason, ...]:
    """Why ``chosen`` stands where it does, against ``other`` (default: the best, or, when
    ``chosen`` is the best, the next choice): the figures and whether they are told apart, then
    what the play-outs showed, each with the rule behind it."""
    if other is None:
        other = ev.best if chosen.action != ev.best.action else (ev.choices[1] if len(ev.choices) > 1 else None)
    mine = choice_name(rules, chosen.action)
    reasons: list[Reason] = []
    deals = plural(chosen.samples, "deal")
    if other is None:
        reasons.append(Reason("judge.figures", f"It was the only choice: likely {score_text(rules, chosen.mean)}."))
        return tuple(reasons)
    theirs = choice_name(rules, other.action)
    a, b = (chosen, other) if chosen.mean >= other.mean else (other, chosen)
    first, second = (mine, theirs) if a is chosen else (theirs, mine)
    lead = a.mean - b.mean
    err = b.loss_stderr if a is ev.best else max(a.loss_stderr, b.loss_stderr)
    if b.loss > 1e-9 and b.loss > SEPARATION * err and a is ev.best:
        apart = (
            f". {first[:1].upper()}{first[1:]} is better by about {points(lead)} points: more than twice "
            f"the uncertainty of that difference ({err:.2f})"
        )
    else:
        apart = (
            f". The difference, {lead:.2f}, is less than twice its uncertainty of {err:.2f}: they are about the same"
        )
    verb = "took" if rules.capabilities.lowest_wins else "scored"
    reasons.append(
        Reason(
            "judge.figures",
            f"Played out on {deals} that fit what you knew: {first} {verb} {score_figure(rules, a.mean)} points on "
            f"average, {second} {score_figure(rules, b.mean)}{apart}.",
        )
    )
    for fig, name in ((chosen, mine), (other, theirs)):
        if fig.won is not None and fig.samples:
            if fig.places and wording.place is not None:
                top = max(range(len(fig.places)), key=lambda p: (fig.places[p], -p))
                won = "" if top == 0 else f" (and won it in {fig.won})"
                reasons.append(
                    Reason(
                        wording.place,
                        f"{name} would have finished {_ordinal(top + 1)} in this trick in {fig.places[top]} of "
                        f"{plural(fig.samples, 'deal')}{won}: each place brings its own gem action.",
                    )
                )
            else:
                reasons.append(
                    Reason(
                        wording.trick,
                        f"{name} would have won this trick in {fig.won} of {plural(fig.samples, 'deal')}.",
                    )
                )
    said = bool(chosen.reasons or other.reasons)  # the advisor's reasons already say how often a bid comes out
    if wording.exact is not None and not said and chosen.exact is not None and other.exact is not None:
        t = chosen.target or 0
        reasons.append(
            Reason(
                wording.exact,
                f"You would have won exactly the {plural(t, 'trick')} you {wording.made} in {chosen.exact} of "
                f"{plural(chosen.samples, 'deal')} with {mine}, and in {other.exact} of {other.samples} with "
                f"{theirs}: only an exact {wording.target} brings {wording.bonus}.",
            )
        )
    for fig, name in ((chosen, mine), (other, theirs)):
        for r in fig.reasons:  # the advisor's, for the pre-round decision: said of that choice
            reasons.append(Reason(r.rule_id, f"With {name}: {r.text[:1].lower()}{r.text[1:]}", r.cards))
    if not any(r.rule_id == wording.score for r in reasons):
        reasons.append(
            Reason(wording.score, "The points are the round's score by the rules, for you, at the round's end.")
        )
    return tuple(reasons)
