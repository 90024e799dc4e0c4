"""Try a move (tricklab.moves): each legal move's outcome is what the rules do with it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

import tricklab
from tricklab.bots import make_bots
from tricklab.cards import COLOURS
from tricklab.errors import InvalidOption
from tricklab.games.base import EventKind
from tricklab.games.kalah import Kalah, KalahState
from tricklab.games.kalah.bots import SearchBot
from tricklab.games.kalah.moves import SEARCH_DEPTH
from tricklab.games.mandala import CLAIM, PLAY, Mandala, MandalaState, MandalaView
from tricklab.match import Match
from tricklab.moves import MoveOutcome, offers_moves, try_moves

KALAH = tricklab.get_rules("kalah", players=2)
MANDALA = tricklab.get_rules("mandala", players=2)
assert isinstance(KALAH, Kalah) and isinstance(MANDALA, Mandala)


def played(rules: Any, seed: int, moves: int) -> Match:
    """A seeded match after ``moves`` moves of the heuristic bots (fewer if it would end)."""
    match = rules.new_match(seed)
    bots = make_bots(rules, "heuristic", seed)
    for _ in range(moves):
        seat = match.to_play
        after = match.copy()
        after.apply(bots[seat].choose(match.view(seat), match.legal_actions()))
        if after.is_over:
            break
        match = after
    return match


def outcome(outcomes: tuple[MoveOutcome, ...], text: str) -> MoveOutcome:
    found = [o for o in outcomes if o.text == text]
    assert len(found) == 1, [o.text for o in outcomes]
    return found[0]


def board(own: tuple[int, ...], own_store: int, other: tuple[int, ...], other_store: int) -> KalahState:
    return KALAH.position((*own, own_store, *other, other_store), to_play=0)


def test_only_games_that_declare_it_offer_it() -> None:
    assert offers_moves(KALAH) and offers_moves(MANDALA)
    trick_game = tricklab.get_rules("tricks-and-stones", players=4)
    assert not offers_moves(trick_game)
    with pytest.raises(InvalidOption, match="not offered"):
        try_moves(trick_game.new_match(1))


# --- Kalah --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "moves"), [(1, 0), (2, 5), (3, 12), (4, 25)])
def test_each_kalah_outcome_is_what_the_checked_apply_does(seed: int, moves: int) -> None:
    match = played(KALAH, seed, moves)
    seat = match.to_play
    outcomes = try_moves(match)
    assert [o.action for o in outcomes] == match.legal_actions()
    start = len(match.timeline(seat))
    before = match.view(seat)
    for o in outcomes:
        real = match.copy()
        real.apply(o.text)
        assert o.view == real.view(seat)
        steps = real.timeline(seat)[start:]
        assert [(s.event.kind, s.event.text, s.event.reasons) for s in steps] == [
            (e.kind, e.text, e.reasons) for e in o.events
        ]
        store = 6 if seat == 0 else 13
        assert o.effect("gained") == real.view(seat).pits[store] - before.pits[store]
        assert o.effect("again") == int(real.to_play == seat)
        assert ("mk.again" in o.rule_ids) == (real.to_play == seat)
        assert o.description.startswith(f"Sow pit {o.text.split()[1]}")


def test_a_last_stone_in_the_own_store_moves_again() -> None:
    state = board((0, 0, 4, 0, 0, 1), 0, (1,) * 6, 0)
    outcomes = try_moves(KALAH, state)
    again = outcome(outcomes, "sow 3")  # 4 stones: pits 4, 5, 6, store
    assert again.effect("again") == 1 and again.effect("gained") == 1 and again.effect("captured") == 0
    assert "mk.again" in again.rule_ids and again.view.to_play == 0
    last = outcome(outcomes, "sow 6")  # 1 stone: the store
    assert last.effect("again") == 1 and last.effect("gained") == 1


def test_a_capture_takes_the_stones_across_and_the_last_stone() -> None:
    state = board((2, 0, 0, 0, 0, 0), 0, (1, 1, 1, 5, 1, 1), 0)  # pit 3 is across from pit 4 (5 stones)
    capture = outcome(try_moves(KALAH, state), "sow 1")
    assert capture.effect("captured") == 5 and capture.effect("gained") == 6 and capture.effect("again") == 0
    assert "mk.capture" in capture.rule_ids
    assert capture.view.pits[2] == 0 and capture.view.pits[10] == 0 and capture.view.pits[6] == 6
    assert capture.view.to_play == 1


def test_nothing_across_is_no_capture_unless_the_option_says_so() -> None:
    state = board((2, 0, 0, 0, 0, 1), 0, (1, 1, 1, 0, 1, 1), 0)
    plain = outcome(try_moves(KALAH, state), "sow 1")
    assert plain.effect("captured") == 0 and plain.effect("gained") == 0
    assert "mk.capture" not in plain.rule_ids and plain.view.pits[2] == 1
    with_option = KALAH.with_options(capture_empty_opposite=True)
    stored = outcome(try_moves(with_option, state), "sow 1")
    assert stored.effect("captured") == 0 and stored.effect("gained") == 1
    assert "mk.capture.empty-opposite" in stored.rule_ids


def test_a_move_that_empties_the_side_ends_the_game_and_says_so() -> None:
    state = board((0, 0, 0, 0, 0, 1), 10, (1,) * 6, 10)
    end = outcome(try_moves(KALAH, state), "sow 6")
    assert end.effect("ends") == 1 and end.effect("swept") == 6 and end.effect("gained") == 1
    assert end.effect("again") == 0  # the game is over: nobody moves again
    assert {"mk.end", "mk.sweep"} <= set(end.rule_ids) and end.view.to_play is None
    assert end.events[-1].kind is EventKind.END


def test_the_opponents_store_is_passed_by() -> None:
    state = board((1, 0, 0, 0, 0, 8), 0, (1,) * 6, 0)  # store, six pits across, skip, own pit 1
    long = outcome(try_moves(KALAH, state), "sow 6")
    assert "mk.skip" in long.rule_ids and long.effect("gained") == 1 and long.effect("captured") == 0
    assert long.view.pits[13] == 0 and long.view.pits[0] == 2 and long.view.to_play == 1


@pytest.mark.parametrize(("seed", "moves"), [(1, 0), (5, 7), (6, 20)])
def test_the_kalah_search_value_is_the_search_bots(seed: int, moves: int) -> None:
    match = played(KALAH, seed, moves)
    seat = match.to_play
    outcomes = try_moves(match)
    values = SearchBot(KALAH, seat, depth=SEARCH_DEPTH).values(match.view(seat))
    assert {o.action: o.value for o in outcomes} == values
    best = [o for o in outcomes if o.best]
    assert len(best) == 1 and best[0].value == max(values.values())
    assert best[0].action == SearchBot(KALAH, seat, depth=SEARCH_DEPTH).choose(match.view(seat), match.legal_actions())
    assert [r.rule_id for r in best[0].verdict][-1] == "bot.kalah.search"
    assert all(not o.verdict for o in outcomes if not o.best)


def test_only_the_player_to_move_tries_moves() -> None:
    match = KALAH.new_match(1)
    with pytest.raises(InvalidOption, match="Player 1's turn"):
        try_moves(match, seat=1)
    over = KALAH.position((0,) * 6 + (24,) + (0,) * 6 + (24,), to_play=None)
    with pytest.raises(InvalidOption, match="over"):
        try_moves(KALAH, over)
    with pytest.raises(InvalidOption, match="needs a state"):
        try_moves(KALAH)
    with pytest.raises(InvalidOption, match="'kalah'"):
        try_moves("kalah")  # type: ignore[arg-type]


# --- Mandala --------------------------------------------------------------------------------------------


def cc(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(c, 0) for c in COLOURS)


def mandala_position(
    *,
    hands: tuple[Mapping[str, int], Mapping[str, int]],
    mountains: tuple[Mapping[str, int], Mapping[str, int]] = ({}, {}),
    fields: tuple[tuple[Mapping[str, int], Mapping[str, int]], ...] = (({}, {}), ({}, {})),
    rivers: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    cups: tuple[Mapping[str, int], Mapping[str, int]] = ({}, {}),
    deck: tuple[str, ...] = ("yellow",) * 10,
) -> MandalaState:
    return MandalaState(
        phase=PLAY,
        to_play=0,
        turn=0,
        hand_counts=tuple(cc(**h) for h in hands),
        mountains=tuple(cc(**m) for m in mountains),
        fields=tuple(tuple(cc(**f) for f in pair) for pair in fields),
        river_ids=tuple(tuple(COLOURS.index(c) for c in r) for r in rivers),
        cup_counts=tuple(cc(**c) for c in cups),
        deck=tuple(COLOURS.index(c) for c in deck),
        discards=cc(),
        seed=1,
    )


FIVE: dict[str, Any] = dict(
    mountains=({"red": 2, "orange": 1, "yellow": 1}, {}), fields=(({"green": 2}, {"blue": 1}), ({}, {}))
)


def _hand(view: Any, seat: int) -> dict[str, int]:
    assert isinstance(view, MandalaView)
    return dict(view.hands[seat] or {})


@pytest.mark.parametrize(("seed", "moves"), [(1, 0), (2, 9), (3, 30), (4, 60)])
def test_each_mandala_outcome_is_what_the_checked_apply_does_as_far_as_the_seat_knows(seed: int, moves: int) -> None:
    match = played(MANDALA, seed, moves)
    seat = match.to_play
    outcomes = try_moves(match)
    assert [o.action for o in outcomes] == match.legal_actions()
    start = len(match.timeline(seat))
    for o in outcomes:
        real = match.copy()
        real.apply(o.text)
        after = real.view(seat)
        assert isinstance(after, MandalaView) and isinstance(o.view, MandalaView)
        drawn = o.effect("drawn")
        # everything but the cards still to be drawn is as the move makes it
        kept = _hand(o.view, seat)
        full = _hand(after, seat)
        assert all(full.get(c, 0) >= n for c, n in kept.items())
        assert sum(full.values()) - sum(kept.values()) == drawn
        assert o.view.rivers == after.rivers and o.view.discards == after.discards
        assert o.view.deck_size == after.deck_size and o.view.to_play == after.to_play
        assert o.view.phase == after.phase and o.view.hand_sizes[1 - seat] == after.hand_sizes[1 - seat]
        steps = real.timeline(seat)[start:]
        assert [s.event.kind for s in steps] == [e.kind for e in o.events]
        for step, told in zip(steps, o.events, strict=True):
            assert [r.rule_id for r in told.reasons] == [r.rule_id for r in step.event.reasons][: len(told.reasons)]
            if step.event.kind not in (EventKind.DRAW, EventKind.REFILL, EventKind.END):
                assert told.text == step.event.text


def test_completing_a_mandala_with_the_bigger_field_chooses_first() -> None:
    state = mandala_position(hands=({"purple": 2, "red": 1}, {"red": 1}), **FIVE)
    outcomes = try_moves(MANDALA, state)
    complete = outcome(outcomes, "field 1 purple 1")
    assert complete.effect("completed") == 1
    assert any(e.text == "completes Mandala 1: you choose first" for e in complete.effects)
    assert {"md.complete", "md.claim.order"} <= set(complete.rule_ids)
    assert complete.view.phase is CLAIM and complete.view.to_play == 0
    assert complete.effect("field") == 3  # green 2 and purple 1 against blue 1
    elsewhere = outcome(outcomes, "field 2 purple 1")
    assert elsewhere.effect("completed") == 0 and elsewhere.view.to_play == 1
    assert elsewhere.effect("colours") == 1


def test_a_mountain_play_draws_cards_it_does_not_name() -> None:
    state = mandala_position(hands=({"purple": 1, "red": 1}, {"red": 1}), deck=("green", "green", "blue"), **FIVE)
    completes = outcome(try_moves(MANDALA, state), "mountain 1 purple")
    assert completes.effect("drawn") == 3 and completes.effect("completed") == 1
    assert _hand(completes.view, 0) == {"red": 1}  # the 3 cards to come are not shown
    assert completes.view.deck_size == 0
    draw = next(e for e in completes.events if e.kind is EventKind.DRAW)
    assert draw.data["colours"] is None and "green" not in draw.text and "blue" not in draw.text
    assert "md.turn.draw" in completes.rule_ids
    assert completes.view.to_play == 0  # green 2 in the Field against blue 1: Player 1 chooses first


def test_a_claim_new_to_the_river_sets_its_space_and_the_rest_go_to_the_cup() -> None:
    state = replace(
        mandala_position(hands=({"purple": 1}, {"red": 1}), rivers=(("blue",), ()), **FIVE),
        phase=CLAIM,
        claiming=0,
    )
    outcomes = try_moves(MANDALA, state)
    assert [o.text for o in outcomes] == ["claim red", "claim orange", "claim yellow"]
    red = outcome(outcomes, "claim red")
    assert red.effect("claimed") == 2 and red.effect("river") == 2 and red.effect("cup") == 1
    assert {"md.claim", "md.claim.river"} <= set(red.rule_ids)
    assert red.view.rivers[0] == ("blue", "red") and red.view.to_play == 1


def test_the_last_claim_refills_the_mountain_without_naming_the_new_cards() -> None:
    state = replace(
        mandala_position(
            hands=({"purple": 1}, {"red": 1}),
            mountains=({"red": 2}, {}),
            fields=(({"green": 2}, {"blue": 1}), ({}, {})),
            deck=("orange", "yellow", "blue"),
        ),
        phase=CLAIM,
        claiming=0,
    )
    last = outcome(try_moves(MANDALA, state), "claim red")
    kinds = [e.kind for e in last.events]
    assert kinds == [EventKind.CLAIM, EventKind.CLEAR, EventKind.REFILL]
    refill = last.events[-1]
    assert "orange" not in refill.text and "yellow" not in refill.text and "2 new cards" in refill.text
    assert last.view.mandalas[0].mountain == {} and last.view.deck_size == 1


def test_a_game_ending_move_is_not_scored_before_the_cups_are_opened() -> None:
    five = ("red", "orange", "yellow", "green", "blue")
    state = replace(
        mandala_position(
            hands=({"purple": 1}, {"red": 1}),
            mountains=({"purple": 1}, {}),
            fields=(({"green": 2}, {"blue": 1}), ({}, {})),
            rivers=(five, ()),
            cups=({"red": 3}, {"blue": 2}),
        ),
        phase=CLAIM,
        claiming=0,
    )
    ends = outcome(try_moves(MANDALA, state), "claim purple")
    assert ends.effect("ends") == 1 and ends.view.to_play is None
    assert isinstance(ends.view, MandalaView) and ends.view.cups[1] is None and ends.view.scores is None
    assert ends.view.cups[0] == {"red": 3}  # one's own Cup (MD-4)
    told = ends.events[-1]
    assert told.kind is EventKind.END and [r.rule_id for r in told.reasons] == ["md.end.river"]
    assert "points" not in told.text


def test_mandala_outcomes_use_only_what_the_seat_sees() -> None:
    """Two positions that differ only in what the seat cannot see give the same outcomes, and
    no outcome shows the other hand, the other Cup or the deck; the seat's own Cup it sees as it is."""
    one = mandala_position(
        hands=({"purple": 2, "red": 1}, {"red": 3}), cups=({"green": 2}, {"red": 2}), deck=("blue",) * 6, **FIVE
    )
    other = replace(one, hand_counts=(one.hand_counts[0], cc(orange=1, blue=2)), cup_counts=(cc(green=2), cc(purple=2)))
    other = replace(other, deck=tuple(COLOURS.index(c) for c in ("red", "green") * 3))
    first, second = try_moves(MANDALA, one), try_moves(MANDALA, other)
    assert [(o.text, o.effects, o.view, [(e.text, e.reasons) for e in o.events]) for o in first] == [
        (o.text, o.effects, o.view, [(e.text, e.reasons) for e in o.events]) for o in second
    ]
    for o in first:
        assert isinstance(o.view, MandalaView)
        assert o.view.hands[1] is None and o.view.deck is None and o.view.cups == ({"green": 2}, None)
        for e in o.events:
            if e.kind is EventKind.DRAW:
                assert e.data["colours"] is None


def test_the_heuristic_bots_move_is_marked_with_its_reasons() -> None:
    match = played(MANDALA, 7, 4)
    seat = match.to_play
    outcomes = try_moves(match)
    decision = make_bots(MANDALA, "heuristic", 7)[seat].decide(match.view(seat), match.legal_actions())  # type: ignore[attr-defined]
    best = [o for o in outcomes if o.best]
    assert [o.action for o in best] == [decision.action]
    assert best[0].verdict == tuple(decision.reasons) and best[0].verdict[-1].rule_id.startswith("bot.mandala.")
    assert all(o.value is None for o in outcomes)
