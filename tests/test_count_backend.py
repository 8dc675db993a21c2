"""The count backend: the CUDA backend's routing with every launch run by its CPU twin, counted.

Its launch counts pin how the GPU path batches its work: a change that splits a launch (or moves
work between the GPU and the CPU) changes them. Its results are the CPU backend's.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from gpusolve.kernels import config
from test_cuda_kernels import LAUNCH_SITES, _tiny
from test_optimal import random_instance
from typer.testing import CliRunner
from wordfiles import small_lists

from gpusolve.cli import app
from gpusolve.core import backend
from gpusolve.core.backend import CpuBackend, CudaBackend, get_backend
from gpusolve.runs import proof
from gpusolve.runs.proof import prove_best_start


@pytest.fixture
def low(monkeypatch):
    """Lower the GPU path's thresholds so that a small game takes it, as the CUDA tests do."""
    for name in ("FIRST_PASS_GPU_MIN_STARTS", "SECOND_PASS_GPU_MIN_UNITS"):
        monkeypatch.setattr(config, name, 4)
    monkeypatch.setattr(config, "GPU_START_CELLS", 1)
    monkeypatch.setattr(proof, "GPU_PASS_UNITS", 16)


def counting() -> CudaBackend:
    """Return a fresh count backend (``get_backend("count")`` keeps one per process)."""
    return CudaBackend(name="count", twins=True)


def test_count_is_a_backend_that_needs_no_gpu():
    counted = get_backend("count")
    assert counted is get_backend("count") and counted.name == "count" and counted.twins
    assert counted.on_gpu() and counted.gpu_path() and not CpuBackend().gpu_path()


def test_every_launch_is_counted_and_its_twin_gives_the_kernels_numbers():
    """A reply-statistics launch on the count backend: the CPU's table, one launch, its cells, the
    bytes each way (the matrix copied once: it stays on the device)."""
    from gpusolve.core.backend import stats_dtype

    pm = random_instance("wordle", 3, 40, 60)
    rows, flat = np.arange(60, dtype=np.int32), np.arange(40, dtype=np.int32)
    starts, columns = np.array([0, 20, 40]), np.array([0, 1, 2])
    counted = CudaBackend(name="count", twins=True, every_call=True)
    for _ in range(2):
        table = counted.reply_stats(pm.codes, rows, flat, starts, pm.game.n_patterns, pm.game.solved, columns)
    assert np.array_equal(table, CpuBackend().reply_stats(pm.codes, rows, flat, starts, pm.game.n_patterns,
                                                          pm.game.solved, columns))
    counts = counted.clock.as_dict()["counts"]["all"]
    assert counts["launches"] == {"histogram_cuda.reply_stats": 2} and counts["cells"] == 2 * 60 * 40
    out = 2 * 60 * 3 * stats_dtype(columns, 20).itemsize
    assert counts["bytes_to_host"] == 2 * out
    assert counts["bytes_to_device"] > pm.codes.nbytes and counts["bytes_to_device"] < 2 * pm.codes.nbytes


def test_the_whole_proof_counted_equals_the_cpus_and_its_launches_are_pinned(tmp_path, monkeypatch, low):
    """A small whole proof (24 answers: only whole-set calls reach the GPU; none of them left to
    the CPU while the GPU is busy, which depends on timing): the CPU's statement, and the
    launches, cells and bytes of each phase."""
    monkeypatch.setattr(config, "GPU_MIN_ANSWERS", 24)
    monkeypatch.setattr(config, "GPU_BUSY_CELLS", 0)
    pm = random_instance("jotto", 7, 24, 32)
    cpu = prove_best_start(pm, max_guesses=5, run_dir=tmp_path / "cpu", workers=1, second_pass=True)
    pm.backend = counting()
    counted = prove_best_start(pm, max_guesses=5, run_dir=tmp_path / "count", workers=1)
    assert counted.statement() == cpu.statement() and counted.exact == cpu.exact
    assert counted.by_second_pass == cpu.by_second_pass > 0
    counts = counted.as_dict()["gpu"]["counts"]
    launches = {phase: found.get("launches") for phase, found in counts.items()}
    assert launches == PROOF_LAUNCHES
    assert {phase: (found.get("cells"), found.get("bytes_to_device"), found.get("bytes_to_host"))
            for phase, found in counts.items() if "cells" in found} == PROOF_TRAFFIC
    assert all(counts[phase]["cpu_seconds"] >= 0 for phase in ("first_pass", "seed", "search"))


PROOF_LAUNCHES = {
    "all": {"histogram_cuda.reply_stats": 1},  # the guess table ordering the candidates
    "first_pass": {"bounds_cuda.start_bounds": 2},  # 32 candidates, 16 a launch: the second beside the seeds
    "seed": {"second_pass_cuda.second_pass": 1, "histogram_cuda.reply_stats": 1},
    "search": {"histogram_cuda.reply_stats": 1},
}
PROOF_TRAFFIC = {  # phase: (cells, bytes to the device, bytes to the host)
    "all": (768, 1560, 384),
    "first_pass": (24576, 1536, 1792),
    "seed": (12312, 3652, 420),
    "search": (24, 668, 12),
}


def test_a_small_table_counted_equals_the_cpus_and_its_launches_are_pinned(tmp_path, monkeypatch, low):
    """``optimal-tree --rank`` over a few start words in this process: the CPU's totals, and the
    launches, cells and bytes of the searches' large sets (thresholds lowered to reach them)."""
    from gpusolve.search import optimal

    monkeypatch.setattr(config, "GPU_MIN_ANSWERS", 16)
    monkeypatch.setattr(config, "GPU_BUSY_CELLS", 0)
    monkeypatch.setattr(optimal, "FIRST_PASS_MIN_ANSWERS", 16)
    guesses, answers = small_lists(tmp_path, n_answers=120, n_extra=40, step=19)
    backend._count_backend.cache_clear()  # the process's count backend: counted from now on
    found = {}
    for name in ("cpu", "count"):
        argv = ["optimal-tree", "--rank", "--words", "CRAMP,FISHY,BORAX", "--guesses", guesses, "--answers",
                answers, "--workers", "0", "--json", "--quiet", "--backend", name, "--run-dir",
                str(tmp_path / name)]
        done = CliRunner().invoke(app, argv)
        assert done.exit_code == 0, done.output
        found[name] = json.loads(done.stdout)
    totals = {b: [(r["word"], r["total"], r["exact"]) for r in f["results"]] for b, f in found.items()}
    assert totals["count"] == totals["cpu"] and found["cpu"]["gpu"] is None
    counts = found["count"]["gpu"]["counts"]
    assert {phase: f["launches"] for phase, f in counts.items()} == TABLE_LAUNCHES
    assert (counts["all"]["cells"], counts["all"]["bytes_to_device"], counts["all"]["bytes_to_host"]) == \
        (2_759_704, 60_336, 1_386_420)
    assert found["count"]["gpu"]["cpu_seconds"] > 0


TABLE_LAUNCHES = {"all": {"histogram_cuda.reply_stats": 9, "bounds_cuda.start_bounds": 5}}


@pytest.mark.parametrize("site", LAUNCH_SITES)
def test_every_launch_site_counted_equals_cpu(small_pm, site):
    """Each place the library launches a kernel, on the count backend sending every call to the
    device: one launch of that kernel, run by its twin, and the CPU backend's numbers."""
    call, kernel = LAUNCH_SITES[site]
    counted = CudaBackend(name="count", twins=True, every_call=True)
    want = call(_tiny(small_pm, CpuBackend()))
    got = call(_tiny(small_pm, counted))
    launched = counted.clock.as_dict()["counts"]["all"]["launches"]
    assert {name.split(".")[1]: n for name, n in launched.items()} == {kernel: 1}
    as_lists = (lambda x: [a.tolist() for a in x]) if isinstance(want, tuple) else (lambda x: x.tolist())
    assert as_lists(got) == as_lists(want)


@pytest.mark.parametrize("mode", ["normal", "consistent"])
def test_the_second_pass_counted_equals_cpu(mode):
    from gpusolve.search.bounds import start_second_pass

    found = {}
    for engine in (CpuBackend(), CudaBackend(name="count", twins=True, every_call=True)):
        pm = random_instance("wordle", 5, 40, 60)
        pm.backend = engine
        second = start_second_pass(pm, mode, 4, np.arange(0, 60, 3, dtype=np.int32))
        found[engine.name] = (second.totals.tolist(), second.buckets.tolist())
    assert found["count"] == found["cpu"]
    assert engine.clock.as_dict()["counts"]["all"]["launches"] == {"bounds_cuda.start_bounds": 1,
                                                                  "second_pass_cuda.second_pass": 1,
                                                                  "histogram_cuda.reply_stats": 1}
