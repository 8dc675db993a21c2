"""The ``gpusolve`` command line: thin commands over the library, one module per topic."""

from __future__ import annotations

import contextlib
import errno
import os
import sys

from . import adversaries, core, fixedsets, lists, optimal, play, policies, runs, tables, tree, war
from .app import app, no_space


def main() -> None:
    """Run the command line: output piped into a reader that stops early ends quietly, output to
    a full device is one ``error:`` line, and a terminal that cannot show a character gets '?'."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    try:
        app.only(sys.argv[1] if len(sys.argv) > 1 else "")()
    except BrokenPipeError:
        _quiet_stdout()
        sys.exit(1)
    except OSError as e:
        if e.errno not in FULL:
            raise
        _quiet_stdout()
        print(f"error: {no_space(e)}", file=sys.stderr)
        sys.exit(2)
    finally:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            _quiet_stdout()
        except OSError as e:
            _quiet_stdout()
            if e.errno in FULL:
                print(f"error: {no_space(e)}", file=sys.stderr)
                sys.exit(2)


FULL = (errno.ENOSPC, errno.EDQUOT)
"""The errors of a write to a full device."""


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush cannot fail (what it held
    is dropped)."""
    with contextlib.suppress(ValueError, OSError):
        sys.stdout.flush()
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


__all__ = ["adversaries", "app", "core", "fixedsets", "lists", "main", "optimal", "play", "policies", "runs",
           "tables", "tree", "war"]
