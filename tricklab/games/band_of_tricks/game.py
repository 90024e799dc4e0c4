"""The game Band of Tricks: its rules object on the core, its views and what it offers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import fields, replace
from typing import Any, ClassVar, TypeVar

from ...actions import BID_SUITS, Action, Bid, Play
from ...cards import BAND_SUIT_NAME, BAND_SUITS, BandCard, Card, Deck
from ...errors import IllegalAction, InvalidOption, InvalidScoreInput, describe
from ...explain import Reason, Rulebook, plural
from ..base import (
    CardLike,
    Event,
    Log,
    MatchResult,
    Options,
    Score,
    SeatView,
    TieBreak,
    TrickOutcome,
    illegal,
    quote_action,
    quote_names,
)
from ..capabilities import (
    Capabilities,
    Decision,
    DecisionKind,
    Example,
    Grouping,
    Level,
    Quiz,
    Ref,
    trick_suits,
)
from ..core import (
    Decisions,
    Fact,
    Facts,
    TrickDeal,
    TrickGame,
    deal_hands,
    decide,
    hidden_hands,
    lowest,
    mask_census,
    shuffle_ids,
    shuffled_ids,
    totals_of,
)
from .narrate import _explain_trick, describe_action, explain_choice, follow_to_you, narrate
from .rulebook import RULEBOOK
from .rules import (
    ACTIONS,
    ALL_BIDS,
    ASSIGN,
    ASSIGN0,
    ASSIGN_IDS,
    BID,
    BID0,
    BID_IDS,
    BID_OR_NONE,
    CARDS_EACH,
    COUNTS_METAL,
    DECK,
    DECK_IDS,
    FOLLOWS,
    IDS,
    LABEL,
    MAX_BID,
    MAX_EXTRA_DEALS_LIMIT,
    METAL,
    METAL_SUIT,
    NAME,
    NO_BID,
    NO_WINS,
    NOT_COUNTED,
    OVER,
    PLAY,
    SUIT,
    TITLE,
    WIN_KEYS,
    ZERO,
    ZERO_BID,
    ZERO_SUCCESS_POINTS,
    BandOfTricksCoreView,
    BandOfTricksOptions,
    BandOfTricksState,
    BandOfTricksView,
    BidMade,
    Counted,
    DealScored,
    Dealt,
    Ended,
    MetalChoice,
    Played,
    TiedForLead,
    TrickIds,
    TrickWon,
    Wins,
    _add_win,
    _bid_refusal,
    _check_bid_input,
    _holding,
    _join,
    _legal,
    _metal_choices,
    _new_core_view,
    _new_state,
    _new_trick_ids,
    _next_best,
    _playable,
    _plays,
    _points_of,
    _rank,
    _score,
    _to_follow,
)

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
    panels=(
        Ref("tricklab.games.band_of_tricks.panel:bids_and_wins"),
        Ref("tricklab.games.band_of_tricks.panel:metal_choice"),
    ),
    bots=(("heuristic", Ref("tricklab.games.band_of_tricks.bots:HeuristicBot")),),
    advice=Ref("tricklab.games.band_of_tricks.advice:BT_ADVICE"),
    review=Ref("tricklab.games.band_of_tricks.review:BT_REVIEW"),
    option_values=(("max_extra_deals", (0, 100)),),
    round_word="deal",
    # counting a Metal win is part of its trick's entry; a tie after the last deal ends that deal
    grouping=Grouping(follows=("count",), closes=("score", "tie", "end")),
    examples=(
        Example("play.ipynb", "", "players=4"),
        Example("quiz.ipynb", "", "players=4&seed=1"),
        Example("bid_trainer.ipynb", "", "players=4&seed=12"),
        Example("explain_trick.ipynb", "", "players=4&cards=P3,S5,R13,M13"),
        Example("replay.ipynb", "", "players=5&seed=7"),
    ),
)


V = TypeVar("V")


def _frozen_maker(cls: type[V]) -> Callable[..., V]:
    """A maker of ``cls`` (a frozen dataclass with slots) from all its fields in order, without
    the generated ``__init__``'s ``object.__setattr__`` per field (a view is built before every
    decision a bot makes). The values are taken as given: the caller builds them right."""
    # candidate for games/core.py: every game builds a view per decision
    setters = tuple(getattr(cls, f.name).__set__ for f in fields(cls))  # type: ignore[arg-type]
    new = object.__new__

    def make(*values: object) -> V:
        made = new(cls)
        for put, value in zip(setters, values, strict=True):
            put(made, value)
        return made

    return make


_new_view = _frozen_maker(BandOfTricksView)
_DEALS_KEPT = 256  # deals each rules object remembers


class BandOfTricks(TrickGame[BandOfTricksState, "_Deal"]):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = TITLE
    aliases: ClassVar[tuple[str, ...]] = ("bt", "band_of_tricks")
    player_counts: ClassVar[tuple[int, ...]] = (3, 4, 5)
    rulebook: ClassVar[Rulebook] = RULEBOOK
    options_type: ClassVar[type[Options]] = BandOfTricksOptions
    state_type: ClassVar[type] = BandOfTricksState
    view_type: ClassVar[type] = BandOfTricksView
    capabilities: ClassVar[Capabilities] = CAPABILITIES
    match_option_names: ClassVar[tuple[str, ...]] = ("start_player",)
    options: BandOfTricksOptions

    def __init__(self, players: int, options: Options) -> None:
        super().__init__(players, options)
        self.set_actions(ACTIONS)
        self._each = CARDS_EACH[players]
        self._next = tuple((s + 1) % players for s in range(players))
        # the hands and the card aside of each (seed, deal) dealt lately: a deal depends on
        # nothing else, and play-outs from one position deal the same next deal again and again
        self._dealt: dict[tuple[int, int], tuple[tuple[int, ...], int]] = {}

    def _check_options(self) -> None:
        cap = self.options.max_extra_deals
        if isinstance(cap, bool) or not isinstance(cap, int) or not 0 <= cap <= MAX_EXTRA_DEALS_LIMIT:
            raise InvalidOption(
                f"{TITLE}: max_extra_deals is a whole number from 0 to {MAX_EXTRA_DEALS_LIMIT}, not {describe(cap)}",
                rule_id="bt.win.limit",
            )

    def _build_deck(self) -> Deck:
        return Deck(TITLE, BandCard, DECK)

    @property
    def max_decisions(self) -> int:
        """One deal per player and at most ``max_extra_deals`` more (BT-2, BT-8); each has one bid
        per player, a card per player in each trick and at most one Metal choice per trick (BT-6)."""
        n, each = self.players, self.cards_each
        return (n + self.options.max_extra_deals) * (n + each * n + each)

    def pieces(self, state: BandOfTricksState) -> Counter[object]:
        return mask_census((*state.held, state.aside_mask, *state.won_masks), state.trick_ids)

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
        return _new_state(type(state), (*state[:5], tuple(hands), *state[6:]))  # held is field 5

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
        dealt = self._dealt.get((seed, deal))
        if dealt is None:
            dealt = deal_hands(shuffled_ids(self, seed, deal, DECK_IDS), n, self._each)
            if len(self._dealt) >= _DEALS_KEPT:
                self._dealt.clear()
            self._dealt[seed, deal] = dealt
        return self._deal_out(seed, deal, start, deal_scores, *dealt, facts)

    def core_deal(self, getrandbits: Callable[[int], int], first_dealer: int = 0) -> BandOfTricksState:
        order = shuffle_ids(DECK_IDS, getrandbits, first=self.players * self._each)  # the hands
        return self._deal_out(0, 0, first_dealer, (), *deal_hands(order, self.players, self._each), None)

    def _deal_out(
        self,
        seed: int,
        deal: int,
        start: int,
        deal_scores: tuple[tuple[int, ...], ...],
        held: tuple[int, ...],
        aside: int,
        facts: Facts | None,
    ) -> BandOfTricksState:
        """Deal ``deal`` as the hands ``held`` and the card(s) ``aside``: bids next, from ``start``."""
        n = self.players
        state = _new_state(
            BandOfTricksState,
            (
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
            ),
        )
        if facts is not None:
            facts.append((Dealt(start, deal), state))
        return state

    def new_deal(self, state: BandOfTricksState, facts: Facts | None) -> _Deal:
        """The deal in play from ``state``, whose round is the rules of play to the match's end: the
        engine's trick round on a Band of Tricks deal (:class:`_Deal`: the bids, the suit to
        follow and the ranking of a trick, the suit a Metal win counts for, the score, the next
        deal and the deals after a tie)."""
        return _Deal(self, state, facts)

    def legal_actions(self, state: BandOfTricksState) -> list[Action]:
        # CoreRules.legal_actions, with the 343 bids copied as one slice of the action table
        # candidate for games/core.py: the same for any range of action ids
        self.check_state(state)
        ids = self.core_legal(state)
        if isinstance(ids, range):
            return list(self.actions[ids.start : ids.stop])
        table = self.actions
        return [table[i] for i in ids]

    def _apply(self, state: BandOfTricksState, action: Action, log: Log) -> BandOfTricksState:
        if log is None:
            return self.core_step(state, self.listed_id(state, action), None)
        if not isinstance(action, Bid) or action.zero:
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
            return illegal(
                "bt.over",
                "the game is over: no more actions can be taken",
                "The game is over: you cannot move any more.",
            )
        name = self.seat_name(seat)
        quoted = quote_action(action)
        phase = state.phase
        if phase is BID:
            if not isinstance(action, Bid):
                return illegal(
                    "bt.bid",
                    f"{name} must bid now: a number from 0 to 6 for Rock, Soul and Pops "
                    f"(like 'bid 1 3 0') or Zero Success ('bid zero'), not {quoted}",
                    "You must bid now: a number from 0 to 6 for each of Rock, Soul and Pops, or Zero Success; "
                    f"not {quoted}.",
                )
            refusal = _bid_refusal(action)
            return refusal or illegal(
                "bt.bid", f"{quoted} is not a bid of {TITLE}", f"{quoted} is not a bid you can make in {TITLE}."
            )
        if phase is PLAY:
            if not isinstance(action, Play):
                return illegal(
                    "bt.trick", f"{name} must play a card now, not {quoted}", f"You must play a card now, not {quoted}."
                )
            card = IDS.id.get(action.card)
            hand = state.held[seat]
            if card is None or not hand >> card & 1:
                return illegal("bt.hand", f"{name} does not hold {action.card}", f"You do not hold {action.card.name}.")
            allowed, rule = _plays(hand, state.follow)
            if rule is not None and not allowed >> card & 1:
                follow = state.follow
                suit = BAND_SUIT_NAME[BAND_SUITS[follow]]
                holding = IDS.card(lowest(hand & IDS.suit_mask[follow]))
                return illegal(
                    rule,
                    f"must follow {suit}: {suit} is the suit to follow in this trick and {name} holds "
                    f"{holding}, so {name} must play a {suit} card or a Metal card",
                    follow_to_you(hand, follow) + ".",
                )
            return illegal(
                "bt.trick", f"{name} cannot play {action.card} now", f"You cannot play {action.card.name} now."
            )
        return illegal(
            "bt.metal.assign",
            f"{name} won the last trick with Metal and first chooses the suit it counts for "
            f"('count rock', 'count soul' or 'count pops'), not {quoted}",
            f"You won the last trick with Metal: first choose whether it counts for Rock, Soul or Pops, not {quoted}.",
        )

    # --- words for the learner (see .narrate) ---------------------------------------------------------

    def explain_choice(self, view: SeatView, seat: int | None = None) -> Reason:
        """The rule that frames the decision ``seat`` makes now, spoken to that seat (by default
        the view's own seat, else the seat to play): what a bid is, which cards may be played
        and why (from :func:`~.rules._plays`, on :func:`~.rules._playable`, the one copy of the
        follow rule), or the Metal win to count."""
        self.check_view(view)
        self.check_view_seat(seat)
        return explain_choice(self, view, seat)

    def describe_action(self, action: Action, view: SeatView | None = None) -> str:
        """``action`` in words: ``"Play Rock 13"``, ``"Bid Rock 1, Soul 0, Pops 2"``, ``"Zero Success:
        win no trick"`` (also for a bid of 0 in every suit, which is Zero Success), ``"Count this
        trick for Rock (then 2 of 1 bid: \u22121)"`` (with the view's Metal choices: the suit's wins,
        its bid and what it would score)."""
        self.check_described(action, view)
        return describe_action(self, action, view)

    # --- the result and views --------------------------------------------------------------------------

    def result(self, state: BandOfTricksState) -> MatchResult | None:
        self.check_state(state)
        if state.phase is not OVER:
            return None
        return self.outcome(state.totals, len(state.deal_scores))

    def outcome(self, totals: tuple[int, ...], deals: int) -> MatchResult:
        """The result of a match that ended with ``totals`` after ``deals`` deals (BT-8)."""
        # BT-8 breaks a tie by playing on (extra deals), not by comparing values, so the chain
        # of tie-breaks is empty: the highest total alone wins, or the leaders share the victory
        decided = decide(totals, ())
        top = decided.winners
        best = totals[top[0]]
        names = _join(self.seat_name(s) for s in top)
        extra = deals - self.players
        if len(top) == 1 and extra == 0:
            return MatchResult(totals, top, None, (Reason("bt.win", f"{names} wins with {plural(best, 'point')}."),))
        if len(top) == 1:
            played = plural(extra, "extra deal")
            return MatchResult(
                totals,
                top,
                TieBreak.EXTRA_DEALS,
                (Reason("bt.win.tie", f"{names} wins with {plural(best, 'point')}: {played} broke the tie."),),
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
        self.check_state(state)
        self.check_view_seat(seat)
        held = hidden_hands(state.held, seat)
        hand = IDS.hand
        bids = state.bid_ids
        follow = state.follow
        return _new_view(
            seat,
            state.phase,
            state.to_play,
            state.deal,
            self.players,
            state.start_player,
            tuple([None if m is None else hand(m) for m in held]),
            tuple([m.bit_count() for m in state.held]),
            state.aside_mask.bit_count(),
            tuple([BID_OR_NONE[b] for b in bids]),
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
        # built from the state's fields in order, as the core steps build states (a bot's every
        # decision starts here)
        (
            _seed,
            phase,
            to_play,
            deal,
            start,
            held,
            _aside,
            bids,
            leader,
            trick,
            follow,
            best,
            suits,
            played,
            won,
            _masks,
            _last,
            _scores,
        ) = state
        return _new_core_view(
            BandOfTricksCoreView,
            (
                seat,
                phase,
                to_play,
                deal,
                start,
                hidden_hands(held, seat),
                bids,
                leader,
                trick,
                follow,
                best,
                suits,
                played,
                won,
            ),
        )

    # --- narration: facts as events ----------------------------------------------------------------

    def narrate(self, fact: Fact, state: BandOfTricksState) -> Event:
        """The event for ``fact`` (see :mod:`.narrate`); ``state`` is the state right after it
        (the narrator reads only its public fields: a view of it narrates the same)."""
        return narrate(self, fact, state)


_read = IDS.reader()  # a mask's card ids


class _Deal(TrickDeal[BandOfTricksState]):
    """Band of Tricks' own rules on the engine's trick round (:func:`~..core.trick_round`): the
    bids, public at once, from the start player (BT-3); the suit to follow, set by the first
    card that is not Metal, followed or answered with Metal (BT-4); the ranking of a trick by
    the suits in it (BT-5, no value table: :meth:`placed`); the suit each trick counts for, a
    Metal win's chosen by its winner (BT-6); the deal's score (BT-7), the next deal and the
    deals after a tie for the lead (BT-8). The state lives here between decisions; it is packed
    into a :class:`BandOfTricksState` when the driver sends ``PACK`` and for each fact."""

    ids = IDS
    values = None

    def __init__(self, rules: BandOfTricks, state: BandOfTricksState, facts: Facts | None) -> None:
        self.rules, self.facts, self.next_seat = rules, facts, rules._next
        self.each, self.extra = rules._each, rules.options.max_extra_deals
        self.load(state)

    def load(self, state: BandOfTricksState) -> None:
        """Play on from ``state`` (at a decision, or just dealt)."""
        (self.seed, self.phase, seat, self.deal, self.start, held, self.aside, bids, self.leader, played,
         self.follow, self.best, self.suits, self.number, won, taken, self.last, self.scores) = state  # fmt: skip
        assert seat is not None, "a round starts at a decision"
        self.seat = seat
        self.held, self.bids, self.played, self.won, self.taken = (
            list(held),
            list(bids),
            list(played),
            list(won),
            list(taken),
        )

    def pack(self, to_play: int | None) -> BandOfTricksState:
        return _new_state(
            BandOfTricksState,
            (
                self.seed, self.phase, to_play, self.deal, self.start, tuple(self.held), self.aside, tuple(self.bids),
                self.leader, tuple(self.played), self.follow, self.best, self.suits, self.number, tuple(self.won),
                tuple(self.taken), self.last, self.scores,
            ),
        )  # fmt: skip

    def before_tricks(self) -> Decisions[BandOfTricksState] | None:
        if self.phase is BID:
            return self._bids()
        if self.phase is ASSIGN:  # a round started at a Metal win's choice
            return self._assign_then_bids()
        return None

    def _bids(self) -> Decisions[BandOfTricksState]:
        """Each seat's bid, public at once, from the start player round the table; then the
        start player leads (BT-3)."""
        bids, next_seat, start, note = self.bids, self.next_seat, self.start, self.facts
        while True:
            seat = self.seat
            a = yield seat, BID_IDS
            while a < 0:  # PACK (as in decision(), written in)
                a = yield self.pack(seat)
            bid = a - BID0
            bids[seat] = bid
            self.seat = nxt = next_seat[seat]
            done = nxt == start
            if done:
                self.phase, self.leader = PLAY, start
            if note is not None:
                note.append((BidMade(seat, bid, done, start), self.pack(nxt)))
            if done:
                return None

    def _assign_then_bids(self) -> Decisions[BandOfTricksState]:
        over = yield from self._assign()
        if over is None and self.phase is BID:  # the deal's last trick: the next deal's bids
            yield from self._bids()
        return over

    def seat_view(self, seat: int) -> BandOfTricksCoreView:
        """What the bot of ``seat`` reads now (as :meth:`BandOfTricks.core_view` of the state packed now)."""
        n = len(self.held)
        # the round keeps the seat to play of a trick to itself: the next card's is the leader's + cards played
        to_play = (self.leader + len(self.played)) % n if self.phase is PLAY else self.seat
        return _new_core_view(
            BandOfTricksCoreView,
            (
                seat, self.phase, to_play, self.deal, self.start, hidden_hands(tuple(self.held), seat),
                tuple(self.bids), self.leader, tuple(self.played), self.follow, self.best, self.suits, self.number,
                tuple(self.won),
            ),
        )  # fmt: skip

    def allowed(self, hand: int) -> Sequence[int]:
        return _read(_playable(hand, self.follow))

    def placed(self, card: int) -> int:
        played = self.played
        self.best = best = _next_best(tuple(played[:-1]), self.best, self.suits, card)  # BT-5
        self.suits |= 1 << SUIT[card]
        self.follow = FOLLOWS[self.follow + 1][card]  # BT-4
        return (self.leader + best) % len(self.held)

    def winning(self) -> int:
        return (self.leader + self.best) % len(self.held)

    def card_fact(self, player: int, card: int, trick: tuple[int, ...]) -> Fact:
        return Played(player, card, trick, self.best, _holding(self.held[player], trick[:-1], card))

    def trick_taken(self, winner: int, cards: int, trick: tuple[int, ...]) -> BandOfTricksState | None:
        """The trick counts for the suit of its winning card; a Metal win for Zero Success counts
        as such, any other waits for its winner's choice of suit (BT-6)."""
        best = self.best
        top = SUIT[trick[best]]
        if top != METAL_SUIT:
            counts = top
        elif self.bids[winner] == ZERO_BID:
            counts = COUNTS_METAL
        else:
            counts = NOT_COUNTED
        if counts != NOT_COUNTED:
            self.won[winner] = _add_win(self.won[winner], counts)
        self.number += 1
        more = self.number < self.each
        self.last = done = _new_trick_ids(TrickIds, (self.leader, trick, best, counts))
        self.follow, self.best, self.suits = -1, -1, 0
        if counts == NOT_COUNTED:  # the winner first chooses the suit (BT-6), then leads
            self.phase, to_play = ASSIGN, winner
        elif more:
            self.leader = to_play = winner
        else:
            to_play = None
        self.seat = winner
        if self.facts is not None:
            self.facts.append((TrickWon(winner, done, self.number), self.pack(to_play)))
        if counts == NOT_COUNTED:
            self.after_trick = self._assign()
            return None
        return None if more else self._end_deal()

    def _assign(self) -> Decisions[BandOfTricksState]:
        """The suit a Metal win counts for, chosen by its winner (BT-6), who then leads."""
        seat = self.seat
        a = yield seat, ASSIGN_IDS
        while a < 0:  # PACK
            a = yield self.pack(seat)
        suit = a - ASSIGN0
        self.won[seat] = _add_win(self.won[seat], suit)
        more = self.number < self.each
        last = self.last
        assert last is not None
        self.last = _new_trick_ids(TrickIds, (last.leader, last.ids, last.winning, suit))
        self.phase = PLAY
        if more:
            self.leader = seat
        if self.facts is not None:
            self.facts.append((Counted(seat, suit, last.ids[last.winning]), self.pack(seat if more else None)))
        return None if more else self._end_deal()

    def _end_deal(self) -> BandOfTricksState | None:
        """Score the deal (BT-7), then deal the next one (loaded here), deal again after a tie
        for the lead (BT-8) or end the match."""
        n, note, bids, won = len(self.held), self.facts, self.bids, self.won
        scores = tuple([_points_of(bids[s], won[s], n) for s in range(n)])
        self.scores = deal_scores = (*self.scores, scores)
        played = len(deal_scores)
        nxt = self.next_seat[self.start]
        new = self.pack(None) if note is not None else None
        if note is not None:
            note.append((DealScored(None, self.deal, scores), new))
        if played < n:
            self.load(self.rules._deal(self.seed, played, nxt, deal_scores, note))
            return None
        totals = totals_of(deal_scores, n)
        top = decide(totals, ()).tied
        if len(top) > 1 and played - n < self.extra:  # BT-8: deal again
            if note is not None:
                note.append((TiedForLead(None, top, totals[top[0]]), new))
            self.load(self.rules._deal(self.seed, played, nxt, deal_scores, note))
            return None
        self.phase = OVER
        over = self.pack(None)
        if note is not None:
            note.append((Ended(None, totals, played), over))
        return over
