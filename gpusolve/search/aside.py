"""A first run's compile of the exact search in a second process, beside the first pass (issue 37).

On a first run numba compiles every kernel a command uses, one at a time (one lock per process):
for ``optimal-tree`` the pattern matrix's and the first pass's kernels, then the exact search's,
about half of it all. Where the search's kernels are not in numba's disk cache yet, ``start``
forks a process that compiles them (a search of three answers with the same argument types) and
saves them there, while this one goes on with the first pass; ``Aside.wait``, before the search's
first call, waits for it, and the call then loads them from the cache. On two cores the compile
takes about half the time; its CPU seconds are the same.

The two processes must never compile the same cached function at once: numba reads a function's
index of cached signatures, adds to it and writes it back, so two writers may number their code
alike and one's be found under the other's signature. So the functions both call (the closed
forms, the bucket floor, the level bound) are compiled before the fork, and
``tests/test_first_run.py`` pins that no cached function compiles in both.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
import time
from collections.abc import Callable

import numpy as np

COMPILE_ASIDE = True
"""Test hook: False compiles the search in this process (as on one core)."""


def cold(dispatcher) -> bool:
    """Return whether numba's disk cache holds no code of ``dispatcher`` for this numba and source
    (False where numba caches nothing)."""
    try:
        return not dispatcher._cache._cache_file._load_index()
    except (AttributeError, OSError):
        return False


class Aside:
    """The process compiling the search's kernels."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.lock = threading.Lock()

    def wait(self, stop: np.ndarray) -> None:
        """Wait until the process has ended (at once, killed, when ``stop[0]`` is set: the caller
        compiles what it needs then); return None."""
        with self.lock:
            while self.pid:
                if stop[0] != 0:
                    os.kill(self.pid, signal.SIGKILL)
                done, _ = os.waitpid(self.pid, 0 if stop[0] != 0 else os.WNOHANG)
                if done:
                    self.pid = 0
                else:
                    time.sleep(0.02)

    def end(self) -> None:
        """Kill the process if it is still compiling (this one exits without its search); return None."""
        self.wait(np.ones(1, np.int64))


def start(search_kernel, shared: Callable[[], None], warm: Callable[[], None]) -> Aside | None:
    """Return the process compiling the search's kernels by ``warm()`` (its output discarded), when
    ``search_kernel`` is not in numba's disk cache and there are cores to spare; else None. The
    kernels both processes call are compiled here first (``shared()``)."""
    if not (COMPILE_ASIDE and hasattr(os, "fork") and hasattr(os, "sched_getaffinity")
            and len(os.sched_getaffinity(0)) >= 2 and cold(search_kernel)):
        return None
    from numba.core.compiler_lock import global_compiler_lock

    shared()
    sys.stdout.flush()
    sys.stderr.flush()
    with global_compiler_lock:  # no other thread of this process is compiling as it forks
        pid = os.fork()
    if pid == 0:  # the child: compile, then leave at once (no atexit, no buffers of the parent's)
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, 1)
            os.dup2(quiet, 2)
            sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (no lock another thread held)
            warm()
        finally:
            os._exit(0)
    aside = Aside(pid)
    atexit.register(aside.end)
    return aside
