"""A match in a link (tricklab.links): the code of its moves, read back strictly."""

from __future__ import annotations

import pytest

import tricklab
from tricklab.errors import RecordError
from tricklab.links import MAX_CODE, match_from_moves, moves_code
from tricklab.widgets.apps import replay_app

#: made with this version: a link keeps its meaning, so these codes must replay to these records
PINNED = [
    (
        "jewel-vault",
        2,
        11,
        "1tCyxAEAEIDIHEAECEAECDACABAAAAJJGBGGBAACABDDCAABBAABHsBGAAAEAAAFAAADAAABAAAAJJIAAACEADEAAACAACAAAA",
        "sha256:3b52b829e3468fad372db3e920fb2a30811e8bd49681a12a7cd13e5eec232054",
    ),
]


@pytest.mark.parametrize(("game", "players", "seed", "code", "digest"), PINNED)
def test_a_code_made_by_this_version_replays_to_the_same_record(
    game: str, players: int, seed: int, code: str, digest: str
) -> None:
    match = match_from_moves(tricklab.get_rules(game, players=players), seed, code)
    assert match.record()["digest"] == digest
    assert match.is_over


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("tricks-and-stones", 3, {}),
        ("tricks-and-stones", 4, {}),
        ("band-of-tricks", 5, {}),
        ("jewel-vault", 6, {"partnerships": True}),
        ("jewel-vault", 4, {"first_dealer": 2}),
    ],
)
def test_every_match_comes_back_from_its_code(game: str, players: int, options: dict[str, object]) -> None:
    match = tricklab.get_rules(game, players=players).play(seed=5, **options)
    code = moves_code(match)
    assert len(code) < 700, "a whole match fits in an address"
    again = match_from_moves(match.rules, 5, code, match.match_options)
    assert again.to_json() == match.to_json()
    half = tricklab.Match(match.rules, 5, match_options=match.match_options, actions=match.actions[:40])
    assert match_from_moves(match.rules, 5, moves_code(half), match.match_options).actions == half.actions


def code_of(seed: int = 3) -> tuple[tricklab.Match, str]:
    match = tricklab.get_rules("tricks-and-stones", players=4).play(seed=seed)
    return match, moves_code(match)


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda c: c[:-1], "cut short|do not belong"),
        (lambda c: c[:-7], "cut short|do not belong"),
        (lambda c: c[:5], "do not belong"),
        (lambda c: c[:3], "checksum is missing"),
        (lambda c: c[:20] + ("A" if c[20] != "A" else "B") + c[21:], "do not belong|not one of|more moves"),
        (lambda c: c[:10] + "*" + c[11:], "not part of them"),
        (lambda c: "2" + c[1:], "version 1"),
        (lambda c: c + "A" * MAX_CODE, "too long"),
        (lambda c: c[:5] + "_____" + c[5:], "far too long"),
    ],
)
def test_a_damaged_code_is_refused_by_name(damage: object, said: str) -> None:
    match, code = code_of()
    assert callable(damage)
    with pytest.raises(RecordError, match=said):
        match_from_moves(match.rules, 3, damage(code))


def test_a_code_opened_with_other_settings_is_refused() -> None:
    match, code = code_of()
    with pytest.raises(RecordError, match="do not belong"):
        match_from_moves(match.rules, 4, code)
    with pytest.raises(RecordError, match="do not belong"):
        match_from_moves(tricklab.get_rules("tricks-and-stones", players=3), 3, code)
    with pytest.raises(RecordError, match="settings are invalid"):
        match_from_moves(match.rules, 3, code, {"first_dealer": 9})


def test_the_replay_app_reopens_a_played_game_from_its_link_and_refuses_a_damaged_one() -> None:
    match = tricklab.get_rules("band-of-tricks", players=4).play(seed=8, bots="random")
    query = f"game=band-of-tricks&players=4&seed=8&moves={moves_code(match)}"
    stepper = replay_app(query).children[1]
    assert stepper.match.to_json() == match.to_json()
    bad = replay_app(query[:-2])
    assert "could not be replayed" in bad.children[0].value
    assert bad.children[1].match.to_json() != match.to_json()  # the bots' match of that seed instead
