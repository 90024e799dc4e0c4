"""The trick explainer in marimo (a host that shows anywidgets only): it draws, its controls and
cards reach Python, a cell reading its state reruns, and the page loads nothing from outside.

marimo runs ``tests/hosts/marimo_explainer.py`` as an app (``marimo run``) on a loopback port,
with its update check off and a home of its own; the notebook writes the explainer's state to
a file at every change, so the test reads what Python holds.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .servers import ARTIFACTS, ROOT, free_port, open_page, open_phone_page, running

pytestmark = pytest.mark.browser

pytest.importorskip("marimo", reason="marimo is in the test extra: pip install -e '.[test]'")

NOTEBOOK = ROOT / "tests" / "hosts" / "marimo_explainer.py"
QUIZ_NOTEBOOK = ROOT / "tests" / "hosts" / "marimo_quiz.py"
STEPPER_NOTEBOOK = ROOT / "tests" / "hosts" / "marimo_stepper.py"
TRAINER_NOTEBOOK = ROOT / "tests" / "hosts" / "marimo_bidtrainer.py"
TABLE_NOTEBOOK = ROOT / "tests" / "hosts" / "marimo_playtable.py"
BOARD = ".tricklab-board"


@pytest.fixture(scope="module")
def marimo_app() -> Iterator[tuple[str, Path]]:
    """``marimo run`` of the notebook: its address, and the file the notebook writes its state to."""
    yield from _marimo_run(NOTEBOOK)


@pytest.fixture(scope="module")
def marimo_quiz() -> Iterator[tuple[str, Path]]:
    """``marimo run`` of the quiz's notebook: its address, and the file it writes its state to."""
    yield from _marimo_run(QUIZ_NOTEBOOK)


@pytest.fixture(scope="module")
def marimo_stepper() -> Iterator[tuple[str, Path]]:
    """``marimo run`` of the stepper's notebook: its address, and the file it writes its state to."""
    yield from _marimo_run(STEPPER_NOTEBOOK)


@pytest.fixture(scope="module")
def marimo_trainer() -> Iterator[tuple[str, Path]]:
    """``marimo run`` of the bid trainer's notebook: its address, and the file it writes its state to."""
    yield from _marimo_run(TRAINER_NOTEBOOK)


@pytest.fixture(scope="module")
def marimo_table() -> Iterator[tuple[str, Path]]:
    """``marimo run`` of the play table's notebook: its address, and the file it writes its state to."""
    yield from _marimo_run(TABLE_NOTEBOOK)


def _marimo_run(notebook: Path) -> Iterator[tuple[str, Path]]:
    port = free_port()
    with tempfile.TemporaryDirectory() as home, pytest.MonkeyPatch.context() as env:
        state = Path(home) / "state.json"
        env.setenv("HOME", home)  # no user's marimo config
        env.setenv("MARIMO_SKIP_UPDATE_CHECK", "1")  # offline: marimo asks no package index
        env.setenv("TRICKLAB_OUT", str(state))
        env.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        command = [sys.executable, "-m", "marimo", "-y", "run", str(notebook), "--headless", "--no-token"]
        command += ["--no-sandbox", "--host", "127.0.0.1", "--port", str(port)]
        with running(command, f"http://127.0.0.1:{port}/", timeout=90) as url:
            yield url, state


def settled(page: Any) -> Any:
    """The board, once marimo has connected to its session: marimo may draw a widget's output
    first and again when the session answers (the widget's module loaded anew); this waits for
    the network to be quiet, then for the board."""
    page.locator(BOARD).locator(".tl-card").first.wait_for(timeout=90_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    board = page.locator(BOARD)
    board.locator(".tl-card").first.wait_for(timeout=30_000)
    return board


def python_side(page: Any, state: Path, check: Any, *, timeout: float = 30) -> dict[str, Any]:
    """The explainer's state as the notebook last wrote it, once ``check(state)`` holds (waiting
    with the page's clock: every request of the page goes through the test's router, which a
    sleep of the test would stall)."""
    deadline = time.monotonic() + timeout
    seen: dict[str, Any] = {}
    while time.monotonic() < deadline:
        try:
            seen = json.loads(state.read_text())
        except (OSError, ValueError):
            seen = {}
        if seen and check(seen):
            return seen
        page.wait_for_timeout(100)
    raise AssertionError(f"Python's explainer never got there; it holds {seen}")


def test_the_explainer_works_in_marimo_and_python_sees_each_change(marimo_app: tuple[str, Path], browser: Any) -> None:
    url, state = marimo_app
    page, log = open_page(browser, url, viewport=(1280, 900))
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    try:
        board = settled(page)
        assert page.get_by_text("Jupyter widgets are not supported").count() == 0
        assert python_side(page, state, lambda s: s["cards"] == ["7H", "8S"])["winner"] == "8S"
        said = page.get_by_text("Python holds the trick")
        expect(said).to_contain_text("7H 8S")
        # the trump picker: Python's trump changes, the ranking with it, and the cell reading it reruns
        page.get_by_label("Trump").select_option(label="♥ Hearts")
        assert python_side(page, state, lambda s: s["trump"] == "H")["winner"] == "7H"
        expect(said).to_contain_text("trump H")
        # a deck card: added to Python's trick
        board.locator(".tl-deck button[data-value='AH']").click()
        assert python_side(page, state, lambda s: s["cards"] == ["7H", "8S", "AH"])["winner"] == "AH"
        expect(said).to_contain_text("7H 8S AH")
        # typed with keys: a refused trick is the engine's message, shown, and Python keeps its trick
        box = page.get_by_role("textbox", name="Trick")
        box.fill("QS QS")
        box.press("Enter")
        assert "twice" in python_side(page, state, lambda s: bool(s["message"]))["message"]
        expect(page.get_by_role("alert")).to_contain_text("twice")
        box.fill("qs 7d")
        box.press("Enter")
        assert python_side(page, state, lambda s: s["cards"] == ["QS", "7D"])["message"] == ""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "marimo-explainer.png"))
        # projector size, from the widget's own toggle
        page.set_viewport_size({"width": 1366, "height": 768})
        page.get_by_role("button", name="Large").click()
        expect(board).to_have_class(re.compile(r"\btl-large\b"))
        page.screenshot(path=str(ARTIFACTS / "marimo-explainer-large.png"))
    finally:
        page.close()
    # marimo's front end and the widget's module came from this machine: nothing was blocked
    assert log.blocked == [], log.blocked[:5]
    assert requests and all(r.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")) for r in requests)
    assert any(re.search(r"\.js(\?|$)", r) for r in requests), "marimo's scripts were loaded from the server"
    assert log.javascript_errors() == []


def test_the_explainer_in_marimo_on_a_phone(marimo_app: tuple[str, Path], browser: Any) -> None:
    url, state = marimo_app
    page, log = open_phone_page(browser, url)
    try:
        board = settled(page)
        board.locator(".tl-deck button[data-value='KD']").tap()
        python_side(page, state, lambda s: s["cards"][-1:] == ["KD"])
        overflow = page.evaluate(
            "() => [...document.querySelectorAll('.tricklab-controls :is(select, input, button)')]"
            ".filter(e => e.offsetParent && e.getBoundingClientRect().right > innerWidth).length"
        )
        assert overflow == 0
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "marimo-explainer-phone.png"))
    finally:
        page.context.close()
    assert log.blocked == [] and log.javascript_errors() == []


def test_the_quiz_works_in_marimo_and_python_sees_the_answer(marimo_quiz: tuple[str, Path], browser: Any) -> None:
    url, state = marimo_quiz
    page, log = open_page(browser, url, viewport=(1280, 900))
    try:
        board = settled(page)
        assert page.get_by_text("Jupyter widgets are not supported").count() == 0
        start = python_side(page, state, lambda s: s["question"] == 1)
        assert start["score"] == [0, 0] and start["correct"] is None
        said = page.get_by_text("Python holds the score")
        expect(said).to_contain_text("0 of 0")
        expect(page.get_by_role("button", name="Next ▶")).to_be_disabled()
        # one click on the right card: Python marks it, its score and verdict change, the cell reruns
        answer = start["answer"]
        board.locator(f".tl-trick button[data-intent='answer'][data-value='{answer}']").click()
        seen = python_side(page, state, lambda s: s["score"] == [1, 1])
        assert seen["correct"] is True and seen["picked"] == [answer] and seen["message"] == ""
        expect(board.locator(".tl-quiz-feedback .tl-feedback")).to_contain_text("✓")
        expect(said).to_contain_text("1 of 1")
        # the drawn Next button: Python's question moves on
        page.get_by_role("button", name="Next ▶").click()
        moved = python_side(page, state, lambda s: s["question"] == 2)
        assert moved["correct"] is None and moved["picked"] == [] and moved["score"] == [1, 1]
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "marimo-quiz.png"))
    finally:
        page.close()
    assert log.blocked == [], log.blocked[:5]
    assert log.javascript_errors() == []


@pytest.fixture(scope="module")
def marimo_two_boards() -> Iterator[tuple[str, Path]]:
    """``marimo run`` of a notebook whose one shown board is not the one carrying the module."""
    yield from _marimo_run(ROOT / "tests" / "hosts" / "marimo_two_boards.py")


def test_a_board_without_the_module_asks_its_kernel_and_is_styled(
    marimo_two_boards: tuple[str, Path], browser: Any
) -> None:
    url, state = marimo_two_boards
    page, log = open_page(browser, url)
    board = settled(page)
    assert json.loads(state.read_text()) == {"unseen_carries": True, "shown_carries": False}
    expect(board.locator(".tl-card")).not_to_have_count(0)
    # the stylesheet came with the module: the controls' row is laid out by it, once per root
    row = page.locator(".tricklab-controls .tl-control-row").first
    expect(row).to_have_css("display", "flex")
    sheets = page.evaluate(
        """() => {
          const roots = [document, ...[...document.querySelectorAll('*')].map(e => e.shadowRoot).filter(Boolean)];
          return roots.map(r => r.querySelectorAll('style[data-tricklab-css]').length).filter(n => n > 0);
        }"""
    )
    assert sheets and all(n == 1 for n in sheets), sheets
    # and it answers: a card clicked reaches Python
    board.get_by_role("button", name="Ace of Spades").click()
    expect(board.locator(".tl-trick .tl-card")).to_have_count(3)
    assert log.javascript_errors() == []


def test_the_stepper_works_in_marimo_and_python_follows_its_steps(
    marimo_stepper: tuple[str, Path], browser: Any
) -> None:
    url, state = marimo_stepper
    page, log = open_page(browser, url, viewport=(1280, 900))
    try:
        board = settled(page)
        assert page.get_by_text("Jupyter widgets are not supported").count() == 0
        start = python_side(page, state, lambda s: s["step"] == 0)
        assert start["view"] == 1 and start["playing"] is False
        said = page.get_by_text("Python shows step")
        expect(said).to_contain_text("step 0")
        expect(board.locator(".tricklab-list [aria-current='step']")).to_have_attribute("data-value", "0")
        # the drawn ▶ button: Python steps on, the cell reading the step reruns
        page.get_by_role("button", name="▶", exact=True).click()
        python_side(page, state, lambda s: s["step"] == 1)
        expect(said).to_contain_text("step 1")
        # a move of the list, then a key on the board: Python goes there
        board.locator(".tricklab-list .tl-ml-entry[data-value='5']").click()
        moved = python_side(page, state, lambda s: s["step"] == 5)
        board.locator(".tricklab-list [aria-current='step']").press("Shift+ArrowRight")
        python_side(page, state, lambda s: s["step"] == moved["next_part"])
        expect(board).to_have_attribute("data-step", str(moved["next_part"]))
        # a step typed in the step box; a word there is refused and changes nothing
        box = page.get_by_role("textbox", name="Step")
        box.fill("12")
        box.press("Enter")
        python_side(page, state, lambda s: s["step"] == 12)
        box.fill("twelve")
        box.press("Enter")
        refused = python_side(page, state, lambda s: "not a step number" in s["message"])
        assert refused["step"] == 12 and refused["view"] == 1
        expect(page.get_by_role("alert").filter(has_text="not a step number")).to_be_visible()
        # the seat's view stays the seat's: no view picker, only its label
        assert page.get_by_role("combobox", name="View").count() == 0
        expect(page.get_by_text("Player 2's view")).to_be_visible()
        page.get_by_role("button", name="Large", exact=True).click()
        python_side(page, state, lambda s: s["large"] is True)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "marimo-stepper.png"))
    finally:
        page.close()
    assert log.blocked == [], log.blocked[:5]
    assert log.javascript_errors() == []


def test_the_bid_trainer_works_in_marimo_and_python_sees_the_bid(
    marimo_trainer: tuple[str, Path], browser: Any
) -> None:
    url, state = marimo_trainer
    page, log = open_page(browser, url, viewport=(1280, 900))
    try:
        board = settled(page)
        assert page.get_by_text("Jupyter widgets are not supported").count() == 0
        start = python_side(page, state, lambda s: s["seed"] == 3)
        assert start["choice"] == "predict 2" and start["verdict"] == ""
        said = page.get_by_text("Python holds the bid")
        expect(said).to_contain_text("predict 2")
        # a click on the board's prediction: Python's bid changes, the cell reruns
        board.locator("button[data-intent='predict'][data-value='3']").click()
        python_side(page, state, lambda s: s["choice"] == "predict 3")
        expect(said).to_contain_text("predict 3")
        # the drawn Try it: the advisor's sentence is Python's verdict
        page.get_by_role("button", name="Try it").click()
        tried = python_side(page, state, lambda s: s["verdict"] != "", timeout=90)
        assert tried["verdict"].startswith("You make exactly 3")
        expect(board.locator(".tl-advice-sentence")).to_contain_text("You make exactly 3", timeout=30_000)
        # Play it out: the play-out in the board's place, then Back to the trainer
        page.get_by_role("button", name="Play it out").click()
        python_side(page, state, lambda s: s["hosting"] is True)
        expect(page.get_by_text("This deal played out with your prediction (3)").first).to_be_visible()
        page.get_by_role("button", name="Back to the trainer").click()
        python_side(page, state, lambda s: s["hosting"] is False)
        expect(board.locator(".tl-advice-sentence")).to_be_visible()
        # New deal: Python's seed moves on
        page.get_by_role("button", name="New deal").click()
        moved = python_side(page, state, lambda s: s["seed"] == 4 and s["message"] != "")
        assert moved["verdict"] == "" and moved["message"] == "A new deal: seed 4."
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "marimo-bidtrainer.png"))
    finally:
        page.close()
    assert log.blocked == [], log.blocked[:5]
    assert log.javascript_errors() == []


def test_the_play_table_works_in_marimo_and_python_sees_the_card_played(
    marimo_table: tuple[str, Path], browser: Any
) -> None:
    url, state = marimo_table
    page, log = open_page(browser, url, viewport=(1280, 900))
    try:
        board = settled(page)
        assert page.get_by_text("Jupyter widgets are not supported").count() == 0
        start = python_side(page, state, lambda s: s["last_move"] == "predict 2")
        assert start["seat"] == 0 and start["turn"] == 0 and start["round"] == 1 and start["message"] == ""
        said = page.get_by_text("Python holds your last move")
        expect(said).to_contain_text("predict 2")
        # a card that may not be played: Python refuses it with the engine's words and changes nothing
        barred = board.locator("button.tl-card.tl-not-legal[data-intent='play']").first
        barred.click(force=True)  # aria-disabled, yet the click reaches Python
        refused = python_side(page, state, lambda s: s["message"] != "")
        assert refused["actions"] == start["actions"] and refused["last_move"] == "predict 2"
        expect(page.get_by_role("alert").filter(has_text=refused["message"][:30])).to_be_visible()
        # the playable card: Python plays it, its traits change, the cell reading them reruns
        card = board.locator("button.tl-card.tl-legal[data-intent='play']").first
        value = card.get_attribute("data-value")
        assert value in start["hand"]
        card.click()
        seen = python_side(page, state, lambda s: s["last_move"] == f"play {value}")
        assert f"play {value}" in seen["actions"] and value not in seen["hand"] and seen["message"] == ""
        expect(said).to_contain_text(f"play {value}")
        expect(board.locator(f"button.tl-card[data-intent='play'][data-value='{value}']")).to_have_count(0)
        # a drawn toggle: Python's look changes and the board redraws with it
        page.get_by_role("button", name="4 colours").click()
        assert python_side(page, state, lambda s: s["four_colour"])["four_colour"] is True
        expect(page.get_by_role("button", name="4 colours")).to_have_attribute("aria-pressed", "true")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "marimo-playtable.png"))
    finally:
        page.close()
    assert log.blocked == [], log.blocked[:5]
    assert log.javascript_errors() == []
