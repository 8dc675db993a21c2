"""Time the worst-case (minimax depth) search on the Wordle lists.

Usage: python scripts/bench_worstcase.py [--backend cpu|cuda] [--first N] [--full]

* the per-guess statistics (largest bucket, branches) of all 12,972 guesses over the 2,309
  answers: one backend call (one launch on CUDA, all cores on the CPU);
* refuting 4 guesses for the first N first guesses (default 500, in the search's order): the
  rate, and the estimate for all of them;
* a tree that never needs more than 5 (``min_depth=5``);
* guesses = answers = 2,309: the whole proof (4 refuted, a tree of 5);
* ``--full``: the whole proof over 12,972 guesses (minutes; run it under ``nice``).
Steps run once untimed first only where they are short.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time

import numpy as np

from gpusolve.core.patterns import pattern_matrix
from gpusolve.core.trees import summarize
from gpusolve.search.worstcase import _search, worst_case


class _Enough(Exception):
    pass


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--first", type=int, default=500)
    ap.add_argument("--full", action="store_true")
    args = ap.parse_args()
    full = pattern_matrix(None, None, "answers", args.backend)
    square = pattern_matrix(None, "answers", "answers", args.backend)
    members = np.arange(full.shape[1], dtype=np.int32)
    print(f"backend {args.backend}, load average {os.getloadavg()[0]:.1f}", flush=True)

    s = _search(full, "normal", None, 10**12)
    s.stats(members, s.guesses)
    t0 = time.perf_counter()
    for _ in range(5):
        s.stats(members, s.guesses)
    print(f"statistics of 12,972 guesses over 2,309 answers: {(time.perf_counter() - t0) / 5 * 1e3:.1f} ms")

    t0, c0 = time.perf_counter(), time.process_time()

    def stop(done: int, total: int, depth: int) -> None:
        if done >= args.first:
            raise _Enough

    with contextlib.suppress(_Enough):
        s.solvable(members, 4, stop)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"refuting 4 for the first {args.first} first guesses: {wall:.1f} s ({cpu:.1f} s CPU), "
          f"{args.first / wall * 60:,.0f} per minute; all 12,972 at that rate: "
          f"{12972 / args.first * wall:.0f} s")

    t0 = time.perf_counter()
    r = worst_case(full, min_depth=5)
    print(f"tree within 5 (12,972 x 2,309, min_depth 5): {time.perf_counter() - t0:.1f} s, "
          f"{summarize(r.tree).as_dict()}")

    t0, c0 = time.perf_counter(), time.process_time()
    r = worst_case(square)
    print(f"guesses = answers = 2,309, whole proof: {time.perf_counter() - t0:.1f} s "
          f"({time.process_time() - c0:.1f} s CPU): {r.depth} (refuted {r.refuted}), {r.nodes:,} nodes")

    if args.full:
        t0, c0 = time.perf_counter(), time.process_time()
        r = worst_case(full)
        print(f"12,972 x 2,309, whole proof: {time.perf_counter() - t0:.0f} s "
              f"({time.process_time() - c0:.0f} s CPU): {r.depth} (refuted {r.refuted}), "
              f"{summarize(r.tree).as_dict()}")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
