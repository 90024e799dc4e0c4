"""Oh Hell: each rule clause, and every step of many random matches against OpenSpiel's
``oh_hell`` (the legal actions, whose turn it is, who takes each trick and every deal's score)."""

from __future__ import annotations

import random

import pytest

from tricklab.actions import Predict
from tricklab.errors import IllegalAction, InvalidOption, InvalidScoreInput
from tricklab.games.oh_hell import OhHell, OhHellState
from tricklab.games.oh_hell.bots import HeuristicBot
from tricklab.games.oh_hell.facts import IDS
from tricklab.games.oh_hell.rules import BID, OVER, PLAY, deal_sizes

pytestmark = pytest.mark.engine

_OS_SUIT = {"C": 0, "D": 1, "S": 2, "H": 3}  # OpenSpiel's suit order; its card id is rank * 4 + suit


def _os_card(card_id: int) -> int:
    return (card_id % 13) * 4 + _OS_SUIT[IDS.card(card_id).suit]


def _state_with(rules: OhHell, **changes: object) -> OhHellState:
    return rules.initial_state(1, first_dealer=0)._replace(**changes)


def _hand(rules: OhHell, text: str) -> int:
    return IDS.mask(rules.cards(text))


# --- options and the deal --------------------------------------------------------------------------


def test_the_deals_go_down_from_five_by_default_and_the_options_change_them() -> None:
    assert OhHell.create(4).sizes == (5, 4, 3, 2, 1)
    assert OhHell.create(4, cards=3, direction="up").sizes == (1, 2, 3)
    assert OhHell.create(4, cards=7, direction="once").sizes == (7,)
    assert deal_sizes(OhHell.create(3, cards=17).options) == tuple(range(17, 0, -1))


@pytest.mark.parametrize(("players", "cards"), [(4, 13), (3, 18), (6, 9), (4, 0), (4, True)])
def test_a_deal_must_leave_a_card_to_turn_up(players: int, cards: object) -> None:
    with pytest.raises(InvalidOption, match="cards each") as refused:
        OhHell.create(players, cards=cards)
    assert refused.value.rule_id == "oh.deals"


@pytest.mark.parametrize("players", [2, 7])
def test_three_to_six_players(players: int) -> None:
    with pytest.raises(InvalidOption):
        OhHell.create(players)


def test_each_player_gets_the_deals_cards_and_the_next_card_sets_trump() -> None:
    rules = OhHell.create(5, cards=4)
    state = rules.initial_state(11)
    assert [len(hand) for hand in state.hands] == [4] * 5
    dealt = {c for hand in state.hands for c in hand}
    assert len(dealt) == 20 and IDS.card(state.turned) not in dealt
    assert state.trump == IDS.card(state.turned).suit
    assert rules.initial_state(11).held == state.held, "the same seed deals the same hands"


def test_the_dealer_moves_left_and_the_player_on_the_left_bids_first() -> None:
    rules = OhHell.create(4, cards=2)
    match = rules.new_match(seed=5, first_dealer=2)
    assert match.state.dealer == 2 and match.to_play == 3
    while match.state.round == 0:
        match.apply(match.legal_actions()[0])
    assert match.state.dealer == 3 and match.to_play == 0


# --- bidding ----------------------------------------------------------------------------------------


def test_bids_are_public_and_the_dealer_bids_last() -> None:
    rules = OhHell.create(4, cards=3)
    state = rules.initial_state(2, first_dealer=3)
    for seat, bid in ((0, 1), (1, 0), (2, 1)):
        assert state.to_play == seat
        state = rules.apply(state, Predict(bid))
        assert rules.view(state, (seat + 2) % 4).bids[seat] == bid, "another seat sees the bid at once"
    assert state.to_play == 3 and state.phase is BID


def test_the_dealer_may_not_make_the_bids_add_up_to_the_tricks() -> None:
    rules = OhHell.create(4, cards=3)
    state = rules.initial_state(2, first_dealer=3)
    for bid in (1, 0, 1):
        state = rules.apply(state, Predict(bid))
    assert Predict(1) not in rules.legal_actions(state)
    with pytest.raises(IllegalAction, match="may not bid 1") as refused:
        rules.apply(state, Predict(1))
    assert refused.value.rule_id == "oh.hook"
    assert rules.explain_choice(rules.view(state, 3)).rule_id == "oh.hook"
    after = rules.apply(state, Predict(2))
    assert after.phase is PLAY and after.to_play == 0, "the player on the dealer's left leads"


def test_without_the_hook_the_dealer_bids_anything_and_when_the_others_overbid_nothing_is_barred() -> None:
    free = OhHell.create(4, cards=3, hook=False)
    state = free.initial_state(2, first_dealer=3)
    for bid in (1, 0, 1):
        state = free.apply(state, Predict(bid))
    assert Predict(1) in free.legal_actions(state)
    hooked = OhHell.create(4, cards=3)
    state = hooked.initial_state(2, first_dealer=3)
    for bid in (2, 2, 0):
        state = hooked.apply(state, Predict(bid))
    assert [a.n for a in hooked.legal_actions(state) if isinstance(a, Predict)] == [0, 1, 2, 3]


def test_a_bid_above_the_cards_in_hand_is_refused() -> None:
    rules = OhHell.create(4, cards=2)
    state = rules.initial_state(2)
    with pytest.raises(IllegalAction, match="0 to 2") as refused:
        rules.apply(state, Predict(3))
    assert refused.value.rule_id == "oh.bid"
    with pytest.raises(IllegalAction) as refused:
        rules.apply(state, "play AS")
    assert refused.value.rule_id == "oh.bid"


# --- play ------------------------------------------------------------------------------------------


def test_follow_suit_if_you_can_else_any_card() -> None:
    rules = OhHell.create(3, cards=3)
    hands = (_hand(rules, "2S 9H KD"), _hand(rules, "3S AH 4C"), _hand(rules, "5H 6H 7D"))
    state = _state_with(rules, phase=PLAY, to_play=0, leader=0, size=3, held=hands, bids=(1, 1, 0))
    state = rules.apply(state, "play 2S")
    assert [str(a) for a in rules.legal_actions(state)] == ["play 3S"]
    with pytest.raises(IllegalAction, match="spades ♠ were led") as refused:
        rules.apply(state, "play AH")
    assert refused.value.rule_id == "oh.follow"
    state = rules.apply(state, "play 3S")
    assert {str(a) for a in rules.legal_actions(state)} == {"play 5H", "play 6H", "play 7D"}
    assert rules.explain_choice(rules.view(state, 2)).rule_id == "oh.follow.void"


def test_the_highest_trump_takes_the_trick_else_the_highest_of_the_led_suit() -> None:
    rules = OhHell.create(4)
    assert rules.resolve_trick("KH AH 2S 3H", trump="S").winner == 2
    assert rules.resolve_trick("KH AH 2S 3S", trump="S").winner == 3
    assert rules.resolve_trick("KH AD AC 3H", trump="S").winner == 0, "an off-suit Ace takes nothing"
    outcome = rules.resolve_trick("KH AD 2S 3H", trump="S")
    ids = {r.rule_id for r in outcome.reasons}
    assert {"oh.trick", "oh.rank.trump"} <= ids
    assert rules.resolve_trick("KH QH", trump=None).winner == 0
    with pytest.raises(InvalidOption):
        rules.resolve_trick("KH QH")


def test_the_taker_leads_the_next_trick_and_the_deal_is_scored() -> None:
    rules = OhHell.create(3, cards=2, direction="once")
    hands = (_hand(rules, "AS 2H"), _hand(rules, "KS 3H"), _hand(rules, "QS 4D"))
    state = _state_with(
        rules, phase=PLAY, to_play=0, leader=0, size=2, held=hands, bids=(2, 0, 1), turned=IDS.id[rules.card("5C")]
    )
    for card in ("AS", "KS", "QS"):
        state = rules.apply(state, f"play {card}")
    assert state.to_play == 0 and state.tricks_won == (1, 0, 0)
    for card in ("2H", "3H", "4D"):
        state = rules.apply(state, f"play {card}")
    assert state.phase is OVER and state.tricks_won == (1, 1, 0)
    assert state.round_scores == ((1, 1, 0),), "one point a trick; no one made the bid exactly"


def test_scoring_a_deal() -> None:
    rules = OhHell.create(4)
    assert rules.score_deal(bid=2, tricks=2).total == 12
    assert rules.score_deal(bid=0, tricks=0).total == 10
    assert rules.score_deal(bid=1, tricks=3).total == 3
    penalty = OhHell.create(4, penalty=True)
    assert penalty.score_deal(bid=1, tricks=3).total == -2
    assert penalty.score_deal(bid=3, tricks=3).total == 13
    with pytest.raises(InvalidScoreInput):
        rules.score_deal(bid=-1, tricks=0)


def test_a_tie_on_points_goes_to_more_exact_bids_then_is_shared() -> None:
    rules = OhHell.create(3, cards=1, direction="once")
    over = _state_with(rules, phase=OVER, to_play=None, round_scores=((11, 11, 0),), exact=(1, 1, 0))
    result = rules.result(over)
    assert result is not None and result.winners == (0, 1) and result.reasons[0].rule_id == "oh.win"
    over = over._replace(round_scores=((11, 11, 0), (0, 0, 0)), exact=(2, 1, 0))
    result = rules.result(over)
    assert result is not None and result.winners == (0,)


def test_a_seat_sees_its_own_hand_the_turned_card_and_every_bid() -> None:
    rules = OhHell.create(4)
    match = rules.new_match(seed=9)
    match.apply(match.legal_actions()[1])
    seat = match.to_play
    assert seat is not None
    view = match.view(seat)
    assert [h is None for h in view.hands] == [s != seat for s in range(4)]
    assert view.turned == IDS.card(match.state.turned)
    assert sum(b is not None for b in view.bids) == 1


def test_heuristic_bots_finish_every_match_and_the_record_replays() -> None:
    for players in (3, 5, 6):
        rules = OhHell.create(players, cards=4)
        match = rules.play(seed=players, bots="heuristic")
        assert match.is_over and match.result is not None
        again = type(match).from_json(match.to_json())
        assert again.state == match.state
        assert len(match.actions) <= rules.max_decisions


def test_the_bot_says_why() -> None:
    rules = OhHell.create(4)
    match = rules.new_match(seed=4)
    seat = match.to_play
    assert seat is not None
    decision = HeuristicBot(rules, seat).decide(match.view(seat), match.legal_actions())
    assert decision.reasons[0].rule_id.startswith("oh.") and decision.reasons[1].rule_id == "bot.oh.worth"


# --- against OpenSpiel's oh_hell ------------------------------------------------------------------------


@pytest.mark.parametrize("penalty", [False, True])
def test_same_as_openspiel_oh_hell_on_random_games(penalty: bool) -> None:
    """Each deal of a match of ours is played again in OpenSpiel's ``oh_hell`` from the same hands,
    dealer and turned card: at every decision the same player is to act with the same legal
    actions; the same player takes every trick; the deal scores the same for every player."""
    pyspiel = pytest.importorskip(
        "pyspiel", reason="open_spiel is not installed (pip install open_spiel): no OpenSpiel to compare with"
    )
    compared = 0
    for seed in range(60):
        rng = random.Random(seed)
        players = 3 + seed % 4
        rules = OhHell.create(players, cards=rng.randint(1, 51 // players), direction="down", penalty=penalty)
        ours = rules.initial_state(seed)
        while not ours.is_over:
            game = pyspiel.load_game(
                "oh_hell", {"players": players, "num_tricks_fixed": ours.size, "off_bid_penalty": penalty}
            )
            theirs = game.new_initial_state()
            theirs.apply_action(ours.size)
            theirs.apply_action(ours.dealer)
            hands = [sorted(IDS.id[c] for c in hand) for hand in ours.hands]
            for i in range(players * ours.size):
                theirs.apply_action(_os_card(hands[i % players][i // players]))
            theirs.apply_action(_os_card(ours.turned))
            deal = ours.round
            while not ours.is_over and ours.round == deal:
                assert ours.to_play == theirs.current_player(), (seed, deal)
                legal = rules.core_legal(ours)
                mapped = sorted(_os_card(a) if a < 52 else a for a in legal)
                assert mapped == sorted(theirs.legal_actions()), (seed, deal, ours.phase)
                action = legal[rng.randrange(len(legal))]
                before = ours.tricks_played
                ours = rules.core_step(ours, action)
                theirs.apply_action(_os_card(action) if action < 52 else action)
                if ours.tricks_played != before and ours.round == deal and not ours.is_over:
                    assert ours.to_play == theirs.current_player(), "the same player took the trick and leads"
                compared += 1
            assert theirs.is_terminal()
            assert tuple(int(r) for r in theirs.returns()) == ours.round_scores[deal], (seed, deal)
    assert compared > 3000


# --- advice and review ----------------------------------------------------------------------------


def test_the_advice_tries_every_bid_the_seat_may_make_and_never_deals_the_turned_card() -> None:
    from tricklab.advisor import Knowledge, advise

    rules = OhHell.create(4, cards=3)
    state = rules.initial_state(2, first_dealer=3)
    for bid in (1, 0, 1):
        state = rules.apply(state, Predict(bid))
    view = rules.view(state, 3)
    advice = advise(rules, view, samples=40, seed=5)
    assert [e.bid for e in advice.estimates] == [Predict(0), Predict(2), Predict(3)], "the hook bars 1"
    assert advice.best.bid in {e.bid for e in advice.estimates}
    for e in advice.estimates:
        assert sum(e.tricks) == e.samples and e.hits == e.tricks[e.bid.n]  # type: ignore[attr-defined]
        assert e.reasons[-1].rule_id == "oh.score"
    with pytest.raises(IllegalAction) as refused:
        advise(rules, view, bid=1, samples=4)
    assert refused.value.rule_id == "oh.hook"
    with pytest.raises(InvalidScoreInput, match="a bid is a number of tricks"):
        advise(rules, view, bid="many", samples=4)
    known = Knowledge.from_view(rules, view)
    assert known.played == (view.turned,) and known.aside == 52 - 12 - 1
    from tricklab.advisor import DealSampler

    sampler = DealSampler(rules, known)
    turned = 1 << IDS.id[view.turned]
    for _ in range(50):
        hands, aside = sampler.sample_masks(random.Random(_))
        assert not aside & turned and not any(h & turned for h in hands)


def test_the_advice_is_for_the_seat_to_bid() -> None:
    from tricklab.advisor import AdviceUnavailable, advise

    rules = OhHell.create(4)
    state = rules.initial_state(2, first_dealer=3)
    state = rules.apply(state, Predict(1))
    with pytest.raises(AdviceUnavailable, match="already made"):
        advise(rules, rules.view(state, 0), samples=4)
    with pytest.raises(AdviceUnavailable, match="at your turn to bid"):
        advise(rules, rules.view(state, 2), samples=4)  # Player 2 bids first: the dealer's bar depends on it
    assert advise(rules, rules.view(state, 1), samples=4).seat == 1


def test_a_missed_bid_under_the_penalty_variant_is_what_the_advice_counts() -> None:
    from tricklab.advisor import advise

    rules = OhHell.create(3, cards=2, penalty=True)
    state = rules.initial_state(4, first_dealer=0)
    advice = advise(rules, rules.view(state, 1), samples=30, seed=2)
    for e in advice.estimates:
        p = e.bid.n  # type: ignore[attr-defined]
        assert all(score == p + 10 or score < 0 for score, _ in e.scores), e.scores
        assert e.reasons[-1].rule_id == "oh.score.penalty"


# --- the rules as a round ------------------------------------------------------------------------


def test_a_simulation_deal_gives_every_seat_its_cards_and_turns_one_up() -> None:
    rules = OhHell.create(4, cards=7)
    source = random.Random(3)
    seen = set()
    for _ in range(50):
        state = rules.core_deal(source.getrandbits, first_dealer=2)
        assert all(bin(mask).count("1") == 7 for mask in state.held)
        every = 0
        for mask in state.held:
            assert every & mask == 0, "no card in two hands"
            every |= mask
        assert state.stock & every == 0 and every | state.stock == (1 << 52) - 1
        assert state.stock >> state.turned & 1, "the turned card is among the undealt ones"
        assert (state.phase, state.dealer, state.to_play, state.size) == (BID, 2, 3, 7)
        seen.add(state.held)
    assert len(seen) == 50, "each deal is a new one"
    assert rules.core_deal(random.Random(3).getrandbits) == rules.core_deal(random.Random(3).getrandbits)


def test_a_simulation_plays_the_round_to_the_match_end_from_its_own_deal() -> None:
    """What a play-out does: the round driven from ``core_deal``, packing a state only when asked."""
    from tricklab.games.core import PACK

    rules = OhHell.create(4, direction="once", cards=5)
    source = random.Random(8)
    for _ in range(20):
        round_ = rules.core_round(rules.core_deal(source.getrandbits), None)
        seat, listed = next(round_)
        decisions = 0
        try:
            while True:
                if decisions % 5 == 0:  # the state packed on the way says the same as the round
                    packed = round_.send(PACK)
                    assert (packed.to_play, tuple(rules.core_legal(packed))) == (seat, listed)
                seat, listed = round_.send(listed[int(source.random() * len(listed))])
                decisions += 1
        except StopIteration as end:
            over = end.value
        assert decisions + 1 == 4 * 6 and over.phase is OVER
        assert sum(over.round_scores[0]) >= 5, "every trick scores a point"
