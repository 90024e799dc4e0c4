"""Hearts: every clause of its rulebook, its options, its bots, and the same play as OpenSpiel's
``hearts`` on many random hands."""

from __future__ import annotations

import random
import re

import pytest

import tricklab
from tricklab.actions import Pass, Play
from tricklab.errors import IllegalAction, InvalidOption
from tricklab.games.hearts import Hearts, HeartsState
from tricklab.games.hearts.facts import IDS, QUEEN_OF_SPADES, TWO_OF_CLUBS
from tricklab.games.hearts.rules import CYCLE, OVER, PASS, PLAY, hand_scores, pass_ids

pytestmark = pytest.mark.engine

_OS_SUIT = {"C": 0, "D": 1, "H": 2, "S": 3}  # OpenSpiel's suit order; its card id is rank * 4 + suit


def _os_card(card_id: int) -> int:
    return (card_id % 13) * 4 + _OS_SUIT[IDS.card(card_id).suit]


def _mask(text: str) -> int:
    return IDS.mask(Hearts.create(4).cards(text))


def _playing(rules: Hearts, seed: int = 1, **changes: object) -> HeartsState:
    """A state of the first hand's play after the passes (each seat passes its first three cards)."""
    state = rules.initial_state(seed, first_dealer=0)
    while state.phase is PASS:
        state = rules.core_step(state, rules.core_legal(state)[0])
    return state._replace(**changes)


# --- the deal and the passes -----------------------------------------------------------------------


def test_four_players_thirteen_cards_each() -> None:
    rules = Hearts.create(4)
    state = rules.initial_state(5)
    assert [len(h) for h in state.hands] == [13] * 4
    assert len({c for h in state.hands for c in h}) == 52
    with pytest.raises(InvalidOption):
        tricklab.get_rules("hearts", players=5)


def test_the_passes_go_left_right_across_then_none() -> None:
    rules = Hearts.create(4, target=1000)
    state = rules.initial_state(3, first_dealer=0)
    seen = []
    while len(seen) < 6:
        if state.phase is PASS:
            seen.append(state.direction)
            before = state.held
            chosen: dict[int, int] = {}
            while state.phase is PASS:
                action = rules.core_legal(state)[0]
                assert state.to_play is not None
                chosen[state.to_play] = IDS.mask(rules.actions[action].cards)  # type: ignore[attr-defined]
                state = rules.core_step(state, action)
            d = state.direction
            for s in range(4):  # what seat s passed is now with seat s + d
                cards = chosen[s]
                assert cards & before[s] == cards
                assert state.held[(s + d) % 4] & cards == cards
        elif state.phase is PLAY and state.tricks_played == 0 and not state.played and state.round == len(seen):
            seen.append(0)  # a hand without passes starts at the play
        state = rules.core_step(state, rules.core_legal(state)[0]) if state.phase is PLAY else state
    assert tuple(seen[:4]) == CYCLE and seen[4] == CYCLE[0]


def test_without_passing_the_play_starts_at_once() -> None:
    rules = Hearts.create(4, passing=False)
    state = rules.initial_state(2)
    assert state.phase is PLAY and state.held[state.to_play] >> TWO_OF_CLUBS & 1  # type: ignore[index]


def test_a_pass_is_three_cards_of_ones_own_hand_in_any_order() -> None:
    rules = Hearts.create(4)
    state = rules.initial_state(4, first_dealer=3)
    seat = state.to_play
    assert seat == 0
    hand = rules.view(state, 0).hand
    assert len(pass_ids(state.held[0])) == 286 == len(rules.legal_actions(state))
    after = rules.apply(state, Pass((hand[5], hand[0], hand[2])))  # any order is the same pass
    assert after.to_play == 1 and after.held[0].bit_count() == 10
    with pytest.raises(IllegalAction, match="3 different cards") as refused:
        rules.apply(state, Pass(hand[:2]))
    assert refused.value.rule_id == "ht.pass"
    other = rules.view(state, 1).hand[0]
    with pytest.raises(IllegalAction, match="does not hold"):
        rules.apply(state, Pass((hand[0], hand[1], other)))
    with pytest.raises(IllegalAction, match="choose 3 cards"):
        rules.apply(state, Play(hand[0]))


def test_a_pass_is_secret_until_it_reaches_its_receiver() -> None:
    rules = Hearts.create(4)
    match = rules.new_match(seed=6, first_dealer=3)
    mine = match.view(0).hand[:3]
    match.apply(Pass(mine))
    assert match.view(1).passes[0] is None and match.view(0).passes[0] == tuple(mine)
    assert all(str(c) not in match.timeline(seat=2)[-1].event.text for c in mine)
    while match.phase == "pass":
        seat = match.to_play
        match.apply(Pass(match.view(seat).hand[:3]))
    receiver = 1  # the first hand passes to the left
    texts = [e.event.text for e in match.timeline(seat=receiver)]
    assert any(all(c.pretty in t for c in mine) for t in texts), "the receiver learns what it got"
    texts = [e.event.text for e in match.timeline(seat=2)]
    assert not any(all(c.pretty in t for c in mine) for t in texts), "a third seat never does"


# --- the play -----------------------------------------------------------------------------------------


def test_the_two_of_clubs_leads_the_first_trick() -> None:
    rules = Hearts.create(4)
    state = _playing(rules)
    seat = state.to_play
    assert seat is not None and state.held[seat] >> TWO_OF_CLUBS & 1
    assert rules.core_legal(state) == (TWO_OF_CLUBS,)
    other = IDS.card(next(c for c in range(52) if state.held[seat] >> c & 1 and c != TWO_OF_CLUBS))
    with pytest.raises(IllegalAction) as refused:
        rules.apply(state, Play(other))
    assert refused.value.rule_id == "ht.lead.first"


def test_follow_suit_and_no_points_in_the_first_trick() -> None:
    rules = Hearts.create(4)
    state = _playing(rules)._replace(
        held=(_mask("2C 5D"), _mask("QS 7H 9D"), _mask("AH KH"), _mask("3C 4C")), to_play=0, leader=0
    )
    state = rules.core_step(state, TWO_OF_CLUBS)
    assert IDS.hand(rules.playable(state, 1)) == (IDS.card(IDS.id[rules.card("9D")]),)
    with pytest.raises(IllegalAction) as refused:
        rules.apply(state, Play(rules.card("QS")))
    assert refused.value.rule_id == "ht.first.trick"
    state = rules.core_step(state, IDS.id[rules.card("9D")])
    assert IDS.hand(rules.playable(state, 2)) == IDS.hand(_mask("AH KH")), "nothing else: a heart may go"
    loose = Hearts.create(4, first_trick=False)
    state = rules.core_step(_playing(rules)._replace(
        held=(_mask("2C 5D"), _mask("QS 7H 9D"), _mask("AH KH"), _mask("3C 4C")), to_play=0, leader=0
    ), TWO_OF_CLUBS)  # fmt: skip
    assert loose.playable(state, 1) == _mask("QS 7H 9D"), "the option lets points go to the first trick"
    state = state._replace(played=(TWO_OF_CLUBS,))
    assert rules.playable(state, 3) == _mask("3C 4C"), "follow suit"


def test_hearts_may_not_be_led_until_broken() -> None:
    rules = Hearts.create(4)
    state = _playing(rules)._replace(held=(_mask("2H 5D"), 0, 0, 0), to_play=0, leader=0, tricks_played=3)
    assert rules.playable(state, 0) == _mask("5D")
    with pytest.raises(IllegalAction) as refused:
        rules.apply(state, Play(rules.card("2H")))
    assert refused.value.rule_id == "ht.hearts.broken"
    assert rules.playable(state._replace(broken=True), 0) == _mask("2H 5D")
    assert rules.playable(state._replace(held=(_mask("2H 5H"), 0, 0, 0)), 0) == _mask("2H 5H"), "only hearts"


def test_a_heart_or_the_queen_breaks_hearts_and_the_highest_of_the_led_suit_takes() -> None:
    rules = Hearts.create(4)
    state = _playing(rules)._replace(
        held=(_mask("5D 9C"), _mask("QS 8C"), _mask("AD 2C"), _mask("7D 3C")),
        to_play=0, leader=0, tricks_played=2, broken=False,
    )  # fmt: skip
    for card in ("5D", "QS", "AD", "7D"):
        state = rules.apply(state, Play(rules.card(card)))
    assert state.broken and state.leader == 2 and state.taken[2] & _mask("QS")
    assert rules.resolve_trick("5D QS AD 7D").winner == 2
    assert rules.resolve_trick(["2H", "AS", "3H"]).ranked_cards[0] == rules.card("3H")


def test_scoring_a_hand_and_shooting_the_moon() -> None:
    rules = Hearts.create(4)
    hearts = _mask("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    queen = 1 << QUEEN_OF_SPADES
    assert hand_scores((hearts, queen, 0, 0), rules.options) == ((13, 13, 0, 0), None)
    assert hand_scores((hearts | queen, 0, 0, 0), rules.options) == ((0, 26, 26, 26), 0)
    subtract = Hearts.create(4, moon="subtract").options
    assert hand_scores((0, hearts | queen, 0, 0), subtract) == ((0, -26, 0, 0), 1)
    jack = Hearts.create(4, jack=True)
    assert jack.score_hand("JD 2H QS").total == 4 and rules.score_hand("JD 2H QS").total == 14


def test_the_match_ends_at_the_target_and_the_lowest_total_wins() -> None:
    rules = Hearts.create(4, target=30)
    match = rules.play(seed=8)
    assert match.state.phase is OVER and max(match.state.totals) >= 30
    assert all(
        max(map(sum, zip(*match.state.round_scores[:k], strict=True))) < 30
        for k in range(1, len(match.state.round_scores))
    )
    result = match.result
    assert result is not None and all(match.state.totals[w] == min(match.state.totals) for w in result.winners)
    assert result.reasons[0].rule_id == "ht.win"
    with pytest.raises(InvalidOption):
        Hearts.create(4, target=0)
    with pytest.raises(InvalidOption):
        Hearts.create(4, moon="sideways")


def test_bots_finish_matches_and_the_records_replay() -> None:
    for seed in range(4):
        rules = Hearts.create(4, jack=seed % 2 == 1)
        match = rules.play(seed=seed, bots="heuristic")
        assert match.is_over and match.result is not None
        again = type(match).from_json(match.to_json())
        assert again.state == match.state
        assert len(match.actions) <= rules.max_decisions


def test_the_bot_says_why() -> None:
    rules = Hearts.create(4)
    match = rules.new_match(seed=2)
    from tricklab.games.hearts.bots import HeuristicBot

    seat = match.to_play
    decision = HeuristicBot(rules, seat).decide(match.view(seat), match.legal_actions())
    assert decision.reasons[0].rule_id == "ht.pass" and decision.reasons[1].rule_id == "bot.ht.pass"


# --- against OpenSpiel's hearts ------------------------------------------------------------------------


def test_same_as_openspiel_hearts_on_random_games() -> None:
    """Each hand of a match of ours is played again in OpenSpiel's ``hearts`` from the same hands and
    pass direction: at every decision the same player is to act with the same legal cards (a pass:
    the same cards to choose from); the same player takes every trick; the hand scores the same for
    every player, moon shots included."""
    pyspiel = pytest.importorskip(
        "pyspiel", reason="open_spiel is not installed (pip install open_spiel): no OpenSpiel to compare with"
    )
    compared = moons = 0
    for seed in range(40):
        rng = random.Random(seed)
        rules = Hearts.create(4, target=200)
        ours = rules.initial_state(seed)
        while not ours.is_over:
            theirs = pyspiel.load_game("hearts").new_initial_state()
            theirs.apply_action({1: 1, 2: 2, 3: 3, 0: 0}[ours.direction])
            hands = [sorted(IDS.id[c] for c in hand) for hand in ours.hands]
            for i in range(52):
                theirs.apply_action(_os_card(hands[i % 4][i // 4]))
            hand = ours.round
            passes: dict[int, int] = {}
            while ours.phase is PASS:  # secret: each seat chooses from its own hand
                seat = ours.to_play
                assert seat is not None
                legal = rules.core_legal(ours)
                options = {c for a in legal for c in rules.actions[a].cards}  # type: ignore[attr-defined]
                assert options == set(IDS.hand(ours.held[seat]))
                action = legal[rng.randrange(len(legal))]
                passes[seat] = action
                ours = rules.core_step(ours, action)
            for seat in sorted(passes):  # OpenSpiel takes the passes from seat 0 on, a card at a time
                for card in rules.actions[passes[seat]].cards:  # type: ignore[attr-defined]
                    assert theirs.current_player() == seat
                    theirs.apply_action(_os_card(IDS.id[card]))
            while not ours.is_over and ours.round == hand:
                assert ours.to_play == theirs.current_player(), (seed, hand)
                legal = rules.core_legal(ours)
                assert sorted(_os_card(a) for a in legal) == sorted(theirs.legal_actions()), (seed, hand)
                action = legal[rng.randrange(len(legal))]
                ours = rules.core_step(ours, action)
                theirs.apply_action(_os_card(action))
                compared += 1
            assert theirs.is_terminal()
            scores = ours.round_scores[hand]
            moons += 26 in scores and scores.count(26) == 3
            assert tuple(26 - int(r) for r in theirs.returns()) == scores, (seed, hand)
    assert compared > 10_000


def test_same_as_openspiel_with_the_bots_moon_shots_included() -> None:
    """The bots' hands against OpenSpiel, where a moon is shot now and then: the same scores."""
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed: no OpenSpiel to compare with")
    moons = 0
    for seed in (*range(20), 32, 87):  # 32 and 87: a bot shoots the moon
        rules = Hearts.create(4, passing=False, target=1)
        match = rules.play(seed=seed, bots="heuristic")
        theirs = pyspiel.load_game("hearts", {"pass_cards": False}).new_initial_state()
        theirs.apply_action(0)
        first = match.states[0]
        hands = [sorted(IDS.id[c] for c in hand) for hand in first.hands]
        for i in range(52):
            theirs.apply_action(_os_card(hands[i % 4][i // 4]))
        for state, action in zip(match.states[:-1], match.actions, strict=True):
            assert state.to_play == theirs.current_player()
            theirs.apply_action(_os_card(IDS.id[action.card]))  # type: ignore[attr-defined]
        scores = match.state.round_scores[0]
        moons += sorted(scores) == [0, 26, 26, 26]
        assert tuple(26 - int(r) for r in theirs.returns()) == scores, seed
    assert moons >= 2, "the hands where a bot shoots the moon were compared"


# --- advice -------------------------------------------------------------------------------------------


def test_the_advice_races_the_most_dangerous_passes_and_the_pass_tried() -> None:
    from tricklab.advisor import AdviceUnavailable, advise
    from tricklab.errors import InvalidAction
    from tricklab.games.hearts.advice import SHORTLIST, candidates

    rules = Hearts.create(4)
    match = rules.new_match(seed=3, first_dealer=0)
    view = match.view(1)
    hand = IDS.mask(view.hand)
    shortlist = candidates(hand)
    assert len(shortlist) == SHORTLIST == len(set(shortlist))
    assert all(rules.actions[a].cards for a in shortlist)  # type: ignore[attr-defined]
    queen = rules.card("QS")
    if queen in view.hand:  # the Queen of spades is the most dangerous card: the bot's own pass holds it
        assert queen in rules.actions[shortlist[0]].cards  # type: ignore[attr-defined]
    tried = Pass(tuple(view.hand[:3]))
    advice = advise(rules, view, bid=tried, samples=40, seed=2)
    mine = advice.estimate(tried)
    assert mine.samples == 40, "the pass tried plays every deal"
    assert all(e.mean <= 0 for e in advice.estimates), "points are bad: a score is points with the sign turned"
    assert advice.best.samples == 40 and advice.best.mean >= max(e.mean for e in advice.estimates if e.samples == 40)
    assert mine.reasons[0].rule_id == "ht.score"
    with pytest.raises(InvalidAction, match="pass exactly 3 of your own cards"):
        advise(rules, view, bid=Pass(tuple(match.view(2).hand[:3])), samples=4)
    match.apply(Pass(view.hand[:3]))
    with pytest.raises(AdviceUnavailable, match="already chosen"):
        advise(rules, match.view(1), samples=4)


def test_a_hand_without_passes_has_no_pass_to_advise() -> None:
    from tricklab.advisor import AdviceUnavailable, advise

    rules = Hearts.create(4, passing=False)
    match = rules.new_match(seed=1)
    with pytest.raises(AdviceUnavailable):
        advise(rules, match.view(match.to_play), samples=4)


def test_a_tricks_explanation_says_what_taking_it_costs() -> None:
    rules = Hearts.create(4)
    reasons = rules.resolve_trick("7H AH QS KD").reasons
    assert reasons[-1].rule_id == "ht.score"
    assert reasons[-1].text == "Whoever takes this trick takes 15 points with it: 2 hearts and the Queen of spades."
    assert all(r.rule_id == "ht.trick" for r in rules.resolve_trick("7C 2C 9D").reasons), "no points: no cost"


def test_the_play_table_picks_no_more_cards_than_a_pass_holds() -> None:
    from tricklab.widgets import PlayTable

    table = PlayTable("hearts", 4, seat=0, seed=3, pace=0)
    while not table.my_turn:  # the bots before the seat choose their passes
        table.match.apply(table.match.legal_actions()[0])
    hand = table.match.view(0).hand
    for card in hand[:3]:
        table._toggle(str(card))
    table._toggle(str(hand[3]))
    assert table._picked == [str(c) for c in hand[:3]]
    assert "You pass 3: click a picked card to put it back first." in table.message


def test_the_review_and_its_reasons_speak_of_points_taken() -> None:
    """Where the lowest total wins the judge's figures are points taken with their sign turned; a
    learner reads them as the points taken ("likely 7.7 points taken"), never as minus 7.7 points."""
    from tricklab.display.review import review_html
    from tricklab.judge import score_text
    from tricklab.review import review_round

    rules = Hearts.create(4)
    assert score_text(rules, -7.74) == "7.7 points taken" and score_text(rules, 0.0) == "0.0 points taken"
    assert score_text(tricklab.get_rules("oh-hell", players=4), -7.74) == "\u22127.7 points"
    match = rules.play(seed=1, bots="heuristic")
    review = review_round(match, 0, round=0, samples=2, seed=0)
    html = review_html(rules, review)
    figures = re.findall(r"[Ll]ikely (\S+) points taken", html)
    assert len(figures) >= len(review.decisions), "every decision's figure is in points taken"
    assert all(not f.startswith("\u2212") for f in figures)
    assert "\u2212" not in re.sub(r"costs about \S+ points", "", html.replace("\u2212 ", ""))
    played = [d for d in review.decisions if len(d.choices) > 1]
    assert any(" took " in r.text for d in played for r in d.reasons if r.rule_id == "judge.figures")


# --- the rules as a round ------------------------------------------------------------------------


def test_the_passes_are_listed_lazily_in_hand_order_and_checked_one_at_a_time() -> None:
    """``pass_ids`` lists every choice of three cards as ``combinations`` does, without building
    the 286 ids: indexing, slicing, ``in`` and iterating agree with the full list."""
    from itertools import combinations

    from tricklab.games.core import bits, mask_of
    from tricklab.games.hearts.rules import pass_table

    table = pass_table()
    source = random.Random(4)
    for size in (3, 4, 13):
        for _ in range(20):
            hand = mask_of(source.sample(range(52), size))
            listed = pass_ids(hand)
            full = tuple(table.ids[mask_of(combo)] for combo in combinations(bits(hand), 3))
            assert tuple(listed) == full and len(listed) == len(full) and listed == full
            assert [listed[i] for i in (0, -1, len(full) // 2)] == [full[0], full[-1], full[len(full) // 2]]
            assert listed[1:4] == full[1:4]
            outside = [a for a in range(52, 52 + len(table.masks)) if table.masks[a - 52] & ~hand][:50]
            assert all(a in listed for a in full) and not any(a in listed for a in outside)
            assert 3 not in listed and "pass" not in listed, "a card's id or a text is no pass"


def test_a_simulation_deals_thirteen_each_and_plays_the_hand_to_its_score() -> None:
    from tricklab.games.core import PACK

    rules = Hearts.create(4, target=1)
    source = random.Random(2)
    for _ in range(10):
        dealt = rules.core_deal(source.getrandbits, first_dealer=1)
        assert [bin(h).count("1") for h in dealt.held] == [13] * 4
        assert sum(dealt.held) == (1 << 52) - 1, "every card dealt once"
        round_ = rules.core_round(dealt, None)
        seat, listed = next(round_)
        decisions = 0
        try:
            while True:
                if decisions % 7 == 0:
                    packed = round_.send(PACK)
                    assert packed.to_play == seat and tuple(rules.core_legal(packed)) == tuple(listed)
                seat, listed = round_.send(listed[int(source.random() * len(listed))])
                decisions += 1
        except StopIteration as end:
            over = end.value
        assert decisions + 1 == 4 + 52 and over.phase is OVER
        assert sum(over.round_scores[0]) in (26, 78), "26 points, or a moon shot's 3 x 26"


def test_a_matchs_286_passes_are_listed_as_a_sequence_that_reads_one_when_taken() -> None:
    """At a pass, ``match.legal_actions()`` is a sequence over the 286 sets of three cards: it
    has their length, takes one by index or a slice, says whether an action is among them, and
    equals the list the rules give, in the same order; it is never hashed, like a list."""
    rules = tricklab.get_rules("hearts", players=4)
    match = rules.new_match(seed=2)
    legal = match.legal_actions()
    full = rules.legal_actions(match.state)
    assert len(legal) == len(full) == 286 and not isinstance(legal, list)
    assert legal == full and list(legal) == full and legal[5] == full[5] and legal[-1] == full[-1]
    assert legal[10:13] == full[10:13] and repr(legal) == repr(full)
    assert full[7] in legal and Play(IDS.card(0)) not in legal and "pass" not in legal
    with pytest.raises(TypeError):
        hash(legal)
    match.apply(legal[40])
    assert match.actions[-1] == full[40]
