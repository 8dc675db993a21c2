"""Benchmark the foundation: pattern matrix build, cache load, and ranking all guesses.

Usage: python scripts/bench_core.py [--backend cpu|cuda] [--repeat 5]
Prints the best of ``repeat`` runs of each step (numba cache warm: one untimed run first),
plus whole-process times of two CLI commands.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np


def best_of(repeat, function, *args):
    """Return the least wall time of ``repeat`` calls after one warm-up call."""
    function(*args)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def whole_process(*args) -> float:
    """Return the wall time of one ``gpusolve`` process."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gpusolve", *args], check=True, capture_output=True,
                   cwd=tempfile.gettempdir())  # not the checkout, whose bare gpusolve/ lacks the kernels
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="cpu")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from gpusolve.core.backend import get_backend
    from gpusolve.core.games import make_game
    from gpusolve.core.patterns import build_codes, pattern_matrix
    from gpusolve.search.metrics import partition_table

    engine = get_backend(args.backend)
    game = make_game()
    guesses, answers = game.word_lists("allowed", "answers")
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"numba threads {numba.get_num_threads()}, backend {engine.name}")
    seconds = best_of(args.repeat, build_codes, game, guesses, answers, engine)
    print(f"pattern matrix 12,972 x 2,309 (kernel):            {seconds:.3f} s")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["GPUSOLVE_CACHE_DIR"] = tmp
        seconds = best_of(args.repeat, lambda: pattern_matrix(game, "allowed", "answers", args.backend))
        print(f"pattern matrix from the disk cache (lists + load): {seconds:.3f} s")
        pm = pattern_matrix(game, "allowed", "answers", args.backend)
        seconds = best_of(args.repeat, partition_table, pm)
        print(f"metrics of all 12,972 guesses over 2,309 answers:  {seconds:.3f} s")
        half = np.arange(0, 2309, 2)
        seconds = best_of(args.repeat, partition_table, pm, half)
        print(f"metrics of all 12,972 guesses over 1,155 answers:  {seconds:.3f} s")
        whole_process("rank", "--backend", args.backend)  # fills the cache
        seconds = min(whole_process("rank", "--backend", args.backend) for _ in range(3))
        print(f"whole process `gpusolve rank` (cache warm):        {seconds:.3f} s")
        seconds = min(whole_process("--help") for _ in range(3))
        print(f"whole process `gpusolve --help`:                   {seconds:.3f} s")


if __name__ == "__main__":
    main()
