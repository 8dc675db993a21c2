"""CPU kernels (numba) for seed 004's guesser: its score of every guess, and the order it sorts them.

The seed ranks guesses with ``np.argsort`` (numpy's default ``quicksort`` kind) and plays the
last (MaxInfo, MaxSplits) or the first (MaxPrune) of that order, so on ties the guess played is
the one numpy's introsort happens to leave at that end. ``introsort_order`` redoes numpy's
generic introsort step for step (median-of-three quicksort, insertion sort on runs of at most
16, heapsort below a depth of 2 log2(n)), the argsort of numpy releases before the AVX-512
argsort (numpy 1.25, and on every machine without AVX-512 until numpy 2.0), which the seed's
run used; a newer numpy on this machine breaks ties differently, so it is never called here.

Scores (``guess_scores``), per guess over a node's answers:

* ``INFO``: the entropy as the seed computes it, in floating point: minus the sum of
  ``terms[n]`` (``p ln p`` with ``p = n / m``) over the non-empty replies taken in ``rank``
  order, the seed's reply order (its codes are 2 bits a square, first square least
  significant). The order matters: a sum of floats depends on it, and so do its ties.
* ``SPLITS``: the number of different replies.
* ``PRUNE``: the number of answers that would give the all-miss reply (rank 0).
"""

import numpy as np
from numba import njit, prange

from .sorting import insertion_order, insertion_sort, median_of_three

INFO, SPLITS, PRUNE = 0, 1, 2
SMALL = 15
"""numpy sorts a run by insertion once its last index is at most this far from its first."""
STACK = 128


@njit(cache=True)
def _sink(values, order, base, i, n, item):
    """Sink ``item`` from heap slot ``i`` of the 1-based heap ``order[base + 1 .. base + n]``."""
    j = 2 * i
    while j <= n:
        if j < n and values[order[base + j]] < values[order[base + j + 1]]:
            j += 1
        if values[item] < values[order[base + j]]:
            order[base + i] = order[base + j]
            i = j
            j += j
        else:
            break
    order[base + i] = item


@njit(cache=True)
def heap_order(values, order, lo, n):
    """Sort ``order[lo:lo + n]`` (positions into ``values``) as numpy's argsort heapsort does."""
    base = lo - 1
    for top in range(n >> 1, 0, -1):
        _sink(values, order, base, top, n, order[base + top])
    while n > 1:
        item = order[base + n]
        order[base + n] = order[base + 1]
        n -= 1
        _sink(values, order, base, 1, n, item)


@njit(cache=True)
def introsort_order(values):
    """Return the positions of ``values`` in numpy's (pre-SIMD) ``argsort`` order."""
    depth = 0
    m = values.shape[0] >> 1
    while m:
        depth += 1
        m >>= 1
    return introsort_with_depth(values, 2 * depth)


@njit(cache=True)
def introsort_with_depth(values, depth):
    """Return ``introsort_order(values)`` with ``depth`` partitions left before heapsort takes
    over (numpy's is 2 * floor(log2(n)); a negative one heapsorts at once)."""
    n = values.shape[0]
    order = np.arange(n)
    stack = np.empty(STACK, np.int64)
    depths = np.empty(STACK, np.int64)
    top = 0
    lo = 0
    hi = n - 1
    while True:
        if depth < 0:
            heap_order(values, order, lo, hi - lo + 1)
        else:
            while hi - lo > SMALL:
                mid = lo + ((hi - lo) >> 1)
                pivot = median_of_three(values, order, lo, mid, hi)
                i = lo
                j = hi - 1
                order[mid], order[j] = order[j], order[mid]
                while True:
                    i += 1
                    while values[order[i]] < pivot:
                        i += 1
                    j -= 1
                    while pivot < values[order[j]]:
                        j -= 1
                    if i >= j:
                        break
                    order[i], order[j] = order[j], order[i]
                order[i], order[hi - 1] = order[hi - 1], order[i]
                depth -= 1
                if i - lo < hi - i:
                    stack[top] = i + 1
                    stack[top + 1] = hi
                    hi = i - 1
                else:
                    stack[top] = lo
                    stack[top + 1] = i - 1
                    lo = i + 1
                depths[top >> 1] = depth
                top += 2
            insertion_order(values, order, lo, hi)
        if top == 0:
            return order
        top -= 2
        lo = stack[top]
        hi = stack[top + 1]
        depth = depths[top >> 1]


@njit(parallel=True, cache=True)
def guess_scores(codes, rows, cols, rank, terms, policy, out, threads):
    """Fill ``out[i]`` with the seed's score (see the module) of guess ``rows[i]`` over ``cols``.

    ``codes`` is the guess-major pattern matrix; ``rank[code]`` is the seed's position of a
    reply; ``terms[n]`` is ``p ln p`` for ``p = n / len(cols)``. Work is split in ``threads``
    chunks (pass ``numba.get_num_threads()``).
    """
    n = rows.shape[0]
    n_replies = rank.shape[0]
    chunk = (n + threads - 1) // threads
    for t in prange(threads):
        hist = np.zeros(n_replies, np.int64)
        seen = np.empty(n_replies, np.int64)
        mark = np.zeros(n_replies, np.bool_)
        for i in range(t * chunk, min(n, (t + 1) * chunk)):
            row = codes[rows[i]]
            if policy == PRUNE:
                misses = 0
                for a in cols:
                    misses += rank[row[a]] == 0
                out[i] = misses
                continue
            k = 0
            for a in cols:
                r = rank[row[a]]
                if hist[r] == 0:
                    seen[k] = r
                    k += 1
                hist[r] += 1
            if policy == INFO:
                _sort_small(seen, k, mark)
                total = 0.0
                for x in range(k):
                    total += terms[hist[seen[x]]]
                out[i] = -total
            else:
                out[i] = k
            for x in range(k):
                hist[seen[x]] = 0


@njit(cache=True, inline="always")
def _sort_small(seen, k, mark):
    """Sort ``seen[:k]`` (distinct replies): by insertion when few, else by marking every rank
    in ``mark`` (all false, and left so)."""
    n_replies = mark.shape[0]
    if k * k <= 4 * n_replies:
        insertion_sort(seen, k)
        return
    for x in range(k):
        mark[seen[x]] = True
    k = 0
    for r in range(n_replies):
        if mark[r]:
            mark[r] = False
            seen[k] = r
            k += 1

