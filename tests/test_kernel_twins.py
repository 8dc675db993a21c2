"""The compiled search's rule twins (``kernels.optimal_cpu._rule_twins``, Wordle's hard mode): a node
keeps one guess per class of guesses with the same replies over its set and the same letters wherever
one of them is not grey. The test agrees with the driver's key (``_Context.twin_key``), and every node
of small hard games rich in guesses with the same replies but other letters gets the brute-force
value."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from gpusolve.kernels import optimal_cpu
from numba import njit
from test_dead_cores import search_every_node
from test_optimal import WORDLE_WORDS, small_matrix

from gpusolve.core.games import make_game
from gpusolve.search import optimal


@njit(cache=False)
def _twins(replies, glet, g, h, length):
    """Return the kernel's verdict on guess rows ``g`` and ``h``, both giving ``replies``."""
    return optimal_cpu._rule_twins(replies, 0, replies.shape[0], glet, g, h, length)


def probe_instance(seed: int):
    """Return a small Wordle game whose answers hold both of A and E or neither, its guesses the
    answers, probes of one letter (the rest Q, in no answer: probes of A and of E in one place give
    the same replies, yet reveal other letters) and a few random words."""
    rng = random.Random(seed)
    answers: set[str] = set()
    size = rng.randint(6, 8)
    while len(answers) < size:
        word = [rng.choice("BCDMNRST") for _ in range(5)]
        if rng.random() < 0.6:
            i, j = rng.sample(range(5), 2)
            word[i], word[j] = "A", "E"
        answers.add("".join(word))
    probes = {"Q" * k + x + "Q" * (4 - k) for k in range(5) for x in "AE"}
    words = {"".join(rng.choice("AEBCDMNRSTQ") for _ in range(5)) for _ in range(rng.randint(3, 8))}
    return small_matrix(make_game("wordle"), sorted(answers | probes | words), sorted(answers))


@pytest.mark.parametrize("seed", range(4))
def test_the_kernel_s_rule_twins_agree_with_the_driver_s_key(seed):
    """Over random sets of real answers (and of the probe games), every pair of guesses with the same
    replies is a pair of rule twins for the kernel exactly when the driver's keys are equal; both
    verdicts come up."""
    rng = random.Random(seed)
    words = rng.sample(WORDLE_WORDS, 60)
    pm = small_matrix(make_game("wordle"), sorted(set(words) | {"Q" * k + x + "Q" * (4 - k) for k in range(5)
                                                                 for x in "AEIOU"}), sorted(words[:30]))
    verdicts = set()
    for case in range(2):
        game = pm if case == 0 else probe_instance(seed)
        ctx = optimal._Context(game, "hard", 4)
        for _ in range(40):
            answers = np.array(sorted(rng.sample(range(len(game.answers)), rng.randint(2, 6))), np.int32)
            by_replies: dict[bytes, list[int]] = {}
            for g in range(len(game.guesses)):
                by_replies.setdefault(game.codes[g, answers].tobytes(), []).append(g)
            for rows in by_replies.values():
                for g, h in itertools.pairwise(rows):
                    twins = _twins(np.ascontiguousarray(game.codes[g, answers]), game.letters, g, h, 5)
                    assert twins == (ctx.twin_key(answers, g) == ctx.twin_key(answers, h)), (answers, g, h)
                    verdicts.add(twins)
    assert verdicts == {True, False}


@pytest.mark.parametrize(("seed", "depth"), [(s, d) for s in range(6) for d in (3, 4)])
def test_every_node_of_games_with_look_alike_probes_gets_the_brute_force_value(seed, depth):
    search_every_node(probe_instance(seed), depth, seed)


@njit(cache=False)
def _alike(params):
    """Return the kernel's rule for the guesses a scan drops (``optimal_cpu._alike``)."""
    return optimal_cpu._alike(params)


@pytest.mark.parametrize(("kind", "mode", "alike"), [("wordle", "hard", 5), ("wordle", "normal", 0),
                                                     ("wordle", "consistent", -1), ("jotto", "hard", -1),
                                                     ("jotto", "normal", 0)])
def test_only_wordle_s_hard_mode_drops_rule_twins(kind, mode, alike):
    """Normal mode drops guesses with the same replies, Wordle's hard mode rule twins (its five letters
    compared), consistent mode and the other games' hard mode (whose rule reads the whole guess) none."""
    game = make_game(kind)
    words = [w for w in WORDLE_WORDS if len(set(w)) == 5][:12]
    ctx = optimal._Context(small_matrix(game, words, words), mode, 4)
    assert _alike(ctx.params) == alike
