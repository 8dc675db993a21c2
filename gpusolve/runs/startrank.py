"""Ranking every start word by a whole search from it: its greedy tree, or its exact optimal value.

Both are long runs: the start words are units fanned out by ``gpusolve.runs.fanout`` and recorded in
a ``gpusolve.runs.runstore`` run directory, so a run resumes where it stopped and may use a cluster.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.cache import write_atomic
from ..core.errors import GpusolveError
from ..core.outputs import layout_by_suffix, write_output
from ..core.patterns import PatternMatrix
from ..core.words import Word
from ..kernels.stats import SUM_SQUARES
from ..search.metrics import ranking
from .fanout import OnBatch, run_units
from .runstore import RunStore, default_run_dir
from .tables import Table, TableOutput, missing_text, table_of
from .units import Job, make_job


def tree_key(result: dict, position: int) -> tuple:
    """Return the sort key of a tree result: fewest failures, then fewest guesses, then shallowest."""
    return (result["over"], result["total"], result["worst"], position)


def exact_key(result: dict, position: int) -> tuple:
    """Return the sort key of an exact result: exact values first by value, then bounds, then list order."""
    value = result["value"]
    return (value is None, value if value is not None else 0, not result["exact"], position)


def partition_key(result: dict, position: int) -> tuple:
    """Return the sort key of a partition result: smallest largest branch, then sum of squares."""
    return (result["max"], result["sum_squares"], position)


KEYS: dict[str, Callable[[dict, int], tuple]] = {
    "greedy-tree": tree_key,
    "reference-greedy": tree_key,
    "exact": exact_key,
    "reference-exact": exact_key,
    "partition": partition_key,
}


def describe(task: str, result: dict, n_answers: int) -> str:
    """Return a short text of one start word's result (for the progress line)."""
    if task in ("greedy-tree", "reference-greedy"):
        return f"mean {result['total'] / n_answers:.4f}, worst {result['worst']}, over {result['over']}"
    if task in ("exact", "reference-exact"):
        if result["value"] is None:
            return "impossible"
        return f"total {result['value']}" if result["exact"] else f"total >= {result['value']}"
    return ", ".join(f"{k} {v}" for k, v in result.items())


@dataclass
class Ranking:
    """The ranked results of a run over start words, and where they are stored."""

    job: Job
    rows: list[dict]
    run_dir: Path
    computed: int
    seconds: float
    candidates: int
    statement: str = ""
    files: list[Path] = field(default_factory=list)
    nodes: int = 0
    store_hits: int = 0
    subproblems: int = 0
    table: Table | None = None
    """The table written to ``TableOutput`` (exact rankings given one)."""

    def as_dict(self, top: int | None = None) -> dict:
        """Return the ranking as JSON: parameters, statement and the ``top`` rows (default all)."""
        return {
            "params": self.job.params(),
            "run_dir": str(self.run_dir),
            "candidates": self.candidates,
            "computed": self.computed,
            "seconds": round(self.seconds, 3),
            "nodes": self.nodes,
            "store_hits": self.store_hits,
            "subproblems": self.subproblems,
            "statement": self.statement,
            "results": self.rows if top is None else self.rows[:top],
        }


def _rows(job: Job, results: dict[Word, dict], positions: dict[Word, int], n_answers: int) -> list[dict]:
    """Return the results as ranked rows (rank, word, position, derived fields, result)."""
    key = KEYS[job.task]
    ordered = sorted(results.items(), key=lambda item: key(item[1], positions[item[0]]))
    rows = []
    for rank, (word, result) in enumerate(ordered, 1):
        row: dict = {"rank": rank, "word": word}
        if "value" in result:  # an exact search's total (the store's name): ``total`` in rows
            result = {("total" if k == "value" else k): v for k, v in result.items()}
            if result["exact"] and result["total"] is not None:
                row["mean"] = round(result["total"] / n_answers, 6)
        elif "total" in result:
            row["mean"] = round(result["total"] / n_answers, 6)
        rows.append({**row, **result})
    return rows


def run_ranking(pm: PatternMatrix, job: Job, words: Sequence[Word], *, run_dir: str | Path | None = None,
                scheduler: str | None = None, workers: int | None = None, batch: int | None = None,
                most: int = 64, backend: str | None = None, on_batch: OnBatch | None = None,
                threads: int | None = None, reuse: bool = True, table: TableOutput | None = None) -> Ranking:
    """Return the ranking of ``words`` by ``job``'s task, computing what the run store lacks.

    ``reuse``: exact searches start from the run store's solved subproblems (and write theirs);
    False computes each start word from scratch (the results are the same). ``table``: where the
    table of the exact totals goes: written as the run goes (``TableOutput.every``), when it is
    stopped (the finished start words) and when it ends.
    """
    start = time.perf_counter()
    if not words:
        raise GpusolveError("no start words to rank")
    units = [(w, pm.guess_index[w]) for w in words]
    path = Path(run_dir) if run_dir else default_run_dir(job.params())
    with RunStore(path, job.params()) as store:
        before = store.finished()

        def table_now() -> Table:
            return table_of(job.params(), store.results(), store.timings(), words,
                            labels=table.labels if table else None, asked=len(words), run_dir=path)

        def batch_done(done: int, total: int, rows: list) -> None:
            if on_batch:
                on_batch(done, total, rows)
            if table and table.due():
                table.write(table_now())

        try:
            computed = run_units(job, units, store, scheduler=scheduler, workers=workers, batch=batch,
                                 most=most, backend=backend, on_batch=batch_done, threads=threads,
                                 reuse=reuse)
        except KeyboardInterrupt:
            kept = len(store.finished() & {w for w, _ in units})
            written = ""
            if table:
                partial = table_now()
                table.write(partial)
                written = f"; their table ({missing_text(partial)}) is in {table.path}"
            raise KeyboardInterrupt(f"{kept:,} of {len(units):,} start words are kept in {path}{written}; "
                                    "run the same command again to resume") from None
        stored = store.results()
        nodes, hits = store.tally(set(words) - before)
        cached = store.subproblem_count()
        final = None
        if table:
            final = table_now()
            table.write(final)
    wanted = set(words)
    results = {w: r for w, r in stored.items() if w in wanted}
    rows = _rows(job, results, pm.guess_index, pm.shape[1])
    ranked = Ranking(job, rows, path, computed, time.perf_counter() - start, len(words), nodes=nodes,
                     store_hits=hits, subproblems=cached, table=final)
    if job.task in ("exact", "reference-exact"):
        ranked.statement = proof_statement(rows, len(openings(pm, job.mode)), job.cutoff)
    ranked.files = write_results(ranked)
    return ranked


def rank_trees(pm: PatternMatrix, guesses: str | None = None, answers: str | None = None, *,
               metric: str = "entropy", mode: str = "normal", max_guesses: int = 6,
               words: Sequence[Word] | None = None, task: str = "greedy-tree", free_max: int | None = None,
               **run: object) -> Ranking:
    """Return every start word (or ``words``) ranked by the greedy tree it leads to under ``metric``.

    Every allowed guess is a start word (in consistent mode: every possible answer).
    ``free_max``: consider guesses that cannot be the answer only at nodes of at most this many
    answers (default: everywhere, as the seeds do); see ``gpusolve.search.greedy``.
    """
    if task not in ("greedy-tree", "reference-greedy", "partition"):
        raise GpusolveError(f"{task!r} is not a tree task")
    job = make_job(task, pm, guesses, answers, mode, max_guesses, metric, free_max=free_max)
    if words is None:
        words = [pm.guesses[i] for i in openings(pm, mode)]
    return run_ranking(pm, job, list(words), **run)


def openings(pm: PatternMatrix, mode: str) -> np.ndarray:
    """Return the guess rows a game may open with: the answers' in consistent mode, else all."""
    return np.sort(pm.answer_rows) if mode == "consistent" else np.arange(len(pm.guesses))


def exact_candidates(pm: PatternMatrix, candidates: int | None, metric: str = "entropy",
                     mode: str = "normal") -> list[Word]:
    """Return the ``candidates`` best start words by a cheap partition metric (None: all that
    ``mode`` allows)."""
    from ..search.metrics import partition_table

    rows = openings(pm, mode)
    order = rows[ranking(partition_table(pm, guess_rows=rows), metric)]
    chosen = order if candidates is None else order[:candidates]
    return [pm.guesses[i] for i in chosen]


def rank_exact(pm: PatternMatrix, guesses: str | None = None, answers: str | None = None, *,
               mode: str = "normal", max_guesses: int = 6, cutoff: int | None = None,
               candidates: int | None = None, words: Sequence[Word] | None = None,
               metric: str = "entropy", task: str = "exact", **run: object) -> Ranking:
    """Return exact values (or proven ``>= cutoff``) for many start words, ranked, with a proof statement.

    The start words are ``words`` if given, else the ``candidates`` best by ``metric`` (all if None).
    """
    if task not in ("exact", "reference-exact"):
        raise GpusolveError(f"{task!r} is not an exact task")
    if cutoff is not None and cutoff < 1:
        raise GpusolveError(f"--cutoff must be a positive total, not {cutoff}")
    if candidates is not None and candidates < 1:
        raise GpusolveError(f"--candidates must be at least 1 (or 'all'), not {candidates}")
    job = make_job(task, pm, guesses, answers, mode, max_guesses, "", cutoff)
    # named start words: the costliest first (a cluster's workers end together); candidates by the
    # metric keep its order, so that a partial table holds the top of the final one
    chosen = exact_candidates(pm, candidates, metric, mode) if words is None else costliest_first(pm, words)
    return run_ranking(pm, job, chosen, **run)


def costliest_first(pm: PatternMatrix, words: Sequence[Word]) -> list[Word]:
    """Return ``words`` by decreasing sum of squared bucket sizes over the answers, ties in list
    order: an estimate of an exact search's cost (its largest buckets' first passes are most of it),
    so that a cluster's workers take the costly start words first and end together. Counted on
    the CPU whatever the backend (a few milliseconds: no launch of its own)."""
    from ..core.backend import CpuBackend

    if not words:
        return []
    rows = np.array([pm.guess_index[w] for w in words], np.int32)
    answers = np.arange(pm.shape[1], dtype=np.int32)
    squares = CpuBackend().set_stats(pm.codes, rows, answers, pm.game.n_patterns, pm.game.solved,
                                     (SUM_SQUARES,))[:, 0]
    return [words[i] for i in np.argsort(-squares, kind="stable")]


def proof_statement(rows: list[dict], n_guesses: int, cutoff: int | None) -> str:
    """Return what an exact ranking proves, e.g. 'the 3 best start words ..., all others >= T'."""
    exact = [r for r in rows if r["exact"] and r["total"] is not None]
    bounded = [r for r in rows if not r["exact"]]
    impossible = [r for r in rows if r["total"] is None]
    scope = "of all" if len(rows) == n_guesses else "among the"
    parts = []
    if exact:
        best = exact[0]
        parts.append(f"best start word {scope} {len(rows):,} ranked: {best['word']} (total {best['total']})")
    if cutoff is not None:
        if bounded:
            names = ", ".join(r["word"] for r in exact[:10]) + (", ..." if len(exact) > 10 else "")
            others = "the other one is" if len(bounded) == 1 else f"all {len(bounded):,} others are"
            best = "the best" if len(exact) == 1 else f"the {len(exact)} best"
            have = "has an exact total" if len(exact) == 1 else "have exact totals"
            parts.append(f"{best} ({names}) {have} below {cutoff}; {others} >= {cutoff}" if exact else
                         f"all {len(bounded):,} are >= {cutoff}")
        else:
            parts.append(f"every one has an exact total below {cutoff}")
    if impossible:
        parts.append(f"{len(impossible)} cannot find every answer within the guess limit")
    return "; ".join(parts)


def write_results(ranked: Ranking) -> list[Path]:
    """Write the whole ranking as ``ranking.json`` and ``ranking.csv`` in the run directory."""
    json_path = ranked.run_dir / "ranking.json"
    csv_path = ranked.run_dir / "ranking.csv"
    write_atomic(json_path, (json.dumps(ranked.as_dict(), indent=1) + "\n").encode())
    write_atomic(csv_path, to_csv(ranked.rows).encode())
    return [json_path, csv_path]


def to_csv(rows: list[dict]) -> str:
    """Return ranked rows as CSV (lists and dicts as JSON text)."""
    out = io.StringIO()
    names = list(dict.fromkeys(k for r in rows for k in r))
    writer = csv.DictWriter(out, fieldnames=names, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: json.dumps(v) if isinstance(v, list | dict) else v for k, v in r.items()})
    return out.getvalue()


RANKING_SUFFIXES = {".csv": "csv", ".json": "json"}
"""A ranking's layouts (``rank --by tree --output``), by the file name's suffix."""


def ranking_layout(path: str | Path) -> str:
    """Return the layout of a ranking written to ``path`` (``RANKING_SUFFIXES``; another suffix is
    refused in one line naming the layouts)."""
    return layout_by_suffix(path, RANKING_SUFFIXES, None)


def save_ranking(ranked: Ranking, path: str | Path) -> None:
    """Write the ranking to ``path``: CSV or JSON, by its suffix (``ranking_layout``)."""
    path = Path(path)
    if ranking_layout(path) == "csv":
        text = to_csv(ranked.rows)
    else:
        text = json.dumps(ranked.as_dict(), indent=1) + "\n"
    write_output(path, text.encode(), "results")

