"""Fan-out over Dask: a real local cluster (scheduler + 2 worker processes on loopback) gives the
results of a single-process run, also when one worker is killed mid-run."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from typer.testing import CliRunner
from wordfiles import small_lists

from gpusolve.cli import app
from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix
from gpusolve.runs.fanout import batches, default_batch
from gpusolve.runs.runstore import DATABASE
from gpusolve.runs.startrank import rank_exact, rank_trees

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    return small_lists(tmp_path_factory.mktemp("lists"), 20, 16, step=89, extra_step=541)


@pytest.fixture(scope="module")
def pm(lists):
    return pattern_matrix(make_game(), *lists)


@pytest.fixture(scope="module")
def single(pm, lists, tmp_path_factory):
    """The single-process (in-process) ranking every cluster run must reproduce."""
    return rank_trees(pm, *lists, task="reference-greedy", workers=0,
                      run_dir=tmp_path_factory.mktemp("single") / "run")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A real Dask cluster: a scheduler and two single-thread worker processes on 127.0.0.1.

    Processes start outside the checkout, as a user's would: ``python -m`` puts the working
    folder first on sys.path, and the checkout's ``gpusolve/`` lacks the installed kernels."""
    folder = tmp_path_factory.mktemp("cluster")
    file = folder / "scheduler.json"
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", "0", "--no-dashboard", "--scheduler-file", str(file)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder)]
    workers = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                                 str(file), "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1",
                                 "--no-dashboard", "--name", f"w{i}"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder)
               for i in range(2)]
    procs += workers
    try:
        deadline = time.monotonic() + 120
        while not file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        with distributed.Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
        yield address, workers
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
            p.wait()


def test_batches_cover_every_unit_once():
    units = [(str(i), i) for i in range(10)]
    assert [len(b) for b in batches(units, 4)] == [4, 4, 2]
    assert [u for b in batches(units, 3) for u in b] == units
    assert default_batch(12972, 2) == 64 and default_batch(10, 2) == 2 and default_batch(1, 8) == 1


def test_cluster_gives_the_single_process_results(cluster, single, pm, lists, tmp_path):
    address, _ = cluster
    ranked = rank_trees(pm, *lists, task="reference-greedy", scheduler=address, batch=3,
                        run_dir=tmp_path / "r")
    assert ranked.computed == len(pm.guesses)
    assert ranked.rows == single.rows
    with sqlite3.connect(tmp_path / "r" / DATABASE) as con:
        workers = {w.split(":")[1] for (w,) in con.execute("SELECT DISTINCT worker FROM results")}
    assert len(workers) == 2  # both worker processes took part
    exact = rank_exact(pm, *lists, task="reference-exact", candidates=6, cutoff=60, scheduler=address,
                       run_dir=tmp_path / "x")
    local = rank_exact(pm, *lists, task="reference-exact", candidates=6, cutoff=60, workers=0,
                       run_dir=tmp_path / "y")
    assert exact.rows == local.rows and exact.statement == local.statement
    greedy = rank_trees(pm, *lists, scheduler=address, batch=4, run_dir=tmp_path / "g")
    assert greedy.rows == rank_trees(pm, *lists, workers=0, run_dir=tmp_path / "h").rows


def test_real_exact_search_on_the_cluster(cluster, pm, lists, tmp_path):
    address, _ = cluster
    remote = rank_exact(pm, *lists, candidates=8, cutoff=70, scheduler=address, run_dir=tmp_path / "x")
    local = rank_exact(pm, *lists, candidates=8, cutoff=70, workers=0, run_dir=tmp_path / "y")
    assert remote.rows == local.rows and remote.statement == local.statement


def test_the_complete_table_on_the_cluster_resumes_a_partial_one(cluster, pm, lists, tmp_path):
    from gpusolve.runs.tables import compare_tables, read_table

    address, _ = cluster
    g, a = lists
    base = ["optimal-tree", "--rank", "--guesses", g, "--answers", a, "--scheduler", address, "--run-dir",
            str(tmp_path / "r"), "--output", str(tmp_path / "t.txt"), "--json", "--top", "1000"]
    some = CliRunner().invoke(app, [*base, "--words", ",".join(pm.guesses[:5])])
    assert some.exit_code == 0, some.output
    partial = read_table(tmp_path / "t.txt")
    assert len(partial.entries) == 5 and partial.provenance["missing"] == len(pm.guesses) - 5
    whole = CliRunner().invoke(app, [*base, "--candidates", "all"])
    assert whole.exit_code == 0, whole.output
    assert json.loads(whole.stdout)["computed"] == len(pm.guesses) - 5  # the 5 finished ones not again
    table = read_table(tmp_path / "t.txt")
    assert table.provenance["complete"] and compare_tables(partial, table, shared_only=True).identical
    local = rank_exact(pm, g, a, candidates=None, workers=0, run_dir=tmp_path / "local")
    assert {e.word: e.total for e in table.entries} == {r["word"]: r["total"] for r in local.rows}


def test_the_whole_proof_on_the_cluster(cluster, pm, lists, tmp_path):
    from gpusolve.runs.proof import prove_best_start

    address, _ = cluster
    remote = prove_best_start(pm, *lists, scheduler=address, keep=2, run_dir=tmp_path / "x")
    local = prove_best_start(pm, *lists, workers=1, keep=2, run_dir=tmp_path / "y")
    assert remote.complete and remote.best == local.best
    # the two best start words and every one as good are found exactly either way; which others
    # were searched exactly on the way depends on which parallel searches finished first
    second = sorted(local.exact.values())[1]
    assert {w: t for w, t in remote.exact.items() if t <= second} == {
        w: t for w, t in local.exact.items() if t <= second}
    assert remote.statement().split(" (")[0] == local.statement().split(" (")[0]


def test_exact_ranking_on_the_cluster_shares_subproblems(cluster, tmp_path):
    from wordfiles import ANAGRAMS, anagram_lists

    address, _ = cluster
    g, a = anagram_lists(tmp_path)
    pm = pattern_matrix(make_game(), g, a)
    first = rank_exact(pm, g, a, words=["SLATE", "TRACE"], batch=1, scheduler=address, run_dir=tmp_path / "x")
    assert first.subproblems > 0
    # resumed on the cluster: the store's subproblems go to the workers, and batches in flight
    # carry what the finished ones found
    remote = rank_exact(pm, g, a, words=ANAGRAMS, batch=1, scheduler=address, run_dir=tmp_path / "x")
    local = rank_exact(pm, g, a, words=ANAGRAMS, workers=0, reuse=False, run_dir=tmp_path / "y")
    assert remote.computed == 4 and remote.store_hits > 0
    assert remote.rows == local.rows


def test_killing_a_worker_mid_run_still_gives_the_same_results(cluster, single, pm, lists, tmp_path):
    address, workers = cluster
    db = tmp_path / "r" / DATABASE
    killed = []

    def kill_when_started() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if db.exists():
                try:
                    with sqlite3.connect(db, timeout=30) as con:
                        done = con.execute("SELECT count(*) FROM results").fetchone()[0]
                except sqlite3.OperationalError:
                    done = 0
                if done >= 2:
                    workers[0].send_signal(signal.SIGKILL)
                    killed.append(done)
                    return
            time.sleep(0.005)

    killer = threading.Thread(target=kill_when_started)
    killer.start()
    ranked = rank_trees(pm, *lists, task="reference-greedy", scheduler=address, batch=1,
                        run_dir=tmp_path / "r")
    killer.join()
    assert killed and killed[0] < len(pm.guesses)  # the worker died mid-run
    assert workers[0].wait(timeout=30) == -signal.SIGKILL
    assert ranked.rows == single.rows


def test_local_cluster_of_processes_gives_the_same_results(single, lists, tmp_path):
    g, a = lists
    out = CliRunner().invoke(app, ["rank", "--by", "tree", "--task", "reference-greedy", "--guesses", g,
                                   "--answers", a, "--workers", "2", "--run-dir", str(tmp_path / "r"),
                                   "--json", "--top", "1000"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["results"] == single.rows


def test_unreachable_scheduler_is_a_one_line_error(pm, lists, tmp_path, monkeypatch):
    monkeypatch.setattr("gpusolve.runs.fanout.CONNECT_TIMEOUT", "2s")
    with pytest.raises(GpusolveError, match="cannot reach the Dask scheduler"):
        rank_trees(pm, *lists, task="partition", scheduler="tcp://127.0.0.1:9", run_dir=tmp_path / "r")
    assert os.path.exists(tmp_path / "r" / DATABASE)


@pytest.mark.parametrize(("scheduler", "workers", "units", "here"), [
    (None, 0, 5, True),  # asked for
    (None, None, 1, True), (None, None, 2, True), (None, None, 3, False),  # default, 3 cores
    (None, 2, 1, False),  # a cluster asked for is started, even for fewer units
    ("tcp://127.0.0.1:1", None, 1, False),
])
def test_the_default_computes_fewer_units_than_cores_in_this_process(monkeypatch, scheduler, workers,
                                                                       units, here):
    from gpusolve.runs import fanout

    monkeypatch.setattr(fanout.os, "cpu_count", lambda: 3)
    assert fanout.here(scheduler, workers, units) is here


def test_a_few_start_words_by_default_start_no_cluster_and_resume(pm, lists, tmp_path, monkeypatch):
    from gpusolve.runs import fanout

    class NoCluster:
        def __init__(self, *args):
            raise AssertionError("a cluster was started")

    monkeypatch.setattr(fanout.os, "cpu_count", lambda: 3)
    monkeypatch.setattr(fanout, "_client", NoCluster)
    words = list(pm.guesses[:4])
    single = rank_exact(pm, *lists, task="reference-exact", words=words, workers=0, run_dir=tmp_path / "s")
    few = rank_exact(pm, *lists, task="reference-exact", words=words[:2], run_dir=tmp_path / "r")

    def totals(ranked, some=words):
        return [(r["word"], r["total"]) for r in ranked.rows if r["word"] in some]
    assert few.computed == 2 and totals(few) == totals(single, words[:2])
    with pytest.raises(AssertionError, match="a cluster was started"):  # 4 left: a cluster of 3
        rank_exact(pm, *lists, task="reference-exact", words=words, run_dir=tmp_path / "fresh")
    rank_exact(pm, *lists, task="reference-exact", words=words[:3], workers=0, run_dir=tmp_path / "resumed")
    resumed = rank_exact(pm, *lists, task="reference-exact", words=words, run_dir=tmp_path / "resumed")
    assert resumed.computed == 1  # 1 left of 4: in this process
    assert totals(resumed) == totals(single)


def test_exact_ranking_computes_the_costliest_start_words_first(pm, lists, tmp_path):
    # named start words: by decreasing sum of squared bucket sizes (an exact search's cost, estimated),
    # so that workers take the costly ones first and end together; the ranking is the list order's
    def squares(word):
        sizes = np.bincount(pm.codes[pm.guess_index[word]], minlength=pm.game.n_patterns)
        return int((sizes.astype(np.int64) ** 2).sum())

    words = sorted(pm.guesses[:8], key=squares)  # cheapest first
    assert squares(words[0]) < squares(words[-1])
    seen = []
    ranked = rank_exact(pm, *lists, task="reference-exact", words=words, workers=0, run_dir=tmp_path / "r",
                        on_batch=lambda done, total, rows: seen.extend(w for w, _, _ in rows))
    assert [squares(w) for w in seen] == sorted((squares(w) for w in words), reverse=True)
    in_order = rank_exact(pm, *lists, task="reference-exact", words=words, workers=0, reuse=False,
                          run_dir=tmp_path / "s")
    assert ranked.rows == in_order.rows
