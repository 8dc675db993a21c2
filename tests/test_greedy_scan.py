"""The greedy scan kernel (``best_guess``: unrolled, stamped histogram, cut every 4 answers) against
a slow, obvious numpy reference, on real Wordle rows: every metric, random pools and sub-ranges,
node sizes around the unroll width, one histogram reused across many nodes, and a bar and lower
bounds on the keys (which may rule guesses out, never change the answer)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gpusolve.kernels import greedy_cpu as kernel
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_greedy import ALLOWED, ANSWERS, METRICS, oracle_key, small_matrix

from gpusolve.core.games import make_game
from gpusolve.core.trees import Node
from gpusolve.search.greedy import greedy_tree, kernel_metric

BIG = int(kernel.BIG)


def reference_key(codes: np.ndarray, metric: str, g: int, cols: np.ndarray, guess_is_answer: bool) -> int:
    """The key of guess row ``g`` over answer columns ``cols``, written out plainly (BIG: no progress)."""
    from collections import Counter

    counts = Counter(codes[g, cols].tolist())
    if len(counts) == 1 and len(cols) > 1:
        return BIG
    return oracle_key(metric, counts, len(cols), guess_is_answer)


def reference_best(codes, answer_rows, metric, pool, p0, p1, cols) -> tuple[int, int]:
    """(key, pool position) of the first guess with the least key among ``pool[p0:p1]``."""
    best, where = BIG, -1
    for p in range(p0, p1):
        g = int(pool[p])
        key = reference_key(codes, metric, g, cols, g in set(answer_rows[cols].tolist()))
        if key < best:
            best, where = key, p
    return best, where


@pytest.fixture(scope="module")
def flat_pm(full_pm):
    """The full matrix, its answer-major copy flattened, and every metric's kernel form."""
    mat = full_pm.answer_major
    return full_pm, mat.reshape(-1), {m: kernel_metric(m, full_pm.shape[1]) for m in METRICS}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), metric=st.sampled_from(METRICS),
       sizes=st.lists(st.integers(1, 70), min_size=1, max_size=6))
def test_best_guess_equals_the_reference(flat_pm, seed, metric, sizes):
    pm, flat, metrics = flat_pm
    codes = np.asarray(pm.codes)
    n_guesses, n_answers = codes.shape
    rnd = random.Random(seed)
    km = metrics[metric]
    hist = np.zeros(pm.game.n_patterns, np.int64)  # one histogram for every node below
    for m in sizes:
        # answers near each other in the list share letters: close keys, many ties
        at = rnd.randrange(n_answers - 150)
        cols = np.array(sorted(rnd.sample(range(at, at + 150), m)), dtype=np.int64)
        if rnd.random() < 0.5:  # the scan order of a node's answers must not matter
            cols = np.array(rnd.sample(cols.tolist(), m), dtype=np.int64)
        pool = np.array(rnd.sample(range(n_guesses), rnd.randrange(1, 120)), dtype=np.int64)
        if rnd.random() < 0.3:  # a node's own answers, or a run of consecutive guess rows
            pool = pm.answer_rows[cols].astype(np.int64)
        elif rnd.random() < 0.3:
            start = rnd.randrange(n_guesses - 300)
            pool = np.arange(start, start + 300, dtype=np.int64)
        p0 = rnd.randrange(len(pool))
        p1 = rnd.randrange(p0 + 1, len(pool) + 1)
        off = (cols * n_guesses).astype(np.uint64)
        key, where = kernel.best_guess(flat, pool, p0, p1, off, m, hist, pm.game.solved, km, BIG,
                                       kernel.NO_BOUNDS)
        expected = reference_best(codes, pm.answer_rows, metric, pool, p0, p1, cols)
        assert (int(key), int(where)) == expected
        # a bar, and lower bounds on the keys (some exact): the same guess when it is below the bar
        keys = [reference_key(codes, metric, int(g), cols, int(g) in set(pm.answer_rows[cols].tolist()))
                for g in pool]
        bar = expected[0] + rnd.choice([0, 1, 2, 10**6]) if rnd.random() < 0.7 else BIG
        bounds = np.array([k - rnd.choice([0, 0, 1, 3, 10**9]) for k in keys], dtype=np.int64)
        key, where = kernel.best_guess(flat, pool, p0, p1, off, m, hist, pm.game.solved, km, bar,
                                       bounds if km.prunable else kernel.NO_BOUNDS)
        assert (int(key), int(where)) == (expected if expected[0] < bar else (bar, -1))


def reference_tree(pm, metric, mode, start=None, free_min=3):
    """The greedy tree by ``reference_best`` over the matrix (hard mode: the pure-Python rule)."""
    from gpusolve.core.modes import hard_mode_allows

    codes = np.asarray(pm.codes)
    rows = np.arange(pm.shape[0])

    def build(cols, moves, first):
        if len(cols) == 1:
            return pm.answers[int(cols[0])]
        if first and start is not None:
            g = pm.guess_index[start]
        else:
            free = mode != "consistent" and len(cols) > free_min
            if not free:
                pool = pm.answer_rows[cols]
            elif mode == "hard":
                pool = np.array([r for r in rows if hard_mode_allows(pm.game, pm.guesses[r], moves)])
            else:
                pool = rows
            _, where = reference_best(codes, pm.answer_rows, metric, pool, 0, len(pool), cols)
            g = int(pool[where])
        replies = codes[g, cols]
        return Node(pm.guesses[g], len(cols), {
            int(r): build(cols[replies == r], [*moves, (pm.guesses[g], int(r))], False)
            for r in np.unique(replies)})

    return build(np.arange(pm.shape[1]), [], True)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), metric=st.sampled_from(METRICS),
       mode=st.sampled_from(["normal", "hard", "consistent"]), n=st.integers(30, 90))
def test_bigger_trees_equal_the_reference(seed, metric, mode, n):
    rnd = random.Random(seed)
    at = rnd.randrange(len(ANSWERS) - 200)
    answers = sorted(rnd.sample(ANSWERS[at:at + 200], n))
    guesses = sorted(set(answers) | set(rnd.sample(ALLOWED, 150)))
    pm = small_matrix(make_game("wordle"), guesses, answers)
    start = rnd.choice(answers) if rnd.random() < 0.5 else None
    expected = reference_tree(pm, metric, mode, start)
    assert greedy_tree(pm, metric, mode, start, threads=1) == expected
