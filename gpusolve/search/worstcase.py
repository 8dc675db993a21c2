"""A true adversary: the least number of guesses that always suffices (minimax).

A true adversary may give any reply consistent with some remaining answer, looking ahead.
The search proves the least depth D by showing depth D - 1 fails for every guess (iterative
deepening, exact), and returns a tree that never needs more than D. Absurdle lives in
``gpusolve.search.absurdle``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..core.errors import GpusolveError, Infeasible
from ..core.patterns import PatternMatrix
from ..core.symmetry import kernel_tables
from ..core.trees import Node, Tree, scores
from ..core.words import Word
from ..kernels import config, setkeys
from ..kernels import worstcase_cpu as k
from ..kernels.canonical_cpu import new_canon
from ..kernels.stats import BRANCHES, MAX
from ..kernels.symmetry_cpu import first_of_classes, new_sym
from .defaults import DEFAULT_PAIR_MB
from .plumbing import Budget, OnProgress, Progress, answer_columns, as_budget

ZOBRIST_SEED = 1_955_2022
MAX_LEVELS = 32
"""The most guesses of history and search the compiled search's symmetry state holds."""
MAX_PAIR_TABLE = 1 << 25
"""Largest answer-pair index table (entries) the pair cache may allocate; beyond it (huge
answer lists) sets with 3 guesses left are searched without it."""

@dataclass
class _Search:
    """The arrays, memo and pair cache a search works on."""

    pm: PatternMatrix
    guesses: np.ndarray
    consistent: bool
    budget: Budget
    pair_mb: int = DEFAULT_PAIR_MB
    symmetry: bool = True

    def __post_init__(self) -> None:
        pm = self.pm
        self.codes = np.ascontiguousarray(pm.codes)
        self.n_patterns = pm.game.n_patterns
        self.solved = pm.game.solved
        self.answer_rows = pm.answer_rows.astype(np.int32)
        if not self.consistent and not np.isin(self.answer_rows, self.guesses).all():
            raise GpusolveError("the worst-case search needs every answer among the guesses")
        self.zobrist = setkeys.zobrist(len(pm.answers), ZOBRIST_SEED)
        self.memo = setkeys.new_memo()
        self.large = config.WORSTCASE_LARGE_SET
        self.tables = kernel_tables(pm.game, [pm.guesses[r] for r in self.guesses],
                                    pm.answers) if self.symmetry else None
        """The game's symmetries where these lists allow them (``gpusolve.core.symmetry``)."""
        game = pm.game
        perms, code_row = self.tables or (np.zeros((1, game.length), np.int8), np.full(1, -1, np.int32))
        self.glet = game.encode(pm.guesses) if self.tables is not None else np.zeros((1, 1), np.int8)
        self.sym = new_sym(perms, code_row, game.colours, MAX_LEVELS, pm.shape[0] if self.tables else 0,
                           self.tables is not None)
        """The compiled search's symmetry state (``kernels.symmetry_cpu``)."""
        self.canon = new_canon(perms, code_row, pm.answer_of_row, game.colours, MAX_LEVELS,
                               config.CANON_MIN_SET if self.tables is not None else 0)
        """Its state for keying the memo by least images (``kernels.canonical_cpu``)."""

    def first_of_classes(self, hist: tuple[int, ...] | None, pool: np.ndarray,
                         order: np.ndarray) -> np.ndarray:
        """Return the positions of ``order`` (into ``pool``) whose guess is the first of its class
        under the symmetries fixing the guess rows ``hist`` (all of them without symmetries)."""
        if hist is None or self.tables is None or len(order) < 2:
            return order
        rows = pool[order]
        kept = first_of_classes(self.glet, *self.tables, self.pm.game.colours, hist, rows)
        return order[np.isin(rows, kept)]

    def _with_history(self, hist: tuple[int, ...] | None, depth: int) -> object:
        """Return the symmetry state of a compiled search of ``depth`` guesses whose set is
        everything the guess rows ``hist`` leave (off where that is unknown or the lists are not
        symmetric)."""
        sym = self.sym
        sym.on[0] = hist is not None and self.tables is not None and len(hist) + depth < MAX_LEVELS
        if sym.on[0]:
            sym.nbase[0] = len(hist)
            sym.hist[:len(hist)] = hist
        return sym

    @cached_property
    def pc(self) -> tuple:
        """Return the pair cache: (answer-major reply bytes as words, pair slots, bit sets,
        (used, resets), owners, the same reply bytes)."""
        n_answers = len(self.pm.answers)
        if self.consistent or n_answers * n_answers > MAX_PAIR_TABLE:  # not used: stand-ins
            return (np.zeros((1, 8), np.uint64), np.full((1, 1), -1, np.int32), np.zeros((1, 1), np.uint64),
                    np.zeros(2, np.int64), np.zeros((1, 2), np.int32), np.zeros((1, 64), np.uint8))
        words = -(-len(self.guesses) // 64)
        replies = np.zeros((n_answers, words * 64), np.uint8)
        replies[:, :len(self.guesses)] = self.codes[self.guesses].T
        rows = max(8, self.pair_mb * 2**20 // (words * 8 + 8))  # pair_mb=0: 8 (tests)
        return (replies.view(np.uint64), np.full((n_answers, n_answers), -1, np.int32),
                np.empty((rows, words), np.uint64), np.zeros(2, np.int64), np.empty((rows, 2), np.int32),
                replies)

    def _args(self, members: np.ndarray, depth: int, hist: tuple[int, ...] | None) -> tuple:
        lists = k.Lists(self.codes, self.guesses, self.answer_rows, self.glet, self.zobrist, self.n_patterns,
                        self.solved, self.consistent)
        return (lists, members, depth, self.memo, self.budget.flag, self.pc, self._with_history(hist, depth),
                self.canon, 0)

    def pool(self, members: np.ndarray) -> np.ndarray:
        """Return the guess rows that may be played on ``members``."""
        return k.guess_pool(self.guesses, members, self.consistent, self.answer_rows)

    def stats(self, members: np.ndarray, pool: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return (largest bucket, branches) of every pool guess over ``members``: one launch
        on the CUDA backend, all cores on the CPU (the backend's partition statistics)."""
        table = self.pm.backend.set_stats(self.codes, pool, members, self.n_patterns, self.solved,
                                          (MAX, BRANCHES))
        return np.ascontiguousarray(table[:, 0], np.int64), np.ascontiguousarray(table[:, 1], np.int64)

    def order(self, members: np.ndarray, depth: int) -> tuple[np.ndarray, np.ndarray, int]:
        """Return (pool, candidate positions in it, most branches) for a node with ``depth`` left.

        Candidates pass the size caps and come by (largest bucket, most branches) over the
        node's own answers, except for large sets with 3 guesses left in normal mode: there
        every guess comes in its order over all the answers (``whole_order``), and the
        statistics of the set itself only strike guesses whose buckets exceed the caps, on
        the CUDA backend where they cost one launch (the same result either way: a struck
        guess cannot work).
        """
        pool = self.pool(members)
        n = len(members)
        if n < self.large:
            order, most = k.node_order(self.codes, pool, members, depth, self.n_patterns, self.solved)
            return pool, order, int(most)
        if depth == 3 and self.fast3:
            order, most = self.whole_order
            if not self.pm.backend.gpu_path():
                return pool, order, most
            biggest, branches = self.stats(members, pool)
            most = int(branches.max())
            keep = (biggest <= most) & (biggest < n)
            return pool, order[keep[order]], most
        biggest, branches = self.stats(members, pool)
        most = int(branches.max())
        return pool, k.candidate_order(biggest, branches, n, k.child_cap(depth - 1, most, n)), most

    @property
    def fast3(self) -> bool:
        """Return whether sets with 3 guesses left use the pair cache (normal mode)."""
        return bool(k.uses_pairs(self.pc, self.consistent))

    @cached_property
    def whole_order(self) -> tuple[np.ndarray, int]:
        """Return (every pool position by (largest bucket, most branches) over all the answers,
        the most branches)."""
        every = np.arange(self.pm.shape[1], dtype=np.int32)
        biggest, branches = self.stats(every, self.guesses)
        return k.candidate_order(biggest, branches, len(every) + 1, len(every)), int(branches.max())

    def solvable(self, members: np.ndarray, depth: int, progress: OnProgress | None = None,
                 hist: tuple[int, ...] | None = None) -> bool:
        """Return whether every answer of ``members`` can be found within ``depth`` guesses
        (``members``: every answer the guess rows ``hist`` leave; None: unknown)."""
        n = len(members)
        if n < self.large or depth <= 2:
            return bool(k.solvable(*self._args(members, depth, hist)))
        h = setkeys.set_hash(members, self.zobrist)
        known = setkeys.find(self.memo, members, h, depth, -1)
        if known >= 0:
            return known == 1
        if not self.budget.spend():
            return False
        found = self.solving_guess(members, depth, progress, hist) >= 0
        if not self.budget.stopped:
            setkeys.store(self.memo, members, h, depth, int(found))
        return found

    def solving_guess(self, members: np.ndarray, depth: int, progress: OnProgress | None = None,
                      hist: tuple[int, ...] | None = None) -> int:
        """Return the guess row the search picks to solve ``members`` within ``depth``, or -1.

        Large sets are split here (their statistics from the backend), one guess per class
        under the symmetries fixing ``hist``; smaller ones in the compiled search.
        """
        if len(members) == 1:
            return int(self.answer_rows[members[0]])
        pool, order, most = self.order(members, depth)
        if len(members) < self.large or (depth == 3 and self.fast3):
            return int(k.solving_guess(*self._args(members, depth, hist), order, most))
        order = self.first_of_classes(hist, pool, order)
        for done, i in enumerate(order):
            row = int(pool[i])
            after = None if hist is None else (*hist, row)
            ok = all(self.solvable(sub, depth - 1, hist=after) for _, sub in self.buckets(members, row))
            if self.budget.stopped:
                return -1
            if ok:
                return row
            if progress is not None:
                progress(Progress(f"within {depth}: first guesses refuted", done + 1, len(order),
                                  nodes=self.budget.used, depth=depth))
        return -1

    def check_budget(self) -> None:
        """Raise if the search was stopped (Ctrl-C, time limit, node budget): nothing is claimed."""
        self.budget.check("the worst-case search")

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
        guess = self.solving_guess(members, depth)
        self.check_budget()
        if guess < 0:  # pragma: no cover - only after a wrong claim of solvability
            raise GpusolveError("internal error: no guess solves a set the search called solvable")
        node = Node(pm.guesses[guess], len(members), {})
        if np.any(self.codes[guess, members] == self.solved):
            node.branches[self.solved] = pm.guesses[guess]
        for reply, sub in self.buckets(members, guess):
            node.branches[reply] = self.tree(sub, depth - 1)
        return node


class Within:
    """Whether answer sets can be found within ``depth`` guesses: checks under a node budget each,
    all on one search, whose memo keeps what every finished check proved (normal or consistent
    mode, no symmetries: the sets are any sets)."""

    def __init__(self, pm: PatternMatrix, depth: int, mode: str = "normal", pair_mb: int = DEFAULT_PAIR_MB
                 ) -> None:
        self.search = _search(pm, mode, None, None, pair_mb, symmetry=False)
        self.depth = depth

    def check(self, members: np.ndarray, nodes: int) -> bool | None:
        """Return whether every answer of ``members`` (answer columns) can be found within the
        depth, or None where ``nodes`` nodes do not settle it."""
        s = self.search
        s.budget = Budget(nodes)
        found = s.solvable(members, self.depth)
        return None if s.budget.stopped else found

    def tree(self, members: np.ndarray) -> Tree:
        """Return a tree finding every answer of ``members`` within the depth (where ``check`` found
        one exists)."""
        self.search.budget = Budget()
        return self.search.tree(members, self.depth)


def _search(pm: PatternMatrix, mode: str, guesses: np.ndarray | None, budget: Budget | int | None,
            pair_mb: int = DEFAULT_PAIR_MB, symmetry: bool = True) -> _Search:
    if mode == "hard":
        raise GpusolveError("the worst-case search supports modes normal and consistent, not hard")
    if mode not in ("normal", "consistent"):
        raise GpusolveError(f"unknown mode {mode!r}: choose normal or consistent")
    rows = np.arange(pm.shape[0], dtype=np.int32) if guesses is None else guesses.astype(np.int32)
    return _Search(pm, rows, mode == "consistent", as_budget(budget), pair_mb, symmetry)


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
        """Return the result as a JSON-ready dict (the tree as its first guess only; field names as
        ``plumbing.JSON_FIELDS``)."""
        return {
            "objective": "worst-case",
            "worst": self.depth,
            "proven": self.proven_least,
            "refuted": self.refuted,
            "first_guess": self.tree if isinstance(self.tree, str) else self.tree.guess,
            "answers": self.n_answers,
            "mode": self.mode,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def worst_case(pm: PatternMatrix, answers: np.ndarray | None = None, mode: str = "normal",
               start: Word | None = None, max_depth: int = 12, budget: Budget | int | None = None,
               guesses: np.ndarray | None = None, min_depth: int = 1, progress: OnProgress | None = None,
               pair_mb: int = DEFAULT_PAIR_MB, symmetry: bool = True) -> WorstCase:
    """Return the least depth that always suffices (proven) and a tree achieving it.

    With ``start`` the first guess is fixed and the depth counts it. ``min_depth`` skips the
    smaller depths: the result is then only proven least if it equals ``min_depth`` = 1.
    ``progress`` hears of the first guesses checked at each depth (large answer sets only).
    ``symmetry``: over large sets, try one guess per class under the game's symmetries fixing
    the history (``gpusolve.core.symmetry``; the same result).
    """
    t0 = time.perf_counter()
    s = _search(pm, mode, guesses, budget, pair_mb, symmetry)
    members = answer_columns(pm, answers)
    with s.budget.guard():
        depth, refuted = _least_depth(s, members, start, min_depth, max_depth, progress)
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
    return WorstCase(depth, tree, refuted, s.budget.used, time.perf_counter() - t0,
                     len(members), mode, max(1, min_depth))


def _least_depth(s: _Search, members: np.ndarray, start: Word | None, min_depth: int,
                 max_depth: int, progress: OnProgress | None = None) -> tuple[int, list[int]]:
    """Return (the least depth from ``min_depth`` that suffices, the depths refuted below it)."""
    pm = s.pm
    refuted = []
    every = len(members) == s.pm.shape[1]  # the set no guess has cut yet: its history is empty
    for depth in range(max(1, min_depth), max_depth + 1):
        if start is None:
            ok = s.solvable(members, depth, progress, () if every else None)
        else:
            row = pm.guess_index[pm.game.parse_word(start, pm.guess_index)]
            parts = s.buckets(members, row)
            after = (row,) if every else None
            ok = not parts or (depth >= 2 and all(s.solvable(sub, depth - 1, hist=after) for _, sub in parts))
        s.check_budget()
        if ok:
            return depth, refuted
        refuted.append(depth)
    raise Infeasible(f"no strategy always wins within {max_depth} guesses")


def rank_worst_case(pm: PatternMatrix, depth: int, answers: np.ndarray | None = None,
                    mode: str = "normal", limit: int | None = None,
                    budget: Budget | int | None = None, pair_mb: int = DEFAULT_PAIR_MB
                    ) -> tuple[list[Word], int]:
    """Return (first guesses that always win within ``depth``, how many were checked).

    Candidates are the guesses whose buckets pass the search's size bounds, checked in order of
    their largest bucket (then most branches); ``limit`` stops after that many candidates.
    """
    s = _search(pm, mode, None, budget, pair_mb)
    members = answer_columns(pm, answers)
    pool, order, _ = s.order(members, depth)
    order = order[:limit] if limit else order
    good = []
    every = len(members) == pm.shape[1]
    with s.budget.guard():
        for i in order:
            row = int(pool[i])
            after = (row,) if every else None
            if all(s.solvable(sub, depth - 1, hist=after) for _, sub in s.buckets(members, row)):
                good.append(pm.guesses[row])
            s.check_budget()
    return good, len(order)
