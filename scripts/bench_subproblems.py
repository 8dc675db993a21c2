"""Reuse of solved subproblems across exact rankings: nodes and time of a second run of other start
words in the first run's directory (its cached subproblems preloaded) against the same words fresh.

    python scripts/bench_subproblems.py [--first SALET,SLATE,TRACE,CRATE] [--second LEAST,...]

Each step is one `gpusolve optimal-tree --rank --workers 0 --json` process, started outside the
checkout; a warm-up process first loads the pattern matrix and the compiled kernels into their
disk caches. Prints one row per step: nodes searched, hits on cached subproblems, subproblems in
the run directory, the ranking's own seconds and the process's wall and CPU seconds. The last
step ranks all the words in one process, whose memo tables keep every entry from word to word
(not only those the store keeps): the most reuse can give.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(words: str, run_dir: Path, args: list[str], cwd: Path) -> tuple[dict, float, float]:
    """Return (the ranking JSON, wall seconds, CPU seconds) of one ranking process."""
    command = [sys.executable, "-m", "gpusolve", "optimal-tree", "--rank", "--words", words, "--workers", "0",
               "--json", "--quiet", "--top", "100", "--run-dir", str(run_dir), *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        sys.exit(proc.stderr or proc.stdout)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return json.loads(proc.stdout), wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", default="SALET,SLATE,TRACE,CRATE")
    parser.add_argument("--second", default="LEAST,REACT,CRANE,SLANT")
    parser.add_argument("--answers", default="answers-2315")
    parser.add_argument("--mode", default="normal")
    args = parser.parse_args()
    extra = ["--answers", args.answers, "--mode", args.mode]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        run(args.first.split(",")[0], tmp / "warm", extra, tmp)
        steps = [("first words, fresh", args.first, tmp / "shared"),
                 ("second words, reusing the first run's store", args.second, tmp / "shared"),
                 ("second words, fresh", args.second, tmp / "fresh"),
                 ("all words in one process (its memo keeps everything)", f"{args.first},{args.second}",
                  tmp / "together")]
        print("| step | words | nodes | store hits | subproblems stored | ranking s | wall s | CPU s |")
        print("|---|---|---|---|---|---|---|---|")
        values = {}
        for label, words, run_dir in steps:
            doc, wall, cpu = run(words, run_dir, extra, tmp)
            for r in doc["results"]:
                values.setdefault(r["word"], []).append({k: v for k, v in r.items() if k != "rank"})
            print(f"| {label} | {words} | {doc['nodes']:,} | {doc['store_hits']:,} | "
                  f"{doc['subproblems']:,} | {doc['seconds']:.1f} | {wall:.1f} | {cpu:.1f} |", flush=True)
        same = all(v == vs[0] for vs in values.values() for v in vs)
        print(f"\nresults equal with and without reuse: {same}")


if __name__ == "__main__":
    main()
