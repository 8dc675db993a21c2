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


@njit(cache=True, nogil=True)
def median_of_three(values, order, lo, mid, hi):
    """Put ``order[lo]``, ``order[mid]``, ``order[hi]`` in the order of their ``values`` (how numpy's
    and numba's quicksorts both pick a pivot); return the middle value."""
    if values[order[mid]] < values[order[lo]]:
        order[lo], order[mid] = order[mid], order[lo]
    if values[order[hi]] < values[order[mid]]:
        order[hi], order[mid] = order[mid], order[hi]
    if values[order[mid]] < values[order[lo]]:
        order[lo], order[mid] = order[mid], order[lo]
    return values[order[mid]]


@njit(cache=True, nogil=True)
def insertion_order(values, order, lo, hi):
    """Sort ``order[lo:hi + 1]`` (positions into ``values``) by their values, by insertion (equal
    values keep their order), as numpy's and numba's quicksorts sort their short runs."""
    for i in range(lo + 1, hi + 1):
        item = order[i]
        key = values[item]
        j = i
        while j > lo and key < values[order[j - 1]]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = item


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
            pivot = median_of_three(a, r, low, mid, high)
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
        insertion_order(a, r, low, high)  # the part left
    return r
