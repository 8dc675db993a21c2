"""Run store and resumable start-word rankings: resume, parameter checks, and real SIGKILLs."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gpusolve.kernels.config import INF as INFINITE
from typer.testing import CliRunner
from wordfiles import small_lists

from gpusolve.cli import app
from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix
from gpusolve.runs.runstore import DATABASE, FAULT, RunStore
from gpusolve.runs.startrank import proof_statement, rank_exact, rank_trees
from gpusolve.runs.units import Subproblems, make_job, reference_value
from gpusolve.search.memo import Entries


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    return small_lists(tmp_path_factory.mktemp("lists"))


@pytest.fixture(scope="module")
def pm(lists):
    return pattern_matrix(make_game(), *lists)


# --- the store ----------------------------------------------------------------------------------

def test_store_records_results_and_reopens(tmp_path):
    params = {"task": "t", "mode": "normal", "max_guesses": 6}
    with RunStore(tmp_path / "run", params) as store:
        assert store.finished() == set()
        store.save([("SALET", 5, {"total": 7}), ("CRANE", 2, {"total": 9})], 0.1, "w")
        store.save([("SALET", 5, {"total": 7})])  # a repeated unit is kept once
    with RunStore(tmp_path / "run", dict(params)) as store:
        assert store.finished() == {"SALET", "CRANE"}
        assert list(store.results()) == ["CRANE", "SALET"]  # list order
        assert store.results()["SALET"] == {"total": 7}
        assert store.count() == 2
    assert sqlite3.connect(tmp_path / "run" / DATABASE).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_store_refuses_other_parameters(tmp_path):
    RunStore(tmp_path / "run", {"task": "t", "mode": "normal", "max_guesses": 6}).close()
    with pytest.raises(GpusolveError) as e:
        RunStore(tmp_path / "run", {"task": "t", "mode": "hard", "max_guesses": 6})
    message = str(e.value)
    assert "\n" not in message and 'mode="normal" (now "hard")' in message and "--run-dir" in message
    with pytest.raises(GpusolveError, match="cutoff"):
        RunStore(tmp_path / "run", {"task": "t", "mode": "normal", "max_guesses": 6, "cutoff": 5})


def test_store_refuses_a_file_that_is_not_a_store(tmp_path):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / DATABASE).write_bytes(b"not a database at all" * 100)
    with pytest.raises(GpusolveError, match="not a readable run store"):
        RunStore(tmp_path / "run", {"task": "t"})


def _entries(rows):
    """Return Entries from (key, value, exact) or (key, value, exact, guess, size, work) rows, each
    with a record of its own: 3 guesses left after the move (low 16 bits of its key)."""
    return Entries.from_rows([(*(*r, -1, 3, 1)[:6], 3, (r[0] & 0xFFFF,)) for r in rows])


def test_subproblems_merge_exact_values_and_bounds(tmp_path):
    big = (1 << 128) - 3  # keys are 128-bit
    twin = (7 << 64) | 1  # the same low word as key 1, another high word
    with RunStore(tmp_path / "run", {"task": "t"}) as store:
        store.save_subproblems(_entries([(1, 10, False), (2, 20, True, 5, 9, 100), (big, 7, True)]))
        store.save_subproblems(_entries([(1, 8, False), (2, 25, False), (3, 4, False)]))  # weaker: ignored
        # stronger: kept
        store.save_subproblems(_entries([(1, 12, False), (3, 6, True, 2, 4, 50), (twin, 99, True)]))
        store.save_subproblems(_entries([(1, 11, False), (2, 21, True, 6, 9, 300)]))  # weaker; more work
        loaded = store.load_subproblems()
        assert store.subproblem_count() == 5
    got = {k: (v, e, g, w) for k, v, e, g, _, w, _, _ in loaded.rows()}
    assert got == {1: (12, False, -1, 1), 2: (20, True, 5, 300), 3: (6, True, 2, 50), big: (7, True, -1, 1),
                   twin: (99, True, -1, 1)}


def test_subproblems_with_one_key_and_two_records_are_two_entries(tmp_path):
    """A key only finds entries: two subproblems sharing one (a hash collision) are both kept,
    in the store and in a merge, and neither value is taken for the other's."""
    a = (9, 50, True, 4, 6, 10, 4, (1, 7))
    b = (9, 60, True, 5, 6, 20, 4, (2, 7))  # same key, other moves
    c = (9, 55, True, 5, 6, 30, 3, (1, 7))  # same key and moves, another depth
    with RunStore(tmp_path / "run", {"task": "t"}) as store:
        store.save_subproblems(Entries.from_rows([a, b, c]))
        loaded = store.load_subproblems()
    assert sorted(loaded.rows()) == sorted([a, b, c])
    assert sorted(Entries.from_rows([a, b, c, a]).merged().rows()) == sorted([a, b, c])
    memo = Subproblems(loaded)
    assert memo.get((4, (1, 7))) == (50, True) and memo.get((4, (2, 7))) == (60, True)
    assert memo.get((3, (1, 7))) == (55, True) and memo.get((4, (1, 8))) is None


def test_subproblems_cache_in_memory():
    five, six = (4, (5,)), (4, (6,))
    memo = Subproblems(Entries.from_rows([(5, 30, False, -1, 4, 9, *five)]))
    memo.put(five, 20, False)
    assert memo.get(five) == (30, False) and len(memo.take_fresh()) == 0
    memo.put(five, 33, True)
    memo.put(six, 3, True)
    assert sorted((d, p, v, e) for _, v, e, _, _, _, d, p in memo.take_fresh().rows()) == [
        (4, (5,), 33, True), (4, (6,), 3, True)]
    assert len(memo.take_fresh()) == 0 and memo.get(five) == (33, True)
    assert len(memo.take_pending()) == 1 and len(memo.take_pending()) == 0  # the snapshot, once


def test_save_is_all_or_nothing_when_writing_subproblems_fails(tmp_path, monkeypatch):
    with RunStore(tmp_path / "run", {"task": "t"}) as store:
        store.save([("SALET", 0, {"v": 1})], subproblems=_entries([(1, 10, True)]))

        def broken(self, entries):
            yield (2, 0, 5, 1, -1, 3, 1, 3, b"")
            raise OSError("disk gone")

        monkeypatch.setattr(RunStore, "_rows", broken)
        with pytest.raises(OSError):
            store.save([("CRANE", 1, {"v": 2})], subproblems=_entries([(2, 5, True), (3, 6, True)]))
        assert store.finished() == {"SALET"} and store.subproblem_count() == 1


def test_store_keeps_the_subproblems_with_most_work(tmp_path, monkeypatch):
    monkeypatch.setattr("gpusolve.runs.runstore.STORE_MAX", 3)
    with RunStore(tmp_path / "run", {"task": "t"}) as store:
        store.save_subproblems(_entries([(k, 10, True, -1, 3, w) for k, w in [(1, 5), (2, 50), (3, 7)]]))
        store.save_subproblems(_entries([(4, 10, True, -1, 3, 9), (5, 10, True, -1, 3, 1)]))
        assert sorted(r[0] for r in store.load_subproblems().rows()) == [2, 3, 4]


V1_TABLES = """
CREATE TABLE params (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE results (unit TEXT PRIMARY KEY, position INTEGER NOT NULL, result TEXT NOT NULL, seconds REAL,
    worker TEXT, finished REAL DEFAULT ((julianday('now') - 2440587.5) * 86400.0));
CREATE TABLE subproblems (key INTEGER PRIMARY KEY, value INTEGER NOT NULL, exact INTEGER NOT NULL)
    WITHOUT ROWID;
INSERT INTO params VALUES ('schema_version', '1'), ('task', '"t"');
INSERT INTO results (unit, position, result) VALUES ('SALET', 3, '{"v": 7}');
INSERT INTO subproblems VALUES (-5, 10, 1);
"""


def test_a_schema_1_store_is_migrated_keeping_its_results(tmp_path):
    (tmp_path / "run").mkdir()
    with sqlite3.connect(tmp_path / "run" / DATABASE) as con:
        con.executescript(V1_TABLES)
    with RunStore(tmp_path / "run", {"task": "t"}) as store:
        assert store.results() == {"SALET": {"v": 7}} and store.subproblem_count() == 0
        store.save([("CRANE", 1, {"v": 8})], subproblems=_entries([(1, 10, True)]), counts=[(40, 2)])
        assert store.tally(["CRANE", "SALET"]) == (40, 2)
    with RunStore(tmp_path / "run", {"task": "t"}) as store:
        assert store.finished() == {"SALET", "CRANE"} and store.subproblem_count() == 1
    with sqlite3.connect(tmp_path / "run" / DATABASE) as con:
        assert con.execute("SELECT value FROM params WHERE name = 'schema_version'").fetchone() == ("3",)


def test_a_schema_2_store_is_migrated_keeping_its_results(tmp_path):
    """Schema 2 kept subproblems by their keys alone (no record to prove them): they go, the
    results and counters stay."""
    run = tmp_path / "run"
    with RunStore(run, {"task": "t"}) as store:
        store.save([("SALET", 3, {"v": 7})], counts=[(40, 2)])
    with sqlite3.connect(run / DATABASE) as con:
        con.executescript("""
            DROP TABLE subproblems;
            CREATE TABLE subproblems (k1 INTEGER NOT NULL, k2 INTEGER NOT NULL, value INTEGER NOT NULL,
                exact INTEGER NOT NULL, guess INTEGER NOT NULL, size INTEGER NOT NULL, work INTEGER NOT NULL,
                PRIMARY KEY (k1, k2)) WITHOUT ROWID;
            INSERT INTO subproblems VALUES (1, 2, 10, 1, -1, 3, 5000);
            UPDATE params SET value = '2' WHERE name = 'schema_version';
        """)
    with RunStore(run, {"task": "t"}) as store:
        assert store.results() == {"SALET": {"v": 7}} and store.tally(["SALET"]) == (40, 2)
        assert store.subproblem_count() == 0
        store.save_subproblems(_entries([(1, 10, True)]))
        assert store.subproblem_count() == 1
    with sqlite3.connect(run / DATABASE) as con:
        assert con.execute("SELECT value FROM params WHERE name = 'schema_version'").fetchone() == ("3",)


@pytest.mark.parametrize("damage, message", [
    ("UPDATE params SET value = '99' WHERE name = 'schema_version'", "has store schema 99, not 3"),
    ("DELETE FROM params WHERE name = 'schema_version'", "has store schema unset, not 3"),
    ("DROP TABLE subproblems; CREATE TABLE subproblems (key INTEGER PRIMARY KEY, value INTEGER)",
     "table subproblems has columns key, value"),
    ("UPDATE params SET value = '{' WHERE name = 'task'", "not a readable run store"),
])
def test_a_store_of_another_schema_is_refused_in_one_line(tmp_path, lists, damage, message):
    g, a = lists
    base = ["optimal-tree", "--rank", "--task", "reference-exact", "--guesses", g, "--answers", a,
            "--run-dir", str(tmp_path / "r"), "--workers", "0", "--quiet", "--candidates", "2"]
    assert CliRunner().invoke(app, base).exit_code == 0
    with sqlite3.connect(tmp_path / "r" / DATABASE) as con:
        con.executescript(damage)
    out = CliRunner().invoke(app, base)
    assert out.exit_code == 2 and out.output.startswith("error: ") and out.output.count("\n") == 1
    assert message in out.output


def test_a_corrupt_store_is_a_one_line_error(tmp_path, lists):
    g, a = lists
    base = ["optimal-tree", "--rank", "--task", "reference-exact", "--guesses", g, "--answers", a,
            "--run-dir", str(tmp_path / "r"), "--workers", "0", "--quiet", "--candidates", "all"]
    assert CliRunner().invoke(app, base).exit_code == 0
    db = tmp_path / "r" / DATABASE
    data = bytearray(db.read_bytes())
    assert len(data) > 8192
    data[4096:] = b"\xa5" * (len(data) - 4096)  # every page but the first overwritten
    db.write_bytes(bytes(data))
    out = CliRunner().invoke(app, base)
    assert out.exit_code == 2 and out.output.count("\n") == 1
    assert "is not a readable run store" in out.output


# --- resumable rankings -------------------------------------------------------------------------

def test_ranking_resumes_without_recomputing(tmp_path, lists, pm):
    first = rank_trees(pm, *lists, task="reference-greedy", words=pm.guesses[:5], run_dir=tmp_path / "r",
                       workers=0)
    assert first.computed == 5
    whole = rank_trees(pm, *lists, task="reference-greedy", run_dir=tmp_path / "r", workers=0, batch=3)
    assert whole.computed == len(pm.guesses) - 5
    again = rank_trees(pm, *lists, task="reference-greedy", run_dir=tmp_path / "r", workers=0)
    assert again.computed == 0 and again.rows == whole.rows
    fresh = rank_trees(pm, *lists, task="reference-greedy", run_dir=tmp_path / "fresh", workers=0)
    assert fresh.rows == whole.rows
    ranked = json.loads((tmp_path / "r" / "ranking.json").read_text())
    assert ranked["results"] == whole.rows
    assert (tmp_path / "r" / "ranking.csv").read_text().splitlines()[0].startswith("rank,word,")
    keys = [(r["over"], r["total"], r["worst"]) for r in whole.rows]
    assert keys == sorted(keys)
    with pytest.raises(GpusolveError, match="metric"):
        rank_trees(pm, *lists, task="reference-greedy", metric="max", run_dir=tmp_path / "r", workers=0)


def test_reference_greedy_totals_match_the_histogram(pm, lists):
    job = make_job("reference-greedy", pm, *lists)
    from gpusolve.runs.units import reference_greedy_histogram

    for row in range(3):
        h = reference_greedy_histogram(pm, job, row)
        assert sum(h) == pm.shape[1]
        is_answer = pm.guesses[row] in pm.answers
        assert h[1] == (1 if is_answer else 0)


def test_reference_exact_agrees_with_brute_force(pm):
    # brute force over every strategy for tiny answer sets: V(S) by plain recursion, no memo
    import numpy as np

    def brute(answers, depth):
        if len(answers) == 1:
            return 1
        if depth <= 1:
            return INFINITE
        best = INFINITE
        for g in range(pm.shape[0]):
            codes = pm.codes[g, answers]
            if len(set(codes.tolist())) == 1 and codes[0] != pm.game.solved:
                continue
            total = len(answers)
            for c in set(codes.tolist()) - {pm.game.solved}:
                total += brute(answers[codes == c], depth - 1)
            best = min(best, total)
        return best

    for subset in ([0, 1, 2], [3, 4, 5, 6], [0, 2, 4, 6, 8]):
        answers = np.array(subset, dtype=np.int32)
        for depth in (2, 3):
            assert reference_value(pm, answers, depth, Subproblems()) == min(brute(answers, depth), INFINITE)


def test_exact_ranking_with_a_cutoff_and_its_statement(tmp_path, lists, pm):
    full = rank_exact(pm, *lists, task="reference-exact", run_dir=tmp_path / "full", workers=0)
    values = [r["total"] for r in full.rows]
    assert all(r["exact"] for r in full.rows) and values == sorted(values)
    cutoff = values[3] + 1
    cut = rank_exact(pm, *lists, task="reference-exact", cutoff=cutoff, run_dir=tmp_path / "cut", workers=0)
    below = [r for r in cut.rows if r["exact"]]
    assert [(r["word"], r["total"]) for r in below] == [(r["word"], r["total"]) for r in full.rows
                                                         if r["total"] < cutoff]
    assert all(r["total"] == cutoff for r in cut.rows if not r["exact"])
    assert f"all {len(cut.rows) - len(below)} others are >= {cutoff}" in cut.statement
    assert f"the {len(below)} best (" in cut.statement
    assert "of all" in cut.statement
    with RunStore(tmp_path / "full", make_job("reference-exact", pm, *lists, metric="").params()) as store:
        assert store.subproblem_count() > 0
    resumed = rank_exact(pm, *lists, task="reference-exact", run_dir=tmp_path / "full", workers=0)
    assert resumed.computed == 0 and resumed.rows == full.rows
    some = rank_exact(pm, *lists, task="reference-exact", candidates=3, run_dir=tmp_path / "full", workers=0)
    assert len(some.rows) == 3 and "among the 3" in some.statement


def test_consistent_mode_ranks_every_possible_answer(tmp_path, lists, pm):
    ranked = rank_exact(pm, *lists, mode="consistent", candidates=None, run_dir=tmp_path / "c", workers=0)
    assert sorted(r["word"] for r in ranked.rows) == sorted(pm.answers)
    assert f"of all {len(pm.answers)} ranked" in ranked.statement
    some = rank_exact(pm, *lists, mode="consistent", candidates=2, run_dir=tmp_path / "c", workers=0)
    assert {r["word"] for r in some.rows} <= set(pm.answers) and "among the 2" in some.statement


def test_proof_statement_forms():
    rows = [{"word": "A", "total": 10, "exact": True}, {"word": "B", "total": 12, "exact": False}]
    assert proof_statement(rows, 2, 12) == (
        "best start word of all 2 ranked: A (total 10); the best (A) has an exact total below 12; "
        "the other one is >= 12")
    assert "every one has an exact total below 99" in proof_statement(rows[:1], 5, 99)


# --- the command line ---------------------------------------------------------------------------

def test_cli_rank_by_tree_and_rank_exact(tmp_path, lists):
    runner = CliRunner()
    g, a = lists
    out = runner.invoke(app, ["rank", "--by", "tree", "--task", "reference-greedy", "--guesses", g,
                              "--answers", a, "--run-dir", str(tmp_path / "t"), "--workers", "0", "--json",
                              "--top", "3", "--output", str(tmp_path / "all.csv")])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert len(doc["results"]) == 3 and doc["params"]["task"] == "reference-greedy"
    assert len((tmp_path / "all.csv").read_text().splitlines()) == 1 + doc["candidates"]
    out = runner.invoke(app, ["rank", "--by", "tree", "--task", "reference-greedy", "--guesses", g,
                              "--answers", a, "--run-dir", str(tmp_path / "t"), "--workers", "0",
                              "--top", "2"])
    assert out.exit_code == 0 and "over 6" in out.output and "0 computed now" in out.output
    out = runner.invoke(app, ["optimal-tree", "--rank", "--task", "reference-exact",
                              "--guesses", g, "--answers", a,
                              "--candidates", "all", "--cutoff", "30", "--run-dir", str(tmp_path / "x"),
                              "--workers", "0", "--quiet"])
    assert out.exit_code == 0, out.output
    assert "best start word of all" in out.output
    two = [w.lower() for w in Path(g).read_text().split()[:2]]
    (tmp_path / "words.txt").write_text("\n".join(two) + "\n")
    out = runner.invoke(app, ["optimal-tree", "--rank", "--task", "reference-exact",
                              "--guesses", g, "--answers", a,
                              "--words-file", str(tmp_path / "words.txt"), "--run-dir", str(tmp_path / "x"),
                              "--workers", "0", "--json", "--cutoff", "30"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert doc["computed"] == 0 and {r["word"] for r in doc["results"]} == {w.upper() for w in two}
    assert "among the 2" in doc["statement"]


@pytest.mark.parametrize("args, message", [
    (["rank", "--by", "forest"], "--by takes guess or tree"),
    (["rank", "--by", "tree", "--after", "CRANE:....."], "takes neither --state"),
    (["optimal-tree", "--rank", "--candidates", "many"], "--candidates takes a number or 'all'"),
    (["optimal-tree", "--rank", "--words", "ZZZZZ"], "unknown word ZZZZZ"),
    (["optimal-tree", "--rank", "--words", "A,B", "--words-file", "x"], "not both"),
    (["optimal-tree", "--rank", "--cutoff", "0"], "Invalid value for '--cutoff'"),
])
def test_cli_bad_input_is_one_line(args, message, lists, tmp_path):
    g, a = lists
    out = CliRunner().invoke(app, [*args, "--guesses", g, "--answers", a, "--run-dir", str(tmp_path / "r"),
                                   "--workers", "0"])
    assert out.exit_code == 2
    assert out.output.count("\n") == 1 and out.output.startswith("error: ") and message in out.output


def test_cli_refuses_to_resume_with_other_parameters(tmp_path, lists):
    g, a = lists
    base = ["rank", "--by", "tree", "--task", "partition", "--guesses", g, "--answers", a,
            "--run-dir", str(tmp_path / "r"), "--workers", "0", "--quiet"]
    assert CliRunner().invoke(app, base).exit_code == 0
    out = CliRunner().invoke(app, [*base, "--max-guesses", "5"])
    assert out.exit_code == 2 and "max_guesses=6 (now 5)" in out.output and out.output.count("\n") == 1


# --- SIGKILL at any moment, then resume -----------------------------------------------------------

def _count(db: Path) -> int:
    """Return the finished units in a store, checking it is readable and consistent."""
    if not db.exists():
        return 0
    con = sqlite3.connect(db, timeout=30)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return con.execute("SELECT count(*) FROM results").fetchone()[0]
    except sqlite3.OperationalError as e:  # tables not created yet
        assert "no such table" in str(e)
        return 0
    finally:
        con.close()


def _subproblem_count(db: Path) -> int:
    """Return the subproblems in a store."""
    with sqlite3.connect(db, timeout=30) as con:
        return con.execute("SELECT count(*) FROM subproblems").fetchone()[0]


@pytest.mark.slow
def test_sigkill_at_any_moment_then_resume_gives_the_same_results(tmp_path):
    g, a = small_lists(tmp_path, n_answers=20, n_extra=12)
    run = tmp_path / "killed"
    command = [sys.executable, "-m", "gpusolve", "optimal-tree", "--rank", "--task", "reference-exact",
               "--guesses", g,
               "--answers", a, "--candidates", "all", "--cutoff", "48", "--batch", "1", "--workers", "0",
               "--quiet", "--json", "--top", "1000", "--run-dir", str(run)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # run outside the checkout (see test_fanout's cluster)
    # kill points: during start-up, then once 1, 8 and 16 units are in the store (+ small offsets so
    # that some kills land inside a transaction), then let it finish
    kill_points = [(0, 0.3), (1, 0.0), (8, 0.003), (16, 0.007)]
    seen, kills = 0, 0
    for at_least, offset in kill_points:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                cwd=tmp_path)
        deadline = time.monotonic() + 120
        while _count(run / DATABASE) < at_least and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        time.sleep(offset)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait()
        now = _count(run / DATABASE)
        assert now >= seen  # committed work is never lost
        seen = now
    assert kills >= 3
    # kills inside the write of a batch's subproblems (the test hook makes the process SIGKILL
    # itself right after its N-th subproblem row): the batch is lost whole, nothing else
    for n in (1, 1, 5, 60):
        before = _subproblem_count(run / DATABASE)
        proc = subprocess.run(command, capture_output=True, env={**env, FAULT: str(n)}, cwd=tmp_path,
                              timeout=300)
        assert proc.returncode == -signal.SIGKILL
        now = _count(run / DATABASE)
        assert now >= seen
        if n == 1:  # killed in its first transaction: neither its result nor any of its rows
            assert now == seen and _subproblem_count(run / DATABASE) == before
        seen = now
    proc = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    resumed = json.loads(proc.stdout)
    assert resumed["computed"] < resumed["candidates"]
    pm = pattern_matrix(make_game(), g, a)
    straight = rank_exact(pm, g, a, task="reference-exact", candidates=None, cutoff=48, batch=1, workers=0,
                          run_dir=tmp_path / "straight")
    assert resumed["results"] == json.loads(json.dumps(straight.rows))
    assert any(r["exact"] for r in straight.rows) and not all(r["exact"] for r in straight.rows)
    with sqlite3.connect(run / DATABASE) as con:
        assert con.execute("SELECT count(*) FROM results").fetchone()[0] == resumed["candidates"]
        assert con.execute("SELECT count(*) FROM subproblems").fetchone()[0] > 0


def test_default_run_dir_is_derived_from_the_parameters(tmp_path, lists, pm):
    first = rank_trees(pm, *lists, task="partition", workers=0)
    assert first.run_dir.parent == tmp_path / "runs" and first.run_dir.name.startswith("partition-wordle-")
    again = rank_trees(pm, *lists, task="partition", workers=0)
    assert again.run_dir == first.run_dir and again.computed == 0
    other = rank_trees(pm, *lists, task="partition", workers=0, max_guesses=5)
    assert other.run_dir != first.run_dir and other.computed == len(pm.guesses)


def test_run_batches_become_progress_events_with_the_best_so_far():
    from gpusolve.runs.progress import RunProgress
    from gpusolve.runs.startrank import tree_key
    from gpusolve.search.plumbing import Progress

    events = []
    progress = RunProgress(events.append, "greedy trees", tree_key, lambda r: f"total {r['total']}",
                           {"AAAAA": 0, "BBBBB": 1, "CCCCC": 2})
    progress(10, 100, [])
    progress(30, 100, [("BBBBB", 1, {"over": 0, "total": 9, "worst": 3}),
                       ("CCCCC", 2, {"over": 0, "total": 8, "worst": 4})])
    progress(31, 100, [("AAAAA", 0, {"over": 1, "total": 7, "worst": 7})])  # fails a game: worse
    assert events == [Progress("greedy trees", 10, 100, ""),
                      Progress("greedy trees", 30, 100, "best CCCCC (total 8)"),
                      Progress("greedy trees", 31, 100, "best CCCCC (total 8)")]


def test_the_one_display_shows_done_best_rate_and_eta(monkeypatch):
    import importlib
    import io

    from rich.console import Console

    from gpusolve.search.plumbing import Progress

    cli_app = importlib.import_module("gpusolve.cli.app")  # the module (gpusolve.cli.app is the app)
    out = io.StringIO()
    clock = [1000.0]
    # the app's own lazy console stand-in, made a terminal (Rich needs the console behind it), on a clock
    monkeypatch.setattr(cli_app._Console, "_console", Console(file=out, force_terminal=True, width=200,
                                                              get_time=lambda: clock[0]))
    with cli_app.ProgressDisplay(True, per_hour=True) as display:
        display(Progress("exact values", 10, 100))  # resumed: 10 done before
        task = display.progress.tasks[0]
        assert task.completed == 10 and cli_app.session_rate(task) is None  # the resumed units are no rate
        clock[0] += 60
        display(Progress("exact values", 30, 100, "best CCCCC (total 8)"))
        clock[0] += 60
        display(Progress("exact values", 40, 100, "best CCCCC (total 8)"))
        rate = cli_app.session_rate(display.progress.tasks[0])
        assert rate == 30 / 120  # the new units alone, over the time since the first event
        display.progress.refresh()
    shown = out.getvalue()
    assert "exact values" in shown and "40/100" in shown and "best CCCCC (total 8)" in shown
    assert "900/h" in shown and "ETA 4m 00s" in shown  # 60 left at 0.25 a second
    with cli_app.ProgressDisplay(True) as per_minute:
        per_minute(Progress("greedy trees", 0, 10))
        clock[0] += 30
        per_minute(Progress("greedy trees", 5, 10))
        per_minute.progress.refresh()
    assert "10.0/min" in out.getvalue() and "ETA 30s" in out.getvalue()
    with cli_app.ProgressDisplay(False) as quiet:
        assert quiet.progress is None
    assert [cli_app.duration(s) for s in (42, 425, 60227, 183600)] == ["42s", "7m 05s", "16h 43m", "2d 03h"]


@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_greedy_tree_ranking_matches_the_greedy_trees(tmp_path, lists, pm, mode):
    from gpusolve.core.trees import summarize
    from gpusolve.search.greedy import greedy_tree

    ranked = rank_trees(pm, *lists, mode=mode, run_dir=tmp_path / "g", workers=0, batch=5)
    assert len(ranked.rows) == len(pm.guesses)
    for row in ranked.rows[:3] + ranked.rows[-2:]:
        s = summarize(greedy_tree(pm, "entropy", mode, start=row["word"]))
        assert (row["total"], row["worst"], row["over"]) == (s.total, s.worst, s.over(6))
        assert {k: n for k, n in enumerate(row["histogram"]) if n} == s.histogram
    consistent = rank_trees(pm, *lists, mode="consistent", run_dir=tmp_path / "c", workers=0)
    assert {r["word"] for r in consistent.rows} == set(pm.answers)
    with pytest.raises(GpusolveError, match="unknown metric"):
        rank_trees(pm, *lists, metric="nonsense", run_dir=tmp_path / "x", workers=0)


def test_exact_ranking_agrees_with_the_reference_search(tmp_path, lists, pm):
    for cutoff in (None, 40):
        real = rank_exact(pm, *lists, cutoff=cutoff, run_dir=tmp_path / f"real{cutoff}", workers=0)
        ref = rank_exact(pm, *lists, cutoff=cutoff, task="reference-exact", run_dir=tmp_path / f"ref{cutoff}",
                         workers=0)
        assert [(r["word"], r["total"], r["exact"]) for r in real.rows] == [
            (r["word"], r["total"], r["exact"]) for r in ref.rows]
        assert real.statement == ref.statement
        for r in real.rows:
            if r["exact"]:
                assert sum(int(k) * n for k, n in r["histogram"].items()) == r["total"]
