"""The CPU kernels' parallel loops on Python threads: a ``nogil`` kernel called on slices of its
work, the threads taking the next slice as each finishes one.

numba's own parallel loops (``parallel=True`` with ``prange``) add about a second to each kernel's
compile (issue 29: a first run compiles every kernel it uses), and a kernel that hands each
thread one slice gains nothing from them.
"""

import os
from concurrent.futures import ThreadPoolExecutor, wait

SLICES_PER_THREAD = 4
"""Slices a thread gets on average: items differ in cost (a start word refuted early is cheap),
so smaller slices keep every thread busy to the end."""

_POOLS: dict[tuple[int, int], ThreadPoolExecutor] = {}


def _pool(threads: int) -> ThreadPoolExecutor:
    """Return this process's pool of ``threads`` threads (made once: a search calls it hundreds
    of times; a forked process makes its own)."""
    key = (os.getpid(), threads)
    if key not in _POOLS:
        _POOLS[key] = ThreadPoolExecutor(threads, thread_name_prefix="gpusolve-slices")
    return _POOLS[key]


def over_slices(call, n: int, threads: int) -> None:
    """Run ``call(lo, hi)`` on slices ``[lo, hi)`` of ``range(n)``, ``threads`` at once (at most
    ``SLICES_PER_THREAD`` slices a thread, at least one item each); return None."""
    if n <= 0:
        return
    threads = max(1, min(threads, n))
    if threads == 1:
        call(0, n)
        return
    step = -(-n // min(n, threads * SLICES_PER_THREAD))
    pool = _pool(threads)
    slices = [pool.submit(call, lo, min(n, lo + step)) for lo in range(0, n, step)]
    wait(slices)  # all of them, even when one failed: none is left writing to the caller's arrays
    for done in slices:
        done.result()
