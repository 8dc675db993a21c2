"""Benchmark the exact optimal-tree search: whole-process wall time, nodes, peak memory.

Usage: python scripts/bench_optimal.py [--words 5] [--modes normal,hard] [--backend cpu]

Each case runs in a fresh process (``python -m gpusolve optimal-tree --start WORD
--answers answers-2315 --json --quiet``), after one untimed warm-up run so the numba cache
is warm. Prints one line per case: start word, mode, total, proven, nodes, the search's own
seconds, the whole process's wall seconds and CPU seconds (all threads; on a machine shared
with other work the CPU time is the steadier figure), and its peak resident memory (MiB). The start
words are SALET plus ``--words`` words spread over the top 100 by entropy.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time


def top_entropy_words(count: int) -> list[str]:
    """Return ``count`` words spread evenly over the top 100 by entropy (answers-2315)."""
    from gpusolve.core.games import make_game
    from gpusolve.core.patterns import pattern_matrix
    from gpusolve.search.metrics import rank_guesses

    pm = pattern_matrix(make_game(), "allowed", "answers-2315")
    top = [s.word for s in rank_guesses(pm, "entropy")[:100]]
    if count <= 0:
        return []
    picks = sorted({round(i * 99 / max(count - 1, 1)) for i in range(count)})
    return [top[i] for i in picks]


def run_gpusolve(args: list[str]) -> dict:
    """Run ``gpusolve ARGS`` (which must print JSON) in a fresh process; return its JSON as
    ``result`` with the wall and CPU seconds and the peak memory (MiB) of the whole process."""
    code = (
        "import json, resource, sys\n"
        "from gpusolve.cli import app\n"
        "try:\n"
        "    app(sys.argv[1:], standalone_mode=False)\n"
        "finally:\n"
        "    u = resource.getrusage(resource.RUSAGE_SELF)\n"
        "    print(json.dumps({'maxrss_mb': u.ru_maxrss / 1024, 'cpu': u.ru_utime + u.ru_stime}))\n"
    )
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    text = done.stdout
    usage = json.loads(text[text.rindex("{\"maxrss_mb\""):])
    return {"result": json.loads(text[: text.rindex("{\"maxrss_mb\"")]), "wall": wall, **usage}


def run_case(word: str, mode: str, backend: str) -> dict:
    """Run one case in a fresh process; return its JSON plus wall time and peak memory."""
    run = run_gpusolve(["optimal-tree", "--start", word, "--mode", mode, "--answers", "answers-2315",
                        "--json", "--quiet", "--backend", backend])
    return {**run.pop("result"), **run}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=5, help="top-100 entropy words to add to SALET")
    parser.add_argument("--modes", default="normal,hard")
    parser.add_argument("--backend", default="cpu")
    options = parser.parse_args()
    print(f"# {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} before; "
          f"python {sys.version.split()[0]}")
    run_case("SALET", "normal", options.backend)  # warm the numba and matrix caches
    cases = [("SALET", m) for m in options.modes.split(",")]
    cases += [(w, "normal") for w in top_entropy_words(options.words) if w != "SALET"]
    print(f"{'start':6} {'mode':7} {'total':>6} {'mean':>7} {'proven':>6} {'nodes':>8} "
          f"{'search s':>8} {'wall s':>7} {'cpu s':>6} {'peak MiB':>8}")
    for word, mode in cases:
        r = run_case(word, mode, options.backend)
        print(f"{word:6} {mode:7} {r['total']:>6} {r['mean']:>7.4f} {r['proven']!s:>6} {r['nodes']:>8} "
              f"{r['seconds']:>8.2f} {r['wall']:>7.2f} {r['cpu']:>6.2f} {r['maxrss_mb']:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
