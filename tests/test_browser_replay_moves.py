"""A way around a match, in Chromium: the replay's move list, its jumps by trick (turn) and
round with the buttons and the keys, and the page's address following each jump. Every step
expected is the engine's own (tricklab.movelist on the same bots' match)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

import tricklab
from tricklab.movelist import Outline, outline

from .servers import ARTIFACTS, open_page, open_phone_page

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"
LIST = ".tricklab-list"
#: the stepper's table, beside or above its move list inside the one board
TABLE = f"{BOARD} .tl-stepper-main"


def render(voila_url: str, query: str) -> str:
    return f"{voila_url}/voila/render/replay.ipynb?{query}"


def bots_match(game: str, players: int, seed: int) -> tricklab.Match:
    """The match the replay shows for these settings: the bots' match of the seed."""
    return tricklab.get_rules(game, players=players).play(seed)


def ready(page: Any) -> None:
    page.locator(f"{LIST} .tl-ml-entry").first.wait_for(timeout=90_000)
    page.locator(f"{BOARD} .tl-caption").wait_for()


def shown_step(page: Any) -> int:
    return int(page.locator(BOARD).get_attribute("data-step"))


def address_step(page: Any) -> str | None:
    return parse_qs(urlsplit(page.url).query).get("step", [None])[0]


def wait_at(page: Any, match: tricklab.Match, moves: Outline, step: int) -> None:
    """The board shows ``step`` with its caption, the list marks its move, and the address says it."""
    page.wait_for_function(
        "([sel, step]) => document.querySelector(sel)?.dataset.step === String(step)", arg=[BOARD, step]
    )
    page.wait_for_function("(step) => new URLSearchParams(location.search).get('step') === String(step)", arg=step)
    text = match.timeline()[step].event.text
    expect(page.locator(f"{BOARD} .tl-caption")).to_have_text(f"Step {step} of {moves.size - 1}: {text}")
    current = page.locator(f"{LIST} [aria-current='step']")
    expect(current).to_have_count(1)
    expect(current).to_have_attribute("data-value", str(moves.entry_at(step).step))
    expect(current).to_contain_text(moves.entry_at(step).label)


def in_sight(page: Any) -> bool:
    """Whether the marked move is inside its scrolling box's visible part."""
    return bool(
        page.evaluate(
            """() => {
        const item = document.querySelector('.tricklab-list [aria-current="step"]');
        const box = item?.closest('[data-keep-scroll]');
        if (!item || !box) return false;
        const a = item.getBoundingClientRect(), b = box.getBoundingClientRect();
        return a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
    }"""
        )
    )


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def test_the_move_list_the_buttons_and_the_keys_jump_to_the_right_step(voila_url: str, browser: Any) -> None:
    match = bots_match("tricks-and-stones", 4, 7)
    moves = outline(match)
    page, log = open_page(browser, render(voila_url, "game=tricks-and-stones&players=4&seed=7"), viewport=(1280, 900))
    ready(page)
    wait_at(page, match, moves, 0)
    # the list is beside the board, and holds the first round's tricks and moves, in words
    board, listed = page.locator(TABLE).bounding_box(), page.locator(LIST).bounding_box()
    assert board and listed and listed["x"] >= board["x"] + board["width"] - 1, "the list is beside the board"
    first = moves.rounds[0]
    titles = page.locator(f"{LIST} .tl-ml-title").all_inner_texts()
    assert titles == [part.title for part in first.parts]
    expect(page.locator(f"{LIST} .tl-ml-round-title")).to_have_count(len(moves.rounds))

    # a click on a move shows its step
    entry = first.parts[3].entries[2]
    page.locator(f"{LIST} .tl-ml-entry[data-value='{entry.step}']").click()
    wait_at(page, match, moves, entry.step)
    assert in_sight(page)

    # the buttons: the next and previous trick and round
    step = entry.step
    for name, find in [
        ("Trick ▶", moves.next_part),
        ("Trick ▶", moves.next_part),
        ("◀ Trick", moves.previous_part),
        ("Round ▶", moves.next_round),
        ("◀ Trick", moves.previous_part),  # back over the round's start: the last trick of the round before
        ("◀ Round", moves.previous_round),
    ]:
        found = find(step)
        assert found is not None and found != step
        page.get_by_role("button", name=name, exact=True).click()
        wait_at(page, match, moves, found)
        step = found
    assert step == moves.rounds[0].first

    # the keys, on the board: Shift+→ the next trick, Page Down the next round, End the last step
    page.locator(BOARD).focus()
    for key, find in [
        ("Shift+ArrowRight", moves.next_part),
        ("Shift+ArrowRight", moves.next_part),
        ("PageDown", moves.next_round),
        ("PageDown", moves.next_round),
        ("ArrowRight", lambda s: s + 1),
        ("Shift+ArrowLeft", moves.previous_part),
        ("PageUp", moves.previous_round),
    ]:
        found = find(step)
        assert found is not None
        page.keyboard.press(key)
        wait_at(page, match, moves, found)
        step = found
        assert in_sight(page), "the list scrolls to the move shown"
    page.keyboard.press("End")
    wait_at(page, match, moves, moves.size - 1)
    expect(page.get_by_role("button", name="Trick ▶", exact=True)).to_be_disabled()
    expect(page.get_by_role("button", name="Round ▶", exact=True)).to_be_disabled()
    screenshot(page, "replay-moves-desktop")

    # a round of the list that is not shown is one line: a click goes to its start
    page.get_by_role("button", name="Round 2: go to its first step").click()
    wait_at(page, match, moves, moves.rounds[1].first)
    # keys pressed in the list step too, and the move shown keeps the focus there
    page.locator(f"{LIST} [aria-current='step']").focus()
    page.keyboard.press("Shift+ArrowRight")
    step = moves.next_part(moves.rounds[1].first)
    assert step is not None
    wait_at(page, match, moves, step)
    assert page.evaluate("document.activeElement?.getAttribute('aria-current')") == "step"

    # the list folds away and comes back
    page.get_by_role("button", name="Hide the moves").click()
    expect(page.locator(f"{LIST} .tl-ml-entry")).to_have_count(0)
    page.get_by_role("button", name="Show the moves").click()
    expect(page.locator(f"{LIST} [aria-current='step']")).to_have_attribute("data-value", str(step))
    assert address_step(page) == str(step)
    page.close()
    assert log.javascript_errors() == []


def test_on_a_phone_the_list_is_under_the_board_and_a_tap_jumps_to_a_turn(voila_url: str, browser: Any) -> None:
    match = bots_match("kalah", 2, 3)
    moves = outline(match)
    page, log = open_phone_page(browser, render(voila_url, "game=kalah&players=2&seed=3&step=30"))
    ready(page)
    wait_at(page, match, moves, 30)
    board, listed = page.locator(TABLE).bounding_box(), page.locator(LIST).bounding_box()
    assert board and listed and listed["y"] >= board["y"] + board["height"] - 1, "the list is under the board"
    assert listed["x"] >= 0 and listed["x"] + listed["width"] <= 390
    expect(page.locator(".tricklab-app-header .tl-keys")).to_be_hidden()  # no keys on a touch screen
    # a game of one round: turns, no round to jump to
    expect(page.get_by_role("button", name="Turn ▶", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Round ▶", exact=True)).to_have_count(0)
    assert page.locator(f"{LIST} .tl-ml-round-title").count() == 0
    turn = moves.part_at(30)
    later = moves.rounds[0].plays[turn.number + 2]
    page.locator(f"{LIST} .tl-ml-entry[data-value='{later.first}']").tap()
    wait_at(page, match, moves, later.first)
    page.get_by_role("button", name="Turn ▶", exact=True).tap()
    wait_at(page, match, moves, moves.rounds[0].plays[turn.number + 3].first)
    page.locator(LIST).scroll_into_view_if_needed()
    screenshot(page, "replay-moves-phone")
    page.get_by_role("button", name="Hide the moves").tap()
    expect(page.get_by_role("button", name="Show the moves")).to_have_attribute("aria-expanded", "false")
    page.context.close()
    assert log.javascript_errors() == []


def test_at_projector_size_the_list_lies_under_the_board(voila_url: str, browser: Any) -> None:
    match = bots_match("band-of-tricks", 4, 7)
    moves = outline(match)
    page, log = open_page(
        browser, render(voila_url, "game=band-of-tricks&players=4&seed=7&step=9&large=1"), viewport=(1366, 768)
    )
    ready(page)
    wait_at(page, match, moves, 9)
    board, listed = page.locator(TABLE).bounding_box(), page.locator(LIST).bounding_box()
    assert board and listed and listed["y"] >= board["y"] + board["height"] - 1
    assert listed["width"] >= board["width"] - 2, "as wide as the board"
    page.get_by_role("button", name="Deal ▶", exact=True).click()
    wait_at(page, match, moves, moves.rounds[1].first)
    assert address_step(page) == str(moves.rounds[1].first)
    expect(page.locator(f"{LIST} .tl-ml-where")).to_have_text("Deal 2 · Before the first trick")
    page.locator(LIST).scroll_into_view_if_needed()
    screenshot(page, "replay-moves-projector")
    page.close()
    assert log.javascript_errors() == []
