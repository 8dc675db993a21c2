"""The units of a long run: what one worker computes for a batch of start words, by task name.

A ``Job`` names the task and every parameter that changes its answer; it is small and
picklable, so it travels to Dask workers, which rebuild (or load from the disk cache) the
pattern matrix it describes. A unit function takes the matrix, the job, the guess rows of the
start words and the subproblem cache, and returns one JSON-ready result per start word. The
results must depend only on the job and the start word (never on timing, order, worker or what
the cache holds), so that a resumed or distributed run gives exactly the results of an
uninterrupted one. Units that search (``exact``, ``reference-exact``) read the cache, add their
worthwhile new subproblems to it, and count their nodes and hits on it per start word.

Tasks: ``greedy-tree`` and ``exact`` (the real searches, ``gpusolve.search.greedy`` and
``gpusolve.search.optimal``), ``first-pass`` (a start word's first-pass bound, for the proof of
``gpusolve.runs.proof``), and three small pure-Python ones used as stand-ins and test oracles:
``partition`` (the start word's branch statistics), ``reference-greedy`` (a slow greedy tree)
and ``reference-exact`` (a slow exact search for tiny lists).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np

from ..core.errors import GpusolveError, Infeasible
from ..core.games import make_game
from ..core.modes import check_mode, hard_mode_allows
from ..core.patterns import PatternMatrix, pattern_matrix
from ..core.words import Word
from ..kernels.config import INF
from ..search.bounds import FirstPass
from ..search.metrics import METRICS, partition_table, ranking
from .subproblems import MIN_WORK, PER_UNIT, Subproblems


def list_hash(words: tuple[Word, ...]) -> str:
    """Return a content hash of a word list."""
    return hashlib.sha256("\n".join(words).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Job:
    """A task and every parameter that changes its answer (plus how to rebuild the matrix)."""

    task: str
    game: str = "wordle"
    length: int = 5
    colours: int = 6
    guesses: str | None = None
    answers: str | None = None
    guesses_hash: str = ""
    answers_hash: str = ""
    n_guesses: int = 0
    n_answers: int = 0
    mode: str = "normal"
    max_guesses: int = 6
    metric: str = "entropy"
    cutoff: int | None = None
    free_max: int | None = None
    candidates: int | None = None
    """A proof's candidates (the N best start words by size bound; None: all)."""
    repeats: bool | None = None
    black_only: bool = False
    """The code games' options off their defaults (``Game.options``; None, False: the defaults)."""

    def params(self) -> dict[str, object]:
        """Return the parameters recorded in the run store (list contents by hash, not by name)."""
        params = asdict(self)
        del params["guesses"], params["answers"]
        if self.game not in ("mastermind", "bulls"):
            del params["colours"]
        for option, default in (("repeats", None), ("black_only", False)):
            if params[option] == default:
                del params[option]
        if self.task != "proof":
            del params["candidates"]
        return params


def make_job(task: str, pm: PatternMatrix, guesses: str | None, answers: str | None, mode: str = "normal",
             max_guesses: int = 6, metric: str = "entropy", cutoff: int | None = None,
             free_max: int | None = None) -> Job:
    """Return the job of ``task`` over the lists of ``pm`` (named ``guesses``/``answers``)."""
    if task not in UNITS:
        raise GpusolveError(f"unknown task {task!r}: choose one of {', '.join(UNITS)}")
    names = list(METRICS)
    if task == "greedy-tree":
        try:
            from ..search.greedy import metric_names
        except ImportError:
            raise GpusolveError("the greedy search (gpusolve.search.greedy) is not in this build") from None
        names = metric_names()
    if metric and metric not in names:
        raise GpusolveError(f"unknown metric {metric!r}: choose one of {', '.join(names)}")
    if free_max is not None and free_max < 0:
        raise GpusolveError(f"--free-max must be 0 or more, not {free_max}")
    check_mode(mode)
    if max_guesses < 1:
        raise GpusolveError(f"--max-guesses must be at least 1, not {max_guesses}")
    g = pm.game
    return Job(task, g.name, g.length, g.colours, guesses, answers, list_hash(pm.guesses),
               list_hash(pm.answers), len(pm.guesses), len(pm.answers), mode, max_guesses, metric, cutoff,
               free_max, **g.options())


_matrices: dict[tuple, PatternMatrix] = {}
_matrices_lock = threading.Lock()


def matrix_for(job: Job, backend: str | None = None) -> PatternMatrix:
    """Return the job's pattern matrix (once per process), checking its lists match the job's."""
    spec = (job.game, job.length, job.colours, job.repeats, job.black_only, job.guesses, job.answers, backend)
    with _matrices_lock:
        pm = _matrices.get(spec)
        if pm is None:
            game = make_game(job.game, job.length, job.colours, job.repeats, job.black_only)
            pm = pattern_matrix(game, job.guesses, job.answers, backend)
            if (list_hash(pm.guesses), list_hash(pm.answers)) != (job.guesses_hash, job.answers_hash):
                raise GpusolveError(
                    f"the word lists {job.guesses or 'default'}/{job.answers or 'default'} on this worker "
                    "differ from the run's (give every worker the same list files)")
            _matrices[spec] = pm
    return pm


UnitFunction = Callable[..., list[dict]]
"""``unit(pm, job, rows, memo, threads=None) -> [result]``: one JSON-ready result per guess row."""


# --- stand-ins and oracles ------------------------------------------------------------------

def partition_unit(pm: PatternMatrix, job: Job, rows: list[int], memo: Subproblems,
                   threads: int | None = None) -> list[dict]:
    """Return each start word's branch statistics over all answers (largest, count, sum of squares)."""
    from ..kernels.stats import BRANCHES, MAX, SUM_SQUARES

    table = partition_table(pm, None, np.asarray(rows, dtype=np.int32))
    return [{"max": int(t[MAX]), "branches": int(t[BRANCHES]), "sum_squares": int(t[SUM_SQUARES])}
            for t in table]


def _best_guess(pm: PatternMatrix, job: Job, answers: np.ndarray, moves: list[tuple[Word, int]]) -> int:
    """Return the guess row the greedy policy plays for ``answers`` (ties: list order)."""
    rows = np.arange(pm.shape[0], dtype=np.int32)
    if job.mode == "hard":
        rows = np.array([r for r in rows if hard_mode_allows(pm.game, pm.guesses[r], moves)], dtype=np.int32)
    elif job.mode == "consistent":
        rows = pm.answer_rows[answers]
    return int(rows[ranking(partition_table(pm, answers, rows), job.metric)[0]])


def reference_greedy_histogram(pm: PatternMatrix, job: Job, start: int) -> list[int]:
    """Return h[k] = answers the greedy tree from ``start`` finds with guess k (slow, obvious)."""
    histogram = [0] * 32
    solved = pm.game.solved

    def play(answers: np.ndarray, guess: int, depth: int, moves: list[tuple[Word, int]]) -> None:
        if depth >= len(histogram):
            raise GpusolveError("the greedy tree is deeper than 31 guesses")
        codes = pm.codes[guess, answers]
        for code in np.unique(codes):
            bucket = answers[codes == code]
            if code == solved:
                histogram[depth] += 1
            elif len(bucket) == 1:
                histogram[depth + 1] += 1
            else:
                after = [*moves, (pm.guesses[guess], int(code))]
                play(bucket, _best_guess(pm, job, bucket, after), depth + 1, after)

    play(np.arange(pm.shape[1], dtype=np.int32), start, 1, [])
    return histogram[: max(k for k, n in enumerate(histogram) if n) + 1]


def tree_result(histogram: list[int] | np.ndarray, max_guesses: int) -> dict:
    """Return the JSON result of a start word's tree from its histogram of guesses needed."""
    h = [int(n) for n in histogram]
    while h and not h[-1]:
        h.pop()
    return {
        "total": sum(k * n for k, n in enumerate(h)),
        "worst": len(h) - 1,
        "over": sum(h[max_guesses + 1:]),
        "histogram": h,
    }


def reference_greedy_unit(pm: PatternMatrix, job: Job, rows: list[int], memo: Subproblems,
                          threads: int | None = None) -> list[dict]:
    """Return each start word's greedy-tree result computed by the slow reference greedy."""
    return [tree_result(reference_greedy_histogram(pm, job, r), job.max_guesses) for r in rows]


def reference_value(pm: PatternMatrix, answers: np.ndarray, depth: int, memo: Subproblems,
                    path: tuple[int, ...] = ()) -> int:
    """Return the least total guesses finding every answer within ``depth`` guesses (or INF),
    for the set the moves ``path`` (``guess row * replies + reply``) leave of all the answers."""
    n = len(answers)
    if n == 1:
        return 1
    if depth <= 1:
        return INF
    record = (depth, tuple(sorted(path)))
    cached = memo.get(record)
    if cached is not None and cached[1]:
        return cached[0]
    memo.nodes += 1
    before = memo.nodes
    best = INF
    for guess in range(pm.shape[0]):
        value = _guess_value(pm, answers, guess, depth, memo, path)
        best = min(best, value)
    memo.put(record, best, True, -1, n, (memo.nodes - before + 1) * n * pm.shape[0])
    return best


def _guess_value(pm: PatternMatrix, answers: np.ndarray, guess: int, depth: int, memo: Subproblems,
                 path: tuple[int, ...]) -> int:
    codes = pm.codes[guess, answers]
    total = len(answers)
    for code in np.unique(codes):
        if code == pm.game.solved:
            continue
        bucket = answers[codes == code]
        if len(bucket) == len(answers):
            return INF
        total += reference_value(pm, bucket, depth - 1, memo, (*path, guess * pm.game.n_patterns + int(code)))
        if total >= INF:
            return INF
    return total


def exact_result(total: int, exact: bool, cutoff: int | None, **extra: object) -> dict:
    """Return the JSON result of an exact search: the value, or a proven lower bound ">= cutoff"."""
    if cutoff is not None and (not exact or total >= cutoff):
        return {"value": int(cutoff), "exact": False}
    return {"value": int(total), "exact": True, **extra}


def reference_exact_unit(pm: PatternMatrix, job: Job, rows: list[int], memo: Subproblems,
                         threads: int | None = None) -> list[dict]:
    """Return each start word's exact least total computed by the slow reference search."""
    if job.mode != "normal":
        raise GpusolveError("the reference exact search plays normal mode only")
    answers = np.arange(pm.shape[1], dtype=np.int32)
    out = []
    for r in rows:
        own = memo if memo.reuse else Subproblems()  # without reuse: a fresh cache per start word
        total = _guess_value(pm, answers, r, job.max_guesses, own, ())
        if own is not memo:
            memo.count(own.nodes, 0)
        memo.end_unit()
        if total >= INF and job.cutoff is None:
            out.append({"value": None, "exact": True})  # impossible within max_guesses
        else:
            out.append(exact_result(total, total < INF, job.cutoff))
    return out


# --- the real searches ----------------------------------------------------------------------

def greedy_tree_unit(pm: PatternMatrix, job: Job, rows: list[int], memo: Subproblems,
                     threads: int | None = None) -> list[dict]:
    """Return each start word's greedy-tree result from the batch kernel of ``gpusolve.search.greedy``."""
    from ..search.greedy import greedy_scores

    histograms = greedy_scores(pm, np.asarray(rows, dtype=np.int64), metric=job.metric, mode=job.mode,
                               free_max=job.free_max, threads=threads)
    return [tree_result(h, job.max_guesses) for h in np.asarray(histograms)]


def exact_unit(pm: PatternMatrix, job: Job, rows: list[int], memo: Subproblems,
               threads: int | None = None) -> list[dict]:
    """Return each start word's exact least total (or ">= cutoff") from ``gpusolve.search.optimal``.

    The searches share ``memo.memos`` (the compiled memo, kept by the worker from unit to unit)
    after loading the run store's entries into them, and add to ``memo`` the ``PER_UNIT`` new
    entries of each start word with the most work (at least ``MIN_WORK``) for the store; with
    ``memo.reuse`` False each start word starts from an empty memo (the results are the same).
    """
    from ..search.optimal import Options, Question, solve

    out = []
    for r in rows:
        options = Options(workers=threads)
        if memo.reuse:  # the memo tables stay with the worker; new store snapshots go into them
            options = Options(workers=threads, known=memo.take_pending(), memos=memo.memos,
                              keep_subproblems=PER_UNIT, min_work=MIN_WORK)
        try:
            res = solve(pm, Question(start=pm.guesses[r], mode=job.mode, max_guesses=job.max_guesses,
                                     cutoff=job.cutoff), options)
        except Infeasible:
            memo.end_unit()
            out.append({"value": None, "exact": True})  # impossible within max_guesses
            continue
        if res.interrupted:
            raise KeyboardInterrupt
        memo.count(res.nodes, res.counters.get("store_hits", 0))
        memo.end_unit()
        if res.subproblems is not None and memo.reuse:
            memo.add(res.subproblems)
        if res.total is None:  # proven: total >= cutoff
            out.append(exact_result(int(job.cutoff), False, job.cutoff))
            continue
        hist = {str(k): int(v) for k, v in sorted(res.histogram.items())}
        out.append(exact_result(int(res.total), bool(res.proven), job.cutoff, worst=int(res.worst),
                                histogram=hist))
    return out


def first_pass_unit(pm: PatternMatrix, job: Job, rows: list[int], memo: Subproblems,
                    threads: int | None = None) -> list[dict]:
    """Return each start word's first-pass bound on its total (``gpusolve.search.bounds``), its
    scan stopped once the bound reaches the job's cutoff (then a proven bound >= it)."""
    from ..search.bounds import start_first_pass

    first = start_first_pass(pm, job.mode, job.max_guesses, np.asarray(rows, dtype=np.int32), job.cutoff)
    return first_pass_results(first)


def first_pass_results(first: FirstPass) -> list[dict]:
    """Return the results of first-pass units, one per start word of ``first``."""
    return [{"bound": int(t)} for t in first.totals]


UNITS: dict[str, UnitFunction] = {
    "greedy-tree": greedy_tree_unit,
    "exact": exact_unit,
    "first-pass": first_pass_unit,
    "partition": partition_unit,
    "reference-greedy": reference_greedy_unit,
    "reference-exact": reference_exact_unit,
}
"""Unit functions by task name."""
