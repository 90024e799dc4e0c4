"""Mandala's narrator: the facts of its core as the events and reasons a learner reads.

Each function reads a fact (and the rules' fixed facts: seat names, options), never a state,
so a fact as another seat sees it (:meth:`~tricklab.games.core.Fact.seen_by`) narrates just as
well. Who chooses first and who wins come from the rules' own functions, carried in the facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import TYPE_CHECKING

from ...cards import COLOURS
from ...errors import InvalidOption, describe
from ...explain import Reason, and_list, plural
from ..base import Event
from ..core import Fact, event
from .facts import (
    Claimed,
    Cleared,
    Completed,
    Counts,
    Dealt,
    Discarded,
    Drew,
    Ended,
    IntoField,
    IntoMountain,
    Refilled,
    Reshuffled,
)
from .rules import by_colour

if TYPE_CHECKING:
    from .rules import Mandala


def _cards(counts: Counts) -> str:
    held = by_colour(counts)
    return and_list(f"{n} {colour}" for colour, n in held.items()) or "no cards"


def _colours(colours: tuple[str, ...]) -> str:
    return and_list(colours) or "nothing"


def narrate(rules: Mandala, fact: Fact) -> Event:
    """The event for one fact of Mandala's core."""
    name = rules.seat_name
    data = {f.name: getattr(fact, f.name) for f in fields(fact) if f.name != "seat"}
    if isinstance(fact, Dealt):
        mountains = "; ".join(f"Mountain {m + 1}: {_cards(c)}" for m, c in enumerate(fact.mountains))
        hands = [f"{name(s)} holds {_cards(h)}" for s, h in enumerate(fact.hands) if h is not None]
        text = f"The cards are dealt. {mountains}. {name(fact.first)} starts."
        if hands:
            text += " " + "; ".join(hands) + "."
        reasons = [
            Reason(
                "md.setup", "Two face-up cards in each Mountain, six cards in each hand, two face down in each Cup."
            ),
        ]
        return event(fact.kind, None, text, reasons, **data)
    if isinstance(fact, IntoMountain):
        return event(
            fact.kind,
            fact.seat,
            f"{name(fact.seat or 0)} puts one {fact.colour} card into Mountain {fact.mandala}.",
            [
                Reason("md.turn.mountain", "One card goes into a Mountain; then the player draws."),
                Reason("md.color", f"{fact.colour.capitalize()} is in neither Field of Mandala {fact.mandala}."),
            ],
            **data,
        )
    if isinstance(fact, IntoField):
        return event(
            fact.kind,
            fact.seat,
            f"{name(fact.seat or 0)} puts {plural(fact.count, fact.colour + ' card')} into their Field "
            f"of Mandala {fact.mandala}.",
            [
                Reason("md.turn.field", "Cards of one colour go into the player's own Field, with no draw."),
                Reason(
                    "md.color",
                    f"{fact.colour.capitalize()} is neither in Mandala {fact.mandala}'s Mountain nor in the other "
                    "player's Field there.",
                ),
            ],
            **data,
        )
    if isinstance(fact, Discarded):
        return event(
            fact.kind,
            fact.seat,
            f"{name(fact.seat or 0)} discards {plural(fact.count, fact.colour + ' card')}.",
            [Reason("md.turn.discard", "Cards of one colour are discarded; as many are drawn.")],
            **data,
        )
    if isinstance(fact, Drew):
        who = name(fact.seat or 0)
        seen = f": {_colours(fact.colours)}" if fact.colours is not None and fact.count else ""
        text = f"{who} draws {plural(fact.count, 'more card' if fact.continued else 'card')}{seen}."
        if fact.emptied:
            text = f"{text[:-1]}, the last of the deck."
        if fact.short:
            text += f" There was nothing more to draw ({plural(fact.wanted, 'card')} due)."
        why = (
            "After a Mountain play a player draws up to three, never beyond eight cards in hand."
            if fact.rule == "md.turn.draw"
            else "A discard is replaced by as many cards from the deck."
        )
        reasons = [Reason(fact.rule, why)]
        if fact.continued:
            reasons.append(Reason("md.reshuffle", "The rest of the draw comes from the new deck."))
        if fact.short:
            reasons.append(Reason("md.reshuffle", "The deck and the discard pile are both empty."))
        return event(fact.kind, fact.seat, text, reasons, **data)
    if isinstance(fact, Reshuffled):
        text = f"The deck has run out: the discard pile ({plural(fact.count, 'card')}) is shuffled into a new deck."
        reasons = [Reason("md.reshuffle", "An empty deck is replaced by the shuffled discard pile.")]
        if fact.number == 1:
            reasons.append(Reason("md.end.deck", "The next Mandala to be completed ends the game."))
        return event(fact.kind, None, text, reasons, **data)
    if isinstance(fact, Completed):
        a, b = fact.fields
        if fact.tie:
            why = (
                f"Both Fields hold {plural(a, 'card')}: the player who "
                f"{'completed' if rules.options.claim_tie == 'completer' else 'did not complete'} it chooses first."
            )
        else:
            why = f"{name(fact.first)} has more cards in their Field ({max(a, b)} against {min(a, b)})."
        reasons = [
            Reason("md.complete", f"Mandala {fact.mandala} shows all six colours."),
            Reason("md.claim.order", why),
        ]
        if fact.last:
            reasons.append(Reason("md.end.deck", "The deck has run out once: this is the last Mandala."))
        text = (
            f"{name(fact.seat or 0)} completes Mandala {fact.mandala}. "
            f"{name(fact.first)} chooses first from its Mountain."
        )
        return event(fact.kind, fact.seat, text, reasons, **data)
    if isinstance(fact, Claimed):
        who = name(fact.seat or 0)
        if fact.count == 1:
            took, it = f"{who} claims the one {fact.colour} card of Mountain {fact.mandala}", "it goes"
        else:
            took, it = f"{who} claims the {fact.count} {fact.colour} cards of Mountain {fact.mandala}", "they go"
        if fact.discarded:
            text = f"{took}: {it} onto the discard pile."
            reason = Reason("md.claim.empty-field", f"{who} has no card in their Field of this Mandala.")
        elif fact.river_space is not None:
            rest = f"; the other {plural(fact.to_cup, 'card')} into the Cup" if fact.to_cup else ""
            one = "it goes" if fact.count == 1 else "one goes"
            text = f"{took}: {one} to River space {fact.river_space}{rest}."
            reason = Reason("md.claim.river", f"{fact.colour.capitalize()} is new to {who}'s River.")
        else:
            text = f"{took}: {it} into the Cup."
            reason = Reason("md.claim.cup", f"{who}'s River already shows {fact.colour}.")
        return event(fact.kind, fact.seat, text, [Reason("md.claim", "A colour is taken whole."), reason], **data)
    if isinstance(fact, Cleared):
        return event(
            fact.kind,
            None,
            f"Mandala {fact.mandala}'s Fields go onto the discard pile ({plural(fact.count, 'card')}).",
            [Reason("md.clear", "A shared-out Mandala is cleared.")],
            **data,
        )
    if isinstance(fact, Refilled):
        return event(
            fact.kind,
            None,
            f"New cards{' from the new deck' if fact.continued else ''} go face up into Mountain {fact.mandala}: "
            f"{_colours(fact.colours)}.",
            [Reason("md.clear", "Two new cards start the cleared Mandala's Mountain.")],
            **data,
        )
    if isinstance(fact, Ended):
        return _ended(rules, fact, data)
    raise InvalidOption(f"Mandala has no fact {describe(fact)}")


_END_RULE = {"river": "md.end.river", "deck": "md.end.deck", "stuck": "md.end.stuck", "stalled": "md.end.stalled"}
_END_TEXT = {
    "river": "A River holds all six colours.",
    "deck": "The last Mandala after the deck ran out has been shared out.",
    "stuck": "The player to move holds no card.",
    "stalled": "The deck has run out again and cannot be rebuilt: the game ends as it stands.",
}


def _ended(rules: Mandala, fact: Ended, data: Mapping[str, object]) -> Event:
    name = rules.seat_name
    scores = ", ".join(f"{name(s)} {plural(t, 'point')}" for s, t in enumerate(fact.totals))
    verdict = "The win is shared." if len(fact.winners) > 1 else f"{name(fact.winners[0])} wins."
    reasons = [Reason(_END_RULE[fact.cause], _END_TEXT[fact.cause])]
    for s, total in enumerate(fact.totals):
        river = fact.rivers[s]
        cup = fact.cups[s]
        parts = [
            f"{cup[i]} {colour} at {river.index(colour) + 1}"
            for i, colour in enumerate(COLOURS)
            if colour in river and cup[i]
        ]
        detail = f" ({', '.join(parts)})" if parts else ""
        reasons.append(Reason("md.score", f"{name(s)} scores {plural(total, 'point')}{detail}."))
    if fact.tie_break is not None:
        sizes = " and ".join(plural(n, "card") for n in fact.cup_sizes)
        reasons.append(Reason("md.score.tie", f"The scores are equal; the Cups hold {sizes}."))
    return event(fact.kind, None, f"The game is over: {scores}. {verdict}", reasons, **data)
