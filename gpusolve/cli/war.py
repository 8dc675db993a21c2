"""Commands for the card game War: ``war sweep`` (exact odds) and ``war lengths`` (simulation)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Annotated

import typer

from .app import Backend, Json, ProgressDisplay, Quiet, app, check_outputs, console, print_json, titled_table

DEFAULT_CAP = 100_000  # gpusolve.war.DEFAULT_CAP (its kernels are imported only when a command runs)

war = typer.Typer(help="The card game War: exact sweep odds and simulated game lengths.",
                  no_args_is_help=True, rich_markup_mode=None)
app.add_typer(war, name="war")

Ranks = Annotated[int, typer.Option("--ranks", min=1, help="Ranks in the deck.")]
Suits = Annotated[int, typer.Option("--suits", min=1, help="Cards of each rank.")]
Down = Annotated[int, typer.Option("--down", min=0, help="Face-down cards each player plays in a war.")]


def _odds(p: float) -> str:
    """Return '1 in N' for a probability."""
    return f"1 in {1 / p:,.2f}" if p else "never"


def _exactness(value: float, exact: Fraction) -> dict:
    """Return the exact value and how far the float result is from it."""
    error = Fraction(value) - exact
    return {"exact": f"{exact.numerator}/{exact.denominator}", "exact_float": float(exact),
            "float_error": float(error), "float_relative_error": float(error / exact) if exact else 0.0}


@war.command()
def sweep(
    ranks: Ranks = 13, suits: Suits = 4,
    wars: Annotated[bool, typer.Option("--wars", help="Games of exactly n/2 plays, wars allowed.")] = False,
    down: Down = 3,
    exact: Annotated[bool, typer.Option("--exact", help="Also compute with exact fractions.")] = False,
    json: Json = False, quiet: Quiet = False,
) -> None:
    """Probability that a game is as short as can be: one player wins every battle."""
    from .. import war as cards

    deck = cards.abstract_deck(ranks, suits)
    n = ranks * suits
    if wars:
        _sweep_with_wars(ranks, suits, down, exact, json, quiet)
        return
    with ProgressDisplay(not (quiet or json)) as steps:
        p = cards.sweep_probability(deck, progress=steps)
        if exact:
            p_exact = cards.sweep_probability(deck, exact=True, progress=steps)
    info = {"ranks": ranks, "suits": suits, "battles": n // 2, "p_sweep": p,
            "games_per_sweep_by_either": 1 / (2 * p) if p else None}
    if exact:
        info |= _exactness(p, p_exact)
    if json:
        print_json(info)
        return
    console.print(f"{n} cards ({ranks} ranks x {suits} suits), {n // 2} battles:")
    console.print(f"  P(A wins every battle) = {p!r}")
    if p:
        console.print(f"  one sweep by either player every {1 / (2 * p):,.2f} games")
    if exact:
        _print_exactness(info)


def _sweep_with_wars(ranks: int, suits: int, down: int, exact: bool, json: bool, quiet: bool) -> None:
    """Print the probabilities of games of exactly n/2 plays with wars allowed."""
    from .. import war as cards

    deck, n = cards.abstract_deck(ranks, suits), ranks * suits
    with ProgressDisplay(not (quiet or json)) as steps:
        games = cards.short_games(deck, down, progress=steps)
        exact_games = cards.short_games(deck, down, exact=True, progress=steps) if exact else None
    names = {"seed_win": ("A wins", "Norvig"), "seed_tie": ("tie", "Norvig"),
             "win": ("A wins", "rules"), "tie": ("tie", "rules")}
    rows = {}
    for key in names:
        rows[key] = {"p": float(getattr(games, key))}
        if exact_games:
            rows[key] |= _exactness(getattr(games, key), getattr(exact_games, key))
    if json:
        print_json({"ranks": ranks, "suits": suits, "plays": n // 2, "down": down, **rows})
        return
    table = titled_table(f"Games of exactly {n // 2} plays, {n} cards, {down} down per war")
    for column in ("outcome", "counted by", "probability", "odds") + (("float-exact",) if exact else ()):
        table.add_column(column, justify="left" if column in ("outcome", "counted by") else "right")
    for key, (outcome, counted) in names.items():
        row = rows[key]
        extra = (f"{row['float_relative_error']:+.1e}",) if exact else ()
        table.add_row(outcome, counted, f"{row['p']:.10g}", _odds(row["p"]), *extra)
    console.print(table)
    console.print("Norvig: no war pending after the last play = A wins; mid-war = tie.\n"
                  "rules: B out and A has taken cards = A wins (also mid-war); nobody ever took "
                  "cards = tie.\nEither player: double the win probabilities."
                  + ("\nfloat-exact: relative distance of the float result from the exact one."
                     if exact else ""))


def _print_exactness(info: dict) -> None:
    """Print the exact value and the float's distance from it."""
    console.print(f"  exact: {info['exact']}")
    console.print(f"       = {info['exact_float']!r}")
    console.print(f"  float - exact = {info['float_error']:.3e} "
                  f"(relative {info['float_relative_error']:.3e})")


@war.command()
def lengths(
    games: Annotated[int, typer.Option("--games", help="Games to play.")] = 100_000,
    seed: Annotated[int, typer.Option("--seed", help="Random seed (game i depends on seed and i).")] = 0,
    ranks: Ranks = 13, suits: Suits = 4, down: Down = 3,
    cap: Annotated[int, typer.Option("--cap", help="Stop a game after this many plays.")] = DEFAULT_CAP,
    plot: Annotated[Path | None, typer.Option("--plot", help="Write a histogram PNG here.")] = None,
    backend: Backend = None, json: Json = False, quiet: Quiet = False,
) -> None:
    """Simulate random games and report the distribution of their lengths (in plays)."""
    from .. import war as cards

    check_outputs((plot, "plot"))
    with ProgressDisplay(not (quiet or json)) as steps:
        result = cards.game_lengths(games, ranks, suits, down, cap, seed, backend, steps)
    if plot is not None:
        cards.plot_lengths(result, plot)
    if json:
        print_json(result.as_dict())
        return
    s = result.summary()
    console.print(f"{result.games:,} games of War, {ranks * suits} cards, {down} down per war, "
                  f"seed {seed}: {result.seconds:.2f} s on {result.backend}")
    console.print(f"A wins {result.a_wins:,}; B wins {result.b_wins:,}; ties {result.ties:,}; "
                  f"capped at {cap:,} plays: {result.capped:,}")
    if s["mean"] is None:
        console.print("no game finished within the cap")
        return
    stdev = f" ± {s['stdev']:.0f}" if s["stdev"] is not None else ""
    console.print(f"N: {result.finished:,} finished; Mean: {s['mean']:.0f}{stdev}")
    console.print(f"Min: {s['min']}; Median: {s['median']:g}; Max: {s['max']}; Mode: {s['mode']}")
    bins = result.bins()
    most = max(g for _, _, g in bins)
    for lo, hi, g in bins:
        console.print(f"{lo:>7}-{hi:<7} {g:>10,} {'#' * round(40 * g / most)}")
    if plot is not None:
        console.print(f"histogram written to {plot}")
