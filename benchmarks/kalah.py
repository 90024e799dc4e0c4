"""Kalah, like for like: random games beside OpenSpiel's ``mancala``, and the search's answer time.

Two measurements, each side by side in one run (compare figures only within a run):

* **Random games.** Whole games of Kalah(6,4) with a random legal move each turn, from the
  start to the end, in three ways: tricklab's core (``core_initial``/``core_legal``/``core_step``),
  tricklab's checked ``Match`` (``new_match``/``legal_actions``/``apply``), and OpenSpiel's
  ``mancala`` from a Python loop (``new_initial_state``/``legal_actions``/``apply_action``), the
  anchor. Every side draws ``legal[int(random() * len(legal))]`` from one ``random.Random``
  seeded alike, so each side plays the same games (the two rule sets agree move for move, as
  ``tests/test_kalah.py`` checks). The figure is games/s; the ratio is against OpenSpiel in the
  same repeat.
* **The search.** ``SearchBot`` (alpha-beta, its default budget of search time) decides each position of a seeded
  game; its wall time per decision is reported (target: at most 0.2 s, the budget plus the
  answer), beside the depth it reached and the time of one ``try_moves`` of the same positions
  (every move with its outcome and the searched value at a fixed depth of 8).

Usage: python benchmarks/kalah.py [--seconds 1.0] [--repeats 5] [--positions 30]
Prints figures; asserts nothing. OpenSpiel comes with the test extra (``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import tricklab
from tricklab.games.kalah.bots import BUDGET, SearchBot
from tricklab.moves import try_moves

RULES = tricklab.get_rules("kalah", players=2)


def core_games(rng: random.Random) -> int:
    state = RULES.core_initial(0, None)
    while state.to_play is not None:
        legal = RULES.core_legal(state)
        state = RULES.core_step(state, legal[int(rng.random() * len(legal))])
    return 1


def match_games(rng: random.Random) -> int:
    match = RULES.new_match(seed=0)
    while not match.is_over:
        legal = match.legal_actions()
        match.apply(legal[int(rng.random() * len(legal))])
    return 1


def openspiel_games(game: object) -> Callable[[random.Random], int]:
    def play(rng: random.Random) -> int:
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        return 1

    return play


def rate(play: Callable[[random.Random], int], seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += play(rng)
    return done / elapsed


def random_games(seconds: float, repeats: int) -> None:
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed (pip install open_spiel): no anchor, no comparison")
        return
    sides: dict[str, Callable[[random.Random], int]] = {
        "OpenSpiel mancala (Python loop)": openspiel_games(pyspiel.load_game("mancala")),
        "tricklab core": core_games,
        "tricklab Match (checked)": match_games,
    }
    figures: dict[str, list[float]] = {name: [] for name in sides}
    ratios: dict[str, list[float]] = {name: [] for name in sides}
    names = list(sides)
    for r in range(repeats):
        order = names[r % len(names) :] + names[: r % len(names)]  # rotate: drift hits every side
        got = {name: rate(sides[name], seconds, seed=r) for name in order}
        for name in names:
            figures[name].append(got[name])
            ratios[name].append(got[name] / got[names[0]])
    print(f"Random games of Kalah(6,4), medians of {repeats} repeats of {seconds:g} s")
    print(f"{'what':34} {'games/s':>10} {'µs/game':>9} {'vs OpenSpiel':>12}")
    for name in names:
        gps = statistics.median(figures[name])
        print(f"{name:34} {gps:10,.0f} {1e6 / gps:9,.0f} {statistics.median(ratios[name]):12.2f}")


def search_times(positions: int) -> None:
    match = RULES.new_match(seed=7)
    rng = random.Random(7)
    decide, tries, depths = [], [], []
    while not match.is_over and len(decide) < positions:
        seat = match.to_play
        assert seat is not None
        bot = SearchBot(RULES, seat, "7")
        view, legal = match.view(seat), match.legal_actions()
        start = time.perf_counter()
        bot.choose(view, legal)
        decide.append(time.perf_counter() - start)
        depths.append(bot.reached)
        start = time.perf_counter()
        try_moves(match)
        tries.append(time.perf_counter() - start)
        match.apply(legal[rng.randrange(len(legal))])
    print()
    print(f"Kalah search on {len(decide)} positions of a seeded game (budget {BUDGET:g} s, target: answers ≤ 0.2 s)")
    print(f"{'what':34} {'median':>9} {'slowest':>9}")
    print(f"{'SearchBot.choose':34} {statistics.median(decide):8.3f}s {max(decide):8.3f}s")
    print(f"{'try_moves (depth 8, every move)':34} {statistics.median(tries):8.3f}s {max(tries):8.3f}s")
    if any(depths):
        print(f"search depth reached: median {statistics.median(depths):g}, least {min(depths)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--positions", type=int, default=30)
    args = parser.parse_args()
    random_games(args.seconds, args.repeats)
    search_times(args.positions)


if __name__ == "__main__":
    main()
