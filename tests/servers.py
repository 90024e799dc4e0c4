"""Real servers and a real browser for the end-to-end tests.

Servers listen on 127.0.0.1 only; the browser is Debian's Chromium driven by
Playwright, and every request that is not to the loopback address is blocked, so
nothing outside this machine can decide a test.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "tests" / "artifacts"
NO_CHROMIUM = "Debian's Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running(command: list[str], url: str, *, cwd: Path = ROOT, timeout: float = 60) -> Iterator[str]:
    """Start a server process and yield ``url`` once it answers; stop it afterwards."""
    proc = subprocess.Popen(
        command,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2):
                    break
            except OSError:
                if proc.poll() is not None:
                    output = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
                    raise RuntimeError(f"{command[2:4]} exited early:\n{output[-3000:]}") from None
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{url} did not answer within {timeout:.0f} s") from None
                time.sleep(0.25)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


def voila_command(port: int) -> list[str]:
    return [sys.executable, "-m", "tricklab", "serve", "--port", str(port)]


@dataclass
class PageLog:
    """What a page reported: uncaught errors, console errors and the requests we blocked."""

    errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)

    def javascript_errors(self) -> list[str]:
        """Errors not explained by a request we blocked on purpose (e.g. a CDN font)."""
        own = [e for e in self.console_errors if not (self.blocked and "net::ERR_FAILED" in e)]
        return self.errors + own


def open_page(browser: Any, url: str, *, viewport: tuple[int, int] = (1280, 1000)) -> tuple[Any, PageLog]:
    """A new page that blocks every non-loopback request and records errors."""
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    log = PageLog()
    page.on("pageerror", lambda exc: log.errors.append(str(exc)))
    page.on("console", lambda msg: log.console_errors.append(msg.text) if msg.type == "error" else None)

    def route(route: Any) -> None:
        request_url = route.request.url
        if request_url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")):
            route.continue_()
        else:
            log.blocked.append(request_url)
            route.abort()

    page.route("**/*", route)
    page.goto(url)
    return page, log


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM),
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
    )
