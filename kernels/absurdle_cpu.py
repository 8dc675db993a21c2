"""CPU kernels (numba) for Absurdle: the replier keeps the largest bucket of remaining answers.

``codes`` is the pattern matrix (guess rows x answer columns), ``guesses`` the int32 guess rows
that may be played, ``members`` int32 answer columns.

* ``absurdle_solvable(S, d)``: can the player win within d guesses against the Absurdle
  replier, who keeps the largest bucket (ties: the lowest reply code; the solved reply only
  when nothing else is left)?

``budget[0]`` counts down the nodes a search may visit; at zero every search answers False
and ``budget[1]`` is set to 1: the caller must then treat the results as unknown.
"""

import numpy as np
from numba import njit

from .worstcase_cpu import _candidate_order, set_key, splits_into_singletons


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
