"""The level bound: equal to the least total of a free split into at most k buckets a guess,
never above the true value at any node of small random games, and the exact search's results
unchanged by it (also where it is the binding bound: games of few replies)."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest
from gpusolve.kernels.bounds_cpu import level_bound as compiled_level_bound
from gpusolve.kernels.levels import INF as LEVEL_INF
from gpusolve.kernels.levels import level_bound
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_bounds import node_values
from test_optimal import INF, brute_force, random_instance, small_matrix, solved_total

from gpusolve.core.games import make_game


def free_splits(k: int):
    """Return (value, split) by dynamic programming over splits, when a guess may find one answer
    and split the rest into any ``k`` buckets or fewer: ``value(m, left)`` the least total over
    ``m`` answers within ``left`` guesses, ``split(m, r, left)`` over ``m`` answers spread among at
    most ``r`` buckets."""

    @cache
    def value(m: int, left: int) -> float:
        if m == 0:
            return 0
        if left == 0:
            return INF
        return m + min(split(m - found, k, left - 1) for found in (0, 1) if found <= m)

    @cache
    def split(m: int, parts: int, left: int) -> float:
        if m == 0:
            return 0
        if parts == 0:
            return INF
        # the first bucket takes `first` answers (possibly all of them)
        return min(value(first, left) + split(m - first, parts - 1, left) for first in range(1, m + 1))

    return value, split


def as_level(v: float) -> int:
    """Return a true value as the level bound writes it (INF for none)."""
    return LEVEL_INF if v == INF else int(v)


@pytest.mark.parametrize("k", [0, 1, 2, 3, 5])
def test_level_bound_is_the_least_total_of_free_splits(k):
    value, split = free_splits(k)
    for left in range(0, 6):
        for m in range(0, 30):
            expected = as_level(value(m, left))
            assert level_bound(m, left, k, 1) == expected, (m, left, k)
            assert compiled_level_bound(m, left, k, 1) == expected
            for roots in (2, 3, 7):
                assert level_bound(m, left, k, roots) == as_level(split(m, roots, left)), (m, left, k, roots)


def test_level_bound_on_the_code_games():
    # 14 replies in Mastermind 4 x 6 and Bulls and Cows 4 of 10: 13 besides the solved one
    assert level_bound(1440, 6, 13, 1) == 1 + 2 * 13 + 3 * 169 + 4 * (1440 - 183)
    assert level_bound(7, 3, 13, 1) == 2 * 7 - 1
    assert level_bound(5040, 4, 13, 1) == LEVEL_INF  # 1 + 13 + 169 + 2,197 codes at most in 4 guesses


def most_unsolved(pm, answers, guesses) -> int:
    """Return the most replies besides the solved one any of ``guesses`` gives on ``answers``."""
    solved = pm.game.solved
    return max(len({pm.game.reply(g, a) for a in answers} - {solved}) for g in guesses)


def few_replies_instance(seed: int, n_answers: int, n_guesses: int):
    """Return a random game of few replies (black pegs only: 4 replies, 3 unsolved)."""
    rng = random.Random(seed)
    game = make_game("mastermind", 3, 4, black_only=True)
    guesses = rng.sample(game.word_lists(None, None)[0], n_guesses)
    return small_matrix(game, sorted(guesses), sorted(rng.sample(guesses, n_answers)))


def instance(kind: str, seed: int, n_answers: int, n_guesses: int):
    """Return a small random game of ``kind`` (one of the brute-force tests' or 'black-pegs')."""
    if kind == "black-pegs":
        return few_replies_instance(seed, n_answers, n_guesses)
    return random_instance(kind, seed, n_answers, n_guesses)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(["wordle", "jotto", "mastermind", "black-pegs"]),
    mode=st.sampled_from(["normal", "hard", "consistent"]),
    seed=st.integers(0, 10**6),
    n_answers=st.integers(4, 12),
    extra=st.integers(0, 12),
    max_guesses=st.integers(2, 5),
)
def test_level_bound_never_exceeds_the_true_value_at_any_node(kind, mode, seed, n_answers, extra,
                                                               max_guesses):
    pm = instance(kind, seed, n_answers, n_answers + extra)
    tree = node_values(pm, mode, max_guesses)
    whole = most_unsolved(pm, pm.answers, pm.guesses)
    binding = 0
    for (answers, depth, allowed), v in tree["values"].items():
        guesses = answers if mode == "consistent" else allowed
        here = most_unsolved(pm, answers, guesses)
        bound = level_bound(len(answers), depth, here, 1)
        assert level_bound(len(answers), depth, whole, 1) <= bound
        assert bound <= v or (bound == LEVEL_INF and v == INF), (sorted(answers), depth, bound, v)
        binding += bound > 2 * len(answers) - 1
        if depth < 2:
            continue
        for g in guesses:  # a guess's bound: n plus its buckets' level bound as a forest
            cost = len(answers)
            unsolved = {p: b for p, b in tree["buckets"](g, answers).items() if p != pm.game.solved}
            for p, bucket in unsolved.items():
                cost += tree["value"](frozenset(bucket), depth - 1, tree["after"](allowed, g, p))
            rest = len(answers) - (g in answers)
            guess_bound = len(answers) + level_bound(rest, depth - 1, here, len(unsolved))
            assert guess_bound <= cost or (guess_bound >= LEVEL_INF and cost == INF)
    if kind == "black-pegs" and n_answers >= 8:
        assert binding  # the bound is above 2m - 1 somewhere: the test can fail


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mode=st.sampled_from(["normal", "hard", "consistent"]),
    seed=st.integers(0, 10**6),
    n_answers=st.integers(6, 16),
    extra=st.integers(0, 16),
    max_guesses=st.integers(2, 6),
    vector_max=st.sampled_from([None, 0]),
)
def test_search_on_few_replies_matches_brute_force(mode, seed, n_answers, extra, max_guesses, vector_max):
    pm = few_replies_instance(seed, n_answers, n_answers + extra)
    total, _ = solved_total(pm, mode, max_guesses, vector_max)
    assert total == brute_force(pm, mode, max_guesses)


def test_the_branches_of_a_matrix_are_its_unsolved_replies():
    from gpusolve.core.patterns import pattern_matrix
    from gpusolve.search.optimal import _Context

    pm = few_replies_instance(3, 10, 20)
    assert pm.branches == _Context(pm, "normal", 4).branches == 3
    for game, expected in ((make_game("bulls", 3, 5), 7), (make_game("mastermind", 3, 4), 8)):
        pm = pattern_matrix(game, None, None)
        present = set(np.unique(pm.codes).tolist()) - {game.solved}
        assert pm.branches == len(present) == expected
