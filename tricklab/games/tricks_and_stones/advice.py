"""Tricks & Stones' advice (:mod:`tricklab.advisor`): which prediction to make.

The six predictions 0-5 race on the same deals (:data:`TS_RACE`): all of them on the first 20 %
of the deals, then the 3 best and the prediction under test on every deal. On each deal they share
the play of the cards for as long as the seat's bot plays the same card under each and the same
player leads, and fork where they part. The score depends on the seat's gems, so the seat's bot
takes its gem actions after every trick exactly as in a real round, from the core's table of the
gem actions its place allows (:class:`_TsPlayouts`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ...actions import Action, Predict
from ...advisor import (
    Advice,
    AdvisorEntry,
    BiddingView,
    BidEstimate,
    DealSampler,
)
from ...explain import Reason
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
from ..core import PACK, Round, bits, mask_of
from . import rules as ts
from .bots import HeuristicBot as TsBot
from .bots import gems_id as ts_gems_id
from .bots import play_id as ts_play_id


def _ts_bid(bid: object) -> Action:
    value = bid.n if isinstance(bid, Predict) else bid
    _TS_SCORING.score_round(prediction=value, tricks=0, gems=(0,) * ts.CHAMBERS)  # type: ignore[arg-type]
    assert isinstance(value, int)
    return Predict(value)


# score_round checks a prediction the same way whatever the player count
_TS_SCORING = ts.TricksAndStones.create(4)


def _ts_reasons(estimate: BidEstimate) -> tuple[Reason, ...]:
    """A prediction's reasons: the cards that carry its tricks, then how often it comes out
    exactly, over or short, with what that costs (TS-8)."""
    p = estimate.bid.n if isinstance(estimate.bid, Predict) else 0
    n = estimate.samples
    hist = estimate.tricks
    over, short = sum(hist[p + 1 :]), sum(hist[:p])
    bust = sum(hist[ts.CHAMBERS :])
    risk = (
        f"You win exactly {p} in {share(estimate.hits, n)} of the deals (+3 bonus), more in {share(over, n)} "
        f"and fewer in {share(short, n)}: off by any trick, the bonus is lost and you score the gems in "
        "the chamber of the tricks you did win."
    )
    reasons = [carriers(estimate.card_wins, n), Reason("ts.score.bonus", risk)]
    if bust >= 0.05 * n:
        reasons.append(
            Reason("ts.score.over", f"In {share(bust, n)} of the deals you win 6 or more tricks: that scores nothing.")
        )
    return tuple(reasons)


_TS_MODEL = (
    "The sampled deals of the unseen cards were played out by the heuristic bots for each prediction, "
    "with the seat's bot aiming for that prediction and taking its gem actions after each trick as in "
    "a real round; the other players predicted as their bot would. The predictions raced on the same "
    "deals: all six on the first 20 %, the 3 best and the prediction tried on every deal. The score is "
    "the seat's own gems in the chamber of its tricks, plus 3 for an exact prediction."
)


def _advise_ts(
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
    assert isinstance(rules, ts.TricksAndStones) and isinstance(view, ts.TricksAndStonesView)
    playouts = _TsPlayouts(rules, view, seat)
    deals = [sampler.sample_masks(rng) for _ in range(samples)]
    predictions = list(range(ts.MAX_PREDICTION + 1))
    tried = under_test.n if isinstance(under_test, Predict) else None

    def run(i: int, playing: Sequence[int]) -> dict[int, tuple[int, int, int, int]]:
        hands, aside = deals[i]
        return {outcome[0]: outcome for outcome in playouts.run(hands, aside, playing)}

    def score(outcome: tuple[int, int, int, int]) -> float:
        return outcome[2]

    ticker.total = race_work(samples, len(predictions), tried is not None, TS_RACE, each_playing)
    yield from ticker.tick(0)
    outcomes = yield from race(samples, predictions, tried, TS_RACE, run, score, ticker, each_playing)
    size = ts.CARDS_EACH + 1
    hand = ts.IDS.mask(view.hand)
    estimates = []
    for p in predictions:
        hist = [0] * size
        scores: dict[int, int] = {}
        cards: dict[int, int] = {}
        total = squares = hits = 0
        for _, tricks, points, winners in outcomes[p]:
            hist[tricks] += 1
            total += points
            squares += points * points
            hits += tricks == p
            scores[points] = scores.get(points, 0) + 1
            if winners:
                count_bits(cards, winners)
        count = len(outcomes[p])
        mean, stderr = mean_and_error(total, squares, count)
        card_wins = tuple((ts.IDS.card(c), cards.get(c, 0)) for c in bits(hand))
        estimate = BidEstimate(
            Predict(p), str(Predict(p)), count, tuple(hist), hits, hits / count, mean, stderr,
            scores=tuple(sorted(scores.items())), card_wins=card_wins,
        )  # fmt: skip
        estimates.append(replace(estimate, reasons=_ts_reasons(estimate)))
    return advice_of(rules, view, seat, samples, seed, under_test, None, estimates, _TS_MODEL, ())


# One trick of a play-out, as the seat's gem action after it depends on it: the seat's place,
# its tricks won so far and the cards left in its hand.
_TrickNote = tuple[int, int, int]

# A play-out under way: its deal, its round, the seat to play and the ids listed.
_Live = tuple["_RoundOnly", "Round[ts.TricksAndStonesState]", int, "Sequence[int]"]


class _RoundOnly(ts._Deal):
    """A play-out's deal: played to the round's last gem action and no further (the next round
    is of no use to it)."""

    def _end_round(self) -> ts.TricksAndStonesState | None:
        self.phase = ts.OVER
        return self.pack(None)


class _TsPlayouts:
    """Tricks & Stones play-outs of one seat's six predictions, on the round driven directly.

    Every step is the round's (``live_deal``: the bots read the running deal's seat views between
    decisions, and no state is packed) and every decision the heuristic bots' (``choose_id``).
    The six predictions share a play-out of the cards for as long as the seat's bot plays the
    same card under each of them and the same player leads (the predictions are made through the
    round, so its first-lead rule decides); where the seat's bot would play differently, the
    play-out forks: the state there is packed and a second round goes on from it. Gem actions
    do not change how anyone plays a card, so at the table every gem action is skipped and the
    seat's own are taken apart, for each prediction, after every trick of its play-out: the
    core's gem table for the seat's place lists them, the seat's bot picks one, the table gives
    the gems after it.
    """

    def __init__(self, rules: ts.TricksAndStones, view: ts.TricksAndStonesView, seat: int) -> None:
        self.rules = rules
        self.seat = seat
        self.n = rules.players
        self.bots = [TsBot(rules, s) for s in range(self.n)]
        self.opening = rules.round_opening(view.round, view.dealer)
        self.round = view.round
        self.trump = ts.SUIT_INDEX[view.trump]
        self.allowances = ts.ALLOWANCES[self.n]
        self.ring = rules.options.chambers == "ring"
        # the seat's gem turns met so far: (gems, supply, prediction, trick note) -> (gems, supply)
        self._gems: dict[tuple[tuple[int, ...], int, int, _TrickNote], tuple[tuple[int, ...], int]] = {}

    def run(
        self, hands: tuple[int, ...], aside: int, predictions: Sequence[int] = range(ts.MAX_PREDICTION + 1)
    ) -> list[tuple[int, int, int, int]]:
        """``(prediction, tricks won, score, cards)`` of the seat for each of ``predictions`` on
        one deal, ``cards`` the mask of the seat's cards that won a trick."""
        rules, seat, bots = self.rules, self.seat, self.bots
        start = rules.with_hands(self.opening, hands, aside)
        others: dict[int, int] = {}  # the other seats' predictions: their bots', the same each time
        leading: dict[int, tuple[_Live, list[int]]] = {}  # first leader -> play
        for p in predictions:
            deal, round_ = rules.live_deal(start, _RoundOnly)
            assert isinstance(deal, _RoundOnly)
            mover, listed = next(round_)  # type: ignore[misc]  # a round's yields are decisions unless sent PACK
            while deal.phase is ts.PREDICT:
                if mover == seat:
                    action = ts.PREDICT_ID + p
                elif mover in others:
                    action = others[mover]
                else:
                    action = others[mover] = bots[mover].choose_id(deal.seat_view(mover), listed)
                mover, listed = round_.send(action)  # type: ignore[misc]
            leading.setdefault(deal.leader, ((deal, round_, mover, listed), []))[1].append(p)
        out: list[tuple[int, int, int, int]] = []
        for live, group in leading.values():
            self._play(live, group, [], [], out)
        return out

    def _play(
        self,
        live: _Live,
        group: list[int],
        notes: list[_TrickNote],
        cards: list[int],
        out: list[tuple[int, int, int, int]],
    ) -> None:
        seat = self.seat
        deal, round_, mover, ids = live
        send, seat_view = round_.send, deal.seat_view
        gems, skip = ts.GEMS, ts.SKIP_ID
        try:
            while True:
                if deal.phase is gems:
                    mover, ids = send(skip)  # type: ignore[misc]
                    continue
                view = seat_view(mover)
                if mover != seat:
                    card = ts_play_id(view, ids)  # the bot's card (HeuristicBot.choose_id in the play phase)
                else:
                    choices: dict[int, list[int]] = {}
                    for p in group:  # the deal holds one of the group's predictions: the others' views differ in it
                        own = view if view.prediction == p else view._replace(prediction=p)
                        choices.setdefault(ts_play_id(own, ids), []).append(p)
                    (card, group), *rest = choices.items()
                    for other, part in rest:  # the seat's bot parts ways here: play the other part apart
                        apart, taken = notes[:], cards[:]
                        fork, forked = self.rules.live_deal(send(PACK), _RoundOnly)  # type: ignore[arg-type]
                        assert isinstance(fork, _RoundOnly)
                        _, listed = next(forked)  # type: ignore[misc]
                        self._note(fork, mover, other, apart, taken)
                        after, listed = forked.send(other)  # type: ignore[misc]
                        self._play((fork, forked, after, listed), part, apart, taken, out)
                self._note(deal, mover, card, notes, cards)
                mover, ids = send(card)  # type: ignore[misc]
        except StopIteration:
            pass
        winners = mask_of(cards)
        for p in group:
            out.append((p, *self._score(p, notes), winners))

    def _note(self, deal: ts._Deal, mover: int, card: int, notes: list[_TrickNote], cards: list[int]) -> None:
        """Before ``mover`` plays ``card``: if it completes the trick, note the seat's place in it
        (the core's ranking) and, if the seat won it, the seat's card in ``cards``."""
        n, seat = self.n, self.seat
        if len(deal.played) == n - 1:
            trick = (*deal.played, card)
            order = ts._ranking(trick, self.trump)
            places = [(deal.leader + i) % n for i in order]
            if places[0] == seat:
                cards.append(trick[order[0]])
            won = deal.won[seat] + (places[0] == seat)
            left = deal.held[seat].bit_count() - (mover == seat)
            notes.append((places.index(seat), won, left))

    def _gem_turn(
        self, board: tuple[int, ...], supply: int, prediction: int, note: _TrickNote
    ) -> tuple[tuple[int, ...], int]:
        """The seat's gems and supply after its gem action for one trick (``note``)."""
        place, won, left = note
        points, moves = self.allowances[place]
        listed, after = ts._gem_table(board, prediction, min(points, supply), moves, self.ring)
        if len(listed) == 1:  # only Skip: no choice
            return board, supply
        view = ts.TricksAndStonesSeatView(
            self.seat, self.n, ts.GEMS, self.trump, (1 << left) - 1, (), prediction, won, board
        )
        own = after[ts_gems_id(view, listed)]  # the bot's gem action (HeuristicBot.choose_id)
        return own, supply - (sum(own) - sum(board))

    def _score(self, prediction: int, notes: list[_TrickNote]) -> tuple[int, int]:
        """The seat's tricks and score for ``prediction``: its gem actions after each trick as its
        bot takes them from the core's gem table (TS-6, TS-7), then the round's points (TS-8)."""
        board = (0,) * ts.CHAMBERS
        supply = ts.GEMS_EACH
        memo = self._gems
        for note in notes:
            key = (board, supply, prediction, note)
            found = memo.get(key)
            if found is None:
                found = memo[key] = self._gem_turn(board, supply, prediction, note)
            board, supply = found
        tricks = notes[-1][1] if notes else 0
        gems, bonus = ts._points(prediction, tricks, board)
        return tricks, gems + bonus


TS_RACE: Stages = ((0.2, 3),)
"""Tricks & Stones' race of the six predictions: all of them on the first 20 % of the deals, then
the 3 best (and the prediction under test) on every deal."""


def round_of(state: GameState) -> int:
    assert isinstance(state, ts.TricksAndStonesState)
    return state.round


def hands_of(state: GameState) -> tuple[int, ...]:
    assert isinstance(state, ts.TricksAndStonesState)
    return state.held


def with_hands(rules: Rules[Any], state: GameState, hands: tuple[int, ...]) -> GameState:
    assert isinstance(rules, ts.TricksAndStones) and isinstance(state, ts.TricksAndStonesState)
    return rules.with_hands(state, hands, state.set_aside)


TS_ADVICE = AdvisorEntry(
    ts.TricksAndStonesView, "the prediction phase", ts.IDS, round_of, hands_of, with_hands, _ts_bid, _advise_ts
)
