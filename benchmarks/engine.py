"""Engine speed: random-bot rounds per second and microseconds per resolve_trick.

Prints figures; asserts nothing. With the optional ``bench`` extra installed
(``pip install -e '.[bench]'``), OpenSpiel's ``oh_hell`` (4 players, 4 suits x 9 cards,
8 tricks, random actions from a Python loop) runs side by side in the same process,
so the ratio is fair on a shared, noisy machine.

Usage: python benchmarks/engine.py [--seconds 2.0] [--repeats 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import tricklab
from tricklab.games.tricks_and_stones import TricksAndStonesState


def random_round(rules: Any, seed: int) -> TricksAndStonesState:
    """One complete round (predictions, 8 tricks, every gem action) with random actions,
    through the checked public engine: ``legal_actions`` then ``apply``."""
    rng = random.Random(seed)
    random_ = rng.random  # uniform choice as int(random() * n): the same cheap draw in every loop
    state = rules.initial_state(seed)
    first_round = state.round
    while state.round == first_round and state.to_play is not None:
        legal = rules.legal_actions(state)
        state = rules.apply(state, legal[int(random_() * len(legal))])
    return state


def random_deal(rules: Any, seed: int) -> Any:
    """Band of Tricks: one complete deal (bids, every trick, every Metal choice) with random
    actions, through ``legal_actions`` then ``apply``, until the deal is scored."""
    rng = random.Random(seed)
    random_ = rng.random  # uniform choice as int(random() * n): the same cheap draw in every loop
    state = rules.initial_state(seed)
    while not state.deal_scores and state.to_play is not None:
        legal = rules.legal_actions(state)
        state = rules.apply(state, legal[int(random_() * len(legal))])
    return state


def rate(fn: Callable[[int], object], seconds: float) -> float:
    """Calls per second of ``fn(i)`` over about ``seconds``."""
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            fn(count)
            count += 1
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def open_spiel_game() -> Callable[[int], object] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_suits": 4, "num_cards_per_suit": 9, "num_tricks_fixed": 8})

    def play(seed: int) -> object:
        rng = random.Random(seed)
        random_ = rng.random  # the same draw as tricklab's loops
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(random_() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(random_() * len(legal))])
        return state

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    parser.add_argument("--repeats", type=int, default=5, help="measurements per figure (median reported)")
    args = parser.parse_args()

    ts = tricklab.get_rules("tricks-and-stones", players=4)
    trick = ["7H", "AH", "8S", "KD"]
    parsed = ts.cards(trick)
    spiel = open_spiel_game()
    bt = tricklab.get_rules("band-of-tricks", players=4)
    bt_trick = ["P3", "S5", "R13", "M13"]
    bt_parsed = bt.cards(bt_trick)
    bt_deals, bt_text, bt_cards, bt_reasons = [], [], [], []

    rounds, tricks_text, tricks_cards, reasons, spiel_rates = [], [], [], [], []
    for _ in range(args.repeats):
        rounds.append(rate(lambda i: random_round(ts, i), args.seconds))
        tricks_text.append(rate(lambda i: ts.resolve_trick(trick, trump="S"), args.seconds / 2))
        tricks_cards.append(rate(lambda i: ts.resolve_trick(parsed, trump="S"), args.seconds / 2))
        reasons.append(rate(lambda i: ts.resolve_trick(parsed, trump="S").reasons, args.seconds / 2))
        bt_deals.append(rate(lambda i: random_deal(bt, i), args.seconds))
        bt_text.append(rate(lambda i: bt.resolve_trick(bt_trick), args.seconds / 2))
        bt_cards.append(rate(lambda i: bt.resolve_trick(bt_parsed), args.seconds / 2))
        bt_reasons.append(rate(lambda i: bt.resolve_trick(bt_parsed).reasons, args.seconds / 2))
        if spiel is not None:
            spiel_rates.append(rate(spiel, args.seconds))

    med = statistics.median
    print(f"tricklab engine benchmark ({args.repeats} runs of {args.seconds:.1f} s, medians)")
    print(
        f"  Tricks & Stones, 4 players: {med(rounds):,.0f} complete random rounds/s "
        f"({1e6 / med(rounds):,.0f} µs per round; floor 2,000/s)"
    )
    print(f"  resolve_trick, 4 cards as text:   {1e6 / med(tricks_text):.2f} µs (floor 20 µs)")
    print(f"  resolve_trick, 4 Card objects:    {1e6 / med(tricks_cards):.2f} µs")
    print(f"  resolve_trick + all its reasons:  {1e6 / med(reasons):.2f} µs")
    print(
        f"  Band of Tricks, 4 players: {med(bt_deals):,.0f} complete random deals/s "
        f"({1e6 / med(bt_deals):,.0f} µs per deal; floor 2,000/s)"
    )
    print(f"    BT resolve_trick, 4 cards as text:   {1e6 / med(bt_text):.2f} µs (floor 20 µs)")
    print(f"    BT resolve_trick, 4 Card objects:    {1e6 / med(bt_cards):.2f} µs")
    print(f"    BT resolve_trick + all its reasons:  {1e6 / med(bt_reasons):.2f} µs")
    if spiel is None:
        print("  OpenSpiel: not installed (pip install -e '.[bench]' to compare side by side)")
    else:
        ratio = med(rounds) / med(spiel_rates)
        print(f"  OpenSpiel oh_hell 4p, 4x9 cards, 8 tricks, random from Python: {med(spiel_rates):,.0f} games/s")
        print(f"  ratio tricklab rounds / OpenSpiel games: {ratio:.2f}")


if __name__ == "__main__":
    main()
