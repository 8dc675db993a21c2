"""Analysis of a played game against the optimum: per move the skill cost of the guess and the
luck of the reply, both in guesses, and the answers left ranked by how common they are (seed
004's "bullshit detector").

Every figure is an expected number of guesses left under optimal play, the answers equally
likely. For a move made with n answers possible:

- best left: after the best guess, ``V / n - 1`` (V: the position's least total of guesses);
- played left: after the guess played, ``T / n - 1`` (T: that guess's least total);
- skill cost: played left - best left (0: the guess was as good as the best);
- received left: after the reply received (0 where it solved the game);
- luck: played left - received left, the reply's outcome against the average over the answers
  then possible (which is played left itself): positive where the reply left fewer guesses to go.

Each figure is exact where the exact search (``gpusolve.play.thinking``) proves it within the
thinking budget, or known: the opener proven best on the lists in use (``play.openers``). Where
not, it is an estimate, and marked: the greedy entropy tree's mean from there
(``search.greedy``: a strategy's, so no less than the optimum in normal mode), the best guess
then the better of that tree's first guess and the guess played.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.errors import GpusolveError
from ..core.history import Move, remaining_answers
from ..core.patterns import PatternMatrix
from ..core.trees import Node
from ..core.words import Word
from ..search.defaults import ANALYZE_SECONDS
from .openers import proven_opener
from .thinking import Thinker, tree_total

ESTIMATE = "the greedy entropy tree's mean from there (not proven)"
"""What an estimated figure is."""


@dataclass(frozen=True)
class Value:
    """The least total of guesses of a guess at a position (the guess included): proven, or an
    estimate."""

    guess: Word
    total: float
    exact: bool


@dataclass
class MoveReport:
    """One move of a game, judged in expected guesses left; each figure proven or estimated."""

    number: int
    guess: Word
    reply: int
    before: int
    after: int
    best: Value
    played: Value
    received: Value

    @property
    def best_left(self) -> float:
        """Return the expected guesses left after the best guess."""
        return self.best.total / self.before - 1

    @property
    def played_left(self) -> float:
        """Return the expected guesses left after the guess played."""
        return self.played.total / self.before - 1

    @property
    def received_left(self) -> float:
        """Return the expected guesses left after the reply received (0: solved)."""
        return self.received.total / max(self.after, 1)

    @property
    def cost(self) -> float:
        """Return the skill cost: the guesses the move played loses to the best, expected."""
        return max(self.played_left - self.best_left, 0.0)  # estimates may disagree: never below 0

    @property
    def luck(self) -> float:
        """Return the luck: the guesses the reply saved against the average reply, expected."""
        return self.played_left - self.received_left

    @property
    def cost_exact(self) -> bool:
        """Return whether the cost is proven."""
        return self.best.exact and self.played.exact

    @property
    def luck_exact(self) -> bool:
        """Return whether the luck is proven."""
        return self.played.exact and self.received.exact

    def as_dict(self, game) -> dict:
        """Return the move as a JSON-ready dict."""
        return {"move": self.number, "guess": self.guess, "reply": game.format_reply(self.reply),
                "answers_before": self.before, "answers_after": self.after, "best": self.best.guess,
                "best_left": round(self.best_left, 4), "best_exact": self.best.exact,
                "played_left": round(self.played_left, 4), "played_exact": self.played.exact,
                "cost": round(self.cost, 4), "cost_exact": self.cost_exact,
                "received_left": round(self.received_left, 4), "received_exact": self.received.exact,
                "luck": round(self.luck, 4), "luck_exact": self.luck_exact}


class Judge:
    """The values of guesses at the positions of one game: proven where the exact search finishes
    within ``seconds``, else estimated."""

    def __init__(self, pm: PatternMatrix, mode: str = "normal", seconds: float = ANALYZE_SECONDS) -> None:
        self.pm = pm
        self.mode = mode
        self.thinker = Thinker(pm, mode, seconds)

    def value(self, moves: list[Move], guess: Word | None = None) -> Value:
        """Return the value of ``guess`` (None: of the best guess) at the position ``moves`` reach."""
        alive = remaining_answers(self.pm, moves)
        if len(alive) == 1 and guess in (None, self.pm.answers[alive[0]]):
            return Value(self.pm.answers[alive[0]], 1, True)
        opener = proven_opener(self.pm, self.mode) if not moves else None
        if opener is not None and guess in (None, opener.word):
            return Value(opener.word, opener.total, True)
        verdict = self.thinker.judge(moves, guess)
        if verdict.exact:
            return Value(verdict.guess, verdict.total, True)
        return self._estimate(alive, guess)

    def _estimate(self, alive: np.ndarray, guess: Word | None) -> Value:
        """Return the greedy entropy tree's total over ``alive`` (first guess ``guess`` if given)."""
        from ..search.greedy import greedy_tree

        tree = greedy_tree(self.pm, "entropy", self.mode, start=guess, answers=alive)
        return Value(tree.guess if isinstance(tree, Node) else tree, tree_total(tree), False)


def judge_move(judge: Judge, moves: list[Move], number: int) -> MoveReport:
    """Return the judgement of move ``number`` (from 1) of ``moves``."""
    pm = judge.pm
    before, (word, reply) = moves[:number - 1], moves[number - 1]
    n = len(remaining_answers(pm, before))
    best = judge.value(before)
    played = best if best.exact and best.guess == word else judge.value(before, word)
    if played.total <= best.total:  # as good (a tie), or better than an estimated best
        best = Value(word, played.total, best.exact and played.exact)
    if reply == pm.game.solved:
        after, received = 0, Value(word, 0, True)
    else:
        after = len(remaining_answers(pm, moves[:number]))
        received = judge.value(moves[:number])
    return MoveReport(number, word, reply, n, after, best, played, received)


def analyze_game(pm: PatternMatrix, moves: list[Move], mode: str = "normal",
                 seconds: float = ANALYZE_SECONDS) -> tuple[list[MoveReport], np.ndarray]:
    """Return the judged moves and the answer columns left after them."""
    if not moves:
        raise GpusolveError("give the moves of a game, e.g. SALET:.....,CRONY:.Y..G")
    left = remaining_answers(pm, moves)
    judge = Judge(pm, mode, seconds)
    return [judge_move(judge, moves, i + 1) for i in range(len(moves))], left


def by_commonness(words: list[Word]) -> list[tuple[Word, float]]:
    """Return the words with their Zipf frequencies, most common first (needs ``wordfreq``)."""
    from ..search.prior import zipf

    z = zipf(words)
    order = np.lexsort((np.arange(len(words)), -z))
    return [(words[i], float(z[i])) for i in order]
