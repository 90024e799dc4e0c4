"""Three screens, one markup: a phone held upright, a projector for the back row, a desktop.

On a 390x844 touch screen every card of the learner's hand is on the screen at once (in rows
when one row is too few), each card a finger (44 px) wide and tall and what a tap at its
middle reaches, in every game and player count, in the bid trainer and in the replay (where
every hand shown face up comes onto the screen too, none hidden in a sideways strip).

At 1366x768 in Large mode, once a trick is finished, the trick is the largest thing on the
screen: its cards are the largest cards, its winner and deciding reasons are in text of 28 px
or more, nothing beside it (the last trick, the score table) is bigger, and the hand, the trick
and the board are all on the screen without scrolling, in the play app and in the replay.
At 1280x900 the desktop keeps its table: the hand in one row, the winner said once.

Every test leaves a screenshot in tests/artifacts (``screen-*.png``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .servers import ARTIFACTS, open_page, open_phone_page
from .test_browser_play import BOARD, play_url, take_one_decision, wait_ready

pytestmark = pytest.mark.browser

PROJECTOR = (1366, 768)
DESKTOP = (1280, 900)


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"screen-{name}.png"))


# --- the phone -----------------------------------------------------------------------------------

# every card of every hand on the table, with the learner's hand (the bottom seat) scrolled into
# view as a learner would: where each card lies, and whether a tap at its middle reaches it
HANDS = """() => {
  const own = document.querySelector('.tricklab-board .tl-pos-s');
  own.scrollIntoView({block: 'end'});
  return [...document.querySelectorAll('.tricklab-board .tl-seat .tl-cards > .tl-card')]
    .filter(card => !card.querySelector('.tl-back'))
    .map(card => {
      const r = card.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return {card: card.getAttribute('aria-label'), own: own.contains(card), left: r.left, right: r.right,
              top: r.top, bottom: r.bottom, width: r.width, height: r.height,
              reached: !!hit && (hit === card || card.contains(hit))};
    });
}"""


def scroll_boxes_without_focus(page: Any) -> list[str]:
    """axe-core's ``scrollable-region-focusable``: a box that scrolls but that no key can reach."""
    from axe_playwright_python.sync_playwright import Axe

    rule = {"runOnly": {"type": "rule", "values": ["scrollable-region-focusable"]}, "resultTypes": ["violations"]}
    found = Axe().run(page, options=rule).response["violations"]
    return [" ".join(map(str, node["target"])) for v in found for node in v["nodes"]]


def assert_every_card_in_view(page: Any, name: str, *, at_least: int) -> None:
    """Every card of the learner's hand on the screen at once, 44 px or more each way and reached
    by a tap; every other hand shown face up within the screen's width (never a hidden strip, nor
    a box that scrolls where no key reaches)."""
    assert scroll_boxes_without_focus(page) == []
    cards = page.evaluate(HANDS)
    width, height = page.evaluate("() => [innerWidth, innerHeight]")
    own = [c for c in cards if c["own"]]
    try:
        assert len(own) >= at_least, own
        for card in own:
            assert card["left"] >= 0 and card["right"] <= width, card
            assert card["top"] >= 0 and card["bottom"] <= height, card
            assert card["width"] >= 44 and card["height"] >= 44, card
            assert card["reached"], ("a tap at its middle reaches something else", card)
        for card in cards:
            assert card["left"] >= 0 and card["right"] <= width, card
    except AssertionError:
        screenshot(page, f"{name}-failed")
        raise
    screenshot(page, name)


@pytest.mark.parametrize(
    ("query", "cards"),
    [
        ("game=tricks-and-stones&players=3&seed=3", 8),
        ("game=tricks-and-stones&players=4&seed=3", 8),
        ("game=band-of-tricks&players=3&seed=3", 13),
        ("game=band-of-tricks&players=4&seed=3", 10),
        ("game=jewel-vault&players=2&seed=3", 10),
        ("game=jewel-vault&players=6&seed=3", 8),
    ],
)
def test_every_card_of_the_hand_is_on_a_phone_at_once(voila_url: str, browser: Any, query: str, cards: int) -> None:
    page, log = open_phone_page(browser, play_url(voila_url, query))
    wait_ready(page)
    game, players = re.findall(r"game=([a-z-]+)&players=(\d)", query)[0]
    assert_every_card_in_view(page, f"phone-{game}-{players}", at_least=cards)
    page.context.close()
    assert log.javascript_errors() == []


@pytest.mark.parametrize(
    ("app", "query", "cards"),
    [
        ("replay", "game=band-of-tricks&players=3&seed=3&step=1", 13),  # every hand face up
        ("bid_trainer", "game=band-of-tricks&players=4&seed=3", 10),
    ],
)
def test_every_card_of_the_hand_is_on_a_phone_in_the_replay_and_the_trainer(
    voila_url: str, browser: Any, app: str, query: str, cards: int
) -> None:
    page, log = open_phone_page(browser, f"{voila_url}/voila/render/{app}.ipynb?{query}")
    wait_ready(page)
    assert_every_card_in_view(page, f"phone-{app}", at_least=cards)
    page.context.close()
    assert log.javascript_errors() == []


def test_a_mandala_hand_is_on_a_phone_whole(voila_url: str, browser: Any) -> None:
    """Mandala's hand is its colours: each on the screen, none in a strip that scrolls sideways."""
    page, log = open_phone_page(browser, play_url(voila_url, "game=mandala&seed=3"))
    mine = page.locator(f"{BOARD} .tl-player").first
    mine.wait_for(timeout=90_000)
    mine.scroll_into_view_if_needed()
    chips = mine.locator(".tl-line").first.locator(".tl-chip")
    assert chips.count() >= 1
    width = page.evaluate("() => innerWidth")
    for box in [chip.bounding_box() for chip in chips.all()]:
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    screenshot(page, "phone-mandala")
    page.context.close()
    assert log.javascript_errors() == []


# --- the projector -------------------------------------------------------------------------------

# sizes on the screen once a trick is finished: the trick's cards and every other card shown,
# the text of its winner and reasons, the boxes beside it and what scrolled
PROJECTED = """() => {
  const board = document.querySelector('.tricklab-board');
  const box = e => { const r = e.getBoundingClientRect(); return {x: r.left, y: r.top, right: r.right,
                     bottom: r.bottom, width: r.width, height: r.height, area: r.width * r.height}; };
  const shown = e => e.offsetParent !== null && e.getBoundingClientRect().width > 0;
  const trick = [...board.querySelectorAll('.tl-centre .tl-trick .tl-card')];
  const others = [...board.querySelectorAll('.tl-card')].filter(c => shown(c) && !trick.includes(c));
  const size = sel => { const e = board.querySelector(sel); return e && shown(e)
                        ? parseFloat(getComputedStyle(e).fontSize) : 0; };
  const beside = [...board.querySelectorAll('.tl-panels .tl-score-table, .tl-panels .tl-podium, .tl-last-trick')]
    .filter(shown).map(e => ({what: e.className, ...box(e)}));
  const panelText = Math.max(0, ...[...board.querySelectorAll('.tl-panels *, .tl-last-trick *')]
    .filter(e => shown(e) && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
    .map(e => parseFloat(getComputedStyle(e).fontSize)));
  const scrolled = [document.scrollingElement, ...document.querySelectorAll('body *')]
    .filter(e => e.scrollTop > 0 || e.scrollLeft > 0).map(e => e.tagName + '.' + e.className);
  return {
    trick: trick.map(c => box(c).width), others: others.map(c => ({card: c.getAttribute('aria-label'),
    width: box(c).width})), winner: size('.tl-centre .tl-finished-winner'),
    reasons: [...board.querySelectorAll('.tl-centre .tl-deciding li')]
      .map(e => parseFloat(getComputedStyle(e).fontSize)),
    centre: box(board.querySelector('.tl-centre')), hand: box(board.querySelector('.tl-pos-s')),
    panel: box(board.querySelector('.tl-panels > :first-child')), beside, panelText, scrolled,
    header: box(document.querySelector('.tricklab-app-header')), view: [innerWidth, innerHeight],
  };
}"""


def assert_built_for_the_back_row(page: Any, name: str) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    seen = page.evaluate(PROJECTED)
    width, height = seen["view"]
    try:
        assert seen["trick"], "a trick is on the table"
        smallest = min(seen["trick"])
        assert all(other["width"] < smallest for other in seen["others"]), (smallest, seen["others"])
        assert seen["winner"] >= 28, "its winner is readable from the back row"
        assert seen["reasons"] and min(seen["reasons"]) >= 28, "its deciding reasons too"
        for what in ("centre", "hand", "panel"):
            part = seen[what]
            assert part["x"] >= 0 and part["right"] <= width, (what, part)
            assert part["y"] >= 0 and part["bottom"] <= height, (what, part)
        assert seen["scrolled"] == [], "nothing was scrolled to show them"
        for other in seen["beside"]:
            assert other["area"] < seen["centre"]["area"], ("bigger than the trick", other)
        assert seen["panelText"] < min(seen["reasons"]), "the panels' text is smaller than the trick's"
        assert seen["header"]["height"] <= 44, "the title is one compact line"
    except AssertionError:
        screenshot(page, f"{name}-failed")
        raise
    screenshot(page, name)


def _play_to_a_finished_trick(page: Any) -> Any:
    board = wait_ready(page)
    for _ in range(40):
        if board.get_attribute("data-paused") == "trick":
            break
        take_one_decision(page)
    expect(board).to_have_attribute("data-paused", "trick")
    page.wait_for_timeout(500)  # the last card's slide in
    return board


@pytest.mark.parametrize("query", ["game=tricks-and-stones&players=4&seed=3", "game=jewel-vault&players=5&seed=3"])
def test_the_finished_trick_is_built_for_the_back_row(voila_url: str, browser: Any, query: str) -> None:
    page, log = open_page(browser, play_url(voila_url, query + "&large=1"), viewport=PROJECTOR)
    board = _play_to_a_finished_trick(page)
    game = query.split("&")[0].removeprefix("game=")
    assert_built_for_the_back_row(page, f"projector-{game}")
    # the last trick, asked for, stays smaller than the trick on the table
    board.locator("[data-intent='last-trick']").click()
    expect(board.locator(".tl-last-trick")).to_have_count(1)
    seen = page.evaluate(PROJECTED)
    assert all(other["width"] < min(seen["trick"]) for other in seen["others"])
    page.close()
    assert log.javascript_errors() == []


@pytest.mark.parametrize(
    "query",
    ["game=tricks-and-stones&players=4&seed=3&step=10", "game=band-of-tricks&players=3&seed=3&step=7"],
)
def test_the_replays_finished_trick_is_built_for_the_back_row(voila_url: str, browser: Any, query: str) -> None:
    """The teacher's replay shows every hand face up: the bottom hand still fits under the trick."""
    page, log = open_page(browser, f"{voila_url}/voila/render/replay.ipynb?{query}&large=1", viewport=PROJECTOR)
    page.locator(f"{BOARD} .tl-centre .tl-finished").wait_for(timeout=90_000)
    page.wait_for_timeout(300)
    game = query.split("&")[0].removeprefix("game=")
    assert_built_for_the_back_row(page, f"projector-replay-{game}")
    expect(page.locator(f"{BOARD} .tl-step-no")).to_be_visible()  # the step number stays
    page.close()
    assert log.javascript_errors() == []


# --- the desktop ---------------------------------------------------------------------------------


def test_the_desktop_keeps_its_table(voila_url: str, browser: Any) -> None:
    """At 1280x900 without Large: the hand in one row, the finished trick's caption says who won
    (the projector's big winner line is not shown), the trick and the hand on the screen."""
    page, log = open_page(browser, play_url(voila_url, "game=band-of-tricks&players=4&seed=3"), viewport=DESKTOP)
    board = _play_to_a_finished_trick(page)
    expect(board.locator(".tl-finished-caption")).to_be_visible()
    expect(board.locator(".tl-finished-winner")).to_be_hidden()
    tops = {round(box["y"]) for box in (c.bounding_box() for c in board.locator(".tl-pos-s .tl-card").all()) if box}
    assert len(tops) == 1, "the hand is one row"
    screenshot(page, "desktop-band-of-tricks")
    page.close()
    assert log.javascript_errors() == []
