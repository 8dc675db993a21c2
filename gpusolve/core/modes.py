"""Which guesses a player may make: ``normal`` (any allowed guess), ``hard`` and ``consistent``.

* ``hard`` is the NYT rule for Wordle: every later guess keeps each revealed green letter in
  its place and contains each revealed letter (green or yellow) at least as many times as that
  reply revealed it. For games without squares (Jotto, Mastermind) it means the guess, were it
  the answer, would have given every reply seen so far.
* ``consistent`` means the guess must be one of the answers still possible (the seeds'
  "inconsistent guesses prohibited").

``hard_mode_allows`` is the pure-Python oracle of the hard-mode rule; the searches use the
same rule compiled for the CPU and CUDA (``kernels/hardmode.py``, tested against this one).
"""

from __future__ import annotations

from collections import Counter

from .errors import GpusolveError
from .games import WORDLE, Game
from .words import Word

MODES = ("normal", "hard", "consistent")


def check_mode(mode: str) -> str:
    """Return ``mode`` (in lower case) if it is a known mode, else raise a one-line error."""
    mode = mode.lower()
    if mode not in MODES:
        raise GpusolveError(f"unknown mode {mode!r}: choose one of {', '.join(MODES)}")
    return mode


def hard_mode_allows(game: Game, guess: Word, moves: list[tuple[Word, int]]) -> bool:
    """Return whether hard mode allows ``guess`` after the (guess, reply code) ``moves``."""
    return hard_mode_problem(game, guess, moves) is None


def hard_mode_problem(game: Game, guess: Word, moves: list[tuple[Word, int]]) -> str | None:
    """Return why hard mode refuses ``guess`` after ``moves`` (naming the letter), or None."""
    for previous, code in moves:
        if game.kind != WORDLE:
            if game.reply(previous, guess) != code:
                return (f"{guess} breaks hard mode: it would not have given the reply "
                        f"{game.format_reply(code)} to {previous}")
            continue
        squares = game.format_reply(code)
        for i, s in enumerate(squares):
            if s == "G" and guess[i] != previous[i]:
                return (f"{guess} breaks hard mode: letter {i + 1} must be {previous[i]} "
                        f"(green in {previous})")
        revealed = Counter(c for c, s in zip(previous, squares) if s != ".")
        have = Counter(guess)
        for c, n in revealed.items():
            if have[c] < n:
                times = "" if n == 1 else f" {n} times"
                return f"{guess} breaks hard mode: it must contain {c}{times} (revealed by {previous})"
    return None
