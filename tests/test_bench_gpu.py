"""scripts/bench_gpu.py without a GPU: what it would run, its library calls on the CPU, its table."""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "bench_gpu.py"


@pytest.fixture(scope="module")
def bench():
    """Return the script as a module."""
    spec = importlib.util.spec_from_file_location("bench_gpu", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_gpu"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_dry_run_says_every_command_once_per_backend_and_repeat(tmp_path):
    argv = [sys.executable, str(SCRIPT), "--dry-run", "--repeats", "2", "--out", str(tmp_path)]
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    runs = [line.removeprefix("would run: ") for line in done.stdout.splitlines() if line.startswith("would")]
    for backend in ("cuda", "cpu"):
        mine = [r for r in runs if r.endswith(f"--backend {backend}") or f"--backend {backend} " in r]
        normal = "gpusolve optimal-tree --start SALET --json --quiet --guesses"
        assert sum(r.startswith(normal) for r in mine) == 1 + 2
        assert sum("--mode hard" in r and "--run-dir" not in r for r in mine) == 1 + 2
        # the whole proofs (normal and hard) and the costly start words: not warmed, one timed run each
        assert sum("--run-dir" in r and "--rank" not in r and "--mode hard" not in r for r in mine) == 1
        assert sum("--run-dir" in r and "--mode hard" in r for r in mine) == 1
        assert sum("--rank --words PIXIE" in r and "--run-dir" in r for r in mine) == 1
        assert sum(r.startswith("gpusolve rank --json") for r in mine) == 1 + 2
        for call in ("pattern_matrix", "metrics", "first_pass"):
            timed = f"bench_gpu.py --call {call} --backend {backend} --repeats 2"
            assert sum(r.startswith(timed) for r in mine) == 1
    proof = [r for r in runs if "--run-dir" in r]
    assert len(set(proof)) == len(proof)  # a fresh run directory each time
    table = [r for r in runs if r.startswith("bench_table.py")]
    # its limit: (150 s - 2 backends x 10 s) / (2 parts x 2 backends x 6 s)
    assert table == ["bench_table.py --mode normal --backends cuda,cpu --part all --limit 5 "
                     f"--word-timeout 30 --out {tmp_path / 'bench_table.json'}"]
    assert "| step | cuda | cpu | cpu / cuda |" in done.stdout
    assert json.loads((tmp_path / "bench_gpu.json").read_text())["args"]["repeats"] == 2


def test_a_budget_drops_the_rows_that_would_not_fit_in_the_stated_order(tmp_path):
    """--budget 60 (estimates of a GPU machine): the exact searches run (32 s), the whole proof and
    the hard one (about 58 s and 120 s on two backends) are dropped, the table sample finds no
    room for a word, and of the rows after it those that still fit run (rank: 22 s)."""
    argv = [sys.executable, str(SCRIPT), "--dry-run", "--repeats", "1", "--budget", "60", "--out",
            str(tmp_path)]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    runs = [line.removeprefix("would run: ") for line in out.splitlines() if line.startswith("would")]
    said = "dropped, short of time: "
    dropped = [line.removeprefix(said).split(" (needs")[0] for line in out.splitlines()
               if line.startswith(said) and "; " not in line]
    assert sum("--start SALET" in r for r in runs) == 2 * 2 * 2  # normal and hard, warmed, on 2 backends
    assert dropped == ["whole proof", "whole proof, hard", "table sample",
                       "exact values of 6 costly start words", "pattern matrix (kernel)",
                       "partition metrics of every guess", "first-pass bounds of every start word"]
    assert sum(r.startswith("gpusolve rank") for r in runs) == 2 * 2
    assert len(runs) == 2 * 2 * 2 + 2 * 2
    kept = json.loads((tmp_path / "bench_gpu.json").read_text())
    assert kept["dropped"][0].startswith("whole proof (needs")


def test_gpu_check_dry_run_lists_the_steps_and_the_benchmark_within_its_budget():
    script = SCRIPT.parent / "gpu_check.sh"
    done = subprocess.run(["bash", str(script), "--no-tests", "--repeats", "1", "--dry-run"],
                          capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("would install") and "doctor" in lines[1] and "CUDA tests" not in done.stdout
    runs = [line for line in lines if line.startswith("would run: ")]
    assert any("--mode hard" in r and "--run-dir" in r and "--backend auto" in r for r in runs)
    assert any(r.startswith("would run: bench_table.py --mode normal --backends cuda,auto,cpu") for r in runs)
    assert "of a budget of 410 s" in done.stdout  # 510 s less the steps before it


@pytest.mark.parametrize("call", ["pattern_matrix", "metrics", "first_pass"])
def test_the_timed_calls_run_on_the_cpu(bench, call, tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("CRANE\nSLATE\nABACK\nTRACE\nCRATE\nLATCH\nMATCH\nPATCH\n")
    seconds = bench.timed_call(call, "cpu", 2, str(words), str(words), 60.0)
    assert len(seconds) == 2 and all(s > 0 for s in seconds)
    assert len(bench.timed_call(call, "cpu", 2, str(words), str(words), 0.0)) == 1  # long: not repeated


def test_the_table_gives_medians_ratios_and_the_gpus_share(bench):
    samples = {
        "pattern matrix (kernel)": {"cuda": [0.5, 0.1, 0.2], "cpu": [0.4, 0.8, 0.6]},
        "whole proof: first pass": {"cuda": [{"seconds": 2.0, "gpu_seconds": 1.5}], "cpu": [8.0]},
        "gpusolve rank (whole process)": {"cpu": [1.0]},
    }
    lines = bench.table(samples, ["cuda", "cpu"]).splitlines()
    assert lines[2] == "| pattern matrix (kernel) | 0.2 s | 0.6 s | 3.00 |"
    assert lines[3] == "| whole proof: first pass | 2 s (75% on the GPU) | 8 s | 4.00 |"
    assert lines[4] == "| gpusolve rank (whole process) | — | 1 s | — |"
    assert bench.table(samples, ["cpu"]).splitlines()[2] == "| pattern matrix (kernel) | 0.6 s |"


def test_the_proofs_phases_carry_their_gpu_seconds_and_kernels_their_own_rows(bench, tmp_path):
    proof = bench.commands("SALET")[2]
    runs = bench.Bench(argparse.Namespace(out=str(tmp_path)))
    found = {"phases": {"first_pass": 2.0, "search": 5.0},
             "gpu": {"start": 0.5, "phases": {"first_pass": 1.5, "search": 0.0},
                     "calls": {"bounds_cuda.start_bounds": {"times": 4, "seconds": 1.2}}}}
    runs.add_gpu(proof, "cuda", found)
    runs.add_gpu(proof, "cpu", {"phases": {"first_pass": 8.0, "search": 6.0}, "gpu": None})
    rows = bench.table(runs.samples, ["cuda", "cpu"]).splitlines()[2:]
    assert rows == ["| whole proof: first pass | 2 s (75% on the GPU) | 8 s | 4.00 |",
                    "| whole proof: search | 5 s (0% on the GPU) | 6 s | 1.20 |",
                    "| whole proof, GPU: start | 0.5 s | — | — |",
                    "| whole proof, GPU: bounds_cuda.start_bounds | 1.2 s | — | — |"]


def test_the_report_says_whether_every_backend_found_the_same(bench):
    same = {"exact SALET, normal": {"cuda": "7920", "cpu": "7920"}}
    assert bench.agreement(same).startswith("results identical on every backend (1 commands")
    differ = {**same, "whole proof": {"cuda": '[{"guess": "SALET"}]', "cpu": '[{"guess": "TRACE"}]'}}
    said = 'results differ: whole proof: cuda [{"guess": "SALET"}], cpu [{"guess": "TRACE"}]'
    assert bench.agreement(differ) == said


def test_calls_chooses_the_library_calls_timed(tmp_path):
    argv = [sys.executable, str(SCRIPT), "--dry-run", "--calls", "metrics", "--out", str(tmp_path)]
    runs = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    assert "--call metrics" in runs
    assert "--call pattern_matrix" not in runs and "--call first_pass" not in runs
    bad = subprocess.run([*argv[:3], "--calls", "nope"], capture_output=True, text=True)
    assert bad.returncode == 1 and bad.stderr.strip().startswith("error: --calls takes")


def test_what_each_command_found_is_read_from_its_json(bench):
    search, _, proof, _, costly, rank = bench.commands("SALET")

    best = [{"guess": "SALET", "total": 7897}]
    assert bench.answer(proof, {"best": best}) == json.dumps(best)
    assert bench.answer(search, {"total": 7897, "seconds": 1.2}) == "7897"
    assert bench.answer(rank, [{"guess": "SOARE"}, {"guess": "ROATE"}]) == '[{"guess": "SOARE"}]'
    found = {"results": [{"word": "PIXIE", "total": 8753}, {"word": "AMAZE", "total": 8736}]}
    assert bench.answer(costly, found) == '[["AMAZE", 8736], ["PIXIE", 8753]]'
