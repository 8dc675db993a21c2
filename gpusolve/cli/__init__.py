"""The ``gpusolve`` command line: thin commands over the library, one module per topic."""

from __future__ import annotations

import os
import sys

from . import adversaries, core, fixedsets, lists, optimal, play, policies, runs, tree, war
from .app import app


def main() -> None:
    """Run the command line (output piped into a reader that stops early ends quietly)."""
    try:
        app()
    except BrokenPipeError:
        _quiet_stdout()
        sys.exit(1)
    finally:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            _quiet_stdout()


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush cannot fail."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


__all__ = ["adversaries", "app", "core", "fixedsets", "lists", "main", "optimal", "play", "policies", "runs",
           "tree", "war"]
