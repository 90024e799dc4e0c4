"""The browser's code path in Chromium, without the static site: Voilà runs notebooks that set
``tricklab.platform.IN_BROWSER``, so each app asks its page for the query string (the board's
front end sends ``location.search``) and the bid trainer's play-outs run as steps on the
kernel's event loop instead of a thread."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .servers import PAYLOADS, assert_no_script_ran, free_port, open_page, running

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"


def notebook(call: str) -> str:
    source = (
        f"import tricklab.platform\ntricklab.platform.IN_BROWSER = True\nfrom tricklab.widgets.apps import *\n{call}"
    )
    cell: dict[str, object] = {
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "outputs": [],
        "source": source,
    }
    return json.dumps(
        {
            "cells": [cell],
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


@pytest.fixture(scope="module")
def apps_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("browser-apps")
    (root / "replay.ipynb").write_text(notebook("replay_app()"))
    (root / "bid_trainer.ipynb").write_text(notebook("bid_trainer_app()"))
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "voila",
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--VoilaConfiguration.template=tricklab",  # the apps' template, as voila_apps/voila.json has it
        str(root),
    ]
    with running(command, f"http://127.0.0.1:{port}/", cwd=Path(__file__).resolve().parent.parent) as url:
        yield url.rstrip("/")


def test_the_app_is_built_from_the_query_the_page_sends(apps_url: str, browser: Any) -> None:
    page, log = open_page(
        browser, f"{apps_url}/voila/render/replay.ipynb?game=tricks-and-stones&players=3&seed=7&step=2"
    )
    expect(page.locator(".tricklab-app-header h2")).to_contain_text(
        "Tricks & Stones, 3 players, seed 7", timeout=90_000
    )
    page.wait_for_function("new URLSearchParams(location.search).get('step') === '2'")
    assert page.locator(".tricklab-loading").count() == 0
    assert not log.javascript_errors()
    page.close()


def test_a_hostile_query_from_the_page_is_refused_and_runs_nothing(apps_url: str, browser: Any) -> None:
    from urllib.parse import quote

    page, log = open_page(browser, f"{apps_url}/voila/render/replay.ipynb?seed={quote(PAYLOADS[0])}")
    expect(page.locator(".tricklab-message:not([hidden])")).to_contain_text(
        "The seed must be a whole number", timeout=90_000
    )
    assert_no_script_ran(page, log.dialogs)
    page.close()


def test_the_bid_trainer_plays_out_in_steps_and_cancel_is_heard(apps_url: str, browser: Any) -> None:
    page, log = open_page(browser, f"{apps_url}/voila/render/bid_trainer.ipynb?game=tricks-and-stones&seed=3")
    try_it = page.get_by_role("button", name="Try it")
    cancel = page.get_by_role("button", name="Cancel")
    board = page.locator(BOARD).first
    board.locator(".tl-card").first.wait_for(timeout=90_000)
    try_it.click()
    expect(cancel).to_be_enabled()
    page.wait_for_function("() => document.querySelector('.tricklab-bidtrainer progress')?.value > 0")
    cancel.click()
    # the trainer's message, above its board
    expect(page.get_by_text("Cancelled: press Try it to start again.")).to_be_visible(timeout=30_000)
    expect(try_it).to_be_enabled()
    try_it.click()
    expect(board).to_contain_text("and play for it", timeout=120_000)
    expect(try_it).to_be_enabled()
    assert not log.javascript_errors()
    page.close()
