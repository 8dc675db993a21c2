"""The classes of guesses under the symmetries fixing a history (numba), for the exact searches.

A code game's symmetries relabel the symbols and permute the positions (``gpusolve.core.symmetry``,
the pure-Python oracle). After the guesses ``h1..ht`` the symmetries that fix every ``hi`` map the
node's answers and its allowed guesses onto themselves, so every guess of one class costs the
same there: a search needs to try one per class.

A symmetry is a position permutation ``pi`` with a relabelling ``s``; it maps a code ``g`` to
``w`` with ``w[pi[p]] = s(g[p])`` and fixes ``h`` when ``h[pi[p]] = s(h[p])`` for every ``p``.
For a given ``pi`` that forces ``s`` on the symbols the history uses (if it can be a bijection
at all); the symbols it does not use may be relabelled freely among themselves. The class of
``g`` is named by the least image over the group fixing the history: for each such ``pi``, the
used symbols mapped by the forced ``s`` and the others given the unused symbols in increasing
order as they first appear; the least over the ``pi`` as a base-``colours`` number. That image
is itself a code of the class, so ``code_row`` (code number -> guess row) names the class by a
guess row.
"""

from collections import namedtuple

import numpy as np
from numba import njit

Sym = namedtuple("Sym", "on perms code_row hist nbase keep seen smap valid used free image")
"""One worker's symmetry state: ``on[0]`` (1: the search uses the symmetries), the position
permutations (rows of int8), code number -> guess row (-1: not a guess), the history of guess
rows (``hist[:nbase[0]]`` before the search's root, then one per level), per level the survivors
to try (``keep[level, j]``), stamps per guess row (``seen[-1]``: the last stamp), and scratch."""


def new_sym(perms: np.ndarray, code_row: np.ndarray, colours: int, levels: int, n_guesses: int,
            on: bool) -> Sym:
    """Return a worker's symmetry state (``on``: the lists are symmetric and it may be used)."""
    return Sym(on=np.array([1 if on else 0], np.int64), perms=perms, code_row=code_row,
               hist=np.zeros(2 * levels + 1, np.int32), nbase=np.zeros(1, np.int64),
               keep=np.ones((levels, n_guesses), np.uint8), seen=np.zeros(n_guesses + 1, np.int64),
               smap=np.zeros((perms.shape[0], max(colours, 1)), np.int64),
               valid=np.zeros(perms.shape[0], np.uint8), used=np.zeros(max(colours, 1), np.int64),
               free=np.zeros(max(colours, 1), np.int64), image=np.zeros(perms.shape[1], np.int64))


@njit(cache=True, nogil=True)
def stabilizer(glet, sym, nhist, colours):
    """Fill ``sym.valid[q]`` (the position permutation ``q`` fixes the history ``sym.hist[:nhist]``
    with some relabelling), ``sym.smap[q]`` (that relabelling on the used symbols, -1 elsewhere),
    ``sym.used`` and ``sym.free`` (the unused symbols in increasing order); return how many are
    unused."""
    perms = sym.perms
    smap = sym.smap
    used = sym.used
    length = perms.shape[1]
    for c in range(colours):
        used[c] = 0
    for t in range(nhist):
        h = sym.hist[t]
        for p in range(length):
            used[glet[h, p]] = 1
    nfree = 0
    for c in range(colours):
        if used[c] == 0:
            sym.free[nfree] = c
            nfree += 1
    for q in range(perms.shape[0]):
        for c in range(colours):
            smap[q, c] = -1
        ok = True
        for t in range(nhist):
            h = sym.hist[t]
            for p in range(length):
                a = glet[h, p]
                b = glet[h, perms[q, p]]
                if smap[q, a] == -1:
                    for c in range(colours):  # b must not be the image of another symbol
                        if smap[q, c] == b:
                            ok = False
                    smap[q, a] = b
                elif smap[q, a] != b:
                    ok = False
            if not ok:
                break
        sym.valid[q] = 1 if ok else 0
    return nfree


@njit(cache=True, nogil=True)
def class_row(glet, sym, g, colours, nfree):
    """Return the guess row naming the class of guess row ``g`` (after ``stabilizer``), or ``g``
    itself when that least image is not a guess."""
    perms = sym.perms
    smap = sym.smap
    length = perms.shape[1]
    image = sym.image
    best = -1
    for q in range(perms.shape[0]):
        if sym.valid[q] == 0:
            continue
        for p in range(length):
            c = glet[g, p]
            image[perms[q, p]] = smap[q, c] if sym.used[c] else -1 - c
        code = 0
        given = 0
        for p in range(length):
            v = image[p]
            if v < 0:  # an unused symbol: the next free one at its first appearance
                old = -1 - v
                v = sym.free[given] if given < nfree else 0
                for p2 in range(p, length):
                    if image[p2] == -1 - old:
                        image[p2] = v
                given += 1
            code = code * colours + v
        if best < 0 or code < best:
            best = code
    if best < 0 or best >= sym.code_row.shape[0] or sym.code_row[best] < 0:
        return g
    return sym.code_row[best]


@njit(cache=True, nogil=True)
def mark_classes(glet, sym, nhist, colours, rows, order, n, keep):
    """Set ``keep[k] = 1`` for the first of each class among the guess rows ``rows[order[:n]]``
    (in that order), 0 for the others."""
    nfree = stabilizer(glet, sym, nhist, colours)
    seen = sym.seen
    seen[-1] += 1
    stamp = seen[-1]
    for i in range(n):
        k = order[i]
        r = class_row(glet, sym, rows[k], colours, nfree)
        if seen[r] == stamp:
            keep[k] = 0
        else:
            seen[r] = stamp
            keep[k] = 1


@njit(cache=True, nogil=True)
def class_rows(glet, sym, nhist, colours, rows, out):
    """Fill ``out[j]`` with the guess row naming the class of ``rows[j]`` after the history
    ``sym.hist[:nhist]``."""
    nfree = stabilizer(glet, sym, nhist, colours)
    for j in range(rows.shape[0]):
        out[j] = class_row(glet, sym, rows[j], colours, nfree)


def first_of_classes(glet: np.ndarray, perms: np.ndarray, code_row: np.ndarray, colours: int,
                     hist: tuple[int, ...], rows: np.ndarray) -> np.ndarray:
    """Return the first of ``rows`` of each class under the symmetries fixing the guess rows
    ``hist``, in the order of ``rows``."""
    sym = new_sym(perms, code_row, colours, len(hist) + 1, 0, True)
    sym.hist[:len(hist)] = hist
    names = np.empty(len(rows), np.int32)
    class_rows(glet, sym, len(hist), colours, np.asarray(rows, np.int32), names)
    return rows[np.sort(np.unique(names, return_index=True)[1])]


__all__ = ["Sym", "class_rows", "first_of_classes", "mark_classes", "new_sym"]
