"""Absurdle: the replier has no target; after each guess it keeps the largest bucket of
remaining answers (ties: the lowest reply code, i.e. the first in ``.....`` < ``....Y`` < ...
order; the solved reply only when it is all that is left). The fewest guesses that always
win, proven, and a winning line.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..core.errors import GpusolveError
from ..core.patterns import PatternMatrix
from ..core.words import Word
from ..kernels import absurdle_cpu as k
from ..kernels import setkeys
from ..kernels.stats import BRANCHES, KEPT, KEPT_REPLY
from .plumbing import Budget, OnProgress, Progress, answer_columns, as_budget

ZOBRIST_SEED = 20_220_310
"""Seed of the random 64-bit word per answer whose XOR finds answer sets (``kernels.setkeys``)."""
SCORES = (KEPT, KEPT_REPLY, BRANCHES)
"""The reply statistics that score a guess: the kept bucket's size and reply, the branches."""


@dataclass
class AbsurdleResult:
    """The fewest guesses that always beat the Absurdle replier, and a winning line."""

    guesses: int
    line: list[tuple[Word, int]]
    refuted: list[int]
    seconds: float
    nodes: int = 0

    def as_dict(self, game) -> dict:
        """Return the result as a JSON-ready dict (field names as ``plumbing.JSON_FIELDS``)."""
        return {
            "worst": self.guesses,
            "proven": True,
            "refuted": self.refuted,
            "line": [{"guess": g, "reply": game.format_reply(r)} for g, r in self.line],
            "nodes": self.nodes,
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
             budget: Budget | int | None = None, progress: OnProgress | None = None
             ) -> AbsurdleResult:
    """Return the fewest guesses that always win against the Absurdle replier, proven.

    ``progress`` hears now and then of the guesses tried and the answer sets examined.
    """
    t0 = time.perf_counter()
    members = answer_columns(pm, answers)
    search = _Search(pm, budget)
    search.progress = progress
    refuted = []
    for depth in range(1, max_depth + 1):
        search.depth = depth
        with search.budget.guard():
            rows = search.reduce(members, depth - 1)
        search.budget.check("the Absurdle search")
        if rows is not None:
            last = np.flatnonzero(pm.codes[:, _last_answer(pm, rows, members)] == pm.game.solved)
            words = [pm.guesses[r] for r in [*rows, int(last[0])]]
            played = absurdle_line(pm, words, members)
            return AbsurdleResult(depth, [(w, r) for w, r, _ in played], refuted,
                                  time.perf_counter() - t0, search.budget.used)
        refuted.append(depth)
    raise GpusolveError(f"no win within {max_depth} guesses against the Absurdle replier")


def _last_answer(pm: PatternMatrix, rows: list[int], members: np.ndarray) -> int:
    """Return the answer column left after playing guess ``rows`` against the replier."""
    hist = np.zeros(pm.game.n_patterns, np.int64)
    for r in rows:
        _, members = k.absurdle_reply(np.ascontiguousarray(pm.codes[r]), members, pm.game.n_patterns,
                                      pm.game.solved, hist)
    return int(members[0])


class _Search:
    """Whether answer sets can be brought down to one answer in j guesses, with a memo of the
    sets proven not to be (set -> the most guesses proven not to suffice; ``kernels.setkeys``,
    collision-proof)."""

    def __init__(self, pm: PatternMatrix, budget: Budget | int | None = None) -> None:
        import numba

        self.pm = pm
        self.codes = np.ascontiguousarray(pm.codes)
        self.guesses = np.arange(pm.shape[0], dtype=np.int32)
        self.n_patterns = pm.game.n_patterns
        self.solved = pm.game.solved
        self.zobrist = setkeys.zobrist(pm.shape[1], ZOBRIST_SEED)
        self.failed = setkeys.new_memo()  # set -> the most guesses proven not to suffice
        self.budget = as_budget(budget)
        self.threads = numba.get_num_threads()
        self.progress: OnProgress | None = None
        self.depth = 0
        self._shown = 0.0

    def _tick(self, nodes: int = 1) -> None:
        """Count ``nodes`` answer sets examined; raise once the search must stop."""
        if not self.budget.spend(nodes):
            self.budget.check("the Absurdle search")
        if self.progress is not None and time.monotonic() - self._shown > 0.2:
            self._shown = time.monotonic()
            self.progress(Progress(f"trying {self.depth} guesses: answer sets examined", self.budget.used,
                                   depth=self.depth))

    def _on_gpu(self, answers: int) -> bool:
        return self.pm.backend.offloads(answers, self.n_patterns)

    def scores(self, flat: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return int32 (kept size, kept reply, branches) [set, guess] for each set (the backend's
        reply statistics: one GPU launch for large batches on CUDA, all cores on the CPU)."""
        table = self.pm.backend.reply_stats(self.codes, self.guesses, flat, starts, self.n_patterns,
                                            self.solved, SCORES)
        return tuple(np.ascontiguousarray(table[..., c], np.int32) for c in range(len(SCORES)))

    def reducible2(self, flat: np.ndarray, starts: np.ndarray) -> np.ndarray:
        """Return (g2, g3) per set: guess positions bringing it to one answer, or (-1, -1)."""
        found = np.empty((len(starts) - 1, 2), np.int64)
        if self._on_gpu(len(flat)):
            kept, reply, branches = self.scores(flat, starts)
            k.reducible2_scored(self.codes, self.guesses, flat, starts, kept, reply, branches,
                                self.zobrist, self.n_patterns, found, self.threads)
        else:
            k.reducible2(self.codes, self.guesses, flat, starts, self.zobrist, self.n_patterns,
                         self.solved, found, self.threads)
        return found

    def _failed(self, members: np.ndarray, h: int, j: int) -> None:
        """Remember that ``members`` (hash ``h``) is not reducible in ``j`` guesses."""
        if setkeys.find(self.failed, members, h, 0, 0) < j:
            setkeys.store(self.failed, members, h, 0, j)

    def reduce(self, members: np.ndarray, j: int) -> list[int] | None:
        """Return guess rows that always bring ``members`` down to one answer within ``j``
        guesses (the smallest-kept-first line), or None when none do."""
        n = len(members)
        if n == 1:
            return []
        if j <= 0:
            return None
        h = setkeys.set_hash(members, self.zobrist)
        if setkeys.find(self.failed, members, h, 0, 0) >= j:
            return None
        self._tick()
        one = np.array([0, n], np.int64)
        if j == 2:
            g2, g3 = self.reducible2(members, one)[0]
            line = None if g2 < 0 else [int(g2)] + ([int(g3)] if g3 >= 0 else [])
        else:
            kept, reply, branches = (a[0] for a in self.scores(members, one))
            line = self._reduce_by(members, j, kept, reply, branches)
        if line is None:
            self._failed(members, h, j)
        return line

    def _reduce_by(self, members: np.ndarray, j: int, kept: np.ndarray, reply: np.ndarray,
                   branches: np.ndarray) -> list[int] | None:
        n = len(members)
        limit = int(branches.max()) ** (j - 1)  # a subset reducible in j - 1 has at most B ** (j - 1)
        picks = np.flatnonzero((kept < n) & (kept <= limit))
        picks = picks[np.argsort(kept[picks], kind="stable")].astype(np.int64)
        if not len(picks):
            return None
        if kept[picks[0]] == 1 or j == 1:
            return [int(picks[0])] if kept[picks[0]] == 1 else None
        flat, starts, hashes = k.kept_sets(self.codes, self.guesses, members, picks,
                                           reply.astype(np.int64), self.zobrist)
        todo = np.flatnonzero(setkeys.first_of_each(flat, starts, hashes)
                              & (setkeys.find_each(self.failed, flat, starts, hashes, 0, 0) < j - 1))
        if j > 3:
            for c in todo:
                sub = self.reduce(flat[starts[c]:starts[c + 1]], j - 1)
                if sub is not None:
                    return [int(picks[c]), *sub]
            return None
        lo, size = 0, max(4, 2 * self.threads)
        while lo < len(todo):
            batch = todo[lo:lo + size]
            lo, size = lo + size, min(2 * size, 1024)
            parts = [flat[starts[c]:starts[c + 1]] for c in batch]
            sub_starts = np.zeros(len(parts) + 1, np.int64)
            np.cumsum([len(p) for p in parts], out=sub_starts[1:])
            self._tick(len(parts))
            found = self.reducible2(np.concatenate(parts), sub_starts)
            for c, (g2, g3) in zip(batch, found):
                if g2 >= 0:
                    return [int(picks[c]), int(g2)] + ([int(g3)] if g3 >= 0 else [])
                self._failed(flat[starts[c]:starts[c + 1]], int(hashes[c]), 2)
        return None
