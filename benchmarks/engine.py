"""Engine speed, like for like: random play of whole hands, tricklab beside OpenSpiel, in one run.

A *hand* is one deal played out, from the deal to the start of the next deal:

* Tricks & Stones, 4 players: the deal of round 1 (32 cards, 8 each), the 4 secret predictions,
  8 tricks of 4 cards, and every gem action (place, move or skip) after each trick, until round 2
  is dealt (``state.round`` changes).
* Band of Tricks, 4 players: the deal (10 cards each), the 4 bids, 10 tricks of 4 cards and every
  Metal choice, until the deal is scored and the next one dealt (``state.deal`` changes).
* Jewel Vault, 4 players: the deal of round 1 (10 cards each, 12 aside), the dealer's announcement,
  the 4 passes, 10 tricks of 4 cards and every ♣ choice of whose showroom to take from (during
  the tricks and at the round's end), until round 2 is dealt (``state.round`` changes).
* Oh Hell, 4 players, a match of one deal (``direction="once"``, 5 cards, :data:`OPTIONS`), as
  OpenSpiel plays it: the deal (5 cards each from 52, one turned up for trump), the 4 bids, 5 tricks
  and the score, until the match is over.
* Hearts, 4 players, a match of one hand (``target=1``: the first hand's 26 points always reach
  it), as OpenSpiel plays it: the deal (13 cards each), the 4 passes of three cards (one decision
  each), 13 tricks and the score, until the match is over.

Each game is compared with an OpenSpiel peer (:data:`PEERS`), a whole hand against a whole hand:

* ``oh_hell 32`` for the three 32-card games: 4 players, 4 suits x 9 cards,
  ``num_tricks_fixed=8`` (the nearest setting: OpenSpiel turns up a trump from the undealt cards,
  so 32 cards allow only 7 tricks): every chance action (the number of tricks, fixed here to one
  outcome; the dealer; the deal card by card; the trump card), 4 bids and 8 tricks, until the state
  is terminal.
* ``oh_hell 52x5`` for Oh Hell: the same game with 52 cards and 5 tricks, Oh Hell's first deal.
* ``hearts`` for Hearts: OpenSpiel's defaults, the pass direction and the deal as chance actions,
  each of the three passed cards one decision, 13 tricks.

Each tricklab game runs through three APIs, and a fourth line for information:

* ``core``: the core's own step, ``rules.core_initial(seed)``, ``rules.core_legal(state)`` (the
  ids of the listed actions) and ``rules.core_step(state, action_id)``: the one implementation of
  the rules, which everything else runs on (a game not yet on the core has no such line). For a
  game written as a round (``rules.core_round``: every trick game)
  ``core`` is that round driven
  directly, ``(seat, listed ids)`` yielded and the id sent back, from a deal shuffled by the
  measurement's own random source (``rules.core_deal``: a simulation needs no record's deal), as
  the advisor's play-outs run; ``core step`` is then the step-at-a-time API above, each call
  starting the round afresh from the state it is given (for information, no target). A hand of
  Tricks & Stones, Band of Tricks or Jewel Vault (one round or deal of a longer match) is played on the round
  until the running deal's next round or deal starts; its ``Match`` plays the whole match and
  counts the hands dealt, so that no state is packed only to see where a hand ends.
* ``state``: the checked state step, ``rules.initial_state(seed)``, ``rules.legal_actions(state)``
  and ``rules.apply(state, action)`` (``apply`` checks the action against the rules).
* ``Match``: the checked public API, ``rules.new_match(seed)``, ``match.legal_actions()`` and
  ``match.apply(action)``.
* ``Match+view`` (for information, no target): the same plus ``match.view(seat)`` before every
  decision, which is what a bot loop pays.

Actions counted: for tricklab the decisions applied (the deal is inside ``initial_state`` and is
not an action); for OpenSpiel every ``apply_action``, chance actions included (35 of ``oh_hell
32``'s 71).
Every random choice is the same draw on every side, ``legal[int(random() * len(legal))]`` from one
``random.Random`` per measurement; OpenSpiel's chance outcomes are uniform here (checked at start),
so its chance actions draw from ``state.legal_actions()`` as well.

Each measurement plays hands for ``--seconds``; the lines are interleaved, one measurement of each
per repeat, in an order that rotates from repeat to repeat, so drift of a shared machine hits every
side alike. Figures are medians over the repeats; a ratio is the median of the per-repeat ratios
(a line's hands/s over OpenSpiel's hands/s in the same repeat). Compare figures only within a run.

``--where`` adds where the time goes, measured on recorded hands: the deal (``initial_state`` /
``new_match``), ``legal_actions``, ``apply``, the random draw, the ``Match`` bookkeeping and
``view``, then the heaviest functions of one game's state loop under cProfile.

Usage: python benchmarks/engine.py [--quick] [--seconds 1.0] [--repeats 5] [--seed 1] [--where] [--game NAME]
Prints figures; asserts nothing. OpenSpiel comes with ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import platform
import pstats
import random
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import tricklab
from tricklab.games.core import CoreRules

# (label, game name, players, state field that changes when the next deal starts, OpenSpiel peer);
# no field where the hand is the whole match (:data:`OPTIONS`): it is played until the match is
# over, as OpenSpiel plays to its terminal state
GAMES = (
    ("Tricks & Stones", "tricks-and-stones", 4, "round", "oh_hell 32"),
    ("Band of Tricks", "band-of-tricks", 4, "deal", "oh_hell 32"),
    ("Jewel Vault", "jewel-vault", 4, "round", "oh_hell 32"),
    ("Oh Hell", "oh-hell", 4, None, "oh_hell 52x5"),
    ("Hearts", "hearts", 4, None, "hearts"),
)
#: each game's options where they differ from its defaults: a match of one deal, as OpenSpiel plays
#: (Oh Hell: one deal of 5; Hearts: a target of 1 point, which the first hand always reaches)
OPTIONS: dict[str, dict[str, Any]] = {"oh-hell": {"direction": "once", "cards": 5}, "hearts": {"target": 1}}


def rules_of(name: str, players: int) -> Any:
    return tricklab.get_rules(name, players=players, **OPTIONS.get(name, {}))


# each peer: OpenSpiel's game and its parameters, and what its chance actions are
PEERS: dict[str, tuple[str, dict[str, int], str]] = {
    # the nearest to a 32-card trick game: OpenSpiel turns up a trump from the undealt cards, so 32
    # cards allow only 7 tricks of 4
    "oh_hell 32": (
        "oh_hell",
        {"players": 4, "num_suits": 4, "num_cards_per_suit": 9, "num_tricks_fixed": 8},
        "number of tricks, dealer, the deal card by card, trump card",
    ),
    # Oh Hell's own first deal at 4 players: 52 cards, 5 each, one turned up
    "oh_hell 52x5": (
        "oh_hell",
        {"players": 4, "num_suits": 4, "num_cards_per_suit": 13, "num_tricks_fixed": 5},
        "number of tricks, dealer, the deal card by card, trump card",
    ),
    # OpenSpiel passes three cards one at a time (tricklab: the three as one decision)
    "hearts": ("hearts", {}, "pass direction, the deal card by card"),
}
SPIEL_PARAMS = PEERS["oh_hell 32"][1]
TARGETS = {"core": 1.0, "Match": 0.5}  # x the peer's hands/s

# A hand function plays one hand with ``seed`` (the deal) and ``random_`` (the choices) and returns
# the number of actions applied (or, having played a whole match, its actions and hands).
HandFn = Callable[[int, Callable[[], float]], "int | tuple[int, int]"]


# --- the loops -------------------------------------------------------------------------------------


def core_hand(rules: Any, key: str | None) -> HandFn:
    """One hand through the core: ``core_initial``, ``core_legal`` (action ids), ``core_step``
    (unchecked: the id is drawn from the listed ones)."""
    legal, step, initial = rules.core_legal, rules.core_step, rules.core_initial

    def play(seed: int, random_: Callable[[], float]) -> int:
        state = initial(seed, None)
        first = getattr(state, key) if key else None
        actions = 0
        while state.to_play is not None and (key is None or getattr(state, key) == first):
            ids = legal(state)
            state = step(state, ids[int(random_() * len(ids))])
            actions += 1
        return actions

    return play


#: the decisions of a hand, from the state just dealt, for each game whose rules are a round
#: (``core_round``): the round runs on past the hand, so the hand is cut at its length
ROUND_HAND: dict[str, Callable[[Any], int]] = {
    "oh-hell": lambda state: len(state.held) * (1 + state.size),  # the bids and every card of the deal
    "hearts": lambda state: 4 + 52 if state.direction else 52,  # the passes (if any) and every card
}


def round_hand(rules: Any, decisions_of: Callable[[Any], int]) -> HandFn:
    """One hand through the round (``core_round``) driven directly, as a simulation plays out: the
    deal shuffled by the running random source (``core_deal``: a simulation's deal, not a record's),
    then ``(seat, ids)`` at each decision and the id sent back; no state is packed."""
    deal, start = rules.core_deal, rules.core_round

    def play(seed: int, random_: Callable[[], float]) -> int:
        state = deal(random_.__self__.getrandbits, seed % rules.players)  # type: ignore[attr-defined]
        decisions = decisions_of(state)
        round_ = start(state, None)
        send = round_.send
        _, ids = next(round_)
        for _ in range(decisions - 1):
            _, ids = send(ids[int(random_() * len(ids))])
        with contextlib.suppress(StopIteration):  # the hand was the match
            send(ids[int(random_() * len(ids))])
        return decisions

    return play


#: the games whose rules are a round and whose hand is one deal of a longer match: the deal's field
#: that changes when the next deal starts (read on the running deal, ``rules.live_deal``)
ROUND_UNTIL: dict[str, str] = {"tricks-and-stones": "rnd", "band-of-tricks": "deal", "jewel-vault": "rnd"}


def round_hand_until(rules: Any, field: str) -> HandFn:
    """One hand through the round as :func:`round_hand`, for a game whose hand has no fixed number
    of decisions (Tricks & Stones' gem actions): played until the running deal's ``field`` changes
    (the next deal started), read after each decision. The hand's last decision runs on into the
    next deal (the record's seeded deal), so its time holds two deals: against the game, not for it."""
    deal_of, live = rules.core_deal, rules.live_deal

    def play(seed: int, random_: Callable[[], float]) -> int:
        deal, round_ = live(deal_of(random_.__self__.getrandbits, seed % rules.players))  # type: ignore[attr-defined]
        send = round_.send
        first = getattr(deal, field)
        _, ids = next(round_)
        decisions = 0
        with contextlib.suppress(StopIteration):  # the hand was the match
            while getattr(deal, field) == first:
                _, ids = send(ids[int(random_() * len(ids))])
                decisions += 1
        return decisions

    return play


def decisions_per_hand(rules: Any, key: str | None, hands: int = 200) -> int:
    """The mean number of decisions of a randomly played hand, through the core (rounded)."""
    legal, step, initial = rules.core_legal, rules.core_step, rules.core_initial
    random_ = random.Random(0).random
    total = 0
    for seed in range(hands):
        state = initial(seed, None)
        first = getattr(state, key) if key else None
        while state.to_play is not None and (key is None or getattr(state, key) == first):
            ids = legal(state)
            state = step(state, ids[int(random_() * len(ids))])
            total += 1
    return round(total / hands)


def floor_hand(rules: Any, key: str | None, decisions: int) -> HandFn:
    """The least any pure-Python step of such a hand pays, for scale (no target): the core's own
    deal, then per decision (as many as a hand has on average) one random draw from a tuple of
    eight ids and one new state tuple of the game's size; no rule is checked or applied."""
    initial = rules.core_initial
    draws = (0, 1, 2, 3, 4, 5, 6, 7)
    new = tuple.__new__

    def play(seed: int, random_: Callable[[], float]) -> int:
        state = initial(seed, None)
        cls = type(state)
        for _ in range(decisions):
            state = new(cls, state)
            draws[int(random_() * 8)]
        return decisions

    return play


def state_hand(rules: Any, key: str | None) -> HandFn:
    """One hand through the checked state step: ``initial_state``, ``legal_actions``, ``apply``."""
    legal_actions, apply, initial_state = rules.legal_actions, rules.apply, rules.initial_state

    def play(seed: int, random_: Callable[[], float]) -> int:
        state = initial_state(seed)
        first = getattr(state, key) if key else None
        actions = 0
        while state.to_play is not None and (key is None or getattr(state, key) == first):
            legal = legal_actions(state)
            state = apply(state, legal[int(random_() * len(legal))])
            actions += 1
        return actions

    return play


def match_hand(rules: Any, key: str | None, *, views: bool = False) -> HandFn:
    """Hands through the checked public API: ``new_match``, ``match.legal_actions``,
    ``match.apply`` (and ``match.view(seat)`` before each decision with ``views``). A game with
    a ``key`` is played to the match's end and counted as the hands it dealt: a match on a round
    packs a state only when asked, and asking for ``match.state`` at every decision to see the
    next deal start would measure that packing, not the match."""

    def play(seed: int, random_: Callable[[], float]) -> int | tuple[int, int]:
        match = rules.new_match(seed)
        actions = 0
        while not match.is_over:
            if views:
                match.view(match.to_play)
            legal = match.legal_actions()
            match.apply(legal[int(random_() * len(legal))])
            actions += 1
        return actions if key is None else (actions, getattr(match.state, key) + 1)

    return play


def spiel_hand(game: Any) -> HandFn:
    """One OpenSpiel hand from Python: chance actions and decisions alike drawn from
    ``state.legal_actions()`` (the chance outcomes are uniform, see :func:`check_spiel_uniform`)."""

    def play(seed: int, random_: Callable[[], float]) -> int:
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(random_() * len(legal))])
            actions += 1
        return actions

    return play


def load_spiel(peer: str = "oh_hell 32") -> Any | None:
    """OpenSpiel's game for ``peer`` (a key of :data:`PEERS`), or ``None`` without OpenSpiel."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    name, params, _ = PEERS[peer]
    return pyspiel.load_game(name, params)


def check_spiel_uniform(game: Any, hands: int = 20) -> tuple[float, float]:
    """Check that every chance node of the OpenSpiel ``game`` is uniform and lists its outcomes in the order
    of ``legal_actions()``; return the mean chance actions and decisions per hand."""
    rng = random.Random(0)
    chance = decisions = 0
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                probs = [p for _, p in outcomes]
                if [a for a, _ in outcomes] != legal or max(probs) - min(probs) > 1e-12:
                    raise SystemExit(f"{game}'s chance outcomes are not uniform: the loop would not be fair")
                chance += 1
            else:
                decisions += 1
            state.apply_action(legal[int(rng.random() * len(legal))])
    return chance / hands, decisions / hands


# --- measuring ---------------------------------------------------------------------------------------


@dataclass
class Line:
    game: str  # for OpenSpiel, the peer's key in PEERS
    api: str
    play: HandFn
    hands_s: list[float]
    us_action: list[float]
    actions_hand: list[float]
    peer: str = ""  # the key in PEERS of the OpenSpiel game it is compared with


def measure(play: HandFn, seconds: float, seed: int) -> tuple[float, float, float]:
    """Hands per second, µs per action and actions per hand of ``play`` over about ``seconds``;
    the hands are dealt from ``seed``, ``seed + 1``, ... and choose from ``random.Random(seed)``."""
    random_ = random.Random(seed).random
    clock = time.perf_counter
    hands = actions = 0
    start = clock()
    deadline = start + seconds
    while True:
        played = play(seed + hands, random_)
        if isinstance(played, tuple):
            actions, hands = actions + played[0], hands + played[1]
        else:
            actions, hands = actions + played, hands + 1
        now = clock()
        if now >= deadline:
            elapsed = now - start
            return hands / elapsed, elapsed * 1e6 / actions, actions / hands


def run(lines: list[Line], seconds: float, repeats: int, seed: int) -> None:
    for line in lines:  # warm up: caches, lazy tables, imports
        measure(line.play, min(seconds, 0.2), seed)
    for r in range(repeats):
        k = r % len(lines)
        for line in lines[k:] + lines[:k]:
            hands_s, us_action, per_hand = measure(line.play, seconds, seed + 1000 * r)
            line.hands_s.append(hands_s)
            line.us_action.append(us_action)
            line.actions_hand.append(per_hand)


# --- where the time goes ---------------------------------------------------------------------------------


def record_hands(rules: Any, key: str | None, seeds: range) -> list[tuple[int, list[Any], list[Any]]]:
    """Play ``seeds`` through the state step; keep each hand's states (before each decision) and actions."""
    random_ = random.Random(seeds.start).random
    hands = []
    for seed in seeds:
        state = rules.initial_state(seed)
        first = getattr(state, key) if key else None
        states, actions = [], []
        while state.to_play is not None and (key is None or getattr(state, key) == first):
            legal = rules.legal_actions(state)
            action = legal[int(random_() * len(legal))]
            states.append(state)
            actions.append(action)
            state = rules.apply(state, action)
        hands.append((seed, states, actions))
    return hands


def best_of(fn: Callable[[], object], times: int = 5) -> float:
    """The shortest of ``times`` runs of ``fn``, in seconds."""
    best = float("inf")
    for _ in range(times):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def each(fn: Callable[..., object], calls: Iterable[tuple[Any, ...]]) -> None:
    """Call ``fn(*args)`` for every ``args``, keeping no result (as the loops keep none)."""
    for args in calls:
        fn(*args)


def where_tricklab(label: str, name: str, players: int, key: str | None, n: int) -> None:
    """Per-hand µs of each part of the state and Match loops, each timed alone over the same hands."""
    rules = rules_of(name, players)
    hands = record_hands(rules, key, range(1, n + 1))
    decisions = sum(len(a) for _, _, a in hands)
    legal_actions, apply, initial_state = rules.legal_actions, rules.apply, rules.initial_state

    def deal() -> None:
        for seed, _, _ in hands:
            initial_state(seed)

    def new_match() -> None:
        for seed, _, _ in hands:
            rules.new_match(seed)

    def legal() -> None:
        for _, states, _ in hands:
            for state in states:
                legal_actions(state)

    def step() -> None:
        for _, states, actions in hands:
            for state, action in zip(states, actions, strict=True):
                apply(state, action)

    sizes = [len(legal_actions(s)) for _, states, _ in hands for s in states]

    def draw() -> None:
        random_ = random.Random(0).random
        for size in sizes:
            int(random_() * size)

    def match_replay() -> None:  # new_match + Match.apply of the recorded actions (no legal_actions)
        for seed, _, actions in hands:
            match = rules.new_match(seed)
            for action in actions:
                match.apply(action)

    def state_replay() -> None:  # initial_state + apply, chained as the Match does
        for seed, _, actions in hands:
            state = initial_state(seed)
            for action in actions:
                state = apply(state, action)

    def views() -> None:
        for _, states, _ in hands:
            for state in states:
                rules.view(state, state.to_play)

    def whole_state() -> None:
        play = state_hand(rules, key)
        random_ = random.Random(1).random
        for seed, _, _ in hands:
            play(seed, random_)

    def whole_match() -> None:
        play = match_hand(rules, key)
        random_ = random.Random(1).random
        for seed, _, _ in hands:
            play(seed, random_)

    parts_fn = {
        "deal": deal,
        "new_match": new_match,
        "legal": legal,
        "step": step,
        "draw": draw,
        "match_replay": match_replay,
        "state_replay": state_replay,
        "views": views,
        "whole_state": whole_state,
        "whole_match": whole_match,
    }
    t = {part: best_of(fn) * 1e6 / n for part, fn in parts_fn.items()}
    bookkeeping = t["match_replay"] - t["state_replay"]
    print(f"\n  {label}: {n} recorded hands, {decisions / n:.1f} decisions a hand, µs per hand (best of 5)")
    print(f"    state loop, whole                     {t['whole_state']:8.1f}")
    rows = [
        ("the deal: initial_state", t["deal"]),
        ("legal_actions, every decision", t["legal"]),
        ("apply, every decision", t["step"]),
        ("random draw + list index", t["draw"]),
    ]
    parts = sum(v for _, v in rows)
    for what, value in rows:
        print(f"      {what:36s}{value:8.1f}  {value / parts:5.1%} of the parts")
    print(f"    Match loop, whole                     {t['whole_match']:8.1f}")
    print(f"      new_match instead of initial_state  {t['new_match'] - t['deal']:+8.1f}")
    print(f"      Match.apply bookkeeping             {bookkeeping - (t['new_match'] - t['deal']):+8.1f}")
    print(f"      (view(seat), every decision, if a bot asks: {t['views']:.1f})")
    print(f"    by phase: {'decisions':>9s} {'legal_actions':>13s} {'apply':>8s}  (µs per hand)")
    for phase in dict.fromkeys(str(s.phase) for _, states, _ in hands for s in states):
        pairs = [(s, a) for _, states, actions in hands for s, a in zip(states, actions, strict=True)]
        pairs = [(s, a) for s, a in pairs if str(s.phase) == phase]
        legal_t = best_of(lambda pairs=pairs: each(legal_actions, ((s,) for s, _ in pairs))) * 1e6 / n
        apply_t = best_of(lambda pairs=pairs: each(apply, pairs)) * 1e6 / n
        print(f"      {phase:12s} {len(pairs) / n:9.1f} {legal_t:13.1f} {apply_t:8.1f}")


def where_spiel(game: Any, n: int, peer: str) -> None:
    """Per-hand µs of OpenSpiel's parts: replays of recorded action lists against the whole loop."""
    play = spiel_hand(game)
    recorded: list[list[int]] = []
    random_ = random.Random(1).random
    for _ in range(n):
        state = game.new_initial_state()
        seq = []
        while not state.is_terminal():
            legal = state.legal_actions()
            action = legal[int(random_() * len(legal))]
            seq.append(action)
            state.apply_action(action)
        recorded.append(seq)

    def whole() -> None:
        draw = random.Random(1).random
        for i in range(n):
            play(i, draw)

    def new_state() -> None:
        for _ in range(n):
            game.new_initial_state()

    def replay() -> None:
        for seq in recorded:
            state = game.new_initial_state()
            for action in seq:
                state.apply_action(action)

    for seq in recorded:  # the replay plays the same hands out
        state = game.new_initial_state()
        for action in seq:
            state.apply_action(action)
        assert state.is_terminal()
    w, s, r = (best_of(f) * 1e6 / n for f in (whole, new_state, replay))
    actions = sum(len(q) for q in recorded) / n
    print(f"\n  OpenSpiel {peer}: {n} hands, {actions:.1f} actions a hand (chance included), µs per hand")
    print(f"    whole loop                            {w:8.1f}")
    print(f"      new_initial_state                   {s:8.1f}")
    print(f"      apply_action, every action          {r - s:8.1f}")
    print(f"      legal_actions, is_terminal, draw    {w - r:8.1f}  (whole loop minus the replay)")


def profile_state_loop(label: str, name: str, players: int, key: str | None, n: int, top: int = 10) -> None:
    """The functions with the most own time in ``n`` hands of a game's state loop, under cProfile."""
    rules = rules_of(name, players)
    play = state_hand(rules, key)
    random_ = random.Random(1).random
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(1, n + 1):
        play(seed, random_)
    profiler.disable()
    rows = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = max(cumulative for _, _, _, cumulative, _ in rows.values())  # the whole loop
    print(f"\n  {label}, state loop under cProfile ({n} hands; shares of the loop, cProfile inflates small calls):")
    print(f"    {'own':>6s} {'incl.':>6s} {'calls/hand':>10s}  function")
    ranked = sorted(rows.items(), key=lambda item: -item[1][2])[:top]
    for (filename, lineno, func), (_, calls, own, cumulative, _) in ranked:
        where = filename.split("/tricklab/")[-1] if "/tricklab/" in filename else filename.rsplit("/", 1)[-1]
        place = f"{where}:{lineno} {func}" if lineno else func
        print(f"    {own / total:6.1%} {cumulative / total:6.1%} {calls / n:10.1f}  {place}")


def resolve_trick_us(seconds: float, repeats: int) -> None:
    """µs per ``resolve_trick`` of one full trick per game, as text, as Cards, and with its reasons;
    the nine calls are interleaved, ``seconds`` each per repeat."""
    samples = (
        ("Tricks & Stones", "tricks-and-stones", ["7H", "AH", "8S", "KD"], {"trump": "S"}),
        ("Band of Tricks", "band-of-tricks", ["P3", "S5", "R13", "M13"], {}),
        ("Jewel Vault", "jewel-vault", ["7H", "AH", "8S", "KD"], {}),
    )
    calls: list[tuple[str, str, Callable[[], object]]] = []
    for label, name, trick, context in samples:
        rules = rules_of(name, 4)
        cards = rules.cards(trick)
        resolve = rules.resolve_trick
        calls.append((label, "as text", lambda r=resolve, t=trick, c=context: r(t, **c)))
        calls.append((label, "as Cards", lambda r=resolve, t=cards, c=context: r(t, **c)))
        calls.append((label, "+ reasons", lambda r=resolve, t=cards, c=context: r(t, **c).reasons))
    times: dict[tuple[str, str], list[float]] = {(label, what): [] for label, what, _ in calls}
    for _ in range(repeats):
        for label, what, call in calls:
            count = 0
            start = time.perf_counter()
            deadline = start + seconds
            while (now := time.perf_counter()) < deadline:
                for _ in range(100):
                    call()
                count += 100
            times[label, what].append((now - start) * 1e6 / count)
    print("\nresolve_trick, one trick of 4 cards, µs a call (median of the repeats):")
    for label, _, _ in calls[::3]:
        figures = ", ".join(
            f"{what} {statistics.median(times[label, what]):.1f}" for what in ("as text", "as Cards", "+ reasons")
        )
        print(f"  {label:18s} {figures}")


# --- report ----------------------------------------------------------------------------------------------


def report(lines: list[Line], peers: dict[str, Line], args: argparse.Namespace, chance: dict[str, float]) -> None:
    med = statistics.median
    print(
        f"tricklab engine benchmark: random play of whole hands, {args.repeats} interleaved repeats of "
        f"{args.seconds:g} s per line, medians, seed {args.seed}"
    )
    print(
        f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
        f"tricklab {tricklab.__version__} from {tricklab.__file__.rsplit('/', 2)[0]}; "
        "compare figures only within one run"
    )
    print()
    head = f"{'game':18s} {'API':11s} {'hands/s':>9s} {'µs/hand':>8s} {'actions/hand':>12s} {'µs/action':>9s}"
    if peers:
        head += f" {'peer':>13s} {'x peer hands/s':>15s} {'target':>13s}"
    print(head)
    print("-" * len(head))

    def row(label: str, line: Line) -> str:
        hands = med(line.hands_s)
        return (
            f"{label:18s} {line.api:11s} {hands:9,.0f} {1e6 / hands:8,.0f} "
            f"{med(line.actions_hand):12.1f} {med(line.us_action):9.2f}"
        )

    for key, spiel in peers.items():
        print(row(f"OpenSpiel {PEERS[key][0]}", spiel) + f" {key:>13s}")
    for line in lines:
        text = row(line.game, line)
        spiel = peers.get(line.peer)
        if spiel is not None:
            ratio = med(a / b for a, b in zip(line.hands_s, spiel.hands_s, strict=True))
            target = TARGETS.get(line.api)
            verdict = "" if target is None else f"≥ {target:.1f}: {'met' if ratio >= target else 'not met'}"
            text += f" {line.peer:>13s} {ratio:14.2f}x {verdict:>13s}"
        print(text)
    print()
    print(
        "floor = the core's deal plus, per decision, one random draw and one new state tuple: the least a "
        "pure-Python step pays (no rule applied; for scale, no target)"
    )
    print(
        "core = the rules' one implementation, action ids: for a game written as a round (every trick game) "
        "the round (rules.core_round) driven directly from a deal shuffled by the running random source "
        "(rules.core_deal), as a simulation plays; for the others rules.core_initial / core_legal / core_step"
    )
    print(
        "core step = a round's game through core_initial / core_legal / core_step, each call starting the "
        "round from the state it is given (for information, no target)"
    )
    print("state = rules.initial_state / legal_actions / apply (the checked step on the core's states)")
    print("Match = rules.new_match / match.legal_actions / match.apply (the checked public API)")
    print("Match+view = Match plus match.view(seat) before every decision (what a bot loop pays; no target)")
    print("tricklab actions = decisions applied (the deal is not an action)")
    if not peers:
        print("OpenSpiel is missing: install it with pip install -e '.[bench]' to compare side by side")
        return
    print("OpenSpiel actions = every apply_action, chance actions included, played from Python:")
    for key in peers:
        name, params, what = PEERS[key]
        print(f"  {key}: {name} {params or '(defaults)'}, {chance[key]:.0f} chance actions a hand ({what})")
    print("ratio = median over the repeats of (line's hands/s ÷ its peer's hands/s in the same repeat)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement (default 1.0)")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved repeats, medians reported (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="first deal seed and random seed (default 1)")
    parser.add_argument("--quick", action="store_true", help="a short run: 0.2 s per measurement, 5 repeats")
    parser.add_argument("--where", action="store_true", help="also measure where the time goes")
    parser.add_argument("--game", action="append", help="only this game (by name, e.g. oh-hell; repeatable)")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.repeats = 0.2, 5
    games = [g for g in GAMES if not args.game or g[1] in args.game]

    lines: list[Line] = []
    for label, name, players, key, peer in games:
        rules = rules_of(name, players)
        if isinstance(rules, CoreRules):
            floor = floor_hand(rules, key, decisions_per_hand(rules, key))
            lines.append(Line(label, "floor", floor, [], [], [], peer))
            if name in ROUND_HAND or name in ROUND_UNTIL:  # the core is the round; its step adapter for information
                hand = (
                    round_hand(rules, ROUND_HAND[name])
                    if name in ROUND_HAND
                    else round_hand_until(rules, ROUND_UNTIL[name])
                )
                lines.append(Line(label, "core", hand, [], [], [], peer))
                lines.append(Line(label, "core step", core_hand(rules, key), [], [], [], peer))
            else:
                lines.append(Line(label, "core", core_hand(rules, key), [], [], [], peer))
        lines.append(Line(label, "state", state_hand(rules, key), [], [], [], peer))
        lines.append(Line(label, "Match", match_hand(rules, key), [], [], [], peer))
        lines.append(Line(label, "Match+view", match_hand(rules, key, views=True), [], [], [], peer))
    peers: dict[str, Line] = {}
    chance: dict[str, float] = {}
    for peer in dict.fromkeys(g[4] for g in games):
        game = load_spiel(peer)
        if game is not None:
            chance[peer], _ = check_spiel_uniform(game)
            peers[peer] = Line(peer, "from Python", spiel_hand(game), [], [], [])
    run(lines + list(peers.values()), args.seconds, args.repeats, args.seed)
    report(lines, peers, args, chance)
    resolve_trick_us(args.seconds / 4, args.repeats)

    if args.where:
        n = 100 if args.quick else 400
        print("\nwhere the time goes (each part timed alone over the same recorded hands):")
        for label, name, players, key, _ in games:
            where_tricklab(label, name, players, key, n)
        for peer in peers:
            where_spiel(load_spiel(peer), n, peer)
        for label, name, players, key, _ in games:
            profile_state_loop(label, name, players, key, n)


if __name__ == "__main__":
    main()
