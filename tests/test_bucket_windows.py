"""A guess's buckets searched in rounds of narrow windows against a cutoff (``optimal.WINDOW``, hard
mode): at every node of small random hard-mode games, every guess's cost from the driver's
``evaluate`` is brute force's where below the cutoff, else a bound between the cutoff and it; and the
exact search's totals stay brute force's."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gpusolve.kernels.config import INF
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_bounds import check_search, node_values
from test_dead_cores import every_node, trap_instance
from test_hard_bounds import KINDS, instance

from gpusolve.search import optimal
from gpusolve.search.bounds import answerers, first_pass, guess_caps, guess_table


@pytest.fixture
def windows(monkeypatch):
    """Windows of one (every bucket raised a step at a time); return the limits each bucket was
    searched against, per bucket, in the order asked."""
    monkeypatch.setattr(optimal, "WINDOW", 1)
    limits: dict[bytes, list[int]] = {}
    run = optimal._Search._run

    def counted(self, answers, depth, beta, *args):
        limits.setdefault(answers.tobytes(), []).append(beta)
        return run(self, answers, depth, beta, *args)

    monkeypatch.setattr(optimal._Search, "_run", counted)
    return limits


def check_every_guess_at_every_node(pm, depth: int, seed: int, limits: dict) -> int:
    """Evaluate a few guesses of every node of the hard-mode game of ``pm`` against random cutoffs
    around their true costs (with and without first-pass bucket bounds), asserting ``evaluate``'s
    contract against brute force; return how many buckets were searched more than once."""
    tree = node_values(pm, "hard", depth)
    ctx = optimal._Context(pm, "hard", depth)
    search = optimal._Search(ctx, 2, 1, None)
    rng = random.Random(seed)
    again = 0
    try:
        for answers, left, rows, path in every_node(ctx, pm, depth):
            allowed = frozenset(pm.guesses[r] for r in rows)
            named = frozenset(pm.answers[a] for a in answers)
            starts = np.array(rng.sample(list(rows), min(4, len(rows))), np.int32)
            caps = guess_caps(guess_table(pm, answers, rows))
            kept = answerers(pm, answers, rows, caps)
            fp = first_pass(pm, answers, starts, rows, caps, left - 1, kept=kept, hard=True)
            for j, g in enumerate(starts):
                word = pm.guesses[g]
                value, after, split = tree["value"], tree["after"], tree["buckets"](word, named)
                cost = len(answers) + sum(value(frozenset(b), left - 1, after(allowed, word, p))
                                          for p, b in split.items() if p != pm.game.solved)
                for bound in {int(min(cost, 4 * len(answers))) + rng.randint(-4, 2), int(fp.totals[j]) + 1}:
                    limits.clear()
                    got, exact = search.evaluate(answers, left, rows, path, int(g), bound,
                                                 fp.buckets[j] if rng.random() < 0.5 else None)
                    if cost < bound:
                        assert (got, exact) == (cost, True), (answers, left, path, word, bound)
                    else:
                        assert not exact and bound <= got and (got <= cost or cost >= INF), (answers, word)
                    again += sum(len(b) > 1 for b in limits.values())
    finally:
        search.close()
    return again


@pytest.mark.parametrize(("seed", "n_guesses", "depth"), [(1, 8, 4), (2, 12, 4), (5, 10, 4), (8, 8, 4)])
def test_every_guess_at_every_node_of_trap_games(windows, seed, n_guesses, depth):
    assert check_every_guess_at_every_node(trap_instance(seed, n_guesses), depth, seed, windows) > 0


@pytest.mark.parametrize("kind", KINDS)
def test_every_guess_at_every_node_of_random_games(windows, kind):
    for seed in range(3):
        check_every_guess_at_every_node(instance(kind, seed, 11, 24), 3, seed, windows)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10**6), n_answers=st.integers(6, 14),
       extra=st.integers(6, 20), max_guesses=st.integers(2, 5))
def test_hard_search_with_windows_matches_brute_force(windows, kind, seed, n_answers, extra, max_guesses):
    check_search(instance(kind, seed, n_answers, n_answers + extra), "hard", max_guesses)
