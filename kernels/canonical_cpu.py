"""One memo entry per class of answer sets: the least image of a set's moves (numba).

In a code game whose lists the symmetries map onto themselves (``gpusolve.core.symmetry``),
a set the exact search meets is the root's answers consistent with its moves (guess, reply),
and the root is every code. A symmetry ``σ`` maps the moves onto moves with the same replies
and the set onto the set of the mapped moves, and ``V(σS, d) = V(S, d)`` (normal and
consistent mode: the guesses allowed are all codes, or the set itself). So a set may be looked
up, and stored, as its image under the ``σ`` that makes its moves least: every set whose moves
are symmetric images of each other then has one entry. What proves an entry stays as it was:
the image's members are checked against the entry's moves, so a lookup that finds an entry has
found the image itself.

The least image: over every order of the moves that keeps their replies in increasing order
(the replies are fixed by ``σ``) and every position permutation, the moves' symbols relabelled
in order of first appearance, compared as one sequence; the first least one found names the
``σ`` (its position permutation, its relabelling of the symbols the moves use, and the other
symbols in increasing order after them: any completion maps the set alike, since relabelling
unused symbols fixes it). Two move lists have the same least image exactly when a symmetry maps
one onto the other. The pure-Python oracle is ``gpusolve.core.symmetry.SymmetryGroup.least_moves``.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from .sorting import insertion_sort

Canon = namedtuple("Canon", "min_size perms code_row answer_col order count best border label inv on sig "
                   "members path keys")
"""One worker's canonical-image state: the least set it maps (``min_size[0]``; 0: none), the
position permutations (int8 rows), code number -> guess row, guess row -> answer column,
scratch (``order``, ``count``, ``best``, ``border``, ``label``, ``inv``), and per search level:
whether the node's set has an image (``on``), the symmetry reaching it (``sig``: the position
permutation's index, then the image of each symbol), its members (answer columns), its sorted
moves and its two memo keys (the exact search's)."""

MAX_MOVES = 5
"""Sets reached by more moves are not mapped (their orders to try grow as the factorial)."""


def new_canon(perms: np.ndarray, code_row: np.ndarray, answer_col: np.ndarray, colours: int, levels: int,
              min_size: int) -> Canon:
    """Return a worker's canonical-image state for a search of ``levels`` levels that maps sets
    of ``min_size`` answers or more (0: none)."""
    length = perms.shape[1]
    answers = int((answer_col >= 0).sum())
    return Canon(min_size=np.array([min_size], np.int64), perms=perms, code_row=code_row,
                 answer_col=answer_col, order=np.zeros(MAX_MOVES, np.int64),
                 count=np.zeros(MAX_MOVES, np.int64), best=np.zeros(MAX_MOVES * length, np.int64),
                 border=np.zeros(MAX_MOVES, np.int64), label=np.zeros(max(colours, 1), np.int64),
                 inv=np.zeros(length, np.int64), on=np.zeros(levels, np.int8),
                 sig=np.zeros((levels, 1 + max(colours, 1)), np.int64),
                 members=np.zeros((levels, answers), np.int32), path=np.zeros((levels, levels), np.int32),
                 keys=np.zeros((levels, 2), np.uint64))


@njit(cache=True, nogil=True)
def _try_order(glet, canon, path, plen, npat, colours, sig, have):
    """Compare the images of the moves ``path[canon.order[:plen]]`` under every position
    permutation with the least so far (``have``: one is known), keeping a smaller one; return
    whether one is known."""
    order = canon.order
    for t in range(plen - 1):
        if path[order[t]] % npat > path[order[t + 1]] % npat:
            return have  # replies out of order: another order of the moves covers it
    perms = canon.perms
    length = perms.shape[1]
    best = canon.best
    label = canon.label
    inv = canon.inv
    for q in range(perms.shape[0]):
        for p in range(length):
            inv[perms[q, p]] = p
        for c in range(colours):
            label[c] = -1
        fresh = 0
        state = 0 if have else -1  # 0: equal so far; -1: smaller (written over best); 1: larger
        for t in range(plen):
            g = path[order[t]] // npat
            for j in range(length):
                c = glet[g, inv[j]]
                if label[c] < 0:
                    label[c] = fresh
                    fresh += 1
                v = label[c]
                k = t * length + j
                if state == 0:
                    if v > best[k]:
                        state = 1
                        break
                    if v < best[k]:
                        state = -1
                if state == -1:
                    best[k] = v
            if state == 1:
                break
        if state == -1:
            have = True
            sig[0] = q
            for c in range(colours):
                if label[c] < 0:
                    label[c] = fresh
                    fresh += 1
                sig[1 + c] = label[c]
            for t in range(plen):
                canon.border[t] = order[t]
    return have


@njit(cache=True, nogil=True)
def image_row(glet, canon, sig, g, colours):
    """Return the guess row of the image of guess row ``g`` under ``sig`` (-1: not a guess)."""
    perms = canon.perms
    length = perms.shape[1]
    q = sig[0]
    code = 0
    for j in range(length):
        p = 0
        while perms[q, p] != j:
            p += 1
        code = code * colours + sig[1 + glet[g, p]]
    if code >= canon.code_row.shape[0]:
        return -1
    return canon.code_row[code]


@njit(cache=True, nogil=True)
def least_moves(glet, canon, path, plen, npat, colours, sig, out):
    """Write the least image of the moves ``path[:plen]`` (``guess row * npat + reply``, sorted)
    to ``out[:plen]`` and the symmetry reaching it to ``sig``; return False where there are more
    than ``MAX_MOVES`` moves or an image is not a guess."""
    if plen > MAX_MOVES:
        return False
    order = canon.order
    count = canon.count
    for t in range(plen):
        order[t] = t
        count[t] = 0
    have = _try_order(glet, canon, path, plen, npat, colours, sig, np.bool_(False))  # not a literal
    i = 0
    while i < plen:  # Heap's algorithm: every order of the moves once
        if count[i] < i:
            j = 0 if i % 2 == 0 else count[i]
            order[j], order[i] = order[i], order[j]
            have = _try_order(glet, canon, path, plen, npat, colours, sig, have)
            count[i] += 1
            i = 0
        else:
            count[i] = 0
            i += 1
    for t in range(plen):
        m = path[canon.border[t]]
        row = image_row(glet, canon, sig, m // npat, colours)
        if row < 0:
            return False
        out[t] = row * npat + m % npat
    insertion_sort(out, plen)  # sorted, as memo records are
    return True


@njit(cache=True, nogil=True)
def image_members(glet, canon, sig, answer_rows, members, lo, n, colours, out):
    """Write the answer columns of the images of ``members[lo:lo + n]`` under ``sig`` to
    ``out[:n]``; return False if one is not an answer."""
    for i in range(n):
        row = image_row(glet, canon, sig, np.int64(answer_rows[members[lo + i]]), colours)  # as other callers
        if row < 0 or canon.answer_col[row] < 0:
            return False
        out[i] = canon.answer_col[row]
    return True


__all__ = ["MAX_MOVES", "Canon", "image_members", "image_row", "least_moves", "new_canon"]
