"""Controls a board draws from its scene, and the widgets made of one board: without a browser."""

from __future__ import annotations

from typing import Any

import pytest
import traitlets

import tricklab
from tricklab.widgets import Board, TrickExplainer
from tricklab.widgets.controls import Button, Controls, Picker, TextEntry, Toggle
from tricklab.widgets.inputs import PageValue


def board_with_controls() -> tuple[Board, dict[str, list[Any]]]:
    """A board with one control of each kind, and what their handlers were called with."""
    calls: dict[str, list[Any]] = {"picked": [], "pressed": [], "typed": [], "toggled": []}
    picker = Picker("size", "Size", [("small", 1), ("large", 2), ("none", None)], 1, tooltip="how big")
    button = Button("go", "Go", primary=True)
    entry = TextEntry("words", "Words", placeholder="say it", max_length=10)
    toggle = Toggle("loud", "Loud")
    picker.on_change(calls["picked"].append)
    button.on_click(lambda: calls["pressed"].append(True))
    entry.on_submit(calls["typed"].append)
    toggle.on_change(calls["toggled"].append)
    board = Board()
    board.scene = {"html": "<p>hello</p>", "label": "a board"}
    board.use_controls(Controls([[picker, toggle], [entry, button]]))
    return board, calls


def test_the_scene_describes_every_control_in_its_row() -> None:
    board, _ = board_with_controls()
    rows = board.scene["controls"]
    assert [[c["name"] for c in row] for row in rows] == [["size", "loud"], ["words", "go"]]
    size, loud = rows[0]
    assert size == {
        "kind": "picker",
        "name": "size",
        "label": "Size",
        "tooltip": "how big",
        "disabled": False,
        "hidden": False,
        "options": ["small", "large", "none"],
        "index": 0,
    }
    assert loud["kind"] == "toggle" and loud["value"] is False
    assert rows[1][0]["placeholder"] == "say it" and rows[1][0]["max"] == 10
    assert rows[1][1]["primary"] is True
    assert board.scene["html"] == "<p>hello</p>", "the markup is the scene's own"


def test_the_page_changes_controls_by_name_and_handlers_run() -> None:
    board, calls = board_with_controls()
    board.control("size", "2")
    board.control("loud", "true")
    board.control("words", "hi there")
    board.control("go", None)
    assert calls == {"picked": [None], "pressed": [True], "typed": ["hi there"], "toggled": [True]}
    controls = board.controls
    assert controls is not None
    assert controls["size"].value is None and board.scene["controls"][0][0]["index"] == 2
    assert board.scene["controls"][0][1]["value"] is True
    assert board.scene["controls"][1][0]["value"] == "hi there"
    assert board.message == ""


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("size", "3", "not one of the choices"),
        ("size", "-1", "not one of the choices"),
        ("size", "²", "not one of the choices"),
        ("size", None, "not one of the choices"),
        ("size", "9" * 5000, "not one of the choices"),
        ("loud", "yes", "not on or off"),
        ("words", "x" * 11, "takes 10 at most"),
        ("words", None, "sent no text"),
        ("nowhere", "1", "not here"),
        ("<b>", "1", "not here"),
    ],
)
def test_a_refused_change_is_the_message_and_changes_nothing(name: str, value: str | None, words: str) -> None:
    board, calls = board_with_controls()
    scene = board.scene
    board.control(name, value)
    assert words in board.message
    assert board.scene == scene and all(not made for made in calls.values())
    assert value is None or len(value) < 100 or value[:100] not in board.message


def test_a_disabled_or_hidden_control_does_nothing() -> None:
    board, calls = board_with_controls()
    controls = board.controls
    assert controls is not None
    controls["go"].disabled = True
    assert board.scene["controls"][1][1]["disabled"] is True, "the page is told at once"
    board.control("go", None)
    assert calls["pressed"] == [] and "cannot be used now" in board.message
    controls["size"].hidden = True
    board.control("size", "1")
    assert calls["picked"] == [] and controls["size"].value == 1


def test_python_sets_controls_as_the_page_does() -> None:
    board, calls = board_with_controls()
    controls = board.controls
    assert controls is not None
    controls["size"].value = 2
    assert calls["picked"] == [2] and board.scene["controls"][0][0]["index"] == 1
    with pytest.raises(tricklab.InvalidOption):
        controls["size"].value = 7
    assert controls["size"].value == 2
    with pytest.raises(tricklab.InvalidOption, match="no control named"):
        controls["nowhere"]


def test_controls_are_checked_when_made() -> None:
    with pytest.raises(tricklab.InvalidOption, match="two controls"):
        Controls([[Button("a", "A")], [Button("a", "A again")]])
    with pytest.raises(tricklab.InvalidOption, match="name"):
        Button("<b>", "B")
    with pytest.raises(tricklab.InvalidOption, match="distinct"):
        Picker("p", "P", [("one", 1), ("also one", 1)], 1)
    with pytest.raises(tricklab.InvalidOption, match="not one of the options"):
        Picker("p", "P", [("one", 1)], 2)
    with pytest.raises(tricklab.InvalidOption):
        Board().use_controls([Button("a", "A")])  # type: ignore[arg-type]


def test_changes_held_together_are_sent_as_one_scene() -> None:
    board, _ = board_with_controls()
    sent: list[Any] = []
    board.observe(lambda change: sent.append(change["new"]), "scene")
    controls = board.controls
    assert controls is not None
    with board.hold_redraw():
        controls["size"].value = 2
        controls["loud"].value = True
        controls["words"].value = "abc"
    assert len(sent) == 1
    assert [c.get("value", c.get("index")) for row in sent[0]["controls"] for c in row] == [1, True, "abc", None]


def test_the_page_sets_only_the_traits_it_may_and_through_their_checks() -> None:
    explainer = TrickExplainer("tricks-and-stones", 4, cards="7H AH")
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    explainer.set_state({"trump": "s"})  # as the page (or a jslink) sets it: the engine's check
    explainer.set_state({"cards": ["7H", "8S"]})
    assert explainer.trump == "S" and explainer.cards == ["7H", "8S"]
    assert explainer.scene["winner"] == str(rules.resolve_trick(["7H", "8S"], trump="S").winning_card) == "8S"
    explainer.set_state({"trump": "h"})
    assert explainer.scene["winner"] == str(rules.resolve_trick(["7H", "8S"], trump="H").winning_card) == "7H"
    explainer.set_state({"cards": ["7H", "7H"]})
    assert explainer.cards == ["7H", "8S"] and "twice" in explainer.message
    explainer.set_state({"players": 9})
    assert explainer.players == 4 and explainer.message
    explainer.set_state({"scene": {"html": "<img src=x onerror=alert(1)>"}, "message": "<b>hi</b>"})
    assert "<img" not in explainer.scene["html"] and explainer.message != "<b>hi</b>"


def test_an_explainers_state_is_traits_one_can_observe_and_link() -> None:
    explainer = TrickExplainer("band-of-tricks", 4)
    seen: list[list[str]] = []
    explainer.observe(lambda change: seen.append(change["new"]), "cards")
    for card in ("P3", "S5"):
        explainer.board.intent("add", card)
    assert seen == [["P3"], ["P3", "S5"]]
    # a second explainer linked to the first shows the same trick, and the link goes both ways
    other = TrickExplainer("band-of-tricks", 4)
    link = traitlets.link((explainer, "cards"), (other, "cards"))
    assert other.cards == ["P3", "S5"] and other.outcome is not None
    other.type_trick("R13 M13")
    expected = tricklab.get_rules("band-of-tricks", players=4).resolve_trick(["R13", "M13"]).winning_card
    assert explainer.cards == ["R13", "M13"] and explainer.scene["winner"] == str(expected)
    link.unlink()
    # a value set from code is checked by the engine: refused, it raises and changes nothing
    with pytest.raises(tricklab.InvalidCard, match="Z99"):
        explainer.cards = ["R13", "Z99"]
    with pytest.raises(tricklab.TricklabError):
        explainer.game = "kalah"
    with pytest.raises(tricklab.TricklabError):
        explainer.trump = "X"
    with pytest.raises(PageValue):
        explainer.cards = ["R" * 500]
    assert explainer.cards == ["R13", "M13"] and explainer.game == "band-of-tricks"
    explainer.game = "jewel-vault"
    assert explainer.rules.name == "jewel-vault" and explainer.cards == []
    assert explainer.game_picker.value == "jewel-vault"


def test_the_explainers_controls_follow_its_traits() -> None:
    explainer = TrickExplainer("tricks-and-stones", 4, cards="7H 8S")
    explainer.trump = None
    drawn = {c["name"]: c for row in explainer.scene["controls"] for c in row}
    assert drawn["trump"]["options"][drawn["trump"]["index"]] == "no trump"
    assert explainer.scene["winner"] == "7H", "without a trump the led suit wins"
    explainer.large = True
    drawn = {c["name"]: c for row in explainer.scene["controls"] for c in row}
    assert drawn["large"]["value"] is True and explainer.scene["large"] is True
    explainer.controls["clear"].click()  # type: ignore[index]
    assert explainer.cards == [] and explainer.controls["entry"].value == ""  # type: ignore[index]


def test_a_progress_bar_and_a_note_only_show() -> None:
    from tricklab.widgets.controls import Note, Progress

    bar = Progress("work", "Play-outs", value=3, maximum=10)
    note = Note("whose", "North's view")
    controls = Controls([[bar, note]])
    assert controls.describe()[0] == [
        {
            "kind": "progress",
            "name": "work",
            "label": "Play-outs",
            "tooltip": "",
            "disabled": False,
            "hidden": False,
            "value": 3,
            "max": 10,
        },
        {"kind": "note", "name": "whose", "label": "North's view", "tooltip": "", "disabled": False, "hidden": False},
    ]
    bar.set(10)
    assert (bar.value, bar.maximum) == (10, 10)
    for bad in [(11, None), (-1, None), (2, 0), (True, None)]:
        with pytest.raises(tricklab.TricklabError, match="progress bar"):
            bar.set(*bad)
    assert (bar.value, bar.maximum) == (10, 10)
    for name in ("work", "whose"):
        with pytest.raises(PageValue, match="only"):
            controls.receive(name, "5")
    assert (bar.value, note.label) == (10, "North's view")
