"""CPU kernels (numba): the pattern matrix (parallel over guesses), the replies it holds, and its
answer-major copy."""

import numpy as np
from numba import njit, prange

from .replies import SCRATCH
from .replies import reply_code as _reply_code

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


@njit(parallel=True, cache=True)
def replies_present(codes, n_patterns, chunks):
    """Return one flag per reply code: whether it occurs in the matrix ``codes`` (its rows read
    in ``chunks`` parallel slices)."""
    rows = codes.shape[0]
    seen = np.zeros((chunks, n_patterns), np.bool_)
    for c in prange(chunks):
        for g in range(c * rows // chunks, (c + 1) * rows // chunks):
            row = codes[g]
            for a in range(row.shape[0]):
                seen[c, row[a]] = True
    out = np.zeros(n_patterns, np.bool_)
    for c in range(chunks):
        for p in range(n_patterns):
            out[p] |= seen[c, p]
    return out



@njit(cache=True)
def transpose(src, dst):
    """Fill ``dst[a, g] = src[g, a]`` in cache-sized tiles (the answer-major copy of a matrix)."""
    n_guesses, n_answers = src.shape
    tile = 64
    for g0 in range(0, n_guesses, tile):
        g1 = min(n_guesses, g0 + tile)
        for a0 in range(0, n_answers, tile):
            a1 = min(n_answers, a0 + tile)
            for a in range(a0, a1):
                for g in range(g0, g1):
                    dst[a, g] = src[g, a]
