"""Hearts' rules in the project's own words, one clause per rule, each with a stable id.

Hearts is the classic game of avoiding tricks: every heart you take costs a point and the Queen
of spades thirteen, unless you take them all. Where the ways people play it differ, the choice is
an option (``HT-`` rulings) and its common alternative a variant.
"""

from __future__ import annotations

from ...explain import Clause, Rulebook

NAME = "hearts"
TITLE = "Hearts"
QUEEN_POINTS = 13  # the Queen of spades
JACK_POINTS = -10  # the Jack of diamonds, with the variant "jack"
MOON = 26  # every point card: the 13 hearts and the Queen of spades

RULEBOOK = Rulebook(
    NAME,
    [
        Clause("ht.players", "Players", "Four people play, each on their own."),
        Clause(
            "ht.deck",
            "The deck",
            "52 cards: 2 to 10, Jack, Queen, King and Ace in spades ♠, hearts ♥, diamonds ♦ and clubs ♣. "
            "Within a suit the Ace is highest and the 2 lowest. There is no trump.",
        ),
        Clause(
            "ht.deal",
            "The deal",
            "The dealer deals all the cards, 13 to each player. The dealer changes to the left after every hand.",
        ),
        Clause(
            "ht.pass",
            "Passing",
            "Before the play everyone chooses three cards of their hand to pass, without showing them. "
            "When all have chosen, the cards change hands: to the player on the left in the first hand, "
            "on the right in the second, across the table in the third, and no cards are passed in the "
            "fourth; then the cycle starts again.",
            ruling="HT-1",
            option="passing",
        ),
        Clause(
            "ht.lead.first",
            "The first lead",
            "The player holding the 2 of clubs ♣ leads it to the first trick.",
        ),
        Clause(
            "ht.follow",
            "Following suit",
            "Everyone plays a card of the suit that was led if they can.",
        ),
        Clause(
            "ht.follow.void",
            "No card of the led suit",
            "A player with no card of the led suit may play any card, except as the first trick allows.",
        ),
        Clause(
            "ht.first.trick",
            "No points in the first trick",
            "In the first trick a player who cannot follow suit may not play a heart or the Queen of "
            "spades, unless they hold nothing else.",
            ruling="HT-2",
            option="first_trick",
        ),
        Clause(
            "ht.hearts.broken",
            "Leading hearts",
            "A heart may not be led until hearts are broken: until a heart, or the Queen of spades, has "
            "been played to an earlier trick. A player whose hand holds only hearts may lead one anyway.",
            ruling="HT-3",
        ),
        Clause(
            "ht.trick",
            "Who takes the trick",
            "The highest card of the suit that was led takes the trick. A card of another suit never "
            "takes a trick, however high: there is no trump.",
        ),
        Clause("ht.lead.next", "The next lead", "Whoever took a trick leads the next one."),
        Clause(
            "ht.score",
            "Points",
            "At the end of the hand each heart a player took counts 1 point and the Queen of spades 13. "
            "Points are bad: the fewer the better.",
        ),
        Clause(
            "ht.score.jack",
            "The Jack of diamonds (variant)",
            "With the variant 'jack', the player who takes the Jack of diamonds ♦ takes 10 points off.",
            option="jack",
        ),
        Clause(
            "ht.moon",
            "Shooting the moon",
            "A player who takes every heart and the Queen of spades has shot the moon: they score no "
            "points for them, and every other player scores 26 instead.",
            ruling="HT-4",
            option="moon",
        ),
        Clause(
            "ht.win",
            "The end and the winner",
            "Hands are played until, at the end of a hand, someone has 100 points or more. Then the "
            "lowest total wins; players tied on it share the win.",
            ruling="HT-5",
            option="target",
        ),
        Clause(
            "ht.undo",
            "Taking a decision back",
            "In tricklab the last decision can be taken back (undo), together with everything the rules "
            "did by themselves after it; before the first decision there is nothing to take back.",
        ),
        Clause("ht.over", "The end", "Once the match is over no more moves are made."),
    ],
)
