"""Mandala's core: its compact state, ``core_legal``/``core_step``, refusals, views and scores.

Cards of one colour play alike, so the state counts cards per colour instead of naming them:
a hand, a Mountain, a Field, a Cup and the discard pile are each a tuple of six counts (in the
order of :data:`~tricklab.cards.COLOURS`), a River is the tuple of its colour indices in space
order, and the deck is the tuple of its cards' colour indices, top first. Tuples of the two
Mandalas and of the two seats are indexed from 0; actions, captions and ``claiming`` number
the Mandalas 1 and 2, as a learner does.

Action ids (:func:`action_table`): ``0..11`` a card into a Mountain (``6 * mandala + colour``),
then cards into a Field (per Mandala and colour, 1 to 7 cards), a discard (per colour, 1 to 8
cards) and a claim (per colour): 150 actions. A turn lists at most 36 of them (12 Mountain plays,
at most 8 Field plays per Mandala and 8 discards, for a hand of 8), so the list is built whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, NamedTuple

from ...actions import Action, Claim, Discard, ToField, ToMountain
from ...cards import COLOUR_COPIES, COLOURS, ColourCard, Deck
from ...errors import IllegalAction, InvalidOption, InvalidScoreInput, InvalidTrick, describe
from ...explain import Reason, and_list, plural
from ..base import (
    LEGACY,
    CardLike,
    Event,
    MatchResult,
    Options,
    Score,
    ScoreLine,
    TieBreak,
    TrickOutcome,
    check_choice,
    illegal,
)
from ..capabilities import BoardKind, Capabilities, Example, Grouping, PositionLevel, Quiz, Ref
from ..core import CoreRules, Decided, Fact, Facts, decide, shuffled_ids
from .facts import (
    Claimed,
    Cleared,
    Completed,
    Counts,
    Dealt,
    Discarded,
    Drew,
    Ended,
    IntoField,
    IntoMountain,
    Refilled,
    Reshuffled,
)
from .rulebook import (
    CARDS,
    CLAIM,
    COLOUR_INDEX,
    DRAW_UP_TO,
    HAND_LIMIT,
    LEGACY_RESHUFFLES,
    MANDALAS,
    NAME,
    OVER,
    PLAY,
    RESHUFFLES,
    RIVER_SPACES,
    RULEBOOK,
    START_CUP,
    START_HAND,
    START_MOUNTAIN,
    TITLE,
    ClaimTie,
    Completion,
    EndCause,
    Phase,
    RiverEnd,
)

NO_CARDS: Counts = (0,) * len(COLOURS)
Putter = Callable[["MandalaState", Counts], "MandalaState"]  # puts the cards taken from the deck where they go
Noter = Callable[[tuple[int, ...], int, bool, bool, bool], Fact]  # the fact of one part of a draw
FIELD_MAX = HAND_LIMIT - 1  # a Field play keeps one card in hand


class Kind(NamedTuple):
    """One action id decoded: its kind (``"mountain"``, ``"field"``, ``"discard"``, ``"claim"``),
    the Mandala index (0 or 1, or -1), the colour index and the number of cards."""

    kind: str
    mandala: int
    colour: int
    cards: int


class ActionTable(NamedTuple):
    actions: tuple[Action, ...]
    decoded: tuple[Kind, ...]
    mountain: dict[tuple[int, int], int]  # (mandala, colour) -> id
    field: dict[tuple[int, int, int], int]  # (mandala, colour, count) -> id
    discard: dict[tuple[int, int], int]  # (colour, count) -> id
    claim: dict[int, int]  # colour -> id


def action_table() -> ActionTable:
    """Every action of Mandala with its id, and the look-ups from its parts to its id."""
    actions: list[Action] = []
    decoded: list[Kind] = []
    mountain: dict[tuple[int, int], int] = {}
    field: dict[tuple[int, int, int], int] = {}
    discard: dict[tuple[int, int], int] = {}
    claim: dict[int, int] = {}
    for m in range(MANDALAS):
        for c, colour in enumerate(COLOURS):
            mountain[m, c] = len(actions)
            actions.append(ToMountain(m + 1, colour))
            decoded.append(Kind("mountain", m, c, 1))
    for m in range(MANDALAS):
        for c, colour in enumerate(COLOURS):
            for n in range(1, FIELD_MAX + 1):
                field[m, c, n] = len(actions)
                actions.append(ToField(m + 1, colour, n))
                decoded.append(Kind("field", m, c, n))
    for c, colour in enumerate(COLOURS):
        for n in range(1, HAND_LIMIT + 1):
            discard[c, n] = len(actions)
            actions.append(Discard(colour, n))
            decoded.append(Kind("discard", -1, c, n))
    for c, colour in enumerate(COLOURS):
        claim[c] = len(actions)
        actions.append(Claim(colour))
        decoded.append(Kind("claim", -1, c, 0))
    return ActionTable(tuple(actions), tuple(decoded), mountain, field, discard, claim)


TABLE = action_table()


def _add(counts: Counts, colour: int, n: int) -> Counts:
    return counts[:colour] + (counts[colour] + n,) + counts[colour + 1 :]


def _put(pair: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return pair[:index] + (value,) + pair[index + 1 :]


def _sum(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _counts(colours: Iterable[int]) -> Counts:
    out = [0] * len(COLOURS)
    for c in colours:
        out[c] += 1
    return tuple(out)


def by_colour(counts: Counts) -> dict[str, int]:
    """Counts per colour as ``{colour: count}``, the colours held only, in colour order."""
    return {COLOURS[c]: n for c, n in enumerate(counts) if n}


@dataclass(frozen=True, slots=True)
class MandalaOptions(Options):
    """Mandala's options, each a choice between readings of a ruling (defaults: the rulings').

    ``completion`` and ``reshuffles`` came with rulings MD-6 and MD-5; records saved before them
    hold neither and replay as they were played: ``completion="after-draw"`` and
    ``reshuffles=100`` (the deck was then rebuilt whenever it ran out).
    """

    claim_tie: str = ClaimTie.OTHER.value  # MD-2: who chooses first when the Fields are equal
    river_end: str = RiverEnd.AT_ONCE.value  # MD-3: when a River with six colours ends the game
    # MD-6: a Mandala completed by a Mountain play is complete before that turn's draw
    completion: str = field(default=Completion.ON_ARRIVAL.value, metadata={LEGACY: Completion.AFTER_DRAW.value})
    # MD-5: how often the discards become a new deck; when the last one runs out the game is stalled
    reshuffles: int = field(default=RESHUFFLES, metadata={LEGACY: LEGACY_RESHUFFLES})


@dataclass(frozen=True, slots=True)
class MandalaState:
    """One moment of Mandala, compactly (see the module's notes on counts).

    ``turn`` is the seat whose turn it is (or whose turn completed the Mandala being claimed);
    ``to_play`` is who decides now (during a claim, the seat choosing a colour) and ``None``
    once the game is over. ``fields[m][s]`` is seat ``s``'s Field of Mandala ``m``.
    ``claiming`` is the index of the Mandala whose Mountain is being claimed, ``last`` says
    the game ends once that claim is done, and ``end`` why the game ended.
    """

    phase: Phase
    to_play: int | None
    turn: int
    hand_counts: tuple[Counts, ...]
    mountains: tuple[Counts, ...]
    fields: tuple[tuple[Counts, ...], ...]
    river_ids: tuple[tuple[int, ...], ...]
    cup_counts: tuple[Counts, ...]
    deck: tuple[int, ...]
    discards: Counts
    seed: int = 0  # the match's seed: each reshuffle is drawn from it and the reshuffle's number
    reshuffles: int = 0
    claiming: int | None = None
    last: bool = False
    end: EndCause | None = None

    @property
    def is_over(self) -> bool:
        return self.to_play is None

    @property
    def hands(self) -> tuple[dict[str, int], ...]:
        """Each seat's hand as ``{colour: count}``."""
        return tuple(by_colour(h) for h in self.hand_counts)

    @property
    def rivers(self) -> tuple[tuple[str, ...], ...]:
        """Each seat's River: its colours from space 1 on."""
        return tuple(tuple(COLOURS[c] for c in r) for r in self.river_ids)

    @property
    def cups(self) -> tuple[dict[str, int], ...]:
        return tuple(by_colour(c) for c in self.cup_counts)

    def card_total(self) -> Counts:
        """Every card of the game counted by colour, wherever it is (18 of each, always)."""
        total = _sum(self.discards, _counts(self.deck))
        for counts in (*self.hand_counts, *self.mountains, *self.cup_counts, *(f for m in self.fields for f in m)):
            total = _sum(total, counts)
        for river in self.river_ids:
            total = _sum(total, _counts(river))
        return total


@dataclass(frozen=True, slots=True)
class MandalaArea:
    """One Mandala as a view shows it: its Mountain and each seat's Field, as ``{colour: count}``."""

    mountain: dict[str, int]
    fields: tuple[dict[str, int], ...]

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours present anywhere in this Mandala, in colour order."""
        present = set(self.mountain).union(*self.fields)
        return tuple(c for c in COLOURS if c in present)


@dataclass(frozen=True, slots=True)
class MandalaView:
    """What one seat may see (``seat is None``: the teacher, who sees everything).

    Hidden from a seat: the other hand (``None``; its size is in ``hand_sizes``), the order of
    the deck (``deck`` is ``None``; its size is ``deck_size``) and what lies face down in the
    Cups (``cups`` are ``None``; their sizes are ``cup_sizes``). Public: both Mandalas, both
    Rivers (colours from space 1 on), the discard pile. ``claiming`` is the number (1 or 2) of
    the Mandala being claimed, if any; ``scores`` are given once the game is over.
    """

    seat: int | None
    phase: Phase
    to_play: int | None
    turn: int
    hands: tuple[dict[str, int] | None, ...]
    hand_sizes: tuple[int, ...]
    mandalas: tuple[MandalaArea, ...]
    rivers: tuple[tuple[str, ...], ...]
    cups: tuple[dict[str, int] | None, ...]
    cup_sizes: tuple[int, ...]
    deck: tuple[str, ...] | None
    deck_size: int
    discards: dict[str, int]
    reshuffles: int
    claiming: int | None
    last: bool
    scores: tuple[int, ...] | None

    @property
    def hand(self) -> tuple[ColourCard, ...]:
        """The seat's own hand as cards (copies numbered from 1 in each colour; empty for the teacher)."""
        own = None if self.seat is None else self.hands[self.seat]
        if not own:
            return ()
        return tuple(ColourCard(colour, k) for colour, n in own.items() for k in range(1, n + 1))


CAPABILITIES = Capabilities(
    quiz=Quiz(
        positions=(
            PositionLevel(
                1,
                "A card into a Mountain",
                "May the player to move put this card into this Mandala's Mountain? A colour already in "
                "a Field of that Mandala may not go into its Mountain.",
                Ref("tricklab.games.mandala.puzzles:MANDALA_MOUNTAIN"),
            ),
            PositionLevel(
                2,
                "A card into your own Field",
                "May the player to move put this card into their own Field of this Mandala? A colour "
                "already in its Mountain or in the other player's Field there may not, and one card must "
                "stay in hand.",
                Ref("tricklab.games.mandala.puzzles:MANDALA_FIELD"),
            ),
            PositionLevel(
                3,
                "Mountains and Fields",
                "Both kinds of question, in either Mandala: look only at the Mandala the card would go into.",
                Ref("tricklab.games.mandala.puzzles:MANDALA_ANYWHERE"),
            ),
        )
    ),
    tricks=False,
    board=BoardKind.MANDALAS,
    # a turn is a card put down (or a discard), with the draw after it; a completed Mandala's
    # claims are in the turn that completed it
    grouping=Grouping(
        part="turn",
        opens=("field", "mountain", "discard"),
        follows=("draw", "reshuffle", "clear", "refill"),
        closes=("end",),
    ),
    option_values=(
        ("claim_tie", (ClaimTie.COMPLETER.value,)),
        ("river_end", (RiverEnd.AFTER_CLAIMS.value,)),
        ("completion", (Completion.AFTER_DRAW.value,)),
        ("reshuffles", (2, LEGACY_RESHUFFLES)),
    ),
    examples=(
        Example("play.ipynb", "", "seed=1"),
        Example("quiz.ipynb", "", "seed=1"),
        Example("bid_trainer.ipynb", "try a move", "seed=2"),
        Example("replay.ipynb", "colour by colour", "seed=3"),
    ),
    bots=(("heuristic", Ref("tricklab.games.mandala.bots:HeuristicBot")),),
    moves=Ref("tricklab.games.mandala.moves:MANDALA_MOVES"),  # "try a move": each move's outcome, as the seat knows it
)


class Mandala(CoreRules[MandalaState]):
    """Mandala for two players (rulings MD-1 to MD-3)."""

    name: ClassVar[str] = NAME
    title: ClassVar[str] = TITLE
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    rulebook = RULEBOOK
    options_type: ClassVar[type[Options]] = MandalaOptions
    state_type: ClassVar[type] = MandalaState
    view_type: ClassVar[type] = MandalaView
    capabilities: ClassVar[Capabilities] = CAPABILITIES
    match_option_names: ClassVar[tuple[str, ...]] = ("first_player",)
    options: MandalaOptions

    def __init__(self, players: int, options: Options) -> None:
        super().__init__(players, options)
        self.set_actions(TABLE.actions)

    def _check_options(self) -> None:
        check_choice(TITLE, "claim_tie", self.options.claim_tie, [c.value for c in ClaimTie])
        check_choice(TITLE, "river_end", self.options.river_end, [c.value for c in RiverEnd])
        check_choice(TITLE, "completion", self.options.completion, [c.value for c in Completion])
        n = self.options.reshuffles
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= LEGACY_RESHUFFLES:
            raise InvalidOption(
                f"{TITLE}: reshuffles={describe(n)} is not allowed; the discards become a new deck 1 to "
                f"{LEGACY_RESHUFFLES} times (1 by ruling MD-5)",
                rule_id="md.end.stalled",
            )

    @property
    def max_decisions(self) -> int:
        """Every card ever drawn or turned into a Mountain comes from the first deck or a rebuilt
        one: at most D = 108 x (1 + reshuffles) (MD-5). A turn that draws takes one of them; a turn
        that draws nothing puts a card down from a hand that only draws refill (at most 16 + D); a
        claim takes cards a Mountain play or a refill put there (at most 2D + 20)."""
        d = CARDS * (1 + self.options.reshuffles)
        return 4 * d + 36

    def pieces(self, state: MandalaState) -> Counter[object]:
        return Counter(dict(zip(COLOURS, state.card_total(), strict=True)))

    def _build_deck(self) -> Deck:
        cards = tuple(ColourCard(colour, k) for colour in COLOURS for k in range(1, COLOUR_COPIES + 1))
        return Deck(TITLE, ColourCard, cards)

    # --- no tricks -----------------------------------------------------------------------------

    def resolve_trick(self, cards: Iterable[CardLike] | str, **context: Any) -> TrickOutcome:
        raise InvalidTrick("Mandala has no tricks: cards go into Mountains and Fields", rule_id="md.turn")

    def legal_plays(
        self, hand: Iterable[CardLike] | str, trick: Iterable[CardLike] | str = (), **context: Any
    ) -> tuple[ColourCard, ...]:
        raise InvalidTrick("Mandala has no tricks: its legal actions are listed by a match", rule_id="md.turn")

    # --- scoring ---------------------------------------------------------------------------------

    def score(self, *, cup: Mapping[str, int], river: Sequence[str]) -> Score:
        """The score of a Cup (``{colour: count}``) against a River (colours from space 1 on): each
        Cup card scores its colour's River space, a colour missing from the River nothing."""
        if (
            not isinstance(river, (tuple, list))
            or not all(isinstance(colour, str) for colour in river)
            or len(set(river)) != len(river)
            or len(river) > RIVER_SPACES
        ):
            raise InvalidScoreInput(f"a River is a list of up to six different colours, not {describe(river)}")
        if not isinstance(cup, Mapping):
            raise InvalidScoreInput(f"a Cup is given as {{colour: count}}, not {describe(cup)}")
        for colour in (*river, *cup):
            if colour not in COLOUR_INDEX:
                raise InvalidScoreInput(f"{describe(colour)} is not a colour of Mandala ({', '.join(COLOURS)})")
        for colour, n in cup.items():
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= COLOUR_COPIES:
                raise InvalidScoreInput(f"a Cup holds 0 to {COLOUR_COPIES} {colour} cards, not {describe(n)}")
        lines = []
        for colour in COLOURS:
            n = cup.get(colour, 0)
            if not n and colour not in river:
                continue
            space = river.index(colour) + 1 if colour in river else 0
            detail = (
                f"{plural(n, 'card')} at {plural(space, 'point')} each"
                if space
                else f"{plural(n, 'card')}, not in the River"
            )
            lines.append(ScoreLine(colour, colour.capitalize(), n * space, "river" if space else "none", detail))
        total = sum(line.points for line in lines)
        return Score(total, tuple(lines), (Reason("md.score", f"The Cup scores {plural(total, 'point')}."),))

    def totals(self, state: MandalaState) -> tuple[int, ...]:
        """Each seat's score now: its Cup cards times their colours' River spaces."""
        return tuple(
            sum(cup[c] * (river.index(c) + 1) for c in river)
            for cup, river in zip(state.cup_counts, state.river_ids, strict=True)
        )

    def decided(self, state: MandalaState) -> Decided:
        sizes = [sum(c) for c in state.cup_counts]
        return decide(self.totals(state), [(TieBreak.FEWER_CUP, [-n for n in sizes])])

    # --- the core ----------------------------------------------------------------------------------

    def core_initial(self, seed: int, facts: Facts | None, **match_options: Any) -> MandalaState:
        first = match_options.pop("first_player", None)
        if match_options:
            raise InvalidOption(f"{TITLE} has no match option {', '.join(sorted(match_options))}")
        if first is None:
            first = self.first_dealer(seed, None)
        elif isinstance(first, bool) or not isinstance(first, int) or first not in (0, 1):
            raise InvalidOption(f"first_player must be seat 0 or 1, not {describe(first)}")
        order = [i // COLOUR_COPIES for i in shuffled_ids(self, seed, 0, range(CARDS))]
        at = 0

        def take(n: int) -> list[int]:
            nonlocal at
            out = order[at : at + n]
            at += n
            return out

        mountains = tuple(_counts(take(START_MOUNTAIN)) for _ in range(MANDALAS))
        hands = tuple(_counts(take(START_HAND)) for _ in range(self.players))
        cups = tuple(_counts(take(START_CUP)) for _ in range(self.players))
        state = MandalaState(
            phase=PLAY,
            to_play=first,
            turn=first,
            hand_counts=hands,
            mountains=mountains,
            fields=tuple((NO_CARDS, NO_CARDS) for _ in range(MANDALAS)),
            river_ids=((), ()),
            cup_counts=cups,
            deck=tuple(order[at:]),
            discards=NO_CARDS,
            seed=seed,
        )
        if facts is not None:
            facts.append((Dealt(None, mountains, hands, cups, len(state.deck), first), state))
        return state

    def core_legal(self, state: MandalaState) -> Sequence[int]:
        if state.phase is OVER or state.to_play is None:
            return ()
        if state.phase is CLAIM:
            assert state.claiming is not None
            mountain = state.mountains[state.claiming]
            return tuple(TABLE.claim[c] for c in range(len(COLOURS)) if mountain[c])
        seat = state.to_play
        hand = state.hand_counts[seat]
        size = sum(hand)
        out: list[int] = []
        for m in range(MANDALAS):
            fields = state.fields[m]
            for c in range(len(COLOURS)):
                if hand[c] and not fields[0][c] and not fields[1][c]:
                    out.append(TABLE.mountain[m, c])
        for m in range(MANDALAS):
            mountain, other = state.mountains[m], state.fields[m][1 - seat]
            for c in range(len(COLOURS)):
                if hand[c] and not mountain[c] and not other[c]:
                    out.extend(TABLE.field[m, c, n] for n in range(1, min(hand[c], size - 1) + 1))
        for c in range(len(COLOURS)):
            out.extend(TABLE.discard[c, n] for n in range(1, hand[c] + 1))
        return tuple(out)

    def core_step(self, state: MandalaState, action: int, facts: Facts | None = None) -> MandalaState:
        kind, m, c, n = TABLE.decoded[action]
        seat = state.to_play
        assert seat is not None
        colour = COLOURS[c]
        if kind == "claim":
            return self._claim(state, seat, c, facts)
        hands = state.hand_counts
        hand = _add(hands[seat], c, -n)
        if kind == "mountain":
            state = replace(
                state,
                hand_counts=_put(hands, seat, hand),
                mountains=_put(state.mountains, m, _add(state.mountains[m], c, 1)),
            )
            self._note(facts, IntoMountain(seat, m + 1, colour), state)
            want = min(DRAW_UP_TO, HAND_LIMIT - sum(hand))
            if self.options.completion == Completion.AFTER_DRAW:
                state = self._draw(state, seat, want, "md.turn.draw", facts)
                return state if state.phase is OVER else self._end_turn(state, seat, m, facts)
            completed = self._complete(state, seat, m, facts)
            state = self._draw(completed or state, seat, want, "md.turn.draw", facts)
            if state.phase is OVER:
                return state
            if completed is not None:
                return self._start_claim(state, facts)
            return self._next_turn(state, 1 - seat, facts)
        if kind == "field":
            fields = _put(state.fields[m], seat, _add(state.fields[m][seat], c, n))
            state = replace(state, hand_counts=_put(hands, seat, hand), fields=_put(state.fields, m, fields))
            self._note(facts, IntoField(seat, m + 1, colour, n), state)
            return self._end_turn(state, seat, m, facts)
        state = replace(state, hand_counts=_put(hands, seat, hand), discards=_add(state.discards, c, n))
        self._note(facts, Discarded(seat, colour, n), state)
        state = self._draw(state, seat, n, "md.turn.discard", facts)
        return state if state.phase is OVER else self._next_turn(state, 1 - seat, facts)

    @staticmethod
    def _note(facts: Facts | None, fact: Fact, state: MandalaState) -> None:
        if facts is not None:
            facts.append((fact, state))

    def _reshuffle(self, state: MandalaState, facts: Facts | None) -> MandalaState:
        """The deck has run out: the discards, shuffled by the seed and the reshuffle's number,
        become the new deck; or, once the deck has been rebuilt as often as the options allow,
        the game ends as it stands (MD-5)."""
        if state.reshuffles >= self.options.reshuffles:
            return self._end(state, EndCause.STALLED, facts)
        pile = [c for c in range(len(COLOURS)) for _ in range(state.discards[c])]
        number = state.reshuffles + 1
        order = shuffled_ids(self, state.seed, number, range(len(pile)))
        state = replace(state, deck=tuple(pile[i] for i in order), discards=NO_CARDS, reshuffles=number)
        self._note(facts, Reshuffled(None, len(pile), number), state)
        return state

    def _deal_out(self, state: MandalaState, want: int, facts: Facts | None, put: Putter, note: Noter) -> MandalaState:
        """Take up to ``want`` cards from the top of the deck and ``put`` them where they go, in
        parts: the cards of the old deck, then (when it runs out) the reshuffle, then the rest
        from the new deck. Each part is noted with every card in its place (``note(taken,
        wanted, continued, emptied, short)``: the part's cards, how many it was to take, whether
        it follows a reshuffle, whether it took the deck's last card, and whether it fell short
        with nothing more to take). When the deck runs out and cannot be rebuilt, the game ends
        there (MD-5)."""
        left, continued = want, False
        while left > 0:
            if not state.deck:
                if not any(state.discards):
                    if left == want:  # nothing at all to take
                        self._note(facts, note((), left, continued, False, True), state)
                    break
                state = self._reshuffle(state, facts)
                if state.phase is OVER:
                    return state
                continued = True
            k = min(left, len(state.deck))
            taken = state.deck[:k]
            state = put(replace(state, deck=state.deck[k:]), _counts(taken))
            emptied = not state.deck
            more = emptied and any(state.discards) and state.reshuffles < self.options.reshuffles
            self._note(facts, note(taken, left, continued, emptied, k < left and not more), state)
            left -= k
        if not state.deck and (any(state.discards) or state.reshuffles >= self.options.reshuffles):
            state = self._reshuffle(state, facts)  # it has run out: rebuilt at once, or the end (MD-5)
        return state

    def _draw(self, state: MandalaState, seat: int, want: int, rule: str, facts: Facts | None) -> MandalaState:
        if want <= 0:
            return state

        def put(state: MandalaState, counts: Counts) -> MandalaState:
            return replace(state, hand_counts=_put(state.hand_counts, seat, _sum(state.hand_counts[seat], counts)))

        def note(taken: tuple[int, ...], wanted: int, continued: bool, emptied: bool, short: bool) -> Fact:
            colours = tuple(COLOURS[c] for c in taken)
            return Drew(seat, len(taken), wanted, colours, rule, continued, emptied, short)

        return self._deal_out(state, want, facts, put, note)

    def _refill(self, state: MandalaState, m: int, facts: Facts | None) -> MandalaState:
        """Two new cards face up into the Mountain of the cleared Mandala ``m``."""

        def put(state: MandalaState, counts: Counts) -> MandalaState:
            return replace(state, mountains=_put(state.mountains, m, _sum(state.mountains[m], counts)))

        def note(taken: tuple[int, ...], wanted: int, continued: bool, emptied: bool, short: bool) -> Fact:
            return Refilled(None, m + 1, tuple(COLOURS[c] for c in taken), continued)

        return self._deal_out(state, START_MOUNTAIN, facts, put, note)

    @staticmethod
    def present(state: MandalaState, m: int) -> tuple[int, ...]:
        """The colour indices present in Mandala ``m`` (its Mountain and both Fields)."""
        mountain, (f0, f1) = state.mountains[m], state.fields[m]
        return tuple(c for c in range(len(COLOURS)) if mountain[c] or f0[c] or f1[c])

    def first_chooser(self, fields: tuple[int, ...], completer: int) -> tuple[int, bool]:
        """Who chooses first from a completed Mandala whose Fields hold ``fields`` cards, and
        whether that was settled by the tie rule."""
        if fields[0] != fields[1]:
            return (0 if fields[0] > fields[1] else 1), False
        return (completer if self.options.claim_tie == ClaimTie.COMPLETER else 1 - completer), True

    def _end_turn(self, state: MandalaState, seat: int, m: int, facts: Facts | None) -> MandalaState:
        """The end of a turn that added cards to Mandala ``m``: its claim if it is complete now,
        else the other player's turn."""
        completed = self._complete(state, seat, m, facts)
        if completed is None:
            return self._next_turn(state, 1 - seat, facts)
        return self._start_claim(completed, facts)

    def _complete(self, state: MandalaState, seat: int, m: int, facts: Facts | None) -> MandalaState | None:
        """``state`` with Mandala ``m`` completed by ``seat`` (who chooses first, whether it is the
        last), if its six colours are present now; else ``None``. The claim starts at the end of
        the turn (:meth:`_start_claim`)."""
        if len(self.present(state, m)) < len(COLOURS):
            return None
        sizes = tuple(sum(f) for f in state.fields[m])
        first, tie = self.first_chooser(sizes, seat)
        last = state.reshuffles > 0
        state = replace(state, phase=CLAIM, to_play=first, claiming=m, last=last)
        self._note(facts, Completed(seat, m + 1, sizes, first, tie, last), state)
        return state

    def _start_claim(self, state: MandalaState, facts: Facts | None) -> MandalaState:
        """The claim of the completed Mandala, at the end of the turn that completed it."""
        m = state.claiming
        assert m is not None
        if not any(state.mountains[m]):  # nothing to claim (the Mountain could not be refilled)
            return self._finish_claim(state, facts)
        return state

    def _next_turn(self, state: MandalaState, seat: int, facts: Facts | None) -> MandalaState:
        state = replace(state, phase=PLAY, to_play=seat, turn=seat, claiming=None, last=False)
        if not any(state.hand_counts[seat]):
            return self._end(state, EndCause.STUCK, facts)
        return state

    def _claim(self, state: MandalaState, seat: int, c: int, facts: Facts | None) -> MandalaState:
        m = state.claiming
        assert m is not None
        n = state.mountains[m][c]
        mountains = _put(state.mountains, m, state.mountains[m][:c] + (0,) + state.mountains[m][c + 1 :])
        state = replace(state, mountains=mountains)
        river = state.river_ids[seat]
        space: int | None = None
        to_cup = 0
        discarded = not any(state.fields[m][seat])
        if discarded:
            state = replace(state, discards=_add(state.discards, c, n))
        elif c not in river:
            space = len(river) + 1
            to_cup = n - 1
            state = replace(
                state,
                river_ids=_put(state.river_ids, seat, river + (c,)),
                cup_counts=_put(state.cup_counts, seat, _add(state.cup_counts[seat], c, to_cup)),
            )
        else:
            to_cup = n
            state = replace(state, cup_counts=_put(state.cup_counts, seat, _add(state.cup_counts[seat], c, n)))
        self._note(facts, Claimed(seat, m + 1, COLOURS[c], n, space, to_cup, discarded), state)
        full = len(state.river_ids[seat]) == RIVER_SPACES
        if full and self.options.river_end == RiverEnd.AT_ONCE:
            return self._end(state, EndCause.RIVER, facts)
        if any(state.mountains[m]):
            return replace(state, to_play=1 - seat)
        return self._finish_claim(state, facts)

    def _finish_claim(self, state: MandalaState, facts: Facts | None) -> MandalaState:
        m = state.claiming
        assert m is not None
        f0, f1 = state.fields[m]
        count = sum(f0) + sum(f1)
        state = replace(
            state,
            fields=_put(state.fields, m, (NO_CARDS, NO_CARDS)),
            discards=_sum(state.discards, _sum(f0, f1)),
        )
        self._note(facts, Cleared(None, m + 1, count), state)
        if any(len(r) == RIVER_SPACES for r in state.river_ids):
            return self._end(state, EndCause.RIVER, facts)
        if state.last:
            return self._end(state, EndCause.DECK, facts)
        state = self._refill(state, m, facts)
        if state.phase is OVER:
            return state
        return self._next_turn(state, 1 - state.turn, facts)

    def _end(self, state: MandalaState, cause: EndCause, facts: Facts | None) -> MandalaState:
        state = replace(state, phase=OVER, to_play=None, claiming=None, end=cause)
        if facts is not None:
            decided = self.decided(state)
            facts.append(
                (
                    Ended(
                        None,
                        cause,
                        self.totals(state),
                        tuple(sum(c) for c in state.cup_counts),
                        state.cup_counts,
                        state.rivers,
                        decided.winners,
                        decided.tie_break,
                    ),
                    state,
                )
            )
        return state

    # --- refusals ----------------------------------------------------------------------------------

    def explain_illegal(self, state: MandalaState, action: Action) -> IllegalAction:
        """Why ``action`` is refused now: the rule id, a sentence about the table and the same
        reason spoken to the acting seat (``to_you``, a sentence of its own)."""
        error = self._refusal(state, action)
        to_you = error.to_you[:1].upper() + error.to_you[1:]
        return illegal(error.rule_id or "md.turn", str(error), to_you)

    def _refusal(self, state: MandalaState, action: Action) -> IllegalAction:
        seat = state.to_play
        if seat is None:
            return illegal("md.over", "the game is over: nobody takes another turn")
        who = self.seat_name(seat)
        if isinstance(action, Claim):
            return self._refuse_claim(state, seat, action)
        if state.phase is CLAIM:
            assert state.claiming is not None
            return illegal(
                "md.claim.order",
                f"Mandala {state.claiming + 1} is complete: {who} must first choose a colour of its Mountain",
                f"Mandala {state.claiming + 1} is complete: choose a colour of its Mountain first",
            )
        if isinstance(action, (ToMountain, ToField)) and action.mandala not in range(1, MANDALAS + 1):
            return illegal(
                "md.mandalas",
                f"there are two Mandalas, 1 and 2; there is no Mandala {action.mandala}",
            )
        hand = state.hand_counts[seat]
        if isinstance(action, ToMountain):
            c = COLOUR_INDEX[action.colour]
            if not hand[c]:
                return self._not_held(who, action.colour)
            m = action.mandala - 1
            owner = next((s for s in range(self.players) if state.fields[m][s][c]), seat)
            return illegal(
                "md.color",
                f"{action.colour} is already in {self.seat_name(owner)}'s Field of Mandala {action.mandala}, "
                "so it cannot go into that Mandala's Mountain",
                f"{action.colour} is already in {self._whose(owner, seat)} Field of Mandala {action.mandala}, "
                "so it cannot go into that Mandala's Mountain",
            )
        if isinstance(action, ToField):
            c = COLOUR_INDEX[action.colour]
            m = action.mandala - 1
            if action.count < 1:
                return illegal("md.turn.field", "a Field play puts at least one card down")
            if hand[c] < action.count:
                return self._not_held(who, action.colour, hand[c], action.count)
            if state.mountains[m][c]:
                return illegal(
                    "md.color",
                    f"{action.colour} is already in the Mountain of Mandala {action.mandala}, "
                    "so it cannot go into a Field of that Mandala",
                )
            if state.fields[m][1 - seat][c]:
                other = self.seat_name(1 - seat)
                return illegal(
                    "md.color",
                    f"{action.colour} is already in {other}'s Field of Mandala {action.mandala}, "
                    f"so it cannot go into {who}'s Field there",
                    f"{action.colour} is already in {other}'s Field of Mandala {action.mandala}, "
                    "so it cannot go into yours",
                )
            return illegal(
                "md.turn.field.keep",
                f"{who} holds {plural(sum(hand), 'card')}: after a Field play at least one must stay in hand",
                f"you hold {plural(sum(hand), 'card')}: after a Field play at least one must stay in your hand",
            )
        if isinstance(action, Discard):
            c = COLOUR_INDEX[action.colour]
            if action.count < 1:
                return illegal("md.turn.discard", "a discard puts at least one card down")
            return self._not_held(who, action.colour, hand[c], action.count)
        return illegal("md.turn", f"{describe(str(action))} is not a Mandala action: {self._choices()}")

    @staticmethod
    def _choices() -> str:
        return "write 'mountain 1 red', 'field 2 blue 3', 'discard green 2' or 'claim red'"

    def _whose(self, owner: int, seat: int) -> str:
        return "your" if owner == seat else f"{self.seat_name(owner)}'s"

    @staticmethod
    def _not_held(who: str, colour: str, held: int = 0, wanted: int = 1) -> IllegalAction:
        if not held:
            return illegal("md.turn.hand", f"{who} holds no {colour} card", f"you hold no {colour} card")
        return illegal(
            "md.turn.hand",
            f"{who} holds only {plural(held, colour + ' card')}, not {wanted}",
            f"you hold only {plural(held, colour + ' card')}, not {wanted}",
        )

    def _refuse_claim(self, state: MandalaState, seat: int, action: Claim) -> IllegalAction:
        if state.phase is not CLAIM or state.claiming is None:
            return illegal(
                "md.claim",
                "no Mandala is being claimed: colours are claimed only from a completed Mandala's Mountain",
            )
        left = and_list(COLOURS[c] for c in range(len(COLOURS)) if state.mountains[state.claiming][c])
        return illegal(
            "md.claim",
            f"{action.colour} is not in the Mountain of Mandala {state.claiming + 1}; the colours left are {left}",
        )

    # --- views and results ------------------------------------------------------------------------------

    def view(self, state: MandalaState, seat: int | None) -> MandalaView:
        self.check_state(state)
        self.check_view_seat(seat)
        teacher = seat is None
        over = state.phase is OVER
        return MandalaView(
            seat=seat,
            phase=state.phase,
            to_play=state.to_play,
            turn=state.turn,
            hands=tuple(by_colour(h) if teacher or s == seat else None for s, h in enumerate(state.hand_counts)),
            hand_sizes=tuple(sum(h) for h in state.hand_counts),
            mandalas=tuple(
                MandalaArea(by_colour(state.mountains[m]), tuple(by_colour(f) for f in state.fields[m]))
                for m in range(MANDALAS)
            ),
            rivers=state.rivers,
            cups=tuple(  # MD-4: a seat sees its own Cup, never the other's before the end
                by_colour(c) if teacher or over or s == seat else None for s, c in enumerate(state.cup_counts)
            ),
            cup_sizes=tuple(sum(c) for c in state.cup_counts),
            deck=tuple(COLOURS[c] for c in state.deck) if teacher else None,
            deck_size=len(state.deck),
            discards=by_colour(state.discards),
            reshuffles=state.reshuffles,
            claiming=None if state.claiming is None else state.claiming + 1,
            last=state.last,
            scores=self.totals(state) if over or teacher else None,
        )

    def result(self, state: MandalaState) -> MatchResult | None:
        self.check_state(state)
        if state.phase is not OVER:
            return None
        totals = self.totals(state)
        decided = self.decided(state)
        reasons = [Reason("md.score", self._score_text(state, s, totals[s])) for s in range(self.players)]
        if decided.tie_break is not None:
            sizes = " and ".join(plural(sum(c), "card") for c in state.cup_counts)
            reasons.append(Reason("md.score.tie", f"The scores are equal; the Cups hold {sizes}."))
        return MatchResult(totals, decided.winners, decided.tie_break, tuple(reasons))

    def _score_text(self, state: MandalaState, seat: int, total: int) -> str:
        river = state.river_ids[seat]
        cup = state.cup_counts[seat]
        parts = [f"{cup[c]} {COLOURS[c]} at {i + 1}" for i, c in enumerate(river) if cup[c]]
        detail = f" ({', '.join(parts)})" if parts else ""
        return f"{self.seat_name(seat)} scores {plural(total, 'point')}{detail}."

    # --- words for the learner ----------------------------------------------------------------------

    def describe_action(self, action: Action, view: Any = None) -> str:
        """``action`` in words for the seat taking it: ``"Put one red card into Mountain 1, then
        draw"``. With the view of a claim, a claim says how many cards it takes."""
        self.check_described(action, view)
        if isinstance(action, ToMountain):
            return f"Put one {action.colour} card into Mountain {action.mandala}, then draw"
        if isinstance(action, ToField):
            return f"Put {plural(action.count, action.colour + ' card')} into your Field of Mandala {action.mandala}"
        if isinstance(action, Discard):
            return f"Discard {plural(action.count, action.colour + ' card')} and draw as many"
        if isinstance(action, Claim):
            taken = ""
            if isinstance(view, MandalaView) and view.claiming is not None:
                n = view.mandalas[view.claiming - 1].mountain.get(action.colour, 0)
                taken = f" ({plural(n, 'card')})" if n else ""
            return f"Claim {action.colour}{taken}"
        return super().describe_action(action, view)

    def explain_choice(self, view: Any, seat: int | None = None) -> Reason:
        """The rule framing the decision now: a turn's three actions, or a claim's colours."""
        self.check_view(view)
        self.check_view_seat(seat)
        if not isinstance(view, MandalaView) or view.to_play is None:
            return Reason("md.over", "The game is over.")
        if view.phase is CLAIM and view.claiming is not None:
            colours = and_list(view.mandalas[view.claiming - 1].mountain)
            return Reason(
                "md.claim", f"Mandala {view.claiming} is complete: choose a colour of its Mountain ({colours})."
            )
        return Reason(
            "md.turn",
            "Put one card into a Mountain and draw, put cards of one colour into your own Field, "
            "or discard cards of one colour and draw as many.",
        )

    def narrate(self, fact: Fact, state: MandalaState) -> Event:
        from .narrate import narrate

        return narrate(self, fact)
