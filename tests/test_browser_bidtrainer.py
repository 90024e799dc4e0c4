"""The bid trainer in Chromium: a tried bid shows charts, and the same seed the same numbers; a
second run starts its bar at zero; "Play it out" shows the play-out on the screen."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .servers import ARTIFACTS, open_page, open_phone_page

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
    numbers = {key: board.get_attribute(f"data-{key}") or "" for key in ("tried", "best", "mean", "exact", "best_mean")}
    sentence = board.locator(".tl-advice-sentence").inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"bid_trainer-{query.split('&')[0][5:]}.png"), full_page=True)
    page.close()
    assert log.javascript_errors() == []
    return numbers, sentence


def clicks_for(best: str, now: str) -> list[tuple[str, str]]:
    """The clicks that change the picker from the choice ``now`` to ``best`` (their action texts)."""
    verb, *rest = best.split()
    if verb == "predict":
        return [("predict", rest[0])]
    if verb == "pass":
        return [("clear", ""), *(("pick", card) for card in rest)]
    if rest == ["zero"]:
        return [("zero", "")]
    have = [int(n) for n in now.split()[1:]] if now.split()[1:] != ["zero"] else [0, 0, 0]
    steps = []
    for suit, want, got in zip(("rock", "soul", "pops"), map(int, rest), have, strict=True):
        steps += [("bid", f"{suit}:{'+1' if want > got else '-1'}")] * abs(want - got)
    return steps


@pytest.mark.parametrize(
    ("query", "clicks", "tried", "words"),
    [
        ("game=tricks-and-stones&players=4&seed=12", [("predict", "3")], "predict 3", "%"),
        ("game=band-of-tricks&players=4&seed=12", [("bid", "rock:+1"), ("bid", "pops:+1")], "bid 1 1 1", "%"),
        ("game=jewel-vault&players=4&seed=12", [("pick", "4H")], "pass 4H", "brings your side"),
    ],
)
def test_a_tried_bid_shows_charts_and_the_recommended_one_keeps_its_figure(
    voila_url: str, browser: Any, query: str, clicks: list[tuple[str, str]], tried: str, words: str
) -> None:
    first, sentence = try_once(voila_url, browser, query, clicks)
    assert first["tried"] == tried and first["mean"] and first["best"]
    assert words in sentence
    second, again = try_once(voila_url, browser, query, clicks)
    assert second == first and again == sentence  # the same seed: the same numbers
    # the learner follows the advice: trying the recommended choice gives the figure it promised
    followed, _ = try_once(voila_url, browser, query, clicks + clicks_for(first["best"], tried))
    assert followed["tried"] == first["best"] and followed["mean"] == first["best_mean"]


# the bar's width the moment "Try it" is disabled (the page told that a run started), then the
# widths drawn while the run lasts
WATCH_THE_BAR = """(button) => {
  const bar = () => {
    const drawn = document.querySelector('.tricklab-bidtrainer progress');
    return drawn ? (100 * drawn.value) / drawn.max : NaN;
  };
  window.__bar = {atStart: null, seen: []};
  new MutationObserver(() => {
    if (button.disabled && window.__bar.atStart === null) window.__bar.atStart = bar();
  }).observe(button, {attributes: true, attributeFilter: ['disabled']});
  const sample = () => {
    window.__bar.seen.push(bar());
    if (window.__bar.seen.length < 20000) requestAnimationFrame(sample);  // past a slow run on a loaded machine
  };
  requestAnimationFrame(sample);
}"""


def test_a_second_run_starts_its_bar_at_zero(voila_url: str, browser: Any) -> None:
    url = f"{voila_url}/voila/render/bid_trainer.ipynb?game=tricks-and-stones&players=4&seed=2"
    page, log = open_page(browser, url)
    board = page.locator(BOARD)
    board.locator(".tl-card").first.wait_for(timeout=90_000)
    try_it = page.get_by_role("button", name="Try it")
    try_it.click()
    expect(board.locator(".tl-chart").first).to_be_visible(timeout=60_000)
    expect(try_it).to_be_enabled(timeout=10_000)
    bar = page.locator(".tricklab-bidtrainer progress")
    expect(bar).to_have_js_property("position", 1)  # the first run's full bar
    page.evaluate(WATCH_THE_BAR, try_it.element_handle())
    try_it.click()
    expect(try_it).to_be_disabled(timeout=10_000)
    expect(try_it).to_be_enabled(timeout=60_000)
    watched = page.evaluate("() => window.__bar")
    assert watched["atStart"] is not None and watched["atStart"] < 10, watched["atStart"]
    seen = [w for w in watched["seen"] if w == w]  # the widths drawn from the click on (NaN: none)
    first_empty = next(i for i, w in enumerate(seen) if w < 10)
    assert max(seen[first_empty:]) == 100 and seen[-1] == 100
    page.close()
    assert log.javascript_errors() == []


@pytest.mark.parametrize("where", ["desktop", "phone"])
def test_play_it_out_shows_the_play_out_on_screen(voila_url: str, browser: Any, where: str) -> None:
    """After a tried bid, "Play it out" puts the play-out's title on the screen (not a page
    further down), and "Back to the trainer" brings the numbers back."""
    url = f"{voila_url}/voila/render/bid_trainer.ipynb?game=tricks-and-stones&players=4&seed=1"
    if where == "phone":
        page, log = open_phone_page(browser, url)
    else:
        page, log = open_page(browser, url, viewport=(1280, 900))
    board = page.locator(BOARD).first
    board.locator(".tl-card").first.wait_for(timeout=90_000)
    page.get_by_role("button", name="Try it").click()
    expect(board.locator(".tl-chart").first).to_be_visible(timeout=60_000)
    page.get_by_role("button", name="Play it out").click()
    # the play-out in the board's place: its title (its own heading, or a line under its controls)
    title = page.locator(".tl-playout-title:visible, [data-control='playout']:visible").first
    expect(title).to_be_visible(timeout=30_000)
    expect(title).to_contain_text("This deal played out with your prediction")
    expect(board.locator("[data-intent='predict']")).to_have_count(0)  # the trainer's picker is put away
    back = page.get_by_role("button", name="Back to the trainer")
    if where == "desktop":  # the pressed button is gone: the focus is not lost, it is on the first one now
        expect(page.locator("[data-control]:focus")).to_have_count(1)
    page.wait_for_timeout(300)
    box = title.evaluate(
        "(e) => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: innerHeight}; }"
    )
    assert box["top"] >= 0 and box["bottom"] <= box["height"], box
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"bid_trainer-play-out-{where}.png"))
    back.click()
    expect(page.locator(".tl-advice-sentence")).to_be_visible(timeout=10_000)
    if where == "desktop":  # "Back" is put away with the play-out: the focus goes to "Try it"
        expect(page.get_by_role("button", name="Try it")).to_be_focused()
    expect(page.locator(".tl-playout-title:visible, [data-control='playout']:visible")).to_have_count(0)
    if where == "phone":
        page.context.close()
    else:
        page.close()
    assert log.javascript_errors() == []
