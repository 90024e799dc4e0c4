"""Band of Tricks' advice (:mod:`tricklab.advisor`): which bid to make.

There are 343 bids (7 x 7 x 7 per-suit bids, 0 0 0 being Zero Success, BT-3): too many to play
for each. The first :data:`SHORTLIST_DEALS` sampled deals are played out once with the seat's bot
aiming for its own bid, and every bid is scored roughly on the tricks the seat won in that play
(its Metal wins counted as the bot counts them under that bid, when each trick is won). The
:data:`SHORTLIST` best and the bid under test are then played for, raced on the same deals
(:data:`BT_RACE`), sharing the play for as long as the seat's bot decides the same under each."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...actions import BID_SUITS, Action, Bid
from ...advisor import (
    Advice,
    AdvisorEntry,
    BiddingView,
    BidEstimate,
    DealSampler,
)
from ...explain import Reason, and_list
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
from .. import band_of_tricks as bt
from ..base import GameState, Rules
from ..core import PACK, Round, bits
from .bots import HeuristicBot as BandBot
from .bots import metal_suit
from .game import _Deal
from .rules import _check_bid_input, _points_of


def _bt_reasons(estimate: BidEstimate, players: int, zero_points: int) -> tuple[Reason, ...]:
    """A bid's reasons: the cards that carry its tricks, then each suit's risk of an overrun or a
    shortfall (BT-7), or for Zero Success the chance of taking a trick."""
    n = estimate.samples
    bid = estimate.bid
    assert isinstance(bid, Bid)
    reasons = [carriers(estimate.card_wins, n)]
    if bid.zero:
        some = n - estimate.tricks[0]
        reasons.append(
            Reason(
                "bt.score.zero",
                f"You take no trick in {share(estimate.tricks[0], n)} of the deals (+{zero_points}); in the other "
                f"{share(some, n)} you lose a point for every trick you take.",
            )
        )
        return tuple(reasons)
    overs, shorts = [], []
    for key, hist in zip(BID_SUITS, estimate.suits, strict=True):
        b = getattr(bid, key)
        name = key.title()
        over, short = sum(hist[b + 1 :]), sum(hist[:b])
        if over >= 0.1 * n:
            overs.append(f"{name} in {share(over, n)}")
        if short >= 0.1 * n:
            shorts.append(f"{name} in {share(short, n)}")
    if overs:
        reasons.append(
            Reason(
                "bt.score.overrun",
                f"Risk of an overrun (more wins than bid in a suit, a point lost for each): {and_list(overs)} "
                "of the deals.",
            )
        )
    if shorts:
        reasons.append(
            Reason(
                "bt.score.short",
                f"Risk of falling short (fewer wins than bid, which costs more than an overrun): "
                f"{and_list(shorts)} of the deals.",
            )
        )
    if not overs and not shorts:
        reasons.append(Reason("bt.score.success", "Every suit comes out as bid in at least nine deals out of ten."))
    return tuple(reasons)


_BT_MODEL = (
    "The first {rough} sampled deals of the unseen cards were played out by the heuristic bots with the "
    "seat's bot aiming for its own bid ({own}); players still to bid bid as their bot would. Every bid "
    "was scored roughly on that play, each Metal win counted, when it was won, for the suit where it "
    "helped that bid most. The {shortlist} best bids by that rough score and the bid tried were then "
    "each played out with the seat's bot aiming for that bid, raced on the same deals: all of them on "
    "the first {first}, the {keep} best and the bid tried on every deal. Their figures are their own; "
    "the other bids' figures are rough (nobody played for them)."
)


_METAL = bt.METAL_SUIT


@dataclass(frozen=True, slots=True)
class _BtLeaf:
    """One bid's play-out of one deal: the bid (an index into ``ALL_BIDS``), the suit of each
    trick the seat won in trick order (the winning card's suit, 3: Metal), its wins at the
    end as the core counted them (Rock, Soul, Pops, Metal wins under Zero Success), and the
    mask of the seat's own cards that won a trick."""

    bid: int
    wins: tuple[int, ...]
    won: tuple[int, int, int, int]
    winners: int


class _DealOnly(_Deal):
    """A play-out's deal: played to its score and no further (the next deal is of no use to it),
    noting, for the ``watched`` seat, the suit of each trick it wins (``wins``), its own cards
    that won one (``winners``, of its hand ``own``) and its wins as scored (``ended``)."""

    watched, own, winners = 0, 0, 0
    wins: list[int]
    ended: tuple[int, int, int, int] | None = None

    def trick_taken(self, winner: int, cards: int, trick: tuple[int, ...]) -> bt.BandOfTricksState | None:
        if winner == self.watched:
            card = trick[self.best]
            self.wins.append(bt.SUIT[card])
            if self.own >> card & 1:
                self.winners |= 1 << card
        return super().trick_taken(winner, cards, trick)

    def _end_deal(self) -> bt.BandOfTricksState | None:
        self.ended = self.won[self.watched]
        self.phase = bt.OVER
        return self.pack(None)


# A play-out under way: its deal, its round, the seat to play and the ids listed.
_Live = tuple[_DealOnly, "Round[bt.BandOfTricksState]", int, "Sequence[int]"]


class _BtPlayouts:
    """Band of Tricks play-outs of one seat's bids, on the rules' round driven directly
    (``live_deal``: the bots read the running deal's seat views, and no state is packed), every
    decision the heuristic bots' (``choose_id``); public bids as they were made, players still
    to bid bidding as their bot would on their sampled hand.

    Several bids are played out together: they share the play for as long as the seat's bot,
    aiming for each of them, plays the same card (and counts a Metal win for the same suit);
    where it would decide differently the play-out forks (the state there packed, with the
    part's bid, and a second round goes on from it). The other players' bots read their own
    bid and hand, not the seat's bid, so only the seat's decisions can part the bids. Zero
    Success is played apart from the start (the rules count its Metal wins at once). The deal
    carries the first bid of its group; the other bids of the group reach the seat's bot
    through its view (``bid_ids``), and each bid is scored from the wins (``_points_of``, the
    game's deal points)."""

    def __init__(self, rules: bt.BandOfTricks, view: bt.BandOfTricksView, seat: int) -> None:
        self.rules = rules
        self.seat = seat
        self.n = rules.players
        self.bots = [BandBot(rules, s) for s in range(self.n)]
        self.opening = rules.core_initial(0, None, start_player=view.start_player)
        self.public = {s: bt.BID0 + bt.ALL_BIDS.index(b) for s, b in enumerate(view.bids) if b is not None}
        self.hand = bt.IDS.mask(view.hand)

    def run(self, hands: tuple[int, ...], bids: Sequence[int]) -> list[_BtLeaf]:
        """One leaf per bid of ``bids`` (indices into ``ALL_BIDS``, no repeats) on one deal."""
        zero = [b for b in bids if b == bt.ZERO_BID]
        other = [b for b in bids if b != bt.ZERO_BID]
        out: list[_BtLeaf] = []
        for group in (zero, other):
            if group:
                self._play(self._bid(hands, group[0]), group, out)
        return out

    def _live(
        self, state: bt.BandOfTricksState, wins: list[int], winners: int
    ) -> tuple[_DealOnly, Round[bt.BandOfTricksState]]:
        deal, round_ = self.rules.live_deal(state, _DealOnly)
        assert isinstance(deal, _DealOnly)
        deal.watched, deal.own, deal.wins, deal.winners = self.seat, self.hand, wins, winners
        return deal, round_

    def _bid(self, hands: tuple[int, ...], own: int) -> _Live:
        """The deal after the bids: public bids as made, the seat's ``own``, the others' bots'."""
        seat, bots, public = self.seat, self.bots, self.public
        deal, round_ = self._live(self.rules.with_hands(self.opening, hands), [], 0)
        mover, listed = next(round_)  # type: ignore[misc]  # a round's yields are decisions unless sent PACK
        while deal.phase is bt.BID:
            if mover == seat:
                action = bt.BID0 + own
            elif mover in public:
                action = public[mover]
            else:
                action = bots[mover].choose_id(deal.seat_view(mover), listed)
            mover, listed = round_.send(action)  # type: ignore[misc]
        return deal, round_, mover, listed

    def _play(self, live: _Live, group: list[int], out: list[_BtLeaf]) -> None:
        seat, bots = self.seat, self.bots
        deal, round_, mover, ids = live
        send, seat_view = round_.send, deal.seat_view
        own_bot = bots[seat]
        try:
            while True:
                view = seat_view(mover)
                if mover != seat:
                    action = bots[mover].choose_id(view, ids)
                elif len(group) == 1:
                    action = own_bot.choose_id(view, ids)
                else:
                    choices: dict[int, list[int]] = {}
                    held = view.bid_ids
                    won = deal.won[seat]
                    chosen: dict[object, int] = {}  # a card per aim: bids with the same aim play alike
                    playing = deal.phase is bt.PLAY
                    for b in group:  # the deal holds the group's first bid; the others reach the bot by its view
                        aim = own_bot.play_aim(b, won) if playing else b
                        action = chosen.get(aim, -1)
                        if action < 0:
                            own = (
                                view
                                if held[seat] == b
                                else view._replace(bid_ids=held[:seat] + (b,) + held[seat + 1 :])
                            )
                            action = chosen[aim] = own_bot.choose_id(own, ids)
                        choices.setdefault(action, []).append(b)
                    (action, group), *rest = choices.items()
                    for other, part in rest:  # the seat's bot parts ways here: play the other part apart
                        at = send(PACK)
                        assert isinstance(at, bt.BandOfTricksState)
                        at = at._replace(bid_ids=held[:seat] + (part[0],) + held[seat + 1 :])
                        fork, forked = self._live(at, deal.wins[:], deal.winners)
                        next(forked)
                        try:
                            after, listed = forked.send(other)  # type: ignore[misc]
                        except StopIteration:
                            out.extend(self._leaves(fork, part))
                        else:
                            self._play((fork, forked, after, listed), part, out)
                mover, ids = send(action)  # type: ignore[misc]
        except StopIteration:
            out.extend(self._leaves(deal, group))

    @staticmethod
    def _leaves(deal: _DealOnly, group: list[int]) -> list[_BtLeaf]:
        """One leaf per bid of ``group`` from a play-out ended with its deal's score."""
        assert deal.ended is not None, "a play-out ends with its deal's score"
        wins = tuple(deal.wins)
        return [_BtLeaf(b, wins, deal.ended, deal.winners) for b in group]


def _bt_key(wins: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """The seat's wins as what Metal counting depends on: non-Metal wins per suit before each
    Metal win, then after the last one."""
    segments = []
    counts = [0, 0, 0]
    for s in wins:
        if s == _METAL:
            segments.append((counts[0], counts[1], counts[2]))
            counts = [0, 0, 0]
        else:
            counts[s] += 1
    segments.append((counts[0], counts[1], counts[2]))
    return tuple(segments)


SHORTLIST = 8
"""Band of Tricks: how many of the best bids by the rough scores are played for (besides the bid
under test)."""


SHORTLIST_DEALS = 250
"""Band of Tricks: the rough scores that pick the shortlist are from the first this many deals."""


BT_RACE: Stages = ((0.15, 2),)
"""Band of Tricks' race of the shortlisted bids: after 15 % of the deals only the 2 best go on
(the bid under test plays every deal)."""


def _advise_bt(
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
    assert isinstance(rules, bt.BandOfTricks) and isinstance(view, bt.BandOfTricksView)
    own = BandBot(rules, seat).bid_of(bt.IDS.mask(view.hand))
    playouts = _BtPlayouts(rules, view, seat)
    deals = [sampler.sample_masks(rng)[0] for _ in range(samples)]
    rough_deals = min(samples, SHORTLIST_DEALS)
    tried = None if under_test is None else bt.ALL_BIDS.index(under_test)
    # progress counts bid play-outs: the shortlist's, then the race's
    ticker.total = rough_deals + race_work(samples, SHORTLIST, tried is not None, BT_RACE, each_playing)
    yield from ticker.tick(0)
    # 1. shortlist: the bot's own bid played out on the first deals, every bid scored on that play
    keys: dict[tuple[tuple[int, int, int], ...], int] = {}
    for done, hands in enumerate(deals[:rough_deals], start=1):
        (leaf,) = playouts.run(hands, [own])
        key = _bt_key(leaf.wins)
        keys[key] = keys.get(key, 0) + 1
        yield from ticker.tick(done)
    rough, metal = _score_all_bids(rules, keys, rough_deals)
    ranked = sorted(range(len(rough)), key=lambda i: (-rough[i].mean, -rough[i].p_exact, i))
    # 2. the shortlisted bids played for, raced on the same deals
    n = rules.players

    def run(i: int, playing: Sequence[int]) -> dict[int, _BtLeaf]:
        return {leaf.bid: leaf for leaf in playouts.run(deals[i], playing)}

    def points(leaf: _BtLeaf) -> float:
        return _points_of(leaf.bid, leaf.won, n)

    leaves = yield from race(samples, ranked[:SHORTLIST], tried, BT_RACE, run, points, ticker, each_playing)
    played_for = list(leaves)
    estimates = list(rough)
    for b in played_for:
        played = _bt_played_estimate(rules, view, b, leaves[b])
        estimates[b] = replace(played, reasons=_bt_reasons(played, rules.players, rules.zero_success_points))
    model = _BT_MODEL.format(
        own="Zero Success" if own == bt.ZERO_BID else str(bt.ALL_BIDS[own]).removeprefix("bid "),
        shortlist=SHORTLIST,
        rough=rough_deals,
        first=f"{BT_RACE[0][0]:.0%}",
        keep=BT_RACE[0][1],
    )
    return advice_of(rules, view, seat, samples, seed, under_test, bt.ALL_BIDS[own], estimates, model, metal)


def _bt_played_estimate(
    rules: bt.BandOfTricks, view: bt.BandOfTricksView, bid: int, leaves: Sequence[_BtLeaf]
) -> BidEstimate:
    """A bid's estimate from its own play-outs: the deal's points as the game scores them
    (``_points_of``) from the wins the core counted."""
    n = rules.players
    size = rules.cards_each + 1
    totals = [0] * size
    suits = [[0] * size for _ in range(3)]
    scores: dict[int, int] = {}
    cards: dict[int, int] = {}
    values = bt.BID_VALUES[bid]
    zero = bid == bt.ZERO_BID
    hits = 0
    total = squares = 0
    for leaf in leaves:
        r, s, p, m = leaf.won
        t = r + s + p + m
        totals[t] += 1
        suits[0][r] += 1
        suits[1][s] += 1
        suits[2][p] += 1
        hits += t == 0 if zero else (r, s, p) == values
        score = _points_of(bid, leaf.won, n)
        scores[score] = scores.get(score, 0) + 1
        total += score
        squares += score * score
        if leaf.winners:
            count_bits(cards, leaf.winners)
    count = len(leaves)
    mean, stderr = mean_and_error(total, squares, count)
    action = bt.ALL_BIDS[bid]
    card_wins = tuple((bt.IDS.card(c), cards.get(c, 0)) for c in bits(bt.IDS.mask(view.hand)))
    return BidEstimate(
        action, str(action), count, tuple(totals), hits, hits / count, mean, stderr, tuple(tuple(h) for h in suits),
        played_for=True, scores=tuple(sorted(scores.items())), card_wins=card_wins,
    )  # fmt: skip


def _score_all_bids(
    rules: bt.BandOfTricks, keys: Mapping[tuple[tuple[int, int, int], ...], int], samples: int
) -> tuple[list[BidEstimate], tuple[int, ...]]:
    """Every bid scored on the same play-outs (grouped by what Metal counting depends on): the
    deal's points are the rules' (``bt.SUIT_POINTS``, ``score_deal``'s table) and each Metal win
    goes where the seat's bot would count it under that bid (``metal_suit``)."""
    size = rules.cards_each + 1
    points = bt.SUIT_POINTS
    totals = [0] * size
    metal = [0] * size
    plain = [[0] * size for _ in range(3)]  # non-Metal wins per suit, for Zero Success
    fixed: dict[tuple[int, int, int], int] = {}  # keys without Metal: the wins are the same for every bid
    with_metal: list[tuple[tuple[tuple[int, int, int], ...], int]] = []
    for key, count in keys.items():
        r = sum(seg[0] for seg in key)
        s = sum(seg[1] for seg in key)
        p = sum(seg[2] for seg in key)
        m = len(key) - 1
        totals[r + s + p + m] += count
        metal[m] += count
        plain[0][r] += count
        plain[1][s] += count
        plain[2][p] += count
        if m:
            with_metal.append((key, count))
        else:
            fixed[(r, s, p)] = fixed.get((r, s, p), 0) + count
    zero_sum = zero_sq = 0
    for t, count in enumerate(totals):
        score = rules.zero_success_points if t == 0 else -t
        zero_sum += score * count
        zero_sq += score * score * count
    mean, stderr = mean_and_error(zero_sum, zero_sq, samples)
    estimates = [
        BidEstimate(
            bt.ZERO, str(bt.ZERO), samples, tuple(totals), totals[0], totals[0] / samples, mean, stderr,
            tuple(tuple(h) for h in plain), played_for=False,
        )
    ]  # fmt: skip
    base_hist = [[0] * size for _ in range(3)]
    for (r, s, p), count in fixed.items():
        base_hist[0][r] += count
        base_hist[1][s] += count
        base_hist[2][p] += count
    fixed_items = list(fixed.items())
    for bid in bt.ALL_BIDS[1:]:
        values = (bid.rock, bid.soul, bid.pops)
        pr, ps, pp = points[bid.rock], points[bid.soul], points[bid.pops]
        total = 0
        squares = 0
        hits = 0
        hist = [base_hist[0][:], base_hist[1][:], base_hist[2][:]]
        for (r, s, p), count in fixed_items:
            score = pr[r] + ps[s] + pp[p]
            total += score * count
            squares += score * score * count
            if (r, s, p) == values:
                hits += count
        for key, count in with_metal:
            won = list(key[0])
            for seg in key[1:]:  # a Metal win, then the next non-Metal wins
                won[metal_suit(values, won)] += 1
                won[0] += seg[0]
                won[1] += seg[1]
                won[2] += seg[2]
            r, s, p = won
            score = pr[r] + ps[s] + pp[p]
            total += score * count
            squares += score * score * count
            if (r, s, p) == values:
                hits += count
            hist[0][r] += count
            hist[1][s] += count
            hist[2][p] += count
        mean, stderr = mean_and_error(total, squares, samples)
        estimates.append(
            BidEstimate(
                bid,
                str(bid),
                samples,
                tuple(totals),
                hits,
                hits / samples,
                mean,
                stderr,
                tuple(tuple(h) for h in hist),
                played_for=False,
            )
        )
    return estimates, tuple(metal)


def round_of(state: GameState) -> int:
    assert isinstance(state, bt.BandOfTricksState)
    return state.deal


def hands_of(state: GameState) -> tuple[int, ...]:
    assert isinstance(state, bt.BandOfTricksState)
    return state.held


def with_hands(rules: Rules[Any], state: GameState, hands: tuple[int, ...]) -> GameState:
    assert isinstance(rules, bt.BandOfTricks) and isinstance(state, bt.BandOfTricksState)
    return rules.with_hands(state, hands)


BT_ADVICE = AdvisorEntry(
    bt.BandOfTricksView,
    "the bid phase",
    bt.IDS,
    round_of,
    hands_of,
    with_hands,
    _check_bid_input,
    _advise_bt,
)
