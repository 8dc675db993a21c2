"""Tiny games cut from the real lists, for checking searches against brute force."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from gpusolve.core.patterns import PatternMatrix


def sub_matrix(pm: PatternMatrix, guess_words, answer_words, backend=None) -> PatternMatrix:
    """Return the matrix restricted to some guesses and answers (every answer also a guess)."""
    rows = [pm.guess_index[w] for w in guess_words]
    cols = [pm.answers.index(w) for w in answer_words]
    codes = np.ascontiguousarray(pm.codes[np.ix_(rows, cols)])
    return PatternMatrix(pm.game, tuple(guess_words), tuple(answer_words), codes, backend or pm.backend)


def tiny_pm(pm: PatternMatrix, inst, backend=None) -> PatternMatrix:
    """Return the game of ``inst = (answer columns, extra guess columns)`` of ``pm``: those
    answers, guessed with themselves and the extra words."""
    answers, extra = inst
    a_words = [pm.answers[i] for i in answers]
    g_words = list(dict.fromkeys(a_words + [pm.answers[i] for i in extra]))
    return sub_matrix(pm, g_words, a_words, backend)


@st.composite
def tiny(draw, max_answers: int = 9, max_extra: int = 6):
    """Draw (answer columns, extra guess columns) of the 2,309-word list: 2 to ``max_answers``
    random answers and up to ``max_extra`` more guesses."""
    n = draw(st.integers(2, max_answers))
    answers = draw(st.lists(st.integers(0, 2308), min_size=n, max_size=n, unique=True))
    extra = draw(st.lists(st.integers(0, 2308), min_size=0, max_size=max_extra, unique=True))
    return answers, extra
