"""The solving assistant: the moves played so far, the answers they leave, and the next guess.

The opening guess is the opener proven best on the lists in use where one is known
(``gpusolve.play.openers``). The best next guess is exact (``gpusolve.search.optimal``: the least
expected number of guesses, proven) where the exact search finishes within the thinking budget
(``gpusolve.play.thinking``; Ctrl-C cuts it short) or the opening book holds it
(``gpusolve.play.book``: after a popular opener and any reply), trivially exact with one or two answers left,
and otherwise greedy by a partition metric (``gpusolve.search.metrics.rank_guesses``, or the
weighted ranking under a prior, where the exact search, which weighs the answers alike, is not
asked), with the reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..core.errors import GpusolveError
from ..core.games import JOTTO, anagram_class
from ..core.history import Move, allowed_rows, remaining_answers
from ..core.modes import check_mode, hard_mode_problem
from ..core.patterns import PatternMatrix
from ..core.words import Word
from ..search.metrics import canonical_metric, rank_guesses
from ..search.prior import answer_weights, check_prior, rank_weighted
from .openers import proven_opener
from .thinking import THINK_SECONDS, Thinker


def parse_turn(pm: PatternMatrix, text: str) -> Move:
    """Return the (guess, reply) of a typed turn: ``SALET .Y..G``, ``SALET:.Y..G`` or ``SALET,01002``."""
    parts = re.split(r"[\s:,]+", text.strip(), maxsplit=1)  # a Mastermind reply may be '2,1'
    if len(parts) != 2 or not parts[1]:
        raise GpusolveError(f"expected a guess and its reply, e.g. SALET .Y..G, not {text.strip()!r}")
    word = pm.game.parse_word(parts[0], pm.guess_index)
    return word, pm.game.parse_reply(parts[1])


@dataclass
class Advice:
    """What the assistant says about a position."""

    remaining: list[Word]
    method: str
    best: Word | None
    alternatives: list[dict] = field(default_factory=list)
    mean: float | None = None
    """The expected number of guesses from here under optimal play, where proven."""

    def as_dict(self) -> dict:
        """Return the advice as a JSON-ready dict."""
        shown = self.remaining if len(self.remaining) <= 50 else None
        return {"remaining": len(self.remaining), "answers": shown, "method": self.method,
                "best": self.best, "proven": self.mean is not None,
                "mean": None if self.mean is None else round(self.mean, 4), "alternatives": self.alternatives}


class Assistant:
    """A game in progress and advice on it."""

    def __init__(self, pm: PatternMatrix, mode: str = "normal", metric: str = "entropy",
                 prior: str = "uniform", top: int = 5, exact: bool = True,
                 words: tuple[Word, ...] | None = None, think: float = THINK_SECONDS,
                 book: bool = True) -> None:
        """``words``: the answer list as read, before Jotto keeps one word per set of letters
        (to name every answer a Jotto reply of all letters in common leaves); ``think``: the
        seconds the exact search may take per position; ``book``: answer the positions after the
        opening book's openers from it (``gpusolve.play.book``; False: search them)."""
        self.pm = pm
        self.words = words
        self.mode = check_mode(mode)
        self.metric = canonical_metric(metric) if prior == "uniform" else metric
        self.prior = check_prior(prior)
        self.weights = answer_weights(pm, prior) if prior != "uniform" else None
        self.top = top
        self.exact = exact
        self.thinker = Thinker(pm, self.mode, think, book=book)
        self.moves: list[Move] = []

    def remaining(self) -> np.ndarray:
        """Return the answer columns consistent with the moves so far."""
        return remaining_answers(self.pm, self.moves)

    def play(self, word: Word, reply: int) -> None:
        """Record a move, or raise a one-line error (and keep the state) if it cannot be."""
        pm = self.pm
        word = pm.game.parse_word(word, pm.guess_index)
        problem = hard_mode_problem(pm.game, word, self.moves) if self.mode == "hard" else None
        if problem:
            raise GpusolveError(problem)
        if self.mode == "consistent" and word not in {pm.answers[a] for a in self.remaining()}:
            raise GpusolveError(f"{word} is not a possible answer (consistent mode)")
        remaining_answers(pm, [*self.moves, (word, reply)])  # raises if impossible
        self.moves.append((word, reply))

    def undo(self) -> Move:
        """Forget the last move and return it."""
        if not self.moves:
            raise GpusolveError("nothing to undo")
        return self.moves.pop()

    def candidates(self) -> np.ndarray:
        """Return the guess rows the mode allows now."""
        return allowed_rows(self.pm, self.moves, self.mode)

    def advice(self) -> Advice:
        """Return the remaining answers, the best next guess (and how it was found), alternatives."""
        pm = self.pm
        alive = self.remaining()
        words = [pm.answers[a] for a in alive]
        solved = bool(self.moves) and self.moves[-1][1] == pm.game.solved
        if solved:
            word = self.moves[-1][0]
            same = anagram_class(self.words, word) if pm.game.kind == JOTTO and self.words else [word]
            if len(same) > 1:  # all letters found: any of these words may be the answer
                return Advice(same, "letters found", None)
            return Advice([word], "solved", None)
        if len(alive) <= 2:
            chances = [{"word": w, "win_chance": round(1 / len(alive), 4)} for w in words]
            return Advice(words, "exact", words[0], chances, (len(alive) + 1) / 2)
        rows = self.candidates()
        opener = proven_opener(pm, self.mode) if not self.moves and self.weights is None else None
        if opener is not None:
            return Advice(words, opener.says(), opener.word, self._alternatives(alive, rows),
                          opener.total / opener.answers)
        why = ""
        if self.exact and self.weights is None:
            verdict = self.thinker.judge(self.moves)
            if verdict.exact:
                return Advice(words, f"exact: {verdict.mean:.3f} more guesses on average", verdict.guess,
                              self._alternatives(alive, rows), verdict.mean)
            why = f": {verdict.why}"
        alternatives = self._alternatives(alive, rows)
        how = f"greedy by {self.metric}" + (f", {self.prior} prior" if self.weights is not None else "")
        return Advice(words, how + why, alternatives[0]["word"], alternatives)

    def _alternatives(self, alive: np.ndarray, rows: np.ndarray) -> list[dict]:
        pm = self.pm
        if self.weights is not None:
            ranked = rank_weighted(pm, self.metric, self.weights, alive, rows)
            return [s.as_dict() for s in ranked[:self.top]]
        ranked = rank_guesses(pm, self.metric, alive, rows)[:max(200, self.top)]
        # among guesses of equal value, one that may be the answer comes first
        possible = {pm.answers[a] for a in alive}
        first: dict = {}
        values = [getattr(s, self.metric, None) for s in ranked]
        keys = [(first.setdefault(v, i), s.word not in possible)
                for i, (v, s) in enumerate(zip(values, ranked))]
        order = sorted(range(len(ranked)), key=lambda i: keys[i])
        return [ranked[i].as_dict() for i in order[:self.top]]
