"""The layers point one way: the engine names no game and no analysis; no module outside a game's
folder names that game; a game's folder names no other game. (A game's folder builds on the
engine and on the bots' and the analysis' base: its bots, advice, review, moves and puzzles are
the entries those fill.)

"Names" is an import (at the top of a module or inside a function) or a ``Ref("module:NAME")``
string, the way a game's capabilities point at its bots, advice and review. The modules are read
as source (``ast``), not imported.

No module outside a game's folder names a game (the registry, ``tricklab.games``, lists them), and
the engine names nothing above it, not even for type checking: a game's capabilities point at the
analysis' entries by ``Ref`` strings, and the analysis checks what it loads (``Ref.load_as``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import tricklab

ROOT = Path(tricklab.__file__).parent
#: each game's folder (its package under tricklab/games)
GAMES = ("tricks_and_stones", "band_of_tricks", "jewel_vault", "kalah", "mandala", "oh_hell", "hearts")
#: the registry: the one module outside the games' folders that names every game
REGISTRY = "tricklab.games"
#: the engine: cards, actions, the rules' base, the match and records, explanations, errors, and
#: the players' base (``tricklab.bots``: the bot protocol, a random player, and the choice of the
#: bot a game declares; each game's own bots are in its folder)
ENGINE = (
    "tricklab.actions",
    "tricklab.bots",
    "tricklab.cards",
    "tricklab.errors",
    "tricklab.explain",
    "tricklab.match",
    "tricklab.games.base",
    "tricklab.games.capabilities",
    "tricklab.games.core",
)
#: what the engine must not name (besides a game and the registry): the analysis (its objects'
#: ``_repr_html_`` draws them with :mod:`tricklab.display`, imported when asked)
ABOVE_THE_ENGINE = (
    "tricklab.advisor",
    "tricklab.review",
    "tricklab.moves",
    "tricklab.puzzles",
    "tricklab.quiz",
    "tricklab.hints",
    "tricklab.judge",
    "tricklab.playouts",
)

#: engine modules that still name what is above the engine: (module, what it names); none now
#: (a game's capabilities point at the analysis' entries by ``Ref``, read there with ``load_as``)
ENGINE_STILL_REACHING_UP: set[tuple[str, str]] = set()
_REF = re.compile(r"^(tricklab(?:\.\w+)+):\w+$")


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _named(source: str, module: str, package: bool = False) -> set[str]:
    """Every module the source of ``module`` names: what it imports (relative imports resolved),
    and the module of every ``"tricklab.x:NAME"`` string in it."""
    base_package = module if package else module.rpartition(".")[0]
    named: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = base_package.split(".")[: len(base_package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            named.add(base)
            named.update(f"{base}.{alias.name}" for alias in node.names)  # a module imported from a package
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and (ref := _REF.match(node.value)):
            named.add(ref.group(1))
    return {name for name in named if name == "tricklab" or name.startswith("tricklab.")}


def _game_of(module: str) -> str | None:
    """The game whose folder ``module`` is in, or that it is the bots of (``tricklab.bots.<game>``)."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] in ("games", "bots") and parts[2] in GAMES:
        return parts[2]
    return None


def _in_folder(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) >= 3 and parts[1] == "games" and parts[2] in GAMES else None


def _under(name: str, prefixes: tuple[str, ...]) -> str | None:
    return next((p for p in prefixes if name == p or name.startswith(p + ".")), None)


MODULES = {
    _module(path): _named(path.read_text(encoding="utf-8"), _module(path), path.name == "__init__.py")
    for path in sorted(ROOT.rglob("*.py"))
}


def _outside_naming_a_game() -> set[tuple[str, str]]:
    found = set()
    for module, named in MODULES.items():
        if module == REGISTRY:
            continue
        for name in named:
            game = _game_of(name)
            if game is not None and _in_folder(module) != game:
                found.add((module, game))
    return found


def _engine_reaching_up() -> set[tuple[str, str]]:
    found = set()
    for module in ENGINE:
        for name in MODULES[module]:
            if _under(name, ENGINE) is not None:
                continue
            if name == REGISTRY or _in_folder(name) is not None:
                found.add((module, REGISTRY if name == REGISTRY else name))
            elif (above := _under(name, ABOVE_THE_ENGINE)) is not None:
                found.add((module, above))
    return found


def _games_naming_another() -> set[tuple[str, str]]:
    found = set()
    for module, named in MODULES.items():
        game = _in_folder(module)
        for name in named:
            other = _game_of(name)
            if game is not None and other is not None and other != game:
                found.add((module, other))
    return found


def _same(found: set[tuple[str, str]], known: set[tuple[str, str]], what: str) -> None:
    new, gone = sorted(found - known), sorted(known - found)
    assert not new, f"{what}, newly: {new}"
    assert not gone, f"no longer {what} (strike them from the list): {gone}"


def test_no_module_outside_a_games_folder_names_that_game() -> None:
    assert _outside_naming_a_game() == set()


def test_the_engine_names_no_game_no_bot_and_no_analysis() -> None:
    _same(_engine_reaching_up(), ENGINE_STILL_REACHING_UP, "the engine names what is above it")


def test_a_games_folder_names_no_other_game() -> None:
    assert _games_naming_another() == set()


def test_the_scan_sees_imports_refs_and_relative_imports() -> None:
    """The reading itself: a function's own import, relative imports from a module and from a
    package's ``__init__``, and a Ref string are seen."""
    source = """
from ..core import Facts
from . import rules

def later():
    from ...bots import Decision
    import tricklab.quiz

WHERE = "tricklab.review:TS_REVIEW"
"""
    assert _named(source, "tricklab.games.kalah.bots") >= {
        "tricklab.games.core",
        "tricklab.games.kalah.rules",
        "tricklab.bots",
        "tricklab.quiz",
        "tricklab.review",
    }
    assert "tricklab.games.kalah.rules" in _named("from .rules import Kalah", "tricklab.games.kalah", package=True)


#: the games added as one folder each: no file of the package or of the apps outside their folder
#: mentions them by any name, in code, text or assets, but the registry
#: (a name that is also a word, Hearts the suit, is looked for in its exact case only)
ONE_FOLDER_GAMES = {
    "oh_hell": (("oh_hell", "oh-hell", "OhHell", "Oh Hell"), re.IGNORECASE),
    "hearts": (("games.hearts", "games/hearts", "import Hearts", '"hearts"', "HeartsView", "HeartsState"), 0),
}
APPS = ROOT.parent / "voila_apps"


def _files_mentioning(names: tuple[str, ...], flags: int = re.IGNORECASE) -> set[str]:
    pattern = re.compile("|".join(re.escape(n) for n in names), flags)
    found = set()
    for base in (ROOT, APPS):
        for path in base.rglob("*"):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:  # a picture or a font: no names in it
                continue
            if pattern.search(text):
                found.add(path.relative_to(ROOT.parent).as_posix())
    return found


def test_a_game_in_one_folder_touched_no_other_file_but_the_registry() -> None:
    registry = (ROOT / "games" / "__init__.py").relative_to(ROOT.parent).as_posix()
    for folder, (names, flags) in ONE_FOLDER_GAMES.items():
        inside = (ROOT / "games" / folder).relative_to(ROOT.parent).as_posix() + "/"
        outside = {f for f in _files_mentioning(names, flags) if not f.startswith(inside)}
        assert outside == {registry}, f"{folder} is named outside its folder: {sorted(outside - {registry})}"


def test_the_mention_scan_finds_a_name_in_any_case() -> None:
    assert "tricklab/games/__init__.py" in _files_mentioning(("OH_HELL",))
    assert "tricklab/games/__init__.py" not in _files_mentioning(("OH_HELL",), 0)
    assert _files_mentioning(("no game is called this",)) == set()


def test_what_a_game_offers_the_analysis_is_checked_as_it_is_loaded() -> None:
    """The engine declares a game's advisor, review and moves entries as ``Ref[object]`` (it names
    none of their types); the analysis loads each with ``load_as`` its own type, and a ref that
    points at something else is a ``TypeError`` naming the path."""
    from tricklab.games.capabilities import Ref
    from tricklab.review import ReviewEntry

    review = tricklab.find_game("hearts").capabilities.review
    assert review is not None and isinstance(review.load_as(ReviewEntry), ReviewEntry)
    with pytest.raises(TypeError, match=r"tricklab.games.hearts.rules:TITLE is str, not the ReviewEntry"):
        Ref("tricklab.games.hearts.rules:TITLE").load_as(ReviewEntry)
