"""Tricks & Stones: predict your tricks, then steer your gems into the matching chamber.

3 or 4 players, 32 cards (7 to Ace in four suits), four rounds with trumps ♠ ♥ ♦ ♣.
After every trick the players, from first place to last, place or move gems on a
board of six chambers numbered 0-5; a player scores the own gems in the chamber
matching the number of tricks they won, plus 3 if they predicted that number.

Rulings where the source text allows two readings are options (see ``RULEBOOK``):
``chambers="line"`` (TS-2) and ``first_lead_tie="left-of-dealer"`` (TS-3).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any, ClassVar, NamedTuple

from ..actions import Action, Move, Place, Play, Predict, Skip
from ..cards import FRENCH_SUITS, SUIT_NAME, SUIT_SYMBOL, Card, Deck, FrenchCard
from ..errors import InvalidOption, InvalidScoreInput, describe
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
from .capabilities import (
    TRUMP,
    Capabilities,
    ContextItems,
    Decision,
    DecisionKind,
    Example,
    Level,
    PanelKind,
    Quiz,
    Ref,
    led_suit,
    off_suit,
    trump_of,
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


class TricksAndStonesState(NamedTuple):
    """The whole state (the teacher's knowledge). Board is ``board[seat][chamber]``.

    Immutable like every state; a NamedTuple rather than a frozen dataclass because
    ``_replace`` is about five times faster than ``dataclasses.replace``, and a round
    makes some seventy such updates (see ``benchmarks/engine.py``).
    """

    seed: int
    phase: Phase
    to_play: int | None
    round: int
    dealer: int
    trump: str
    hands: tuple[tuple[Card, ...], ...]
    aside: tuple[Card, ...]
    predictions: tuple[int | None, ...]
    leader: int
    trick: tuple[Card, ...]
    tricks_played: int
    trump_broken: bool
    tricks_won: tuple[int, ...]
    won_cards: tuple[tuple[Card, ...], ...]
    board: tuple[tuple[int, ...], ...]
    supply: tuple[int, ...]
    gem_queue: tuple[tuple[int, int], ...]  # (seat, place index) still to act, current first
    last_trick: Trick | None
    round_scores: tuple[tuple[int, ...], ...]
    exact: tuple[int, ...]

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def totals(self) -> tuple[int, ...]:
        n = len(self.hands)
        return tuple(sum(r[s] for r in self.round_scores) for s in range(n))

    def seat_of(self, index: int) -> int:
        """The seat that played card ``index`` of the current trick."""
        return (self.leader + index) % len(self.hands)


@dataclass(frozen=True, slots=True)
class TricksAndStonesView:
    """What one seat may see (``seat is None``: the teacher, who sees every hand).

    ``hands[s]`` is ``None`` for a hand the seat may not see; ``predictions[s]`` is
    ``None`` until all predictions are revealed (except the seat's own).
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

    @property
    def hand(self) -> tuple[Card, ...]:
        if self.seat is None:
            return ()
        own = self.hands[self.seat]
        return own if own is not None else ()


def _strength(card: Card) -> int:
    return STRENGTH[card.rank]


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
                "No trump",
                "No suit is trump. The highest card of the suit that was led wins; the other suits cannot win.",
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
    panels=(PanelKind.CHAMBERS, PanelKind.PODIUM, PanelKind.ROUND_SCORES),
    bots=(("heuristic", Ref("tricklab.bots.tricks_and_stones:HeuristicBot")),),
    advice=Ref("tricklab.advisor:TS_ADVICE"),
    examples=(
        Example("play.ipynb", "", "players=4"),
        Example("quiz.ipynb", "", "players=4&seed=1"),
        Example("bid_trainer.ipynb", "", "players=4&seed=12"),
        Example("explain_trick.ipynb", "", "players=4&cards=7H,AH,8S,KD"),
        Example("replay.ipynb", "", "players=4&seed=7"),
    ),
)


class TricksAndStones(Rules[TricksAndStonesState]):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = TITLE
    aliases: ClassVar[tuple[str, ...]] = ("ts", "tricks_and_stones", "tricks & stones")
    player_counts: ClassVar[tuple[int, ...]] = (3, 4)
    rulebook: ClassVar[Rulebook] = RULEBOOK
    options_type: ClassVar[type[Options]] = TricksAndStonesOptions
    capabilities: ClassVar[Capabilities] = CAPABILITIES
    options: TricksAndStonesOptions

    def _check_options(self) -> None:
        check_choice(TITLE, "chambers", self.options.chambers, ("line", "ring"))
        check_choice(TITLE, "first_lead_tie", self.options.first_lead_tie, ("left-of-dealer", "dealer"))

    def _build_deck(self) -> Deck:
        cards = tuple(FrenchCard(suit, rank) for suit in FRENCH_SUITS for rank in RANKS)
        self._plays: dict[Card, Play] = {c: Play(c) for c in cards}  # actions are immutable: share them
        return Deck(TITLE, FrenchCard, cards)

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

    # --- match engine -----------------------------------------------------------------------------

    def initial_state(
        self, seed: int, log: Log = None, first_dealer: int | None = None, **match_options: Any
    ) -> TricksAndStonesState:
        if match_options:
            raise InvalidOption(f"{TITLE} has no match option {quote_names(match_options)}; use first_dealer")
        n = self.players
        dealer = self.first_dealer(seed, first_dealer)
        empty = tuple(0 for _ in range(n))
        state = TricksAndStonesState(
            seed=seed,
            phase=PREDICT,
            to_play=None,
            round=0,
            dealer=dealer,
            trump=TRUMPS[0],
            hands=(),
            aside=(),
            predictions=(),
            leader=0,
            trick=(),
            tricks_played=0,
            trump_broken=False,
            tricks_won=empty,
            won_cards=(),
            board=(),
            supply=empty,
            gem_queue=(),
            last_trick=None,
            round_scores=(),
            exact=empty,
        )
        return self._deal(state, seed, 0, dealer, log)

    def _deal(
        self, state: TricksAndStonesState, seed: int, round_index: int, dealer: int, log: Log
    ) -> TricksAndStonesState:
        n = self.players
        cards = list(self._deck.cards)
        self.deal_rng(seed, round_index).shuffle(cards)
        hands = tuple(_sort_hand(cards[i * CARDS_EACH : (i + 1) * CARDS_EACH]) for i in range(n))
        aside = tuple(cards[n * CARDS_EACH :])
        empty = tuple(0 for _ in range(n))
        state = TricksAndStonesState(
            seed=seed,
            phase=PREDICT,
            to_play=(dealer + 1) % n,
            round=round_index,
            dealer=dealer,
            trump=TRUMPS[round_index],
            hands=hands,
            aside=aside,
            predictions=tuple(None for _ in range(n)),
            leader=(dealer + 1) % n,
            trick=(),
            tricks_played=0,
            trump_broken=False,
            tricks_won=empty,
            won_cards=tuple(() for _ in range(n)),
            board=tuple(tuple(0 for _ in range(CHAMBERS)) for _ in range(n)),
            supply=tuple(GEMS_EACH for _ in range(n)),
            gem_queue=(),
            last_trick=None,
            round_scores=state.round_scores,
            exact=state.exact,
        )
        if log is not None:
            aside_note = " The other 8 cards stay aside, unseen." if aside else ""
            log.append(
                (
                    Event(
                        EventKind.DEAL,
                        dealer,
                        f"Round {round_index + 1}: {self.seat_name(dealer)} deals 8 cards each; "
                        f"trump is {SUIT_NAME[state.trump]} {SUIT_SYMBOL[state.trump]}.{aside_note}",
                        (
                            Reason("ts.deal", RULEBOOK["ts.deal"].text),
                            Reason(
                                "ts.rounds",
                                f"Round {round_index + 1} has {SUIT_NAME[state.trump]} as trump.",
                            ),
                        ),
                        {"round": round_index, "trump": state.trump},
                    ),
                    state,
                )
            )
        return state

    def canonical_action(self, state: TricksAndStonesState, action: Action) -> Action:
        """Placing into two chambers is listed lowest chamber first (TS-7: the order is no choice)."""
        if isinstance(action, Place) and list(action.chambers) != sorted(action.chambers):
            return Place(tuple(sorted(action.chambers)))
        return action

    def legal_actions(self, state: TricksAndStonesState) -> list[Action]:
        if state.phase == PLAY:
            seat = state.to_play
            assert seat is not None
            return list(
                map(self._plays.__getitem__, _legal(state.hands[seat], state.trick, state.trump, state.trump_broken))
            )
        if state.phase == PREDICT:
            return list(_PREDICTIONS)
        if state.phase == GEMS:
            return list(self._gem_options(state))
        return []

    def _gem_options(self, state: TricksAndStonesState) -> dict[Action, tuple[int, ...]]:
        seat, place = state.gem_queue[0]
        p, m = ALLOWANCES[self.players][place]
        prediction = state.predictions[seat]
        assert prediction is not None
        return _gem_options(
            state.board[seat],
            prediction,
            min(p, state.supply[seat]),
            m,
            self.options.chambers == "ring",
        )

    def _apply(self, state: TricksAndStonesState, action: Action, log: Log) -> TricksAndStonesState:
        seat = state.to_play
        if seat is None:
            raise illegal("ts.over", "the game is over: no more actions can be taken")
        if state.phase == PREDICT:
            if not isinstance(action, Predict):
                raise illegal(
                    "ts.predict",
                    f"{self.seat_name(seat)} must make a prediction now (0 to 5), not {quote_action(action)}",
                )
            return self._predict(state, seat, action.n, log)
        if state.phase == PLAY:
            if not isinstance(action, Play):
                raise illegal("ts.trick", f"{self.seat_name(seat)} must play a card now, not {quote_action(action)}")
            return self._play(state, seat, action.card, log)
        if not isinstance(action, (Place, Move, Skip)):
            raise illegal(
                "ts.gems.order",
                f"{self.seat_name(seat)} takes a gem action now (place, move or skip), not {quote_action(action)}",
            )
        return self._gem_action(state, seat, action, log)

    # predictions ------------------------------------------------------------------------------

    def _predict(self, state: TricksAndStonesState, seat: int, n: int, log: Log) -> TricksAndStonesState:
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_PREDICTION:
            raise illegal("ts.predict", f"a prediction is a number of tricks from 0 to 5, not {describe(n)}")
        players = self.players
        predictions = state.predictions[:seat] + (n,) + state.predictions[seat + 1 :]
        nxt = (seat + 1) % players
        if nxt != (state.dealer + 1) % players:
            new = state._replace(predictions=predictions, to_play=nxt)
            if log is not None:
                log.append((self._predict_event(seat, n), new))
            return new
        leader, reason = self._first_leader(predictions, state.dealer)  # type: ignore[arg-type]
        new = state._replace(predictions=predictions, phase=PLAY, leader=leader, to_play=leader)
        if log is not None:
            log.append((self._predict_event(seat, n), new._replace(phase=PREDICT, to_play=None)))
            shown = ", ".join(f"{self.seat_name(s)} {p}" for s, p in enumerate(predictions))
            log.append(
                (
                    Event(
                        EventKind.REVEAL,
                        None,
                        f"Expedition tokens revealed: {shown}. {self.seat_name(leader)} leads.",
                        (Reason("ts.predict", "All tokens are shown at the same moment."), reason),
                        {"predictions": predictions, "leader": leader},
                    ),
                    new,
                )
            )
        return new

    def _predict_event(self, seat: int, n: int) -> Event:
        return Event(
            EventKind.PREDICT,
            seat,
            f"{self.seat_name(seat)} secretly chose a prediction.",
            (Reason("ts.predict", RULEBOOK["ts.predict"].text),),
            {"prediction": n},
        )

    def _first_leader(self, predictions: tuple[int, ...], dealer: int) -> tuple[int, Reason]:
        n = self.players
        start = dealer + 1 if self.options.first_lead_tie == "left-of-dealer" else dealer
        order = [(start + i) % n for i in range(n)]
        low = min(predictions)
        tied = [s for s in order if predictions[s] == low]
        leader = tied[0]
        if len(tied) == 1:
            text = f"{self.seat_name(leader)} has the lowest prediction ({low}) and leads the first trick."
        else:
            names = " and ".join(self.seat_name(s) for s in sorted(tied))
            where = "the dealer's left" if start != dealer else "the dealer"
            text = (
                f"{names} share the lowest prediction ({low}); going clockwise from {where}, "
                f"{self.seat_name(leader)} comes first and leads."
            )
        return leader, Reason("ts.lead.first", text)

    # trick play ---------------------------------------------------------------------------------

    def _play(self, state: TricksAndStonesState, seat: int, card: Card, log: Log) -> TricksAndStonesState:
        hand = state.hands[seat]
        if card not in hand:
            raise illegal("ts.hand", f"{self.seat_name(seat)} does not hold {card.pretty}")
        trick = state.trick
        trump = state.trump
        if trick:
            led = trick[0].suit
            if card.suit != led and any(c.suit == led for c in hand):
                holding = next(c for c in hand if c.suit == led)
                raise illegal(
                    "ts.follow",
                    f"must follow suit: {SUIT_NAME[led].lower()} {SUIT_SYMBOL[led]} were led and "
                    f"{self.seat_name(seat)} holds {holding.pretty}",
                )
        elif card.suit == trump and not state.trump_broken and any(c.suit != trump for c in hand):
            raise illegal(
                "ts.trump.lead",
                f"{card.pretty} is a trump and trumps are not broken yet; lead another suit "
                f"until trumps are broken or your hand holds only trumps",
            )
        broken = state.trump_broken or (bool(trick) and card.suit == trump and trick[0].suit != trump)
        at = hand.index(card)
        new_hand = hand[:at] + hand[at + 1 :]
        hands = state.hands[:seat] + (new_hand,) + state.hands[seat + 1 :]
        trick = trick + (card,)
        n = self.players
        if len(trick) < n:
            new = state._replace(hands=hands, trick=trick, trump_broken=broken, to_play=(seat + 1) % n)
            if log is not None:
                log.append((self._play_event(state, seat, card, trick, broken), new))
            return new
        outcome_ranking = _rank(trick, trump)
        last = Trick.ranked(state.leader, trick, outcome_ranking, n, places=True)
        assert last.places is not None
        seats = last.places
        winner = last.winner
        tricks_won = tuple(t + (s == winner) for s, t in enumerate(state.tricks_won))
        won_cards = state.won_cards[:winner] + (state.won_cards[winner] + trick,) + state.won_cards[winner + 1 :]
        new = state._replace(
            hands=hands,
            trick=(),
            trump_broken=broken,
            tricks_played=state.tricks_played + 1,
            tricks_won=tricks_won,
            won_cards=won_cards,
            last_trick=last,
            phase=GEMS,
            gem_queue=tuple((s, i) for i, s in enumerate(seats)),
            to_play=seats[0],
        )
        if log is not None:
            log.append(
                (
                    self._play_event(state, seat, card, trick, broken),
                    new._replace(phase=PLAY, to_play=None, trick=trick, gem_queue=()),
                )
            )
            outcome = TrickOutcome(NAME, trick, outcome_ranking, _explain_trick, {"trump": trump})
            podium = ", ".join(
                f"{PLACE_NAMES[i]} {self.seat_name(s)} ({c.pretty}, {self.describe_allowance(i)})"
                for i, (s, c) in enumerate(zip(seats, (trick[k] for k in outcome_ranking), strict=True))
            )
            log.append(
                (
                    Event(
                        EventKind.TRICK,
                        winner,
                        f"{self.seat_name(winner)} wins trick {state.tricks_played + 1} with "
                        f"{trick[outcome_ranking[0]].pretty}. Places: {podium}.",
                        outcome.reasons,
                        {
                            "trick": last,
                            "cards": trick,
                            "ranking": outcome_ranking,
                            "seats": seats,
                            "leader": state.leader,
                        },
                    ),
                    new,
                )
            )
        return self._advance_gems(new, log)

    def _play_event(
        self,
        state: TricksAndStonesState,
        seat: int,
        card: Card,
        trick: tuple[Card, ...],
        broken: bool,
    ) -> Event:
        reasons: list[Reason] = []
        if len(trick) == 1:
            text = f"{self.seat_name(seat)} leads {card.pretty}."
            if card.suit == state.trump:
                reasons.append(_trump_lead_reason(card, state.trump_broken))
        else:
            led = trick[0].suit
            if card.suit == led:
                text = f"{self.seat_name(seat)} follows with {card.pretty}."
                reasons.append(
                    Reason("ts.follow", f"{SUIT_NAME[led]} were led and {card.pretty} follows suit.", (card,))
                )
            else:
                text = f"{self.seat_name(seat)} cannot follow {SUIT_NAME[led].lower()} and plays {card.pretty}."
                reasons.append(
                    Reason(
                        "ts.follow.void",
                        f"No {SUIT_NAME[led].lower()} in hand, so any card may be played.",
                        (card,),
                    )
                )
            if broken and not state.trump_broken:
                text += " Trumps are now broken."
                reasons.append(Reason("ts.trump.break", RULEBOOK["ts.trump.break"].text, (card,)))
            ranking = _rank(trick, state.trump)
            best = trick[ranking[0]]
            text += f" {best.pretty} is winning so far."
        return Event(EventKind.PLAY, seat, text, tuple(reasons), {"card": card})

    # gem actions ---------------------------------------------------------------------------------

    def _advance_gems(self, state: TricksAndStonesState, log: Log) -> TricksAndStonesState:
        """Skip gem actions that offer no choice; then end the trick (next lead or scoring)."""
        queue = state.gem_queue
        while queue:
            seat, place = queue[0]
            p, m = ALLOWANCES[self.players][place]
            # A choice exists exactly when _gem_options lists more than Skip: placing needs a gem
            # in the supply (five chambers are always open), moving a gem on the board (every
            # chamber has a neighbour). Checked directly: this runs after every trick.
            if (p and state.supply[seat]) or (m and any(state.board[seat])):
                return state if queue is state.gem_queue else state._replace(gem_queue=queue, to_play=seat)
            queue = queue[1:]
            if log is not None:
                if p == 0 and m == 0:
                    why = f"finished {PLACE_NAMES[place]}, the last place, which has no gem action."
                elif p == 0:
                    why = f"finished {PLACE_NAMES[place]} (Move {m}) but has no gem on the board to move."
                else:
                    why = f"finished {PLACE_NAMES[place]} but can neither place nor move a gem."
                interim = state._replace(gem_queue=queue, to_play=queue[0][0] if queue else None)
                log.append(
                    (
                        Event(
                            EventKind.GEMS,
                            seat,
                            f"{self.seat_name(seat)} {why}",
                            (Reason("ts.gems.places", RULEBOOK["ts.gems.places"].text),),
                            {"place": place, "action": None},
                        ),
                        interim,
                    )
                )
        if state.tricks_played < CARDS_EACH:
            assert state.last_trick is not None
            winner = state.last_trick.winner
            return state._replace(gem_queue=(), phase=PLAY, leader=winner, to_play=winner)
        return self._end_round(state._replace(gem_queue=()), log)

    def _gem_action(
        self, state: TricksAndStonesState, seat: int, action: Place | Move | Skip, log: Log
    ) -> TricksAndStonesState:
        _, place = state.gem_queue[0]
        p, m = ALLOWANCES[self.players][place]
        prediction = state.predictions[seat]
        assert prediction is not None
        supply = state.supply[seat]
        ring = self.options.chambers == "ring"
        table = _gem_options(state.board[seat], prediction, min(p, supply), m, ring)
        own = table.get(action)
        if own is None:  # not a listed spelling: check it clause by clause (raises if illegal)
            own = self._check_gem_action(state.board[seat], supply, prediction, seat, place, action, ring)
        placed = sum(own) - sum(state.board[seat])
        board = state.board[:seat] + (own,) + state.board[seat + 1 :]
        supplies = state.supply[:seat] + (supply - placed,) + state.supply[seat + 1 :]
        queue = state.gem_queue[1:]
        new = state._replace(
            board=board,
            supply=supplies,
            gem_queue=queue,
            to_play=queue[0][0] if queue else None,
        )
        if log is not None:
            log.append((self._gem_event(seat, place, action), new))
        return self._advance_gems(new, log)

    def _check_gem_action(
        self,
        board: tuple[int, ...],
        supply: int,
        prediction: int,
        seat: int,
        place: int,
        action: Action,
        ring: bool,
    ) -> tuple[int, ...]:
        """The player's gems after ``action``, or :class:`IllegalAction` naming the clause."""
        p, m = ALLOWANCES[self.players][place]
        name = self.seat_name(seat)
        allowance = f"{PLACE_NAMES[place]} place allows {self.describe_allowance(place)}"
        own = list(board)
        if isinstance(action, Skip):
            return board
        if isinstance(action, Place):
            chambers = action.chambers
            if p == 0:
                raise illegal("ts.gems.places", f"{name} cannot Place: {allowance}")
            if not chambers:
                raise illegal("ts.gems.fewer", "name at least one chamber to place into, or skip")
            if len(chambers) > p:
                raise illegal("ts.gems.places", f"{name} may place at most {plural(p, 'gem')}: {allowance}")
            for c in chambers:
                if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < CHAMBERS:
                    raise illegal("ts.board", f"there is no chamber {describe(c)}: the chambers are 0 to 5")
                if c == prediction:
                    raise illegal(
                        "ts.place.expedition",
                        f"{name} cannot place into chamber {c}: it holds {name}'s own expedition token",
                    )
            if len(set(chambers)) != len(chambers):
                raise illegal("ts.place.distinct", "two placed gems must go into two different chambers")
            if len(chambers) > supply:
                raise illegal("ts.place", f"{name} has only {plural(supply, 'gem')} left in the supply")
            for c in chambers:
                own[c] += 1
            return tuple(own)
        assert isinstance(action, Move)
        steps = action.steps
        if m == 0:
            raise illegal("ts.gems.places", f"{name} cannot Move: {allowance}")
        if not steps:
            raise illegal("ts.gems.fewer", "give at least one move step, or skip")
        if len(steps) > m:
            raise illegal("ts.gems.places", f"{name} may make at most {plural(m, 'move step')}: {allowance}")
        for a, b in steps:
            for c in (a, b):
                if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < CHAMBERS:
                    raise illegal("ts.board", f"there is no chamber {describe(c)}: gems stay on chambers 0 to 5")
            if not _adjacent(a, b, ring):
                raise illegal(
                    "ts.board" if {a, b} == {0, CHAMBERS - 1} else "ts.move",
                    f"a move step goes to a neighbouring chamber; {a} and {b} are not neighbours",
                )
            if own[a] == 0:
                raise illegal("ts.move", f"{name} has no gem in chamber {a} to move")
            own[a] -= 1
            own[b] += 1
        return tuple(own)

    def _gem_event(self, seat: int, place: int, action: Action) -> Event:
        name = self.seat_name(seat)
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
        return Event(EventKind.GEMS, seat, text, reasons, {"place": place, "action": str(action)})

    # round end ------------------------------------------------------------------------------------

    def _end_round(self, state: TricksAndStonesState, log: Log) -> TricksAndStonesState:
        n = self.players
        scores = []
        exact = list(state.exact)
        details = []
        for seat in range(n):
            prediction = state.predictions[seat]
            assert prediction is not None
            score = _score(prediction, state.tricks_won[seat], state.board[seat])
            scores.append(score.total)
            if prediction == state.tricks_won[seat]:
                exact[seat] += 1
            details.append(score)
        round_scores = state.round_scores + (tuple(scores),)
        new = state._replace(round_scores=round_scores, exact=tuple(exact), to_play=None)
        if log is not None:
            text = (
                "Round scored: "
                + ", ".join(
                    f"{self.seat_name(s)} {plural(state.tricks_won[s], 'trick')} → {scores[s]}" for s in range(n)
                )
                + "."
            )
            reasons = tuple(
                Reason(r.rule_id, f"{self.seat_name(s)}: {r.text}") for s in range(n) for r in details[s].reasons
            )
            log.append(
                (
                    Event(
                        EventKind.SCORE,
                        None,
                        text,
                        reasons,
                        {"scores": tuple(scores), "details": tuple(details)},
                    ),
                    new,
                )
            )
        if state.round + 1 < ROUNDS:
            return self._deal(new, state.seed, state.round + 1, (state.dealer + 1) % n, log)
        over = new._replace(phase=OVER, to_play=None)
        if log is not None:
            result = self.result(over)
            assert result is not None
            log.append(
                (
                    Event(
                        EventKind.END,
                        None,
                        result.reasons[0].text,
                        result.reasons,
                        {"winners": result.winners},
                    ),
                    over,
                )
            )
        return over

    def result(self, state: TricksAndStonesState) -> MatchResult | None:
        if state.phase != OVER:
            return None
        totals = state.totals
        tied = leaders(totals)
        best = totals[tied[0]]
        names = " and ".join(self.seat_name(s) for s in tied)
        reasons = []
        if len(tied) == 1:
            reasons.append(Reason("ts.win", f"{names} wins with {plural(best, 'point')}."))
            return MatchResult(totals, tuple(tied), None, tuple(reasons))
        still = leaders(state.exact, tied)
        most = state.exact[still[0]]
        if len(still) == 1:
            reasons.append(
                Reason(
                    "ts.win.tie",
                    f"{names} tie on {plural(best, 'point')}; {self.seat_name(still[0])} wins with more "
                    f"exact predictions ({most}).",
                )
            )
            return MatchResult(totals, tuple(still), TieBreak.EXACT_PREDICTIONS, tuple(reasons))
        sharing = " and ".join(self.seat_name(s) for s in still)
        reasons.append(
            Reason(
                "ts.win.tie",
                f"{sharing} tie on {plural(best, 'point')} and on {plural(most, 'exact prediction')}: "
                "they share the victory.",
            )
        )
        return MatchResult(totals, tuple(still), TieBreak.SHARED, tuple(reasons))

    def view(self, state: TricksAndStonesState, seat: int | None) -> TricksAndStonesView:
        self.check_view_seat(seat)
        # tokens are shown together once the prediction phase is over; the state logged for the
        # last secret choice still has the phase PREDICT, so nothing shows before the reveal step
        revealed = state.phase != PREDICT
        predictions = tuple(
            p if (revealed or seat is None or s == seat) else None for s, p in enumerate(state.predictions)
        )
        return TricksAndStonesView(
            seat=seat,
            phase=state.phase,
            to_play=state.to_play,
            round=state.round,
            dealer=state.dealer,
            trump=state.trump,
            hands=tuple(h if seat is None or s == seat else None for s, h in enumerate(state.hands)),
            hand_sizes=tuple(len(h) for h in state.hands),
            predictions=predictions,
            predicted=tuple(p is not None for p in state.predictions),
            leader=state.leader,
            trick=state.trick,
            trump_broken=state.trump_broken,
            tricks_won=state.tricks_won,
            board=state.board,
            supply=state.supply,
            gem_queue=state.gem_queue,
            last_trick=state.last_trick,
            round_scores=state.round_scores,
            totals=state.totals,
            exact=state.exact,
        )


# --- pure rule functions ------------------------------------------------------------------------


_PREDICTIONS = tuple(Predict(n) for n in range(MAX_PREDICTION + 1))


def _sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: (FRENCH_SUITS.index(c.suit), STRENGTH[c.rank])))


def _rank(trick: tuple[Card, ...], trump: str | None) -> tuple[int, ...]:
    led = trick[0].suit

    def key(i: int) -> tuple[int, int, int]:
        card = trick[i]
        s = STRENGTH[card.rank]
        if card.suit == trump:
            return (0, 0, -s)
        if card.suit == led:
            return (1, 0, -s)
        return (2, _SUIT_ORDER[card.suit], -s)

    return tuple(sorted(range(len(trick)), key=key))


_SUIT_ORDER = {s: i for i, s in enumerate(FRENCH_SUITS)}


def _legal(hand: tuple[Card, ...], trick: tuple[Card, ...], trump: str | None, trump_broken: bool) -> tuple[Card, ...]:
    if trick:
        led = trick[0].suit
        follow = tuple(c for c in hand if c.suit == led)
        return follow or hand
    if trump is None or trump_broken:
        return hand
    non_trump = tuple(c for c in hand if c.suit != trump)
    return non_trump or hand


def _adjacent(a: int, b: int, ring: bool) -> bool:
    d = abs(a - b)
    return d == 1 or (ring and d == CHAMBERS - 1)


@lru_cache(maxsize=65536)
def _gem_options(
    own: tuple[int, ...], prediction: int, place_points: int, move_points: int, ring: bool
) -> dict[Action, tuple[int, ...]]:
    """Every distinct gem action, mapped to the player's gems after it: skip, each
    placing, and each move whose result differs from every other listed one.

    Cached (callers never mutate the dict); the moves, which cost the most to list,
    are cached apart because they do not depend on the prediction.
    """
    options: dict[Action, tuple[int, ...]] = {Skip(): own}
    if place_points >= 1:
        options.update(_place_options(own, prediction, place_points))
    if move_points >= 1:
        options.update(_move_options(own, move_points, ring))
    return options


@lru_cache(maxsize=16384)
def _place_options(own: tuple[int, ...], prediction: int, points: int) -> dict[Action, tuple[int, ...]]:
    options: dict[Action, tuple[int, ...]] = {}
    eligible = [c for c in range(CHAMBERS) if c != prediction]
    for c in eligible:
        options[Place((c,))] = own[:c] + (own[c] + 1,) + own[c + 1 :]
    if points >= 2:
        for a, b in combinations(eligible, 2):
            after = list(own)
            after[a] += 1
            after[b] += 1
            options[Place((a, b))] = tuple(after)
    return options


@lru_cache(maxsize=16384)
def _move_options(own: tuple[int, ...], points: int, ring: bool) -> dict[Action, tuple[int, ...]]:
    """Moves of up to ``points`` steps, one per distinct result other than ``own``."""
    options: dict[Action, tuple[int, ...]] = {}
    seen = {own}
    frontier: list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = [(own, ())]
    for _ in range(points):
        nxt = []
        for layout, steps in frontier:
            for a in range(CHAMBERS):
                if not layout[a]:
                    continue
                for b in _NEIGHBOURS[ring][a]:
                    after = list(layout)
                    after[a] -= 1
                    after[b] += 1
                    result = tuple(after)
                    path = (*steps, (a, b))
                    nxt.append((result, path))
                    if result not in seen:
                        seen.add(result)
                        options[Move(path)] = result
        frontier = nxt
    return options


_NEIGHBOURS = {
    ring: tuple(tuple(b for b in range(CHAMBERS) if _adjacent(a, b, ring)) for a in range(CHAMBERS))
    for ring in (False, True)
}


def _score(prediction: int, tricks: int, own: tuple[int, ...]) -> Score:
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
    gems = own[tricks]
    bonus = EXPEDITION_BONUS if prediction == tricks else 0
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
            f"{a.pretty} beats {b.pretty}: both are {what}, and {_rank_word(a)} is higher than {_rank_word(b)}.",
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


def _rank_word(card: Card) -> str:
    return {1: "an Ace", 8: "an 8", 11: "a Jack", 12: "a Queen", 13: "a King"}.get(card.rank, f"a {card.rank}")


def _article(suit_name: str) -> str:
    return {"Spades": "a spade", "Hearts": "a heart", "Diamonds": "a diamond", "Clubs": "a club"}[suit_name]
