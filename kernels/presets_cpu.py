"""CPU kernels (numba) for fixed guess-set strategies: play preset words, then any consistent word.

``square`` is the answers x answers reply matrix (``square[g, a]``: answer ``g`` guessed
against answer ``a``), the consistent guesses' codes. A *bin* is an int32 array of answer
positions (columns of ``square``). The random-consistent player guesses a uniformly random
remaining answer each turn; the kernels give its exact expectations, memoised per answer set
(``setkeys``: found by the XOR of a random 64-bit word per answer, proven by the members).
"""

import numpy as np
from numba import njit, prange, types
from numba.typed import List

from . import preset_bounds, setkeys

_FLOATS = types.float64[::1]


@njit(cache=True)
def split_bin(square, members, guess, n_patterns):
    """Return (order, starts): the members other than ``guess`` grouped by reply to ``guess``.

    ``order[starts[i]:starts[i + 1]]`` is the i-th non-empty group.
    """
    counts = np.zeros(n_patterns + 1, np.int32)
    row = square[guess]
    for a in members:
        if a != guess:
            counts[row[a] + 1] += 1
    groups = 0
    for p in range(n_patterns):
        groups += counts[p + 1] > 0
        counts[p + 1] += counts[p]
    order = np.empty(counts[n_patterns], np.int32)
    fill = counts[:n_patterns].copy()
    for a in members:
        if a != guess:
            order[fill[row[a]]] = a
            fill[row[a]] += 1
    starts = np.empty(groups + 1, np.int32)
    g = 0
    for p in range(n_patterns):
        if counts[p + 1] > counts[p]:
            starts[g] = counts[p]
            g += 1
    starts[groups] = counts[n_patterns]
    return order, starts


@njit(cache=True)
def expected_total(square, members, n_patterns, zobrist, memo):
    """Return the expected sum over ``members`` of guesses a random-consistent player needs."""
    n = members.shape[0]
    if n <= 2:
        return 1.0 if n == 1 else 3.0 * (n == 2)
    sets, values = memo
    h = setkeys.set_hash(members, zobrist)
    e = setkeys.find(sets, members, h, 0, -1)
    if e >= 0:
        return values[e]
    total = 0.0
    for guess in members:
        order, starts = split_bin(square, members, guess, n_patterns)
        for i in range(starts.shape[0] - 1):
            total += expected_total(square, order[starts[i]:starts[i + 1]], n_patterns, zobrist, memo)
    value = n + total / n
    setkeys.store(sets, members, h, 0, len(values))
    values.append(value)
    return value


@njit(cache=True)
def score_histogram(square, members, n_patterns, zobrist, memo):
    """Return h: h[j] = expected number of ``members`` solved by the j-th guess from here (h[0] = 0)."""
    n = members.shape[0]
    if n == 1:
        h = np.zeros(2)
        h[1] = 1.0
        return h
    sets, values = memo
    key = setkeys.set_hash(members, zobrist)
    e = setkeys.find(sets, members, key, 0, -1)
    if e >= 0:
        return values[e]
    h = np.zeros(n + 1)
    for guess in members:
        h[1] += 1.0
        order, starts = split_bin(square, members, guess, n_patterns)
        for i in range(starts.shape[0] - 1):
            sub = score_histogram(square, order[starts[i]:starts[i + 1]], n_patterns, zobrist, memo)
            for j in range(1, sub.shape[0]):
                h[j + 1] += sub[j]
    h /= n
    setkeys.store(sets, members, key, 0, len(values))
    values.append(h)
    return h


@njit(cache=True)
def always_wins(square, members, more, n_patterns):
    """Return whether any consistent guesses solve every member within ``more`` guesses."""
    n = members.shape[0]
    if n <= more:
        return True
    if more <= 1:
        return False
    for guess in members:
        order, starts = split_bin(square, members, guess, n_patterns)
        for i in range(starts.shape[0] - 1):
            if not always_wins(square, order[starts[i]:starts[i + 1]], more - 1, n_patterns):
                return False
    return True


@njit(cache=True)
def preset_bins(codes, preset_rows, answer_rows, n_patterns):
    """Return (order, starts, solved_at): the answers grouped by their replies to the presets.

    Answers that are preset words are left out of the groups; ``solved_at[a]`` is the
    1-based position of answer ``a`` among the presets, or 0. Groups come in the order of
    the reply sequence (first preset's reply most significant).
    """
    n = answer_rows.shape[0]
    k = preset_rows.shape[0]
    solved_at = np.zeros(n, np.int32)
    for i in range(k):
        for a in range(n):
            if solved_at[a] == 0 and preset_rows[i] == answer_rows[a]:
                solved_at[a] = i + 1
    m = 0
    for a in range(n):
        m += solved_at[a] == 0
    order = np.empty(m, np.int32)
    m = 0
    for a in range(n):
        if solved_at[a] == 0:
            order[m] = a
            m += 1
    spare = np.empty(m, np.int32)
    counts = np.empty(n_patterns + 1, np.int32)
    for i in range(k - 1, -1, -1):  # least significant digit first: a stable radix sort
        row = codes[preset_rows[i]]
        counts[:] = 0
        for a in order:
            counts[row[a] + 1] += 1
        for p in range(n_patterns):
            counts[p + 1] += counts[p]
        for a in order:
            spare[counts[row[a]]] = a
            counts[row[a]] += 1
        order, spare = spare, order
    starts = np.empty(m + 1, np.int32)
    groups = 0
    for j in range(m):
        new = j == 0
        if not new:
            for i in range(k):
                if codes[preset_rows[i], order[j]] != codes[preset_rows[i], order[j - 1]]:
                    new = True
                    break
        if new:
            starts[groups] = j
            groups += 1
    starts[groups] = m
    return order, starts[:groups + 1], solved_at


@njit(cache=True)
def total_lower_bound(square, members, n_patterns, seen):
    """Return a lower bound on ``expected_total``: one level exact, then 2m - 1 per sub-bin of m.

    ``seen`` is int64 scratch of ``n_patterns`` entries, all distinct from every member's
    position + 1 on entry.
    """
    n = members.shape[0]
    if n <= 2:
        return 1.0 if n == 1 else 3.0
    branches = 0
    for guess in members:
        row = square[guess]
        stamp = guess + 1
        for a in members:
            if a != guess and seen[row[a]] != stamp:
                seen[row[a]] = stamp
                branches += 1
        for a in members:
            seen[row[a]] = 0
    return n + 2.0 * (n - 1) - branches / n


@njit(cache=True)
def _set_bounds(codes, square, preset_rows, answer_rows, n_patterns, more):
    """Return (lower bound on the total score, always wins, largest bin) of one preset set."""
    order, starts, solved_at = preset_bins(codes, preset_rows, answer_rows, n_patterns)
    k = preset_rows.shape[0]
    bound = 0.0
    for a in range(solved_at.shape[0]):
        bound += solved_at[a]
    wins = True
    biggest = 0
    seen = np.zeros(n_patterns, np.int64)
    for i in range(starts.shape[0] - 1):
        members = order[starts[i]:starts[i + 1]]
        m = members.shape[0]
        biggest = max(biggest, m)
        bound += m * k + total_lower_bound(square, members, n_patterns, seen)
        if wins and not always_wins(square, members, more, n_patterns):
            wins = False
    return bound, wins, biggest


@njit(parallel=True, cache=True)
def set_bounds(codes, square, sets, answer_rows, n_patterns, more, bounds, wins, biggest, threads):
    """Fill, per preset set (rows of ``sets``), a lower bound on its total score, whether it
    always wins within ``more`` consistent guesses, and its largest bin."""
    n = sets.shape[0]
    chunk = (n + threads - 1) // threads
    for t in prange(threads):
        for s in range(t * chunk, min(n, (t + 1) * chunk)):
            b, w, m = _set_bounds(codes, square, sets[s], answer_rows, n_patterns, more)
            bounds[s] = b
            wins[s] = w
            biggest[s] = m


@njit(cache=True)
def set_total(codes, square, preset_rows, answer_rows, n_patterns, zobrist):
    """Return the exact expected total score of one preset set over all answers."""
    order, starts, solved_at = preset_bins(codes, preset_rows, answer_rows, n_patterns)
    memo = new_total_memo()
    k = preset_rows.shape[0]
    total = 0.0
    for a in range(solved_at.shape[0]):
        total += solved_at[a]
    for i in range(starts.shape[0] - 1):
        members = order[starts[i]:starts[i + 1]]
        total += members.shape[0] * k + expected_total(square, members, n_patterns, zobrist, memo)
    return total


@njit(parallel=True, cache=True)
def set_totals(codes, square, sets, answer_rows, n_patterns, zobrist, out, threads):
    """Fill ``out[s]`` with the exact expected total score of preset set ``sets[s]``."""
    n = sets.shape[0]
    chunk = (n + threads - 1) // threads
    for t in prange(threads):
        for s in range(t * chunk, min(n, (t + 1) * chunk)):
            out[s] = set_total(codes, square, sets[s], answer_rows, n_patterns, zobrist)


@njit(cache=True)
def new_histogram_memo():
    """Return an empty memo for ``score_histogram``: (answer sets, the histogram of each)."""
    return setkeys.new_memo(), List.empty_list(_FLOATS)


@njit(cache=True)
def new_total_memo():
    """Return an empty memo for ``expected_total``: (answer sets, the expectation of each)."""
    return setkeys.new_memo(), List.empty_list(types.float64)


@njit(cache=True)
def disjoint_sets(masks, k, most=1 << 62):
    """Return int32 [m, k]: every k-tuple i1 < i2 < ... of words whose letter masks are disjoint,
    in lexicographic order (only the first ``most + 1`` when there are more: the caller can tell
    there were too many)."""
    n = masks.shape[0]
    out = np.empty((1024, k), np.int32)
    count = 0
    fits = np.empty((k, n), np.int32)  # fits[d, :size[d]]: the words disjoint from the d chosen
    size = np.zeros(k, np.int64)
    tried = np.zeros(k, np.int64)
    chosen = np.zeros(k, np.int32)
    fits[0] = np.arange(n)
    size[0] = n
    depth = 0
    while depth >= 0 and count <= most:
        if tried[depth] == size[depth]:
            depth -= 1
            continue
        p = tried[depth]
        tried[depth] += 1
        i = fits[depth, p]
        chosen[depth] = i
        if depth == k - 1:
            if count == out.shape[0]:
                bigger = np.empty((2 * count, k), np.int32)
                bigger[:count] = out
                out = bigger
            out[count] = chosen
            count += 1
            continue
        m = 0
        for q in range(p + 1, size[depth]):
            j = fits[depth, q]
            if not masks[j] & masks[i]:
                fits[depth + 1, m] = j
                m += 1
        depth += 1
        size[depth] = m
        tried[depth] = 0
    return out[:count].copy()


set_bounds_of = njit(cache=True)(preset_bounds.set_bounds_of)


@njit(parallel=True, cache=True)
def set_bounds_flat(codes, square, sets, answer_rows, n_patterns, more, bounds, wins, biggest, threads):
    """``set_bounds`` through the allocation-free rule the CUDA kernel shares
    (``preset_bounds.set_bounds_of``): the same numbers."""
    n = answer_rows.shape[0]
    n_sets = sets.shape[0]
    for t in prange(threads):
        keys = np.empty(n, np.int64)
        buf = np.empty(max(1, more) * n, np.int32)
        seen = np.zeros(n_patterns, np.int64)
        frames = np.empty((max(preset_bounds.MAX_LEVELS, more), 6), np.int64)  # a row per level (more - 1)
        for s in range(t, n_sets, threads):
            b, w, m = set_bounds_of(codes, square, sets, s, answer_rows, n_patterns, more, keys, buf, seen,
                                    frames)
            bounds[s] = b
            wins[s] = w
            biggest[s] = m
