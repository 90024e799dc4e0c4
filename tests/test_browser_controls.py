"""The controls a board draws from its scene, in the explain_trick app: keys, focus, labels,
a finger's width on a phone, projector size, and what Python holds after each change."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

import tricklab
from tricklab.display import card_label

from .servers import ARTIFACTS, open_page, open_phone_page
from .test_browser_a11y import assert_accessible

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"
CONTROLS = ".tricklab-controls"
#: the controls in the order a learner tabs through them
TAB_ORDER = ["Game", "Players", "Trump", "Large", "4 colours", "Trick", "Show", "Remove last", "Clear"]


def render(voila_url: str, query: str) -> str:
    return f"{voila_url}/voila/render/explain_trick.ipynb?{query}"


def focused_name(page: Any) -> str:
    """The accessible name of the focused control: its label's text, or a button's own text."""
    return str(
        page.evaluate(
            """() => { const e = document.activeElement;
                 return (e.labels && e.labels[0] ? e.labels[0].textContent : e.textContent).trim(); }"""
        )
    )


def wait_winner(page: Any, card: Any) -> None:
    """Wait until the trick shown names ``card`` as its winner (its picture's label)."""
    page.wait_for_function(
        "([sel, label]) => document.querySelector(sel)?.getAttribute('aria-label')?.startsWith(label)",
        arg=[f"{BOARD} .tl-trick .tl-winner", card_label(card)],
        timeout=30_000,
    )


def test_the_controls_are_labelled_and_taken_in_order_by_keys(voila_url: str, browser: Any) -> None:
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    page, log = open_page(browser, render(voila_url, "game=tricks-and-stones&players=4&cards=7H,8S"))
    try:
        page.locator(f"{BOARD} .tl-card").first.wait_for(timeout=90_000)
        # every control has a label that names it, and Tab goes through them in reading order
        page.get_by_label("Game").focus()
        seen = [focused_name(page)]
        for _ in TAB_ORDER[1:]:
            page.keyboard.press("Tab")
            seen.append(focused_name(page))
        assert seen == TAB_ORDER
        # typing a trick and Enter: Python ranks it, and the text box keeps the focus
        box = page.get_by_role("textbox", name="Trick")
        box.focus()
        box.fill("9d as 10d 7c")
        page.keyboard.press("Enter")
        expected = rules.resolve_trick(["9D", "AS", "10D", "7C"], trump="S").winning_card
        wait_winner(page, expected)
        expect(box).to_have_value("9D AS 10D 7C")  # as Python wrote it back
        assert focused_name(page) == "Trick"
        # the trump picker by keys: the next option, chosen; the picker keeps the focus
        trump = page.get_by_label("Trump")
        trump.focus()
        page.keyboard.press("ArrowDown")
        hearts = rules.resolve_trick(["9D", "AS", "10D", "7C"], trump="H").winning_card
        wait_winner(page, hearts)
        expect(trump).to_have_value("1")
        assert focused_name(page) == "Trump"
        # a toggle by Space: pressed, the board at projector size, the focus kept
        large = page.get_by_role("button", name="Large")
        large.focus()
        page.keyboard.press("Space")
        expect(large).to_have_attribute("aria-pressed", "true")
        expect(page.locator(BOARD)).to_have_class(re.compile(r"\btl-large\b"))
        expect(page.locator(CONTROLS)).to_have_class(re.compile(r"\btl-large\b"))
        assert focused_name(page) == "Large"
        page.wait_for_function("new URLSearchParams(location.search).get('large') === '1'")
        # a refused trick: the engine's words in the alert, the trick kept, then axe on that page
        box.fill("7H 7H")
        box.press("Enter")
        expect(page.get_by_role("alert")).to_contain_text("twice")
        assert page.locator(f"{BOARD} .tl-trick .tl-card").count() == 4
        assert_accessible(page, "explain_trick with a message, at projector size")
        # Clear by Enter empties the trick and keeps the focus on the button
        clear = page.get_by_role("button", name="Clear")
        clear.focus()
        page.keyboard.press("Enter")
        expect(page.locator(f"{BOARD} .tl-trick .tl-card")).to_have_count(0)
        # the message is gone: its live region stays in the page, empty and not shown
        expect(page.get_by_role("alert")).to_have_count(0)
        expect(page.locator(".tricklab-said")).to_have_text("")
        assert focused_name(page) == "Clear"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "controls-explain-trick.png"))
    finally:
        page.close()
    assert log.javascript_errors() == []


def test_the_controls_are_a_fingers_width_on_a_phone(voila_url: str, browser: Any) -> None:
    page, log = open_phone_page(browser, render(voila_url, "game=band-of-tricks&players=4&cards=P3,S5"))
    try:
        page.locator(f"{BOARD} .tl-card").first.wait_for(timeout=90_000)
        boxes = page.locator(f"{CONTROLS} :is(select, input, button)").evaluate_all(
            "els => els.filter(e => e.offsetParent).map(e => [e.textContent || e.id, e.getBoundingClientRect().width,"
            " e.getBoundingClientRect().height, e.getBoundingClientRect().right])"
        )
        assert len(boxes) == len(TAB_ORDER) - 1, "all but the trump picker: Band of Tricks has no trump"
        width = page.viewport_size["width"]
        for name, w, h, right in boxes:
            assert h >= 44 and w >= 44, f"{name} is {w:.0f}x{h:.0f}"
            assert right <= width, f"{name} goes past the screen's edge"
        # a tap on the players picker's option reaches Python: the trick is kept as far as it fits
        page.get_by_label("Players").select_option(label="3")
        page.wait_for_function("new URLSearchParams(location.search).get('players') === '3'", timeout=30_000)
        expect(page.locator(f"{BOARD} .tl-trick .tl-card")).to_have_count(2)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "controls-explain-trick-phone.png"))
    finally:
        page.context.close()
    assert log.javascript_errors() == []


def test_a_browser_that_cannot_inflate_is_sent_the_module_and_scenes_plain(voila_url: str, browser: Any) -> None:
    """Without DecompressionStream (a browser from before 2023) the carrier's deflated module and
    the deflated scenes cannot be read: the board asks its kernel for both as text and works."""
    from .servers import _watch

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.add_init_script("delete globalThis.DecompressionStream;")
    log = _watch(page, render(voila_url, "game=tricks-and-stones&players=4&cards=7H,8S"))
    try:
        board = page.locator(BOARD)
        expect(board.locator(".tl-trick .tl-card")).to_have_count(2, timeout=90_000)
        assert page.evaluate("typeof DecompressionStream") == "undefined"
        page.get_by_role("textbox", name="Trick").fill("9D AS 10D 7C")
        page.keyboard.press("Enter")
        rules = tricklab.get_rules("tricks-and-stones", players=4)
        wait_winner(page, rules.resolve_trick(["9D", "AS", "10D", "7C"], trump="S").winning_card)
        expect(board.locator(".tl-trick .tl-card")).to_have_count(4)
        assert log.javascript_errors() == []
    finally:
        page.close()
