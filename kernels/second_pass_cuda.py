"""CUDA twin of ``kernels.second_pass_cpu.second_pass``: the second-pass bound of many buckets.

One block per bucket (grid-stride over the units), its threads over the guesses. A thread
counts its guess's distinct replies on the bucket from the answer-major matrix (``tmat[a, g]``:
neighbouring threads read neighbouring bytes) in a 256-bit mask of four registers, which gives
``q(g)``; only where ``q(g)`` is below the block's least ``t`` so far (a shared cell, started
at the unit's cap) does it work out ``t(g)``: the sizes of the sub-buckets from three masks
(replies seen once, twice, three times or more), and for each sub-bucket of three or more
whether one of its members splits it. ``atomic.min`` keeps the least. A stale read of the
shared cell only costs work: every guess with ``t(g)`` below the result is worked out, so the
result is ``min(cap, min over g of t(g))``, the CPU twin's, whatever the order of the threads.
"""

from numba import cuda
from numba import int64 as numba_int64
from numba import uint64 as numba_uint64

from . import levels
from .levels import INF

level_bound = cuda.jit(device=True, inline=True)(levels.level_bound)

WORDS = 4
"""64-bit words of a reply mask (256 replies: the exact searches' uint8 codes)."""


@cuda.jit(device=True, inline=True)
def _bit(c):
    """Return the mask bit of reply ``c`` within its word."""
    return numba_uint64(1) << numba_uint64(c & 63)


@cuda.jit(device=True, inline=True)
def _replies(tmat, perm, lo, hi, g, solved):
    """Return (distinct replies of guess column ``g`` on the answers ``perm[lo:hi]``, 1 if one
    of them is the solved reply)."""
    m0 = numba_uint64(0)
    m1 = numba_uint64(0)
    m2 = numba_uint64(0)
    m3 = numba_uint64(0)
    for i in range(lo, hi):
        c = tmat[perm[i], g]
        bit = _bit(c)
        w = c >> 6
        if w == 0:
            m0 |= bit
        elif w == 1:
            m1 |= bit
        elif w == 2:
            m2 |= bit
        else:
            m3 |= bit
    nb = cuda.popc(m0) + cuda.popc(m1) + cuda.popc(m2) + cuda.popc(m3)
    sw = solved >> 6
    sm = m0 if sw == 0 else (m1 if sw == 1 else (m2 if sw == 2 else m3))
    return nb, numba_int64((sm >> numba_uint64(solved & 63)) & numba_uint64(1))


@cuda.jit(device=True)
def _sub_bound(codes, tmat, answer_rows, perm, lo, hi, g, c, size, left, branches):
    """Return ``f`` of the sub-bucket of reply ``c`` (``size >= 3`` answers) under guess column
    ``g`` with ``left`` guesses to go: whether one of its members splits it decides ``2|b| - 1``
    or ``2|b|``."""
    if left <= 1:
        return INF
    seen = cuda.local.array(WORDS, numba_uint64)
    for i in range(lo, hi):
        if tmat[perm[i], g] != c:
            continue
        row = codes[answer_rows[perm[i]]]
        for w in range(WORDS):
            seen[w] = 0
        for j in range(lo, hi):
            if tmat[perm[j], g] == c:
                r = row[perm[j]]
                seen[r >> 6] |= _bit(r)
        k = 0
        for w in range(WORDS):
            k += cuda.popc(seen[w])
        if k == size:
            return max(2 * size - 1, level_bound(size, left, branches, 1))
    return max(2 * size, level_bound(size, left, branches, 1))


@cuda.jit(device=True)
def _cost_bound(codes, tmat, answer_rows, perm, lo, hi, g, solved, left, branches, limit):
    """Return ``t(g)`` of guess column ``g`` on the bucket ``perm[lo:hi]``, or a value ``>= limit``
    once the sum reaches it."""
    once = cuda.local.array(WORDS, numba_uint64)
    twice = cuda.local.array(WORDS, numba_uint64)
    many = cuda.local.array(WORDS, numba_uint64)
    for w in range(WORDS):
        once[w] = 0
        twice[w] = 0
        many[w] = 0
    for i in range(lo, hi):
        c = tmat[perm[i], g]
        w = c >> 6
        bit = _bit(c)
        many[w] |= twice[w] & bit
        twice[w] |= once[w] & bit
        once[w] |= bit
    m = hi - lo
    nb = 0
    singles = 0
    pairs = 0
    for w in range(WORDS):
        nb += cuda.popc(once[w])
        singles += cuda.popc(once[w] & ~twice[w])
        pairs += cuda.popc(twice[w] & ~many[w])
    s = numba_int64((once[solved >> 6] >> numba_uint64(solved & 63)) & numba_uint64(1))
    total = m + singles - s + pairs * (3 if left - 1 >= 2 else INF)
    for w in range(WORDS):
        x = many[w]
        while x != 0 and total < limit:
            low = x & ~(x - numba_uint64(1))
            x ^= low
            c = w * 64 + cuda.popc(low - numba_uint64(1))
            size = 0
            for i in range(lo, hi):
                size += tmat[perm[i], g] == c
            total += _sub_bound(codes, tmat, answer_rows, perm, lo, hi, g, c, size, left - 1, branches)
    if total >= limit:
        return min(total, INF)
    return max(total, m + level_bound(m - s, left - 1, branches, nb - s))


@cuda.jit
def second_pass(codes, tmat, answer_rows, perm, units, guesses, solved, left, branches, members_only, out):
    """Fill ``out[u]`` with the second-pass bound of bucket ``perm[units[u, 0]:units[u, 1]]``
    capped at ``units[u, 2]`` (``kernels.second_pass_cpu.second_pass``); ``tmat`` is the
    answer-major matrix (``tmat[a, g] == codes[g, a]``)."""
    best = cuda.shared.array(1, dtype=numba_int64)
    tid = cuda.threadIdx.x
    step = cuda.blockDim.x
    for u in range(cuda.blockIdx.x, units.shape[0], cuda.gridDim.x):
        lo = units[u, 0]
        hi = units[u, 1]
        m = hi - lo
        if tid == 0:
            best[0] = units[u, 2]
        cuda.syncthreads()
        count = m if members_only else guesses.shape[0]
        for t in range(tid, count, step):
            g = answer_rows[perm[lo + t]] if members_only else guesses[t]
            nb, s = _replies(tmat, perm, lo, hi, g, solved)
            q = m + max(2 * (m - s) - (nb - s), level_bound(m - s, left - 1, branches, nb - s))
            if q < best[0]:
                cost = _cost_bound(codes, tmat, answer_rows, perm, lo, hi, g, solved, left, branches, best[0])
                cuda.atomic.min(best, 0, cost)
        cuda.syncthreads()
        if tid == 0:
            out[u] = best[0]
        cuda.syncthreads()
