"""The first run's compile aside (``gpusolve.search.aside``): when it forks, and how its wait ends.
What it compiles is pinned by ``tests/test_first_run.py``."""

from __future__ import annotations

import os
import time
from types import SimpleNamespace

import numpy as np
import pytest

from gpusolve.search import aside


def _kernel(cached: dict) -> SimpleNamespace:
    """Return a stand-in for a numba dispatcher whose disk cache index holds ``cached``."""
    return SimpleNamespace(_cache=SimpleNamespace(_cache_file=SimpleNamespace(_load_index=lambda: cached)))


needs_two_cores = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="forks only with two cores")


def test_no_process_for_a_cached_kernel_nor_with_the_hook_off(monkeypatch):
    """A kernel in the disk cache, or numba caching nothing, or the test hook off: no fork."""
    assert aside.start(_kernel({"sig": "data"}), lambda: None, lambda: None) is None
    assert aside.start(SimpleNamespace(_cache=None), lambda: None, lambda: None) is None
    monkeypatch.setattr(aside, "COMPILE_ASIDE", False)
    assert aside.start(_kernel({}), lambda: None, lambda: None) is None


@needs_two_cores
def test_the_wait_ends_with_the_process_or_kills_it_on_a_stop():
    """The wait returns once the process has ended; on a stop (Ctrl-C, a time limit) it kills the
    process at once instead of waiting for its compile."""
    shared = []
    done = aside.start(_kernel({}), lambda: shared.append(1), lambda: None)
    assert shared == [1]  # compiled before the fork, here
    done.wait(np.zeros(1, np.int64))
    assert done.pid == 0
    slow = aside.start(_kernel({}), lambda: None, lambda: time.sleep(60))
    pid = slow.pid
    started = time.perf_counter()
    slow.wait(np.ones(1, np.int64))
    assert slow.pid == 0 and time.perf_counter() - started < 10
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)  # reaped
