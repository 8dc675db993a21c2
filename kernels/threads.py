"""The CPU kernels' parallel loops on Python threads: a ``nogil`` kernel run over the slices of a
range, one slice per thread at once.

numba's own parallel loops (``parallel=True`` with ``prange``) add about a second to each kernel's
compile (issue 29: a first run compiles every kernel it uses), and a kernel that hands each
thread one slice gains nothing from them.
"""

from concurrent.futures import ThreadPoolExecutor


def over_slices(kernel, n: int, threads: int, *args) -> None:
    """Run ``kernel(*args, lo, hi)`` on the slices ``[lo, hi)`` of ``range(n)``, ``threads`` (or
    fewer, at least one row each) equal slices at once; return None."""
    if n <= 0:
        return
    step = -(-n // max(1, min(threads, n)))
    slices = [(lo, min(n, lo + step)) for lo in range(0, n, step)]
    if len(slices) == 1:
        kernel(*args, 0, n)
        return
    with ThreadPoolExecutor(len(slices)) as pool:
        for done in [pool.submit(kernel, *args, lo, hi) for lo, hi in slices]:
            done.result()
