"""How long ``import tricklab`` takes in a fresh interpreter: the engine a plain install gives.

The target is at most 0.3 s on a 2-core machine (``pip install tricklab``: the engine, no
third-party package). Each figure is the median of ``--runs`` fresh interpreters, each timing its
own import with ``time.perf_counter`` (the interpreter's start is not counted). As anchors in the
same run (see the project's BENCHMARKS notes: compare only within one run) it times the standard
library's ``argparse`` and ``email.message`` (modules of a similar number of lines), and, where
they are installed, ``tricklab.widgets`` and ``ipywidgets`` (what a notebook adds). The load
average is printed before and after, since the machine may be shared.

Prints figures; asserts nothing.

Usage: python benchmarks/import_time.py [--runs 9]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys

TIMER = "import time; s = time.perf_counter(); import {module}; print(time.perf_counter() - s)"
MODULES = ("tricklab", "argparse", "email.message", "ipywidgets", "tricklab.widgets")
TARGET_S = 0.3


def once(module: str) -> float:
    done = subprocess.run(
        [sys.executable, "-c", TIMER.format(module=module)], capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    results: dict[str, list[float]] = {}
    for _ in range(args.runs):  # interleaved, so a busy moment weighs on every module alike
        for module in MODULES:
            if importlib.util.find_spec(module.split(".")[0]) is not None:
                results.setdefault(module, []).append(once(module))
    engine = statistics.median(results["tricklab"])
    print(f"{'module':<18} {'median s':>9} {'min s':>7} {'max s':>7} {'x tricklab':>11}")
    for module, times in results.items():
        median = statistics.median(times)
        print(f"{module:<18} {median:9.3f} {min(times):7.3f} {max(times):7.3f} {median / engine:11.2f}")
    verdict = "within" if engine <= TARGET_S else "ABOVE"
    print(f"import tricklab: {engine:.3f} s, {verdict} the target of {TARGET_S} s")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
