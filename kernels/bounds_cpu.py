"""The partition bound of every bucket under many first guesses at once (numba, CPU).

For an answer set S with ``left >= 2`` guesses to go, any strategy's first guess g splits S
into buckets b, and every unsolved bucket costs at least ``2|b| - 1`` more guesses (one of its
answers at best is found by the next guess, the others need two or more). So

    V(S, left) >= 3|S| - max over g of (distinct replies of g on S + [g in S])

(the partition bound), and at least the level bound of ``m`` answers with that many replies
(``kernels.levels``: a guess's replies cap how many answers each later guess can find), which
is the stronger one once ``m`` exceeds the replies a guess gives. ``start_bounds`` evaluates
them for every bucket of every start word s (over the guesses a bucket may be answered with),
which gives each start word a first-pass bound ``n + sum over its buckets``: a proven lower
bound on its total that refutes most start words before any search, and tight bucket limits
for the search of the rest.

Only a bucket's own answers can score ``m + 1``, so they are scored first (``m²`` cells per
bucket); the other guesses score at most ``m``, and at most their ``cap`` (distinct replies
over the whole set). They are scanned by decreasing cap: a bucket is settled once the cap, or
``m``, falls to its best score, and with a ``cutoff`` the scan stops as soon as the bounds so
far (each bucket at least ``3m - max(best, min(m, cap))``) reach it. Every bound written is
proven at every moment; it is the exact partition bound when the scan ran to its end.
"""

import numpy as np
from numba import njit

from . import levels
from .config import INF

level_bound = njit(cache=True, nogil=True)(levels.level_bound)


PAIR_MAX = 96
"""Buckets of at most this many answers are scored for every guess at once by comparing their
answers' reply rows pairwise (vectorized over the guesses); larger ones guess by guess."""

BLOCK = 2048
"""Guesses compared at once in the pairwise scoring (keeps the rows in the L1/L2 caches)."""


@njit(cache=True, nogil=True)
def _bucket_order(row0, answers, n_patterns, local, perm, first):
    """Sort the answers by their reply to the start word: ``local`` their positions in
    ``answers``, ``perm`` their columns, ``first[p]`` where reply p's bucket begins."""
    for p in range(n_patterns + 1):
        first[p] = 0
    for i in range(answers.shape[0]):
        first[row0[answers[i]] + 1] += 1
    for p in range(n_patterns):
        first[p + 1] += first[p]
    for i in range(answers.shape[0]):
        p = row0[answers[i]]
        local[first[p]] = i
        perm[first[p]] = answers[i]
        first[p] += 1
    for p in range(n_patterns, 0, -1):
        first[p] = first[p - 1]
    first[0] = 0


@njit(cache=True, nogil=True)
def _pair_scores(tmat, local, lo, hi, seen, score):
    """Return (the most distinct replies any guess gives on the answers ``local[lo:hi]``,
    whether one gives all distinct): ``tmat`` is answer-major, a column per guess."""
    m = hi - lo
    width = tmat.shape[1]
    most = 0
    for g0 in range(0, width, BLOCK):
        w = min(width, g0 + BLOCK) - g0
        for g in range(w):
            score[g] = 0
        for i in range(lo, hi):
            ri = tmat[local[i], g0:g0 + w]
            for g in range(w):
                seen[g] = 0
            for j in range(lo, i):
                rj = tmat[local[j], g0:g0 + w]
                for g in range(w):
                    seen[g] |= np.uint8(ri[g] == rj[g])
            for g in range(w):
                score[g] += 1 - seen[g]
        for g in range(w):
            most = max(most, np.int64(score[g]))
            if most == m:
                return most, True
    return most, most == m


@njit(cache=True, nogil=True, inline="always")
def _bucket_bound(m, score, left):
    """Return the bound of a bucket of ``m`` answers no guess scores more than ``score`` on:
    the partition bound or the level bound, whichever is larger."""
    return max(3 * m - score, level_bound(m, left, score, 1))


@njit(cache=True, nogil=True)
def _settle(m, best, split, left):
    """Return a bucket's bound from its best score (distinct replies + membership)."""
    if left == 2 and not split:
        return INF
    return _bucket_bound(m, best, left)


@njit(cache=True, nogil=True)
def _partial(fixed, first, active, na, best, final, most, left, out):
    """Return the total bound so far and write each bucket's: ``_bucket_bound`` of its best
    score where ``final``, else of ``max(best, min(m, most))`` (no guess left scores more)."""
    total = fixed
    for t in range(na):
        p = active[t]
        m = first[p + 1] - first[p]
        out[p] = _bucket_bound(m, best[p] if final[p] else max(best[p], min(m, most)), left)
        total += out[p]
    return total


@njit(cache=True, nogil=True)
def bounds_of_start(codes, tmat, answers, s, guesses, cap, solved, n_patterns, left, members_only,
                    answer_rows, cutoff, pair_max, out):
    """Fill ``out[p]`` with a proven lower bound on V(bucket p of start row ``s``, ``left``)
    (0 for empty buckets and the solved reply) and return ``len(answers) + sum(out)``.

    ``guesses`` (rows, by decreasing ``cap``; ``tmat[i, j]`` the reply of ``guesses``' j-th
    row in any order to ``answers[i]``) and each bucket's own answers (``answer_rows[a]`` is
    answer a's row) answer a bucket; with ``members_only``, its own answers alone. The scan
    stops early once the total reaches ``cutoff``. Buckets of at most ``pair_max`` answers are
    scored pairwise (``PAIR_MAX``; the value never changes a result).
    """
    n = answers.shape[0]
    local = np.empty(n, np.int32)
    perm = np.empty(n, np.int32)
    first = np.empty(n_patterns + 1, np.int64)
    _bucket_order(codes[s], answers, n_patterns, local, perm, first)
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
    # each bucket's own answers first (only they can score m + 1): m² cells a bucket
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
            best[p] = max(best[p], k + 1)
    most = cap[0] if guesses.shape[0] and not members_only else 0
    # the other guesses score at most m and at most their cap: large buckets guess by guess,
    # by decreasing cap (a bucket is settled once neither the cap nor m exceeds its best) ...
    large = np.empty(n_patterns, np.int64)
    nl = 0
    for t in range(na):
        p = active[t]
        if first[p + 1] - first[p] > pair_max and not members_only:
            large[nl] = p
            nl += 1
    final = np.zeros(n_patterns, np.bool_)
    gi = 0
    while nl > 0 and gi < guesses.shape[0]:
        kg = cap[gi]
        if cutoff < INF and (gi == 0 or kg != cap[gi - 1]):
            partial = _partial(fixed, first, active, na, best, final, kg, left, out)
            if partial >= cutoff:
                return partial
        row = codes[guesses[gi]]
        t = 0
        while t < nl:
            p = large[t]
            lo = first[p]
            hi = first[p + 1]
            if best[p] >= min(hi - lo, kg) and (left != 2 or split[p] or kg < hi - lo):
                # settled: no later guess scores more (nor, with 2 to go, splits it)
                nl -= 1
                large[t], large[nl] = large[nl], large[t]
                continue
            stamp += 1
            k = 0
            for i in range(lo, hi):
                c = row[perm[i]]
                k += mark[c] != stamp
                mark[c] = stamp
            split[p] |= k == hi - lo
            best[p] = max(best[p], k)  # a member's score is known already: this is a non-member's
            t += 1
        gi += 1
    # ... then the small ones for every guess at once, largest first
    for t in range(na):
        final[active[t]] = members_only or first[active[t] + 1] - first[active[t]] > pair_max
    seen = np.empty(BLOCK, np.uint8)
    score = np.empty(BLOCK, np.uint8)
    while True:
        if cutoff < INF and _partial(fixed, first, active, na, best, final, most, left, out) >= cutoff:
            return _partial(fixed, first, active, na, best, final, most, left, out)
        pick = -1
        for t in range(na):
            p = active[t]
            if not final[p] and (pick < 0 or first[p + 1] - first[p] > first[pick + 1] - first[pick]):
                pick = p
        if pick < 0:
            break
        final[pick] = True
        if best[pick] >= first[pick + 1] - first[pick] and (left != 2 or split[pick]):
            continue  # no other guess scores more than m
        k, splits = _pair_scores(tmat, local, first[pick], first[pick + 1], seen, score)
        best[pick] = max(best[pick], k)
        split[pick] |= splits
    total = fixed
    for t in range(na):
        p = active[t]
        out[p] = _settle(first[p + 1] - first[p], best[p], split[p], left)
        total += out[p]
    return min(total, INF)


@njit(nogil=True, cache=True)
def size_bounds(codes, answers, starts, most, solved, n_patterns, left, out):
    """Fill ``out[j]`` with a proven lower bound on the total of start row ``starts[j]`` from
    its bucket sizes alone: each bucket of ``m >= 3`` costs at least ``2m - 1``, at least
    ``3m - most`` and at least the level bound with ``most`` replies (no guess gives more than
    ``most`` distinct replies plus membership)."""
    for j in range(starts.shape[0]):
        row = codes[starts[j]]
        size = np.zeros(n_patterns, np.int64)
        for i in range(answers.shape[0]):
            size[row[answers[i]]] += 1
        total = answers.shape[0]
        for p in range(n_patterns):
            m = size[p]
            if m == 0 or p == solved:
                continue
            if m == 1:
                total += 1
            elif left <= 1:
                total += INF
            elif m == 2:
                total += 3
            else:
                total += max(2 * m - 1, 3 * m - min(m + 1, most), level_bound(m, left, most, 1))
        out[j] = min(total, INF)


@njit(nogil=True, cache=True)
def start_bounds(codes, tmat, answers, starts, guesses, cap, solved, n_patterns, left, members_only,
                 answer_rows, cutoff, pair_max, out, totals):
    """Fill ``out[j]`` (bucket bounds) and ``totals[j]`` (first-pass bound) of start row
    ``starts[j]`` (see ``bounds_of_start``)."""
    for j in range(starts.shape[0]):
        totals[j] = bounds_of_start(codes, tmat, answers, starts[j], guesses, cap, solved, n_patterns,
                                    left, members_only, answer_rows, cutoff, pair_max, out[j])


__all__ = ["INF", "bounds_of_start", "level_bound", "size_bounds", "start_bounds"]
