"""The landing page: every app with a picture, and every link opens a working app."""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

import pytest

from tricklab.widgets.gallery import APPS

from .servers import ROOT, open_page

pytestmark = pytest.mark.browser


def test_every_app_in_the_gallery_exists_with_its_picture() -> None:
    for app in APPS:
        assert (ROOT / "voila_apps" / app.notebook).is_file(), app.notebook
        assert (ROOT / "voila_apps" / "screenshots" / app.picture).is_file(), app.picture


def test_landing_page_links_open_working_apps(voila_url: str, browser: Any) -> None:
    landing = f"{voila_url}/voila/render/index.ipynb"
    page, log = open_page(browser, landing)
    page.locator(".tricklab-gallery").wait_for(timeout=90_000)
    pictures = page.locator(".tricklab-gallery img")
    assert pictures.count() == len(APPS)
    page.wait_for_function("[...document.querySelectorAll('.tricklab-gallery img')].every(i => i.complete)")
    widths = pictures.evaluate_all("imgs => imgs.map(i => i.naturalWidth)")
    assert all(w > 0 for w in widths), widths
    hrefs = sorted(set(page.locator(".tricklab-gallery a").evaluate_all("links => links.map(a => a.href)")))
    assert len(hrefs) >= 2 * len(APPS)
    page.close()
    assert log.javascript_errors() == []
    for href in hrefs:
        assert href == urljoin(landing, href)
        app, app_log = open_page(browser, href)
        if "rulebooks" in href:
            app.get_by_text("ts.lead.first").wait_for(timeout=90_000)
        else:
            app.locator(".tricklab-board .tl-card").first.wait_for(timeout=90_000)
        assert app.get_by_role("alert").count() == 0, f"{href} shows a message"
        app.close()
        assert app_log.javascript_errors() == [], href
