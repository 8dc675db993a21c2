"""The whole proof: the best first guess over every candidate, as a resumable long run.

Two phases, both recorded in a run directory (``gpusolve.runs.runstore``), so that a run killed
at any moment loses at most the batch or the start word in flight, and a second run with the
same options picks up where the first stopped:

1. **First pass.** Every candidate's first-pass bound (``gpusolve.search.bounds``), in batches
   (units ``first-pass:WORD``, results ``{"bound": B}``). Deterministic, so fanned out like any
   other unit (``gpusolve.runs.fanout``), in this process or on a Dask cluster.
2. **Search.** The candidates whose bound is below the cutoff, by increasing bound, each searched
   exactly against the cutoff (units ``WORD``, results as ``gpusolve.runs.units.exact_result``:
   an exact total, or a proven ``>= C``). The cutoff is one more than the ``keep``-th best
   exact total found so far (infinite before that), so every start word as good as the best
   ones gets an exact total and ties are found.

The run ends when every candidate is settled: searched, or its first-pass bound is at least the
final cutoff. Cutoffs only fall as better totals are found, so a bound recorded earlier stays a
refutation. The statement says what was proven: the best total over all the candidates, every
start word achieving it, and how the others were settled (first-pass bound or search).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ..core.errors import GpusolveError, Infeasible
from ..core.patterns import PatternMatrix
from ..core.symmetry import opening_classes
from ..core.words import Word
from ..search.plumbing import OnProgress, Progress
from .fanout import _client, run_batch, run_units
from .runstore import RunStore, default_run_dir
from .startrank import openings
from .units import Job, exact_result, make_job

FIRST = "first-pass:"
"""Prefix of the first-pass units' names."""

FIRST_PASS_UNITS = 64
"""Start words whose first-pass bounds are computed (and recorded) at once."""

FIRST_PASS_PHASE = "first-pass bounds"
SEARCH_PHASE = "start words searched"
"""The proof's progress phases (``Progress`` events): bounds per batch, then one per search
(done of done + pending, the best start word and its total so far)."""


@dataclass
class Proof:
    """What a proof run established (or, interrupted, how far it got)."""

    job: Job
    run_dir: Path
    candidates: int
    exact: dict[Word, int]
    """Every exact total found, best first (the best ones, every start word tied with them, and
    those searched exactly on the way)."""
    by_first_pass: int
    """Candidates settled by their first-pass bound alone."""
    by_search: int
    """Candidates settled by a search (an exact total, or a proven bound)."""
    complete: bool = True
    seconds: float = 0.0
    searched_now: int = 0
    bounds_done: int | None = None
    """Interrupted during the first pass: the first-pass bounds computed so far."""
    first_guesses: int = 0
    """Every first guess the game allows."""
    classes: bool = False
    """Whether the candidates are one first guess per class under the game's symmetries
    (``gpusolve.core.symmetry``): each stands for its symmetric images too."""
    memos: dict = field(default_factory=dict, repr=False)
    """Start word -> ``Options`` of a search reusing the memo its search in this process left
    (where no other word's search has taken those tables since): its tree is then read from it."""

    @property
    def best(self) -> list[tuple[Word, int]]:
        """Return the start words with the least exact total, each with it (several on a tie)."""
        least = min(self.exact.values(), default=None)
        return [(w, t) for w, t in self.exact.items() if t == least]

    @property
    def scope(self) -> str:
        """Return which candidates the proof covers, e.g. 'of all 12,972 first guesses'."""
        if self.job.candidates is None and self.classes:
            return (f"of all {self.first_guesses:,} first guesses ({self.candidates:,} up to the game's "
                    "symmetries, one searched per class)")
        if self.job.candidates is None:
            return f"of all {self.candidates:,} first guesses"
        every = self.job.n_answers if self.job.mode == "consistent" else self.job.n_guesses
        among = " of one per class under the game's symmetries" if self.classes else ""
        return (f"of the {self.candidates:,} candidates tried (the best by size bound{among}), not of all "
                f"{every:,} first guesses")

    @property
    def proven_scope(self) -> str:
        """Return what the best total is proven best among (as ``optimal-tree --json`` says it)."""
        if self.job.candidates is None:
            return "the best of all first guesses"
        return f"the best {self.scope}"

    def statement(self) -> str:
        """Return what the run proves, in one sentence."""
        best = self.best
        settled = self.by_first_pass + self.by_search
        if self.bounds_done is not None:
            return (f"during the first pass, {self.bounds_done:,} of {self.candidates:,} bounds computed "
                    "(kept); run the same command again to resume")
        if not self.complete:
            so_far = f"; best so far {best[0][0]} ({best[0][1]:,})" if best else ""
            return (f"{settled:,} of {self.candidates:,} candidates settled{so_far} (kept); "
                    "run the same command again to resume")
        if not best and self.job.cutoff is not None:
            return f"no start word {self.scope} has a total below {self.job.cutoff:,}"
        if not best:
            return "no start word finds every answer within the guess limit"
        total = best[0][1]
        names = ", ".join(w for w, _ in best)
        if self.classes:
            names += " (and its symmetric images)" if len(best) == 1 else " (and their symmetric images)"
        which = f"{names} is the best start word" if len(best) == 1 else f"{names} tie as the best"
        others = self.by_first_pass + self.by_search - len(best)
        if not others:
            return f"{which} {self.scope}: total {total:,}"
        searched = self.by_search - len(best)
        return (f"{which} {self.scope}: total {total:,}; every other one needs at least {total + 1:,} "
                f"({self.by_first_pass:,} shown by first-pass bound, {searched:,} by search)")

    def as_dict(self) -> dict:
        """Return the proof as JSON."""
        best = self.best
        return {
            "params": self.job.params(),
            "run_dir": str(self.run_dir),
            "complete": self.complete,
            "candidates": self.candidates,
            "first_guesses": self.first_guesses,
            "best": [{"guess": w, "total": t} for w, t in best],
            "others_at_least": best[0][1] + 1 if best and self.complete else None,
            "by_first_pass": self.by_first_pass,
            "by_search": self.by_search,
            "exact": self.exact,
            "statement": self.statement(),
            "proven_scope": self.proven_scope if self.complete and self.best else None,
            "seconds": round(self.seconds, 3),
        }


def proof_job(pm: PatternMatrix, guesses: str | None, answers: str | None, mode: str, max_guesses: int,
              candidates: int | None) -> Job:
    """Return the job of a proof (its parameters name the run directory)."""
    job = make_job("first-pass", pm, guesses, answers, mode, max_guesses, "")
    return replace(job, task="proof", candidates=candidates)


def prove_best_start(pm: PatternMatrix, guesses: str | None = None, answers: str | None = None, *,
                     mode: str = "normal", max_guesses: int = 6, candidates: int | None = None,
                     keep: int = 1, cutoff: int | None = None, run_dir: str | Path | None = None,
                     scheduler: str | None = None, workers: int | None = None, memo_mb: int | None = None,
                     backend: str | None = None, progress: OnProgress | None = None) -> Proof:
    """Return the proven best start word(s) over every candidate (the ``candidates`` best by
    size bound if given), resuming from ``run_dir`` (default: named after the parameters).

    ``keep`` K: the K best totals are found exactly (and every start word tied with them);
    ``cutoff`` T: only totals below T are found (the others are proven ``>= T``).
    ``workers``: searches at once (threads here, or processes of a local Dask cluster when a
    ``scheduler`` is named) [default: the cores]. Ctrl-C stops it cleanly: what is finished is kept.
    """
    from ..search.bounds import guess_table, size_bound
    from ..search.defaults import DEFAULT_MEMO_MB

    started = time.perf_counter()
    if cutoff is not None and cutoff < 1:
        raise GpusolveError(f"--cutoff must be a positive total, not {cutoff}")
    job = replace(proof_job(pm, guesses, answers, mode, max_guesses, candidates), cutoff=cutoff)
    rows = openings(pm, mode)
    every = len(rows)
    rows = opening_classes(pm, rows)  # one per class where the game's symmetries allow
    classes = len(rows) < every
    alive = np.arange(pm.shape[1], dtype=np.int32)
    table = guess_table(pm, alive, rows)
    sizes = size_bound(pm, alive, rows, int((table[:, 0] + table[:, 1]).max()), max_guesses - 1)
    order = np.lexsort((rows, table[:, 2], sizes))
    if candidates is not None:
        if candidates < 1:
            raise GpusolveError("--candidates must be at least 1")
        order = order[:candidates]
    rows = rows[order]
    words = [pm.guesses[r] for r in rows]
    workers = max(1, os.cpu_count() or 1) if workers is None else workers
    if workers < 1:
        raise GpusolveError(f"--workers must be at least 1, not {workers}")
    path = Path(run_dir) if run_dir else default_run_dir(job.params())
    with RunStore(path, job.params()) as store:
        fp_units = [(FIRST + w, int(r)) for w, r in zip(words, rows)]

        def on_batch(done: int, total: int, _rows: list) -> None:
            if progress:
                progress(Progress(FIRST_PASS_PHASE, done, total))

        search = None
        try:
            if scheduler:
                run_units(replace(job, task="first-pass"), fp_units, store, scheduler=scheduler,
                          workers=workers, batch=FIRST_PASS_UNITS, backend=backend, on_batch=on_batch,
                          reuse=False)
            else:
                _first_pass_here(pm, job, store, fp_units, on_batch)
            found = store.results()
            bound = {w: int(found[FIRST + w]["bound"]) for w in words}
            search = _Search(pm, job, store, words, rows, bound, keep, progress)
            search.run(workers, scheduler, backend, memo_mb or DEFAULT_MEMO_MB)
        except KeyboardInterrupt:
            if search is None:
                done = sum(1 for u in store.finished() if u.startswith(FIRST))
                return Proof(job, path, len(words), {}, 0, 0, False, time.perf_counter() - started,
                             bounds_done=done, first_guesses=every, classes=classes)
            search.complete = False
        return replace(search.proof(path, time.perf_counter() - started), first_guesses=every,
                       classes=classes)


def _first_pass_here(pm: PatternMatrix, job: Job, store: RunStore, units: list[tuple[str, int]],
                     on_batch: Callable[[int, int, list], None]) -> None:
    """Compute the first-pass bounds the store lacks, a batch at a time, in this process."""
    from .units import first_pass_unit

    done = store.finished()
    todo = [u for u in units if u[0] not in done]
    finished = len(units) - len(todo)
    on_batch(finished, len(units), [])
    for i in range(0, len(todo), FIRST_PASS_UNITS):
        chunk = todo[i:i + FIRST_PASS_UNITS]
        results = first_pass_unit(pm, job, [r for _, r in chunk], None)
        store.save([(u, r, res) for (u, r), res in zip(chunk, results)])
        finished += len(chunk)
        on_batch(finished, len(units), [])


class _Search:
    """Phase 2: the candidates not refuted by their bound, searched by increasing bound."""

    def __init__(self, pm: PatternMatrix, job: Job, store: RunStore, words: list[Word], rows: np.ndarray,
                 bound: dict[Word, int], keep: int, progress: OnProgress | None) -> None:
        self.pm, self.job, self.store, self.keep, self.progress = pm, job, store, keep, progress
        self.position = dict(zip(words, (int(r) for r in rows)))
        self.bound = bound
        self.results = {w: r for w, r in store.results().items() if w in self.position}
        self.queue = sorted(words, key=lambda w: (bound[w], self.position[w]))
        self.searched_now = 0
        self.complete = False
        self.memos: dict = {}
        """Start word -> ``Options`` holding the memo tables its search left (``Proof.memos``)."""

    def exact(self) -> list[int]:
        """Return the exact totals found, in increasing order."""
        return sorted(r["value"] for r in self.results.values() if r["exact"] and r["value"] is not None)

    def cutoff(self) -> int | None:
        """Return the cutoff of the next search: one more than the ``keep``-th best exact total
        (or the job's cutoff, if lower)."""
        exact = self.exact()
        found = exact[self.keep - 1] + 1 if len(exact) >= self.keep else None
        return min((c for c in (found, self.job.cutoff) if c is not None), default=None)

    def pending(self) -> list[Word]:
        """Return the words still to search, by increasing bound."""
        cut = self.cutoff()
        return [w for w in self.queue if w not in self.results and (cut is None or self.bound[w] < cut)]

    def record(self, word: Word, result: dict, nodes: int = 0) -> None:
        """Keep a finished search in the store and here."""
        self.store.save([(word, self.position[word], result)], counts=[(nodes, 0)])
        self.results[word] = result
        self.searched_now += 1
        if self.progress:
            best = min(((r["value"], self.position[w], w) for w, r in self.results.items()
                        if r["exact"] and r["value"] is not None), default=None)
            self.progress(Progress(SEARCH_PHASE, self.searched_now, self.searched_now + len(self.pending()),
                                   "" if best is None else f"best {best[2]} ({best[0]:,})"))

    def run(self, workers: int, scheduler: str | None, backend: str | None, memo_mb: int) -> None:
        """Search every pending word (in this process, or on the Dask cluster at ``scheduler``)."""
        if scheduler:
            self._run_dask(workers, scheduler, backend)
        else:
            self._run_here(workers, memo_mb)
        self.complete = not self.pending()

    def settled(self) -> tuple[int, int]:
        """Return (candidates settled by their first-pass bound, by a search)."""
        cut = self.cutoff()
        by_search = sum(1 for w in self.queue if w in self.results)
        by_bound = sum(1 for w in self.queue
                       if w not in self.results and cut is not None and self.bound[w] >= cut)
        return by_bound, by_search

    def _run_here(self, workers: int, memo_mb: int) -> None:
        from ..search.memo import MemoPool
        from ..search.optimal import Options, Question, solve
        from ..search.plumbing import Budget

        stop = Budget(None)  # shared: Ctrl-C here stops every worker's search
        # fewer words than threads (the code games' few classes of first guesses): each search
        # gets several threads of its own
        inner = max(1, workers // max(1, len(self.pending())))
        workers = max(1, workers // inner)
        free = [MemoPool() for _ in range(workers)]
        lock = threading.Lock()
        per_search = max(1, memo_mb // workers)

        def one(word: Word, cutoff: int | None) -> tuple[dict | None, int]:
            with lock:
                tables = free.pop()
                for w in [w for w, o in self.memos.items() if o.memos is tables]:
                    del self.memos[w]  # those tables are about to hold another word's search
            options = Options(memo_mb=per_search, workers=inner, memos=tables)
            try:
                try:
                    question = Question(start=word, mode=self.job.mode, max_guesses=self.job.max_guesses,
                                        cutoff=cutoff, tree=False)
                    res = solve(self.pm, question, replace(options, budget=stop))
                    with lock:
                        self.memos[word] = options
                except Infeasible:
                    return {"value": None, "exact": True}, 0
                if res.interrupted:
                    return None, res.nodes
                if res.total is None:
                    return exact_result(int(cutoff), False, cutoff), res.nodes
                return exact_result(int(res.total), True, cutoff), res.nodes
            finally:
                with lock:
                    free.append(tables)

        with ThreadPoolExecutor(max_workers=workers) as pool:
            running: dict = {}
            try:
                while True:
                    busy = set(running.values())
                    for word in self.pending():
                        if len(running) >= workers:
                            break
                        if word not in busy:
                            running[pool.submit(one, word, self.cutoff())] = word
                            busy.add(word)
                    if not running:
                        return
                    done, _ = wait(list(running), return_when=FIRST_COMPLETED)
                    for fut in done:
                        word = running.pop(fut)
                        result, nodes = fut.result()
                        if result is not None:
                            self.record(word, result, nodes)
            except BaseException:
                stop.interrupt()
                for fut in running:
                    fut.exception()
                raise

    def _run_dask(self, workers: int, scheduler: str, backend: str | None) -> None:
        from distributed import as_completed

        with _client(scheduler, workers) as client:
            n = max(1, len(client.scheduler_info()["workers"]))
            running = as_completed([])
            in_flight: dict = {}

            def fill() -> None:
                for word in self.pending():
                    if len(in_flight) >= 2 * n:
                        return
                    if word not in in_flight.values():
                        job = replace(self.job, task="exact", cutoff=self.cutoff(), candidates=None)
                        fut = client.submit(run_batch, job, [(word, self.position[word])], backend, 1, None,
                                            True, pure=False, key=f"proof-{word}-{time.time_ns()}")
                        in_flight[fut] = word
                        running.add(fut)

            fill()
            for fut in running:
                word = in_flight.pop(fut)
                out = fut.result()
                (_, _, result), = out.results
                self.record(word, result, out.counts[0][0] if out.counts else 0)
                fill()

    def proof(self, path: Path, seconds: float) -> Proof:
        """Return what the search established."""
        exact = {w: r["value"] for w, r in self.results.items() if r["exact"] and r["value"] is not None}
        ranked = dict(sorted(exact.items(), key=lambda x: (x[1], self.position[x[0]])))
        by_bound, by_search = self.settled()
        return Proof(self.job, path, len(self.queue), ranked, by_bound, by_search, self.complete, seconds,
                     self.searched_now, memos=self.memos)
