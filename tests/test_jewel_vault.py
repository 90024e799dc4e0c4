"""Jewel Vault: one or more tests per rule clause (ids in the test names and asserts),
the seed's worked examples, and every kind of bad input."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from itertools import combinations
from math import comb
from typing import Any

import pytest

import tricklab
from tricklab import Announce, Pass, Play, Steal
from tricklab.bots import RandomBot
from tricklab.errors import IllegalAction, InvalidCard, InvalidOption, InvalidScoreInput, InvalidTrick
from tricklab.games.base import Event
from tricklab.games.jewel_vault import (
    ANNOUNCE,
    CARD_IDS,
    OVER,
    PASS,
    PLAY,
    RULEBOOK,
    STEAL,
    ActionResult,
    DueAction,
    Jewels,
    JewelVault,
    JewelVaultOptions,
    JewelVaultState,
    Passed,
    PassIds,
)
from tricklab.games.jewel_vault.bots import HeuristicBot

ANNA, BEN, CARLA, DAN, EMIL = range(5)


def jv(players: int = 4, **options: Any) -> Any:
    rules = tricklab.get_rules("jewel-vault", players=players, **options)
    assert isinstance(rules, JewelVault)
    return rules


def ids(thing: Any) -> list[str]:
    return [r.rule_id for r in thing.reasons]


def ranked(outcome: Any) -> list[str]:
    return [str(c) for c in outcome.ranked_cards]


def table(
    rules: Any,
    hands: Sequence[str],
    *,
    leader: int = 0,
    showrooms: Sequence[int] | None = None,
    vaults: Sequence[int] | None = None,
    supply: int | None = None,
    won: Sequence[str] | None = None,
    tricks_won: Sequence[int] | None = None,
    tricks_played: int = 0,
) -> JewelVaultState:
    """A state in the play phase with these hands (the dealer sits right of ``leader``)."""
    n = rules.players
    base: JewelVaultState = rules.initial_state(0, first_dealer=(leader - 1) % n)
    sides = len(set(rules.sides))
    ids = CARD_IDS
    won_masks = tuple(ids.mask(rules.cards(w)) for w in won) if won is not None else base.won_masks
    return base._replace(
        phase=PLAY,
        to_play=leader,
        leader=leader,
        hand_masks=tuple(ids.mask(rules.cards(h)) for h in hands),
        aside_mask=0,
        announced=1,
        exchanged=True,
        supply=base.supply if supply is None else supply,
        showrooms=tuple(showrooms) if showrooms is not None else base.showrooms,
        vaults=tuple(vaults) if vaults is not None else (0,) * sides,
        won_masks=won_masks,
        tricks_won=tuple(tricks_won) if tricks_won is not None else (0,) * n,
        tricks_played=tricks_played,
    )


def run(rules: Any, state: JewelVaultState, *actions: str) -> tuple[JewelVaultState, list[Event]]:
    """Apply actions (text) and return the last state and every logged event."""
    events: list[Event] = []
    for text in actions:
        log: list[tuple[Event, Any]] = []
        state = rules.apply(state, rules.parse_action(text), log)
        events.extend(e for e, _ in log)
    return state, events


def action_results(events: list[Event]) -> list[ActionResult]:
    return [e.data["result"] for e in events if e.kind == "action"]


def past_pass(rules: Any, seed: int = 1, k: int = 1, **match_options: Any) -> tricklab.Match:
    match: tricklab.Match = rules.new_match(seed=seed, **match_options)
    match.apply(Announce(k))
    while match.phase == PASS:
        match.apply(match.legal_actions()[0])
    return match


# --- jv.players, options ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_jv_players_two_to_six(players: int) -> None:
    rules = jv(players)
    assert rules.players == players and rules.name == "jewel-vault"


@pytest.mark.parametrize("players", [0, 1, 7, "4", 4.0, True, None])
def test_jv_players_other_counts_refused(players: object) -> None:
    with pytest.raises(InvalidOption) as info:
        tricklab.get_rules("jewel-vault", players=players)  # type: ignore[arg-type]
    assert info.value.rule_id == "jv.players"


def test_jv_registry_names() -> None:
    assert "jewel-vault" in tricklab.games()
    assert tricklab.get_rules("Jewel Vault", players=3) == jv(3)
    assert tricklab.find_game("jv") is JewelVault
    assert repr(jv(4, partnerships=True)).startswith("tricklab.get_rules('jewel-vault', players=4")


@pytest.mark.parametrize("players", [2, 3, 5])
def test_jv_partnerships_need_four_or_six(players: int) -> None:
    with pytest.raises(InvalidOption) as info:
        jv(players, partnerships=True)
    assert info.value.rule_id == "jv.partnerships"
    assert str(players) in str(info.value)


@pytest.mark.parametrize("players", [5, 6])
def test_jv_known_deck_not_defined_for_five_or_six(players: int) -> None:
    with pytest.raises(InvalidOption) as info:
        jv(players, known_deck=True)
    assert info.value.rule_id == "jv.known-deck"


@pytest.mark.parametrize("value", [0, -1, 101, 2.5, True, "4"])
def test_jv_rounds_option_checked(value: object) -> None:
    with pytest.raises(InvalidOption) as info:
        jv(4, rounds=value)
    assert info.value.rule_id == "jv.rounds"


@pytest.mark.parametrize("value", [11, -5, 0, True, 50.0, "100", None])
def test_jv_supply_option_checked(value: object) -> None:
    with pytest.raises(InvalidOption) as info:
        jv(4, supply=value)
    assert info.value.rule_id == "jv.supply"


@pytest.mark.parametrize(("name", "value"), [("partnerships", "yes"), ("known_deck", 1), ("colour", "red")])
def test_jv_bad_or_unknown_options(name: str, value: object) -> None:
    with pytest.raises(InvalidOption):
        jv(4, **{name: value})


def test_jv_options_are_frozen_and_listed() -> None:
    options = jv(4).options
    assert isinstance(options, JewelVaultOptions)
    assert options.as_dict() == {"partnerships": False, "known_deck": False, "rounds": None, "supply": 100}
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.supply = 5  # type: ignore[misc]


# --- jv.deck, jv.card-order, jv.known-deck --------------------------------------------------------


def test_jv_deck_has_52_cards_ace_to_king() -> None:
    deck = jv(4).deck()
    assert len(deck) == 52 == len(set(deck))
    assert {c.rank for c in deck} == set(range(1, 14))
    assert jv(4).card("AS").rank == 1 and jv(4).card("KS").rank == 13


@pytest.mark.parametrize(
    ("text", "expected"), [("10H", "10H"), ("TH", "10H"), ("10♥", "10H"), ("q♠", "QS"), ("AS", "AS"), ("2C", "2C")]
)
def test_jv_deck_notation(text: str, expected: str) -> None:
    rules = jv(4)
    card = rules.card(text)
    assert str(card) == expected
    assert rules.card(str(card)) is card


@pytest.mark.parametrize("text", ["1S", "14H", "AX", "", "S7", "11H"])
def test_jv_deck_rejects_what_is_not_a_card(text: str) -> None:
    with pytest.raises(InvalidCard):
        jv(4).card(text)


def test_jv_card_order_ace_is_lowest() -> None:
    out = jv(4).resolve_trick(["AH", "2H", "KH", "10H"])
    assert ranked(out) == ["KH", "10H", "2H", "AH"]
    assert "jv.rank.within" in ids(out)
    assert any("Ace is the lowest" in r.text for r in out.reasons)


@pytest.mark.parametrize(("players", "size", "top", "each"), [(4, 52, 13, 13), (3, 36, 9, 12), (2, 32, 8, 16)])
def test_jv_known_deck_shrinks_the_deck(players: int, size: int, top: int, each: int) -> None:
    rules = jv(players, known_deck=True)
    deck = rules.deck()
    assert len(deck) == size and max(c.rank for c in deck) == top and min(c.rank for c in deck) == 1
    assert rules.cards_each == each
    state = rules.initial_state(5)
    assert [len(h) for h in state.hands] == [each] * players and state.aside == ()
    if top < 13:
        with pytest.raises(InvalidCard):
            rules.card(f"{top + 1}S")


def test_jv_known_deck_with_partnerships_is_allowed() -> None:
    rules = jv(4, known_deck=True, partnerships=True)
    assert len(rules.deck()) == 52 and rules.receiver(0) == 2


# --- jv.deal, jv.start, jv.supply, jv.rounds ----------------------------------------------------


@pytest.mark.parametrize(("players", "each"), [(2, 10), (3, 10), (4, 10), (5, 10), (6, 8)])
def test_jv_deal_sizes_and_cards_aside(players: int, each: int) -> None:
    rules = jv(players)
    state = rules.initial_state(7)
    assert [len(h) for h in state.hands] == [each] * players
    assert len(state.aside) == 52 - each * players
    assert sorted(map(str, [*state.aside, *(c for h in state.hands for c in h)])) == sorted(map(str, rules.deck()))
    assert rules.initial_state(7) == state
    assert rules.initial_state(8).hands != state.hands
    log: list[tuple[Event, Any]] = []
    rules.initial_state(7, log)
    assert log[0][0].kind == "deal" and "jv.deal" in ids(log[0][0])


def test_jv_start_three_jewels_in_each_showroom() -> None:
    state = jv(5).initial_state(1)
    assert state.jewels == Jewels(85, (3, 3, 3, 3, 3), (0, 0, 0, 0, 0))
    log: list[tuple[Event, Any]] = []
    jv(5).initial_state(1, log)
    assert {"jv.start", "jv.supply"} <= set(ids(log[0][0]))


def test_jv_supply_option_sets_the_supply() -> None:
    assert jv(3, supply=20).initial_state(1).jewels.supply == 11
    assert jv(4, supply=12).initial_state(1).jewels.supply == 0


@pytest.mark.parametrize(("players", "rounds"), [(2, 4), (3, 6), (4, 4), (5, 5), (6, 6)])
def test_jv_rounds_default_by_player_count(players: int, rounds: int) -> None:
    assert jv(players).rounds == rounds
    assert RULEBOOK["jv.rounds"].option == "rounds"


def test_jv_rounds_and_the_dealer_moves_left_jewels_stay() -> None:
    rules = jv(3, rounds=3)
    match = rules.play(seed=4, bots="random", first_dealer=2)
    deals = [s for s in match.timeline() if s.event.kind == "deal"]
    assert [s.state.dealer for s in deals] == [2, 0, 1]
    assert [s.state.round for s in deals] == [0, 1, 2]
    assert match.is_over
    # jewels carry over: each new deal starts from the jewels the last round ended with
    steps = match.timeline()
    for i, step in enumerate(steps):
        if step.event.kind == "deal" and i:
            assert step.state.jewels == steps[i - 1].state.jewels


# --- jv.announce --------------------------------------------------------------------------------


def test_jv_announce_dealer_names_one_to_three() -> None:
    rules = jv(4)
    state = rules.initial_state(3, first_dealer=2)
    assert state.phase == ANNOUNCE and state.to_play == 2
    assert rules.legal_actions(state) == [Announce(1), Announce(2), Announce(3)]
    for k in (0, 4, -1):
        with pytest.raises(IllegalAction) as info:
            rules.apply(state, Announce(k))
        assert info.value.rule_id == "jv.announce"
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Play(state.hands[2][0]))
    assert info.value.rule_id == "jv.announce"
    after = rules.apply(state, Announce(3))
    assert after.phase == PASS and after.announced == 3 and after.to_play == 3


def test_jv_first_dealer_match_option() -> None:
    rules = jv(4)
    assert rules.new_match(seed=1, first_dealer=1).state.dealer == 1
    with pytest.raises(InvalidOption):
        rules.new_match(seed=1, first_dealer=4)
    with pytest.raises(InvalidOption):
        rules.initial_state(1, first_leader=0)


# --- jv.pass, jv.pass.secret, jv.partnerships.pass -----------------------------------------------


def test_jv_pass_exactly_the_announced_number() -> None:
    rules = jv(4)
    match = rules.new_match(seed=2, first_dealer=0)
    match.apply("announce 2")
    hand = match.state.hands[1]
    assert len(match.legal_actions()) == comb(len(hand), 2)
    bad = [
        (Pass(hand[:1]), "jv.pass"),
        (Pass(hand[:3]), "jv.pass"),
        (Pass((hand[0], hand[0])), "jv.pass"),
        (Pass((hand[0], match.state.hands[2][0])), "jv.hand"),
        (Play(hand[0]), "jv.pass"),
    ]
    for action, rule in bad:
        with pytest.raises(IllegalAction) as info:
            match.apply(action)
        assert info.value.rule_id == rule, action
    match.apply(Pass((hand[3], hand[0])))  # any order
    assert match.state.passes[1] == (hand[0], hand[3])


def test_jv_pass_is_secret_until_everyone_passed() -> None:
    rules = jv(4)
    match = rules.new_match(seed=2, first_dealer=3)
    match.apply("announce 1")
    order = []
    while match.phase == PASS:
        seat = match.to_play
        assert seat is not None
        order.append(seat)
        chosen = match.state.hands[seat][0]
        match.apply(Pass((chosen,)))
        if match.phase != PASS:
            break
        assert chosen not in match.state.hands[seat]
        for other in range(4):
            view = match.view(other)
            assert view.passed[seat]
            assert view.passes[seat] == ((chosen,) if other == seat else None)
            assert view.received is None
    assert order == [0, 1, 2, 3]


def test_jv_pass_goes_to_the_left() -> None:
    rules = jv(4)
    match = rules.new_match(seed=5, first_dealer=0)
    match.apply("announce 3")
    before = match.state.hands
    given = {}
    while match.phase == PASS:
        seat = match.to_play
        assert seat is not None
        given[seat] = match.state.hands[seat][-3:]
        match.apply(Pass(given[seat]))
    for seat in range(4):
        left = (seat + 1) % 4
        assert set(given[seat]) <= set(match.state.hands[left])
        assert not set(given[seat]) & set(match.state.hands[seat])
        assert match.view(left).received == given[seat]
        assert len(match.state.hands[seat]) == len(before[seat])


def test_jv_partnerships_pass_to_the_partner() -> None:
    rules = jv(6, partnerships=True)
    assert [rules.receiver(s) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    match = past_pass(rules, seed=3, k=2, first_dealer=5)
    for seat in range(6):
        assert set(match.state.passes[seat]) <= set(match.state.hands[(seat + 3) % 6])
    assert RULEBOOK["jv.partnerships.pass"].option == "partnerships"


def test_jv_two_players_pass_to_each_other() -> None:
    match = past_pass(jv(2), seed=1, k=2, first_dealer=0)
    assert set(match.state.passes[0]) <= set(match.state.hands[1])
    assert set(match.state.passes[1]) <= set(match.state.hands[0])


# --- jv.lead.first, jv.turn, jv.hand -------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 2, 3])
def test_jv_lead_first_left_of_dealer(dealer: int) -> None:
    match = past_pass(jv(4), seed=9, first_dealer=dealer)
    assert match.phase == PLAY and match.to_play == (dealer + 1) % 4 == match.state.leader
    assert any("jv.lead.first" in ids(s.event) for s in match.timeline())


def test_jv_hand_only_own_cards() -> None:
    rules = jv(4)
    state = table(rules, ["9H 2S", "3H", "5C", "QH"])
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Play(rules.card("3H")))
    assert info.value.rule_id == "jv.hand"
    assert "3♥" in str(info.value)


# --- jv.follow, jv.follow.void, legal_plays -----------------------------------------------------


def test_jv_follow_suit_if_able() -> None:
    rules = jv(4)
    assert [str(c) for c in rules.legal_plays("2H 9S KH", trick=["5H"])] == ["2H", "KH"]
    assert [str(c) for c in rules.legal_plays("2C 9S", trick=["5H", "6H"])] == ["2C", "9S"]
    assert len(rules.legal_plays("2C 9S 4H")) == 3
    state = table(rules, ["9H", "3H 4C", "5C", "QH"])
    state = rules.apply(state, Play(rules.card("9H")))
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Play(rules.card("4C")))
    assert info.value.rule_id == "jv.follow"
    assert "♥ was led" in str(info.value) and "3♥" in str(info.value)


def test_jv_legal_plays_bad_input() -> None:
    rules = jv(4)
    with pytest.raises(InvalidTrick):
        rules.legal_plays("2H", trick=["3H", "4H", "5H", "6H"])
    with pytest.raises(InvalidTrick):
        rules.legal_plays("2H 2H", trick=["3H"])
    with pytest.raises(InvalidTrick):
        rules.legal_plays("2H 3H", trick=["3H"])
    with pytest.raises(InvalidOption):
        rules.legal_plays("2H", trick=["3H"], trump="S")
    with pytest.raises(InvalidCard):
        rules.legal_plays("2X", trick=[])


def test_jv_follow_void_takes_the_action_at_once() -> None:
    rules = jv(4)
    state = table(rules, ["9H", "2D", "3H", "QH"], supply=10)
    state, events = run(rules, state, "play 9H", "play 2D")
    results = action_results(events)
    assert len(results) == 1 and results[0].seat == 1 and results[0].suit == "D" and results[0].cause == "void"
    assert state.jewels.vaults[1] == 1 and state.jewels.supply == 9
    assert state.to_play == 2 and state.trick == rules.cards("9H 2D")  # before the next player plays
    kinds = [e.kind for e in events]
    assert kinds == ["play", "play", "action"]
    assert "jv.follow.void" in ids(events[1]) and "jv.follow.void" in ids(events[2])


# --- jv.rank, jv.rank.within, jv.rank.offsuit, jv.trick -----------------------------------------


def test_jv_rank_anna_ben_carla_dan_trick() -> None:
    out = jv(4).resolve_trick(["9H", "3H", "5C", "QH"])
    assert out.winner == 3 and out.ranking == (3, 0, 1, 2)
    assert ids(out)[0] == "jv.rank"
    assert "♥" in out.reasons[0].text and "never win" in out.reasons[0].text
    assert "jv.rank.offsuit" in ids(out) and "jv.rank.within" in ids(out)


def test_jv_rank_offsuit_cards_follow_in_play_order() -> None:
    out = jv(5).resolve_trick(["5H", "KS", "2C", "QD", "AH"])
    assert out.ranking == (0, 4, 1, 2, 3)
    assert ids(out).count("jv.rank.offsuit") == 3


def test_jv_rank_every_reason_names_the_led_suit_even_without_offsuit_cards() -> None:
    out = jv(3).resolve_trick(["4S", "JS", "2S"])
    assert out.winner == 1
    assert "♠" in out.reasons[0].text and "never win" in out.reasons[0].text


def test_jv_rank_partial_trick() -> None:
    rules = jv(4)
    assert rules.resolve_trick(["7C"]).winner == 0
    assert "jv.trick" in ids(rules.resolve_trick(["7C"]))
    assert rules.resolve_trick(["7C", "KD"]).winner == 0
    assert rules.resolve_trick(["7C", "8C"]).winner == 1


def test_jv_rank_bad_tricks() -> None:
    rules = jv(4)
    with pytest.raises(InvalidTrick):
        rules.resolve_trick([])
    with pytest.raises(InvalidTrick) as info:
        rules.resolve_trick(["2H", "3H", "4H", "5H", "6H"])
    assert info.value.rule_id == "jv.trick"
    with pytest.raises(InvalidTrick) as info:
        rules.resolve_trick(["2H", "2H"])
    assert info.value.rule_id == "jv.deck"
    with pytest.raises(InvalidOption):
        rules.resolve_trick(["2H"], trump="S")
    with pytest.raises(InvalidCard):
        rules.resolve_trick(["2Z"])


def test_jv_trick_two_players_hold_four_cards() -> None:
    rules = jv(2)
    assert rules.trick_size == 4 and rules.tricks_per_round == 5
    assert jv(2, known_deck=True).tricks_per_round == 8
    with pytest.raises(InvalidTrick):
        rules.resolve_trick(["2H", "3H", "4H", "5H", "6H"])


# --- the seed's trick example, played: jv.action.club, jv.trick.action, jv.lead.next ----------------


def test_jv_example_anna_ben_carla_dan_in_play() -> None:
    rules = jv(4)
    state = table(rules, ["9H 2S", "3H 4S", "5C 6S", "QH 7S"], leader=ANNA)
    start = state.jewels
    state, events = run(rules, state, "play 9H", "play 3H", "play 5C")
    # Carla cannot follow: her ♣ action has three showrooms to choose from
    assert state.phase == STEAL and state.to_play == CARLA
    assert rules.legal_actions(state) == [Steal(ANNA), Steal(BEN), Steal(DAN)]
    state, events = run(rules, state, "steal 1")
    [carla] = action_results(events)
    assert (carla.seat, carla.suit, carla.cause) == (CARLA, "C", "void")
    assert (carla.source, carla.from_side, carla.destination, carla.to_side) == ("showroom", BEN, "showroom", CARLA)
    assert carla.done and carla.blocked is None
    assert state.jewels.showrooms == (3, 2, 4, 3)
    assert {"jv.follow.void", "jv.action.club"} <= set(ids(carla))
    assert state.to_play == DAN
    state, events = run(rules, state, "play QH")
    results = action_results(events)
    assert [(r.seat, r.suit, r.cause) for r in results] == [(DAN, "H", "trick")]
    assert (results[0].source, results[0].destination) == ("supply", "showroom")
    assert "jv.trick.action" in ids(results[0])
    assert state.jewels.showrooms == (3, 2, 4, 4) and state.jewels.supply == start.supply - 1
    assert state.tricks_won == (0, 0, 0, 1) and state.last_trick is not None and state.last_trick.winner == DAN
    # the winner leads the next trick
    assert state.phase == PLAY and state.to_play == DAN == state.leader
    trick_event = next(e for e in events if e.kind == "trick")
    assert "jv.lead.next" in ids(trick_event)
    assert [e.kind for e in events] == ["play", "trick", "action"]


def test_jv_winner_choice_of_club_target_then_leads() -> None:
    rules = jv(3)
    state = table(rules, ["2C 3D", "9C 4D", "KC 5D"], leader=0)
    state, _ = run(rules, state, "play 2C", "play 9C", "play KC")
    assert state.phase == STEAL and state.to_play == 2
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Play(rules.card("5D")))
    assert info.value.rule_id == "jv.action.club"
    state, _ = run(rules, state, "steal 0")
    assert state.jewels.showrooms == (2, 3, 4)
    assert state.phase == PLAY and state.to_play == 2


def test_jv_club_target_is_automatic_when_only_one_showroom_has_jewels() -> None:
    rules = jv(4)
    state = table(rules, ["9H 2S", "3H 4S", "5C 6S", "QH 7S"], showrooms=[0, 2, 1, 0])
    state, events = run(rules, state, "play 9H", "play 3H", "play 5C")
    assert state.phase == PLAY and state.to_play == DAN
    [steal] = action_results(events)
    assert steal.from_side == BEN and state.jewels.showrooms == (0, 1, 2, 0)


@pytest.mark.parametrize(
    ("target", "rule"),
    [(CARLA, "jv.action.club"), (4, "jv.action.club"), (-1, "jv.action.club")],
)
def test_jv_club_bad_targets(target: Any, rule: str) -> None:
    rules = jv(4)
    state = table(rules, ["9H 2S", "3H 4S", "5C 6S", "QH 7S"])
    state, _ = run(rules, state, "play 9H", "play 3H", "play 5C")
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Steal(target))
    assert info.value.rule_id == rule


def test_jv_club_target_that_is_not_a_seat_number_is_not_an_action() -> None:
    with pytest.raises(tricklab.InvalidAction, match="the target seat must be a whole number, not True"):
        Steal(True)  # type: ignore[arg-type]


def test_jv_club_cannot_take_from_an_empty_showroom() -> None:
    rules = jv(4)
    state = table(rules, ["9H 2S", "3H 4S", "5C 6S", "QH 7S"], showrooms=[2, 0, 1, 5])
    state, _ = run(rules, state, "play 9H", "play 3H", "play 5C")
    assert rules.legal_actions(state) == [Steal(ANNA), Steal(DAN)]
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Steal(BEN))
    assert info.value.rule_id == "jv.action.club" and "empty" in str(info.value)


# --- jv.action.* and jv.action.none (suit actions as data) ---------------------------------------


@pytest.mark.parametrize(
    ("suit", "supply", "showrooms", "vaults", "expected"),
    [
        ("D", 5, (2, 2), (0, 0), Jewels(4, (2, 2), (1, 0))),
        ("H", 5, (2, 2), (0, 0), Jewels(4, (3, 2), (0, 0))),
        ("S", 5, (2, 2), (0, 0), Jewels(5, (1, 2), (1, 0))),
        ("C", 5, (2, 2), (0, 0), Jewels(5, (3, 1), (0, 0))),
    ],
)
def test_jv_action_moves_one_jewel(
    suit: str, supply: int, showrooms: tuple[int, ...], vaults: tuple[int, ...], expected: Jewels
) -> None:
    result = jv(2).suit_action(suit, seat=0, supply=supply, showrooms=showrooms, vaults=vaults)
    assert result.done and result.after == expected
    where = {"D": ("supply", None, "vault"), "H": ("supply", None, "showroom"), "S": ("showroom", 0, "vault")}
    assert (result.source, result.from_side, result.destination) == where.get(suit, ("showroom", 1, "showroom"))
    assert result.to_side == 0
    assert result.after.total == supply + sum(showrooms) + sum(vaults)
    rule = {"D": "jv.action.diamond", "H": "jv.action.heart", "S": "jv.action.spade", "C": "jv.action.club"}[suit]
    assert rule in ids(result)


@pytest.mark.parametrize(
    ("suit", "supply", "showrooms", "blocked"),
    [
        ("D", 0, (2, 2), "supply-empty"),
        ("H", 0, (2, 2), "supply-empty"),
        ("S", 5, (0, 2), "showroom-empty"),
        ("C", 5, (2, 0), "no-target"),
    ],
)
def test_jv_action_none_when_it_cannot_be_done(
    suit: str, supply: int, showrooms: tuple[int, int], blocked: str
) -> None:
    result = jv(2).suit_action(suit, seat=0, supply=supply, showrooms=showrooms)
    assert not result.done and result.blocked == blocked
    assert result.after == Jewels(supply, showrooms, (0, 0))
    assert "jv.action.none" in ids(result) and "nothing happens" in result.text


def test_jv_action_none_in_play_changes_nothing() -> None:
    rules = jv(4)
    state = table(rules, ["9H 2S", "3D 4S", "5C 6S", "QH 7S"], supply=0, showrooms=[0, 0, 0, 12])
    state, events = run(rules, state, "play 9H", "play 3D", "play 5C", "play QH")
    results = action_results(events)
    assert [(r.seat, r.suit, r.blocked) for r in results] == [
        (BEN, "D", "supply-empty"),
        (CARLA, "C", None),  # the one showroom with jewels: taken automatically
        (DAN, "H", "supply-empty"),
    ]
    assert state.jewels == Jewels(0, (0, 0, 1, 11), (0, 0, 0, 0))


def test_jv_suit_action_bad_input() -> None:
    rules = jv(3)
    with pytest.raises(IllegalAction) as info:
        rules.suit_action("C", seat=0, supply=5, showrooms=[1, 1, 1])
    assert info.value.rule_id == "jv.action.club"
    assert rules.suit_action("♣", seat=0, supply=5, showrooms=[1, 1, 1], target=2).after.showrooms == (2, 1, 0)
    with pytest.raises(InvalidOption):
        rules.suit_action("X", seat=0, supply=5, showrooms=[1, 1, 1])
    with pytest.raises(InvalidOption):
        rules.suit_action("D", seat=3, supply=5, showrooms=[1, 1, 1])
    with pytest.raises(InvalidOption):
        rules.suit_action("D", seat=0, supply=5, showrooms=[1, 1, 1], cause="luck")
    with pytest.raises(InvalidScoreInput):
        rules.suit_action("D", seat=0, supply=-1, showrooms=[1, 1, 1])
    with pytest.raises(InvalidScoreInput):
        rules.suit_action("D", seat=0, supply=5, showrooms=[1, 1])
    with pytest.raises(InvalidScoreInput):
        rules.suit_action("D", seat=0, supply=5, showrooms=[1, 1.5, 1])
    with pytest.raises(IllegalAction):
        rules.suit_action("C", seat=0, supply=5, showrooms=[1, 1, 1], target=0)


# --- the two-player example, jv.two-players -----------------------------------------------------


def test_jv_two_player_example() -> None:
    rules = jv(2)
    state = table(rules, ["4D 7H KS", "3D 8D 2C"], leader=ANNA)
    seats = []
    for text in ("play 4D", "play 3D", "play 7H"):
        seats.append(state.to_play)
        state, events = run(rules, state, text)
    assert seats == [ANNA, BEN, ANNA]
    [anna] = action_results(events)
    assert (anna.seat, anna.suit, anna.cause, anna.destination) == (ANNA, "H", "void", "showroom")
    assert state.to_play == BEN
    state, events = run(rules, state, "play 8D")
    [ben] = action_results(events)
    assert (ben.seat, ben.suit, ben.cause, ben.destination) == (BEN, "D", "trick", "vault")
    assert state.jewels.showrooms == (4, 3) and state.jewels.vaults == (0, 1)
    assert state.to_play == BEN == state.leader
    assert rules.resolve_trick(["4D", "3D", "7H", "8D"]).winner == 3


def test_jv_two_players_every_card_after_the_first_follows() -> None:
    rules = jv(2)
    state = table(rules, ["4D 5D 7H", "3D 8D"], leader=ANNA)
    state, _ = run(rules, state, "play 4D", "play 3D")
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Play(rules.card("7H")))
    assert info.value.rule_id == "jv.follow"


def test_jv_two_players_second_card_is_explained() -> None:
    rules = jv(2)
    state = table(rules, ["4D 5D", "3D 8D"], leader=ANNA)
    _, events = run(rules, state, "play 4D", "play 3D", "play 5D")
    assert "jv.two-players" in ids(events[-1])


# --- round end: jv.round-end.*, the seed's example -------------------------------------------------


def test_jv_round_end_example_planned() -> None:
    rules = jv(5)
    plan = rules.round_end(
        [
            {"D": 4, "H": 1},  # Anna
            {"♦": 4, "S": 3},  # Ben
            {"C": 3, "S": 1},  # Carla
            {"H": 5, "C": 1, "S": 1},  # Dan
            {},  # Emil won no trick
        ],
        dealer=EMIL,
    )
    assert plan.actions == (
        DueAction(DAN, "H", "most"),
        DueAction(BEN, "S", "most"),
        DueAction(CARLA, "C", "most"),
        DueAction(EMIL, "D", "no-trick"),
        DueAction(EMIL, "D", "no-trick"),
    )
    assert ids(plan) == [
        "jv.round-end.tie",
        "jv.round-end.most",
        "jv.round-end.most",
        "jv.round-end.most",
        "jv.round-end.no-trick",
    ]
    assert "♦" in plan.reasons[0].text


def test_jv_round_end_example_played() -> None:
    rules = jv(5, rounds=1)
    state = table(
        rules,
        ["2H", "3H", "4H", "KH", "5H"],
        leader=ANNA,
        won=["AD 2D 3D 4D", "5D 6D 7D 8D AS 2S 3S", "AC 2C 3C 4S", "5S 6C", ""],
        tricks_won=[1, 2, 1, 1, 0],
        tricks_played=9,
    )
    start = state.jewels
    state, events = run(rules, state, "play 2H", "play 3H", "play 4H", "play KH", "play 5H")
    # Dan won the last trick (a ♥ action); now Carla, with the most ♣, chooses whom to rob
    assert state.phase == STEAL and state.to_play == CARLA
    round_end = next(e for e in events if e.kind == "round-end")
    assert "jv.round-end.tie" in ids(round_end) and "jv.round-end.count" in ids(round_end)
    state, more = run(rules, state, "steal 3")
    results = action_results(events + more)
    assert [(r.seat, r.suit, r.cause) for r in results] == [
        (DAN, "H", "trick"),
        (DAN, "H", "most"),
        (BEN, "S", "most"),
        (CARLA, "C", "most"),
        (EMIL, "D", "no-trick"),
        (EMIL, "D", "no-trick"),
    ]
    assert state.jewels.showrooms == (3, 2, 4, 4, 3)
    assert state.jewels.vaults == (0, 1, 0, 0, 2)
    assert state.jewels.supply == start.supply - 4
    assert state.phase == OVER
    assert "jv.round-end.no-trick" in ids(results[-1]) and "jv.round-end.most" in ids(results[1])


def test_jv_round_end_tie_means_nobody() -> None:
    plan = jv(3).round_end([{"C": 3}, {"C": 3}, {"C": 1, "D": 2}])
    assert plan.actions == (DueAction(2, "D", "most"),)
    assert ids(plan).count("jv.round-end.tie") == 3  # ♥ and ♠: nobody has any; ♣: a tie


def test_jv_round_end_no_trick_order_from_the_dealers_left() -> None:
    plan = jv(4).round_end([{}, {"H": 10}, {}, {}], dealer=2)
    no_trick = [a.seat for a in plan.actions if a.cause == "no-trick"]
    assert no_trick == [3, 3, 0, 0, 2, 2]


def test_jv_round_end_bad_input() -> None:
    rules = jv(3)
    with pytest.raises(InvalidScoreInput):
        rules.round_end([{}, {}])
    with pytest.raises(InvalidScoreInput):
        rules.round_end([{}, {}, "D"])
    with pytest.raises(InvalidScoreInput):
        rules.round_end([{"D": -1}, {}, {}])
    with pytest.raises(InvalidScoreInput):
        rules.round_end([{"D": 7}, {"D": 7}, {}])
    with pytest.raises(InvalidOption):
        rules.round_end([{"X": 1}, {}, {}])
    with pytest.raises(InvalidOption):
        rules.round_end([{}, {}, {}], dealer=3)


def test_jv_round_end_in_a_match_ends_with_actions_in_order() -> None:
    match = jv(4).play(seed=12, bots="heuristic")
    steps = match.timeline()
    for i, step in enumerate(steps):
        if step.event.kind != "round-end":
            continue
        owed = step.event.data["actions"]
        taken = []
        for later in steps[i + 1 :]:
            if later.event.kind != "action":
                break
            taken.append(later.event.data["result"])
        assert [(r.seat, r.suit, r.cause) for r in taken] == [tuple(a) for a in owed]


# --- jv.score, jv.win, jv.win.tie, jv.vault.hidden -----------------------------------------------


def test_jv_score_annas_28_points() -> None:
    score = jv(4).final_score(vault=12, showroom=4)
    assert score.total == 28
    assert score.breakdown == {"vault": 24, "showroom": 4}
    assert ids(score) == ["jv.score"]


def test_jv_score_no_trick_is_worth_four_points() -> None:
    rules = jv(3)
    before = rules.suit_action("D", seat=1, supply=10, showrooms=[3, 3, 3])
    after = rules.suit_action("D", seat=1, supply=9, showrooms=[3, 3, 3], vaults=list(before.after.vaults))
    assert after.after.vaults[1] == 2
    gain = rules.final_score(vault=2, showroom=3).total - rules.final_score(vault=0, showroom=3).total
    assert gain == 4


@pytest.mark.parametrize(
    ("vault", "showroom", "rule"),
    [(-1, 0, "jv.score"), (1.5, 0, "jv.score"), (True, 0, "jv.score"), ("3", 0, "jv.score"), (0, None, "jv.score")],
)
def test_jv_score_bad_input(vault: Any, showroom: Any, rule: str) -> None:
    with pytest.raises(InvalidScoreInput) as info:
        jv(4).final_score(vault=vault, showroom=showroom)
    assert info.value.rule_id == rule


def test_jv_score_more_jewels_than_exist() -> None:
    with pytest.raises(InvalidScoreInput) as info:
        jv(4, supply=50).final_score(vault=40, showroom=11)
    assert info.value.rule_id == "jv.supply"


def _over(rules: Any, showrooms: Sequence[int], vaults: Sequence[int]) -> JewelVaultState:
    state: JewelVaultState = rules.initial_state(1)
    total = rules.options.supply
    supply = total - sum(showrooms) - sum(vaults)
    return state._replace(phase=OVER, to_play=None, supply=supply, showrooms=tuple(showrooms), vaults=tuple(vaults))


def test_jv_win_most_points() -> None:
    rules = jv(3)
    result = rules.result(_over(rules, [4, 9, 0], [12, 5, 13]))
    assert result is not None
    assert result.totals == (28, 19, 26) and result.winners == (0,) and result.tie_break is None
    assert ids(result)[-1] == "jv.win"
    assert rules.result(rules.initial_state(1)) is None


def test_jv_win_tie_more_vault_wins() -> None:
    rules = jv(3)
    result = rules.result(_over(rules, [4, 2, 0], [12, 13, 1]))
    assert result is not None and result.totals == (28, 28, 2)
    assert result.winners == (1,) and result.tie_break == "vault"
    assert ids(result)[-1] == "jv.win.tie"


def test_jv_win_tie_shared() -> None:
    rules = jv(4)
    result = rules.result(_over(rules, [4, 4, 1, 0], [12, 12, 3, 0]))
    assert result is not None and result.winners == (0, 1) and result.tie_break == "shared" and result.shared


def test_jv_vault_hidden_in_views_until_the_end() -> None:
    rules = jv(4)
    match = rules.play(seed=21, bots="random")
    mid = match.states[len(match.states) // 2]
    for seat in range(4):
        view = rules.view(mid, seat)
        assert view.vaults[seat] == mid.jewels.vaults[seat]
        assert all(v is None for s, v in enumerate(view.vaults) if s != seat)
        assert view.showrooms == mid.jewels.showrooms and view.supply == mid.jewels.supply
        assert view.scores is None
    assert rules.view(mid, None).vaults == mid.jewels.vaults
    end = match.view(2)
    assert end.vaults == match.state.jewels.vaults  # opened at the end
    assert match.result is not None and end.scores == match.result.totals


def test_jv_views_show_public_won_counts() -> None:
    rules = jv(3)
    state = table(rules, ["2H", "3H", "4C"], won=["KD QD", "AS", ""], tricks_won=[1, 1, 0])
    view = rules.view(state, 2)
    assert view.won_count(0, "D") == 2 and view.won_count(1, "S") == 1 and view.won_count(2, "C") == 0
    assert view.tricks_won == (1, 1, 0)
    assert state.passes == (None, None, None) and view.received is None  # nobody passed in this hand-made deal


# --- jv.partnerships.* -----------------------------------------------------------------------------


def test_jv_partnerships_share_one_showroom_and_vault() -> None:
    rules = jv(4, partnerships=True)
    assert rules.sides == (0, 1, 0, 1) and rules.partner(1) == 3 and jv(4).partner(1) is None
    state = rules.initial_state(1)
    assert state.jewels == Jewels(88, (6, 6), (0, 0))
    view = rules.view(state, 2)
    assert view.vaults == (0, None) and view.side == 0


def test_jv_partnerships_club_only_from_opponents() -> None:
    rules = jv(6, partnerships=True)
    state = table(rules, ["9H", "3H", "5C", "QH", "2H", "4H"])
    state, _ = run(rules, state, "play 9H", "play 3H", "play 5C")
    # seat 2 (side 2) may rob side 0 or side 1, never its partner, seat 5
    assert state.phase == STEAL and rules.legal_actions(state) == [Steal(0), Steal(1)]
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Steal(5))
    assert info.value.rule_id == "jv.partnerships.club"
    state, events = run(rules, state, "steal 4")  # seat 4 belongs to side 1: accepted
    [steal] = action_results(events)
    assert steal.from_side == 1 and steal.to_side == 2
    assert state.jewels.showrooms == (6, 5, 7)
    assert "jv.partnerships.club" in ids(steal)


def test_jv_partnerships_four_players_club_has_one_target() -> None:
    rules = jv(4, partnerships=True)
    state = table(rules, ["9H", "3H", "5C", "QH"])
    state, _ = run(rules, state, "play 9H", "play 3H", "play 5C")
    assert state.phase == PLAY and state.jewels.showrooms == (7, 5)


def test_jv_partnerships_count_together_and_no_trick_per_player() -> None:
    rules = jv(4, partnerships=True)
    plan = rules.round_end([{"D": 2}, {"D": 3, "H": 1}, {"D": 2, "S": 1}, {}], dealer=3)
    assert plan.actions == (
        DueAction(0, "D", "most"),  # 2 + 2 beats 3; seat 0 comes first of the equal partners
        DueAction(1, "H", "most"),
        DueAction(2, "S", "most"),
        DueAction(3, "D", "no-trick"),  # its partner won tricks, seat 3 did not
        DueAction(3, "D", "no-trick"),
    )
    assert "jv.partnerships.count" in ids(plan)
    more = rules.round_end([{"H": 1}, {"H": 1}, {"H": 1}, {}], dealer=3)
    assert DueAction(0, "H", "most") in more.actions  # side 0 holds 2 ♥ against 1


def test_jv_partnerships_win_together() -> None:
    rules = jv(6, partnerships=True)
    result = rules.result(_over(rules, [5, 2, 0], [10, 3, 1]))
    assert result is not None and result.winners == (0, 3) and result.totals == (25, 8, 2, 25, 8, 2)
    assert "Player 1 & Player 4" in result.reasons[-1].text


def test_jv_partnerships_match_end_to_end() -> None:
    for players in (4, 6):
        match = jv(players, partnerships=True).play(seed=5, bots="heuristic")
        assert match.is_over and match.result is not None
        assert len({match.result.totals[s] for s in match.result.winners}) == 1
        assert tricklab.Match.from_json(match.to_json()).states == match.states


# --- jv.over, turn order, rulebook ---------------------------------------------------------------


def test_jv_over_no_more_actions() -> None:
    match = jv(2, rounds=1).play(seed=3, bots="random")
    assert match.is_over and match.phase == OVER and match.legal_actions() == []
    with pytest.raises(IllegalAction) as info:
        match.apply("announce 1")
    assert info.value.rule_id == "jv.over"
    assert match.timeline()[-1].event.kind == "end"


def test_jv_turn_wrong_kind_of_action_in_play() -> None:
    rules = jv(4)
    state = table(rules, ["9H", "3H", "5C", "QH"])
    for action in (Announce(1), Steal(1), Pass(rules.cards("9H"))):
        with pytest.raises(IllegalAction) as info:
            rules.apply(state, action)
        assert info.value.rule_id == "jv.trick"


def test_jv_rulebook_covers_every_ruling_and_option() -> None:
    rulings = {c.ruling for c in RULEBOOK.values() if c.ruling}
    assert rulings == {f"JV-{i}" for i in range(1, 10)}
    options = {c.option for c in RULEBOOK.values() if c.option}
    assert options == {f.name for f in dataclasses.fields(JewelVaultOptions)}
    for clause in RULEBOOK.values():
        assert clause.id.startswith("jv.") and clause.title and clause.text.endswith(".")
    assert "jv.round-end.most" in RULEBOOK.to_text()


def test_jv_events_cite_only_rulebook_clauses_in_every_variant() -> None:
    for players, options in [(2, {}), (3, {"known_deck": True}), (5, {}), (6, {"partnerships": True})]:
        match = jv(players, rounds=1, **options).play(seed=2, bots="heuristic")
        for step in match.timeline():
            assert step.event.text
            for reason in step.event.reasons:
                assert reason.rule_id in RULEBOOK, reason


def test_jv_texts_use_pretty_cards() -> None:
    match = jv(4, rounds=1).play(seed=6, bots="random")
    plays = [s.event for s in match.timeline() if s.event.kind == "play"]
    assert all(s.data["card"].pretty in s.text for s in plays)


# --- bots ----------------------------------------------------------------------------------------------


def _view(rules: Any, state: JewelVaultState, seat: int) -> Any:
    return rules.view(state, seat)


def test_card_ids_run_by_suit_then_rank() -> None:
    # the bot compares cards of one suit by their ids and finds a suit's cards as one run of ids
    order = [(CARD_IDS.suit[i], CARD_IDS.rank[i]) for i in range(len(CARD_IDS))]
    assert order == sorted(order) and len(set(order)) == len(order)


def test_bot_passes_its_weakest_suit() -> None:
    rules = jv(4)
    match = rules.new_match(seed=1, first_dealer=3)
    match.apply("announce 2")
    hand = CARD_IDS.mask(rules.cards("2S 5S 9S KS QH JH 10H 3D 4C 5C"))
    state = match.state._replace(hand_masks=(hand,) + match.state.hand_masks[1:])
    bot = HeuristicBot(rules, 0)
    choice = bot.choose(_view(rules, state, 0), rules.legal_actions(state))
    assert isinstance(choice, Pass)
    assert {str(c) for c in choice.cards} == {"3D", "4C"}  # the singleton ♦ first, then the weak ♣


def test_bot_steals_from_the_largest_showroom() -> None:
    rules = jv(4)
    state = table(rules, ["9H 2S", "3H 4S", "5C 6S", "QH 7S"], showrooms=[2, 6, 3, 4])
    state, _ = run(rules, state, "play 9H", "play 3H", "play 5C")
    choice = HeuristicBot(rules, CARLA).choose(_view(rules, state, CARLA), rules.legal_actions(state))
    assert choice == Steal(BEN)


def test_bot_moves_a_big_showroom_to_safety_with_spades() -> None:
    rules = jv(3)
    state = table(rules, ["9H", "2S 3C", "5H"], showrooms=[1, 7, 1], supply=0)
    state = rules.apply(state, Play(rules.card("9H")))
    choice = HeuristicBot(rules, 1).choose(_view(rules, state, 1), rules.legal_actions(state))
    assert choice == Play(rules.card("2S"))


def test_bot_ducks_for_a_zero_trick_round() -> None:
    rules = jv(4)
    hand = "2H 8H 3S 4S 5D 6D 2C 3C"
    state = table(rules, ["9H", hand, "KS", "QS"], leader=0)
    state = rules.apply(state, Play(rules.card("9H")))
    bot = HeuristicBot(rules, 1)
    assert bot.choose(_view(rules, state, 1), rules.legal_actions(state)) == Play(rules.card("8H"))
    # with strong cards it does not aim for zero tricks and plays to win instead
    strong = table(rules, ["9H", "2H 10H KS KD QC QD JC AS", "KH", "QS"], leader=0)
    strong = rules.apply(strong, Play(rules.card("9H")))
    assert HeuristicBot(rules, 1).choose(_view(rules, strong, 1), rules.legal_actions(strong)) == Play(
        rules.card("10H")
    )


def test_bot_heuristic_beats_random() -> None:
    wins = 0
    games = 30
    for seed in range(games):
        rules = jv(3, rounds=2)
        bots = [HeuristicBot(rules, 0, seed), RandomBot(seed), RandomBot(seed + 1000)]
        match = rules.play(seed=seed, bots=bots)
        assert match.result is not None
        wins += 0 in match.result.winners
    assert wins > games / 2


def test_bot_only_ever_chooses_legal_actions() -> None:
    for players, options in [(2, {"known_deck": True}), (6, {"partnerships": True}), (5, {})]:
        rules = jv(players, rounds=1, **options)
        match = rules.new_match(seed=4)
        bots = [HeuristicBot(rules, s, 4) for s in range(players)]
        while not match.is_over:
            seat = match.to_play
            assert seat is not None
            legal = match.legal_actions()
            action = bots[seat].choose(match.view(seat), legal)
            assert action in legal
            match.apply(action)


def test_pass_options_are_every_combination() -> None:
    rules = jv(3)
    match = rules.new_match(seed=3)
    match.apply("announce 3")
    hand = match.state.hands[match.to_play]
    assert {a.cards for a in match.legal_actions()} == set(combinations(hand, 3))


# --- learner sentences: seats named from Player 1, counts meet nouns right, the rulebook ----------


def test_jv_club_choice_message_names_seats_from_player_one() -> None:
    rules = jv(4)
    state = table(rules, ["9H 2S", "3H 4S", "5C 6S", "QH 7S"], leader=ANNA)
    state, _ = run(rules, state, "play 9H", "play 3H", "play 5C")
    assert state.phase == STEAL and state.to_play == CARLA
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Play(rules.card("6S")))
    message = str(info.value)
    assert info.value.rule_id == "jv.action.club"
    # the record text stays 0-based ('steal 1' is Ben's showroom); the sentence names Ben as Player 2
    assert "Player 2's showroom: 'steal 1'" in message
    assert "Player 1's showroom: 'steal 0'" in message and "Player 4's showroom: 'steal 3'" in message
    assert "Player 3's showroom" not in message  # Carla does not rob herself
    assert "(like 'steal 1')" not in message
    assert str(Steal(BEN)) == "steal 1" and rules.parse_action("steal 1") == Steal(BEN)


def test_jv_club_target_out_of_range_names_the_seats_from_player_one() -> None:
    rules = jv(4)
    state = table(rules, ["9H 2S", "3H 4S", "5C 6S", "QH 7S"])
    state, _ = run(rules, state, "play 9H", "play 3H", "play 5C")
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Steal(4))
    assert "0 (Player 1) to 3 (Player 4)" in str(info.value)
    assert "the seats are 0 to 3" not in str(info.value)


def test_jv_counts_meet_nouns_in_the_singular() -> None:
    score = jv(4).final_score(vault=1, showroom=1)
    text = " ".join(r.text for r in score.reasons) + " " + " ".join(line.detail for line in score.lines)
    assert "(s)" not in text and "1 jewels" not in text
    assert "1 jewel at 2 points each" in text and "1 jewel on show" in text
    rules = jv(4)
    match = rules.new_match(seed=2, first_dealer=0)
    match.apply("announce 1")
    with pytest.raises(IllegalAction) as info:
        match.apply(Play(match.state.hands[1][0]))
    assert "choose 1 card to pass" in str(info.value) and "(s)" not in str(info.value)
    # the supply can run down to a single jewel (an option): the deal says so in the singular
    first = jv(3, supply=10).new_match(seed=1).timeline()[0].event
    assert "1 jewel stays in the supply" in first.text


def test_jv_rulebook_two_players_has_five_tricks_a_round() -> None:
    text = RULEBOOK["jv.two-players"].text
    assert "5 tricks" in text and "10 cards" in text
    assert jv(2).tricks_per_round == 5


def test_jv_rulebook_variants_keep_their_facts() -> None:
    partnerships = RULEBOOK["jv.partnerships"].text
    assert all(fact in partnerships for fact in ("4 or 6", "across", "vault", "showroom", "3 jewels", "Off by default"))
    count = RULEBOOK["jv.partnerships.count"].text
    assert "together" in count and "two ♦ actions" in count
    known = RULEBOOK["jv.known-deck"].text
    for fact in ("13 cards", "36 cards, 12", "32 cards, 16", "9s", "8s", "5 or 6", "Off by default"):
        assert fact in known, fact
    follow = RULEBOOK["jv.follow"].text
    assert "suit" in follow and "has to be" in follow


# --- the core: action ids, the fast path, hand-made deals, secrets in facts --------------------------


def test_core_passes_are_listed_on_demand_in_combination_order() -> None:
    rules = jv(4)
    state = rules.apply(rules.initial_state(3, first_dealer=0), Announce(3))
    hand = state.hands[1]
    listed = rules.core_legal(state)
    assert isinstance(listed, PassIds) and len(listed) == comb(len(hand), 3) == 120
    actions = [rules.actions[a] for a in listed]
    assert [a.cards for a in actions] == list(combinations(hand, 3))
    assert [listed[i] for i in range(len(listed))] == list(listed)
    assert listed[-1] == list(listed)[-1] and listed[2:4] == list(listed)[2:4]
    with pytest.raises(IndexError):
        listed[120]
    two = rules.action_id(Pass(hand[:2]))
    assert two is not None and two not in listed and -1 not in listed and "pass" not in listed
    assert all(rules.action_id(a) in listed for a in actions)


def test_core_step_with_the_bots_fast_entry_plays_the_released_match() -> None:
    """The bots' choose_id over the core's cheap views, stepped by core_step, plays the match the
    checked API plays with the same bots (the one pinned by tests/test_engine_contract.py); the
    core view says what the checked view says."""
    rules = jv(4)
    checked = rules.play(seed=26, bots="heuristic")
    bots = [HeuristicBot(rules, s, f"26:{s}") for s in range(4)]
    state = rules.core_initial(26, None)
    ids = []
    while state.to_play is not None:
        legal = rules.core_legal(state)
        seat = state.to_play
        fast, checked_view = rules.core_view(state, seat), rules.view(state, seat)
        for name in ("phase", "to_play", "hand_mask", "trick_ids", "leader", "announced", "tricks_won", "supply"):
            assert getattr(fast, name) == getattr(checked_view, name), name
        assert fast.showrooms == checked_view.showrooms and fast.sides == checked_view.sides
        assert fast.vault == checked_view.vaults[rules.side_of(seat)]
        assert CARD_IDS.hand(fast.hand_mask) == checked_view.hand
        choice = bots[seat].choose_id(fast, legal)
        assert choice in legal
        ids.append(choice)
        state = rules.core_step(state, choice)
    assert len(ids) == 196
    assert tuple(rules.actions[a] for a in ids) == tuple(checked.actions)
    assert state == checked.state and rules.result(state) == checked.result


def test_with_hands_gives_other_hands_and_the_rest_aside() -> None:
    rules = jv(3)
    state = rules.apply(rules.initial_state(4, first_dealer=2), Announce(1))
    masks = state.hand_masks
    swapped = rules.with_hands(state, (masks[1], masks[0], masks[2]))
    assert swapped.hands == (state.hands[1], state.hands[0], state.hands[2])
    assert swapped.aside == state.aside and swapped.supply == state.supply
    fewer = rules.with_hands(state, (masks[0] & (masks[0] - 1), masks[1], masks[2]))
    assert set(fewer.aside) == set(state.aside) | {state.hands[0][0]}
    assert rules.view(swapped, 0).hand == state.hands[1]
    rules.apply(swapped, rules.legal_actions(swapped)[0])


def test_a_pass_fact_hides_the_cards_from_every_other_seat() -> None:
    rules = jv(4)
    state = rules.apply(rules.initial_state(2, first_dealer=3), Announce(2))
    action = rules.legal_actions(state)[5]
    assert isinstance(action, Pass)
    [(fact, after)] = rules.facts(state, action)
    assert isinstance(fact, Passed) and fact.seat == 0
    for seat in (None, 0):
        seen = rules.narrate(fact.seen_by(seat), after)
        assert seen.data["cards"] == action.cards
    for seat in (1, 2, 3):
        seen = rules.narrate(fact.seen_by(seat), after)
        assert seen.data["cards"] is None and seen.text == rules.narrate(fact, after).text
        assert not any(isinstance(v, tricklab.Card) for v in seen.data.values())


def test_partnership_club_target_is_recorded_by_its_side() -> None:
    rules = jv(6, partnerships=True)
    state = table(rules, ["9H", "3H", "5C", "QH", "2H", "4H"])
    state, _ = run(rules, state, "play 9H", "play 3H", "play 5C")
    assert state.phase == STEAL
    assert rules.canonical_action(state, Steal(4)) == Steal(1) and Steal(1) in rules.legal_actions(state)
    assert rules.canonical_action(state, Steal(5)) == Steal(2)
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, Steal(5))
    assert info.value.rule_id == "jv.partnerships.club"
    assert rules.apply(state, Steal(4)) == rules.apply(state, Steal(1))


def test_a_seats_copy_of_every_fact_leaves_out_the_vaults_and_passed_cards() -> None:
    """Narrated for a seat (fact.seen_by(seat)), every event reads as the teacher's does, but no
    copy holds the jewels (every side's vault is in them) nor another seat's passed cards."""
    rules = jv(3, rounds=2)
    match = rules.play(seed=8, bots="heuristic")
    facts: list[Any] = []
    rules.core_initial(match.seed, facts)
    for state, action in zip(match.states, match.actions, strict=False):
        facts += rules.facts(state, action)
    kinds = {type(f).__name__ for f, _ in facts}
    assert {"Dealt", "Passed", "Acted", "Ended"} <= kinds
    for fact, after in facts:
        teacher = rules.narrate(fact.seen_by(None), after)
        assert teacher == rules.narrate(fact, after)
        for seat in range(3):
            seen = rules.narrate(fact.seen_by(seat), after)
            assert (seen.kind, seen.seat, seen.text, seen.reasons) == (
                teacher.kind,
                teacher.seat,
                teacher.text,
                teacher.reasons,
            )
            if seen.kind in ("deal", "action"):
                held = seen.data.get("jewels", None) if seen.kind == "deal" else seen.data["result"].after
                assert held is None, (seat, seen.text)
            if seen.kind == "pass" and fact.seat != seat:
                assert seen.data["cards"] is None
    assert [e.text for e in (rules.narrate(f, a) for f, a in facts)] == [s.event.text for s in match.timeline()]
