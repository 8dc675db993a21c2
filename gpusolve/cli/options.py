"""The options of the search commands as objects, built once from a command line and passed
down (``optimal-tree``, ``rank --by tree``). Imported when a command runs, not at start-up:
making these dataclasses costs a few milliseconds that ``gpusolve --help`` need not pay."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..search.defaults import DEFAULT_MEMO_MB
from .app import load_matrix


@dataclass(frozen=True)
class GameLists:
    """A command's choice of game, word lists and backend (--game ... --backend), as given."""

    game: str = "wordle"
    length: int | None = None
    colours: int | None = None
    repeats: bool | None = None
    black_only: bool = False
    guesses: str | None = None
    answers: str | None = None
    backend: str | None = None

    def matrix(self, fits=None):
        """Return the pattern matrix of these lists (``load_matrix``; ``fits`` checks the lists' sizes
        before it is built)."""
        return load_matrix(self.game, self.length, self.colours, self.guesses, self.answers, self.backend,
                           repeats=self.repeats, black_only=self.black_only, fits=fits)


@dataclass(frozen=True)
class RunOptions:
    """A search command's options, built once from its command line and passed down as they
    were given: what it asks (mode, guesses, cutoff, start words), over which lists, and how it
    runs (workers, memory, run directory, cluster, outputs)."""

    lists: GameLists
    mode: str = "normal"
    max_guesses: int = 6
    cutoff: int | None = None
    candidates: str | None = None
    """--candidates as given: a number or 'all' (None: the command's default)."""
    metric: str = "entropy"
    words: str | None = None
    words_file: Path | None = None
    top: int = 20
    workers: int | None = None
    memo_mb: int | None = None
    """--memo-mb (None: ``DEFAULT_MEMO_MB``)."""
    run_dir: Path | None = None
    scheduler: str | None = None
    batch: int | None = None
    output: Path | None = None
    output_format: str | None = None
    """--output-format (exact rankings' tables: csv, anchor, json; None: by the file's suffix)."""
    task: str | None = None
    json: bool = False
    quiet: bool = False

    @property
    def memo(self) -> int:
        """Return the memo size in MiB: --memo-mb, else the default."""
        return DEFAULT_MEMO_MB if self.memo_mb is None else self.memo_mb


@dataclass(frozen=True)
class TreeOptions(RunOptions):
    """An ``optimal-tree`` call's options, built once from its command line and passed down:
    those of every search command (``RunOptions``) and its own."""

    objective: str = "total"
    rank: bool = False
    start: str | None = None
    state: str | None = None
    alternatives: int = 0
    """The next-best guesses whose values are also proven (--alternatives; 4 with --state)."""
    time_limit: float | None = None
    out: str | None = None
    fmt: str | None = None
    show: int = 0
    """Levels of the tree printed as text (--show)."""
    pair_mb: int | None = None
    bounds: bool = False
    """--bounds: bound the --start word's total in a resumable run (``gpusolve.runs.bounding``)."""
