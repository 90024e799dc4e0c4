"""Property tests: many seeded bot matches of Jewel Vault keep the game's invariants.

Seeded matches as the hypothesis profile gives (tests/conftest.py), over every player count
(2-6) and every variant (partnerships with 4 and 6, known deck with 2, 3 and 4, a small
supply that runs out), random and heuristic bots mixed. Part of the sample plays
full-length games; the rest uses the ``rounds`` option for shorter ones, so the file stays
quick. Every state of every match is checked: jewels conserved, no negative counts, every
card accounted for once, views that leak nothing hidden; every decision was legal by the rules stated here; the
record replays exactly.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import tricklab
from tricklab import Announce, Pass, Play, Steal
from tricklab.bots import RandomBot
from tricklab.cards import Card
from tricklab.games.jewel_vault import OVER, PASS, JewelVault, JewelVaultState, JewelVaultView
from tricklab.games.jewel_vault.bots import HeuristicBot

from .conftest import examples

seeds = st.integers(min_value=0, max_value=2**63 - 1)
mixes = st.sampled_from(["random", "heuristic", "mixed"])

# (players, options): every player count and every variant
SETUPS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {}),
    (4, {}),
    (5, {}),
    (6, {}),
    (4, {"partnerships": True}),
    (6, {"partnerships": True}),
    (2, {"known_deck": True}),
    (3, {"known_deck": True}),
    (4, {"known_deck": True}),
    (4, {"known_deck": True, "partnerships": True}),
]
setups = st.sampled_from(SETUPS)


def check_state(rules: Any, state: JewelVaultState) -> None:
    jewels = state.jewels
    assert jewels.total == rules.options.supply, "jewels conserved: supply + showrooms + vaults"
    assert jewels.supply >= 0 and min(jewels.showrooms) >= 0 and min(jewels.vaults) >= 0, "no negative counts"
    in_flight = [] if state.exchanged else [p for p in state.passes if p is not None]
    held = Counter(itertools.chain(state.aside, state.trick, *state.hands, *state.won_cards, *in_flight))
    assert held == Counter(rules.deck()), "every card of the deck accounted for, exactly once"
    assert sum(state.tricks_won) == state.tricks_played <= rules.tricks_per_round
    assert sum(len(w) for w in state.won_cards) == state.tricks_played * rules.trick_size
    assert len(state.trick) < rules.trick_size or state.pending, "a full trick is only shown while actions are owed"


def _cards_in(value: object) -> Iterator[Card]:
    if isinstance(value, Card):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _cards_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _cards_in(getattr(value, f.name))


def check_view(rules: Any, state: JewelVaultState, seat: int) -> None:
    view: JewelVaultView = rules.view(state, seat)
    own_side = rules.side_of(seat)
    over = state.phase == OVER
    for other in range(rules.players):
        if other != seat:
            assert view.hands[other] is None and view.passes[other] is None
    for side, vault in enumerate(view.vaults):
        if side != own_side and not over:
            assert vault is None, "another side's vault is never shown before the end"
    assert view.scores is None or over
    if not state.exchanged:
        assert view.received is None, "passed cards stay hidden until everyone has passed"
    allowed = set(state.hands[seat]) | set(state.trick) | set(state.passes[seat] or ())
    allowed |= set(view.received or ())
    if state.last_trick is not None:
        allowed |= set(state.last_trick.cards)
    seen = set(_cards_in(view))
    assert seen <= allowed, f"seat {seat} sees cards it may not: {sorted(map(str, seen - allowed))}"
    assert view.hand_sizes == tuple(len(h) for h in state.hands)
    assert view.showrooms == state.jewels.showrooms and view.supply == state.jewels.supply


def oracle_may_play(hand: tuple[Card, ...], trick: tuple[Card, ...], card: Card) -> bool:
    """JV-5 and JV-7, stated directly: follow the led suit if able, otherwise anything."""
    if card not in hand:
        return False
    return not trick or card.suit == trick[0].suit or not any(c.suit == trick[0].suit for c in hand)


def check_decision(rules: Any, state: JewelVaultState, action: Any) -> None:
    """Each decision judged by the rules stated directly (JV-1, JV-4, JV-5, JV-7, JV-9), not by
    the engine's list of legal actions."""
    seat = state.to_play
    assert seat is not None
    hand = state.hands[seat]
    if isinstance(action, Announce):
        assert state.phase == "announce" and seat == state.dealer and 1 <= action.n <= 3
    elif isinstance(action, Pass):
        assert state.phase == PASS and state.passes[seat] is None
        assert len(action.cards) == len(set(action.cards)) == state.announced
        assert set(action.cards) <= set(hand)
    elif isinstance(action, Play):
        assert state.phase == "play" and oracle_may_play(hand, state.trick, action.card)
        offered = {a.card for a in rules.legal_actions(state) if isinstance(a, Play)}
        assert offered == {c for c in hand if oracle_may_play(hand, state.trick, c)}
    else:
        # the club action: a jewel from another side's showroom, one that has a jewel
        assert isinstance(action, Steal) and state.phase == "steal"
        assert action.target != rules.side_of(seat) and state.jewels.showrooms[action.target] > 0


def make_bots(rules: Any, seed: int, mix: str) -> list[Any]:
    rng = random.Random(seed)
    out: list[Any] = []
    for seat in range(rules.players):
        heuristic = mix == "heuristic" or (mix == "mixed" and rng.random() < 0.5)
        out.append(HeuristicBot(rules, seat, f"{seed}:{seat}") if heuristic else RandomBot(f"{seed}:{seat}"))
    return out


def check_match(players: int, options: dict[str, Any], seed: int, mix: str) -> None:
    rules = tricklab.get_rules("jewel-vault", players=players, **options)
    assert isinstance(rules, JewelVault)
    match = rules.play(seed=seed, bots=make_bots(rules, seed, mix))
    states = match.states
    for before, action in zip(states, match.actions, strict=False):
        check_state(rules, before)
        check_decision(rules, before, action)
        check_view(rules, before, before.to_play)
        if before.phase == PASS:  # a secret choice: check everyone else's view too
            for seat in range(players):
                check_view(rules, before, seat)
    final = match.state
    check_state(rules, final)
    assert match.is_over and final.round == rules.rounds - 1
    for seat in range(players):
        check_view(rules, final, seat)
    result = match.result
    assert result is not None and result.winners
    assert all(result.totals[w] == max(result.totals) for w in result.winners)
    replayed = tricklab.Match.from_json(match.to_json())
    assert replayed.states == states, "replaying the record reproduces every state"


@given(setup=setups, seed=seeds, mix=mixes)
def test_full_length_matches_keep_invariants(setup: tuple[int, dict[str, Any]], seed: int, mix: str) -> None:
    players, options = setup
    check_match(players, options, seed, mix)


@examples(2)  # one round instead of the whole game: cheaper, so twice the profile's count
@given(setup=setups, seed=seeds, mix=mixes)
def test_one_round_matches_keep_invariants(setup: tuple[int, dict[str, Any]], seed: int, mix: str) -> None:
    players, options = setup
    check_match(players, {**options, "rounds": 1}, seed, mix)


@given(players=st.integers(min_value=2, max_value=6), supply=st.integers(min_value=0, max_value=10), seed=seeds)
def test_small_supply_runs_out_and_nothing_breaks(players: int, supply: int, seed: int) -> None:
    check_match(players, {"supply": 3 * players + supply, "rounds": 2}, seed, "mixed")
