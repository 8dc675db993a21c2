"""Commands over guess trees: ``tree`` (greedy), ``verify``, ``tree-view`` and ``play``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import GpusolveError
from ..core.words import counted
from ..search.defaults import FREE_MIN
from .app import (
    METRIC_HELP,
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
    Repeats,
    TreeFormat,
    app,
    check_outputs,
    console,
    load_matrix,
    name_option,
    print_json,
)

Metric = Annotated[str, name_option(
    "--metric", f"Metric minimized at every node: {METRIC_HELP}; prefix anti- to reverse it.")]
FreeMax = Annotated[int | None, typer.Option(
    "--free-max", min=0, help="Consider free (non-answer) guesses only with at most N answers left "
    "(normal and hard modes; the seeds use 125). [default: no limit]")]
FreeMin = Annotated[int, typer.Option(
    "--free-min", min=0, help="...and only with more than N answers left (1: free guesses everywhere).")]
Start = Annotated[str | None, typer.Option("--start", help="Fix the first guess.")]
Ties = Annotated[str, name_option(
    "--ties", "exact: integer keys, ties to the earlier word, Jotto lists sorted; seed-001: "
    "seed 001's Python float keys and Jotto lists in file order (reproduces its tables).")]
Plot = Annotated[Path | None, typer.Option("--plot", help="Write a histogram PNG here.")]
Show = Annotated[int, typer.Option("--show", min=0, help="Print the tree's first N levels.")]


def say(text: str) -> None:
    """Print one line as is: no wrapping, no markup."""
    console.print(text, soft_wrap=True, markup=False)


def _print_report(summary, limit: int = 6) -> None:
    from ..core.trees import histogram_lines, report_lines

    for line in report_lines(summary, limit):
        say(line)
    for line in histogram_lines(summary):
        say(line)


@app.command()
def tree(
    metric: Metric = "entropy", mode: Mode = "normal", free_max: FreeMax = None,
    free_min: FreeMin = FREE_MIN, start: Start = None, ties: Ties = "exact",
    out: Annotated[Path | None, typer.Option("--out", help=OUT_HELP)] = None,
    fmt: TreeFormat = None, plot: Plot = None,
    show: Show = 0,
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False, guesses: Guesses = None,
    answers: Answers = None, backend: Backend = None, json: Json = False,
    prior: Annotated[str, name_option(
        "--prior", "uniform, or frequency: answers weighted by English word frequency "
        "(needs the freq extra).")] = "uniform",
) -> None:
    """Build the greedy guess tree: at every node the guess that minimizes the metric."""
    if prior != "uniform" and ties != "exact":
        raise GpusolveError("--ties applies to the uniform prior only")
    if prior != "uniform":
        from .policies import prior_tree_cmd

        return prior_tree_cmd(prior=prior, metric=metric, mode=mode, free_max=free_max,
                              out=str(out) if out else None, fmt=fmt, game=game, length=length,
                              colours=colours, repeats=repeats, black_only=black_only, guesses=guesses,
                              answers=answers, backend=backend, json=json)
    from ..core.treefiles import save_tree, tree_format
    from ..core.trees import plot_histogram, render, summarize
    from ..search.greedy import greedy_tree, kernel_metric

    kernel_metric(metric, 1, ties)  # an unknown metric or tie rule fails before the lists load
    # seed 001 keeps each Jotto anagram set where it first appears in the file (its list order)
    jotto_order = "file" if ties == "seed-001" else "sorted"
    check_outputs((out, "tree"), (plot, "plot"))
    pm = load_matrix(game, length, colours, guesses, answers, backend, jotto_order, repeats=repeats,
                     black_only=black_only)
    if out:
        tree_format(out, fmt, pm.game)
    t = greedy_tree(pm, metric, mode, start=start, free_max=free_max, free_min=free_min, ties=ties)
    summary = summarize(t)
    if out:
        save_tree(out, t, pm.game, fmt, mode=mode, metric=metric, free_max=free_max, free_min=free_min,
                  guesses=guesses or pm.game.default_guesses, answers=answers or pm.game.default_answers,
                  max_guesses=None, ties=ties)
    if plot:
        plot_histogram(summary, plot, f"greedy {metric} tree ({mode}), first guess {summary.first_guess}")
    if json:
        print_json(summary.as_dict())
        return
    window = "" if mode == "consistent" else _free_window(free_min, free_max)
    rule = "" if ties == "exact" else f"; ties as in {ties}"
    say(f"greedy {metric} tree over {counted(pm.shape[1], 'answer')}, {counted(pm.shape[0], 'guess')}, "
        f"{mode} mode{window}{rule}")
    say(f"first guess: {summary.first_guess}")
    _print_report(summary)
    if show:
        say(render(t, pm.game, show))
    if out:
        say(f"tree written to {out}")
    if plot:
        say(f"histogram written to {plot}")


@app.command()
def verify(
    path: Annotated[Path, typer.Argument(help="Tree file: JSON (gpusolve-tree/1), an explorer page, or the "
                                         "published text layout (then --guesses, --answers, --mode name "
                                         "the game).")],
    max_guesses: Annotated[int | None, typer.Option(
        "--max-guesses", help="Fail if an answer needs more. [default: the file's, else none]")] = None,
    mode: Annotated[str | None, name_option(
        "--mode", "normal, hard or consistent [default: the file's, else normal]")] = None,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Check a tree: every answer reached once, replies right, guesses allowed, depth in limit."""
    from ..core.verify import verify_tree

    t, pm, info, moves = _tree_file(path, guesses, answers, backend, mode)
    mode = mode or info.get("mode") or "normal"
    limit = max_guesses if max_guesses is not None else info.get("max_guesses")
    problems = verify_tree(t, pm, mode, limit, moves=moves)
    if problems:
        if json:
            print_json({"valid": False, "problems": problems})
        else:
            for p in problems[:20]:
                say(p)
            if len(problems) > 20:
                say(f"... and {len(problems) - 20} more")
        typer.echo(f"invalid tree: {len(problems)} problem{'s' * (len(problems) > 1)}, "
                   f"first: {problems[0]}", err=True)
        raise typer.Exit(1)
    summary = _summary(t, moves)
    if json:
        print_json({"valid": True, "problems": [], "summary": summary.as_dict(),
                    "moves": [[w, pm.game.format_reply(r)] for w, r in moves]})
        return
    position = (f", from the position {_moves_text(pm.game, moves)}: {summary.n:,} answers left"
                if moves else "")
    say(f"valid {pm.game.name} tree over {pm.shape[1]:,} answers ({mode} mode"
        + (f", at most {limit} guesses" if limit is not None else "") + f"){position}")
    say(f"first guess: {summary.first_guess}")
    say(f"total: {summary.total:,} guesses over {summary.n:,} answers (mean {summary.mean:.4f})")
    _print_report(summary, limit or 6)


@app.command("tree-view")
def tree_view(
    path: Annotated[Path, typer.Argument(help="Tree file: JSON (gpusolve-tree/1), the published text "
                                         "layout, or an explorer page.")],
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Write it here: a .html name gets the explorer page, .tree or .txt the text "
        "layout, else JSON. Without it, the text layout is printed.")] = None,
    fmt: TreeFormat = None,
    mode: Annotated[str | None, name_option(
        "--mode", "Record this mode in the file written (a text tree records none).")] = None,
    guesses: Annotated[str | None, typer.Option(
        "--guesses", help="Record this guess list's name in the file written.")] = None,
    answers: Annotated[str | None, typer.Option(
        "--answers", help="Record this answer list's name in the file written.")] = None,
) -> None:
    """Convert a tree: to the HTML explorer (offline, one file to share), the text layout of the
    published trees (hollow, or text-full), or JSON. It is not checked: use verify for that."""
    import sys

    from ..core.treefiles import dump_tree, load_tree, save_tree, tree_format

    t, game, info = load_tree(path)
    info.update({k: v for k, v in (("mode", mode), ("guesses", guesses), ("answers", answers)) if v})
    if out is None:
        sys.stdout.write(dump_tree(t, game, tree_format("-", fmt or "text", game, info.get("moves")), **info))
        return
    save_tree(out, t, game, fmt, **info)
    say(f"{tree_format(out, fmt)} tree written to {out}")


def _tree_file(path: Path, guesses: str | None, answers: str | None, backend: str | None,
               mode: str | None = None):
    """Return (tree, pattern matrix, file info, the moves it starts from) of a tree file."""
    from ..core.history import stored_moves
    from ..core.patterns import pattern_matrix
    from ..core.treefiles import load_tree

    t, game, info = load_tree(path)
    # a code game's file names its own lists (every code) by the empty name
    pm = pattern_matrix(game, guesses or info.get("guesses") or None, answers or info.get("answers") or None,
                        backend)
    return t, pm, info, stored_moves(pm, info.get("moves"), mode or info.get("mode") or "normal")


def _free_window(free_min: int, free_max: int | None) -> str:
    """Return how a tree's header says when free (non-answer) guesses were considered."""
    if free_max is None:
        return f"; free guesses when {free_min} < remaining"
    if free_max <= free_min:
        return "; no free guesses"
    return f"; free guesses when {free_min} < remaining <= {free_max}"


def _summary(t, moves: list):
    """Return a tree's summary, counting the guesses of the moves it starts from."""
    from ..core.trees import summarize, summary_of

    s = summarize(t)
    return summary_of(s.first_guess, {k + len(moves): v for k, v in s.histogram.items()})


def _moves_text(game, moves: list) -> str:
    return ",".join(f"{w}:{game.format_reply(r)}" for w, r in moves)


@app.command()
def play(
    tree_file: Annotated[Path | None, typer.Option("--tree", help="Play by this tree file.")] = None,
    metric: Annotated[str | None, name_option(
        "--metric", "Play by the greedy tree of this metric. [default: entropy]")] = None,
    random: Annotated[bool, typer.Option("--random", help="Guess a random remaining answer.")] = False,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Seed for --random and a random target [default: 0; with --human: random].")] = None,
    target: Annotated[str | None, typer.Option("--target", help="The answer. [default: random]")] = None,
    all_answers: Annotated[bool, typer.Option("--all", help="Play every answer; print the report.")] = False,
    human: Annotated[bool, typer.Option(
        "--human", help="You guess the hidden answer (coloured replies).")] = False,
    evil: Annotated[bool, typer.Option(
        "--evil", help="You play Absurdle: no fixed answer, the replier keeps the largest bucket.")] = False,
    mode: Mode = "normal", free_max: FreeMax = None, free_min: FreeMin = FREE_MIN, start: Start = None,
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False, guesses: Guesses = None,
    answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Simulate games: a guesser (tree file, greedy metric, or random) against an answer; or play
    yourself (--human, --evil)."""
    if human or evil:
        from .play import play_human

        return play_human(seed=seed, answer=target, evil_replier=evil, mode=mode, max_guesses=6, game=game,
                          length=length, colours=colours, repeats=repeats, black_only=black_only,
                          guesses=guesses, answers=answers, backend=backend)
    seed = seed or 0
    import random as random_module

    from ..core.games import make_game
    from ..core.history import remaining_answers
    from ..core.patterns import pattern_matrix
    from ..play.simulate import play_all, play_game, random_guesser, tree_guesser
    from ..search.greedy import greedy_tree

    if sum([tree_file is not None, metric is not None, random]) > 1:
        raise GpusolveError("choose one guesser: --tree, --metric or --random")
    moves: list = []
    if tree_file is not None:
        t, pm, _, moves = _tree_file(tree_file, guesses, answers, backend)
        guesser = tree_guesser(t, pm.game, moves)
    else:
        pm = pattern_matrix(make_game(game, length, colours, repeats, black_only), guesses, answers, backend)
        if random:
            guesser = random_guesser(pm, seed)
        else:
            guesser = tree_guesser(greedy_tree(pm, metric or "entropy", mode, start=start,
                                               free_max=free_max, free_min=free_min), pm.game)
    targets = [pm.answers[c] for c in remaining_answers(pm, moves)]  # a tree's position leaves these
    if all_answers:
        with ProgressDisplay(not json) as steps:
            summary = play_all(pm, guesser, targets, steps)
        if json:
            print_json(summary.as_dict())
            return
        position = f" left after {_moves_text(pm.game, moves)}" if moves else ""
        say(f"played all {len(targets):,} answers{position}")
        _print_report(summary)
        return
    if target is None:
        answer = random_module.Random(f"target {seed}").choice(targets)
    else:
        answer = target.strip().upper()
        if answer not in pm.answers:
            raise GpusolveError(f"unknown answer {answer}: not in the answer list")
        if answer not in targets:
            raise GpusolveError(f"{answer} cannot be the answer after the tree's moves "
                                f"{_moves_text(pm.game, moves)}")
    turns = play_game(pm, guesser, answer)
    if json:
        print_json({"target": answer, "score": len(turns), "turns": [
            {"guess": x.guess, "reply": pm.game.format_reply(x.reply), "remaining": x.remaining}
            for x in turns]})
        return
    for number, x in enumerate(turns, 1):
        say(f"Guess {number}: {x.guess}, reply: {pm.game.format_reply(x.reply)}; "
                      f"remaining: {x.remaining:,}")
