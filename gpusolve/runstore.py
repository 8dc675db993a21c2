"""The run store: one SQLite database (WAL mode) per long run, so a run can be killed and resumed.

A run directory holds ``run.sqlite`` with three tables:

* ``params``: everything that changes the answer (game, lists and their content hash, mode,
  max guesses, metric, objective, cutoff...), written once when the run starts; opening the
  run again with other parameters is refused with a one-line error.
* ``results``: one row per finished unit (a start word): its position in the guess list, the
  result as JSON (deterministic: equal on every run), and how it was obtained (seconds, worker)
  kept apart so that results compare equal across runs. Each finished batch is one transaction.
* ``subproblems``: the exact search's solved-subproblem cache, key (64-bit) -> value, with a
  flag saying whether the value is exact or a proven lower bound.

SQLite's journal makes every transaction all-or-nothing, so a process killed at any moment
(even SIGKILL) leaves the store readable, holding exactly the batches committed before it died.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import platformdirs

from .errors import GpusolveError

SCHEMA_VERSION = 1
DATABASE = "run.sqlite"

_TABLES = """
CREATE TABLE IF NOT EXISTS params (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    unit TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    result TEXT NOT NULL,
    seconds REAL,
    worker TEXT,
    finished REAL DEFAULT ((julianday('now') - 2440587.5) * 86400.0)
);
CREATE TABLE IF NOT EXISTS subproblems (
    key INTEGER PRIMARY KEY,
    value INTEGER NOT NULL,
    exact INTEGER NOT NULL
) WITHOUT ROWID;
"""


def runs_dir() -> Path:
    """Return the folder holding default run directories: $GPUSOLVE_RUNS_DIR or the user data dir."""
    return Path(os.environ.get("GPUSOLVE_RUNS_DIR") or platformdirs.user_data_path("gpusolve") / "runs")


def _signed(key: int) -> int:
    """Return a 64-bit unsigned key as the signed integer SQLite stores."""
    key = int(key) & 0xFFFFFFFFFFFFFFFF
    return key - (1 << 64) if key >= 1 << 63 else key


def _unsigned(key: int) -> int:
    """Return the unsigned 64-bit key of a stored signed integer."""
    return key & 0xFFFFFFFFFFFFFFFF


class RunStore:
    """An open run directory: its parameters, finished results and subproblem cache."""

    def __init__(self, path: str | Path, params: dict[str, object]) -> None:
        self.path = Path(path)
        self.params = _normalise(params)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path / DATABASE, timeout=60, isolation_level=None)
        except (OSError, sqlite3.Error) as e:
            raise GpusolveError(f"cannot open run directory {self.path}: {e}") from None
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            with self._transaction():
                for statement in _TABLES.split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                self._check_params()
        except sqlite3.DatabaseError as e:
            self.db.close()
            raise GpusolveError(f"{self.path / DATABASE} is not a readable run store: {e}") from None

    # --- parameters -------------------------------------------------------------------------

    def _check_params(self) -> None:
        rows = self.db.execute("SELECT name, value FROM params")
        stored = {name: json.loads(value) for name, value in rows}
        if not stored:
            rows = [("schema_version", json.dumps(SCHEMA_VERSION))]
            rows += [(k, json.dumps(v)) for k, v in sorted(self.params.items())]
            self.db.executemany("INSERT INTO params VALUES (?, ?)", rows)
            return
        if stored.pop("schema_version", None) != SCHEMA_VERSION:
            raise GpusolveError(f"run directory {self.path} was written by another version of gpusolve")
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
        return {unit for (unit,) in self.db.execute("SELECT unit FROM results")}

    def results(self) -> dict[str, dict]:
        """Return every finished unit's result, in guess-list order."""
        rows = self.db.execute("SELECT unit, result FROM results ORDER BY position")
        return {unit: json.loads(result) for unit, result in rows}

    def count(self) -> int:
        """Return the number of finished units."""
        return self.db.execute("SELECT count(*) FROM results").fetchone()[0]

    def save(self, results: Iterable[tuple[str, int, dict]], seconds: float | None = None,
             worker: str | None = None, subproblems: Iterable[tuple[int, int, bool]] = ()) -> None:
        """Record finished units (unit, position, result) and new subproblems in one transaction."""
        rows = [(unit, int(position), json.dumps(result, sort_keys=True), seconds, worker)
                for unit, position, result in results]
        with self._transaction():
            self.db.executemany(
                "INSERT OR IGNORE INTO results (unit, position, result, seconds, worker) "
                "VALUES (?, ?, ?, ?, ?)", rows)
            self._save_subproblems(subproblems)

    # --- subproblem cache -------------------------------------------------------------------

    def load_subproblems(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return the cached subproblems as arrays (keys uint64, values int64, exact bool)."""
        rows = self.db.execute("SELECT key, value, exact FROM subproblems").fetchall()
        keys = np.array([_unsigned(k) for k, _, _ in rows], dtype=np.uint64)
        values = np.array([v for _, v, _ in rows], dtype=np.int64)
        exact = np.array([bool(e) for _, _, e in rows], dtype=np.bool_)
        return keys, values, exact

    def save_subproblems(self, rows: Iterable[tuple[int, int, bool]]) -> None:
        """Merge (key, value, exact) rows into the cache in one transaction (exact values win)."""
        with self._transaction():
            self._save_subproblems(rows)

    def _save_subproblems(self, rows: Iterable[tuple[int, int, bool]]) -> None:
        # An exact value replaces a lower bound; a higher lower bound replaces a lower one.
        self.db.executemany(
            "INSERT INTO subproblems (key, value, exact) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET "
            "value = CASE WHEN subproblems.exact THEN subproblems.value WHEN excluded.exact THEN "
            "excluded.value ELSE max(subproblems.value, excluded.value) END, "
            "exact = max(subproblems.exact, excluded.exact)",
            ((_signed(k), int(v), int(bool(e))) for k, v, e in rows),
        )

    def subproblem_count(self) -> int:
        """Return the number of cached subproblems."""
        return self.db.execute("SELECT count(*) FROM subproblems").fetchone()[0]

    # --- plumbing ---------------------------------------------------------------------------

    def _transaction(self):
        return _Transaction(self.db)

    def close(self) -> None:
        """Close the database (a checkpoint folds the WAL back into the main file)."""
        self.db.close()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *exc: object) -> None:
        self.db.execute("ROLLBACK" if kind else "COMMIT")


def _normalise(params: dict[str, object]) -> dict[str, object]:
    """Return the parameters as they read back from JSON (tuples become lists...)."""
    return json.loads(json.dumps(params, sort_keys=True))


def _show(value: object) -> str:
    return "unset" if value is None else json.dumps(value)


def default_run_dir(params: dict[str, object]) -> Path:
    """Return the default run directory of a run: named by its task and a hash of its parameters."""
    from .cache import content_key

    task = str(params.get("task", "run"))
    label = "-".join(str(params[k]) for k in ("game", "mode", "metric") if params.get(k))
    return runs_dir() / f"{task}-{label}-{content_key(sorted(_normalise(params).items()))[:12]}"
