"""Jewel Vault's data and rulebook: the fixed words of its rules (phases, causes, stages),
its numbers, and the clause texts that events and refusals cite."""

from __future__ import annotations

from ...cards import FRENCH_SUITS
from ...explain import Clause, Rulebook
from ..base import Word

NAME = "jewel-vault"
TITLE = "Jewel Vault"
SUITS = FRENCH_SUITS  # S H D C: the order of won-card counts in states and views
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
ROUND_END_ORDER = ("D", "H", "S", "C")  # JV-6
DEFAULT_ROUNDS = {2: 4, 3: 6, 4: 4, 5: 5, 6: 6}  # JV-2
MAX_ROUNDS = 100
DEFAULT_SUPPLY = 100  # JV-3
START_SHOWROOM = 3  # per player (per member in partnerships)
ANNOUNCE_CHOICES = (1, 2, 3)
VAULT_POINTS = 2
SHOWROOM_POINTS = 1
NO_TRICK_ACTIONS = 2
KNOWN_DECK_TOP = {4: 13, 3: 9, 2: 8}  # known deck: highest rank kept, by player count


class Phase(Word):
    """What a round of Jewel Vault is waiting for: the announced number of cards to pass, a
    seat's passed cards, a card, the target of a ♣ action; ``OVER`` once the match has ended.
    Each member equals its word (``"play"``)."""

    ANNOUNCE = "announce"
    PASS = "pass"
    PLAY = "play"
    STEAL = "steal"
    OVER = "over"


class Cause(Word):
    """Why a suit action is taken."""

    VOID = "void"  # could not follow the led suit
    TRICK = "trick"  # won the trick
    MOST = "most"  # most cards of the suit at the end of the round
    NO_TRICK = "no-trick"  # won no trick in the round


class Stage(Word):
    """Where play goes on once the owed suit actions are done."""

    IN_TRICK = "trick"  # the trick goes on
    AFTER_TRICK = "after-trick"  # the trick is complete: the next trick or the round's end
    ROUND_END = "round-end"  # the round is over: the next round or the match's end


class Blocked(Word):
    """Why a suit action moved nothing."""

    SUPPLY_EMPTY = "supply-empty"  # the supply is empty
    SHOWROOM_EMPTY = "showroom-empty"  # the showroom it takes from is empty
    NO_TARGET = "no-target"  # every showroom one could take from is empty


ANNOUNCE, PASS, PLAY, STEAL, OVER = Phase.ANNOUNCE, Phase.PASS, Phase.PLAY, Phase.STEAL, Phase.OVER
VOID, TRICK, MOST, NO_TRICK = Cause.VOID, Cause.TRICK, Cause.MOST, Cause.NO_TRICK
CAUSES = tuple(Cause)
IN_TRICK, AFTER_TRICK, ROUND_END = Stage.IN_TRICK, Stage.AFTER_TRICK, Stage.ROUND_END
SUPPLY_EMPTY, SHOWROOM_EMPTY, NO_TARGET = Blocked.SUPPLY_EMPTY, Blocked.SHOWROOM_EMPTY, Blocked.NO_TARGET

ACTION_RULE = {"D": "jv.action.diamond", "H": "jv.action.heart", "S": "jv.action.spade", "C": "jv.action.club"}
ACTION_PATH = {  # suit -> (source, destination)
    "D": ("supply", "vault"),
    "H": ("supply", "showroom"),
    "S": ("showroom", "vault"),
    "C": ("showroom", "showroom"),
}

RULEBOOK = Rulebook(
    NAME,
    [
        Clause(
            "jv.players",
            "Players",
            "Two to six people play. Three, four or five is best. Each plays alone, unless you use the "
            "partnership variant.",
        ),
        Clause(
            "jv.deck",
            "The deck",
            "An ordinary deck of 52 cards without jokers: Ace to King in spades ♠, hearts ♥, diamonds ♦ and "
            "clubs ♣. Each card exists once.",
        ),
        Clause(
            "jv.card-order",
            "Card order",
            "In every suit the Ace is the lowest card, then 2, 3 and so on up to 10, Jack, Queen and the "
            "King, which is the highest. There are no trumps.",
        ),
        Clause(
            "jv.jewels",
            "Showroom and vault",
            "Each player keeps jewels in two places. The showroom sits open on the table: everyone can see "
            "it, and others can take jewels from it. The vault is a closed cup: jewels in it are safe, and "
            "nobody else may see how many there are.",
        ),
        Clause(
            "jv.supply",
            "The supply",
            "All jewels start in a shared supply in the middle of the table, 100 of them unless you agree "
            "on another number. The supply can run out. Chips worth five are only used for change and do "
            "not change the game.",
            ruling="JV-3",
            option="supply",
        ),
        Clause(
            "jv.start",
            "Starting jewels",
            "At the start of the game (not of each round) every player puts 3 jewels from the supply into "
            "their showroom. Jewels stay where they are from one round to the next.",
            ruling="JV-3",
        ),
        Clause(
            "jv.rounds",
            "Number of rounds",
            "Unless you agree otherwise: 4 rounds with 2 players, 6 with 3, 4 with 4, 5 with 5 and 6 with 6, "
            "so everyone deals once, or twice with 2 or 3 players. After each round the next player to the "
            "left deals.",
            ruling="JV-2",
            option="rounds",
        ),
        Clause(
            "jv.deal",
            "The deal",
            "The dealer shuffles and gives everyone 10 cards (8 cards each with 6 players). The cards left "
            "over stay face down for the round and nobody looks at them.",
            ruling="JV-4",
        ),
        Clause(
            "jv.announce",
            "How many to pass",
            "After looking at their own cards, the dealer says how many cards everyone passes: 1, 2 or 3.",
            ruling="JV-4",
        ),
        Clause(
            "jv.pass",
            "Passing cards",
            "Everyone picks exactly that many cards from their hand and passes them face down to the "
            "neighbour on their left.",
            ruling="JV-4",
        ),
        Clause(
            "jv.pass.secret",
            "Pass before you look",
            "Everyone chooses their cards in secret, and all the cards change hands at the same moment, so "
            "nobody sees what they get before choosing what they give.",
            ruling="JV-4",
        ),
        Clause(
            "jv.lead.first",
            "The first lead",
            "The player to the dealer's left plays the first card of the first trick.",
            ruling="JV-5",
        ),
        Clause(
            "jv.trick",
            "A trick",
            "The leader plays a card, then each other player in turn to the left adds one card. With 2 "
            "players a trick has 4 cards (see the two-player rule).",
        ),
        Clause(
            "jv.turn",
            "Taking turns",
            "Players act one at a time, in the order the rules give; nobody acts out of turn.",
        ),
        Clause("jv.hand", "Your own cards", "You can only play or pass a card that is in your hand."),
        Clause(
            "jv.follow",
            "Follow suit",
            "Whenever you hold at least one card in the suit of the first card of the trick, the card you "
            "play has to be of that suit too.",
            ruling="JV-5",
        ),
        Clause(
            "jv.follow.void",
            "Cannot follow: take an action",
            "If you have no card of the led suit you may play any card, and you take the action of the suit "
            "you played straight away, before the next player plays.",
            ruling="JV-5",
        ),
        Clause(
            "jv.rank",
            "Who wins a trick",
            "The highest card of the suit that was led wins the trick.",
            ruling="JV-5",
        ),
        Clause(
            "jv.rank.within",
            "Higher beats lower",
            "Between two cards of the led suit, the higher one places higher (remember: the Ace is lowest).",
        ),
        Clause(
            "jv.rank.offsuit",
            "Other suits never win",
            "A card that is not of the led suit can never win the trick, however high it is. In a ranking "
            "such cards come after all cards of the led suit, in the order they were played.",
        ),
        Clause(
            "jv.trick.action",
            "The winner's action",
            "The winner of a trick takes the action of the led suit once the trick is over, then keeps the "
            "cards face down to count them later.",
            ruling="JV-5",
        ),
        Clause(
            "jv.lead.next",
            "Next leader",
            "The winner of a trick leads the next one.",
            ruling="JV-5",
        ),
        Clause(
            "jv.action.diamond",
            "♦ action",
            "Move one jewel from the supply into your own vault.",
            ruling="JV-1",
        ),
        Clause(
            "jv.action.heart",
            "♥ action",
            "Move one jewel from the supply into your own showroom.",
            ruling="JV-1",
        ),
        Clause(
            "jv.action.spade",
            "♠ action",
            "Move one jewel from your own showroom into your own vault, where it is safe and counts double.",
            ruling="JV-1",
        ),
        Clause(
            "jv.action.club",
            "♣ action",
            "Take one jewel from another player's showroom and put it into your own showroom. You choose "
            "whom to take it from.",
            ruling="JV-1",
        ),
        Clause(
            "jv.action.none",
            "Impossible actions",
            "If an action cannot be done, nothing happens: ♦ and ♥ do nothing when the supply is empty, ♠ "
            "does nothing when your showroom is empty, and ♣ does nothing when every other showroom is empty.",
            ruling="JV-1",
        ),
        Clause(
            "jv.round-end.count",
            "Counting won cards",
            "After the last trick of a round, everyone counts the cards they won in each suit.",
        ),
        Clause(
            "jv.round-end.most",
            "Most of a suit",
            "Then, in the order ♦, ♥, ♠, ♣, the player with the most won cards of that suit takes that suit's action.",
            ruling="JV-6",
        ),
        Clause(
            "jv.round-end.tie",
            "A tie for most",
            "If two or more players share the most cards of a suit (or nobody won any), nobody takes that "
            "suit's action.",
            ruling="JV-6",
        ),
        Clause(
            "jv.round-end.no-trick",
            "No trick at all",
            "Last, every player who won no trick in the round takes two ♦ actions, going to the left from "
            "the dealer's left neighbour. That is worth 4 points.",
            ruling="JV-6",
        ),
        Clause(
            "jv.two-players",
            "Two players",
            "With two players each plays two cards to every trick: the leader, the other player, the leader "
            "again, then the other player. Every card after the first must follow the led suit if it can, "
            "every card that cannot follow earns its action, and the winner takes one action for the led "
            "suit. A trick has 4 cards, so with 10 cards each a round has 5 tricks (8 tricks with the "
            "known deck's 16 cards each).",
            ruling="JV-7",
        ),
        Clause(
            "jv.score",
            "Points",
            "After the last round everyone opens their vault. Each jewel in your vault scores 2 points and "
            "each jewel in your showroom 1 point.",
            ruling="JV-8",
        ),
        Clause("jv.win", "Winning", "The most points win.", ruling="JV-8"),
        Clause(
            "jv.win.tie",
            "Ties",
            "When players end level on points, the one among them holding more jewels in the vault is the "
            "winner. If their vaults hold the same number as well, they win together.",
            ruling="JV-8",
        ),
        Clause(
            "jv.vault.hidden",
            "Vaults stay secret",
            "Until the end of the game you never see how many jewels another player has in the vault. "
            "Showrooms, the supply and how many cards of each suit everyone won are open to all.",
            ruling="JV-8",
        ),
        Clause(
            "jv.partnerships",
            "Partnerships (variant)",
            "With 4 or 6 players you may play in pairs. Your partner is the player seated straight across "
            "the table from you, and the two of you keep your jewels together in a single vault and a single "
            "showroom, which starts with 3 jewels per partner. Off by default.",
            ruling="JV-9",
            option="partnerships",
        ),
        Clause(
            "jv.partnerships.pass",
            "Partnerships: passing",
            "In partnerships you pass your cards to your partner instead of to the left, without talking "
            "about which cards.",
            ruling="JV-9",
            option="partnerships",
        ),
        Clause(
            "jv.partnerships.count",
            "Partnerships: counting",
            "At the end of a round, both partners' won cards are counted together, suit by suit, to find "
            "who has the most. The two ♦ actions for taking no trick are still earned by each player alone: "
            "you get them when you took no trick, whatever your partner took.",
            ruling="JV-9",
            option="partnerships",
        ),
        Clause(
            "jv.partnerships.club",
            "Partnerships: stealing",
            "In partnerships a ♣ action takes a jewel only from the other side's showroom, never from your "
            "own partnership.",
            ruling="JV-9",
            option="partnerships",
        ),
        Clause(
            "jv.known-deck",
            "Known deck (variant)",
            "A variant in which no card is left out of the deal, so every card in play is known. Four "
            "players share out the whole deck, 13 cards apiece. Three players keep only the Aces up to the "
            "9s, 36 cards, 12 apiece. Two players keep only the Aces up to the 8s, 32 cards, 16 apiece. "
            "There is no known deck for 5 or 6 players. Off by default.",
            ruling="JV-9",
            option="known_deck",
        ),
        Clause("jv.over", "The end", "When the last round's actions are done, the game is over."),
        Clause(
            "jv.undo",
            "Taking a decision back",
            "In tricklab the last decision can be taken back (undo), together with everything the rules "
            "did by themselves after it; before the first decision there is nothing to take back.",
        ),
    ],
)
