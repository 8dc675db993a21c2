"""Layout of the per-guess reply statistics and the fixed-point tables they use."""

import numpy as np

from .config import FIXED_POINT_BITS

MAX, SUM_SQUARES, SUM_NLOGN, BRANCHES, SINGLETONS, SUM_INVERSE, SOLVED, KEPT, KEPT_REPLY = range(9)
N_STATS = 9
"""Columns of a stats row (the buckets are the answers grouped by their reply to one guess):
largest bucket, sum of squared bucket sizes, sum of n*log2(n) (fixed point), number of
buckets, buckets of one, sum of 1/n (fixed point), size of the solved reply's bucket, largest
bucket other than the solved reply's and its reply (ties: the lowest reply; size 0 and the
solved reply when there is none)."""

SUMS = (SUM_SQUARES, SUM_NLOGN, SINGLETONS, SUM_INVERSE)
"""Columns summed over the buckets: the CPU kernel computes them only when one is asked for."""

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
