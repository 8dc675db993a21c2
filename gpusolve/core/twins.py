"""The CPU twin of every CUDA kernel, called with the kernel's own arguments: the ``count``
backend's device (``core.backend``), which runs the GPU path's launches without a GPU.

Each twin fills the kernel's outputs with the numbers the kernel gives (every kernel is tested
against its twin: ``tests/test_cuda_kernels.py``); what the kernel takes as scratch is ignored.
"""

from __future__ import annotations

import numba
import numpy as np

from .errors import GpusolveError


def run_twin(kernel, args: list) -> None:
    """Run the CPU twin of the CUDA ``kernel`` on its launch's ``args``; return None."""
    from ..kernels.gpu import kernel_name

    name = kernel_name(kernel)
    if name not in TWINS:
        raise GpusolveError(f"the count backend has no CPU twin of {name}; use --backend cpu")
    TWINS[name](*(np.asarray(a) if isinstance(a, np.ndarray) else a for a in args))


def _reply_stats(codes, rows, flat, starts, n_patterns, solved, nlogn, inverse, columns, out) -> None:
    from ..kernels import histogram_cpu
    from ..kernels.threads import over_slices

    over_slices(lambda lo, hi: histogram_cpu.reply_stats(codes, rows, flat, starts, n_patterns, solved, nlogn,
                                                         inverse, columns, out, lo, hi),
                out.shape[0] * out.shape[1], numba.get_num_threads())


def _pattern_matrix(kind, guesses, answers, colours, out) -> None:
    from ..kernels.patterns_cpu import fill_pattern_matrix
    from ..kernels.threads import over_slices

    over_slices(lambda lo, hi: fill_pattern_matrix(kind, guesses[lo:hi], answers, colours, out[lo:hi]),
                len(guesses), numba.get_num_threads())


def _allowed(kind, length, colours, letters, counts, moves_g, moves_p, rows, out) -> None:
    from ..kernels import hardmode_cpu

    hardmode_cpu.allowed(kind, length, colours, letters, counts, moves_g, moves_p, rows, out)


def _second_pass(codes, tmat, answer_rows, perm, units, guesses, solved, left, branches, members_only,
                 out) -> None:
    from ..kernels import second_pass_cpu

    n_patterns = max(int(codes.max(initial=0)), solved) + 1  # the kernel sizes nothing by it
    second_pass_cpu.second_pass(codes, answer_rows, perm, units, guesses, solved, n_patterns, left, branches,
                                members_only, out)


def _start_bounds(codes, tmat, answers, starts, guesses, solved, n_patterns, left, members_only, answer_rows,
                  perm, out, totals) -> None:
    """The exact first pass (no cutoff) of ``bounds_cpu.start_bounds``, its guesses ranked by cap."""
    from ..kernels.bounds_cpu import PAIR_MAX, Guesses, new_scores, start_bounds
    from ..kernels.config import INF
    from ..kernels.threads import over_slices

    caps = _branches(codes, guesses, answers, n_patterns, solved)
    order = np.argsort(-caps, kind="stable")
    ranked = np.ascontiguousarray(guesses[order], np.int32)
    replies = np.zeros((0, 0), np.uint8) if members_only else np.ascontiguousarray(tmat[answers][:, ranked])
    kept = Guesses(ranked, np.ascontiguousarray(caps[order]))
    most = int(_branches(codes, answer_rows[answers], answers, n_patterns, solved).max(initial=0))
    scores, fresh = new_scores(tmat.shape[0]), np.zeros_like(out)
    out[:], totals[:] = 0, 0  # the CPU kernel adds to them

    def slice_of(lo: int, hi: int) -> None:  # the start words lo to hi, on a thread
        start_bounds(codes, replies, answers, starts[lo:hi], kept, solved, left, members_only, answer_rows,
                     most, INF, PAIR_MAX, scores, out[lo:hi], totals[lo:hi], fresh[lo:hi])

    over_slices(slice_of, len(starts), numba.get_num_threads())


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

    presets_cpu.set_bounds(codes, square, sets, answer_rows, n_patterns, more, bounds, wins.view(np.bool_),
                           biggest, numba.get_num_threads())


def _play_games(key, first, ranks, suits, down, cap, lengths, outcomes) -> None:
    from ..kernels import war_cpu

    war_cpu.play_games(key, first, ranks, suits, down, cap, lengths, outcomes, numba.get_num_threads())


def _histogram(values, out) -> None:
    from ..kernels import trial_cuda

    out[:] = np.bincount(values % trial_cuda.BINS, minlength=trial_cuda.BINS)


TWINS = {
    "histogram_cuda.reply_stats": _reply_stats,
    "patterns_cuda.fill_pattern_matrix": _pattern_matrix,
    "hardmode_cuda.allowed": _allowed,
    "second_pass_cuda.second_pass": _second_pass,
    "bounds_cuda.start_bounds": _start_bounds,
    "presets_cuda.set_bounds": _set_bounds,
    "war_cuda.play_games": _play_games,
    "trial_cuda.histogram": _histogram,
}
"""Each CUDA kernel's twin (``kernels.gpu.kernel_name`` -> the twin), taking the launch's arguments."""
