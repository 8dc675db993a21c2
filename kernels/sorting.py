"""A sort for the few numbers a kernel keeps in a scratch array (numba)."""

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
