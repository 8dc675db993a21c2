"""Solved subproblems of the exact search as arrays, and a worker's cache of them across units.

An entry is what the search's memo holds for one subproblem: a 128-bit key (two 64-bit words;
the kernel hashes the answer set and the depth left into it, and in hard mode the moves), which
only *finds* entries; the record that proves which subproblem it is: the guesses left
(``depth``) and the moves from the root set that lead to it (``path``: sorted, each
``guess row * replies + reply``, padded with -1), which determine the set; the value
(``exact``: the least total V; otherwise a proven lower bound of V), the best guess row of an
exact value (-1 if none), the set's size and the work it took (nodes plus reply cells scanned).
None of it depends on the caller's cutoff, so an entry is valid in every search over the same
game, lists, mode and root set: the run store (whose parameters pin those) keeps them.

What is kept, so that the store does not grow without limit (``gpusolve.runs.fanout``,
``gpusolve.runs.runstore``): per start word, the ``PER_UNIT`` new entries with the most work (at
least ``MIN_WORK``); in the store at most ``STORE_MAX`` entries, the least work dropped first.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field

import numpy as np

PER_UNIT = 2000
"""New entries kept per start word: those with the most work."""

MIN_WORK = 2000
"""Least work (nodes + reply cells scanned) of an entry worth keeping: cheaper ones are
recomputed faster than they are stored and loaded."""

STORE_MAX = 1_000_000
"""Most entries a run store keeps (about 80 MB on disk, 50 MB in each worker's memory)."""

MASK64 = (1 << 64) - 1

Record = tuple[int, tuple[int, ...]]
"""What proves a subproblem: (guesses left, its sorted moves from the root set)."""


def record_key(record: Record) -> int:
    """Return a 128-bit key of a record (for entries the compiled memo never finds by key)."""
    depth, path = record
    data = np.array([depth, *path], np.int64).tobytes()
    return int.from_bytes(hashlib.blake2b(data, digest_size=16).digest(), "little")


def path_array(paths: list[tuple[int, ...]]) -> np.ndarray:
    """Return int32 rows of moves padded with -1 (at least one column)."""
    out = np.full((len(paths), max([1, *map(len, paths)])), -1, np.int32)
    for i, p in enumerate(paths):
        out[i, :len(p)] = p
    return out


_FIELDS = ("k1", "k2", "value", "exact", "guess", "size", "work", "depth", "path")


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
    depth: np.ndarray  # int8: guesses left
    path: np.ndarray  # int32 [n, width]: sorted moves from the root set, padded with -1
    stamp: str = field(default_factory=lambda: uuid.uuid4().hex)

    @classmethod
    def empty(cls) -> Entries:
        """Return no entries."""
        return cls.from_rows([])

    @classmethod
    def from_rows(cls, rows) -> Entries:
        """Return entries from (key, value, exact, guess, size, work, depth, path) rows (key:
        128-bit int, path: a tuple of moves)."""
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
            np.array([int(r[6]) for r in rows], np.int8),
            path_array([tuple(sorted(r[7])) for r in rows]),
        )

    def paths(self) -> list[tuple[int, ...]]:
        """Return each entry's moves."""
        return [tuple(int(x) for x in row if x >= 0) for row in self.path]

    def lengths(self) -> np.ndarray:
        """Return the number of moves of each entry (int8)."""
        return (self.path >= 0).sum(axis=1).astype(np.int8)

    def rows(self) -> list[tuple[int, int, bool, int, int, int, int, tuple[int, ...]]]:
        """Return (key, value, exact, guess, size, work, depth, path) rows, keys as 128-bit ints."""
        return [(int(a) | (int(b) << 64), int(v), bool(e), int(g), int(s), int(w), int(d), p)
                for a, b, v, e, g, s, w, d, p in zip(self.k1, self.k2, self.value, self.exact, self.guess,
                                                     self.size, self.work, self.depth, self.paths())]

    def __len__(self) -> int:
        return len(self.k1)

    def take(self, index: np.ndarray) -> Entries:
        """Return the entries at ``index``."""
        return Entries(*(getattr(self, name)[index] for name in _FIELDS))

    @staticmethod
    def concat(parts: list[Entries]) -> Entries:
        """Return the entries of ``parts`` one after the other."""
        parts = [p for p in parts if len(p)] or [Entries.empty()]
        if len(parts) == 1:
            return parts[0]
        width = max(p.path.shape[1] for p in parts)
        paths = [np.pad(p.path, ((0, 0), (0, width - p.path.shape[1])), constant_values=-1) for p in parts]
        return Entries(*(np.concatenate([getattr(p, name) for p in parts]) for name in _FIELDS[:-1]),
                       np.concatenate(paths))

    def merged(self) -> Entries:
        """Return one entry per subproblem (key and record), the strongest: an exact value (the
        first one) over a lower bound, else the highest lower bound; it keeps the most work of
        its subproblem."""
        n = len(self)
        if n < 2:
            return self
        rank = np.where(self.exact, 0, -self.value)
        ident = [self.k1, self.k2, self.depth, *self.path.T]
        order = np.lexsort((np.arange(n), rank, ~self.exact, *ident))
        first = np.ones(n, np.bool_)
        first[1:] = np.any([c[order][1:] != c[order][:-1] for c in ident], axis=0)
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
    search looks entries up here one record at a time (``get``/``put``)."""

    def __init__(self, entries: Entries | None = None, reuse: bool = True) -> None:
        self.reuse = reuse
        self.tables: list = []  # gpusolve.search.optimal.MemoTable, one per search thread
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
