"""Benchmark: simulated games of War per second (default: 1,000,000 52-card games on the CPU).

Usage: python scripts/bench_war.py [--games N] [--backend cpu|cuda] [--ranks 13 --suits 4]
Also times the exact enumerations (sweep, and short games with wars, float and exact).
"""

from __future__ import annotations

import argparse
import time

import numba

from gpusolve.war import abstract_deck, game_lengths, short_games, sweep_probability


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--backend", default="cpu")
    parser.add_argument("--ranks", type=int, default=13)
    parser.add_argument("--suits", type=int, default=4)
    args = parser.parse_args()

    start = time.perf_counter()
    game_lengths(1000, args.ranks, args.suits, backend=args.backend)  # compile, or load the cache
    print(f"warm-up (compile or load cached kernel) + 1,000 games: {time.perf_counter() - start:.2f} s")
    result = game_lengths(args.games, args.ranks, args.suits, backend=args.backend)
    s = result.summary()
    print(f"{args.games:,} games of {args.ranks * args.suits} cards on {result.backend} "
          f"({numba.get_num_threads()} numba threads): {result.seconds:.2f} s, "
          f"{args.games / result.seconds:,.0f} games/s")
    print(f"  mean {s['mean']:.1f} ± {s['stdev']:.1f} plays, median {s['median']:g}, min {s['min']}, "
          f"max {s['max']}, mode {s['mode']}, ties {result.ties}, capped {result.capped}")
    plays = s["mean"] * result.finished
    print(f"  {plays / result.seconds:,.0f} plays/s")

    deck = abstract_deck(args.ranks, args.suits)
    for name, run in [("sweep (float)", lambda: sweep_probability(deck)),
                      ("sweep (exact)", lambda: sweep_probability(deck, exact=True)),
                      ("short games with wars (float)", lambda: short_games(deck)),
                      ("short games with wars (exact)", lambda: short_games(deck, exact=True))]:
        start = time.perf_counter()
        run()
        print(f"{name}: {time.perf_counter() - start:.3f} s")


if __name__ == "__main__":
    main()
