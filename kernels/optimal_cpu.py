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
  normal mode), in Wordle's hard mode once per class of rule twins (the same replies, and the
  same letters wherever one of them is not grey: ``_rule_twins``), and a guess that does not
  split ``S`` and is not in it is dropped for the
  whole subtree (it only wastes a guess, in every mode).
* branch and bound: guesses by increasing bound, the best cost so far (or ``beta``) as the
  cutoff, the bucket loop abandoned once the partial sum plus the bounds of the rest reach it.
* a memo (set-associative, bounded; its slots used as far as needed: ``_memo_grow``), holding
  exact values with their best guess, and proven lower bounds, each with the work it took
  (nodes plus reply cells scanned in its subtree).
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

A node runs in phases, each a function named for what it does (``_node`` is the recursion
that calls them): enter (count it, its memo keys), look up (the memo, and a code game's least
image), the first bound (memo and level bound), the closed forms, the scan over the guesses
(its contract above ``_scan``), their order, then for each guess by increasing bound its cost:
partition, the buckets' bounds (tightened by the memo), the 2m rule, and the buckets searched
below; last, settle (store and return). The phases take the small bundles of a workspace
(``Scratch``) they use, never the whole of it: numba counts references to every array of a
bundle a function receives, and these are called for every node and guess.

What the first run compiles (issue 29; ``scripts/compile_table.py`` prints it): numba compiles each
function once per distinct argument types and links a copy of every function it calls into the
caller's code, which it optimizes again. So the phases (``_phase``) have no wrapper for Python (only
compiled code calls them), ``_node`` is the one function Python calls (after ``_load_root``: no
compiled caller re-optimizes the whole search) besides the small pieces the Python driver of large
sets shares with it (``closed_form``, ``bucket_floor``, ``sort_keys``, and its look-up and settle as
``look_up_set`` and ``settle_set``), calls between compiled functions pass plain
``int64`` (``np.int64(...)``), never a literal constant nor a counter that starts at a literal:
numba compiles a function again for each literal value an argument takes, and for the literal a
counter starts with while it infers the types; a workspace without symmetries (``sym`` and
``canon`` None) compiles none of their code, and one outside hard mode (``moves.hard`` None, passed
to the phases as ``hard``) none of hard mode's; the guesses and buckets are ordered by
``sorting.argsort`` (numba's ``np.argsort`` order, one function where numba compiles seven).
"""

import mmap
from collections import namedtuple

import numpy as np
from numba import njit

from . import hardmode_cpu
from .bounds_cpu import level_bound
from .canonical_cpu import image_members, image_row, least_moves
from .hardmode import RULE
from .hardmode import SCRATCH as RULE_SCRATCH
from .replies import SCRATCH, WORDLE
from .sorting import argsort, insertion_sort
from .symmetry_cpu import mark_classes

Shared = namedtuple("Shared", "codes answer_rows zob1 zob2 glet gcnt genc zob32")
"""The arrays every worker reads: the reply matrix, answer rows, Zobrist hashes, words' letters."""

Levels = namedtuple("Levels", "cmat cmatT stride cols glob arow tarow rowg cand ncand")
"""Per level (row ``level``), what a node there works on: the replies of its parent's kept
guesses over the parent's answers (``cmat[level]``, guess-major, row stride ``stride[level]``;
``cmatT[level]``, answer-major), its answers as columns of that matrix (``cols``), of the full
matrix (``glob``) and as rows of it (``arow``; ``tarow``: their rows among the guesses it keeps),
the guess row of each matrix row (``rowg``) and the rows it may guess (``cand[:ncand]``)."""

Bounds = namedtuple("Bounds", "lbs keys bcode bstart bsize blb")
"""Per level: the bound and sort key of each kept guess, and the buckets of the guess being
costed (reply, first position, size, bound)."""

Tally = namedtuple("Tally", "mark cnt inset inpos")
"""Stamped scratch: per reply (``mark``, ``cnt``), per guess row (``inset``: the answers of a
node, ``inpos``: their positions)."""

Pairs = namedtuple("Pairs", "veq vpairs vfirst vhash tmpT ident")
"""The pairwise scan's counts per guess (equal pairs, distinct replies, a reply-vector hash),
its scratch, and the gathered answer-major matrix with its identity rows."""

Seen = namedtuple("Seen", "stamp idx hash")
"""The hash table of the reply rows a scan keeps (normal mode: one guess per reply vector)."""

Moves = namedtuple("Moves", "path rule hard")
"""The moves from the root set (``path[:params[P_PATH0] + level]``, each ``guess row * replies +
reply``), a set's combined hard-mode rule (``rule``, Wordle's hard mode; no columns otherwise)
and hard mode's scratch (``Hard``; None in the other modes: none of hard mode's code is compiled
then, as for ``Scratch.sym``)."""

Hard = namedtuple("Hard", "rscratch scratch cores")
"""Hard mode's scratch: the combined rule's, the compiled rule of one move (``kernels.hardmode``)
and the dead cores (``Cores``)."""

Cores = namedtuple("Cores", "rows rule size count rule3 pos psize npos skip")
"""Wordle hard mode's dead cores: sets of answers (guess rows ``rows[c, :size[c]]``) that no guess
meeting the combined rule ``rule[c]`` splits into singletons, ``count[0]`` recorded (the oldest
replaced past ``CORES``); and for the node with three guesses left searched now (one at a time:
its children have two) its combined rule (``rule3``), the ``npos[0]`` cores that apply to it, as
positions in its set (``pos[a, :psize[a]]``), and its kept guesses they refute (``skip[k]`` 1)."""

Scratch = namedtuple("Scratch", "params stats stop by_depth levels bounds tally pairs seen moves sym canon")
"""One worker's arrays (``new_scratch``): parameters, counters (``stats``;
``by_depth[d]``: nodes and reply cells scanned with ``d`` guesses left, a row for every depth
allowed), the stop flag, the bundles above, the symmetry state (``symmetry_cpu.Sym``: with it
on, one guess per class under the symmetries fixing the history is tried) and the state of the
sets' least images (``canonical_cpu.Canon``); both None where the lists have no symmetries (none
of their code is compiled then: numba drops a branch on ``is None`` of an argument)."""

Memo = namedtuple("Memo", "mk1 mk2 mval mguess mflag msize mwork mdepth mlen mpath mrule mmask")
"""One worker's memo table: keys, value, best guess, flag, set size and work per slot, and what
proves a slot's set: its depth, its moves from the root set (``mpath[i, :mlen[i]]``, sorted) and
in Wordle's hard mode their combined rule (``mrule[i]``; no columns otherwise). ``mmask``: the
slots in use less one (the first ``mmask[0] + 1``; a key's bucket is ``k1 & mmask[0]``) and the
most there may be less one (the arrays' length, ``mmask[1] + 1``); ``_memo_grow`` doubles them."""

Node = namedtuple("Node", "level lo n d cg cp k1 k2 w0")
"""A node as its phases see it: its set (positions ``lo:lo + n`` of row ``level``), the guesses
left, the hard-mode rule its guesses must meet (``cg``, ``cp``; -1: none), its memo keys and the
work counted before it (``_spent``)."""

Kept = namedtuple("Kept", "rows outT rowg tarow lbs keys")
"""What a node's scan keeps (the scan's contract, above ``_scan``): kept guess j's replies over S
(``rows[j * n:(j + 1) * n]``, and ``outT[:n, j]``), its guess row, its bound and sort key, and the
kept number of each answer of S as a guess (``tarow``)."""

from .config import INF  # noqa: E402  (the value of an infeasible set)

NORMAL, HARD, CONSISTENT = 0, 1, 2

# params (int64)
(P_MODE, P_SOLVED, P_NPAT, P_KIND, P_LENGTH, P_COLOURS, P_VECTOR_MAX, P_PATH0, P_COLLIDE,
 P_BRANCH) = range(10)
N_PARAMS = 10
# stats (int64): nodes searched, the last stamp handed out, the root's best guess, memo hits,
# memo stores, reply cells scanned, guesses evaluated (partitioned), memo hits on preloaded entries
S_NODES, S_STAMP, S_BEST, S_MEMO_HITS, S_MEMO_STORES, S_SCANNED, S_EVALUATED, S_STORE_HITS = range(8)
N_STATS = 8
D_NODES, D_CELLS = 0, 1
"""The columns of ``by_depth``: nodes, reply cells scanned."""

KEY_MAX = (1 << 31) - 1
"""The largest bound a guess's sort key holds (above it, INF included, keys tie)."""

EMPTY, LOWER, EXACT = 0, 1, 2
WAYS = 4
"""Memo slots per hash bucket (once every slot is in use, the least valuable one, by set size, is
replaced)."""

VECTOR_MAX = 128
"""Default largest set scanned by pairwise reply comparisons vectorized over the guesses
(normal mode); larger sets and the other modes count replies guess by guess."""
LOAD_BLOCK = 64
"""Guesses a search's root writes guess-major at once (``_load_root``)."""
CORES = 256
"""The most dead cores hard mode keeps (``Cores``)."""
CORE_MAX = 16
"""The most answers a dead core holds."""

_phase = njit(cache=True, nogil=True, no_cpython_wrapper=True)
"""How the search's own functions compile: cached, callable from compiled code only."""

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


@_phase
def _path_hash(path, plen):
    """Return an order-free 64-bit hash of the moves ``path[:plen]`` (hard mode's memo key)."""
    h = np.uint64(0)
    for t in range(plen):
        x = (np.uint64(path[t]) + np.uint64(1)) * _GOLD
        x = (x ^ (x >> np.uint64(31))) * _MIX
        h += x ^ (x >> np.uint64(29))
    return h


@_phase
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


@_phase
def _rule_hash(rule):
    """Return a 64-bit hash of a combined rule (Wordle's hard-mode memo key)."""
    h = np.uint64(0)
    for j in range(rule.shape[0]):
        h = (h ^ np.uint64(rule[j] + 2)) * _MIX
    return h


@_phase
def _hard_key(params, glet, path, plen, rule, scratch):
    """Return what keys a hard-mode set besides its answers: the hash of its moves' combined rule
    (Wordle, left in ``rule``), else of its moves."""
    if rule.shape[0] == 0:
        return _path_hash(path, plen)
    _combined_rule(params, glet, path, plen, rule, scratch)
    return _rule_hash(rule)


@_phase
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


@_phase
def _holds(memo, i, members, lo, n, d, path, plen, hard, rule, codes, npat):
    """Return whether slot ``i`` holds the set ``members[lo:lo + n]`` with ``d`` guesses left,
    reached by the moves ``path[:plen]`` (in hard mode, ``hard`` not None, with the combined
    ``rule``; see the module docstring: nothing here trusts a hash)."""
    if memo.mflag[i] == EMPTY or memo.mdepth[i] != d or memo.msize[i] != n:
        return False
    if hard is not None:
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


@_phase
def _memo_find(memo, params, codes, k1, k2, members, lo, n, d, path, plen, rule, hard):
    """Return the slot holding the set ``members[lo:lo + n]`` with ``d`` guesses left (keys
    k1, k2; reached by the moves ``path[:plen]``, combined ``rule`` in hard mode: ``hard`` not
    None), or -1."""
    base = _bucket(memo.mmask[0], k1)
    for w in range(WAYS):
        i = base + w
        if memo.mk2[i] == k2 and memo.mk1[i] == k1 and _holds(
                memo, i, members, lo, n, d, path, plen, hard, rule, codes, params[P_NPAT]):
            return i
    return -1


@_phase
def _move_slot(memo, i, j):
    """Move the entry of slot ``i`` to the empty slot ``j``, leaving ``i`` empty."""
    mk1, mk2, mval, mguess, mflag, msize, mwork, mdepth, mlen, mpath, mrule, _ = memo
    mk1[j], mk2[j], mval[j], mguess[j], mflag[j] = mk1[i], mk2[i], mval[i], mguess[i], mflag[i]
    msize[j], mwork[j], mdepth[j], mlen[j] = msize[i], mwork[i], mdepth[i], mlen[i]
    for t in range(mpath.shape[1]):  # loops, not slices: a slice compiles its shape error's message
        mpath[j, t] = mpath[i, t]
    for t in range(mrule.shape[1]):
        mrule[j, t] = mrule[i, t]
    mflag[i] = EMPTY


@_phase
def _memo_grow(memo):
    """Double the slots in use (at most to all of them): each bucket's entries split between it
    and its new twin, in the order they had. No entry is lost, so a table that grows before
    any bucket overflows holds, bucket by bucket and in the same order, what a table in full use
    from the start would hold; only a full-size table replaces entries."""
    live = memo.mmask[0] + 1
    mflag, mk1 = memo.mflag, memo.mk1
    for base in range(0, live, WAYS):
        low = base
        high = base + live
        for w in range(WAYS):
            i = base + w
            if mflag[i] == EMPTY:
                continue
            if mk1[i] & np.uint64(live):
                _move_slot(memo, i, high)
                high += 1
            else:
                if i != low:
                    _move_slot(memo, i, low)
                low += 1
    memo.mmask[0] = 2 * live - 1


@_phase
def _memo_write(memo, same, k1, k2, flag, value, guess, size, work, d, path, plen, rule, stats):
    """Store an exact value or a lower bound (with the work it took) in slot ``same`` (the
    entry of the same set, -1 if none), else in an empty slot of its bucket (the table grown
    until it has one, while it may grow) or over the bucket's smallest set; entries with more
    moves than the table records are not stored."""
    mk1, mk2, mval, mguess, mflag, msize, mwork, mdepth, mlen, mpath, mrule, mmask = memo
    if plen > mpath.shape[1]:
        return
    if same >= 0:
        if mflag[same] == EXACT or (flag == LOWER and value <= mval[same]):
            return
        victim = same
    else:
        victim = -1
        while victim < 0:
            base = _bucket(mmask[0], k1)
            for w in range(WAYS):
                if mflag[base + w] == EMPTY:
                    victim = base + w
                    break
            if victim < 0 and mmask[0] < mmask[1]:
                _memo_grow(memo)
            elif victim < 0:
                victim = base
                for w in range(1, WAYS):
                    if msize[base + w] < msize[victim]:
                        victim = base + w
    mk1[victim] = k1
    mk2[victim] = k2
    mval[victim] = value
    mguess[victim] = guess
    mflag[victim] = flag
    msize[victim] = size
    mwork[victim] = work
    mdepth[victim] = d
    mlen[victim] = plen
    for j in range(rule.shape[0]):  # loops, not slices: a slice compiles its shape error's message
        mrule[victim, j] = rule[j]
    mp = mpath[victim]
    for t in range(plen):
        mp[t] = path[t]
    insertion_sort(mp, plen)  # equal move sets are equal records
    stats[S_MEMO_STORES] += 1


@_phase
def _store(at, flag, value, guess, work, params, stats, glob, moves, hard, shared, memo):
    """Store the node's exact value (``flag`` EXACT, with its best guess or -1) or lower bound (LOWER)
    in the memo with the ``work`` it took, keyed and recorded as its look-up finds it (``hard``:
    ``moves.hard``)."""
    plen = params[P_PATH0] + at.level
    if hard is not None and moves.rule.shape[0] > 0:
        _combined_rule(params, shared.glet, moves.path, plen, moves.rule, hard.rscratch)
    same = _memo_find(memo, params, shared.codes, at.k1, at.k2, glob[at.level], at.lo, at.n, at.d, moves.path,
                      plen, moves.rule, hard)
    _memo_write(memo, same, at.k1, at.k2, flag, value, guess, at.n, work, at.d, moves.path, plen, moves.rule,
                stats)


@_phase
def _settle(at, flag, value, guess, params, stats, stop, glob, moves, shared, canon, memo):
    """Return ``value``, the node's exact value (``flag`` EXACT, with its best guess or -1) or a lower
    bound (LOWER), once stored in the memo with the work spent on it (under its least image too
    where it has one; not while the search is stopping, nor at a node checking its hard-mode rule
    lazily), and at the root with its best guess left in ``stats[S_BEST]``."""
    if guess >= 0 and at.level == 0:
        stats[S_BEST] = guess
    if stop[0] != 0 or at.cg >= 0:
        return value
    level, n, d = at.level, at.n, at.d
    plen = params[P_PATH0] + level
    spent = _spent(stats, at.w0)
    _store(at, flag, value, guess, spent, params, stats, glob, moves, moves.hard, shared, memo)
    if canon is not None and canon.on[level]:
        c1 = canon.keys[level, 0]
        c2 = canon.keys[level, 1]
        same = _memo_find(memo, params, shared.codes, c1, c2, canon.members[level], np.int64(0), n, d,
                          canon.path[level], plen, moves.rule, moves.hard)
        if guess >= 0:
            guess = image_row(shared.glet, canon, canon.sig[level], guess, params[P_COLOURS])
        _memo_write(memo, same, c1, c2, flag, value, guess, n, spent, d, canon.path[level], plen, moves.rule,
                    stats)
    return value


@_phase
def _least_image(at, plen, params, glob, path, shared, canon):
    """Map the node's set to the least image of its moves (``kernels.canonical_cpu``): its
    members, sorted moves and memo keys in ``canon``'s row ``level``; return False where it has
    none."""
    level, n = at.level, at.n
    sig = canon.sig[level]
    if not least_moves(shared.glet, canon, path, plen, params[P_NPAT], params[P_COLOURS], sig,
                       canon.path[level]):
        return False
    members = canon.members[level]
    if not image_members(shared.glet, canon, sig, shared.answer_rows, glob[level], at.lo, n,
                         params[P_COLOURS], members):
        return False
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    for i in range(n):
        h1 += shared.zob1[members[i]]
        h2 += shared.zob2[members[i]]
    canon.keys[level, 0], canon.keys[level, 1] = _memo_key(h1, h2, at.d, params)
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
    rule = np.zeros(memo.mrule.shape[1], np.int64)
    scratch = np.zeros(RULE_SCRATCH, np.int64)
    for i in range(k1.shape[0]):
        path = paths[i]
        if rule.shape[0] > 0:
            _combined_rule(params, glet, path, plen[i], rule, scratch)
        same = -1
        base = _bucket(memo.mmask[0], k1[i])
        for w in range(WAYS):
            j = base + w
            if (memo.mk1[j] == k1[i] and memo.mk2[j] == k2[i] and memo.mflag[j] != EMPTY
                    and memo.mdepth[j] == depth[i] and memo.msize[j] == size[i]
                    and _same_moves(memo, j, path, plen[i])):
                same = j
                break
        _memo_write(memo, same, k1[i], k2[i], EXACT if exact[i] else LOWER, value[i], guess[i],
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


@_phase
def hard_rule(params, glet, g, p, scratch):
    """Compile the hard-mode rule of guess row ``g`` with reply ``p`` into ``scratch``
    (``kernels.hardmode``)."""
    hardmode_cpu.hard_rule(params[P_KIND], params[P_LENGTH], glet, g, p, scratch)


@_phase
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


@_phase
def _repeats(mat, base, answers, mark, stats, most):
    """Return how many of the replies ``mat[base + answers[i]]`` repeat an earlier one (counting
    stops at ``most``)."""
    stats[S_STAMP] += 1
    st = stats[S_STAMP]
    k = 0
    for i in range(answers.shape[0]):
        c = mat[base + answers[i]]
        if mark[c] == st:
            k += 1
            if k >= most:
                return k
        mark[c] = st
    return k


# ---- the phases of a node, in the order ``_node`` runs them ---------------------------------------


@njit(cache=True, nogil=True)
def closed_form(n, d):
    """Return V of a set of ``n`` answers with ``d`` guesses left where a closed form gives it, else -1:
    one answer 1 (guessed now), two answers 3, none left or only one for two answers or more ``INF``."""
    if n == 1 and d >= 1:
        return 1
    if d <= 1:
        return INF
    return 3 if n == 2 else -1


@njit(cache=True, nogil=True)
def bucket_floor(m, left, most):
    """Return the least total of a bucket of ``m`` answers within ``left`` guesses when no guess gives
    more than ``most`` unsolved replies on it: its level bound (``kernels.levels``), exact for one or
    two answers (their closed forms)."""
    return level_bound(m, left, most, 1)


@_phase
def _few(level, lo, n, d, answer_rows, glob, stats):
    """Return V of a set of one or two answers, or with one guess left (``closed_form``), its answer
    the best guess at the root where it has one."""
    value = closed_form(n, d)
    if level == 0 and value < INF:
        stats[S_BEST] = answer_rows[glob[level, lo]]
    return value


@_phase
def _enter(level, lo, n, d, cg, cp, params, stats, by_depth, glob, moves, hard, shared):
    """Return the ``Node`` of a set of ``n`` answers at ``level`` with ``d`` guesses left: counted,
    its memo keys made (in hard mode with its moves' rule, left in ``moves.rule``), and its own
    hard-mode rule (``cg``, ``cp``) compiled into ``hard.scratch`` (``hard``: ``moves.hard``)."""
    w0 = _spent(stats, 0)
    stats[S_NODES] += 1
    by_depth[d, D_NODES] += 1
    if hard is not None and cg >= 0:
        hard_rule(params, shared.glet, cg, cp, hard.scratch)  # checked lazily, where a guess splits S
    k1, k2 = _set_keys(glob[level], lo, n, d, params[P_PATH0] + level, params, moves, hard, shared)
    return Node(level, lo, n, d, cg, cp, k1, k2, w0)


@_phase
def _set_keys(members, lo, n, d, plen, params, moves, hard, shared):
    """Return the memo keys of the set ``members[lo:lo + n]`` with ``d`` guesses left, reached by the
    moves ``moves.path[:plen]`` (in hard mode, ``hard`` not None, with their rule, left in
    ``moves.rule``)."""
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    for i in range(lo, lo + n):
        h1 += shared.zob1[members[i]]
        h2 += shared.zob2[members[i]]
    if hard is not None:
        h1 += _hard_key(params, shared.glet, moves.path, plen, moves.rule, hard.rscratch) * _MIX
    return _memo_key(h1, h2, d, params)


@_phase
def _look_up(at, beta, params, glob, moves, shared, memo, canon):
    """Return the memo slot holding the node's set, or -1. Where the slot does not decide the node,
    a set large enough in a code game is mapped to its least image (``canon.on[level]``), which
    is looked up when the set itself is not found."""
    level, n = at.level, at.n
    plen = params[P_PATH0] + level
    slot = -1
    if at.cg < 0:
        slot = _memo_find(memo, params, shared.codes, at.k1, at.k2, glob[level], at.lo, n, at.d, moves.path,
                          plen, moves.rule, moves.hard)
    if canon is None:
        return slot
    canon.on[level] = 0
    decided = slot >= 0 and (memo.mflag[slot] == EXACT or memo.mval[slot] >= beta)
    if not decided and level > 0 and at.cg < 0 and 0 < canon.min_size[0] <= n and _least_image(
            at, plen, params, glob, moves.path, shared, canon):
        canon.on[level] = 1
        if slot < 0:
            slot = _memo_find(memo, params, shared.codes, canon.keys[level, 0], canon.keys[level, 1],
                              canon.members[level], np.int64(0), n, at.d, canon.path[level], plen, moves.rule,
                              moves.hard)
    return slot


@_phase
def _first_bound(at, slot, beta, params, stats, memo):
    """Return (the node's value or a lower bound on it, whether that decides the node) from the memo
    slot (-1: none) and the level bound."""
    known = 2 * at.n - 1
    if slot >= 0:
        stats[S_MEMO_HITS] += 1
        if memo.mwork[slot] < 0:
            stats[S_STORE_HITS] += 1
        if memo.mflag[slot] == EXACT:
            if at.level == 0:
                stats[S_BEST] = memo.mguess[slot]
            return memo.mval[slot], True
        if memo.mval[slot] >= beta:
            return memo.mval[slot], True
        known = max(known, memo.mval[slot])
    known = max(known, level_bound(at.n, at.d, params[P_BRANCH], 1))
    return known, known >= beta or known >= INF


@_phase
def _guesses(at, params, lv):
    """Return (the rows of ``cmat[level]`` the node may guess, how many): its parent's choice, or in
    consistent mode its own answers' rows."""
    level = at.level
    if params[P_MODE] == CONSISTENT:
        for i in range(at.n):
            lv.cand[level, i] = lv.arow[level, at.lo + i]
        lv.ncand[level] = at.n
    return lv.cand[level], lv.ncand[level]


@_phase
def _mark_members(at, lv, tally, stats):
    """Return a fresh stamp, set in ``inset`` at the guess rows of the node's answers (their
    positions in ``inpos``)."""
    stats[S_STAMP] += 1
    stamp = stats[S_STAMP]
    for i in range(at.n):
        g = lv.rowg[at.level, lv.arow[at.level, at.lo + i]]
        tally.inset[g] = stamp
        tally.inpos[g] = i
    return stamp


@_phase
def _split_by_member(at, lv, tally, stats):
    """Return (2n - 1, an answer of S splitting S into singletons), else (2n, one leaving a single
    pair) when ``d >= 3``, else (0, -1). Each check stops at the first repeated reply."""
    level, lo, n = at.level, at.lo, at.n
    mat = lv.cmat[level]
    width = lv.stride[level]
    answers = lv.cols[level, lo:lo + n]
    pair = -1
    for i in range(n):
        r = lv.arow[level, lo + i]
        k = _repeats(mat, r * width, answers, tally.mark, stats, np.int64(2))
        if k == 0:
            return 2 * n - 1, lv.rowg[level, r]
        if k == 1 and pair < 0:
            pair = lv.rowg[level, r]
    if pair >= 0 and at.d >= 3:
        return 2 * n, pair  # nothing does better (a guess not in S: 2n at best)
    return 0, -1


@_phase
def _split_by_other(at, rows, m, stamp, params, stats, lv, tally, hard, shared):
    """Return a guess of ``rows[:m]`` not in S that splits S into singletons (and meets the node's
    hard-mode rule: ``hard`` the ``Hard`` scratch, None outside hard mode), or -1."""
    level, lo, n = at.level, at.lo, at.n
    mat = lv.cmat[level]
    width = lv.stride[level]
    answers = lv.cols[level, lo:lo + n]
    for j in range(m):
        r = rows[j]
        g = lv.rowg[level, r]
        if tally.inset[g] != stamp and _repeats(mat, r * width, answers, tally.mark, stats,
                                                np.int64(1)) == 0 and (
                hard is None or at.cg < 0 or rule_allows(params, shared.glet, shared.gcnt, shared.genc, at.cg,
                                                         at.cp, g, hard.scratch)):
            return g
    return -1


@_phase
def _closed_forms(at, beta, known, rows, m, stamp, params, stats, lv, tally, hard, shared):
    """Return (value, flag, best guess) where a closed form decides the node: a guess splitting S
    into singletons (2n - 1 in S, 2n outside), one in S leaving a pair (2n), none with two guesses
    left (``INF``), or a bound reaching ``beta`` (LOWER); else (the bound known, EMPTY, -1).
    Sets small enough for the pairwise scan ("fast") find the splitting guesses outside S there."""
    n = at.n
    fast = n <= params[P_VECTOR_MAX]
    if n <= params[P_NPAT] + 1:  # (answers of S are allowed in every mode)
        value, guess = _split_by_member(at, lv, tally, stats)
        if guess >= 0:
            return value, EXACT, guess
        if not fast:
            guess = _split_by_other(at, rows, m, stamp, params, stats, lv, tally, hard, shared)
            if guess >= 0:
                return 2 * n, EXACT, guess
    if fast:
        return known, EMPTY, -1
    if at.d == 2:
        return INF, EXACT, -1
    known = max(known, 2 * n)  # no guess splits S into singletons
    return known, LOWER if known >= beta else EMPTY, -1


# ---- the scan over guesses --------------------------------------------------------------------------
#
# The scan's contract (the CPU scans below; a GPU twin shares it):
#
# * in: the node's answers (columns of the parent's reply matrix: guess-major ``mat`` with row
#   width ``width``, or answer-major ``T``), the guess rows to scan (rows of that matrix), which
#   guesses are answers of S (``inset[rowg[r]] == stamp``, position ``inpos``), the mode;
# * out: the kept guesses (``Kept``, in scan order): every guess that splits S or is in it, one
#   per distinct reply vector over S in normal mode, one per class of rule twins over S in Wordle's
#   hard mode (``_alike``), with its reply row for the children, its
#   guess row, its bound ``3n - s - B`` (B distinct replies, s = 1 in S) and sort key (the bound,
#   then the sum of squared bucket sizes), and the row each answer of S has among them; and
#   ``most``, the most distinct replies any scanned guess gave.


@njit(cache=True, nogil=True, inline="always")
def _new_replies(out, dst, n, hh, j, gen, stamp, idx, hashes, twins, rowg, glet):
    """Return whether the reply row ``out[dst:dst + n]`` (hash ``hh``) of guess row ``rowg[j]`` differs
    from every row kept so far (the table ``stamp``, ``idx``, ``hashes`` of generation ``gen``), or
    with ``twins`` (Wordle's hard mode: the letters per word) is no rule twin of one (``_rule_twins``),
    recording it as kept number ``j`` if so."""
    tmask = stamp.shape[0] - 1
    t = np.int64(hh & np.uint64(tmask))
    while stamp[t] == gen:
        other = idx[t]
        if hashes[other] == hh:
            ob = other * n
            same = True
            for i in range(n):
                if out[ob + i] != out[dst + i]:
                    same = False
                    break
            if same and (twins == 0 or _rule_twins(out, dst, n, glet, rowg[other], rowg[j], twins)):
                return False
        t = (t + 1) & tmask
    stamp[t] = gen
    idx[t] = j
    hashes[j] = hh
    return True


@_phase
def _rule_twins(out, dst, n, glet, g, h, length):
    """Return whether guess rows ``g`` and ``h``, whose replies over S are both ``out[dst:dst + n]``
    (Wordle's), hold the same letters wherever one of those replies is not grey: rule twins, which
    cost the same at S and below it in hard mode. They split S alike, and the NYT rule after each
    reply reads a guess's letters only where it is green or yellow, so every bucket is left the same
    guesses, and every later rule removes alike (the driver's ``_Context.twin_key``). Twins over S
    are twins over its subsets, and meet every rule all of S meets alike (a rule asks for letters
    that each answer of S would show), so one kept for S serves its whole subtree."""
    for k in range(length):
        if glet[g, k] == glet[h, k]:
            continue
        place = 1
        for _ in range(length - 1 - k):
            place *= 3
        for i in range(n):
            if out[dst + i] // place % 3 != 0:
                return False
    return True


@njit(cache=True, nogil=True, inline="always")
def sort_key(bound, squares):
    """Return the key guesses are tried in order of: their bound (all alike above ``KEY_MAX``), then the
    sum of their squared bucket sizes (below 2**32)."""
    return min(bound, KEY_MAX) * (1 << 32) + squares


@njit(cache=True, nogil=True)
def sort_keys(bounds, squares):
    """Return the ``sort_key`` of each guess from its bound and sum of squared bucket sizes."""
    out = np.empty(bounds.shape[0], np.int64)
    for j in range(bounds.shape[0]):
        out[j] = sort_key(bounds[j], squares[j])
    return out


@_phase
def _keep(j, n, g, lb, squares, out, outT, rowg, lbs, keys):
    """Record guess row ``g`` as kept number ``j`` (its replies already at ``out[j * n:]``, copied to
    column j of ``outT``) with its bound ``lb`` and ``squares`` the sum of its squared bucket sizes."""
    dst = j * n
    for i in range(n):
        outT[i, j] = out[dst + i]
    rowg[j] = g
    lbs[j] = lb
    keys[j] = sort_key(lb, squares)


@_phase
def _scan_rows(mat, width, answers, rows, rowg, stamp, alike, gen, kept, tally, seen, stats, zob, glet):
    """Scan the guess rows ``rows`` of the guess-major ``mat`` over ``answers`` guess by guess, into
    ``kept`` (the scan's contract above; ``alike``: ``_alike``); return (how many kept, the most
    distinct replies)."""
    n = answers.shape[0]
    mark, cnt, inset, inpos = tally
    out, outT, krowg, tarow, lbs, keys = kept
    sstamp, sidx, shash = seen  # read once: each read from a bundle in the loop costs a reference count
    nsurv = np.int64(0)
    most = 0
    for j in range(rows.shape[0]):
        r = rows[j]
        g = rowg[r]
        in_s = inset[g] == stamp
        base = r * width
        dst = nsurv * n
        stats[S_STAMP] += 1
        st = stats[S_STAMP]
        nb = 0
        sq = np.int64(0)
        hh = np.uint64(0)
        for i in range(n):
            c = mat[base + answers[i]]
            out[dst + i] = c
            count = cnt[c] * (mark[c] == st)  # branch-free: earlier answers with reply c
            mark[c] = st
            cnt[c] = count + 1
            nb += count == 0
            sq += 2 * count + 1
            hh += np.uint64(c + 1) * zob[i]
        most = max(most, nb)
        if nb == 1 and not in_s:
            continue  # splits nothing: only wastes a guess, here and below
        krowg[nsurv] = g
        if alike >= 0 and not _new_replies(out, dst, n, hh, nsurv, gen, sstamp, sidx, shash, alike, krowg,
                                           glet):
            continue
        if in_s:
            tarow[inpos[g]] = nsurv
        _keep(nsurv, n, g, 3 * n - in_s - nb, sq, out, outT, krowg, lbs, keys)
        nsurv += 1
    return nsurv, most


@_phase
def _answer_major(at, rows, m, mode, lv, pairs):
    """Return (an answer-major reply matrix, the node's answers as its rows) whose columns are the
    guess rows ``rows[:m]``: the parent's own in normal mode (every row scanned), else gathered."""
    level, lo, n = at.level, at.lo, at.n
    if mode == NORMAL:
        return lv.cmatT[level], lv.cols[level, lo:lo + n]
    src = lv.cmatT[level]
    for i in range(n):
        srow = src[lv.cols[level, lo + i]]
        drow = pairs.tmpT[i]
        for j in range(m):
            drow[j] = srow[rows[j]]
    return pairs.tmpT, pairs.ident[:n]


@_phase
def _pair_scan(T, answers, m, veq, vpairs, vfirst, vhash, zob32):
    """Fill per guess j < m: equal reply pairs, distinct replies and a reply-vector hash over the
    answers (rows of the answer-major ``T``), vectorized over guesses."""
    for j in range(m):
        vpairs[j] = 0
        vfirst[j] = 0
        vhash[j] = 0
    for i in range(answers.shape[0]):
        ci = T[answers[i]]
        for j in range(m):
            veq[j] = 0
        for i2 in range(i):
            cj = T[answers[i2]]
            for j in range(m):
                e = ci[j] == cj[j]
                veq[j] |= e
                vpairs[j] += e
        z = zob32[i]
        for j in range(m):
            vfirst[j] += 1 - veq[j]
            vhash[j] += np.uint32(ci[j] + 1) * z


@_phase
def _pair_verdict(at, beta, known, rows, m, stamp, params, rowg, inset, vfirst, hard, shared):
    """Return (value, flag, best guess, most) from the pairwise scan's counts alone: a guess outside
    S splitting it into singletons (2n; meeting the node's hard-mode rule, ``hard`` not None), no
    useful guess or two guesses left (``INF``), or the bounds reaching ``beta`` (LOWER); else (the
    bound known, EMPTY, -1, most)."""
    n, d = at.n, at.d
    scan_lb = INF
    most = 0
    for j in range(m):
        nb = np.int64(vfirst[j])
        most = max(most, nb)
        g = rowg[rows[j]]
        in_s = inset[g] == stamp
        if nb == n and not in_s and (hard is None or at.cg < 0 or rule_allows(
                params, shared.glet, shared.gcnt, shared.genc, at.cg, at.cp, g, hard.scratch)):
            return 2 * n, EXACT, g, most
        lb = 3 * n - (1 if in_s else 0) - nb
        if lb < scan_lb and (nb > 1 or in_s):
            scan_lb = lb
    if d == 2 or scan_lb >= INF:
        return INF, EXACT, -1, most
    most = min(most, params[P_BRANCH])
    known = max(known, 2 * n, scan_lb, level_bound(n, d, most, 1))
    return known, LOWER if known >= beta else EMPTY, -1, most


@_phase
def _keep_pairs(T, answers, rows, rowg, stamp, alike, gen, kept, tally, pairs, seen, glet):
    """Keep the guesses of the pairwise scan (the scan's contract above; ``alike``: ``_alike``); return
    how many."""
    n = answers.shape[0]
    inset, inpos = tally.inset, tally.inpos
    vfirst, vpairs, vhash = pairs.vfirst, pairs.vpairs, pairs.vhash
    out, outT, krowg, tarow, lbs, keys = kept
    sstamp, sidx, shash = seen  # read once: each read from a bundle in the loop costs a reference count
    nsurv = np.int64(0)
    for j in range(rows.shape[0]):
        g = rowg[rows[j]]
        in_s = inset[g] == stamp
        nb = np.int64(vfirst[j])
        if nb == 1 and not in_s:
            continue  # splits nothing: only wastes a guess, here and below
        dst = nsurv * n
        for i in range(n):
            out[dst + i] = T[answers[i], j]
        krowg[nsurv] = g
        if alike >= 0 and not _new_replies(out, dst, n, np.uint64(vhash[j]), nsurv, gen, sstamp, sidx, shash,
                                           alike, krowg, glet):
            continue
        if in_s:
            tarow[inpos[g]] = nsurv
        _keep(nsurv, n, g, 3 * n - in_s - nb, n + 2 * np.int64(vpairs[j]), out, outT, krowg, lbs, keys)
        nsurv += 1
    return nsurv


@_phase
def _alike(params):
    """Return which kept guesses a scan drops as costing what one kept does (``_new_replies``): 0 those
    with the same replies over S (normal mode), the letters per word to compare too (rule twins,
    Wordle's hard mode), or -1 none (consistent mode, the other games' hard mode)."""
    mode = params[P_MODE]
    if mode == NORMAL:
        return np.int64(0)
    if mode == HARD and params[P_KIND] == WORDLE:
        return params[P_LENGTH]
    return np.int64(-1)


@_phase
def _scan(at, beta, known, rows, m, stamp, params, stats, by_depth, lv, bounds, tally, pairs, seen, moves,
          shared):
    """Return (value, flag, best guess, guesses kept, most): the scan over the guesses ``rows[:m]``
    (pairwise for small sets, else guess by guess), deciding the node where its counts do (flag
    EXACT or LOWER, as ``_pair_verdict``; or ``INF`` when no guess is kept), else the bound known."""
    level, lo, n, d = at.level, at.lo, at.n, at.d
    mode = params[P_MODE]
    stats[S_SCANNED] += m * n
    by_depth[d, D_CELLS] += m * n
    lv.stride[level + 1] = n
    stats[S_STAMP] += 1
    gen = stats[S_STAMP]  # a fresh table of reply rows kept
    kept = Kept(lv.cmat[level + 1], lv.cmatT[level + 1], lv.rowg[level + 1], lv.tarow[level],
                bounds.lbs[level], bounds.keys[level])
    if n <= params[P_VECTOR_MAX]:
        T, answers = _answer_major(at, rows, m, mode, lv, pairs)
        _pair_scan(T, answers, m, pairs.veq, pairs.vpairs, pairs.vfirst, pairs.vhash, shared.zob32)
        known, flag, guess, most = _pair_verdict(at, beta, known, rows, m, stamp, params, lv.rowg[level],
                                                 tally.inset, pairs.vfirst, moves.hard, shared)
        if flag != EMPTY:
            return known, flag, guess, 0, most
        nsurv = _keep_pairs(T, answers, rows[:m], lv.rowg[level], stamp, _alike(params), gen, kept, tally,
                            pairs, seen, shared.glet)
    else:
        nsurv, most = _scan_rows(lv.cmat[level], lv.stride[level], lv.cols[level, lo:lo + n], rows[:m],
                                 lv.rowg[level], stamp, _alike(params), gen, kept, tally, seen, stats,
                                 shared.zob1, shared.glet)
        most = min(most, params[P_BRANCH])
        known = max(known, level_bound(n, d, most, 1))
    if nsurv == 0:
        return INF, EXACT, -1, 0, most  # no guess splits S and none is in it
    return known, EMPTY, -1, nsurv, most


# ---- the order of the guesses, and the cost of one --------------------------------------------------


@_phase
def _guess_bounds(level, n, d, most, nsurv, rowg, inset, stamp, lbs, keys):
    """Raise the bound of each guess kept at a node of ``n`` answers to ``n`` plus its buckets'
    level bound (at most ``most`` unsolved replies a guess below it), and its sort key with it."""
    for j in range(nsurv):
        s = 1 if inset[rowg[level + 1, j]] == stamp else 0
        nb = 3 * n - s - lbs[level, j]  # its distinct replies (lbs holds 3n - s - nb)
        lb = n + level_bound(n - s, d - 1, most, nb - s)
        if lb > lbs[level, j]:
            lbs[level, j] = lb
            keys[level, j] = sort_key(lb, keys[level, j] & 0xFFFFFFFF)


@_phase
def _order(at, most, nsurv, stamp, rowg, inset, lbs, keys):
    """Return the kept guesses by increasing sort key, their bounds raised to the level bound."""
    _guess_bounds(at.level, at.n, at.d, most, nsurv, rowg, inset, stamp, lbs, keys)
    return argsort(keys[at.level, :nsurv])


@_phase
def _prepare_children(at, nsurv, order, params, lv, sym, glet):
    """Set the children's guesses (normal mode: every kept one) and, with the symmetries on, mark
    the first guess of each class to try; return where the history records this node's guess (-1:
    no symmetries)."""
    level = at.level
    if params[P_MODE] == NORMAL:
        for j in range(nsurv):
            lv.cand[level + 1, j] = j
        lv.ncand[level + 1] = nsurv
    if sym is None:
        return np.int64(-1)
    nhist = sym.nbase[0] + level
    if sym.on[0]:
        mark_classes(glet, sym, nhist, params[P_COLOURS], lv.rowg[level + 1], order, nsurv, sym.keep[level])
    return nhist


@_phase
def _image_tried(sym, level, k, nhist, g):
    """Return whether kept guess ``k`` is a symmetric image of a guess tried at the node (the same
    cost), else record its guess row ``g`` in the history (at ``nhist``)."""
    if sym is None:
        return False
    if sym.on[0] and sym.keep[level, k] == 0:
        return True
    sym.hist[nhist] = g
    return False


@_phase
def _partition(at, k, lv, bounds, tally, stats):
    """Partition S by the replies of kept guess ``k`` (a stable counting sort into row ``level + 1``);
    return how many buckets, their replies, starts and sizes in ``bcode``, ``bstart``, ``bsize``."""
    level, lo, n = at.level, at.lo, at.n
    out = lv.cmat[level + 1]
    mark, cnt = tally.mark, tally.cnt
    bcode, bstart, bsize = bounds.bcode[level], bounds.bstart[level], bounds.bsize[level]
    src = k * n
    stats[S_STAMP] += 1
    st = stats[S_STAMP]
    nbk = 0
    for i in range(n):  # buckets in first-seen order
        c = out[src + i]
        if mark[c] != st:
            mark[c] = st
            cnt[c] = 0
            bcode[nbk] = c
            nbk += 1
        cnt[c] += 1
    pos = lo
    for b in range(nbk):
        c = bcode[b]
        bstart[b] = pos
        bsize[b] = cnt[c]
        pos += cnt[c]
        cnt[c] = bstart[b]  # next write position
    ccols, cglob, carow = lv.cols[level + 1], lv.glob[level + 1], lv.arow[level + 1]
    for i in range(n):
        c = out[src + i]
        w = cnt[c]
        ccols[w] = i
        cglob[w] = lv.glob[level, lo + i]
        carow[w] = lv.tarow[level, i]
        cnt[c] = w + 1
    return nbk


@_phase
def _bucket_bounds(at, g, nbk, most, params, glob, bounds, moves, hard, shared, memo):
    """Return n plus the bounds of guess ``g``'s buckets (left in ``blb``): 0 for the solved one,
    else the level bound, raised to what the memo knows of buckets of three or more (``hard``:
    ``moves.hard``)."""
    level, d = at.level, at.d
    npat = params[P_NPAT]
    plen = params[P_PATH0] + level
    cglob = glob[level + 1]
    path = moves.path
    total = at.n
    for b in range(nbk):
        m = bounds.bsize[level, b]
        if bounds.bcode[level, b] == params[P_SOLVED]:
            bounds.blb[level, b] = 0
            continue
        lbv = bucket_floor(m, d - 1, most)
        if m >= 3:
            start = bounds.bstart[level, b]
            x1 = np.uint64(0)
            x2 = np.uint64(0)
            for i in range(start, start + m):
                x1 += shared.zob1[cglob[i]]
                x2 += shared.zob2[cglob[i]]
            path[plen] = g * npat + bounds.bcode[level, b]
            if hard is not None:
                x1 += _hard_key(params, shared.glet, path, plen + 1, moves.rule, hard.rscratch) * _MIX
            q1, q2 = _memo_key(x1, x2, d - 1, params)
            sl = _memo_find(memo, params, shared.codes, q1, q2, cglob, start, m, d - 1, path, plen + 1,
                            moves.rule, hard)
            if sl >= 0 and memo.mval[sl] > lbv:
                lbv = memo.mval[sl]
        bounds.blb[level, b] = lbv
        total += lbv
    return total


@_phase
def _needs_2m(at, nbk, total, limit, solved, lv, bounds, mark, stats):
    """Return ``total`` plus one for each bucket of m >= 3 answers at its bound 2m - 1 that none of
    its own answers splits into singletons (it needs at least 2m; its bound raised), stopping once
    ``limit`` is reached."""
    level, n = at.level, at.n
    out = lv.cmat[level + 1]
    ccols, carow = lv.cols[level + 1], lv.arow[level + 1]
    for b in range(nbk):
        m = bounds.bsize[level, b]
        if m < 3 or bounds.bcode[level, b] == solved or bounds.blb[level, b] != 2 * m - 1:
            continue
        start = bounds.bstart[level, b]
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
            bounds.blb[level, b] = 2 * m
            total += 1
            if total >= limit:
                break
    return total


@_phase
def _child_guesses(at, g, b, nsurv, ident, params, lv, bounds, moves, hard, shared):
    """Set the move to bucket ``b`` of guess row ``g`` and its guesses; return (the hard-mode rule its
    node checks lazily, or -1, -1; the rows of ``cand[level + 1]`` known to hold 0, 1, ... (-1:
    none), ``ident`` before). In hard mode a node with two guesses left only needs a guess
    splitting it into singletons: it checks the rule on those alone (and is not memoized). ``hard``:
    ``moves.hard``."""
    level = at.level
    code = bounds.bcode[level, b]
    moves.path[params[P_PATH0] + level] = g * params[P_NPAT] + code
    lg = np.int64(-1)  # not a literal: outside hard mode nothing else is assigned, and _node would compile
    lp = np.int64(-1)  # again for its literal value
    if hard is not None and at.d - 1 == 2:
        lg = g
        lp = code
        if ident != nsurv:
            for j in range(nsurv):
                lv.cand[level + 1, j] = j
            ident = nsurv
        lv.ncand[level + 1] = nsurv
    elif hard is not None:
        ident = -1
        kk = 0
        hard_rule(params, shared.glet, g, code, hard.scratch)
        # the rule inlined (a call per kept guess costs hard mode ~15%), its arrays taken out of their
        # bundles once: read from a bundle inside the loop, each costs a reference count taken and
        # dropped per guess (34 ns a guess against 5; half of GIRDS's CPU on nyt-2023-07)
        kind, length, colours = params[P_KIND], params[P_LENGTH], params[P_COLOURS]
        genc, gcnt, scratch = shared.genc, shared.gcnt, hard.scratch
        rowg, cand = lv.rowg[level + 1], lv.cand[level + 1]
        for j in range(nsurv):
            if hardmode_cpu.rule_allows(kind, length, colours, genc, gcnt, g, code, rowg[j], scratch):
                cand[kk] = j
                kk += 1
        lv.ncand[level + 1] = kk
    return lg, lp, ident


@njit(cache=True, nogil=True, inline="always")
def _covers(rule, weaker, length):
    """Return whether every guess meeting the combined hard-mode rule ``rule`` meets ``weaker`` too
    (``_combined_rule``'s layout): each green letter of ``weaker`` is ``rule``'s there, and each
    least letter count of ``weaker`` is at most ``rule``'s."""
    for k in range(length):
        if weaker[k] >= 0 and rule[k] != weaker[k]:
            return False
    least = True
    for j in range(length, rule.shape[0]):  # a loop: numba compiles no generator here
        least &= rule[j] >= weaker[j]
    return least


@_phase
def _gather_cores(at, stamp, params, moves, hard, tally, shared):
    """At a node with three guesses left, write its combined rule to ``cores.rule3`` and the dead
    cores that apply to it (each answer in its set, its rule covering theirs: ``_covers``) as
    positions in its set to ``cores.pos`` (their answers marked in ``inset`` with ``stamp``)."""
    cores = hard.cores
    _combined_rule(params, shared.glet, moves.path, params[P_PATH0] + at.level, cores.rule3, hard.rscratch)
    length = params[P_LENGTH]
    a = 0
    for c in range(min(cores.count[0], CORES)):
        size = cores.size[c]
        inside = _covers(cores.rule3, cores.rule[c], length)
        for t in range(size):
            if not inside:
                break
            g = cores.rows[c, t]
            inside = tally.inset[g] == stamp
            cores.pos[a, t] = tally.inpos[g]
        if inside:
            cores.psize[a] = size
            a += 1
    cores.npos[0] = a


@_phase
def _core_refutes(out, width, nsurv, first, cores):
    """Set ``cores.skip[k]`` for each kept guess ``k < nsurv`` of a node with three guesses left (its
    replies ``out[k * width:][:width]``) giving every answer of a dead core that applies to it
    (``cores.pos[a]``, ``a`` from ``first``) one reply: that bucket, with two guesses left, holds the
    core under a rule covering the core's, so no guess it allows splits it into singletons, and the
    guess has no strategy within the limit."""
    pos, psize, skip = cores.pos, cores.psize, cores.skip
    for k in range(nsurv):
        base = k * width
        for a in range(first, cores.npos[0]):
            if skip[k]:
                break
            c0 = out[base + pos[a, 0]]
            same = True
            for t in range(1, psize[a]):
                if out[base + pos[a, t]] != c0:
                    same = False
                    break
            skip[k] = same


@_phase
def _splits_none(lv, level, pos, size, tally, stats):
    """Return whether no guess of a node with two guesses left (rows of ``cmat[level]``, its parent's
    kept guesses) gives distinct replies to the answers at positions ``pos[:size]`` of its parent's
    set."""
    mat = lv.cmat[level]
    width = lv.stride[level]
    for j in range(lv.ncand[level]):
        base = lv.cand[level, j] * width
        stats[S_STAMP] += 1
        st = stats[S_STAMP]
        split = True
        for t in range(size):
            c = mat[base + pos[t]]
            if tally.mark[c] == st:
                split = False
                break
            tally.mark[c] = st
        if split:
            return False
    return True


@_phase
def _record_core(at, lv, tally, stats, hard):
    """Record a dead core of a node with two guesses left when no guess of its list splits its set
    into singletons, whatever its own move's rule: its answers, less each one whose removal
    leaves a set still split by none (down to three), under its parent's combined rule; kept
    among the cores that apply to the parent too. Sound: the list holds every guess meeting
    that rule that splits the parent's set (hard mode's lists: every allowed guess, less those
    splitting no set above), so every such guess splitting the core (a subset) is there."""
    cores = hard.cores
    level, lo, n = at.level, at.lo, at.n
    a = cores.npos[0]
    if n > CORE_MAX or a >= CORES:
        return
    pos, rows = cores.pos[a], cores.rows[CORES]  # the last row: scratch
    for i in range(n):
        pos[i] = lv.cols[level, lo + i]
        rows[i] = lv.rowg[level, lv.arow[level, lo + i]]
    if not _splits_none(lv, level, pos, n, tally, stats):
        return
    size = n
    i = 0
    while i < size and size > 3:  # drop answer i (swapped with the last) where the rest stay dead
        pos[i], pos[size - 1] = pos[size - 1], pos[i]
        rows[i], rows[size - 1] = rows[size - 1], rows[i]
        if _splits_none(lv, level, pos, size - 1, tally, stats):
            size -= 1
        else:
            pos[i], pos[size - 1] = pos[size - 1], pos[i]
            rows[i], rows[size - 1] = rows[size - 1], rows[i]
            i += 1
    c = cores.count[0] % CORES
    cores.rows[c, :] = rows
    cores.size[c] = size
    cores.rule[c, :] = cores.rule3
    cores.psize[a] = size
    cores.npos[0] = a + 1
    cores.count[0] += 1
    _core_refutes(lv.cmat[level], lv.stride[level], lv.ncand[level], a, cores)  # the parent's guesses


@_phase
def _cores_at(at, stamp, nsurv, params, lv, moves, hard, tally, shared):
    """Return the marks of the kept guesses the dead cores refute (``cores.skip``; None outside hard
    mode): at a node with three guesses left in Wordle's hard mode (a combined rule), having gathered
    the cores that apply to it (``_gather_cores``) and marked the ``nsurv`` kept guesses they refute
    (``_core_refutes``); none elsewhere."""
    if hard is None:
        return None
    cores = hard.cores
    cores.npos[0] = 0
    if at.d == 3 and moves.rule.shape[0] > 0:
        _gather_cores(at, stamp, params, moves, hard, tally, shared)
        cores.skip[:nsurv] = 0
        _core_refutes(lv.cmat[at.level + 1], at.n, nsurv, np.int64(0), cores)
    return cores.skip


@_phase
def _refuted_by_core(at, k, skip):
    """Return whether a dead core refutes kept guess ``k``: marked in ``skip`` (``_cores_at``, and by
    the cores its children record: ``_record_core``; None outside hard mode). It runs for every
    guess of a node, so it is given one array: a call takes and drops a reference to each array
    it is given (the dead cores' bundle: 30% of GIRDS's CPU on nyt-2023-07)."""
    if skip is None:
        return False
    return at.d == 3 and skip[k] != 0


@_phase
def _note_dead(at, value, lv, tally, stats, moves, hard):
    """Record a dead core where a node with two guesses left below a node that gathered cores
    (``_cores_at``) has none (``_record_core``)."""
    if hard is None:
        return
    if at.d == 2 and at.cg >= 0 and value >= INF and moves.rule.shape[0] > 0:
        _record_core(at, lv, tally, stats, hard)


@_phase
def _bucket_order(sizes, smallest):
    """Return the order in which a guess's buckets of ``sizes`` are searched: the largest first
    (their values tighten the others' limits), or with ``smallest`` (hard mode with no cutoff
    yet, where every bucket is searched whole in any order) the smallest first: a guess with no
    strategy within the limit is stopped by its first bucket with none, in hard mode most
    often a small one (answers sharing most letters, which the rule keeps guessing)."""
    return argsort(sizes) if smallest else argsort(-sizes)


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
    ``cg``, ``cp``: a hard-mode rule the node's guesses must meet, checked lazily (-1: none).
    """
    params, stats, stop, sym, canon = work.params, work.stats, work.stop, work.sym, work.canon
    lv, bounds, tally, moves = work.levels, work.bounds, work.tally, work.moves
    if n <= 2 or d <= 1:
        return _few(level, lo, n, d, shared.answer_rows, lv.glob, stats)
    if stop[0] != 0:
        return INF
    hard = moves.hard  # read once: each read of a bundle's member takes a reference to each of its arrays
    at = _enter(level, lo, n, d, cg, cp, params, stats, work.by_depth, lv.glob, moves, hard, shared)
    slot = _look_up(at, beta, params, lv.glob, moves, shared, memo, canon)
    known_lb, decided = _first_bound(at, slot, beta, params, stats, memo)
    if decided:
        return known_lb
    rows, m_in = _guesses(at, params, lv)
    stamp = _mark_members(at, lv, tally, stats)
    value, flag, guess = _closed_forms(at, beta, known_lb, rows, m_in, stamp, params, stats, lv, tally,
                                       hard, shared)
    if flag != EMPTY:
        _note_dead(at, value, lv, tally, stats, moves, hard)
        return _settle(at, flag, value, guess, params, stats, stop, lv.glob, moves, shared, canon, memo)
    value, flag, guess, nsurv, most = _scan(at, beta, value, rows, m_in, stamp, params, stats, work.by_depth,
                                            lv, bounds, tally, work.pairs, work.seen, moves, shared)
    if flag != EMPTY:
        _note_dead(at, value, lv, tally, stats, moves, hard)
        return _settle(at, flag, value, guess, params, stats, stop, lv.glob, moves, shared, canon, memo)
    order = _order(at, most, nsurv, stamp, lv.rowg, tally.inset, bounds.lbs, bounds.keys)
    known_lb = max(value, bounds.lbs[level, order[0]])
    if known_lb >= beta:
        return _settle(at, np.int64(LOWER), known_lb, np.int64(-1), params, stats, stop, lv.glob, moves,
                       shared, canon, memo)

    # the least cost over the kept guesses, by increasing bound: the best so far (or beta) cuts.
    # The cost of one: partition, its buckets' bounds, the 2m rule, then its buckets searched (the
    # recursion stays in this one function: numba caches mutual recursion unreliably, numba#6061)
    nhist = _prepare_children(at, nsurv, order, params, lv, sym, shared.glet)
    skip = _cores_at(at, stamp, nsurv, params, lv, moves, hard, tally, shared)
    solved = params[P_SOLVED]
    best, best_g, lower, ident = np.int64(INF), np.int64(-1), np.int64(INF), np.int64(-1)
    for oi in range(nsurv):
        k = order[oi]
        limit = min(best, beta)
        if bounds.lbs[level, k] >= limit:
            lower = min(lower, bounds.lbs[level, k])
            break
        g = np.int64(lv.rowg[level + 1, k])
        if _image_tried(sym, level, k, nhist, g):
            continue  # a symmetric image of a guess tried here: the same cost
        if _refuted_by_core(at, k, skip):
            continue  # no strategy within the limit: its cost is INF
        stats[S_EVALUATED] += 1
        nbk = _partition(at, k, lv, bounds, tally, stats)
        total = _bucket_bounds(at, g, nbk, most, params, lv.glob, bounds, moves, hard, shared, memo)
        if total < limit:
            total = _needs_2m(at, nbk, total, limit, solved, lv, bounds, tally.mark, stats)
        if total < limit:  # search its buckets, from the largest down, while the total may beat limit
            # (hard mode with no cutoff yet: the smallest first, see _bucket_order)
            for b in _bucket_order(bounds.bsize[level, :nbk], params[P_MODE] == HARD and limit >= INF >> 1):
                m = bounds.bsize[level, b]
                if m <= 2 or bounds.bcode[level, b] == solved:
                    continue
                rest = total - bounds.blb[level, b]
                lg, lp, ident = _child_guesses(at, g, b, nsurv, ident, params, lv, bounds, moves, hard,
                                               shared)
                v = _node(level + 1, bounds.bstart[level, b], m, d - 1, limit - rest, lg, lp, shared, work,
                          memo)
                total = rest + max(v, bounds.blb[level, b])
                if total >= limit:
                    break
        if total < limit:
            best, best_g = total, g
        elif total < lower:
            lower = total
    if stop[0] != 0:
        return INF
    if best < beta:
        return _settle(at, np.int64(EXACT), best, best_g, params, stats, stop, lv.glob, moves, shared, canon,
                       memo)
    return _settle(at, np.int64(LOWER), max(lower, known_lb), np.int64(-1), params, stats, stop, lv.glob,
                   moves, shared, canon, memo)


@njit(cache=True, nogil=True)
def _load_root(answers, guesses, amat, answer_rows, lv, inpos, stats):
    """Return whether every answer of the set ``answers`` is among ``guesses`` (else a caller's
    error), having made them level 0 of ``lv``: the replies, answers' columns and rows, guesses.
    The replies are read from the answer-major matrix ``amat`` (a row per answer: n rows read
    whole, where the guess-major one is read at n scattered columns of every row) and written
    guess-major a block of ``LOAD_BLOCK`` guesses at a time (each block's rows stay in cache)."""
    n = answers.shape[0]
    m = guesses.shape[0]
    top = lv.cmat[0]
    topT = lv.cmatT[0]
    for i in range(n):
        src = amat[answers[i]]
        dst = topT[i]
        for j in range(m):
            dst[j] = src[guesses[j]]
    for j0 in range(0, m, LOAD_BLOCK):
        for i in range(n):
            src = topT[i]
            for j in range(j0, min(m, j0 + LOAD_BLOCK)):
                top[j * n + i] = src[j]
    for j in range(m):
        lv.rowg[0, j] = guesses[j]
        lv.cand[0, j] = j
        inpos[guesses[j]] = -1
    for i in range(n):
        lv.cols[0, i] = i
        lv.glob[0, i] = answers[i]
        inpos[answer_rows[answers[i]]] = i
        lv.arow[0, i] = -1
    for j in range(m):
        i = inpos[guesses[j]]
        if i >= 0:
            lv.arow[0, i] = j
    for i in range(n):
        if lv.arow[0, i] < 0:
            return False
    lv.stride[0] = n
    lv.ncand[0] = m
    stats[S_BEST] = -1
    return True


def solve_set(answers: np.ndarray, d: int, beta: int, guesses: np.ndarray, shared: Shared, work: Scratch,
              memo: Memo, amat: np.ndarray) -> int:
    """Return V(answers, d) below ``beta`` (exact) or a lower bound >= ``beta`` (-1 where an answer
    of the set is not among the guesses: a caller's error).

    ``answers`` are columns of the full reply matrix ``codes``, the set the moves
    ``work.moves.path[:work.params[P_PATH0]]`` leave of the root set; ``guesses`` its rows allowed
    here (they must include every answer's own row); ``amat`` the reply matrix answer-major
    (``codes.T``, contiguous). The best guess row is left in ``stats[S_BEST]`` (-1 when none).
    ``cmat`` needs room for ``len(guesses) * len(answers)`` replies per level (``with_room``). Python
    calls ``_node`` itself: a compiled caller would compile the whole search once more (the module
    docstring).
    """
    if not _load_root(answers, guesses, amat, shared.answer_rows, work.levels, work.tally.inpos, work.stats):
        return -1
    return _node(0, 0, len(answers), int(d), int(beta), -1, -1, shared, work, memo)


@njit(cache=True, nogil=True)
def look_up_set(glob, d, beta, params, stats, moves, shared, memo):
    """Return (V if below ``beta``, else a lower bound; whether that decides the set; its best guess row
    or -1) of the set ``glob[0]`` with ``d`` guesses left from the memo and the level bound, as a node
    finds them (``_look_up``, ``_first_bound``): for sets the caller searches itself, reached by the
    moves ``moves.path[:params[P_PATH0]]``."""
    n = glob.shape[1]
    k1, k2 = _set_keys(glob[0], np.int64(0), n, d, params[P_PATH0], params, moves, moves.hard, shared)
    at = Node(np.int64(0), np.int64(0), n, d, np.int64(-1), np.int64(-1), k1, k2, np.int64(0))
    slot = _look_up(at, beta, params, glob, moves, shared, memo, None)
    known, decided = _first_bound(at, slot, beta, params, stats, memo)
    exact = decided and slot >= 0 and memo.mflag[slot] == EXACT
    return known, decided, memo.mguess[slot] if exact else -1


@njit(cache=True, nogil=True)
def settle_set(glob, d, flag, value, guess, work, params, stats, moves, shared, memo):
    """Store the exact value (``flag`` EXACT, with its best guess row or -1) or lower bound (LOWER) of
    the set ``glob[0]`` with ``d`` guesses left, reached by the moves ``moves.path[:params[P_PATH0]]``,
    with the ``work`` it took, as a node settles (``_store``)."""
    n = glob.shape[1]
    k1, k2 = _set_keys(glob[0], np.int64(0), n, d, params[P_PATH0], params, moves, moves.hard, shared)
    at = Node(np.int64(0), np.int64(0), n, d, np.int64(-1), np.int64(-1), k1, k2, np.int64(0))
    _store(at, flag, value, guess, work, params, stats, glob, moves, moves.hard, shared, memo)


def paged(shape: int | tuple[int, ...], dtype) -> np.ndarray:
    """Return a zeroed array whose memory becomes resident page by page (4 KiB) as it is written:
    a private anonymous map of its own (numpy asks for 2 MiB pages for a large array, each made
    resident whole at its first write)."""
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    if nbytes == 0:
        return np.zeros(shape, dtype)
    return np.frombuffer(mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE), dtype).reshape(shape)


def new_moves(levels: int, rule_width: int, hard: bool, guesses: int = 0) -> Moves:
    """Return room for the moves of a set ``levels`` below the root and, in ``hard`` mode, their
    hard-mode rule and dead cores (for searches over at most ``guesses`` guesses)."""
    cores = Cores(rows=np.zeros((CORES + 1, CORE_MAX), np.int32),
                  rule=np.zeros((CORES, rule_width), np.int64), size=np.zeros(CORES, np.int64),
                  count=np.zeros(1, np.int64),
                  rule3=np.zeros(rule_width, np.int64), pos=np.zeros((CORES, CORE_MAX), np.int64),
                  psize=np.zeros(CORES, np.int64), npos=np.zeros(1, np.int64),
                  skip=np.zeros(guesses if hard else 0, np.uint8))
    scratch = Hard(rscratch=np.zeros(RULE_SCRATCH, np.int64), scratch=np.zeros(max(SCRATCH, 64), np.int64),
                   cores=cores)
    return Moves(path=np.zeros(levels, np.int32), rule=np.zeros(rule_width, np.int64),
                 hard=scratch if hard else None)


def new_scratch(params: np.ndarray, n_guesses: int, n_answers: int, n_patterns: int, levels: int,
                rule_width: int, sym, canon) -> Scratch:
    """Return a worker's workspace for searches of up to ``levels - 2`` guesses over a matrix of
    ``n_guesses`` x ``n_answers`` (its reply matrices empty: ``with_room`` grows them)."""
    g, a, npat = n_guesses, n_answers, n_patterns
    table = 1 << max(4, int(2 * g - 1).bit_length())
    return Scratch(
        params=params, stats=np.zeros(N_STATS, np.int64), stop=np.zeros(1, np.int64),
        by_depth=np.zeros((levels, 2), np.int64),
        levels=Levels(
            cmat=np.empty((levels, 0), np.uint8),  # grown on demand (pages touched as used)
            cmatT=np.empty((levels, 0, g), np.uint8), stride=np.zeros(levels, np.int64),
            cols=np.zeros((levels, a), np.int32), glob=np.zeros((levels, a), np.int32),
            arow=np.zeros((levels, a), np.int32), tarow=np.zeros((levels, a), np.int32),
            rowg=np.zeros((levels, g), np.int32), cand=np.zeros((levels, g), np.int32),
            ncand=np.zeros(levels, np.int64)),
        bounds=Bounds(
            lbs=np.zeros((levels, g), np.int64), keys=np.zeros((levels, g), np.int64),
            bcode=np.zeros((levels, npat), np.int64), bstart=np.zeros((levels, npat), np.int64),
            bsize=np.zeros((levels, npat), np.int64), blb=np.zeros((levels, npat), np.int64)),
        tally=Tally(mark=np.zeros(npat, np.int64), cnt=np.zeros(npat, np.int64), inset=np.zeros(g, np.int64),
                    inpos=np.zeros(g, np.int32)),
        pairs=Pairs(veq=np.zeros(g, np.uint8), vpairs=np.zeros(g, np.uint16), vfirst=np.zeros(g, np.uint16),
                    vhash=np.zeros(g, np.uint32), tmpT=np.empty((0, g), np.uint8),
                    ident=np.arange(a, dtype=np.int32)),
        seen=Seen(stamp=np.zeros(table, np.int64), idx=np.zeros(table, np.int32),
                  hash=np.zeros(g, np.uint64)),
        moves=new_moves(levels, rule_width, params[P_MODE] == HARD, g),
        sym=sym, canon=canon,
    )


def with_room(work: Scratch, cells: int, n_answers: int) -> Scratch:
    """Return ``work`` with reply matrices holding ``cells`` replies per level and ``n_answers``
    answer rows (new arrays only where they are smaller)."""
    lv, pairs = work.levels, work.pairs
    levels, g = lv.cmatT.shape[0], lv.cmatT.shape[2]
    if lv.cmat.shape[1] < cells:
        lv = lv._replace(cmat=paged((levels, cells), np.uint8))
    if lv.cmatT.shape[1] < n_answers:
        lv = lv._replace(cmatT=paged((levels, n_answers, g), np.uint8))
        pairs = pairs._replace(tmpT=paged((n_answers, g), np.uint8))
    return work._replace(levels=lv, pairs=pairs)


__all__ = ["INF", "Memo", "Scratch", "Shared", "bucket_floor", "closed_form", "hard_filter", "look_up_set",
           "memo_harvest", "memo_preload", "new_moves", "new_scratch", "paged", "settle_set", "solve_set",
           "sort_keys", "with_room"]
