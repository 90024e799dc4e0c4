"""The words a learner reads: every rulebook in the project's own words, every engine
sentence counted and seated right.

No clause of any game's rulebook (its title and text, and the ruling and option it names)
may share a run of ``RUN`` or more consecutive words with any of the rule texts in
``shared/seeds/``. Words are compared after normalising: lower case, apostrophes dropped,
every other punctuation mark a word break, and the suit symbols ♠ ♥ ♦ ♣ words of their own.

Engine sentences (event captions, reasons, results and score lines of whole bot matches of
every game) never write "(s)" or a count of one with a plural noun, and name seats from
Player 1, never Player 0 or a bare seat number.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import tricklab

RUN = 10
SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
SUITS = "♠♥♦♣♤♡♢♧"
_APOSTROPHES = re.compile("['\u2019\u2018`\u00b4]")  # apostrophes, typed or typographic
_WORD = re.compile(rf"[^\W_]+|[{SUITS}]")


def words(text: str) -> tuple[str, ...]:
    """``text`` as normalised words: lower case, no punctuation, suit symbols as words."""
    return tuple(_WORD.findall(_APOSTROPHES.sub("", text.lower())))


def runs(seq: tuple[str, ...], n: int = RUN) -> set[tuple[str, ...]]:
    return {seq[i : i + n] for i in range(len(seq) - n + 1)}


def shared_run(text: str, seed: tuple[str, ...], n: int = RUN) -> str | None:
    """The longest run of ``n`` or more words that ``text`` shares with ``seed``, or ``None``."""
    mine = words(text)
    seed_runs = runs(seed, n)
    best: tuple[str, ...] | None = None
    i = 0
    while i + n <= len(mine):
        if mine[i : i + n] in seed_runs:
            j = i + n
            while j < len(mine) and mine[i : j + 1] in _grams(seed, j + 1 - i):
                j += 1
            if best is None or j - i > len(best):
                best = mine[i:j]
            i = j
        else:
            i += 1
    return " ".join(best) if best else None


@cache
def _grams(seed: tuple[str, ...], n: int) -> frozenset[tuple[str, ...]]:
    return frozenset(runs(seed, n))


@cache
def seed_texts() -> dict[str, tuple[str, ...]]:
    return {path.name: words(path.read_text(encoding="utf-8")) for path in sorted(SEEDS.glob("*.txt"))}


def clauses() -> list[tuple[str, str]]:
    """(clause id, the clause's words to check) for every clause of every game."""
    out = []
    for name in tricklab.games():
        for clause in tricklab.find_game(name).rulebook.values():
            parts = [clause.title, clause.text, clause.ruling or "", clause.option or ""]
            out.append((clause.id, "\n".join(parts)))
    return out


needs_seeds = pytest.mark.skipif(
    not SEEDS.is_dir() or not any(SEEDS.glob("*.txt")),
    reason=f"the seed rule texts are not at {SEEDS} (shared/ is expected beside the repository)",
)


def test_words_normalise_case_punctuation_and_suit_symbols() -> None:
    assert words("If you can't follow, play ♠ or ♥-cards; the Dealer's turn.") == (
        "if",
        "you",
        "cant",
        "follow",
        "play",
        "♠",
        "or",
        "♥",
        "cards",
        "the",
        "dealers",
        "turn",
    )
    assert words("♦action") == ("♦", "action")


def test_shared_run_finds_the_longest_run_and_nothing_shorter() -> None:
    seed = words("One two three four five six seven eight nine ten eleven twelve.")
    assert shared_run("zero ONE two, three four five six seven eight nine ten eleven!", seed) == (
        "one two three four five six seven eight nine ten eleven"
    )
    assert shared_run("one two three four five six seven eight nine", seed) is None
    assert shared_run("one two three four five six seven eight nine zero", seed) is None


def test_every_game_has_a_rulebook_to_check() -> None:
    ids = {clause_id for clause_id, _ in clauses()}
    for prefix in ("ts.", "bt.", "jv."):
        assert any(i.startswith(prefix) for i in ids), prefix
    assert {"ts.follow", "jv.follow", "jv.partnerships", "jv.partnerships.count", "jv.known-deck"} <= ids


@needs_seeds
@pytest.mark.parametrize(("clause_id", "text"), clauses(), ids=[c for c, _ in clauses()])
def test_no_clause_shares_ten_words_with_a_seed(clause_id: str, text: str) -> None:
    found = [
        f"{clause_id} shares {len(run.split())} words with {seed}: {run!r}"
        for seed, seed_words in seed_texts().items()
        if (run := shared_run(text, seed_words))
    ]
    assert not found, "\n".join(found)


@needs_seeds
def test_the_seeds_are_the_four_rule_texts() -> None:
    assert len(seed_texts()) == 4
    assert all(len(w) > 500 for w in seed_texts().values())


def test_two_players_says_five_tricks_a_round() -> None:
    text = tricklab.find_game("jewel-vault").rulebook["jv.two-players"].text
    assert "5 tricks" in text or "five tricks" in text.lower()
    assert "10 cards" in text or "ten cards" in text.lower()


# --- engine sentences -------------------------------------------------------------------------

NOUNS = "tricks|gems|cards|jewels|points|predictions|deals|players|wins|steps|actions|chambers"
# a count of one and a plural noun, but not a name or number like "Player 1 wins" or "chamber 1 gems"
ONE_PLURAL = re.compile(rf"(?<![\w.])(?<!Player )(?<!chamber )(?<!trick )[-+]?1 (?:[a-z]+ )?(?:{NOUNS})\b")
ZERO_BASED = re.compile(r"\bPlayer 0\b|\bseat \d")

MATCHES = [
    ("tricks-and-stones", 3, {}),
    ("tricks-and-stones", 4, {"chambers": "ring"}),
    ("band-of-tricks", 3, {}),
    ("band-of-tricks", 5, {}),
    ("jewel-vault", 2, {"rounds": 1}),
    ("jewel-vault", 2, {"rounds": 1, "known_deck": True}),
    ("jewel-vault", 3, {"rounds": 2, "supply": 12}),
    ("jewel-vault", 4, {"rounds": 1, "partnerships": True}),
    ("jewel-vault", 6, {"rounds": 1}),
]


def _texts(value: Any) -> Iterator[str]:
    """Every sentence for people inside an event's data: reasons, score lines, action results."""
    if isinstance(value, tricklab.Reason):
        yield value.text
    elif isinstance(value, tricklab.ScoreLine):
        yield value.label
        yield value.detail
    elif isinstance(value, tricklab.Score):
        for part in (*value.lines, *value.reasons):
            yield from _texts(part)
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _texts(item)
    elif hasattr(value, "text") and hasattr(value, "reasons"):  # an action result
        yield value.text
        yield from _texts(value.reasons)


def learner_sentences(match: tricklab.Match) -> Iterator[str]:
    for step in match.timeline():
        yield step.event.text
        yield from _texts(step.event.reasons)
        for value in step.event.data.values():
            yield from _texts(value)
    if match.result is not None:
        yield from _texts(match.result.reasons)


def test_the_sweep_catches_the_old_mistakes() -> None:
    assert ONE_PLURAL.search("Player 2 1 tricks → 4")
    assert ONE_PLURAL.search("1 own gems in chamber 1")
    assert ONE_PLURAL.search("wins with 1 points.")
    assert not ONE_PLURAL.search("Player 1 2 tricks → 4; chamber 1 scores 1; 11 points; 0.1 points")
    assert not ONE_PLURAL.search("Player 1 wins trick 1 with A♠; 1 won of 2 bid")
    assert ZERO_BASED.search("Player 0 leads") and ZERO_BASED.search("the seats are 0 to 3, seat 2")
    assert not ZERO_BASED.search("Player 1 leads; a seat number from 0 (Player 1)")


@pytest.mark.parametrize(
    ("game", "players", "options"), MATCHES, ids=[f"{g}-{p}" + "".join(f"-{k}" for k in o) for g, p, o in MATCHES]
)
@pytest.mark.parametrize("bots", ["heuristic", "random"])
def test_engine_sentences_count_and_seat_right(game: str, players: int, options: dict[str, Any], bots: str) -> None:
    rules = tricklab.get_rules(game, players=players, **options)
    for seed in range(3):
        match = rules.play(seed=seed, bots=bots)
        for text in learner_sentences(match):
            assert "(s)" not in text, text
            assert not ONE_PLURAL.search(text), text
            assert not ZERO_BASED.search(text), text
