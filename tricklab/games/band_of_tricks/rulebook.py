"""The clauses of Band of Tricks, in the project's own words, citing the rulings BT-1 to BT-8."""

from __future__ import annotations

from ...explain import Clause, Rulebook
from .rules import NAME

RULEBOOK = Rulebook(
    NAME,
    [
        Clause("bt.players", "Players", "Three, four or five people play, each on their own."),
        Clause(
            "bt.deck",
            "The deck",
            "40 cards in four suits: Rock 7 to 15, Soul 4 to 14, Pops 1 to 13 and Metal 10 to 16. "
            "Each card exists once.",
        ),
        Clause(
            "bt.start",
            "The start player",
            "Pick a start player any way you like, for example with a round of rock-paper-scissors. "
            "The app picks one from the seed unless you give start_player.",
            option="start_player",
        ),
        Clause(
            "bt.deal",
            "The deal",
            "Shuffle and share out all the cards evenly: 13 each with three players, 10 each with four, "
            "8 each with five. With three players one card is left over; it goes back in the box unseen.",
            ruling="BT-1",
        ),
        Clause(
            "bt.deals",
            "Deals",
            "A game has as many deals as there are players. After each deal the start player moves one "
            "seat clockwise, so everyone is start player once.",
            ruling="BT-2",
        ),
        Clause(
            "bt.bid",
            "Bidding",
            "Before playing, each player says how many tricks they will win in Rock, in Soul and in Pops: "
            "a number from 0 to 6 for each. Bids go clockwise from the start player and everyone can see them.",
            ruling="BT-3",
        ),
        Clause(
            "bt.bid.metal",
            "Planning Metal wins",
            "There is no bid for Metal. If you expect to win tricks with Metal cards, add them to the "
            "bid of Rock, Soul or Pops, wherever you plan to count them.",
            ruling="BT-3",
        ),
        Clause(
            "bt.bid.zero",
            "Zero Success",
            "Instead of numbers you may bid Zero Success: you say you will win no trick at all. "
            "Bidding 0 in all three suits is the same as bidding Zero Success.",
            ruling="BT-3",
        ),
        Clause(
            "bt.trick",
            "A trick",
            "The start player leads the first trick. Going clockwise, everyone plays one card face up. "
            "When everyone has played, the trick goes to its winner.",
        ),
        Clause("bt.hand", "Your own cards", "You can only play a card that is in your hand."),
        Clause(
            "bt.follow",
            "Follow suit",
            "The suit to follow is the suit of the first card in the trick that is not Metal. "
            "If you hold a card of that suit, you must play that suit or a Metal card.",
            ruling="BT-4",
        ),
        Clause(
            "bt.follow.metal",
            "Metal is always allowed",
            "You may play a Metal card at any time, even when you hold the suit to follow.",
            ruling="BT-4",
        ),
        Clause(
            "bt.follow.open",
            "Metal sets no suit",
            "While only Metal cards have been played in a trick, there is no suit to follow yet and any "
            "card may be played. The first Rock, Soul or Pops card sets the suit for the players after it.",
            ruling="BT-4",
        ),
        Clause(
            "bt.follow.void",
            "Cannot follow",
            "If you hold no card of the suit to follow, you may play any card.",
            ruling="BT-4",
        ),
        Clause(
            "bt.one-suit",
            "One suit",
            "To find the winner of a trick, first count how many different suits it holds; Metal counts "
            "as a suit too. If all the cards are of one suit, the highest number wins, and the others "
            "follow by number from high to low.",
            ruling="BT-5",
        ),
        Clause(
            "bt.two-suits",
            "Two suits",
            "If there are exactly two suits, one suit beats the other like rock-paper-scissors, and the "
            "highest card of the winning suit wins. The numbers of the other suit do not matter. Below the "
            "winner come the rest of the winning suit, high to low, then the other suit, high to low.",
            ruling="BT-5",
        ),
        Clause(
            "bt.cycle",
            "Rock, Soul, Pops",
            "Rock beats Soul, Soul beats Pops, and Pops beats Rock.",
            ruling="BT-5",
        ),
        Clause(
            "bt.metal.loses",
            "Metal in a two-suit trick",
            "When a trick holds only two suits and one of them is Metal, Metal loses: the other suit wins.",
            ruling="BT-5",
        ),
        Clause(
            "bt.three-suits",
            "Three or more suits",
            "If there are three or more suits, the suits do not matter any more: the highest number wins, "
            "and the others follow by number from high to low.",
            ruling="BT-5",
        ),
        Clause(
            "bt.tie.later",
            "Equal numbers",
            "In a trick with three or more suits, two cards can show the same number. Then the one "
            "played later wins, or places higher.",
            ruling="BT-5",
        ),
        Clause("bt.lead.next", "Next leader", "The winner of a trick leads the next one."),
        Clause(
            "bt.metal.assign",
            "Counting a Metal win",
            "A trick won with a Metal card counts for Rock, Soul or Pops. Its winner chooses which, "
            "right when the trick is won.",
            ruling="BT-6",
        ),
        Clause(
            "bt.metal.zero",
            "Metal under Zero Success",
            "A player who bid Zero Success does not choose a suit: a trick won with Metal simply "
            "counts as a trick won.",
            ruling="BT-6",
        ),
        Clause(
            "bt.score.success",
            "Hitting a bid",
            "At the end of a deal each suit is scored on its own. If you won exactly the number you "
            "bid, you score that number plus 1 (the cube of the bid counts too). A bid of 0 with no "
            "win scores 1.",
            ruling="BT-7",
        ),
        Clause(
            "bt.score.overrun",
            "Too many wins",
            "If you won more tricks in a suit than you bid, you lose 1 point for each extra trick, "
            "and the bid scores nothing.",
            ruling="BT-7",
        ),
        Clause(
            "bt.score.short",
            "Too few wins",
            "If you won fewer tricks in a suit than you bid, you lose 1 point for each trick you were short.",
            ruling="BT-7",
        ),
        Clause(
            "bt.score.zero",
            "Scoring Zero Success",
            "If you bid Zero Success and won no trick, you score 6 points with three players, 4 with "
            "four and 3 with five. If you won any trick, you lose 1 point for each trick you won.",
            ruling="BT-7",
        ),
        Clause(
            "bt.score.deal",
            "A deal's score",
            "Your score for a deal is the sum of your Rock, Soul and Pops scores (or your Zero Success "
            "score). Scores add up over the deals.",
            ruling="BT-7",
        ),
        Clause("bt.win", "Winning", "After the last deal the highest total wins.", ruling="BT-8"),
        Clause(
            "bt.win.tie",
            "Ties",
            "If two or more players share the highest total, play another deal, with the start player "
            "moving on as usual, and again until one player has the highest total alone.",
            ruling="BT-8",
        ),
        Clause(
            "bt.win.limit",
            "A limit on extra deals",
            "So that a game always ends, at most 10 extra deals are played (a different limit can be "
            "set). If players are still tied after them, they share the victory.",
            option="max_extra_deals",
        ),
        Clause("bt.over", "The end", "When the winner is known the game is over."),
        Clause(
            "bt.undo",
            "Taking a decision back",
            "In tricklab the last decision can be taken back (undo), together with everything the rules "
            "did by themselves after it; before the first decision there is nothing to take back.",
        ),
    ],
)
