"""The CPU reply-histogram kernel (kernels/histogram_cpu.py) against counting in Python; its
CUDA twin is checked against both in tests/test_cuda_kernels.py."""

from __future__ import annotations

from collections import Counter

import numpy as np
from gpusolve.kernels.stats import N_STATS, inverse_table, nlogn_table
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusolve.core.backend import CpuBackend
from gpusolve.core.games import make_game
from gpusolve.core.patterns import build_codes


def oracle_stats(codes: np.ndarray, row: int, members, solved: int) -> list[int]:
    """The ``kernels.stats`` row of one guess over one answer set, by counting in Python."""
    sizes = Counter(int(codes[row, a]) for a in members)
    n = max(len(members), 1)
    nlogn, inverse = nlogn_table(n), inverse_table(n)
    others = sorted((-m, r) for r, m in sizes.items() if r != solved)
    kept, reply = (-others[0][0], others[0][1]) if others else (0, solved)
    return [max(sizes.values(), default=0), sum(m * m for m in sizes.values()),
            int(sum(nlogn[m] for m in sizes.values())), len(sizes), sum(m == 1 for m in sizes.values()),
            int(sum(inverse[m] for m in sizes.values())), sizes.get(solved, 0), kept, reply]


@st.composite
def stats_case(draw):
    """Draw (game, codes, guess rows, answer sets, columns): Wordle of 2 or 3 letters, Jotto and
    Mastermind over few symbols (sets often larger than the number of replies), guesses that
    may be answers (the solved bucket), any columns in any order."""
    name, length = draw(st.sampled_from([("wordle", 2), ("wordle", 3), ("jotto", 3), ("mastermind", 3)]))
    game = make_game(name, length, colours=3)
    symbols = "ABCDE" if name != "mastermind" else game.alphabet
    word = st.text(symbols, min_size=length, max_size=length)
    if name == "jotto":
        word = st.permutations(symbols).map(lambda p: "".join(p[:length]))
    words = tuple(sorted(set(draw(st.lists(word, min_size=1, max_size=40)))))
    codes = build_codes(game, words, words, CpuBackend())
    n = len(words)
    sets = draw(st.lists(st.lists(st.integers(0, n - 1), max_size=60), max_size=4))  # repeats allowed
    rows = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=6))
    columns = draw(st.lists(st.integers(0, N_STATS - 1), min_size=1, max_size=N_STATS))
    return game, codes, rows, sets, columns


@settings(max_examples=80, deadline=None)
@given(stats_case())
def test_cpu_twin_matches_counting(case):
    game, codes, rows, sets, columns = case
    flat = np.array([a for s in sets for a in s], np.int32)
    starts = np.cumsum([0] + [len(s) for s in sets])
    got = CpuBackend().reply_stats(codes, np.array(rows), flat, starts, game.n_patterns, game.solved, columns)
    want = [[[oracle_stats(codes, r, s, game.solved)[c] for c in columns] for r in rows] for s in sets]
    assert got.tolist() == want
