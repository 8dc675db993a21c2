"""The whole proof: the best first guess over every candidate, as a resumable long run.

Three phases, all recorded in a run directory (``gpusolve.runs.runstore``), so that a run killed
at any moment loses at most the batch or the start word in flight, and a second run with the
same options picks up where the first stopped:

1. **First pass.** Every candidate's first-pass bound (``gpusolve.search.bounds``), in batches
   (units ``first-pass:WORD``, results ``{"bound": B}``), by increasing size bound.
   Deterministic, so fanned out like any other unit (``gpusolve.runs.fanout``), in this process
   or on a Dask cluster; batches of thousands where the GPU computes them
   (``kernels.config.FIRST_PASS_GPU_MIN_STARTS``). After the first batch, the ``keep`` start
   words of least bound so far (where the second pass runs: by second-pass bound, among the
   ``SEED_POOL`` of least first-pass bound) are searched exactly (the **seeds**, units
   ``WORD``; the next ones too while fewer than ``keep`` totals are found: a seed may find no
   strategy within the guess limit, as TRACE in hard mode): their totals give a cutoff, and
   every later scan stops once its bound reaches it (a proven ``B >= cutoff`` then). The GPU
   computes every bound whole, cutoff or not: there its later batches run beside the seeds
   (``_Ahead``) and are recorded after them.
2. **Second pass.** Where a GPU computes it (normal and consistent mode), the candidates the
   first pass leaves below the cutoff get second-pass bounds (``search.bounds.second_pass``,
   units ``second-pass:WORD``, on the bucket bounds their first pass left in this process),
   which refute most of them; the others' searches start from those bucket bounds. In this
   process it runs beside the searches, ``SECOND_PASS_CHUNK`` words at a time by rank, each word
   searched once its second-pass bound is known; on a Dask cluster, before them.
3. **Search.** The candidates whose bounds are below the cutoff, by increasing bound, each searched
   exactly against the cutoff (units ``WORD``, results as ``gpusolve.runs.units.exact_result``:
   an exact total, or a proven ``>= C``). The cutoff is one more than the ``keep``-th best
   exact total found so far (infinite before that), so every start word as good as the best
   ones gets an exact total and ties are found.

The run ends when every candidate is settled: searched, or a bound of it is at least the final
cutoff. Cutoffs only fall as better totals are found, and every bound recorded is proven (a scan
stopped at a cutoff records a proven bound at least that cutoff), so a bound recorded earlier
stays a refutation. The statement says what was proven: the best total over all the candidates,
every start word achieving it, and how the others were settled (first-pass bound, second-pass
bound or search).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from itertools import chain
from pathlib import Path

import numpy as np

from ..core.backend import gpu_phase, gpu_report, gpu_seconds, twin_cpu_seconds
from ..core.errors import GpusolveError, Infeasible
from ..core.patterns import PatternMatrix
from ..core.symmetry import opening_classes
from ..core.words import Word
from ..search.bounds import FirstPass, SecondPass, on_gpu
from ..search.plumbing import OnProgress, Progress
from .fanout import _client, run_batch, run_units
from .runstore import RunStore, default_run_dir
from .startrank import openings
from .units import Job, exact_result, make_job

FIRST = "first-pass:"
SECOND = "second-pass:"
"""Prefixes of the first-pass and second-pass units' names."""

FIRST_PASS_UNITS = 64
"""Start words whose first-pass bounds are computed (and recorded) at once on the CPU."""

SEED_POOL = 64
"""Where the second pass runs, the start words of least first-pass bound whose second-pass
bounds choose the seeds (on the defaults SALET, 7,897, instead of TRACE, 7,903)."""

Beside = Callable[[list[Word]], SecondPass]
"""What computes the second-pass bounds of some start words beside the searches."""

SECOND_PASS_CHUNK = 64
"""Start words whose second-pass bounds are computed at once beside the searches: the searches
start once the first chunk's are known, and each next chunk is computed while the searches of
the words before it run (a GPU launch of some 6,000 buckets on the defaults)."""

GPU_PASS_UNITS = 4096
"""Start words whose first-pass (or second-pass) bounds the GPU computes (and the store records)
at once: enough blocks to fill the device."""

SEED_PHASE = "seed searches"
FIRST_PASS_PHASE = "first-pass bounds"
SECOND_PASS_PHASE = "second-pass bounds"
SEARCH_PHASE = "start words searched"
"""The proof's progress phases (``Progress`` events): the seed searches, bounds per batch, then
one per search (done of done + pending, the best start word and its total so far)."""


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
    by_second_pass: int = 0
    """Candidates settled by their second-pass bound (their first-pass bound was below the cutoff)."""
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
    phases: dict = field(default_factory=dict)
    """Seconds spent in each phase by this process (seed, first_pass, second_pass, search)."""
    gpu: dict | None = None
    """Where this process's GPU time went (``core.backend.gpu_report``), with ``phases``: the
    seconds of each phase spent on the GPU, and ``counts``: what each phase gave the GPU (on the
    ``count`` backend also ``cpu_seconds``: the CPU's own work); None where nothing ran on a GPU."""

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
            seeds = f"{self.searched_now:,} seed searches done, " if self.searched_now else ""
            return (f"during the first pass, {seeds}{self.bounds_done:,} of {self.candidates:,} bounds "
                    "computed (kept); run the same command again to resume")
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
        others = self.by_first_pass + self.by_second_pass + self.by_search - len(best)
        if not others:
            return f"{which} {self.scope}: total {total:,}"
        searched = self.by_search - len(best)
        second = f"{self.by_second_pass:,} by second-pass bound, " if self.by_second_pass else ""
        return (f"{which} {self.scope}: total {total:,}; every other one needs at least {total + 1:,} "
                f"({self.by_first_pass:,} shown by first-pass bound, {second}{searched:,} by search)")

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
            "by_second_pass": self.by_second_pass,
            "by_search": self.by_search,
            "exact": self.exact,
            "statement": self.statement(),
            "proven_scope": self.proven_scope if self.complete and self.best else None,
            "seconds": round(self.seconds, 3),
            "phases": {k: round(v, 3) for k, v in self.phases.items()},
            "gpu": self.gpu,
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
                     backend: str | None = None, progress: OnProgress | None = None,
                     second_pass: bool | None = None) -> Proof:
    """Return the proven best start word(s) over every candidate (the ``candidates`` best by
    size bound if given), resuming from ``run_dir`` (default: named after the parameters).

    ``keep`` K: the K best totals are found exactly (and every start word tied with them);
    ``cutoff`` T: only totals below T are found (the others are proven ``>= T``).
    ``workers``: searches at once (threads here, or processes of a local Dask cluster when a
    ``scheduler`` is named) [default: the cores]. ``second_pass``: compute second-pass bounds
    (default: where the GPU does, in normal and consistent mode). Ctrl-C stops it cleanly: what
    is finished is kept.
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
    gpu = on_gpu(pm, pm.shape[1], GPU_PASS_UNITS)  # checks the GPU where it is asked
    if second_pass is None:
        second_pass = pm.backend.gpu_path()  # after the check: not where auto found no GPU
    second_pass = second_pass and mode != "hard"  # hard mode has none
    path = Path(run_dir) if run_dir else default_run_dir(job.params())
    memo_mb = memo_mb or DEFAULT_MEMO_MB
    with RunStore(path, job.params()) as store:
        search = _Search(pm, job, store, words, rows, keep, progress, second_pass)
        clock = _Clock(pm.backend)
        try:
            batch = GPU_PASS_UNITS if gpu else FIRST_PASS_UNITS
            with clock("first_pass"):
                _first_pass(search, words[:batch], None, batch, scheduler, workers, backend)
            ahead = None
            try:
                with clock("seed"):
                    if second_pass:  # the seeds by second-pass bound: a better pick
                        search.second_pass(sorted(search.bound, key=search.rank)[:SEED_POOL])
                    # the GPU's first pass needs no cutoff: the rest of it runs beside the seeds
                    ahead = _Ahead(search, words, batch) if gpu and not scheduler else None
                    while search.seed():  # until a total is known: a seed may find no strategy at all
                        search.run(workers, scheduler, backend, memo_mb)
            except BaseException:
                if ahead:
                    ahead.cancel()
                raise
            with clock("first_pass"):
                _first_pass(search, words, search.cutoff(), batch, scheduler, workers, backend,
                            ahead.batches() if ahead else [])
            beside = None
            if second_pass and scheduler:  # before the searches on the cluster
                with clock("second_pass"):
                    search.second_pass()
            elif second_pass:  # beside the searches here
                beside = clock.beside("second_pass", search.second_bounds)
            with clock("search"):
                search.lead()  # the most promising ones first, with every thread: a low cutoff
                search.run(workers, scheduler, backend, memo_mb, beside)
                search.follow()
                search.run(workers, scheduler, backend, memo_mb, beside)
        except KeyboardInterrupt:
            if len(search.bound) < len(words):
                done = sum(1 for u in store.finished() if u.startswith(FIRST))
                return Proof(job, path, len(words), {}, 0, 0, complete=False,
                             seconds=time.perf_counter() - started, searched_now=search.searched_now,
                             bounds_done=done, first_guesses=every, classes=classes, phases=clock.seconds,
                             gpu=clock.report())
            search.complete = False
        return replace(search.proof(path, time.perf_counter() - started), first_guesses=every,
                       classes=classes, phases=clock.seconds, gpu=clock.report())


class _Clock:
    """Seconds spent in each named phase, and of them on the GPU through ``backend`` where it has
    one (``gpu``; what each phase gives the GPU is counted under its name: ``GpuClock.counts``):
    ``with clock("name"): ...``. On the ``count`` backend, ``cpu``: the process's CPU seconds in
    each phase but those of the twins' launches (the work the GPU path leaves to the CPU; not
    measured for a phase run beside another)."""

    def __init__(self, backend) -> None:
        self.backend = backend
        self.seconds: dict[str, float] = {}
        self.gpu: dict[str, float] = {}
        self.cpu: dict[str, float] = {}

    @contextmanager
    def __call__(self, phase: str, beside: bool = False):
        started, on_gpu = time.perf_counter(), gpu_seconds(self.backend)
        cpu, twins = time.process_time(), twin_cpu_seconds(self.backend)
        try:
            with gpu_phase(self.backend, phase, beside):
                yield
        finally:
            self.seconds[phase] = self.seconds.get(phase, 0.0) + time.perf_counter() - started
            if on_gpu is not None:
                self.gpu[phase] = self.gpu.get(phase, 0.0) + gpu_seconds(self.backend) - on_gpu
            if twins is not None and not beside:
                spent = time.process_time() - cpu - (twin_cpu_seconds(self.backend) - twins)
                self.cpu[phase] = self.cpu.get(phase, 0.0) + spent

    def beside(self, phase: str, work: Callable) -> Callable:
        """Return ``work`` timed as ``phase`` on whichever thread calls it (a phase run beside
        another: its seconds overlap the other's)."""
        self.seconds.setdefault(phase, 0.0)
        if gpu_seconds(self.backend) is not None:
            self.gpu.setdefault(phase, 0.0)

        def timed(*args):
            with self(phase, beside=True):
                return work(*args)

        return timed

    def report(self) -> dict | None:
        """Return ``gpu_report`` of the backend with the GPU seconds of each phase, or None."""
        found = gpu_report(self.backend)
        if found is None:
            return None
        for phase, spent in self.cpu.items():
            found["counts"].setdefault(phase, {})["cpu_seconds"] = round(spent, 3)
        return {**found, "phases": {k: round(v, 4) for k, v in self.gpu.items()}}


def _first_pass(search: _Search, words: list[Word], cutoff: int | None, batch: int, scheduler: str | None,
                workers: int, backend: str | None, ahead: list[Batch] = ()) -> None:
    """Compute the first-pass bounds of ``words`` the store lacks (each scan stopped once its bound
    reaches ``cutoff``), ``batch`` at a time, in this process (after recording those computed
    ``ahead``) or on the Dask cluster, and hand every bound recorded to the search."""
    pm, store = search.pm, search.store
    units = [(FIRST + w, search.position[w]) for w in words]
    job = replace(search.job, task="first-pass", cutoff=cutoff)

    def on_batch(done: int, total: int, _rows: list) -> None:
        if search.progress:
            search.progress(Progress(FIRST_PASS_PHASE, done, total))

    if scheduler:
        run_units(job, units, store, scheduler=scheduler, workers=workers, batch=batch, backend=backend,
                  on_batch=on_batch, reuse=False)
    else:
        _first_pass_here(pm, job, store, units, on_batch, batch, search.keep_whole, ahead)
    found = store.results()
    search.set_bounds({w: int(found[FIRST + w]["bound"]) for w in search.words if FIRST + w in found})


def _first_pass_here(pm: PatternMatrix, job: Job, store: RunStore, units: list[tuple[str, int]],
                     on_batch: Callable[[int, int, list], None], batch: int,
                     keep: Callable[[list[Word], FirstPass], None], ahead: list[Batch] = ()) -> None:
    """Compute the first-pass bounds the store lacks, a batch at a time, in this process (the
    batches computed ``ahead`` are recorded first), and hand each batch's first pass to ``keep``
    (its start words, their ``FirstPass``)."""
    from .units import first_pass_results

    done = store.finished()
    finished = sum(1 for u in units if u[0] in done)
    done |= {u for chunk, _ in ahead for u, _ in chunk}
    on_batch(finished, len(units), [])
    for chunk, first in chain(ahead, _first_passes(pm, job, [u for u in units if u[0] not in done], batch)):
        store.save([(u, r, res) for (u, r), res in zip(chunk, first_pass_results(first))])
        keep([u[len(FIRST):] for u, _ in chunk], first)
        finished += len(chunk)
        on_batch(finished, len(units), [])


Batch = tuple[list[tuple[str, int]], FirstPass]
"""First-pass units (name, guess row) and their first pass."""


def _first_passes(pm: PatternMatrix, job: Job, units: list[tuple[str, int]], batch: int,
                  stop: threading.Event | None = None):
    """Yield each ``batch`` of ``units`` with its first pass (scans stopped at the job's cutoff),
    until ``stop`` is set."""
    from ..search.bounds import start_first_pass

    for i in range(0, len(units), batch):
        if stop is not None and stop.is_set():
            return
        chunk = units[i:i + batch]
        rows = np.array([r for _, r in chunk], np.int32)
        yield chunk, start_first_pass(pm, job.mode, job.max_guesses, rows, job.cutoff)


class _Ahead:
    """The first-pass batches the GPU computes, on a thread of their own beside the seeds' searches
    (the GPU computes every bound whole, cutoff or not: they need not wait for the seeds'
    totals); the main thread records them after the seeds (``batches``)."""

    def __init__(self, search: _Search, words: list[Word], batch: int) -> None:
        pm, done = search.pm, search.store.finished()
        units = [(FIRST + w, search.position[w]) for w in words if FIRST + w not in done]
        if not on_gpu(pm, pm.shape[1], len(units) % batch or batch):
            units = units[:len(units) // batch * batch]  # a last batch too small for the GPU: after, cut off
        self.stop = threading.Event()
        # no cutoff: the GPU ignores it, and with one a busy GPU would send a batch to the CPU
        job = replace(search.job, task="first-pass", cutoff=None)
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="gpusolve-ahead")
        self.future = self.pool.submit(self._compute, pm, job, units, batch)
        self.pool.shutdown(wait=False)

    def _compute(self, pm: PatternMatrix, job: Job, units: list[tuple[str, int]], batch: int) -> list[Batch]:
        """Return the batches of ``units`` with their first passes (counted as the first pass's)."""
        with gpu_phase(pm.backend, "first_pass", beside=True):
            return list(_first_passes(pm, job, units, batch, self.stop))

    def batches(self) -> list[Batch]:
        """Return the batches computed (waiting for them)."""

        return self.future.result()

    def cancel(self) -> None:
        """Stop after the batch under way, and wait for it."""
        self.stop.set()
        self.future.exception()


class _Search:
    """The seeds, then the candidates not refuted by their bounds, searched by increasing bound."""

    def __init__(self, pm: PatternMatrix, job: Job, store: RunStore, words: list[Word], rows: np.ndarray,
                 keep: int, progress: OnProgress | None, second_pass: bool) -> None:
        self.pm, self.job, self.store, self.keep, self.progress = pm, job, store, keep, progress
        self.words = words
        self.position = dict(zip(words, (int(r) for r in rows)))
        self.results = {w: r for w, r in store.results().items() if w in self.position}
        self.second = {w[len(SECOND):]: int(r["bound"]) for w, r in store.results().items()
                       if w.startswith(SECOND)}
        """Second-pass bounds of start words (recorded in the store)."""
        self.buckets: dict[Word, np.ndarray] = {}
        """Second-pass bucket bounds computed in this process, handed to the words' searches."""
        self.whole: dict[Word, np.ndarray] | None = {} if second_pass else None
        """Where the second pass runs: bucket bounds of first passes this process ran to their end
        (those below the cutoff, the only ones the second pass takes), handed to it."""
        self.bound: dict[Word, int] = {}
        """First-pass bounds known so far."""
        self.queue: list[Word] = []
        """The words to search, in order: the seeds, then every candidate by increasing bound."""
        self.phase = SEED_PHASE
        """What the searches under way are (the progress phase they report)."""
        self.searched_now = 0
        self.second_now = 0
        """Second-pass bounds computed by this process."""
        self.complete = False
        self.memos: dict = {}
        """Start word -> ``Options`` holding the memo tables its search left (``Proof.memos``)."""

    def rank(self, word: Word) -> tuple[int, int]:
        """Return the order of ``word`` in the queue: its best bound known, then its place."""
        return max(self.bound.get(word, 0), self.second.get(word, 0)), self.position[word]

    def set_bounds(self, bound: dict[Word, int]) -> None:
        """Take the first-pass bounds known; once every candidate has one, every candidate joins
        the queue, by increasing bound."""
        self.bound = bound
        if len(bound) == len(self.words):
            self.follow()

    def seed(self) -> bool:
        """Queue the next seeds while fewer than ``keep`` exact totals are known: as many of the
        words of least first-pass bound known so far, neither searched nor refuted yet (a word no
        strategy finishes gives no total: the next one is searched); return whether any was."""
        cut = self.cutoff()
        missing = self.keep - len(self.exact())
        self.queue = [w for w in sorted(self.bound, key=self.rank)
                      if w not in self.results and not self.refuted(w, cut)][:max(0, missing)]
        self.phase = SEED_PHASE
        return bool(self.queue)

    def lead(self) -> None:
        """Queue the ``keep`` pending words of least bound alone (searched with every thread)."""
        self.follow()
        self.queue = self.pending()[:self.keep]

    def follow(self) -> None:
        """Queue every candidate, by increasing bound."""
        self.queue = sorted(self.words, key=self.rank)
        self.phase = SEARCH_PHASE

    def exact_words(self) -> list[Word]:
        """Return the words with an exact total found."""
        return [w for w, r in self.results.items() if r["exact"] and r["value"] is not None]

    def exact(self) -> list[int]:
        """Return the exact totals found, in increasing order."""
        return sorted(r["value"] for r in self.results.values() if r["exact"] and r["value"] is not None)

    def cutoff(self) -> int | None:
        """Return the cutoff of the next search: one more than the ``keep``-th best exact total
        (or the job's cutoff, if lower)."""
        exact = self.exact()
        found = exact[self.keep - 1] + 1 if len(exact) >= self.keep else None
        return min((c for c in (found, self.job.cutoff) if c is not None), default=None)

    def refuted(self, word: Word, cut: int | None) -> str | None:
        """Return which bound shows ``word`` is not below the cutoff ``cut`` ("first", "second"),
        or None."""
        if cut is None:
            return None
        if self.bound.get(word, 0) >= cut:
            return "first"
        return "second" if self.second.get(word, 0) >= cut else None

    def pending(self) -> list[Word]:
        """Return the words of the queue still to search."""
        cut = self.cutoff()
        return [w for w in self.queue if w not in self.results and not self.refuted(w, cut)]

    def keep_whole(self, words: list[Word], first: FirstPass) -> None:
        """Keep the bucket bounds of the start ``words`` whose ``first`` pass ran to its end and
        is below the cutoff (where the second pass runs); forget those kept at or above it."""
        if self.whole is None:
            return
        cut = self.cutoff()
        for j, word in enumerate(words):
            if first.complete(j) and (cut is None or first.totals[j] < cut):
                self.whole[word] = first.buckets[j]
        if cut is not None:
            self.whole = {w: b for w, b in self.whole.items() if self.bound.get(w, 0) < cut}

    def second_pass(self, words: list[Word] | None = None) -> None:
        """Compute the second-pass bounds the store lacks of ``words`` (default: those the first
        pass leaves below the cutoff), a GPU launch's worth at a time, and keep their bucket bounds
        for their searches."""
        todo = [w for w in (self.pending() if words is None else words) if w not in self.second]
        if self.progress:
            self.progress(Progress(SECOND_PASS_PHASE, self.second_now, self.second_now + len(todo)))
        for i in range(0, len(todo), GPU_PASS_UNITS):
            chunk = todo[i:i + GPU_PASS_UNITS]
            self.take_second(chunk, self.second_bounds(chunk), len(todo) - i - len(chunk))

    def lacking(self, busy: set[Word]) -> list[Word]:
        """Return the candidates still to settle that have no second-pass bound, by rank (not those
        ``busy``: being searched)."""
        cut = self.cutoff()
        return sorted((w for w in self.words if w not in self.results and w not in self.second
                       and w not in busy and not self.refuted(w, cut)), key=self.rank)

    def second_bounds(self, words: list[Word]) -> SecondPass:
        """Return the second pass of the start ``words`` (on the whole first passes kept here, the
        others computed): no store or state changes, so that it may run beside the searches."""
        from ..search.bounds import start_second_pass

        rows = np.array([self.position[w] for w in words], np.int32)
        known = {self.position[w]: self.whole[w] for w in words if w in (self.whole or {})}
        return start_second_pass(self.pm, self.job.mode, self.job.max_guesses, rows, known)

    def take_second(self, words: list[Word], second: SecondPass, left: int) -> None:
        """Keep the second-pass bounds of ``words`` in the store and here, their bucket bounds for
        their searches (``left``: how many second-pass bounds are still to compute, for progress)."""
        self.store.save([(SECOND + w, self.position[w], {"bound": int(t)})
                         for w, t in zip(words, second.totals)])
        for j, w in enumerate(words):
            self.second[w] = int(second.totals[j])
            self.buckets[w] = second.buckets[j]
            if self.whole:
                self.whole.pop(w, None)
        self.second_now += len(words)
        if self.progress:
            self.progress(Progress(SECOND_PASS_PHASE, self.second_now, self.second_now + left))

    def record(self, word: Word, result: dict, nodes: int = 0) -> None:
        """Keep a finished search in the store and here."""
        self.store.save([(word, self.position[word], result)], counts=[(nodes, 0)])
        self.results[word] = result
        self.searched_now += 1
        if self.progress:
            best = min(((r["value"], self.position[w], w) for w, r in self.results.items()
                        if r["exact"] and r["value"] is not None), default=None)
            self.progress(Progress(self.phase, self.searched_now, self.searched_now + len(self.pending()),
                                   "" if best is None else f"best {best[2]} ({best[0]:,})"))

    def run(self, workers: int, scheduler: str | None, backend: str | None, memo_mb: int,
            beside: Beside | None = None) -> None:
        """Search every pending word (in this process, or on the Dask cluster at ``scheduler``).
        ``beside`` (in this process): it computes the second-pass bounds of start words, which
        are then computed beside the searches, ``SECOND_PASS_CHUNK`` words at a time by rank,
        each word searched only once its second-pass bound is known (and does not refute it)."""
        if scheduler:
            self._run_dask(workers, scheduler, backend)
        else:
            self._run_here(workers, memo_mb, beside)
        self.complete = not self.pending()

    def settled(self) -> tuple[int, int, int]:
        """Return (candidates settled by their first-pass bound, by their second-pass bound, by a
        search)."""
        cut = self.cutoff()
        how = [self.refuted(w, cut) for w in self.queue if w not in self.results]
        return how.count("first"), how.count("second"), sum(1 for w in self.queue if w in self.results)

    def _run_here(self, workers: int, memo_mb: int, beside: Beside | None) -> None:
        from ..search.memo import MemoPool
        from ..search.optimal import Options, Question, solve
        from ..search.plumbing import Budget

        stop = Budget(None)  # shared: Ctrl-C here stops every worker's search
        # fewer words than threads (the code games' few classes of first guesses): each search
        # gets several threads of its own
        inner = max(1, workers // max(1, len(self.pending())))
        workers = max(1, workers // inner)
        # one memo pool more than searches at once: the best word's is never taken by another
        # search, so that its tree is read from it (not searched again)
        free = [MemoPool() for _ in range(workers + 1)]
        lock = threading.Lock()
        per_search = max(1, memo_mb // (workers + 1))

        def one(word: Word, cutoff: int | None) -> tuple[dict | None, int]:
            with lock:
                best = min(self.exact_words(), key=lambda w: self.results[w]["value"], default=None)
                kept = self.memos[best].memos if best in self.memos else None
                tables = free.pop(next(i for i in range(len(free) - 1, -1, -1) if free[i] is not kept))
                for w in [w for w, o in self.memos.items() if o.memos is tables]:
                    del self.memos[w]  # those tables are about to hold another word's search
            row = self.position[word]
            known = {row: self.buckets[word]} if word in self.buckets else None
            options = Options(memo_mb=per_search, workers=inner, memos=tables, bucket_bounds=known)
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

        with ThreadPoolExecutor(max_workers=workers) as pool, ThreadPoolExecutor(max_workers=1) as aside:
            running: dict = {}
            second, chunk = None, []  # the second-pass bounds being computed beside, of those words
            try:
                while True:
                    busy = set(running.values())
                    todo = self.pending()
                    for word in todo:
                        if len(running) >= workers:
                            break
                        if word not in busy and (beside is None or word in self.second):
                            running[pool.submit(one, word, self.cutoff())] = word
                            busy.add(word)
                    if beside is not None and second is None and (running or todo):
                        chunk = self.lacking(busy)[:SECOND_PASS_CHUNK]
                        second = aside.submit(beside, chunk) if chunk else None
                    if not running and second is None:
                        return
                    done, _ = wait([*running, *([second] if second else [])], return_when=FIRST_COMPLETED)
                    for fut in done:
                        if fut is second:
                            self.take_second(chunk, fut.result(), len(self.lacking(busy)) - len(chunk))
                            second = None
                            continue
                        word = running.pop(fut)
                        result, nodes = fut.result()
                        if result is not None:
                            self.record(word, result, nodes)
            except BaseException:
                stop.interrupt()
                for fut in [*running, *([second] if second else [])]:
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
        by_first, by_second, by_search = self.settled()
        return Proof(self.job, path, len(self.words), ranked, by_first, by_search, by_second, self.complete,
                     seconds, self.searched_now, memos=self.memos)
