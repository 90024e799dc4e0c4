"""What each game declares it offers (tricklab.games.capabilities), and that nothing outside
tricklab/games/ asks which game it holds: a source scan of the package."""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tricklab
from tricklab.actions import BID_SUITS, Announce, Bid, Pass, Predict
from tricklab.display.boards import BOARDS
from tricklab.games import GAMES, default_players, games_with
from tricklab.games.capabilities import (
    TRUMP,
    BoardKind,
    Capabilities,
    Decision,
    DecisionKind,
    Ref,
)

PACKAGE = Path(tricklab.__file__).parent
GAME_IDS = {alias for cls in GAMES.values() for alias in (cls.name, *cls.aliases) if "-" in alias or "_" in alias}
NAMES = sorted(GAMES)


def _players(name: str) -> int:
    """The game's default player count: four where it allows them, else its largest."""
    return default_players(GAMES[name])


# --- the source scan --------------------------------------------------------------------------------

# The advisor's and the review's entries (AdvisorEntry, ReviewEntry) are each game's own functions,
# in the game's folder (advice.py, review.py), which the scan does not read: a game's own code may
# narrow to its own types.
ALLOWED_ISINSTANCE: set[tuple[str, str]] = set()


def _outside_games() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "games" not in p.relative_to(PACKAGE).parts)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (examples in them may name games)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _is_game_name(node: ast.expr) -> bool:
    """``x.name`` (a rules object's or class's name) or a game module's ``NAME``."""
    return (isinstance(node, ast.Attribute) and node.attr in ("name", "NAME")) or (
        isinstance(node, ast.Name) and node.id == "NAME"
    )


def _is_fixed(node: ast.expr) -> bool:
    """A value written in the source: a constant, a literal collection, a ``NAME`` constant."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return True
    return isinstance(node, ast.Attribute) and node.attr == "NAME"


def _game_module_names(tree: ast.Module) -> set[str]:
    """Local names bound to a game module or to something imported from one."""
    games = {cls.__module__.split(".")[2] for cls in GAMES.values()}  # each game's folder
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            parts = node.module.split(".")
            if parts[-1] == "games":
                names |= {a.asname or a.name for a in node.names if a.name in games}
            elif "games" in parts[:-1] and parts[parts.index("games") + 1] in games:  # the folder or a module in it
                names |= {a.asname or a.name for a in node.names}
    return names


def _mentions(node: ast.expr, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _enclosing_functions(tree: ast.Module) -> dict[int, str]:
    where: dict[int, str] = {}
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(fn):
                where.setdefault(id(node), fn.name)
    return where


def switches(path: Path, rel: str | None = None) -> Iterator[str]:
    """Every place in ``path`` that switches on a game: a comparison of a game's name with a fixed
    value, a game id written out (outside docstrings), an ``isinstance`` against a game's classes."""
    tree = ast.parse(path.read_text(), str(path))
    docs = _docstrings(tree)
    game_names = _game_module_names(tree)
    functions = _enclosing_functions(tree)
    rel = rel or path.relative_to(PACKAGE).as_posix()
    word = re.compile(r"(?<![\w-])(" + "|".join(re.escape(g) for g in sorted(GAME_IDS)) + r")(?![\w-])")
    for node in ast.walk(tree):
        where = f"{rel}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_is_game_name(o) for o in operands) and any(_is_fixed(o) for o in operands):
                yield f"{where}: compares a game's name: {ast.unparse(node)}"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            found = word.search(node.value)
            if found:
                yield f"{where}: names the game {found[1]!r} in {node.value[:60]!r}"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
            and len(node.args) == 2
            and _mentions(node.args[1], game_names)
            and (path.name, functions.get(id(node), "")) not in ALLOWED_ISINSTANCE
        ):
            yield f"{where}: tells games apart by type: {ast.unparse(node)}"


def test_the_scan_finds_each_kind_of_switch(tmp_path: Path) -> None:
    """The scan is not blind: it finds each kind of switch this test forbids."""
    sample = tmp_path / "sample.py"
    source = (
        "from ..games import tricks_and_stones as ts\n"
        'def f(rules, view):\n    """Docstrings may name tricks-and-stones."""\n'
        '    if rules.name == "tricks-and-stones":\n        return 1\n'
        "    if rules.name in (ts.NAME,):\n        return 2\n"
        "    if isinstance(view, ts.TricksAndStonesView):\n        return 3\n"
        '    return "game=jewel-vault&players=4"\n'
    )
    sample.write_text(source)
    found = list(switches(sample, "widgets/sample.py"))
    assert len(found) == 5, found  # the comparison's constant is a game id too
    assert sum("compares a game's name" in f for f in found) == 2
    assert sum("tells games apart by type" in f for f in found) == 1
    assert sum("names the game" in f for f in found) == 2


def test_no_module_outside_the_games_switches_on_a_game() -> None:
    found = [problem for path in _outside_games() for problem in switches(path)]
    assert not found, "\n".join(found)


# --- each game's declaration ------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_every_game_declares_its_capabilities(name: str) -> None:
    cls = GAMES[name]
    assert isinstance(cls.capabilities, Capabilities)
    assert "capabilities" in vars(cls), "declared on the game's own class, not inherited"
    with pytest.raises(dataclasses.FrozenInstanceError):
        cls.capabilities.panels = ()  # type: ignore[misc]


def test_the_decisions_declared() -> None:
    ts, bt, jv = (GAMES[n].capabilities.decision for n in ("tricks-and-stones", "band-of-tricks", "jewel-vault"))
    assert ts == Decision(DecisionKind.PREDICTION, "predict", "ts.predict", (0, 1, 2, 3, 4, 5))
    assert bt == Decision(DecisionKind.SUIT_BID, "bid", "bt.bid", (0, 1, 2, 3, 4, 5, 6), BID_SUITS)
    assert jv == Decision(DecisionKind.PASS, "pass", "jv.pass", (1, 2, 3))  # pass the number the dealer names


@pytest.mark.parametrize("name", NAMES)
def test_a_declared_decision_is_what_the_engine_asks_for(name: str) -> None:
    """At the declared phase the engine offers exactly the declared kind of action, with the
    declared choices (an independent look at the engine's legal actions)."""
    rules = tricklab.get_rules(name, players=_players(name))
    decision = rules.capabilities.decision
    match = rules.new_match(seed=3)
    kinds = {type(a) for a in match.legal_actions()}
    if decision.kind is DecisionKind.NONE:
        assert not kinds & {Predict, Bid, Pass}
        return
    if decision.kind is DecisionKind.PASS and Announce not in kinds:  # a fixed number of cards (Hearts)
        assert kinds == {Pass} and {len(a.cards) for a in match.legal_actions() if isinstance(a, Pass)} == set(
            decision.choices
        )
        assert match.phase == decision.phase and rules.rulebook[decision.rule_id]
        return
    if decision.kind is DecisionKind.PASS:  # the dealer names the number first (Jewel Vault)
        assert kinds == {Announce} and {a.n for a in match.legal_actions() if isinstance(a, Announce)} == set(
            decision.choices
        )
        for k in decision.choices:
            named = match.copy()
            named.apply(Announce(k))
            assert named.phase == decision.phase
            passes = named.legal_actions()
            assert {type(a) for a in passes} == {Pass} and {len(a.cards) for a in passes if isinstance(a, Pass)} == {k}
        assert rules.rulebook[decision.rule_id]
        return
    assert match.phase == decision.phase
    assert rules.rulebook[decision.rule_id]
    legal = match.legal_actions()
    if decision.kind is DecisionKind.PREDICTION:
        assert kinds == {Predict} and sorted(a.n for a in legal if isinstance(a, Predict)) == list(decision.choices)
    else:
        assert kinds == {Bid}
        for suit in decision.suits:
            assert {getattr(a, suit) for a in legal if isinstance(a, Bid) and not a.zero} == set(decision.choices)


def test_the_trick_context_declared() -> None:
    ts = GAMES["tricks-and-stones"].capabilities
    assert ts.context == (TRUMP,) and ts.context_of("trump") is TRUMP
    assert [v for _, v in TRUMP.choices] == ["S", "H", "D", "C", None]
    assert [text for text, _ in TRUMP.choices] == ["♠ Spades", "♥ Hearts", "♦ Diamonds", "♣ Clubs", "no trump"]
    for name in ("band-of-tricks", "jewel-vault"):
        assert GAMES[name].capabilities.context == () and GAMES[name].capabilities.context_of("trump") is None


@pytest.mark.parametrize("name", NAMES)
def test_the_declared_context_is_what_resolve_trick_takes(name: str) -> None:
    rules = tricklab.get_rules(name, players=_players(name))
    if not rules.capabilities.tricks:
        assert not rules.capabilities.context, "a game without tricks has no trick context"
        return
    deck = rules.deck()
    trick = [deck[0], deck[9], deck[18]]
    for context in rules.capabilities.context:
        for _, value in context.choices:
            outcome = rules.resolve_trick(trick, **{context.key: value})
            assert outcome.context.get(context.key) == value
    view = rules.new_match(seed=1).view(0)
    assert all(hasattr(view, c.key) for c in rules.capabilities.context), "a view holds its trick context"


def test_the_explainer_players_declared() -> None:
    tricks = {n for n in NAMES if GAMES[n].capabilities.tricks}
    assert tricks == {"band-of-tricks", "jewel-vault", "tricks-and-stones", "oh-hell", "hearts"}
    assert all((GAMES[n].capabilities.board is None) == (n in tricks) for n in NAMES), (
        "a game without tricks has a board"
    )
    assert {n: GAMES[n].capabilities.explainer_players for n in NAMES} == {
        "band-of-tricks": None,
        "jewel-vault": 4,
        "tricks-and-stones": None,
        "kalah": None,
        "mandala": None,
        "oh-hell": None,
        "hearts": None,
    }
    for cls in GAMES.values():
        players = cls.capabilities.explainer_players
        assert players is None or players in cls.player_counts


TRICK_GAMES = ["band-of-tricks", "hearts", "jewel-vault", "oh-hell", "tricks-and-stones"]
POSITION_GAMES = ["kalah", "mandala"]  # no tricks: their quizzes ask about positions


def test_the_quiz_kinds_cover_every_game() -> None:
    assert sorted(TRICK_GAMES + POSITION_GAMES) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_every_game_declares_one_kind_of_quiz(name: str) -> None:
    """A trick game's quiz asks about tricks, a game without tricks' about positions; never both."""
    quiz = GAMES[name].capabilities.quiz
    assert bool(quiz.levels) == (name in TRICK_GAMES)
    assert bool(quiz.positions) == (name in POSITION_GAMES)
    assert quiz.steps == (quiz.levels or quiz.positions) and quiz.steps


@pytest.mark.parametrize("name", TRICK_GAMES)
def test_the_quiz_levels_declared(name: str) -> None:
    quiz = GAMES[name].capabilities.quiz
    assert [level.number for level in quiz.levels] == list(range(1, len(quiz.levels) + 1))
    assert (
        len(quiz.levels)
        == {"tricks-and-stones": 3, "band-of-tricks": 3, "jewel-vault": 2, "oh-hell": 2, "hearts": 2}[name]
    )
    assert (quiz.podium is not None) == (name == "tricks-and-stones")
    assert any(level.podium for level in quiz.levels) == (quiz.podium is not None)
    declared = {c.key for c in GAMES[name].capabilities.context}
    for level in quiz.levels:
        assert {key for items in level.contexts for key, _ in items} <= declared


@pytest.mark.parametrize("name", POSITION_GAMES)
def test_the_position_quiz_levels_declared(name: str) -> None:
    """Numbered from 1, each with a title and a text for a learner, each naming a puzzle that
    loads (from the layer above, only when asked) and makes a question of its game."""
    import random

    from tricklab.puzzles import Puzzle

    quiz = GAMES[name].capabilities.quiz
    assert [level.number for level in quiz.positions] == list(range(1, len(quiz.positions) + 1))
    assert len(quiz.positions) == {"kalah": 3, "mandala": 3}[name]
    assert quiz.podium is None and not quiz.levels
    rules = tricklab.get_rules(name, players=2)
    rng = random.Random(1)
    for level in quiz.positions:
        assert level.title and level.text.endswith(".")
        puzzle = level.puzzle.load()
        assert isinstance(puzzle, Puzzle)
        asked = next(a for a in (puzzle.ask(rules, rng) for _ in range(2000)) if a is not None)
        assert asked.choices and asked.prompt.endswith("?")
        assert set(puzzle.mark(rules, asked, None).right) <= {c.value for c in asked.choices}


def test_the_panels_declared() -> None:
    assert {n: GAMES[n].capabilities.panels for n in NAMES} == {
        "tricks-and-stones": (
            Ref("tricklab.games.tricks_and_stones.panel:chambers"),
            Ref("tricklab.games.tricks_and_stones.panel:podium"),
            Ref("tricklab.games.tricks_and_stones.panel:round_scores"),
        ),
        "band-of-tricks": (
            Ref("tricklab.games.band_of_tricks.panel:bids_and_wins"),
            Ref("tricklab.games.band_of_tricks.panel:metal_choice"),
        ),
        "jewel-vault": (
            Ref("tricklab.games.jewel_vault.panel:jewels"),
            Ref("tricklab.games.jewel_vault.panel:actions_owed"),
        ),
        "kalah": (),
        "mandala": (),
        "oh-hell": (Ref("tricklab.games.oh_hell.panel:bids_and_tricks"),),
        "hearts": (Ref("tricklab.games.hearts.panel:points_taken"),),
    }
    assert {n: GAMES[n].capabilities.board for n in NAMES} == {
        "tricks-and-stones": None,
        "band-of-tricks": None,
        "jewel-vault": None,
        "kalah": BoardKind.PITS,
        "mandala": BoardKind.MANDALAS,
        "oh-hell": None,
        "hearts": None,
    }
    assert set(BOARDS) == set(BoardKind), "the display draws every kind of board, and only those"
    boards = [cls.capabilities.board for cls in GAMES.values() if cls.capabilities.board is not None]
    assert sorted(boards) == sorted(BoardKind), "each board belongs to one game"
    for cls in GAMES.values():  # a game's panel: a function in its folder that draws a view
        for ref in cls.capabilities.panels:
            folder = cls.__module__.rsplit(".", 1)[0]
            assert ref.path.startswith(folder + "."), (ref, folder)
            assert callable(ref.load())


@pytest.mark.parametrize("name", NAMES)
def test_the_bots_declared_load_and_play(name: str) -> None:
    rules = tricklab.get_rules(name, players=_players(name))
    assert [key for key, _ in rules.capabilities.bots] == ["heuristic", "search"] if name == "kalah" else ["heuristic"]
    ref = rules.capabilities.bot("heuristic")
    assert ref is not None and rules.capabilities.bot("nonsense") is None
    bot = ref.load()(rules, 0, "1")
    match = rules.new_match(seed=2)
    seat = match.to_play
    assert seat is not None
    assert bot.choose(match.view(seat), match.legal_actions()) in match.legal_actions()
    assert repr(bot) == f"{name} HeuristicBot(seat=0)"


def test_the_advice_declared() -> None:
    from tricklab.advisor import AdvisorEntry
    from tricklab.games.band_of_tricks.advice import BT_ADVICE
    from tricklab.games.jewel_vault.advice import JV_ADVICE
    from tricklab.games.tricks_and_stones.advice import TS_ADVICE

    offers = {n: GAMES[n].capabilities.advice for n in NAMES}
    for name, entry in (("tricks-and-stones", TS_ADVICE), ("band-of-tricks", BT_ADVICE), ("jewel-vault", JV_ADVICE)):
        ref = offers[name]
        assert ref is not None
        loaded = ref.load()
        assert isinstance(loaded, AdvisorEntry) and loaded is entry
        view = tricklab.get_rules(name, players=4).new_match(seed=1).view(0)
        assert isinstance(view, loaded.view_type)
    assert [cls.name for cls in games_with(lambda c: c.advice is not None)] == [
        "tricks-and-stones",
        "band-of-tricks",
        "jewel-vault",
        "oh-hell",
        "hearts",
    ]


def test_the_variants_declared_are_yes_no_options() -> None:
    for cls in GAMES.values():
        options = {f.name: f for f in dataclasses.fields(cls.options_type)}  # type: ignore[arg-type]
        for name in cls.capabilities.variants:
            assert name in options and options[name].default is False
    assert GAMES["jewel-vault"].capabilities.variants == ("partnerships", "known_deck")


def test_the_examples_declared_name_apps_the_game_can_open() -> None:
    notebooks = {p.name for p in (PACKAGE.parent / "voila_apps").glob("*.ipynb")}
    for cls in GAMES.values():
        offers = cls.capabilities
        for example in offers.examples:
            assert example.app in notebooks
            if example.app == "bid_trainer.ipynb":  # bids to try, or moves to try
                bids = offers.decision.kind is not DecisionKind.NONE and offers.advice is not None
                assert bids or (offers.decision.kind is DecisionKind.NONE and offers.moves is not None)
            if example.app == "quiz.ipynb":
                assert offers.quiz.steps


def test_a_ref_loads_lazily_and_by_path() -> None:
    ref: Ref[Any] = Ref("tricklab.games.capabilities:TRUMP")
    assert ref.load() is TRUMP
    assert Ref("json:dumps").load()(1) == "1"


def test_the_engine_imports_nothing_above_it() -> None:
    """Declaring by data keeps the layers: importing the games loads no bots, display or widgets."""
    import subprocess
    import sys

    code = (
        "import sys, tricklab.games\n"
        "bad = [m for m in sys.modules if m.startswith(('tricklab.display', 'tricklab.widgets', 'tricklab.advisor'))]\n"
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_hint_bot_declared_is_one_of_the_games_bots() -> None:
    from tricklab.bots import hint_bot
    from tricklab.games.kalah.bots import SearchBot

    for cls in GAMES.values():
        assert cls.capabilities.bot(cls.capabilities.hint_bot) is not None, cls.name
    kalah = tricklab.get_rules("kalah", players=2)
    assert kalah.capabilities.hint_bot == "search" and isinstance(hint_bot(kalah, 1), SearchBot)
    assert {n for n in NAMES if GAMES[n].capabilities.hint_bot == "heuristic"} == set(NAMES) - {"kalah"}


def test_rules_for_shares_one_rules_object_per_game_and_count_and_checks_the_count() -> None:
    from tricklab.errors import InvalidOption
    from tricklab.games import default_players, rules_for

    assert {n: default_players(GAMES[n]) for n in NAMES} == {
        "tricks-and-stones": 4,
        "band-of-tricks": 4,
        "jewel-vault": 4,
        "kalah": 2,
        "mandala": 2,
        "oh-hell": 4,
        "hearts": 4,
    }
    assert rules_for("mancala") is rules_for("kalah", 2) and rules_for("kalah").players == 2
    assert rules_for("jewel-vault", 3) is rules_for("Jewel Vault", 3) is not rules_for("jewel-vault", 4)
    for bad in (3, True, "2", 0):
        with pytest.raises(InvalidOption, match="Kalah is for 2 players"):
            rules_for("kalah", bad)
