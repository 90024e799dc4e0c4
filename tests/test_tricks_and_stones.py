"""Tricks & Stones: one or more tests per rule clause (ids in the test names and asserts),
the seed's worked examples, and every kind of bad input."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import tricklab
from tricklab import Move, Place, Play, Predict, Skip
from tricklab.errors import IllegalAction, InvalidCard, InvalidOption, InvalidScoreInput, InvalidTrick
from tricklab.games.tricks_and_stones.rules import GEMS, IDS, OVER, PLAY, PREDICT, TricksAndStonesState

from .conftest import play_to


def cards(rules: Any, text: str) -> list[str]:
    return [str(c) for c in rules.cards(text)]


def ranked(outcome: Any) -> list[str]:
    return [str(c) for c in outcome.ranked_cards]


def ids(outcome: Any) -> list[str]:
    return [r.rule_id for r in outcome.reasons]


# --- ts.players, ts.deck, ts.card-order -------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 2, 5, 6, "4", 4.0, True, None])
def test_ts_players_three_or_four(players: object) -> None:
    with pytest.raises(InvalidOption) as info:
        tricklab.get_rules("tricks-and-stones", players=players)  # type: ignore[arg-type]
    assert info.value.rule_id == "ts.players"


def test_ts_deck_has_32_cards_seven_to_ace(ts4: Any) -> None:
    deck = ts4.deck()
    assert len(deck) == 32 == len(set(deck))
    for suit in "SHDC":
        assert sorted(str(c) for c in deck if c.suit == suit) == sorted(
            f"{r}{suit}" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")
        )


@pytest.mark.parametrize(
    ("text", "expected"),
    [("10H", "10H"), ("TH", "10H"), ("10♥", "10H"), ("q♠", "QS"), (" kd ", "KD"), ("AS", "AS"), ("7C", "7C")],
)
def test_ts_deck_notation(ts4: Any, text: str, expected: str) -> None:
    card = ts4.card(text)
    assert str(card) == expected
    assert ts4.card(str(card)) == card
    assert ts4.card(card) is card


@pytest.mark.parametrize("text", ["6S", "2H", "AX", "", "11H", "Q", "S7", "♠Q"])
def test_ts_deck_rejects_cards_it_does_not_have(ts4: Any, text: str) -> None:
    with pytest.raises(InvalidCard) as info:
        ts4.card(text)
    assert repr(text) in str(info.value) or text in str(info.value)


def test_ts_deck_rejects_non_text(ts4: Any) -> None:
    with pytest.raises(InvalidCard):
        ts4.card(12)


def test_ts_card_order_ace_high(ts4: Any) -> None:
    out = ts4.resolve_trick(["7H", "AH", "KH", "10H"], trump="S")
    assert ranked(out) == ["AH", "KH", "10H", "7H"]
    assert "ts.rank.within" in ids(out)
    assert any("Ace" in r.text for r in out.reasons)
    assert ts4.rulebook["ts.card-order"].text


# --- ts.deal, ts.rounds ---------------------------------------------------------------------


def test_ts_deal_four_players_eight_each(ts4: Any) -> None:
    state = ts4.new_match(seed=1).state
    assert [len(h) for h in state.hands] == [8, 8, 8, 8]
    assert state.aside == ()
    assert sorted(map(str, itertools.chain(*state.hands))) == sorted(map(str, ts4.deck()))


def test_ts_deal_three_players_eight_aside_unseen(ts3: Any) -> None:
    match = ts3.new_match(seed=1)
    assert [len(h) for h in match.state.hands] == [8, 8, 8]
    assert len(match.state.aside) == 8
    assert set(match.state.aside).isdisjoint(itertools.chain(*match.state.hands))
    view = match.view(0)
    assert not hasattr(view, "aside")
    deal = match.timeline()[0]
    assert deal.event.kind == "deal"
    assert "ts.deal" in [r.rule_id for r in deal.event.reasons]


def test_ts_deal_depends_on_seed_only(ts4: Any) -> None:
    assert ts4.new_match(seed=5).state == ts4.new_match(seed=5).state
    assert ts4.new_match(seed=5).state.hands != ts4.new_match(seed=6).state.hands


def test_ts_rounds_trumps_and_dealer_rotation(ts4: Any) -> None:
    match = ts4.play(seed=2, bots="random", first_dealer=3)
    deals = [s for s in match.timeline() if s.event.kind == "deal"]
    assert [s.state.trump for s in deals] == ["S", "H", "D", "C"]
    assert [s.state.dealer for s in deals] == [3, 0, 1, 2]
    assert all("ts.rounds" in [r.rule_id for r in s.event.reasons] for s in deals)
    assert len(match.state.round_scores) == 4


def test_ts_rounds_first_dealer_option_checked(ts4: Any) -> None:
    assert ts4.new_match(seed=1, first_dealer=2).state.dealer == 2
    for bad in (4, -1, "1", True):
        with pytest.raises(InvalidOption, match="first_dealer"):
            ts4.new_match(seed=1, first_dealer=bad)


# --- ts.predict, ts.lead.first ----------------------------------------------------------------


def test_ts_predict_secret_until_all_revealed(ts4: Any) -> None:
    match = ts4.new_match(seed=3, first_dealer=0)
    assert match.phase == PREDICT and match.to_play == 1
    match.apply("predict 2")
    assert match.view(1).predictions[1] == 2
    assert match.view(2).predictions[1] is None
    assert match.view(2).predicted[1] is True
    match.apply("predict 0")
    match.apply("predict 4")
    assert match.to_play == 0
    match.apply(Predict(1))
    assert match.phase == PLAY
    assert match.view(3).predictions == (1, 2, 0, 4)
    kinds = [s.event.kind for s in match.timeline()]
    assert kinds == ["deal", "predict", "predict", "predict", "predict", "reveal"]
    assert "ts.predict" in [r.rule_id for r in match.timeline()[-1].event.reasons]
    # the step of the last secret choice shows a seat only its own token; the reveal step shows all
    last_choice, reveal = match.timeline()[-2:]
    assert ts4.view(last_choice.state, 3).predictions == (None, None, None, 4)
    assert ts4.view(last_choice.state, 3).predicted == (True, True, True, True)
    assert ts4.view(reveal.state, 3).predictions == (1, 2, 0, 4)


@pytest.mark.parametrize("bad", [-1, 6, 9])
def test_ts_predict_range(ts4: Any, bad: int) -> None:
    match = ts4.new_match(seed=3)
    with pytest.raises(IllegalAction) as info:
        match.apply(Predict(bad))
    assert info.value.rule_id == "ts.predict"
    assert match.actions == ()
    assert match.legal_actions() == [Predict(n) for n in range(6)]


def test_ts_predict_phase_refuses_other_actions(ts4: Any) -> None:
    match = ts4.new_match(seed=3)
    card = match.state.hands[match.to_play][0]
    with pytest.raises(IllegalAction) as info:
        match.apply(Play(card))
    assert info.value.rule_id == "ts.predict"


def _predict(rules: Any, predictions: list[int], dealer: int, **options: Any) -> tricklab.Match:
    match = rules.new_match(seed=4, first_dealer=dealer, **options)
    for i in range(rules.players):
        seat = (dealer + 1 + i) % rules.players
        match.apply(Predict(predictions[seat]))
    return match


def test_ts_lead_first_lowest_prediction(ts4: Any) -> None:
    match = _predict(ts4, [3, 2, 1, 4], dealer=0)
    assert match.to_play == 2 and match.state.leader == 2
    reveal = match.timeline()[-1].event
    assert "ts.lead.first" in [r.rule_id for r in reveal.reasons]


def test_ts_lead_first_tie_goes_clockwise_from_dealers_left(ts4: Any) -> None:
    # dealer is seat 2; seats 0 and 2 tie on 1: clockwise from the dealer's left (3) meets 0 first
    match = _predict(ts4, [1, 3, 1, 4], dealer=2)
    assert match.to_play == 0
    # the dealer is checked last: dealer 0 and seat 3 tie -> seat 3 leads
    match = _predict(ts4, [0, 2, 2, 0], dealer=0)
    assert match.to_play == 3


def test_ts_lead_first_tie_option_dealer_first(ts4: Any) -> None:
    match = _predict(ts4, [0, 2, 2, 0], dealer=0, first_lead_tie="dealer")
    assert match.to_play == 0
    assert match.rules.options.first_lead_tie == "dealer"
    with pytest.raises(InvalidOption, match="first_lead_tie"):
        tricklab.get_rules("tricks-and-stones", players=4, first_lead_tie="random")


# --- ts.trick, ts.hand, ts.follow, ts.follow.void ---------------------------------------------


def test_ts_trick_one_card_each_clockwise(ts4: Any) -> None:
    match = play_to(ts4.new_match(seed=7), PLAY)
    leader = match.to_play
    for i in range(4):
        assert match.to_play == (leader + i) % 4
        match.apply(match.legal_actions()[0])
    assert match.state.tricks_played == 1
    trick = next(s for s in match.timeline() if s.event.kind == "trick")
    assert len(trick.event.data["cards"]) == 4


def test_ts_trick_partial_and_overfull(ts4: Any, ts3: Any) -> None:
    out = ts4.resolve_trick(["9D"], trump="S")
    assert out.winner == 0 and out.ranking == (0,)
    assert "ts.trick" in ids(out)
    out = ts4.resolve_trick(["9D", "10D"], trump="S")
    assert out.winner == 1
    with pytest.raises(InvalidTrick) as info:
        ts3.resolve_trick(["9D", "10D", "JD", "QD"], trump="S")
    assert info.value.rule_id == "ts.trick"
    with pytest.raises(InvalidTrick) as info:
        ts4.resolve_trick(["9D", "10D", "9D"], trump="S")
    assert info.value.rule_id == "ts.deck"
    with pytest.raises(InvalidOption):
        ts4.resolve_trick([], trump="S")


def test_ts_hand_only_own_cards(ts4: Any) -> None:
    match = play_to(ts4.new_match(seed=7), PLAY)
    other = match.state.hands[(match.to_play + 1) % 4][0]
    with pytest.raises(IllegalAction) as info:
        match.apply(Play(other))
    assert info.value.rule_id == "ts.hand"


def test_ts_follow_suit_when_able(ts4: Any) -> None:
    assert cards(ts4, " ".join(map(str, ts4.legal_plays("7H AH 8S KD", trick=["9H"], trump="S")))) == ["7H", "AH"]
    state = _play_state(ts4, hands={1: "7H AH 8S KD"}, trick="9H", leader=0)
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Play(ts4.card("8S")))
    assert info.value.rule_id == "ts.follow"
    assert "7♥" in str(info.value) or "A♥" in str(info.value)


def test_ts_follow_void_any_card_even_trump(ts4: Any) -> None:
    legal = ts4.legal_plays("8S KD 7C", trick=["9H"], trump="S")
    assert sorted(map(str, legal)) == ["7C", "8S", "KD"]
    state = _play_state(ts4, hands={1: "8S KD 7C"}, trick="9H", leader=0)
    after = ts4.apply(state, Play(ts4.card("8S")))
    assert after.trick[-1] == ts4.card("8S")


# --- ts.trump.lead, ts.trump.break -----------------------------------------------------------


def test_ts_trump_lead_forbidden_before_broken(ts4: Any) -> None:
    assert sorted(map(str, ts4.legal_plays("8S AS KD", trump="S"))) == ["KD"]
    state = _play_state(ts4, hands={0: "8S AS KD"}, trick="", leader=0)
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Play(ts4.card("AS")))
    assert info.value.rule_id == "ts.trump.lead"
    assert sorted(map(str, ts4.legal_plays("8S AS KD", trump="S", trump_broken=True))) == ["8S", "AS", "KD"]


def test_ts_trump_lead_allowed_from_all_trump_hand_and_does_not_break(ts4: Any) -> None:
    assert sorted(map(str, ts4.legal_plays("8S AS", trump="S"))) == ["8S", "AS"]
    state = _play_state(ts4, hands={0: "8S AS"}, trick="", leader=0)
    after = ts4.apply(state, Play(ts4.card("AS")))
    assert after.trump_broken is False


def test_ts_trump_break_when_void_player_trumps(ts4: Any) -> None:
    state = _play_state(ts4, hands={1: "8S KD"}, trick="9H", leader=0)
    after = ts4.apply(state, Play(ts4.card("8S")))
    assert after.trump_broken is True
    log: list[Any] = []
    ts4.apply(state, Play(ts4.card("8S")), log)
    assert "ts.trump.break" in [r.rule_id for r in log[0][0].reasons]
    # following trump when trump was led does not break it
    state = _play_state(ts4, hands={1: "8S KD"}, trick="AS", leader=0)
    assert ts4.apply(state, Play(ts4.card("8S"))).trump_broken is False
    # a void player who plays a non-trump does not break it
    state = _play_state(ts4, hands={1: "8C KD"}, trick="9H", leader=0)
    assert ts4.apply(state, Play(ts4.card("8C"))).trump_broken is False


# --- ts.rank.* ------------------------------------------------------------------------------


def test_ts_rank_order_full_ranking(ts4: Any) -> None:
    out = ts4.resolve_trick(["7H", "AH", "8S", "KD"], trump="S")
    assert out.winner == 2
    assert out.ranking == (2, 1, 0, 3)
    assert ids(out)[0] == "ts.rank.order"


def test_ts_rank_trump_beats_everything_else(ts4: Any) -> None:
    out = ts4.resolve_trick(["AH", "7C", "KH"], trump="C")
    assert ranked(out) == ["7C", "AH", "KH"]
    assert ids(out).count("ts.rank.trump") == 2


def test_ts_rank_led_suit_beats_offsuit(ts4: Any) -> None:
    out = ts4.resolve_trick(["7D", "AS", "AH", "8D"], trump="C")
    assert ranked(out) == ["8D", "7D", "AS", "AH"]
    assert "ts.rank.led" in ids(out)


def test_ts_rank_offsuit_by_suit_then_rank(ts4: Any) -> None:
    out = ts4.resolve_trick(["7D", "7C", "AC", "8H"], trump="S")
    assert ranked(out) == ["7D", "8H", "AC", "7C"]
    reasons = {(str(r.cards[0]), str(r.cards[1])): r.rule_id for r in out.reasons if r.cards}
    assert reasons[("8H", "AC")] == "ts.rank.offsuit"
    assert reasons[("AC", "7C")] == "ts.rank.within"


def test_ts_rank_within_suit_higher_first(ts4: Any) -> None:
    out = ts4.resolve_trick(["9S", "JS", "8S"], trump="S")
    assert ranked(out) == ["JS", "9S", "8S"]
    assert set(ids(out)[1:]) == {"ts.rank.within"}


def test_ts_rank_trump_led_is_both(ts4: Any) -> None:
    out = ts4.resolve_trick(["9S", "AH", "JS", "AD"], trump="S")
    assert ranked(out) == ["JS", "9S", "AH", "AD"]
    assert ids(out)[0] == "ts.rank.trump-led"


def test_ts_rank_reasons_cover_winner_and_every_neighbour(ts4: Any) -> None:
    out = ts4.resolve_trick(["7D", "7C", "AC", "8H"], trump="S")
    pairs = [tuple(str(c) for c in r.cards) for r in out.reasons if r.cards]
    winner = "7D"
    assert {p[1] for p in pairs if p[0] == winner} == {"7C", "AC", "8H"}
    order = ranked(out)
    for a, b in itertools.pairwise(order):
        assert (a, b) in pairs


def test_ts_rank_no_trump_mode_and_trump_argument(ts4: Any) -> None:
    out = ts4.resolve_trick(["7D", "AS"], trump=None)
    assert out.winner == 0
    assert ts4.resolve_trick(["7D", "AS"], trump="♠").winner == 1
    assert ts4.resolve_trick(["7D", "AS"], trump="spades").winner == 1
    with pytest.raises(InvalidOption, match="trump"):
        ts4.resolve_trick(["7D", "AS"])
    with pytest.raises(InvalidOption, match="trump"):
        ts4.resolve_trick(["7D", "AS"], trump="X")
    with pytest.raises(InvalidCard):
        ts4.resolve_trick(["7D", "6S"], trump="S")


def test_ts_legal_plays_bad_input(ts4: Any) -> None:
    with pytest.raises(InvalidTrick):
        ts4.legal_plays("7D 7D", trick=[], trump="S")
    with pytest.raises(InvalidTrick):
        ts4.legal_plays("7D 8D", trick=["7D"], trump="S")
    with pytest.raises(InvalidTrick):
        ts4.legal_plays("7D", trick=["9H", "10H", "JH", "QH"], trump="S")
    with pytest.raises(InvalidOption):
        ts4.legal_plays("7D", trick=[], trump="S", trump_broken="yes")
    with pytest.raises(InvalidOption):
        ts4.legal_plays("7D", trick=[])


# --- gem actions: ts.gems.*, ts.place*, ts.move, ts.board ---------------------------------------


def _gem_state(
    rules: Any,
    *,
    board: dict[int, list[int]] | None = None,
    predictions: tuple[int, ...] = (3, 3, 3, 3),
    place: int = 0,
    supply: dict[int, int] | None = None,
) -> TricksAndStonesState:
    """A gem-action state for seat 0 finishing at ``place``."""
    match = play_to(rules.new_match(seed=21, first_dealer=rules.players - 1), PLAY)
    state: TricksAndStonesState = match.state
    n = rules.players
    layout = [tuple(board.get(s, [0] * 6)) if board else (0,) * 6 for s in range(n)]
    supplies = tuple((supply or {}).get(s, 8 - sum(layout[s])) for s in range(n))
    later = tuple((seat, place + k) for k, seat in enumerate(range(1, n - place), start=1))
    queue = ((0, place), *later)
    return state._replace(
        phase=GEMS,
        predictions=predictions[:n],
        board=tuple(layout),
        supply=supplies,
        gem_queue=queue,
        to_play=0,
        tricks_played=1,
        last=(),
    )


def _layouts(rules: Any, state: TricksAndStonesState, actions: list[Any]) -> set[tuple[int, ...]]:
    return {rules.apply(state, a).board[0] for a in actions}


def test_ts_gems_order_first_to_last(ts4: Any) -> None:
    match = play_to(ts4.new_match(seed=7), PLAY)
    for _ in range(4):
        match.apply(match.legal_actions()[0])
    trick = [s for s in match.timeline() if s.event.kind == "trick"][-1]
    seats = trick.event.data["seats"]
    assert match.phase == GEMS
    assert match.state.gem_queue[0][0] == seats[0]
    assert [s for s, _ in match.state.gem_queue] == list(seats[: len(match.state.gem_queue)])
    assert "ts.gems.order" in ts4.rulebook
    # each player sees the board as the previous one left it: first place places, second sees it
    match.apply(next(a for a in match.legal_actions() if isinstance(a, Place) and len(a.chambers) == 2))
    assert sum(match.state.board[seats[0]]) == 2
    assert match.to_play == seats[1]
    assert match.view(seats[1]).board[seats[0]] == match.state.board[seats[0]]


def test_ts_gems_places_four_players(ts4: Any) -> None:
    assert [ts4.gem_allowance(i) for i in range(4)] == [(2, 2), (1, 1), (0, 1), (0, 0)]
    assert ts4.describe_allowance(3) == "no gem action"
    # second place may place only one gem
    state = _gem_state(ts4, place=1)
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Place((1, 2)))
    assert info.value.rule_id == "ts.gems.places"
    # third place may only move
    state = _gem_state(ts4, place=2, board={0: [0, 1, 0, 0, 0, 0]})
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Place((1,)))
    assert info.value.rule_id == "ts.gems.places"
    assert all(not isinstance(a, Place) for a in ts4.legal_actions(state))


def test_ts_gems_places_three_players(ts3: Any) -> None:
    assert [ts3.gem_allowance(i) for i in range(3)] == [(2, 2), (1, 1), (0, 1)]
    state = _gem_state(ts3, place=2, board={0: [0, 1, 0, 0, 0, 0]})
    assert set(ts3.legal_actions(state)) == {Skip(), Move(((1, 0),)), Move(((1, 2),))}


def test_ts_gems_last_place_and_no_choice_are_skipped_automatically(ts4: Any) -> None:
    match = play_to(ts4.new_match(seed=7), PLAY)
    for _ in range(4):
        match.apply(match.legal_actions()[0])
    # first trick: nobody has gems yet, so only first and second place have a choice
    assert [p for _, p in match.state.gem_queue] == [0, 1, 2, 3]
    match.apply(Skip())
    match.apply(Skip())
    assert match.phase == PLAY
    auto = [s.event for s in match.timeline() if s.event.kind == "gems" and s.event.data["action"] is None]
    assert len(auto) == 2
    assert {r.rule_id for e in auto for r in e.reasons} == {"ts.gems.places"}


def test_ts_gems_either_place_or_move(ts4: Any) -> None:
    state = _gem_state(ts4, board={0: [0, 1, 0, 0, 0, 0]})
    legal = ts4.legal_actions(state)
    assert all(isinstance(a, (Place, Move, Skip)) for a in legal)
    # no single action both places and moves: every result differs from the start by placing only or moving only
    for action in legal:
        after = ts4.apply(state, action)
        placed = sum(after.board[0]) - sum(state.board[0])
        if isinstance(action, Move):
            assert placed == 0 and after.supply[0] == state.supply[0]
        elif isinstance(action, Place):
            assert placed == len(action.chambers) and after.board[0][1] >= 1
    assert "ts.gems.either" in ts4.rulebook


def test_ts_gems_fewer_points_allowed(ts4: Any) -> None:
    state = _gem_state(ts4)
    legal = ts4.legal_actions(state)
    assert Skip() in legal
    assert Place((0,)) in legal
    after = ts4.apply(state, Skip())
    assert after.board == state.board
    log: list[Any] = []
    ts4.apply(state, Skip(), log)
    assert "ts.gems.fewer" in [r.rule_id for r in log[0][0].reasons]
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Place(()))
    assert info.value.rule_id == "ts.gems.fewer"


def test_ts_place_from_own_supply(ts4: Any) -> None:
    state = _gem_state(ts4, supply={0: 1})
    assert all(len(a.chambers) == 1 for a in ts4.legal_actions(state) if isinstance(a, Place))
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Place((0, 1)))
    assert info.value.rule_id == "ts.place"
    after = ts4.apply(state, Place((0,)))
    assert after.supply[0] == 0 and after.board[0][0] == 1
    assert after.board[1] == state.board[1]


def test_ts_place_expedition_forbidden(ts4: Any) -> None:
    state = _gem_state(ts4, predictions=(2, 3, 3, 3))
    assert not any(isinstance(a, Place) and 2 in a.chambers for a in ts4.legal_actions(state))
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Place((2,)))
    assert info.value.rule_id == "ts.place.expedition"


def test_ts_place_distinct_chambers(ts4: Any) -> None:
    state = _gem_state(ts4)
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Place((1, 1)))
    assert info.value.rule_id == "ts.place.distinct"
    places = [a for a in ts4.legal_actions(state) if isinstance(a, Place)]
    # 5 eligible chambers: 5 singles and C(5,2)=10 pairs
    assert len(places) == 15


def test_ts_move_seed_example_toward_prediction(ts4: Any) -> None:
    """Token in 3, a gem in 2, first place Moves 2: 2→3→4, or stop in 3 and leave a point unused."""
    state = _gem_state(ts4, predictions=(3, 0, 0, 0), board={0: [0, 0, 1, 0, 0, 0]})
    through = ts4.apply(state, Move(((2, 3), (3, 4))))
    assert through.board[0] == (0, 0, 0, 0, 1, 0)
    stop = ts4.apply(state, Move(((2, 3),)))
    assert stop.board[0] == (0, 0, 0, 1, 0, 0)
    layouts = _layouts(ts4, state, [a for a in ts4.legal_actions(state) if isinstance(a, Move)])
    assert (0, 0, 0, 0, 1, 0) in layouts and (0, 0, 0, 1, 0, 0) in layouts


def test_ts_move_two_gems_one_each_and_own_gems_only(ts4: Any) -> None:
    state = _gem_state(ts4, board={0: [0, 1, 0, 0, 1, 0], 1: [1, 0, 0, 0, 0, 0]})
    after = ts4.apply(state, Move(((1, 2), (4, 5))))
    assert after.board[0] == (0, 0, 1, 0, 0, 1)
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Move(((0, 1),)))  # only seat 1 has a gem in chamber 0
    assert info.value.rule_id == "ts.move"
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Move(((1, 3),)))
    assert info.value.rule_id == "ts.move"
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Move(((1, 2), (2, 3), (3, 4))))
    assert info.value.rule_id == "ts.gems.places"


def test_ts_legal_gem_actions_are_exactly_the_legal_results(ts4: Any) -> None:
    """Brute force: every conceivable place/move that the rules accept gives a result listed once."""
    state = _gem_state(ts4, predictions=(1, 0, 0, 0), board={0: [1, 0, 2, 0, 0, 1]}, supply={0: 4})
    legal = ts4.legal_actions(state)
    listed = [ts4.apply(state, a).board[0] for a in legal if not isinstance(a, Skip)]
    assert len(listed) == len(set(listed)), "each distinct result is listed once"
    accepted = set()
    tries: list[Any] = [Place(c) for k in (1, 2) for c in itertools.product(range(-1, 7), repeat=k)]
    steps = [(a, b) for a in range(-1, 7) for b in range(-1, 7)]
    tries += [Move((s,)) for s in steps] + [Move(p) for p in itertools.product(steps, repeat=2)]
    for action in tries:
        try:
            accepted.add(ts4.apply(state, action).board[0])
        except IllegalAction as exc:
            assert exc.rule_id in ts4.rulebook
    accepted.discard(state.board[0])  # moving a gem there and back is the same as skipping
    assert accepted == set(listed)


def test_ts_board_is_a_line(ts4: Any) -> None:
    state = _gem_state(ts4, board={0: [1, 0, 0, 0, 0, 1]})
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Move(((0, 5),)))
    assert info.value.rule_id == "ts.board"
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Move(((5, 6),)))
    assert info.value.rule_id == "ts.board"
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Place((6,)))
    assert info.value.rule_id == "ts.board"


def test_ts_board_ring_option(ts4: Any) -> None:
    ring = ts4.with_options(chambers="ring")
    state = _gem_state(ring, board={0: [1, 0, 0, 0, 0, 0]})
    assert ring.apply(state, Move(((0, 5),))).board[0] == (0, 0, 0, 0, 0, 1)
    with pytest.raises(InvalidOption, match="chambers"):
        tricklab.get_rules("tricks-and-stones", players=4, chambers="circle")


# --- scoring: ts.score.*, the seed's examples --------------------------------------------------


def test_ts_score_seed_example_exact_prediction(ts4: Any) -> None:
    score = ts4.score_round(prediction=3, tricks=3, gems=[0, 0, 0, 4, 0, 0])
    assert score.total == 7
    assert score.breakdown == {"gems": 4, "bonus": 3}
    assert [r.rule_id for r in score.reasons] == ["ts.score.chamber", "ts.score.bonus"]


def test_ts_score_seed_example_missed_prediction(ts4: Any) -> None:
    score = ts4.score_round(prediction=3, tricks=4, gems=[0, 0, 0, 0, 2, 0])
    assert score.total == 2
    assert score["bonus"].points == 0 and score["bonus"].status == "missed"


def test_ts_score_chamber_only_the_matching_chamber(ts4: Any) -> None:
    assert ts4.score_round(prediction=0, tricks=2, gems=[3, 2, 1, 1, 1, 0]).total == 1


def test_ts_score_bonus_with_no_gems(ts4: Any) -> None:
    assert ts4.score_round(prediction=0, tricks=0, gems=[0] * 6).total == 3


def test_ts_score_over_six_tricks_scores_zero(ts4: Any) -> None:
    for tricks in (6, 7, 8):
        score = ts4.score_round(prediction=5, tricks=tricks, gems=[0, 0, 0, 0, 0, 8])
        assert score.total == 0
        assert score.reasons[0].rule_id == "ts.score.over"


def test_ts_score_maximum_eleven(ts4: Any) -> None:
    assert ts4.score_round(prediction=5, tricks=5, gems=[0, 0, 0, 0, 0, 8]).total == 11


@pytest.mark.parametrize(
    "kwargs",
    [
        {"prediction": 6, "tricks": 3, "gems": [0] * 6},
        {"prediction": -1, "tricks": 3, "gems": [0] * 6},
        {"prediction": 2.0, "tricks": 3, "gems": [0] * 6},
        {"prediction": 2, "tricks": 9, "gems": [0] * 6},
        {"prediction": 2, "tricks": -1, "gems": [0] * 6},
        {"prediction": 2, "tricks": 3, "gems": [0] * 5},
        {"prediction": 2, "tricks": 3, "gems": [0, 0, 0, -1, 0, 0]},
        {"prediction": 2, "tricks": 3, "gems": [0, 0, 0, 1.5, 0, 0]},
        {"prediction": 2, "tricks": 3, "gems": [3, 3, 3, 0, 0, 0]},
        {"prediction": 2, "tricks": 3, "gems": "000000"},
    ],
)
def test_ts_score_bad_input(ts4: Any, kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidScoreInput):
        ts4.score_round(**kwargs)


def test_ts_score_reset_after_round(ts4: Any) -> None:
    match = ts4.play(seed=13, bots="heuristic")
    deals = [s for s in match.timeline() if s.event.kind == "deal"]
    for step in deals[1:]:
        assert step.state.board == ((0,) * 6,) * 4
        assert step.state.supply == (8, 8, 8, 8)
        assert step.state.predictions == (None,) * 4
    assert "ts.score.reset" in ts4.rulebook


def test_ts_score_event_uses_the_board(ts4: Any) -> None:
    match = ts4.play(seed=14, bots="heuristic")
    scores = [s for s in match.timeline() if s.event.kind == "score"]
    assert len(scores) == 4
    for step in scores:
        before = step.state
        for seat in range(4):
            expected = ts4.score_round(
                prediction=before.predictions[seat], tricks=before.tricks_won[seat], gems=before.board[seat]
            ).total
            assert step.event.data["scores"][seat] == expected


# --- ts.win, ts.win.tie, ts.over, ts.lead.next ---------------------------------------------------


def _over(rules: Any, round_scores: list[tuple[int, ...]], exact: tuple[int, ...]) -> TricksAndStonesState:
    state = rules.new_match(seed=1).state
    return state._replace(phase=OVER, to_play=None, round_scores=tuple(round_scores), exact=exact)


def test_ts_win_highest_total(ts4: Any) -> None:
    result = ts4.result(_over(ts4, [(5, 3, 2, 1), (4, 4, 4, 4)], (0, 0, 0, 0)))
    assert result.winners == (0,) and result.totals == (9, 7, 6, 5) and result.tie_break is None
    assert result.reasons[0].rule_id == "ts.win"


def test_ts_win_tie_most_exact_predictions(ts4: Any) -> None:
    result = ts4.result(_over(ts4, [(5, 5, 2, 1)], (1, 2, 0, 0)))
    assert result.winners == (1,) and result.tie_break == "exact predictions"
    assert result.reasons[0].rule_id == "ts.win.tie"


def test_ts_win_tie_shared(ts4: Any) -> None:
    result = ts4.result(_over(ts4, [(5, 5, 5, 1)], (1, 1, 0, 3)))
    assert result.winners == (0, 1) and result.tie_break == "shared" and result.shared


def test_ts_over_no_more_actions(ts4: Any) -> None:
    match = ts4.play(seed=1, bots="random")
    assert match.is_over and match.phase == OVER and match.legal_actions() == []
    with pytest.raises(IllegalAction) as info:
        match.apply(Predict(1))
    assert info.value.rule_id == "ts.over"
    assert match.timeline()[-1].event.kind == "end"
    assert ts4.result(match.states[0]) is None


def test_ts_lead_next_winner_leads_after_gems(ts4: Any) -> None:
    match = ts4.play(seed=15, bots="heuristic")
    steps = match.timeline()
    for i, step in enumerate(steps):
        if step.event.kind == "trick" and step.state.tricks_played < 8:
            winner = step.event.seat
            following = next(s for s in steps[i + 1 :] if s.event.kind == "play")
            assert following.event.seat == winner
    assert "ts.lead.next" in ts4.rulebook


def test_ts_turn_actions_follow_to_play(ts4: Any) -> None:
    match = ts4.play(seed=16, bots="random")
    for step in match.timeline():
        if step.event.kind in ("predict", "play") or (step.event.kind == "gems" and step.event.data["action"]):
            assert step.event.seat is not None
    assert "ts.turn" in ts4.rulebook


# --- reasons and rulebook -------------------------------------------------------------------------


def test_ts_every_rulebook_clause_has_text() -> None:
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    assert len(rules.rulebook) >= 30
    for clause in rules.rulebook.values():
        assert clause.text and clause.title
    assert rules.rulebook["ts.board"].option == "chambers"
    assert rules.rulebook["ts.lead.first"].option == "first_lead_tie"
    assert "ts.board" in rules.rulebook.to_text()


def test_ts_play_then_illegal_click_changes_nothing(ts4: Any) -> None:
    match = play_to(ts4.new_match(seed=30), PLAY)
    before = match.to_json()
    with pytest.raises(IllegalAction):
        match.apply(Predict(2))
    assert match.to_json() == before


def _play_state(rules: Any, *, hands: dict[int, str], trick: str, leader: int) -> TricksAndStonesState:
    """A play-phase state with the given hands and current trick (other hands untouched)."""
    state: TricksAndStonesState = play_to(rules.new_match(seed=40), PLAY).state
    chosen = {s: rules.cards(t) for s, t in hands.items()}
    trick_cards = rules.cards(trick)
    used = set(trick_cards).union(*chosen.values())
    spare = [c for c in rules.deck() if c not in used]
    new_hands = []
    for seat in range(rules.players):
        if seat in chosen:
            new_hands.append(tuple(chosen[seat]))
        else:
            new_hands.append(tuple(spare[:8]))
            spare = spare[8:]
    seat = (leader + len(trick_cards)) % rules.players
    return state._replace(
        held=tuple(IDS.mask(h) for h in new_hands),
        played=tuple(IDS.id[c] for c in trick_cards),
        leader=leader,
        to_play=seat,
    )


# --- learner sentences: true, whole and counted right --------------------------------------------


def test_ts_trump_lead_once_broken_says_trumps_are_broken() -> None:
    """3 players, seed 4, heuristic bots, step 81: K♥ is led with hearts broken and other suits in hand."""
    match = tricklab.get_rules("tricks-and-stones", players=3).play(seed=4, bots="heuristic")
    step = match.timeline()[81]
    before = match.timeline()[80].state
    assert step.event.kind == "play" and before.trump_broken
    assert any(c.suit != before.trump for c in before.hands[step.event.seat])
    [reason] = [r for r in step.event.reasons if r.rule_id == "ts.trump.lead"]
    assert "only trumps" not in reason.text.lower()
    assert "broken" in reason.text


def test_ts_trump_lead_from_an_all_trump_hand_says_only_trumps_were_held(ts4: Any) -> None:
    state = _play_state(ts4, hands={0: "8S AS"}, trick="", leader=0)
    log: list[Any] = []
    ts4.apply(state, Play(ts4.card("AS")), log)
    [reason] = [r for r in log[0][0].reasons if r.rule_id == "ts.trump.lead"]
    assert "only trumps" in reason.text and "not broken" in reason.text


def test_ts_rank_led_without_trump_is_a_whole_sentence(ts4: Any) -> None:
    out = ts4.resolve_trick(["AS", "KH", "7D"], trump=None)
    led = [r for r in out.reasons if r.rule_id == "ts.rank.led"]
    assert led and all("neither" not in r.text and "trump" not in r.text for r in led)
    assert all(r.text.endswith("is not a spade.") for r in led)
    with_trump = ts4.resolve_trick(["AS", "KH", "7D"], trump="C")
    assert next(r.text for r in with_trump.reasons if r.rule_id == "ts.rank.led").endswith(
        "is neither a trump nor a spade."
    )


def test_ts_rank_led_without_trump_in_quiz_level_one() -> None:
    from tricklab import quiz

    led = [
        r
        for q in quiz.questions("tricks-and-stones", 4, seed=3, level=1, count=25)
        for r in q.outcome.reasons
        if r.rule_id == "ts.rank.led"
    ]
    assert led
    assert all(
        "neither" not in r.text
        and r.text.endswith(("is not a spade.", "is not a heart.", "is not a diamond.", "is not a club."))
        for r in led
    )


def test_ts_counts_meet_nouns_in_the_singular(ts4: Any) -> None:
    score = ts4.score_round(prediction=1, tricks=1, gems=[0, 1, 0, 0, 0, 0])
    text = " ".join(r.text for r in score.reasons) + " " + " ".join(line.detail for line in score.lines)
    assert "(s)" not in text and "1 tricks" not in text
    assert "1 trick won" in text and "1 own gem in chamber 1" in text
    state = _gem_state(ts4, place=1)
    with pytest.raises(IllegalAction, match=r"at most 1 gem:"):
        ts4.apply(state, Place((1, 2)))
    state = _gem_state(ts4, supply={0: 1})
    with pytest.raises(IllegalAction, match=r"only 1 gem left"):
        ts4.apply(state, Place((0, 1)))
    state = _gem_state(ts4, place=1, board={0: [0, 1, 1, 0, 0, 0]})
    with pytest.raises(IllegalAction, match=r"at most 1 move step:"):
        ts4.apply(state, Move(((1, 0), (2, 3))))


def test_ts_round_score_counts_one_trick_as_a_trick(ts4: Any) -> None:
    """The round's score line says "1 trick", never "1 tricks"."""
    seen_one = False
    for seed in range(12):
        match = ts4.play(seed=seed, bots="heuristic")
        for step in match.timeline():
            event = step.event
            if event.kind == "score":
                assert "1 tricks" not in event.text and "(s)" not in event.text
                seen_one = seen_one or " 1 trick →" in event.text
        if seen_one:
            break
    assert seen_one


# --- the core: card ids, facts, the narrator, the fast entries -----------------------------------


def test_ts_card_ids_follow_hand_order_so_a_mask_reads_as_a_sorted_hand(ts4: Any) -> None:
    """Card id = suit (♠ ♥ ♦ ♣) * 8 + strength (7 lowest, Ace highest): a mask's bits, lowest
    first, are the hand as the game sorts it, and the deck's order is the ids' order."""
    assert IDS.cards == ts4.deck()
    assert [str(IDS.card(i)) for i in (0, 7, 8, 31)] == ["7S", "AS", "7H", "AC"]
    state = ts4.initial_state(3)
    for seat in range(4):
        hand = state.hands[seat]
        low_to_high = (7, 8, 9, 10, 11, 12, 13, 1)  # ts.card-order: the Ace is high
        assert hand == tuple(sorted(hand, key=lambda c: ("SHDC".index(c.suit), low_to_high.index(c.rank))))
        assert IDS.mask(hand) == state.held[seat]


def test_ts_with_hands_replaces_the_hands_and_nothing_else(ts3: Any) -> None:
    state = ts3.initial_state(8)
    order = list(range(32))
    order.reverse()
    hands = tuple(IDS.mask(IDS.of(order[s * 8 : (s + 1) * 8])) for s in range(3))
    other = ts3.with_hands(state, hands, IDS.mask(IDS.of(order[24:])))
    assert other.hands == tuple(IDS.of(sorted(order[s * 8 : (s + 1) * 8])) for s in range(3))
    assert set(other.aside) == set(IDS.of(order[24:]))
    assert ts3.view(other, 1).hand == other.hands[1]
    assert other._replace(held=state.held, set_aside=state.set_aside) == state
    assert ts3.legal_actions(other) == ts3.legal_actions(state)


def test_ts_a_secret_prediction_is_seen_only_by_its_seat_until_the_reveal(ts4: Any) -> None:
    match = ts4.new_match(seed=2, first_dealer=3)
    facts = ts4.facts(match.state, Predict(4))
    [(fact, after)] = facts
    assert fact.seat == 0 and fact.value == 4
    assert fact.seen_by(None) is fact and fact.seen_by(0) is fact
    hidden = fact.seen_by(2)
    assert hidden.seat == 0 and hidden.value is None
    assert ts4.narrate(hidden, after).data["prediction"] is None
    own = ts4.narrate(fact.seen_by(0), after)
    assert own.data["prediction"] == 4 and own.text == "Player 1 secretly chose a prediction."
    assert "4" not in ts4.narrate(hidden, after).text


def test_ts_the_narrator_on_its_own(ts4: Any) -> None:
    from tricklab.games.tricks_and_stones import CardPlayed, GemsTaken

    state = ts4.initial_state(1)
    last = ts4.narrate(GemsTaken(2, 3, None), state)
    assert last.kind == "gems" and last.data == {"place": 3, "action": None}
    assert last.text == "Player 3 finished fourth, the last place, which has no gem action."
    assert [r.rule_id for r in last.reasons] == ["ts.gems.places"]
    # 8♥ led, A♥ follows, then 7♠ (spades are trump in round 1) breaks trumps and is winning
    trick = tuple(IDS.id[c] for c in ts4.cards("8H AH 7S"))
    played = ts4.narrate(CardPlayed(3, trick[-1], trick, False, True), state)
    assert played.text == ("Player 4 cannot follow hearts and plays 7♠. Trumps are now broken. 7♠ is winning so far.")
    assert [r.rule_id for r in played.reasons] == ["ts.follow.void", "ts.trump.break"]
    placed = ts4.narrate(GemsTaken(0, 0, ts4.action_id(Place((1, 4)))), state)
    assert placed.text == "Player 1 places 2 gems into chambers 1 and 4." and placed.data["action"] == "place 1 4"


def test_ts_the_fast_path_and_the_narrated_path_reach_the_same_states(ts4: Any) -> None:
    match = ts4.play(seed=5, bots="heuristic")
    state = match.states[0]
    for action in match.actions:
        a = ts4.listed_id(state, action)
        quick = ts4.core_step(state, a)
        facts: list[Any] = []
        told = ts4.core_step(state, a, facts)
        assert quick == told and facts
        state = told
    assert state == match.state


def test_ts_a_move_in_another_order_is_recorded_as_the_listed_move(ts4: Any) -> None:
    """TS-7: the order of two move steps with the same result is no choice; moving a gem there
    and back is the same as using no points (Skip)."""
    state = _gem_state(ts4, board={0: [1, 1, 0, 0, 0, 0]})
    listed = ts4.legal_actions(state)
    assert Move(((0, 1), (1, 2))) in listed and Move(((1, 2), (0, 1))) not in listed
    assert ts4.canonical_action(state, Move(((1, 2), (0, 1)))) == Move(((0, 1), (1, 2)))
    assert ts4.apply(state, Move(((1, 2), (0, 1)))) == ts4.apply(state, Move(((0, 1), (1, 2))))
    assert ts4.canonical_action(state, Move(((0, 1), (1, 0)))) == Skip()
    with pytest.raises(IllegalAction) as info:
        ts4.apply(state, Move(((2, 3),)))
    assert info.value.rule_id == "ts.move"


def test_ts_bots_on_the_core_play_the_round_the_checked_match_plays() -> None:
    """The advisor's entries (core_view, core_legal, choose_id, core_step) play the same first
    round as the bots through the checked Match with full views."""
    from tricklab.games.tricks_and_stones.bots import HeuristicBot

    for players, seed in ((3, 4), (4, 9)):
        rules = tricklab.get_rules("tricks-and-stones", players=players, chambers="ring")
        match = rules.play(seed=seed, bots="heuristic")
        bots = [HeuristicBot(rules, s) for s in range(players)]
        state = rules.initial_state(seed)
        taken = []
        while state.round == 0:
            seat = state.to_play
            assert seat is not None
            a = bots[seat].choose_id(rules.core_view(state, seat), rules.core_legal(state))
            taken.append(rules.actions[a])
            state = rules.core_step(state, a)
        assert taken == list(match.actions[: len(taken)])
        assert state == match.states[len(taken)]
