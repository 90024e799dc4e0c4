"""Band of Tricks properties over many seeded bot matches and random tricks (hypothesis).

The checks use small independent statements of the rules (who wins a trick, which cards
may be played, what a deal scores), not the engine's own functions.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import tricklab
from tricklab import AssignMetal, Bid, Match, Play
from tricklab.cards import Card
from tricklab.games.band_of_tricks import ASSIGN, BID, PLAY, BandOfTricks, BandOfTricksState

from .conftest import examples

# Seeded matches per player count as the hypothesis profile gives (tests/conftest.py), random,
# heuristic and mixed bots.
ZERO_POINTS = {3: 6, 4: 4, 5: 3}
HAND = {3: 13, 4: 10, 5: 8}
BEATS = {("R", "S"), ("S", "P"), ("P", "R"), ("R", "M"), ("S", "M"), ("P", "M")}
RULES = {n: tricklab.get_rules("band-of-tricks", players=n) for n in (3, 4, 5)}
DECK = RULES[4].deck()
BOT_KINDS = st.sampled_from(["random", "heuristic", "mixed"])
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


def oracle_winner(cards: list[Card]) -> int:
    """BT-5, stated directly."""
    suits = {c.suit for c in cards}
    indices = range(len(cards))
    if len(suits) == 1:
        return max(indices, key=lambda i: cards[i].rank)
    if len(suits) == 2:
        a, b = sorted(suits)
        top = a if (a, b) in BEATS else b
        return max((i for i in indices if cards[i].suit == top), key=lambda i: cards[i].rank)
    high = max(c.rank for c in cards)
    return max(i for i in indices if cards[i].rank == high)


def oracle_may_play(hand: tuple[Card, ...], trick: tuple[Card, ...], card: Card) -> bool:
    """BT-4, stated directly."""
    if card not in hand:
        return False
    follow = [c.suit for c in trick if c.suit != "M"]
    if not follow or card.suit in (follow[0], "M"):
        return True
    return not any(c.suit == follow[0] for c in hand)


def oracle_points(bid: Bid, won: tuple[int, int, int, int], players: int) -> int:
    """BT-7, stated directly."""
    if bid.zero:
        return ZERO_POINTS[players] if sum(won) == 0 else -sum(won)
    total = 0
    for b, w in zip((bid.rock, bid.soul, bid.pops), won[:3], strict=True):
        total += b + 1 if w == b else -abs(w - b)
    return total


def bots_for(kind: str, players: int, seed: int) -> Any:
    if kind == "mixed":
        return [("random", "heuristic")[(seed >> seat) & 1] for seat in range(players)]
    return kind


def accounted(state: BandOfTricksState) -> bool:
    cards = [c for hand in state.hands for c in hand]
    cards += [*state.trick, *state.aside]
    cards += [c for won in state.won_cards for c in won]
    return len(cards) == 40 and set(cards) == set(DECK)


def check_trick_fields(state: BandOfTricksState) -> None:
    """The compact fields of the current trick say what BT-4 and BT-5 say of its cards: the
    suit to follow is the first card's that is not Metal, the winning card so far is the
    oracle's, and the suits in the trick are its cards' suits."""
    trick = list(state.trick)
    follow = next((c.suit for c in trick if c.suit != "M"), None)
    assert state.follow == (-1 if follow is None else "RSPM".index(follow))
    assert state.best == (oracle_winner(trick) if trick else -1)
    assert state.suits_in == sum(1 << "RSPM".index(s) for s in {c.suit for c in trick})


def check_match(rules: BandOfTricks, match: Match) -> None:
    n = rules.players
    assert match.is_over
    result = match.result
    assert result is not None
    best = max(result.totals)
    assert result.winners and all(result.totals[w] == best for w in result.winners)

    # every decision was legal, judged by the rules stated directly
    states = match.states
    for before, action in zip(states, match.actions, strict=False):
        seat = before.to_play
        assert seat is not None
        if isinstance(action, Play):
            assert before.phase == PLAY
            hand = before.hands[seat]
            assert oracle_may_play(hand, before.trick, action.card)
            offered = {a.card for a in rules.legal_actions(before) if isinstance(a, Play)}
            assert offered == {c for c in hand if oracle_may_play(hand, before.trick, c)}
        elif isinstance(action, Bid):
            assert before.phase == BID
            assert action.zero or all(0 <= v <= 6 for v in (action.rock, action.soul, action.pops))
        else:
            assert isinstance(action, AssignMetal)
            assert before.phase == ASSIGN
            last = before.last_trick
            assert last is not None and last.winner == seat and last.winning_card.suit == "M"
            bid = before.bids[seat]
            assert bid is not None and not bid.zero

    # every step of the timeline: 40 cards accounted for; every deal scored by its breakdown
    steps = match.timeline()
    assert steps[-1].state == match.state
    deals = 0
    for step in steps:
        state = step.state
        assert accounted(state), step.event.text
        check_trick_fields(state)
        event = step.event
        if event.kind == "trick":
            cards = list(event.data["cards"])
            assert event.data["ranking"][0] == oracle_winner(cards)
        if event.kind == "score":
            deals += 1
            assert state.tricks_played == HAND[n]
            assert sum(sum(w) for w in state.won) == HAND[n]
            for seat, detail in enumerate(event.data["details"]):
                bid = state.bids[seat]
                assert detail.total == sum(line.points for line in detail.lines)
                assert detail.total == state.deal_scores[-1][seat] == oracle_points(bid, state.won[seat], n)
    assert deals == len(match.state.deal_scores) >= n
    assert (deals == n) == (result.tie_break is None)

    # exact replay from the saved record
    again = Match.from_json(match.to_json())
    assert again.actions == match.actions
    assert again.states == match.states


def run_matches(players: int, seed: int, kind: str) -> None:
    rules = RULES[players]
    assert isinstance(rules, BandOfTricks)
    check_match(rules, rules.play(seed=seed, bots=bots_for(kind, players, seed)))


@given(seed=SEEDS, kind=BOT_KINDS)
def test_three_player_matches(seed: int, kind: str) -> None:
    run_matches(3, seed, kind)


@given(seed=SEEDS, kind=BOT_KINDS)
def test_four_player_matches(seed: int, kind: str) -> None:
    run_matches(4, seed, kind)


@given(seed=SEEDS, kind=BOT_KINDS)
def test_five_player_matches(seed: int, kind: str) -> None:
    run_matches(5, seed, kind)


@examples(7.5)  # one trick an example, far cheaper than a match: 7.5 times the profile's count
@given(players=st.sampled_from([3, 4, 5]), data=st.data())
def test_any_trick_is_ranked_and_explained(players: int, data: st.DataObject) -> None:
    rules = RULES[players]
    cards = data.draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=players, unique=True))
    out = rules.resolve_trick(cards)
    assert out.winner == oracle_winner(cards)
    assert sorted(out.ranking) == list(range(len(cards)))
    winner = cards[out.winner]
    for i, card in enumerate(cards):
        if i != out.winner:
            assert any(r.cards == (winner, card) for r in out.reasons)
    assert all(r.rule_id in rules.rulebook for r in out.reasons)
    # the documented full order: by suit case, then number (later card first on equal numbers)
    suits = {c.suit for c in cards}
    for above, below in zip(out.ranking, out.ranking[1:], strict=False):
        a, b = cards[above], cards[below]
        if len(suits) >= 3:
            assert a.rank > b.rank or (a.rank == b.rank and above > below)
        elif a.suit == b.suit:
            assert a.rank > b.rank
        else:
            assert a.suit == winner.suit


@given(players=st.sampled_from([3, 4, 5]), data=st.data())
def test_legal_plays_follow_the_rules(players: int, data: st.DataObject) -> None:
    rules = RULES[players]
    pool = data.draw(st.permutations(DECK))
    size = data.draw(st.integers(min_value=0, max_value=players - 1))
    trick = tuple(pool[:size])
    hand = tuple(pool[size : size + data.draw(st.integers(min_value=1, max_value=HAND[players]))])
    legal = rules.legal_plays(hand, trick=trick)
    assert set(legal) == {c for c in hand if oracle_may_play(hand, trick, c)}
    assert legal  # someone to play always has a card to play


@given(players=st.sampled_from([3, 4, 5]), seed=SEEDS, choices=st.randoms(use_true_random=False))
def test_random_core_play_is_the_checked_play(players: int, seed: int, choices: Any) -> None:
    """A deal played on the core (core_legal, core_step) goes exactly as through the checked
    API: the same actions offered in the same order, the same states, and each play one that
    BT-4 allows, judged by the rule stated in this file."""
    rules = RULES[players]
    assert isinstance(rules, BandOfTricks)
    core = rules.core_initial(seed, None)
    checked = rules.initial_state(seed)
    while core.to_play is not None and core.deal == 0:
        assert core == checked
        ids = list(rules.core_legal(core))
        assert [rules.actions[i] for i in ids] == rules.legal_actions(checked)
        action = ids[choices.randrange(len(ids))]
        if core.phase == PLAY:
            card = rules.actions[action]
            assert isinstance(card, Play)
            assert oracle_may_play(core.hands[core.to_play], core.trick, card.card)
        core = rules.core_step(core, action)
        checked = rules.apply(checked, rules.actions[action])
        check_trick_fields(core)
        assert accounted(core)
    assert core == checked
