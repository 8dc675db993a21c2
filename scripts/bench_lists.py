"""The NYT word-list eras (``--lists``): the issue's benchmarks on the newest lists, and the
figures of each era's table in docs/lists.md.

Usage:
  python scripts/bench_lists.py bench [--skip-ranking]
      exact ``optimal-tree --start TARSE --lists nyt-2023-07`` and the greedy ranking of all
      14,855 start words (``rank --by tree --lists nyt-2023-07 --workers 0``), each a whole process
  python scripts/bench_lists.py era NAME [--top 200] [--exact 3] [--words SALET] [--skip STEP,...]
                                    [--out FILE]
      one era's table: the --top start words by entropy ranked by their greedy trees, exact values
      (``optimal-tree --start W``) of --words and the --exact best of those, the worst case
      (``optimal-tree --objective worst-case``) and the Absurdle value, with the time of each

Every step but the greedy trees of the top words is a fresh ``gpusolve ... --json`` process
(after one untimed warm-up, so the numba and pattern-matrix caches are warm); the greedy trees
run in this process through ``rank_trees``, the code ``rank --by tree`` runs. Prints one line per
step with wall and CPU seconds; ``--out`` also appends each step as a JSON line. On a shared
machine run it under ``nice`` and say so with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

from bench_optimal import run_gpusolve

STEPS = ("greedy", "exact", "worst-case", "absurdle")


def say(step: str, what: str, run: dict, out: str | None, era: str) -> None:
    """Print one step's line and append it to ``out`` as JSON."""
    print(f"{era:12} {step:10} {what:60} wall {run['wall']:8.1f} s  cpu {run['cpu']:8.1f} s  "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    if out:
        with open(out, "a") as f:
            f.write(json.dumps({"era": era, "step": step, "when": time.strftime("%Y-%m-%d %H:%M UTC",
                                time.gmtime()), **run}) + "\n")


def greedy_top(era: str, top: int) -> dict:
    """Return the greedy trees of the ``top`` start words by entropy, ranked, timed in process."""
    from gpusolve.core.eras import era as lists_of
    from gpusolve.core.games import make_game
    from gpusolve.core.patterns import pattern_matrix
    from gpusolve.runs.startrank import rank_trees
    from gpusolve.search.metrics import rank_guesses

    lists = lists_of(era)
    pm = pattern_matrix(make_game(), lists.guesses, lists.answers)
    words = [s.word for s in rank_guesses(pm, "entropy")[:top]]
    start, cpu = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory() as run_dir:
        ranked = rank_trees(pm, lists.guesses, lists.answers, words=words, workers=0, run_dir=run_dir)
    return {"result": {"results": ranked.rows[:20]}, "wall": time.perf_counter() - start,
            "cpu": time.process_time() - cpu}


def era_table(era: str, top: int, exact: int, words: list[str], skip: set[str], out: str | None) -> None:
    """Run and print every step of one era's table."""
    lists = ["--lists", era, "--json", "--quiet"]
    run_gpusolve(["optimal-tree", "--state", "SALET:.G...,CORNY:....G", *lists])  # warm the caches
    best = []
    if "greedy" not in skip:
        run = greedy_top(era, top)
        best = [r["word"] for r in run["result"]["results"]]
        shown = ", ".join(f"{r['word']} {r['mean']:.4f}" for r in run["result"]["results"][:3])
        say("greedy", f"top {top} by entropy, by greedy tree: {shown}", run, out, era)
    if "exact" not in skip:
        for word in dict.fromkeys([*words, *best[:exact]]):
            run = run_gpusolve(["optimal-tree", "--start", word, *lists])
            r = run["result"]
            say("exact", f"{word} {r['total']} mean {r['mean']:.4f} proven {r['proven']} "
                f"nodes {r['nodes']:,}", run, out, era)
    if "worst-case" not in skip:
        run = run_gpusolve(["optimal-tree", "--objective", "worst-case", *lists])
        r = run["result"]
        say("worst-case", f"{r['worst']} (proven {r['proven']}), "
            f"first guess {r['first_guess']}", run, out, era)
    if "absurdle" not in skip:
        run = run_gpusolve(["absurdle", *lists])
        r = run["result"]
        line = " ".join(m["guess"] for m in r["line"])
        say("absurdle", f"{r['worst']} guesses (proven {r['proven']}), line {line}", run, out, era)


def bench(skip_ranking: bool, out: str | None) -> None:
    """Run and print the issue's benchmarks on the newest lists."""
    era = "nyt-2023-07"
    lists = ["--lists", era, "--json", "--quiet"]
    run_gpusolve(["optimal-tree", "--state", "SALET:.G...,CORNY:....G", *lists])  # warm the caches
    run = run_gpusolve(["optimal-tree", "--start", "TARSE", *lists])
    r = run["result"]
    say("exact", f"TARSE {r['total']} mean {r['mean']:.4f} proven {r['proven']} search {r['seconds']:.1f} s",
        run, out, era)
    if skip_ranking:
        return
    with tempfile.TemporaryDirectory() as run_dir:
        run = run_gpusolve(["rank", "--by", "tree", "--workers", "0", "--top", "10", "--run-dir", run_dir,
                            *lists])
    rows = run["result"]["results"]
    say("ranking", f"{run['result']['candidates']:,} start words, best {rows[0]['word']} "
        f"{rows[0]['mean']:.4f}", run, out, era)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("bench", "era"))
    parser.add_argument("era", nargs="?", help="with 'era': the era's name")
    parser.add_argument("--top", type=int, default=200, help="start words by entropy to build trees from")
    parser.add_argument("--exact", type=int, default=3, help="best greedy start words to solve exactly")
    parser.add_argument("--words", default="SALET", help="start words to solve exactly besides the best")
    parser.add_argument("--skip", default="", help=f"steps to leave out: {','.join(STEPS)}")
    parser.add_argument("--skip-ranking", action="store_true", help="bench: only the exact TARSE")
    parser.add_argument("--out", help="append each step as a JSON line here")
    options = parser.parse_args()
    print(f"# {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} before; "
          f"python {sys.version.split()[0]}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    if options.what == "bench":
        bench(options.skip_ranking, options.out)
    elif options.era is None:
        parser.error("era: name the era (see gpusolve lists)")
    else:
        era_table(options.era, options.top, options.exact, list(filter(None, options.words.split(","))),
                  set(filter(None, options.skip.split(","))), options.out)


if __name__ == "__main__":
    main()
