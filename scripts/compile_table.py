"""Time a command's first run: every numba function it compiles, with empty caches (issue 29, item 18).

Usage: python scripts/compile_table.py [--keep] [--full] [--aside] [gpusolve arguments ...]
       (default arguments: optimal-tree --start SALET --quiet)

Runs the command in this process with ``NUMBA_CACHE_DIR`` and ``GPUSOLVE_CACHE_DIR`` pointed at fresh
temporary folders (``--keep``: the caches already in use, to see what a warm run still compiles),
listens to numba's ``numba:compile`` events and prints one row per compiled function and signature:
its own compile time (nested compiles of the functions it calls subtracted) and the time with them,
then the command's CPU and wall time and how much of it was compiling. Times are CPU seconds of the
compiling thread, which a loaded machine inflates less than wall time (``--full``: whole signatures).
Every function compiles in this process (``--aside``: the exact search's in a second one, as the
command does on two cores or more, ``gpusolve.search.aside``; the table then lists this process's
compiles alone, the CPU time both processes').
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

DEFAULT = ["optimal-tree", "--start", "SALET", "--quiet"]


def fresh_caches() -> None:
    """Point numba's and gpusolve's caches at new temporary folders (before numba imports)."""
    root = tempfile.mkdtemp(prefix="compile_table.")
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(root, "numba")
    os.environ["GPUSOLVE_CACHE_DIR"] = os.path.join(root, "gpusolve")


def listen(rows: list[list]) -> None:
    """Register numba listeners appending [name, signature, own s, of it LLVM s, with callees s] per
    compile to ``rows`` (CPU seconds of the compiling thread)."""
    from numba.core import event

    stack: list[list] = []  # per compile under way: [start, callees' seconds, LLVM seconds]
    llvm: list[float] = []

    class Compile(event.Listener):
        def on_start(self, ev) -> None:
            stack.append([time.thread_time(), 0.0, 0.0])

        def on_end(self, ev) -> None:
            start, nested, in_llvm = stack.pop()
            total = time.thread_time() - start
            if stack:
                stack[-1][1] += total
            function = ev.data["dispatcher"].py_func
            name = f"{function.__module__}.{function.__qualname__}".replace("gpusolve.kernels.", "")
            signature = ", ".join(str(a) for a in ev.data["args"])
            rows.append([name, signature, total - nested, in_llvm, total])

    class Llvm(event.Listener):
        def on_start(self, ev) -> None:
            llvm.append(time.thread_time())

        def on_end(self, ev) -> None:
            start = llvm.pop()
            if stack and not llvm:
                stack[-1][2] += time.thread_time() - start

    event.register("numba:compile", Compile())
    event.register("numba:llvm_lock", Llvm())


def report(rows: list[list], cpu: float, wall: float, full: bool) -> None:
    """Print the compile table, the slowest first, and the totals."""
    rows.sort(key=lambda r: -r[2])
    print(f"{'own s':>7} {'LLVM s':>7} {'w/ callees':>10}  function (signature)")
    for name, signature, own, in_llvm, total in rows:
        short = signature if full or len(signature) <= 70 else signature[:67] + "..."
        print(f"{own:7.2f} {in_llvm:7.2f} {total:10.2f}  {name} ({short})")
    compiling, in_llvm = sum(r[2] for r in rows), sum(r[3] for r in rows)
    print(f"{len(rows)} compiles ({len({r[0] for r in rows})} functions): {compiling:.1f} s compiling "
          f"({in_llvm:.1f} s in LLVM); the command {cpu:.1f} s CPU, {wall:.1f} s wall; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


def process_cpu() -> float:
    """Return the CPU seconds of this process and of the processes it has waited for."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> None:
    args = sys.argv[1:]
    keep, full = "--keep" in args, "--full" in args
    aside = "--aside" in args
    args = [a for a in args if a not in ("--keep", "--full", "--aside")] or DEFAULT
    if not keep:
        fresh_caches()
    rows: list[list] = []
    listen(rows)
    from gpusolve.cli import main as gpusolve
    from gpusolve.search import aside as compile_aside

    compile_aside.COMPILE_ASIDE = aside
    start, cpu = time.perf_counter(), process_cpu()
    try:
        sys.argv = ["gpusolve", *args]
        gpusolve()
    except SystemExit as stop:
        if stop.code:
            print(f"exit {stop.code}", file=sys.stderr)
    report(rows, process_cpu() - cpu, time.perf_counter() - start, full)


if __name__ == "__main__":
    main()
