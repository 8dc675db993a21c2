"""The CPU twin of every CUDA kernel, called with the kernel's own arguments: the ``count``
backend's device (``core.backend``), which runs the GPU path's launches without a GPU.

Each twin fills the kernel's outputs with the numbers the kernel gives (every kernel is tested
against its twin: ``tests/test_cuda_kernels.py``); what the kernel takes as scratch is ignored.
Every twin works in slices (``_sliced``), each on one thread with numba's parallel loops kept on
it, so that the CPU seconds of a launch are its threads' own, not those of the threads working
beside it (the proof's searches).
"""

from __future__ import annotations

import threading
import time

import numba
import numpy as np

from .errors import GpusolveError

_SPENT = [0.0]
_SPENT_LOCK = threading.Lock()
"""The thread CPU seconds of the launch under way (one at a time: ``CudaBackend.launch``)."""


def run_twin(kernel, args: list) -> float:
    """Run the CPU twin of the CUDA ``kernel`` on its launch's ``args``; return the CPU seconds it
    took (those of the threads that ran it)."""
    from ..kernels.gpu import kernel_name

    name = kernel_name(kernel)
    if name not in TWINS:
        raise GpusolveError(f"the count backend has no CPU twin of {name}; use --backend cpu")
    _SPENT[0] = 0.0
    TWINS[name](*(np.asarray(a) if isinstance(a, np.ndarray) else a for a in args))
    return _SPENT[0]


def _sliced(call, n: int) -> None:
    """Run ``call(lo, hi)`` over slices of ``range(n)`` on the CPU threads (``over_slices``), each
    slice's numba loops on its own thread, adding the slices' thread CPU seconds to ``_SPENT``."""
    from ..kernels.threads import over_slices

    def timed(lo: int, hi: int) -> None:
        threads, started = numba.get_num_threads(), time.thread_time()
        numba.set_num_threads(1)  # this thread's parallel loops run on it
        try:
            call(lo, hi)
        finally:
            numba.set_num_threads(threads)
            with _SPENT_LOCK:
                _SPENT[0] += time.thread_time() - started

    over_slices(timed, n, numba.get_num_threads())


def _reply_stats(codes, rows, flat, starts, n_patterns, solved, nlogn, inverse, columns, out) -> None:
    from ..kernels import histogram_cpu

    _sliced(lambda lo, hi: histogram_cpu.reply_stats(codes, rows, flat, starts, n_patterns, solved, nlogn,
                                                     inverse, columns, out, lo, hi),
            out.shape[0] * out.shape[1])


def _pattern_matrix(kind, guesses, answers, colours, out) -> None:
    from ..kernels.patterns_cpu import fill_pattern_matrix

    _sliced(lambda lo, hi: fill_pattern_matrix(kind, guesses[lo:hi], answers, colours, out[lo:hi]),
            len(guesses))


def _allowed(kind, length, colours, letters, counts, moves_g, moves_p, rows, out) -> None:
    from ..kernels import hardmode_cpu

    _sliced(lambda lo, hi: hardmode_cpu.allowed(kind, length, colours, letters, counts, moves_g, moves_p,
                                                rows[lo:hi], out[lo:hi]), len(rows))


def _second_pass(codes, tmat, answer_rows, perm, units, guesses, solved, left, branches, members_only,
                 out) -> None:
    from ..kernels import second_pass_cpu

    n_patterns = max(int(codes.max(initial=0)), solved) + 1  # the kernel sizes nothing by it
    def units_of(lo: int, hi: int) -> None:  # the buckets lo to hi, on a thread
        second_pass_cpu.second_pass(codes, answer_rows, perm, units[lo:hi], guesses, solved, n_patterns, left,
                                    branches, members_only, out[lo:hi])

    _sliced(units_of, len(units))


def _ranked(codes, tmat, answers, guesses, solved, n_patterns, answer_rows, members_only: bool):
    """Return what the CPU first pass reads of the ``guesses`` (``bounds.answerers``): them ranked
    by decreasing cap (``Guesses``), their answer-major replies, the most distinct replies an
    answer gives."""
    from ..kernels.bounds_cpu import Guesses, new_facts

    caps = _branches(codes, guesses, answers, n_patterns, solved)
    order = np.argsort(-caps, kind="stable")
    ranked = np.ascontiguousarray(guesses[order], np.int32)
    replies = np.zeros((0, 0), np.uint8) if members_only else np.ascontiguousarray(tmat[answers][:, ranked])
    most = int(_branches(codes, answer_rows[answers], answers, n_patterns, solved).max(initial=0))
    return Guesses(ranked, np.ascontiguousarray(caps[order]), new_facts()), replies, most


def _start_bounds(codes, tmat, answers, starts, guesses, solved, n_patterns, left, members_only, answer_rows,
                  perm, out, totals) -> None:
    """The exact first pass (no cutoff) of ``bounds_cpu.start_bounds``, its guesses ranked by cap."""
    from ..kernels.bounds_cpu import PAIR_MAX, new_scores, start_bounds
    from ..kernels.config import INF

    kept, replies, most = _ranked(codes, tmat, answers, guesses, solved, n_patterns, answer_rows,
                                  members_only)
    scores, fresh = new_scores(tmat.shape[0]), np.zeros_like(out)
    out[:], totals[:] = 0, 0  # the CPU kernel adds to them

    def slice_of(lo: int, hi: int) -> None:  # the start words lo to hi, on a thread
        start_bounds(codes, replies, answers, starts[lo:hi], kept, solved, left, members_only, answer_rows,
                     most, INF, PAIR_MAX, scores, out[lo:hi], totals[lo:hi], fresh[lo:hi])

    _sliced(slice_of, len(starts))


def _start_hard_bounds(codes, tmat, answers, starts, guesses, solved, left, answer_rows, kind, length,
                       colours, letters, counts, perm, out, totals) -> None:
    """The exact hard-mode first pass (no cutoff) of ``bounds_cpu.start_hard_bounds``."""
    from ..kernels.bounds_cpu import PAIR_MAX, Words, start_hard_bounds
    from ..kernels.config import INF

    n_patterns = out.shape[1]
    kept, replies, most = _ranked(codes, tmat, answers, guesses, solved, n_patterns, answer_rows, False)
    words = Words(kind, length, colours, letters, counts)
    out[:], totals[:] = 0, 0

    def slice_of(lo: int, hi: int) -> None:  # the start words lo to hi, on a thread
        start_hard_bounds(codes, words, replies, answers, starts[lo:hi], kept, solved, n_patterns, left,
                          answer_rows, most, INF, PAIR_MAX, out[lo:hi], totals[lo:hi])

    _sliced(slice_of, len(starts))


def _branches(codes, rows, answers, n_patterns, solved) -> np.ndarray:
    """Return the distinct replies of each guess row ``rows[i]`` over ``answers`` (int64)."""
    from ..kernels.stats import BRANCHES, inverse_table, nlogn_table

    size = 1 << max(len(answers), 1).bit_length()
    out = np.empty((1, len(rows), 1), np.int64)
    starts, columns = np.array([0, len(answers)], np.int64), np.array([BRANCHES], np.int64)
    _reply_stats(codes, np.ascontiguousarray(rows, np.int32), answers, starts, n_patterns, solved,
                 nlogn_table(size), inverse_table(size), columns, out)
    return out[0, :, 0]


def _set_bounds(codes, square, sets, answer_rows, n_patterns, more, keys, buf, seen, bounds, wins,
                biggest) -> None:
    from ..kernels import presets_cpu

    wins = wins.view(np.bool_)
    _sliced(lambda lo, hi: presets_cpu.set_bounds(codes, square, sets[lo:hi], answer_rows, n_patterns, more,
                                                  bounds[lo:hi], wins[lo:hi], biggest[lo:hi], 1), len(sets))


def _play_games(key, first, ranks, suits, down, cap, lengths, outcomes) -> None:
    from ..kernels import war_cpu

    _sliced(lambda lo, hi: war_cpu.play_games(key, first + lo, ranks, suits, down, cap, lengths[lo:hi],
                                              outcomes[lo:hi], 1), len(lengths))


def _histogram(values, out) -> None:
    from ..kernels import trial_cuda

    def count(lo: int, hi: int) -> None:
        out[:] = np.bincount(values % trial_cuda.BINS, minlength=trial_cuda.BINS)

    _sliced(count, 1)


TWINS = {
    "histogram_cuda.reply_stats": _reply_stats,
    "patterns_cuda.fill_pattern_matrix": _pattern_matrix,
    "hardmode_cuda.allowed": _allowed,
    "second_pass_cuda.second_pass": _second_pass,
    "bounds_cuda.start_bounds": _start_bounds,
    "bounds_cuda.start_hard_bounds": _start_hard_bounds,
    "presets_cuda.set_bounds": _set_bounds,
    "war_cuda.play_games": _play_games,
    "trial_cuda.histogram": _histogram,
}
"""Each CUDA kernel's twin (``kernels.gpu.kernel_name`` -> the twin), taking the launch's arguments."""
