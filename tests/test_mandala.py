"""Mandala's engine core (rulings MD-1 to MD-6): one test per rule clause on hand-made
positions, the match contract applied to Mandala directly (it is not in the registry yet),
and property tests over many seeded random games with their own reading of the rules."""

from __future__ import annotations

import hashlib
import importlib
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tricklab
from tricklab.actions import Claim, Discard, ToField, ToMountain, parse_action
from tricklab.cards import COLOURS, ColourCard
from tricklab.errors import IllegalAction, InvalidAction, InvalidCard, InvalidOption, InvalidTrick, RecordError
from tricklab.games.base import EventKind, TieBreak
from tricklab.games.mandala import (
    CLAIM,
    OVER,
    PLAY,
    RULEBOOK,
    Mandala,
    MandalaState,
    MandalaView,
)

from .conftest import examples
from .test_rulebook_wording import ONE_PLURAL, SEEDS, ZERO_BASED, learner_sentences, shared_run, words

RULES = Mandala.create(2)
registry = importlib.import_module("tricklab.games")  # the module (tricklab.games is also a function)
NONE = (0,) * 6
TESTED: set[str] = set()  # the clauses the unit tests below cover (checked against the rulebook)


F = TypeVar("F", bound=Callable[..., None])


def clause(*rule_ids: str) -> Callable[[F], F]:
    """Mark a test as the unit test of these rulebook clauses."""

    def mark(test: F) -> F:
        TESTED.update(rule_ids)
        return test

    return mark


def cc(**counts: int) -> tuple[int, ...]:
    """Counts per colour: ``cc(red=2, blue=1)``."""
    return tuple(counts.get(c, 0) for c in COLOURS)


def ids(*colours: str) -> tuple[int, ...]:
    return tuple(COLOURS.index(c) for c in colours)


def position(
    *,
    hands: tuple[Mapping[str, int], Mapping[str, int]] = ({"red": 1}, {"red": 1}),
    mountains: tuple[Mapping[str, int], Mapping[str, int]] = ({}, {}),
    fields: tuple[tuple[Mapping[str, int], Mapping[str, int]], ...] = (({}, {}), ({}, {})),
    rivers: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    cups: tuple[Mapping[str, int], Mapping[str, int]] = ({}, {}),
    deck: tuple[str, ...] = ("yellow",) * 10,
    discards: Mapping[str, int] | None = None,
    to_play: int = 0,
    reshuffles: int = 0,
) -> MandalaState:
    return MandalaState(
        phase=PLAY,
        to_play=to_play,
        turn=to_play,
        hand_counts=tuple(cc(**h) for h in hands),
        mountains=tuple(cc(**m) for m in mountains),
        fields=tuple(tuple(cc(**f) for f in pair) for pair in fields),
        river_ids=tuple(ids(*r) for r in rivers),
        cup_counts=tuple(cc(**c) for c in cups),
        deck=ids(*deck),
        discards=cc(**(discards or {})),
        seed=1,
        reshuffles=reshuffles,
    )


def refused(state: MandalaState, action: str, rule_id: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        RULES.apply(state, action)
    assert info.value.rule_id == rule_id, info.value
    assert info.value.rule_id in RULEBOOK
    assert str(info.value) and info.value.to_you
    return info.value


def events(state: MandalaState, action: str) -> list[Any]:
    log: list[Any] = []
    RULES.apply(state, action, log)
    return [e for e, _ in log]


# --- players, cards, setup ----------------------------------------------------------------------------


@clause("md.players")
def test_two_players_only() -> None:
    with pytest.raises(InvalidOption) as info:
        Mandala.create(3)
    assert info.value.rule_id == "md.players"
    assert Mandala.create(2).players == 2


@clause("md.deck")
def test_108_cards_18_of_each_colour_in_their_own_notation() -> None:
    deck = RULES.deck()
    assert len(deck) == 108 and len(set(deck)) == 108
    assert Counter(card.suit for card in deck) == dict.fromkeys(COLOURS, 18)
    card = RULES.card("Red3")
    assert card is ColourCard("red", 3) and str(card) == "red3" and card.pretty == "red"
    assert RULES.card(str(card)) is card and repr(card) == "ColourCard('red3')"
    for bad in ("red19", "pink1", "R3", "3red"):
        with pytest.raises(InvalidCard):
            RULES.card(bad)
    assert tricklab.get_rules("jewel-vault", players=4).card("10H").rank == 10  # the other decks are unchanged


@clause("md.mandalas")
def test_two_mandalas_numbered_1_and_2() -> None:
    state = position(hands=({"red": 2}, {"red": 1}))
    refused(state, "mountain 3 red", "md.mandalas")
    refused(state, "field 0 red 1", "md.mandalas")
    assert RULES.view(state, None).mandalas[1].mountain == {}


@clause("md.setup")
def test_setup_deals_mountains_hands_and_cups_from_the_seed() -> None:
    state = RULES.initial_state(7)
    assert [sum(m) for m in state.mountains] == [2, 2]
    assert [sum(h) for h in state.hand_counts] == [6, 6]
    assert [sum(c) for c in state.cup_counts] == [2, 2]
    assert len(state.deck) == 88 and state.river_ids == ((), ())
    assert all(not any(f) for pair in state.fields for f in pair)
    assert state.card_total() == (18,) * 6
    assert RULES.initial_state(7) == state
    assert RULES.initial_state(8) != state
    assert RULES.initial_state(7, first_player=1).to_play == 1
    assert RULES.initial_state(7, first_player=0).to_play == 0
    with pytest.raises(InvalidOption):
        RULES.initial_state(7, first_player=2)
    with pytest.raises(InvalidOption):
        RULES.new_match(seed=1, first_player=True)


# --- the turn --------------------------------------------------------------------------------------


@clause("md.turn")
def test_a_turn_is_one_of_three_actions_and_there_are_no_tricks() -> None:
    state = position(hands=({"red": 2, "blue": 1}, {"red": 1}))
    kinds = {type(a) for a in RULES.legal_actions(state)}
    assert kinds == {ToMountain, ToField, Discard}
    with pytest.raises(InvalidTrick):
        RULES.resolve_trick(["red1"])
    with pytest.raises(InvalidTrick):
        RULES.legal_plays(["red1"])
    with pytest.raises(IllegalAction) as info:
        RULES.apply(state, tricklab.Play(ColourCard("red", 1)))
    assert info.value.rule_id == "md.turn"


@clause("md.turn.hand")
def test_only_cards_in_hand_may_be_used() -> None:
    state = position(hands=({"red": 2, "blue": 1}, {"green": 1}))
    error = refused(state, "mountain 1 green", "md.turn.hand")
    assert "Player 1 holds no green card" in str(error) and error.to_you == "You hold no green card"
    refused(state, "field 1 red 3", "md.turn.hand")
    refused(state, "discard blue 2", "md.turn.hand")
    refused(state, "discard orange 1", "md.turn.hand")


@clause("md.turn.mountain")
def test_mountain_play_puts_one_card_face_up_then_draws() -> None:
    state = position(hands=({"red": 3, "blue": 3}, {"green": 2}), deck=("orange", "yellow", "purple", "green"))
    after = RULES.apply(state, "mountain 2 red")
    assert after.mountains[1] == cc(red=1) and after.mountains[0] == NONE
    assert after.hand_counts[0] == cc(red=2, blue=3, orange=1, yellow=1, purple=1)
    assert after.deck == ids("green")
    assert after.to_play == 1 and after.phase is PLAY
    kinds = [e.kind for e in events(state, "mountain 2 red")]
    assert kinds == [EventKind.MOUNTAIN, EventKind.DRAW]


@pytest.mark.parametrize(("held", "drawn"), [(6, 3), (5, 3), (7, 2), (8, 1), (2, 3)])
@clause("md.turn.draw")
def test_the_draw_after_a_mountain_stops_at_eight_cards(held: int, drawn: int) -> None:
    state = position(hands=({"red": held}, {"green": 2}), deck=("blue",) * 5)
    after = RULES.apply(state, "mountain 1 red")
    assert sum(after.hand_counts[0]) == held - 1 + drawn
    assert sum(after.hand_counts[0]) <= 8
    assert len(after.deck) == 5 - drawn


@clause("md.turn.field")
def test_field_play_puts_cards_of_one_colour_into_the_own_field_without_a_draw() -> None:
    state = position(hands=({"red": 3, "blue": 1}, {"green": 2}), to_play=0)
    after = RULES.apply(state, "field 1 red 3")
    assert after.fields[0][0] == cc(red=3) and after.fields[0][1] == NONE
    assert after.hand_counts[0] == cc(blue=1) and after.deck == state.deck
    refused(state, "field 1 red 0", "md.turn.field")
    # seat 1 plays into its own Field: the Field on its side
    other = RULES.apply(replace(state, to_play=1, turn=1), "field 2 green 1")
    assert other.fields[1][1] == cc(green=1) and other.fields[1][0] == NONE


@clause("md.turn.field.keep")
def test_a_field_play_keeps_one_card_in_hand() -> None:
    state = position(hands=({"red": 3}, {"green": 2}))
    error = refused(state, "field 1 red 3", "md.turn.field.keep")
    assert "at least one" in str(error)
    assert ToField(1, "red", 2) in RULES.legal_actions(state)
    assert ToField(1, "red", 3) not in RULES.legal_actions(state)
    lonely = position(hands=({"red": 1}, {"green": 2}))
    assert not [a for a in RULES.legal_actions(lonely) if isinstance(a, ToField)]


@clause("md.turn.discard")
def test_discard_one_colour_and_draw_as_many() -> None:
    state = position(hands=({"green": 2, "red": 1}, {"blue": 1}), deck=("orange", "purple", "red"))
    after = RULES.apply(state, "discard green 2")
    assert after.hand_counts[0] == cc(red=1, orange=1, purple=1)
    assert after.discards == cc(green=2) and after.deck == ids("red")
    assert after.mountains == state.mountains and after.fields == state.fields
    refused(state, "discard green 0", "md.turn.discard")
    assert Discard("red", 1) in RULES.legal_actions(state)


# --- the Rule of Color -------------------------------------------------------------------------------


@clause("md.color")
def test_rule_of_color_within_one_mandala() -> None:
    state = position(
        hands=({"red": 3, "blue": 2, "green": 2}, {"red": 1}),
        mountains=({"red": 1}, {}),
        fields=(({}, {"blue": 2}), ({"green": 1}, {})),
    )
    # a colour in the Mountain cannot go into a Field of that Mandala
    error = refused(state, "field 1 red 1", "md.color")
    assert "red is already in the Mountain of Mandala 1" in str(error)
    # a colour in the other player's Field can go neither into the Mountain nor into one's own Field
    error = refused(state, "mountain 1 blue", "md.color")
    assert "blue is already in Player 2's Field of Mandala 1" in str(error)
    refused(state, "field 1 blue 1", "md.color")
    # a colour in one's own Field cannot go into that Mandala's Mountain, but more may join it
    error = refused(state, "mountain 2 green", "md.color")
    assert error.to_you.startswith("Green is already in your Field of Mandala 2")
    assert ToField(2, "green", 1) in RULES.legal_actions(state)
    # the Mountain may hold several cards of one colour; the other Mandala does not matter
    legal = RULES.legal_actions(state)
    assert ToMountain(1, "red") in legal and ToField(2, "red", 2) in legal and ToMountain(2, "blue") in legal


# --- completion and claims ------------------------------------------------------------------------------

FIVE = dict(mountains=({"red": 2, "orange": 1, "yellow": 1}, {}), fields=(({"green": 2}, {"blue": 1}), ({}, {})))


@clause("md.complete")
def test_a_mandala_with_six_colours_completes_at_the_end_of_the_turn() -> None:
    state = position(hands=({"purple": 2, "red": 1}, {"red": 1}), **FIVE)  # type: ignore[arg-type]
    after = RULES.apply(state, "field 1 purple 1")
    assert after.phase is CLAIM and after.claiming == 0 and after.turn == 0
    assert [e.kind for e in events(state, "field 1 purple 1")] == [EventKind.FIELD, EventKind.COMPLETE]
    five = RULES.apply(state, "field 2 purple 1")  # the other Mandala: nothing completes
    assert five.phase is PLAY and five.to_play == 1
    assert {type(a) for a in RULES.legal_actions(after)} == {Claim}


MOUNTAIN_FIVE = dict(
    mountains=({"red": 2, "orange": 1}, {}), fields=(({"green": 2}, {"blue": 1, "yellow": 1}), ({}, {}))
)


@clause("md.complete")
def test_a_mountain_play_completes_its_mandala_before_the_draw() -> None:
    """MD-6: the sixth colour arriving by a Mountain play completes the Mandala before that turn's
    draw, so a draw that empties the deck and reshuffles it does not make this Mandala the last."""
    state = position(hands=({"purple": 2}, {"red": 1}), deck=("yellow",), discards={"red": 3}, **MOUNTAIN_FIVE)
    log: list[Any] = []
    after = RULES.apply(state, "mountain 1 purple", log)
    kinds = [e.kind for e, _ in log]
    assert kinds == [EventKind.MOUNTAIN, EventKind.COMPLETE, EventKind.DRAW, EventKind.RESHUFFLE, EventKind.DRAW]
    assert after.phase is CLAIM and after.reshuffles == 1 and not after.last  # complete before the reshuffle
    assert sum(after.hand_counts[0]) == 4  # one card kept, then three drawn: one old, two new
    # the reading records saved before MD-6 were played with: complete only after the draw, so it is the last
    old = RULES.with_options(completion="after-draw")
    legacy = old.apply(state, "mountain 1 purple", log := [])
    assert legacy.phase is CLAIM and legacy.last
    assert [e.kind for e, _ in log][-1] == EventKind.COMPLETE
    assert RULEBOOK["md.complete"].option == "completion" and RULEBOOK["md.complete"].ruling == "MD-6"
    with pytest.raises(InvalidOption, match="completion"):
        RULES.with_options(completion="later")


@clause("md.claim.order")
def test_more_cards_in_field_chooses_first_and_a_tie_goes_to_the_other_player() -> None:
    state = position(hands=({"purple": 3, "red": 1}, {"red": 1}), **FIVE)  # type: ignore[arg-type]
    assert RULES.apply(state, "field 1 purple 1").to_play == 0  # 3 cards against 1
    tied = position(
        hands=({"purple": 3}, {"red": 1}),
        mountains=({"red": 2, "orange": 1, "yellow": 1}, {}),
        fields=(({"green": 1}, {"blue": 2}), ({}, {})),
    )
    assert RULES.apply(tied, "field 1 purple 1").to_play == 1  # 2 and 2: the one who did not complete
    completer = RULES.with_options(claim_tie="completer")
    assert completer.apply(tied, "field 1 purple 1").to_play == 0
    fewer = replace(tied, fields=((cc(green=1), cc(blue=3)), (NONE, NONE)))
    assert RULES.apply(fewer, "field 1 purple 1").to_play == 1  # 2 against 3
    assert RULEBOOK["md.claim.order"].option == "claim_tie"
    with pytest.raises(InvalidOption):
        Mandala.create(2, claim_tie="dealer")


def claiming(first: int = 0, **kw: Any) -> MandalaState:
    """A completed Mandala 1 whose Mountain holds red 2, orange 1, yellow 1; Fields green 2 and blue 1."""
    base: dict[str, Any] = dict(hands=({"purple": 1}, {"red": 1}), **FIVE)
    base.update(kw)
    state = position(**base)
    return replace(state, phase=CLAIM, claiming=0, to_play=first)


@clause("md.claim")
def test_claims_take_a_whole_colour_in_alternation() -> None:
    state = claiming()
    assert RULES.legal_actions(state) == [Claim("red"), Claim("orange"), Claim("yellow")]
    error = refused(state, "claim blue", "md.claim")
    assert "red, orange and yellow" in str(error)
    refused(state, "mountain 1 purple", "md.claim.order")
    refused(position(), "claim red", "md.claim")
    after = RULES.apply(state, "claim red")
    assert after.mountains[0] == cc(orange=1, yellow=1) and after.to_play == 1
    after = RULES.apply(after, "claim yellow")
    assert after.to_play == 0 and after.phase is CLAIM


@clause("md.claim.river")
def test_a_colour_new_to_the_river_puts_one_card_on_the_next_space() -> None:
    state = claiming(rivers=(("blue",), ()))
    after = RULES.apply(state, "claim red")
    assert after.river_ids[0] == ids("blue", "red") and after.cup_counts[0] == cc(red=1)
    (kind, text, data) = next((e.kind, e.text, e.data) for e in events(state, "claim red"))
    assert kind == EventKind.CLAIM and "River space 2" in text and data["river_space"] == 2


@clause("md.claim.cup")
def test_a_colour_already_in_the_river_goes_wholly_to_the_cup() -> None:
    state = claiming(rivers=(("red",), ()), cups=({"red": 1}, {}))
    after = RULES.apply(state, "claim red")
    assert after.river_ids[0] == ids("red") and after.cup_counts[0] == cc(red=3)


@clause("md.claim.empty-field")
def test_a_player_with_an_empty_field_discards_what_they_take() -> None:
    state = claiming(fields=(({"green": 2, "blue": 1}, {}), ({}, {})), first=1)
    after = RULES.apply(state, "claim red")
    assert after.discards == cc(red=2) and after.river_ids[1] == () and after.cup_counts[1] == NONE
    assert [e.data["discarded"] for e in events(state, "claim red")] == [True]


@clause("md.clear")
def test_a_shared_out_mandala_is_cleared_and_its_mountain_restarted() -> None:
    state = claiming(deck=("purple", "green", "blue"))
    state = replace(state, mountains=(cc(red=2), NONE), turn=1)
    after = RULES.apply(state, "claim red")
    assert after.fields[0] == (NONE, NONE)
    assert after.discards == cc(green=2, blue=1)
    assert after.mountains[0] == cc(purple=1, green=1) and after.deck == ids("blue")
    assert after.phase is PLAY and after.to_play == 0  # the seat after the one who completed it (seat 1)
    kinds = [e.kind for e in events(state, "claim red")]
    assert kinds == [EventKind.CLAIM, EventKind.CLEAR, EventKind.REFILL]


# --- the deck, the end, the score ----------------------------------------------------------------------


@clause("md.reshuffle")
def test_an_empty_deck_is_replaced_by_the_shuffled_discards() -> None:
    state = position(hands=({"red": 3}, {"blue": 1}), deck=("green",), discards={"purple": 4, "orange": 2})
    after = RULES.apply(state, "mountain 1 red")
    assert sum(after.hand_counts[0]) == 5 and after.reshuffles == 1
    assert after.discards == NONE and len(after.deck) == 4
    assert after.card_total() == _sum(state.card_total(), NONE)
    assert RULES.apply(state, "mountain 1 red") == after  # seeded: the same every time
    log: list[Any] = []
    RULES.apply(state, "mountain 1 red", log)
    kinds = [e.kind for e, _ in log]
    # the last card of the old deck, the reshuffle, then the rest from the new deck
    assert kinds == [EventKind.MOUNTAIN, EventKind.DRAW, EventKind.RESHUFFLE, EventKind.DRAW]
    first, second = log[1][0], log[3][0]
    assert first.data["colours"] == ("green",) and first.data["emptied"] and not first.data["short"]
    assert second.data["count"] == 2 and second.data["continued"] and "2 more cards" in second.text
    assert "last of the deck" in first.text and "run out" in log[2][0].text
    for _, during in log:  # every card is somewhere at every step
        assert during.card_total() == state.card_total()
    # nothing left to draw at all: fewer cards are drawn
    empty = position(hands=({"red": 3}, {"blue": 1}), deck=("green",))
    dry = RULES.apply(empty, "mountain 1 red")
    assert sum(dry.hand_counts[0]) == 3 and dry.deck == () and dry.reshuffles == 0
    assert "nothing more to draw" in events(empty, "mountain 1 red")[-1].text


def _sum(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


@clause("md.end.deck")
def test_the_first_completion_after_a_reshuffle_ends_the_game() -> None:
    before = position(hands=({"purple": 2}, {"red": 1}), reshuffles=1, **FIVE)  # type: ignore[arg-type]
    state = RULES.apply(before, "field 1 purple 1")
    assert state.phase is CLAIM and state.last
    for colour in ("red", "orange", "yellow"):
        state = RULES.apply(state, f"claim {colour}")
    assert state.phase is OVER and state.end == "deck" and state.to_play is None
    assert state.mountains[0] == NONE  # no new Mountain
    assert RULES.legal_actions(state) == []
    early = position(hands=({"purple": 2}, {"red": 1}), reshuffles=0, **FIVE)  # type: ignore[arg-type]
    assert not RULES.apply(early, "field 1 purple 1").last


@clause("md.end.river")
def test_a_river_with_six_colours_ends_the_game() -> None:
    five = ("orange", "yellow", "green", "blue", "purple")
    state = claiming(rivers=(five, ()))
    after = RULES.apply(state, "claim red")
    assert after.phase is OVER and after.end == "river" and after.mountains[0] == cc(orange=1, yellow=1)
    later = RULES.with_options(river_end="after-claims")
    after = later.apply(state, "claim red")
    assert after.phase is CLAIM and after.to_play == 1
    after = later.apply(later.apply(after, "claim orange"), "claim yellow")
    assert after.phase is OVER and after.end == "river"
    assert RULEBOOK["md.end.river"].option == "river_end"


@clause("md.end.stalled")
def test_a_deck_that_runs_out_again_ends_the_game_as_it_stands() -> None:
    """MD-5: the discards become a new deck once; when that one runs out too, the game ends at once."""
    once = position(hands=({"red": 1}, {"blue": 1}), deck=())
    twice = RULES.with_options(reshuffles=2)
    after = twice.apply(once, "discard red 1")  # the discarded card is reshuffled and drawn back
    assert after.hand_counts[0] == cc(red=1) and after.reshuffles == 1 and after.phase is PLAY
    assert RULES.apply(once, "discard red 1").end == "stalled"  # and that one-card deck has run out again
    again = position(hands=({"red": 2}, {"blue": 1}), deck=("green",), reshuffles=1, discards={"blue": 4})
    log: list[Any] = []
    over = RULES.apply(again, "discard red 2", log)
    assert over.phase is OVER and over.end == "stalled" and over.reshuffles == 1
    assert over.hand_counts[0] == cc(green=1)  # the last card of the deck was drawn, then the game ended
    assert [e.kind for e, _ in log] == [EventKind.DISCARD, EventKind.DRAW, EventKind.END]
    assert log[-1][0].reasons[0].rule_id == "md.end.stalled" and "run out again" in log[-1][0].reasons[0].text
    assert RULES.result(over) is not None and RULES.legal_actions(over) == []
    # also when the deck empties at the end of a draw: nothing is left to rebuild it
    exact = position(hands=({"red": 1, "orange": 1}, {"blue": 1}), deck=("green",), reshuffles=1)
    assert RULES.apply(exact, "discard red 1").end == "stalled"
    # the option: records saved before MD-5 rebuilt the deck each time it ran out
    assert RULES.with_options(reshuffles=2).apply(again, "discard red 2").phase is PLAY
    assert RULEBOOK["md.end.stalled"].ruling == "MD-5" and RULEBOOK["md.end.stalled"].option == "reshuffles"
    for bad in (0, 101, True, 1.0, "1"):
        with pytest.raises(InvalidOption, match="reshuffles"):
            RULES.with_options(reshuffles=bad)


@clause("md.end.stuck")
def test_a_player_with_no_card_and_nothing_to_draw_ends_the_game() -> None:
    stuck = position(hands=({"red": 2}, {}), deck=())
    over = RULES.apply(stuck, "field 1 red 1")
    assert over.phase is OVER and over.end == "stuck" and RULES.result(over) is not None


@clause("md.score")
def test_each_cup_card_scores_its_colours_river_space() -> None:
    score = RULES.score(cup={"red": 3, "blue": 2, "green": 4}, river=["blue", "green", "red"])
    assert score.total == 3 * 3 + 2 * 1 + 4 * 2 == 19
    assert score.breakdown == {"red": 9, "green": 8, "blue": 2}
    assert RULES.score(cup={"purple": 5}, river=["red"]).total == 0  # not in the River: nothing
    state = replace(
        position(rivers=(("red", "blue"), ("green",)), cups=({"red": 2, "blue": 3, "purple": 4}, {"green": 5})),
        phase=OVER,
        to_play=None,
    )
    assert RULES.totals(state) == (2 * 1 + 3 * 2, 5)
    result = RULES.result(state)
    assert result is not None and result.totals == (8, 5) and result.winners == (0,) and result.tie_break is None
    for bad in ({"pink": 1}, {"red": 19}, {"red": True}):
        with pytest.raises(tricklab.errors.InvalidScoreInput):
            RULES.score(cup=bad, river=["red"])


@clause("md.score.tie")
def test_equal_scores_go_to_fewer_cup_cards_then_are_shared() -> None:
    over = dict(phase=OVER, to_play=None)
    fewer = replace(position(rivers=(("red",), ("red", "blue")), cups=({"red": 4}, {"blue": 2})), **over)
    result = RULES.result(fewer)
    assert result is not None and result.totals == (4, 4)
    assert result.winners == (1,) and result.tie_break is TieBreak.FEWER_CUP
    assert "md.score.tie" in [r.rule_id for r in result.reasons]
    same = replace(position(rivers=(("red",), ("blue",)), cups=({"red": 2}, {"blue": 2})), **over)
    shared = RULES.result(same)
    assert shared is not None and shared.winners == (0, 1) and shared.tie_break is TieBreak.SHARED


# --- views, the end, undo ---------------------------------------------------------------------------


@clause("md.view")
def test_a_seat_sees_its_hand_the_mandalas_and_rivers_but_no_hidden_card() -> None:
    match = RULES.new_match(seed=3)
    state = match.state
    teacher = match.view(None)
    assert isinstance(teacher, MandalaView)
    assert teacher.hands == state.hands and teacher.cups == state.cups
    assert teacher.rivers == ((), ()) and len(teacher.mandalas) == 2
    assert [sum(m.mountain.values()) for m in teacher.mandalas] == [2, 2]
    assert all(m.fields == ({}, {}) for m in teacher.mandalas)
    assert teacher.deck is not None and len(teacher.deck) == 88
    for seat in (0, 1):
        view = match.view(seat)
        assert view.hands[seat] == state.hands[seat] and view.hands[1 - seat] is None
        assert view.cups[1 - seat] is None and view.cup_sizes == (2, 2)
        assert view.deck is None and view.deck_size == 88 and view.scores is None
        assert Counter(c.suit for c in view.hand) == state.hands[seat]
    with pytest.raises(InvalidOption):
        match.view(2)


@clause("md.cup.own", "md.setup")
def test_a_player_may_look_at_their_own_cup_but_not_the_others() -> None:
    """MD-4: face down hides a Cup from the other player, not from its owner."""
    match = RULES.new_match(seed=3)
    for seat in (0, 1):
        view = match.view(seat)
        assert view.cups[seat] == match.state.cups[seat] and sum(view.cups[seat].values()) == 2
        assert view.cups[1 - seat] is None
        dealt = match.timeline(seat)[0].event
        assert dealt.data["cups"][seat] == match.state.cup_counts[seat] and dealt.data["cups"][1 - seat] is None
    assert RULEBOOK["md.cup.own"].ruling == "MD-4"
    assert "without looking" not in RULEBOOK["md.setup"].text


@clause("md.over")
def test_nothing_is_played_once_the_game_is_over() -> None:
    state = replace(position(), phase=OVER, to_play=None)
    refused(state, "mountain 1 red", "md.over")
    refused(state, "claim red", "md.over")


@clause("md.undo")
def test_undo_needs_a_decision() -> None:
    with pytest.raises(IllegalAction) as info:
        RULES.new_match(seed=1).undo()
    assert info.value.rule_id == "md.undo"
    match = RULES.new_match(seed=1)
    first = match.legal_actions()[0]
    match.apply(first)
    assert match.undo() == first and len(match.states) == 1


def test_every_clause_has_a_unit_test_and_the_rulings_are_cited() -> None:
    assert set(RULEBOOK) == TESTED
    assert {c.ruling for c in RULEBOOK.values()} - {None} == {"MD-1", "MD-2", "MD-3", "MD-4", "MD-5", "MD-6"}


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed texts are not beside the repository")
def test_the_rulebook_is_in_the_projects_own_words() -> None:
    seed = words((SEEDS / "002_ccb9f9e9c68cf89e.txt").read_text(encoding="utf-8"))
    for clause in RULEBOOK.values():
        text = "\n".join([clause.title, clause.text, clause.ruling or "", clause.option or ""])
        assert shared_run(text, seed) is None, clause.id


def test_actions_and_choices_in_words() -> None:
    state = claiming()
    view = RULES.view(state, 0)
    assert RULES.describe_action(Claim("red"), view) == "Claim red (2 cards)"
    assert RULES.describe_action(ToMountain(1, "red")) == "Put one red card into Mountain 1, then draw"
    assert RULES.describe_action(ToField(2, "blue", 3)) == "Put 3 blue cards into your Field of Mandala 2"
    assert RULES.describe_action(Discard("green", 1)) == "Discard 1 green card and draw as many"
    choice = RULES.explain_choice(view)
    assert choice.rule_id == "md.claim" and "red, orange and yellow" in choice.text
    assert RULES.explain_choice(RULES.view(position(), 0)).rule_id == "md.turn"
    assert RULES.explain_choice(RULES.view(replace(position(), phase=OVER, to_play=None), 0)).rule_id == "md.over"


def test_engine_sentences_count_and_seat_rightly() -> None:
    for seed in range(6):
        rules = RULES.with_options(claim_tie="completer") if seed % 2 else RULES
        match = random_match(seed, rules=rules)
        sentences = list(learner_sentences(match))
        for seat in (0, 1):
            sentences += [s.event.text for s in match.timeline(seat)]
        for state in match.states[:-1]:  # every refusal of the moment, too
            legal = set(rules.legal_actions(state))
            for action in rules.actions:
                if action not in legal:
                    with pytest.raises(IllegalAction) as info:
                        rules.apply(state, action)
                    sentences += [str(info.value), info.value.to_you]
        for text in sentences:
            assert "(s)" not in text and not ONE_PLURAL.search(text) and not ZERO_BASED.search(text), text
            assert not re.search(r"\b1 [a-z]+ cards\b|\ba orange\b", text), text


# --- actions and their text forms ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("mountain 1 red", ToMountain(1, "red")),
        ("MOUNTAIN 2 Blue", ToMountain(2, "blue")),
        ("field 2 blue 3", ToField(2, "blue", 3)),
        ("discard green 2", Discard("green", 2)),
        ("claim purple", Claim("purple")),
    ],
)
def test_actions_read_back_from_their_text(text: str, action: Any) -> None:
    parsed = parse_action(text, RULES.card)
    assert parsed == action and parse_action(str(action), RULES.card) == action
    assert RULES.parse_action(text) == action


@pytest.mark.parametrize("text", ["mountain red 1", "field 1 pink 2", "discard green", "claim", "claim 3"])
def test_bad_action_texts_are_refused(text: str) -> None:
    with pytest.raises(InvalidAction):
        RULES.parse_action(text)


def test_the_action_table_is_small_and_every_action_reads_back() -> None:
    assert len(RULES.actions) == 150
    assert len(set(RULES.actions)) == 150
    for action in RULES.actions:
        assert RULES.parse_action(str(action)) == action


# --- the match contract, applied to Mandala --------------------------------------------------------------


def random_match(seed: int, steps: int | None = None, rules: Mandala = RULES) -> tricklab.Match:
    match = rules.new_match(seed=seed)
    rng = random.Random(seed)
    count = 0
    while not match.is_over and (steps is None or count < steps):
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
        count += 1
    return match


def test_same_seed_same_match() -> None:
    a = RULES.play(seed=11, bots="random")
    b = RULES.play(seed=11, bots="random")
    assert a.actions == b.actions and a.state == b.state
    assert RULES.play(seed=12, bots="random").states[0] != a.states[0]


def test_random_bots_finish_a_match_with_a_result() -> None:
    match = RULES.play(seed=3, bots="random")
    assert match.is_over and match.legal_actions() == []
    result = match.result
    assert result is not None and result.winners and set(result.winners) <= {0, 1}
    assert all(result.totals[w] == max(result.totals) for w in result.winners)
    assert all(r.rule_id in RULEBOOK for r in result.reasons)


def test_every_legal_action_applies_and_round_trips_as_text() -> None:
    for seed in range(4):
        match = random_match(seed, steps=15 * seed)
        for action in match.legal_actions():
            assert RULES.parse_action(str(action)) == action
            trial = match.copy()
            trial.apply(str(action))
            assert trial.state != match.state


def test_apply_succeeds_exactly_for_the_listed_actions() -> None:
    for seed in range(3):
        match = random_match(seed, steps=20 + 7 * seed)
        legal = set(match.legal_actions())
        before = match.state
        for action in RULES.actions:
            if action in legal:
                RULES.apply(before, action)
            else:
                with pytest.raises(IllegalAction) as info:
                    RULES.apply(before, action)
                assert info.value.rule_id in RULEBOOK
        assert match.state is before


def test_illegal_action_names_a_rule_and_changes_nothing() -> None:
    match = random_match(8, steps=30)
    before = match.state
    wrong = next(a for a in RULES.actions if a not in set(match.legal_actions()))
    with pytest.raises(IllegalAction) as info:
        match.apply(wrong)
    assert info.value.rule_id in RULEBOOK and str(info.value)
    assert match.state is before and len(match.actions) == 30


def test_undo_restores_the_previous_state() -> None:
    match = random_match(2, steps=25)
    states, actions = match.states, match.actions
    for _ in range(5):
        assert match.undo() == actions[len(match.actions)]
    assert match.state == states[-6]


def test_views_hide_the_other_hand() -> None:
    match = random_match(4, steps=30)
    assert match.view(None).hands == tuple(match.state.hands)
    for seat in (0, 1):
        hands = match.view(seat).hands
        assert hands[seat] == match.state.hands[seat] and hands[1 - seat] is None


def test_timeline_replays_to_the_current_state() -> None:
    match = random_match(6)
    steps = match.timeline()
    assert steps[0].event.kind == "deal"
    assert steps[-1].state == match.state and steps[-1].event.kind == "end"
    assert [s.index for s in steps] == list(range(len(steps)))
    assert steps[-1].decisions == len(match.actions)
    assert [s.decisions for s in steps] == sorted(s.decisions for s in steps)
    for step in steps:
        assert step.event.text
        for reason in step.event.reasons:
            assert reason.rule_id in RULEBOOK, reason


def test_a_claim_is_stepped_colour_by_colour() -> None:
    match = random_match(6)
    steps = match.timeline()
    complete = [i for i, s in enumerate(steps) if s.event.kind == EventKind.COMPLETE]
    assert complete
    for i in complete:
        claims = []
        for step in steps[i + 1 :]:
            if step.event.kind != EventKind.CLAIM:
                break
            claims.append(step)
        colours = [s.event.data["colour"] for s in claims]
        assert len(colours) == len(set(colours))
        assert all(s.event.reasons[0].rule_id == "md.claim" for s in claims)
        assert all(s.decisions == claims[0].decisions + k for k, s in enumerate(claims))  # one decision each


def test_the_log_of_apply_ends_at_the_state_it_returns() -> None:
    match = random_match(13)
    for before, action, after in zip(match.states[:-1], match.actions, match.states[1:], strict=True):
        log: list[Any] = []
        assert RULES.apply(before, action, log) == after
        assert log and log[-1][1] == after


def test_record_round_trip_is_exact() -> None:
    for options in ({}, {"claim_tie": "completer", "river_end": "after-claims"}):
        match = RULES.with_options(**options).play(seed=9, bots="random")
        again = tricklab.Match.from_json(match.to_json())
        assert again.rules == match.rules and again.actions == match.actions
        assert again.states == match.states and again.to_json() == match.to_json()
        assert [s.event.text for s in again.timeline()] == [s.event.text for s in match.timeline()]
        assert again.result == match.result
    started = RULES.new_match(seed=4, first_player=1)
    assert tricklab.Match.from_json(started.to_json()).to_play == 1


def test_tampered_or_malformed_records_are_refused() -> None:
    record = json.loads(random_match(10, steps=30).to_json())
    changed = dict(record, actions=record["actions"][:-1] + ["skip"])
    with pytest.raises(RecordError, match="digest"):
        tricklab.Match.from_json(json.dumps(changed))
    body = {k: v for k, v in changed.items() if k != "digest"}
    from tricklab.match import _digest

    with pytest.raises(RecordError, match="cannot be replayed"):
        tricklab.Match.from_json(json.dumps(dict(body, digest=_digest(body))))
    with pytest.raises(RecordError, match="missing"):
        tricklab.Match.from_json(json.dumps({k: v for k, v in record.items() if k != "seed"}))


def test_mandala_is_in_the_registry() -> None:
    assert registry.find_game("mandala") is Mandala and registry.find_game("Mandala") is Mandala
    assert tricklab.get_rules("mandala", players=2) == RULES


def test_timeline_grows_with_the_match_and_shrinks_with_undo() -> None:
    match = random_match(12, steps=20)
    match.timeline()
    rng = random.Random(1)
    for _ in range(15):
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])

    def rebuilt() -> list[tuple[str, Any, int]]:
        fresh = tricklab.Match.from_json(match.to_json())
        return [(s.event.text, s.state, s.decisions) for s in fresh.timeline()]

    assert [(s.event.text, s.state, s.decisions) for s in match.timeline()] == rebuilt()
    for _ in range(7):
        match.undo()
    assert [(s.event.text, s.state, s.decisions) for s in match.timeline()] == rebuilt()


def test_a_seed_keeps_its_deal_and_its_game() -> None:
    """Records are forever: the same seed deals the same cards and reshuffles the same way."""
    state = RULES.initial_state(2026)
    assert state.mountains == (cc(red=1, blue=1), cc(orange=2))
    assert state.hand_counts == (cc(red=2, orange=2, blue=2), cc(red=2, yellow=1, green=1, purple=2))
    assert state.cup_counts == (cc(yellow=1, purple=1), cc(red=1, yellow=1))
    assert state.deck[:10] == (3, 2, 3, 4, 4, 4, 2, 3, 3, 2) and state.to_play == 1
    # the game as it was played before MD-5 and MD-6 (its record names neither option)
    match = random_match(31, rules=RULES.as_legacy())
    assert len(match.actions) == 97 and match.state.reshuffles == 1 and match.state.end == "deck"
    assert hashlib.sha256(match.to_json().encode()).hexdigest()[:16] == "ab0a17caa73afc8c"
    assert match.result is not None and match.result.totals == (26, 29)
    assert json.loads(match.to_json())["options"] == {"claim_tie": "other", "river_end": "at-once"}


def test_another_spelling_of_a_listed_action_is_recorded_as_the_listed_one() -> None:
    match = RULES.new_match(seed=5)
    listed = match.legal_actions()[0]
    shouted = str(listed).upper()
    match.apply(shouted)
    assert match.actions == (listed,)


def test_a_seats_timeline_shows_nothing_hidden_from_it() -> None:
    match = random_match(21)
    for seat in (0, 1):
        for step in match.timeline(seat):
            check_view(step.state, seat)
            data = step.event.data
            if step.event.kind == EventKind.DEAL:
                assert data["hands"][1 - seat] is None and data["hands"][seat] is not None
                assert data["cups"][1 - seat] is None and data["cups"][seat] is not None
                assert "holds" in step.event.text and RULES.seat_name(1 - seat) + " holds" not in step.event.text
            if step.event.kind == EventKind.DRAW and step.event.seat != seat:
                assert data["colours"] is None and ":" not in step.event.text
    teacher = [s.event for s in match.timeline() if s.event.kind == EventKind.DRAW]
    assert any(e.data["colours"] for e in teacher)


# --- properties over many seeded random games ------------------------------------------------------------


def check_view(view: MandalaView, seat: int) -> None:
    """A seat's view holds neither the other hand, nor the deck's order, nor a card of the other
    face-down Cup (until the game is over and the Cups are opened); its own Cup it may see (MD-4)."""
    assert view.seat == seat
    assert view.hands[1 - seat] is None and view.deck is None
    if view.phase is not OVER:
        assert view.cups[1 - seat] is None and view.cups[seat] is not None and view.scores is None


def oracle_score(state: MandalaState) -> tuple[int, ...]:
    """The score as the rule reads: each Cup card is worth its colour's River space, counted 1 up."""
    out = []
    for seat in (0, 1):
        river = list(state.rivers[seat])
        out.append(
            sum(river.index(colour) + 1 for colour, n in state.cups[seat].items() if colour in river for _ in range(n))
        )
    return tuple(out)


def oracle_legal(state: MandalaState) -> set[str]:
    """The legal turn actions by a reading of MD-1 and MD-2 of its own (texts)."""
    seat = state.to_play
    assert seat is not None
    hand = state.hands[seat]
    size = sum(hand.values())
    view = RULES.view(state, None)
    out = set()
    for m, area in enumerate(view.mandalas, start=1):
        for colour in hand:
            if colour not in area.fields[0] and colour not in area.fields[1]:
                out.add(f"mountain {m} {colour}")
            if colour not in area.mountain and colour not in area.fields[1 - seat]:
                out.update(f"field {m} {colour} {n}" for n in range(1, min(hand[colour], size - 1) + 1))
    for colour, n in hand.items():
        out.update(f"discard {colour} {k}" for k in range(1, n + 1))
    return out


@examples(0.5)  # an example is a whole game with checks after every decision
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    claim_tie=st.sampled_from(["other", "completer"]),
    river_end=st.sampled_from(["at-once", "after-claims"]),
    completion=st.sampled_from(["on-arrival", "after-draw"]),
    reshuffles=st.sampled_from([1, 1, 2, 100]),
)
def test_random_games_keep_every_rule(
    seed: int, claim_tie: str, river_end: str, completion: str, reshuffles: int
) -> None:
    rules = RULES.with_options(claim_tie=claim_tie, river_end=river_end, completion=completion, reshuffles=reshuffles)
    match = rules.new_match(seed=seed)
    rng = random.Random(seed)
    for _ in range(3000):
        state = match.state
        assert state.card_total() == (18,) * 6, "108 cards, 18 of each colour, in every state"
        assert all(sum(h) <= 8 for h in state.hand_counts)
        assert all(len(set(r)) == len(r) <= 6 for r in state.river_ids)
        for m in range(2):  # the Rule of Color holds in both Mandalas
            areas = (state.mountains[m], *state.fields[m])
            assert all(sum(1 for a in areas if a[c]) <= 1 for c in range(6))
        for seat in (0, 1):
            check_view(rules.view(state, seat), seat)
        if match.is_over:
            break
        legal = match.legal_actions()
        assert 0 < len(legal) <= 36
        if state.phase is PLAY:
            assert {str(a) for a in legal} == oracle_legal(state)
        else:
            assert state.claiming is not None
            assert {a.colour for a in legal if isinstance(a, Claim)} == set(
                rules.view(state, None).mandalas[state.claiming].mountain
            )
        match.apply(legal[rng.randrange(len(legal))])
    assert match.is_over, "every game ends"
    state = match.state
    result = match.result
    assert result is not None
    assert result.totals == oracle_score(state)
    best = max(result.totals)
    tied = [s for s in (0, 1) if result.totals[s] == best]
    if len(tied) == 1:
        assert result.winners == tuple(tied) and result.tie_break is None
    else:
        sizes = [sum(state.cups[s].values()) for s in (0, 1)]
        fewest = [s for s in (0, 1) if sizes[s] == min(sizes)]
        assert result.winners == tuple(fewest)
    if state.end == "river":
        assert any(len(r) == 6 for r in state.river_ids)
    elif state.end == "deck":
        assert state.reshuffles >= 1
    elif state.end == "stalled":
        assert state.deck == () and state.reshuffles == rules.options.reshuffles
    for step in match.timeline():  # every card is somewhere at every step, the reshuffle's included
        assert step.state.card_total() == (18,) * 6, step.event.text
    assert match.timeline()[-1].state == state
    if seed % 4 == 0:  # a seat's timeline, for a quarter of the games (it replays the whole game)
        for seat in (0, 1):
            for step in match.timeline(seat):
                check_view(step.state, seat)
                data = step.event.data
                if step.event.kind == EventKind.DEAL:
                    assert data["hands"][1 - seat] is None and data["cups"][1 - seat] is None
                if step.event.kind == EventKind.DRAW and step.event.seat != seat:
                    assert data["colours"] is None
