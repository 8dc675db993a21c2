"""Partition metrics: the seeds' published first-guess figures, and the kernel against an oracle."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusolve.core.errors import GpusolveError
from gpusolve.core.history import parse_history, remaining_answers
from gpusolve.search.metrics import rank_guesses


def oracle_metrics(pm, guess, answers):
    """Return the seed-style metrics of one guess, computed naively from words."""
    sizes = Counter(pm.game.reply(guess, a) for a in answers)
    n = len(answers)
    solved = sizes.get(pm.game.solved) if guess in answers else None
    others = [k for r, k in sizes.items() if not (solved and r == pm.game.solved)]
    return {
        "max": max(sizes.values()),
        "expectation": sum(k * k for k in sizes.values()) / n,
        "entropy": -sum(k / n * math.log2(k / n) for k in sizes.values()),
        "branches": len(sizes),
        "guaranteed_wins": sum(k == 1 for k in others),
        "expected_wins": sum(1 / k for k in others),
    }


def by_word(ranked):
    return {s.word: s for s in ranked}


def test_published_first_guesses(small_pm):
    entropy = rank_guesses(small_pm, "entropy")
    assert [(s.word, round(s.entropy, 3)) for s in entropy[:3]] == [
        ("RAISE", 5.878), ("SLATE", 5.856), ("CRATE", 5.835)]
    biggest = rank_guesses(small_pm, "max")
    assert [(s.word, s.max) for s in biggest[:2]] == [("ARISE", 167), ("RAISE", 167)]
    expectation = rank_guesses(small_pm, "expectation")
    assert (expectation[0].word, round(expectation[0].expectation, 2)) == ("RAISE", 60.74)
    for ranked in (entropy, biggest, expectation):
        assert ranked[-1].word == "FUZZY"
    assert biggest[-1].max == 1349
    wins = rank_guesses(small_pm, "guaranteed_wins")[0]
    assert (wins.word, wins.guaranteed_wins) == ("BRUTE", 40)
    expected = rank_guesses(small_pm, "expected_wins")[0]
    assert (expected.word, round(expected.expected_wins, 2)) == ("FILET", 56.66)


def test_hello_all_misses_leaves_406(small_pm):
    assert len(remaining_answers(small_pm, parse_history(small_pm, "HELLO:....."))) == 406


def test_history_errors(small_pm):
    with pytest.raises(GpusolveError, match="impossible given the earlier moves"):
        remaining_answers(small_pm, parse_history(small_pm, "HELLO:GGGGG,WORLD:....."))
    with pytest.raises(GpusolveError, match="expected GUESS:REPLY"):
        parse_history(small_pm, "HELLO")


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_kernel_metrics_equal_oracle(full_pm, data):
    answers = np.array(sorted(data.draw(st.sets(st.integers(0, 2308), min_size=1, max_size=40))))
    rows = np.array(data.draw(st.lists(st.integers(0, 12971), min_size=1, max_size=8, unique=True)))
    words = [full_pm.answers[a] for a in answers]
    for s in rank_guesses(full_pm, "entropy", answers, rows):
        expected = oracle_metrics(full_pm, s.word, words)
        assert s.max == expected["max"]
        assert s.branches == expected["branches"]
        assert s.guaranteed_wins == expected["guaranteed_wins"]
        assert s.expectation == pytest.approx(expected["expectation"])
        assert s.entropy == pytest.approx(expected["entropy"], abs=1e-9)
        assert s.expected_wins == pytest.approx(expected["expected_wins"], abs=1e-8)


def test_ties_break_by_list_order(small_pm):
    ranked = rank_guesses(small_pm, "max")
    for a, b in itertools.pairwise(ranked):
        if a.max == b.max:
            assert small_pm.guess_index[a.word] < small_pm.guess_index[b.word]


def test_unknown_metric(small_pm):
    with pytest.raises(GpusolveError, match="unknown metric"):
        rank_guesses(small_pm, "luck")
