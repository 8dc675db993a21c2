"""Whole greedy trees on the full lists, pinned: every node's guess (ties included) as chosen by the
kernel before the unrolled scan (``scripts/pin_greedy_trees.py`` wrote ``data/greedy_pins.json``)."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix
from gpusolve.core.trees import Tree
from gpusolve.search.greedy import greedy_scores, greedy_tree

PINS = json.loads((Path(__file__).parent / "data" / "greedy_pins.json").read_text())


def tree_digest(tree: Tree) -> str:
    """Every node's guess, size and branches in reply order (as the pin script writes it)."""
    if isinstance(tree, str):
        return tree
    inner = ",".join(f"{r}:{tree_digest(t)}" for r, t in sorted(tree.branches.items()))
    return f"{tree.guess}/{tree.size}[{inner}]"


@cache
def matrix(game: str, guesses: str, answers: str):
    return pattern_matrix(make_game(game), guesses, answers, "cpu")


@pytest.mark.slow
@pytest.mark.parametrize("pin", PINS["trees"],
                         ids=lambda p: f"{p['game']}-{p['metric']}-{p['mode']}-{p['start']}")
def test_whole_tree_is_the_pinned_one(pin):
    pm = matrix(pin["game"], pin["guesses"], pin["answers"])
    tree = greedy_tree(pm, pin["metric"], pin["mode"], start=pin["start"], free_max=pin["free_max"])
    assert hashlib.sha256(tree_digest(tree).encode()).hexdigest() == pin["sha256"]


@pytest.mark.slow
def test_many_start_words_score_as_pinned():
    pm = matrix("wordle", "allowed", "answers")
    words = list(PINS["scores"])
    hist = greedy_scores(pm, words, "entropy", "normal")
    for word, row in zip(words, hist):
        expected = PINS["scores"][word]
        assert list(row[:len(expected)]) == expected and not np.any(row[len(expected):]), word
