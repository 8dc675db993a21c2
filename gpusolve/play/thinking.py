"""The exact search within a thinking budget, for a game in progress: the least expected number
of guesses from a position (``gpusolve.search.optimal``, proven) where the search finishes in
time, and why not where it does not.

One ``Thinker`` lasts a game (or an analysis): its searches share one memo (``MemoPool``), and
it keeps the optimal trees it has proven, so that a position those trees reach (the player
followed the advice) is answered from them at once, with no search. A position after one of the
opening book's openers (``gpusolve.play.book``) is answered from the book, with no search.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.errors import GpusolveError, Infeasible
from ..core.history import Move
from ..core.patterns import PatternMatrix
from ..core.trees import Node, Tree, scores
from ..core.words import Word
from ..search.defaults import THINK_SECONDS
from ..search.memo import MemoPool
from ..search.plumbing import Budget
from .book import opening_book


@dataclass(frozen=True)
class Verdict:
    """What the exact search says of a guess at a position: its exact total (the guesses needed,
    summed over the answers the position leaves, this guess included), or why there is none."""

    guess: Word | None
    total: int | None
    answers: int
    why: str = ""
    """Empty where the total is exact; else why it is not known."""

    @property
    def exact(self) -> bool:
        """Return whether the total is proven."""
        return self.total is not None

    @property
    def mean(self) -> float:
        """Return the expected number of guesses from the position, this guess included."""
        return self.total / self.answers if self.total is not None else math.nan


def check_think(seconds: float) -> float:
    """Return a thinking budget (inf: none), or raise a one-line error for one that is not a
    positive number."""
    if not (isinstance(seconds, (int, float)) and seconds > 0):  # NaN is not
        raise GpusolveError(f"the thinking time must be a positive number of seconds (got {seconds})")
    return float(seconds)


def tree_total(tree: Tree) -> int:
    """Return the guesses a tree needs, summed over its answers."""
    return sum(k for _, k in scores(tree))


class Thinker:
    """Exact searches over one game, lists and mode, each within ``seconds``."""

    def __init__(self, pm: PatternMatrix, mode: str, seconds: float = THINK_SECONDS,
                 max_guesses: int = 6, book: bool = True) -> None:
        """``book``: answer the positions the opening book holds from it (False: search them)."""
        self.pm = pm
        self.mode = mode
        self.seconds = check_think(seconds)
        self.max_guesses = max_guesses
        self.memos = MemoPool()
        self.book = opening_book(pm, mode, max_guesses) if book else None
        self.proven: dict[tuple[Move, ...], Tree] = {}
        """Optimal trees proven, by the moves of the position each starts from."""

    def recall(self, moves: tuple[Move, ...]) -> Tree | None:
        """Return the optimal subtree of a proven tree at the position ``moves`` reach, if one is
        known (the moves since that tree's position followed it)."""
        for k in range(len(moves), -1, -1):
            node = self.proven.get(moves[:k])
            for word, reply in moves[k:]:
                if not isinstance(node, Node) or node.guess != word or reply not in node.branches:
                    node = None
                    break
                node = node.branches[reply]
            if node is not None:
                return node
        return None

    def look_up(self, moves: tuple[Move, ...], guess: Word | None) -> Verdict | None:
        """Return the opening book's verdict on ``guess`` (None: the best guess) at the position
        ``moves`` reach, where the book holds it: the opener's total at the start, and the best
        guess after an opener and its reply."""
        if self.book is None:
            return None
        if not moves and guess is not None:
            total = self.book.opener_total(guess, len(self.pm.answers))
            return None if total is None else Verdict(guess, total, len(self.pm.answers))
        entry = self.book.entries.get(moves[0]) if len(moves) == 1 else None
        if entry is None or guess not in (None, entry.guess):
            return None
        return Verdict(entry.guess, entry.total, entry.answers)

    def judge(self, moves: list[Move], guess: Word | None = None) -> Verdict:
        """Return the exact total of ``guess`` (None: of the best guess, which it names) at the
        position ``moves`` reach, or a verdict saying why it is not known."""
        from ..search import optimal

        moves = tuple(moves)
        known = self.recall(moves)
        if isinstance(known, Node) and guess in (None, known.guess):
            return Verdict(known.guess, tree_total(known), known.size)
        booked = self.look_up(moves, guess)
        if booked is not None:
            return booked
        budget = Budget(None, self.seconds if math.isfinite(self.seconds) else None)
        question = optimal.Question(start=guess, moves=moves, mode=self.mode, max_guesses=self.max_guesses)
        try:
            options = optimal.Options(memos=self.memos, budget=budget, at_once=True)
            result = optimal.solve(self.pm, question, options)
        except Infeasible:
            why = f"no strategy finds every answer within {self.max_guesses} guesses"
            return Verdict(guess, None, 0, why)
        except GpusolveError as e:  # e.g. a game with too many replies for the exact search
            return Verdict(guess, None, 0, str(e))
        if not result.proven or result.first_guess is None:
            why = ("the exact search was interrupted" if budget.interrupted else
                   f"the exact search did not finish in {self.seconds:g} s")
            return Verdict(guess, None, result.n_answers, why)
        if isinstance(result.tree, Node):  # under a guess given, its subtrees are optimal still
            if guess is None:
                self.proven[moves] = result.tree
            else:
                for reply, sub in result.tree.branches.items():
                    self.proven[(*moves, (result.tree.guess, reply))] = sub
        return Verdict(result.first_guess, result.total, result.n_answers)
