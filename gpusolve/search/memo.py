"""The exact search's memo, on the Python side: one table per worker thread, the pool that keeps
them across searches, and the solved subproblems they hold as arrays (``Entries``).

The compiled search (``kernels/optimal_cpu.py``) reads and writes a ``MemoTable``'s arrays
(``Memo``) and loads and lists entries in bulk (``memo_preload``, ``memo_harvest``); everything
else about the memo is here. Those kernels are imported where they are called: run stores and
greedy rankings read and write ``Entries`` without loading the exact search's kernels.

An entry is what a memo holds for one subproblem: a 128-bit key (two 64-bit words; the kernel
hashes the answer set and the depth left into it, and in hard mode the moves), which only
*finds* entries; the record that proves which subproblem it is: the guesses left (``depth``) and
the moves from the root set that lead to it (``path``: sorted, each ``guess row * replies +
reply``, padded with -1), which determine the set; the value (``exact``: the least total V;
otherwise a proven lower bound of V), the best guess row of an exact value (-1 if none), the
set's size and the work it took (nodes plus reply cells scanned). None of it depends on the
caller's cutoff, so an entry is valid in every search over the same game, lists, mode and root
set (a table's ``owner``): a run store, whose parameters pin those, keeps them
(``gpusolve.runs.subproblems``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

import numpy as np

MASK64 = (1 << 64) - 1


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


def memo_entry_bytes(width: int, rule_width: int) -> int:
    """Return the bytes of one memo slot recording up to ``width`` moves and a combined hard-mode
    rule of ``rule_width`` numbers."""
    return 43 + 4 * width + rule_width


def table_entries(memo_mb: int, workers: int, width: int, rule_width: int) -> int:
    """Return the slots each of ``workers`` tables may have within ``memo_mb`` MiB in all."""
    return max(16, int(memo_mb * 2**20 / memo_entry_bytes(width, rule_width) / max(workers, 1)))


def _table_size(entries: int) -> int:
    """Return the memo slots used for a budget of ``entries``: a power of two, at least 16."""
    return max(16, 1 << max(4, entries.bit_length() - 1))


class MemoTable:
    """One worker thread's memo for the compiled search, over one game, lists, mode and root set
    (``owner``)."""

    def __init__(self, entries: int, owner: tuple, width: int, rule_width: int) -> None:
        """``width``: the most moves from the root set an entry records (longer ones are not kept);
        ``rule_width``: the length of a combined hard-mode rule (Wordle; else 0)."""
        from ..kernels.optimal_cpu import Memo

        entries = _table_size(entries)
        self.owner = owner
        self.mask = entries - 1
        self.width = width
        self.memo = Memo(
            mk1=np.zeros(entries, np.uint64), mk2=np.zeros(entries, np.uint64),
            mval=np.zeros(entries, np.int64), mguess=np.zeros(entries, np.int32),
            mflag=np.zeros(entries, np.int8), msize=np.zeros(entries, np.int32),
            mwork=np.zeros(entries, np.int64),  # negative: known before (preloaded or harvested)
            mdepth=np.zeros(entries, np.int8), mlen=np.zeros(entries, np.int8),
            mpath=np.zeros((entries, width), np.int32), mrule=np.zeros((entries, rule_width), np.int8),
        )

    def fits(self, entries: int, owner: tuple, width: int) -> bool:
        """Return whether this table serves a search over ``owner`` with ``entries`` slots."""
        return self.owner == owner and self.mask == _table_size(entries) - 1 and self.width == width

    def preload(self, known: Entries, params: np.ndarray, glet: np.ndarray) -> None:
        """Put known subproblem entries (from a run store, or other tables) in the memo; ``params``
        and ``glet``: the search's (``kernels.optimal_cpu``), which decide how a record is kept."""
        from ..kernels.optimal_cpu import N_STATS, P_MEMO_MASK, memo_preload

        if len(known):
            params = params.copy()
            params[P_MEMO_MASK] = self.mask
            memo_preload(self.memo, params, glet, known.k1, known.k2, known.value, known.exact,
                         known.guess, known.size, known.work, known.depth, known.lengths(),
                         np.ascontiguousarray(known.path), np.zeros(N_STATS, np.int64))

    def harvest(self) -> Entries:
        """Return the entries computed since the last harvest; from now on they count as known."""
        from ..kernels.optimal_cpu import EXACT, memo_harvest

        m = self.memo
        i = memo_harvest(m.mflag, m.mwork)
        path = m.mpath[i].copy()
        path[np.arange(self.width) >= m.mlen[i][:, None]] = -1
        return Entries(m.mk1[i], m.mk2[i], m.mval[i], m.mflag[i] == EXACT, m.mguess[i], m.msize[i],
                       -m.mwork[i] - 1, m.mdepth[i], path)


class MemoPool:
    """The memo tables of successive searches, owned by their caller (``Options.memos``): a
    search over the same game, lists, mode and root set, with as many workers and slots, takes
    the tables the last one left, so that it starts with what earlier ones found; any other
    search replaces them."""

    def __init__(self) -> None:
        self.tables: list[MemoTable] = []

    def take(self, workers: int, entries: int, owner: tuple, width: int, rule_width: int) -> list[MemoTable]:
        """Return ``workers`` tables of ``entries`` slots over ``owner``: the pool's own where they
        fit, else new ones (the pool keeps them from now on)."""
        if len(self.tables) != workers or not all(t.fits(entries, owner, width) for t in self.tables):
            self.tables = [MemoTable(entries, owner, width, rule_width) for _ in range(workers)]
        return self.tables

    def preload(self, known: Entries, params: np.ndarray, glet: np.ndarray) -> None:
        """Put ``known`` entries in every table."""
        for table in self.tables:
            table.preload(known, params, glet)

    def harvest(self, params: np.ndarray, glet: np.ndarray) -> Entries:
        """Return the entries the tables gained since their last harvest, one per subproblem (the
        strongest); each table is given the others' (they count as known everywhere)."""
        new = Entries.concat([t.harvest() for t in self.tables]).merged()
        if len(self.tables) > 1:
            self.preload(new, params, glet)
        return new
