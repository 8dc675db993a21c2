"""Ctrl-C and SIGTERM during long work: a stop request the compiled kernels poll, instead of an
exception raised wherever the main thread happens to be (inside a lock, a wait, a kernel's return).

SIGTERM (what ``kill``, systemd and cluster schedulers send) is treated as Ctrl-C: the same stop,
the same "kept / resume with" message; only the exit code differs (128 + the signal: 130, 143).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop long work and keep what it finished."""

_heard = [signal.SIGINT]


def heard() -> int:
    """Return the signal that stopped the work last (SIGINT when none was heard: a plain
    KeyboardInterrupt)."""
    return _heard[0]


def _main() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises KeyboardInterrupt as Ctrl-C does (outside the blocks of
    ``StopOnInterrupt``); ``heard()`` tells them apart. Outside the main thread it does nothing."""
    _heard[0] = signal.SIGINT
    if not _main():
        yield
        return

    def _raise(signum, frame) -> None:
        _heard[0] = signum
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, _raise)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, _restorable(signal.SIGTERM, previous))


class StopOnInterrupt:
    """Within the block, SIGINT and SIGTERM call ``stop()`` (and set ``requested``) rather than
    raising KeyboardInterrupt; the work notices and winds down. Outside the main thread it does
    nothing."""

    def __init__(self, stop: Callable[[], None]) -> None:
        self.stop = stop
        self.requested = False
        self._previous: dict[int, object] = {}

    def _handler(self, signum, frame) -> None:
        _heard[0] = signum
        self.requested = True
        self.stop()

    def __enter__(self) -> StopOnInterrupt:
        if _main():
            self._previous = {s: signal.signal(s, self._handler) for s in STOP_SIGNALS}
        return self

    def __exit__(self, *exc: object) -> None:
        for s, previous in self._previous.items():
            signal.signal(s, _restorable(s, previous))
        self._previous = {}


def _restorable(signum: int, handler: object) -> object:
    """Return a handler to put back (None: one set outside Python; Python's default then)."""
    if handler is not None:
        return handler
    return signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL
