"""CPU kernels (numba): the pattern matrix (by slices of guesses, on threads), the replies it holds,
and its answer-major copy."""

import numpy as np
from numba import njit

from .replies import SCRATCH
from .replies import reply_code as _reply_code

reply_code = njit(cache=True, inline="always")(_reply_code)


@njit(nogil=True, cache=True)
def fill_pattern_matrix(kind, guesses, answers, colours, out):
    """Fill ``out[g, a]`` with the reply code of every guess row against every answer row (the
    backend gives threads slices of the guesses: ``threads.over_slices``)."""
    length = guesses.shape[1]
    counts = np.zeros(SCRATCH, np.int32)
    for g in range(guesses.shape[0]):
        for a in range(answers.shape[0]):
            out[g, a] = reply_code(kind, guesses, g, answers, a, length, colours, counts)


@njit(nogil=True, cache=True)
def replies_present(codes, n_patterns):
    """Return one flag per reply code: whether it occurs in the matrix ``codes`` (one thread: a
    pass over the matrix takes milliseconds, a parallel loop a second more to compile)."""
    out = np.zeros(n_patterns, np.bool_)
    for g in range(codes.shape[0]):
        row = codes[g]
        for a in range(row.shape[0]):
            out[row[a]] = True
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
