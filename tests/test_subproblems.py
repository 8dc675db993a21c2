"""Solved subproblems reused across start words and runs: the same results with and without reuse,
fewer nodes when resuming, the memo tables' preload and harvest, and kills during the writes."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wordfiles import ANAGRAMS, anagram_lists, small_lists

from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix
from gpusolve.runs.runstore import DATABASE, FAULT, RunStore
from gpusolve.runs.startrank import rank_exact
from gpusolve.runs.subproblems import Subproblems
from gpusolve.runs.units import make_job
from gpusolve.search.memo import Entries, MemoPool
from gpusolve.search.optimal import Options, Question, solve


@pytest.fixture(scope="module")
def anagrams(tmp_path_factory):
    lists = anagram_lists(tmp_path_factory.mktemp("anagrams"))
    return lists, pattern_matrix(make_game(), *lists)


# --- entries --------------------------------------------------------------------------------------

row = st.tuples(st.integers(0, 5) | st.just((1 << 128) - 1) | st.just(1 << 64), st.integers(0, 50),
                st.booleans(), st.integers(-1, 9), st.integers(0, 9), st.integers(0, 1000), st.integers(2, 3),
                st.sampled_from([(), (4,), (4, 9), (9, 4), (1, 2, 3)]))


@settings(max_examples=60, deadline=None)
@given(st.lists(row, max_size=30))
def test_merged_keeps_the_strongest_entry_of_each_subproblem(rows):
    """One entry per key and record (the moves in any order): keys alone do not merge."""
    expected: dict[tuple, tuple] = {}
    for key, value, exact, guess, _, _, depth, path in rows:  # in order: exact, else the best bound
        ident = (key, depth, tuple(sorted(path)))
        old = expected.get(ident)
        if old is None or (not old[1] and (exact or value > old[0])):
            expected[ident] = (value, exact, guess)
    got = {(k, d, p): (v, e, g) for k, v, e, g, _, _, d, p in Entries.from_rows(rows).merged().rows()}
    assert got == expected


def test_top_keeps_the_most_work():
    e = Entries.from_rows([(k, 1, True, -1, 3, w, 3, (k,)) for k, w in enumerate([5, 50, 7, 1, 50])])
    assert [k for k, *_ in e.top(3).rows()] == [1, 2, 4]
    assert [k for k, *_ in e.top(10, min_work=7).rows()] == [1, 2, 4]
    assert len(Entries.concat([e, Entries.empty(), e]).merged()) == 5


def test_memo_table_preload_and_harvest(anagrams):
    _, pm = anagrams
    first = solve(pm, Question(start="SLATE"), Options(keep_subproblems=10_000, workers=1))
    assert len(first.subproblems) > 0 and first.counters["store_hits"] == 0
    memos = MemoPool()
    again = solve(pm, Question(start="SLATE"), Options(known=first.subproblems, memos=memos,
                                                       keep_subproblems=10_000, workers=1))
    assert again.counters["store_hits"] > 0 and again.nodes < first.nodes
    assert len(again.subproblems) == 0  # nothing new: everything was known
    assert (again.total, again.tree) == (first.total, first.tree)
    other = solve(pm, Question(start="LEAST"), Options(memos=memos, keep_subproblems=10_000, workers=1))
    assert other.counters["store_hits"] > 0  # the tables kept what the first searches knew
    fresh = solve(pm, Question(start="LEAST"), Options(workers=1))
    assert (other.total, other.tree, other.histogram) == (fresh.total, fresh.tree, fresh.histogram)
    assert other.nodes < fresh.nodes


# --- the same results with and without reuse ------------------------------------------------------

@pytest.mark.parametrize("mode, max_guesses, cutoff", [
    ("normal", 6, None), ("normal", 3, None),  # with 3 guesses some start words cannot win
    pytest.param("normal", 4, 128, marks=pytest.mark.slow),
    pytest.param("hard", 5, 128, marks=pytest.mark.slow),
    pytest.param("consistent", 6, None, marks=pytest.mark.slow),
])
def test_every_start_word_gives_the_same_result_with_and_without_reuse(tmp_path, monkeypatch, mode,
                                                                       max_guesses, cutoff):
    monkeypatch.setattr("gpusolve.runs.units.MIN_WORK", 0)  # keep every subproblem, however cheap
    g, a = small_lists(tmp_path, n_answers=50, n_extra=20, step=40)
    pm = pattern_matrix(make_game(), g, a)
    words = pm.answers if mode == "consistent" else pm.guesses
    run = {"mode": mode, "max_guesses": max_guesses, "cutoff": cutoff, "words": words, "workers": 0}
    reused = rank_exact(pm, g, a, run_dir=tmp_path / "reused", batch=3, **run)
    fresh = rank_exact(pm, g, a, run_dir=tmp_path / "fresh", reuse=False, batch=1, **run)
    assert reused.rows == fresh.rows
    assert reused.store_hits > 0 and fresh.store_hits == 0
    assert reused.subproblems > 0 and fresh.subproblems == 0
    if cutoff:
        assert any(r["exact"] for r in fresh.rows) and not all(r["exact"] for r in fresh.rows)
    if max_guesses == 3:
        assert any(r["total"] is None for r in fresh.rows)
    # resumed from a store holding every subproblem: the same again
    with RunStore(tmp_path / "reused", reused.job.params()) as store:
        store.db.execute("DELETE FROM results")
    again = rank_exact(pm, g, a, run_dir=tmp_path / "reused", batch=5, **run)
    assert again.rows == fresh.rows and again.store_hits > reused.store_hits


def test_a_resumed_run_reuses_the_store_and_searches_no_more_nodes(tmp_path, anagrams):
    """The store's entries answer sets the resumed search reaches (``store_hits``). In this small game
    their subtrees are single nodes, so the nodes are the same: fewer only while the tree of each
    result was searched again (its sets found in the preloaded memo); it is now read from the memo."""
    (g, a), pm = anagrams
    first = rank_exact(pm, g, a, words=["SLATE", "TRACE"], workers=0, run_dir=tmp_path / "r")
    assert first.subproblems > 0
    resumed = rank_exact(pm, g, a, words=["SLATE", "TRACE", "LEAST", "CRATE"], workers=0,
                         run_dir=tmp_path / "r")
    fresh = rank_exact(pm, g, a, words=["LEAST", "CRATE"], workers=0, run_dir=tmp_path / "f")
    assert resumed.computed == 2 and resumed.store_hits > 0 and fresh.store_hits == 0
    assert resumed.nodes <= fresh.nodes
    assert _by_word(resumed.rows, ["LEAST", "CRATE"]) == _by_word(fresh.rows, ["LEAST", "CRATE"])
    doc = resumed.as_dict()
    assert doc["nodes"] == resumed.nodes and doc["store_hits"] == resumed.store_hits > 0
    with RunStore(tmp_path / "r", make_job("exact", pm, g, a, metric="").params()) as store:
        assert store.tally(["LEAST", "CRATE"]) == (resumed.nodes, resumed.store_hits)


def _by_word(rows: list[dict], words: list[str]) -> dict:
    """Return the results of ``words`` by word, without their rank."""
    return {r["word"]: {k: v for k, v in r.items() if k != "rank"} for r in rows if r["word"] in words}


def test_the_worker_cache_merges_each_store_snapshot_once(tmp_path):
    from gpusolve.runs.fanout import _memos, _worker_memo

    lists = small_lists(tmp_path)
    job = make_job("partition", pattern_matrix(make_game(), *lists), *lists)
    snapshot = Entries.from_rows([(1, 5, True, -1, 3, 9, 3, (1,))])
    _memos.pop((job, True), None)
    memo = _worker_memo(job, snapshot, True)
    assert _worker_memo(job, [snapshot], True) is memo
    assert len(memo.take_pending()) == 1 and len(memo.take_pending()) == 0
    _worker_memo(job, [snapshot, Entries.from_rows([(2, 5, True, -1, 3, 9, 3, (2,))])], True)
    assert len(memo.take_pending()) == 1
    assert isinstance(memo, Subproblems) and _worker_memo(job, snapshot, False) is not memo
    _memos.clear()


# --- real Wordle start words, and kills of a real process -----------------------------------------

@pytest.mark.slow
def test_real_wordle_start_words_give_the_same_results_with_reuse(tmp_path):
    pm = pattern_matrix(make_game(), None, "answers-2315")
    first = rank_exact(pm, None, "answers-2315", words=["SALET"], workers=0, run_dir=tmp_path / "r")
    assert first.rows[0]["total"] == 7920 and first.subproblems > 0
    resumed = rank_exact(pm, None, "answers-2315", words=["LEAST", "SLATE"], workers=0,
                         run_dir=tmp_path / "r")
    fresh = rank_exact(pm, None, "answers-2315", words=["LEAST", "SLATE"], workers=0, run_dir=tmp_path / "f",
                       reuse=False)
    assert resumed.rows == fresh.rows
    assert [(r["word"], r["total"]) for r in fresh.rows] == [("SLATE", 7928), ("LEAST", 7954)]
    assert resumed.store_hits > 0 and resumed.nodes < fresh.nodes


@pytest.mark.slow
def test_kills_while_writing_real_subproblems_then_resume(tmp_path):
    g, a = anagram_lists(tmp_path, step=5)
    run = tmp_path / "killed"
    command = [sys.executable, "-m", "gpusolve", "optimal-tree", "--rank", "--guesses", g, "--answers", a,
               "--words", ",".join(ANAGRAMS), "--batch", "1", "--workers", "0", "--quiet", "--json",
               "--run-dir", str(run)]
    for n in (1, 3, 25):
        proc = subprocess.run(command, capture_output=True, env={**_env(), FAULT: str(n)}, cwd=tmp_path,
                              timeout=300)
        assert proc.returncode == -signal.SIGKILL
    proc = subprocess.run(command, capture_output=True, text=True, env=_env(), cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    resumed = json.loads(proc.stdout)
    assert 0 < resumed["computed"] < len(ANAGRAMS) and resumed["store_hits"] > 0
    pm = pattern_matrix(make_game(), g, a)
    straight = rank_exact(pm, g, a, words=ANAGRAMS, workers=0, run_dir=tmp_path / "straight", reuse=False)
    assert resumed["results"] == json.loads(json.dumps(straight.rows))
    assert (run / DATABASE).exists()


def _env() -> dict:
    import os

    return {k: v for k, v in os.environ.items() if k != FAULT}


def test_loaded_entries_round_trip_through_the_store(tmp_path):
    rows = [((1 << 127) + 5, 9, True, 3, 4, 77, 4, (730, 1215)), (2, 11, False, -1, 5, 8, 3, (5,))]
    with RunStore(tmp_path / "r", {"task": "t"}) as store:
        store.save_subproblems(Entries.from_rows(rows))
        loaded = store.load_subproblems()
    assert sorted(loaded.rows()) == sorted(rows)
    assert loaded.k1.dtype == np.uint64 and loaded.exact.dtype == np.bool_ and loaded.path.dtype == np.int32
