"""Evil Wordle and Antiwordle (seed 000), and the numba solver's policies (seed 004).

* ``evil_path``: the game a guess tree plays against the Evil replier, who always gives the
  reply with the most remaining answers (a leaf counts 1, the solved reply 0). Ties go to the
  lowest reply code (``.....`` first, first square most significant).
* Antiwordle: a greedy tree that *maximizes* branch sizes with consistent guesses only
  (``anti-entropy`` in ``gpusolve.search.greedy``).
* Policies ``splits`` (most branches: MaxSplits) and ``prune`` (fewest answers left on average,
  i.e. least sum of squared branch sizes) are the greedy metrics ``branches`` and
  ``expectation`` (``gpusolve.search.greedy`` takes the names ``splits`` and ``prune``; ``POLICIES`` maps
  seed 004's names MaxInfo, MaxSplits and MaxPrune to them). Seed 004's own guesser, which plays
  these policies by other rules (its MaxPrune counts only the all-miss reply), is
  ``gpusolve.search.agents``.
"""

from __future__ import annotations

from ..core.patterns import PatternMatrix
from ..core.trees import Node, Tree, summarize
from ..core.words import Word
from .greedy import greedy_tree
from .plumbing import OnProgress, Progress

POLICIES = {"maxinfo": "entropy", "maxsplits": "splits", "maxprune": "prune"}
"""Seed 004's policy names -> gpusolve's greedy metric for them (``gpusolve.search.greedy`` knows
``splits`` and ``prune`` itself)."""


def policy_metric(name: str) -> str:
    """Return the greedy metric for a policy name (other names pass through)."""
    return POLICIES.get(name.lower(), name)


def evil_path(tree: Tree, solved: int) -> list[tuple[Word, int]]:
    """Return the (guess, reply) moves when the Evil replier always picks the largest branch."""
    moves = []
    while isinstance(tree, Node):
        def size(reply: int, node: Node = tree) -> int:
            branch = node.branches[reply]
            return 0 if reply == solved else 1 if isinstance(branch, str) else branch.size

        reply = min(tree.branches, key=lambda r: (-size(r), r))
        moves.append((tree.guess, reply))
        tree = tree.branches[reply]
        if reply == solved:
            return moves
    moves.append((tree, solved))
    return moves


def antiwordle_tree(pm: PatternMatrix, answers=None) -> Tree:
    """Return the Antiwordle tree: consistent guesses that keep branches big (least entropy)."""
    return greedy_tree(pm, "anti-entropy", "consistent", answers=answers)


def policy_table(pm: PatternMatrix, metrics=("entropy", "splits", "prune"), modes=("normal", "hard"),
                 free_max: int | None = None, progress: OnProgress | None = None) -> list[dict]:
    """Return per (metric, mode) the greedy tree's first guess, mean, worst and failures (> 6);
    ``progress`` hears of each tree."""
    rows = []
    for metric in metrics:
        for mode in modes:
            if progress:
                progress(Progress(f"{metric} {mode}", len(rows), len(metrics) * len(modes)))
            s = summarize(greedy_tree(pm, policy_metric(metric), mode, free_max=free_max))
            rows.append({"metric": metric, "mode": mode, "first_guess": s.first_guess,
                         "mean": round(s.mean, 4), "worst": s.worst, "over_6": s.over(6)})
    return rows
