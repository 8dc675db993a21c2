"""The pattern matrix: the reply code of every allowed guess against every possible answer."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from .backend import CpuBackend, CudaBackend, get_backend
from .cache import cached_array, content_key
from .errors import Note
from .games import Game, make_game, matrix_bytes
from .limits import check_memory, mib
from .words import Word


@dataclass
class PatternMatrix:
    """Reply codes ``codes[g, a]`` for guesses x answers, with the lists that index them."""

    game: Game
    guesses: tuple[Word, ...]
    answers: tuple[Word, ...]
    codes: np.ndarray
    backend: CpuBackend | CudaBackend
    seconds: float = 0.0
    cache_path: Path | None = None
    cache_hit: bool = False
    guess_index: dict[Word, int] = field(init=False, repr=False)
    answer_rows: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.guess_index = {w: i for i, w in enumerate(self.guesses)}
        self.answer_rows = np.array([self.guess_index[w] for w in self.answers], dtype=np.int32)

    @property
    def shape(self) -> tuple[int, int]:
        """Return (number of guesses, number of answers)."""
        return self.codes.shape

    @cached_property
    def letters(self) -> np.ndarray:
        """Return the guesses encoded for the kernels (``Game.encode``)."""
        return self.game.encode(self.guesses)

    @cached_property
    def letter_counts(self) -> np.ndarray:
        """Return uint8 ``[guess row, symbol]``: how many times each symbol occurs in each guess."""
        from ..kernels.hardmode_cpu import letter_counts

        return letter_counts(self.letters, self.game.colours)

    def hard_mode_rows(self, moves: list[tuple[Word, int]]) -> np.ndarray:
        """Return the guess rows hard mode allows after the (guess, reply code) ``moves``: the
        compiled rule of ``kernels.hardmode`` on the backend (``core.modes`` is its oracle)."""
        rows = np.arange(self.shape[0], dtype=np.int32)
        moves_g = np.array([self.guess_index[w] for w, _ in moves], np.int32)
        moves_p = np.array([p for _, p in moves], np.int64)
        g = self.game
        mask = self.backend.hard_mode_mask(g.kind, g.length, g.colours, self.letters, self.letter_counts,
                                           moves_g, moves_p, rows)
        return rows[mask.astype(np.bool_)]

    @cached_property
    def branches(self) -> int:
        """Return how many distinct replies besides the solved one the matrix holds: the most
        unsolved replies any guess gives on any set (``kernels.levels``), computed once."""
        from ..kernels.patterns_cpu import replies_present

        seen = replies_present(np.asarray(self.codes), self.game.n_patterns)
        return int(seen.sum() - seen[self.game.solved])

    @cached_property
    def answer_of_row(self) -> np.ndarray:
        """Return int32 per guess row: the answer column of the same word, -1 where none."""
        out = np.full(self.shape[0], -1, np.int32)
        out[self.answer_rows] = np.arange(len(self.answer_rows), dtype=np.int32)
        return out

    @cached_property
    def answer_major(self) -> np.ndarray:
        """Return the reply codes answer-major (``codes.T``, contiguous), computed once."""
        from ..kernels.patterns_cpu import transpose

        codes = np.asarray(self.codes)
        out = np.empty(codes.shape[::-1], codes.dtype)
        transpose(codes, out)  # in cache-sized tiles: twice numpy's speed
        return out

    def covers(self, answers: np.ndarray, rows: np.ndarray) -> bool:
        """Return whether the answer columns and guess rows are all of them, in order."""
        return (len(rows) == self.shape[0] and len(answers) == self.shape[1]
                and bool((np.diff(rows) == 1).all()) and bool((np.diff(answers) == 1).all()))


def pattern_dtype(game: Game) -> np.dtype:
    """Return the smallest unsigned dtype holding every reply code of ``game``."""
    return np.dtype(np.uint8 if game.n_patterns <= 256 else np.uint16)


BUILD_CHUNK = 1 << 25
"""Reply codes per kernel call when a large matrix is built in slices of guess rows (about a
second's work on a few cores), so that its progress can be shown and its time foretold."""

NOTE_SECONDS = 10.0
"""A build foreseen to take longer than this is announced with a ``note:`` saying how long."""

OnRows = Callable[[int, int], None]
"""Hears of a matrix build's progress: (guess rows done, guess rows in all)."""


def build_codes(game: Game, guesses: tuple[Word, ...], answers: tuple[Word, ...],
                backend: CpuBackend | CudaBackend, progress: OnRows | None = None) -> np.ndarray:
    """Return the reply-code matrix computed by ``backend``'s kernel (no cache); a large one is
    built in slices of guess rows, its time foretold in a note from the pace of the first slices
    and its progress told to ``progress``."""
    letters, targets, dtype = game.encode(guesses), game.encode(answers), pattern_dtype(game)
    n, rows = len(guesses), max(1, BUILD_CHUNK // max(len(answers), 1))
    if n <= rows:
        return backend.pattern_matrix(game.kind, letters, targets, game.colours, dtype)
    out = np.empty((n, len(answers)), dtype)
    for first in range(0, n, rows):
        began = time.perf_counter()
        out[first:first + rows] = backend.pattern_matrix(game.kind, letters[first:first + rows], targets,
                                                         game.colours, dtype)
        done = min(n, first + rows)
        if first == rows:  # at the pace of the second slice (the first may include compiling the kernel)
            _foretell((time.perf_counter() - began) * (n - done) / (done - first), out)
        if progress:
            progress(done, n)
    return out


def _foretell(seconds: float, out: np.ndarray) -> None:
    """Say in a note how much longer a long build of the matrix ``out`` takes."""
    if seconds > NOTE_SECONDS:
        g, a = out.shape
        warnings.warn(Note(f"building the pattern matrix of {g:,} guesses x {a:,} answers "
                           f"({mib(out.nbytes)}) takes about {duration(seconds)} more; it is cached for the "
                           "next time"), stacklevel=3)


def duration(seconds: float) -> str:
    """Return a time span as a short text: '40 s', '12 min', '3.5 h'."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def list_sizes(game: Game, guesses: str | None, answers: str | None, jotto_order: str = "sorted"
               ) -> tuple[int, int]:
    """Return how many guesses and answers the lists hold (read and checked, nothing built)."""
    guess_list, answer_list = game.word_lists(guesses, answers, jotto_order)
    return len(guess_list), len(answer_list)


def pattern_matrix(game: Game | None = None, guesses: str | None = None, answers: str | None = None,
                   backend: str | None = None, use_cache: bool = True,
                   jotto_order: str = "sorted", progress: OnRows | None = None) -> PatternMatrix:
    """Return the pattern matrix for a game and word lists (names or paths), cached on disk
    (``jotto_order``: see ``Game.word_lists``; ``progress`` hears of a long build)."""
    game = game or make_game()
    guess_list, answer_list = game.word_lists(guesses, answers, jotto_order)
    check_memory(matrix_bytes(game, len(guess_list), len(answer_list)),
                 f"the pattern matrix of {len(guess_list):,} guesses x {len(answer_list):,} answers",
                 "use shorter word lists")
    engine = get_backend(backend, check=False)  # the GPU's start goes on while the matrix loads
    start = time.perf_counter()
    build = lambda: build_codes(game, guess_list, answer_list, engine, progress)  # noqa: E731
    if use_cache:
        codes, path, hit = cached_array("patterns", content_key(game, guess_list, answer_list), build)
    else:
        codes, path, hit = build(), None, False
    seconds = time.perf_counter() - start
    engine.ready()
    return PatternMatrix(game, guess_list, answer_list, codes, engine, seconds, path, hit)
