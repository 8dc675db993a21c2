"""Commands over guess trees: ``tree`` (greedy), ``verify``, ``tree-view`` and ``play``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import GpusolveError
from ..core.modes import MODES
from .app import (
    OUT_HELP,
    Answers,
    Backend,
    Colours,
    Game,
    Guesses,
    Json,
    Length,
    TreeFormat,
    app,
    console,
    load_matrix,
    print_json,
)

FREE_MIN = 3  # gpusolve.search.greedy.FREE_MIN (numba is imported only when a command runs)
METRIC_HELP = ("Metric minimized at every node: entropy, max, expectation, branches, guaranteed_wins, "
               "expected_wins, splits (= branches), prune (= expectation); prefix anti- to reverse it.")
Metric = Annotated[str, typer.Option("--metric", help=METRIC_HELP)]
Mode = Annotated[str, typer.Option("--mode", help="Guesses allowed: " + " | ".join(MODES))]
FreeMax = Annotated[int | None, typer.Option(
    "--free-max", help="Consider free (non-answer) guesses only with at most N answers left "
    "(normal and hard modes; the seeds use 125). [default: no limit]")]
FreeMin = Annotated[int, typer.Option(
    "--free-min", help="...and only with more than N answers left (1: free guesses everywhere).")]
Start = Annotated[str | None, typer.Option("--start", help="Fix the first guess.")]
Ties = Annotated[str, typer.Option(
    "--ties", help="exact: integer keys, ties to the earlier word, Jotto lists sorted; seed-001: "
    "seed 001's Python float keys and Jotto lists in file order (reproduces its tables).")]
Plot = Annotated[Path | None, typer.Option("--plot", help="Write a histogram PNG here.")]


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
    show: Annotated[int, typer.Option("--show", help="Print the tree's first N levels.")] = 0,
    game: Game = "wordle", length: Length = None, colours: Colours = 6, guesses: Guesses = None,
    answers: Answers = None, backend: Backend = None, json: Json = False,
    prior: Annotated[str, typer.Option(
        "--prior", help="uniform, or frequency: answers weighted by English word frequency "
        "(needs the freq extra).")] = "uniform",
) -> None:
    """Build the greedy guess tree: at every node the guess that minimizes the metric."""
    if prior != "uniform" and ties != "exact":
        raise GpusolveError("--ties applies to the uniform prior only")
    if prior != "uniform":
        from .variants import prior_tree_cmd

        return prior_tree_cmd(prior=prior, metric=metric, mode=mode, free_max=free_max,
                              out=str(out) if out else None, fmt=fmt, game=game, length=length,
                              colours=colours, guesses=guesses, answers=answers, backend=backend, json=json)
    from ..core.trees import plot_histogram, render, save_tree, summarize, tree_format
    from ..search.greedy import greedy_tree, kernel_metric

    kernel_metric(metric, 1, ties)  # an unknown metric or tie rule fails before the lists load
    # seed 001 keeps each Jotto anagram set where it first appears in the file (its list order)
    jotto_order = "file" if ties == "seed-001" else "sorted"
    pm = load_matrix(game, length, colours, guesses, answers, backend, jotto_order)
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
    window = ("" if mode == "consistent" else
              f"; free guesses when {free_min} < remaining"
              + (f" <= {free_max}" if free_max is not None else ""))
    rule = "" if ties == "exact" else f"; ties as in {ties}"
    say(f"greedy {metric} tree over {pm.shape[1]:,} answers, {pm.shape[0]:,} guesses, "
                  f"{mode} mode{window}{rule}")
    say(f'first guess: "{summary.first_guess}"')
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
    mode: Annotated[str | None, typer.Option(
        "--mode", help="normal | hard | consistent [default: the file's, else normal]")] = None,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Check a tree: every answer reached once, replies right, guesses allowed, depth in limit."""
    from ..core.patterns import pattern_matrix
    from ..core.trees import load_tree, summarize
    from ..core.verify import verify_tree

    t, game, info = load_tree(path)
    guesses = guesses or info.get("guesses")
    answers = answers or info.get("answers")
    mode = mode or info.get("mode") or "normal"
    limit = max_guesses if max_guesses is not None else info.get("max_guesses")
    pm = pattern_matrix(game, guesses, answers, backend)
    problems = verify_tree(t, pm, mode, limit)
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
    summary = summarize(t)
    if json:
        print_json({"valid": True, "problems": [], "summary": summary.as_dict()})
        return
    say(f"valid {game.name} tree over {pm.shape[1]:,} answers ({mode} mode"
                  + (f", at most {limit} guesses" if limit is not None else "") + ")")
    say(f'first guess: "{summary.first_guess}"')
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
    mode: Annotated[str | None, typer.Option(
        "--mode", help="Record this mode in the file written (a text tree records none).")] = None,
    guesses: Annotated[str | None, typer.Option(
        "--guesses", help="Record this guess list's name in the file written.")] = None,
    answers: Annotated[str | None, typer.Option(
        "--answers", help="Record this answer list's name in the file written.")] = None,
) -> None:
    """Convert a tree: to the HTML explorer (offline, one file to share), the text layout of the
    published trees (hollow, or text-full), or JSON. It is not checked: use verify for that."""
    import sys

    from ..core.trees import dump_tree, load_tree, save_tree, tree_format

    t, game, info = load_tree(path)
    info.update({k: v for k, v in (("mode", mode), ("guesses", guesses), ("answers", answers)) if v})
    if out is None:
        sys.stdout.write(dump_tree(t, game, tree_format("-", fmt or "text", game, info.get("moves")), **info))
        return
    save_tree(out, t, game, fmt, **info)
    say(f"{tree_format(out, fmt)} tree written to {out}")


@app.command()
def play(
    tree_file: Annotated[Path | None, typer.Option("--tree", help="Play by this tree file.")] = None,
    metric: Annotated[str | None, typer.Option(
        "--metric", help="Play by the greedy tree of this metric. [default: entropy]")] = None,
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
    game: Game = "wordle", length: Length = None, colours: Colours = 6, guesses: Guesses = None,
    answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Simulate games: a guesser (tree file, greedy metric, or random) against an answer; or play
    yourself (--human, --evil)."""
    if human or evil:
        from .variants import play_human

        return play_human(seed=seed, answer=target, evil_replier=evil, mode=mode, max_guesses=6, game=game,
                          length=length, colours=colours, guesses=guesses, answers=answers,
                          backend=backend)
    seed = seed or 0
    import random as random_module

    from ..core.games import make_game
    from ..core.patterns import pattern_matrix
    from ..core.trees import load_tree
    from ..play.simulate import play_all, play_game, random_guesser, tree_guesser
    from ..search.greedy import greedy_tree

    if sum([tree_file is not None, metric is not None, random]) > 1:
        raise GpusolveError("choose one guesser: --tree, --metric or --random")
    if tree_file is not None:
        t, spec, info = load_tree(tree_file)
        pm = pattern_matrix(spec, guesses or info.get("guesses"), answers or info.get("answers"), backend)
        guesser = tree_guesser(t)
    else:
        pm = pattern_matrix(make_game(game, length, colours), guesses, answers, backend)
        if random:
            guesser = random_guesser(pm, seed)
        else:
            guesser = tree_guesser(greedy_tree(pm, metric or "entropy", mode, start=start,
                                               free_max=free_max, free_min=free_min))
    if all_answers:
        summary = play_all(pm, guesser)
        if json:
            print_json(summary.as_dict())
            return
        say(f"played all {pm.shape[1]:,} answers")
        _print_report(summary)
        return
    if target is None:
        answer = random_module.Random(f"target {seed}").choice(pm.answers)
    else:
        answer = target.strip().upper()
        if answer not in pm.answers:
            raise GpusolveError(f"unknown answer {answer}: not in the answer list")
    turns = play_game(pm, guesser, answer)
    if json:
        print_json({"target": answer, "score": len(turns), "turns": [
            {"guess": x.guess, "reply": pm.game.format_reply(x.reply), "remaining": x.remaining}
            for x in turns]})
        return
    for number, x in enumerate(turns, 1):
        say(f"Guess {number}: {x.guess}, reply: {pm.game.format_reply(x.reply)}; "
                      f"remaining: {x.remaining:,}")
