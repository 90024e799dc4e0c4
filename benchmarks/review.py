"""Round review speed: one seat's whole round reviewed with the default samples, per game.

For each game and player count it plays a seeded match with the heuristic bots, then times
``tricklab.review.review_round`` on the first round for one seat (24 sampled deals per
decision unless ``--samples`` says otherwise), several runs with the same seed (so every run
does the same work, and the runs must agree), and prints the wall time (median, min, max), the
CPU time of the process, the decisions rated and the play-outs made. The target is a whole
Tricks & Stones 4-player round in under 10 s on a 2-core machine.

As an anchor measured in the same run (see the project's BENCHMARKS notes: compare only
within one run), it times whole matches played by the heuristic bots through the checked
public API (``rules.play(seed, bots="heuristic")``), and prints the time of one such round
(a match's time over its rounds) and the review's time in those rounds. The load average is
printed before and after, since the machine may be shared: wall time above CPU time means
the process waited for a core.

Prints figures; asserts nothing (except that every run gives identical numbers).

Usage: python benchmarks/review.py [--runs 3] [--samples 24] [--seed 3] [--anchor 10] [--games ts,bt,jv,oh,ht]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from typing import Any

import tricklab
from tricklab.review import RoundReview, review_round

SETUPS = {
    "ts": [("tricks-and-stones", 4), ("tricks-and-stones", 3)],
    "bt": [("band-of-tricks", 4), ("band-of-tricks", 3), ("band-of-tricks", 5)],
    "jv": [("jewel-vault", 4), ("jewel-vault", 2), ("jewel-vault", 6)],
    "oh": [("oh-hell", 4)],
    "ht": [("hearts", 4)],
}


def load() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        one, five, fifteen = os.getloadavg()
        return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f}"


def bot_match(rules: Any, seed: int) -> tricklab.Match:
    """A whole match of the heuristic bots (its first round is reviewed)."""
    match: tricklab.Match = rules.play(seed=seed, bots="heuristic")
    return match


def anchor_seconds(rules: Any, matches: int) -> tuple[float, float, int]:
    """Wall and CPU seconds of one round of bot play through the checked API: ``matches``
    whole matches of ``rules.play`` timed, divided by the rounds they held."""
    rounds = 0
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(matches):
        match = rules.play(seed=1000 + seed, bots="heuristic")
        result = match.result
        assert result is not None
        rounds += _rounds_of(match)
    return (time.perf_counter() - start) / rounds, (time.process_time() - cpu) / rounds, rounds


def _rounds_of(match: tricklab.Match) -> int:
    """How many rounds a finished match held (the review entry's ``round_of`` of its last state, plus one)."""
    ref = match.rules.capabilities.review
    assert ref is not None
    return ref.load().round_of(match.state) + 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="timed runs per game (median reported)")
    parser.add_argument("--samples", type=int, default=24, help="sampled deals per decision (review_round default)")
    parser.add_argument("--seed", type=int, default=3, help="the seed of the match reviewed")
    parser.add_argument("--seat", type=int, default=1, help="the seat reviewed")
    parser.add_argument("--anchor", type=int, default=10, help="bot matches through rules.play timed as the anchor")
    parser.add_argument("--games", default="ts,bt,jv", help="which games: ts, bt, jv, oh, ht (comma-separated)")
    args = parser.parse_args()

    print(f"tricklab round review benchmark: {args.samples} sampled deals per decision, {args.runs} runs per game")
    print(f"  CPUs: {os.cpu_count()}; before: {load()}")
    for key in args.games.split(","):
        for game, players in SETUPS[key.strip()]:
            rules = tricklab.get_rules(game, players=players)
            match = bot_match(rules, args.seed)
            seat = args.seat % players
            walls, cpus = [], []
            first: RoundReview | None = None
            for _ in range(args.runs):
                wall, cpu = time.perf_counter(), time.process_time()
                rev = review_round(match, seat, round=0, samples=args.samples, seed=0)
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
                first = first or rev
                assert rev.as_dict() == first.as_dict(), "the same seed gave different numbers"
            assert first is not None
            playouts = sum(len(d.alternatives) for d in first.decisions) * args.samples
            median_wall, median_cpu = statistics.median(walls), statistics.median(cpus)
            print(f"\n  {rules.title}, {players} players, seed {args.seed}, seat {seat}, round 0")
            print(
                f"    {len(first.decisions)} decisions rated ({first.forced} forced left out), "
                f"{playouts:,} play-outs, {len(first.hindsight)} tricks in hindsight"
            )
            print(
                f"    wall {median_wall:.3f} s median (min {min(walls):.3f}, max {max(walls):.3f}); "
                f"CPU {median_cpu:.3f} s median; {1e6 * median_cpu / max(1, playouts):.0f} µs CPU per play-out"
                + ("; target 10 s" if (game, players) == ("tricks-and-stones", 4) else "")
            )
            if args.anchor:
                a_wall, a_cpu, rounds = anchor_seconds(rules, args.anchor)
                print(
                    f"    anchor: one round of heuristic bots through rules.play (checked API), from {rounds} rounds: "
                    f"wall {1e3 * a_wall:.1f} ms, CPU {1e3 * a_cpu:.1f} ms; "
                    f"the review took {median_cpu / a_cpu:,.0f} such rounds of CPU"
                )
    print(f"\n  after: {load()}")


if __name__ == "__main__":
    main()
