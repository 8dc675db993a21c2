"""Time the variants: preset reports and searches, Absurdle, the worst-case search, priors.

Usage: python scripts/bench_variants.py [--quick] [--backend cpu|cuda]
(--quick skips the 2- and 3-word searches; --backend cuda runs the preset search's first pass
and Absurdle's scoring on the GPU; Absurdle for every pairing: scripts/bench_absurdle.py)
Each step runs once untimed first only where it is short (kernels compile or load from cache).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from gpusolve.core.patterns import pattern_matrix
from gpusolve.search.absurdle import absurdle
from gpusolve.search.presets import preset_report, search_presets
from gpusolve.search.prior import answer_weights, rank_weighted
from gpusolve.search.worstcase import worst_case


def timed(label, fn):
    t0 = time.perf_counter()
    out = fn()
    print(f"{label}: {time.perf_counter() - t0:.2f} s", flush=True)
    return out


def main() -> None:
    quick = "--quick" in sys.argv
    backend = sys.argv[sys.argv.index("--backend") + 1] if "--backend" in sys.argv else "cpu"
    full = pattern_matrix(None, None, "answers", backend)
    square = pattern_matrix(None, "answers", "answers", backend)
    print(f"backend {full.backend.name}")
    handy = ["HANDY", "SWIFT", "GLOVE", "CRUMP"]
    preset_report(full, handy)
    r = timed("preset report HANDY SWIFT GLOVE CRUMP", lambda: preset_report(full, handy))
    print(f"  wins {r.win_rate:.2%}, mean {r.mean:.4f}")
    r = timed("preset report RETCH SNAIL", lambda: preset_report(full, ["RETCH", "SNAIL"]))
    print(f"  mean {r.mean:.4f}, max {r.worst}")
    for n in (4,) if quick else (4, 3, 2):
        s = timed(f"preset search, every disjoint {n}-word set", lambda n=n: search_presets(full, n, top=5))
        print(f"  {s.searched:,} sets, {len(s.winners)} always win, best mean {s.best[0]}, "
              f"{s.evaluated_exactly} exact evaluations")
        if s.winners:
            print(f"  best winner {s.winners[0]}")
    a = timed("absurdle, 12,972 guesses x 2,309 answers (proof + line)", lambda: absurdle(full))
    print(f"  {a.guesses} guesses, line {[(w, full.game.format_reply(c)) for w, c in a.line]}")
    a = timed("absurdle, 2,309 x 2,309", lambda: absurdle(square))
    print(f"  {a.guesses} guesses")
    cols = np.arange(0, 2309, 10, dtype=np.int32)
    w = timed("worst case, 2,309 guesses x every 10th answer (231)", lambda: worst_case(square, cols))
    print(f"  {w.depth} guesses (refuted {w.refuted}), {w.nodes:,} nodes")
    weights = answer_weights(full, "frequency")
    rank_weighted(full, "entropy", weights)
    timed("weighted entropy ranking, 12,972 x 2,309", lambda: rank_weighted(full, "entropy", weights))


if __name__ == "__main__":
    main()
