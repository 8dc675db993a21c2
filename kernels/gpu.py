"""The CUDA compiler of every ``*_cuda`` kernel: its one import point, the argument types of a
launch, and PTX for a chosen GPU generation without a GPU.

Every CUDA kernel module, the backend and the tests take ``cuda`` from here. It is numba-cuda
(numba's ``numba.cuda``: the tested default, with its simulator for tests) unless
$GPUSOLVE_CUDA_COMPILER names its successor, numba-cuda-mlir: the same API under another name
(the kernels use only ``cuda.jit``, its intrinsics and its scalar types, which both export).
docs/kernels.md says what else differs.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from types import SimpleNamespace

COMPILERS = ("numba-cuda", "numba-cuda-mlir")
COMPILER = os.environ.get("GPUSOLVE_CUDA_COMPILER") or COMPILERS[0]
"""The CUDA compiler of this process: $GPUSOLVE_CUDA_COMPILER, one of ``COMPILERS`` (default the
first)."""

if COMPILER == "numba-cuda-mlir":
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        raise ImportError("numba-cuda-mlir has no CUDA simulator: NUMBA_ENABLE_CUDASIM=1 needs "
                          "GPUSOLVE_CUDA_COMPILER=numba-cuda")
    from numba_cuda_mlir import cuda
elif COMPILER == "numba-cuda":
    from numba import cuda
else:
    raise ImportError(f"GPUSOLVE_CUDA_COMPILER={COMPILER!r} is no CUDA compiler: choose one of "
                      f"{', '.join(COMPILERS)}")

int32, int64, uint8, uint16, uint64 = cuda.int32, cuda.int64, cuda.uint8, cuda.uint16, cuda.uint64
"""The scalar types the kernels name (as module names: inside a kernel, the CUDA simulator's
``cuda`` has none)."""

COMPUTE_CAPABILITIES = ((8, 0), (9, 0))
"""The GPU generations CI compiles every launched kernel for: Ampere (A100) and Hopper (H100, H200)."""

PTX_OPTIONS = ("debug", "lineinfo", "fastmath", "opt", "launch_bounds")
"""The options of a kernel's ``cuda.jit`` that its PTX is compiled with."""


def kernel_name(kernel) -> str:
    """Return ``module.kernel`` of a CUDA kernel (``histogram_cuda.reply_stats``)."""
    module = kernel.py_func.__module__.rsplit(".", 1)[-1]
    return f"{module}.{kernel.py_func.__name__}"


def type_text(arg) -> str:
    """Return the numba type a kernel launch gives ``arg``, as text (``int64``, ``int32[:, ::1]``):
    a host array as the contiguous device copy the backend makes of it."""
    import numpy as np
    from numba import typeof, types

    if isinstance(arg, np.ndarray):
        arg = np.ascontiguousarray(arg)
    found = typeof(arg)
    if not isinstance(found, types.Array):
        return str(found)
    dims = [":"] * found.ndim
    if found.layout == "C":
        dims[-1] = "::1"
    elif found.layout == "F":
        dims[0] = "::1"
    return f"{found.dtype}[{', '.join(dims)}]"


def signature_text(args) -> str:
    """Return the argument types of a launch with ``args`` as one line of ``type_text``s."""
    return ", ".join(type_text(a) for a in args)


def parse_signature(text: str) -> tuple:
    """Return the types of a ``signature_text`` (the CUDA compiler's own)."""
    types = cuda.types
    found = []
    for name, dims in re.findall(r"(\w+)(?:\[([^\]]*)\])?", text):
        if not dims:
            found.append(getattr(types, name))
            continue
        dims = [d.strip() for d in dims.split(",")]
        layout = "C" if dims[-1] == "::1" else "F" if dims[0] == "::1" else "A"
        found.append(types.Array(getattr(types, name), len(dims), layout))
    return tuple(found)


@contextmanager
def target(cc: tuple[int, int]):
    """Within the block, kernels and their device functions compile for compute capability
    ``cc`` with no GPU or driver.

    numba-cuda compiles a device function (``cuda.jit(device=True)``) for the current device,
    which it asks the driver for: without a driver that fails ("CUDA driver library cannot be
    found"). A kernel's PTX links its device functions as LLVM IR and is generated for the
    kernel's own ``cc``; this supplies that ``cc`` where the device is looked up. numba-cuda-mlir
    asks the driver for every compilation, ``cc`` given or not, unless its private cache of the
    device's compute capability (``tools._cached_cc``) is set: this sets it.
    """
    if COMPILER == "numba-cuda-mlir":
        from numba_cuda_mlir import tools as holder

        name, value = "_cached_cc", cc
    else:
        from numba.cuda import dispatcher as holder

        name, value = "get_current_device", lambda: SimpleNamespace(compute_capability=cc)
    found = getattr(holder, name)
    setattr(holder, name, value)
    try:
        yield
    finally:
        setattr(holder, name, found)


def ptx(kernel, signature: str, cc: tuple[int, int]) -> str:
    """Return the PTX of ``kernel`` for the argument types ``signature`` (a ``signature_text``) and
    compute capability ``cc``, compiled as a launch compiles it, with no GPU or driver (only NVVM)."""
    options = {k: v for k, v in kernel.targetoptions.items() if k in PTX_OPTIONS}
    with target(cc):
        text, _ = cuda.compile_ptx(kernel.py_func, parse_signature(signature), cc=cc, **options)
    return text
