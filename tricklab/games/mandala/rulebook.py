"""Mandala's data and rulebook: the fixed words of its rules (phases, end causes, options),
its numbers, and the clause texts that events and refusals cite."""

from __future__ import annotations

from ...cards import COLOUR_COPIES, COLOURS
from ...explain import Clause, Rulebook
from ..base import Word

NAME = "mandala"
TITLE = "Mandala"
COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
CARDS = len(COLOURS) * COLOUR_COPIES  # 108
MANDALAS = 2
START_MOUNTAIN = 2  # face-up cards in each Mountain at the start, and after a Mandala is cleared
START_HAND = 6
START_CUP = 2
DRAW_UP_TO = 3  # after a card into a Mountain
HAND_LIMIT = 8
RIVER_SPACES = 6
RESHUFFLES = 1  # MD-5: the discards become a new deck once; when that deck runs out, the game is stalled
#: how many reshuffles records saved before MD-5 replay with: the deck was then rebuilt every time it
#: ran out, and a finished game of that time never needed more than a few
LEGACY_RESHUFFLES = 100


class Phase(Word):
    """What Mandala is waiting for: a turn's action, a colour claimed from a completed
    Mandala's Mountain; ``OVER`` once the game has ended. Each member equals its word."""

    PLAY = "play"
    CLAIM = "claim"
    OVER = "over"


class EndCause(Word):
    """Why the game ended."""

    RIVER = "river"  # a River holds all six colours
    DECK = "deck"  # a Mandala was completed after the deck had run out and been reshuffled
    STUCK = "stuck"  # the player to move holds no card and none can be drawn
    STALLED = "stalled"  # the deck ran out again once it could be rebuilt no more (MD-5)


class ClaimTie(Word):
    """Who chooses first when both Fields of a completed Mandala hold as many cards
    (the option ``claim_tie``)."""

    OTHER = "other"  # the player who did not complete the Mandala (MD-2, the default)
    COMPLETER = "completer"  # the player who completed it


class RiverEnd(Word):
    """When a River with six colours ends the game (the option ``river_end``)."""

    AT_ONCE = "at-once"  # as soon as the sixth colour reaches the River (MD-3, the default)
    AFTER_CLAIMS = "after-claims"  # once the whole Mountain has been claimed


class Completion(Word):
    """When a Mandala whose sixth colour arrives by a Mountain play is complete, which decides
    whether it is the last one (the option ``completion``)."""

    ON_ARRIVAL = "on-arrival"  # as soon as the sixth colour arrives, before that turn's draw (MD-6, the default)
    AFTER_DRAW = "after-draw"  # after that turn's draw (how records saved before MD-6 were played)


PLAY, CLAIM, OVER = Phase.PLAY, Phase.CLAIM, Phase.OVER

RULEBOOK = Rulebook(
    NAME,
    [
        Clause(
            "md.players",
            "Players",
            "Mandala is for exactly two players.",
            ruling="MD-1",
        ),
        Clause(
            "md.deck",
            "The cards",
            "There are 108 cards: 18 of each of six colours, red, orange, yellow, green, blue and purple. "
            "Cards of one colour are alike; only their colour matters.",
            ruling="MD-1",
        ),
        Clause(
            "md.mandalas",
            "Two Mandalas",
            "Two Mandalas lie between the players, numbered 1 and 2. Each has three areas: a shared "
            "Mountain in the middle, and on each side a Field belonging to the player sitting there.",
            ruling="MD-1",
        ),
        Clause(
            "md.setup",
            "Setting up",
            "Shuffle the cards. Turn 2 of them face up into each Mountain. Each player takes 6 into their "
            "hand and puts 2 more face down into their own Cup; the rest form the deck. "
            "Each player also has an empty River of six numbered spaces.",
            ruling="MD-1",
        ),
        Clause(
            "md.cup.own",
            "Your own Cup",
            "Cup cards lie face down so that the other player cannot see them. You may look at your own Cup "
            "whenever you like.",
            ruling="MD-4",
        ),
        Clause(
            "md.turn",
            "A turn",
            "Players take turns. On your turn you do exactly one of three things: put one card into a "
            "Mountain and draw, put cards into one of your Fields, or discard cards and draw.",
            ruling="MD-1",
        ),
        Clause(
            "md.turn.hand",
            "Cards from your hand",
            "Every card you put down on your turn comes from your hand, so you can only use colours "
            "you hold, and no more cards than you hold of them.",
        ),
        Clause(
            "md.turn.mountain",
            "Into a Mountain",
            "Put exactly one card from your hand face up into the Mountain of either Mandala, then draw.",
            ruling="MD-1",
        ),
        Clause(
            "md.turn.draw",
            "Drawing after a Mountain",
            "After a card into a Mountain you draw three cards, but never so many that you would hold more "
            "than 8: with 7 cards you draw one, with 6 you draw two. You may not draw more and then give "
            "cards back.",
            ruling="MD-1",
        ),
        Clause(
            "md.turn.field",
            "Into your Field",
            "Put one or more cards of a single colour from your hand into your own Field of one Mandala. "
            "You draw nothing afterwards.",
            ruling="MD-1",
        ),
        Clause(
            "md.turn.field.keep",
            "Keep a card",
            "After putting cards into your Field you must still hold at least one card, so you can never "
            "empty your hand that way.",
            ruling="MD-1",
        ),
        Clause(
            "md.turn.discard",
            "Discard and draw",
            "Put one or more cards of a single colour from your hand face up on the discard pile, then "
            "draw the same number of cards. You add nothing to either Mandala this turn.",
            ruling="MD-1",
        ),
        Clause(
            "md.color",
            "The Rule of Color",
            "Inside one Mandala each colour may sit in only one of its three areas. A colour already in a "
            "player's Field cannot go into that Mandala's Mountain or the other player's Field, and a "
            "colour already in the Mountain cannot go into either Field. The other Mandala does not "
            "matter.",
            ruling="MD-2",
        ),
        Clause(
            "md.complete",
            "A complete Mandala",
            "When a Mandala shows all six colours, counting its Mountain and both Fields together, it is "
            "complete at once, as the sixth colour arrives: if that was a card into a Mountain, before the "
            "player draws. Nothing else happens until the end of the turn; then its Mountain is shared out "
            "(option completion: 'on-arrival', the default; records saved before this ruling were played "
            "with 'after-draw', which counts the Mandala complete only after the draw).",
            ruling="MD-6",
            option="completion",
        ),
        Clause(
            "md.claim.order",
            "Who chooses first",
            "The player with more cards in their own Field of the completed Mandala chooses first. If both "
            "Fields hold the same number, the player who did not complete the Mandala chooses first "
            "(option claim_tie: 'other', the default, or 'completer'). After that the players take turns "
            "choosing until the Mountain is empty.",
            ruling="MD-2",
            option="claim_tie",
        ),
        Clause(
            "md.claim",
            "Claiming a colour",
            "To choose, name a colour still in the completed Mandala's Mountain and take every card of that "
            "colour from it.",
            ruling="MD-2",
        ),
        Clause(
            "md.claim.river",
            "A colour new to your River",
            "If your River has no card of the colour you took yet, one of those cards goes face up on the "
            "lowest free space of your River (space 1 first, then 2, up to 6) and the others go into your "
            "Cup. River cards never move.",
            ruling="MD-2",
        ),
        Clause(
            "md.claim.cup",
            "A colour your River already has",
            "If your River already shows the colour you took, all of those cards go face down into your Cup.",
            ruling="MD-2",
        ),
        Clause(
            "md.claim.empty-field",
            "Nothing in your Field",
            "A player with no card in their Field of the completed Mandala still takes a colour in turn, "
            "but the cards taken go onto the discard pile: they earn nothing.",
            ruling="MD-2",
        ),
        Clause(
            "md.clear",
            "Clearing the Mandala",
            "When its Mountain is empty, both Fields of the completed Mandala go onto the discard pile, and "
            "unless the game is over two new cards from the deck are turned face up into its Mountain.",
            ruling="MD-2",
        ),
        Clause(
            "md.reshuffle",
            "An empty deck",
            "When the deck runs out, the discard pile is shuffled and becomes the new deck; a player who was "
            "drawing takes the first cards of the old deck, then the rest from the new one. This happens "
            "once (option reshuffles: 1). If there is nothing to draw at all, a player simply draws fewer "
            "cards.",
            ruling="MD-3",
            option="reshuffles",
        ),
        Clause(
            "md.end.river",
            "End: a full River",
            "The game ends when a player's River holds all six colours (option river_end: 'at-once', the "
            "default, ends it as soon as the sixth colour arrives; 'after-claims' lets the Mountain be "
            "shared out first).",
            ruling="MD-3",
            option="river_end",
        ),
        Clause(
            "md.end.deck",
            "End: the deck has run out",
            "Once the deck has run out and the discards have been shuffled into a new one, the next "
            "Mandala to be completed is the last: the game ends when its Mountain has been shared out. A "
            "Mandala completed before that reshuffle is not the last, even if the reshuffle comes in the "
            "same turn's draw.",
            ruling="MD-6",
        ),
        Clause(
            "md.end.stalled",
            "End: the deck runs out again",
            "If the new deck runs out too, so that the discards would have to be shuffled a second time, "
            "the game ends at once and is scored as it stands. Without this, some games leave both players "
            "nothing but discards, forever.",
            ruling="MD-5",
            option="reshuffles",
        ),
        Clause(
            "md.end.stuck",
            "End: nothing to play",
            "A hand can only run empty when nothing is left to draw. If the player to move holds no card, "
            "no turn is possible and the game ends there. The rulings leave this case open; it can only "
            "happen very late.",
        ),
        Clause(
            "md.score",
            "Scoring",
            "Each card in your Cup scores the number of the River space that holds its colour in your own "
            "River: a red Cup card scores 4 if red lies on space 4. Cup cards of a colour missing from your "
            "River score nothing. River cards themselves score nothing.",
            ruling="MD-3",
        ),
        Clause(
            "md.score.tie",
            "Equal scores",
            "With equal scores the player with fewer cards in their Cup wins. If that is equal too, the win is shared.",
            ruling="MD-3",
        ),
        Clause(
            "md.view",
            "What you may see",
            "You see your own hand, both Mandalas, both Rivers, the discard pile and how many cards are in "
            "the deck, each hand and each Cup, and what lies in your own Cup. You do not see the other hand, "
            "the order of the deck or what lies face down in the other player's Cup.",
        ),
        Clause(
            "md.over",
            "The game is over",
            "Once the game has ended nobody takes another turn.",
        ),
        Clause(
            "md.undo",
            "Taking back",
            "A decision can be taken back, which also takes back everything that followed from it.",
        ),
    ],
)
