"""The ``optimal-tree`` command: exact, depth-limited optimal guess trees."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..history import parse_history
from ..modes import MODES
from ..optimal import DEFAULT_MEMO_MB, OptimalResult, solve
from ..trees import save_tree
from .app import (
    Answers,
    Backend,
    Colours,
    Game,
    Guesses,
    Json,
    Length,
    Quiet,
    app,
    console,
    load_matrix,
    print_json,
)


class _Display:
    """A rich progress display: first guesses (or buckets) done, current best, elapsed."""

    def __init__(self, enabled: bool) -> None:
        self.progress = None
        if enabled:
            self.progress = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
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


def _print_result(result: OptimalResult, state: bool) -> None:
    """Print a result as readable text."""
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
    console.print(f"{label}: [bold]{result.first_guess}[/bold]{tried}")
    console.print(f"total: {result.total:,} over {result.n_answers:,} answers, mean {result.mean:.4f}")
    if result.histogram:
        hist = ", ".join(f"{k}: {v}" for k, v in sorted(result.histogram.items()))
        console.print(f"guesses needed: {hist}; worst {result.worst}")
    console.print(f"proven: {'yes' if result.proven else 'no'}; {result.nodes:,} nodes; "
                  f"{result.seconds:.2f} s")
    if state and len(result.alternatives) > 1:
        table = Table(title="next guesses")
        for name in ("guess", "total", "mean", ""):
            table.add_column(name, justify="left" if name in ("guess", "") else "right")
        for a in result.alternatives:
            table.add_row(a.guess, f"{a.total:,}" if a.exact else f">= {a.total:,}",
                          f"{a.total / result.n_answers:.4f}", "" if a.exact else "(bound)")
        console.print(table)


@app.command("optimal-tree")
def optimal_tree(
    start: Annotated[str | None, typer.Option("--start", help="Fix the first guess.")] = None,
    candidates: Annotated[int | None, typer.Option(
        "--candidates", help="Try only the N best first guesses by the bucket bound.")] = None,
    state: Annotated[str, typer.Option(
        "--state", help="Solve from a position: GUESS:REPLY,... (best next guess and alternatives).")] = "",
    cutoff: Annotated[int | None, typer.Option(
        "--cutoff", help="Only whether the total is below T matters.")] = None,
    mode: Annotated[str, typer.Option("--mode", help=", ".join(MODES))] = "normal",
    max_guesses: Annotated[int, typer.Option("--max-guesses", help="Every answer within N guesses.")] = 6,
    out: Annotated[str | None, typer.Option("--out", help="Write the tree (JSON, gpusolve-tree/1).")] = None,
    memo_mb: Annotated[int, typer.Option("--memo-mb", help="Memo size in MiB (all workers).")] = DEFAULT_MEMO_MB,
    workers: Annotated[int | None, typer.Option("--workers", help="Worker threads [default: 2 or cores].")] = None,
    alternatives: Annotated[int, typer.Option(
        "--alternatives", help="Also prove the values of the K next-best guesses (--state: 4).")] = -1,
    game: Game = "wordle", length: Length = 5, colours: Colours = 6,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None,
    json: Json = False, quiet: Quiet = False,
) -> None:
    """Find the optimal guess tree (least total guesses, every answer within --max-guesses), proven."""
    pm = load_matrix(game, length, colours, guesses, answers, backend)
    moves = parse_history(pm, state)
    if alternatives < 0:
        alternatives = 4 if state else 0
    show = console.is_terminal and not quiet and not json
    with _Display(show) as display:
        result = solve(pm, start=start, mode=mode, max_guesses=max_guesses, cutoff=cutoff,
                       candidates=candidates, moves=moves, memo_mb=memo_mb, workers=workers,
                       alternatives=alternatives, progress=display if show else None)
    if out and result.tree is not None:
        save_tree(out, result.tree, pm.game, mode=mode, guesses=guesses or pm.game.default_guesses,
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
        print_json(data)
        return
    _print_result(result, bool(state))
    if out and result.tree is not None:
        console.print(f"tree written to {out}")
