"""Questions for a class (tricklab.classwork): what every learner's page is shown holds no answer,
no seed and no card the seat to play could not see; the answer, its reasons and the judge's
figures are the engine's own; answers are marked by them, and anything else is refused by name."""

from __future__ import annotations

import json
import re

import pytest

import tricklab
from tricklab import classwork as cw
from tricklab.judge import evaluate
from tricklab.puzzles import check as check_position
from tricklab.puzzles import questions as position_questions
from tricklab.quiz import check, levels, questions, winning_reasons

TRICK_GAMES = [("tricks-and-stones", 4), ("band-of-tricks", 4), ("jewel-vault", 4)]


def _shown_text(question: cw.ClassQuestion) -> str:
    return json.dumps(question.shown(), ensure_ascii=False)


def test_which_wins_is_answered_by_the_engine_and_shows_no_answer() -> None:
    q = cw.which_wins("tricks-and-stones", "7H AH 8S KD", players=4, trump="S")
    outcome = tricklab.get_rules("tricks-and-stones", players=4).resolve_trick("7H AH 8S KD", trump="S")
    assert q.kind == "which-wins" and q.prompt == "Trump is spades ♠. Which card wins this trick?"
    assert q.right == ("8S",) and q.reasons == winning_reasons(outcome)
    assert [c.value for c in q.choices] == ["7H", "AH", "8S", "KD"], "the cards in play order"
    assert q.mark("8S") and not q.mark("AH")
    shown = q.shown()
    assert set(shown) == {"game", "players", "prompt", "html", "choices"}
    assert "tl-winner" not in shown["html"] and "wins" not in str(shown["html"]).replace("card that wins", "")
    assert q.hidden()["right"] == ["8S"] and q.hidden()["reasons"][0]["rule_id"].startswith("ts.")
    assert re.findall(r'data-intent="answer" data-value="([^"]+)"', str(shown["html"])) == ["7H", "AH", "8S", "KD"]


def test_an_answer_that_is_not_a_choice_is_refused_by_name() -> None:
    q = cw.which_wins("band-of-tricks", "P3 S5 R13 M13", players=4)
    for bad in ("R14", "", None, 13, "m13"):
        with pytest.raises(cw.ClassworkError, match="not one of this question's choices"):
            q.mark(bad)
    with pytest.raises(tricklab.TricklabError):
        cw.which_wins("band-of-tricks", "P3 P3", players=4)
    with pytest.raises(cw.ClassworkError, match="not 'a trick'"):
        cw.from_quiz("a trick")  # type: ignore[arg-type]


@pytest.mark.parametrize(("game", "players"), TRICK_GAMES)
def test_a_quiz_question_of_a_trick_asks_which_card_wins(game: str, players: int) -> None:
    for level in range(1, len(levels(game)) + 1):
        for question in questions(game, players, seed=4, level=level, count=3):
            q = cw.from_quiz(question)
            assert q.kind == "quiz" and q.right == (str(question.outcome.winning_card),)
            assert check(question, q.right[0]).correct if question.kind == "winner" else True
            assert "Which card wins this trick?" in q.prompt


@pytest.mark.parametrize(("game", "level"), [("kalah", 1), ("kalah", 2), ("kalah", 3), ("mandala", 1), ("mandala", 2)])
def test_a_position_question_keeps_the_engines_marking(game: str, level: int) -> None:
    for question in position_questions(game, 2, seed=2, level=level, count=2):
        q = cw.from_quiz(question)
        assert q.kind == ("move" if question.kind == "move" else "quiz")
        assert q.right == question.answer and q.reasons == question.marking.reasons
        for choice in question.choices:
            assert q.mark(choice.value) == check_position(question, choice.value).correct
        assert "tl-quiz-ok" not in str(q.shown()["html"]), "no choice is marked while it is open"


def _decision_points(game: str, players: int) -> tuple[tricklab.Match, int, int]:
    rules = tricklab.get_rules(game, players=players)
    match = rules.play(seed=3, bots="heuristic")
    bid = next(i for i, s in enumerate(match.states) if s.phase in ("predict", "bid", "pass") and s.to_play is not None)
    play = next(i for i, s in enumerate(match.states) if s.phase == "play" and s.to_play is not None)
    return match, bid, play


@pytest.mark.parametrize(("game", "players"), TRICK_GAMES)
def test_a_decision_shows_the_seats_own_view_and_the_judges_figures_come_at_the_reveal(game: str, players: int) -> None:
    match, bid_at, play_at = _decision_points(game, players)
    for at, kind in ((bid_at, "bid"), (play_at, "play")):
        q = cw.decision(match, at, samples=30, seed=2)
        ev = evaluate(match, at, samples=30, seed=2)
        assert q.kind == kind
        state = match.states[at]
        seat = state.to_play
        text = _shown_text(q)
        assert "seed" not in text and '"right"' not in text and "points" not in text
        for other in range(players):
            if other == seat:
                continue
            for card in state.hands[other]:  # drawn as a card (its label) or sent as a choice (its code)
                drawn = re.search(rf'aria-label=\\"{re.escape(card.name)}[\\",]', text)
                assert drawn is None and f'"{card}"' not in text, f"{card.name} of another seat reached the learners"
        own = [re.search(rf'aria-label=\\"{re.escape(c.name)}[\\",]', text) for c in state.hands[seat]]
        assert all(own), "its own hand is drawn"
        # the choices in the rules' order, not the judge's (best first)
        order = [str(a) for a in match.rules.legal_actions(state)]
        values = [f"play {c.value}" if kind == "play" else c.value for c in q.choices]
        assert values == sorted(values, key=order.index)
        # the figures are the judge's; right is its best and every choice not told apart from it
        assert q.figures[0].mean == ev.best.mean and q.figures[0].loss == 0
        assert set(q.right) == {f.value for f in q.figures if not f.apart}
        assert all(q.mark(c.value) == (c.value in q.right) for c in q.choices)
        assert q.reasons and q.answer.startswith("The judge's choice:")


def test_only_games_with_a_judge_ask_decisions_and_bad_points_are_refused() -> None:
    kalah = tricklab.get_rules("kalah", players=2).play(seed=1, bots="heuristic")
    with pytest.raises(cw.ClassworkError, match="Kalah has no judge"):
        cw.decision(kalah, 0)
    match, _, _ = _decision_points("tricks-and-stones", 4)
    for bad in (-1, len(match.states), "3", True):
        with pytest.raises(cw.ClassworkError, match="at is a step of the match"):
            cw.decision(match, bad)  # type: ignore[arg-type]
    with pytest.raises(cw.ClassworkError, match="the match is over"):
        cw.decision(match, len(match.states) - 1)
    with pytest.raises(cw.ClassworkError, match="of a Match, not"):
        cw.decision("a match")  # type: ignore[arg-type]


@pytest.mark.parametrize("game", ["kalah", "mandala"])
def test_a_move_on_a_board_is_marked_by_the_engines_own_choice(game: str) -> None:
    from tricklab.moves import try_moves

    rules = tricklab.get_rules(game, players=2)
    match = rules.play(seed=4, bots="heuristic")
    asked = 0
    for at in range(0, len(match.states) - 1, 3):
        state = match.states[at]
        outcomes = try_moves(rules, state)
        if len(outcomes) < 2:
            with pytest.raises(cw.ClassworkError, match="only one move is allowed"):
                cw.best_move(match, at)
            continue
        q = cw.best_move(match, at)
        asked += 1
        assert q.kind == "move" and q.game == game
        # every legal move is a choice, in the rules' order; the engine's best is right
        assert [c.value for c in q.choices] == [o.text for o in outcomes]
        best = next(o for o in outcomes if o.best)
        assert best.text in q.right and q.mark(best.text)
        for o in outcomes:  # a move is right only if it is the best or valued as highly
            assert q.mark(o.text) == (o.best or (o.value is not None and o.value == best.value))
        assert best.description in q.answer and {r.rule_id for r in best.verdict} <= {r.rule_id for r in q.reasons}
        text = _shown_text(q)
        assert '"right"' not in text and "seed" not in text and best.description not in q.prompt
        if rules.capabilities.hidden:  # the other player's hand stays hidden (Mandala)
            other = 1 - state.to_play
            seen = rules.view(state, other).hand
            assert all(f'"{card}"' not in text for card in seen if card not in rules.view(state, state.to_play).hand)
    assert asked >= 5
    with pytest.raises(cw.ClassworkError, match="the match is over"):
        cw.best_move(match, len(match.states) - 1)
    with pytest.raises(cw.ClassworkError, match="of a Match, not"):
        cw.best_move("a match")  # type: ignore[arg-type]


def test_the_projector_counts_every_choice_and_the_reveal_names_the_most_chosen() -> None:
    choices = [("7H", "Seven of Hearts"), ("AH", "Ace of Hearts"), ("8S", "Eight of Spades")]
    assert cw.spread(choices, {"AH": 3, "8S": 1}) == [
        ("7H", "Seven of Hearts", 0),
        ("AH", "Ace of Hearts", 3),
        ("8S", "Eight of Spades", 1),
    ]
    match, bid_at, _ = _decision_points("tricks-and-stones", 4)
    q = cw.decision(match, bid_at, samples=30, seed=2)
    hidden = q.hidden()
    best = q.figures[0].value
    others = [f.value for f in q.figures[1:]]
    counts = {others[0]: 5, others[1]: 2, others[2]: 9}
    shown = cw.most_chosen(hidden, counts, top=2)
    assert [f["value"] for f in shown] == [others[2], others[0], best], "the two most chosen, then the best"
    assert [f["count"] for f in shown] == [9, 5, 0]
    assert cw.most_chosen(cw.which_wins("jewel-vault", "9H 3H 5C QH", players=4).hidden(), {}) == [], "no figures"


def test_what_the_learners_are_shown_is_whole_in_a_process_that_drew_none_of_it() -> None:
    """A learner's kernel shows a picture the teacher's kernel drew: the parts its cards share are in it."""
    from tricklab import display

    shown = str(cw.which_wins("tricks-and-stones", "7H AH 7S KD", players=4, trump="S").shown()["html"])
    uses = set(re.findall(r'<use href="#([^"]+)"/>', shown))
    assert uses and uses <= set(re.findall(r'<g id="([^"]+)">', shown)), "two sevens share their corners, defined in it"
    drawn = dict(display._PARTS)
    display._PARTS.clear()  # another process: none of these parts drawn there
    try:
        assert display.with_defs(shown) == shown
    finally:
        display._PARTS.update(drawn)
