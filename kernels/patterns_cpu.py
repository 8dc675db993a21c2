"""CPU kernels (numba, parallel over guesses): the pattern matrix and partition statistics."""

import numpy as np
from numba import njit, prange

from .replies import SCRATCH
from .replies import reply_code as _reply_code
from .stats import BRANCHES, MAX, SINGLETONS, SUM_INVERSE, SUM_NLOGN, SUM_SQUARES

reply_code = njit(cache=True, inline="always")(_reply_code)


@njit(parallel=True, cache=True)
def fill_pattern_matrix(kind, guesses, answers, colours, out, threads):
    """Fill ``out[g, a]`` with the reply code of every guess row against every answer row.

    Work is split in ``threads`` chunks (pass ``numba.get_num_threads()``; reading it inside
    a kernel stops numba caching the kernel on disk).
    """
    length = guesses.shape[1]
    n = guesses.shape[0]
    chunk = (n + threads - 1) // threads
    for t in prange(threads):
        counts = np.zeros(SCRATCH, np.int32)
        for g in range(t * chunk, min(n, (t + 1) * chunk)):
            for a in range(answers.shape[0]):
                out[g, a] = reply_code(kind, guesses, g, answers, a, length, colours, counts)


@njit(cache=True, inline="always")
def _stats_of_row(row, answers, hist, nlogn, inverse, out):
    """Write the partition statistics of one matrix row over ``answers`` into ``out``."""
    for a in answers:
        hist[row[a]] += 1
    biggest = 0
    squares = 0
    entropy = 0
    branches = 0
    singletons = 0
    inverse_sum = 0
    for a in answers:
        n = hist[row[a]]
        if n:
            hist[row[a]] = 0
            biggest = max(biggest, n)
            squares += n * n
            entropy += nlogn[n]
            branches += 1
            singletons += n == 1
            inverse_sum += inverse[n]
    out[MAX] = biggest
    out[SUM_SQUARES] = squares
    out[SUM_NLOGN] = entropy
    out[BRANCHES] = branches
    out[SINGLETONS] = singletons
    out[SUM_INVERSE] = inverse_sum


@njit(parallel=True, cache=True)
def partition_stats(matrix, guess_rows, answers, n_patterns, nlogn, inverse, out, threads):
    """Fill ``out[i]`` with the partition statistics of guess ``guess_rows[i]`` over ``answers``."""
    n = guess_rows.shape[0]
    chunk = (n + threads - 1) // threads
    for t in prange(threads):
        hist = np.zeros(n_patterns, np.int64)
        for i in range(t * chunk, min(n, (t + 1) * chunk)):
            _stats_of_row(matrix[guess_rows[i]], answers, hist, nlogn, inverse, out[i])
