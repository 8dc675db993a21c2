"""Exact, depth-limited optimal guess trees: the least total number of guesses, proven.

The compiled search (``kernels/optimal_cpu.py``) computes the value of one answer set; this
module drives the top level: the first guess (given, or tried in order of a cheap bound with
a cutoff), the buckets under it in parallel worker threads (the kernels release the GIL;
each worker has its own memo), progress, Ctrl-C, and the tree of the optimal strategy.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

import numpy as np

from ..core.errors import GpusolveError
from ..core.games import WORDLE
from ..core.history import remaining_answers
from ..core.interrupt import StopOnInterrupt
from ..core.modes import check_mode
from ..core.patterns import PatternMatrix
from ..core.trees import Node, Tree, summarize
from ..core.words import Word
from ..runs.subproblems import Entries

OBJECTIVES = ("total",)
"""Objectives the search minimizes; ``total`` = guesses summed over the answers. A minimax
(worst-case) objective plugs in here: its own closed forms and bucket bound in the kernel."""

DEFAULT_MEMO_MB = 512
"""Memo size (MiB, all workers together); each entry takes 41 bytes."""

MEMO_ENTRY_BYTES = 41

Child = tuple[int, np.ndarray, np.ndarray, tuple[int, int]]
"""A bucket under a guess: (reply, answer columns, allowed guess rows, hard-mode list hash)."""
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


def _table_size(entries: int) -> int:
    """Return the memo slots used for a budget of ``entries``: a power of two, at least 16."""
    return max(16, 1 << max(4, entries.bit_length() - 1))


class MemoTable:
    """One worker thread's memo for the compiled search: kept across searches over the same
    game, lists and mode (``owner``), so that a later search starts with what earlier ones found."""

    def __init__(self, entries: int, owner: tuple) -> None:
        entries = _table_size(entries)
        self.owner = owner
        self.mask = entries - 1
        self.mk1 = np.zeros(entries, np.uint64)
        self.mk2 = np.zeros(entries, np.uint64)
        self.mval = np.zeros(entries, np.int64)
        self.mguess = np.zeros(entries, np.int32)
        self.mflag = np.zeros(entries, np.int8)
        self.msize = np.zeros(entries, np.int32)
        self.mwork = np.zeros(entries, np.int64)  # negative: known before (preloaded or harvested)

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.mk1, self.mk2, self.mval, self.mguess, self.mflag, self.msize, self.mwork

    def preload(self, known: Entries) -> None:
        """Put known subproblem entries (from a run store) in the memo."""
        from ..kernels.optimal_cpu import N_STATS, memo_preload

        if len(known):
            memo_preload(*self.arrays, self.mask, known.k1, known.k2, known.value, known.exact,
                         known.guess, known.size, known.work, np.zeros(N_STATS, np.int64))

    def harvest(self) -> Entries:
        """Return the entries computed since the last harvest; from now on they count as known."""
        from ..kernels.optimal_cpu import EXACT, memo_harvest

        i = memo_harvest(self.mflag, self.mwork)
        return Entries(self.mk1[i], self.mk2[i], self.mval[i], self.mflag[i] == EXACT, self.mguess[i],
                       self.msize[i], -self.mwork[i] - 1)


class _Workspace:
    """One worker's scratch arrays and memo for the compiled search."""

    def __init__(self, ctx: _Context, memo_entries: int, memo: MemoTable | None = None) -> None:
        from ..kernels.optimal_cpu import N_STATS, P_MEMO_MASK, SCRATCH

        g, a = ctx.codes.shape
        npat = ctx.n_patterns
        levels = ctx.max_guesses + 2
        table = 1 << max(4, int(2 * g - 1).bit_length())
        self.levels = levels
        self.cmat = np.empty((levels, 0), np.uint8)  # grown on demand (pages touched as used)
        self.cmatT = np.empty((levels, 0, g), np.uint8)
        self.veq = np.zeros(g, np.uint8)
        self.vpairs = np.zeros(g, np.uint16)
        self.vfirst = np.zeros(g, np.uint16)
        self.vhash = np.zeros(g, np.uint32)
        self.tmpT = np.empty((0, g), np.uint8)
        self.ident = np.arange(a, dtype=np.int32)
        self.stride = np.zeros(levels, np.int64)
        self.cols = np.zeros((levels, a), np.int32)
        self.glob = np.zeros((levels, a), np.int32)
        self.arow = np.zeros((levels, a), np.int32)
        self.tarow = np.zeros((levels, a), np.int32)
        self.rowg = np.zeros((levels, g), np.int32)
        self.cand = np.zeros((levels, g), np.int32)
        self.ncand = np.zeros(levels, np.int64)
        self.lbs = np.zeros((levels, g), np.int64)
        self.keys = np.zeros((levels, g), np.int64)
        self.mark = np.zeros(npat, np.int64)
        self.cnt = np.zeros(npat, np.int64)
        self.inset = np.zeros(g, np.int64)
        self.inpos = np.zeros(g, np.int32)
        self.dd_stamp = np.zeros(table, np.int64)
        self.dd_idx = np.zeros(table, np.int32)
        self.hv = np.zeros(g, np.uint64)
        self.bcode = np.zeros((levels, npat), np.int64)
        self.bstart = np.zeros((levels, npat), np.int64)
        self.bsize = np.zeros((levels, npat), np.int64)
        self.blb = np.zeros((levels, npat), np.int64)
        self.scratch = np.zeros(max(SCRATCH, 64), np.int64)
        self.table = memo or MemoTable(memo_entries, ctx.owner)
        self.stats = np.zeros(N_STATS, np.int64)
        self.params = ctx.params.copy()
        self.params[P_MEMO_MASK] = self.table.mask
        self.ctx = ctx

    def solve(self, answers: np.ndarray, depth: int, beta: int, guesses: np.ndarray,
              ah: tuple[int, int], stop: np.ndarray) -> tuple[int, int]:
        """Return (value or lower bound >= beta, best guess row or -1) for one answer set."""
        from ..kernels.optimal_cpu import S_BEST, solve_set

        c = self.ctx
        need = len(guesses) * len(answers)
        if self.cmat.shape[1] < need:
            self.cmat = np.empty((self.levels, need), np.uint8)
        if self.cmatT.shape[1] < len(answers):
            self.cmatT = np.empty((self.levels, len(answers), self.rowg.shape[1]), np.uint8)
            self.tmpT = np.empty((len(answers), self.rowg.shape[1]), np.uint8)
        value = solve_set(
            answers.astype(np.int32), depth, beta, guesses.astype(np.int32),
            np.uint64(ah[0]), np.uint64(ah[1]),
            self.params, c.codes, c.answer_rows, c.zob1, c.zob2, c.zg1, c.zg2, c.glet, c.gcnt, c.glet,
            self.cmat, self.cmatT, self.stride, self.cols, self.glob, self.arow, self.tarow,
            self.rowg, self.cand, self.ncand, self.lbs, self.keys, self.mark, self.cnt, self.inset,
            self.inpos, self.dd_stamp, self.dd_idx, self.hv, self.veq, self.vpairs, self.vfirst,
            self.vhash, c.zob32, self.tmpT, self.ident, self.bcode, self.bstart, self.bsize, self.blb,
            self.scratch, *self.table.arrays, self.stats, stop,
        )
        if value < 0:
            raise GpusolveError("internal error: an answer is not among the allowed guesses")
        return int(value), int(self.stats[S_BEST])

    @property
    def nodes(self) -> int:
        """Return the nodes this workspace has searched."""
        from ..kernels.optimal_cpu import S_NODES

        return int(self.stats[S_NODES])


def workspace_bytes(g: int, a: int, n_patterns: int, levels: int) -> int:
    """Return the most memory one worker's ``_Workspace`` can take for ``g`` guesses, ``a``
    answers and ``levels`` levels (its reply matrices grown to the whole answer set)."""
    per_level = 2 * a * g + a * 16 + g * 28 + n_patterns * 32
    return levels * per_level + g * 40 + 12 * (1 << max(4, int(2 * g - 1).bit_length()))


class _Context:
    """The arrays every workspace shares: matrix, hashes, mode parameters."""

    def __init__(self, pm: PatternMatrix, mode: str, max_guesses: int, vector_max: int | None = None) -> None:
        from ..kernels.optimal_cpu import (
            N_PARAMS,
            P_COLOURS,
            P_KIND,
            P_LENGTH,
            P_MODE,
            P_NPAT,
            P_SOLVED,
            P_VECTOR_MAX,
            VECTOR_MAX,
        )

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
        g, a = self.codes.shape
        bits = np.iinfo(np.uint64).max
        self.zob1 = rng.integers(0, bits, a, dtype=np.uint64, endpoint=True)
        self.zob2 = rng.integers(0, bits, a, dtype=np.uint64, endpoint=True)
        self.zob32 = (self.zob1 >> np.uint64(32)).astype(np.uint32) | np.uint32(1)
        self.zg1 = rng.integers(0, bits, g, dtype=np.uint64, endpoint=True)
        self.zg2 = rng.integers(0, bits, g, dtype=np.uint64, endpoint=True)
        self.glet = game.encode(pm.guesses)
        self.gcnt = np.zeros((g, max(game.colours, 1)), np.uint8)
        for k in range(game.length):
            np.add.at(self.gcnt, (np.arange(g), self.glet[:, k]), 1)
        self.params = np.zeros(N_PARAMS, np.int64)
        self.params[P_MODE] = MODE_IDS[mode]
        self.params[P_SOLVED] = game.solved
        self.params[P_NPAT] = game.n_patterns
        self.params[P_KIND] = game.kind
        self.params[P_LENGTH] = game.length
        self.params[P_COLOURS] = game.colours
        self.params[P_VECTOR_MAX] = VECTOR_MAX if vector_max is None else vector_max
        self.owner = (game, mode, pm.shape, hash(tuple(pm.guesses)), hash(tuple(pm.answers)))
        """What a memo entry's meaning depends on (the keys hash answer columns and guess rows)."""

    def hard_filter(self, rows: np.ndarray, g: int, p: int) -> tuple[np.ndarray, tuple[int, int]]:
        """Return the rows hard mode still allows after guess row ``g`` got reply ``p``."""
        from ..kernels.optimal_cpu import hard_filter

        out = np.empty(len(rows), np.int32)
        scratch = np.zeros(64, np.int64)
        k, h1, h2 = hard_filter(self.params, self.glet, self.gcnt, self.glet, rows.astype(np.int32),
                                len(rows), g, p, out, self.zg1, self.zg2, scratch)
        return out[:k], (int(h1), int(h2))

    def list_hash(self, rows: np.ndarray) -> tuple[int, int]:
        """Return the hard-mode hash pair of a guess list."""
        with np.errstate(over="ignore"):
            return int(self.zg1[rows].sum(dtype=np.uint64)), int(self.zg2[rows].sum(dtype=np.uint64))

    def children(self, answers: np.ndarray, rows: np.ndarray, g: int) -> list[Child]:
        """Return (reply, answers, allowed rows, list hash) per bucket of ``answers`` under ``g``."""
        replies = self.codes[g, answers]
        out = []
        for p in np.unique(replies):
            bucket = answers[replies == p]
            if self.mode == "hard":
                allowed, ah = self.hard_filter(rows, g, int(p))
            else:
                allowed, ah = rows, (0, 0)
            out.append((int(p), bucket, allowed, ah))
        return out


def guess_table(pm: PatternMatrix, answers: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Return int64 rows (distinct replies, guess is an answer, sum of squared bucket sizes)
    of the guess ``rows`` over the answer columns ``answers``: one GPU launch for large sets
    on the CUDA backend, the CPU kernel otherwise (the same numbers either way)."""
    from ..kernels import config
    from ..kernels.optimal_cpu import guess_bounds

    answers = np.ascontiguousarray(answers, np.int32)
    rows = np.ascontiguousarray(rows, np.int32)
    out = np.zeros((len(rows), 3), np.int64)
    if pm.backend.name == "cuda" and len(answers) >= config.OPTIMAL_GPU_MIN_ANSWERS and len(rows):
        from ..kernels import optimal_cuda

        xp = pm.backend.xp
        dev = xp.empty((len(rows), 3), np.int64)
        blocks = max(1, min(len(rows), 65535))
        optimal_cuda.guess_bounds[blocks, config.THREADS_PER_BLOCK](
            pm.backend._on_device(pm.codes), xp.to_device(answers), xp.to_device(rows),
            pm.game.solved, pm.game.n_patterns, dev)
        return xp.to_host(dev)
    guess_bounds(np.ascontiguousarray(pm.codes), answers, rows, pm.answer_rows, pm.game.solved,
                 pm.game.n_patterns, out)
    return out


def _bucket_bound(m: int) -> int:
    """Return the least total any strategy can take on ``m`` answers (2m - 1)."""
    return 2 * m - 1


class _Search:
    """The top-level driver: evaluates first guesses with worker threads."""

    def __init__(self, ctx: _Context, workers: int, memo_mb: int, progress: Callable | None,
                 known: Entries | None = None, tables: list[MemoTable] | None = None) -> None:
        entries = max(16, int(memo_mb * 2**20 / MEMO_ENTRY_BYTES / max(workers, 1)))
        if tables is not None:  # kept across searches: replaced only when they do not fit this one
            fits = len(tables) == workers and all(
                t.owner == ctx.owner and t.mask == _table_size(entries) - 1 for t in tables)
            if not fits:
                tables[:] = [MemoTable(entries, ctx.owner) for _ in range(workers)]
        self.ctx = ctx
        self.workspaces = [_Workspace(ctx, entries, tables[i] if tables else None) for i in range(workers)]
        if known is not None and len(known):
            for ws in self.workspaces:
                ws.table.preload(known)
        self.free = list(self.workspaces)
        self.lock = threading.Lock()
        self.pool = ThreadPoolExecutor(max_workers=workers)  # even one: the main thread stays free for Ctrl-C
        self.stop = np.zeros(1, np.int64)
        self.solved_by: dict[bytes, _Workspace] = {}
        self.progress = progress
        self.started = time.perf_counter()

    @property
    def nodes(self) -> int:
        return sum(w.nodes for w in self.workspaces)

    def counters(self) -> dict:
        """Return the kernel counters summed over the workers."""
        from ..kernels import optimal_cpu as k

        total = sum(w.stats for w in self.workspaces)
        names = {"nodes": k.S_NODES, "memo_hits": k.S_MEMO_HITS, "memo_stores": k.S_MEMO_STORES,
                 "scanned": k.S_SCANNED, "evaluated": k.S_EVALUATED, "store_hits": k.S_STORE_HITS}
        out = {name: int(total[i]) for name, i in names.items()}
        out["by_depth"] = {d: (int(total[16 + d]), int(total[8 + d])) for d in range(8) if total[16 + d]}
        return out

    def _run(self, answers, depth, beta, rows, ah, stop) -> tuple[int, int]:
        with self.lock:
            ws = self.free.pop()
        try:
            value = ws.solve(answers, depth, beta, rows, ah, stop)
            self.solved_by[answers.tobytes()] = ws  # its memo holds the subtree
            return value
        finally:
            with self.lock:
                self.free.append(ws)

    def close(self) -> None:
        self.pool.shutdown(wait=True)

    def new_entries(self, keep: int, min_work: int) -> Entries:
        """Return the (at most) ``keep`` entries with the most work the memos gained since their
        last harvest."""
        if keep <= 0:
            return Entries.empty()
        new = Entries.concat([ws.table.harvest() for ws in self.workspaces]).merged()
        if len(self.workspaces) > 1:  # each thread's memo gets what the others found
            for ws in self.workspaces:
                ws.table.preload(new)
        return new.top(keep, min_work)

    def evaluate(self, answers: np.ndarray, depth: int, rows: np.ndarray, g: int,
                 bound: int) -> tuple[int, bool]:
        """Return (cost of guess ``g``, exact?): exact when below ``bound``, else a bound >= it."""
        from ..kernels.optimal_cpu import INF

        n = len(answers)
        kids = [k for k in self.ctx.children(answers, rows, g) if k[0] != self.ctx.solved]
        kids.sort(key=lambda k: -len(k[1]))
        known: dict[int, int] = {}
        lbs = {}
        for i, (_, bucket, _, _) in enumerate(kids):
            m = len(bucket)
            if m <= 2:
                known[i] = 1 if m == 1 else (3 if depth - 1 >= 2 else INF)
            lbs[i] = _bucket_bound(m)
        if depth - 1 < 1:
            return INF, True

        def current() -> int:
            return n + sum(known.get(i, lbs[i]) for i in range(len(kids)))

        if current() >= bound:
            return current(), False
        todo = [i for i in range(len(kids)) if i not in known]
        stop = np.zeros(1, np.int64)
        self._stops.append(stop)
        running: dict = {}
        refuted = False
        try:
            while todo or running:
                while todo and len(running) < len(self.workspaces):
                    i = todo.pop(0)
                    _, bucket, allowed, ah = kids[i]
                    limit = bound - (current() - lbs[i])
                    running[i] = (self.pool.submit(self._run, bucket, depth - 1, limit, allowed, ah, stop),
                                  limit)
                futs = {r[0]: i for i, r in running.items()}
                done, _ = wait(list(futs), return_when=FIRST_COMPLETED)
                for fut in done:
                    i = futs[fut]
                    limit = running.pop(i)[1]
                    v, _ = fut.result()
                    if self.stop[0]:
                        raise KeyboardInterrupt
                    known[i] = max(v, lbs[i])
                    if v >= limit:
                        refuted = True
                    if self.progress:
                        self.progress({"event": "bucket", "done": len(known), "buckets": len(kids),
                                       "nodes": self.nodes, "elapsed": time.perf_counter() - self.started})
                if refuted or current() >= bound:
                    stop[0] = 1
                    for fut, _ in running.values():
                        fut.result()
                    return current(), False
        except BaseException:
            stop[0] = 1
            for fut, _ in running.values():
                fut.result()
            raise
        finally:
            self._stops.remove(stop)
        return current(), True

    _stops: list


def _tree(search: _Search, answers: np.ndarray, depth: int, rows: np.ndarray, ah: tuple[int, int],
          guess: int | None = None, ws: _Workspace | None = None) -> tuple[Tree, int]:
    """Return (the optimal subtree for ``answers``, its total), guess fixed when given."""
    from ..kernels.optimal_cpu import INF

    ctx = search.ctx
    pm = ctx.pm
    n = len(answers)
    if guess is None:
        if n == 1:
            return pm.answers[answers[0]], 1
        ws = ws or search.solved_by.get(answers.astype(np.int32).tobytes(), search.workspaces[0])
        value, guess = ws.solve(answers, depth, INF, rows, ah, search.stop)
        if value >= INF or guess < 0:
            raise GpusolveError("internal error: no strategy for a subtree of the optimal tree")
    node = Node(pm.guesses[guess], n)
    total = n
    for p, bucket, allowed, bah in ctx.children(answers, rows, guess):
        if p == ctx.solved:
            node.branches[p] = pm.guesses[guess]
            continue
        sub, t = _tree(search, bucket, depth - 1, allowed, bah, ws=ws)
        node.branches[p] = sub
        total += t
    return node, total


def _check_objective(objective: str) -> None:
    if objective not in OBJECTIVES:
        raise GpusolveError(f"unknown objective {objective!r}: choose one of {', '.join(OBJECTIVES)}")


def solve(pm: PatternMatrix, start: Word | None = None, mode: str = "normal", max_guesses: int = 6,
          cutoff: int | None = None, candidates: int | None = None, answers: np.ndarray | None = None,
          moves: list[tuple[Word, int]] | None = None, memo_mb: int = DEFAULT_MEMO_MB,
          progress: Callable[[dict], None] | None = None, alternatives: int = 0,
          workers: int | None = None, objective: str = "total", build_tree: bool = True,
          vector_max: int | None = None, known: Entries | None = None, keep_subproblems: int = 0,
          min_work: int = 0, tables: list[MemoTable] | None = None) -> OptimalResult:
    """Return the optimal tree (least total guesses, every answer within ``max_guesses``).

    ``start`` fixes the first guess; otherwise first guesses are tried by increasing bound
    (``candidates`` keeps only the N best by that bound). ``moves`` (guess, reply code) start
    from a mid-game position; ``answers`` restrict the answer columns. ``cutoff`` T: only
    whether the total is below T matters (``below_cutoff`` False means "total >= T").
    ``alternatives`` K also proves the values of the K next-best first guesses. ``workers``
    threads (default 2) share the buckets; ``vector_max`` tunes the kernel (sets up to that
    size use the vectorized scan; 0 turns it off; the value never changes a result).
    ``known`` subproblem entries (of a run over the same game, lists and mode) are put in the
    memo first; ``keep_subproblems`` N returns the N new entries with the most work (at least
    ``min_work``) in ``result.subproblems`` (see ``gpusolve.runs.subproblems``). ``tables``: a list
    holding the memo tables to use and keep (filled with new ones when empty or unfit), so that
    successive searches share their memo. None of these changes a result.
    """
    from ..kernels.optimal_cpu import INF

    _check_objective(objective)
    mode = check_mode(mode)
    moves = list(moves or [])
    if max_guesses < 1:
        raise GpusolveError(f"--max-guesses must be at least 1 (got {max_guesses})")
    depth = max_guesses - len(moves)
    if depth < 1:
        raise GpusolveError(f"{len(moves)} moves played: no guesses left within {max_guesses}")
    started = time.perf_counter()
    alive = remaining_answers(pm, moves) if answers is None else np.asarray(answers, np.int32)
    if answers is not None and moves:
        alive = np.intersect1d(alive, remaining_answers(pm, moves)).astype(np.int32)
    if not len(alive):
        raise GpusolveError("no answers to solve")
    alive = np.sort(alive).astype(np.int32)
    n = len(alive)
    depth = min(depth, n)  # n guesses always suffice (a useful guess leaves fewer): a deeper limit is moot
    ctx = _Context(pm, mode, len(moves) + depth, vector_max)
    rows = np.arange(pm.shape[0], dtype=np.int32)
    if mode == "hard":
        for word, code in moves:
            rows, _ = ctx.hard_filter(rows, pm.guess_index[word], code)
    elif mode == "consistent":
        rows = ctx.answer_rows[alive].copy()
    if workers is None:
        workers = max(1, min(2, os.cpu_count() or 1))
    search = _Search(ctx, workers, memo_mb, progress, known, tables)
    search._stops = []

    # first-guess candidates with their bounds
    if start is not None:
        word = pm.game.parse_word(start, pm.guess_index)
        g0 = pm.guess_index[word]
        if g0 not in set(rows.tolist()):
            raise GpusolveError(f"{word} is not an allowed guess here in {mode} mode")
        cand = np.array([g0], np.int32)
    else:
        cand = rows
    table = guess_table(pm, alive, cand)
    useful = (table[:, 0] > 1) | (table[:, 1] == 1) | (n == 1)
    if start is None:
        cand, table = cand[useful], table[useful]
    bounds = 3 * n - table[:, 1] - table[:, 0]
    single = (table[:, 0] == n)
    bounds = np.where(single, 2 * n - table[:, 1], bounds)
    if depth == 1:
        bounds = np.where(n == 1, 1, INF) + 0 * bounds
    order = np.lexsort((table[:, 2], bounds))
    restricted = start is None and candidates is not None and candidates < len(order)
    if start is None and candidates is not None:
        if candidates < 1:
            raise GpusolveError("--candidates must be at least 1")
        order = order[:candidates]

    goal = INF if cutoff is None else int(cutoff)
    keep = 1 + max(0, alternatives)
    found: list[Alternative] = []
    lower = INF
    tried = 0
    interrupted = False
    def stop_all() -> None:
        search.stop[0] = 1
        for s in list(search._stops):
            s[0] = 1

    guard = StopOnInterrupt(stop_all).__enter__()  # Ctrl-C stops the kernels: no exception in a wait
    try:
        for idx in order:
            if search.stop[0]:
                raise KeyboardInterrupt
            g = int(cand[idx])
            exact_vals = sorted(a.total for a in found if a.exact)
            bound = goal if len(exact_vals) < keep else min(goal, exact_vals[keep - 1])
            if bounds[idx] >= bound:
                lower = min(lower, int(bounds[idx]))
                break
            if depth == 1:
                value, exact = (1, True) if n == 1 else (INF, True)
            elif n == 1:
                value, exact = 1, True
            else:
                value, exact = search.evaluate(alive, depth, rows, g, bound)
            tried += 1
            found.append(Alternative(pm.guesses[g], int(value), bool(exact and value < bound)))
            if not found[-1].exact:
                lower = min(lower, int(value))
            if progress:
                best = min((a.total for a in found if a.exact), default=None)
                progress({"event": "guess", "tried": tried, "candidates": len(order),
                          "best": best, "guess": pm.guesses[g], "value": int(value),
                          "nodes": search.nodes, "elapsed": time.perf_counter() - started})
    except KeyboardInterrupt:
        stop_all()
        interrupted = True
    finally:
        guard.__exit__()
    search.stop[0] = 0

    exact_found = sorted((a for a in found if a.exact), key=lambda a: a.total)
    result = OptimalResult(None, None, None, None, {}, False, search.nodes, 0.0, None,
                           n_answers=n, candidates=len(order), tried=tried, restricted=restricted,
                           interrupted=interrupted)
    ranked = exact_found + sorted((a for a in found if not a.exact), key=lambda a: a.total)
    result.alternatives = ranked[: keep + 4]
    if exact_found and exact_found[0].total < INF:
        best = exact_found[0]
        result.first_guess = best.guess
        result.total = best.total
        result.proven = not interrupted
        if build_tree:
            ah = ctx.list_hash(rows)
            tree, total = _tree(search, alive, depth, rows, ah, pm.guess_index[best.guess])
            if total != best.total:
                raise GpusolveError(f"internal error: tree total {total} != value {best.total}")
            s = summarize(tree)
            offset = len(moves)
            result.tree = tree
            result.histogram = {k + offset: v for k, v in s.histogram.items()}
            result.worst = s.worst + offset
            result.mean = best.total / n
        else:
            result.mean = best.total / n
    elif not interrupted:
        if cutoff is not None and lower >= goal and (lower < INF or not found):
            result.below_cutoff = False
            result.proven = True
        else:
            search.close()
            raise GpusolveError(f"no strategy finds every answer within {max_guesses} guesses")
    result.nodes = search.nodes
    result.counters = search.counters()
    if not interrupted:
        result.subproblems = search.new_entries(keep_subproblems, min_work)
    result.seconds = time.perf_counter() - started
    search.close()
    return result


def value_of(pm: PatternMatrix, moves: list[tuple[Word, int]], mode: str = "normal",
             max_guesses: int = 6, alternatives: int = 4, **kw) -> OptimalResult:
    """Return the best next guess of a mid-game position, its value, and the next alternatives."""
    return solve(pm, mode=mode, max_guesses=max_guesses, moves=moves, alternatives=alternatives, **kw)


__all__ = ["DEFAULT_MEMO_MB", "OBJECTIVES", "WORDLE", "Alternative", "MemoTable", "OptimalResult", "solve",
           "value_of"]
