"""CUDA twin of ``kernels.bounds_cpu.start_bounds``: the bucket bound of every bucket under
many start words, every (start word, bucket, guess) at once.

One block per start word (grid-stride over the start words): the block sorts the answers by
their reply to the start word (a shared-memory counting sort into its own row of ``perm``, and
into shared memory where they fit) and lists its buckets of 3 or more answers; then its
threads take the guesses (grid-stride) and, for every such bucket, count the guess's distinct
replies in a 256-bit mask of four registers, keeping each bucket's best score and whether a
guess splits it with shared-memory atomics. The guesses' replies come from the answer-major
matrix (``tmat[a, g]``): the threads of a warp, on neighbouring guesses, read neighbouring
bytes. No cutoff and no settling: the exact bucket bounds (partition and level), equal to the
CPU kernel's run to its end.
"""
from . import levels
from .config import EXACT_MAX_PATTERNS as MAX_PATTERNS
from .config import INF
from .gpu import cuda, int32, int64, uint64

FIRSTS = MAX_PATTERNS + 1
"""Entries of a block's bucket-start table (one past every reply). Array shapes must be module-level
integers: a real GPU's compiler folds no expression or other module's attribute (issue 27)."""

SHARED_ANSWERS = 4096
"""Answers a block keeps, sorted by reply, in shared memory (int32: 16 KiB); with more answers
its threads read them from its row of ``perm``."""

level_bound = cuda.jit(device=True, inline=True)(levels.level_bound)


@cuda.jit(device=True, inline=True)
def _distinct(tmat, col, perm, base, lo, hi, solved):
    """Return (distinct replies of guess column ``col`` of the answer-major ``tmat`` over the
    answers ``perm[base + lo:base + hi]``, solved seen?)."""
    m0 = uint64(0)
    m1 = uint64(0)
    m2 = uint64(0)
    m3 = uint64(0)
    for i in range(lo, hi):
        c = tmat[perm[base + i], col]
        bit = uint64(1) << uint64(c & 63)
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
    return k, (sm >> uint64(solved & 63)) & uint64(1)


@cuda.jit(cache=True)
def start_bounds(codes, tmat, answers, starts, guesses, solved, n_patterns, left, members_only, answer_rows,
                 perm, out, totals):
    """Fill ``out[j]`` (bucket bounds) and ``totals[j]`` (first-pass bound) of start row
    ``starts[j]``; ``tmat`` is the answer-major matrix (``tmat[a, g] == codes[g, a]``), ``perm``
    scratch of one row of ``len(answers)`` per block."""
    staged = cuda.shared.array(SHARED_ANSWERS, dtype=int32)
    first = cuda.shared.array(FIRSTS, dtype=int64)
    fill = cuda.shared.array(MAX_PATTERNS, dtype=int64)
    best = cuda.shared.array(MAX_PATTERNS, dtype=int64)
    split = cuda.shared.array(MAX_PATTERNS, dtype=int64)
    active = cuda.shared.array(MAX_PATTERNS, dtype=int32)  # the buckets of 3 or more, their count last
    acc = cuda.shared.array(2, dtype=int64)
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
            na = 0
            for p in range(n_patterns):
                first[p + 1] = first[p] + fill[p]
                if fill[p] >= 3 and p != solved:
                    active[na] = p
                    na += 1
                fill[p] = first[p]
            acc[1] = na
        cuda.syncthreads()
        for i in range(tid, n, step):
            at = cuda.atomic.add(fill, row0[answers[i]], 1)
            perm[base + at] = answers[i]
            if n <= SHARED_ANSWERS:
                staged[at] = answers[i]
        cuda.syncthreads()
        # each bucket's own answers (they alone can score m + 1), then every other guess
        for i in range(tid, n, step):
            p = row0[perm[base + i]]
            lo = first[p]
            hi = first[p + 1]
            if hi - lo >= 3 and p != solved:
                own = answer_rows[perm[base + i]]
                if n <= SHARED_ANSWERS:
                    k, seen = _distinct(tmat, own, staged, 0, lo, hi, solved)
                else:
                    k, seen = _distinct(tmat, own, perm, base, lo, hi, solved)
                cuda.atomic.max(best, p, k + seen)
                if k == hi - lo:
                    split[p] = 1
        na = acc[1]
        for g in range(tid, 0 if members_only else guesses.shape[0], step):
            col = guesses[g]
            for t in range(na):
                p = active[t]
                lo = first[p]
                hi = first[p + 1]
                if n <= SHARED_ANSWERS:
                    k, seen = _distinct(tmat, col, staged, 0, lo, hi, solved)
                else:
                    k, seen = _distinct(tmat, col, perm, base, lo, hi, solved)
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
