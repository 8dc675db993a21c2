"""CUDA kernel of the preset search: the first pass over many guess sets, one thread per set.

Same contract as ``presets_cpu.set_bounds`` (and the same numbers, to the last bit): per set
a lower bound on its total score, whether it always wins within ``more`` consistent guesses,
and its largest bin. The rule is ``preset_bounds.set_bounds_of``, shared with the CPU twin
``presets_cpu.set_bounds_flat``; grid-stride over the sets, each thread with its own rows of
the scratch arrays ``keys``, ``buf`` and ``seen`` (one row per thread of the grid).
"""

from . import preset_bounds
from .gpu import cuda, int64
from .preset_bounds import MAX_LEVELS

set_bounds_of = cuda.jit(device=True)(preset_bounds.set_bounds_of)


@cuda.jit(cache=True)
def set_bounds(codes, square, sets, answer_rows, n_patterns, more, keys, buf, seen, bounds, wins, biggest):
    """Fill ``bounds[s]``, ``wins[s]`` (1 or 0) and ``biggest[s]`` for every preset set ``sets[s]``."""
    frames = cuda.local.array((MAX_LEVELS, 6), dtype=int64)  # module-level names only
    t = cuda.grid(1)
    if t >= keys.shape[0]:
        return
    for s in range(t, sets.shape[0], cuda.gridsize(1)):
        b, w, m = set_bounds_of(codes, square, sets, s, answer_rows, n_patterns, more, keys[t], buf[t],
                                seen[t], frames)
        bounds[s] = b
        wins[s] = 1 if w else 0
        biggest[s] = m
