"""The exact optimal-tree search (numba): V(S, d) by branch and bound with a memo.

``V(S, d)`` is the least total number of guesses, summed over the answers of the set ``S``,
of a strategy that finds every answer of ``S`` within ``d`` more guesses (``INF`` if none
exists). For a guess ``g`` with reply buckets ``B_p``: ``cost(g) = |S| + sum of V(B_p, d-1)``
over the unsolved replies, and ``V`` is the least cost over the allowed guesses.

Every call ``_node(..., beta)`` returns the exact ``V`` when it is below ``beta``, and
otherwise a proven lower bound that is at least ``beta`` (fail-soft branch and bound).
What makes it fast, every step admissible (nothing that could change a value is cut):

* closed forms: ``n = 1 -> 1``, ``n = 2 -> 3``, ``d = 1`` with ``n > 1`` -> ``INF``;
  ``d = 2`` -> ``2n - 1`` / ``2n`` / ``INF`` by whether a guess splits ``S`` into singletons.
* the bucket bound: every answer of an unsolved bucket of ``m`` answers needs at least
  ``2m - 1`` more guesses in all, so ``cost(g) >= 3n - s - B`` with ``B`` the number of
  distinct replies and ``s = 1`` when ``g`` is in ``S``: most guesses are rejected from
  their reply counts alone. A guess that splits ``S`` into singletons is optimal at once.
* the level bound (``kernels.levels``): with at most ``k`` unsolved replies per guess, a set
  of ``m`` answers costs at least the levels of a ``k``-ary tree filled in order (and cannot
  be done in ``d`` guesses once they cannot hold it); a guess with ``B`` unsolved replies,
  at least ``n`` plus the levels of a forest of ``B`` such trees. ``k`` is the game's most
  (``params[P_BRANCH]``) for a node's own set, and below it the most distinct replies any
  guess gives on the node's set (every bucket is a subset of it).
* guesses are kept per subtree only once per distinct reply vector over ``S`` (two guesses
  with the same replies on ``S`` have the same replies on every subset and equal costs;
  normal mode), and a guess that does not split ``S`` and is not in it is dropped for the
  whole subtree (it only wastes a guess, in every mode).
* branch and bound: guesses by increasing bound, the best cost so far (or ``beta``) as the
  cutoff, the bucket loop abandoned once the partial sum plus the bounds of the rest reach it.
* a memo (set-associative, bounded), holding exact values with their best guess, and proven
  lower bounds, each with the work it took (nodes plus reply cells scanned in its subtree).
  Two 64-bit Zobrist hashes of the set and the depth only *find* an entry; what proves it is
  the entry's own record: its depth, its size and the moves (guess, reply) that led to it from
  the search's root set ``R`` (every node's set is exactly the answers of ``R`` consistent with
  its moves). In normal and consistent mode the set is proven equal when every member is
  consistent with the entry's moves and the sizes agree, so an entry serves every path to its
  set. In hard mode the allowed list depends on the moves too: for Wordle it is fixed by the
  moves' combined rule (the green letter of each position, the least count of each revealed
  letter), which the entry records and a lookup compares, so entries still serve other paths
  (and other start words); for the other games the same moves (in any order) are required.
  The rule (or the moves) keys the entry in place of the list. In a code game whose lists
  are symmetric (normal and consistent mode, the root set every code), a set of at least
  ``canon.min_size[0]`` answers is also looked up, and stored, as its image under the
  symmetry that makes its moves least (``kernels.canonical_cpu``), with the image's moves as
  its record: one entry serves every set whose moves are symmetric images of each other.
  An entry means the same thing in every search over the same game, lists, mode and root set
  (a true V or a true lower bound, whatever the caller's ``beta``), so a run store keeps the
  costly ones and ``memo_preload`` puts them back (``gpusolve.runs.subproblems``).
  ``params[P_COLLIDE]`` is the test hook that gives every set the same keys, so that every
  lookup is a hash collision.

Modes: 0 normal (any guess of the input list), 1 hard (the list shrinks with each reply:
NYT rule for Wordle, "would have given every reply so far" for the other games),
2 consistent (guesses are the answers still possible).

Arrays of a workspace (one per worker thread; the kernels release the GIL):
``sets[level, :]`` answer columns (a node at ``level`` owns a range of row ``level`` and
partitions it into the same range of row ``level + 1``), ``cand[level, :ncand[level]]`` the
input guess rows of a node at ``level``, ``surv`` survivors of a node's scan, per-level bucket
tables, and the memo arrays. ``params`` and ``stats`` layouts are the P_* / S_* constants.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from . import hardmode_cpu
from .bounds_cpu import level_bound
from .canonical_cpu import image_members, image_row, least_moves
from .hardmode import RULE
from .hardmode import SCRATCH as RULE_SCRATCH
from .replies import SCRATCH
from .sorting import insertion_sort
from .symmetry_cpu import mark_classes

Shared = namedtuple("Shared", "codes answer_rows zob1 zob2 glet gcnt genc zob32")
"""The arrays every worker reads: the reply matrix, answer rows, Zobrist hashes, words' letters."""

Scratch = namedtuple(
    "Scratch",
    "params cmat cmatT stride cols glob arow tarow rowg cand ncand lbs keys mark cnt inset inpos dd_stamp "
    "dd_idx hv veq vpairs vfirst vhash tmpT ident bcode bstart bsize blb scratch stats stop sym path rule "
    "rscratch canon",
)
"""One worker's arrays: parameters (with its memo's mask), per-level matrices, bucket tables,
counters, the stop flag (see the module docstring), the symmetry state (``symmetry_cpu.Sym``:
with it on, one guess per class under the symmetries fixing the history is tried) and the
moves from the root set (``path[:params[P_PATH0] + level]``, each ``guess row * replies + reply``),
with room for a set's combined hard-mode rule (``rule``, Wordle) and the scratch it is made in,
and the state of the sets' least images (``canonical_cpu.Canon``)."""

Memo = namedtuple("Memo", "mk1 mk2 mval mguess mflag msize mwork mdepth mlen mpath mrule")
"""One worker's memo table: keys, value, best guess, flag, set size and work per slot, and what
proves a slot's set: its depth, its moves from the root set (``mpath[i, :mlen[i]]``, sorted) and
in Wordle's hard mode their combined rule (``mrule[i]``; no columns otherwise)."""

from .config import INF  # noqa: E402  (the value of an infeasible set)

NORMAL, HARD, CONSISTENT = 0, 1, 2

# params (int64)
(P_MODE, P_SOLVED, P_NPAT, P_KIND, P_LENGTH, P_COLOURS, P_MEMO_MASK, P_VECTOR_MAX, P_PATH0,
 P_COLLIDE, P_BRANCH) = range(11)
N_PARAMS = 11
# stats (int64)
S_NODES, S_STAMP, S_BEST, S_MEMO_HITS, S_MEMO_STORES, S_SCANNED, S_EVALUATED = range(7)
S_STORE_HITS = 24
"""Memo hits on preloaded entries (8 + d and 16 + d count per depth, 14 and 15 are diagnostics)."""
N_STATS = 32

KEY_MAX = (1 << 31) - 1
"""The largest bound a guess's sort key holds (above it, INF included, keys tie)."""

EMPTY, LOWER, EXACT = 0, 1, 2
WAYS = 4
"""Memo slots per hash bucket (the least valuable one, by set size, is replaced)."""

VECTOR_MAX = 128
"""Default largest set scanned by pairwise reply comparisons vectorized over the guesses
(normal mode); larger sets and the other modes count replies guess by guess."""

_GOLD = np.uint64(0x9E3779B97F4A7C15)
_MIX = np.uint64(0xBF58476D1CE4E5B9)


@njit(cache=True, nogil=True, inline="always")
def _memo_key(h1, h2, d, params):
    """Return the two memo keys of a set hash pair and a depth (both 1 under the test hook
    ``params[P_COLLIDE]``: every lookup a hash collision).

    Run stores keep these keys across processes: a change to them (or to the Zobrist tables of
    ``gpusolve.search.optimal._Context``) leaves the stored entries unfound (never wrong: their
    records prove them), so it wants a new ``gpusolve.runs.runstore.SCHEMA_VERSION``."""
    if params[P_COLLIDE] != 0:
        return np.uint64(1), np.uint64(1)
    k1 = h1 + np.uint64(d + 1) * _GOLD
    k2 = (h2 ^ (np.uint64(d + 1) * _MIX)) | np.uint64(1)
    return k1, k2


@njit(cache=True, nogil=True, inline="always")
def _bucket(mask, k1):
    """Return the first slot of the bucket of key ``k1``."""
    return np.int64(k1 & np.uint64(mask)) & ~np.int64(WAYS - 1)


@njit(cache=True, nogil=True)
def _path_hash(path, plen):
    """Return an order-free 64-bit hash of the moves ``path[:plen]`` (hard mode's memo key)."""
    h = np.uint64(0)
    for t in range(plen):
        x = (np.uint64(path[t]) + np.uint64(1)) * _GOLD
        x = (x ^ (x >> np.uint64(31))) * _MIX
        h += x ^ (x >> np.uint64(29))
    return h


@njit(cache=True, nogil=True)
def _combined_rule(params, glet, path, plen, out, scratch):
    """Write the Wordle hard-mode rule of the moves ``path[:plen]`` to ``out``: the letter each
    position must keep (-1: none), then the least count of each letter. It decides the guesses
    allowed after the moves."""
    length = params[P_LENGTH]
    npat = params[P_NPAT]
    out[:length] = -1
    out[length:] = 0
    for t in range(plen):
        g = path[t] // npat
        hard_rule(params, glet, g, path[t] - g * npat, scratch)
        for k in range(length):
            if scratch[RULE + k] >= 0:
                out[k] = scratch[RULE + k]
        for u in range(scratch[RULE + length]):
            c = scratch[RULE + length + 1 + 2 * u]
            out[length + c] = max(out[length + c], scratch[RULE + length + 2 + 2 * u])


@njit(cache=True, nogil=True)
def _rule_hash(rule):
    """Return a 64-bit hash of a combined rule (Wordle's hard-mode memo key)."""
    h = np.uint64(0)
    for j in range(rule.shape[0]):
        h = (h ^ np.uint64(rule[j] + 2)) * _MIX
    return h


@njit(cache=True, nogil=True)
def _hard_key(params, glet, path, plen, rule, scratch):
    """Return what keys a hard-mode set besides its answers: the hash of its moves' combined rule
    (Wordle, left in ``rule``), else of its moves."""
    if rule.shape[0] == 0:
        return _path_hash(path, plen)
    _combined_rule(params, glet, path, plen, rule, scratch)
    return _rule_hash(rule)


@njit(cache=True, nogil=True)
def _same_moves(memo, i, path, plen):
    """Return whether slot ``i`` was reached by the moves ``path[:plen]`` (in any order)."""
    if memo.mlen[i] != plen:
        return False
    mp = memo.mpath[i]
    for t in range(plen):
        x = path[t]
        mine = 0
        theirs = 0
        for u in range(plen):
            mine += path[u] == x
            theirs += mp[u] == x
        if mine != theirs:
            return False
    return True


@njit(cache=True, nogil=True)
def _holds(memo, i, members, lo, n, d, path, plen, hard, rule, codes, npat):
    """Return whether slot ``i`` holds the set ``members[lo:lo + n]`` with ``d`` guesses left,
    reached by the moves ``path[:plen]`` (in hard mode with the combined ``rule``; see the module
    docstring: nothing here trusts a hash)."""
    if memo.mflag[i] == EMPTY or memo.mdepth[i] != d or memo.msize[i] != n:
        return False
    if hard:
        if rule.shape[0] == 0:
            return _same_moves(memo, i, path, plen)
        for j in range(rule.shape[0]):
            if memo.mrule[i, j] != rule[j]:
                return False
    mp = memo.mpath[i]
    for t in range(memo.mlen[i]):
        g = mp[t] // npat
        p = mp[t] - g * npat
        row = codes[g]
        for k in range(lo, lo + n):
            if row[members[k]] != p:
                return False
    return True


@njit(cache=True, nogil=True)
def _memo_find(memo, params, codes, k1, k2, members, lo, n, d, path, plen, rule):
    """Return the slot holding the set ``members[lo:lo + n]`` with ``d`` guesses left (keys
    k1, k2; reached by the moves ``path[:plen]``, combined ``rule`` in hard mode), or -1."""
    base = _bucket(params[P_MEMO_MASK], k1)
    for w in range(WAYS):
        i = base + w
        if memo.mk2[i] == k2 and memo.mk1[i] == k1 and _holds(
                memo, i, members, lo, n, d, path, plen, params[P_MODE] == HARD, rule, codes, params[P_NPAT]):
            return i
    return -1


@njit(cache=True, nogil=True)
def _memo_write(memo, mask, same, k1, k2, flag, value, guess, size, work, d, path, plen, rule, stats):
    """Store an exact value or a lower bound (with the work it took) in slot ``same`` (the
    entry of the same set, -1 if none), else in an empty slot or over the smallest set of the
    bucket; entries with more moves than the table records are not stored."""
    mk1, mk2, mval, mguess, mflag, msize, mwork, mdepth, mlen, mpath, mrule = memo
    if plen > mpath.shape[1]:
        return
    if same >= 0:
        if mflag[same] == EXACT or (flag == LOWER and value <= mval[same]):
            return
        victim = same
    else:
        base = _bucket(mask, k1)
        victim = base
        for w in range(WAYS):
            i = base + w
            if mflag[i] == EMPTY:
                victim = i
                break
            if msize[i] < msize[victim]:
                victim = i
    mk1[victim] = k1
    mk2[victim] = k2
    mval[victim] = value
    mguess[victim] = guess
    mflag[victim] = flag
    msize[victim] = size
    mwork[victim] = work
    mdepth[victim] = d
    mlen[victim] = plen
    mrule[victim, :] = rule
    mp = mpath[victim]
    mp[:plen] = path[:plen]
    insertion_sort(mp, plen)  # equal move sets are equal records
    stats[S_MEMO_STORES] += 1


@njit(cache=True, nogil=True)
def _save(level, lo, n, d, k1, k2, flag, value, guess, w0, shared, work, memo):
    """Store the node's value (exact) or lower bound, with the work spent since ``w0``."""
    params = work.params
    plen = params[P_PATH0] + level
    if params[P_MODE] == HARD and work.rule.shape[0] > 0:
        _combined_rule(params, shared.glet, work.path, plen, work.rule, work.rscratch)
    same = _memo_find(memo, params, shared.codes, k1, k2, work.glob[level], lo, n, d, work.path, plen,
                      work.rule)
    spent = _spent(work.stats, w0)
    _memo_write(memo, params[P_MEMO_MASK], same, k1, k2, flag, value, guess, n, spent, d, work.path, plen,
                work.rule, work.stats)
    canon = work.canon
    if canon.on[level]:
        c1 = canon.keys[level, 0]
        c2 = canon.keys[level, 1]
        same = _memo_find(memo, params, shared.codes, c1, c2, canon.members[level], 0, n, d,
                          canon.path[level], plen, work.rule)
        if guess >= 0:
            guess = image_row(shared.glet, canon, canon.sig[level], guess, params[P_COLOURS])
        _memo_write(memo, params[P_MEMO_MASK], same, c1, c2, flag, value, guess, n, spent, d,
                    canon.path[level], plen, work.rule, work.stats)


@njit(cache=True, nogil=True)
def _least_image(level, lo, n, d, plen, shared, work):
    """Map the node's set to the least image of its moves (``kernels.canonical_cpu``): its
    members, sorted moves and memo keys in ``work.canon``'s row ``level``; return False where
    it has none."""
    params = work.params
    canon = work.canon
    sig = canon.sig[level]
    if not least_moves(shared.glet, canon, work.path, plen, params[P_NPAT], params[P_COLOURS], sig,
                       canon.path[level]):
        return False
    members = canon.members[level]
    if not image_members(shared.glet, canon, sig, shared.answer_rows, work.glob[level], lo, n,
                         params[P_COLOURS], members):
        return False
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    for i in range(n):
        h1 += shared.zob1[members[i]]
        h2 += shared.zob2[members[i]]
    canon.keys[level, 0], canon.keys[level, 1] = _memo_key(h1, h2, d, params)
    return True


@njit(cache=True, nogil=True, inline="always")
def _spent(stats, w0):
    """Return the work done since ``w0``: nodes plus reply cells scanned."""
    return stats[S_NODES] + stats[S_SCANNED] - w0


@njit(cache=True, nogil=True)
def memo_preload(memo, params, glet, k1, k2, value, exact, guess, size, work, depth, plen, paths, stats):
    """Store known entries (from a run store) in a memo; their work is kept negated (-work - 1)
    so that hits on them are counted (``S_STORE_HITS``) and they are told apart from new ones.
    Entry ``i`` was reached by the (sorted) moves ``paths[i, :plen[i]]``."""
    mask = params[P_MEMO_MASK]
    rule = np.zeros(memo.mrule.shape[1], np.int64)
    scratch = np.zeros(RULE_SCRATCH, np.int64)
    for i in range(k1.shape[0]):
        path = paths[i]
        if rule.shape[0] > 0:
            _combined_rule(params, glet, path, plen[i], rule, scratch)
        same = -1
        base = _bucket(mask, k1[i])
        for w in range(WAYS):
            j = base + w
            if (memo.mk1[j] == k1[i] and memo.mk2[j] == k2[i] and memo.mflag[j] != EMPTY
                    and memo.mdepth[j] == depth[i] and memo.msize[j] == size[i]
                    and _same_moves(memo, j, path, plen[i])):
                same = j
                break
        _memo_write(memo, mask, same, k1[i], k2[i], EXACT if exact[i] else LOWER, value[i], guess[i],
                    size[i], -work[i] - 1, depth[i], path, plen[i], rule, stats)


@njit(cache=True, nogil=True)
def memo_harvest(mflag, mwork):
    """Return the slots of entries computed since the last harvest (positive work), and mark
    them known from now on (work negated, as ``memo_preload`` does)."""
    # the flags first, then the work of filled slots only: most of a large memo is never
    # written, and reading the untouched pages of ``mwork`` costs ~70x a scan of the flags
    n = 0
    for i in range(mflag.shape[0]):
        if mflag[i] != EMPTY:
            n += 1
    filled = np.empty(n, np.int64)
    n = 0
    for i in range(mflag.shape[0]):
        if mflag[i] != EMPTY:
            filled[n] = i
            n += 1
    n = 0
    for i in filled:
        if mwork[i] > 0:
            n += 1
    out = np.empty(n, np.int64)
    n = 0
    for i in filled:
        if mwork[i] > 0:
            out[n] = i
            n += 1
            mwork[i] = -mwork[i] - 1
    return out


@njit(cache=True, nogil=True)
def hard_rule(params, glet, g, p, scratch):
    """Compile the hard-mode rule of guess row ``g`` with reply ``p`` into ``scratch``
    (``kernels.hardmode``)."""
    hardmode_cpu.hard_rule(params[P_KIND], params[P_LENGTH], glet, g, p, scratch)


@njit(cache=True, nogil=True, inline="always")
def rule_allows(params, glet, gcnt, genc, g, p, h, scratch):
    """Return whether guess row ``h`` meets the rule ``hard_rule`` compiled for (g, p) (``glet``
    and ``genc`` are the same encoding of the guesses)."""
    return hardmode_cpu.rule_allows(params[P_KIND], params[P_LENGTH], params[P_COLOURS], genc, gcnt, g, p,
                                    h, scratch)


@njit(cache=True, nogil=True)
def hard_filter(params, glet, gcnt, genc, rows, m, g, p, out, scratch):
    """Write the rows of ``rows[:m]`` hard mode allows after (g, p) to ``out``; return how many."""
    return hardmode_cpu.hard_filter(params[P_KIND], params[P_LENGTH], params[P_COLOURS], genc, gcnt, rows,
                                    m, g, p, out, scratch)


@njit(cache=True, nogil=True)
def _repeats(mat, base, cols, lo, n, mark, stats, most):
    """Return how many of the replies ``mat[base + cols[lo + i]]`` repeat an earlier one
    (counting stops at ``most``)."""
    stats[S_STAMP] += 1
    st = stats[S_STAMP]
    k = 0
    for i in range(n):
        c = mat[base + cols[lo + i]]
        if mark[c] == st:
            k += 1
            if k >= most:
                return k
        mark[c] = st
    return k


@njit(cache=True, nogil=True)
def _pair_scan(T, cols, lo, n, m, veq, vpairs, vfirst, vhash, zob32):
    """Fill per guess j < m: equal reply pairs, distinct replies and a reply-vector hash over
    the answers ``cols[lo:lo + n]`` (rows of the answer-major ``T``), vectorized over guesses."""
    for j in range(m):
        vpairs[j] = 0
        vfirst[j] = 0
        vhash[j] = 0
    for i in range(n):
        ci = T[cols[lo + i]]
        for j in range(m):
            veq[j] = 0
        for i2 in range(i):
            cj = T[cols[lo + i2]]
            for j in range(m):
                e = ci[j] == cj[j]
                veq[j] |= e
                vpairs[j] += e
        z = zob32[i]
        for j in range(m):
            vfirst[j] += 1 - veq[j]
            vhash[j] += np.uint32(ci[j] + 1) * z


@njit(cache=True, nogil=True)
def _scan_rows(level, lo, n, m_in, rows, mat, width, colsl, out, outT, mode, node_stamp,
               dd_gen, tmask, rowg, inset, inpos, tarow, lbs, keys, mark, cnt, dd_stamp, dd_idx,
               hv, zob1, stats):
    """Scan the guess rows ``rows[:m_in]`` of a guess-major matrix over a node's answers;
    keep the useful ones (one per reply vector in normal mode); return how many, and the most
    distinct replies a guess gave."""
    nsurv = 0
    most = 0
    for j in range(m_in):
        r = rows[j]
        g = rowg[level, r]
        in_s = inset[g] == node_stamp
        base = r * width
        dst = nsurv * n
        stats[S_STAMP] += 1
        st = stats[S_STAMP]
        nb = 0
        sq = 0
        hh = np.uint64(0)
        for i in range(n):
            c = mat[base + colsl[lo + i]]
            out[dst + i] = c
            seen = cnt[c] * (mark[c] == st)  # branch-free: earlier answers with reply c
            mark[c] = st
            cnt[c] = seen + 1
            nb += seen == 0
            sq += 2 * seen + 1
            hh += np.uint64(c + 1) * zob1[i]
        most = max(most, nb)
        if nb == 1 and not in_s:
            continue  # splits nothing: only wastes a guess, here and below
        if mode == NORMAL:
            # keep one guess per distinct reply vector over S
            t = np.int64(hh & np.uint64(tmask))
            dup = False
            while dd_stamp[t] == dd_gen:
                other = dd_idx[t]
                if hv[other] == hh:
                    same = True
                    ob = other * n
                    for i in range(n):
                        if out[ob + i] != out[dst + i]:
                            same = False
                            break
                    if same:
                        dup = True
                        break
                t = (t + 1) & tmask
            if dup:
                continue
            dd_stamp[t] = dd_gen
            dd_idx[t] = nsurv
            hv[nsurv] = hh
        if in_s:
            tarow[level, inpos[g]] = nsurv
        lb = 3 * n - (1 if in_s else 0) - nb
        rowg[level + 1, nsurv] = g
        for i in range(n):
            outT[i, nsurv] = out[dst + i]
        lbs[level, nsurv] = lb
        keys[level, nsurv] = lb * (1 << 32) + sq
        nsurv += 1

    return nsurv, most


@njit(cache=True, nogil=True)
def _guess_bounds(level, n, d, most, nsurv, rowg, inset, node_stamp, lbs, keys):
    """Raise the bound of each guess kept at a node of ``n`` answers to ``n`` plus its buckets'
    level bound (at most ``most`` unsolved replies a guess below it), and its sort key with it."""
    for j in range(nsurv):
        s = 1 if inset[rowg[level + 1, j]] == node_stamp else 0
        nb = 3 * n - s - lbs[level, j]  # its distinct replies (lbs holds 3n - s - nb)
        lb = n + level_bound(n - s, d - 1, most, nb - s)
        if lb > lbs[level, j]:
            lbs[level, j] = lb
            keys[level, j] = min(lb, KEY_MAX) * (1 << 32) + (keys[level, j] & 0xFFFFFFFF)


@njit(cache=True, nogil=True)
def _node(level, lo, n, d, beta, cg, cp, shared, work, memo):
    """Return V(S, d) if it is below ``beta``, else a proven lower bound >= ``beta``.

    The node's answers are positions ``lo:lo + n`` of row ``level`` of ``cols`` (columns of
    the compact reply matrix ``cmat[level]``, row stride ``stride[level]``), ``glob`` (answer
    columns of the full matrix) and ``arow`` (the ``cmat[level]`` row of each answer as a
    guess). Its guesses are the rows ``cand[level, :ncand[level]]`` of ``cmat[level]``
    (``rowg`` gives their guess rows). The node writes the replies of the guesses it keeps to
    ``cmat[level + 1]`` (one row of ``n`` per guess) for its children, and their moves to
    ``path``. At level 0 the best guess row found (or -1) is left in ``stats[S_BEST]``.
    """
    answer_rows = shared.answer_rows
    zob1 = shared.zob1
    zob2 = shared.zob2
    glet = shared.glet
    gcnt = shared.gcnt
    genc = shared.genc
    zob32 = shared.zob32
    params = work.params
    cmat = work.cmat
    cmatT = work.cmatT
    stride = work.stride
    cols = work.cols
    glob = work.glob
    arow = work.arow
    tarow = work.tarow
    rowg = work.rowg
    cand = work.cand
    ncand = work.ncand
    lbs = work.lbs
    keys = work.keys
    mark = work.mark
    cnt = work.cnt
    inset = work.inset
    inpos = work.inpos
    dd_stamp = work.dd_stamp
    dd_idx = work.dd_idx
    hv = work.hv
    veq = work.veq
    vpairs = work.vpairs
    vfirst = work.vfirst
    vhash = work.vhash
    tmpT = work.tmpT
    ident = work.ident
    bcode = work.bcode
    bstart = work.bstart
    bsize = work.bsize
    blb = work.blb
    scratch = work.scratch
    stats = work.stats
    stop = work.stop
    path = work.path
    if n == 1:
        if level == 0:
            stats[S_BEST] = answer_rows[glob[level, lo]]
        return 1
    if d <= 1:
        return INF
    if n == 2:
        if level == 0:
            stats[S_BEST] = answer_rows[glob[level, lo]]
        return 3
    if stop[0] != 0:
        return INF
    w0 = stats[S_NODES] + stats[S_SCANNED]
    stats[S_NODES] += 1
    stats[16 + d] += 1
    mode = params[P_MODE]
    solved = params[P_SOLVED]
    npat = params[P_NPAT]
    mat = cmat[level]
    if cg >= 0:
        hard_rule(params, glet, cg, cp, scratch)  # this node's own constraint, checked lazily
    width = stride[level]

    # memo
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    for i in range(lo, lo + n):
        h1 += zob1[glob[level, i]]
        h2 += zob2[glob[level, i]]
    plen = params[P_PATH0] + level
    rule = work.rule
    if mode == HARD:
        h1 += _hard_key(params, glet, path, plen, rule, work.rscratch) * _MIX
    k1, k2 = _memo_key(h1, h2, d, params)
    slot = _memo_find(memo, params, shared.codes, k1, k2, glob[level], lo, n, d, path,
                      plen, rule) if cg < 0 else -1
    canon = work.canon
    canon.on[level] = 0
    decided = slot >= 0 and (memo.mflag[slot] == EXACT or memo.mval[slot] >= beta)  # returns below
    if not decided and level > 0 and cg < 0 and 0 < canon.min_size[0] <= n and _least_image(
            level, lo, n, d, plen, shared, work):
        canon.on[level] = 1
        if slot < 0:
            slot = _memo_find(memo, params, shared.codes, canon.keys[level, 0], canon.keys[level, 1],
                              canon.members[level], 0, n, d, canon.path[level], plen, rule)
    known_lb = 2 * n - 1
    if slot >= 0:
        stats[S_MEMO_HITS] += 1
        if memo.mwork[slot] < 0:
            stats[S_STORE_HITS] += 1
        if memo.mflag[slot] == EXACT:
            if level == 0:
                stats[S_BEST] = memo.mguess[slot]
            return memo.mval[slot]
        if memo.mval[slot] >= beta:
            return memo.mval[slot]
        known_lb = max(known_lb, memo.mval[slot])
    most = params[P_BRANCH]
    known_lb = max(known_lb, level_bound(n, d, most, 1))
    if known_lb >= beta or known_lb >= INF:
        return known_lb

    # the guesses to scan: consistent mode scans the answers of S
    if mode == CONSISTENT:
        for i in range(n):
            cand[level, i] = arow[level, lo + i]
        ncand[level] = n
    m_in = ncand[level]
    rows = cand[level]

    # a guess that splits S into singletons is optimal: 2n - 1 if it is in S, else 2n.
    # (Answers of S are allowed in every mode.) Each check stops at the first repeated reply.
    # Small sets in normal mode ("fast") find the splitting guesses not in S in the vectorized
    # scan below instead.
    fast = n <= params[P_VECTOR_MAX]
    if n <= params[P_NPAT] + 1:
        pair = -1
        for i in range(n):
            r = arow[level, lo + i]
            k = _repeats(mat, r * width, cols[level], lo, n, mark, stats, 2)
            if k == 0:
                g = rowg[level, r]
                if level == 0:
                    stats[S_BEST] = g
                if stop[0] == 0 and cg < 0:
                    _save(level, lo, n, d, k1, k2, EXACT, 2 * n - 1, g, w0, shared, work, memo)
                return 2 * n - 1
            if k == 1 and pair < 0:
                pair = rowg[level, r]
        if pair >= 0 and d >= 3:
            # a guess in S leaving one pair costs 2n, and nothing does better (see below)
            if level == 0:
                stats[S_BEST] = pair
            if stop[0] == 0 and cg < 0:
                _save(level, lo, n, d, k1, k2, EXACT, 2 * n, pair, w0, shared, work, memo)
            return 2 * n
        stats[S_STAMP] += 1
        node_stamp = stats[S_STAMP]
        for i in range(n):
            inset[rowg[level, arow[level, lo + i]]] = node_stamp
        for j in range(m_in if not fast else 0):
            r = rows[j]
            g = rowg[level, r]
            stats[15] += 1
            if inset[g] != node_stamp and _repeats(mat, r * width, cols[level], lo, n, mark, stats,
                                                   1) == 0 and (
                    cg < 0 or rule_allows(params, glet, gcnt, genc, cg, cp, g, scratch)):
                if level == 0:
                    stats[S_BEST] = g
                if stop[0] == 0 and cg < 0:
                    _save(level, lo, n, d, k1, k2, EXACT, 2 * n, g, w0, shared, work, memo)
                return 2 * n
    if not fast:
        if d == 2:
            if stop[0] == 0 and cg < 0:
                _save(level, lo, n, d, k1, k2, EXACT, INF, -1, w0, shared, work, memo)
            return INF
        # no guess splits S into singletons: at least 2n (a guess in S leaving one pair: 2n)
        if known_lb < 2 * n:
            known_lb = 2 * n
        if known_lb >= beta:
            if stop[0] == 0 and cg < 0:
                _save(level, lo, n, d, k1, k2, LOWER, known_lb, -1, w0, shared, work, memo)
            return known_lb

    # scan every guess: distinct replies B, membership s, sum of squared bucket sizes; keep
    # the useful ones (one per distinct reply vector in normal mode) with their replies on S
    # as rows of cmat[level + 1] for the children
    stats[S_SCANNED] += m_in * n
    stats[8 + d] += m_in * n
    stats[S_STAMP] += 1
    node_stamp = stats[S_STAMP]
    for i in range(n):
        g = rowg[level, arow[level, lo + i]]
        inset[g] = node_stamp
        inpos[g] = i
    out = cmat[level + 1]
    stride[level + 1] = n
    colsl = cols[level]
    stats[S_STAMP] += 1
    dd_gen = stats[S_STAMP]
    tmask = dd_stamp.shape[0] - 1
    outT = cmatT[level + 1]
    nsurv = 0
    if fast:
        # small sets: pairwise comparisons of the answers' reply rows (answer-major),
        # vectorized over the guesses. Normal mode scans every row of the parent's matrix
        # (the rows are 0..m_in-1); the other modes first gather their rows.
        if mode == NORMAL:
            T = cmatT[level]
            tcols = colsl
            tlo = lo
        else:
            src = cmatT[level]
            for i in range(n):
                srow = src[colsl[lo + i]]
                drow = tmpT[i]
                for j in range(m_in):
                    drow[j] = srow[rows[j]]
            T = tmpT
            tcols = ident
            tlo = 0
        _pair_scan(T, tcols, tlo, n, m_in, veq, vpairs, vfirst, vhash, zob32)
        # first the bounds alone: a split into singletons, or a cutoff, ends the node here
        scan_lb = INF
        most = 0
        for j in range(m_in):
            nb = np.int64(vfirst[j])
            most = max(most, nb)
            in_s = inset[rowg[level, rows[j]]] == node_stamp
            if nb == n and not in_s and (cg < 0 or rule_allows(params, glet, gcnt, genc, cg, cp,
                                                                 rowg[level, rows[j]], scratch)):
                g = rowg[level, rows[j]]
                if level == 0:
                    stats[S_BEST] = g
                if stop[0] == 0 and cg < 0:
                    _save(level, lo, n, d, k1, k2, EXACT, 2 * n, g, w0, shared, work, memo)
                return 2 * n
            lb = 3 * n - (1 if in_s else 0) - nb
            if lb < scan_lb and (nb > 1 or in_s):
                scan_lb = lb
        if d == 2 or scan_lb >= INF:
            if stop[0] == 0 and cg < 0:
                _save(level, lo, n, d, k1, k2, EXACT, INF, -1, w0, shared, work, memo)
            return INF
        most = min(most, params[P_BRANCH])
        known_lb = max(known_lb, 2 * n, scan_lb, level_bound(n, d, most, 1))
        if known_lb >= beta:
            stats[14] += 1
            if stop[0] == 0 and cg < 0:
                _save(level, lo, n, d, k1, k2, LOWER, known_lb, -1, w0, shared, work, memo)
            return known_lb
        for j in range(m_in):
            g = rowg[level, rows[j]]
            in_s = inset[g] == node_stamp
            nb = np.int64(vfirst[j])
            if nb == 1 and not in_s:
                continue  # splits nothing: only wastes a guess, here and below
            hh = np.uint64(vhash[j])
            t = np.int64(hh & np.uint64(tmask))
            dup = False
            while mode == NORMAL and dd_stamp[t] == dd_gen:
                other = dd_idx[t]
                if hv[other] == hh:
                    same = True
                    ob = other * n
                    stats[7] += n
                    for i in range(n):
                        if out[ob + i] != T[tcols[tlo + i], j]:
                            same = False
                            break
                    if same:
                        dup = True
                        break
                t = (t + 1) & tmask
            if dup:
                continue
            if mode == NORMAL:
                dd_stamp[t] = dd_gen
                dd_idx[t] = nsurv
                hv[nsurv] = hh
            dst = nsurv * n
            for i in range(n):
                c = T[tcols[tlo + i], j]
                out[dst + i] = c
                outT[i, nsurv] = c
            if in_s:
                tarow[level, inpos[g]] = nsurv
            lb = 3 * n - (1 if in_s else 0) - nb
            rowg[level + 1, nsurv] = g
            lbs[level, nsurv] = lb
            keys[level, nsurv] = lb * (1 << 32) + n + 2 * np.int64(vpairs[j])
            nsurv += 1
    else:
        nsurv, most = _scan_rows(level, lo, n, m_in, rows, mat, width, colsl, out, outT, mode,
                                 node_stamp, dd_gen, tmask, rowg, inset, inpos, tarow, lbs, keys, mark,
                                 cnt, dd_stamp, dd_idx, hv, zob1, stats)
        most = min(most, params[P_BRANCH])
        known_lb = max(known_lb, level_bound(n, d, most, 1))

    if nsurv == 0:
        # no guess splits S and none is in it: infeasible
        if stop[0] == 0 and cg < 0:
            _save(level, lo, n, d, k1, k2, EXACT, INF, -1, w0, shared, work, memo)
        return INF

    _guess_bounds(level, n, d, most, nsurv, rowg, inset, node_stamp, lbs, keys)
    order = np.argsort(keys[level, :nsurv])
    lower = INF
    node_lb = lbs[level, order[0]]
    if node_lb > known_lb:
        known_lb = node_lb
    if known_lb >= beta:
        stats[14] += 1
        if stop[0] == 0 and cg < 0:
            _save(level, lo, n, d, k1, k2, LOWER, known_lb, -1, w0, shared, work, memo)
        return known_lb

    if mode == NORMAL:
        for j in range(nsurv):
            cand[level + 1, j] = j
        ncand[level + 1] = nsurv

    sym = work.sym
    nhist = sym.nbase[0] + level
    if sym.on[0]:
        mark_classes(glet, sym, nhist, params[P_COLOURS], rowg[level + 1], order, nsurv, sym.keep[level])

    best = INF
    best_g = -1
    ident_written = -1
    ccols = cols[level + 1]
    cglob = glob[level + 1]
    carow = arow[level + 1]
    for oi in range(nsurv):
        k = order[oi]
        limit = min(best, beta)
        if lbs[level, k] >= limit:
            lower = min(lower, lbs[level, k])
            break
        if sym.on[0] and sym.keep[level, k] == 0:
            continue  # a symmetric image of a guess tried here: the same cost
        g = rowg[level + 1, k]
        sym.hist[nhist] = g
        src = k * n
        # partition S by guess k (counting sort), buckets in first-seen order
        stats[S_EVALUATED] += 1
        stats[S_STAMP] += 1
        st = stats[S_STAMP]
        nbk = 0
        for i in range(n):
            c = out[src + i]
            if mark[c] != st:
                mark[c] = st
                cnt[c] = 0
                bcode[level, nbk] = c
                nbk += 1
            cnt[c] += 1
        pos = lo
        for b in range(nbk):
            c = bcode[level, b]
            bstart[level, b] = pos
            bsize[level, b] = cnt[c]
            pos += cnt[c]
            cnt[c] = bstart[level, b]  # next write position
        for i in range(n):
            c = out[src + i]
            w = cnt[c]
            ccols[w] = i
            cglob[w] = glob[level, lo + i]
            carow[w] = tarow[level, i]
            cnt[c] = w + 1
        # bounds per bucket, tightened by the memo
        total = n
        for b in range(nbk):
            m = bsize[level, b]
            if bcode[level, b] == solved:
                blb[level, b] = 0
                continue
            lbv = level_bound(m, d - 1, most, 1)
            if m >= 3:
                x1 = np.uint64(0)
                x2 = np.uint64(0)
                for i in range(bstart[level, b], bstart[level, b] + m):
                    x1 += zob1[cglob[i]]
                    x2 += zob2[cglob[i]]
                path[plen] = g * npat + bcode[level, b]
                if mode == HARD:
                    x1 += _hard_key(params, glet, path, plen + 1, rule, work.rscratch) * _MIX
                q1, q2 = _memo_key(x1, x2, d - 1, params)
                sl = _memo_find(memo, params, shared.codes, q1, q2, cglob, bstart[level, b], m, d - 1,
                                path, plen + 1, rule)
                if sl >= 0 and memo.mval[sl] > lbv:
                    lbv = memo.mval[sl]
            blb[level, b] = lbv
            total += lbv
        if total < limit:
            # a bucket that none of its own answers splits into singletons needs at least 2m
            for b in range(nbk):
                m = bsize[level, b]
                if m < 3 or bcode[level, b] == solved or blb[level, b] != 2 * m - 1:
                    continue
                start = bstart[level, b]
                split = False
                for t in range(start, start + m):
                    base = carow[t] * n
                    stats[S_STAMP] += 1
                    st = stats[S_STAMP]
                    split = True
                    for t2 in range(start, start + m):
                        c = out[base + ccols[t2]]
                        if mark[c] == st:
                            split = False
                            break
                        mark[c] = st
                    if split:
                        break
                if not split:
                    blb[level, b] = 2 * m
                    total += 1
                    if total >= limit:
                        break
        if total < limit:
            # buckets from the largest down
            bsz = np.empty(nbk, np.int64)
            for b in range(nbk):
                bsz[b] = -bsize[level, b]
            border = np.argsort(bsz)
            for bi in range(nbk):
                b = border[bi]
                m = bsize[level, b]
                if m <= 2 or bcode[level, b] == solved:
                    continue
                rest = total - blb[level, b]
                path[plen] = g * npat + bcode[level, b]
                lg = -1
                lp = -1
                if mode == HARD and d - 1 == 2:
                    # a depth-2 child only needs a guess splitting it into singletons: it
                    # checks the new hard-mode constraint (lg, lp) on those alone, unmemoized
                    lg = g
                    lp = bcode[level, b]
                    if ident_written != nsurv:
                        for j in range(nsurv):
                            cand[level + 1, j] = j
                        ident_written = nsurv
                    ncand[level + 1] = nsurv
                elif mode == HARD:
                    ident_written = -1
                    kk = 0
                    hard_rule(params, glet, g, bcode[level, b], scratch)
                    for j in range(nsurv):
                        if rule_allows(params, glet, gcnt, genc, g, bcode[level, b],
                                       rowg[level + 1, j], scratch):
                            cand[level + 1, kk] = j
                            kk += 1
                    ncand[level + 1] = kk
                v = _node(level + 1, bstart[level, b], m, d - 1, limit - rest, lg, lp,
                          shared, work, memo)
                if v < blb[level, b]:
                    v = blb[level, b]
                total = rest + v
                if total >= limit:
                    break
        if total < limit:
            best = total
            best_g = g
        elif total < lower:
            lower = total

    if stop[0] != 0:
        return INF
    if best < beta:
        if level == 0:
            stats[S_BEST] = best_g
        _save(level, lo, n, d, k1, k2, EXACT, best, best_g, w0, shared, work, memo)
        return best
    if lower < known_lb:
        lower = known_lb
    _save(level, lo, n, d, k1, k2, LOWER, lower, -1, w0, shared, work, memo)
    return lower


@njit(cache=True, nogil=True)
def solve_set(answers, d, beta, guesses, shared, work, memo):
    """Return V(answers, d) below ``beta`` (exact) or a lower bound >= ``beta``.

    ``answers`` are columns of the full reply matrix ``codes``, the set the moves
    ``work.path[:work.params[P_PATH0]]`` leave of the root set; ``guesses`` its rows allowed
    here (they must include every answer's own row). The
    best guess row is left in ``stats[S_BEST]`` (-1 when none). ``cmat`` needs room for
    ``len(guesses) * len(answers)`` replies per level.
    """
    codes = shared.codes
    answer_rows = shared.answer_rows
    cmat = work.cmat
    cmatT = work.cmatT
    rowg = work.rowg
    cand = work.cand
    inpos = work.inpos
    cols = work.cols
    glob = work.glob
    arow = work.arow
    stride = work.stride
    ncand = work.ncand
    stats = work.stats
    n = answers.shape[0]
    m = guesses.shape[0]
    top = cmat[0]
    topT = cmatT[0]
    for j in range(m):
        row = codes[guesses[j]]
        rowg[0, j] = guesses[j]
        cand[0, j] = j
        inpos[guesses[j]] = -1
        for i in range(n):
            c = row[answers[i]]
            top[j * n + i] = c
            topT[i, j] = c
    for i in range(n):
        cols[0, i] = i
        glob[0, i] = answers[i]
        inpos[answer_rows[answers[i]]] = i
        arow[0, i] = -1
    for j in range(m):
        i = inpos[guesses[j]]
        if i >= 0:
            arow[0, i] = j
    for i in range(n):
        if arow[0, i] < 0:
            return -1  # an answer of the set is not among the guesses: a caller's error
    stride[0] = n
    ncand[0] = m
    stats[S_BEST] = -1
    zero = np.int64(n - n)  # a plain int64 (not a literal): the recursion has one signature
    return _node(zero, zero, np.int64(n), np.int64(d), np.int64(beta), zero - 1, zero - 1,
                 shared, work, memo)


__all__ = ["INF", "SCRATCH", "Memo", "Scratch", "Shared", "hard_filter", "memo_harvest", "memo_preload",
           "solve_set"]
