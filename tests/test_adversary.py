"""Adversaries: the minimax depth search against brute force on tiny instances; Evil Wordle,
Antiwordle and the seed 004 policies."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tinygames import sub_matrix, tiny, tiny_pm
from typer.testing import CliRunner
from wordfiles import FAMILY

from gpusolve.cli import app
from gpusolve.core.patterns import PatternMatrix
from gpusolve.core.trees import scores
from gpusolve.search.worstcase import rank_worst_case, worst_case


def brute_minimax(pm: PatternMatrix, consistent: bool = False) -> int:
    """The least number of guesses that always suffices, by plain recursion over every guess."""
    solved = pm.game.solved

    @lru_cache(None)
    def depth(s: frozenset) -> float:
        if len(s) == 1:
            return 1
        best = float("inf")
        pool = [pm.answer_rows[a] for a in s] if consistent else range(pm.shape[0])
        for g in pool:
            groups: dict[int, set] = {}
            for a in s:
                groups.setdefault(int(pm.codes[g, a]), set()).add(a)
            rest = [frozenset(b) for r, b in groups.items() if r != solved]
            if any(len(b) == len(s) for b in rest):
                continue
            best = min(best, 1 + max((depth(b) for b in rest), default=0))
        return best

    return depth(frozenset(range(pm.shape[1])))


def _check_tree(pm, tree, depth, consistent=False):
    got = dict(scores(tree))
    assert sorted(got) == sorted(pm.answers)
    assert max(got.values()) == depth
    for answer in got:  # replaying the tree finds each answer
        node = tree
        while not isinstance(node, str):
            node = node.branches[pm.game.reply(node.guess, answer)]
        assert node == answer


@settings(max_examples=60, deadline=None)
@given(tiny(), st.booleans())
def test_worst_case_matches_brute_force(small_pm, inst, consistent):
    pm = tiny_pm(small_pm, inst)
    mode = "consistent" if consistent else "normal"
    result = worst_case(pm, mode=mode)
    assert result.depth == brute_minimax(pm, consistent)
    assert result.refuted == list(range(1, result.depth))
    _check_tree(pm, result.tree, result.depth)


def test_rank_worst_case_tiny(full_pm):
    answers = ["BATCH", "CATCH", "HATCH", "LATCH", "MATCH", "PATCH", "WATCH"]
    pm = sub_matrix(full_pm, [*answers, "CHOMP", "BLOWN", "WHELP", "CLAMP"], answers)
    best = worst_case(pm)
    good, checked = rank_worst_case(pm, best.depth)
    assert good and checked >= len(good)
    for word in pm.guesses:
        fixed = worst_case(pm, start=word)
        assert (fixed.depth == best.depth) == (word in good)


def test_worst_case_with_start_counts_the_start(small_pm):
    r = worst_case(small_pm, np.arange(30, dtype=np.int32), start="RAISE")
    assert r.tree.guess == "RAISE" and max(n for _, n in scores(r.tree)) == r.depth


def test_hard_mode_refused(small_pm):
    from gpusolve.core.errors import GpusolveError

    with pytest.raises(GpusolveError):
        worst_case(small_pm, mode="hard")


def test_cli_worst_case():
    runner = CliRunner()
    words = "--answers", FAMILY
    r = runner.invoke(app, ["worst-case", *words, "--guesses", "answers"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["worst-case", "--mode", "hard", *words])
    assert r.exit_code == 2 and r.output.startswith("error: ")


# ---- Evil Wordle, Antiwordle and the seed 004 policies (greedy trees) ----


def test_evil_path_tie_rule():
    from gpusolve.core.trees import Node
    from gpusolve.search.adversary import evil_path

    tree = Node("ABCDE", 4, {0: Node("FGHIJ", 2, {242: "FGHIJ", 1: "KLMNO"}),
                             5: Node("PQRST", 2, {242: "PQRST", 2: "UVWXY"}), 242: "ABCDE"})
    assert evil_path(tree, 242) == [("ABCDE", 0), ("FGHIJ", 1), ("KLMNO", 242)]


@pytest.mark.slow
def test_evil_wordle_seed_000(small_pm):
    from gpusolve.search.adversary import evil_path
    from gpusolve.search.greedy import greedy_tree

    tree = greedy_tree(small_pm, "max", "normal", free_max=125)
    path = [(g, small_pm.game.format_reply(r)) for g, r in evil_path(tree, small_pm.game.solved)]
    assert path == [("ARISE", "....."), ("BLOND", "....."), ("DUMPY", ".YYY."), ("CHUMP", ".GGGG"),
                    ("THUMP", "GGGGG")]


def test_antiwordle_seed_000(small_pm):
    from gpusolve.core.trees import summarize
    from gpusolve.search.adversary import antiwordle_tree

    s = summarize(antiwordle_tree(small_pm))
    assert s.first_guess == "FUZZY" and round(s.mean, 2) == 5.75 and round(s.stdev, 2) == 1.61
    assert s.worst == 11 and s.median == 6
    assert s.cumulative() == "≤2:1%, ≤3:8%, ≤4:23%, ≤5:44%, ≤6:68%, ≤7:87%, ≤8:96%, ≤9:99%, ≤10:99.7%"


def test_policies_splits_and_prune(small_pm):
    from gpusolve.search.adversary import policy_table

    rows = {(r["metric"], r["mode"]): r for r in policy_table(small_pm)}
    assert rows["splits", "normal"]["first_guess"] == "TRACE"  # seed 004's MaxSplits start
    assert rows["splits", "normal"]["mean"] == 3.4855 and rows["splits", "hard"]["mean"] == 3.563
    assert rows["prune", "normal"]["mean"] == 3.5539 and rows["prune", "hard"]["mean"] == 3.6535
    assert rows["entropy", "normal"]["mean"] == 3.524


def test_cli_evil_and_antiwordle(tmp_path):
    runner = CliRunner()
    family = FAMILY
    r = runner.invoke(app, ["evil", "--guesses", family, "--answers", family, "--json"])
    assert r.exit_code == 0 and '"reply": "GGGGG"' in r.output
    r = runner.invoke(app, ["evil", "--tree", str(tmp_path / "missing.json")])
    assert r.exit_code == 2 and r.output.startswith("error: ")
    r = runner.invoke(app, ["antiwordle", "--guesses", "answers"])
    assert r.exit_code == 0 and 'first guess: FUZZY' in r.output


def test_min_depth_gives_an_upper_bound():
    r = CliRunner().invoke(app, ["worst-case", "--answers", FAMILY, "--min-depth", "4",
                                 "--json"])
    assert r.exit_code == 0 and '"proven": false' in r.output and '"worst": 3' in r.output
