"""PlayTable in Chromium: a full round of each game played by clicking alone."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

import tricklab

from .servers import ARTIFACTS, open_page

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"


def play_url(voila_url: str, query: str) -> str:
    return f"{voila_url}/voila/render/play.ipynb?{query}&pace=0"


def wait_ready(page: Any) -> Any:
    board = page.locator(BOARD)
    board.locator(".tl-card").first.wait_for(timeout=90_000)
    return board


def take_one_decision(page: Any, *, tap: bool = False) -> str:
    """Click (or, on a touch screen, ``tap``) what a learner would: Continue, a legal card, or
    the first sensible choice offered."""

    def press(target: Any) -> None:
        target.tap() if tap else target.click()

    board = page.locator(BOARD)
    step = board.get_attribute("data-step")
    decision = board.locator(".tl-decision")
    go_on = board.locator("[data-intent='continue']")
    cards = board.locator("button.tl-card.tl-legal[data-intent='play']")
    if go_on.count():  # a finished trick or a round's sheet stays until the learner goes on
        target, what = go_on.first, "continue"
    elif cards.count():
        target = cards.first
        what = "play " + (target.get_attribute("data-value") or "")
    elif decision.count():
        if decision.locator("[data-intent='gem-mode']").count():
            target, what = decision.locator("[data-intent='act'][data-value='skip']"), "skip"
        elif decision.locator("[data-intent='bid']").count():
            target, what = decision.locator("[data-value='bid zero']"), "bid zero"  # 0 0 0 is Zero Success
        elif decision.locator("[data-intent='pick']").count():
            count = int(re.search(r"Pick (\d)", decision.inner_text()).group(1))  # type: ignore[union-attr]
            for i in range(count):
                press(decision.locator("[data-intent='pick']").nth(i))
                expect(decision.locator(".tl-picked")).to_have_count(i + 1)
            target, what = decision.locator("[data-intent='confirm']"), "pass"
        else:
            target = decision.locator("[data-intent='act']").first
            what = target.get_attribute("data-value") or "act"
    else:
        target = cards.first
        what = "play " + (target.get_attribute("data-value") or "")
    press(target)
    page.wait_for_function("([sel, step]) => document.querySelector(sel)?.dataset.step !== step", arg=[BOARD, step])
    return what


@pytest.mark.parametrize(
    "query",
    [
        "game=tricks-and-stones&players=4&seed=3",
        "game=band-of-tricks&players=4&seed=3",
        "game=jewel-vault&players=4&seed=3",
    ],
)
def test_a_full_round_by_clicking_alone(voila_url: str, browser: Any, query: str) -> None:
    page, log = open_page(browser, play_url(voila_url, query))
    board = wait_ready(page)
    clicks = []
    for _ in range(300):
        if board.get_attribute("data-paused") == "round":
            break
        if board.get_attribute("data-paused") != "trick":
            expect(board).to_have_attribute("data-turn", "true")
        clicks.append(take_one_decision(page))
    expect(board).to_have_attribute("data-rounds", "1")
    word = tricklab.get_rules(parse_qs(query)["game"][0], players=4).capabilities.round_word.capitalize()
    expect(board.get_by_text(f"{word} 1 is over")).to_be_visible()  # a deal in Band of Tricks
    assert "continue" in clicks, "every finished trick waited for the learner"
    assert any(c.startswith("play ") for c in clicks)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"play-{query.split('&')[0][5:]}.png"), full_page=True)
    page.close()
    assert log.javascript_errors() == []


def test_an_illegal_click_is_explained_and_changes_nothing(voila_url: str, browser: Any) -> None:
    page, log = open_page(browser, play_url(voila_url, "game=tricks-and-stones&players=4&seed=11"))
    board = wait_ready(page)
    for _ in range(60):
        if board.locator("button.tl-card.tl-not-legal[data-intent='play']").count():
            break
        take_one_decision(page)
    illegal = board.locator("button.tl-card.tl-not-legal[data-intent='play']").first
    step = board.get_attribute("data-step")
    hand = board.locator("button.tl-card[data-intent='play']").count()
    # aria-disabled, and described by the engine's sentence of why; a click still reaches Python
    # (Playwright would wait for an aria-disabled button to be enabled, so it is forced)
    expect(illegal).to_have_attribute("aria-disabled", "true")
    why = board.locator(f"#{illegal.get_attribute('aria-describedby')}")
    assert re.search(r"You must follow|trumps are not broken", why.inner_text())
    illegal.click(force=True)
    alert = page.locator(".tricklab-said")  # the table's message, in its live region above the board
    expect(alert).to_be_visible()
    assert re.search(r"You must follow|trumps are not broken", alert.inner_text())
    assert board.get_attribute("data-step") == step
    assert board.locator("button.tl-card[data-intent='play']").count() == hand
    page.close()
    assert log.javascript_errors() == []
