"""Try bids: what each bid (or pass) would likely bring for one seat's hand, by simulation.

:func:`advise` takes a seat's view at the game's pre-round decision -- the prediction phase
of Tricks & Stones, the bid phase of Band of Tricks, the pass of Jewel Vault -- and answers,
for the candidate choices, how many tricks the seat would win (a distribution), how often it
would hit the bid exactly, and the expected score with its standard error::

    >>> import tricklab
    >>> from tricklab.advisor import advise
    >>> rules = tricklab.get_rules("tricks-and-stones", players=4)
    >>> match = rules.new_match(seed=7, first_dealer=0)
    >>> advice = advise(rules, match.view(1), samples=200, seed=1)
    >>> [e.text for e in advice.estimates]
    ['predict 0', 'predict 1', 'predict 2', 'predict 3', 'predict 4', 'predict 5']
    >>> advice.best.bid in [e.bid for e in advice.estimates]
    True

**A promise that is kept.** Every figure the advisor recommends is the figure of that choice
*played for*: the seat's bot aimed for it in every play-out it was scored on
(``BidEstimate.played_for``). So trying the recommended bid (``bid=``) with the same seed
gives the very same figure, and on other deals a figure within its standard errors.

How the numbers are made
------------------------
1. **Sampling.** The cards the seat cannot see are dealt at random, uniformly among the
   deals that fit what the seat knows (:class:`Knowledge`): its own hand, the cards it has
   seen played, how many cards each hand holds, the cards set aside unseen (Tricks &
   Stones with 3 players: 8; Band of Tricks with 3 players: 1), cards known to be in
   another hand (hand-made positions), and suits a player is known not to hold. Bids and
   predictions already made are not used to guess at hands (a heuristic bot's bid is too
   sharp a function of its hand to condition on); public Band of Tricks bids are kept
   as they are in every play-out. All the choices of one advice are played on the same
   deals (common random numbers), so their differences are measured on equal terms.
2. **Play-out.** Every sampled deal is played to the end of the round by the games'
   heuristic bots (:mod:`tricklab.bots`), the seat's own bot aiming for the choice under
   test; players who have not decided yet decide as their bot would on their sampled hand.
   The play-outs run on the rules' core, the one implementation of every rule that matches
   run on too (``core_legal``/``core_step``), with the bots' own decisions (``choose_id``);
   nothing of the rules is written here. ``tests/test_advisor.py`` checks the numbers are
   exactly what the checked engine (``Rules.apply``) and the heuristic bots give on the
   same deals.
3. **Scoring** is each game's own (TS-8, BT-7; Jewel Vault: the points the round brings the
   seat's side, JV-8); the tests check the figures against the engine's own scores.
4. **Reasons.** Each choice played for says why, in words a beginner can use
   (``BidEstimate.reasons``): which of the seat's cards carry its tricks (``advice.cards``:
   each card's share of the deals in which it won a trick), then what the choice risks,
   citing the scoring rule (a prediction off by a trick, a suit's overrun or shortfall, a
   trick under Zero Success, the passed cards winning tricks for their receiver).

**Tricks & Stones** (:mod:`tricklab.games.tricks_and_stones.advice`). The six predictions 0-5
race on the same deals (``TS_RACE``): all of them on the first 20 % of the deals, then the 3 best
and the prediction under test on every deal. On each deal they share the play of the cards for as
long as the seat's bot plays the same card under each and the same player leads, and fork where
they part. The score depends on the seat's gems,
so the seat's bot takes its gem actions after every trick exactly as in a real round
(aiming its gems at the number of tricks it expects, see the bot), from the core's table of
the gem actions its place allows. The other players' gem actions are skipped: they only
ever move those players' own gems, which neither score for this seat nor change how anyone
plays a card. Other players predict as their bot would on their sampled hand; the lowest
prediction leads (TS-3), so the seat's prediction can change who leads.

**Band of Tricks** (:mod:`tricklab.games.band_of_tricks.advice`) has 343 bids (7 x 7 x 7
per-suit bids, 0 0 0 being Zero Success, BT-3): too many to play for each. So:

* *Shortlist.* The first ``SHORTLIST_DEALS`` sampled deals are played out once with the
  seat's bot aiming for its own bid (``Advice.played``), and every bid is scored roughly on
  the tricks the seat won in that play. A trick won with a Metal card counts for Rock, Soul or Pops as its winner
  chooses *when the trick is won* (BT-6), so for every bid scored the seat's Metal wins are
  counted in trick order, each at the moment it was won, the way the seat's bot counts
  them under that bid (``metal_suit``): never a choice made with hindsight. Under Zero
  Success a Metal win counts for no suit, just as a trick won.
* *Played for.* The ``SHORTLIST`` bids with the best rough scores and the bid under test
  are then each played out with the seat's bot aiming for that bid, raced on the same deals
  (``BT_RACE``: all of them on the first 15 %, the 2 best and the bid under test on every
  deal).
  They share the play for as long as the seat's bot decides the same under each (the bot
  says what of a bid its card depends on: ``play_aim``), and fork where it parts ways (the
  other players' bots read their own bid and hand, not the seat's bid). Their figures are
  their own; the other bids keep their rough figures, marked ``played_for=False``, and are
  never recommended (a bid far from the one played is usually worse in the rough than played
  for: try it with ``bid=``).

**Jewel Vault** (:mod:`tricklab.games.jewel_vault.advice`): which cards to pass, once the dealer
named how many (JV-4). Every way to pass is tried when there are at most ``ALL_PASSES`` (passing 1
card); otherwise the ``ALL_PASSES`` passes nearest the bot's own (``HeuristicBot.pass_order``), and the pass
under test. Each is played from the start of the passes: players passing before the seat
choose again on their sampled hand, as their choices are secret. The passes race on the
same deals (``RACE``): after 5 % of the deals only the 3 best go on, after 15 % the best
alone, while the pass under test plays every deal; each figure is from the deals its pass
was played on, and only a pass played on every deal is recommended.

Progress and cancellation: ``progress(done, total)`` is called with ``done = 0`` before the
first play-out, every fiftieth of the way and with ``done = total`` at the end (``total``
counts the work: deals, or deals times the choices played on them); if it returns ``False``
(exactly ``False``, not any falsy value), :func:`advise` stops and raises
:class:`AdviceCancelled`. Results depend only on the view, the choice under test,
``samples`` and ``seed``: the same call gives identical numbers.
"""

from __future__ import annotations

import contextlib
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from .actions import Action, Play, parse_action
from .cards import Card
from .errors import InvalidAction, InvalidOption, TricklabError, describe
from .explain import Reason
from .games import find_game, games_with
from .games.base import GameState, Rules, SeatView, check_rules, check_seed
from .games.core import CardIds, CoreRules, lowest, mask_of
from .match import Match
from .platform import Steps, finish
from .playouts import CARRIES, AdviceCancelled, Ticker

__all__ = [
    "CARRIES",
    "Advice",
    "AdviceCancelled",
    "AdviceUnavailable",
    "AdvisorEntry",
    "BidEstimate",
    "DealHooks",
    "DealSampler",
    "InconsistentKnowledge",
    "Knowledge",
    "SampledDeal",
    "advise",
    "deal_hooks",
]


class BiddingView(SeatView, Protocol):
    """What the advisor reads of a seat's view at a bidding decision, whatever the game: a seat's
    view with every hand's size (a game's own advice reads the rest of its own view,
    ``AdvisorEntry.view_type``)."""

    @property
    def hand_sizes(self) -> tuple[int, ...]: ...


"""A seat's view at bidding time (what :func:`advise` takes): the prediction, the bid, or the
pass of Jewel Vault."""

MAX_SAMPLES = 1_000_000


# --- errors -------------------------------------------------------------------------------------


class AdviceUnavailable(TricklabError):
    """The advisor cannot work on this: a view outside bidding time, the teacher's view, or a
    game without bids. The message says which and why."""


class InconsistentKnowledge(TricklabError):
    """What a seat is said to know contradicts itself or the deck (a card in two places,
    sizes that do not add up, a known card in a suit its holder is void in, no deal fits)."""


# --- what a seat knows ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows about where the cards are, now.

    ``hands[s]`` are the cards known to be in seat ``s``'s hand (the seat's own hand in
    full; others usually empty, or some cards in a hand-made position), ``hand_sizes[s]``
    how many cards each hand holds, ``aside`` how many cards lie aside unseen, ``played``
    the cards already played this round (seen by everyone, in no hand), and ``voids[s]``
    the suit letters seat ``s`` is known not to hold (empty tuple: none known).
    """

    seat: int
    hands: tuple[tuple[Card, ...], ...]
    hand_sizes: tuple[int, ...]
    aside: int = 0
    played: tuple[Card, ...] = ()
    voids: tuple[frozenset[str], ...] = ()

    def __post_init__(self) -> None:
        """Check the kinds of the fields (lists are taken as tuples, sets of suits as frozensets);
        whether they fit a game is :class:`DealSampler`'s check."""
        for name in ("seat", "aside"):
            _whole(name, getattr(self, name))
        hands = _items("hands", self.hands, lambda hand: tuple(_items("a hand of hands", hand, _card)))
        sizes = _items("hand_sizes", self.hand_sizes, lambda size: _whole("a hand size", size))
        played = _items("played", self.played, _card)
        voids = _items("voids", self.voids, _suits)
        for name, value in (("hands", hands), ("hand_sizes", sizes), ("played", played), ("voids", voids)):
            object.__setattr__(self, name, tuple(value))

    @classmethod
    def from_view(cls, rules: Rules[Any], view: BiddingView) -> Knowledge:
        """A seat's knowledge at bidding time: its own hand, nothing else yet (Jewel Vault: at
        the start of the passes, whatever others have chosen since, as their choices are secret)."""
        seat, checked = _check_view(rules, view)
        entry = _check_game(rules)
        if entry.knowledge is not None:
            return entry.knowledge(rules, checked, seat)
        hand = tuple(rules.card(c) for c in checked.hand)
        sizes = tuple(checked.hand_sizes)
        others = tuple(hand if s == seat else () for s in range(rules.players))
        return cls(seat, others, sizes, aside=len(rules.deck()) - sum(sizes))

    @classmethod
    def from_match(cls, match: Match, seat: int, at: int | None = None) -> Knowledge:
        """What ``seat`` knows in ``match`` after the first ``at`` decisions (default: all of
        them, now), play included: its own hand then, every card played in that round so far,
        the voids the play revealed, and the cards it passed to a known receiver (Jewel Vault)
        that have not been played since.

        Only public facts are read from the match's history (who played which card to
        which trick). A player who does not follow the suit to follow has none of it
        (Tricks & Stones ``ts.follow``; Band of Tricks ``bt.follow``, where playing Metal
        reveals nothing; Jewel Vault ``jv.follow``); a Tricks & Stones player who leads a
        trump before trumps are broken holds nothing but trumps (``ts.trump.lead``).
        Between the first and the last secret pass of a Jewel Vault round the cards already
        chosen are in no hand: they count as unseen, aside (ask before or after the passes).
        """
        if not isinstance(getattr(match, "rules", None), Rules) or not all(
            isinstance(getattr(match, name, None), Sequence) for name in ("states", "actions")
        ):  # a Match, or a record of one's rules, states and actions
            raise InvalidOption(f"from_match reads a Match (rules.new_match(...)), not {describe(match)}")
        rules = match.rules
        hooks = deal_hooks(rules)
        n = rules.players
        rules.check_seat(seat)
        decisions = len(match.actions)
        if at is None:
            at = decisions
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= decisions:
            raise InvalidOption(f"at must be a number of decisions from 0 to {decisions}, not {describe(at)}")
        states = match.states
        state = states[at]
        now = hooks.round_of(state)
        played: list[Card] = []
        voids: list[set[str]] = [set() for _ in range(n)]
        for before, action in zip(states[:at], match.actions[:at], strict=True):
            if not isinstance(action, Play):
                continue
            if hooks.round_of(before) != now:
                continue
            player = before.to_play
            assert player is not None, "a card is played by the seat to play"
            card = rules.card(action.card)
            played.append(card)
            voids[player] |= _revealed_voids(rules, hooks, before, card)
        ids = hooks.ids
        played[:0] = ids.hand(hooks.shown(state))  # face up for everyone, in no hand (a card turned up for trump)
        masks = hooks.hands(state)
        sizes = tuple(m.bit_count() for m in masks)
        known: list[tuple[Card, ...]] = [ids.hand(masks[seat]) if s == seat else () for s in range(n)]
        given = hooks.given(rules, state, seat)
        if given is not None:
            receiver, cards = given
            out = ids.mask(played)
            known[receiver] = ids.hand(cards & ~out)
        aside = len(rules.deck()) - sum(sizes) - len(played)
        return cls(seat, tuple(known), sizes, aside, tuple(played), tuple(frozenset(v) for v in voids))


@dataclass(frozen=True, slots=True)
class SampledDeal:
    """One deal of the unseen cards: every hand (sorted as the engine sorts) and the aside."""

    hands: tuple[tuple[Card, ...], ...]
    aside: tuple[Card, ...]


class DealSampler:
    """Deals the cards a seat cannot see, uniformly among the deals that fit its knowledge.

    Without voids this is a shuffle. With voids, the number of fitting deals is counted
    per suit (how many cards of each suit each hidden holder gets, weighted by the ways
    to choose those cards), a suit split is drawn with its exact weight, then the cards
    of each suit are shuffled and handed out: every fitting deal is equally likely.
    """

    def __init__(self, rules: Rules[Any], knowledge: Knowledge) -> None:
        hooks = deal_hooks(rules)
        if not isinstance(knowledge, Knowledge):
            raise InvalidOption(f"knowledge must be a Knowledge (Knowledge.from_view(...)), not {describe(knowledge)}")
        self.rules = rules
        self.knowledge = knowledge
        self._order = _engine_order(rules)
        self._id = {card: i for i, card in enumerate(self._order)}
        self._core_ids = tuple(hooks.ids.id[c] for c in self._order)
        self._check()
        k = knowledge
        n = rules.players
        known = [sorted(self._id[c] for c in k.hands[s]) for s in range(n)]
        self._known = known
        seen = {self._id[c] for h in k.hands for c in h} | {self._id[c] for c in k.played}
        self._pool = [i for i in range(len(self._order)) if i not in seen]
        # hidden holders: other seats with unknown cards, then the cards aside
        holders: list[tuple[int | None, int, frozenset[str]]] = []
        for s in range(n):
            slots = k.hand_sizes[s] - len(k.hands[s])
            if slots:
                holders.append((s, slots, _voids_of(k, s)))
        if k.aside:
            holders.append((None, k.aside, frozenset()))
        self._holders = holders
        self._suits = list(dict.fromkeys(c.suit for c in self._order))
        self._constrained = any(v & {self._order[i].suit for i in self._pool} for _, _, v in holders)
        if self._constrained:
            self._by_suit = [[i for i in self._pool if self._order[i].suit == s] for s in self._suits]
            self._allowed = [tuple(j for j, s in enumerate(self._suits) if s not in v) for _, _, v in holders]
            self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
            self._splits: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, tuple[int, ...]], ...]] = {}
        if self.count() == 0:
            raise InconsistentKnowledge(
                "no deal fits this knowledge: the voids leave nowhere for some unseen cards "
                f"({' '.join(str(self._order[i]) for i in self._pool)})"
            )

    def _check(self) -> None:
        k = self.knowledge
        rules = self.rules
        n = rules.players
        if isinstance(k.seat, bool) or not isinstance(k.seat, int) or not 0 <= k.seat < n:
            raise InconsistentKnowledge(f"seat must be 0 to {n - 1}, not {describe(k.seat)}")
        if len(k.hands) != n or len(k.hand_sizes) != n:
            raise InconsistentKnowledge(
                f"give known cards and a hand size for each of the {n} seats, "
                f"not {len(k.hands)} hands and {len(k.hand_sizes)} sizes"
            )
        if k.voids and len(k.voids) != n:
            raise InconsistentKnowledge(f"give voids for each of the {n} seats (or none at all), not {len(k.voids)}")
        for size in (*k.hand_sizes, k.aside):
            if isinstance(size, bool) or not isinstance(size, int) or size < 0:
                raise InconsistentKnowledge(
                    f"hand sizes and the aside count are whole numbers, 0 or more, not {describe(size)}"
                )
        where: dict[Card, str] = {}
        places = [(f"seat {s}'s hand", k.hands[s]) for s in range(n)] + [("the played cards", k.played)]
        for place, cards in places:
            for card in cards:
                if card not in self._id:
                    raise InconsistentKnowledge(f"{card} is not a card of {rules.title}")
                if card in where:
                    raise InconsistentKnowledge(f"{card} cannot be both in {where[card]} and in {place}")
                where[card] = place
        for s in range(n):
            if len(k.hands[s]) > k.hand_sizes[s]:
                raise InconsistentKnowledge(
                    f"seat {s} holds {k.hand_sizes[s]} cards, but {len(k.hands[s])} are said to be known in its hand"
                )
            bad = [c for c in k.hands[s] if c.suit in _voids_of(k, s)]
            if bad:
                raise InconsistentKnowledge(f"seat {s} is said to hold {bad[0]} and to have no {bad[0].suit_name}")
        if len(k.hands[k.seat]) != k.hand_sizes[k.seat]:
            raise InconsistentKnowledge(
                f"seat {k.seat} knows its own hand: {k.hand_sizes[k.seat]} cards, not {len(k.hands[k.seat])}"
            )
        total = sum(k.hand_sizes) + k.aside + len(k.played)
        if total != len(self._order):
            raise InconsistentKnowledge(
                f"the hands ({sum(k.hand_sizes)} cards), the aside ({k.aside}) and the played cards "
                f"({len(k.played)}) make {total}, but {rules.title} has {len(self._order)} cards"
            )

    @property
    def unseen(self) -> tuple[Card, ...]:
        """The cards whose place the seat does not know."""
        return tuple(self._order[i] for i in self._pool)

    def count(self) -> int:
        """How many deals fit the knowledge (each equally likely to be drawn)."""
        if not self._constrained:
            ways = math.factorial(len(self._pool))
            for _, slots, _ in self._holders:
                ways //= math.factorial(slots)
            return ways
        return self._ways(0, tuple(len(cards) for cards in self._by_suit))

    def sample(self, rng: random.Random) -> SampledDeal:
        """One fitting deal, drawn with ``rng``."""
        hands, aside = self._sample_ids(_check_rng(rng))
        order = self._order
        return SampledDeal(tuple(tuple(order[i] for i in h) for h in hands), tuple(order[i] for i in aside))

    def sample_masks(self, rng: random.Random) -> tuple[tuple[int, ...], int]:
        """One fitting deal, drawn with ``rng``, as the core holds it: a mask of card ids per
        hand, and the mask of the cards aside."""
        hands, aside = self._sample_ids(_check_rng(rng))
        core = self._core_ids
        return tuple(mask_of(core[i] for i in h) for h in hands), mask_of(core[i] for i in aside)

    def _sample_ids(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """Every hand as sorted card ids (engine order) and the aside's ids."""
        hands = [list(h) for h in self._known]
        aside: list[int] = []
        if not self._constrained:
            pool = self._pool[:]
            rng.shuffle(pool)
            at = 0
            for seat, slots, _ in self._holders:
                part = pool[at : at + slots]
                at += slots
                if seat is None:
                    aside = sorted(part)
                else:
                    hands[seat] += part
                    hands[seat].sort()
            return hands, aside
        rem = tuple(len(cards) for cards in self._by_suit)
        splits: list[tuple[int, ...]] = []
        for i in range(len(self._holders)):
            if i == len(self._holders) - 1:
                splits.append(rem)
                break
            options = self._split_options(i, rem)
            r = rng.randrange(self._ways(i, rem))
            split = next(split for cumulative, split in options if r < cumulative)
            splits.append(split)
            rem = tuple(a - b for a, b in zip(rem, split, strict=True))
        parts: list[list[int]] = [[] for _ in self._holders]
        for j, cards in enumerate(self._by_suit):
            shuffled = cards[:]
            rng.shuffle(shuffled)
            at = 0
            for h, split in enumerate(splits):
                parts[h] += shuffled[at : at + split[j]]
                at += split[j]
        for (seat, _, _), part in zip(self._holders, parts, strict=True):
            if seat is None:
                aside = sorted(part)
            else:
                hands[seat] += part
                hands[seat].sort()
        return hands, aside

    def _compositions(self, i: int, rem: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Every way holder ``i`` can take its cards from ``rem`` (counts per suit)."""
        slots = self._holders[i][1]
        allowed = self._allowed[i]
        split = [0] * len(rem)

        def fill(a: int, left: int) -> Iterator[tuple[int, ...]]:
            if a == len(allowed):
                if left == 0:
                    yield tuple(split)
                return
            j = allowed[a]
            for take in range(min(left, rem[j]), -1, -1):
                split[j] = take
                yield from fill(a + 1, left - take)
            split[j] = 0

        yield from fill(0, slots)

    def _ways(self, i: int, rem: tuple[int, ...]) -> int:
        """Fitting deals of the cards ``rem`` (counts per suit) to holders ``i`` onwards."""
        if i == len(self._holders) - 1:
            slots = self._holders[i][1]
            allowed = set(self._allowed[i])
            return int(sum(rem) == slots and all(c == 0 or j in allowed for j, c in enumerate(rem)))
        key = (i, rem)
        if key not in self._memo:
            options = self._split_options(i, rem)
            self._memo[key] = options[-1][0] if options else 0
        return self._memo[key]

    def _split_options(self, i: int, rem: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """Holder ``i``'s possible suit splits with cumulative weights (for drawing one)."""
        key = (i, rem)
        if key not in self._splits:
            options = []
            total = 0
            for split in self._compositions(i, rem):
                rest = tuple(a - b for a, b in zip(rem, split, strict=True))
                weight = self._ways(i + 1, rest)
                if weight:
                    for a, b in zip(rem, split, strict=True):
                        weight *= math.comb(a, b)
                    total += weight
                    options.append((total, split))
            self._splits[key] = tuple(options)
        return self._splits[key]


def _check_rng(rng: object) -> random.Random:
    if not isinstance(rng, random.Random):
        raise InvalidOption(f"rng must be a random.Random, like random.Random(1), not {describe(rng)}")
    return rng


def _whole(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InconsistentKnowledge(f"{name} must be a whole number, not {describe(value)}")
    return value


T = TypeVar("T")


def _items(name: str, values: object, item: Callable[[Any], T]) -> list[T]:
    """The items of a tuple or list, each checked (and made) by ``item``."""
    if not isinstance(values, (tuple, list)):
        raise InconsistentKnowledge(f"{name} must be a tuple, not {describe(values)}")
    return [item(value) for value in values]


def _card(value: object) -> Card:
    if not isinstance(value, Card):
        raise InconsistentKnowledge(f"a known card must be a Card (rules.card('AS')), not {describe(value)}")
    return value


def _suits(value: object) -> frozenset[str]:
    if not isinstance(value, (set, frozenset)) or not all(isinstance(suit, str) for suit in value):
        raise InconsistentKnowledge(f"the voids of a seat are a set of suit letters, not {describe(value)}")
    return frozenset(value)


def _voids_of(k: Knowledge, seat: int) -> frozenset[str]:
    return k.voids[seat] if k.voids else frozenset()


def _engine_order(rules: Rules[Any]) -> tuple[Card, ...]:
    """The deck in the order of the core's card ids: a sorted hand of ids is the engine's hand."""
    deck = set(rules.deck())
    return tuple(c for c in deal_hooks(rules).ids.cards if c in deck)


# --- results ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BidEstimate:
    """What one candidate bid would bring, over ``samples`` sampled deals.

    ``tricks[k]`` counts the deals in which the seat won ``k`` tricks in all; for Band of
    Tricks ``suits`` holds the same counts per suit (Rock, Soul, Pops), Metal wins counted
    as described in :mod:`tricklab.advisor` (under Zero Success, Metal wins count for no
    suit and ``suits`` holds the Rock, Soul and Pops cards' wins only). ``hits`` counts the
    deals in which the bid was hit exactly (every suit, for Band of Tricks; no trick at all
    for Zero Success), ``p_exact`` is ``hits / samples``. ``mean`` is the expected score and
    ``stderr`` its standard error (sample standard deviation over the square root of
    ``samples``; ``math.inf`` from a single sample, ``None`` in :meth:`as_dict`).

    ``played_for`` says whether these figures come from play-outs in which the seat's bot
    aimed for this bid (trying the bid gives the same figures); ``False`` marks a rough
    figure, scored on play-outs made for another bid (Band of Tricks, outside the shortlist).
    For a bid played for: ``scores`` holds ``(score, deals)`` pairs, lowest score first;
    ``card_wins`` holds, for each card of the seat's hand, in how many deals it won a trick;
    ``reasons`` say in words which cards carry the tricks and what the bid risks
    (:class:`~tricklab.explain.Reason`, ``rule_id`` ``advice.*``).
    """

    bid: Action
    text: str
    samples: int
    tricks: tuple[int, ...]
    hits: int
    p_exact: float
    mean: float
    stderr: float
    suits: tuple[tuple[int, ...], ...] = ()
    played_for: bool = True
    scores: tuple[tuple[int, int], ...] = ()
    card_wins: tuple[tuple[Card, int], ...] = ()
    reasons: tuple[Reason, ...] = ()

    @property
    def distribution(self) -> tuple[float, ...]:
        """``tricks`` as probabilities."""
        return tuple(c / self.samples for c in self.tricks)

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (the bid as its text form)."""
        return {
            "bid": self.text,
            "samples": self.samples,
            "tricks": list(self.tricks),
            "suits": [list(s) for s in self.suits],
            "hits": self.hits,
            "p_exact": self.p_exact,
            "mean": self.mean,
            "stderr": self.stderr if math.isfinite(self.stderr) else None,
            "played_for": self.played_for,
            "scores": [list(pair) for pair in self.scores],
            "card_wins": [[str(c), k] for c, k in self.card_wins],
            "reasons": [{"rule_id": r.rule_id, "text": r.text} for r in self.reasons],
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """Estimates for the candidate bids (or passes) of one seat's hand.

    ``estimates``: Tricks & Stones, predictions 0 to 5; Band of Tricks, Zero Success (which
    is also the bid 0 0 0) then the 342 other per-suit bids, in the engine's order
    (``band_of_tricks.ALL_BIDS``); Jewel Vault, the passes tried, the bot's own first.
    ``best`` is the choice played for on every deal with the highest expected score (ties:
    the higher ``p_exact``, then the first listed): trying it gives its figure. ``bid`` is
    the choice under test as given (checked and normalised). ``played`` is the bot's own
    choice: the Band of Tricks bid whose play-outs score the rough figures, the Jewel Vault
    pass the shortlist starts from (``None`` for Tricks & Stones). ``metal_wins[k]`` counts
    the shortlist's deals in which the seat won ``k`` tricks with Metal (Band of Tricks; else
    empty). ``model`` says in one paragraph how the numbers were made.
    """

    game: str
    players: int
    seat: int
    hand: tuple[Card, ...]
    samples: int
    seed: int
    bid: Action | None
    played: Action | None
    estimates: tuple[BidEstimate, ...]
    best: BidEstimate
    model: str
    metal_wins: tuple[int, ...] = ()
    _index: dict[Action, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {e.bid: i for i, e in enumerate(self.estimates)})

    def estimate(self, bid: object) -> BidEstimate:
        """The estimate of ``bid``, given as :func:`advise` accepts it (checked the same way)."""
        key = _normalise_bid(self.game, bid)
        if key not in self._index:
            raise InvalidOption(f"there is no estimate of {key} in this advice: it tried {len(self.estimates)} choices")
        return self.estimates[self._index[key]]

    @property
    def tried(self) -> BidEstimate | None:
        """The estimate of the bid under test, if one was given."""
        return None if self.bid is None else self.estimates[self._index[self.bid]]

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "game": self.game,
            "players": self.players,
            "seat": self.seat,
            "hand": [str(c) for c in self.hand],
            "samples": self.samples,
            "seed": self.seed,
            "bid": None if self.bid is None else str(self.bid),
            "played": None if self.played is None else str(self.played),
            "best": self.best.text,
            "metal_wins": list(self.metal_wins),
            "model": self.model,
            "estimates": [e.as_dict() for e in self.estimates],
        }


# --- the advisor -----------------------------------------------------------------------------------------

Progress = Callable[[int, int], object]


def advise(
    rules: Rules[Any],
    view: SeatView,
    *,
    bid: object = None,
    samples: int = 1000,
    seed: int = 0,
    knowledge: Knowledge | None = None,
    progress: Progress | None = None,
) -> Advice:
    """Estimate every candidate bid for the seat of ``view`` (a view at bidding time).

    ``bid`` is the bid under test: Tricks & Stones, a prediction (``3``, ``Predict(3)`` or
    ``"predict 3"``); Band of Tricks, anything ``score_deal`` accepts (``Bid(1, 3, 0)``,
    ``{"rock": 1, "soul": 3}``, ``"zero"``) or an action text (``"bid 1 3 0"``). A bad bid
    raises the game's own error (:class:`~tricklab.errors.InvalidScoreInput` naming the
    value and the rule). For Band of Tricks it is the bid played out (default: the bot's
    own bid for the hand); for Tricks & Stones every prediction is played out anyway.

    ``samples`` deals are drawn with ``seed``; ``knowledge`` replaces what the seat is taken
    to know (default :meth:`Knowledge.from_view`: its own hand only), for hand-made
    positions in which some cards of other hands are known. ``progress(done, total)``: see
    the module's documentation; returning ``False`` cancels (:class:`AdviceCancelled`).
    """
    if progress is not None and not callable(progress):
        raise InvalidOption(f"progress must be a function progress(done, total), not {describe(progress)}")
    return finish(
        advise_steps(rules, view, bid=bid, samples=samples, seed=seed, knowledge=knowledge),
        progress,
        AdviceCancelled,
    )


def advise_steps(
    rules: Rules[Any],
    view: SeatView,
    *,
    bid: object = None,
    samples: int = 1000,
    seed: int = 0,
    knowledge: Knowledge | None = None,
) -> Steps[Advice]:
    """:func:`advise` in steps (:mod:`tricklab.platform`): the arguments are checked now, and the
    steps yield ``(done, total)`` where :func:`advise` reports progress, then return the advice."""
    seat, checked = _check_view(rules, view)
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise InvalidOption(f"samples must be a whole number from 1 to {MAX_SAMPLES:,}, not {describe(samples)}")
    seed = check_seed(seed)
    entry = _check_game(rules)
    under_test = None if bid is None else _normalise_bid(rules.name, bid)
    if knowledge is None:
        knowledge = Knowledge.from_view(rules, checked)
    elif not isinstance(knowledge, Knowledge):
        raise InvalidOption(
            f"knowledge must be a Knowledge (Knowledge.from_view(...)), or None, not {describe(knowledge)}"
        )
    else:
        _check_knowledge_for_view(rules, checked, seat, knowledge)
    if entry.knowledge is not None:  # the game's own check of the view (Jewel Vault: not passed yet)
        entry.knowledge(rules, checked, seat)
    sampler = DealSampler(rules, knowledge)
    rng = random.Random(f"tricklab:advisor:{rules.name}:{seed}")
    return entry.advise(rules, checked, seat, under_test, samples, seed, sampler, rng, Ticker(samples))


def _check_game(rules: Rules[Any] | type[Rules[Any]]) -> AdvisorEntry:
    """The advisor's entry for the game, as the game declares it (``Capabilities.advice``)."""
    ref = rules.capabilities.advice
    if ref is None:
        known = " and ".join(cls.title for cls in games_with(lambda offers: offers.advice is not None))
        raise AdviceUnavailable(f"{rules.title} has no bids to advise on; the advisor knows {known}")
    return ref.load_as(AdvisorEntry)


def _check_view(rules: Rules[Any], view: SeatView) -> tuple[int, BiddingView]:
    """The view's seat and the view, if it is one seat's view at bidding time of a game with bids."""
    check_rules(rules, "the advisor")
    entry = _check_game(rules)
    decision = rules.capabilities.decision
    bidding, what, rule_id = decision.phase, entry.what, decision.rule_id
    if not isinstance(view, entry.view_type):
        raise AdviceUnavailable(f"the advisor needs a {rules.title} view (match.view(seat)), not {describe(view)}")
    seat: int | None = view.seat
    if seat is None:
        raise AdviceUnavailable(
            "the advisor needs one seat's view, not the teacher's: "
            "it plays for that seat and must not see the other hands"
        )
    if len(view.hand_sizes) != rules.players:
        raise AdviceUnavailable(
            f"the view is of a {len(view.hand_sizes)}-player game, the rules are for {rules.players}"
        )
    if view.phase != bidding:
        raise AdviceUnavailable(
            f"bids are tried at bidding time ({what}), but this view is in phase {str(view.phase)!r}", rule_id=rule_id
        )
    return seat, view


def _check_knowledge_for_view(rules: Rules[Any], view: BiddingView, seat: int, knowledge: Knowledge) -> None:
    if knowledge.seat != seat:
        raise InconsistentKnowledge(f"the knowledge is seat {knowledge.seat}'s, the view seat {seat}'s")
    own = Knowledge.from_view(rules, view)
    if len(knowledge.hands) == rules.players and set(knowledge.hands[seat]) != set(own.hands[seat]):
        raise InconsistentKnowledge("the knowledge's own hand is not the hand in the view")
    if set(knowledge.played) != set(own.played) or tuple(knowledge.hand_sizes) != own.hand_sizes:
        raise InconsistentKnowledge("at bidding time no card has been played and every hand is full")


def _normalise_bid(game: str, bid: object) -> Action:
    """The bid as the engine sees it; the game's own checks raise for a bad one."""
    if isinstance(bid, str) and bid.strip().lower().startswith(("predict", "bid")):  # a pass reads its own text
        with contextlib.suppress(TricklabError):  # not an action text: the check below names it
            bid = parse_action(bid, _no_cards)
    return _check_game(find_game(game)).normalise_bid(bid)


def _no_cards(text: str) -> Card:
    raise InvalidAction(f"{describe(text)}: a bid names no card")


# --- why a bid is good: reasons a beginner can use ----------------------------------------------------


# --- Tricks & Stones --------------------------------------------------------------------------------------


# --- racing the choices on the same deals ------------------------------------------------------------


# --- Band of Tricks ----------------------------------------------------------------------------------------


# --- Jewel Vault: which cards to pass ------------------------------------------------------------------


# --- the entries a game names in its declaration (Capabilities.advice) ----------------------------------


@dataclass(frozen=True, slots=True)
class AdvisorEntry:
    """How the advisor works for one game. A game names its entry in its declaration
    (``Capabilities(advice=Ref("tricklab.games.tricks_and_stones.advice:TS_ADVICE"))``) and the advisor reads it there.

    ``view_type`` is the game's seat view, ``what`` names its bidding phase in messages, ``ids``
    numbers its cards as its core does (a sorted hand is a mask's ids, lowest first),
    ``round_of`` says which round a state is in, ``hands`` gives a state's hands and
    ``with_hands`` the state with other hands (masks; for the voids a play reveals),
    ``normalise_bid`` checks a bid as the game does, and ``advise`` runs the game's play-outs.
    ``given`` says where cards the seat passed are, ``shown`` which cards lie face up in no hand;
    ``knowledge(rules, view, seat)``, if set,
    is what the seat knows at the decision (default :meth:`Knowledge.from_view`'s own hand
    only), and refuses a view the game's advice cannot start from.
    The functions are the game's own: each takes its game's rules and states only.
    """

    view_type: type[BiddingView]
    what: str
    ids: CardIds
    round_of: Callable[[GameState], int]
    hands: Callable[[GameState], tuple[int, ...]]
    with_hands: Callable[[Rules[Any], GameState, tuple[int, ...]], GameState]
    normalise_bid: Callable[[object], Action]
    advise: Callable[
        [Rules[Any], BiddingView, int, Action | None, int, int, DealSampler, random.Random, Ticker], Steps[Advice]
    ]
    given: Callable[[Rules[Any], GameState, int], tuple[int, int] | None] = lambda rules, state, seat: None
    knowledge: Callable[[Rules[Any], BiddingView, int], Knowledge] | None = None
    shown: Callable[[GameState], int] = lambda state: 0


class DealHooks(Protocol):
    """What :class:`Knowledge` and :class:`DealSampler` read of a game: its card ids, which round
    a state is in, a state's hands (masks), the state with other hands (for the voids a play
    reveals), and ``given(rules, state, seat)``: the seat that holds cards ``seat`` passed to
    it, with their mask (``None``: nothing passed); ``shown(state)``: the mask of the cards face
    up for everyone and in no hand (a card turned up for trump). :class:`AdvisorEntry` has them, and so has
    the review's entry of a game without bids (:class:`tricklab.review.ReviewEntry`)."""

    @property
    def ids(self) -> CardIds: ...
    @property
    def round_of(self) -> Callable[[GameState], int]: ...
    @property
    def hands(self) -> Callable[[GameState], tuple[int, ...]]: ...
    @property
    def with_hands(self) -> Callable[[Rules[Any], GameState, tuple[int, ...]], GameState]: ...
    @property
    def given(self) -> Callable[[Rules[Any], GameState, int], tuple[int, int] | None]: ...
    @property
    def shown(self) -> Callable[[GameState], int]: ...


def deal_hooks(rules: Rules[Any]) -> DealHooks:
    """The game's :class:`DealHooks`: its advisor entry, or else its review entry, as the game
    declares them (``Capabilities.advice``, ``Capabilities.review``)."""
    offers = check_rules(rules, "deal_hooks").capabilities
    if offers.advice is not None:
        return offers.advice.load_as(AdvisorEntry)
    if offers.review is not None:
        from .review import ReviewEntry  # the review builds on the advisor

        return offers.review.load_as(ReviewEntry)
    return _check_game(rules)  # raises AdviceUnavailable, naming the games the advisor knows


def _revealed_voids(rules: Rules[Any], entry: DealHooks, before: GameState, card: Card) -> set[str]:
    """The suits a play shows its player not to hold, as the core's legal plays decide: each suit
    of which one more card in the player's hand would have made the card played illegal (not
    following the suit to follow; leading a trump before trumps are broken)."""
    assert isinstance(rules, CoreRules)
    seat = before.to_play
    assert seat is not None
    ids = entry.ids
    played = ids.id[card]
    action = rules.action_id(Play(card))
    hands = entry.hands(before)
    voids = set()
    for k, suit in enumerate(ids.suits):
        others = ids.suit_mask[k] & ~hands[seat] & ~(1 << played)
        if not others:
            continue
        more = hands[:seat] + (hands[seat] | (1 << lowest(others)),) + hands[seat + 1 :]
        if action not in rules.core_legal(entry.with_hands(rules, before, more)):
            voids.add(suit)
    return voids
