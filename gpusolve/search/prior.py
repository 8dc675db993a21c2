"""Priors over the answers: uniform (the default) or English word frequency (``wordfreq``).

The frequency prior weights each answer by a logistic function of its Zipf frequency
(log10 of occurrences per billion words): ``1 / (1 + exp(-(zipf - 3) / 0.5))``. Common words
weigh about 1, rare ones (zipf below 2, fewer than 1 in 10 million) almost 0, as the NYT
WordleBot and similar tools do, so a few very common words do not swamp the rest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from ..core.errors import GpusolveError
from ..core.patterns import PatternMatrix
from ..core.words import Word
from ..kernels import prior_cpu as k

PRIORS = ("uniform", "frequency")
MIDPOINT = 3.0
WIDTH = 0.5


def check_prior(prior: str) -> str:
    """Return ``prior`` if known, else raise a one-line error."""
    if prior not in PRIORS:
        raise GpusolveError(f"unknown prior {prior!r}: choose uniform or frequency")
    return prior


def zipf(words: tuple[Word, ...] | list[Word]) -> np.ndarray:
    """Return the Zipf frequency of each word in English (0 for unknown words)."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:
        raise GpusolveError("--prior frequency needs the wordfreq package: "
                            "pip install 'gpusolve[freq]'") from None
    return np.array([zipf_frequency(w.lower(), "en") for w in words], dtype=np.float64)


def answer_weights(pm: PatternMatrix, prior: str = "uniform") -> np.ndarray:
    """Return a weight per answer column: all ones (uniform) or the frequency prior."""
    check_prior(prior)
    if prior == "uniform":
        return np.ones(pm.shape[1])
    z = zipf(pm.answers)
    return np.array([1.0 / (1.0 + math.exp(-(v - MIDPOINT) / WIDTH)) for v in z])


@dataclass(frozen=True)
class WeightedStats:
    """A guess's partition statistics under a prior."""

    word: Word
    entropy: float
    expected: float
    max: int
    branches: int
    solve: float

    def as_dict(self) -> dict:
        """Return the statistics as a JSON-ready dict."""
        return {"word": self.word, "entropy": round(self.entropy, 6), "expected": round(self.expected, 6),
                "max": self.max, "branches": self.branches, "win_chance": round(self.solve, 6)}


WEIGHTED_METRICS = {
    "entropy": (k.W_ENTROPY, -1),
    "expectation": (k.W_EXPECTED, 1),
    "max": (k.W_MAX, 1),
    "branches": (k.W_BRANCHES, -1),
    "splits": (k.W_BRANCHES, -1),
    "prune": (k.W_EXPECTED, 1),
}
"""Metric name -> (column, sign): smaller sign * value is better."""


def weighted_table(pm: PatternMatrix, weights: np.ndarray, answers: np.ndarray | None = None,
                   guess_rows: np.ndarray | None = None) -> np.ndarray:
    """Return float64 rows (kernels.prior_cpu layout) of ``guess_rows`` over weighted ``answers``."""
    cols = np.arange(pm.shape[1], dtype=np.int32) if answers is None else np.asarray(answers, np.int32)
    rows = np.arange(pm.shape[0], dtype=np.int32) if guess_rows is None else np.asarray(guess_rows, np.int32)
    out = np.empty((len(rows), k.N_WEIGHTED))
    k.weighted_stats(pm.codes, rows, cols, np.ascontiguousarray(weights[cols], dtype=np.float64),
                     pm.game.n_patterns, pm.game.solved, out, numba.get_num_threads())
    return out


def rank_weighted(pm: PatternMatrix, metric: str, weights: np.ndarray, answers: np.ndarray | None = None,
                  guess_rows: np.ndarray | None = None) -> list[WeightedStats]:
    """Return every candidate guess's weighted statistics, best first by ``metric``.

    Ties go to the guess more likely to be the answer, then to list order.
    """
    if metric not in WEIGHTED_METRICS:
        raise GpusolveError(f"unknown metric {metric!r} with a prior: choose one of "
                            f"{', '.join(WEIGHTED_METRICS)}")
    rows = np.arange(pm.shape[0]) if guess_rows is None else np.asarray(guess_rows)
    table = weighted_table(pm, weights, answers, rows)
    column, sign = WEIGHTED_METRICS[metric]
    key = np.round(sign * table[:, column], 9)
    order = np.lexsort((np.arange(len(rows)), -np.round(table[:, k.W_SOLVE], 12), key))
    return [WeightedStats(pm.guesses[rows[i]], float(table[i, k.W_ENTROPY]), float(table[i, k.W_EXPECTED]),
                          int(table[i, k.W_MAX]), int(table[i, k.W_BRANCHES]), float(table[i, k.W_SOLVE]))
            for i in order]


def prior_tree(pm: PatternMatrix, weights: np.ndarray, metric: str = "entropy", mode: str = "normal",
               free_max: int | None = None, free_min: int = 3, answers: np.ndarray | None = None):
    """Return a greedy tree under a prior: at each node the guess best by the weighted ``metric``.

    The pool follows ``gpusolve.search.greedy``: any guess where ``free_min < remaining <= free_max``
    (normal mode), else the remaining answers. Ties go to the guess more likely to be the
    answer, then to list order.
    """
    from ..core.trees import Node

    if mode not in ("normal", "consistent"):
        raise GpusolveError("trees under a prior support modes normal and consistent")
    cols = np.arange(pm.shape[1], dtype=np.int32) if answers is None else np.asarray(answers, np.int32)
    limit = np.iinfo(np.int64).max if free_max is None else free_max

    def grow(cols: np.ndarray):
        if len(cols) == 1:
            return pm.answers[cols[0]]
        free = mode == "normal" and free_min < len(cols) <= limit
        rows = np.arange(pm.shape[0], dtype=np.int32) if free else pm.answer_rows[cols]
        best = rank_weighted(pm, metric, weights, cols, rows)[0].word
        row = pm.guess_index[best]
        node = Node(best, len(cols), {})
        codes = pm.codes[row, cols]
        for reply in np.unique(codes):
            sub = cols[codes == reply]
            node.branches[int(reply)] = best if reply == pm.game.solved else grow(sub)
        return node

    return grow(cols)


def weighted_mean(tree, pm: PatternMatrix, weights: np.ndarray) -> float:
    """Return the expected number of guesses of a tree when answers follow ``weights``."""
    from ..core.trees import scores

    index = {w: i for i, w in enumerate(pm.answers)}
    total = sum(weights[index[w]] * n for w, n in scores(tree))
    return float(total / sum(weights[index[w]] for w, _ in scores(tree)))
