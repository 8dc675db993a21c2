"""The kernels' sorts (``kernels/sorting.py``) against numba's own."""

from __future__ import annotations

import numpy as np
from gpusolve.kernels.sorting import argsort
from numba import njit


@njit
def _numba_argsort(a):
    return np.argsort(a)


def test_argsort_orders_equal_keys_as_numbas_argsort():
    """The same permutation as ``np.argsort`` compiled by numba (its quicksort), ties included: the
    exact search tries its guesses in this order, and its node counts are pinned."""
    rng = np.random.default_rng(37)
    for n in [*range(40), 100, 257, 1000, 5000]:
        for span in (2, 5, n + 1, 1 << 40):  # many ties to none
            a = rng.integers(-span, span, n).astype(np.int64)
            assert np.array_equal(argsort(a), _numba_argsort(a)), (n, span)
    for a in (np.arange(3000), np.arange(3000)[::-1].copy(), np.zeros(3000, np.int64)):
        assert np.array_equal(argsort(a), _numba_argsort(a))
