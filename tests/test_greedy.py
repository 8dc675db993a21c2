"""Greedy guess trees: the compiled builder against a seed-style Python oracle, and the seeds' tables."""

from __future__ import annotations

import random
from collections import Counter
from math import log2

import numpy as np
import pytest
from gpusolve.kernels.stats import inverse_table, nlogn_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpusolve.core.backend import get_backend
from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import make_game
from gpusolve.core.modes import hard_mode_allows
from gpusolve.core.patterns import PatternMatrix, build_codes, pattern_matrix
from gpusolve.core.trees import Node, report_lines, summarize
from gpusolve.core.words import read_words
from gpusolve.search import greedy
from gpusolve.search.greedy import greedy_scores, greedy_tree

# ---------------------------------------------------------------- the oracle


def oracle_key(metric: str, counts: Counter, n: int, solved_in: bool):
    """Exact key of a partition (smaller is better), written out plainly per metric."""
    sign, base = (-1, metric[5:]) if metric.startswith("anti-") else (1, metric)
    sizes = list(counts.values())
    nlogn, inverse = nlogn_table(n), inverse_table(n)
    if base == "max":
        return sign * max(sizes)
    if base == "entropy":
        return sign * sum(int(nlogn[k]) for k in sizes)
    if base == "expectation":
        return sign * sum(k * k for k in sizes)
    if base == "branches":
        return sign * -len(sizes)
    if base == "guaranteed_wins":
        return sign * -(sum(k == 1 for k in sizes) - solved_in)
    if base == "expected_wins":
        return sign * -(sum(int(inverse[k]) for k in sizes) - solved_in * int(inverse[1]))
    raise AssertionError(metric)


def seed_001_key(metric: str, counts: Counter, n: int):
    """Seed 001's own key, as its notebook computes it: Python floats over the branch sizes in
    the order their replies first occur, added left to right (Python <= 3.11's ``sum``)."""
    sizes = list(counts.values())
    if metric == "max":
        return max(sizes)
    key = 0.0
    for x in sizes:
        p = x / n
        key += p * x if metric == "expectation" else p * log2(p)
    return key


def oracle_tree(pm, metric, mode, free_max=None, free_min=3, start=None, targets=None, ties="exact"):
    """The seeds' minimizing_tree, with modes, by the pure-Python reply rule."""
    game = pm.game
    free_max = float("inf") if free_max is None else free_max

    def build(targets, moves, first):
        n = len(targets)
        if n == 1:
            return targets[0]
        if first and start is not None:
            guess = start
        else:
            free = mode != "consistent" and free_min < n <= free_max
            if free:
                pool = [g for g in pm.guesses if mode != "hard" or hard_mode_allows(game, g, moves)]
            else:
                pool = targets

            def key(g):
                counts = Counter(game.reply(g, t) for t in targets)
                if len(counts) == 1:  # no progress
                    return (1, 0)
                if ties == "seed-001":
                    return (0, seed_001_key(metric, counts, n))
                return (0, oracle_key(metric, counts, n, g in targets))

            guess = min(pool, key=key)
        branches: dict[int, list[str]] = {}
        for t in targets:
            branches.setdefault(game.reply(guess, t), []).append(t)
        return Node(guess, n, {r: build(ts, [*moves, (guess, r)], False) for r, ts in branches.items()})

    return build(list(pm.answers if targets is None else targets), [], True)


def small_matrix(game, guesses, answers):
    """Return a PatternMatrix of explicit lists, built without the disk cache."""
    guesses, answers = tuple(guesses), tuple(answers)
    backend = get_backend("cpu")
    return PatternMatrix(game, guesses, answers, build_codes(game, guesses, answers, backend), backend)


ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ALLOWED = read_words("allowed", ALPHA)
ANSWERS = read_words("answers", ALPHA)
JOTTO_WORDS = make_game("jotto").word_lists("answers", "answers")[1]
METRICS = ["entropy", "max", "expectation", "branches", "guaranteed_wins", "expected_wins",
           "anti-entropy", "anti-max"]


@st.composite
def instances(draw, jotto=False):
    """A small random game: answers, extra guesses, metric, mode, free window, start."""
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    if jotto:
        game = make_game("jotto")
        words = rnd.sample(JOTTO_WORDS, draw(st.integers(6, 60)))
        n_answers = draw(st.integers(1, len(words)))
        answers = sorted(words[:n_answers])
        guesses = sorted(words)
    else:
        game = make_game("wordle")
        # answers close to each other in the list share letters: realistic splits
        at = rnd.randrange(len(ANSWERS) - 80)
        answers = sorted(rnd.sample(ANSWERS[at:at + 80], draw(st.integers(1, 25))))
        guesses = sorted(set(answers) | set(rnd.sample(ALLOWED, draw(st.integers(0, 60)))))
    metric = draw(st.sampled_from(METRICS))
    mode = draw(st.sampled_from(["normal", "hard", "consistent"]))
    free_max = draw(st.sampled_from([None, 5, 12]))
    free_min = draw(st.sampled_from([3, 1]))
    pool = answers if mode == "consistent" else guesses
    start = draw(st.sampled_from([None, *pool[:3]]))
    return game, guesses, answers, metric, mode, free_max, free_min, start


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_compiled_tree_equals_the_oracle(instance):
    game, guesses, answers, metric, mode, free_max, free_min, start = instance
    pm = small_matrix(game, guesses, answers)
    expected = oracle_tree(pm, metric, mode, free_max, free_min, start)
    assert greedy_tree(pm, metric, mode, start, free_max, free_min=free_min) == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(jotto=True))
def test_compiled_tree_equals_the_oracle_for_jotto(instance):
    game, guesses, answers, metric, mode, free_max, free_min, start = instance
    pm = small_matrix(game, guesses, answers)
    expected = oracle_tree(pm, metric, mode, free_max, free_min, start)
    assert greedy_tree(pm, metric, mode, start, free_max, free_min=free_min) == expected


@st.composite
def seed_001_instances(draw):
    """A small random game for seed 001's metrics, both lists in no particular order."""
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    if draw(st.booleans()):
        game = make_game("jotto")
        guesses = rnd.sample(JOTTO_WORDS, draw(st.integers(6, 60)))
        answers = rnd.sample(guesses, draw(st.integers(2, len(guesses))))
    else:
        game = make_game("wordle")
        at = rnd.randrange(len(ANSWERS) - 80)
        answers = rnd.sample(ANSWERS[at:at + 80], draw(st.integers(2, 25)))
        guesses = list(set(answers) | set(rnd.sample(ALLOWED, draw(st.integers(0, 60)))))
        rnd.shuffle(guesses)
    metric = draw(st.sampled_from(["max", "expectation", "entropy"]))
    mode = draw(st.sampled_from(["normal", "hard", "consistent"]))
    return game, guesses, answers, metric, mode


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed_001_instances())
def test_seed_001_ties_equal_the_seeds_own_float_keys(instance):
    game, guesses, answers, metric, mode = instance
    pm = small_matrix(game, guesses, answers)
    expected = oracle_tree(pm, metric, mode, ties="seed-001")
    assert greedy_tree(pm, metric, mode, ties="seed-001", threads=1) == expected
    old, greedy.SPLIT_WORK = greedy.SPLIT_WORK, 0  # the root found by the parallel scan too
    try:
        assert greedy_tree(pm, metric, mode, ties="seed-001", threads=2) == expected
    finally:
        greedy.SPLIT_WORK = old


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_split_over_cores_and_scores_agree(instance):
    game, guesses, answers, metric, mode, free_max, free_min, start = instance
    pm = small_matrix(game, guesses, answers)
    one = greedy_tree(pm, metric, mode, start, free_max, threads=1, free_min=free_min)
    old, greedy.SPLIT_WORK = greedy.SPLIT_WORK, 0  # even tiny trees take the spread-over-cores path
    try:
        split = greedy_tree(pm, metric, mode, start, free_max, threads=2, free_min=free_min)
    finally:
        greedy.SPLIT_WORK = old
    assert split == one
    hist = summarize(one).histogram
    root = [start if start else (one if isinstance(one, str) else one.guess)]
    if mode != "consistent" or root[0] in answers:
        scores = greedy_scores(pm, root, metric, mode, free_max, free_min=free_min)
        assert {k: int(v) for k, v in enumerate(scores[0]) if v} == hist


def test_greedy_scores_many_starts_match_single_trees(small_pm):
    starts = ["RAISE", "FUZZY", "CRANE", "HELLO"]
    for mode, free_max in (("normal", 125), ("hard", None), ("consistent", None)):
        hist = greedy_scores(small_pm, starts, "entropy", mode, free_max)
        for word, row in zip(starts, hist):
            tree = greedy_tree(small_pm, "entropy", mode, start=word, free_max=free_max)
            assert {k: int(v) for k, v in enumerate(row) if v} == summarize(tree).histogram


# ---------------------------------------------------------------- the seeds' examples


def R(game, text):
    return game.parse_reply(text)


def test_few_words_tree_with_roast_at_the_root(small_pm):
    g = small_pm.game
    few = small_pm.answers[::100]
    assert len(few) == 24
    expected = Node("ROAST", 24, {
        R(g, "..G.."): Node("ABACK", 2, {R(g, "GGGGG"): "ABACK", R(g, "..GGG"): "QUACK"}),
        R(g, "Y...Y"): Node("BIRTH", 2, {R(g, "GGGGG"): "BIRTH", R(g, "..YY."): "TREND"}),
        R(g, "....."): Node("BULLY", 2, {R(g, "GGGGG"): "BULLY", R(g, ".G..."): "CUMIN"}),
        R(g, "..GG."): Node("CLASP", 2, {R(g, "GGGGG"): "CLASP", R(g, "..GGY"): "PHASE"}),
        R(g, "YY..."): Node("DROOL", 2, {R(g, "GGGGG"): "DROOL", R(g, ".Y.G."): "HUMOR"}),
        R(g, "..Y.."): Node("FANCY", 2, {R(g, "GGGGG"): "FANCY", R(g, ".YG.."): "NINJA"}),
        R(g, "YYY.."): "ARBOR", R(g, "Y.G.."): "FRANK", R(g, "Y.G.Y"): "GRATE",
        R(g, "Y.Y.Y"): "LATER", R(g, ".YYY."): "MASON", R(g, "GGGGG"): "ROAST",
        R(g, "..GY."): "SHALE", R(g, "...Y."): "SMELL", R(g, "..GYY"): "STAMP",
        R(g, "..Y.Y"): "TAKEN", R(g, "Y.Y.."): "VIRAL", R(g, "..Y.G"): "YACHT",
    })
    assert greedy_tree(small_pm, "max", "consistent", answers=few) == expected


AILS = ["BAILS", "FAILS", "HAILS", "NAILS", "PAILS", "RAILS", "SAILS", "TAILS", "WAILS"]


@pytest.fixture(scope="module")
def ails_pm():
    """The seed's 9 -AILS words as answers, guesses = the 2,309 answers plus them."""
    game = make_game("wordle")
    return small_matrix(game, sorted(set(ANSWERS) | set(AILS)), AILS)


def test_ails_inconsistent_tree_berth_then_spawn(ails_pm):
    g = ails_pm.game
    expected = Node("BERTH", 9, {
        R(g, "....."): Node("SPAWN", 5, {R(g, "G.Y.."): "SAILS", R(g, "Y.Y.."): "FAILS",
                                         R(g, "Y.Y.Y"): "NAILS", R(g, "Y.YY."): "WAILS",
                                         R(g, "YYY.."): "PAILS"}),
        R(g, "....Y"): "HAILS", R(g, "...Y."): "TAILS", R(g, "..Y.."): "RAILS", R(g, "G...."): "BAILS",
    })
    tree = greedy_tree(ails_pm, "max", "normal", free_max=125)
    assert tree == expected
    assert report_lines(summarize(tree))[:2] == [
        "median: 3 guesses, mean: 2.56 ± 0.53, worst: 3, best: 2",
        "cumulative: ≤2:44%, ≤3:100%, ≤4:100%, ≤5:100%, ≤6:100%, ≤7:100%, ≤8:100%, ≤9:100%, ≤10:100%",
    ]


def test_ails_consistent_tree(ails_pm):
    tree = greedy_tree(ails_pm, "max", "consistent")
    assert tree.guess == "BAILS"
    assert report_lines(summarize(tree))[:2] == [
        "median: 5 guesses, mean: 5.00 ± 2.74, worst: 9, best: 1",
        "cumulative: ≤2:22%, ≤3:33%, ≤4:44%, ≤5:56%, ≤6:67%, ≤7:78%, ≤8:89%, ≤9:100%, ≤10:100%",
    ]


# (game, metric, mode, first guess, report line, cumulative) as printed in seed 000
SEED_TABLES = [
    ("wordle", "max", "consistent", "ARISE", "median: 4 guesses, mean: 3.68 ± 0.86, worst: 8, best: 1",
     "≤2:5%, ≤3:43%, ≤4:87%, ≤5:97%, ≤6:99.4%, ≤7:99.9%, ≤8:100%, ≤9:100%, ≤10:100%"),
    ("wordle", "expectation", "consistent", "RAISE",
     "median: 4 guesses, mean: 3.62 ± 0.86, worst: 8, best: 1",
     "≤2:6%, ≤3:47%, ≤4:88%, ≤5:98%, ≤6:99.4%, ≤7:99.9%, ≤8:100%, ≤9:100%, ≤10:100%"),
    ("wordle", "entropy", "consistent", "RAISE", "median: 4 guesses, mean: 3.60 ± 0.85, worst: 8, best: 1",
     "≤2:6%, ≤3:49%, ≤4:89%, ≤5:97%, ≤6:99.5%, ≤7:99.9%, ≤8:100%, ≤9:100%, ≤10:100%"),
    ("wordle", "max", "normal", "ARISE", "median: 4 guesses, mean: 3.64 ± 0.66, worst: 6, best: 1",
     "≤2:2%, ≤3:42%, ≤4:93%, ≤5:99.5%, ≤6:100%, ≤7:100%, ≤8:100%, ≤9:100%, ≤10:100%"),
    ("wordle", "expectation", "normal", "RAISE",
     "median: 4 guesses, mean: 3.55 ± 0.64, worst: 6, best: 1",
     "≤2:2%, ≤3:48%, ≤4:95%, ≤5:99.6%, ≤6:100%, ≤7:100%, ≤8:100%, ≤9:100%, ≤10:100%"),
    ("wordle", "entropy", "normal", "RAISE", "median: 3 guesses, mean: 3.52 ± 0.64, worst: 6, best: 1",
     "≤2:2%, ≤3:50%, ≤4:95%, ≤5:99.6%, ≤6:100%, ≤7:100%, ≤8:100%, ≤9:100%, ≤10:100%"),
    ("wordle", "anti-entropy", "consistent", "FUZZY",
     "median: 6 guesses, mean: 5.75 ± 1.61, worst: 11, best: 1",
     "≤2:1%, ≤3:8%, ≤4:23%, ≤5:44%, ≤6:68%, ≤7:87%, ≤8:96%, ≤9:99%, ≤10:99.7%"),
    ("jotto", "max", "consistent", "DRAPE", "median: 6 guesses, mean: 6.31 ± 1.43, worst: 16, best: 1",
     "≤2:0%, ≤3:2%, ≤4:7%, ≤5:24%, ≤6:58%, ≤7:88%, ≤8:95%, ≤9:97%, ≤10:99%"),
    ("jotto", "expectation", "consistent", "SOUTH",
     "median: 6 guesses, mean: 6.11 ± 1.22, worst: 14, best: 1",
     "≤2:0%, ≤3:2%, ≤4:8%, ≤5:26%, ≤6:64%, ≤7:93%, ≤8:98%, ≤9:99%, ≤10:99.5%"),
    ("jotto", "entropy", "consistent", "STARE", "median: 6 guesses, mean: 6.31 ± 1.46, worst: 15, best: 1",
     "≤2:0%, ≤3:2%, ≤4:8%, ≤5:25%, ≤6:58%, ≤7:87%, ≤8:95%, ≤9:97%, ≤10:98%"),
    ("jotto", "max", "normal", "DRAPE", "median: 6 guesses, mean: 6.38 ± 0.93, worst: 9, best: 1",
     "≤2:0%, ≤3:1%, ≤4:3%, ≤5:13%, ≤6:52%, ≤7:93%, ≤8:99.8%, ≤9:100%, ≤10:100%"),
    ("jotto", "expectation", "normal", "SOUTH", "median: 6 guesses, mean: 6.13 ± 0.89, worst: 9, best: 1",
     "≤2:0%, ≤3:1%, ≤4:4%, ≤5:19%, ≤6:66%, ≤7:97%, ≤8:99.9%, ≤9:100%, ≤10:100%"),
    ("jotto", "entropy", "normal", "STARE", "median: 6 guesses, mean: 6.18 ± 0.93, worst: 9, best: 1",
     "≤2:0%, ≤3:1%, ≤4:3%, ≤5:20%, ≤6:63%, ≤7:95%, ≤8:99.7%, ≤9:100%, ≤10:100%"),
]


@pytest.fixture(scope="module")
def jotto_pm():
    """The seeds' Jotto setting: the 1,391 allowable words of the 2,309 answers, both lists."""
    return pattern_matrix(make_game("jotto"), "answers", "answers", "cpu")


@pytest.mark.slow
@pytest.mark.parametrize(("game", "metric", "mode", "first", "line", "cumulative"), SEED_TABLES)
def test_seed_tables(game, metric, mode, first, line, cumulative, small_pm, jotto_pm):
    pm = small_pm if game == "wordle" else jotto_pm
    assert pm.shape == ((2309, 2309) if game == "wordle" else (1391, 1391))
    tree = greedy_tree(pm, metric, mode, free_max=125)
    summary = summarize(tree)
    assert summary.first_guess == first
    assert report_lines(summary)[:2] == [line, f"cumulative: {cumulative}"]


# Seed 001's Jotto table over the Stanford GraphBase list (2,845 words, guesses = answers, free
# guesses whenever more than 3 answers remain): (metric, mode, first guess, the seed's report line
# and cumulative (from <=3), then the histograms (answers solved in 1, 2, ... guesses) of the seed's
# tree and of the default rule's tree, both from a literal pure-Python run of the seed's code
# (the default's: over the sorted list with exact keys). Some cells print alike under both rules;
# the histograms tell them apart.
SGB_JOTTO_TABLE = [
    ("max", "consistent", "WADER", "median: 7 guesses, mean: 7.15 ± 1.81, worst: 18",
     "≤3:1%, ≤4:4%, ≤5:13%, ≤6:35%, ≤7:67%, ≤8:86%, ≤9:92%, ≤10:95%",
     "1 5 21 78 253 625 930 535 169 92 51 35 19 14 7 5 3 2",
     "1 5 21 79 252 616 933 549 168 86 53 31 19 15 7 5 3 2"),
    ("expectation", "consistent", "RAVED", "median: 7 guesses, mean: 7.14 ± 1.82, worst: 17",
     "≤3:1%, ≤4:4%, ≤5:13%, ≤6:36%, ≤7:68%, ≤8:85%, ≤9:91%, ≤10:95%",
     "1 5 21 79 257 649 920 490 178 97 60 37 22 14 8 5 2",
     "1 5 21 79 257 651 922 486 175 101 60 35 23 14 8 5 2"),
    ("entropy", "consistent", "DEBAR", "median: 7 guesses, mean: 7.09 ± 1.78, worst: 19",
     "≤3:1%, ≤4:4%, ≤5:13%, ≤6:36%, ≤7:69%, ≤8:86%, ≤9:92%, ≤10:96%",
     "1 5 21 79 260 672 926 484 176 94 56 27 17 9 7 6 3 1 1",
     "1 5 21 79 260 672 925 485 178 93 53 29 17 9 7 6 3 1 1"),
    ("max", "normal", "WADER", "median: 7 guesses, mean: 7.05 ± 0.98, worst: 10",
     "≤3:0%, ≤4:1%, ≤5:6%, ≤6:24%, ≤7:69%, ≤8:95%, ≤9:99.9%, ≤10:100%",
     "1 3 0 23 145 518 1269 742 142 2",
     "1 3 1 26 147 519 1295 701 148 4"),
    ("expectation", "normal", "RAVED", "median: 7 guesses, mean: 6.84 ± 0.95, worst: 10",
     "≤3:0%, ≤4:1%, ≤5:7%, ≤6:32%, ≤7:78%, ≤8:97%, ≤9:100.0%, ≤10:100%",
     "1 3 6 25 154 726 1303 551 75 1",
     "1 3 6 25 153 732 1301 549 75"),
    ("entropy", "normal", "DEBAR", "median: 7 guesses, mean: 6.82 ± 1.00, worst: 10",
     "≤3:0%, ≤4:1%, ≤5:8%, ≤6:35%, ≤7:78%, ≤8:97%, ≤9:99.6%, ≤10:100%",
     "1 3 6 26 195 758 1216 543 87 10",
     "1 3 6 27 198 764 1210 542 85 9"),
]


@pytest.fixture(scope="module")
def sgb_jotto():
    """The SGB Jotto matrices, both lists the 2,845 allowable words: sorted, and in file order."""
    game = make_game("jotto")
    return {order: pattern_matrix(game, "sgb", "sgb", "cpu", jotto_order=order)
            for order in ("sorted", "file")}


def histogram_text(summary) -> str:
    """Return a tree's histogram as the counts for 1, 2, ... guesses, space-separated."""
    return " ".join(str(summary.histogram.get(k, 0)) for k in range(1, summary.worst + 1))


@pytest.mark.slow
@pytest.mark.parametrize(("metric", "mode", "first", "line", "cumulative", "seed_hist", "exact_hist"),
                         SGB_JOTTO_TABLE, ids=[f"{m}-{mode}" for m, mode, *_ in SGB_JOTTO_TABLE])
def test_seed_001_sgb_jotto_table(metric, mode, first, line, cumulative, seed_hist, exact_hist,
                                  sgb_jotto):
    """Tie rule seed-001 over the file-order list gives the seed's trees; the default its own."""
    pm = sgb_jotto["file"]
    assert pm.shape == (2845, 2845)
    summary = summarize(greedy_tree(pm, metric, mode, ties="seed-001"))
    assert summary.first_guess == first
    assert report_lines(summary)[:2] == [f"{line}, best: 1", f"cumulative: ≤2:0%, {cumulative}"]
    assert histogram_text(summary) == seed_hist
    summary = summarize(greedy_tree(sgb_jotto["sorted"], metric, mode))
    assert summary.first_guess == first
    assert histogram_text(summary) == exact_hist
    assert exact_hist != seed_hist


@pytest.mark.slow
def test_salet_tree_with_every_guess_everywhere():
    """The benchmark tree: all 12,972 guesses at every node, 2,315 answers; a C++ builder gets ~3.61."""
    pm = pattern_matrix(make_game("wordle"), "allowed", "answers-2315", "cpu")
    summary = summarize(greedy_tree(pm, "entropy", "normal", start="SALET", free_min=1))
    assert round(summary.mean, 2) == 3.61
    assert summary.worst == 6


def test_hard_mode_guesses_keep_every_hint(small_pm):
    tree = greedy_tree(small_pm, "entropy", "hard", free_max=None)
    game = small_pm.game

    def walk(t, moves):
        if isinstance(t, str):
            assert hard_mode_allows(game, t, moves)
            return
        assert hard_mode_allows(game, t.guess, moves)
        for r, sub in t.branches.items():
            walk(sub, [*moves, (t.guess, r)])

    walk(tree, [])


# ---------------------------------------------------------------- input errors


def test_bad_inputs_are_one_line_errors(small_pm):
    with pytest.raises(GpusolveError, match="unknown word"):
        greedy_tree(small_pm, start="QQQQQ")
    with pytest.raises(GpusolveError, match="unknown metric"):
        greedy_tree(small_pm, metric="bogus")
    with pytest.raises(GpusolveError, match="unknown mode"):
        greedy_tree(small_pm, mode="bogus")
    with pytest.raises(GpusolveError, match="free-max"):
        greedy_tree(small_pm, free_max=-1)


def test_consistent_start_must_be_an_answer():
    pm = pattern_matrix(make_game("wordle"), "allowed", "answers", "cpu")
    with pytest.raises(GpusolveError, match="not a possible answer"):
        greedy_tree(pm, mode="consistent", start="SALET")
    assert np.array_equal(greedy_scores(pm, [], "entropy"), np.zeros((0, 1)))


def test_command_help_names_every_metric():
    from gpusolve.cli.tree import FREE_MIN, METRIC_HELP

    assert FREE_MIN == greedy.FREE_MIN
    assert all(name in METRIC_HELP for name in greedy.GREEDY_METRICS)
