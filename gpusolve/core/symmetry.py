"""The symmetries a game declares, and what the exact searches make of them.

A game declares which transformations of its codes keep every reply: relabelling the symbols
(any permutation of the colours or digits) and permuting the positions (any reordering of the
pegs). A symmetry ``σ`` is one of each; it acts on every code, and the declaration promises
``reply(σg, σa) == reply(g, a)`` for every guess ``g`` and answer ``a`` (the tests check it).
The group is every combination of what the game allows: ``k!`` relabellings times ``L!``
reorderings for Mastermind and Bulls and Cows, the relabellings alone for Wordle.

A search may use the group on a pair of lists only when it maps each list onto itself (every
code of Mastermind, every code of different digits of Bulls and Cows; never Wordle's word
lists): ``usable`` says so. Then at a node reached by the guesses ``h1..ht``, every symmetry
fixing each ``hi`` maps the node's answers (and its hard-mode guesses) onto themselves, so two
guesses ``g`` and ``σg`` cost the same there: only one guess per class needs a search. The
class of ``g`` is named by ``canonical(history, g)``: equal for two guesses exactly when such a
``σ`` maps one onto the other. The compiled searches compute the same classes
(``kernels/symmetry_cpu.py``); this module is their oracle.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .words import Word


@dataclass(frozen=True)
class Symmetry:
    """One symmetry: symbol ``s`` becomes ``symbols[s]``; the symbol at position ``p`` moves to
    position ``positions[p]``."""

    symbols: tuple[int, ...]
    positions: tuple[int, ...]

    def apply(self, word: Word, alphabet: str) -> Word:
        """Return the image of ``word`` (written in ``alphabet``)."""
        out = [""] * len(word)
        for p, c in enumerate(word):
            out[self.positions[p]] = alphabet[self.symbols[alphabet.index(c)]]
        return "".join(out)


@dataclass(frozen=True)
class SymmetryGroup:
    """The symmetries of a game: every relabelling of the symbols (``relabel``) and every
    permutation of the positions (``permute``), each only where the game declares it."""

    alphabet: str
    length: int
    relabel: bool
    permute: bool

    @property
    def trivial(self) -> bool:
        """Return whether the group holds the identity alone."""
        return not (self.relabel and len(self.alphabet) > 1) and not (self.permute and self.length > 1)

    @property
    def order(self) -> int:
        """Return the number of symmetries."""
        k, n = len(self.alphabet), self.length
        return (math.factorial(k) if self.relabel else 1) * (math.factorial(n) if self.permute else 1)

    def element(self, symbols: Sequence[int] | None = None,
                positions: Sequence[int] | None = None) -> Symmetry:
        """Return the symmetry of the given relabelling and reordering (default: none), checked
        to be in the group."""
        k, n = len(self.alphabet), self.length
        symbols = tuple(range(k)) if symbols is None else tuple(symbols)
        positions = tuple(range(n)) if positions is None else tuple(positions)
        if sorted(symbols) != list(range(k)) or sorted(positions) != list(range(n)):
            raise ValueError("not a permutation")
        if (symbols != tuple(range(k)) and not self.relabel) or (positions != tuple(range(n))
                                                                 and not self.permute):
            raise ValueError("not a symmetry of this game")
        return Symmetry(symbols, positions)

    def generators(self) -> list[Symmetry]:
        """Return symmetries generating the group: a transposition and a full cycle of the
        symbols (if relabelled) and of the positions (if permuted)."""
        k, n = len(self.alphabet), self.length
        out = []
        for allowed, size, make in ((self.relabel, k, lambda p: self.element(symbols=p)),
                                    (self.permute, n, lambda p: self.element(positions=p))):
            if allowed and size > 1:
                out.append(make((1, 0, *range(2, size))))
                out.append(make((*range(1, size), 0)))
        return out

    def random(self, rng: random.Random) -> Symmetry:
        """Return a symmetry drawn uniformly from the group."""
        symbols = list(range(len(self.alphabet)))
        positions = list(range(self.length))
        if self.relabel:
            rng.shuffle(symbols)
        if self.permute:
            rng.shuffle(positions)
        return Symmetry(tuple(symbols), tuple(positions))

    def preserves(self, words: Sequence[Word]) -> bool:
        """Return whether every symmetry maps the set of ``words`` onto itself."""
        known = set(words)
        return all(g.apply(w, self.alphabet) in known for g in self.generators() for w in known)

    @cached_property
    def position_perms(self) -> np.ndarray:
        """Return the position permutations of the group as int8 rows, the identity first."""
        if not self.permute:
            return np.arange(self.length, dtype=np.int8)[None, :]
        return np.array(list(itertools.permutations(range(self.length))), dtype=np.int8).reshape(
            -1, self.length)

    def canonical(self, history: Sequence[Word], word: Word) -> tuple[int, ...]:
        """Return the class name of ``word`` among the guesses after ``history``: equal for two
        words exactly when a symmetry fixing every word of ``history`` maps one onto the other.

        The least, over the reorderings, of the rows (history, then word) relabelled in order
        of first appearance (pure Python, the oracle of the compiled classes)."""
        rows = [[self.alphabet.index(c) for c in w] for w in (*history, word)]
        best = None
        for perm in self.position_perms.tolist():
            moved = []
            for row in rows:
                out = [0] * self.length
                for p, c in enumerate(row):
                    out[perm[p]] = c
                moved.append(out)
            flat = [c for row in moved for c in row]
            if self.relabel:
                names: dict[int, int] = {}
                flat = [names.setdefault(c, len(names)) for c in flat]
            key = tuple(flat)
            if best is None or key < best:
                best = key
        return best

    def least_moves(self, moves: Sequence[tuple[Word, int]]) -> list[tuple[Word, int]]:
        """Return the least image of the (guess, reply) ``moves``, sorted: equal for two move
        lists exactly when a symmetry maps one onto the other (pure Python, the oracle of
        ``kernels/canonical_cpu.py``; relabelling groups only).

        Over every order of the moves with their replies increasing and every reordering of the
        positions, the codes relabelled in order of first appearance, least as one sequence."""
        best = None
        for order in itertools.permutations(moves):
            if any(a[1] > b[1] for a, b in itertools.pairwise(order)):
                continue
            for perm in self.position_perms.tolist():
                names: dict[str, int] = {}
                flat = []
                for word, _ in order:
                    moved = [""] * self.length
                    for p, c in enumerate(word):
                        moved[perm[p]] = c
                    flat.extend(names.setdefault(c, len(names)) for c in moved)
                key = (tuple(flat), tuple(r for _, r in order))
                if best is None or key < best:
                    best = key
        flat, replies = best
        n = self.length
        return sorted(("".join(self.alphabet[v] for v in flat[t * n:(t + 1) * n]), r)
                      for t, r in enumerate(replies))


def usable(group: SymmetryGroup, guesses: Sequence[Word], answers: Sequence[Word]) -> bool:
    """Return whether a search over these lists may use the group: it is not trivial and maps
    each list onto itself."""
    return not group.trivial and group.preserves(answers) and group.preserves(guesses)


CODE_TABLE_MAX = 1 << 24
"""Largest code space (symbols ** positions) the compiled classes index by code number."""


def kernel_tables(game, guesses: Sequence[Word], answers: Sequence[Word]
                  ) -> tuple[np.ndarray, np.ndarray] | None:
    """Return (position permutations, code number -> guess row) for the compiled classes
    (``kernels/symmetry_cpu.py``), or None when the search may not use the game's symmetries
    on these lists (``usable``) or the code space is too large to index."""
    group = game.symmetries()
    if game.colours ** game.length > CODE_TABLE_MAX or not usable(group, guesses, answers):
        return None
    weights = game.colours ** np.arange(game.length - 1, -1, -1, dtype=np.int64)
    numbers = game.encode(tuple(guesses)).astype(np.int64) @ weights
    code_row = np.full(game.colours ** game.length, -1, np.int32)
    code_row[numbers] = np.arange(len(guesses), dtype=np.int32)
    return group.position_perms, code_row


def opening_classes(pm, rows: np.ndarray) -> np.ndarray:
    """Return the first of the guess ``rows`` of each class under the game's symmetries (all
    of them where the search may not use the symmetries on the matrix's lists)."""
    from ..kernels.symmetry_cpu import first_of_classes

    tables = kernel_tables(pm.game, pm.guesses, pm.answers)
    if tables is None or len(rows) < 2:
        return rows
    return first_of_classes(pm.game.encode(pm.guesses), *tables, pm.game.colours, (), rows)
