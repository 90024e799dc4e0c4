"""JupyterLab runs the getting-started notebook and the widgets render and take keys."""

from __future__ import annotations

import json
import sys
import tempfile
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


def test_a_click_in_the_trick_explainer_reaches_python_in_jupyterlab(lab_url: str, browser: Any) -> None:
    """The explainer's own picker and a deck card change what Python holds: a cell run after them prints it."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = f"lab-explainer-{free_port()}.ipynb"  # a notebook of this run's own (tests/artifacts is not kept)
    cells = [
        "from tricklab.widgets import TrickExplainer\n"
        'explainer = TrickExplainer("tricks-and-stones", 4, trump="S", cards="7H 8S")\n'
        "explainer",
        'print("Python holds:", explainer.trump, " ".join(explainer.cards))',
    ]
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
    try:
        page, log = open_page(browser, f"{lab_url}/tree/tests/artifacts/{name}?reset", viewport=(1400, 1000))
        page.locator(".jp-Notebook").wait_for(timeout=90_000)
        page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=90_000)
        page.get_by_role("menuitem", name="Run").click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        board = page.locator(".tricklab-board")
        expect(board.locator(".tl-trick .tl-card")).to_have_count(2, timeout=120_000)
        printed = page.locator(".jp-OutputArea-output").filter(has_text="Python holds:")
        expect(printed).to_contain_text("Python holds: S 7H 8S")
        page.get_by_label("Trump").select_option(label="♥ Hearts")
        board.locator(".tl-deck button[data-value='AH']").click()
        expect(board.locator(".tl-trick .tl-card")).to_have_count(3)
        page.locator(".jp-CodeCell").nth(1).locator(".cm-content").click()
        page.keyboard.press("Shift+Enter")
        expect(printed).to_contain_text("Python holds: H 7H 8S AH", timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-explainer.png"))
        page.close()
    finally:
        path.unlink(missing_ok=True)
    assert not [e for e in log.errors if "tricklab" in e or "anywidget" in e]


def test_a_card_played_on_the_play_table_reaches_python_in_jupyterlab(lab_url: str, browser: Any) -> None:
    """A card clicked on the table is played in Python: a cell run after it prints the learner's last move."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = f"lab-playtable-{free_port()}.ipynb"  # a notebook of this run's own (tests/artifacts is not kept)
    cells = [
        "from tricklab.widgets import PlayTable\n"
        'table = PlayTable("tricks-and-stones", 4, seat=0, seed=11, pace=0, hold=0)\n'
        'table.act("predict 2")\n'
        "table",
        'print("Python holds:", table.last_move)',
    ]
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
    try:
        page, log = open_page(browser, f"{lab_url}/tree/tests/artifacts/{name}?reset", viewport=(1400, 1000))
        page.locator(".jp-Notebook").wait_for(timeout=90_000)
        page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=90_000)
        page.get_by_role("menuitem", name="Run").click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        board = page.locator(".tricklab-board")
        card = board.locator("button.tl-card.tl-legal[data-intent='play']").first
        card.wait_for(timeout=120_000)
        printed = page.locator(".jp-OutputArea-output").filter(has_text="Python holds:")
        expect(printed).to_contain_text("Python holds: predict 2")
        value = card.get_attribute("data-value")
        card.click()
        expect(board.locator(f"button.tl-card[data-intent='play'][data-value='{value}']")).to_have_count(0)
        page.locator(".jp-CodeCell").nth(1).locator(".cm-content").click()
        page.keyboard.press("Shift+Enter")
        expect(printed).to_contain_text(f"Python holds: play {value}", timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-playtable.png"))
        page.close()
    finally:
        path.unlink(missing_ok=True)
    assert not [e for e in log.errors if "tricklab" in e or "anywidget" in e]
