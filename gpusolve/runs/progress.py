"""A long run's batches as progress events: done/total and the best start word so far."""

from __future__ import annotations

from collections.abc import Callable

from ..core.words import Word
from ..search.plumbing import OnProgress, Progress


class RunProgress:
    """A ``run_units`` batch callback that tells ``progress`` (the one display) of each batch as a
    ``Progress`` event: the units done of all, and the best result so far (``key`` orders results,
    ties by list position; ``describe`` says one in a few words)."""

    def __init__(self, progress: OnProgress, label: str, key: Callable[[dict, int], tuple],
                 describe: Callable[[dict], str], positions: dict[Word, int]) -> None:
        self.progress, self.label, self.key, self.describe = progress, label, key, describe
        self.positions = positions
        self.best: tuple | None = None
        self.best_text = ""

    def __call__(self, done: int, total: int, rows: list[tuple[Word, int, dict]]) -> None:
        """Take note of a finished batch and report it."""
        for word, _, result in rows:
            key = self.key(result, self.positions.get(word, 0))
            if self.best is None or key < self.best:
                self.best, self.best_text = key, f"best {word} ({self.describe(result)})"
        self.progress(Progress(self.label, done, total, self.best_text))
