"""CPU kernels (numba) for the squares bound: a lower bound on a Wordle guess's entropy key over a
node, from the node's letter counts alone, without reading the guess's replies.

A Wordle reply is a function of parts that depend on one letter of the guess each: for a letter
the guess holds once, at square i, the colour of square i (green when the answer has it at i,
else yellow when the answer has it anywhere, else grey); for a letter it holds t > 1 times, at
squares i..., whether each of those squares is green and how many of the letter the answer has,
capped at t. The entropy of a function of parts is at most the sum of the parts' entropies
(subadditivity), so over a node of m answers, with S(part) = sum of n*log2(n) over the part's
classes,

    sum over branches of n*log2(n)  >=  m*log2(m) + sum over parts of (S(part) - m*log2(m)).

Every S comes from counts the node's answers give once (letters by square, letters by number
of copies), so a guess's bound costs a few table reads (its parts, found once per word list by
``guess_parts``), where its key costs a read per answer. The greedy scan skips every guess
whose bound reaches the best key found so far (``greedy_cpu.best_guess_squares``); at the start
words' branches that is 95 to 99% of the guesses. ``tests/test_squares.py`` checks the bound
against every guess's exact key at every node of small random games.
"""

import math

import numpy as np
from numba import njit

from .stats import SCALE


@njit(cache=True)
def nlogn(n):
    """Return n * log2(n) (0 for n <= 1)."""
    return n * math.log2(n) if n > 1 else 0.0


PARTS = 10
"""Parts kept per guess: a word of up to 7 letters has at most 7 + 7 // 2 (the sum over the
parts is written out for exactly this many)."""


@njit(cache=True)
def guess_parts(letters, counts):
    """Return uint16 ``[row, j]``: where in ``node_parts``'s table the j-th part of guess row's reply
    is (a letter held once at square i: ``i * alphabet + letter``; square i green or not:
    ``(length + i) * alphabet + letter``; the answer's number of a letter held t > 1 times:
    ``2 * length * alphabet + letter * (length + 1) + t``), padded with the table's last entry (0)."""
    n_rows, length = letters.shape
    alphabet = counts.shape[1]
    if length + length // 2 > PARTS:
        raise ValueError("the squares bound holds words of up to 7 letters")
    pad = 2 * length * alphabet + alphabet * (length + 1)
    out = np.full((n_rows, PARTS), pad, np.uint16)
    for row in range(n_rows):
        j = 0
        for i in range(length):
            c = letters[row, i]
            t = counts[row, c]
            if t == 1:
                out[row, j] = i * alphabet + c
                j += 1
                continue
            out[row, j] = (length + i) * alphabet + c
            j += 1
            first = True
            for k in range(i):
                if letters[row, k] == c:
                    first = False
            if first:
                out[row, j] = 2 * length * alphabet + c * (length + 1) + t
                j += 1
    return out


@njit(cache=True)
def node_parts(letters, counts, answer_rows, order, lo, hi):
    """Return (table, m*log2(m)) for the answer columns ``order[lo:hi]``: float64 S(part) -
    m*log2(m) for every part, in ``guess_parts``'s layout, and a last entry 0 (the padding)."""
    length = letters.shape[1]
    alphabet = counts.shape[1]
    m = hi - lo
    table = np.zeros(2 * length * alphabet + alphabet * (length + 1) + 1)
    at = np.zeros((length, alphabet), np.int64)
    copies = np.zeros((alphabet, length + 1), np.int64)
    for k in range(lo, hi):
        a = answer_rows[order[k]]
        for i in range(length):
            at[i, letters[a, i]] += 1
        for c in range(alphabet):
            copies[c, counts[a, c]] += 1
    whole = nlogn(m)
    for c in range(alphabet):
        present = m - copies[c, 0]
        for i in range(length):
            g = at[i, c]
            table[i * alphabet + c] = nlogn(g) + nlogn(present - g) + nlogn(m - present) - whole
            table[(length + i) * alphabet + c] = nlogn(g) + nlogn(m - g) - whole
        for t in range(2, length + 1):
            s = 0.0
            top = 0
            for n in range(length + 1):
                if n < t:
                    s += nlogn(copies[c, n])
                else:
                    top += copies[c, n]
            table[2 * length * alphabet + c * (length + 1) + t] = s + nlogn(top) - whole
    return table, whole


@njit(cache=True)
def squares_bounds(parts, pool, p_end, table, whole, m, out):
    """Fill ``out[p]`` with an int64 lower bound on the entropy key (fixed point, ``stats.SCALE``)
    of guess ``pool[p]`` for p < ``p_end``, at the node of m answers whose table ``node_parts``
    filled; return the position of the least bound (the first of equals)."""
    # float sums are off by far less than 1e-9 * whole per part; each rounded term of the key
    # (stats.nlogn_table) is at most 0.5 + 1e-16 * its size below its exact value; and an
    # integer at least x is at least int(x), whichever way int() rounds
    margin = 1e-9 * (PARTS + 1) * (whole + 1.0) * SCALE + 0.6 * m + 1.0
    at = parts.reshape(parts.size)
    least = 0
    low = np.int64(1) << 62
    for p in range(p_end):
        j = pool[p] * PARTS
        total = ((whole + table[at[j]]) + (table[at[j + 1]] + table[at[j + 2]])) \
            + ((table[at[j + 3]] + table[at[j + 4]]) + (table[at[j + 5]] + table[at[j + 6]])) \
            + ((table[at[j + 7]] + table[at[j + 8]]) + table[at[j + 9]])
        bound = np.int64(total * SCALE - margin)
        out[p] = bound
        if bound < low:
            low = bound
            least = p
    return least
