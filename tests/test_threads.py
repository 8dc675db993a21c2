"""The CPU kernels' slices on threads (``kernels.threads``): every item once, on a kept pool,
and no slice left running when one fails."""

import threading
import time

import pytest
from gpusolve.kernels.threads import SLICES_PER_THREAD, over_slices


@pytest.mark.parametrize("n", [0, 1, 2, 7, 64, 1000])
@pytest.mark.parametrize("threads", [1, 2, 5])
def test_every_item_is_covered_once(n, threads):
    seen = []
    lock = threading.Lock()

    def call(lo, hi):
        with lock:
            seen.extend(range(lo, hi))

    over_slices(call, n, threads)
    assert sorted(seen) == list(range(n))


def test_items_of_unequal_cost_are_shared_as_threads_free_up():
    """The costly items come first: a thread does not wait on a fixed half of the work."""
    done_by = {}
    lock = threading.Lock()

    def call(lo, hi):
        time.sleep(0.05 if lo == 0 else 0.001)
        with lock:
            done_by[lo] = threading.current_thread().name

    over_slices(call, 2 * SLICES_PER_THREAD, 2)
    assert len(done_by) == 2 * SLICES_PER_THREAD
    others = {name for lo, name in done_by.items() if lo != 0}
    assert others == others - {done_by[0]} and len(others) == 1  # the other thread took all the rest


def test_a_failing_slice_is_raised_after_every_slice_finished():
    finished = []

    def call(lo, hi):
        if lo == 0:
            raise ValueError("bad slice")
        time.sleep(0.05)
        finished.append(lo)

    with pytest.raises(ValueError, match="bad slice"):
        over_slices(call, 8, 2)
    assert len(finished) == 7
