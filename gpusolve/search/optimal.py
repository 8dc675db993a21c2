"""Exact, depth-limited optimal guess trees: the least total number of guesses, proven.

The compiled search (``kernels/optimal_cpu.py``) computes the value of one answer set; this
module drives the top level: the first guess (given, or tried in order of a cheap bound with
a cutoff), the buckets under it in parallel worker threads (the kernels release the GIL;
each worker has its own memo), progress, Ctrl-C, and the tree of the optimal strategy.
Sets of ``DRIVER_MIN_ANSWERS`` answers or more (``FIRST_PASS_MIN_ANSWERS`` where no cutoff is
known yet) are searched here guess by guess with the kernel's own pieces: its closed forms, sort
key, bucket floors, and its memo (their values are entries of the first worker's table, found
and stored by the kernel's look-up and settle).
"""

from __future__ import annotations

import bisect
import os
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..core.errors import GpusolveError, Infeasible
from ..core.history import remaining_answers
from ..core.modes import check_mode
from ..core.patterns import PatternMatrix
from ..core.symmetry import kernel_tables
from ..core.trees import Node, Tree, scores, summarize
from ..core.words import Word
from ..kernels import config
from ..kernels.canonical_cpu import new_canon
from ..kernels.config import INF
from ..kernels.optimal_cpu import (
    D_CELLS,
    D_NODES,
    EXACT,
    LOWER,
    N_PARAMS,
    N_STATS,
    P_BRANCH,
    P_COLLIDE,
    P_COLOURS,
    P_KIND,
    P_LENGTH,
    P_MODE,
    P_NPAT,
    P_PATH0,
    P_SOLVED,
    P_VECTOR_MAX,
    S_BEST,
    S_EVALUATED,
    S_MEMO_HITS,
    S_MEMO_STORES,
    S_NODES,
    S_SCANNED,
    S_STORE_HITS,
    VECTOR_MAX,
    Shared,
    bucket_floor,
    closed_form,
    hard_filter,
    look_up_set,
    new_moves,
    new_scratch,
    settle_set,
    solve_set,
    sort_keys,
    with_room,
)
from ..kernels.replies import WORDLE
from ..kernels.symmetry_cpu import first_of_classes, new_sym
from . import aside
from .bounds import (
    answerers,
    first_pass,
    guess_caps,
    guess_table,
    on_gpu,
    screened_hard_pass,
    size_bound,
    whole_table,
)
from .defaults import DEFAULT_MEMO_MB
from .memo import Entries, MemoPool, MemoTable, table_entries
from .plumbing import Budget, OnProgress, Progress

COLLIDE = False
"""Test hook: give every answer set the same memo keys, so that every lookup is a hash collision
(the results must not change: an entry is proven by its record, never by its key)."""

History = tuple[int, ...] | None
"""The guess rows played to reach a set (None: unknown, or the set is not all they leave)."""
Path = tuple[int, ...]
"""The moves from the root set to a set, each ``guess row * replies + reply``."""
Child = tuple[int, np.ndarray, np.ndarray, Path]
"""A bucket under a guess: (reply, answer columns, allowed guess rows, moves to it)."""
MODE_IDS = {"normal": 0, "hard": 1, "consistent": 2}


@dataclass
class Alternative:
    """A first (or next) guess with its proven value: exact, or a lower bound."""

    guess: Word
    total: int
    exact: bool

    def as_dict(self) -> dict:
        """Return the alternative as a JSON-ready dict."""
        return {"guess": self.guess, "total": self.total, "exact": self.exact}


@dataclass
class OptimalResult:
    """The outcome of an optimal-tree search."""

    first_guess: Word | None
    total: int | None
    mean: float | None
    worst: int | None
    histogram: dict[int, int]
    proven: bool
    nodes: int
    seconds: float
    tree: Tree | None
    alternatives: list[Alternative] = field(default_factory=list)
    n_answers: int = 0
    candidates: int = 0
    tried: int = 0
    restricted: bool = False
    below_cutoff: bool = True
    interrupted: bool = False
    counters: dict = field(default_factory=dict)
    subproblems: Entries | None = None

    def summary(self) -> dict:
        """Return the documented JSON summary."""
        return {
            "first_guess": self.first_guess,
            "total": self.total,
            "mean": None if self.mean is None else round(self.mean, 4),
            "worst": self.worst,
            "histogram": {str(k): v for k, v in sorted(self.histogram.items())},
            "proven": self.proven,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


class _Workspace:
    """One worker's scratch arrays and memo for the compiled search."""

    def __init__(self, ctx: _Context, memo_entries: int, memo: MemoTable | None = None) -> None:
        g, a = ctx.codes.shape
        levels = ctx.max_guesses + 2
        self.table = memo or MemoTable(memo_entries, ctx.owner, ctx.path_width, ctx.rule_width)
        sym = canon = None  # without symmetries, none: their code is not compiled
        if ctx.symmetric:
            sym = new_sym(ctx.perms, ctx.code_row, ctx.pm.game.colours, levels, g, True)
            canon = new_canon(ctx.perms, ctx.code_row, ctx.pm.answer_of_row, ctx.pm.game.colours, levels,
                              ctx.canon_min)
        self.work = new_scratch(ctx.params.copy(), g, a, ctx.n_patterns, levels, ctx.rule_width, sym, canon)
        self.stats = self.work.stats
        self.ctx = ctx

    def solve(self, answers: np.ndarray, depth: int, beta: int, guesses: np.ndarray,
              path: Path, stop: np.ndarray, hist: History = None) -> tuple[int, int]:
        """Return (value or lower bound >= beta, best guess row or -1) for one answer set: the
        one the moves ``path`` leave of the root set, and every guess row of ``hist`` leaves
        (None: unknown, the symmetries unused)."""
        w = self.work = with_room(self.work, len(guesses) * len(answers), len(answers))
        w.params[P_PATH0] = len(path)
        w.moves.path[:len(path)] = path
        if w.sym is not None:
            w.sym.on[0] = hist is not None
            if hist is not None:
                w.sym.nbase[0] = len(hist)
                w.sym.hist[:len(hist)] = hist
        value = solve_set(answers.astype(np.int32), depth, beta, guesses.astype(np.int32),
                          self.ctx.shared, w._replace(stop=stop), self.table.memo, self.ctx.pm.answer_major)
        if value < 0:
            raise GpusolveError("internal error: an answer is not among the allowed guesses")
        return int(value), int(self.stats[S_BEST])

    @property
    def nodes(self) -> int:
        """Return the nodes this workspace has searched."""
        return int(self.stats[S_NODES])


def workspace_bytes(g: int, a: int, n_patterns: int, levels: int) -> int:
    """Return the most memory one worker's ``_Workspace`` can take for ``g`` guesses, ``a``
    answers and ``levels`` levels (its reply matrices grown to the whole answer set)."""
    per_level = 2 * a * g + a * 16 + g * 28 + n_patterns * 32
    return levels * per_level + g * 40 + 12 * (1 << max(4, int(2 * g - 1).bit_length()))


class _Context:
    """The arrays every workspace shares: matrix, hashes, mode parameters."""

    def __init__(self, pm: PatternMatrix, mode: str, max_guesses: int, vector_max: int | None = None,
                 symmetry: bool = True, root: np.ndarray | None = None) -> None:
        """``root``: the root set's answer columns when it is not all the answers the moves
        leave (a position restricted further); memo entries are proven relative to it."""
        game = pm.game
        if pm.codes.dtype != np.uint8:
            raise GpusolveError("the optimal-tree search handles games with at most 256 replies")
        self.pm = pm
        self.codes = np.ascontiguousarray(pm.codes)
        self.answer_rows = pm.answer_rows.astype(np.int32)
        self.n_patterns = game.n_patterns
        self.solved = game.solved
        self.max_guesses = max_guesses
        self.mode = mode
        rng = np.random.default_rng(0x5EED)  # fixed: run stores keep memo keys made from these
        a = self.codes.shape[1]
        bits = np.iinfo(np.uint64).max
        self.zob1 = rng.integers(0, bits, a, dtype=np.uint64, endpoint=True)
        self.zob2 = rng.integers(0, bits, a, dtype=np.uint64, endpoint=True)
        self.zob32 = (self.zob1 >> np.uint64(32)).astype(np.uint32) | np.uint32(1)
        self.glet = pm.letters
        self.gcnt = pm.letter_counts
        self.params = np.zeros(N_PARAMS, np.int64)
        self.params[P_MODE] = MODE_IDS[mode]
        self.params[P_SOLVED] = game.solved
        self.params[P_NPAT] = game.n_patterns
        self.params[P_KIND] = game.kind
        self.params[P_LENGTH] = game.length
        self.params[P_COLOURS] = game.colours
        self.params[P_VECTOR_MAX] = VECTOR_MAX if vector_max is None else vector_max
        self.params[P_COLLIDE] = COLLIDE
        self.branches = pm.branches
        """The most replies besides the solved one any guess gives (the level bound's ``k``)."""
        self.params[P_BRANCH] = self.branches
        self.shared = Shared(codes=self.codes, answer_rows=self.answer_rows, zob1=self.zob1, zob2=self.zob2,
                             glet=self.glet, gcnt=self.gcnt, genc=self.glet,
                             zob32=self.zob32)
        tables = kernel_tables(game, pm.guesses, pm.answers) if symmetry else None
        self.symmetric = tables is not None
        """Whether the search tries one guess per class under the symmetries fixing the history."""
        self.perms, self.code_row = tables or (np.zeros((1, game.length), np.int8), np.full(1, -1, np.int32))
        self.canon_min = config.CANON_MIN_SET if self.symmetric and root is None and mode != "hard" else 0
        """The least set looked up by the least image of its moves (0: none; ``kernels.config``)."""
        self.owner = (game, mode, tuple(pm.guesses), tuple(pm.answers),
                      None if root is None else np.asarray(root, np.int32).tobytes())
        """What a memo entry's meaning depends on: its moves are from the root set of these lists."""
        self.path_width = max(1, max_guesses - 2)
        """The most moves from the root set a memo entry records: a set with 2 guesses left."""
        self.rule_width = game.length + game.colours if mode == "hard" and game.kind == WORDLE else 0
        """The length of a combined hard-mode rule a memo entry records (Wordle's hard mode)."""

    def classes(self, hist: History, rows: np.ndarray) -> np.ndarray:
        """Return the first of ``rows`` of each class under the symmetries fixing the guess rows
        ``hist`` (all of them when the symmetries are unused)."""
        if hist is None or not self.symmetric or len(rows) < 2:
            return rows
        return first_of_classes(self.glet, self.perms, self.code_row, self.pm.game.colours, hist, rows)

    def hard_filter(self, rows: np.ndarray, g: int, p: int) -> np.ndarray:
        """Return the rows hard mode still allows after guess row ``g`` got reply ``p``."""
        out = np.empty(len(rows), np.int32)
        scratch = np.zeros(64, np.int64)
        k = hard_filter(self.params, self.glet, self.gcnt, self.glet, rows.astype(np.int32), len(rows), g, p,
                        out, scratch)
        return out[:k]

    @cached_property
    def shown(self) -> np.ndarray:
        """Return, per reply of Wordle, a bit per position where it is not grey."""
        game = self.pm.game
        return np.array([sum(1 << k for k, square in enumerate(game.format_reply(p)) if square != ".")
                         for p in range(self.n_patterns)], np.int64)

    def twin_key(self, answers: np.ndarray, g: int) -> bytes:
        """Return a key of guess row ``g`` over ``answers`` (Wordle's hard mode): its replies to them,
        and its letters wherever one of those replies is not grey.

        Guesses with equal keys (rule twins) cost the same there: they split the set into the same
        buckets, and after each reply p the rule is the same (the NYT rule of (g, p) reads g's
        letters only where p is green or yellow: the greens kept in place, each revealed letter held
        at least as often as revealed, ``kernels/hardmode.py``), so each bucket is left the same
        allowed guesses, and every later rule removes alike."""
        replies = self.codes[g, answers]
        shown = int(np.bitwise_or.reduce(self.shown[np.unique(replies)]))
        letters = bytes(int(c) if shown >> k & 1 else 255 for k, c in enumerate(self.glet[g]))
        return replies.tobytes() + letters

    def move(self, g: int, p: int) -> int:
        """Return the move of guess row ``g`` with reply ``p`` as a path records it."""
        return int(g) * self.n_patterns + int(p)

    def children(self, answers: np.ndarray, rows: np.ndarray, g: int, path: Path) -> list[Child]:
        """Return (reply, answers, allowed rows, moves) per bucket of ``answers`` under ``g``."""
        replies = self.codes[g, answers]
        out = []
        for p in np.unique(replies):
            bucket = answers[replies == p]
            allowed = self.hard_filter(rows, g, int(p)) if self.mode == "hard" else rows
            out.append((int(p), bucket, allowed, (*path, self.move(g, p))))
        return out


DRIVER_MIN_ANSWERS = 256
"""Sets of at least this many answers are searched here, guess by guess with first-pass bounds;
smaller ones by the compiled search (against a cutoff, its own scan is as cheap)."""

FIRST_PASS_MIN_ANSWERS = 128
"""First guesses over at least this many answers get first-pass bounds (``gpusolve.search.bounds``)
before any search, and sets this large with no cutoff known yet (the buckets of a start word whose
exact total is wanted) are searched here too: without a cutoff the compiled search orders its
guesses by their size bounds alone and searches the first ones in full (RESUS's bucket of 216:
13,731 nodes in 6.2 s there, 681 in 1.1 s here)."""

FACTS_MIN_ANSWERS = 300
"""Sets of at least this many answers are first-passed with letter facts (``kernels.bounds_cpu.Facts``:
the same bounds, most guesses of a large bucket skipped unscanned). Filling them costs about as
much as a smaller set's first passes save: JUJUS's bucket of 1,349 took 13.6 CPU s instead of 36,
HOWDY's of 833 4.8 instead of 8.5, one of 237 0.21 instead of 0.11."""

SCREEN_RATE = 0.5
"""In hard mode (on the CPU) a batch of first guesses is screened by the normal-mode first pass
(``screened_hard_pass``) once at least this share of the last batch was refuted by first-pass bound
(0: every batch with a cutoff, the tests'). Never changes a result. The share grows along the batches (by
size bound): against its final cutoff, PLASM's set of 745 answers after ``.....`` on ``nyt-2023-07``
has 23% of the first batch refuted by the normal pass, 70% of the second, 86-100% of each later one;
SCALE's 152 (A and E yellow) under 20% of its first 20 batches (there the screen would cost more)."""

FIRST_PASS_BATCH = 64
"""First guesses whose first-pass bounds are computed at once (one per core), against the
best total known when the batch starts."""


WINDOW = 8
"""In hard mode, against a cutoff, a guess's buckets searched in the worker threads are searched in
rounds: each still open against at most its bound plus the window (doubled each round), never more
than the gap the cutoff leaves. A bucket's proof costs grow steeply with its window (CUBIC's set of
1,222 after ``.....`` on ``nyt-2023-07``: PREST's bucket of 161 proven 8 or 16 above its first-pass
bound in 20-60 ms, 108 above, the whole gap, in 3.2 s), and most guesses are refuted by several
buckets each a little above its bound."""

NO_CUTOFF = INF >> 1
"""A set of ``DRIVER_MIN_ANSWERS`` or more searched with a cutoff at least this (``INF`` less the
bounds of other buckets: none known yet) first gets one from its greedy tree
(``_Search.greedy_total``; smaller ones need none, and its kernels would add a second to a first
run's compile, ``tests/test_first_run.py``): half of ``INF``,
so that no cutoff made of a real total (far below) reaches it, and ``INF`` less any bounds does."""


def _driven(n: int, bound: int) -> bool:
    """Return whether a set of ``n`` answers searched against ``bound`` is searched by the driver
    (``DRIVER_MIN_ANSWERS``; ``FIRST_PASS_MIN_ANSWERS`` where no cutoff is known yet)."""
    return n >= (FIRST_PASS_MIN_ANSWERS if bound >= NO_CUTOFF else DRIVER_MIN_ANSWERS)


@dataclass
class _Choice:
    """The guesses settled for one answer set so far (kept when a search is interrupted)."""

    found: list[Alternative] = field(default_factory=list)
    lower: int = INF
    tried: int = 0
    candidates: int = 0
    restricted: bool = False

    exact: list[int] = field(default_factory=list)
    """The exact totals found, in increasing order."""

    def add(self, alternative: Alternative) -> None:
        """Record a settled guess."""
        self.found.append(alternative)
        if alternative.exact:
            bisect.insort(self.exact, alternative.total)
        else:
            self.lower = min(self.lower, alternative.total)

    def bound(self, beta: int, keep: int) -> int:
        """Return the cutoff for the next guess: ``beta``, or the ``keep``-th best exact total."""
        return beta if len(self.exact) < keep else min(beta, self.exact[keep - 1])

    def best(self) -> Alternative | None:
        """Return the best guess with an exact total, if any."""
        return min((a for a in self.found if a.exact), key=lambda a: a.total, default=None)


class _Recall:
    """The memo entries of the sets the driver searches itself, in the first worker's table: found,
    keyed and recorded as the compiled search's own (``look_up_set``, ``settle_set``), so that they
    serve later searches sharing the table and go to run stores with the others."""

    def __init__(self, ctx: _Context, table: MemoTable) -> None:
        self.ctx = ctx
        self.memo = table.memo
        self.params = ctx.params.copy()
        self.moves = new_moves(ctx.max_guesses + 2, ctx.rule_width, ctx.mode == "hard")
        self.stats = np.zeros(N_STATS, np.int64)
        """The memo's hits and stores for these sets (no nodes: the workers count those)."""

    def _at(self, answers: np.ndarray, path: Path) -> np.ndarray:
        """Return ``answers`` as the kernels' one-row set, reached by the moves ``path``."""
        self.params[P_PATH0] = len(path)
        self.moves.path[:len(path)] = path
        return np.ascontiguousarray(answers, np.int32)[None, :]

    def get(self, answers: np.ndarray, depth: int, path: Path, beta: int) -> tuple[int, bool, int]:
        """Return (V if below ``beta``, else a lower bound; whether that decides the set; its best
        guess row or -1) from the memo and the level bound."""
        value, decided, guess = look_up_set(self._at(answers, path), depth, beta, self.params, self.stats,
                                            self.moves, self.ctx.shared, self.memo)
        return int(value), bool(decided), int(guess)

    def put(self, answers: np.ndarray, depth: int, path: Path, value: int, exact: bool, guess: int,
            work: int) -> None:
        """Store a set's exact value (with its best guess row or -1) or lower bound, with its work."""
        settle_set(self._at(answers, path), depth, EXACT if exact else LOWER, value, guess, work, self.params,
                   self.stats, self.moves, self.ctx.shared, self.memo)


class _Search:
    """The driver: large sets (``_driven``) are searched here, guess by guess with first-pass
    bounds; smaller ones by the compiled search in worker threads."""

    def __init__(self, ctx: _Context, workers: int, memo_mb: int, progress: OnProgress | None,
                 known: Entries | None = None, memos: MemoPool | None = None) -> None:
        entries = table_entries(memo_mb, workers, ctx.path_width, ctx.rule_width)
        self.memos = memos or MemoPool()
        tables = self.memos.take(workers, entries, ctx.owner, ctx.path_width, ctx.rule_width)
        self.ctx = ctx
        self.workspaces = [_Workspace(ctx, entries, table) for table in tables]
        if known is not None and len(known):
            self.memos.preload(known, ctx.params, ctx.glet)
        self.free = list(self.workspaces)
        self.lock = threading.Lock()
        self.pool = ThreadPoolExecutor(max_workers=workers)  # even one: the main thread stays free for Ctrl-C
        self.stop = np.zeros(1, np.int64)
        self.stops: list[np.ndarray] = []
        self.first_pass_refuted = 0
        self.solved_by: dict[bytes, _Workspace] = {}
        self.recalls = [_Recall(ctx, w.table) for w in self.workspaces]
        """Each workspace's memo, for look-ups from here (the first also holds the driver's sets)."""
        self.recall = self.recalls[0]
        self.large_sets = 0
        """The large sets searched here (not answered by the memo)."""
        self.killers: dict[int, np.ndarray] = {}
        """Per guesses left, the answers (a mask over the answer columns) of the last bucket found
        with no strategy within them under some guess (hard mode with no cutoff)."""
        self.progress = progress
        self.aside: aside.Aside | None = None
        """The process compiling the search's kernels on a first run (``aside``), until they are needed."""

    @property
    def nodes(self) -> int:
        return sum(w.nodes for w in self.workspaces)

    def compiled(self) -> None:
        """Wait for the search's kernels where another process compiles them; return None."""
        if self.aside is not None:
            self.aside.wait(self.stop)

    @property
    def work(self) -> int:
        """Return the work the workers have done: nodes plus reply cells scanned."""
        return sum(int(w.stats[S_NODES] + w.stats[S_SCANNED]) for w in self.workspaces)

    def counters(self) -> dict:
        """Return the kernel counters summed over the workers."""
        total = sum(w.stats for w in self.workspaces) + sum(r.stats for r in self.recalls)
        names = {"nodes": S_NODES, "memo_hits": S_MEMO_HITS, "memo_stores": S_MEMO_STORES,
                 "scanned": S_SCANNED, "evaluated": S_EVALUATED, "store_hits": S_STORE_HITS}
        out = {name: int(total[i]) for name, i in names.items()}
        out["first_pass_refuted"] = self.first_pass_refuted
        out["large_sets"] = self.large_sets
        depth = sum(w.work.by_depth for w in self.workspaces)
        out["by_depth"] = {d: (int(depth[d, D_NODES]), int(depth[d, D_CELLS]))
                           for d in range(len(depth)) if depth[d, D_NODES]}
        return out

    def _run(self, answers, depth, beta, rows, path, stop, hist) -> tuple[int, int]:
        self.compiled()
        with self.lock:
            ws = self.free.pop()
        try:
            value = ws.solve(answers, depth, beta, rows, path, stop, hist)
            self.solved_by[answers.tobytes()] = ws  # its memo holds the subtree
            return value
        finally:
            with self.lock:
                self.free.append(ws)

    def close(self) -> None:
        self.pool.shutdown(wait=True)

    def interrupt(self) -> None:
        """Stop every compiled search under way (they return at once)."""
        self.stop[0] = 1
        for s in list(self.stops):
            s[0] = 1

    def new_entries(self, keep: int, min_work: int) -> Entries:
        """Return the (at most) ``keep`` entries with the most work the memos gained since their
        last harvest."""
        if keep <= 0:
            return Entries.empty()
        return self.memos.harvest(self.ctx.params, self.ctx.glet).top(keep, min_work)

    def value(self, answers: np.ndarray, depth: int, rows: np.ndarray, path: Path,
              beta: int, hist: History = None) -> tuple[int, int]:
        """Return (V(answers, depth) if below ``beta``, else a bound >= ``beta``; best guess row
        or -1) of a large set: from the memo where it decides, else searched here and stored."""
        self.compiled()
        known, decided, guess = self.recall.get(answers, depth, path, beta)
        if decided:
            return known, guess
        self.large_sets += 1
        work = self.work
        choice = _Choice()
        cut = beta
        if beta >= NO_CUTOFF and len(answers) >= DRIVER_MIN_ANSWERS:
            cut = min(beta, self.greedy_total(answers, depth, rows) + 1)
        self.choose(choice, answers, depth, rows, path, cut, hist=hist, twins=True)
        best = choice.best()
        if best is not None and best.total < cut:
            value, exact, guess = best.total, True, self.ctx.pm.guess_index[best.guess]
        else:
            assert cut == beta, "a greedy tree's total bounds V: the search finds V below it"
            value, exact, guess = min(choice.lower, INF), choice.lower >= INF, -1
        if self.stop[0]:
            raise KeyboardInterrupt
        self.recall.put(answers, depth, path, value, exact, guess, 1 + self.work - work)  # 1: the set itself
        return value, guess

    def greedy_total(self, answers: np.ndarray, depth: int, rows: np.ndarray) -> int:
        """Return the total of the greedy entropy tree over ``answers`` (V is at most it) when it
        finds every one within ``depth`` guesses it may make (normal mode with every guess
        allowed, or consistent mode), else INF: a cutoff where the caller has none."""
        from .greedy import greedy_tree

        pm = self.ctx.pm
        if self.ctx.mode == "hard" or (self.ctx.mode == "normal" and len(rows) < pm.shape[0]):
            return INF
        found = [k for _, k in scores(greedy_tree(pm, "entropy", self.ctx.mode, answers=answers))]
        return sum(found) if max(found) <= depth else INF

    def choose(self, choice: _Choice, answers: np.ndarray, depth: int, rows: np.ndarray,
               path: Path, beta: int, cand: np.ndarray | None = None, keep: int = 1,
               limit: int | None = None, report: OnProgress | None = None,
               hist: History = None, known: dict[int, np.ndarray] | None = None, twins: bool = False) -> None:
        """Settle the guesses ``cand`` (default: all the set allows) of ``answers`` into
        ``choice``: the ``keep`` best exactly where below ``beta``, the others by a proven bound.
        After the guess rows ``hist`` only one guess per class under the symmetries fixing
        them is tried (``choice.candidates`` counts the classes).

        Guesses are taken by increasing size bound (``limit``: only that many); over large
        sets, batches of them get first-pass bounds first (all at once where the GPU computes
        them), raised to ``known[g]`` (proven bounds of guess row g's buckets over ``answers``,
        such as second-pass bounds), and those refuted by them are settled without a search. With
        ``twins`` (the driver's sets; Wordle's hard mode, one kept) a guess whose rule twin
        (``_Context.twin_key``) was searched takes its cost unsearched."""
        ctx, pm = self.ctx, self.ctx.pm
        n = len(answers)
        own = ctx.answer_rows[answers]
        guessers = own if ctx.mode == "consistent" else rows
        full = whole_table(pm) if pm.covers(answers, guessers) else guess_table(pm, answers, guessers)
        if cand is None:
            cand = guessers
        table = full if cand is guessers else guess_table(pm, answers, cand)
        useful = (table[:, 0] > 1) | (table[:, 1] == 1) | (n == 1)
        if len(cand) > 1:
            cand, table = cand[useful], table[useful]
        if hist is not None and ctx.symmetric and len(cand) > 1:
            per_class = np.isin(cand, ctx.classes(hist, cand))
            cand, table = cand[per_class], table[per_class]
        most = int((full[:, 0] + full[:, 1]).max())
        bounds = size_bound(pm, answers, cand, most, depth - 1)
        if n == 1:  # exact: the answer itself wins now, any other guess one turn later
            bounds = np.where(cand == own[0], 1, min(1 + closed_form(1, depth - 1), INF)).astype(np.int64)
        elif depth == 1:  # exact: no guess finds two answers at once
            bounds = np.full(len(cand), closed_form(n, depth), np.int64)
        order = np.argsort(sort_keys(bounds, np.ascontiguousarray(table[:, 2])), kind="stable")
        choice.restricted = limit is not None and limit < len(order)
        if limit is not None:
            order = order[:limit]
        choice.candidates = len(order)
        # first-pass bounds refute guesses and give their buckets limits against a cutoff: a guess alone
        # with none (a given start word's exact total) has nothing to refute, and its buckets no limit
        # (their bounds under NO_CUTOFF change no search): a whole-set scan of every guess saved
        wanted = len(order) > 1 or beta < NO_CUTOFF
        caps = guess_caps(full) if n >= FIRST_PASS_MIN_ANSWERS and depth >= 2 and wanted else None
        kept = None
        batch = FIRST_PASS_BATCH if caps is not None and len(order) > 1 else 1
        if caps is not None and on_gpu(pm, n, len(order), cutoff=None if beta >= NO_CUTOFF else beta):
            batch = len(order)
        elif caps is not None:
            kept = answerers(pm, answers, guessers, caps, ctx.mode == "consistent",
                             facts=ctx.mode != "consistent" and n >= FACTS_MIN_ANSWERS)
        twinned = twins and keep == 1 and ctx.mode == "hard" and pm.game.kind == WORDLE
        costs: dict[bytes, tuple[int, bool]] = {}
        """Where ``twinned``: the cost found of each class of rule twins searched (``twin_key``), the
        cost of the others of its class (a bound stays a bound: the cutoff only falls)."""
        screen = SCREEN_RATE <= 0 and ctx.mode == "hard" and kept is not None and beta < NO_CUTOFF
        """Whether the next batch gets hard mode's screened first pass (``screened_hard_pass``): where
        most of the last batch's start words were refuted (its cost is paid back there only)."""

        def settle(g: int, value: int, exact: bool, bound: int) -> None:
            choice.tried += 1
            choice.add(Alternative(pm.guesses[g], int(value), bool(exact and value < bound)))
            if report:
                report(Progress("first guesses", choice.tried, len(order),
                                f"best {choice.exact[0]:,}" if choice.exact else "", self.nodes))

        pos = 0
        while pos < len(order):
            bound = choice.bound(beta, keep)
            if bounds[order[pos]] >= bound:
                choice.lower = min(choice.lower, int(bounds[order[pos]]))
                return
            chunk = [int(i) for i in order[pos:pos + batch] if bounds[i] < bound]
            pos += batch
            first = None
            if caps is not None and chunk and screen:
                first = screened_hard_pass(pm, answers, cand[chunk], guessers, caps, depth - 1, bound, kept,
                                           stop=self.stop)
            elif caps is not None and chunk:
                first = first_pass(pm, answers, cand[chunk], guessers, caps, depth - 1,
                                   members_only=ctx.mode == "consistent", cutoff=bound, kept=kept,
                                   hard=ctx.mode == "hard", stop=self.stop)
            if first is not None:
                for j, i in enumerate(chunk):
                    if known is not None and int(cand[i]) in known:
                        first.raise_to(j, known[int(cand[i])], n)
            for j in (np.argsort(first.totals, kind="stable") if first is not None else range(len(chunk))):
                if self.stop[0]:
                    raise KeyboardInterrupt
                g = int(cand[chunk[j]])
                bound = choice.bound(beta, keep)
                if first is not None and first.totals[j] >= bound:
                    self.first_pass_refuted += 1
                    settle(g, int(first.totals[j]), False, bound)
                    continue
                if depth == 1 or n == 1:
                    value, exact = int(bounds[chunk[j]]), True
                elif twinned and (key := ctx.twin_key(answers, g)) in costs:
                    value, exact = costs[key]
                else:
                    value, exact = self.evaluate(answers, depth, rows, path, g, bound,
                                                 None if first is None else first.buckets[j],
                                                 report=report is not None,
                                                 hist=None if hist is None else (*hist, g))
                    if twinned:
                        costs[key] = value, exact
                settle(g, value, exact, bound)
            if first is not None and ctx.mode == "hard" and kept is not None:
                bound = choice.bound(beta, keep)
                screen = bound < NO_CUTOFF and int((first.totals >= bound).sum()) >= SCREEN_RATE * len(chunk)

    def _killed(self, bucket: np.ndarray, left: int) -> None:
        """Remember ``bucket``, found with no strategy within ``left`` guesses, as the killer there."""
        mask = np.zeros(self.ctx.codes.shape[1], bool)
        mask[bucket] = True
        self.killers[left] = mask

    def _killer_first(self, todo: list[int], kids: list, left: int) -> None:
        """Move to the front of ``todo`` the bucket holding most answers of the last bucket found with
        no strategy within ``left`` guesses (``killers``), where one holds any: in hard mode a trap
        (answers sharing most letters, e.g. ?A?ED words) recurs across the guesses of a set. Only the
        order in which the buckets are searched changes, never a value: with no cutoff every bucket
        is searched whole, or the guess is refuted by the first one with no strategy."""
        mask = self.killers.get(left)
        if mask is None or not todo:
            return
        held = [int(mask[kids[i][1]].sum()) for i in todo]
        j = int(np.argmax(held))
        if held[j] > 0:
            todo.insert(0, todo.pop(j))

    def evaluate(self, answers: np.ndarray, depth: int, rows: np.ndarray, path: Path, g: int,
                 bound: int, bucket_bounds: np.ndarray | None = None,
                 report: bool = False, hist: History = None) -> tuple[int, bool]:
        """Return (cost of guess ``g``, exact?): exact when below ``bound``, else a bound >= it;
        ``hist`` ends with ``g``.

        ``bucket_bounds[p]``: a proven lower bound on the bucket of reply ``p`` (first pass).
        Large buckets are searched here (largest first), the others in the worker threads."""
        n = len(answers)
        kids = [k for k in self.ctx.children(answers, rows, g, path) if k[0] != self.ctx.solved]
        kids.sort(key=lambda k: -len(k[1]))
        known: dict[int, int] = {}
        lbs = {}
        for i, (p, bucket, _, _) in enumerate(kids):
            m = len(bucket)
            if m <= 2:
                known[i] = closed_form(m, depth - 1)
            lbs[i] = bucket_floor(m, depth - 1, self.ctx.branches)
            if bucket_bounds is not None:
                lbs[i] = max(lbs[i], int(bucket_bounds[p]))
        if depth - 1 < 1:
            return INF, True

        def current() -> int:
            return n + sum(known.get(i, lbs[i]) for i in range(len(kids)))

        def done(i: int, v: int) -> None:
            known[i] = max(v, lbs[i])
            if report and self.progress:
                self.progress(Progress("buckets", len(known), len(kids), nodes=self.nodes))

        if current() >= bound:
            return current(), False
        # The largest buckets go first: against a cutoff their values tighten the others' limits, and
        # in normal mode a bucket with no strategy within the limit is most often a large one. In hard
        # mode with no cutoff, where every bucket is searched whole in any order, the smallest go first
        # (the worker threads' before the driver's): there such buckets are most often small (traps:
        # answers sharing most letters, which the rule keeps guessing), and the first one found stops
        # g before the large buckets' costly exact values (REWED on nyt-2023-07: 120 CPU-s to 0.7)
        todo = [i for i in range(len(kids)) if i not in known]
        killing = bound >= NO_CUTOFF and self.ctx.mode == "hard"
        if killing:
            todo.reverse()
            self._killer_first(todo, kids, depth - 1)
        window = WINDOW if bound < NO_CUTOFF and self.ctx.mode == "hard" else INF
        large = [i for i in todo if _driven(len(kids[i][1]), bound)]
        small = [i for i in todo if i not in large]

        def in_driver() -> bool:  # the large buckets, here; return whether one refuted g
            for i in large:
                _, bucket, allowed, kpath = kids[i]
                limit = bound - (current() - lbs[i])
                v, _ = self.value(bucket, depth - 1, allowed, kpath, limit, hist)
                done(i, v)
                if killing and v >= INF:
                    self._killed(bucket, depth - 1)
                if v >= limit or current() >= bound:
                    return True
            return False

        def in_workers() -> bool:  # the small buckets, in the worker threads; the same
            step = window
            todo = list(small)
            stop = np.zeros(1, np.int64)
            self.stops.append(stop)
            running: dict = {}
            try:
                while todo or running:
                    while todo and len(running) < len(self.workspaces):
                        i = todo.pop(0)
                        _, bucket, allowed, kpath = kids[i]
                        limit = min(bound - (current() - lbs[i]), lbs[i] + step)
                        running[i] = (self.pool.submit(self._run, bucket, depth - 1, limit, allowed, kpath,
                                                       stop, hist), limit)
                    futs = {r[0]: i for i, r in running.items()}
                    finished, _ = wait(list(futs), return_when=FIRST_COMPLETED)
                    for fut in finished:
                        i = futs[fut]
                        limit = running.pop(i)[1]
                        v, _ = fut.result()
                        if self.stop[0]:
                            raise KeyboardInterrupt
                        if v < limit:
                            done(i, v)
                        else:  # a bound >= limit: it refutes g where limit was the whole gap left
                            lbs[i] = v
                            if killing and v >= INF:
                                self._killed(kids[i][1], depth - 1)
                    if current() >= bound:
                        return True
                    if not todo and not running:  # the next round: the buckets still open, twice the window
                        todo = [i for i in small if i not in known]
                        step *= 2
            finally:
                stop[0] = 1
                for fut, _ in running.values():
                    fut.result()
                self.stops.remove(stop)
            return False

        for phase in (in_driver, in_workers) if bound < NO_CUTOFF else (in_workers, in_driver):
            if phase():
                return current(), False
        return current(), True

    def settle_at_once(self, choice: _Choice, answers: np.ndarray, depth: int, rows: np.ndarray,
                       path: Path, hist: History = None) -> None:
        """Settle the best guess of a set too small for the driver (``_driven``) into ``choice``:
        one call of the compiled search over it, in a worker thread (the main thread stays free
        for Ctrl-C). The same value as ``choose`` settles, without its Python work per guess
        (SALET ...G., 107 answers: 0.6 s against 8 s)."""
        value, guess = self.pool.submit(self._run, answers, depth, INF, rows, path, self.stop, hist).result()
        if self.stop[0]:
            raise KeyboardInterrupt
        choice.tried = choice.candidates = 1
        if value < INF and guess >= 0:
            choice.add(Alternative(self.ctx.pm.guesses[guess], value, True))

    def best_guess(self, answers: np.ndarray, depth: int, rows: np.ndarray, path: Path,
                   ws: _Workspace | None, hist: History = None) -> tuple[int, int, _Workspace | None]:
        """Return (V, its best guess row, the workspace whose memo holds the subtree) of a set."""
        self.compiled()
        ws = ws or self.solved_by.get(answers.astype(np.int32).tobytes())
        if ws is None and _driven(len(answers), INF) and depth >= 2:  # a set the driver searched
            value, guess = self.value(answers, depth, rows, path, INF, hist)
            return value, guess, None
        ws = ws or self.workspaces[0]
        if len(answers) <= 2:  # the closed forms, the first answer guessed first (as the kernel's ``_few``)
            return int(closed_form(len(answers), depth)), int(self.ctx.answer_rows[answers[0]]), ws
        value, decided, guess = self.recalls[self.workspaces.index(ws)].get(answers, depth, path, INF)
        if not (decided and guess >= 0):  # not in its memo (a small set, or its entry replaced): searched
            value, guess = ws.solve(answers, depth, INF, rows, path, self.stop, hist)
        return value, guess, ws


def _shared_kernels() -> None:
    """Compile the kernels that both the search and the first pass call (``aside``); return None."""
    from ..kernels.bounds_cpu import level_bound

    closed_form(1, 1)
    bucket_floor(3, 2, 2)  # and level_bound with roots 1
    level_bound(3, 2, 2, 2)


def _warm(ctx: _Context) -> None:
    """Compile the search's kernels (``aside``): a search of three answers, its look-up and settle."""
    answers = np.arange(min(3, ctx.codes.shape[1]), dtype=np.int32)
    rows = ctx.answer_rows[answers]
    ws = _Workspace(ctx, 64)
    ws.solve(answers, 2, INF, rows, (), np.zeros(1, np.int64))
    recall = _Recall(ctx, ws.table)
    recall.get(answers, 2, (), INF)
    recall.put(answers, 2, (), 5, True, int(rows[0]), 1)


def _first_pass_kernels(ctx: _Context, rows: np.ndarray) -> None:
    """Compile the first pass's kernels here while the search's compile aside (``aside``): a first
    pass of one guess over 64 answers (its buckets' scores remembered too)."""
    answers = np.arange(min(64, ctx.codes.shape[1]), dtype=np.int32)
    guessers = ctx.answer_rows[answers] if ctx.mode == "consistent" else rows
    caps = guess_caps(guess_table(ctx.pm, answers, guessers))
    first_pass(ctx.pm, answers, guessers[:1], guessers, caps, 2, members_only=ctx.mode == "consistent",
               hard=ctx.mode == "hard")


def _tree(search: _Search, answers: np.ndarray, depth: int, rows: np.ndarray, path: Path,
          guess: int | None = None, ws: _Workspace | None = None, hist: History = None) -> tuple[Tree, int]:
    """Return (the optimal subtree for ``answers``, the set the guess rows ``hist`` leave, and
    its total), guess fixed when given."""
    ctx = search.ctx
    pm = ctx.pm
    n = len(answers)
    if guess is None:
        if n == 1:
            return pm.answers[answers[0]], 1
        value, guess, ws = search.best_guess(answers, depth, rows, path, ws, hist)
        if value >= INF or guess < 0:
            raise GpusolveError("internal error: no strategy for a subtree of the optimal tree")
    node = Node(pm.guesses[guess], n)
    total = n
    for p, bucket, allowed, kpath in ctx.children(answers, rows, guess, path):
        if p == ctx.solved:
            node.branches[p] = pm.guesses[guess]
            continue
        sub, t = _tree(search, bucket, depth - 1, allowed, kpath, ws=ws,
                       hist=None if hist is None else (*hist, guess))
        node.branches[p] = sub
        total += t
    return node, total


@dataclass(frozen=True)
class Question:
    """What a search is asked: the position, the rules and what is wanted of them. Everything
    here can change the answer."""

    start: Word | None = None
    """The first guess, given (None: chosen, over every allowed guess or ``candidates``)."""
    moves: tuple[tuple[Word, int], ...] = ()
    """A mid-game position: the (guess, reply code) pairs played so far."""
    answers: tuple[int, ...] | None = None
    """Answer columns the position is restricted to (None: all the moves leave)."""
    mode: str = "normal"
    max_guesses: int = 6
    cutoff: int | None = None
    """Only whether the total is below it matters (a result ``>= cutoff`` is all that is said)."""
    candidates: int | None = None
    """Choose among the N guesses with the best size bounds only (None: every one)."""
    alternatives: int = 0
    """Also prove the values of the K next-best guesses."""
    tree: bool = True
    """Build the tree of the best strategy (False: its value only)."""


@dataclass
class Options:
    """How a search runs: memory, threads, kernel tuning, reuse of earlier work, progress and
    interruption. Nothing here changes an answer."""

    memo_mb: int = DEFAULT_MEMO_MB
    """Memo size (MiB, all workers together)."""
    workers: int | None = None
    """Worker threads sharing the buckets (default: 2, or the cores if fewer)."""
    vector_max: int | None = None
    """Largest set the kernel scans pairwise (``kernels.optimal_cpu.VECTOR_MAX``; 0: never)."""
    known: Entries | None = None
    """Subproblem entries of a run over the same game, lists and mode, put in the memo first."""
    keep_subproblems: int = 0
    """Return the N new memo entries with the most work (at least ``min_work``) in
    ``result.subproblems`` (``gpusolve.search.memo.Entries``)."""
    min_work: int = 0
    memos: MemoPool | None = None
    """The caller's memo tables, so that successive searches share their memo (a search that
    does not fit them replaces them in the pool; None: tables of this search only)."""
    progress: OnProgress | None = None
    """Hears of the first guesses settled and the buckets of the best one searched."""
    seconds: float | None = None
    """A time limit: past it the search stops as on Ctrl-C (the best so far, not proven)."""
    budget: Budget | None = None
    """A stop shared with other searches: once stopped from elsewhere (``Budget.interrupt``)
    this search returns ``interrupted``, without a tree."""
    at_once: bool = False
    """Settle the best guess alone of a set under ``FIRST_PASS_MIN_ANSWERS`` answers (no start,
    alternatives, cutoff, candidate limit or bucket bounds) by one call of the compiled search
    (``_Search.settle_at_once``): the same value, much faster, but its guess among equals may be
    another (the kernel's order), and no progress is heard (the assistant's searches use it)."""
    symmetry: bool = True
    """Use the game's symmetries where its lists allow (``gpusolve.core.symmetry``): one guess
    per class under the symmetries fixing the history (False: try every guess; the same values)."""
    bucket_bounds: dict[int, np.ndarray] | None = None
    """Proven lower bounds on the buckets of some first guesses over the question's answers
    (guess row -> a bound per reply, e.g. ``search.bounds.second_pass``'s), used beside the first
    pass's: tighter limits for the buckets' searches, and a refutation where they sum past the
    cutoff."""


def solve(pm: PatternMatrix, question: Question = Question(), options: Options | None = None,
          ) -> OptimalResult:
    """Return the optimal tree of ``question`` (least total guesses, every answer within its
    ``max_guesses``), searched as ``options`` say.

    Without a ``start`` the guesses are tried by increasing size bound, over large sets after
    first-pass bounds, with the best total so far as the cutoff; a result ``interrupted`` by
    Ctrl-C, the time limit or ``options.budget`` holds the best found so far, not proven best.
    """
    q, o = question, options or Options()
    mode = check_mode(q.mode)
    moves = list(q.moves)
    max_guesses, cutoff, candidates = q.max_guesses, q.cutoff, q.candidates
    if max_guesses < 1:
        raise GpusolveError(f"--max-guesses must be at least 1 (got {max_guesses})")
    depth = max_guesses - len(moves)
    if depth < 1:
        raise GpusolveError(f"{len(moves)} moves played: no guesses left within {max_guesses}")
    if candidates is not None and candidates < 1:
        raise GpusolveError("--candidates must be at least 1")
    started = time.perf_counter()
    alive = remaining_answers(pm, moves) if q.answers is None else np.asarray(q.answers, np.int32)
    if q.answers is not None and moves:
        alive = np.intersect1d(alive, remaining_answers(pm, moves)).astype(np.int32)
    if not len(alive):
        raise GpusolveError("no answers to solve")
    alive = np.sort(alive).astype(np.int32)
    n = len(alive)
    # n guesses always suffice (a useful guess leaves fewer; a given start may be useless): a deeper
    # limit is moot
    depth = min(depth, n + (q.start is not None))
    ctx = _Context(pm, mode, len(moves) + depth, o.vector_max, o.symmetry,
                   root=None if q.answers is None else alive)
    # the symmetries fixing the moves keep the set they leave (not a set restricted beyond it)
    hist = tuple(pm.guess_index[w] for w, _ in moves) if q.answers is None else None
    rows = np.arange(pm.shape[0], dtype=np.int32)
    if mode == "hard":
        for word, code in moves:
            rows = ctx.hard_filter(rows, pm.guess_index[word], code)
    elif mode == "consistent":
        rows = ctx.answer_rows[alive].copy()
    workers = o.workers or max(1, min(2, os.cpu_count() or 1))
    cand = None
    if q.start is not None:
        word = pm.game.parse_word(q.start, pm.guess_index)
        g0 = pm.guess_index[word]
        if g0 not in set(rows.tolist()):
            raise GpusolveError(f"{word} is not an allowed guess here in {mode} mode")
        cand = np.array([g0], np.int32)
    compiling = aside.start(look_up_set, _shared_kernels, lambda: _warm(ctx))
    if compiling is not None and n >= FIRST_PASS_MIN_ANSWERS and depth >= 2:  # the first passes' to come
        _first_pass_kernels(ctx, rows)
    search = _Search(ctx, workers, o.memo_mb, o.progress, o.known, o.memos)
    search.aside = compiling
    budget = o.budget or Budget(None, o.seconds)
    search.stop = budget.flag[1:]  # the compiled searches poll it
    path = tuple(ctx.move(pm.guess_index[w], code) for w, code in moves)
    goal = INF if cutoff is None else int(cutoff)
    keep = 1 + max(0, q.alternatives)
    choice = _Choice()
    at_once = (o.at_once and cand is None and keep == 1 and candidates is None and cutoff is None
               and o.bucket_bounds is None and n >= 3 and not _driven(n, INF))
    interrupted = False
    try:  # Ctrl-C and the time limit stop the kernels: no exception in a wait
        with budget.guard(), budget.listening(search.interrupt):
            if at_once:
                search.settle_at_once(choice, alive, depth, rows, path, hist)
            else:
                search.choose(choice, alive, depth, rows, path, goal, cand=cand, keep=keep,
                              limit=None if q.start is not None else candidates, report=o.progress,
                              hist=hist, known=o.bucket_bounds)
    except KeyboardInterrupt:
        search.interrupt()
        interrupted = True
    build_tree = q.tree
    if o.budget is None:
        interrupted = interrupted or budget.stopped
        budget.resume()
    elif budget.stopped:
        interrupted, build_tree = True, False

    found = choice.found
    exact_found = sorted((a for a in found if a.exact), key=lambda a: a.total)
    result = OptimalResult(None, None, None, None, {}, False, search.nodes, 0.0, None,
                           n_answers=n, candidates=choice.candidates, tried=choice.tried,
                           restricted=choice.restricted, interrupted=interrupted)
    ranked = exact_found + sorted((a for a in found if not a.exact), key=lambda a: a.total)
    result.alternatives = ranked[: keep + 4]
    if exact_found and exact_found[0].total < INF:
        best = exact_found[0]
        result.first_guess = best.guess
        result.total = best.total
        result.proven = not interrupted
        result.mean = best.total / n
        if build_tree:
            tree, total = _tree(search, alive, depth, rows, path, pm.guess_index[best.guess],
                                ws=search.solved_by.get(alive.tobytes()), hist=hist)  # at once: its memo
            if total != best.total:
                raise GpusolveError(f"internal error: tree total {total} != value {best.total}")
            s = summarize(tree)
            offset = len(moves)
            result.tree = tree
            result.histogram = {k + offset: v for k, v in s.histogram.items()}
            result.worst = s.worst + offset
    elif not interrupted:
        if cutoff is not None and choice.lower >= goal and (choice.lower < INF or not found):
            result.below_cutoff = False
            result.proven = True
        else:
            search.close()
            raise Infeasible(f"no strategy finds every answer within {max_guesses} guesses")
    result.nodes = search.nodes
    result.counters = search.counters()
    if not interrupted:
        result.subproblems = search.new_entries(o.keep_subproblems, o.min_work)
    result.seconds = time.perf_counter() - started
    search.close()
    return result


__all__ = ["Alternative", "OptimalResult", "Options", "Question", "solve"]
