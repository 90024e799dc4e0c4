"""The engine's words for learners: actions in words, refusals spoken to the acting seat, the
rule that frames each decision, the bots' reasons and hints."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tricklab
from tricklab.actions import Action, Announce, AssignMetal, Bid, Move, Pass, Place, Play, Predict, Skip, Steal
from tricklab.bots import Decider, Decision, RandomBot, heuristic_bot
from tricklab.errors import IllegalAction, InvalidAction
from tricklab.explain import Reason
from tricklab.games import band_of_tricks as bt
from tricklab.games import jewel_vault as jv
from tricklab.games.band_of_tricks import ALL_BIDS, ASSIGN, BandOfTricksState
from tricklab.games.band_of_tricks import rules as bt_rules
from tricklab.games.jewel_vault import CARD_IDS, JewelVaultState
from tricklab.games.jewel_vault.facts import DueAction
from tricklab.games.jewel_vault.rulebook import Cause
from tricklab.games.tricks_and_stones import rules as ts
from tricklab.games.tricks_and_stones.rules import IDS, PLAY, TricksAndStonesState
from tricklab.hints import Hint, hint

from .conftest import play_to

GAMES = (("tricks-and-stones", 4), ("tricks-and-stones", 3), ("band-of-tricks", 4), ("jewel-vault", 4))

# --- records are forever: bot matches are the same as before the bots learned to say why -------------

# sha256 of the JSON records of seeded bot matches (seeds 0-4; all heuristic, all random, and
# heuristic and random bots alternating), computed on main before the bots had decide()
RECORD_HASHES = {
    ("tricks-and-stones", 3, ()): "9efd92e98c34b9c75026347e5007fc03f5998ef2582d9aa7275d3a5514e219f4",
    ("tricks-and-stones", 4, ()): "3497d0cc8da8dd981536073266a607f6c3806039c53362b025dc8730252cf3bb",
    (
        "tricks-and-stones",
        4,
        (("chambers", "ring"),),
    ): "cc5b66acdf3c2fd92cb284a52b9406d453149abc20b93527211c1e49e4e06682",
    ("band-of-tricks", 3, ()): "e4c5e6d22611b0faf1238f3c19f7a7f54dc12bb57727a192a36b6f1290f029ae",
    ("band-of-tricks", 4, ()): "522f306af20fc5a5d517c7f51bffcad65db98340d9ae351e12a988d3d4b389d2",
    ("band-of-tricks", 5, ()): "a4d3f3728d1fdb5e518dde1989f94d525c8e7b46b2af2dbb30c561509e0c7960",
    ("jewel-vault", 2, ()): "1267d15b35fcd4b366f9c314867a991c36f3559b30c326de542ad108da30f202",
    ("jewel-vault", 3, ()): "4ccbef5c10d81715328a1763fe76f9ceb7a25646422765a821e1e69c0b30269f",
    ("jewel-vault", 4, ()): "9131affc7e7be0aa370bf0f067851795bdbed82effe1e0403dca85ce51bff3a7",
    ("jewel-vault", 4, (("partnerships", True),)): "9aca7a36eccc1e6215b187151fc54fc4e9459f4cb95d6201c759b141d164695b",
    ("jewel-vault", 6, ()): "13f7cbe93beee460cbdd04d8e360354ecfd02c001f0c8bf6cc0e2acb419825e5",
}


@pytest.mark.parametrize(("game", "players", "options"), list(RECORD_HASHES))
def test_bot_matches_are_byte_identical_to_before(game: str, players: int, options: tuple[Any, ...]) -> None:
    rules = tricklab.get_rules(game, players=players, **dict(options))
    digest = hashlib.sha256()
    for seed in range(5):
        for bots in ("heuristic", "random", ["heuristic", "random"] * 3):
            chosen = bots if isinstance(bots, str) else bots[:players]
            digest.update(rules.play(seed=seed, bots=chosen).to_json().encode())
    assert digest.hexdigest() == RECORD_HASHES[game, players, options]


# --- helpers: hand-made positions -------------------------------------------------------------------


def ts_trick(
    rules: Any,
    *,
    seat: int,
    hand: str,
    trick: str,
    prediction: int,
    won: int,
    trump_broken: bool = False,
) -> TricksAndStonesState:
    """A Tricks & Stones play state: ``seat`` holds ``hand`` and plays to ``trick`` (round 1, ♠ trump)."""
    state: TricksAndStonesState = play_to(rules.new_match(seed=40), PLAY).state
    n = rules.players
    mine = rules.cards(hand)
    played = rules.cards(trick)
    spare = [c for c in rules.deck() if c not in mine and c not in played]
    hands = []
    for s in range(n):
        if s == seat:
            hands.append(IDS.mask(mine))
        else:
            hands.append(IDS.mask(spare[: len(mine)]))
            spare = spare[len(mine) :]
    leader = (seat - len(played)) % n
    return state._replace(
        held=tuple(hands),
        played=tuple(IDS.id[c] for c in played),
        leader=leader,
        to_play=seat,
        predictions=tuple(prediction if s == seat else 1 for s in range(n)),
        tricks_won=tuple(won if s == seat else 0 for s in range(n)),
        trump_broken=trump_broken,
        tricks_played=8 - len(mine),
    )


def bt_play(rules: Any, *, hand: str, trick: str, bid: Bid) -> BandOfTricksState:
    """A Band of Tricks play state: seat ``len(trick)`` holds ``hand``; seat 0 led ``trick``."""
    base: BandOfTricksState = rules.initial_state(0, start_player=0)
    n = rules.players
    mine = rules.cards(hand)
    played = rules.cards(trick)
    spare = [c for c in rules.deck() if c not in mine and c not in played]
    seat = len(played)
    hands = [bt.IDS.mask(mine) if s == seat else bt.IDS.mask(spare[s * 10 : s * 10 + len(mine)]) for s in range(n)]
    ids = tuple(bt.IDS.id[c] for c in played)
    return base._replace(
        phase=bt.PLAY,
        to_play=seat,
        held=tuple(hands),
        bid_ids=tuple(ALL_BIDS.index(bid) for _ in range(n)),
        leader=0,
        trick_ids=ids,
        follow=bt_rules._follow_of(ids),
        best=rules.resolve_trick(played).winner if played else -1,
        suits_in=sum(1 << i for i, s in enumerate("RSPM") if any(c.suit == s for c in played)),
        tricks_played=rules.cards_each - len(mine),
    )


def jv_play(rules: Any, *, hands: Sequence[str], trick: str, leader: int = 0) -> JewelVaultState:
    base: JewelVaultState = rules.initial_state(0, first_dealer=(leader - 1) % rules.players)
    played = rules.cards(trick)
    return base._replace(
        phase=jv.PLAY,
        to_play=(leader + len(played)) % rules.players,
        leader=leader,
        hand_masks=tuple(CARD_IDS.mask(rules.cards(h)) for h in hands),
        aside_mask=0,
        announced=1,
        exchanged=True,
        trick_ids=tuple(CARD_IDS.id[c] for c in played),
    )


def refusal(rules: Any, state: Any, action: Action | str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        rules.apply(state, action)
    return caught.value


# --- actions in words: every kind, exact ---------------------------------------------------------


def test_ts_actions_in_words() -> None:
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    words = rules.describe_action
    assert words(Play("7H")) == "Play 7♥"
    assert words(Play("10S")) == "Play 10♠"
    assert words(Predict(2)) == "Predict 2 tricks"
    assert words(Predict(1)) == "Predict 1 trick"
    assert words(Predict(0)) == "Predict 0 tricks"
    # chambers are the game's own numbers 0-5 (chamber t is the chamber of t tricks, as on the board)
    assert words(Place((3,))) == "Place a gem in chamber 3"
    assert words(Place((0,))) == "Place a gem in chamber 0"
    assert words(Place((2, 5))) == "Place gems in chambers 2 and 5"
    assert words(Move(((1, 2),))) == "Move a gem from chamber 1 to chamber 2"
    assert words(Move(((1, 2), (2, 3)))) == "Move a gem from chamber 1 through chamber 2 to chamber 3"
    assert (
        words(Move(((1, 2), (4, 3)))) == "Move a gem from chamber 1 to chamber 2 and a gem from chamber 4 to chamber 3"
    )
    assert words(Move(((1, 2), (1, 2)))) == "Move two gems from chamber 1 to chamber 2"
    assert words(Skip()) == "Skip: use no gem points"


def test_ts_every_action_has_its_own_words() -> None:
    """Two different actions never read the same: every number in them is said."""
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    texts = [rules.describe_action(a) for a in ts.ACTIONS]
    assert len(set(texts)) == len(texts)


def test_bt_actions_in_words() -> None:
    rules = tricklab.get_rules("band-of-tricks", players=4)
    words = rules.describe_action
    assert words(Play("R13")) == "Play Rock 13"
    assert words(Play("M10")) == "Play Metal 10"
    assert words(Bid(1, 0, 2)) == "Bid Rock 1, Soul 0, Pops 2"
    # Zero Success has one wording, however it is written
    assert words(Bid.zero_success()) == "Zero Success: win no trick"
    assert words(Bid(0, 0, 0)) == "Zero Success: win no trick"
    assert words(rules.parse_action("bid 0 0 0")) == words(rules.parse_action("bid zero"))
    assert len({words(b) for b in ALL_BIDS}) == len(ALL_BIDS)


def test_bt_metal_count_in_words_says_what_it_would_score() -> None:
    rules = tricklab.get_rules("band-of-tricks", players=4)
    base: BandOfTricksState = rules.initial_state(0, start_player=0)
    bid = ALL_BIDS.index(Bid(1, 0, 2))
    state = base._replace(
        phase=ASSIGN,
        to_play=0,
        bid_ids=(bid,) * 4,
        won=((1, 0, 1, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)),
    )
    view = rules.view(state, 0)
    assert [rules.describe_action(a, view) for a in rules.legal_actions(state)] == [
        "Count this trick for Rock (then 2 of 1 bid: \u22121)",
        "Count this trick for Soul (then 1 of 0 bid: \u22121)",
        "Count this trick for Pops (then 2 of 2 bid: +3)",
    ]
    assert rules.describe_action(AssignMetal("rock")) == "Count this trick for Rock"


def test_jv_actions_in_words() -> None:
    rules = tricklab.get_rules("jewel-vault", players=4)
    base: JewelVaultState = rules.initial_state(0, first_dealer=0)
    words = rules.describe_action
    assert words(Play("7H")) == "Play 7♥"
    assert words(Play("AS")) == "Play A♠"
    assert words(Announce(1)) == "Everyone passes 1 card"
    assert words(Announce(2)) == "Everyone passes 2 cards"
    # seat 1 (Player 2) passes to the left: Player 3
    view = rules.view(base._replace(phase=jv.PASS, to_play=1, announced=2), 1)
    assert words(Pass(("7H", "QS")), view) == "Pass 7♥ and Q♠ to Player 3"
    assert words(Pass(("7H", "QS", "2D")), view) == "Pass 7♥, Q♠ and 2♦ to Player 3"
    assert words(Pass(("7H",))) == "Pass 7♥"
    # a ♣ target counts seats from 0: steal 3 is Player 4's showroom
    robbing = base._replace(phase=jv.STEAL, to_play=0, showrooms=(2, 5, 0, 3))
    view = rules.view(robbing, 0)
    assert words(Steal(3), view) == "Take a jewel from Player 4's showroom (3 jewels there)"
    assert words(Steal(1), view) == "Take a jewel from Player 2's showroom (5 jewels there)"
    assert words(Steal(3)) == "Take a jewel from Player 4's showroom"
    assert rules.describe_due(DueAction(2, "C", Cause.VOID)) == (
        "Player 3: ♣ action (a jewel from another player's showroom to their own), for not following suit"
    )
    assert rules.describe_due(DueAction(0, "D", Cause.NO_TRICK)) == (
        "Player 1: ♦ action (a jewel from the supply to their vault), for winning no trick this round"
    )


def test_jv_partnership_words_name_the_partner_and_the_shared_showroom() -> None:
    rules = tricklab.get_rules("jewel-vault", players=4, partnerships=True)
    base: JewelVaultState = rules.initial_state(0, first_dealer=3)
    view = rules.view(base._replace(phase=jv.PASS, to_play=0, announced=1), 0)
    assert rules.describe_action(Pass(("7H",)), view) == "Pass 7♥ to Player 3, your partner"
    robbing = rules.view(base._replace(phase=jv.STEAL, to_play=0, showrooms=(4, 6)), 0)
    assert (
        rules.describe_action(Steal(1), robbing)
        == "Take a jewel from Player 2 & Player 4's shared showroom (6 jewels there)"
    )


_PLAYER = re.compile(r"Player (\d+)")


@pytest.mark.parametrize(("game", "players"), [*GAMES, ("jewel-vault", 2), ("band-of-tricks", 5)])
def test_every_listed_action_of_bot_matches_reads_as_words(game: str, players: int) -> None:
    """Every action met in seeded matches: words (not the record's text), seats counted from 1."""
    rules = tricklab.get_rules(game, players=players)
    kinds: set[type[Action]] = set()
    for seed in range(2):
        match = rules.new_match(seed=seed)
        bots = [heuristic_bot(rules, s) for s in range(players)]
        while not match.is_over:
            seat = match.to_play
            assert seat is not None
            view = match.view(seat)
            legal = match.legal_actions()
            for action in legal[:40]:
                kinds.add(type(action))
                text = rules.describe_action(action, view)
                assert text and text[0].isupper() and text != str(action), (action, text)
                for number in _PLAYER.findall(text):
                    assert 1 <= int(number) <= players, text
            match.apply(bots[seat].choose(view, legal))
    expected = {
        "tricks-and-stones": {Play, Predict, Place, Move, Skip},
        "band-of-tricks": {Play, Bid, AssignMetal},
        "jewel-vault": {Play, Announce, Pass, Steal} if players > 2 else {Play, Announce, Pass},
    }[game]
    assert kinds >= expected


# --- refusals spoken to the acting seat ---------------------------------------------------------------


def test_ts_follow_refusal_to_you_and_its_old_message() -> None:
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    state = ts_trick(rules, seat=1, hand="7H JH 8S KC", trick="9H", prediction=1, won=0)
    exc = refusal(rules, state, Play("8S"))
    assert exc.rule_id == "ts.follow"
    assert str(exc) == "must follow suit: hearts ♥ were led and Player 2 holds 7♥"
    assert exc.to_you == "You must follow hearts: you hold 7♥ and J♥."
    one = ts_trick(rules, seat=1, hand="7H 8S KC", trick="9H", prediction=1, won=0)
    assert refusal(rules, one, Play("KC")).to_you == "You must follow hearts: you hold 7♥."


def test_ts_other_refusals_to_you() -> None:
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    lead = ts_trick(rules, seat=0, hand="7S AS 8H KC", trick="", prediction=1, won=0)
    exc = refusal(rules, lead, Play("AS"))
    assert exc.rule_id == "ts.trump.lead"
    assert exc.to_you == "You may not lead a trump (spades) yet: trumps are not broken and you hold hearts and clubs."
    exc = refusal(rules, lead, Play("QD"))
    assert (exc.rule_id, exc.to_you) == ("ts.hand", "You do not hold Q♦.")
    exc = refusal(rules, lead, Predict(2))
    assert (exc.rule_id, exc.to_you) == ("ts.trick", "You must play a card now, not 'predict 2'.")
    predicting = tricklab.get_rules("tricks-and-stones", players=4).new_match(seed=1).state
    exc = refusal(rules, predicting, Predict(7))
    assert (exc.rule_id, exc.to_you) == ("ts.predict", "Your prediction is a number of tricks from 0 to 5, not 7.")


def test_ts_gem_refusals_to_you() -> None:
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    state: TricksAndStonesState = play_to(rules.new_match(seed=21, first_dealer=3), PLAY).state
    gems = state._replace(
        phase=ts.GEMS,
        predictions=(3, 3, 3, 3),
        board=((0, 1, 0, 0, 0, 0),) + ((0,) * 6,) * 3,
        supply=(7, 8, 8, 8),
        gem_queue=((0, 1), (1, 2), (2, 3)),
        to_play=0,
        tricks_played=1,
        last=(),
    )
    cases = {
        Place((3,)): ("ts.place.expedition", "You cannot place into chamber 3: your own expedition token is there."),
        Place((1, 2)): (
            "ts.gems.places",
            "You may place at most 1 gem: you finished second, which allows Place 1 or Move 1.",
        ),
        Move(((2, 3),)): ("ts.move", "You have no gem in chamber 2 to move."),
        Move(((1, 3),)): (
            "ts.move",
            "A gem moves one step to a neighbouring chamber; chambers 1 and 3 are not neighbours.",
        ),
        Play("7H"): ("ts.gems.order", "You take a gem action now (place, move or skip), not 'play 7H'."),
    }
    for action, (rule, to_you) in cases.items():
        exc = refusal(rules, gems, action)
        assert (exc.rule_id, exc.to_you) == (rule, to_you), action


def test_bt_follow_refusal_to_you_and_its_old_message() -> None:
    rules = tricklab.get_rules("band-of-tricks", players=4)
    state = bt_play(rules, hand="R7 R9 S5 M12", trick="R13", bid=Bid(1, 1, 0))
    exc = refusal(rules, state, Play("S5"))
    assert exc.rule_id == "bt.follow"
    assert str(exc) == (
        "must follow Rock: Rock is the suit to follow in this trick and Player 2 holds R7, "
        "so Player 2 must play a Rock card or a Metal card"
    )
    assert exc.to_you == "You must follow Rock: you hold Rock 7 and Rock 9, so play a Rock card or a Metal card."
    exc = refusal(rules, state, Bid(1, 0, 0))
    assert (exc.rule_id, exc.to_you) == ("bt.trick", "You must play a card now, not 'bid 1 0 0'.")
    bidding = rules.initial_state(0, start_player=0)
    exc = refusal(rules, bidding, Bid(7, 0, 0))
    assert (exc.rule_id, exc.to_you) == ("bt.bid", "Your bid for Rock is a whole number from 0 to 6, not 7.")
    exc = refusal(rules, bidding, Bid(1, 0, 0, zero=True))
    assert exc.rule_id == "bt.bid.zero" and exc.to_you.startswith("Zero Success means you win no trick")


def test_jv_follow_refusal_to_you_and_its_old_message() -> None:
    rules = tricklab.get_rules("jewel-vault", players=3)
    state = jv_play(rules, hands=["KH 2C", "3H 9H QS", "5D 6D"], trick="KH")
    state = state._replace(hand_masks=(CARD_IDS.mask(rules.cards("2C")),) + state.hand_masks[1:], to_play=1)
    exc = refusal(rules, state, Play("QS"))
    assert exc.rule_id == "jv.follow"
    assert str(exc) == "must follow suit: ♥ was led and Player 2 holds 3♥"
    assert exc.to_you == "You must follow hearts: you hold 3♥ and 9♥."


def test_jv_club_target_refusals_to_you() -> None:
    rules = tricklab.get_rules("jewel-vault", players=4, partnerships=True)
    base: JewelVaultState = rules.initial_state(0, first_dealer=3)
    robbing = base._replace(phase=jv.STEAL, to_play=0, showrooms=(4, 6))
    exc = refusal(rules, robbing, Steal(2))
    assert (exc.rule_id, exc.to_you) == (
        "jv.partnerships.club",
        "Player 3 is your partner and shares your showroom: take a jewel from the other side.",
    )
    exc = refusal(rules, robbing, Steal(0))
    assert (exc.rule_id, exc.to_you) == ("jv.action.club", "You cannot take a jewel from your own showroom with ♣.")


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_every_refusal_has_words_for_the_acting_seat(game: str, players: int) -> None:
    """Every action the core does not list, at positions of seeded matches: the refusal keeps its
    rule, and its ``to_you`` speaks to the seat (a sentence that does not name the seat)."""
    rules = tricklab.get_rules(game, players=players)
    match = rules.new_match(seed=3)
    bots = [heuristic_bot(rules, s) for s in range(players)]
    rule_ids: set[str] = set()
    steps = 0
    while not match.is_over:
        seat = match.to_play
        assert seat is not None
        state = match.state
        listed = set(match.legal_actions())
        if steps % 3 == 0:
            for action in rules.actions[::13]:
                if action in listed or rules.canonical_action(state, action) in listed:
                    continue
                exc = refusal(rules, state, action)
                rule_ids.add(str(exc.rule_id))
                assert exc.to_you != str(exc), exc
                assert exc.to_you[0].isupper() and exc.to_you.endswith("."), exc.to_you
                assert rules.seat_name(seat) not in exc.to_you, exc.to_you
        steps += 1
        match.apply(bots[seat].choose(match.view(seat), match.legal_actions()))
    assert rule_ids <= set(rules.rulebook)
    follow = {"tricks-and-stones": "ts.follow", "band-of-tricks": "bt.follow", "jewel-vault": "jv.follow"}[game]
    assert follow in rule_ids


def test_to_you_defaults_to_the_message() -> None:
    exc = IllegalAction("there is nothing to undo", rule_id="ts.undo")
    assert exc.to_you == "there is nothing to undo" == str(exc)


# --- Rules.apply reads an action's text as Match.apply does -------------------------------------------


def test_rules_apply_with_text_refuses_by_the_right_rule() -> None:
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    state = ts_trick(rules, seat=1, hand="7H JH 7S KC", trick="9H", prediction=1, won=0)
    exc = refusal(rules, state, "play 7S")
    assert exc.rule_id == "ts.follow"
    assert str(exc) == str(refusal(rules, state, Play("7S")))
    assert rules.apply(state, "play JH") == rules.apply(state, Play("JH"))
    with pytest.raises(InvalidAction):
        rules.apply(state, "play 2S")  # not a card of Tricks & Stones
    match = rules.new_match(seed=2)
    first = match.state
    match.apply("predict 2")
    assert rules.apply(first, "predict 2") == match.state
    assert rules.facts(state, "play JH") == rules.facts(state, Play("JH"))
    assert refusal(rules, state, "play 7S").rule_id == "ts.follow"
    with pytest.raises(IllegalAction) as caught:
        rules.facts(state, "play 7S")
    assert caught.value.rule_id == "ts.follow"


# --- the rule that frames a decision, the bots' reasons, hints ---------------------------------------


def test_ts_decision_of_the_brief_example() -> None:
    """Predicted 1, won 1, hearts led: follow hearts, and duck with the highest heart that loses."""
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    state = ts_trick(rules, seat=1, hand="7H JH 8S KC", trick="9H", prediction=1, won=1)
    view = rules.view(state, 1)
    decision = heuristic_bot(rules, 1).decide(view, rules.legal_actions(state))
    assert decision.action == Play("7H")
    assert decision.reasons[0] == Reason(
        "ts.follow", "You must follow hearts: you hold 7♥ and J♥.", rules.cards("7H JH")
    )
    assert decision.reasons[1].rule_id == "bot.ts.duck"
    assert decision.reasons[1].text == (
        "You predicted 1 and have won 1 trick: play your highest card that does not win, "
        "so as not to win another trick."
    )
    advice = hint(rules, view, rules.legal_actions(state), heuristic_bot(rules, 1))
    assert advice == Hint(Play("7H"), "Play 7♥", decision.reasons)
    assert str(advice).startswith("Play 7♥. You must follow hearts")


def test_ts_choice_on_lead_and_when_void() -> None:
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    lead = ts_trick(rules, seat=0, hand="7S AH 8H KC", trick="", prediction=2, won=0, trump_broken=True)
    assert rules.explain_choice(rules.view(lead, 0)) == Reason(
        "ts.trick", "Any card may be played: you lead this trick.", rules.cards("7S 8H AH KC")
    )
    void = ts_trick(rules, seat=2, hand="7S 8D KC", trick="9H 10H", prediction=2, won=0)
    reason = rules.explain_choice(rules.view(void, 2))
    assert (reason.rule_id, reason.text) == (
        "ts.follow.void",
        "Any card may be played: you hold no hearts, the led suit.",
    )
    decision = heuristic_bot(rules, 0).decide(rules.view(lead, 0), rules.legal_actions(lead))
    assert decision.action == Play("AH") and decision.reasons[1].rule_id == "bot.ts.lead-high"


def test_bt_and_jv_choices_in_words() -> None:
    band = tricklab.get_rules("band-of-tricks", players=4)
    state = bt_play(band, hand="R7 R9 S5 M12", trick="R13", bid=Bid(1, 1, 0))
    assert band.explain_choice(band.view(state, 1)).text == (
        "You must follow Rock: you hold Rock 7 and Rock 9, so play a Rock card or a Metal card."
    )
    metal_led = bt_play(band, hand="R7 S5", trick="M12", bid=Bid(1, 1, 0))
    assert band.explain_choice(band.view(metal_led, 1)).rule_id == "bt.follow.open"
    vault = tricklab.get_rules("jewel-vault", players=3)
    void = jv_play(vault, hands=["KH", "QS 2C", "5D"], trick="KH")
    reason = vault.explain_choice(vault.view(void, 1))
    assert reason.rule_id == "jv.follow.void"
    assert reason.text.startswith("Any card may be played: you hold no hearts, the led suit")


def _reason_ids_ok(rules: Any, reasons: tuple[Reason, ...]) -> bool:
    return bool(reasons) and all(r.rule_id in rules.rulebook or r.rule_id.startswith("bot.") for r in reasons)


@pytest.mark.parametrize(("game", "players"), GAMES)
@settings(max_examples=3)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_decide_agrees_with_choose(game: str, players: int, seed: int) -> None:
    """Over whole seeded matches: each heuristic bot's decide() is its choose(), its reasons name
    the game's limiting rule first and the bot's rule of thumb last; the same for RandomBot."""
    rules = tricklab.get_rules(game, players=players)
    match = rules.new_match(seed=seed)
    bots = [heuristic_bot(rules, s) for s in range(players)]
    deciding = [RandomBot(f"{seed}:{s}") for s in range(players)]
    choosing = [RandomBot(f"{seed}:{s}") for s in range(players)]
    tags: set[str] = set()
    while not match.is_over:
        seat = match.to_play
        assert seat is not None
        view = match.view(seat)
        legal = match.legal_actions()
        bot = bots[seat]
        assert isinstance(bot, Decider)
        decision = bot.decide(view, legal)
        assert isinstance(decision, Decision)
        assert decision.action == bot.choose(view, legal)
        assert decision.action in legal
        assert _reason_ids_ok(rules, decision.reasons)
        assert decision.reasons[0].rule_id in rules.rulebook
        assert decision.reasons[-1].rule_id.startswith("bot.")
        assert all(r.text and rules.seat_name(seat) not in r.text for r in decision.reasons)
        tags.add(decision.reasons[-1].rule_id)
        randomly = deciding[seat].decide(view, legal)
        assert randomly.action == choosing[seat].choose(view, legal)
        assert [r.rule_id for r in randomly.reasons] == ["bot.random"]
        match.apply(decision.action)
    assert "bot.first-listed" not in tags


def test_a_hint_from_a_bot_without_decide_has_no_reasons() -> None:
    class FirstBot:
        def choose(self, view: Any, legal_actions: Sequence[Action]) -> Action:
            return legal_actions[0]

    rules = tricklab.get_rules("band-of-tricks", players=4)
    match = rules.new_match(seed=1)
    advice = hint(rules, match.view(match.to_play), match.legal_actions(), FirstBot())
    assert advice == Hint(bt.ZERO, "Zero Success: win no trick", ())


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_explain_choice_needs_a_view_that_shows_the_seats_hand(game: str, players: int) -> None:
    rules = tricklab.get_rules(game, players=players)
    match = rules.new_match(seed=1)
    while match.phase != "play":
        match.apply(match.legal_actions()[0])
    seat = match.to_play
    assert seat is not None
    other = (seat + 1) % players
    with pytest.raises(tricklab.InvalidOption, match=rules.seat_name(seat)):
        rules.explain_choice(match.view(other), seat)
    assert rules.explain_choice(match.view(None), seat) == rules.explain_choice(match.view(seat))
