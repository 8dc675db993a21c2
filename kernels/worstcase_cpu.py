"""CPU kernels (numba) for the true adversary: the minimax depth search.

``codes`` is the pattern matrix (guess rows x answer columns), ``guesses`` the int32 guess rows
that may be played, ``members`` int32 answer columns (ascending). The memo of proven results
is a ``kernels.setkeys`` memo: (set, guesses left) -> 1 (solvable) or 0 (proven not), found by
the XOR of a random 64-bit word per answer column (``zobrist``) and checked member by member.

* ``solvable(S, d)``: can every answer of S be found within d guesses whatever the replies
  (a true adversary that may answer anything consistent)? Exact, with proven results memoised;
  ``solving_guess`` names the guess it finds. The pruning rules are listed above
  ``child_cap``; ``solve3`` is the node with 3 guesses left (pair bit sets, unseparable cores).

``budget[0]`` counts down the nodes a search may visit; at zero every search answers False
and ``budget[1]`` is set to 1: the caller must then treat the results as unknown.

``sym`` (``symmetry_cpu.Sym``; ``glet`` the guesses' letters) is the code games' symmetry: with
``sym.on[0]`` set, a node's set is everything the guess rows ``sym.hist[:sym.nbase[0] + level]``
leave, and of the guesses of one class under the symmetries fixing them only the first is tried
(they all answer alike); the memo keeps true results either way. ``canon``
(``canonical_cpu.Canon``) then also keys the memo by the image of a set under the symmetry that
makes its moves least, for sets of ``canon.min_size[0]`` answers or more: the set and its images
share one entry (still proven by its members, and true for every image).
"""

from collections import namedtuple

import numpy as np
from numba import njit

from . import setkeys
from .canonical_cpu import MAX_MOVES, image_members, least_moves
from .histogram_cpu import row_stats
from .stats import BRANCHES, MAX, N_STATS
from .symmetry_cpu import mark_classes

Lists = namedtuple("Lists", "codes guesses answer_rows glet zobrist n_patterns solved consistent")
"""What a search over one game's lists reads: the reply matrix, the int32 guess rows that may be
played, the row of each answer, the guesses' letters (for the symmetries), the Zobrist word of
each answer column, the replies, and whether the guesses are the remaining answers themselves."""


@njit(cache=True)
def splits_into_singletons(row, members, solved, stamp, seen):
    """Return whether a guess (its matrix ``row``) gives every member a different reply.

    ``seen`` is int64 scratch (one entry per reply) never holding ``stamp`` on entry.
    """
    ok = True
    for a in members:
        c = row[a]
        if c == solved:
            continue
        if seen[c] == stamp:
            ok = False
            break
        seen[c] = stamp
    return ok


@njit(cache=True)
def buckets(row, members, n_patterns, solved):
    """Return (order, starts): members grouped by reply, the solved reply left out, largest first."""
    counts = np.zeros(n_patterns + 1, np.int64)
    for a in members:
        counts[row[a] + 1] += 1
    counts[solved + 1] = 0
    sizes = counts[1:].copy()
    for p in range(n_patterns):
        counts[p + 1] += counts[p]
    n = counts[n_patterns]
    order = np.empty(n, np.int32)
    fill = counts[:n_patterns].copy()
    for a in members:
        c = row[a]
        if c != solved:
            order[fill[c]] = a
            fill[c] += 1
    by_size = np.argsort(-sizes, kind="mergesort")
    groups = 0
    for p in range(n_patterns):
        groups += sizes[p] > 0
    starts = np.empty(groups + 1, np.int64)
    ends = np.empty(groups, np.int64)
    out = np.empty(n, np.int32)
    pos = 0
    for i in range(groups):
        p = by_size[i]
        starts[i] = pos
        out[pos:pos + sizes[p]] = order[counts[p]:counts[p] + sizes[p]]
        pos += sizes[p]
        ends[i] = pos
    starts[groups] = pos
    return out, starts


@njit(cache=True)
def guess_pool(guesses, members, consistent, answer_rows):
    """Return the guess rows to try: all ``guesses``, or (``consistent``) the members' own rows."""
    if not consistent:
        return guesses
    pool = np.empty(members.shape[0], np.int32)
    for i in range(members.shape[0]):
        pool[i] = answer_rows[members[i]]
    return pool


# ---- the minimax depth search ------------------------------------------------------------
#
# Exact necessary conditions (each one only ever rejects a guess that cannot work):
#
# * A set C is solvable within 2 guesses iff |C| <= 2 or some guess gives every member a
#   different reply ("separates" C). So |C| <= branches(C), the most replies any guess gives
#   on C; and branches(C) <= branches(S) = K for every C inside S.
# * Within k guesses, |C| <= cap(k) = K ** (k - 1): the first guess makes at most K branches
#   (the solved one holds one answer), each solvable within k - 1.
# * So at a node S with d guesses left, only guesses whose largest bucket is at most
#   cap(d - 1) can work, and a guess whose buckets are not all within cap fails at once.
# * With 3 guesses left (normal mode), a bucket C must be separated by a third guess. Each
#   pair of answers has the bit set of the guesses separating it (cached); C is separable iff
#   the AND over its pairs is not empty. When it is empty, the answers involved are an
#   unseparable "core": every second guess that leaves a whole core in one bucket fails too,
#   so all such guesses are struck off at once (their bit sets are the complements).


@njit(cache=True)
def child_cap(left, most_branches, n):
    """Return the most answers a set inside the node can hold and be solved within ``left``
    guesses, when no guess gives more than ``most_branches`` replies on the node (capped at n)."""
    if left <= 1:
        return 1
    cap = max(most_branches, 2)
    for _ in range(left - 2):
        cap = min(cap * max(most_branches, 2), n)
    return min(cap, n)


@njit(cache=True)
def candidate_order(biggest, branches, n, cap):
    """Return the positions whose largest bucket is below ``n`` (the guess splits the set) and at
    most ``cap``, by (largest bucket, most branches, position)."""
    keep = 0
    for i in range(biggest.shape[0]):
        if biggest[i] < n and biggest[i] <= cap:
            keep += 1
    pos = np.empty(keep, np.int64)
    score = np.empty(keep, np.int64)
    j = 0
    for i in range(biggest.shape[0]):
        if biggest[i] < n and biggest[i] <= cap:
            pos[j] = i
            score[j] = biggest[i] * (n + 1) + (n - branches[i])
            j += 1
    return pos[np.argsort(score, kind="mergesort")]


@njit(cache=True)
def node_order(codes, pool, members, depth, n_patterns, solved):
    """Return (candidate positions in ``pool``, most branches) for a node with ``depth`` left."""
    n = members.shape[0]
    table = np.empty((pool.shape[0], 2), np.int64)
    hist = np.zeros((4, n_patterns), np.int32)
    acc = np.zeros(N_STATS, np.int64)
    unused = np.zeros(1, np.int64)  # the sums' tables: no sums asked for
    for i in range(pool.shape[0]):
        row_stats(codes[pool[i]], members, 0, n, n_patterns, solved, False, unused, unused, hist, acc)
        table[i, 0] = acc[MAX]
        table[i, 1] = acc[BRANCHES]
    most = 0
    for i in range(pool.shape[0]):
        most = max(most, table[i, 1])
    cap = child_cap(depth - 1, most, n)
    return candidate_order(table[:, 0], table[:, 1], n, cap), most


@njit(cache=True)
def pair_bits(T8, a, b, out):
    """Fill ``out`` with the bit set of pool guesses giving answers ``a`` and ``b`` different
    replies (``T8``: the answer-major reply bytes, 64 guesses per 8 words)."""
    ta = T8[a]
    tb = T8[b]
    low = np.uint64(0x7F7F7F7F7F7F7F7F)
    ones = np.uint64(0x0101010101010101)
    gather = np.uint64(0x0102040810204080)
    for w in range(out.shape[0]):
        v = np.uint64(0)
        for k in range(8):
            x = ta[w * 8 + k] ^ tb[w * 8 + k]
            nonzero = ((((x & low) + low) | x) >> np.uint64(7)) & ones  # 1 per differing byte
            v |= ((nonzero * gather) >> np.uint64(56)) << np.uint64(8 * k)
        out[w] = v


@njit(cache=True)
def pair_slot(a, b, pc):
    """Return the row of the pair cache holding the separators of answers ``a`` != ``b``."""
    T8, slot, bits, used, owners, _ = pc
    if a < b:
        a, b = b, a
    s = slot[a, b]
    if s >= 0:
        return s
    if used[0] >= bits.shape[0]:  # full: start afresh
        for i in range(used[0]):
            slot[owners[i, 0], owners[i, 1]] = -1
        used[0] = 0
        used[1] += 1
    s = used[0]
    used[0] += 1
    pair_bits(T8, a, b, bits[s])
    slot[a, b] = s
    owners[s, 0] = a
    owners[s, 1] = b
    return s


@njit(cache=True)
def _bit_count(words, stop):
    """Return the number of set bits in ``words``, or ``stop`` once it is reached."""
    total = 0
    for w in range(words.shape[0]):
        v = words[w]
        v = v - ((v >> np.uint64(1)) & np.uint64(0x5555555555555555))
        v = (v & np.uint64(0x3333333333333333)) + ((v >> np.uint64(2)) & np.uint64(0x3333333333333333))
        v = (v + (v >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
        total += np.int64((v * np.uint64(0x0101010101010101)) >> np.uint64(56))
        if total >= stop:
            return stop
    return total


_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_BIT = np.array([0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4, 62, 55, 59, 36, 53, 51,
                          43, 22, 45, 39, 33, 30, 24, 18, 12, 5, 63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52,
                          21, 44, 32, 23, 11, 46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6],
                         np.int64)


@njit(cache=True)
def _lowest_bit(v):
    """Return the index of the lowest set bit of ``v`` (not 0)."""
    return _DEBRUIJN_BIT[((v & (~v + np.uint64(1))) * _DEBRUIJN) >> np.uint64(58)]


FEW_GUESSES = 64
"""Below this many guesses left that separate the members so far, they are checked one by one."""


@njit(cache=True)
def unseparable_core(members, pc, acc, core, left, seen, paired):
    """Return 0 if some pool guess gives every member a different reply; otherwise the length
    of an unseparable core written to ``core`` (a prefix of ``members``).

    The guesses separating the members so far are the AND of their pairs' bit sets; once
    fewer than FEW_GUESSES remain they are listed in ``left`` and each following member is
    checked against them directly (``seen``: their replies so far, 256 bits each).
    ``paired[0]`` is set to how many leading members had all their pairs' bit sets used.
    """
    bits = pc[2]
    replies = pc[5]
    m = members.shape[0]
    paired[0] = m
    n_left = -1  # the bit sets are in use
    for i in range(1, m):
        a = members[i]
        if n_left < 0:
            for j in range(i):
                row = bits[pair_slot(a, members[j], pc)]
                nonzero = False
                if i == 1:
                    for w in range(acc.shape[0]):
                        acc[w] = row[w]
                        nonzero |= row[w] != 0
                else:
                    for w in range(acc.shape[0]):
                        acc[w] &= row[w]
                        nonzero |= acc[w] != 0
                if not nonzero:
                    core[:i + 1] = members[:i + 1]
                    return i + 1
            if i + 1 < m and _bit_count(acc, FEW_GUESSES) < FEW_GUESSES:
                n_left = 0
                for w in range(acc.shape[0]):
                    v = acc[w]
                    while v:
                        left[n_left] = w * 64 + _lowest_bit(v)
                        n_left += 1
                        v &= v - np.uint64(1)
                paired[0] = i + 1
                for t in range(n_left):
                    seen[t, :] = 0
                    for j in range(i + 1):
                        c = replies[members[j], left[t]]
                        seen[t, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
        else:
            t = 0
            while t < n_left:
                c = replies[a, left[t]]
                mask = np.uint64(1) << np.uint64(c & 63)
                if seen[t, c >> 6] & mask:  # two members share a reply: this guess is out
                    n_left -= 1
                    left[t] = left[n_left]
                    seen[t, :] = seen[n_left, :]
                else:
                    seen[t, c >> 6] |= mask
                    t += 1
            if n_left == 0:
                core[:i + 1] = members[:i + 1]
                return i + 1
    return 0


FEW_STRUCK = 128
"""Below this many guesses left to strike, the rest of a core is checked one guess at a time."""


@njit(cache=True)
def strike_core(core, length, paired, alive, tmp, pc):
    """Clear in ``alive`` every guess giving all of the core the same reply: through the pair
    cache (its first ``paired`` members, and more while many guesses remain), then one guess
    at a time."""
    bits = pc[2]
    replies = pc[5]
    for w in range(tmp.shape[0]):
        tmp[w] = alive[w]
    t = 1
    while t < length and (t < paired or _bit_count(tmp, FEW_STRUCK) >= FEW_STRUCK):
        row = bits[pair_slot(core[0], core[t], pc)]
        nonzero = False
        for w in range(tmp.shape[0]):
            tmp[w] &= ~row[w]
            nonzero |= tmp[w] != 0
        if not nonzero:
            return
        t += 1
    for w in range(tmp.shape[0]):
        v = tmp[w]
        while v:
            bit = _lowest_bit(v)
            v &= v - np.uint64(1)
            g = w * 64 + bit
            c = replies[core[0], g]
            same = True
            for u in range(t, length):
                if replies[core[u], g] != c:
                    same = False
                    break
            if same:
                alive[w] &= ~(np.uint64(1) << np.uint64(bit))


@njit(cache=True)
def solve3(codes, pool, members, order, most, n_patterns, solved, pc, budget):
    """Return the first pool row of ``order`` (positions) after which every bucket of
    ``members`` is separable (so the members are solved within 3 guesses), or -1.

    Normal mode only (the pool is fixed, so the pair cache indexes it).
    """
    n = members.shape[0]
    words = pc[2].shape[1]
    alive = np.full(words, ~np.uint64(0), np.uint64)
    tmp = np.empty(words, np.uint64)
    acc = np.empty(words, np.uint64)
    left = np.empty(FEW_GUESSES, np.int64)
    seen = np.empty((FEW_GUESSES, 4), np.uint64)
    paired = np.empty(1, np.int64)
    hist = np.zeros(n_patterns, np.int64)
    replies = np.empty(min(n, n_patterns), np.int64)
    part = np.empty(n, np.int32)
    core = np.empty(n, np.int32)
    for i in order:
        if not (alive[i >> 6] >> np.uint64(i & 63)) & np.uint64(1):
            continue
        if budget[0] <= 0:
            budget[1] = 1
            return -1
        budget[0] -= 1
        row = codes[pool[i]]
        k = 0
        for a in members:
            c = row[a]
            if hist[c] == 0:
                replies[k] = c
                k += 1
            hist[c] += 1
        ok = True
        while ok:
            best = -1
            size = 2  # buckets of one or two are always solved within 2
            for t in range(k):
                c = replies[t]
                if c != solved and hist[c] > size:
                    best = c
                    size = hist[c]
            if best < 0:
                break
            hist[best] = 0
            if size > most or size == n:  # cannot be separated, or the guess does not split
                ok = False
                break
            m = 0
            for a in members:
                if row[a] == best:
                    part[m] = a
                    m += 1
            length = unseparable_core(part[:m], pc, acc, core, left, seen, paired)
            if length:
                strike_core(core, length, paired[0], alive, tmp, pc)
                ok = False
        for t in range(k):
            hist[replies[t]] = 0
        if ok:
            return pool[i]
    return -1


@njit(cache=True)
def separable(codes, pool, members, solved, seen):
    """Return whether some guess of ``pool`` gives every member a different reply.

    ``seen`` is zeroed int64 scratch, one entry per reply (left zeroed).
    """
    found = False
    for i in range(pool.shape[0]):
        if splits_into_singletons(codes[pool[i]], members, solved, i + 1, seen):
            found = True
            break
    seen[:] = 0
    return found


@njit(cache=True)
def uses_pairs(pc, consistent):
    """Return whether nodes with 3 guesses left go through ``solve3``: normal mode with a real
    pair cache (a stand-in has a 1 x 1 slot table)."""
    return not consistent and pc[1].shape[0] > 1


@njit(cache=True)
def _per_class(pool, order, sym, glet, level):
    """Return the positions of ``order`` whose guess is the first of its class under the
    symmetries fixing the history (all of them with the symmetries off)."""
    if sym.on[0] == 0 or order.shape[0] < 2:
        return order
    keep = sym.keep[level]
    mark_classes(glet, sym, sym.nbase[0] + level, sym.smap.shape[1], pool, order, order.shape[0], keep)
    n = 0
    for i in order:
        n += keep[i]
    out = np.empty(n, order.dtype)
    n = 0
    for i in order:
        if keep[i]:
            out[n] = i
            n += 1
    return out


@njit(cache=True)
def _image_set(lists, members, sym, canon, level):
    """Return (the image of ``members`` under the symmetry making its moves least, sorted, whether
    there is one): where the search maps sets this large (``kernels.canonical_cpu``)."""
    codes, n_patterns, glet, answer_rows = lists.codes, lists.n_patterns, lists.glet, lists.answer_rows
    n = members.shape[0]
    nhist = sym.nbase[0] + level
    if sym.on[0] == 0 or canon.min_size[0] == 0 or n < canon.min_size[0] or nhist > MAX_MOVES:
        return np.empty(0, np.int32), False
    out = np.empty(n, np.int32)
    path = np.empty(nhist, np.int32)
    for t in range(nhist):
        g = sym.hist[t]
        path[t] = g * n_patterns + codes[g, members[0]]
    sig = canon.sig[0]  # scratch: nothing else uses it between here and the image
    colours = sym.smap.shape[1]
    if least_moves(glet, canon, path, nhist, n_patterns, colours, sig, canon.path[0]) and image_members(
            glet, canon, sig, answer_rows, members, 0, n, colours, out):
        out.sort()
        return out, True
    return np.empty(0, np.int32), False


@njit(cache=True)
def _remember(memo, members, h, image, hi, mapped, depth, found):
    """Store a proven result under the set, and under its image where it has one."""
    setkeys.store(memo, members, h, depth, 1 if found else 0)
    if mapped:
        setkeys.store(memo, image, hi, depth, 1 if found else 0)


@njit(cache=True)
def _try_guess(lists, members, sym, level, row):
    """Return ``buckets`` of ``members`` after guess ``row`` (recorded in the history where the
    symmetries are on: only then is it read, and only then does it have room for every level)."""
    if sym.on[0]:
        sym.hist[sym.nbase[0] + level] = row
    return buckets(lists.codes[row], members, lists.n_patterns, lists.solved)


@njit(cache=True)
def solvable(lists, members, depth, memo, budget, pc, sym, canon, level):
    """Return whether every answer of ``members`` can be found within ``depth`` guesses.

    ``pc`` is the pair cache (normal mode; without one, nodes with 3 left recurse like the others).
    Every answer must be a guess. ``level``: the guesses made since the search's root (for ``sym``).
    """
    n = members.shape[0]
    if n == 1:
        return depth >= 1
    if depth <= 1:
        return False
    if n == 2:
        return True
    if budget[0] <= 0:
        budget[1] = 1
        return False
    budget[0] -= 1
    h = setkeys.set_hash(members, lists.zobrist)
    known = setkeys.find(memo, members, h, depth, -1)
    if known >= 0:
        return known == 1
    image, mapped = _image_set(lists, members, sym, canon, level)
    hi = setkeys.set_hash(image, lists.zobrist)  # empty (0) when there is no image
    if mapped:
        known = setkeys.find(memo, image, hi, depth, -1)
    if known >= 0:
        return known == 1
    pool = guess_pool(lists.guesses, members, lists.consistent, lists.answer_rows)
    if depth == 2:
        found = separable(lists.codes, pool, members, lists.solved, np.zeros(lists.n_patterns, np.int64))
        _remember(memo, members, h, image, hi, mapped, depth, found)
        return found
    order, most = node_order(lists.codes, pool, members, depth, lists.n_patterns, lists.solved)
    order = _per_class(pool, order, sym, lists.glet, level)
    found = False
    if depth == 3 and uses_pairs(pc, lists.consistent):
        found = solve3(lists.codes, pool, members, order, most, lists.n_patterns, lists.solved, pc,
                       budget) >= 0
    else:
        for i in order:
            parts, starts = _try_guess(lists, members, sym, level, pool[i])
            ok = True
            for b in range(starts.shape[0] - 1):
                sub = parts[starts[b]:starts[b + 1]]
                if not solvable(lists, sub, depth - 1, memo, budget, pc, sym, canon, level + 1):
                    ok = False
                    break
            if budget[1] != 0:
                return False
            if ok:
                found = True
                break
    if budget[1] != 0:
        return False
    _remember(memo, members, h, image, hi, mapped, depth, found)
    return found


@njit(cache=True)
def solving_guess(lists, members, depth, memo, budget, pc, sym, canon, level, order, most):
    """Return the first guess row of ``order`` (pool positions) after which every bucket of
    ``members`` is solvable within ``depth - 1``, or -1 (also when the budget ran out)."""
    pool = guess_pool(lists.guesses, members, lists.consistent, lists.answer_rows)
    order = _per_class(pool, order, sym, lists.glet, level)
    if depth == 3 and uses_pairs(pc, lists.consistent):
        return solve3(lists.codes, pool, members, order, most, lists.n_patterns, lists.solved, pc, budget)
    for i in order:
        parts, starts = _try_guess(lists, members, sym, level, pool[i])
        ok = True
        for b in range(starts.shape[0] - 1):
            sub = parts[starts[b]:starts[b + 1]]
            if not solvable(lists, sub, depth - 1, memo, budget, pc, sym, canon, level + 1):
                ok = False
                break
        if budget[1] != 0:
            return -1
        if ok:
            return pool[i]
    return -1
