"""Review a round: every decision one seat made, rated by what it was likely worth.

After a round, :func:`review_round` goes through the decisions a seat made in it -- Tricks
& Stones predictions, cards and gem actions; Band of Tricks bids, cards and Metal counts;
Jewel Vault announcements, passes, cards and ♣ targets -- and says for each what every
alternative would likely have scored, how much the choice cost, and a verdict, as an
analysis board does for a game of chess::

    >>> import tricklab
    >>> from tricklab.review import VERDICTS, review_round
    >>> rules = tricklab.get_rules("tricks-and-stones", players=4)
    >>> match = rules.play(seed=3, bots="heuristic")
    >>> rev = review_round(match, 0, samples=4, seed=1)
    >>> rev.round, len(rev.decisions) > 0
    (3, True)
    >>> all(d.loss >= 0 and d.verdict in VERDICTS and "?" not in d.words for d in rev.decisions)
    True

How the numbers are made
------------------------
Every decision is rated by the one judge of the hint and the trainer,
:func:`tricklab.judge.evaluate`, on the same seed: a pre-round decision by the advisor's
play-outs, any other by play-outs raced on the core (see :mod:`tricklab.judge`); what
follows is how those play-outs see a decision.

1. **Which decisions.** Every action of the round taken by the seat with more than one
   action listed; decisions with a single listed action are left out (nothing to rate).
2. **What the seat knew.** For each decision, the cards the seat could not see are dealt
   ``samples`` times at random, uniformly among the deals that fit what the seat knew *at
   that moment* (:class:`tricklab.advisor.Knowledge` ``from_match(match, seat, at=...)`` and
   :class:`tricklab.advisor.DealSampler`): its own hand then, the cards played so far in
   the round, how many cards each hand held, the suits players had shown they lacked by not
   following, the cards it had passed to a known receiver (Jewel Vault) and the cards aside
   unseen. The same sampled deals are used for every alternative of one decision (common
   random numbers), so their differences are measured on equal terms.
3. **Play-out.** From the state before the decision, with the hidden hands replaced by the
   sampled ones, the alternative is applied and the round is played to its end by the
   games' heuristic bots for every seat, the reviewed seat's included. A decision in a
   phase of secret choices made one seat at a time (Tricks & Stones predictions, Jewel
   Vault passes) is played out from the start of that phase: the seats that chose before
   the reviewed one choose again, as their bot would on their sampled hand, since their
   real choices are hidden from the seat and were made on their real hands. Public choices
   (bids, announcements, earlier predictions once shown) stay as they were, and so do the
   Jewel Vault vaults the seat cannot see: no rule and no bot decision reads another side's
   vault, and the score is the seat's side's. Every step is the rules' core
   (``core_legal``/``core_step``) and every other decision the bots' ``choose_id``: nothing
   of the rules is written here.
4. **Scoring** is the game's own: the seat's Tricks & Stones round score (gems in the
   chamber of its tricks plus the expedition bonus, TS-8), its Band of Tricks deal score
   (BT-7), or the points its side gained in the Jewel Vault round (vault jewels 2 points,
   showroom jewels 1, JV-8: the side's points at the round's end less those at its start;
   a ♣ target therefore counts only through what it changes later in the round).
5. **Rating.** ``expected`` is the mean score of the chosen action, ``best_expected`` that
   of the best alternative, ``loss = best_expected - expected`` (0 when the choice was best
   or tied with the best), and the verdict is "same" (about the same as the best) unless the
   loss is more than two standard errors of it, else it compares the loss with the game's
   :data:`THRESHOLDS` in points. Each decision's ``reasons`` say why in words: the figures and
   whether they are told apart, what the play-outs showed (the trick the card would have won,
   its place, the prediction made exactly), each citing its rule. ``stderr`` is the standard error of a mean and
   ``loss_stderr`` that of the loss, from the paired differences on the same deals. With
   few samples a small loss is noise: read it with its standard error.

**Hindsight.** For every card the seat played to a trick that was completed, the review
also looks at the trick with every hand open (:class:`TrickHindsight`): for each card the
seat could have played there, who would have won the trick. The cards played before the
seat's stay as they were; each card after it is the card its player really played to
this trick if that card is still legal after the change, otherwise the card that player's
heuristic bot picks with the true hands; any other decision inside the trick (a Jewel
Vault ♣ target) is the bot's. Cards come from the core and the trick's winner from the
core's own trick fact.

Progress and cancellation: ``progress(done, total)`` counts play-outs: it is called with
``done = 0`` first, after every alternative of every decision and with ``done = total`` at
the end; returning exactly ``False`` stops the review with :class:`ReviewCancelled`.
Results depend only on the match, the seat, the round, ``samples`` and ``seed`` (each
decision's deals are drawn from a random source seeded by ``seed`` and the decision's
index): the same call gives identical output.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from .actions import Action, Play
from .bots import heuristic_bot
from .cards import Card
from .errors import InvalidOption, TricklabError, describe
from .explain import Reason
from .games import GAMES, find_game, games_with
from .games.base import EventKind, GameState, Rules, check_seed
from .games.core import CardIds, CoreRules, Facts
from .judge import (
    JUDGE_SAMPLES,
    SEPARATION,
    ChoiceFigure,
    Evaluation,
    Wording,
    _Judge,
    choice_reasons,
    judge_work,
    points,
)
from .match import Match
from .platform import Steps, finish

__all__ = [
    "THRESHOLDS",
    "VERDICTS",
    "DecisionReview",
    "ReviewCancelled",
    "ReviewEntry",
    "ReviewUnavailable",
    "RoundReview",
    "TrickHindsight",
    "review_round",
    "reviewable_rounds",
    "sampled_deals",
    "verdict_of",
]

MAX_SAMPLES = 100_000
VERDICTS = ("best", "same", "good", "inaccuracy", "mistake", "blunder")
#: a verdict in words, as a learner reads it (never a chess mark)
VERDICT_WORDS = {
    "best": "the best choice",
    "same": "about the same as the best",
    "good": "a good choice",
    "inaccuracy": "a small slip",
    "mistake": "a mistake",
    "blunder": "a big mistake",
}


class _Thresholds(Mapping[str, Mapping[str, float]]):
    """Each reviewed game's thresholds (``ReviewEntry.thresholds``), by the game's name, read from
    the entry the game declares."""

    def __getitem__(self, name: str) -> Mapping[str, float]:
        cls = GAMES.get(name) if isinstance(name, str) else None
        if cls is None or cls.capabilities.review is None:
            raise KeyError(name)
        return dict(cls.capabilities.review.load_as(ReviewEntry).thresholds)

    def __iter__(self) -> Iterator[str]:
        return (name for name, cls in GAMES.items() if cls.capabilities.review is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


#: The losses, in points of the game's round score, from which a decision is an inaccuracy, a
#: mistake or a blunder (below ``inaccuracy`` but above 0 it is "good"; 0 is "best"), by game:
#: each game's own (``ReviewEntry.thresholds``), which says why its numbers are what they are.
THRESHOLDS: Mapping[str, Mapping[str, float]] = _Thresholds()
_TIE = 1e-9  # losses this small are ties (means of equal sums)


# --- errors ---------------------------------------------------------------------------------------


class ReviewUnavailable(TricklabError):
    """The game has no review (it declares no ``Capabilities.review``)."""


class ReviewCancelled(TricklabError):
    """The progress callback returned ``False``; ``done`` of ``total`` play-outs were made."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(f"round review cancelled after {done} of {total} play-outs")
        self.done = done
        self.total = total


# --- the entries a game names in its declaration (Capabilities.review) ------------------------------


@dataclass(frozen=True, slots=True)
class ReviewEntry:
    """How the review works for one game; a game names it in its declaration
    (``Capabilities(review=Ref("tricklab.games.tricks_and_stones.review:TS_REVIEW"))``).

    ``ids``, ``round_of``, ``hands``, ``with_hands``, ``given`` and ``shown`` are what the deal sampler
    reads (:class:`tricklab.advisor.DealHooks`). ``deal(rules, state, hands, aside)`` puts a
    sampled deal (masks) into a state, ``view(rules, state, seat)`` is the core view a bot
    decides from, ``secret`` names the phases of secret choices made one seat at a time, and
    ``round_score(rules, start, end, seat, round)`` is the seat's score for the round from the
    state at its start and a state after its end. ``wording`` names the rules the judge's
    reasons cite (:class:`tricklab.judge.Wording`); ``tricks(rules, state, seat)`` the tricks the
    seat has won in the round so far and ``target(rules, state, seat)`` the number it predicted
    (``None`` for games without a prediction); ``aside(state, seat)`` the action another
    player takes in a play-out where its choice cannot change the reviewed seat's score nor
    anyone's play (Tricks & Stones: another player's gem action is skipped, as in the
    advisor), ``None`` where the bot decides; ``thresholds`` the losses in points from which a
    decision is an ``inaccuracy``, a ``mistake`` or a ``blunder`` (:data:`THRESHOLDS`). Each is
    the game's own.
    """

    ids: CardIds
    round_of: Callable[[GameState], int]
    hands: Callable[[GameState], tuple[int, ...]]
    with_hands: Callable[[Rules[Any], GameState, tuple[int, ...]], GameState]
    given: Callable[[Rules[Any], GameState, int], tuple[int, int] | None]
    deal: Callable[[Rules[Any], GameState, tuple[int, ...], int], GameState]
    view: Callable[[Rules[Any], GameState, int], object]
    secret: frozenset[str]
    round_score: Callable[[Rules[Any], GameState, GameState, int, int], int]
    wording: Wording
    tricks: Callable[[Rules[Any], GameState, int], int] | None = None
    target: Callable[[Rules[Any], GameState, int], int | None] | None = None
    aside: Callable[[GameState, int], int | None] | None = None
    thresholds: Mapping[str, float] = field(default_factory=dict)
    shown: Callable[[GameState], int] = lambda state: 0


def nothing_given(rules: Rules[Any], state: GameState, seat: int) -> tuple[int, int] | None:
    """A game's ``given`` where a seat passes no cards: none are anywhere."""
    return None


# --- results -------------------------------------------------------------------------------------------


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One decision of the seat, rated.

    ``index`` is the decision's index into ``match.actions``, ``phase`` the phase it was made
    in, ``action``/``text`` the action chosen. ``choices`` are the judge's figures
    (:class:`tricklab.judge.ChoiceFigure`) of every choice rated there, best first, and
    ``alternatives`` the same as ``(action, expected, stderr)``. ``expected`` is the chosen
    action's mean round score, ``best_action``/``best_expected`` the best choice's, ``loss`` the
    difference (0 when the choice was best) with ``loss_stderr`` its standard error, and
    ``verdict`` one of :data:`VERDICTS` by :data:`THRESHOLDS` and the two-standard-error rule
    (:func:`verdict_of`). ``reasons`` say why in words, with the rules behind them.
    ``samples`` deals were drawn for the decision; ``stderr`` values are ``math.inf`` from a
    single sample (``None`` in :meth:`as_dict`).
    """

    index: int
    phase: str
    action: Action
    text: str
    expected: float
    stderr: float
    best_action: Action
    best_expected: float
    loss: float
    loss_stderr: float
    verdict: str
    choices: tuple[ChoiceFigure, ...]
    samples: int
    reasons: tuple[Reason, ...] = ()

    @property
    def alternatives(self) -> tuple[tuple[Action, float, float], ...]:
        return tuple((c.action, c.mean, c.stderr) for c in self.choices)

    @property
    def words(self) -> str:
        """The verdict in words: "the best choice", "about the same as the best", "a mistake: costs
        about 2.1 points"."""
        said = VERDICT_WORDS[self.verdict]
        if self.verdict in ("best", "same"):
            return said
        return f"{said}: costs about {points(self.loss)} points"

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "phase": self.phase,
            "action": self.text,
            "expected": self.expected,
            "stderr": _finite(self.stderr),
            "best_action": str(self.best_action),
            "best_expected": self.best_expected,
            "loss": self.loss,
            "loss_stderr": _finite(self.loss_stderr),
            "verdict": self.verdict,
            "words": self.words,
            "samples": self.samples,
            "reasons": [{"rule_id": r.rule_id, "text": r.text} for r in self.reasons],
            "alternatives": [
                {"action": str(a), "expected": mean, "stderr": _finite(err)} for a, mean, err in self.alternatives
            ],
        }


@dataclass(frozen=True, slots=True)
class TrickHindsight:
    """One card the seat played to a completed trick, looked at with every hand open.

    ``index`` is the play's index into ``match.actions``, ``trick`` the trick's number in the
    round (from 1), ``cards`` the trick as it was played (play order, the seat's card at
    ``position``), ``played`` the seat's card and ``winner`` the seat that won. ``outcomes``
    holds ``(card, winner)`` for every card the seat could have played there (hand order),
    the later cards taken as the module's documentation says; :attr:`changes` keeps those
    that would have changed the winner.
    """

    index: int
    trick: int
    cards: tuple[Card, ...]
    position: int
    played: Card
    winner: int
    outcomes: tuple[tuple[Card, int], ...]

    @property
    def changes(self) -> tuple[tuple[Card, int], ...]:
        """The cards that would have changed who won, each with who would then have won."""
        return tuple((card, w) for card, w in self.outcomes if w != self.winner)

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "trick": self.trick,
            "cards": [str(c) for c in self.cards],
            "position": self.position,
            "played": str(self.played),
            "winner": self.winner,
            "outcomes": [{"card": str(c), "winner": w} for c, w in self.outcomes],
            "changes": [{"card": str(c), "winner": w} for c, w in self.changes],
        }


@dataclass(frozen=True, slots=True)
class RoundReview:
    """The review of one seat's decisions in one round (``round`` from 0).

    ``decisions`` are in play order; ``forced`` counts the seat's decisions left out because
    only one action was listed; ``hindsight`` has one entry per card the seat played to a
    completed trick; ``thresholds`` are the game's :data:`THRESHOLDS`.
    """

    game: str
    players: int
    seat: int
    round: int
    samples: int
    seed: int
    decisions: tuple[DecisionReview, ...]
    forced: int
    hindsight: tuple[TrickHindsight, ...]
    thresholds: dict[str, float]

    @property
    def costliest(self) -> DecisionReview | None:
        """The decision with the largest loss (the first of equals) among those rated a slip or
        worse, else among all (each then the best or about the same); ``None`` without decisions.
        A large loss the play-outs could not tell apart from the best is not a slip, so it never
        hides one that they could."""
        if not self.decisions:
            return None
        slips = [d for d in self.decisions if d.verdict not in ("best", "same")]
        return max(slips or self.decisions, key=lambda d: d.loss)

    def verdicts(self) -> dict[str, int]:
        """How many decisions got each verdict."""
        return {v: sum(d.verdict == v for d in self.decisions) for v in VERDICTS}

    def as_dict(self) -> dict[str, Any]:
        costliest = self.costliest
        return {
            "game": self.game,
            "players": self.players,
            "seat": self.seat,
            "round": self.round,
            "samples": self.samples,
            "seed": self.seed,
            "thresholds": dict(self.thresholds),
            "forced": self.forced,
            "verdicts": self.verdicts(),
            "costliest": None if costliest is None else costliest.index,
            "decisions": [d.as_dict() for d in self.decisions],
            "hindsight": [h.as_dict() for h in self.hindsight],
        }


# --- the review --------------------------------------------------------------------------------------

Progress = Callable[[int, int], object]


class _IdBot(Protocol):
    def choose_id(self, view: Any, legal_ids: Sequence[int]) -> int: ...


def verdict_of(game: str, loss: float, loss_stderr: float = 0.0) -> str:
    """The verdict for a loss of ``loss`` points in ``game``, with the standard error of that
    loss ``loss_stderr``: "best" for no loss, "same" (about the same as the best) when the loss
    is no more than :data:`tricklab.judge.SEPARATION` standard errors, else by :data:`THRESHOLDS`."""
    name = find_game(game).name
    if name not in THRESHOLDS:
        raise ReviewUnavailable(f"{GAMES[name].title} has no round review; the review knows {_reviewed_games()}")
    if isinstance(loss, bool) or not isinstance(loss, (int, float)) or not loss >= 0:
        raise InvalidOption(f"loss is a number of points, 0 or more, not {describe(loss)}")
    if isinstance(loss_stderr, bool) or not isinstance(loss_stderr, (int, float)) or not loss_stderr >= 0:
        raise InvalidOption(f"loss_stderr is a standard error, 0 or more, not {describe(loss_stderr)}")
    if (isinstance(loss, int) and loss > 2**1000) or (isinstance(loss_stderr, int) and loss_stderr > 2**1000):
        raise InvalidOption(f"a loss of points is at most 2**1000, not {describe(max(loss, loss_stderr))}")
    limits = THRESHOLDS[name]
    if loss <= _TIE:
        return "best"
    if loss <= SEPARATION * loss_stderr:
        return "same"
    if loss < limits["inaccuracy"]:
        return "good"
    if loss < limits["mistake"]:
        return "inaccuracy"
    if loss < limits["blunder"]:
        return "mistake"
    return "blunder"


def reviewable_rounds(match: Match) -> tuple[int, ...]:
    """The rounds of ``match`` (from 0) that :func:`review_round` rates: every complete round,
    and the current one while none is complete yet (the decisions made so far)."""
    _, entry = _checked(match, 0, 1, 0)
    current = entry.round_of(match.states[-1])
    last = current if match.is_over or current == 0 else current - 1
    return tuple(range(last + 1))


def review_round(
    match: Match,
    seat: int,
    round: int | None = None,
    *,
    samples: int = JUDGE_SAMPLES,
    seed: int = 0,
    progress: Progress | None = None,
) -> RoundReview:
    """Rate every decision ``seat`` made in round ``round`` (from 0) of ``match``.

    ``round=None`` reviews the last complete round, or, before any round is complete, the
    current one (the decisions made so far). ``samples`` deals are played out for every
    alternative of every decision; ``seed`` seeds them. ``progress(done, total)``: see the
    module's documentation; returning ``False`` cancels (:class:`ReviewCancelled`).
    """
    if progress is not None and not callable(progress):
        raise InvalidOption(f"progress must be a function progress(done, total), not {describe(progress)}")
    return finish(review_steps(match, seat, round, samples=samples, seed=seed), progress, ReviewCancelled)


def review_steps(
    match: Match, seat: int, round: int | None = None, *, samples: int = JUDGE_SAMPLES, seed: int = 0
) -> Steps[RoundReview]:
    """:func:`review_round` in steps (:mod:`tricklab.platform`): the arguments are checked now,
    and the steps yield ``(done, total)`` where :func:`review_round` reports progress."""
    rules, entry = _checked(match, seat, samples, seed)
    seed = check_seed(seed)
    current = entry.round_of(match.states[-1])
    if round is None:
        round_index = reviewable_rounds(match)[-1]
    elif isinstance(round, bool) or not isinstance(round, int) or not 0 <= round <= current:
        raise InvalidOption(f"round must be a round of this match so far, 0 to {current}, not {describe(round)}")
    else:
        round_index = round
    return _Review(match, rules, entry, seat, round_index, samples, seed).steps()


def sampled_deals(
    match: Match, seat: int, index: int, *, samples: int = JUDGE_SAMPLES, seed: int = 0
) -> tuple[int, tuple[tuple[tuple[int, ...], int], ...]]:
    """The deals :func:`review_round` plays out for the decision ``match.actions[index]`` of
    ``seat``: the index of the state the play-outs start from (``match.states[start]``: the
    state before the decision, or the start of its phase of secret choices) and the
    ``samples`` deals in the order drawn, each as the core holds it (a mask of card ids per
    hand, in the game's ``ReviewEntry.ids``, and the mask of the cards aside)."""
    rules, entry = _checked(match, seat, samples, seed)
    decisions = len(match.actions)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < decisions:
        raise InvalidOption(f"index must be a decision of the match, 0 to {decisions - 1}, not {describe(index)}")
    if match.states[index].to_play != seat:
        raise InvalidOption(f"decision {index} was not made by seat {seat}")
    listed = tuple(rules.core_legal(match.states[index]))
    judge = _Judge(match, rules, entry, index, seat, listed, rules.action_id(match.actions[index]), samples, seed)
    return judge.start, tuple(judge.draw())


def _reviewed_games() -> str:
    return " and ".join(cls.title for cls in games_with(lambda c: c.review is not None))


def _checked(match: object, seat: object, samples: object, seed: object) -> tuple[CoreRules[Any], ReviewEntry]:
    """The match's rules and review entry, once the arguments are checked."""
    if not isinstance(match, Match):
        raise InvalidOption(f"the review needs a Match (tricklab.Match or rules.new_match()), not {describe(match)}")
    rules = match.rules
    offers = rules.capabilities
    if offers.review is None or not isinstance(rules, CoreRules):
        raise ReviewUnavailable(f"{rules.title} has no round review; the review knows {_reviewed_games()}")
    n = rules.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise InvalidOption(f"seat must be a seat from 0 to {n - 1}, not {describe(seat)}")
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise InvalidOption(f"samples must be a whole number from 1 to {MAX_SAMPLES:,}, not {describe(samples)}")
    check_seed(seed)
    return rules, offers.review.load_as(ReviewEntry)


class _Review:
    def __init__(
        self,
        match: Match,
        rules: CoreRules[Any],
        entry: ReviewEntry,
        seat: int,
        round_index: int,
        samples: int,
        seed: int,
    ) -> None:
        self.match = match
        self.rules = rules
        self.entry = entry
        self.seat = seat
        self.round = round_index
        self.samples = samples
        self.seed = seed
        self.states = match.states
        self.actions = match.actions
        self.bots = [self._bot(s) for s in range(rules.players)]
        round_of = entry.round_of
        indices = [i for i, st in enumerate(self.states) if round_of(st) == round_index]
        self.start = indices[0]
        self.stop = min(indices[-1] + 1, len(self.actions))  # decisions of the round: start <= i < stop
        self.plays = frozenset(i for i, a in enumerate(rules.actions) if isinstance(a, Play))

    def _bot(self, seat: int) -> _IdBot:
        bot = heuristic_bot(self.rules, seat)
        if not callable(getattr(bot, "choose_id", None)):
            raise ReviewUnavailable(f"{self.rules.title}'s heuristic bot cannot decide on the core (no choose_id)")
        return cast(_IdBot, bot)

    # --- the decisions ---------------------------------------------------------------------------

    def steps(self) -> Steps[RoundReview]:
        rules, seat, states = self.rules, self.seat, self.states
        todo: list[tuple[int, tuple[int, ...], int, int]] = []  # (index, listed ids, chosen, work)
        forced = 0
        for i in range(self.start, self.stop):
            state = states[i]
            if state.to_play != seat:
                continue
            listed = tuple(rules.core_legal(state))
            if len(listed) < 2:
                forced += 1
                continue
            chosen = rules.action_id(self.actions[i])
            assert chosen is not None and chosen in listed, "a match records listed actions"
            todo.append((i, listed, chosen, judge_work(self.match, i, self.samples)))
        total = sum(work for *_, work in todo)
        done = 0
        yield done, total
        decisions = []
        for i, listed, chosen, work in todo:
            judge = _Judge(self.match, rules, self.entry, i, seat, listed, chosen, self.samples, self.seed)
            steps = judge.steps()
            while True:
                try:
                    part, whole = next(steps)
                except StopIteration as stop:
                    evaluation: Evaluation = stop.value
                    break
                yield done + (work * part // whole if whole else 0), total
            done += work
            decisions.append(self._rated(i, evaluation))
        yield total, total
        hindsight = tuple(h for i in range(self.start, self.stop) if (h := self._hindsight(i)) is not None)
        return RoundReview(
            rules.name,
            rules.players,
            seat,
            self.round,
            self.samples,
            self.seed,
            tuple(decisions),
            forced,
            hindsight,
            dict(THRESHOLDS[rules.name]),
        )

    def _rated(self, index: int, ev: Evaluation) -> DecisionReview:
        """The decision at ``index`` rated from the judge's evaluation of it."""
        action = self.actions[index]
        chosen = ev.figure(action)
        best = ev.best
        loss, loss_err = (0.0, 0.0) if chosen is best else (chosen.loss, chosen.loss_stderr)
        if loss <= _TIE:
            loss, loss_err, best = 0.0, 0.0, chosen
        verdict = verdict_of(self.rules.name, loss, loss_err)
        return DecisionReview(
            index,
            str(self.states[index].phase),
            action,
            str(action),
            chosen.mean,
            chosen.stderr,
            best.action,
            best.mean,
            loss,
            loss_err,
            verdict,
            ev.choices,
            self.samples,
            choice_reasons(self.rules, self.entry.wording, ev, chosen),
        )

    # --- hindsight --------------------------------------------------------------------------------

    def _hindsight(self, i: int) -> TrickHindsight | None:
        """The trick of the seat's card at decision ``i`` with every hand open (``None`` if
        decision ``i`` is not a card of the seat, or its trick was not completed)."""
        rules, states, actions, plays = self.rules, self.states, self.actions, self.plays
        state = states[i]
        if state.to_play != self.seat:
            return None
        played = rules.action_id(actions[i])
        if played not in plays:
            return None
        later: list[int] = []
        winner = number = None
        for j in range(i, len(actions)):
            a = rules.action_id(actions[j])
            assert a is not None
            facts: Facts = []
            rules.core_step(states[j], a, facts)
            if j > i and a in plays:
                later.append(a)
            trick = _trick_fact(facts)
            if trick is not None:
                winner, number = trick
                break
        if winner is None or number is None:
            return None
        ids = self.entry.ids
        before = _trick_so_far(rules, state)
        outcomes = tuple((ids.card(card), self._winner_with(state, card, later)) for card in rules.core_legal(state))
        cards = (*before, ids.card(played), *(ids.card(c) for c in later))
        return TrickHindsight(i, number, cards, len(before), ids.card(played), winner, outcomes)

    def _winner_with(self, state: GameState, card: int, later: list[int]) -> int:
        """Who wins the trick if the seat plays ``card`` at ``state`` (true hands): each later
        card as played if still listed, else its player's bot's; other decisions the bots'."""
        rules, entry, bots, plays = self.rules, self.entry, self.bots, self.plays
        facts: Facts = []
        state = rules.core_step(state, card, facts)
        k = 0
        while (trick := _trick_fact(facts)) is None:
            mover = state.to_play
            assert mover is not None, "a trick is completed before the round ends"
            listed = rules.core_legal(state)
            action = None
            if listed[0] in plays:
                wanted = later[k] if k < len(later) else None
                k += 1
                if wanted is not None and wanted in listed:
                    action = wanted
            if action is None:
                action = bots[mover].choose_id(entry.view(rules, state, mover), listed)
            facts = []
            state = rules.core_step(state, action, facts)
        return trick[0]


def _trick_fact(facts: Facts) -> tuple[int, int] | None:
    """The winner and number of the trick completed among ``facts`` (the game's trick fact)."""
    for fact, _ in facts:
        if fact.kind is EventKind.TRICK:
            assert fact.seat is not None
            number = getattr(fact, "number", 0)
            return fact.seat, int(number)
    return None


def _trick_so_far(rules: CoreRules[Any], state: GameState) -> tuple[Card, ...]:
    """The cards of the current trick before the seat's card (every game's state has ``trick``)."""
    trick = getattr(state, "trick", ())
    return tuple(rules.card(c) for c in trick)
