"""The move list of a match (tricklab.movelist): every game's timeline outlined as rounds, tricks
or turns, and moves; every step in exactly one move, in order; the groups are the match's own
rounds and tricks; the labels are the narration's words; and the jumps to the previous or next
trick (turn) and round."""

from __future__ import annotations

import doctest
import itertools
import random
from typing import Any

import pytest

import tricklab
import tricklab.movelist
from tricklab.errors import InvalidOption
from tricklab.games import GAMES
from tricklab.games.base import EventKind
from tricklab.movelist import Outline, PartKind, first_sentence, outline, outline_steps

from .servers import UNPLAIN

CASES = [(game, players) for game in tricklab.games() for players in tricklab.find_game(game).player_counts]


def bot_match(game: str, players: int, seed: int = 3) -> tricklab.Match:
    return tricklab.get_rules(game, players=players).play(seed=seed)


def random_match(game: str, players: int, seed: int, decisions: int | None = None) -> tricklab.Match:
    match = tricklab.get_rules(game, players=players).new_match(seed=seed)
    rng = random.Random(seed)
    while not match.is_over and (decisions is None or len(match.actions) < decisions):
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    return match


def seats_of(match: tricklab.Match) -> list[int | None]:
    return [None, *range(match.rules.players)]


def check_outline(match: tricklab.Match, seat: int | None) -> Outline:
    """Everything an outline promises, checked against the timeline it was made of."""
    steps = match.timeline(seat)
    moves = outline(match, seat)
    grouping = match.rules.capabilities.grouping
    # every step exactly once, in order
    covered = [step for entry in moves.entries for step in entry.steps]
    assert covered == list(range(len(steps))) and moves.size == len(steps)
    assert [e for r in moves.rounds for p in r.parts for e in p.entries] == list(moves.entries)
    for entry in moves.entries:
        first = steps[entry.step].event
        assert entry.kind == first.kind and entry.seat == first.seat
        # the steps after an entry's first are those that follow from it
        assert all(steps[i].event.kind in grouping.follows for i in entry.steps[1:])
        # the label is the narration's own words: its first sentence, plain
        assert entry.label and first.text.startswith(entry.label) and entry.label[0].isupper()
        assert not UNPLAIN.search(entry.label), entry.label
        assert not any(str(action) in entry.label for action in set(match.actions) if " " in str(action))
    # the rounds are the match's deals
    deals = [step for step in steps if step.event.kind in grouping.rounds]
    assert [r.first for r in moves.rounds] == [d.index for d in deals]
    word = match.rules.capabilities.round_word
    for number, (round_, deal) in enumerate(zip(moves.rounds, deals, strict=True), start=1):
        assert round_.number == number and round_.title == f"{word.capitalize()} {number}"
        told = deal.event.data.get("round", deal.event.data.get("deal"))
        assert told is None or told + 1 == number
        kinds = [part.kind for part in round_.parts]
        assert kinds[0] == PartKind.START and kinds.count(PartKind.START) == 1
        assert PartKind.END not in kinds[:-1], "a round's end is its last part"
        assert round_.last + 1 == (moves.rounds[number].first if number < len(moves.rounds) else len(steps))
        if match.rules.capabilities.tricks:
            check_tricks(round_, steps)
        else:
            check_turns(round_, steps, grouping.opens)
    if match.is_over:
        last = moves.rounds[-1].parts[-1]
        assert last.kind == PartKind.END and last.title == "End of the match"
    return moves


def check_tricks(round_: Any, steps: list[Any]) -> None:
    """Each trick of the round is one trick of the match: its cards, in play order, by its seats."""
    tricks = [step for step in steps[round_.first : round_.last + 1] if step.event.kind == EventKind.TRICK]
    plays = round_.plays
    assert [part.number for part in plays] == list(range(1, len(plays) + 1))
    assert all(part.kind == PartKind.TRICK and part.title == f"Trick {part.number}" for part in plays)
    assert len(plays) in (len(tricks), len(tricks) + 1)  # a match in progress may be mid-trick
    for part, done in zip(plays, tricks, strict=False):
        events = [steps[i].event for i in range(part.first, part.last + 1)]
        assert [e for e in events if e.kind == EventKind.TRICK] == [done.event]
        trick = done.event.data["trick"]
        cards = [e for e in events if e.kind == EventKind.PLAY]
        assert [e.data["card"] for e in cards] == list(trick.cards)
        assert [e.seat for e in cards] == list(trick.seats)
        assert part.entries[0].kind == EventKind.PLAY and part.seat == trick.leader
    start = round_.parts[0]
    assert all(steps[i].event.kind != EventKind.PLAY for i in range(start.first, start.last + 1))


def check_turns(round_: Any, steps: list[Any], opens: tuple[str, ...]) -> None:
    """Each turn is one player's moves in a row; the next turn is another player's."""
    plays = round_.plays
    assert all(part.kind == PartKind.TURN and part.title == f"Turn {part.number}" for part in plays)
    assert [part.number for part in plays] == list(range(plays[0].number, plays[0].number + len(plays)))
    for part in plays:
        movers = {e.seat for e in part.entries if e.kind in opens}
        assert movers == {part.seat} and part.entries[0].kind in opens
    assert all(a.seat != b.seat for a, b in itertools.pairwise(plays))


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_games_outline_covers_every_step_once_in_order_with_its_rounds_and_tricks(
    game: str, players: int
) -> None:
    match = bot_match(game, players)
    for seat in seats_of(match):
        check_outline(match, seat)


@pytest.mark.parametrize(("game", "players"), CASES)
@pytest.mark.parametrize("seed", [5, 6])
def test_random_matches_and_matches_in_progress_are_outlined_too(game: str, players: int, seed: int) -> None:
    whole = random_match(game, players, seed)
    check_outline(whole, None)
    part_way = random_match(game, players, seed, decisions=len(whole.actions) // 2 + seed)
    moves = check_outline(part_way, 0)
    assert moves.size == len(part_way.timeline(0)) < len(whole.timeline(0))


def test_a_trick_games_groups_in_words() -> None:
    moves = outline(bot_match("tricks-and-stones", 4, seed=1))
    first = moves.rounds[0]
    assert [p.title for p in first.parts[:3]] == ["Before the first trick", "Trick 1", "Trick 2"]
    assert first.parts[-1].title == "End of the round"
    trick = first.parts[1]
    assert [e.label for e in trick.entries] == [
        "Player 2 leads K♣",
        "Player 3 follows with 7♣",
        "Player 4 cannot follow clubs and plays K♠",
        "Player 1 follows with 8♣",
        "Player 4 wins trick 1 with K♠",
    ]
    # the four gem actions after the trick are part of its last entry
    assert trick.entries[-1].steps == range(10, 15)
    assert len(first.plays) == 8 and len(moves.rounds) == 4


def test_band_of_tricks_is_outlined_in_deals() -> None:
    moves = outline(bot_match("band-of-tricks", 4, seed=1))
    assert moves.round_word == "deal" and moves.rounds[1].title == "Deal 2"
    assert moves.rounds[0].parts[-1].title == "End of the deal"
    assert [e.label for e in moves.rounds[0].parts[1].entries][:2] == [
        "Player 4 leads Metal 16",
        "Player 1 plays Soul 14",
    ]


def test_a_kalah_turn_is_a_players_sowings_until_the_other_moves() -> None:
    match = bot_match("kalah", 2, seed=1)
    moves = outline(match)
    steps = match.timeline()
    assert len(moves.rounds) == 1 and moves.part == "turn"
    for part in moves.rounds[0].plays:
        sowings = part.entries
        assert all(e.kind == EventKind.SOW for e in sowings)
        # a sowing whose last stone fell into the mover's store is followed by another of the same turn
        again = [any(steps[i].event.kind == EventKind.AGAIN for i in e.steps) for e in sowings]
        assert again[:-1] == [True] * (len(sowings) - 1)
        assert not again[-1] or part is moves.rounds[0].plays[-1]
    turn = moves.rounds[0].plays[0]
    assert turn.title == "Turn 1" and turn.entries[0].label == "Player 1 lifts 4 stones from pit 3 to sow"
    assert turn.entries[0].steps == range(1, 7)  # the sowing, its four stones and "moves again"


def test_a_mandala_turn_holds_the_claims_of_the_mandala_it_completed() -> None:
    moves = outline(bot_match("mandala", 2, seed=1))
    completing = [p for p in moves.rounds[0].plays if any(e.kind == EventKind.COMPLETE for e in p.entries)]
    assert completing
    for part in completing:
        kinds = [e.kind for e in part.entries]
        assert kinds.index(EventKind.COMPLETE) < kinds.index(EventKind.CLAIM)
        assert {e.seat for e in part.entries if e.kind == EventKind.CLAIM} == {0, 1}


def test_a_seats_outline_is_made_of_its_own_timeline() -> None:
    match = bot_match("jewel-vault", 4, seed=2)
    teacher, seat = outline(match), outline(match, 1)
    assert [e.steps for e in teacher.entries] == [e.steps for e in seat.entries]
    assert [e.label for e in seat.entries] == [
        first_sentence(s.event.text) for s in match.timeline(1) if s.index in {e.step for e in seat.entries}
    ]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_jumps_go_to_the_previous_and_next_trick_or_turn_and_round(game: str, players: int) -> None:
    match = bot_match(game, players)
    moves = outline(match)
    starts = [p.first for p in moves.parts if p.kind in (PartKind.TRICK, PartKind.TURN)]
    rounds = [r.first for r in moves.rounds]
    for step in range(moves.size):
        assert moves.next_part(step) == min((s for s in starts if s > step), default=None)
        assert moves.previous_part(step) == max((s for s in starts if s < step), default=None)
        assert moves.next_round(step) == min((s for s in rounds if s > step), default=None)
        assert moves.previous_round(step) == max((s for s in rounds if s < step), default=None)
        entry, part, round_ = moves.entry_at(step), moves.part_at(step), moves.round_at(step)
        assert step in entry.steps and entry in part.entries and part in round_.parts
    # the first trick or turn starts with the first card played, or the first move
    opens = match.rules.capabilities.grouping.opens
    assert moves.next_part(0) == next(s.index for s in match.timeline() if s.event.kind in opens)
    deals = [s.index for s in match.timeline() if s.event.kind == EventKind.DEAL]
    assert moves.next_round(0) == (deals[1] if len(deals) > 1 else None)


def test_previous_goes_to_the_start_of_the_trick_first_then_to_the_one_before() -> None:
    moves = outline(bot_match("tricks-and-stones", 4, seed=1))
    one, two = moves.rounds[0].parts[1], moves.rounds[0].parts[2]
    assert moves.previous_part(two.first + 2) == two.first
    assert moves.previous_part(two.first) == one.first
    assert moves.previous_part(one.first) is None and moves.previous_part(0) is None
    assert moves.next_part(moves.rounds[0].parts[-2].first) == moves.rounds[1].parts[1].first  # over the round's end
    assert moves.previous_round(moves.rounds[1].first + 3) == moves.rounds[1].first
    assert moves.previous_round(moves.rounds[1].first) == 0
    assert moves.next_part(moves.size - 1) is None and moves.next_round(moves.size - 1) is None


@pytest.mark.parametrize("bad", [-1, 10**6, True, "3", 2.0, None])
def test_a_step_that_is_not_in_the_match_is_refused(bad: object) -> None:
    moves = outline(bot_match("kalah", 2))
    for find in (moves.next_part, moves.previous_round, moves.entry_at, moves.part_at, moves.round_at):
        with pytest.raises(InvalidOption, match="a step is a number from 0 to"):
            find(bad)  # type: ignore[arg-type]


def test_what_is_not_a_match_or_a_timeline_is_refused() -> None:
    match = bot_match("kalah", 2)
    with pytest.raises(InvalidOption, match="made of a match"):
        outline("kalah")  # type: ignore[arg-type]
    with pytest.raises(InvalidOption, match="needs a game's rules"):
        outline_steps("kalah", match.timeline())  # type: ignore[arg-type]
    with pytest.raises(InvalidOption, match="from its first step; step 0"):
        outline_steps(match.rules, match.timeline()[1:])
    with pytest.raises(InvalidOption, match="there are no steps"):
        outline_steps(match.rules, [])
    with pytest.raises(InvalidOption, match="must be a match's timeline"):
        outline_steps(match.rules, "steps")  # type: ignore[arg-type]
    with pytest.raises(InvalidOption, match="seat must be 0 to 1"):
        outline(match, 5)


def test_the_groupings_declared_name_event_kinds() -> None:
    words = {kind.value for kind in EventKind}
    for cls in GAMES.values():
        grouping = cls.capabilities.grouping
        named = (*grouping.opens, *grouping.follows, *grouping.closes, *grouping.rounds)
        assert set(named) <= words, (cls.name, set(named) - words)
        assert grouping.part == ("trick" if cls.capabilities.tricks else "turn")
        assert not set(grouping.follows) & set(grouping.opens + grouping.closes + grouping.rounds)


def test_first_sentence() -> None:
    assert first_sentence("Player 4 wins trick 1 with K♠. Places: first Player 4") == "Player 4 wins trick 1 with K♠"
    assert first_sentence("Round 1: Player 2 deals 8 cards each; trump is Spades ♠.") == (
        "Round 1: Player 2 deals 8 cards each; trump is Spades ♠"
    )
    assert first_sentence("Player 2 leads 10♦.") == "Player 2 leads 10♦"
    assert first_sentence("no stop") == "no stop"


def test_the_modules_example() -> None:
    failures, tried = doctest.testmod(tricklab.movelist)
    assert tried and not failures
