"""The README's main command: ``tricklab serve`` serves the app gallery with Voilà."""

from __future__ import annotations

import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tricklab.__main__ import serve_command

from .servers import open_page

ROOT = Path(__file__).resolve().parent.parent


def test_serve_command_defaults_to_loopback() -> None:
    command = serve_command("127.0.0.1", 8866, ROOT / "voila_apps", open_browser=False)
    assert "--Voila.ip=127.0.0.1" in command and "--port=8866" in command and "--no-browser" in command


def test_serve_renders_the_rulebook_app(voila_url: str) -> None:
    with urllib.request.urlopen(voila_url + "/", timeout=10) as response:
        assert response.status == 200
        assert "Voilà" in response.read().decode()
    with urllib.request.urlopen(voila_url + "/voila/render/rulebooks.ipynb", timeout=60) as response:
        page = response.read().decode()
    # Voilà runs the notebook on the server: the rendered clause text is in the page
    assert "tricklab rulebooks" in page
    assert "Who leads first" in page


@pytest.mark.browser
def test_gallery_lists_the_apps_and_the_rulebook_shows_in_chromium(voila_url: str, browser: Any) -> None:
    page, _ = open_page(browser, voila_url + "/")
    for app in ("explain_trick.ipynb", "replay.ipynb", "rulebooks.ipynb"):
        page.get_by_text(app).first.wait_for(timeout=60_000)
    page.goto(voila_url + "/voila/render/rulebooks.ipynb")
    page.get_by_text("ts.lead.first").wait_for(timeout=60_000)
    text = page.inner_text("body")
    page.close()
    assert "Tricks & Stones" in text and "Who leads first" in text
