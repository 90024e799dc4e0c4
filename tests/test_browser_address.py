"""The address is the state, in Chromium: each app writes what it shows into the page's address
(replaced, never pushed), "Copy link" copies it, and that link opened in a new page shows the
same thing. A reason's rule id opens the rulebooks app at its clause."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

import tricklab
from tricklab.links import match_from_moves

from .servers import open_page
from .test_browser_play import take_one_decision

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"


def render(voila_url: str, app: str, query: str = "") -> str:
    return f"{voila_url}/voila/render/{app}.ipynb" + (f"?{query}" if query else "")


def ready(page: Any) -> Any:
    board = page.locator(BOARD).first
    board.locator(".tl-card").first.wait_for(timeout=90_000)
    return board


def query_of(page: Any) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(page.url).query).items()}


def wait_address(page: Any, name: str, value: str) -> None:
    page.wait_for_function(
        "([name, value]) => new URLSearchParams(location.search).get(name) === value", arg=[name, value]
    )


def copy_link(page: Any) -> str:
    """Press Copy link; the link copied (or shown selected where the clipboard is refused)."""
    button = page.locator(f"{BOARD} [data-intent='copy-link']").first
    button.click()
    expect(button).to_have_text("Link copied")
    copied: str = page.evaluate("navigator.clipboard.readText()")
    return copied


class Clipboard:
    """A browser context whose pages may use the clipboard, opened as ``open_page`` opens them."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])

    def new_page(self, viewport: dict[str, int]) -> Any:
        page = self.context.new_page()
        page.set_viewport_size(viewport)
        return page


@pytest.fixture
def context(browser: Any) -> Any:
    clipboard = Clipboard(browser)
    yield clipboard
    clipboard.context.close()


def test_replay_step_replaces_the_address_and_the_copied_link_opens_that_step(voila_url: str, context: Any) -> None:
    page, log = open_page(context, render(voila_url, "replay", "game=tricks-and-stones&players=4&seed=7&step=2"))
    board = ready(page)
    wait_address(page, "step", "2")
    length = page.evaluate("history.length")
    board.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    wait_address(page, "step", "5")
    assert page.evaluate("history.length") == length, "the address is replaced, not pushed"
    link = copy_link(page)
    assert link == page.url and query_of(page)["step"] == "5"
    again, again_log = open_page(context, link)
    expect(ready(again)).to_have_attribute("data-step", "5")
    assert log.javascript_errors() == [] and again_log.javascript_errors() == []
    page.close()
    again.close()


def test_explainer_cards_are_in_the_address_and_the_link(voila_url: str, context: Any) -> None:
    page, _ = open_page(context, render(voila_url, "explain_trick", "game=tricks-and-stones&players=4&trump=H"))
    board = ready(page)
    for card in ("7H", "AH", "8S"):
        board.locator(f".tl-deck [data-value='{card}']").click()
    wait_address(page, "cards", "7H AH 8S")
    assert query_of(page)["trump"] == "H"
    link = copy_link(page)
    again, _ = open_page(context, link)
    used = ready(again).locator(".tl-deck .tl-not-legal")
    expect(used).to_have_count(3)
    assert sorted(used.evaluate_all("els => els.map(e => e.dataset.value)")) == ["7H", "8S", "AH"]
    page.close()
    again.close()


def test_quiz_question_is_in_the_address_and_the_link_asks_it(voila_url: str, context: Any) -> None:
    page, _ = open_page(context, render(voila_url, "quiz", "game=tricks-and-stones&players=4&seed=3"))
    board = ready(page)
    wait_address(page, "question", "1")
    board.locator("[data-intent='answer']").first.click()
    page.get_by_role("button", name="Next ▶").click()
    wait_address(page, "question", "2")
    cards = board.locator(".tl-card").evaluate_all("els => els.map(e => e.dataset.value)")
    again, _ = open_page(context, copy_link(page))
    again_board = ready(again)
    expect(again_board).to_have_attribute("data-step", "2")
    assert again_board.locator(".tl-card").evaluate_all("els => els.map(e => e.dataset.value)") == cards
    page.close()
    again.close()


def test_a_played_match_is_in_the_address_and_the_link_goes_on_from_there(voila_url: str, context: Any) -> None:
    page, _ = open_page(context, render(voila_url, "play", "game=tricks-and-stones&players=4&seed=5&pace=0"))
    board = ready(page)
    length = page.evaluate("history.length")
    for _ in range(4):
        take_one_decision(page)
    assert page.evaluate("history.length") == length
    link = copy_link(page)
    played = query_of(page)
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    before = match_from_moves(rules, 5, played["moves"])
    assert len(before.actions) >= 4
    again, log = open_page(context, link)
    ready(again)
    again.wait_for_function("new URLSearchParams(location.search).has('moves')")
    after = match_from_moves(rules, 5, query_of(again)["moves"])
    assert after.actions[: len(before.actions)] == before.actions, "the same match, from the same point"
    assert again.locator(".tricklab-message:visible").count() == 0  # the board's own stays hidden while empty
    assert board.count() == 1 and log.javascript_errors() == []
    page.close()
    again.close()


def test_a_rule_id_opens_the_rulebooks_at_its_clause(voila_url: str, browser: Any) -> None:
    page, _ = open_page(browser, render(voila_url, "explain_trick", "game=tricks-and-stones&players=4&cards=7H,AH"))
    link = ready(page).locator("a.tl-rule-id").first
    rule = link.inner_text()
    assert link.get_attribute("href") == f"rulebooks.ipynb#{rule}" and link.get_attribute("rel") == "noopener"
    with page.context.expect_page() as opened:
        link.click()
    rulebook = opened.value
    clause = rulebook.locator(f"[id='{rule}']")
    clause.wait_for(timeout=90_000)
    assert urlsplit(rulebook.url).path.endswith("/rulebooks.ipynb") and urlsplit(rulebook.url).fragment == rule
    expect(clause).to_contain_text(rule)
    page.close()
    rulebook.close()


@pytest.mark.parametrize("app", ["quiz", "bid_trainer"])
def test_new_deal_gives_the_next_seed(voila_url: str, browser: Any, app: str) -> None:
    page, _ = open_page(browser, render(voila_url, app, "game=tricks-and-stones&players=4&seed=3&large=1"))
    board = ready(page)
    expect(board).to_have_class(re.compile(r"\btl-large\b"))
    page.get_by_role("button", name="New deal").click()
    wait_address(page, "seed", "4")
    assert query_of(page)["large"] == "1"
    page.close()
