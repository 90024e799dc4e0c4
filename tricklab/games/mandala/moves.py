"""Mandala's "try a move" entry (:mod:`tricklab.moves`): the position as the seat knows it (the
other hand, the Cups and the deck as stand-ins of the right number), what a move did as the seat
can know it before making it (cards drawn are counted, never named) and the heuristic bot's move."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ...actions import Action
from ...cards import COLOURS
from ...explain import plural
from ...moves import Best, Effect, MovesEntry, Tried
from ..base import Event, GameState, Rules, SeatView
from ..core import Facts, event
from . import (
    COLOUR_INDEX,
    Claimed,
    Completed,
    Drew,
    Ended,
    IntoField,
    IntoMountain,
    Mandala,
    MandalaState,
    MandalaView,
    Refilled,
)
from .bots import HeuristicBot

#: a seat that is none of the players: a fact as nobody at the table knows it yet (a draw's cards)
_NOBODY = -1


def _mandala_position(rules: Rules[Any], view: SeatView) -> GameState:
    """The position as the seat knows it: its own hand and everything face up; the other hand,
    the Cups and the deck as stand-in cards of the right number (the first colour). The rules
    read only how many of them there are during one move, except for the cards drawn, which
    :func:`_mandala_tally` leaves unnamed."""
    assert isinstance(view, MandalaView)
    seat = view.seat
    assert seat is not None

    def counts(held: dict[str, int] | None) -> tuple[int, ...]:
        return tuple((held or {}).get(c, 0) for c in COLOURS)

    def stand_in(n: int) -> tuple[int, ...]:
        return (n,) + (0,) * (len(COLOURS) - 1)

    hands = tuple(counts(view.hands[s]) if s == seat else stand_in(view.hand_sizes[s]) for s in range(2))
    return MandalaState(
        phase=view.phase,
        to_play=view.to_play,
        turn=view.turn,
        hand_counts=hands,
        mountains=tuple(counts(area.mountain) for area in view.mandalas),
        fields=tuple(tuple(counts(f) for f in area.fields) for area in view.mandalas),
        river_ids=tuple(tuple(COLOUR_INDEX[c] for c in river) for river in view.rivers),
        cup_counts=tuple(  # the seat's own Cup it may look at (MD-4); the other stands in by its size
            counts(view.cups[s]) if s == seat and view.cups[s] is not None else stand_in(view.cup_sizes[s])
            for s in range(2)
        ),
        deck=(0,) * view.deck_size,
        discards=counts(view.discards),
        reshuffles=view.reshuffles,
        claiming=None if view.claiming is None else view.claiming - 1,
        last=view.last,
    )


def _mandala_tally(rules: Rules[Any], seat: int, before: GameState, facts: Facts, after: GameState) -> Tried:
    """A Mandala move's facts as the seat can know them before making it: cards drawn and new
    Mountain cards are counted, never named, and the view after it shows only the known cards
    (a game that ends is scored when the Cups are opened: that is not known yet either)."""
    assert isinstance(rules, Mandala) and isinstance(after, MandalaState)
    drawn = [0] * len(COLOURS)
    refilled: dict[int, list[int]] = {}
    effects: list[Effect] = []
    events: list[Event] = []
    for fact, state in facts:
        told = rules.narrate(fact.seen_by(_NOBODY if isinstance(fact, Drew) else seat), state)
        if isinstance(fact, Drew):
            for colour in fact.colours or ():
                drawn[COLOUR_INDEX[colour]] += 1
            if fact.seat == seat and fact.count:
                effects.append(
                    Effect("drawn", fact.count, f"then you draw {plural(fact.count, 'card')} (unknown until drawn)")
                )
        elif isinstance(fact, Refilled):
            refilled.setdefault(fact.mandala - 1, []).extend(COLOUR_INDEX[c] for c in fact.colours)
            told = event(
                told.kind,
                None,
                f"{plural(len(fact.colours), 'new card')} from the deck go face up into Mountain {fact.mandala}.",
                told.reasons,
                mandala=fact.mandala,
            )
        elif isinstance(fact, (IntoMountain, IntoField)):
            shows = len(rules.present(state, fact.mandala - 1))
            effects.append(Effect("colours", shows, f"Mandala {fact.mandala} then shows {shows} of the six colours"))
            if isinstance(fact, IntoField):
                own, other = (sum(f) for f in (state.fields[fact.mandala - 1][s] for s in (seat, 1 - seat)))
                effects.append(
                    Effect("field", own, f"your Field there holds {plural(own, 'card')}, the other player's {other}")
                )
        elif isinstance(fact, Completed):
            chooser = "you choose" if fact.first == seat else f"{rules.seat_name(fact.first)} chooses"
            effects.append(Effect("completed", fact.mandala, f"completes Mandala {fact.mandala}: {chooser} first"))
        elif isinstance(fact, Claimed) and fact.seat == seat:
            if fact.discarded:
                effects.append(Effect("claimed", fact.count, f"takes {plural(fact.count, fact.colour + ' card')}"))
                effects.append(Effect("discarded", fact.count, "they are discarded: you have no Field there"))
            else:
                effects.append(Effect("claimed", fact.count, f"takes {plural(fact.count, fact.colour + ' card')}"))
                if fact.river_space is not None:
                    effects.append(
                        Effect("river", fact.river_space, f"{fact.colour} goes to your River space {fact.river_space}")
                    )
                if fact.to_cup:
                    effects.append(Effect("cup", fact.to_cup, f"{plural(fact.to_cup, 'card')} into your Cup"))
        elif isinstance(fact, Ended):
            # the scores need the face-down Cup cards: only the rule that ends the game is told
            told = event(
                told.kind,
                None,
                "The game ends here; the Cups are then opened and scored.",
                told.reasons[:1],
                cause=str(fact.cause),
            )
            effects.append(Effect("ends", 1, "the game ends"))
        events.append(told)
    hands = list(after.hand_counts)
    hands[seat] = tuple(n - d for n, d in zip(hands[seat], drawn, strict=True))
    mountains = list(after.mountains)
    for m, colours in refilled.items():
        mountains[m] = tuple(n - colours.count(c) for c, n in enumerate(mountains[m]))
    known = replace(after, hand_counts=tuple(hands), mountains=tuple(mountains))
    shown = rules.view(known, seat)
    assert isinstance(shown, MandalaView)
    if after.is_over:  # the other Cup is not opened in a move only tried
        cups = tuple(c if s == seat else None for s, c in enumerate(shown.cups))
        shown = replace(shown, cups=cups, scores=None)
    return Tried(shown, tuple(effects), tuple(events))


def _mandala_best(rules: Rules[Any], view: SeatView, seat: int, legal: Sequence[Action]) -> Best:
    assert isinstance(rules, Mandala) and isinstance(view, MandalaView)
    decision = HeuristicBot(rules, seat).decide(view, legal)
    return Best(decision.action, tuple(decision.reasons))


MANDALA_MOVES = MovesEntry(
    position=_mandala_position,
    tally=_mandala_tally,
    best=_mandala_best,
    best_title="the heuristic bot",
)
