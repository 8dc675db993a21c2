"""The progress line of a long run: units done/total, rate, ETA and the best result so far."""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Console
from rich.live import Live
from rich.text import Text

from ..core.words import Word


class RunProgress:
    """A callback for ``run_units`` showing progress on a terminal (silent otherwise or when quiet)."""

    def __init__(self, console: Console, label: str, key: Callable[[dict, int], tuple],
                 describe: Callable[[dict], str], positions: dict[Word, int], quiet: bool = False) -> None:
        self.console, self.label, self.key, self.describe = console, label, key, describe
        self.positions = positions
        self.enabled = not quiet and console.is_terminal
        self.best: tuple | None = None
        self.best_text = ""
        self.start = time.monotonic()
        self.first_done: int | None = None
        self.live: Live | None = None

    def __enter__(self) -> RunProgress:
        if self.enabled:
            self.live = Live(Text(self.label), console=self.console, refresh_per_second=4, transient=True)
            self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.live is not None:
            self.live.__exit__(None, None, None)
            self.live = None

    def __call__(self, done: int, total: int, rows: list[tuple[Word, int, dict]]) -> None:
        """Take note of a finished batch and redraw the line."""
        if self.first_done is None:
            self.first_done, self.start = done, time.monotonic()
        for word, _, result in rows:
            key = self.key(result, self.positions.get(word, 0))
            if self.best is None or key < self.best:
                self.best, self.best_text = key, f"{word} ({self.describe(result)})"
        if self.live is not None:
            self.live.update(Text(self.line(done, total)))

    def line(self, done: int, total: int) -> str:
        """Return the progress text: done/total, rate per minute, ETA, best so far."""
        elapsed = max(time.monotonic() - self.start, 1e-9)
        fresh = done - (self.first_done or 0)
        rate = fresh / elapsed * 60
        eta = (total - done) / (fresh / elapsed) if fresh else None
        parts = [f"{self.label}: {done:,}/{total:,} ({100 * done / max(total, 1):.1f}%)"]
        parts.append(f"{rate:,.1f}/min" if fresh else "starting")
        if eta is not None:
            parts.append(f"ETA {_duration(eta)}")
        if self.best_text:
            parts.append(f"best {self.best_text}")
        return " · ".join(parts)


class ProofProgress:
    """A callback for ``prove_best_start`` showing its phase, rate, ETA and best start word so far
    on a terminal (silent otherwise or when quiet)."""

    def __init__(self, console: Console, quiet: bool = False) -> None:
        self.console = console
        self.enabled = not quiet and console.is_terminal
        self.live: Live | None = None
        self.phase = ""
        self.start = 0.0
        self.first = 0

    def __enter__(self) -> ProofProgress:
        if self.enabled:
            self.live = Live(Text("first pass"), console=self.console, refresh_per_second=4, transient=True)
            self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.live is not None:
            self.live.__exit__(None, None, None)
            self.live = None

    def __call__(self, event: dict) -> None:
        """Take note of a finished batch of bounds or a finished search and redraw the line."""
        if self.live is not None:
            self.live.update(Text(self.line(event)))

    def line(self, event: dict) -> str:
        """Return the progress text of an event: bounds or searches done, rate, ETA, best so far."""
        now = time.monotonic()
        first_pass = event["phase"] == "first pass"
        count = event["done"] if first_pass else event["searched"]
        if self.phase != event["phase"]:
            self.phase, self.start, self.first = event["phase"], now, count
        elapsed = max(now - self.start, 1e-9)
        fresh = count - self.first
        if first_pass:
            done, total = event["done"], event["total"]
            parts = [f"first-pass bounds: {done:,}/{total:,}"]
            if fresh:
                eta = (total - done) * elapsed / fresh
                parts += [f"{fresh / elapsed * 60:,.0f}/min", f"ETA {_duration(eta)}"]
        else:
            parts = [f"searched: {event['searched']:,}, {event['pending']:,} to go"]
            if fresh:
                each = elapsed / fresh
                parts += [f"{each:.1f} s each", f"ETA {_duration(event['pending'] * each)} at most"]
            if event["best"]:
                parts.append(f"best {event['best'][0]} ({event['best'][1]:,})")
        return " · ".join(parts)


def _duration(seconds: float) -> str:
    """Return seconds as '1h02m', '3m05s' or '12s'."""
    s = int(seconds + 0.5)
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    if s >= 60:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s}s"
