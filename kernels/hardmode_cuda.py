"""The hard-mode rule (``kernels.hardmode``) compiled for CUDA, and the kernel listing the
guesses it allows: the contract of ``hardmode_cpu.allowed``, one thread per guess (grid-stride)."""

from .gpu import cuda, int64
from .hardmode import SCRATCH, build

hard_rule, rule_allows, hard_filter, allows_after = build(cuda.jit(device=True))


@cuda.jit(cache=True)
def allowed(kind, length, colours, letters, counts, moves_g, moves_p, rows, out):
    """Fill ``out[i]`` with 1 if hard mode allows guess row ``rows[i]`` after every move, else 0."""
    scratch = cuda.local.array(SCRATCH, dtype=int64)
    for c in range(SCRATCH):
        scratch[c] = 0
    for i in range(cuda.grid(1), rows.shape[0], cuda.gridsize(1)):
        out[i] = 1 if allows_after(kind, length, colours, letters, counts, moves_g, moves_p, rows[i],
                                   scratch) else 0
