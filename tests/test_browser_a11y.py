"""Every app page scanned by axe-core (WCAG 2.1 A and AA), light and dark: no serious or critical violation.

axe-core is the copy bundled by ``axe-playwright-python``; it is injected into the page, so the
scan needs no network. Its ``color-contrast`` rule checks text contrast (4.5:1, 3:1 for large
text) against the colours the page really draws, so both themes are scanned.
"""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

import tricklab

from .servers import open_page

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = ("serious", "critical")

#: app, link parameters and what shows the app has drawn
APPS = [
    ("index", "", ".tricklab-gallery"),
    ("play", "game=tricks-and-stones&players=4&seed=3&pace=0", f"{BOARD} .tl-card"),
    ("bid_trainer", "", f"{BOARD} .tl-card"),
    ("quiz", "", f"{BOARD} .tl-card"),
    ("explain_trick", "game=tricks-and-stones&players=4&cards=7H,AH,8S,KD", f"{BOARD} .tl-card"),
    ("replay", "game=tricks-and-stones&players=4&seed=7&step=16", f"{BOARD} .tl-card"),
    ("rulebooks", "", "text=ts.lead.first"),
]

axe = Axe()


def render(voila_url: str, app: str, query: str) -> str:
    return f"{voila_url}/voila/render/{app}.ipynb" + (f"?{query}" if query else "")


def with_theme(query: str, theme: str) -> str:
    if theme == "light":
        return query
    return f"{query}&theme=dark" if query else "theme=dark"


def serious_violations(page: Any) -> list[dict[str, Any]]:
    """axe's violations of impact serious or critical on ``page`` as it is now."""
    results = axe.run(page, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    return [v for v in results.response["violations"] if v.get("impact") in BLOCKING]


def report(violations: list[dict[str, Any]]) -> str:
    """One line a violation, and the targets of its first nodes with what axe says of them."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} [{len(v['nodes'])} nodes]")
        for node in v["nodes"][:3]:
            why = "; ".join(c["message"] for c in node.get("any", []) + node.get("all", []) + node.get("none", []))
            lines.append(f"    {' '.join(map(str, node['target']))}: {why}")
    return "\n".join(lines)


def assert_accessible(page: Any, where: str) -> None:
    found = serious_violations(page)
    assert not found, f"axe-core on {where}:\n{report(found)}"


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(("app", "query", "drawn"), APPS, ids=[a[0] for a in APPS])
def test_app_page_has_no_serious_axe_violation(
    voila_url: str, browser: Any, app: str, query: str, drawn: str, theme: str
) -> None:
    page, log = open_page(browser, render(voila_url, app, with_theme(query, theme)))
    try:
        page.locator(drawn).first.wait_for(timeout=90_000)
        page.wait_for_timeout(300)  # the widgets' stylesheets and late redraws settle
        assert_accessible(page, f"{app} ({theme})")
    finally:
        page.close()
    assert log.javascript_errors() == []


def click_and_wait(page: Any, target: Any) -> None:
    step = page.locator(BOARD).get_attribute("data-step")
    target.click()
    page.wait_for_function("([sel, step]) => document.querySelector(sel)?.dataset.step !== step", arg=[BOARD, step])


def play_until(page: Any, found: str, *, limit: int = 80) -> bool:
    """Take the first sensible step (continue, a legal card, the first action) until ``found`` shows."""
    board = page.locator(BOARD)
    for _ in range(limit):
        if board.locator(found).count():
            return True
        go_on = board.locator("[data-intent='continue']")
        cards = board.locator("button.tl-card.tl-legal[data-intent='play']")
        decision = board.locator(".tl-decision")
        if go_on.count():
            click_and_wait(page, go_on.first)
        elif cards.count():
            click_and_wait(page, cards.first)
        elif decision.locator("[data-intent='act'][data-value='skip']").count():
            click_and_wait(page, decision.locator("[data-intent='act'][data-value='skip']"))
        elif decision.locator("[data-intent='act']").count():
            click_and_wait(page, decision.locator("[data-intent='act']").first)
        else:
            return False
    return False


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_play_page_at_decisions_has_no_serious_axe_violation(voila_url: str, browser: Any, theme: str) -> None:
    query = with_theme("game=tricks-and-stones&players=4&seed=3&pace=0", theme)
    page, log = open_page(browser, render(voila_url, "play", query))
    try:
        page.locator(f"{BOARD} .tl-card").first.wait_for(timeout=90_000)
        assert play_until(page, "[data-intent='continue']"), "no finished trick on the table"
        assert_accessible(page, f"play with a finished trick ({theme})")
        assert play_until(page, ".tl-decision [data-intent='gem-mode']"), "no gem decision reached"
        assert_accessible(page, f"play at a gem decision ({theme})")
    finally:
        page.close()
    assert log.javascript_errors() == []


def test_after_a_play_focus_moves_on_and_the_live_region_says_what_happened(voila_url: str, browser: Any) -> None:
    page, log = open_page(browser, render(voila_url, "play", "game=tricks-and-stones&players=4&seed=3&pace=0"))
    try:
        board = page.locator(BOARD)
        board.locator(".tl-card").first.wait_for(timeout=90_000)
        assert play_until(page, "button.tl-card.tl-legal[data-intent='play']")
        card = board.locator("button.tl-card.tl-legal[data-intent='play']").first
        card.focus()
        step = board.get_attribute("data-step")
        page.keyboard.press("Enter")
        page.wait_for_function("([sel, step]) => document.querySelector(sel)?.dataset.step !== step", arg=[BOARD, step])
        page.wait_for_timeout(300)
        # focus is on what the learner does next, not back on the board or the page
        focused = page.evaluate(
            "() => { const e = document.activeElement; return e && e.matches("
            "\"[data-intent='continue'], button.tl-card.tl-legal[data-intent='play'], .tl-decision button\") }"
        )
        assert focused, page.evaluate("() => document.activeElement?.outerHTML.slice(0, 200)")
        # one live region outside the redrawn markup holds the caption
        region = page.locator(".tricklab-announce[aria-live='polite']")
        assert region.count() == 1
        assert region.inner_text().strip() == board.locator(".tl-caption").inner_text().strip()
        assert board.locator("[aria-live]").count() == 0
    finally:
        page.close()
    assert log.javascript_errors() == []


def test_the_rulebooks_links_lead_to_each_game(voila_url: str, browser: Any) -> None:
    page, _ = open_page(browser, render(voila_url, "rulebooks", ""))
    try:
        page.locator("text=ts.lead.first").first.wait_for(timeout=90_000)
        titles = {tricklab.find_game(name).title.replace(" ", "-") for name in tricklab.games()}
        for title in titles:  # the links are Markdown outputs, drawn after the rulebooks' HTML
            page.locator(f"a[href='#{title}']").first.wait_for(timeout=30_000)
        targets = page.locator("a[href^='#']").evaluate_all("els => els.map(e => e.getAttribute('href').slice(1))")
        assert titles <= set(targets), targets
        for target in targets:
            assert page.evaluate("id => !!document.getElementById(id)", target), target
    finally:
        page.close()
