"""CPU kernels (numba) that grow greedy guess trees: every node, the guess minimizing a metric.

A metric is given to the kernels as a ``Metric`` of integers only, so ties are exact and break by
pool order:

* ``kind`` ``SUM``: the key of a guess is ``sum(gain[n_b])`` over its non-empty
  branches b (sizes n_b); ``delta[h] = gain[h + 1] - gain[h]`` lets the scan add one answer at
  a time. ``KMAX``: the key is ``sign * max(n_b)``.
* ``exclude_solved``: the solved branch (the guess itself, when it may be the answer) is left
  out of the sum (the win-count metrics).
* ``has_floor``: see ``best_guess``.
* ``prunable``: the key can only grow as answers are added (``delta >= 0``, or ``KMAX`` with
  ``sign > 0``), so a scan stops as soon as it reaches the best key so far.

The one exception, for reproducing seed 001 (``--ties seed-001``): ``SEED_EXPECTATION`` and
``SEED_ENTROPY`` compute that notebook's Python float key (``seed_key``), whose rounding breaks
some exact ties; nothing is pruned there.

A guess that leaves every answer of a node in one branch makes no progress and is never
chosen. Modes: ``NORMAL`` (any guess; free guesses only where ``free_min < n <= free_max``, else
the node's answers), ``HARD`` (the same, the free pool filtered by the hard-mode rule of
``kernels.hardmode`` along the path) and ``CONSISTENT`` (the node's answers, in answer order).

Every kernel reads the reply codes answer-major, ``mat[answer, guess]`` (the pattern matrix
transposed): a scan over guesses in ascending order then reuses each cache line of each
answer's row for many guesses, where the guess-major matrix would miss on nearly every read.

Trees come back as flat element arrays in depth-first order (children by ascending reply
code): ``guess`` (guess row; a leaf's row is its answer's), ``parent`` (element index, -1 at
the top), ``reply`` (code on the edge from the parent, -1 at the top), ``size`` (answers
covered; 1 = a leaf word). Scores come back as a histogram: ``hist[k]`` answers need k guesses.
"""

import math
from collections import namedtuple

import numpy as np
from numba import njit, prange

from .hardmode import SCRATCH
from .hardmode_cpu import hard_filter
from .squares_cpu import node_parts, squares_bounds

NORMAL, HARD, CONSISTENT = 0, 1, 2
SUM, KMAX, SEED_EXPECTATION, SEED_ENTROPY = 0, 1, 2, 3
BIG = np.int64(1) << 62
"""A key no guess reaches (greedy keys are fixed-point sums, ``2**FIXED_POINT_BITS`` a unit: far
above ``INF``, which is a count of guesses)."""
NO_BOUNDS = np.zeros(0, np.int64)

Metric = namedtuple("Metric", "kind sign gain delta prunable exclude_solved has_floor")
"""A metric as the kernels take it: ``kind`` (SUM, KMAX or a seed float key), ``sign``, the gain
table and its differences, and the flags described above."""

Plan = namedtuple("Plan", "mat enc counts kind colours answer_rows mode free_max free_min n_patterns solved "
                          "squares_min parts")
"""What every tree of a run shares besides its ``Metric``: the answer-major matrix, the guesses'
letters (``enc``, ``counts``) and the game (``kind``, ``colours``), answer rows, mode, the
free-guess range, replies, and the squares bound's threshold and parts (``squares_min`` answers
and more; callers set it only for the entropy key of Wordle games). (No tuple inside: numba's
parallel loops do not take nested tuples.)"""

Tasks = namedtuple("Tasks", "cols col_off path_guess path_reply path_off depth0 start thread_tasks "
                            "thread_off")
"""Trees to grow: task i's answer columns ``cols[col_off[i]:col_off[i + 1]]``, the moves before its
root ``path_guess``/``path_reply[path_off[i]:path_off[i + 1]]``, its root's guess number
``depth0[i]`` and fixed first guess (``start[i]``, -1: chosen); thread t takes the tasks
``thread_tasks[thread_off[t]:thread_off[t + 1]]``."""

Elements = namedtuple("Elements", "guess parent reply size")
"""A tree's flat element arrays (see above)."""


@njit(cache=True)
def best_guess(flat, pool, p0, p1, off, m, hist, solved, metric, bar, bounds):
    """Return (key, position in pool) of the best guess among ``pool[p0:p1]`` (first on ties)
    with a key below ``bar`` (else (``bar``, -1)) by the ``Metric`` over the ``m`` answers whose
    rows start at ``off[:m]`` (uint64) in ``flat`` (the answer-major matrix, flattened): a guess's
    codes are ``flat[off[k] + g]``.

    ``bounds``, when not empty, holds a lower bound on the key of every pool position: a guess
    whose bound reaches the best key so far is not read at all (``prunable`` metrics).

    A guess's scan stops once its partial key reaches the best key so far (``prunable``
    metrics), checked once every four answers; a guess that leaves every answer in one branch
    gets ``BIG``. With ``has_floor`` no key is below ``m * gain[1]`` (a convex gain, zero at 0)
    or ``ceil(m / patterns)`` (max), so the scan stops at the first guess that reaches it.

    ``hist`` (int64, ``n_patterns``) is a stamped histogram: bin c holds ``base + count`` for
    the guess being scanned, and anything at or below ``base`` reads as 0, so moving ``base``
    past the last guess's entries empties it without a reset. The scan is written out here,
    not in a helper: the same loop in a function (even inlined) ran 4x slower on small nodes.
    """
    metric_kind, sign, gain, delta, prunable, exclude_solved, has_floor = metric
    best = bar
    where = -1
    bounded = prunable and bounds.shape[0] > 0
    floor = -BIG
    if has_floor:
        floor = (m + hist.shape[0] - 1) // hist.shape[0] if metric_kind == KMAX else m * gain[1]
    hist[:] = 0
    base = np.int64(0)
    m4 = m - (m & 3)
    for p in range(p0, p1):
        if bounded and bounds[p] >= best:
            continue
        g = np.uint64(pool[p])  # unsigned offsets: no negative-index wraparound in the loads
        lim = best if prunable else BIG
        acc = np.int64(0)
        k = 0
        if metric_kind == SUM:
            while k < m4:
                c = flat[off[k] + g]
                v = hist[c] - base
                h = v if v > 0 else 0
                hist[c] = base + h + 1
                acc += delta[np.uint64(h)]
                c = flat[off[k + 1] + g]
                v = hist[c] - base
                h = v if v > 0 else 0
                hist[c] = base + h + 1
                acc += delta[np.uint64(h)]
                c = flat[off[k + 2] + g]
                v = hist[c] - base
                h = v if v > 0 else 0
                hist[c] = base + h + 1
                acc += delta[np.uint64(h)]
                c = flat[off[k + 3] + g]
                v = hist[c] - base
                h = v if v > 0 else 0
                hist[c] = base + h + 1
                acc += delta[np.uint64(h)]
                k += 4
                if acc >= lim:
                    break
            if acc < lim:
                while k < m:
                    c = flat[off[k] + g]
                    v = hist[c] - base
                    h = v if v > 0 else 0
                    hist[c] = base + h + 1
                    acc += delta[np.uint64(h)]
                    k += 1
        else:
            while k < m4:
                c = flat[off[k] + g]
                v = hist[c] - base
                h = v + 1 if v > 0 else 1
                hist[c] = base + h
                acc = max(acc, h)
                c = flat[off[k + 1] + g]
                v = hist[c] - base
                h = v + 1 if v > 0 else 1
                hist[c] = base + h
                acc = max(acc, h)
                c = flat[off[k + 2] + g]
                v = hist[c] - base
                h = v + 1 if v > 0 else 1
                hist[c] = base + h
                acc = max(acc, h)
                c = flat[off[k + 3] + g]
                v = hist[c] - base
                h = v + 1 if v > 0 else 1
                hist[c] = base + h
                acc = max(acc, h)
                k += 4
                if acc >= lim:
                    break
            if acc < lim:
                while k < m:
                    c = flat[off[k] + g]
                    v = hist[c] - base
                    h = v + 1 if v > 0 else 1
                    hist[c] = base + h
                    acc = max(acc, h)
                    k += 1
            acc = sign * acc  # a cut scan has sign 1 (only then is max prunable)
        if acc < lim:  # a complete scan
            if m > 1 and hist[flat[off[m - 1] + g]] - base == m:
                acc = BIG
            elif exclude_solved:
                v = hist[solved] - base
                acc -= gain[v if v > 0 else 0]
        base += m + 1
        if acc < best:
            best = acc
            where = p
            if best <= floor:
                break
    return best, where


@njit(cache=True)
def best_guess_squares(flat, pool, p_end, off, m, hist, solved, metric, letters, counts, parts, answer_rows,
                       order, lo):
    """Return ``best_guess``'s (key, position) over ``pool[:p_end]`` for the entropy key of a Wordle
    game, reading only the guesses the squares bound (``kernels.squares_cpu``) does not rule out.

    The node's answers are columns ``order[lo:lo + m]``; ``parts`` is ``guess_parts`` of the
    guesses. The guess with the least bound is keyed first, so that the scan in pool order starts
    with a bar near the best key.
    """
    if p_end == 0:
        return BIG, -1
    table, whole = node_parts(letters, counts, answer_rows, order, lo, lo + m)
    bounds = np.empty(p_end, np.int64)
    seed = squares_bounds(parts, pool, p_end, table, whole, m, bounds)
    key, _ = best_guess(flat, pool, seed, seed + 1, off, m, hist, solved, metric, BIG, NO_BOUNDS)
    return best_guess(flat, pool, 0, p_end, off, m, hist, solved, metric, min(key + 1, BIG), bounds)


@njit(cache=True)
def seed_key(flat, g, off, m, counts, seen, metric_kind):
    """Return seed 001's float key of guess ``g`` over the ``m`` answers whose rows start at
    ``off[:m]``: the sum over its branches (sizes n, p = n / m) of ``p * n`` (expectation) or
    ``p * log2(p)`` (entropy), added left to right in the order the replies first occur among
    the answers, as Python (up to 3.11) sums a ``Counter``'s values; ``inf`` when every answer is
    in one branch.

    ``counts`` (int64, one per reply code) must be all zero and is left so; ``seen`` is scratch.
    """
    found = 0
    for k in range(m):
        c = flat[off[k] + g]
        if counts[c] == 0:
            seen[found] = c
            found += 1
        counts[c] += 1
    key = 0.0
    for i in range(found):
        n = counts[seen[i]]
        counts[seen[i]] = 0
        p = n / m
        key += p * n if metric_kind == SEED_EXPECTATION else p * math.log2(p)
    return np.inf if found == 1 else key


@njit(cache=True)
def best_seed_guess(flat, pool, p0, p1, off, m, counts, seen, metric_kind):
    """Return (key, position in pool) of the guess of ``pool[p0:p1]`` with the least ``seed_key``
    (first on ties)."""
    best = np.inf
    where = -1
    for p in range(p0, p1):
        key = seed_key(flat, np.uint64(pool[p]), off, m, counts, seen, metric_kind)
        if key < best:
            best = key
            where = p
    return best, where


@njit(cache=True)
def row_offsets(cols, lo, hi, n_guesses, off):
    """Write ``off[k] = cols[lo + k] * n_guesses`` (where each answer's row starts in the flat matrix)."""
    for k in range(lo, hi):
        off[k - lo] = cols[k] * n_guesses


@njit(parallel=True, cache=True)
def best_guess_parallel(mat, pool, cols, lo, hi, n_patterns, solved, metric, threads):
    """Return the pool position of the best guess by the ``Metric`` over ``cols[lo:hi]``, scanning in
    ``threads`` chunks."""
    n = pool.shape[0]
    chunk = (n + threads - 1) // threads
    keys = np.full(threads, BIG, np.int64)
    where = np.full(threads, -1, np.int64)
    flat = mat.reshape(mat.size)
    m = hi - lo
    off = np.empty(m, np.uint64)
    row_offsets(cols, lo, hi, mat.shape[1], off)
    seed_keys = np.full(threads, np.inf)
    for t in prange(threads):
        hist = np.zeros(n_patterns, np.int64)
        lo_t, hi_t = t * chunk, min(n, (t + 1) * chunk)
        if metric.kind >= SEED_EXPECTATION:
            seen = np.empty(n_patterns, np.int64)
            seed_keys[t], where[t] = best_seed_guess(flat, pool, lo_t, hi_t, off, m, hist, seen,
                                                     metric.kind)
        else:
            keys[t], where[t] = best_guess(flat, pool, lo_t, hi_t, off, m, hist, solved, metric, BIG,
                                           NO_BOUNDS)
    best = 0
    for t in range(threads):  # one of the two key arrays was filled, the other is all at its top
        if keys[t] < keys[best] or seed_keys[t] < seed_keys[best]:
            best = t
    return where[best]



# the stack of pending subtrees: one row each
LO, HI, DEPTH, PARENT, REPLY, PGUESS = range(6)


@njit(cache=True)
def _root_pools(plan, n, path_guess, path_reply, depth0, scratch):
    """Return the hard-mode pools, one level per guess number stored back to back (``pools``,
    ``lvl_off``, ``lvl_len``), with the root's: every guess the moves before it allow (none
    outside hard mode, or where no node has more than ``free_min`` answers)."""
    n_guesses = plan.mat.shape[1]
    levels = n + depth0 + 2
    lvl_off = np.zeros(levels + 1, np.int64)
    lvl_len = np.zeros(levels + 1, np.int64)
    pools = np.empty(0, np.int64)
    if plan.mode == HARD and n > plan.free_min:
        pools = np.empty(4 * n_guesses, np.int64)
        m = n_guesses
        pools[:m] = np.arange(n_guesses)
        for i in range(path_guess.shape[0]):
            m = hard_filter(plan.kind, plan.enc.shape[1], plan.colours, plan.enc, plan.counts, pools, m,
                            path_guess[i], path_reply[i], pools, scratch)
        lvl_off[depth0] = 0
        lvl_len[depth0] = m
    return pools, lvl_off, lvl_len


@njit(cache=True)
def _child_pool(plan, pools, lvl_off, lvl_len, d, pguess, reply, scratch):
    """Fill the hard-mode pool of a node at guess number ``d`` (its parent guessed ``pguess`` and got
    ``reply``) after its parent's; return the pools (grown when full)."""
    off = lvl_off[d - 1] + lvl_len[d - 1]
    if off + lvl_len[d - 1] > pools.shape[0]:
        bigger = np.empty(2 * pools.shape[0] + lvl_len[d - 1], np.int64)
        bigger[:off] = pools[:off]
        pools = bigger
    lvl_off[d] = off
    lvl_len[d] = hard_filter(plan.kind, plan.enc.shape[1], plan.colours, plan.enc, plan.counts,
                             pools[lvl_off[d - 1]:], lvl_len[d - 1], pguess, reply, pools[off:], scratch)
    return pools


@njit(cache=True)
def _split(mat, order, lo, hi, guess, bins, spare):
    """Partition ``order[lo:hi]`` (answer columns) by their reply to ``guess``, stably; leave in
    ``bins[c]`` the end of bucket c (relative to ``lo``)."""
    bins[:] = 0
    for k in range(lo, hi):
        bins[mat[order[k], guess] + 1] += 1
    for c in range(bins.shape[0] - 1):
        bins[c + 1] += bins[c]
    for k in range(lo, hi):
        c = mat[order[k], guess]
        spare[bins[c]] = order[k]
        bins[c] += 1
    order[lo:hi] = spare[:hi - lo]


@njit(cache=True)
def _write(out, e, guess, parent, reply, size):
    """Write element ``e`` of a tree."""
    out.guess[e] = guess
    out.parent[e] = parent
    out.reply[e] = reply
    out.size[e] = size


@njit(cache=True)
def _push_buckets(stack, sp, lo, bins, d, parent, guess):
    """Push the non-empty buckets of a node (``bins`` from ``_split``), highest reply first; return
    the new stack size."""
    for c in range(bins.shape[0] - 2, -1, -1):
        begin = bins[c - 1] if c > 0 else 0
        if bins[c] > begin:
            stack[sp, LO] = lo + begin
            stack[sp, HI] = lo + bins[c]
            stack[sp, DEPTH] = d + 1
            stack[sp, PARENT] = parent
            stack[sp, REPLY] = c
            stack[sp, PGUESS] = guess
            sp += 1
    return sp


@njit(cache=True)
def grow_tree(plan, metric, cols, path_guess, path_reply, depth0, start, out, scores, write):
    """Grow the greedy tree over answer columns ``cols`` whose root is guess number ``depth0`` after
    the moves ``path_guess``/``path_reply``; return the number of elements written.

    ``start`` (a guess row, or -1) fixes the root's guess. ``scores[k]`` is increased by the
    answers that need k guesses. Elements are written to ``out`` (``Elements``) only when
    ``write``. Nodes of at least ``plan.squares_min`` answers are scanned by ``best_guess_squares``.
    """
    mat, answer_rows, solved = plan.mat, plan.answer_rows, plan.solved
    n = cols.shape[0]
    n_guesses = mat.shape[1]
    order = cols.astype(np.int64)
    spare = np.empty(n, np.int64)
    row_at = np.empty(n, np.uint64)
    flat = mat.reshape(mat.size)
    hist = np.zeros(plan.n_patterns, np.int64)
    seen = np.empty(plan.n_patterns, np.int64)
    bins = np.zeros(plan.n_patterns + 1, np.int64)
    answers_pool = np.empty(n, np.int64)
    all_rows = np.arange(n_guesses)
    scratch = np.zeros(SCRATCH, np.int64)
    pools, lvl_off, lvl_len = _root_pools(plan, n, path_guess, path_reply, depth0, scratch)
    stack = np.empty((2 * n + 2, 6), np.int64)
    stack[0, LO], stack[0, HI], stack[0, DEPTH] = 0, n, depth0
    stack[0, PARENT], stack[0, REPLY], stack[0, PGUESS] = -1, -1, -1
    sp = 1
    elems = 0
    while sp > 0:
        sp -= 1
        lo, hi, d = stack[sp, LO], stack[sp, HI], stack[sp, DEPTH]
        parent, reply = stack[sp, PARENT], stack[sp, REPLY]
        m = hi - lo
        if m == 1:
            scores[d - 1 if reply == solved else d] += 1
            if write:
                _write(out, elems, answer_rows[order[lo]], parent, reply, 1)
            elems += 1
            continue
        if plan.mode == HARD and m > plan.free_min and d > depth0:  # needed below it then
            pools = _child_pool(plan, pools, lvl_off, lvl_len, d, stack[sp, PGUESS], reply, scratch)
        if d == depth0 and start >= 0:
            guess = start
        else:
            free = plan.mode != CONSISTENT and plan.free_min < m <= plan.free_max
            if free and plan.mode == NORMAL:
                pool = all_rows
                p_end = n_guesses
            elif free:
                pool = pools[lvl_off[d]:lvl_off[d] + lvl_len[d]]
                p_end = lvl_len[d]
            else:
                for k in range(lo, hi):
                    answers_pool[k - lo] = answer_rows[order[k]]
                pool = answers_pool
                p_end = m
            row_offsets(order, lo, hi, n_guesses, row_at)
            if metric.kind >= SEED_EXPECTATION:
                _seed_key, where = best_seed_guess(flat, pool, 0, p_end, row_at, m, hist, seen, metric.kind)
            elif m >= plan.squares_min:
                _key, where = best_guess_squares(flat, pool, p_end, row_at, m, hist, solved, metric, plan.enc,
                                                 plan.counts, plan.parts, answer_rows, order, lo)
            else:
                _key, where = best_guess(flat, pool, 0, p_end, row_at, m, hist, solved, metric, BIG,
                                         NO_BOUNDS)
            guess = pool[where]
        _split(mat, order, lo, hi, guess, bins, spare)
        if write:
            _write(out, elems, guess, parent, reply, m)
        sp = _push_buckets(stack, sp, lo, bins, d, elems, guess)
        elems += 1
    return elems


@njit(parallel=True, cache=True)
def grow_forest(plan, metric, tasks, out, out_off, out_count, scores, write, threads):
    """Grow one greedy tree per task (``Tasks``), ``threads`` threads each taking its tasks.

    Task i writes its elements to ``out`` (``Elements``) from ``out_off[i]`` (when ``write``), their
    number to ``out_count[i]`` and its score histogram to ``scores[i]``.
    """
    for t in prange(threads):
        for j in range(tasks.thread_off[t], tasks.thread_off[t + 1]):
            i = tasks.thread_tasks[j]
            a = out_off[i]
            p0, p1 = tasks.path_off[i], tasks.path_off[i + 1]
            mine = Elements(out.guess[a:], out.parent[a:], out.reply[a:], out.size[a:])
            out_count[i] = grow_tree(plan, metric, tasks.cols[tasks.col_off[i]:tasks.col_off[i + 1]],
                                     tasks.path_guess[p0:p1], tasks.path_reply[p0:p1], tasks.depth0[i],
                                     tasks.start[i], mine, scores[i], write)
