"""Guessing policies: ``policies`` (seed 004's greedy policies and agents), ``prior-tree`` and
``rank-prior`` (answers weighted by a prior)."""

from __future__ import annotations

from typing import Annotated

import typer

from ..core.words import counted
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
    ProgressDisplay,
    Repeats,
    State,
    Top,
    TreeFormat,
    app,
    check_outputs,
    console,
    load_matrix,
    name_option,
    print_json,
    titled_table,
)


@app.command()
def policies(
    metrics: Annotated[str, name_option("--metrics", "Comma-separated greedy metrics (or the "
                                        "seed's names maxinfo, maxsplits, maxprune).")]
    = "entropy,splits,prune",
    modes: Annotated[str, name_option("--modes", "Comma-separated modes.")] = "normal,hard",
    rules: Annotated[str, name_option("--rules", "greedy: gpusolve's greedy trees; seed-004: "
                                      "the seed's own guesser (Wordle; normal and hard).")] = "greedy",
    start: Annotated[str | None, typer.Option("--start", help="seed-004: the first guess [default: "
                                              "the seed's table start word per row].")] = None,
    search_start: Annotated[int | None, typer.Option("--search-start", help="seed-004: play the "
                                                     "seed's start-word search over its first N "
                                                     "openers (it used 100; slow).")] = None,
    free_max: Annotated[int | None, typer.Option(
        "--free-max", min=0, help="greedy: free guesses only with at most N answers left.")] = None,
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Seed 004's policies (MaxInfo = entropy, MaxSplits = splits, MaxPrune = prune): as greedy
    trees (first guess, mean, worst, games over 6), or with --rules seed-004 as the seed's own
    guesser plays them (its README table needs the original answers in play order, CIGAR first, as
    --answers FILE)."""
    from ..core.errors import GpusolveError

    if rules not in ("greedy", "seed-004"):
        raise GpusolveError(f"unknown rules {rules!r}: choose greedy or seed-004")
    if rules == "greedy" and (start or search_start):
        raise GpusolveError("--start and --search-start go with --rules seed-004")
    pm = load_matrix(game, length, colours, guesses, answers, backend, repeats=repeats,
                     black_only=black_only)
    if rules == "seed-004":
        _seed_agents(pm, metrics.split(","), modes.split(","), start, search_start, json)
        return
    from ..search.adversary import policy_table

    with ProgressDisplay(not json) as steps:
        rows = policy_table(pm, tuple(metrics.split(",")), tuple(modes.split(",")), free_max, steps)
    if json:
        print_json(rows)
        return
    table = titled_table(f"greedy policies over {pm.shape[1]:,} answers, {pm.shape[0]:,} guesses")
    for name in ("metric", "mode", "first guess", "mean", "worst", "over 6"):
        table.add_column(name, justify="left" if name in ("metric", "mode", "first guess") else "right")
    for r in rows:
        table.add_row(r["metric"], r["mode"], r["first_guess"], f"{r['mean']:.4f}", str(r["worst"]),
                      str(r["over_6"]))
    console.print(table)


def _seed_agents(pm, metrics, modes, start, search_start, json) -> None:
    from ..core.errors import GpusolveError
    from ..search.agents import MODES, Agent, policy_name

    bad = [m for m in modes if m not in MODES]
    if bad:
        raise GpusolveError(f"unknown mode {bad[0]!r} for seed 004's guesser: choose normal or hard")
    if search_start is not None and search_start < 1:
        raise GpusolveError(f"--search-start must be 1 or more, not {search_start}")
    runs = []
    for metric in metrics:
        for mode in modes:
            agent = Agent(pm, policy_name(metric), mode)
            runs.append(agent.search_start(search_start)[0] if search_start else agent.play(start))
    if json:
        print_json([r.as_dict() for r in runs])
        return
    how = f"best of its first {search_start} openers" if search_start else "start fixed"
    table = titled_table(f"seed 004's guesser over {pm.shape[1]:,} answers, {pm.shape[0]:,} guesses "
                         f"({how}); mean over the answers solved in 6; failed: not solved in 6")
    for name in ("policy", "mode", "first guess", "mean (solved)", "solved", "mean (all)", "failed"):
        table.add_column(name, justify="left" if name in ("policy", "mode", "first guess") else "right")
    for r in runs:
        table.add_row(r.policy, r.mode, r.start, f"{float(r.solved_mean):.4f}",
                      f"{len(r.answers) - len(r.failed):,}", f"{float(r.overall_mean):.4f}",
                      f"{len(r.failed):,}")
    console.print(table)
    console.print("mean (all): a failed answer counts 6 guesses (how the seed ranked start words)")
    for r in runs:
        if r.failed:
            more = f" … and {len(r.failed) - 25:,} more" if len(r.failed) > 25 else ""
            console.print(f"failed, {r.policy} {r.mode}: {' '.join(r.failed[:25])}{more}")


Prior = Annotated[str, name_option("--prior", "uniform or frequency (needs wordfreq).")]


@app.command("prior-tree", hidden=True)
def prior_tree_cmd(
    prior: Prior = "frequency",
    metric: Annotated[str, name_option("--metric", "entropy, expectation, max, splits, prune")
                      ] = "entropy",
    mode: Annotated[str, name_option("--mode", "normal or consistent")] = "normal",
    free_max: Annotated[int | None, typer.Option("--free-max", min=0, help="Free guesses only with at most "
                                                 "N answers left.")] = None,
    out: Annotated[str | None, typer.Option("--out", help=OUT_HELP)] = None, fmt: TreeFormat = None,
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """A greedy tree with answers weighted by a prior (frequency: common words more likely)."""
    from ..core.treefiles import save_tree, tree_format
    from ..core.trees import summarize
    from ..search.prior import answer_weights, prior_tree, weighted_mean

    check_outputs((out, "tree"))
    pm = load_matrix(game, length, colours, guesses, answers, backend, repeats=repeats,
                     black_only=black_only)
    if out:
        tree_format(out, fmt, pm.game)
    weights = answer_weights(pm, prior)
    tree = prior_tree(pm, weights, metric, mode, free_max)
    s = summarize(tree)
    info = {**s.as_dict(), "prior": prior, "metric": metric, "mode": mode,
            "mean_under_prior": round(weighted_mean(tree, pm, weights), 4)}
    if out:
        save_tree(out, tree, pm.game, fmt, mode=mode, metric=metric, prior=prior)
    if json:
        print_json(info)
        return
    console.print(f"first guess {s.first_guess}: mean {s.mean:.4f} (uniform), "
                  f"{info['mean_under_prior']:.4f} under the {prior} prior; worst {s.worst}; "
                  f"histogram {s.histogram}")


@app.command("rank-prior", hidden=True)
def rank_prior(
    prior: Prior = "frequency",
    metric: Annotated[str, name_option("--metric", "entropy, expectation, max, splits, prune")
                      ] = "entropy",
    top: Top = 10,
    state: State = None,
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Rank every guess with answers weighted by a prior (the weighted kernel)."""
    from ..core.history import read_position, refuse_won, remaining_answers
    from ..search.prior import answer_weights, rank_weighted

    pm = load_matrix(game, length, colours, guesses, answers, backend, repeats=repeats,
                     black_only=black_only)
    moves = read_position(pm, state)
    refuse_won(pm, moves, "rank")
    alive = remaining_answers(pm, moves)
    ranked = rank_weighted(pm, metric, answer_weights(pm, prior), alive)[:top]
    if json:
        print_json([s.as_dict() for s in ranked])
        return
    table = titled_table(f"{pm.shape[0]:,} guesses over {counted(len(alive), 'answer')}, {prior} prior, "
                         f"by {metric}")
    for name in ("rank", "word", "entropy", "expected left", "max", "branches", "win chance"):
        table.add_column(name, justify="left" if name == "word" else "right")
    for i, s in enumerate(ranked, 1):
        table.add_row(str(i), s.word, f"{s.entropy:.3f}", f"{s.expected:.2f}", str(s.max), str(s.branches),
                      f"{s.solve:.3f}")
    console.print(table)
