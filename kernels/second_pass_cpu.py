"""The second-pass bound of a bucket: the first pass carried one guess deeper (numba, CPU).

A bucket ``S`` of ``m >= 3`` answers with ``left >= 2`` guesses to go is answered by some
guess ``g`` first, which splits it into sub-buckets ``b`` (replies other than the solved one),
each then found within ``left - 1`` guesses. So

    V(S, left) = min over g of (m + sum over b of V(b, left - 1))
              >= min over g of t(g),   t(g) = m + max(sum over b of f(b), forest(g))

with the sub-bucket bound ``f(b)``: 1 for a single answer, INF with one guess left for more,
3 for a pair, and for ``|b| >= 3`` the larger of its level bound and ``2|b| - 1``, plus one
when no member of ``b`` splits it into singletons. (A member that splits ``b`` finds one answer
at once and each other one next: ``2|b| - 1``. Without one, a first guess in ``b`` leaves some
pair or larger bucket among the other ``|b| - 1`` answers, and one outside ``b`` finds none at
once: ``2|b|`` or more either way.) ``forest(g)`` is the level bound of the ``m - s`` unsolved
answers in ``B - s`` buckets (``kernels.levels``: ``B`` distinct replies, ``s = 1`` when ``g``
is in ``S``). Each term is a proven lower bound, so ``min over g of t(g)`` is one on V(S, left).

The first pass bounds each bucket by ``q(g) = m + max(2(m - s) - (B - s), forest(g)) <= t(g)``
at its best guess; the second pass adds what the member rule shows about the sub-buckets of
every guess. Computing ``t`` costs a partition of the bucket and ``|b|²`` reads per sub-bucket,
so a guess is only worked out where ``q(g)`` is below the least ``t`` found so far (nor can it
do better) and below the caller's ``cap``: the result is ``min(cap, min over g of t(g))``, a
proven lower bound whatever the cap.

Units are buckets: ``units[u] = (lo, hi, cap)`` with the bucket's answer columns in
``perm[lo:hi]``. ``kernels.second_pass_cuda`` is the GPU twin (one block per unit).
"""

import numpy as np
from numba import njit, prange

from . import levels
from .config import INF

level_bound = njit(cache=True, nogil=True)(levels.level_bound)


@njit(cache=True, nogil=True)
def sub_bucket_bound(codes, answer_rows, members, lo, hi, left, branches, mark):
    """Return ``f`` of the sub-bucket ``members[lo:hi]`` with ``left`` guesses to go (see the
    module docstring; ``mark``: a stamp per reply, the last stamp given in its last slot)."""
    m = hi - lo
    if m == 1:
        return 1
    if left <= 1:
        return INF
    if m == 2:
        return 3
    split = 0
    for i in range(lo, hi):
        row = codes[answer_rows[members[i]]]
        mark[-1] += 1
        stamp = mark[-1]
        k = 0
        for j in range(lo, hi):
            c = row[members[j]]
            k += mark[c] != stamp
            mark[c] = stamp
        if k == m:
            split = 1
            break
    return max(2 * m - split, level_bound(m, left, branches, 1))


@njit(cache=True, nogil=True, inline="always")
def guess_floor(m, nb, s, left, branches):
    """Return ``q(g)``: what the first pass knows of a guess with ``nb`` distinct replies on a
    bucket of ``m`` (``s = 1``: the guess is in it) and ``left`` guesses to go."""
    return m + max(2 * (m - s) - (nb - s), level_bound(m - s, left - 1, branches, nb - s))


@njit(cache=True, nogil=True)
def guess_cost_bound(codes, answer_rows, bucket, g, solved, left, branches, limit, sc):
    """Return ``t(g)`` for guess row ``g`` on ``bucket``, or a value ``>= limit`` once the sum
    reaches it. ``sc`` holds the scratch: ``cnt``, ``start`` (replies + 1), ``perm`` (answers)
    and ``mark`` (replies + 1)."""
    cnt, start, perm, mark = sc
    m = bucket.shape[0]
    row = codes[g]
    npat = cnt.shape[0]
    for p in range(npat):
        cnt[p] = 0
    for i in range(m):
        cnt[row[bucket[i]]] += 1
    start[0] = 0
    nb = 0
    for p in range(npat):
        start[p + 1] = start[p] + cnt[p]
        nb += cnt[p] > 0
    s = 1 if cnt[solved] > 0 else 0
    for i in range(m):
        c = row[bucket[i]]
        perm[start[c]] = bucket[i]
        start[c] += 1
    for p in range(npat, 0, -1):
        start[p] = start[p - 1]
    start[0] = 0
    total = m
    for p in range(npat):
        if cnt[p] == 0 or p == solved:
            continue
        total += sub_bucket_bound(codes, answer_rows, perm, start[p], start[p + 1], left - 1, branches, mark)
        if total >= limit:
            return min(total, INF)
    return max(total, m + level_bound(m - s, left - 1, branches, nb - s))


@njit(cache=True, nogil=True)
def unit_bound(codes, answer_rows, bucket, guesses, solved, left, branches, cap, sc):
    """Return ``min(cap, min over guesses of t(g))`` for one bucket (``guesses``: the rows that
    may answer it), working out ``t`` guess by guess in increasing ``q``."""
    m = bucket.shape[0]
    mark = sc[3]
    q = np.empty(guesses.shape[0], np.int64)
    for j in range(guesses.shape[0]):
        row = codes[guesses[j]]
        mark[-1] += 1
        stamp = mark[-1]
        nb = 0
        s = 0
        for i in range(m):
            c = row[bucket[i]]
            nb += mark[c] != stamp
            mark[c] = stamp
            s += c == solved
        q[j] = guess_floor(m, nb, min(s, 1), left, branches)
    best = cap
    for j in np.argsort(q, kind="mergesort"):
        if q[j] >= best:
            break
        best = min(best, guess_cost_bound(codes, answer_rows, bucket, guesses[j], solved, left, branches,
                                          best, sc))
    return best


@njit(parallel=True, cache=True)
def second_pass(codes, answer_rows, perm, units, guesses, solved, n_patterns, left, branches, members_only,
                out):
    """Fill ``out[u]`` with ``unit_bound`` of bucket ``perm[units[u, 0]:units[u, 1]]`` (cap
    ``units[u, 2]``), answered by the rows ``guesses`` or, with ``members_only``, by its own
    answers; one bucket per thread."""
    for u in prange(units.shape[0]):
        lo = units[u, 0]
        hi = units[u, 1]
        bucket = perm[lo:hi]
        sc = (np.zeros(n_patterns, np.int64), np.zeros(n_patterns + 1, np.int64), np.empty(hi - lo, np.int32),
              np.zeros(n_patterns + 1, np.int64))
        rows = answer_rows[bucket] if members_only else guesses
        out[u] = unit_bound(codes, answer_rows, bucket, rows, solved, left, branches, units[u, 2], sc)


__all__ = ["guess_cost_bound", "second_pass", "unit_bound"]
