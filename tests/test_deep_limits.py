"""Searches allowed many guesses: every per-depth array of the kernels has room for the deepest level a
search may reach. Before the kernels sized them by the search, ``optimal-tree --max-guesses 30`` wrote
past a 32-slot counter array (SIGSEGV). ``.ci/run`` runs the ``boundscheck`` tests once more with
``NUMBA_BOUNDSCHECK=1`` and an empty numba cache, where such a write fails the test."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest
from tinygames import sub_matrix

from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import make_game
from gpusolve.core.patterns import PatternMatrix, pattern_matrix
from gpusolve.core.trees import summarize
from gpusolve.search.greedy import greedy_scores, greedy_tree
from gpusolve.search.optimal import Options, Question, solve
from gpusolve.search.worstcase import worst_case

pytestmark = pytest.mark.boundscheck

LADDER = 20
"""Answers of the ladder game: more than 16 levels deep."""


@cache
def answers_pm() -> PatternMatrix:
    return pattern_matrix(make_game(), "answers", "answers", "cpu")


@cache
def ladder() -> PatternMatrix:
    """Return a game of ``LADDER`` answers (Wordle words) where every guess finds its own word and
    tells nothing of the others (one reply for them all): the k-th answer guessed takes k guesses,
    so the least total is 1 + 2 + ... + n, within n guesses and no fewer."""
    pm = answers_pm()
    words = pm.answers[:LADDER]
    codes = np.zeros((LADDER, LADDER), pm.codes.dtype)
    np.fill_diagonal(codes, pm.game.solved)
    return PatternMatrix(pm.game, words, words, codes, pm.backend)


@cache
def small_game() -> PatternMatrix:
    """Return 40 answers ending in -ER, guessed with themselves and 10 more."""
    pm = answers_pm()
    words = random.Random(5).sample([w for w in pm.answers if w.endswith("ER")], 50)
    return sub_matrix(pm, sorted(words), sorted(words[:40]))


@pytest.mark.parametrize("mode", ["normal", "hard", "consistent"])
def test_exact_search_at_30_guesses_gives_the_value_at_its_natural_depth(mode):
    pm = small_game()
    deep = solve(pm, Question(mode=mode, max_guesses=30), Options(workers=1))
    natural = solve(pm, Question(mode=mode, max_guesses=deep.worst), Options(workers=1))
    assert deep.proven and natural.proven and deep.total == natural.total
    assert deep.counters["by_depth"]  # the kernel searched below the root


@pytest.mark.parametrize("max_guesses", [LADDER, 30])
def test_exact_search_of_a_ladder_takes_every_level(max_guesses):
    result = solve(ladder(), Question(max_guesses=max_guesses), Options(workers=1))
    assert result.total == LADDER * (LADDER + 1) // 2 and result.worst == LADDER
    assert max(result.counters["by_depth"]) >= 17
    with pytest.raises(GpusolveError, match="no strategy finds every answer within 19 guesses"):
        solve(ladder(), Question(max_guesses=LADDER - 1), Options(workers=1))


def test_worst_case_searched_from_17_guesses_and_more():
    least = worst_case(small_game())
    deep = worst_case(small_game(), min_depth=17, max_depth=30)
    assert least.proven_least and least.depth <= deep.depth <= 17
    assert summarize(deep.tree).worst == deep.depth
    ladder_case = worst_case(ladder(), min_depth=LADDER, max_depth=30)  # (refuting 19 takes every subset)
    assert ladder_case.depth == LADDER and summarize(ladder_case.tree).worst == LADDER


def test_greedy_trees_of_a_ladder_are_as_deep_as_it():
    tree = greedy_tree(ladder(), "max", "normal")
    assert summarize(tree).worst == LADDER
    hist = greedy_scores(ladder(), list(range(LADDER)), "max", "normal")
    assert (hist[:, 1:LADDER + 1] == 1).all()  # from any start, one answer at each guess count
