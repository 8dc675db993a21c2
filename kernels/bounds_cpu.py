"""The partition bound of every bucket under many first guesses at once (numba, CPU).

For an answer set S with ``left >= 2`` guesses to go, any strategy's first guess g splits S
into buckets b, and every unsolved bucket costs at least ``2|b| - 1`` more guesses (one of its
answers at best is found by the next guess, the others need two or more). So

    V(S, left) >= 3|S| - max over g of (distinct replies of g on S + [g in S])

(the partition bound). ``start_bounds`` evaluates it for every bucket of every start word s
(over the guesses a bucket may be answered with), which gives each start word a first-pass
bound ``n + sum over its buckets``: a proven lower bound on its total that refutes most start
words before any search, and tight bucket limits for the search of the rest.

Only a bucket's own answers can score ``m + 1``, so they are scored first (``m²`` cells per
bucket); the other guesses score at most ``m``, and at most their ``cap`` (distinct replies
over the whole set). They are scanned by decreasing cap: a bucket is settled once the cap, or
``m``, falls to its best score, and with a ``cutoff`` the scan stops as soon as the bounds so
far (each bucket at least ``3m - max(best, min(m, cap))``) reach it. Every bound written is
proven at every moment; it is the exact partition bound when the scan ran to its end.
"""

import numpy as np
from numba import njit, prange

INF = 1 << 40
"""A bucket no strategy finishes in time (the exact search's ``INF``)."""


@njit(cache=True, nogil=True)
def _bucket_order(row0, answers, n_patterns, perm, first):
    """Write the positions of ``answers`` sorted by their reply to the start word into ``perm``
    and each reply's first position into ``first`` (``first[p + 1] - first[p]`` its size)."""
    for p in range(n_patterns + 1):
        first[p] = 0
    for i in range(answers.shape[0]):
        first[row0[answers[i]] + 1] += 1
    for p in range(n_patterns):
        first[p + 1] += first[p]
    for i in range(answers.shape[0]):
        p = row0[answers[i]]
        perm[first[p]] = answers[i]
        first[p] += 1
    for p in range(n_patterns, 0, -1):
        first[p] = first[p - 1]
    first[0] = 0


@njit(cache=True, nogil=True)
def _settle(m, best, split, left):
    """Return a bucket's bound from its best score (distinct replies + membership)."""
    if left == 2 and not split:
        return INF
    return 3 * m - best


@njit(cache=True, nogil=True)
def bounds_of_start(codes, answers, s, guesses, cap, solved, n_patterns, left, members_only,
                    answer_rows, cutoff, out):
    """Fill ``out[p]`` with a proven lower bound on V(bucket p of start row ``s``, ``left``)
    (0 for empty buckets and the solved reply) and return ``len(answers) + sum(out)``.

    ``guesses`` (rows, by decreasing ``cap``) and each bucket's own answers (``answer_rows[a]``
    is answer a's row) answer a bucket; with ``members_only``, its own answers alone.
    The scan stops early once the total reaches ``cutoff``.
    """
    n = answers.shape[0]
    perm = np.empty(n, np.int32)
    first = np.empty(n_patterns + 1, np.int64)
    _bucket_order(codes[s], answers, n_patterns, perm, first)
    best = np.zeros(n_patterns, np.int64)
    split = np.zeros(n_patterns, np.bool_)
    active = np.empty(n_patterns, np.int64)
    na = 0
    fixed = n
    for p in range(n_patterns):
        m = first[p + 1] - first[p]
        out[p] = 0
        if m == 0 or p == solved:
            continue
        if m == 1:
            out[p] = 1
        elif left <= 1:
            out[p] = INF
        elif m == 2:
            out[p] = 3
        else:
            active[na] = p
            na += 1
            continue
        fixed += out[p]
    # each bucket's own answers first (only they can score m + 1): Σ m² cells
    mark = np.zeros(n_patterns, np.int64)
    stamp = 0
    for t in range(na):
        p = active[t]
        lo = first[p]
        hi = first[p + 1]
        for i in range(lo, hi):
            row = codes[answer_rows[perm[i]]]
            stamp += 1
            k = 0
            for j in range(lo, hi):
                c = row[perm[j]]
                k += mark[c] != stamp
                mark[c] = stamp
            split[p] |= k == hi - lo
            if k + 1 > best[p]:
                best[p] = k + 1
    # then the other guesses, which score at most m (no membership) and at most their cap
    na_left = 0 if members_only else na
    gi = 0
    while na_left > 0 and gi < guesses.shape[0]:
        kg = cap[gi]
        if cutoff < INF and (gi == 0 or kg != cap[gi - 1]):
            partial = fixed
            for t in range(na):
                p = active[t]
                m = first[p + 1] - first[p]
                partial += 3 * m - max(best[p], min(m, kg))
            if partial >= cutoff:
                for t in range(na):
                    p = active[t]
                    m = first[p + 1] - first[p]
                    out[p] = 3 * m - max(best[p], min(m, kg))
                return partial
        row = codes[guesses[gi]]
        t = 0
        while t < na_left:
            p = active[t]
            lo = first[p]
            hi = first[p + 1]
            if best[p] >= min(hi - lo, kg) and (left != 2 or split[p] or kg < hi - lo):
                # settled: no later guess scores more (nor, with 2 to go, splits it)
                na_left -= 1
                active[t], active[na_left] = active[na_left], active[t]
                continue
            stamp += 1
            k = 0
            for i in range(lo, hi):
                c = row[perm[i]]
                k += mark[c] != stamp
                mark[c] = stamp
            split[p] |= k == hi - lo
            if k > best[p]:  # a member's score is known already: this one is a non-member's
                best[p] = k
            t += 1
        gi += 1
    total = fixed
    for t in range(na):
        p = active[t]
        out[p] = _settle(first[p + 1] - first[p], best[p], split[p], left)
        total += out[p]
    return min(total, INF)


@njit(parallel=True, cache=True)
def start_bounds(codes, answers, starts, guesses, cap, solved, n_patterns, left, members_only,
                 answer_rows, cutoff, out, totals):
    """Fill ``out[j]`` (bucket bounds) and ``totals[j]`` (first-pass bound) of start row
    ``starts[j]``, one start word per thread (see ``bounds_of_start``)."""
    for j in prange(starts.shape[0]):
        totals[j] = bounds_of_start(codes, answers, starts[j], guesses, cap, solved, n_patterns, left,
                                    members_only, answer_rows, cutoff, out[j])


__all__ = ["INF", "bounds_of_start", "start_bounds"]
