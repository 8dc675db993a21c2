"""Which guesses a player may make: ``normal`` (any allowed guess), ``hard`` and ``consistent``.

* ``hard`` is the NYT rule for Wordle: every later guess keeps each revealed green letter in
  its place and contains each revealed letter (green or yellow) at least as many times as that
  reply revealed it. For games without squares (Jotto, Mastermind) it means the guess, were it
  the answer, would have given every reply seen so far.
* ``consistent`` means the guess must be one of the answers still possible (the seeds'
  "inconsistent guesses prohibited").
"""

from __future__ import annotations

from collections import Counter

from .errors import GpusolveError
from .games import WORDLE, Game
from .words import Word

MODES = ("normal", "hard", "consistent")


def check_mode(mode: str) -> str:
    """Return ``mode`` if it is a known mode, else raise a one-line error."""
    if mode not in MODES:
        raise GpusolveError(f"unknown mode {mode!r}: choose one of {', '.join(MODES)}")
    return mode


def hard_mode_allows(game: Game, guess: Word, moves: list[tuple[Word, int]]) -> bool:
    """Return whether hard mode allows ``guess`` after the (guess, reply code) ``moves``."""
    for previous, code in moves:
        if game.kind != WORDLE:
            if game.reply(previous, guess) != code:
                return False
            continue
        squares = game.format_reply(code)
        revealed = Counter(c for c, s in zip(previous, squares) if s != ".")
        have = Counter(guess)
        if any(s == "G" and guess[i] != previous[i] for i, s in enumerate(squares)):
            return False
        if any(have[c] < n for c, n in revealed.items()):
            return False
    return True
