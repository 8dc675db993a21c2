"""Shared fixtures: the bundled Wordle matrices, and the rule for CUDA-kernel tests."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest

from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix

SIMULATED = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"


def pytest_collection_modifyitems(config, items):
    """Skip ``cuda`` tests unless a GPU is present or the CUDA simulator is on, and ``ptx`` tests
    (a minute of compiling) unless asked for by ``-m``."""
    from gpusolve.kernels.gpu import cuda

    skips = {}
    if not (SIMULATED or cuda.is_available()):
        skips["cuda"] = pytest.mark.skip(reason="no GPU; run again with NUMBA_ENABLE_CUDASIM=1")
    if "ptx" not in (config.option.markexpr or ""):
        skips["ptx"] = pytest.mark.skip(reason="compiles every launched CUDA kernel: run pytest -m ptx")
    for item in items:
        for mark in skips.keys() & item.keywords.keys():
            item.add_marker(skips[mark])


LAUNCHES = Path(__file__).resolve().parent / "data" / "cuda_launches.json"
"""The argument types of every CUDA kernel launch of the tests (``tests/test_ptx.py`` compiles
each): written by ``NUMBA_ENABLE_CUDASIM=1 GPUSOLVE_RECORD_LAUNCHES=PATH pytest -m cuda``."""


@pytest.fixture(scope="session", autouse=True)
def _record_launches():
    """With $GPUSOLVE_RECORD_LAUNCHES under the simulator, write there (as JSON) the argument
    types of every kernel launch through the CUDA backend: {kernel: [signature, ...]}. Under
    pytest-xdist every worker adds its launches to the file: remove it before such a run."""
    path = os.environ.get("GPUSOLVE_RECORD_LAUNCHES")
    if not (path and SIMULATED):
        yield
        return
    from gpusolve.kernels.gpu import kernel_name, signature_text

    from gpusolve.core.backend import CudaBackend

    seen: dict[str, set] = {}
    launch = CudaBackend.launch

    def recording(self, kernel, blocks, *args, **options):
        seen.setdefault(kernel_name(kernel), set()).add(signature_text(args))
        launch(self, kernel, blocks, *args, **options)

    CudaBackend.launch = recording
    yield
    CudaBackend.launch = launch
    with open(f"{path}.lock", "w") as lock:  # pytest-xdist: each worker adds its own launches
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.environ.get("PYTEST_XDIST_WORKER") and Path(path).exists():
            for name, sigs in json.loads(Path(path).read_text()).items():
                seen.setdefault(name, set()).update(sigs)
        record = {name: sorted(sigs) for name, sigs in sorted(seen.items())}
        Path(path).write_text(json.dumps(record, indent=1) + "\n")


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    """Keep the tests' pattern-matrix cache out of the user's cache folder."""
    if "GPUSOLVE_CACHE_DIR" not in os.environ:
        os.environ["GPUSOLVE_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def wordle():
    """Return the Wordle game spec."""
    return make_game("wordle")


@pytest.fixture(scope="session")
def small_pm():
    """Return the matrix with guesses = answers = the 2,309 NYT answers (the seeds' setting)."""
    return pattern_matrix(make_game("wordle"), "answers", "answers", "cpu")


@pytest.fixture(scope="session")
def full_pm():
    """Return the matrix of all 12,972 allowed guesses x the 2,309 NYT answers."""
    return pattern_matrix(make_game("wordle"), "allowed", "answers", "cpu")


DATED = "answers2315dated.txt"
"""The original game's 2,315 answers in play order (CIGAR first): seed 004's tie order. Not
bundled (it comes from a third-party repository); looked for in ``$GPUSOLVE_DATED_ANSWERS``,
then beside the checkout in ``../shared/data/``."""


@pytest.fixture(scope="session")
def dated_answers():
    """Return the path of the dated answer list, or skip the test saying where to put it."""
    for path in (os.environ.get("GPUSOLVE_DATED_ANSWERS"),
                 Path(__file__).resolve().parent.parent.parent / "shared" / "data" / DATED):
        if path and Path(path).is_file():
            return Path(path)
    pytest.skip(f"the original answers in play order ({DATED}) are not bundled: put them in "
                f"../shared/data/ or name them in $GPUSOLVE_DATED_ANSWERS")


@pytest.fixture(autouse=True)
def _private_runs_dir(tmp_path, monkeypatch):
    """Keep default run directories out of the user's data folder."""
    monkeypatch.setenv("GPUSOLVE_RUNS_DIR", str(tmp_path / "runs"))


@pytest.fixture(scope="session")
def salet_2315():
    """Return (matrix, result): the proven optimal SALET tree over the 2,315 original answers
    (12,972 guesses, normal mode, total 7,920), solved once for every test that needs it."""
    from gpusolve.search.optimal import Question, solve

    pm = pattern_matrix(make_game("wordle"), "allowed", "answers-2315", "cpu")
    return pm, solve(pm, Question(start="SALET"))
