"""The exact search's memo tables use their slots as far as they need (``MemoTable.slots``), doubled
as entries come, up to their budget: a table that grows holds, bucket by bucket and in the same
order, what a table in full use from the start holds; once grown to its budget it is that table,
slot for slot (the same entries replaced); searches count the same nodes, hits and stores and keep
the same subproblems in the same order."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gpusolve.kernels.optimal_cpu import N_PARAMS, WAYS
from test_search_pins import tiny

from gpusolve.search import memo, optimal
from gpusolve.search.memo import Entries, MemoTable
from gpusolve.search.optimal import Options, Question, solve

WIDTH = 3
OWNER = ("test",)


def _table(cap: int, start: int, monkeypatch) -> MemoTable:
    """Return an empty table of ``cap`` slots that uses ``start`` of them at first."""
    monkeypatch.setattr(memo, "START_SLOTS", start)
    return MemoTable(cap, OWNER, WIDTH, 0)


def _rows(rng: random.Random, n: int, sizes: int = 4) -> list[tuple]:
    """Return ``n`` random entries as ``Entries.from_rows`` takes them; about one in five is a
    stronger entry of an earlier one's subproblem (same key and record), which replaces it in place."""
    rows: list[tuple] = []
    for _ in range(n):
        if rows and rng.random() < 0.2:
            key, value, _, _, size, work, depth, path = rng.choice(rows)
            rows.append((key, value + 1, rng.random() < 0.5, 7, size, work, depth, path))
            continue
        path = tuple(sorted(rng.sample(range(1000), rng.randint(0, WIDTH))))
        key = rng.getrandbits(128) | (1 << 64)
        rows.append((key, rng.randint(1, 100), False, -1, rng.randint(1, sizes), rng.randint(1, 99),
                     rng.randint(2, 5), path))
    return rows


def _store(table: MemoTable, rows: list[tuple]) -> None:
    """Write entries one by one, as the search does."""
    params = np.zeros(N_PARAMS, np.int64)
    glet = np.zeros((1, 1), np.int8)
    for row in rows:
        table.preload(Entries.from_rows([row]), params, glet)


def _entry(table: MemoTable, i: int) -> tuple | None:
    """Return what slot ``i`` holds (None: empty): every field, its moves as far as recorded."""
    m = table.memo
    if m.mflag[i] == 0:
        return None
    return (*(int(getattr(m, f)[i]) for f in ("mk1", "mk2", "mval", "mguess", "mflag", "msize", "mwork",
                                            "mdepth", "mlen")),
            tuple(m.mpath[i, :m.mlen[i]]), tuple(m.mrule[i]))


def _by_bucket(table: MemoTable) -> list[tuple]:
    """Return the table's entries with their buckets in the table in full use, bucket by bucket,
    each bucket's in its slots' order."""
    m = table.memo
    filled = np.flatnonzero(m.mflag[:table.slots])
    bucket = (m.mk1[filled] & np.uint64(m.mmask[1])) // np.uint64(WAYS)
    return [(int(bucket[j]), _entry(table, filled[j])) for j in np.argsort(bucket, kind="stable")]


@pytest.mark.parametrize("seed", range(4))
def test_a_growing_table_holds_what_a_full_one_holds(seed, monkeypatch):
    rng = random.Random(seed)
    rows = _rows(rng, 300)
    grown, full = _table(1 << 10, 16, monkeypatch), _table(1 << 10, 1 << 10, monkeypatch)
    for start in range(0, len(rows), 25):
        _store(grown, rows[start:start + 25])
        _store(full, rows[start:start + 25])
        assert _by_bucket(grown) == _by_bucket(full)
    assert 16 < grown.slots <= 1 << 10


def test_entries_survive_growth(monkeypatch):
    rng = random.Random(7)
    rows = _rows(rng, 60)
    table = _table(1 << 16, 16, monkeypatch)
    _store(table, rows)
    assert 16 < table.slots < 1 << 16
    m = table.memo
    filled = np.flatnonzero(m.mflag[:table.slots])
    stored = {(int(m.mk1[i]) | (int(m.mk2[i]) << 64), int(m.mdepth[i]), int(m.msize[i])): int(m.mval[i])
              for i in filled}
    kept: dict[tuple, tuple[int, bool]] = {}  # an exact value stays, else the highest bound
    for key, value, exact, _, size, _, depth, _ in rows:
        old = kept.get((key, depth, size))
        if old is None or (not old[1] and (exact or value > old[0])):
            kept[(key, depth, size)] = (value, exact)
    assert stored == {k: v for k, (v, _) in kept.items()}


@pytest.mark.parametrize("seed", range(3))
def test_a_table_grown_to_its_budget_is_the_full_table(seed, monkeypatch):
    rng = random.Random(seed)
    rows = _rows(rng, 2000, sizes=3)  # ~8 entries a bucket of 64 slots: many replaced, ties in size
    grown, full = _table(64, 16, monkeypatch), _table(64, 64, monkeypatch)
    _store(grown, rows)
    _store(full, rows)
    assert grown.slots == 64
    assert [_entry(grown, i) for i in range(64)] == [_entry(full, i) for i in range(64)]


def _search(monkeypatch, cap: int, start: int, pm, question: Question) -> tuple:
    """Return what a one-worker search says, counts and keeps with memo tables of ``cap`` slots
    using ``start`` at first."""
    monkeypatch.setattr(memo, "START_SLOTS", start)
    monkeypatch.setattr(optimal, "table_entries", lambda *_: cap)
    result = solve(pm, question, Options(workers=1, keep_subproblems=10**6))
    kept = result.subproblems
    return (result.total, [(a.guess, a.total, a.exact) for a in result.alternatives], result.counters,
            [getattr(kept, f).tobytes() for f in ("k1", "k2", "value", "exact", "guess", "size", "work",
                                                    "depth", "path")])


@pytest.mark.parametrize("mode, cap", [("normal", 1 << 20), ("normal", 256), ("hard", 64),
                                       ("consistent", 1024)])
def test_searches_with_growing_tables_are_unchanged(mode, cap, monkeypatch):
    pm = tiny(4, 100, 0) if mode != "hard" else tiny(1, 60, 10)
    question = Question(mode=mode, max_guesses=6, alternatives=2, tree=False)
    assert _search(monkeypatch, cap, 16, pm, question) == _search(monkeypatch, cap, cap, pm, question)
