"""CUDA twin of ``kernels.second_pass_cpu.second_pass``: the second-pass bound of many buckets.

One block per bucket (grid-stride over the units), its threads over the guesses. A thread
counts its guess's distinct replies on the bucket from the answer-major matrix (``tmat[a, g]``:
neighbouring threads read neighbouring bytes) in a 256-bit mask of four registers, which gives
``q(g)``. Then, level by level from the least ``q`` up, the guesses whose ``q`` is the level
work out ``t(g)`` while the level is below the block's least ``t`` so far (a shared cell,
started at the unit's cap): the sizes of the sub-buckets from three masks (replies seen once,
twice, three times or more), and for each sub-bucket of three or more whether one of its
members splits it. ``atomic.min`` keeps the least. Every guess with ``t(g)`` below the result
has ``q(g)`` below it too and is worked out, so the result is ``min(cap, min over g of t(g))``,
the CPU twin's, whatever the order of the threads.
"""

from . import levels
from .config import INF
from .gpu import cuda, int64, uint16, uint64

level_bound = cuda.jit(device=True, inline=True)(levels.level_bound)

WORDS = 4
"""64-bit words of a reply mask (256 replies: the exact searches' uint8 codes)."""

SHARED_GUESSES = 16384
"""Guesses whose ``q`` a block keeps in shared memory (uint16: 32 KiB); with more guesses each
level works ``q`` out again."""

FLOOR_MAX = 65535
"""The largest ``q`` kept (uint16): units capped below it keep every ``q`` they compare exactly."""


@cuda.jit(device=True, inline=True)
def _bit(c):
    """Return the mask bit of reply ``c`` within its word."""
    return uint64(1) << uint64(c & 63)


@cuda.jit(device=True, inline=True)
def _replies(tmat, perm, lo, hi, g, solved):
    """Return (distinct replies of guess column ``g`` on the answers ``perm[lo:hi]``, 1 if one
    of them is the solved reply)."""
    m0 = uint64(0)
    m1 = uint64(0)
    m2 = uint64(0)
    m3 = uint64(0)
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
    return nb, int64((sm >> uint64(solved & 63)) & uint64(1))


@cuda.jit(device=True)
def _sub_bound(codes, tmat, answer_rows, perm, lo, hi, g, c, size, left, branches):
    """Return ``f`` of the sub-bucket of reply ``c`` (``size >= 3`` answers) under guess column
    ``g`` with ``left`` guesses to go: whether one of its members splits it decides ``2|b| - 1``
    or ``2|b|``."""
    if left <= 1:
        return INF
    seen = cuda.local.array(WORDS, uint64)
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
    once = cuda.local.array(WORDS, uint64)
    twice = cuda.local.array(WORDS, uint64)
    many = cuda.local.array(WORDS, uint64)
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
    s = int64((once[solved >> 6] >> uint64(solved & 63)) & uint64(1))
    total = m + singles - s + pairs * (3 if left - 1 >= 2 else INF)
    for w in range(WORDS):
        x = many[w]
        while x != 0 and total < limit:
            low = x & ~(x - uint64(1))
            x ^= low
            c = w * 64 + cuda.popc(low - uint64(1))
            size = 0
            for i in range(lo, hi):
                size += tmat[perm[i], g] == c
            total += _sub_bound(codes, tmat, answer_rows, perm, lo, hi, g, c, size, left - 1, branches)
    if total >= limit:
        return min(total, INF)
    return max(total, m + level_bound(m - s, left - 1, branches, nb - s))


@cuda.jit(device=True, inline=True)
def _floor(tmat, perm, lo, hi, g, solved, left, branches):
    """Return ``q(g)`` of guess column ``g`` on the bucket ``perm[lo:hi]``."""
    m = hi - lo
    nb, s = _replies(tmat, perm, lo, hi, g, solved)
    return m + max(2 * (m - s) - (nb - s), level_bound(m - s, left - 1, branches, nb - s))


@cuda.jit(cache=True)
def second_pass(codes, tmat, answer_rows, perm, units, guesses, solved, left, branches, members_only, out):
    """Fill ``out[u]`` with the second-pass bound of bucket ``perm[units[u, 0]:units[u, 1]]``
    capped at ``units[u, 2]`` (``kernels.second_pass_cpu.second_pass``); ``tmat`` is the
    answer-major matrix (``tmat[a, g] == codes[g, a]``).

    A block first finds every guess's ``q`` (kept in shared memory where they fit) and the
    least; then it works out ``t`` level by level, for the guesses whose ``q`` is the level,
    until the level reaches the least ``t`` found: like the CPU twin's increasing order, so
    that few guesses are worked out beyond those the result needs."""
    floors = cuda.shared.array(SHARED_GUESSES, dtype=uint16)
    cell = cuda.shared.array(3, dtype=int64)  # least t (the bound), least q, go on?
    tid = cuda.threadIdx.x
    step = cuda.blockDim.x
    for u in range(cuda.blockIdx.x, units.shape[0], cuda.gridDim.x):
        lo = units[u, 0]
        hi = units[u, 1]
        count = hi - lo if members_only else guesses.shape[0]
        kept = count <= SHARED_GUESSES and units[u, 2] < FLOOR_MAX
        if tid == 0:
            cell[0] = units[u, 2]
            cell[1] = INF
        cuda.syncthreads()
        for t in range(tid, count, step):
            g = answer_rows[perm[lo + t]] if members_only else guesses[t]
            q = _floor(tmat, perm, lo, hi, g, solved, left, branches)
            if kept:
                floors[t] = min(q, FLOOR_MAX)
            cuda.atomic.min(cell, 1, q)
        cuda.syncthreads()
        level = cell[1]
        while True:
            cuda.syncthreads()
            if tid == 0:
                cell[2] = 1 if level < cell[0] else 0
            cuda.syncthreads()
            if cell[2] == 0:
                break
            for t in range(tid, count, step):
                g = answer_rows[perm[lo + t]] if members_only else guesses[t]
                q = floors[t] if kept else _floor(tmat, perm, lo, hi, g, solved, left, branches)
                if q == level and level < cell[0]:
                    cost = _cost_bound(codes, tmat, answer_rows, perm, lo, hi, g, solved, left, branches,
                                       cell[0])
                    cuda.atomic.min(cell, 0, cost)
            level += 1
        if tid == 0:
            out[u] = cell[0]
        cuda.syncthreads()
