"""Oh Hell's rules in the project's own words, one clause per rule, each with a stable id.

Oh Hell (also called Blackout or Nomination Whist) is a classic of the family: everyone says how
many tricks they will take and scores well only by taking exactly that many. Where the ways people
play it differ, the choice is an option (``OH-`` rulings) and its common alternative a variant.
"""

from __future__ import annotations

from ...explain import Clause, Rulebook

NAME = "oh-hell"
TITLE = "Oh Hell"
EXACT_BONUS = 10  # the points for taking exactly the tricks bid, on top of one per trick

RULEBOOK = Rulebook(
    NAME,
    [
        Clause("oh.players", "Players", "Three to six people play, each on their own."),
        Clause(
            "oh.deck",
            "The deck",
            "52 cards: 2 to 10, Jack, Queen, King and Ace in spades ♠, hearts ♥, diamonds ♦ and clubs ♣. "
            "Within a suit the Ace is highest and the 2 lowest.",
        ),
        Clause(
            "oh.deals",
            "The deals",
            "The match is a series of deals. The first deal gives everyone 5 cards, the next 4, and so on "
            "down to a deal of 1 card each; then the match ends. The dealer changes to the left after "
            "every deal.",
            ruling="OH-1",
            option="cards, direction",
        ),
        Clause(
            "oh.deal",
            "The deal",
            "The dealer shuffles and deals the cards of the deal to every player. The next card of the "
            "deck is turned face up: its suit is trump for the whole deal. The rest of the deck is not used.",
        ),
        Clause(
            "oh.bid",
            "Bidding",
            "Starting on the dealer's left and ending with the dealer, each player says aloud how many "
            "tricks they will take: any number from 0 to the number of cards in hand. Everyone hears "
            "every bid.",
        ),
        Clause(
            "oh.hook",
            "The dealer's bid",
            "The dealer, bidding last, may not make the bids add up to the number of tricks in the deal: "
            "someone must miss. (Without this rule, the variant 'no hook', the dealer may bid anything.)",
            ruling="OH-2",
            option="hook",
        ),
        Clause("oh.lead.first", "The first lead", "The player on the dealer's left leads the first trick."),
        Clause(
            "oh.follow",
            "Following suit",
            "Each player in turn, clockwise, plays one card. You must play a card of the suit that was "
            "led if you have one.",
        ),
        Clause(
            "oh.follow.void",
            "No card of the led suit",
            "If you have no card of the led suit you may play any card, a trump or any other.",
        ),
        Clause(
            "oh.trick",
            "Taking a trick",
            "The highest trump in the trick takes it; with no trump in it, the highest card of the led "
            "suit does. A card of another suit can never take the trick.",
        ),
        Clause("oh.rank.trump", "Trumps win", "A trump beats every card that is not a trump, however high."),
        Clause("oh.rank.led", "The led suit", "A card of the led suit beats every card that is neither led nor trump."),
        Clause("oh.rank.within", "Within a suit", "Between two cards of one suit the higher rank wins."),
        Clause("oh.rank.none", "Off suit", "A card that neither follows the led suit nor is a trump takes no trick."),
        Clause("oh.lead.next", "The next lead", "Whoever took a trick leads the next one."),
        Clause(
            "oh.score",
            "Scoring a deal",
            "Every trick you take scores 1 point. If you took exactly the number you bid, you score 10 points more.",
            ruling="OH-3",
        ),
        Clause(
            "oh.score.penalty",
            "Missing the bid (variant)",
            "With the variant 'penalty', a player who misses the bid scores no points for tricks: "
            "they lose 1 point for every trick too many or too few.",
            option="penalty",
        ),
        Clause(
            "oh.win",
            "Winning",
            "After the last deal the highest total wins. Players tied on it compare how many deals "
            "they made their bid exactly; if still tied, they share the win.",
            ruling="OH-4",
        ),
        Clause(
            "oh.undo",
            "Taking a decision back",
            "In tricklab the last decision can be taken back (undo), together with everything the rules "
            "did by themselves after it; before the first decision there is nothing to take back.",
        ),
        Clause("oh.over", "The end", "Once the last deal is scored the match is over: no more moves are made."),
    ],
)
