"""CUDA kernels against the CPU kernels and the oracle (a GPU, or NUMBA_ENABLE_CUDASIM=1)."""

from __future__ import annotations

import numpy as np
import pytest
from gpusolve.kernels.stats import inverse_table, nlogn_table

from gpusolve.core.backend import CpuBackend, CudaBackend
from gpusolve.core.games import make_game
from gpusolve.core.patterns import build_codes

pytestmark = pytest.mark.cuda

WORDS = ("NINNY", "ANNEX", "HELLO", "WORLD", "EPEES", "GEESE", "PEEVE", "WHEEE", "STARS",
         "TRAPS", "PALLS", "SPLAT", "BANAL", "MANIA", "ABYSS", "CRANE", "SLATE")


@pytest.mark.parametrize(("name", "length", "words"), [
    ("wordle", 5, WORDS),
    ("jotto", 5, ("CRANE", "SLATE", "BIRTH", "FJORD", "NYMPH", "WALTZ")),
    ("mastermind", 4, ("1122", "1234", "6543", "1111", "2211", "3456")),
    ("wordle", 6, ("BANANA", "ANANAS", "CANNON", "PAPAYA")),
])  # fmt: skip
def test_pattern_matrix_cuda_equals_cpu_and_oracle(name, length, words):
    game = make_game(name, length)
    cpu = build_codes(game, words, words[:5], CpuBackend())
    gpu = build_codes(game, words, words[:5], CudaBackend())
    assert gpu.tolist() == cpu.tolist()
    assert gpu.tolist() == [[game.reply(g, a) for a in words[:5]] for g in words]


def test_partition_stats_cuda_equals_cpu():
    game = make_game("wordle")
    rng = np.random.default_rng(7)
    letters = rng.integers(0, 6, size=(40, 5))
    words = tuple(sorted({"".join("ABCDEF"[i] for i in row) for row in letters}))
    codes = build_codes(game, words, words, CpuBackend())
    answers = np.arange(0, len(words), 2, dtype=np.int32)
    rows = np.arange(len(words), dtype=np.int32)
    args = (codes, rows, answers, game.n_patterns, nlogn_table(len(answers)), inverse_table(len(answers)))
    assert CudaBackend().partition_stats(*args).tolist() == CpuBackend().partition_stats(*args).tolist()


@pytest.mark.parametrize("kind", ["wordle", "jotto", "mastermind"])
@pytest.mark.parametrize("mode", ["normal", "consistent"])
def test_first_pass_bounds_cuda_equal_cpu(monkeypatch, kind, mode):
    from gpusolve.kernels import config
    from test_optimal import random_instance

    from gpusolve.search.bounds import first_pass, guess_caps
    from gpusolve.search.optimal import guess_table

    pm = random_instance(kind, 11, 24, 40)
    answers = np.arange(24, dtype=np.int32)
    rows = pm.answer_rows.astype(np.int32) if mode == "consistent" else np.arange(40, dtype=np.int32)
    caps = guess_caps(guess_table(pm, answers, rows))
    for left in (1, 2, 4):
        cpu = first_pass(pm, answers, rows, rows, caps, left, members_only=mode == "consistent")
        monkeypatch.setattr(config, "BOUNDS_GPU_MIN_ANSWERS", 1)
        monkeypatch.setattr(config, "BOUNDS_GPU_BLOCKS", 3)  # grid-stride over the start words
        monkeypatch.setattr(config, "THREADS_PER_BLOCK", 32)
        pm.backend = CudaBackend()
        gpu = first_pass(pm, answers, rows, rows, caps, left, members_only=mode == "consistent")
        pm.backend = CpuBackend()
        monkeypatch.undo()
        assert gpu.totals.tolist() == cpu.totals.tolist()
        assert gpu.buckets.tolist() == cpu.buckets.tolist()
