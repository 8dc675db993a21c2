"""CPU kernels (numba) for the true adversary: the minimax depth search.

``codes`` is the pattern matrix (guess rows x answer columns), ``guesses`` the int32 guess rows
that may be played, ``members`` int32 answer columns. A set of answers is keyed in the memos
by the XOR of a random 64-bit word per answer column (``zobrist``), times a depth salt.

* ``solvable(S, d)``: can every answer of S be found within d guesses whatever the replies
  (a true adversary that may answer anything consistent)? Exact, with proven failures memoised.

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


@njit(cache=True)
def solvable(codes, guesses, members, depth, n_patterns, solved, zobrist, memo, budget, consistent,
             answer_rows):
    """Return whether every answer of ``members`` can be found within ``depth`` guesses.

    With ``consistent`` the guesses are the remaining answers themselves.
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
        seen = np.zeros(n_patterns, np.int64)
        found = False
        for i in range(pool.shape[0]):
            if splits_into_singletons(codes[pool[i]], members, solved, i + 1, seen):
                found = True
                break
        if budget[1] == 0:
            memo[key] = np.int8(1) if found else np.int8(0)
        return found
    hist = np.zeros(n_patterns, np.int64)
    order, _ = _candidate_order(codes, pool, members, n_patterns, solved, hist)
    found = False
    for i in order:
        row = codes[pool[i]]
        parts, starts = buckets(row, members, n_patterns, solved)
        ok = True
        for b in range(starts.shape[0] - 1):
            sub = parts[starts[b]:starts[b + 1]]
            if not solvable(codes, guesses, sub, depth - 1, n_patterns, solved, zobrist, memo, budget,
                            consistent, answer_rows):
                ok = False
                break
        if budget[1] != 0:
            return False
        if ok:
            found = True
            break
    memo[key] = np.int8(1) if found else np.int8(0)
    return found


@njit(cache=True)
def first_solving_guess(codes, guesses, members, depth, n_patterns, solved, zobrist, memo, budget,
                        consistent, answer_rows):
    """Return the guess row the search picks to solve ``members`` within ``depth``, or -1."""
    n = members.shape[0]
    pool = guess_pool(guesses, members, consistent, answer_rows)
    hist = np.zeros(n_patterns, np.int64)
    order, _ = _candidate_order(codes, pool, members, n_patterns, solved, hist)
    if n == 1:
        return answer_rows[members[0]]
    for i in order:
        row = codes[pool[i]]
        parts, starts = buckets(row, members, n_patterns, solved)
        ok = True
        for b in range(starts.shape[0] - 1):
            sub = parts[starts[b]:starts[b + 1]]
            if not solvable(codes, guesses, sub, depth - 1, n_patterns, solved, zobrist, memo, budget,
                            consistent, answer_rows):
                ok = False
                break
        if budget[1] != 0:
            return -1
        if ok:
            return pool[i]
    return -1
