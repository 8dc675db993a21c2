"""Write tests/data/greedy_pins.json: digests of whole greedy trees on the full Wordle lists.

    python scripts/pin_greedy_trees.py

The pins were written with the greedy kernel of commit 8e280c1 (before the unrolled scan), so
``tests/test_greedy_pins.py`` checks that every later kernel chooses the same guess at every
node (ties included) for these start words, metrics and modes. Re-run it only on purpose.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix
from gpusolve.core.trees import Tree
from gpusolve.search.greedy import greedy_scores, greedy_tree

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "greedy_pins.json"

# (lists, metric, mode, free_max, start words): full lists, every metric and mode
TREES = [
    ("wordle", "allowed", "answers", "entropy", "normal", None,
     ["SALET", "CRANE", "FUZZY", "QAJAQ", "XYLYL", "ABACK", "MUMMY", "ZYMIC", "STEAM", "IMPLY"]),
    ("wordle", "allowed", "answers", "entropy", "hard", None, ["SALET", "FUZZY", "JUMBO", "PIOUS"]),
    ("wordle", "allowed", "answers", "entropy", "consistent", None, ["CRANE", "FUZZY", "MAMMA", "RAISE"]),
    ("wordle", "allowed", "answers", "max", "normal", None, ["ARISE", "FUZZY", "VIVID"]),
    ("wordle", "allowed", "answers", "expectation", "normal", None, ["RAISE", "XYLYL"]),
    ("wordle", "allowed", "answers", "expectation", "hard", 125, ["ROATE"]),
    ("wordle", "allowed", "answers", "branches", "normal", 200, ["TRACE"]),
    ("wordle", "allowed", "answers", "guaranteed_wins", "normal", 200, ["SLATE"]),
    ("wordle", "allowed", "answers", "expected_wins", "normal", 200, ["CRATE"]),
    ("wordle", "allowed", "answers", "anti-entropy", "normal", 200, ["ROATE"]),
    ("wordle", "allowed", "answers", "anti-max", "consistent", None, ["FUZZY"]),
    ("wordle", "answers", "answers", "entropy", "normal", 125, ["TRACE", "BOBBY"]),
    ("jotto", "answers", "answers", "entropy", "normal", None, ["STARE", "FJORD"]),
    ("jotto", "answers", "answers", "max", "hard", None, ["DRAPE"]),
]
SCORES = 48  # start words spread over the allowed list: greedy_scores histograms, entropy, normal


def tree_digest(tree: Tree) -> str:
    """Return a canonical text of a whole tree: every node's guess, size and branches in reply order."""
    if isinstance(tree, str):
        return tree
    inner = ",".join(f"{r}:{tree_digest(t)}" for r, t in sorted(tree.branches.items()))
    return f"{tree.guess}/{tree.size}[{inner}]"


def sha(tree: Tree) -> str:
    """Return the sha256 of a tree's canonical text."""
    return hashlib.sha256(tree_digest(tree).encode()).hexdigest()


def spread(n_guesses: int, n: int) -> list[int]:
    """Return ``n`` guess rows spread evenly over the list."""
    return [i * n_guesses // n for i in range(n)]


def main() -> None:
    pins: dict = {"trees": [], "scores": {}}
    for game, guesses, answers, metric, mode, free_max, starts in TREES:
        pm = pattern_matrix(make_game(game), guesses, answers, "cpu")
        for word in starts:
            tree = greedy_tree(pm, metric, mode, start=word, free_max=free_max)
            pins["trees"].append({"game": game, "guesses": guesses, "answers": answers, "metric": metric,
                                  "mode": mode, "free_max": free_max, "start": word, "sha256": sha(tree)})
            print(game, metric, mode, word, pins["trees"][-1]["sha256"][:12], flush=True)
    pm = pattern_matrix(make_game("wordle"), "allowed", "answers", "cpu")
    rows = spread(pm.shape[0], SCORES)
    hist = greedy_scores(pm, np.array(rows), "entropy", "normal")
    pins["scores"] = {pm.guesses[r]: [int(x) for x in h] for r, h in zip(rows, hist)}
    OUT.write_text(json.dumps(pins, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
