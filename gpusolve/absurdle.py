"""Absurdle: the replier has no target; after each guess it keeps the largest bucket of
remaining answers (ties: the lowest reply code, i.e. the first in ``.....`` < ``....Y`` < ...
order; the solved reply only when it is all that is left). The fewest guesses that always
win, proven, and a winning line.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .errors import GpusolveError
from .kernels import absurdle_cpu as k
from .patterns import PatternMatrix
from .words import Word
from .worstcase import DEFAULT_BUDGET, _search, answer_columns


@dataclass
class AbsurdleResult:
    """The fewest guesses that always beat the Absurdle replier, and a winning line."""

    guesses: int
    line: list[tuple[Word, int]]
    refuted: list[int]
    seconds: float

    def as_dict(self, game) -> dict:
        """Return the result as a JSON-ready dict."""
        return {
            "fewest_guesses": self.guesses,
            "proven": True,
            "depths_refuted": self.refuted,
            "line": [{"guess": g, "reply": game.format_reply(r)} for g, r in self.line],
            "seconds": round(self.seconds, 3),
        }


def absurdle_line(pm: PatternMatrix, words: list[Word], answers: np.ndarray | None = None
                  ) -> list[tuple[Word, int, int]]:
    """Return (guess, reply, answers left) for each guess played against the Absurdle replier."""
    members = answer_columns(pm, answers)
    hist = np.zeros(pm.game.n_patterns, np.int64)
    out = []
    for word in words:
        row = pm.guess_index[word]
        reply, members = k.absurdle_reply(np.ascontiguousarray(pm.codes[row]), members,
                                          pm.game.n_patterns, pm.game.solved, hist)
        out.append((word, int(reply), len(members)))
    return out


def absurdle(pm: PatternMatrix, answers: np.ndarray | None = None, max_depth: int = 10,
             budget: int = DEFAULT_BUDGET) -> AbsurdleResult:
    """Return the fewest guesses that always win against the Absurdle replier, proven."""
    t0 = time.perf_counter()
    s = _search(pm, "normal", None, budget)
    members = answer_columns(pm, answers)
    refuted = []
    for depth in range(1, max_depth + 1):
        line = np.full(depth, -1, dtype=np.int32)
        ok = k.absurdle_solvable(s.codes, s.guesses, members, depth, s.n_patterns, s.solved,
                                 s.zobrist, s.memo, s.budget, line, 0)
        s.check_budget()
        if ok:
            words = [pm.guesses[r] for r in line if r >= 0]
            played = absurdle_line(pm, words, members)
            return AbsurdleResult(depth, [(w, r) for w, r, _ in played], refuted,
                                  time.perf_counter() - t0)
        refuted.append(depth)
    raise GpusolveError(f"no win within {max_depth} guesses against the Absurdle replier")
