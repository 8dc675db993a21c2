"""CPU twin (numba) of the reply-histogram kernel ``histogram_cuda.reply_stats``.

For guess row ``rows[i]`` and answer set s = ``flat[starts[s]:starts[s + 1]]`` (answer
columns of ``codes``), the answers are counted by reply and the buckets reduced to the
statistics of ``kernels.stats`` (largest bucket, sums over buckets, the bucket Absurdle's
replier keeps, ...). ``row_stats`` does one (guess, set) pair and is also the inner step of
searches that score guesses inside compiled code (Absurdle's ``reducible2``, the worst-case
node order).
"""

import numpy as np
from numba import njit

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
    SUMS,
)

_LOW = np.int64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def row_stats(row, members, lo, hi, n_patterns, solved, sums, nlogn, inverse, hist, acc):
    """Fill ``acc[:N_STATS]`` with the statistics of the buckets of ``members[lo:hi]`` under one
    guess (its matrix ``row``); the SUMS columns only when ``sums`` (else 0).

    ``hist`` is int32 scratch (4, n_patterns), all zero, left zero: four interleaved counts
    for large sets (a run of one reply would otherwise wait on its own previous increment);
    small sets are counted and reduced member by member.
    """
    size = 0  # the largest bucket other than the solved reply's, and its reply (ties: the lowest)
    reply = solved
    branches = 0
    at_solved = 0
    squares = 0
    entropy = 0
    singletons = 0
    inverse_sum = 0
    if hi - lo < n_patterns:
        kept = 0  # the largest (size << 32) + (LOW - reply): branch-free, the lowest reply on ties
        counts = hist[0]
        for i in range(lo, hi):
            counts[row[members[i]]] += 1
        for i in range(lo, hi):
            c = np.int64(row[members[i]])
            h = np.int64(counts[c])
            if h:
                counts[c] = 0
                branches += 1
                if sums:
                    squares += h * h
                    entropy += nlogn[h]
                    singletons += h == 1
                    inverse_sum += inverse[h]
                other = c != solved
                at_solved += h * (1 - other)
                kept = max(kept, ((h << 32) + (_LOW - c)) * other)
        if kept:
            size = kept >> 32
            reply = _LOW - (kept & _LOW)
    else:
        top = hi - (hi - lo) % 4
        for i in range(lo, top, 4):
            hist[0, row[members[i]]] += 1
            hist[1, row[members[i + 1]]] += 1
            hist[2, row[members[i + 2]]] += 1
            hist[3, row[members[i + 3]]] += 1
        for i in range(top, hi):
            hist[0, row[members[i]]] += 1
        at_solved = np.int64(hist[0, solved] + hist[1, solved] + hist[2, solved] + hist[3, solved])
        for p in range(n_patterns):  # branch-free but for a new largest bucket (and sums)
            h = np.int64(hist[0, p] + hist[1, p] + hist[2, p] + hist[3, p])
            branches += h > 0
            hist[0, p] = 0
            hist[1, p] = 0
            hist[2, p] = 0
            hist[3, p] = 0
            if sums:
                squares += h * h
                entropy += nlogn[h]
                singletons += h == 1
                inverse_sum += inverse[h]
            if h > size and p != solved:
                size = h
                reply = p
    acc[MAX] = max(size, at_solved)
    acc[SUM_SQUARES] = squares
    acc[SUM_NLOGN] = entropy
    acc[BRANCHES] = branches
    acc[SINGLETONS] = singletons
    acc[SUM_INVERSE] = inverse_sum
    acc[SOLVED] = at_solved
    acc[KEPT] = size
    acc[KEPT_REPLY] = reply


@njit(cache=True)
def wants_sums(columns):
    """Return whether any of ``columns`` is one of the SUMS columns."""
    for c in columns:
        for s in SUMS:
            if c == s:
                return True
    return False


@njit(nogil=True, cache=True)
def reply_stats(codes, rows, flat, starts, n_patterns, solved, nlogn, inverse, columns, out, lo, hi):
    """Fill ``out[s, i, c]`` with statistic ``columns[c]`` of guess ``rows[i]`` over set s, for the
    (set, guess) pairs ``lo <= s * len(rows) + i < hi`` (``threads.over_slices`` fills slices at
    once)."""
    nr = rows.shape[0]
    sums = wants_sums(columns)
    hist = np.zeros((4, n_patterns), np.int32)
    acc = np.zeros(N_STATS, np.int64)
    for job in range(lo, hi):
        s = job // nr
        i = job - s * nr
        row_stats(codes[rows[i]], flat, starts[s], starts[s + 1], n_patterns, solved, sums, nlogn, inverse,
                  hist, acc)
        for c in range(columns.shape[0]):
            out[s, i, c] = acc[columns[c]]
