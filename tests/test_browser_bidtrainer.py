"""The bid trainer in Chromium: a tried bid shows charts, and the same seed the same numbers."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .servers import ARTIFACTS, open_page

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"


def try_once(voila_url: str, browser: Any, query: str, clicks: list[tuple[str, str]]) -> tuple[dict[str, str], str]:
    page, log = open_page(browser, f"{voila_url}/voila/render/bid_trainer.ipynb?{query}")
    board = page.locator(BOARD)
    board.locator(".tl-card").first.wait_for(timeout=90_000)
    for intent, value in clicks:
        board.locator(f"[data-intent='{intent}'][data-value='{value}']").click()
    page.get_by_role("button", name="Try it").click()
    expect(board.locator(".tl-chart").first).to_be_visible(timeout=60_000)
    numbers = {key: board.get_attribute(f"data-{key}") or "" for key in ("tried", "best", "mean", "exact")}
    sentence = board.locator(".tl-advice-sentence").inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"bid_trainer-{query.split('&')[0][5:]}.png"), full_page=True)
    page.close()
    assert log.javascript_errors() == []
    return numbers, sentence


@pytest.mark.parametrize(
    ("query", "clicks", "tried"),
    [
        ("game=tricks-and-stones&players=4&seed=12", [("predict", "3")], "predict 3"),
        ("game=band-of-tricks&players=4&seed=12", [("bid", "rock:+1"), ("bid", "pops:+1")], "bid 1 1 1"),
    ],
)
def test_a_tried_bid_shows_charts_and_the_same_seed_gives_the_same_numbers(
    voila_url: str, browser: Any, query: str, clicks: list[tuple[str, str]], tried: str
) -> None:
    first, sentence = try_once(voila_url, browser, query, clicks)
    assert first["tried"] == tried and first["mean"] and first["best"]
    assert "about" in sentence and "%" in sentence
    second, again = try_once(voila_url, browser, query, clicks)
    assert second == first and again == sentence
