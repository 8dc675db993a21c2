"""The CPU kernels' parallel loops on Python threads: a ``nogil`` kernel called on slices of its
work, one slice per thread at once.

numba's own parallel loops (``parallel=True`` with ``prange``) add about a second to each kernel's
compile (issue 29: a first run compiles every kernel it uses), and a kernel that hands each
thread one slice gains nothing from them.
"""

from concurrent.futures import ThreadPoolExecutor


def over_slices(call, n: int, threads: int) -> None:
    """Run ``call(lo, hi)`` on the slices ``[lo, hi)`` of ``range(n)``: ``threads`` (or fewer, at
    least one item each) equal slices at once; return None."""
    if n <= 0:
        return
    step = -(-n // max(1, min(threads, n)))
    if step >= n:
        call(0, n)
        return
    with ThreadPoolExecutor(-(-n // step)) as pool:
        for done in [pool.submit(call, lo, min(n, lo + step)) for lo in range(0, n, step)]:
            done.result()
