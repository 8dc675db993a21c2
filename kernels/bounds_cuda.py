"""CUDA twin of ``kernels.bounds_cpu.start_bounds``: the bucket bound of every bucket under
many start words, every (start word, bucket, guess) at once.

One block per start word (grid-stride over the start words): the block sorts the answers by
their reply to the start word (a shared-memory counting sort into its own row of ``perm``),
then its threads take the guesses (grid-stride) and, for every bucket of 3 or more answers,
count the guess's distinct replies in a 256-bit mask of four registers, keeping each bucket's
best score and whether a guess splits it with shared-memory atomics. No cutoff and no settling:
the exact bucket bounds (partition and level), equal to the CPU kernel's run to its end.
"""

from numba import cuda
from numba import int64 as numba_int64
from numba import uint64 as numba_uint64

from . import levels
from .config import EXACT_MAX_PATTERNS as MAX_PATTERNS
from .config import INF

level_bound = cuda.jit(device=True, inline=True)(levels.level_bound)


@cuda.jit(device=True, inline=True)
def _distinct(row, perm, base, lo, hi, solved):
    """Return (distinct replies of ``row`` over ``perm[base + lo:base + hi]``, solved seen?)."""
    m0 = numba_uint64(0)
    m1 = numba_uint64(0)
    m2 = numba_uint64(0)
    m3 = numba_uint64(0)
    for i in range(lo, hi):
        c = row[perm[base + i]]
        bit = numba_uint64(1) << numba_uint64(c & 63)
        w = c >> 6
        if w == 0:
            m0 |= bit
        elif w == 1:
            m1 |= bit
        elif w == 2:
            m2 |= bit
        else:
            m3 |= bit
    k = cuda.popc(m0) + cuda.popc(m1) + cuda.popc(m2) + cuda.popc(m3)
    sw = solved >> 6
    sm = m0 if sw == 0 else (m1 if sw == 1 else (m2 if sw == 2 else m3))
    return k, (sm >> numba_uint64(solved & 63)) & numba_uint64(1)


@cuda.jit
def start_bounds(codes, answers, starts, guesses, solved, n_patterns, left, members_only, answer_rows,
                 perm, out, totals):
    """Fill ``out[j]`` (bucket bounds) and ``totals[j]`` (first-pass bound) of start row
    ``starts[j]``; ``perm`` is scratch of one row of ``len(answers)`` per block."""
    first = cuda.shared.array(MAX_PATTERNS + 1, dtype=numba_int64)
    fill = cuda.shared.array(MAX_PATTERNS, dtype=numba_int64)
    best = cuda.shared.array(MAX_PATTERNS, dtype=numba_int64)
    split = cuda.shared.array(MAX_PATTERNS, dtype=numba_int64)
    acc = cuda.shared.array(1, dtype=numba_int64)
    tid = cuda.threadIdx.x
    step = cuda.blockDim.x
    n = answers.shape[0]
    base = cuda.blockIdx.x * n
    for j in range(cuda.blockIdx.x, starts.shape[0], cuda.gridDim.x):
        row0 = codes[starts[j]]
        for p in range(tid, MAX_PATTERNS, step):
            fill[p] = 0
            best[p] = 0
            split[p] = 0
        if tid == 0:
            acc[0] = n
        cuda.syncthreads()
        for i in range(tid, n, step):
            cuda.atomic.add(fill, row0[answers[i]], 1)
        cuda.syncthreads()
        if tid == 0:
            first[0] = 0
            for p in range(n_patterns):
                first[p + 1] = first[p] + fill[p]
                fill[p] = first[p]
        cuda.syncthreads()
        for i in range(tid, n, step):
            at = cuda.atomic.add(fill, row0[answers[i]], 1)
            perm[base + at] = answers[i]
        cuda.syncthreads()
        # each bucket's own answers (they alone can score m + 1), then every other guess
        for i in range(tid, n, step):
            p = row0[perm[base + i]]
            lo = first[p]
            hi = first[p + 1]
            if hi - lo >= 3 and p != solved:
                k, seen = _distinct(codes[answer_rows[perm[base + i]]], perm, base, lo, hi, solved)
                cuda.atomic.max(best, p, k + seen)
                if k == hi - lo:
                    split[p] = 1
        for g in range(tid, 0 if members_only else guesses.shape[0], step):
            row = codes[guesses[g]]
            for p in range(n_patterns):
                lo = first[p]
                hi = first[p + 1]
                if hi - lo >= 3 and p != solved:
                    k, seen = _distinct(row, perm, base, lo, hi, solved)
                    cuda.atomic.max(best, p, k + seen)
                    if k == hi - lo:
                        split[p] = 1
        cuda.syncthreads()
        for p in range(tid, n_patterns, step):
            m = first[p + 1] - first[p]
            v = 0
            if m > 0 and p != solved:
                if m == 1:
                    v = 1
                elif left <= 1:
                    v = INF
                elif m == 2:
                    v = 3
                elif left == 2 and split[p] == 0:
                    v = INF
                else:
                    v = max(3 * m - best[p], level_bound(m, left, best[p], 1))
            out[j, p] = v
            cuda.atomic.add(acc, 0, v)
        cuda.syncthreads()
        if tid == 0:
            totals[j] = min(acc[0], INF)
        cuda.syncthreads()
