"""The squares bound (``kernels/squares_cpu.py``) against brute force.

At the nodes of small random Wordle games (short alphabets, so most words repeat letters; 2 to
6 letters): the whole set, its branches under every guess, and each of those split again by a
second guess; for every guess:

* the reply is a function of the parts the bound splits it into (the premise, checked against
  the pure-Python reply rule);
* the parts' bound, written out plainly here, is at most the exact sum of n*log2(n);
* the compiled bound is at most the guess's exact integer key, and within a millionth of
  m*log2(m) (and m + 2 units of rounding) of the plain bound: it computes that bound, not a
  weaker one.

On the real lists, the greedy scan that skips guesses by the bound picks the same guess as the
plain reference, and at the start words' branches the bound rules out most guesses (it binds).
"""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
from gpusolve.kernels import greedy_cpu as kernel
from gpusolve.kernels.squares_cpu import guess_parts, node_parts, squares_bounds
from gpusolve.kernels.stats import SCALE, nlogn_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_greedy import small_matrix
from test_greedy_scan import reference_best

from gpusolve.core.games import make_game
from gpusolve.search.greedy import kernel_metric


def parts(guess: str, answer: str) -> list[tuple]:
    """Return the parts of the reply to ``guess``, each depending on one letter of the guess:
    a letter it holds once gives its square's colour; a letter held t times gives whether each
    of its squares is green, and the answer's number of that letter capped at t."""
    out: list[tuple] = []
    for letter in sorted(set(guess)):
        at = [i for i, c in enumerate(guess) if c == letter]
        if len(at) == 1:
            i = at[0]
            out.append(("G" if answer[i] == letter else "Y" if letter in answer else ".",))
        else:
            out.extend((answer[i] == letter,) for i in at)
            out.append((min(answer.count(letter), len(at)),))
    return out


def sum_nlogn(sizes) -> float:
    """Return the sum of n*log2(n) over class sizes."""
    return sum(n * math.log2(n) for n in sizes if n > 1)


def plain_bound(guess: str, answers: list[str]) -> float:
    """Return the parts' bound on the sum of n*log2(n) over ``guess``'s branches: the sum of each
    part's own sum, less (parts - 1) times m*log2(m)."""
    table = [parts(guess, a) for a in answers]
    k = len(table[0])
    own = sum(sum_nlogn(Counter(row[j] for row in table).values()) for j in range(k))
    return own - (k - 1) * sum_nlogn([len(answers)])


@st.composite
def games(draw):
    """A small random Wordle game: (answers, guesses) of one length over a short alphabet."""
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    length = draw(st.integers(2, 6))
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:draw(st.sampled_from([2, 3, 4, 6, 26]))]
    room = len(alphabet) ** length
    words = {"".join(rnd.choice(alphabet) for _ in range(length)) for _ in range(3 * min(room, 60))}
    words = sorted(words)
    answers = sorted(rnd.sample(words, min(len(words), draw(st.integers(2, 40)))))
    guesses = sorted(set(answers) | set(rnd.sample(words, min(len(words), 30))))
    return answers, guesses


def nodes(pm) -> list[np.ndarray]:
    """Return the whole set of answer columns, its branches under every guess, and each branch
    split again by one other guess (sets of two or more answers)."""
    codes = np.asarray(pm.codes)
    out = {tuple(range(pm.shape[1]))}
    for g in range(pm.shape[0]):
        for r in np.unique(codes[g]):
            cols = np.nonzero(codes[g] == r)[0]
            out.add(tuple(cols))
            g2 = (g * 7 + int(r)) % pm.shape[0]
            for r2 in np.unique(codes[g2, cols]):
                out.add(tuple(cols[codes[g2, cols] == r2]))
    return [np.array(c, dtype=np.int64) for c in sorted(out) if len(c) > 1]


def compiled_bounds(pm, cols: np.ndarray) -> np.ndarray:
    """Return the compiled bound of every guess row over the answer columns ``cols``."""
    parts = guess_parts(pm.letters, pm.letter_counts)
    rows = pm.answer_rows.astype(np.int64)
    table, whole = node_parts(pm.letters, pm.letter_counts, rows, cols, 0, len(cols))
    pool = np.arange(pm.shape[0], dtype=np.int64)
    out = np.empty(len(pool), np.int64)
    squares_bounds(parts, pool, len(pool), table, whole, len(cols), out)
    return out


def check_every_node(answers: list[str], guesses: list[str]) -> None:
    """Check the bound's premise, the plain bound and the compiled bound at every node."""
    pm = small_matrix(make_game("wordle", len(answers[0])), guesses, answers)
    codes = np.asarray(pm.codes)
    key_of = nlogn_table(len(answers))
    for cols in nodes(pm):
        words = [answers[c] for c in cols]
        bounds = compiled_bounds(pm, cols)
        for g, guess in enumerate(guesses):
            replies = Counter(codes[g, cols].tolist())
            by_parts: dict[tuple, int] = {}
            for word, reply in zip(words, codes[g, cols].tolist()):
                assert by_parts.setdefault(tuple(parts(guess, word)), reply) == reply
            exact = sum_nlogn(replies.values())
            plain = plain_bound(guess, words)
            assert plain <= exact + 1e-9
            key = sum(int(key_of[n]) for n in replies.values())
            assert bounds[g] <= key
            allowance = 1e-6 * (sum_nlogn([len(cols)]) + 1) * SCALE + len(cols) + 2
            assert bounds[g] >= plain * SCALE - allowance


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games())
def test_the_bound_is_below_every_key_at_every_node(game):
    check_every_node(*game)


def test_words_that_all_repeat_a_letter():
    words = [a + b + c for a in "AB" for b in "AB" for c in "AB"]  # every guess has the most parts
    check_every_node(words, words)


def test_the_scan_with_bounds_picks_the_reference_guess(full_pm):
    codes = np.asarray(full_pm.codes)
    flat = full_pm.answer_major.reshape(-1)
    km = kernel_metric("entropy", full_pm.shape[1])
    hist = np.zeros(full_pm.game.n_patterns, np.int64)
    rows = full_pm.answer_rows.astype(np.int64)
    parts = guess_parts(full_pm.letters, full_pm.letter_counts)
    rnd = random.Random(7)
    n_guesses, n_answers = codes.shape
    for m in (12, 13, 40, 150):
        at = rnd.randrange(n_answers - 300)
        cols = np.array(rnd.sample(range(at, at + 300), m), dtype=np.int64)
        for pool in (np.arange(n_guesses, dtype=np.int64),
                     np.array(sorted(rnd.sample(range(n_guesses), 500)), dtype=np.int64)):
            off = (cols * n_guesses).astype(np.uint64)
            key, where = kernel.best_guess_squares(flat, pool, len(pool), off, m, hist, full_pm.game.solved,
                                                   km, full_pm.letters, full_pm.letter_counts,
                                                   parts, rows, cols, 0)
            assert (int(key), int(where)) == reference_best(codes, full_pm.answer_rows, "entropy", pool, 0,
                                                            len(pool), cols)
    nothing = kernel.best_guess_squares(flat, pool, 0, off, m, hist, full_pm.game.solved, km,
                                        full_pm.letters, full_pm.letter_counts, parts, rows, cols, 0)
    assert nothing == (kernel.BIG, -1)  # an empty pool, as best_guess gives


def test_the_bound_rules_out_most_guesses_at_a_start_words_branches(full_pm):
    codes = np.asarray(full_pm.codes)
    key_of = nlogn_table(full_pm.shape[1])
    row = codes[full_pm.guess_index["SALET"]]
    for reply in np.argsort(-np.bincount(row))[:3]:  # its three biggest branches
        cols = np.nonzero(row == reply)[0]
        keys = np.array([sum(int(key_of[n]) for n in np.bincount(codes[g, cols]) if n)
                         for g in range(full_pm.shape[0])])
        ruled_out = (compiled_bounds(full_pm, cols) >= keys.min()).mean()
        assert len(cols) >= 100 and ruled_out > 0.9
