"""What a game's advice builds on (:mod:`tricklab.advisor`; each game's own is its folder's
``advice.py``): racing the choices on the same deals (:func:`race`, :func:`race_work`), the
progress that lets a caller follow and cancel (:class:`Ticker`), the figures (:func:`mean_and_error`,
:func:`count_bits`, :func:`share`), the reasons that name the cards carrying the tricks
(:func:`carriers`) and the finished :class:`~tricklab.advisor.Advice` (:func:`advice_of`).

These are parts for a game's advice to assemble, not calls for a learner's code: they take what
the advisor has already checked (:func:`tricklab.advisor.advise` is the entry point)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .actions import Action
from .cards import BandCard, Card
from .errors import TricklabError
from .explain import Reason, and_list
from .games.base import Rules
from .games.core import bits
from .platform import Steps

if TYPE_CHECKING:
    from .advisor import Advice, BiddingView, BidEstimate

#: how often (a fiftieth of the way) a long play-out reports its progress
PROGRESS_STEPS = 50


class AdviceCancelled(TricklabError):
    """The progress callback returned ``False``; ``done`` of ``total`` samples were played."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(f"advice cancelled after {done} of {total} steps of its play-outs")
        self.done = done
        self.total = total


class Ticker:
    """Reports ``(done, total)`` every ``step`` samples (``yield from ticker.tick(done)``)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.next = 0
        self.done = 0

    @property
    def total(self) -> int:
        """The steps of work in all (a game's play-outs may count more than the samples)."""
        return self._total

    @total.setter
    def total(self, total: int) -> None:
        self._total = total
        self.step = max(1, total // PROGRESS_STEPS)

    def tick(self, done: int) -> Iterator[tuple[int, int]]:
        self.done = done
        if done < self.next and done != self.total:
            return
        self.next = done + self.step
        yield done, self.total


def mean_and_error(total: float, squares: float, count: int) -> tuple[float, float]:
    """The mean of ``count`` scores from their ``total`` and sum of ``squares``, and its standard
    error (infinite from one score)."""
    mean = total / count
    if count < 2:
        return mean, math.inf
    variance = max(0.0, (squares - total * total / count) / (count - 1))
    return mean, math.sqrt(variance / count)


CARRIES = 0.3
"""A card "carries" tricks if it wins a trick in at least this share of the deals played out."""


CARRIERS_SHOWN = 4


def share(count: int, samples: int) -> str:
    """``count`` of ``samples`` deals as a percentage, as the reasons say it."""
    return f"{count / samples:.0%}"


def card_label(card: Card) -> str:
    """A card as a beginner reads it: A♦, or a Band of Tricks card by name (Rock 14)."""
    return card.name if isinstance(card, BandCard) else card.pretty


def carriers(card_wins: Sequence[tuple[Card, int]], samples: int, whose: str = "Your") -> Reason:
    """Which of the seat's cards win the tricks (``advice.cards``): the cards that win a trick in
    at least :data:`CARRIES` of the deals, most often first."""
    ranked = sorted(((k, c) for c, k in card_wins if k >= CARRIES * samples), key=lambda kc: -kc[0])
    if not ranked:
        return Reason(
            "advice.cards",
            f"None of {whose.lower()} cards wins a trick in as many as {CARRIES:.0%} of the deals: expect few tricks.",
        )
    shown = ranked[:CARRIERS_SHOWN]
    parts = [f"{card_label(c)} ({share(k, samples)})" for k, c in shown]
    more = len(ranked) - len(shown)
    rest = f", and {more} more" if more else ""
    return Reason(
        "advice.cards",
        f"{whose} tricks come from {and_list(parts)}{rest}: the share of deals in which each card wins a trick.",
        tuple(c for _, c in shown),
    )


def count_bits(counts: dict[int, int], mask: int) -> None:
    """Count one more for each card id in ``mask``."""
    for c in bits(mask):
        counts[c] = counts.get(c, 0) + 1


def pick_best(estimates: Sequence[BidEstimate]) -> BidEstimate:
    """The bid played for on every deal with the highest expected score (ties: the higher
    ``p_exact``, then the first listed): a rough figure, or one from fewer deals (a pass dropped
    in Jewel Vault's race), is never recommended."""
    most = max(e.samples for e in estimates if e.played_for)
    candidates = [e for e in estimates if e.played_for and e.samples == most]
    best = candidates[0]
    for e in candidates[1:]:
        if (e.mean, e.p_exact) > (best.mean, best.p_exact):
            best = e
    return best


def advice_of(
    rules: Rules[Any],
    view: BiddingView,
    seat: int,
    samples: int,
    seed: int,
    under_test: Action | None,
    played: Action | None,
    estimates: list[BidEstimate],
    model: str,
    metal: tuple[int, ...],
) -> Advice:
    """The finished advice of a game's play-outs: its ``estimates`` and the best of them
    (:func:`pick_best`), with what was asked and how the numbers were made (``model``)."""
    from .advisor import Advice  # (the advisor imports these parts: the result's type, when it is made)

    return Advice(
        rules.name,
        rules.players,
        seat,
        tuple(view.hand),
        samples,
        seed,
        under_test,
        played,
        tuple(estimates),
        pick_best(estimates),
        model,
        metal,
    )


Stages = tuple[tuple[float, int], ...]
"""A race: after each share of the deals, only this many of the best choices go on."""


Outcome = TypeVar("Outcome")


def race(
    samples: int,
    shortlist: Sequence[int],
    tried: int | None,
    stages: Stages,
    run: Callable[[int, Sequence[int]], Mapping[int, Outcome]],
    value: Callable[[Outcome], float],
    ticker: Ticker,
    weight: Callable[[int], int],
) -> Steps[dict[int, list[Outcome]]]:
    """Each choice's outcomes on the deals it played: every choice of ``shortlist`` plays the
    first deals; after each stage (a share of the ``samples`` deals) only the best ``keep`` by
    mean ``value`` go on (ties: earlier in ``shortlist``), and the choice under test
    ``tried`` plays every deal. ``run(i, playing)`` plays deal ``i`` for the choices
    ``playing`` and gives each one's outcome. Progress counts ``weight(len(playing))`` a deal."""
    out: dict[int, list[Outcome]] = {c: [] for c in dict.fromkeys([*shortlist, *([] if tried is None else [tried])])}
    stops = _stops(samples, stages)
    running = list(shortlist)
    done = ticker.done  # work already reported (a shortlist's play-outs before the race)
    begin = 0
    for stage, stop in enumerate(stops):
        playing = list(dict.fromkeys([*running, *([] if tried is None else [tried])]))
        for i in range(begin, max(begin, stop)):
            for choice, outcome in run(i, playing).items():
                out[choice].append(outcome)
            done += weight(len(playing))
            yield from ticker.tick(done)
        begin = max(begin, stop)
        if stage < len(stages):
            order = {c: k for k, c in enumerate(shortlist)}
            running = sorted(running, key=lambda c: (-_mean_of(out[c], value), order[c]))[: stages[stage][1]]
    if done != ticker.total:  # the choice under test was among the best: less work than the most
        yield from ticker.tick(ticker.total)
    return out


def each_playing(playing: int) -> int:
    """A race's work on one deal: a play-out for each choice playing it."""
    return playing


def _stops(samples: int, stages: Stages) -> list[int]:
    """Where each stage of a race ends (a number of deals), the last at ``samples``."""
    return [max(1, math.ceil(share * samples)) for share, _ in stages] + [samples]


def race_work(samples: int, choices: int, tried: bool, stages: Stages, weight: Callable[[int], int]) -> int:
    """The most work a race reports (the choice under test may turn out to be among the best)."""
    stops = _stops(samples, stages)
    sizes = [choices] + [min(keep, choices) for _, keep in stages]
    begins = [0, *stops[:-1]]
    return sum(
        max(0, stop - begin) * weight(size + tried) for begin, stop, size in zip(begins, stops, sizes, strict=True)
    )


def _mean_of(outcomes: Sequence[Outcome], value: Callable[[Outcome], float]) -> float:
    return sum(value(o) for o in outcomes) / len(outcomes)
