"""Greedy guess trees: at every node, guess the word that minimizes a partition metric.

Ties break by pool order, exactly as the seeds' ``min(guesses, key=metric)``: the pool is the
guess list where free guesses are considered, else the node's remaining answers in answer
order. Keys are exact integers (``kernels/stats.py`` fixed point for entropy), so ties are
ties on every machine (tie rule ``exact``). Tie rule ``seed-001`` instead keys expectation and
entropy by seed 001's Python floats, whose rounding decides some exact ties (see
``kernels/greedy_cpu.seed_key``); with the Jotto lists in that seed's order (``jotto_order``
``file``) it gives the seed's trees. The whole tree grows inside numba
(``kernels/greedy_cpu.py``); Python only turns the flat arrays into ``Node`` objects.

Metrics are rules in ``GREEDY_METRICS`` (add one with ``register_metric``); any name may be
prefixed ``anti-`` to maximize instead (Antiwordle: ``anti-entropy``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numba
import numpy as np

from ..core.errors import GpusolveError
from ..core.modes import check_mode
from ..core.patterns import PatternMatrix
from ..core.trees import Node, Tree
from ..kernels import greedy_cpu as kernel
from ..kernels import squares_cpu as squares
from ..kernels.config import SQUARES_MIN
from ..kernels.replies import WORDLE
from ..kernels.stats import inverse_table, nlogn_table
from .defaults import FREE_MIN
from .plumbing import answer_columns

MODE_IDS = {"normal": kernel.NORMAL, "hard": kernel.HARD, "consistent": kernel.CONSISTENT}
TIES = ("exact", "seed-001")
"""Tie rules: exact integer keys (the default), or seed 001's float keys."""
SEED_001_FLOAT = {"expectation": kernel.SEED_EXPECTATION, "entropy": kernel.SEED_ENTROPY}
"""Seed 001's float metrics and their kernel kinds (its third metric, max, has integer keys)."""
SPLIT_WORK = 200_000
"""Below this many (answers x guesses) a tree grows on one core; above, the root's branches
are spread over all cores."""
NEVER = np.iinfo(np.int64).max
"""No limit on a count (``free_max``, ``squares_min``): int64's largest, so no set size or guess
count reaches it. Not ``INF``: that is a cost, and a count compares with it on another scale."""


@dataclass(frozen=True)
class MetricRule:
    """How a metric scores a partition: ``sum`` of ``gain(size)`` over branches, or ``max`` size."""

    kind: str
    gain: Callable[[int], np.ndarray] | None = None
    exclude_solved: bool = False
    doc: str = ""


def _count_of(k: int) -> np.ndarray:
    return np.arange(k + 1, dtype=np.int64)


GREEDY_METRICS: dict[str, MetricRule] = {
    "entropy": MetricRule("sum", nlogn_table, doc="most information: least sum of n*log2(n)"),
    "max": MetricRule("max", doc="smallest largest branch"),
    "expectation": MetricRule("sum", lambda k: _count_of(k) ** 2,
                              doc="smallest expected branch size: least sum of n^2"),
    "branches": MetricRule("sum", lambda k: -(_count_of(k) > 0).astype(np.int64),
                           doc="most branches"),
    "guaranteed_wins": MetricRule("sum", lambda k: -(_count_of(k) == 1).astype(np.int64), True,
                                  doc="most singleton branches besides the solved one"),
    "expected_wins": MetricRule("sum", lambda k: -inverse_table(k), True,
                                doc="largest sum of 1/n over branches besides the solved one"),
}
GREEDY_METRICS |= {"splits": GREEDY_METRICS["branches"], "prune": GREEDY_METRICS["expectation"]}
"""Metrics a greedy tree can minimize, by name (``splits`` and ``prune`` are seed 004's MaxSplits
and MaxPrune policies: the same rules as ``branches`` and ``expectation``)."""


def register_metric(name: str, rule: MetricRule) -> None:
    """Add (or replace) a greedy metric rule under ``name``."""
    GREEDY_METRICS[name] = rule


def metric_names() -> list[str]:
    """Return every accepted metric name, the ``anti-`` forms included."""
    return [*GREEDY_METRICS, *(f"anti-{m}" for m in GREEDY_METRICS)]


def kernel_metric(name: str, n: int, ties: str = "exact") -> kernel.Metric:
    """Return the kernel form of metric ``name`` for nodes of up to ``n`` answers under a tie rule."""
    if ties not in TIES:
        raise GpusolveError(f"unknown tie rule {ties!r}: choose one of {', '.join(TIES)}")
    if ties == "seed-001" and name != "max":
        if name not in SEED_001_FLOAT:
            raise GpusolveError(f"tie rule seed-001 applies to seed 001's metrics (max, expectation, "
                                f"entropy), not {name!r}")
        unused = np.zeros(n + 2, np.int64)
        return kernel.Metric(SEED_001_FLOAT[name], 1, unused, unused[:-1].copy(), False, False, False)
    sign, base = (-1, name[5:]) if name.startswith("anti-") else (1, name)
    rule = GREEDY_METRICS.get(base)
    if rule is None:
        raise GpusolveError(f"unknown metric {name!r}: choose one of {', '.join(metric_names())}")
    if rule.kind == "max":
        gain = np.zeros(n + 2, np.int64)
        return kernel.Metric(kernel.KMAX, sign, gain, gain[:-1].copy(), sign > 0, False, sign > 0)
    gain = sign * np.asarray(rule.gain(n + 1), dtype=np.int64)
    delta = np.diff(gain)
    prunable = bool((delta >= 0).all()) and not rule.exclude_solved
    convex = bool((np.diff(delta) >= 0).all()) and gain[0] == 0
    return kernel.Metric(kernel.SUM, 1, gain, delta, prunable, rule.exclude_solved, prunable and convex)


def guess_row(pm: PatternMatrix, word: str | int) -> int:
    """Return the guess row of a word (or a row number), or raise a one-line error."""
    if isinstance(word, (int, np.integer)):
        if not 0 <= word < pm.shape[0]:
            raise GpusolveError(f"guess row {word} out of range")
        return int(word)
    return pm.guess_index[pm.game.parse_word(word, pm.guess_index)]


def make_plan(pm: PatternMatrix, metric: str, mode: str, free_max: int | None, n: int,
              free_min: int = FREE_MIN, ties: str = "exact") -> tuple[kernel.Plan, kernel.Metric]:
    """Return what the kernels need besides the tasks, shared by every task of one run: (matrix, game
    and mode as ``kernels.greedy_cpu.Plan``, the metric)."""
    check_mode(mode)
    if free_max is not None and free_max < 0:
        raise GpusolveError(f"--free-max must be 0 or more, not {free_max}")
    game = pm.game
    bounded = (metric, ties, game.kind) == ("entropy", "exact", WORDLE)
    plan = kernel.Plan(
        mat=pm.answer_major,
        enc=pm.letters,
        counts=pm.letter_counts,
        kind=game.kind,
        colours=game.colours,
        answer_rows=pm.answer_rows.astype(np.int64),
        mode=MODE_IDS[mode],
        free_max=NEVER if free_max is None else int(free_max),
        free_min=max(int(free_min), 1),
        n_patterns=game.n_patterns,
        solved=game.solved,
        squares_min=SQUARES_MIN if bounded else NEVER,
        parts=guess_parts(pm) if bounded else np.zeros((0, squares.PARTS), np.uint16),  # one kernel type
    )
    return plan, kernel_metric(metric, n, ties)


def guess_parts(pm: PatternMatrix) -> np.ndarray:
    """Return the parts of every guess's reply for the squares bound (kept on ``pm``)."""
    parts = getattr(pm, "_guess_parts", None)
    if parts is None:
        parts = pm._guess_parts = squares.guess_parts(pm.letters, pm.letter_counts)  # type: ignore[attr-defined]
    return parts


def _check_start(pm: PatternMatrix, mode: str, row: int, cols: np.ndarray) -> None:
    if mode == "consistent" and row not in set(pm.answer_rows[cols].tolist()):
        raise GpusolveError(f"{pm.guesses[row]} is not a possible answer: consistent mode "
                            "guesses only remaining answers")


def grow(plan: kernel.Plan, metric: kernel.Metric, tasks: list[tuple[np.ndarray, list[tuple[int, int]], int]],
         write: bool, threads: int | None = None):
    """Run the kernels over tasks (answer columns, path moves, start row or -1), all cores.

    Returns (elements per task as (guess, parent, reply, size) arrays or None, scores (n_tasks, k)).
    """
    threads = threads or numba.get_num_threads()
    sizes = np.array([len(c) for c, _, _ in tasks], dtype=np.int64)
    col_off = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    task_cols = np.concatenate([c for c, _, _ in tasks]).astype(np.int64)
    path_len = np.array([len(p) for _, p, _ in tasks], dtype=np.int64)
    path_off = np.concatenate([[0], np.cumsum(path_len)]).astype(np.int64)
    moves = [m for _, p, _ in tasks for m in p]
    path_guess = np.array([g for g, _ in moves], dtype=np.int64)
    path_reply = np.array([r for _, r in moves], dtype=np.int64)
    depth0 = path_len + 1
    start = np.array([s for _, _, s in tasks], dtype=np.int64)
    # longest tasks first, each to the least loaded thread
    load = np.zeros(threads)
    mine: list[list[int]] = [[] for _ in range(threads)]
    for i in np.argsort(-sizes, kind="stable"):
        t = int(np.argmin(load))
        mine[t].append(int(i))
        load[t] += sizes[i] * max(1.0, np.log2(sizes[i]))
    thread_tasks = np.array([i for m in mine for i in m], dtype=np.int64)
    thread_off = np.concatenate([[0], np.cumsum([len(m) for m in mine])]).astype(np.int64)
    room = 2 * sizes + 1 if write else np.zeros_like(sizes)
    out_off = np.concatenate([[0], np.cumsum(room)]).astype(np.int64)
    total = max(int(out_off[-1]), 1)
    out = [np.empty(total, np.int64) for _ in range(4)]
    count = np.zeros(len(tasks), np.int64)
    scores = np.zeros((len(tasks), int(sizes.max() + depth0.max() + 2)), np.int64)
    todo = kernel.Tasks(task_cols, col_off, path_guess, path_reply, path_off, depth0, start, thread_tasks,
                        thread_off)
    kernel.grow_forest(plan, metric, todo, kernel.Elements(*out), out_off, count, scores, write, threads)
    elements = None
    if write:
        elements = [tuple(a[out_off[i]:out_off[i] + count[i]] for a in out) for i in range(len(tasks))]
    return elements, scores


def to_tree(pm: PatternMatrix, guess: np.ndarray, parent: np.ndarray, reply: np.ndarray,
            size: np.ndarray) -> Tree:
    """Return the ``Tree`` of flat element arrays (depth-first, parents first)."""
    words = pm.guesses
    made: list[Tree] = []
    for g, p, r, s in zip(guess.tolist(), parent.tolist(), reply.tolist(), size.tolist()):
        item: Tree = words[g] if s == 1 else Node(words[g], s, {})
        made.append(item)
        if p >= 0:
            made[p].branches[r] = item  # type: ignore[union-attr]
    return made[0]


def greedy_tree(pm: PatternMatrix, metric: str = "entropy", mode: str = "normal",
                start: str | int | None = None, free_max: int | None = None,
                answers: Sequence | np.ndarray | None = None, threads: int | None = None,
                free_min: int = FREE_MIN, ties: str = "exact") -> Tree:
    """Return the greedy tree minimizing ``metric`` at every node over ``answers`` (default all).

    ``mode``: normal | hard | consistent; free (non-answer) guesses are considered only where
    ``free_min < remaining <= free_max`` (defaults 3 and None: no upper limit, the seeds'
    rule); ``start`` fixes the first guess; ``ties``: one of ``TIES``.
    """
    cols = answer_columns(pm, answers).astype(np.int64)
    plan, km = make_plan(pm, metric, mode, free_max, len(cols), free_min, ties)
    threads = threads or numba.get_num_threads()
    n = len(cols)
    if start is not None:
        root = guess_row(pm, start)
        _check_start(pm, mode, root, cols)
    elif n > 1:
        free = mode != "consistent" and plan.free_min < n <= plan.free_max
        pool = np.arange(pm.shape[0], dtype=np.int64) if free else plan.answer_rows[cols]
        where = kernel.best_guess_parallel(plan.mat, pool, cols, 0, n, plan.n_patterns, plan.solved,
                                           km, threads)
        root = int(pool[where])
    if n == 1:
        return pm.answers[int(cols[0])]
    if n * pm.shape[0] < SPLIT_WORK or threads == 1:
        (elements,), _ = grow(plan, km, [(cols, [], root)], True, threads=1)
        return to_tree(pm, *elements)
    # the root here; each branch below it a task, the tasks spread over all cores
    replies = plan.mat[cols, root]
    node = Node(pm.guesses[root], n, {})
    tasks = []
    for code in np.unique(replies):
        sub = cols[replies == code]
        if len(sub) == 1:
            node.branches[int(code)] = pm.answers[int(sub[0])]
        else:
            tasks.append((int(code), (sub, [(root, int(code))], -1)))
    if tasks:
        elements, _ = grow(plan, km, [t for _, t in tasks], True, threads=threads)
        for (code, _), arrays in zip(tasks, elements):
            node.branches[code] = to_tree(pm, *arrays)
    node.branches = dict(sorted(node.branches.items()))
    return node


def greedy_scores(pm: PatternMatrix, starts: Sequence | np.ndarray, metric: str = "entropy",
                  mode: str = "normal", free_max: int | None = None,
                  answers: Sequence | np.ndarray | None = None, threads: int | None = None,
                  free_min: int = FREE_MIN, ties: str = "exact") -> np.ndarray:
    """Return int64 ``hist[i, k]``: answers the greedy tree from ``starts[i]`` solves in k guesses.

    ``starts`` are guess rows (or words); every start's tree grows on its own core, nothing but
    the histograms is kept.
    """
    cols = answer_columns(pm, answers).astype(np.int64)
    plan, km = make_plan(pm, metric, mode, free_max, len(cols), free_min, ties)
    rows = [guess_row(pm, s) for s in starts]
    if not rows:
        return np.zeros((0, 1), np.int64)
    for r in rows:
        _check_start(pm, mode, r, cols)
    _, scores = grow(plan, km, [(cols, [], r) for r in rows], False, threads=threads)
    last = int(np.nonzero(scores.any(axis=0))[0].max())
    return scores[:, :last + 1]
