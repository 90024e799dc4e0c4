"""tricklab installed from its wheel, as a teacher or a notebook author installs it.

The wheel and sdist are built from this tree; each is checked for what it must carry. The
wheel goes into fresh virtual environments that cannot see the source tree: the engine alone
(``pip install tricklab``: no third-party module), then with the ``apps`` extra, where
``tricklab serve`` opens the gallery from the apps inside the package and the widgets work.
``tricklab site build`` from the wheel is tried in ``test_site.py``, whose site is built that way.
"""

from __future__ import annotations

import json
import re
import tarfile
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

import tricklab
from tricklab import site

from .installs import Install, build_distributions, install
from .servers import ROOT, fetch, free_port, open_page, serving

TUTORIALS = sorted(path.name for path in (ROOT / "notebooks").glob("[0-9]*.ipynb"))
APPS = sorted(path.name for path in (ROOT / "voila_apps").glob("*.ipynb"))


@pytest.fixture(scope="module")
def distributions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return build_distributions(tmp_path_factory.mktemp("dist"))


@pytest.fixture(scope="module")
def engine_only(distributions: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Install:
    return install(distributions[0], tmp_path_factory.mktemp("engine"))


@pytest.fixture(scope="module")
def with_apps(distributions: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Install:
    return install(distributions[0], tmp_path_factory.mktemp("apps"), extras="apps")


# --- what the distributions carry ---------------------------------------------------------------


def test_the_wheel_carries_the_apps_the_tutorials_and_the_licence(distributions: tuple[Path, Path]) -> None:
    wheel, _ = distributions
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"tricklab/_data/voila_apps/{app}" for app in APPS} <= names
    assert "tricklab/_data/voila_apps/voila.json" in names
    assert {f"tricklab/_data/notebooks/{tutorial}" for tutorial in TUTORIALS} <= names
    screenshots = {path.name for path in (ROOT / "voila_apps" / "screenshots").glob("*.png")}
    assert screenshots and {f"tricklab/_data/voila_apps/screenshots/{name}" for name in screenshots} <= names
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    assert "tricklab/py.typed" in names
    # nothing but the tutorials from notebooks/ (it also holds the documentation's sources)
    data = {name for name in names if name.startswith("tricklab/_data/notebooks/")}
    assert {name.rsplit("/", 1)[1] for name in data} == set(TUTORIALS)
    assert not any("__pycache__" in name or ".ipynb_checkpoints" in name for name in names)


def test_the_sdist_carries_the_licence_the_changelog_and_the_tests(distributions: tuple[Path, Path]) -> None:
    _, sdist = distributions
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml", "tricklab/__init__.py"} <= names
    assert {f"voila_apps/{app}" for app in APPS} <= names and {f"notebooks/{t}" for t in TUTORIALS} <= names


def test_the_wheel_needs_no_third_party_package_and_its_extras_are_the_users(distributions: tuple[Path, Path]) -> None:
    wheel, _ = distributions
    with zipfile.ZipFile(wheel) as archive:
        (metadata,) = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        lines = archive.read(metadata).decode().splitlines()
    requires = [line.split(": ", 1)[1] for line in lines if line.startswith("Requires-Dist: ")]
    assert requires and all("extra ==" in requirement for requirement in requires), requires
    extras = {line.split(": ", 1)[1] for line in lines if line.startswith("Provides-Extra: ")}
    assert {"widgets", "apps", "site", "test", "bench"} <= extras
    assert any(line.startswith("Version: " + tricklab.__version__) for line in lines)


def test_the_site_extra_pins_the_tools_the_site_build_is_made_for() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert tuple(extras["site"]) == site.TOOLS


# --- the engine alone -----------------------------------------------------------------------------

#: run in the engine-only environment: where tricklab comes from and what else got imported
_WHAT_IS_IMPORTED = """
import json, sys, time
start = time.perf_counter()
import tricklab
seconds = time.perf_counter() - start
out = tricklab.get_rules("tricks-and-stones", players=4).resolve_trick(["7H", "AH", "8S", "KD"], trump="S")
outside = sorted({m.split(".")[0] for m in sys.modules} - set(sys.stdlib_module_names) - {"tricklab", "__main__"})
print(json.dumps({"file": tricklab.__file__, "outside": outside, "winner": out.winner, "seconds": seconds}))
"""


def test_the_engine_alone_imports_nothing_from_outside_the_standard_library(engine_only: Install) -> None:
    done = engine_only.run(engine_only.python, "-c", _WHAT_IS_IMPORTED, check=True)
    found = json.loads(done.stdout)
    assert Path(found["file"]).is_relative_to(engine_only.prefix), found["file"]  # the wheel, not the tree
    # pip's setuptools shim may be on the path of a venv; nothing else outside the standard library
    assert [name for name in found["outside"] if name != "_distutils_hack"] == []
    assert found["winner"] == 2


def test_the_widgets_without_their_extra_say_which_to_install(engine_only: Install) -> None:
    done = engine_only.run(engine_only.python, "-c", "import tricklab.widgets")
    assert done.returncode == 1
    assert "MissingExtra" in done.stderr and "pip install 'tricklab[widgets]'" in done.stderr


def test_version_help_and_serve_without_voila(engine_only: Install) -> None:
    version = engine_only.run(engine_only.tricklab, "--version", check=True)
    assert version.stdout.strip() == f"tricklab {tricklab.__version__}"
    helped = engine_only.run(engine_only.tricklab, "--help", check=True)
    assert "tricklab notebooks DIR" in helped.stdout and "``" not in helped.stdout
    refused = engine_only.run(engine_only.tricklab, "serve", "--port", str(free_port()))
    assert refused.returncode == 2
    assert "tricklab serve needs the apps extra: pip install 'tricklab[apps]'" in refused.stderr


def test_notebooks_copies_the_tutorials_and_keeps_a_learners_own(engine_only: Install) -> None:
    target = engine_only.cwd / "my tutorials"
    first = engine_only.run(engine_only.tricklab, "notebooks", target, check=True)
    assert sorted(path.name for path in target.iterdir()) == TUTORIALS
    for name in TUTORIALS:
        assert (target / name).read_bytes() == (ROOT / "notebooks" / name).read_bytes()
    assert f"jupyter lab {target}" in first.stdout
    # a learner's changed notebook stays as it is, unless asked
    mine = target / TUTORIALS[0]
    mine.write_text("my own notes")
    again = engine_only.run(engine_only.tricklab, "notebooks", target, check=True)
    assert mine.read_text() == "my own notes" and "kept" in again.stdout
    engine_only.run(engine_only.tricklab, "notebooks", target, "--overwrite", check=True)
    assert mine.read_bytes() == (ROOT / "notebooks" / TUTORIALS[0]).read_bytes()
    not_a_folder = engine_only.run(engine_only.tricklab, "notebooks", mine)
    assert not_a_folder.returncode == 2 and "is a file" in not_a_folder.stderr


# --- with the apps extra ----------------------------------------------------------------------------

#: the public widgets made and used in the apps environment; prints what Python then holds
_WIDGETS = """
import json
from tricklab import get_rules
from tricklab.widgets import BidTrainer, MoveTrainer, PlayTable, Quiz, TrickExplainer, TrickStepper

explainer = TrickExplainer("tricks-and-stones", 4, trump="S", cards="7H AH 8S KD")
stepper = TrickStepper(get_rules("tricks-and-stones", players=4).play(seed=7))
stepper.go(5)
quiz = Quiz("tricks-and-stones", seed=3)
quiz.answer(quiz.question.answer)
table = PlayTable("kalah", seed=2)
moved = table.act(table.hint())
trainer = BidTrainer("tricks-and-stones", players=4, seed=1, samples=40)
mover = MoveTrainer("kalah", seed=1)
mover.new_position()
print(json.dumps({
    "winner": explainer.outcome.winner,
    "step": stepper.step,
    "score": list(quiz.score),
    "moved": moved,
    "mover_seed": mover.seed,
    "trainer_seed": trainer.seed,
}))
"""


def test_the_widgets_work_from_the_wheel(with_apps: Install) -> None:
    done = with_apps.run(with_apps.python, "-c", _WIDGETS)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["winner"] == 2 and found["step"] == 5 and found["score"] == [1, 1] and found["moved"] is True
    assert found["mover_seed"] == 2 and found["trainer_seed"] == 1


@pytest.fixture(scope="module")
def wheel_served(with_apps: Install) -> Iterator[str]:
    port = free_port()
    command = [str(with_apps.tricklab), "serve", "--port", str(port)]
    url = f"http://127.0.0.1:{port}"
    with serving(command, url + "/", cwd=with_apps.cwd, timeout=120, env=with_apps.environment()) as served:
        served_from = re.search(r"tricklab: serving (\S+) at", served.output())
        assert served_from and Path(served_from.group(1)).is_relative_to(with_apps.prefix), served.output()[-2000:]
        yield url


def test_serve_from_the_wheel_renders_the_gallery_and_an_app(wheel_served: str) -> None:
    gallery = fetch(f"{wheel_served}/voila/render/index.ipynb")
    assert gallery.status == 200 and "Start here" in gallery.body
    assert fetch(f"{wheel_served}/voila/files/screenshots/play.png").status == 200


@pytest.mark.browser
def test_an_app_from_the_wheel_plays_in_chromium(wheel_served: str, browser: Any) -> None:
    page, log = open_page(browser, f"{wheel_served}/voila/render/explain_trick.ipynb?cards=7H+AH+8S+KD")
    board = page.locator(".tricklab-board")
    expect(board.locator(".tl-trick .tl-winner")).to_have_count(1, timeout=120_000)
    assert log.javascript_errors() == []
    # Voilà's own page template asks a CDN for its icon font, blocked here as in every browser test
    assert all("@fortawesome/fontawesome-free" in url for url in log.blocked), log.blocked
