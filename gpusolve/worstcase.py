"""A true adversary: the least number of guesses that always suffices (minimax).

A true adversary may give any reply consistent with some remaining answer, looking ahead.
The search proves the least depth D by showing depth D - 1 fails for every guess (iterative
deepening, exact), and returns a tree that never needs more than D. Absurdle lives in
``gpusolve.absurdle``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .errors import GpusolveError
from .kernels import worstcase_cpu as k
from .patterns import PatternMatrix
from .trees import Node, Tree, scores
from .words import Word

ZOBRIST_SEED = 1_955_2022
DEFAULT_BUDGET = 2_000_000_000
"""Nodes a search may visit before giving up (then nothing is claimed)."""


@dataclass
class _Search:
    """The arrays and memo a search works on."""

    pm: PatternMatrix
    guesses: np.ndarray
    consistent: bool
    budget: np.ndarray

    def __post_init__(self) -> None:
        pm = self.pm
        self.codes = np.ascontiguousarray(pm.codes)
        self.n_patterns = pm.game.n_patterns
        self.solved = pm.game.solved
        self.answer_rows = pm.answer_rows.astype(np.int32)
        rng = np.random.default_rng(ZOBRIST_SEED)
        self.zobrist = rng.integers(0, np.iinfo(np.uint64).max, len(pm.answers), dtype=np.uint64,
                                    endpoint=True)
        self.memo = k.new_memo()

    def solvable(self, members: np.ndarray, depth: int) -> bool:
        return bool(k.solvable(self.codes, self.guesses, members, depth, self.n_patterns, self.solved,
                               self.zobrist, self.memo, self.budget, self.consistent, self.answer_rows))

    def check_budget(self) -> None:
        if self.budget[1]:
            raise GpusolveError("the search ran out of its node budget before proving a result; "
                                "raise --budget")

    def buckets(self, members: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
        """Return (reply, members) per non-solved bucket of a guess, largest first."""
        row = self.codes[guess]
        parts, starts = k.buckets(row, members, self.n_patterns, self.solved)
        out = []
        for b in range(len(starts) - 1):
            sub = parts[starts[b]:starts[b + 1]]
            out.append((int(row[sub[0]]), sub))
        return out

    def tree(self, members: np.ndarray, depth: int) -> Tree:
        """Return a tree solving ``members`` within ``depth`` guesses (which must be possible)."""
        pm = self.pm
        if len(members) == 1:
            return pm.answers[members[0]]
        if len(members) == 2:
            guess = int(self.answer_rows[members[0]])
            other = pm.answers[members[1]]
            return Node(pm.guesses[guess], 2, {self.solved: pm.guesses[guess],
                                               int(self.codes[guess, members[1]]): other})
        guess = int(k.first_solving_guess(self.codes, self.guesses, members, depth, self.n_patterns,
                                          self.solved, self.zobrist, self.memo, self.budget,
                                          self.consistent, self.answer_rows))
        self.check_budget()
        if guess < 0:  # pragma: no cover - only after a wrong claim of solvability
            raise GpusolveError("internal error: no guess solves a set the search called solvable")
        node = Node(pm.guesses[guess], len(members), {})
        if np.any(self.codes[guess, members] == self.solved):
            node.branches[self.solved] = pm.guesses[guess]
        for reply, sub in self.buckets(members, guess):
            node.branches[reply] = self.tree(sub, depth - 1)
        return node


def _search(pm: PatternMatrix, mode: str, guesses: np.ndarray | None, budget: int) -> _Search:
    if mode == "hard":
        raise GpusolveError("the worst-case search supports modes normal and consistent, not hard")
    if mode not in ("normal", "consistent"):
        raise GpusolveError(f"unknown mode {mode!r}: choose normal or consistent")
    rows = np.arange(pm.shape[0], dtype=np.int32) if guesses is None else guesses.astype(np.int32)
    return _Search(pm, rows, mode == "consistent", np.array([budget, 0], dtype=np.int64))


@dataclass
class WorstCase:
    """The least number of guesses that always suffices, with a tree and the depths refuted."""

    depth: int
    tree: Tree
    refuted: list[int]
    nodes: int
    seconds: float
    n_answers: int
    mode: str
    min_depth: int = 1

    @property
    def proven_least(self) -> bool:
        """Return whether every smaller depth was refuted in this run."""
        return self.refuted == list(range(1, self.depth))

    def as_dict(self) -> dict:
        """Return the result as a JSON-ready dict (the tree as its first guess only)."""
        return {
            "objective": "worst-case",
            "guesses_always_suffice": self.depth,
            "proven_least": self.proven_least,
            "depths_refuted": self.refuted,
            "first_guess": self.tree if isinstance(self.tree, str) else self.tree.guess,
            "answers": self.n_answers,
            "mode": self.mode,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def answer_columns(pm: PatternMatrix, answers: np.ndarray | None) -> np.ndarray:
    """Return the answer columns to solve (default: all)."""
    return np.arange(pm.shape[1], dtype=np.int32) if answers is None else np.asarray(answers, np.int32)


def worst_case(pm: PatternMatrix, answers: np.ndarray | None = None, mode: str = "normal",
               start: Word | None = None, max_depth: int = 12, budget: int = DEFAULT_BUDGET,
               guesses: np.ndarray | None = None, min_depth: int = 1) -> WorstCase:
    """Return the least depth that always suffices (proven) and a tree achieving it.

    With ``start`` the first guess is fixed and the depth counts it. ``min_depth`` skips the
    smaller depths: the result is then only proven least if it equals ``min_depth`` = 1.
    """
    t0 = time.perf_counter()
    s = _search(pm, mode, guesses, budget)
    members = answer_columns(pm, answers)
    if not len(members):
        raise GpusolveError("no answers to solve")
    refuted = []
    for depth in range(max(1, min_depth), max_depth + 1):
        if start is None:
            ok = s.solvable(members, depth)
        else:
            row = pm.guess_index[pm.game.parse_word(start, pm.guess_index)]
            parts = s.buckets(members, row)
            ok = not parts or (depth >= 2 and all(s.solvable(sub, depth - 1) for _, sub in parts))
        s.check_budget()
        if ok:
            break
        refuted.append(depth)
    else:
        raise GpusolveError(f"no strategy always wins within {max_depth} guesses")
    if start is None:
        tree = s.tree(members, depth)
    else:
        row = pm.guess_index[start.upper()]
        tree = Node(pm.guesses[row], len(members), {})
        if np.any(s.codes[row, members] == s.solved):
            tree.branches[s.solved] = pm.guesses[row]
        for reply, sub in s.buckets(members, row):
            tree.branches[reply] = s.tree(sub, depth - 1)
    if refuted != list(range(1, depth)):  # an upper bound: the tree may do better than asked
        depth = max(n for _, n in scores(tree))
    return WorstCase(depth, tree, refuted, int(budget - s.budget[0]), time.perf_counter() - t0,
                     len(members), mode, max(1, min_depth))


def rank_worst_case(pm: PatternMatrix, depth: int, answers: np.ndarray | None = None,
                    mode: str = "normal", limit: int | None = None,
                    budget: int = DEFAULT_BUDGET) -> tuple[list[Word], int]:
    """Return (first guesses that always win within ``depth``, how many were checked).

    Candidates are checked in order of their largest bucket (then most branches); ``limit``
    stops after that many candidates.
    """
    s = _search(pm, mode, None, budget)
    members = answer_columns(pm, answers)
    pool = s.guesses if mode == "normal" else s.answer_rows[members]
    hist = np.zeros(s.n_patterns, np.int64)
    order, _ = k._candidate_order(s.codes, pool, members, s.n_patterns, s.solved, hist)
    order = order[:limit] if limit else order
    good = []
    for i in order:
        row = int(pool[i])
        if all(s.solvable(sub, depth - 1) for _, sub in s.buckets(members, row)):
            good.append(pm.guesses[row])
        s.check_budget()
    return good, len(order)
