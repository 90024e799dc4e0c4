"""Learning from one's own game, in Chromium: a finished trick on the table, a round's sheet that
waits, a hint with its reasons, the review of a round, and the game-over link to the replay."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from .servers import ARTIFACTS, open_page
from .test_browser_play import BOARD, play_url, take_one_decision, wait_ready

pytestmark = pytest.mark.browser


def play_until(page: Any, done: Any, limit: int = 400) -> list[str]:
    """Click as a learner would (Continue included) until ``done(board)``."""
    board = page.locator(BOARD)
    clicks = []
    for _ in range(limit):
        if done(board):
            return clicks
        clicks.append(take_one_decision(page))
    raise AssertionError(f"not there after {limit} clicks: {clicks[-5:]}")


def paused(kind: str) -> Any:
    return lambda board: board.get_attribute("data-paused") == kind


def still_after(board: Any, attribute: str, value: str, seconds: float = 1.5) -> None:
    """The bots play at once in these pages: a pause that holds for a while is the learner's."""
    time.sleep(seconds)
    expect(board).to_have_attribute(attribute, value)


def test_a_finished_trick_stays_on_the_table_with_every_card_and_the_winner(voila_url: str, browser: Any) -> None:
    page, log = open_page(browser, play_url(voila_url, "game=tricks-and-stones&players=4&seed=3"))
    board = wait_ready(page)
    play_until(page, paused("trick"))
    finished = board.locator(".tl-finished")
    expect(finished.locator(".tl-in-trick")).to_have_count(4)
    expect(finished.locator(".tl-winner")).to_have_count(1)
    expect(finished.locator(".tl-deciding li").first).to_be_visible()
    expect(finished).to_contain_text("wins trick 1")
    step = board.get_attribute("data-step") or ""
    still_after(board, "data-step", step)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "play-finished-trick.png"))
    board.locator("[data-intent='continue']").click()
    expect(board.locator(".tl-finished")).to_have_count(0)
    board.locator("[data-intent='last-trick']").click()  # the last trick, one click away
    expect(board.locator(".tl-last-trick .tl-in-trick")).to_have_count(4)
    page.close()
    assert log.javascript_errors() == []


def test_a_rounds_sheet_stays_until_continued_and_its_review_lists_the_decisions(voila_url: str, browser: Any) -> None:
    page, log = open_page(browser, play_url(voila_url, "game=band-of-tricks&players=4&seed=3"))
    board = wait_ready(page)
    play_until(page, paused("round"))
    sheet = board.locator(".tl-sheet")
    expect(sheet).to_contain_text("Deal 1 is over")  # Band of Tricks has deals
    expect(sheet).to_contain_text("Deal 1 scored")
    still_after(board, "data-paused", "round")
    board.get_by_role("button", name="Review my decisions in this deal").click()
    review = page.locator(".tl-review")
    expect(review).to_be_visible(timeout=60_000)
    expect(review.locator(".tl-review-row").first).to_be_visible()
    rows = review.locator(".tl-review-row").count()
    assert rows >= 2, "a bid and cards, at least"
    expect(review).to_contain_text(re.compile(r"The costliest decision|Every decision was the best"))
    assert re.search(r"\d+\.\d", review.locator(".tl-review-row").first.inner_text()), "figures for each decision"
    page.screenshot(path=str(ARTIFACTS / "play-review.png"), full_page=True)
    board.get_by_role("button", name="Start deal 2").click()
    expect(board.locator(".tl-sheet")).to_have_count(0)
    page.close()
    assert log.javascript_errors() == []


def test_a_hint_names_the_action_and_shows_its_reasons(voila_url: str, browser: Any) -> None:
    page, log = open_page(browser, play_url(voila_url, "game=jewel-vault&players=4&seed=3"))
    board = wait_ready(page)
    play_until(page, lambda b: b.locator("button.tl-card.tl-legal[data-intent='play']").count() > 0)
    page.get_by_role("button", name="Hint").click()
    hint = board.locator(".tl-hint")
    expect(hint).to_contain_text(re.compile(r"Hint: Play .+"))
    expect(hint.locator("li[data-rule^='jv.']").first).to_be_visible()  # the rules behind the judge's choice
    expect(hint.locator("li[data-rule^='bot.jv.']")).to_have_count(1)
    page.close()
    assert log.javascript_errors() == []


def test_the_game_over_link_reopens_the_same_match_in_the_replay(voila_url: str, browser: Any) -> None:
    page, log = open_page(browser, play_url(voila_url, "game=jewel-vault&players=2&seed=3"))
    board = wait_ready(page)
    play_until(page, lambda b: b.get_attribute("data-over") == "true")
    final = board.locator(".tl-final")
    expect(final).to_contain_text("The game is over")
    expect(board.get_by_role("button", name="New deal")).to_be_visible()
    href = board.get_by_role("link", name="Open this game in the replay app").get_attribute("href") or ""
    assert href.startswith("replay.ipynb?") and "moves=" in href
    replay, replay_log = open_page(browser, f"{voila_url}/voila/render/{href}")
    replay.locator(f"{BOARD} .tl-card").first.wait_for(timeout=90_000)
    expect(replay.locator(".tricklab-app-header h2")).to_contain_text("Replay of a played game")
    expect(replay.locator(".tricklab-app-header [role='alert']")).to_have_count(0)
    replay.locator(BOARD).press("End")
    expect(replay.locator(BOARD)).to_contain_text("wins with")
    replay.close()
    page.close()
    assert log.javascript_errors() == [] and replay_log.javascript_errors() == []
