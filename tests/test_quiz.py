"""The quiz: seeded questions per game and level, marked by the engine, and the Quiz widget."""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
from html import escape as html_escape
from typing import Any

import pytest
import traitlets

import tricklab
from tricklab import quiz
from tricklab.cards import Card
from tricklab.display import card_label
from tricklab.widgets import Quiz
from tricklab.widgets.apps import quiz_app

SETUPS = [
    (game, players, step.number)
    for game in tricklab.games()
    for players in tricklab.find_game(game).player_counts
    for step in quiz.levels(game)
]


def facts(questions: tuple[quiz.Question, ...]) -> list[tuple[Any, ...]]:
    return [(q.number, [str(c) for c in q.cards], dict(q.context), q.kind, q.prompt) for q in questions]


def engine(question: quiz.Question) -> tricklab.TrickOutcome:
    rules = tricklab.get_rules(question.game, players=question.players)
    return rules.resolve_trick([str(c) for c in question.cards], **question.context)


def wrong_card(question: quiz.Question) -> Card:
    return next(c for c in question.cards if c is not question.answer[0])


def expected_reasons(question: quiz.Question) -> tuple[tricklab.Reason, ...]:
    return tuple(engine(question).reasons)


# --- the generator ------------------------------------------------------------------------------


def test_same_game_players_seed_and_level_give_the_same_quiz() -> None:
    one = quiz.questions("band-of-tricks", players=4, seed=11, level=3)
    two = quiz.questions("bt", 4, 11, 3)
    assert facts(one) == facts(two) and one == two
    assert len(one) == 10 and [q.number for q in one] == list(range(1, 11))
    # a longer quiz starts with the shorter one's questions; podium or not, the tricks are the same
    longer = quiz.questions("band-of-tricks", players=4, seed=11, level=3, count=25)
    assert facts(longer[:10]) == facts(one)
    ts = quiz.questions("tricks-and-stones", 4, seed=3, level=2)
    ts_podium = quiz.questions("tricks-and-stones", 4, seed=3, level=2, podium=True)
    assert [q.cards for q in ts] == [q.cards for q in ts_podium]
    assert {q.kind for q in ts} == {"winner"} and {q.kind for q in ts_podium} == {"podium"}


def test_other_seeds_levels_and_player_counts_give_other_quizzes() -> None:
    base = facts(quiz.questions("jewel-vault", 4, seed=1, level=2))
    assert facts(quiz.questions("jewel-vault", 4, seed=2, level=2)) != base
    assert facts(quiz.questions("jewel-vault", 5, seed=1, level=2)) != base
    assert facts(quiz.questions("jewel-vault", 4, seed=1, level=1)) != base


def test_a_quiz_is_the_same_in_another_python_process() -> None:
    """A class shares one quiz: nothing may depend on the interpreter's hash seed."""
    code = (
        "from tricklab import quiz\n"
        "for g in ('tricks-and-stones', 'band-of-tricks', 'jewel-vault'):\n"
        "    for q in quiz.questions(g, seed=99, level=2, count=5):\n"
        "        print(g, ' '.join(map(str, q.cards)), dict(q.context))\n"
    )
    here = [
        f"{g} {' '.join(map(str, q.cards))} {dict(q.context)}"
        for g in ("tricks-and-stones", "band-of-tricks", "jewel-vault")
        for q in quiz.questions(g, seed=99, level=2, count=5)
    ]
    for hash_seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        assert out.stdout.splitlines() == here


def test_no_trick_is_asked_twice_in_a_quiz() -> None:
    for game, players, level in SETUPS:
        asked = [(frozenset(q.cards), tuple(q.context.items())) for q in quiz.questions(game, players, 5, level, 60)]
        assert len(set(asked)) == len(asked), (game, players, level)


def _suits(q: quiz.Question) -> set[str]:
    return {c.suit for c in q.cards}


def _meets_its_level(q: quiz.Question) -> bool:
    """Each level's definition, written out again here from the levels' descriptions."""
    cards, led = q.cards, q.cards[0].suit
    winner = q.outcome.winning_card
    trump = q.context.get("trump", "absent")
    if q.game == "tricks-and-stones":
        if q.level == 1:
            return trump is None and sum(c.suit == led for c in cards) >= 2
        if q.level == 2:
            return trump in ("S", "H", "D", "C") and any(c.suit == trump for c in cards)
        others = [c for c in cards if c.suit not in (trump, led)]
        return trump in ("S", "H", "D", "C") and len(others) >= 2 and len({c.suit for c in others}) >= 2
    if q.game == "band-of-tricks":
        if q.level in (1, 2):
            return len(_suits(q)) == q.level
        tie = sum(c.rank == winner.rank for c in cards) >= 2
        return len(_suits(q)) >= 3 and (tie or any(c.suit == "M" for c in cards))
    if q.game == "oh-hell":
        if q.level == 1:
            return all(c.suit != trump for c in cards) and sum(c.suit == led for c in cards) >= 2
        return trump in ("S", "H", "D", "C") and led != trump and any(c.suit == trump for c in cards)
    if q.game == "hearts":
        return _suits(q) == {led} if q.level == 1 else any(c.suit != led for c in cards)
    if q.level == 1:
        return _suits(q) == {led}
    return any(c.suit != led and c.rank > winner.rank for c in cards)


@pytest.mark.parametrize(("game", "players", "level"), SETUPS)
def test_every_question_meets_its_levels_definition(game: str, players: int, level: int) -> None:
    rules = tricklab.get_rules(game, players=players)
    step = quiz.levels(game)[level - 1]
    asked = quiz.questions(game, players, seed=level * 100 + players, level=level, count=40)
    for q in asked:
        assert (q.game, q.players, q.level) == (game, players, level)
        assert len(q.cards) == rules.trick_size, "every question is a full trick"
        assert _meets_its_level(q), q
        assert step.fits(q.outcome)
    if game == "band-of-tricks" and level == 3:
        # level 3 brings both novelties: ties on the highest number, and Metal
        rules_cited = [{r.rule_id for r in q.outcome.reasons} for q in asked]
        assert any("bt.tie.later" in cited for cited in rules_cited)
        assert any(any(c.suit == "M" for c in q.cards) for q in asked)
    if game == "tricks-and-stones" and level == 2:
        assert {q.context["trump"] for q in asked} == {"S", "H", "D", "C"}


def test_level_definitions_reject_tricks_of_other_levels() -> None:
    bt_one_suit, bt_two_suits, bt_many_suits = (step.fits for step in quiz.levels("band-of-tricks"))
    ts_no_trump, ts_trump, ts_off_suit_places = (step.fits for step in quiz.levels("tricks-and-stones"))
    jv_led_suit, jv_off_suit = (step.fits for step in quiz.levels("jewel-vault"))
    bt = tricklab.get_rules("band-of-tricks", players=4)
    one, two, three = (bt.resolve_trick(t) for t in ("P3 P5 P9 P1", "P3 S5 P9 S4", "P3 S5 R13 M13"))
    assert [bt_one_suit(o) for o in (one, two, three)] == [True, False, False]
    assert [bt_two_suits(o) for o in (one, two, three)] == [False, True, False]
    assert [bt_many_suits(o) for o in (one, two, three)] == [False, False, True]
    assert not bt_many_suits(bt.resolve_trick("P3 S5 R13 P11")), "three suits but no tie and no Metal"
    ts = tricklab.get_rules("tricks-and-stones", players=4)
    assert ts_no_trump(ts.resolve_trick("7H AH 8S KD", trump=None))
    assert not ts_no_trump(ts.resolve_trick("7H AH 8S KD", trump="S"))
    assert not ts_no_trump(ts.resolve_trick("7H AS 8S KD", trump=None)), "only one heart: nothing to compare"
    assert ts_trump(ts.resolve_trick("7H AH 8S KD", trump="S"))
    assert not ts_trump(ts.resolve_trick("7H AH 8S KD", trump="C"))
    assert ts_off_suit_places(ts.resolve_trick("7H AH 8S KD", trump="C"))
    assert not ts_off_suit_places(ts.resolve_trick("7H AH 8S KD", trump="S")), "one off-suit card only"
    assert not ts_off_suit_places(ts.resolve_trick("7H AH 8S KS", trump="C")), "off-suit cards of one suit"
    jv = tricklab.get_rules("jewel-vault", players=4)
    assert jv_led_suit(jv.resolve_trick("9H 3H AH QH")) and not jv_led_suit(jv.resolve_trick("9H 3H 5C QH"))
    assert jv_off_suit(jv.resolve_trick("9H 3H KC 2H"))
    assert not jv_off_suit(jv.resolve_trick("9H 3H 5C QH")), "the other suit's card is lower than the winner"
    assert not jv_off_suit(jv.resolve_trick("2H AC")), "an Ace is the lowest card in Jewel Vault"


def test_tricks_and_stones_level_3_asks_for_every_place() -> None:
    asked = quiz.questions("tricks-and-stones", 3, seed=2, level=3)
    assert {q.kind for q in asked} == {"podium"}
    assert all(q.prompt.endswith("Click the cards from first place to last.") for q in asked)
    assert all(q.answer == q.outcome.ranked_cards for q in asked)
    never = quiz.questions("tricks-and-stones", 3, seed=2, level=3, podium=False)
    assert {q.kind for q in never} == {"winner"}
    assert [q.cards for q in never] == [q.cards for q in asked]


def test_prompts_say_the_trump() -> None:
    assert quiz.questions("ts", 4, level=1)[0].prompt == "No suit is trump. Which card wins this trick?"
    q = quiz.questions("ts", 4, level=2)[0]
    trump = q.context["trump"]
    assert trump is not None
    assert q.prompt == f"Trump is {tricklab.cards.SUIT_NAME[trump].lower()} {tricklab.cards.SUIT_SYMBOL[trump]}. " + (
        "Which card wins this trick?"
    )
    assert quiz.questions("jewel-vault", 2, level=1)[0].prompt == "Which card wins this trick?"


# --- marking answers ------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "level"), SETUPS)
def test_answers_are_marked_as_resolve_trick_says(game: str, players: int, level: int) -> None:
    for q in quiz.questions(game, players, seed=3, level=level, count=8, podium=None):
        expected = engine(q)
        assert q.outcome.ranking == expected.ranking
        right = expected.ranked_cards if q.kind == "podium" else (expected.winning_card,)
        assert q.answer == right
        verdict = quiz.check(q, [str(c) for c in right] if q.kind == "podium" else str(right[0]))
        assert verdict.correct and verdict.right == right
        assert [r.rule_id for r in verdict.reasons] == [r.rule_id for r in expected.reasons]
        assert [r.text for r in verdict.reasons] == [r.text for r in expected.reasons]
        wrong = (right[1], right[0], *right[2:]) if q.kind == "podium" else wrong_card(q)
        verdict = quiz.check(q, wrong)
        assert not verdict.correct and verdict.right == right
        if q.kind == "winner":
            assert verdict.feedback.startswith(f"You chose {wrong.pretty}, but {right[0].pretty} wins: ")
        else:
            assert verdict.feedback.startswith(f"{len(right) - 2} of {len(right)} places right.")
        assert verdict.deciding and set(verdict.deciding) <= set(expected_reasons(q)), "only the engine's reasons"


def test_check_asks_the_engine_not_the_stored_outcome() -> None:
    q, other = quiz.questions("band-of-tricks", 4, seed=1, level=2, count=2)
    tampered = dataclasses.replace(q, outcome=other.outcome)
    assert tampered.answer != q.answer
    verdict = quiz.check(tampered, engine(q).winning_card)
    assert verdict.correct and verdict.right == q.answer


def test_winner_feedback() -> None:
    q = quiz.questions("tricks-and-stones", 4, seed=5, level=2)[0]
    best = q.answer[0]
    right = quiz.check(q, best)
    (why,) = right.deciding
    assert right.correct and right.given == (best,) and right.feedback == f"Right, {best.pretty} wins: {why.text}"
    assert why.cards == (best, q.outcome.ranked_cards[1]), "the winner against the card in second place"
    wrong = quiz.check(q, wrong_card(q).pretty)  # Q♥ notation works too
    (why,) = wrong.deciding
    assert why.cards == (best, wrong_card(q))
    assert wrong.feedback == f"You chose {wrong_card(q).pretty}, but {best.pretty} wins: {why.text}"
    assert repr(right) == f"<Verdict right: gave [{best}], answer [{best}]>"


def test_podium_answers() -> None:
    q = quiz.questions("tricks-and-stones", 4, seed=1, level=3)[0]
    order = [str(c) for c in q.answer]
    verdict = quiz.check(q, " ".join(order))
    assert verdict.correct and verdict.places_right == 4
    assert verdict.feedback == "Right, all 4 places: " + ", ".join(c.pretty for c in q.answer) + "."
    swapped = [order[0], order[2], order[1], order[3]]
    verdict = quiz.check(q, swapped)
    assert not verdict.correct and verdict.places_right == 2
    assert verdict.feedback == "2 of 4 places right. The places are " + ", ".join(c.pretty for c in q.answer) + "."


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: quiz.questions("chess"), tricklab.UnknownGame, "there is no game 'chess'"),
        (lambda: quiz.questions("band-of-tricks", level=4), tricklab.InvalidOption, "levels 1 to 3, not 4"),
        (lambda: quiz.questions("jewel-vault", level=3), tricklab.InvalidOption, "levels 1 to 2, not 3"),
        (lambda: quiz.questions("jewel-vault", level=0), tricklab.InvalidOption, "levels 1 to 2"),
        (lambda: quiz.questions("jewel-vault", level="1"), tricklab.InvalidOption, "not '1'"),
        (lambda: quiz.questions("jewel-vault", level=True), tricklab.InvalidOption, "not True"),
        (lambda: quiz.questions("tricks-and-stones", players=5), tricklab.InvalidOption, "3 to 4 players, not 5"),
        (lambda: quiz.questions("jewel-vault", players="4"), tricklab.InvalidOption, "not '4'"),
        (lambda: quiz.questions("band-of-tricks", seed=-1), tricklab.InvalidOption, "a seed must be"),
        (lambda: quiz.questions("band-of-tricks", count=0), tricklab.InvalidOption, "1 to 100 questions"),
        (lambda: quiz.questions("band-of-tricks", count=101), tricklab.InvalidOption, "1 to 100 questions"),
        (lambda: quiz.questions("band-of-tricks", podium=True), tricklab.InvalidOption, "only the winner"),
        (lambda: quiz.questions("jewel-vault", podium=True), tricklab.InvalidOption, "only the winner"),
        (lambda: quiz.questions("tricks-and-stones", podium="yes"), tricklab.InvalidOption, "podium must be"),
    ],
)
def test_bad_settings_raise_typed_errors(call: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words) as caught:
        call()
    assert isinstance(caught.value, tricklab.TricklabError)


def test_bad_player_count_names_the_rule() -> None:
    with pytest.raises(tricklab.InvalidOption) as caught:
        quiz.questions("tricks-and-stones", players=7)
    assert caught.value.rule_id == "ts.players"


def test_bad_answers_raise_typed_errors() -> None:
    q = quiz.questions("tricks-and-stones", 4, seed=1, level=1)[0]
    absent = next(c for c in tricklab.get_rules("tricks-and-stones", players=4).deck() if c not in q.cards)
    with pytest.raises(tricklab.InvalidCard, match="is not in this trick"):
        quiz.check(q, absent)
    with pytest.raises(tricklab.InvalidCard, match="not a card"):
        quiz.check(q, "Z9")
    with pytest.raises(tricklab.InvalidCard, match="not a card of Tricks"):
        quiz.check(q, "2H")
    with pytest.raises(tricklab.InvalidTrick, match="pick one card"):
        quiz.check(q, q.cards[:2])
    with pytest.raises(tricklab.InvalidCard):
        quiz.check(q, 3)  # type: ignore[arg-type]
    podium = quiz.questions("tricks-and-stones", 4, seed=1, level=3)[0]
    with pytest.raises(tricklab.InvalidTrick, match="put all 4 cards"):
        quiz.check(podium, podium.answer[:3])
    with pytest.raises(tricklab.InvalidTrick, match="twice"):
        quiz.check(podium, (*podium.answer[:3], podium.answer[0]))


def test_levels_are_listed_easiest_first() -> None:
    assert [s.title for s in quiz.levels("tricks-and-stones")] == [
        "The led suit, before trumps",
        "Trumps",
        "Every place",
    ]
    assert [s.title for s in quiz.levels("BT")] == ["One suit", "Two suits", "Three or more suits"]
    assert [s.number for s in quiz.levels("jewel-vault")] == [1, 2]
    assert [s.podium for s in quiz.levels("tricks-and-stones")] == [False, False, True]


# --- the widget -----------------------------------------------------------------------------------


def test_widget_right_answer_gives_feedback_reasons_and_score() -> None:
    widget = Quiz("tricks-and-stones", 4, seed=5, level=2)
    q = quiz.questions("tricks-and-stones", 4, seed=5, level=2)[0]
    assert widget.question == q and widget.board.scene["score"] == "0 of 0 right"
    html = widget.board.scene["html"]
    for card in q.cards:
        assert f'data-intent="answer" data-value="{card}"' in html, "every card of the trick is a button"
    assert widget.next_button.disabled
    widget.board.intent("answer", str(q.answer[0]))
    scene = widget.board.scene
    assert scene["correct"] is True and scene["score"] == "1 of 1 right"
    verdict = widget.verdict
    assert verdict is not None
    assert f'<span class="tl-quiz-mark">✓</span> {html_escape(verdict.feedback)}' in scene["html"]
    assert scene["html"].index("✓</span> Right") < scene["html"].index("All the reasons"), "the deciding reason first"
    assert "Score: <strong>1 of 1 right</strong>" in scene["html"]
    assert f'tl-winner" role="img" aria-label="{card_label(q.answer[0])}, wins"' in scene["html"]
    for reason in engine(q).reasons:
        assert f'data-rule="{reason.rule_id}"' in scene["html"]
    assert 'data-intent="answer"' not in scene["html"], "an answered trick takes no more clicks"
    assert not widget.next_button.disabled


def test_widget_wrong_answer_shows_the_right_one_and_counts() -> None:
    widget = Quiz("band-of-tricks", 3, seed=8, level=3)
    first, second = widget.questions[:2]
    widget.pick(first.answer[0])
    widget.control("next", None)  # the page's press of "Next"
    assert widget.question == second and widget.verdict is None and widget.board.scene["step"] == 2
    picked = wrong_card(second)
    verdict = widget.pick(picked)
    assert verdict is not None and not verdict.correct
    html = widget.board.scene["html"]
    (why,) = verdict.deciding
    assert why.cards == (second.answer[0], picked), "the reason compares the winner with the pick"
    expected = f"You chose {picked.pretty}, but {second.answer[0].pretty} wins: {why.text}"
    assert f'<span class="tl-quiz-mark">✗</span> {html_escape(expected)}' in html
    assert f'aria-label="{card_label(second.answer[0])}, wins"' in html, "the right answer is highlighted"
    assert "✗ your pick" in html
    feedback = html.split('<div class="tl-quiz-feedback tl-quiz-wrong-box">', 1)[1]
    assert widget.board.scene["announce"].startswith(expected), "the board's live region says the verdict"
    assert feedback.startswith('<p class="tl-feedback tl-wrong'), "the feedback comes first"
    assert '<details class="tl-quiz-all"><summary>All the reasons</summary>' in html
    assert widget.score == (1, 2) and widget.board.scene["score"] == "1 of 2 right"
    assert repr(widget) == "Quiz(game='band-of-tricks', players=3, seed=8, level=3, question=2/10, score=1/2)"


def test_widget_answers_once_and_moves_on_only_when_answered() -> None:
    widget = Quiz("jewel-vault", 2, seed=4, level=2)
    assert widget.next() is False and widget.index == 0
    widget.board.intent("key", "ArrowRight")
    assert widget.index == 0
    widget.pick(wrong_card(widget.question))
    before = widget.board.scene
    widget.pick(widget.question.answer[0])
    assert widget.score == (0, 1) and widget.board.scene == before
    assert "answered already" in widget.message  # plain text, shown in the widget's live region
    widget.board.intent("key", "ArrowRight")
    assert widget.index == 1 and widget.message == ""


def test_widget_shows_engine_errors_for_cards_not_in_the_trick() -> None:
    widget = Quiz("jewel-vault", 4, seed=4, level=1)
    scene = widget.board.scene
    absent = next(c for c in widget.rules.deck() if c not in widget.question.cards)
    for bad, words in ((str(absent), "is not in this trick"), ("hello", "not a card")):
        widget.board.intent("answer", bad)
        assert words in widget.message
        assert widget.board.scene == scene and widget.score == (0, 0)


def test_widget_podium_clicks_first_to_last_with_take_back() -> None:
    widget = Quiz("tricks-and-stones", 4, seed=6, level=3)
    q = widget.question
    assert q.kind == "podium" and "Click the card for 1st place." in widget.board.scene["html"]
    first, second, third, last = q.answer
    widget.board.intent("answer", str(first))
    widget.board.intent("answer", str(third))
    assert widget.picks == (first, third) and widget.verdict is None
    led = ", led" if third is q.cards[0] else ""
    assert f'aria-label="{card_label(third)}{led}, your 2nd"' in widget.board.scene["html"]
    widget.board.intent("answer", str(third))  # take the 2nd place back
    assert widget.picks == (first,)
    widget.board.intent("answer", str(second))
    verdict = widget.pick(third)  # the last place goes to the card left over
    assert verdict is not None and verdict.correct and verdict.given == (first, second, third, last)
    assert "✓</span> Right, all 4 places:" in widget.board.scene["html"]
    assert widget.board.scene["score"] == "1 of 1 right"
    widget.next()
    q2 = widget.question
    widget.pick(q2.answer[1])
    widget.pick(q2.answer[0])
    widget.pick(q2.answer[2])
    verdict = widget.verdict
    assert verdict is not None and not verdict.correct and verdict.places_right == 2
    html = widget.board.scene["html"]
    assert "✗ you said 2nd" in html and "✗ you said 1st" in html and "✓ your place" in html
    assert "2 of 4 places right" in html
    marks = re.findall(r'data-place="(\d)" data-correct="(true|false)"', html)
    assert marks == [("1", "false"), ("2", "false"), ("3", "true"), ("4", "true")]
    assert widget.board.scene["score"] == "1 of 2 right"


def test_widget_level_picker_restart_and_the_last_question() -> None:
    widget = Quiz("band-of-tricks", 4, seed=2, level=1, count=3)
    widget.pick(widget.question.answer[0])
    widget.control("level", "1")  # the page picks the second level
    assert widget.level == 2 and widget.level_picker.value == 2 and widget.score == (0, 0) and widget.index == 0
    assert widget.questions == quiz.questions("band-of-tricks", 4, seed=2, level=2, count=3)
    assert "Level 2: Two suits." in widget.board.scene["html"]
    for _ in range(3):
        widget.pick(widget.question.answer[0])
        widget.next()
    assert widget.index == 2 and widget.next_button.disabled
    assert "That was the last question: 3 of 3 right." in widget.board.scene["html"]
    widget.control("again", None)  # the page's press of "Start again"
    assert widget.index == 0 and widget.score == (0, 0) and widget.verdict is None
    widget.set_level(3)
    assert widget.level == 3


def test_widget_bad_settings_raise_and_options() -> None:
    with pytest.raises(tricklab.UnknownGame):
        Quiz("chess")
    with pytest.raises(tricklab.InvalidOption):
        Quiz("jewel-vault", level=3)
    with pytest.raises(tricklab.InvalidOption):
        Quiz("band-of-tricks", podium=True)
    widget = Quiz("tricks-and-stones", podium=True, large=True)
    assert widget.question.kind == "podium" and widget.board.scene["large"] is True
    assert repr(widget).startswith("Quiz(game='tricks-and-stones', players=4, seed=0, level=1, podium=True,")
    widget.control("four_colour", "true")
    assert widget.four_colour is True and "tl-four" in widget.board.scene["html"]


# --- the app --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "game", "players", "seed", "level", "message"),
    [
        ("", "tricks-and-stones", 4, 1, 1, None),
        ("game=band-of-tricks&players=5&seed=42&level=3", "band-of-tricks", 5, 42, 3, None),
        ("game=jv&players=2&level=2", "jewel-vault", 2, 1, 2, None),
        ("game=jewel-vault&level=3", "jewel-vault", 4, 1, 1, "There is no level “3” in the Jewel Vault quiz"),
        ("level=0", "tricks-and-stones", 4, 1, 1, "There is no level “0”"),
        ("level=two", "tricks-and-stones", 4, 1, 1, "There is no level “two”"),
        ("game=chess&level=2", "tricks-and-stones", 4, 1, 2, "There is no game"),
        ("seed=abc", "tricks-and-stones", 4, 1, 1, "The seed must be a whole number"),
    ],
)
def test_quiz_app_reads_and_checks_the_link(
    query: str, game: str, players: int, seed: int, level: int, message: str | None
) -> None:
    app = quiz_app(query)
    widget = app.children[1]
    assert isinstance(widget, Quiz)
    assert (widget.rules.name, widget.rules.players, widget.seed, widget.level) == (game, players, seed, level)
    assert widget.questions == quiz.questions(game, players, seed, level)
    header = app.children[0].value
    if message is None:
        assert 'role="alert"' not in header
    else:
        assert message in header and 'role="alert"' in header


def test_quiz_app_escapes_whatever_the_link_says() -> None:
    header = quiz_app("level=%3Cimg%20src=x%20onerror=alert(1)%3E").children[0].value
    assert "<img" not in header and "&lt;img" in header


# --- feedback that answers the pick: hand-made tricks, the engine's own comparisons ------------------


def hand_question(game: str, cards: str, kind: quiz.Kind = "winner", **context: str | None) -> quiz.Question:
    """A question about a trick chosen by hand (the generator never made it)."""
    rules = tricklab.get_rules(game, players=4)
    trick = tuple(rules.card(c) for c in cards.split())
    outcome = rules.resolve_trick(trick, **context)
    return quiz.Question(rules.name, 4, 1, 1, trick, context, kind, "?", outcome)


def pairs(reasons: tuple[tricklab.Reason, ...]) -> list[tuple[str, list[str]]]:
    return [(r.rule_id, [str(c) for c in r.cards]) for r in reasons]


@pytest.mark.parametrize(
    ("game", "cards", "context", "picked", "winner", "deciding"),
    [
        # Tricks & Stones: a trump beats the led suit, whatever the rank
        ("ts", "AH 8S KH 7H", {"trump": "S"}, "AH", "8S", [("ts.rank.trump", ["8S", "AH"])]),
        # ... the led suit beats a card of another suit
        ("ts", "7H AD 8H KC", {"trump": None}, "AD", "8H", [("ts.rank.led", ["8H", "AD"])]),
        ("ts", "7H AD 8H KC", {"trump": None}, "7H", "8H", [("ts.rank.within", ["8H", "7H"])]),
        # Band of Tricks: the number of suits decides. Two suits: Rock beats Soul, whatever the numbers
        ("bt", "S12 R8 S13 R9", {}, "S13", "R9", [("bt.cycle", ["R9", "S13"])]),
        # ... two suits with Metal: Metal loses
        ("bt", "M15 P2 M16 P1", {}, "M16", "P2", [("bt.metal.loses", ["P2", "M16"])]),
        # ... three suits: only the number counts
        ("bt", "R8 S14 P7 M10", {}, "P7", "S14", [("bt.three-suits", ["S14", "P7"])]),
        # Jewel Vault: only the led suit can win; a higher card of another suit cannot
        ("jv", "5H KS 9H 2H", {}, "KS", "9H", [("jv.rank.offsuit", ["KS"])]),
        ("jv", "5H KS 9H 2H", {}, "5H", "9H", [("jv.rank.within", ["9H", "5H"])]),
        # ... no reason compares 9H with 2H directly: the chain down the led suit, each step the engine's
        ("jv", "5H KS 9H 2H", {}, "2H", "9H", [("jv.rank.within", ["9H", "5H"]), ("jv.rank.within", ["5H", "2H"])]),
    ],
)
def test_a_wrong_pick_is_answered_by_the_comparison_that_decides_it(
    game: str, cards: str, context: dict[str, str | None], picked: str, winner: str, deciding: list[Any]
) -> None:
    q = hand_question(game, cards, **context)
    assert str(q.answer[0]) == winner
    verdict = quiz.check(q, picked)
    assert not verdict.correct
    assert pairs(verdict.deciding) == deciding
    assert set(verdict.deciding) <= set(q.outcome.reasons)
    chosen, best = q.rules.card(picked).pretty, q.rules.card(winner).pretty
    assert verdict.feedback == f"You chose {chosen}, but {best} wins: " + " ".join(r.text for r in verdict.deciding)


def test_the_example_feedback_reads_as_a_learner_reads_it() -> None:
    verdict = quiz.check(hand_question("ts", "AH 8S KH 7H", trump="S"), "AH")
    assert verdict.feedback == "You chose A♥, but 8♠ wins: 8♠ beats A♥ because 8♠ is a trump and A♥ is not."


@pytest.mark.parametrize(
    ("game", "cards", "context", "deciding"),
    [
        ("ts", "AH 8S KH 7H", {"trump": "S"}, [("ts.rank.trump", ["8S", "AH"])]),  # against the second place
        ("bt", "S12 R8 S13 R9", {}, [("bt.two-suits", ["S12", "R8", "S13", "R9"])]),  # the suit count, whole
        ("bt", "R10 S10 P2 P3", {}, [("bt.three-suits", ["R10", "S10", "P2", "P3"]), ("bt.tie.later", ["S10", "R10"])]),
        ("jv", "5H KS 9H 2H", {}, [("jv.rank.within", ["9H", "5H"])]),
    ],
)
def test_a_right_pick_is_answered_by_why_the_winner_wins(
    game: str, cards: str, context: dict[str, str | None], deciding: list[Any]
) -> None:
    q = hand_question(game, cards, **context)
    verdict = quiz.check(q, q.answer[0])
    assert verdict.correct and pairs(verdict.deciding) == deciding
    assert verdict.feedback.startswith(f"Right, {q.answer[0].pretty} wins: {verdict.deciding[0].text}")


def test_every_wrong_pick_of_every_level_gets_a_reason_about_the_picked_card() -> None:
    for game, players, level in SETUPS:
        for q in quiz.questions(game, players, seed=11, level=level, count=5, podium=False):
            for card in q.cards:
                if card is q.answer[0]:
                    continue
                deciding = quiz.check(q, card).deciding
                assert deciding, (q, card)
                assert any(card in r.cards for r in deciding), f"{q}: the reasons for {card} do not name it"
                assert deciding[0].cards[0] in (q.answer[0], card), "it starts from the winner or the card"


def test_beating_reasons_refuse_a_pair_in_the_wrong_order() -> None:
    q = hand_question("ts", "AH 8S KH 7H", trump="S")
    with pytest.raises(ValueError, match="does not place above"):
        quiz.beating_reasons(q.outcome, q.rules.card("AH"), q.rules.card("8S"))


# --- podium questions: each place marked ---------------------------------------------------------------


def test_a_podium_answer_marks_each_place_and_gives_the_reasons_for_the_misplaced_cards() -> None:
    # trump ♦, hearts led: 8♦ (trump), 7♥ (led), K♠, K♣ (by suit)
    q = hand_question("ts", "7H KS KC 8D", kind="podium", trump="D")
    assert [str(c) for c in q.answer] == ["8D", "7H", "KS", "KC"]
    verdict = quiz.check(q, "8D KS 7H KC")
    assert not verdict.correct and verdict.places_right == 2
    marks = [(str(p.given), str(p.right), p.correct) for p in verdict.places]
    assert marks == [("8D", "8D", True), ("KS", "7H", False), ("7H", "KS", False), ("KC", "KC", True)]
    first, second, third, last = verdict.places
    assert first.reasons == () and last.reasons == ()
    # K♠ is third: 7♥ beats it (led suit), it beats K♣ (spades before clubs)
    assert pairs(second.reasons) == [("ts.rank.led", ["7H", "KS"]), ("ts.rank.offsuit", ["KS", "KC"])]
    # 7♥ is second: 8♦ beats it (trump), it beats K♠ (led suit)
    assert pairs(third.reasons) == [("ts.rank.trump", ["8D", "7H"]), ("ts.rank.led", ["7H", "KS"])]
    assert verdict.deciding == second.reasons, "the first misplaced card is what the learner reads first"
    assert verdict.feedback == "2 of 4 places right. The places are 8♦, 7♥, K♠, K♣."
    right = quiz.check(q, q.answer)
    assert right.correct and all(p.correct and p.reasons == () for p in right.places)


# --- the end: the misses and the next level ------------------------------------------------------------


def answer_quiz(game: str, level: int, right: int, count: int = 10, players: int = 4) -> list[quiz.Verdict]:
    """The verdicts of a quiz answered right for the first ``right`` questions, wrong after."""
    verdicts = []
    for i, q in enumerate(quiz.questions(game, players, seed=4, level=level, count=count)):
        if q.kind == "podium":
            answer = q.answer if i < right else (q.answer[1], q.answer[0], *q.answer[2:])
        else:
            answer = q.answer if i < right else (wrong_card(q),)
        verdicts.append(quiz.check(q, answer))
    return verdicts


@pytest.mark.parametrize(
    ("game", "level", "right", "suggested", "move"),
    [
        ("band-of-tricks", 2, 10, 3, "up"),
        ("band-of-tricks", 2, 8, 3, "up"),
        ("band-of-tricks", 2, 7, 2, "stay"),
        ("band-of-tricks", 2, 5, 2, "stay"),
        ("band-of-tricks", 2, 4, 1, "back"),
        ("band-of-tricks", 1, 0, 1, "stay"),  # no level below the first
        ("jewel-vault", 2, 9, 2, "stay"),  # no level above the top one
        ("tricks-and-stones", 3, 8, 3, "stay"),
        ("tricks-and-stones", 3, 3, 2, "back"),
    ],
)
def test_the_summary_reviews_the_misses_and_suggests_a_level(
    game: str, level: int, right: int, suggested: int, move: str
) -> None:
    verdicts = answer_quiz(game, level, right)
    result = quiz.summary(verdicts)
    assert (result.right, result.asked, result.answered) == (right, 10, 10)
    assert result.missed == tuple(verdicts[right:]), "every missed question, in order"
    assert all(not v.correct for v in result.missed)
    assert result.suggested == suggested == quiz.suggested_level(game, level, right, 10)
    assert result.move == move
    assert result.advice.startswith(f"{right} of 10 right: ")
    assert f"level {suggested}" in result.advice


def test_a_podium_question_counts_only_when_every_place_is_right() -> None:
    q = hand_question("ts", "7H KS KC 8D", kind="podium", trump="D")
    three_of_four = quiz.check(q, "8D 7H KC KS")
    assert three_of_four.places_right == 2 and not three_of_four.correct
    result = quiz.summary([quiz.check(q, q.answer), three_of_four])
    assert result.right == 1 and result.missed == (three_of_four,)


def test_questions_left_open_count_as_not_right() -> None:
    verdicts: list[quiz.Verdict | None] = [*answer_quiz("jewel-vault", 1, 3, count=3), None, None]
    result = quiz.summary(verdicts)
    assert (result.right, result.answered, result.asked, result.suggested) == (3, 3, 5, 1)
    assert result.advice == "3 of 5 right: try level 1 again; 4 of 5 right moves you up."


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("band-of-tricks", 4, 1, 10), "quiz levels 1 to 3"),
        (("band-of-tricks", 1, 11, 10), "right must be 0 to asked"),
        (("band-of-tricks", 1, -1, 10), "right must be 0 to asked"),
        (("band-of-tricks", 1, 0, 0), "asked is the number of questions of a quiz, 1 to 100"),
        (("band-of-tricks", 1, 5, 10**5000), "not a 5,001-digit number"),
        (("band-of-tricks", 1, True, 10), "right is a whole number"),
    ],
)
def test_suggested_level_refuses_bad_values(args: tuple[Any, ...], words: str) -> None:
    with pytest.raises(tricklab.InvalidOption, match=words):
        quiz.suggested_level(*args)


def test_a_summary_needs_answers_of_one_quiz() -> None:
    with pytest.raises(tricklab.InvalidOption, match="at least one answered"):
        quiz.summary([None, None])
    mixed = [*answer_quiz("jewel-vault", 1, 1, count=1), *answer_quiz("jewel-vault", 2, 1, count=1)]
    with pytest.raises(tricklab.InvalidOption, match="one quiz"):
        quiz.summary(mixed)


# --- the widget: the end of a quiz -------------------------------------------------------------------


def finish(widget: Quiz, right: int) -> None:
    """Answer every question: the first ``right`` right, the others wrong."""
    for i, q in enumerate(widget.questions):
        assert widget.question is q
        if q.kind == "podium":
            widget.answer(q.answer if i < right else (q.answer[1], q.answer[0], *q.answer[2:]))
        else:
            widget.pick(q.answer[0] if i < right else wrong_card(q))
        widget.next()


def test_widget_end_reviews_each_miss_and_its_button_starts_the_suggested_level() -> None:
    widget = Quiz("band-of-tricks", 4, seed=2, level=2, count=3)
    assert widget.summary is None and "tl-quiz-end" not in widget.board.scene["html"]
    finish(widget, right=1)
    html = widget.board.scene["html"]
    result = widget.summary
    assert result is not None and result.suggested == 1 and result.move == "back"
    assert "<h4>The end: 1 of 3 right</h4>" in html
    assert re.findall(r'data-question="(\d+)"', html) == ["2", "3"], "the missed questions, not the right one"
    for verdict in result.missed:
        q = verdict.question
        chose, answer = verdict.given[0].pretty, verdict.right[0].pretty
        assert f"You chose {chose}; the answer is {answer}. {html_escape(verdict.deciding[0].text)}" in html
        assert html_escape(" ".join(c.pretty for c in q.cards)) in html
    assert html_escape(result.advice) in html
    assert 'data-intent="level" data-value="1">◀ Start level 1</button>' in html
    widget.board.intent("level", "1")
    assert widget.level == 1 and widget.index == 0 and widget.score == (0, 0) and widget.level_picker.value == 1
    assert widget.questions == quiz.questions("band-of-tricks", 4, seed=2, level=1, count=3)
    assert "tl-quiz-end" not in widget.board.scene["html"]


def test_widget_end_suggests_the_next_level_or_the_same_again() -> None:
    widget = Quiz("tricks-and-stones", 4, seed=5, level=1, count=5)
    finish(widget, right=5)
    html = widget.board.scene["html"]
    assert "Nothing to review: every answer was right." in html
    assert 'data-value="2">Start level 2 ▶</button>' in html
    assert widget.start_suggested() and widget.level == 2
    finish(widget, right=3)  # 3 of 5: the same level again, the same questions from the first
    assert 'data-value="2">Start level 2 again</button>' in widget.board.scene["html"]
    questions = widget.questions
    widget.board.intent("level", "2")
    assert widget.level == 2 and widget.index == 0 and widget.score == (0, 0) and widget.questions == questions


def test_widget_end_reviews_a_podium_miss_with_its_places() -> None:
    widget = Quiz("tricks-and-stones", 4, seed=6, level=3, count=2)
    finish(widget, right=1)
    html = widget.board.scene["html"]
    assert 'data-question="2"' in html and "(2 of 4 places right); the answer is" in html


@pytest.mark.parametrize("value", ["2", "3", "1 ", "", None, "<b>3</b>", "²", "9" * 500])
def test_widget_level_button_values_it_does_not_show_are_refused(value: str | None) -> None:
    widget = Quiz("band-of-tricks", 4, seed=2, level=2, count=2)
    widget.board.intent("level", "1")  # not finished: no button yet
    assert widget.level == 2 and widget.message
    finish(widget, right=0)  # 0 of 2: the button offers level 1 only
    before = (widget.level, widget.index, tuple(widget.verdicts), widget.board.scene)
    widget.board.intent("level", value)
    assert (widget.level, widget.index, tuple(widget.verdicts), widget.board.scene) == before
    assert widget.message, "plain text: the page shows it as text, never as markup"
    assert len(widget.message) < 300, "a long value is quoted short"


def test_widget_state_is_synced_traits_one_can_observe_and_link() -> None:
    widget = Quiz("band-of-tricks", 4, seed=2, level=1, count=3)
    seen: list[tuple[str, object]] = []
    widget.observe(lambda change: seen.append((change["name"], change["new"])), ["score", "correct", "picked"])
    verdicts: list[object] = []
    widget.observe(lambda _: verdicts.append(widget.correct), "score")  # the verdict set with the score
    answer = widget.question.answer[0]
    widget.board.intent("answer", str(answer))
    assert widget.score == (1, 1) and widget.correct is True and widget.picked == [str(answer)]
    assert ("score", (1, 1)) in seen and ("correct", True) in seen and ("picked", [str(answer)]) in seen
    assert verdicts == [True]
    state = widget.get_state()
    assert list(state["score"]) == [1, 1] and state["correct"] is True and state["question_number"] == 1
    assert state["level"] == 1 and state["seed"] == 2

    other = Quiz("band-of-tricks", 4, seed=2, level=1, count=3)
    traitlets.link((widget, "question_number"), (other, "question_number"))
    traitlets.link((widget, "level"), (other, "level"))
    widget.next()
    assert other.question_number == 2 and other.question == widget.question and other.picked == []
    widget.level = 3  # a new quiz at level 3, in both
    assert other.level == 3 and other.questions == widget.questions and widget.score == (0, 0)
    assert widget.question_number == other.question_number == 1 and widget.correct is None
    widget.question_number = 3  # asks the third question, as a link does
    assert widget.question == widget.questions[2] and other.index == 2


def test_widget_traits_refuse_bad_values_and_the_page_sets_only_its_own() -> None:
    widget = Quiz("jewel-vault", 4, seed=4, level=1, count=2)
    for name, bad in (("level", 3), ("level", 0), ("question_number", 3), ("question_number", 0)):
        with pytest.raises(tricklab.InvalidOption):
            setattr(widget, name, bad)
        assert widget.level == 1 and widget.question_number == 1
    with pytest.raises(traitlets.TraitError):
        widget.score = (5, 5)  # read only: the answers make the score
    scene = widget.board.scene
    widget.set_state({"level": 9})  # the page asks for a level the game has not
    assert widget.level == 1 and "levels 1 to 2" in widget.message and widget.board.scene == scene
    widget.set_state({"score": [9, 9], "correct": True, "question_number": 2, "seed": 7})  # not the page's to set
    assert widget.score == (0, 0) and widget.correct is None and widget.question_number == 1 and widget.seed == 4
    widget.set_state({"level": 2, "four_colour": True})
    assert widget.level == 2 and widget.controls is not None and widget.controls["level"].value == 2
    assert widget.four_colour and "tl-four" in widget.board.scene["html"]


def test_widget_controls_are_drawn_from_the_scene() -> None:
    widget = Quiz("kalah", seed=1, level=1, count=2)
    drawn = {c["name"]: c for row in widget.scene["controls"] for c in row}
    assert drawn["level"]["options"][0] == "1: Where does the last stone land?" and drawn["level"]["index"] == 0
    assert drawn["four_colour"]["hidden"], "a game drawn on a board has no suits to colour"
    assert drawn["next"]["disabled"] and drawn["next"]["primary"] and not drawn["again"]["disabled"]
    widget.board.intent("answer", widget.question.answer[0])
    drawn = {c["name"]: c for row in widget.scene["controls"] for c in row}
    assert not drawn["next"]["disabled"], "Next is usable once the question is answered"
    widget.control("next", "x")  # the page's press
    assert widget.question_number == 2 and widget.scene["controls"][1][0]["disabled"]
    widget.control("next", None)  # disabled now: refused, nothing changes
    assert widget.question_number == 2 and "cannot be used now" in widget.message
    widget.control("new_deal", None)
    assert widget.seed == 2 and widget.question_number == 1 and widget.score == (0, 0)
