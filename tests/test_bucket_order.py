"""The order in which a start word's buckets are searched: in hard mode with no cutoff, the smallest
first (the worker threads' before the driver's), so that a start word with no strategy within the
limit is stopped by its first bucket with none before the large ones' exact values; never a
different value."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hard_bounds import KINDS, instance
from test_optimal import INF, brute_force

from gpusolve.core.errors import Infeasible
from gpusolve.search import optimal
from gpusolve.search.optimal import Options, Question, solve

LARGE = 5
"""The driver's threshold in these tests: buckets of 5 answers or more are its large sets."""


@pytest.fixture
def searched(monkeypatch):
    """Sets of ``LARGE`` answers or more searched by the driver; return the (size, guesses left) of
    every set searched below a start word, in the order their searches began (the driver's and
    the worker threads')."""
    monkeypatch.setattr(optimal, "FIRST_PASS_MIN_ANSWERS", LARGE)
    monkeypatch.setattr(optimal, "DRIVER_MIN_ANSWERS", LARGE)
    began: list[tuple[int, int]] = []
    for name in ("value", "_run"):
        def counted(self, answers, depth, *args, _method=getattr(optimal._Search, name), **kwargs):
            began.append((len(answers), depth))
            return _method(self, answers, depth, *args, **kwargs)

        monkeypatch.setattr(optimal._Search, name, counted)
    return began


def start_total(pm, start: str, mode: str, max_guesses: int) -> float:
    """Return the exact total of ``start`` (INF: no strategy within ``max_guesses``)."""
    try:
        result = solve(pm, Question(start=start, mode=mode, max_guesses=max_guesses, tree=False),
                       Options(workers=1, memo_mb=1))
    except Infeasible:
        return INF
    assert result.proven
    return result.total


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10**6), n_answers=st.integers(8, 14),
       extra=st.integers(4, 14), max_guesses=st.integers(2, 4), mode=st.sampled_from(["hard", "normal"]))
def test_every_start_word_matches_brute_force(searched, kind, seed, n_answers, extra, max_guesses, mode):
    pm = instance(kind, seed, n_answers, n_answers + extra)
    for start in pm.guesses[:6]:
        assert start_total(pm, start, mode, max_guesses) == brute_force(pm, mode, max_guesses, start)


def test_with_no_cutoff_the_smallest_buckets_go_first(searched):
    """A start word's buckets in hard mode (no cutoff: its exact total is wanted) are searched
    smallest first, the driver's large ones last; start words with no strategy within the limit
    are still found."""
    orders = infeasible = 0
    for kind, seed in [("jotto", 2), ("jotto", 4), ("repeats", 0)]:
        pm = instance(kind, seed, 20, 24)
        for start in pm.guesses:
            searched.clear()
            total = start_total(pm, start, "hard", 4)
            assert total == brute_force(pm, "hard", 4, start)
            infeasible += total == INF
            sizes = [m for m, depth in searched if depth == 3]
            assert sizes == sorted(sizes), (kind, seed, start)
            orders += len(set(sizes)) > 1 and max(sizes) >= LARGE
    assert orders > 0 and infeasible > 0
