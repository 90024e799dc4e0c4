"""A lost kernel is told: the page says so in words within a few seconds of the next click.

The board cannot know by itself that Python is gone, so after a click or a key anywhere on
the page it asks its Board in the kernel for a pong. These tests take the answer away in
the three ways a classroom meets: the page's kernel killed (the server starts an empty one
in its place), the connection dropping while the server lives, and the server stopping.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import nbformat
import psutil
import pytest
from playwright.sync_api import expect

from .servers import ARTIFACTS, ROOT, Served, free_port, open_page, serving, voila_command

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"
LOST = "Connection lost — reload to continue"
BANNER = ".tricklab-connection"
#: the board waits 3.5 s for a pong; the issue asks for the message "within a few seconds"
TOLD_WITHIN_MS = 6_000
#: long enough for an unanswered ping to have been declared lost
PAST_THE_WAIT_S = 4.5
FORBIDDEN = "Failed to load resource: the server responded with a status of 403 (Forbidden)"
CHANNELS = re.compile(r"/api/kernels/[0-9a-f-]{36}/channels")


def render(base: str, app: str, query: str = "") -> str:
    return f"{base}/voila/render/{app}.ipynb" + (f"?{query}" if query else "")


def wait_for_board(page: Any, count: int = 1) -> None:
    page.locator(f"{BOARD} .tl-card").first.wait_for(timeout=90_000)
    page.wait_for_function(f"document.querySelectorAll('{BOARD}').length >= {count}", timeout=90_000)


def kernel_of(page: Any) -> str:
    config = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent)")
    kernel_id: str = config["kernelId"]
    return kernel_id


def kernel_process(kernel_id: str) -> psutil.Process:
    """The kernel's process: its command line names its connection file, ``kernel-<id>.json``."""
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        cmdline = " ".join(proc.info["cmdline"] or [])
        if "ipykernel" in cmdline and f"kernel-{kernel_id}.json" in cmdline:
            found.append(proc)
    assert len(found) == 1, f"expected one process for kernel {kernel_id}, found {found}"
    return found[0]


def banner(page: Any) -> Any:
    return page.get_by_role("alert").filter(has_text=LOST)


def step(page: Any, expected: int) -> None:
    page.get_by_role("button", name="▶", exact=True).click()
    page.wait_for_function(
        "([sel, step]) => document.querySelector(sel)?.dataset.step === String(step)", arg=[BOARD, expected]
    )


def still_connected(page: Any) -> None:
    """No banner, even after the time an unanswered ping takes to be declared lost."""
    time.sleep(PAST_THE_WAIT_S)
    assert page.locator(BANNER).count() == 0, "the page says the connection is lost while it is not"


def screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def test_a_killed_kernel_is_told_and_reload_brings_the_page_back(voila_url: str, browser: Any) -> None:
    url = render(voila_url, "replay", "game=tricks-and-stones&players=4&seed=7")
    page, log = open_page(browser, url)
    wait_for_board(page)
    step(page, 1)
    still_connected(page)
    assert log.javascript_errors() == []

    kernel = kernel_process(kernel_of(page))
    kernel.kill()  # kill -9: the server notices and starts an empty kernel under the same id
    kernel.wait(timeout=10)
    started = time.monotonic()
    # (ipywidgets now draws a broken-link icon into its buttons, which changes their names)
    page.get_by_title("step forward (→)").click()
    expect(banner(page)).to_be_visible(timeout=TOLD_WITHIN_MS)
    assert time.monotonic() - started < TOLD_WITHIN_MS / 1000
    # one message for the whole page, however often the learner clicks on
    page.get_by_title("step back (←)").click()
    page.locator(BOARD).click()
    page.keyboard.press("ArrowRight")
    time.sleep(1)
    assert page.locator(BANNER).count() == 1
    reload = banner(page).get_by_role("button", name="Reload")
    expect(reload).to_be_visible()
    screenshot(page, "connection-lost-killed-kernel")
    # the board's own sends do not throw into the page; ipywidgets' buttons still do
    assert set(log.javascript_errors()) <= {"Cannot send"}
    del log.errors[:], log.console_errors[:]

    refused: list[str] = []
    page.on("response", lambda response: refused.append(response.url) if response.status == 403 else None)
    reload.click()
    page.wait_for_load_state()
    wait_for_board(page)
    # the page's address kept the step it showed: the reload opens there, and steps on from it
    assert page.locator(BOARD).get_attribute("data-step") == "1" and "step=1" in page.url
    step(page, 2)
    still_connected(page)
    page.close()
    # leaving a Voilà page asks the server to shut its kernel down, refused without an XSRF
    # token (voila#1458, see tricklab.serve): that refusal is the only error of the reload
    assert all("/api/shutdown/" in url for url in refused), refused
    # (the console may report a refusal after the page is closed: at most one error per refusal)
    errors = log.javascript_errors()
    assert set(errors) <= {FORBIDDEN} and len(errors) <= len(refused), (errors, refused)


def test_a_killed_kernel_is_told_before_any_click(voila_url: str, browser: Any) -> None:
    """ipywidgets marks the views of a dead comm at once; the board then asks without a click."""
    page, _ = open_page(browser, render(voila_url, "replay", "game=jewel-vault&players=4&seed=2"))
    wait_for_board(page)
    kernel = kernel_process(kernel_of(page))
    kernel.kill()
    kernel.wait(timeout=10)
    expect(banner(page)).to_be_visible(timeout=TOLD_WITHIN_MS)
    page.close()


class _RoutedSockets:
    """A browser whose pages pass their kernel websockets through ``handler`` (for :func:`open_page`)."""

    def __init__(self, browser: Any, handler: Callable[[Any], None]) -> None:
        self.browser = browser
        self.handler = handler

    def new_page(self, **kwargs: Any) -> Any:
        page = self.browser.new_page(**kwargs)
        page.route_web_socket(CHANNELS, self.handler)
        return page


def test_a_dropped_connection_is_told_and_a_hiccup_recovers(voila_url: str, browser: Any) -> None:
    dropping = False

    def relay(ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(lambda message: None if dropping else ws.send(message))

    url = render(voila_url, "explain_trick", "game=band-of-tricks&players=4&cards=P3,S5")
    page, log = open_page(_RoutedSockets(browser, relay), url)
    wait_for_board(page)
    page.locator(f"{BOARD} .tl-deck button[data-value='R12']").click()
    page.wait_for_function(f"document.querySelectorAll('{BOARD} .tl-trick .tl-card').length === 3")
    still_connected(page)

    dropping = True  # nothing from the server reaches the page any more
    started = time.monotonic()
    page.get_by_placeholder("type cards, e.g. 7H AH 8S KD").click()
    expect(banner(page)).to_be_visible(timeout=TOLD_WITHIN_MS)
    assert time.monotonic() - started < TOLD_WITHIN_MS / 1000

    dropping = False  # the hiccup is over: the next click's answer takes the message away
    page.locator(BOARD).click()
    expect(page.locator(BANNER)).to_have_count(0, timeout=TOLD_WITHIN_MS)
    page.close()
    assert log.javascript_errors() == []


@pytest.fixture(scope="module")
def two_boards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An app folder with one page showing two boards (a replay and a trick explainer)."""
    folder = tmp_path_factory.mktemp("apps")
    shutil.copy(ROOT / "voila_apps" / "voila.json", folder / "voila.json")
    source = (
        "import ipywidgets as w\n"
        "from tricklab.widgets.apps import explain_trick_app, replay_app\n"
        "\n"
        "w.VBox([replay_app(), explain_trick_app()])"
    )
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, folder / "two_boards.ipynb")
    return folder


@pytest.fixture
def own_server(two_boards: Path) -> Iterator[Served]:
    """A server of its own, for a test that stops it."""
    port = free_port()
    command = [*voila_command(port), "--apps", str(two_boards), "--pool-size", "0"]
    with serving(command, f"http://127.0.0.1:{port}/") as served:
        yield Served(served.url.rstrip("/"), served.pid)


@pytest.mark.parametrize(("theme", "viewport"), [("light", (1280, 800)), ("dark", (390, 844))])
def test_a_stopped_server_is_told_once_for_a_page_of_two_boards(
    own_server: Served, browser: Any, theme: str, viewport: tuple[int, int]
) -> None:
    page, _ = open_page(browser, render(own_server.url, "two_boards", f"theme={theme}"), viewport=viewport)
    wait_for_board(page, count=2)
    assert page.locator(BOARD).count() == 2
    step(page, 1)
    still_connected(page)

    server = psutil.Process(own_server.pid)
    server.terminate()
    server.wait(timeout=30)
    page.locator(BOARD).nth(1).click()  # the second board: every board on the page asks
    expect(banner(page)).to_be_visible(timeout=TOLD_WITHIN_MS)
    page.get_by_title("step forward (→)").click()
    time.sleep(1)
    assert page.locator(BANNER).count() == 1, "one message for the whole page"
    box = page.locator(BANNER).bounding_box()
    assert box is not None and box["y"] <= 1 and box["width"] >= viewport[0] - 1, "across the top"
    font_px = float(page.locator(BANNER).evaluate("el => parseFloat(getComputedStyle(el).fontSize)"))
    assert font_px >= 16, "large enough to read on a phone"
    screenshot(page, f"connection-lost-{theme}")
    page.close()
