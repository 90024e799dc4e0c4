"""The landing page: every app with a picture, and every link opens a working app."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin

import pytest

from tricklab.widgets.gallery import APPS, START_HERE

from .servers import ROOT, open_page

pytestmark = pytest.mark.browser


def test_every_app_in_the_gallery_exists_with_its_picture() -> None:
    for app in APPS:
        assert (ROOT / "voila_apps" / app.notebook).is_file(), app.notebook
        assert (ROOT / "voila_apps" / "screenshots" / app.picture).is_file(), app.picture
        dark = app.picture.replace(".png", "-dark.png")
        assert (ROOT / "voila_apps" / "screenshots" / dark).is_file(), dark


def test_start_here_leads_to_a_first_round(voila_url: str, browser: Any) -> None:
    landing = f"{voila_url}/voila/render/index.ipynb"
    page, _ = open_page(browser, landing)
    start = page.locator(".tricklab-start-here")
    start.wait_for(timeout=90_000)
    assert start.locator("ol li").count() == 3, "three kinds of click, each explained"
    link = start.locator("a.tricklab-start-link")
    assert link.get_attribute("href") == START_HERE
    with page.context.expect_page() as opened:  # the gallery's links open the app in a new page
        link.click()
    app = opened.value
    board = app.locator(".tricklab-board")
    board.locator(".tl-card").first.wait_for(timeout=90_000)
    assert "play.ipynb" in app.url and app.get_by_role("alert").count() == 0
    board.locator(".tl-decision [data-intent]").first.wait_for(timeout=30_000)  # the first click: a prediction
    app.close()
    page.close()


def test_dark_theme_shows_dark_thumbnails(voila_url: str, browser: Any) -> None:
    page, _ = open_page(browser, f"{voila_url}/voila/render/index.ipynb?theme=dark")
    page.locator(".tricklab-gallery").wait_for(timeout=90_000)
    shown = page.locator(".tricklab-gallery img:visible")
    assert shown.count() == len(APPS)
    sources = shown.evaluate_all("imgs => imgs.map(i => i.getAttribute('src'))")
    assert all(src.endswith("-dark.png") for src in sources), sources
    page.wait_for_function(
        "[...document.querySelectorAll('.tricklab-gallery img.tricklab-picture-dark')].every(i => i.complete)"
    )
    assert all(w > 0 for w in shown.evaluate_all("imgs => imgs.map(i => i.naturalWidth)"))
    page.close()


def test_landing_page_links_open_working_apps(voila_url: str, browser: Any) -> None:
    landing = f"{voila_url}/voila/render/index.ipynb"
    page, log = open_page(browser, landing)
    page.locator(".tricklab-gallery").wait_for(timeout=90_000)
    pictures = page.locator(".tricklab-gallery img.tricklab-picture-light")
    assert pictures.count() == len(APPS)
    page.wait_for_function(
        "[...document.querySelectorAll('.tricklab-gallery img.tricklab-picture-light')].every(i => i.complete)"
    )
    widths = pictures.evaluate_all("imgs => imgs.map(i => i.naturalWidth)")
    assert all(w > 0 for w in widths), widths
    links = page.locator(".tricklab-gallery a, .tricklab-start-here a")
    hrefs = sorted(set(links.evaluate_all("links => links.map(a => a.href)")))
    assert len(hrefs) >= 2 * len(APPS)
    page.close()
    assert log.javascript_errors() == []
    for href in hrefs:
        assert href == urljoin(landing, href)
        app, app_log = open_page(browser, href)
        if "rulebooks" in href:
            app.get_by_text("ts.lead.first").wait_for(timeout=90_000)
        elif "class.ipynb" in href:  # the class app: the teacher's start, or a learner's join
            app.get_by_role("button", name=re.compile("Start a class session|Join the class")).wait_for(timeout=90_000)
        elif "table.ipynb" in href:  # play with classmates: the lobby, to make a table or join one
            app.get_by_role("button", name="Make the table").wait_for(timeout=90_000)
        else:  # a card game's cards, or the board of a game played on one
            app.locator(".tricklab-board .tl-card, .tricklab-board .tl-board").first.wait_for(timeout=90_000)
        assert app.get_by_role("alert").count() == 0, f"{href} shows a message"
        app.close()
        assert app_log.javascript_errors() == [], href
