"""Bounding a start word's total (``gpusolve.runs.bounding``, ``optimal-tree --bounds``): at every
stage of a run, stopped anywhere, the lower bound is at most the least total (computed by the
exact search, itself checked against brute force) and the assembled tree is valid with the upper
bound as its total; a resumed run ends where a straight one does."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_optimal import brute_force, random_instance
from typer.testing import CliRunner

import gpusolve.cli
from gpusolve.core.errors import GpusolveError, Infeasible
from gpusolve.core.games import make_game
from gpusolve.core.treefiles import load_tree
from gpusolve.core.trees import scores
from gpusolve.core.verify import verify_tree
from gpusolve.runs import bounding
from gpusolve.runs.bounding import bound_start, check_fits, fitted_tree
from gpusolve.runs.runstore import RunStore
from gpusolve.search import optimal
from gpusolve.search.optimal import Options, Question, solve

INSTANCES = [("jotto", 0, 60, 80, 6), ("jotto", 2, 60, 80, 6), ("wordle", 1, 80, 100, 4),
             ("mastermind", 0, 27, 40, 4)]
"""(game, seed, answers, guesses, max guesses) of small games whose buckets need searches."""


def least_total(pm, start: str, max_guesses: int) -> int | None:
    """Return the least total of first guess ``start`` (None: no strategy within the limit)."""
    try:
        return solve(pm, Question(start=start, max_guesses=max_guesses), Options(workers=1, memo_mb=1)).total
    except Infeasible:
        return None


def bucket_values(pm, start: str, max_guesses: int) -> dict[int, int]:
    """Return V of every bucket of ``start`` (guesses after it), by the exact search."""
    row = pm.guess_index[start]
    out = {}
    for p in np.unique(pm.codes[row]):
        if p != pm.game.solved:
            res = solve(pm, Question(moves=((start, int(p)),), max_guesses=max_guesses),
                        Options(workers=1, memo_mb=1))
            out[int(p)] = res.total
    return out


def instance(game: str, seed: int, n_answers: int, n_guesses: int, max_guesses: int):
    """Return (the matrix, a start word, its least total, its buckets' values) of an instance."""
    pm = random_instance(game, seed, n_answers, n_guesses)
    start = pm.guesses[seed * 7 % n_guesses]
    return pm, start, least_total(pm, start, max_guesses), bucket_values(pm, start, max_guesses)


def check(result, pm, optimum: int, values: dict[int, int]) -> None:
    """Assert what a run (stopped or not) claims is true: bounds around the optimum bucket by
    bucket, and a valid tree of the upper bound's total."""
    assert result.lower <= optimum
    for b in result.buckets:
        assert b.lower <= values[b.reply], b.label
        if b.upper is not None:
            assert b.upper >= values[b.reply]
    if result.upper is None:
        assert result.tree is None
        return
    assert result.upper >= optimum
    assert verify_tree(result.tree, pm, "normal", result.max_guesses) == []
    assert sum(k for _, k in scores(result.tree)) == result.upper
    if result.complete:
        assert result.lower == result.upper == optimum


@pytest.fixture
def quick(monkeypatch):
    """Searches with almost no time at level 0, so that buckets climb the levels."""
    monkeypatch.setattr(bounding, "SEARCH_SECONDS", 0.002)


@pytest.mark.parametrize("game, seed, n_answers, n_guesses, max_guesses", INSTANCES)
def test_straight_run_proves_the_least_total(tmp_path, quick, game, seed, n_answers, n_guesses, max_guesses):
    pm = random_instance(game, seed, n_answers, n_guesses)
    start = pm.guesses[seed * 7 % n_guesses]
    optimum = least_total(pm, start, max_guesses)
    result = bound_start(pm, start, max_guesses=max_guesses, run_dir=tmp_path, workers=1, memo_mb=1)
    check(result, pm, optimum, bucket_values(pm, start, max_guesses))
    assert result.complete and result.stopped is None
    assert result.first_pass <= result.second_pass <= optimum
    status = json.loads((tmp_path / bounding.STATUS).read_text())
    assert status["lower"] == status["upper"] == optimum and status["proven"]


@pytest.mark.parametrize("game, seed, n_answers, n_guesses, max_guesses", INSTANCES)
def test_searches_given_their_first_guesses_second_pass_bounds_prove_the_least_total(
        tmp_path, quick, monkeypatch, game, seed, n_answers, n_guesses, max_guesses):
    pm, start, optimum, values = instance(game, seed, n_answers, n_guesses, max_guesses)
    monkeypatch.setattr(bounding, "SECOND_PASS_SECONDS", 0.0)
    monkeypatch.setattr(optimal, "FIRST_PASS_MIN_ANSWERS", 1)  # every bucket's search takes them
    given = []
    solve_alone = optimal.solve

    def solve_noting(pm, question, options=None):
        if question.start is None and options is not None and options.bucket_bounds is not None:
            given.append(len(options.bucket_bounds))
        return solve_alone(pm, question, options)

    monkeypatch.setattr(optimal, "solve", solve_noting)
    result = bound_start(pm, start, max_guesses=max_guesses, run_dir=tmp_path, workers=1, memo_mb=1)
    check(result, pm, optimum, values)
    assert result.complete and result.lower == optimum
    assert given  # the bucket searches were given second-pass bounds


def test_the_searches_raise_bounds_beyond_the_second_pass(tmp_path):
    pm = random_instance("jotto", 0, 60, 80)
    start = pm.guesses[0]
    result = bound_start(pm, start, run_dir=tmp_path, workers=1, memo_mb=1)
    assert result.second_pass < result.lower == least_total(pm, start, 6)
    assert result.how().get("exact by search", 0) >= 1


def test_the_least_total_matches_brute_force(tmp_path):
    pm = random_instance("mastermind", 3, 12, 16)
    optimum = brute_force(pm, "normal", 3)
    best = min(bound_start(pm, w, max_guesses=3, run_dir=tmp_path / w, workers=1, memo_mb=1).lower
               for w in pm.guesses)
    assert best == optimum


class _Stop:
    """Raise KeyboardInterrupt (Ctrl-C) at the N-th write to the run store."""

    def __init__(self, at: int) -> None:
        self.at, self.writes = at, 0

    def __call__(self, save):
        def stopping(store, *args, **kw):
            self.writes += 1
            if self.writes == self.at:
                raise KeyboardInterrupt
            return save(store, *args, **kw)
        return stopping


@pytest.mark.parametrize("game, seed, n_answers, n_guesses, max_guesses", INSTANCES[:3])
def test_stopped_anywhere_the_claims_hold_and_resume_ends_as_a_straight_run(
        tmp_path, monkeypatch, quick, game, seed, n_answers, n_guesses, max_guesses):
    pm, start, optimum, values = instance(game, seed, n_answers, n_guesses, max_guesses)
    straight = bound_start(pm, start, max_guesses=max_guesses, run_dir=tmp_path / "straight", workers=1,
                           memo_mb=1)
    original = RunStore.save
    at = 1
    while True:  # stop at the 1st write, resume, stop at the 2nd write after that, ...
        stop = _Stop(at)
        monkeypatch.setattr(RunStore, "save", stop(original))
        result = bound_start(pm, start, max_guesses=max_guesses, run_dir=tmp_path / "resumed", workers=1,
                             memo_mb=1)
        monkeypatch.setattr(RunStore, "save", original)
        check(result, pm, optimum, values)
        if result.stopped is None:
            break
        assert result.stopped == "interrupted" and not result.complete
        at += 1
    assert at > 3  # it was stopped in several places
    assert (result.lower, result.upper, result.complete) == (straight.lower, straight.upper, True)
    assert [(b.label, b.lower, b.upper) for b in result.buckets] == \
        [(b.label, b.lower, b.upper) for b in straight.buckets]


def test_a_time_limit_stops_the_run_and_a_rerun_goes_further(tmp_path):
    pm = random_instance("jotto", 0, 60, 80)
    start = pm.guesses[0]
    optimum = least_total(pm, start, 6)
    values = bucket_values(pm, start, 6)
    first = bound_start(pm, start, run_dir=tmp_path, seconds=1e-4, workers=1, memo_mb=1)
    assert first.stopped == "time limit" and not first.complete  # after the bounds, before any tree
    assert first.lower == first.second_pass and first.upper is None
    check(first, pm, optimum, values)
    again = bound_start(pm, start, run_dir=tmp_path, workers=1, memo_mb=1)
    check(again, pm, optimum, values)
    assert again.complete and again.lower == optimum and again.searches_now >= 1


def test_buckets_the_greedy_trees_and_screens_miss_get_the_worst_case_searchs_trees(tmp_path, monkeypatch):
    pm = random_instance("jotto", 2, 60, 80)
    start = pm.guesses[14]
    monkeypatch.setattr(bounding, "fitted_tree", lambda *args: None)
    monkeypatch.setattr(bounding._Run, "_screened_tree", lambda run, b, ends: None)
    monkeypatch.setattr(bounding._Run, "_restricted_tree", lambda run, b, candidates, seconds: None)
    monkeypatch.setattr(bounding, "TREE_SECONDS", 3600.0)  # its compile on a loaded machine: no miss
    result = bound_start(pm, start, run_dir=tmp_path, workers=1, memo_mb=1)
    check(result, pm, least_total(pm, start, 6), bucket_values(pm, start, 6))
    assert result.complete
    first_trees = _first_trees(tmp_path, pm, start)
    assert len(first_trees) == len(result.buckets) and set(first_trees.values()) == {"worst-case"}


def test_the_restricted_searches_find_the_buckets_best_trees_where_no_search_finishes(tmp_path, monkeypatch):
    """With every first guess among the restricted search's and no bucket search finishing, the
    restricted searches alone give every bucket its least cost's tree: the assembled tree totals
    the least total, while the lower bound stays the bounds'."""
    pm = random_instance("jotto", 0, 60, 80)
    start = pm.guesses[0]
    tried = set()

    def no_search(run, b, cutoff, seconds):  # never finishes; stops the run once level 0 is spent
        if b.label in tried:
            raise bounding._TimeUp
        tried.add(b.label)
        return False

    monkeypatch.setattr(bounding._Run, "_search", no_search)
    monkeypatch.setattr(bounding, "RESTRICTED_CANDIDATES", len(pm.guesses))
    result = bound_start(pm, start, run_dir=tmp_path, workers=1, memo_mb=1)
    values = bucket_values(pm, start, 6)
    check(result, pm, least_total(pm, start, 6), values)
    assert result.stopped == "time limit" and result.upper == least_total(pm, start, 6)
    assert all(b.upper == values[b.reply] for b in result.buckets)
    assert "restricted search" in {b.upper_how for b in result.buckets}
    assert any(b.lower < b.upper for b in result.buckets)  # the bounds alone prove less


def test_a_restricted_searchs_first_guess_out_of_time_holds_up_none_after_it(tmp_path, monkeypatch):
    """Each bucket's best first guess by size bound never finishes (as LANTS's Y...G's GOIER does
    not in a minute, on the big hidden list): the restricted search gives it its share of the time
    only, and the guesses after it still give the buckets their trees, valid and verified."""
    import dataclasses

    from gpusolve.core.history import remaining_answers
    from gpusolve.search import optimal

    pm = random_instance("jotto", 0, 60, 80)
    start = pm.guesses[0]
    tried, stuck, found = set(), [], []
    real = optimal.solve

    def first_out_of_time(pm, question, options):  # a bucket's first guess (or all at once): no result
        res = real(pm, question, options)
        answers = remaining_answers(pm, list(question.moves))
        first = pm.guesses[bounding.restricted_guesses(pm, answers, "normal", 5, 1)[0][0]]
        if question.start in (None, first):
            stuck.append(question.start)
            return dataclasses.replace(res, tree=None, total=None, interrupted=True, proven=False)
        found.append(question.start)
        return res

    def no_search(run, b, cutoff, seconds):  # never finishes; stops the run once level 0 is spent
        if b.label in tried:
            raise bounding._TimeUp
        tried.add(b.label)
        return False

    monkeypatch.setattr(optimal, "solve", first_out_of_time)
    monkeypatch.setattr(bounding._Run, "_search", no_search)
    monkeypatch.setattr(bounding, "RESTRICTED_CANDIDATES", len(pm.guesses))
    result = bound_start(pm, start, run_dir=tmp_path, workers=1, memo_mb=1)
    check(result, pm, least_total(pm, start, 6), bucket_values(pm, start, 6))
    assert stuck and None not in stuck and found
    assert "restricted search" in {b.upper_how for b in result.buckets}


def _greedy_and_worst_case_miss(monkeypatch) -> None:
    """Leave every bucket of two or more answers without a repaired greedy, restricted search's or
    worst-case tree."""
    fitted = bounding.fitted_tree
    monkeypatch.setattr(bounding, "fitted_tree",
                        lambda pm, answers, *args: fitted(pm, answers, *args) if len(answers) == 1 else None)
    monkeypatch.setattr(bounding._Run, "_worst_case_tree", lambda run, b: None)
    monkeypatch.setattr(bounding._Run, "_restricted_tree", lambda run, b, candidates, seconds: None)


def _first_trees(tmp_path, pm, start) -> dict[str, str]:
    """Return how each bucket's first tree of a run was found (by reply)."""
    with RunStore(tmp_path, bounding.bounds_job(pm, None, None, "normal", 6) | {"start": start}) as store:
        ups = sorted((r["total"], u.split(":")[1], r["how"]) for u, r in store.results().items()
                     if u.startswith("upper:"))
    return {label: how for _, label, how in ups}  # the largest total, the first tree, comes last


@pytest.mark.parametrize("game, seed, n_answers, n_guesses, max_guesses", INSTANCES[:2])
def test_buckets_only_a_screen_finds_trees_for_have_one_after_the_trees_phase(
        tmp_path, monkeypatch, game, seed, n_answers, n_guesses, max_guesses):
    """With the greedy and worst-case trees missing, the screens (their checks' budgets growing from
    one node, round by round) give every bucket a tree before any search: the report has a
    whole, verified tree; the run then ends as usual."""
    pm = random_instance(game, seed, n_answers, n_guesses)
    start = pm.guesses[seed * 7 % n_guesses]
    _greedy_and_worst_case_miss(monkeypatch)
    monkeypatch.setattr(bounding, "SCREEN_NODES", 1)
    monkeypatch.setattr(bounding._Run, "searches", lambda run: None)
    optimum, values = least_total(pm, start, max_guesses), bucket_values(pm, start, max_guesses)
    trees = bound_start(pm, start, max_guesses=max_guesses, run_dir=tmp_path, workers=1, memo_mb=1)
    check(trees, pm, optimum, values)
    assert trees.upper is not None and trees.gap is not None and trees.tree is not None
    assert {b.upper_how for b in trees.buckets if len(b.answers) > 1} == {"screen"}
    monkeypatch.undo()
    done = bound_start(pm, start, max_guesses=max_guesses, run_dir=tmp_path, workers=1, memo_mb=1)
    check(done, pm, optimum, values)
    assert done.complete and done.lower == optimum


def test_a_screen_out_of_time_goes_on_at_the_levels(tmp_path, monkeypatch, quick):
    """A screen given no time checks one candidate per turn (two candidates, from a one-node budget
    per check): the buckets left without a tree get theirs from their screens' next turns, level
    by level, unless a search settles them first."""
    pm = random_instance("jotto", 2, 60, 80)
    start = pm.guesses[14]
    _greedy_and_worst_case_miss(monkeypatch)
    monkeypatch.setattr(bounding, "SCREEN_SECONDS", 0.0)
    monkeypatch.setattr(bounding, "SCREEN_NODES", 1)
    monkeypatch.setattr(bounding, "SCREEN_CANDIDATES", 2)
    turns: dict[int, int] = {}
    run = bounding._Screen.run

    def counted(screen, ends):
        turns[id(screen)] = turns.get(id(screen), 0) + 1
        return run(screen, ends)

    monkeypatch.setattr(bounding._Screen, "run", counted)
    result = bound_start(pm, start, run_dir=tmp_path, workers=1, memo_mb=1)
    check(result, pm, least_total(pm, start, 6), bucket_values(pm, start, 6))
    assert result.complete
    assert max(turns.values()) > 1
    assert "screen" in _first_trees(tmp_path, pm, start).values()


def test_no_strategy_within_the_guesses_is_proven_by_a_bound(tmp_path):
    pm = random_instance("wordle", 0, 80, 100)
    result = bound_start(pm, pm.guesses[0], max_guesses=2, run_dir=tmp_path, workers=1, memo_mb=1)
    assert result.infeasible and result.complete and result.tree is None
    assert "cannot find every answer within 2 guesses" in result.statement()


@pytest.mark.parametrize("seed", range(4))
def test_fitted_trees_are_valid_within_the_guesses_left(seed):
    pm = random_instance("wordle", seed, 60, 90)
    answers = np.arange(pm.shape[1], dtype=np.int32)
    for depth in (2, 3, 4):
        found = fitted_tree(pm, answers, depth)
        optimum = least_total_of_set(pm, depth)
        if found is None:
            continue
        tree, total = found
        assert verify_tree(tree, pm, "normal", depth) == []
        assert total == sum(k for _, k in scores(tree)) >= optimum


def least_total_of_set(pm, depth: int) -> int:
    """Return the least total over all first guesses within ``depth`` guesses (INF: none)."""
    try:
        return solve(pm, Question(max_guesses=depth), Options(workers=1, memo_mb=1)).total
    except Infeasible:
        return 10**9


def test_other_parameters_in_the_run_directory_are_refused(tmp_path):
    pm = random_instance("jotto", 0, 60, 80)
    bound_start(pm, pm.guesses[0], run_dir=tmp_path, workers=1, memo_mb=1)
    with pytest.raises(GpusolveError, match="other parameters"):
        bound_start(pm, pm.guesses[1], run_dir=tmp_path, workers=1, memo_mb=1)


def test_hard_mode_and_an_unknown_word_are_refused(tmp_path):
    pm = random_instance("wordle", 0, 20, 30)
    with pytest.raises(GpusolveError, match="normal or consistent"):
        bound_start(pm, pm.guesses[0], mode="hard", run_dir=tmp_path)
    with pytest.raises(GpusolveError):
        bound_start(pm, "ZZZZZ", run_dir=tmp_path)


def test_what_cannot_fit_is_refused_up_front():
    with pytest.raises(GpusolveError, match="bounding run"):
        check_fits(make_game("wordle"), 10**6, 10**6, 2, 512, 6)
    check_fits(make_game("wordle"), 12_972, 12_972, 2, 512, 6)  # the big hidden list fits in a few GB


runner = CliRunner()


def test_cli_bounds_writes_a_tree_that_verifies(tmp_path):
    out = tmp_path / "tree.json"
    args = ["optimal-tree", "--game", "wordle3", "--start", "TEA", "--bounds", "--run-dir",
            str(tmp_path / "run"), "--out", str(out), "--json", "--workers", "1", "--memo-mb", "8",
            "--max-guesses", "8"]
    res = runner.invoke(gpusolve.cli.app, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["proven"] and data["lower"] == data["upper"] and data["gap"] == 0
    assert data["first_pass"] <= data["second_pass"] <= data["lower"]
    res = runner.invoke(gpusolve.cli.app, ["verify", str(out), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["valid"] and json.loads(res.stdout)["summary"]["total"] == data["upper"]
    tree, _, _ = load_tree(out)
    assert tree.guess == "TEA"
    exact = runner.invoke(gpusolve.cli.app, ["optimal-tree", "--game", "wordle3", "--start", "TEA", "--json",
                                             "--max-guesses", "8"])
    assert json.loads(exact.stdout)["total"] == data["lower"]


def test_cli_bounds_no_strategy_is_one_error_line(tmp_path):
    res = runner.invoke(gpusolve.cli.app, ["optimal-tree", "--game", "wordle3", "--start", "TEA", "--bounds",
                                           "--run-dir", str(tmp_path), "--workers", "1", "--memo-mb", "8",
                                           "--max-guesses", "2"])
    assert res.exit_code == 2
    assert res.output.startswith("error: TEA cannot find every answer within 2 guesses")


@pytest.mark.parametrize("extra, message", [
    ([], "takes --start"),
    (["--start", "TEA", "--state", "TEA:....."], "takes --start"),
    (["--start", "TEA", "--cutoff", "100"], "takes --start"),
    (["--start", "TEA", "--rank"], "no --rank"),
    (["--start", "TEA", "--objective", "worst-case"], "no --rank"),
    (["--start", "TEA", "--mode", "hard"], "normal or consistent"),
])
def test_cli_bounds_bad_options(tmp_path, extra, message):
    res = runner.invoke(gpusolve.cli.app, ["optimal-tree", "--game", "wordle3", "--bounds",
                                           "--run-dir", str(tmp_path), *extra])
    assert res.exit_code == 2
    assert message in res.output and "Traceback" not in res.output
