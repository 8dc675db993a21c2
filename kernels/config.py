"""Tunables shared by the kernels: launch geometry and fixed-point scales."""

THREADS_PER_BLOCK = 128
"""CUDA threads per block for one-dimensional launches."""

TILE = (16, 16)
"""CUDA block shape for two-dimensional (guess x answer) launches."""

FIXED_POINT_BITS = 32
"""Entropy and reciprocal sums are accumulated as integers scaled by 2**FIXED_POINT_BITS,
so the sum is exact and independent of summation order (ties stay ties on every backend)."""

OPTIMAL_GPU_MIN_ANSWERS = 256
"""The optimal-tree search computes the bounds of every guess on the GPU for sets of at least
this many answers (one launch); smaller sets stay on the CPU."""

WORSTCASE_LARGE_SET = 128
"""The worst-case search takes the per-guess statistics of sets of at least this many answers
from the backend (one GPU launch for every guess on CUDA, all cores on the CPU) and splits them
in Python; smaller sets stay in the compiled recursion."""
