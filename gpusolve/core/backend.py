"""Compute backends: ``cpu`` (numba) and ``cuda`` (numba.cuda kernels on CuPy device memory).

The only module that imports CuPy, and only when the CUDA backend is asked for.
``auto`` picks CUDA when CuPy is installed and a trial kernel runs on the GPU (checked when a
call would first run there); otherwise the CPU. ``count`` is the CUDA backend without a GPU: every
call routed as on a GPU, each launch run by its kernel's CPU twin (``core.twins``) and counted
(launches, cells, bytes copied each way: ``GpuClock.counts``), so that what the GPU path does is
known here.
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.util import find_spec

import numpy as np

from .errors import GpusolveError, Note
from .limits import mib

BACKENDS = ("auto", "cpu", "cuda", "count")
CHECKED_BYTES = 1 << 24
"""Device allocations of at least this many bytes are checked against the free memory first."""


def cuda_status() -> tuple[bool, str]:
    """Return (usable, reason): whether the CUDA backend can run here, and why (not): numba.cuda
    imports, numba sees a GPU, CuPy imports, and a trial kernel compiles and runs right on the
    GPU (``kernels.trial_cuda``). Found once per process."""
    with _STATUS_LOCK:
        return _cuda_status()


_STATUS_LOCK = threading.RLock()

_LAUNCH_LOCK = threading.Lock()
"""Held by a thread launching a kernel until the GPU has run it: threads of one process (the
proof's searches, the first and second passes beside them) take turns on the device, and the
CUDA simulator, which runs one kernel at a time, can test them."""


def start_cuda() -> None:
    """Begin CUDA's start (``cuda_status``: numba.cuda, CuPy, the device, the trial kernel; then the
    GPU path's kernel modules) on a thread of its own, once per process, so that it goes on while
    this thread loads the pattern matrix (``CudaBackend.on_gpu`` waits for it). Numba must be
    imported first, and this thread import nothing until it has waited: two threads importing
    numba's modules at once can meet one half made (numba's modules import each other)."""
    import numba  # noqa: F401
    with _START_LOCK:  # not the status's lock, which the start holds while it runs
        if not _STARTS:
            _STARTS.append(threading.Thread(target=_start, name="gpusolve-cuda-start", daemon=True))
            _STARTS[0].start()


_START_LOCK = threading.Lock()
_STARTS: list[threading.Thread] = []
"""The thread of ``start_cuda`` (a daemon: a command that fails before it needs the GPU exits at once)."""


def _start() -> None:
    """Run CUDA's start: ``cuda_status``, then, where the GPU can run, import the kernels it will
    be given (an error here is found again, and said, by the thread that needs the GPU)."""
    try:
        if cuda_status()[0]:
            from ..kernels import (  # noqa: F401
                bounds_cuda,
                hardmode_cuda,
                histogram_cuda,
                patterns_cuda,
                second_pass_cuda,
            )
    except Exception:
        pass  # cuda_status says why, to the thread that needs the GPU


def _started() -> None:
    """Wait for ``start_cuda``'s thread, if one was started."""
    for thread in _STARTS:
        thread.join()


@lru_cache(maxsize=1)
def _cuda_status() -> tuple[bool, str]:
    """Return ``cuda_status()`` (cached: the trial runs once)."""
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        return False, "NUMBA_ENABLE_CUDASIM=1 (the simulator is for tests, not for work)"
    quiet_numba()
    try:
        from ..kernels.gpu import cuda

        quiet_numba()  # numba.cuda's own warning classes, now imported
        if not cuda.is_available():
            return False, "numba finds no CUDA GPU or driver"
    except Exception as e:
        return False, f"numba.cuda does not work here ({_said(e)})"
    try:
        import cupy  # noqa: F401
    except ImportError:
        return False, f"a GPU is present but CuPy is not installed (pip install {CUDA_EXTRAS})"
    except Exception as e:
        return False, f"CuPy does not import ({_said(e)})"
    try:
        CudaBackend().trial()
    except Exception as e:
        return False, f"the GPU could not compile and run a trial kernel ({_said(e)}){_hint(e)}"
    return True, "a CUDA GPU and CuPy are present, and a trial kernel ran on the GPU"


CUDA_EXTRAS = "'gpusolve[cuda13]' for CUDA 13 drivers, 'gpusolve[cuda12]' for CUDA 12"
"""What installs the GPU's libraries (pyproject.toml's extras)."""


def _said(error: Exception) -> str:
    """Return an exception as one short line: its type and the first line of its message."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    text = f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def _hint(error: Exception) -> str:
    """Return what to do about a failed trial, where the cause is known ('' otherwise)."""
    from importlib.metadata import PackageNotFoundError, version

    from ..kernels.gpu import COMPILER  # imported by now: the trial ran

    text = str(error).lower()
    try:
        compiler = f"{COMPILER} {version(COMPILER)}"
    except PackageNotFoundError:
        compiler = COMPILER
    if "row_stack" in text or (isinstance(error, AttributeError) and "numpy" in text):
        return f": {compiler} cannot compile with numpy {np.__version__}; pip install 'numpy<2.5'"
    libraries = ("nvvm", "nvrtc", "nvjitlink")
    if any(name in text for name in libraries) or type(error).__name__ == "DynamicLibNotFoundError":
        return f": {compiler} misses CUDA's compiler libraries (NVVM, NVRTC); pip install {CUDA_EXTRAS}"
    return ""


def quiet_numba() -> None:
    """Keep numba's warnings (e.g. 'Grid size 1 will likely result in GPU under-utilization')
    off the user's terminal: the backend chooses launches, the user cannot act on them. By
    category, so the library's own notes raised inside numba's compile events still show."""
    import sys

    for name in WARNING_MODULES:
        if name in sys.modules and hasattr(sys.modules[name], "NumbaWarning"):
            warnings.filterwarnings("ignore", category=sys.modules[name].NumbaWarning)


WARNING_MODULES = ("numba.core.errors", "numba.cuda.core.errors", "numba_cuda_mlir.numba_cuda.core.errors")
"""Where numba, numba-cuda and numba-cuda-mlir define their warnings (filtered once imported)."""


def stats_dtype(columns: np.ndarray, most: int) -> np.dtype:
    """Return the dtype of a stats table: int32 unless a column may exceed it (the fixed-point
    sums, or squares of sets over 46,340 answers)."""
    from ..kernels.stats import SUM_INVERSE, SUM_NLOGN, SUM_SQUARES

    wide = {SUM_NLOGN, SUM_INVERSE} | ({SUM_SQUARES} if most > 46_340 else set())
    return np.dtype(np.int64 if wide & set(columns.tolist()) else np.int32)


@lru_cache(maxsize=8)
def _tables(size: int) -> tuple[np.ndarray, np.ndarray]:
    from ..kernels.stats import inverse_table, nlogn_table

    return nlogn_table(size), inverse_table(size)


def stats_tables(most: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (n log2 n, 1 / n) fixed-point tables covering buckets of up to ``most`` answers."""
    return _tables(1 << max(most, 1).bit_length())


def _stats_call(rows, flat, starts, columns) -> tuple:
    """Return the arguments as contiguous arrays, the largest set and the table's dtype."""
    rows = np.ascontiguousarray(rows, np.int32)
    flat = np.ascontiguousarray(flat, np.int32)
    starts = np.ascontiguousarray(starts, np.int64)
    columns = np.ascontiguousarray(columns, np.int64)
    most = int(np.diff(starts).max(initial=0))
    return rows, flat, starts, columns, most, stats_dtype(columns, most)


class Backend:
    """What every backend offers besides its kernels."""

    name = "?"
    every_call = False

    def offloads(self, answers: int, n_patterns: int) -> bool:
        """Return whether a reply-statistics call over ``answers`` answers in all runs on a GPU."""
        return False

    def on_gpu(self) -> bool:
        """Return whether this backend's work runs on a GPU."""
        return False

    def gpu_path(self) -> bool:
        """Return whether calls take the GPU path's routing (``cuda`` and ``count``; not once
        ``auto`` found no GPU)."""
        return False

    def busy(self) -> bool:
        """Return whether another thread's work holds this backend's GPU now."""
        return False

    def ready(self) -> None:
        """Return once the backend can take work: the GPU asked for (``--backend cuda``) started and
        checked (a one-line error if it cannot run); nothing to wait for otherwise."""

    def set_stats(self, codes: np.ndarray, rows: np.ndarray, members: np.ndarray, n_patterns: int,
                  solved: int, columns) -> np.ndarray:
        """Return ``reply_stats`` of one answer set: [guess, column]."""
        starts = np.array([0, len(members)], np.int64)
        return self.reply_stats(codes, rows, members, starts, n_patterns, solved, columns)[0]


@dataclass
class CpuBackend(Backend):
    """Numba kernels on all CPU cores."""

    name: str = "cpu"

    def pattern_matrix(self, kind: int, guesses: np.ndarray, answers: np.ndarray,
                       colours: int, dtype: np.dtype) -> np.ndarray:
        """Return the (guesses x answers) reply-code matrix."""
        import numba

        from ..kernels.patterns_cpu import fill_pattern_matrix
        from ..kernels.threads import over_slices

        out = np.empty((len(guesses), len(answers)), dtype=dtype)
        over_slices(lambda lo, hi: fill_pattern_matrix(kind, guesses[lo:hi], answers, colours, out[lo:hi]),
                    len(guesses), numba.get_num_threads())  # guesses in slices, on threads
        return out

    def reply_stats(self, codes: np.ndarray, rows: np.ndarray, flat: np.ndarray, starts: np.ndarray,
                    n_patterns: int, solved: int, columns) -> np.ndarray:
        """Return [set, guess, column]: statistic ``columns[c]`` (``kernels.stats``) of guess row
        ``rows[i]`` over answer set s = ``flat[starts[s]:starts[s + 1]]``."""
        import numba

        from ..kernels import histogram_cpu
        from ..kernels.threads import over_slices

        rows, flat, starts, columns, most, dtype = _stats_call(rows, flat, starts, columns)
        out = np.empty((len(starts) - 1, len(rows), len(columns)), dtype)
        codes, (nlogn, inverse) = np.ascontiguousarray(codes), stats_tables(most)

        def pairs(lo: int, hi: int) -> None:  # the (set, guess) pairs lo to hi, on a thread
            histogram_cpu.reply_stats(codes, rows, flat, starts, n_patterns, solved, nlogn, inverse, columns,
                                      out, lo, hi)

        over_slices(pairs, out.shape[0] * out.shape[1], numba.get_num_threads())
        return out

    def hard_mode_mask(self, kind: int, length: int, colours: int, letters: np.ndarray, counts: np.ndarray,
                       moves_g: np.ndarray, moves_p: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Return uint8 ``mask[i]``: 1 if hard mode allows guess row ``rows[i]`` after every move
        (guess row ``moves_g[t]`` got reply ``moves_p[t]``; ``kernels.hardmode``)."""
        from ..kernels import hardmode_cpu

        out = np.empty(len(rows), np.uint8)
        hardmode_cpu.allowed(kind, length, colours, letters, counts, moves_g, moves_p, rows, out)
        return out

    def second_pass(self, codes: np.ndarray, tmat: np.ndarray, answer_rows: np.ndarray, perm: np.ndarray,
                    units: np.ndarray, rows: np.ndarray, solved: int, n_patterns: int, left: int,
                    branches: int, members_only: bool) -> np.ndarray:
        """Return the second-pass bound of every unit (``kernels.second_pass_cpu.second_pass``;
        ``tmat``, the answer-major matrix, serves the GPU twin)."""
        from ..kernels import second_pass_cpu

        out = np.empty(len(units), np.int64)
        second_pass_cpu.second_pass(np.ascontiguousarray(codes), answer_rows, perm, units, rows, solved,
                                    n_patterns, left, branches, members_only, out)
        return out

    def war_games(self, key: int, first: int, count: int, ranks: int, suits: int, down: int,
                  cap: int) -> tuple[np.ndarray, np.ndarray]:
        """Return (plays, outcome) arrays of War games ``first .. first + count - 1``."""
        import numba

        from ..kernels import war_cpu

        lengths = np.empty(count, np.int32)
        outcomes = np.empty(count, np.int8)
        war_cpu.play_games(np.uint64(key), first, ranks, suits, down, cap, lengths, outcomes,
                           numba.get_num_threads())
        return lengths, outcomes


@dataclass
class GpuClock:
    """Wall seconds a process spent on the GPU: its start (CUDA, CuPy and the trial kernel), and
    by what ran there (``calls``: each kernel's launches, from copying their host arguments until
    the GPU finished, and the copies of results to the host), with how many times. Calls made on
    several threads at once each count in full.

    ``counts``: what the GPU was given, by phase (``phase``): each kernel's launches, the cells
    they computed (reply cells read, as ``CudaBackend.offloads`` weighs them), the bytes copied to
    the device and back to the host, and (``count`` backend) the CPU seconds its twins took."""

    start: float = 0.0
    calls: dict = field(default_factory=dict)
    counts: dict = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _here: threading.local = field(default_factory=threading.local, repr=False)
    _default: list = field(default_factory=lambda: [WHOLE_RUN], repr=False)

    def add(self, what: str, seconds: float) -> None:
        """Count one call of ``what`` that took ``seconds``."""
        with self._lock:
            count, total = self.calls.get(what, (0, 0.0))
            self.calls[what] = (count + 1, total + seconds)

    @contextmanager
    def phase(self, name: str, beside: bool = False):
        """Count what this thread gives the GPU as phase ``name``, and (unless ``beside``: a
        phase run beside the others) what threads with no phase of their own give it."""
        before = getattr(self._here, "phase", None)
        self._here.phase = name
        if not beside:
            self._default.append(name)
        try:
            yield
        finally:
            self._here.phase = before
            if not beside:
                self._default.remove(name)

    def twin_seconds(self) -> float:
        """Return the CPU seconds the twins' launches took (``count`` backend), every phase."""
        with self._lock:
            return sum(found.get("twin_cpu_seconds", 0.0) for found in self.counts.values())

    def tally(self, key: str, amount: float, kernel: str | None = None) -> None:
        """Add ``amount`` to ``key`` of this thread's phase (``launches``: of ``kernel``)."""
        phase = getattr(self._here, "phase", None) or self._default[-1]
        with self._lock:
            found = self.counts.setdefault(phase, {"launches": {}, "cells": 0, "bytes_to_device": 0,
                                                   "bytes_to_host": 0})
            if kernel is not None:
                found["launches"][kernel] = found["launches"].get(kernel, 0) + int(amount)
            else:
                found[key] = found.get(key, 0) + amount

    def seconds(self) -> float:
        """Return the seconds counted so far, the start included."""
        with self._lock:
            return self.start + sum(total for _, total in self.calls.values())

    def as_dict(self) -> dict:
        """Return the clock as JSON: ``start``, ``calls`` (what: ``{"times", "seconds"}``) and
        ``counts`` (phase: launches by kernel, cells, bytes each way[, twin CPU seconds])."""
        with self._lock:
            counts = {phase: {k: round(v, 4) if isinstance(v, float) else v for k, v in found.items()}
                      for phase, found in self.counts.items()}
            return {"start": round(self.start, 4),
                    "calls": {what: {"times": n, "seconds": round(total, 4)}
                              for what, (n, total) in sorted(self.calls.items(), key=lambda x: -x[1][1])},
                    "counts": counts}


WHOLE_RUN = "all"
"""The phase of what a command gives the GPU outside any phase (``GpuClock.phase``)."""


@contextmanager
def gpu_phase(backend: Backend, name: str, beside: bool = False):
    """Count what ``backend``'s GPU is given in this block as phase ``name`` (``GpuClock.phase``;
    nothing on a backend with no GPU)."""
    clock = getattr(backend, "clock", None)
    if clock is None:
        yield
    else:
        with clock.phase(name, beside):
            yield


def twin_cpu_seconds(backend: Backend) -> float | None:
    """Return the CPU seconds ``backend``'s twins have run so far (None: not the count backend)."""
    return backend.clock.twin_seconds() if getattr(backend, "twins", False) else None


def gpu_seconds(backend: Backend) -> float | None:
    """Return the seconds the process has spent on the GPU through ``backend`` so far (None on
    a backend that has no GPU)."""
    clock = getattr(backend, "clock", None)
    return None if clock is None else clock.seconds()


def gpu_report(backend: Backend) -> dict | None:
    """Return ``GpuClock.as_dict`` of ``backend``, or None where nothing ran on a GPU; on the
    ``count`` backend always, with ``cpu_seconds``: the process's CPU seconds so far but those of
    the twins' launches (what the GPU path leaves to the CPU)."""
    clock = getattr(backend, "clock", None)
    twins = twin_cpu_seconds(backend)
    if twins is not None:
        return {**clock.as_dict(), "cpu_seconds": round(time.process_time() - twins, 3)}
    return clock.as_dict() if clock is not None and clock.calls else None


@dataclass
class CudaBackend(Backend):
    """Numba.cuda kernels on device arrays from ``xp`` (CuPy; numba's own arrays in tests).

    Every GPU launch of gpusolve goes through here: ``launch`` runs a kernel with its host
    arguments copied to the device, ``resident`` keeps the pattern matrix on the device,
    ``empty`` / ``to_host`` allocate and read back outputs. Calls go to the GPU where they pay
    (``offloads``, ``kernels.config``); ``every_call``: every call that has a GPU kernel runs it,
    however small (the doctor's and the tests' comparisons of the GPU with the CPU).

    Nothing touches the GPU until a call would run there: ``on_gpu`` then checks, once, that it
    can (``cuda_status``). ``explicit`` (the user asked for cuda): if it cannot, a one-line
    error; otherwise (``auto``) a note, and every call runs on the CPU from then on. The same
    for a call that needs more device memory than is free (``room``). ``clock`` says where the
    process's GPU time went, and what the GPU was given.

    ``twins`` (the ``count`` backend): no GPU is used; the device is the host's memory and each
    launch runs its kernel's CPU twin (``core.twins``), every routing choice made as above.
    """

    name: str = "cuda"
    every_call: bool = False
    explicit: bool = True
    twins: bool = False
    clock: GpuClock = field(default_factory=GpuClock, repr=False)
    _resident: dict = field(default_factory=dict, repr=False)
    _usable: bool | None = field(default=None, repr=False)
    _noted: set = field(default_factory=set, repr=False)

    def __post_init__(self) -> None:
        self.cpu = CpuBackend()

    @property
    def xp(self):
        """Return the device-array module (made on first use: CuPy is imported then)."""
        if "_xp" not in self.__dict__:
            self.__dict__["_xp"] = _HostTwins() if self.twins else _device_array_module()
            quiet_numba()  # numba.cuda's warning classes, imported by now
        return self.__dict__["_xp"]

    def on_gpu(self) -> bool:
        """Return whether work runs on the GPU: checked on the first call (``cuda_status``; the
        simulator always runs). Raise the reason where the GPU was asked for and cannot run;
        else say it in a note and run on the CPU from now on."""
        if self._usable is None:
            started = time.perf_counter()
            _started()  # begun by start_cuda: what is left of it is waited for here
            self.clock.start += time.perf_counter() - started
        with _STATUS_LOCK:
            if self._usable is None:
                simulated = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
                started = time.perf_counter()
                usable, reason = (True, "") if simulated or self.twins else cuda_status()
                self.clock.start += time.perf_counter() - started
                if not usable:
                    if self.explicit:
                        raise GpusolveError(f"the cuda backend is not available: {reason}; use --backend cpu")
                    warnings.warn(Note(f"running on the CPU: {reason}"), stacklevel=2)
                    self.name = "cpu"
                self._usable = usable
        return self._usable

    def gpu_path(self) -> bool:
        """Return whether calls take the GPU path's routing: not once the GPU's check failed."""
        return self._usable is not False

    def ready(self) -> None:
        if self.explicit:
            self.on_gpu()

    def free_memory(self) -> int | None:
        """Return the bytes of device memory free for new arrays (None where unknown)."""
        return self.xp.free_memory()

    def short_of(self, need: int) -> int | None:
        """Return the free device memory when ``need`` bytes exceed it, else None (needs under
        ``CHECKED_BYTES`` are not checked: an allocation that small fails as MemoryError)."""
        free = self.free_memory() if need >= CHECKED_BYTES else None
        return free if free is not None and need > free else None

    def room(self, need: int, what: str) -> bool:
        """Return whether ``need`` bytes for ``what`` fit in the device's free memory; if not,
        raise a one-line error where the GPU was asked for, else note that the CPU does it."""
        free = self.short_of(need)
        if free is None:
            return True
        said = (f"{what} needs {mib(need)} of GPU memory, more than the {mib(free)} free on "
                f"the GPU")
        if self.explicit:
            raise GpusolveError(f"{said}; use --backend cpu, or shorter word lists")
        if what not in self._noted:
            self._noted.add(what)
            warnings.warn(Note(f"{said}: it runs on the CPU"), stacklevel=2)
        return False

    def trial(self) -> None:
        """Compile and run the trial kernel (``kernels.trial_cuda``) and check what it counted;
        raise on any failure."""
        from ..kernels import trial_cuda

        values = np.arange(1000, dtype=np.int64) * 7
        out = self.to_device(np.zeros(trial_cuda.BINS, np.int64))
        self.launch(trial_cuda.histogram, 2, values, out, cells=len(values))
        if not np.array_equal(self.to_host(out), np.bincount(values % trial_cuda.BINS)):
            raise RuntimeError("the trial kernel counted wrong")

    def to_device(self, array: np.ndarray):
        """Return a device copy of ``array``."""
        self._fits(array.nbytes, array.shape, array.dtype)
        self.clock.tally("bytes_to_device", array.nbytes)
        return self.xp.to_device(array)

    def resident(self, array: np.ndarray):
        """Return a device copy of ``array`` kept while the same array is passed (the pattern
        matrix and its transpose: copied once, not per launch); the array must not change
        meanwhile. A few arrays are kept; a new one beyond them replaces them all."""
        held = self._resident.get(id(array))
        if held is None or held[0] is not array:
            if len(self._resident) >= RESIDENT_ARRAYS:
                self._resident.clear()
            held = (array, self.to_device(array))
            self._resident[id(array)] = held
        return held[1]

    def empty(self, shape, dtype):
        """Return an uninitialised device array."""
        self._fits(int(np.prod(shape)) * np.dtype(dtype).itemsize, shape, dtype)
        return self.xp.empty(shape, dtype)

    def _fits(self, need: int, shape, dtype) -> None:
        """Raise a one-line error unless a device array of ``need`` bytes fits in free memory."""
        free = self.short_of(need)
        if free is not None:
            shape = " x ".join(f"{n:,}" for n in np.atleast_1d(shape))
            raise GpusolveError(f"a {shape} array of {np.dtype(dtype)} needs {mib(need)} of GPU memory, "
                                f"more than the {mib(free)} free on the GPU; use --backend cpu")

    def to_host(self, array) -> np.ndarray:
        """Return a host copy of a device array."""
        started = time.perf_counter()
        try:
            found = self.xp.to_host(array)
            self.clock.tally("bytes_to_host", found.nbytes)
            return found
        finally:

            self.clock.add("copies to the host", time.perf_counter() - started)

    @staticmethod
    def blocks(items: int, per_thread: bool = False) -> int:
        """Return the blocks of a one-dimensional launch over ``items`` (one block, or one
        thread, per item; kernels stride over the rest)."""
        from ..kernels import config

        per_block = config.THREADS_PER_BLOCK if per_thread else 1
        return max(1, min(65535, -(-items // per_block)))

    def launch(self, kernel, blocks, *args, threads=None, cells: int = 0) -> None:
        """Run ``kernel[blocks, threads](*args)`` (threads: ``config.THREADS_PER_BLOCK``), host
        arrays among ``args`` copied to the device first, and wait for it (timed in ``clock``,
        and counted with the ``cells`` it computes)."""
        from ..kernels import config
        from ..kernels.gpu import kernel_name

        threads = config.THREADS_PER_BLOCK if threads is None else threads
        name = kernel_name(kernel)
        with _LAUNCH_LOCK:  # one launch at a time (they share the device's default stream anyway)
            started = time.perf_counter()
            on_device = [self.to_device(a) if _on_host(a) else a for a in args]
            spent = self.xp.run(kernel, blocks, threads, on_device)
            self.clock.add(name, time.perf_counter() - started)
            self.clock.tally("launches", 1, kernel=name)
            self.clock.tally("cells", int(cells))
            if self.twins:  # the twins' own CPU seconds (not those of the threads beside them)
                self.clock.tally("twin_cpu_seconds", spent)

    def busy(self) -> bool:
        """Return whether another thread's launch holds the GPU now (a small call would wait for
        it longer than its CPU twin takes); never with ``every_call``."""
        return not self.every_call and _LAUNCH_LOCK.locked()

    def offloads(self, answers: int, n_patterns: int, cells: int | None = None) -> bool:
        """Return whether a call over ``answers`` answers in all runs on the GPU: enough answers
        for its blocks and, while nothing has run on the GPU in this process, enough work
        (``cells``: reply cells it reads) to pay for starting it (``config.GPU_START_CELLS``);
        then the GPU's check (``on_gpu``)."""
        from ..kernels import config

        least = 1 if self.every_call else config.GPU_MIN_ANSWERS
        if answers < least or n_patterns > config.MAX_PATTERNS:
            return False
        cold = self._usable is None and not self.every_call
        if cold and cells is not None and cells < config.GPU_START_CELLS:
            return False
        return self.on_gpu()

    def holds(self, array: np.ndarray) -> bool:
        """Return whether a device copy of ``array`` is kept (``resident``)."""
        held = self._resident.get(id(array))
        return held is not None and held[0] is array

    def pattern_matrix(self, kind: int, guesses: np.ndarray, answers: np.ndarray,
                       colours: int, dtype: np.dtype) -> np.ndarray:
        """Return the (guesses x answers) reply-code matrix, built on the GPU where it pays
        (``offloads``) and fits."""
        need = len(guesses) * len(answers) * np.dtype(dtype).itemsize + guesses.nbytes + answers.nbytes
        cells = len(guesses) * len(answers)
        if not (self.offloads(len(answers), 0, cells) and self.room(need, "the pattern matrix")):
            return self.cpu.pattern_matrix(kind, guesses, answers, colours, dtype)
        from ..kernels import config
        from ..kernels import patterns_cuda as cuda

        out = self.empty((len(guesses), len(answers)), dtype)
        blocks = tuple(min(65535, -(-n // t)) for n, t in zip(out.shape, config.TILE))
        self.launch(cuda.fill_pattern_matrix, blocks, kind, guesses, answers, colours, out,
                    threads=config.TILE, cells=cells)
        return self.to_host(out)

    def reply_stats(self, codes: np.ndarray, rows: np.ndarray, flat: np.ndarray, starts: np.ndarray,
                    n_patterns: int, solved: int, columns) -> np.ndarray:
        """Return ``CpuBackend.reply_stats``'s table: one launch of the histogram kernel when the
        call ``offloads`` (and, under ``config.GPU_BUSY_CELLS`` cells, the GPU is not ``busy``),
        the CPU twin otherwise."""
        from ..kernels import config

        cells = len(rows) * len(flat)
        small = cells < config.GPU_BUSY_CELLS
        if not self.offloads(len(flat), n_patterns, cells) or not len(rows) or len(starts) < 2 or \
                (small and self.busy()):
            return self.cpu.reply_stats(codes, rows, flat, starts, n_patterns, solved, columns)
        from ..kernels import histogram_cuda

        rows, flat, starts, columns, most, dtype = _stats_call(rows, flat, starts, columns)
        shape = (len(starts) - 1, len(rows), len(columns))
        need = int(np.prod(shape)) * dtype.itemsize + codes.nbytes * (not self.holds(codes))
        if not self.room(need, "a table of reply statistics"):
            return self.cpu.reply_stats(codes, rows, flat, starts, n_patterns, solved, columns)
        out = self.empty(shape, dtype)
        blocks = self.blocks((len(starts) - 1) * len(rows))
        self.launch(histogram_cuda.reply_stats, blocks, self.resident(codes), rows, flat, starts,
                    n_patterns, solved, *stats_tables(most), columns, out, cells=cells)
        return self.to_host(out)

    def hard_mode_mask(self, kind: int, length: int, colours: int, letters: np.ndarray, counts: np.ndarray,
                       moves_g: np.ndarray, moves_p: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Return ``CpuBackend.hard_mode_mask``, one GPU thread per guess."""
        if not self.on_gpu():
            return self.cpu.hard_mode_mask(kind, length, colours, letters, counts, moves_g, moves_p, rows)
        from ..kernels import hardmode_cuda

        out = self.empty(len(rows), np.uint8)
        self.launch(hardmode_cuda.allowed, self.blocks(len(rows), per_thread=True), kind, length, colours,
                    letters, counts, moves_g, moves_p, rows, out, cells=len(rows) * len(moves_g))
        return self.to_host(out)

    def second_pass(self, codes: np.ndarray, tmat: np.ndarray, answer_rows: np.ndarray, perm: np.ndarray,
                    units: np.ndarray, rows: np.ndarray, solved: int, n_patterns: int, left: int,
                    branches: int, members_only: bool) -> np.ndarray:
        """Return ``CpuBackend.second_pass``: one launch, a block per bucket, the answer-major
        matrix ``tmat`` kept on the device beside the guess-major one (on the CPU if the GPU
        cannot run or hold them)."""
        need = (codes.nbytes * (not self.holds(codes)) + tmat.nbytes * (not self.holds(tmat))
                + perm.nbytes + units.nbytes + rows.nbytes)
        if not (self.on_gpu() and self.room(need, "the second-pass bounds")):
            return self.cpu.second_pass(codes, tmat, answer_rows, perm, units, rows, solved, n_patterns, left,
                                        branches, members_only)
        from ..kernels import second_pass_cuda

        out = self.empty(len(units), np.int64)
        self.launch(second_pass_cuda.second_pass, self.blocks(len(units)), self.resident(codes),
                    self.resident(tmat), answer_rows, perm, units, rows, solved, left, branches, members_only,
                    out, cells=len(rows) * len(perm))
        return self.to_host(out)

    def war_games(self, key: int, first: int, count: int, ranks: int, suits: int, down: int,
                  cap: int) -> tuple[np.ndarray, np.ndarray]:
        """Return (plays, outcome) arrays of War games ``first .. first + count - 1``, one thread each."""
        if not self.on_gpu():
            return self.cpu.war_games(key, first, count, ranks, suits, down, cap)
        from ..kernels import war_cuda

        lengths = self.empty(count, np.int32)
        outcomes = self.empty(count, np.int8)
        self.launch(war_cuda.play_games, self.blocks(count, per_thread=True), np.uint64(key), first, ranks,
                    suits, down, cap, lengths, outcomes, cells=count)

        return self.to_host(lengths), self.to_host(outcomes)


RESIDENT_ARRAYS = 4
"""Host arrays a CUDA backend keeps device copies of at once (``CudaBackend.resident``)."""


class _Device:
    """What a backend's device does besides its memory: run a launch."""

    def run(self, kernel, blocks, threads, args: list) -> None:
        """Run ``kernel[blocks, threads](*args)`` and wait for it; return None."""
        kernel[blocks, threads](*args)
        self.synchronize()


class _CupyArrays(_Device):
    """Device memory through CuPy."""

    def __init__(self) -> None:
        import cupy

        self.cupy = cupy

    def empty(self, shape, dtype):
        return self.cupy.empty(shape, dtype=dtype)

    def to_device(self, array: np.ndarray):
        return self.cupy.asarray(np.ascontiguousarray(array))

    def to_host(self, array) -> np.ndarray:
        return self.cupy.asnumpy(array)

    def synchronize(self) -> None:
        """Wait for the device to finish what it was given."""
        self.cupy.cuda.Device().synchronize()

    def free_memory(self) -> int:
        """Return the device's free bytes, with what CuPy's pool holds unused."""
        free, _ = self.cupy.cuda.runtime.memGetInfo()
        return int(free) + int(self.cupy.get_default_memory_pool().free_bytes())


class _NumbaArrays(_Device):
    """Device memory through numba.cuda: the CUDA simulator's stand-in for CuPy in tests."""

    def __init__(self) -> None:
        from ..kernels.gpu import cuda

        self.cuda = cuda

    def empty(self, shape, dtype):
        return self.cuda.device_array(shape, dtype=dtype)

    def to_device(self, array: np.ndarray):
        return self.cuda.to_device(np.ascontiguousarray(array))

    def to_host(self, array) -> np.ndarray:
        return array.copy_to_host()

    def synchronize(self) -> None:
        """Wait for the device to finish what it was given."""
        self.cuda.synchronize()

    def free_memory(self) -> None:
        """Return None: the simulator's memory is the host's."""
        return None


def _on_host(value) -> bool:
    """Return whether a launch argument is a host array (to copy to the device)."""
    return isinstance(value, np.ndarray) and not isinstance(value, _Counted)


class _Counted(np.ndarray):
    """An array in the ``count`` backend's device memory (the host's)."""


class _HostTwins:
    """The ``count`` backend's device: host memory, each launch run by its kernel's CPU twin."""

    def empty(self, shape, dtype):
        return np.empty(shape, dtype).view(_Counted)

    def to_device(self, array: np.ndarray):
        return np.array(array, order="C").view(_Counted)

    def to_host(self, array) -> np.ndarray:
        return np.array(array, subok=False)

    def synchronize(self) -> None:
        """Nothing to wait for: the twins run on the calling thread."""

    def free_memory(self) -> None:
        """Return None: the device's memory is the host's."""
        return None

    def run(self, kernel, blocks, threads, args: list) -> float:
        """Run the CPU twin of ``kernel`` on ``args`` (``core.twins``); return its CPU seconds."""
        from .twins import run_twin

        return run_twin(kernel, args)


def _device_array_module():
    """Return CuPy-backed device arrays, or numba's under the CUDA simulator."""
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        return _NumbaArrays()
    return _CupyArrays()


class _FirstCompile:
    """A numba event listener: a note, once, when kernels compile (not found in the disk cache)."""

    said = False

    def on_start(self, event) -> None:
        if not _FirstCompile.said:
            _FirstCompile.said = True
            warnings.warn(Note("compiling the numba kernels for this machine (the first run only: "
                               "later runs load them from the disk cache)"), stacklevel=2)

    def on_end(self, event) -> None:
        pass


def note_compiling() -> None:
    """Arrange a note on the first kernel compilation of this process (numba imported here)."""
    from numba.core import event

    if not getattr(note_compiling, "done", False):
        note_compiling.done = True  # type: ignore[attr-defined]
        event.register("numba:compile", type("Listener", (_FirstCompile, event.Listener), {})())


def backend_name(name: str | None = None) -> str:
    """Return the backend named, or from $GPUSOLVE_BACKEND, default ``auto`` (an unknown one: an error)."""
    name = (name or os.environ.get("GPUSOLVE_BACKEND") or "auto").lower()
    if name not in BACKENDS:
        raise GpusolveError(f"unknown backend {name!r}: choose one of {', '.join(BACKENDS)}")
    return name


def get_backend(name: str | None = None, check: bool = True) -> CpuBackend | CudaBackend:
    """Return the backend named (``backend_name``): ``cuda`` is checked now (one error if it cannot
    run; ``check`` False: its start begins on a thread, and ``Backend.ready`` checks it); ``auto`` is
    CUDA where CuPy is installed, checked when a call would first run on the GPU (the CPU, with a
    note, if it cannot); ``count`` routes as ``cuda`` and runs every launch on the CPU twins,
    counting them (no GPU needed)."""
    name = backend_name(name)
    note_compiling()
    if name == "cuda":
        start_cuda()
    quiet_numba()
    simulated = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
    if name == "cpu" or (name == "auto" and (simulated or find_spec("cupy") is None)):
        return CpuBackend()  # without CuPy, auto is the CPU: numba.cuda (slow to import) stays out
    if name == "count":
        return _count_backend()
    backend = CudaBackend(explicit=name == "cuda")
    if check:
        backend.ready()
    return backend


@lru_cache(maxsize=1)
def _count_backend() -> CudaBackend:
    """Return the process's ``count`` backend (one, so that every matrix's launches are counted
    together: a table's searches use a matrix of their own)."""
    return CudaBackend(name="count", twins=True)


def device_info() -> dict | None:
    """Return the current CUDA device's name, compute capability and memory, or None."""
    if not cuda_status()[0]:
        return None
    from ..kernels.gpu import cuda

    device = cuda.get_current_device()
    free, total = cuda.current_context().get_memory_info()
    name = device.name.decode() if isinstance(device.name, bytes) else str(device.name)
    return {
        "name": name,
        "compute_capability": ".".join(map(str, device.compute_capability)),
        "memory_total_gib": round(total / 2**30, 2),
        "memory_free_gib": round(free / 2**30, 2),
    }
