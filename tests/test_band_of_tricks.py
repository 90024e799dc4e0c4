"""Band of Tricks: every rule clause, every worked example of the rule sheet, every bad input.

Tests assert on rule ids and numbers, never on prose. States for situations a seeded deal
would rarely produce (a Metal win, a tie after the last deal) are built directly.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import tricklab
from tricklab import AssignMetal, Bid, Match, Play
from tricklab.cards import BAND_SUITS
from tricklab.errors import (
    IllegalAction,
    InvalidAction,
    InvalidCard,
    InvalidOption,
    InvalidScoreInput,
    InvalidTrick,
    RecordError,
)
from tricklab.games.band_of_tricks import ALL_BIDS, ASSIGN, BID, IDS, OVER, PLAY, BandOfTricks, BandOfTricksState
from tricklab.match import _digest

ZERO = Bid(zero=True)


def get(players: int = 4, **options: Any) -> BandOfTricks:
    rules = tricklab.get_rules("band-of-tricks", players=players, **options)
    assert isinstance(rules, BandOfTricks)
    return rules


def ids(reasons: Any) -> list[str]:
    return [r.rule_id for r in reasons]


def names(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def setup(
    rules: BandOfTricks,
    hands: list[str],
    bids: list[Bid],
    *,
    leader: int = 0,
    trick: str = "",
    won: list[tuple[int, int, int, int]] | None = None,
    deal: int = 0,
    deal_scores: tuple[tuple[int, ...], ...] = (),
) -> BandOfTricksState:
    """A state in the play phase with the given hands; tricks played follow from the hand sizes."""
    n = rules.players
    base = rules.initial_state(0, start_player=leader)
    played = rules.cards(trick)
    in_hands = [rules.cards(h) for h in hands]
    ids = tuple(IDS.id[c] for c in played)
    follow = next((BAND_SUITS.index(c.suit) for c in played if c.suit != "M"), -1)
    return base._replace(
        phase=PLAY,
        to_play=(leader + len(played)) % n,
        deal=deal,
        start_player=leader,
        held=tuple(IDS.mask(h) for h in in_hands),
        bid_ids=tuple(ALL_BIDS.index(b) for b in bids),
        leader=leader,
        trick_ids=ids,
        follow=follow,
        best=rules.resolve_trick(played).winner if played else -1,
        suits_in=sum(1 << i for i, s in enumerate(BAND_SUITS) if any(c.suit == s for c in played)),
        tricks_played=rules.cards_each - len(in_hands[leader]),
        won=tuple(won) if won else tuple((0, 0, 0, 0) for _ in range(n)),
        deal_scores=deal_scores,
    )


def play_all(rules: BandOfTricks, state: BandOfTricksState, cards: str, log: list[Any] | None = None) -> Any:
    for text in cards.split():
        state = rules.apply(state, Play(rules.card(text)), log)
    return state


# --- rulebook, registry, players, deck ------------------------------------------------------


def test_rulebook_cites_every_ruling_and_names_its_options() -> None:
    book = get().rulebook
    assert {c.ruling for c in book.values() if c.ruling} == {f"BT-{i}" for i in range(1, 9)}
    assert all(rule_id.startswith("bt.") for rule_id in book)
    assert all(c.title and c.text for c in book.values())
    assert {c.option for c in book.values() if c.option} == {"start_player", "max_extra_deals"}
    text = book.to_text()
    assert all(rule_id in text for rule_id in book)


@pytest.mark.parametrize("name", ["band-of-tricks", "Band of Tricks", "bt", "BAND_OF_TRICKS"])
def test_registry_finds_the_game(name: str) -> None:
    assert "band-of-tricks" in tricklab.games()
    assert isinstance(tricklab.get_rules(name, players=4), BandOfTricks)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_three_to_five_players(players: int) -> None:
    assert get(players).players == players


@pytest.mark.parametrize("players", [2, 6, 0, -4, "4", 4.0, True, None])
def test_other_player_counts_are_refused(players: Any) -> None:
    with pytest.raises(InvalidOption) as info:
        tricklab.get_rules("band-of-tricks", players=players)
    assert info.value.rule_id == "bt.players"


@pytest.mark.parametrize("cap", [-1, 101, "3", True, 2.5])
def test_bad_extra_deal_limits_are_refused(cap: Any) -> None:
    with pytest.raises(InvalidOption) as info:
        get(4, max_extra_deals=cap)
    assert info.value.rule_id == "bt.win.limit"
    with pytest.raises(InvalidOption, match="no option"):
        get(4, trump="R")


def test_deck_has_forty_cards_in_the_printed_numbers() -> None:
    deck = get().deck()
    assert len(deck) == len(set(deck)) == 40
    numbers = {suit: sorted(c.rank for c in deck if c.suit == suit) for suit in "RSPM"}
    assert numbers == {
        "R": list(range(7, 16)),
        "S": list(range(4, 15)),
        "P": list(range(1, 14)),
        "M": list(range(10, 17)),
    }


def test_card_notation_round_trips() -> None:
    rules = get()
    for card in rules.deck():
        assert rules.card(str(card)) == card
        assert rules.card(card) is card
    assert str(rules.card("r13")) == "R13"
    assert str(rules.card(" m10 ")) == "M10"


@pytest.mark.parametrize(
    "text", ["R6", "R16", "S3", "S15", "P0", "P14", "M9", "M17", "X5", "13R", "", "R", "QH", 13, None]
)
def test_bad_cards_are_refused(text: Any) -> None:
    with pytest.raises(InvalidCard):
        get().card(text)


# --- the four printed tricks and the must-follow examples -----------------------------------


def test_printed_one_suit_trick() -> None:
    out = get().resolve_trick(["P3", "P4", "P11", "P13"])
    assert out.winner == 3
    assert names(out.ranked_cards) == ["P13", "P11", "P4", "P3"]
    assert ids(out.reasons)[0] == "bt.one-suit"


def test_printed_two_suit_trick() -> None:
    out = get().resolve_trick(["P3", "S5", "P11", "S8"])
    assert out.winner == 3
    assert names(out.ranked_cards) == ["S8", "S5", "P11", "P3"]
    assert ids(out.reasons)[0] == "bt.two-suits"
    s8_over_p11 = [r for r in out.reasons if names(r.cards) == ["S8", "P11"]]
    assert ids(s8_over_p11) == ["bt.cycle"]


def test_printed_three_suit_trick_later_card_wins_a_tie() -> None:
    out = get().resolve_trick(["P3", "S5", "R13", "M13"])
    assert out.winner == 3
    assert names(out.ranked_cards) == ["M13", "R13", "S5", "P3"]
    assert ids(out.reasons)[:2] == ["bt.three-suits", "bt.tie.later"]
    m13_over_r13 = [r for r in out.reasons if names(r.cards) == ["M13", "R13"]]
    assert ids(m13_over_r13) == ["bt.tie.later"]


def test_printed_metal_played_against_pops_is_allowed_and_loses() -> None:
    rules = get()
    # Player C holds Pops but may play Metal; Metal then loses to Pops in the two-suit trick.
    assert set(names(rules.legal_plays("P8 M10 R9 S6", trick="P3 P4"))) == {"P8", "M10"}
    out = rules.resolve_trick("P3 P4 M10 P13")
    assert out.winner == 3
    assert names(out.ranked_cards) == ["P13", "P4", "P3", "M10"]
    assert "bt.metal.loses" in ids(out.reasons)


def test_printed_metal_lead_then_pops_must_be_followed() -> None:
    rules = get()
    assert set(names(rules.legal_plays("P4 R9 S6", trick="M10"))) == {"P4", "R9", "S6"}
    assert names(rules.legal_plays("P11 R9 S6", trick="M10 P4")) == ["P11"]
    assert names(rules.legal_plays("P13 R9 S6", trick="M10 P4 P11")) == ["P13"]
    out = rules.resolve_trick("M10 P4 P11 P13")
    assert out.winner == 3
    assert ids(out.reasons)[0] == "bt.two-suits"


@pytest.mark.parametrize("trick", ["P3 P4 M10 P13", "M10 P4 P11 P13", "P3 P4 P11 P13", "P3 S5 P11 S8", "P3 S5 R13 M13"])
def test_every_other_card_gets_a_reason_against_the_winner(trick: str) -> None:
    rules = get()
    out = rules.resolve_trick(trick)
    winner = out.winning_card
    for i, card in enumerate(out.cards):
        if i != out.winner:
            assert [r for r in out.reasons if r.cards == (winner, card)], card
    assert all(r.rule_id in rules.rulebook and r.text for r in out.reasons)


# --- winning a trick (BT-5) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("trick", "winner"),
    [
        ("R7 S14", "R7"),
        ("S14 R7", "R7"),
        ("S4 P13", "S4"),
        ("P13 S4", "S4"),
        ("P1 R15", "P1"),
        ("R15 P1", "P1"),
        ("R9 S14 R7 S4", "R9"),
    ],
)
def test_two_suits_rock_soul_pops(trick: str, winner: str) -> None:
    out = get().resolve_trick(trick)
    assert str(out.winning_card) == winner
    assert ids(out.reasons)[0] == "bt.two-suits"
    assert "bt.cycle" in ids(out.reasons)


def test_two_suit_ranking_puts_the_winning_suit_first() -> None:
    out = get().resolve_trick("S14 R9 S4 R7")
    assert names(out.ranked_cards) == ["R9", "R7", "S14", "S4"]


@pytest.mark.parametrize("other", ["R7", "S4", "P1"])
@pytest.mark.parametrize("metal_first", [True, False])
def test_metal_loses_a_two_suit_trick(other: str, metal_first: bool) -> None:
    trick = ["M16", other] if metal_first else [other, "M16"]
    out = get().resolve_trick(trick)
    assert str(out.winning_card) == other
    assert ids(out.reasons)[0] == "bt.two-suits"
    assert "bt.metal.loses" in ids(out.reasons)


def test_only_metal_is_one_suit() -> None:
    out = get().resolve_trick("M12 M16 M10")
    assert names(out.ranked_cards) == ["M16", "M12", "M10"]
    assert set(ids(out.reasons)) == {"bt.one-suit"}


@pytest.mark.parametrize(
    ("trick", "winner"),
    [("R7 S4 P13", "P13"), ("P1 R8 S9", "S9"), ("S14 R15 M16 P13", "M16"), ("M10 R11 S4", "R11")],
)
def test_three_or_more_suits_highest_number(trick: str, winner: str) -> None:
    out = get().resolve_trick(trick)
    assert str(out.winning_card) == winner
    assert ids(out.reasons)[0] == "bt.three-suits"
    assert "bt.tie.later" not in ids(out.reasons)


def test_equal_numbers_the_later_card_wins_and_places_higher() -> None:
    out = get(5).resolve_trick("R10 S10 M10 P2")
    assert names(out.ranked_cards) == ["M10", "S10", "R10", "P2"]
    assert "bt.tie.later" in ids(out.reasons)
    out = get(4).resolve_trick("M13 P13 S5")
    assert str(out.winning_card) == "P13"


def test_equal_numbers_in_two_suits_go_by_suit() -> None:
    out = get().resolve_trick("R10 S10")
    assert str(out.winning_card) == "R10"
    assert "bt.tie.later" not in ids(out.reasons)


def test_partial_tricks_rank_what_was_played() -> None:
    rules = get()
    out = rules.resolve_trick("S5 P11")
    assert out.winner == 0
    single = rules.resolve_trick(["P3"])
    assert single.winner == 0 and single.ranking == (0,)
    assert ids(single.reasons) == ["bt.trick"]
    assert rules.resolve_trick([rules.card("P3"), "S5"]).winner == 1


def test_bad_tricks_are_refused() -> None:
    rules = get(4)
    with pytest.raises(InvalidTrick) as info:
        rules.resolve_trick("P3 P3")
    assert info.value.rule_id == "bt.deck"
    with pytest.raises(InvalidTrick) as info:
        rules.resolve_trick("P3 P4 P5 P6 P7")
    assert info.value.rule_id == "bt.trick"
    with pytest.raises(InvalidTrick):
        get(3).resolve_trick("P3 P4 P5 P6")
    assert get(5).resolve_trick("P3 P4 P5 P6 P7").winner == 4
    with pytest.raises(InvalidCard):
        rules.resolve_trick("P3 X9")
    with pytest.raises(InvalidOption):
        rules.resolve_trick("")
    with pytest.raises(InvalidOption):
        rules.resolve_trick("P3 S5", trump="R")


# --- following (BT-4) -------------------------------------------------------------------------


def test_any_card_may_lead() -> None:
    assert names(get().legal_plays("R7 S4 P2 M11")) == ["R7", "S4", "P2", "M11"]


def test_follow_the_suit_or_play_metal() -> None:
    assert set(names(get().legal_plays("R7 S4 P2 P9 M11", trick="P5"))) == {"P2", "P9", "M11"}


def test_metal_is_always_allowed() -> None:
    assert "M11" in names(get().legal_plays("S4 S9 M11", trick="S5"))


def test_without_the_suit_anything_goes() -> None:
    assert set(names(get().legal_plays("R7 S4 M11", trick="P5"))) == {"R7", "S4", "M11"}


def test_metal_sets_no_suit_the_first_other_card_does() -> None:
    rules = get(5)
    assert set(names(rules.legal_plays("R7 S4 M11", trick="M10"))) == {"R7", "S4", "M11"}
    assert set(names(rules.legal_plays("R7 S4 M11", trick="M10 M12"))) == {"R7", "S4", "M11"}
    assert set(names(rules.legal_plays("R7 S4 M11", trick="M10 S5"))) == {"S4", "M11"}
    assert names(rules.legal_plays("S4 P2", trick="M10 S5 P3")) == ["S4"]
    assert rules.suit_to_follow("M10 M12") is None
    assert rules.suit_to_follow("M10 S5 P3") == "S"


def test_bad_legal_plays_questions_are_refused() -> None:
    rules = get(4)
    with pytest.raises(InvalidTrick):
        rules.legal_plays("P2 P2", trick="P5")
    with pytest.raises(InvalidTrick):
        rules.legal_plays("P2 P5", trick="P5")
    with pytest.raises(InvalidTrick):
        rules.legal_plays("P2", trick="P5 P6 P7 P8")
    with pytest.raises(InvalidCard):
        rules.legal_plays("P2 Z1", trick="P5")
    with pytest.raises(InvalidOption):
        rules.legal_plays("P2", trick="P5", trump_broken=True)


# --- scoring (BT-7): the score card examples (a)-(f) -----------------------------------------

BID_A = {"rock": 1, "soul": 3, "pops": 0}
BID_B = {"rock": 1, "soul": 3, "pops": 1}  # (a) plus one Metal win planned in Pops


def statuses(score: Any) -> dict[str, tuple[int, str]]:
    return {line.key: (line.points, line.status) for line in score.lines}


def test_example_a_a_zero_bid_starts_in_success() -> None:
    score = get().score_deal(bid=BID_A, won={"rock": 0, "soul": 0, "pops": 0})
    assert statuses(score) == {"rock": (-1, "short"), "soul": (-3, "short"), "pops": (1, "success")}
    assert score.total == -3


def test_example_b_metal_planned_in_pops() -> None:
    score = get().score_deal(bid=BID_B, won={"rock": 1, "soul": 3, "pops": 1})
    assert statuses(score) == {"rock": (2, "success"), "soul": (4, "success"), "pops": (2, "success")}
    assert score.total == 8


def test_example_c_zero_success_kept() -> None:
    assert get(4).score_deal(bid="zero", won={"rock": 0, "soul": 0, "pops": 0}).total == 4
    assert statuses(get(4).score_deal(bid="zero", won={})) == {"zero": (4, "success")}


def test_example_d() -> None:
    score = get().score_deal(bid=BID_A, won={"rock": 1, "soul": 3, "pops": 0})
    assert statuses(score) == {"rock": (2, "success"), "soul": (4, "success"), "pops": (1, "success")}
    assert score.total == 7


def test_example_e() -> None:
    score = get().score_deal(bid=BID_B, won={"rock": 2, "soul": 1, "pops": 1})
    assert statuses(score) == {"rock": (-1, "overrun"), "soul": (-2, "short"), "pops": (2, "success")}
    assert score.total == -1
    assert "1" in score["rock"].detail and "2" in score["soul"].detail


def test_example_f_zero_success_broken() -> None:
    score = get().score_deal(bid="zero", won={"rock": 1, "soul": 0, "pops": 0})
    assert score.total == -1
    assert statuses(score) == {"zero": (-1, "overrun")}
    assert ids(score.reasons) == ["bt.score.zero"]


@pytest.mark.parametrize(("players", "points"), [(3, 6), (4, 4), (5, 3)])
def test_zero_success_depends_on_the_player_count(players: int, points: int) -> None:
    rules = get(players)
    assert rules.score_deal(bid="zero", won={}).total == points == rules.zero_success_points


def test_zero_success_loses_a_point_per_trick_metal_included() -> None:
    rules = get(3)
    assert rules.score_deal(bid="zero", won={"rock": 2, "pops": 1, "metal": 2}).total == -5
    assert rules.score_deal(bid={"rock": 0, "soul": 0, "pops": 0}, won={"soul": 1}).total == -1


def test_overrun_scores_minus_the_extra_tricks_only() -> None:
    score = get().score_deal(bid={"rock": 2}, won={"rock": 5, "soul": 1})
    assert statuses(score) == {"rock": (-3, "overrun"), "soul": (-1, "overrun"), "pops": (1, "success")}
    assert score.total == -3
    assert ids(score.reasons) == ["bt.score.overrun", "bt.score.overrun", "bt.score.success", "bt.score.deal"]


def test_short_scores_minus_the_missing_tricks() -> None:
    score = get().score_deal(bid={"rock": 6, "soul": 2, "pops": 4}, won={"rock": 2, "soul": 2, "pops": 0})
    assert statuses(score) == {"rock": (-4, "short"), "soul": (3, "success"), "pops": (-4, "short")}
    assert "bt.score.short" in ids(score.reasons)


def test_score_totals_are_the_sum_of_their_lines_and_accept_bid_actions() -> None:
    rules = get()
    for bid in (BID_A, BID_B, "zero", Bid(2, 0, 5), ZERO, "ZERO"):
        for won in ({"rock": 1}, {"soul": 3, "pops": 2}, {}):
            score = rules.score_deal(bid=bid, won=won)
            assert score.total == sum(line.points for line in score.lines)
            assert all(line.detail for line in score.lines)
    assert rules.score_deal(bid=Bid(1, 3, 0), won={"rock": 1, "soul": 3}).total == 7


@pytest.mark.parametrize(
    ("bid", "rule"),
    [
        ({"rock": 7}, "bt.bid"),
        ({"rock": -1}, "bt.bid"),
        ({"soul": 1.5}, "bt.bid"),
        ({"pops": "2"}, "bt.bid"),
        ({"rock": True}, "bt.bid"),
        ({"hearts": 1}, "bt.bid"),
        ({"metal": 1}, "bt.bid.metal"),
        ("all", "bt.bid"),
        (3, "bt.bid"),
        (None, "bt.bid"),
        (Bid(7, 0, 0), "bt.bid"),
        (Bid(1, 0, 0, zero=True), "bt.bid.zero"),
    ],
)
def test_bad_bids_are_refused_by_scoring(bid: Any, rule: str) -> None:
    with pytest.raises(InvalidScoreInput) as info:
        get().score_deal(bid=bid, won={})
    assert info.value.rule_id == rule


@pytest.mark.parametrize(
    ("won", "rule"),
    [
        ({"rock": -1}, "bt.score.deal"),
        ({"rock": 1.0}, "bt.score.deal"),
        ({"soul": "1"}, "bt.score.deal"),
        ({"pops": True}, "bt.score.deal"),
        ({"hearts": 1}, "bt.score.deal"),
        ([1, 3, 0], "bt.score.deal"),
        ("1 3 0", "bt.score.deal"),
        ({"rock": 11}, "bt.deal"),
        ({"rock": 5, "soul": 6}, "bt.deal"),
        ({"metal": 1}, "bt.metal.assign"),
    ],
)
def test_bad_win_counts_are_refused(won: Any, rule: str) -> None:
    with pytest.raises(InvalidScoreInput) as info:
        get(4).score_deal(bid=BID_A, won=won)
    assert info.value.rule_id == rule


def test_win_counts_are_limited_by_the_hand_size() -> None:
    assert get(3).score_deal(bid="zero", won={"rock": 13}).total == -13
    with pytest.raises(InvalidScoreInput):
        get(5).score_deal(bid="zero", won={"rock": 9})


# --- the match: deal, bids, play ------------------------------------------------------------


@pytest.mark.parametrize(("players", "each", "aside"), [(3, 13, 1), (4, 10, 0), (5, 8, 0)])
def test_the_deal_shares_all_cards_evenly(players: int, each: int, aside: int) -> None:
    rules = get(players)
    state = rules.initial_state(5)
    assert [len(h) for h in state.hands] == [each] * players
    assert len(state.aside) == aside
    everything = [c for h in state.hands for c in h] + list(state.aside)
    assert sorted(everything, key=str) == sorted(rules.deck(), key=str)
    log: list[Any] = []
    rules.initial_state(5, log)
    assert log[0][0].kind == "deal"
    assert "bt.deal" in ids(log[0][0].reasons)


def test_the_deal_follows_the_seed() -> None:
    rules = get(4)
    assert rules.initial_state(3).hands == rules.initial_state(3).hands
    assert rules.initial_state(3).hands != rules.initial_state(4).hands


def test_start_player_option_and_default() -> None:
    rules = get(4)
    match = rules.new_match(seed=1, start_player=2)
    assert (match.state.start_player, match.to_play, match.phase) == (2, 2, BID)
    again = Match.from_json(match.to_json())
    assert again.match_options == {"start_player": 2}
    assert again.state == match.state
    starts = {rules.new_match(seed=s).state.start_player for s in range(30)}
    assert len(starts) > 1
    assert rules.new_match(seed=9).state.start_player == rules.new_match(seed=9).state.start_player


@pytest.mark.parametrize("start", [4, -1, True, "1", 1.5])
def test_bad_start_players_are_refused(start: Any) -> None:
    with pytest.raises(InvalidOption) as info:
        get(4).new_match(seed=1, start_player=start)
    assert info.value.rule_id == "bt.start"


def test_unknown_match_options_are_refused() -> None:
    with pytest.raises(InvalidOption):
        get(4).new_match(seed=1, first_dealer=1)
    with pytest.raises(InvalidOption):
        get(4).initial_state(1, colour="red")


def test_bids_go_clockwise_from_the_start_player_and_are_public() -> None:
    match = get(4).new_match(seed=2, start_player=1)
    order = []
    for n, bid in enumerate(["bid 1 2 0", "bid zero", "bid 0 0 3", "bid 6 6 6"]):
        seat = match.to_play
        assert seat is not None
        order.append(seat)
        match.apply(bid)
        made = match.state.bids[seat]
        for other in range(4):
            assert match.view(other).bids[seat] == made
        if n < 3:
            assert match.phase == BID
    assert order == [1, 2, 3, 0]
    assert match.state.bids == (Bid(6, 6, 6), Bid(1, 2, 0), ZERO, Bid(0, 0, 3))
    assert (match.phase, match.to_play, match.state.leader) == (PLAY, 1, 1)


def test_all_zero_bid_is_zero_success() -> None:
    rules = get(4)
    state = rules.initial_state(1, start_player=0)
    log: list[Any] = []
    after = rules.apply(state, Bid(0, 0, 0), log)
    assert after.bids[0] == ZERO
    assert "bt.bid.zero" in ids(log[0][0].reasons)


def test_every_distinct_bid_is_offered_once() -> None:
    legal = get(4).legal_actions(get(4).initial_state(1))
    assert len(legal) == len(set(legal)) == 7**3
    assert ZERO in legal and Bid(6, 6, 6) in legal and Bid(1, 3, 0) in legal
    assert Bid(0, 0, 0) not in legal


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (Bid(7, 0, 0), "bt.bid"),
        (Bid(0, -1, 0), "bt.bid"),
        (Bid(1, 0, 0, zero=True), "bt.bid.zero"),
        (Play(BandOfTricks.create(4).card("R7")), "bt.bid"),
        (AssignMetal("rock"), "bt.bid"),
    ],
)
def test_bad_bids_are_illegal(action: Any, rule: str) -> None:
    rules = get(4)
    state = rules.initial_state(1)
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, action)
    assert info.value.rule_id == rule


@pytest.mark.parametrize(
    ("fields", "words"),
    [((0, 0, "2"), "pops must be a whole number, not '2'"), ((True, 0, 0), "rock must be a whole number, not True")],
)
def test_bids_that_are_not_whole_numbers_are_not_actions(fields: tuple[Any, ...], words: str) -> None:
    with pytest.raises(InvalidAction, match=words):
        Bid(*fields)


@pytest.mark.parametrize("text", ["bid 1 2", "bid 1 x 0", "bid zero 1", "count"])
def test_malformed_action_texts_are_refused(text: str) -> None:
    with pytest.raises(InvalidAction):
        get(4).new_match(seed=1).apply(text)


def test_illegal_plays_name_the_rule() -> None:
    rules = get(4)
    bids = [Bid(1, 1, 1)] * 4
    state = setup(rules, ["P5 R7", "P6 S9 M11", "R8 S4", "S5 S6"], bids, trick="")
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Play(rules.card("R9")))
    assert info.value.rule_id == "bt.hand"
    state = rules.apply(state, Play(rules.card("P5")))
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Play(rules.card("S9")))
    assert info.value.rule_id == "bt.follow"
    assert set(names(a.card for a in rules.legal_actions(state))) == {"P6", "M11"}  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Bid(1, 1, 1))
    assert info.value.rule_id == "bt.trick"
    state = rules.apply(state, Play(rules.card("M11")))  # Metal although holding Pops
    state = rules.apply(state, Play(rules.card("S4")))  # no Pops: anything goes
    assert state.trick == rules.cards("P5 M11 S4")


def test_play_events_cite_the_following_rules() -> None:
    rules = get(4)
    state = setup(rules, ["M10 R7", "P6 S9 M11", "R8 S4", "S5 P2"], [Bid(1, 1, 1)] * 4)
    log: list[Any] = []
    play_all(rules, state, "M10 P6 R8 P2", log)
    plays = [event for event, _ in log if event.kind == "play"]
    assert [ids(e.reasons) for e in plays] == [
        ["bt.follow.open"],
        ["bt.follow.open"],
        ["bt.follow.void"],
        ["bt.follow"],
    ]


def test_the_winner_leads_the_next_trick() -> None:
    rules = get(4)
    state = setup(rules, ["P5 R7", "P6 S9", "P13 S4", "P2 S6"], [Bid(1, 1, 1)] * 4, leader=1)
    log: list[Any] = []
    after = play_all(rules, state, "P6 P13 P2 P5", log)
    assert (after.leader, after.to_play, after.phase) == (2, 2, PLAY)
    assert after.won[2] == (0, 0, 1, 0)
    assert after.won_cards[2] == rules.cards("P2 P5 P6 P13")  # the cards won, in hand order
    trick = next(e for e, _ in log if e.kind == "trick")
    assert "bt.lead.next" in ids(trick.reasons)
    assert trick.data["counts_for"] == "pops"


# --- Metal wins (BT-6) ------------------------------------------------------------------------


def metal_win_state(bid: Bid, won: tuple[int, int, int, int]) -> tuple[BandOfTricks, BandOfTricksState]:
    rules = get(4)
    bids = [bid, Bid(1, 1, 1), Bid(1, 1, 1), Bid(1, 1, 1)]
    wins = [won, (2, 2, 0, 0), (1, 0, 1, 0), (0, 0, 0, 0)]
    return rules, setup(rules, ["M16 P1", "R7 P2", "S4 P3", "P4 P5"], bids, won=wins)


def test_a_metal_win_waits_for_its_winner_to_choose_a_suit() -> None:
    rules, state = metal_win_state(Bid(1, 0, 2), (1, 0, 1, 0))
    log: list[Any] = []
    state = play_all(rules, state, "M16 R7 S4 P4", log)
    assert (state.phase, state.to_play) == (ASSIGN, 0)
    assert state.won[0] == (1, 0, 1, 0)
    assert rules.legal_actions(state) == [AssignMetal("rock"), AssignMetal("soul"), AssignMetal("pops")]
    trick = next(e for e, _ in log if e.kind == "trick")
    assert "bt.metal.assign" in ids(trick.reasons)
    # the consequence of each choice for the winner's score, seen by every seat
    choices = {c.suit: (c.won, c.points, c.change) for c in rules.view(state, 2).metal_choices}
    assert choices == {"rock": (2, -1, -3), "soul": (1, -1, -2), "pops": (2, 3, 4)}
    assert len(trick.data["choices"]) == 3
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Play(rules.card("P1")))
    assert info.value.rule_id == "bt.metal.assign"
    for bad in ("metal", "hearts"):
        with pytest.raises(InvalidAction) as refused:
            AssignMetal(bad)
        assert refused.value.rule_id == "bt.metal.assign"
    log = []
    after = rules.apply(state, AssignMetal("pops"), log)
    assert after.won[0] == (1, 0, 2, 0)
    assert after.last_trick is not None and after.last_trick.counts_for == "pops"
    assert (after.phase, after.to_play, after.leader) == (PLAY, 0, 0)
    assert [e.kind for e, _ in log] == ["count"]
    assert ids(log[0][0].reasons) == ["bt.metal.assign"]


def test_the_count_action_reads_back_from_text() -> None:
    rules, state = metal_win_state(Bid(1, 0, 2), (1, 0, 1, 0))
    state = play_all(rules, state, "M16 R7 S4 P4")
    action = rules.parse_action("count Soul")
    assert rules.apply(state, action).won[0] == (1, 1, 1, 0)


def test_under_zero_success_a_metal_win_simply_counts() -> None:
    rules, state = metal_win_state(ZERO, (0, 0, 0, 0))
    log: list[Any] = []
    state = play_all(rules, state, "M16 R7 S4 P4", log)
    assert (state.phase, state.to_play) == (PLAY, 0)
    assert state.won[0] == (0, 0, 0, 1)
    assert all(isinstance(a, Play) for a in rules.legal_actions(state))
    trick = next(e for e, _ in log if e.kind == "trick")
    assert "bt.metal.zero" in ids(trick.reasons)
    assert rules.view(state, 0).metal_choices == ()


def test_counting_the_last_trick_of_a_deal_scores_it() -> None:
    rules = get(4)
    bids = [Bid(0, 1, 0), Bid(1, 1, 1), Bid(1, 1, 1), Bid(1, 1, 1)]
    state = setup(rules, ["M16", "R7", "S4", "P4"], bids)
    state = play_all(rules, state, "M16 R7 S4 P4")
    assert state.phase == ASSIGN and state.deal_scores == ()
    log: list[Any] = []
    after = rules.apply(state, AssignMetal("soul"), log)
    assert [e.kind for e, _ in log] == ["count", "score", "deal"]
    # Player 1: Rock 0/0 +1, Soul 1/1 +2, Pops 0/0 +1; the others won nothing: -3 each
    assert after.deal_scores == ((4, -3, -3, -3),)
    assert (after.deal, after.phase, after.start_player) == (1, BID, 1)


# --- deals and the end (BT-2, BT-7, BT-8) ---------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_as_many_deals_as_players_with_the_start_player_moving(players: int) -> None:
    rules = get(players)
    match = rules.play(seed=21, bots="heuristic")
    result = match.result
    assert result is not None
    deals = [s for s in match.timeline() if s.event.kind == "deal"]
    first = deals[0].event.data["start_player"]
    assert [s.event.data["start_player"] for s in deals] == [(first + k) % players for k in range(len(deals))]
    assert len(match.state.deal_scores) == len(deals) >= players
    if result.tie_break is None:
        assert len(deals) == players
        assert ids(result.reasons) == ["bt.win"]
    for step in match.timeline():
        if step.event.kind == "score":
            state = step.state
            for seat in range(players):
                bid = state.bids[seat]
                won = dict(zip(("rock", "soul", "pops", "metal"), state.won[seat], strict=True))
                if not bid.zero:
                    assert won.pop("metal") == 0
                assert state.deal_scores[-1][seat] == rules.score_deal(bid=bid, won=won).total
            assert "bt.score.deal" in ids(step.event.reasons) or "bt.score.zero" in ids(step.event.reasons)


def last_trick_of(rules: BandOfTricks, deal: int, before: tuple[tuple[int, ...], ...]) -> BandOfTricksState:
    """Three players, the last trick of ``deal``: Player 1 will score 16, the others 6 each."""
    bids = [Bid(4, 4, 5), ZERO, ZERO]
    won = [(4, 4, 4, 0), (0, 0, 0, 0), (0, 0, 0, 0)]
    return setup(rules, ["P13", "P1", "P2"], bids, won=won, deal=deal, deal_scores=before)


def test_a_tie_after_the_last_deal_brings_an_extra_deal() -> None:
    rules = get(3)
    log: list[Any] = []
    state = play_all(rules, last_trick_of(rules, 2, ((-10, 0, -5), (0, 0, 0))), "P13 P1 P2", log)
    assert state.totals == (6, 6, 1)
    assert (state.phase, state.deal, state.start_player) == (BID, 3, 1)
    assert [e.kind for e, _ in log][-3:] == ["score", "tie", "deal"]
    assert "bt.win.tie" in ids(log[-2][0].reasons)
    assert "bt.win.tie" in ids(log[-1][0].reasons)
    assert rules.view(state, 0).extra_deal
    assert rules.result(state) is None


def test_a_single_leader_wins_even_if_others_tie_below() -> None:
    rules = get(3)
    state = play_all(rules, last_trick_of(rules, 2, ((-5, 0, 0), (0, 0, 0))), "P13 P1 P2")
    assert state.phase == OVER
    result = rules.result(state)
    assert result is not None
    assert (result.totals, result.winners, result.tie_break) == ((11, 6, 6), (0,), None)
    assert ids(result.reasons) == ["bt.win"]


def test_an_extra_deal_that_breaks_the_tie_ends_the_game() -> None:
    rules = get(3)
    log: list[Any] = []
    state = play_all(rules, last_trick_of(rules, 3, ((0, 0, 0),) * 3), "P13 P1 P2", log)
    result = rules.result(state)
    assert result is not None
    assert (result.winners, result.tie_break) == ((0,), "extra deals")
    assert ids(result.reasons) == ["bt.win.tie"]
    assert log[-1][0].kind == "end"
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, ZERO)
    assert info.value.rule_id == "bt.over"
    assert rules.legal_actions(state) == []


def test_the_extra_deal_limit_ends_a_lasting_tie_with_a_shared_victory() -> None:
    rules = get(3, max_extra_deals=0)
    state = play_all(rules, last_trick_of(rules, 2, ((-10, 0, 0), (0, 0, 0))), "P13 P1 P2")
    result = rules.result(state)
    assert result is not None
    assert (result.totals, result.winners, result.tie_break) == ((6, 6, 6), (0, 1, 2), "shared")
    assert ids(result.reasons) == ["bt.win.limit"]
    capped = get(3, max_extra_deals=2)
    state = play_all(capped, last_trick_of(capped, 4, ((-10, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0))), "P13 P1 P2")
    assert capped.result(state) is not None
    state = play_all(capped, last_trick_of(capped, 3, ((-10, 0, 0), (0, 0, 0), (0, 0, 0))), "P13 P1 P2")
    assert (state.phase, state.deal) == (BID, 4)


# --- views and records ------------------------------------------------------------------------


def test_views_hide_other_hands_but_show_bids_and_scores() -> None:
    rules = get(5)
    match = rules.new_match(seed=4, start_player=0)
    match.apply("bid 1 0 2")
    view = match.view(3)
    assert view.hand == match.state.hands[3]
    assert [h is None for h in view.hands] == [True, True, True, False, True]
    assert view.bids[0] == Bid(1, 0, 2)
    assert view.hand_sizes == (8,) * 5
    assert view.aside_size == 0
    assert match.view(None).hand == ()


def test_records_replay_and_refuse_tampering() -> None:
    match = get(4).play(seed=13, bots="heuristic", start_player=3)
    again = Match.from_json(match.to_json())
    assert again.states == match.states
    assert again.match_options == {"start_player": 3}
    record = json.loads(match.to_json())
    record["match_options"] = {"start_player": 7}
    with pytest.raises(RecordError, match="digest"):
        Match.from_json(json.dumps(record))
    del record["digest"]
    record["digest"] = _digest(record)
    with pytest.raises(RecordError, match="start_player"):
        Match.from_json(json.dumps(record))
    record = json.loads(match.to_json())
    record["actions"][5] = "count rock"  # a bid is due there
    del record["digest"]
    record["digest"] = _digest(record)
    with pytest.raises(RecordError, match="action 6"):
        Match.from_json(json.dumps(record))


# --- learner sentences: a count of one meets its noun in the singular ------------------------------


def test_results_and_ties_count_one_point_as_a_point() -> None:
    rules = get(4)
    over = rules.play(seed=3, bots="heuristic").state
    one = over._replace(deal_scores=((1, 0, -2, -3), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)))
    result = rules.result(one)
    assert result is not None and result.winners == (0,)
    assert ids(result.reasons) == ["bt.win"]
    assert "with 1 point." in result.reasons[0].text and "1 points" not in result.reasons[0].text
    extra = over._replace(deal_scores=((1, 0, 0, 0),) + ((0, 0, 0, 0),) * 4)
    result = rules.result(extra)
    assert result is not None and ids(result.reasons) == ["bt.win.tie"]
    assert "1 point:" in result.reasons[0].text and "1 extra deal broke" in result.reasons[0].text


def test_scores_count_one_trick_and_one_point_in_the_singular() -> None:
    rules = get(4)
    success = rules.score_deal(bid={"rock": 0, "soul": 1, "pops": 0}, won={"rock": 0, "soul": 1, "pops": 0})
    texts = [r.text for r in success.reasons]
    assert any("so 1 point (0 + 1)" in t for t in texts)
    broken = rules.score_deal(bid="zero", won={"rock": 1, "soul": 0, "pops": 0})
    assert ids(broken.reasons) == ["bt.score.zero"]
    assert "1 trick won" in broken.reasons[0].text and "1 tricks" not in broken.reasons[0].text
    assert "won 1 trick:" in broken.lines[0].detail


# --- the core: compact state, facts and their narration, views for bots ------------------------------


def test_a_metal_play_tells_the_holding_only_to_its_player_and_the_teacher() -> None:
    rules = get(4)
    state = setup(rules, ["P5 R7", "P6 S9 M11", "R8 S4", "S5 S6"], [Bid(1, 1, 1)] * 4)
    state = rules.apply(state, Play(rules.card("P5")))
    facts = rules.facts(state, Play(rules.card("M11")))  # Player 2 still holds P6
    assert [type(f).__name__ for f, _ in facts] == ["Played"]
    fact, after = facts[0]
    own = rules.narrate(fact.seen_by(1), after)
    teacher = rules.narrate(fact.seen_by(None), after)
    other = rules.narrate(fact.seen_by(0), after)
    assert own == teacher
    assert ids(own.reasons) == ids(other.reasons) == ["bt.follow.metal"]
    assert "even while holding Pops" in own.reasons[0].text
    assert other.reasons[0].text == "Metal may always be played."
    assert other.text == own.text == "Player 2 plays Metal 11. Pops 5 is winning so far."


def test_facts_of_a_trick_won_with_metal_narrate_the_choices() -> None:
    rules, state = metal_win_state(Bid(1, 0, 2), (1, 0, 1, 0))
    state = play_all(rules, state, "M16 R7 S4")
    facts = rules.facts(state, Play(rules.card("P4")))
    assert [f.kind for f, _ in facts] == ["play", "trick"]
    trick, after = facts[1]
    assert trick.seat == 0 and after.phase == ASSIGN
    event = rules.narrate(trick, after)
    assert event.data["counts_for"] is None and len(event.data["choices"]) == 3
    # the narrator reads only public fields: a seat's view narrates the same event
    assert rules.narrate(trick, rules.view(after, 3)) == event
    assert rules.narrate(trick, rules.core_view(after, 2)) == event


def test_with_hands_replaces_the_hands_only() -> None:
    rules = get(4)
    state = rules.initial_state(3, start_player=1)
    other = rules.initial_state(4, start_player=1)
    swapped = rules.with_hands(state, other.held)
    assert swapped.hands == other.hands
    assert swapped._replace(held=state.held) == state
    assert BandOfTricks.with_hands(state, state.held) == state


def test_the_core_view_holds_only_the_own_hand() -> None:
    rules = get(5)
    match = rules.new_match(seed=4, start_player=0)
    match.apply("bid 1 0 2")
    state = match.state
    core = rules.core_view(state, 3)
    assert core.held == tuple(IDS.mask(h) if s == 3 else None for s, h in enumerate(state.hands))
    assert rules.core_view(state, None).held == state.held
    full = rules.view(state, 3)
    assert (full.held, full.bid_ids, full.trick_ids) == (core.held, core.bid_ids, core.trick_ids)
    assert full.bid_ids[0] == ALL_BIDS.index(Bid(1, 0, 2))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_bot_decides_the_same_on_action_ids_and_core_views(players: int) -> None:
    from tricklab.games.band_of_tricks.bots import HeuristicBot

    rules = get(players)
    bots = [HeuristicBot(rules, s) for s in range(players)]
    match = rules.play(seed=5, bots="heuristic")
    for state, action in zip(match.states, match.actions, strict=False):
        seat = state.to_play
        assert seat is not None
        legal = list(rules.core_legal(state))
        chosen = bots[seat].choose_id(rules.core_view(state, seat), legal)
        assert rules.actions[chosen] == action
        assert bots[seat].choose(rules.view(state, seat), rules.legal_actions(state)) == action
