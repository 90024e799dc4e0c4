"""Oh Hell: bid the exact number of tricks you will take, under a trump turned up from the deck.

3 to 6 players, 52 cards. A match is a series of deals of fewer and fewer cards (5, 4, 3, 2, 1 by
default); in each, everyone bids aloud, the dealer last and not so that the bids add up to the
tricks (the "hook"), then the tricks are played: follow suit if you can, the highest trump or
else the highest card of the led suit takes the trick. A trick scores 1, an exact bid 10 more.

The rules run on the one core (:mod:`tricklab.games.core`): a compact state of card ids and
bit-mask hands (:class:`OhHellState`), numbered actions (a card's id plays it; ``Predict(k)``,
the bid of ``k`` tricks, is id ``52 + k``, as in OpenSpiel's ``oh_hell``) and
``core_legal``/``core_step`` as the only implementation of each rule; ``explain_illegal`` says
which rule refuses an action from the same functions. The narrator (:mod:`.narrate`) turns the
facts a step records (:mod:`.facts`) into the events learners read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ...actions import Action, Play, Predict
from ...cards import FRENCH_SUITS, SUIT_NAME, SUIT_SYMBOL, Card, Deck, FrenchCard, rank_word
from ...errors import IllegalAction, InvalidOption, InvalidScoreInput, describe
from ...explain import Reason, Rulebook, and_list, plural
from ..base import (
    CardLike,
    Event,
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
    Level,
    Quiz,
    Ref,
    led_suit,
    trump_of,
)
from ..core import (
    Decisions,
    Fact,
    Facts,
    TrickDeal,
    TrickGame,
    deal_hands,
    decide,
    follow_mask,
    hidden_hands,
    mask_census,
    mask_of,
    shuffle_ids,
    shuffled_ids,
    totals_of,
)
from .facts import (
    IDS,
    NO_TRUMP,
    SUIT_INDEX,
    SUIT_OF,
    VALUE,
    BidMade,
    CardPlayed,
    DealScored,
    Dealt,
    MatchEnded,
    TrickTaken,
    ranking,
)
from .rulebook import EXACT_BONUS, NAME, RULEBOOK, TITLE


class Phase(Word):
    """What a deal of Oh Hell is waiting for: a bid, a card; ``OVER`` once the match has ended."""

    BID = "bid"
    PLAY = "play"
    OVER = "over"


BID, PLAY, OVER = Phase.BID, Phase.PLAY, Phase.OVER
DIRECTIONS = ("down", "up", "once")
MOST_CARDS = 17  # the most cards a deal may give each (three players: 3 x 17 + the turned card = 52)


@dataclass(frozen=True, slots=True)
class OhHellOptions(Options):
    """Rule options. ``cards``: the cards each player gets in the first deal (OH-1, default 5);
    ``direction``: ``"down"`` (one card fewer each deal, down to 1: the default), ``"up"`` (from 1
    up to ``cards``) or ``"once"`` (a single deal). ``hook``: the dealer may not make the bids add
    up to the tricks (OH-2, default on); ``penalty``: a missed bid loses a point per trick off
    instead of scoring the tricks (a variant, default off)."""

    cards: int = 5
    direction: str = "down"
    hook: bool = True
    penalty: bool = False


# Action ids: a card's id plays it (0-51), then the bids 0 to MOST_CARDS.
BID_ID = len(IDS)
DECK = range(len(IDS))  # the card ids, in the deck's order before a shuffle
ACTIONS: tuple[Action, ...] = (*(Play(card) for card in IDS.cards), *(Predict(k) for k in range(MOST_CARDS + 1)))
_BIDS = tuple(tuple(range(BID_ID, BID_ID + size + 1)) for size in range(MOST_CARDS + 1))


class OhHellState(NamedTuple):
    """The whole state (the teacher's knowledge), compact: card ids and bit-mask hands.

    ``held[s]`` is seat ``s``'s hand as a mask of card ids (:data:`~.facts.IDS`), ``turned`` the
    id of the card turned up (its suit is trump), ``stock`` the mask of the cards not dealt (the
    turned-up one among them), ``played`` the current trick's card ids in play
    order, ``taken[s]`` the mask of the cards seat ``s`` has taken this deal, ``last`` the last
    completed trick as ``(leader, winner, card ids...)``. ``round`` counts the deals from 0 and
    ``size`` is the cards each of this one."""

    seed: int
    phase: Phase
    to_play: int | None
    round: int
    dealer: int
    size: int
    turned: int
    stock: int  # the cards not dealt, the turned-up one among them
    held: tuple[int, ...]
    bids: tuple[int | None, ...]
    leader: int
    played: tuple[int, ...]
    tricks_played: int
    tricks_won: tuple[int, ...]
    taken: tuple[int, ...]
    last: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    exact: tuple[int, ...]

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    @property
    def trump(self) -> str:
        return FRENCH_SUITS[SUIT_OF[self.turned]]

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
        """The last completed trick of the deal (``None`` before the first)."""
        if not self.last:
            return None
        leader, ids = self.last[0], self.last[2:]
        return Trick.ranked(leader, IDS.of(ids), ranking(ids, SUIT_OF[self.turned]), len(self.held), places=False)


class OhHellSeatView(NamedTuple):
    """What a bot reads of one seat's view, as ints: only the seat's own hand and the public
    table (bids are public in Oh Hell)."""

    seat: int
    players: int
    phase: Phase
    trump: int  # suit index (0-3 for ♠ ♥ ♦ ♣)
    size: int
    hand: int
    trick: tuple[int, ...]
    leader: int
    dealer: int
    bids: tuple[int | None, ...]
    won: tuple[int, ...]
    seen: int  # every card that is out of the game for this seat: played, taken, turned up


def seat_view(
    seat: int,
    players: int,
    phase: Phase,
    turned: int,
    size: int,
    hand: int,
    trick: tuple[int, ...],
    leader: int,
    dealer: int,
    bids: tuple[int | None, ...],
    won: tuple[int, ...],
    taken: Iterable[int],
) -> OhHellSeatView:
    """The :class:`OhHellSeatView` of ``seat`` (``taken``: each seat's cards taken, out of the game)."""
    seen = (1 << turned) | mask_of(trick)
    for mask in taken:
        seen |= mask
    return OhHellSeatView(seat, players, phase, SUIT_OF[turned], size, hand, trick, leader, dealer, bids, won, seen)


class OhHellView(NamedTuple):
    """What one seat may see (``seat is None``: the teacher, who sees every hand): every bid, the
    turned-up card and the tricks are public; only the other hands are hidden."""

    seat: int | None
    phase: Phase
    to_play: int | None
    round: int
    dealer: int
    cards: int  # this deal's cards each
    trump: str
    turned: Card
    hands: tuple[tuple[Card, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    bids: tuple[int | None, ...]
    leader: int
    trick: tuple[Card, ...]
    tricks_won: tuple[int, ...]
    last_trick: Trick | None
    round_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    exact: tuple[int, ...]
    core: OhHellSeatView | None = None

    @property
    def hand(self) -> tuple[Card, ...]:
        if self.seat is None:
            return ()
        own = self.hands[self.seat]
        return own if own is not None else ()


# --- what the game offers ------------------------------------------------------------------------


def oh_led_only(outcome: TrickOutcome) -> bool:
    """Quiz level 1: no trump in the trick, two or more cards of the led suit to compare."""
    trump = trump_of(outcome)
    led = led_suit(outcome)
    return all(c.suit != trump for c in outcome.cards) and sum(c.suit == led for c in outcome.cards) >= 2


def oh_trumped(outcome: TrickOutcome) -> bool:
    """Quiz level 2: a trump is in a trick led in another suit."""
    trump = trump_of(outcome)
    return trump is not None and led_suit(outcome) != trump and any(c.suit == trump for c in outcome.cards)


_TRUMPS: tuple[ContextItems, ...] = tuple((("trump", suit),) for suit in "SHDC")

CAPABILITIES = Capabilities(
    decision=Decision(DecisionKind.PREDICTION, BID, "oh.bid", tuple(range(6)), noun="bid", gerund="bidding"),
    context=(TRUMP,),
    quiz=Quiz(
        (
            Level(
                1,
                "The led suit",
                "No trump is in these tricks: the highest card of the suit that was led takes the trick; "
                "cards of other suits cannot.",
                oh_led_only,
                (2, 3),
                _TRUMPS,
            ),
            Level(
                2,
                "Trumps",
                "The turned-up card's suit is trump: a trump takes the trick from any card of another suit, "
                "however high.",
                oh_trumped,
                (2, 3, 4),
                _TRUMPS,
            ),
        ),
    ),
    panels=(Ref("tricklab.games.oh_hell.panel:bids_and_tricks"),),
    bots=(("heuristic", Ref("tricklab.games.oh_hell.bots:HeuristicBot")),),
    advice=Ref("tricklab.games.oh_hell.advice:OH_ADVICE"),
    review=Ref("tricklab.games.oh_hell.review:OH_REVIEW"),
    variants=("penalty",),
    round_word="deal",
    option_values=(
        ("cards", (1, 3, 7)),
        ("direction", ("up", "once")),
        ("hook", (False,)),
        ("penalty", (True,)),
    ),
    examples=(
        Example("play.ipynb", "", "players=4"),
        Example("quiz.ipynb", "", "players=4&seed=1"),
        Example("bid_trainer.ipynb", "", "players=4&seed=12"),
        Example("explain_trick.ipynb", "", "players=4&cards=7H,AH,8S,KD&trump=S"),
        Example("replay.ipynb", "", "players=4&seed=7"),
    ),
)


def deal_sizes(options: OhHellOptions) -> tuple[int, ...]:
    """The cards each player gets in each deal of the match, in order (OH-1)."""
    if options.direction == "once":
        return (options.cards,)
    down = tuple(range(options.cards, 0, -1))
    return down if options.direction == "down" else down[::-1]


def hook_bid(bids: Sequence[int | None], size: int) -> int | None:
    """The bid the dealer may not make (``oh.hook``): the one that would make the bids add up to
    the tricks, if it is a bid at all (``None`` when the others already bid more)."""
    forbidden = size - sum(b for b in bids if b is not None)
    return forbidden if forbidden >= 0 else None


def points(bid: int, tricks: int, penalty: bool) -> int:
    """A deal's points for one player (``oh.score``, ``oh.score.penalty``)."""
    if tricks == bid:
        return tricks + EXACT_BONUS
    return -abs(tricks - bid) if penalty else tricks


class OhHell(TrickGame[OhHellState, "_Deal"]):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = TITLE
    aliases: ClassVar[tuple[str, ...]] = ("oh", "oh_hell", "oh hell", "ohhell")
    player_counts: ClassVar[tuple[int, ...]] = (3, 4, 5, 6)  # the table seats six (some play it with seven)
    rulebook: ClassVar[Rulebook] = RULEBOOK
    options_type: ClassVar[type[Options]] = OhHellOptions
    state_type: ClassVar[type] = OhHellState
    view_type: ClassVar[type] = OhHellView
    capabilities: ClassVar[Capabilities] = CAPABILITIES
    options: OhHellOptions

    def __init__(self, players: int, options: Options) -> None:
        super().__init__(players, options)
        assert isinstance(options, OhHellOptions)
        self.set_actions(ACTIONS)
        self.sizes = deal_sizes(options)
        self._next = tuple((s + 1) % players for s in range(players))

    def _check_options(self) -> None:
        most = (len(IDS) - 1) // self.players
        cards = self.options.cards
        if isinstance(cards, bool) or not isinstance(cards, int) or not 1 <= cards <= most:
            raise InvalidOption(
                f"{TITLE} with {self.players} players deals 1 to {most} cards each (one more is turned up), "
                f"not cards={describe(cards)}",
                rule_id="oh.deals",
            )
        check_choice(TITLE, "direction", self.options.direction, DIRECTIONS)
        check_choice(TITLE, "hook", self.options.hook, (True, False))
        check_choice(TITLE, "penalty", self.options.penalty, (True, False))

    def _build_deck(self) -> Deck:
        return Deck(TITLE, FrenchCard, IDS.cards)

    @property
    def max_decisions(self) -> int:
        """Every deal: one bid and one card per player per trick."""
        return sum(self.players * (1 + size) for size in self.sizes)

    def pieces(self, state: OhHellState) -> Counter[object]:
        return mask_census((*state.held, *state.taken, state.stock), state.played)

    # --- public rules API ----------------------------------------------------------------------

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
            rule_id="oh.deal",
        )

    _MISSING: ClassVar[object] = object()

    def resolve_trick(self, cards: Iterable[CardLike] | str, trump: object = _MISSING, **context: Any) -> TrickOutcome:
        """Rank a (possibly partial) trick: ``trump="S"`` etc. is required (``None`` explicitly
        means no trump). Only the first place matters to the rules; the cards that cannot take
        the trick follow in play order."""
        if context:
            raise InvalidOption(f"resolve_trick takes trump=..., not {quote_names(context)}")
        if trump is self._MISSING:
            raise InvalidOption("Oh Hell tricks need the trump suit: resolve_trick(cards, trump='S')")
        suit = self.parse_trump(trump)
        played = self._trick(cards)
        if not played:
            raise InvalidOption("a trick needs at least one card to rank", rule_id="oh.trick")
        ids = tuple(IDS.id[c] for c in played)
        order = ranking(ids, NO_TRUMP if suit is None else SUIT_INDEX[suit])
        return TrickOutcome(NAME, played, order, _explain_trick, {"trump": suit})

    def legal_plays(
        self, hand: Iterable[CardLike] | str, trick: Iterable[CardLike] | str = (), **context: Any
    ) -> tuple[Card, ...]:
        """The cards of ``hand`` that may be played to ``trick`` (``oh.follow``); the trump does
        not change what may be played, so ``trump=`` is accepted and not needed."""
        unknown = {k: v for k, v in context.items() if k != "trump"}
        if unknown:
            raise InvalidOption(f"legal_plays takes hand, trick and trump=, not {quote_names(unknown)}")
        cards, played = self._hand_and_trick(hand, trick)
        if not played:
            return cards
        mask = follow_mask(IDS.mask(cards), SUIT_INDEX[played[0].suit], IDS)
        return tuple(c for c in cards if mask >> IDS.id[c] & 1)

    def score_deal(self, *, bid: int, tricks: int) -> Score:
        """One player's score for a deal (``oh.score``): a point per trick, 10 more for an exact
        bid (with the variant ``penalty``: a point lost per trick off instead)."""
        most = max(self.sizes)
        for what, value in (("bid", bid), ("tricks", tricks)):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
                raise InvalidScoreInput(
                    f"{what} is a whole number from 0 to {most} (the most cards a deal gives), not {describe(value)}",
                    rule_id="oh.bid" if what == "bid" else "oh.score",
                )
        return _score(bid, tricks, self.options.penalty)

    # --- the core ------------------------------------------------------------------------------------

    def core_initial(
        self, seed: int, facts: Facts | None, first_dealer: int | None = None, **match_options: Any
    ) -> OhHellState:
        if match_options:
            raise InvalidOption(f"{TITLE} has no match option {quote_names(match_options)}; use first_dealer")
        dealer = self.first_dealer(seed, first_dealer)
        return self._deal(self._undealt(seed, dealer), 0, dealer, facts)

    def _undealt(self, seed: int, dealer: int) -> OhHellState:
        """The match before its first deal."""
        empty = (0,) * self.players
        return OhHellState(seed, BID, None, 0, dealer, 0, 0, 0, (), (), 0, (), 0, empty, empty, (), (), empty)

    def _deal(self, state: OhHellState, round_index: int, dealer: int, facts: Facts | None) -> OhHellState:
        """Deal ``round_index`` (``oh.deal``): the deal's cards to each from the seeded shuffle, in
        blocks, and the next card turned up."""
        return self._dealt(state, round_index, dealer, shuffled_ids(self, state.seed, round_index, DECK), facts)

    def core_deal(self, getrandbits: Callable[[int], int], first_dealer: int = 0) -> OhHellState:
        order = shuffle_ids(DECK, getrandbits, first=self.players * self.sizes[0] + 1)  # the hands, the trump
        return self._dealt(self._undealt(0, first_dealer), 0, first_dealer, order, None)

    def _dealt(
        self, state: OhHellState, round_index: int, dealer: int, order: Sequence[int], facts: Facts | None
    ) -> OhHellState:
        """The deal of ``order`` (the deck shuffled): the deal's cards to each in blocks, and the
        next card turned up."""
        n = self.players
        size = self.sizes[round_index]
        hands, stock = deal_hands(order, n, size)
        turned = order[n * size]
        first = self._next[dealer]
        empty = (0,) * n
        state = OhHellState(
            state.seed,
            BID,
            first,
            round_index,
            dealer,
            size,
            turned,
            stock,
            hands,
            (None,) * n,
            first,
            (),
            0,
            empty,
            empty,
            (),
            state.round_scores,
            state.exact,
        )
        if facts is not None:
            facts.append((Dealt(dealer, round_index, size, turned), state))
        return state

    def forbidden_bid(self, state: OhHellState) -> int | None:
        """The bid the seat to bid may not make now: the dealer's hook (``oh.hook``), or ``None``."""
        if state.phase is not BID or not self.options.hook or state.to_play != state.dealer:
            return None
        return hook_bid(state.bids, state.size)

    def new_deal(self, state: OhHellState, facts: Facts | None) -> _Deal:
        """The deal in play from ``state``, whose round is the rules of play to the match's end: the
        engine's trick round (``oh.follow``, ``oh.trick``: the best card takes it and its taker
        leads the next, ``oh.lead.next``) on an Oh Hell deal (:class:`_Deal`: the bids, the
        trump, the score and the next deal)."""
        return _Deal(self, state, facts)

    # --- refusals, and the decision in words -----------------------------------------------------------

    def explain_illegal(self, state: OhHellState, action: Action) -> IllegalAction:
        seat = state.to_play
        if seat is None:
            return illegal(
                "oh.over",
                "the game is over: no more actions can be taken",
                "The game is over: you cannot move any more.",
            )
        name = self.seat_name(seat)
        quoted = quote_action(action)
        if state.phase is BID:
            if not isinstance(action, Predict):
                return illegal(
                    "oh.bid",
                    f"{name} must bid now (0 to {state.size} tricks), not {quoted}",
                    f"You must bid now: how many tricks will you take, 0 to {state.size}? Not {quoted}.",
                )
            forbidden = self.forbidden_bid(state)
            if action.n == forbidden:
                return illegal("oh.hook", _hook_text(name, state, forbidden), _hook_to_you(state, forbidden) + ".")
            return illegal(
                "oh.bid",
                f"a bid is a number of tricks from 0 to {state.size} (the cards in hand), not {describe(action.n)}",
                f"Your bid is a number of tricks from 0 to {state.size}, not {describe(action.n)}.",
            )
        if not isinstance(action, Play):
            return illegal(
                "oh.follow", f"{name} must play a card now, not {quoted}", f"You must play a card now, not {quoted}."
            )
        card = action.card
        hand = state.held[seat]
        c = IDS.id.get(card)
        if c is None or not hand >> c & 1:
            return illegal("oh.follow", f"{name} does not hold {card.pretty}", f"You do not hold {card.pretty}.")
        led = SUIT_OF[state.played[0]]
        allowed = follow_mask(hand, led, IDS)
        return illegal(
            "oh.follow",
            f"must follow suit: {SUIT_NAME[FRENCH_SUITS[led]].lower()} {SUIT_SYMBOL[FRENCH_SUITS[led]]} were led "
            f"and {name} holds {and_list(x.pretty for x in IDS.hand(allowed))}",
            _follow_to_you(led, allowed) + ".",
        )

    def explain_choice(self, view: SeatView, seat: int | None = None) -> Reason:
        """The rule that frames the decision ``seat`` makes now: the bid's range (and the dealer's
        hook), or the rule that limits the cards it may play."""
        self.check_view(view)
        self.check_view_seat(seat)
        assert isinstance(view, OhHellView)
        for s in (seat, view.seat, view.to_play):
            if s is not None:
                seat = s
                break
        else:
            raise InvalidOption("the game is over: there is no decision to explain")
        if view.phase is BID:
            text = f"Bid how many tricks you will take this deal, 0 to {view.cards}; everyone hears it."
            if self.options.hook and seat == view.dealer:
                forbidden = hook_bid(view.bids[:seat] + (None,) + view.bids[seat + 1 :], view.cards)
                if forbidden is not None and forbidden <= view.cards:
                    return Reason(
                        "oh.hook", f"{text} As the dealer you may not bid {forbidden}: {_adds_up(view.cards)}."
                    )
            return Reason("oh.bid", text)
        if view.phase is PLAY:
            hand = view.hands[seat] if seat < len(view.hands) else None
            if hand is None:
                raise InvalidOption(
                    f"this view does not show {self.seat_name(seat)}'s hand: ask with that seat's own view"
                )
            mask = IDS.mask(hand)
            if not view.trick:
                return Reason("oh.lead.next", "Any card may be played: you lead this trick.", hand)
            led = SUIT_INDEX[view.trick[0].suit]
            allowed = follow_mask(mask, led, IDS)
            if allowed != mask or mask & IDS.suit_mask[led]:
                return Reason("oh.follow", _follow_to_you(led, allowed) + ".", IDS.hand(allowed))
            suit = SUIT_NAME[FRENCH_SUITS[led]].lower()
            return Reason("oh.follow.void", f"Any card may be played: you hold no {suit}, the led suit.", hand)
        return super().explain_choice(view, seat)

    def describe_action(self, action: Action, view: SeatView | None = None) -> str:
        """``action`` in words: ``"Play 7♥"``, ``"Bid 2 tricks"``."""
        self.check_described(action, view)
        if isinstance(action, Play):
            return f"Play {action.card.pretty}"
        if isinstance(action, Predict):
            return f"Bid {plural(action.n, 'trick')}"
        return super().describe_action(action, view)

    # --- results and views ----------------------------------------------------------------------------

    def result(self, state: OhHellState) -> MatchResult | None:
        self.check_state(state)
        if state.phase is not OVER:
            return None
        totals = state.totals
        decided = decide(totals, ((TieBreak.EXACT_PREDICTIONS, state.exact),))
        best = totals[decided.tied[0]]
        names = " and ".join(self.seat_name(s) for s in decided.tied)
        if decided.tie_break is None:
            text = f"{names} wins with {plural(best, 'point')}."
        elif decided.tie_break is TieBreak.EXACT_PREDICTIONS:
            winner = decided.winners[0]
            text = (
                f"{names} tie on {plural(best, 'point')}; {self.seat_name(winner)} wins, having made "
                f"the bid exactly in more deals ({state.exact[winner]})."
            )
        else:
            sharing = " and ".join(self.seat_name(s) for s in decided.winners)
            text = (
                f"{sharing} tie on {plural(best, 'point')} and on exact bids "
                f"({state.exact[decided.winners[0]]}): they share the win."
            )
        return MatchResult(totals, decided.winners, decided.tie_break, (Reason("oh.win", text),))

    def core_view(self, state: OhHellState, seat: int) -> OhHellSeatView:
        """What the bot of ``seat`` reads, as ints (cheap: built for every decision of a play-out)."""
        return seat_view(
            seat, self.players, state.phase, state.turned, state.size, state.held[seat], state.played,
            state.leader, state.dealer, state.bids, state.tricks_won, state.taken,
        )  # fmt: skip

    def view(self, state: OhHellState, seat: int | None) -> OhHellView:
        self.check_state(state)
        self.check_view_seat(seat)
        return OhHellView(
            seat,
            state.phase,
            state.to_play,
            state.round,
            state.dealer,
            state.size,
            state.trump,
            IDS.card(state.turned),
            tuple(None if m is None else IDS.hand(m) for m in hidden_hands(state.held, seat)),
            tuple(map(int.bit_count, state.held)),
            state.bids,
            state.leader,
            state.trick,
            state.tricks_won,
            state.last_trick,
            state.round_scores,
            state.totals,
            state.exact,
            None if seat is None or state.phase is OVER else self.core_view(state, seat),
        )

    def narrate(self, fact: Fact, state: OhHellState) -> Event:
        from .narrate import narrate  # the narrator reads the rules; the rules name it only here

        return narrate(self, fact, state)


# --- words and pure rule functions ----------------------------------------------------------------


class _Deal(TrickDeal[OhHellState]):
    """Oh Hell's own rules on the engine's trick round (:func:`~..core.trick_round`): bids aloud
    before the first trick (``oh.bid``, the dealer's hook ``oh.hook``), each trick counted to
    its taker, the deal scored (``oh.score``) and the next dealt, or the match ended. The state
    lives here between decisions; it is packed into an :class:`OhHellState` when the driver
    sends ``PACK`` and for each fact."""

    ids = IDS

    def __init__(self, rules: OhHell, state: OhHellState, facts: Facts | None) -> None:
        self.rules, self.facts, self.next_seat = rules, facts, rules._next
        self.hook, self.penalty = rules.options.hook, rules.options.penalty
        self.load(state)

    def load(self, state: OhHellState) -> None:
        """Play on from ``state`` (at a decision, or just dealt)."""
        (self.seed, self.phase, seat, self.rnd, self.dealer, self.size, self.turned, self.stock, held, bids,
         self.leader, played, self.number, won, taken, self.last, self.scores, self.exact) = state  # fmt: skip
        assert seat is not None, "a round starts at a decision"
        self.seat = seat
        self.held, self.bids, self.played, self.won, self.taken = (
            list(held),
            list(bids),
            list(played),
            list(won),
            list(taken),
        )
        self.trump = SUIT_OF[self.turned]
        self.values = VALUE[self.trump]

    def pack(self, to_play: int | None) -> OhHellState:
        return OhHellState(
            self.seed, self.phase, to_play, self.rnd, self.dealer, self.size, self.turned, self.stock,
            tuple(self.held), tuple(self.bids), self.leader, tuple(self.played), self.number, tuple(self.won),
            tuple(self.taken), self.last, self.scores, self.exact,
        )  # fmt: skip

    def before_tricks(self) -> Decisions[OhHellState] | None:
        return self._bids() if self.phase is BID else None

    def _bids(self) -> Decisions[OhHellState]:
        """Each seat's bid aloud, from the dealer's left (``oh.bid``); the dealer's may not make
        the bids add up to the tricks (``oh.hook``)."""
        bids, dealer, size, next_seat, note = self.bids, self.dealer, self.size, self.next_seat, self.facts
        while self.phase is BID:
            seat = self.seat
            legal = _BIDS[size]
            forbidden = hook_bid(bids, size) if self.hook and seat == dealer else None
            if forbidden is not None and forbidden <= size:
                legal = legal[:forbidden] + legal[forbidden + 1 :]
            a = yield seat, legal
            while a < 0:  # PACK (as in decision(), written in)
                a = yield self.pack(seat)
            bid = a - BID_ID
            bids[seat] = bid
            if seat != dealer:
                self.seat = next_seat[seat]
            else:
                self.phase = PLAY
                self.seat = self.leader = next_seat[dealer]
            if note is not None:
                note.append((BidMade(seat, bid, forbidden), self.pack(self.seat)))
        return None

    def seat_view(self, seat: int) -> OhHellSeatView:
        """What the bot of ``seat`` reads now (as :meth:`OhHell.core_view` of the state packed now)."""
        return seat_view(
            seat, len(self.held), self.phase, self.turned, self.size, self.held[seat], tuple(self.played),
            self.leader, self.dealer, tuple(self.bids), tuple(self.won), self.taken,
        )  # fmt: skip

    def card_fact(self, player: int, card: int, trick: tuple[int, ...]) -> Fact:
        return CardPlayed(player, card, trick, self.trump)

    def trick_taken(self, winner: int, cards: int, trick: tuple[int, ...]) -> OhHellState | None:
        self.won[winner] += 1
        self.number += 1
        self.last = (self.leader, winner, *trick)
        self.leader = self.seat = winner
        note = self.facts
        if note is not None:
            note.append(
                (
                    TrickTaken(winner, self.number, self.last[0], trick, ranking(trick, self.trump), self.trump),
                    self.pack(winner),
                )
            )
        if self.number < self.size:
            return None
        # the deal is over: scored (``oh.score``), then the next dealt or the match ended
        won, penalty = self.won, self.penalty
        final = tuple(b for b in self.bids if b is not None)
        points_ = tuple([points(b, w, penalty) for b, w in zip(final, won, strict=True)])
        self.scores = (*self.scores, points_)
        self.exact = tuple([e + (b == w) for e, b, w in zip(self.exact, final, won, strict=True)])
        last_deal = self.rnd + 1 >= len(self.rules.sizes)
        if note is not None or not last_deal:
            done = self.pack(None)
            if note is not None:
                note.append((DealScored(None, final, tuple(won), points_), done))
        if last_deal:
            self.phase = OVER
            over = self.pack(None)
            if note is not None:
                note.append((MatchEnded(None), over))
            return over
        self.load(self.rules._deal(done, self.rnd + 1, self.next_seat[self.dealer], note))
        return None


def _adds_up(size: int) -> str:
    return f"the bids would add up to {plural(size, 'trick')}, and someone must miss"


def _hook_text(name: str, state: OhHellState, forbidden: int | None) -> str:
    return f"{name} deals and bids last, and may not bid {forbidden}: {_adds_up(state.size)}"


def _hook_to_you(state: OhHellState, forbidden: int | None) -> str:
    return f"You deal and bid last, so you may not bid {forbidden}: {_adds_up(state.size)}"


def _follow_to_you(led: int, allowed: int) -> str:
    suit = SUIT_NAME[FRENCH_SUITS[led]].lower()
    return f"You must follow {suit}: you hold {and_list(c.pretty for c in IDS.hand(allowed))}"


def _score(bid: int, tricks: int, penalty: bool) -> Score:
    """One player's score for a deal with its lines and reasons, from :func:`points`."""
    total = points(bid, tricks, penalty)
    lines: tuple[ScoreLine, ...]
    if tricks == bid:
        lines = (
            ScoreLine("tricks", "tricks", tricks, "", plural(tricks, "trick")),
            ScoreLine("bonus", "exact bid", EXACT_BONUS, "exact", f"bid {bid}, took {tricks}"),
        )
        reason = Reason("oh.score", f"Bid {bid} and took {plural(tricks, 'trick')}: exact, {tricks} + 10 = {total}.")
    elif penalty:
        off = abs(tricks - bid)
        lines = (ScoreLine("missed", "missed bid", total, "missed", f"bid {bid}, took {tricks}: {off} off"),)
        reason = Reason(
            "oh.score.penalty", f"Bid {bid} but took {plural(tricks, 'trick')}: {plural(off, 'trick')} off, {total}."
        )
    else:
        lines = (
            ScoreLine("tricks", "tricks", tricks, "", plural(tricks, "trick")),
            ScoreLine("bonus", "exact bid", 0, "missed", f"bid {bid}, took {tricks}"),
        )
        reason = Reason("oh.score", f"Bid {bid} but took {plural(tricks, 'trick')}: {tricks} for the tricks, no bonus.")
    return Score(total, lines, (reason,))


def _explain_trick(outcome: TrickOutcome) -> tuple[Reason, ...]:
    """Why the trick's best card is best: against each other card, the rule that decides."""
    cards = outcome.cards
    trump = outcome.context.get("trump")
    assert trump is None or isinstance(trump, str)
    led = cards[0].suit
    best = cards[outcome.winner]
    if trump is None:
        head = f"There is no trump. {SUIT_NAME[led]} {SUIT_SYMBOL[led]} were led: the highest of them takes the trick."
    elif led == trump:
        head = f"A trump was led ({SUIT_NAME[trump].lower()} {SUIT_SYMBOL[trump]}): the highest trump takes the trick."
    else:
        head = (
            f"Trump is {SUIT_NAME[trump].lower()} {SUIT_SYMBOL[trump]} and {SUIT_NAME[led].lower()} "
            f"{SUIT_SYMBOL[led]} were led: the highest trump takes the trick, or with none the highest "
            f"{SUIT_NAME[led].lower()[:-1]}."
        )
    reasons = [Reason("oh.trick", head)]
    if len(cards) == 1:
        reasons.append(
            Reason("oh.trick", f"Only {best.pretty} has been played, so it is taking the trick for now.", (best,))
        )
        return tuple(reasons)
    for i in outcome.ranking[1:]:
        other = cards[i]
        pair = (best, other)
        if other.suit == best.suit:
            reasons.append(
                Reason(
                    "oh.rank.within",
                    f"{best.pretty} beats {other.pretty}: same suit, and {rank_word(best)} is higher than "
                    f"{rank_word(other)}.",
                    pair,
                )
            )
        elif best.suit == trump:
            reasons.append(
                Reason("oh.rank.trump", f"{best.pretty} beats {other.pretty}: a trump beats any other suit.", pair)
            )
        else:
            what = "neither the led suit nor a trump" if trump else "not of the led suit"
            reasons.append(
                Reason("oh.rank.led", f"{best.pretty} beats {other.pretty}: {other.pretty} is {what}.", pair)
            )
    return tuple(reasons)
