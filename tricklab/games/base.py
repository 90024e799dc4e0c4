"""What every game shares: rules objects, trick outcomes, scores, events and results.

A game module subclasses :class:`Rules` and implements the rule-specific parts
(ranking a trick, legal plays, the phase-by-phase ``legal_actions``/``apply`` of its
state). Everything generic -- argument checking of tricks, seeds, the registry,
matches, records -- lives here or in :mod:`tricklab.match`, once for all games.
"""

from __future__ import annotations

import json
import random
import sys
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar

from ..actions import Action, Play, parse_action
from ..cards import Card, Deck
from ..errors import (
    EndlessMatch,
    IllegalAction,
    InvalidAction,
    InvalidCard,
    InvalidOption,
    InvalidTrick,
    UnknownGame,
    describe,
)
from ..explain import Reason, Rulebook
from .capabilities import Capabilities

if TYPE_CHECKING:
    from ..bots import Bot
    from ..match import Match

CardLike = str | Card


class TrickOutcome:
    """The result of ranking a (possibly partial) trick.

    ``winner`` and ``ranking`` are indices into ``cards`` (play order, first = led);
    ``ranking[0] == winner``. ``reasons`` are built on first access.
    """

    __slots__ = ("_explain", "_reasons", "cards", "context", "game", "ranking", "winner")

    def __init__(
        self,
        game: str,
        cards: tuple[Card, ...],
        ranking: tuple[int, ...],
        explain: Callable[[TrickOutcome], tuple[Reason, ...]],
        context: Mapping[str, object] | None = None,
    ) -> None:
        self.game = game
        self.cards = cards
        self.ranking = ranking
        self.winner = ranking[0] if ranking else -1
        self.context: Mapping[str, object] = context or {}
        self._explain = explain
        self._reasons: tuple[Reason, ...] | None = None

    @property
    def reasons(self) -> tuple[Reason, ...]:
        if self._reasons is None:
            self._reasons = self._explain(self)
        return self._reasons

    @property
    def winning_card(self) -> Card:
        return self.cards[self.winner]

    @property
    def ranked_cards(self) -> tuple[Card, ...]:
        return tuple(self.cards[i] for i in self.ranking)

    def _repr_html_(self) -> str:
        from ..display import outcome_html

        return outcome_html(self)

    def __repr__(self) -> str:
        cards = " ".join(str(c) for c in self.cards)
        ranked = " ".join(str(c) for c in self.ranked_cards)
        return f"<TrickOutcome {self.game} [{cards}] winner={self.winner} ({self.winning_card}) ranking: {ranked}>"


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick, the same in every trick-taking game.

    ``leader`` is the seat that led; ``cards`` and ``seats`` are in play order, so
    ``seats[0] == leader`` and ``seats[i]`` played ``cards[i]`` (with two players of Jewel
    Vault each seat plays twice). ``winning`` is the play-order index of the card that won,
    so ``winner`` (a seat) is ``seats[winning]``. ``places`` are the seats from first to
    last place, for a game whose rules use every place (Tricks & Stones' gem actions), with
    ``places[0] == winner``; ``None`` for a game whose rules use only the winner.
    """

    leader: int
    cards: tuple[Card, ...]
    seats: tuple[int, ...]
    winning: int
    places: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if not self.cards or len(self.cards) != len(self.seats) or self.seats[0] != self.leader:
            raise ValueError(f"a trick needs one seat per card, the leader's first: {describe(self)}")
        if not 0 <= self.winning < len(self.cards):
            raise ValueError(f"a trick's winning card is one of its cards: {describe(self)}")
        if self.places is not None and self.places[:1] != (self.seats[self.winning],):
            raise ValueError(f"a trick's winner comes first in its places: {describe(self)}")

    @classmethod
    def ranked(
        cls, leader: int, cards: tuple[Card, ...], ranking: Sequence[int], players: int, *, places: bool
    ) -> Self:
        """The trick ``cards`` (play order) led by ``leader`` at a table of ``players``, from
        its ranking (play-order indices, first place first, as ``resolve_trick`` gives it);
        with ``places`` the trick keeps every place, otherwise only the winner."""
        seats = tuple((leader + i) % players for i in range(len(cards)))
        return cls(leader, cards, seats, ranking[0], tuple(seats[i] for i in ranking) if places else None)

    @property
    def winner(self) -> int:
        """The seat that won the trick."""
        return self.seats[self.winning]

    @property
    def winning_card(self) -> Card:
        return self.cards[self.winning]

    @property
    def led_suit(self) -> str:
        """The suit of the first card."""
        return self.cards[0].suit


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of a score breakdown. ``status`` is a short word such as ``"success"``."""

    key: str
    label: str
    points: int
    status: str = ""
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Score:
    """A score with its breakdown: ``total == sum(line.points for line in lines)``."""

    total: int
    lines: tuple[ScoreLine, ...]
    reasons: tuple[Reason, ...] = ()

    @property
    def breakdown(self) -> dict[str, int]:
        return {line.key: line.points for line in self.lines}

    def __getitem__(self, key: str) -> ScoreLine:
        for line in self.lines:
            if line.key == key:
                return line
        raise KeyError(key)

    def __str__(self) -> str:
        parts = ", ".join(f"{line.label} {line.points:+d}" for line in self.lines)
        return f"{self.total} ({parts})"


class Word(StrEnum):
    """A fixed word of the rules (a phase, an event kind, a cause, a tie-break): a ``StrEnum``,
    so each member equals its text (``Phase.PLAY == "play"``) and formats, prints and writes to
    JSON as that text. Its repr is the text's repr too, so the repr of a state, an event or a
    result reads the same as it did when these were plain strings and can be pasted back."""

    def __repr__(self) -> str:
        return repr(self.value)


class TieBreak(Word):
    """What decided a match whose totals were tied (``MatchResult.tie_break``).

    A ``StrEnum``: each member equals its text (``TieBreak.SHARED == "shared"``), and
    that text is what captions and JSON show.
    """

    EXACT_PREDICTIONS = "exact predictions"  # Tricks & Stones: more exact predictions
    EXTRA_DEALS = "extra deals"  # Band of Tricks: further deals until one seat leads
    VAULT = "vault"  # Jewel Vault: more jewels in the vault
    FEWER_CUP = "fewer cup cards"  # Mandala: fewer cards in the Cup
    SHARED = "shared"  # still tied after every tie-break: the win is shared


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Final totals, the winning seat(s) and the tie-break that decided, if any."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    tie_break: TieBreak | None
    reasons: tuple[Reason, ...]

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1


class EventKind(Word):
    """What an :class:`Event` is. One enum for every game: the kinds several games share
    first, then each game's own. A ``StrEnum``: each member equals its stable word
    (``EventKind.TRICK == "trick"``), which is what records of a timeline show.
    """

    # every game
    DEAL = "deal"  # a round's cards are dealt
    PLAY = "play"  # a card is played to the trick
    TRICK = "trick"  # a trick is complete: its winner (and places)
    END = "end"  # the match is over
    SCORE = "score"  # a round or deal is scored (Tricks & Stones, Band of Tricks)
    # Tricks & Stones
    PREDICT = "predict"  # a secret prediction is made
    REVEAL = "reveal"  # the predictions are shown together
    GEMS = "gems"  # a place's gem action
    # Band of Tricks
    BID = "bid"  # a secret bid is made
    COUNT = "count"  # a trick won with Metal is counted for a suit
    TIE = "tie"  # the totals are tied after the last deal: another deal follows
    # Jewel Vault
    ANNOUNCE = "announce"  # the number of cards to pass is announced
    PASS = "pass"  # a seat chooses the cards it passes
    EXCHANGE = "exchange"  # the passed cards reach their receivers together
    ACTION = "action"  # a suit action moves a jewel (or cannot)
    ROUND_END = "round-end"  # the end-of-round suit actions are owed
    # Kalah
    SOW = "sow"  # a pit's stones are picked up to be sown
    STONE = "stone"  # one stone of a sowing is dropped into a pit or a store
    AGAIN = "again"  # the last stone fell into the mover's own store: the mover moves again
    CAPTURE = "capture"  # the last stone and the stones opposite go to the mover's store
    SWEEP = "sweep"  # at the end, a player stores the stones left on their side
    # Mandala
    MOUNTAIN = "mountain"  # a card goes into a Mountain
    FIELD = "field"  # cards go into a player's Field
    DISCARD = "discard"  # cards are discarded from a hand
    DRAW = "draw"  # cards are drawn from the deck
    RESHUFFLE = "reshuffle"  # the discards become the new deck
    COMPLETE = "complete"  # a Mandala holds all six colours
    CLAIM = "claim"  # a colour of a completed Mandala's Mountain is taken
    CLEAR = "clear"  # a completed Mandala's Fields are discarded
    REFILL = "refill"  # new cards go into an emptied Mountain


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened: a decision or an automatic step of the rules.

    ``kind`` says what (an :class:`EventKind`: ``deal``, ``predict``, ``play``, ``trick``, ...),
    ``seat`` who did it (``None`` for the table), ``text`` a one-line caption and
    ``reasons`` why, citing rule ids. ``data`` holds the facts a view needs to draw it.
    """

    kind: EventKind
    seat: int | None
    text: str
    reasons: tuple[Reason, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)


class GameState(Protocol):
    """What every game's state offers (a state is a compact, immutable value of its game's
    core): whose turn it is and in which phase. ``to_play`` is ``None`` once the match is over."""

    @property
    def phase(self) -> Word: ...

    @property
    def to_play(self) -> int | None: ...


class SeatView(Protocol):
    """What every game's view offers: the seat it is for (``None``: the teacher, who sees every
    hand), the phase, whose turn it is and the seat's own hand (empty for the teacher)."""

    @property
    def seat(self) -> int | None: ...

    @property
    def phase(self) -> Word: ...

    @property
    def to_play(self) -> int | None: ...

    @property
    def hand(self) -> tuple[Card, ...]: ...


S = TypeVar("S", bound=GameState)
Log = list[tuple[Event, Any]] | None  # (event, the state right after it); Any: the game's own state type


class Options:
    """Mixin for frozen option dataclasses: checked construction from keywords.

    An option added to settle a ruling that earlier versions played another way declares the
    value those versions played with, as ``field(default=..., metadata={LEGACY: value})``:
    a record or link made before the option existed holds no value for it and replays with that
    one (:meth:`legacy`), and :meth:`stored` leaves it out of a record while it has that value,
    so an old record still reads back to the same text.
    """

    @classmethod
    def from_keywords(cls, game: str, keywords: Mapping[str, object]) -> Self:
        check_named_values(game, "option", keywords, sorted(f.name for f in fields(cls)))  # type: ignore[arg-type]
        return cls(**keywords)

    @classmethod
    def legacy(cls) -> dict[str, object]:
        """The options added after records were first saved, each with the value those records
        were played with."""
        return {f.name: f.metadata[LEGACY] for f in fields(cls) if LEGACY in f.metadata}  # type: ignore[arg-type]

    def as_dict(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]

    def stored(self) -> dict[str, object]:
        """The options as a record or a link stores them: :meth:`as_dict` without the options
        that have their legacy value (a record without them replays with that value)."""
        legacy = self.legacy()
        return {k: v for k, v in self.as_dict().items() if k not in legacy or legacy[k] != v}


#: the key of a dataclass field's metadata that holds an option's legacy value (see :class:`Options`)
LEGACY = "legacy"


def check_choice(game: str, name: str, value: object, allowed: Sequence[object]) -> None:
    if value not in allowed or isinstance(value, bool) != any(isinstance(a, bool) for a in allowed):
        raise InvalidOption(
            f"{game}: {name}={describe(value)} is not allowed; choose one of " + ", ".join(repr(a) for a in allowed)
        )


#: seeds are the whole numbers below this one
SEED_LIMIT = 2**63


def check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise InvalidOption(f"a seed must be a whole number from 0 to 2**63 - 1, not {describe(seed)}")
    return seed


def next_seed(seed: int) -> int:
    """The seed after ``seed``, for a new deal: the next number, and after the largest, 0."""
    return (check_seed(seed) + 1) % SEED_LIMIT


def check_plain(what: str, value: object) -> None:
    """Raise :class:`InvalidOption` unless ``value`` is plain JSON data that reads back equal,
    as every option must be: a match record stores it."""
    try:
        plain = json.loads(json.dumps(value, allow_nan=False)) == value
    except (TypeError, ValueError, RecursionError):
        plain = False
    if not plain:
        raise InvalidOption(
            f"{what} must be plain data that a record stores and reads back (text, a number of at most "
            f"{sys.get_int_max_str_digits():,} digits, true, false, null, or lists and objects of them), "
            f"not {describe(value)}"
        )


def check_log(log: object) -> None:
    """A log is ``None`` or a list the steps are appended to."""
    if log is not None and not isinstance(log, list):
        raise InvalidOption(f"log must be a list to append the steps to, or None, not {describe(log)}")


def check_rules(rules: object, what: str) -> Rules[Any]:
    """``rules`` if it is a game's rules, else :class:`InvalidOption` saying that ``what`` needs them."""
    if not isinstance(rules, Rules):
        raise InvalidOption(f"{what} needs a game's rules, like tricklab.get_rules(...), not {describe(rules)}")
    return rules


def quote_action(action: object) -> str:
    """An action as a message quotes it: its text form, quoted and shortened (``'play QS'``)."""
    return describe(str(action) if isinstance(action, Action) else action)


def quote_names(keys: Iterable[object]) -> str:
    """Keyword or option names for a message: each described, the first few only."""
    shown = sorted(describe(k) for k in keys)
    return ", ".join(shown[:3]) + (", ..." if len(shown) > 3 else "")


def check_named_values(game: str, kind: str, values: Mapping[Any, object], known: Sequence[str]) -> None:
    """Every name in ``values`` is one of ``known`` and every value is plain JSON (a record can
    store it); :class:`InvalidOption` names the first fault."""
    unknown = [name for name in values if name not in known]
    if unknown:
        raise InvalidOption(
            f"{game} has no {kind} {quote_names(unknown)}; its {kind}s are {', '.join(known) or 'none'}"
        )
    for name, value in values.items():
        check_plain(f"{game}: the {kind} {name}", value)


class Rules(ABC, Generic[S]):
    """A game's rules for a given player count and options.

    Subclasses set the class attributes and implement the abstract methods. The public
    contract (``card``, ``deck``, ``resolve_trick``, ``legal_plays``, ``new_match``,
    ``play``) is documented in the project's design notes and README.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    player_counts: ClassVar[tuple[int, ...]]
    rulebook: ClassVar[Rulebook]
    options_type: ClassVar[type[Options]]
    capabilities: ClassVar[Capabilities]  # what the game offers: see tricklab.games.capabilities
    state_type: ClassVar[type]  # the class of the game's states (``match.state``)
    view_type: ClassVar[type]  # the class of a seat's view (``match.view(seat)``)

    def __init__(self, players: int, options: Options) -> None:
        self.players = players
        self.options = options
        self._deck = self._build_deck()

    # --- construction -----------------------------------------------------------------

    @classmethod
    def create(cls, players: object, /, **options: object) -> Self:
        return cls.from_options(players, options)

    @classmethod
    def from_options(cls, players: object, options: Mapping[str, object]) -> Self:
        """The rules for ``players`` with the options given as a mapping (as a record holds them)."""
        if isinstance(players, bool) or not isinstance(players, int) or players not in cls.player_counts:
            counts = cls.player_counts
            allowed = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
            raise InvalidOption(
                f"{cls.title} is for {allowed} players, not {describe(players)}",
                rule_id=f"{cls.rulebook_prefix()}.players",
            )
        if not isinstance(options, Mapping):
            raise InvalidOption(
                f"{cls.title}: the options must be a mapping of names to values, not {describe(options)}"
            )
        opts = cls.options_type.from_keywords(cls.title, options)
        rules = cls(players, opts)
        rules._check_options()
        return rules

    @classmethod
    def from_stored_options(cls, players: object, options: Mapping[str, object]) -> Self:
        """The rules of a record or link: its stored options (:meth:`Options.stored`), with
        the legacy value of every option it does not name (it was made before that option)."""
        if not isinstance(options, Mapping):
            return cls.from_options(players, options)  # refused there, with the usual message
        return cls.from_options(players, {**cls.options_type.legacy(), **options})

    def as_legacy(self) -> Self:
        """These rules with every option added since records were first saved set to the value
        those records were played with."""
        return self.with_options(**self.options_type.legacy())

    @classmethod
    def rulebook_prefix(cls) -> str:
        return next(iter(cls.rulebook)).split(".")[0]

    def _check_options(self) -> None:
        """Raise :class:`InvalidOption` for a combination the game does not define."""

    def with_options(self, **options: object) -> Self:
        if not options:
            return self
        merged = {**self.options.as_dict(), **options}
        return type(self).from_options(self.players, merged)

    @abstractmethod
    def _build_deck(self) -> Deck: ...

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.as_dict().items())
        sep = ", " if opts else ""
        return f"tricklab.get_rules({self.name!r}, players={self.players}{sep}{opts})"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, Rules)
            and (other.players, other.options) == (self.players, self.options)
        )

    def __hash__(self) -> int:
        return hash((self.name, self.players, self.options))

    # --- cards and tricks ---------------------------------------------------------------

    def card(self, value: CardLike) -> Card:
        """Parse one card in the game's notation (or check a Card belongs to the deck)."""
        return self._deck.card(value)

    def deck(self) -> tuple[Card, ...]:
        """The cards this game uses with this many players and these options."""
        return self._deck.cards

    @property
    def trick_size(self) -> int:
        """How many cards a full trick holds."""
        return self.players

    def cards(self, values: Iterable[CardLike] | str) -> tuple[Card, ...]:
        """Parse several cards; a string is split on spaces and commas."""
        if isinstance(values, str):
            values = values.replace(",", " ").split()
        elif not isinstance(values, (tuple, list)) and (
            not isinstance(values, Iterable) or isinstance(values, (bytes, Card))
        ):
            raise InvalidCard(f"cards are given as a list of cards or as text like 'AS KS', not {describe(values)}")
        return tuple(self._deck.card(v) for v in values)

    def _trick(self, cards: Iterable[CardLike] | str) -> tuple[Card, ...]:
        trick = self.cards(cards)
        if len(set(trick)) != len(trick):
            twice = next(c for c in trick if trick.count(c) > 1)
            raise InvalidTrick(
                f"{twice} is in the trick twice; each card exists once",
                rule_id=f"{self.rulebook_prefix()}.deck",
            )
        if len(trick) > self.trick_size:
            raise InvalidTrick(
                f"a trick of {self.title} with {self.players} players holds at most "
                f"{self.trick_size} cards, not {len(trick)}",
                rule_id=f"{self.rulebook_prefix()}.trick",
            )
        return trick

    @abstractmethod
    def resolve_trick(self, cards: Iterable[CardLike] | str, **context: Any) -> TrickOutcome: ...

    @abstractmethod
    def legal_plays(
        self, hand: Iterable[CardLike] | str, trick: Iterable[CardLike] | str = (), **context: Any
    ) -> tuple[Card, ...]: ...

    def _hand_and_trick(
        self, hand: Iterable[CardLike] | str, trick: Iterable[CardLike] | str
    ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        cards = self.cards(hand)
        if len(set(cards)) != len(cards):
            twice = next(c for c in cards if cards.count(c) > 1)
            raise InvalidTrick(f"{twice} is in the hand twice; each card exists once")
        played = self._trick(trick)
        if len(played) >= self.trick_size:
            raise InvalidTrick(f"the trick is already complete ({len(played)} cards): nobody plays to it")
        both = set(cards) & set(played)
        if both:
            raise InvalidTrick(f"{min(both, key=str)} cannot be both in the hand and in the trick")
        return cards, played

    # --- matches --------------------------------------------------------------------------

    @abstractmethod
    def initial_state(self, seed: int, log: Log = None, **match_options: Any) -> S: ...

    @abstractmethod
    def legal_actions(self, state: S) -> list[Action]: ...

    def apply(self, state: S, action: Action | str, log: Log = None) -> S:
        """Check ``action`` against the rules and return the next state.

        ``action`` is an :class:`Action` or its text (``"play 7S"``), read by :meth:`parse_action`
        (:class:`InvalidAction` if it is not an action of this game).
        Raises :class:`IllegalAction` naming the rule; the given state is never changed.
        With ``log``, append ``(event, state_after)`` for every step, automatic ones too;
        the last step's state is the state returned.
        """
        self.check_state(state)
        check_log(log)
        if not isinstance(action, Action):
            action = self.parse_action(action)
        if log is None:
            return self._apply(state, action, None)
        start = len(log)
        new = self._apply(state, action, log)
        settle(log, start, new)
        return new

    def refusal(self, state: S, action: Action | str) -> IllegalAction | None:
        """Why ``action`` is not allowed in ``state``: the :class:`IllegalAction` that
        :meth:`apply` would raise (its rule id, the reason about the table and ``to_you``, the
        reason spoken to the acting seat), or ``None`` when the rules allow it. Nothing is applied
        and ``state`` is never changed; text that is no action of this game is
        :class:`InvalidAction`, as in :meth:`apply`."""
        self.check_state(state)
        if not isinstance(action, Action):
            action = self.parse_action(action)
        try:
            self._apply(state, action, None)
        except IllegalAction as refused:
            return refused
        return None

    @abstractmethod
    def _apply(self, state: S, action: Action, log: Log) -> S:
        """The game's step: :meth:`apply` without the guarantee on the log's last state.

        A game moves on by itself after some steps (the next player's turn, the next
        leader, a choice that must be made first) without an event of its own; those
        changes belong to the step that caused them, and :meth:`apply` puts them there.
        """

    def check_view_seat(self, seat: object) -> None:
        """A view is for a seat ``0..players-1``, or ``None`` (the teacher, who sees everything)."""
        n = self.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise InvalidOption(f"seat must be 0 to {n - 1} (or None for the teacher's view), not {describe(seat)}")

    def check_seat(self, seat: object, what: str = "seat") -> int:
        """``seat`` if it is a seat ``0..players-1``, else :class:`InvalidOption` naming ``what``."""
        n = self.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidOption(f"{what} must be a seat from 0 to {n - 1}, not {describe(seat)}")
        return seat

    def check_state(self, state: object) -> None:
        """Raise :class:`InvalidOption` unless ``state`` is a state of this game (``match.state``)."""
        if not isinstance(state, self.state_type):
            raise InvalidOption(f"state must be a state of {self.title} (match.state), not {describe(state)}")

    def check_view(self, view: object, *, optional: bool = False) -> None:
        """Raise :class:`InvalidOption` unless ``view`` is a view of this game (``match.view(seat)``),
        or ``None`` where it is ``optional``."""
        if not isinstance(view, self.view_type) and not (optional and view is None):
            raise InvalidOption(f"view must be a view of {self.title} (rules.view(state, seat)), not {describe(view)}")

    @abstractmethod
    def view(self, state: S, seat: int | None) -> SeatView:
        """What ``seat`` may see (``None``: the teacher's view, everything)."""

    @abstractmethod
    def result(self, state: S) -> MatchResult | None: ...

    def canonical_action(self, state: S, action: Action) -> Action:
        """The listed spelling of ``action``, an action the rules have just accepted in ``state``.

        Some decisions can be written more than one way (the same chambers or passed cards in
        another order, Zero Success as ``bid 0 0 0``); :meth:`legal_actions` lists one spelling,
        and a match records that one, so one decision always has one record. By default an
        action has one spelling only.
        """
        return action

    def parse_action(self, text: str | Action) -> Action:
        """An action from its text, or an action checked to name only cards of this game's deck."""
        action = parse_action(text, self.card)
        for card in action.named_cards():
            if card not in self._deck:
                raise InvalidAction(f"{quote_action(action)}: {card} is not a card of {self.title}")
        return action

    def check_match_options(self, options: object) -> dict[str, Any]:
        """Match options (``rules.match_option_names``) as a new dict; their values are checked
        by ``initial_state``. Raises :class:`InvalidOption` for a wrong name or a value a record
        cannot store."""
        if options is None:
            return {}
        if not isinstance(options, Mapping):
            raise InvalidOption(f"match options must be a mapping of names to values, not {describe(options)}")
        check_named_values(self.title, "match option", options, self.match_option_names)
        return dict(options)

    def seat_name(self, seat: int) -> str:
        """A seat as learners read it, counted from 1: seat 0 is ``"Player 1"``."""
        if type(seat) is not int or not 0 <= seat < self.players:
            self.check_seat(seat)
        return f"Player {seat + 1}"

    # --- words for the learner ----------------------------------------------------------------

    def describe_action(self, action: Action, view: SeatView | None = None) -> str:
        """``action`` in words, for the seat that would take it: ``"Play 7♥"``, ``"Predict 2
        tricks"``, ``"Bid Rock 1, Soul 0, Pops 2"``... Seats are named by :meth:`seat_name`
        (from 1). ``view`` (that seat's view) lets a game add what the choice would do (a Metal
        win's score, the jewels in a showroom); without it the words say only the action.

        Each game overrides this; the default reads a card play as ``"Play 7♥"`` and any other
        action as its text form."""
        self.check_described(action, view)
        if isinstance(action, Play):
            return f"Play {action.card.pretty}"
        text = str(action)
        return text[:1].upper() + text[1:]

    def check_described(self, action: object, view: object) -> None:
        """The arguments of :meth:`describe_action`: an action, and a view of this game or ``None``."""
        if not isinstance(action, Action):
            raise InvalidAction(f"action must be an action, like Play('7H') or Predict(2), not {describe(action)}")
        self.check_view(view, optional=True)

    def explain_choice(self, view: SeatView, seat: int | None = None) -> Reason:
        """The rule that frames the decision ``seat`` makes now (by default the view's seat, else
        the seat to play), spoken to that seat: which cards it may play and why (``"You must
        follow hearts: you hold 7♥ and J♥"``, ``"Any card may be played: you lead this trick"``),
        or what the decision is (a prediction, a bid, a pass). The rule id is a clause of
        :attr:`rulebook`; the limits come from the game's own legality, not from a copy of it.

        Each game overrides this; the default cites the game's turn (or trick) clause."""
        self.check_view(view)
        self.check_view_seat(seat)
        prefix = self.rulebook_prefix()
        rule = next((r for r in (f"{prefix}.turn", f"{prefix}.trick") if r in self.rulebook), next(iter(self.rulebook)))
        return Reason(rule, "It is your turn.")

    def new_match(self, seed: int = 0, **options: Any) -> Match:
        """A new match. Keywords are match options (e.g. ``first_dealer``) or rules options."""
        from ..match import Match

        if not options:
            return Match(self, seed)
        match_keys = set(self.match_option_names)
        rules_options = {k: v for k, v in options.items() if k not in match_keys}
        match_options = {k: v for k, v in options.items() if k in match_keys}
        return Match(self.with_options(**rules_options), seed, match_options=match_options)

    match_option_names: ClassVar[tuple[str, ...]] = ("first_dealer",)

    def play(
        self,
        seed: int = 0,
        bots: str | Sequence[str | Bot] = "heuristic",
        **options: Any,
    ) -> Match:
        """A whole match played by bots (one name for all seats, or one bot per seat).

        A match that has not ended after :attr:`max_decisions` decisions raises
        :class:`~tricklab.errors.EndlessMatch` (a rule that lets a game go on forever) instead of
        playing on."""
        from ..bots import make_bots

        match = self.new_match(seed, **options)
        players = make_bots(match.rules, bots, seed)  # the rules with the match's options
        bound = match.rules.max_decisions
        while not match.is_over:
            if len(match.actions) >= bound:
                raise EndlessMatch(
                    f"{self.title} (seed {match.seed}) has not ended after {bound:,} decisions, the most a match "
                    "of these rules may take: a rule lets it go on forever"
                )
            seat = match.to_play
            assert seat is not None
            legal = match.legal_actions()
            match.apply(players[seat].choose(match.view(seat), legal))
        return match

    def unseen_by(self, before: S, action: Action, seat: int, now: S) -> bool:
        """Whether ``action``, a secret choice another seat made at ``before``, is still unknown
        to ``seat`` at ``now`` (a later state of the same match): a prediction not yet revealed,
        passed cards that did not come to ``seat``. What a link made for ``seat`` leaves out
        (:func:`tricklab.links.moves_code`). A game without secret choices keeps the default:
        every action is seen as it is made."""
        return False

    def census(self, state: S) -> Counter[object] | None:
        """Every piece of the game counted wherever it is in ``state`` (card ids for a card game:
        in hands, set aside, in the trick, won, on their way in a pass; a colour's cards or the
        stones): the contract suite checks that it never changes from step to step, so no rule
        loses or doubles a card. ``None`` for a game without a fixed set of pieces."""
        self.check_state(state)
        return self.pieces(state)

    def pieces(self, state: S) -> Counter[object] | None:
        """:meth:`census` of a checked state: what a game writes (the default, ``None``: no fixed
        set of pieces)."""
        return None

    @property
    @abstractmethod
    def max_decisions(self) -> int:
        """The most decisions a match of these rules (players and options) can take: each game
        declares it from its rules, and the contract suite checks that seeded random and bot
        matches of every game and variant end within it."""

    def deal_rng(self, seed: int, round_index: int) -> random.Random:
        """The random source of one round's deal: fixed by the seed and the round."""
        return random.Random(f"tricklab:{self.name}:{seed}:{round_index}")

    def first_dealer(self, seed: int, first_dealer: object | None) -> int:
        if first_dealer is None:
            return random.Random(f"tricklab:{self.name}:{seed}:dealer").randrange(self.players)
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer < self.players:
            raise InvalidOption(
                f"first_dealer must be a seat from 0 to {self.players - 1}, not {describe(first_dealer)}"
            )
        return first_dealer


def leaders(values: Sequence[int], among: Iterable[int] | None = None) -> list[int]:
    """The indices (out of ``among``, default all) that hold the highest of ``values``:
    the winners of a total, or those still tied after a tie-break."""
    pool = list(range(len(values))) if among is None else list(among)
    best = max(values[i] for i in pool)
    return [i for i in pool if values[i] == best]


def settle(log: list[tuple[Event, Any]], start: int, state: object) -> None:
    """End the steps logged since ``start`` at ``state``: the moves a game makes by itself
    after its last event (the next turn, the next leader) are part of that event's step."""
    assert len(log) > start, "every decision logs at least one event"
    event, logged = log[-1]
    if logged is not state:
        log[-1] = (event, state)


def illegal(rule_id: str, message: str, to_you: str | None = None) -> IllegalAction:
    """The refusal of an action by the rule ``rule_id``: ``message`` about the table, ``to_you``
    the same reason spoken to the acting seat (``None``: the message)."""
    return IllegalAction(message, rule_id=rule_id, to_you=to_you)


def with_changes(state: S, **changes: Any) -> S:
    return replace(state, **changes)  # type: ignore[type-var]


#: the games by name and alias (lower case), as the registry (:mod:`tricklab.games`) puts them
#: here: what a record's game is read with, so the match names no game and no registry
_NAMED: dict[str, type[Rules[Any]]] = {}


def register_games(classes: Iterable[type[Rules[Any]]]) -> None:
    """Make each game of ``classes`` known by its name, its title and its aliases (the registry
    does this for every game it lists)."""
    for cls in classes:
        for alias in (cls.name, cls.title.lower(), *cls.aliases):
            _NAMED[alias] = cls


def game_named(name: object) -> type[Rules[Any]]:
    """The Rules class of a game name or alias (case-insensitive), among the registered games."""
    key = name.strip().lower() if isinstance(name, str) else None
    if key is None or key not in _NAMED:
        names = ", ".join(dict.fromkeys(cls.name for cls in _NAMED.values()))
        raise UnknownGame(f"there is no game {describe(name)}; the games are {names}")
    return _NAMED[key]
