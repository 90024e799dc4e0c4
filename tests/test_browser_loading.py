"""While an app loads: its name, what is coming and a progress bar, from the first paint, in
words a learner reads (never "Executing 1 of 1" or "kernel"); then the app, and a link's
#anchor in view."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tricklab.serve import TEMPLATE_ROOT

from .servers import ROOT, UNPLAIN, open_page, open_phone_page

pytestmark = pytest.mark.browser

APPS = ROOT / "voila_apps"
TEMPLATE = TEMPLATE_ROOT / "voila" / "templates" / "tricklab"


def words(app: str) -> dict[str, str]:
    metadata: dict[str, str] = json.loads((APPS / f"{app}.ipynb").read_text())["metadata"]["tricklab"]
    return metadata


def test_every_app_says_its_name_and_what_is_coming() -> None:
    apps = sorted(p.stem for p in APPS.glob("*.ipynb"))
    assert {"index", "play", "replay", "quiz", "explain_trick", "bid_trainer", "rulebooks"} <= set(apps)
    for app in apps:
        said = words(app)
        assert said["app"] and said["coming"].endswith("…"), app
        assert not UNPLAIN.search(said["app"] + " " + said["coming"]), app


def test_the_template_is_voilas_own_with_the_loading_screen() -> None:
    assert json.loads((TEMPLATE / "conf.json").read_text()) == {"base_template": "lab"}
    script = (TEMPLATE / "loading.js").read_text()
    # the template includes it as Jinja: no delimiter may be in it
    assert not re.search(r"\{[{%#]", script)
    assert "textContent" in script and "innerHTML" not in script  # words as text, never as markup


@pytest.mark.parametrize(
    ("app", "query", "drawn"),
    [
        ("play", "game=tricks-and-stones&players=4&seed=3", ".tricklab-board .tl-card"),
        ("replay", "game=kalah&seed=2", ".tricklab-board .tl-kalah"),
        ("rulebooks", "", ".tl-rulebook-links"),
    ],
)
def test_the_loading_screen_names_the_app_until_it_is_drawn(
    browser: Any, voila_url: str, app: str, query: str, drawn: str
) -> None:
    page, log = open_page(browser, f"{voila_url}/voila/render/{app}.ipynb" + (f"?{query}" if query else ""))
    try:
        page.locator(drawn).first.wait_for(timeout=90_000)
        page.locator("#tricklab-loading").wait_for(state="detached", timeout=30_000)
        said = words(app)
        first = next(text for text in log.shown if text.strip())
        # the app's name from the first paint, with what is coming (or the next stage, on a quick page)
        assert said["app"] in first and (said["coming"] in first or "Almost ready…" in first), log.shown[:3]
        assert any(said["app"] in text for text in log.shown[:-1])  # shown before the app was
        assert not page.locator("#loading").is_visible()  # Voilà's own spinner never shows
        assert page.locator(drawn).first.is_visible()
    finally:
        page.close()


def test_the_loading_screen_has_a_progress_bar_that_moves(browser: Any, voila_url: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.route("**/*", lambda r: r.continue_() if r.request.url.startswith("http://127.0.0.1") else r.abort())
        page.goto(f"{voila_url}/voila/render/quiz.ipynb?game=band-of-tricks&players=4&seed=5", wait_until="commit")
        bar = page.locator("#tricklab-loading [role=progressbar]")
        bar.wait_for(timeout=30_000)
        values = [float(bar.get_attribute("aria-valuenow") or 0)]
        page.wait_for_function(
            f"() => {{ const b = document.querySelector('#tricklab-loading [role=progressbar]');"
            f" return !b || Number(b.getAttribute('aria-valuenow')) > {values[0]}; }}",
            timeout=30_000,
        )
        assert page.locator("#tricklab-loading").get_attribute("role") == "status"
        page.locator(".tricklab-board .tl-card").first.wait_for(timeout=90_000)
        assert page.locator("#tricklab-loading").count() == 0
    finally:
        page.close()


def test_a_rule_link_opens_the_rulebook_at_its_clause(browser: Any, voila_url: str) -> None:
    for open_ in (open_page, open_phone_page):
        page, _ = open_(browser, f"{voila_url}/voila/render/rulebooks.ipynb#bt.tie.later")
        try:
            clause = page.locator("[id='bt.tie.later']")
            clause.wait_for(timeout=90_000)
            page.locator("#tricklab-loading").wait_for(state="detached", timeout=30_000)
            page.wait_for_function(
                "() => { const r = document.getElementById('bt.tie.later').getBoundingClientRect();"
                " return r.top >= -2 && r.top < window.innerHeight / 2; }",
                timeout=10_000,
            )
            assert page.evaluate("document.activeElement && document.activeElement.id") == "bt.tie.later"
        finally:
            page.context.close() if open_ is open_phone_page else page.close()


def test_the_static_sites_pages_carry_the_same_loading_screen() -> None:
    """The site's pages carry the same screen, with each notebook's words, first in their body."""
    from tricklab import site

    static = {
        "app.js": "app.0123456789ab.js",
        "worker.js": "worker.0123456789ab.js",
        "page.css": "page.0123456789ab.css",
    }
    page = site.page(APPS / "play.ipynb", static=static, wheels=[], prepared=None)
    body = page.index("<body>")
    assert body < page.index("TRICKLAB_LOADING") < page.index('id="tricklab-app"')
    assert page.index("TRICKLAB_LOADING") == page.index("window.TRICKLAB_LOADING", body) + len("window.")
    assert json.dumps(words("play")["app"]) in page and "innerHTML" not in page.split("TRICKLAB_LOADING", 1)[1]
