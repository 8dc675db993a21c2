"""What every search shares, written once: the answer columns a search works on, one stop/budget
object (nodes, a time limit, Ctrl-C), one progress event, and the JSON field names of results.

Not a generic engine: each search keeps its own recursion; this module holds only the plumbing
around it. Answer-set identity lives in ``kernels/setkeys.py`` (worst case, Absurdle) and in the
exact search's memo keys (``kernels/optimal_cpu.py``); docs/architecture.md says why each is exact.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from ..core.errors import GpusolveError
from ..core.interrupt import StopOnInterrupt
from ..core.patterns import PatternMatrix

DEFAULT_NODES = 2_000_000_000
"""Nodes (answer sets examined) a search may visit before giving up, unless told otherwise."""


def answer_columns(pm: PatternMatrix, answers: Sequence | np.ndarray | None) -> np.ndarray:
    """Return answer columns (int32, ascending, distinct) from columns or words; default all answers."""
    if answers is None:
        return np.arange(pm.shape[1], dtype=np.int32)
    items = list(answers)
    if items and isinstance(items[0], str):
        index = {w: i for i, w in enumerate(pm.answers)}
        missing = [w for w in items if w.upper() not in index]
        if missing:
            raise GpusolveError(f"not in the answer list: {', '.join(missing[:5])}")
        items = [index[w.upper()] for w in items]
    cols = np.unique(np.asarray(items, dtype=np.int64))
    if not len(cols):
        raise GpusolveError("no answers to solve")
    if cols[0] < 0 or cols[-1] >= pm.shape[1]:
        raise GpusolveError(f"answer column out of range 0..{pm.shape[1] - 1}")
    return cols.astype(np.int32)


def as_budget(budget: Budget | int | None) -> Budget:
    """Return ``budget`` as a Budget (a number is a node budget; None the default one)."""
    return budget if isinstance(budget, Budget) else Budget(budget)


class Budget:
    """How much a search may do: a node budget, a time limit, and Ctrl-C, all through one stop flag.

    ``flag`` is ``[nodes left, stopped]`` (int64), the layout the compiled searches poll: at zero
    nodes left they set ``stopped`` and return at once. Ctrl-C (inside ``guard()``) and the time
    limit (a timer started by ``guard()``) empty it the same way, so every search stops alike;
    ``check()`` then says why, in one line.
    """

    def __init__(self, nodes: int | None = DEFAULT_NODES, seconds: float | None = None) -> None:
        if seconds is not None and seconds <= 0:
            raise GpusolveError(f"the time limit must be positive (got {seconds})")
        self.nodes = DEFAULT_NODES if nodes is None else int(nodes)
        self.seconds = seconds
        self.flag = np.array([self.nodes, 0], np.int64)
        self.interrupted = False
        self.timed_out = False
        self.started = time.monotonic()
        self._used: int | None = None
        self._listeners: list[Callable[[], None]] = []

    @property
    def used(self) -> int:
        """Return the nodes spent so far."""
        return self._used if self._used is not None else self.nodes - max(int(self.flag[0]), 0)

    @property
    def stopped(self) -> bool:
        """Return whether the search must stop (budget spent, time up, or Ctrl-C)."""
        return bool(self.flag[1])

    def spend(self, nodes: int = 1) -> bool:
        """Count ``nodes`` more; return False (and stop) once the budget is spent."""
        if self.flag[0] < nodes:
            self._stop()
            return False
        self.flag[0] -= nodes
        return not self.stopped

    @contextmanager
    def listening(self, listener: Callable[[], None]) -> Iterator[None]:
        """Within the block, call ``listener`` too when the search is stopped (a search's own flags)."""
        self._listeners.append(listener)
        try:
            yield
        finally:
            self._listeners.remove(listener)

    def resume(self) -> None:
        """Lower the stop flag (the reason stays recorded), e.g. to build the tree found so far."""
        self.flag[1] = 0

    def interrupt(self) -> None:
        """Stop the search because the user asked to (Ctrl-C)."""
        self.interrupted = True
        self._stop()

    def expire(self) -> None:
        """Stop the search because its time is up."""
        self.timed_out = True
        self._stop()

    def _stop(self) -> None:
        if self._used is None:
            self._used = self.nodes - max(int(self.flag[0]), 0)
        self.flag[0] = 0
        self.flag[1] = 1
        for listener in list(self._listeners):
            listener()

    def guard(self) -> _Guard:
        """Return a context in which Ctrl-C and the time limit stop the search (no exception)."""
        return _Guard(self)

    def check(self, what: str = "the search") -> None:
        """Raise if the search was stopped: KeyboardInterrupt for Ctrl-C, else a one-line error
        saying which limit was reached (nothing is claimed from a stopped search)."""
        if self.interrupted:
            raise KeyboardInterrupt
        if self.timed_out:
            raise GpusolveError(f"{what} reached its time limit ({self.seconds:g} s) before proving a "
                                "result; raise --time-limit")
        if self.stopped:
            raise GpusolveError(f"{what} ran out of its node budget before proving a result; "
                                "raise --budget")


class _Guard:
    """Ctrl-C and the time limit stop a budget's search while inside this block."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.interrupt = StopOnInterrupt(budget.interrupt)
        self.timer: threading.Timer | None = None

    def __enter__(self) -> Budget:
        self.interrupt.__enter__()
        if self.budget.seconds is not None:
            left = self.budget.seconds - (time.monotonic() - self.budget.started)
            self.timer = threading.Timer(max(left, 0.0), self.budget.expire)
            self.timer.daemon = True
            self.timer.start()
        return self.budget

    def __exit__(self, *exc: object) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.interrupt.__exit__()


@dataclass(frozen=True)
class Progress:
    """One progress event of a long piece of work, the one shape every command renders alike:
    what is counted (``phase``), how many are done of how many (``total`` None: unknown), and
    the best result so far, the nodes visited and the depth (guesses) being tried where the work
    has them."""

    phase: str
    done: int
    total: int | None = None
    best: str = ""
    nodes: int | None = None
    depth: int | None = None


OnProgress = Callable[[Progress], None]
"""A callback hearing of progress events."""


JSON_FIELDS = {
    "total": "sum over the answers of the guesses each needs (the exact search's objective)",
    "mean": "total / answers",
    "worst": "the most guesses any answer needs: for the worst-case search and Absurdle, the fewest "
             "guesses that always win",
    "proven": "whether the result is proven (least, exact) rather than a bound or an estimate",
    "refuted": "the guess counts proven not to suffice",
    "first_guess": "the first guess of the strategy",
    "answers": "how many answers the strategy covers",
    "nodes": "answer sets the search examined",
    "seconds": "the search's own time",
}
"""The field names every command's ``--json`` uses for the same things (docs/json.md)."""
