"""CUDA kernel (numba.cuda) with the same contract as ``kernels.patterns_cpu``.

Grid-stride loops throughout, so any launch geometry gives the same result; the geometry
itself comes from ``kernels.config``.
"""

from .gpu import cuda, int32
from .replies import SCRATCH
from .replies import reply_code as _reply_code

reply_code = cuda.jit(device=True, inline=True)(_reply_code)


@cuda.jit(cache=True)
def fill_pattern_matrix(kind, guesses, answers, colours, out):
    """Fill ``out[g, a]`` with the reply code of every guess row against every answer row."""
    length = guesses.shape[1]
    counts = cuda.local.array(SCRATCH, dtype=int32)
    for c in range(SCRATCH):
        counts[c] = 0
    g0, a0 = cuda.grid(2)
    gs, as_ = cuda.gridsize(2)
    for g in range(g0, guesses.shape[0], gs):
        for a in range(a0, answers.shape[0], as_):
            out[g, a] = reply_code(kind, guesses, g, answers, a, length, colours, counts)
