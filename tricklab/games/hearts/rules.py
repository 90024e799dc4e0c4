"""Hearts: avoid the hearts and the Queen of spades, or take them all.

Four players, 52 cards, 13 each. Before each hand's play everyone passes three cards (left,
right, across, then no pass); the 2 of clubs leads the first trick; follow suit if you can; the
highest card of the led suit takes the trick; a heart may not be led before hearts are broken.
Each heart taken costs a point and the Queen of spades 13, unless one player takes them all and
shoots the moon. Hands are played until someone has 100 points; the lowest total wins.

The rules run on the one core (:mod:`tricklab.games.core`): a compact state of card ids and
bit-mask hands (:class:`HeartsState`), numbered actions (a card's id plays it; each choice of
three cards to pass is an id from 52 on) and ``core_legal``/``core_step`` as the only
implementation of each rule; ``explain_illegal`` says which rule refuses an action from the same
functions. The narrator (:mod:`.narrate`) turns the facts a step records (:mod:`.facts`) into
the events learners read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any, ClassVar, NamedTuple

from ...actions import Action, Pass, Play
from ...cards import FRENCH_SUITS, SUIT_NAME, SUIT_SYMBOL, Card, Deck, FrenchCard, rank_word
from ...errors import IllegalAction, InvalidOption, describe
from ...explain import Reason, Rulebook, and_list, plural
from ..base import (
    CardLike,
    Event,
    MatchResult,
    Options,
    Score,
    ScoreLine,
    SeatView,
    Trick,
    TrickOutcome,
    Word,
    check_choice,
    illegal,
    quote_action,
    quote_names,
)
from ..capabilities import Capabilities, Decision, DecisionKind, Example, Level, Quiz, Ref, led_suit
from ..core import (
    Decisions,
    Fact,
    Facts,
    HandChoices,
    TrickDeal,
    TrickGame,
    deal_hands,
    decide,
    decision,
    follow_mask,
    hidden_hands,
    mask_census,
    mask_of,
    shuffle_ids,
    shuffled_ids,
    totals_of,
)
from .facts import (
    HEART_MASK,
    IDS,
    JACK_OF_DIAMONDS,
    POINT_CARDS,
    QUEEN_OF_SPADES,
    SUIT_OF,
    TWO_OF_CLUBS,
    VALUE,
    CardPlayed,
    Dealt,
    HandScored,
    MatchEnded,
    PassChosen,
    PassesExchanged,
    TrickTaken,
    points_of,
    ranking,
)
from .rulebook import JACK_POINTS, MOON, NAME, QUEEN_POINTS, RULEBOOK, TITLE


class Phase(Word):
    """What a hand of Hearts is waiting for: the cards to pass, a card; ``OVER`` once the match
    has ended."""

    PASS = "pass"
    PLAY = "play"
    OVER = "over"


PASS, PLAY, OVER = Phase.PASS, Phase.PLAY, Phase.OVER
PLAYERS = 4
NEXT = (1, 2, 3, 0)  # the seat on each seat's left, who plays next
CARDS_EACH = 13
PASSED = 3  # the cards each player passes
CYCLE = (1, 3, 2, 0)  # where the passes go, hand after hand: left, right, across, kept (HT-1)
DIRECTION_WORDS = {1: "to the left", 3: "to the right", 2: "across the table", 0: "nowhere"}
MOONS = ("add", "subtract")
MOST_HANDS = 50  # a match ends after this many hands even if no total has reached the target


@dataclass(frozen=True, slots=True)
class HeartsOptions(Options):
    """Rule options. ``target``: the total that ends the match at the end of a hand (HT-5, default
    100); ``passing``: cards are passed before each hand's play (HT-1, default on);
    ``first_trick``: no heart or Queen of spades may go to the first trick (HT-2, default on);
    ``jack``: the Jack of diamonds takes 10 points off (a variant, default off); ``moon``:
    ``"add"`` (a moon shot gives everyone else 26: the default) or ``"subtract"`` (it takes 26 off
    the shooter's own score instead, HT-4)."""

    target: int = 100
    passing: bool = True
    first_trick: bool = True
    jack: bool = False
    moon: str = "add"


# Action ids: a card's id plays it (0-51), then every choice of three cards to pass, in the
# lexicographic order of their ids.
PASS_BASE = len(IDS)
DECK = range(len(IDS))  # the card ids, in the deck's order before a shuffle


class PassTable(NamedTuple):
    actions: tuple[Action, ...]
    masks: tuple[int, ...]  # pass id - PASS_BASE -> mask of the cards passed
    ids: dict[int, int]  # mask -> pass id


@cache
def pass_table() -> PassTable:
    """Every action of Hearts, numbered (built once: the same for every set-up)."""
    cards = IDS.cards
    actions: list[Action] = [Play(c) for c in cards]
    masks: list[int] = []
    for combo in combinations(range(len(cards)), PASSED):
        masks.append(mask_of(combo))
        actions.append(Pass(tuple(cards[i] for i in combo)))
    return PassTable(tuple(actions), tuple(masks), {m: PASS_BASE + i for i, m in enumerate(masks)})


def pass_ids(hand: int) -> HandChoices:
    """Every choice of three cards of ``hand`` to pass, as action ids (hand order), listed lazily."""
    table = pass_table()
    return HandChoices(hand, PASSED, table.ids, table.masks, PASS_BASE)


def direction_of(round_index: int, options: HeartsOptions) -> int:
    """How many seats on the passes of hand ``round_index`` go (0: no pass), ``ht.pass``."""
    return CYCLE[round_index % len(CYCLE)] if options.passing else 0


class HeartsState(NamedTuple):
    """The whole state (the teacher's knowledge), compact: card ids and bit-mask hands.

    ``held[s]`` is seat ``s``'s hand as a mask of card ids (:data:`~.facts.IDS`), ``passes[s]``
    the cards it chose to pass (0: not chosen yet; they leave the hand when chosen and reach the
    receiver when every seat has chosen), ``played`` the current trick's card ids in play order,
    ``taken[s]`` the mask of the cards seat ``s`` has taken this hand, ``broken`` whether hearts
    are broken, ``last`` the last completed trick as ``(leader, winner, card ids...)``,
    ``gave[s]`` the cards seat ``s`` passed this hand once they have changed hands.
    ``round`` counts the hands from 0 and ``direction`` is where this hand's passes go."""

    seed: int
    phase: Phase
    to_play: int | None
    round: int
    dealer: int
    direction: int
    held: tuple[int, ...]
    passes: tuple[int, ...]
    leader: int
    played: tuple[int, ...]
    tricks_played: int
    taken: tuple[int, ...]
    broken: bool
    last: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    gave: tuple[int, ...]  # the cards each seat passed this hand, once they changed hands

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    @property
    def totals(self) -> tuple[int, ...]:
        return totals_of(self.round_scores, len(self.held))

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return IDS.hands(self.held)

    @property
    def trick(self) -> tuple[Card, ...]:
        return IDS.of(self.played)

    @property
    def last_trick(self) -> Trick | None:
        """The last completed trick of the hand (``None`` before the first)."""
        if not self.last:
            return None
        leader, ids = self.last[0], self.last[2:]
        return Trick.ranked(leader, IDS.of(ids), ranking(ids), len(self.held), places=False)


class HeartsSeatView(NamedTuple):
    """What a bot reads of one seat's view, as ints: only the seat's own hand, its own pass and
    the public table."""

    seat: int
    phase: Phase
    hand: int
    trick: tuple[int, ...]
    leader: int
    first_trick: bool  # no points may go to this trick (HT-2)
    broken: bool
    taken: tuple[int, ...]  # the cards each seat has taken this hand (public: tricks are face up)
    seen: int  # every card out of play for this seat: played to a trick, or in its own pass


def seat_view(
    seat: int,
    phase: Phase,
    hand: int,
    trick: tuple[int, ...],
    leader: int,
    first_trick: bool,
    broken: bool,
    taken: tuple[int, ...],
    passed: int,
) -> HeartsSeatView:
    """The :class:`HeartsSeatView` of ``seat`` (``passed``: its own pass, out of its hand)."""
    seen = mask_of(trick) | passed
    for mask in taken:
        seen |= mask
    return HeartsSeatView(seat, phase, hand, trick, leader, first_trick, broken, taken, seen)


class HeartsView(NamedTuple):
    """What one seat may see (``seat is None``: the teacher, who sees every hand): the tricks and
    the points taken are public; the other hands and another seat's pass are hidden."""

    seat: int | None
    phase: Phase
    to_play: int | None
    round: int
    dealer: int
    direction: int
    hands: tuple[tuple[Card, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    passes: tuple[tuple[Card, ...] | None, ...]  # chosen passes this seat may see (its own), else None
    passed: tuple[bool, ...]  # who has chosen their pass
    leader: int
    trick: tuple[Card, ...]
    broken: bool
    points: tuple[int, ...]  # the points each seat has taken this hand so far
    last_trick: Trick | None
    round_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    core: HeartsSeatView | None = None

    @property
    def hand(self) -> tuple[Card, ...]:
        if self.seat is None:
            return ()
        own = self.hands[self.seat]
        return own if own is not None else ()


# --- what the game offers ------------------------------------------------------------------------


def ht_led_only(outcome: TrickOutcome) -> bool:
    """Quiz level 1: every card of the trick is of the led suit."""
    led = led_suit(outcome)
    return len(outcome.cards) >= 2 and all(c.suit == led for c in outcome.cards)


def ht_discards(outcome: TrickOutcome) -> bool:
    """Quiz level 2: a card of another suit, however high, is in the trick."""
    led = led_suit(outcome)
    return any(c.suit != led for c in outcome.cards)


CAPABILITIES = Capabilities(
    decision=Decision(DecisionKind.PASS, PASS, "ht.pass", (PASSED,)),
    quiz=Quiz(
        (
            Level(
                1,
                "The led suit",
                "There is no trump in Hearts: the highest card of the suit that was led takes the trick.",
                ht_led_only,
                (4,),
            ),
            Level(
                2,
                "Discards",
                "A card of another suit never takes the trick, however high: only the led suit counts.",
                ht_discards,
                (4,),
            ),
        ),
    ),
    panels=(Ref("tricklab.games.hearts.panel:points_taken"),),
    bots=(("heuristic", Ref("tricklab.games.hearts.bots:HeuristicBot")),),
    advice=Ref("tricklab.games.hearts.advice:HT_ADVICE"),
    review=Ref("tricklab.games.hearts.review:HT_REVIEW"),
    variants=("jack",),
    round_word="hand",
    lowest_wins=True,
    option_values=(
        ("target", (50,)),
        ("passing", (False,)),
        ("first_trick", (False,)),
        ("jack", (True,)),
        ("moon", ("subtract",)),
    ),
    examples=(
        Example("play.ipynb", "", "players=4"),
        Example("quiz.ipynb", "", "players=4&seed=1"),
        Example("bid_trainer.ipynb", "", "players=4&seed=12"),
        Example("explain_trick.ipynb", "", "players=4&cards=7H,AH,QS,KD"),
        Example("replay.ipynb", "", "players=4&seed=7"),
    ),
)


def hand_scores(taken: tuple[int, ...], options: HeartsOptions) -> tuple[tuple[int, ...], int | None]:
    """Each seat's score for a hand from the cards it took, and the seat that shot the moon
    (``ht.score``, ``ht.score.jack``, ``ht.moon``)."""
    points = tuple(points_of(t, options.jack) for t in taken)
    moon = next((s for s, t in enumerate(taken) if t & POINT_CARDS == POINT_CARDS), None)
    if moon is None:
        return points, None
    if options.moon == "add":
        return tuple(p - MOON if s == moon else p + MOON for s, p in enumerate(points)), moon
    return tuple(p - 2 * MOON if s == moon else p for s, p in enumerate(points)), moon


def first_lead(held: Sequence[int]) -> int:
    """The seat that leads a hand's first trick: the one holding the 2 of clubs (``ht.lead.first``)."""
    return next(s for s, h in enumerate(held) if h >> TWO_OF_CLUBS & 1)


class Hearts(TrickGame[HeartsState, "_Deal"]):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = TITLE
    aliases: ClassVar[tuple[str, ...]] = ("ht", "black lady", "black maria")
    player_counts: ClassVar[tuple[int, ...]] = (PLAYERS,)
    rulebook: ClassVar[Rulebook] = RULEBOOK
    options_type: ClassVar[type[Options]] = HeartsOptions
    state_type: ClassVar[type] = HeartsState
    view_type: ClassVar[type] = HeartsView
    capabilities: ClassVar[Capabilities] = CAPABILITIES
    options: HeartsOptions

    def __init__(self, players: int, options: Options) -> None:
        super().__init__(players, options)
        assert isinstance(options, HeartsOptions)
        self.set_actions(pass_table().actions)
        self._masks = pass_table().masks

    def _check_options(self) -> None:
        target = self.options.target
        if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 1000:
            raise InvalidOption(
                f"{TITLE} ends when a total reaches target=1 to 1000 points, not target={describe(target)}",
                rule_id="ht.win",
            )
        check_choice(TITLE, "passing", self.options.passing, (True, False))
        check_choice(TITLE, "first_trick", self.options.first_trick, (True, False))
        check_choice(TITLE, "jack", self.options.jack, (True, False))
        check_choice(TITLE, "moon", self.options.moon, MOONS)

    def _build_deck(self) -> Deck:
        return Deck(TITLE, FrenchCard, IDS.cards)

    @property
    def max_decisions(self) -> int:
        """Every hand: a pass per player and 52 cards; at most :data:`MOST_HANDS` hands."""
        return MOST_HANDS * (PLAYERS + len(IDS))

    def pieces(self, state: HeartsState) -> Counter[object]:
        return mask_census((*state.held, *state.passes, *state.taken), state.played)

    def unseen_by(self, before: HeartsState, action: Action, seat: int, now: HeartsState) -> bool:
        """Cards another seat chose to pass stay its secret, but for the seat they were passed
        to once they have changed hands (``ht.pass``)."""
        if not isinstance(action, Pass) or before.to_play in (None, seat):
            return False
        giver = before.to_play
        assert giver is not None
        received = (giver + before.direction) % PLAYERS == seat
        return not (received and (now.round > before.round or now.phase is not PASS))

    # --- public rules API ----------------------------------------------------------------------

    def resolve_trick(self, cards: Iterable[CardLike] | str, **context: Any) -> TrickOutcome:
        """Rank a (possibly partial) trick: the led suit from high to low, then the cards of other
        suits in play order (they cannot take it). There is no trump."""
        if context:
            raise InvalidOption(f"{TITLE} has no trump: resolve_trick takes the cards only, not {quote_names(context)}")
        played = self._trick(cards)
        if not played:
            raise InvalidOption("a trick needs at least one card to rank", rule_id="ht.trick")
        ids = tuple(IDS.id[c] for c in played)
        return TrickOutcome(NAME, played, ranking(ids), _explain_trick, {})

    def legal_plays(
        self, hand: Iterable[CardLike] | str, trick: Iterable[CardLike] | str = (), **context: Any
    ) -> tuple[Card, ...]:
        """The cards of ``hand`` that may be played to ``trick`` by the suit alone (``ht.follow``);
        the first trick's and the lead's rules need a match (``match.legal_actions()``)."""
        if context:
            raise InvalidOption(f"legal_plays takes hand and trick, not {quote_names(context)}")
        cards, played = self._hand_and_trick(hand, trick)
        if not played:
            return cards
        mask = follow_mask(IDS.mask(cards), SUIT_OF[IDS.id[played[0]]], IDS)
        return tuple(c for c in cards if mask >> IDS.id[c] & 1)

    def score_hand(self, taken: Iterable[CardLike] | str) -> Score:
        """The points of the cards one player took in a hand (``ht.score``, with the variant
        ``jack``); shooting the moon needs every hand's cards (the match scores it)."""
        cards = self._trick(taken)
        mask = IDS.mask(cards)
        hearts = (mask & HEART_MASK).bit_count()
        lines = [ScoreLine("hearts", "hearts", hearts, "", plural(hearts, "heart"))]
        if mask >> QUEEN_OF_SPADES & 1:
            lines.append(ScoreLine("queen", "Queen of spades", QUEEN_POINTS, "", "Q♠"))
        if self.options.jack and mask >> JACK_OF_DIAMONDS & 1:
            lines.append(ScoreLine("jack", "Jack of diamonds", JACK_POINTS, "", "J♦"))
        total = points_of(mask, self.options.jack)
        reason = Reason("ht.score", f"{plural(hearts, 'heart')} and {_queen_words(mask)}: {plural(total, 'point')}.")
        return Score(total, tuple(lines), (reason,))

    # --- the core ------------------------------------------------------------------------------------

    def core_initial(
        self, seed: int, facts: Facts | None, first_dealer: int | None = None, **match_options: Any
    ) -> HeartsState:
        if match_options:
            raise InvalidOption(f"{TITLE} has no match option {quote_names(match_options)}; use first_dealer")
        dealer = self.first_dealer(seed, first_dealer)
        return self._deal(self._undealt(seed, dealer), 0, dealer, facts)

    @staticmethod
    def _undealt(seed: int, dealer: int) -> HeartsState:
        """The match before its first deal."""
        empty = (0,) * PLAYERS
        return HeartsState(seed, PASS, None, 0, dealer, 0, empty, empty, 0, (), 0, empty, False, (), (), empty)

    def core_deal(self, getrandbits: Callable[[int], int], first_dealer: int = 0) -> HeartsState:
        return self._dealt(self._undealt(0, first_dealer), 0, first_dealer, shuffle_ids(DECK, getrandbits), None)

    def _deal(self, state: HeartsState, round_index: int, dealer: int, facts: Facts | None) -> HeartsState:
        """Deal hand ``round_index`` (``ht.deal``) from the seeded shuffle (:meth:`_dealt`)."""
        return self._dealt(state, round_index, dealer, shuffled_ids(self, state.seed, round_index, DECK), facts)

    def _dealt(
        self, state: HeartsState, round_index: int, dealer: int, order: Sequence[int], facts: Facts | None
    ) -> HeartsState:
        """The deal of ``order`` (the deck shuffled): 13 cards to each in blocks; then the passes,
        or the first lead if this hand keeps its cards."""
        held, _ = deal_hands(order, PLAYERS, CARDS_EACH)
        direction = direction_of(round_index, self.options)
        empty = (0,) * PLAYERS
        new = HeartsState(
            state.seed, PASS, (dealer + 1) % PLAYERS, round_index, dealer, direction, held, empty, 0, (), 0,
            empty, False, (), state.round_scores, empty,
        )  # fmt: skip
        if facts is not None:
            facts.append((Dealt(dealer, round_index, direction or None), new))
        if direction:
            return new
        return self._first_lead(new)

    @staticmethod
    def _first_lead(state: HeartsState) -> HeartsState:
        first = first_lead(state.held)
        return state._replace(phase=PLAY, to_play=first, leader=first)

    def playable(self, state: HeartsState, seat: int) -> int:
        """The mask of the cards ``seat`` may play in the trick as it stands (as the round lists
        them for it)."""
        if state.to_play != seat:
            state = state._replace(to_play=seat)
        return mask_of(self.core_legal(state)) if state.phase is PLAY else 0

    def new_deal(self, state: HeartsState, facts: Facts | None) -> _Deal:
        """The deal in play from ``state``, whose round is the rules of play to the match's end: the
        engine's trick round (``ht.follow``; ``ht.trick``: the highest card of the led suit takes
        it, its taker leads the next, ``ht.lead.next``) on a Hearts deal (:class:`_Deal`: the
        passes, what may be led and discarded, the points, the score and the next hand)."""
        return _Deal(self, state, facts)

    # --- refusals, and the decision in words -----------------------------------------------------------

    def canonical_action(self, state: HeartsState, action: Action) -> Action:
        """The listed spelling of a pass: its cards in the order of the hand they leave (a set,
        not a sequence)."""
        if isinstance(action, Pass) and state.phase is PASS and state.to_play is not None:
            chosen = 0
            for card in action.cards:
                i = IDS.id.get(card)
                if i is None:
                    return action
                chosen |= 1 << i
            in_order = IDS.hand(chosen)
            if len(in_order) == len(action.cards) and in_order != action.cards:
                return Pass(in_order)
        return action

    def explain_illegal(self, state: HeartsState, action: Action) -> IllegalAction:
        seat = state.to_play
        if seat is None:
            return illegal(
                "ht.over",
                "the game is over: no more actions can be taken",
                "The game is over: you cannot move any more.",
            )
        name = self.seat_name(seat)
        quoted = quote_action(action)
        hand = state.held[seat]
        if state.phase is PASS:
            if not isinstance(action, Pass):
                return illegal(
                    "ht.pass",
                    f"{name} must choose {PASSED} cards to pass now, not {quoted}",
                    f"Choose {PASSED} cards of your hand to pass now, not {quoted}.",
                )
            missing = [c for c in action.cards if IDS.id.get(c) is None or not hand >> IDS.id[c] & 1]
            if missing:
                return illegal(
                    "ht.pass",
                    f"{name} does not hold {and_list(c.pretty for c in missing)}",
                    f"You do not hold {and_list(c.pretty for c in missing)}.",
                )
            return illegal(
                "ht.pass",
                f"a pass is {PASSED} different cards, not {len(action.cards)}",
                f"Pass exactly {PASSED} different cards, not {len(action.cards)}.",
            )
        if not isinstance(action, Play):
            return illegal(
                "ht.follow", f"{name} must play a card now, not {quoted}", f"You must play a card now, not {quoted}."
            )
        card = action.card
        c = IDS.id.get(card)
        if c is None or not hand >> c & 1:
            return illegal("ht.follow", f"{name} does not hold {card.pretty}", f"You do not hold {card.pretty}.")
        rule, text = self._limit(state, seat)
        return illegal(rule, f"{name}: {text[:1].lower()}{text[1:]}", text + ".")

    def _limit(self, state: HeartsState, seat: int) -> tuple[str, str]:
        """The rule that limits the cards ``seat`` may play now, and the cards it allows, in words."""
        hand = state.held[seat]
        allowed = self.playable(state, seat)
        cards = and_list(c.pretty for c in IDS.hand(allowed))
        if state.played:
            led = SUIT_OF[state.played[0]]
            if hand & IDS.suit_mask[led]:
                return "ht.follow", f"You must follow {_suit(led)}: you hold {cards}"
            if allowed != hand:
                return "ht.first.trick", f"No heart and not the Queen of spades in the first trick: play {cards}"
            return "ht.follow.void", f"You hold no {_suit(led)}, the led suit: any card may be played"
        if state.tricks_played == 0:
            return "ht.lead.first", "The 2 of clubs ♣ leads the first trick"
        if allowed != hand:
            return "ht.hearts.broken", f"Hearts are not broken yet, so you may not lead a heart: play {cards}"
        return "ht.lead.next", "You lead this trick: any card may be played"

    def explain_choice(self, view: SeatView, seat: int | None = None) -> Reason:
        """The rule that frames the decision ``seat`` makes now: the pass, or the rule that limits
        the cards it may play."""
        self.check_view(view)
        self.check_view_seat(seat)
        assert isinstance(view, HeartsView)
        for s in (seat, view.seat, view.to_play):
            if s is not None:
                seat = s
                break
        else:
            raise InvalidOption("the game is over: there is no decision to explain")
        hand = view.hands[seat] if seat < len(view.hands) else None
        if view.phase is PASS:
            return Reason(
                "ht.pass",
                f"Choose {PASSED} cards of your hand to pass {DIRECTION_WORDS[view.direction]}, without showing them.",
            )
        if view.phase is PLAY:
            if hand is None:
                raise InvalidOption(
                    f"this view does not show {self.seat_name(seat)}'s hand: ask with that seat's own view"
                )
            state = self._state_of(view, seat, hand)
            rule, text = self._limit(state, seat)
            return Reason(rule, text + ".", IDS.hand(self.playable(state, seat)))
        return super().explain_choice(view, seat)

    def _state_of(self, view: HeartsView, seat: int, hand: tuple[Card, ...]) -> HeartsState:
        """A state with what the play rules read of the view: the seat's hand, the trick, whether
        it is the first trick and whether hearts are broken (no other hand is needed)."""
        held = tuple(IDS.mask(hand) if s == seat else 0 for s in range(PLAYERS))
        first = 0 if view.last_trick is None else 1
        played = tuple(IDS.id[c] for c in view.trick)
        empty = (0,) * PLAYERS
        return HeartsState(
            0, PLAY, seat, view.round, view.dealer, view.direction, held, empty, view.leader, played, first, empty,
            view.broken, (), (), empty,
        )  # fmt: skip

    def describe_action(self, action: Action, view: SeatView | None = None) -> str:
        """``action`` in words: ``"Play 7♥"``, ``"Pass 2♣, 7♥ and Q♠"``."""
        self.check_described(action, view)
        if isinstance(action, Play):
            return f"Play {action.card.pretty}"
        if isinstance(action, Pass):
            return f"Pass {and_list(c.pretty for c in action.cards)}"
        return super().describe_action(action, view)

    # --- results and views ----------------------------------------------------------------------------

    def result(self, state: HeartsState) -> MatchResult | None:
        self.check_state(state)
        if state.phase is not OVER:
            return None
        totals = state.totals
        decided = decide(tuple(-t for t in totals), ())  # the lowest total wins
        best = totals[decided.tied[0]]
        names = " and ".join(self.seat_name(s) for s in decided.winners)
        ended = f"{self.seat_name(max(range(PLAYERS), key=totals.__getitem__))} reached {max(totals)}"
        if len(decided.winners) == 1:
            text = f"{ended}: {names} wins with the fewest points, {best}."
        else:
            text = f"{ended}: {names} tie on the fewest points, {best}, and share the win."
        return MatchResult(totals, decided.winners, decided.tie_break, (Reason("ht.win", text),))

    def core_view(self, state: HeartsState, seat: int) -> HeartsSeatView:
        """What the bot of ``seat`` reads, as ints (cheap: built for every decision of a play-out)."""
        return seat_view(
            seat, state.phase, state.held[seat], state.played, state.leader,
            state.tricks_played == 0 and self.options.first_trick, state.broken, state.taken, state.passes[seat],
        )  # fmt: skip

    def view(self, state: HeartsState, seat: int | None) -> HeartsView:
        self.check_state(state)
        self.check_view_seat(seat)
        jack = self.options.jack
        return HeartsView(
            seat,
            state.phase,
            state.to_play,
            state.round,
            state.dealer,
            state.direction,
            tuple(None if m is None else IDS.hand(m) for m in hidden_hands(state.held, seat)),
            tuple(h.bit_count() + p.bit_count() for h, p in zip(state.held, state.passes, strict=True)),
            tuple(IDS.hand(p) if p and (seat is None or seat == s) else None for s, p in enumerate(state.passes)),
            tuple(bool(p) for p in state.passes),
            state.leader,
            state.trick,
            state.broken,
            tuple(points_of(t, jack) for t in state.taken),
            state.last_trick,
            state.round_scores,
            state.totals,
            None if seat is None or state.phase is OVER else self.core_view(state, seat),
        )

    def narrate(self, fact: Fact, state: HeartsState) -> Event:
        from .narrate import narrate  # the narrator reads the rules; the rules name it only here

        return narrate(self, fact, state)


# --- words and pure rule functions ----------------------------------------------------------------


class _Deal(TrickDeal[HeartsState]):
    """Hearts' own rules on the engine's trick round (:func:`~..core.trick_round`): each seat's
    three cards chosen in secret and passed together (``ht.pass``), the 2 of clubs leading
    (``ht.lead.first``), hearts led once broken (``ht.hearts.broken``), no points on the first
    trick (``ht.first.trick``), the hand scored (``ht.score``, ``ht.moon``) and the next dealt,
    or the match ended (``ht.win``). The state lives here between decisions; it is packed into
    a :class:`HeartsState` when the driver sends ``PACK`` and for each fact."""

    ids, next_seat, values = IDS, NEXT, VALUE

    def __init__(self, rules: Hearts, state: HeartsState, facts: Facts | None) -> None:
        self.rules, self.facts, self.options, self.masks = rules, facts, rules.options, rules._masks
        self.lead, self.discard = self._lead, self._discard
        self.load(state)

    def load(self, state: HeartsState) -> None:
        """Play on from ``state`` (at a decision, or just dealt)."""
        (self.seed, self.phase, seat, self.rnd, self.dealer, self.direction, held, passes, self.leader, played,
         self.number, taken, self.broken, self.last, self.scores, self.gave) = state  # fmt: skip
        assert seat is not None, "a round starts at a decision"
        self.seat = seat
        self.held, self.passes, self.played, self.taken = list(held), list(passes), list(played), list(taken)

    def pack(self, to_play: int | None) -> HeartsState:
        # a point card in the trick so far breaks hearts
        broke = self.broken or bool(mask_of(self.played) & POINT_CARDS)
        return HeartsState(
            self.seed, self.phase, to_play, self.rnd, self.dealer, self.direction, tuple(self.held),
            tuple(self.passes), self.leader, tuple(self.played), self.number, tuple(self.taken), broke, self.last,
            self.scores, self.gave,
        )  # fmt: skip

    def _lead(self, hand: int) -> int:  # ``ht.lead.first``, ``ht.hearts.broken``
        if self.number == 0:
            return 1 << TWO_OF_CLUBS
        return hand & ~HEART_MASK or hand if not self.broken else hand

    def _discard(self, hand: int) -> int:  # ``ht.first.trick``
        return hand & ~POINT_CARDS or hand if self.number == 0 and self.options.first_trick else hand

    def before_tricks(self) -> Decisions[HeartsState] | None:
        return self._passes() if self.phase is PASS else None

    def _passes(self) -> Decisions[HeartsState]:
        """Each seat's three cards, chosen in secret from the dealer's left, then passed
        together in the hand's direction (``ht.pass``); the 2 of clubs leads."""
        held, passes, masks, note = self.held, self.passes, self.masks, self.facts
        first = (self.dealer + 1) % PLAYERS
        while True:
            seat = self.seat
            a = yield from decision(seat, pass_ids(held[seat]), self.pack)
            chosen = masks[a - PASS_BASE]
            held[seat] &= ~chosen
            passes[seat] = chosen
            self.seat = (seat + 1) % PLAYERS
            if self.seat != first:
                if note is not None:
                    note.append((PassChosen(seat, chosen), self.pack(self.seat)))
                continue
            if note is not None:
                note.append((PassChosen(seat, chosen), self.pack(None)))
            self.gave = gave = tuple(passes)
            direction = self.direction
            self.held = [held[s] | gave[(s - direction) % PLAYERS] for s in range(PLAYERS)]
            self.passes = [0] * PLAYERS
            self.phase, self.seat = PLAY, first_lead(self.held)
            self.leader = self.seat
            if note is not None:
                note.append((PassesExchanged(None, gave, direction), self.pack(self.seat)))
            return None

    def seat_view(self, seat: int) -> HeartsSeatView:
        """What the bot of ``seat`` reads now (as :meth:`Hearts.core_view` of the state packed now)."""
        played = tuple(self.played)
        return seat_view(
            seat, self.phase, self.held[seat], played, self.leader,
            self.number == 0 and self.options.first_trick, self.broken or bool(mask_of(played) & POINT_CARDS),
            tuple(self.taken), self.passes[seat],
        )  # fmt: skip

    def card_fact(self, player: int, card: int, trick: tuple[int, ...]) -> Fact:
        before = self.broken or bool(mask_of(trick[:-1]) & POINT_CARDS)
        return CardPlayed(player, card, trick, not before and bool(1 << card & POINT_CARDS))

    def trick_taken(self, winner: int, cards: int, trick: tuple[int, ...]) -> HeartsState | None:
        self.broken = self.broken or bool(cards & POINT_CARDS)
        self.number += 1
        self.last = (self.leader, winner, *trick)
        self.leader = self.seat = winner
        note, options = self.facts, self.options
        if note is not None:
            points = points_of(cards, options.jack)
            note.append(
                (TrickTaken(winner, self.number, self.last[0], trick, ranking(trick), points), self.pack(winner))
            )
        if self.number < CARDS_EACH:
            return None
        # the hand is over: scored (``ht.score``, ``ht.moon``), then the next dealt or the match ended
        taken = tuple(self.taken)
        hand_points, moon = hand_scores(taken, options)
        self.scores = (*self.scores, hand_points)
        done = self.pack(None)
        if note is not None:
            note.append((HandScored(None, tuple(points_of(t, options.jack) for t in taken), hand_points, moon), done))
        if max(totals_of(self.scores, PLAYERS)) >= options.target or self.rnd + 1 >= MOST_HANDS:
            self.phase = OVER
            over = self.pack(None)
            if note is not None:
                note.append((MatchEnded(None), over))
            return over
        self.load(self.rules._deal(done, self.rnd + 1, (self.dealer + 1) % PLAYERS, note))
        return None


def _suit(index: int) -> str:
    suit = FRENCH_SUITS[index]
    return f"{SUIT_NAME[suit].lower()} {SUIT_SYMBOL[suit]}"


def _queen_words(mask: int) -> str:
    return "the Queen of spades" if mask >> QUEEN_OF_SPADES & 1 else "no Queen of spades"


def _explain_trick(outcome: TrickOutcome) -> tuple[Reason, ...]:
    """Why the trick's best card is best (against each other card, the rule that decides), then
    what taking it costs."""
    return _why_best(outcome) + _cost(outcome.cards)


def _cost(cards: tuple[Card, ...]) -> tuple[Reason, ...]:
    """The points in the trick, if any: what its taker takes with it (``ht.score``)."""
    hearts = tuple(c for c in cards if c.suit == "H")
    queen = tuple(c for c in cards if IDS.id[c] == QUEEN_OF_SPADES)
    if not hearts and not queen:
        return ()
    parts = ([plural(len(hearts), "heart")] if hearts else []) + (["the Queen of spades"] if queen else [])
    points = points_of(IDS.mask(cards), False)
    text = f"Whoever takes this trick takes {plural(points, 'point')} with it: {and_list(parts)}."
    return (Reason("ht.score", text, hearts + queen),)


def _why_best(outcome: TrickOutcome) -> tuple[Reason, ...]:
    cards = outcome.cards
    led = cards[0].suit
    best = cards[outcome.winner]
    reasons = [
        Reason(
            "ht.trick",
            f"{SUIT_NAME[led]} {SUIT_SYMBOL[led]} were led and there is no trump: the highest of them takes the trick.",
        )
    ]
    if len(cards) == 1:
        reasons.append(
            Reason("ht.trick", f"Only {best.pretty} has been played, so it is taking the trick for now.", (best,))
        )
        return tuple(reasons)
    for i in outcome.ranking[1:]:
        other = cards[i]
        pair = (best, other)
        if other.suit == best.suit:
            reasons.append(
                Reason(
                    "ht.trick",
                    f"{best.pretty} beats {other.pretty}: same suit, and {rank_word(best)} is higher than "
                    f"{rank_word(other)}.",
                    pair,
                )
            )
        else:
            reasons.append(
                Reason("ht.trick", f"{best.pretty} beats {other.pretty}: {other.pretty} is not of the led suit.", pair)
            )
    return tuple(reasons)
