"""Analysis of a played game: per move the skill of the guess and the luck of the reply, and
the answers left ranked by how common they are (seed 004's "bullshit detector").

Skill compares the expected number of answers left by the guess played with the best guess's
(100% = as good as the best). Luck is the share of the answers then possible that would have
left more answers than the reply did (ties count half): 100% = the best possible reply; none
where the reply was the only one possible. With one answer left the best guess is that answer.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.errors import GpusolveError
from ..core.history import Move, remaining_answers
from ..core.patterns import PatternMatrix
from ..core.words import Word
from ..kernels.stats import SUM_SQUARES
from ..search.metrics import partition_table, rank_guesses


@dataclass
class MoveReport:
    """One move of a game, judged."""

    number: int
    guess: Word
    reply: int
    before: int
    after: int
    expected: float
    best: Word
    best_expected: float
    skill: float
    luck: float | None
    """None where the reply was the only one possible: no luck in it."""

    def as_dict(self, game) -> dict:
        """Return the move as a JSON-ready dict."""
        return {"move": self.number, "guess": self.guess, "reply": game.format_reply(self.reply),
                "answers_before": self.before, "answers_after": self.after,
                "expected_left": round(self.expected, 4), "best": self.best,
                "best_expected_left": round(self.best_expected, 4), "skill": round(self.skill, 4),
                "luck": None if self.luck is None else round(self.luck, 4)}


def judge_move(pm: PatternMatrix, alive: np.ndarray, number: int, move: Move) -> MoveReport:
    """Return the judgement of one move made with the answers ``alive`` still possible."""
    word, reply = move
    row = pm.guess_index[word]
    n = len(alive)
    played = partition_table(pm, alive, np.array([row]))[0]
    expected = played[SUM_SQUARES] / n
    best = _best_guess(pm, alive)
    codes = pm.codes[row, alive]
    sizes = np.bincount(codes, minlength=pm.game.n_patterns)[codes]
    after = int(np.sum(codes == reply))
    if reply == pm.game.solved:
        after = 0
    sizes = np.where(codes == pm.game.solved, 0, sizes)
    luck = None  # one reply possible: no luck in it
    if len(np.unique(codes)) > 1:
        luck = (np.sum(sizes > after) + 0.5 * np.sum(sizes == after)) / n
    return MoveReport(number, word, reply, n, after, float(expected), best.word, float(best.expectation),
                      float(best.expectation / expected) if expected else 1.0,
                      None if luck is None else float(luck))


def _best_guess(pm: PatternMatrix, alive: np.ndarray):
    """Return the metrics of the guess leaving the fewest answers expected; among equals one that
    may be the answer (with one answer left: that answer)."""
    ranked = rank_guesses(pm, "expectation", alive)
    possible = {pm.answers[a] for a in alive}
    equal = (s for s in ranked if s.expectation == ranked[0].expectation)
    return next((s for s in equal if s.word in possible), ranked[0])


def analyze_game(pm: PatternMatrix, moves: list[Move]) -> tuple[list[MoveReport], np.ndarray]:
    """Return the judged moves and the answer columns left after them."""
    if not moves:
        raise GpusolveError("give the moves of a game, e.g. SALET:.....,CRONY:.Y..G")
    reports = []
    for i, move in enumerate(moves):
        alive = remaining_answers(pm, moves[:i])
        reports.append(judge_move(pm, alive, i + 1, move))
    return reports, remaining_answers(pm, moves)


def by_commonness(words: list[Word]) -> list[tuple[Word, float]]:
    """Return the words with their Zipf frequencies, most common first (needs ``wordfreq``)."""
    from ..search.prior import zipf

    z = zipf(words)
    order = np.lexsort((np.arange(len(words)), -z))
    return [(words[i], float(z[i])) for i in order]
