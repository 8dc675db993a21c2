"""The collision-proof set memo and deduplication (kernels/setkeys.py) against Python's dict,
with hashes forced to collide."""

from __future__ import annotations

import numpy as np
from gpusolve.kernels import setkeys
from hypothesis import given, settings
from hypothesis import strategies as st

sets = st.lists(st.integers(0, 9), max_size=6, unique=True).map(sorted)


def _flat(members: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    flat = np.array([a for s in members for a in s], np.int32)
    return flat, np.cumsum([0] + [len(s) for s in members]).astype(np.int64)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(sets, st.integers(0, 3), st.integers(0, 99)), max_size=60), st.integers(0, 3))
def test_memo_matches_a_dict_whatever_the_hashes(ops, bits):
    """Stores and lookups of (set, tag) -> value, with hashes of ``bits`` bits (0: every set
    has the same hash), give what a dict keyed by the members gives."""
    memo, want = setkeys.new_memo(), {}
    rng = np.random.default_rng(bits)
    words = rng.integers(0, 1 << bits, 10).astype(np.uint64)
    for members, tag, value in ops:
        m = np.array(members, np.int32)
        h = setkeys.set_hash(m, words)
        assert setkeys.find(memo, m, h, tag, -1) == want.get((tuple(members), tag), -1)
        setkeys.store(memo, m, h, tag, value)
        want[tuple(members), tag] = value
    for (members, tag), value in want.items():
        m = np.array(members, np.int32)
        assert setkeys.find(memo, m, setkeys.set_hash(m, words), tag, -1) == value
    keys = list(want)
    flat, starts = _flat([list(s) for s, _ in keys])
    hashes = np.array([setkeys.set_hash(flat[starts[c]:starts[c + 1]], words) for c in range(len(keys))],
                      np.int64)
    for tag in range(4):
        got = setkeys.find_each(memo, flat, starts, hashes, tag, -1)
        assert got.tolist() == [want.get((s, tag), -1) for s, _ in keys]


@settings(max_examples=200, deadline=None)
@given(st.lists(sets, max_size=40), st.integers(0, 3))
def test_first_of_each_matches_python(members, bits):
    words = np.random.default_rng(bits).integers(0, 1 << bits, 10).astype(np.uint64)
    flat, starts = _flat(members)
    hashes = np.array([setkeys.set_hash(flat[starts[c]:starts[c + 1]], words) for c in range(len(members))],
                      np.int64)
    seen: set = set()
    want = [not (tuple(s) in seen or seen.add(tuple(s))) for s in members]
    assert setkeys.first_of_each(flat, starts, hashes).tolist() == want


def test_key_bits_truncate_the_words(monkeypatch):
    monkeypatch.setattr(setkeys, "KEY_BITS", 3)
    assert int(setkeys.zobrist(1000, 1).max()) < 8
    monkeypatch.setattr(setkeys, "KEY_BITS", 64)
    assert int(setkeys.zobrist(1000, 1).max()) >= 2**60
