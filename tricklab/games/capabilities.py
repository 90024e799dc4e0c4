"""What a game offers, declared on its :class:`~tricklab.games.base.Rules` class.

In the manner of OpenSpiel's ``GameType``/``GameInfo`` and python-chess's variant
registry, each game states as data what it offers -- its pre-round decision, the context
a trick is ranked in, its quiz levels, the panels beside its table, its bots, whether the
advisor knows it -- and the layers above read that declaration instead of asking which
game they hold::

    >>> import tricklab
    >>> offers = tricklab.find_game("tricks-and-stones").capabilities
    >>> offers.decision.kind, [c.key for c in offers.context], len(offers.quiz.levels)
    (<DecisionKind.PREDICTION: 'prediction'>, ['trump'], 3)

The engine imports nothing above it: code of another layer that a game offers (a bot, an
advisor entry, a display panel) is named by data -- a :class:`Ref` imported on first use --
never imported here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from ..cards import SUIT_NAME, SUIT_SYMBOL, Card

if TYPE_CHECKING:
    from ..bots import Bot
    from .base import Rules, SeatView, TrickOutcome

T = TypeVar("T")
U = TypeVar("U")


@dataclass(frozen=True, slots=True)
class Ref(Generic[T]):
    """Something of a higher layer that a game offers, named ``"package.module:attribute"``
    and imported only when :meth:`load` is called (so the engine never imports it)."""

    path: str

    def load(self) -> T:
        module, _, attribute = self.path.partition(":")
        return cast(T, getattr(importlib.import_module(module), attribute))

    def load_as(self, kind: type[U]) -> U:
        """:meth:`load`, checked to be a ``kind``: how a layer above the engine reads what a
        game offers it (an advisor's, review's or moves' entry, a puzzle), its own type, which
        the engine does not name. A ``TypeError`` names the path when it is something else."""
        found: object = self.load()
        if not isinstance(found, kind):
            raise TypeError(f"{self.path} is {type(found).__name__}, not the {kind.__name__} it is declared as")
        return found


# --- the pre-round decision ---------------------------------------------------------------------


class DecisionKind(StrEnum):
    """What each player decides before a round's tricks are played."""

    NONE = "none"  # nothing: the round starts with play (or the game's own phases)
    PREDICTION = "prediction"  # one number of tricks (Predict(n)), shown as one chart of tricks won
    SUIT_BID = "suit-bid"  # a number of tricks per suit, all zero meaning Zero Success (Bid(...))
    PASS = "pass"  # cards passed to another player before play (Pass(...)); choices: how many


@dataclass(frozen=True, slots=True)
class Decision:
    """A game's pre-round decision: its kind, the phase it is made in and its rule clause,
    the numbers a player picks from, (for a per-suit bid) the suits bid on, and what the game
    calls a prediction of its tricks (``noun`` and ``gerund``, e.g. "bid" and "bidding"; empty:
    "prediction" and "predicting")."""

    kind: DecisionKind = DecisionKind.NONE
    phase: str = ""
    rule_id: str = ""
    choices: tuple[int, ...] = ()
    suits: tuple[str, ...] = ()
    noun: str = ""
    gerund: str = ""


# --- the context of a trick ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrickContext:
    """A keyword a trick is ranked with (``resolve_trick(cards, trump="S")``): its name, the
    label of a picker for it and the values a picker offers, each with its text (``None``:
    no value, e.g. no trump)."""

    key: str
    label: str
    choices: tuple[tuple[str, str | None], ...]


TRUMP = TrickContext(
    "trump",
    "Trump",
    tuple((f"{SUIT_SYMBOL[s]} {SUIT_NAME[s]}", s) for s in "SHDC") + (("no trump", None),),
)

# --- quiz levels ---------------------------------------------------------------------------------

ContextItems = tuple[tuple[str, str | None], ...]


@dataclass(frozen=True, slots=True)
class Level:
    """One step of a game's quiz.

    ``fits`` is the level's definition: a test on the engine's outcome of a trick.
    ``suits`` says from how many suits the sampler deals a trick (only to find fitting
    tricks faster: ``fits`` alone decides), ``contexts`` the game context a trick is
    played in (Tricks & Stones: the trump), and ``podium`` whether the level asks for
    every place, first to last, rather than only the winner.
    """

    number: int
    title: str
    text: str
    fits: Callable[[TrickOutcome], bool] = field(repr=False)
    suits: tuple[int, ...] = field(repr=False)
    contexts: tuple[ContextItems, ...] = field(default=((),), repr=False)
    podium: bool = False


@dataclass(frozen=True, slots=True)
class PositionLevel:
    """One step of a quiz about positions of a game without tricks (Kalah: where does the last
    stone land?; Mandala: may this card go here?).

    ``puzzle`` names the :class:`tricklab.puzzles.Puzzle` that makes the level's questions
    from a seeded random source and the rules (by playing to a position and asking about it)
    and marks an answer with the engine; it is imported only when a quiz is made.
    """

    number: int
    title: str
    text: str
    puzzle: Ref[object] = field(repr=False)  # a tricklab.puzzles.Puzzle (read with load_as)


@dataclass(frozen=True, slots=True)
class Quiz:
    """A game's quiz: its levels, easiest first, and -- where every place of a trick counts,
    so a quiz may ask for the whole order -- why it counts (``None``: only the winner does).

    A game without tricks declares ``positions`` instead of ``levels``: questions about
    positions of its play (see :mod:`tricklab.puzzles`)."""

    levels: tuple[Level, ...] = ()
    podium: str | None = None
    positions: tuple[PositionLevel, ...] = ()

    @property
    def steps(self) -> tuple[Level, ...] | tuple[PositionLevel, ...]:
        """The quiz's levels of either kind, easiest first: the trick levels, or else the
        position levels."""
        return self.levels or self.positions


def trick_suits(outcome: TrickOutcome) -> set[str]:
    """The suits of a trick's cards (a quiz level's helper)."""
    return {card.suit for card in outcome.cards}


def led_suit(outcome: TrickOutcome) -> str:
    return outcome.cards[0].suit


def trump_of(outcome: TrickOutcome) -> str | None:
    """The trump suit the trick was ranked with, if any."""
    trump = outcome.context.get("trump")
    return trump if isinstance(trump, str) else None


def off_suit(outcome: TrickOutcome) -> list[Card]:
    """The cards that are neither of the led suit nor trumps."""
    led, trump = led_suit(outcome), trump_of(outcome)
    return [card for card in outcome.cards if card.suit not in (led, trump)]


# --- panels, bots, advice, links ------------------------------------------------------------------


class Panel(Protocol):
    """A panel beside a game's table: its markup for the rules and a seat's view (``""``: nothing
    to show yet). With ``board_intent`` its places are buttons sending that intent; the ``closed``
    places (place -> the engine's reason) are marked as not usable now. A game names its panel
    functions by :class:`Ref` (in its folder: ``tricklab.games.<game>.panel``)."""

    def __call__(
        self,
        rules: Rules[Any],
        view: SeatView,
        *,
        four_colour: bool = ...,
        board_intent: str | None = ...,
        closed: Mapping[int, str] | None = ...,
    ) -> str: ...


class BoardKind(StrEnum):
    """A board the display draws in the table's place, for a game played without a card table."""

    PITS = "pits"  # Kalah: the two rows of pits and the two stores
    MANDALAS = "mandalas"  # Mandala: the two Mandalas, the hands, the Rivers and the Cups


# --- the outline of a match (a move list) ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Grouping:
    """How a match's timeline is grouped into a move list (:func:`tricklab.movelist.outline`):
    rounds, then the tricks or turns of a round, then the moves of each, every step once.

    Each field names kinds of :class:`~tricklab.games.base.EventKind` by their words. A round
    starts at an event of ``rounds`` (the deal). In a round, what comes before the first event of
    ``opens`` is the part before play; an event of ``opens`` starts the next ``part``: with
    ``part="trick"`` once the trick before it is complete (its ``trick`` event), with
    ``part="turn"`` where another player moves (a player who moves again is still in their
    turn). An event of ``closes`` starts the round's end (its score, the end of the match). An
    event of ``follows`` is a step that follows from the move before it (a gem action after a
    trick, a stone of a sowing, a draw after a card put down): it is part of that move's entry
    rather than an entry of its own.
    """

    part: str = "trick"  # what a part of a round's play is called: "trick" or "turn"
    opens: tuple[str, ...] = ("play",)
    follows: tuple[str, ...] = ()
    closes: tuple[str, ...] = ("score", "end")
    rounds: tuple[str, ...] = ("deal",)


BotFactory = Callable[["Rules[Any]", int, "int | str"], "Bot"]


@dataclass(frozen=True, slots=True)
class Example:
    """A link the app gallery shows: the app (its notebook's name), what the link adds to
    the game's title (``""``: nothing) and the link's settings after ``game=``."""

    app: str
    label: str
    query: str


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a game offers. Every field has a default meaning "does not offer it"."""

    decision: Decision = Decision()
    tricks: bool = True  # played in tricks: the trick explainer, the trick quiz and the review apply
    board: BoardKind | None = None  # a game without a card table: the picture drawn in the table's place
    context: tuple[TrickContext, ...] = ()
    explainer_players: int | None = None  # the trick explainer's player count (None: the most)
    quiz: Quiz = Quiz()
    panels: tuple[Ref[Panel], ...] = ()  # the game's panels beside the table, in its folder
    bots: tuple[tuple[str, Ref[BotFactory]], ...] = ()  # named bots besides "random"
    hint_bot: str = "heuristic"  # the bot a hint asks (one of ``bots``)
    # what the analysis offers for the game, read there with Ref.load_as (the engine names none of it)
    advice: Ref[object] | None = None  # the advisor's entry (tricklab.advisor.AdvisorEntry), if any
    review: Ref[object] | None = None  # the review's entry (tricklab.review.ReviewEntry), if any
    moves: Ref[object] | None = None  # "try a move" (tricklab.moves.MovesEntry): every legal move's outcome
    variants: tuple[str, ...] = ()  # yes/no rules options a link may switch on
    hidden: bool = True  # some of the game is hidden from a seat (other hands): a teacher may pick whose view
    round_word: str = "round"  # what the game calls one deal of the cards played out: "round", or "deal"
    lowest_wins: bool = False  # points are bad: the lowest total wins the match
    grouping: Grouping = Grouping()  # how a move list groups a match's steps: rounds, tricks or turns, moves
    # each option with values other than its default that a match may be played with: the contract
    # suite plays every one (a reading of a ruling, a count the rules allow)
    option_values: tuple[tuple[str, tuple[object, ...]], ...] = ()
    examples: tuple[Example, ...] = ()

    def bot(self, name: str) -> Ref[BotFactory] | None:
        """The bot of that name, or ``None``."""
        return next((ref for key, ref in self.bots if key == name), None)

    def context_of(self, key: str) -> TrickContext | None:
        """The trick context of that name, or ``None``."""
        return next((c for c in self.context if c.key == key), None)
