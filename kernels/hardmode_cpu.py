"""The hard-mode rule (``kernels.hardmode``) compiled for the CPU, and the kernel listing the
guesses it allows after some moves."""

import numpy as np
from numba import njit, prange

from . import hardmode
from .hardmode import SCRATCH, build

hard_rule, rule_allows, hard_filter, allows_after = build(njit(nogil=True, inline="always"))
letter_counts = njit(cache=True)(hardmode.letter_counts)


@njit(parallel=True, cache=True)
def allowed(kind, length, colours, letters, counts, moves_g, moves_p, rows, out, threads):
    """Fill ``out[i]`` with 1 if hard mode allows guess row ``rows[i]`` after every move
    (``moves_g[t]`` got ``moves_p[t]``), else 0; in ``threads`` chunks."""
    n = rows.shape[0]
    chunk = (n + threads - 1) // threads
    for t in prange(threads):
        scratch = np.zeros(SCRATCH, np.int64)
        for i in range(t * chunk, min(n, (t + 1) * chunk)):
            out[i] = allows_after(kind, length, colours, letters, counts, moves_g, moves_p, rows[i], scratch)
