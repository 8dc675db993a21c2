"""Time Absurdle: the proven fewest guesses for every bundled pairing, and the scoring kernel.

Usage: python scripts/bench_absurdle.py [--backend cpu|cuda] [--pairs allowed:answers,sgb:sgb]
       [--kernel-only]
The scoring figure is one call scoring every guess over 256 kept sets after the best first
guess (the work the GPU takes over: a launch per batch); each step runs once untimed first
(kernels compile or load from numba's cache).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from gpusolve.kernels import absurdle_cpu

from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix
from gpusolve.search.absurdle import _Search, absurdle

PAIRS = "allowed:answers,answers:answers,allowed:answers-2315,answers-2315:answers-2315,sgb:sgb"


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def kernel_figure(backend: str) -> None:
    """Time one scoring call over 256 second-level sets (sgb), on the backend asked for."""
    pm = pattern_matrix(make_game("wordle"), "sgb", "sgb", backend)
    s = _Search(pm, 10**12)
    members = np.arange(pm.shape[1], dtype=np.int32)
    kept, reply, _ = (a[0] for a in s.scores(members, np.array([0, len(members)], np.int64)))
    picks = np.argsort(kept, kind="stable")[:256].astype(np.int64)
    flat, starts, _ = absurdle_cpu.kept_sets(s.codes, s.guesses, members, picks, reply.astype(np.int64),
                                             s.zobrist)
    s.scores(flat[:starts[2]], starts[:3])
    _, seconds = timed(lambda: s.scores(flat, starts))
    pairs = len(s.guesses) * len(flat)
    print(f"scoring {len(s.guesses):,} guesses over 256 sets ({len(flat):,} answers) on {pm.backend.name}: "
          f"{seconds:.3f} s, {pairs / seconds / 1e9:.2f} G guess-answer pairs/s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="cpu")
    parser.add_argument("--pairs", default=PAIRS, help="guesses:answers list names, comma separated")
    parser.add_argument("--kernel-only", action="store_true")
    args = parser.parse_args()
    kernel_figure(args.backend)
    if args.kernel_only:
        return
    for pair in args.pairs.split(","):
        guesses, answers = pair.split(":")
        pm = pattern_matrix(make_game("wordle"), guesses, answers, args.backend)
        r, seconds = timed(lambda pm=pm: absurdle(pm))
        line = ", ".join(f"{w} {pm.game.format_reply(c)}" for w, c in r.line)
        print(f"{guesses} x {answers} ({pm.shape[0]:,} x {pm.shape[1]:,}): {r.guesses} guesses "
              f"(refuted {r.refuted}), {seconds:.1f} s, {r.nodes:,} sets; {line}", flush=True)


if __name__ == "__main__":
    main()
