"""Mandala's heuristic bot: declared by the game, it always takes a listed action, reads only
its seat's view, beats the random bot, repeats with the seed and says why in plain words."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from tricklab.actions import Action, Claim, ToField, ToMountain
from tricklab.bots import FIRST_LISTED, Bot, Decider, RandomBot, heuristic_bot
from tricklab.cards import COLOURS
from tricklab.games.mandala import CLAIM, PLAY, Mandala, MandalaState, MandalaView
from tricklab.games.mandala.bots import (
    CLAIM_DENY,
    CLAIM_NEW,
    CLAIM_WORTH,
    COMPLETE,
    DISCARD,
    FIELD,
    MOUNTAIN,
    HeuristicBot,
)

from .test_mandala import cc, ids, position
from .test_rulebook_wording import ONE_PLURAL, ZERO_BASED

RULES = Mandala.create(2)
SEEDS = range(20)


def bots_for(kinds: tuple[str, str], seed: int) -> list[HeuristicBot | RandomBot]:
    return [HeuristicBot(RULES, s, seed) if k == "heuristic" else RandomBot(f"{seed}:{s}") for s, k in enumerate(kinds)]


def decisions(
    kinds: tuple[str, str], seed: int
) -> Iterator[tuple[MandalaState, int, MandalaView, list[Action], HeuristicBot | RandomBot]]:
    """Every decision of a seeded match between ``kinds`` of bots, before it is taken (the
    match moves on with the bot's choice once the caller resumes)."""
    match = RULES.new_match(seed)
    players = bots_for(kinds, seed)
    while not match.is_over:
        seat = match.to_play
        assert seat is not None
        view = match.view(seat)
        assert isinstance(view, MandalaView) and isinstance(match.state, MandalaState)
        legal = match.legal_actions()
        yield match.state, seat, view, legal, players[seat]
        match.apply(players[seat].choose(view, legal))


def reveal(view: MandalaView, rng: random.Random) -> MandalaView:
    """``view`` with made-up contents in every part hidden from its seat, and in its own Cup (which
    the bot may look at but does not read: its choices stay those of seeded matches before MD-4)."""
    other = 1 - (view.seat or 0)
    made_up = {c: 0 for c in COLOURS}
    for _ in range(view.hand_sizes[other]):
        made_up[rng.choice(COLOURS)] += 1
    hands = list(view.hands)
    hands[other] = {c: n for c, n in made_up.items() if n}
    cups = tuple({rng.choice(COLOURS): n} if n else {} for n in view.cup_sizes)
    deck = tuple(rng.choice(COLOURS) for _ in range(view.deck_size))
    return replace(view, hands=tuple(hands), cups=cups, deck=deck)


def shuffle_hidden(state: MandalaState, seat: int, rng: random.Random) -> MandalaState:
    """``state`` with the cards hidden from ``seat`` (the other hand, the deck, the other Cup) dealt
    among those places again at random, each keeping its size (the seat's own Cup it may look at: MD-4)."""
    other = 1 - seat
    pool = [c for c, n in enumerate(state.hand_counts[other]) for _ in range(n)] + list(state.deck)
    pool += [c for c, n in enumerate(state.cup_counts[other]) for _ in range(n)]
    rng.shuffle(pool)

    def counts(cards: list[int]) -> tuple[int, ...]:
        return tuple(cards.count(c) for c in range(len(COLOURS)))

    at = sum(state.hand_counts[other])
    hands = list(state.hand_counts)
    hands[other] = counts(pool[:at])
    deck = tuple(pool[at : at + len(state.deck)])
    at += len(state.deck)
    cups = list(state.cup_counts)
    cups[other] = counts(pool[at : at + sum(state.cup_counts[other])])
    return replace(state, hand_counts=tuple(hands), deck=deck, cup_counts=tuple(cups))


# --- the declaration ----------------------------------------------------------------------------------


def test_mandala_declares_its_heuristic_bot() -> None:
    ref = RULES.capabilities.bot("heuristic")
    assert ref is not None
    loaded: object = ref.load()
    assert loaded is HeuristicBot
    bot = heuristic_bot(RULES, 1, "7:1")
    assert isinstance(bot, HeuristicBot) and isinstance(bot, Bot) and isinstance(bot, Decider) and bot.seat == 1


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_match_of_heuristic_bots_plays_to_its_end(seed: int) -> None:
    match = Mandala.create(2).play(seed=seed, bots="heuristic")
    assert match.is_over and match.result is not None
    assert len(match.result.totals) == 2


# --- legal, complete, on views only ---------------------------------------------------------------------


def test_it_always_takes_a_listed_action_in_every_phase() -> None:
    seen: Counter[tuple[int, object]] = Counter()
    tags: Counter[str] = Counter()
    for seed in SEEDS:
        for kinds in (("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic")):
            for state, seat, view, legal, bot in decisions(kinds, seed):
                if not isinstance(bot, HeuristicBot):
                    continue
                decision = bot.decide(view, legal)
                assert decision.action in legal
                assert bot.choose(view, legal) == decision.action
                # the same decision on the core's ids
                chosen = bot.choose_id(view, RULES.core_legal(state))
                assert chosen == RULES.action_id(decision.action)
                seen[seat, view.phase] += 1
                tags[decision.reasons[-1].rule_id] += 1
    assert {(s, p) for s in (0, 1) for p in (PLAY, CLAIM)} <= set(seen)
    assert {FIELD, MOUNTAIN, COMPLETE, CLAIM_NEW, CLAIM_WORTH} <= set(tags), tags
    assert FIRST_LISTED not in tags


def test_its_field_and_discard_plays_keep_the_hand_rules() -> None:
    # a Field play keeps a card in hand and a Mountain play never draws beyond eight: the bot
    # only ever picks among the listed actions, so the core's checks hold
    for seed in range(5):
        for state, seat, view, legal, bot in decisions(("heuristic", "heuristic"), seed):
            action = bot.choose(view, legal)
            after = RULES.apply(state, action)
            assert sum(after.hand_counts[seat]) <= 8
            if isinstance(action, ToField):
                assert sum(after.hand_counts[seat]) >= 1


def test_it_decides_the_same_when_only_hidden_cards_differ() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(8):
        for state, seat, view, legal, bot in decisions(("heuristic", "random"), seed):
            if not isinstance(bot, HeuristicBot):
                continue
            other_state = shuffle_hidden(state, seat, rng)
            if other_state == state:
                continue
            other_view = RULES.view(other_state, seat)
            assert other_view == view  # the seat cannot tell the two states apart
            assert RULES.legal_actions(other_state) == legal
            fresh = HeuristicBot(RULES, seat, seed)
            assert fresh.choose(other_view, legal) == bot.choose(view, legal)
            assert fresh.choose_id(other_view, RULES.core_legal(other_state)) == bot.choose_id(
                view, RULES.core_legal(state)
            )
            # even shown the hidden parts, it does not read them
            assert bot.decide(reveal(view, rng), legal) == bot.decide(view, legal)
            checked += 1
    assert checked > 100


def test_two_states_that_differ_only_in_the_other_hand() -> None:
    def with_other_hand(other: dict[str, int]) -> MandalaState:
        return position(
            hands=({"green": 2, "purple": 3, "red": 1}, other),
            mountains=({"red": 1, "orange": 1}, {"blue": 2}),
            fields=(({"green": 2}, {"yellow": 1}), ({}, {})),
            rivers=(("red",), ()),
        )

    a, b = with_other_hand({"blue": 2, "red": 1}), with_other_hand({"purple": 3})
    assert a != b and RULES.view(a, 0) == RULES.view(b, 0)
    bot = HeuristicBot(RULES, 0)
    assert bot.choose(RULES.view(a, 0), RULES.legal_actions(a)) == bot.choose(RULES.view(b, 0), RULES.legal_actions(b))


# --- its rules of thumb, on hand-made positions -------------------------------------------------------


def decide(state: MandalaState) -> tuple[Action, str]:
    seat = state.to_play
    assert seat is not None
    decision = HeuristicBot(RULES, seat).decide(RULES.view(state, seat), RULES.legal_actions(state))
    return decision.action, decision.reasons[-1].rule_id


def test_it_completes_a_mandala_when_it_chooses_first() -> None:
    state = position(
        hands=({"purple": 1, "red": 3}, {"red": 1}),
        mountains=({"red": 1, "orange": 2}, {}),
        fields=(({"yellow": 3, "green": 1}, {"blue": 1}), ({}, {})),
        rivers=(("orange",), ()),
    )
    action, tag = decide(state)
    assert tag == COMPLETE and action in (ToField(1, "purple", 1), ToMountain(1, "purple"))


def test_it_does_not_complete_a_mandala_for_the_other_player_to_choose_first() -> None:
    state = position(
        hands=({"purple": 1, "red": 3, "blue": 2}, {"red": 1}),
        mountains=({"red": 1, "orange": 2}, {}),
        fields=(({"yellow": 1}, {"blue": 3, "green": 2}), ({}, {})),
    )
    action, tag = decide(state)
    assert tag != COMPLETE
    assert action not in (ToField(1, "purple", 1), ToMountain(1, "purple"))


def test_it_builds_its_field_with_the_colour_it_holds_most_of() -> None:
    state = position(
        hands=({"blue": 4, "red": 1, "green": 1, "orange": 1}, {"red": 1}),
        mountains=({"red": 1, "orange": 1}, {"yellow": 1, "purple": 1}),
    )
    action, tag = decide(state)
    assert tag == FIELD and isinstance(action, ToField)
    assert (action.colour, action.count) == ("blue", 4)


def test_it_discards_when_its_hand_is_stuck() -> None:
    # every Field play or Mountain play would complete a Mandala with the other player first
    state = position(
        hands=({"purple": 2}, {"red": 1}),
        mountains=({"red": 1, "orange": 1}, {"red": 1, "orange": 1}),
        fields=(({"yellow": 1}, {"blue": 3, "green": 2}), ({"yellow": 1}, {"blue": 3, "green": 2})),
    )
    action, tag = decide(state)
    assert tag == DISCARD and action == RULES.parse_action("discard purple 2")


def claim_position(mountain: dict[str, int], river: tuple[str, ...], field: dict[str, int]) -> MandalaState:
    state = position(
        mountains=(mountain, {}),
        fields=((field, {"blue": 1}), ({}, {})),
        rivers=(river, ("red", "orange")),
    )
    return replace(state, phase=CLAIM, claiming=0)


def test_it_claims_a_new_colour_early() -> None:
    state = claim_position({"red": 3, "green": 1}, ("red",), {"yellow": 1})
    assert decide(state) == (Claim("green"), CLAIM_NEW)


def test_later_it_claims_the_colour_worth_most_in_its_river() -> None:
    river = ("orange", "yellow", "red", "purple")
    state = claim_position({"red": 3, "orange": 2, "green": 1}, river, {"blue": 1})
    # 3 red at space 3 beat a new green (no Cup card) and 2 orange at space 1
    assert decide(state) == (Claim("red"), CLAIM_WORTH)


def test_without_a_field_it_takes_what_the_other_player_wants_most() -> None:
    state = claim_position({"red": 1, "green": 3}, ("green",), {})
    assert decide(state)[1] == CLAIM_DENY


def test_the_hand_made_helpers_build_what_they_say() -> None:
    assert cc(red=2)[0] == 2 and ids("blue") == (4,)


# --- against random, and repeatable ---------------------------------------------------------------------


def test_it_beats_the_random_bot_clearly() -> None:
    wins = losses = 0
    for seed in SEEDS:
        for me in (0, 1):
            kinds = ["random", "random"]
            kinds[me] = "heuristic"
            result = RULES.play(seed=seed, bots=kinds).result
            assert result is not None
            if result.winners == (me,):
                wins += 1
            elif result.winners == (1 - me,):
                losses += 1
    assert wins + losses > 0
    assert wins >= 3 * losses and wins >= 30, (wins, losses)


@pytest.mark.parametrize("bots", ["heuristic", ("heuristic", "random")])
def test_seeded_matches_repeat(bots: str | tuple[str, str]) -> None:
    for seed in (3, 4):
        a = RULES.play(seed=seed, bots=list(bots) if isinstance(bots, tuple) else bots)
        b = RULES.play(seed=seed, bots=list(bots) if isinstance(bots, tuple) else bots)
        assert a.record() == b.record()
        # the record's actions, replayed on a new match of the same seed, give the same game
        replayed = RULES.new_match(seed)
        for text in a.record()["actions"]:
            replayed.apply(text)
        assert replayed.state == a.state


# --- its reasons ----------------------------------------------------------------------------------------


def test_decide_agrees_with_choose_and_speaks_plain_sentences() -> None:
    for seed in range(6):
        for _state, _seat, view, legal, bot in decisions(("heuristic", "random"), seed):
            if not isinstance(bot, HeuristicBot):
                continue
            decision = bot.decide(view, legal)
            assert decision.action == bot.choose(view, legal)
            limit, why = decision.reasons
            assert limit.rule_id in ("md.turn", "md.claim")
            assert why.rule_id.startswith("bot.mandala.")
            text = why.text
            assert text[0].isupper() and text.endswith("."), text
            assert "bot." not in text and "_" not in text and "{" not in text
            assert not ONE_PLURAL.search(text) and not ZERO_BASED.search(text), text
