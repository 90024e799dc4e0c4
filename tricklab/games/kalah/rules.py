"""Kalah(6,4): sow stones around a board of pits, capture, and store the most.

Two players, six pits a side and a store at each end; four stones in each pit to start
(ruling MK-1 of seed 002, which completes the damaged source from the published game).
Not a trick-taking game: Kalah uses the same ``Rules``/``Match``/``Reason`` contract as the
card games, without the trick machinery (it has no cards, no deal and no hidden information).

The board is 14 counts, :attr:`KalahState.pits`: seat 0's pits 1-6, seat 0's store, seat 1's
pits 1-6, seat 1's store. A seat's pits are counted in the direction of sowing, so pit 1 is the
one furthest from its store and pit 6 the one next to it; sowing runs up the indices, around
from the end to the start, and passes over the opponent's store.

The rules run on the one core (:mod:`tricklab.games.core`): ``core_legal``/``core_step`` over
the compact :class:`KalahState` are the only implementation of each rule. Action id ``k`` is
``Sow(k + 1)``. With a fact list, ``core_step`` records a fact for the pick-up, one for every
stone sown (so a learner can step through a sowing stone by stone), and one for each capture,
extra move, sweep and the end; :meth:`Kalah.narrate` turns them into events citing the
``mk.*`` clauses of :data:`RULEBOOK`.

Options: ``stones`` (3-6 per pit, default 4) and ``capture_empty_opposite`` (default
``False``: a capture needs stones in the opposite pit; ``True``: the last stone is stored even
when the opposite pit is empty).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Self, cast

from ...actions import Action, Sow
from ...cards import Card, Deck, FrenchCard
from ...errors import IllegalAction, InvalidOption, InvalidTrick, describe
from ...explain import Clause, Reason, Rulebook, and_list, plural
from ..base import (
    CardLike,
    Event,
    EventKind,
    MatchResult,
    Options,
    SeatView,
    TieBreak,
    TrickOutcome,
    Word,
    check_log,
    illegal,
    quote_action,
    quote_names,
)
from ..capabilities import BoardKind, Capabilities, Example, Grouping, PositionLevel, Quiz, Ref
from ..core import CoreRules, Fact, Facts, event

NAME = "kalah"
TITLE = "Kalah"
PITS = 6  # pits a side
SIZE = 2 * (PITS + 1)  # 14 places on the board: 12 pits and 2 stores
STONES = 4  # stones per pit at the start (the option's default)
STONE_CHOICES = (3, 4, 5, 6)


class Phase(Word):
    """What a game of Kalah is waiting for: a sowing, or nothing once it is ``OVER``."""

    SOW = "sow"
    OVER = "over"


SOW, OVER = Phase.SOW, Phase.OVER


def store_of(seat: int) -> int:
    """The board index of ``seat``'s store (6 or 13)."""
    return PITS + seat * (PITS + 1)


def pit_index(seat: int, pit: int) -> int:
    """The board index of ``seat``'s pit ``pit`` (1-6)."""
    return seat * (PITS + 1) + pit - 1


def owner_of(index: int) -> int:
    """The seat whose pit or store board index ``index`` is."""
    return 0 if index <= PITS else 1


def pit_number(index: int) -> int:
    """The pit number (1-6) of a pit's board index, as its owner counts it."""
    return index - owner_of(index) * (PITS + 1) + 1


def opposite(index: int) -> int:
    """The board index of the pit across the board from the pit ``index``."""
    return 2 * PITS - index


RULEBOOK = Rulebook(
    NAME,
    [
        Clause(
            "mk.players",
            "Players",
            "Kalah is a game for two players. Player 1 makes the first move; after that the turn "
            "passes to the other player after every move, except when a player moves again.",
            ruling="MK-1",
        ),
        Clause(
            "mk.board",
            "The board",
            "Each player owns the six small pits on their side of the board and the store at their "
            "right-hand end. At the start every small pit holds four stones and both stores are empty.",
            ruling="MK-1",
            option="stones",
        ),
        Clause(
            "mk.pits",
            "Naming a pit",
            "A player's pits are numbered 1 to 6 in the direction the stones travel: pit 1 is the one "
            "furthest from the player's own store, pit 6 the one right beside it. 'sow 3' sows the "
            "mover's pit 3.",
        ),
        Clause(
            "mk.turn",
            "A move",
            "On your turn you choose one of your own pits that holds stones, lift out every stone in "
            "it and sow them. Only the player whose turn it is moves.",
            ruling="MK-1",
        ),
        Clause(
            "mk.sow.empty",
            "An empty pit",
            "A pit with no stones in it cannot be chosen: there is nothing to sow.",
        ),
        Clause(
            "mk.sow",
            "Sowing",
            "The lifted stones are dropped one at a time, one into each following place, going "
            "counter-clockwise: along your own pits, into your own store, then along your "
            "opponent's pits, and round again if stones are left.",
            ruling="MK-1",
        ),
        Clause(
            "mk.skip",
            "The opponent's store",
            "Sowing never drops a stone into the opponent's store: it is passed by, and the next "
            "stone goes into your own pit 1.",
            ruling="MK-1",
        ),
        Clause(
            "mk.again",
            "Move again",
            "If the last stone of your sowing falls into your own store, you move again.",
            ruling="MK-1",
        ),
        Clause(
            "mk.capture",
            "Capture",
            "If the last stone of your sowing falls into one of your own pits that was empty, and "
            "the opponent's pit directly across from it holds stones, that last stone and all the "
            "stones across go into your store. With nothing across, nothing is captured and the "
            "stone stays where it fell.",
            ruling="MK-1",
        ),
        Clause(
            "mk.capture.empty-opposite",
            "Capture across an empty pit",
            "With this option, a last stone that falls into an empty pit of your own goes into your "
            "store even when the pit across from it is empty.",
            ruling="MK-1",
            option="capture_empty_opposite",
        ),
        Clause(
            "mk.end",
            "The end",
            "As soon as all six pits on one side are empty, after any move, the game is over.",
            ruling="MK-1",
        ),
        Clause(
            "mk.sweep",
            "The stones left",
            "When the game ends, the other player puts every stone still on their side into their own store.",
            ruling="MK-1",
        ),
        Clause(
            "mk.win",
            "Winning",
            "The player with more stones in their store wins.",
            ruling="MK-1",
        ),
        Clause(
            "mk.draw",
            "A draw",
            "If both stores hold the same number of stones, the game is a draw.",
            ruling="MK-1",
        ),
        Clause("mk.over", "After the end", "Once the game is over, nobody moves any more."),
        Clause(
            "mk.undo",
            "Taking a move back",
            "In tricklab the last move can be taken back (undo), together with everything the rules "
            "did by themselves after it; before the first move there is nothing to take back.",
        ),
    ],
)


@dataclass(frozen=True, slots=True)
class KalahOptions(Options):
    """Rule options. ``stones``: stones per pit at the start, 3 to 6 (default 4, MK-1).
    ``capture_empty_opposite``: also store a last stone that falls into an empty own pit
    when the pit across is empty (default ``False``)."""

    stones: int = STONES
    capture_empty_opposite: bool = False


# --- the compact state and the views -------------------------------------------------------------


class KalahState(NamedTuple):
    """The whole state, compact: ``pits`` holds the 14 counts (seat 0's pits 1-6, its store,
    seat 1's pits 1-6, its store). While a sowing is being told stone by stone the states of
    its steps have the mover as ``to_play`` and ``lifted`` counts the stones still in the
    mover's hand (0 between moves); ``to_play`` is ``None`` once the game is over."""

    seed: int
    phase: Phase
    to_play: int | None
    pits: tuple[int, ...]
    lifted: int = 0

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    @property
    def stores(self) -> tuple[int, int]:
        """The stones in each seat's store."""
        return self.pits[store_of(0)], self.pits[store_of(1)]

    def side(self, seat: int) -> tuple[int, ...]:
        """``seat``'s pits 1-6."""
        start = seat * (PITS + 1)
        return self.pits[start : start + PITS]

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Kalah has no cards: every hand is empty (the shared contract asks for hands)."""
        return ((), ())


class KalahView(NamedTuple):
    """What a seat sees (``seat is None``: the teacher). Kalah hides nothing, so every seat's
    view holds the whole board; only ``seat`` differs."""

    seat: int | None
    phase: Phase
    to_play: int | None
    pits: tuple[int, ...]
    stones: int
    capture_empty_opposite: bool
    lifted: int = 0  # stones in the mover's hand while a sowing is told stone by stone

    @property
    def hand(self) -> tuple[Card, ...]:
        return ()

    @property
    def hands(self) -> tuple[tuple[Card, ...] | None, ...]:
        """No cards: the own (empty) hand, ``None`` for the other seat's (the contract's shape)."""
        if self.seat is None:
            return ((), ())
        return tuple(() if s == self.seat else None for s in range(2))

    @property
    def stores(self) -> tuple[int, int]:
        return self.pits[store_of(0)], self.pits[store_of(1)]

    def side(self, seat: int) -> tuple[int, ...]:
        start = seat * (PITS + 1)
        return self.pits[start : start + PITS]


# --- facts: what the rules did, for the narrator ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class SetUp(Fact):
    """The board was set: ``stones`` in every pit; ``first`` moves first."""

    kind: ClassVar[EventKind] = EventKind.DEAL
    stones: int
    first: int


@dataclass(frozen=True, slots=True)
class PickedUp(Fact):
    """``seat`` lifted the ``stones`` of its pit ``pit`` (1-6) to sow them."""

    kind: ClassVar[EventKind] = EventKind.SOW
    pit: int
    stones: int


@dataclass(frozen=True, slots=True)
class StoneSown(Fact):
    """Stone ``number`` of ``of`` in ``seat``'s sowing fell at board index ``index``;
    ``skipped``: the opponent's store was passed by just before it."""

    kind: ClassVar[EventKind] = EventKind.STONE
    index: int
    number: int
    of: int
    skipped: bool


@dataclass(frozen=True, slots=True)
class MovedAgain(Fact):
    """``seat``'s last stone fell into its own store: it moves again."""

    kind: ClassVar[EventKind] = EventKind.AGAIN


@dataclass(frozen=True, slots=True)
class Captured(Fact):
    """``seat``'s last stone fell into its empty pit ``pit``; it and the ``stones`` of the
    opponent's pit ``across`` went to ``seat``'s store (``stones`` may be 0 only with the
    option ``capture_empty_opposite``)."""

    kind: ClassVar[EventKind] = EventKind.CAPTURE
    pit: int
    across: int
    stones: int


@dataclass(frozen=True, slots=True)
class Swept(Fact):
    """At the end, ``seat`` stored the ``stones`` left on its side."""

    kind: ClassVar[EventKind] = EventKind.SWEEP
    stones: int


@dataclass(frozen=True, slots=True)
class GameEnded(Fact):
    """The game is over: the sides of ``emptied`` (seats) have no stones left."""

    kind: ClassVar[EventKind] = EventKind.END
    emptied: tuple[int, ...]


#: What Kalah offers besides its rules: for now only its bots (the heuristic player and the
#: searching one of :mod:`tricklab.games.kalah.bots`).
CAPABILITIES = Capabilities(
    quiz=Quiz(
        positions=(
            PositionLevel(
                1,
                "Where does the last stone land?",
                "A pit of up to six stones is sown: its stones are dropped one at a time into the places that "
                "follow, counter-clockwise, into the mover's own store too. Count one place for each stone.",
                Ref("tricklab.games.kalah.puzzles:KALAH_LAST_STONE"),
            ),
            PositionLevel(
                2,
                "Long sowings",
                "A pit of seven stones or more is sown: the stones go on along the other player's pits, and "
                "a long sowing goes round past the other player's store, which never gets a stone.",
                Ref("tricklab.games.kalah.puzzles:KALAH_LONG_SOWING"),
            ),
            PositionLevel(
                3,
                "Which move captures?",
                "Some of the moves capture: the last stone falls into an empty pit of the mover's own "
                "side, with stones in the pit across. Find one.",
                Ref("tricklab.games.kalah.puzzles:KALAH_CAPTURE"),
            ),
        )
    ),
    tricks=False,
    board=BoardKind.PITS,
    option_values=(("stones", (3, 6)), ("capture_empty_opposite", (True,))),
    hidden=False,  # the whole board is in sight of both players
    # a turn is a player's sowings (one more after a last stone in their own store); a sowing's
    # stones and what its last stone did are part of its entry
    grouping=Grouping(part="turn", opens=("sow",), follows=("stone", "again", "capture"), closes=("sweep", "end")),
    examples=(
        Example("play.ipynb", "", "seed=1"),
        Example("quiz.ipynb", "", "seed=1"),
        Example("bid_trainer.ipynb", "try a move", "seed=2"),
        Example("replay.ipynb", "stone by stone", "seed=3"),
    ),
    bots=(
        ("heuristic", Ref("tricklab.games.kalah.bots:HeuristicBot")),
        ("search", Ref("tricklab.games.kalah.bots:SearchBot")),
    ),
    hint_bot="search",
    moves=Ref("tricklab.games.kalah.moves:KALAH_MOVES"),  # "try a move": each move's outcome and searched value
)

_new = tuple.__new__
_ACTIONS = tuple(Sow(pit) for pit in range(1, PITS + 1))  # action id k sows pit k + 1
_SIDE_IDS = tuple(tuple(range(s * (PITS + 1), s * (PITS + 1) + PITS)) for s in range(2))


class Kalah(CoreRules[KalahState]):
    """The rules of Kalah(6,4) (ruling MK-1): ``Kalah.create(2, stones=4,
    capture_empty_opposite=False)``."""

    name: ClassVar[str] = NAME
    title: ClassVar[str] = TITLE
    aliases: ClassVar[tuple[str, ...]] = ("mancala", "kalah(6,4)")
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    rulebook: ClassVar[Rulebook] = RULEBOOK
    options_type: ClassVar[type[Options]] = KalahOptions
    state_type: ClassVar[type] = KalahState
    view_type: ClassVar[type] = KalahView
    capabilities: ClassVar[Capabilities] = CAPABILITIES
    match_option_names: ClassVar[tuple[str, ...]] = ()
    options: KalahOptions

    def __init__(self, players: int, options: Options) -> None:
        super().__init__(players, options)
        assert isinstance(options, KalahOptions)
        self.set_actions(_ACTIONS)

    @classmethod
    def from_options(cls, players: object, options: Mapping[str, object]) -> Self:
        if isinstance(players, bool) or players != 2 or not isinstance(players, int):
            raise InvalidOption(f"{TITLE} is for 2 players, not {describe(players)}", rule_id="mk.players")
        return super().from_options(players, options)

    def _check_options(self) -> None:
        stones = self.options.stones
        if isinstance(stones, bool) or not isinstance(stones, int) or stones not in STONE_CHOICES:
            raise InvalidOption(
                f"{TITLE}: stones={describe(stones)} is not allowed; each pit starts with 3, 4, 5 or 6 stones",
                rule_id="mk.board",
            )
        empty = self.options.capture_empty_opposite
        if not isinstance(empty, bool):
            raise InvalidOption(
                f"{TITLE}: capture_empty_opposite={describe(empty)} is not allowed; choose True or False",
                rule_id="mk.capture.empty-opposite",
            )

    def _build_deck(self) -> Deck:
        return Deck(TITLE, FrenchCard, ())

    @property
    def max_decisions(self) -> int:
        """The bound OpenSpiel's ``mancala`` declares (``max_game_length``): far above the longest
        game seen (random play ends in well under 100 sowings)."""
        return 1000

    def pieces(self, state: KalahState) -> Counter[object]:
        return Counter({"stones": sum(state.pits) + state.lifted})

    # --- no tricks ----------------------------------------------------------------------------

    def resolve_trick(self, cards: Iterable[CardLike] | str, **context: Any) -> TrickOutcome:
        raise InvalidTrick(f"{TITLE} is played with stones, not cards: it has no tricks", rule_id="mk.turn")

    def legal_plays(
        self, hand: Iterable[CardLike] | str, trick: Iterable[CardLike] | str = (), **context: Any
    ) -> tuple[Card, ...]:
        raise InvalidTrick(f"{TITLE} is played with stones, not cards: nothing is played to a trick", rule_id="mk.turn")

    # --- positions ----------------------------------------------------------------------------

    def position(self, pits: Sequence[int], to_play: int | None = 0, seed: int = 0) -> KalahState:
        """A hand-made position: the 14 counts (seat 0's pits 1-6, its store, seat 1's pits 1-6,
        its store) with ``to_play`` to move (``None``: the game is over). For teaching and tests;
        a match always starts from :meth:`core_initial`."""
        counts = tuple(pits) if isinstance(pits, (tuple, list)) else None
        if (
            counts is None
            or len(counts) != SIZE
            or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts)
        ):
            raise InvalidOption(f"a Kalah board is 14 counts of stones, none negative, not {describe(pits)}")
        if to_play not in (0, 1, None):
            raise InvalidOption(f"to_play is seat 0 or 1 (None: the game is over), not {describe(to_play)}")
        return KalahState(seed, OVER if to_play is None else SOW, to_play, counts)

    # --- the core -----------------------------------------------------------------------------

    def core_initial(self, seed: int, facts: Facts | None, **match_options: Any) -> KalahState:
        if match_options:
            raise InvalidOption(f"{TITLE} has no match option {quote_names(match_options)}; it has none")
        stones = self.options.stones
        side = (stones,) * PITS + (0,)
        state = KalahState(seed, SOW, 0, side + side)
        if facts is not None:
            facts.append((SetUp(None, stones, 0), state))
        return state

    def core_legal(self, state: KalahState) -> tuple[int, ...]:
        seat = state.to_play
        if seat is None:
            return ()
        pits = state.pits
        return tuple(k for k, i in enumerate(_SIDE_IDS[seat]) if pits[i])

    def core_step(self, state: KalahState, action: int, facts: Facts | None = None) -> KalahState:
        seat = state.to_play
        assert seat is not None, "no move after the end"
        board = list(state.pits)
        start = pit_index(seat, action + 1)
        count = board[start]
        board[start] = 0
        own_store, their_store = store_of(seat), store_of(1 - seat)
        seed = state.seed

        def now(phase: Phase = SOW, to_play: int | None = seat, lifted: int = 0) -> KalahState:
            return _new(KalahState, (seed, phase, to_play, tuple(board), lifted))

        if facts is not None:
            facts.append((PickedUp(seat, action + 1, count), now(lifted=count)))
        i = start
        for number in range(1, count + 1):  # mk.sow: one stone a place, counter-clockwise
            i = (i + 1) % SIZE
            skipped = i == their_store  # mk.skip: never into the opponent's store
            if skipped:
                i = (i + 1) % SIZE
            board[i] += 1
            if facts is not None:
                facts.append((StoneSown(seat, i, number, count, skipped), now(lifted=count - number)))
        if board[i] == 1 and i != own_store and owner_of(i) == seat:  # mk.capture: into an empty own pit
            across = opposite(i)
            taken = board[across]
            if taken or self.options.capture_empty_opposite:
                board[own_store] += taken + 1
                board[i] = board[across] = 0
                if facts is not None:
                    facts.append((Captured(seat, pit_number(i), pit_number(across), taken), now()))
        left = tuple(sum(board[k] for k in _SIDE_IDS[s]) for s in range(2))
        if 0 in left:  # mk.end: a side is empty; mk.sweep: the other player stores their stones
            for s in range(2):
                if left[s]:
                    for k in _SIDE_IDS[s]:
                        board[k] = 0
                    board[store_of(s)] += left[s]
                    if facts is not None:
                        facts.append((Swept(s, left[s]), now(OVER, None)))
            end = now(OVER, None)
            if facts is not None:
                facts.append((GameEnded(None, tuple(s for s in range(2) if not left[s])), end))
            return end
        if i == own_store:  # mk.again
            after = now()
            if facts is not None:
                facts.append((MovedAgain(seat), after))
            return after
        return now(SOW, 1 - seat)

    # --- checks ---------------------------------------------------------------------------------

    def explain_illegal(self, state: KalahState, action: Action) -> IllegalAction:
        seat = state.to_play
        if seat is None:
            return illegal(
                "mk.over",
                "the game is over: no more moves can be made",
                "The game is over: you cannot move any more.",
            )
        name = self.seat_name(seat)
        quoted = quote_action(action)
        if not isinstance(action, Sow):
            return illegal(
                "mk.turn",
                f"{name} must sow one of their pits now ('sow 1' to 'sow 6'), not {quoted}",
                f"You must sow one of your pits now ('sow 1' to 'sow 6'), not {quoted}.",
            )
        if not 1 <= action.pit <= PITS:
            return illegal(
                "mk.pits",
                f"a pit is numbered 1 to 6, not {describe(action.pit)}",
                f"Your pits are numbered 1 to 6, not {describe(action.pit)}.",
            )
        return illegal(
            "mk.sow.empty",
            f"{name}'s pit {action.pit} is empty: there is nothing to sow",
            f"Your pit {action.pit} is empty: there is nothing to sow.",
        )

    def apply_for(self, state: KalahState, seat: object, action: Action | str, log: Any = None) -> KalahState:
        """:meth:`apply` for a move made by ``seat``: refused by ``mk.turn`` unless it is that
        seat's turn (a table that knows who clicked checks this first)."""
        self.check_state(state)
        self.check_view_seat(seat)
        check_log(log)
        if seat is None or seat != state.to_play:
            if state.to_play is None:
                raise self.explain_illegal(state, Sow(1) if not isinstance(action, Action) else action)
            mover = self.seat_name(state.to_play)
            who = (
                "the teacher's (seat None), who makes no move"
                if seat is None
                else f"{self.seat_name(cast(int, seat))}'s"
            )
            raise illegal(
                "mk.turn",
                f"it is {mover}'s turn, not {who}",
                f"It is not your turn: {mover} moves now.",
            )
        return self.apply(state, action, log)

    # --- results and views -----------------------------------------------------------------------

    def result(self, state: KalahState) -> MatchResult | None:
        self.check_state(state)
        if state.phase is not OVER:
            return None
        totals = state.stores
        name = self.seat_name
        if totals[0] == totals[1]:
            reason = Reason("mk.draw", f"Both stores hold {plural(totals[0], 'stone')}: the game is a draw.")
            return MatchResult(totals, (0, 1), TieBreak.SHARED, (reason,))
        winner = 0 if totals[0] > totals[1] else 1
        reason = Reason(
            "mk.win",
            f"{name(winner)} wins with {plural(totals[winner], 'stone')} in store against {totals[1 - winner]}.",
        )
        return MatchResult(totals, (winner,), None, (reason,))

    def view(self, state: KalahState, seat: int | None) -> KalahView:
        self.check_state(state)
        self.check_view_seat(seat)
        opts = self.options
        return _new(
            KalahView,
            (seat, state.phase, state.to_play, state.pits, opts.stones, opts.capture_empty_opposite, state.lifted),
        )

    # --- words for the learner ---------------------------------------------------------------------

    def place_name(self, index: int) -> str:
        """A board index in words: ``"Player 1's pit 3"``, ``"Player 2's store"``."""
        owner = self.seat_name(owner_of(index))
        if index == store_of(owner_of(index)):
            return f"{owner}'s store"
        return f"{owner}'s pit {pit_number(index)}"

    def describe_action(self, action: Action, view: SeatView | None = None) -> str:
        self.check_described(action, view)
        if not isinstance(action, Sow):
            return super().describe_action(action, view)
        if isinstance(view, KalahView) and view.to_play is not None and 1 <= action.pit <= PITS:
            stones = view.pits[pit_index(view.to_play, action.pit)]
            return f"Sow pit {action.pit} ({plural(stones, 'stone')})"
        return f"Sow pit {action.pit}"

    def explain_choice(self, view: SeatView, seat: int | None = None) -> Reason:
        self.check_view(view)
        self.check_view_seat(seat)
        assert isinstance(view, KalahView)
        mover = view.to_play
        if mover is None:
            return Reason("mk.over", "The game is over.")
        pits = [str(p) for p in range(1, PITS + 1) if view.pits[pit_index(mover, p)]]
        return Reason(
            "mk.turn", f"Sow one of your pits that holds stones: {plural(len(pits), 'pit')}, {and_list(pits)}."
        )

    # --- narration: facts into events ----------------------------------------------------------------

    def narrate(self, fact: Fact, state: KalahState) -> Event:
        name = self.seat_name
        pits = state.pits
        if isinstance(fact, StoneSown):
            seat = cast(int, fact.seat)
            reasons = [Reason("mk.sow", "Stones are sown one a place, counter-clockwise.")]
            if fact.skipped:
                reasons.append(
                    Reason(
                        "mk.skip", f"{name(1 - seat)}'s store is passed by: no stone goes into the opponent's store."
                    )
                )
            return event(
                EventKind.STONE,
                seat,
                f"Stone {fact.number} of {fact.of} into {self.place_name(fact.index)}.",
                reasons,
                index=fact.index,
                number=fact.number,
                of=fact.of,
                skipped=fact.skipped,
                pits=pits,
            )
        if isinstance(fact, PickedUp):
            seat = cast(int, fact.seat)
            return event(
                EventKind.SOW,
                seat,
                f"{name(seat)} lifts {plural(fact.stones, 'stone')} from pit {fact.pit} to sow.",
                (Reason("mk.turn", RULEBOOK["mk.turn"].text),),
                pit=fact.pit,
                index=pit_index(seat, fact.pit),
                stones=fact.stones,
                pits=pits,
            )
        if isinstance(fact, MovedAgain):
            seat = cast(int, fact.seat)
            return event(
                EventKind.AGAIN,
                seat,
                f"The last stone fell into {name(seat)}'s own store: {name(seat)} moves again.",
                (Reason("mk.again", RULEBOOK["mk.again"].text),),
                pits=pits,
            )
        if isinstance(fact, Captured):
            seat = cast(int, fact.seat)
            if fact.stones:
                text = (
                    f"The last stone fell into {name(seat)}'s empty pit {fact.pit}: it and the "
                    f"{plural(fact.stones, 'stone')} across in {name(1 - seat)}'s pit {fact.across} go to "
                    f"{name(seat)}'s store."
                )
                why: tuple[Reason, ...] = (Reason("mk.capture", RULEBOOK["mk.capture"].text),)
            else:
                text = (
                    f"The last stone fell into {name(seat)}'s empty pit {fact.pit}; the pit across is empty "
                    f"too, and the stone goes to {name(seat)}'s store."
                )
                why = (
                    Reason("mk.capture", RULEBOOK["mk.capture"].text),
                    Reason("mk.capture.empty-opposite", RULEBOOK["mk.capture.empty-opposite"].text),
                )
            return event(
                EventKind.CAPTURE,
                seat,
                text,
                why,
                pit=fact.pit,
                across=fact.across,
                stones=fact.stones,
                pits=pits,
            )
        if isinstance(fact, Swept):
            seat = cast(int, fact.seat)
            return event(
                EventKind.SWEEP,
                seat,
                f"{name(seat)} stores the {plural(fact.stones, 'stone')} left on their side.",
                (
                    Reason("mk.end", RULEBOOK["mk.end"].text),
                    Reason("mk.sweep", RULEBOOK["mk.sweep"].text),
                ),
                stones=fact.stones,
                pits=pits,
            )
        if isinstance(fact, SetUp):
            return event(
                EventKind.DEAL,
                None,
                f"The board is set: {plural(fact.stones, 'stone')} in each of the 12 pits, both stores empty. "
                f"{name(fact.first)} moves first.",
                (
                    Reason("mk.board", f"Every pit starts with {plural(fact.stones, 'stone')}."),
                    Reason("mk.players", RULEBOOK["mk.players"].text),
                ),
                stones=fact.stones,
                pits=pits,
            )
        assert isinstance(fact, GameEnded), fact
        result = self.result(state)
        assert result is not None
        sides = and_list(f"{name(s)}'s" for s in fact.emptied)
        emptied = f"{sides} side is empty" if len(fact.emptied) == 1 else f"{sides} sides are empty"
        return event(
            EventKind.END,
            None,
            f"The game is over: {emptied}. {result.reasons[0].text}",
            (Reason("mk.end", RULEBOOK["mk.end"].text), *result.reasons),
            winners=result.winners,
            totals=result.totals,
            pits=pits,
        )
