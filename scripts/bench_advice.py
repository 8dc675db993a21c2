"""Benchmark the assistant's exact advice (issue 37's first goal): for each opener, the share of the
positions after it and any reply, weighted by the answers that reach them, where ``gpusolve solve``
gives the exact best next guess within its thinking budget (normal mode, the default lists).

Usage: python scripts/bench_advice.py [--openers SALET,CRANE] [--limit N] [--think 2] [--mode hard]

Each position gets a fresh assistant (no memo or proven tree from another position) in one
process whose kernels are loaded once beforehand, as in a game after its first search. Each line
gives the share as ``solve`` gives it (the shipped opening book first: ``gpusolve.play.book``),
then the share of the exact search alone (the book not read), both by wall clock. ``--limit``
measures only the N largest replies of each opener; the share is then given as the bounds the
rest allows (all of them greedy, all exact). CPU-heavy: every position may take the whole budget.

On a shared machine the wall time depends on the load: each line also gives the share of the
answers whose advice was exact within ``--cpu`` seconds of the process's CPU time (both worker
threads counted), which does not; with ``--think`` large (every position exact) it says what a
quiet machine would, roughly: the search of a set under 128 answers runs on one thread.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

OPENERS = ["SALET", "CRANE", "SLATE", "TRACE", "CRATE", "RAISE", "ARISE", "STARE", "ROATE", "SOARE",
           "ADIEU", "AUDIO"]


def share(part: int, rest: int, total: int) -> str:
    """Return the share ``part / total``, as bounds where ``rest`` answers were not measured."""
    return f"{part / total:.1%}" + ("" if not rest else f"..{(part + rest) / total:.1%}")


def main() -> None:
    from gpusolve.core.patterns import pattern_matrix
    from gpusolve.play.assistant import Assistant
    from gpusolve.search.defaults import THINK_SECONDS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openers", default=",".join(OPENERS), help="comma-separated openers")
    parser.add_argument("--limit", type=int, default=None, help="measure the N largest replies of each")
    parser.add_argument("--think", type=float, default=THINK_SECONDS, help="the thinking budget, seconds")
    parser.add_argument("--cpu", type=float, default=THINK_SECONDS, help="the CPU seconds counted as in time")
    parser.add_argument("--mode", default="normal", help="normal or hard (the issue's goal: normal)")
    parser.add_argument("--verbose", action="store_true", help="a line per position")
    args = parser.parse_args()
    pm = pattern_matrix()
    warm = Assistant(pm, mode=args.mode, think=60, book=False)
    warm.play("SALET", pm.game.parse_reply("....."))
    warm.advice()  # the exact search's kernels loaded, not timed below
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; {args.mode} mode; "
          f"think {args.think:g} s; share of answers whose position after the opener gets exact advice")
    for opener in args.openers.upper().split(","):
        codes = pm.codes[pm.guess_index[opener]]
        replies, sizes = np.unique(codes[codes != pm.game.solved], return_counts=True)
        order = np.argsort(-sizes, kind="stable")[:args.limit]
        total = int(sizes.sum())
        booked = exact = measured = cheap = 0
        slowest_booked = slowest = costliest = 0.0
        for i in order:
            reply, size = int(replies[i]), int(sizes[i])
            measured += size
            a = Assistant(pm, mode=args.mode, think=args.think)
            a.play(opener, reply)
            start = time.perf_counter()
            booked += size * (a.advice().mean is not None and time.perf_counter() - start <= args.think)
            slowest_booked = max(slowest_booked, time.perf_counter() - start)
            a = Assistant(pm, mode=args.mode, think=args.think, book=False)
            a.play(opener, reply)
            start, cpu = time.perf_counter(), time.process_time()
            advice = a.advice()
            took, cpu = time.perf_counter() - start, time.process_time() - cpu
            slowest, costliest = max(slowest, took), max(costliest, cpu)
            exact += size * (advice.mean is not None)
            cheap += size * (advice.mean is not None and cpu <= args.cpu)
            if args.verbose:
                print(f"  {opener} {pm.game.format_reply(reply)} {size:4d} {took:6.2f} s {cpu:6.2f} cpu  "
                      f"{advice.method}")
        rest = total - measured
        print(f"{opener}  {len(order):3d} of {len(replies)} replies ({measured:,} of {total:,} answers)  "
              f"exact {share(booked, rest, total)} (slowest {slowest_booked:.2f} s)  "
              f"search alone: exact {share(exact, rest, total)}  slowest {slowest:.2f} s  "
              f"exact within {args.cpu:g} cpu s {share(cheap, rest, total)}  "
              f"costliest {costliest:.2f} cpu s  load {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
