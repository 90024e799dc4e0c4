"""Bid advisor speed: every game's full advice for one hand from 1,000 sampled deals.

* Tricks & Stones (4 players): 1,000 deals, each played out for all 6 predictions (shared
  until the seat's bot parts ways).
* Band of Tricks (4 players): 1,000 deals played out for the bot's own bid, all 343 bids
  scored on them to shortlist, then the shortlist (the 8 best, the bot's own bid and the bid
  tried) played for on the same 1,000 deals.
* Jewel Vault (4 players): the passes raced on 1,000 deals (every pass of 1 card, or the
  10 nearest the bot's own for 2 or 3), the best played on every deal.
* Oh Hell (4 players): every bid the seat may make played out on 1,000 deals.
* Hearts (4 players): the ten most dangerous passes raced on 1,000 deals, the best played on
  every deal.

It times ``tricklab.advisor.advise`` on the hand of the seat to decide in a few seeded deals,
several runs per hand with the same seed (so every run does the same work), and prints the
wall time (median, min, max), the CPU time of the process, and the standard error reached
on the best bid's expected score. The target is 1 s per game on a 2-core machine. The
play-outs run on the rules' core (the same ``core_legal``/``core_step`` as every match; for a
game written as a round, Oh Hell and Hearts, one live round a play-out) with the heuristic
bots' ``choose_id``.

For scale, the same play-outs are timed through the checked public engine (``Rules.apply``
with the heuristic bots choosing from ``Rules.view``), one whole play-out per bid or pass
played for and nothing shared, on a few dozen deals, scaled to 1,000 deals. The load
average is printed before and after, since the machine may be shared: wall time above CPU
time means the process waited for a core.

Prints figures; asserts nothing (except that every run gives identical numbers).

Usage: python benchmarks/advisor.py [--runs 5] [--samples 1000] [--deal 3] [--hands 3] [--reference 20] [--game NAME]
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
from tricklab.advisor import Advice, DealSampler, Knowledge, advise
from tricklab.bots import make_bots


def load() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        one, five, fifteen = os.getloadavg()
        return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f}"


def bidding_view(rules: Any, deal: int) -> Any:
    """The view of the seat to decide at the game's declared decision (after the dealer's
    bot names the count to pass, in Jewel Vault)."""
    match = rules.new_match(seed=deal)
    bots = make_bots(rules, "heuristic", deal)
    phase = rules.capabilities.decision.phase
    while match.phase != phase:
        seat = match.to_play
        match.apply(bots[seat].choose(match.view(seat), match.legal_actions()))
    return match.view(match.to_play)


def reference_seconds(rules: Any, view: Any, advice: Advice, deals: int) -> tuple[float, float]:
    """Wall and CPU seconds of the play-outs ``advice`` made (one per deal for each bid or pass
    played for, on as many deals as it was played on) through the checked engine (``Rules.apply``,
    the bots choosing from ``Rules.view``), a whole play-out each and nothing shared: measured
    on ``deals`` deals for every bid played for, then scaled. What the advisor's core saves."""
    entry = tricklab.advisor._check_game(rules)
    sampler = DealSampler(rules, Knowledge.from_view(rules, view))
    rng = random.Random(0)
    seat = view.seat
    decision = rules.capabilities.decision
    played = [e for e in advice.estimates if e.played_for]
    needed = sum(e.samples for e in played)  # the play-outs the advice stands on
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(deals):
        hands, _ = sampler.sample_masks(rng)
        for estimate in played:
            state = entry.with_hands(rules, _opening(rules, view), hands)
            first = entry.round_of(state)
            bots = make_bots(rules, "heuristic", 0)
            while state.to_play is not None and entry.round_of(state) == first:
                mover = state.to_play
                if mover == seat and state.phase == decision.phase:
                    action = estimate.bid
                else:
                    action = bots[mover].choose(rules.view(state, mover), rules.legal_actions(state))
                state = rules.apply(state, action)
    scale = needed / (deals * len(played))
    return (time.perf_counter() - start) * scale, (time.process_time() - cpu) * scale


def _opening(rules: Any, view: Any) -> Any:
    """The state the view's decision starts from (its deal, the count named, in Jewel Vault)."""
    first = {"first_dealer": view.dealer} if hasattr(view, "dealer") else {"start_player": view.start_player}
    state = rules.initial_state(0, **first)
    if getattr(view, "announced", None):
        state = rules.apply(state, tricklab.Announce(view.announced))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="timed runs per game (median reported)")
    parser.add_argument("--samples", type=int, default=1000, help="sampled deals per evaluation")
    parser.add_argument("--deal", type=int, default=3, help="seed of the first deal whose hand is evaluated")
    parser.add_argument("--hands", type=int, default=3, help="hands evaluated per game (deals --deal, --deal + 1, ...)")
    parser.add_argument("--seed", type=int, default=0, help="the advisor's sampling seed")
    parser.add_argument(
        "--reference", type=int, default=20, help="deals played through the checked engine for scale (0: skip)"
    )
    parser.add_argument("--game", action="append", help="only this game (by name, e.g. oh-hell; repeatable)")
    args = parser.parse_args()

    print(f"tricklab bid advisor benchmark: {args.samples:,} sampled deals, {args.runs} runs per game")
    print(f"  CPUs: {os.cpu_count()}; before: {load()}")
    for game, label in (
        ("tricks-and-stones", "Tricks & Stones"),
        ("band-of-tricks", "Band of Tricks"),
        ("jewel-vault", "Jewel Vault"),
        ("oh-hell", "Oh Hell"),
        ("hearts", "Hearts"),
    ):
        if args.game and game not in args.game:
            continue
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
            print(
                f"\n  {label}, 4 players, deal {deal}, seat {first.seat}, hand {hand}: {len(first.estimates)} choices"
            )
            print(
                f"    wall {statistics.median(walls):.3f} s median (min {min(walls):.3f}, max {max(walls):.3f}); "
                f"CPU {statistics.median(cpus):.3f} s median; target 1 s"
            )
            own = f"; the bot's own: {first.played}" if first.played is not None else ""
            print(
                f"    best: {best.text}, expected score {best.mean:.3f} ± {best.stderr:.3f} (standard error) "
                f"from {best.samples:,} deals played for it{own}"
            )
            if args.reference and deal == args.deal:
                ref_wall, ref_cpu = reference_seconds(rules, view, first, args.reference)
                ratio = ref_cpu / statistics.median(cpus)
                played = [e for e in first.estimates if e.played_for]
                print(
                    f"    checked engine + bots, a whole play-out for each of the {len(played)} bids played for on "
                    f"each of its deals ({sum(e.samples for e in played):,} play-outs), scaled from "
                    f"{args.reference} deals: wall {ref_wall:.1f} s, CPU {ref_cpu:.1f} s; CPU ratio {ratio:.1f}x"
                )
        print(f"  {label}: slowest median wall time over {args.hands} hands: {max(medians):.3f} s")
    print(f"\n  after: {load()}")


if __name__ == "__main__":
    main()
