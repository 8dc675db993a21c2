"""Compute backends: ``cpu`` (numba) and ``cuda`` (numba.cuda kernels on CuPy device memory).

The only module that imports CuPy, and only when the CUDA backend is asked for.
``auto`` picks CUDA when numba sees a GPU and CuPy imports; otherwise the CPU.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
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


@dataclass
class CpuBackend:
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

    def partition_stats(self, matrix: np.ndarray, guess_rows: np.ndarray, answers: np.ndarray,
                        n_patterns: int, nlogn: np.ndarray, inverse: np.ndarray) -> np.ndarray:
        """Return the int64 (len(guess_rows), N_STATS) partition statistics over ``answers``."""
        import numba

        from ..kernels import patterns_cpu as cpu
        from ..kernels.stats import N_STATS

        out = np.empty((len(guess_rows), N_STATS), dtype=np.int64)
        cpu.partition_stats(matrix, guess_rows, answers, n_patterns, nlogn, inverse, out,
                           numba.get_num_threads())
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
class CudaBackend:
    """Numba.cuda kernels on device arrays from ``xp`` (CuPy; numba's own arrays in tests)."""

    name: str = "cuda"
    _device_matrix: tuple = field(default=(None, None), repr=False)

    def __post_init__(self) -> None:
        self.xp = _device_array_module()

    def pattern_matrix(self, kind: int, guesses: np.ndarray, answers: np.ndarray,
                       colours: int, dtype: np.dtype) -> np.ndarray:
        """Return the (guesses x answers) reply-code matrix, built on the GPU."""
        from ..kernels import config
        from ..kernels import patterns_cuda as cuda

        out = self.xp.empty((len(guesses), len(answers)), dtype)
        blocks = tuple(min(65535, -(-n // t)) for n, t in zip(out.shape, config.TILE))
        cuda.fill_pattern_matrix[blocks, config.TILE](
            kind, self.xp.to_device(guesses), self.xp.to_device(answers), colours, out
        )
        return self.xp.to_host(out)

    def partition_stats(self, matrix: np.ndarray, guess_rows: np.ndarray, answers: np.ndarray,
                        n_patterns: int, nlogn: np.ndarray, inverse: np.ndarray) -> np.ndarray:
        """Return the int64 (len(guess_rows), N_STATS) partition statistics over ``answers``."""
        from ..kernels import config
        from ..kernels import patterns_cuda as cuda
        from ..kernels.stats import N_STATS

        if n_patterns > cuda.MAX_PATTERNS:
            raise GpusolveError(f"the CUDA backend handles at most {cuda.MAX_PATTERNS} replies")
        xp = self.xp
        out = xp.empty((len(guess_rows), N_STATS), np.int64)
        blocks = max(1, min(len(guess_rows), 65535))
        cuda.partition_stats[blocks, config.THREADS_PER_BLOCK](
            self._on_device(matrix), xp.to_device(guess_rows), xp.to_device(answers),
            n_patterns, xp.to_device(nlogn), xp.to_device(inverse), out,
        )
        return xp.to_host(out)

    def war_games(self, key: int, first: int, count: int, ranks: int, suits: int, down: int,
                  cap: int) -> tuple[np.ndarray, np.ndarray]:
        """Return (plays, outcome) arrays of War games ``first .. first + count - 1``, one thread each."""
        from ..kernels import config, war_cuda

        lengths = self.xp.empty(count, np.int32)
        outcomes = self.xp.empty(count, np.int8)
        blocks = max(1, min(65535, -(-count // config.THREADS_PER_BLOCK)))
        war_cuda.play_games[blocks, config.THREADS_PER_BLOCK](
            np.uint64(key), first, ranks, suits, down, cap, lengths, outcomes
        )
        return self.xp.to_host(lengths), self.xp.to_host(outcomes)

    def _on_device(self, matrix: np.ndarray):
        """Return a device copy of ``matrix``, kept while the same matrix is used."""
        host, device = self._device_matrix
        if host is not matrix:
            device = self.xp.to_device(matrix)
            self._device_matrix = (matrix, device)
        return device


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
