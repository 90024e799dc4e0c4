"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import tricklab
from tricklab.store import Store

from .postgres import postgres_server

# the class app's store, for every test that opens one without saying where (never the user's own)
os.environ.setdefault("TRICKLAB_CLASS_DB", str(Path(tempfile.mkdtemp(prefix="tricklab-class-")) / "class.sqlite3"))
from .servers import CHROMIUM, NO_CHROMIUM, free_port, launch, serving, voila_command

# --- one hypothesis profile for every property test ------------------------------------------------
#
# "default": quick and derandomised (the same examples every run, no example database), for CI
# and for every run that names no profile. "long": HYPOTHESIS_PROFILE=long, ten times the
# examples, drawn at random, for a search before a release. Deadlines are off everywhere: an
# example is a whole match, and its time depends on the machine, not on the code's health.
settings.register_profile(
    "default",
    max_examples=200,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("long", parent=settings.get_profile("default"), max_examples=2000, derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def examples(factor: float) -> settings:
    """The loaded profile with ``factor`` times its examples: for a test whose example is
    deliberately cheaper (more of them) or costlier (fewer) than a whole match. Say why where used."""
    loaded = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
    return settings(max_examples=max(1, round(loaded.max_examples * factor)))


def play_to(match: tricklab.Match, phase: str, *, limit: int = 10_000) -> tricklab.Match:
    """Apply the first legal action until the match reaches ``phase``."""
    for _ in range(limit):
        if match.phase == phase:
            return match
        match.apply(match.legal_actions()[0])
    raise AssertionError(f"phase {phase} never reached")


@pytest.fixture
def ts4() -> Any:
    return tricklab.get_rules("tricks-and-stones", players=4)


@pytest.fixture
def ts3() -> Any:
    return tricklab.get_rules("tricks-and-stones", players=3)


@pytest.fixture(scope="session")
def voila_class_db() -> Iterator[str]:
    """Where the served apps' class store is: a SQLite file (a test may read what the apps wrote)."""
    with tempfile.TemporaryDirectory() as folder:
        yield str(Path(folder) / "class.sqlite3")


@pytest.fixture(scope="session")
def voila_url(voila_class_db: str) -> Iterator[str]:
    """The README's main command, ``tricklab serve``, on a free loopback port."""
    port = free_port()
    with serving(
        voila_command(port),
        f"http://127.0.0.1:{port}/",
        env={**os.environ, "TRICKLAB_CLASS_DB": voila_class_db},  # the class and table apps' store
    ) as served:
        yield served.url.rstrip("/")


@pytest.fixture(scope="module")
def postgres_serve(postgres_url: str) -> Iterator[Any]:
    """``tricklab serve --class-db postgresql://...``, one server for the module: ``(start,
    restart)``, each giving the server's URL (start: the server, started if it is not running;
    restart: the server stopped and started again on the same port, the store kept)."""
    import contextlib

    stack = contextlib.ExitStack()
    port = free_port()
    running: list[str] = []

    def start() -> str:
        if not running:
            served = stack.enter_context(
                serving(
                    [*voila_command(port), "--class-db", postgres_url],
                    f"http://127.0.0.1:{port}/",
                    env=dict(os.environ),
                )
            )
            running.append(served.url.rstrip("/"))
        return running[0]

    def restart() -> str:
        stack.close()
        running.clear()
        return start()

    yield start, restart
    stack.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


# --- kinds of test, and how the suite runs in parallel -------------------------------------------
#
# Every test is marked with its kind, so a part of the suite can be run alone (``-m engine``,
# ``-m "not browser"``): ``browser`` drives Chromium, ``site`` builds and opens the static site or
# the documentation site, ``server`` starts a real ``tricklab serve`` or JupyterHub, ``notebook``
# runs a notebook under nbval, ``install`` builds the wheel and installs it into fresh
# environments, and ``engine`` is everything else (the rules, analysis, display and widget tests,
# in process). pyproject.toml runs the suite with pytest-xdist, one worker per core, each test file
# on one worker (``--dist loadfile``), so a file's module-scoped server or built site is made once.

KINDS = ("engine", "server", "browser", "site", "notebook", "install")


def _kind(item: pytest.Item) -> str:
    name = item.path.name
    if item.path.suffix == ".ipynb" or item.get_closest_marker("notebook") is not None:
        return "notebook"
    if name in ("test_site.py", "test_docs.py"):
        return "site"
    if name == "test_install.py":
        return "install"
    if item.get_closest_marker("browser") is not None or "browser" in getattr(item, "fixturenames", ()):
        return "browser"
    if name in ("test_serve.py", "test_jupyterhub.py") or "voila_url" in getattr(item, "fixturenames", ()):
        return "server"
    return "engine"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        item.add_marker(getattr(pytest.mark, _kind(item)))


# --- words for people ---------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _plain_words(request: pytest.FixtureRequest) -> Iterator[None]:
    """After every browser and site test: no app page asked for anything outside this machine, and
    none showed a word of notebooks ("kernel", "Executing", "cell") or an action written as a code
    ("pass 9H 3C"), in any state it reached, its loading screen included (every page the tests
    open reports its visible text each time it changes: tests/servers.py)."""
    yield
    if _kind(request.node) not in ("browser", "site", "install"):
        return
    from .servers import OPENED

    found, outside = [], []
    for log in OPENED:
        if "/render/" in log.url or log.url.rstrip("/").endswith(("/site", "index.html")):
            found += [f"{log.url}: {said}" for said in log.unplain_words(since=log.checked)]
            outside += [f"{log.url}: {asked}" for asked in log.blocked[log.blocked_checked :]]
        log.checked, log.blocked_checked = len(log.shown), len(log.blocked)
    assert not found, "a page showed words a learner should not read:\n" + "\n".join(found[:10])
    # a school network that drops requests to the internet would leave such a page blank until they time out
    assert not outside, "an app page (or a page opened from it) asked the internet:\n" + "\n".join(outside[:10])


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed browser test's report says what a person would have seen: the last text each page
    it opened showed, and the last lines the servers printed (a timeout alone says nothing)."""
    report: Any = yield
    if report.when == "call" and report.failed and _kind(item) in ("browser", "site", "install"):
        from .servers import OPENED, SERVED

        for log in OPENED[item.stash.get(_OPENED_BEFORE, 0) :]:
            last = log.shown[-1] if log.shown else "(nothing shown)"
            report.sections.append((f"what {log.url[:120]} showed last", last[-3000:]))
            network = [*log.unanswered[-20:], *(f"no answer yet: {text}" for text in list(log.waiting.values())[-20:])]
            if network:
                report.sections.append((f"the requests of {log.url[:120]} not answered well", "\n".join(network)))
        for served in SERVED:
            report.sections.append((f"{served.url} printed last", "".join(list(served.lines)[-40:])))
    return report


_OPENED_BEFORE = pytest.StashKey[int]()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    from .servers import OPENED

    item.stash[_OPENED_BEFORE] = len(OPENED)


# --- the class store, on SQLite and on a real PostgreSQL server (tests/postgres.py) ----------------


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def class_store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where an empty class store is: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "class.sqlite3")
    import psycopg

    url: str = request.getfixturevalue("postgres_url")
    # each test on a clean database: the tables dropped, then made again by the migrations
    with psycopg.connect(url, autocommit=True) as connection:
        for table in (
            "table_action",
            "table_seat",
            "play_table",
            "join_attempt",
            "answer",
            "question",
            "student",
            "class_session",
            "schema_version",
        ):
            connection.execute(f"DROP TABLE IF EXISTS {table} CASCADE")
    return url


@pytest.fixture
def stores(class_store_url: str) -> Iterator[list[Store]]:
    """Three connections to one class store (SQLite, then PostgreSQL): one per kernel."""
    opened = [Store.open(class_store_url) for _ in range(3)]
    yield opened
    for store in opened:
        store.close()


@pytest.fixture
def class_store(class_store_url: str) -> Iterator[Store]:
    """A class store on SQLite, then on PostgreSQL, empty for each test."""
    opened = Store.open(class_store_url)
    yield opened
    opened.close()
