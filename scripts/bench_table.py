"""Time the exact values of the table sample (issues 35, 36) and project the complete table.

    python scripts/bench_table.py [--mode normal|hard] [--lists default|nyt-2023-07]
        [--part uniform|top|all] [--limit N] [--words W1,W2] [--backends cpu[,cuda,auto]]
        [--workers N|default] [--word-timeout SECONDS] [--out FILE.json] [--anchor PATH/wordle]
        [--dry-run]

The sample (``scripts/table_sample.py``, ``tests/data/table_sample/``): 100 seeded uniform start
words and the 20 with the highest finite totals in the anchor's published table. Each start word
runs alone, as a fresh process with a fresh run directory (``gpusolve optimal-tree --rank --words
W --run-dir ...``, on each backend in turn, and with ``--anchor`` the anchor's ``wordle -w W`` on
the same lists, the programs taking turns), under ``--word-timeout`` (a word stopped there is
unfinished). Per word it prints the search seconds (the run store's seconds for the word; the
anchor's own ``Time taken``), the search CPU seconds (the process's, all threads, less a process
start's), the process's CPU and wall seconds, and the total against the anchor's published one
(``==``/``!=``). On a shared machine the search CPU seconds are the steadier measure.
Then each part's distribution (median, p90, max, sum) and the projected complete table. One
untimed run of a cheap start word on each backend first warms numba's and the pattern matrix's
caches.

The projection stratifies the published table by its own counts: the top 20 stand for themselves
(each counted once: the costliest 0.15% of the table); the uniform part's start words that the
anchor finds feasible (and not in the top 20) stand for the table's other feasible start words,
each weighted (feasible lines - 20) / (such words measured); its infeasible ones for the table's
infeasible lines, each weighted (infeasible lines) / (such words measured). A word that did not
finish counts at the timeout (in search CPU seconds: those it spent until then), and a stratum
with no word measured counts nothing: the projection then says it is a lower bound. Starting
each word's process afresh leaves out what a table run shares across start words (its solved
subproblems), so the projection is of words computed alone.

Exits 1 if any total differs from the anchor's published one (or a process failed), else 0.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_anchor import peer, timed
from table_sample import SETTINGS, TOP, Sample, load

BACKENDS = ("cpu", "cuda", "auto")
ANCHOR = "anchor"
"""The anchor's row name (``--anchor``), beside the backends'."""

WARM = {"default": "SALET", "nyt-2023-07": "TARSE"}
"""A cheap start word of each lists (their best), timed by nobody: its run warms numba's and the
pattern matrix's caches before the first timed word."""


def gpusolve_args(args: argparse.Namespace, word: str, backend: str, run_dir: Path) -> list[str]:
    """Return the command timing one start word's exact value on ``backend``."""
    lists = (["--guesses", args.guesses, "--answers", args.answers] if args.guesses
             else [] if args.lists == "default" else ["--lists", args.lists])
    workers = [] if args.workers == "default" else ["--workers", args.workers]
    return [sys.executable, "-m", "gpusolve", "optimal-tree", "--rank", "--words", word, "--top", "1",
            "--mode", args.mode, *lists, "--backend", backend, *workers, "--run-dir", str(run_dir),
            "--json", "--quiet"]


def run_gpusolve(args: argparse.Namespace, word: str, backend: str, extra: Sequence[str] = ()) -> dict:
    """Return one start word's figures on ``backend``: total (None: infeasible), finished, search,
    CPU and wall seconds."""
    from gpusolve.runs.runstore import read_run

    with tempfile.TemporaryDirectory(prefix="bench_table_") as tmp:
        run = Path(tmp) / "run"
        argv = [*gpusolve_args(args, word, backend, run), *extra]
        out, wall, cpu, finished = timed(argv, args.word_timeout)
        figures = {"finished": finished, "wall": wall, "cpu": cpu, "search": None, "total": None}
        try:
            row = json.loads(out)["results"][0]
        except (ValueError, KeyError, IndexError):
            return {**figures, "failed": finished}
        figures["total"] = row["total"] if row.get("exact", True) else f">= {row['total']}"
        figures["search"] = (read_run(run).timings.get(word) or (None,))[0]
    return figures


def run_anchor(args: argparse.Namespace, word: str) -> dict:
    """Return the anchor's figures for one start word, in the same shape as ``run_gpusolve``'s."""
    got = peer(args.anchor, args.lists, [word], None, args.word_timeout, hard=args.mode == "hard")
    value = got["values"].get(word)
    total = None if value is None or int(value) >= 1_000_000_000 else int(value)
    return {"finished": got["finished"], "wall": got["wall"], "cpu": got["cpu"], "search": got["search"],
            "total": total, **({"failed": True} if got["finished"] and value is None else {})}


def verdict(figures: dict, published: int | None) -> str:
    """Return how a program's total compares with the published one ('==', '!=', or why none)."""
    if figures.get("failed"):
        return "failed"
    if not figures["finished"]:
        return "unfinished"
    return "==" if figures["total"] == published else "!="


def shown(total: int | str | None) -> str:
    """Return a total as the rows print it (None: infeasible)."""
    return "infeasible" if total is None else f"{total:,}" if isinstance(total, int) else str(total)


MEASURES = {"search": "search seconds (wall)", "search_cpu": "search CPU seconds"}
"""What the distributions and projections are given in: a word's search seconds (the run store's;
the anchor's own), and its process's CPU seconds less a process start's (the median CPU seconds of
two runs that stop at once, ``--cutoff 1``: imports, loading the kernels and the matrix)."""


def seconds(figures: dict, timeout: float | None, measure: str = "search") -> float:
    """Return a word's search seconds or search CPU seconds (its wall or CPU seconds where the
    search's are unknown; where it did not finish, the timeout or the CPU seconds until then)."""
    if measure == "search_cpu":
        return figures.get("search_cpu", figures["cpu"])
    if not figures["finished"]:
        return timeout or figures["wall"]
    return figures["search"] if figures["search"] is not None else figures["wall"]


def row_line(part: str, word: str, published: int | None, program: str, figures: dict) -> str:
    """Return one word's printed row on one program."""
    search = "-" if figures["search"] is None else f"{figures['search']:.2f}"
    total = shown(figures["total"]) if figures["finished"] and not figures.get("failed") else "-"
    return (f"{part:7} {word} {program:6} {total:>10} {verdict(figures, published):10} "
            f"{shown(published):>10}   search {search:>7} s   search CPU {figures['search_cpu']:7.2f} s   "
            f"process: CPU {figures['cpu']:7.2f} s, wall {figures['wall']:7.2f} s")


def distribution(values: list[float]) -> dict:
    """Return the median, 90th percentile, largest and sum of some seconds."""
    ordered = sorted(values)
    return {"n": len(ordered), "median": statistics.median(ordered),
            "p90": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], "max": ordered[-1],
            "sum": sum(ordered)}


def projection(sample: Sample, measured: dict[str, dict[str, dict]], timeout: float | None,
               measure: str = "search") -> dict:
    """Return the projected seconds of the complete table from one program's measured words
    (``measured[part][word]``): each stratum's weight, sum and what it stands for."""
    feasible = sample.lines - sample.infeasible
    top = measured.get("top", {})
    uniform = {w: f for w, f in measured.get("uniform", {}).items() if w not in sample.top}
    strata = [
        ("top", f"the {TOP} highest finite totals", TOP, top),
        ("feasible", "the other feasible start words", feasible - TOP,
         {w: f for w, f in uniform.items() if sample.totals[w] is not None}),
        ("infeasible", "the start words no strategy finishes", sample.infeasible,
         {w: f for w, f in uniform.items() if sample.totals[w] is None}),
    ]
    out, total, lower = [], 0.0, []
    for name, what, count, words in strata:
        if not count:
            continue
        if not words:
            lower.append(f"no word measured of {what} ({count:,})")
            out.append({"stratum": name, "stands_for": count, "measured": 0, "weight": None, "seconds": 0.0})
            continue
        weight = count / len(words)
        part = weight * sum(seconds(f, timeout, measure) for f in words.values())
        total += part
        out.append({"stratum": name, "stands_for": count, "measured": len(words), "weight": weight,
                    "seconds": part})
    if unfinished := sum(not f["finished"] for part in measured.values() for f in part.values()):
        lower.append(f"{unfinished} word(s) unfinished, counted at the timeout (CPU: until then)")
    return {"seconds": total, "strata": out, "lower_bound": lower}


def projection_text(program: str, p: dict, sample: Sample, measure: str = "search") -> str:
    """Return the projection's lines: the total and how each stratum weighs in."""
    kind = "a LOWER BOUND: " + "; ".join(p["lower_bound"]) if p["lower_bound"] else "an estimate"
    lines = [f"projected complete table, {program}, in {MEASURES[measure]}: {p['seconds']:,.0f} s = "
             f"{p['seconds'] / 3600:.2f} h ({sample.lines:,} start words; {kind})"]
    for s in p["strata"]:
        said = f"  {s['stratum']:10}: {s['stands_for']:,} start words ({s['stands_for'] / sample.lines:.2%})"
        if s["weight"] is None:
            lines.append(f"{said}: none measured")
            continue
        share = s["seconds"] / p["seconds"] if p["seconds"] else 0.0
        lines.append(f"{said} from {s['measured']} measured, each weighted {s['weight']:.2f}: "
                     f"{s['seconds']:,.0f} s ({share:.0%} of the projection)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="normal", choices=("normal", "hard"))
    parser.add_argument("--lists", default="default", choices=sorted({li for _, li in SETTINGS}))
    parser.add_argument("--part", default="all", choices=("uniform", "top", "all"))
    parser.add_argument("--limit", type=int, help="the first N words of each part only (quick runs)")
    parser.add_argument("--words", help="only these words of the sample, W1,W2,... (quick runs)")
    parser.add_argument("--backends", default="cpu", type=lambda s: s.split(","))
    parser.add_argument("--workers", default="0", help="gpusolve's --workers (default: 0, in one process; "
                        "'default': the option left out)")
    parser.add_argument("--word-timeout", type=float, help="seconds a start word may take (then: unfinished)")
    parser.add_argument("--out", type=Path, help="write every figure to this JSON file")
    parser.add_argument("--anchor", help="the anchor's binary: also time it on the same words, taking turns")
    parser.add_argument("--dry-run", action="store_true", help="check the sample, print what would run")
    parser.add_argument("--guesses", help=argparse.SUPPRESS)  # other lists (tests): totals then differ
    parser.add_argument("--answers", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if bad := set(args.backends) - set(BACKENDS):
        raise SystemExit(f"error: --backends takes {', '.join(BACKENDS)}, not {', '.join(sorted(bad))}")
    if args.workers != "default" and not args.workers.isdigit():
        raise SystemExit(f"error: --workers takes a number of workers or 'default', not {args.workers!r}")
    if args.mode == "normal" and args.lists != "default":
        raise SystemExit("error: the sample's normal-mode table is on the default lists")
    from gpusolve.core.errors import GpusolveError

    try:
        sample = load(args.mode, args.lists)
    except GpusolveError as e:
        raise SystemExit(f"error: {e}") from None
    chosen = ("uniform", "top") if args.part == "all" else (args.part,)
    picked = set(args.words.upper().split(",")) if args.words else None
    if picked and (unknown := picked - set(sample.part("all"))):
        raise SystemExit(f"error: --words: not in the sample: {', '.join(sorted(unknown))}")
    parts = {p: [w for w in sample.part(p) if picked is None or w in picked][:args.limit] for p in chosen}
    programs = [*args.backends, *([ANCHOR] if args.anchor else [])]
    print(f"bench_table {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC: {args.mode} mode, "
          f"{args.lists} lists; {', '.join(f'{p} {len(w)}' for p, w in parts.items())} start words; "
          f"{', '.join(programs)}; --workers {args.workers}; word timeout {args.word_timeout or 'none'}; "
          f"{os.cpu_count()} CPUs, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    print(f"{'part':7} {'word':5} {'prog':6} {'total':>10} {'':10} {'anchor':>10}", flush=True)
    measured: dict[str, dict[str, dict[str, dict]]] = {p: {} for p in programs}
    start_cpu = {ANCHOR: 0.0}
    for backend in [] if args.dry_run else args.backends:
        run_gpusolve(args, WARM[args.lists], backend)
        at_once = [run_gpusolve(args, WARM[args.lists], backend, ["--cutoff", "1"]) for _ in range(2)]
        start_cpu[backend] = statistics.median(f["cpu"] for f in at_once)
        print(f"a process start on {backend}: {start_cpu[backend]:.2f} CPU s (the median of 2, --cutoff 1)")
    turn = 0
    for part, words in parts.items():
        for word in words:
            order = programs[turn % len(programs):] + programs[:turn % len(programs)]  # taking turns
            turn += 1
            for program in order:
                if args.dry_run:
                    argv = (gpusolve_args(args, word, program, Path("RUN"))[2:] if program != ANCHOR else
                            [args.anchor, "-w", word.lower(), *(["-H"] if args.mode == "hard" else [])])
                    print(f"{part:7} {word} {program:6} anchor {shown(sample.totals[word])}; would run: "
                          f"{' '.join(argv)}", flush=True)
                    continue
                figures = run_gpusolve(args, word, program) if program != ANCHOR else run_anchor(args, word)
                figures["search_cpu"] = max(0.0, figures["cpu"] - start_cpu[program])
                measured[program].setdefault(part, {})[word] = figures
                print(row_line(part, word, sample.totals[word], program, figures), flush=True)
    if args.dry_run:
        return
    report = {"date": datetime.date.today().isoformat(), "args": {k: str(v) for k, v in vars(args).items()},
              "load_end": os.getloadavg(), "sample": sample.provenance, "measured": measured,
              "distributions": {}, "projections": {}}
    print()
    for program, by_part in measured.items():
        for part, words in by_part.items():
            for measure in MEASURES:
                d = distribution([seconds(f, args.word_timeout, measure) for f in words.values()])
                report["distributions"][f"{program} {part} {measure}"] = d
                print(f"{program:6} {part:7} {MEASURES[measure]:21}: n {d['n']}, median {d['median']:.2f}, "
                      f"p90 {d['p90']:.2f}, max {d['max']:.2f}, sum {d['sum']:.1f}")
    print()
    for program, by_part in measured.items():
        for measure in MEASURES:
            p = projection(sample, by_part, args.word_timeout, measure)
            report["projections"][f"{program} {measure}"] = p
            print(projection_text(program, p, sample, measure))
    wrong = [(program, part, word, verdict(f, sample.totals[word]))
             for program, by_part in measured.items() for part, words in by_part.items()
             for word, f in words.items() if verdict(f, sample.totals[word]) in ("!=", "failed")]
    report["differ"] = wrong
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"\nload at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          + (f"DIFFERENT or failed: {wrong}" if wrong else "every finished total equals the anchor's"))
    if wrong:
        sys.exit(1)


if __name__ == "__main__":
    main()
