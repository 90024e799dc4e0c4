"""The apps as a static site (``tricklab site build``), opened in Chromium with no network beyond localhost.

Building fetches the pinned build tools, Pyodide and the browser's wheels once into the site cache
(``$TRICKLAB_SITE_CACHE``); later builds take seconds. Skipped when the tools cannot be installed.
"""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tricklab import site

from .servers import open_page

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"
#: Pyodide boots in the page: tens of seconds on a busy machine
BOOT = 180_000


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    out = tmp_path_factory.mktemp("site") / "site"
    try:
        site.build(out, Path(__file__).resolve().parent.parent / "voila_apps")
    except (subprocess.CalledProcessError, FileNotFoundError) as error:
        pytest.skip(f"the static site's build tools could not be installed or run: {error}")
    httpd = site.server(out, port=0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_explain_trick_renders_and_answers_a_click_in_the_browser(site_url: str, browser: Any) -> None:
    page, log = open_page(browser, f"{site_url}/voici/render/explain_trick.html")
    start = time.monotonic()
    try:
        page.locator(f"{BOARD} .tl-card").first.wait_for(timeout=BOOT)
    except Exception:
        pytest.fail(f"no card: errors {log.errors + log.console_errors}, blocked {log.blocked}")
    first_card = time.monotonic() - start
    print(f"explain_trick: first card {first_card:.1f} s after the page opened")
    before = page.locator(f"{BOARD} .tl-trick .tl-card").count()
    page.locator(f"{BOARD} .tl-deck button:not([disabled])").first.click()
    page.wait_for_function(
        f"document.querySelectorAll('{BOARD} .tl-trick .tl-card').length !== {before}", timeout=30_000
    )
    assert log.javascript_errors() == []
    page.close()


@pytest.mark.parametrize(("page_name", "shows"), [("index", "Start here"), ("replay", BOARD)])
def test_the_gallery_and_replay_render_without_page_errors(
    site_url: str, browser: Any, page_name: str, shows: str
) -> None:
    page, log = open_page(browser, f"{site_url}/voici/render/{page_name}.html")
    target = page.get_by_text(shows).first if page_name == "index" else page.locator(f"{shows} .tl-card").first
    target.wait_for(timeout=BOOT)
    page.wait_for_timeout(2000)  # late errors: pictures, widget state
    assert log.javascript_errors() == []
    page.close()


def test_the_site_root_opens_the_gallery(site_url: str, browser: Any) -> None:
    page, _ = open_page(browser, f"{site_url}/index.html")
    page.wait_for_url("**/voici/render/index.html", timeout=30_000)
    page.close()
