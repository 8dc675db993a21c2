"""Compute backends: ``cpu`` (numba) and ``cuda`` (numba.cuda kernels on CuPy device memory).

The only module that imports CuPy, and only when the CUDA backend is asked for.
``auto`` picks CUDA when numba sees a GPU and CuPy imports; otherwise the CPU.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.util import find_spec

import numpy as np

from .errors import GpusolveError, Note

BACKENDS = ("auto", "cpu", "cuda")


def cuda_status() -> tuple[bool, str]:
    """Return (usable, reason): whether the CUDA backend can run here, and why (not)."""
    try:
        from numba import cuda
    except ImportError as e:  # pragma: no cover - numba-cuda is a dependency
        return False, f"numba.cuda does not import ({e})"
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        return False, "NUMBA_ENABLE_CUDASIM=1 (the simulator is for tests, not for work)"
    if not cuda.is_available():
        return False, "numba finds no CUDA GPU or driver"
    try:
        import cupy  # noqa: F401
    except ImportError:
        return False, "a GPU is present but CuPy is not installed (pip install 'gpusolve[cuda]')"
    return True, "a CUDA GPU and CuPy are present"


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

    def offloads(self, answers: int, n_patterns: int) -> bool:
        """Return whether a reply-statistics call over ``answers`` answers in all runs on a GPU."""
        return False

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

        from ..kernels import patterns_cpu as cpu

        out = np.empty((len(guesses), len(answers)), dtype=dtype)
        cpu.fill_pattern_matrix(kind, guesses, answers, colours, out, numba.get_num_threads())
        return out

    def reply_stats(self, codes: np.ndarray, rows: np.ndarray, flat: np.ndarray, starts: np.ndarray,
                    n_patterns: int, solved: int, columns) -> np.ndarray:
        """Return [set, guess, column]: statistic ``columns[c]`` (``kernels.stats``) of guess row
        ``rows[i]`` over answer set s = ``flat[starts[s]:starts[s + 1]]``."""
        import numba

        from ..kernels import histogram_cpu

        rows, flat, starts, columns, most, dtype = _stats_call(rows, flat, starts, columns)
        out = np.empty((len(starts) - 1, len(rows), len(columns)), dtype)
        histogram_cpu.reply_stats(np.ascontiguousarray(codes), rows, flat, starts, n_patterns, solved,
                                  *stats_tables(most), columns, out, numba.get_num_threads())
        return out

    def hard_mode_mask(self, kind: int, length: int, colours: int, letters: np.ndarray, counts: np.ndarray,
                       moves_g: np.ndarray, moves_p: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Return uint8 ``mask[i]``: 1 if hard mode allows guess row ``rows[i]`` after every move
        (guess row ``moves_g[t]`` got reply ``moves_p[t]``; ``kernels.hardmode``)."""
        import numba

        from ..kernels import hardmode_cpu

        out = np.empty(len(rows), np.uint8)
        hardmode_cpu.allowed(kind, length, colours, letters, counts, moves_g, moves_p, rows, out,
                             numba.get_num_threads())
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
class CudaBackend(Backend):
    """Numba.cuda kernels on device arrays from ``xp`` (CuPy; numba's own arrays in tests).

    Every GPU launch of gpusolve goes through here: ``launch`` runs a kernel with its host
    arguments copied to the device, ``resident`` keeps the pattern matrix on the device,
    ``empty`` / ``to_host`` allocate and read back outputs. ``min_answers`` (default
    ``config.GPU_MIN_ANSWERS``) is the least work a reply-statistics call sends to the GPU.
    """

    name: str = "cuda"
    min_answers: int | None = None
    _resident: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.xp = _device_array_module()
        self.cpu = CpuBackend()

    def to_device(self, array: np.ndarray):
        """Return a device copy of ``array``."""
        return self.xp.to_device(array)

    def resident(self, array: np.ndarray):
        """Return a device copy of ``array`` kept while the same array is passed (the pattern
        matrix and its transpose: copied once, not per launch); the array must not change
        meanwhile. A few arrays are kept; a new one beyond them replaces them all."""
        held = self._resident.get(id(array))
        if held is None or held[0] is not array:
            if len(self._resident) >= RESIDENT_ARRAYS:
                self._resident.clear()
            held = (array, self.xp.to_device(array))
            self._resident[id(array)] = held
        return held[1]

    def empty(self, shape, dtype):
        """Return an uninitialised device array."""
        return self.xp.empty(shape, dtype)

    def to_host(self, array) -> np.ndarray:
        """Return a host copy of a device array."""
        return self.xp.to_host(array)

    @staticmethod
    def blocks(items: int, per_thread: bool = False) -> int:
        """Return the blocks of a one-dimensional launch over ``items`` (one block, or one
        thread, per item; kernels stride over the rest)."""
        from ..kernels import config

        per_block = config.THREADS_PER_BLOCK if per_thread else 1
        return max(1, min(65535, -(-items // per_block)))

    def launch(self, kernel, blocks, *args, threads=None) -> None:
        """Run ``kernel[blocks, threads](*args)`` (threads: ``config.THREADS_PER_BLOCK``), host
        arrays among ``args`` copied to the device first."""
        from ..kernels import config

        threads = config.THREADS_PER_BLOCK if threads is None else threads
        kernel[blocks, threads](*(self.to_device(a) if isinstance(a, np.ndarray) else a for a in args))

    def offloads(self, answers: int, n_patterns: int) -> bool:
        """Return whether a reply-statistics call over ``answers`` answers in all runs on the GPU."""
        from ..kernels import config

        least = config.GPU_MIN_ANSWERS if self.min_answers is None else self.min_answers
        return answers >= least and n_patterns <= config.MAX_PATTERNS

    def pattern_matrix(self, kind: int, guesses: np.ndarray, answers: np.ndarray,
                       colours: int, dtype: np.dtype) -> np.ndarray:
        """Return the (guesses x answers) reply-code matrix, built on the GPU."""
        from ..kernels import config
        from ..kernels import patterns_cuda as cuda

        out = self.empty((len(guesses), len(answers)), dtype)
        blocks = tuple(min(65535, -(-n // t)) for n, t in zip(out.shape, config.TILE))
        self.launch(cuda.fill_pattern_matrix, blocks, kind, guesses, answers, colours, out,
                    threads=config.TILE)
        return self.to_host(out)

    def reply_stats(self, codes: np.ndarray, rows: np.ndarray, flat: np.ndarray, starts: np.ndarray,
                    n_patterns: int, solved: int, columns) -> np.ndarray:
        """Return ``CpuBackend.reply_stats``'s table: one launch of the histogram kernel when the
        call ``offloads``, the CPU twin otherwise."""
        from ..kernels import histogram_cuda

        if not self.offloads(len(flat), n_patterns) or not len(rows) or len(starts) < 2:
            return self.cpu.reply_stats(codes, rows, flat, starts, n_patterns, solved, columns)
        rows, flat, starts, columns, most, dtype = _stats_call(rows, flat, starts, columns)
        out = self.empty((len(starts) - 1, len(rows), len(columns)), dtype)
        blocks = self.blocks((len(starts) - 1) * len(rows))
        self.launch(histogram_cuda.reply_stats, blocks, self.resident(codes), rows, flat, starts,
                    n_patterns, solved, *stats_tables(most), columns, out)
        return self.to_host(out)

    def hard_mode_mask(self, kind: int, length: int, colours: int, letters: np.ndarray, counts: np.ndarray,
                       moves_g: np.ndarray, moves_p: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Return ``CpuBackend.hard_mode_mask``, one GPU thread per guess."""
        from ..kernels import hardmode_cuda

        out = self.empty(len(rows), np.uint8)
        self.launch(hardmode_cuda.allowed, self.blocks(len(rows), per_thread=True), kind, length, colours,
                    letters, counts, moves_g, moves_p, rows, out)
        return self.to_host(out)

    def second_pass(self, codes: np.ndarray, tmat: np.ndarray, answer_rows: np.ndarray, perm: np.ndarray,
                    units: np.ndarray, rows: np.ndarray, solved: int, n_patterns: int, left: int,
                    branches: int, members_only: bool) -> np.ndarray:
        """Return ``CpuBackend.second_pass``: one launch, a block per bucket, the answer-major
        matrix ``tmat`` kept on the device beside the guess-major one."""
        from ..kernels import second_pass_cuda

        out = self.empty(len(units), np.int64)
        self.launch(second_pass_cuda.second_pass, self.blocks(len(units)), self.resident(codes),
                    self.resident(tmat), answer_rows, perm, units, rows, solved, left, branches, members_only,
                    out)
        return self.to_host(out)

    def war_games(self, key: int, first: int, count: int, ranks: int, suits: int, down: int,
                  cap: int) -> tuple[np.ndarray, np.ndarray]:
        """Return (plays, outcome) arrays of War games ``first .. first + count - 1``, one thread each."""
        from ..kernels import war_cuda

        lengths = self.empty(count, np.int32)
        outcomes = self.empty(count, np.int8)
        self.launch(war_cuda.play_games, self.blocks(count, per_thread=True), np.uint64(key), first, ranks,
                    suits, down, cap, lengths, outcomes)
        return self.to_host(lengths), self.to_host(outcomes)


RESIDENT_ARRAYS = 4
"""Host arrays a CUDA backend keeps device copies of at once (``CudaBackend.resident``)."""

class _CupyArrays:
    """Device memory through CuPy."""

    def __init__(self) -> None:
        import cupy

        self.cupy = cupy

    def empty(self, shape, dtype):
        return self.cupy.empty(shape, dtype=dtype)

    def to_device(self, array: np.ndarray):
        return self.cupy.asarray(array)

    def to_host(self, array) -> np.ndarray:
        return self.cupy.asnumpy(array)


class _NumbaArrays:
    """Device memory through numba.cuda: the CUDA simulator's stand-in for CuPy in tests."""

    def __init__(self) -> None:
        from numba import cuda

        self.cuda = cuda

    def empty(self, shape, dtype):
        return self.cuda.device_array(shape, dtype=dtype)

    def to_device(self, array: np.ndarray):
        return self.cuda.to_device(np.ascontiguousarray(array))

    def to_host(self, array) -> np.ndarray:
        return array.copy_to_host()


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


def get_backend(name: str | None = None) -> CpuBackend | CudaBackend:
    """Return the backend named (or from $GPUSOLVE_BACKEND, default ``auto``)."""
    name = (name or os.environ.get("GPUSOLVE_BACKEND") or "auto").lower()
    if name not in BACKENDS:
        raise GpusolveError(f"unknown backend {name!r}: choose one of {', '.join(BACKENDS)}")
    note_compiling()
    simulated = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
    if name == "cpu" or (name == "auto" and not simulated and find_spec("cupy") is None):
        return CpuBackend()  # without CuPy, auto is the CPU: numba.cuda (slow to import) stays out
    usable, reason = cuda_status()
    if name == "cuda" and not (usable or simulated):
        raise GpusolveError(f"the cuda backend is not available: {reason}")
    if name == "cuda" or usable:
        return CudaBackend()
    return CpuBackend()


def device_info() -> dict | None:
    """Return the current CUDA device's name, compute capability and memory, or None."""
    if not cuda_status()[0]:
        return None
    from numba import cuda

    device = cuda.get_current_device()
    free, total = cuda.current_context().get_memory_info()
    name = device.name.decode() if isinstance(device.name, bytes) else str(device.name)
    return {
        "name": name,
        "compute_capability": ".".join(map(str, device.compute_capability)),
        "memory_total_gib": round(total / 2**30, 2),
        "memory_free_gib": round(free / 2**30, 2),
    }
