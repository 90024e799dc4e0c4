"""Bid advisor speed: every bid of one hand evaluated from 1,000 sampled deals, per game.

For Tricks & Stones (4 players: 1,000 deals x 6 predictions played out) and Band of Tricks
(4 players: 1,000 deals played out once, 343 bids scored) it times ``tricklab.advisor.advise``
on the hand of the seat to bid in a few seeded deals, several runs per hand with the same
seed (so every run does the same work), and prints the wall time (median, min, max), the CPU time of the
process, and the standard error reached on the best bid's expected score. The target is
1 s per game on a 2-core machine. The advisor's play-outs run on the rules' core (the same
``core_legal``/``core_step`` as every match) with the heuristic bots' ``choose_id``.

For scale, play-outs are also timed through the checked public engine (``Rules.apply`` with
the heuristic bots choosing from ``Rules.view``), one whole play-out per bid played out and
nothing shared, on a few dozen deals, and that time is scaled to 1,000 deals. The load
average is printed before and after, since the machine may be shared: wall time above CPU
time means the process waited for a core.

Prints figures; asserts nothing (except that every run gives identical numbers).

Usage: python benchmarks/advisor.py [--runs 5] [--samples 1000] [--deal 3] [--hands 3] [--reference 40]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import time
from typing import Any

import tricklab
from tricklab import Predict
from tricklab.advisor import Advice, DealSampler, Knowledge, advise
from tricklab.bots import make_bots


def load() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        one, five, fifteen = os.getloadavg()
        return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f}"


def bidding_view(rules: Any, deal: int) -> Any:
    match = rules.new_match(seed=deal)
    seat = match.to_play
    return match.view(seat)


def reference_seconds(rules: Any, view: Any, deals: int, samples: int) -> tuple[float, float]:
    """Wall and CPU seconds for ``samples`` deals' play-outs through the checked engine
    (``Rules.apply``, the bots choosing from ``Rules.view``), one full play-out per bid played
    out and nothing shared, scaled from ``deals`` of them: what the advisor's play-outs on the
    core save."""
    entry = tricklab.advisor._check_game(rules)
    sampler = DealSampler(rules, Knowledge.from_view(rules, view))
    rng = random.Random(0)
    seat = view.seat
    decision = rules.capabilities.decision
    targets: list[Any] = [Predict(p) for p in range(6)] if decision.kind == "prediction" else [None]
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(deals):
        hands, _ = sampler.sample_masks(rng)
        for target in targets:
            state = entry.with_hands(rules, rules.initial_state(0, **_first(view)), hands)
            first = entry.round_of(state)
            bots = make_bots(rules, "heuristic", 0)
            while state.to_play is not None and entry.round_of(state) == first:
                mover = state.to_play
                if target is not None and mover == seat and state.phase == decision.phase:
                    action = target
                else:
                    action = bots[mover].choose(rules.view(state, mover), rules.legal_actions(state))
                state = rules.apply(state, action)
    scale = samples / deals
    return (time.perf_counter() - start) * scale, (time.process_time() - cpu) * scale


def _first(view: Any) -> dict[str, int]:
    """The match option that puts the first deal where the view's deal is (dealer or start player)."""
    return {"first_dealer": view.dealer} if hasattr(view, "dealer") else {"start_player": view.start_player}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="timed runs per game (median reported)")
    parser.add_argument("--samples", type=int, default=1000, help="sampled deals per evaluation")
    parser.add_argument("--deal", type=int, default=3, help="seed of the first deal whose hand is evaluated")
    parser.add_argument("--hands", type=int, default=3, help="hands evaluated per game (deals --deal, --deal + 1, ...)")
    parser.add_argument("--seed", type=int, default=0, help="the advisor's sampling seed")
    parser.add_argument(
        "--reference", type=int, default=40, help="deals played through the checked engine for scale (0: skip)"
    )
    args = parser.parse_args()

    print(f"tricklab bid advisor benchmark: {args.samples:,} sampled deals, {args.runs} runs per game")
    print(f"  CPUs: {os.cpu_count()}; before: {load()}")
    for game, label in (("tricks-and-stones", "Tricks & Stones"), ("band-of-tricks", "Band of Tricks")):
        rules = tricklab.get_rules(game, players=4)
        medians = []
        for deal in range(args.deal, args.deal + args.hands):
            view = bidding_view(rules, deal)
            walls, cpus = [], []
            first: Advice | None = None
            for _ in range(args.runs):
                wall, cpu = time.perf_counter(), time.process_time()
                advice = advise(rules, view, samples=args.samples, seed=args.seed)
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
                first = first or advice
                assert advice == first, "the same seed gave different numbers"
            assert first is not None
            medians.append(statistics.median(walls))
            best = first.best
            hand = " ".join(str(c) for c in first.hand)
            print(f"\n  {label}, 4 players, deal {deal}, seat {first.seat}, hand {hand}: {len(first.estimates)} bids")
            print(
                f"    wall {statistics.median(walls):.3f} s median (min {min(walls):.3f}, max {max(walls):.3f}); "
                f"CPU {statistics.median(cpus):.3f} s median; target 1 s"
            )
            played = f"; played out: {first.played}" if first.played is not None else ""
            print(
                f"    best: {best.text}, expected score {best.mean:.3f} ± {best.stderr:.3f} (standard error), "
                f"exact {best.p_exact:.1%}{played}"
            )
            if args.reference and deal == args.deal:
                ref_wall, ref_cpu = reference_seconds(rules, view, args.reference, args.samples)
                ratio = ref_cpu / statistics.median(cpus)
                print(
                    f"    checked engine + bots, a whole play-out per bid, scaled from {args.reference} deals to "
                    f"{args.samples:,}: wall {ref_wall:.1f} s, CPU {ref_cpu:.1f} s; CPU ratio {ratio:.0f}x"
                )
        print(f"  {label}: slowest median wall time over {args.hands} hands: {max(medians):.3f} s")
    print(f"\n  after: {load()}")


if __name__ == "__main__":
    main()
