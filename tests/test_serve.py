"""The README's main command: ``tricklab serve`` serves the app gallery with Voilà."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tricklab.__main__ import serve_command

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tricklab", "serve", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                with urllib.request.urlopen(url + "/", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError(proc.stdout.read().decode() if proc.stdout else "server died") from None
                time.sleep(0.25)
        else:
            raise RuntimeError("tricklab serve did not answer within 30 s")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def test_serve_command_defaults_to_loopback() -> None:
    command = serve_command("127.0.0.1", 8866, ROOT / "voila_apps", open_browser=False)
    assert "--Voila.ip=127.0.0.1" in command and "--port=8866" in command and "--no-browser" in command


def test_serve_lists_and_renders_the_apps(server: str) -> None:
    with urllib.request.urlopen(server + "/", timeout=10) as response:
        assert response.status == 200
        assert "Voilà" in response.read().decode()
    with urllib.request.urlopen(server + "/voila/render/rulebooks.ipynb", timeout=60) as response:
        page = response.read().decode()
    # Voilà runs the notebook on the server: the rendered clause text is in the page
    assert "tricklab rulebooks" in page
    assert "Who leads first" in page


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is not installed at /usr/bin/chromium")
def test_rulebook_app_shows_every_game_in_chromium(server: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        page = browser.new_page()
        page.route("**/*", lambda route: route.continue_() if "127.0.0.1" in route.request.url else route.abort())
        page.goto(server + "/")
        page.get_by_text("rulebooks.ipynb").wait_for(timeout=60_000)  # the gallery lists the app
        page.goto(server + "/voila/render/rulebooks.ipynb")
        page.get_by_text("ts.lead.first").wait_for(timeout=60_000)
        text = page.inner_text("body")
        browser.close()
    assert "Tricks & Stones" in text
    assert "Who leads first" in text
