"""Tunables shared by the kernels: launch geometry and fixed-point scales, and the searches'
infinite cost. Plain constants: importing this module imports no numba (the command line reads
it at start-up)."""

INF = 1 << 40
"""The cost of a set no strategy finishes within its guesses (the searches' infinity): far above
any total (at most answers x guesses), far below int64's limit, so sums of a few stay exact."""

THREADS_PER_BLOCK = 128
"""CUDA threads per block for one-dimensional launches."""

TILE = (16, 16)
"""CUDA block shape for two-dimensional (guess x answer) launches."""

FIXED_POINT_BITS = 32
"""Entropy and reciprocal sums are accumulated as integers scaled by 2**FIXED_POINT_BITS,
so the sum is exact and independent of summation order (ties stay ties on every backend)."""

EXACT_MAX_PATTERNS = 256
"""Most distinct replies the exact searches handle (their reply codes are uint8); the first-pass
kernel's shared tables hold this many."""

MAX_PATTERNS = 2187
"""Most distinct replies a GPU kernel's shared-memory histogram holds (Wordle with 7 letters);
games with more replies run on the CPU."""

GPU_MIN_ANSWERS = 256
"""The CUDA backend launches the reply-histogram kernel only when the answer sets of a call
hold at least this many answers in all; smaller calls run its CPU twin (the same numbers)."""

GPU_START_CELLS = 1 << 31
"""Until something has run on the GPU in a process, only a call reading at least this many
reply cells starts it (the CUDA context, CuPy and the kernels' loading cost about a second,
what the CPU twins do with some 10**9 to 10**10 cells on all cores): ``auto`` is then never
slower than the CPU alone for commands whose GPU work is small (``rank``: 3 * 10**7 cells)."""

GPU_BUSY_CELLS = 1 << 28
"""A reply-statistics call reading fewer cells than this runs on the CPU while another thread's
launch holds the GPU (the proof's second pass beside its searches: a launch can take a
second, the CPU twin takes milliseconds at this size)."""

PRESET_GPU_THREADS = 16384
"""GPU threads scoring preset sets at once (one set each, grid-stride); each holds scratch for
one pass over the answers (about (8 + 4 * guesses left) bytes per answer)."""

WORSTCASE_LARGE_SET = 128
"""The worst-case search takes the per-guess statistics of sets of at least this many answers
from the backend (one GPU launch for every guess on CUDA, all cores on the CPU) and splits them
in Python; smaller sets stay in the compiled recursion."""

BOUNDS_GPU_BLOCKS = 4096
"""Most blocks of a first-pass launch (one start word each, grid-stride beyond)."""

FIRST_PASS_GPU_MIN_STARTS = 256
"""The CUDA backend computes first-pass bounds on the GPU for at least this many start words at
once (a block each: fewer leave most of the device idle); fewer run on the CPU."""

SECOND_PASS_GPU_MIN_UNITS = 64
"""The CUDA backend computes second-pass bounds on the GPU for at least this many buckets at
once (a block each); fewer run on the CPU."""

CANON_MIN_SET = 16
"""Sets of at least this many answers are looked up (and stored) in the memo of an exact search
as the least image of their moves under a code game's symmetries (``kernels.canonical_cpu``):
below it the mapping costs more than the search it saves."""


SQUARES_MIN = 12
"""Greedy entropy scans of Wordle nodes of at least this many answers skip guesses by the squares
bound (``kernels.squares_cpu``); below it computing the bounds costs more than the reads saved."""
