"""Benchmark the exact searches on the code games (issue 12): Mastermind and Bulls and Cows.

Usage: python scripts/bench_codegames.py [--only NAME,...] [--list]

Each case runs ``gpusolve optimal-tree ... --json --quiet`` in a fresh process (after one
untimed warm-up run, so the numba cache is warm) with a private run directory (nothing
resumed), and prints its name, the result (total and mean, or the worst case), whether it is
proven, and the whole process's wall and CPU seconds (``bench_optimal.run_gpusolve``). The
published values each case should reproduce are in docs/codegames.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from bench_optimal import run_gpusolve

CASES = {
    "mastermind-4x6": ["--game", "mastermind"],
    "mastermind-4x6-max5": ["--game", "mastermind", "--max-guesses", "5"],
    "mastermind-4x6-worst": ["--game", "mastermind", "--objective", "worst-case"],
    "bulls-4x10": ["--game", "bulls", "--max-guesses", "7"],
    "mastermind-4x7": ["--game", "mastermind", "--colours", "7"],
}


def summary(result: dict) -> str:
    """Return the figures of one case's JSON in one line."""
    if "guesses_always_suffice" in result:
        return f"worst case {result['guesses_always_suffice']} (proven least: {result['proven_least']})"
    tree = result.get("tree") or {}
    return (f"total {tree.get('total')} mean {tree.get('mean')} worst {tree.get('worst')} "
            f"complete {result.get('complete')} of {result.get('first_guesses')} first guesses "
            f"({result.get('candidates')} classes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="mastermind-4x6,mastermind-4x6-max5,mastermind-4x6-worst")
    parser.add_argument("--list", action="store_true", help="List the cases and stop.")
    args = parser.parse_args()
    if args.list:
        print("\n".join(CASES))
        return
    print(f"# {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} before")
    for name in args.only.split(","):
        with tempfile.TemporaryDirectory() as runs:
            os.environ["GPUSOLVE_RUNS_DIR"] = runs
            command = ["optimal-tree", *CASES[name], "--json", "--quiet"]
            run_gpusolve(command)  # warm-up (its run directory is then reused: start afresh)
        with tempfile.TemporaryDirectory() as runs:
            os.environ["GPUSOLVE_RUNS_DIR"] = runs
            out = run_gpusolve(command)
        print(f"{name}: {summary(out['result'])}; wall {out['wall']:.2f} s, CPU {out['cpu']:.2f} s, "
              f"load {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
