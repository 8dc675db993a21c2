"""Answer sets as memo keys, collision-proof: a 64-bit hash finds a set, its members prove it.

A set of answer columns hashes to the XOR of a random 64-bit word per answer (``zobrist``), so
a search can hash a bucket as it fills it. A hash only *finds*: two different sets may share
one, so nothing here trusts it alone.

* ``first_of_each`` deduplicates sets given back to back (``flat[starts[c]:starts[c + 1]]``):
  sets with equal hashes are compared member by member.
* the memo (``new_memo``, ``find``, ``store``) maps (set, tag) to a small value; each entry
  keeps its set's members in an arena (one int32 array, doubled when full) and a lookup
  compares them, probing the next key when a different set holds it. The tag (for example
  the guesses left) is part of the entry and of the key.

Members must come in one canonical order (the searches keep them ascending): the same set in
another order is a different entry, a memo miss, never a wrong hit. ``KEY_BITS`` is the
test hook: ``zobrist`` draws words of that many bits, so tests set it to 0 (every set hashes
to 0) or a few bits to make collisions the rule (the results must not change).
"""

import numpy as np
from numba import njit, types
from numba.typed import Dict, List

KEY_BITS = 64
"""Bits of the random word per answer (tests lower it to force hash collisions)."""

_SALT = np.uint64(0x9E3779B97F4A7C15)
_HEADER = 3
"""An arena entry: members count, tag, value, then the members."""


def zobrist(n: int, seed: int) -> np.ndarray:
    """Return ``n`` random uint64 words of ``KEY_BITS`` bits (one per answer column)."""
    words = np.random.default_rng(seed).integers(0, np.iinfo(np.uint64).max, n, dtype=np.uint64,
                                                 endpoint=True)
    return words & np.uint64((1 << KEY_BITS) - 1 if KEY_BITS < 64 else np.iinfo(np.uint64).max)


@njit(cache=True)
def set_hash(members, zobrist):
    """Return the hash of a set of answer columns (the XOR of their words), as int64."""
    h = np.uint64(0)
    for a in members:
        h ^= zobrist[a]
    return np.int64(h)


@njit(cache=True)
def _same(flat, starts, c, d):
    """Return whether sets c and d of ``flat`` / ``starts`` hold the same members in order."""
    n = starts[c + 1] - starts[c]
    same = starts[d + 1] - starts[d] == n
    i = 0
    while same and i < n:
        same = flat[starts[c] + i] == flat[starts[d] + i]
        i += 1
    return same


@njit(cache=True)
def first_of_each(flat, starts, hashes):
    """Return bool ``first[c]``: set c = ``flat[starts[c]:starts[c + 1]]`` differs from every
    earlier set (``hashes[c]`` its hash; equal hashes are checked member by member)."""
    m = hashes.shape[0]
    order = np.argsort(hashes, kind="mergesort")  # stable: within a run, earlier sets first
    first = np.ones(m, np.bool_)
    i = 0
    while i < m:
        j = i
        while j + 1 < m and hashes[order[j + 1]] == hashes[order[i]]:
            j += 1
        for x in range(i + 1, j + 1):
            for y in range(i, x):
                if first[order[y]] and _same(flat, starts, order[x], order[y]):
                    first[order[x]] = False
                    break
        i = j + 1
    return first


@njit(cache=True)
def new_memo():
    """Return an empty memo: (key -> arena offset, [arena], [arena entries used])."""
    index = Dict.empty(key_type=types.int64, value_type=types.int64)
    arena = List.empty_list(types.int32[::1])
    arena.append(np.empty(1 << 12, np.int32))
    return index, arena, np.zeros(1, np.int64)


@njit(cache=True)
def _slot(memo, members, h, tag):
    """Return (key, arena offset) of the entry of (members, tag), or (a free key, -1)."""
    index, arena, _ = memo
    entries = arena[0]
    n = members.shape[0]
    key = np.int64(np.uint64(h) ^ (np.uint64(tag) * _SALT))
    while key in index:
        e = index[key]
        if entries[e] == n and entries[e + 1] == tag:
            same = True
            for i in range(n):
                if entries[e + _HEADER + i] != members[i]:
                    same = False
                    break
            if same:
                return key, e
        key += 1  # another set holds this key: probe the next
    return key, np.int64(-1)


@njit(cache=True)
def find(memo, members, h, tag, default):
    """Return the value stored for (members, tag), or ``default``; ``h`` is the set's hash."""
    _, e = _slot(memo, members, h, tag)
    return default if e < 0 else memo[1][0][e + 2]


@njit(cache=True)
def store(memo, members, h, tag, value):
    """Store ``value`` for (members, tag), replacing any earlier one; ``h`` is the set's hash."""
    key, e = _slot(memo, members, h, tag)
    index, arena, used = memo
    if e >= 0:
        arena[0][e + 2] = value
        return
    n = members.shape[0]
    e = used[0]
    need = e + _HEADER + n
    entries = arena[0]
    if need > entries.shape[0]:
        bigger = np.empty(max(2 * entries.shape[0], need), np.int32)
        for i in range(e):  # not a slice assignment: its shape check compiles a formatted message
            bigger[i] = entries[i]
        arena[0] = bigger
        entries = bigger
    entries[e] = n
    entries[e + 1] = tag
    entries[e + 2] = value
    for i in range(n):
        entries[e + _HEADER + i] = members[i]
    used[0] = need
    index[key] = e


@njit(cache=True)
def find_each(memo, flat, starts, hashes, tag, default):
    """Return ``find`` of every set ``flat[starts[c]:starts[c + 1]]`` (hash ``hashes[c]``)."""
    out = np.empty(hashes.shape[0], np.int64)
    for c in range(hashes.shape[0]):
        out[c] = find(memo, flat[starts[c]:starts[c + 1]], hashes[c], tag, default)
    return out
