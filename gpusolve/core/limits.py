"""What this machine can hold and run: memory available, worker counts, and the up-front checks
that refuse a request that cannot fit, in one line that says what would."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import GpusolveError

MAX_WORKERS_PER_CORE = 4
MAX_WORKERS = 256
INT64_MAX = (1 << 63) - 1


def cores() -> int:
    """Return the number of CPU cores this process may use."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def max_workers() -> int:
    """Return the most workers (threads or processes) a command accepts: 4 per core, at most 256."""
    return min(MAX_WORKERS, MAX_WORKERS_PER_CORE * cores())


def check_workers(workers: int | None, option: str = "--workers", least: int = 1) -> None:
    """Raise a one-line error unless ``workers`` is None or in ``least .. max_workers()``."""
    if workers is None:
        return
    most = max_workers()
    if not least <= workers <= most:
        raise GpusolveError(f"{option} must be between {least} and {most} ({MAX_WORKERS_PER_CORE} per "
                            f"core on this machine's {cores()}), not {workers}")


def available_memory(total: bool = False) -> int | None:
    """Return the bytes of memory this process may still take, or (``total``) the machine's
    (None where unknown); a container's limit counts."""
    found = []
    field = "MemTotal:" if total else "MemAvailable:"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith(field):
                found.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    try:  # a cgroup (container) limit
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        used = 0 if total else int(Path("/sys/fs/cgroup/memory.current").read_text().strip())
        if limit != "max":
            found.append(max(0, int(limit) - used))
    except (OSError, ValueError):
        pass
    return min(found) if found else None


def mib(n_bytes: float) -> str:
    """Return a byte count as a short text: '512 MiB', '3.2 GiB'."""
    if n_bytes >= 2**30:
        return f"{n_bytes / 2**30:,.1f} GiB"
    return f"{n_bytes / 2**20:,.0f} MiB"


def check_memory(need: int, what: str, fits: str = "", total: bool = False) -> None:
    """Raise a one-line error when ``need`` bytes for ``what`` exceed the memory available (or,
    for memory mostly reserved rather than used, the machine's ``total``); ``fits`` says what would."""
    free = available_memory(total)
    if free is not None and need > free:
        hint = f"; {fits}" if fits else ""
        raise GpusolveError(f"{what} needs up to {mib(need)} of memory, more than the {mib(free)} "
                            f"{'this machine has' if total else 'available'}{hint}")


def check_memo_mb(memo_mb: int, option: str = "--memo-mb", least: int = 1) -> None:
    """Raise a one-line error unless a memory budget in MiB is at least ``least`` and fits."""
    if memo_mb < least:
        raise GpusolveError(f"{option} must be at least {least} MiB, not {memo_mb}")
    free = available_memory()
    if free is not None and memo_mb * 2**20 > free:
        raise GpusolveError(f"{option} {memo_mb:,} is more than the {free // 2**20:,} MiB of memory "
                            f"available: use at most {free // 2**20:,}")
