"""Benchmark long runs: start words per minute for greedy and exact ranking with 1 and 2 workers.

    python scripts/bench_runs.py                       # greedy: 48 start words, exact: 4 start words
    python scripts/bench_runs.py --greedy-words 12972  # the whole greedy ranking (entropy, normal)
    python scripts/bench_runs.py --skip-exact --workers 0,1,2

Every configuration runs in a fresh run directory (a temporary folder), after one warm-up run so
that the pattern matrices and the compiled kernels come from the disk caches. Two rates are
printed: over the whole wall time (cluster start-up included), and in steady state (from the
first finished batch to the last). Scaling efficiency = rate with N workers / (N x rate with 1).
Greedy ranking uses all allowed guesses x the 2,309 answers; exact ranking uses the seeds'
setting (guesses = answers = 2,309) with a cutoff, which most start words reach ("total >= T").
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix
from gpusolve.runs.startrank import rank_exact, rank_trees


def sample(words: tuple[str, ...], n: int) -> list[str]:
    """Return ``n`` start words spread evenly over the list."""
    n = min(n, len(words))
    return [words[i * len(words) // n] for i in range(n)]


class Clock:
    """An on_batch callback noting when the first and last batches finished."""

    def __init__(self) -> None:
        self.first: tuple[float, int] | None = None
        self.last: tuple[float, int] | None = None

    def __call__(self, done: int, total: int, rows: list) -> None:
        if rows:
            now = (time.perf_counter(), done)
            self.first = self.first or now
            self.last = now

    def steady_rate(self) -> float | None:
        """Return units per minute between the first and the last finished batch."""
        if not self.first or not self.last or self.last[1] == self.first[1]:
            return None
        return (self.last[1] - self.first[1]) / (self.last[0] - self.first[0]) * 60


def measure(label: str, call, n: int, workers: int, folder: Path) -> tuple[float, float | None]:
    """Run one configuration; print and return (rate over wall time, steady rate) per minute."""
    clock = Clock()
    start = time.perf_counter()
    ranked = call(run_dir=folder / f"{label}-{workers}", workers=workers, on_batch=clock)
    wall = time.perf_counter() - start
    rate, steady = n / wall * 60, clock.steady_rate()
    steady_text = f"{steady:8.1f}" if steady else "       -"
    print(f"{label:7s} workers={workers}  {n:5d} start words  {wall:8.1f} s  {rate:8.1f}/min (wall)  "
          f"{steady_text}/min (steady)  best {ranked.rows[0]['word']}", flush=True)
    return rate, steady


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--greedy-words", type=int, default=48)
    parser.add_argument("--exact-words", type=int, default=4)
    parser.add_argument("--cutoff", type=int, default=8000)
    parser.add_argument("--metric", default="entropy")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--batch", type=int, default=None, help="greedy start words per task")
    parser.add_argument("--threads", type=int, default=None,
                        help="kernel threads per worker [default: cores / workers]")
    parser.add_argument("--skip-greedy", action="store_true")
    parser.add_argument("--skip-exact", action="store_true")
    args = parser.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    print(f"cores: {os.cpu_count()}; workers: {counts}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if not args.skip_greedy:
            pm = pattern_matrix(make_game(), "allowed", "answers")
            words = sample(pm.guesses, args.greedy_words)

            def greedy(**run):
                return rank_trees(pm, "allowed", "answers", metric=args.metric, words=words, batch=args.batch,
                                  threads=args.threads, **run)

            rank_trees(pm, "allowed", "answers", metric=args.metric, words=words[:2], workers=0,
                       run_dir=folder / "warm-greedy")
            report("greedy", {w: measure("greedy", greedy, len(words), w, folder) for w in counts})
        if not args.skip_exact:
            pm = pattern_matrix(make_game(), "answers", "answers")
            words = sample(pm.guesses, args.exact_words)

            def exact(**run):
                return rank_exact(pm, "answers", "answers", cutoff=args.cutoff, words=words, batch=1,
                                  threads=args.threads, **run)

            rank_exact(pm, "answers", "answers", cutoff=args.cutoff, words=["CRANE"], workers=0,
                       run_dir=folder / "warm-exact")
            report("exact", {w: measure("exact", exact, len(words), w, folder) for w in counts})


def report(label: str, rates: dict[int, tuple[float, float | None]]) -> None:
    """Print the scaling efficiency of each worker count against one worker."""
    if 1 not in rates:
        return
    for w, (rate, steady) in rates.items():
        if w > 1:
            line = f"{label:7s} scaling efficiency with {w} workers: {rate / (w * rates[1][0]):.0%} (wall)"
            if steady and rates[1][1]:
                line += f", {steady / (w * rates[1][1]):.0%} (steady)"
            print(line)


if __name__ == "__main__":
    main()
