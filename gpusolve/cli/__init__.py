"""The ``gpusolve`` command line: thin commands over the library, one module per topic."""

from __future__ import annotations

from . import core
from . import tree as tree_commands  # noqa: F401  (greedy trees, verify, play)
from .app import app


def main() -> None:
    """Run the command line."""
    app()


__all__ = ["app", "core", "main"]
