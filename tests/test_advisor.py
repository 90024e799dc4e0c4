"""The bid advisor: its deal sampler, its estimates against brute force, its errors and its API.

Brute-force checks enumerate every deal of a hand-made position (few unseen cards), play
each one out with the checked engine (``Rules.apply``) and the real heuristic bots, score
it by the scoring rules stated in this file (TS-8, BT-7, the bot's Metal rule), not by the
engine's scoring, and compare the exact expectations with the advisor's estimates.
Tolerances are stated where they are used; every sample is seeded, so a run either always
passes or always fails.
"""

from __future__ import annotations

import dataclasses
import doctest
import itertools
import json
import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import tricklab
import tricklab.advisor
from tricklab import Announce, Bid, Pass, Play, Predict
from tricklab.advisor import (
    Advice,
    AdviceCancelled,
    AdviceUnavailable,
    DealSampler,
    InconsistentKnowledge,
    Knowledge,
    advise,
)
from tricklab.bots import make_bots
from tricklab.cards import Card
from tricklab.errors import InvalidAction, InvalidOption, InvalidScoreInput
from tricklab.games import band_of_tricks as bt
from tricklab.games import jewel_vault as jv
from tricklab.games.band_of_tricks import advice as bt_advice_module
from tricklab.games.band_of_tricks.bots import HeuristicBot as BandBot
from tricklab.games.tricks_and_stones import rules as ts

ZERO = Bid(zero=True)


def get_ts(players: int = 4, **options: Any) -> ts.TricksAndStones:
    rules = tricklab.get_rules("tricks-and-stones", players=players, **options)
    assert isinstance(rules, ts.TricksAndStones)
    return rules


def get_bt(players: int = 4) -> bt.BandOfTricks:
    rules = tricklab.get_rules("band-of-tricks", players=players)
    assert isinstance(rules, bt.BandOfTricks)
    return rules


def bot_step(match: tricklab.Match, bots: Sequence[Any]) -> None:
    seat = match.to_play
    assert seat is not None
    match.apply(bots[seat].choose(match.view(seat), match.legal_actions()))


def bidding_view(rules: Any, seed: int, decisions: int = 0, **options: Any) -> tuple[tricklab.Match, int, Any]:
    """A fresh match after ``decisions`` bot bids/predictions: the match, the seat to bid, its view."""
    match = rules.new_match(seed=seed, **options)
    bots = make_bots(rules, "heuristic", seed)
    for _ in range(decisions):
        bot_step(match, bots)
    seat = match.to_play
    assert seat is not None
    return match, seat, match.view(seat)


class Replay:
    """A match-like record (rules, states, actions) started from a hand-made state."""

    def __init__(self, rules: Any, state: Any, actions: Sequence[Any]) -> None:
        self.rules = rules
        self.states = [state]
        self.actions = list(actions)
        for action in actions:
            self.states.append(rules.apply(self.states[-1], action))

    @property
    def state(self) -> Any:
        return self.states[-1]


# --- the rules' own numbers, stated directly (not the engine's scoring) ------------------------------

ZERO_POINTS = {3: 6, 4: 4, 5: 3}  # BT-7: Zero Success with no trick won


def in_deck_order(rules: Any, cards: Sequence[Card]) -> tuple[Card, ...]:
    """A hand as the engine holds it: in the order of the game's deck."""
    deck = list(rules.deck())
    return tuple(sorted(cards, key=deck.index))


def ts_round_points(tricks: int, own_gems: Sequence[int], prediction: int) -> int:
    """TS-8: with t tricks won (t <= 5), the own gems in chamber t, plus 3 for a prediction of t."""
    if tricks > 5:
        return 0
    return own_gems[tricks] + (3 if prediction == tricks else 0)


def bt_suit_points(bid: int, won: int) -> int:
    """BT-7 for one suit: b + 1 when the bid is made, else minus the difference."""
    return bid + 1 if won == bid else -abs(won - bid)


def bt_deal_points(bid: Bid, won: Sequence[int], players: int) -> int:
    """BT-7 for a deal: ``won`` per Rock, Soul, Pops (Metal wins counted inside them), or for
    Zero Success every trick won."""
    if bid.zero:
        return ZERO_POINTS[players] if sum(won) == 0 else -sum(won)
    return sum(bt_suit_points(b, w) for b, w in zip((bid.rock, bid.soul, bid.pops), won[:3], strict=True))


def heuristic_metal_suit(bid: Bid, won: Sequence[int]) -> str:
    """The heuristic bot's rule for a Metal win, read from the bot: the suit whose score gains
    most by one more win; on equal gains the one furthest below its bid; then Rock, Soul, Pops."""
    bids = (bid.rock, bid.soul, bid.pops)

    def gain(i: int) -> tuple[int, int]:
        return bt_suit_points(bids[i], won[i] + 1) - bt_suit_points(bids[i], won[i]), bids[i] - won[i] - 1

    return bt.BID_SUITS[max(range(3), key=gain)]


# --- the engine, played out the checked way -----------------------------------------------------------


def engine_ts(rules: ts.TricksAndStones, state: Any, seat: int, prediction: int) -> tuple[int, int]:
    """Play a round from its prediction phase with the heuristic bots, ``seat`` predicting
    ``prediction``: the seat's tricks and its round score, by TS-8 from the board as scored."""
    bots = make_bots(rules, "heuristic", 0)
    # from the start of the prediction phase: every prediction is made again by its bot
    state = state._replace(predictions=(None,) * rules.players, to_play=(state.dealer + 1) % rules.players)
    rounds = len(state.round_scores)
    while True:
        mover = state.to_play
        if state.phase == ts.PREDICT and mover == seat:
            action: Any = Predict(prediction)
        else:
            action = bots[mover].choose(rules.view(state, mover), rules.legal_actions(state))
        log: list[Any] = []
        state = rules.apply(state, action, log)
        if len(state.round_scores) > rounds:
            scored = next(after for event, after in log if event.kind == "score")
            tricks = scored.tricks_won[seat]
            return tricks, ts_round_points(tricks, scored.board[seat], prediction)


def engine_bt(rules: bt.BandOfTricks, state: Any, seat: int, bid: Bid) -> tuple[list[str], tuple[int, ...], int]:
    """Play a deal from its bid phase with the heuristic bots, ``seat`` bidding ``bid``: the
    suits of the seat's winning cards in trick order, its wins as counted, and its score by BT-7."""
    bots = make_bots(rules, "heuristic", 0)
    deals = len(state.deal_scores)
    wins: list[str] = []
    while True:
        mover = state.to_play
        if state.phase == bt.BID and mover == seat:
            action: Any = bid
        else:
            action = bots[mover].choose(rules.view(state, mover), rules.legal_actions(state))
        log: list[Any] = []
        before = state.tricks_played
        state = rules.apply(state, action, log)
        finished = [after for event, after in log if event.kind == "trick"]
        if finished and finished[0].tricks_played > before and finished[0].last_trick.winner == seat:
            wins.append(finished[0].last_trick.winning_card.suit)
        if len(state.deal_scores) > deals:
            scored = next(after for event, after in log if event.kind == "score")
            won = scored.won[seat]
            return wins, won, bt_deal_points(bid, won, rules.players)


def bot_counts(rules: bt.BandOfTricks, seat: int, bid: Bid, wins: Sequence[str]) -> dict[str, int]:
    """The seat's wins per suit under ``bid``, each Metal win counted by the heuristic bot's rule
    (stated in this file) on the wins so far at the moment of that win (BT-6)."""
    won = [0, 0, 0, 0]
    for suit in wins:
        if suit != bt.METAL:
            won[bt.WIN_INDEX[suit]] += 1
        elif bid.zero:
            won[3] += 1
        else:
            won[bt.BID_SUITS.index(heuristic_metal_suit(bid, won))] += 1
    counts = dict(zip(bt.WIN_KEYS, won, strict=True))
    if not bid.zero:
        del counts["metal"]
    return counts


# --- the sampler ----------------------------------------------------------------------------------------


def all_deals(
    pool: Sequence[Card], holders: Sequence[tuple[int | None, int, frozenset[str]]]
) -> Iterator[tuple[frozenset[Card], ...]]:
    """Every way to give the ``pool`` to the holders (slots each), holders' voids respected."""
    if not holders:
        yield ()
        return
    _, slots, voids = holders[0]
    for part in itertools.combinations(pool, slots):
        if any(c.suit in voids for c in part):
            continue
        rest = [c for c in pool if c not in part]
        for others in all_deals(rest, holders[1:]):
            yield (frozenset(part), *others)


def holders_of(k: Knowledge) -> list[tuple[int | None, int, frozenset[str]]]:
    out: list[tuple[int | None, int, frozenset[str]]] = []
    for s, size in enumerate(k.hand_sizes):
        if size - len(k.hands[s]):
            out.append((s, size - len(k.hands[s]), k.voids[s] if k.voids else frozenset()))
    if k.aside:
        out.append((None, k.aside, frozenset()))
    return out


def late_match(rules: Any, tricks: int, first_seed: int) -> tuple[tricklab.Match, int, Knowledge]:
    """A bot match ``tricks`` tricks into its first round in which a revealed void rules out
    some deals of the unseen cards (so the void constraint bites), found from ``first_seed`` on."""
    for seed in range(first_seed, first_seed + 200):
        match = rules.new_match(seed=seed)
        bots = make_bots(rules, "heuristic", seed)
        while match.state.tricks_played < tricks or match.phase != "play" or match.state.trick:
            bot_step(match, bots)
        seat = match.to_play
        k = Knowledge.from_match(match, seat)
        free = dataclasses.replace(k, voids=())
        if DealSampler(rules, k).count() < DealSampler(rules, free).count():
            return match, seat, k
    raise AssertionError("no seed gave a late position with a biting void")


@pytest.mark.parametrize(
    ("game", "players", "tricks"),
    [("tricks-and-stones", 4, 5), ("tricks-and-stones", 3, 5), ("band-of-tricks", 4, 7), ("band-of-tricks", 3, 10)],
)
def test_samples_fit_what_the_seat_sees_and_revealed_voids(game: str, players: int, tricks: int) -> None:
    rules = tricklab.get_rules(game, players=players)
    match, seat, k = late_match(rules, tricks, first_seed=1)
    state = match.state
    sampler = DealSampler(rules, k)
    played = set(k.played)
    own = set(state.hands[seat])
    assert len(played) == tricks * players  # every card of the finished tricks
    assert own == set(k.hands[seat])
    unseen = set(sampler.unseen)
    assert unseen == set(rules.deck()) - own - played
    assert unseen == {c for s in range(players) if s != seat for c in state.hands[s]} | set(state.aside)
    for s, voids in enumerate(k.voids):  # the revealed voids are true of the real hands
        assert not any(c.suit in voids for c in state.hands[s])
    rng = random.Random(3)
    for _ in range(300):
        deal = sampler.sample(rng)
        assert deal.hands[seat] == state.hands[seat]
        for s, hand in enumerate(deal.hands):
            assert len(hand) == len(state.hands[s])
            if s != seat:
                assert not set(hand) & (own | played), "a hidden hand got a card the seat can see"
                assert not any(c.suit in k.voids[s] for c in hand), "a revealed void was ignored"
        assert len(deal.aside) == len(state.aside)
        assert not set(deal.aside) & (own | played)
        dealt = [c for s, h in enumerate(deal.hands) if s != seat for c in h] + list(deal.aside)
        assert sorted(dealt, key=str) == sorted(unseen, key=str)


@pytest.mark.parametrize(("game", "players", "tricks"), [("tricks-and-stones", 4, 6), ("band-of-tricks", 3, 10)])
def test_sampler_is_uniform_over_the_fitting_deals(game: str, players: int, tricks: int) -> None:
    rules = tricklab.get_rules(game, players=players)
    _, _, k = late_match(rules, tricks, first_seed=1)
    sampler = DealSampler(rules, k)
    holders = holders_of(k)
    exact = list(all_deals(sorted(sampler.unseen, key=str), holders))
    assert sampler.count() == len(exact) >= 10
    rng = random.Random(11)
    draws = 200 * len(exact)
    seen: Counter[tuple[frozenset[Card], ...]] = Counter()
    for _ in range(draws):
        deal = sampler.sample(rng)
        key = tuple(frozenset(deal.hands[s]) if s is not None else frozenset(deal.aside) for s, _, _ in holders)
        seen[key] += 1
    assert set(seen) == set(exact), "a deal outside the fitting ones, or one never drawn"
    # Pearson's chi-square against the uniform law; df = K - 1. The bound is the mean plus
    # six standard deviations of the chi-square law: a uniform sampler stays below it.
    expected = draws / len(exact)
    chi2 = sum((n - expected) ** 2 / expected for n in seen.values())
    df = len(exact) - 1
    assert chi2 < df + 6 * math.sqrt(2 * df)


def test_sampler_with_nothing_left_to_guess_gives_the_real_deal() -> None:
    rules = get_ts(3)
    state = rules.initial_state(5)
    k = Knowledge(0, tuple(state.hands), tuple(len(h) for h in state.hands), aside=8)
    sampler = DealSampler(rules, k)
    assert sampler.count() == 1
    deal = sampler.sample(random.Random(0))
    assert deal.hands == state.hands
    assert set(deal.aside) == set(state.aside)


def test_from_match_reads_voids_from_follow_and_trump_lead() -> None:
    rules = get_ts(4)
    base = rules.initial_state(0, first_dealer=3)._replace(phase=ts.PLAY, predictions=(1, 1, 1, 1), leader=0, to_play=0)
    hands = ["7S 9S", "7H 8H", "8S 9H", "10S 10H"]  # trump is spades in round 1
    state = rules.with_hands(base, tuple(ts.IDS.mask(rules.cards(h)) for h in hands), 0)
    # seat 0 leads a trump before trumps are broken: it holds only trumps; seat 1 cannot follow
    replay = Replay(rules, state, [Play(rules.card(c)) for c in ("7S", "7H", "8S")])
    k = Knowledge.from_match(replay, 3)
    assert k.voids[0] == {"H", "D", "C"}
    assert k.voids[1] == {"S"}
    assert k.voids[2] == set() == k.voids[3]
    assert set(k.played) == set(rules.cards("7S 7H 8S"))
    assert set(k.hands[3]) == set(rules.cards("10S 10H")) and k.hands[0] == ()
    assert k.hand_sizes == (1, 1, 1, 2)
    assert k.aside == 32 - 5 - 3  # this made-up state dealt only 8 cards: the rest count as unseen


def test_from_match_band_of_tricks_metal_reveals_nothing() -> None:
    rules = get_bt(4)
    base = rules.initial_state(0, start_player=0)
    hands = ["M12 S4", "R9 S5", "R10 M10", "S6 P1"]
    state = rules.with_hands(base, tuple(bt.IDS.mask(rules.cards(h)) for h in hands))._replace(
        phase=bt.PLAY,
        to_play=0,
        bid_ids=(bt.ALL_BIDS.index(Bid(1, 0, 0)),) * 4,
        leader=0,
        tricks_played=8,
    )
    # a Metal lead sets no suit; R9 does; M10 is allowed although its player holds Rock; S6 shows no Rock
    replay = Replay(rules, state, [Play(rules.card(c)) for c in ("M12", "R9", "M10", "S6")])
    k = Knowledge.from_match(replay, 0)
    assert k.voids == (frozenset(), frozenset(), frozenset(), frozenset({"R"}))


def test_inconsistent_knowledge_is_refused() -> None:
    rules = get_ts(4)
    state = rules.initial_state(2)
    hands = tuple(state.hands)
    own = hands[0]
    sizes = (8, 8, 8, 8)
    ok = Knowledge(0, (own, (), (), ()), sizes)
    assert DealSampler(rules, ok).count() == math.factorial(24) // math.factorial(8) ** 3
    void = (frozenset(),) + (frozenset({hands[1][0].suit}),) * 3
    bad = [
        (Knowledge(0, (own, (own[0],), (), ()), sizes), str(own[0])),  # one card in two hands
        (Knowledge(0, (own[1:], (), (), ()), sizes), "own hand"),  # own hand incomplete
        (Knowledge(0, (own, (), (), ()), (8, 8, 8, 7)), "32 cards"),  # sizes do not add up
        (Knowledge(0, (own, (hands[1][0],), (), ()), sizes, voids=void), "to have no"),  # a known card in a void
        (Knowledge(0, (own, (), ()), sizes), "4 seats"),
    ]
    for knowledge, words in bad:
        with pytest.raises(InconsistentKnowledge, match=words):
            DealSampler(rules, knowledge)
    # voids that leave nowhere for some cards: every other seat void in a suit seat 0 lacks
    missing = next(s for s in "SHDC" if sum(c.suit == s for c in own) < 8)
    nowhere = Knowledge(0, (own, (), (), ()), sizes, voids=(frozenset(),) + (frozenset({missing}),) * 3)
    with pytest.raises(InconsistentKnowledge, match="no deal fits"):
        DealSampler(rules, nowhere)


# --- the play-outs are the engine's ------------------------------------------------------------------------


def everything_known(rules: Any, state: Any, seat: int) -> Knowledge:
    sizes = tuple(len(h) for h in state.hands)
    return Knowledge(seat, tuple(state.hands), sizes, aside=len(state.aside))


@pytest.mark.parametrize(
    ("players", "options", "seeds"),
    [(4, {}, range(14)), (3, {}, range(20, 28)), (4, {"chambers": "ring", "first_lead_tie": "dealer"}, range(40, 46))],
)
def test_ts_playouts_match_the_checked_engine(players: int, options: dict[str, Any], seeds: range) -> None:
    """With every hand known the advisor has one deal to play: its numbers must be the engine's
    (bots, first lead, trumps, gem actions and scoring) for every prediction."""
    rules = get_ts(players, **options)
    for seed in seeds:
        match, seat, view = bidding_view(rules, seed, decisions=seed % players)
        state = match.state
        if seed % 3 == 1:  # a later round: another trump
            state = state._replace(round=2, trump="D")
            view = rules.view(state, seat)
        advice = advise(rules, view, samples=2, knowledge=everything_known(rules, state, seat))
        for p in range(6):
            tricks, score = engine_ts(rules, state, seat, p)
            estimate = advice.estimate(p)
            n = estimate.samples  # 2, or 1 for a prediction dropped from the race after the first deal
            assert estimate.mean == score and (n == 1 or estimate.stderr == 0.0), (seed, p)
            assert estimate.tricks[tricks] == n and estimate.hits == n * (tricks == p)


@pytest.mark.parametrize(("players", "seeds"), [(4, range(30)), (3, range(100, 110)), (5, range(200, 210))])
def test_bt_playouts_match_the_checked_engine(players: int, seeds: range) -> None:
    rules = get_bt(players)
    rng = random.Random(players)
    for seed in seeds:
        match = rules.new_match(seed=seed)
        for _ in range(seed % players):  # public bids already made, not the bots' (kept as made)
            match.apply(rng.choice(bt.ALL_BIDS))
        seat = match.to_play
        assert seat is not None
        view = match.view(seat)
        state = match.state
        bid = [None, ZERO, Bid(rng.randrange(4), rng.randrange(4), rng.randrange(1, 4))][seed % 3]
        advice = advise(rules, view, bid=bid, samples=1, knowledge=everything_known(rules, state, seat))
        played = advice.played
        assert isinstance(played, Bid)
        assert played == BandBot(rules, seat).choose(view, list(bt.ALL_BIDS))  # the bot's own bid
        wins, _, _ = engine_bt(rules, state, seat, played)
        assert advice.metal_wins[wins.count(bt.METAL)] == 1
        played_for = [e for e in advice.estimates if e.played_for]
        assert len(played_for) >= bt_advice_module.SHORTLIST
        assert bid is None or (advice.tried is not None and advice.tried.played_for)
        for estimate in played_for:  # each bid played for: the engine's play-out aiming for it
            target = estimate.bid
            assert isinstance(target, Bid)
            _, won, score = engine_bt(rules, state, seat, target)
            assert estimate.mean == score, (seed, target)
            assert estimate.tricks[sum(won)] == 1
            if not target.zero:
                assert tuple(h.index(1) for h in estimate.suits) == won[:3]


# --- estimates against brute force -------------------------------------------------------------------------


def hand_made(rules: Any, state: Any, seat: int, hidden: int) -> Knowledge:
    """The seat knows every other hand except its last ``hidden`` cards."""
    sizes = tuple(len(h) for h in state.hands)
    known = tuple(h if s == seat else h[:-hidden] for s, h in enumerate(state.hands))
    return Knowledge(seat, known, sizes, aside=len(state.aside))


def deals_of(rules: Any, state: Any, k: Knowledge) -> list[tuple[Any, ...]]:
    """Every fitting deal as full hands (the engine's order), by enumeration."""
    sampler = DealSampler(rules, k)
    holders = holders_of(k)
    out = []
    for parts in all_deals(sorted(sampler.unseen, key=str), holders):
        hands = list(k.hands)
        for (s, _, _), part in zip(holders, parts, strict=True):
            assert s is not None
            hands[s] = in_deck_order(rules, (*hands[s], *part))
        out.append(tuple(hands))
    return out


def close(estimate: float, values: Sequence[float], samples: int, sigmas: float = 4.5) -> bool:
    """``estimate`` is within ``sigmas`` standard errors of the exact mean of ``values`` (all
    equally likely) for a mean of ``samples`` independent draws."""
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    return abs(estimate - mean) <= sigmas * sd / math.sqrt(samples) + 1e-9


def test_ts_estimates_agree_with_brute_force() -> None:
    rules = get_ts(4)
    match, seat, view = bidding_view(rules, seed=4, decisions=1)
    state = match.state
    k = hand_made(rules, state, seat, hidden=2)
    deals = deals_of(rules, state, k)
    assert len(deals) == 90
    samples = 1500
    advice = advise(rules, view, samples=samples, seed=8, knowledge=k)
    for p in range(6):
        outcomes = [
            engine_ts(rules, rules.with_hands(state, tuple(map(ts.IDS.mask, hands)), state.set_aside), seat, p)
            for hands in deals
        ]
        scores = [score for _, score in outcomes]
        estimate = advice.estimate(p)
        n = estimate.samples  # every deal, or the first 20 % for a prediction dropped from the race
        assert n in (samples, samples // 5)
        assert close(estimate.mean, scores, n), (p, estimate.mean, sum(scores) / 90)
        for t in range(9):  # each trick count's frequency, a mean of 0/1 draws
            assert close(estimate.tricks[t] / n, [tricks == t for tricks, _ in outcomes], n)
        assert close(estimate.p_exact, [tricks == p for tricks, _ in outcomes], n)
        assert len({score for _, score in outcomes}) > 1 or p == 0  # the position is not trivial


def test_bt_every_bid_agrees_with_brute_force() -> None:
    rules = get_bt(4)
    match, seat, view = bidding_view(rules, seed=9, decisions=1)  # one public bid already made
    assert sum(b is not None for b in view.bids) == 1
    state = match.state
    k = hand_made(rules, state, seat, hidden=2)
    deals = deals_of(rules, state, k)
    assert len(deals) == 90
    target = Bid(2, 1, 1)
    samples = 1500
    advice = advise(rules, view, bid=target, samples=samples, seed=2, knowledge=k)
    own = advice.played
    assert isinstance(own, Bid) and advice.bid == target and advice.tried is not None and advice.tried.played_for

    def play_all(bid: Bid) -> list[tuple[list[str], tuple[int, ...], int]]:
        starts = [rules.with_hands(state, tuple(bt.IDS.mask(h) for h in hands)) for hands in deals]
        return [engine_bt(rules, start, seat, bid) for start in starts]

    plays = play_all(own)  # the rough figures are scored on the bot's own bid's play-outs
    assert any(bt.METAL in wins for wins, _, _ in plays), "no Metal win: the position tests too little"
    played_for = 0
    for bid in bt.ALL_BIDS:
        estimate = advice.estimate(bid)
        if estimate.played_for:  # played out for this bid: the engine aiming for it
            played_for += 1
            own_plays = play_all(bid)
            scores = [score for _, _, score in own_plays]
            assert close(estimate.mean, scores, samples), (bid, estimate.mean, sum(scores) / 90)
            continue
        exact = [bot_counts(rules, seat, bid, wins) for wins, _, _ in plays]
        scores = [bt_deal_points(bid, list(won.values()), rules.players) for won in exact]
        assert estimate.samples == bt_advice_module.SHORTLIST_DEALS  # the rough figures: from the first deals
        assert close(estimate.mean, scores, estimate.samples), (bid, estimate.mean, sum(scores) / 90)
        if bid.zero:
            hits = [sum(won.values()) == 0 for won in exact]
        else:
            hits = [won == bid.as_dict() for won in exact]
            for j, key in enumerate(bt.BID_SUITS):
                for w in range(3):
                    share = estimate.suits[j][w] / estimate.samples
                    assert close(share, [won[key] == w for won in exact], estimate.samples)
        assert close(estimate.p_exact, hits, estimate.samples)
    assert played_for >= bt_advice_module.SHORTLIST
    # the bid played out: the engine's own Metal choices are what the advisor counts
    for wins, won, _ in plays:
        assert tuple(bot_counts(rules, seat, own, wins).values()) == won[:3]


# --- the API ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ts_advice() -> tuple[ts.TricksAndStones, Any, Advice]:
    rules = get_ts(4)
    _, _, view = bidding_view(rules, seed=3)
    return rules, view, advise(rules, view, samples=300, seed=5, bid=2)


@pytest.fixture(scope="module")
def bt_advice() -> tuple[bt.BandOfTricks, Any, Advice]:
    rules = get_bt(4)
    _, _, view = bidding_view(rules, seed=3)
    return rules, view, advise(rules, view, samples=300, seed=5)


def test_ts_result_fields(ts_advice: tuple[Any, Any, Advice]) -> None:
    _, view, advice = ts_advice
    assert (advice.game, advice.players, advice.seat, advice.samples, advice.seed) == (ts.NAME, 4, view.seat, 300, 5)
    assert advice.hand == view.hand and advice.played is None
    assert [e.bid for e in advice.estimates] == [Predict(p) for p in range(6)]
    assert advice.bid == Predict(2) and advice.tried is advice.estimate(2) is advice.estimate("predict 2")
    for p, e in enumerate(advice.estimates):  # every deal, or the first 60 when dropped from the race
        assert sum(e.tricks) == e.samples in (300, 60) and len(e.tricks) == 9
        assert e.hits == e.tricks[p] and e.p_exact == e.hits / e.samples
        assert e.suits == () and 0 < e.stderr < 1.5
    finalists = [e for e in advice.estimates if e.samples == 300]
    assert advice.tried in finalists and 3 <= len(finalists) <= 4  # the 3 best, and the prediction tried
    assert advice.best.mean == max(e.mean for e in finalists)
    assert advice.as_dict()["estimates"][2]["bid"] == "predict 2"


def test_bt_result_fields(bt_advice: tuple[Any, Any, Advice]) -> None:
    rules, view, advice = bt_advice
    # 0 0 0 is Zero Success (BT-3): 7 ** 3 bids in all
    assert len(advice.estimates) == 343 == len(set(e.bid for e in advice.estimates))
    assert advice.estimates[0].bid == ZERO and advice.bid is None and advice.tried is None
    assert advice.played == BandBot(rules, view.seat).choose(view, list(bt.ALL_BIDS))
    rough = [e for e in advice.estimates if not e.played_for]
    totals = rough[0].tricks
    assert len(rough) <= 343 - bt_advice_module.SHORTLIST
    for e in advice.estimates:  # the rough bids share the bot's own bid's play-outs, on the first deals
        assert e.tricks == totals or e.played_for
        # played for: on every deal, or on the first 15 % when dropped in the race; rough: the first 250
        assert e.samples in ((300, 45) if e.played_for else (bt_advice_module.SHORTLIST_DEALS,))  # 45: 15 %
        assert sum(e.tricks) == e.samples and len(e.suits) == 3 and all(sum(h) == e.samples for h in e.suits)
    zero = advice.estimate("zero")
    assert zero.hits == zero.tricks[0]
    assert advice.estimate({"rock": 1}) is advice.estimate(Bid(1, 0, 0)) is advice.estimate("bid 1 0 0")
    assert advice.estimate(Bid(0, 0, 0)) is advice.estimates[0]
    assert sum(advice.metal_wins) == bt_advice_module.SHORTLIST_DEALS
    finalists = [e for e in advice.estimates if e.played_for and e.samples == 300]
    assert len(finalists) == 2 and len([e for e in advice.estimates if e.played_for]) == bt_advice_module.SHORTLIST
    assert advice.best.mean == max(e.mean for e in finalists)
    data = json.loads(json.dumps(advice.as_dict(), allow_nan=False))  # plain data for a widget
    assert data["played"] == str(advice.played) and len(data["estimates"]) == 343
    single = advise(rules, view, samples=1)  # one sample: no standard error to give
    assert math.isinf(single.best.stderr)
    assert json.loads(json.dumps(single.as_dict(), allow_nan=False))["estimates"][0]["stderr"] is None


def test_same_seed_same_numbers(ts_advice: tuple[Any, Any, Advice], bt_advice: tuple[Any, Any, Advice]) -> None:
    for rules, view, advice in (ts_advice, bt_advice):
        again = advise(rules, view, samples=300, seed=5, bid=advice.bid)
        assert again == advice and again.as_dict() == advice.as_dict()
        other = advise(rules, view, samples=300, seed=6, bid=advice.bid)
        assert [e.mean for e in other.estimates] != [e.mean for e in advice.estimates]


def test_progress_and_cancellation() -> None:
    rules = get_bt(4)
    _, _, view = bidding_view(rules, seed=1)
    calls: list[tuple[int, int]] = []
    advice = advise(rules, view, samples=200, progress=lambda done, total: calls.append((done, total)))
    # bid play-outs: 200 to shortlist (at most 250), then the race: 8 bids on 30 deals, 2 on the other 170
    assert calls[0] == (0, 780) and calls[-1] == (780, 780)
    dones = [d for d, _ in calls]
    assert dones == sorted(set(dones)) and len(calls) <= 51  # about every fiftieth of the way, never back
    assert all(b - a <= 780 // 50 + 8 for a, b in itertools.pairwise(dones))  # a deal of the race: 8
    assert advice == advise(rules, view, samples=200)  # watching does not change the numbers
    assert advise(rules, view, samples=200, progress=lambda d, t: 0) == advice  # only False cancels

    def cancel_halfway(done: int, total: int) -> bool:
        return done < total // 2

    with pytest.raises(AdviceCancelled) as info:
        advise(rules, view, samples=200, progress=cancel_halfway)
    assert info.value.total == 780 and 390 <= info.value.done < 390 + 780 // 50 + 8
    ts_rules = get_ts(3)
    _, _, ts_view = bidding_view(ts_rules, seed=1)
    with pytest.raises(AdviceCancelled):
        advise(ts_rules, ts_view, samples=100, progress=lambda d, t: False)


@pytest.mark.parametrize(
    ("bid", "rule_id", "words"),
    [
        (6, "ts.predict", "6"),
        (-1, "ts.predict", "-1"),
        (True, "ts.predict", "True"),
        ("predict 9", "ts.predict", "9"),
        ("three", "ts.predict", "'three'"),
        (Bid(1, 1, 1), "ts.predict", "Bid"),
        (Predict(7), "ts.predict", "7"),
    ],
)
def test_ts_bad_bids_raise_the_engines_errors(
    ts_advice: tuple[Any, Any, Advice], bid: Any, rule_id: str, words: str
) -> None:
    rules, view, advice = ts_advice
    for attempt in (lambda: advise(rules, view, bid=bid, samples=1), lambda: advice.estimate(bid)):
        with pytest.raises(InvalidScoreInput, match=words) as info:
            attempt()
        assert info.value.rule_id == rule_id


@pytest.mark.parametrize(
    ("bid", "rule_id", "words"),
    [
        ({"rock": 7}, "bt.bid", "7"),
        ({"metal": 1}, "bt.bid.metal", "Metal"),
        ({"stone": 1}, "bt.bid", "'stone'"),
        ("bid 1 9 0", "bt.bid", "9"),
        (Bid(1, 0, 0, zero=True), "bt.bid.zero", "Zero Success"),
        (3, "bt.bid", "3"),
        (Predict(2), "bt.bid", "Predict"),
    ],
)
def test_bt_bad_bids_raise_the_engines_errors(
    bt_advice: tuple[Any, Any, Advice], bid: Any, rule_id: str, words: str
) -> None:
    rules, view, advice = bt_advice
    for attempt in (lambda: advise(rules, view, bid=bid, samples=1), lambda: advice.estimate(bid)):
        with pytest.raises(InvalidScoreInput, match=words) as info:
            attempt()
        assert info.value.rule_id == rule_id


def test_views_outside_bidding_time_are_refused() -> None:
    rules = get_ts(4)
    match, seat, view = bidding_view(rules, seed=2, decisions=4)  # everyone predicted: play
    assert match.phase == ts.PLAY
    with pytest.raises(AdviceUnavailable, match="'play'") as info:
        advise(rules, view)
    assert info.value.rule_id == "ts.predict"
    match, seat, view = bidding_view(rules, seed=2)
    with pytest.raises(AdviceUnavailable, match="teacher"):
        advise(rules, match.view(None))
    with pytest.raises(AdviceUnavailable, match="Band of Tricks view"):
        advise(get_bt(4), view)
    bt_rules = get_bt(4)
    _, _, bt_view = bidding_view(bt_rules, seed=2, decisions=4)
    with pytest.raises(AdviceUnavailable, match="'play'") as info:
        advise(bt_rules, bt_view)
    assert info.value.rule_id == "bt.bid"
    jv = tricklab.get_rules("jewel-vault", players=4)
    with pytest.raises(AdviceUnavailable, match="'announce'") as info:  # passes are tried once the count is named
        advise(jv, jv.new_match(seed=1).view(0))
    assert info.value.rule_id == "jv.pass"
    with pytest.raises(AdviceUnavailable, match="Tricks & Stones view"):
        advise(rules, jv.new_match(seed=1).view(0))
    for bad in ({"samples": 0}, {"samples": 2.5}, {"seed": -1}, {"progress": "yes"}):
        with pytest.raises(InvalidOption):
            advise(rules, view, **bad)
    with pytest.raises(InconsistentKnowledge, match="own hand"):
        other = Knowledge.from_view(rules, match.view((seat + 1) % 4))
        advise(rules, view, knowledge=dataclasses.replace(other, seat=seat))


def test_module_examples_run() -> None:
    result = doctest.testmod(tricklab.advisor, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3 and result.failed == 0


# --- advice a learner can trust: trying the recommended bid gives the figure it promised ------------------


def jv_pass_view(rules: Any, seed: int, announce: int | None = None) -> tuple[tricklab.Match, int, Any]:
    """A Jewel Vault match at the start of its passes (the dealer's bot names the number unless
    ``announce`` is given): the match, the first seat to pass, its view."""
    match = rules.new_match(seed=seed)
    bots = make_bots(rules, "heuristic", seed)
    if announce is None:
        bot_step(match, bots)
    else:
        match.apply(Announce(announce))
    seat = match.to_play
    assert seat is not None and match.phase == jv.PASS
    return match, seat, match.view(seat)


def engine_jv(rules: Any, state: Any, seat: int, passed: Pass) -> tuple[int, int, set[Card]]:
    """Play a round from the start of its passes with the heuristic bots, ``seat`` passing
    ``passed``: the points the round brings the seat's side (JV-8: the public side points),
    the tricks the seat won and its cards in them (from the engine's trick events)."""
    bots = make_bots(rules, "heuristic", 0)
    side = rules.side_of(seat)
    before = rules.side_points(state)[side]
    round_index = state.round
    tricks, cards = 0, set()
    mine: list[Card] = []  # the seat's cards in the trick being played
    while state.to_play is not None and state.round == round_index:
        mover = state.to_play
        if state.phase == jv.PASS and mover == seat:
            action: Any = passed
        else:
            action = bots[mover].choose(rules.view(state, mover), rules.legal_actions(state))
        log: list[Any] = []
        state = rules.apply(state, action, log)
        if isinstance(action, Play) and mover == seat:
            mine.append(rules.card(action.card))
        for event, _ in log:
            if event.kind == "trick":
                if event.seat == seat:
                    tricks += 1
                    cards |= set(mine)
                mine.clear()
    return int(rules.side_points(state)[side] - before), tricks, cards


def shares_close(promised: Any, tried: Any) -> bool:
    """The figure tried on other deals is within two standard errors (of the difference) of the
    figure promised."""
    return abs(tried.mean - promised.mean) <= 2 * math.hypot(promised.stderr, tried.stderr)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_bt_the_recommended_bid_keeps_its_promise(players: int) -> None:
    """Over many seeded hands: the recommended bid, tried, gives exactly the figure promised on
    the same deals, and on other deals a figure within two standard errors (allowing the one
    hand in ten that two standard errors leave out)."""
    rules = get_bt(players)
    near = 0
    hands = range(300 + players * 10, 306 + players * 10)
    for seed in hands:
        view = bidding_view(rules, seed, decisions=seed % players)[2]
        advice = advise(rules, view, samples=150, seed=seed)
        best = advice.best
        assert best.played_for and best.samples == 150
        again = advise(rules, view, bid=best.bid, samples=150, seed=seed)
        assert again.tried == best and again.best == best, seed
        for estimate in advice.estimates:  # a figure played for on every deal is that bid's own
            if estimate.played_for and estimate.samples == 150 and estimate is not best:
                assert advise(rules, view, bid=estimate.bid, samples=150, seed=seed).tried == estimate
                break
        other = advise(rules, view, bid=best.bid, samples=150, seed=seed + 7919).tried
        assert other is not None and other.played_for
        near += shares_close(best, other)
    assert near >= len(hands) - 1, f"{near} of {len(hands)} hands kept the promise on other deals"


@pytest.mark.parametrize(("players", "announce"), [(4, 1), (4, 2), (3, 1), (2, 1)])
def test_jv_the_recommended_pass_keeps_its_promise(players: int, announce: int) -> None:
    rules = tricklab.get_rules("jewel-vault", players=players)
    near = 0
    hands = range(50 + players, 54 + players)
    for seed in hands:
        view = jv_pass_view(rules, seed, announce)[2]
        advice = advise(rules, view, samples=120, seed=seed)
        best = advice.best
        assert best.samples == 120 and isinstance(best.bid, Pass) and len(best.bid.cards) == announce
        assert advise(rules, view, bid=best.bid, samples=120, seed=seed).tried == best
        other = advise(rules, view, bid=best.bid, samples=120, seed=seed + 7919).tried
        assert other is not None
        near += shares_close(best, other)
    assert near >= len(hands) - 1, f"{near} of {len(hands)} hands kept the promise on other deals"


# --- Jewel Vault: which cards to pass --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "seeds"), [(4, {}, range(6)), (3, {}, range(10, 13)), (4, {"partnerships": True}, (20, 21))]
)
def test_jv_playouts_match_the_checked_engine(players: int, options: dict[str, Any], seeds: Sequence[int]) -> None:
    """With every hand known each pass has one deal to play: its figure is the engine's round."""
    rules = tricklab.get_rules("jewel-vault", players=players, **options)
    for seed in seeds:
        match, seat, view = jv_pass_view(rules, seed)
        if seed % 2:  # a later round: jewels in the vaults (the others' are hidden from the seat)
            match = rules.play(seed=seed, bots="heuristic")
            state = next(s for s in match.states if s.round == 1 and s.phase == jv.PASS)
            seat = state.to_play
            view = rules.view(state, seat)
            assert any(v is None for v in view.vaults) and any(state.vaults)
        else:
            state = match.state
        advice = advise(rules, view, samples=1, knowledge=everything_known(rules, state, seat))
        assert len(advice.estimates) == math.comb(len(view.hand), view.announced) or len(advice.estimates) == 10
        for estimate in advice.estimates:
            assert isinstance(estimate.bid, Pass)
            points, tricks, cards = engine_jv(rules, state, seat, estimate.bid)
            assert estimate.mean == points, (seed, estimate.text)
            assert estimate.tricks[tricks] == 1
            kept = set(view.hand) - set(estimate.bid.cards)  # the seat's own cards it kept
            assert {c for c, k in estimate.card_wins if k} == cards & kept


def test_jv_candidates_every_pass_or_the_nearest_to_the_bots() -> None:
    rules = tricklab.get_rules("jewel-vault", players=4)
    for k, count in ((1, 10), (2, 10), (3, 10)):
        view = jv_pass_view(rules, seed=3, announce=k)[2]
        advice = advise(rules, view, samples=40, seed=1)
        passes = [e.bid for e in advice.estimates]
        assert len(passes) == count == len(set(passes))
        assert all(isinstance(p, Pass) and len(p.cards) == k and set(p.cards) <= set(view.hand) for p in passes)
        assert advice.played == passes[0]  # the bot's own pass is tried first
        order = [e.samples for e in advice.estimates]
        assert max(order) == 40 and min(order) < 40  # the race: the weaker passes stop early
        assert advice.best.samples == 40
        assert ("All 10 ways" in advice.model) == (k == 1)


def test_jv_bad_passes_and_views_are_refused() -> None:
    rules = tricklab.get_rules("jewel-vault", players=4)
    match, seat, view = jv_pass_view(rules, seed=5, announce=2)
    hand = view.hand
    stranger = next(c for c in rules.deck() if c not in hand)
    for bad in ((hand[0],), (hand[0], stranger), "pass " + " ".join(str(c) for c in hand[:3]), [hand[0], "R14"]):
        with pytest.raises(InvalidAction) as info:
            advise(rules, view, bid=bad, samples=1)
        assert info.value.rule_id in ("jv.pass", "jv.deck")
    tried = advise(rules, view, bid=f"pass {hand[1]} {hand[0]}", samples=20, seed=1)
    assert tried.bid == Pass((hand[0], hand[1])) and tried.tried is not None and tried.tried.samples == 20
    assert tried.estimate([hand[1], hand[0]]) is tried.tried
    match.apply(Pass(hand[:2]))
    with pytest.raises(AdviceUnavailable, match="already chosen") as refused:
        advise(rules, match.view(seat))
    assert refused.value.rule_id == "jv.pass"


def test_reasons_name_the_cards_that_carry_the_tricks_and_the_risk() -> None:
    cases = [
        (get_ts(4), lambda r: bidding_view(r, seed=7)[2]),
        (get_bt(4), lambda r: bidding_view(r, seed=12)[2]),
        (tricklab.get_rules("jewel-vault", players=4), lambda r: jv_pass_view(r, seed=12)[2]),
    ]
    for rules, view_of in cases:
        view = view_of(rules)
        advice = advise(rules, view, samples=200, seed=3)
        for estimate in advice.estimates:
            if not estimate.played_for:
                assert estimate.reasons == ()
                continue
            first, *rest = estimate.reasons
            assert first.rule_id == "advice.cards" and rest
            wins = dict(estimate.card_wins)
            assert set(wins) <= set(view.hand)
            for card in first.cards:  # the cards named carry tricks in at least 30 % of the deals
                assert wins[card] >= tricklab.advisor.CARRIES * estimate.samples
                assert f"{wins[card] / estimate.samples:.0%}" in first.text
            assert all(r.rule_id in rules.rulebook for r in rest)
            assert sum(k for _, k in estimate.scores) == estimate.samples
            mean = sum(score * k for score, k in estimate.scores) / estimate.samples
            assert math.isclose(mean, estimate.mean)


# --- one judge: the hint, the review and the trainer agree in one position ------------------------------


def _trainer_bid(action: Any) -> Any:
    """A bid as the trainer takes it from code."""
    if isinstance(action, Bid):
        return "zero" if action.zero else {"rock": action.rock, "soul": action.soul, "pops": action.pops}
    return action


def _finish_round(match: tricklab.Match, seed: int) -> None:
    bots = make_bots(match.rules, "heuristic", seed)
    deal = match.rules.capabilities.review.load().round_of  # type: ignore[union-attr]
    start = deal(match.state)
    while match.to_play is not None and deal(match.state) == start:
        seat = match.to_play
        match.apply(bots[seat].choose(match.view(seat), match.legal_actions()))


@pytest.mark.parametrize(("game", "seed"), [("tricks-and-stones", 3), ("band-of-tricks", 4), ("jewel-vault", 5)])
def test_the_hint_the_review_and_the_trainer_agree_on_a_bid(game: str, seed: int) -> None:
    """At a pre-round decision, on one seed and number of deals: the trainer recommends the hint's
    choice with the same figure, and the review of the round where it was taken calls it the best,
    with the same figure again."""
    from tricklab.bots import heuristic_bot
    from tricklab.hints import judged_hint
    from tricklab.review import review_round
    from tricklab.widgets import BidTrainer

    trainer = BidTrainer(game, 4, seed=seed, samples=60)
    match = trainer.match.copy()
    seat = trainer.seat
    hint = judged_hint(match, heuristic_bot(match.rules, seat), samples=60, seed=seed)
    assert hint.evaluation is not None and not hint.rule_of_thumb
    trainer.choose(_trainer_bid(hint.action))
    advice = trainer.try_bid()
    assert advice is not None
    assert advice.best.bid == hint.action == hint.evaluation.best.action
    assert (advice.best.mean, advice.best.stderr) == (hint.evaluation.best.mean, hint.evaluation.best.stderr)
    index = len(match.actions)
    match.apply(hint.action)
    _finish_round(match, seed)
    decision = next(d for d in review_round(match, seat, 0, samples=60, seed=seed).decisions if d.index == index)
    assert decision.best_action == hint.action and decision.verdict == "best"
    assert decision.best_expected == hint.evaluation.best.mean
    # every choice played on as many deals in both has the same figure (the one under test plays them all)
    hinted = {c.action: (c.samples, c.mean) for c in hint.evaluation.choices}
    same = [c for c in decision.choices if hinted.get(c.action, (None,))[0] == c.samples]
    assert len(same) >= 2 and all(hinted[c.action] == (c.samples, c.mean) for c in same)


@pytest.mark.parametrize(("game", "seed"), [("tricks-and-stones", 6), ("band-of-tricks", 7), ("jewel-vault", 8)])
def test_the_hint_and_the_review_agree_on_a_card(game: str, seed: int) -> None:
    """In the middle of a round, on one seed: the hint names the judge's best card with its figure, and
    the review of the round in which it was played calls it the best with the same figure. Where the
    bot's rule of thumb picks another card, the hint says it is one and how that card fares."""
    from tricklab.bots import heuristic_bot
    from tricklab.hints import judged_hint
    from tricklab.review import review_round

    rules = tricklab.get_rules(game, players=4)
    match = rules.new_match(seed)
    bots = make_bots(rules, "heuristic", seed)
    seen = 0
    while match.to_play is not None and seen < 2:
        seat = match.to_play
        legal = match.legal_actions()
        if seat == 0 and len(legal) > 2 and all(isinstance(a, Play) for a in legal):
            hint = judged_hint(match, heuristic_bot(rules, 0), samples=40, seed=seed)
            ev = hint.evaluation
            assert ev is not None and hint.action == ev.best.action
            if hint.thumb != hint.action:
                said = [r.text for r in hint.reasons if r.rule_id.startswith("bot.")]
                assert said and said[0].startswith("A quick rule of thumb would choose")
            index = len(match.actions)
            copy = match.copy()
            copy.apply(hint.action)
            _finish_round(copy, seed)
            rev = review_round(copy, 0, rules.capabilities.review.load().round_of(match.state), samples=40, seed=seed)  # type: ignore[union-attr]
            d = next(d for d in rev.decisions if d.index == index)
            assert d.best_action == hint.action and d.best_expected == ev.best.mean and d.verdict == "best"
            assert ev.figure(hint.action).samples == d.choices[0].samples
            seen += 1
        match.apply(bots[seat].choose(match.view(seat), legal))
    assert seen == 2
