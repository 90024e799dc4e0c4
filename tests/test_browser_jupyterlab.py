"""JupyterLab runs the getting-started notebook and the widgets render and take keys."""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .servers import ARTIFACTS, ROOT, free_port, open_page, running

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/00_getting_started.ipynb"


@pytest.fixture(scope="module")
def lab_url() -> Any:
    port = free_port()
    with tempfile.TemporaryDirectory() as workspaces:
        command = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={ROOT}",
            f"--LabApp.workspaces_dir={workspaces}",
            "--allow-root",
            "--LabApp.news_url=",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ]
        with running(command, f"http://127.0.0.1:{port}/lab", timeout=90) as url:
            yield url


def test_getting_started_runs_in_jupyterlab_and_widgets_render(lab_url: str, browser: Any) -> None:
    page, log = open_page(browser, f"{lab_url}/tree/{NOTEBOOK}?reset", viewport=(1400, 1000))
    page.locator(".jp-Notebook").wait_for(timeout=90_000)
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=90_000)  # the kernel is ready
    page.get_by_role("menuitem", name="Run").click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    boards = page.locator(".tricklab-board")
    expect(boards.nth(1)).to_be_visible(timeout=120_000)
    # the explainer shows the engine's winner for P3 S5 R13 M13
    expect(boards.nth(0).locator(".tl-trick .tl-winner")).to_have_attribute("aria-label", "Metal 13, wins")
    # keys pressed in a widget reach the widget, not JupyterLab's shortcuts
    stepper = boards.nth(1)
    stepper.scroll_into_view_if_needed()
    start = int(stepper.get_attribute("data-step") or "0")
    stepper.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(stepper).to_have_attribute("data-step", str(start + 2))
    page.keyboard.press("Home")
    expect(stepper).to_have_attribute("data-step", "0")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "jupyterlab-getting-started.png"))
    page.close()
    assert not [e for e in log.errors if "tricklab" in e or "anywidget" in e]


def _notebook(name: str, cells: list[str]) -> Path:
    """A notebook of this run's own in tests/artifacts (which is not kept), its code cells ``cells``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    notebook = {
        "cells": [
            {"cell_type": "code", "metadata": {}, "source": s, "outputs": [], "execution_count": None} for s in cells
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = ARTIFACTS / name
    path.write_text(json.dumps(notebook))
    return path


def _run_all(browser: Any, lab_url: str, path: Path) -> tuple[Any, Any]:
    page, log = open_page(browser, f"{lab_url}/tree/tests/artifacts/{path.name}?reset", viewport=(1400, 1000))
    page.locator(".jp-Notebook").wait_for(timeout=90_000)
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=90_000)
    page.get_by_role("menuitem", name="Run").click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    return page, log


def _rerun(page: Any, cell: int) -> None:
    page.locator(".jp-CodeCell").nth(cell).locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")


def test_a_click_in_the_trick_explainer_reaches_python_in_jupyterlab(lab_url: str, browser: Any) -> None:
    """The explainer's own picker and a deck card change what Python holds: a cell run after them prints it."""
    cells = [
        "from tricklab.widgets import TrickExplainer\n"
        'explainer = TrickExplainer("tricks-and-stones", 4, trump="S", cards="7H 8S")\n'
        "explainer",
        'print("Python holds:", explainer.trump, " ".join(explainer.cards))',
    ]
    path = _notebook(f"lab-explainer-{free_port()}.ipynb", cells)
    try:
        page, log = _run_all(browser, lab_url, path)
        board = page.locator(".tricklab-board")
        expect(board.locator(".tl-trick .tl-card")).to_have_count(2, timeout=120_000)
        printed = page.locator(".jp-OutputArea-output").filter(has_text="Python holds:")
        expect(printed).to_contain_text("Python holds: S 7H 8S")
        page.get_by_label("Trump").select_option(label="♥ Hearts")
        board.locator(".tl-deck button[data-value='AH']").click()
        expect(board.locator(".tl-trick .tl-card")).to_have_count(3)
        _rerun(page, 1)
        expect(printed).to_contain_text("Python holds: H 7H 8S AH", timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-explainer.png"))
        page.close()
    finally:
        path.unlink(missing_ok=True)
    assert not [e for e in log.errors if "tricklab" in e or "anywidget" in e]


def test_the_quiz_answers_in_jupyterlab_and_jslink_joins_two_widgets(lab_url: str, browser: Any) -> None:
    """A quiz answered by a click: Python holds the score; its Large toggle, linked in the page to an
    explainer's ``large`` with ``jslink``, changes the explainer's board and what Python holds."""
    cells = [
        "import ipywidgets\n"
        "from tricklab.widgets import Quiz, TrickExplainer\n"
        'quiz = Quiz("band-of-tricks", 4, seed=5, level=1, count=3)\n'
        'explainer = TrickExplainer("tricks-and-stones", 4, cards="7H 8S")\n'
        'link = ipywidgets.jslink((quiz, "large"), (explainer, "large"))\n'
        "quiz",
        "explainer",
        'print("Python holds:", quiz.score, quiz.picked, quiz.correct, explainer.large)',
    ]
    path = _notebook(f"lab-quiz-{free_port()}.ipynb", cells)
    try:
        page, log = _run_all(browser, lab_url, path)
        boards = page.locator(".tricklab-board")
        expect(boards).to_have_count(2, timeout=120_000)
        printed = page.locator(".jp-OutputArea-output").filter(has_text="Python holds:")
        expect(printed).to_contain_text("Python holds: (0, 0) [] None False", timeout=60_000)
        quiz = boards.nth(0)
        answer = quiz.locator(".tl-trick button[data-intent='answer']").first
        code = answer.get_attribute("data-value")
        answer.click()
        expect(quiz.locator(".tl-quiz-feedback .tl-feedback")).to_be_visible()
        page.locator(".jp-CodeCell").nth(0).get_by_role("button", name="Large").click()
        expect(boards.nth(1)).to_have_class(re.compile(r"\btl-large\b"))
        _rerun(page, 2)
        expect(printed).to_contain_text(f"['{code}']", timeout=30_000)
        expect(printed).to_contain_text("True", timeout=30_000)
        text = printed.inner_text()
        assert text.rstrip().endswith("True"), text  # the explainer's large, set through the link
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-quiz.png"))
        page.close()
    finally:
        path.unlink(missing_ok=True)
    assert not [e for e in log.errors if "tricklab" in e or "anywidget" in e]


def test_the_steppers_buttons_and_moves_reach_python_in_jupyterlab(lab_url: str, browser: Any) -> None:
    """The stepper's drawn ▶ button and a move of its list change the step Python holds: a cell run
    after them prints it."""
    cells = [
        "from tricklab.widgets import TrickStepper\n"
        'stepper = TrickStepper(game="jewel-vault", players=4, seed=7, seat=1)\n'
        "stepper",
        'print("Python holds step", stepper.step, "of seat", stepper.view)',
    ]
    path = _notebook(f"lab-stepper-{free_port()}.ipynb", cells)
    try:
        page, log = _run_all(browser, lab_url, path)
        board = page.locator(".tricklab-board")
        expect(board).to_have_attribute("data-step", "0", timeout=120_000)
        printed = page.locator(".jp-OutputArea-output").filter(has_text="Python holds step")
        expect(printed).to_contain_text("Python holds step 0 of seat 1")
        page.get_by_role("button", name="▶", exact=True).click()
        expect(board).to_have_attribute("data-step", "1")
        board.locator(".tricklab-list .tl-ml-entry[data-value='5']").click()
        expect(board).to_have_attribute("data-step", "5")
        _rerun(page, 1)
        expect(printed).to_contain_text("Python holds step 5 of seat 1", timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-stepper.png"))
        page.close()
    finally:
        path.unlink(missing_ok=True)
    assert not [e for e in log.errors if "tricklab" in e or "anywidget" in e]


def test_a_click_in_the_bid_trainer_reaches_python_in_jupyterlab(lab_url: str, browser: Any) -> None:
    """A prediction clicked on the trainer's board is Python's ``choice``; "Play it out" shows the
    play-out in the trainer's place and "Back to the trainer" brings the hand back."""
    cells = [
        "from tricklab.widgets import BidTrainer\n"
        'trainer = BidTrainer("tricks-and-stones", 4, seed=3, samples=40)\n'
        "trainer",
        'print("Python holds:", trainer.choice, trainer.seed)',
    ]
    path = _notebook(f"lab-bidtrainer-{free_port()}.ipynb", cells)
    try:
        page, log = _run_all(browser, lab_url, path)
        board = page.locator(".tricklab-board")
        board.locator("button[data-intent='predict'][data-value='3']").click(timeout=120_000)
        printed = page.locator(".jp-OutputArea-output").filter(has_text="Python holds:")
        expect(printed).to_contain_text("Python holds: predict 2 3")
        page.get_by_role("button", name="Play it out").click()
        expect(page.get_by_text("This deal played out with your prediction (3)").first).to_be_visible(timeout=30_000)
        expect(board.locator("button[data-intent='predict']")).to_have_count(0)
        page.get_by_role("button", name="Back to the trainer").click()
        expect(board.locator("button[data-intent='predict']")).to_have_count(6)
        _rerun(page, 1)
        expect(printed).to_contain_text("Python holds: predict 3 3", timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-bidtrainer.png"))
        page.close()
    finally:
        path.unlink(missing_ok=True)
    assert not [e for e in log.errors if "tricklab" in e or "anywidget" in e]


def test_a_card_played_on_the_play_table_reaches_python_in_jupyterlab(lab_url: str, browser: Any) -> None:
    """A card clicked on the table is played in Python: a cell run after it prints the learner's last move."""
    cells = [
        "from tricklab.widgets import PlayTable\n"
        'table = PlayTable("tricks-and-stones", 4, seat=0, seed=11, pace=0, hold=0)\n'
        'table.act("predict 2")\n'
        "table",
        'print("Python holds:", table.last_move)',
    ]
    path = _notebook(f"lab-playtable-{free_port()}.ipynb", cells)
    try:
        page, log = _run_all(browser, lab_url, path)
        board = page.locator(".tricklab-board")
        card = board.locator("button.tl-card.tl-legal[data-intent='play']").first
        card.wait_for(timeout=120_000)
        printed = page.locator(".jp-OutputArea-output").filter(has_text="Python holds:")
        expect(printed).to_contain_text("Python holds: predict 2")
        value = card.get_attribute("data-value")
        card.click()
        expect(board.locator(f"button.tl-card[data-intent='play'][data-value='{value}']")).to_have_count(0)
        _rerun(page, 1)
        expect(printed).to_contain_text(f"Python holds: play {value}", timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-playtable.png"))
        page.close()
    finally:
        path.unlink(missing_ok=True)
    assert not [e for e in log.errors if "tricklab" in e or "anywidget" in e]


def test_a_board_after_a_picture_uses_the_pictures_sheet_and_asks_for_it_when_it_is_gone(
    lab_url: str, browser: Any
) -> None:
    """The stylesheet once per page: a board made after a picture of the kernel's page comes
    without the sheet and is styled by the picture's copy; once no output holds the sheet (the
    picture replaced, the notebook saved and the page reloaded) the board asks its kernel for it."""
    cells = [
        "import tricklab\nfrom IPython.display import display\n"
        "handle = display(tricklab.get_rules('tricks-and-stones', players=4).card('QH'), display_id=True)",
        "from tricklab.widgets import TrickExplainer, frontend\n"
        'explainer = TrickExplainer("tricks-and-stones", 4, cards="7H 8S")\n'
        "explainer",
        'print("module without the sheet:", explainer._esm == frontend.carrier_module(sheet=False))\n'
        'handle.update("the picture is gone")',
    ]
    path = _notebook(f"lab-sheet-{free_port()}.ipynb", cells)
    sheets = "document.head.querySelectorAll('style[data-tricklab-css]').length"
    try:
        page, log = _run_all(browser, lab_url, path)
        board = page.locator(".tricklab-board")
        expect(board.locator(".tl-trick .tl-card")).to_have_count(2, timeout=120_000)
        expect(page.locator(".jp-OutputArea-output").filter(has_text="module without")).to_contain_text(
            "module without the sheet: True", timeout=30_000
        )
        row = page.locator(".tricklab-controls .tl-control-row").first
        expect(row).to_have_css("display", "flex")
        assert page.evaluate(sheets) == 1
        expect(page.locator(".jp-OutputArea-output").filter(has_text="the picture is gone")).to_be_visible()
        page.get_by_role("menuitem", name="File").click()
        page.get_by_role("menuitem", name="Save Notebook", exact=False).first.click()
        expect(page.locator(".lm-TabBar-tab.jp-mod-dirty")).to_have_count(0, timeout=10_000)
        page.reload()
        page.locator(".jp-Notebook").wait_for(timeout=90_000)
        board = page.locator(".tricklab-board")
        expect(board.locator(".tl-trick .tl-card")).to_have_count(2, timeout=60_000)
        assert page.locator(".jp-OutputArea-output [data-tricklab-css]").count() == 0, "no output holds the sheet"
        page.wait_for_function(f"{sheets} === 1", timeout=30_000)
        expect(page.locator(".tricklab-controls .tl-control-row").first).to_have_css("display", "flex")
        page.wait_for_timeout(500)
        assert page.evaluate(sheets) == 1, "the sheet the kernel sent, once"
        page.close()
    finally:
        path.unlink(missing_ok=True)
    assert not [e for e in log.errors if "tricklab" in e or "anywidget" in e]
