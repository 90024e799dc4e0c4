"""The round review: its numbers against the checked engine, hand-made blunders, hindsight
against ``resolve_trick``, the deals it samples, determinism, progress and bad input.

The oracles here are independent of the review's fast path: play-outs are repeated through
the checked engine (``Rules.apply``, ``legal_actions``, ``view`` and the bots' ``choose``),
the last gem actions of a round are scored by TS-8 as stated in this file, voids are read
from the played cards by the follow rules stated here, and trick winners come from the
public ``resolve_trick``. Every sample is seeded: a run always passes or always fails.
"""

from __future__ import annotations

import doctest
import json
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tricklab
import tricklab.review
from tricklab import Move, Place, Play, Skip
from tricklab.advisor import Knowledge, advise
from tricklab.bots import make_bots
from tricklab.errors import TricklabError
from tricklab.games import GAMES
from tricklab.games.band_of_tricks.review import BT_REVIEW
from tricklab.games.hearts.review import HT_REVIEW
from tricklab.games.jewel_vault.review import JV_REVIEW
from tricklab.games.oh_hell.review import OH_REVIEW
from tricklab.games.tricks_and_stones.review import TS_REVIEW
from tricklab.judge import judge_work
from tricklab.review import (
    THRESHOLDS,
    VERDICTS,
    DecisionReview,
    ReviewCancelled,
    ReviewEntry,
    RoundReview,
    review_round,
    sampled_deals,
)

TS, BT, JV, OH, HT = "tricks-and-stones", "band-of-tricks", "jewel-vault", "oh-hell", "hearts"
ENTRIES = {TS: TS_REVIEW, BT: BT_REVIEW, JV: JV_REVIEW, OH: OH_REVIEW, HT: HT_REVIEW}


# --- helpers: rounds, bots and the checked engine ------------------------------------------------


def round_of(state: Any) -> int:
    """The round (Band of Tricks: the deal) a state is in."""
    return int(state.deal if hasattr(state, "deal") else state.round)


def bot_match(game: str, players: int, seed: int, rounds: int = 1, **options: Any) -> tricklab.Match:
    """A match played by the heuristic bots until ``rounds`` rounds are complete (or it ends)."""
    rules = tricklab.get_rules(game, players=players, **options)
    match = rules.new_match(seed=seed)
    bots = make_bots(rules, "heuristic", seed)
    while not match.is_over and round_of(match.state) < rounds:
        seat = match.to_play
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat), match.legal_actions()))
    return match


def side_points(rules: Any, state: Any, seat: int) -> int:
    """JV-8 for the seat's side: 2 points a vault jewel, 1 a showroom jewel."""
    side = rules.side_of(seat)
    return 2 * state.vaults[side] + state.showrooms[side]


def checked_score(rules: Any, start: Any, seat: int, action: Any, round_index: int, opening: Any) -> int:
    """Play a round on from ``start`` through the checked engine: ``action`` at the seat's first
    turn, every other decision the heuristic bot's ``choose`` on the mover's view; the seat's
    round score as the game keeps it (TS round scores, BT deal scores, JV-8 points gained, Oh
    Hell deal scores, Hearts hand points with their sign turned)."""
    bots = make_bots(rules, "heuristic", 0)
    state = start
    pending = True
    while state.to_play is not None and round_of(state) == round_index:
        mover = state.to_play
        if pending and mover == seat:
            chosen, pending = action, False
        else:
            chosen = bots[mover].choose(rules.view(state, mover), rules.legal_actions(state))
        state = rules.apply(state, chosen)
    if rules.name in (TS, OH):
        return int(state.round_scores[round_index][seat])
    if rules.name == HT:  # points are bad: the review scores them with their sign turned
        return -int(state.round_scores[round_index][seat])
    if rules.name == BT:
        return int(state.deal_scores[round_index][seat])
    return side_points(rules, state, seat) - side_points(rules, opening, seat)


def advised(match: tricklab.Match, index: int) -> bool:
    """Whether the decision at ``index`` is the game's pre-round decision, rated by the advisor
    (a game without advice, Hearts, rates its passes by play-outs like any other decision)."""
    offers = match.rules.capabilities
    return match.states[index].phase == offers.decision.phase and offers.advice is not None


def round_start(match: tricklab.Match, round_index: int) -> int:
    return next(i for i, s in enumerate(match.states) if round_of(s) == round_index)


def decisions_of(match: tricklab.Match, seat: int, round_index: int) -> list[int]:
    """The seat's decisions of a round with a choice, by the checked API's ``legal_actions``."""
    rules = match.rules
    return [
        i
        for i in range(len(match.actions))
        if round_of(match.states[i]) == round_index
        and match.states[i].to_play == seat
        and len(rules.legal_actions(match.states[i])) > 1
    ]


# --- the declaration ---------------------------------------------------------------------------------


def test_every_game_declares_its_review() -> None:
    for name, cls in GAMES.items():
        ref = cls.capabilities.review
        if not cls.capabilities.tricks:  # Kalah, Mandala: no review yet, and the table offers none
            assert ref is None and name not in ENTRIES
            continue
        assert ref is not None
        entry = ref.load()
        assert isinstance(entry, ReviewEntry) and entry is ENTRIES[name]
        assert set(THRESHOLDS[name]) == {"inaccuracy", "mistake", "blunder"}
        limits = THRESHOLDS[name]
        assert 0 < limits["inaccuracy"] < limits["mistake"] < limits["blunder"]


def test_module_examples_run() -> None:
    failures, tried = doctest.testmod(tricklab.review, raise_on_error=False)
    assert tried > 0 and failures == 0


# --- hand-made positions -------------------------------------------------------------------------------


def late_overtake() -> tuple[tricklab.Match, int, int]:
    """Tricks & Stones, 4 players, seed 1327: seat 3 predicted 2, has won 2 tricks and holds 3
    own gems in chamber 2; playing last to trick 7 it ruffs with 8♠ (trump) instead of
    discarding 9♥, and the bots play the round out."""
    rules = tricklab.get_rules(TS, players=4)
    match = rules.new_match(seed=1327, first_dealer=3)
    bots = make_bots(rules, "heuristic", 1327)
    for _ in range(48):
        seat = match.to_play
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat), match.legal_actions()))
    state = match.state
    assert (match.to_play, state.predictions[3], state.tricks_won[3], state.board[3][2]) == (3, 2, 2, 3)
    assert len(state.trick) == 3 and set(map(str, state.hands[3])) == {"8S", "9H"}
    index = len(match.actions)
    match.apply("play 8S")
    while round_of(match.state) == 0:
        seat = match.to_play
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat), match.legal_actions()))
    return match, 3, index


def test_overtaking_once_the_prediction_is_made_is_a_blunder() -> None:
    match, seat, index = late_overtake()
    rules = match.rules
    rev = review_round(match, seat, round=0, samples=16, seed=0)
    d = next(d for d in rev.decisions if d.index == index)
    trick = match.states[index].trick
    assert rules.resolve_trick([*trick, rules.card("8S")], trump="S").winner == 3  # 8♠ takes a third trick
    assert d.text == "play 8S" and d.verdict == "blunder" and d.loss >= THRESHOLDS[TS]["blunder"]
    assert str(d.best_action) == "play 9H"
    assert rules.resolve_trick([*trick, rules.card("9H")], trump="S").winner != 3  # the better card ducks
    assert d.loss == d.best_expected - d.expected
    assert rev.costliest is not None and rev.costliest.loss >= d.loss


def test_the_last_gem_actions_are_scored_exactly() -> None:
    """After the round's last trick nothing is hidden and nothing is left to play: every gem
    action's expected score is TS-8 of the board it leaves, stated here."""
    rules = tricklab.get_rules(TS, players=4)
    checked = 0
    for seed in range(30):
        match = rules.new_match(seed=seed)
        bots = make_bots(rules, "heuristic", seed)
        while round_of(match.state) == 0:
            state = match.state
            seat = match.to_play
            assert seat is not None
            if state.phase == "gems" and state.tricks_played == 8 and len(match.legal_actions()) > 2:
                break
            match.apply(bots[seat].choose(match.view(seat), match.legal_actions()))
        else:
            continue
        index = len(match.actions)
        legal = match.legal_actions()
        own, prediction, tricks = state.board[seat], state.predictions[seat], state.tricks_won[seat]
        match.apply(legal[-1])  # the last listed gem action, whatever it does
        while round_of(match.state) == 0:
            mover = match.to_play
            assert mover is not None
            match.apply(bots[mover].choose(match.view(mover), match.legal_actions()))
        rev = review_round(match, seat, round=0, samples=3, seed=seed)
        d = next(d for d in rev.decisions if d.index == index)
        expected = {}
        for action in legal:
            board = list(own)
            if isinstance(action, Place):
                for c in action.chambers:
                    board[c] += 1
            elif isinstance(action, Move):
                for a, b in action.steps:
                    board[a] -= 1
                    board[b] += 1
            else:
                assert isinstance(action, Skip)
            expected[action] = (board[tricks] if tricks <= 5 else 0) + (3 if tricks == prediction else 0)
        assert {a: (mean, err) for a, mean, err in d.alternatives} == {a: (v, 0.0) for a, v in expected.items()}
        best = max(expected.values())
        assert d.best_expected == best and d.loss == best - expected[legal[-1]]
        checked += 1
        if checked == 3:
            break
    assert checked == 3


# --- the numbers are the checked engine's ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players", "options", "seed"),
    [
        (TS, 4, {}, 3),
        (TS, 3, {"chambers": "ring"}, 4),
        (BT, 4, {}, 5),
        (BT, 3, {}, 6),
        (JV, 4, {}, 7),
        (JV, 2, {}, 8),
        (JV, 4, {"partnerships": True}, 9),
        (OH, 4, {}, 10),
        (OH, 3, {"penalty": True}, 11),
        (HT, 4, {}, 12),
        (HT, 4, {"passing": False, "jack": True}, 13),
    ],
)
def test_expected_scores_are_the_checked_engines(game: str, players: int, options: dict[str, Any], seed: int) -> None:
    """Each alternative's expected score is the mean, over the very deals the review sampled, of
    the round played on through the checked engine and the bots' ``choose``."""
    match = bot_match(game, players, seed, rounds=2, **options)
    rules = match.rules
    entry = ENTRIES[game]
    round_index = 1
    opening = match.states[round_start(match, round_index)]
    for seat in range(min(players, 2)):
        rev = review_round(match, seat, round=round_index, samples=2, seed=seed)
        for d in rev.decisions:
            if advised(match, d.index):  # the pre-round decision: the advisor's figures, the trainer's own
                view = rules.view(match.states[d.index], seat)
                advice = advise(rules, view, bid=d.action, samples=2, seed=seed)
                for c in d.choices:
                    assert (c.mean, c.samples) == (advice.estimate(c.action).mean, advice.estimate(c.action).samples)
                continue
            start, deals = sampled_deals(match, seat, d.index, samples=2, seed=seed)
            starts = [entry.deal(rules, match.states[start], hands, aside) for hands, aside in deals]
            for c in d.choices:  # each over the first deals, as many as it played
                scores = [checked_score(rules, s, seat, c.action, round_index, opening) for s in starts[: c.samples]]
                assert c.mean == sum(scores) / len(scores), (d.index, str(c.action))
            chosen = [checked_score(rules, s, seat, d.action, round_index, opening) for s in starts]
            assert d.expected == sum(chosen) / len(chosen)


def test_choosing_the_best_costs_nothing() -> None:
    """Replace a costly decision by the best alternative the review named: the same deals are
    played (the seat knew the same), and now the decision is rated best, with loss 0."""
    match = bot_match(TS, 4, 11, rounds=1)
    rev = review_round(match, 2, round=0, samples=6, seed=4)
    d = rev.costliest
    assert d is not None and d.loss > 0
    again = tricklab.Match(match.rules, match.seed, actions=[*match.actions[: d.index], d.best_action])
    redo = review_round(again, 2, round=0, samples=6, seed=4)
    e = next(e for e in redo.decisions if e.index == d.index)
    assert (e.action, e.loss, e.verdict, e.best_action) == (d.best_action, 0.0, "best", d.best_action)
    assert e.expected == d.best_expected
    assert {a: (m, err) for a, m, err in e.alternatives} == {a: (m, err) for a, m, err in d.alternatives}


def test_the_costliest_is_a_slip_the_play_outs_told_apart_when_there_is_one() -> None:
    """A larger loss within twice its uncertainty ("about the same") never hides a smaller one
    the play-outs told apart: the costliest decision is the slip, and the review says so rather
    than "every decision was the best"."""
    from dataclasses import replace

    from tricklab.display.review import review_html

    match = bot_match(TS, 4, 11, rounds=1)
    rev = review_round(match, 2, round=0, samples=4, seed=4)
    first, second, *rest = rev.decisions
    unsure = replace(first, loss=9.0, loss_stderr=6.0, verdict="same")
    slip = replace(second, loss=1.0, loss_stderr=0.1, verdict="inaccuracy")
    mixed = replace(rev, decisions=(unsure, slip, *(replace(d, verdict="best", loss=0.0) for d in rest)))
    assert mixed.costliest is slip
    html = review_html(match.rules, mixed)
    assert "The costliest decision" in html and "Every decision was the best" not in html
    alike = replace(mixed, decisions=(unsure, replace(slip, verdict="same"), *mixed.decisions[2:]))
    assert alike.costliest is unsure
    assert "Every decision was the best" in review_html(match.rules, alike)


# --- what the seat knew ------------------------------------------------------------------------------------


def revealed_voids(match: tricklab.Match, at: int, round_index: int) -> list[set[str]]:
    """The suits each seat showed it lacked in the round before state ``at``: Tricks & Stones
    and Jewel Vault, a card not of the led suit; Band of Tricks, a card that is neither Metal
    nor of the suit to follow (the first non-Metal card of the trick)."""
    rules = match.rules
    voids: list[set[str]] = [set() for _ in range(rules.players)]
    for before, action in zip(match.states[:at], match.actions[:at], strict=True):
        if not isinstance(action, Play) or round_of(before) != round_index or not before.trick:
            continue
        card = rules.card(action.card)
        seat = before.to_play
        if rules.name == BT:
            follow = next((c.suit for c in before.trick if c.suit != "M"), None)
            if follow is not None and card.suit not in (follow, "M"):
                voids[seat].add(follow)
        elif card.suit != before.trick[0].suit:
            voids[seat].add(before.trick[0].suit)
    return voids


@pytest.mark.parametrize(
    ("game", "players", "options", "seed"),
    [
        (TS, 4, {}, 1),
        (TS, 3, {}, 2),
        (BT, 3, {}, 3),
        (BT, 5, {}, 4),
        (JV, 4, {}, 5),
        (JV, 6, {"partnerships": True}, 6),
        (OH, 4, {}, 7),
        (OH, 5, {"cards": 7}, 8),
        (HT, 4, {}, 9),
    ],
)
def test_sampled_deals_fit_what_the_seat_knew(game: str, players: int, options: dict[str, Any], seed: int) -> None:
    match = bot_match(game, players, seed, rounds=1, **options)
    rules = match.rules
    ids = ENTRIES[game].ids
    deck = set(rules.deck())
    seat = 1
    checked_voids = 0
    for index in decisions_of(match, seat, 0):
        start, deals = sampled_deals(match, seat, index, samples=12, seed=seed)
        state = match.states[start]
        assert start == index or (start < index and state.phase in ("predict", "pass", "bid"))
        hands = state.hands
        played = {rules.card(a.card) for a, s in zip(match.actions[:start], match.states[:start], strict=True)
                  if isinstance(a, Play) and round_of(s) == 0}  # fmt: skip
        voids = revealed_voids(match, start, 0)
        if game == OH:  # the turned-up card is seen by all and in no hand: never dealt in a sample
            played.add(ids.card(state.turned))
        passed = None
        if game == JV and state.exchanged:
            passed = (rules.receiver(seat), set(state.passes[seat]) - played)
        for masks, aside in deals:
            dealt = [ids.hand(m) for m in masks]
            assert dealt[seat] == hands[seat], "the seat's own hand is kept"
            assert [len(h) for h in dealt] == [len(h) for h in hands]
            cards = [c for h in dealt for c in h] + list(ids.hand(aside))
            assert len(cards) == len(set(cards)) and set(cards) | played == deck and not set(cards) & played
            for s, hand in enumerate(dealt):
                if s != seat:
                    assert not {c.suit for c in hand} & voids[s], "a seat got a suit it showed void in"
                    checked_voids += bool(voids[s])
            if passed is not None:
                receiver, cards_passed = passed
                assert cards_passed <= set(dealt[receiver]), "the passed cards stay with their receiver"
    assert checked_voids > 0 or (game == JV and players == 6)


def test_knowledge_at_an_earlier_point_is_that_of_the_match_then() -> None:
    for game, players in ((TS, 4), (BT, 4), (JV, 3)):
        match = bot_match(game, players, 12, rounds=1)
        for at in range(0, len(match.actions), 5):
            then = match.copy()
            while len(then.actions) > at:
                then.undo()
            for seat in range(players):
                assert Knowledge.from_match(match, seat, at=at) == Knowledge.from_match(then, seat)


# --- hindsight ---------------------------------------------------------------------------------------------------


def context(match: tricklab.Match, index: int) -> dict[str, Any]:
    state = match.states[index]
    return {"trump": state.trump} if match.rules.name in (TS, OH) else {}


@pytest.mark.parametrize(
    ("game", "players", "seed"), [(TS, 4, 2), (TS, 3, 3), (BT, 4, 4), (BT, 5, 5), (JV, 4, 6), (JV, 2, 7)]
)
def test_hindsight_agrees_with_resolve_trick(game: str, players: int, seed: int) -> None:
    """The actual trick's winner is ``resolve_trick``'s; every other card's winner too, wherever
    the cards after the seat's stay legal by the rules: the seat plays last, or the suit to
    follow was set before the seat's card (then the later cards are unchanged)."""
    match = bot_match(game, players, seed, rounds=1)
    rules = match.rules
    n = players
    for seat in range(min(players, 3)):
        rev = review_round(match, seat, round=0, samples=1, seed=0)
        plays = [i for i in range(len(match.actions)) if isinstance(match.actions[i], Play)
                 and match.states[i].to_play == seat and round_of(match.states[i]) == 0]  # fmt: skip
        assert [h.index for h in rev.hindsight] == plays  # every card to a completed trick
        for h in rev.hindsight:
            ctx = context(match, h.index)
            leader = match.states[h.index].leader
            assert h.cards[h.position] == h.played

            def winner(cards: Sequence[Any], ctx: dict[str, Any] = ctx, leader: int = leader) -> int:
                return (leader + rules.resolve_trick(list(cards), **ctx).winner) % n

            assert h.winner == winner(h.cards)
            before, later = h.cards[: h.position], h.cards[h.position + 1 :]
            fixed = bool(before) and (game != BT or any(c.suit != "M" for c in before))
            if game == JV and players == 2:
                fixed = fixed and h.position == len(h.cards) - 1  # the seat may play twice to a trick
            cards = [c for c, _ in h.outcomes]
            state = match.states[h.index]
            rule_ctx = {**ctx, "trump_broken": state.trump_broken} if game == TS else ctx
            assert set(cards) == set(rules.legal_plays(state.hands[seat], before, **rule_ctx))
            for card, w in h.outcomes:
                if card == h.played:
                    assert w == h.winner
                if not later or fixed:
                    assert w == winner((*before, card, *later)), (h.index, str(card))
            assert all(w != h.winner for _, w in h.changes)


def test_hindsight_of_the_late_overtake() -> None:
    match, seat, index = late_overtake()
    rev = review_round(match, seat, round=0, samples=1)
    h = next(h for h in rev.hindsight if h.index == index)
    assert h.position == 3 and h.winner == seat and str(h.played) == "8S"
    leader = match.states[index].leader
    for card, w in h.outcomes:
        place = match.rules.resolve_trick([*h.cards[:3], card], trump="S").winner
        assert w == (leader + place) % 4
    assert h.changes and all(w != seat for _, w in h.changes)


# --- every game and player count: a smoke property test ---------------------------------------------------

SETUPS = [
    (TS, 3, {}),
    (TS, 4, {}),
    (BT, 3, {}),
    (BT, 4, {}),
    (BT, 5, {}),
    (JV, 2, {}),
    (JV, 3, {}),
    (JV, 4, {}),
    (JV, 5, {}),
    (JV, 6, {}),
    (JV, 4, {"partnerships": True}),
    (JV, 6, {"partnerships": True}),
    (OH, 3, {}),
    (OH, 4, {}),
    (OH, 6, {}),
    (HT, 4, {}),
]


def check_review(match: tricklab.Match, seat: int, rev: RoundReview, round_index: int) -> None:
    rules = match.rules
    assert (rev.game, rev.players, rev.seat, rev.round) == (rules.name, rules.players, seat, round_index)
    wanted = decisions_of(match, seat, round_index)
    assert [d.index for d in rev.decisions] == wanted  # every decision with a choice, in play order
    limits = THRESHOLDS[rules.name]
    for d in rev.decisions:
        assert isinstance(d, DecisionReview)
        assert d.action == match.actions[d.index] and d.text == str(d.action)
        listed = rules.legal_actions(match.states[d.index])
        rated = sorted(map(str, (a for a, _, _ in d.alternatives)))
        if advised(match, d.index):  # the advisor rates the choices it plays for (a shortlist of bids)
            assert set(rated) <= set(map(str, listed)) and str(d.action) in rated
        else:
            assert rated == sorted(map(str, listed))
        best = d.choices[0]
        assert best.mean == d.best_expected and d.loss >= 0
        assert d.best_action == best.action or d.loss == 0, "a choice tied with the best is the best"
        assert all(c.samples <= best.samples for c in d.choices), "the best played the most deals"
        assert d.loss == pytest.approx(d.best_expected - d.expected, abs=1e-9)
        assert dict((a, m) for a, m, _ in d.alternatives)[d.action] == d.expected
        assert d.reasons and d.reasons[0].rule_id == "judge.figures"
        if d.loss == 0:
            assert d.verdict == "best" and d.best_action == d.action
        elif d.loss <= 2 * d.loss_stderr:
            assert d.verdict == "same"
        else:
            order = [v for v in VERDICTS[3:] if d.loss >= limits[v]]
            assert d.verdict == (order[-1] if order else "good")
    if rev.decisions:
        slips = [d for d in rev.decisions if d.verdict not in ("best", "same")] or rev.decisions
        assert rev.costliest is not None and rev.costliest.loss == max(d.loss for d in slips)
    else:
        assert rev.costliest is None
    assert json.loads(json.dumps(rev.as_dict())) == rev.as_dict()


@pytest.mark.parametrize(("game", "players", "options"), SETUPS)
@settings(max_examples=2)
@given(seed=st.integers(0, 10_000), seat_pick=st.integers(0, 5))
def test_reviews_of_bot_matches_hold_together(
    game: str, players: int, options: dict[str, Any], seed: int, seat_pick: int
) -> None:
    match = bot_match(game, players, seed, rounds=1, **options)
    seat = seat_pick % players
    rev = review_round(match, seat, samples=2, seed=seed)
    check_review(match, seat, rev, 0)


def test_every_kind_of_decision_is_reviewed() -> None:
    seen: dict[str, set[str]] = {TS: set(), BT: set(), JV: set()}
    wanted = {TS: {"predict", "play", "gems"}, BT: {"bid", "play", "assign"}, JV: {"announce", "pass", "play", "steal"}}
    for game, players in ((TS, 4), (BT, 4), (JV, 4)):
        for seed in range(40):
            match = bot_match(game, players, seed, rounds=1)
            for seat in range(players):
                phases = {str(match.states[i].phase) for i in decisions_of(match, seat, 0)}
                if phases - seen[game]:
                    rev = review_round(match, seat, round=0, samples=1)
                    seen[game] |= {d.phase for d in rev.decisions}
            if seen[game] >= wanted[game]:
                break
    assert seen == wanted


# --- the current round, determinism, progress --------------------------------------------------------------


def test_round_none_is_the_last_complete_round_or_the_current_one() -> None:
    rules = tricklab.get_rules(TS, players=4)
    match = rules.new_match(seed=5)
    bots = make_bots(rules, "heuristic", 5)
    for _ in range(12):  # predictions and a few cards of round 0
        seat = match.to_play
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat), match.legal_actions()))
    early = review_round(match, 0, samples=2)
    assert early.round == 0 and [d.index for d in early.decisions] == decisions_of(match, 0, 0)
    done = bot_match(TS, 4, 5, rounds=2)
    assert review_round(done, 0, samples=1).round == 1
    whole = rules.play(seed=5)
    assert review_round(whole, 0, samples=1).round == 3


def test_same_seed_same_review() -> None:
    match = bot_match(JV, 3, 21, rounds=1)
    one = review_round(match, 2, samples=3, seed=9).as_dict()
    two = review_round(match, 2, samples=3, seed=9).as_dict()
    assert one == two
    assert json.dumps(one) == json.dumps(two)
    other = review_round(match, 2, samples=3, seed=10).as_dict()
    assert other != one  # another seed samples other deals


def test_progress_and_cancellation() -> None:
    match = bot_match(TS, 4, 8, rounds=1)
    calls: list[tuple[int, int]] = []
    review_round(match, 0, samples=2, progress=lambda done, total: calls.append((done, total)))
    total = calls[0][1]
    assert calls[0] == (0, total) and calls[-1] == (total, total)
    assert all(t == total for _, t in calls) and [d for d, _ in calls] == sorted(d for d, _ in calls)
    # every decision's play-outs at most (a choice played on every deal, the others raced; a bid: the advisor's)
    assert total == sum(judge_work(match, i, 2) for i in decisions_of(match, 0, 0))
    assert judge_work(match, decisions_of(match, 0, 0)[-1], 2) == 2 * len(
        match.rules.legal_actions(match.states[decisions_of(match, 0, 0)[-1]])
    )
    for falsy in (None, 0, ""):
        review_round(match, 0, samples=1, progress=lambda done, total, falsy=falsy: falsy)
    seen: list[int] = []

    def stop(done: int, total: int) -> bool:
        seen.append(done)
        return done < 10

    with pytest.raises(ReviewCancelled) as caught:
        review_round(match, 0, samples=2, progress=stop)
    assert caught.value.done == seen[-1] >= 10 and caught.value.total == total
    assert isinstance(caught.value, TricklabError)


# --- bad input --------------------------------------------------------------------------------------------------


def test_bad_input_is_refused_naming_the_value() -> None:
    match = bot_match(TS, 4, 2, rounds=1)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"seat": 4}, "4"),
        ({"seat": -1}, "-1"),
        ({"seat": True}, "True"),
        ({"seat": "0"}, "'0'"),
        ({"round": 7}, "7"),
        ({"round": -1}, "-1"),
        ({"round": "last"}, "'last'"),
        ({"samples": 0}, "0"),
        ({"samples": -3}, "-3"),
        ({"samples": 2.5}, "2.5"),
        ({"seed": -1}, "-1"),
        ({"progress": "yes"}, "'yes'"),
    ]
    for change, text in cases:
        args: dict[str, Any] = {"seat": 0, **change}
        seat = args.pop("seat")
        with pytest.raises(TricklabError) as caught:
            review_round(match, seat, **args)
        assert text in str(caught.value), (change, str(caught.value))
    for not_a_match in (match.state, None, "match", match.record()):
        with pytest.raises(TricklabError, match="Match"):
            review_round(not_a_match, 0)  # type: ignore[arg-type]
    with pytest.raises(TricklabError, match="999"):
        sampled_deals(match, 0, 999)
    with pytest.raises(TricklabError, match="seat 1"):
        sampled_deals(match, 1, decisions_of(match, 0, 0)[0])


@pytest.mark.parametrize(("game", "players", "phase"), [(TS, 4, "predict"), (JV, 4, "pass")])
def test_earlier_secret_choices_do_not_reach_the_review(game: str, players: int, phase: str) -> None:
    """The seat cannot see the secret choices made before its own in the same phase (Tricks &
    Stones predictions, Jewel Vault passes): whatever an earlier seat chose there, the review of
    the seat's choice is the same."""
    rules = tricklab.get_rules(game, players=players)
    reviews = []
    for pick in (0, -1):  # the earlier seat's first or last listed choice
        match = rules.new_match(seed=17)
        bots = make_bots(rules, "heuristic", 17)
        while match.phase != phase:
            seat = match.to_play
            assert seat is not None
            match.apply(bots[seat].choose(match.view(seat), match.legal_actions()))
        match.apply(match.legal_actions()[pick])  # the first seat of the phase chooses
        seat = match.to_play
        assert seat is not None and match.phase == phase
        index = len(match.actions)
        match.apply(bots[seat].choose(match.view(seat), match.legal_actions()))
        start, _ = sampled_deals(match, seat, index, samples=2)
        assert start == index - 1  # the play-outs start where the phase began
        rev = review_round(match, seat, round=0, samples=4, seed=2)
        reviews.append(next(d for d in rev.decisions if d.index == index))
    assert reviews[0] == reviews[1]
