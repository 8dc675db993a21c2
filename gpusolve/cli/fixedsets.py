"""The fixed-guess-set command: ``preset`` (preset words played first whatever the replies, seed 003)."""

from __future__ import annotations

from typing import Annotated

import typer

from .app import (
    Answers,
    Backend,
    BlackOnly,
    Colours,
    Game,
    Guesses,
    Json,
    Length,
    ProgressDisplay,
    Quiet,
    Repeats,
    TimeLimit,
    app,
    console,
    load_matrix,
    name_option,
    print_json,
    titled_table,
)


def _fmt(words) -> str:
    return "{" + " ".join(words) + "}"


@app.command()
def preset(
    words: Annotated[list[str] | None, typer.Argument(help="Preset words, played first in order.")] = None,
    search: Annotated[bool, typer.Option("--search", help="Search disjoint preset sets instead.")] = False,
    n_words: Annotated[int, typer.Option("--words", min=1, help="Preset words per set (with --search).")] = 4,
    samples: Annotated[int | None, typer.Option("--samples", min=1, help="Search this many random sets "
                                                "[default: every disjoint set]")] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Random seed for --samples.")] = 0,
    pool: Annotated[str, name_option("--pool", "Draw set words from: answers or guesses.")] = "answers",
    letters: Annotated[int, typer.Option("--letters", min=1, max=26,
                                         help="Use only the N most frequent letters.")] = 26,
    top: Annotated[int, typer.Option("--top", min=1, help="Show the N best means (with --search).")] = 10,
    max_guesses: Annotated[int, typer.Option("--max-guesses", min=1, help="Guesses allowed.")] = 6,
    show_bins: Annotated[int, typer.Option("--show-bins", min=1,
                                           help="List losing bins of at least N words.")] = 3,
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
    quiet: Quiet = False, time_limit: TimeLimit = None,
) -> None:
    """Play preset words first whatever the replies, then any consistent word (seed 003)."""
    from ..core.errors import GpusolveError
    from ..search.plumbing import Budget
    from ..search.presets import preset_report, search_presets

    pm = load_matrix(game, length, colours, guesses, answers, backend, repeats=repeats,
                     black_only=black_only)
    if search:
        with ProgressDisplay(not (quiet or json)) as steps:
            result = search_presets(pm, n_words, samples, seed, pool, letters, top, max_guesses, steps,
                                    Budget(None, time_limit))
        if json:
            print_json(result.as_dict())
            return
        how = "every" if result.exhaustive else "a random sample of"
        console.print(f"searched {how} {result.searched:,} disjoint {n_words}-word sets "
                      f"(pool of {result.pool:,} words) in {result.seconds:.1f} s; "
                      f"{len(result.winners):,} always win")
        table = titled_table(f"best mean scores ({result.evaluated_exactly:,} evaluated exactly)")
        for name in ("rank", "set", "mean", "always wins"):
            table.add_column(name, justify="left" if name == "set" else "right")
        for i, (ws, mean, wins) in enumerate(result.best, 1):
            table.add_row(str(i), " ".join(ws), f"{mean:.4f}", "yes" if wins else "no")
        console.print(table)
        if result.winners:
            shown = result.winners[:top]
            console.print(f"always-winning sets, best {len(shown)} by mean:")
            for ws, mean in shown:
                console.print(f"  {' '.join(ws)}  {mean:.4f}")
        return
    if time_limit is not None:
        raise GpusolveError("--time-limit goes with --search (scoring given preset words is quick)")
    if not words:
        raise GpusolveError("give preset words, e.g. gpusolve preset HANDY SWIFT GLOVE CRUMP, or --search")
    report = preset_report(pm, words, max_guesses, show_bins)
    if json:
        print_json(report.as_dict())
        return
    freq = {s: (round(f) if f > 1 else round(f, 3)) for s, f in report.frequencies.items()}
    console.print(f"{_fmt(report.words)} wins {report.win_rate:.2%} of the time"
                  f"{' (always wins)' if report.always_wins else ''}")
    if report.seed_win_rate != report.win_rate:
        console.print(f"  (the seed's count, which scores every preset guess as a possible win, "
                      f"gives {report.seed_win_rate:.2%})")
    seed_mean = f" (seed's count: {report.seed_mean:.2f})" if report.seed_mean != report.mean else ""
    console.print(f"mean score: {report.mean:.2f}{seed_mean}; max score: {report.worst}")
    console.print(f"score frequencies: {freq}")
    console.print(f"bin sizes: {report.bin_sizes}")
    for bin_words, bad in report.losing_bins:
        console.print(f"bin {_fmt(bin_words)} can lose with: {_fmt(bad)}")
