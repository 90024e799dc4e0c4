"""Jewel Vault: tricks are worth nothing, the jewels they bring are worth everything.

2 to 6 players, an ordinary 52-card deck with the Ace low and no trumps. Every card
that cannot follow suit earns its suit's action at once; the winner of a trick takes
the action of the led suit; at the end of a round the player with the most cards of a
suit takes that suit's action, and every player who won no trick takes two ♦ actions.
Each action moves one jewel:

* ♦ supply → own vault, ♥ supply → own showroom,
* ♠ own showroom → own vault, ♣ another player's showroom → own showroom.

After the last round vault jewels count 2 points and showroom jewels 1.

Rulings where the source text is silent are in ``RULEBOOK`` (``ruling="JV-n"``); the
choices a teacher may change are options: ``rounds`` (JV-2), ``supply`` (JV-3),
``partnerships`` and ``known_deck`` (JV-9).

Ranking a trick (``resolve_trick``): the cards of the led suit come first, highest to
lowest (the first is the winner); then every card of another suit, in the order it was
played. Off-suit cards can never win, so their order among themselves means nothing
more than "played earlier".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, pairwise
from typing import Any, ClassVar, NamedTuple

from ..actions import Action, Announce, Pass, Play, Steal
from ..cards import FRENCH_SUITS, SUIT_NAME, SUIT_SINGULAR, SUIT_SYMBOL, Card, Deck, FrenchCard
from ..errors import InvalidOption, InvalidScoreInput, InvalidTrick, describe
from ..explain import Clause, Reason, Rulebook, plural
from .base import (
    CardLike,
    Event,
    EventKind,
    Log,
    MatchResult,
    Options,
    Rules,
    Score,
    ScoreLine,
    TieBreak,
    Trick,
    TrickOutcome,
    Word,
    check_choice,
    illegal,
    leaders,
    quote_action,
    quote_names,
)
from .capabilities import Capabilities, Example, Level, PanelKind, Quiz, Ref, led_suit

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


# --- value objects --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JewelVaultOptions(Options):
    """Rule options.

    ``partnerships`` (JV-9, 4 or 6 players), ``known_deck`` (JV-9, 2-4 players),
    ``rounds`` (JV-2; ``None`` = 4/6/4/5/6 rounds for 2/3/4/5/6 players) and
    ``supply`` (JV-3, 100 jewels).
    """

    partnerships: bool = False
    known_deck: bool = False
    rounds: int | None = None
    supply: int = DEFAULT_SUPPLY


@dataclass(frozen=True, slots=True)
class Jewels:
    """Where the jewels are: the shared supply, and per *side* a showroom and a vault.

    A side is one player, or one partnership in the partnership variant.
    """

    supply: int
    showrooms: tuple[int, ...]
    vaults: tuple[int, ...]

    @property
    def total(self) -> int:
        return self.supply + sum(self.showrooms) + sum(self.vaults)


@dataclass(frozen=True, slots=True)
class ActionResult:
    """A suit action as data: who took it and why, and what moved from where to where.

    ``source`` is ``"supply"`` or ``"showroom"`` and ``destination`` ``"vault"`` or
    ``"showroom"``; ``from_side`` is the side whose showroom gave the jewel (``None``
    for the supply) and ``to_side`` the side that received it. When ``done`` is false
    nothing moved and ``blocked`` says why: ``"supply-empty"``, ``"showroom-empty"`` or
    ``"no-target"`` (every showroom one could take from is empty). ``cause`` is
    ``"void"`` (could not follow), ``"trick"`` (won the trick), ``"most"`` (most cards
    of the suit at the end of the round) or ``"no-trick"`` (won no trick).
    """

    seat: int
    suit: str
    cause: Cause
    source: str
    destination: str
    from_side: int | None
    to_side: int
    done: bool
    blocked: Blocked | None
    text: str
    reasons: tuple[Reason, ...]
    after: Jewels


class DueAction(NamedTuple):
    """A suit action that is owed and not yet taken: ``seat`` takes ``suit`` because of ``cause``."""

    seat: int
    suit: str
    cause: Cause


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """The end-of-round actions in the order they happen, and why (ties included)."""

    actions: tuple[DueAction, ...]
    reasons: tuple[Reason, ...]


@dataclass(frozen=True, slots=True)
class JewelVaultState:
    """The whole state (the teacher's knowledge).

    ``passes[s]`` are the cards seat ``s`` chose to pass this round (``None`` until
    chosen); they leave the hand when chosen and reach the receiver when everyone has
    chosen. ``won_cards[s]`` are the cards seat ``s`` won this round. ``pending`` are
    the suit actions owed right now, the current one first; ``stage`` says where play
    goes on once they are done.
    """

    seed: int
    phase: Phase
    to_play: int | None
    round: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    aside: tuple[Card, ...]
    announced: int | None
    passes: tuple[tuple[Card, ...] | None, ...]
    exchanged: bool
    leader: int
    trick: tuple[Card, ...]
    tricks_played: int
    tricks_won: tuple[int, ...]
    won_cards: tuple[tuple[Card, ...], ...]
    jewels: Jewels
    pending: tuple[DueAction, ...]
    stage: Stage
    last_trick: Trick | None

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def seat_of(self, index: int) -> int:
        """The seat that plays card ``index`` of the current trick (works for two-player tricks too)."""
        return (self.leader + index) % len(self.hands)


@dataclass(frozen=True, slots=True)
class JewelVaultView:
    """What one seat may see (``seat is None``: the teacher, who sees everything).

    Hidden from a seat: other hands (``None``), other sides' vaults (``None`` until the
    game is over and the vaults are opened), and the cards others chose to pass.
    ``received`` is what the seat got in this round's pass, once the cards changed
    hands. Public: the supply, every showroom, tricks won and ``won_counts[seat]``
    (cards won this round per suit, in the order ♠ ♥ ♦ ♣).
    """

    seat: int | None
    phase: Phase
    to_play: int | None
    round: int
    rounds: int
    dealer: int
    partnerships: bool
    sides: tuple[int, ...]
    announced: int | None
    hands: tuple[tuple[Card, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    passed: tuple[bool, ...]
    passes: tuple[tuple[Card, ...] | None, ...]
    received: tuple[Card, ...] | None
    leader: int
    trick: tuple[Card, ...]
    trick_seats: tuple[int, ...]
    tricks_played: int
    tricks_won: tuple[int, ...]
    won_counts: tuple[tuple[int, ...], ...]
    supply: int
    showrooms: tuple[int, ...]
    vaults: tuple[int | None, ...]
    pending: tuple[DueAction, ...]
    last_trick: Trick | None
    scores: tuple[int, ...] | None

    @property
    def hand(self) -> tuple[Card, ...]:
        if self.seat is None:
            return ()
        own = self.hands[self.seat]
        return own if own is not None else ()

    @property
    def side(self) -> int | None:
        return None if self.seat is None else self.sides[self.seat]

    def won_count(self, seat: int, suit: str) -> int:
        return self.won_counts[seat][SUIT_INDEX[suit]]


# --- the rules ----------------------------------------------------------------------------------


# --- what the game offers ------------------------------------------------------------------------


def jv_led_suit(outcome: TrickOutcome) -> bool:
    """Quiz level 1: every card follows the led suit."""
    return all(card.suit == led_suit(outcome) for card in outcome.cards)


def jv_off_suit(outcome: TrickOutcome) -> bool:
    """Quiz level 2: a card that did not follow suit shows a higher number than the winner."""
    best = outcome.winning_card
    return any(card.suit != best.suit and card.rank > best.rank for card in outcome.cards)


CAPABILITIES = Capabilities(
    explainer_players=4,
    quiz=Quiz(
        (
            Level(
                1,
                "Follow the led suit",
                "Everyone follows the led suit: the highest card wins, and the Ace is the lowest card.",
                jv_led_suit,
                (1,),
            ),
            Level(
                2,
                "Other suits never win",
                "Someone could not follow suit. A card of another suit can never win, however high it is.",
                jv_off_suit,
                (2, 3, 4),
            ),
        )
    ),
    panels=(PanelKind.JEWELS, PanelKind.ACTIONS_OWED),
    bots=(("heuristic", Ref("tricklab.bots.jewel_vault:HeuristicBot")),),
    variants=("partnerships", "known_deck"),
    examples=(
        Example("play.ipynb", "", "players=4"),
        Example("play.ipynb", "partnerships", "players=4&partnerships=yes"),
        Example("quiz.ipynb", "", "players=4&seed=1"),
        Example("explain_trick.ipynb", "", "players=4&cards=9H,3H,5C,QH"),
        Example("replay.ipynb", "two players", "players=2&seed=7"),
    ),
)


class JewelVault(Rules[JewelVaultState]):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = TITLE
    aliases: ClassVar[tuple[str, ...]] = ("jv", "jewel_vault", "jewelvault")
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4, 5, 6)
    rulebook: ClassVar[Rulebook] = RULEBOOK
    options_type: ClassVar[type[Options]] = JewelVaultOptions
    capabilities: ClassVar[Capabilities] = CAPABILITIES
    options: JewelVaultOptions

    def __init__(self, players: int, options: Options) -> None:
        super().__init__(players, options)
        n = players
        partnerships = isinstance(options, JewelVaultOptions) and options.partnerships is True and n in (4, 6)
        half = n // 2
        self._sides = tuple(s % half for s in range(n)) if partnerships else tuple(range(n))
        self._n_sides = half if partnerships else n
        self._members = tuple(tuple(s for s in range(n) if self._sides[s] == side) for side in range(self._n_sides))
        # facts used on every step, computed once (the options are checked after construction)
        self._plays = {id(c): Play(c) for c in self._deck.cards}  # actions are immutable: share them
        known = isinstance(options, JewelVaultOptions) and options.known_deck is True
        self._trick_size = 4 if n == 2 else n
        self._cards_each = len(self._deck) // n if known else (8 if n == 6 else 10)
        self._tricks_per_round = self._cards_each * n // self._trick_size
        rounds = getattr(options, "rounds", None)
        plain = isinstance(rounds, int) and not isinstance(rounds, bool)
        self._rounds: int = rounds if isinstance(rounds, int) and plain else DEFAULT_ROUNDS.get(n, 1)

    def _check_options(self) -> None:
        o = self.options
        n = self.players
        check_choice(TITLE, "partnerships", o.partnerships, (False, True))
        check_choice(TITLE, "known_deck", o.known_deck, (False, True))
        if o.rounds is not None and (
            isinstance(o.rounds, bool) or not isinstance(o.rounds, int) or not 1 <= o.rounds <= MAX_ROUNDS
        ):
            raise InvalidOption(
                f"{TITLE}: rounds must be a whole number from 1 to {MAX_ROUNDS}, or None for the usual "
                f"number ({DEFAULT_ROUNDS[n]} with {n} players); not {describe(o.rounds)}",
                rule_id="jv.rounds",
            )
        least = START_SHOWROOM * n
        if isinstance(o.supply, bool) or not isinstance(o.supply, int) or o.supply < least:
            raise InvalidOption(
                f"{TITLE}: supply must be a whole number of jewels, at least {least} so that each of the {n} "
                f"players can start with {START_SHOWROOM} in the showroom; not {describe(o.supply)}",
                rule_id="jv.supply",
            )
        if o.partnerships and n not in (4, 6):
            raise InvalidOption(
                f"{TITLE}: partnerships need 4 or 6 players (partners sit opposite), not {n}",
                rule_id="jv.partnerships",
            )
        if o.known_deck and n not in KNOWN_DECK_TOP:
            raise InvalidOption(
                f"{TITLE}: the known-deck variant is defined for 2, 3 or 4 players, not {n}",
                rule_id="jv.known-deck",
            )

    def _build_deck(self) -> Deck:
        options = self.options
        top = 13
        if isinstance(options, JewelVaultOptions) and options.known_deck is True:
            top = KNOWN_DECK_TOP.get(self.players, 13)
        cards = tuple(FrenchCard(suit, rank) for suit in SUITS for rank in range(1, top + 1))
        return Deck(TITLE, FrenchCard, cards)

    # --- facts of this set-up --------------------------------------------------------------------

    @property
    def trick_size(self) -> int:
        """Cards in a full trick: one per player, or four with two players (JV-7)."""
        return self._trick_size

    @property
    def rounds(self) -> int:
        """How many rounds a game has (the ``rounds`` option, or the JV-2 default)."""
        return self._rounds

    @property
    def cards_each(self) -> int:
        """Cards dealt to each player: 10, 8 with 6 players, or all of the known deck."""
        return self._cards_each

    @property
    def tricks_per_round(self) -> int:
        return self._tricks_per_round

    @property
    def sides(self) -> tuple[int, ...]:
        """The side of each seat: the seat itself, or its partnership (seat mod players/2)."""
        return self._sides

    def side_of(self, seat: int) -> int:
        return self._sides[seat]

    def members(self, side: int) -> tuple[int, ...]:
        return self._members[side]

    def partner(self, seat: int) -> int | None:
        """The partner opposite, in the partnership variant; else ``None``."""
        if not self.options.partnerships:
            return None
        return (seat + self.players // 2) % self.players

    def receiver(self, seat: int) -> int:
        """Who gets the cards ``seat`` passes: the left neighbour, or the partner (JV-9)."""
        partner = self.partner(seat)
        return partner if partner is not None else (seat + 1) % self.players

    def side_name(self, side: int) -> str:
        members = self._members[side]
        if len(members) == 1:
            return self.seat_name(members[0])
        return " & ".join(self.seat_name(s) for s in members)

    def _owner(self, side: int) -> str:
        """Whose showroom or vault, for prose: ``"Player 2's"``, or ``"Player 1 & Player 3's shared"``."""
        members = self._members[side]
        if len(members) == 1:
            return f"{self.seat_name(members[0])}'s"
        return f"{self.side_name(side)}'s shared"

    # --- public rules API ------------------------------------------------------------------------

    def resolve_trick(self, cards: Iterable[CardLike] | str, **context: Any) -> TrickOutcome:
        """Rank a (possibly partial) trick: led-suit cards high to low (the first wins),
        then the off-suit cards in the order they were played. Jewel Vault has no trumps,
        so no context is taken."""
        if context:
            raise InvalidOption(
                f"{TITLE} has no trumps: resolve_trick takes only the cards, not {quote_names(context)}"
            )
        played = self._trick(cards)
        if not played:
            raise InvalidTrick("a trick needs at least one card to rank", rule_id="jv.trick")
        return TrickOutcome(NAME, played, _rank(played), _explain_trick)

    def legal_plays(
        self, hand: Iterable[CardLike] | str, trick: Iterable[CardLike] | str = (), **context: Any
    ) -> tuple[Card, ...]:
        """The cards of ``hand`` that may be played to ``trick``: the led suit if held, else any."""
        if context:
            raise InvalidOption(
                f"{TITLE} needs no context to find legal plays: legal_plays(hand, trick), not {quote_names(context)}"
            )
        cards, played = self._hand_and_trick(hand, trick)
        return _legal(cards, played)

    def final_score(self, *, vault: int, showroom: int) -> Score:
        """Points at the end of the game (JV-8): 2 per vault jewel, 1 per showroom jewel."""
        for label, value in (("vault", vault), ("showroom", showroom)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidScoreInput(
                    f"{label} is a number of jewels: a whole number, 0 or more, not {describe(value)}",
                    rule_id="jv.score",
                )
        if vault + showroom > self.options.supply:
            raise InvalidScoreInput(
                f"there are only {self.options.supply} jewels in the game, but vault {describe(vault)} and "
                f"showroom {describe(showroom)} make {describe(vault + showroom)}",
                rule_id="jv.supply",
            )
        return _final_score(vault, showroom)

    def suit_action(
        self,
        suit: str,
        *,
        seat: int,
        supply: int,
        showrooms: Sequence[int],
        vaults: Sequence[int] | None = None,
        target: int | None = None,
        cause: Cause | str = Cause.TRICK,
    ) -> ActionResult:
        """What one suit action does from the given jewels: what moved, or why nothing did.

        ``showrooms`` and ``vaults`` are per side (per seat unless partnerships). A ♣ action
        needs ``target`` (a seat) when more than one showroom could be robbed.
        """
        suit = _parse_suit(suit)
        self._check_seat(seat, "seat")
        if cause not in CAUSES:
            raise InvalidOption(f"cause must be one of {', '.join(CAUSES)}, not {describe(cause)}")
        cause = Cause(cause)
        jewels = Jewels(
            _count(supply, "supply"),
            self._per_side(showrooms, "showrooms"),
            self._per_side(vaults if vaults is not None else [0] * self._n_sides, "vaults"),
        )
        side = self._sides[seat]
        target_side: int | None = None
        if suit == "C":
            candidates = self._steal_sides(jewels, side)
            if target is not None:
                self._check_steal_target(jewels, seat, target)
                target_side = self._sides[target]
            elif len(candidates) > 1:
                raise illegal(
                    "jv.action.club",
                    "more than one showroom can be robbed: say whose with target=",
                )
            elif candidates:
                target_side = candidates[0]
        after, blocked = _move(jewels, side, suit, target_side)
        return self._result(seat, suit, cause, target_side, after, blocked, None)

    def round_end(self, won: Sequence[Mapping[str, int]], *, dealer: int | None = None) -> RoundEnd:
        """The end-of-round actions (JV-6) from the cards each seat won, counted per suit.

        ``won[seat]`` maps suits (``"D"`` or ``"♦"``...) to counts; a seat that won no card
        won no trick. The no-trick ♦ actions go to the left from the dealer's left
        neighbour; without ``dealer`` they start at seat 0.
        """
        n = self.players
        if not isinstance(won, Sequence) or isinstance(won, (str, bytes)) or len(won) != n:
            raise InvalidScoreInput(
                f"give the won cards of each of the {n} players, one mapping of suit to count each",
                rule_id="jv.round-end.count",
            )
        counts: list[tuple[int, ...]] = []
        for seat, per_suit in enumerate(won):
            if not isinstance(per_suit, Mapping):
                raise InvalidScoreInput(
                    f"{self.seat_name(seat)}: give a mapping like {{'D': 4, 'H': 1}}, not {describe(per_suit)}",
                    rule_id="jv.round-end.count",
                )
            row = [0, 0, 0, 0]
            for key, value in per_suit.items():
                suit = _parse_suit(key)
                row[SUIT_INDEX[suit]] = _count(value, f"{self.seat_name(seat)}'s {SUIT_NAME[suit].lower()}")
            counts.append(tuple(row))
        per_suit_total = len(self._deck) // 4
        for suit in SUITS:
            total = sum(row[SUIT_INDEX[suit]] for row in counts)
            if total > per_suit_total:
                raise InvalidScoreInput(
                    f"the deck has only {per_suit_total} {SUIT_NAME[suit].lower()}, "
                    f"but the counts add up to {describe(total)}",
                    rule_id="jv.round-end.count",
                )
        if dealer is None:
            dealer = n - 1
        else:
            self._check_seat(dealer, "dealer")
        tricks = tuple(1 if sum(row) else 0 for row in counts)
        actions, reasons = self._round_end_plan(tuple(counts), tricks, dealer)
        return RoundEnd(actions, reasons)

    # --- argument checks -------------------------------------------------------------------------

    def _check_seat(self, seat: object, what: str) -> None:
        n = self.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidOption(f"{what} must be a seat from 0 to {n - 1}, not {describe(seat)}")

    def _per_side(self, values: Sequence[int], what: str) -> tuple[int, ...]:
        if not isinstance(values, Sequence) or isinstance(values, (str, bytes)) or len(values) != self._n_sides:
            kind = "partnership" if self.options.partnerships else "player"
            raise InvalidScoreInput(f"{what} needs one number per {kind} ({self._n_sides}), not {describe(values)}")
        return tuple(_count(v, what) for v in values)

    # --- match engine ----------------------------------------------------------------------------

    def initial_state(
        self, seed: int, log: Log = None, first_dealer: int | None = None, **match_options: Any
    ) -> JewelVaultState:
        if match_options:
            raise InvalidOption(f"{TITLE} has no match option {quote_names(match_options)}; use first_dealer")
        n = self.players
        dealer = self.first_dealer(seed, first_dealer)
        showrooms = tuple(START_SHOWROOM * len(m) for m in self._members)
        jewels = Jewels(self.options.supply - sum(showrooms), showrooms, tuple(0 for _ in showrooms))
        state = JewelVaultState(
            seed=seed,
            phase=ANNOUNCE,
            to_play=None,
            round=0,
            dealer=dealer,
            hands=tuple(() for _ in range(n)),
            aside=(),
            announced=None,
            passes=tuple(None for _ in range(n)),
            exchanged=False,
            leader=(dealer + 1) % n,
            trick=(),
            tricks_played=0,
            tricks_won=tuple(0 for _ in range(n)),
            won_cards=tuple(() for _ in range(n)),
            jewels=jewels,
            pending=(),
            stage=IN_TRICK,
            last_trick=None,
        )
        return self._deal(state, 0, dealer, log)

    def _deal(self, state: JewelVaultState, round_index: int, dealer: int, log: Log) -> JewelVaultState:
        n = self.players
        each = self.cards_each
        deck = self._deck.cards  # already in hand order: by suit (♠ ♥ ♦ ♣), then rank
        order = list(range(len(deck)))
        self.deal_rng(state.seed, round_index).shuffle(order)  # the same permutation as shuffling the cards
        hands = tuple(tuple([deck[i] for i in sorted(order[k * each : (k + 1) * each])]) for k in range(n))
        aside = tuple([deck[i] for i in order[n * each :]])
        state = _evolve(
            state,
            phase=ANNOUNCE,
            to_play=dealer,
            round=round_index,
            dealer=dealer,
            hands=hands,
            aside=aside,
            announced=None,
            passes=tuple(None for _ in range(n)),
            exchanged=False,
            leader=(dealer + 1) % n,
            trick=(),
            tricks_played=0,
            tricks_won=tuple(0 for _ in range(n)),
            won_cards=tuple(() for _ in range(n)),
            pending=(),
            stage=IN_TRICK,
            last_trick=None,
        )
        if log is not None:
            aside_note = f" The other {plural(len(aside), 'card')} stay aside, unseen." if aside else ""
            reasons = [
                Reason("jv.deal", f"Everyone gets {plural(each, 'card')} this round.{aside_note}"),
                Reason(
                    "jv.rounds",
                    f"This is round {round_index + 1} of {self.rounds}; the deal moves one seat to the left "
                    "each round.",
                ),
            ]
            if self.options.known_deck:
                reasons.append(Reason("jv.known-deck", RULEBOOK["jv.known-deck"].text))
            start = ""
            if round_index == 0:
                start = (
                    f" Everyone starts with {START_SHOWROOM} jewels from the supply in their showroom; "
                    f"{plural(state.jewels.supply, 'jewel')} {'stays' if state.jewels.supply == 1 else 'stay'} "
                    "in the supply."
                )
                reasons.append(Reason("jv.start", RULEBOOK["jv.start"].text))
                reasons.append(Reason("jv.supply", RULEBOOK["jv.supply"].text))
                if self.options.partnerships:
                    reasons.append(Reason("jv.partnerships", RULEBOOK["jv.partnerships"].text))
            log.append(
                (
                    Event(
                        EventKind.DEAL,
                        dealer,
                        f"Round {round_index + 1} of {self.rounds}: {self.seat_name(dealer)} deals {each} cards "
                        f"each.{aside_note}{start}",
                        tuple(reasons),
                        {"round": round_index, "dealer": dealer, "jewels": state.jewels},
                    ),
                    state,
                )
            )
        return state

    def canonical_action(self, state: JewelVaultState, action: Action) -> Action:
        """Passed cards are listed in the order of the hand they leave (JV-4: a set, not a sequence)."""
        if isinstance(action, Pass) and state.to_play is not None:
            chosen = set(action.cards)
            in_hand_order = tuple(c for c in state.hands[state.to_play] if c in chosen)
            if in_hand_order != action.cards:
                return Pass(in_hand_order)
        return action

    def legal_actions(self, state: JewelVaultState) -> list[Action]:
        phase = state.phase
        if phase == PLAY:
            seat = state.to_play
            assert seat is not None
            plays = self._plays
            return [plays.get(id(c)) or Play(c) for c in _legal(state.hands[seat], state.trick)]
        if phase == STEAL:
            seat = state.to_play
            assert seat is not None
            return [Steal(side) for side in self._steal_sides(state.jewels, self._sides[seat])]
        if phase == PASS:
            seat = state.to_play
            assert seat is not None and state.announced is not None
            return list(_pass_options(state.hands[seat], state.announced))
        if phase == ANNOUNCE:
            return [Announce(k) for k in ANNOUNCE_CHOICES]
        return []

    def _apply(self, state: JewelVaultState, action: Action, log: Log) -> JewelVaultState:
        seat = state.to_play
        if seat is None:
            raise illegal("jv.over", "the game is over: no more actions can be taken")
        phase = state.phase
        if phase == PLAY:
            if not isinstance(action, Play):
                raise illegal("jv.trick", f"{self.seat_name(seat)} must play a card now, not {quote_action(action)}")
            return self._play(state, seat, action.card, log)
        if phase == STEAL:
            if not isinstance(action, Steal):
                raise illegal(
                    "jv.action.club",
                    f"{self.seat_name(seat)} must first choose whose showroom to take a jewel from "
                    f"({self._steal_choices(state.jewels, seat)}), not {quote_action(action)}",
                )
            return self._steal(state, seat, action.target, log)
        if phase == PASS:
            if not isinstance(action, Pass):
                raise illegal(
                    "jv.pass",
                    f"{self.seat_name(seat)} must choose {plural(state.announced or 0, 'card')} to pass now, "
                    f"not {quote_action(action)}",
                )
            return self._pass(state, seat, action.cards, log)
        if not isinstance(action, Announce):
            raise illegal(
                "jv.announce",
                f"{self.seat_name(seat)} is the dealer and must first say how many cards everyone passes "
                f"(1, 2 or 3), not {quote_action(action)}",
            )
        return self._announce(state, seat, action.n, log)

    # announce and pass ---------------------------------------------------------------------------

    def _announce(self, state: JewelVaultState, seat: int, k: int, log: Log) -> JewelVaultState:
        if isinstance(k, bool) or k not in ANNOUNCE_CHOICES:
            raise illegal("jv.announce", f"the dealer names 1, 2 or 3 cards to pass, not {describe(k)}")
        first = (state.dealer + 1) % self.players
        new = _evolve(state, announced=k, phase=PASS, to_play=first)
        if log is not None:
            to = "their partner" if self.options.partnerships else "the left"
            log.append(
                (
                    Event(
                        EventKind.ANNOUNCE,
                        seat,
                        f"{self.seat_name(seat)} (the dealer) announces: everyone passes {plural(k, 'card')} to {to}.",
                        (Reason("jv.announce", RULEBOOK["jv.announce"].text),),
                        {"n": k},
                    ),
                    new,
                )
            )
        return new

    def _pass(self, state: JewelVaultState, seat: int, cards: tuple[Card, ...], log: Log) -> JewelVaultState:
        k = state.announced
        assert k is not None
        name = self.seat_name(seat)
        hand = state.hands[seat]
        if len(cards) != k:
            raise illegal(
                "jv.pass",
                f"{name} must pass exactly {plural(k, 'card')} (the dealer announced {k}), not {len(cards)}",
            )
        if len(set(cards)) != len(cards):
            twice = next(c for c in cards if cards.count(c) > 1)
            raise illegal("jv.pass", f"{twice.pretty} is named twice: pass {k} different cards")
        for card in cards:
            if card not in hand:
                raise illegal("jv.hand", f"{name} cannot pass {card.pretty}: it is not in {name}'s hand")
        chosen = _sort_hand(cards)
        new_hand = tuple(c for c in hand if c not in chosen)
        hands = state.hands[:seat] + (new_hand,) + state.hands[seat + 1 :]
        passes = state.passes[:seat] + (chosen,) + state.passes[seat + 1 :]
        n = self.players
        nxt = (seat + 1) % n
        rule = "jv.partnerships.pass" if self.options.partnerships else "jv.pass"
        event = (
            Event(
                EventKind.PASS,
                seat,
                f"{name} secretly chooses {plural(k, 'card')} to pass.",
                (Reason(rule, RULEBOOK[rule].text), Reason("jv.pass.secret", RULEBOOK["jv.pass.secret"].text)),
                {"cards": chosen},
            )
            if log is not None
            else None
        )
        if nxt != (state.dealer + 1) % n:
            new = _evolve(state, hands=hands, passes=passes, to_play=nxt)
            if log is not None and event is not None:
                log.append((event, new))
            return new
        received: list[tuple[Card, ...]] = [hands[s] for s in range(n)]
        for giver in range(n):
            given = passes[giver]
            assert given is not None
            r = self.receiver(giver)
            received[r] = _sort_hand(received[r] + given)
        leader = (state.dealer + 1) % n
        new = _evolve(
            state,
            hands=tuple(received),
            passes=passes,
            exchanged=True,
            phase=PLAY,
            leader=leader,
            to_play=leader,
        )
        if log is not None and event is not None:
            log.append((event, _evolve(state, hands=hands, passes=passes, to_play=None)))
            to = "their partner" if self.options.partnerships else "the left"
            log.append(
                (
                    Event(
                        EventKind.EXCHANGE,
                        None,
                        f"All the chosen cards are passed at the same moment, each to {to}. "
                        f"{self.seat_name(leader)}, left of the dealer, leads the first trick.",
                        (
                            Reason("jv.pass.secret", RULEBOOK["jv.pass.secret"].text),
                            Reason("jv.lead.first", RULEBOOK["jv.lead.first"].text),
                        ),
                        {"receivers": tuple(self.receiver(s) for s in range(n))},
                    ),
                    new,
                )
            )
        return new

    # trick play ----------------------------------------------------------------------------------

    def _play(self, state: JewelVaultState, seat: int, card: Card, log: Log) -> JewelVaultState:
        hand = state.hands[seat]
        at = _find(hand, card)
        if at < 0:
            raise illegal("jv.hand", f"{self.seat_name(seat)} does not hold {card.pretty}")
        trick = state.trick
        void = False
        if trick:
            led = trick[0].suit
            if card.suit != led:
                for held in hand:
                    if held.suit == led:
                        raise illegal(
                            "jv.follow",
                            f"must follow suit: {SUIT_SYMBOL[led]} was led and {self.seat_name(seat)} holds "
                            f"{held.pretty}",
                        )
                void = True
        hands = state.hands[:seat] + (hand[:at] + hand[at + 1 :],) + state.hands[seat + 1 :]
        trick = trick + (hand[at],)
        if not void and len(trick) < self._trick_size:  # the common case: nothing owed, the next player plays
            new = _evolve(state, hands=hands, trick=trick, stage=IN_TRICK, to_play=state.seat_of(len(trick)))
            if log is not None:
                log.append((self._play_event(seat, card, trick, void), new))
            return new
        pending = (DueAction(seat, card.suit, VOID),) if void else ()
        new = _evolve(state, hands=hands, trick=trick, pending=pending, stage=IN_TRICK, to_play=None)
        if log is not None:
            log.append((self._play_event(seat, card, trick, void), new))
        return self._advance(new, log)

    def _play_event(self, seat: int, card: Card, trick: tuple[Card, ...], void: bool) -> Event:
        name = self.seat_name(seat)
        reasons: list[Reason] = []
        if len(trick) == 1:
            text = f"{name} leads {card.pretty}."
        else:
            led = trick[0].suit
            if void:
                text = (
                    f"{name} has no {SUIT_NAME[led].lower()} and plays {card.pretty}, which earns a "
                    f"{SUIT_SYMBOL[card.suit]} action at once."
                )
                reasons.append(
                    Reason(
                        "jv.follow.void",
                        f"{name} cannot follow {SUIT_SYMBOL[led]}, so any card may be played, and the "
                        f"{SUIT_SYMBOL[card.suit]} action is taken straight away.",
                        (card,),
                    )
                )
            else:
                text = f"{name} follows with {card.pretty}."
                reasons.append(
                    Reason("jv.follow", f"{SUIT_SYMBOL[led]} was led and {card.pretty} follows suit.", (card,))
                )
            best = trick[_rank(trick)[0]]
            text += f" {best.pretty} is winning so far."
        if self.players == 2 and len(trick) == 3:
            reasons.append(Reason("jv.two-players", "With two players the leader plays a second card to the trick."))
        return Event(EventKind.PLAY, seat, text, tuple(reasons), {"card": card})

    def _steal(self, state: JewelVaultState, seat: int, target: int, log: Log) -> JewelVaultState:
        self._check_steal_target(state.jewels, seat, target)
        return self._advance(state, log, chosen=self._sides[target])

    def _check_steal_target(self, jewels: Jewels, seat: int, target: object) -> None:
        n = self.players
        name = self.seat_name(seat)
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < n:
            raise illegal(
                "jv.action.club",
                f"there is no seat {describe(target)} to take a jewel from: a ♣ target is a seat number from "
                f"0 ({self.seat_name(0)}) to {n - 1} ({self.seat_name(n - 1)})",
            )
        if target == seat:
            raise illegal("jv.action.club", f"{name} cannot take a jewel from their own showroom with ♣")
        side = self._sides[target]
        if side == self._sides[seat]:
            raise illegal(
                "jv.partnerships.club",
                f"{self.seat_name(target)} is {name}'s partner and shares the same showroom: "
                "take a jewel from the other side",
            )
        if jewels.showrooms[side] == 0:
            raise illegal(
                "jv.action.club",
                f"{self._owner(side)} showroom is empty: there is nothing to take; choose a showroom with jewels",
            )

    def _steal_choices(self, jewels: Jewels, seat: int) -> str:
        """The ♣ targets open to ``seat`` as a learner reads them: ``"Player 2's showroom, 'steal 1'; ..."``.

        A target is a seat number counted from 0 in the action's text (``steal 1`` is Player 2's
        showroom); the sentence names each showroom's owner the way the learner sees seats.
        """
        sides = self._steal_sides(jewels, self._sides[seat])
        return "; ".join(f"{self._owner(side)} showroom: {quote_action(Steal(side))}" for side in sides)

    def _steal_sides(self, jewels: Jewels, side: int) -> list[int]:
        """The sides a ♣ action of ``side`` could take from: others with a jewel in the showroom."""
        showrooms = jewels.showrooms
        return [other for other in range(self._n_sides) if other != side and showrooms[other]]

    # the flow between decisions -------------------------------------------------------------------

    def _advance(self, state: JewelVaultState, log: Log, chosen: int | None = None) -> JewelVaultState:
        """Take the owed actions (stopping for a real ♣ choice), then move play on.

        ``chosen`` is the side a player just chose to rob, for the first owed ♣ action.
        Without a log, the jewels and the owed actions are carried along as local values
        and one new state is built at the end.
        """
        jewels, pending = state.jewels, state.pending
        while True:
            while pending:
                due = pending[0]
                side = self._sides[due.seat]
                target: int | None = None
                if due.suit == "C":
                    if chosen is not None:
                        target, chosen = chosen, None
                    else:
                        candidates = self._steal_sides(jewels, side)
                        if len(candidates) > 1:
                            return _evolve(state, jewels=jewels, pending=pending, phase=STEAL, to_play=due.seat)
                        target = candidates[0] if candidates else None
                after, blocked = _move(jewels, side, due.suit, target)
                pending = pending[1:]
                if log is not None:
                    self._log_action(state, due, target, after, blocked, pending, log)
                jewels = after
            stage = state.stage
            if stage == IN_TRICK:
                if len(state.trick) < self._trick_size:
                    to_play = state.seat_of(len(state.trick))
                    return _evolve(state, jewels=jewels, pending=(), phase=PLAY, to_play=to_play)
                state = self._finish_trick(state, jewels, log)
            elif stage == AFTER_TRICK:
                if state.tricks_played < self._tricks_per_round:
                    assert state.last_trick is not None
                    winner = state.last_trick.winner
                    return _evolve(state, jewels=jewels, pending=(), phase=PLAY, leader=winner, to_play=winner)
                state = self._start_round_end(state, jewels, log)
            elif state.round + 1 < self._rounds:
                ended = _evolve(state, jewels=jewels, pending=())
                return self._deal(ended, state.round + 1, (state.dealer + 1) % self.players, log)
            else:
                return self._finish(state, jewels, log)
            jewels, pending = state.jewels, state.pending

    def _finish_trick(self, state: JewelVaultState, jewels: Jewels, log: Log) -> JewelVaultState:
        trick = state.trick
        ranking = _rank(trick)
        n = self.players
        last = Trick.ranked(state.leader, trick, ranking, n, places=False)
        seats, winner = last.seats, last.winner
        led = trick[0].suit
        tricks_won = state.tricks_won[:winner] + (state.tricks_won[winner] + 1,) + state.tricks_won[winner + 1 :]
        won_cards = state.won_cards[:winner] + (state.won_cards[winner] + trick,) + state.won_cards[winner + 1 :]
        new = _evolve(
            state,
            phase=PLAY,
            to_play=None,
            jewels=jewels,
            trick=(),
            tricks_played=state.tricks_played + 1,
            tricks_won=tricks_won,
            won_cards=won_cards,
            last_trick=last,
            pending=(DueAction(winner, led, TRICK),),
            stage=AFTER_TRICK,
        )
        if log is not None:
            outcome = TrickOutcome(NAME, trick, ranking, _explain_trick)
            more = state.tricks_played + 1 < self.tricks_per_round
            then = f" {self.seat_name(winner)} will lead the next trick." if more else ""
            reasons = outcome.reasons
            if more:
                reasons = reasons + (Reason("jv.lead.next", RULEBOOK["jv.lead.next"].text),)
            log.append(
                (
                    Event(
                        EventKind.TRICK,
                        winner,
                        f"{self.seat_name(winner)} wins trick {state.tricks_played + 1} with "
                        f"{trick[ranking[0]].pretty} and takes a {SUIT_SYMBOL[led]} action.{then}",
                        reasons,
                        {"trick": last, "cards": trick, "seats": seats, "ranking": ranking, "leader": state.leader},
                    ),
                    new,
                )
            )
        return new

    def _counts(self, state: JewelVaultState) -> tuple[tuple[int, ...], ...]:
        rows = []
        for cards in state.won_cards:
            row = [0, 0, 0, 0]
            for card in cards:
                row[SUIT_INDEX[card.suit]] += 1
            rows.append(tuple(row))
        return tuple(rows)

    def _start_round_end(self, state: JewelVaultState, jewels: Jewels, log: Log) -> JewelVaultState:
        counts = self._counts(state)
        actions, reasons = self._round_end_plan(counts, state.tricks_won, state.dealer)
        new = _evolve(state, phase=PLAY, to_play=None, jewels=jewels, pending=actions, stage=ROUND_END)
        if log is not None:
            shown = "; ".join(
                f"{self.seat_name(s)} "
                + " ".join(f"{counts[s][SUIT_INDEX[x]]}{SUIT_SYMBOL[x]}" for x in ROUND_END_ORDER)
                for s in range(self.players)
            )
            log.append(
                (
                    Event(
                        EventKind.ROUND_END,
                        None,
                        f"End of round {state.round + 1}. Won cards: {shown}.",
                        (Reason("jv.round-end.count", RULEBOOK["jv.round-end.count"].text), *reasons),
                        {"counts": counts, "actions": actions},
                    ),
                    new,
                )
            )
        return new

    def _round_end_plan(
        self, counts: tuple[tuple[int, ...], ...], tricks_won: tuple[int, ...], dealer: int
    ) -> tuple[tuple[DueAction, ...], tuple[Reason, ...]]:
        n = self.players
        order = [(dealer + 1 + i) % n for i in range(n)]
        partnerships = self._n_sides != n
        actions: list[DueAction] = []
        reasons: list[Reason] = []
        if partnerships:
            reasons.append(Reason("jv.partnerships.count", RULEBOOK["jv.partnerships.count"].text))
        for suit in ROUND_END_ORDER:
            k = SUIT_INDEX[suit]
            per_side = [sum(counts[s][k] for s in members) for members in self._members]
            best = max(per_side)
            top = [side for side, c in enumerate(per_side) if c == best]
            sym = SUIT_SYMBOL[suit]
            if best == 0:
                reasons.append(Reason("jv.round-end.tie", f"Nobody won a {sym} card: nobody takes the {sym} action."))
                continue
            if len(top) > 1:
                names = " and ".join(self.side_name(side) for side in top)
                reasons.append(
                    Reason(
                        "jv.round-end.tie",
                        f"{names} tie with {best} {sym} each: nobody takes the {sym} action.",
                    )
                )
                continue
            side = top[0]
            members = [s for s in order if self._sides[s] == side]
            actor = max(members, key=lambda s: counts[s][k])  # first in turn order on equal counts
            actions.append(DueAction(actor, suit, MOST))
            reasons.append(
                Reason(
                    "jv.round-end.most",
                    f"{self.side_name(side)} won the most {sym} ({best}), so {self.seat_name(actor)} takes a "
                    f"{sym} action.",
                )
            )
        for seat in order:
            if tricks_won[seat] == 0:
                actions.extend([DueAction(seat, "D", NO_TRICK)] * NO_TRICK_ACTIONS)
                reasons.append(
                    Reason(
                        "jv.round-end.no-trick",
                        f"{self.seat_name(seat)} won no trick this round and takes two ♦ actions.",
                    )
                )
        return tuple(actions), tuple(reasons)

    # taking an action ------------------------------------------------------------------------------

    def _log_action(
        self,
        state: JewelVaultState,
        due: DueAction,
        target_side: int | None,
        after: Jewels,
        blocked: Blocked | None,
        pending: tuple[DueAction, ...],
        log: list[tuple[Event, Any]],
    ) -> None:
        shown = _evolve(
            state, jewels=after, pending=pending, phase=PLAY if state.phase == STEAL else state.phase, to_play=None
        )
        result = self._result(due.seat, due.suit, due.cause, target_side, after, blocked, state)
        log.append((Event(EventKind.ACTION, due.seat, result.text, result.reasons, {"result": result}), shown))

    def _result(
        self,
        seat: int,
        suit: str,
        cause: Cause,
        target_side: int | None,
        after: Jewels,
        blocked: Blocked | None,
        state: JewelVaultState | None,
    ) -> ActionResult:
        side = self._sides[seat]
        source, destination = ACTION_PATH[suit]
        from_side = target_side if suit == "C" else (side if suit == "S" else None)
        name = self.seat_name(seat)
        sym = SUIT_SYMBOL[suit]
        reasons = [self._cause_reason(seat, suit, cause, state)]
        own = "their partnership's" if len(self._members[side]) > 1 else "their own"
        if blocked is None:
            if suit == "C":
                assert target_side is not None
                text = (
                    f"{name} takes a {sym} action: one jewel from {self._owner(target_side)} showroom "
                    f"into {own} showroom."
                )
                reason_text = f"A ♣ action takes a jewel from {self._owner(target_side)} showroom."
                if self.options.partnerships:
                    reasons.append(Reason("jv.partnerships.club", RULEBOOK["jv.partnerships.club"].text))
            else:
                where = "the supply" if source == "supply" else f"{own} showroom"
                text = f"{name} takes a {sym} action: one jewel from {where} into {own} {destination}."
                reason_text = RULEBOOK[ACTION_RULE[suit]].text
            reasons.append(Reason(ACTION_RULE[suit], reason_text))
        else:
            why = {
                SUPPLY_EMPTY: "the supply is empty",
                SHOWROOM_EMPTY: f"{own} showroom is empty",
                NO_TARGET: "every showroom they could take from is empty",
            }[blocked]
            text = f"{name} would take a {sym} action, but {why}, so nothing happens."
            reasons.append(Reason("jv.action.none", f"The {sym} action cannot be done: {why}."))
        return ActionResult(
            seat=seat,
            suit=suit,
            cause=cause,
            source=source,
            destination=destination,
            from_side=from_side if blocked is None else None,
            to_side=side,
            done=blocked is None,
            blocked=blocked,
            text=text,
            reasons=tuple(reasons),
            after=after,
        )

    def _cause_reason(self, seat: int, suit: str, cause: Cause, state: JewelVaultState | None) -> Reason:
        name = self.seat_name(seat)
        sym = SUIT_SYMBOL[suit]
        if cause == VOID:
            card = state.trick[-1] if state is not None and state.trick else None
            played = f" and played {card.pretty}" if card is not None else f" and played a {SUIT_SINGULAR[suit]}"
            return Reason("jv.follow.void", f"{name} could not follow suit{played}: a {sym} action at once.")
        if cause == TRICK:
            return Reason("jv.trick.action", f"{name} won the trick, and {sym} was led: a {sym} action.")
        if cause == MOST:
            side = self._sides[seat]
            count = ""
            if state is not None:
                total = sum(1 for s in self._members[side] for c in state.won_cards[s] if c.suit == suit)
                count = f" ({total})"
            who = f"{name} has" if len(self._members[side]) == 1 else f"{self.side_name(side)} have"
            return Reason(
                "jv.round-end.most",
                f"{who} the most {sym} cards at the end of the round{count}: a {sym} action for {name}.",
            )
        return Reason("jv.round-end.no-trick", f"{name} won no trick this round: two ♦ actions, this is one of them.")

    # end ------------------------------------------------------------------------------------------

    def _finish(self, state: JewelVaultState, jewels: Jewels, log: Log) -> JewelVaultState:
        over = _evolve(state, phase=OVER, to_play=None, jewels=jewels, pending=())
        if log is not None:
            result = self.result(over)
            assert result is not None
            log.append(
                (
                    Event(
                        EventKind.END,
                        None,
                        result.reasons[-1].text,
                        result.reasons,
                        {"winners": result.winners, "totals": result.totals},
                    ),
                    over,
                )
            )
        return over

    def side_points(self, state: JewelVaultState) -> tuple[int, ...]:
        """Points of each side from the jewels as they are now (JV-8)."""
        j = state.jewels
        return tuple(VAULT_POINTS * v + SHOWROOM_POINTS * s for v, s in zip(j.vaults, j.showrooms, strict=True))

    def result(self, state: JewelVaultState) -> MatchResult | None:
        if state.phase != OVER:
            return None
        j = state.jewels
        points = self.side_points(state)
        reasons: list[Reason] = [
            Reason(
                "jv.score",
                f"{self.side_name(side)}: {plural(j.vaults[side], 'jewel')} in the vault (2 points each) and "
                f"{plural(j.showrooms[side], 'jewel')} in the showroom (1 point each) make "
                f"{plural(points[side], 'point')}.",
            )
            for side in range(self._n_sides)
        ]
        totals = tuple(points[self._sides[s]] for s in range(self.players))
        tied = leaders(points)
        best = points[tied[0]]

        def seats(sides: list[int]) -> tuple[int, ...]:
            return tuple(s for s in range(self.players) if self._sides[s] in sides)

        names = " and ".join(self.side_name(side) for side in tied)
        if len(tied) == 1:
            verb = "win" if len(self._members[tied[0]]) > 1 else "wins"
            reasons.append(Reason("jv.win", f"{names} {verb} with {plural(best, 'point')}."))
            return MatchResult(totals, seats(tied), None, tuple(reasons))
        still = leaders(j.vaults, tied)
        most = j.vaults[still[0]]
        if len(still) == 1:
            reasons.append(
                Reason(
                    "jv.win.tie",
                    f"{names} tie on {plural(best, 'point')}; {self.side_name(still[0])} won with more jewels in "
                    f"the vault ({most}).",
                )
            )
            return MatchResult(totals, seats(still), TieBreak.VAULT, tuple(reasons))
        sharing = " and ".join(self.side_name(side) for side in still)
        reasons.append(
            Reason(
                "jv.win.tie",
                f"{sharing} tie on {plural(best, 'point')} and on {plural(most, 'jewel')} in the vault: "
                "they share the victory.",
            )
        )
        return MatchResult(totals, seats(still), TieBreak.SHARED, tuple(reasons))

    def view(self, state: JewelVaultState, seat: int | None) -> JewelVaultView:
        n = self.players
        self.check_view_seat(seat)
        over = state.phase == OVER
        own_side = None if seat is None else self._sides[seat]
        received: tuple[Card, ...] | None = None
        if seat is not None and state.exchanged:
            giver = next(g for g in range(n) if self.receiver(g) == seat)
            received = state.passes[giver]
        trick_seats = tuple(state.seat_of(i) for i in range(len(state.trick)))
        return JewelVaultView(
            seat=seat,
            phase=state.phase,
            to_play=state.to_play,
            round=state.round,
            rounds=self.rounds,
            dealer=state.dealer,
            partnerships=self.options.partnerships,
            sides=self._sides,
            announced=state.announced,
            hands=tuple(h if seat is None or s == seat else None for s, h in enumerate(state.hands)),
            hand_sizes=tuple(len(h) for h in state.hands),
            passed=tuple(p is not None for p in state.passes),
            passes=tuple(p if seat is None or s == seat else None for s, p in enumerate(state.passes)),
            received=received,
            leader=state.leader,
            trick=state.trick,
            trick_seats=trick_seats,
            tricks_played=state.tricks_played,
            tricks_won=state.tricks_won,
            won_counts=self._counts(state),
            supply=state.jewels.supply,
            showrooms=state.jewels.showrooms,
            vaults=tuple(
                v if over or seat is None or side == own_side else None for side, v in enumerate(state.jewels.vaults)
            ),
            pending=state.pending,
            last_trick=state.last_trick,
            scores=tuple(self.side_points(state)[self._sides[s]] for s in range(n)) if over else None,
        )


# --- pure rule functions ------------------------------------------------------------------------


_STATE_FIELDS: tuple[str, ...] = tuple(JewelVaultState.__dataclass_fields__)
_FIELD_SET = frozenset(_STATE_FIELDS)
_set = object.__setattr__


def _evolve(state: JewelVaultState, **changes: Any) -> JewelVaultState:
    """``dataclasses.replace`` for states, without its per-call checks (it is the engine's hot path)."""
    if not _FIELD_SET.issuperset(changes):
        raise TypeError(f"JewelVaultState has no field {sorted(set(changes) - _FIELD_SET)}")
    new = object.__new__(JewelVaultState)
    for name in _STATE_FIELDS:
        _set(new, name, changes[name] if name in changes else getattr(state, name))
    return new


def _sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: (SUIT_INDEX[c.suit], c.rank)))


def _rank(trick: tuple[Card, ...]) -> tuple[int, ...]:
    """Led-suit cards high to low, then the off-suit cards in play order."""
    led = trick[0].suit
    follow = [i for i, c in enumerate(trick) if c.suit == led]
    follow.sort(key=lambda i: -trick[i].rank)
    return (*follow, *(i for i, c in enumerate(trick) if c.suit != led))


def _legal(hand: tuple[Card, ...], trick: tuple[Card, ...]) -> tuple[Card, ...]:
    if not trick:
        return hand
    led = trick[0].suit
    follow = tuple(c for c in hand if c.suit == led)
    return follow or hand


@lru_cache(maxsize=256)
def _pass_options(hand: tuple[Card, ...], k: int) -> tuple[Pass, ...]:
    return tuple(map(Pass, combinations(hand, k)))


def _find(hand: tuple[Card, ...], card: Card) -> int:
    """The position of ``card`` in ``hand`` (-1 if absent): identity first, the usual case
    for the deck's own card objects, then equality."""
    for i, held in enumerate(hand):
        if held is card:
            return i
    for i, held in enumerate(hand):
        if held == card:
            return i
    return -1


def _move(jewels: Jewels, side: int, suit: str, target_side: int | None) -> tuple[Jewels, Blocked | None]:
    """One suit action's effect on the jewels, or why it cannot be done (JV-1)."""
    supply, showrooms, vaults = jewels.supply, jewels.showrooms, jewels.vaults
    if suit == "D":
        if supply == 0:
            return jewels, SUPPLY_EMPTY
        vaults = vaults[:side] + (vaults[side] + 1,) + vaults[side + 1 :]
        return Jewels(supply - 1, showrooms, vaults), None
    if suit == "H":
        if supply == 0:
            return jewels, SUPPLY_EMPTY
        showrooms = showrooms[:side] + (showrooms[side] + 1,) + showrooms[side + 1 :]
        return Jewels(supply - 1, showrooms, vaults), None
    if suit == "S":
        if showrooms[side] == 0:
            return jewels, SHOWROOM_EMPTY
        showrooms = showrooms[:side] + (showrooms[side] - 1,) + showrooms[side + 1 :]
        vaults = vaults[:side] + (vaults[side] + 1,) + vaults[side + 1 :]
        return Jewels(supply, showrooms, vaults), None
    if target_side is None:
        return jewels, NO_TARGET
    rooms = list(showrooms)
    rooms[target_side] -= 1
    rooms[side] += 1
    return Jewels(supply, tuple(rooms), vaults), None


def _final_score(vault: int, showroom: int) -> Score:
    vault_points = VAULT_POINTS * vault
    lines = (
        ScoreLine("vault", "vault jewels, 2 points each", vault_points, "", f"{plural(vault, 'jewel')} in the vault"),
        ScoreLine(
            "showroom",
            "showroom jewels, 1 point each",
            SHOWROOM_POINTS * showroom,
            "",
            f"{plural(showroom, 'jewel')} on show",
        ),
    )
    total = vault_points + SHOWROOM_POINTS * showroom
    reasons = (
        Reason(
            "jv.score",
            f"Vault: {plural(vault, 'jewel')} at 2 points each = {plural(vault_points, 'point')}; "
            f"showroom: {plural(showroom, 'jewel')} at 1 point each = {plural(showroom, 'point')}; "
            f"{plural(total, 'point')} in all.",
        ),
    )
    return Score(total, lines, reasons)


def _count(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidScoreInput(f"{what} must be a whole number, 0 or more, not {describe(value)}")
    return value


def _parse_suit(suit: object) -> str:
    if isinstance(suit, str):
        text = suit.strip()
        for s in SUITS:
            if text.upper() == s or text == SUIT_SYMBOL[s] or text.lower() == SUIT_NAME[s].lower():
                return s
    raise InvalidOption(f"a suit is one of S, H, D, C (or ♠ ♥ ♦ ♣), not {describe(suit)}")


def _explain_trick(outcome: TrickOutcome) -> tuple[Reason, ...]:
    cards = outcome.cards
    led = cards[0].suit
    sym = SUIT_SYMBOL[led]
    led_name = SUIT_NAME[led].lower()
    reasons = [
        Reason(
            "jv.rank",
            f"{cards[0].pretty} was led, so {led_name} {sym} is the led suit: the highest {SUIT_SINGULAR[led]} wins. "
            "There are no trumps, and a card of any other suit can never win.",
            (cards[0],),
        )
    ]
    ranking = outcome.ranking
    follow = [i for i in ranking if cards[i].suit == led]
    off = [i for i in ranking if cards[i].suit != led]
    if len(follow) == 1 and not off:
        reasons.append(Reason("jv.trick", f"Only {cards[0].pretty} has been played, so it is winning for now."))
        return tuple(reasons)
    for a, b in pairwise(follow):
        hi, lo = cards[a], cards[b]
        ace = " (the Ace is the lowest card)" if lo.rank == 1 else ""
        reasons.append(
            Reason(
                "jv.rank.within",
                f"{hi.pretty} beats {lo.pretty}: both are {led_name}, and {_rank_word(hi)} is higher than "
                f"{_rank_word(lo)}{ace}.",
                (hi, lo),
            )
        )
    for i in off:
        card = cards[i]
        reasons.append(
            Reason(
                "jv.rank.offsuit",
                f"{card.pretty} is not a {SUIT_SINGULAR[led]}, so it cannot win, however high it is; it ranks "
                "after the led suit, in the order it was played.",
                (card,),
            )
        )
    return tuple(reasons)


def _rank_word(card: Card) -> str:
    return {1: "an Ace", 8: "an 8", 11: "a Jack", 12: "a Queen", 13: "a King"}.get(card.rank, f"a {card.rank}")
