"""CUDA kernel of the optimal-tree search: reply counts and bounds of every guess at once.

Same contract as ``optimal_cpu.guess_bounds``: ``out[j] = (distinct replies, 1 if the guess
is an answer of the set, sum of squared bucket sizes)`` for guess row ``rows[j]`` over the
answer columns ``answers``. One block per guess (grid-stride over guesses): the block's
threads count replies in a shared-memory histogram with atomic adds, then reduce it.
The search uses it for large sets (the first guesses over every answer); small sets stay on
the CPU, where the compiled recursion runs.
"""

from numba import cuda
from numba import int64 as numba_int64

MAX_PATTERNS = 256
"""Replies a shared-memory histogram holds (the search needs uint8 reply codes)."""


@cuda.jit
def guess_bounds(codes, answers, rows, solved, n_patterns, out):
    """Fill ``out[j] = (B, s, sum of squares)`` for guess row ``rows[j]`` over ``answers``."""
    hist = cuda.shared.array(MAX_PATTERNS, dtype=numba_int64)
    acc = cuda.shared.array(2, dtype=numba_int64)
    tid = cuda.threadIdx.x
    step = cuda.blockDim.x
    for j in range(cuda.blockIdx.x, rows.shape[0], cuda.gridDim.x):
        row = rows[j]
        for p in range(tid, n_patterns, step):
            hist[p] = 0
        if tid < 2:
            acc[tid] = 0
        cuda.syncthreads()
        for i in range(tid, answers.shape[0], step):
            cuda.atomic.add(hist, codes[row, answers[i]], 1)
        cuda.syncthreads()
        for p in range(tid, n_patterns, step):
            m = hist[p]
            if m:
                cuda.atomic.add(acc, 0, 1)
                cuda.atomic.add(acc, 1, m * m)
        cuda.syncthreads()
        if tid == 0:
            out[j, 0] = acc[0]
            out[j, 1] = 1 if hist[solved] > 0 else 0
            out[j, 2] = acc[1]
        cuda.syncthreads()
