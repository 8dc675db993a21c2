"""The GPU's trial kernel: the backend compiles and runs it once per process before it sends any
work to a GPU, so a compiler, driver or library that cannot run the real kernels is found then
(``gpusolve.core.backend.cuda_status``). It uses what they use: a shared-memory table, atomics,
a device function, grid-stride loops."""

from .gpu import cuda, int64

BINS = 16
"""Bins of the trial's histogram."""


@cuda.jit(device=True, inline=True)
def _bin(value):
    """Return the bin of ``value``."""
    return value % BINS


@cuda.jit
def histogram(values, out):
    """Fill ``out[b]`` with the number of ``values`` in bin b (``_bin``)."""
    counts = cuda.shared.array(BINS, dtype=int64)
    for b in range(cuda.threadIdx.x, BINS, cuda.blockDim.x):
        counts[b] = 0
    cuda.syncthreads()
    for i in range(cuda.grid(1), values.shape[0], cuda.gridsize(1)):
        cuda.atomic.add(counts, _bin(values[i]), 1)
    cuda.syncthreads()
    for b in range(cuda.threadIdx.x, BINS, cuda.blockDim.x):
        cuda.atomic.add(out, b, counts[b])
