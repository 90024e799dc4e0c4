"""The Voilà apps clicked in Chromium: each fact on the page is checked against the engine."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

import tricklab
from tricklab.display import card_label
from tricklab.widgets.apps import parse_params

from .servers import ARTIFACTS, open_page

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"


def render(voila_url: str, app: str, query: str = "") -> str:
    return f"{voila_url}/voila/render/{app}.ipynb" + (f"?{query}" if query else "")


def wait_for_board(page: Any) -> None:
    page.locator(f"{BOARD} .tl-card").first.wait_for(timeout=90_000)


def caption(page: Any) -> str:
    text: str = page.locator(f"{BOARD} .tl-caption").inner_text()
    return text


def step_of(page: Any) -> int:
    return int(page.locator(BOARD).get_attribute("data-step"))


def wait_step(page: Any, step: int) -> None:
    page.wait_for_function(
        "([sel, step]) => document.querySelector(sel)?.dataset.step === String(step)", arg=[BOARD, step]
    )


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize(
    ("app", "query"),
    [
        ("explain_trick", "game=tricks-and-stones&players=4&cards=7H,AH,8S,KD"),
        ("explain_trick", "game=band-of-tricks&players=4&cards=P3,S5,R13,M13"),
        ("explain_trick", "game=jewel-vault&players=4&cards=9H,3H,5C,QH"),
        ("replay", "game=tricks-and-stones&players=4&seed=7&step=16"),
        ("replay", "game=band-of-tricks&players=4&seed=7&step=9"),
        ("replay", "game=jewel-vault&players=4&seed=7&step=14"),
    ],
)
def test_app_loads_and_shows_cards_without_javascript_errors(
    voila_url: str, browser: Any, app: str, query: str
) -> None:
    page, log = open_page(browser, render(voila_url, app, query))
    wait_for_board(page)
    labels = page.locator(f"{BOARD} .tl-card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert len(labels) >= 4 and all(labels)
    params = parse_params(query, extras=("step",))
    if "step" in params.extra:
        assert step_of(page) == int(params.extra["step"]), "a shared link opens at its step"
    screenshot(page, f"{app}-{params.game}")
    page.close()
    assert log.javascript_errors() == []


def test_explain_trick_typed_trick_shows_the_engines_winner(voila_url: str, browser: Any) -> None:
    page, log = open_page(browser, render(voila_url, "explain_trick", "game=tricks-and-stones&players=4"))
    wait_for_board(page)
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    for trick, trump in ((["7H", "AH", "8S", "KD"], "S"), (["9D", "AS", "10D", "7C"], "H")):
        page.get_by_label("Trump").select_option(
            label=next(
                label
                for label in ("♠ Spades", "♥ Hearts", "♦ Diamonds", "♣ Clubs")
                if label.endswith({"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}[trump])
            )
        )
        box = page.get_by_placeholder("type cards, e.g. 7H AH 8S KD")
        box.fill(" ".join(trick))
        box.press("Enter")
        expected = rules.resolve_trick(trick, trump=trump)
        winner = page.locator(f"{BOARD} .tl-trick .tl-winner")
        winner.wait_for()
        page.wait_for_function(
            "([sel, label]) => document.querySelector(sel)?.getAttribute('aria-label')?.startsWith(label)",
            arg=[f"{BOARD} .tl-trick .tl-winner", card_label(expected.winning_card)],
        )
        reasons = page.locator(f"{BOARD} .tl-reasons li").evaluate_all("els => els.map(e => e.dataset.rule)")
        assert reasons == [r.rule_id for r in expected.reasons]
    page.close()
    assert log.javascript_errors() == []


def test_explain_trick_bad_input_shows_the_engines_message_and_keeps_the_trick(voila_url: str, browser: Any) -> None:
    page, _ = open_page(browser, render(voila_url, "explain_trick", "game=tricks-and-stones&players=4"))
    wait_for_board(page)
    box = page.get_by_placeholder("type cards, e.g. 7H AH 8S KD")
    box.fill("7H AH")
    box.press("Enter")
    page.locator(f"{BOARD} .tl-trick .tl-card").nth(1).wait_for()
    for bad, words in (("7H 6S", "not a card of Tricks"), ("7H 7H", "twice"), ("7H 8H 9H 10H JH", "at most 4")):
        box.fill(bad)
        box.press("Enter")
        expect(page.get_by_role("alert")).to_contain_text(words)
        assert page.locator(f"{BOARD} .tl-trick .tl-card").count() == 2, "the previous trick stays"
    # clicking a deck card adds it; clicking a used card explains why not
    page.locator(f"{BOARD} .tl-deck button[data-value='QS']").click()
    page.wait_for_function(f"document.querySelectorAll('{BOARD} .tl-trick .tl-card').length === 3")
    page.locator(f"{BOARD} .tl-deck button[data-value='7H']").click(force=True)  # marked as used
    expect(page.get_by_role("alert")).to_contain_text("twice")
    page.close()


def test_replay_steps_forward_and_back_as_the_timeline_says(voila_url: str, browser: Any) -> None:
    query = "game=tricks-and-stones&players=4&seed=7"
    match = tricklab.get_rules("tricks-and-stones", players=4).play(seed=7, bots="heuristic")
    steps = match.timeline()
    page, log = open_page(browser, render(voila_url, "replay", query))
    wait_for_board(page)
    assert step_of(page) == 0
    assert steps[0].event.text in caption(page)
    forward = page.get_by_role("button", name="▶", exact=True)
    back = page.get_by_role("button", name="◀", exact=True)
    seen = []
    for expected in range(1, 6):
        forward.click()
        wait_step(page, expected)
        seen.append(caption(page))
    for expected in (4, 3):
        back.click()
        wait_step(page, expected)
    assert steps[3].event.text in caption(page)
    assert [steps[i].event.text in seen[i - 1] for i in range(1, 6)] == [True] * 5
    # the table shows the state of step 3: the hands as the timeline's state holds them
    state = steps[3].state
    for seat in range(4):
        hand = page.get_by_role("group", name=f"Player {seat + 1}'s hand")
        labels = hand.locator(".tl-card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
        assert labels == [card_label(c) for c in state.hands[seat]]
    page.close()
    assert log.javascript_errors() == []


def test_replay_keyboard_stepping(voila_url: str, browser: Any) -> None:
    match = tricklab.get_rules("band-of-tricks", players=4).play(seed=3, bots="heuristic")
    steps = match.timeline()
    page, log = open_page(browser, render(voila_url, "replay", "game=band-of-tricks&players=4&seed=3"))
    wait_for_board(page)
    page.locator(BOARD).focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    wait_step(page, 3)
    assert steps[3].event.text in caption(page)
    page.keyboard.press("ArrowLeft")
    wait_step(page, 2)
    page.keyboard.press("End")
    wait_step(page, len(steps) - 1)
    assert steps[-1].event.text in caption(page)
    page.keyboard.press("Home")
    wait_step(page, 0)
    page.close()
    assert log.javascript_errors() == []


def test_replay_seat_view_hides_other_hands(voila_url: str, browser: Any) -> None:
    page, _ = open_page(browser, render(voila_url, "replay", "game=jewel-vault&players=4&seed=2&seat=2"))
    wait_for_board(page)
    own = page.get_by_role("group", name="Player 2's hand").locator(".tl-card")
    assert own.count() > 0 and "face-down" not in (own.first.get_attribute("aria-label") or "")
    other = page.get_by_role("group", name="Player 1's hand, 10 cards face down")
    assert other.locator(".tl-card").count() == 10
    page.close()


@pytest.mark.parametrize(
    ("app", "query", "words"),
    [
        ("replay", "game=chess&players=4&seed=1", "There is no game"),
        ("replay", "game=tricks-and-stones&players=9&seed=1", "players is not possible"),
        ("replay", "game=band-of-tricks&players=4&seed=abc", "The seed must be a whole number"),
        ("explain_trick", "game=jewel-vault&players=1", "players is not possible"),
        ("explain_trick", "game=%3Cscript%3Ealert(1)%3C/script%3E", "There is no game"),
    ],
)
def test_bad_query_string_shows_a_message_and_a_default(
    voila_url: str, browser: Any, app: str, query: str, words: str
) -> None:
    page, log = open_page(browser, render(voila_url, app, query))
    wait_for_board(page)
    expect(page.get_by_role("alert").first).to_contain_text(words)
    assert page.locator("script:has-text('alert(1)')").count() == 0
    assert "Traceback" not in page.inner_text("body")
    page.close()
    assert log.javascript_errors() == []


def test_dark_theme_follows_jupyterlab_variables(voila_url: str, browser: Any) -> None:
    page, log = open_page(browser, render(voila_url, "replay", "game=tricks-and-stones&players=4&seed=7&theme=dark"))
    wait_for_board(page)
    background = page.locator(BOARD).evaluate("el => getComputedStyle(el).backgroundColor")
    text = page.locator(BOARD).evaluate("el => getComputedStyle(el).color")
    screenshot(page, "replay-dark")
    page.close()

    def luminance(css: str) -> float:
        r, g, b = (int(x) for x in css[css.index("(") + 1 : css.index(")")].split(",")[:3])
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255

    assert luminance(background) < 0.35, background
    assert luminance(text) > 0.6, text
    assert log.javascript_errors() == []


def test_replay_play_button_steps_on_its_own(voila_url: str, browser: Any) -> None:
    page, log = open_page(browser, render(voila_url, "replay", "game=jewel-vault&players=3&seed=5"))
    wait_for_board(page)
    page.get_by_role("button", name=re.compile(r"\bPlay$")).click()
    page.wait_for_function(f"Number(document.querySelector('{BOARD}')?.dataset.step) >= 2", timeout=30_000)
    page.get_by_role("button", name=re.compile(r"\bPause$")).click()
    page.get_by_role("button", name=re.compile(r"\bPlay$")).wait_for()
    step = step_of(page)
    assert step >= 2
    expect(page.get_by_label("Step", exact=True)).to_have_value(str(step))
    page.close()
    assert log.javascript_errors() == []


@pytest.mark.parametrize(
    ("app", "query", "words"),
    [
        ("replay", "seed=1&seat=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&step=%00", "There is no player"),
        ("explain_trick", "trump=%E2%80%AEX&cards=%3Cscript%3Ealert(1)%3C/script%3E", "is not a trump suit"),
        # Voilà's own parameters: a link picks the theme, never the template
        ("replay", "game=jewel-vault&template=nonexistent", None),
        ("replay", "game=jewel-vault&template=../../../etc", None),
        ("replay", "game=jewel-vault&theme=nonexistent", None),
        ("replay", "game=jewel-vault&theme=%3C/script%3E%3Cscript%3Ealert(1)%3C/script%3E", None),
    ],
)
def test_hostile_links_leave_no_markup_and_no_traceback(
    voila_url: str, browser: Any, app: str, query: str, words: str | None
) -> None:
    page, log = open_page(browser, render(voila_url, app, query))
    wait_for_board(page)
    if words:
        expect(page.get_by_role("alert").first).to_contain_text(words)
    assert page.locator("img[src=x], script:has-text('alert(1)')").count() == 0
    assert "Traceback" not in page.inner_text("body")
    page.close()
    assert log.javascript_errors() == []
