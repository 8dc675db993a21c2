"""Every CUDA kernel the program launches compiles to PTX for real GPUs, with no GPU: the CUDA
compiler ``kernels.gpu`` chose (numba-cuda, NVVM from the ``dev`` extra's ``numba-cuda[cu13]``; or,
with $GPUSOLVE_CUDA_COMPILER, numba-cuda-mlir) for compute capability 8.0 and 9.0, with the
argument types the program launches it with.

The CUDA simulator runs any Python, so a kernel that a real GPU's compiler rejects (an array
shape that is not a compile-time constant, say) passes every simulated test; this check does
not. The argument types come from ``tests/data/cuda_launches.json``: every launch of the CUDA
tests, recorded under the simulator (``conftest._record_launches``); with
$GPUSOLVE_RECORD_LAUNCHES naming a fresh recording, the committed one must equal it. Run with
``pytest -m ptx`` (CI does, after recording); docs/kernels.md has the details.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
from pathlib import Path

import pytest
from conftest import LAUNCHES
from gpusolve.kernels import config, gpu

pytestmark = pytest.mark.ptx

ROOT = Path(__file__).resolve().parent.parent
RECORD: dict[str, list[str]] = json.loads(LAUNCHES.read_text())


def compiled_modules() -> list[str]:
    """Return the kernel modules that take the CUDA compiler from ``kernels.gpu`` (read, not run)."""
    found = []
    for path in sorted((ROOT / "kernels").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module == "gpu":
                found.append(path.stem)
                break
    return found


def launched_kernels() -> dict[str, object]:
    """Return {``module.kernel``: kernel} of every CUDA kernel (not device function) in them."""
    found = {}
    for stem in compiled_modules():
        module = importlib.import_module(f"gpusolve.kernels.{stem}")
        for value in vars(module).values():
            if (hasattr(value, "py_func") and not getattr(value, "targetoptions", {"device": True})["device"]
                    and value.py_func.__module__ == module.__name__):
                found[gpu.kernel_name(value)] = value
    return found


CASES = [(name, signature, cc) for name, signatures in RECORD.items() for signature in signatures
         for cc in gpu.COMPUTE_CAPABILITIES]


def test_every_kernel_is_in_the_launch_record_and_nothing_else():
    kernels = set(launched_kernels())
    assert {"bounds_cuda.start_bounds", "histogram_cuda.reply_stats", "trial_cuda.histogram"} <= kernels
    missing, stale = kernels - set(RECORD), set(RECORD) - kernels
    assert not missing, f"kernels no CUDA test launches through the backend (add one): {sorted(missing)}"
    assert not stale, f"recorded kernels that no longer exist: {sorted(stale)}"


def test_the_launch_record_is_this_checkouts():
    """The committed record equals a fresh one (CI records one under the simulator first)."""
    fresh = os.environ.get("GPUSOLVE_RECORD_LAUNCHES")
    if not fresh:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must record the launches first ($GPUSOLVE_RECORD_LAUNCHES, .ci/run)")
        pytest.skip("no fresh launch record: see docs/kernels.md (GPUSOLVE_RECORD_LAUNCHES)")
    assert json.loads(Path(fresh).read_text()) == RECORD, (
        f"the CUDA tests launch kernels with other argument types than {LAUNCHES.name} says: "
        f"copy {fresh} there (docs/kernels.md)")


REFUSED = {
    "numba-cuda": set(),
    "numba-cuda-mlir": {"bounds_cuda.start_hard_bounds"},
}
"""The launched kernels whose PTX a compiler makes and ptxas then refuses (``gpu.COMPILERS``):
numba-cuda-mlir 0.6.0's PTX of the hard-mode first pass fails with "Immediate addresses allowed
only for .local state space" (docs/kernels.md). Checked both ways: a compiler that comes to
compile one fails the test, so that the entry goes."""


@pytest.mark.parametrize(("name", "signature", "cc"), CASES,
                         ids=[f"{n}-{RECORD[n].index(s)}-sm{cc[0]}{cc[1]}" for n, s, cc in CASES])
def test_every_launched_kernel_compiles_to_ptx(name, signature, cc):
    assert set(REFUSED) == set(gpu.COMPILERS)
    if name in REFUSED[gpu.COMPILER]:
        with pytest.raises(Exception, match="PTX_COMPILE"):
            gpu.ptx(launched_kernels()[name], signature, cc)
        return
    text = gpu.ptx(launched_kernels()[name], signature, cc)
    assert f".target sm_{cc[0]}{cc[1]}" in text
    assert ".entry" in text


WIDTH = 8
"""A module-level integer: a shape the compiler folds."""


def _shared_shape_expression(out):
    table = gpu.cuda.shared.array(WIDTH + 1, dtype=gpu.int64)  # an expression: not folded
    table[0] = 1
    out[0] = table[0]


def _local_shape_attribute(out):
    table = gpu.cuda.local.array((config.FIXED_POINT_BITS, 2), dtype=gpu.int64)  # another module's
    table[0, 0] = 1
    out[0] = table[0, 0]


def _folded_shapes(out):
    table = gpu.cuda.shared.array(WIDTH, dtype=gpu.int64)
    frames = gpu.cuda.local.array((WIDTH, 2), dtype=gpu.int64)
    table[0] = 1
    frames[0, 0] = table[0]
    out[0] = frames[0, 0]


BAD_SHAPES = (_shared_shape_expression, _local_shape_attribute)
"""Shapes the simulator accepts that a compiler may reject."""

REJECTED = {
    "numba-cuda": {_shared_shape_expression, _local_shape_attribute},
    "numba-cuda-mlir": {_local_shape_attribute},  # 0.6.0 folds ``WIDTH + 1``
}
"""The bad shapes each CUDA compiler rejects (``gpu.COMPILERS``): a kernel must keep to the shapes
both accept (compile-time constants of its own module)."""


@pytest.mark.parametrize("kernel", BAD_SHAPES, ids=[k.__name__ for k in BAD_SHAPES])
def test_the_check_rejects_a_shape_the_compiler_cannot_fold(kernel):
    """What the simulator accepts and a real GPU's compiler rejects (issue 27), rejected here too;
    what this compiler folds, compiled (so ``REJECTED`` stays this compiler's true record)."""
    assert set(REJECTED) == set(gpu.COMPILERS)
    if kernel in REJECTED[gpu.COMPILER]:
        with pytest.raises(Exception) as raised:
            gpu.ptx(gpu.cuda.jit(kernel), "int64[::1]", gpu.COMPUTE_CAPABILITIES[0])
        assert type(raised.value).__name__ == "TypingError"
    else:
        assert ".entry" in gpu.ptx(gpu.cuda.jit(kernel), "int64[::1]", gpu.COMPUTE_CAPABILITIES[0])
    assert ".entry" in gpu.ptx(gpu.cuda.jit(_folded_shapes), "int64[::1]", gpu.COMPUTE_CAPABILITIES[0])
