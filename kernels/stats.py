"""Layout of the per-guess partition statistics and the fixed-point tables they use."""

import numpy as np

from .config import FIXED_POINT_BITS

MAX, SUM_SQUARES, SUM_NLOGN, BRANCHES, SINGLETONS, SUM_INVERSE = range(6)
N_STATS = 6
"""Columns of a stats row: largest branch, sum of squared branch sizes, sum of n*log2(n)
(fixed point), number of branches, singleton branches, sum of 1/n (fixed point)."""

SCALE = float(1 << FIXED_POINT_BITS)


def nlogn_table(n: int) -> np.ndarray:
    """Return int64 ``t[k] = round(k * log2(k) * SCALE)`` for k in 0..n (t[0] = t[1] = 0)."""
    k = np.arange(n + 1, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(k > 1, k * np.log2(np.maximum(k, 1)), 0.0)
    return np.rint(t * SCALE).astype(np.int64)


def inverse_table(n: int) -> np.ndarray:
    """Return int64 ``t[k] = round(SCALE / k)`` for k in 0..n (t[0] = 0)."""
    k = np.arange(n + 1, dtype=np.float64)
    with np.errstate(divide="ignore"):
        t = np.where(k > 0, SCALE / np.maximum(k, 1), 0.0)
    return np.rint(t).astype(np.int64)
