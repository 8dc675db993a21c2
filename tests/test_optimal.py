"""The exact optimal-tree search against a brute-force oracle, its trees, errors and CLI."""

from __future__ import annotations

import json
import random
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import gpusolve.cli
from gpusolve.core.backend import CpuBackend
from gpusolve.core.errors import GpusolveError, Infeasible
from gpusolve.core.games import jotto_allowable, make_game
from gpusolve.core.modes import hard_mode_allows
from gpusolve.core.patterns import PatternMatrix, pattern_matrix
from gpusolve.core.treefiles import load_tree
from gpusolve.core.trees import Node, scores
from gpusolve.core.verify import verify_tree
from gpusolve.core.words import read_words
from gpusolve.search.optimal import Options, Question, solve

INF = float("inf")


def small_matrix(game, guesses, answers) -> PatternMatrix:
    """Return a pattern matrix built by the pure-Python reply rule."""
    codes = np.array([[game.reply(g, a) for a in answers] for g in guesses], np.uint8)
    return PatternMatrix(game, tuple(guesses), tuple(answers), codes, CpuBackend())


def brute_force(pm: PatternMatrix, mode: str, max_guesses: int, start: str | None = None) -> float:
    """Return the least total guesses by trying every guess at every node (no pruning; the first
    one ``start`` where given)."""
    game = pm.game
    reply = {(g, a): game.reply(g, a) for g in pm.guesses for a in pm.answers}

    @cache
    def value(answers: frozenset, depth: int, allowed: frozenset) -> float:
        if depth == 0:
            return INF
        best = INF
        choices = answers if mode == "consistent" else allowed
        if start is not None and depth == max_guesses:
            choices = [start]
        for g in sorted(choices):
            buckets: dict[int, set] = {}
            for a in answers:
                buckets.setdefault(reply[g, a], set()).add(a)
            cost = len(answers)
            for p, bucket in buckets.items():
                if p == game.solved:
                    continue
                after = allowed
                if mode == "hard":
                    after = frozenset(h for h in allowed if hard_mode_allows(game, h, [(g, p)]))
                cost += value(frozenset(bucket), depth - 1, after)
            best = min(best, cost)
        return best

    return value(frozenset(pm.answers), max_guesses, frozenset(pm.guesses))


def check_tree(tree, pm: PatternMatrix, max_guesses: int, total: int, mode: str) -> None:
    """Assert the tree finds every answer once, with correct replies, in time, at ``total``."""
    game = pm.game
    seen = []

    def walk(t, answers, depth, moves):
        if isinstance(t, str):
            assert answers == [t]
            seen.append((t, depth))
            return
        assert isinstance(t, Node) and t.size == len(answers)
        if mode == "hard":
            assert hard_mode_allows(game, t.guess, moves)
        if mode == "consistent":
            assert t.guess in answers
        for p, sub in t.branches.items():
            bucket = [a for a in answers if game.reply(t.guess, a) == p]
            assert bucket
            if p == game.solved:
                assert sub == t.guess and bucket == [t.guess]
                seen.append((t.guess, depth))
            else:
                walk(sub, bucket, depth + 1, [*moves, (t.guess, p)])
        covered = sum(len([a for a in answers if game.reply(t.guess, a) == p]) for p in t.branches)
        assert covered == len(answers)

    assert verify_tree(tree, pm, mode, max_guesses) == []
    walk(tree, list(pm.answers), 1, [])
    assert sorted(a for a, _ in seen) == sorted(pm.answers)
    assert max(d for _, d in seen) <= max_guesses
    assert sum(d for _, d in seen) == total
    assert sorted(scores(tree)) == sorted(seen)


WORDLE_WORDS = read_words("answers", make_game().alphabet)
SGB_WORDS = read_words("sgb", make_game("jotto").alphabet)


def random_instance(kind: str, seed: int, n_answers: int, n_guesses: int) -> PatternMatrix:
    """Return a small random instance of a game: answers among the guesses."""
    rng = random.Random(seed)
    if kind == "wordle":
        game = make_game("wordle")
        # words sharing letters make for interesting partitions: draw from a few first letters
        pool = [w for w in WORDLE_WORDS if w[0] in "SCBT"]
        guesses = rng.sample(pool, n_guesses)
    elif kind == "jotto":
        game = make_game("jotto")
        pool = list(jotto_allowable(SGB_WORDS))  # no anagrams: reply 5 means found
        guesses = rng.sample(pool, n_guesses)
    else:
        game = make_game("mastermind", 3, 4)
        guesses = rng.sample(game.word_lists(None, None)[0], n_guesses)
    answers = rng.sample(guesses, n_answers)
    return small_matrix(game, sorted(guesses), sorted(answers))


def solved_total(pm, mode, max_guesses, vector_max=None, at_once=False):
    """Return (V, the result): the driver settles the root guess by guess, or (``at_once``) the
    compiled search takes the whole set (``_Search.settle_at_once``)."""
    try:
        result = solve(pm, Question(mode=mode, max_guesses=max_guesses),
                       Options(workers=1, memo_mb=1, vector_max=vector_max, at_once=at_once))
    except GpusolveError as e:
        assert "no strategy finds every answer within" in str(e)
        return INF, None
    assert result.proven
    return result.total, result


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(["wordle", "jotto", "mastermind"]),
    mode=st.sampled_from(["normal", "hard", "consistent"]),
    seed=st.integers(0, 10**6),
    n_answers=st.integers(6, 13),
    extra=st.integers(8, 22),
    max_guesses=st.integers(2, 5),
)
def test_matches_brute_force(kind, mode, seed, n_answers, extra, max_guesses):
    pm = random_instance(kind, seed, n_answers, n_answers + extra)
    expected = brute_force(pm, mode, max_guesses)
    total, result = solved_total(pm, mode, max_guesses)
    assert total == expected
    if result is not None:
        check_tree(result.tree, pm, max_guesses, total, mode)


@pytest.mark.parametrize("kind", ["wordle", "jotto", "mastermind"])
@pytest.mark.parametrize("mode", ["normal", "hard", "consistent"])
def test_fixed_instances(kind, mode):
    seeds = 1 if (kind, mode) == ("wordle", "hard") else 4  # the oracle is slow there
    for seed in range(seeds):
        pm = random_instance(kind, 1000 + seed, 15, 25)
        for max_guesses in (3, 4, 6):
            expected = brute_force(pm, mode, max_guesses)
            total, result = solved_total(pm, mode, max_guesses)
            assert total == expected, (seed, max_guesses)
            # the guess-by-guess scan that large sets use
            assert solved_total(pm, mode, max_guesses, vector_max=0)[0] == expected
            # the whole set at once, as the assistant asks
            at_once, tree = solved_total(pm, mode, max_guesses, at_once=True)
            assert at_once == expected
            if tree is not None:
                check_tree(tree.tree, pm, max_guesses, at_once, mode)
            if result is not None:
                check_tree(result.tree, pm, max_guesses, total, mode)


def test_start_word_and_alternatives_match_brute_force():
    pm = random_instance("wordle", 7, 12, 30)
    per_guess = {}
    for g in pm.guesses:
        try:
            per_guess[g] = solve(pm, Question(start=g, max_guesses=4), Options(workers=1)).total
        except GpusolveError:
            per_guess[g] = INF
    assert min(per_guess.values()) == brute_force(pm, "normal", 4)
    result = solve(pm, Question(max_guesses=4, alternatives=3), Options(workers=1))
    exact = [a for a in result.alternatives if a.exact]
    assert [a.total for a in exact[:4]] == sorted(per_guess.values())[:4]
    for a in exact:
        assert per_guess[a.guess] == a.total


def test_two_workers_agree():
    pm = random_instance("mastermind", 3, 30, 64)
    one = solve(pm, Question(max_guesses=4), Options(workers=1)).total
    two = solve(pm, Question(max_guesses=4), Options(workers=2)).total
    assert one == two


def test_infeasible_depth_is_an_error():
    pm = random_instance("jotto", 5, 12, 20)
    with pytest.raises(GpusolveError, match="no strategy finds every answer within 1 guesses"):
        solve(pm, Question(max_guesses=1))
    with pytest.raises(GpusolveError, match="within 2 guesses"):
        solve(pm, Question(max_guesses=2, mode="consistent"))


def test_infeasible_is_told_apart_by_its_class_not_its_message():
    """Callers that expect impossibility (rankings, proofs) catch ``Infeasible``; other errors
    (here a bad start word) are not of that class."""
    pm = random_instance("jotto", 5, 12, 20)
    with pytest.raises(Infeasible):
        solve(pm, Question(max_guesses=1))
    with pytest.raises(GpusolveError) as bad:
        solve(pm, Question(start="QQQQQ"))
    assert not isinstance(bad.value, Infeasible)


def test_cutoff_answers_at_least():
    pm = random_instance("wordle", 11, 12, 30)
    best = solve(pm, Question(max_guesses=5)).total
    below = solve(pm, Question(max_guesses=5, cutoff=best + 1))
    assert below.below_cutoff and below.total == best
    above = solve(pm, Question(max_guesses=5, cutoff=best))
    assert not above.below_cutoff and above.total is None and above.proven


def test_state_position_values():
    pm = pattern_matrix(make_game(), "allowed", "answers-2315", "cpu")
    code = pm.game.parse_reply(".....")
    moves = (("SALET", code), ("CRONY", pm.game.parse_reply(".Y..G")))
    result = solve(pm, Question(moves=moves, alternatives=3), Options(workers=1))
    assert result.proven and result.n_answers == 5
    assert result.total == 10  # a guess splits the 5 answers: 2 more guesses each
    assert all(a.total >= result.total for a in result.alternatives)


def test_a_bad_start_is_a_one_line_error():
    pm = random_instance("wordle", 1, 8, 16)
    with pytest.raises(GpusolveError, match="not in the guess list"):
        solve(pm, Question(start="ZZZZZ"))


@pytest.mark.slow
def test_salet_normal_7920(salet_2315):
    pm, result = salet_2315
    assert result.total == 7920 and result.proven
    assert round(result.mean, 4) == 3.4212
    assert sum(result.histogram.values()) == 2315 and result.worst <= 6
    check_tree(result.tree, pm, 6, 7920, "normal")


@pytest.mark.slow
def test_salet_hard_8122():
    pm = pattern_matrix(make_game(), "allowed", "answers-2315", "cpu")
    result = solve(pm, Question(start="SALET", mode="hard"))
    assert result.total == 8122 and result.proven
    check_tree(result.tree, pm, 6, 8122, "hard")


runner = CliRunner()


def test_cli_start_json_and_tree(tmp_path):
    out = tmp_path / "tree.json"
    r = runner.invoke(gpusolve.cli.app, [
        "optimal-tree", "--game", "mastermind", "--length", "3", "--colours", "3",
        "--start", "112", "--json", "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert set(data) >= {"first_guess", "total", "mean", "worst", "histogram", "proven", "nodes", "seconds"}
    assert data["first_guess"] == "112" and data["proven"]
    tree, game, info = load_tree(out)
    assert info["max_guesses"] == 6 and game.name == "mastermind"
    assert sum(d for _, d in scores(tree)) == data["total"]


def test_cli_candidates_text():
    r = runner.invoke(gpusolve.cli.app, [
        "optimal-tree", "--game", "mastermind", "--length", "3", "--colours", "3", "--candidates", "2"])
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    # what is proven is said with its scope: the best of two candidates, not of every first guess
    # (one per class under the game's symmetries: 111, 112, 123 stand for all 27)
    scope = ("112 (and its symmetric images) is the best start word of the 2 candidates tried (the best "
             "by size bound of one per class under the game's symmetries), not of all 27 first guesses")
    assert f"proven: yes, {scope}" in text


def test_cli_state_text_and_json():
    base = ["optimal-tree", "--game", "mastermind", "--length", "3", "--colours", "3", "--state", "112:1B1W"]
    r = runner.invoke(gpusolve.cli.app, base)
    assert r.exit_code == 0, r.output
    assert "best next guess" in r.output and "more guesses" in r.output
    r = runner.invoke(gpusolve.cli.app, [*base, "--json"])
    data = json.loads(r.stdout)
    assert data["moves"] == 1 and data["alternatives"][0]["total"] == data["total"]
    assert all(a["total"] >= data["total"] for a in data["alternatives"])


@pytest.mark.parametrize("args,message", [
    (["--max-guesses", "1"], "no strategy finds every answer within 1 guesses"),
    (["--mode", "easy"], "unknown mode"),
    (["--start", "1234"], "has 4 letters"),
    (["--state", "112"], "malformed move"),
])
def test_cli_errors(args, message):
    r = runner.invoke(gpusolve.cli.app, [
        "optimal-tree", "--game", "mastermind", "--length", "3", "--colours", "3", *args])
    assert r.exit_code == 2
    assert "error:" in r.output and message in r.output
    assert len(r.output.strip().splitlines()) == 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(["wordle", "jotto", "mastermind"]),
    mode=st.sampled_from(["normal", "hard", "consistent"]),
    seed=st.integers(0, 10**6),
    depth=st.integers(2, 5),
)
def test_every_cutoff_gives_exact_values_below_and_true_bounds_above(kind, mode, seed, depth):
    """The kernel's contract for every beta: exact below it, a true lower bound at or above it."""
    from gpusolve.kernels.config import INF as big

    from gpusolve.search.optimal import _Context, _Workspace

    pm = random_instance(kind, seed, 12, 24)
    ctx = _Context(pm, mode, 6)
    rng = random.Random(seed)
    stop = np.zeros(1, np.int64)
    for size in (3, 4, 6, 12):
        cols = sorted(rng.sample(range(len(pm.answers)), size))
        sub = small_matrix(pm.game, pm.guesses, [pm.answers[i] for i in cols])
        answers = np.array(cols, np.int32)
        rows = np.arange(len(pm.guesses), dtype=np.int32)
        if mode == "consistent":
            rows = ctx.answer_rows[answers].copy()
        expected = brute_force(sub, mode, depth)
        true = big if expected == INF else expected
        for beta in range(2 * size - 1, min(true, 4 * size) + 2):
            for entries in (16, 1 << 12):
                v = _Workspace(ctx, entries).solve(answers, depth, beta, rows, (), stop)[0]
                if v < beta:
                    assert v == true
                else:
                    assert beta <= v <= true


def test_guess_table_matches_brute_force():
    from gpusolve.search.bounds import guess_table

    pm = random_instance("wordle", 3, 20, 40)
    got = guess_table(pm, np.arange(20, dtype=np.int32), np.arange(40, dtype=np.int32))
    brute = [[len({pm.codes[g, a] for a in range(20)}), int(g in pm.answer_rows),
              sum(c * c for c in np.bincount(pm.codes[g, :20]))] for g in range(40)]
    assert got.tolist() == brute
    assert solve(pm, Question(max_guesses=4), Options(workers=1)).total == brute_force(pm, "normal", 4)
