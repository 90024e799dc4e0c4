"""BidTrainer in Python: the learner's bid, the advisor's numbers, and playing it out."""

from __future__ import annotations

import re
import threading

import pytest
import traitlets

from tricklab.actions import Bid, Pass, Predict
from tricklab.advisor import advise
from tricklab.display.charts import Bar, bar_chart
from tricklab.errors import IllegalAction, InvalidOption, InvalidScoreInput, TricklabError
from tricklab.widgets import BidTrainer, Board, bidtrainer
from tricklab.widgets.apps import bid_trainer_app


def test_tricks_and_stones_prediction_by_clicking_and_the_advisors_numbers() -> None:
    trainer = BidTrainer("tricks-and-stones", 4, seed=3, samples=200)
    trainer.board.intent("predict", "4")
    assert trainer.action == Predict(4)
    advice = trainer.try_bid()
    assert advice is not None
    expected = advise(trainer.rules, trainer.match.view(0), bid=4, samples=200, seed=3)
    assert [e.mean for e in advice.estimates] == [e.mean for e in expected.estimates]
    data = trainer.board.scene["data"]
    assert data["tried"] == "predict 4" and data["best"] == expected.best.text
    assert data["mean"] == f"{expected.estimate(4).mean:.4f}"
    html = trainer.board.scene["html"]
    # the tricks chart of each choice played for that is shown (yours, and the best's beside it), then the scores
    charts = 2 + (expected.best.text != "predict 4")
    assert "You make exactly 4 about" in html and html.count('<figure class="tl-chart">') == charts
    assert "Tricks you win (how often), playing for 4 (yours)" in html
    assert trainer.progress.value == trainer.progress.maximum > 200  # play-outs: 200 deals, raced predictions


def test_same_seed_same_numbers_and_a_different_seed_differs() -> None:
    first = BidTrainer("band-of-tricks", 4, seed=5, samples=150)
    second = BidTrainer("band-of-tricks", 4, seed=5, samples=150)
    other = BidTrainer("band-of-tricks", 4, seed=6, samples=150)
    for trainer in (first, second, other):
        trainer.choose({"rock": 1, "soul": 1, "pops": 0})
        trainer.try_bid()
    assert first.board.scene["data"] == second.board.scene["data"]
    assert first.board.scene["html"] == second.board.scene["html"]
    assert other.match.view(0).hand != first.match.view(0).hand


def test_band_of_tricks_steppers_and_zero_success() -> None:
    trainer = BidTrainer("band-of-tricks", 3, seed=2, seat=1, samples=100)
    for value in ("rock:+1", "rock:+1", "pops:+1", "pops:-1", "pops:-1", "soul:+1"):
        trainer.board.intent("bid", value)
    assert trainer.action == Bid(2, 2, 0)  # from the starting bid 0 1 0
    trainer.board.intent("zero")
    assert trainer.action == Bid(zero=True)
    advice = trainer.try_bid()
    assert advice is not None and advice.bid == Bid(zero=True)
    assert "comes out exactly about" in trainer.board.scene["html"]


def test_bad_bids_raise_the_engines_typed_errors() -> None:
    trainer = BidTrainer("band-of-tricks", 4, seed=1, samples=50)
    with pytest.raises(InvalidScoreInput):
        trainer.choose({"rock": 7})
    with pytest.raises(InvalidScoreInput):
        trainer.choose({"metal": 1})
    ts = BidTrainer("tricks-and-stones", 4, seed=1, samples=50)
    with pytest.raises(IllegalAction) as info:  # the engine's refusal of the prediction
        ts.choose(6)
    assert info.value.rule_id == "ts.predict"
    with pytest.raises(InvalidOption) as info:
        ts.choose("3")
    assert info.value.rule_id == "ts.predict" and ts.action == Predict(2)
    with pytest.raises(InvalidOption):
        BidTrainer("tricks-and-stones", 4, seat=4)
    jv = BidTrainer("jewel-vault", 4, seed=2, samples=20)
    hand = jv.match.view(0).hand
    with pytest.raises(IllegalAction):  # the engine refuses a pass of the wrong number of cards
        jv.choose([str(c) for c in hand[:3]] if jv._form.count(jv) != 3 else [str(hand[0])])
    with pytest.raises(InvalidOption) as info:
        jv.choose("2H")
    assert info.value.rule_id == "jv.pass" and jv.picked == []


def test_jewel_vault_passes_are_picked_and_tried() -> None:
    trainer = BidTrainer("jewel-vault", 4, seed=12, samples=40)
    view = trainer.match.view(0)
    assert view.phase == "pass" and view.announced and trainer.what == "pass"
    k = view.announced
    hand = view.hand
    html = trainer.board.scene["html"]
    assert f"named {k}: pick {k} card" in html and html.count('data-intent="pick"') == len(hand)
    trainer._intent("pick", "ZZ")  # not a card in the hand: nothing changes, the learner is told
    assert trainer.picked == [] and "not a card in your hand" in trainer.message
    for card in hand[: k + 1]:
        trainer._intent("pick", str(card))
    assert trainer.picked == list(hand[:k]) and "put it back first" in trainer.message
    trainer._intent("pick", str(hand[0]))  # a second click puts a card back
    assert trainer.picked == list(hand[1:k])
    trainer._intent("clear", None)
    assert trainer.picked == []
    assert trainer.try_bid() is None and "pass" in trainer.message  # nothing picked: the reason is shown
    for card in hand[:k]:
        trainer._intent("pick", str(card))
    advice = trainer.try_bid()
    assert advice is not None and advice.tried is not None and advice.tried.bid == trainer.action
    html = trainer.board.scene["html"]
    assert "brings your side" in html and "Points this round brings your side" in html and "If you pass" in html
    stepper = trainer.play_out()
    assert stepper is not None and trainer.action in stepper.match.actions


def test_cancel_stops_the_advisor_and_says_so() -> None:
    trainer = BidTrainer("tricks-and-stones", 4, seed=4, samples=400)
    trainer._cancel.set()  # a press on Cancel before the first progress report
    original = trainer._cancel.clear
    trainer._cancel.clear = lambda: None  # type: ignore[method-assign]
    try:
        assert trainer.try_bid() is None
    finally:
        trainer._cancel.clear = original  # type: ignore[method-assign]
    assert "Cancelled" in trainer.message and trainer.advice is None


def test_start_runs_in_a_worker_thread() -> None:
    trainer = BidTrainer("tricks-and-stones", 3, seed=8, samples=100)
    trainer.start()
    trainer.wait(60)
    assert trainer.advice is not None and trainer.try_button.disabled is False


def test_every_run_starts_its_bar_at_zero_on_the_click_and_counts_up() -> None:
    """After a finished run the bar is full; the next press of Try it empties it before the page
    is told that a run started (the button disabled), and the run counts 0, ..., samples."""
    trainer = BidTrainer("tricks-and-stones", 4, seed=2, samples=100)
    seen: list[tuple[str, object, bool]] = []

    def record(change: dict[str, object]) -> None:
        seen.append((str(change["name"]), change["new"], threading.current_thread() is threading.main_thread()))

    trainer.progress.observe(record, "value")
    trainer.try_button.observe(record, "disabled")
    for run in range(3):
        seen.clear()
        trainer.start()  # as the click does, on the kernel's main thread
        trainer.wait(60)
        assert trainer.advice is not None
        values = [v for name, v, _ in seen if name == "value"]
        if run == 0:
            assert seen[0] == ("disabled", True, True)  # the bar was still empty from the start
            values.insert(0, 0)
        else:
            assert seen[:2] == [("value", 0, True), ("disabled", True, True)], seen[:3]
        assert values[0] == 0 and values[-1] == trainer.progress.maximum > 100 and len(values) > 10
        assert values == sorted(values), values


def test_the_bar_follows_the_advisors_reports() -> None:
    """The bar shows ``progress(done, total)`` as the advisor reports it, from done=0 on."""
    trainer = BidTrainer("band-of-tricks", 3, seed=4, samples=60)
    reports: list[tuple[int, int]] = []
    trainer.progress.observe(lambda c: reports.append((c["owner"].value, c["owner"].maximum)), "value")
    trainer.progress.value = 60  # a full bar from an earlier run
    reports.clear()
    assert trainer.try_bid() is not None
    # the bar's reset, then the advisor's reports up to its total (Band of Tricks counts bid play-outs)
    assert reports[0] == (0, 60) and reports[-1][0] == reports[-1][1] > 60
    assert [done for done, _ in reports] == sorted(done for done, _ in reports)


def test_play_it_out_takes_the_boards_place_and_back_brings_the_board() -> None:
    trainer = BidTrainer("tricks-and-stones", 4, seed=1, samples=40)
    own = trainer.scene["html"]
    assert trainer.hosted is None and trainer.back_button.hidden and trainer.playout_note.hidden
    trainer.controls["play"].click()  # type: ignore[index]
    assert trainer.stepper is not None and trainer.replay is not None and trainer.hosted is trainer.replay
    # the play-out in the board's place, its title and "Back to the trainer" in a row under its controls
    assert trainer.scene["html"] == trainer.replay.scene["html"] != own
    assert trainer.hosted is trainer.stepper  # the stepper itself, in the trainer's place
    assert [c["name"] for c in trainer.scene["controls"][-1]] == ["playout", "to-trainer"]
    assert trainer.playout_note.label.startswith("This deal played out with your prediction (2)")
    assert not trainer.back_button.hidden
    trainer.control("to-trainer", None)  # as the page sends the press
    assert trainer.hosted is None and trainer.scene["html"] == own and trainer.back_button.hidden
    trainer.play_button.click()
    assert trainer.try_bid() is not None  # the numbers are on the board: it comes back
    assert trainer.hosted is None and "You make exactly" in trainer.scene["html"]
    trainer.play_button.click()
    trainer.new_deal()
    assert trainer.hosted is None and trainer.stepper is None and trainer.replay is None


def test_play_it_out_continues_the_same_deal() -> None:
    trainer = BidTrainer("band-of-tricks", 4, seed=3, seat=2, samples=50)
    trainer.choose({"rock": 1, "soul": 0, "pops": 1})
    stepper = trainer.play_out()
    assert stepper is not None
    assert stepper.match.states[0] == trainer.match.states[0]
    assert Bid(1, 0, 1) in stepper.match.actions
    assert any(step.event.kind == "score" for step in stepper.steps)
    assert "Player 3 bids Rock 1, Soul 0, Pops 1" in stepper.caption
    assert stepper is trainer.stepper and stepper.seat == 2 and stepper.view_picker is None
    assert "played out with your bid (1 0 1), as Player 3 sees it" in trainer.playout_note.label
    if isinstance(stepper, Board):  # the stepper itself in the trainer's place
        assert trainer.hosted is stepper
    else:  # the play-out in words, as Player 3 saw it
        assert (
            trainer.hosted is trainer.replay
            and "Every step, from your bid to the round's score" in trainer.scene["html"]
        )


def test_bid_trainer_app_checks_its_link(monkeypatch: pytest.MonkeyPatch) -> None:
    app = bid_trainer_app("game=jewel-vault&players=4&seed=2")
    assert "Try passes: Jewel Vault" in app.children[0].value and app.children[1].rules.name == "jewel-vault"
    with monkeypatch.context() as patch:  # a game without a decision the trainer takes: the default game
        patch.setattr(bidtrainer, "trains", lambda game: game.name != "jewel-vault")
        app = bid_trainer_app("game=jewel-vault&players=4&seed=2")
    assert "The trainer is for" in app.children[0].value
    assert app.children[1].rules.name == "tricks-and-stones"
    app = bid_trainer_app("game=band-of-tricks&players=5&seed=9&seat=3")
    assert app.children[1].seat == 2 and app.children[1].rules.players == 5


def test_bar_chart_marks_and_labels() -> None:
    html = bar_chart([Bar("0", 1.5, 0.2, ("yours",)), Bar("1", -2.0, marks=("best",))], title="Scores")
    assert 'class="tl-bar tl-bar-yours"' in html and 'class="tl-bar tl-bar-best"' in html
    assert 'aria-label="Scores: 0 1.50; 1 -2.00"' in html
    assert bar_chart([], title="nothing") == ""


def test_the_trainers_state_is_synced_traits_one_can_observe_and_link() -> None:
    trainer = BidTrainer("tricks-and-stones", 4, seed=3, samples=40)
    seen: list[tuple[str, object]] = []
    trainer.observe(lambda c: seen.append((c["name"], c["new"])), names=["seed", "choice", "verdict", "message"])
    assert trainer.choice == "predict 2" and trainer.verdict == ""
    trainer.intent("predict", "4")  # a click on the board
    assert trainer.choice == "predict 4" and ("choice", "predict 4") in seen
    trainer.choice = "predict 1"  # from Python: the same as a click
    assert trainer.action == Predict(1) and "predict 1" in trainer.scene["data"]["bid"]
    assert trainer.try_bid() is not None
    assert trainer.verdict.startswith("You make exactly 1") and ("verdict", trainer.verdict) in seen
    # linked: a second trainer follows the first one's deal and bid
    other = BidTrainer("tricks-and-stones", 4, seed=0, samples=40)
    traitlets.link((trainer, "seed"), (other, "seed"))
    traitlets.link((trainer, "choice"), (other, "choice"))
    assert other.seed == 3 and other.action == Predict(1)
    trainer.controls["new_deal"].click()  # type: ignore[index]
    assert trainer.seed == other.seed == 4 and trainer.verdict == "" and trainer.advice is None
    assert other.match.to_json() == BidTrainer("tricks-and-stones", 4, seed=4).match.to_json()
    assert trainer.message == "A new deal: seed 4."
    trainer.intent("predict", "3")
    assert other.choice == "predict 3" and other.action == Predict(3)
    trainer.four_colour = True
    assert trainer.controls["four_colour"].value is True and trainer.link_state()["four_colour"] == "1"  # type: ignore[index]


def test_a_band_of_tricks_bid_and_a_pass_as_the_choice() -> None:
    bot = BidTrainer("band-of-tricks", 4, seed=3, seat=2, samples=20)
    bot.choice = "bid 1 0 1"
    assert bot.action == Bid(1, 0, 1) and bot.bid == {"rock": 1, "soul": 0, "pops": 1}
    jv = BidTrainer("jewel-vault", 4, seed=12, samples=20)
    k = jv.match.view(0).announced
    hand = jv.match.view(0).hand
    assert jv.choice == "pass"  # nothing picked yet: shown as it is
    jv.intent("pick", str(hand[0]))
    assert jv.choice == f"pass {hand[0]}"
    jv.choice = "pass " + " ".join(str(c) for c in hand[:k])
    assert jv.picked == list(hand[:k])


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("seed", -1),
        ("seed", "3"),
        ("choice", "predict 9"),
        ("choice", "bid 1 0 1"),
        ("choice", "<b>"),
        ("choice", "x" * 300),
    ],
)
def test_a_refused_value_raises_and_changes_nothing(name: str, value: object) -> None:
    trainer = BidTrainer("tricks-and-stones", 4, seed=3, samples=40)
    trainer.intent("predict", "4")
    before = (trainer.seed, trainer.choice, trainer.action, trainer.scene, trainer.match.to_json())
    with pytest.raises((TricklabError, traitlets.TraitError)):
        setattr(trainer, name, value)
    assert (trainer.seed, trainer.choice, trainer.action, trainer.scene, trainer.match.to_json()) == before


def test_the_page_sets_only_the_look_and_through_its_checks() -> None:
    trainer = BidTrainer("tricks-and-stones", 4, seed=3, samples=40)
    trainer.set_state({"seed": 9, "choice": "predict 4", "verdict": "great", "large": True})
    assert trainer.seed == 3 and trainer.choice == "predict 2" and trainer.verdict == ""
    assert trainer.large is True and trainer.scene["large"] is True
    trainer.set_state({"four_colour": "yes"})
    assert trainer.four_colour is False
    trainer.control("try", "x")  # a press with a value: a press
    trainer.wait(60)
    assert trainer.advice is not None
    trainer.control("progress", "7")  # the bar only shows
    assert "only shows progress" in trainer.message
    trainer.control("to-trainer", None)  # hidden while the trainer is shown
    assert "cannot be used now" in trainer.message and trainer.hosted is None


def test_oh_hell_bids_in_its_own_words_and_the_dealer_is_offered_only_the_bids_allowed() -> None:

    trainer = BidTrainer("oh-hell", 4, seed=3, seat=0, samples=60)  # Player 1 deals: the others have bid
    state = trainer.match.state
    assert state.to_play == 0 == state.dealer and None not in state.bids[1:]
    barred = state.size - sum(b for b in state.bids if b is not None)
    html = trainer.board.scene["html"]
    assert "Pick a bid and press Try it." in html and "<h4>Bid</h4>" in html
    offered = re.findall(r'data-intent="predict" data-value="(\d+)"', html)
    assert offered == [str(n) for n in range(state.size + 1) if n != barred]
    with pytest.raises(IllegalAction) as refused:
        trainer.choose(barred)
    assert refused.value.rule_id == "oh.hook"
    allowed = int(offered[0])
    trainer.choose(allowed)
    advice = trainer.try_bid()
    assert advice is not None and Predict(barred) not in {e.bid for e in advice.estimates}
    html = trainer.board.scene["html"]
    assert f"You make exactly {allowed} about" in html and "Each bid was played for." in html
    assert "predict" not in re.sub(r"<[^>]+>", " ", html).lower(), "the game's own word, bid, throughout"


def test_hearts_passes_are_tried_and_shown_as_points_taken() -> None:
    trainer = BidTrainer("hearts", 4, seed=3, seat=1, samples=40)
    html = trainer.board.scene["html"]
    assert "Choose 3 cards of your hand to pass to the left" in html and "Pass 3: picked none yet" in html
    hand = trainer.match.view(1).hand
    for card in hand[-3:]:
        trainer.board.intent("pick", str(card))
    assert trainer.action == Pass(tuple(hand[-3:]))
    advice = trainer.try_bid()
    assert advice is not None
    tried = advice.estimate(trainer.action)
    html = trainer.board.scene["html"]
    assert f"you take {-tried.mean:.1f} points on average this hand" in html
    assert "Expected points per pass tried (points you take, fewer is better)" in html
    assert "brings your side" not in html
