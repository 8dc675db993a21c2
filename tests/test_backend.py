"""The backend's choice and failure modes: a GPU that cannot run (no driver, no NVVM, a numpy its
compiler cannot use) sends ``auto`` to the CPU with one note and stops ``--backend cuda`` with
one error, never a traceback; the check is a trial kernel, run once and only when a call would
first run on the GPU; requests beyond the GPU's free memory are refused up front; numba's own
warnings never reach the terminal. Without a GPU here, the GPU's answers are stood in for."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import types
import warnings
from importlib.util import find_spec

import numpy as np
import pytest
from gpusolve.kernels import config
from test_cli_core import assert_one_line_error
from typer.testing import CliRunner

from gpusolve.cli import app
from gpusolve.core import backend
from gpusolve.core.backend import CpuBackend, CudaBackend, get_backend
from gpusolve.core.errors import GpusolveError, Note
from gpusolve.core.games import make_game
from gpusolve.core.patterns import build_codes

runner = CliRunner()
ROW_STACK = ("the GPU could not compile and run a trial kernel (AttributeError: module 'numpy' has no "
             "attribute 'row_stack'): numba-cuda 0.30.4 cannot compile with numpy 2.5.2; pip install "
             "'numpy<2.5'")


@pytest.fixture
def gpu_that_fails(monkeypatch):
    """CuPy installed, and a GPU whose trial kernel fails: the checks that ran are counted."""
    checks = []

    def status():
        checks.append(1)
        return False, ROW_STACK

    monkeypatch.delenv("NUMBA_ENABLE_CUDASIM", raising=False)
    monkeypatch.setattr(backend, "find_spec", lambda name: object())
    monkeypatch.setattr(backend, "_cuda_status", status)
    return checks


def _notes_and_errors(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.strip()]


def test_auto_starts_no_gpu_for_work_the_cpu_does_sooner(gpu_that_fails):
    """rank reads 3 * 10**7 reply cells: less than starting the GPU costs, so auto never tries."""
    got = runner.invoke(app, ["rank", "--top", "3", "--json", "--backend", "auto"])
    assert got.exit_code == 0, got.output
    assert _notes_and_errors(got) == [] and gpu_that_fails == []


def test_auto_loads_no_cuda_compiler_for_work_the_cpu_does():
    """In a fresh process where CuPy seems installed, rank with auto imports neither numba.cuda
    nor CuPy (importing them alone costs a good part of a second)."""
    code = ("import importlib.util, sys; import gpusolve.core.backend as b; real = importlib.util.find_spec; "
            "b.find_spec = lambda n: object() if n == 'cupy' else real(n); from gpusolve.cli import main; "
            "sys.argv = ['gpusolve', 'rank', '--top', '1', '--backend', 'auto']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print([m for m in sys.modules if m.startswith(('numba.cuda', 'cupy'))], file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          cwd=tempfile.gettempdir())  # the checkout's bare gpusolve/ lacks the kernels
    assert done.returncode == 0 and done.stderr.splitlines()[-1] == "[]", done.stderr


def test_auto_runs_on_the_cpu_with_one_note_when_the_gpu_cannot(gpu_that_fails, monkeypatch):
    monkeypatch.setattr(config, "GPU_START_CELLS", 1)  # rank's statistics are GPU work
    want = runner.invoke(app, ["rank", "--top", "3", "--json", "--backend", "cpu"])
    got = runner.invoke(app, ["rank", "--top", "3", "--json", "--backend", "auto"])
    assert got.exit_code == 0, got.output
    assert json.loads(got.stdout) == json.loads(want.stdout)
    assert _notes_and_errors(got) == [f"note: running on the CPU: {ROW_STACK}"]
    assert len(gpu_that_fails) == 1


def test_cuda_is_one_error_saying_why(gpu_that_fails):
    result = runner.invoke(app, ["rank", "--top", "3", "--backend", "cuda"])
    assert_one_line_error(result, f"the cuda backend is not available: {ROW_STACK}; use --backend cpu")


def _import_gpu(compiler: str, *, simulated: bool = False) -> subprocess.CompletedProcess:
    """Return the run of a fresh process that imports ``kernels.gpu`` with $GPUSOLVE_CUDA_COMPILER
    ``compiler`` and prints its ``cuda``'s module name."""
    env = {**os.environ, "GPUSOLVE_CUDA_COMPILER": compiler, "NUMBA_ENABLE_CUDASIM": str(int(simulated))}
    code = "from gpusolve.kernels import gpu; print(gpu.cuda.__name__)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env,
                          cwd=tempfile.gettempdir())  # the checkout's bare gpusolve/ lacks the kernels


@pytest.mark.parametrize(("compiler", "module"), [("", "numba.cuda"), ("numba-cuda", "numba.cuda"),
                                                  ("numba-cuda-mlir", "numba_cuda_mlir.cuda")])
def test_the_cuda_compiler_is_chosen_by_one_variable(compiler, module):
    if module.startswith("numba_cuda_mlir") and find_spec("numba_cuda_mlir") is None:
        pytest.skip("numba-cuda-mlir is not installed (CI installs it: .ci/run)")
    done = _import_gpu(compiler)
    assert done.returncode == 0 and done.stdout.split() == [module], done.stderr


@pytest.mark.parametrize(("compiler", "simulated", "said"), [
    ("numba", False, "GPUSOLVE_CUDA_COMPILER='numba' is no CUDA compiler: choose one of numba-cuda, "
                     "numba-cuda-mlir"),
    ("numba-cuda-mlir", True, "numba-cuda-mlir has no CUDA simulator: NUMBA_ENABLE_CUDASIM=1 needs "
                              "GPUSOLVE_CUDA_COMPILER=numba-cuda"),
])  # fmt: skip
def test_a_cuda_compiler_that_cannot_be_is_refused_by_name(compiler, simulated, said):
    done = _import_gpu(compiler, simulated=simulated)
    assert done.returncode == 1 and done.stderr.splitlines()[-1] == f"ImportError: {said}", done.stderr


def test_doctor_names_the_cause(gpu_that_fails):
    result = runner.invoke(app, ["doctor", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["auto_backend"], report["reason"], report["device"]) == ("cpu", ROW_STACK, None)
    skipped = {"name": "GPU vs CPU equivalence", "ok": None, "detail": ROW_STACK}
    assert report["checks"][-1] == skipped


def test_auto_checks_the_gpu_only_when_a_call_would_run_there(gpu_that_fails):
    gpu = get_backend("auto")
    assert isinstance(gpu, CudaBackend) and not gpu.explicit and not gpu_that_fails
    assert not gpu.offloads(10, 243)  # too small for the GPU: not checked
    assert not gpu_that_fails
    with pytest.warns(Note, match="running on the CPU"):
        assert not gpu.offloads(10_000, 243)
    assert not gpu.offloads(10_000, 243) and gpu.name == "cpu" and len(gpu_that_fails) == 1


@pytest.mark.parametrize(("error", "said"), [
    (AttributeError("module 'numpy' has no attribute 'row_stack'"), "pip install 'numpy<2.5'"),
    (RuntimeError("libNVVM cannot be found. Do `conda install cudatoolkit`:\nlibnvvm.so: cannot open"),
     "misses CUDA's compiler libraries (NVVM, NVRTC); pip install 'gpusolve[cuda13]'"),
    (type("DynamicLibNotFoundError", (RuntimeError,), {})('Failure finding "libnvrtc.so.13 or so.12"'),
     "misses CUDA's compiler libraries (NVVM, NVRTC); pip install 'gpusolve[cuda13]' for CUDA 13 drivers"),
    (RuntimeError("CUDA_ERROR_NO_BINARY_FOR_GPU"), "(RuntimeError: CUDA_ERROR_NO_BINARY_FOR_GPU)"),
])  # fmt: skip
def test_the_check_is_a_trial_kernel_run_once(monkeypatch, error, said):
    """numba sees a GPU and CuPy imports, but the trial kernel fails: the reason is its error
    (first line) and, where known, what to install; the trial runs once per process."""
    from gpusolve.kernels.gpu import cuda

    tried = []

    def trial(self):
        tried.append(1)
        raise error

    monkeypatch.delenv("NUMBA_ENABLE_CUDASIM", raising=False)
    monkeypatch.setattr(cuda, "is_available", lambda: True)
    monkeypatch.setitem(sys.modules, "cupy", types.ModuleType("cupy"))
    monkeypatch.setattr(CudaBackend, "trial", trial)
    backend._cuda_status.cache_clear()
    try:
        usable, reason = backend.cuda_status()
        assert backend.cuda_status() == (usable, reason)
    finally:
        backend._cuda_status.cache_clear()
    assert not usable and reason.startswith("the GPU could not compile and run a trial kernel (")
    assert said in reason and "\n" not in reason and tried == [1]


@pytest.mark.parametrize("compiler", ["numba-cuda", "numba-cuda-mlir"])
def test_the_hint_names_the_cuda_compiler_chosen(monkeypatch, compiler):
    from gpusolve.kernels import gpu

    monkeypatch.setattr(gpu, "COMPILER", compiler)
    hint = backend._hint(RuntimeError("libNVVM cannot be found"))
    assert hint.split()[1] == compiler and "misses CUDA's compiler libraries" in hint, hint


def test_no_gpu_or_driver_is_said(monkeypatch):
    from gpusolve.kernels.gpu import cuda

    monkeypatch.delenv("NUMBA_ENABLE_CUDASIM", raising=False)
    monkeypatch.setattr(cuda, "is_available", lambda: False)
    backend._cuda_status.cache_clear()
    try:
        assert backend.cuda_status() == (False, "numba finds no CUDA GPU or driver")
    finally:
        backend._cuda_status.cache_clear()


@pytest.fixture
def small_gpu(monkeypatch):
    """A GPU that runs (checked already) with 1 KiB free, every allocation checked."""
    monkeypatch.setattr(backend, "CHECKED_BYTES", 0)
    monkeypatch.setattr(CudaBackend, "free_memory", lambda self: 1024)


def test_what_cannot_fit_in_gpu_memory_is_refused_up_front(small_gpu):
    game = make_game("mastermind", 4, 6)
    codes = game.word_lists(None, None)[0]
    gpu = CudaBackend(_usable=True)
    with pytest.raises(GpusolveError, match=r"^the pattern matrix needs 2 MiB of GPU memory, more than "
                                            r"the 0 MiB free on the GPU; use --backend cpu, or shorter"):
        build_codes(game, codes, codes, gpu)
    with pytest.raises(GpusolveError, match=r"^a 1,000 x 1,000 array of int32 needs 4 MiB of GPU memory"):
        gpu.empty((1000, 1000), np.int32)
    with pytest.raises(GpusolveError, match="more than the 0 MiB free on the GPU"):
        gpu.to_device(np.zeros(2000))


def test_auto_runs_what_cannot_fit_on_the_cpu_with_one_note(small_gpu):
    game = make_game("mastermind", 4, 6)
    codes = game.word_lists(None, None)[0]
    gpu = CudaBackend(explicit=False, _usable=True)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", Note)
        matrix = build_codes(game, codes, codes, gpu)
        again = build_codes(game, codes, codes, gpu)
    want = build_codes(game, codes, codes, CpuBackend())
    assert np.array_equal(matrix, want) and np.array_equal(again, want)
    assert [str(w.message) for w in seen] == ["the pattern matrix needs 2 MiB of GPU memory, more than the "
                                              "0 MiB free on the GPU: it runs on the CPU"]


@pytest.mark.parametrize("name", ["cpu", "auto"])
def test_numba_warnings_never_reach_the_terminal(name):
    """Once a backend is chosen, numba's and numba-cuda's warnings (the GPU's launch-size warning,
    say) are ignored; notes raised inside numba's compile events, and others' warnings, are not."""
    from gpusolve.kernels.gpu import cuda
    from numba.core.errors import NumbaDeprecationWarning

    NumbaPerformanceWarning = cuda.core.errors.NumbaPerformanceWarning  # what numba-cuda's launches raise
    with warnings.catch_warnings(record=True) as seen:
        get_backend(name)
        warnings.warn_explicit("Grid size 1 will likely result in GPU under-utilization.",
                               NumbaPerformanceWarning, "dispatcher.py", 748, module="numba.cuda.dispatcher")
        warnings.warn_explicit("a numba warning said elsewhere", NumbaDeprecationWarning, "x.py", 1,
                               module="elsewhere")
        warnings.warn_explicit("compiling", Note, "event.py", 1, module="numba.core.event")
        warnings.warn_explicit("not numba's", UserWarning, "x.py", 1, module="elsewhere")
    assert [str(w.message) for w in seen] == ["compiling", "not numba's"]


@pytest.mark.cuda
def test_the_trial_kernel_runs():
    """The trial kernel counts right (on a GPU, or simulated: the PTX test compiles its launch)."""
    CudaBackend().trial()


def test_a_proof_on_auto_where_the_gpu_cannot_run_has_no_second_pass(gpu_that_fails, monkeypatch, tmp_path):
    """auto on a machine whose GPU fails its check: the proof checks it before choosing its
    second pass (a CPU backend has none), notes the CPU once, and proves on the CPU."""
    from test_optimal import random_instance

    from gpusolve.runs.proof import prove_best_start

    # the guess table (60 x 40 cells) starts no GPU; the first pass (4,096 x 40 x 60) does
    monkeypatch.setattr(config, "GPU_START_CELLS", 10_000)
    monkeypatch.setattr(config, "GPU_MIN_ANSWERS", 1)
    pm = random_instance("jotto", 7, 40, 60)
    pm.backend = backend.CudaBackend(explicit=False)
    with pytest.warns(Note, match="running on the CPU"):
        proof = prove_best_start(pm, max_guesses=5, run_dir=tmp_path, workers=1)
    assert gpu_that_fails == [1] and pm.backend.name == "cpu"
    assert proof.by_second_pass == 0 and "second_pass" not in proof.phases


@pytest.fixture
def slow_start(monkeypatch):
    """A GPU start of 0.3 s (``_cuda_status``) that says where and when it ran: its thread, its start
    and end; the matrix's load is timed too, and a fresh process's start thread stood in for."""
    from gpusolve.core import patterns

    seen: dict = {"loads": []}
    usable = [False, "a start that fails"]

    @functools.cache  # as the real one: found once
    def status():
        seen["thread"], seen["began"] = threading.current_thread().name, time.perf_counter()
        time.sleep(0.3)
        seen["ended"] = time.perf_counter()
        return tuple(usable)

    cached = patterns.cached_array

    def load(*args):
        began = time.perf_counter()
        found = cached(*args)
        seen["loads"].append((began, time.perf_counter()))
        return found

    monkeypatch.setattr(backend, "find_spec", lambda name: object())
    monkeypatch.setattr(backend, "_cuda_status", status)
    monkeypatch.setattr(backend, "_STARTS", [])
    monkeypatch.setattr(patterns, "cached_array", load)
    return seen, usable


def test_cuda_starts_on_a_thread_while_the_matrix_loads(slow_start, monkeypatch):
    """``--backend cuda``: CUDA's start runs on a thread of its own while the command loads the
    matrix; a GPU that cannot run still stops the command with one error before any search."""
    from gpusolve.search import optimal

    seen, _ = slow_start
    monkeypatch.delenv("NUMBA_ENABLE_CUDASIM", raising=False)
    monkeypatch.setattr(optimal, "solve", lambda *a, **k: pytest.fail("searched"))
    result = runner.invoke(app, ["optimal-tree", "--start", "SALET", "--backend", "cuda"])
    assert_one_line_error(result, "the cuda backend is not available: a start that fails; use --backend cpu")
    assert seen["thread"] == "gpusolve-cuda-start"
    (began, ended), = seen["loads"]
    assert seen["began"] < ended and began < seen["ended"]  # the matrix loaded while the GPU started


@pytest.mark.cuda
def test_a_cuda_search_waits_for_the_threaded_start(slow_start, monkeypatch, tmp_path):
    """Under the simulator: the start runs on its thread beside the matrix's load, every launch
    comes after it, and the search prints what the CPU's prints."""
    seen, usable = slow_start
    usable[:] = [True, "a start that works"]
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)
    monkeypatch.setattr(config, "GPU_MIN_ANSWERS", 1)
    launched = []
    launch = CudaBackend.launch
    monkeypatch.setattr(CudaBackend, "launch", lambda self, *a, **k: (launched.append(time.perf_counter()),
                                                                       launch(self, *a, **k)))
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(["BATCH", "CATCH", "HATCH", "LATCH", "MATCH", "PATCH"]))
    guesses = tmp_path / "guesses.txt"
    guesses.write_text("\n".join(["BATCH", "CATCH", "HATCH", "LATCH", "MATCH", "PATCH", "CHOMP", "BLOWN"]))
    out = {}
    for name in ("cpu", "cuda"):
        r = runner.invoke(app, ["optimal-tree", "--guesses", str(guesses), "--answers", str(answers),
                                "--start", "CHOMP", "--json", "--backend", name])
        assert r.exit_code == 0, r.output
        out[name] = {k: v for k, v in json.loads(r.stdout).items() if k not in ("seconds", "gpu")}
    assert out["cuda"] == out["cpu"] and out["cpu"]["total"] == 15
    assert seen["thread"] == "gpusolve-cuda-start" and launched
    began, ended = seen["loads"][-1]
    assert seen["began"] < ended and began < seen["ended"] < min(launched)


def test_a_fresh_process_starts_cuda_beside_its_own_imports_without_a_traceback():
    """In a fresh process the start thread imports numba.cuda while the command runs: it begins
    once numba is imported (two threads importing numba's modules at once met one half made:
    ImportError, 1 run in 7, when the start began at the option's parsing). Without a GPU: one
    error line, every time."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    for _ in range(3):
        done = subprocess.run([sys.executable, "-m", "gpusolve", "patterns", "--backend", "cuda"], env=env,
                              capture_output=True, text=True, timeout=300, cwd=tempfile.gettempdir())
        assert "Traceback" not in done.stderr, done.stderr
        lines = [line for line in done.stderr.splitlines() if line.strip() and not line.startswith("note: ")]
        assert done.returncode == 0 or (done.returncode == 2 and len(lines) == 1
                                        and lines[0].startswith("error: the cuda backend is not available"))
