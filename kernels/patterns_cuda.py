"""CUDA kernels (numba.cuda) with the same contracts as ``kernels.patterns_cpu``.

Grid-stride loops throughout, so any launch geometry gives the same result; the geometry
itself comes from ``kernels.config``.
"""

from numba import cuda
from numba import int32 as numba_int32
from numba import int64 as numba_int64

from .replies import SCRATCH
from .replies import reply_code as _reply_code
from .stats import BRANCHES, MAX, N_STATS, SINGLETONS, SUM_INVERSE, SUM_NLOGN, SUM_SQUARES

reply_code = cuda.jit(device=True, inline=True)(_reply_code)

MAX_PATTERNS = 2187
"""Largest number of distinct replies a shared-memory histogram holds (Wordle with 7 letters)."""


@cuda.jit
def fill_pattern_matrix(kind, guesses, answers, colours, out):
    """Fill ``out[g, a]`` with the reply code of every guess row against every answer row."""
    length = guesses.shape[1]
    counts = cuda.local.array(SCRATCH, dtype=numba_int32)
    for c in range(SCRATCH):
        counts[c] = 0
    g0, a0 = cuda.grid(2)
    gs, as_ = cuda.gridsize(2)
    for g in range(g0, guesses.shape[0], gs):
        for a in range(a0, answers.shape[0], as_):
            out[g, a] = reply_code(kind, guesses, g, answers, a, length, colours, counts)


@cuda.jit
def partition_stats(matrix, guess_rows, answers, n_patterns, nlogn, inverse, out):
    """Fill ``out[i]`` with the partition statistics of guess ``guess_rows[i]`` over ``answers``.

    One block per guess (grid-stride over guesses): the block's threads build the reply
    histogram in shared memory with atomic adds, then reduce it with atomic adds.
    """
    hist = cuda.shared.array(MAX_PATTERNS, dtype=numba_int64)
    acc = cuda.shared.array(N_STATS, dtype=numba_int64)
    tid = cuda.threadIdx.x
    step = cuda.blockDim.x
    for i in range(cuda.blockIdx.x, guess_rows.shape[0], cuda.gridDim.x):
        row = guess_rows[i]
        for p in range(tid, n_patterns, step):
            hist[p] = 0
        if tid < N_STATS:
            acc[tid] = 0
        cuda.syncthreads()
        for j in range(tid, answers.shape[0], step):
            cuda.atomic.add(hist, matrix[row, answers[j]], 1)
        cuda.syncthreads()
        for p in range(tid, n_patterns, step):
            n = hist[p]
            if n:
                cuda.atomic.max(acc, MAX, n)
                cuda.atomic.add(acc, SUM_SQUARES, n * n)
                cuda.atomic.add(acc, SUM_NLOGN, nlogn[n])
                cuda.atomic.add(acc, BRANCHES, 1)
                if n == 1:
                    cuda.atomic.add(acc, SINGLETONS, 1)
                cuda.atomic.add(acc, SUM_INVERSE, inverse[n])
        cuda.syncthreads()
        if tid < N_STATS:
            out[i, tid] = acc[tid]
        cuda.syncthreads()
