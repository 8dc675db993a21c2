"""Openers proven best: the first guesses that the whole proof (``gpusolve optimal-tree`` without
``--start``) showed to have the least total of all allowed first guesses, on the lists it ran on.

The table is keyed by the lists' content (``lists_key``), so a list changed by a single word
never claims a proof made on another; the figures are those of docs/lists.md.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..core.patterns import PatternMatrix
from ..core.words import Word


@dataclass(frozen=True)
class Opener:
    """A first guess proven best of all allowed first guesses, with its total over the answers."""

    word: Word
    total: int
    answers: int
    guesses: int
    lists: str
    """The era whose lists the proof ran on (``gpusolve lists``)."""

    def says(self) -> str:
        """Return how the assistant names it: proven, with its total and mean."""
        return (f"proven best opener on the {self.lists} lists: {self.total:,} guesses over "
                f"{self.answers:,} answers (mean {self.total / self.answers:.4f}), the least of all "
                f"{self.guesses:,} first guesses")


PROVEN = {
    ("wordle", "normal", 6, "29e6e4d5eb4d005baf3d05c803188d605581914ecf65ff1581f2ed734cf5d2c4"):
        Opener("SALET", 7_920, 2_315, 12_972, "original"),
    ("wordle", "normal", 6, "47c480bc33d03622109092fd3a2ec3674ed6339ecf2eca92e566f73835a9998b"):
        Opener("SALET", 7_897, 2_309, 12_972, "nyt-2022-03"),
    ("wordle", "normal", 6, "2406d642e28159ff2809a0fe5ca1cc9acac2a41075fdaf50bb9efe1133ca0814"):
        Opener("TARSE", 11_219, 3_158, 14_855, "nyt-2023-07"),
}
"""(game, mode, max guesses, lists_key) -> the opener proven best there (docs/lists.md)."""


def lists_key(guesses: tuple[Word, ...], answers: tuple[Word, ...]) -> str:
    """Return a digest of the two lists' words (in any order): equal lists, equal keys."""
    digest = hashlib.sha256()
    for words in (guesses, answers):
        digest.update(("\n".join(sorted(words)) + "\n\n").encode())
    return digest.hexdigest()


def proven_opener(pm: PatternMatrix, mode: str, max_guesses: int = 6) -> Opener | None:
    """Return the opener proven best for this game, mode and lists, or None where none is known."""
    return PROVEN.get((pm.game.name, mode, max_guesses, lists_key(pm.guesses, pm.answers)))
