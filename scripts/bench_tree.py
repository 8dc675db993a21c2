"""Benchmark greedy guess trees: the SALET tree, the seeds' tables, and many start words at once.

Usage: python scripts/bench_tree.py [--repeat 5] [--starts 64] [--threads 1,2] [--only-scores]
Prints the best of ``repeat`` runs (numba cache warm: one untimed run first), the CPU time
of that run (all threads), and a whole-process time of the CLI. ``--only-scores``: only the
many-start-words part (``greedy_scores``: what ``gpusolve rank --by tree`` runs), once per
thread count, with the time per start word and the whole 12,972 extrapolated.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np


def best_of(repeat, function, *args, **kwargs):
    """Return (least wall time, its CPU time, last result) of ``repeat`` calls after a warm-up."""
    result = function(*args, **kwargs)
    best = (float("inf"), 0.0)
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = function(*args, **kwargs)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        best = min(best, (wall, cpu))
    return best[0], best[1], result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--starts", type=int, default=64)
    parser.add_argument("--threads", default="2", help="kernel threads for greedy_scores, e.g. 1,2")
    parser.add_argument("--only-scores", action="store_true", help="only the many-start-words part")
    args = parser.parse_args()
    if args.only_scores:
        scores(args)
        return

    from gpusolve.core.games import make_game
    from gpusolve.core.patterns import pattern_matrix
    from gpusolve.core.trees import summarize
    from gpusolve.search.greedy import greedy_tree

    print(f"numba threads: {numba.get_num_threads()}")
    wordle = make_game("wordle")
    pm = pattern_matrix(wordle, "allowed", "answers-2315", "cpu")
    print("## SALET entropy tree, 12,972 guesses x 2,315 answers")
    for free_min, what in ((1, "every guess at every node (the C++ comparison)"),
                           (3, "every guess where more than 3 answers remain (seed rule)")):
        wall, cpu, tree = best_of(args.repeat, greedy_tree, pm, "entropy", "normal", start="SALET",
                                  free_min=free_min)
        s = summarize(tree)
        print(f"free_min={free_min} ({what}): {wall:.3f} s wall, {cpu:.3f} s CPU; "
              f"mean {s.mean:.4f}, worst {s.worst}, histogram {s.histogram}")
    command = [sys.executable, "-m", "gpusolve", "tree", "--guesses", "allowed", "--answers",
               "answers-2315", "--start", "SALET", "--free-min", "1", "--json"]
    outside = tempfile.gettempdir()  # not the checkout, whose bare gpusolve/ lacks the kernels
    subprocess.run(command, check=True, capture_output=True, cwd=outside)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=outside)
    print(f"whole process `gpusolve tree ... --start SALET --free-min 1 --json`: "
          f"{time.perf_counter() - start:.3f} s")

    print("## the seeds' tables (2,309 answers, guesses = answers, free-max 125)")
    small = pattern_matrix(wordle, "answers", "answers", "cpu")
    jotto = pattern_matrix(make_game("jotto"), "answers", "answers", "cpu")
    for name, matrix in (("wordle", small), ("jotto", jotto)):
        for metric in ("max", "expectation", "entropy"):
            for mode in ("consistent", "normal"):
                wall, _, tree = best_of(args.repeat, greedy_tree, matrix, metric, mode, free_max=125)
                s = summarize(tree)
                print(f"{name} {metric:<11} {mode:<10} {s.mean:.2f} ({s.worst})  {wall * 1000:7.1f} ms")

    scores(args)


def scores(args) -> None:
    """Print CPU and wall time per start word of ``greedy_scores`` in every mode, per thread count."""
    from gpusolve.core.games import make_game
    from gpusolve.core.patterns import pattern_matrix
    from gpusolve.search.greedy import greedy_scores

    print(f"## greedy_scores: {args.starts} start words, 12,972 guesses x 2,309 answers")
    full = pattern_matrix(make_game("wordle"), "allowed", "answers", "cpu")
    rows = np.linspace(0, full.shape[0] - 1, args.starts).astype(int)
    answer_rows = full.answer_rows[np.linspace(0, full.shape[1] - 1, args.starts).astype(int)]
    for threads in [int(t) for t in args.threads.split(",")]:
        for mode, free_max in (("normal", None), ("normal", 125), ("hard", None), ("consistent", None)):
            starts = answer_rows if mode == "consistent" else rows
            wall, cpu, _ = best_of(1, greedy_scores, full, starts, "entropy", mode, free_max,
                                   threads=threads)
            per, per_wall = cpu / len(starts), wall / len(starts)
            print(f"threads={threads} {mode:<10} free_max={free_max}: {wall:.2f} s wall, {cpu:.2f} s CPU "
                  f"for {len(starts)} starts = {per * 1000:.1f} ms CPU, {per_wall * 1000:.1f} ms wall each; "
                  f"all 12,972: {per_wall * 12972 / 60:.1f} min wall at this rate, "
                  f"{per * 12972 / 2 / 60:.1f} min on 2 idle cores", flush=True)


if __name__ == "__main__":
    main()
