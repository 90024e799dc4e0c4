"""Try bids: what each bid would likely bring for one seat's hand, by simulation.

:func:`advise` takes a seat's view at bidding time -- the prediction phase of Tricks &
Stones, the bid phase of Band of Tricks -- and answers, for every candidate bid, how
many tricks the seat would win (a distribution), how often it would hit the bid
exactly, and the expected score with its standard error::

    >>> import tricklab
    >>> from tricklab.advisor import advise
    >>> rules = tricklab.get_rules("tricks-and-stones", players=4)
    >>> match = rules.new_match(seed=7, first_dealer=0)
    >>> advice = advise(rules, match.view(1), samples=200, seed=1)
    >>> [e.text for e in advice.estimates]
    ['predict 0', 'predict 1', 'predict 2', 'predict 3', 'predict 4', 'predict 5']
    >>> advice.best.bid in [e.bid for e in advice.estimates]
    True

How the numbers are made
------------------------
1. **Sampling.** The cards the seat cannot see are dealt at random, uniformly among the
   deals that fit what the seat knows (:class:`Knowledge`): its own hand, the cards it has
   seen played, how many cards each hand holds, the cards set aside unseen (Tricks &
   Stones with 3 players: 8; Band of Tricks with 3 players: 1), cards known to be in
   another hand (hand-made positions), and suits a player is known not to hold. Bids and
   predictions already made are not used to guess at hands (a heuristic bot's bid is too
   sharp a function of its hand to condition on); public Band of Tricks bids are kept
   as they are in every play-out.
2. **Play-out.** Every sampled deal is played to the end of the round by the games'
   heuristic bots (:mod:`tricklab.bots`), the seat's own bot aiming for the bid under
   test; players who have not bid yet bid as their bot would on their sampled hand.
   The play-outs run on a fast, unchecked copy of the rules and of the bots' decisions
   kept here; ``tests/test_advisor.py`` checks it gives exactly what the checked engine
   (``Rules.apply``) and :class:`~tricklab.bots.tricks_and_stones.HeuristicBot` /
   :class:`~tricklab.bots.band_of_tricks.HeuristicBot` give on the same deals.
3. **Scoring** is each game's own (TS-8, BT-7); the tests check the figures against the
   engine's own round and deal scores and against ``score_deal``.

**Tricks & Stones.** Each sampled deal is played out once for *each* prediction 0-5
(the same deal for all six, so their differences are measured on equal terms). The
score depends on the seat's gems, so the seat's bot takes its gem actions after every
trick exactly as in a real round (aiming its gems at the number of tricks it expects,
see the bot). The other players' gem actions are left out: they only ever move those
players' own gems, which neither score for this seat nor change how anyone plays a card.
Other players predict as their bot would on their sampled hand; the lowest prediction
leads (TS-3), so the seat's prediction can change who leads.

**Band of Tricks.** Each sampled deal is played out *once*, the seat's bot aiming for
one bid (the bid under test, or the bot's own bid when none is given: ``Advice.played``),
and every bid -- each of the 7 x 7 x 7 per-suit bids, 0 0 0 being Zero Success (BT-3),
so 343 bids in all -- is scored on the tricks the seat won in that same play-out.

A trick won with a Metal card counts for Rock, Soul or Pops as its winner chooses *when
the trick is won* (BT-6: the cube goes down then), without knowing the tricks still to
come. So for every bid scored, the seat's Metal wins are counted in trick order, each at
the moment it was won, the way the seat's bot counts them under that bid: for the suit
where it adds most to the bid's score given the wins so far; on a tie, the suit furthest
short of its bid; then Rock before Soul before Pops. For the bid played out this is
exactly what happened at the table; for the others it is what the same rule would have
chosen, never a choice made with hindsight. Under Zero Success a Metal win counts for no
suit, just as a trick won (BT-6).

The estimate of a bid other than the one played out answers "what would this bid have
scored on the same play?". It is fair for bids close to the played one and usually
pessimistic for bids far from it, since nobody was playing for them: try such a bid
(``bid=``) to see it played for.

Progress and cancellation: ``progress(done, total)`` is called with ``done = 0`` before
the first sample, after every ``max(1, samples // 50)`` samples and with
``done = total`` at the end; if it returns ``False`` (exactly ``False``, not any falsy
value), :func:`advise` stops and raises :class:`AdviceCancelled`. Results depend only on
the view, the bid, ``samples`` and ``seed``: the same call gives identical numbers.
"""

from __future__ import annotations

import contextlib
import math
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .actions import Action, Bid, Play, Predict, Skip, parse_action
from .bots.band_of_tricks import _FLOOR, _SCALE, _SPAN, _ZERO_BELOW
from .bots.tricks_and_stones import _SIDE_VALUE, _TRUMP_VALUE
from .cards import BAND_SUITS, FRENCH_SUITS, Card
from .errors import InvalidAction, InvalidOption, TricklabError
from .games import band_of_tricks as bt
from .games import find_game, games_with
from .games import tricks_and_stones as ts
from .games.base import Rules, SeatView, check_seed
from .match import Match

__all__ = [
    "Advice",
    "AdviceCancelled",
    "AdviceUnavailable",
    "AdvisorEntry",
    "BidEstimate",
    "DealSampler",
    "InconsistentKnowledge",
    "Knowledge",
    "SampledDeal",
    "advise",
]

BiddingView = ts.TricksAndStonesView | bt.BandOfTricksView
"""A seat's view at bidding time (what :func:`advise` takes)."""

MAX_SAMPLES = 1_000_000
PROGRESS_STEPS = 50


# --- errors -------------------------------------------------------------------------------------


class AdviceUnavailable(TricklabError):
    """The advisor cannot work on this: a view outside bidding time, the teacher's view, or a
    game without bids. The message says which and why."""


class InconsistentKnowledge(TricklabError):
    """What a seat is said to know contradicts itself or the deck (a card in two places,
    sizes that do not add up, a known card in a suit its holder is void in, no deal fits)."""


class AdviceCancelled(TricklabError):
    """The progress callback returned ``False``; ``done`` of ``total`` samples were played."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(f"bid advice cancelled after {done} of {total} sampled deals")
        self.done = done
        self.total = total


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

    @classmethod
    def from_view(cls, rules: Rules[Any], view: BiddingView) -> Knowledge:
        """A seat's knowledge at bidding time: its own hand, nothing else yet."""
        seat, checked = _check_view(rules, view)
        hand = tuple(rules.card(c) for c in checked.hand)
        sizes = tuple(checked.hand_sizes)
        others = tuple(hand if s == seat else () for s in range(rules.players))
        return cls(seat, others, sizes, aside=len(rules.deck()) - sum(sizes))

    @classmethod
    def from_match(cls, match: Match, seat: int) -> Knowledge:
        """What ``seat`` knows in ``match`` now, play included: its own hand, every card
        played this round, and the voids the play revealed.

        Only public facts are read from the match's history (who played which card to
        which trick). A player who does not follow the suit to follow has none of it
        (Tricks & Stones ``ts.follow``; Band of Tricks ``bt.follow``, where playing Metal
        reveals nothing); a Tricks & Stones player who leads a trump before trumps are
        broken holds nothing but trumps (``ts.trump.lead``).
        """
        rules = match.rules
        entry = _check_game(rules)
        n = rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidOption(f"seat must be 0 to {n - 1}, not {seat!r}")
        state = match.state
        now = entry.round_of(state)
        played: list[Card] = []
        voids: list[set[str]] = [set() for _ in range(n)]
        suits = {c.suit for c in rules.deck()}
        for before, action in zip(match.states, match.actions, strict=False):
            if not isinstance(action, Play):
                continue
            if entry.round_of(before) != now:
                continue
            player = before.to_play
            assert player is not None, "a card is played by the seat to play"
            card = rules.card(action.card)
            played.append(card)
            voids[player] |= entry.voids(before, card, suits)
        view = rules.view(state, seat)
        assert isinstance(view, entry.view_type)
        sizes = view.hand_sizes
        hands = tuple(view.hand if s == seat else () for s in range(n))
        aside = len(rules.deck()) - sum(sizes) - len(played)
        return cls(seat, hands, sizes, aside, tuple(played), tuple(frozenset(v) for v in voids))


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
        _check_game(rules)
        self.rules = rules
        self.knowledge = knowledge
        self._order = _engine_order(rules)
        self._id = {card: i for i, card in enumerate(self._order)}
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
            raise InconsistentKnowledge(f"seat must be 0 to {n - 1}, not {k.seat!r}")
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
                    f"hand sizes and the aside count are whole numbers, 0 or more, not {size!r}"
                )
        where: dict[Card, str] = {}
        places = [(f"seat {s}'s hand", k.hands[s]) for s in range(n)] + [("the played cards", k.played)]
        for place, cards in places:
            for card in cards:
                if card not in self._id:
                    raise InconsistentKnowledge(f"{card!r} is not a card of {rules.title}")
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
        hands, aside = self._sample_ids(rng)
        order = self._order
        return SampledDeal(tuple(tuple(order[i] for i in h) for h in hands), tuple(order[i] for i in aside))

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


def _voids_of(k: Knowledge, seat: int) -> frozenset[str]:
    return k.voids[seat] if k.voids else frozenset()


def _engine_order(rules: Rules[Any]) -> tuple[Card, ...]:
    """The deck in the order the engine sorts hands: a sorted hand of ids is the engine's hand."""
    return _check_game(rules).sort_hand(rules.deck())


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
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """Estimates for every candidate bid of one seat's hand.

    ``estimates``: Tricks & Stones, predictions 0 to 5; Band of Tricks, Zero Success (which
    is also the bid 0 0 0) then the 342 other per-suit bids, in the engine's order
    (``band_of_tricks.ALL_BIDS``).
    ``best`` has the highest expected score (ties: the higher ``p_exact``, then the first
    listed). ``bid`` is the bid under test as given (checked and normalised), ``played``
    the bid the seat's bot aimed for in every play-out (Band of Tricks; ``None`` for
    Tricks & Stones, where every prediction is played out). ``metal_wins[k]`` counts the
    deals in which the seat won ``k`` tricks with Metal (Band of Tricks; else empty).
    ``model`` says in one paragraph how the numbers were made.
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
    seat, checked = _check_view(rules, view)
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise InvalidOption(f"samples must be a whole number from 1 to {MAX_SAMPLES:,}, not {samples!r}")
    seed = check_seed(seed)
    if progress is not None and not callable(progress):
        raise InvalidOption(f"progress must be a function progress(done, total), not {progress!r}")
    entry = _check_game(rules)
    under_test = None if bid is None else _normalise_bid(rules.name, bid)
    if knowledge is None:
        knowledge = Knowledge.from_view(rules, checked)
    else:
        _check_knowledge_for_view(rules, checked, seat, knowledge)
    sampler = DealSampler(rules, knowledge)
    rng = random.Random(f"tricklab:advisor:{rules.name}:{seed}")
    ticker = _Ticker(samples, progress)
    return entry.advise(rules, checked, seat, under_test, samples, seed, sampler, rng, ticker)


class _Ticker:
    """Calls ``progress`` every ``step`` samples; raises :class:`AdviceCancelled` on ``False``."""

    def __init__(self, total: int, progress: Progress | None) -> None:
        self.total = total
        self.progress = progress
        self.step = max(1, total // PROGRESS_STEPS)
        self.next = 0

    def tick(self, done: int) -> None:
        if self.progress is None or (done < self.next and done != self.total):
            return
        self.next = done + self.step
        if self.progress(done, self.total) is False:
            raise AdviceCancelled(done, self.total)


def _check_game(rules: Rules[Any] | type[Rules[Any]]) -> AdvisorEntry:
    """The advisor's entry for the game, as the game declares it (``Capabilities.advice``)."""
    ref = rules.capabilities.advice
    if ref is None:
        known = " and ".join(cls.title for cls in games_with(lambda offers: offers.advice is not None))
        raise AdviceUnavailable(f"{rules.title} has no bids to advise on; the advisor knows {known}")
    return ref.load()


def _check_view(rules: Rules[Any], view: SeatView) -> tuple[int, BiddingView]:
    """The view's seat and the view, if it is one seat's view at bidding time of a game with bids."""
    entry = _check_game(rules)
    decision = rules.capabilities.decision
    bidding, what, rule_id = decision.phase, entry.what, decision.rule_id
    if not isinstance(view, entry.view_type):
        raise AdviceUnavailable(f"the advisor needs a {rules.title} view (match.view(seat)), not {view!r:.80}")
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
    if len(knowledge.hands) == rules.players and set(knowledge.hands[seat]) != set(view.hand):
        raise InconsistentKnowledge("the knowledge's own hand is not the hand in the view")
    if knowledge.played or tuple(knowledge.hand_sizes) != tuple(view.hand_sizes):
        raise InconsistentKnowledge("at bidding time no card has been played and every hand is full")


def _normalise_bid(game: str, bid: object) -> Action:
    """The bid as the engine sees it; the game's own checks raise for a bad one."""
    if isinstance(bid, str) and bid.strip().lower().startswith(("predict", "bid")):
        with contextlib.suppress(TricklabError):  # not an action text: the check below names it
            bid = parse_action(bid, _no_cards)
    return _check_game(find_game(game)).normalise_bid(bid)


def _ts_bid(bid: object) -> Action:
    value = bid.n if isinstance(bid, Predict) else bid
    _TS_SCORING.score_round(prediction=value, tricks=0, gems=(0,) * ts.CHAMBERS)  # type: ignore[arg-type]
    assert isinstance(value, int)
    return Predict(value)


def _no_cards(text: str) -> Card:
    raise InvalidAction(f"{text!r}: a bid names no card")


# score_round checks a prediction the same way whatever the player count
_TS_SCORING = ts.TricksAndStones.create(4)


def _summary(total: float, squares: float, count: int) -> tuple[float, float]:
    mean = total / count
    if count < 2:
        return mean, math.inf
    variance = max(0.0, (squares - total * total / count) / (count - 1))
    return mean, math.sqrt(variance / count)


def _pick_best(estimates: Sequence[BidEstimate]) -> BidEstimate:
    best = estimates[0]
    for e in estimates[1:]:
        if (e.mean, e.p_exact) > (best.mean, best.p_exact):
            best = e
    return best


# --- Tricks & Stones --------------------------------------------------------------------------------------

_TS_MODEL = (
    "Each sampled deal of the unseen cards was played out by the heuristic bots once for every "
    "prediction 0-5, with the seat's bot aiming for that prediction and taking its gem actions "
    "after each trick as in a real round; the other players predicted as their bot would. The "
    "score is the seat's own gems in the chamber of its tricks, plus 3 for an exact prediction."
)


def _advise_ts(
    rules: ts.TricksAndStones,
    view: ts.TricksAndStonesView,
    seat: int,
    under_test: Action | None,
    samples: int,
    seed: int,
    sampler: DealSampler,
    rng: random.Random,
    ticker: _Ticker,
) -> Advice:
    sim = _TsSim(rules, seat, view.dealer, view.trump)
    size = ts.CARDS_EACH + 1
    predictions = range(ts.MAX_PREDICTION + 1)
    hist = [[0] * size for _ in predictions]
    sums = [0.0 for _ in predictions]
    squares = [0.0 for _ in predictions]
    hits = [0 for _ in predictions]
    ticker.tick(0)
    for done in range(1, samples + 1):
        hands, _ = sampler._sample_ids(rng)
        for p, tricks, score in sim.run(hands):
            hist[p][tricks] += 1
            sums[p] += score
            squares[p] += score * score
            hits[p] += tricks == p
        ticker.tick(done)
    estimates = []
    for p in predictions:
        mean, stderr = _summary(sums[p], squares[p], samples)
        estimates.append(
            BidEstimate(Predict(p), str(Predict(p)), samples, tuple(hist[p]), hits[p], hits[p] / samples, mean, stderr)
        )
    return _advice(rules, view, seat, samples, seed, under_test, None, estimates, _TS_MODEL, ())


def _advice(
    rules: Rules[Any],
    view: Any,
    seat: int,
    samples: int,
    seed: int,
    under_test: Action | None,
    played: Action | None,
    estimates: list[BidEstimate],
    model: str,
    metal: tuple[int, ...],
) -> Advice:
    return Advice(
        rules.name,
        rules.players,
        seat,
        tuple(view.hand),
        samples,
        seed,
        under_test,
        played,
        tuple(estimates),
        _pick_best(estimates),
        model,
        metal,
    )


# Card ids for Tricks & Stones: suit index (S H D C) * 8 + strength (0 for a 7 up to 7 for an
# Ace), which is the engine's hand order. The value of a card in a trick: higher places higher (TS-5).
def _ts_value(card: int, led: int, trump: int) -> int:
    suit, strength = card >> 3, card & 7
    if suit == trump:
        return 48 + strength
    if suit == led:
        return 32 + strength
    return (3 - suit) * 8 + strength


class _TsSim:
    """Tricks & Stones play-outs for one seat, all six predictions at once.

    A fast, unchecked copy of ``TricksAndStones.apply`` and of the heuristic bot's
    decisions, over card ids. The six predictions share a play-out as long as the seat's
    bot behaves the same under them (it only asks "do I still want tricks?") and the same
    player leads; where they part, the play-out forks.
    """

    def __init__(self, rules: ts.TricksAndStones, seat: int, dealer: int, trump: str) -> None:
        order = _engine_order(rules)
        assert all(order[i].suit == FRENCH_SUITS[i >> 3] and ts.STRENGTH[order[i].rank] == i & 7 for i in range(32))
        self.n = n = rules.players
        self.seat = seat
        self.trump = t = FRENCH_SUITS.index(trump)
        self.ring = rules.options.chambers == "ring"
        start = dealer + 1 if rules.options.first_lead_tie == "left-of-dealer" else dealer
        self.lead_order = [(start + i) % n for i in range(n)]
        self.values = [[_ts_value(c, led, t) for c in range(32)] for led in range(4)]
        self.power = [(c >> 3 == t) * 8 + (c & 7) for c in range(32)]
        self.worth = [
            _TRUMP_VALUE[order[c].rank] if c >> 3 == t else _SIDE_VALUE.get(order[c].rank, 0.0) for c in range(32)
        ]
        self.allowances = ts.ALLOWANCES[n]

    def predict(self, hand: list[int]) -> int:
        """The bot's prediction (``HeuristicBot._predict``, same sums in the same order)."""
        estimate = 0.0
        worth = self.worth
        for c in hand:
            estimate += worth[c]
        return max(0, min(ts.MAX_PREDICTION, round(estimate * 4 / self.n)))

    def run(self, hands: list[list[int]]) -> list[tuple[int, int, int]]:
        """``(prediction, tricks won, score)`` of the seat for each prediction 0-5."""
        seat = self.seat
        predictions = [self.predict(h) for h in hands]
        groups: dict[int, list[int]] = {}  # first leader -> the seat's predictions that make it lead
        for p in range(ts.MAX_PREDICTION + 1):
            predictions[seat] = p
            low = min(predictions)
            groups.setdefault(next(s for s in self.lead_order if predictions[s] == low), []).append(p)
        out: list[tuple[int, int, int]] = []
        for leader, group in groups.items():
            self._play([h[:] for h in hands], predictions, leader, [0] * self.n, [], 0, False, [], group, out)
        return out

    def _play(
        self,
        hands: list[list[int]],
        predictions: list[int],
        leader: int,
        won: list[int],
        record: list[tuple[int, int, int]],
        played: int,
        broken: bool,
        trick: list[int],
        group: list[int],
        out: list[tuple[int, int, int]],
    ) -> None:
        n, seat, trump = self.n, self.seat, self.trump
        power = self.power.__getitem__
        while played < ts.CARDS_EACH:
            i = len(trick)
            led = trick[0] >> 3 if trick else -1
            values = self.values[led] if trick else self.values[0]
            best = max(values[c] for c in trick) if trick else 0
            while i < n:
                s = (leader + i) % n
                hand = hands[s]
                if i:
                    legal = [c for c in hand if c >> 3 == led] or hand
                elif broken:
                    legal = hand
                else:
                    legal = [c for c in hand if c >> 3 != trump] or hand
                if s == seat:
                    w = won[seat]
                    wants = w < group[0]
                    if wants != (w < group[-1]):  # the group parts here: play the other part apart
                        keep = [p for p in group if w < p]
                        rest = [p for p in group if w >= p]
                        self._play(
                            [h[:] for h in hands], predictions, leader, won[:], record[:], played, broken,
                            trick[:], rest, out,
                        )  # fmt: skip
                        group = keep
                        wants = True
                else:
                    wants = won[s] < predictions[s]
                if i:
                    winners = [c for c in legal if values[c] > best]
                    losers = [c for c in legal if values[c] <= best] if not wants else winners
                else:
                    winners = [c for c in legal if c & 7 >= 6]
                    losers = [c for c in legal if c & 7 < 6] if not wants else winners
                if wants:
                    if winners:
                        card = min(winners, key=power) if i == n - 1 else max(winners, key=power)
                    else:
                        card = min(legal, key=power)
                elif losers:
                    card = max(losers, key=power)
                else:
                    card = min(legal, key=power)
                hand.remove(card)
                if i == 0:
                    led = card >> 3
                    values = self.values[led]
                elif card >> 3 == trump and led != trump:
                    broken = True
                trick.append(card)
                if values[card] > best:
                    best = values[card]
                i += 1
            # the trick is complete: its winner, and the seat's place for its gem action
            top = max(range(n), key=lambda k: values[trick[k]])
            winner = (leader + top) % n
            won[winner] += 1
            played += 1
            mine = values[trick[(seat - leader) % n]]
            place = sum(values[c] > mine for c in trick)
            record.append((place, won[seat], played))
            leader = winner
            trick = []
        tricks = won[seat]
        for p in group:
            out.append((p, tricks, self._score(p, tricks, record)))

    def _score(self, prediction: int, tricks: int, record: list[tuple[int, int, int]]) -> int:
        """The seat's gem actions after each trick (the bot's), then the round's score (TS-8)."""
        board = (0,) * ts.CHAMBERS
        supply = ts.GEMS_EACH
        allowances = self.allowances
        for place, won, played in record:
            p, m = allowances[place]
            cap = min(p, supply)
            if cap or m:
                board, placed = _ts_gems(board, cap, m, prediction, won, played, self.ring)
                supply -= placed
        if tricks > ts.MAX_PREDICTION:
            return 0
        return board[tricks] + (ts.EXPEDITION_BONUS if prediction == tricks else 0)


@lru_cache(maxsize=1 << 16)
def _ts_gems(
    own: tuple[int, ...], cap: int, moves: int, prediction: int, won: int, played: int, ring: bool
) -> tuple[tuple[int, ...], int]:
    """The bot's gem action (``HeuristicBot._gems``) as the layout after it and gems placed."""
    options = ts._gem_options(own, prediction, cap, moves, ring)
    target = float(won) if won >= prediction else float(min(prediction, won + ts.CARDS_EACH - played))
    weights = [max(0.0, 1.0 - 0.45 * abs(c - target)) for c in range(ts.CHAMBERS)]

    def value(layout: tuple[int, ...]) -> float:
        return sum(g * w for g, w in zip(layout, weights, strict=True))

    best = max(options, key=lambda a: value(options[a]))
    layout = options[best] if value(options[best]) > value(options[Skip()]) else own
    return layout, sum(layout) - sum(own)


# --- Band of Tricks ----------------------------------------------------------------------------------------

_BT_MODEL = (
    "Each sampled deal of the unseen cards was played out once by the heuristic bots, the seat's "
    "bot aiming for {played}; players still to bid bid as their bot would. Every bid was then "
    "scored on the tricks the seat won, each Metal win counted, when it was won, for the suit "
    "where it helped that bid most (as the seat's bot counts it); under Zero Success every trick counts."
)

# suit mask of a two-suit trick -> the index of the suit that wins it (BT-5)
_RPS_TOP = {
    (1 << a) | (1 << b): BAND_SUITS.index(bt._two_suit_winner(BAND_SUITS[a], BAND_SUITS[b]))
    for a in range(4)
    for b in range(4)
    if a != b
}
_POPCOUNT = [bin(m).count("1") for m in range(16)]
_METAL = BAND_SUITS.index(bt.METAL)


def _suit_points_table(size: int) -> list[list[int]]:
    return [[bt._suit_points(b, w) for w in range(size + 2)] for b in range(bt.MAX_BID + 1)]


class _BtSim:
    """Band of Tricks play-outs over card ids: a fast, unchecked copy of
    ``BandOfTricks.apply`` and of the heuristic bot's bids, plays and Metal choices."""

    def __init__(self, rules: bt.BandOfTricks, seat: int, start: int) -> None:
        order = _engine_order(rules)
        self.n = n = rules.players
        self.each = bt.CARDS_EACH[n]
        self.seat = seat
        self.start = start
        self.suit = [BAND_SUITS.index(c.suit) for c in order]
        self.rank = [c.rank for c in order]
        scale = _SCALE[n]
        self.chance = [max(0.0, min(1.0, (c.rank - _FLOOR[c.suit] + 1) / _SPAN)) * scale for c in order]
        self.lead_wins = [x >= 0.6 for x in self.chance]
        self.points = _suit_points_table(self.each)

    def bid_of(self, hand: list[int]) -> tuple[int, int, int] | None:
        """The bot's bid (``HeuristicBot._bid``): ``None`` for Zero Success."""
        expected = [0.0, 0.0, 0.0, 0.0]
        suit, chance = self.suit, self.chance
        for c in hand:
            expected[suit[c]] += chance[c]
        metal = expected[_METAL]
        if expected[0] + expected[1] + expected[2] + metal < _ZERO_BELOW:
            return None
        strongest = max(range(3), key=lambda j: expected[j])
        expected[strongest] += metal
        values = [max(0, min(bt.MAX_BID, round(expected[j]))) for j in range(3)]
        if values == [0, 0, 0]:
            return None
        return values[0], values[1], values[2]

    def assign(self, bid: tuple[int, int, int], won: list[int]) -> int:
        """The suit (0-2) the bot counts a Metal win for (``HeuristicBot._assign``)."""
        points = self.points
        best = -1
        best_key = (0, 0)
        for j in range(3):
            b, w = bid[j], won[j]
            key = (points[b][w + 1] - points[b][w], b - w - 1)
            if best < 0 or key > best_key:
                best, best_key = j, key
        return best

    def run(self, hands: list[list[int]], bids: list[tuple[int, int, int] | None]) -> tuple[int, ...]:
        """The seat's wins in trick order, as the suit index of each winning card (3: Metal)."""
        n, seat = self.n, self.seat
        suit, rank, lead_wins = self.suit, self.rank, self.lead_wins
        won = [[0, 0, 0, 0] for _ in range(n)]
        mine: list[int] = []
        leader = self.start
        for _ in range(self.each):
            trick: list[int] = []
            mask = 0
            top_rank = [-1, -1, -1, -1]
            high = -1
            follow = -1
            for i in range(n):
                s = (leader + i) % n
                hand = hands[s]
                if follow >= 0 and any(suit[c] == follow for c in hand):
                    legal = [c for c in hand if suit[c] == follow or suit[c] == _METAL]
                else:
                    legal = hand
                bid = bids[s]
                if bid is None:
                    need = (0, 0, 0)
                else:
                    w = won[s]
                    need = (bid[0] - w[0], bid[1] - w[1], bid[2] - w[2])
                any_need = need[0] > 0 or need[1] > 0 or need[2] > 0
                good = []
                losers = []
                useful = []
                for c in legal:
                    cs = suit[c]
                    u = any_need if cs == _METAL else need[cs] > 0
                    useful.append(u)
                    if i == 0:
                        wins = lead_wins[c]
                    else:
                        m = mask | (1 << cs)
                        k = _POPCOUNT[m]
                        if k == 1:
                            wins = rank[c] > top_rank[cs]
                        elif k == 2:
                            wins = cs == _RPS_TOP[m] and rank[c] > top_rank[cs]
                        else:
                            wins = rank[c] >= high
                    if wins:
                        if u:
                            good.append(c)
                    else:
                        losers.append((c, u))
                if good:
                    if i == n - 1:  # the cheapest winner, keeping Metal
                        card = min(good, key=lambda c: (suit[c] == _METAL, rank[c]))
                    else:
                        card = max(good, key=lambda c: (suit[c] != _METAL, rank[c]))
                elif losers:  # shed the most dangerous card
                    card = max(losers, key=lambda cu: (not cu[1], rank[cu[0]] if not cu[1] else -rank[cu[0]]))[0]
                else:
                    card = min(zip(legal, useful, strict=True), key=lambda cu: (cu[1], rank[cu[0]]))[0]
                hand.remove(card)
                cs = suit[card]
                if follow < 0 and cs != _METAL:
                    follow = cs
                trick.append(card)
                mask |= 1 << cs
                if rank[card] > top_rank[cs]:
                    top_rank[cs] = rank[card]
                if rank[card] > high:
                    high = rank[card]
            # the trick's winner (BT-5)
            k = _POPCOUNT[mask]
            if k == 1:
                top = max(range(n), key=lambda j: rank[trick[j]])
            elif k == 2:
                winning_suit = _RPS_TOP[mask]
                top = max((j for j in range(n) if suit[trick[j]] == winning_suit), key=lambda j: rank[trick[j]])
            else:
                top = max(range(n), key=lambda j: (rank[trick[j]], j))
            winner = (leader + top) % n
            best_suit = suit[trick[top]]
            if best_suit != _METAL:
                won[winner][best_suit] += 1
            else:
                bid = bids[winner]
                won[winner][3 if bid is None else self.assign(bid, won[winner])] += 1
            if winner == seat:
                mine.append(best_suit)
            leader = winner
        return tuple(mine)


def _bt_key(wins: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """The seat's wins as what Metal counting depends on: non-Metal wins per suit before each
    Metal win, then after the last one."""
    segments = []
    counts = [0, 0, 0]
    for s in wins:
        if s == _METAL:
            segments.append((counts[0], counts[1], counts[2]))
            counts = [0, 0, 0]
        else:
            counts[s] += 1
    segments.append((counts[0], counts[1], counts[2]))
    return tuple(segments)


def _advise_bt(
    rules: bt.BandOfTricks,
    view: bt.BandOfTricksView,
    seat: int,
    under_test: Action | None,
    samples: int,
    seed: int,
    sampler: DealSampler,
    rng: random.Random,
    ticker: _Ticker,
) -> Advice:
    sim = _BtSim(rules, seat, view.start_player)
    n = rules.players
    if under_test is None:
        own = sim.bid_of(sampler._known[seat])
        played: Bid = bt.ZERO if own is None else Bid(*own)
    else:
        assert isinstance(under_test, Bid)
        played = under_test
    made = [b if s != seat else played for s, b in enumerate(view.bids)]
    # bids as the play-outs use them: None for Zero Success; public bids are kept as made
    fixed = [None if b is None or b.zero else (b.rock, b.soul, b.pops) for b in made]
    pending = [s for s, b in enumerate(made) if b is None]  # still to bid: as their bot would
    keys: dict[tuple[tuple[int, int, int], ...], int] = {}
    ticker.tick(0)
    for done in range(1, samples + 1):
        hands, _ = sampler._sample_ids(rng)
        bids = fixed[:]
        for s in pending:
            bids[s] = sim.bid_of(hands[s])
        key = _bt_key(sim.run(hands, bids))
        keys[key] = keys.get(key, 0) + 1
        ticker.tick(done)
    estimates, metal = _score_all_bids(sim, keys, samples, n)
    model = _BT_MODEL.format(played="Zero Success" if played.zero else f"{played.rock} {played.soul} {played.pops}")
    return _advice(rules, view, seat, samples, seed, under_test, played, estimates, model, metal)


def _score_all_bids(
    sim: _BtSim, keys: Mapping[tuple[tuple[int, int, int], ...], int], samples: int, players: int
) -> tuple[list[BidEstimate], tuple[int, ...]]:
    """Every bid scored on the same play-outs (grouped by what Metal counting depends on)."""
    size = sim.each + 1
    points = sim.points
    change = [[points[b][w + 1] - points[b][w] for w in range(size)] for b in range(bt.MAX_BID + 1)]
    totals = [0] * size
    metal = [0] * size
    plain = [[0] * size for _ in range(3)]  # non-Metal wins per suit, for Zero Success
    fixed: dict[tuple[int, int, int], int] = {}  # keys without Metal: the wins are the same for every bid
    with_metal: list[tuple[tuple[tuple[int, int, int], ...], int]] = []
    for key, count in keys.items():
        r = sum(seg[0] for seg in key)
        s = sum(seg[1] for seg in key)
        p = sum(seg[2] for seg in key)
        m = len(key) - 1
        totals[r + s + p + m] += count
        metal[m] += count
        plain[0][r] += count
        plain[1][s] += count
        plain[2][p] += count
        if m:
            with_metal.append((key, count))
        else:
            fixed[(r, s, p)] = fixed.get((r, s, p), 0) + count
    zsp = bt.ZERO_SUCCESS_POINTS[players]
    zero_sum = zero_sq = 0
    for t, count in enumerate(totals):
        score = zsp if t == 0 else -t
        zero_sum += score * count
        zero_sq += score * score * count
    mean, stderr = _summary(zero_sum, zero_sq, samples)
    estimates = [
        BidEstimate(
            bt.ZERO, str(bt.ZERO), samples, tuple(totals), totals[0], totals[0] / samples, mean, stderr,
            tuple(tuple(h) for h in plain),
        )
    ]  # fmt: skip
    base_hist = [[0] * size for _ in range(3)]
    for (r, s, p), count in fixed.items():
        base_hist[0][r] += count
        base_hist[1][s] += count
        base_hist[2][p] += count
    fixed_items = list(fixed.items())
    for bid in bt.ALL_BIDS[1:]:
        br, bs, bp = bid.rock, bid.soul, bid.pops
        pr, ps, pp = points[br], points[bs], points[bp]
        cr, cs, cp = change[br], change[bs], change[bp]
        total = 0
        squares = 0
        hits = 0
        hist = [base_hist[0][:], base_hist[1][:], base_hist[2][:]]
        for (r, s, p), count in fixed_items:
            score = pr[r] + ps[s] + pp[p]
            total += score * count
            squares += score * score * count
            if r == br and s == bs and p == bp:
                hits += count
        for key, count in with_metal:
            r, s, p = key[0]
            for seg in key[1:]:  # a Metal win, then the next non-Metal wins (see _BtSim.assign)
                kr, ks, kp = (cr[r], br - r - 1), (cs[s], bs - s - 1), (cp[p], bp - p - 1)
                if kr >= ks and kr >= kp:
                    r += 1
                elif ks >= kp:
                    s += 1
                else:
                    p += 1
                r += seg[0]
                s += seg[1]
                p += seg[2]
            score = pr[r] + ps[s] + pp[p]
            total += score * count
            squares += score * score * count
            if r == br and s == bs and p == bp:
                hits += count
            hist[0][r] += count
            hist[1][s] += count
            hist[2][p] += count
        mean, stderr = _summary(total, squares, samples)
        estimates.append(
            BidEstimate(
                bid, str(bid), samples, tuple(totals), hits, hits / samples, mean, stderr, tuple(tuple(h) for h in hist)
            )
        )
    return estimates, tuple(metal)


# --- the entries a game names in its declaration (Capabilities.advice) ----------------------------------


@dataclass(frozen=True, slots=True)
class AdvisorEntry:
    """How the advisor works for one game. A game names its entry in its declaration
    (``Capabilities(advice=Ref("tricklab.advisor:TS_ADVICE"))``) and the advisor reads it there.

    ``view_type`` is the game's seat view, ``what`` names its bidding phase in messages,
    ``sort_hand`` sorts cards as the engine sorts a hand, ``round_of`` says which round a state
    is in, ``voids`` which suits a play reveals its player not to hold (from the state before
    the play, the card and the deck's suits), ``normalise_bid`` checks a bid as the game does,
    and ``advise`` runs the game's play-outs.
    """

    view_type: type[BiddingView]
    what: str
    sort_hand: Callable[[Iterable[Card]], tuple[Card, ...]]
    round_of: Callable[[Any], int]
    voids: Callable[[Any, Card, set[str]], set[str]]
    normalise_bid: Callable[[object], Action]
    advise: Callable[
        [Rules[Any], BiddingView, int, Action | None, int, int, DealSampler, random.Random, _Ticker], Advice
    ]


def _ts_round(state: ts.TricksAndStonesState) -> int:
    return state.round


def _ts_voids(before: ts.TricksAndStonesState, card: Card, suits: set[str]) -> set[str]:
    """Not following the led suit (ts.follow); leading a trump before trumps are broken
    (ts.trump.lead: only trumps were left)."""
    trick = before.trick
    if trick:
        return {trick[0].suit} if card.suit != trick[0].suit else set()
    if card.suit == before.trump and not before.trump_broken:
        return suits - {card.suit}
    return set()


def _ts_advise(
    rules: Rules[Any],
    view: BiddingView,
    seat: int,
    under_test: Action | None,
    samples: int,
    seed: int,
    sampler: DealSampler,
    rng: random.Random,
    ticker: _Ticker,
) -> Advice:
    assert isinstance(rules, ts.TricksAndStones) and isinstance(view, ts.TricksAndStonesView)
    return _advise_ts(rules, view, seat, under_test, samples, seed, sampler, rng, ticker)


def _bt_round(state: bt.BandOfTricksState) -> int:
    return state.deal


def _bt_voids(before: bt.BandOfTricksState, card: Card, suits: set[str]) -> set[str]:
    """Not following the suit to follow (bt.follow); playing Metal reveals nothing."""
    follow = bt._to_follow(before.trick)
    return {follow} if follow is not None and card.suit not in (follow, bt.METAL) else set()


def _bt_advise(
    rules: Rules[Any],
    view: BiddingView,
    seat: int,
    under_test: Action | None,
    samples: int,
    seed: int,
    sampler: DealSampler,
    rng: random.Random,
    ticker: _Ticker,
) -> Advice:
    assert isinstance(rules, bt.BandOfTricks) and isinstance(view, bt.BandOfTricksView)
    return _advise_bt(rules, view, seat, under_test, samples, seed, sampler, rng, ticker)


TS_ADVICE = AdvisorEntry(
    ts.TricksAndStonesView, "the prediction phase", ts._sort_hand, _ts_round, _ts_voids, _ts_bid, _ts_advise
)
BT_ADVICE = AdvisorEntry(
    bt.BandOfTricksView, "the bid phase", bt._sort_hand, _bt_round, _bt_voids, bt._check_bid_input, _bt_advise
)
