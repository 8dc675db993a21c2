"""The ``gpusolve`` command line: thin commands over the library, one module per topic."""

from __future__ import annotations

from . import core, optimal, runs, tree, variants, war
from .app import app


def main() -> None:
    """Run the command line."""
    app()


__all__ = ["app", "core", "main", "optimal", "runs", "tree", "variants", "war"]
