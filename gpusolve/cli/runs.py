"""Long runs over start words: ``rank --by tree`` (called from ``rank``) and ``optimal-tree --rank``
(called from ``optimal-tree``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..core.errors import GpusolveError
from ..core.words import counted, read_text_file
from .app import (
    ProgressDisplay,
    check_outputs,
    console,
    name_option,
    print_gpu_counts,
    print_json,
    titled_table,
)

RunDir = Annotated[Path | None, typer.Option(
    "--run-dir", help="Run directory (resumed if it exists) [default: derived from the parameters, "
    "under $GPUSOLVE_RUNS_DIR or the user data dir]")]
def _scheduler(address: str | None) -> str | None:
    """Return a --scheduler address checked before any work (a malformed one: one error line)."""
    if address is None:
        return None
    from ..runs.fanout import check_scheduler

    return check_scheduler(address)


Scheduler = Annotated[str | None, typer.Option(
    "--scheduler", callback=_scheduler,
    help="Dask scheduler address (tcp://HOST:PORT) of an existing cluster.")]
Workers = Annotated[int | None, typer.Option(
    "--workers", help="Local worker processes without --scheduler; 0 runs in this process "
    "[default: the number of cores; in this process for fewer start words than cores, or without "
    "dask installed]")]
Batch = Annotated[int | None, typer.Option(
    "--batch", min=1, help="Start words per task [default: automatic]")]
Output = Annotated[Path | None, typer.Option(
    "--output", "-o", help="Also write every result to this file (rank --by tree: .csv or .json); with "
    "optimal-tree --rank the table of exact totals, with its provenance (.csv; .txt: the anchor's results "
    "layout, provenance in FILE.json; .json; any name with --output-format), kept up to date while the run "
    "goes on. Another suffix is refused.")]
OutputFormat = Annotated[str | None, name_option(
    "--output-format", "With --rank --output: the table's layout, csv, anchor (alex1770/wordle's "
    "results files: word mean total) or json [default: by the file's suffix, .csv, .txt or .json].")]
MaxGuesses = Annotated[int, typer.Option("--max-guesses", min=1, help="Guesses allowed per game.")]
Task = Annotated[str | None, typer.Option("--task", hidden=True, help="Unit task (testing stand-ins).")]

if TYPE_CHECKING:
    from .options import RunOptions


def run_with_progress(pm, label: str, task: str, quiet: bool, call):
    """Return ``call(on_batch=...)``, showing a progress line on a terminal unless ``quiet`` (the
    rate in start words per hour, and the ETA)."""
    from ..runs.progress import RunProgress
    from ..runs.startrank import KEYS, describe

    n = pm.shape[1]
    with ProgressDisplay(not quiet, per_hour=True) as display:
        return call(on_batch=RunProgress(display, label, KEYS[task], lambda r: describe(task, r, n),
                                         pm.guess_index))


def check_run(workers: int | None, scheduler: str | None, output: Path | None) -> int | None:
    """Check a long run's options before any work; return the local worker processes to start
    (0: in this process, which is what a plain install without dask does)."""
    from importlib.util import find_spec

    from ..core.limits import check_workers

    check_workers(workers, least=0)
    check_outputs((output, "results"))
    if workers is None and scheduler is None and find_spec("distributed") is None:
        typer.echo("note: dask is not installed: running in this process "
                   "(pip install 'gpusolve[dist]' to fan out over processes)", err=True)
        return 0
    return workers


def tree_ranking(o: RunOptions) -> None:
    """Rank every start word by its greedy tree and print the best (``rank --by tree``)."""
    from ..runs.startrank import rank_trees, ranking_layout, save_ranking

    workers = check_run(o.workers, o.scheduler, o.output)
    if o.output:
        ranking_layout(o.output)
    pm = o.lists.matrix()
    task = o.task or "greedy-tree"
    label = f"greedy trees ({o.metric}, {o.mode})"
    ranked = run_with_progress(pm, label, task, o.quiet, lambda on_batch: rank_trees(
        pm, o.lists.guesses, o.lists.answers, metric=o.metric, mode=o.mode, max_guesses=o.max_guesses,
        task=task, run_dir=o.run_dir, scheduler=o.scheduler, workers=workers, batch=o.batch,
        backend=o.lists.backend, on_batch=on_batch))
    if o.output:
        save_ranking(ranked, o.output)
    if o.json:
        print_json(ranked.as_dict(o.top))
        return
    table = titled_table(f"{counted(len(ranked.rows), 'start word')} by their {o.metric} greedy tree "
                         f"({o.mode} mode) over {pm.shape[1]:,} answers")
    if task == "partition":  # a stand-in without trees: show its fields
        table = titled_table(f"{counted(len(ranked.rows), 'start word')} by {task}", *ranked.rows[0].keys())
        for r in ranked.rows[:o.top]:
            table.add_row(*map(str, r.values()))
        console.print(table)
        return _footer(ranked)
    for name in ("rank", "word", "mean", "total", "worst", f"over {o.max_guesses}", "guesses needed"):
        table.add_column(name, justify="left" if name in ("word", "guesses needed") else "right")
    for r in ranked.rows[:o.top]:
        hist = " ".join(f"{k}:{n}" for k, n in enumerate(r["histogram"]) if n)
        table.add_row(str(r["rank"]), r["word"], f"{r['mean']:.4f}", str(r["total"]), str(r["worst"]),
                      str(r["over"]), hist)
    console.print(table)
    _footer(ranked)


def _footer(ranked) -> None:
    console.print(f"{ranked.computed:,} computed now, {ranked.candidates - ranked.computed:,} from the run "
                  f"directory, in {ranked.seconds:.1f} s; all results: {ranked.files[0]} and .csv")
    if ranked.job.task in ("exact", "reference-exact") and ranked.computed:
        console.print(f"searched {ranked.nodes:,} nodes; {ranked.store_hits:,} hits on cached subproblems; "
                      f"{ranked.subproblems:,} subproblems cached in the run directory")


def _words(text: str | None, path: Path | None) -> list[str] | None:
    """Return the start words from --words or --words-file (None if neither)."""
    if text is not None and path is not None:
        raise GpusolveError("give --words or --words-file, not both")
    if path is not None:
        text = read_text_file(path, "--words-file")
    if text is None:
        return None
    words = [w.strip() for w in text.replace(",", "\n").split() if w.strip()]
    if not words:
        raise GpusolveError("no start words given")
    return words


def parse_candidates(text: str) -> int | None:
    """Return the number of --candidates, or None for 'all'."""
    if text.strip().lower() == "all":
        return None
    try:
        n = int(text)
    except ValueError:
        raise GpusolveError(f"--candidates takes a number or 'all', not {text!r}") from None
    if n < 1:
        raise GpusolveError(f"--candidates must be at least 1 (or 'all'), not {n}")
    return n


def table_output(o: RunOptions):
    """Return where an exact ranking writes its table (``--output``; None: nowhere), checked
    before any work."""
    from ..runs.tables import TableOutput, layout_of

    if o.output is None:
        if o.output_format is not None:
            raise GpusolveError("--output-format is the layout of the --output table: give --output too")
        return None
    out = TableOutput(o.output, layout_of(o.output, o.output_format))
    out.check(o.cutoff)
    return out


def program_labels() -> dict:
    """Return what a table's provenance says of the program that wrote it and its command line."""
    import shlex

    from .. import __version__
    from .app import git_commit

    return {"gpusolve": __version__, "commit": git_commit(),
            "command": shlex.join(["gpusolve", *sys.argv[1:]])}


def table_labels(o: RunOptions, pm) -> dict:
    """Return what a ranking's table's provenance says of the program, the command, the backend
    (as asked, and what it ran on at the start where that differs: 'auto (cpu)') and the lists
    as named."""
    asked = (o.lists.backend or os.environ.get("GPUSOLVE_BACKEND") or "auto").lower()
    ran = pm.backend.name
    return {**program_labels(),
            "backend": asked if ran == asked else f"{asked} ({ran})",
            "guesses": o.lists.guesses or pm.game.default_guesses,
            "answers": o.lists.answers or pm.game.default_answers}


def exact_ranking(o: RunOptions) -> None:
    """Rank start words by exact optimal total (or proven '>= T'), resumable, on a cluster."""
    from ..core.backend import gpu_report
    from ..runs.startrank import rank_exact

    if o.candidates is not None and (o.words is not None or o.words_file is not None):
        raise GpusolveError("--candidates picks the start words by --metric, --words and --words-file name "
                            "them: give one or the other")
    workers = check_run(o.workers, o.scheduler, o.output)
    count = parse_candidates("10" if o.candidates is None else o.candidates)
    sink = table_output(o)
    pm = o.lists.matrix()
    if pm.backend.name == "count" and (workers != 0 or o.scheduler):
        typer.echo("note: --backend count counts the launches of this process only: give --workers 0 "
                   "to count the searches", err=True)
    if sink:
        sink.labels = table_labels(o, pm)
    chosen = _words(o.words, o.words_file)
    if chosen is not None:  # each word once, in the order given (SALET,salet is one word)
        chosen = list(dict.fromkeys(pm.game.parse_word(w, pm.guess_index) for w in chosen))
    task = o.task or "exact"
    ranked = run_with_progress(pm, f"exact values ({o.mode})", task, o.quiet, lambda on_batch: rank_exact(
        pm, o.lists.guesses, o.lists.answers, mode=o.mode, max_guesses=o.max_guesses, cutoff=o.cutoff,
        task=task, candidates=count, words=chosen, metric=o.metric, run_dir=o.run_dir,
        scheduler=o.scheduler, workers=workers, batch=o.batch or 1, backend=o.lists.backend,
        on_batch=on_batch, table=sink))
    if o.json:
        print_json({**ranked.as_dict(o.top), "gpu": gpu_report(pm.backend)})
        return
    table = titled_table(f"{counted(len(ranked.rows), 'start word')} by exact total ({o.mode} mode, "
                         f"{counted(o.max_guesses, 'guess')}) over {pm.shape[1]:,} answers")
    for name in ("rank", "word", "total", "mean", "worst"):
        table.add_column(name, justify="left" if name == "word" else "right")
    for r in ranked.rows[:o.top]:
        if r["total"] is None:
            total, mean = "impossible", "-"
        elif r["exact"]:
            total, mean = str(r["total"]), f"{r['mean']:.4f}"
        else:
            total, mean = f">= {r['total']}", f">= {r['total'] / pm.shape[1]:.4f}"
        table.add_row(str(r["rank"]), r["word"], total, mean, str(r.get("worst", "-")))
    console.print(table)
    if ranked.statement:
        console.print(ranked.statement)
    _footer(ranked)
    if sink:
        from ..runs.tables import missing_text

        console.print(f"table ({missing_text(ranked.table)}) written to {sink.path}"
                      + (f", its provenance to {sink.path}.json" if sink.layout == "anchor" else ""))
    print_gpu_counts(gpu_report(pm.backend))
