"""The contract every game of the registry keeps, checked the same way for each game.

Game-specific rules are tested in each game's own test file; this suite checks the
shared mechanisms: seeds, legal actions, checked apply, undo, views, timelines and
records.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import tricklab
from tricklab.errors import IllegalAction, InvalidOption, RecordError, UnknownGame

CASES = [(game, players) for game in tricklab.games() for players in tricklab.find_game(game).player_counts]


def _rules(game: str, players: int) -> Any:
    return tricklab.get_rules(game, players=players)


def _random_match(game: str, players: int, seed: int, steps: int | None = None) -> tricklab.Match:
    rules = _rules(game, players)
    match = rules.new_match(seed=seed)
    rng = random.Random(seed)
    count = 0
    while not match.is_over and (steps is None or count < steps):
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
        count += 1
    return match


@pytest.mark.parametrize(("game", "players"), CASES)
def test_same_seed_same_match(game: str, players: int) -> None:
    a = _rules(game, players).play(seed=11, bots="random")
    b = _rules(game, players).play(seed=11, bots="random")
    assert a.actions == b.actions
    assert a.state == b.state
    c = _rules(game, players).play(seed=12, bots="random")
    assert c.states[0] != a.states[0], "a different seed must give a different deal"


@pytest.mark.parametrize(("game", "players"), CASES)
def test_bots_finish_a_match_with_a_result(game: str, players: int) -> None:
    match = _rules(game, players).play(seed=3, bots="heuristic")
    assert match.is_over
    assert match.legal_actions() == []
    result = match.result
    assert result is not None
    assert result.winners and set(result.winners) <= set(range(players))
    best = max(result.totals)
    assert all(result.totals[w] == best for w in result.winners)
    for reason in result.reasons:
        assert reason.rule_id in match.rules.rulebook


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_legal_action_applies_and_round_trips_as_text(game: str, players: int) -> None:
    match = _random_match(game, players, seed=5, steps=60)
    rules = match.rules
    for action in match.legal_actions():
        assert rules.parse_action(str(action)) == action
        trial = match.copy()
        trial.apply(str(action))
        assert trial.state != match.state or trial.is_over


@pytest.mark.parametrize(("game", "players"), CASES)
def test_illegal_action_names_a_rule_and_changes_nothing(game: str, players: int) -> None:
    match = _random_match(game, players, seed=8, steps=40)
    before = match.state
    legal = set(match.legal_actions())
    # an action of a kind that is surely wrong now: a card nobody may play at this moment
    seat = match.to_play
    assert seat is not None
    candidates = [tricklab.Play(card) for card in match.rules.deck()]
    wrong = next(a for a in candidates if a not in legal)
    with pytest.raises(IllegalAction) as info:
        match.apply(wrong)
    assert info.value.rule_id in match.rules.rulebook
    assert str(info.value)
    assert match.state is before
    assert len(match.actions) == 40


@pytest.mark.parametrize(("game", "players"), CASES)
def test_undo_restores_the_previous_state(game: str, players: int) -> None:
    match = _random_match(game, players, seed=2, steps=25)
    states = match.states
    actions = match.actions
    for _ in range(5):
        undone = match.undo()
        assert undone == actions[len(match.actions)]
    assert match.state == states[-6]
    with pytest.raises(IllegalAction):
        _rules(game, players).new_match(seed=1).undo()


@pytest.mark.parametrize(("game", "players"), CASES)
def test_views_hide_other_hands(game: str, players: int) -> None:
    match = _random_match(game, players, seed=4, steps=30)
    teacher = match.view(None)
    assert all(hand is not None for hand in teacher.hands)
    for seat in range(players):
        view = match.view(seat)
        for other, hand in enumerate(view.hands):
            if other == seat:
                assert hand == teacher.hands[seat]
            else:
                assert hand is None
    with pytest.raises(InvalidOption):
        match.view(players)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_timeline_replays_to_the_current_state(game: str, players: int) -> None:
    match = _random_match(game, players, seed=6)
    steps = match.timeline()
    assert steps[0].event.kind == "deal"
    assert steps[-1].state == match.state
    assert [s.index for s in steps] == list(range(len(steps)))
    assert steps[-1].decisions == len(match.actions)
    decided = [s.decisions for s in steps]
    assert decided == sorted(decided)
    for step in steps:
        assert step.event.text
        for reason in step.event.reasons:
            assert reason.rule_id in match.rules.rulebook, reason


@pytest.mark.parametrize(("game", "players"), CASES)
def test_record_round_trip_is_exact(game: str, players: int) -> None:
    match = _rules(game, players).play(seed=9, bots="heuristic")
    again = tricklab.Match.from_json(match.to_json())
    assert again.rules == match.rules
    assert again.actions == match.actions
    assert again.states == match.states
    assert again.to_json() == match.to_json()


@pytest.mark.parametrize(("game", "players"), CASES)
def test_tampered_or_malformed_records_are_refused(game: str, players: int) -> None:
    match = _random_match(game, players, seed=10, steps=30)
    record = json.loads(match.to_json())

    changed = dict(record, actions=record["actions"][:-1] + ["skip"])
    with pytest.raises(RecordError, match="digest"):
        tricklab.Match.from_json(json.dumps(changed))

    with pytest.raises(RecordError, match="JSON"):
        tricklab.Match.from_json(match.to_json()[:-5])
    with pytest.raises(RecordError):
        tricklab.Match.from_json(json.dumps([1, 2, 3]))
    with pytest.raises(RecordError, match="version"):
        tricklab.Match.from_json(json.dumps(dict(record, version=99)))
    with pytest.raises(RecordError, match="missing"):
        tricklab.Match.from_json(json.dumps({k: v for k, v in record.items() if k != "seed"}))


def test_registry_names_and_errors() -> None:
    assert "tricks-and-stones" in tricklab.games()
    assert tricklab.get_rules("Tricks & Stones", players=4).name == "tricks-and-stones"
    with pytest.raises(UnknownGame, match="no game 'chess'"):
        tricklab.get_rules("chess", players=2)
    with pytest.raises(InvalidOption, match="no option"):
        tricklab.get_rules("tricks-and-stones", players=4, colour="red")


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, "7", True, None])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(InvalidOption, match="seed"):
        tricklab.get_rules("tricks-and-stones", players=4).new_match(seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_timeline_grows_with_the_match_and_shrinks_with_undo(game: str, players: int) -> None:
    match = _random_match(game, players, seed=12, steps=20)
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
