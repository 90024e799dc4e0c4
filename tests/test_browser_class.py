"""A whole class session in Chromium, on SQLite (the README's ``tricklab serve``) and on PostgreSQL
(``tricklab serve --class-db postgresql://...``): the teacher starts it on a projector, three
students join (two of them on phones), a question of each kind reaches every device, the projector
counts the answers without names, the reveal marks each student's own answer, the results hold
every answer; a student's page reloaded and the server restarted lose nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .servers import open_page, open_phone_page
from .test_browser_a11y import assert_accessible

pytestmark = pytest.mark.browser

PROJECTOR = (1366, 768)
#: a question's answers a student may click (a card that may not be played is shown, not offered)
ANSWERS = ".tl-class-picture [data-intent=answer]:not([aria-disabled=true])"
#: the questions the teacher sends, one of each kind the list offers
SENT = (
    ("Tricks & Stones", "Quiz: which card wins? (level 1)"),
    ("Band of Tricks", "Which card would you play?"),
    ("Tricks & Stones", "What would you predict, bid or pass?"),
    ("Kalah", "Quiz level 1"),
)


def _class(url: str, query: str) -> str:
    return f"{url}/voila/render/class.ipynb?{query}"


def _start(browser: Any, url: str) -> tuple[Any, str]:
    teacher, log = open_page(browser, _class(url, "teach=1"), viewport=PROJECTOR)
    teacher.get_by_role("button", name="Start a class session").click()
    code = teacher.locator(".tl-class-code").inner_text(timeout=90_000)
    assert re.fullmatch(r"[A-Z0-9]{6}", code) and not log.javascript_errors()
    # the projected address holds no secret; the tab keeps it for a reload
    assert teacher.evaluate("location.search") == "?teach=1"
    assert "teacher=" in teacher.evaluate("sessionStorage.getItem('tricklab-kept:' + location.pathname)")
    return teacher, code


def _join(browser: Any, url: str, code: str, name: str, phone: bool) -> Any:
    opener = open_phone_page if phone else open_page
    page, _ = opener(browser, _class(url, f"join={code}"))
    page.get_by_label("Your name").fill(name, timeout=90_000)
    page.get_by_label("Your name").press("Enter")
    page.get_by_role("button", name="Join the class").click()
    page.locator(".tl-class-waiting").wait_for(timeout=30_000)
    return page


def _send(teacher: Any, game: str, ask: str) -> None:
    teacher.get_by_label("Game").select_option(label=game)
    option = teacher.get_by_label("Question").locator("option", has_text=ask).first
    option.wait_for(state="attached", timeout=15_000)  # the game's questions, once the page has them
    teacher.get_by_label("Question").select_option(label=option.inner_text())
    teacher.get_by_role("button", name="Send to the class").click()


def _session(browser: Any, url: str, restart: Any = None) -> None:
    teacher, code = _start(browser, url)
    students = [
        _join(browser, url, code, name, phone) for name, phone in (("Ana", True), ("Ben", True), ("<b>Cy</b>", False))
    ]
    teacher.get_by_text("3 joined").wait_for(timeout=15_000)
    for number, (game, ask) in enumerate(SENT, start=1):
        _send(teacher, game, ask)
        for page in students:
            page.get_by_text(f"Question {number}:").wait_for(timeout=15_000)
        choices = students[0].locator(ANSWERS)
        assert choices.count() >= 2, "the question is drawn with its answers to click"
        choices.nth(0).click()
        students[1].locator(ANSWERS).nth(1).click()
        teacher.get_by_text("2 of 3 students answered").wait_for(timeout=15_000)
        board = teacher.locator(".tricklab-board").inner_text()
        assert "Ana" not in board and "Ben" not in board, "the projector counts, it never names"
        if number == 2 and restart is not None:  # the server stops and starts again mid-session:
            restart()  # every page opened again from its own address, each on a new kernel
            for page in (teacher, *students):  # (the projector's secret from its tab's keeping)
                page.reload()
            teacher.get_by_text("2 of 3 students answered").wait_for(timeout=90_000)
            for page in students:
                page.get_by_text(f"Question {number}:").wait_for(timeout=90_000)
        teacher.get_by_role("button", name="Reveal the answer").click()
        teacher.locator(".tl-class-bar-right").first.wait_for(timeout=15_000)
        for page in students:
            page.locator(".tl-class-answer").wait_for(timeout=15_000)
        ana = students[0].locator(".tricklab-board").inner_text()
        assert "You are Ana" in ana and ("Right:" in ana or "You chose" in ana)
        assert "You did not answer" in students[2].locator(".tricklab-board").inner_text()
    students[0].reload()  # a student's page opened again: the same student, the last question
    students[0].get_by_text("You are Ana").wait_for(timeout=90_000)
    assert f"Question {len(SENT)}:" in students[0].locator(".tricklab-board").inner_text()
    teacher.get_by_role("button", name="Results").click()
    results = teacher.locator(".tl-class-results").inner_text(timeout=15_000)
    assert "Ana" in results and "Ben" in results and "<b>Cy</b>" in results, "names are text"
    assert len(re.findall(r"[✓✗]", results)) == 2 * len(SENT), "every answer marked"
    href = teacher.locator(".tl-class-csv").get_attribute("href")
    assert href and href.startswith("data:text/csv") and "Ana" in href
    for page in (teacher, *students):
        page.context.close() if page.context.pages == [page] else page.close()


def test_a_whole_session_on_sqlite(voila_url: str, browser: Any) -> None:
    _session(browser, voila_url)


def test_a_whole_session_on_postgresql_goes_on_when_the_server_restarts(browser: Any, postgres_serve: Any) -> None:
    start, restart = postgres_serve
    _session(browser, start(), restart)


def test_a_question_sent_from_an_app_and_a_homework_set(voila_url: str, browser: Any) -> None:
    teacher, code = _start(browser, voila_url)
    teacher.get_by_text("Or send a question from an app").click()
    ana = _join(browser, voila_url, code, "Ana", True)
    teacher.get_by_text("1 joined").wait_for(timeout=15_000)  # the projector drawn again:
    assert teacher.locator("details.tl-class-from-apps").evaluate("box => box.open"), (
        "what the teacher opened stays open"
    )
    with teacher.context.expect_page() as opened:
        teacher.get_by_role("link", name="a quiz question").click()
    quiz = opened.value
    send = quiz.get_by_role("button", name="Send to the class")
    send.wait_for(timeout=90_000)
    assert "teacher=" not in quiz.evaluate("location.search"), "the secret leaves the app's address"
    send.click()
    quiz.get_by_text(f"Sent to class session {code} as question 1.").wait_for(timeout=30_000)
    assert_accessible(quiz, "an app with Send to the class")
    ana.get_by_text("Question 1:").wait_for(timeout=15_000)
    assert_accessible(ana, "a learner's page with a question, on a phone")
    ana.locator(ANSWERS).first.click()
    teacher.get_by_text("1 of 1 student answered").wait_for(timeout=15_000)
    assert_accessible(teacher, "the projector while answers come in")
    quiz.close()

    teacher.get_by_role("button", name="Save as homework").click()
    saved = teacher.locator(".tl-class-saved")
    saved.wait_for(timeout=15_000)
    assert_accessible(teacher, "the projector with a homework set saved")
    join = saved.locator("a").first.get_attribute("href")
    assert join and "join=" in join and code not in join
    dee, _ = open_phone_page(browser, join)
    dee.get_by_label("Your name").fill("Dee", timeout=90_000)
    dee.get_by_role("button", name="Join the class").click()
    dee.get_by_text("Question 1 of 1:").wait_for(timeout=30_000)
    dee.locator(ANSWERS).first.click()
    dee.locator(".tl-class-answer").wait_for(timeout=15_000)  # at once, in a homework set
    assert_accessible(dee, "a homework question answered, on a phone")
    dee.get_by_role("button", name="See your results").click()
    dee.get_by_text("You have answered all 1 question").wait_for(timeout=15_000)
    assert "Ana" not in dee.locator(".tricklab-board").inner_text()
    for page in (teacher, ana, dee):
        page.context.close()
