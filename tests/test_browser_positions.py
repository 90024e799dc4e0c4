"""Kalah and Mandala in Chromium: the position quiz and "try a move", clicked and tapped, with
the answers, the best move and the boards worked out here from the engine for the same seed;
their gallery links and rulebook sections; and an axe-core scan of each page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

import tricklab
from tricklab import puzzles, quiz
from tricklab.games.capabilities import Example
from tricklab.games.kalah import Kalah, KalahView
from tricklab.games.kalah.bots import SearchBot
from tricklab.games.kalah.moves import SEARCH_DEPTH
from tricklab.games.mandala.rules import MandalaView
from tricklab.moves import try_moves
from tricklab.puzzles import PositionQuestion
from tricklab.widgets.movetrainer import MoveTrainer

from .servers import PHONE, open_page, open_phone_page
from .test_browser_a11y import assert_accessible, with_theme
from .test_browser_quiz import rules_cited, wait_question
from .test_quiz_positions import engine_answer

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"
GAMES = ("kalah", "mandala")


def render(voila_url: str, app: str, query: str) -> str:
    return f"{voila_url}/voila/render/{app}.ipynb?{query}"


def wait_drawn(page: Any) -> Any:
    """The board, once the kernel has drawn its first scene (a button to press is on it)."""
    board = page.locator(BOARD)
    board.locator("[data-intent]").first.wait_for(timeout=90_000)
    return board


# --- the quiz ---------------------------------------------------------------------------------------


def choice_button(board: Any, value: str) -> Any:
    return board.locator(f".tl-quiz-choices button[data-intent='answer'][data-value='{value}']")


def wrong_choice(question: PositionQuestion) -> str:
    return next(c.value for c in question.choices if c.value not in question.answer)


def marked_answer(board: Any) -> list[str]:
    """The choices the page marks as the answer once a question is answered."""
    found: list[str] = board.locator(".tl-quiz-marked li[data-correct='true']").evaluate_all(
        "els => els.map(e => e.dataset.value)"
    )
    return found


def deciding_rules(board: Any) -> list[str]:
    """The rule ids the verdict box cites (the deciding reasons, not the folded ones)."""
    found: list[str] = board.locator(".tl-quiz-feedback .tl-reasons li").evaluate_all(
        "els => els.map(e => e.dataset.rule)"
    )
    return found


def test_kalah_quiz_level_1_by_place_buttons_to_the_summary(voila_url: str, browser: Any) -> None:
    asked = puzzles.questions("kalah", seed=1, level=1)
    assert len(asked) == quiz.DEFAULT_COUNT, "the app asks the default number of questions (no count= link)"
    page, log = open_page(browser, render(voila_url, "quiz", "game=kalah&seed=1&level=1"))
    board = wait_drawn(page)
    missed = {2, 5}
    results = []
    for question in asked:
        wait_question(page, question.number)
        assert set(question.answer) == engine_answer(question), "the puzzle agrees with the checked match"
        expect(board.locator(".tl-caption")).to_contain_text(question.prompt)
        buttons = board.locator(".tl-quiz-choices button[data-intent='answer']")
        shown = buttons.evaluate_all("els => els.map(e => e.dataset.value)")
        assert sorted(shown, key=int) == [c.value for c in question.choices], "every place of the board, once"
        pick = wrong_choice(question) if question.number in missed else question.answer[0]
        verdict = puzzles.check(question, pick)
        choice_button(board, pick).click()
        mark = "✗" if question.number in missed else "✓"
        expect(board.locator(".tl-quiz-feedback .tl-feedback")).to_have_text(f"{mark} {verdict.feedback}")
        assert marked_answer(board) == list(question.answer)
        cited = deciding_rules(board)
        assert cited == [r.rule_id for r in verdict.deciding] and "mk.sow" in cited, cited
        assert set(rules_cited(page)) >= {r.rule_id for r in verdict.reasons}
        results.append(verdict)
        right = sum(v.correct for v in results)
        expect(board.locator(".tl-score")).to_have_text(f"Score: {right} of {len(results)} right")
        if question.number == 1:
            assert verdict.correct and verdict.feedback.startswith("Right. The last stone lands in ")
        if question.number == 2:
            assert not verdict.correct and verdict.feedback.startswith(f"You chose “{question.label(pick)}”.")
            expect(page.locator(".tricklab-announce")).to_contain_text(verdict.feedback)
        if question.number < len(asked):
            page.get_by_role("button", name="Next ▶").click()
    expected = quiz.summary(results)
    end = board.locator(".tl-quiz-end")
    expect(end.locator("h4")).to_have_text(f"The end: {expected.right} of {len(asked)} right")
    rows = end.locator(".tl-quiz-missed-item")
    assert rows.evaluate_all("els => els.map(e => e.dataset.question)") == [str(n) for n in sorted(missed)]
    for row, miss in zip(rows.all(), expected.missed, strict=True):
        assert isinstance(miss, puzzles.PositionVerdict)
        q = miss.question
        expect(row).to_contain_text(f"You chose {q.label(miss.given)}; the answer is {q.label(miss.right[0])}.")
    expect(end.locator(".tl-quiz-advice")).to_have_text(expected.advice)
    page.close()
    assert log.javascript_errors() == []


def test_kalah_quiz_level_3_answered_by_clicking_a_pit(voila_url: str, browser: Any) -> None:
    first, second = puzzles.questions("kalah", seed=1, level=3, count=2)
    assert first.kind == second.kind == "move"
    page, log = open_page(browser, render(voila_url, "quiz", "game=kalah&seed=1&level=3"))
    board = wait_drawn(page)
    pits = board.locator(".tl-board button.tl-pit[data-intent='answer']")
    assert pits.evaluate_all("els => els.map(e => e.dataset.value)") == [c.value for c in first.choices]
    assert set(first.answer) == engine_answer(first)
    board.locator(f".tl-board button.tl-pit[data-value='{first.answer[0]}']").click()
    verdict = puzzles.check(first, first.answer[0])
    expect(board.locator(".tl-quiz-feedback .tl-feedback")).to_have_text(f"✓ {verdict.feedback}")
    assert deciding_rules(board) == [r.rule_id for r in verdict.deciding] == ["mk.capture"]
    assert sorted(marked_answer(board)) == sorted(first.answer), "every move that captures is marked"
    expect(board.locator(".tl-board button[data-intent='answer']")).to_have_count(0)  # answered: no more pits to press
    page.get_by_role("button", name="Next ▶").click()
    wait_question(page, 2)
    wrong = wrong_choice(second)
    board.locator(f".tl-board button.tl-pit[data-value='{wrong}']").click()
    missed = puzzles.check(second, wrong)
    expect(board.locator(".tl-quiz-feedback .tl-feedback")).to_have_text(f"✗ {missed.feedback}")
    assert "Nothing is captured." in missed.feedback and "mk.capture" in deciding_rules(board)
    expect(board.locator(".tl-score")).to_have_text("Score: 1 of 2 right")
    page.close()
    assert log.javascript_errors() == []


def test_mandala_quiz_yes_and_no_cite_the_engines_rule(voila_url: str, browser: Any) -> None:
    asked = puzzles.questions("mandala", seed=1, level=1, count=3)
    page, log = open_page(browser, render(voila_url, "quiz", "game=mandala&seed=1&level=1"))
    board = wait_drawn(page)
    for question in asked:
        wait_question(page, question.number)
        assert set(question.answer) == engine_answer(question)
        expect(board.locator(".tl-quiz-choices button")).to_have_text(["Yes, it may", "No, it may not"])
        right = question.number != 3
        pick = question.answer[0] if right else wrong_choice(question)
        board.get_by_role("button", name="Yes, it may" if pick == "yes" else "No, it may not").click()
        verdict = puzzles.check(question, pick)
        expect(board.locator(".tl-quiz-feedback .tl-feedback")).to_have_text(
            f"{'✓' if right else '✗'} {verdict.feedback}"
        )
        cited = deciding_rules(board)
        assert cited == [r.rule_id for r in verdict.deciding], cited
        if question.answer == ("no",):
            # the engine's own refusal of the move names the rule the page cites
            match = tricklab.get_rules("mandala", players=2).new_match(seed=question.position.seed)
            for action in question.position.actions:
                match.apply(action)
            with pytest.raises(tricklab.IllegalAction) as refused:
                match.apply(question.asked.action or "")
            assert cited == [refused.value.rule_id]
        if question.number < len(asked):
            page.get_by_role("button", name="Next ▶").click()
    assert [q.answer for q in asked] == [("yes",), ("yes",), ("no",)], "seed 1 asks a no third"
    assert deciding_rules(board) == ["md.color"]
    expect(board.locator(".tl-score")).to_have_text("Score: 2 of 3 right")
    page.close()
    assert log.javascript_errors() == []


# --- try a move -------------------------------------------------------------------------------------


def position(game: str, seed: int) -> tricklab.Match:
    """The trainer's position for ``seed``: the same bots' moves the app plays before it."""
    return MoveTrainer(game, seed=seed).match


def searched_best(match: tricklab.Match) -> str:
    """The move Kalah's searching bot makes, asked here of the bot itself."""
    rules, seat = match.rules, match.to_play
    assert isinstance(rules, Kalah) and seat is not None
    view = match.view(seat)
    assert isinstance(view, KalahView)
    return str(SearchBot(rules, seat, depth=SEARCH_DEPTH).decide(view, match.legal_actions()).action)


def board_shows(scope: Any, game: str) -> dict[str, Any]:
    """What a drawn board shows: Kalah's stones in each place, or each Mandala's chips by area."""
    if game == "kalah":
        labels = scope.locator(".tl-board .tl-pit, .tl-board .tl-store").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))"
        )
        counts = {}
        for label in labels:
            found = re.match(r"(.+?): (\d+) stones?", label)
            assert found, label
            counts[found.group(1)] = int(found.group(2))
        return counts
    shown: dict[str, Any] = scope.locator(".tl-board section.tl-mandala").evaluate_all(
        """els => Object.fromEntries(els.map(m => [m.getAttribute('aria-label'), Object.fromEntries(
            [...m.querySelectorAll('.tl-area')].map(a => [a.getAttribute('aria-label'),
              [...a.querySelectorAll('.tl-chip')].map(c => c.getAttribute('aria-label')).sort()]))]))"""
    )
    return shown


def engine_shows(match: tricklab.Match, game: str, seat: int) -> dict[str, Any]:
    """What the board should show of ``match`` for ``seat``, read from the engine's view."""
    rules = match.rules
    view = match.view(seat)
    if game == "kalah":
        assert isinstance(rules, Kalah) and isinstance(view, KalahView)
        return {rules.place_name(i): n for i, n in enumerate(view.pits)}
    assert isinstance(view, MandalaView)

    def chips(held: dict[str, int]) -> list[str]:
        return sorted(f"{n} {colour}" for colour, n in held.items() if n)

    return {
        f"Mandala {m + 1}": {
            "Mountain": chips(area.mountain),
            **{f"{rules.seat_name(s)}'s Field": chips(field) for s, field in enumerate(area.fields)},
        }
        for m, area in enumerate(view.mandalas)
    }


def check_trainer(page: Any, game: str, seed: int, *, tap: bool) -> None:
    """Every legal move listed, the best marked, two moves tried (from the list, from the board)
    and the position brought back, each board checked against the engine."""

    def press(target: Any) -> None:
        target.tap() if tap else target.click()

    match = position(game, seed)
    seat = match.to_play
    assert seat is not None
    legal = [str(a) for a in match.legal_actions()]
    outcomes = {o.text: o for o in try_moves(match)}
    board = wait_drawn(page)
    rows = board.locator(".tl-move-list tbody tr")
    assert rows.evaluate_all("els => els.map(e => e.dataset.move)") == legal, "every legal move, once"
    assert board.get_attribute("data-moves") == str(len(legal))
    best = board.locator(".tl-move-list tr.tl-verdict-best")
    expect(best).to_have_count(1)
    if game == "kalah":
        assert best.get_attribute("data-move") == searched_best(match), "(best) is the searching bot's move"
        expect(best.locator("th")).to_contain_text("(best)")
    else:
        expect(best.locator("th")).to_contain_text("(the bot's move)")
    before = engine_shows(match, game, seat)
    assert board_shows(board, game) == before

    others = [m for m in legal if m != best.get_attribute("data-move")]
    from_list, from_board = others[0], others[-1]
    for move, where in ((from_list, "list"), (from_board, "board")):
        scope = f".tl-move-list tr[data-move='{move}']" if where == "list" else ".tl-board"
        button = board.locator(f"{scope} button[data-intent='try'][data-value='{move}']")
        expect(button).to_have_count(1)
        press(button)
        tried = board.locator(".tl-tried")
        outcome = outcomes[move]
        expect(tried.locator("h4").first).to_have_text(f"You tried: {outcome.description}")
        assert board.get_attribute("data-tried") == move
        after = match.copy()
        after.apply(move)
        assert board_shows(tried, game) == engine_shows(after, game, seat), f"the board after {move}"
        cited = tried.locator(".tl-reasons li").evaluate_all("els => els.map(e => e.dataset.rule)")
        assert cited == [r.rule_id for r in outcome.reasons] and cited, cited
        expect(tried).to_contain_text("makes a different move")
        box = tried.evaluate("e => { const r = e.getBoundingClientRect(); return [r.top, innerHeight]; }")
        assert 0 <= box[0] < box[1], f"the board after the move is on the screen: {box}"
        press(page.get_by_role("button", name="Back to the position"))
        expect(board.locator(".tl-tried")).to_have_count(0)
        assert board.get_attribute("data-tried") == ""
        assert board_shows(board, game) == before, "back to the position as it was"


@pytest.mark.parametrize("game", GAMES)
def test_try_a_move_lists_every_move_and_shows_the_board_after_it(voila_url: str, browser: Any, game: str) -> None:
    page, log = open_page(browser, render(voila_url, "bid_trainer", f"game={game}&seed=2"), viewport=(1280, 900))
    check_trainer(page, game, 2, tap=False)
    page.close()
    assert log.javascript_errors() == []


@pytest.mark.parametrize("game", GAMES)
def test_try_a_move_on_a_phone_by_tapping(voila_url: str, browser: Any, game: str) -> None:
    page, log = open_phone_page(browser, render(voila_url, "bid_trainer", f"game={game}&seed=3"))
    check_trainer(page, game, 3, tap=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0], "nothing wider than the phone"
    page.context.close()
    assert log.javascript_errors() == []


# --- the gallery and the rulebooks ------------------------------------------------------------------


def example_links(game: str) -> dict[str, str]:
    """The gallery links ``game`` declares: its notebook and query, by app."""
    examples: tuple[Example, ...] = tricklab.find_game(game).capabilities.examples
    return {ex.app: f"{ex.app}?game={game}&{ex.query}" for ex in examples}


@pytest.mark.parametrize(
    ("game", "follow", "drawn"), [("kalah", "replay.ipynb", ".tl-pit"), ("mandala", "play.ipynb", ".tl-mandala")]
)
def test_the_gallery_links_each_game_and_a_link_opens_it(
    voila_url: str, browser: Any, game: str, follow: str, drawn: str
) -> None:
    links = example_links(game)
    assert set(links) == {"play.ipynb", "quiz.ipynb", "bid_trainer.ipynb", "replay.ipynb"}
    page, log = open_page(browser, f"{voila_url}/voila/render/index.ipynb")
    page.locator(".tricklab-gallery").wait_for(timeout=90_000)
    title = tricklab.find_game(game).title
    for app, href in links.items():
        card = page.locator(".tricklab-app-card").filter(has=page.locator(f"h3 a[href='{app}']"))
        link = card.locator(f".tricklab-app-links a[href='{href}']")
        expect(link).to_have_count(1)
        expect(link).to_have_text(re.compile(f"^{title}"))
    with page.context.expect_page() as opened:
        page.locator(f".tricklab-app-links a[href='{links[follow]}']").click()
    app = opened.value
    app.locator(f"{BOARD} {drawn}").first.wait_for(timeout=90_000)
    assert follow in app.url and f"game={game}" in app.url
    expect(app.locator("h1, h2").first).to_contain_text(title)
    assert app.get_by_role("alert").count() == 0, "the link opens the app without a message"
    app.close()
    page.close()
    assert log.javascript_errors() == []


def test_the_rulebooks_have_kalah_and_mandala_with_their_clause_anchors(voila_url: str, browser: Any) -> None:
    page, log = open_page(browser, f"{voila_url}/voila/render/rulebooks.ipynb")
    page.locator("text=mk.capture").first.wait_for(timeout=90_000)
    for game, clause in (("kalah", "mk.capture"), ("mandala", "md.color")):
        rules = tricklab.get_rules(game, players=2)
        heading = page.locator(f"h2[id='{rules.title.replace(' ', '-')}']")
        expect(heading).to_have_count(1)
        expect(heading).to_contain_text(rules.title)
        row = page.locator(f"[id='{clause}']")
        expect(row).to_have_count(1)
        expect(row).to_contain_text(rules.rulebook[clause].text)
        # the anchor is under its game's heading: the first heading above the clause is the game's
        above = row.evaluate(
            """e => [...document.querySelectorAll('h2')]
                 .filter(h => h.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING)
                 .pop()?.textContent"""
        )
        assert above is not None and above.startswith(rules.title), above
    page.close()
    assert log.javascript_errors() == []


# --- axe-core ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("app", ["quiz", "bid_trainer"])
def test_position_apps_have_no_serious_axe_violation(
    voila_url: str, browser: Any, app: str, game: str, theme: str
) -> None:
    """Scanned as drawn, and again once a question is answered or a move tried (more to read)."""
    query = with_theme(f"game={game}&seed=2" + ("&level=3" if app == "quiz" and game == "kalah" else ""), theme)
    page, log = open_page(browser, render(voila_url, app, query))
    try:
        board = wait_drawn(page)
        page.wait_for_timeout(300)  # the widgets' stylesheets settle
        assert_accessible(page, f"{app} {game} ({theme})")
        intent = "answer" if app == "quiz" else "try"
        board.locator(f"[data-intent='{intent}']").first.click()
        board.locator(".tl-quiz-feedback, .tl-tried").first.wait_for()
        assert_accessible(page, f"{app} {game}, answered or tried ({theme})")
    finally:
        page.close()
    assert log.javascript_errors() == []
