"""Jewel Vault's advice (:mod:`tricklab.advisor`): which cards to pass, once the dealer named how
many (JV-4). Every way to pass is tried when there are at most :data:`ALL_PASSES` (passing 1
card); otherwise the :data:`ALL_PASSES` passes nearest the bot's own and the pass under test.
Each is played from the start of the passes; the passes race on the same deals (:data:`RACE`)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from ...actions import Action, Pass
from ...advisor import (
    Advice,
    AdviceUnavailable,
    AdvisorEntry,
    BiddingView,
    BidEstimate,
    DealSampler,
    Knowledge,
)
from ...cards import Card, any_card
from ...errors import InvalidAction, describe
from ...explain import Reason, and_list
from ...platform import Steps
from ...playouts import (
    Stages,
    Ticker,
    advice_of,
    card_label,
    carriers,
    count_bits,
    each_playing,
    mean_and_error,
    race,
    race_work,
    share,
)
from .. import jewel_vault as jv
from ..base import GameState, Rules
from ..core import Facts, bits, mask_of, stepper
from .bots import HeuristicBot as JvBot

ALL_PASSES = 10
"""Jewel Vault: with at most this many possible passes every one is tried; with more (2 or 3
cards to pass) the shortlist is the :data:`ALL_PASSES` passes nearest the bot's own."""


RACE: Stages = ((0.05, 3), (0.15, 1))
"""Jewel Vault's race: after 5 % of the deals only the 3 best passes go on, after 15 % the best;
the pass under test always plays every deal."""


_JV_MODEL = (
    "Each sampled deal of the unseen cards was played from the start of the passes by the heuristic "
    "bots, the seat passing the cards under test; players who pass before the seat choose again on "
    "their sampled hand (their choices are secret). The score is what the round brings the seat's "
    "side: vault jewels 2 points, showroom jewels 1. {candidates} The passes raced on the same deals: "
    "after {first} of the deals only the {keep1} best went on, after {second} the best alone; each "
    "figure is from the deals that pass was played on."
)


def _jv_knowledge(rules: Rules[Any], view: BiddingView, seat: int) -> Knowledge:
    """What the seat knows at the start of the passes: its own hand, every hand full."""
    assert isinstance(rules, jv.JewelVault) and isinstance(view, jv.JewelVaultView)
    if view.passed[seat]:
        raise AdviceUnavailable(
            "passes are tried before you choose yours: this view has your cards already chosen", rule_id="jv.pass"
        )
    n = rules.players
    hand = tuple(view.hand)
    each = rules.cards_each
    known = tuple(hand if s == seat else () for s in range(n))
    return Knowledge(seat, known, (each,) * n, aside=len(rules.deck()) - each * n)


def _jv_pass_input(bid: object) -> Action:
    """A pass as the advisor takes it: ``Pass(...)``, its text (``"pass 2H 3S"``) or the cards
    (Card objects or their text), in the engine's order of the cards."""
    if isinstance(bid, str):
        text = bid.strip()
        words = text.split()[1:] if text.lower().startswith("pass") else text.replace(",", " ").split()
        bid = Pass(tuple(any_card(w) for w in words))
    elif isinstance(bid, (list, tuple)):
        bid = Pass(tuple(any_card(c) for c in bid))
    if not isinstance(bid, Pass):
        raise InvalidAction(f"a pass is Pass(cards), its text ('pass 2H 3S') or its cards, not {describe(bid)}")
    order = jv.CARD_IDS.id
    strange = [c for c in bid.cards if c not in order]
    if strange:
        raise InvalidAction(f"{strange[0]} is not a card of Jewel Vault", rule_id="jv.deck")
    return Pass(tuple(sorted(bid.cards, key=order.__getitem__)))


def _jv_opening(rules: jv.JewelVault, view: jv.JewelVaultView) -> jv.JewelVaultState:
    """The round at the start of the passes, as the seat knows it: the public jewels, its own
    side's vault, the announced count. Other sides' vaults are hidden: they are 0 here, as
    nothing in a round reads them and the score is the seat's side's."""
    seat = view.seat
    assert seat is not None and view.announced is not None
    state = rules.core_initial(0, None, first_dealer=view.dealer)
    vaults = tuple(v if v is not None else 0 for v in view.vaults)
    state = state._replace(round=view.round, supply=view.supply, showrooms=view.showrooms, vaults=vaults)
    return rules.core_step(state, jv.ANNOUNCE_BASE + view.announced - 1)


@dataclass(frozen=True, slots=True)
class _JvOutcome:
    """One pass's play-out of one deal: the points the round brought the seat's side, the
    tricks the seat won, the seat's cards in tricks it won, and the passed cards in tricks its
    receiver won."""

    points: int
    tricks: int
    carriers: int
    passed_won: int


class _JvPlayouts:
    """Jewel Vault play-outs of one seat's passes, on the rules' round (one live round followed
    step by step, ``stepper``): from the start of the passes,
    the pass under test at the seat's turn, the heuristic bots' ``choose_id`` everywhere else,
    to the end of the round (its end-of-round actions included)."""

    def __init__(self, rules: jv.JewelVault, view: jv.JewelVaultView, seat: int) -> None:
        self.rules = rules
        self.seat = seat
        self.bots = [JvBot(rules, s) for s in range(rules.players)]
        self.opening = _jv_opening(rules, view)
        self.side = rules.side_of(seat)
        self.receiver = rules.receiver(seat)
        self.giver = next(s for s in range(rules.players) if rules.receiver(s) == seat)
        self.before = rules.points_of(self.opening.jewels)[self.side]
        self.trick_size = rules.trick_size
        self.stepper = stepper(rules)  # one live round, followed step by step

    def run(self, hands: tuple[int, ...], action: int, passed: int) -> _JvOutcome:
        """The seat passing ``action`` (a pass id; ``passed`` its cards' mask) on one deal."""
        rules, seat, bots, receiver = self.rules, self.seat, self.bots, self.receiver
        (legal, step), core_view = self.stepper, rules.core_view
        state = rules.with_hands(self.opening, hands)
        round_index = state.round
        last = self.trick_size - 1
        final = rules.tricks_per_round - 1
        seats = range(rules.players)
        play = jv.PLAY
        pending = True
        mine = carriers = passed_won = tricks = waiting = 0  # mine: the seat's hand once the cards changed hands
        before = state.tricks_won
        while state.to_play is not None and state.round == round_index:
            mover = state.to_play
            if pending and mover == seat:
                choice = action
                pending = False
            else:
                choice = bots[mover].choose_id(core_view(state, mover), legal(state))
            if state.phase is play and len(state.trick_ids) == last:  # this card completes a trick
                if not mine:  # the seat's own cards less those it passed, and those it received
                    received = state.pass_masks[self.giver]
                    mine = hands[seat] & ~passed | (received or 0)
                waiting = mask_of(state.trick_ids) | 1 << choice  # a card's action id is its card id
                before = state.tricks_won
            winner = -1
            if waiting and state.tricks_played == final:  # the last trick: the round may end with it
                facts: Facts = []
                state = step(state, choice, facts)
                winner = next((f.seat for f, _ in facts if isinstance(f, jv.TrickWon) and f.seat is not None), -1)
            else:
                state = step(state, choice, None)
                if waiting and state.tricks_won != before:  # the trick is taken (after any action it owed)
                    winner = next(s for s in seats if state.tricks_won[s] != before[s])
            if winner >= 0:
                if winner == seat:
                    tricks += 1
                    carriers |= waiting & mine
                elif winner == receiver:
                    passed_won |= waiting & passed
                waiting = 0
        points = rules.points_of(state.jewels)[self.side] - self.before
        return _JvOutcome(points, tricks, carriers, passed_won)


def _jv_candidates(rules: jv.JewelVault, hand: int, k: int) -> list[int]:
    """The passes tried (ids): every choice of ``k`` cards if there are at most
    :data:`ALL_PASSES`, else the :data:`ALL_PASSES` nearest the bot's own pass: take the hand
    in the bot's order of the cards to pass first (``HeuristicBot.pass_order``) and rank each
    choice by the sum of its cards' places in that order (then by those places)."""
    pass_ids = jv.action_table().pass_ids
    order = JvBot.pass_order(hand)
    choices = sorted(combinations(range(len(order)), k), key=lambda places: (sum(places), places))
    if len(choices) > ALL_PASSES:
        choices = choices[:ALL_PASSES]
    return [pass_ids[mask_of(order[i] for i in places)] for places in choices]


def _advise_jv(
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
    assert isinstance(rules, jv.JewelVault) and isinstance(view, jv.JewelVaultView)
    k = view.announced
    assert k is not None, "a view in the pass phase has the announced count"
    hand = jv.CARD_IDS.mask(view.hand)
    table = jv.action_table()
    tried = None if under_test is None else _jv_tried(rules, view, under_test, hand, k)
    shortlist = _jv_candidates(rules, hand, k)
    extra = [] if tried is None or tried in shortlist else [tried]
    playouts = _JvPlayouts(rules, view, seat)
    deals = [sampler.sample_masks(rng)[0] for _ in range(samples)]
    masks = {a: table.pass_masks[a - jv.PASS_BASE] for a in [*shortlist, *extra]}

    def run(i: int, playing: Sequence[int]) -> dict[int, _JvOutcome]:
        hands = deals[i]
        return {a: playouts.run(hands, a, masks[a]) for a in playing}

    ticker.total = race_work(samples, len(shortlist), tried is not None, RACE, each_playing)
    yield from ticker.tick(0)
    outcomes = yield from race(samples, shortlist, tried, RACE, run, _points, ticker, each_playing)
    ways = math.comb(len(view.hand), k)
    if len(shortlist) == ways:
        candidates = f"All {ways} ways to pass {k} were tried."
    else:
        candidates = (
            f"Of the {ways} ways to pass {k}, the {len(shortlist)} nearest the bot's own pass were tried "
            "(the bot passes the cards of its shortest, weakest suits first)."
        )
    model = _JV_MODEL.format(
        candidates=candidates, first=f"{RACE[0][0]:.0%}", keep1=RACE[0][1], second=f"{RACE[1][0]:.0%}"
    )
    estimates = [_jv_estimate(rules, view, table.actions[a], masks[a], outcomes[a]) for a in outcomes]
    own = table.actions[shortlist[0]]  # the bot's own pass comes first
    return advice_of(rules, view, seat, samples, seed, under_test, own, estimates, model, ())


def _jv_tried(rules: jv.JewelVault, view: jv.JewelVaultView, under_test: Action, hand: int, k: int) -> int:
    """The pass under test as an id, if it is ``k`` of the seat's own cards (JV-4)."""
    assert isinstance(under_test, Pass)
    action = rules.action_id(under_test)
    if action is None or len(under_test.cards) != k or jv.CARD_IDS.mask(under_test.cards) & ~hand:
        cards = " ".join(c.pretty for c in under_test.cards) or "no card"
        raise InvalidAction(
            f"pass exactly {k} of your own cards ({' '.join(c.pretty for c in view.hand)}), not {cards}",
            rule_id="jv.pass",
        )
    return action


def _jv_estimate(
    rules: jv.JewelVault, view: jv.JewelVaultView, action: Action, passed: int, outcomes: Sequence[_JvOutcome]
) -> BidEstimate:
    count = len(outcomes)
    tricks = [0] * (rules.tricks_per_round + 1)
    scores: dict[int, int] = {}
    cards: dict[int, int] = {}
    lost: dict[int, int] = {}
    total = squares = 0
    for o in outcomes:
        tricks[o.tricks] += 1
        scores[o.points] = scores.get(o.points, 0) + 1
        total += o.points
        squares += o.points * o.points
        if o.carriers:
            count_bits(cards, o.carriers)
        if o.passed_won:
            count_bits(lost, o.passed_won)
    mean, stderr = mean_and_error(total, squares, count)
    ids = jv.CARD_IDS
    kept = ids.mask(view.hand) & ~passed
    card_wins = tuple((ids.card(c), cards.get(c, 0)) for c in bits(kept))
    estimate = BidEstimate(
        action, str(action), count, tuple(tricks), 0, 0.0, mean, stderr,
        scores=tuple(sorted(scores.items())), card_wins=card_wins,
    )  # fmt: skip
    given = tuple((ids.card(c), lost.get(c, 0)) for c in bits(passed))
    return replace(estimate, reasons=_jv_reasons(rules, estimate, given))


def _jv_reasons(rules: jv.JewelVault, estimate: BidEstimate, given: Sequence[tuple[Card, int]]) -> tuple[Reason, ...]:
    """A pass's reasons: the cards that carry the seat's tricks, how often the passed cards win
    a trick for their receiver, and how often the seat wins no trick (JV-6: two ♦ actions)."""
    n = estimate.samples
    reasons = [carriers(estimate.card_wins, n)]
    parts = [f"{card_label(c)} in {share(k, n)}" for c, k in given]
    if all(k < 0.05 * n for _, k in given):
        text = f"The cards you pass almost never win a trick for whoever gets them ({and_list(parts)} of the deals)."
    else:
        text = f"The cards you pass win a trick for the player who gets them: {and_list(parts)} of the deals."
    reasons.append(Reason("jv.pass", text, tuple(c for c, _ in given)))
    none = estimate.tricks[0]
    if none >= 0.1 * n:
        reasons.append(
            Reason(
                "jv.round-end.no-trick",
                f"You win no trick in {share(none, n)} of the deals: then you take two ♦ actions at the round's end.",
            )
        )
    return tuple(reasons)


def _points(outcome: _JvOutcome) -> float:
    return outcome.points


def round_of(state: GameState) -> int:
    assert isinstance(state, jv.JewelVaultState)
    return state.round


def hands_of(state: GameState) -> tuple[int, ...]:
    assert isinstance(state, jv.JewelVaultState)
    return state.hand_masks


def with_hands(rules: Rules[Any], state: GameState, hands: tuple[int, ...]) -> GameState:
    assert isinstance(rules, jv.JewelVault) and isinstance(state, jv.JewelVaultState)
    return rules.with_hands(state, hands)


def given(rules: Rules[Any], state: GameState, seat: int) -> tuple[int, int] | None:
    """After the exchange, the cards ``seat`` passed are in its receiver's hand (JV-4, JV-9)."""
    assert isinstance(rules, jv.JewelVault) and isinstance(state, jv.JewelVaultState)
    passed = state.pass_masks[seat]
    if not state.exchanged or passed is None:
        return None
    return rules.receiver(seat), passed


JV_ADVICE = AdvisorEntry(
    jv.JewelVaultView,
    "the pass phase",
    jv.CARD_IDS,
    round_of,
    hands_of,
    with_hands,
    _jv_pass_input,
    _advise_jv,
    given,
    _jv_knowledge,
)
