"""The hard-mode rule (``kernels.hardmode``) compiled for the CPU, and the kernel listing the
guesses it allows after some moves."""

import numpy as np
from numba import njit

from . import hardmode
from .hardmode import SCRATCH, build

hard_rule, rule_allows, hard_filter, allows_after = build(njit(nogil=True, inline="always"))
letter_counts = njit(cache=True)(hardmode.letter_counts)


@njit(nogil=True, cache=True)
def allowed(kind, length, colours, letters, counts, moves_g, moves_p, rows, out):
    """Fill ``out[i]`` with 1 if hard mode allows guess row ``rows[i]`` after every move
    (``moves_g[t]`` got ``moves_p[t]``), else 0 (one thread: milliseconds for every guess, where
    a parallel loop takes a second more to compile)."""
    scratch = np.zeros(SCRATCH, np.int64)
    for i in range(rows.shape[0]):
        out[i] = allows_after(kind, length, colours, letters, counts, moves_g, moves_p, rows[i], scratch)
