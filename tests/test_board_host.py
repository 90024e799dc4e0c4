"""A board hosting another: the other's scene in its place, its own row of controls added,
intents and control changes sent where they belong, the other's message shown."""

from __future__ import annotations

import pytest

from tricklab.errors import InvalidOption
from tricklab.widgets import Board, Quiz
from tricklab.widgets.controls import Button, Controls, Toggle


def hosting_board() -> tuple[Board, list[str]]:
    board = Board(scene={"html": "<p>mine</p>", "label": "mine"})
    pressed: list[str] = []
    back = Button("back", "Back")
    back.on_click(lambda: (pressed.append("back"), board.host(None)))
    board.use_controls(Controls([[Toggle("mine", "Mine"), back]]))
    board.on_intent(lambda intent, value: pressed.append(f"{intent}:{value}"))
    return board, pressed


def test_a_board_shows_the_hosted_boards_scene_with_its_own_row() -> None:
    board, pressed = hosting_board()
    quiz = Quiz("band-of-tricks", 4, seed=5, count=3)
    board.host(quiz, [board.controls["back"]])  # type: ignore[index]
    assert board.hosted is quiz
    assert board.scene["html"] == quiz.scene["html"] and board.scene["label"] == quiz.scene["label"]
    rows = board.scene["controls"]
    assert rows[:-1] == quiz.scene["controls"] and [c["name"] for c in rows[-1]] == ["back"]
    # a card click and a control of the quiz reach the quiz; the board's own handlers hear nothing
    answer = str(quiz.question.answer[0])
    board.intent("answer", answer)
    assert quiz.correct is True and pressed == []
    assert board.scene["html"] == quiz.scene["html"], "the hosted board's new scene is shown at once"
    board.control("next", None)
    assert quiz.question_number == 2
    # a refusal of the quiz is its message, shown by the board hosting it
    board.control("level", "99")
    assert quiz.message and board.message == quiz.message
    # the hosting board's own control; then its own scene again
    board.control("back", None)
    assert pressed == ["back"] and board.hosted is None
    assert board.scene["html"] == "<p>mine</p>" and board.message == ""
    assert [c["name"] for row in board.scene["controls"] for c in row] == ["mine", "back"]
    board.intent("x", "1")
    assert pressed == ["back", "x:1"]
    quiz.message = "later"  # no longer hosted: not shown
    assert board.message == ""


def test_a_board_set_while_hosting_shows_its_own_scene_after() -> None:
    board, _ = hosting_board()
    other = Board(scene={"html": "<p>other</p>"})
    board.host(other)
    board.scene = {"html": "<p>mine again</p>"}
    assert board.scene["html"] == "<p>other</p>"
    assert [c["name"] for c in board.scene["controls"][-1]] == ["mine", "back"]  # all its controls by default
    other.scene = {"html": "<p>other 2</p>"}
    assert board.scene["html"] == "<p>other 2</p>"
    board.host(None)
    assert board.scene["html"] == "<p>mine again</p>"


def test_hosting_is_checked() -> None:
    board, _ = hosting_board()
    with pytest.raises(InvalidOption):
        board.host(board)
    with pytest.raises(InvalidOption):
        board.host("a board")  # type: ignore[arg-type]
    with pytest.raises(InvalidOption):
        board.host(Board(), [Button("stranger", "Stranger")])
    other = Board()
    other.use_controls(Controls([[Button("back", "Back")]]))
    with pytest.raises(InvalidOption):
        board.host(other)
    assert board.hosted is None and board.scene["html"] == "<p>mine</p>"
