"""The ``optimal-tree`` command: exact, depth-limited optimal guess trees."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..core.errors import GpusolveError
from ..core.history import parse_history
from ..core.modes import MODES
from ..core.trees import render, save_tree, tree_format
from ..runs.progress import ProofProgress
from ..runs.proof import prove_best_start
from ..search.optimal import DEFAULT_MEMO_MB, OptimalResult, solve
from .app import (
    OUT_HELP,
    Answers,
    Backend,
    Colours,
    Game,
    Guesses,
    Json,
    Length,
    Quiet,
    TreeFormat,
    app,
    console,
    load_matrix,
    print_json,
)
from .runs import Batch, Output, RunDir, Scheduler, Task, exact_ranking, parse_candidates


class _Display:
    """A rich progress display: first guesses (or buckets) done, current best, elapsed."""

    def __init__(self, enabled: bool) -> None:
        self.progress = None
        if enabled:
            self.progress = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(),
                TextColumn("{task.completed}/{task.total}"),
                TextColumn("{task.fields[best]}"), TimeElapsedColumn(), console=console, transient=True,
            )
            self.guesses = self.progress.add_task("first guesses", total=None, best="")
            self.buckets = self.progress.add_task("buckets", total=None, best="")

    def __enter__(self) -> _Display:
        if self.progress:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress:
            self.progress.stop()

    def __call__(self, event: dict) -> None:
        if not self.progress:
            return
        if event["event"] == "guess":
            best = f"best {event['best']}" if event["best"] is not None else ""
            self.progress.update(self.guesses, completed=event["tried"], total=event["candidates"],
                                 best=f"{best}  {event['nodes']:,} nodes")
        else:
            self.progress.update(self.buckets, completed=event["done"], total=event["buckets"],
                                 best=f"{event['nodes']:,} nodes")


def _print_result(result: OptimalResult, state: bool, proven: str | None = None) -> None:
    """Print a result as readable text (``proven``: what a proof run established)."""
    if result.interrupted:
        console.print("[yellow]interrupted: the best result proven so far[/yellow]")
    if result.first_guess is None:
        if not result.below_cutoff:
            console.print(f"total >= cutoff (no first guess does better); {result.nodes:,} nodes, "
                          f"{result.seconds:.2f} s")
        else:
            console.print("no result")
        return
    label = "best next guess" if state else "first guess"
    tried = f" (best of {result.candidates} candidates)" if result.restricted else ""
    if result.interrupted:
        tried = f" (best of the {result.tried} tried of {result.candidates} candidates)"
    console.print(f"{label}: [bold]{result.first_guess}[/bold]{tried}")
    if state:
        console.print(f"value: {result.total:,} more guesses over the {result.n_answers:,} answers left "
                      f"(mean {result.mean:.4f} more)")
    else:
        console.print(f"total: {result.total:,} over {result.n_answers:,} answers, mean {result.mean:.4f}")
    if result.histogram:
        hist = ", ".join(f"{k}: {v}" for k, v in sorted(result.histogram.items()))
        console.print(f"guesses needed: {hist}; worst {result.worst}")
    if proven is not None:
        console.print(f"proven: {proven}")
    else:
        console.print(f"proven: {'yes' if result.proven else 'no'}; {result.nodes:,} nodes; "
                      f"{result.seconds:.2f} s")
    if state and len(result.alternatives) > 1:
        table = Table(title="next guesses")
        for name in ("guess", "more guesses", "mean", ""):
            table.add_column(name, justify="left" if name in ("guess", "") else "right")
        for a in result.alternatives:
            table.add_row(a.guess, f"{a.total:,}" if a.exact else f">= {a.total:,}",
                          f"{a.total / result.n_answers:.4f}", "" if a.exact else "(bound)")
        console.print(table)


def _prove(pm, guesses: str | None, answers: str | None, mode: str, max_guesses: int, candidates: int | None,
           alternatives: int, cutoff: int | None, run_dir: Path | None, scheduler: str | None,
           workers: int | None, memo_mb: int, backend: str | None, json: bool, quiet: bool, out: str | None,
           fmt: str | None) -> None:
    """Prove the best first guess over every candidate (a resumable run), then show its tree."""
    with ProofProgress(console, quiet or json) as progress:
        proof = prove_best_start(pm, guesses, answers, mode=mode, max_guesses=max_guesses,
                                 candidates=candidates, keep=1 + alternatives, cutoff=cutoff, run_dir=run_dir,
                                 scheduler=scheduler, workers=workers, memo_mb=memo_mb, backend=backend,
                                 progress=progress)
    if not proof.complete:
        typer.echo(proof.statement(), err=True)
        raise typer.Exit(130)
    if not proof.best and cutoff is None:
        raise GpusolveError(f"no strategy finds every answer within {max_guesses} guesses")
    result = None
    if proof.best:
        result = solve(pm, start=proof.best[0][0], mode=mode, max_guesses=max_guesses, memo_mb=memo_mb)
        if out and result.tree is not None:
            save_tree(out, result.tree, pm.game, fmt, mode=mode, guesses=guesses or pm.game.default_guesses,
                      answers=answers or pm.game.default_answers, max_guesses=max_guesses)
    if json:
        print_json({**proof.as_dict(), "tree": None if result is None else result.summary()})
        return
    if result is not None:
        _print_result(result, False, proof.statement())
    else:
        console.print(f"proven: {proof.statement()}")
    console.print(f"{proof.seconds + (result.seconds if result else 0):.1f} s; run directory {proof.run_dir} "
                  f"({proof.searched_now:,} start words searched now)")
    if out and result is not None:
        console.print(f"tree written to {out}")


@app.command("optimal-tree")
def optimal_tree(
    start: Annotated[str | None, typer.Option("--start", help="Fix the first guess.")] = None,
    candidates: Annotated[str | None, typer.Option(
        "--candidates", help="Try only the N best first guesses by the bucket bound; with --rank: the N "
        "best start words by --metric, or 'all' [default: all; with --rank 10].")] = None,
    state: Annotated[str, typer.Option(
        "--state", help="Solve from a position: GUESS:REPLY,... (best next guess and alternatives).")] = "",
    cutoff: Annotated[int | None, typer.Option(
        "--cutoff", help="Only whether the total is below T matters.")] = None,
    mode: Annotated[str, typer.Option("--mode", help=", ".join(MODES))] = "normal",
    max_guesses: Annotated[int, typer.Option("--max-guesses", help="Every answer within N guesses.")] = 6,
    out: Annotated[str | None, typer.Option("--out", help=OUT_HELP)] = None, fmt: TreeFormat = None,
    levels: Annotated[int, typer.Option("--show", help="Print the tree's first N levels as text.")] = 0,
    memo_mb: Annotated[int, typer.Option(
        "--memo-mb", help="Memo size in MiB (all workers; with --objective worst-case: the cache of "
        "pair separators).")] = DEFAULT_MEMO_MB,
    workers: Annotated[int | None, typer.Option(
        "--workers", help="Worker threads [default: 2 or cores]; with --rank, local worker processes "
        "(0: in this process) [default: the number of cores].")] = None,
    alternatives: Annotated[int, typer.Option(
        "--alternatives", help="Also prove the values of the K next-best guesses (--state: 4).")] = -1,
    objective: Annotated[str, typer.Option(
        "--objective", help="total (fewest guesses in all) or worst-case (fewest guesses that always "
        "suffice against a look-ahead adversary).")] = "total",
    rank: Annotated[bool, typer.Option(
        "--rank", help="Rank many start words by exact total (resumable, on a Dask cluster).")] = False,
    words: Annotated[str | None, typer.Option(
        "--words", help="With --rank: these start words, W1,W2,...")] = None,
    words_file: Annotated[Path | None, typer.Option(
        "--words-file", help="With --rank: the start words in a file.")] = None,
    metric: Annotated[str, typer.Option(
        "--metric", help="With --rank: the cheap score choosing the candidates.")] = "entropy",
    top: Annotated[int, typer.Option("--top", help="With --rank: show the N best.")] = 20,
    run_dir: RunDir = None, scheduler: Scheduler = None, batch: Batch = None, output: Output = None,
    task: Task = None,
    game: Game = "wordle", length: Length = None, colours: Colours = 6,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None,
    json: Json = False, quiet: Quiet = False,
) -> None:
    """Find the optimal guess tree (least total guesses, every answer within --max-guesses), proven."""
    if objective == "worst-case":
        from .variants import worst_case_cmd

        return worst_case_cmd(rank=(parse_candidates(candidates or "all") or 0) if rank else None,
                              start=start, mode=mode, after=state, max_depth=max_guesses, out=out, fmt=fmt,
                              game=game, length=length, colours=colours, guesses=guesses, answers=answers,
                              backend=backend, json=json, quiet=quiet, pair_mb=memo_mb)
    if objective != "total":
        raise GpusolveError(f"unknown objective {objective!r}: choose total or worst-case")
    if rank:
        if start or state:
            raise GpusolveError("--rank ranks start words: it takes no --start or --state")
        return exact_ranking(candidates, words, words_file, cutoff, metric, mode, max_guesses, top, game,
                             length, colours, guesses, answers, backend, json, run_dir, scheduler, workers,
                             batch, output, quiet, task)
    if words or words_file:
        raise GpusolveError("--words and --words-file go with --rank")
    pm = load_matrix(game, length, colours, guesses, answers, backend)
    moves = parse_history(pm, state)
    if out:
        tree_format(out, fmt, pm.game, moves)
    if alternatives < 0:
        alternatives = 4 if state else 0
    if start is None and not moves:
        return _prove(pm, guesses, answers, mode, max_guesses, parse_candidates(candidates or "all"),
                      alternatives, cutoff, run_dir, scheduler, workers, memo_mb, backend, json, quiet, out,
                      fmt)
    show = console.is_terminal and not quiet and not json
    with _Display(show) as display:
        result = solve(pm, start=start, mode=mode, max_guesses=max_guesses, cutoff=cutoff,
                       candidates=parse_candidates(candidates or "all"), moves=moves, memo_mb=memo_mb,
                       workers=workers, alternatives=alternatives, progress=display if show else None)
    if out and result.tree is not None:
        save_tree(out, result.tree, pm.game, fmt, mode=mode, guesses=guesses or pm.game.default_guesses,
                  answers=answers or pm.game.default_answers, max_guesses=max_guesses,
                  moves=[[w, pm.game.format_reply(c)] for w, c in moves])
    if json:
        data = result.summary()
        if cutoff is not None:
            data["below_cutoff"] = result.below_cutoff
        if result.restricted:
            data["candidates"] = result.candidates
        if alternatives:
            data["alternatives"] = [a.as_dict() for a in result.alternatives]
        if moves:
            data["moves"] = len(moves)  # total and mean count the guesses still to make
        print_json(data)
        return
    _print_result(result, bool(state))
    if levels and result.tree is not None:
        console.print(render(result.tree, pm.game, levels), markup=False, soft_wrap=True)
    if out and result.tree is not None:
        console.print(f"tree written to {out}")
