"""Seed 004's guesser: its MaxInfo, MaxSplits and MaxPrune agents, played as its code plays them.

The rule (sjtrny/wordle, ``wordle.py``, the version behind the README's table):

* The first guess is fixed (``TABLE_STARTS``, the start words its README gives).
* With one answer left it guesses that answer; otherwise it scores every guess of its pool over
  the answers left and plays the best. The pool is the whole guess list less the words already
  played (normal mode), or in hard mode only the guess-list words that could still be the
  answer (every reply seen so far is the reply they would give).
* MaxInfo scores the entropy of the replies (computed in floating point, summed in the seed's
  reply order), MaxSplits the number of different replies, MaxPrune the number of answers that
  would give the all-miss reply (it plays the fewest).
* Ties: the seed sorts the scores with ``np.argsort`` and plays the last (MaxInfo, MaxSplits) or
  the first (MaxPrune) of that order; ``kernels/agents_cpu.py`` redoes numpy's introsort for this.
  The pool's order is the seed's guess list: the answers in answer-list order, then the other
  guesses in guess-list order (the seed's files list the answers by play date, CIGAR first: that
  list is not bundled, give it as the answers).
* A game stops after 6 guesses: an answer not guessed by then has *failed*. The README's mean is
  over the answers solved only; its start-word search ranked starts by the mean over all
  answers with a failure counting 6 (``search_start``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numba
import numpy as np

from ..core.errors import GpusolveError
from ..core.games import WORDLE
from ..core.patterns import PatternMatrix
from ..core.words import Word
from ..kernels import agents_cpu as kernel

POLICIES = {"maxinfo": kernel.INFO, "maxsplits": kernel.SPLITS, "maxprune": kernel.PRUNE}
"""The seed's policy names -> kernel ids."""
POLICY_NAMES = {"entropy": "maxinfo", "splits": "maxsplits", "prune": "maxprune"}
"""gpusolve's greedy metric names for the same policies."""
MODES = ("normal", "hard")
TABLE_STARTS = {
    ("maxinfo", "normal"): "REAST", ("maxinfo", "hard"): "REAST",
    ("maxsplits", "normal"): "TRACE", ("maxsplits", "hard"): "SALET",
    ("maxprune", "normal"): "LATEN", ("maxprune", "hard"): "LEANT",
}
"""The start words of the seed's README table (and its code's defaults since its commit cf632e4)."""
MAX_GUESSES = 6
SEARCH_TOP = 100
"""The seed's start-word search tried this many openers (its ``top_n``)."""


def policy_name(name: str) -> str:
    """Return the seed's policy name for a policy or greedy metric name, or raise."""
    key = POLICY_NAMES.get(name.lower(), name.lower())
    if key not in POLICIES:
        choices = ", ".join([*POLICIES, *POLICY_NAMES])
        raise GpusolveError(f"unknown policy {name!r} for seed 004's guesser: choose one of {choices}")
    return key


@dataclass(frozen=True)
class AgentRun:
    """One policy played from one start word against every answer."""

    policy: str
    mode: str
    start: Word
    answers: tuple[Word, ...]
    guesses: np.ndarray
    """Per answer (answer-list order): the guesses it took, 0 if not solved in 6."""

    @property
    def failed(self) -> list[Word]:
        """Return the answers not solved in 6 guesses, in answer-list order."""
        return [w for w, n in zip(self.answers, self.guesses.tolist()) if n == 0]

    @property
    def solved_mean(self) -> Fraction:
        """Return the exact mean guesses over the answers solved (the seed's table figure)."""
        solved = self.guesses[self.guesses > 0]
        return Fraction(int(solved.sum()), max(len(solved), 1))

    @property
    def overall_mean(self) -> Fraction:
        """Return the exact mean over all answers, a failure counting 6 (the seed's start rank)."""
        counted = np.where(self.guesses > 0, self.guesses, MAX_GUESSES)
        return Fraction(int(counted.sum()), len(counted))

    def as_dict(self) -> dict:
        """Return the run as a JSON-ready dict."""
        solved = self.solved_mean
        return {"policy": self.policy, "mode": self.mode, "first_guess": self.start,
                "mean_solved": float(solved), "mean_solved_exact": f"{solved.numerator}/{solved.denominator}",
                "mean_all": float(self.overall_mean), "solved": len(self.answers) - len(self.failed),
                "failed": self.failed}


class Agent:
    """Seed 004's guesser for one policy and mode over a pattern matrix."""

    def __init__(self, pm: PatternMatrix, policy: str, mode: str = "normal"):
        if pm.game.kind != WORDLE:
            raise GpusolveError("seed 004's guesser plays Wordle only")
        if mode not in MODES:
            raise GpusolveError(f"unknown mode {mode!r} for seed 004's guesser: choose normal or hard")
        self.pm = pm
        self.policy = policy_name(policy)
        self.mode = mode
        self.codes = np.asarray(pm.codes)
        self.order = seed_order(pm)
        self.rank = reply_ranks(pm.game.length)
        self.threads = numba.get_num_threads()
        self.encoded = pm.game.encode(pm.guesses)

    def scores(self, pool: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """Return the seed's score of every pool guess over answer columns ``cols``."""
        m = len(cols)
        terms = np.zeros(m + 1)
        for n in range(1, m + 1):
            p = n / m
            terms[n] = p * math.log(p)
        out = np.empty(len(pool))
        kernel.guess_scores(self.codes, pool, cols.astype(np.int64), self.rank, terms,
                            POLICIES[self.policy], out, self.threads)
        return out

    def ranked(self, pool: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """Return the pool best first, as the seed orders it (its argsort, reversed for MaxInfo
        and MaxSplits)."""
        order = pool[kernel.introsort_order(self.scores(pool, cols))]
        return order if self.policy == "maxprune" else order[::-1]

    def choose(self, pool: np.ndarray, cols: np.ndarray) -> int:
        """Return the guess row the seed plays with answers ``cols`` left and guesses ``pool``."""
        if len(cols) == 1:
            return int(self.pm.answer_rows[cols[0]])
        order = kernel.introsort_order(self.scores(pool, cols))
        return int(pool[order[0] if self.policy == "maxprune" else order[-1]])

    def pools(self, pool: np.ndarray, guess: int) -> Callable[[int], np.ndarray]:
        """Return a function: the pool after ``guess`` drew a reply (order kept)."""
        if self.mode == "normal":
            left = pool[pool != guess]
            return lambda reply: left
        game = self.pm.game
        replies = np.asarray(self.pm.backend.pattern_matrix(
            game.kind, self.encoded[guess:guess + 1], self.encoded[pool], game.colours,
            self.codes.dtype))[0]
        return lambda reply: pool[replies == reply]

    def play(self, start: Word | None = None) -> AgentRun:
        """Return the run from ``start`` (default: the seed's table start word) over all answers."""
        start = start or TABLE_STARTS[self.policy, self.mode]
        root = self.pm.guess_index[self.pm.game.parse_word(start, self.pm.guess_index)]
        guesses = np.zeros(self.pm.shape[1], np.int64)
        self._visit(np.arange(self.pm.shape[1]), self.order, 1, root, guesses)
        return AgentRun(self.policy, self.mode, self.pm.guesses[root], self.pm.answers, guesses)

    def _visit(self, cols: np.ndarray, pool: np.ndarray, depth: int, guess: int,
               guesses: np.ndarray) -> None:
        hit = self.pm.answer_rows[cols] == guess
        guesses[cols[hit]] = depth
        if depth == MAX_GUESSES:
            return
        cols = cols[~hit]
        replies = self.codes[guess, cols]
        pool_after = self.pools(pool, guess)
        for reply in np.unique(replies).tolist():
            sub = cols[replies == reply]
            left = pool_after(reply)
            self._visit(sub, left, depth + 1, self.choose(left, sub), guesses)

    def search_start(self, top: int = SEARCH_TOP) -> tuple[AgentRun, list[AgentRun]]:
        """Return the seed's start-word search: the best run among its first ``top`` openers.

        The openers are the policy's own ranking of every guess at the first move; the best run
        has the least mean over all answers (a failure counting 6), the first such on ties.
        """
        openers = self.ranked(self.order, np.arange(self.pm.shape[1]))[:top]
        runs = [self.play(self.pm.guesses[row]) for row in openers]
        return min(runs, key=lambda r: r.overall_mean), runs


def seed_order(pm: PatternMatrix) -> np.ndarray:
    """Return the guess rows in the seed's list order: the answers first (answer-list order),
    then every other guess (guess-list order)."""
    answer_rows = pm.answer_rows.astype(np.int64)
    others = np.setdiff1d(np.arange(pm.shape[0]), answer_rows)
    return np.concatenate([answer_rows, others])


def reply_ranks(length: int) -> np.ndarray:
    """Return each reply code's position in the seed's order (2 bits a square, the first square
    least significant): the base-3 digits read last square first."""
    ranks = np.zeros(3**length, np.int64)
    for code in range(3**length):
        rest, rank = code, 0
        for _ in range(length):
            rest, digit = divmod(rest, 3)
            rank = rank * 3 + digit
        ranks[code] = rank
    return ranks


def policy_runs(pm: PatternMatrix, policies=("maxinfo", "maxsplits", "maxprune"),
                modes=MODES, start: Word | None = None) -> list[AgentRun]:
    """Return the seed's table: per (policy, mode) the run from ``start`` (default its table's)."""
    return [Agent(pm, p, m).play(start) for p in policies for m in modes]
