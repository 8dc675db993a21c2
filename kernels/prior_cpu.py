"""CPU kernel (numba, parallel over guesses): partition statistics with answers weighted by a prior."""

import numpy as np
from numba import njit, prange

W_ENTROPY, W_EXPECTED, W_MAX, W_BRANCHES, W_SOLVE = range(5)
N_WEIGHTED = 5
"""Columns: entropy of the reply in bits (bucket probability = its share of the weight),
expected number of answers left, largest bucket (count), number of buckets, probability that
the guess is the answer."""


@njit(cache=True, inline="always")
def _weighted_row(row, answers, weights, solved, mass, count, out):
    total = 0.0
    for i in range(answers.shape[0]):
        total += weights[i]
    for i in range(answers.shape[0]):
        c = row[answers[i]]
        mass[c] += weights[i]
        count[c] += 1
    entropy = 0.0
    expected = 0.0
    biggest = 0
    branches = 0
    solve = 0.0
    for i in range(answers.shape[0]):
        c = row[answers[i]]
        n = count[c]
        if n:
            p = mass[c] / total if total > 0 else 0.0
            if p > 0:
                entropy -= p * np.log2(p)
            expected += p * n
            biggest = max(biggest, n)
            branches += 1
            if c == solved:
                solve = p
            mass[c] = 0.0
            count[c] = 0
    out[W_ENTROPY] = entropy
    out[W_EXPECTED] = expected
    out[W_MAX] = biggest
    out[W_BRANCHES] = branches
    out[W_SOLVE] = solve


@njit(parallel=True, cache=True)
def weighted_stats(matrix, guess_rows, answers, weights, n_patterns, solved, out, threads):
    """Fill ``out[i]`` with the weighted statistics of guess ``guess_rows[i]`` over ``answers``
    (``weights[j]`` is the prior weight of ``answers[j]``, not necessarily normalised)."""
    n = guess_rows.shape[0]
    chunk = (n + threads - 1) // threads
    for t in prange(threads):
        mass = np.zeros(n_patterns)
        count = np.zeros(n_patterns, np.int64)
        for i in range(t * chunk, min(n, (t + 1) * chunk)):
            _weighted_row(matrix[guess_rows[i]], answers, weights, solved, mass, count, out[i])
