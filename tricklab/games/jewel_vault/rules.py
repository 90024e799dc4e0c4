"""Jewel Vault's rules, written once as a core: a compact state and the round (``core_round``).

The state (:class:`JewelVaultState`) is a named tuple of ints and small tuples: card ids
(:data:`~.facts.CARD_IDS`), bit-mask hands, the jewels per side, owed suit actions as ints.
The rules of play are the engine's trick round on a Jewel Vault deal (:class:`_Deal`), which
lists action ids at each decision and makes every automatic step after one (the owed suit
actions, trick completion, the end of a round, the next deal); ``core_legal``/``core_step``
start it from a state. The checked API, the bots and the advisor all run on it; a refusal is
explained by :meth:`JewelVault.explain_illegal` with the same functions
(:meth:`JewelVault.playable`, :meth:`JewelVault.steal_sides`), never a second copy of a rule.

Action ids: ``0..51`` play a card (the card's id), ``52..54`` announce 1-3, ``55..60`` a ♣
target (``steal 0`` .. ``steal 5``), and from ``61`` every pass of 1, 2 or 3 cards.

For play-outs on the core (the advisor's): :meth:`JewelVault.with_hands` puts sampled hands
into a state, :meth:`JewelVault.core_view` is a seat's cheap view, and the heuristic bot's
``choose_id(view, legal_ids)`` decides from it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from math import comb
from typing import Any, ClassVar, NamedTuple, overload

from ...actions import Action, Announce, Pass, Play, Steal
from ...cards import SUIT_NAME, SUIT_SYMBOL, Card, Deck, FrenchCard
from ...errors import IllegalAction, InvalidOption, InvalidScoreInput, InvalidTrick, describe
from ...explain import Reason, Rulebook, plural
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
    check_choice,
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
    led_suit,
)
from ..core import (
    Decided,
    Decisions,
    Fact,
    Facts,
    TrickDeal,
    TrickGame,
    bits,
    deal_hands,
    decide,
    follow_mask,
    hidden_hands,
    lowest,
    mask_census,
    mask_of,
    secrets_seen_by,
    shuffle_ids,
    shuffled_ids,
)
from .facts import (
    CARD_IDS,
    CAUSES,
    RANK_OF,
    SUIT_MASKS,
    SUIT_OF,
    Acted,
    ActionResult,
    Announced,
    Dealt,
    DueAction,
    Ended,
    Exchanged,
    Jewels,
    Passed,
    Played,
    RoundEnd,
    RoundEnded,
    TrickWon,
    due_action,
    owe,
)
from .narrate import (
    action_legend,
    action_result,
    describe_action,
    describe_due,
    explain_choice,
    explain_trick,
    follow_to_you,
    narrate,
    result_reasons,
    round_end_reasons,
)
from .rulebook import (
    AFTER_TRICK,
    ANNOUNCE,
    ANNOUNCE_CHOICES,
    DEFAULT_ROUNDS,
    DEFAULT_SUPPLY,
    IN_TRICK,
    KNOWN_DECK_TOP,
    MAX_ROUNDS,
    NAME,
    NO_TARGET,
    NO_TRICK_ACTIONS,
    OVER,
    PASS,
    PLAY,
    ROUND_END,
    ROUND_END_ORDER,
    RULEBOOK,
    SHOWROOM_EMPTY,
    SHOWROOM_POINTS,
    START_SHOWROOM,
    STEAL,
    SUIT_INDEX,
    SUITS,
    SUPPLY_EMPTY,
    TITLE,
    VAULT_POINTS,
    Blocked,
    Cause,
    Phase,
    Stage,
)

# --- action ids ---------------------------------------------------------------------------------

ANNOUNCE_BASE = 52  # announce k is 52 + k - 1
STEAL_BASE = 55  # steal t is 55 + t
MAX_SEATS = 6
PASS_BASE = STEAL_BASE + MAX_SEATS  # passes of 1, 2, then 3 cards, each in lexicographic order of ids
_ANNOUNCE_IDS = tuple(ANNOUNCE_BASE + k - 1 for k in ANNOUNCE_CHOICES)
_SPADE, _HEART, _DIAMOND, _CLUB = 0, 1, 2, 3
_VOID, _TRICK, _MOST, _NO_TRICK = range(4)  # indices into CAUSES
_ROUND_END_SUITS = tuple(SUIT_INDEX[suit] for suit in ROUND_END_ORDER)


class ActionTable(NamedTuple):
    actions: tuple[Action, ...]
    ids: dict[Action, int]
    pass_masks: tuple[int, ...]  # pass id - PASS_BASE -> mask of the cards passed
    pass_ids: dict[int, int]  # mask -> pass id


@cache
def action_table() -> ActionTable:
    """Every action of Jewel Vault, numbered (built once: the same for every set-up)."""
    cards = CARD_IDS.cards
    actions: list[Action] = [Play(c) for c in cards]
    actions += [Announce(k) for k in ANNOUNCE_CHOICES]
    actions += [Steal(t) for t in range(MAX_SEATS)]
    masks: list[int] = []
    for k in ANNOUNCE_CHOICES:
        for combo in combinations(range(len(cards)), k):
            masks.append(mask_of(combo))
            actions.append(Pass(tuple(cards[i] for i in combo)))
    return ActionTable(
        tuple(actions),
        {a: i for i, a in enumerate(actions)},
        tuple(masks),
        {m: PASS_BASE + i for i, m in enumerate(masks)},
    )


class PassIds(Sequence[int]):
    """The passes open to a hand: every choice of ``k`` of its cards, in the order
    ``itertools.combinations`` gives them over the hand (hand order), as action ids.
    Computed on demand: a hand of 10 has 120 ways to pass 3, and a random player needs one."""

    __slots__ = ("_hand", "_ids", "_k", "_len", "_pass_ids")

    def __init__(self, hand: int, k: int) -> None:
        self._hand = hand
        self._ids = bits(hand)
        self._k = k
        self._len = comb(len(self._ids), k)
        self._pass_ids = action_table().pass_ids

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...
    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        i = index + self._len if index < 0 else index
        if not 0 <= i < self._len:
            raise IndexError(index)
        ids, k = self._ids, self._k
        m = len(ids)
        mask = 0
        start = 0
        for slot in range(k):
            rest = k - slot - 1
            for x in range(start, m):
                ways = comb(m - x - 1, rest)
                if i < ways:
                    mask |= 1 << ids[x]
                    start = x + 1
                    break
                i -= ways
        return self._pass_ids[mask]

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, int) or action < PASS_BASE:
            return False
        masks = action_table().pass_masks
        at = action - PASS_BASE
        if at >= len(masks):
            return False
        mask = masks[at]
        return mask.bit_count() == self._k and not mask & ~self._hand

    def __iter__(self) -> Iterator[int]:
        pass_ids = self._pass_ids
        for combo in combinations(self._ids, self._k):
            yield pass_ids[mask_of(combo)]


# --- value objects --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JewelVaultOptions(Options):
    """Rule options.

    ``partnerships`` (JV-9, 4 or 6 players), ``known_deck`` (JV-9, 2-4 players),
    ``rounds`` (JV-2; ``None`` = 4/6/4/5/6 rounds for 2/3/4/5/6 players) and
    ``supply`` (JV-3, 100 jewels).
    """

    partnerships: bool = False
    known_deck: bool = False
    rounds: int | None = None
    supply: int = DEFAULT_SUPPLY


class JewelVaultState(NamedTuple):
    """The whole state (the teacher's knowledge), compact: card ids and bit masks.

    ``hand_masks[s]`` is seat ``s``'s hand, ``pass_masks[s]`` the cards it chose to pass this
    round (``None`` until chosen, a secret choice; they leave the hand when chosen and reach the receiver when
    everyone has chosen), ``won_masks[s]`` the cards it won this round, ``trick_ids`` the
    current trick in play order. The jewels are ``supply`` and, per side, ``showrooms`` and
    ``vaults``. ``owed`` are the suit actions owed right now, the current one first (ints:
    see :func:`~.facts.owe`); ``stage`` says where play goes on once they are done. The last
    completed trick was led by ``last_leader`` (``-1``: none yet) with ``last_ids``.

    The read-only properties give the same facts as cards and value objects: ``hands``,
    ``aside``, ``passes``, ``trick``, ``won_cards`` (hand order), ``jewels``, ``pending``
    and ``last_trick``.
    """

    seed: int
    phase: Phase
    to_play: int | None
    round: int
    dealer: int
    hand_masks: tuple[int, ...]
    aside_mask: int
    announced: int | None
    pass_masks: tuple[int | None, ...]
    exchanged: bool
    leader: int
    trick_ids: tuple[int, ...]
    tricks_played: int
    tricks_won: tuple[int, ...]
    won_masks: tuple[int, ...]
    supply: int
    showrooms: tuple[int, ...]
    vaults: tuple[int, ...]
    owed: tuple[int, ...]
    stage: Stage
    last_leader: int
    last_ids: tuple[int, ...]

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    def seat_of(self, index: int) -> int:
        """The seat that plays card ``index`` of the current trick (works for two-player tricks too)."""
        return (self.leader + index) % len(self.hand_masks)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return CARD_IDS.hands(self.hand_masks)

    @property
    def aside(self) -> tuple[Card, ...]:
        return CARD_IDS.hand(self.aside_mask)

    @property
    def passes(self) -> tuple[tuple[Card, ...] | None, ...]:
        hand = CARD_IDS.hand
        return tuple(None if m is None else hand(m) for m in self.pass_masks)

    @property
    def trick(self) -> tuple[Card, ...]:
        return CARD_IDS.of(self.trick_ids)

    @property
    def won_cards(self) -> tuple[tuple[Card, ...], ...]:
        return CARD_IDS.hands(self.won_masks)

    @property
    def jewels(self) -> Jewels:
        return Jewels(self.supply, self.showrooms, self.vaults)

    @property
    def pending(self) -> tuple[DueAction, ...]:
        return tuple(due_action(d) for d in self.owed)

    @property
    def last_trick(self) -> Trick | None:
        if self.last_leader < 0:
            return None
        return _trick(self.last_leader, self.last_ids, len(self.hand_masks))


_FIELD = {name: i for i, name in enumerate(JewelVaultState._fields)}
_new = tuple.__new__


def _with(state: JewelVaultState, **changes: Any) -> JewelVaultState:
    """``state`` with some fields changed (cheaper than ``_replace``)."""
    values = list(state)
    for name, value in changes.items():
        values[_FIELD[name]] = value
    return _new(JewelVaultState, values)


@lru_cache(maxsize=4096)
def _trick(leader: int, ids: tuple[int, ...], players: int) -> Trick:
    """The completed trick ``ids`` led by ``leader``, as the one Trick value object."""
    return Trick.ranked(leader, CARD_IDS.of(ids), ranking(ids), players, places=False)


def ranking(ids: Sequence[int]) -> tuple[int, ...]:
    """A trick's ranking (play-order indices): led-suit cards high to low (the first wins),
    then the off-suit cards in play order (JV-5)."""
    led = SUIT_OF[ids[0]]
    follow = [i for i, c in enumerate(ids) if SUIT_OF[c] == led]
    follow.sort(key=lambda i: -RANK_OF[ids[i]])
    return (*follow, *(i for i, c in enumerate(ids) if SUIT_OF[c] != led))


def winning_index(ids: Sequence[int]) -> int:
    """The play-order index of the card winning the trick ``ids`` so far: the highest of the led suit."""
    led = SUIT_OF[ids[0]]
    best, at = RANK_OF[ids[0]], 0
    for i in range(1, len(ids)):
        c = ids[i]
        if SUIT_OF[c] == led and RANK_OF[c] > best:
            best, at = RANK_OF[c], i
    return at


def move(
    supply: int, rooms: tuple[int, ...], vaults: tuple[int, ...], side: int, suit: int, target: int | None
) -> tuple[int, tuple[int, ...], tuple[int, ...], Blocked | None]:
    """One suit action's effect on the jewels (JV-1), or why it cannot be done."""
    if suit == _DIAMOND:
        if supply == 0:
            return supply, rooms, vaults, SUPPLY_EMPTY
        return supply - 1, rooms, vaults[:side] + (vaults[side] + 1,) + vaults[side + 1 :], None
    if suit == _HEART:
        if supply == 0:
            return supply, rooms, vaults, SUPPLY_EMPTY
        return supply - 1, rooms[:side] + (rooms[side] + 1,) + rooms[side + 1 :], vaults, None
    if suit == _SPADE:
        if rooms[side] == 0:
            return supply, rooms, vaults, SHOWROOM_EMPTY
        rooms = rooms[:side] + (rooms[side] - 1,) + rooms[side + 1 :]
        return supply, rooms, vaults[:side] + (vaults[side] + 1,) + vaults[side + 1 :], None
    if target is None:
        return supply, rooms, vaults, NO_TARGET
    new = list(rooms)
    new[target] -= 1
    new[side] += 1
    return supply, tuple(new), vaults, None


# --- what the game offers ------------------------------------------------------------------------


def jv_led_suit(outcome: TrickOutcome) -> bool:
    """Quiz level 1: every card follows the led suit."""
    return all(card.suit == led_suit(outcome) for card in outcome.cards)


def jv_off_suit(outcome: TrickOutcome) -> bool:
    """Quiz level 2: a card that did not follow suit shows a higher number than the winner."""
    best = outcome.winning_card
    return any(card.suit != best.suit and card.rank > best.rank for card in outcome.cards)


CAPABILITIES = Capabilities(
    decision=Decision(DecisionKind.PASS, PASS, "jv.pass", ANNOUNCE_CHOICES),
    explainer_players=4,
    quiz=Quiz(
        (
            Level(
                1,
                "Follow the led suit",
                "Everyone follows the led suit: the highest card wins, and the Ace is the lowest card.",
                jv_led_suit,
                (1,),
            ),
            Level(
                2,
                "Other suits never win",
                "Someone could not follow suit. A card of another suit can never win, however high it is.",
                jv_off_suit,
                (2, 3, 4),
            ),
        )
    ),
    panels=(
        Ref("tricklab.games.jewel_vault.panel:jewels"),
        Ref("tricklab.games.jewel_vault.panel:actions_owed"),
    ),
    bots=(("heuristic", Ref("tricklab.games.jewel_vault.bots:HeuristicBot")),),
    advice=Ref("tricklab.games.jewel_vault.advice:JV_ADVICE"),
    review=Ref("tricklab.games.jewel_vault.review:JV_REVIEW"),
    variants=("partnerships", "known_deck"),
    option_values=(("rounds", (1, 8)), ("supply", (18,))),
    # a suit action is part of the entry of the card or trick (or the round's end) that earned it
    grouping=Grouping(follows=("action",), closes=("round-end", "end")),
    examples=(
        Example("play.ipynb", "", "players=4"),
        Example("play.ipynb", "partnerships", "players=4&partnerships=yes"),
        Example("quiz.ipynb", "", "players=4&seed=1"),
        Example("bid_trainer.ipynb", "", "players=4&seed=12"),
        Example("explain_trick.ipynb", "", "players=4&cards=9H,3H,5C,QH"),
        Example("replay.ipynb", "two players", "players=2&seed=7"),
    ),
)


@dataclass(frozen=True, slots=True)
class JewelVaultView:
    """What one seat may see (``seat is None``: the teacher, who sees everything).

    Hidden from a seat: other hands (``None``), other sides' vaults (``None`` until the
    game is over and the vaults are opened), and the cards others chose to pass.
    ``received`` is what the seat got in this round's pass, once the cards changed
    hands. Public: the supply, every showroom, tricks won and ``won_counts[seat]``
    (cards won this round per suit, in the order ♠ ♥ ♦ ♣).

    For bots, the same compactly: ``hand_mask`` (the seat's own hand as card ids; ``0`` for
    the teacher) and ``trick_ids`` (the current trick's card ids in play order).
    """

    seat: int | None
    phase: Phase
    to_play: int | None
    round: int
    rounds: int
    dealer: int
    partnerships: bool
    sides: tuple[int, ...]
    announced: int | None
    hands: tuple[tuple[Card, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    passed: tuple[bool, ...]
    passes: tuple[tuple[Card, ...] | None, ...]
    received: tuple[Card, ...] | None
    leader: int
    trick: tuple[Card, ...]
    trick_seats: tuple[int, ...]
    tricks_played: int
    tricks_won: tuple[int, ...]
    won_counts: tuple[tuple[int, ...], ...]
    supply: int
    showrooms: tuple[int, ...]
    vaults: tuple[int | None, ...]
    pending: tuple[DueAction, ...]
    last_trick: Trick | None
    scores: tuple[int, ...] | None
    hand_mask: int = 0
    trick_ids: tuple[int, ...] = ()

    @property
    def hand(self) -> tuple[Card, ...]:
        if self.seat is None:
            return ()
        own = self.hands[self.seat]
        return own if own is not None else ()

    @property
    def side(self) -> int | None:
        return None if self.seat is None else self.sides[self.seat]

    def won_count(self, seat: int, suit: str) -> int:
        return self.won_counts[seat][SUIT_INDEX[suit]]


class JewelVaultCoreView(NamedTuple):
    """What one seat may see, compactly and cheaply (:meth:`JewelVault.core_view`): what the
    bots decide from, for play-outs that step the core. The same facts as in
    :class:`JewelVaultView`: the seat's own hand as card ids (``hand_mask``), the trick's
    card ids, the announced number of cards to pass, tricks won, the supply, every showroom,
    the seat's own side's vault (``vault``) and each seat's side."""

    seat: int
    phase: Phase
    to_play: int | None
    hand_mask: int
    trick_ids: tuple[int, ...]
    leader: int
    announced: int | None
    tricks_won: tuple[int, ...]
    supply: int
    showrooms: tuple[int, ...]
    vault: int
    sides: tuple[int, ...]


class JewelVault(TrickGame[JewelVaultState, "_Deal"]):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = TITLE
    aliases: ClassVar[tuple[str, ...]] = ("jv", "jewel_vault", "jewelvault")
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4, 5, 6)
    rulebook: ClassVar[Rulebook] = RULEBOOK
    options_type: ClassVar[type[Options]] = JewelVaultOptions
    state_type: ClassVar[type] = JewelVaultState
    view_type: ClassVar[type] = JewelVaultView
    capabilities: ClassVar[Capabilities] = CAPABILITIES
    options: JewelVaultOptions

    def __init__(self, players: int, options: Options) -> None:
        super().__init__(players, options)
        n = players
        partnerships = isinstance(options, JewelVaultOptions) and options.partnerships is True and n in (4, 6)
        self._partnerships = partnerships
        half = n // 2
        self._sides = tuple(s % half for s in range(n)) if partnerships else tuple(range(n))
        self._n_sides = half if partnerships else n
        self._members = tuple(tuple(s for s in range(n) if self._sides[s] == side) for side in range(self._n_sides))
        known = isinstance(options, JewelVaultOptions) and options.known_deck is True
        self._trick_size = 4 if n == 2 else n
        self._cards_each = len(self._deck) // n if known else (8 if n == 6 else 10)
        self._tricks_per_round = self._cards_each * n // self._trick_size
        rounds = getattr(options, "rounds", None)
        plain = isinstance(rounds, int) and not isinstance(rounds, bool)
        self._rounds: int = rounds if isinstance(rounds, int) and plain else DEFAULT_ROUNDS.get(n, 1)
        # facts of this set-up used on every step, computed once
        self._deck_ids = tuple(CARD_IDS.id[c] for c in self._deck.cards)
        self._receivers = tuple((s + half) % n if partnerships else (s + 1) % n for s in range(n))
        self._givers = tuple(self._receivers.index(s) for s in range(n))
        table = action_table()
        self.actions, self._action_ids = table.actions, table.ids  # one table for every set-up
        self._pass_masks = table.pass_masks
        self._steal_cache: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
        self._counts_cache: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}
        # the seats in play order of a trick led by each seat (with two players each plays twice)
        self._seats_from = tuple(tuple((lead + i) % n for i in range(self._trick_size)) for lead in range(n))
        # the seats in turn order from each dealer's left, and so each side's members (JV-6)
        self._turn_from = tuple(tuple((dealer + 1 + i) % n for i in range(n)) for dealer in range(n))
        self._members_from = tuple(
            tuple(tuple(s for s in order if self._sides[s] == side) for side in range(self._n_sides))
            for order in self._turn_from
        )
        self._steal_ids: dict[tuple[int, ...], tuple[int, ...]] = {}  # sides to rob -> the action ids

    def _check_options(self) -> None:
        o = self.options
        n = self.players
        check_choice(TITLE, "partnerships", o.partnerships, (False, True))
        check_choice(TITLE, "known_deck", o.known_deck, (False, True))
        if o.rounds is not None and (
            isinstance(o.rounds, bool) or not isinstance(o.rounds, int) or not 1 <= o.rounds <= MAX_ROUNDS
        ):
            raise InvalidOption(
                f"{TITLE}: rounds must be a whole number from 1 to {MAX_ROUNDS}, or None for the usual "
                f"number ({DEFAULT_ROUNDS[n]} with {n} players); not {describe(o.rounds)}",
                rule_id="jv.rounds",
            )
        least = START_SHOWROOM * n
        if isinstance(o.supply, bool) or not isinstance(o.supply, int) or o.supply < least:
            raise InvalidOption(
                f"{TITLE}: supply must be a whole number of jewels, at least {least} so that each of the {n} "
                f"players can start with {START_SHOWROOM} in the showroom; not {describe(o.supply)}",
                rule_id="jv.supply",
            )
        if o.partnerships and n not in (4, 6):
            raise InvalidOption(
                f"{TITLE}: partnerships need 4 or 6 players (partners sit opposite), not {n}",
                rule_id="jv.partnerships",
            )
        if o.known_deck and n not in KNOWN_DECK_TOP:
            raise InvalidOption(
                f"{TITLE}: the known-deck variant is defined for 2, 3 or 4 players, not {n}",
                rule_id="jv.known-deck",
            )

    def _build_deck(self) -> Deck:
        options = self.options
        top = 13
        if isinstance(options, JewelVaultOptions) and options.known_deck is True:
            top = KNOWN_DECK_TOP.get(self.players, 13)
        cards = tuple(FrenchCard(suit, rank) for suit in SUITS for rank in range(1, top + 1))
        return Deck(TITLE, FrenchCard, cards)

    @property
    def max_decisions(self) -> int:
        """Per round: the announcement, one pass per player, every card played, at most one suit
        action for each card played and each trick won (JV-5), and the end-of-round actions: one
        per suit and two ♦ per player (JV-6)."""
        n = self.players
        cards = self._cards_each * n
        return self._rounds * (1 + n + 2 * cards + self._tricks_per_round + 4 + 2 * n)

    def unseen_by(self, before: JewelVaultState, action: Action, seat: int, now: JewelVaultState) -> bool:
        """Cards another seat chose to pass stay its secret (JV-4), but for the seat they were
        passed to, once they have changed hands."""
        if not isinstance(action, Pass) or before.to_play in (None, seat):
            return False
        received = before.to_play is not None and self._receivers[before.to_play] == seat
        changed_hands = now.round > before.round or now.exchanged
        return not (received and changed_hands)

    def pieces(self, state: JewelVaultState) -> Counter[object]:
        passing = () if state.exchanged else state.pass_masks  # chosen cards leave the hand until the exchange
        return mask_census((*state.hand_masks, state.aside_mask, *passing, *state.won_masks), state.trick_ids)

    # --- facts of this set-up --------------------------------------------------------------------

    @property
    def trick_size(self) -> int:
        """Cards in a full trick: one per player, or four with two players (JV-7)."""
        return self._trick_size

    @property
    def rounds(self) -> int:
        """How many rounds a game has (the ``rounds`` option, or the JV-2 default)."""
        return self._rounds

    @property
    def cards_each(self) -> int:
        """Cards dealt to each player: 10, 8 with 6 players, or all of the known deck."""
        return self._cards_each

    @property
    def tricks_per_round(self) -> int:
        return self._tricks_per_round

    @property
    def sides(self) -> tuple[int, ...]:
        """The side of each seat: the seat itself, or its partnership (seat mod players/2)."""
        return self._sides

    @property
    def sides_count(self) -> int:
        """How many sides keep jewels: the players, or the partnerships."""
        return self._n_sides

    def side_of(self, seat: int) -> int:
        return self._sides[seat]

    def members(self, side: int) -> tuple[int, ...]:
        return self._members[side]

    def partner(self, seat: int) -> int | None:
        """The partner opposite, in the partnership variant; else ``None``."""
        if not self.options.partnerships:
            return None
        return (seat + self.players // 2) % self.players

    def receiver(self, seat: int) -> int:
        """Who gets the cards ``seat`` passes: the left neighbour, or the partner (JV-9)."""
        return self._receivers[seat]

    def side_name(self, side: int) -> str:
        members = self._members[side]
        if len(members) == 1:
            return self.seat_name(members[0])
        return " & ".join(self.seat_name(s) for s in members)

    def owner(self, side: int) -> str:
        """Whose showroom or vault, for prose: ``"Player 2's"``, or ``"Player 1 & Player 3's shared"``."""
        members = self._members[side]
        if len(members) == 1:
            return f"{self.seat_name(members[0])}'s"
        return f"{self.side_name(side)}'s shared"

    # --- the rules, as functions of ids and masks (core and explanations both use these) --------

    @staticmethod
    def playable(hand: int, trick: Sequence[int]) -> int:
        """The cards of ``hand`` that may be played to ``trick`` (JV-5, JV-7): the led suit if
        held, otherwise any card."""
        if not trick:
            return hand
        return follow_mask(hand, SUIT_OF[trick[0]], CARD_IDS)

    ranking = staticmethod(ranking)
    winning_index = staticmethod(winning_index)

    def steal_sides(self, showrooms: tuple[int, ...], side: int) -> tuple[int, ...]:
        """The sides a ♣ action of ``side`` could take from (JV-1, JV-9): the others with a
        jewel in the showroom."""
        key = (side, showrooms)
        found = self._steal_cache.get(key)
        if found is None:
            found = tuple(o for o in range(self._n_sides) if o != side and showrooms[o])
            if len(self._steal_cache) > 10_000:
                self._steal_cache.clear()
            self._steal_cache[key] = found
        return found

    def counts(self, won: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """Won cards per seat and suit (♠ ♥ ♦ ♣) from the won masks."""
        s, h, d, c = SUIT_MASKS
        return tuple(((m & s).bit_count(), (m & h).bit_count(), (m & d).bit_count(), (m & c).bit_count()) for m in won)

    def most_of_suits(
        self, counts: tuple[tuple[int, ...], ...], dealer: int
    ) -> tuple[tuple[int, int, tuple[int, ...], int], ...]:
        """JV-6 and JV-9 per suit in the order ♦ ♥ ♠ ♣: ``(suit index, most cards won by a side,
        the sides holding that many, the seat taking the action or -1)``. Nobody takes it on a
        tie or when nobody won any; of two partners, the one with more (first in turn order
        from the dealer's left on equal counts)."""
        sides = self._sides
        members_from = self._members_from[dealer]
        out = []
        for k in _ROUND_END_SUITS:
            per_side = [0] * self._n_sides
            for seat, row in enumerate(counts):
                per_side[sides[seat]] += row[k]
            best = max(per_side)
            top = tuple(side for side, c in enumerate(per_side) if c == best)
            actor = -1
            if best and len(top) == 1:
                actor = max(members_from[top[0]], key=lambda s: counts[s][k])
            out.append((k, best, top, actor))
        return tuple(out)

    def no_trick_seats(self, tricks_won: tuple[int, ...], dealer: int) -> tuple[int, ...]:
        """The seats that won no trick, going left from the dealer's left neighbour (JV-6)."""
        return tuple(s for s in self._turn_from[dealer] if tricks_won[s] == 0)

    def round_end_owed(
        self, counts: tuple[tuple[int, ...], ...], tricks_won: tuple[int, ...], dealer: int
    ) -> tuple[int, ...]:
        """The end-of-round suit actions owed, in order (JV-6)."""
        owed = [owe(actor, k, _MOST) for k, _, _, actor in self.most_of_suits(counts, dealer) if actor >= 0]
        for seat in self.no_trick_seats(tricks_won, dealer):
            owed += [owe(seat, _DIAMOND, _NO_TRICK)] * NO_TRICK_ACTIONS
        return tuple(owed)

    def points_of(self, jewels: Jewels) -> tuple[int, ...]:
        """Points of each side from these jewels (JV-8)."""
        return tuple(
            VAULT_POINTS * v + SHOWROOM_POINTS * s for v, s in zip(jewels.vaults, jewels.showrooms, strict=True)
        )

    def decided(self, jewels: Jewels) -> Decided:
        """Who wins with these jewels, by side: most points, then more jewels in the vault (JV-8)."""
        return decide(self.points_of(jewels), ((TieBreak.VAULT, jewels.vaults),))

    def seat_totals(self, jewels: Jewels) -> tuple[int, ...]:
        points = self.points_of(jewels)
        return tuple(points[side] for side in self._sides)

    def winning_seats(self, decided: Decided) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if self._sides[s] in decided.winners)

    # --- public rules API ------------------------------------------------------------------------

    def resolve_trick(self, cards: Iterable[CardLike] | str, **context: Any) -> TrickOutcome:
        """Rank a (possibly partial) trick: led-suit cards high to low (the first wins),
        then the off-suit cards in the order they were played. Jewel Vault has no trumps,
        so no context is taken."""
        if context:
            raise InvalidOption(
                f"{TITLE} has no trumps: resolve_trick takes only the cards, not {quote_names(context)}"
            )
        played = self._trick(cards)
        if not played:
            raise InvalidTrick("a trick needs at least one card to rank", rule_id="jv.trick")
        ids = CARD_IDS.id
        return TrickOutcome(NAME, played, ranking([ids[c] for c in played]), explain_trick)

    def legal_plays(
        self, hand: Iterable[CardLike] | str, trick: Iterable[CardLike] | str = (), **context: Any
    ) -> tuple[Card, ...]:
        """The cards of ``hand`` that may be played to ``trick``: the led suit if held, else any."""
        if context:
            raise InvalidOption(
                f"{TITLE} needs no context to find legal plays: legal_plays(hand, trick), not {quote_names(context)}"
            )
        cards, played = self._hand_and_trick(hand, trick)
        ids = CARD_IDS.id
        allowed = self.playable(CARD_IDS.mask(cards), tuple(ids[c] for c in played[:1]))
        return tuple(c for c in cards if allowed >> ids[c] & 1)

    def final_score(self, *, vault: int, showroom: int) -> Score:
        """Points at the end of the game (JV-8): 2 per vault jewel, 1 per showroom jewel."""
        for label, value in (("vault", vault), ("showroom", showroom)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidScoreInput(
                    f"{label} is a number of jewels: a whole number, 0 or more, not {describe(value)}",
                    rule_id="jv.score",
                )
        if vault + showroom > self.options.supply:
            raise InvalidScoreInput(
                f"there are only {self.options.supply} jewels in the game, but vault {describe(vault)} and "
                f"showroom {describe(showroom)} make {describe(vault + showroom)}",
                rule_id="jv.supply",
            )
        return _final_score(vault, showroom)

    def suit_action(
        self,
        suit: str,
        *,
        seat: int,
        supply: int,
        showrooms: Sequence[int],
        vaults: Sequence[int] | None = None,
        target: int | None = None,
        cause: Cause | str = Cause.TRICK,
    ) -> ActionResult:
        """What one suit action does from the given jewels: what moved, or why nothing did.

        ``showrooms`` and ``vaults`` are per side (per seat unless partnerships). A ♣ action
        needs ``target`` (a seat) when more than one showroom could be robbed.
        """
        suit = _parse_suit(suit)
        self._check_seat(seat, "seat")
        if cause not in CAUSES:
            raise InvalidOption(f"cause must be one of {', '.join(CAUSES)}, not {describe(cause)}")
        cause = Cause(cause)
        stock = _count(supply, "supply")
        rooms = self._per_side(showrooms, "showrooms")
        safe = self._per_side(vaults if vaults is not None else [0] * self._n_sides, "vaults")
        side = self._sides[seat]
        target_side: int | None = None
        if suit == "C":
            candidates = self.steal_sides(rooms, side)
            if target is not None:
                refusal = self._steal_refusal(rooms, seat, target)
                if refusal is not None:
                    raise refusal
                target_side = self._sides[target]
            elif len(candidates) > 1:
                raise illegal("jv.action.club", "more than one showroom can be robbed: say whose with target=")
            elif candidates:
                target_side = candidates[0]
        k = SUIT_INDEX[suit]
        stock, rooms, safe, blocked = move(stock, rooms, safe, side, k, target_side)
        fact = Acted(seat, k, cause, target_side, blocked, Jewels(stock, rooms, safe))
        return action_result(self, fact)

    def round_end(self, won: Sequence[Mapping[str, int]], *, dealer: int | None = None) -> RoundEnd:
        """The end-of-round actions (JV-6) from the cards each seat won, counted per suit.

        ``won[seat]`` maps suits (``"D"`` or ``"♦"``...) to counts; a seat that won no card
        won no trick. The no-trick ♦ actions go to the left from the dealer's left
        neighbour; without ``dealer`` they start at seat 0.
        """
        n = self.players
        if not isinstance(won, Sequence) or isinstance(won, (str, bytes)) or len(won) != n:
            raise InvalidScoreInput(
                f"give the won cards of each of the {n} players, one mapping of suit to count each",
                rule_id="jv.round-end.count",
            )
        counts: list[tuple[int, ...]] = []
        for seat, per_suit in enumerate(won):
            if not isinstance(per_suit, Mapping):
                raise InvalidScoreInput(
                    f"{self.seat_name(seat)}: give a mapping like {{'D': 4, 'H': 1}}, not {describe(per_suit)}",
                    rule_id="jv.round-end.count",
                )
            row = [0, 0, 0, 0]
            for key, value in per_suit.items():
                suit = _parse_suit(key)
                row[SUIT_INDEX[suit]] = _count(value, f"{self.seat_name(seat)}'s {SUIT_NAME[suit].lower()}")
            counts.append(tuple(row))
        per_suit_total = len(self._deck) // 4
        for suit in SUITS:
            total = sum(row[SUIT_INDEX[suit]] for row in counts)
            if total > per_suit_total:
                raise InvalidScoreInput(
                    f"the deck has only {per_suit_total} {SUIT_NAME[suit].lower()}, "
                    f"but the counts add up to {describe(total)}",
                    rule_id="jv.round-end.count",
                )
        if dealer is None:
            dealer = n - 1
        else:
            self._check_seat(dealer, "dealer")
        tricks = tuple(1 if sum(row) else 0 for row in counts)
        table = tuple(counts)
        owed = self.round_end_owed(table, tricks, dealer)
        return RoundEnd(tuple(due_action(d) for d in owed), round_end_reasons(self, table, tricks, dealer))

    # --- argument checks -------------------------------------------------------------------------

    def _check_seat(self, seat: object, what: str) -> None:
        n = self.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidOption(f"{what} must be a seat from 0 to {n - 1}, not {describe(seat)}")

    def _per_side(self, values: Sequence[int], what: str) -> tuple[int, ...]:
        if not isinstance(values, Sequence) or isinstance(values, (str, bytes)) or len(values) != self._n_sides:
            kind = "partnership" if self.options.partnerships else "player"
            raise InvalidScoreInput(f"{what} needs one number per {kind} ({self._n_sides}), not {describe(values)}")
        return tuple(_count(v, what) for v in values)

    # --- the core: the initial state ---------------------------------------------------------------

    def core_initial(
        self, seed: int, facts: Facts | None, first_dealer: int | None = None, **match_options: Any
    ) -> JewelVaultState:
        if match_options:
            raise InvalidOption(f"{TITLE} has no match option {quote_names(match_options)}; use first_dealer")
        dealer = self.first_dealer(seed, first_dealer)
        return self._deal(seed, 0, dealer, *self._start_jewels(), facts)

    def _start_jewels(self) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        """The jewels before the first round: the supply, each side's showroom and empty vault (JV-2)."""
        showrooms = tuple(START_SHOWROOM * len(m) for m in self._members)
        return self.options.supply - sum(showrooms), showrooms, (0,) * len(showrooms)

    def _deal(
        self,
        seed: int,
        round_index: int,
        dealer: int,
        supply: int,
        showrooms: tuple[int, ...],
        vaults: tuple[int, ...],
        facts: Facts | None,
    ) -> JewelVaultState:
        order = shuffled_ids(self, seed, round_index, self._deck_ids)  # the deal's permutation since 0.1.0
        hands, aside = deal_hands(order, self.players, self._cards_each)
        return self._deal_out(seed, round_index, dealer, supply, showrooms, vaults, hands, aside, facts)

    def core_deal(self, getrandbits: Callable[[int], int], first_dealer: int = 0) -> JewelVaultState:
        order = shuffle_ids(self._deck_ids, getrandbits, first=self.players * self._cards_each)  # the hands
        hands, aside = deal_hands(order, self.players, self._cards_each)
        return self._deal_out(0, 0, first_dealer, *self._start_jewels(), hands, aside, None)

    def _deal_out(
        self,
        seed: int,
        round_index: int,
        dealer: int,
        supply: int,
        showrooms: tuple[int, ...],
        vaults: tuple[int, ...],
        hands: tuple[int, ...],
        aside: int,
        facts: Facts | None,
    ) -> JewelVaultState:
        """Round ``round_index`` dealt as ``hands`` and ``aside``: the dealer announces next."""
        n = self.players
        zeros = (0,) * n
        state = _new(
            JewelVaultState,
            (
                seed,
                ANNOUNCE,
                dealer,
                round_index,
                dealer,
                hands,
                aside,
                None,
                (None,) * n,
                False,
                (dealer + 1) % n,
                (),
                0,
                zeros,
                zeros,
                supply,
                showrooms,
                vaults,
                (),
                IN_TRICK,
                -1,
                (),
            ),
        )
        if facts is not None:
            facts.append((Dealt(dealer, round_index, supply, Jewels(supply, showrooms, vaults)), state))
        return state

    # --- the core: what may be done, and doing it ----------------------------------------------------

    def new_deal(self, state: JewelVaultState, facts: Facts | None) -> _Deal:
        """The deal in play from ``state``, whose round is the rules of play to the match's end: the
        engine's trick round on a Jewel Vault deal (:class:`_Deal`: the announced count and the
        passes, the suit actions a card, a trick or the round's end owes, a ♣ action's choice of
        whom to rob, the next round)."""
        return _Deal(self, state, facts)

    def _steal_listed(self, sides: tuple[int, ...]) -> tuple[int, ...]:
        """The action ids of robbing each of ``sides`` (remembered)."""
        steals = self._steal_ids.get(sides)
        if steals is None:
            steals = self._steal_ids[sides] = tuple(STEAL_BASE + side for side in sides)
        return steals

    # --- refusals: why an action is not listed now ------------------------------------------------------

    def canonical_action(self, state: JewelVaultState, action: Action) -> Action:
        """The listed spelling: passed cards in the order of the hand they leave (JV-4: a set,
        not a sequence), and in partnerships a ♣ target named by the first seat of its side."""
        seat = state.to_play
        if seat is None:
            return action
        if isinstance(action, Pass) and state.phase is PASS:
            ids = CARD_IDS.id
            chosen = 0
            for card in action.cards:
                i = ids.get(card)
                if i is None:
                    return action
                chosen |= 1 << i
            in_hand_order = CARD_IDS.hand(chosen & state.hand_masks[seat])
            if len(in_hand_order) == len(action.cards) and in_hand_order != action.cards:
                return Pass(in_hand_order)
        elif isinstance(action, Steal) and self._partnerships and 0 <= action.target < self.players:
            side = self._sides[action.target]
            if side != action.target:
                return Steal(side)
        return action

    def explain_illegal(self, state: JewelVaultState, action: Action) -> IllegalAction:
        seat = state.to_play
        if seat is None:
            return illegal(
                "jv.over",
                "the game is over: no more actions can be taken",
                "The game is over: you cannot move any more.",
            )
        name = self.seat_name(seat)
        quoted = quote_action(action)
        phase = state.phase
        hand = state.hand_masks[seat]
        if phase is PLAY:
            if not isinstance(action, Play):
                return illegal(
                    "jv.trick", f"{name} must play a card now, not {quoted}", f"You must play a card now, not {quoted}."
                )
            card = action.card
            i = CARD_IDS.id.get(card)
            if i is None or not hand >> i & 1:
                return illegal("jv.hand", f"{name} does not hold {card.pretty}", f"You do not hold {card.pretty}.")
            allowed = self.playable(hand, state.trick_ids)
            led = SUITS[SUIT_OF[state.trick_ids[0]]] if state.trick_ids else card.suit
            held = CARD_IDS.card(lowest(allowed))
            return illegal(
                "jv.follow",
                f"must follow suit: {SUIT_SYMBOL[led]} was led and {name} holds {held.pretty}",
                follow_to_you(led, allowed) + ".",
            )
        if phase is STEAL:
            if not isinstance(action, Steal):
                return illegal(
                    "jv.action.club",
                    f"{name} must first choose whose showroom to take a jewel from "
                    f"({self._steal_choices(state.showrooms, seat)}), not {quoted}",
                    f"You must first choose whose showroom to take a jewel from with your ♣ action, not {quoted}.",
                )
            refusal = self._steal_refusal(state.showrooms, seat, action.target)
            return refusal or illegal(
                "jv.action.club",
                f"{quoted} is not a ♣ target now",
                f"{quoted} is not a showroom you can take from now.",
            )
        k = state.announced
        if phase is PASS:
            assert k is not None
            if not isinstance(action, Pass):
                return illegal(
                    "jv.pass",
                    f"{name} must choose {plural(k, 'card')} to pass now, not {quoted}",
                    f"You must choose {plural(k, 'card')} to pass now, not {quoted}.",
                )
            cards = action.cards
            if len(cards) != k:
                return illegal(
                    "jv.pass",
                    f"{name} must pass exactly {plural(k, 'card')} (the dealer announced {k}), not {len(cards)}",
                    f"You must pass exactly {plural(k, 'card')} (the dealer announced {k}), not {len(cards)}.",
                )
            if len(set(cards)) != len(cards):
                twice = next(c for c in cards if cards.count(c) > 1)
                return illegal(
                    "jv.pass",
                    f"{twice.pretty} is named twice: pass {k} different cards",
                    f"You named {twice.pretty} twice: pass {k} different cards.",
                )
            for card in cards:
                i = CARD_IDS.id.get(card)
                if i is None or not hand >> i & 1:
                    return illegal(
                        "jv.hand",
                        f"{name} cannot pass {card.pretty}: it is not in {name}'s hand",
                        f"You cannot pass {card.pretty}: it is not in your hand.",
                    )
            return illegal(
                "jv.pass",
                f"{quoted} is not a pass {name} can make now",
                f"{quoted} is not a pass you can make now.",
            )
        if not isinstance(action, Announce):
            return illegal(
                "jv.announce",
                f"{name} is the dealer and must first say how many cards everyone passes (1, 2 or 3), not {quoted}",
                f"You are the dealer and must first say how many cards everyone passes (1, 2 or 3), not {quoted}.",
            )
        return illegal(
            "jv.announce",
            f"the dealer names 1, 2 or 3 cards to pass, not {describe(action.n)}",
            f"As the dealer you name 1, 2 or 3 cards to pass, not {describe(action.n)}.",
        )

    def _steal_refusal(self, showrooms: tuple[int, ...], seat: int, target: object) -> IllegalAction | None:
        """Why ``seat`` may not rob ``target`` with ♣ (``None``: it may)."""
        n = self.players
        name = self.seat_name(seat)
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < n:
            return illegal(
                "jv.action.club",
                f"there is no seat {describe(target)} to take a jewel from: a ♣ target is a seat number from "
                f"0 ({self.seat_name(0)}) to {n - 1} ({self.seat_name(n - 1)})",
                f"There is no seat {describe(target)} to take a jewel from: the players are "
                f"{self.seat_name(0)} to {self.seat_name(n - 1)}.",
            )
        if target == seat:
            return illegal(
                "jv.action.club",
                f"{name} cannot take a jewel from their own showroom with ♣",
                "You cannot take a jewel from your own showroom with ♣.",
            )
        side = self._sides[target]
        if side == self._sides[seat]:
            return illegal(
                "jv.partnerships.club",
                f"{self.seat_name(target)} is {name}'s partner and shares the same showroom: "
                "take a jewel from the other side",
                f"{self.seat_name(target)} is your partner and shares your showroom: take a jewel from the other side.",
            )
        if side not in self.steal_sides(showrooms, self._sides[seat]):
            return illegal(
                "jv.action.club",
                f"{self.owner(side)} showroom is empty: there is nothing to take; choose a showroom with jewels",
                f"{self.owner(side)} showroom is empty: there is nothing to take; choose a showroom with jewels.",
            )
        return None

    # --- words for the learner (see .narrate) -----------------------------------------------------------

    def explain_choice(self, view: SeatView, seat: int | None = None) -> Reason:
        """The rule that frames the decision ``seat`` makes now, spoken to that seat (by default
        the view's own seat, else the seat to play): the number of cards to announce, the pass,
        which cards may be played and why (from :meth:`playable`), or whose showroom a ♣ action
        may take from (from :meth:`steal_sides`)."""
        self.check_view(view)
        self.check_view_seat(seat)
        return explain_choice(self, view, seat)

    def describe_action(self, action: Action, view: SeatView | None = None) -> str:
        """``action`` in words: ``"Play 7♥"``, ``"Everyone passes 2 cards"``, ``"Pass 7♥ and Q♠ to
        Player 3"`` (with the view, which says whose cards they are), ``"Take a jewel from Player 4's
        showroom (3 jewels there)"`` (``Steal(3)``: targets count seats from 0)."""
        self.check_described(action, view)
        return describe_action(self, action, view)

    def action_legend(self) -> tuple[tuple[str, str], ...]:
        """What each suit's action does (JV-1), as the table's legend shows it: ``("♦", "a jewel
        from the supply to their vault")`` for each suit, ♦ ♥ ♠ ♣."""
        return action_legend()

    def describe_due(self, due: DueAction) -> str:
        """An owed suit action in words, for the panel of actions still to come: ``"Player 2: ♣
        action, a jewel from another player's showroom to their own, for not following suit"``."""
        return describe_due(self, due)

    def _steal_choices(self, showrooms: tuple[int, ...], seat: int) -> str:
        """The ♣ targets open to ``seat`` as a learner reads them: ``"Player 2's showroom: 'steal 1'; ..."``.

        A target is a seat number counted from 0 in the action's text (``steal 1`` is Player 2's
        showroom); the sentence names each showroom's owner the way the learner sees seats.
        """
        sides = self.steal_sides(showrooms, self._sides[seat])
        return "; ".join(f"{self.owner(side)} showroom: {quote_action(Steal(side))}" for side in sides)

    # --- narration, results, views ----------------------------------------------------------------------

    def narrate(self, fact: Fact, state: JewelVaultState) -> Event:
        return narrate(self, fact)

    def side_points(self, state: JewelVaultState) -> tuple[int, ...]:
        """Points of each side from the jewels as they are now (JV-8)."""
        return self.points_of(state.jewels)

    def result(self, state: JewelVaultState) -> MatchResult | None:
        self.check_state(state)
        if state.phase is not OVER:
            return None
        jewels = state.jewels
        decided = self.decided(jewels)
        return MatchResult(
            self.seat_totals(jewels),
            self.winning_seats(decided),
            decided.tie_break,
            result_reasons(self, jewels, decided),
        )

    def with_hands(self, state: JewelVaultState, hands: tuple[int, ...]) -> JewelVaultState:
        """``state`` with other hands: ``hands[s]`` is seat ``s``'s hand as a mask of card ids
        (one per seat, no card twice, none of them in the trick, won or passed). The cards of
        the deck in none of them, nor in the trick, won or in flight, become the cards set aside.
        Unchecked (the advisor's sampled deals): everything else is kept as it is."""
        used = 0
        in_flight = () if state.exchanged else tuple(m for m in state.pass_masks if m is not None)
        for m in (*hands, *state.won_masks, *in_flight):
            used |= m
        used |= mask_of(state.trick_ids)
        return _with(state, hand_masks=tuple(hands), aside_mask=mask_of(self._deck_ids) & ~used)

    def core_view(self, state: JewelVaultState, seat: int) -> JewelVaultCoreView:
        """What ``seat`` may see, as ints (unchecked ``seat``): the bots' fast view."""
        return _new(  # positionally, in the order of the fields: cheaper
            JewelVaultCoreView,
            (
                seat,
                state.phase,
                state.to_play,
                state.hand_masks[seat],
                state.trick_ids,
                state.leader,
                state.announced,
                state.tricks_won,
                state.supply,
                state.showrooms,
                state.vaults[self._sides[seat]],
                self._sides,
            ),
        )

    def view(self, state: JewelVaultState, seat: int | None) -> JewelVaultView:
        self.check_state(state)
        self.check_view_seat(seat)
        over = state.phase is OVER
        hand_of = CARD_IDS.hand
        masks = state.hand_masks
        chosen = state.pass_masks
        if seat is None:
            vaults: tuple[int | None, ...] = state.vaults
            received = None
            hand_mask = 0
        else:
            own = self._sides[seat]
            vaults = state.vaults if over else tuple(v if side == own else None for side, v in enumerate(state.vaults))
            given = chosen[self._givers[seat]] if state.exchanged else None
            received = None if given is None else hand_of(given)
            hand_mask = masks[seat]
        trick = state.trick_ids
        won = state.won_masks
        counts = self._counts_cache.get(won)
        if counts is None:
            if len(self._counts_cache) > 10_000:
                self._counts_cache.clear()
            counts = self._counts_cache[won] = self.counts(won)
        return JewelVaultView(  # positionally, in the order of the fields: cheaper
            seat,
            state.phase,
            state.to_play,
            state.round,
            self._rounds,
            state.dealer,
            self._partnerships,
            self._sides,
            state.announced,
            tuple(None if m is None else hand_of(m) for m in hidden_hands(masks, seat)),
            tuple(map(int.bit_count, masks)),
            tuple(m is not None for m in chosen),
            tuple(None if m is None else hand_of(m) for m in secrets_seen_by(chosen, seat, False)),
            received,
            state.leader,
            CARD_IDS.of(trick),
            self._seats_from[state.leader][: len(trick)],
            state.tricks_played,
            state.tricks_won,
            counts,
            state.supply,
            state.showrooms,
            vaults,
            state.pending if state.owed else (),
            state.last_trick,
            self.seat_totals(state.jewels) if over else None,
            hand_mask,
            trick,
        )


# --- helpers ------------------------------------------------------------------------------------


def _final_score(vault: int, showroom: int) -> Score:
    vault_points = VAULT_POINTS * vault
    lines = (
        ScoreLine("vault", "vault jewels, 2 points each", vault_points, "", f"{plural(vault, 'jewel')} in the vault"),
        ScoreLine(
            "showroom",
            "showroom jewels, 1 point each",
            SHOWROOM_POINTS * showroom,
            "",
            f"{plural(showroom, 'jewel')} on show",
        ),
    )
    total = vault_points + SHOWROOM_POINTS * showroom
    reasons = (
        Reason(
            "jv.score",
            f"Vault: {plural(vault, 'jewel')} at 2 points each = {plural(vault_points, 'point')}; "
            f"showroom: {plural(showroom, 'jewel')} at 1 point each = {plural(showroom, 'point')}; "
            f"{plural(total, 'point')} in all.",
        ),
    )
    return Score(total, lines, reasons)


def _count(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidScoreInput(f"{what} must be a whole number, 0 or more, not {describe(value)}")
    return value


def _parse_suit(suit: object) -> str:
    if isinstance(suit, str):
        text = suit.strip()
        for s in SUITS:
            if text.upper() == s or text == SUIT_SYMBOL[s] or text.lower() == SUIT_NAME[s].lower():
                return s
    raise InvalidOption(f"a suit is one of S, H, D, C (or ♠ ♥ ♦ ♣), not {describe(suit)}")


# --- the round: Jewel Vault on the engine's trick round ---------------------------------------------

_read = CARD_IDS.reader()  # a mask's card ids


class _Deal(TrickDeal[JewelVaultState]):
    """Jewel Vault's own rules on the engine's trick round (:func:`~..core.trick_round`): the
    dealer's announced count and the secret passes, exchanged together (JV-3, JV-9); follow
    suit, the highest card of the led suit taking the trick (JV-4, JV-5); the suit actions owed
    (JV-1, JV-6), by a player who cannot follow (before the next card), by a trick's winner and
    at the round's end, each ♣ action's target chosen when there is a choice (a decision of its
    own); then the next round or the match's end. The state lives here between decisions; it is
    packed into a :class:`JewelVaultState` when the driver sends ``PACK`` and for each fact."""

    ids = CARD_IDS
    values = None

    def __init__(self, rules: JewelVault, state: JewelVaultState, facts: Facts | None) -> None:
        n = rules.players
        self.rules, self.facts = rules, facts
        self.next_seat = tuple((s + 1) % n for s in range(n))
        self.trick_size, self.seats_from, self.sides = rules._trick_size, rules._seats_from, rules._sides
        self.load(state)

    def load(self, state: JewelVaultState) -> None:
        """Play on from ``state`` (at a decision, or just dealt)."""
        (self.seed, self.phase, seat, self.rnd, self.dealer, held, self.aside, self.announced, passes,
         self.exchanged, self.leader, played, self.number, won, taken, self.supply, self.rooms, self.vaults,
         self.owed, self.stage, self.last_leader, self.last_ids) = state  # fmt: skip
        assert seat is not None, "a round starts at a decision"
        self.seat = seat
        self.held, self.passes, self.played, self.won, self.taken = (
            list(held),
            list(passes),
            list(played),
            list(won),
            list(taken),
        )
        self.best_at = winning_index(played) if played else 0

    def pack(self, to_play: int | None) -> JewelVaultState:
        if self.owed and self.phase is PLAY:  # actions owed: no one plays until they are taken
            to_play = None
        return _new(
            JewelVaultState,
            (
                self.seed, self.phase, to_play, self.rnd, self.dealer, tuple(self.held), self.aside, self.announced,
                tuple(self.passes), self.exchanged, self.leader, tuple(self.played), self.number, tuple(self.won),
                tuple(self.taken), self.supply, self.rooms, self.vaults, self.owed, self.stage, self.last_leader,
                self.last_ids,
            ),
        )  # fmt: skip

    # --- before the tricks: the announced count and the passes (JV-3, JV-9) ---------------------

    def before_tricks(self) -> Decisions[JewelVaultState] | None:
        phase = self.phase
        if phase is ANNOUNCE:
            return self._announce_and_pass()
        if phase is PASS:
            return self._passes()
        if phase is STEAL:  # a round started at a ♣ action's choice
            return self._resume()
        return None

    def _announce_and_pass(self) -> Decisions[JewelVaultState]:
        seat = self.seat
        a = yield seat, _ANNOUNCE_IDS
        while a < 0:  # PACK
            a = yield self.pack(seat)
        self.announced = k = a - ANNOUNCE_BASE + 1
        self.phase, self.seat = PASS, self.next_seat[self.dealer]
        if self.facts is not None:
            self.facts.append((Announced(seat, k), self.pack(self.seat)))
        return (yield from self._passes())

    def _passes(self) -> Decisions[JewelVaultState]:
        """Each seat's secret pass from the dealer's left; the cards leave the hand at once and
        reach the receivers together (JV-9)."""
        held, passes, note, masks = self.held, self.passes, self.facts, self.rules._pass_masks
        announced = self.announced
        assert announced is not None
        first = self.next_seat[self.dealer]
        while True:
            seat = self.seat
            a = yield seat, PassIds(held[seat], announced)
            while a < 0:  # PACK
                a = yield self.pack(seat)
            chosen = masks[a - PASS_BASE]
            held[seat] &= ~chosen
            passes[seat] = chosen
            nxt = self.next_seat[seat]
            if nxt != first:
                self.seat = nxt
                if note is not None:
                    note.append((Passed(seat, announced, chosen), self.pack(nxt)))
                continue
            if note is not None:
                note.append((Passed(seat, announced, chosen), self.pack(None)))
            for giver, to in enumerate(self.rules._receivers):
                given = passes[giver]
                assert given is not None
                held[to] |= given
            self.exchanged, self.phase = True, PLAY
            self.leader = self.seat = first
            if note is not None:
                note.append((Exchanged(None, self.rules._receivers, first), self.pack(first)))
            return None

    # --- the trick (JV-4, JV-5) -------------------------------------------------------------------

    def allowed(self, hand: int) -> Sequence[int]:
        return _read(JewelVault.playable(hand, self.played))

    def placed(self, card: int) -> int:
        played = self.played
        k = len(played) - 1
        self.stage = IN_TRICK
        if not k:
            self.best_at = 0
        elif SUIT_OF[card] != SUIT_OF[played[0]]:  # cannot follow: the card's suit action, at once (JV-4)
            self.owed = (owe(self.seats_from[self.leader][k], SUIT_OF[card], _VOID),)
            self.after_card = self._settle()
        elif RANK_OF[card] > RANK_OF[played[self.best_at]]:
            self.best_at = k
        return self.seats_from[self.leader][self.best_at]

    def winning(self) -> int:
        self.best_at = winning_index(self.played)
        return self.seats_from[self.leader][self.best_at]

    def card_fact(self, player: int, card: int, trick: tuple[int, ...]) -> Fact:
        return Played(player, card, trick, len(trick) > 1 and SUIT_OF[card] != SUIT_OF[trick[0]])

    def trick_taken(self, winner: int, cards: int, trick: tuple[int, ...]) -> JewelVaultState | None:
        """The winner's suit action for the led suit is owed (JV-5)."""
        self.won[winner] += 1
        self.number += 1
        self.owed = (owe(winner, SUIT_OF[trick[0]], _TRICK),)
        self.stage, self.last_leader, self.last_ids = AFTER_TRICK, self.leader, trick
        if self.facts is not None:
            more = self.number < self.rules._tricks_per_round
            self.facts.append((TrickWon(winner, self.number, self.leader, trick, more), self.pack(None)))
        self.after_trick = self._after_trick(winner)
        return None

    def _after_trick(self, winner: int) -> Decisions[JewelVaultState]:
        yield from self._settle()
        if self.number < self.rules._tricks_per_round:  # the winner leads the next trick
            self.seat = self.leader = winner
            return None
        return (yield from self._round_end())

    def _round_end(self) -> Decisions[JewelVaultState]:
        """The end-of-round actions (JV-6), then the next round or the match's end."""
        rules = self.rules
        counts = rules.counts(tuple(self.taken))
        won = tuple(self.won)
        self.owed = rules.round_end_owed(counts, won, self.dealer)
        self.stage = ROUND_END
        if self.facts is not None:
            self.facts.append((RoundEnded(None, self.rnd, self.dealer, counts, won, self.owed), self.pack(None)))
        yield from self._settle()
        return self._next_round()

    def _next_round(self) -> JewelVaultState | None:
        rules = self.rules
        if self.rnd + 1 < rules._rounds:
            dealer = self.next_seat[self.dealer]
            self.load(rules._deal(self.seed, self.rnd + 1, dealer, self.supply, self.rooms, self.vaults, self.facts))
            return None
        self.phase, self.owed = OVER, ()
        over = self.pack(None)
        if self.facts is not None:
            self.facts.append((Ended(None, Jewels(self.supply, self.rooms, self.vaults)), over))
        return over

    def _resume(self) -> Decisions[JewelVaultState]:
        """A round started at a ♣ action's choice: the actions owed, then play goes on where it stood."""
        stage = self.stage
        yield from self._settle()
        if stage is IN_TRICK:  # the trick goes on (or, complete, is taken)
            self.seat = self.seats_from[self.leader][len(self.played) % self.trick_size]
            return None
        if stage is AFTER_TRICK:
            if self.number < self.rules._tricks_per_round:
                self.seat = self.leader = self.seats_from[self.last_leader][winning_index(self.last_ids)]
                return None
            over = yield from self._round_end()
        else:
            over = self._next_round()
        if over is None and self.phase is ANNOUNCE:  # the next round dealt
            yield from self._announce_and_pass()
        return over

    # --- the suit actions owed (JV-1) ------------------------------------------------------------

    def _settle(self) -> Decisions[JewelVaultState]:
        """Take the actions owed, in order: a ♣ action with more than one side to rob waits for
        its player's choice."""
        rules, sides, note = self.rules, self.sides, self.facts
        while self.owed:
            owed = self.owed
            due = owed[0]
            seat, suit = due >> 4, due >> 2 & 3
            side = sides[seat]
            target: int | None = None
            if suit == _CLUB:
                candidates = rules.steal_sides(self.rooms, side)
                if len(candidates) > 1:
                    self.phase = STEAL
                    a = yield seat, rules._steal_listed(candidates)
                    while a < 0:  # PACK
                        a = yield self.pack(seat)
                    self.phase = PLAY
                    target = a - STEAL_BASE
                else:
                    target = candidates[0] if candidates else None
            self.supply, self.rooms, self.vaults, blocked = move(
                self.supply, self.rooms, self.vaults, side, suit, target
            )
            self.owed = owed[1:]
            if note is not None:
                cause = due & 3
                card = self.played[-1] if cause == _VOID and self.played else None
                count = None
                if cause == _MOST:
                    count = sum((self.taken[s] & SUIT_MASKS[suit]).bit_count() for s in rules._members[side])
                jewels = Jewels(self.supply, self.rooms, self.vaults)
                note.append((Acted(seat, suit, CAUSES[cause], target, blocked, jewels, card, count), self.pack(None)))
        return None
