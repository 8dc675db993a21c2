"""CUDA kernel of the Absurdle search: the bucket the replier keeps for every guess, in one launch.

Same contract as ``absurdle_cpu.kept_scores``: for set s = ``flat[starts[s]:starts[s + 1]]``
and guess ``guesses[i]``, ``kept[s, i]`` is the size of the bucket the replier keeps (the
largest other than the solved reply; ties: the lowest reply), ``reply[s, i]`` its reply
(the solved reply, with size 0, when the set is the guess alone) and ``branches[s, i]`` the
number of distinct replies. One block per (set, guess) pair, grid-stride over the pairs: the
block's threads count replies in a shared-memory histogram with atomic adds, then reduce it
with an atomic max of size * 2**16 + (2**16 - 1 - reply), which prefers the lowest reply.
"""

from numba import cuda
from numba import int64 as numba_int64

MAX_PATTERNS = 2187
"""Largest number of distinct replies a shared-memory histogram holds (Wordle with 7 letters)."""

_LOW = 65535


@cuda.jit
def kept_scores(codes, guesses, flat, starts, n_patterns, solved, kept, reply, branches):
    """Fill ``kept``, ``reply`` and ``branches`` [set, guess] (see the module docstring)."""
    hist = cuda.shared.array(MAX_PATTERNS, dtype=numba_int64)
    acc = cuda.shared.array(2, dtype=numba_int64)
    tid = cuda.threadIdx.x
    step = cuda.blockDim.x
    ng = guesses.shape[0]
    pairs = (starts.shape[0] - 1) * ng
    for job in range(cuda.blockIdx.x, pairs, cuda.gridDim.x):
        s = job // ng
        row = guesses[job - s * ng]
        for p in range(tid, n_patterns, step):
            hist[p] = 0
        if tid < 2:
            acc[tid] = 0
        cuda.syncthreads()
        for q in range(starts[s] + tid, starts[s + 1], step):
            cuda.atomic.add(hist, codes[row, flat[q]], 1)
        cuda.syncthreads()
        for p in range(tid, n_patterns, step):
            m = hist[p]
            if m:
                cuda.atomic.add(acc, 0, 1)
                if p != solved:
                    cuda.atomic.max(acc, 1, m * (_LOW + 1) + (_LOW - p))
        cuda.syncthreads()
        if tid == 0:
            best = acc[1]
            branches[s, job - s * ng] = acc[0]
            if best == 0:
                kept[s, job - s * ng] = 0
                reply[s, job - s * ng] = solved
            else:
                kept[s, job - s * ng] = best // (_LOW + 1)
                reply[s, job - s * ng] = _LOW - best % (_LOW + 1)
        cuda.syncthreads()
