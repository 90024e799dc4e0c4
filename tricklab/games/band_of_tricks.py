"""Band of Tricks: bid how many tricks you will win in each suit, then win exactly those.

3 to 5 players, 40 cards in four suits: Rock R7-R15, Soul S4-S14, Pops P1-P13 and
Metal M10-M16. Who wins a trick depends on how many different suits it holds: one suit,
the highest number; two suits, rock-paper-scissors (Rock beats Soul, Soul beats Pops,
Pops beats Rock, and Metal loses to all three); three or more suits, the highest number
whatever its suit, the later card winning on equal numbers. Every player bids a number of
wins for Rock, Soul and Pops (or Zero Success) and scores per suit for hitting it.

The rulings BT-1 to BT-8 of the project's rules notes are cited by the clauses of
``RULEBOOK``. One choice is the project's own: how long extra deals go on when the
totals stay tied (see :class:`BandOfTricksOptions`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from itertools import product
from typing import Any, ClassVar

from ..actions import BID_SUITS, Action, AssignMetal, Bid, Play
from ..cards import BAND_SUIT_NAME, BAND_SUITS, BandCard, Card, Deck
from ..errors import IllegalAction, InvalidOption, InvalidScoreInput, describe
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
    illegal,
    leaders,
    quote_action,
    quote_names,
)
from .capabilities import Capabilities, Decision, DecisionKind, Example, Level, PanelKind, Quiz, Ref, trick_suits

NAME = "band-of-tricks"
TITLE = "Band of Tricks"
NUMBERS = {"R": range(7, 16), "S": range(4, 15), "P": range(1, 14), "M": range(10, 17)}
METAL = "M"
CARDS_EACH = {3: 13, 4: 10, 5: 8}
ZERO_SUCCESS_POINTS = {3: 6, 4: 4, 5: 3}
MAX_BID = 6
MAX_EXTRA_DEALS = 10
MAX_EXTRA_DEALS_LIMIT = 100

# A player's wins in a deal: Rock, Soul, Pops, and Metal wins of a Zero Success bidder
# (those count as tricks but for no suit).
WIN_KEYS = (*BID_SUITS, "metal")
SUIT_OF_KEY = {"rock": "R", "soul": "S", "pops": "P"}
KEY_OF_SUIT = {v: k for k, v in SUIT_OF_KEY.items()}
WIN_INDEX = {"R": 0, "S": 1, "P": 2}
LABEL = {"rock": "Rock", "soul": "Soul", "pops": "Pops", "metal": "Metal"}
BEATS = {"R": "S", "S": "P", "P": "R"}  # rock-paper-scissors: key beats value


class Phase(Word):
    """What a deal of Band of Tricks is waiting for: secret bids, a card, the suit a trick won
    with Metal counts for; ``OVER`` once the match has ended. Each member equals its word."""

    BID = "bid"
    PLAY = "play"
    ASSIGN = "assign"
    OVER = "over"


BID, PLAY, ASSIGN, OVER = Phase.BID, Phase.PLAY, Phase.ASSIGN, Phase.OVER

Wins = tuple[int, int, int, int]
NO_WINS: Wins = (0, 0, 0, 0)
ZERO = Bid(zero=True)

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


@dataclass(frozen=True, slots=True)
class BandOfTricksOptions(Options):
    """Rule options.

    ``max_extra_deals`` (default 10): BT-8 plays extra deals until one player leads, which
    in theory might never happen. A tie for the lead is uncommon (about one bot game in
    twelve needs an extra deal, and two in a row are rare), so ten tied extra deals in a
    row practically never occur: the cap of 10 does not change a real game but guarantees
    that every match ends. If the leaders are still tied after that many extra deals,
    they share the victory; ``0`` shares at once.
    """

    max_extra_deals: int = MAX_EXTRA_DEALS


@dataclass(frozen=True, slots=True)
class CountedTrick(Trick):
    """A completed trick of Band of Tricks (its rules use only the winner, so ``places`` is
    ``None``) and the suit it counts for: ``"rock"``/``"soul"``/``"pops"``, ``"metal"`` for a
    Metal win of a Zero Success bidder, ``None`` while its winner still chooses."""

    counts_for: str | None = None


@dataclass(frozen=True, slots=True)
class MetalChoice:
    """One way to count a trick won with Metal, with what it does to the suit's score.

    ``won`` is the suit's wins after counting the trick there; ``points`` what the suit
    would score if the deal ended now, ``change`` the difference to its score without it.
    """

    suit: str
    bid: int
    won: int
    points: int
    change: int
    text: str

    @property
    def action(self) -> AssignMetal:
        return AssignMetal(self.suit)


@dataclass(frozen=True, slots=True)
class BandOfTricksState:
    """The whole state (the teacher's knowledge).

    ``won[seat]`` counts the seat's tricks this deal for Rock, Soul, Pops and, last, Metal
    wins of a Zero Success bidder (which count for no suit). ``deal_scores`` holds one
    tuple of seat scores per finished deal.
    """

    seed: int
    phase: Phase
    to_play: int | None
    deal: int
    start_player: int
    hands: tuple[tuple[Card, ...], ...]
    aside: tuple[Card, ...]
    bids: tuple[Bid | None, ...]
    leader: int
    trick: tuple[Card, ...]
    tricks_played: int
    won: tuple[Wins, ...]
    won_cards: tuple[tuple[Card, ...], ...]
    last_trick: CountedTrick | None
    deal_scores: tuple[tuple[int, ...], ...]

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(d[s] for d in self.deal_scores) for s in range(len(self.hands)))

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(sum(w) for w in self.won)

    def seat_of(self, index: int) -> int:
        """The seat that played card ``index`` of the current trick."""
        return (self.leader + index) % len(self.hands)


_STATE_SLOTS = tuple(
    (f.name, getattr(BandOfTricksState, f.name).__get__, getattr(BandOfTricksState, f.name).__set__)
    for f in fields(BandOfTricksState)
)


def _evolve(state: BandOfTricksState, **changes: Any) -> BandOfTricksState:
    """``dataclasses.replace`` for states, about twice as fast (it is on every step of play)."""
    new = object.__new__(BandOfTricksState)
    for name, get, put in _STATE_SLOTS:
        put(new, changes[name] if name in changes else get(state))
    return new


@dataclass(frozen=True, slots=True)
class BandOfTricksView:
    """What one seat may see (``seat is None``: the teacher, who sees every hand).

    ``hands[s]`` is ``None`` for a hand the seat may not see. Bids are public as soon as
    they are made. ``metal_choices`` lists the ways to count a Metal win while its winner
    chooses (phase ``assign``), each with its effect on that player's score.
    """

    seat: int | None
    phase: Phase
    to_play: int | None
    deal: int
    deals: int
    start_player: int
    hands: tuple[tuple[Card, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    aside_size: int
    bids: tuple[Bid | None, ...]
    leader: int
    trick: tuple[Card, ...]
    to_follow: str | None
    tricks_played: int
    won: tuple[Wins, ...]
    last_trick: CountedTrick | None
    metal_choices: tuple[MetalChoice, ...]
    deal_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]

    @property
    def hand(self) -> tuple[Card, ...]:
        if self.seat is None:
            return ()
        own = self.hands[self.seat]
        return own if own is not None else ()

    @property
    def extra_deal(self) -> bool:
        """Whether the current deal is an extra deal played to break a tie (BT-8)."""
        return self.deal >= self.deals


# Every distinct bid: Zero Success, then every non-zero triple (0 0 0 *is* Zero Success).
ALL_BIDS: tuple[Bid, ...] = (ZERO,) + tuple(
    Bid(r, s, p) for r, s, p in product(range(MAX_BID + 1), repeat=3) if (r, s, p) != (0, 0, 0)
)
ASSIGN_ACTIONS: tuple[AssignMetal, ...] = tuple(AssignMetal(k) for k in BID_SUITS)
DECK: tuple[Card, ...] = tuple(BandCard(suit, n) for suit in BAND_SUITS for n in NUMBERS[suit])
# Hands are made of the deck's own card objects, so the engine can tell cards apart by
# identity, which is much faster than comparing dataclasses on every step of play.
_CANONICAL: dict[Card, Card] = {c: c for c in DECK}
_PLAY_OF: dict[int, Play] = {id(c): Play(c) for c in DECK}


# --- what the game offers ------------------------------------------------------------------------


def bt_one_suit(outcome: TrickOutcome) -> bool:
    """Quiz level 1: every card is of one suit."""
    return len(trick_suits(outcome)) == 1


def bt_two_suits(outcome: TrickOutcome) -> bool:
    """Quiz level 2: exactly two suits (Metal counts as a suit)."""
    return len(trick_suits(outcome)) == 2


def bt_many_suits(outcome: TrickOutcome) -> bool:
    """Quiz level 3: three or more suits, with a Metal card or the winning number shown on
    two cards (an equal-number tie)."""
    if len(trick_suits(outcome)) < 3:
        return False
    best = outcome.winning_card
    tie = any(card.rank == best.rank for card in outcome.cards if card is not best)
    return tie or any(card.suit == METAL for card in outcome.cards)


CAPABILITIES = Capabilities(
    decision=Decision(DecisionKind.SUIT_BID, BID, "bt.bid", tuple(range(MAX_BID + 1)), BID_SUITS),
    quiz=Quiz(
        (
            Level(1, "One suit", "All the cards are of one suit: the highest number wins.", bt_one_suit, (1,)),
            Level(
                2,
                "Two suits",
                "Two suits meet: Rock beats Soul, Soul beats Pops, Pops beats Rock, and Metal loses to all three.",
                bt_two_suits,
                (2,),
            ),
            Level(
                3,
                "Three or more suits",
                "Three or more suits: only the number counts, Metal too. On equal numbers the card played later wins.",
                bt_many_suits,
                (3, 4),
            ),
        )
    ),
    panels=(PanelKind.BIDS_AND_WINS, PanelKind.METAL_CHOICE),
    bots=(("heuristic", Ref("tricklab.bots.band_of_tricks:HeuristicBot")),),
    advice=Ref("tricklab.advisor:BT_ADVICE"),
    examples=(
        Example("play.ipynb", "", "players=4"),
        Example("quiz.ipynb", "", "players=4&seed=1"),
        Example("bid_trainer.ipynb", "", "players=4&seed=12"),
        Example("explain_trick.ipynb", "", "players=4&cards=P3,S5,R13,M13"),
        Example("replay.ipynb", "", "players=5&seed=7"),
    ),
)


class BandOfTricks(Rules[BandOfTricksState]):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = TITLE
    aliases: ClassVar[tuple[str, ...]] = ("bt", "band_of_tricks")
    player_counts: ClassVar[tuple[int, ...]] = (3, 4, 5)
    rulebook: ClassVar[Rulebook] = RULEBOOK
    options_type: ClassVar[type[Options]] = BandOfTricksOptions
    capabilities: ClassVar[Capabilities] = CAPABILITIES
    match_option_names: ClassVar[tuple[str, ...]] = ("start_player",)
    options: BandOfTricksOptions

    def _check_options(self) -> None:
        cap = self.options.max_extra_deals
        if isinstance(cap, bool) or not isinstance(cap, int) or not 0 <= cap <= MAX_EXTRA_DEALS_LIMIT:
            raise InvalidOption(
                f"{TITLE}: max_extra_deals is a whole number from 0 to {MAX_EXTRA_DEALS_LIMIT}, not {describe(cap)}",
                rule_id="bt.win.limit",
            )

    def _build_deck(self) -> Deck:
        return Deck(TITLE, BandCard, DECK)

    # --- public rules API ----------------------------------------------------------------------

    @property
    def cards_each(self) -> int:
        """Cards in each hand, which is also the number of tricks in a deal (BT-1)."""
        return CARDS_EACH[self.players]

    @property
    def zero_success_points(self) -> int:
        """What a successful Zero Success bid scores with this many players (BT-7)."""
        return ZERO_SUCCESS_POINTS[self.players]

    def resolve_trick(self, cards: Iterable[CardLike] | str, **context: Any) -> TrickOutcome:
        """Rank a (possibly partial) trick, first place to last (BT-5).

        The ranking: with one suit, by number from high to low; with two suits, the cards of
        the winning suit high to low, then the other suit's cards high to low; with three or
        more suits, by number high to low, the later card first on equal numbers.
        """
        if context:
            raise InvalidOption(f"{TITLE} tricks need no context, not {quote_names(context)}")
        played = self._trick(cards)
        if not played:
            raise InvalidOption("a trick needs at least one card to rank", rule_id="bt.trick")
        return TrickOutcome(NAME, played, _rank(played), _explain_trick, {"full": len(played) == self.players})

    def legal_plays(
        self, hand: Iterable[CardLike] | str, trick: Iterable[CardLike] | str = (), **context: Any
    ) -> tuple[Card, ...]:
        """The cards of ``hand`` that may be played to ``trick`` (BT-4)."""
        if context:
            raise InvalidOption(f"{TITLE} needs only the hand and the trick, not {quote_names(context)}")
        cards, played = self._hand_and_trick(hand, trick)
        return _legal(cards, played)

    def suit_to_follow(self, trick: Iterable[CardLike] | str) -> str | None:
        """The suit letter the next player must follow, or ``None`` while only Metal was played."""
        return _to_follow(self._trick(trick))

    def score_deal(self, *, bid: object, won: object) -> Score:
        """One player's score for a deal (BT-7), with a line per suit.

        ``bid`` is ``{"rock": r, "soul": s, "pops": p}`` (each 0-6; a missing suit is 0), a
        :class:`~tricklab.actions.Bid`, or ``"zero"`` for Zero Success; all zeros are Zero
        Success. ``won`` is the tricks won per suit after Metal wins were counted for a suit;
        a Zero Success bidder's Metal wins may be given as ``"metal"``.
        """
        checked = _check_bid_input(bid)
        wins = self._check_won_input(won, checked.zero)
        return _score(checked, wins, self.players)

    def _check_won_input(self, won: object, zero: bool) -> Wins:
        if not isinstance(won, Mapping):
            raise InvalidScoreInput(
                f"won must give the tricks won per suit, like {{'rock': 1, 'soul': 3, 'pops': 0}}, not {describe(won)}",
                rule_id="bt.score.deal",
            )
        counts = [0, 0, 0, 0]
        for key, value in won.items():
            if key not in WIN_KEYS:
                raise InvalidScoreInput(
                    f"{describe(key)} is not a suit to count wins in; use rock, soul and pops",
                    rule_id="bt.score.deal",
                )
            if key == "metal" and not zero:
                raise InvalidScoreInput(
                    "a Metal win counts for Rock, Soul or Pops, as its winner chose: add it there, not under 'metal'",
                    rule_id="bt.metal.assign",
                )
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidScoreInput(
                    f"tricks won in {LABEL[key]} must be a whole number, 0 or more, not {describe(value)}",
                    rule_id="bt.score.deal",
                )
            counts[WIN_KEYS.index(key)] = value
        total = sum(counts)
        if total > self.cards_each:
            raise InvalidScoreInput(
                f"{describe(total)} tricks won is impossible: with {self.players} players a deal has only "
                f"{plural(self.cards_each, 'trick')}",
                rule_id="bt.deal",
            )
        return (counts[0], counts[1], counts[2], counts[3])

    def metal_choices(self, state: BandOfTricksState) -> tuple[MetalChoice, ...]:
        """While a Metal win waits to be counted: each suit it can count for and the effect."""
        if state.phase != ASSIGN or state.to_play is None:
            return ()
        seat = state.to_play
        bid = state.bids[seat]
        assert bid is not None
        return _metal_choices(bid, state.won[seat])

    # --- match engine -----------------------------------------------------------------------------

    def start_player(self, seed: int, start_player: object | None) -> int:
        """The first deal's start player: ``start_player`` if given, else chosen by the seed."""
        if start_player is None:
            return self.first_dealer(seed, None)
        if isinstance(start_player, bool) or not isinstance(start_player, int) or not 0 <= start_player < self.players:
            raise InvalidOption(
                f"start_player must be a seat from 0 to {self.players - 1}, not {describe(start_player)}",
                rule_id="bt.start",
            )
        return start_player

    def initial_state(
        self, seed: int, log: Log = None, start_player: int | None = None, **match_options: Any
    ) -> BandOfTricksState:
        if match_options:
            raise InvalidOption(f"{TITLE} has no match option {quote_names(match_options)}; use start_player")
        first = self.start_player(seed, start_player)
        empty_state = BandOfTricksState(
            seed=seed,
            phase=BID,
            to_play=None,
            deal=0,
            start_player=first,
            hands=(),
            aside=(),
            bids=(),
            leader=first,
            trick=(),
            tricks_played=0,
            won=(),
            won_cards=(),
            last_trick=None,
            deal_scores=(),
        )
        return self._deal(empty_state, 0, first, log)

    def _deal(self, state: BandOfTricksState, deal: int, start: int, log: Log) -> BandOfTricksState:
        n = self.players
        each = CARDS_EACH[n]
        cards = list(self._deck.cards)
        self.deal_rng(state.seed, deal).shuffle(cards)
        hands = tuple(_sort_hand(cards[i * each : (i + 1) * each]) for i in range(n))
        aside = tuple(cards[n * each :])
        new = BandOfTricksState(
            seed=state.seed,
            phase=BID,
            to_play=start,
            deal=deal,
            start_player=start,
            hands=hands,
            aside=aside,
            bids=tuple(None for _ in range(n)),
            leader=start,
            trick=(),
            tricks_played=0,
            won=tuple(NO_WINS for _ in range(n)),
            won_cards=tuple(() for _ in range(n)),
            last_trick=None,
            deal_scores=state.deal_scores,
        )
        if log is not None:
            aside_note = " One card is left over and goes back in the box unseen." if aside else ""
            if deal < n:
                title = f"Deal {deal + 1} of {n}"
                reasons = (
                    Reason("bt.deal", RULEBOOK["bt.deal"].text),
                    Reason(
                        "bt.deals",
                        f"Deal {deal + 1}: {self.seat_name(start)} is the start player and bids first.",
                    ),
                )
            else:
                title = f"Extra deal {deal - n + 1}"
                reasons = (
                    Reason("bt.deal", RULEBOOK["bt.deal"].text),
                    Reason("bt.win.tie", "The highest total is shared, so an extra deal is played."),
                )
            log.append(
                (
                    Event(
                        EventKind.DEAL,
                        start,
                        f"{title}: everyone gets {each} cards; {self.seat_name(start)} is the start player."
                        f"{aside_note}",
                        reasons,
                        {"deal": deal, "start_player": start},
                    ),
                    new,
                )
            )
        return new

    def canonical_action(self, state: BandOfTricksState, action: Action) -> Action:
        """A bid of 0 in all three suits is Zero Success (BT-3), listed as ``bid zero``."""
        return _check_bid_action(action) if isinstance(action, Bid) else action

    def legal_actions(self, state: BandOfTricksState) -> list[Action]:
        if state.phase == PLAY:
            seat = state.to_play
            assert seat is not None
            return [_PLAY_OF.get(id(c)) or Play(c) for c in _legal(state.hands[seat], state.trick)]
        if state.phase == BID:
            return list(ALL_BIDS)
        if state.phase == ASSIGN:
            return list(ASSIGN_ACTIONS)
        return []

    def _apply(self, state: BandOfTricksState, action: Action, log: Log) -> BandOfTricksState:
        seat = state.to_play
        if seat is None:
            raise illegal("bt.over", "the game is over: no more actions can be taken")
        if state.phase == BID:
            if not isinstance(action, Bid):
                raise illegal(
                    "bt.bid",
                    f"{self.seat_name(seat)} must bid now: a number from 0 to 6 for Rock, Soul and Pops "
                    f"(like 'bid 1 3 0') or Zero Success ('bid zero'), not {quote_action(action)}",
                )
            return self._bid(state, seat, action, log)
        if state.phase == PLAY:
            if not isinstance(action, Play):
                raise illegal("bt.trick", f"{self.seat_name(seat)} must play a card now, not {quote_action(action)}")
            return self._play(state, seat, action.card, log)
        if not isinstance(action, AssignMetal):
            raise illegal(
                "bt.metal.assign",
                f"{self.seat_name(seat)} won the last trick with Metal and first chooses the suit it counts for "
                f"('count rock', 'count soul' or 'count pops'), not {quote_action(action)}",
            )
        return self._assign(state, seat, action, log)

    # bidding ------------------------------------------------------------------------------------------

    def _bid(self, state: BandOfTricksState, seat: int, action: Bid, log: Log) -> BandOfTricksState:
        bid = _check_bid_action(action)
        n = self.players
        bids = state.bids[:seat] + (bid,) + state.bids[seat + 1 :]
        nxt = (seat + 1) % n
        done = nxt == state.start_player
        if done:
            new = _evolve(state, bids=bids, phase=PLAY, leader=state.start_player, to_play=state.start_player)
        else:
            new = _evolve(state, bids=bids, to_play=nxt)
        if log is not None:
            name = self.seat_name(seat)
            reasons: list[Reason] = []
            if bid.zero:
                if action.zero:
                    text = f"{name} bids Zero Success: no trick at all."
                    reasons.append(Reason("bt.bid.zero", "Zero Success means winning no trick at all."))
                else:
                    text = f"{name} bids 0 in every suit, which is Zero Success: no trick at all."
                    reasons.append(Reason("bt.bid.zero", "A bid of 0 in all three suits is Zero Success."))
            else:
                total = bid.rock + bid.soul + bid.pops
                text = (
                    f"{name} bids Rock {bid.rock}, Soul {bid.soul}, Pops {bid.pops} ({plural(total, 'trick')} in all)."
                )
                reasons.append(Reason("bt.bid", "Bids are public: everyone sees this bid."))
            if done:
                text += f" All bids are in; {self.seat_name(state.start_player)} leads the first trick."
                reasons.append(Reason("bt.trick", "The start player leads the first trick."))
            log.append((Event(EventKind.BID, seat, text, tuple(reasons), {"bid": str(bid)}), new))
        return new

    # trick play ----------------------------------------------------------------------------------------

    def _play(self, state: BandOfTricksState, seat: int, card: Card, log: Log) -> BandOfTricksState:
        hand = state.hands[seat]
        if id(card) not in _PLAY_OF:
            card = _CANONICAL.get(card, card)
        index = _index_of(hand, card)
        if index < 0:
            raise illegal("bt.hand", f"{self.seat_name(seat)} does not hold {card}")
        trick = state.trick
        follow = _to_follow(trick)
        if follow is not None and card.suit != follow and card.suit != METAL:
            holding = next((c for c in hand if c.suit == follow), None)
            if holding is not None:
                suit = BAND_SUIT_NAME[follow]
                name = self.seat_name(seat)
                raise illegal(
                    "bt.follow",
                    f"must follow {suit}: {suit} is the suit to follow in this trick and {name} holds "
                    f"{holding}, so {name} must play a {suit} card or a Metal card",
                )
        new_hand = hand[:index] + hand[index + 1 :]
        hands = state.hands[:seat] + (new_hand,) + state.hands[seat + 1 :]
        trick = trick + (card,)
        n = self.players
        if len(trick) < n:
            # the most frequent step of all, so the state is built directly (see _evolve)
            new = BandOfTricksState(
                state.seed,
                state.phase,
                (seat + 1) % n,
                state.deal,
                state.start_player,
                hands,
                state.aside,
                state.bids,
                state.leader,
                trick,
                state.tricks_played,
                state.won,
                state.won_cards,
                state.last_trick,
                state.deal_scores,
            )
            if log is not None:
                log.append((self._play_event(seat, card, state.trick, hand), new))
            return new
        ranking = _rank(trick)
        seats = tuple((state.leader + i) % n for i in ranking)
        winner = seats[0]
        best = trick[ranking[0]]
        bid = state.bids[winner]
        assert bid is not None
        if best.suit != METAL:
            counts_for: str | None = KEY_OF_SUIT[best.suit]
        elif bid.zero:
            counts_for = "metal"
        else:
            counts_for = None
        last = replace(CountedTrick.ranked(state.leader, trick, ranking, n, places=False), counts_for=counts_for)
        won = state.won
        if counts_for is not None:
            won = won[:winner] + (_add_win(won[winner], WIN_KEYS.index(counts_for)),) + won[winner + 1 :]
        won_cards = state.won_cards[:winner] + (state.won_cards[winner] + trick,) + state.won_cards[winner + 1 :]
        more = state.tricks_played + 1 < CARDS_EACH[n]
        if counts_for is None:  # the winner first chooses the suit (BT-6), then leads
            phase, leader, to_play = ASSIGN, state.leader, winner
        elif more:
            phase, leader, to_play = PLAY, winner, winner
        else:
            phase, leader, to_play = PLAY, state.leader, None
        new = _evolve(
            state,
            hands=hands,
            trick=(),
            tricks_played=state.tricks_played + 1,
            won=won,
            won_cards=won_cards,
            last_trick=last,
            phase=phase,
            leader=leader,
            to_play=to_play,
        )
        if log is not None:
            log.append(
                (
                    self._play_event(seat, card, state.trick, hand),
                    _evolve(state, hands=hands, trick=trick, to_play=None),
                )
            )
            log.append((self._trick_event(new, ranking, seats), new))
        if counts_for is None or more:
            return new
        return self._end_deal(new, log)

    def _play_event(self, seat: int, card: Card, before: tuple[Card, ...], hand: tuple[Card, ...]) -> Event:
        name = self.seat_name(seat)
        reasons: list[Reason] = []
        follow = _to_follow(before)
        if not before:
            text = f"{name} leads {card}."
            if card.suit == METAL:
                reasons.append(
                    Reason(
                        "bt.follow.open",
                        "A Metal lead sets no suit: the first Rock, Soul or Pops card after it does.",
                        (card,),
                    )
                )
        elif follow is None:
            text = f"{name} plays {card}."
            why = "Only Metal has been played so far, so any card may be played."
            if card.suit != METAL:
                why += f" {card} now sets the suit to follow: {card.suit_name}."
            reasons.append(Reason("bt.follow.open", why, (card,)))
        else:
            suit = BAND_SUIT_NAME[follow]
            if card.suit == follow:
                text = f"{name} follows with {card}."
                reasons.append(Reason("bt.follow", f"{suit} is the suit to follow and {card} follows it.", (card,)))
            elif card.suit == METAL:
                text = f"{name} plays {card}."
                holds = any(c.suit == follow for c in hand)
                why = "Metal may always be played" + (f", even while holding {suit}." if holds else ".")
                reasons.append(Reason("bt.follow.metal", why, (card,)))
            else:
                text = f"{name} has no {suit} and plays {card}."
                reasons.append(Reason("bt.follow.void", f"No {suit} card in hand, so any card may be played.", (card,)))
        if before:
            trick = (*before, card)
            best = trick[_rank(trick)[0]]
            text += f" {best} is winning so far."
        return Event(EventKind.PLAY, seat, text, tuple(reasons), {"card": card})

    def _trick_event(self, state: BandOfTricksState, ranking: tuple[int, ...], seats: tuple[int, ...]) -> Event:
        last = state.last_trick
        assert last is not None
        winner = seats[0]
        name = self.seat_name(winner)
        outcome = TrickOutcome(NAME, last.cards, ranking, _explain_trick, {"full": True})
        reasons = list(outcome.reasons)
        best = last.winning_card
        text = f"{name} wins trick {state.tricks_played} with {best}."
        choices: tuple[MetalChoice, ...] = ()
        if last.counts_for is None:
            choices = self.metal_choices(state)
            text += f" It was won with Metal, so {name} chooses whether it counts for Rock, Soul or Pops."
            reasons.append(Reason("bt.metal.assign", RULEBOOK["bt.metal.assign"].text, (best,)))
            reasons.extend(Reason("bt.metal.assign", c.text) for c in choices)
        elif last.counts_for == "metal":
            text += f" {name} bid Zero Success, so the Metal win simply counts as a trick won."
            reasons.append(Reason("bt.metal.zero", RULEBOOK["bt.metal.zero"].text, (best,)))
        else:
            text += f" It counts for {LABEL[last.counts_for]}: {self._progress(state, winner, last.counts_for)}."
        if state.tricks_played < CARDS_EACH[self.players]:
            reasons.append(Reason("bt.lead.next", f"{name} won the trick, so {name} leads the next one."))
        return Event(
            EventKind.TRICK,
            winner,
            text,
            tuple(reasons),
            {
                "trick": last,
                "cards": last.cards,
                "ranking": ranking,
                "seats": seats,
                "leader": last.leader,
                "counts_for": last.counts_for,
                "choices": choices,
            },
        )

    def _progress(self, state: BandOfTricksState, seat: int, key: str) -> str:
        bid = state.bids[seat]
        assert bid is not None
        won = state.won[seat]
        if bid.zero:
            total = sum(won)
            return f"{plural(total, 'trick')} won after bidding Zero Success"
        b = getattr(bid, key)
        w = won[WIN_INDEX[SUIT_OF_KEY[key]]]
        return f"{w} won of {b} bid"

    def _assign(self, state: BandOfTricksState, seat: int, action: AssignMetal, log: Log) -> BandOfTricksState:
        key = action.suit  # rock, soul or pops: AssignMetal checks that when it is made
        last = state.last_trick
        assert last is not None
        choice = next(c for c in self.metal_choices(state) if c.suit == key)
        won = state.won[:seat] + (_add_win(state.won[seat], WIN_KEYS.index(key)),) + state.won[seat + 1 :]
        more = state.tricks_played < CARDS_EACH[self.players]
        new = _evolve(
            state,
            won=won,
            last_trick=replace(last, counts_for=key),
            phase=PLAY,
            leader=seat if more else state.leader,
            to_play=seat if more else None,
        )
        if log is not None:
            log.append(
                (
                    Event(
                        EventKind.COUNT,
                        seat,
                        f"{self.seat_name(seat)} counts the Metal win for {LABEL[key]}: "
                        f"{self._progress(new, seat, key)}.",
                        (Reason("bt.metal.assign", choice.text, (last.winning_card,)),),
                        {"counts_for": key},
                    ),
                    new,
                )
            )
        return new if more else self._end_deal(new, log)

    # deal end ---------------------------------------------------------------------------------------

    def _end_deal(self, state: BandOfTricksState, log: Log) -> BandOfTricksState:
        n = self.players
        bids = [bid for bid in state.bids if bid is not None]
        assert len(bids) == n
        scores = tuple(_deal_points(bids[seat], state.won[seat], n) for seat in range(n))
        deal_scores = state.deal_scores + (scores,)
        new = _evolve(state, deal_scores=deal_scores, to_play=None)
        if log is not None:
            details = [_score(bids[seat], state.won[seat], n) for seat in range(n)]
            text = (
                f"Deal {state.deal + 1} scored: "
                + ", ".join(f"{self.seat_name(s)} {scores[s]:+d}" for s in range(n))
                + "."
            )
            reasons = tuple(
                Reason(r.rule_id, f"{self.seat_name(s)}: {r.text}") for s in range(n) for r in details[s].reasons
            )
            log.append(
                (Event(EventKind.SCORE, None, text, reasons, {"scores": scores, "details": tuple(details)}), new)
            )
        played = len(deal_scores)
        nxt = (state.start_player + 1) % n
        if played < n:
            return self._deal(new, played, nxt, log)
        totals = new.totals
        best = max(totals)
        leaders = [s for s in range(n) if totals[s] == best]
        if len(leaders) > 1 and played - n < self.options.max_extra_deals:
            if log is not None:
                names = _join(self.seat_name(s) for s in leaders)
                log.append(
                    (
                        Event(
                            EventKind.TIE,
                            None,
                            f"{names} share the lead with {plural(best, 'point')}, so an extra deal is played.",
                            (Reason("bt.win.tie", RULEBOOK["bt.win.tie"].text),),
                            {"leaders": tuple(leaders)},
                        ),
                        new,
                    )
                )
            return self._deal(new, played, nxt, log)
        over = _evolve(new, phase=OVER, to_play=None)
        if log is not None:
            result = self.result(over)
            assert result is not None
            log.append(
                (
                    Event(EventKind.END, None, result.reasons[0].text, result.reasons, {"winners": result.winners}),
                    over,
                )
            )
        return over

    def result(self, state: BandOfTricksState) -> MatchResult | None:
        if state.phase != OVER:
            return None
        n = self.players
        totals = state.totals
        top = tuple(leaders(totals))
        best = totals[top[0]]
        names = _join(self.seat_name(s) for s in top)
        extra = len(state.deal_scores) - n
        if len(top) == 1 and extra == 0:
            return MatchResult(totals, top, None, (Reason("bt.win", f"{names} wins with {plural(best, 'point')}."),))
        if len(top) == 1:
            deals = plural(extra, "extra deal")
            return MatchResult(
                totals,
                top,
                TieBreak.EXTRA_DEALS,
                (Reason("bt.win.tie", f"{names} wins with {plural(best, 'point')}: {deals} broke the tie."),),
            )
        after = f" after {plural(extra, 'extra deal')}" if extra else ""
        return MatchResult(
            totals,
            top,
            TieBreak.SHARED,
            (
                Reason(
                    "bt.win.limit",
                    f"{names} are still tied on {plural(best, 'point')}{after}, the most extra deals allowed "
                    f"({self.options.max_extra_deals}): they share the victory.",
                ),
            ),
        )

    def view(self, state: BandOfTricksState, seat: int | None) -> BandOfTricksView:
        n = self.players
        self.check_view_seat(seat)
        return BandOfTricksView(
            seat=seat,
            phase=state.phase,
            to_play=state.to_play,
            deal=state.deal,
            deals=n,
            start_player=state.start_player,
            hands=tuple(h if seat is None or s == seat else None for s, h in enumerate(state.hands)),
            hand_sizes=tuple(len(h) for h in state.hands),
            aside_size=len(state.aside),
            bids=state.bids,
            leader=state.leader,
            trick=state.trick,
            to_follow=_to_follow(state.trick),
            tricks_played=state.tricks_played,
            won=state.won,
            last_trick=state.last_trick,
            metal_choices=self.metal_choices(state),
            deal_scores=state.deal_scores,
            totals=state.totals,
        )


# --- pure rule functions ------------------------------------------------------------------------

_SUIT_ORDER = {s: i for i, s in enumerate(BAND_SUITS)}


def _sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: (_SUIT_ORDER[c.suit], c.rank)))


def _two_suit_winner(a: str, b: str) -> str:
    """The suit that wins a trick holding exactly the suits ``a`` and ``b``."""
    if a == METAL:
        return b
    if b == METAL:
        return a
    return a if BEATS[a] == b else b


_TWO_SUIT_WINNER = {frozenset((a, b)): _two_suit_winner(a, b) for a in BAND_SUITS for b in BAND_SUITS if a != b}


def _rank(trick: tuple[Card, ...]) -> tuple[int, ...]:
    """Play-order indices from first place to last (BT-5; see ``resolve_trick``)."""
    indices = range(len(trick))
    suits = {c.suit for c in trick}
    if len(suits) == 1:
        return tuple(sorted(indices, key=lambda i: -trick[i].rank))
    if len(suits) == 2:
        top = _TWO_SUIT_WINNER[frozenset(suits)]
        return tuple(sorted(indices, key=lambda i: (trick[i].suit != top, -trick[i].rank)))
    return tuple(sorted(indices, key=lambda i: (-trick[i].rank, -i)))


def _to_follow(trick: tuple[Card, ...]) -> str | None:
    for card in trick:
        if card.suit != METAL:
            return card.suit
    return None


def _legal(hand: tuple[Card, ...], trick: tuple[Card, ...]) -> tuple[Card, ...]:
    follow = _to_follow(trick)
    if follow is None or not any(c.suit == follow for c in hand):
        return hand
    return tuple(c for c in hand if c.suit == follow or c.suit == METAL)


def _index_of(hand: tuple[Card, ...], card: Card) -> int:
    """Where ``card`` (the deck's own object) is in ``hand``, or -1."""
    for i, held in enumerate(hand):
        if held is card:
            return i
    # a hand built by hand may hold equal cards that are other objects
    return hand.index(card) if card in hand else -1


def _add_win(wins: Wins, index: int) -> Wins:
    counts = list(wins)
    counts[index] += 1
    return (counts[0], counts[1], counts[2], counts[3])


def _check_bid_action(bid: Bid) -> Bid:
    """The bid as the rules see it (an all-zero bid becomes Zero Success); raises if not allowed.
    (A Bid holds whole numbers and a true/false ``zero``: it checks that when it is made.)"""
    values = (bid.rock, bid.soul, bid.pops)
    if bid.zero:
        if any(v != 0 for v in values):
            raise illegal(
                "bt.bid.zero",
                "Zero Success means winning no trick at all, so it has no numbers: bid 'bid zero' alone",
            )
        return ZERO
    for key, value in zip(BID_SUITS, values, strict=True):
        if not 0 <= value <= MAX_BID:
            raise illegal("bt.bid", f"a bid for {LABEL[key]} is a whole number from 0 to {MAX_BID}, not {value}")
    return ZERO if values == (0, 0, 0) else bid


def _check_bid_input(bid: object) -> Bid:
    """A bid given to ``score_deal``: a mapping, a Bid or ``"zero"``; :class:`InvalidScoreInput` otherwise."""
    if isinstance(bid, Bid):
        try:
            return _check_bid_action(bid)
        except IllegalAction as exc:  # same message, as the scoring error type
            raise InvalidScoreInput(exc.message, rule_id=exc.rule_id) from None
    if isinstance(bid, str):
        if bid.strip().lower() == "zero":
            return ZERO
        raise InvalidScoreInput(
            f"a bid is {{'rock': r, 'soul': s, 'pops': p}} (each 0 to 6) or 'zero' for Zero Success, "
            f"not {describe(bid)}",
            rule_id="bt.bid",
        )
    if not isinstance(bid, Mapping):
        raise InvalidScoreInput(
            f"a bid is {{'rock': r, 'soul': s, 'pops': p}} (each 0 to 6) or 'zero' for Zero Success, "
            f"not {describe(bid)}",
            rule_id="bt.bid",
        )
    values = {"rock": 0, "soul": 0, "pops": 0}
    for key, value in bid.items():
        if key == "metal":
            raise InvalidScoreInput(
                "there is no bid for Metal: add the Metal wins you expect to Rock, Soul or Pops",
                rule_id="bt.bid.metal",
            )
        if key not in values:
            raise InvalidScoreInput(
                f"{describe(key)} is not a suit you can bid on; bid on rock, soul and pops", rule_id="bt.bid"
            )
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_BID:
            raise InvalidScoreInput(
                f"a bid for {LABEL[key]} is a whole number from 0 to {MAX_BID}, not {describe(value)}",
                rule_id="bt.bid",
            )
        values[key] = value
    if all(v == 0 for v in values.values()):
        return ZERO
    return Bid(values["rock"], values["soul"], values["pops"])


def _suit_points(bid: int, won: int) -> int:
    """BT-7 for one suit: the bid plus 1 when hit, else minus the distance to it."""
    return bid + 1 if won == bid else -abs(won - bid)


def _zero_points(tricks: int, players: int) -> int:
    """BT-7 for Zero Success."""
    return ZERO_SUCCESS_POINTS[players] if tricks == 0 else -tricks


def _deal_points(bid: Bid, won: Wins, players: int) -> int:
    """A deal's points without the breakdown (what :func:`_score` totals)."""
    if bid.zero:
        return _zero_points(sum(won), players)
    return _suit_points(bid.rock, won[0]) + _suit_points(bid.soul, won[1]) + _suit_points(bid.pops, won[2])


def _suit_line(key: str, bid: int, won: int) -> tuple[ScoreLine, Reason]:
    label = LABEL[key]
    points = _suit_points(bid, won)
    if won == bid:
        detail = f"bid {bid}, won {won}: success, {bid} + 1 for the bid cube = {points}"
        return (
            ScoreLine(key, label, points, "success", detail),
            Reason(
                "bt.score.success",
                f"{label}: bid {bid} and won exactly {won}, so {plural(points, 'point')} ({bid} + 1).",
            ),
        )
    if won > bid:
        over = won - bid
        return (
            ScoreLine(key, label, points, "overrun", f"bid {bid}, won {won}: overrun by {over}, {points}"),
            Reason(
                "bt.score.overrun",
                f"{label}: bid {bid} but won {won}, {over} too many, so {points} and the bid scores nothing.",
            ),
        )
    short = bid - won
    return (
        ScoreLine(key, label, points, "short", f"bid {bid}, won {won}: short by {short}, {points}"),
        Reason("bt.score.short", f"{label}: bid {bid} but won only {won}, {short} short, so {points}."),
    )


def _score(bid: Bid, won: Wins, players: int) -> Score:
    """A deal's score (BT-7); ``won`` is Rock, Soul, Pops and unassigned Metal wins."""
    if bid.zero:
        tricks = sum(won)
        points = _zero_points(tricks, players)
        if tricks == 0:
            line = ScoreLine(
                "zero",
                "Zero Success",
                points,
                "success",
                f"no trick won: +{points} with {plural(players, 'player')}",
            )
            reason = Reason(
                "bt.score.zero",
                f"Zero Success kept: no trick won, which is worth {plural(points, 'point')} "
                f"with {plural(players, 'player')}.",
            )
        else:
            line = ScoreLine(
                "zero",
                "Zero Success",
                points,
                "overrun",
                f"bid Zero Success, won {plural(tricks, 'trick')}: overrun by {tricks}, {points}",
            )
            reason = Reason(
                "bt.score.zero",
                f"Zero Success failed: {plural(tricks, 'trick')} won, so {points}.",
            )
        return Score(line.points, (line,), (reason,))
    lines = []
    reasons = []
    for i, key in enumerate(BID_SUITS):
        line, reason = _suit_line(key, getattr(bid, key), won[i])
        lines.append(line)
        reasons.append(reason)
    total = sum(line.points for line in lines)
    reasons.append(
        Reason("bt.score.deal", "Deal total: " + " ".join(f"{line.points:+d}" for line in lines) + f" = {total}.")
    )
    return Score(total, tuple(lines), tuple(reasons))


def _metal_choices(bid: Bid, won: Wins) -> tuple[MetalChoice, ...]:
    choices = []
    for i, key in enumerate(BID_SUITS):
        b = getattr(bid, key)
        before = _suit_points(b, won[i])
        after = _suit_points(b, won[i] + 1)
        w = won[i] + 1
        label = LABEL[key]
        if w == b:
            effect = "exactly the bid"
        elif w < b:
            effect = f"still {b - w} short"
        else:
            effect = f"{w - b} too many"
        text = (
            f"Count it for {label}: {plural(w, label + ' win')} for a bid of {b}, {effect}, "
            f"so {label} would score {after:+d} (it scores {before:+d} now)."
        )
        choices.append(MetalChoice(key, b, w, after, after - before, text))
    return tuple(choices)


def _join(names: Iterable[str]) -> str:
    items = list(names)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _suit_list(cards: tuple[Card, ...]) -> tuple[list[str], str]:
    """The suits in order of first appearance, and a listing like ``"Pops (2 cards) and Soul (1 card)"``."""
    order: list[str] = []
    counts: dict[str, int] = {}
    for card in cards:
        if card.suit not in counts:
            order.append(card.suit)
            counts[card.suit] = 0
        counts[card.suit] += 1
    listing = _join(f"{BAND_SUIT_NAME[s]} ({plural(counts[s], 'card')})" for s in order)
    return order, listing


_COUNT_WORD = {3: "Three", 4: "Four"}


def _explain_trick(outcome: TrickOutcome) -> tuple[Reason, ...]:
    cards = outcome.cards
    ranking = outcome.ranking
    best = cards[ranking[0]]
    verb = "wins" if outcome.context.get("full", True) else "is winning so far"
    if len(cards) == 1:
        return (Reason("bt.trick", f"Only {best} has been played, so it is winning for now.", (best,)),)
    suits, listing = _suit_list(cards)
    reasons: list[Reason] = []
    if len(suits) == 1:
        reasons.append(
            Reason(
                "bt.one-suit",
                f"All {len(cards)} cards are {best.suit_name}: with one suit the highest number wins, "
                f"so {best} {verb}.",
                cards,
            )
        )
    elif len(suits) == 2:
        top = BAND_SUIT_NAME[best.suit]
        other = BAND_SUIT_NAME[next(s for s in suits if s != best.suit)]
        why = f"Metal loses to {top} when only two suits meet" if other == "Metal" else f"{top} beats {other}"
        reasons.append(
            Reason(
                "bt.two-suits",
                f"Two suits are in this trick: {listing}. {why}, so the highest {top} card {verb}: {best}.",
                cards,
            )
        )
    else:
        ties = [cards[i] for i in range(len(cards)) if cards[i].rank == best.rank and i != ranking[0]]
        head = (
            f"{_COUNT_WORD[len(suits)]} suits are in this trick: {listing}. With three or more suits the "
            "suit does not matter: the highest number wins."
        )
        if not ties:
            reasons.append(Reason("bt.three-suits", f"{head} That is {best.rank}, so {best} {verb}.", cards))
        else:
            reasons.append(Reason("bt.three-suits", head, cards))
            others = _join(str(c) for c in ties)
            reasons.append(
                Reason(
                    "bt.tie.later",
                    f"The highest number, {best.rank}, is on {others} and {best}. On equal numbers the card "
                    f"played later wins, so {best} {verb}.",
                    (*ties, best),
                )
            )
    first = ranking[0]
    pairs = [(first, j) for j in ranking[1:]] + [(ranking[k], ranking[k + 1]) for k in range(1, len(ranking) - 1)]
    for a, b in pairs:
        reasons.append(_compare(cards, a, b, len(suits), a == first))
    return tuple(reasons)


def _compare(cards: tuple[Card, ...], i: int, j: int, suit_count: int, beats: bool) -> Reason:
    """Why card ``i`` places above card ``j`` (``beats``: ``i`` is the trick's winner)."""
    a, b = cards[i], cards[j]
    pair = (a, b)
    above = f"{a} beats {b}" if beats else f"{a} places above {b}"
    if suit_count >= 3:
        if a.rank == b.rank:
            return Reason("bt.tie.later", f"{above}: both show {a.rank}, and {a} was played later.", pair)
        return Reason(
            "bt.three-suits",
            f"{above}: with three or more suits only the number counts, and {a.rank} is higher than {b.rank}.",
            pair,
        )
    if a.suit == b.suit:
        rule = "bt.one-suit" if suit_count == 1 else "bt.two-suits"
        return Reason(rule, f"{above}: both are {a.suit_name}, and {a.rank} is higher than {b.rank}.", pair)
    if b.suit == METAL:
        return Reason(
            "bt.metal.loses",
            f"{above} because Metal loses to {a.suit_name} when a trick holds only two suits; "
            "the number does not matter here.",
            pair,
        )
    return Reason(
        "bt.cycle",
        f"{above} because {a.suit_name} beats {b.suit_name}; the number does not matter across suits here.",
        pair,
    )
