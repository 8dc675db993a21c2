"""gpusolve's exact search against a peer solver, side by side in one run.

Usage: python scripts/bench_anchor.py --anchor PATH [--cases salet,onium,...] [--seed 2026]

``PATH`` is a binary of a peer that takes alex1770/wordle's ``wordle.cpp`` options (``-a`` allowed
list, ``-h`` hidden list, ``-w`` start word, ``-t`` word file, ``-b`` cutoff, ``-s`` evaluate every
listed word). Build it yourself, outside this repository, as its own README says; this script
only runs it. Each case runs both programs on the same word lists and start words, one after the
other (the peer first), each in a fresh process; the table gives each one's search seconds (what
it reports itself), whole-process wall and CPU seconds (CPU: all threads; the peer is single
threaded, gpusolve uses every core), and the wall-time ratio. On a shared machine only the
ratio means something; rerun to see its spread.

Cases (``--cases``, comma-separated; default: all but ``random30``, ``random100`` and ``proof``):
  salet     exact SALET, default lists (2,309 answers, 12,972 guesses)
  tarse     exact TARSE on the NYT's 2023-07 lists (3,158 answers, 14,855 guesses)
  three     exact SHARE, TSADE, SKART in one process
  random6   exact totals of 6 random start words in one process
  onium     ONIUM, only whether it is below 7,898
  cutoff10  10 random start words, only whether each is below 7,898
  random30  exact values of 30 random start words: the complete table's throughput (words/hour)
  random100 exact values of 100 random start words: the full ranking's throughput (words/hour)
  qajaq     exact QAJAQ (gpusolve only unless --slow-peer: the peer takes hours)
  proof     the best first guess over all 12,972 (gpusolve: whole; the peer: first --budget seconds)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def lists(name: str) -> tuple[Path, Path]:
    """Return the (allowed, hidden) files of a named pair of lists."""
    data = ROOT / "data"
    if name == "default":
        return data / "guesses12972.txt", data / "answers2309.txt"
    return data / "guesses14855.txt", data / "answers3158.txt"


def random_words(count: int, seed: int) -> list[str]:
    """Return ``count`` start words drawn from the 12,972 allowed guesses with ``seed``."""
    words = [w.strip().upper() for w in lists("default")[0].read_text().split()]
    rng = np.random.default_rng(seed)
    return [words[i] for i in sorted(rng.choice(len(words), count, replace=False))]


def timed(args: list[str], timeout: float | None = None) -> tuple[str, float, float, bool]:
    """Run a command; return (stdout, wall s, CPU s of the child and the processes it waited for,
    finished?). Past ``timeout`` its whole process group is killed (a Dask run's workers too)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as cwd:  # a scratch folder: the peer writes files where it runs
        child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=cwd,
                                 start_new_session=True)
        try:
            out, finished = child.communicate(timeout=timeout)[0], True
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            out, finished = child.communicate()[0], False
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return out, wall, cpu, finished


def peer(anchor: str, pair: str, words: list[str], cutoff: int | None, timeout: float | None = None,
         hard: bool = False) -> dict:
    """Run the peer on ``words`` (one: -w; several: -t file -s; ``hard``: -H); return its figures."""
    allowed, hidden = lists(pair)
    args = [anchor, "-a", str(allowed), "-h", str(hidden), *(["-H"] if hard else [])]
    with tempfile.TemporaryDirectory() as tmp:
        if len(words) == 1:
            args += ["-w", words[0].lower()]
        elif words:
            path = Path(tmp) / "words"
            path.write_text("\n".join(w.lower() for w in words) + "\n")
            args += ["-t", str(path), "-s"]
        if cutoff is not None:
            args += ["-b", str(cutoff)]
        out, wall, cpu, finished = timed(args, timeout)
    search = re.search(r"Time taken = ([\d.]+)s", out)
    firsts = re.findall(r"First guess (\w+) ([ >])= +(\d+)", out)
    score = re.search(r"Best first guess score = (\d+)", out)
    return {"search": float(search.group(1)) if search else None, "wall": wall, "cpu": cpu,
            "finished": finished, "values": {w.upper(): (">= " if g == ">" else "") + v for w, g, v in firsts}
            or ({words[0]: ((">= " if cutoff and int(score.group(1)) >= cutoff else "") + score.group(1))}
                if score and words else {}),
            "tried": len(firsts)}


def done_in_store(run: Path) -> int:
    """Return how many start words a (possibly stopped) ranking run has finished."""
    import sqlite3

    if not (run / "run.sqlite").exists():
        return 0
    with sqlite3.connect(f"file:{run / 'run.sqlite'}?mode=ro", uri=True) as db:
        return db.execute("select count(*) from results").fetchone()[0]


def ours(pair: str, words: list[str] | None, cutoff: int | None, timeout: float | None = None,
         run_dir: Path | None = None, workers: int = 0) -> dict:
    """Run gpusolve on ``words`` (one: --start; several: --rank --words; None: the whole proof)."""
    allowed, hidden = lists(pair)
    args = [sys.executable, "-m", "gpusolve", "optimal-tree", "--guesses", str(allowed), "--answers",
            str(hidden), "--json", "--quiet"]
    with tempfile.TemporaryDirectory() as tmp:
        run = run_dir or Path(tmp) / "run"
        if words is None:
            args += ["--run-dir", str(run)]
        elif len(words) == 1:
            args += ["--start", words[0]]
        else:
            args += ["--rank", "--words", ",".join(words), "--top", "1000", "--run-dir", str(run),
                     "--workers", str(workers)]
        if cutoff is not None:
            args += ["--cutoff", str(cutoff)]
        out, wall, cpu, finished = timed(args, timeout)
        tried = done_in_store(run) if words and len(words) > 1 else 0
    figures = {"wall": wall, "cpu": cpu, "finished": finished, "search": None, "values": {}, "tried": tried}
    if not finished or not out.strip():
        return figures
    data = json.loads(out)
    figures["search"] = data.get("seconds")
    if words is None:
        figures["values"] = {b["guess"]: str(b["total"]) for b in data["best"]}
        figures["statement"] = data["statement"]
    elif len(words) == 1:
        total = data.get("total")
        figures["values"] = {words[0]: str(total) if total is not None else f">= {cutoff}"}
    else:
        figures["values"] = {r["word"]: ("" if r["exact"] else ">= ") + str(r["total"])
                             for r in data["results"]}
    return figures


def verdicts(figures: dict, cutoff: int | None) -> dict:
    """Return each word's value, as '>= cutoff' wherever it is at least the cutoff (one program may
    prove a higher bound than the other: both then prove the same thing)."""
    def verdict(value: str) -> str:
        number = int(value.removeprefix(">= "))
        return f">= {cutoff}" if cutoff is not None and number >= cutoff else value
    return {w: verdict(v) for w, v in figures["values"].items()}


CASES = {
    "salet": ("exact SALET, search only", "default", ["SALET"], None),
    "tarse": ("exact TARSE on the 3,158 / 14,855 lists", "nyt-2023-07", ["TARSE"], None),
    "three": ("exact SHARE, TSADE, SKART (one process)", "default", ["SHARE", "TSADE", "SKART"], None),
    "random6": ("exact values of 6 random start words (one process)", "default", "random6", None),
    "onium": ("`--start ONIUM --cutoff 7898`", "default", ["ONIUM"], 7898),
    "cutoff10": ("10 random start words, `--cutoff 7898`", "default", "random10", 7898),
    "random30": ("exact values of 30 random start words (one run)", "default", "random30", None),
    "random100": ("exact values of 100 random start words (one process)", "default", "random100", None),
    "qajaq": ("exact QAJAQ (true value 9,470)", "default", ["QAJAQ"], None),
}


def rate(who: str, figures: dict, words: int) -> str:
    """Return one program's start words per hour (those finished, if stopped by the time limit)."""
    done = words if figures["finished"] else figures["tried"]
    late = "" if figures["finished"] else f" ({done} of {words} within the time limit)"
    return f"{who} {done * 3600 / figures['wall']:.0f} words/hour{late}"


def against_published(path: Path, peer_figures: dict | None, ours_figures: dict) -> str:
    """Return how many of each program's exact values equal a published table's (``word mean total``
    lines), naming any that differ."""
    published = {line.split()[0].upper(): line.split()[2] for line in path.read_text().splitlines() if line}
    parts = []
    for who, figures in (("gpusolve", ours_figures), ("peer", peer_figures)):
        if not figures:
            continue
        values = figures["values"]
        wrong = sorted(w for w, v in values.items() if published.get(w) != v)
        parts.append(f"{who} {len(values) - len(wrong)} of {len(values)} equal to {path.name}"
                     + (f" (differ: {', '.join(f'{w} {values[w]} vs {published.get(w)}' for w in wrong)})"
                        if wrong else ""))
    return "; ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchor", help="the peer's binary (without it only gpusolve runs)")
    parser.add_argument("--cases", default="salet,tarse,three,random6,onium,cutoff10,qajaq")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the random start words")
    parser.add_argument("--budget", type=float, default=240, help="seconds the peer gets for 'proof'")
    parser.add_argument("--slow-peer", action="store_true", help="also run the peer on 'qajaq' (hours)")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds any one run may take")
    parser.add_argument("--workers", type=int, default=0,
                        help="gpusolve's --workers for several start words (0: in one process)")
    parser.add_argument("--published", type=Path,
                        help="the peer's published table (results_easy_...): values are checked against it")
    args = parser.parse_args()
    warm = [sys.executable, "-m", "gpusolve", "optimal-tree", "--start", "SALET", "--quiet", "--json"]
    subprocess.run(warm, capture_output=True, check=True)  # numba cache and pattern matrices warm
    rows = []
    for name in args.cases.split(","):
        if name == "proof":
            p = peer(args.anchor, "default", [], None, args.budget) if args.anchor else None
            g = ours("default", None, None, args.timeout)
            rows.append(("the whole proof over all 12,972 first guesses", p, g))
            print(f"proof: gpusolve {g.get('statement')} in {g['wall']:.0f} s; peer tried "
                  f"{p['tried'] if p else '-'} first guesses in {args.budget:.0f} s", flush=True)
            continue
        label, pair, words, cutoff = CASES[name]
        if isinstance(words, str):
            words = random_words(int(words[len("random"):]), args.seed)
            label += f": {', '.join(words)}"
        p = None
        if args.anchor and (name != "qajaq" or args.slow_peer):
            p = peer(args.anchor, pair, words, cutoff, args.timeout)
        g = ours(pair, words, cutoff, args.timeout, workers=args.workers)
        if args.published and cutoff is None:
            print(f"{name}: {against_published(args.published, p, g)}", flush=True)
        theirs, mine = (verdicts(f, cutoff) for f in (p, g)) if p else ({}, {})
        if any(theirs[w] != mine[w] for w in theirs.keys() & mine.keys()):  # a stopped run gave fewer
            print(f"  note: the values differ: peer {p['values']}, gpusolve {g['values']}", flush=True)
        rows.append((label, p, g))
        if len(words) > 1:
            rates = [rate(who, f, len(words)) for who, f in (("peer", p), ("gpusolve", g)) if f]
            print(f"{name}: {', '.join(rates)}", flush=True)
        print(f"{name}: peer {p and p['wall']:.2f} s, gpusolve {g['wall']:.2f} s" if p else
              f"{name}: gpusolve {g['wall']:.2f} s", flush=True)
    print()
    print("| work | gpusolve search s | peer search s | gpusolve wall s (CPU s) | peer wall s (CPU s) | "
          "wall ratio gpusolve / peer |")
    print("| --- | --- | --- | --- | --- | --- |")
    for label, p, g in rows:
        def fmt(f):
            if f is None:
                return "-", "-"
            search = f"{f['search']:.2f}" if f.get("search") is not None else "-"
            done = "" if f["finished"] else " (stopped)"
            return search, f"{f['wall']:.2f} ({f['cpu']:.2f}){done}"
        gs, gw = fmt(g)
        ps, pw = fmt(p)
        ratio = f"{g['wall'] / p['wall']:.2f}" if p and p["finished"] and g["finished"] else "-"
        print(f"| {label} | {gs} | {ps} | {gw} | {pw} | {ratio} |")


if __name__ == "__main__":
    main()
