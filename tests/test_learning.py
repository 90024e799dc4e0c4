"""Learning from one's own game at the play table and in the replay: finished tricks kept on the
table, round sheets, the end of a game, hints with reasons, the review, the pace and the log."""

from __future__ import annotations

import re
from html import escape, unescape
from urllib.parse import parse_qs

import pytest

import tricklab
from tricklab.actions import Bid, Place, Play
from tricklab.display import card_label
from tricklab.explain import deciding
from tricklab.games.base import EventKind
from tricklab.review import THRESHOLDS
from tricklab.widgets import PlayTable, TrickStepper
from tricklab.widgets.apps import replay_app
from tricklab.widgets.review import ReviewPanel, ReviewView


def html_of(table: PlayTable) -> str:
    """What the table shows: its board's markup and its message (plain text, above the board)."""
    return str(table.board.scene["html"]) + "\n" + table.message


def finished_trick(markup: str) -> str:
    found = re.search(r'<div class="tl-finished".*?<ul class="tl-deciding"', markup, re.S)
    assert found, "no finished trick on the table"
    return found.group(0)


def play_until(table: PlayTable, done: object, limit: int = 3000) -> None:
    """The learner takes the first legal action (and continues from every pause) until ``done()``."""
    assert callable(done)
    for _ in range(limit):
        if done():
            return
        assert not table.match.is_over, "the match ended first"
        if table.paused is not None and not (table.live and table.my_turn):
            assert table.continue_(animate=False)
        else:
            assert table.act(table.match.legal_actions()[0]), table._message
    raise AssertionError("never got there")


@pytest.mark.parametrize(("game", "players"), [("tricks-and-stones", 4), ("band-of-tricks", 3), ("jewel-vault", 2)])
def test_a_finished_trick_stays_on_the_table_with_its_places_winner_and_reason(game: str, players: int) -> None:
    table = PlayTable(game, players, seat=0, seed=4, pace=0)
    play_until(table, lambda: table.paused is not None and table.paused.kind == "trick")
    pause = table.paused
    assert pause is not None
    trick = pause.step.event.data["trick"]
    shown = finished_trick(html_of(table))
    assert shown.count("tl-in-trick") == len(trick.cards) == players * (2 if players == 2 else 1)
    assert shown.count("tl-winner") == 1
    for card in trick.cards:
        assert f'aria-label="{escape(card_label(card))}' in shown
    assert escape(pause.step.event.text) in shown  # who won, with what
    first = deciding(pause.step.event.reasons, trick.winning_card)[0]
    assert escape(first.text) in html_of(table)
    # the bots wait: nothing moves until the learner continues
    moves = len(table.match.actions)
    table._run_bots()
    assert len(table.match.actions) == moves and table.paused is pause
    table.board.intent("key", "ArrowRight")  # the key continues, as the button does
    assert table.paused is not pause


def test_the_learners_own_last_card_of_a_trick_keeps_the_trick_on_the_table() -> None:
    table = PlayTable("tricks-and-stones", 4, seat=0, seed=6, pace=0)

    def last_to_play() -> bool:
        view = table.match.view(0)
        return table.my_turn and table.live and table.paused is None and len(view.trick) == 3

    play_until(table, last_to_play)
    card = next(a for a in table.match.legal_actions() if isinstance(a, Play)).card
    assert table.act(Play(card))
    assert table.paused is not None and table.paused.kind == "trick"
    shown = finished_trick(html_of(table))
    assert shown.count("tl-in-trick") == 4 and "Player 1 (you)" in shown
    assert escape(card_label(card)) in shown


def test_a_rounds_sheet_stays_until_the_learner_starts_the_next_round() -> None:
    table = PlayTable("tricks-and-stones", 4, seat=0, seed=2, pace=0)
    play_until(table, lambda: table.paused is not None and table.paused.kind == "round")
    pause = table.paused
    assert pause is not None
    markup = html_of(table)
    assert "Round 1 is over" in markup and "Start round 2" in markup
    score = next(s for s in pause.sheet if s.event.kind == EventKind.SCORE)
    assert escape(score.event.text) in markup
    scored = table.match.timeline()[pause.step.index].state  # the board as it was scored
    gems = sum(sum(row) for row in scored.board)
    assert gems > 0 and markup.count('class="tl-gem"') == gems
    assert table.match.state.round == 1  # the next round is dealt, but not shown yet
    moves = len(table.match.actions)
    if table.my_turn:
        assert not table.act(table.match.legal_actions()[0])
        assert "The round is over" in html_of(table)
    table._run_bots()
    assert len(table.match.actions) == moves and table.paused is pause
    table.board.intent("continue")
    assert "Round 1 is over" not in html_of(table)


def test_at_game_over_the_table_offers_a_review_a_new_deal_and_a_link_to_this_very_match() -> None:
    table = PlayTable("jewel-vault", 2, seat=1, seed=3, pace=0, hold=0)
    play_until(table, lambda: table.match.is_over)
    markup = html_of(table)
    assert "The game is over" in markup
    assert 'data-intent="review"' in markup and 'data-intent="new-deal"' in markup
    href = unescape(re.search(r'href="(replay\.ipynb\?[^"]*)"', markup).group(1))  # type: ignore[union-attr]
    query = href.split("?", 1)[1]
    assert parse_qs(query)["seed"] == ["3"]
    stepper = replay_app(query).children[1]
    assert isinstance(stepper, TrickStepper)
    assert stepper.match.to_json() == table.match.to_json()
    table.board.intent("new-deal")
    assert table.match.seed == 4 and not table.match.is_over
    assert "A new deal: seed 4" in html_of(table)


def test_a_hint_names_the_action_in_words_with_the_rule_and_the_bots_reason() -> None:
    table = PlayTable("tricks-and-stones", 4, seat=0, seed=11, pace=0, hold=0)
    play_until(table, lambda: table.my_turn and table.match.phase == "play")
    action = table.hint()
    assert action in table.match.legal_actions()
    markup = html_of(table)
    hint = re.search(r'<section class="tl-hint".*?</ul></div></section>', markup, re.S)
    assert hint, "the hint is shown"
    assert f"Hint: {escape(table.rules.describe_action(action, table.match.view(0)))}." in hint.group(0)
    rules = re.findall(r'data-rule="([^"]+)"', hint.group(0))
    assert rules[0] in table.rules.rulebook, "first the rule that limits the choice"
    assert rules[-1].startswith("bot.ts."), "then the bot's rule of thumb"
    assert "judge.figures" in rules and "played out on 100 deals" in hint.group(0), "the judge's figures"
    assert "A quick rule of thumb" in hint.group(0), "the rule of thumb says it is one"
    assert "The heuristic bot would" not in markup


def test_the_review_from_a_rounds_sheet_rates_every_decision_in_place_with_words_and_reasons() -> None:
    table = PlayTable("tricks-and-stones", 4, seat=2, seed=5, pace=0)
    play_until(table, lambda: table.paused is not None and table.paused.kind == "round")
    assert "Review my decisions in this round" in html_of(table)
    view = table.review(0, background=False)
    assert isinstance(view, ReviewView) and table.board is table  # shown in the table's own scene
    review = view.review
    assert review is not None and review.seat == 2 and review.round == 0
    assert all(table.match.states[d.index].to_play == 2 for d in review.decisions)
    out = html_of(table)
    sheet = out[out.index('<section class="tl-sheet"') :]
    # in place: in the sheet, right after the button that asked for it, and the scene brings it into view
    assert sheet.index('data-intent="review"') < sheet.index('class="tl-review-box"') < sheet.index("tl-continue")
    assert table.board.scene["reveal"] == ".tl-review-box" and table.board.scene["reveal_id"] >= 1
    assert out.count('<li class="tl-review-row') == len(review.decisions) > 0
    box = out[out.index('class="tl-review-box"') : out.index("tl-continue")]
    words = unescape(re.sub(r"<[^>]+>", " ", box))  # what the learner reads
    assert "?!" not in words and "??" not in words and "inaccuracy" not in words and "blunder" not in words
    for d in review.decisions:
        assert escape(d.words) in out and d.reasons
    worst = review.costliest
    assert worst is not None
    if worst.verdict not in ("best", "same"):
        assert f"likely {worst.expected:.1f} points".replace("-", "\u2212") in out
        assert escape(table.rules.describe_action(worst.best_action)) in out
    limits = THRESHOLDS["tricks-and-stones"]
    assert f"a big mistake {limits['blunder']:g} points" in out
    assert 'href="rulebooks.ipynb#ts.' in out, "the rules behind the reasons are links to their clauses"


def test_a_review_row_opens_its_moment_and_a_choice_tried_there_shows_the_judges_figure() -> None:
    table = PlayTable("tricks-and-stones", 4, seat=0, seed=7, pace=0)
    play_until(table, lambda: table.paused is not None and table.paused.kind == "round")
    view = table.review(0, background=False)
    assert view is not None and view.review is not None
    d = next(d for d in view.review.decisions if isinstance(d.action, Play))
    table.board.intent("review-moment", str(d.index))
    out = html_of(table)
    moment = out[out.index('<section class="tl-moment"') :]
    assert table.board.scene["reveal"] == ".tl-moment"
    state = table.match.states[d.index]
    for card in state.hands[0]:  # the hand as it was at that moment
        assert escape(card_label(card)) in moment
    other = d.choices[-1]
    table.board.intent("review-retry", other.text)
    out = html_of(table)
    result = re.search(r'<div class="tl-retry-result".*?</div></div>', out, re.S)
    assert result, "the choice tried shows its figure"
    assert f"likely {other.mean:.1f} points".replace("-", "\u2212") in result.group(0)
    assert f"from {other.samples} deals" in result.group(0)
    table.board.intent("review-retry", "play 1X")  # not a choice of that moment: said, nothing else changes
    assert "is not one of the choices rated at that moment" in html_of(table)
    assert view.tried == other.action
    table.board.intent("review-moment", "999999")
    assert "is not a decision of this review" in html_of(table) and view.moment == d.index


def test_a_review_can_be_cancelled_and_started_again() -> None:
    match = tricklab.get_rules("band-of-tricks", players=4).play(seed=3)
    panel = ReviewPanel(match, 1, rounds=(0, 1), round=0)
    panel.run()
    panel.cancel()
    panel.wait()
    assert panel.review is None and "cancelled" in panel.html
    assert not panel.run_button.disabled
    panel.run(background=False)
    assert panel.review is not None and panel.review.seat == 1


def test_a_new_review_stops_the_one_under_way_so_that_one_runs_at_a_time() -> None:
    """Rapid "review" intents (a page may send any number): each stops the review before it, whose
    thread has ended (it takes no more CPU) before the next starts; the last one runs to its end."""
    table = PlayTable("band-of-tricks", 4, seat=1, seed=3, pace=0, hold=0)  # a review of seconds
    play_until(table, lambda: table.match.is_over or (table.paused is not None and table.paused.kind == "round"))
    views: list[ReviewView] = []
    for _ in range(8):
        table.board.intent("review", "1")
        view = table._review
        assert isinstance(view, ReviewView) and view.running
        assert not any(earlier.running for earlier in views), "an earlier review still runs"
        views.append(view)
    assert all(earlier.review is None for earlier in views[:-1])
    last = views[-1]
    last.wait(120)
    assert not last.running and last.review is not None and last.round == 0
    table.board.intent("review", "1")
    running = table._review
    assert isinstance(running, ReviewView) and running.running
    table.board.intent("new-deal")  # the review of the last match goes with it, stopped
    assert not running.running and running.review is None and table._review is None


def test_the_replay_s_review_panel_restarts_for_a_new_pick_and_stops_the_review_under_way() -> None:
    match = tricklab.get_rules("band-of-tricks", players=4).play(seed=3)
    panel = ReviewPanel(match, 1, rounds=(0, 1), round=0, seats=True)
    panel.run()
    first = panel.view
    panel.round_picker.value = 1
    panel.seat_picker.value = 2
    assert panel.run_button.disabled  # a press from the page is refused while it runs; Python may start another
    panel.run()
    assert first is not None and not first.running and panel.running
    panel.wait(120)
    assert panel.review is not None and (panel.review.round, panel.review.seat) == (1, 2)
    assert not panel.run_button.disabled and panel.cancel_button.disabled
    first_row = panel.review.decisions[0]
    reveals: list[str] = []
    panel.on_change = reveals.append
    assert panel.intent("review-moment", str(first_row.index))  # the replay's review opens a moment too
    assert '<section class="tl-moment"' in panel.html and reveals == [".tl-moment"]


def test_the_learner_sets_the_bots_pace_pauses_them_and_steps_them_one_move_at_a_time() -> None:
    first = tricklab.get_rules("band-of-tricks", players=4).new_match(1).to_play
    assert first is not None
    seat = (first + 1) % 4
    table = PlayTable("band-of-tricks", 4, seat=seat, seed=1, pace=0.8)  # paced: the bots wait for the loop
    assert not table.my_turn and table.match.actions == ()
    table.board.intent("pace", "slower")
    assert table.pace == 1.6 and "a move every 1.6 s" in html_of(table)
    table.board.intent("pace", "faster")
    table.board.intent("pace", "faster")
    assert table.pace == 0.3
    table.board.intent("pace", "pause")
    assert table.bots_paused and "the bots are paused" in html_of(table)
    table.board.intent("pace", "step")
    assert len(table.match.actions) == 1 and table.match.states[0].to_play == first
    table.board.intent("pace", "sideways")
    assert "is not a pace" in html_of(table) and len(table.match.actions) == 1


def test_the_log_keeps_the_rounds_history_and_an_undo_does_not_clear_it() -> None:
    table = PlayTable("tricks-and-stones", 4, seat=0, seed=7, pace=0, hold=0)
    play_until(table, lambda: table.match.phase == "play" and len(table.match.actions) > 12 and table.my_turn)

    def logged() -> list[str]:
        found = re.search(r'<ol class="tl-log" reversed.*?</ol>', html_of(table), re.S)
        assert found
        return re.findall(r"<li>(.*?)</li>", found.group(0))

    before = logged()
    round_steps = [
        s
        for s in table.match.timeline(0)
        if s.index >= max(t.index for t in table.match.timeline(0) if t.event.kind == EventKind.DEAL)
    ]
    assert before == [escape(s.event.text) for s in reversed(round_steps)]  # newest first, the whole round
    assert table.undo()
    after = logged()
    assert after and after == before[len(before) - len(after) :]  # the older steps are all still there


def test_the_own_expedition_chamber_is_marked_closed_to_place_before_the_learner_tries() -> None:
    table = PlayTable("tricks-and-stones", 4, seat=0, seed=5, pace=0, hold=0)
    play_until(table, lambda: table.my_turn and any(isinstance(a, Place) for a in table.match.legal_actions()))
    own = table.match.state.predictions[0]
    markup = html_of(table)
    assert f"You cannot place into chamber {own}: your own expedition token is there." in markup
    table.board.intent("gem-mode", "place")
    button = re.search(rf'<button[^>]*data-intent="chamber" data-value="{own}"[^>]*>', html_of(table))
    assert button and 'aria-disabled="true"' in button.group(0)
    others = re.findall(r'<button[^>]*data-intent="chamber" data-value="(\d)"[^>]*aria-disabled', html_of(table))
    assert others == [str(own)]


def test_a_zero_bid_is_offered_once_as_zero_success() -> None:
    table = PlayTable("band-of-tricks", 4, seat=0, seed=8, pace=0, hold=0)
    play_until(table, lambda: table.my_turn and any(isinstance(a, Bid) for a in table.match.legal_actions()))

    def bid_buttons() -> list[str]:
        decision = re.search(r'<section class="tl-decision".*?</section>', html_of(table), re.S)
        assert decision
        return re.findall(r'data-intent="(?:act|confirm)" data-value="[^"]*">([^<]*)</button>', decision.group(0))

    assert bid_buttons() == ["Zero Success: win no trick"]  # 0 0 0 is that bid: one button for it
    table.board.intent("bid", "rock:+1")
    assert bid_buttons() == ["Bid Rock 1, Soul 0, Pops 0", "Zero Success: win no trick"]


def test_after_a_pass_the_cards_that_arrived_are_marked_and_named() -> None:
    table = PlayTable("jewel-vault", 4, seat=0, seed=3, pace=0, hold=0, first_dealer=0)
    play_until(table, lambda: any(s.event.kind == EventKind.EXCHANGE for s in table.match.timeline(0)))
    # who passed what, as the teacher's timeline tells it
    passes = [s for s in table.match.timeline() if s.event.kind == EventKind.PASS]
    exchange = next(s for s in table.match.timeline() if s.event.kind == EventKind.EXCHANGE)
    giver = exchange.event.data["receivers"].index(0)
    sent = next(s.event.data["cards"] for s in passes if s.event.seat == giver)
    markup = html_of(table)
    note = re.search(r'<p class="tl-received-note".*?</p>', markup).group(0)  # type: ignore[union-attr]
    for card in sent:
        assert card.pretty in note
        assert re.search(
            rf'class="tl-card [^"]*tl-received[^"]*" [^>]*aria-label="{re.escape(escape(card_label(card)))}', markup
        )
    assert f"from {table.rules.seat_name(giver)}" in note


def test_the_replays_trick_step_shows_the_whole_trick() -> None:
    stepper = TrickStepper(game="band-of-tricks", players=4, seed=3)
    step = next(s for s in stepper.steps if s.event.kind == EventKind.TRICK)
    stepper.go(step.index)
    shown = finished_trick(stepper.board.scene["html"])
    assert shown.count("tl-in-trick") == 4 and shown.count("tl-winner") == 1
    assert tuple(stepper.rules.view(step.state, None).trick) == ()  # the state itself has cleared the trick


def test_the_deciding_reasons_answer_for_the_learners_own_card() -> None:
    ts = tricklab.get_rules("tricks-and-stones", players=4)
    out = ts.resolve_trick(["7H", "AH", "8S", "KD"], trump="S")
    first, mine = deciding(out.reasons, out.winning_card, ts.card("7H"))
    assert first == out.reasons[0]
    assert mine.rule_id == "ts.rank.trump" and mine.cards == (ts.card("8S"), ts.card("7H"))
    jv = tricklab.get_rules("jewel-vault", players=4)
    out = jv.resolve_trick(["9H", "KS", "2H", "QH"])
    _, off = deciding(out.reasons, out.winning_card, jv.card("KS"))
    assert off.rule_id == "jv.rank.offsuit" and off.cards == (jv.card("KS"),)
    assert deciding(out.reasons, out.winning_card) == (out.reasons[0],)


@pytest.mark.parametrize(("game", "players"), [("tricks-and-stones", 3), ("jewel-vault", 4)])
def test_a_finished_trick_names_its_winner_in_a_line_of_its_own_and_ends_with_the_way_on(
    game: str, players: int
) -> None:
    """The line the projector shows large: the winner (you, when it is you) and the winning card
    in words; the button that goes on is part of the trick's group, after its reasons."""
    table = PlayTable(game, players, seat=0, seed=5, pace=0)
    play_until(table, lambda: table.paused is not None and table.paused.kind == "trick")
    pause = table.paused
    assert pause is not None
    trick = pause.step.event.data["trick"]
    markup = html_of(table)
    line = re.search(r'<p class="tl-finished-winner">(.*?)</p>', markup)
    assert line is not None
    who = table.rules.seat_name(trick.winner) + (" (you)" if trick.winner == 0 else "")
    assert unescape(line.group(1)) == f"{who} wins with {card_label(trick.winning_card)}"
    group = re.search(r'<div class="tl-finished".*?</div></div></div>', markup, re.S)
    assert group is not None and 'data-intent="continue"' in group.group(0)
    assert group.group(0).index('class="tl-deciding"') < group.group(0).index('data-intent="continue"')


def test_the_prediction_prompt_names_the_board_without_a_direction() -> None:
    """The chamber board is below the table on a phone and beside it on a projector: the prompt
    names it, not where it is."""
    table = PlayTable("tricks-and-stones", 4, seat=0, seed=3, pace=0)
    prompt = re.search(r'<section class="tl-decision".*?<h4>(.*?)</h4>', html_of(table), re.S)
    assert prompt is not None and "chamber board" in prompt.group(1)
    assert not re.search(r"\b(below|above|right|left)\b", prompt.group(1))
