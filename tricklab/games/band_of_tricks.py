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

The rules run on a compact core (:mod:`tricklab.games.core`): a :class:`BandOfTricksState` of
card ids and hand masks, ``core_legal`` listing action ids (a play is its card id, then the
bids of :data:`ALL_BIDS`, then the three ways to count a Metal win) and ``core_step`` making
one, with the facts of what happened for :meth:`BandOfTricks.narrate`. Each rule is written
once, over ids: who wins a trick (:func:`_card_key`), the suit to follow (:func:`_follows`),
which cards may be played (:func:`_plays`) and what a suit scores (:func:`_suit_points`);
the Card-level helpers, the refusals and the narration call those.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import product
from typing import Any, ClassVar, NamedTuple, cast

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
    Score,
    ScoreLine,
    TieBreak,
    Trick,
    TrickOutcome,
    Word,
    illegal,
    quote_action,
    quote_names,
)
from .capabilities import Capabilities, Decision, DecisionKind, Example, Level, PanelKind, Quiz, Ref, trick_suits
from .core import (
    CardIds,
    CoreRules,
    Fact,
    Facts,
    bits,
    deal_hands,
    decide,
    event,
    follow_mask,
    hidden_hands,
    lowest,
    shuffled_ids,
)

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


# --- cards as ids, actions as ids ----------------------------------------------------------------

DECK: tuple[Card, ...] = tuple(BandCard(suit, n) for suit in BAND_SUITS for n in NUMBERS[suit])
# The deck is in hand order (suits Rock, Soul, Pops, Metal, numbers up), so card ``i`` of the
# deck is card id ``i`` and the set bits of a hand mask, lowest first, are the sorted hand.
IDS = CardIds(DECK, BAND_SUITS)
SUIT: tuple[int, ...] = IDS.suit  # 0 Rock, 1 Soul, 2 Pops, 3 Metal
RANK: tuple[int, ...] = IDS.rank
METAL_SUIT = BAND_SUITS.index(METAL)
METAL_MASK = IDS.suit_mask[METAL_SUIT]
DECK_IDS = range(len(DECK))

# Every distinct bid: Zero Success, then every non-zero triple (0 0 0 *is* Zero Success).
ALL_BIDS: tuple[Bid, ...] = (ZERO,) + tuple(
    Bid(r, s, p) for r, s, p in product(range(MAX_BID + 1), repeat=3) if (r, s, p) != (0, 0, 0)
)
ASSIGN_ACTIONS: tuple[AssignMetal, ...] = tuple(AssignMetal(k) for k in BID_SUITS)
# Action ids: a play is its card id (0-39), then every bid in ALL_BIDS order, then the three
# ways to count a Metal win. A state's bids are indices into ALL_BIDS (0: Zero Success).
BID0 = len(DECK)
ASSIGN0 = BID0 + len(ALL_BIDS)
ACTIONS: tuple[Action, ...] = (*(Play(c) for c in DECK), *ALL_BIDS, *ASSIGN_ACTIONS)
BID_IDS = range(BID0, ASSIGN0)
ASSIGN_IDS = range(ASSIGN0, ASSIGN0 + len(ASSIGN_ACTIONS))
NO_BID = -1
ZERO_BID = 0  # the index of Zero Success in ALL_BIDS
BID_VALUES: tuple[tuple[int, int, int], ...] = tuple((b.rock, b.soul, b.pops) for b in ALL_BIDS)
BID_INDEX: dict[tuple[int, int, int], int] = {v: i for i, v in enumerate(BID_VALUES) if i != ZERO_BID}
# How a trick counts, in a compact trick: for a suit (0-2), as a Metal win of a Zero Success
# bidder (3), or not yet (the winner still chooses).
COUNTS_METAL = 3
NOT_COUNTED = -1


# --- the rules over ids (each written once; the Card-level helpers below call these) -------------


def _two_suit_winner(a: str, b: str) -> str:
    """The suit that wins a trick holding exactly the suits ``a`` and ``b`` (BT-5)."""
    if a == METAL:
        return b
    if b == METAL:
        return a
    return a if BEATS[a] == b else b


def _card_key(suits: int, index: int, card: int) -> int:
    """How strongly ``card``, played ``index``-th, places in a trick holding the suits of the
    mask ``suits`` (BT-5): the higher key places higher. One suit: the number; two suits: the
    winning suit above the other, then the number; three or more: the number, then the later."""
    count = suits.bit_count()
    if count == 1:
        return RANK[card]
    if count == 2:
        a, b = (BAND_SUITS[s] for s in range(4) if suits >> s & 1)
        top = BAND_SUITS.index(_two_suit_winner(a, b))
        return RANK[card] + (64 if SUIT[card] == top else 0)
    return RANK[card] * 8 + index


# KEY[suits][index][card]: _card_key as a table (the trick's suits, the card's place in play order)
KEY: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_card_key(m, i, c) for c in DECK_IDS) for i in range(5)) if m else () for m in range(16)
)


def _rank_ids(trick: Sequence[int]) -> tuple[int, ...]:
    """Play-order indices of the trick ``trick`` (card ids) from first place to last (BT-5)."""
    suits = 0
    for c in trick:
        suits |= 1 << SUIT[c]
    keys = KEY[suits]
    return tuple(sorted(range(len(trick)), key=lambda i: -keys[i][trick[i]]))


def _next_best(trick: tuple[int, ...], best: int, suits: int, card: int) -> int:
    """The play-order index of the card winning ``trick + (card,)``, given the index ``best``
    of the card winning ``trick`` and the mask ``suits`` of the suits in it (by :func:`_card_key`)."""
    i = len(trick)
    if not i:
        return 0
    more = suits | 1 << SUIT[card]
    keys = KEY[more]
    if more == suits:  # the same suits: the earlier cards keep their keys
        return i if keys[i][card] > keys[best][trick[best]] else best
    top, high = i, keys[i][card]
    for j in range(i):
        k = keys[j][trick[j]]
        if k > high:
            top, high = j, k
    return top


def _follows(follow: int, card: int) -> int:
    """The suit to follow after ``card`` is played to a trick whose suit to follow was ``follow``
    (-1: none yet): the first card that is not Metal sets it (BT-4)."""
    return follow if follow >= 0 or SUIT[card] == METAL_SUIT else SUIT[card]


# FOLLOWS[follow + 1][card]: _follows as a table
FOLLOWS: tuple[tuple[int, ...], ...] = tuple(tuple(_follows(f, c) for c in DECK_IDS) for f in range(-1, 4))


def _follow_of(trick: Sequence[int]) -> int:
    """The suit (index) to follow in ``trick`` (card ids), -1 while only Metal was played."""
    follow = -1
    for c in trick:
        follow = FOLLOWS[follow + 1][c]
    return follow


def _plays(hand: int, follow: int) -> tuple[int, str | None]:
    """The mask of the cards of ``hand`` that may be played when ``follow`` is the suit to
    follow (-1: none), and the rule that limited them (``None``: every card may be played).
    BT-4: holding the suit to follow, play that suit or Metal; otherwise anything."""
    if follow < 0:
        return hand, None
    allowed = follow_mask(hand, follow, IDS) | (hand & METAL_MASK)
    return allowed, ("bt.follow" if allowed != hand else None)


def _suit_points(bid: int, won: int) -> int:
    """BT-7 for one suit: the bid plus 1 when hit, else minus the distance to it."""
    return bid + 1 if won == bid else -abs(won - bid)


def _zero_points(tricks: int, players: int) -> int:
    """BT-7 for Zero Success."""
    return ZERO_SUCCESS_POINTS[players] if tricks == 0 else -tricks


# SUIT_POINTS[bid][won]: _suit_points as a table (a deal has at most 13 tricks)
SUIT_POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_suit_points(b, w) for w in range(max(CARDS_EACH.values()) + 2)) for b in range(MAX_BID + 1)
)


def _points_of(bid: int, won: Wins, players: int) -> int:
    """A deal's points (BT-7) for the bid ``bid`` (an index into ALL_BIDS) and the wins ``won``."""
    if bid == ZERO_BID:
        return _zero_points(won[0] + won[1] + won[2] + won[3], players)
    r, s, p = BID_VALUES[bid]
    return SUIT_POINTS[r][won[0]] + SUIT_POINTS[s][won[1]] + SUIT_POINTS[p][won[2]]


def _add_win(wins: Wins, index: int) -> Wins:
    if index == 0:
        return (wins[0] + 1, wins[1], wins[2], wins[3])
    if index == 1:
        return (wins[0], wins[1] + 1, wins[2], wins[3])
    if index == 2:
        return (wins[0], wins[1], wins[2] + 1, wins[3])
    return (wins[0], wins[1], wins[2], wins[3] + 1)


# --- the compact state ---------------------------------------------------------------------------


class LastTrick(NamedTuple):
    """The last completed trick, compactly: who led, its card ids in play order, the play-order
    index of the winning card, and what it counts for (0-2: Rock, Soul, Pops; 3: a Metal win of a
    Zero Success bidder; -1: its winner still chooses)."""

    leader: int
    ids: tuple[int, ...]
    winning: int
    counts: int


_COUNTED_TRICKS: dict[tuple[LastTrick, int], CountedTrick] = {}


def _counted_trick(last: LastTrick, players: int) -> CountedTrick:
    """``last`` as the :class:`CountedTrick` value object (built once per trick and table size)."""
    found = _COUNTED_TRICKS.get((last, players))
    if found is None:
        leader, ids, winning, counts = last
        seats = tuple((leader + i) % players for i in range(len(ids)))
        counts_for = None if counts == NOT_COUNTED else WIN_KEYS[counts]
        found = CountedTrick(leader, IDS.of(ids), seats, winning, None, counts_for)
        if len(_COUNTED_TRICKS) > 50_000:
            _COUNTED_TRICKS.clear()
        _COUNTED_TRICKS[(last, players)] = found
    return found


class BandOfTricksState(NamedTuple):
    """The whole state (the teacher's knowledge), compact: card ids, hands as bit masks.

    ``held[seat]`` is the seat's hand as a mask of card ids (:data:`IDS`), ``aside_mask`` the card
    left over with three players. ``bid_ids[seat]`` indexes :data:`ALL_BIDS` (0: Zero Success;
    -1: not bid yet). ``trick_ids`` is the current trick in play order, ``follow`` its suit to
    follow (0-2; -1 while only Metal was played), ``best`` the play-order index of the card
    winning it so far (-1: empty) and ``suits_in`` the mask of the suits in it. ``won[seat]``
    counts the seat's tricks this deal for Rock, Soul, Pops and, last, Metal wins of a Zero
    Success bidder (which count for no suit); ``won_masks[seat]`` are the cards of those tricks.
    ``deal_scores`` holds one tuple of seat scores per finished deal.

    The Card-valued fields of earlier versions read the same as properties: ``hands``,
    ``aside``, ``bids``, ``trick``, ``won_cards``, ``last_trick``.
    """

    seed: int
    phase: Phase
    to_play: int | None
    deal: int
    start_player: int
    held: tuple[int, ...]
    aside_mask: int
    bid_ids: tuple[int, ...]
    leader: int
    trick_ids: tuple[int, ...]
    follow: int
    best: int
    suits_in: int
    tricks_played: int
    won: tuple[Wins, ...]
    won_masks: tuple[int, ...]
    last: LastTrick | None
    deal_scores: tuple[tuple[int, ...], ...]

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        hand = IDS.hand
        return tuple(hand(m) for m in self.held)

    @property
    def aside(self) -> tuple[Card, ...]:
        return IDS.hand(self.aside_mask)

    @property
    def bids(self) -> tuple[Bid | None, ...]:
        return tuple(None if b < 0 else ALL_BIDS[b] for b in self.bid_ids)

    @property
    def trick(self) -> tuple[Card, ...]:
        return IDS.of(self.trick_ids)

    @property
    def won_cards(self) -> tuple[tuple[Card, ...], ...]:
        """The cards of the tricks each seat won this deal, in hand order."""
        hand = IDS.hand
        return tuple(hand(m) for m in self.won_masks)

    @property
    def last_trick(self) -> CountedTrick | None:
        last = self.last
        return None if last is None else _counted_trick(last, len(self.held))

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(d[s] for d in self.deal_scores) for s in range(len(self.held)))

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(sum(w) for w in self.won)

    def seat_of(self, index: int) -> int:
        """The seat that played card ``index`` of the current trick."""
        return (self.leader + index) % len(self.held)


# A state from its fields in order, without the keyword handling of the generated constructor
# (this is on every step of play).
_new_state = cast(Callable[[type[BandOfTricksState], tuple[object, ...]], BandOfTricksState], tuple.__new__)


class BandOfTricksCoreView(NamedTuple):
    """What one seat may see, compactly (for bots and the advisor): ``held`` has the seat's
    own hand mask and ``None`` for every other hand (every hand for the teacher, ``seat is
    None``). The other fields are those of :class:`BandOfTricksState`, all public."""

    seat: int | None
    phase: Phase
    to_play: int | None
    deal: int
    start_player: int
    held: tuple[int | None, ...]
    bid_ids: tuple[int, ...]
    leader: int
    trick_ids: tuple[int, ...]
    follow: int
    best: int
    suits_in: int
    tricks_played: int
    won: tuple[Wins, ...]


@dataclass(frozen=True, slots=True)
class BandOfTricksView:
    """What one seat may see (``seat is None``: the teacher, who sees every hand).

    ``hands[s]`` is ``None`` for a hand the seat may not see. Bids are public as soon as
    they are made. ``metal_choices`` lists the ways to count a Metal win while its winner
    chooses (phase ``assign``), each with its effect on that player's score.

    The compact fields the bots read: ``held`` (hand masks, ``None`` where hidden, like
    ``hands``), ``bid_ids``, ``trick_ids``, ``best`` and ``suits_in``, as in
    :class:`BandOfTricksState`.
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
    held: tuple[int | None, ...] = ()
    bid_ids: tuple[int, ...] = ()
    trick_ids: tuple[int, ...] = ()
    best: int = -1
    suits_in: int = 0

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


# --- facts: what the rules did, for the narrator -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealt(Fact):
    """A deal (``deal``, from 0) was dealt; ``seat`` is its start player."""

    kind: ClassVar[EventKind] = EventKind.DEAL
    deal: int


@dataclass(frozen=True, slots=True)
class BidMade(Fact):
    """``seat`` bid ``bid`` (an index into ALL_BIDS; public at once, BT-3); ``as_numbers``: Zero
    Success written as 0 in every suit; ``last``: the last bid of the deal."""

    kind: ClassVar[EventKind] = EventKind.BID
    bid: int
    last: bool
    as_numbers: bool = False


@dataclass(frozen=True, slots=True)
class Played(Fact):
    """``seat`` played the card ``card`` (an id) to the trick."""

    kind: ClassVar[EventKind] = EventKind.PLAY
    card: int


@dataclass(frozen=True, slots=True)
class TrickWon(Fact):
    """``seat`` won the trick ``trick``."""

    kind: ClassVar[EventKind] = EventKind.TRICK
    trick: LastTrick


@dataclass(frozen=True, slots=True)
class Counted(Fact):
    """``seat`` counted its Metal win for the suit ``suit`` (0-2: Rock, Soul, Pops)."""

    kind: ClassVar[EventKind] = EventKind.COUNT
    suit: int


@dataclass(frozen=True, slots=True)
class DealScored(Fact):
    """The deal was scored: ``scores`` per seat."""

    kind: ClassVar[EventKind] = EventKind.SCORE
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TiedForLead(Fact):
    """After the last deal, ``leaders`` share the highest total ``best``: another deal follows."""

    kind: ClassVar[EventKind] = EventKind.TIE
    leaders: tuple[int, ...]
    best: int


@dataclass(frozen=True, slots=True)
class Ended(Fact):
    """The match is over."""

    kind: ClassVar[EventKind] = EventKind.END


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


class BandOfTricks(CoreRules[BandOfTricksState]):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = TITLE
    aliases: ClassVar[tuple[str, ...]] = ("bt", "band_of_tricks")
    player_counts: ClassVar[tuple[int, ...]] = (3, 4, 5)
    rulebook: ClassVar[Rulebook] = RULEBOOK
    options_type: ClassVar[type[Options]] = BandOfTricksOptions
    capabilities: ClassVar[Capabilities] = CAPABILITIES
    match_option_names: ClassVar[tuple[str, ...]] = ("start_player",)
    options: BandOfTricksOptions

    def __init__(self, players: int, options: Options) -> None:
        super().__init__(players, options)
        self.set_actions(ACTIONS)
        self._each = CARDS_EACH[players]

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
        if state.phase is not ASSIGN or state.to_play is None:
            return ()
        seat = state.to_play
        return _metal_choices(ALL_BIDS[state.bid_ids[seat]], state.won[seat])

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

    @staticmethod
    def with_hands(state: BandOfTricksState, hands: tuple[int, ...]) -> BandOfTricksState:
        """The same state with the hands replaced: ``hands[seat]`` is a mask of card ids
        (:data:`IDS`, e.g. ``IDS.mask(cards)``). Unchecked: the caller deals every card once
        (for instance a sampled deal at the bid phase, to play it out)."""
        return state._replace(held=tuple(hands))

    # --- the core ----------------------------------------------------------------------------------

    def core_initial(
        self, seed: int, facts: Facts | None, start_player: int | None = None, **match_options: Any
    ) -> BandOfTricksState:
        if match_options:
            raise InvalidOption(f"{TITLE} has no match option {quote_names(match_options)}; use start_player")
        first = self.start_player(seed, start_player)
        return self._deal(seed, 0, first, (), facts)

    def _deal(
        self, seed: int, deal: int, start: int, deal_scores: tuple[tuple[int, ...], ...], facts: Facts | None
    ) -> BandOfTricksState:
        n = self.players
        held, aside = deal_hands(shuffled_ids(self, seed, deal, DECK_IDS), n, self._each)
        state = BandOfTricksState(
            seed,
            BID,
            start,
            deal,
            start,
            held,
            aside,
            (NO_BID,) * n,
            start,
            (),
            -1,
            -1,
            0,
            0,
            (NO_WINS,) * n,
            (0,) * n,
            None,
            deal_scores,
        )
        if facts is not None:
            facts.append((Dealt(start, deal), state))
        return state

    def core_legal(self, state: BandOfTricksState) -> Sequence[int]:
        phase = state.phase
        if phase is PLAY:
            seat = state.to_play
            if seat is None:
                return ()
            return bits(_plays(state.held[seat], state.follow)[0])
        if phase is BID:
            return BID_IDS
        if phase is ASSIGN:
            return ASSIGN_IDS
        return ()

    def core_step(self, state: BandOfTricksState, action: int, facts: Facts | None = None) -> BandOfTricksState:
        if action >= BID0:
            if action < ASSIGN0:
                return self._bid(state, action - BID0, facts)
            return self._assign(state, action - ASSIGN0, facts)
        # a card is played (the most frequent step of all, so it is written for speed)
        card = action
        (
            seed,
            phase,
            seat,
            deal,
            start,
            held,
            aside,
            bids,
            leader,
            before,
            follow,
            best,
            suits,
            played,
            won,
            masks,
            last,
            scores,
        ) = state
        assert seat is not None
        n = self.players
        held = held[:seat] + (held[seat] & ~(1 << card),) + held[seat + 1 :]
        trick = (*before, card)
        i = len(before)
        # the card winning so far (BT-5, by _card_key; see _next_best)
        more_suits = suits | 1 << SUIT[card]
        if not i:
            best = 0
        elif more_suits == suits:
            keys = KEY[suits]
            if keys[i][card] > keys[best][before[best]]:
                best = i
        else:
            best = _next_best(before, best, suits, card)
        follow = FOLLOWS[follow + 1][card]
        if i + 1 < n:
            new = _new_state(
                BandOfTricksState,
                (
                    seed,
                    PLAY,
                    (seat + 1) % n,
                    deal,
                    start,
                    held,
                    aside,
                    bids,
                    leader,
                    trick,
                    follow,
                    best,
                    more_suits,
                    played,
                    won,
                    masks,
                    last,
                    scores,
                ),
            )
            if facts is not None:
                facts.append((Played(seat, card), new))
            return new
        # the trick is complete: its winner takes it (BT-5) and it counts for a suit (BT-6)
        winner = (leader + best) % n
        top = SUIT[trick[best]]
        if top != METAL_SUIT:
            counts = top
        elif bids[winner] == ZERO_BID:
            counts = COUNTS_METAL
        else:
            counts = NOT_COUNTED
        if counts != NOT_COUNTED:
            won = won[:winner] + (_add_win(won[winner], counts),) + won[winner + 1 :]
        taken = masks[winner]
        for c in trick:
            taken |= 1 << c
        masks = masks[:winner] + (taken,) + masks[winner + 1 :]
        played += 1
        more = played < self._each
        if counts == NOT_COUNTED:  # the winner first chooses the suit (BT-6), then leads
            phase, lead, to_play = ASSIGN, leader, winner
        elif more:
            phase, lead, to_play = PLAY, winner, winner
        else:
            phase, lead, to_play = PLAY, leader, None
        done = LastTrick(leader, trick, best, counts)
        new = _new_state(
            BandOfTricksState,
            (
                seed,
                phase,
                to_play,
                deal,
                start,
                held,
                aside,
                bids,
                lead,
                (),
                -1,
                -1,
                0,
                played,
                won,
                masks,
                done,
                scores,
            ),
        )
        if facts is not None:
            full = state._replace(
                held=held, trick_ids=trick, follow=follow, best=best, suits_in=more_suits, to_play=None
            )
            facts.append((Played(seat, card), full))
            facts.append((TrickWon(winner, done), new))
        if counts == NOT_COUNTED or more:
            return new
        return self._end_deal(new, facts)

    def _bid(self, state: BandOfTricksState, bid: int, facts: Facts | None) -> BandOfTricksState:
        seed, phase, seat, deal, start, held, aside, bids, leader, *rest = state
        assert seat is not None
        bids = bids[:seat] + (bid,) + bids[seat + 1 :]  # public at once (BT-3): nothing to keep secret
        nxt = (seat + 1) % self.players
        if nxt == start:  # every bid is in: the start player leads (BT-3)
            phase, leader = PLAY, start
        new = _new_state(BandOfTricksState, (seed, phase, nxt, deal, start, held, aside, bids, leader, *rest))
        if facts is not None:
            facts.append((BidMade(seat, bid, nxt == start), new))
        return new

    def _assign(self, state: BandOfTricksState, suit: int, facts: Facts | None) -> BandOfTricksState:
        seat = state.to_play
        assert seat is not None and state.last is not None
        won = state.won
        won = won[:seat] + (_add_win(won[seat], suit),) + won[seat + 1 :]
        more = state.tricks_played < self._each
        new = state._replace(
            won=won,
            last=state.last._replace(counts=suit),
            phase=PLAY,
            leader=seat if more else state.leader,
            to_play=seat if more else None,
        )
        if facts is not None:
            facts.append((Counted(seat, suit), new))
        return new if more else self._end_deal(new, facts)

    def _end_deal(self, state: BandOfTricksState, facts: Facts | None) -> BandOfTricksState:
        n = self.players
        bids, won = state.bid_ids, state.won
        scores = tuple(_points_of(bids[s], won[s], n) for s in range(n))
        deal_scores = (*state.deal_scores, scores)
        new = state._replace(deal_scores=deal_scores, to_play=None)
        if facts is not None:
            facts.append((DealScored(None, scores), new))
        played = len(deal_scores)
        nxt = (state.start_player + 1) % n
        if played < n:
            return self._deal(state.seed, played, nxt, deal_scores, facts)
        totals = new.totals
        top = decide(totals, ()).tied
        if len(top) > 1 and played - n < self.options.max_extra_deals:  # BT-8: deal again
            if facts is not None:
                facts.append((TiedForLead(None, top, totals[top[0]]), new))
            return self._deal(state.seed, played, nxt, deal_scores, facts)
        over = new._replace(phase=OVER, to_play=None)
        if facts is not None:
            facts.append((Ended(None), over))
        return over

    def _apply(self, state: BandOfTricksState, action: Action, log: Log) -> BandOfTricksState:
        if log is None or not isinstance(action, Bid) or action.zero:
            return super()._apply(state, action, log)
        # Zero Success written as 0 in every suit is narrated as written
        facts: Facts = []
        new = self.core_step(state, self.listed_id(state, action), facts)
        for fact, after in facts:
            if isinstance(fact, BidMade) and fact.bid == ZERO_BID:
                fact = replace(fact, as_numbers=True)
            log.append((self.narrate(fact, after), after))
        return new

    # --- the checked API's refusals ------------------------------------------------------------------

    def canonical_action(self, state: BandOfTricksState, action: Action) -> Action:
        """A bid of 0 in all three suits is Zero Success (BT-3), listed as ``bid zero``."""
        if isinstance(action, Bid) and not action.zero and (action.rock, action.soul, action.pops) == (0, 0, 0):
            return ZERO
        return action

    def explain_illegal(self, state: BandOfTricksState, action: Action) -> IllegalAction:
        seat = state.to_play
        if seat is None:
            return illegal("bt.over", "the game is over: no more actions can be taken")
        name = self.seat_name(seat)
        phase = state.phase
        if phase is BID:
            if not isinstance(action, Bid):
                return illegal(
                    "bt.bid",
                    f"{name} must bid now: a number from 0 to 6 for Rock, Soul and Pops "
                    f"(like 'bid 1 3 0') or Zero Success ('bid zero'), not {quote_action(action)}",
                )
            refusal = _bid_refusal(action)
            return refusal or illegal("bt.bid", f"{quote_action(action)} is not a bid of {TITLE}")
        if phase is PLAY:
            if not isinstance(action, Play):
                return illegal("bt.trick", f"{name} must play a card now, not {quote_action(action)}")
            card = IDS.id.get(action.card)
            hand = state.held[seat]
            if card is None or not hand >> card & 1:
                return illegal("bt.hand", f"{name} does not hold {action.card}")
            allowed, rule = _plays(hand, state.follow)
            if rule is not None and not allowed >> card & 1:
                follow = state.follow
                suit = BAND_SUIT_NAME[BAND_SUITS[follow]]
                holding = IDS.card(lowest(hand & IDS.suit_mask[follow]))
                return illegal(
                    rule,
                    f"must follow {suit}: {suit} is the suit to follow in this trick and {name} holds "
                    f"{holding}, so {name} must play a {suit} card or a Metal card",
                )
            return illegal("bt.trick", f"{name} cannot play {action.card} now")
        return illegal(
            "bt.metal.assign",
            f"{name} won the last trick with Metal and first chooses the suit it counts for "
            f"('count rock', 'count soul' or 'count pops'), not {quote_action(action)}",
        )

    # --- the result and views --------------------------------------------------------------------------

    def result(self, state: BandOfTricksState) -> MatchResult | None:
        if state.phase is not OVER:
            return None
        n = self.players
        totals = state.totals
        # BT-8 breaks a tie by playing on (extra deals), not by comparing values: after the
        # deals, the highest total alone wins, or the leaders share the victory
        decided = decide(totals, ())
        top = decided.winners
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
        assert decided.tie_break is TieBreak.SHARED
        return MatchResult(
            totals,
            top,
            decided.tie_break,
            (
                Reason(
                    "bt.win.limit",
                    f"{names} are still tied on {plural(best, 'point')}{after}, the most extra deals allowed "
                    f"({self.options.max_extra_deals}): they share the victory.",
                ),
            ),
        )

    def view(self, state: BandOfTricksState, seat: int | None) -> BandOfTricksView:
        self.check_view_seat(seat)
        held = hidden_hands(state.held, seat)
        hand = IDS.hand
        bids = state.bid_ids
        follow = state.follow
        return BandOfTricksView(
            seat,
            state.phase,
            state.to_play,
            state.deal,
            self.players,
            state.start_player,
            tuple(None if m is None else hand(m) for m in held),
            tuple(m.bit_count() for m in state.held),
            state.aside_mask.bit_count(),
            tuple(None if b < 0 else ALL_BIDS[b] for b in bids),
            state.leader,
            IDS.of(state.trick_ids),
            None if follow < 0 else BAND_SUITS[follow],
            state.tricks_played,
            state.won,
            state.last_trick,
            self.metal_choices(state),
            state.deal_scores,
            state.totals,
            held,
            bids,
            state.trick_ids,
            state.best,
            state.suits_in,
        )

    def core_view(self, state: BandOfTricksState, seat: int | None) -> BandOfTricksCoreView:
        """What ``seat`` may see, compactly (no Card objects): for bots and the advisor. Unchecked
        ``seat`` (0 to players - 1, or ``None`` for the teacher)."""
        return BandOfTricksCoreView(
            seat,
            state.phase,
            state.to_play,
            state.deal,
            state.start_player,
            hidden_hands(state.held, seat),
            state.bid_ids,
            state.leader,
            state.trick_ids,
            state.follow,
            state.best,
            state.suits_in,
            state.tricks_played,
            state.won,
        )

    # --- narration: facts as events ----------------------------------------------------------------

    def narrate(self, fact: Fact, state: BandOfTricksState) -> Event:
        if isinstance(fact, Played):
            return self._played_event(fact, state)
        if isinstance(fact, TrickWon):
            return self._trick_event(fact, state)
        if isinstance(fact, BidMade):
            return self._bid_event(fact, state)
        if isinstance(fact, Counted):
            return self._count_event(fact, state)
        if isinstance(fact, Dealt):
            return self._deal_event(fact)
        if isinstance(fact, DealScored):
            return self._score_event(fact, state)
        if isinstance(fact, TiedForLead):
            names = _join(self.seat_name(s) for s in fact.leaders)
            return event(
                EventKind.TIE,
                None,
                f"{names} share the lead with {plural(fact.best, 'point')}, so an extra deal is played.",
                (Reason("bt.win.tie", RULEBOOK["bt.win.tie"].text),),
                leaders=fact.leaders,
            )
        if isinstance(fact, Ended):
            result = self.result(state)
            assert result is not None
            return event(EventKind.END, None, result.reasons[0].text, result.reasons, winners=result.winners)
        raise TypeError(f"{TITLE} has no fact {fact!r}")

    def _deal_event(self, fact: Dealt) -> Event:
        n = self.players
        deal, start = fact.deal, fact.seat
        assert start is not None
        aside_note = " One card is left over and goes back in the box unseen." if n * self._each < len(DECK) else ""
        if deal < n:
            title = f"Deal {deal + 1} of {n}"
            second = Reason("bt.deals", f"Deal {deal + 1}: {self.seat_name(start)} is the start player and bids first.")
        else:
            title = f"Extra deal {deal - n + 1}"
            second = Reason("bt.win.tie", "The highest total is shared, so an extra deal is played.")
        return event(
            EventKind.DEAL,
            start,
            f"{title}: everyone gets {self._each} cards; {self.seat_name(start)} is the start player.{aside_note}",
            (Reason("bt.deal", RULEBOOK["bt.deal"].text), second),
            deal=deal,
            start_player=start,
        )

    def _bid_event(self, fact: BidMade, state: BandOfTricksState) -> Event:
        seat = fact.seat
        assert seat is not None
        bid = ALL_BIDS[fact.bid]
        name = self.seat_name(seat)
        reasons: list[Reason] = []
        if bid.zero:
            if not fact.as_numbers:
                text = f"{name} bids Zero Success: no trick at all."
                reasons.append(Reason("bt.bid.zero", "Zero Success means winning no trick at all."))
            else:
                text = f"{name} bids 0 in every suit, which is Zero Success: no trick at all."
                reasons.append(Reason("bt.bid.zero", "A bid of 0 in all three suits is Zero Success."))
        else:
            total = bid.rock + bid.soul + bid.pops
            text = f"{name} bids Rock {bid.rock}, Soul {bid.soul}, Pops {bid.pops} ({plural(total, 'trick')} in all)."
            reasons.append(Reason("bt.bid", "Bids are public: everyone sees this bid."))
        if fact.last:
            text += f" All bids are in; {self.seat_name(state.start_player)} leads the first trick."
            reasons.append(Reason("bt.trick", "The start player leads the first trick."))
        return event(EventKind.BID, seat, text, reasons, bid=str(bid))

    def _played_event(self, fact: Played, state: BandOfTricksState) -> Event:
        seat = fact.seat
        assert seat is not None
        card = IDS.card(fact.card)
        before = state.trick_ids[:-1]
        name = self.seat_name(seat)
        reasons: list[Reason] = []
        follow = _follow_of(before)
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
        elif follow < 0:
            text = f"{name} plays {card}."
            why = "Only Metal has been played so far, so any card may be played."
            if card.suit != METAL:
                why += f" {card} now sets the suit to follow: {card.suit_name}."
            reasons.append(Reason("bt.follow.open", why, (card,)))
        else:
            suit = BAND_SUIT_NAME[BAND_SUITS[follow]]
            if SUIT[fact.card] == follow:
                text = f"{name} follows with {card}."
                reasons.append(Reason("bt.follow", f"{suit} is the suit to follow and {card} follows it.", (card,)))
            elif card.suit == METAL:
                text = f"{name} plays {card}."
                holds = bool(state.held[seat] & IDS.suit_mask[follow])  # a Metal card left the hand
                why = "Metal may always be played" + (f", even while holding {suit}." if holds else ".")
                reasons.append(Reason("bt.follow.metal", why, (card,)))
            else:
                text = f"{name} has no {suit} and plays {card}."
                reasons.append(Reason("bt.follow.void", f"No {suit} card in hand, so any card may be played.", (card,)))
        if before:
            text += f" {IDS.card(state.trick_ids[state.best])} is winning so far."
        return event(EventKind.PLAY, seat, text, reasons, card=card)

    def _trick_event(self, fact: TrickWon, state: BandOfTricksState) -> Event:
        last = _counted_trick(fact.trick, self.players)
        ranking = _rank_ids(fact.trick.ids)
        seats = tuple(last.seats[i] for i in ranking)
        winner = last.winner
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
        if state.tricks_played < self._each:
            reasons.append(Reason("bt.lead.next", f"{name} won the trick, so {name} leads the next one."))
        return event(
            EventKind.TRICK,
            winner,
            text,
            reasons,
            trick=last,
            cards=last.cards,
            ranking=ranking,
            seats=seats,
            leader=last.leader,
            counts_for=last.counts_for,
            choices=choices,
        )

    def _progress(self, state: BandOfTricksState, seat: int, key: str) -> str:
        bid = ALL_BIDS[state.bid_ids[seat]]
        won = state.won[seat]
        if bid.zero:
            return f"{plural(sum(won), 'trick')} won after bidding Zero Success"
        return f"{won[WIN_KEYS.index(key)]} won of {getattr(bid, key)} bid"

    def _count_event(self, fact: Counted, state: BandOfTricksState) -> Event:
        seat = fact.seat
        assert seat is not None and state.last is not None
        key = BID_SUITS[fact.suit]
        won = state.won[seat]
        k = fact.suit
        before: Wins = (won[0] - (k == 0), won[1] - (k == 1), won[2] - (k == 2), won[3])
        choice = _metal_choices(ALL_BIDS[state.bid_ids[seat]], before)[fact.suit]
        card = IDS.card(state.last.ids[state.last.winning])
        return event(
            EventKind.COUNT,
            seat,
            f"{self.seat_name(seat)} counts the Metal win for {LABEL[key]}: {self._progress(state, seat, key)}.",
            (Reason("bt.metal.assign", choice.text, (card,)),),
            counts_for=key,
        )

    def _score_event(self, fact: DealScored, state: BandOfTricksState) -> Event:
        n = self.players
        scores = fact.scores
        details = [_score(ALL_BIDS[state.bid_ids[s]], state.won[s], n) for s in range(n)]
        text = (
            f"Deal {state.deal + 1} scored: " + ", ".join(f"{self.seat_name(s)} {scores[s]:+d}" for s in range(n)) + "."
        )
        reasons = tuple(
            Reason(r.rule_id, f"{self.seat_name(s)}: {r.text}") for s in range(n) for r in details[s].reasons
        )
        return event(EventKind.SCORE, None, text, reasons, scores=scores, details=tuple(details))


# --- pure rule functions ------------------------------------------------------------------------


def _sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards of the deck in hand order (the order of their ids)."""
    return tuple(sorted(cards, key=IDS.id.__getitem__))


def _rank(trick: tuple[Card, ...]) -> tuple[int, ...]:
    """Play-order indices from first place to last (BT-5; see ``resolve_trick``)."""
    return _rank_ids(tuple(IDS.id[c] for c in trick))


def _to_follow(trick: tuple[Card, ...]) -> str | None:
    """The suit letter to follow in ``trick``, ``None`` while only Metal was played (BT-4)."""
    follow = _follow_of(tuple(IDS.id[c] for c in trick))
    return None if follow < 0 else BAND_SUITS[follow]


def _legal(hand: tuple[Card, ...], trick: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of ``hand`` (in its order) that may be played to ``trick`` (BT-4)."""
    ids = IDS.id
    allowed, _ = _plays(IDS.mask(hand), _follow_of(tuple(ids[c] for c in trick)))
    return tuple(c for c in hand if allowed >> ids[c] & 1)


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


def _bid_refusal(bid: Bid) -> IllegalAction | None:
    """Why the bid ``bid`` is not one of the bids offered (BT-3), or ``None`` if it is."""
    try:
        _check_bid_action(bid)
    except IllegalAction as exc:
        return exc
    return None


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
