"""Commands against adversaries: ``worst-case`` (a look-ahead adversary), ``absurdle``, ``evil``
(a greedy tree against Evil Wordle), ``antiwordle``."""

from __future__ import annotations

from typing import Annotated

import typer

from ..core.words import counted
from ..search.defaults import DEFAULT_PAIR_MB
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
    load_matrix,
    name_option,
    print_json,
)

Budget = Annotated[int, typer.Option("--budget", min=1, help="Nodes the search may visit before giving up.")]
MaxDepth = Annotated[int, typer.Option("--max-depth", min=1, max=100, help="Give up beyond this depth.")]


@app.command("worst-case", hidden=True)
def worst_case_cmd(
    rank: Annotated[int | None, typer.Option(
        "--rank", min=0, help="Also check this many first guesses (best by largest bucket first; 0: all) "
        "for the optimum.")] = None,
    start: Annotated[str | None, typer.Option("--start", help="Fix the first guess.")] = None,
    mode: Annotated[str, name_option("--mode", "normal or consistent.")] = "normal",
    state: State = None,
    max_depth: MaxDepth = 12,
    min_depth: Annotated[int, typer.Option("--min-depth", min=1, help="Start at this depth (then the "
                                           "result is an upper bound, not proven least).")] = 1,
    out: Annotated[str | None, typer.Option("--out", help=OUT_HELP)] = None, fmt: TreeFormat = None,
    budget: Budget = 2_000_000_000,
    time_limit: TimeLimit = None,
    pair_mb: Annotated[int, typer.Option("--pair-mb", min=0,
                                         help="Memory for cached pair separators, MiB.")] = DEFAULT_PAIR_MB,
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
    quiet: Quiet = False,
) -> None:
    """The least number of guesses that always suffices against a true (look-ahead) adversary."""
    from ..core.history import read_position, refuse_won, remaining_answers
    from ..core.limits import check_memo_mb
    from ..core.treefiles import save_tree, tree_format
    from ..core.trees import summarize
    from ..search.plumbing import Budget as SearchBudget
    from ..search.worstcase import rank_worst_case, worst_case

    if pair_mb:
        check_memo_mb(pair_mb, "--pair-mb")
    check_outputs((out, "tree"))
    pm = load_matrix(game, length, colours, guesses, answers, backend, repeats=repeats,
                     black_only=black_only)
    moves = read_position(pm, state, mode)
    refuse_won(pm, moves, "guess")
    if out:
        tree_format(out, fmt, pm.game, moves)
    alive = remaining_answers(pm, moves)
    with ProgressDisplay(not (quiet or json)) as display:
        result = worst_case(pm, alive, mode, start, max_depth, SearchBudget(budget, time_limit),
                            min_depth=min_depth, progress=display, pair_mb=pair_mb)
    info = result.as_dict()
    summary = summarize(result.tree)
    info["tree"] = summary.as_dict()
    if rank is not None:
        good, checked = rank_worst_case(pm, result.depth, alive, mode, rank or None,
                                        SearchBudget(budget, time_limit), pair_mb)
        info["rank"] = {"checked": checked, "achieving": good}
    if out:
        save_tree(out, result.tree, pm.game, fmt, mode=mode, objective="worst-case",
                  guesses=guesses or pm.game.default_guesses, answers=answers or pm.game.default_answers,
                  max_guesses=result.depth, moves=[[w, pm.game.format_reply(c)] for w, c in moves])
    if json:
        print_json(info)
        return
    claim = (f"the least, proven ({', '.join(map(str, result.refuted)) or 'nothing'} refuted)"
             if result.proven_least else f"an upper bound (depths below {min_depth} not searched)")
    suffice = f"{counted(result.depth, 'guess')} always {'suffices' if result.depth == 1 else 'suffice'}"
    console.print(f"{counted(result.n_answers, 'answer')} ({mode} mode): {suffice}, {claim}, in "
                  f"{result.seconds:.1f} s, {result.nodes:,} nodes")
    console.print(f"tree: first guess {summary.first_guess}, mean {summary.mean:.4f}, "
                  f"worst {summary.worst}, histogram {summary.histogram}")
    if rank is not None:
        console.print(f"first guesses achieving {result.depth} ({len(good):,} of {checked:,} checked): "
                      + " ".join(good[:50]) + (" ..." if len(good) > 50 else ""))
    if out:
        console.print(f"tree written to {out}")


@app.command()
def absurdle(
    play: Annotated[str | None, typer.Option("--play", help="Instead, play these guesses (comma "
                                             "separated) against the replier.")] = None,
    max_depth: MaxDepth = 10,
    budget: Budget = 2_000_000_000,
    time_limit: TimeLimit = None,
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
    quiet: Quiet = False,
) -> None:
    """Absurdle: the fewest guesses that always win when the replier keeps the largest bucket.

    Proven by search (every smaller number refuted); --backend cuda scores the guesses on the GPU.
    """
    from ..core.errors import GpusolveError
    from ..search.absurdle import absurdle as solve_absurdle
    from ..search.absurdle import absurdle_line
    from ..search.plumbing import Budget as SearchBudget

    pm = load_matrix(game, length, colours, guesses, answers, backend, repeats=repeats,
                     black_only=black_only)
    if play is not None:
        words = [pm.game.parse_word(w, pm.guess_index) for w in play.split(",") if w.strip()]
        if not words:
            raise GpusolveError("--play is empty: give the guesses to play, e.g. --play RAISE,YAULD")
        line = absurdle_line(pm, words)
        if json:
            print_json([{"guess": w, "reply": pm.game.format_reply(r), "left": n} for w, r, n in line])
            return
        for w, r, n in line:
            console.print(f"{w} {pm.game.format_reply(r)}  {n:,} left")
        return
    with ProgressDisplay(not (quiet or json)) as display:
        result = solve_absurdle(pm, None, max_depth, SearchBudget(budget, time_limit), display)
    if json:
        print_json(result.as_dict(pm.game))
        return
    console.print(f"Absurdle over {pm.shape[1]:,} answers with {pm.shape[0]:,} guesses: "
                  f"{result.guesses} guesses always win, proven "
                  f"({', '.join(map(str, result.refuted)) or 'nothing'} refuted) in {result.seconds:.1f} s, "
                  f"{result.nodes:,} answer sets examined ({pm.backend.name})")
    console.print("winning line: " + ", ".join(f"{w} {pm.game.format_reply(r)}" for w, r in result.line))


@app.command()
def evil(
    tree_file: Annotated[str | None, typer.Option("--tree", help="Play this tree (JSON).")] = None,
    metric: Annotated[str, name_option("--metric", "Else build a greedy tree minimizing this.")
                      ] = "max",
    mode: Mode = "normal",
    free_max: Annotated[int | None, typer.Option("--free-max", min=0, help="Free guesses only with at most "
                                                 "N answers left (the seed uses 125).")] = None,
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Evil Wordle: the game a tree plays when the replier always keeps the largest branch
    (ties: the lowest reply, ..... first)."""
    from ..core.games import make_game
    from ..core.treefiles import load_tree
    from ..search.adversary import evil_path, policy_metric
    from ..search.greedy import greedy_tree

    moves: list = []
    if tree_file:
        tree, game_spec, info = load_tree(tree_file)
        if info.get("moves"):  # a tree from a position: its moves come first
            from .tree import _tree_file

            tree, pm, _, moves = _tree_file(tree_file, guesses, answers, backend)
    else:
        pm = load_matrix(game, length, colours, guesses, answers, backend, repeats=repeats,
                         black_only=black_only)
        tree, game_spec = greedy_tree(pm, policy_metric(metric), mode, free_max=free_max), pm.game
    game_spec = game_spec or make_game(game, length, colours, repeats, black_only)
    path = moves + evil_path(tree, game_spec.solved)
    if json:
        print_json([{"guess": g, "reply": game_spec.format_reply(r)} for g, r in path])
        return
    for number, (g, r) in enumerate(path, 1):
        console.print(f"{number}. {g} {game_spec.format_reply(r)}")
    console.print(f"the Evil replier holds out for {len(path)} guesses")


@app.command()
def antiwordle(
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Antiwordle: consistent guesses that keep branches big (least entropy), as long a game as
    possible."""
    from ..core.trees import summarize
    from ..search.adversary import antiwordle_tree

    pm = load_matrix(game, length, colours, guesses, answers, backend, repeats=repeats,
                     black_only=black_only)
    s = summarize(antiwordle_tree(pm))
    if json:
        print_json(s.as_dict())
        return
    console.print(f"first guess: {s.first_guess}")
    console.print(f"median: {s.median:.0f} guesses, mean: {s.mean:.2f} ± {s.stdev:.2f}, worst: {s.worst}, "
                  f"best: {s.best}")
    console.print(f"cumulative: {s.cumulative()}")
