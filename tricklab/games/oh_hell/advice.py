"""Oh Hell's advice (:mod:`tricklab.advisor`): which bid to make.

Every bid the seat may make races on the same sampled deals (:data:`OH_RACE`): all of them on the
first 20 % of the deals, then the 3 best and the bid under test on every deal. Each play-out runs
the deal on the core (``core_legal``/``core_step``) from the bids made so far: the players still
to bid bid as their bots would, the seat bids the bid tried, and every card is the heuristic
bots' (the seat's bot plays toward the bid tried). The turned-up card is seen by everyone and is
in no hand, so it is never dealt to anyone in a sample (``shown``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ...actions import Action, Predict
from ...advisor import Advice, AdviceUnavailable, AdvisorEntry, BiddingView, BidEstimate, DealSampler, Knowledge
from ...errors import InvalidScoreInput, describe
from ...explain import Reason, plural
from ...platform import Steps
from ...playouts import (
    Stages,
    Ticker,
    advice_of,
    carriers,
    count_bits,
    each_playing,
    mean_and_error,
    race,
    race_work,
    share,
)
from ..base import GameState, Rules
from ..core import bits, mask_of
from .bots import HeuristicBot
from .facts import IDS
from .rulebook import EXACT_BONUS
from .rules import BID, BID_ID, MOST_CARDS, OhHell, OhHellState, OhHellView, _Deal
from .rules import points as deal_points

OH_RACE: Stages = ((0.2, 3),)
"""The race of the bids: all of them on the first 20 % of the deals, then the 3 best (and the bid
under test) on every deal."""

# One play-out's outcome for the seat: (bid, tricks taken, points, mask of its cards that took a trick)
_Outcome = tuple[int, int, int, int]


def round_of(state: GameState) -> int:
    assert isinstance(state, OhHellState)
    return state.round


def hands_of(state: GameState) -> tuple[int, ...]:
    assert isinstance(state, OhHellState)
    return state.held


def shown(state: GameState) -> int:
    """The turned-up card: face up for everyone, in no hand."""
    assert isinstance(state, OhHellState)
    return 1 << state.turned


def with_hands(rules: Rules[Any], state: GameState, hands: tuple[int, ...]) -> GameState:
    """The state with other hands; the cards in no hand, no trick and no taken pile are the stock."""
    assert isinstance(state, OhHellState)
    out = mask_of(state.played)
    for mask in (*hands, *state.taken):
        out |= mask
    return state._replace(held=hands, stock=(1 << len(IDS)) - 1 & ~out)


def _bid_input(bid: object) -> Action:
    """A bid as the advisor takes it: ``Predict(k)``, or the number of tricks."""
    value = bid.n if isinstance(bid, Predict) else bid
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MOST_CARDS:
        raise InvalidScoreInput(
            f"a bid is a number of tricks from 0 to {MOST_CARDS} (or 'bid 2'), not {describe(bid)}", rule_id="oh.bid"
        )
    return Predict(value)


def _knowledge(rules: Rules[Any], view: BiddingView, seat: int) -> Knowledge:
    """What the seat knows at its turn to bid: its own hand, the turned-up card and the bids
    before its own (a dealer's barred bid depends on them)."""
    assert isinstance(rules, OhHell) and isinstance(view, OhHellView)
    if view.bids[seat] is not None:
        raise AdviceUnavailable(
            "bids are tried before you make yours: this view has your bid already made", rule_id="oh.bid"
        )
    if view.to_play != seat:
        raise AdviceUnavailable(
            "bids are tried at your turn to bid, once the players before you have bid aloud", rule_id="oh.bid"
        )
    sizes = view.hand_sizes
    known = tuple(tuple(view.hand) if s == seat else () for s in range(rules.players))
    return Knowledge(seat, known, sizes, len(IDS) - sum(sizes) - 1, (view.turned,))


def opening(rules: OhHell, view: OhHellView) -> OhHellState:
    """The deal as the view shows it, before the sampled hands go in: the bids made so far, the
    turned-up card, the scores of the deals before."""
    n = rules.players
    empty = (0,) * n
    first = (view.dealer + 1) % n
    return OhHellState(
        0, BID, view.to_play, view.round, view.dealer, view.cards, IDS.id[view.turned], 0, empty,
        view.bids, first, (), 0, empty, empty, (), view.round_scores, view.exact,
    )  # fmt: skip


class _DealOnly(_Deal):
    """A play-out's deal: played to its last trick and no further (the next deal is of no use to
    it), noting what the ``watched`` seat's own cards took and its tricks and score."""

    watched, cards = 0, 0
    outcome: _Outcome | None = None

    def trick_taken(self, winner: int, cards: int, trick: tuple[int, ...]) -> OhHellState | None:
        seat = self.watched
        if winner == seat:
            self.cards |= 1 << trick[(seat - self.leader) % len(trick)]
        if self.number < self.size - 1:
            return super().trick_taken(winner, cards, trick)
        self.won[winner] += 1  # the deal's last trick, counted here: the deal ends with it
        bid, tricks = self.bids[seat], self.won[seat]
        assert bid is not None, "the bids are made before the tricks"
        self.outcome = (bid, tricks, deal_points(bid, tricks, self.penalty), self.cards)
        return self.pack(None)


class Playouts:
    """Oh Hell play-outs of one seat's bids, each on a round driven directly (``live_deal``: the
    bots read the deal's seat views between decisions, and no state is packed), every decision but
    the seat's bid its heuristic bot's (``choose_id``)."""

    def __init__(self, rules: OhHell, start: OhHellState, seat: int) -> None:
        self.rules = rules
        self.start = start
        self.seat = seat
        self.bots = [HeuristicBot(rules, s) for s in range(rules.players)]

    def run(self, hands: tuple[int, ...], aside: int, bids: Sequence[int]) -> dict[int, _Outcome]:
        """Each bid's outcome on one deal (``aside``: the stock, the turned-up card apart)."""
        start = self.start._replace(held=hands, stock=aside | 1 << self.start.turned)
        return {p: self._play(start, p) for p in bids}

    def _play(self, state: OhHellState, p: int) -> _Outcome:
        seat, bots = self.seat, self.bots
        deal, round_ = self.rules.live_deal(state, _DealOnly)
        assert isinstance(deal, _DealOnly)
        deal.watched = seat
        send, seat_view = round_.send, deal.seat_view
        mover, listed = next(round_)  # type: ignore[misc]  # a round's yields are decisions unless sent PACK
        try:
            while True:
                if mover == seat and deal.phase is BID:
                    choice = BID_ID + p
                else:
                    choice = bots[mover].choose_id(seat_view(mover), listed)
                mover, listed = send(choice)  # type: ignore[misc]
        except StopIteration:
            pass
        assert deal.outcome is not None, "a play-out ends with its deal"
        return deal.outcome


def _reasons(estimate: BidEstimate, penalty: bool) -> tuple[Reason, ...]:
    """A bid's reasons: the cards that carry its tricks, then how often it comes out exactly,
    over or short, with what that costs (``oh.score``)."""
    p = estimate.bid.n if isinstance(estimate.bid, Predict) else 0
    n = estimate.samples
    hist = estimate.tricks
    over, short = sum(hist[p + 1 :]), sum(hist[:p])
    miss = "you lose a point for each trick off" if penalty else "you score only your tricks"
    risk = (
        f"You take exactly {plural(p, 'trick')} in {share(estimate.hits, n)} of the deals (+{EXACT_BONUS} bonus), "
        f"more in {share(over, n)} and fewer in {share(short, n)}: off by any trick, {miss}."
    )
    rule = "oh.score.penalty" if penalty else "oh.score"
    return (carriers(estimate.card_wins, n), Reason(rule, risk))


_MODEL = (
    "The sampled deals of the unseen cards (the turned-up card stays turned up) were played out by the "
    "heuristic bots for each bid you may make, with your bot playing toward that bid; the players still to "
    "bid bid as their bot would. The bids raced on the same deals: all of them on the first 20 %, the 3 best "
    "and the bid tried on every deal. The score is the deal's: a point a trick, 10 more for an exact bid."
)


def _advise(
    rules: Rules[Any],
    view: BiddingView,
    seat: int,
    under_test: Action | None,
    samples: int,
    seed: int,
    sampler: DealSampler,
    rng: random.Random,
    ticker: Ticker,
) -> Steps[Advice]:
    assert isinstance(rules, OhHell) and isinstance(view, OhHellView)
    start = opening(rules, view)
    bids = [a - BID_ID for a in rules.core_legal(start)]  # the bids the rules let the seat make now
    tried = under_test.n if isinstance(under_test, Predict) else None
    if tried is not None and tried not in bids:
        raise rules.explain_illegal(start, Predict(tried))
    playouts = Playouts(rules, start, seat)
    deals = [sampler.sample_masks(rng) for _ in range(samples)]

    def run(i: int, playing: Sequence[int]) -> dict[int, _Outcome]:
        hands, aside = deals[i]
        return playouts.run(hands, aside, playing)

    def score(outcome: _Outcome) -> float:
        return outcome[2]

    ticker.total = race_work(samples, len(bids), tried is not None, OH_RACE, each_playing)
    yield from ticker.tick(0)
    outcomes = yield from race(samples, bids, tried, OH_RACE, run, score, ticker, each_playing)
    hand = IDS.mask(view.hand)
    estimates = []
    for p, found in outcomes.items():
        hist = [0] * (view.cards + 1)
        scores: dict[int, int] = {}
        cards: dict[int, int] = {}
        total = squares = hits = 0
        for _, tricks, points, winners in found:
            hist[tricks] += 1
            total += points
            squares += points * points
            hits += tricks == p
            scores[points] = scores.get(points, 0) + 1
            count_bits(cards, winners)
        count = len(found)
        mean, stderr = mean_and_error(total, squares, count)
        card_wins = tuple((IDS.card(c), cards.get(c, 0)) for c in bits(hand))
        estimate = BidEstimate(
            Predict(p), str(Predict(p)), count, tuple(hist), hits, hits / count, mean, stderr,
            scores=tuple(sorted(scores.items())), card_wins=card_wins,
        )  # fmt: skip
        estimates.append(replace(estimate, reasons=_reasons(estimate, rules.options.penalty)))
    estimates.sort(key=lambda e: e.bid.n if isinstance(e.bid, Predict) else 0)
    return advice_of(rules, view, seat, samples, seed, under_test, None, estimates, _MODEL, ())


OH_ADVICE = AdvisorEntry(
    OhHellView,
    "the bidding",
    IDS,
    round_of,
    hands_of,
    with_hands,
    _bid_input,
    _advise,
    knowledge=_knowledge,
    shown=shown,
)
