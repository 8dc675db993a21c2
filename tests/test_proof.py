"""The whole proof as a long run: the best first guess over every candidate, against every start
word's exact total; resumed after an interruption or a SIGKILL with the same result."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_optimal import random_instance
from typer.testing import CliRunner
from wordfiles import anagram_lists, small_lists

from gpusolve.cli import app
from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix
from gpusolve.runs.proof import (
    FIRST_PASS_PHASE,
    SEARCH_PHASE,
    SECOND_PASS_PHASE,
    SEED_PHASE,
    prove_best_start,
)
from gpusolve.runs.runstore import DATABASE, RunStore
from gpusolve.search.optimal import Options, Question, solve
from gpusolve.search.plumbing import Progress


def exact_totals(pm, mode: str, max_guesses: int) -> dict[str, float]:
    """Return every first guess's exact total (inf where no strategy finds every answer)."""
    out = {}
    firsts = pm.answers if mode == "consistent" else pm.guesses
    for g in firsts:
        try:
            question = Question(start=g, mode=mode, max_guesses=max_guesses, tree=False)
            out[g] = solve(pm, question, Options(workers=1)).total
        except GpusolveError:
            out[g] = float("inf")
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["wordle", "jotto", "mastermind"]),
       mode=st.sampled_from(["normal", "hard", "consistent"]), seed=st.integers(0, 10**6),
       keep=st.integers(1, 3), workers=st.integers(1, 2), second=st.booleans())
def test_the_proof_finds_exactly_the_best_start_words(tmp_path_factory, kind, mode, seed, keep, workers,
                                                      second):
    pm = random_instance(kind, seed, 14, 26)
    truth = exact_totals(pm, mode, 4)
    proof = prove_best_start(pm, mode=mode, max_guesses=4, keep=keep, workers=workers,
                             run_dir=tmp_path_factory.mktemp("proof"), second_pass=second)
    assert proof.complete
    finite = sorted(v for v in truth.values() if v != float("inf"))
    if not finite:
        assert proof.best == [] and "no start word" in proof.statement()
        return
    assert proof.best == [(w, t) for w, t in truth.items() if t == finite[0]]
    for word, total in proof.exact.items():  # every exact total it reports is right
        assert truth[word] == total
    # the keep best totals (and every start word tied with them) are all found exactly
    kth = finite[min(keep, len(finite)) - 1]
    assert {w for w, t in truth.items() if t <= kth} <= set(proof.exact)
    assert proof.by_first_pass + proof.by_second_pass + proof.by_search == len(truth)
    assert proof.by_second_pass == 0 or (second and mode != "hard")


def test_a_cutoff_proves_nothing_is_below_it(tmp_path):
    pm = random_instance("wordle", 5, 14, 26)
    best = min(exact_totals(pm, "normal", 4).values())
    proof = prove_best_start(pm, max_guesses=4, cutoff=best, run_dir=tmp_path / "a", workers=1)
    assert proof.complete and proof.best == [] and proof.statement().endswith(f"total below {best:,}")
    proof = prove_best_start(pm, max_guesses=4, cutoff=best + 1, run_dir=tmp_path / "b", workers=1)
    assert proof.best[0][1] == best


def test_the_second_pass_settles_start_words_the_first_pass_leaves(tmp_path):
    """Jotto over 40 answers: the second pass refutes start words the first pass could not, and
    the proof's result is the same with it as without it."""
    pm = random_instance("jotto", 7, 40, 60)
    without = prove_best_start(pm, max_guesses=5, run_dir=tmp_path / "a", workers=1, second_pass=False)
    proof = prove_best_start(pm, max_guesses=5, run_dir=tmp_path / "b", workers=1, second_pass=True)
    assert proof.by_second_pass > 0 and proof.by_search < without.by_search
    assert proof.best == without.best and proof.exact.items() <= without.exact.items()
    assert f"{proof.by_second_pass:,} by second-pass bound" in proof.statement()
    assert set(proof.phases) == {"seed", "first_pass", "second_pass", "search"}


@pytest.mark.parametrize(("kind", "mode"), [("jotto", "normal"), ("mastermind", "consistent")])
def test_the_second_pass_takes_the_first_passes_this_process_ran_to_their_end(tmp_path, monkeypatch, kind,
                                                                             mode):
    """The second pass computes no first pass the proof ran whole already (of the seed pool, nor
    of the start words below the cutoff), and its bounds (recorded in the run directory) are the
    ones it finds computing every first pass again."""
    from gpusolve.runs import proof as proofs
    from gpusolve.search import bounds

    monkeypatch.setattr(proofs, "FIRST_PASS_UNITS", 8)
    calls = []

    def start_second_pass(pm, mode, max_guesses, starts, known=None):
        calls.append((set(starts.tolist()), set(known or {})))
        return plain(pm, mode, max_guesses, starts, known)

    plain = bounds.start_second_pass
    monkeypatch.setattr(bounds, "start_second_pass", start_second_pass)
    pm = random_instance(kind, 7, 40, 60)
    options = {"mode": mode, "max_guesses": 5, "workers": 1, "second_pass": True}
    proof = prove_best_start(pm, run_dir=tmp_path / "a", **options)
    assert calls and all(starts == known for starts, known in calls)
    calls.clear()
    monkeypatch.setattr(proofs._Search, "keep_whole", lambda *_: None)
    again = prove_best_start(pm, run_dir=tmp_path / "b", **options)
    assert calls and not any(known for _, known in calls)
    assert proof.as_dict()["statement"] == again.as_dict()["statement"] and proof.exact == again.exact
    second = [{u: r for u, r in RunStore(tmp_path / d, proof.job.params()).results().items()
               if u.startswith("second-pass:")} for d in "ab"]
    assert second[0] == second[1] and second[0]


def test_the_second_pass_runs_beside_the_searches(tmp_path, monkeypatch):
    """In the search phase the second-pass bounds come a word at a time (chunks of 1 here) beside
    the searches: each chunk after the first waits (10 s at most) until a search of the phase has
    started, which it only does if the searches run while the chunks are computed; no word is
    searched before its second-pass bound is known; the best start words are the true ones."""
    from gpusolve.runs import proof as proofs
    from gpusolve.search import optimal

    monkeypatch.setattr(proofs, "FIRST_PASS_UNITS", 8)
    monkeypatch.setattr(proofs, "SEED_POOL", 2)
    monkeypatch.setattr(proofs, "SECOND_PASS_CHUNK", 1)
    phase, searching = threading.Event(), threading.Event()
    known, chunks, waited, ordered = set(), [], [], []
    plain = (proofs._Clock.beside, proofs._Search.second_bounds, proofs._Search.take_second, optimal.solve)

    def beside(self, name, work):
        phase.set()
        return plain[0](self, name, work)

    def second_bounds(self, words):
        if threading.current_thread() is not threading.main_thread():
            chunks.append(words)
            if len(chunks) > 1:
                waited.append(searching.wait(10))
        return plain[1](self, words)

    def take_second(self, words, second, left):
        plain[2](self, words, second, left)
        known.update(words)

    def solve(pm, question, options):
        if phase.is_set():
            ordered.append(question.start in known)
            searching.set()
        return plain[3](pm, question, options)

    monkeypatch.setattr(proofs._Clock, "beside", beside)
    monkeypatch.setattr(proofs._Search, "second_bounds", second_bounds)
    monkeypatch.setattr(proofs._Search, "take_second", take_second)
    monkeypatch.setattr(optimal, "solve", solve)
    pm = random_instance("jotto", 7, 40, 60)
    proof = prove_best_start(pm, max_guesses=5, run_dir=tmp_path, workers=2, second_pass=True)
    assert len(chunks) >= 2 and all(waited) and ordered and all(ordered)
    assert proof.by_second_pass > 0 and proof.phases["second_pass"] > 0
    truth = exact_totals(pm, "normal", 5)
    assert proof.best == [(w, t) for w, t in truth.items() if t == min(truth.values())]


def test_an_interrupted_proof_resumes_where_it_stopped(tmp_path):
    pm = random_instance("mastermind", 3, 30, 64)
    straight = prove_best_start(pm, max_guesses=4, run_dir=tmp_path / "straight", workers=1, keep=2,
                                second_pass=True)
    for phase in (SEED_PHASE, FIRST_PASS_PHASE, SECOND_PASS_PHASE, SEARCH_PHASE):
        run = tmp_path / phase.replace(" ", "-")
        events = []

        def stop_soon(event, phase=phase, events=events):
            assert isinstance(event, Progress) and 0 <= event.done <= event.total
            events.append(event)
            if event.phase == phase and len(events) >= 2:
                raise KeyboardInterrupt

        cut = prove_best_start(pm, max_guesses=4, run_dir=run, workers=1, keep=2, progress=stop_soon,
                               second_pass=True)
        assert not cut.complete and "run the same command again to resume" in cut.statement()
        again = prove_best_start(pm, max_guesses=4, run_dir=run, workers=1, keep=2, second_pass=True)
        assert again.complete and again.best == straight.best and again.exact == straight.exact
        assert again.searched_now < straight.searched_now or phase in (FIRST_PASS_PHASE, SECOND_PASS_PHASE)


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    return small_lists(tmp_path_factory.mktemp("lists"), n_answers=20, n_extra=30)


def test_cli_optimal_tree_without_a_start_is_the_proof(tmp_path, lists):
    g, a = lists
    pm = pattern_matrix(make_game(), g, a)
    truth = exact_totals(pm, "normal", 6)
    best = min(truth.values())
    args = ["optimal-tree", "--guesses", g, "--answers", a, "--run-dir", str(tmp_path / "run"),
            "--workers", "1"]
    first = CliRunner().invoke(app, [*args, "--json"])
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    winners = [w for w, t in truth.items() if t == best]
    assert data["complete"] and data["best"] == [{"guess": w, "total": best} for w in winners]
    names = ", ".join(winners)
    which = f"{names} is the best start word" if len(winners) == 1 else f"{names} tie as the best"
    assert data["statement"].startswith(f"{which} of all {len(pm.guesses)} first guesses: total {best};")
    assert data["tree"]["total"] == best and data["tree"]["first_guess"] == data["best"][0]["guess"]
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    text = " ".join(again.output.split())  # however the console wraps it
    assert f"proven: yes, {data['statement']}" in text and "(0 start words searched now)" in text


def _units(db) -> int:
    """Return the units recorded in a run store (0 before it exists)."""
    import sqlite3

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


@pytest.mark.slow
def test_a_proof_killed_at_any_moment_resumes_to_the_same_result(tmp_path):
    g, a = anagram_lists(tmp_path)
    run = tmp_path / "killed"
    command = [sys.executable, "-m", "gpusolve", "optimal-tree", "--guesses", g, "--answers", a,
               "--workers", "1", "--run-dir", str(run), "--json", "--quiet"]
    seen, kills = 0, 0
    for at_least in (1, 64, 200, 330):  # units recorded: bounds of batches of 64, then searches
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
        deadline = time.monotonic() + 120
        while _units(run / DATABASE) < at_least and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait()
        now = _units(run / DATABASE)
        assert now >= seen  # committed work is never lost
        seen = now
    assert kills >= 3
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    resumed = json.loads(done.stdout)
    pm = pattern_matrix(make_game(), g, a)
    straight = prove_best_start(pm, g, a, workers=1, run_dir=tmp_path / "s")
    assert resumed["best"] == [{"guess": w, "total": t} for w, t in straight.best]
    assert resumed["exact"] == straight.exact and resumed["statement"] == straight.statement()
    assert _units(run / DATABASE) == _units(tmp_path / "s" / DATABASE)


def test_a_proof_of_few_classes_shares_its_threads_and_leaves_its_memo_to_the_tree(tmp_path):
    pm = pattern_matrix(make_game("bulls", 3, 6), None, None, "cpu")
    proof = prove_best_start(pm, max_guesses=6, run_dir=tmp_path / "a", workers=2)
    (word, total), = proof.best
    options = proof.memos[word]
    assert options.workers == 2  # one class of first guesses: both threads searched it
    again = solve(pm, Question(start=word, max_guesses=6), options)
    fresh = solve(pm, Question(start=word, max_guesses=6), Options(memo_mb=options.memo_mb, workers=2))
    assert again.total == fresh.total == total
    assert again.nodes < fresh.nodes


@pytest.mark.cuda
def test_the_proof_on_the_gpu_equals_the_proof_on_the_cpu(tmp_path, monkeypatch):
    """Every GPU step of the proof (first pass in GPU batches, the later ones beside the seeds;
    second pass beside the searches) on a small game, the thresholds lowered so that they run
    there: the same statement as on the CPU."""
    from gpusolve.kernels import config
    from test_cuda_kernels import Launches

    from gpusolve.runs import proof

    for name in ("FIRST_PASS_GPU_MIN_STARTS", "SECOND_PASS_GPU_MIN_UNITS", "THREADS_PER_BLOCK"):
        monkeypatch.setattr(config, name, 4)
    monkeypatch.setattr(config, "GPU_START_CELLS", 1)
    monkeypatch.setattr(proof, "GPU_PASS_UNITS", 16)
    threads = []

    def first_passes(*args):
        for found in plain(*args):
            threads.append(threading.current_thread().name)
            yield found

    plain = proof._first_passes
    monkeypatch.setattr(proof, "_first_passes", first_passes)
    pm = random_instance("jotto", 7, 24, 32)
    cpu = prove_best_start(pm, max_guesses=5, run_dir=tmp_path / "cpu", workers=1, second_pass=True)
    assert set(threads) == {"MainThread"}  # on the CPU: nothing ahead (the seeds' totals cut it off)
    threads.clear()
    pm.backend = Launches()
    gpu = prove_best_start(pm, max_guesses=5, run_dir=tmp_path / "gpu", workers=1)
    # the first GPU batch, then the other one beside the seeds (on a thread of its own)
    assert threads[0] == "MainThread" and threads[1].startswith("gpusolve-ahead") and len(threads) == 2
    assert gpu.statement() == cpu.statement() and gpu.exact == cpu.exact
    assert gpu.by_second_pass == cpu.by_second_pass > 0
    assert pm.backend.launched["start_bounds"] >= 2 and pm.backend.launched["second_pass"] >= 1
    # where the GPU time went: every kernel launched, counted as often, and each phase's share
    calls = gpu.as_dict()["gpu"]["calls"]
    assert calls["bounds_cuda.start_bounds"]["times"] == pm.backend.launched["start_bounds"]
    assert calls["second_pass_cuda.second_pass"]["times"] == pm.backend.launched["second_pass"]
    assert set(gpu.gpu["phases"]) == set(gpu.phases) and cpu.gpu is None
    assert all(0 <= gpu.gpu["phases"][p] <= gpu.phases[p] for p in gpu.phases)


@pytest.mark.cuda
def test_a_proof_stopped_during_the_seeds_stops_the_first_pass_beside_them(tmp_path, monkeypatch):
    """Ctrl-C while the seeds are searched (the GPU's first-pass batches running beside them):
    the batch under way finishes, nothing is left running, and the same command resumes to the
    statement of a run never stopped."""
    from gpusolve.kernels import config
    from test_cuda_kernels import Launches

    from gpusolve.runs import proof

    for name in ("FIRST_PASS_GPU_MIN_STARTS", "SECOND_PASS_GPU_MIN_UNITS", "THREADS_PER_BLOCK"):
        monkeypatch.setattr(config, name, 4)
    monkeypatch.setattr(config, "GPU_START_CELLS", 1)
    monkeypatch.setattr(proof, "GPU_PASS_UNITS", 8)
    pm = random_instance("jotto", 7, 24, 32)
    pm.backend = Launches()
    straight = prove_best_start(pm, max_guesses=5, run_dir=tmp_path / "straight", workers=1)

    def stop(event):
        if event.phase == SEED_PHASE:
            raise KeyboardInterrupt

    cut = prove_best_start(pm, max_guesses=5, run_dir=tmp_path / "cut", workers=1, progress=stop)
    assert not cut.complete and cut.bounds_done is not None
    assert not [t for t in threading.enumerate() if t.name.startswith("gpusolve-ahead")]
    again = prove_best_start(pm, max_guesses=5, run_dir=tmp_path / "cut", workers=1)
    assert again.statement() == straight.statement() and again.exact == straight.exact


@pytest.mark.cuda
def test_a_hard_mode_proof_on_the_cuda_backend_computes_its_first_pass_on_the_gpu(tmp_path, monkeypatch):
    """Hard mode's first pass has a CUDA twin: on the CUDA backend (every threshold lowered) its
    proof computes the first pass in GPU batches (the hard-mode kernel, no cutoff: the first
    batch, then the others beside the seeds), has no second pass, and states what the CPU's
    proof states."""
    from gpusolve.kernels import config
    from test_cuda_kernels import Launches

    from gpusolve.runs import proof
    from gpusolve.search import bounds

    for name in ("FIRST_PASS_GPU_MIN_STARTS", "SECOND_PASS_GPU_MIN_UNITS", "THREADS_PER_BLOCK"):
        monkeypatch.setattr(config, name, 4)
    monkeypatch.setattr(config, "GPU_START_CELLS", 1)
    monkeypatch.setattr(proof, "GPU_PASS_UNITS", 16)
    monkeypatch.setattr(proof, "FIRST_PASS_UNITS", 4)
    batches = []

    def start_first_pass(pm, mode, max_guesses, starts, cutoff=None):
        batches.append((len(starts), cutoff))
        return plain(pm, mode, max_guesses, starts, cutoff)

    plain = bounds.start_first_pass
    monkeypatch.setattr(bounds, "start_first_pass", start_first_pass)
    pm = random_instance("wordle", 3, 24, 32)
    cpu = prove_best_start(pm, mode="hard", max_guesses=5, run_dir=tmp_path / "cpu", workers=1)
    assert max(n for n, _ in batches) == 4
    pm.backend = Launches()
    batches.clear()
    gpu = prove_best_start(pm, mode="hard", max_guesses=5, run_dir=tmp_path / "gpu", workers=1)
    assert gpu.statement() == cpu.statement() and gpu.exact == cpu.exact
    assert gpu.by_second_pass == 0 and batches == [(16, None), (16, None)]
    assert pm.backend.launched["start_hard_bounds"] == 2
    assert not pm.backend.launched["start_bounds"] and not pm.backend.launched["second_pass"]


def test_the_seeds_go_on_past_a_start_word_with_no_strategy(tmp_path, monkeypatch):
    """Hard Jotto where the seed of least first-pass bound (BARIC) finds no strategy within 4
    guesses: the next one is searched too, so that the first pass of the other batches is cut
    off by a total (not run whole); the proof still finds the best start words."""
    from gpusolve.runs import proof as proofs
    from gpusolve.search import bounds

    cutoffs = []

    def start_first_pass(pm, mode, max_guesses, starts, cutoff=None):
        cutoffs.append(cutoff)
        return plain(pm, mode, max_guesses, starts, cutoff)

    plain = bounds.start_first_pass
    monkeypatch.setattr(bounds, "start_first_pass", start_first_pass)
    monkeypatch.setattr(proofs, "FIRST_PASS_UNITS", 8)
    pm = random_instance("jotto", 2, 30, 40)
    truth = exact_totals(pm, "hard", 4)
    assert truth["BARIC"] == float("inf")
    proof = prove_best_start(pm, mode="hard", max_guesses=4, run_dir=tmp_path, workers=1)
    assert "BARIC" not in proof.exact and len(cutoffs) == 5
    assert cutoffs[0] is None and None not in cutoffs[1:]
    least = min(truth.values())
    assert proof.best == [(w, t) for w, t in truth.items() if t == least]
