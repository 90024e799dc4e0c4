"""Kalah(6,4) (ruling MK-1): a test per rule clause on hand-made positions, the match contract
(as tests/test_engine_contract.py checks it, applied to Kalah directly: it is not in the
registry yet), a property test over many seeded random games and, where OpenSpiel is
installed, a comparison with OpenSpiel's ``mancala`` (Kalah) on many random games."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tricklab
from tricklab.actions import Predict, Skip, Sow, parse_action
from tricklab.errors import IllegalAction, InvalidAction, InvalidOption, InvalidTrick, RecordError
from tricklab.games.base import EventKind
from tricklab.games.kalah import (
    RULEBOOK,
    Captured,
    GameEnded,
    Kalah,
    KalahState,
    KalahView,
    MovedAgain,
    PickedUp,
    StoneSown,
    Swept,
)

START = (4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0)


def board(p0: tuple[int, ...], s0: int, p1: tuple[int, ...], s1: int) -> tuple[int, ...]:
    """The 14 counts from each side's pits 1-6 and store."""
    assert len(p0) == len(p1) == 6
    return (*p0, s0, *p1, s1)


def step(rules: Kalah, state: KalahState, pit: int) -> tuple[KalahState, list[tuple[Any, KalahState]]]:
    """Sow ``pit`` (checked) and return the new state and the facts of the move."""
    facts = rules.facts(state, Sow(pit))
    return rules.apply(state, Sow(pit)), facts


def events(rules: Kalah, state: KalahState, pit: int) -> list[Any]:
    log: list[Any] = []
    rules.apply(state, Sow(pit), log)
    return [e for e, _ in log]


def cited(evs: list[Any]) -> set[str]:
    return {r.rule_id for e in evs for r in e.reasons}


# --- creation and options ------------------------------------------------------------------------


def test_create_with_default_options() -> None:
    rules = Kalah.create(2)
    assert rules.options.stones == 4 and rules.options.capture_empty_opposite is False
    assert rules.players == 2
    assert Kalah.create(2, stones=6, capture_empty_opposite=True).options.stones == 6


@pytest.mark.parametrize("players", [1, 3, 4, True, "2", None])
def test_only_two_players(players: object) -> None:
    with pytest.raises(InvalidOption, match="2 players") as info:
        Kalah.create(players)
    assert info.value.rule_id == "mk.players"


@pytest.mark.parametrize("stones", [0, 2, 7, 48, True, "4", 4.0, None])
def test_stones_option_is_checked(stones: object) -> None:
    with pytest.raises(InvalidOption, match="stones") as info:
        Kalah.create(2, stones=stones)
    assert repr(stones) in str(info.value)
    assert info.value.rule_id == "mk.board"


@pytest.mark.parametrize("value", [0, 1, "yes", None])
def test_capture_option_is_checked(value: object) -> None:
    with pytest.raises(InvalidOption, match="capture_empty_opposite") as info:
        Kalah.create(2, capture_empty_opposite=value)
    assert repr(value) in str(info.value)
    assert info.value.rule_id == "mk.capture.empty-opposite"


def test_unknown_options_and_match_options_are_refused() -> None:
    with pytest.raises(InvalidOption, match="no option"):
        Kalah.create(2, pits=8)
    with pytest.raises(InvalidOption):
        Kalah.create(2).new_match(seed=1, first_dealer=1)


def test_no_tricks() -> None:
    rules = Kalah.create(2)
    assert rules.deck() == ()
    with pytest.raises(InvalidTrick):
        rules.resolve_trick([])
    with pytest.raises(InvalidTrick):
        rules.legal_plays([])


# --- the action --------------------------------------------------------------------------------------


def test_sow_text_round_trips() -> None:
    for pit in range(1, 7):
        assert str(Sow(pit)) == f"sow {pit}"
        assert parse_action(f"sow {pit}", lambda s: tricklab.get_rules("ts", players=4).card(s)) == Sow(pit)
    rules = Kalah.create(2)
    assert rules.parse_action("sow 3") == Sow(3)
    assert rules.parse_action("SOW 3") == Sow(3)
    assert tricklab.Sow is Sow


@pytest.mark.parametrize("text", ["sow x", "sow 1.5", "sow", "sow 1 2", "sow three"])
def test_bad_sow_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidAction) as info:
        Kalah.create(2).parse_action(text)
    assert str(info.value)
    if text in ("sow x", "sow 1.5", "sow three"):
        assert info.value.rule_id == "mk.sow"
        assert repr(text.split()[1]) in str(info.value)


@pytest.mark.parametrize("value", ["3", 2.0, True, None])
def test_sow_needs_a_whole_number(value: object) -> None:
    with pytest.raises(InvalidAction) as info:
        Sow(value)  # type: ignore[arg-type]
    assert info.value.rule_id == "mk.sow"
    assert repr(value) in str(info.value)


@pytest.mark.parametrize("pit", [0, 7, -1, 100])
def test_a_pit_out_of_range_is_refused_with_the_value(pit: int) -> None:
    match = Kalah.create(2).new_match(seed=0)
    with pytest.raises(IllegalAction) as info:
        match.apply(Sow(pit))
    assert info.value.rule_id == "mk.pits"
    assert repr(pit) in str(info.value)
    with pytest.raises(IllegalAction):
        match.apply(f"sow {pit}")
    assert match.actions == ()


def test_other_actions_are_refused_by_the_turn_clause() -> None:
    match = Kalah.create(2).new_match(seed=0)
    for action in (Predict(2), Skip()):
        with pytest.raises(IllegalAction) as info:
            match.apply(action)
        assert info.value.rule_id == "mk.turn"
    with pytest.raises(InvalidAction):
        match.apply("play AS")  # Kalah has no cards


# --- the board (mk.board, mk.players, mk.pits) -------------------------------------------------------


@pytest.mark.parametrize("stones", [3, 4, 5, 6])
def test_the_board_at_the_start(stones: int) -> None:
    match = Kalah.create(2, stones=stones).new_match(seed=5)
    view = match.view(None)
    assert isinstance(view, KalahView)
    assert view.pits == board((stones,) * 6, 0, (stones,) * 6, 0)
    assert view.to_play == 0 == match.to_play
    assert view.phase == "sow"
    assert match.legal_actions() == [Sow(p) for p in range(1, 7)]
    first = match.timeline()[0].event
    assert first.kind == EventKind.DEAL and {"mk.board", "mk.players"} <= cited([first])


def test_every_seat_sees_the_whole_board() -> None:
    match = tricklab.Match(Kalah.create(2), 1, actions=["sow 3", "sow 1", "sow 2"])
    teacher = match.view(None)
    for seat in (0, 1):
        view = match.view(seat)
        assert view.seat == seat
        assert view._replace(seat=None) == teacher
        assert view.hand == ()
    with pytest.raises(InvalidOption):
        match.view(2)


def test_pits_are_counted_in_the_sowing_direction() -> None:
    rules = Kalah.create(2)
    # seat 0's pit 6 is next to its store: one stone from it goes into the store
    state = rules.position(board((1, 0, 0, 0, 0, 1), 0, (1,) * 6, 0), to_play=0)
    after, _ = step(rules, state, 6)
    assert after.pits[6] == 1
    # seat 1's pit 1 is furthest from its store, opposite seat 0's pit 6
    state = rules.position(board((1, 1, 1, 0, 1, 1), 0, (2, 0, 0, 0, 0, 1), 0), to_play=1)
    after, _ = step(rules, state, 1)
    assert after.pits[7:10] == (0, 1, 1)


# --- sowing (mk.turn, mk.sow, mk.sow.empty, mk.skip) ------------------------------------------------


def test_sowing_drops_one_stone_a_pit_counter_clockwise() -> None:
    rules = Kalah.create(2)
    state = rules.initial_state(0)
    after, facts = step(rules, state, 1)
    assert after.pits == board((0, 5, 5, 5, 5, 4), 0, (4,) * 6, 0)
    assert after.to_play == 1
    kinds = [type(f) for f, _ in facts]
    assert kinds == [PickedUp, StoneSown, StoneSown, StoneSown, StoneSown]
    assert [f.index for f, _ in facts[1:]] == [1, 2, 3, 4]
    # a step per stone: each fact's state holds the stones sown so far
    assert [s.pits[:6] for _, s in facts] == [
        (0, 4, 4, 4, 4, 4),
        (0, 5, 4, 4, 4, 4),
        (0, 5, 5, 4, 4, 4),
        (0, 5, 5, 5, 4, 4),
        (0, 5, 5, 5, 5, 4),
    ]
    evs = events(rules, state, 1)
    assert [e.kind for e in evs] == [EventKind.SOW] + [EventKind.STONE] * 4
    assert all("mk.sow" in cited([e]) for e in evs[1:])
    assert "mk.turn" in cited(evs[:1])


def test_sowing_passes_into_the_own_store_and_on_to_the_opponent() -> None:
    rules = Kalah.create(2)
    state = rules.position(board((0, 0, 0, 0, 3, 1), 0, (1,) * 6, 0), to_play=0)
    after, _ = step(rules, state, 5)
    assert after.pits == board((0, 0, 0, 0, 0, 2), 1, (2, 1, 1, 1, 1, 1), 0)


def test_an_empty_pit_cannot_be_sown() -> None:
    rules = Kalah.create(2)
    match = tricklab.Match(rules, 0, actions=["sow 1"])
    match.apply("sow 1")  # seat 1's pit 1 is full
    assert match.to_play == 0
    before = match.state
    with pytest.raises(IllegalAction) as info:
        match.apply("sow 1")  # seat 0's pit 1 was emptied
    assert info.value.rule_id == "mk.sow.empty"
    assert "pit 1" in str(info.value) and "pit 1" in info.value.to_you
    assert match.state is before and len(match.actions) == 2
    assert Sow(1) not in match.legal_actions()


def test_only_the_seat_to_play_moves() -> None:
    rules = Kalah.create(2)
    state = rules.initial_state(0)
    with pytest.raises(IllegalAction) as info:
        rules.apply_for(state, 1, Sow(3))
    assert info.value.rule_id == "mk.turn"
    assert "Player 1" in str(info.value)
    assert rules.apply_for(state, 0, "sow 3") == rules.apply(state, Sow(3))
    with pytest.raises(InvalidOption):
        rules.apply_for(state, 5, Sow(3))


@pytest.mark.parametrize("seat", [0, 1])
def test_the_opponents_store_is_skipped(seat: int) -> None:
    rules = Kalah.create(2)
    own = (1, 1, 0, 0, 0, 8)
    other = (1, 1, 1, 1, 1, 1)
    state = rules.position(board(own, 0, other, 0) if seat == 0 else board(other, 0, own, 0), to_play=seat)
    after, facts = step(rules, state, 6)
    mine, theirs = (6, 13) if seat == 0 else (13, 6)
    assert after.pits[theirs] == 0, "no stone in the opponent's store"
    assert after.pits[mine] == 1
    first_pit = 0 if seat == 0 else 7
    assert after.pits[first_pit] == 2, "the eighth stone lands in the mover's own pit 1"
    sown = [f for f, _ in facts if isinstance(f, StoneSown)]
    assert [f.skipped for f in sown] == [False] * 7 + [True]
    evs = events(rules, state, 6)
    assert "mk.skip" in cited(evs[-2:])
    assert [e for e in evs if "mk.skip" in cited([e])] == [evs[8]]


def test_a_sowing_of_thirteen_comes_round_to_the_emptied_pit_and_captures() -> None:
    rules = Kalah.create(2)
    state = rules.position(board((13, 0, 0, 0, 0, 0), 0, (1, 0, 0, 0, 0, 0), 0), to_play=0)
    after, facts = step(rules, state, 1)
    # 5 stones to pits 2-6, 1 to the store, 6 to the opponent's pits, the store skipped, the last in pit 1
    captured = facts[-1][0]
    assert isinstance(captured, Captured) and (captured.pit, captured.across, captured.stones) == (1, 6, 1)
    assert after.pits == board((0, 1, 1, 1, 1, 1), 1 + 1 + 1, (2, 1, 1, 1, 1, 0), 0)
    assert after.to_play == 1


# --- moving again (mk.again) ------------------------------------------------------------------------


def test_last_stone_in_the_own_store_moves_again() -> None:
    rules = Kalah.create(2)
    state = rules.initial_state(0)
    after, facts = step(rules, state, 3)  # 4 stones from pit 3: pits 4, 5, 6 and the store
    assert after.pits[6] == 1
    assert after.to_play == 0
    assert isinstance(facts[-1][0], MovedAgain)
    evs = events(rules, state, 3)
    assert evs[-1].kind == EventKind.AGAIN and cited(evs[-1:]) == {"mk.again"}
    # seat 1 too, and the turn passes when the last stone does not reach the store
    state = rules.position(board((4,) * 6, 1, (4, 4, 4, 4, 4, 1), 0), to_play=1)
    again, _ = step(rules, state, 6)
    assert again.to_play == 1 and again.pits[13] == 1
    passed, _ = step(rules, state, 1)
    assert passed.to_play == 0


# --- captures (mk.capture, mk.capture.empty-opposite) ----------------------------------------------


def test_last_stone_in_an_empty_own_pit_captures_the_stones_opposite() -> None:
    rules = Kalah.create(2)
    # seat 0 sows pit 1 (2 stones) into pits 2 and 3; pit 3 was empty, across is seat 1's pit 4
    state = rules.position(board((2, 1, 0, 1, 1, 1), 0, (1, 1, 1, 5, 1, 1), 0), to_play=0)
    after, facts = step(rules, state, 1)
    assert after.pits == board((0, 2, 0, 1, 1, 1), 6, (1, 1, 1, 0, 1, 1), 0)
    captured = facts[-1][0]
    assert isinstance(captured, Captured) and (captured.pit, captured.across, captured.stones) == (3, 4, 5)
    assert after.to_play == 1
    evs = events(rules, state, 1)
    assert evs[-1].kind == EventKind.CAPTURE and cited(evs[-1:]) == {"mk.capture"}


def test_seat_one_captures_into_its_own_store() -> None:
    rules = Kalah.create(2)
    # seat 1 sows its pit 2 (1 stone) into its empty pit 3, across from seat 0's pit 4
    state = rules.position(board((1, 1, 1, 7, 1, 1), 0, (1, 1, 0, 1, 1, 1), 0), to_play=1)
    after, _ = step(rules, state, 2)
    assert after.pits == board((1, 1, 1, 0, 1, 1), 0, (1, 0, 0, 1, 1, 1), 8)


def test_no_capture_when_the_pit_across_is_empty() -> None:
    rules = Kalah.create(2)
    state = rules.position(board((2, 1, 0, 1, 1, 1), 0, (1, 1, 1, 0, 1, 1), 0), to_play=0)
    after, facts = step(rules, state, 1)
    assert after.pits == board((0, 2, 1, 1, 1, 1), 0, (1, 1, 1, 0, 1, 1), 0)
    assert not any(isinstance(f, Captured) for f, _ in facts)
    assert after.to_play == 1


def test_the_option_stores_the_last_stone_when_the_pit_across_is_empty() -> None:
    rules = Kalah.create(2, capture_empty_opposite=True)
    state = rules.position(board((2, 1, 0, 1, 1, 1), 0, (1, 1, 1, 0, 1, 1), 0), to_play=0)
    after, facts = step(rules, state, 1)
    assert after.pits == board((0, 2, 0, 1, 1, 1), 1, (1, 1, 1, 0, 1, 1), 0)
    captured = facts[-1][0]
    assert isinstance(captured, Captured) and captured.stones == 0
    assert cited(events(rules, state, 1)[-1:]) == {"mk.capture", "mk.capture.empty-opposite"}


def test_no_capture_in_a_pit_that_held_stones_or_on_the_opponents_side() -> None:
    rules = Kalah.create(2)
    state = rules.position(board((2, 1, 1, 1, 1, 1), 0, (1, 1, 1, 5, 1, 1), 0), to_play=0)
    after, facts = step(rules, state, 1)  # pit 3 held a stone
    assert after.pits == board((0, 2, 2, 1, 1, 1), 0, (1, 1, 1, 5, 1, 1), 0)
    assert not any(isinstance(f, Captured) for f, _ in facts)
    state = rules.position(board((1, 1, 1, 1, 1, 3), 0, (0, 0, 1, 1, 1, 1), 0), to_play=0)
    after, facts = step(rules, state, 6)  # store, then seat 1's pits 1 and 2: the last in an empty pit of seat 1
    assert after.pits == board((1, 1, 1, 1, 1, 0), 1, (1, 1, 1, 1, 1, 1), 0)
    assert not any(isinstance(f, Captured) for f, _ in facts)


# --- the end (mk.end, mk.sweep, mk.win, mk.draw, mk.over) ---------------------------------------


def test_when_the_movers_side_empties_the_other_player_sweeps() -> None:
    rules = Kalah.create(2)
    state = rules.position(board((0, 0, 0, 0, 0, 1), 20, (1, 2, 0, 0, 0, 3), 21), to_play=0)
    after, facts = step(rules, state, 6)  # the last stone goes into the store, but the side is empty
    assert after.phase == "over" and after.to_play is None
    assert after.pits == board((0,) * 6, 21, (0,) * 6, 27)
    kinds = [type(f) for f, _ in facts]
    assert kinds[-2:] == [Swept, GameEnded] and MovedAgain not in kinds
    swept = facts[-2][0]
    assert (swept.seat, swept.stones) == (1, 6)
    assert facts[-1][0].emptied == (0,)
    evs = events(rules, state, 6)
    assert evs[-2].kind == EventKind.SWEEP and {"mk.end", "mk.sweep"} <= cited(evs[-2:])
    assert evs[-1].kind == EventKind.END and "mk.win" in cited(evs[-1:])
    result = rules.result(after)
    assert result is not None and result.totals == (21, 27) and result.winners == (1,)
    assert [r.rule_id for r in result.reasons] == ["mk.win"]


def test_a_capture_that_empties_the_opponents_side_ends_the_game() -> None:
    rules = Kalah.create(2)
    state = rules.position(board((1, 0, 2, 0, 0, 0), 10, (0, 0, 0, 0, 3, 0), 20), to_play=0)
    after, facts = step(rules, state, 1)  # into the empty pit 2, across seat 1's pit 5: its last stones
    assert after.pits == board((0,) * 6, 10 + 4 + 2, (0,) * 6, 20)
    assert [type(f) for f, _ in facts][-3:] == [Captured, Swept, GameEnded]
    assert facts[-2][0].seat == 0 and facts[-2][0].stones == 2
    assert facts[-1][0].emptied == (1,)
    assert rules.result(after) is not None and rules.result(after).winners == (1,)  # type: ignore[union-attr]


def test_equal_stores_are_a_draw() -> None:
    rules = Kalah.create(2)
    state = rules.position(board((0, 0, 0, 0, 0, 1), 23, (0, 0, 0, 0, 0, 1), 23), to_play=0)
    after, _ = step(rules, state, 6)
    result = rules.result(after)
    assert result is not None
    assert result.totals == (24, 24) and result.winners == (0, 1) and result.shared
    assert [r.rule_id for r in result.reasons] == ["mk.draw"]
    assert cited(events(rules, state, 6)[-1:]) >= {"mk.end", "mk.draw"}


def test_no_move_after_the_end() -> None:
    rules = Kalah.create(2)
    state = rules.position(board((0, 0, 0, 0, 0, 1), 23, (0, 0, 0, 0, 0, 1), 23), to_play=0)
    after = rules.apply(state, Sow(6))
    assert rules.legal_actions(after) == []
    for action in (Sow(1), Sow(6), Sow(9), Skip()):
        with pytest.raises(IllegalAction) as info:
            rules.apply(after, action)
        assert info.value.rule_id == "mk.over"
    with pytest.raises(IllegalAction) as info:
        rules.apply_for(after, 0, Sow(1))
    assert info.value.rule_id == "mk.over"


def test_a_position_is_checked() -> None:
    rules = Kalah.create(2)
    for bad in ((4,) * 13, (4,) * 13 + (-1,), "4" * 14, (4,) * 13 + (True,)):
        with pytest.raises(InvalidOption):
            rules.position(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidOption):
        rules.position(START, to_play=2)


# --- the rulebook -----------------------------------------------------------------------------------


def test_the_rulebook_covers_mk_1() -> None:
    assert all(rule.startswith("mk.") for rule in RULEBOOK)
    assert {"mk.sow", "mk.skip", "mk.again", "mk.capture", "mk.end", "mk.sweep", "mk.win", "mk.draw"} <= set(
        RULEBOOK.rulings()
    )
    assert all(RULEBOOK.rulings()[r].ruling == "MK-1" for r in RULEBOOK.rulings())
    assert RULEBOOK["mk.board"].option == "stones"
    assert RULEBOOK["mk.capture.empty-opposite"].option == "capture_empty_opposite"
    assert Kalah.rulebook_prefix() == "mk"
    assert "mk.undo" in RULEBOOK and "mk.over" in RULEBOOK
    assert RULEBOOK.to_text()


def test_words_for_the_learner() -> None:
    rules = Kalah.create(2)
    match = tricklab.Match(rules, 0, actions=["sow 1"])
    view = match.view(1)
    assert rules.describe_action(Sow(2), view) == "Sow pit 2 (4 stones)"
    reason = rules.explain_choice(view)
    assert reason.rule_id == "mk.turn" and "6 pits" in reason.text
    assert rules.place_name(6) == "Player 1's store" and rules.place_name(9) == "Player 2's pit 3"


# --- the match contract (as tests/test_engine_contract.py, for Kalah) --------------------------------


def _random_match(seed: int, steps: int | None = None, **options: Any) -> tricklab.Match:
    match = Kalah.create(2, **options).new_match(seed=seed)
    rng = random.Random(seed)
    count = 0
    while not match.is_over and (steps is None or count < steps):
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
        count += 1
    return match


def test_same_seed_same_match() -> None:
    rules = Kalah.create(2)
    a, b = rules.play(seed=11, bots="random"), rules.play(seed=11, bots="random")
    assert a.actions == b.actions and a.state == b.state
    c = rules.play(seed=12, bots="random")
    assert c.states[0] != a.states[0], "the seed is part of the match"
    assert c.states[0].pits == a.states[0].pits == START, "Kalah has no chance"


def test_random_bots_finish_a_match_with_a_result() -> None:
    match = Kalah.create(2).play(seed=3, bots="random")
    assert match.is_over and match.legal_actions() == []
    result = match.result
    assert result is not None and result.winners and set(result.winners) <= {0, 1}
    assert all(result.totals[w] == max(result.totals) for w in result.winners)
    assert all(r.rule_id in RULEBOOK for r in result.reasons)


def test_every_legal_action_applies_and_round_trips_as_text() -> None:
    for seed in range(5):
        match = _random_match(seed, steps=10)
        rules = match.rules
        for action in match.legal_actions():
            assert rules.parse_action(str(action)) == action
            trial = match.copy()
            trial.apply(str(action))
            assert trial.state != match.state
            assert trial.actions[-1] == action


def test_apply_succeeds_exactly_for_the_listed_actions() -> None:
    for seed in range(8):
        match = _random_match(seed)
        for n in range(len(match.actions) + 1):
            here = tricklab.Match(Kalah.create(2), seed, actions=match.actions[:n])
            legal = here.legal_actions()
            assert (legal == []) == here.is_over
            before = here.state
            for pit in range(-1, 9):
                if Sow(pit) in legal:
                    continue
                with pytest.raises(IllegalAction) as info:
                    here.apply(Sow(pit))
                assert info.value.rule_id in RULEBOOK and str(info.value)
                assert here.state is before and len(here.actions) == n


def test_undo_restores_the_previous_state() -> None:
    match = _random_match(2, steps=25)
    states, actions = match.states, match.actions
    for _ in range(5):
        assert match.undo() == actions[len(match.actions)]
    assert match.state == states[-6]
    with pytest.raises(IllegalAction) as info:
        Kalah.create(2).new_match(seed=1).undo()
    assert info.value.rule_id == "mk.undo"


def test_the_contracts_view_shape() -> None:
    match = _random_match(4, steps=10)
    teacher = match.view(None)
    assert teacher.hands == match.state.hands == ((), ())
    for seat in (0, 1):
        assert match.view(seat).hands[seat] == () and match.view(seat).hands[1 - seat] is None


def test_timeline_replays_to_the_current_state() -> None:
    match = _random_match(6)
    steps = match.timeline()
    assert steps[0].event.kind == "deal"
    assert steps[-1].state == match.state
    assert [s.index for s in steps] == list(range(len(steps)))
    assert steps[-1].decisions == len(match.actions)
    assert [s.decisions for s in steps] == sorted(s.decisions for s in steps)
    for s in steps:
        assert s.event.text
        assert all(r.rule_id in RULEBOOK for r in s.event.reasons), s.event
    # a step per stone: the stones events of each move are the stones it lifted
    lifted = [s.event.data["stones"] for s in steps if s.event.kind == EventKind.SOW]
    assert sum(lifted) == sum(1 for s in steps if s.event.kind == EventKind.STONE)
    assert len(lifted) == len(match.actions)


def test_the_log_of_apply_ends_at_the_state_it_returns() -> None:
    match = _random_match(13)
    for before, action, after in zip(match.states[:-1], match.actions, match.states[1:], strict=True):
        log: list[Any] = []
        assert match.rules.apply(before, action, log) == after
        assert log and log[-1][1] == after


def test_a_seats_timeline_is_the_teachers_with_the_seats_view() -> None:
    match = _random_match(14)
    teacher = match.timeline()
    for seat in (0, 1):
        own = match.timeline(seat)
        assert [(s.index, s.decisions, s.event) for s in own] == [(s.index, s.decisions, s.event) for s in teacher]
        assert all(mine.state == match.rules.view(full.state, seat) for mine, full in zip(own, teacher, strict=True))
    with pytest.raises(InvalidOption):
        match.timeline(2)


def test_timeline_grows_with_the_match_and_shrinks_with_undo() -> None:
    match = _random_match(12, steps=20)
    match.timeline()
    rng = random.Random(1)
    for _ in range(10):
        if match.is_over:
            break
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])

    def rebuilt() -> list[tuple[str, Any, int]]:
        return [(s.text, s.state, s.decisions) for s in tricklab.Match.from_json(match.to_json()).timeline()]

    assert [(s.text, s.state, s.decisions) for s in match.timeline()] == rebuilt()
    for _ in range(7):
        match.undo()
    assert [(s.text, s.state, s.decisions) for s in match.timeline()] == rebuilt()


@pytest.mark.parametrize("options", [{}, {"stones": 6, "capture_empty_opposite": True}, {"stones": 3}])
def test_record_round_trip_is_exact(options: dict[str, Any]) -> None:
    match = _random_match(9, **options)
    record = json.loads(match.to_json())
    assert record["game"] == "kalah" and record["options"] == {"stones": 4, "capture_empty_opposite": False} | options
    assert all(a.startswith("sow ") for a in record["actions"])
    again = tricklab.Match.from_json(match.to_json())
    assert again.rules == match.rules and again.actions == match.actions
    assert again.states == match.states and again.to_json() == match.to_json()
    assert again.result == match.result
    assert [s.text for s in again.timeline()] == [s.text for s in match.timeline()]


def test_tampered_or_malformed_records_are_refused() -> None:
    match = _random_match(10, steps=30)
    record = json.loads(match.to_json())
    with pytest.raises(RecordError, match="digest"):
        tricklab.Match.from_json(json.dumps(dict(record, actions=[*record["actions"][:-1], "skip"])))
    with pytest.raises(RecordError, match="JSON"):
        tricklab.Match.from_json(match.to_json()[:-5])
    with pytest.raises(RecordError, match="missing"):
        tricklab.Match.from_json(json.dumps({k: v for k, v in record.items() if k != "seed"}))
    # a record whose digest is right but whose move is not allowed: not half-loaded
    from tricklab.match import _digest

    bad = {k: v for k, v in record.items() if k != "digest"}
    bad["actions"] = ["sow 1", "sow 1", "sow 1"]
    bad["digest"] = _digest(bad)
    with pytest.raises(RecordError, match="action 3"):
        tricklab.Match.from_json(json.dumps(bad))
    bad = {k: v for k, v in record.items() if k != "digest"}
    bad["options"] = {"stones": 9, "capture_empty_opposite": False}
    bad["digest"] = _digest(bad)
    with pytest.raises(RecordError, match="stones"):
        tricklab.Match.from_json(json.dumps(bad))


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, "7", True, None])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(InvalidOption, match="seed"):
        Kalah.create(2).new_match(seed=seed)  # type: ignore[arg-type]


# --- many seeded random games -------------------------------------------------------------------------


@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    stones=st.sampled_from([3, 4, 5, 6]),
    empty_opposite=st.booleans(),
)
def test_random_games_conserve_stones_end_and_score_the_stores(seed: int, stones: int, empty_opposite: bool) -> None:
    rules = Kalah.create(2, stones=stones, capture_empty_opposite=empty_opposite)
    state = rules.initial_state(seed)
    total = 12 * stones
    rng = random.Random(seed)
    moves = 0
    while not state.is_over:
        legal = rules.core_legal(state)
        assert legal, "a side with no stones has ended the game"
        seat = state.to_play
        facts: list[Any] = []
        after = rules.core_step(state, legal[rng.randrange(len(legal))], facts)
        assert after.pits == facts[-1][1].pits
        for fact, at in facts:  # the stones still in the mover's hand are off the board
            in_hand = (
                fact.stones
                if isinstance(fact, PickedUp)
                else fact.of - fact.number
                if isinstance(fact, StoneSown)
                else 0
            )
            assert sum(at.pits) + in_hand == total, "stones are conserved at every step"
        assert sum(isinstance(f, StoneSown) for f, _ in facts) == facts[0][0].stones
        assert after.stores[seat] >= state.stores[seat] and after.stores[1 - seat] >= state.stores[1 - seat]
        state = after
        moves += 1
        assert moves < 1000, "every game ends"
    assert sum(state.pits) == total
    assert state.side(0) == state.side(1) == (0,) * 6, "the sweep leaves no stone in a pit"
    result = rules.result(state)
    assert result is not None and result.totals == state.stores
    a, b = state.stores
    assert result.winners == ((0,) if a > b else (1,) if b > a else (0, 1))


# --- OpenSpiel's mancala (Kalah(6,4)) -----------------------------------------------------------------

# OpenSpiel's board is 14 counts: [seat 1's store, seat 0's pits 1-6, seat 0's store, seat 1's pits
# 1-6]; its action is the board index of the pit sown (1-6 for seat 0, 8-13 for seat 1). It ends the
# game when either side is empty and scores each player's side plus store, without moving the stones.


def _from_openspiel(board_: list[float]) -> tuple[int, ...]:
    counts = [int(c) for c in board_[:14]]
    return tuple(counts[1:14] + counts[:1])


def test_same_as_openspiel_mancala_on_random_games() -> None:
    pyspiel = pytest.importorskip(
        "pyspiel", reason="open_spiel is not installed (pip install open_spiel): no OpenSpiel to compare with"
    )
    game = pyspiel.load_game("mancala")
    rules = Kalah.create(2)
    compared = 0
    for seed in range(400):
        rng = random.Random(seed)
        ours = rules.initial_state(seed)
        theirs = game.new_initial_state()
        while True:
            assert ours.is_over == theirs.is_terminal(), (seed, ours)
            if ours.is_over:
                break
            seat = ours.to_play
            assert seat == theirs.current_player()
            assert ours.pits == _from_openspiel(theirs.observation_tensor(0))
            legal = rules.legal_actions(ours)
            assert [a.pit + 7 * seat for a in legal] == theirs.legal_actions()  # type: ignore[attr-defined]
            action = legal[rng.randrange(len(legal))]
            assert isinstance(action, Sow)
            ours = rules.apply(ours, action)
            theirs.apply_action(action.pit + 7 * seat)
            compared += 1
        counts = [int(c) for c in theirs.observation_tensor(0)[:14]]
        score = (sum(counts[1:8]), sum(counts[8:14]) + counts[0])
        assert ours.stores == score, seed
        result = rules.result(ours)
        assert result is not None
        returns = theirs.returns()
        expected = (0,) if returns[0] > 0 else (1,) if returns[1] > 0 else (0, 1)
        assert result.winners == expected, seed
    assert compared > 10_000


def test_the_stones_in_hand_are_on_the_board_while_a_sowing_is_told() -> None:
    """Mid-sowing, the stones lifted and not yet dropped are in the mover's hand: every step of
    the timeline holds all the stones, and the board says how many are in hand."""
    from tricklab.display.boards import pits

    rules = tricklab.get_rules("kalah", players=2)
    match = rules.new_match(seed=1)
    match.apply(match.legal_actions()[2])
    steps = match.timeline()
    lifted = [step.state.lifted for step in steps[1:]]
    assert lifted[:5] == [4, 3, 2, 1, 0]
    assert all(sum(step.state.pits) + step.state.lifted == 48 for step in steps)
    assert "3 stones in hand" in pits(rules, rules.view(steps[2].state, 0))
    assert "in hand" not in pits(rules, match.view(0))
