"""Tricks & Stones: predict your tricks, then steer your gems into the matching chamber.

3 or 4 players, 32 cards (7 to Ace in four suits), four rounds with trumps ♠ ♥ ♦ ♣.
After every trick the players, from first place to last, place or move gems on a
board of six chambers numbered 0-5; a player scores the own gems in the chamber
matching the number of tricks they won, plus 3 if they predicted that number.

Rulings where the source text allows two readings are options (see ``RULEBOOK``):
``chambers="line"`` (TS-2) and ``first_lead_tie="left-of-dealer"`` (TS-3).

The rules run on the one core (:mod:`tricklab.games.core`): a compact state of card ids and
bit-mask hands (:class:`TricksAndStonesState`), numbered actions (:data:`ACTIONS`: a card's id
plays it, then predictions, Skip, placings and moves), and the round (``core_round``: the
engine's trick round on a Tricks & Stones deal, :class:`_Deal`) as the only implementation of
each rule; ``core_legal``/``core_step`` start it from a state, and ``explain_illegal`` says which
rule refuses an action from the same functions (:func:`_playable`, :func:`_leads`, the gem
tables). The round records small facts (:class:`CardPlayed`, :class:`TrickTaken`, ...) only
when asked; ``narrate`` turns them into the events learners read, apart from the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations
from typing import Any, ClassVar, NamedTuple, cast

from ...actions import Action, Move, Place, Play, Predict, Skip
from ...cards import FRENCH_SUITS, SUIT_NAME, SUIT_SYMBOL, Card, Deck, FrenchCard, rank_word
from ...errors import IllegalAction, InvalidOption, InvalidScoreInput, describe
from ...explain import Clause, Reason, Rulebook, and_list, plural
from ..base import (
    CardLike,
    Event,
    EventKind,
    MatchResult,
    Options,
    Score,
    ScoreLine,
    SeatView,
    TieBreak,
    Trick,
    TrickOutcome,
    Word,
    check_choice,
    illegal,
    quote_action,
    quote_names,
)
from ..capabilities import (
    TRUMP,
    Capabilities,
    ContextItems,
    Decision,
    DecisionKind,
    Example,
    Grouping,
    Level,
    Quiz,
    Ref,
    led_suit,
    off_suit,
    trump_of,
)
from ..core import (
    CardIds,
    Chose,
    Decisions,
    Fact,
    Facts,
    TrickDeal,
    TrickGame,
    deal_hands,
    decide,
    event,
    follow_mask,
    hidden_hands,
    lowest,
    mask_census,
    secrets_seen_by,
    shuffle_ids,
    shuffled_ids,
)

NAME = "tricks-and-stones"
TITLE = "Tricks & Stones"
RANKS = (7, 8, 9, 10, 11, 12, 13, 1)  # low to high: the Ace is high
STRENGTH = {rank: i for i, rank in enumerate(RANKS)}
TRUMPS = ("S", "H", "D", "C")  # round 1..4
ROUNDS = 4
CARDS_EACH = 8
CHAMBERS = 6
GEMS_EACH = 8
EXPEDITION_BONUS = 3
MAX_PREDICTION = 5


class Phase(Word):
    """What a round of Tricks & Stones is waiting for: secret predictions, a card, a place's
    gem action; ``OVER`` once the match has ended. Each member equals its word (``"play"``)."""

    PREDICT = "predict"
    PLAY = "play"
    GEMS = "gems"
    OVER = "over"


PREDICT, PLAY, GEMS, OVER = Phase.PREDICT, Phase.PLAY, Phase.GEMS, Phase.OVER

RULEBOOK = Rulebook(
    NAME,
    [
        Clause("ts.players", "Players", "Three or four people play, each on their own."),
        Clause(
            "ts.deck",
            "The deck",
            "32 cards: 7, 8, 9, 10, Jack, Queen, King and Ace in spades ♠, hearts ♥, diamonds ♦ "
            "and clubs ♣. Each card exists once.",
        ),
        Clause(
            "ts.card-order",
            "Card order",
            "Within a suit the Ace is highest, then King, Queen, Jack, 10, 9, 8 and 7 lowest.",
        ),
        Clause(
            "ts.deal",
            "The deal",
            "Everyone gets 8 cards. With three players the 8 cards left over stay face down, "
            "unseen, for the whole round.",
            ruling="TS-1",
        ),
        Clause(
            "ts.rounds",
            "Rounds and trumps",
            "A game has four rounds. The trump suit is ♠ in round 1, ♥ in round 2, ♦ in round 3 "
            "and ♣ in round 4. The dealer moves one seat clockwise each round.",
            ruling="TS-9",
        ),
        Clause(
            "ts.predict",
            "Predictions",
            "After looking at their cards, everyone secretly picks how many tricks (0 to 5) "
            "they will win and puts their expedition token in that chamber. The tokens are "
            "shown all at once and stay put for the round.",
        ),
        Clause(
            "ts.lead.first",
            "Who leads first",
            "Whoever predicted the fewest tricks plays the first card of the round. If several "
            "players tie on that lowest number, go round clockwise starting with the dealer's left "
            "neighbour (the dealer comes last); the first tied player you meet leads.",
            ruling="TS-3",
            option="first_lead_tie",
        ),
        Clause(
            "ts.trick",
            "A trick",
            "The leader plays a card, then everyone else in turn clockwise, one card each.",
        ),
        Clause(
            "ts.turn",
            "Taking turns",
            "Players act one at a time, in the order the rules give; nobody acts out of turn.",
        ),
        Clause("ts.hand", "Your own cards", "You can only play a card that is in your hand."),
        Clause(
            "ts.follow",
            "Follow suit",
            "Whenever you hold at least one card in the suit of the first card of the trick, "
            "the card you play has to be of that suit too.",
        ),
        Clause(
            "ts.follow.void",
            "Cannot follow",
            "If you have no card of the led suit, you may play any card, a trump too.",
        ),
        Clause(
            "ts.trump.lead",
            "Leading trump",
            "You may not lead a trump until trumps are broken, unless every card in your hand is a trump.",
        ),
        Clause(
            "ts.trump.break",
            "Breaking trumps",
            "Trumps become broken when someone who cannot follow the led suit plays a trump. "
            "Leading a trump from a hand of only trumps does not break them.",
            ruling="TS-4",
        ),
        Clause(
            "ts.rank.order",
            "Ranking a trick",
            "Every card of a trick gets a place, from first to last: first the trumps, then the "
            "cards of the led suit, then all the other cards.",
            ruling="TS-5",
        ),
        Clause(
            "ts.rank.trump",
            "Trumps first",
            "A trump beats every card that is not a trump.",
        ),
        Clause(
            "ts.rank.led",
            "Then the led suit",
            "A card of the led suit beats every card that is neither a trump nor of the led suit.",
        ),
        Clause(
            "ts.rank.offsuit",
            "Then the other suits",
            "Cards that are neither trump nor of the led suit are ordered by suit first "
            "(♠ above ♥ above ♦ above ♣) and only then by rank.",
            ruling="TS-5",
        ),
        Clause(
            "ts.rank.within",
            "Same suit",
            "Between two cards of the same suit, the higher card places higher.",
        ),
        Clause(
            "ts.rank.trump-led",
            "Trump led",
            "When a trump is led, the trump suit is also the led suit.",
            ruling="TS-5",
        ),
        Clause(
            "ts.lead.next",
            "Next leader",
            "When the gem actions of a trick are done, the trick's winner leads the next trick.",
        ),
        Clause(
            "ts.gems.order",
            "Gem actions in order",
            "After each trick, players take their gem actions from first place to last place, "
            "one at a time; each sees the board as the one before left it.",
            ruling="TS-6",
        ),
        Clause(
            "ts.gems.places",
            "What each place may do",
            "With four players: first place may Place 2 or Move 2, second Place 1 or Move 1, "
            "third Move 1, last place nothing. With three players: first Place 2 or Move 2, "
            "second Place 1 or Move 1, last Move 1.",
        ),
        Clause(
            "ts.gems.either",
            "Place or Move, not both",
            "A player who may Place or Move picks one of the two for this trick.",
        ),
        Clause(
            "ts.gems.fewer",
            "Fewer points are fine",
            "You may always use fewer points than allowed, even none.",
            ruling="TS-6",
        ),
        Clause(
            "ts.place",
            "Place",
            "Placing puts one of your own gems from your supply into a chamber. Everyone has 8 "
            "gems each round; with none left in your supply you cannot Place.",
            ruling="TS-7",
        ),
        Clause(
            "ts.place.expedition",
            "Not into your expedition chamber",
            "You may never Place a gem into the chamber that holds your own expedition token.",
            ruling="TS-7",
        ),
        Clause(
            "ts.place.distinct",
            "Two gems, two chambers",
            "When you Place two gems they go into two different chambers.",
        ),
        Clause(
            "ts.move",
            "Move",
            "One Move point moves one of your own gems to a neighbouring chamber. With two points "
            "you may take one gem two chambers along, or two gems one chamber each. Moving into or "
            "through your expedition chamber is allowed.",
            ruling="TS-7",
        ),
        Clause(
            "ts.board",
            "The board",
            "The chambers 0 to 5 stand in a line: 0 and 5 are not neighbours, and a gem can never leave the board.",
            ruling="TS-2",
            option="chambers",
        ),
        Clause(
            "ts.score.chamber",
            "Scoring your chamber",
            "At the end of a round, count your tricks; you score one point for each of your own "
            "gems in the chamber with that number. Other players' gems score nothing for you.",
            ruling="TS-8",
        ),
        Clause(
            "ts.score.bonus",
            "Expedition bonus",
            "If your tricks equal your prediction, you also score the 3-point expedition bonus.",
            ruling="TS-8",
        ),
        Clause(
            "ts.score.over",
            "Six tricks or more",
            "With 6, 7 or 8 tricks there is no matching chamber: the round scores 0.",
            ruling="TS-8",
        ),
        Clause(
            "ts.score.reset",
            "After scoring",
            "All gems and expedition tokens go back to their owners for the next round.",
            ruling="TS-8",
        ),
        Clause(
            "ts.win",
            "Winning",
            "After four rounds the highest total wins.",
            ruling="TS-9",
        ),
        Clause(
            "ts.win.tie",
            "Ties",
            "If totals are tied, the tied player with more exact predictions wins; if that is "
            "tied too, they share the victory.",
            ruling="TS-9",
        ),
        Clause("ts.over", "The end", "When the fourth round is scored the game is over."),
        Clause(
            "ts.undo",
            "Taking a decision back",
            "In tricklab the last decision can be taken back (undo), together with everything the rules "
            "did by themselves after it; before the first decision there is nothing to take back.",
        ),
    ],
)

# Gem allowances by place: (Place points, Move points).
ALLOWANCES = {
    4: ((2, 2), (1, 1), (0, 1), (0, 0)),
    3: ((2, 2), (1, 1), (0, 1)),
}
PLACE_NAMES = ("first", "second", "third", "fourth")


@dataclass(frozen=True, slots=True)
class TricksAndStonesOptions(Options):
    """Rule options. ``chambers``: ``"line"`` (TS-2, default) or ``"ring"`` (0 and 5
    neighbours). ``first_lead_tie``: where the clockwise search for the first leader among
    tied lowest predictions starts, ``"left-of-dealer"`` (TS-3, default) or ``"dealer"``."""

    chambers: str = "line"
    first_lead_tie: str = "left-of-dealer"


# --- card ids, tables and the compact state -------------------------------------------------------

# The deck in hand order (suits ♠ ♥ ♦ ♣, each from 7 up to the Ace): card id = suit * 8 + strength,
# so the set bits of a hand's mask, lowest first, are the hand as it is sorted (and the deck's own
# order is the same, so a seed shuffles the ids into the deal it always gave).
IDS = CardIds(tuple(FrenchCard(suit, rank) for suit in FRENCH_SUITS for rank in RANKS), FRENCH_SUITS)
SUIT_INDEX = {suit: i for i, suit in enumerate(FRENCH_SUITS)}
NO_TRUMP = 4  # the trump index of a trick without trump (a quiz may ask for one)
assert TRUMPS == FRENCH_SUITS


def _place_value(card: int, led: int, trump: int) -> int:
    """Where ``card`` places in a trick led in suit ``led`` (TS-5): higher places higher. Trumps
    first, then the led suit, then the other suits in the order ♠ ♥ ♦ ♣, each by rank."""
    suit, strength = card >> 3, card & 7
    if suit == trump:
        return 48 + strength
    if suit == led:
        return 32 + strength
    return (3 - suit) * 8 + strength


# _VALUE[trump][led][card]: the values are distinct within a trick, so ranking never ties
_VALUE = tuple(tuple(tuple(_place_value(c, led, t) for c in range(32)) for led in range(4)) for t in range(5))
_TRUMP_MASK = (*IDS.suit_mask, 0)


def _ranking(ids: tuple[int, ...], trump: int) -> tuple[int, ...]:
    """The play-order indices of the trick ``ids``, first place to last (TS-5)."""
    value = _VALUE[trump][ids[0] >> 3]
    values = [value[c] for c in ids]
    return tuple(sorted(range(len(ids)), key=values.__getitem__, reverse=True))


_TRICKS: dict[tuple[tuple[int, ...], str, int], Trick] = {}  # (last, trump, players) -> the Trick


class TricksAndStonesState(NamedTuple):
    """The whole state (the teacher's knowledge), compact: card ids and bit-mask hands.

    ``held[s]`` is seat ``s``'s hand as a mask of card ids (:data:`IDS`), ``set_aside`` the
    mask of the cards dealt aside (three players), ``played`` the current trick's card ids in
    play order, ``taken[s]`` the mask of the cards seat ``s`` has won this round and ``last``
    the last completed trick as ``(leader, winner, card ids...)`` (``()`` before the first trick of a
    round). ``board[seat][chamber]`` counts a seat's own gems. The same facts as cards are
    read-only properties: ``hands``, ``aside``, ``trick``, ``won_cards``, ``last_trick``.

    Immutable like every state; a NamedTuple of ints and small tuples, so a step is one tuple.
    """

    seed: int
    phase: Phase
    to_play: int | None
    round: int
    dealer: int
    trump: str
    held: tuple[int, ...]
    set_aside: int
    predictions: tuple[int | None, ...]
    leader: int
    played: tuple[int, ...]
    tricks_played: int
    trump_broken: bool
    tricks_won: tuple[int, ...]
    taken: tuple[int, ...]
    board: tuple[tuple[int, ...], ...]
    supply: tuple[int, ...]
    gem_queue: tuple[tuple[int, int], ...]  # (seat, place index) still to act, current first
    last: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    exact: tuple[int, ...]

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    @property
    def totals(self) -> tuple[int, ...]:
        if not self.round_scores:
            return (0,) * len(self.held)
        return tuple(map(sum, zip(*self.round_scores, strict=True)))

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every hand as cards, sorted."""
        return IDS.hands(self.held)

    @property
    def aside(self) -> tuple[Card, ...]:
        """The cards dealt aside, unseen (three players; TS-1)."""
        return IDS.hand(self.set_aside)

    @property
    def trick(self) -> tuple[Card, ...]:
        """The current trick's cards in play order."""
        return IDS.of(self.played)

    @property
    def won_cards(self) -> tuple[tuple[Card, ...], ...]:
        """The cards each seat has won this round."""
        return IDS.hands(self.taken)

    @property
    def last_trick(self) -> Trick | None:
        """The last completed trick of the round, with every place (``None`` before the first)."""
        last = self.last
        if not last:
            return None
        key = (last, self.trump, len(self.held))
        found = _TRICKS.get(key)
        if found is None:  # remembered: every view and timeline step asks for it again
            if len(_TRICKS) > 50_000:
                _TRICKS.clear()
            ids = last[2:]
            ranking = _ranking(ids, SUIT_INDEX[self.trump])
            found = _TRICKS[key] = Trick.ranked(last[0], IDS.of(ids), ranking, len(self.held), places=True)
        return found

    def seat_of(self, index: int) -> int:
        """The seat that played card ``index`` of the current trick."""
        return (self.leader + index) % len(self.held)


class TricksAndStonesSeatView(NamedTuple):
    """What the heuristic bot reads of one seat's view, as ints: the cheap view a play-out
    builds for every decision (:meth:`TricksAndStones.core_view`). Only the seat's own hand,
    prediction, tricks and gems, and the public trick; nothing another seat hides."""

    seat: int
    players: int
    phase: Phase
    trump: int  # suit index (0-3 for ♠ ♥ ♦ ♣)
    hand: int  # the seat's hand as a mask of card ids
    trick: tuple[int, ...]  # the current trick's card ids in play order
    prediction: int | None  # the seat's own prediction
    won: int  # tricks the seat has won this round
    board: tuple[int, ...]  # the seat's own gems per chamber


class TricksAndStonesView(NamedTuple):
    """What one seat may see (``seat is None``: the teacher, who sees every hand).

    ``hands[s]`` is ``None`` for a hand the seat may not see; ``predictions[s]`` is
    ``None`` until all predictions are revealed (except the seat's own). ``core`` is the
    seat's compact view, which the bot reads (``None`` for the teacher). Immutable; a
    NamedTuple because a bot loop builds one for every decision.
    """

    seat: int | None
    phase: Phase
    to_play: int | None
    round: int
    dealer: int
    trump: str
    hands: tuple[tuple[Card, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    predictions: tuple[int | None, ...]
    predicted: tuple[bool, ...]
    leader: int
    trick: tuple[Card, ...]
    trump_broken: bool
    tricks_won: tuple[int, ...]
    board: tuple[tuple[int, ...], ...]
    supply: tuple[int, ...]
    gem_queue: tuple[tuple[int, int], ...]
    last_trick: Trick | None
    round_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    exact: tuple[int, ...]
    core: TricksAndStonesSeatView | None = None

    @property
    def hand(self) -> tuple[Card, ...]:
        if self.seat is None:
            return ()
        own = self.hands[self.seat]
        return own if own is not None else ()


# --- what the game offers ------------------------------------------------------------------------


def ts_no_trump(outcome: TrickOutcome) -> bool:
    """Quiz level 1: no trump, and at least two cards of the led suit to compare."""
    return trump_of(outcome) is None and sum(card.suit == led_suit(outcome) for card in outcome.cards) >= 2


def ts_trump(outcome: TrickOutcome) -> bool:
    """Quiz level 2: a trump suit is set and at least one trump is in the trick."""
    trump = trump_of(outcome)
    return trump is not None and any(card.suit == trump for card in outcome.cards)


def ts_off_suit_places(outcome: TrickOutcome) -> bool:
    """Quiz level 3: a trump suit is set and two or more cards of two or more other suits
    (neither trump nor led) need their places sorted out."""
    off = off_suit(outcome)
    return trump_of(outcome) is not None and len(off) >= 2 and len({card.suit for card in off}) >= 2


_NO_TRUMP: tuple[ContextItems, ...] = ((("trump", None),),)
_TRUMPS: tuple[ContextItems, ...] = tuple((("trump", suit),) for suit in "SHDC")

CAPABILITIES = Capabilities(
    decision=Decision(DecisionKind.PREDICTION, PREDICT, "ts.predict", tuple(range(CHAMBERS))),
    context=(TRUMP,),
    quiz=Quiz(
        (
            Level(
                1,
                "The led suit, before trumps",
                "A first step: in these tricks no suit is trump (in a real round one always is: level 2). "
                "The highest card of the suit that was led wins; the other suits cannot win.",
                ts_no_trump,
                (2, 3, 4),
                _NO_TRUMP,
            ),
            Level(
                2,
                "Trumps",
                "One suit is trump. A trump beats every card that is not a trump, however high.",
                ts_trump,
                (2, 3, 4),
                _TRUMPS,
            ),
            Level(
                3,
                "Every place",
                "Every card gets a place: trumps first, then the led suit, then the other suits in the "
                "order ♠ ♥ ♦ ♣, each from high to low. Put the cards in order from first place to last.",
                ts_off_suit_places,
                (3, 4),
                _TRUMPS,
                podium=True,
            ),
        ),
        # every place of a trick earns its gem actions (ts.gems.places)
        podium="each place earns gems",
    ),
    panels=(
        Ref("tricklab.games.tricks_and_stones.panel:chambers"),
        Ref("tricklab.games.tricks_and_stones.panel:podium"),
        Ref("tricklab.games.tricks_and_stones.panel:round_scores"),
    ),
    bots=(("heuristic", Ref("tricklab.games.tricks_and_stones.bots:HeuristicBot")),),
    advice=Ref("tricklab.games.tricks_and_stones.advice:TS_ADVICE"),
    review=Ref("tricklab.games.tricks_and_stones.review:TS_REVIEW"),
    option_values=(("chambers", ("ring",)), ("first_lead_tie", ("dealer",))),
    # the four gem actions after a trick are part of its entry in a move list
    grouping=Grouping(follows=("gems",)),
    examples=(
        Example("play.ipynb", "", "players=4"),
        Example("quiz.ipynb", "", "players=4&seed=1"),
        Example("bid_trainer.ipynb", "", "players=4&seed=12"),
        Example("explain_trick.ipynb", "", "players=4&cards=7H,AH,8S,KD"),
        Example("replay.ipynb", "", "players=4&seed=7"),
    ),
)


# --- the actions, numbered ---------------------------------------------------------------------------


def _adjacent(a: int, b: int, ring: bool) -> bool:
    d = abs(a - b)
    return d == 1 or (ring and d == CHAMBERS - 1)


_NEIGHBOURS = {
    ring: tuple(tuple(b for b in range(CHAMBERS) if _adjacent(a, b, ring)) for a in range(CHAMBERS))
    for ring in (False, True)
}
_STEPS = tuple((a, b) for a in range(CHAMBERS) for b in _NEIGHBOURS[True][a])  # every step, ring or line

# Action ids: a card's id plays it (0-31), then the predictions 0-5, Skip, the placings (one
# chamber, then two chambers lowest first) and every move of one or two steps. The ids mean the
# same with either board; which are listed depends on the board, the place and the gems.
PREDICT_ID = len(IDS)  # Predict(k) is PREDICT_ID + k
SKIP_ID = PREDICT_ID + MAX_PREDICTION + 1
_PLACINGS: tuple[tuple[int, ...], ...] = (*((c,) for c in range(CHAMBERS)), *combinations(range(CHAMBERS), 2))
_PATHS: tuple[tuple[tuple[int, int], ...], ...] = (*((s,) for s in _STEPS), *((s, t) for s in _STEPS for t in _STEPS))
PLACE_ID = SKIP_ID + 1
MOVE_ID = PLACE_ID + len(_PLACINGS)
ACTIONS: tuple[Action, ...] = (
    *(Play(card) for card in IDS.cards),
    *(Predict(k) for k in range(MAX_PREDICTION + 1)),
    Skip(),
    *(Place(chambers) for chambers in _PLACINGS),
    *(Move(path) for path in _PATHS),
)
_PLACE_IDS = {chambers: PLACE_ID + i for i, chambers in enumerate(_PLACINGS)}
_MOVE_IDS = {path: MOVE_ID + i for i, path in enumerate(_PATHS)}
# the change an action id makes to its player's gems per chamber (Skip and non-gem ids: none)
_GEM_DELTA: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (sum(c == k for c in a.chambers) if isinstance(a, Place) else 0)
        + (sum((b == k) - (s == k) for s, b in a.steps) if isinstance(a, Move) else 0)
        for k in range(CHAMBERS)
    )
    for a in ACTIONS
)
_PLACED = tuple(len(a.chambers) if isinstance(a, Place) else 0 for a in ACTIONS)  # gems taken from the supply
_PREDICT_IDS = tuple(range(PREDICT_ID, PREDICT_ID + MAX_PREDICTION + 1))


@lru_cache(maxsize=65536)
def _gem_table(
    own: tuple[int, ...], prediction: int, place_points: int, move_points: int, ring: bool
) -> tuple[tuple[int, ...], dict[int, tuple[int, ...]]]:
    """Every distinct gem action (TS-6, TS-7) as action ids, listed in order, mapped to the
    player's gems after it: Skip, each placing (:func:`_placings`), then each move
    (:func:`_moves`). ``place_points`` is already capped by the gems left in the supply.
    Cached: one table per board, prediction and allowance."""
    after: dict[int, tuple[int, ...]] = {SKIP_ID: own}
    if place_points >= 1:
        after.update(_placings(own, prediction, place_points))
    if move_points >= 1:
        after.update(_moves(own, move_points, ring))
    return tuple(after), after


@lru_cache(maxsize=16384)
def _placings(own: tuple[int, ...], prediction: int, points: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Each placing of up to ``points`` gems with its result: one gem into any chamber but the
    expedition chamber, two gems into two different such chambers (TS-7)."""
    out = []
    eligible = [c for c in range(CHAMBERS) if c != prediction]
    for c in eligible:
        out.append((_PLACE_IDS[(c,)], own[:c] + (own[c] + 1,) + own[c + 1 :]))
    if points >= 2:
        for a, b in combinations(eligible, 2):
            layout = list(own)
            layout[a] += 1
            layout[b] += 1
            out.append((_PLACE_IDS[(a, b)], tuple(layout)))
    return tuple(out)


@lru_cache(maxsize=16384)
def _moves(own: tuple[int, ...], points: int, ring: bool) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Each move of up to ``points`` steps to a neighbouring chamber (TS-7) whose result differs
    from ``own`` and from every move found before it (the first path found, shortest first).
    Apart from the placings: it does not depend on the prediction."""
    out = []
    seen = {own}
    frontier: list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = [(own, ())]
    neighbours = _NEIGHBOURS[ring]
    for _ in range(points):
        nxt = []
        for board, steps in frontier:
            for a in range(CHAMBERS):
                if not board[a]:
                    continue
                for b in neighbours[a]:
                    moved = list(board)
                    moved[a] -= 1
                    moved[b] += 1
                    result = tuple(moved)
                    path = (*steps, (a, b))
                    nxt.append((result, path))
                    if result not in seen:
                        seen.add(result)
                        out.append((_MOVE_IDS[path], result))
        frontier = nxt
    return tuple(out)


@lru_cache(maxsize=65536)
def _gem_options(
    own: tuple[int, ...], prediction: int, place_points: int, move_points: int, ring: bool
) -> dict[Action, tuple[int, ...]]:
    """Every distinct gem action, mapped to the player's gems after it: skip, each
    placing, and each move whose result differs from every other listed one (the actions of
    :func:`_gem_table`). Cached: callers never change the dict."""
    _, after = _gem_table(own, prediction, place_points, move_points, ring)
    return {ACTIONS[a]: layout for a, layout in after.items()}


# --- facts: what the rules did, for the narrator ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealt(Fact):
    """A round's cards were dealt (``seat``: the dealer)."""

    kind: ClassVar[EventKind] = EventKind.DEAL
    round: int
    trump: str
    aside: bool  # 8 cards stay aside, unseen (three players)


@dataclass(frozen=True, slots=True)
class Predicted(Chose):
    """A seat put its expedition token down in secret: ``value`` is the prediction, ``None``
    in the copy another seat sees before the reveal."""


@dataclass(frozen=True, slots=True)
class Revealed(Fact):
    """The tokens were shown together and the first leader found (TS-3)."""

    kind: ClassVar[EventKind] = EventKind.REVEAL
    predictions: tuple[int, ...]
    leader: int
    tied: tuple[int, ...]  # the seats on the lowest prediction, in the clockwise search's order
    from_dealer: bool  # the search starts at the dealer (first_lead_tie="dealer")


@dataclass(frozen=True, slots=True)
class CardPlayed(Fact):
    """``seat`` played card ``card``; ``trick`` is the trick with it (card ids, play order)."""

    kind: ClassVar[EventKind] = EventKind.PLAY
    card: int
    trick: tuple[int, ...]
    broken_before: bool
    breaks: bool  # this card broke trumps


@dataclass(frozen=True, slots=True)
class TrickTaken(Fact):
    """Trick ``number`` (1-8) is complete; ``seat`` won it. ``places`` are the seats from first
    place to last and ``ranking`` the play-order indices in that order."""

    kind: ClassVar[EventKind] = EventKind.TRICK
    number: int
    leader: int
    cards: tuple[int, ...]
    ranking: tuple[int, ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GemsTaken(Fact):
    """``seat``'s gem action for finishing ``place``: the action id, or ``None`` when the place
    offered no choice and the rules moved on by themselves."""

    kind: ClassVar[EventKind] = EventKind.GEMS
    place: int
    action: int | None


@dataclass(frozen=True, slots=True)
class RoundScored(Fact):
    """The round was scored (TS-8) from the predictions, tricks and boards it ended with."""

    kind: ClassVar[EventKind] = EventKind.SCORE
    predictions: tuple[int, ...]
    tricks: tuple[int, ...]
    boards: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchEnded(Fact):
    """The fourth round was scored: the match is over."""

    kind: ClassVar[EventKind] = EventKind.END


_new = tuple.__new__


def _playable(hand: int, trick: tuple[int, ...], trump: int, broken: bool) -> tuple[int, str | None]:
    """The cards of ``hand`` (a mask) that may be played to ``trick`` (card ids), and the rule
    that kept the others back (``None``: the whole hand may be played). Follow the led suit if
    you can (``ts.follow``); lead a trump only once trumps are broken or from a hand of nothing
    but trumps (``ts.trump.lead``)."""
    if trick:
        mask = follow_mask(hand, trick[0] >> 3, IDS)
        return mask, ("ts.follow" if mask != hand else None)
    mask = _leads(hand, trump, broken)
    return mask, ("ts.trump.lead" if mask != hand else None)


def _leads(hand: int, trump: int, broken: bool) -> int:
    """The cards of ``hand`` (a mask) that may lead a trick: a trump only once trumps are broken
    or from a hand of nothing but trumps (``ts.trump.lead``)."""
    return hand if broken else hand & ~_TRUMP_MASK[trump] or hand


def _points(prediction: int, tricks: int, own: tuple[int, ...]) -> tuple[int, int]:
    """A round's points (TS-8): the own gems in the chamber of the tricks won and the expedition
    bonus for an exact prediction; with 6 tricks or more there is no chamber and no points."""
    if tricks > MAX_PREDICTION:
        return 0, 0
    return own[tricks], EXPEDITION_BONUS if prediction == tricks else 0


class TricksAndStones(TrickGame[TricksAndStonesState, "_Deal"]):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = TITLE
    aliases: ClassVar[tuple[str, ...]] = ("ts", "tricks_and_stones", "tricks & stones")
    player_counts: ClassVar[tuple[int, ...]] = (3, 4)
    rulebook: ClassVar[Rulebook] = RULEBOOK
    options_type: ClassVar[type[Options]] = TricksAndStonesOptions
    state_type: ClassVar[type] = TricksAndStonesState
    view_type: ClassVar[type] = TricksAndStonesView
    capabilities: ClassVar[Capabilities] = CAPABILITIES
    options: TricksAndStonesOptions

    def __init__(self, players: int, options: Options) -> None:
        super().__init__(players, options)
        assert isinstance(options, TricksAndStonesOptions)
        self.set_actions(ACTIONS)
        self._ring = options.chambers == "ring"
        self._allowances = ALLOWANCES.get(players, ())
        self._next = tuple((s + 1) % players for s in range(players))
        self._dealt: tuple[tuple[int, int], tuple[tuple[int, ...], int]] = ((-1, -1), ((), 0))
        self._kept: tuple[object, tuple[tuple[int, ...], dict[int, tuple[int, ...]]]] = (None, ((), {}))
        # (leader, ranking) -> the seats from first place to last and their gem queue
        self._podiums: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = {}
        for leader in range(players):
            for ranking in permutations(range(players)):
                places = tuple((leader + i) % players for i in ranking)
                self._podiums[leader, ranking] = places, tuple(zip(places, range(players), strict=True))

    def _check_options(self) -> None:
        check_choice(TITLE, "chambers", self.options.chambers, ("line", "ring"))
        check_choice(TITLE, "first_lead_tie", self.options.first_lead_tie, ("left-of-dealer", "dealer"))

    def _build_deck(self) -> Deck:
        return Deck(TITLE, FrenchCard, IDS.cards)

    @property
    def max_decisions(self) -> int:
        """Four rounds; each has one prediction per player and 8 tricks of one card per player,
        each followed by one gem decision per place (Place, Move or skip: TS-6)."""
        n = self.players
        return ROUNDS * (n + CARDS_EACH * 2 * n)

    def unseen_by(self, before: TricksAndStonesState, action: Action, seat: int, now: TricksAndStonesState) -> bool:
        """Another seat's prediction is secret until every prediction of the round is in (TS-3)."""
        return (
            isinstance(action, Predict)
            and before.to_play != seat
            and now.round == before.round
            and now.phase is PREDICT
        )

    def pieces(self, state: TricksAndStonesState) -> Counter[object]:
        return mask_census((*state.held, state.set_aside, *state.taken), state.played)

    # --- public rules API ----------------------------------------------------------------------

    def gem_allowance(self, place: int) -> tuple[int, int]:
        """``(place points, move points)`` for finishing ``place`` (0 = first)."""
        return ALLOWANCES[self.players][place]

    def describe_allowance(self, place: int) -> str:
        p, m = self.gem_allowance(place)
        if p and m:
            return f"Place {p} or Move {m}"
        if m:
            return f"Move {m}"
        return "no gem action"

    def parse_trump(self, trump: object) -> str | None:
        if trump is None:
            return None
        if isinstance(trump, str):
            text = trump.strip()
            for suit in FRENCH_SUITS:
                if text.upper() == suit or text == SUIT_SYMBOL[suit] or text.lower() == SUIT_NAME[suit].lower():
                    return suit
        raise InvalidOption(
            f"trump must be one of S, H, D, C (or ♠ ♥ ♦ ♣), or None for no trump; not {describe(trump)}",
            rule_id="ts.rounds",
        )

    _MISSING: ClassVar[object] = object()

    def resolve_trick(self, cards: Iterable[CardLike] | str, trump: object = _MISSING, **context: Any) -> TrickOutcome:
        """Rank a (possibly partial) trick, first place to last. ``trump="S"`` etc. is required
        (``None`` explicitly means a trick without trump, as a quiz may ask)."""
        if context:
            raise InvalidOption(f"resolve_trick takes trump=..., not {quote_names(context)}")
        if trump is self._MISSING:
            raise InvalidOption("Tricks & Stones tricks need the trump suit: resolve_trick(cards, trump='S')")
        suit = self.parse_trump(trump)
        played = self._trick(cards)
        if not played:
            raise InvalidOption("a trick needs at least one card to rank", rule_id="ts.trick")
        return TrickOutcome(NAME, played, _rank(played, suit), _explain_trick, {"trump": suit})

    def legal_plays(
        self,
        hand: Iterable[CardLike] | str,
        trick: Iterable[CardLike] | str = (),
        trump: object = _MISSING,
        trump_broken: bool = False,
        **context: Any,
    ) -> tuple[Card, ...]:
        """The cards of ``hand`` that may be played to ``trick`` (follow suit, TS-4)."""
        if context:
            raise InvalidOption(f"legal_plays takes trump= and trump_broken=, not {quote_names(context)}")
        if trump is self._MISSING:
            raise InvalidOption("Tricks & Stones needs the trump suit: legal_plays(hand, trick, trump='S')")
        if not isinstance(trump_broken, bool):
            raise InvalidOption(f"trump_broken must be True or False, not {describe(trump_broken)}")
        cards, played = self._hand_and_trick(hand, trick)
        return _legal(cards, played, self.parse_trump(trump), trump_broken)

    def score_round(self, *, prediction: int, tricks: int, gems: Iterable[int]) -> Score:
        """A round's score (TS-8): own gems in chamber ``tricks`` plus 3 for an exact prediction.

        ``gems`` is the player's own gem count in chambers 0..5.
        """
        if isinstance(prediction, bool) or not isinstance(prediction, int) or not 0 <= prediction <= MAX_PREDICTION:
            raise InvalidScoreInput(
                f"a prediction is a whole number from 0 to 5, not {describe(prediction)}",
                rule_id="ts.predict",
            )
        if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= CARDS_EACH:
            raise InvalidScoreInput(
                f"tricks won in a round is a whole number from 0 to {CARDS_EACH}, not {describe(tricks)}",
                rule_id="ts.score.chamber",
            )
        layout = tuple(gems) if isinstance(gems, Iterable) and not isinstance(gems, (str, bytes)) else ()
        if len(layout) != CHAMBERS or any(isinstance(g, bool) or not isinstance(g, int) or g < 0 for g in layout):
            raise InvalidScoreInput(
                f"gems must list the player's own gem count in each of the 6 chambers 0-5, not {describe(gems)}",
                rule_id="ts.score.chamber",
            )
        if sum(layout) > GEMS_EACH:
            raise InvalidScoreInput(
                f"a player has only {GEMS_EACH} gems, but {describe(list(layout))} holds {describe(sum(layout))}",
                rule_id="ts.place",
            )
        return _score(prediction, tricks, layout)

    # --- the core: dealing ---------------------------------------------------------------------------

    def core_initial(
        self, seed: int, facts: Facts | None, first_dealer: int | None = None, **match_options: Any
    ) -> TricksAndStonesState:
        if match_options:
            raise InvalidOption(f"{TITLE} has no match option {quote_names(match_options)}; use first_dealer")
        dealer = self.first_dealer(seed, first_dealer)
        return self._deal(self._undealt(seed, dealer), 0, dealer, facts)

    def _undealt(self, seed: int, dealer: int) -> TricksAndStonesState:
        """The match before its first deal."""
        empty = (0,) * self.players
        # fmt: off
        return TricksAndStonesState(
            seed, PREDICT, None, 0, dealer, TRUMPS[0], (), 0, (), 0, (), 0, False, empty, (), (), empty, (), (), (),
            empty,
        )
        # fmt: on

    def _deal(
        self, state: TricksAndStonesState, round_index: int, dealer: int, facts: Facts | None
    ) -> TricksAndStonesState:
        """Deal round ``round_index`` (TS-1, TS-9): 8 cards each in blocks from the seeded
        shuffle, the rest aside; fresh tokens, gems and tricks."""
        n = self.players
        key = (state.seed, round_index)
        last_key, dealt = self._dealt
        if key != last_key:  # the last deal is kept: play-outs of one position deal the next round again
            order = shuffled_ids(self, state.seed, round_index, range(len(IDS)))
            dealt = deal_hands(order, n, CARDS_EACH)
            self._dealt = key, dealt
        return self._deal_out(state, round_index, dealer, *dealt, facts)

    def core_deal(self, getrandbits: Callable[[int], int], first_dealer: int = 0) -> TricksAndStonesState:
        order = shuffle_ids(range(len(IDS)), getrandbits, first=self.players * CARDS_EACH)  # the hands
        hands, aside = deal_hands(order, self.players, CARDS_EACH)
        return self._deal_out(self._undealt(0, first_dealer), 0, first_dealer, hands, aside, None)

    def _deal_out(
        self,
        state: TricksAndStonesState,
        round_index: int,
        dealer: int,
        hands: tuple[int, ...],
        aside: int,
        facts: Facts | None,
    ) -> TricksAndStonesState:
        """Round ``round_index`` dealt as ``hands`` and ``aside``: fresh tokens, gems and tricks."""
        n = self.players
        empty = (0,) * n
        first = (dealer + 1) % n
        state = TricksAndStonesState(
            state.seed,
            PREDICT,
            first,
            round_index,
            dealer,
            TRUMPS[round_index],
            hands,
            aside,
            (None,) * n,
            first,
            (),
            0,
            False,
            empty,
            empty,
            ((0,) * CHAMBERS,) * n,
            (GEMS_EACH,) * n,
            (),
            (),
            state.round_scores,
            state.exact,
        )
        if facts is not None:
            facts.append((Dealt(dealer, round_index, state.trump, bool(aside)), state))
        return state

    def round_opening(self, round_index: int, dealer: int) -> TricksAndStonesState:
        """A state at the start of round ``round_index``'s predictions with ``dealer`` dealing
        (its hands are some deal: :meth:`with_hands` puts others in). What a play-out of a
        sampled deal starts from (the advisor)."""
        self.first_dealer(0, dealer)  # checks the seat
        if not 0 <= round_index < ROUNDS:
            raise InvalidOption(f"{TITLE} has rounds 0 to {ROUNDS - 1}, not {describe(round_index)}")
        return self._deal(self.core_initial(0, None, first_dealer=dealer), round_index, dealer, None)

    def with_hands(self, state: TricksAndStonesState, hands: tuple[int, ...], aside: int) -> TricksAndStonesState:
        """``state`` with the hands replaced by ``hands`` (one mask of card ids per seat, see
        :data:`IDS`) and the cards aside by the mask ``aside``; nothing else changes. For
        play-outs of other deals of the unseen cards from a state of the prediction phase (the
        advisor). Unchecked: the masks must be disjoint and hold the round's cards."""
        return state._replace(held=hands, set_aside=aside)

    def new_deal(self, state: TricksAndStonesState, facts: Facts | None) -> _Deal:
        """The deal in play from ``state``, whose round is the rules of play to the match's end: the
        engine's trick round (``ts.follow``, ``ts.trick``: the best card takes it) on a
        Tricks & Stones deal (:class:`_Deal`: predictions, trumps broken, gem actions, the
        score and the next round)."""
        return _Deal(self, state, facts)

    # --- the core: the gem table of a state (refusals and spellings read it) ---------------------------

    def _gem_table(self, state: TricksAndStonesState) -> tuple[tuple[int, ...], dict[int, tuple[int, ...]]]:
        """The gem table of the player first in the queue (kept for the state last asked about:
        a play-out asks for the listed ids, then steps one of them)."""
        kept = self._kept
        if kept[0] is state:
            return kept[1]
        seat, place = state.gem_queue[0]
        p, m = self._allowances[place]
        prediction = state.predictions[seat]
        assert prediction is not None
        table = _gem_table(state.board[seat], prediction, min(p, state.supply[seat]), m, self._ring)
        self._kept = (state, table)
        return table

    def _first_leader(self, predictions: tuple[int, ...], dealer: int) -> tuple[int, tuple[int, ...]]:
        """The first leader (TS-3): the lowest prediction; on a tie the first tied seat going
        clockwise from the dealer's left (or from the dealer, by the option). Also the tied seats."""
        n = self.players
        start = dealer + 1 if self.options.first_lead_tie == "left-of-dealer" else dealer
        low = min(predictions)
        tied = tuple(s for s in ((start + i) % n for i in range(n)) if predictions[s] == low)
        return tied[0], tied

    # --- refusals: which rule forbids an unlisted action ------------------------------------------------

    def canonical_action(self, state: TricksAndStonesState, action: Action) -> Action:
        """The listed spelling of a gem action written another way: two chambers placed into in
        either order (TS-7: the order is no choice), or a move whose steps come in another
        order than the listed move with the same result (a move there and back is a skip)."""
        if isinstance(action, Place) and list(action.chambers) != sorted(action.chambers):
            return Place(tuple(sorted(action.chambers)))
        if isinstance(action, Move) and state.phase is GEMS and state.gem_queue:
            ids, after = self._gem_table(state)
            if self._action_ids.get(action) in after:
                return action
            try:
                own = self._check_gem_action(state, action)
            except IllegalAction:
                return action
            return next((ACTIONS[a] for a in ids if after[a] == own), action)
        return action

    def explain_illegal(self, state: TricksAndStonesState, action: Action) -> IllegalAction:
        seat = state.to_play
        if seat is None:
            return illegal(
                "ts.over",
                "the game is over: no more actions can be taken",
                "The game is over: you cannot move any more.",
            )
        name = self.seat_name(seat)
        quoted = quote_action(action)
        if state.phase is PREDICT:
            if not isinstance(action, Predict):
                return illegal(
                    "ts.predict",
                    f"{name} must make a prediction now (0 to 5), not {quoted}",
                    f"You must predict your tricks now (0 to 5), not {quoted}.",
                )
            return illegal(
                "ts.predict",
                f"a prediction is a number of tricks from 0 to 5, not {describe(action.n)}",
                f"Your prediction is a number of tricks from 0 to 5, not {describe(action.n)}.",
            )
        if state.phase is PLAY:
            if not isinstance(action, Play):
                return illegal(
                    "ts.trick", f"{name} must play a card now, not {quoted}", f"You must play a card now, not {quoted}."
                )
            card = action.card
            hand = state.held[seat]
            c = IDS.id.get(card)
            if c is None or not hand >> c & 1:
                return illegal("ts.hand", f"{name} does not hold {card.pretty}", f"You do not hold {card.pretty}.")
            allowed, rule = _playable(hand, state.played, SUIT_INDEX[state.trump], state.trump_broken)
            if rule == "ts.follow":
                led = IDS.suits[state.played[0] >> 3]
                holding = IDS.card(lowest(hand & IDS.suit_mask[state.played[0] >> 3]))
                return illegal(
                    "ts.follow",
                    f"must follow suit: {SUIT_NAME[led].lower()} {SUIT_SYMBOL[led]} were led and "
                    f"{name} holds {holding.pretty}",
                    _follow_to_you(led, allowed) + ".",
                )
            return illegal(
                "ts.trump.lead",
                f"{card.pretty} is a trump and trumps are not broken yet; lead another suit "
                f"until trumps are broken or your hand holds only trumps",
                _trump_lead_to_you(state.trump, allowed) + ".",
            )
        if not isinstance(action, (Place, Move, Skip)):
            return illegal(
                "ts.gems.order",
                f"{name} takes a gem action now (place, move or skip), not {quoted}",
                f"You take a gem action now (place, move or skip), not {quoted}.",
            )
        try:
            self._check_gem_action(state, action)
        except IllegalAction as refusal:
            return refusal
        return illegal(
            "ts.gems.order",
            f"{quoted} is not one of the gem actions listed now",
            f"{quoted} is not one of your gem actions now.",
        )

    # --- words for the learner: the decision's rule, and actions in words ----------------------------------

    def explain_choice(self, view: SeatView, seat: int | None = None) -> Reason:
        """The rule that frames the decision ``seat`` makes now, spoken to that seat (by default
        the view's own seat, else the seat to play): the prediction's range, the rule that limits
        the cards it may play (``ts.follow``, ``ts.trump.lead``, or why any card may be played) as
        :func:`_playable` decides it, or its place's gem allowance."""
        self.check_view(view)
        self.check_view_seat(seat)
        v = _ts_view(view)
        seat = _acting(v, seat)
        if v.phase is PREDICT:
            return Reason(
                "ts.predict",
                "Predict how many tricks you will win this round, 0 to 5: your expedition token goes into "
                "that chamber of the chamber board.",
            )
        if v.phase is PLAY:
            if seat >= len(v.hands) or v.hands[seat] is None:
                raise InvalidOption(
                    f"this view does not show {self.seat_name(seat)}'s hand: ask with that seat's own view"
                )
            hand = v.hands[seat] or ()
            mask = IDS.mask(hand)
            played = tuple(IDS.id[c] for c in v.trick)
            allowed, rule = _playable(mask, played, SUIT_INDEX[v.trump], v.trump_broken)
            cards = IDS.hand(allowed)
            if rule == "ts.follow":
                return Reason("ts.follow", _follow_to_you(IDS.suits[played[0] >> 3], allowed) + ".", cards)
            if rule == "ts.trump.lead":
                return Reason("ts.trump.lead", _trump_lead_to_you(v.trump, allowed) + ".", cards)
            if not played:
                if not v.trump_broken and mask and not mask & ~_TRUMP_MASK[SUIT_INDEX[v.trump]]:
                    return Reason(
                        "ts.trump.lead", "Any card may be played: you lead this trick and hold only trumps.", cards
                    )
                return Reason("ts.trick", "Any card may be played: you lead this trick.", cards)
            led = IDS.suits[played[0] >> 3]
            if mask & IDS.suit_mask[played[0] >> 3]:
                return Reason("ts.follow", _follow_to_you(led, allowed) + ".", cards)
            return Reason(
                "ts.follow.void", f"Any card may be played: you hold no {SUIT_NAME[led].lower()}, the led suit.", cards
            )
        if v.phase is GEMS and v.gem_queue:
            place = v.gem_queue[0][1]
            supply = v.supply[seat]
            stock = f" (you have {plural(supply, 'gem')} in your supply)" if self.gem_allowance(place)[0] else ""
            return Reason(
                "ts.gems.places",
                f"You finished {PLACE_NAMES[place]}: {self.describe_allowance(place)}, or fewer points{stock}.",
            )
        return super().explain_choice(view, seat)

    def describe_action(self, action: Action, view: SeatView | None = None) -> str:
        """``action`` in words: ``"Play 7♥"``, ``"Predict 2 tricks"``, ``"Place a gem in chamber 3"``,
        ``"Place gems in chambers 2 and 5"``, ``"Move a gem from chamber 1 to chamber 2"``,
        ``"Skip: use no gem points"``. Chambers keep the game's own numbers 0 to 5 (chamber ``t``
        is the chamber of ``t`` tricks, as the board shows them)."""
        self.check_described(action, view)
        if isinstance(action, Play):
            return f"Play {action.card.pretty}"
        if isinstance(action, Predict):
            return f"Predict {plural(action.n, 'trick')}"
        if isinstance(action, Skip):
            return "Skip: use no gem points"
        if isinstance(action, Place):
            chambers = action.chambers
            if len(chambers) == 1:
                return f"Place a gem in chamber {chambers[0]}"
            return f"Place gems in chambers {and_list(str(c) for c in chambers)}"
        if isinstance(action, Move):
            return "Move " + _steps_in_words(action.steps)
        return super().describe_action(action, view)

    def _check_gem_action(self, state: TricksAndStonesState, action: Action) -> tuple[int, ...]:
        """The player's gems after ``action``, checked clause by clause, or the
        :class:`IllegalAction` of the first clause it breaks."""
        seat, place = state.gem_queue[0]
        board = state.board[seat]
        supply = state.supply[seat]
        prediction = state.predictions[seat]
        p, m = ALLOWANCES[self.players][place]
        name = self.seat_name(seat)
        allowance = f"{PLACE_NAMES[place]} place allows {self.describe_allowance(place)}"
        yours = f"you finished {PLACE_NAMES[place]}, which allows {self.describe_allowance(place)}"
        own = list(board)
        if isinstance(action, Skip):
            return board
        if isinstance(action, Place):
            chambers = action.chambers
            if p == 0:
                raise illegal("ts.gems.places", f"{name} cannot Place: {allowance}", f"You cannot Place: {yours}.")
            if not chambers:
                raise illegal(
                    "ts.gems.fewer",
                    "name at least one chamber to place into, or skip",
                    "Name at least one chamber to place into, or skip.",
                )
            if len(chambers) > p:
                raise illegal(
                    "ts.gems.places",
                    f"{name} may place at most {plural(p, 'gem')}: {allowance}",
                    f"You may place at most {plural(p, 'gem')}: {yours}.",
                )
            for c in chambers:
                if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < CHAMBERS:
                    raise illegal(
                        "ts.board",
                        f"there is no chamber {describe(c)}: the chambers are 0 to 5",
                        f"There is no chamber {describe(c)}: the chambers are 0 to 5.",
                    )
                if c == prediction:
                    raise illegal(
                        "ts.place.expedition",
                        f"{name} cannot place into chamber {c}: it holds {name}'s own expedition token",
                        f"You cannot place into chamber {c}: your own expedition token is there.",
                    )
            if len(set(chambers)) != len(chambers):
                raise illegal(
                    "ts.place.distinct",
                    "two placed gems must go into two different chambers",
                    "Your two gems must go into two different chambers.",
                )
            if len(chambers) > supply:
                raise illegal(
                    "ts.place",
                    f"{name} has only {plural(supply, 'gem')} left in the supply",
                    f"You have only {plural(supply, 'gem')} left in your supply.",
                )
            for c in chambers:
                own[c] += 1
            return tuple(own)
        assert isinstance(action, Move)
        steps = action.steps
        if m == 0:
            raise illegal("ts.gems.places", f"{name} cannot Move: {allowance}", f"You cannot Move: {yours}.")
        if not steps:
            raise illegal(
                "ts.gems.fewer", "give at least one move step, or skip", "Give at least one move step, or skip."
            )
        if len(steps) > m:
            raise illegal(
                "ts.gems.places",
                f"{name} may make at most {plural(m, 'move step')}: {allowance}",
                f"You may make at most {plural(m, 'move step')}: {yours}.",
            )
        for a, b in steps:
            for c in (a, b):
                if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < CHAMBERS:
                    raise illegal(
                        "ts.board",
                        f"there is no chamber {describe(c)}: gems stay on chambers 0 to 5",
                        f"There is no chamber {describe(c)}: gems stay on chambers 0 to 5.",
                    )
            if not _adjacent(a, b, self._ring):
                raise illegal(
                    "ts.board" if {a, b} == {0, CHAMBERS - 1} else "ts.move",
                    f"a move step goes to a neighbouring chamber; {a} and {b} are not neighbours",
                    f"A gem moves one step to a neighbouring chamber; chambers {a} and {b} are not neighbours.",
                )
            if own[a] == 0:
                raise illegal(
                    "ts.move",
                    f"{name} has no gem in chamber {a} to move",
                    f"You have no gem in chamber {a} to move.",
                )
            own[a] -= 1
            own[b] += 1
        return tuple(own)

    # --- results and views ----------------------------------------------------------------------------

    def result(self, state: TricksAndStonesState) -> MatchResult | None:
        self.check_state(state)
        if state.phase is not OVER:
            return None
        totals = state.totals
        decided = decide(totals, ((TieBreak.EXACT_PREDICTIONS, state.exact),))
        best = totals[decided.tied[0]]
        names = " and ".join(self.seat_name(s) for s in decided.tied)
        if decided.tie_break is None:
            reason = Reason("ts.win", f"{names} wins with {plural(best, 'point')}.")
        elif decided.tie_break is TieBreak.EXACT_PREDICTIONS:
            winner = decided.winners[0]
            reason = Reason(
                "ts.win.tie",
                f"{names} tie on {plural(best, 'point')}; {self.seat_name(winner)} wins with more "
                f"exact predictions ({state.exact[winner]}).",
            )
        else:
            sharing = " and ".join(self.seat_name(s) for s in decided.winners)
            most = state.exact[decided.winners[0]]
            reason = Reason(
                "ts.win.tie",
                f"{sharing} tie on {plural(best, 'point')} and on {plural(most, 'exact prediction')}: "
                "they share the victory.",
            )
        return MatchResult(totals, decided.winners, decided.tie_break, (reason,))

    def core_view(self, state: TricksAndStonesState, seat: int) -> TricksAndStonesSeatView:
        """What the bot of ``seat`` reads, as ints (cheap: built for every decision of a play-out)."""
        return _new(
            TricksAndStonesSeatView,
            (
                seat,
                self.players,
                state.phase,
                SUIT_INDEX[state.trump],
                state.held[seat],
                state.played,
                state.predictions[seat],
                state.tricks_won[seat],
                state.board[seat],
            ),
        )

    def view(self, state: TricksAndStonesState, seat: int | None) -> TricksAndStonesView:
        self.check_state(state)
        self.check_view_seat(seat)
        # tokens are shown together once the prediction phase is over; the state logged for the
        # last secret choice still has the phase PREDICT, so nothing shows before the reveal step
        predictions = secrets_seen_by(state.predictions, seat, state.phase is not PREDICT)
        hand = IDS.hand
        return _new(
            TricksAndStonesView,
            (
                seat,
                state.phase,
                state.to_play,
                state.round,
                state.dealer,
                state.trump,
                tuple(None if m is None else hand(m) for m in hidden_hands(state.held, seat)),
                tuple(map(int.bit_count, state.held)),
                predictions,
                tuple(p is not None for p in state.predictions),
                state.leader,
                state.trick,
                state.trump_broken,
                state.tricks_won,
                state.board,
                state.supply,
                state.gem_queue,
                state.last_trick,
                state.round_scores,
                state.totals,
                state.exact,
                None if seat is None else self.core_view(state, seat),
            ),
        )

    # --- narration: facts into events ---------------------------------------------------------------

    def narrate(self, fact: Fact, state: TricksAndStonesState) -> Event:
        """The event of ``fact`` (``state``: the state right after it): caption, reasons, data."""
        name = self.seat_name
        if isinstance(fact, CardPlayed):
            return self._narrate_play(fact, state)
        if isinstance(fact, GemsTaken):
            return self._narrate_gems(fact)
        if isinstance(fact, TrickTaken):
            cards = IDS.of(fact.cards)
            trump = state.trump
            outcome = TrickOutcome(NAME, cards, fact.ranking, _explain_trick, {"trump": trump})
            podium = ", ".join(
                f"{PLACE_NAMES[i]} {name(s)} ({cards[k].pretty}, {self.describe_allowance(i)})"
                for i, (s, k) in enumerate(zip(fact.places, fact.ranking, strict=True))
            )
            trick = Trick.ranked(fact.leader, cards, fact.ranking, self.players, places=True)
            return event(
                EventKind.TRICK,
                fact.seat,
                f"{name(trick.winner)} wins trick {fact.number} with {trick.winning_card.pretty}. Places: {podium}.",
                outcome.reasons,
                trick=trick,
                cards=cards,
                ranking=fact.ranking,
                seats=fact.places,
                leader=fact.leader,
            )
        if isinstance(fact, Predicted):
            return event(
                EventKind.PREDICT,
                fact.seat,
                f"{name(cast(int, fact.seat))} secretly chose a prediction.",
                (Reason("ts.predict", RULEBOOK["ts.predict"].text),),
                prediction=fact.value,
            )
        if isinstance(fact, Revealed):
            shown = ", ".join(f"{name(s)} {p}" for s, p in enumerate(fact.predictions))
            leader, low = fact.leader, fact.predictions[fact.leader]
            if len(fact.tied) == 1:
                text = f"{name(leader)} has the lowest prediction ({low}) and leads the first trick."
            else:
                names = " and ".join(name(s) for s in sorted(fact.tied))
                where = "the dealer" if fact.from_dealer else "the dealer's left"
                text = (
                    f"{names} share the lowest prediction ({low}); going clockwise from {where}, "
                    f"{name(leader)} comes first and leads."
                )
            return event(
                EventKind.REVEAL,
                None,
                f"Expedition tokens revealed: {shown}. {name(leader)} leads.",
                (Reason("ts.predict", "All tokens are shown at the same moment."), Reason("ts.lead.first", text)),
                predictions=fact.predictions,
                leader=leader,
            )
        if isinstance(fact, Dealt):
            dealer = cast(int, fact.seat)
            aside_note = " The other 8 cards stay aside, unseen." if fact.aside else ""
            suit = SUIT_NAME[fact.trump]
            return event(
                EventKind.DEAL,
                dealer,
                f"Round {fact.round + 1}: {name(dealer)} deals 8 cards each; "
                f"trump is {suit} {SUIT_SYMBOL[fact.trump]}.{aside_note}",
                (
                    Reason("ts.deal", RULEBOOK["ts.deal"].text),
                    Reason("ts.rounds", f"Round {fact.round + 1} has {suit} as trump."),
                ),
                round=fact.round,
                trump=fact.trump,
            )
        if isinstance(fact, RoundScored):
            n = self.players
            details = tuple(_score(fact.predictions[s], fact.tricks[s], fact.boards[s]) for s in range(n))
            text = (
                "Round scored: "
                + ", ".join(f"{name(s)} {plural(fact.tricks[s], 'trick')} → {fact.scores[s]}" for s in range(n))
                + "."
            )
            reasons = tuple(Reason(r.rule_id, f"{name(s)}: {r.text}") for s in range(n) for r in details[s].reasons)
            return event(EventKind.SCORE, None, text, reasons, scores=fact.scores, details=details)
        assert isinstance(fact, MatchEnded), fact
        result = self.result(state)
        assert result is not None
        return event(EventKind.END, None, result.reasons[0].text, result.reasons, winners=result.winners)

    def _narrate_play(self, fact: CardPlayed, state: TricksAndStonesState) -> Event:
        seat = cast(int, fact.seat)
        name = self.seat_name(seat)
        card = IDS.card(fact.card)
        trump = state.trump
        reasons: list[Reason] = []
        if len(fact.trick) == 1:
            text = f"{name} leads {card.pretty}."
            if card.suit == trump:
                reasons.append(_trump_lead_reason(card, fact.broken_before))
        else:
            led = IDS.suits[fact.trick[0] >> 3]
            if card.suit == led:
                text = f"{name} follows with {card.pretty}."
                reasons.append(
                    Reason("ts.follow", f"{SUIT_NAME[led]} were led and {card.pretty} follows suit.", (card,))
                )
            else:
                text = f"{name} cannot follow {SUIT_NAME[led].lower()} and plays {card.pretty}."
                reasons.append(
                    Reason(
                        "ts.follow.void",
                        f"No {SUIT_NAME[led].lower()} in hand, so any card may be played.",
                        (card,),
                    )
                )
            if fact.breaks:
                text += " Trumps are now broken."
                reasons.append(Reason("ts.trump.break", RULEBOOK["ts.trump.break"].text, (card,)))
            best = IDS.card(fact.trick[_ranking(fact.trick, SUIT_INDEX[trump])[0]])
            text += f" {best.pretty} is winning so far."
        return event(EventKind.PLAY, seat, text, reasons, card=card)

    def _narrate_gems(self, fact: GemsTaken) -> Event:
        seat, place = cast(int, fact.seat), fact.place
        name = self.seat_name(seat)
        if fact.action is None:
            p, m = self.gem_allowance(place)
            if p == 0 and m == 0:
                why = f"finished {PLACE_NAMES[place]}, the last place, which has no gem action."
            elif p == 0:
                why = f"finished {PLACE_NAMES[place]} (Move {m}) but has no gem on the board to move."
            else:
                why = f"finished {PLACE_NAMES[place]} but can neither place nor move a gem."
            return event(
                EventKind.GEMS,
                seat,
                f"{name} {why}",
                (Reason("ts.gems.places", RULEBOOK["ts.gems.places"].text),),
                place=place,
                action=None,
            )
        action = ACTIONS[fact.action]
        finished = Reason("ts.gems.places", f"{name} finished {PLACE_NAMES[place]}: {self.describe_allowance(place)}.")
        if isinstance(action, Place):
            where = " and ".join(str(c) for c in action.chambers)
            chambers = "chambers" if len(action.chambers) > 1 else "chamber"
            text = f"{name} places {plural(len(action.chambers), 'gem')} into {chambers} {where}."
            reasons = (finished, Reason("ts.place", RULEBOOK["ts.place"].text))
        elif isinstance(action, Move):
            path = ", ".join(f"{a}→{b}" for a, b in action.steps)
            text = f"{name} moves {path}."
            reasons = (finished, Reason("ts.move", RULEBOOK["ts.move"].text))
        else:
            text = f"{name} uses no gem points."
            reasons = (finished, Reason("ts.gems.fewer", RULEBOOK["ts.gems.fewer"].text))
        return event(EventKind.GEMS, seat, text, reasons, place=place, action=str(action))


# --- the round: Tricks & Stones on the engine's trick round -------------------------------------


def _breaks(trick: Sequence[int], suit: int) -> bool:
    """Whether ``trick`` broke trumps: a trump played to a trick led in another suit (``ts.trump.break``)."""
    return len(trick) > 1 and trick[0] >> 3 != suit and any(c >> 3 == suit for c in trick)


class _Deal(TrickDeal[TricksAndStonesState]):
    """Tricks & Stones' own rules on the engine's trick round (:func:`~..core.trick_round`): the
    secret predictions before the first trick and the first leader (TS-3), trumps led only once
    broken (``ts.trump.lead``), after each trick its ranking and each place's gem action, from
    first place to last (TS-6, TS-7), then the round scored (TS-8) and the next dealt or the
    match ended (TS-9). The state lives here between decisions; it is packed into a
    :class:`TricksAndStonesState` when the driver sends ``PACK`` and for each fact."""

    ids = IDS

    def __init__(self, rules: TricksAndStones, state: TricksAndStonesState, facts: Facts | None) -> None:
        self.rules, self.facts, self.next_seat = rules, facts, rules._next
        self.allowances, self.ring, self.podiums = rules._allowances, rules._ring, rules._podiums
        self.dealer_first = rules.options.first_lead_tie != "left-of-dealer"
        self.lead = self._lead
        self.load(state)

    def load(self, state: TricksAndStonesState) -> None:
        """Play on from ``state`` (at a decision, or just dealt)."""
        (self.seed, self.phase, seat, self.rnd, self.dealer, self.trump, held, self.aside, predictions,
         self.leader, played, self.number, self.broken, won, taken, board, supply, self.queue, self.last,
         self.scores, self.exact) = state  # fmt: skip
        assert seat is not None, "a round starts at a decision"
        self.seat = seat
        self.held, self.predictions, self.played, self.won, self.taken = (
            list(held),
            list(predictions),
            list(played),
            list(won),
            list(taken),
        )
        self.board, self.supply = list(board), list(supply)
        self.suit = suit = SUIT_INDEX[self.trump]
        self.values = _VALUE[suit]

    def pack(self, to_play: int | None) -> TricksAndStonesState:
        played = self.played
        broken = self.broken or _breaks(played, self.suit)
        return TricksAndStonesState(
            self.seed, self.phase, to_play, self.rnd, self.dealer, self.trump, tuple(self.held), self.aside,
            tuple(self.predictions), self.leader, tuple(played), self.number, broken, tuple(self.won),
            tuple(self.taken), tuple(self.board), tuple(self.supply), self.queue, self.last, self.scores, self.exact,
        )  # fmt: skip

    def _lead(self, hand: int) -> int:
        """The cards ``hand`` may lead now (:func:`_leads`: trumps broken or not)."""
        return _leads(hand, self.suit, self.broken)

    def before_tricks(self) -> Decisions[TricksAndStonesState] | None:
        if self.phase is PREDICT:
            return self._predictions()
        if self.phase is GEMS:  # a round started at a gem action
            return self._gems_then_predictions()
        return None

    def _predictions(self) -> Decisions[TricksAndStonesState]:
        """Each seat's secret prediction from the dealer's left (TS-3); after the dealer's, the
        tokens are shown and the lowest leads (``ts.lead.first``)."""
        predictions, dealer, next_seat, note = self.predictions, self.dealer, self.next_seat, self.facts
        last = dealer  # the dealer predicts last
        while True:
            seat = self.seat
            a = yield seat, _PREDICT_IDS
            while a < 0:  # PACK (as in decision(), written in)
                a = yield self.pack(seat)
            n = a - PREDICT_ID
            predictions[seat] = n
            if seat != last:
                self.seat = next_seat[seat]
                if note is not None:
                    note.append((Predicted(seat, n), self.pack(self.seat)))
                continue
            made = cast(tuple[int, ...], tuple(predictions))  # every seat's prediction is in
            leader, tied = self.rules._first_leader(made, dealer)
            self.seat = self.leader = leader
            if note is not None:
                note.append((Predicted(seat, n), self.pack(None)))  # shown with the reveal, next
            self.phase = PLAY
            if note is not None:
                note.append((Revealed(None, made, leader, tied, self.dealer_first), self.pack(leader)))
            return None

    def _gems_then_predictions(self) -> Decisions[TricksAndStonesState]:
        over = yield from self._gems()
        if over is None and self.phase is PREDICT:  # the round's last gem action: the next round dealt
            yield from self._predictions()
        return over

    def card_fact(self, player: int, card: int, trick: tuple[int, ...]) -> Fact:
        suit = self.suit
        was = self.broken or _breaks(trick[:-1], suit)
        now = was or _breaks(trick, suit)
        return CardPlayed(player, card, trick, was, now and not was)

    def trick_taken(self, winner: int, cards: int, trick: tuple[int, ...]) -> TricksAndStonesState | None:
        """The trick ranked (TS-5) and each place's gem action queued, first place first."""
        ranking = _ranking(trick, self.suit)
        places, self.queue = self.podiums[self.leader, ranking]
        self.number += 1
        self.won[winner] += 1
        if not self.broken:
            self.broken = _breaks(trick, self.suit)
        self.last = (self.leader, winner, *trick)
        self.phase = GEMS
        self.seat = winner
        if self.facts is not None:
            self.facts.append((TrickTaken(winner, self.number, self.leader, trick, ranking, places), self.pack(winner)))
        self.after_trick = self._gems()
        return None

    def _gems(self) -> Decisions[TricksAndStonesState]:
        """The gem actions queued, first place first (TS-6): a place with nothing to choose
        (no gem to place, none to move) passes; then the trick's winner leads the next trick
        (``ts.lead.next``), or the round is scored."""
        note, allowances, board, supply, predictions = (
            self.facts,
            self.allowances,
            self.board,
            self.supply,
            self.predictions,
        )
        queue = self.queue
        while True:
            while queue:  # a choice exists exactly when the gem table lists more than Skip
                seat, place = queue[0]
                p, m = allowances[place]
                if (p and supply[seat]) or (m and any(board[seat])):
                    break
                queue = self.queue = queue[1:]
                if note is not None:
                    note.append((GemsTaken(seat, place, None), self.pack(queue[0][0] if queue else None)))
            if not queue:
                break
            seat, place = queue[0]
            p, m = allowances[place]
            prediction = predictions[seat]
            assert prediction is not None
            listed, after = _gem_table(board[seat], prediction, min(p, supply[seat]), m, self.ring)
            a = yield seat, listed
            while a < 0:  # PACK
                a = yield self.pack(seat)
            if a != SKIP_ID:  # a skip leaves the board and the supply as they are
                board[seat] = after[a]
                supply[seat] -= _PLACED[a]
            queue = self.queue = queue[1:]
            if note is not None:
                note.append((GemsTaken(seat, place, a), self.pack(queue[0][0] if queue else None)))
        if self.number < CARDS_EACH:
            self.phase = PLAY
            self.seat = self.leader = self.last[1]
            return None
        return self._end_round()

    def _end_round(self) -> TricksAndStonesState | None:
        """Score the round (TS-8), then deal the next one (loaded here) or end the match (TS-9)."""
        note, board, won = self.facts, self.board, self.won
        predictions = cast(list[int], self.predictions)
        scores = tuple([sum(_points(predictions[s], won[s], board[s])) for s in range(len(won))])
        self.exact = tuple([e + (predictions[s] == won[s]) for s, e in enumerate(self.exact)])
        self.scores = (*self.scores, scores)
        done = self.pack(None)
        if note is not None:
            note.append((RoundScored(None, tuple(predictions), tuple(won), tuple(board), scores), done))
        if self.rnd + 1 < ROUNDS:
            self.load(self.rules._deal(done, self.rnd + 1, self.next_seat[self.dealer], note))
            return None
        self.phase = OVER
        over = self.pack(None)
        if note is not None:
            note.append((MatchEnded(None), over))
        return over

    def seat_view(self, seat: int) -> TricksAndStonesSeatView:
        """What the bot of ``seat`` reads now (as :meth:`TricksAndStones.core_view` of the state packed now)."""
        return TricksAndStonesSeatView(
            seat, len(self.held), self.phase, self.suit, self.held[seat], tuple(self.played),
            self.predictions[seat], self.won[seat], self.board[seat],
        )  # fmt: skip


# --- pure rule functions ------------------------------------------------------------------------


def _ts_view(view: SeatView) -> TricksAndStonesView:
    if not isinstance(view, TricksAndStonesView):
        raise InvalidOption(f"a view of Tricks & Stones is needed (rules.view(state, seat)), not {describe(view)}")
    return view


def _acting(view: TricksAndStonesView, seat: int | None) -> int:
    """The seat a decision is for: ``seat``, else the view's own seat, else the seat to play."""
    for s in (seat, view.seat, view.to_play):
        if s is not None:
            return s
    raise InvalidOption("the game is over: there is no decision to explain")


def _follow_to_you(led: str, held: int) -> str:
    """``ts.follow`` spoken to the seat: the led suit and the cards of it the seat holds (a mask)."""
    return f"You must follow {SUIT_NAME[led].lower()}: you hold {and_list(c.pretty for c in IDS.hand(held))}"


def _trump_lead_to_you(trump: str, allowed: int) -> str:
    """``ts.trump.lead`` spoken to the seat: ``allowed`` are the cards it may lead (a mask)."""
    suits = and_list(SUIT_NAME[s].lower() for s in FRENCH_SUITS if allowed & IDS.suit_mask[SUIT_INDEX[s]])
    return f"You may not lead a trump ({SUIT_NAME[trump].lower()}) yet: trumps are not broken and you hold {suits}"


def _steps_in_words(steps: tuple[tuple[int, int], ...]) -> str:
    """A move's steps as words: ``"a gem from chamber 1 to chamber 2"``; two steps in a row by one
    gem read ``"a gem from chamber 1 through chamber 2 to chamber 3"``."""
    if len(steps) == 2 and steps[0][1] == steps[1][0] and steps[1][1] != steps[0][0]:
        (a, b), (_, c) = steps
        return f"a gem from chamber {a} through chamber {b} to chamber {c}"
    if len(steps) == 2 and steps[0] == steps[1]:
        (a, b) = steps[0]
        return f"two gems from chamber {a} to chamber {b}"
    return and_list(f"a gem from chamber {a} to chamber {b}" for a, b in steps) or "no gem"


def _sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in hand order: by suit ♠ ♥ ♦ ♣, each from 7 up to the Ace (the order of the ids)."""
    ids = IDS.id
    return tuple(sorted(cards, key=ids.__getitem__))


def _rank(trick: tuple[Card, ...], trump: str | None) -> tuple[int, ...]:
    """The play-order indices of ``trick``, first place to last (TS-5)."""
    ids = IDS.id
    return _ranking(tuple(ids[c] for c in trick), NO_TRUMP if trump is None else SUIT_INDEX[trump])


def _legal(hand: tuple[Card, ...], trick: tuple[Card, ...], trump: str | None, trump_broken: bool) -> tuple[Card, ...]:
    """The cards of ``hand`` (in its order) that may be played to ``trick``."""
    ids = IDS.id
    mask, _ = _playable(
        IDS.mask(hand), tuple(ids[c] for c in trick), NO_TRUMP if trump is None else SUIT_INDEX[trump], trump_broken
    )
    return tuple(c for c in hand if mask >> ids[c] & 1)


def _score(prediction: int, tricks: int, own: tuple[int, ...]) -> Score:
    """A round's score with its lines and reasons (TS-8), from :func:`_points`."""
    gems, bonus = _points(prediction, tricks, own)
    if tricks > MAX_PREDICTION:
        return Score(
            0,
            (
                ScoreLine(
                    "chamber",
                    f"{plural(tricks, 'trick')}: no chamber",
                    0,
                    "over",
                    "6 or more tricks score nothing",
                ),
            ),
            (
                Reason(
                    "ts.score.over",
                    f"{plural(tricks, 'trick')}: there is no chamber {tricks}, so the round scores 0.",
                ),
            ),
        )
    lines = (
        ScoreLine("gems", f"gems in chamber {tricks}", gems, "", f"{plural(gems, 'own gem')} in chamber {tricks}"),
        ScoreLine(
            "bonus",
            "expedition bonus",
            bonus,
            "exact" if bonus else "missed",
            f"predicted {prediction}, won {tricks}",
        ),
    )
    reasons = [
        Reason(
            "ts.score.chamber",
            f"{plural(tricks, 'trick')} won: {plural(gems, 'own gem')} in chamber {tricks} "
            f"{'scores' if gems == 1 else 'score'} {gems}.",
        )
    ]
    if bonus:
        reasons.append(Reason("ts.score.bonus", f"The prediction {prediction} was exact: +3 expedition bonus."))
    else:
        reasons.append(Reason("ts.score.bonus", f"The prediction was {prediction}, not {tricks}: no bonus."))
    return Score(gems + bonus, lines, tuple(reasons))


def _explain_trick(outcome: TrickOutcome) -> tuple[Reason, ...]:
    cards = outcome.cards
    trump = outcome.context.get("trump")
    assert trump is None or isinstance(trump, str)
    led = cards[0].suit
    ranking = outcome.ranking
    reasons: list[Reason] = []
    if trump is None:
        reasons.append(
            Reason(
                "ts.rank.order",
                f"There is no trump in this trick. {SUIT_NAME[led]} {SUIT_SYMBOL[led]} were led, so they come "
                "first, then the rest by suit (♠ ♥ ♦ ♣) and rank.",
            )
        )
    elif led == trump:
        reasons.append(
            Reason(
                "ts.rank.trump-led",
                f"A trump was led: {SUIT_NAME[trump].lower()} {SUIT_SYMBOL[trump]} are both trump and the led suit, "
                "so they come first and every other card is ordered by suit, then rank.",
            )
        )
    else:
        reasons.append(
            Reason(
                "ts.rank.order",
                f"Trump is {SUIT_NAME[trump].lower()} {SUIT_SYMBOL[trump]} and {SUIT_NAME[led].lower()} "
                f"{SUIT_SYMBOL[led]} were led: trumps come first, then {SUIT_NAME[led].lower()}, then the rest "
                "by suit (♠ ♥ ♦ ♣) and rank.",
            )
        )
    if len(cards) == 1:
        reasons.append(
            Reason(
                "ts.trick",
                f"Only {cards[0].pretty} has been played, so it is winning for now.",
                (cards[0],),
            )
        )
        return tuple(reasons)
    best = ranking[0]
    pairs = [(best, j) for j in ranking[1:]] + [(ranking[k], ranking[k + 1]) for k in range(1, len(ranking) - 1)]
    for a, b in pairs:
        reasons.append(_compare(cards[a], cards[b], led, trump))
    return tuple(reasons)


def _compare(a: Card, b: Card, led: str, trump: str | None) -> Reason:
    """Why ``a`` places above ``b``."""
    pair = (a, b)
    neither = "card follows the led suit nor is a trump" if trump else "card follows the led suit"
    if a.suit == b.suit:
        what = "trumps" if a.suit == trump else SUIT_NAME[a.suit].lower()
        return Reason(
            "ts.rank.within",
            f"{a.pretty} beats {b.pretty}: both are {what}, and {rank_word(a)} is higher than {rank_word(b)}.",
            pair,
        )
    if a.suit == trump:
        return Reason(
            "ts.rank.trump", f"{a.pretty} beats {b.pretty} because {a.pretty} is a trump and {b.pretty} is not.", pair
        )
    if a.suit == led:
        not_led = f"neither a trump nor {_article(SUIT_NAME[led])}" if trump else f"not {_article(SUIT_NAME[led])}"
        return Reason(
            "ts.rank.led",
            f"{a.pretty} beats {b.pretty} because {SUIT_NAME[led].lower()} were led and {b.pretty} is {not_led}.",
            pair,
        )
    return Reason(
        "ts.rank.offsuit",
        f"{a.pretty} beats {b.pretty}: neither {neither}, and {SUIT_NAME[a.suit].lower()} "
        f"{SUIT_SYMBOL[a.suit]} come before {SUIT_NAME[b.suit].lower()} {SUIT_SYMBOL[b.suit]} "
        "(♠ ♥ ♦ ♣), so the rank does not matter.",
        pair,
    )


def _trump_lead_reason(card: Card, trump_broken: bool) -> Reason:
    """Why leading the trump ``card`` was allowed: trumps are broken, or the hand held only trumps."""
    if trump_broken:
        return Reason(
            "ts.trump.lead",
            f"Trumps are broken, so {card.pretty}, a trump, may be led.",
            (card,),
        )
    return Reason(
        "ts.trump.lead",
        f"Trumps are not broken yet, but this hand held only trumps, so leading {card.pretty} is allowed "
        "(and does not break trumps).",
        (card,),
    )


def _article(suit_name: str) -> str:
    return {"Spades": "a spade", "Hearts": "a heart", "Diamonds": "a diamond", "Clubs": "a club"}[suit_name]
