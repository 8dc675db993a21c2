"""The reply-histogram kernel (numba.cuda): statistics of every guess over many answer sets.

Same contract as its CPU twin ``histogram_cpu.reply_stats`` (the same numbers):
``out[s, i, c]`` is statistic ``columns[c]`` (``kernels.stats``) of guess row ``rows[i]`` over
set s = ``flat[starts[s]:starts[s + 1]]``. One block per (set, guess) pair, grid-stride over
the pairs: the block's threads count replies in a shared-memory histogram with atomic adds,
then reduce it with atomic adds and maxima; the bucket Absurdle's replier keeps comes from an
atomic max of size * 2**16 + (2**16 - 1 - reply), which prefers the lowest reply. Every search
and the metrics launch it through the backend (``gpusolve.core.backend``).
"""

from .config import MAX_PATTERNS
from .gpu import cuda, int32, int64
from .stats import (
    BRANCHES,
    KEPT,
    KEPT_REPLY,
    MAX,
    N_STATS,
    SINGLETONS,
    SOLVED,
    SUM_INVERSE,
    SUM_NLOGN,
    SUM_SQUARES,
)

_LOW = 65535


@cuda.jit(cache=True)
def reply_stats(codes, rows, flat, starts, n_patterns, solved, nlogn, inverse, columns, out):
    """Fill ``out[s, i, c]`` with statistic ``columns[c]`` of guess ``rows[i]`` over set s."""
    hist = cuda.shared.array(MAX_PATTERNS, dtype=int32)
    acc = cuda.shared.array(N_STATS, dtype=int64)
    tid = cuda.threadIdx.x
    step = cuda.blockDim.x
    nr = rows.shape[0]
    pairs = (starts.shape[0] - 1) * nr
    for job in range(cuda.blockIdx.x, pairs, cuda.gridDim.x):
        s = job // nr
        i = job - s * nr
        row = rows[i]
        for p in range(tid, n_patterns, step):
            hist[p] = 0
        for c in range(tid, N_STATS, step):
            acc[c] = 0
        cuda.syncthreads()
        for q in range(starts[s] + tid, starts[s + 1], step):
            cuda.atomic.add(hist, codes[row, flat[q]], 1)
        cuda.syncthreads()
        for p in range(tid, n_patterns, step):
            h = int64(hist[p])
            if h:
                cuda.atomic.max(acc, MAX, h)
                cuda.atomic.add(acc, SUM_SQUARES, h * h)
                cuda.atomic.add(acc, SUM_NLOGN, nlogn[h])
                cuda.atomic.add(acc, BRANCHES, 1)
                if h == 1:
                    cuda.atomic.add(acc, SINGLETONS, 1)
                cuda.atomic.add(acc, SUM_INVERSE, inverse[h])
                if p == solved:
                    acc[SOLVED] = h
                else:
                    cuda.atomic.max(acc, KEPT, h * (_LOW + 1) + (_LOW - p))
        cuda.syncthreads()
        if tid == 0:
            best = acc[KEPT]
            acc[KEPT] = best // (_LOW + 1)
            acc[KEPT_REPLY] = solved if best == 0 else _LOW - best % (_LOW + 1)
            for c in range(columns.shape[0]):
                out[s, i, c] = acc[columns[c]]
        cuda.syncthreads()
