"""Time the GPU against the CPU on every row of issues 27 and 35, in one run, and print the ratios.

    python scripts/bench_gpu.py [--repeats 3] [--proof-repeats 1] [--backends cuda,cpu] [--calls ...]
                                [--budget SECONDS] [--table-seconds S] [--out DIR]
                                [--guesses L --answers L --start WORD] [--dry-run]

Rows, in this order (``rows``): the exact search from ``--start`` in normal and hard mode (search
seconds and the whole process), the whole proof (whole process, a fresh run directory each
time; its split by phase, with each phase's seconds on the GPU, and where the GPU time went:
CUDA's start, each kernel, the copies to the host, as the JSON's ``gpu`` says), the hard whole
proof (likewise), the table sample (``scripts/bench_table.py``: the first ``--limit`` start
words of each of its parts, the limit sized to ``--table-seconds`` or the budget left; its own
report and projection of the complete table; the sums of its search seconds and its projection
as rows), the exact values of a few costly start words (``COSTLY``; a fresh run directory each
time), ``gpusolve rank`` (whole process), then the library calls: the
pattern matrix (its kernel), partition metrics of every guess, first-pass bounds of every start
word (each in a fresh process: one untimed call over a few guesses, then ``--repeats`` timed
ones). A row whose first timed run takes ``--long`` seconds or more is not repeated. Every
process is fresh, the backends take turns, each row prints its median, and ``cpu / cuda`` is
the speed-up. The numba cache (``$NUMBA_CACHE_DIR`` where set) and the pattern-matrix cache
(``$GPUSOLVE_CACHE_DIR``, default under ``--out``) are warmed by one untimed run of each
command before its row (but those with a fresh run directory), so that no row counts compiling.

``--budget``: the seconds the whole benchmark may take. Each process has an estimate of its
seconds on a GPU machine with 16 cores (``Command.seconds``, on ``cpu`` and on the GPU's
backends); a row that would not end within the budget at that pace is dropped whole (said, with
what it needed) and the next rows are tried: the rows are kept in the order above, so the
library calls drop first and the exact searches last. ``--dry-run`` prints every process the
run will start and every row it drops, the estimates standing for the processes' times. What
each proof gave the GPU (its JSON's ``gpu.counts``: launches by
kernel, cells, bytes each way, by phase; the figures ``--backend count`` gives without a GPU)
prints after the table. Stopped early (SIGTERM, a failure), it prints the rows so far. Without
a GPU, ``--backends cpu`` runs every row on the CPU. All samples go to ``DIR/bench_gpu.json``.
"""


from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path

CALLS = ("pattern_matrix", "metrics", "first_pass")
"""The library calls timed inside one fresh process each (``--call``)."""

CALL_SECONDS = {"pattern_matrix": (6, 8), "metrics": (8, 8), "first_pass": (60, 15)}
"""About how long each library call's process takes (``Command.seconds``)."""


@dataclass(frozen=True)
class Command:
    """A ``gpusolve`` command timed as a whole process; ``search`` rows read its JSON ``seconds``."""

    label: str
    args: tuple[str, ...]
    search: bool = False
    proof: bool = False
    fresh: bool = False
    """A fresh run directory each time, the caches not warmed by it, ``--proof-repeats`` runs."""
    seconds: tuple[float, float] = (10, 10)
    """About how long one process takes on a GPU machine with 16 cores: on ``cpu``, on the GPU's
    backends (the budget's estimates)."""

    def estimate(self, backend: str) -> float:
        """Return the seconds one process is expected to take on ``backend``."""
        return self.seconds[backend != "cpu"]


COSTLY = ("PIXIE", "GUNKS", "AMAZE", "TAIGA", "COUPS", "PLOTZ")
"""Start words whose buckets hold sets of 256 answers or more (two or three each): their first
passes over every guess are most of what the complete table costs (``docs/benchmarks.md``)."""


TABLE = "table sample"
"""The row of the table sample (``scripts/bench_table.py``), between the commands."""

TABLE_SECONDS = (10, 6)
"""About how long the table sample takes to warm each backend (three runs of a cheap word), and each of
its start words on one backend (the costliest and ordinary words alike, with a process's start)."""


def commands(start: str) -> list[Command]:
    """Return the whole-process rows of the table, in the order they run (the budget drops the last
    first)."""
    exact = ("optimal-tree", "--start", start, "--json", "--quiet")
    proof = ("optimal-tree", "--json", "--quiet")
    return [
        Command(f"exact {start}, normal", exact, search=True, seconds=(3, 4)),
        Command(f"exact {start}, hard", (*exact, "--mode", "hard"), search=True, seconds=(4, 5)),
        Command("whole proof", proof, proof=True, fresh=True, seconds=(40, 18)),
        Command("whole proof, hard", (*proof, "--mode", "hard"), proof=True, fresh=True, seconds=(60, 60)),
        Command(f"exact values of {len(COSTLY)} costly start words", ("optimal-tree", "--rank", "--words",
                ",".join(COSTLY), "--top", "1000", "--workers", "0", "--json", "--quiet"), fresh=True,
                seconds=(30, 30)),
        Command("gpusolve rank", ("rank", "--json"), seconds=(5, 6)),
    ]


def rows(start: str, calls: list[str]) -> list:
    """Return every row in the order it runs (the exact searches first: their untimed runs fill
    the caches), the table sample after the hard whole proof, the library calls (``--calls``) last."""
    found = commands(start)
    return [*found[:4], TABLE, *found[4:], *calls]




# ---------------------------------------------------------------- in a fresh process (--call)

def timed_call(name: str, backend: str, repeats: int, guesses: str, answers: str, long: float) -> list[float]:
    """Return the seconds of ``repeats`` calls of library call ``name`` over every guess on
    ``backend`` (one, if it takes ``long`` seconds or more), after one untimed call over a few
    (which compiles or loads the kernels)."""
    import numpy as np
    from gpusolve.kernels.stats import N_STATS

    from gpusolve.core.backend import get_backend
    from gpusolve.core.games import make_game
    from gpusolve.core.patterns import build_codes, pattern_matrix
    from gpusolve.search.bounds import start_first_pass

    game = make_game()
    engine = get_backend(backend)
    pm = pattern_matrix(game, guesses, answers, backend)
    cols = np.arange(pm.shape[1], dtype=np.int32)
    calls = {
        "pattern_matrix": lambda rows: build_codes(game, [pm.guesses[r] for r in rows], pm.answers, engine),
        "metrics": lambda rows: engine.reply_stats(pm.codes, rows, cols, np.array([0, len(cols)]),
                                                   game.n_patterns, game.solved, np.arange(N_STATS)),
        "first_pass": lambda rows: start_first_pass(pm, "normal", 6, rows),
    }
    every = np.arange(pm.shape[0], dtype=np.int32)
    calls[name](every[:8])
    seconds = []
    while len(seconds) < repeats and not (seconds and seconds[0] >= long):
        start = time.perf_counter()
        calls[name](every)
        seconds.append(time.perf_counter() - start)
    return seconds


def device() -> str:
    """Return the GPU (name, compute capability) or why there is none, and the CPU threads."""
    import numba

    from gpusolve.core.backend import cuda_status, device_info

    info = device_info()
    gpu = f"{info['name']} (compute {info['compute_capability']})" if info else f"no GPU: {cuda_status()[1]}"
    return f"{gpu}; {numba.get_num_threads()} CPU threads"


# ---------------------------------------------------------------- the driver

class Bench:
    """Runs the processes of one benchmark and keeps every sample."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.out = Path(args.out).resolve()
        self.work = Path(tempfile.mkdtemp(prefix="bench_gpu_"))  # not the checkout: its bare gpusolve/
        self.env = dict(os.environ)
        self.env.pop("GPUSOLVE_BACKEND", None)
        self.env.setdefault("GPUSOLVE_CACHE_DIR", str(self.out / "cache"))
        self.env["GPUSOLVE_RUNS_DIR"] = str(self.work / "runs")
        self.samples: dict[str, dict[str, list]] = {}
        self.found: dict[str, dict[str, str]] = {}
        """What each command found on each backend (the search's total, the proof's best words)."""
        self.counts: dict[str, dict[str, dict]] = {}
        """What each proof gave the GPU on each backend (its JSON's ``gpu.counts``)."""
        self.dropped: list[str] = []
        """The rows the budget left out, each with what it needed."""
        self.table_text = ""
        """The table sample's own report (``bench_table.py``'s output from its first row on)."""
        self.runs = 0
        self.began = time.perf_counter()
        self.pretended = 0.0
        """A dry run's seconds so far: the estimates of the processes it would have run."""

    def elapsed(self) -> float:
        """Return the seconds the benchmark has taken so far (a dry run's: its estimates)."""
        return self.pretended if self.args.dry_run else time.perf_counter() - self.began

    def afford(self, row: str, seconds: float) -> bool:
        """Return whether ``row``, expected to take ``seconds``, ends within ``--budget``; if not,
        keep and say that it is dropped."""
        left = None if self.args.budget is None else self.args.budget - self.elapsed()
        if left is None or seconds <= left:
            return True
        self.dropped.append(f"{row} (needs about {seconds:.0f} s, {max(left, 0):.0f} s left)")
        print(f"dropped, short of time: {self.dropped[-1]}", flush=True)
        return False

    def lists(self) -> list[str]:
        """Return the list options every command takes."""
        return ["--guesses", self.args.guesses, "--answers", self.args.answers]

    def process(self, argv: list[str], estimate: float, check: bool = True) -> tuple[float, str]:
        """Return (wall seconds, stdout) of one fresh process (expected to take ``estimate``
        seconds); a failure stops the benchmark (``check``; else its exit and errors are said)."""
        if self.args.dry_run:
            print("would run:", " ".join(["gpusolve", *argv[3:]] if argv[1] == "-m" else
                                         [Path(argv[1]).name, *argv[2:]]))
            self.pretended += estimate
            return 0.0, "{}"
        start = time.perf_counter()
        done = subprocess.run(argv, cwd=self.work, env=self.env, capture_output=True, text=True,
                              timeout=self.args.timeout)
        seconds = time.perf_counter() - start
        if done.returncode and check:
            raise SystemExit(f"error: {' '.join(argv[1:])} exited {done.returncode}:\n{done.stderr[-2000:]}")
        if done.returncode:
            return seconds, f"{done.stdout}\n(exit {done.returncode}) {done.stderr[-2000:]}"
        return seconds, done.stdout


    def gpusolve(self, command: Command, backend: str) -> tuple[float, dict]:
        """Return (wall seconds, JSON) of one ``gpusolve`` process (a fresh run directory each)."""
        self.runs += 1
        extra = ["--run-dir", str(self.work / f"run{self.runs}")] if command.fresh else []
        seconds, out = self.process([sys.executable, "-m", "gpusolve", *command.args, *self.lists(),
                                     "--backend", backend, *extra], command.estimate(backend))
        return seconds, json.loads(out)

    def call(self, name: str, backend: str, repeats: int) -> list[float]:
        """Return the seconds of a library call's timed repeats in one fresh process."""
        _, out = self.process([sys.executable, str(Path(__file__).resolve()), "--call", name, "--backend",
                               backend, "--repeats", str(repeats), "--long", str(self.args.long),
                               *self.lists()], CALL_SECONDS[name][backend != "cpu"])
        return json.loads(out) if out.strip() != "{}" else [0.0]

    def add(self, row: str, backend: str, value) -> None:
        """Keep one sample of ``row`` on ``backend``; say it on stderr."""
        self.samples.setdefault(row, {}).setdefault(backend, []).append(value)
        print(f"  {row} [{backend}]: {value if isinstance(value, dict) else f'{value:.4f} s'}",
              file=sys.stderr, flush=True)

    def run(self) -> None:
        """Take every row's samples in turn (the backends taking turns), each command's caches
        warmed first, while the budget lasts."""
        for row in rows(self.args.start, self.args.calls):
            if row == TABLE:
                self.table_sample()
            elif isinstance(row, Command):
                self.command(row)
            else:
                self.library_call(row)

    def command(self, command: Command) -> None:
        """Take the samples of one command on every backend (warmed first, unless fresh)."""
        backends = self.args.backends
        repeats = self.args.proof_repeats if command.fresh else self.args.repeats
        runs = [b for b in backends if not command.fresh] + \
            [b for _ in range(repeats if command.estimate("cpu") < self.args.long else 1) for b in backends]
        if not self.afford(command.label, sum(command.estimate(b) for b in runs)):
            return
        for backend in backends if not command.fresh else ():
            self.gpusolve(command, backend)  # untimed: numba's and the pattern matrix's caches
        long = set()  # the backends this command took --long seconds or more on: not repeated
        for _ in range(repeats):
            for backend in [b for b in backends if b not in long]:
                seconds, found = self.gpusolve(command, backend)
                self.found.setdefault(command.label, {})[backend] = answer(command, found)
                if seconds >= self.args.long:
                    long.add(backend)
                if command.search:
                    self.add(f"{command.label} (search seconds)", backend, found.get("seconds", 0.0))
                self.add(f"{command.label} (whole process)", backend, seconds)
                self.add_gpu(command, backend, found)

    def library_call(self, name: str) -> None:
        """Take the samples of one library call on every backend."""
        backends = self.args.backends
        if self.afford(LABELS[name], sum(CALL_SECONDS[name][b != "cpu"] for b in backends)):
            for backend in backends:
                for seconds in self.call(name, backend, self.args.repeats):
                    self.add(LABELS[name], backend, seconds)

    def table_sample(self) -> None:
        """Time the table sample (``scripts/bench_table.py``) on every backend: the first
        ``limit`` start words of each part, as many as ``--table-seconds`` (or the budget left)
        allows; keep its report."""
        backends = self.args.backends
        if (self.args.guesses, self.args.answers) != ("allowed", "answers"):
            print(f"{TABLE}: left out (it is of the default lists)", flush=True)
            return
        left = self.args.table_seconds if self.args.budget is None else \
            min(self.args.table_seconds, self.args.budget - self.elapsed())
        warm, word = TABLE_SECONDS
        limit = int((left - len(backends) * warm) // (2 * len(backends) * word))
        if limit < 1:
            self.afford(TABLE, len(backends) * warm + 2 * len(backends) * word)  # says that it is dropped
            return
        report = self.out / "bench_table.json"
        argv = [sys.executable, str(Path(__file__).resolve().parent / "bench_table.py"), "--mode", "normal",
                "--backends", ",".join(backends), "--part", "all", "--limit", str(limit),
                "--word-timeout", f"{self.args.word_timeout:g}", "--out", str(report)]
        _, out = self.process(argv, len(backends) * warm + 2 * len(backends) * limit * word, check=False)
        if self.args.dry_run:
            return
        self.table_text = out.strip()
        found = json.loads(report.read_text()) if report.is_file() else {}

        for backend in backends:
            for part in ("top", "uniform"):
                spread = found.get("distributions", {}).get(f"{backend} {part} search")
                if spread:
                    self.add(f"{TABLE}, {part} {spread['n']} words: sum of search seconds", backend,
                             spread["sum"])
            projected = found.get("projections", {}).get(f"{backend} search")
            if projected:
                self.add(f"{TABLE}: projected complete table (search seconds)", backend, projected["seconds"])

    def add_gpu(self, command: Command, backend: str, found: dict) -> None:
        """Keep the proof's phases (with their seconds on the GPU, where its JSON says them) and
        where the command's GPU time went (its JSON's ``gpu``: the start, each kernel, copies)."""
        gpu = (found.get("gpu") or {}) if isinstance(found, dict) else {}
        on_gpu = gpu.get("phases") or {}
        for phase, value in ((found.get("phases") or {}) if command.proof else {}).items():
            sample = {"seconds": value, "gpu_seconds": on_gpu[phase]} if phase in on_gpu else value
            self.add(f"{command.label}: {phase.replace('_', ' ')}", backend, sample)
        if gpu.get("counts"):
            self.counts.setdefault(command.label, {})[backend] = gpu["counts"]
        if gpu:
            self.add(f"{command.label}, GPU: start", backend, gpu["start"])

        for what, call in (gpu.get("calls") or {}).items():
            self.add(f"{command.label}, GPU: {what}", backend, call["seconds"])


def answer(command: Command, found: dict | list) -> str:
    """Return what a command found, to compare across backends: the proof's best words, the
    search's total, the exact ranking's totals, the greedy ranking's first row."""
    if isinstance(found, list):
        return json.dumps(found[:1])
    if "results" in found:
        return json.dumps(sorted((r["word"], r["total"]) for r in found["results"]))
    return json.dumps(found.get("best") if command.proof else found.get("total"))


LABELS = {
    "pattern_matrix": "pattern matrix (kernel)",
    "metrics": "partition metrics of every guess",
    "first_pass": "first-pass bounds of every start word",
}


def median(values: list) -> tuple[float, str]:
    """Return the median seconds of samples (numbers, or phases ``{seconds, gpu_seconds}``) and the
    GPU's share of them where a phase says it."""
    seconds = statistics.median(v["seconds"] if isinstance(v, dict) else v for v in values)
    gpu = [v["gpu_seconds"] for v in values if isinstance(v, dict) and "gpu_seconds" in v]
    share = f" ({statistics.median(gpu) / seconds:.0%} on the GPU)" if gpu and seconds else ""
    return seconds, share


def table(samples: dict[str, dict[str, list]], backends: list[str]) -> str:
    """Return the table of medians, with ``cpu / X`` for every other backend X where both ran."""
    others = [b for b in backends if b != "cpu"] if "cpu" in backends else []
    lines = ["| step | " + " | ".join(backends) + "".join(f" | cpu / {b}" for b in others) + " |",
             "|---" * (len(backends) + 1 + len(others)) + "|"]
    for row, found in samples.items():
        cells, seconds = [], {}
        for backend in backends:
            if backend in found:
                seconds[backend], share = median(found[backend])
                cells.append(f"{seconds[backend]:.4g} s{share}")
            else:
                cells.append("—")
        line = f"| {row} | " + " | ".join(cells) + " |"
        for other in others:
            both = seconds.get(other) and "cpu" in seconds
            line += f" {seconds['cpu'] / seconds[other]:.2f} |" if both else " — |"
        lines.append(line)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each row per backend")
    parser.add_argument("--proof-repeats", type=int, default=1, help="timed runs of the whole proof")
    parser.add_argument("--long", type=float, default=20.0,
                        help="a row whose first timed run takes this many seconds is not repeated")
    parser.add_argument("--backends", default="cuda,cpu", type=lambda s: s.split(","))
    parser.add_argument("--calls", default=",".join(CALLS), type=lambda s: [c for c in s.split(",") if c],
                        help="the library calls to time (of %(default)s; none: an empty string)")
    parser.add_argument("--guesses", default="allowed")
    parser.add_argument("--answers", default="answers")
    parser.add_argument("--start", default="SALET")
    parser.add_argument("--out", default="bench-gpu", help="folder for the JSON and the matrix cache")
    parser.add_argument("--timeout", type=float, default=900, help="seconds any one process may take")
    parser.add_argument("--budget", type=float, help="seconds the whole benchmark may take: rows that would "
                        "not end within it at their estimated pace are dropped, the last rows first")
    parser.add_argument("--table-seconds", type=float, default=150,
                        help="seconds the table sample may take: its --limit (default %(default)s)")
    parser.add_argument("--word-timeout", type=float, default=30,
                        help="seconds a start word of the table sample may take (default %(default)s)")
    parser.add_argument("--dry-run", action="store_true", help="print what would run")
    parser.add_argument("--call", choices=CALLS, help=argparse.SUPPRESS)
    parser.add_argument("--backend", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.call:
        seconds = timed_call(args.call, args.backend, args.repeats, args.guesses, args.answers, args.long)
        print(json.dumps(seconds))
        return
    if bad := set(args.backends) - {"cuda", "auto", "cpu"}:
        raise SystemExit(f"error: --backends takes cuda, auto and cpu, not {', '.join(sorted(bad))}")
    if bad := set(args.calls) - set(CALLS):
        raise SystemExit(f"error: --calls takes {', '.join(CALLS)}, not {', '.join(sorted(bad))}")
    bench = Bench(args)
    bench.out.mkdir(parents=True, exist_ok=True)
    said = "(dry run)" if args.dry_run else device()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("error: stopped (SIGTERM): the rows so far follow"))
    try:
        bench.run()
    finally:
        report(bench, said)


def agreement(found: dict[str, dict[str, str]]) -> str:
    """Return a line saying whether every backend found the same totals and proofs, else where not."""
    differ = [f"{label}: " + ", ".join(f"{b} {v}" for b, v in by.items())
              for label, by in found.items() if len(set(by.values())) > 1]
    return "results differ: " + "; ".join(differ) if differ else \
        f"results identical on every backend ({len(found)} commands: totals, the proof's best words)"


def report(bench: Bench, said: str) -> None:
    """Write every sample to ``--out``/bench_gpu.json and print the table of medians, the rows
    dropped, what each proof gave the GPU and the table sample's own report."""
    args = bench.args
    text = table(bench.samples, args.backends)
    (bench.out / "bench_gpu.json").write_text(json.dumps(
        {"date": date.today().isoformat(), "device": said, "args": vars(args), "samples": bench.samples,
         "found": bench.found, "counts": bench.counts, "dropped": bench.dropped,
         "seconds": round(bench.elapsed(), 1)}, indent=1) + "\n")
    print(f"\n{date.today().isoformat()}, {said}; {args.guesses} x {args.answers}; median of {args.repeats} "
          f"runs (the proof {args.proof_repeats}; rows of {args.long:g} s or more: 1); "
          f"{bench.elapsed():.0f} s{'' if args.budget is None else f' of a budget of {args.budget:g} s'}\n"
          f"{text}\n{agreement(bench.found)}")
    if bench.dropped:
        print("dropped, short of time: " + "; ".join(bench.dropped))
    if bench.counts:
        print("what the GPU was given (gpu.counts: launches by kernel, cells, MiB to the device / host):")
        print(counts_text(bench.counts))
    if bench.table_text:
        print(f"the table sample (bench_table.py):\n{bench.table_text}")


def counts_text(counts: dict[str, dict[str, dict]]) -> str:
    """Return one line per command, backend and phase of what it gave the GPU (the last run's)."""
    lines = []
    for label, by_backend in counts.items():
        for backend, phases in by_backend.items():
            for phase, found in phases.items():
                launches = ", ".join(f"{k} {n:,}" for k, n in found.get("launches", {}).items()) or "none"
                lines.append(f"  {label} [{backend}] {phase}: {launches}; {found.get('cells', 0):,} cells; "
                             f"{found.get('bytes_to_device', 0) / 2**20:,.1f} / "
                             f"{found.get('bytes_to_host', 0) / 2**20:,.1f} MiB")
    return "\n".join(lines)



if __name__ == "__main__":
    main()
