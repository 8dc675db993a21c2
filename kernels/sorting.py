"""Sorts for the kernels (numba): the few numbers a kernel keeps in a scratch array, and the order
of ``np.argsort`` in compiled code."""

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, inline="always")
def insertion_sort(a, n):
    """Sort ``a[:n]`` in place (ascending): the fastest way for a handful of numbers."""
    for x in range(1, n):
        item = a[x]
        y = x
        while y > 0 and a[y - 1] > item:
            a[y] = a[y - 1]
            y -= 1
        a[y] = item


SMALL_QUICKSORT = 15
"""Numba's quicksort sorts parts of at most this many by insertion (``numba.misc.quicksort``)."""

MAX_STACK = 100
"""The most parts numba's quicksort keeps to sort later (the larger part of each split goes there)."""


@njit(cache=True, nogil=True)
def argsort(a):
    """Return the order in which ``np.argsort(a)`` puts a 1-d array in compiled code, equal keys
    included: numba's quicksort (``numba.misc.quicksort``) written as one function, where numba
    compiles its own as seven (a second of a first run's compile, issue 37)."""
    n = a.shape[0]
    r = np.empty(n, np.int64)
    for x in range(n):
        r[x] = x
    if n < 2:
        return r
    lows = np.empty(MAX_STACK, np.int64)
    highs = np.empty(MAX_STACK, np.int64)
    lows[0], highs[0] = 0, n - 1
    k = 1
    while k > 0:
        k -= 1
        low, high = lows[k], highs[k]
        while high - low >= SMALL_QUICKSORT:  # split around the median of three, the larger part kept
            mid = (low + high) >> 1
            if a[r[mid]] < a[r[low]]:
                r[low], r[mid] = r[mid], r[low]
            if a[r[high]] < a[r[mid]]:
                r[high], r[mid] = r[mid], r[high]
            if a[r[mid]] < a[r[low]]:
                r[low], r[mid] = r[mid], r[low]
            pivot = a[r[mid]]
            r[high], r[mid] = r[mid], r[high]
            i, j = low, high - 1
            while True:
                while i < high and a[r[i]] < pivot:
                    i += 1
                while j >= low and pivot < a[r[j]]:
                    j -= 1
                if i >= j:
                    break
                r[i], r[j] = r[j], r[i]
                i += 1
                j -= 1
            r[i], r[high] = r[high], r[i]
            if high - i > i - low:
                if high > i:
                    lows[k], highs[k] = i + 1, high
                    k += 1
                high = i - 1
            else:
                if i > low:
                    lows[k], highs[k] = low, i - 1
                    k += 1
                low = i + 1
        for x in range(low + 1, high + 1):  # the part left, by insertion
            key = r[x]
            v = a[key]
            y = x
            while y > low and v < a[r[y - 1]]:
                r[y] = r[y - 1]
                y -= 1
            r[y] = key
    return r
