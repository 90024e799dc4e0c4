"""The review of a round, in Chromium, where the learner is looking: after the click its progress
and then its result are inside the viewport (desktop, phone, projector), every rated decision says
why in words with no chess mark, and a decision's moment opens on a board where another choice
can be tried and shows its figure."""

from __future__ import annotations

import re
import time
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tricklab.widgets import PlayTable

from .servers import ARTIFACTS, open_page, open_phone_page
from .test_browser_play import BOARD, take_one_decision

pytestmark = pytest.mark.browser

GAME, PLAYERS, SEED = "tricks-and-stones", 4, 5


def one_move_before_the_sheet() -> str:
    """A link to a match whose first round waits for the learner's last decision in it (played
    in process by taking the first legal action, then that last decision taken back)."""
    table = PlayTable(GAME, PLAYERS, seat=0, seed=SEED, pace=0)
    for _ in range(3000):
        if table.paused is not None and table.paused.kind == "round":
            break
        if table.paused is not None and not (table.live and table.my_turn):
            table.continue_(animate=False)
        else:
            table.act(table.match.legal_actions()[0])
    assert table.undo()
    return urlencode({"game": GAME, "players": str(PLAYERS), **table.link_state()})


def in_viewport(page: Any, locator: Any, within_s: float = 2.0) -> bool:
    """Whether the top of ``locator``'s box is inside the viewport (what the learner sees first),
    now or within ``within_s`` seconds (a scene drawn a moment later on a busy machine)."""
    size = page.viewport_size
    deadline = time.monotonic() + within_s
    while True:
        box = locator.bounding_box()
        if box is not None and -2 <= box["y"] < size["height"] - 20 and box["x"] < size["width"]:
            return True
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(100)


@pytest.mark.parametrize("size", ["desktop", "phone", "projector"])
def test_the_review_appears_in_view_says_why_and_retries_a_moment(voila_url: str, browser: Any, size: str) -> None:
    query = one_move_before_the_sheet() + ("&large=1" if size == "projector" else "")
    url = f"{voila_url}/voila/render/play.ipynb?{query}&pace=0"
    if size == "phone":
        page, log = open_phone_page(browser, url)
    else:
        page, log = open_page(browser, url, viewport=(1366, 768) if size == "projector" else (1280, 900))
    board = page.locator(BOARD)
    page.locator(f"{BOARD}[data-turn='true']").wait_for(timeout=120_000)  # the learner's last decision of the round
    for _ in range(20):
        if board.get_attribute("data-paused") == "round":
            break
        take_one_decision(page, tap=size == "phone")
    expect(board).to_have_attribute("data-paused", "round")
    button = board.get_by_role("button", name="Review my decisions in this round")
    button.scroll_into_view_if_needed()
    button.click()
    box = board.locator(".tl-review-box")
    expect(box).to_be_visible()
    assert in_viewport(page, box), "what the click started is where the learner looks"
    review = box.locator(".tl-review")
    expect(review).to_be_visible(timeout=120_000)
    assert in_viewport(page, box), "the result is in view"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"review-{size}.png"))
    rows = review.locator(".tl-review-row")
    count = rows.count()
    assert count >= 3, "a prediction and cards, at least"
    words = re.compile(r"the best choice|about the same as the best|a good choice|costs about [\d.]+ points")
    for i in range(count):
        row = rows.nth(i)
        text = row.inner_text()
        assert words.search(text), text
        assert not re.search(r"\?!|\?\?|\s\?\s|\s\?$", text), f"a chess mark: {text}"
        assert row.locator(".tl-review-why li").count() >= 2, f"no reason in words: {text}"
    links = review.locator(".tl-review-why a.tl-rule-id")
    assert links.count() > 0
    assert re.search(r"rulebooks\.ipynb#ts\.", links.first.get_attribute("href") or "")
    # a row opens its moment; another choice there is tried and shows its figure
    row = next(rows.nth(i) for i in range(count) if rows.nth(i).locator(".tl-review-why li").count() >= 2)
    row.get_by_role("button", name="Show this moment").click()
    moment = board.locator(".tl-moment")
    expect(moment).to_be_visible()
    assert in_viewport(page, moment), "the moment opens in view"
    expect(moment.locator(".tl-card").first).to_be_visible()  # the table as it was
    retry = moment.locator("[data-intent='review-retry']")
    assert retry.count() >= 2
    other = next(retry.nth(i) for i in range(retry.count()) if "(yours)" not in retry.nth(i).inner_text())
    other.click()
    result = board.locator(".tl-retry-result")
    expect(result).to_contain_text(re.compile(r"likely \u2212?\d+\.\d points"))
    expect(result).to_contain_text(re.compile(r"the best choice|about the same as the best|costs about"))
    page.screenshot(path=str(ARTIFACTS / f"review-moment-{size}.png"))
    if size == "phone":
        page.context.close()
    else:
        page.close()
    assert log.javascript_errors() == []
