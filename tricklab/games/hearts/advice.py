"""Hearts' advice (:mod:`tricklab.advisor`): which three cards to pass.

Of the 286 ways to pass three cards of a hand, the :data:`SHORTLIST` nearest the bot's own pass
race on the same sampled deals (:data:`HT_RACE`): all of them on the first quarter of the deals,
then the 3 best and the pass under test on every deal. Each play-out runs the hand on the core
(``core_legal``/``core_step``) from the start of the passes: the other players pass as their bots
would, the seat passes the cards tried, and every card is the heuristic bots'. Points are bad in
Hearts, so a pass's score is the points the seat takes in the hand with their sign turned: the
best pass has the highest score, the fewest points."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from ...actions import Action, Pass
from ...advisor import Advice, AdviceUnavailable, AdvisorEntry, BiddingView, BidEstimate, DealSampler, Knowledge
from ...cards import Card
from ...errors import InvalidAction, describe
from ...explain import Reason, and_list
from ...platform import Steps
from ...playouts import (
    Stages,
    Ticker,
    advice_of,
    card_label,
    count_bits,
    each_playing,
    mean_and_error,
    race,
    race_work,
    share,
)
from ..base import Rules
from ..core import bits, mask_of
from .bots import HeuristicBot, danger
from .facts import IDS
from .review import given, hands_of, round_of, with_hands
from .rules import (
    CARDS_EACH,
    DIRECTION_WORDS,
    PASS,
    PASS_BASE,
    PASSED,
    PLAYERS,
    Hearts,
    HeartsState,
    HeartsView,
    _Deal,
    hand_scores,
    pass_table,
)

SHORTLIST = 10
HT_RACE: Stages = ((0.25, 3),)
"""The race of the passes: all of the shortlist on the first quarter of the deals, then the 3 best
(and the pass under test) on every deal."""


@dataclass(frozen=True, slots=True)
class _Outcome:
    """One pass's play-out of one deal: the seat's score (its points, sign turned), the tricks it
    took, and the passed cards that came back to it in a trick it took."""

    score: int
    tricks: int
    back: int


def _pass_input(bid: object) -> Action:
    """A pass as the advisor takes it: ``Pass(...)``, its text (``"pass QS AS KH"``) or its cards."""
    if isinstance(bid, str):
        text = bid.strip()
        words = text.split()[1:] if text.lower().startswith("pass") else text.replace(",", " ").split()
        cards: list[Card] = []
        for word in words:
            found = next((c for c in IDS.cards if word.upper() in (str(c), c.pretty.upper())), None)
            if found is None:
                raise InvalidAction(f"{describe(word)} is not a card of Hearts", rule_id="ht.deck")
            cards.append(found)
        bid = Pass(tuple(cards))
    elif isinstance(bid, (list, tuple)):
        bid = Pass(tuple(bid))
    if not isinstance(bid, Pass):
        raise InvalidAction(f"a pass is Pass(cards), its text ('pass QS AH KH') or its cards, not {describe(bid)}")
    strange = [c for c in bid.cards if c not in IDS.id]
    if strange:
        raise InvalidAction(f"{describe(strange[0])} is not a card of Hearts", rule_id="ht.deck")
    return Pass(tuple(sorted(bid.cards, key=IDS.id.__getitem__)))


def _knowledge(rules: Rules[Any], view: BiddingView, seat: int) -> Knowledge:
    """What the seat knows before it passes: its own hand, every hand full."""
    assert isinstance(rules, Hearts) and isinstance(view, HeartsView)
    if view.passes[seat] is not None:
        raise AdviceUnavailable(
            "passes are tried before you choose yours: this view has your cards already chosen", rule_id="ht.pass"
        )
    if not view.direction:
        raise AdviceUnavailable("no cards are passed in this hand: there is no pass to try", rule_id="ht.pass")
    known = tuple(tuple(view.hand) if s == seat else () for s in range(PLAYERS))
    return Knowledge(seat, known, (CARDS_EACH,) * PLAYERS)


def candidates(hand: int) -> list[int]:
    """The passes tried (ids): the :data:`SHORTLIST` with the most dangerous cards by the bot's
    measure (:func:`~.bots.danger`), the bot's own pass first."""
    ids = pass_table().ids
    order = sorted(bits(hand), key=lambda c: (-danger(c, hand), -c))
    choices = sorted(combinations(range(len(order)), PASSED), key=lambda places: (sum(places), places))
    return [ids[mask_of(order[i] for i in places)] for places in choices[:SHORTLIST]]


def opening(rules: Hearts, view: HeartsView) -> HeartsState:
    """The hand at the start of the passes as the seat knows it (the hands go in per deal)."""
    empty = (0,) * PLAYERS
    return HeartsState(
        0, PASS, (view.dealer + 1) % PLAYERS, view.round, view.dealer, view.direction, empty, empty, 0, (), 0,
        empty, False, (), view.round_scores, empty,
    )  # fmt: skip


class _HandOnly(_Deal):
    """A play-out's deal: the hand played to its last trick and no further (the next hand's deal
    is of no use to it), noting what the ``watched`` seat takes: its tricks, the ``passed`` cards
    that came back to it, and its score for the hand."""

    watched, passed, tricks, back = 0, 0, 0, 0
    outcome: _Outcome | None = None

    def trick_taken(self, winner: int, cards: int, trick: tuple[int, ...]) -> HeartsState | None:
        if winner == self.watched:
            self.tricks += 1
            self.back |= cards & self.passed
        if self.number < CARDS_EACH - 1:
            return super().trick_taken(winner, cards, trick)
        hand_points, _ = hand_scores(tuple(self.taken), self.options)  # the hand's score (ht.score, ht.moon)
        self.outcome = _Outcome(-hand_points[self.watched], self.tricks, self.back)
        return self.pack(None)  # the round ends with the hand


class Playouts:
    """Hearts play-outs of one seat's passes, each on a round driven directly (``live_deal``: the
    bots read the deal's seat views between decisions, and no state is packed): from the start of
    the passes, the pass tried at the seat's turn, the heuristic bots' ``choose_id`` everywhere
    else, to the hand's end."""

    def __init__(self, rules: Hearts, view: HeartsView, seat: int) -> None:
        self.rules = rules
        self.seat = seat
        self.bots = [HeuristicBot(rules, s) for s in range(PLAYERS)]
        self.start = opening(rules, view)

    def run(self, hands: tuple[int, ...], action: int, passed: int) -> _Outcome:
        seat, bots = self.seat, self.bots
        deal, round_ = self.rules.live_deal(self.start._replace(held=hands), _HandOnly)
        assert isinstance(deal, _HandOnly)
        deal.watched, deal.passed = seat, passed
        send, seat_view = round_.send, deal.seat_view
        mover, listed = next(round_)  # type: ignore[misc]  # a round's yields are decisions unless sent PACK
        try:
            while True:
                if mover == seat and deal.phase is PASS:
                    choice = action
                else:
                    choice = bots[mover].choose_id(seat_view(mover), listed)
                mover, listed = send(choice)  # type: ignore[misc]
        except StopIteration:
            pass
        assert deal.outcome is not None, "a play-out ends with its hand"
        return deal.outcome


def _score(outcome: _Outcome) -> float:
    return outcome.score


_MODEL = (
    "{candidates} The sampled deals of the cards you cannot see were played out by the heuristic bots "
    "from the start of the passes, the other players passing as their bots would. The passes raced on "
    "the same deals: all of them on the first quarter, the 3 best and the pass tried on every deal. "
    "A pass's figure is the points you take in the hand with their sign turned: the higher, the better."
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
    assert isinstance(rules, Hearts) and isinstance(view, HeartsView)
    hand = IDS.mask(view.hand)
    table = pass_table()
    tried = None
    if under_test is not None:
        assert isinstance(under_test, Pass)
        tried = rules.action_id(under_test)
        if tried is None or len(under_test.cards) != PASSED or IDS.mask(under_test.cards) & ~hand:
            cards = " ".join(c.pretty for c in under_test.cards) or "no card"
            raise InvalidAction(
                f"pass exactly {PASSED} of your own cards ({' '.join(c.pretty for c in view.hand)}), not {cards}",
                rule_id="ht.pass",
            )
    shortlist = candidates(hand)
    extra = [] if tried is None or tried in shortlist else [tried]
    masks = {a: table.masks[a - PASS_BASE] for a in [*shortlist, *extra]}
    playouts = Playouts(rules, view, seat)
    deals = [sampler.sample_masks(rng)[0] for _ in range(samples)]

    def run(i: int, playing: Sequence[int]) -> dict[int, _Outcome]:
        return {a: playouts.run(deals[i], a, masks[a]) for a in playing}

    ticker.total = race_work(samples, len(shortlist), tried is not None, HT_RACE, each_playing)
    yield from ticker.tick(0)
    outcomes = yield from race(samples, shortlist, tried, HT_RACE, run, _score, ticker, each_playing)
    tried_ways = (
        f"Of the 286 ways to pass {PASSED} cards, the {len(shortlist)} with the most dangerous cards were tried."
    )
    estimates = [_estimate(view, table.actions[a], masks[a], outcomes[a]) for a in outcomes]
    own = table.actions[shortlist[0]]  # the bot's own pass comes first
    where = DIRECTION_WORDS[view.direction]
    model = _MODEL.format(candidates=f"{tried_ways} The cards go {where}.")
    return advice_of(rules, view, seat, samples, seed, under_test, own, estimates, model, ())


def _estimate(view: HeartsView, action: Action, passed: int, outcomes: Sequence[_Outcome]) -> BidEstimate:
    count = len(outcomes)
    tricks = [0] * (CARDS_EACH + 1)
    scores: dict[int, int] = {}
    back: dict[int, int] = {}
    total = squares = clean = 0
    for o in outcomes:
        tricks[o.tricks] += 1
        scores[o.score] = scores.get(o.score, 0) + 1
        total += o.score
        squares += o.score * o.score
        clean += o.score == 0
        if o.back:
            count_bits(back, o.back)
    mean, stderr = mean_and_error(total, squares, count)
    estimate = BidEstimate(
        action, str(action), count, tuple(tricks), 0, 0.0, mean, stderr,
        scores=tuple(sorted(scores.items())),
    )  # fmt: skip
    returned = tuple((IDS.card(c), back.get(c, 0)) for c in bits(passed))
    return replace(estimate, reasons=_reasons(estimate, clean, returned))


def _reasons(estimate: BidEstimate, clean: int, returned: Sequence[tuple[Card, int]]) -> tuple[Reason, ...]:
    """A pass's reasons: how many points you take on average, how often none, and how often a card
    you passed comes back to you in a trick you take."""
    n = estimate.samples
    reasons = [
        Reason(
            "ht.score",
            f"You take {-estimate.mean:.1f} points on average in this hand, and none in {share(clean, n)} "
            "of the deals.",
        )
    ]
    back = [f"{card_label(c)} in {share(k, n)}" for c, k in returned if k >= 0.05 * n]
    if back:
        reasons.append(
            Reason(
                "ht.pass",
                f"A card you pass can come back to you in a trick you take: {and_list(back)} of the deals.",
                tuple(c for c, k in returned if k >= 0.05 * n),
            )
        )
    return tuple(reasons)


HT_ADVICE = AdvisorEntry(
    HeartsView,
    "the passes",
    IDS,
    round_of,
    hands_of,
    with_hands,
    _pass_input,
    _advise,
    given,
    _knowledge,
)
