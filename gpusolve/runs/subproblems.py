"""Solved subproblems of the exact search across units: what a long run keeps, and a worker's
cache of them from unit to unit.

The entries themselves (``Entries``: keys, records, values, work) and the memo tables that
make and take them are the search's (``gpusolve.search.memo``). What is kept, so that the store
does not grow without limit (``gpusolve.runs.fanout``, ``gpusolve.runs.runstore``): per start
word, the ``PER_UNIT`` new entries with the most work (at least ``MIN_WORK``); in the store at
most ``STORE_MAX`` entries, the least work dropped first.
"""

from __future__ import annotations

import hashlib

import numpy as np

from ..search.memo import Entries, MemoPool

PER_UNIT = 2000
"""New entries kept per start word: those with the most work."""

MIN_WORK = 2000
"""Least work (nodes + reply cells scanned) of an entry worth keeping: cheaper ones are
recomputed faster than they are stored and loaded."""

STORE_MAX = 1_000_000
"""Most entries a run store keeps (about 80 MB on disk, 50 MB in each worker's memory)."""

Record = tuple[int, tuple[int, ...]]
"""What proves a subproblem: (guesses left, its sorted moves from the root set)."""


def record_key(record: Record) -> int:
    """Return a 128-bit key of a record (for entries the compiled memo never finds by key)."""
    depth, path = record
    data = np.array([depth, *path], np.int64).tobytes()
    return int.from_bytes(hashlib.blake2b(data, digest_size=16).digest(), "little")


class Subproblems:
    """A worker's subproblem cache for one job: run-store snapshots not yet loaded, the new
    entries not yet handed back, and per-unit counters (nodes, store hits). The compiled search
    keeps what it knows in its memo tables (``memos``, kept from unit to unit); the reference
    search looks entries up here one record at a time (``get``/``put``)."""

    def __init__(self, entries: Entries | None = None, reuse: bool = True) -> None:
        self.reuse = reuse
        self.memos = MemoPool()
        self.seeds: set[str] = set()
        self._pending: list[Entries] = []  # snapshots not yet in the memo tables
        self._parts: list[Entries] = []  # everything known, for get()
        self._fresh: list[Entries] = []
        self._puts: dict[Record, tuple[int, bool, int, int, int]] = {}
        self._index: dict[Record, tuple[int, bool]] | None = None
        self.nodes = 0
        self.store_hits = 0
        self._counts: list[tuple[int, int]] = []
        self.seed(entries)

    # --- arrays (the compiled search) ---------------------------------------------------------

    def seed(self, entries: Entries | None) -> None:
        """Add a snapshot of the run store's entries (each snapshot once)."""
        if entries is None or entries.stamp in self.seeds:
            return
        self.seeds.add(entries.stamp)
        if len(entries):
            self._pending.append(entries)
            self._parts.append(entries)
            self._index = None

    def take_pending(self) -> Entries:
        """Return the snapshot entries not yet handed to the search's memo tables (which keep
        them from now on: this cache forgets them)."""
        out = Entries.concat(self._pending)
        self._pending = []
        self._parts = []
        self._index = None
        return out

    def add(self, entries: Entries) -> None:
        """Record new entries of the search (kept in its memo tables), handed back by
        ``take_fresh``."""
        if len(entries):
            self._fresh.append(entries)

    def take_fresh(self) -> Entries:
        """Return the entries added since the last call (merged, one per key)."""
        self._fold()
        fresh = Entries.concat(self._fresh).merged()
        self._fresh = []
        return fresh

    def count(self, nodes: int, store_hits: int) -> None:
        """Add a search's nodes and hits on known entries to the current unit's counters."""
        self.nodes += int(nodes)
        self.store_hits += int(store_hits)

    def end_unit(self) -> None:
        """Close the current unit's counters (nodes, store hits)."""
        self._counts.append((self.nodes, self.store_hits))
        self.nodes = self.store_hits = 0

    def take_counts(self) -> list[tuple[int, int]]:
        """Return (nodes, store hits) of each unit closed since the last call."""
        out, self._counts = self._counts, []
        return out

    # --- one record at a time (the pure-Python reference search) -----------------------------

    def get(self, record: Record) -> tuple[int, bool] | None:
        """Return (value, exact) of a known subproblem, or None (a hit on an entry this process
        did not find itself since its last ``take_fresh`` counts as a store hit)."""
        if record in self._puts:
            v = self._puts[record]
            return v[0], v[1]
        if self._index is None:
            known = Entries.concat(self._parts).merged()
            self._index = {(d, p): (v, e) for _, v, e, _, _, _, d, p in known.rows()}
        hit = self._index.get(record)
        if hit is not None:
            self.store_hits += 1
        return hit

    def put(self, record: Record, value: int, exact: bool, guess: int = -1, size: int = 0,
            work: int = 0) -> None:
        """Record a solved subproblem (an exact value, or a proven lower bound) unless a stronger
        entry is known."""
        old = self.get(record)
        if old is not None and (old[1] or (not exact and old[0] >= value)):
            return
        self._puts[record] = (int(value), bool(exact), int(guess), int(size), int(work))

    def _fold(self) -> None:
        if self._puts:
            rows = [(record_key(r), *v, *r) for r, v in self._puts.items()]
            self._puts = {}
            entries = Entries.from_rows(rows)
            self._fresh.append(entries)
            self._parts.append(entries)  # known by key from now on
            self._index = None
