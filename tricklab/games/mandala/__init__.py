"""Mandala: two players build two Mandalas of six colours and share them out.

108 cards, 18 in each of six colours. Each Mandala has a shared Mountain and one Field per
player; within a Mandala a colour may lie in only one of those three areas (the Rule of
Color). A turn is one of three actions (their text forms in brackets):

* one card into a Mountain, then draw up to three, never beyond eight in hand
  (``mountain 1 red``: :class:`~tricklab.actions.ToMountain`);
* one or more cards of one colour into your own Field of a Mandala, keeping at least one
  card in hand, no draw (``field 2 blue 3``: :class:`~tricklab.actions.ToField`);
* one or more cards of one colour discarded, as many drawn (``discard green 2``:
  :class:`~tricklab.actions.Discard`).

A Mandala showing all six colours is shared out at the end of the turn: the players take
turns choosing a colour of its Mountain (``claim red``: :class:`~tricklab.actions.Claim`);
the first card of a colour new to the chooser's River goes to its next space, the rest to the
Cup. Each Cup card scores its colour's River space.

Rulings where the source text is damaged are in ``RULEBOOK`` (``ruling="MD-n"``); the
choices a teacher may change are options: ``claim_tie`` (MD-2) and ``river_end`` (MD-3).
The match option ``first_player`` (0 or 1) says who starts; by default the seed does.

The game is one folder: :mod:`.rulebook` (its words, numbers and clauses), :mod:`.rules` (the
core: compact state, ``core_legal``/``core_step``, refusals, views), :mod:`.facts` (the facts
the core reports), :mod:`.narrate` (the facts as events), :mod:`.bots` (its heuristic bot,
``tricklab.get_rules("mandala", players=2).play(bots="heuristic")``), :mod:`.moves` (its "try a move"
entry) and :mod:`.puzzles` (may this card go here?).
"""

from .facts import (
    Claimed,
    Cleared,
    Completed,
    Dealt,
    Discarded,
    Drew,
    Ended,
    IntoField,
    IntoMountain,
    Refilled,
    Reshuffled,
)
from .narrate import narrate
from .rulebook import (
    CARDS,
    CLAIM,
    COLOUR_INDEX,
    DRAW_UP_TO,
    HAND_LIMIT,
    MANDALAS,
    NAME,
    OVER,
    PLAY,
    RIVER_SPACES,
    RULEBOOK,
    START_CUP,
    START_HAND,
    START_MOUNTAIN,
    TITLE,
    ClaimTie,
    EndCause,
    Phase,
    RiverEnd,
)
from .rules import (
    CAPABILITIES,
    FIELD_MAX,
    TABLE,
    ActionTable,
    Kind,
    Mandala,
    MandalaArea,
    MandalaOptions,
    MandalaState,
    MandalaView,
    action_table,
    by_colour,
)

__all__ = [
    "CAPABILITIES",
    "CARDS",
    "CLAIM",
    "COLOUR_INDEX",
    "DRAW_UP_TO",
    "FIELD_MAX",
    "HAND_LIMIT",
    "MANDALAS",
    "NAME",
    "OVER",
    "PLAY",
    "RIVER_SPACES",
    "RULEBOOK",
    "START_CUP",
    "START_HAND",
    "START_MOUNTAIN",
    "TABLE",
    "TITLE",
    "ActionTable",
    "ClaimTie",
    "Claimed",
    "Cleared",
    "Completed",
    "Dealt",
    "Discarded",
    "Drew",
    "EndCause",
    "Ended",
    "IntoField",
    "IntoMountain",
    "Kind",
    "Mandala",
    "MandalaArea",
    "MandalaOptions",
    "MandalaState",
    "MandalaView",
    "Phase",
    "Refilled",
    "Reshuffled",
    "RiverEnd",
    "action_table",
    "by_colour",
    "narrate",
]
