"""Every CUDA kernel against its CPU twin and the pure-Python oracle, and every launch site
of the library on both backends (a GPU, or NUMBA_ENABLE_CUDASIM=1: small inputs, small blocks)."""

from __future__ import annotations

import threading
from collections import Counter
from contextlib import contextmanager

import numpy as np
import pytest
from gpusolve.kernels import config
from gpusolve.kernels.stats import N_STATS
from test_histogram import oracle_stats
from tinygames import sub_matrix

from gpusolve.core.backend import CpuBackend, CudaBackend
from gpusolve.core.games import make_game
from gpusolve.core.patterns import build_codes

pytestmark = pytest.mark.cuda

WORDS = ("NINNY", "ANNEX", "HELLO", "WORLD", "EPEES", "GEESE", "PEEVE", "WHEEE", "STARS",
         "TRAPS", "PALLS", "SPLAT", "BANAL", "MANIA", "ABYSS", "CRANE", "SLATE")
GAMES = [
    ("wordle", 5, WORDS),
    ("jotto", 5, ("CRANE", "SLATE", "BIRTH", "FJORD", "NYMPH", "WALTZ")),
    ("mastermind", 4, ("1122", "1234", "6543", "1111", "2211", "3456")),
    ("wordle", 6, ("BANANA", "ANANAS", "CANNON", "PAPAYA")),
]


ROUTING = {name: getattr(config, name) for name in ("FIRST_PASS_GPU_MIN_STARTS", "SECOND_PASS_GPU_MIN_UNITS")}
"""config's own thresholds for the first and second pass on the GPU (the fixture lowers them)."""


@pytest.fixture(autouse=True)
def _small_blocks(monkeypatch):
    """Blocks of 4 threads (grid-stride loops run several rounds), few preset threads, and the
    first and second passes of the few start words of small games on the GPU."""
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)
    monkeypatch.setattr(config, "PRESET_GPU_THREADS", 4)
    monkeypatch.setattr(config, "FIRST_PASS_GPU_MIN_STARTS", 1)
    monkeypatch.setattr(config, "SECOND_PASS_GPU_MIN_UNITS", 1)


class Launches(CudaBackend):
    """The CUDA backend sending every call to the GPU (or, not ``every_call``, those it routes
    there), counting launches by kernel name."""

    def __init__(self, every_call: bool = True) -> None:
        super().__init__(every_call=every_call)
        self.launched: Counter = Counter()

    def launch(self, kernel, blocks, *args, **options) -> None:
        self.launched[kernel.py_func.__name__] += 1
        super().launch(kernel, blocks, *args, **options)


@pytest.mark.parametrize(("name", "length", "words"), GAMES)
def test_pattern_matrix_cuda_equals_cpu_and_oracle(name, length, words):
    game = make_game(name, length)
    cpu = build_codes(game, words, words[:5], CpuBackend())
    gpu = build_codes(game, words, words[:5], CudaBackend(every_call=True))
    assert gpu.tolist() == cpu.tolist()
    assert gpu.tolist() == [[game.reply(g, a) for a in words[:5]] for g in words]


@pytest.mark.parametrize(("name", "length", "words"), [*GAMES, ("wordle", 2, ())])
def test_reply_stats_cuda_equals_cpu_and_oracle(name, length, words):
    """The histogram kernel and its CPU twin over many sets at once: empty, one answer, sets
    larger than the number of replies (the CPU twin's interleaved counts), every column."""
    game = make_game(name, length)
    rng = np.random.default_rng(len(words) + length)
    if not words:  # 2-letter Wordle: 9 replies, so sets of 10 or more answers
        words = tuple(sorted({"".join(rng.choice(list("ABCDE"), 2)) for _ in range(40)}))
    codes = build_codes(game, words, words, CpuBackend())
    n = len(words)
    sets = [list(range(n)), [], [n - 1], sorted(rng.choice(n, n // 2, replace=False).tolist()),
            list(range(1, n, 2))]
    flat = np.array([a for s in sets for a in s], np.int32)
    starts = np.cumsum([0] + [len(s) for s in sets])
    rows = np.array([0, n - 1, *rng.permutation(n)[:2]], np.int32)
    gpu = Launches()
    for columns in (np.arange(N_STATS), np.array([8, 3, 7, 0])):
        cpu_table = CpuBackend().reply_stats(codes, rows, flat, starts, game.n_patterns, game.solved, columns)
        gpu_table = gpu.reply_stats(codes, rows, flat, starts, game.n_patterns, game.solved, columns)
        want = [[[oracle_stats(codes, r, s, game.solved)[c] for c in columns] for r in rows] for s in sets]
        assert cpu_table.tolist() == want
        assert gpu_table.tolist() == want
    assert gpu.launched == {"reply_stats": 2}


@contextmanager
def gpu_held_elsewhere(seconds: float = 10.0):
    """Within the block, another thread holds the GPU's launch lock (``seconds`` at most)."""
    from gpusolve.core import backend

    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with backend._LAUNCH_LOCK:
            held.set()
            release.wait(seconds)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait()
    try:
        yield
    finally:
        release.set()
        holder.join()


def test_small_calls_and_cut_off_first_passes_run_on_the_cpu_while_the_gpu_is_busy(monkeypatch):
    """While another thread's launch holds the GPU, a small reply-statistics call and a first pass
    with a cutoff run on the CPU at once (the same table; bounds proven at the cutoff) instead of
    waiting (10 s here, then a launch: the counts below catch it); a first pass with no cutoff
    waits for the GPU; and each runs on the GPU once it is free."""
    from test_optimal import random_instance

    from gpusolve.search.bounds import first_pass, guess_caps, guess_table

    for name in ("GPU_MIN_ANSWERS", "GPU_START_CELLS", "FIRST_PASS_GPU_MIN_STARTS"):
        monkeypatch.setattr(config, name, 1)
    pm = random_instance("wordle", 5, 24, 40)
    answers, rows = np.arange(24, dtype=np.int32), np.arange(40, dtype=np.int32)
    caps = guess_caps(guess_table(pm, answers, rows))
    cpu = first_pass(pm, answers, rows, rows, caps, 3, cutoff=60)
    whole = first_pass(pm, answers, rows, rows, caps, 3)
    starts = np.array([0, len(answers)])
    table = CpuBackend().reply_stats(pm.codes, rows, answers, starts, pm.game.n_patterns, pm.game.solved,
                                     np.arange(N_STATS))
    pm.backend = gpu = Launches(every_call=False)
    with gpu_held_elsewhere():
        assert gpu.busy()
        got = gpu.reply_stats(pm.codes, rows, answers, starts, pm.game.n_patterns, pm.game.solved,
                              np.arange(N_STATS))
        assert got.tolist() == table.tolist()
        assert first_pass(pm, answers, rows, rows, caps, 3, cutoff=60).totals.tolist() == cpu.totals.tolist()
        assert not gpu.launched
    assert not gpu.busy()
    gpu.reply_stats(pm.codes, rows, answers, starts, pm.game.n_patterns, pm.game.solved, np.arange(N_STATS))
    assert first_pass(pm, answers, rows, rows, caps, 3, cutoff=60).totals.tolist() == whole.totals.tolist()
    assert gpu.launched == {"reply_stats": 1, "start_bounds": 1}
    with gpu_held_elsewhere(seconds=0.5):
        assert first_pass(pm, answers, rows, rows, caps, 3).totals.tolist() == whole.totals.tolist()
    assert gpu.launched["start_bounds"] == 2


def _tiny(small_pm, backend):
    """A small Wordle game whose answers look alike (-ATCH words and a few others)."""
    answers = [w for w in small_pm.answers if w.endswith("ATCH")] + ["CRANE", "SLATE", "TAUNT"]
    guesses = [*answers, "SLING", "CRUMB", "FLOOD"]
    return sub_matrix(small_pm, guesses, answers, backend)


def _metrics(pm):
    from gpusolve.search.metrics import partition_table

    return partition_table(pm)


def _worst_case_stats(pm):
    from gpusolve.search.worstcase import _search

    s = _search(pm, "normal", None, 10**9)
    return s.stats(np.arange(1, pm.shape[1], dtype=np.int32), s.guesses)


def _optimal_guess_table(pm):
    from gpusolve.search.bounds import guess_table

    return guess_table(pm, np.arange(pm.shape[1], dtype=np.int32), np.arange(pm.shape[0], dtype=np.int32))


def _absurdle_scores(pm):
    from gpusolve.search.absurdle import _Search

    flat = np.array([*range(pm.shape[1]), 0, 1, 3, 2], np.int32)
    return _Search(pm, 10**9).scores(flat, np.array([0, pm.shape[1], pm.shape[1] + 1, len(flat)]))


def _preset_first_pass(pm):
    from gpusolve.search.presets import _Square, first_pass

    sets = np.array([[0, 1], [2, 5], [3, 4], [6, 1], [pm.shape[0] - 1, 0]], np.int32)
    return first_pass(pm, _Square(pm), sets, 2)


def _first_pass(pm):
    from gpusolve.search.bounds import first_pass

    answers = np.arange(pm.shape[1], dtype=np.int32)
    rows = np.arange(pm.shape[0], dtype=np.int32)
    caps = np.array([len(set(row.tolist())) for row in pm.codes], np.int64)  # distinct replies
    found = first_pass(pm, answers, rows, rows, caps, 2)
    return found.totals, found.buckets


def _hard_first_pass(pm):
    from gpusolve.search.bounds import first_pass

    answers = np.arange(pm.shape[1], dtype=np.int32)
    rows = np.arange(pm.shape[0], dtype=np.int32)
    caps = np.array([len(set(row.tolist())) for row in pm.codes], np.int64)
    found = first_pass(pm, answers, rows, rows, caps, 2, hard=True)
    return found.totals, found.buckets


def _war(pm):
    return pm.backend.war_games(12345, 7, 9, 4, 3, 1, 500)


def _hard_mode_rows(pm):
    moves = [("CRANE", "Y.Y.."), ("LATCH", ".GGGG")]
    return pm.hard_mode_rows([(w, pm.game.parse_reply(r)) for w, r in moves])


def _pattern_matrix(pm):
    return build_codes(pm.game, pm.guesses, pm.answers, pm.backend)


LAUNCH_SITES = {  # every place the library launches a CUDA kernel: (call, kernel launched)
    "pattern matrix": (_pattern_matrix, "fill_pattern_matrix"),
    "metrics: partition table": (_metrics, "reply_stats"),
    "worst case: statistics of a large set": (_worst_case_stats, "reply_stats"),
    "optimal: guess table": (_optimal_guess_table, "reply_stats"),
    "absurdle: scores of many sets": (_absurdle_scores, "reply_stats"),
    "presets: first pass": (_preset_first_pass, "set_bounds"),
    "optimal: first-pass bounds of every start word": (_first_pass, "start_bounds"),
    "optimal: hard-mode first-pass bounds of every start word": (_hard_first_pass, "start_hard_bounds"),
    "war: games": (_war, "play_games"),
    "hard mode: the guesses allowed": (_hard_mode_rows, "allowed"),
}


@pytest.mark.parametrize("site", LAUNCH_SITES)
def test_every_launch_site_cuda_equals_cpu(small_pm, site):
    call, kernel = LAUNCH_SITES[site]
    gpu = Launches()
    want = call(_tiny(small_pm, CpuBackend()))
    got = call(_tiny(small_pm, gpu))
    assert gpu.launched == {kernel: 1}
    as_lists = (lambda x: [a.tolist() for a in x]) if isinstance(want, tuple) else (lambda x: x.tolist())
    assert as_lists(got) == as_lists(want)


@pytest.mark.parametrize("kind", ["wordle", "jotto", "mastermind"])
@pytest.mark.parametrize("mode", ["normal", "consistent"])
def test_first_pass_bounds_cuda_equal_cpu(monkeypatch, kind, mode):
    """The first-pass kernel (one block per start word, grid-stride over them) gives the CPU
    kernel's exact partition bounds with 1, 2 and 4 guesses left."""
    from test_optimal import random_instance

    from gpusolve.search.bounds import first_pass, guess_caps, guess_table

    pm = random_instance(kind, 11, 24, 40)
    answers = np.arange(24, dtype=np.int32)
    rows = pm.answer_rows.astype(np.int32) if mode == "consistent" else np.arange(40, dtype=np.int32)
    caps = guess_caps(guess_table(pm, answers, rows))
    monkeypatch.setattr(config, "BOUNDS_GPU_BLOCKS", 3)
    for left in (1, 2, 4):
        cpu = first_pass(pm, answers, rows, rows, caps, left, members_only=mode == "consistent")
        pm.backend = Launches()
        gpu = first_pass(pm, answers, rows, rows, caps, left, members_only=mode == "consistent")
        assert pm.backend.launched == {"start_bounds": 1}
        pm.backend = CpuBackend()
        assert gpu.totals.tolist() == cpu.totals.tolist()
        assert gpu.buckets.tolist() == cpu.buckets.tolist()


@pytest.mark.parametrize("kind", ["wordle", "repeats", "jotto", "mastermind", "bulls", "black pegs"])
def test_hard_first_pass_bounds_cuda_equal_cpu_and_the_oracle(monkeypatch, kind):
    """The hard-mode first-pass kernel gives the CPU kernel's bounds (run to its end), bit for
    bit, in every game with a hard mode, with 1, 2 and 4 guesses left: over every answer and
    guess, and over a node's answers and the guesses allowed there (a strict subset of the rows,
    in no particular order); each bucket's bound equals the brute-force oracle's."""
    from test_hard_bounds import instance

    from gpusolve.search.bounds import first_pass, guess_caps, guess_table, reference_hard_bucket_bound

    pm = instance(kind, 17, 16, 40)
    rng = np.random.default_rng(5)
    monkeypatch.setattr(config, "BOUNDS_GPU_BLOCKS", 3)
    whole = (np.arange(pm.shape[1], dtype=np.int32), np.arange(pm.shape[0], dtype=np.int32))
    node = (np.sort(rng.choice(pm.shape[1], 11, replace=False)).astype(np.int32),
            rng.permutation(pm.shape[0])[:30].astype(np.int32))
    for (answers, rows), left in [(whole, 1), (whole, 2), (whole, 4), (node, 2), (node, 3)]:
        caps = guess_caps(guess_table(pm, answers, rows))
        starts = rows[::2]
        cpu = first_pass(pm, answers, starts, rows, caps, left, hard=True)
        pm.backend = Launches()
        gpu = first_pass(pm, answers, starts, rows, caps, left, hard=True)
        assert pm.backend.launched == {"start_hard_bounds": 1}
        pm.backend = CpuBackend()
        assert gpu.totals.tolist() == cpu.totals.tolist()
        assert gpu.buckets.tolist() == cpu.buckets.tolist()
    for j, s in enumerate(starts):  # the node's, 3 guesses left
        for p in np.unique(pm.codes[s, answers]):
            if p != pm.game.solved:
                bucket = answers[pm.codes[s, answers] == p]
                assert gpu.buckets[j, p] == reference_hard_bucket_bound(pm, s, bucket, rows, 3)


def test_first_pass_bounds_cuda_equal_cpu_where_the_level_bound_binds(monkeypatch):
    """In a game of few replies (black pegs only, 4 pegs of 4 colours) the level bound is above
    the partition bound of large buckets; the CUDA kernel gives the CPU kernel's bounds there."""
    from test_optimal import small_matrix

    from gpusolve.core.games import make_game
    from gpusolve.search.bounds import first_pass, guess_caps, guess_table, reference_bucket_bound

    game = make_game("mastermind", 4, 4, black_only=True)
    codes = game.word_lists(None, None)[0]
    pm = small_matrix(game, codes, codes)
    answers = np.arange(len(codes), dtype=np.int32)
    rows = answers.copy()
    starts = rows[::37]
    caps = guess_caps(guess_table(pm, answers, rows))
    monkeypatch.setattr(config, "BOUNDS_GPU_BLOCKS", 3)
    cpu = first_pass(pm, answers, starts, rows, caps, 5)
    pm.backend = Launches()
    gpu = first_pass(pm, answers, starts, rows, caps, 5)
    pm.backend = CpuBackend()
    assert gpu.buckets.tolist() == cpu.buckets.tolist()
    above = 0
    for j, s in enumerate(starts):
        for p in range(game.n_patterns):
            bucket = answers[pm.codes[s] == p]
            if p != game.solved and len(bucket) >= 3:
                assert cpu.buckets[j, p] == reference_bucket_bound(pm, bucket, rows, 5)
                best = max(len(set(pm.codes[g, bucket].tolist())) + (g in bucket) for g in rows)
                above += cpu.buckets[j, p] > 3 * len(bucket) - best
    assert above > 0


def test_doctor_runs_the_gpu_kernels_against_the_cpu(monkeypatch):
    from gpusolve.doctor import check

    for name, value in ROUTING.items():  # the routing the doctor meets: config's own thresholds
        monkeypatch.setattr(config, name, value)
    launched = Counter()
    real = CudaBackend.launch

    def counted(self, kernel, blocks, *args, **options):
        launched[kernel.py_func.__name__] += 1
        real(self, kernel, blocks, *args, **options)

    monkeypatch.setattr(CudaBackend, "launch", counted)
    report = check(samples=50)
    gpu = [c for c in report["checks"] if c["name"].startswith("GPU")]
    names = [c["name"].split(" (")[0] for c in gpu]
    assert names == ["GPU matrix == CPU matrix", "GPU reply statistics == CPU",
                     "GPU first-pass bounds == CPU", "GPU hard-mode first-pass bounds == CPU",
                     "GPU second-pass bounds == CPU"]
    assert all(c["ok"] for c in gpu) and report["ok"]
    # each check compared the GPU's kernel with the CPU's, not the CPU with itself
    kernels = {"fill_pattern_matrix", "reply_stats", "start_bounds", "start_hard_bounds", "second_pass"}
    assert kernels <= set(launched)
