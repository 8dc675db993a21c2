"""Benchmark start-up: whole-process wall time of quick ``gpusolve`` commands (issue 11's goals:
``gpusolve --help`` <= 0.3 s, a warm ``gpusolve tree --start SALET`` <= 0.7 s).

Usage: python scripts/bench_startup.py [--repeat 9] [--gpusolve PATH ...]

Each command runs once untimed (kernels compiled and the pattern matrix cached: "warm"), then
``repeat`` times; the best and the median are printed, with a bare ``python -c pass`` for scale.
Give several ``--gpusolve`` executables (another checkout's, say) to compare them: their runs
interleave, so both see the same load on a shared machine. Best-of-N is the figure to quote there.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

COMMANDS = [
    ("--help",),
    ("tree", "--start", "SALET"),
    ("rank", "--top", "5"),
    ("optimal-tree", "--start", "SALET", "--quiet"),
]


def wall(argv: list[str]) -> float:
    """Return the wall time of one process running ``argv`` (output discarded)."""
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--gpusolve", action="append", help="gpusolve executables [default: this one]")
    args = parser.parse_args()
    programs = args.gpusolve or [shutil.which("gpusolve") or os.path.join(os.path.dirname(sys.executable),
                                                                       "gpusolve")]
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; best and median of "
          f"{args.repeat} runs, seconds")
    base = [wall([sys.executable, "-c", "pass"]) for _ in range(args.repeat)]
    print(f"{'python -c pass':<44} {min(base):6.3f} {statistics.median(base):6.3f}")
    for command in COMMANDS:
        for program in programs:
            wall([program, *command])  # warm: kernels compiled, matrix cached
        times: dict[str, list[float]] = {p: [] for p in programs}
        for _ in range(args.repeat):
            for program in programs:
                times[program].append(wall([program, *command]))
        for program in programs:
            label = " ".join(["gpusolve", *command]) + (f"  [{program}]" if len(programs) > 1 else "")
            print(f"{label:<44} {min(times[program]):6.3f} {statistics.median(times[program]):6.3f}")


if __name__ == "__main__":
    main()
