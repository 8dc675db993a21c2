"""Partition metrics of every candidate guess over a set of answers, in one kernel pass."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core.errors import GpusolveError
from ..core.patterns import PatternMatrix
from ..core.words import Word
from ..kernels.stats import (
    BRANCHES,
    MAX,
    N_STATS,
    SCALE,
    SINGLETONS,
    SUM_INVERSE,
    SUM_NLOGN,
    SUM_SQUARES,
)

METRICS = {
    "entropy": "information in bits (higher is better)",
    "max": "size of the largest branch (lower is better)",
    "expectation": "expected branch size (lower is better)",
    "branches": "number of branches (higher is better)",
    "guaranteed_wins": "singleton branches other than the solved reply: sure second-guess wins "
    "(higher is better)",
    "expected_wins": "sum of 1/branch size over branches other than the solved reply: expected "
    "second-guess wins (higher is better)",
}
"""The metric names users can rank by, with what each measures."""

METRIC_ALIASES = {"splits": "branches", "prune": "expectation"}
"""Seed 004's policy names for two of the metrics (MaxSplits, MaxPrune)."""


def canonical_metric(metric: str) -> str:
    """Return the metric's own name (``splits`` is ``branches``...), or raise a one-line error."""
    name = METRIC_ALIASES.get(metric.lower(), metric.lower())
    if name not in METRICS:
        known = ", ".join([*METRICS, *METRIC_ALIASES])
        raise GpusolveError(f"unknown metric {metric!r}: choose one of {known}")
    return name


@dataclass(frozen=True)
class GuessStats:
    """The partition metrics of one guess over a set of answers."""

    word: Word
    entropy: float
    max: int
    expectation: float
    branches: int
    guaranteed_wins: int
    expected_wins: float

    def as_dict(self) -> dict:
        """Return the metrics as a JSON-ready dict (floats rounded for display)."""
        return {
            "word": self.word,
            "entropy": round(self.entropy, 6),
            "max": self.max,
            "expectation": round(self.expectation, 6),
            "branches": self.branches,
            "guaranteed_wins": self.guaranteed_wins,
            "expected_wins": round(self.expected_wins, 6),
        }


def partition_table(pm: PatternMatrix, answers: np.ndarray | None = None,
                    guess_rows: np.ndarray | None = None) -> np.ndarray:
    """Return the int64 stats rows (kernels.stats layout) of ``guess_rows`` over ``answers``.

    ``answers`` are column indices of the matrix (default: all); ``guess_rows`` default to
    every guess.
    """
    n_answers = pm.shape[1]
    answers = np.arange(n_answers, dtype=np.int32) if answers is None else answers.astype(np.int32)
    rows = np.arange(pm.shape[0], dtype=np.int32) if guess_rows is None else guess_rows.astype(np.int32)
    table = pm.backend.set_stats(pm.codes, rows, answers, pm.game.n_patterns, pm.game.solved,
                                 np.arange(N_STATS)).astype(np.int64)
    # A guess that may itself be the answer has a solved branch of one: a first-guess win,
    # not a second-guess one, so it leaves the win counts (it stays a branch).
    solved = np.isin(rows, pm.answer_rows[answers])
    table[solved, SINGLETONS] -= 1
    table[solved, SUM_INVERSE] -= int(SCALE)
    return table


def sort_key(table: np.ndarray, metric: str) -> np.ndarray:
    """Return an exact integer key per row: smaller is better for ``metric``."""
    metric = canonical_metric(metric)
    column = {
        "entropy": SUM_NLOGN,  # entropy = log2(n) - sum(n log n)/n: smaller sum, more entropy
        "max": MAX,
        "expectation": SUM_SQUARES,
        "branches": BRANCHES,
        "guaranteed_wins": SINGLETONS,
        "expected_wins": SUM_INVERSE,
    }[metric]
    key = table[:, column]
    return -key if metric in ("branches", "guaranteed_wins", "expected_wins") else key


def ranking(table: np.ndarray, metric: str) -> np.ndarray:
    """Return row positions best first; ties keep list order."""
    return np.argsort(sort_key(table, metric), kind="stable")


def guess_stats(word: Word, row: np.ndarray, n_answers: int) -> GuessStats:
    """Return the metrics of one stats row for a set of ``n_answers`` answers."""
    n = max(n_answers, 1)
    return GuessStats(
        word=word,
        entropy=(math.log2(n) - row[SUM_NLOGN] / SCALE / n) if n_answers else 0.0,
        max=int(row[MAX]),
        expectation=row[SUM_SQUARES] / n,
        branches=int(row[BRANCHES]),
        guaranteed_wins=int(row[SINGLETONS]),
        expected_wins=row[SUM_INVERSE] / SCALE,
    )


def rank_guesses(pm: PatternMatrix, metric: str, answers: np.ndarray | None = None,
                 guess_rows: np.ndarray | None = None) -> list[GuessStats]:
    """Return every candidate guess's metrics over ``answers``, best first by ``metric``."""
    rows = np.arange(pm.shape[0]) if guess_rows is None else np.asarray(guess_rows)
    table = partition_table(pm, answers, rows)
    n = pm.shape[1] if answers is None else len(answers)
    return [guess_stats(pm.guesses[rows[i]], table[i], n) for i in ranking(table, metric)]
