"""One ``Trick`` value object for every game: what a completed trick keeps, checked against
the public ``resolve_trick`` over seeded bot matches of every game and player count."""

from __future__ import annotations

from typing import Any

import pytest

import tricklab
from tricklab.games.base import EventKind, Trick

CASES = [
    (game, players)
    for game in tricklab.games()
    if tricklab.find_game(game).capabilities.tricks
    for players in tricklab.find_game(game).player_counts
]
SEEDS = (1, 4, 7)


def completed_tricks(match: tricklab.Match) -> list[tuple[Trick, Any]]:
    """Each completed trick of a match's timeline with the teacher's view right after it."""
    out = []
    for step in match.timeline():
        if step.event.kind == EventKind.TRICK:
            trick = step.event.data["trick"]
            assert step.state.last_trick == trick  # the state keeps the trick its event reports
            out.append((trick, match.rules.view(step.state, None)))
    return out


@pytest.mark.parametrize(("game", "players"), CASES)
@pytest.mark.parametrize("bots", ["heuristic", "random"])
def test_every_completed_trick_agrees_with_resolve_trick(game: str, players: int, bots: str) -> None:
    rules = tricklab.get_rules(game, players=players)
    for seed in SEEDS:
        tricks = completed_tricks(rules.play(seed=seed, bots=bots))
        assert tricks
        for trick, view in tricks:
            assert isinstance(trick, Trick)
            assert len(trick.cards) == len(trick.seats) == rules.trick_size
            assert trick.seats == tuple((trick.leader + i) % players for i in range(len(trick.cards)))
            context = {c.key: getattr(view, c.key) for c in rules.capabilities.context}
            outcome = rules.resolve_trick(trick.cards, **context)
            assert trick.winner == trick.seats[outcome.winner]
            assert trick.winning == outcome.winner and trick.winning_card == outcome.winning_card
            assert trick.led_suit == trick.cards[0].suit
            if trick.places is not None:
                assert trick.places[0] == trick.winner
                assert trick.places == tuple(trick.seats[i] for i in outcome.ranking)
            assert view.last_trick == trick  # a seat's view shows it too


@pytest.mark.parametrize(
    ("game", "places"), [("tricks-and-stones", True), ("band-of-tricks", False), ("jewel-vault", False)]
)
def test_places_are_kept_where_the_rules_use_every_place(game: str, places: bool) -> None:
    rules = tricklab.get_rules(game, players=tricklab.find_game(game).player_counts[0])
    tricks = completed_tricks(rules.play(seed=3))
    assert all((trick.places is not None) == places for trick, _ in tricks)


def test_a_two_player_jewel_vault_trick_has_each_seat_twice_in_play_order() -> None:
    rules = tricklab.get_rules("jewel-vault", players=2)
    for trick, _ in completed_tricks(rules.play(seed=5)):
        assert trick.seats == (trick.leader, 1 - trick.leader) * 2


def test_ranked_maps_a_ranking_to_seats() -> None:
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    cards = rules.cards("7H AH 8S KH")
    outcome = rules.resolve_trick(cards, trump="S")
    trick = Trick.ranked(2, cards, outcome.ranking, 4, places=True)
    assert trick.seats == (2, 3, 0, 1)
    assert trick.winner == 0 and trick.winning_card == rules.card("8S")
    assert trick.places == (0, 3, 1, 2)
    assert trick.winning == 2 and trick.led_suit == "H"
    assert Trick.ranked(2, cards, outcome.ranking, 4, places=False).places is None


@pytest.mark.parametrize(
    "fields",
    [
        {"leader": 1, "seats": (0, 1, 2, 3), "winning": 0},  # the leader plays first
        {"leader": 0, "seats": (0, 1, 2), "winning": 0},  # one seat per card
        {"leader": 0, "seats": (0, 1, 2, 3), "winning": 4},  # one of the cards won
        {"leader": 0, "seats": (0, 1, 2, 3), "winning": 0, "places": (1, 0, 2, 3)},  # its seat comes first
    ],
)
def test_an_inconsistent_trick_is_refused(fields: dict[str, Any]) -> None:
    cards = tricklab.get_rules("tricks-and-stones", players=4).cards("7H AH 8S KH")
    with pytest.raises(ValueError, match="trick"):
        Trick(cards=cards, **fields)
