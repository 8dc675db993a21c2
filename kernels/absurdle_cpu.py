"""CPU kernels (numba) for Absurdle: the replier keeps the largest bucket of remaining answers.

``codes`` is the pattern matrix (guess rows x answer columns), ``guesses`` the int32 guess rows
that may be played, ``members`` int32 answer columns. The replier keeps the largest bucket
other than the solved reply (ties: the lowest reply code); the solved reply only when it is
all that is left (the set is the guess itself). A set of answers is *reducible in j* when j
guesses can always bring it down to one answer; the game then takes j + 1 guesses.

Sound rules the search uses (each tested against brute force in ``tests/test_absurdle.py``):

* branches never grow on a subset: a guess gives at most as many distinct replies on a
  subset K of S as on S. So with ``B(S)`` the most replies any guess gives on S, a subset
  of S reducible in t guesses has at most ``B(S) ** t`` answers (each guess keeps at least
  1 / branches of the set), and one guess can split K into singletons only with a guess
  giving at least ``|K|`` replies on S.
* the kept set of a guess is its largest bucket, so guesses are tried smallest kept first;
  a kept set reached by several guesses is tried once; which guess tells a kept set apart
  is found by trying the likeliest first (most replies) and rejecting each guess on a pair
  that collided recently (``KILLERS``) before the full scan, but the guess reported is the
  first in list order, so the line does not depend on the order tried.

``reducible2`` scores the guesses itself (``histogram_cpu.row_stats``); ``reducible2_scored``
takes the scores from the backend's reply statistics (``KEPT``, ``KEPT_REPLY``, ``BRANCHES``).
Sets are found by the XOR of a random 64-bit word per answer column (``zobrist``) and told
apart member by member (``kernels.setkeys``).
"""

import numpy as np
from numba import njit, prange

from . import setkeys
from .histogram_cpu import row_stats
from .stats import BRANCHES, KEPT, KEPT_REPLY, N_STATS


@njit(cache=True)
def absurdle_reply(row, members, n_patterns, solved, hist):
    """Return (reply, kept members): the replier keeps the largest bucket (ties: lowest reply;
    the solved reply only when it is the only one). ``hist`` is zeroed scratch, left zero."""
    for a in members:
        hist[row[a]] += 1
    best = -1
    size = 0
    for p in range(n_patterns):
        if p != solved and hist[p] > size:
            best = p
            size = hist[p]
    if best < 0:
        best = solved
        size = hist[solved]
    for a in members:
        hist[row[a]] = 0
    kept = np.empty(size, np.int32)
    j = 0
    for a in members:
        if row[a] == best:
            kept[j] = a
            j += 1
    return best, kept


@njit(cache=True)
def kept_sets(codes, guesses, members, picks, reply, zobrist):
    """Return (flat, starts, hashes): the kept set of each guess ``guesses[picks[j]]`` (members
    whose reply is ``reply[picks[j]]``), concatenated, and each set's hash (``setkeys``)."""
    total = 0
    for j in range(picks.shape[0]):
        row = codes[guesses[picks[j]]]
        r = reply[picks[j]]
        for a in members:
            total += row[a] == r
    flat = np.empty(total, np.int32)
    starts = np.empty(picks.shape[0] + 1, np.int64)
    hashes = np.empty(picks.shape[0], np.int64)
    pos = 0
    for j in range(picks.shape[0]):
        starts[j] = pos
        row = codes[guesses[picks[j]]]
        r = reply[picks[j]]
        for a in members:
            if row[a] == r:
                flat[pos] = a
                pos += 1
        hashes[j] = setkeys.set_hash(flat[starts[j]:pos], zobrist)
    starts[picks.shape[0]] = pos
    return flat, starts, hashes


KILLERS = 16
"""Pairs of answers remembered per set as the last ones no guess told apart (killer heuristic)."""


@njit(cache=True)
def _collision(row, sub, m, seen, who, stamp):
    """Return the positions (i, j) of two members of ``sub[:m]`` a guess row gives the same
    reply, or (-1, -1) when it tells all apart (``seen`` never holds ``stamp`` on entry)."""
    for i in range(m):
        c = row[sub[i]]
        if seen[c] == stamp:
            return who[c], i
        seen[c] = stamp
        who[c] = i
    return -1, -1


@njit(cache=True)
def _split_apart_by(codes, guesses, order, branches, sub, m, seen, who, stamp, killers):
    """Return (position in ``guesses`` of the first guess in ``order`` telling every member of
    ``sub[:m]`` apart, or -1; the next free stamp). Only guesses with at least m branches over
    a superset can (``order`` is by branches, most first). Pairs that collided recently are
    tried first (``killers``, scratch (KILLERS, 2))."""
    nk = 0
    slot = 0
    for q in range(order.shape[0]):
        g = order[q]
        if branches[g] < m:
            break
        row = codes[guesses[g]]
        killed = False
        for t in range(nk):
            if row[sub[killers[t, 0]]] == row[sub[killers[t, 1]]]:
                killed = True
                if t > 0:
                    a = killers[t - 1, 0]
                    b = killers[t - 1, 1]
                    killers[t - 1, 0] = killers[t, 0]
                    killers[t - 1, 1] = killers[t, 1]
                    killers[t, 0] = a
                    killers[t, 1] = b
                break
        if killed:
            continue
        stamp += 1
        i, j = _collision(row, sub, m, seen, who, stamp)
        if i < 0:
            return g, stamp
        if nk < KILLERS:
            t = nk
            nk += 1
        else:
            t = KILLERS - 1 - slot
            slot = (slot + 1) % (KILLERS // 2)
        killers[t, 0] = i
        killers[t, 1] = j
    return -1, stamp


@njit(cache=True)
def _reducible2(codes, guesses, members, lo, hi, kept, reply, branches, zobrist, seen, who, stamp0,
                killers):
    """Return (g2, g3) positions in ``guesses`` reducing ``members[lo:hi]`` (at least two
    answers) to one answer in two guesses, or (-1, -1), and the next free stamp; ``kept``,
    ``reply`` and ``branches`` are the set's own scores, stamps in ``seen`` run from ``stamp0``."""
    n = hi - lo
    ng = guesses.shape[0]
    most = 0
    for i in range(ng):
        most = max(most, branches[i])
    stamp = stamp0
    # the kept set must be told apart by one guess: at most ``most`` answers
    cand = np.empty(ng, np.int64)
    nc = 0
    for i in range(ng):
        if kept[i] < n and kept[i] <= most:
            cand[nc] = kept[i] * ng + i
            nc += 1
    cand = np.sort(cand[:nc])
    by_branches = np.argsort(-branches, kind="mergesort")
    # the kept sets, back to back; the same set from several guesses is tried once (first
    # guess kept; ``setkeys.first_of_each``: hashes, checked member by member)
    starts = np.empty(nc + 1, np.int64)
    starts[0] = 0
    for c in range(nc):
        starts[c + 1] = starts[c] + kept[cand[c] % ng]
    flat = np.empty(starts[nc], np.int32)
    hashes = np.empty(nc, np.int64)
    for c in range(nc):
        i = cand[c] % ng
        row = codes[guesses[i]]
        r = reply[i]
        pos = starts[c]
        for q in range(lo, hi):
            if pos < starts[c + 1] and row[members[q]] == r:
                flat[pos] = members[q]
                pos += 1
        hashes[c] = setkeys.set_hash(flat[starts[c]:pos], zobrist)
    first = setkeys.first_of_each(flat, starts, hashes)
    for c in range(nc):
        if not first[c]:
            continue
        i = cand[c] % ng
        if kept[i] <= 1:
            return i, -1, stamp
        sub = flat[starts[c]:starts[c + 1]]
        m = sub.shape[0]
        g3, stamp = _split_apart_by(codes, guesses, by_branches, branches, sub, m, seen, who, stamp,
                                    killers)
        if g3 >= 0:  # report the first such guess in list order (the same whatever the order tried)
            for q in range(ng):
                stamp += 1
                if _collision(codes[guesses[q]], sub, m, seen, who, stamp)[0] < 0:
                    return i, q, stamp
    return -1, -1, stamp


@njit(parallel=True, cache=True)
def reducible2(codes, guesses, flat, starts, zobrist, n_patterns, solved, found, threads):
    """Fill ``found[s] = (g2, g3)``, positions in ``guesses`` that bring set s (at least two
    answers) to one answer in two guesses, or (-1, -1) when none do (g3 = -1: g2 alone does)."""
    ng = guesses.shape[0]
    n_sets = starts.shape[0] - 1
    for t in prange(threads):
        hist = np.zeros((4, n_patterns), np.int32)
        acc = np.zeros(N_STATS, np.int64)
        unused = np.zeros(1, np.int64)  # the sums' tables: no sums asked for
        seen = np.zeros(n_patterns, np.int64)
        who = np.zeros(n_patterns, np.int64)
        killers = np.zeros((KILLERS, 2), np.int64)
        kept = np.empty(ng, np.int64)
        reply = np.empty(ng, np.int64)
        branches = np.empty(ng, np.int64)
        stamp = 0
        for s in range(t, n_sets, threads):
            lo = starts[s]
            hi = starts[s + 1]
            for i in range(ng):
                row_stats(codes[guesses[i]], flat, lo, hi, n_patterns, solved, False, unused, unused, hist,
                          acc)
                kept[i] = acc[KEPT]
                reply[i] = acc[KEPT_REPLY]
                branches[i] = acc[BRANCHES]
            g2, g3, stamp = _reducible2(codes, guesses, flat, lo, hi, kept, reply, branches, zobrist,
                                        seen, who, stamp, killers)
            found[s, 0] = g2
            found[s, 1] = g3


@njit(parallel=True, cache=True)
def reducible2_scored(codes, guesses, flat, starts, kept, reply, branches, zobrist, n_patterns, found,
                      threads):
    """``reducible2`` with each set's scores given (rows of ``kept``, ``reply``, ``branches``)."""
    n_sets = starts.shape[0] - 1
    for t in prange(threads):
        seen = np.zeros(n_patterns, np.int64)
        who = np.zeros(n_patterns, np.int64)
        killers = np.zeros((KILLERS, 2), np.int64)
        stamp = 0
        for s in range(t, n_sets, threads):
            g2, g3, stamp = _reducible2(codes, guesses, flat, starts[s], starts[s + 1], kept[s],
                                        reply[s], branches[s], zobrist, seen, who, stamp, killers)
            found[s, 0] = g2
            found[s, 1] = g3
