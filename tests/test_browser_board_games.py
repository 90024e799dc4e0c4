"""Kalah and Mandala in Chromium: whole games played by clicking alone, a refused move, the
replay's stone-by-stone sowing and claims, and axe-core on their boards; Mandala played on the
board (a card, then a place; a dimmed place says why), Kalah's sowings shown stone by stone at the
table's pace, and not at all under reduced motion."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

import tricklab
from tricklab.actions import ToMountain
from tricklab.links import match_from_moves
from tricklab.widgets import PlayTable

from .servers import PHONE, open_page, open_phone_page
from .test_browser_a11y import assert_accessible, render, with_theme

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"
#: what the learner clicks each turn: a pit they may sow; a Mandala card to pick (or a claim's colour)
LEGAL = {
    "kalah": "button.tl-pit.tl-legal[data-intent='act']",
    "mandala": "button.tl-pick-card, button.tl-claim",
}
#: a place the picked Mandala card may go, and the number of cards when the place asks
OPEN_PLACE = "button.tl-place.tl-open"
COUNTS = ".tl-counts button"


def wait_board(page: Any) -> Any:
    board = page.locator(BOARD)
    board.locator(".tl-board").first.wait_for(timeout=90_000)
    return board


def wait_learner_or_end(page: Any) -> None:
    """Until it is the learner's move or the game is over (the bots move at once)."""
    page.wait_for_function(
        "sel => { const b = document.querySelector(sel);"
        " return !!b && (b.dataset.turn === 'true' || b.dataset.over === 'true') }",
        arg=BOARD,
        timeout=30_000,
    )


def press(page: Any, target: Any, *, tap: bool = False) -> None:
    """Click (or tap) ``target`` and wait until the board has drawn what followed."""
    step = page.locator(BOARD).get_attribute("data-step")
    target.tap() if tap else target.click()
    page.wait_for_function("([sel, step]) => document.querySelector(sel)?.dataset.step !== step", arg=[BOARD, step])


def pick_card(page: Any, card: Any, *, tap: bool = False) -> None:
    """Pick a card of the hand and wait until it shows picked (the places light up)."""
    colour = card.get_attribute("data-value")
    card.tap() if tap else card.click()
    expect(page.locator(f"{BOARD} button.tl-pick-card[data-value='{colour}']")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator(f"{BOARD} {OPEN_PLACE}").first).to_be_visible()


def choose_place(page: Any, place: Any, *, tap: bool = False) -> None:
    """Choose a lit place; wait until the move is made or the numbers of cards are offered."""
    step = page.locator(BOARD).get_attribute("data-step")
    place.tap() if tap else place.click()
    page.wait_for_function(
        "([sel, step]) => { const b = document.querySelector(sel);"
        " return !!b && (b.dataset.step !== step || !!b.querySelector('.tl-counts button')) }",
        arg=[BOARD, step],
    )


def mandala_move(page: Any, board: Any, *, tap: bool = False) -> None:
    """One Mandala move by tapping: a claim's colour; or the first card, its first lit place,
    and the first number of cards when asked."""
    first = board.locator(LEGAL["mandala"]).first
    if "tl-claim" in (first.get_attribute("class") or ""):
        press(page, first, tap=tap)
        return
    pick_card(page, first, tap=tap)
    choose_place(page, board.locator(OPEN_PLACE).first, tap=tap)
    if board.locator(COUNTS).count():
        press(page, board.locator(COUNTS).first, tap=tap)


def pit_labels(board: Any) -> list[str]:
    return board.locator(".tl-kalah .tl-pit, .tl-kalah .tl-store").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )


def refuse_an_empty_pit(page: Any, board: Any) -> None:
    """A pit of the other side is no button and a click on it does nothing; a sow of one of the
    learner's empty pits, sent from the page, is refused with the engine's reason."""
    step = board.get_attribute("data-step")
    before = pit_labels(board)
    theirs = board.locator(".tl-row-top .tl-pit").first
    assert theirs.evaluate("e => e.tagName") == "DIV" and theirs.get_attribute("data-intent") is None
    theirs.click()
    page.wait_for_timeout(500)  # a kernel's answer takes a few milliseconds here
    assert board.get_attribute("data-step") == step
    assert page.locator(".tricklab-message:visible").count() == 0
    # the page can send any value: point a legal pit's button at an empty pit of the learner's
    empty = board.locator(".tl-row-bottom div.tl-pit").first
    number = empty.locator(".tl-pit-n").inner_text().strip()
    assert re.fullmatch(r"[1-6]", number) and ": 0 stones" in (empty.get_attribute("aria-label") or "")
    forged = board.locator(LEGAL["kalah"]).first
    forged.evaluate("(e, value) => e.setAttribute('data-value', value)", f"sow {number}")
    forged.click()
    alert = page.locator(".tricklab-said")  # the table's message, in its live region above the board
    expect(alert).to_contain_text(f"Your pit {number} is empty: there is nothing to sow.")
    assert board.get_attribute("data-step") == step
    assert pit_labels(board) == before
    expect(board).to_have_attribute("data-turn", "true")


def play_to_the_end(page: Any, game: str, *, tap: bool = False, refuse: bool = False) -> int:
    """Click the first legal target each turn until the final result shows; the clicks made."""
    board = wait_board(page)
    clicks = 0
    refused = False
    for _ in range(200):
        wait_learner_or_end(page)
        if board.get_attribute("data-over") == "true":
            break
        if refuse and not refused and board.locator(".tl-row-bottom div.tl-pit").count():
            refuse_an_empty_pit(page, board)
            refused = True
        if game == "mandala":
            mandala_move(page, board, tap=tap)
        else:
            press(page, board.locator(LEGAL[game]).first, tap=tap)
        clicks += 1
    expect(board.locator(".tl-final")).to_be_visible()
    assert refused or not refuse, "the learner never had an empty pit"
    return clicks


def shown_totals(board: Any) -> tuple[list[int], list[int]]:
    """The final totals the table shows, and the seats it says win."""
    rows = board.locator(".tl-final .tl-totals li").all_inner_texts()
    totals = [int(re.search(r": (\d+) points?", row).group(1)) for row in rows]  # type: ignore[union-attr]
    return totals, [seat for seat, row in enumerate(rows) if "wins" in row]


def linked_match(board: Any) -> tricklab.Match:
    """The match the final result's replay link holds, replayed by the engine."""
    href = board.get_by_role("link", name="Open this game in the replay app").get_attribute("href")
    query = {k: v[0] for k, v in parse_qs(urlsplit(href).query).items()}
    rules = tricklab.get_rules(query["game"], players=int(query["players"]))
    return match_from_moves(rules, int(query["seed"]), query["moves"])


def assert_result_is_the_engines(board: Any, clicks: int) -> tricklab.Match:
    match = linked_match(board)
    assert match.is_over and match.result is not None
    totals, winners = shown_totals(board)
    assert totals == list(match.result.totals)
    assert winners == list(match.result.winners)
    # each click was one move of the learner's, and nothing else was
    learner = sum(1 for state in match.states[:-1] if state.to_play == 0)
    assert learner == clicks
    # the caption names the winner; the final result gives the engine's reasons
    won = match.result.winners
    said = "you win" if won == (0,) else (f"{match.rules.seat_name(won[0])} wins" if len(won) == 1 else "share")
    expect(board.locator(".tl-caption")).to_contain_text(said)
    for reason in match.result.reasons:
        expect(board.locator(".tl-final")).to_contain_text(reason.text)
    return match


@pytest.mark.parametrize(("game", "seed"), [("kalah", 3), ("mandala", 0)])
def test_a_whole_game_by_clicking_alone(voila_url: str, browser: Any, game: str, seed: int) -> None:
    page, log = open_page(browser, f"{voila_url}/voila/render/play.ipynb?game={game}&seed={seed}&pace=0")
    try:
        clicks = play_to_the_end(page, game, refuse=game == "kalah")
        board = page.locator(BOARD)
        match = assert_result_is_the_engines(board, clicks)
        assert match.seed == seed and clicks >= 5
        if game == "kalah":  # the stores hold the totals
            stores = board.locator(".tl-store").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
            for seat, total in enumerate(match.result.totals):  # type: ignore[union-attr]
                assert f"Player {seat + 1}'s store: {total} stones" in stores
    finally:
        page.close()
    assert log.javascript_errors() == []


def test_kalah_on_a_phone_by_tapping(voila_url: str, browser: Any) -> None:
    page, log = open_phone_page(browser, f"{voila_url}/voila/render/play.ipynb?game=kalah&seed=5&pace=0")
    try:
        board = wait_board(page)
        wait_learner_or_end(page)
        # the board fits the screen, and every pit the learner may sow is a finger's size
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
        for box in board.locator(LEGAL["kalah"]).evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height] })"
        ):
            assert min(box) >= 40, box
        clicks = play_to_the_end(page, "kalah", tap=True)
        assert_result_is_the_engines(board, clicks)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    finally:
        page.context.close()
    assert log.javascript_errors() == []


def caption(board: Any) -> str:
    return board.locator(".tl-caption").inner_text()


def step_on(page: Any, board: Any, to: int) -> None:
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-step", str(to))


def test_kalah_replay_sows_stone_by_stone(voila_url: str, browser: Any) -> None:
    steps = tricklab.get_rules("kalah", players=2).play(seed=3).timeline()
    page, log = open_page(browser, render(voila_url, "replay", "game=kalah&seed=3"))
    try:
        board = wait_board(page)
        board.focus()
        marked: list[str] = []
        rules: set[str] = set()
        for k in range(1, 12):
            step_on(page, board, k)
            text = steps[k].event.text
            assert text in caption(board)
            rules |= set(board.locator(".tl-reasons li").evaluate_all("els => els.map(e => e.dataset.rule)"))
            stone = re.fullmatch(r"Stone (\d+) of (\d+) into (.+)\.", text)
            if stone is None:
                continue
            # the one marked place is the one the stone went into
            expect(board.locator(".tl-marked")).to_have_count(1)
            label = board.locator(".tl-marked").get_attribute("aria-label") or ""
            assert label.startswith(stone.group(3) + ":"), (label, text)
            expect(board.locator(".tl-reasons li[data-rule='mk.sow']")).to_be_visible()
            marked.append(label.split(":")[0])
        assert any(re.match(r"Stone 1 of \d+ into", s.event.text) for s in steps[1:12])
        assert len(marked) >= 6 and all(a != b for a, b in pairwise(marked)), marked
        assert "mk.sow" in rules and rules & {"mk.again", "mk.capture"}, rules
    finally:
        page.close()
    assert log.javascript_errors() == []


def test_mandala_replay_reaches_a_claim(voila_url: str, browser: Any) -> None:
    steps = tricklab.get_rules("mandala", players=2).play(seed=3).timeline()
    claim = next(i for i, s in enumerate(steps) if s.event.kind == "claim")
    page, log = open_page(browser, render(voila_url, "replay", f"game=mandala&seed=3&step={claim - 3}"))
    try:
        board = wait_board(page)
        expect(board).to_have_attribute("data-step", str(claim - 3))
        board.focus()
        for k in range(claim - 2, claim + 1):
            step_on(page, board, k)
        assert steps[claim].event.text in caption(board)
        assert re.search(r"claims .* of Mountain \d", caption(board))
        expect(board.locator(".tl-reasons li[data-rule='md.claim']")).to_be_visible()
        expect(board.locator(".tl-mandala.tl-claiming")).to_have_count(1)
    finally:
        page.close()
    assert log.javascript_errors() == []


#: app, link parameters and what shows the board is drawn (a move to make, a marked place)
A11Y = [
    ("play", "game=kalah&seed=3&pace=0", LEGAL["kalah"]),
    ("play", "game=mandala&seed=0&pace=0", LEGAL["mandala"]),
    ("replay", "game=kalah&seed=3&step=9", ".tl-kalah .tl-marked"),
    ("replay", "game=mandala&seed=3&step=16", ".tl-mandala.tl-claiming"),
]


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(("app", "query", "drawn"), A11Y, ids=[f"{a}-{q.split('&')[0][5:]}" for a, q, _ in A11Y])
def test_board_games_have_no_serious_axe_violation(
    voila_url: str, browser: Any, app: str, query: str, drawn: str, theme: str
) -> None:
    page, log = open_page(browser, render(voila_url, app, with_theme(query, theme)), viewport=(1280, 900))
    try:
        page.locator(f"{BOARD} {drawn}").first.wait_for(timeout=90_000)
        page.wait_for_timeout(300)  # the widgets' stylesheets and late redraws settle
        assert_accessible(page, f"{app} {query} ({theme})")
    finally:
        page.close()
    assert log.javascript_errors() == []


# --- Mandala played on the board --------------------------------------------------------------------


def address_match(page: Any) -> tricklab.Match:
    """The match the page's address holds (the address is the state), replayed by the engine."""
    query = {k: v[0] for k, v in parse_qs(urlsplit(page.url).query).items()}
    rules = tricklab.get_rules("mandala", players=2)
    return match_from_moves(rules, int(query["seed"]), query["moves"])


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_mandala_move_is_a_card_then_a_place_on_the_board(voila_url: str, browser: Any, phone: bool) -> None:
    url = f"{voila_url}/voila/render/play.ipynb?game=mandala&seed=0&pace=0"
    page, log = open_phone_page(browser, url) if phone else open_page(browser, url, viewport=(1280, 900))
    try:
        board = wait_board(page)
        wait_learner_or_end(page)
        before = address_match(page)
        assert before.to_play == 0
        # Player 1 holds 2 green, 3 blue and 1 purple; blue is in the Mountain of Mandala 1
        expect(board.locator("button.tl-place")).to_have_count(0)  # no place before a card is picked
        pick_card(page, board.locator("button.tl-pick-card[data-value='blue']"), tap=phone)
        lit = board.locator(OPEN_PLACE).evaluate_all("els => els.map(e => e.dataset.value)")
        listed = {
            f"{type(a).__name__}-{getattr(a, 'mandala', 0)}"
            for a in before.legal_actions()
            if getattr(a, "colour", None) == "blue"
        }
        expected = {"ToMountain-1": "mountain-1", "ToMountain-2": "mountain-2", "ToField-1": "field-1"}
        expected |= {"ToField-2": "field-2", "Discard-0": "discard"}
        assert sorted(lit) == sorted(expected[k] for k in listed)
        if phone:  # every place is a finger's size, and the board fits the screen
            for box in board.locator("button.tl-place, button.tl-pick-card").evaluate_all(
                "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height] })"
            ):
                assert min(box) >= 40, box
            assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
        choose_place(page, board.locator(f"{OPEN_PLACE}[data-value='mountain-2']"), tap=phone)
        wait_learner_or_end(page)
        after = address_match(page)
        mine = [a for a, s in zip(after.actions, after.states, strict=False) if s.to_play == 0]
        assert mine == [ToMountain(2, "blue")]
        expect(board.locator(".tl-log")).to_contain_text("Player 1 puts one blue card into Mountain 2")
        expect(board.locator("button.tl-pick-card[aria-pressed='true']")).to_have_count(0)
    finally:
        page.context.close() if phone else page.close()
    assert log.javascript_errors() == []


@pytest.mark.parametrize("phone", [False, True], ids=["keyboard", "phone"])
def test_a_place_the_rule_of_color_forbids_says_why_when_chosen(voila_url: str, browser: Any, phone: bool) -> None:
    url = f"{voila_url}/voila/render/play.ipynb?game=mandala&seed=0&pace=0"
    page, log = open_phone_page(browser, url) if phone else open_page(browser, url, viewport=(1280, 900))
    try:
        board = wait_board(page)
        wait_learner_or_end(page)
        step = board.get_attribute("data-step")
        address = page.url
        if phone:
            pick_card(page, board.locator("button.tl-pick-card[data-value='blue']"), tap=True)
        else:  # the keyboard alone: focus the card, Enter; focus moves to a lit place
            board.locator("button.tl-pick-card[data-value='blue']").focus()
            page.keyboard.press("Enter")
            expect(board.locator(f"{OPEN_PLACE}").first).to_be_focused()
        shut = board.locator("button.tl-place.tl-shut[data-value='field-1']")
        expect(shut).to_have_attribute("aria-disabled", "true")
        assert float(shut.evaluate("e => getComputedStyle(e).opacity")) < 0.8  # dimmed
        if phone:
            shut.tap(force=True)  # dimmed, yet it answers a tap
        else:
            shut.focus()  # dimmed, yet focusable
            page.keyboard.press("Enter")
        why = board.locator(".tl-why-not")
        expect(why).to_be_visible()
        expect(why).to_have_attribute("role", "alert")
        expect(why).to_contain_text("The Rule of Color:")
        expect(why).to_contain_text("Blue is already in the Mountain of Mandala 1, so it cannot go into a Field")
        assert board.get_attribute("data-step") == step and page.url == address  # nothing was played
        expect(board.locator("button.tl-pick-card[data-value='blue']")).to_have_attribute("aria-pressed", "true")
        if phone:
            assert why.evaluate("e => { const r = e.getBoundingClientRect(); return r.width }") <= PHONE[0]
        else:  # lit and dimmed places, a picked card and the reason: no serious axe violation
            assert_accessible(page, "play mandala, a card picked and a place refused")
    finally:
        page.context.close() if phone else page.close()
    assert log.javascript_errors() == []


# --- Kalah's sowing, stone by stone -----------------------------------------------------------------

#: records every board the page shows: the 14 counts (by board index) each time they change
RECORD_COUNTS = """sel => {
  window.__counts = [];
  const read = () => {
    const places = document.querySelectorAll(sel + ' .tl-kalah [data-index]');
    if (places.length !== 14) return;
    const counts = new Array(14);
    for (const p of places) counts[Number(p.dataset.index)] = Number(p.querySelector('.tl-count-n').textContent);
    const last = window.__counts[window.__counts.length - 1];
    if (!last || last.join() !== counts.join()) window.__counts.push(counts);
  };
  read();
  const all = { subtree: true, childList: true, characterData: true };
  new MutationObserver(read).observe(document.querySelector(sel), all);
}"""


def expected_sowings(seed: int, pace: float, pit: int) -> list[list[list[int]]]:
    """The frames the engine tells of the learner's move and of each of the bots' moves until the
    learner's turn comes back, each as counts (a frame that changes no count, such as "moves
    again", left out: the page shows no change)."""
    table = PlayTable("kalah", seed=seed, pace=pace)
    table.act(f"sow {pit}")
    sowings = [[f["pits"] for f in table.board.scene["sowing"]["frames"]]]
    while not table.my_turn:
        table.next_bot_move()
        sowings.append([f["pits"] for f in table.board.scene["sowing"]["frames"]])
    return [[f for k, f in enumerate(frames) if k == 0 or f != frames[k - 1]] for frames in sowings]


def sow_and_record(page: Any, board: Any, pit: int) -> list[list[int]]:
    """Sow ``pit`` and record the counts shown until the bot has answered and it is the learner's
    move again."""
    page.evaluate(RECORD_COUNTS, BOARD)
    board.locator(f"button.tl-pit.tl-legal[data-value='sow {pit}']").click()
    page.wait_for_function("sel => document.querySelector(sel)?.dataset.turn === 'false'", arg=BOARD)
    page.wait_for_function(
        "sel => { const b = document.querySelector(sel); return b.dataset.turn === 'true' && !b.dataset.sowing }",
        arg=BOARD,
        timeout=60_000,
    )
    return page.evaluate("() => window.__counts")  # type: ignore[no-any-return]


def test_kalah_sowings_are_shown_stone_by_stone_at_the_tables_pace(voila_url: str, browser: Any) -> None:
    pace = 0.8
    mine, *bots = expected_sowings(1, pace, 2)
    assert len(mine) >= 5 and bots and all(len(b) >= 3 for b in bots)
    page, log = open_page(browser, render(voila_url, "play", f"game=kalah&seed=1&pace={pace}"))
    try:
        board = wait_board(page)
        wait_learner_or_end(page)
        # sampled while the sowing is shown: the stones in hand are off the board a moment
        page.evaluate(
            "sel => { window.__samples = []; const t = setInterval(() => { const b = document.querySelector(sel);"
            " window.__samples.push([b.dataset.sowing || '', b.getAttribute('aria-busy') || '']);"
            " if (window.__samples.length > 400) clearInterval(t); }, 25); }",
            BOARD,
        )
        shown = sow_and_record(page, board, 2)
        # every frame the engine told was on the board, in order: the learner's sowing, then the bot's
        assert shown == [*mine, *(f for b in bots for f in b[1:])], shown
        total = sum(mine[0])
        assert any(sum(counts) < total for counts in shown)  # stones in hand, mid-sowing
        # a pit fills stone by stone: pit 6 of the learner (index 5) gains one stone at a time
        sixth = [counts[5] for counts in shown]
        assert sixth[: len(mine)] == [f[5] for f in mine]
        samples = page.evaluate("() => window.__samples")
        assert ["true", "true"] in samples  # the board said it was busy while sowing
        expect(board).not_to_have_attribute("aria-busy", "true")
    finally:
        page.close()
    assert log.javascript_errors() == []


def test_no_sowing_is_animated_under_reduced_motion(voila_url: str, browser: Any) -> None:
    pace = 0.8
    mine, *bots = expected_sowings(1, pace, 2)
    url = render(voila_url, "play", f"game=kalah&seed=1&pace={pace}")
    page, log = open_page(browser, url, reduced_motion="reduce")
    try:
        board = wait_board(page)
        wait_learner_or_end(page)
        shown = sow_and_record(page, board, 2)
        assert shown == [mine[0], mine[-1], *(b[-1] for b in bots)], shown  # before, after each move
        assert board.locator(".tl-sowing-note").count() == 0
    finally:
        page.close()
    assert log.javascript_errors() == []
