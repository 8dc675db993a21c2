"""CPU kernels (numba) for adversaries: the minimax depth search and Absurdle's greedy replier.

``codes`` is the pattern matrix (guess rows x answer columns), ``guesses`` the int32 guess rows
that may be played, ``members`` int32 answer columns. A set of answers is keyed in the memos
by the XOR of a random 64-bit word per answer column (``zobrist``), times a depth salt.

* ``solvable(S, d)``: can every answer of S be found within d guesses whatever the replies
  (a true adversary that may answer anything consistent)? Exact, with proven failures memoised.
* ``absurdle_solvable(S, d)``: can the player win within d guesses against the Absurdle
  replier, who keeps the largest bucket (ties: the lowest reply code; the solved reply only
  when nothing else is left)?

``budget[0]`` counts down the nodes a search may visit; at zero every search answers False
and ``budget[1]`` is set to 1: the caller must then treat the results as unknown.
"""

import numpy as np
from numba import njit, types
from numba.typed import Dict

_SALT = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def new_memo():
    """Return an empty memo: set-and-depth key -> 1 (solvable) or 0 (proven not)."""
    return Dict.empty(key_type=types.int64, value_type=types.int8)


@njit(cache=True)
def set_key(members, zobrist, depth):
    """Return the memo key of an answer set at a depth."""
    key = np.uint64(0)
    for a in members:
        key ^= zobrist[a]
    return np.int64(key ^ (np.uint64(depth) * _SALT))


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
def _candidate_order(codes, guesses, members, n_patterns, solved, hist):
    """Return the guesses that split ``members``, by (largest bucket, -branches), and their
    largest buckets."""
    ng = guesses.shape[0]
    worst = np.empty(ng, np.int64)
    score = np.empty(ng, np.int64)
    n = members.shape[0]
    for i in range(ng):
        row = codes[guesses[i]]
        biggest = 0
        branches = 0
        for a in members:
            c = row[a]
            hist[c] += 1
        for a in members:
            c = row[a]
            h = hist[c]
            if h:
                if c != solved:
                    biggest = max(biggest, h)
                branches += 1
                hist[c] = 0
        worst[i] = biggest
        useless = biggest == n
        score[i] = (n + 1) * (n + 1) if useless else biggest * (n + 1) + (n - branches)
    order = np.argsort(score, kind="mergesort")
    keep = 0
    for i in range(ng):
        if score[order[i]] < (n + 1) * (n + 1):
            keep += 1
    return order[:keep], worst


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
def pool_stats(codes, pool, members, n_patterns, out):
    """Fill ``out[i] = (largest bucket, number of branches)`` of ``pool[i]`` over ``members``."""
    hist = np.zeros(n_patterns, np.int64)
    for i in range(pool.shape[0]):
        row = codes[pool[i]]
        for a in members:
            hist[row[a]] += 1
        biggest = 0
        branches = 0
        for a in members:
            h = hist[row[a]]
            if h:
                branches += 1
                biggest = max(biggest, h)
                hist[row[a]] = 0
        out[i, 0] = biggest
        out[i, 1] = branches


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
def node_order(codes, pool, members, depth, n_patterns):
    """Return (candidate positions in ``pool``, most branches) for a node with ``depth`` left."""
    n = members.shape[0]
    table = np.empty((pool.shape[0], 2), np.int64)
    pool_stats(codes, pool, members, n_patterns, table)
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
    T8, slot, bits, used, owners = pc
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
def unseparable_core(members, pc, acc, core):
    """Return 0 if some pool guess gives every member a different reply; otherwise the length
    of an unseparable core written to ``core`` (a prefix of ``members``)."""
    bits = pc[2]
    m = members.shape[0]
    for i in range(1, m):
        for j in range(i):
            s = pair_slot(members[i], members[j], pc)
            row = bits[s]
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
    return 0


@njit(cache=True)
def strike_core(core, length, alive, tmp, pc):
    """Clear in ``alive`` every guess giving all of the core the same reply."""
    bits = pc[2]
    for w in range(tmp.shape[0]):
        tmp[w] = ~np.uint64(0)
    for t in range(1, length):
        row = bits[pair_slot(core[0], core[t], pc)]
        for w in range(tmp.shape[0]):
            tmp[w] &= ~row[w]
    for w in range(tmp.shape[0]):
        alive[w] &= ~tmp[w]


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
            if size > most:
                ok = False
                break
            m = 0
            for a in members:
                if row[a] == best:
                    part[m] = a
                    m += 1
            length = unseparable_core(part[:m], pc, acc, core)
            if length:
                strike_core(core, length, alive, tmp, pc)
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
def solvable(codes, guesses, members, depth, n_patterns, solved, zobrist, memo, budget, consistent,
             answer_rows, pc):
    """Return whether every answer of ``members`` can be found within ``depth`` guesses.

    With ``consistent`` the guesses are the remaining answers themselves; ``pc`` is the pair
    cache (normal mode). Every answer must be a guess.
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
    key = set_key(members, zobrist, depth)
    if key in memo:
        return memo[key] == 1
    pool = guess_pool(guesses, members, consistent, answer_rows)
    if depth == 2:
        found = separable(codes, pool, members, solved, np.zeros(n_patterns, np.int64))
        memo[key] = np.int8(1) if found else np.int8(0)
        return found
    order, most = node_order(codes, pool, members, depth, n_patterns)
    found = False
    if depth == 3 and not consistent:
        found = solve3(codes, pool, members, order, most, n_patterns, solved, pc, budget) >= 0
    else:
        for i in order:
            parts, starts = buckets(codes[pool[i]], members, n_patterns, solved)
            ok = True
            for b in range(starts.shape[0] - 1):
                sub = parts[starts[b]:starts[b + 1]]
                if not solvable(codes, guesses, sub, depth - 1, n_patterns, solved, zobrist, memo,
                                budget, consistent, answer_rows, pc):
                    ok = False
                    break
            if budget[1] != 0:
                return False
            if ok:
                found = True
                break
    if budget[1] != 0:
        return False
    memo[key] = np.int8(1) if found else np.int8(0)
    return found


@njit(cache=True)
def solving_guess(codes, guesses, members, depth, n_patterns, solved, zobrist, memo, budget,
                  consistent, answer_rows, pc, order, most):
    """Return the first guess row of ``order`` (pool positions) after which every bucket of
    ``members`` is solvable within ``depth - 1``, or -1 (also when the budget ran out)."""
    pool = guess_pool(guesses, members, consistent, answer_rows)
    if depth == 3 and not consistent:
        return solve3(codes, pool, members, order, most, n_patterns, solved, pc, budget)
    for i in order:
        parts, starts = buckets(codes[pool[i]], members, n_patterns, solved)
        ok = True
        for b in range(starts.shape[0] - 1):
            sub = parts[starts[b]:starts[b + 1]]
            if not solvable(codes, guesses, sub, depth - 1, n_patterns, solved, zobrist, memo, budget,
                            consistent, answer_rows, pc):
                ok = False
                break
        if budget[1] != 0:
            return -1
        if ok:
            return pool[i]
    return -1


@njit(cache=True)
def first_solving_guess(codes, guesses, members, depth, n_patterns, solved, zobrist, memo, budget,
                        consistent, answer_rows, pc):
    """Return the guess row the search picks to solve ``members`` within ``depth``, or -1."""
    if members.shape[0] == 1:
        return answer_rows[members[0]]
    pool = guess_pool(guesses, members, consistent, answer_rows)
    order, most = node_order(codes, pool, members, depth, n_patterns)
    return solving_guess(codes, guesses, members, depth, n_patterns, solved, zobrist, memo, budget,
                         consistent, answer_rows, pc, order, most)


@njit(cache=True)
def absurdle_reply(row, members, n_patterns, solved, hist):
    """Return (reply, kept members): the replier keeps the largest bucket (ties: lowest reply;
    the solved reply only when it is the only one)."""
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


@njit  # not cached: numba's disk cache of this recursion crashes on reload (numba 0.68)
def absurdle_solvable(codes, guesses, members, depth, n_patterns, solved, zobrist, memo, budget, line, at):
    """Return whether the player can win within ``depth`` guesses against the Absurdle replier;
    on success ``line[at:at + depth]`` holds guess rows of a win (-1 past its end)."""
    n = members.shape[0]
    if depth <= 0:
        return False
    if n == 1 and depth >= 1:
        for g in range(guesses.shape[0]):
            if codes[guesses[g], members[0]] == solved:
                line[at] = guesses[g]
                for j in range(at + 1, line.shape[0]):
                    line[j] = -1
                return True
        return False
    if depth == 1:
        return False
    if budget[0] <= 0:
        budget[1] = 1
        return False
    budget[0] -= 1
    key = set_key(members, zobrist, depth)
    if key in memo and memo[key] == 0:
        return False
    hist = np.zeros(n_patterns, np.int64)
    if depth == 2:
        seen = np.zeros(n_patterns, np.int64)
        for i in range(guesses.shape[0]):
            if splits_into_singletons(codes[guesses[i]], members, solved, i + 1, seen):
                reply, kept = absurdle_reply(codes[guesses[i]], members, n_patterns, solved, hist)
                line[at] = guesses[i]
                if reply == solved:
                    for j in range(at + 1, line.shape[0]):
                        line[j] = -1
                    return True
                absurdle_solvable(codes, guesses, kept, 1, n_patterns, solved, zobrist, memo, budget,
                                  line, at + 1)
                return True
        if budget[1] == 0:
            memo[key] = np.int8(0)
        return False
    order, _worst = _candidate_order(codes, guesses, members, n_patterns, solved, hist)
    for i in order:
        reply, kept = absurdle_reply(codes[guesses[i]], members, n_patterns, solved, hist)
        line[at] = guesses[i]
        if reply == solved:
            for j in range(at + 1, line.shape[0]):
                line[j] = -1
            return True
        if absurdle_solvable(codes, guesses, kept, depth - 1, n_patterns, solved, zobrist, memo, budget,
                             line, at + 1):
            return True
        if budget[1] != 0:
            return False
    if budget[1] == 0:
        memo[key] = np.int8(0)
    return False
