"""The same markup at every width: a phone played by tapping alone, a projector in Large mode.

At 390x844 with a touch screen a whole round of each game is played by tapping, and after
every few taps the page has no horizontal scroll, nothing of the board is wider than the board,
and every card of the learner's hand is a finger wide and within the screen's width
(tests/test_browser_screens.py checks that the whole hand is on the screen at once). At
1366x768 in Large mode the trick, the hand and the game's first panel are all on the screen
without scrolling.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .servers import ARTIFACTS, open_page, open_phone_page
from .test_browser_play import BOARD, play_url, take_one_decision, wait_ready

pytestmark = pytest.mark.browser

GAMES = [
    "game=tricks-and-stones&players=4&seed=3",
    "game=band-of-tricks&players=4&seed=3",
    "game=jewel-vault&players=4&seed=3",
]


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def game_of(query: str) -> str:
    return query.split("&")[0].removeprefix("game=")


# what overflows: the page sideways, any of the page's own scrolling boxes sideways, or the board
# beyond its own width (a box that hides overflow would clip that part: chambers 4-5, a Total column)
OVERFLOW = """() => {
  const out = [];
  const page = document.scrollingElement;
  if (page.scrollWidth > innerWidth) out.push(`page ${page.scrollWidth} > ${innerWidth}`);
  for (const e of document.querySelectorAll('body *')) {
    if (e.closest('.tricklab')) continue;
    const x = getComputedStyle(e).overflowX;
    if ((x === 'auto' || x === 'scroll') && e.scrollWidth > e.clientWidth + 1) {
      out.push(`${e.tagName}.${e.className} ${e.scrollWidth} > ${e.clientWidth}`);
    }
  }
  for (const board of document.querySelectorAll('.tricklab-board')) {
    if (board.scrollWidth > board.clientWidth + 1) {
      const edge = board.getBoundingClientRect().right;
      const wide = [...board.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right > edge + 1)
        .filter(e => { for (let a = e.parentElement; a && a !== board; a = a.parentElement) {
          if (getComputedStyle(a).overflowX !== 'visible') return false; } return true; })
        .slice(0, 3).map(e => `${e.tagName}.${e.getAttribute('class')}`);
      out.push(`board ${board.scrollWidth} > ${board.clientWidth}: ${wide.join(', ')}`);
    }
    const r = board.getBoundingClientRect();
    if (r.left < 0 || r.right > innerWidth + 1) out.push(`board at ${r.left}..${r.right}`);
  }
  return out;
}"""

# each card of the learner's hand: its width, and where it lies once scrolled into view
HAND = """() => [...document.querySelectorAll('.tricklab-board .tl-pos-s .tl-cards > .tl-card')].map(card => {
  card.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const r = card.getBoundingClientRect();
  return {card: card.getAttribute('aria-label'), width: r.width, left: r.left, right: r.right};
})"""


def assert_fits_the_phone(page: Any) -> None:
    assert page.evaluate(OVERFLOW) == []
    hand = page.evaluate(HAND)
    width = page.evaluate("() => innerWidth")
    for card in hand:
        assert card["width"] >= 44, card
        assert card["left"] >= 0 and card["right"] <= width, card


def tap_one_decision(page: Any) -> str:
    """Tap what a learner would (as ``take_one_decision`` clicks it)."""
    return take_one_decision(page, tap=True)


@pytest.mark.parametrize("query", GAMES)
def test_a_whole_round_on_a_phone_by_tapping_alone(voila_url: str, browser: Any, query: str) -> None:
    page, log = open_phone_page(browser, play_url(voila_url, query))
    board = wait_ready(page)
    assert_fits_the_phone(page)
    screenshot(page, f"phone-{game_of(query)}-start")
    taps = []
    for i in range(300):
        if board.get_attribute("data-paused") == "round":
            break
        taps.append(tap_one_decision(page))
        if i % 4 == 3:
            assert_fits_the_phone(page)
        if len(taps) == 9:
            screenshot(page, f"phone-{game_of(query)}-mid")
    expect(board).to_have_attribute("data-rounds", "1")
    assert_fits_the_phone(page)
    assert any(t.startswith("play ") for t in taps) and "continue" in taps
    screenshot(page, f"phone-{game_of(query)}-round-over")
    page.context.close()
    assert log.javascript_errors() == []


# the element is on the screen and is what a tap at its centre reaches (nothing clips or covers it)
REACHABLE = """(e) => {
  e.scrollIntoView({block: 'center', inline: 'center'});
  const r = e.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width,
          hit: !!hit && (e === hit || e.contains(hit))};
}"""


def assert_reachable(page: Any, element: Any, what: str) -> None:
    box = element.evaluate(REACHABLE)
    width, height = page.evaluate("() => [innerWidth, innerHeight]")
    assert box["width"] > 0, what
    assert box["left"] >= 0 and box["right"] <= width, (what, box)
    assert box["top"] >= 0 and box["bottom"] <= height, (what, box)
    assert box["hit"], (what, "is covered or clipped", box)


@pytest.mark.parametrize(
    ("query", "last_column"),
    [("game=tricks-and-stones&players=4&seed=3", "Total"), ("game=jewel-vault&players=4&seed=3", "Points")],
)
def test_every_chamber_and_column_is_reachable_on_a_phone(
    voila_url: str, browser: Any, query: str, last_column: str
) -> None:
    page, log = open_phone_page(browser, play_url(voila_url, query))
    board = wait_ready(page)
    chambers = board.locator(".tl-chamber")
    if "tricks-and-stones" in query:
        expect(chambers).to_have_count(6)
        for i in range(6):
            assert_reachable(page, chambers.nth(i), f"chamber {i}")
    heading = board.locator(".tl-score-table th", has_text=last_column).first
    assert_reachable(page, heading, f"the {last_column} column")
    for cell in board.locator(".tl-score-table tbody tr td:last-child").all():
        assert_reachable(page, cell, f"a {last_column} cell")
    screenshot(page, f"phone-{game_of(query)}-panels")
    page.context.close()
    assert log.javascript_errors() == []


def on_screen(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    width, height = page.evaluate("() => [innerWidth, innerHeight]")
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)
    return box  # type: ignore[no-any-return]


def assert_projector_fits(page: Any) -> None:
    try:
        for selector in (f"{BOARD} .tl-centre", f"{BOARD} .tl-pos-s", f"{BOARD} .tl-panels > :first-child"):
            on_screen(page, selector)
    except AssertionError:
        screenshot(page, "projector-does-not-fit")
        raise
    scrolled = page.evaluate(
        "() => [document.scrollingElement, ...document.querySelectorAll('body *')]"
        ".filter(e => e.scrollTop > 0 && !e.closest('.tricklab')).length"
    )
    assert scrolled == 0, "nothing was scrolled to show them"


@pytest.mark.parametrize("query", GAMES)
def test_large_mode_fits_a_projector(voila_url: str, browser: Any, query: str) -> None:
    page, log = open_page(browser, play_url(voila_url, query), viewport=(1366, 768))
    board = wait_ready(page)
    page.get_by_role("button", name="Large", exact=True).click()
    expect(board).to_have_class(re.compile(r"\btl-large\b"))
    assert_projector_fits(page)
    screenshot(page, f"projector-{game_of(query)}-start")
    for _ in range(40):  # on to the first finished trick, the tallest thing the middle shows
        if board.get_attribute("data-paused") == "trick":
            break
        board.locator("[data-intent]").first.wait_for()
        _click_one(page)
        assert_projector_fits(page)
    expect(board).to_have_attribute("data-paused", "trick")
    assert_projector_fits(page)
    screenshot(page, f"projector-{game_of(query)}-trick")
    page.close()
    assert log.javascript_errors() == []


def _click_one(page: Any) -> None:
    """One decision with the mouse, as on a projector's laptop (the same choices as a tap), the
    view then back at the top."""
    page.evaluate("() => window.scrollTo(0, 0)")
    take_one_decision(page)
    _scroll_back(page)


def _scroll_back(page: Any) -> None:
    """Clicking may scroll a box to show its target: the projector's view starts from the top again."""
    page.evaluate(
        "() => [document.scrollingElement, ...document.querySelectorAll('body *')]"
        ".forEach(e => { if (e.scrollTop > 0 && !e.closest('.tricklab')) e.scrollTop = 0; })"
    )


@pytest.mark.parametrize(("name", "viewport"), [("desktop", (1280, 900)), ("tablet", (768, 1024))])
def test_a_desktop_or_tablet_keeps_the_table_around_the_trick(
    voila_url: str, browser: Any, name: str, viewport: tuple[int, int]
) -> None:
    page, log = open_page(browser, play_url(voila_url, GAMES[0]), viewport=viewport)
    board = wait_ready(page)
    centre = board.locator(".tl-centre").bounding_box()
    west = board.locator(".tl-pos-w").bounding_box()
    east = board.locator(".tl-pos-e").bounding_box()
    assert west and east and centre
    assert west["x"] + west["width"] <= centre["x"] <= east["x"], "opponents sit beside the trick"
    expect(board.locator(".tl-pos-w .tl-card").first).to_be_visible()  # their backs are shown
    assert page.evaluate(OVERFLOW) == []
    screenshot(page, f"{name}-tricks-and-stones")
    page.close()
    assert log.javascript_errors() == []


# every control's label whole (a button too narrow for its label cuts it to "S." or "La…")
CUT_LABELS = """() => [...document.querySelectorAll('button, .widget-dropdown select, .widget-label')]
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .map(e => (e.innerText || e.getAttribute('aria-label') || e.title || e.tagName).trim())"""


@pytest.mark.parametrize(
    ("app", "query"),
    [
        ("play", "game=tricks-and-stones&players=4&seed=3&pace=0"),
        ("replay", "game=tricks-and-stones&players=4&seed=3"),
        ("quiz", "game=tricks-and-stones"),
        ("explain_trick", "game=tricks-and-stones&players=4"),
    ],
)
def test_controls_fit_a_phone(voila_url: str, browser: Any, app: str, query: str) -> None:
    page, log = open_phone_page(browser, f"{voila_url}/voila/render/{app}.ipynb?{query}")
    page.locator(BOARD).first.wait_for(timeout=90_000)
    page.wait_for_timeout(300)
    assert page.evaluate(CUT_LABELS) == []
    assert page.evaluate(OVERFLOW) == []
    if app == "replay":
        box = page.get_by_role("textbox", name="Step").bounding_box()
        assert box is not None and box["width"] >= 60, "the step box keeps a usable width"
    screenshot(page, f"phone-{app}")
    page.context.close()
    assert log.javascript_errors() == []
