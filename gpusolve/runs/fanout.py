"""Fan-out of a run's units: batches of start words as Dask tasks (or in-process), results into the store.

* ``scheduler="tcp://HOST:PORT"`` connects to an existing Dask distributed cluster;
* otherwise ``workers=N`` (default: the number of cores) starts a ``LocalCluster`` of N worker
  processes, one thread each, and ``workers=0`` runs every batch in this process; so does the
  default when fewer units are left than cores (a worker each would leave cores idle: here every
  unit's search uses all of them).

Each task computes one batch of start words (so a worker loads the pattern matrix once, from
the disk cache, and batch kernels see many start words at once) and returns its results; the
client writes each finished batch into the run store in one transaction as tasks complete
(``as_completed``), with the batch's new solved subproblems. Exact searches reuse subproblems:
the store's entries are loaded once (scattered once to a cluster's workers), and each worker
process keeps its memo from batch to batch, so its later start words reuse what its earlier ones
found (``gpusolve.runs.subproblems``). Exact batches are sent out a few per worker at a time, each new
one carrying the subproblems that finished batches found (scattered to the workers as they
come), so every worker's later start words reuse the whole run's work. A worker that dies loses
only its in-flight batches: the scheduler hands them to another worker, and exceptions are
retried (``retries``). Units already in the store
are never sent out again, so a resumed run computes only what is missing.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..core.errors import GpusolveError
from ..core.interrupt import StopOnInterrupt
from ..core.words import Word
from ..search.memo import Entries
from .runstore import RunStore
from .subproblems import PER_UNIT, STORE_MAX, Subproblems
from .units import UNITS, Job, matrix_for

SHARE_PARTS = 32
"""Most separately scattered parts of a run's new subproblems before they are merged into one."""

RETRIES = 3
"""How many times a failed task is retried (a lost worker's tasks are rescheduled by Dask)."""

CONNECT_TIMEOUT = "20s"
"""How long to try reaching a --scheduler before giving up."""

SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
"""The address schemes of a Dask scheduler (``tcp://`` when none is written)."""

CLOSE_TIMEOUT = 30
"""Seconds to wait for the client and a local cluster to close (after a stop, a busy scheduler
may not answer: the process ends anyway)."""

OnBatch = Callable[[int, int, list[tuple[Word, int, dict]]], None]
"""Progress callback: (units done, units total, the batch's (word, position, result) rows)."""


@dataclass
class BatchOutput:
    """What a task returns: the batch's results, new subproblems, time taken and where, and
    (nodes, store hits) and seconds per unit for the tasks that search."""

    results: list[tuple[Word, int, dict]]
    subproblems: Entries = field(default_factory=Entries.empty)
    seconds: float = 0.0
    worker: str = ""
    counts: list[tuple[int, int]] = field(default_factory=list)
    unit_seconds: list[float] = field(default_factory=list)


_memos: dict[tuple[Job, bool], Subproblems] = {}


def _worker_memo(job: Job, known: Entries | list[Entries] | None, reuse: bool) -> Subproblems:
    """Return this process's subproblem cache for ``job``, with every snapshot of the run store
    it is given merged in (once each)."""
    memo = _memos.get((job, reuse))
    if memo is None:
        _memos.clear()  # a worker keeps the memo tables (up to --memo-mb) of its latest job only
        memo = _memos[(job, reuse)] = Subproblems(reuse=reuse)
    if reuse:
        for entries in known if isinstance(known, list) else [known]:
            memo.seed(entries)
    return memo


def run_batch(job: Job, units: Sequence[tuple[Word, int]], backend: str | None = None,
              threads: int | None = None, known: Entries | list[Entries] | None = None,
              reuse: bool = True) -> BatchOutput:
    """Return the results of one batch of (start word, guess row) units (runs on a worker).

    ``known``: the run store's subproblems (one snapshot, or several parts), merged into this
    process's cache for the job, which also keeps what its earlier batches found."""
    start = time.perf_counter()
    if threads:
        import numba

        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    pm = matrix_for(job, backend)
    memo = _worker_memo(job, known, reuse)
    rows = [row for _, row in units]
    memo.take_counts()
    memo.take_seconds()
    results = UNITS[job.task](pm, job, rows, memo, threads=threads)
    fresh = memo.take_fresh().top(PER_UNIT * len(units))
    return BatchOutput([(w, r, res) for (w, r), res in zip(units, results)], fresh,
                       time.perf_counter() - start, f"{socket.gethostname()}:{os.getpid()}",
                       memo.take_counts(), memo.take_seconds())


def batches(units: Sequence[tuple[Word, int]], size: int) -> list[list[tuple[Word, int]]]:
    """Return the units cut into batches of ``size`` (in list order)."""
    return [list(units[i:i + size]) for i in range(0, len(units), size)]


def here(scheduler: str | None, workers: int | None, n_units: int) -> bool:
    """Return whether ``n_units`` are computed in this process: when asked (``workers=0``), or by
    default (no ``workers``, no scheduler) when fewer are left than the local cluster's workers,
    one a core (each worker would take one and leave the others' cores idle; here each unit's
    search uses every core)."""
    if scheduler is not None:
        return False
    return n_units < (os.cpu_count() or 1) if workers is None else workers == 0


def default_batch(n_units: int, n_workers: int, most: int = 64) -> int:
    """Return a batch size giving every worker several batches (for balance), at most ``most``."""
    return max(1, min(most, -(-n_units // (4 * max(n_workers, 1)))))


def run_units(job: Job, units: Sequence[tuple[Word, int]], store: RunStore, *, scheduler: str | None = None,
              workers: int | None = None, batch: int | None = None, most: int = 64,
              backend: str | None = None, on_batch: OnBatch | None = None, threads: int | None = None,
              reuse: bool = True) -> int:
    """Compute every unit not yet in ``store`` and record it there; return how many were computed.

    ``threads``: compiled-kernel threads per worker (default: the cores shared out among local
    workers; all of a remote worker's cores). ``reuse``: searches start from the store's solved
    subproblems and those of earlier batches (False: each start word from scratch; the results
    are the same).
    """
    done = store.finished()
    todo = [(w, r) for w, r in units if w not in done]
    total = len(units)
    finished = total - len(todo)
    if on_batch:
        on_batch(finished, total, [])
    if not todo:
        return 0
    n_workers = (os.cpu_count() or 1) if workers is None else workers
    if workers is not None and workers < 0:
        raise GpusolveError(f"--workers must be 0 (in-process) or more, not {workers}")
    size = batch or default_batch(len(todo), n_workers, most)
    if size < 1:
        raise GpusolveError(f"--batch must be at least 1, not {size}")
    known = store.load_subproblems() if reuse and job.task in ("exact", "reference-exact") else None

    def record(out: BatchOutput) -> None:
        nonlocal finished
        store.save([(w, r, res) for w, r, res in out.results], out.seconds, out.worker,
                   out.subproblems if reuse else None, out.counts, out.unit_seconds)
        finished += len(out.results)
        if on_batch:
            on_batch(finished, total, out.results)

    if here(scheduler, workers, len(todo)):
        _memos.pop((job, reuse), None)
        try:
            for chunk in batches(todo, size):
                record(run_batch(job, chunk, backend, threads, known, reuse))
        finally:
            _memos.pop((job, reuse), None)  # its memo tables: up to --memo-mb
        return len(todo)

    if threads is None and not scheduler:
        threads = max(1, (os.cpu_count() or 1) // max(n_workers, 1))
    with _client(scheduler, n_workers) as client:
        from distributed import as_completed

        seed = client.scatter(known, broadcast=True) if known is not None else None
        # workers started with --resources GPU=1 run one task per GPU at a time
        info = client.scheduler_info()["workers"]
        gpus = any("GPU" in w.get("resources", {}) for w in info.values())
        chunks = iter(batches(todo, size))
        # Exact searches: a few tasks per worker in flight, each new one carrying the subproblems
        # the finished ones found (scattered as they come, merged into one every SHARE_PARTS), so
        # later batches on every worker reuse them. Other tasks: a few more per worker, so that the
        # scheduler never holds thousands (it would take minutes to hear a stop).
        window = max(2, (2 if known is not None else 4) * len(info))
        shared: list[Entries] = []  # this run's new entries, on the client
        parts: list = []  # the same, scattered to the cluster

        def submit(chunk: list[tuple[Word, int]]):
            given = [seed, *parts] if known is not None else seed
            return client.submit(run_batch, job, chunk, backend, threads, given, reuse, retries=RETRIES,
                                 pure=False, resources={"GPU": 1} if gpus else None,
                                 key=f"{job.task}-{chunk[0][0]}-{len(chunk)}-{os.getpid()}-{time.time_ns()}")

        running = as_completed([submit(chunk) for chunk in itertools.islice(chunks, window)])
        for future in _completed(running):
            try:
                out = future.result()
            except GpusolveError:
                raise
            except Exception as e:  # a task that failed on every retry
                raise GpusolveError(f"a task failed on the cluster: {type(e).__name__}: {e}") from None
            record(out)
            future.release()
            if known is not None and len(out.subproblems):
                shared.append(out.subproblems)
                if len(parts) >= SHARE_PARTS:
                    shared = [Entries.concat(shared).merged().top(STORE_MAX)]
                    parts = [client.scatter(shared[0], broadcast=True)]
                else:
                    parts.append(client.scatter(out.subproblems, broadcast=True))
            chunk = next(chunks, None)
            if chunk is not None:
                running.add(submit(chunk))
    return len(todo)


def check_scheduler(address: str) -> str:
    """Return a Dask scheduler address (``tcp://HOST:PORT``; the scheme may be left out), or raise
    a one-line error saying what is wrong with it: checked before any connection is tried."""
    scheme, sep, rest = address.strip().rpartition("://")
    scheme = scheme.lower() if sep else "tcp"
    host, colon, port = rest.rpartition(":")
    problem = None
    if scheme not in SCHEMES:
        problem = f"its scheme {scheme}:// is not a Dask one ({', '.join(s + '://' for s in SCHEMES)})"
    elif not colon or not host.strip("[]"):
        problem = "it needs a host and a port"
    elif not port.isdigit() or not 0 < int(port) < 65536:
        problem = f"its port {port!r} is not a number from 1 to 65535"
    elif any(c.isspace() or c in "/?#@" for c in host):
        problem = f"its host {host!r} is not a host name or address"
    if problem:
        raise GpusolveError(f"--scheduler {address!r} is not a scheduler address: {problem}; "
                            "give tcp://HOST:PORT (dask scheduler prints it)")
    return f"{scheme}://{host}:{port}"


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _completed(running):
    """Yield the futures of ``running`` (a Dask ``as_completed``) as they finish; Ctrl-C stops it
    between polls (raising KeyboardInterrupt here, never inside Dask's own event loop)."""
    with StopOnInterrupt(lambda: None) as interrupt:
        while not running.is_empty():
            if interrupt.requested:
                raise KeyboardInterrupt
            done = running.next_batch(block=False)
            if not done:
                time.sleep(0.05)
            yield from done


class _client:
    """A Dask client on the given scheduler, or on a fresh LocalCluster of ``n`` processes."""

    def __init__(self, scheduler: str | None, n: int) -> None:
        self.scheduler, self.n, self.cluster, self.client = scheduler, n, None, None

    def __enter__(self):
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise GpusolveError("fan-out needs dask distributed: pip install 'gpusolve[dist]'") from None
        try:
            if self.scheduler:
                self.client = Client(check_scheduler(self.scheduler), timeout=CONNECT_TIMEOUT)
            else:
                # the workers start ignoring Ctrl-C (the terminal sends it to them too): this process
                # stops the run and closes the cluster; their logs (a busy worker that outlives the
                # scheduler complains) stay quiet: a failed task reaches this process as an exception
                main = _main_thread()
                previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
                try:
                    with dask.config.set({"distributed.scheduler.allowed-failures": RETRIES}):
                        self.cluster = LocalCluster(n_workers=self.n, threads_per_worker=1, processes=True,
                                                    host="127.0.0.1", dashboard_address=":0",
                                                    silence_logs=logging.CRITICAL)
                finally:  # None: a handler not set from Python; Python's own then hears Ctrl-C
                    if main:
                        signal.signal(signal.SIGINT, previous or signal.default_int_handler)
                self.client = Client(self.cluster)
        except (OSError, ValueError, TimeoutError) as e:  # refused, unknown host, timed out, malformed
            self.__exit__()
            where = self.scheduler or "a local cluster"
            raise GpusolveError(f"cannot reach the Dask scheduler at {where}: {e}") from None
        return self.client

    def __exit__(self, *exc: object) -> None:
        quiet = logging.getLogger("distributed")  # closing mid-run (Ctrl-C) makes Dask complain
        level = quiet.level
        quiet.setLevel(logging.CRITICAL + 1)
        try:
            for part in (self.client, self.cluster):
                if part is not None:  # one that does not close in time ends with this process
                    with contextlib.suppress(TimeoutError, OSError, RuntimeError):
                        part.close(timeout=CLOSE_TIMEOUT)
        finally:
            quiet.setLevel(level)
