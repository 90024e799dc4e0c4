"""The stepper as one anywidget: its synced traits (observed, linked, checked), its drawn controls
and what the page may set."""

from __future__ import annotations

from typing import Any

import pytest
import traitlets

import tricklab
from tricklab.widgets import TrickStepper


@pytest.fixture(scope="module")
def match() -> tricklab.Match:
    match: tricklab.Match = tricklab.get_rules("jewel-vault", players=4).play(seed=5)
    return match


def test_the_steppers_state_is_synced_traits_that_observers_see(match: tricklab.Match) -> None:
    stepper = TrickStepper(match)
    synced = {name for name in stepper.keys if name.startswith(("step", "playing", "view", "large", "four", "mess"))}
    assert synced == {"step", "playing", "view", "large", "four_colour", "message"}
    seen: list[tuple[str, Any]] = []
    stepper.observe(lambda change: seen.append((change["name"], change["new"])), ["step", "view", "large"])
    stepper.next_button.click()
    stepper.intent("key", "End")
    stepper.control("view", "2")  # the picker's third option: Player 2's view
    stepper.control("large", "true")
    last = len(stepper.steps) - 1
    assert seen == [("step", 1), ("step", last), ("view", 1), ("large", True)]
    assert stepper.scene["step"] == last and stepper.scene["large"] is True
    assert stepper.controls is not None and stepper.controls["step"].value == str(last)


def test_the_step_links_both_ways_and_drives_the_board(match: tricklab.Match) -> None:
    stepper = TrickStepper(match)

    class Other(traitlets.HasTraits):
        value = traitlets.Int(0)

    other = Other()
    traitlets.link((stepper, "step"), (other, "value"))
    other.value = 7
    assert stepper.step == 7 and stepper.scene["step"] == 7 and stepper.caption in stepper.scene["html"]
    stepper.jump("next", "part")
    assert other.value == stepper.step == stepper.outline.next_part(7)
    two = TrickStepper(match)
    traitlets.link((stepper, "view"), (two, "view"))
    stepper.view = 3
    assert two.seat == 3 and "face-down card" in two.scene["html"]


def test_a_refused_value_changes_nothing(match: tricklab.Match) -> None:
    stepper = TrickStepper(match, step=4)
    before = dict(stepper.scene)
    for name, bad in [("step", -1), ("step", 10**6), ("step", True), ("view", 4), ("view", -1), ("view", True)]:
        with pytest.raises((tricklab.TricklabError, traitlets.TraitError)):
            setattr(stepper, name, bad)
        assert stepper.step == 4 and stepper.view is None and stepper.scene == before, (name, bad)
    # from the page: refused, said in the message, the page sent the value kept
    stepper.set_state({"step": 10**6})
    assert stepper.step == 4 and "step is a step's number" in stepper.message
    for text in ["-3", "٣", "1e3", "", "9" * 13]:
        stepper.control("step", text)
        assert stepper.step == 4 and stepper.message, text
    stepper.set_state({"scene": {"html": "<b>x</b>"}, "seat": 2})  # not the page's to set
    assert stepper.scene["html"] == before["html"] and stepper.seat is None
    stepper.control("step", "12")
    assert stepper.step == 12 and stepper.message == ""


def test_a_seats_stepper_keeps_its_seat_whatever_is_sent(match: tricklab.Match) -> None:
    stepper = TrickStepper(match, seat=2, step=9)
    html = stepper.scene["html"]
    for other in [None, 0, 1, 3]:
        with pytest.raises(tricklab.TricklabError, match="Player 3's view"):
            stepper.view = other
        stepper.set_state({"view": other})
        assert stepper.view == stepper.seat == 2 and stepper.scene["html"] == html
    assert stepper.controls is not None and "view" not in stepper.controls
    stepper.control("view", "0")
    stepper.control("view-label", "0")
    stepper.control("review-seat", "0")  # the review's seat picker is not offered either
    assert stepper.seat == 2 and stepper.review is not None and stepper.review.seat_picker.value == 2


def test_playing_is_a_trait_and_the_toggle_shows_it(match: tricklab.Match) -> None:
    stepper = TrickStepper(match, interval=50)
    stepper.control("play", "true")
    assert stepper.playing and stepper.player.value and stepper.player.label == "Pause"
    stepper.playing = False
    assert not stepper.player.value and stepper.player.label == "Play"


def test_the_review_is_drawn_in_the_steppers_board(match: tricklab.Match) -> None:
    stepper = TrickStepper(match, seat=1)
    assert stepper.controls is not None and stepper.controls["review-run"].hidden
    stepper.control("review-run", None)  # not offered before "Review a round": refused
    assert stepper.review is not None and stepper.review.view is None and stepper.message
    stepper.review_button.click()
    panel = stepper.review
    assert not stepper.controls["review-run"].hidden and stepper.controls["review-seat"].hidden
    panel.samples = 8
    panel.run(background=False)
    assert panel.review is not None and panel.review.seat == 1
    assert "tl-review" in stepper.scene["html"] and stepper.scene["reveal"] == ".tl-review-box"
    first = panel.review.decisions[0]
    stepper.intent("review-moment", str(first.index))
    assert '<section class="tl-moment"' in stepper.scene["html"]
