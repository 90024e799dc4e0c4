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
from ..core import Facts, bits
from .bots import HeuristicBot as BandBot
from .bots import metal_suit
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


class _BtPlayouts:
    """Band of Tricks play-outs of one seat's bids, on the core: every step the core's, every
    decision the heuristic bots' (``choose_id`` on ``core_view``); public bids as they were made,
    players still to bid bidding as their bot would on their sampled hand.

    Several bids are played out together: they share the play for as long as the seat's bot,
    aiming for each of them, plays the same card (and counts a Metal win for the same suit);
    where it would decide differently the play-out forks. The other players' bots read their
    own bid and hand, not the seat's bid, so only the seat's decisions can part the bids.
    Zero Success is played apart from the start (the core counts its Metal wins at once).
    The state carries the first bid of its group; the other bids of the group reach the
    seat's bot through its view (``bid_ids``), and each bid is scored from the wins
    (``_points_of``, the game's deal points)."""

    def __init__(self, rules: bt.BandOfTricks, view: bt.BandOfTricksView, seat: int) -> None:
        self.rules = rules
        self.seat = seat
        self.n = rules.players
        self.bots = [BandBot(rules, s) for s in range(self.n)]
        self.opening = rules.core_initial(0, None, start_player=view.start_player)
        self.public = {s: bt.BID0 + bt.ALL_BIDS.index(b) for s, b in enumerate(view.bids) if b is not None}
        self.hand = bt.IDS.mask(view.hand)
        self.last = rules.cards_each - 1  # tricks played before the last trick

    def run(self, hands: tuple[int, ...], bids: Sequence[int]) -> list[_BtLeaf]:
        """One leaf per bid of ``bids`` (indices into ``ALL_BIDS``, no repeats) on one deal."""
        zero = [b for b in bids if b == bt.ZERO_BID]
        other = [b for b in bids if b != bt.ZERO_BID]
        out: list[_BtLeaf] = []
        for group in (zero, other):
            if group:
                self._play(self._bid(hands, group[0]), group, [], 0, out)
        return out

    def _bid(self, hands: tuple[int, ...], own: int) -> bt.BandOfTricksState:
        """The deal after the bids: public bids as made, the seat's ``own``, the others' bots'."""
        rules, seat, bots, public = self.rules, self.seat, self.bots, self.public
        state = rules.with_hands(self.opening, hands)
        while state.phase is bt.BID:
            mover = state.to_play
            assert mover is not None
            if mover == seat:
                action = bt.BID0 + own
            elif mover in public:
                action = public[mover]
            else:
                action = bots[mover].choose_id(rules.core_view(state, mover), rules.core_legal(state))
            state = rules.core_step(state, action)
        return state

    def _play(
        self, state: bt.BandOfTricksState, group: list[int], wins: list[int], winners: int, out: list[_BtLeaf]
    ) -> None:
        rules, seat, bots = self.rules, self.seat, self.bots
        legal, core_view = rules.core_legal, rules.core_view
        own_bot = bots[seat]
        while True:
            mover = state.to_play
            assert mover is not None, "a deal ends with its last step (the next deal, or the match's end)"
            ids = legal(state)
            view = core_view(state, mover)
            if mover != seat:
                action = bots[mover].choose_id(view, ids)
            elif len(group) == 1:
                action = own_bot.choose_id(view, ids)
            else:
                choices: dict[int, list[int]] = {}
                held = state.bid_ids
                won = state.won[seat]
                chosen: dict[object, int] = {}  # a card per aim: bids with the same aim play alike
                playing = state.phase is bt.PLAY
                for b in group:  # the state holds the group's first bid; the others reach the bot by its view
                    aim = own_bot.play_aim(b, won) if playing else b
                    action = chosen.get(aim, -1)
                    if action < 0:
                        own = view if held[seat] == b else view._replace(bid_ids=held[:seat] + (b,) + held[seat + 1 :])
                        action = chosen[aim] = own_bot.choose_id(own, ids)
                    choices.setdefault(action, []).append(b)
                (action, group), *rest = choices.items()
                for other, part in rest:  # the seat's bot parts ways here: play the other part apart
                    apart = wins[:]
                    at = state._replace(bid_ids=held[:seat] + (part[0],) + held[seat + 1 :])
                    moved, won_by, ended = self._step(at, other, apart, winners)
                    if ended is None:
                        self._play(moved, part, apart, won_by, out)
                    else:
                        out.extend(_BtLeaf(b, tuple(apart), ended, won_by) for b in part)
            state, winners, ended = self._step(state, action, wins, winners)
            if ended is not None:
                out.extend(_BtLeaf(b, tuple(wins), ended, winners) for b in group)
                return

    def _step(
        self, state: bt.BandOfTricksState, action: int, wins: list[int], winners: int
    ) -> tuple[bt.BandOfTricksState, int, tuple[int, int, int, int] | None]:
        """Play ``action``: the state after it, the mask of the seat's cards that won a trick, and
        the seat's wins if the step ended the deal (``None`` while it goes on). A trick the seat
        wins adds its winning card's suit to ``wins`` (read from the core's last trick)."""
        rules, seat = self.rules, self.seat
        completes = state.phase is bt.PLAY and len(state.trick_ids) == self.n - 1
        ended = None
        if state.tricks_played < self.last:
            new = after = rules.core_step(state, action)
        else:  # the last trick: the step that ends the deal tells its wins as the core scored them
            facts: Facts = []
            new = after = rules.core_step(state, action, facts)
            scored = [st for fact, st in facts if isinstance(fact, bt.DealScored)]
            if scored:
                after = scored[0]
                ended = after.won[seat]
        if completes:
            last = after.last
            assert last is not None
            if (last.leader + last.winning) % self.n == seat:
                card = last.ids[last.winning]
                wins.append(bt.SUIT[card])
                if self.hand >> card & 1:
                    winners |= 1 << card
        return new, winners, ended


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
