"""Solved subproblems of the exact search as arrays, and a worker's cache of them across units.

An entry is what the search's memo holds for one subproblem: a 128-bit key (two 64-bit words;
the kernel hashes the answer set, the depth left and, in hard mode, the allowed-guess list into
it), the value (``exact``: the least total V; otherwise a proven lower bound of V), the best
guess row of an exact value (-1 if none), the set's size and the work it took (nodes plus reply
cells scanned). None of it depends on the caller's cutoff, so an entry is valid in every search
over the same game, lists and mode: the run store (whose parameters pin those) keeps them.

What is kept, so that the store does not grow without limit (``gpusolve.runs.fanout``,
``gpusolve.runs.runstore``): per start word, the ``PER_UNIT`` new entries with the most work (at
least ``MIN_WORK``); in the store at most ``STORE_MAX`` entries, the least work dropped first.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

import numpy as np

PER_UNIT = 2000
"""New entries kept per start word: those with the most work."""

MIN_WORK = 2000
"""Least work (nodes + reply cells scanned) of an entry worth keeping: cheaper ones are
recomputed faster than they are stored and loaded."""

STORE_MAX = 1_000_000
"""Most entries a run store keeps (about 60 MB on disk, 40 MB in each worker's memory)."""

MASK64 = (1 << 64) - 1


@dataclass
class Entries:
    """Subproblem entries, one per position of equal-length arrays."""

    k1: np.ndarray  # uint64: the low word of the key
    k2: np.ndarray  # uint64: the high word
    value: np.ndarray  # int64
    exact: np.ndarray  # bool
    guess: np.ndarray  # int32: best guess row of an exact value, -1 if none
    size: np.ndarray  # int32: answers in the set
    work: np.ndarray  # int64
    stamp: str = field(default_factory=lambda: uuid.uuid4().hex)

    @classmethod
    def empty(cls) -> Entries:
        """Return no entries."""
        return cls.from_rows([])

    @classmethod
    def from_rows(cls, rows) -> Entries:
        """Return entries from (key, value, exact, guess, size, work) rows (key: 128-bit int)."""
        rows = list(rows)
        keys = [int(r[0]) for r in rows]
        return cls(
            np.array([k & MASK64 for k in keys], np.uint64),
            np.array([(k >> 64) & MASK64 for k in keys], np.uint64),
            np.array([int(r[1]) for r in rows], np.int64),
            np.array([bool(r[2]) for r in rows], np.bool_),
            np.array([int(r[3]) for r in rows], np.int32),
            np.array([int(r[4]) for r in rows], np.int32),
            np.array([int(r[5]) for r in rows], np.int64),
        )

    def rows(self) -> list[tuple[int, int, bool, int, int, int]]:
        """Return (key, value, exact, guess, size, work) rows, keys as 128-bit ints."""
        return [(int(a) | (int(b) << 64), int(v), bool(e), int(g), int(s), int(w))
                for a, b, v, e, g, s, w in zip(self.k1, self.k2, self.value, self.exact, self.guess,
                                               self.size, self.work)]

    def __len__(self) -> int:
        return len(self.k1)

    def take(self, index: np.ndarray) -> Entries:
        """Return the entries at ``index``."""
        return Entries(self.k1[index], self.k2[index], self.value[index], self.exact[index],
                       self.guess[index], self.size[index], self.work[index])

    @staticmethod
    def concat(parts: list[Entries]) -> Entries:
        """Return the entries of ``parts`` one after the other."""
        parts = [p for p in parts if len(p)] or [Entries.empty()]
        if len(parts) == 1:
            return parts[0]
        return Entries(*(np.concatenate([getattr(p, name) for p in parts])
                         for name in ("k1", "k2", "value", "exact", "guess", "size", "work")))

    def merged(self) -> Entries:
        """Return one entry per key, the strongest: an exact value (the first one) over a
        lower bound, else the highest lower bound; it keeps the most work of its key."""
        n = len(self)
        if n < 2:
            return self
        rank = np.where(self.exact, 0, -self.value)
        order = np.lexsort((np.arange(n), rank, ~self.exact, self.k1, self.k2))
        k1, k2 = self.k1[order], self.k2[order]
        first = np.ones(n, np.bool_)
        first[1:] = (k1[1:] != k1[:-1]) | (k2[1:] != k2[:-1])
        if first.all():
            return self
        out = self.take(order[first])
        out.work = np.maximum.reduceat(self.work[order], np.flatnonzero(first))
        return out

    def top(self, n: int, min_work: int = 0) -> Entries:
        """Return the (at most) ``n`` entries with the most work, each at least ``min_work``."""
        keep = np.flatnonzero(self.work >= min_work)
        if len(keep) > n:
            keep = keep[np.argsort(-self.work[keep], kind="stable")[:n]]
        return self.take(np.sort(keep))


class Subproblems:
    """A worker's subproblem cache for one job: run-store snapshots not yet loaded, the new
    entries not yet handed back, and per-unit counters (nodes, store hits). The compiled search
    keeps what it knows in its memo tables (``tables``, kept from unit to unit); the reference
    search looks entries up here one key at a time (``get``/``put``)."""

    def __init__(self, entries: Entries | None = None, reuse: bool = True) -> None:
        self.reuse = reuse
        self.tables: list = []  # gpusolve.search.optimal.MemoTable, one per search thread
        self.seeds: set[str] = set()
        self._pending: list[Entries] = []  # snapshots not yet in the memo tables
        self._parts: list[Entries] = []  # everything known, for get()
        self._fresh: list[Entries] = []
        self._puts: dict[int, tuple[int, bool, int, int, int]] = {}
        self._index: dict[int, tuple[int, bool]] | None = None
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

    # --- one key at a time (the pure-Python reference search) --------------------------------

    def get(self, key: int) -> tuple[int, bool] | None:
        """Return (value, exact) of a known subproblem, or None (a hit on an entry this process
        did not find itself since its last ``take_fresh`` counts as a store hit)."""
        if key in self._puts:
            v = self._puts[key]
            return v[0], v[1]
        if self._index is None:
            known = Entries.concat(self._parts).merged()
            self._index = {k: (v, e) for k, v, e, *_ in known.rows()}
        hit = self._index.get(key)
        if hit is not None:
            self.store_hits += 1
        return hit

    def put(self, key: int, value: int, exact: bool, guess: int = -1, size: int = 0, work: int = 0) -> None:
        """Record a solved subproblem (an exact value, or a proven lower bound) unless a stronger
        entry is known."""
        old = self.get(key)
        if old is not None and (old[1] or (not exact and old[0] >= value)):
            return
        self._puts[key] = (int(value), bool(exact), int(guess), int(size), int(work))

    def _fold(self) -> None:
        if self._puts:
            rows = [(k, *v) for k, v in self._puts.items()]
            self._puts = {}
            entries = Entries.from_rows(rows)
            self._fresh.append(entries)
            self._parts.append(entries)  # known by key from now on
            self._index = None
