"""Oh Hell's narrator: the facts of its core as the events and reasons a learner reads.

Apart from the rules: each function reads a fact and the rules' fixed facts (seat names,
options); who takes a trick and what a deal scores come from the rules' own functions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import FRENCH_SUITS, SUIT_NAME, SUIT_SYMBOL
from ...explain import Reason, plural
from ..base import Event, EventKind, Trick
from ..core import Fact, event
from .facts import IDS, SUIT_OF, BidMade, CardPlayed, DealScored, Dealt, MatchEnded, TrickTaken, winning_index
from .rulebook import RULEBOOK

if TYPE_CHECKING:
    from .rules import OhHell, OhHellState


def _suit(index: int) -> str:
    suit = FRENCH_SUITS[index]
    return f"{SUIT_NAME[suit].lower()} {SUIT_SYMBOL[suit]}"


def narrate(rules: OhHell, fact: Fact, state: OhHellState) -> Event:
    name = rules.seat_name
    if isinstance(fact, CardPlayed):
        return _played(rules, fact)
    if isinstance(fact, TrickTaken):
        cards = IDS.of(fact.cards)
        trick = Trick.ranked(fact.leader, cards, fact.ranking, rules.players, places=False)
        outcome = rules.resolve_trick(cards, trump=FRENCH_SUITS[fact.trump])
        winner = trick.winner
        return event(
            EventKind.TRICK,
            winner,
            f"{name(winner)} takes trick {fact.number} with {trick.winning_card.pretty}.",
            outcome.reasons + (Reason("oh.lead.next", f"{name(winner)} took the trick and leads next."),),
            trick=trick,
            ranking=fact.ranking,
            seats=trick.seats,
            leader=fact.leader,
        )
    if isinstance(fact, BidMade):
        seat = fact.seat
        assert seat is not None
        text = f"{name(seat)} bids {fact.n}."
        reasons = [Reason("oh.bid", RULEBOOK["oh.bid"].text)]
        if fact.forbidden is not None:
            reasons.append(
                Reason(
                    "oh.hook",
                    f"{name(seat)} dealt and bid last, so could not bid {fact.forbidden}: the bids may not add "
                    "up to the tricks.",
                )
            )
        return event(EventKind.PREDICT, seat, text, tuple(reasons), prediction=fact.n)
    if isinstance(fact, Dealt):
        dealer = fact.seat
        assert dealer is not None
        turned = IDS.card(fact.turned)
        return event(
            EventKind.DEAL,
            dealer,
            f"Deal {fact.round + 1}: {name(dealer)} deals {plural(fact.size, 'card')} each and turns up "
            f"{turned.pretty}: {_suit(SUIT_OF[fact.turned])} are trumps.",
            (Reason("oh.deals", RULEBOOK["oh.deals"].text), Reason("oh.deal", RULEBOOK["oh.deal"].text, (turned,))),
            round=fact.round,
            trump=turned.suit,
        )
    if isinstance(fact, DealScored):
        n = rules.players
        details = tuple(rules.score_deal(bid=fact.bids[s], tricks=fact.tricks[s]) for s in range(n))
        text = (
            "Deal scored: "
            + ", ".join(f"{name(s)} bid {fact.bids[s]}, took {fact.tricks[s]} → {fact.scores[s]}" for s in range(n))
            + "."
        )
        lines = tuple(Reason(r.rule_id, f"{name(s)}: {r.text}") for s in range(n) for r in details[s].reasons)
        return event(EventKind.SCORE, None, text, lines, scores=fact.scores, details=details)
    assert isinstance(fact, MatchEnded), fact
    result = rules.result(state)
    assert result is not None
    return event(EventKind.END, None, result.reasons[0].text, result.reasons, winners=result.winners)


def _played(rules: OhHell, fact: CardPlayed) -> Event:
    seat = fact.seat
    assert seat is not None
    name = rules.seat_name(seat)
    card = IDS.card(fact.card)
    reasons: list[Reason] = []
    if len(fact.trick) == 1:
        text = f"{name} leads {card.pretty}."
    else:
        led = SUIT_OF[fact.trick[0]]
        if SUIT_OF[fact.card] == led:
            text = f"{name} follows with {card.pretty}."
            reasons.append(
                Reason("oh.follow", f"{_suit(led).capitalize()} were led and {card.pretty} follows.", (card,))
            )
        else:
            text = f"{name} has no {_suit(led)} and plays {card.pretty}."
            reasons.append(Reason("oh.follow.void", RULEBOOK["oh.follow.void"].text, (card,)))
            if SUIT_OF[fact.card] != fact.trump:
                reasons.append(Reason("oh.rank.none", RULEBOOK["oh.rank.none"].text, (card,)))
        best = IDS.card(fact.trick[winning_index(fact.trick, fact.trump)])
        text += f" {best.pretty} is taking the trick so far."
    return event(EventKind.PLAY, seat, text, tuple(reasons), card=card)
