"""Commands over the pattern matrix: ``patterns``, ``rank``, ``doctor``."""

from __future__ import annotations

from typing import Annotated

import typer

from ..core.errors import GpusolveError
from ..core.words import counted
from . import runs
from .app import (
    METRIC_HELP,
    Answers,
    Backend,
    BlackOnly,
    Colours,
    Game,
    Guesses,
    Json,
    Length,
    Mode,
    Quiet,
    Repeats,
    State,
    Top,
    app,
    console,
    load_matrix,
    name_option,
    print_json,
    titled_table,
)


@app.command()
def patterns(game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
             black_only: BlackOnly = False,
             guesses: Guesses = None, answers: Answers = None, backend: Backend = None,
             json: Json = False) -> None:
    """Build (or load) the pattern matrix and report its shape, time, backend and cache."""
    pm = load_matrix(game, length, colours, guesses, answers, backend, repeats=repeats,
                     black_only=black_only)
    info = {
        "game": pm.game.name,
        "guesses": pm.shape[0],
        "answers": pm.shape[1],
        "dtype": str(pm.codes.dtype),
        "backend": pm.backend.name,
        "seconds": round(pm.seconds, 4),
        "cache": str(pm.cache_path) if pm.cache_path else None,
        "cache_hit": pm.cache_hit,
    }
    if json:
        print_json(info)
        return
    how = "loaded from cache" if pm.cache_hit else f"built on {pm.backend.name}"
    console.print(
        f"{pm.game.name} pattern matrix {counted(pm.shape[0], 'guess')} x {counted(pm.shape[1], 'answer')} "
        f"({pm.codes.dtype}, {pm.codes.nbytes / 2**20:.1f} MiB), {how} in {pm.seconds:.3f} s"
    )
    console.print(f"cache: {pm.cache_path or 'none (it could not be written)'}")


@app.command()
def rank(
    metric: Annotated[str, name_option("--metric", METRIC_HELP)] = "entropy",
    top: Top = 10,
    worst: Annotated[int, typer.Option("--worst", min=0, help="Also show the N worst.")] = 0,
    state: State = None,
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
    by: Annotated[str, name_option("--by", "guess: this guess's partition; tree: the whole "
                                   "greedy tree from each start word (a long run).")] = "guess",
    mode: Mode = "normal", max_guesses: runs.MaxGuesses = 6, run_dir: runs.RunDir = None,
    scheduler: runs.Scheduler = None, workers: runs.Workers = None, batch: runs.Batch = None,
    output: runs.Output = None, quiet: Quiet = False, task: runs.Task = None,
    prior: Annotated[str, name_option(
        "--prior", "uniform, or frequency: answers weighted by English word frequency "
        "(needs the freq extra).")] = "uniform",
) -> None:
    """Rank every allowed guess by a partition metric, or (--by tree) every start word by its greedy tree."""
    if output is not None and by != "tree":
        raise GpusolveError("--output writes the ranking of start words by their greedy trees: it goes with "
                            "--by tree")
    if prior != "uniform":
        if by != "guess" or worst:
            raise GpusolveError("--prior goes with --by guess and no --worst")
        from .policies import rank_prior

        return rank_prior(prior=prior, metric=metric, top=top, state=state, game=game, length=length,
                          colours=colours, repeats=repeats, black_only=black_only, guesses=guesses,
                          answers=answers, backend=backend, json=json)
    if by == "tree" and (state or worst):
        raise GpusolveError("--by tree ranks first guesses: it takes neither --state nor --worst")
    if by == "tree":
        from .options import GameLists, RunOptions

        lists = GameLists(game, length, colours, repeats, black_only, guesses, answers, backend)
        return runs.tree_ranking(RunOptions(
            lists, mode, max_guesses, metric=metric, top=top, workers=workers, run_dir=run_dir,
            scheduler=scheduler, batch=batch, output=output, task=task, json=json, quiet=quiet))
    if by != "guess":
        raise GpusolveError(f"--by takes guess or tree, not {by!r}")
    from ..core.history import allowed_rows, read_position, refuse_won, remaining_answers
    from ..core.modes import check_mode
    from ..search.metrics import canonical_metric, rank_guesses

    canonical_metric(metric)
    check_mode(mode)
    pm = load_matrix(game, length, colours, guesses, answers, backend, repeats=repeats,
                     black_only=black_only)
    moves = read_position(pm, state, mode)
    refuse_won(pm, moves, "rank")
    alive = remaining_answers(pm, moves)
    ranked = rank_guesses(pm, metric, alive, allowed_rows(pm, moves, mode))
    shown = ranked[:top] + (ranked[-worst:] if worst else [])
    if json:
        print_json([s.as_dict() for s in shown])
        return
    table = titled_table(f"{counted(len(ranked), 'guess')} over {counted(len(alive), 'answer')}, by {metric}")
    for name in ("rank", "word", "entropy", "max", "expectation", "branches",
                 "guaranteed wins", "expected wins"):
        table.add_column(name, justify="left" if name == "word" else "right")
    positions = list(range(1, min(top, len(ranked)) + 1))
    positions += list(range(len(ranked) - len(shown) + len(positions) + 1, len(ranked) + 1))
    for position, s in zip(positions, shown):
        table.add_row(str(position), s.word, f"{s.entropy:.3f}", str(s.max), f"{s.expectation:.2f}",
                      str(s.branches), str(s.guaranteed_wins), f"{s.expected_wins:.2f}")
    console.print(table)


@app.command()
def doctor(json: Json = False) -> None:
    """Report the backend, device and versions; check GPU == CPU on the real lists; time both."""
    from ..doctor import check

    report = check()
    if json:
        print_json(report)
    else:
        console.print(f"backend (auto): [bold]{report['auto_backend']}[/] — {report['reason']}")
        device = report["device"]
        if device:
            console.print(f"device: {device['name']} (compute {device['compute_capability']}, "
                          f"{device['memory_free_gib']} of {device['memory_total_gib']} GiB free)")
        else:
            console.print("device: none")
        console.print(f"CPU threads: {report['threads']}")
        console.print("versions: " + ", ".join(f"{k} {v}" for k, v in report["versions"].items()))
        for c in report["checks"]:
            mark = {True: "[green]ok[/]", False: "[red]FAILED[/]", None: "[yellow]skipped[/]"}[c["ok"]]
            console.print(f"{mark}  {c['name']}: {c['detail']}")
        for name, seconds in report["timings"].items():
            console.print(f"time  {name}: {seconds:.4f}")
    if not report["ok"]:
        raise typer.Exit(1)
