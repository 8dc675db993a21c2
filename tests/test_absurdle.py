"""Absurdle: the search against brute force on tiny instances, the replier's tie rule, the
figures for the bundled lists, and the command."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gpusolve.absurdle import absurdle, absurdle_line
from gpusolve.cli import app
from gpusolve.patterns import PatternMatrix


def sub_matrix(pm: PatternMatrix, guess_words, answer_words) -> PatternMatrix:
    rows = [pm.guess_index[w] for w in guess_words]
    cols = [pm.answers.index(w) for w in answer_words]
    codes = np.ascontiguousarray(pm.codes[np.ix_(rows, cols)])
    return PatternMatrix(pm.game, tuple(guess_words), tuple(answer_words), codes, pm.backend)


def brute_absurdle(pm: PatternMatrix) -> int:
    """The fewest guesses that always beat the Absurdle replier (same tie rule), by recursion."""
    solved = pm.game.solved

    @lru_cache(None)
    def fewest(s: frozenset, left: int) -> float:
        if left == 0:
            return float("inf")
        best = float("inf")
        for g in range(pm.shape[0]):
            groups: dict[int, list] = {}
            for a in s:
                groups.setdefault(int(pm.codes[g, a]), []).append(a)
            others = sorted((r for r in groups if r != solved), key=lambda r: (-len(groups[r]), r))
            if not others:
                return 1
            kept = frozenset(groups[others[0]])
            if kept != s:
                best = min(best, 1 + fewest(kept, left - 1))
        return best

    return fewest(frozenset(range(pm.shape[1])), 8)


@st.composite
def tiny(draw):
    n = draw(st.integers(2, 9))
    answers = draw(st.lists(st.integers(0, 2308), min_size=n, max_size=n, unique=True))
    extra = draw(st.lists(st.integers(0, 2308), min_size=0, max_size=6, unique=True))
    return answers, extra


def _tiny_pm(small_pm, inst):
    answers, extra = inst
    a_words = [small_pm.answers[i] for i in answers]
    g_words = list(dict.fromkeys(a_words + [small_pm.answers[i] for i in extra]))
    return sub_matrix(small_pm, g_words, a_words)


@settings(max_examples=60, deadline=None)
@given(tiny())
def test_absurdle_matches_brute_force(small_pm, inst):
    pm = _tiny_pm(small_pm, inst)
    result = absurdle(pm)
    assert result.guesses == brute_absurdle(pm)
    words = [w for w, _ in result.line]
    played = absurdle_line(pm, words)
    assert played[-1][1] == pm.game.solved and played[-1][2] == 1
    assert len(words) == result.guesses


def test_absurdle_reply_tie_rule(small_pm):
    # a guess sharing no letter keeps everything under the all-miss reply
    line = absurdle_line(small_pm, ["FUZZY"])
    assert line[0][1] == 0 and line[0][2] == 1349  # seed 000: FUZZY leaves a branch of 1,349


@pytest.mark.slow
def test_absurdle_seed_setting(small_pm):
    """Guesses = answers = 2,309: Absurdle needs 4 guesses (3 refuted), proven."""
    result = absurdle(small_pm)
    assert result.guesses == 4 and result.refuted == [1, 2, 3]
    assert absurdle_line(small_pm, [w for w, _ in result.line])[-1][2] == 1


def test_cli_absurdle():
    runner = CliRunner()
    words = "--answers", "tests/data/family.txt"
    r = runner.invoke(app, ["absurdle", "--guesses", "tests/data/family.txt", *words, "--json"])
    assert r.exit_code == 0 and '"fewest_guesses"' in r.output
