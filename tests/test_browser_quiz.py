"""The quiz app clicked in Chromium: the right answers come from tricklab.quiz for the same seed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tricklab import quiz
from tricklab.cards import Card
from tricklab.display import PLACE_WORDS, card_label

from .servers import ARTIFACTS, open_page

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"


def render(voila_url: str, query: str = "") -> str:
    return f"{voila_url}/voila/render/quiz.ipynb" + (f"?{query}" if query else "")


def wait_for_board(page: Any) -> None:
    page.locator(f"{BOARD} .tl-card").first.wait_for(timeout=90_000)


def wait_question(page: Any, number: int) -> None:
    page.wait_for_function("([sel, n]) => document.querySelector(sel)?.dataset.step === String(n)", arg=[BOARD, number])


def card_button(page: Any, card: Card) -> Any:
    return page.locator(f"{BOARD} .tl-trick button[data-intent='answer'][data-value='{card}']")


def rules_cited(page: Any) -> list[str]:
    cited: list[str] = page.locator(f"{BOARD} .tl-reasons li").evaluate_all("els => els.map(e => e.dataset.rule)")
    return cited


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_quiz_answered_right_then_wrong_by_clicking(voila_url: str, browser: Any) -> None:
    first, second = quiz.questions("band-of-tricks", players=4, seed=7, level=2, count=2)
    page, log = open_page(browser, render(voila_url, "game=band-of-tricks&players=4&seed=7&level=2"))
    wait_for_board(page)
    wait_question(page, 1)
    shown = page.locator(f"{BOARD} .tl-trick .tl-card").evaluate_all("els => els.map(e => e.dataset.value)")
    assert shown == [str(c) for c in first.cards], "the page asks the same trick as tricklab.quiz"
    expect(page.locator(f"{BOARD} .tl-score")).to_have_text("Score: 0 of 0 right")

    card_button(page, first.answer[0]).click()
    right = quiz.check(first, first.answer[0])
    expect(page.locator(f"{BOARD} .tl-feedback")).to_have_text(f"✓ {right.feedback}")
    assert right.feedback.startswith(f"Right, {first.answer[0].pretty} wins: ")
    expect(page.locator(f"{BOARD} .tl-score")).to_have_text("Score: 1 of 1 right")
    assert rules_cited(page) == [r.rule_id for r in right.reasons]

    page.get_by_role("button", name="Next ▶").click()
    wait_question(page, 2)
    wrong = next(c for c in second.cards if c is not second.answer[0])
    card_button(page, wrong).click()
    verdict = quiz.check(second, wrong)
    (why,) = verdict.deciding
    assert why.cards == (second.answer[0], wrong), "the engine's comparison of the winner with the pick"
    live = page.locator(f"{BOARD} .tl-quiz-feedback .tl-feedback")
    expect(live).to_have_text(f"✗ You chose {wrong.pretty}, but {second.answer[0].pretty} wins: {why.text}")
    # and the board's one live region (outside the redrawn markup) says it
    expect(page.locator(".tricklab-announce")).to_contain_text(f"You chose {wrong.pretty}, but")
    folded = page.locator(f"{BOARD} details.tl-quiz-all")
    expect(folded.locator(".tl-reasons")).to_be_hidden()
    folded.get_by_text("All the reasons", exact=True).click()
    expect(folded.locator(".tl-reasons")).to_be_visible()
    expect(page.locator(f"{BOARD} .tl-score")).to_have_text("Score: 1 of 2 right")
    winner = page.locator(f"{BOARD} .tl-trick .tl-winner")
    assert winner.get_attribute("aria-label") == f"{card_label(second.answer[0])}, wins", "the right card is marked"
    assert rules_cited(page) == [r.rule_id for r in verdict.reasons]
    screenshot(page, "quiz-band-of-tricks")
    page.close()
    assert log.javascript_errors() == []


def test_quiz_podium_answered_with_the_keyboard(voila_url: str, browser: Any) -> None:
    (question,) = quiz.questions("tricks-and-stones", players=4, seed=3, level=3, count=1)
    assert question.kind == "podium"
    page, log = open_page(browser, render(voila_url, "game=tricks-and-stones&players=4&seed=3&level=3"))
    wait_for_board(page)
    for place, card in enumerate(question.answer[:-1]):
        card_button(page, card).focus()
        page.keyboard.press("Enter")
        if place < len(question.answer) - 2:  # the last press answers: the last place is the card left
            expect(card_button(page, card)).to_have_attribute("aria-label", re.compile(f"your {PLACE_WORDS[place]}$"))
    verdict = quiz.check(question, question.answer)
    expect(page.locator(f"{BOARD} .tl-feedback")).to_have_text(f"✓ {verdict.feedback}")
    expect(page.locator(f"{BOARD} .tl-score")).to_have_text("Score: 1 of 1 right")
    places = page.locator(f"{BOARD} .tl-trick .tl-place").all_inner_texts()
    assert places == [PLACE_WORDS[question.outcome.ranking.index(i)] for i in range(len(question.cards))]
    page.close()
    assert log.javascript_errors() == []


def test_quiz_podium_with_one_pair_swapped_marks_those_places_wrong(voila_url: str, browser: Any) -> None:
    (question,) = quiz.questions("tricks-and-stones", players=4, seed=3, level=3, count=1)
    first, second, third, last = question.answer
    page, log = open_page(browser, render(voila_url, "game=tricks-and-stones&players=4&seed=3&level=3"))
    wait_for_board(page)
    for card in (first, third, second):  # 2nd and 3rd swapped; the last place goes to the card left
        card_button(page, card).click()
    verdict = quiz.check(question, (first, third, second, last))
    expect(page.locator(f"{BOARD} .tl-feedback")).to_have_text(f"✗ {verdict.feedback}")
    places = page.locator(f"{BOARD} .tl-quiz-feedback .tl-quiz-place")
    expect(places).to_have_count(4)
    marks = places.evaluate_all("els => els.map(e => [e.dataset.place, e.dataset.correct])")
    assert marks == [["1", "true"], ["2", "false"], ["3", "false"], ["4", "true"]]
    expect(places.nth(0)).to_have_text(f"✓ 1st: {first.pretty}, right")
    wrong = verdict.places[1]
    text = " ".join(r.text for r in wrong.reasons)
    expect(places.nth(1)).to_have_text(f"✗ 2nd: {third.pretty}, wrong: {third.pretty} is 3rd. {text}")
    assert verdict.feedback.startswith("2 of 4 places right.")
    expect(page.locator(f"{BOARD} .tl-score")).to_have_text("Score: 0 of 1 right")
    page.close()
    assert log.javascript_errors() == []


def answer_in_page(page: Any, question: quiz.Question, right: bool) -> None:
    wait_question(page, question.number)
    pick = question.answer[0] if right else next(c for c in question.cards if c is not question.answer[0])
    card_button(page, pick).click()
    expect(page.locator(f"{BOARD} .tl-feedback")).to_have_text(re.compile("^✓ Right" if right else "^✗ You chose"))


def test_quiz_end_reviews_the_misses_and_its_button_starts_the_suggested_level(voila_url: str, browser: Any) -> None:
    asked = quiz.questions("jewel-vault", players=4, seed=5, level=2)
    page, log = open_page(browser, render(voila_url, "game=jewel-vault&players=4&seed=5&level=2"))
    wait_for_board(page)
    results = []
    for question in asked:
        right = question.number not in (2, 5, 9)
        answer_in_page(page, question, right)
        pick = question.answer[0] if right else next(c for c in question.cards if c is not question.answer[0])
        results.append(quiz.check(question, pick))
        if question.number < len(asked):
            page.get_by_role("button", name="Next ▶").click()
    expected = quiz.summary(results)
    assert (expected.right, expected.suggested, expected.move) == (7, 2, "stay")
    end = page.locator(f"{BOARD} .tl-quiz-end")
    expect(end.locator("h4")).to_have_text("The end: 7 of 10 right")
    missed = end.locator(".tl-quiz-missed-item")
    assert missed.evaluate_all("els => els.map(e => e.dataset.question)") == ["2", "5", "9"]
    for row, verdict in zip(missed.all(), expected.missed, strict=True):
        chose, answer = verdict.given[0].pretty, verdict.right[0].pretty
        expect(row).to_contain_text(f"You chose {chose}; the answer is {answer}. {verdict.deciding[0].text}")
    expect(end.locator(".tl-quiz-advice")).to_have_text(expected.advice)
    screenshot(page, "quiz-end")
    end.get_by_role("button", name="Start level 2 again").click()
    wait_question(page, 1)
    expect(page.locator(f"{BOARD} .tl-score")).to_have_text("Score: 0 of 0 right")
    expect(page.locator(f"{BOARD} .tl-quiz-end")).to_have_count(0)
    page.close()
    assert log.javascript_errors() == []


def test_quiz_end_button_moves_up_a_level(voila_url: str, browser: Any) -> None:
    asked = quiz.questions("band-of-tricks", players=4, seed=7, level=1, count=10)
    page, log = open_page(browser, render(voila_url, "game=band-of-tricks&players=4&seed=7&level=1"))
    wait_for_board(page)
    for question in asked:
        answer_in_page(page, question, right=question.number != 4)
        if question.number < len(asked):
            page.get_by_role("button", name="Next ▶").click()
    end = page.locator(f"{BOARD} .tl-quiz-end")
    expect(end.locator("h4")).to_have_text("The end: 9 of 10 right")
    end.get_by_role("button", name="Start level 2 ▶").click()
    expect(page.locator(f"{BOARD} .tl-summary strong").first).to_have_text("Level 2: Two suits.")
    (first,) = quiz.questions("band-of-tricks", players=4, seed=7, level=2, count=1)
    shown = page.locator(f"{BOARD} .tl-trick .tl-card").evaluate_all("els => els.map(e => e.dataset.value)")
    assert shown == [str(c) for c in first.cards], "the new level's first question, as tricklab.quiz asks it"
    page.close()
    assert log.javascript_errors() == []


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("game=jewel-vault&players=4&seed=2&level=9", "There is no level “9” in the Jewel Vault quiz"),
        ("game=band-of-tricks&players=8&level=2", "players is not possible"),
    ],
)
def test_quiz_bad_query_string_shows_a_message_and_a_default(
    voila_url: str, browser: Any, query: str, words: str
) -> None:
    page, log = open_page(browser, render(voila_url, query))
    wait_for_board(page)
    expect(page.get_by_role("alert").first).to_contain_text(words)
    assert "Traceback" not in page.inner_text("body")
    assert page.locator(f"{BOARD} .tl-trick button[data-intent='answer']").count() >= 3, "a quiz is shown anyway"
    page.close()
    assert log.javascript_errors() == []
