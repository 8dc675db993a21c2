"""Ctrl-C during long work: a stop request the compiled kernels poll, instead of an exception
raised wherever the main thread happens to be (inside a lock, a wait, a kernel's return)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable


class StopOnInterrupt:
    """Within the block, SIGINT calls ``stop()`` (and sets ``requested``) rather than raising
    KeyboardInterrupt; the work notices and winds down. Outside the main thread it does nothing."""

    def __init__(self, stop: Callable[[], None]) -> None:
        self.stop = stop
        self.requested = False
        self._previous = None

    def _handler(self, signum, frame) -> None:
        self.requested = True
        self.stop()

    def __enter__(self) -> StopOnInterrupt:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None
