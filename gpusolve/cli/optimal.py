"""The ``optimal-tree`` command: exact, depth-limited optimal guess trees."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..core.errors import GpusolveError, Infeasible, Note
from ..core.words import counted
from ..kernels.config import INF
from ..search.defaults import DEFAULT_MEMO_MB, DEFAULT_PAIR_MB
from .app import (
    OUT_HELP,
    Answers,
    Backend,
    BlackOnly,
    Colours,
    Game,
    Guesses,
    Json,
    Length,
    Mode,
    ProgressDisplay,
    Quiet,
    Repeats,
    State,
    TimeLimit,
    TreeFormat,
    app,
    check_outputs,
    console,
    name_option,
    print_gpu_counts,
    print_json,
)
from .runs import Batch, Output, OutputFormat, RunDir, Scheduler, Task, exact_ranking, parse_candidates

if TYPE_CHECKING:
    from .options import TreeOptions


def proven_scope(result, start: str | None, state: bool, n_guesses: int) -> str:
    """Return what a result proves: about the given first guess, the candidates tried, or all."""
    if result.interrupted:
        return f"nothing: interrupted after {result.tried:,} of {result.candidates:,} candidates"
    if result.first_guess is None:
        return f"every {'next' if state else 'first'} guess tried has total >= the cutoff"
    if start:
        return f"the least total after the first guess {result.first_guess} (given, not chosen)"
    which = "next guesses" if state else "first guesses"
    if result.restricted:
        return (f"the best of the {result.candidates:,} candidates tried (by bucket bound), "
                f"not of all {n_guesses:,} {which}")
    return f"the best of all {which}"


def _print_result(result, state: bool, scope: str) -> None:
    """Print a result as readable text."""
    if result.interrupted and result.first_guess is None:
        console.print("[yellow]interrupted before any strategy was found: no result[/yellow]")
        return
    if result.interrupted:
        console.print("[yellow]interrupted: the best result found so far, not proven best[/yellow]")
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
        console.print(f"value: {counted(result.total, 'more guess')} over the "
                      f"{counted(result.n_answers, 'answer')} left (mean {result.mean:.4f} more)")
    else:
        console.print(f"total: {result.total:,} over {counted(result.n_answers, 'answer')}, "
                      f"mean {result.mean:.4f}")
    if result.histogram:
        hist = ", ".join(f"{k}: {v}" for k, v in sorted(result.histogram.items()))
        console.print(f"guesses needed: {hist}; worst {result.worst}")
    console.print(f"proven: {'yes, ' + scope if result.proven else 'no'}; {result.nodes:,} nodes; "
                  f"{result.seconds:.2f} s")
    if state and len(result.alternatives) > 1:
        from rich.table import Table

        table = Table(title="next guesses")
        for name in ("guess", "more guesses", "mean", ""):
            table.add_column(name, justify="left" if name in ("guess", "") else "right")
        for a in result.alternatives:
            table.add_row(a.guess, f"{a.total:,}" if a.exact else f">= {a.total:,}",
                          f"{a.total / result.n_answers:.4f}", "" if a.exact else "(bound)")
        console.print(table)


@app.command("optimal-tree")
def optimal_tree(
    start: Annotated[str | None, typer.Option("--start", help="Fix the first guess.")] = None,
    candidates: Annotated[str | None, typer.Option(
        "--candidates", help="Try only the N best first guesses by the bucket bound; with --rank: the N "
        "best start words by --metric, or 'all' [default: all; with --rank 10].")] = None,
    state: State = None,
    cutoff: Annotated[int | None, typer.Option(
        "--cutoff", min=1, max=INF, help="Only whether the total is below T matters.")] = None,
    mode: Mode = "normal",
    max_guesses: Annotated[int, typer.Option(
        "--max-guesses", min=1, help="Every answer within N guesses.")] = 6,
    out: Annotated[str | None, typer.Option("--out", help=OUT_HELP)] = None, fmt: TreeFormat = None,
    levels: Annotated[int, typer.Option(
        "--show", min=0, help="Print the tree's first N levels as text.")] = 0,
    memo_mb: Annotated[int | None, typer.Option(
        "--memo-mb", help=f"Memo size of the exact search in MiB, all workers [default: {DEFAULT_MEMO_MB}]."
    )] = None,
    pair_mb: Annotated[int | None, typer.Option(
        "--pair-mb", min=0, help="With --objective worst-case: memory for its cache of pair separators, "
        f"MiB [default: {DEFAULT_PAIR_MB}].")] = None,
    time_limit: TimeLimit = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", help="Worker threads [default: 2 or cores]; with --rank, local worker processes "
        "(0: in this process) [default: the number of cores; in this process, every core, for fewer "
        "start words than cores].")] = None,
    alternatives: Annotated[int | None, typer.Option(
        "--alternatives", min=0, help="Also prove the values of the K next-best guesses [default: 0; "
        "with --state 4].")] = None,
    objective: Annotated[str, name_option(
        "--objective", "total (fewest guesses in all) or worst-case (fewest guesses that always "
        "suffice against a look-ahead adversary).")] = "total",
    rank: Annotated[bool, typer.Option(
        "--rank", help="Rank many start words by exact total (resumable, on a Dask cluster).")] = False,
    bounds: Annotated[bool, typer.Option(
        "--bounds", help="With --start: where the exact search cannot finish, bound the total instead: a "
        "resumable run (--run-dir, --time-limit) reporting a proven lower bound and the best tree found "
        "(--out), bucket by bucket of the first guess.")] = False,
    words: Annotated[str | None, typer.Option(
        "--words", help="With --rank: these start words, W1,W2,...")] = None,
    words_file: Annotated[Path | None, typer.Option(
        "--words-file", help="With --rank: the start words in a file.")] = None,
    metric: Annotated[str, name_option(
        "--metric", "With --rank: the cheap score choosing the candidates.")] = "entropy",
    top: Annotated[int, typer.Option("--top", min=0, help="With --rank: show the N best.")] = 20,
    run_dir: RunDir = None, scheduler: Scheduler = None, batch: Batch = None, output: Output = None,
    output_format: OutputFormat = None, task: Task = None,
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None,
    json: Json = False, quiet: Quiet = False,
) -> None:
    """Find the optimal guess tree (least total guesses, every answer within --max-guesses), proven."""
    from .options import GameLists, TreeOptions

    o = TreeOptions(
        lists=GameLists(game, length, colours, repeats, black_only, guesses, answers, backend), mode=mode,
        max_guesses=max_guesses, cutoff=cutoff, candidates=candidates, metric=metric, words=words,
        words_file=words_file, top=top, workers=workers, memo_mb=memo_mb, run_dir=run_dir,
        scheduler=scheduler, batch=batch, output=output, output_format=output_format, task=task, json=json,
        quiet=quiet,
        objective=objective, rank=rank, start=start, state=state,
        alternatives=(4 if state else 0) if alternatives is None else alternatives,
        time_limit=time_limit, out=out, fmt=fmt, show=levels, pair_mb=pair_mb, bounds=bounds)
    if bounds and (objective != "total" or rank):
        raise GpusolveError("--bounds bounds the total of one first guess: it takes no --rank and the "
                            "objective total")
    if objective == "worst-case":
        return _worst_case(o)
    if objective != "total":
        raise GpusolveError(f"unknown objective {objective!r}: choose total or worst-case")
    if pair_mb is not None:
        raise GpusolveError("--pair-mb sizes the worst-case search's cache: it goes with "
                            "--objective worst-case")
    if rank:
        if start or state:
            raise GpusolveError("--rank ranks start words: it takes no --start or --state")
        return exact_ranking(o)
    if words or words_file:
        raise GpusolveError("--words and --words-file go with --rank")
    if bounds:
        return _bounds(o)
    return _optimal(o)


def _worst_case(o: TreeOptions) -> None:
    """Run ``--objective worst-case``: the worst-case search (``worst-case``) with these options."""
    from .adversaries import worst_case_cmd

    pair_mb = o.pair_mb
    if o.memo_mb is not None and pair_mb is None:  # the old spelling: --memo-mb sized the pair cache
        warnings.warn(Note("--memo-mb with --objective worst-case is read as --pair-mb (the worst-case "
                           "search has no memo of that size): write --pair-mb"), stacklevel=1)
        pair_mb = o.memo_mb
    g = o.lists
    return worst_case_cmd(rank=(parse_candidates(o.candidates or "all") or 0) if o.rank else None,
                          start=o.start, mode=o.mode, state=o.state, max_depth=o.max_guesses, out=o.out,
                          fmt=o.fmt, game=g.game, length=g.length, colours=g.colours, repeats=g.repeats,
                          black_only=g.black_only, guesses=g.guesses, answers=g.answers, backend=g.backend,
                          json=o.json, quiet=o.quiet, pair_mb=DEFAULT_PAIR_MB if pair_mb is None else pair_mb,
                          time_limit=o.time_limit)


def _optimal(o: TreeOptions) -> None:
    """Check the options, then search a given first guess or position, or prove the best start word."""
    from ..core.history import read_position, remaining_answers, won
    from ..core.limits import check_memo_mb, check_workers
    from ..core.treefiles import tree_format

    check_workers(o.workers)
    check_memo_mb(o.memo)
    check_outputs((o.out, "tree"))
    chosen = parse_candidates("all" if o.candidates is None else o.candidates)
    # the size is checked from the lists before the matrix is built (from a position: once it is)
    pm = o.lists.matrix(fits=None if o.state else lambda game, g, a: _check_size(game, g, a, a, 0, o))
    moves = read_position(pm, o.state, o.mode)
    if won(pm, moves):
        return _print_won(moves, o)
    if o.out:
        tree_format(o.out, o.fmt, pm.game, moves)
    _check_size(pm.game, *pm.shape, len(remaining_answers(pm, moves)), len(moves), o)
    if o.start is None and not moves:
        if o.time_limit is not None:
            raise GpusolveError("--time-limit goes with --start or --state: a proof over every start word "
                                "stops with Ctrl-C and resumes where it stopped")
        return _prove(pm, o, chosen)
    return _solve(pm, moves, o, chosen)


def _solve(pm, moves: list, o: TreeOptions, candidates: int | None) -> None:
    """Search the best strategy after the first guess or the position given, and show it."""
    from ..core.backend import gpu_report
    from ..core.treefiles import save_tree
    from ..core.trees import render
    from ..search.optimal import Options, Question, solve

    show = console.is_terminal and not o.quiet and not o.json
    with ProgressDisplay(show) as display:
        result = solve(pm, Question(start=o.start, moves=tuple(moves), mode=o.mode, max_guesses=o.max_guesses,
                                    cutoff=o.cutoff, candidates=candidates, alternatives=o.alternatives),
                       Options(memo_mb=o.memo, workers=o.workers, progress=display if show else None,
                               seconds=o.time_limit))
    if o.out and result.tree is not None:
        save_tree(o.out, result.tree, pm.game, o.fmt, mode=o.mode,
                  guesses=o.lists.guesses or pm.game.default_guesses,
                  answers=o.lists.answers or pm.game.default_answers, max_guesses=o.max_guesses,
                  moves=[[w, pm.game.format_reply(c)] for w, c in moves])
    scope = proven_scope(result, o.start, bool(o.state), len(pm.guesses))
    if o.json:
        print_json({**_as_json(result, o, scope, len(moves)), "gpu": gpu_report(pm.backend)})
    else:
        _print_result(result, bool(o.state), scope)
        if o.show and result.tree is not None:
            console.print(render(result.tree, pm.game, o.show), markup=False, soft_wrap=True)
        if o.out and result.tree is not None:
            console.print(f"tree written to {o.out}")
        print_gpu_counts(gpu_report(pm.backend))
    if result.interrupted:
        kept = "nothing kept"
        if o.out and result.tree is not None:
            kept = f"the tree of the best first guess so far is in {o.out}"
        raise KeyboardInterrupt(f"{kept}; the search does not resume: run the command again "
                                "(optimal-tree --rank keeps every finished start word in a run directory)")


def _as_json(result, o: TreeOptions, scope: str, moves: int) -> dict:
    """Return the ``--json`` document of a search after a first guess or a position."""
    data = result.summary()
    data["proven_scope"] = scope if result.proven else None
    data["interrupted"] = result.interrupted
    if o.cutoff is not None:
        data["below_cutoff"] = result.below_cutoff
    if result.restricted:
        data["candidates"] = result.candidates
    if o.alternatives:
        data["alternatives"] = [a.as_dict() for a in result.alternatives]
    if moves:
        data["moves"] = moves  # total and mean count the guesses still to make
    return data


def _prove(pm, o: TreeOptions, candidates: int | None) -> None:
    """Prove the best first guess over every candidate (a resumable run), then show its tree."""
    from ..core.treefiles import save_tree
    from ..core.trees import render
    from ..runs.proof import prove_best_start
    from ..search.optimal import Options, Question, solve

    with ProgressDisplay(not (o.quiet or o.json)) as progress:
        proof = prove_best_start(pm, o.lists.guesses, o.lists.answers, mode=o.mode, max_guesses=o.max_guesses,
                                 candidates=candidates, keep=1 + o.alternatives, cutoff=o.cutoff,
                                 run_dir=o.run_dir, scheduler=o.scheduler, workers=o.workers, memo_mb=o.memo,
                                 backend=o.lists.backend, progress=progress)
    if not proof.complete:
        raise KeyboardInterrupt(proof.statement())
    if not proof.best and o.cutoff is None:
        raise Infeasible(f"no strategy finds every answer within {o.max_guesses} guesses")
    result = None
    if proof.best:
        best = proof.best[0][0]
        result = solve(pm, Question(start=best, mode=o.mode, max_guesses=o.max_guesses),
                       proof.memos.get(best, Options(memo_mb=o.memo)))
        if o.out and result.tree is not None:
            save_tree(o.out, result.tree, pm.game, o.fmt, mode=o.mode,
                      guesses=o.lists.guesses or pm.game.default_guesses,
                      answers=o.lists.answers or pm.game.default_answers, max_guesses=o.max_guesses)
    if o.json:
        print_json({**proof.as_dict(), "tree": None if result is None else result.summary()})
        return
    if result is not None:
        result.seconds += proof.seconds
        _print_result(result, False, proof.statement())
        if o.show and result.tree is not None:
            console.print(render(result.tree, pm.game, o.show), markup=False, soft_wrap=True)
    else:
        console.print(f"proven: {proof.statement()}")
    console.print(f"run directory {proof.run_dir} ({proof.searched_now:,} start words searched now)")
    print_gpu_counts(proof.gpu)
    if o.out and result is not None:
        console.print(f"tree written to {o.out}")


def _bounds(o: TreeOptions) -> None:
    """Run ``--bounds``: bound the --start word's total in a resumable run, then show the bounds,
    write the tree and say what is proven."""
    from ..core.limits import check_memo_mb, check_workers
    from ..core.treefiles import save_tree
    from ..runs.bounding import bound_start, check_fits

    if o.start is None or o.state or o.cutoff is not None or o.alternatives:
        raise GpusolveError("--bounds bounds the total of one first guess: it takes --start, and no --state, "
                            "--cutoff or --alternatives")
    check_workers(o.workers)
    check_memo_mb(o.memo)
    check_outputs((o.out, "tree"))
    workers = o.workers or 2
    pm = o.lists.matrix(fits=lambda game, g, a: check_fits(game, g, a, workers, o.memo, o.max_guesses))
    with ProgressDisplay(not (o.quiet or o.json)) as progress:
        result = bound_start(pm, o.start, o.lists.guesses, o.lists.answers, mode=o.mode,
                             max_guesses=o.max_guesses, run_dir=o.run_dir, seconds=o.time_limit,
                             workers=workers, memo_mb=o.memo, progress=progress)
    if result.infeasible:
        raise Infeasible(result.statement())
    if o.out and result.tree is not None:
        save_tree(o.out, result.tree, pm.game, o.fmt, mode=o.mode,
                  guesses=o.lists.guesses or pm.game.default_guesses,
                  answers=o.lists.answers or pm.game.default_answers, max_guesses=o.max_guesses)
    if o.json:
        print_json(result.as_dict())
    else:
        console.print(f"first guess {result.start} over {counted(result.n_answers, 'answer')}: "
                      f"first-pass bound {result.first_pass:,}, second-pass bound {result.second_pass:,}")
        upper = "no whole tree yet" if result.upper is None else \
            f"best tree {result.upper:,}, gap {result.gap:,}"
        console.print(f"proven lower bound {result.lower:,}; {upper}")
        console.print(f"proven: {result.statement()}")
        stopped = "" if result.stopped is None else f"; stopped by the {result.stopped}"
        more = "" if result.complete else "; run the same command again to go further"
        console.print(f"run directory {result.run_dir} ({result.searches_now:,} bucket searches now"
                      f"{stopped}{more})")
        if o.out and result.tree is not None:
            console.print(f"tree written to {o.out}")
    if result.stopped == "interrupted":
        raise KeyboardInterrupt(f"kept in {result.run_dir}: run the same command again to resume")


def _check_size(game, g: int, a: int, n: int, played: int, o: TreeOptions) -> None:
    """Refuse, before the search (and, from the lists' sizes, before the pattern matrix is built),
    a request whose matrices and workspaces (reserved in full, filled as the search goes deep)
    cannot fit in this machine's memory: ``g`` guesses, ``a`` answers, ``n`` of them left after
    ``played`` moves; say what would fit."""
    from ..core.games import matrix_bytes
    from ..core.limits import available_memory, check_memory
    from ..search.optimal import workspace_bytes

    workers = o.workers or 2
    memo_mb, max_guesses = o.memo, o.max_guesses
    levels = played + min(max_guesses - played, n) + 2  # the search never goes deeper than n
    fixed = memo_mb * 2**20 + 2 * matrix_bytes(game, g, a)  # the memo; the matrix and its answer-major copy
    need = workers * workspace_bytes(g, a, game.n_patterns, levels) + fixed
    memory = available_memory(total=True)
    fits = ""
    if memory is not None:
        most = (memory - fixed) // (workers * workspace_bytes(g, a, game.n_patterns, 1)) - 2
        fits = f"at most --max-guesses {most:,} fits" if most > 0 else "none fits: use shorter word lists"
    check_memory(need, f"--max-guesses {max_guesses:,} ({workers} workers, {a:,} answers, {g:,} guesses)",
                 fits, total=True)


def _print_won(moves: list, o: TreeOptions) -> None:
    """Say that the moves already won the game: nothing left to guess, 0 more guesses."""
    if o.out:
        raise GpusolveError(f"the game is already won ({moves[-1][0]} is the answer): no tree to write "
                            f"to {o.out}")
    warnings.warn(Note(f"the game is already won: {moves[-1][0]} (move {len(moves)}) is the answer"),
                  stacklevel=1)
    if o.json:
        print_json({"first_guess": None, "total": 0, "mean": 0.0, "worst": len(moves),
                    "histogram": {len(moves): 1}, "proven": True, "nodes": 0, "seconds": 0.0,
                    "proven_scope": "the game is won: nothing left to guess", "interrupted": False,
                    "moves": len(moves)})
    else:
        console.print("nothing left to guess: 0 more guesses (the game is won)")
