"""The play table, the stepper and the look toggles for the games drawn on a board (Kalah,
Mandala): what they offer follows what each game declares."""

from __future__ import annotations

import html as html_text
import random
import re
from itertools import pairwise

import pytest

import tricklab
from tricklab.actions import Action, Claim
from tricklab.display.boards import MANDALA_PLACES, mandala_place, one_card
from tricklab.games.base import EventKind
from tricklab.widgets import PlayTable, TrickStepper

BOARD_GAMES = [name for name in tricklab.games() if tricklab.find_game(name).capabilities.board is not None]


def test_the_board_games_are_kalah_and_mandala() -> None:
    assert BOARD_GAMES == ["kalah", "mandala"]


def offered(table: PlayTable, intent: str, value: str) -> bool:
    """Whether the board offers a button sending ``(intent, value)``, not dimmed."""
    html = table.board.scene["html"]
    sent = re.escape(html_text.escape(value))
    tag = re.search(rf'<button [^>]*data-intent="{intent}" data-value="{sent}"[^>]*>', html)
    return tag is not None and 'aria-disabled="true"' not in tag.group(0)


def click_on_board(table: PlayTable, action: Action) -> None:
    """Make ``action`` as the learner does, by the buttons the board offers: a pit, a claim's
    colour; or a Mandala card, then its place, then the number of cards when there is a choice."""
    place = mandala_place(action)
    if place is not None:
        colour = getattr(action, "colour", "")
        assert offered(table, "md-card", colour), action
        table._intent("md-card", colour)
        assert offered(table, "md-place", place), action
        before = len(table.match.actions)
        table._intent("md-place", place)
        if len(table.match.actions) > before:  # one move only goes there: made at once
            assert table.match.actions[before] == action
            return
    assert offered(table, "act", str(action)), action
    table._intent("act", str(action))


def _play_out(table: PlayTable, seed: int) -> None:
    """The learner makes a random legal move on the board until the game is over."""
    rng = random.Random(seed)
    for _ in range(2000):
        if table.match.is_over:
            return
        if table.my_turn:
            action = rng.choice(table.match.legal_actions())
            before = len(table.match.actions)
            click_on_board(table, action)
            assert table.match.actions[before] == action  # every move is on the board
        else:
            table.finish_bots()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_a_whole_game_through_the_boards_moves(game: str) -> None:
    table = PlayTable(game, seed=4)
    _play_out(table, 4)
    result = table.match.result
    assert result is not None
    html = table.board.scene["html"]
    assert "Review my game" not in html  # the game declares no review
    assert table.review() is None and "no review of" in table.message
    status = table.board.scene["announce"]
    if len(result.winners) == 1:
        winner = "you" if result.winners[0] == table.seat else table.rules.seat_name(result.winners[0])
        assert winner in status and status.startswith("The game is over")
    assert "This game, newest first" in html and "This round" not in html


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_on_the_learners_turn_focus_goes_to_a_move_on_the_board(game: str) -> None:
    table = PlayTable(game, seed=2, pace=0)
    table.finish_bots()  # the seed may give the bot the first move
    assert table.my_turn
    focus = table._next_focus(None, table.match.legal_actions())
    if game == "mandala":  # a card of the hand to pick first (or a claim's colour)
        assert focus == "button.tl-pick-card, button.tl-claim"
        assert re.search(r'<button type="button" class="[^"]*\btl-pick-card\b', table.board.scene["html"])
        return
    assert focus == "button.tl-move[data-intent='act']"
    # the selector finds the board's move buttons
    assert re.search(
        r'<button type="button" class="[^"]*\btl-move\b[^"]*"[^>]* data-intent="act"', table.board.scene["html"]
    )


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_no_four_colour_toggle_and_no_trick_controls(game: str) -> None:
    table = PlayTable(game, seed=1)
    assert table.colour_toggle.hidden and not table.large_toggle.hidden
    assert "After a trick: wait for me" not in table.board.scene["html"]
    stepper = TrickStepper(game=game, players=2, seed=1)
    assert stepper.controls is not None
    assert "large" in stepper.controls and "four_colour" not in stepper.controls
    assert "review" not in stepper.controls
    with pytest.raises(tricklab.TricklabError, match="no review"):
        stepper.open_review()


def test_card_games_keep_their_toggles_and_review() -> None:
    table = PlayTable("jewel-vault", 4, seed=1)
    assert not table.colour_toggle.hidden and not table.large_toggle.hidden
    stepper = TrickStepper(game="jewel-vault", players=4, seed=1)
    assert stepper.controls is not None
    assert stepper.review_button in stepper.controls.rows[1] and "four_colour" in stepper.controls


def test_an_illegal_sow_from_the_page_is_refused_and_changes_nothing() -> None:
    table = PlayTable("kalah", seed=1)
    table._intent("act", "sow 3")  # 4 stones: the last lands in the store, Player 1 moves again
    empty = next(p for p in range(1, 7) if table.match.view(0).pits[p - 1] == 0)
    before = table.match.actions
    table._intent("act", f"sow {empty}")
    assert table.match.actions == before
    assert "empty" in table.message
    table._intent("act", '<img src=x onerror="alert(1)">')
    assert table.match.actions == before and "<img src=x" not in table.board.scene["html"]


def test_the_kalah_hint_is_the_search_bots_move() -> None:
    from tricklab.games.kalah.bots import SearchBot

    table = PlayTable("kalah", seed=5)
    hinted = table.hint()
    adviser = table._adviser
    assert isinstance(adviser, SearchBot) and adviser.reached >= 1
    # the search deepens while its time lasts: searched exactly as deep, the hinted move is worth the
    # most (moves worth as much are ordered by the deepening, so the same move need not be chosen)
    values = SearchBot(table.rules, 0, "5:hint", depth=adviser.reached).values(table.match.view(0))
    assert hinted in values and values[hinted] == max(values.values()), (hinted, adviser.reached, values)
    assert any(r.rule_id == "bot.kalah.search" for r in table._hint.reasons)  # type: ignore[union-attr]


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_the_prompt_is_the_engines_own_words_for_the_choice(game: str) -> None:
    table = PlayTable(game, seed=3, pace=0)
    table.finish_bots()
    why = table.rules.explain_choice(table.match.view(table.seat), table.seat)
    assert why.rule_id in table.rules.rulebook
    assert f"Your move: {why.text}" in table.board.scene["html"]


def mandala_turn(seed: int) -> PlayTable:
    table = PlayTable("mandala", seed=seed, pace=0)
    table.finish_bots()
    assert table.my_turn and not any(isinstance(a, Claim) for a in table.match.legal_actions())
    return table


def test_the_hand_is_a_card_to_pick_per_colour_with_its_count() -> None:
    table = mandala_turn(1)
    hand = table.match.view(table.seat).hands[table.seat]
    assert hand
    cards = re.findall(
        r'data-intent="md-card" data-value="([a-z]+)" aria-pressed="false" aria-label="\1, (\d+) cards?',
        table.board.scene["html"],
    )
    assert {colour: int(n) for colour, n in cards} == dict(hand)
    assert "Moves with" not in table.board.scene["html"]  # no list of move buttons any more


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_a_picked_card_lights_the_engines_places_and_dims_the_others_with_its_reasons(seed: int) -> None:
    table = mandala_turn(seed)
    state, record = table.match.state, table.match.to_json()
    legal = table.match.legal_actions()
    for colour in table.match.view(table.seat).hands[table.seat] or {}:
        table._intent("md-card", colour)
        assert re.search(rf'data-value="{colour}" aria-pressed="true"', table.board.scene["html"])
        assert table.board.scene["focus"] == "button.tl-place.tl-open"
        lit = {mandala_place(a) for a in legal if getattr(a, "colour", None) == colour} - {None}
        for place in MANDALA_PLACES:
            assert offered(table, "md-place", place) == (place in lit), (colour, place)
            if place in lit:
                continue
            refused = table.rules.refusal(state, one_card(place, colour))
            assert refused is not None
            # dimmed but there: choosing it says why, in the engine's words, and changes nothing
            assert f'data-value="{place}" aria-disabled="true"' in table.board.scene["html"]
            table._intent("md-place", place)
            html = table.board.scene["html"]
            why = re.search(r'<p class="tl-message tl-why-not" role="alert" data-rule="([^"]+)">(.*?)</p>', html)
            assert why is not None and why.group(1) == refused.rule_id
            said = html_text.unescape(re.sub(r"<[^>]+>", "", why.group(2)))
            assert refused.to_you.rstrip(".") in said
            assert table.rules.rulebook[refused.rule_id].title in said
            assert table.match.to_json() == record and table.match.state is state
        table._intent("md-card", colour)  # tapped again: put back
        assert not re.search(r'aria-pressed="true"', table.board.scene["html"])
    assert table.match.to_json() == record


def test_the_rule_of_color_is_named_when_its_place_is_chosen() -> None:
    table = mandala_turn(0)  # blue is in the Mountain of Mandala 1 and in the hand
    table._intent("md-card", "blue")
    table._intent("md-place", "field-1")
    html = table.board.scene["html"]
    assert 'data-rule="md.color"' in html and "The Rule of Color:" in html
    assert "Blue is already in the Mountain of Mandala 1, so it cannot go into a Field of that Mandala." in html


def test_a_place_with_a_choice_of_numbers_offers_the_engines_moves_there() -> None:
    table = mandala_turn(0)  # 3 blue in a hand of 6: 1, 2 or 3 into a Field of Mandala 2
    table._intent("md-card", "blue")
    table._intent("md-place", "field-2")
    assert table.board.scene["focus"] == ".tl-counts button"
    counts = re.findall(r'data-intent="act" data-value="(field 2 blue \d)"', table.board.scene["html"])
    listed = [str(a) for a in table.match.legal_actions() if str(a).startswith("field 2 blue")]
    assert counts == listed and len(counts) == 3
    before = len(table.match.actions)
    table._intent("act", "field 2 blue 2")
    assert str(table.match.actions[before]) == "field 2 blue 2"


def test_picks_from_the_page_that_make_no_sense_are_refused_and_change_nothing() -> None:
    table = mandala_turn(0)
    record = table.match.to_json()
    hand = table.match.view(table.seat).hands[table.seat] or {}
    missing = next(c for c in ("red", "orange", "yellow", "green", "blue", "purple") if c not in hand)
    for intent, value, said in [
        ("md-place", "mountain-1", "Tap a card in your hand first"),
        ("md-card", "pink", "is not a card of your hand"),
        ("md-card", missing, f"You hold no {missing} card"),
        ("md-place", "field-3", "is not a place on the board"),
        ("md-card", "<b>red</b>", "<b>red</b>"),  # plain text, never markup
    ]:
        table._intent(intent, value)
        assert said in table.message and "<b>" not in table.board.scene["html"], (intent, value)
        assert table.match.to_json() == record
    table._intent("md-card", "blue")
    table._intent("md-place", "discard-1")
    assert "is not a place on the board" in table.message and table.match.to_json() == record


def test_a_claim_is_made_by_tapping_a_colour_of_the_mountain_being_shared_out() -> None:
    table = PlayTable("mandala", seed=3, pace=0)
    rng = random.Random(3)
    for _ in range(400):
        table.finish_bots()
        legal = table.match.legal_actions() if table.my_turn else []
        if legal and all(isinstance(a, Claim) for a in legal):
            break
        assert not table.match.is_over, "no claim of the learner's in this game"
        table.act(rng.choice(legal))
    html = table.board.scene["html"]
    area = re.search(r'<div class="tl-area tl-claim-area".*?</div></div>', html)
    assert area is not None
    claims = re.findall(r'data-intent="act" data-value="(claim [a-z]+)"', area.group(0))
    assert claims == [str(a) for a in legal]
    assert "tap a colour of its Mountain to claim it" in html
    assert "md-card" not in html  # no card to pick meanwhile
    before = len(table.match.actions)
    table._intent("md-card", "red")
    assert len(table.match.actions) == before and table.message
    click_on_board(table, legal[0])
    assert table.match.actions[before] == legal[0]


# --- Kalah: the last move's sowing, for the front end to show stone by stone ----------------------


def test_the_sowing_of_a_move_is_every_step_the_engine_told() -> None:
    table = PlayTable("kalah", seed=1, pace=0.8)
    before = table.match.view(0).pits
    table._intent("act", "sow 2")  # 4 stones from pit 2: pits 3-6, no store, the bot's turn next
    sowing = table.board.scene["sowing"]
    frames = sowing["frames"]
    assert sowing["stone_ms"] == 200 and sowing["key"] == "1:1"
    assert frames[0]["pits"] == list(before) and frames[0]["lifted"] == 0
    assert frames[-1]["pits"] == list(table.match.view(0).pits)
    steps = [s for s in table.match.timeline(0) if s.decisions == 1]
    assert [f["text"] for f in frames[1:]] == [s.event.text for s in steps]
    stones = [f for f in frames if f["mark"] is not None]
    assert len(stones) == 4 and [f["mark"] for f in stones] == [2, 3, 4, 5]
    total = sum(before)
    for earlier, later in pairwise(frames):
        assert sum(later["pits"]) + later["lifted"] == total  # no stone lost on the way
        if later["mark"] is not None:  # exactly one stone more, where it fell
            diff = [b - a for a, b in zip(earlier["pits"], later["pits"], strict=True)]
            assert diff[later["mark"]] == 1 and sum(map(abs, diff)) == 1
            assert later["lifted"] == earlier["lifted"] - 1
    # the bots wait until it is shown, then the pace
    assert table._sowing_seconds() == pytest.approx((len(frames) - 1) * 0.2)


def test_a_bots_move_is_sown_too_and_the_pace_sets_each_stones_time() -> None:
    table = PlayTable("kalah", seed=1, pace=1.6)
    table._intent("act", "sow 2")
    table.next_bot_move()
    sowing = table.board.scene["sowing"]
    assert sowing["key"] == "1:2" and sowing["stone_ms"] == 400
    mover = next(s for s in table.match.timeline(0) if s.decisions == 2).event.seat
    assert mover == 1
    assert any(f["mark"] is not None for f in sowing["frames"])


def test_no_sowing_at_once_after_an_undo_or_under_reduced_motion() -> None:
    table = PlayTable("kalah", seed=1, pace=0)
    table._intent("act", "sow 2")
    assert "sowing" not in table.board.scene  # bots at once: everything at once
    table = PlayTable("kalah", seed=1, pace=0.8)
    table._intent("act", "sow 2")
    assert "sowing" in table.board.scene
    table.undo()
    assert "sowing" not in table.board.scene
    table._intent("act", "sow 2")
    assert table._sowing_seconds() > 0
    table._intent("motion", "reduce")  # the page asks for reduced motion: the bots need not wait
    assert table._sowing_seconds() == 0
    assert PlayTable("mandala", seed=1, pace=0.8).sowing() is None


def test_a_sowing_frame_marks_a_stone_event() -> None:
    table = PlayTable("kalah", seed=2, pace=0.3)
    table._intent("act", "sow 6")
    kinds = [s.event.kind for s in table.match.timeline(0) if s.decisions == 1]
    marks = [f["mark"] for f in table.board.scene["sowing"]["frames"][1:]]
    assert [m is not None for m in marks] == [k == EventKind.STONE for k in kinds]
