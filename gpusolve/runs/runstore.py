"""The run store: one SQLite database (WAL mode) per long run, so a run can be killed and resumed.

A run directory holds ``run.sqlite`` with three tables:

* ``params``: everything that changes the answer (game, lists and their content hash, mode,
  max guesses, metric, objective, cutoff...), written once when the run starts; opening the
  run again with other parameters is refused with a one-line error.
* ``results``: one row per finished unit (a start word): its position in the guess list, the
  result as JSON (deterministic: equal on every run), and how it was obtained (seconds, worker,
  nodes searched, hits on cached subproblems) kept apart so that results compare equal across
  runs. Each finished batch is one transaction, together with its new subproblems.
* ``subproblems``: the exact search's solved-subproblem cache (``gpusolve.search.memo.Entries``): a
  128-bit key (two signed 64-bit integers ``k1`` low, ``k2`` high) that finds an entry, and the
  record that proves which subproblem it is (the guesses left ``depth`` and the sorted moves
  ``path`` from the root set, int32 bytes) -> value, whether it is exact or a proven lower
  bound, the best guess row of an exact value (-1: none), the set's size and the work it took.
  At most ``STORE_MAX`` entries: beyond that the least work goes.

SQLite's journal makes every transaction all-or-nothing, so a process killed at any moment
(even SIGKILL, even halfway through writing subproblems) leaves the store readable, holding
exactly the batches committed before it died.

Schema versions: 1 (64-bit subproblem keys, no counters) and 2 (subproblems found by their keys
alone, no record to prove them) are migrated in place to 3 when opened: their results are kept,
their subproblems (a cache the new search cannot verify) dropped. Other versions are refused
with one line.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import signal
import socket
import sqlite3
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import platformdirs

from ..core.errors import GpusolveError, Note
from ..search.memo import Entries, path_array
from .subproblems import STORE_MAX

SCHEMA_VERSION = 3
DATABASE = "run.sqlite"
LOCK = "run.lock"

_PARAMS = "CREATE TABLE IF NOT EXISTS params (name TEXT PRIMARY KEY, value TEXT NOT NULL)"
# subproblems: the key's columns come first (SQLite 3.40's integrity_check reports false NULLs in
# a WITHOUT ROWID table whose key columns follow others)
_TABLES = """
CREATE TABLE IF NOT EXISTS results (
    unit TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    result TEXT NOT NULL,
    seconds REAL,
    worker TEXT,
    finished REAL DEFAULT ((julianday('now') - 2440587.5) * 86400.0),
    nodes INTEGER,
    store_hits INTEGER
);
CREATE TABLE IF NOT EXISTS subproblems (
    k1 INTEGER NOT NULL,
    k2 INTEGER NOT NULL,
    depth INTEGER NOT NULL,
    path BLOB NOT NULL,
    value INTEGER NOT NULL,
    exact INTEGER NOT NULL,
    guess INTEGER NOT NULL,
    size INTEGER NOT NULL,
    work INTEGER NOT NULL,
    PRIMARY KEY (k1, k2, depth, path)
) WITHOUT ROWID;
"""
_INDEX = "CREATE INDEX IF NOT EXISTS subproblems_by_work ON subproblems (work)"
_COLUMNS = {
    "results": ["unit", "position", "result", "seconds", "worker", "finished", "nodes", "store_hits"],
    "subproblems": ["k1", "k2", "depth", "path", "value", "exact", "guess", "size", "work"],
}
_MIGRATE = {
    1: """
DROP TABLE subproblems;
ALTER TABLE results ADD COLUMN nodes INTEGER;
ALTER TABLE results ADD COLUMN store_hits INTEGER;
UPDATE params SET value = '3' WHERE name = 'schema_version';
""",
    2: """
DROP TABLE subproblems;
UPDATE params SET value = '3' WHERE name = 'schema_version';
""",
}

FAULT = "GPUSOLVE_STORE_FAULT"
"""Test hook: ``GPUSOLVE_STORE_FAULT=N`` makes the process SIGKILL itself right after writing its
N-th subproblem row (inside the transaction), to test kills in the middle of a write."""


def runs_dir() -> Path:
    """Return the folder holding default run directories: $GPUSOLVE_RUNS_DIR or the user data dir."""
    return Path(os.environ.get("GPUSOLVE_RUNS_DIR") or platformdirs.user_data_path("gpusolve") / "runs")


class RunStore:
    """An open run directory: its parameters, finished results and subproblem cache."""

    def __init__(self, path: str | Path, params: dict[str, object]) -> None:
        self.path = Path(path)
        self.params = _normalise(params)
        if self.path.exists() and not self.path.is_dir():
            raise GpusolveError(f"run directory {self.path} is a file, not a folder: use another --run-dir")
        _check_foreign(self.path / DATABASE)
        if self.path.is_dir() and not all(os.access(p, os.W_OK) for p in (self.path, self.path / DATABASE)
                                          if p.exists()):
            raise GpusolveError(f"run directory {self.path} is read-only: a run writes its results there; "
                                "use another --run-dir (a copy of this one resumes the run)")
        new = not (self.path / DATABASE).exists()
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise self._unreadable(e, f"cannot open run directory {self.path}") from None
        self.lock = RunLock(self.path)
        try:
            self.db = sqlite3.connect(self.path / DATABASE, timeout=60, isolation_level=None)
        except (OSError, sqlite3.Error) as e:
            self.lock.release()
            raise self._unreadable(e, f"cannot open run directory {self.path}") from None
        self._written = 0
        fault = os.environ.get(FAULT, "")
        self._fault = int(fault) if fault.isdigit() else 0
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            with self._transaction():
                self.db.execute(_PARAMS)
                self._check_params()
        except (GpusolveError, sqlite3.DatabaseError) as e:
            self.db.close()
            if new:  # nothing of a run is in what this process began: leave no empty store behind
                _remove_new(self.path / DATABASE)
            self.lock.release()
            if isinstance(e, GpusolveError):
                raise
            raise self._unreadable(e) from None

    def _unreadable(self, e: Exception, what: str = "") -> GpusolveError:
        """Return the one-line error of a failed read or write of the store: a full disk, a
        read-only one, or a damaged store (``what`` failed, when said)."""
        if _disk_full(e, self.path):
            return GpusolveError(f"the disk holding run directory {self.path} is full ({e}): free some space "
                                 "and run the same command again (the results already in it are kept)")
        if "readonly" in str(e):
            return GpusolveError(f"run directory {self.path} is read-only ({e}): use another --run-dir "
                                 "(a copy of this one resumes the run)")
        if what:
            return GpusolveError(f"{what}: {getattr(e, 'strerror', None) or e}")
        return GpusolveError(f"{self.path / DATABASE} is not a readable run store: {e}")

    def _create_tables(self) -> None:
        for statement in _TABLES.split(";"):
            if statement.strip():
                self.db.execute(statement)

    def _check_layout(self) -> None:
        for table, columns in _COLUMNS.items():
            found = [row[1] for row in self.db.execute(f"PRAGMA table_info({table})")]
            if found != columns:
                raise GpusolveError(f"{self.path / DATABASE} is not a readable run store: table {table} has "
                                    f"columns {', '.join(found) or 'none'} (schema {SCHEMA_VERSION} has "
                                    f"{', '.join(columns)})")

    # --- parameters -------------------------------------------------------------------------

    def _check_params(self) -> None:
        rows = self.db.execute("SELECT name, value FROM params")
        try:
            stored = {name: json.loads(value) for name, value in rows}
        except ValueError:
            raise self._unreadable(ValueError("bad parameters")) from None
        if not stored:
            rows = [("schema_version", json.dumps(SCHEMA_VERSION))]
            rows += [(k, json.dumps(v)) for k, v in sorted(self.params.items())]
            self.db.executemany("INSERT INTO params VALUES (?, ?)", rows)
            self._create_tables()
            self.db.execute(_INDEX)
            return
        version = stored.pop("schema_version", None)
        if version in _MIGRATE:  # keep the results, drop the cache
            for statement in _MIGRATE[version].split(";"):
                if statement.strip():
                    self.db.execute(statement)
        elif version != SCHEMA_VERSION:
            raise GpusolveError(
                f"run directory {self.path} has store schema {_show(version)}, not {SCHEMA_VERSION} "
                "(written by another version of gpusolve): use that version or another --run-dir")
        self._create_tables()
        self._check_layout()
        self.db.execute(_INDEX)
        if stored != self.params:
            diffs = [
                f"{k}={_show(stored.get(k))} (now {_show(self.params.get(k))})"
                for k in sorted(set(stored) | set(self.params))
                if stored.get(k) != self.params.get(k)
            ]
            raise GpusolveError(
                f"run directory {self.path} belongs to a run with other parameters: "
                f"{', '.join(diffs)}; use another --run-dir or the same options"
            )

    # --- results ----------------------------------------------------------------------------

    def finished(self) -> set[str]:
        """Return the units already finished."""
        return {unit for (unit,) in self._read("SELECT unit FROM results")}

    def results(self) -> dict[str, dict]:
        """Return every finished unit's result, in guess-list order."""
        rows = self._read("SELECT unit, result FROM results ORDER BY position")
        return {unit: json.loads(result) for unit, result in rows}

    def count(self) -> int:
        """Return the number of finished units."""
        return self._read("SELECT count(*) FROM results")[0][0]

    def save(self, results: Iterable[tuple[str, int, dict]], seconds: float | None = None,
             worker: str | None = None, subproblems: Entries | None = None,
             counts: Sequence[tuple[int, int]] | None = None) -> None:
        """Record finished units (unit, position, result), with their (nodes, store hits) when
        given, and their new subproblems, in one transaction."""
        results = list(results)
        if counts is None or len(counts) != len(results):
            counts = [(None, None)] * len(results)
        rows = [(unit, int(position), json.dumps(result, sort_keys=True), seconds, worker, n, h)
                for (unit, position, result), (n, h) in zip(results, counts)]
        try:
            with self._transaction():
                self.db.executemany(
                    "INSERT OR IGNORE INTO results (unit, position, result, seconds, worker, nodes, "
                    "store_hits) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
                if subproblems is not None and len(subproblems):
                    self._save_subproblems(subproblems)
        except sqlite3.DatabaseError as e:
            raise self._unreadable(e) from None

    def tally(self, units: Iterable[str]) -> tuple[int, int]:
        """Return the (nodes, store hits) recorded for ``units`` (summed; unknown counts as 0)."""
        wanted = set(units)
        rows = [(n or 0, h or 0) for u, n, h in self._read("SELECT unit, nodes, store_hits FROM results")
                if u in wanted]
        return sum(n for n, _ in rows), sum(h for _, h in rows)

    # --- subproblem cache -------------------------------------------------------------------

    def load_subproblems(self) -> Entries:
        """Return the cached subproblems (``gpusolve.search.memo.Entries``)."""
        rows = self._read("SELECT k1, k2, value, exact, guess, size, work, depth, path FROM subproblems")
        if not rows:
            return Entries.empty()
        cols = list(zip(*rows))
        k1, k2 = (np.array(c, np.int64).view(np.uint64) for c in cols[:2])
        paths = [tuple(np.frombuffer(b, np.int32).tolist()) for b in cols[8]]
        return Entries(k1, k2, np.array(cols[2], np.int64), np.array(cols[3], np.bool_),
                       np.array(cols[4], np.int32), np.array(cols[5], np.int32), np.array(cols[6], np.int64),
                       np.array(cols[7], np.int8), path_array(paths))

    def save_subproblems(self, entries: Entries) -> None:
        """Merge entries into the cache in one transaction (exact values win, then higher bounds)."""
        try:
            with self._transaction():
                self._save_subproblems(entries)
        except sqlite3.DatabaseError as e:
            raise self._unreadable(e) from None

    def _save_subproblems(self, entries: Entries) -> None:
        # An exact value replaces a lower bound; a higher lower bound replaces a lower one.
        self.db.executemany(
            "INSERT INTO subproblems (k1, k2, value, exact, guess, size, work, depth, path) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(k1, k2, depth, path) DO UPDATE SET "
            "value = CASE WHEN subproblems.exact THEN subproblems.value WHEN excluded.exact THEN "
            "excluded.value ELSE max(subproblems.value, excluded.value) END, "
            "guess = CASE WHEN subproblems.exact THEN subproblems.guess ELSE excluded.guess END, "
            "exact = max(subproblems.exact, excluded.exact), "
            "work = max(subproblems.work, excluded.work)",
            self._rows(entries),
        )
        over = self.subproblem_count() - STORE_MAX
        if over > 0:  # keep the entries that took the most work
            self.db.execute("DELETE FROM subproblems WHERE (k1, k2, depth, path) IN "
                            "(SELECT k1, k2, depth, path FROM subproblems ORDER BY work LIMIT ?)", (over,))

    def _rows(self, entries: Entries):
        k1 = entries.k1.view(np.int64).tolist()
        k2 = entries.k2.view(np.int64).tolist()
        paths = [np.array(p, np.int32).tobytes() for p in entries.paths()]
        for row in zip(k1, k2, entries.value.tolist(), entries.exact.astype(int).tolist(),
                       entries.guess.tolist(), entries.size.tolist(), entries.work.tolist(),
                       entries.depth.tolist(), paths):
            yield row
            self._written += 1
            if self._written == self._fault:
                os.kill(os.getpid(), signal.SIGKILL)

    def subproblem_count(self) -> int:
        """Return the number of cached subproblems."""
        return self._read("SELECT count(*) FROM subproblems")[0][0]

    def _read(self, query: str) -> list[tuple]:
        try:
            return self.db.execute(query).fetchall()
        except sqlite3.DatabaseError as e:
            raise self._unreadable(e) from None

    # --- plumbing ---------------------------------------------------------------------------

    def _transaction(self):
        return _Transaction(self.db)

    def close(self) -> None:
        """Close the database (a checkpoint folds the WAL back into the main file) and unlock the
        run directory."""
        try:
            self.db.close()
        finally:
            self.lock.release()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception (the error itself is raised)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *exc: object) -> None:
        if not kind:
            self.db.execute("COMMIT")
        elif self.db.in_transaction:  # SQLite rolls back by itself on some errors (a full disk)
            self.db.execute("ROLLBACK")


class RunLock:
    """The lock of a run directory: one process at a time writes a run (its driver; Dask workers
    return their results to it). An exclusive ``flock`` on ``run.lock``, which names the holder
    (process id and host); the kernel drops it when the holder ends, however it ends, so the lock
    of a process that died is simply taken over."""

    def __init__(self, folder: Path) -> None:
        self.fd: int | None = None
        try:
            fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as e:
            raise GpusolveError(f"cannot lock run directory {folder}: {e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise GpusolveError(f"run directory {folder} is in use by {holder}: wait for it to finish or "
                                "stop it (its results stay in the run directory), or use another --run-dir"
                                ) from None
        except OSError as e:  # a file system without locks: run unlocked, said once
            warnings.warn(Note(f"cannot lock run directory {folder} ({e.strerror or e}): make sure no "
                               "other process runs on it"), stacklevel=2)
        self.fd = fd
        with contextlib.suppress(OSError):  # the holder's name is only shown to others
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {socket.gethostname()}\n".encode(), 0)

    def release(self) -> None:
        """Unlock (the file stays: removing it would let two processes lock two files)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _holder(fd: int) -> str:
    """Return who holds a run directory's lock, as its file names them."""
    try:
        pid, _, host = os.pread(fd, 300, 0).decode(errors="replace").strip().partition(" ")
    except OSError:
        return "another process"
    return f"process {pid} on {host}" if pid.isdigit() and host else "another process"


def _disk_full(e: Exception, folder: Path) -> bool:
    """Return whether a failed write is (most likely) a full disk: ENOSPC or EDQUOT, SQLite's
    'disk is full', or an I/O error on a file system with no space left."""
    if getattr(e, "errno", None) in (errno.ENOSPC, errno.EDQUOT):
        return True
    if getattr(e, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in str(e):
        return True
    if "disk I/O error" not in str(e):
        return False
    try:
        return os.statvfs(folder).f_bavail == 0
    except OSError:
        return False


def _remove_new(database: Path) -> None:
    """Remove a store this process created (under the lock) and could not set up, with its journal."""
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            database.with_name(database.name + suffix).unlink(missing_ok=True)


def _check_foreign(database: Path) -> None:
    """Refuse, without changing it, a database file that is not a gpusolve run store (or an empty
    one: a run store is never empty once made, so the run it held is lost, not to be redone silently)."""
    if not database.exists():
        return
    if database.stat().st_size == 0:
        raise GpusolveError(f"{database} is empty (0 bytes): the run it held is lost (a full disk? a "
                            f"truncated copy?); to start the run over, delete it (rm {database}) or use "
                            "another --run-dir")
    try:
        with open(database, "rb") as f:
            sqlite = f.read(16) == b"SQLite format 3\x00"
        db = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True) if sqlite else None
    except (OSError, sqlite3.Error):
        sqlite, db = False, None
    if db is None:
        raise GpusolveError(f"{database} is not a readable run store (not a SQLite database): "
                            "use another --run-dir")
    try:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        marked = "params" in tables and bool(
            db.execute("SELECT 1 FROM params WHERE name = 'schema_version'").fetchall())
        ours = marked or {"params", "results", "subproblems"} <= tables  # a damaged store of ours
    except sqlite3.Error:
        tables, ours = set(), False
    finally:
        db.close()
    if tables and not ours:
        raise GpusolveError(f"{database} is another program's database (tables {', '.join(sorted(tables))}), "
                            "not a gpusolve run store: left as it is; use another --run-dir")


def _normalise(params: dict[str, object]) -> dict[str, object]:
    """Return the parameters as they read back from JSON (tuples become lists...)."""
    return json.loads(json.dumps(params, sort_keys=True))


def _show(value: object) -> str:
    return "unset" if value is None else json.dumps(value)


def default_run_dir(params: dict[str, object]) -> Path:
    """Return the default run directory of a run: named by its task and a hash of its parameters."""
    from ..core.cache import content_key

    task = str(params.get("task", "run"))
    label = "-".join(str(params[k]) for k in ("game", "mode", "metric") if params.get(k))
    return runs_dir() / f"{task}-{label}-{content_key(sorted(_normalise(params).items()))[:12]}"
