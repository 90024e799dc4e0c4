"""Hearts' narrator: the facts of its core as the events and reasons a learner reads.

Apart from the rules: each function reads a fact (as the seat it is told to may see it) and the
rules' fixed facts (seat names, options); who takes a trick and what a hand scores come from the
rules' own functions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import FRENCH_SUITS, SUIT_NAME, SUIT_SYMBOL
from ...explain import Reason, and_list, plural
from ..base import Event, EventKind, Trick
from ..core import Fact, event
from .facts import (
    IDS,
    QUEEN_OF_SPADES,
    SUIT_OF,
    TWO_OF_CLUBS,
    CardPlayed,
    Dealt,
    HandScored,
    MatchEnded,
    PassChosen,
    PassesExchanged,
    TrickTaken,
    winning_index,
)
from .rulebook import MOON, RULEBOOK

if TYPE_CHECKING:
    from .rules import Hearts, HeartsState

_WHERE = {1: "to the left", 3: "to the right", 2: "across the table"}


def _suit(index: int) -> str:
    suit = FRENCH_SUITS[index]
    return f"{SUIT_NAME[suit].lower()} {SUIT_SYMBOL[suit]}"


def _rule(rule_id: str) -> Reason:
    return Reason(rule_id, RULEBOOK[rule_id].text)


def narrate(rules: Hearts, fact: Fact, state: HeartsState) -> Event:
    name = rules.seat_name
    if isinstance(fact, CardPlayed):
        return _played(rules, fact)
    if isinstance(fact, TrickTaken):
        cards = IDS.of(fact.cards)
        trick = Trick.ranked(fact.leader, cards, fact.ranking, rules.players, places=False)
        outcome = rules.resolve_trick(cards)
        winner = trick.winner
        points = f", and {plural(fact.points, 'point')} with it" if fact.points else ""
        return event(
            EventKind.TRICK,
            winner,
            f"{name(winner)} takes trick {fact.number} with {trick.winning_card.pretty}{points}.",
            outcome.reasons + (Reason("ht.lead.next", f"{name(winner)} took the trick and leads next."),),
            trick=trick,
            ranking=fact.ranking,
            seats=trick.seats,
            leader=fact.leader,
        )
    if isinstance(fact, PassChosen):
        seat = fact.seat
        assert seat is not None
        passed = None if fact.cards is None else IDS.hand(fact.cards)
        chosen = "" if passed is None else f": {and_list(c.pretty for c in passed)}"
        return event(
            EventKind.PASS, seat, f"{name(seat)} chooses 3 cards to pass{chosen}.", (_rule("ht.pass"),), cards=passed
        )
    if isinstance(fact, PassesExchanged):
        where = _WHERE[fact.direction]
        seen = [
            f"{name(s)} passes {and_list(c.pretty for c in IDS.hand(p))} to {name((s + fact.direction) % 4)}"
            for s, p in enumerate(fact.passes)
            if p
        ]
        text = f"Everyone's 3 cards change hands, {where}." + (f" {'; '.join(seen)}." if seen else "")
        return event(EventKind.EXCHANGE, None, text, (_rule("ht.pass"), _rule("ht.lead.first")))
    if isinstance(fact, Dealt):
        dealer = fact.seat
        assert dealer is not None
        passing = (
            f" Each player passes 3 cards {_WHERE[fact.direction]}."
            if fact.direction
            else " No cards are passed this hand."
        )
        reasons = [_rule("ht.deal")]
        if fact.direction or rules.options.passing:
            reasons.append(_rule("ht.pass"))
        return event(
            EventKind.DEAL,
            dealer,
            f"Hand {fact.round + 1}: {name(dealer)} deals 13 cards each.{passing}",
            tuple(reasons),
            round=fact.round,
        )
    if isinstance(fact, HandScored):
        parts = [f"{name(s)} took {plural(fact.taken[s], 'point')}" for s in range(rules.players)]
        text = "Hand scored: " + ", ".join(parts) + "."
        reasons = [_rule("ht.score")]
        if rules.options.jack:
            reasons.append(_rule("ht.score.jack"))
        if fact.moon is not None:
            if rules.options.moon == "add":
                how = f"everyone else scores {MOON} and {name(fact.moon)} nothing for them"
            else:
                how = f"{name(fact.moon)} takes {MOON} points off instead"
            text += f" {name(fact.moon)} shot the moon: {how}."
            reasons.append(Reason("ht.moon", f"{name(fact.moon)} took every heart and the Queen of spades: {how}."))
        text += " Scores: " + ", ".join(f"{name(s)} {fact.scores[s]}" for s in range(rules.players)) + "."
        return event(EventKind.SCORE, None, text, tuple(reasons), scores=fact.scores)
    assert isinstance(fact, MatchEnded), fact
    result = rules.result(state)
    assert result is not None
    return event(EventKind.END, None, result.reasons[0].text, result.reasons, winners=result.winners)


def _played(rules: Hearts, fact: CardPlayed) -> Event:
    seat = fact.seat
    assert seat is not None
    name = rules.seat_name(seat)
    card = IDS.card(fact.card)
    reasons: list[Reason] = []
    if len(fact.trick) == 1:
        text = f"{name} leads {card.pretty}."
        if fact.card == TWO_OF_CLUBS:
            reasons.append(_rule("ht.lead.first"))
    else:
        led = SUIT_OF[fact.trick[0]]
        if SUIT_OF[fact.card] == led:
            text = f"{name} follows with {card.pretty}."
            reasons.append(
                Reason("ht.follow", f"{_suit(led).capitalize()} were led and {card.pretty} follows.", (card,))
            )
        else:
            text = f"{name} has no {_suit(led)} and plays {card.pretty}."
            reasons.append(Reason("ht.follow.void", RULEBOOK["ht.follow.void"].text, (card,)))
        best = IDS.card(fact.trick[winning_index(fact.trick)])
        text += f" {best.pretty} is taking the trick so far."
    if fact.broke:
        what = "the Queen of spades" if fact.card == QUEEN_OF_SPADES else "a heart"
        text += f" Hearts are broken: {what} has been played."
        reasons.append(_rule("ht.hearts.broken"))
    return event(EventKind.PLAY, seat, text, tuple(reasons), card=card)
