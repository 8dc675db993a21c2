"""Hard mode's first-pass bounds: equal to the pure-Python oracle (each bucket scored over the
guesses the reference hard-mode rule allows after the start word's reply), never above the true
value of any bucket at any node of small random games of every game with a hard mode (repeated
letters included), never below the normal-mode bound, and the exact search unchanged by them."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_bounds import (  # noqa: F401 (a fixture)
    check_bounds_at_every_node,
    check_search,
    first_pass_everywhere,
    node_values,
)
from test_dead_cores import trap_instance
from test_optimal import INF, WORDLE_WORDS, brute_force, random_instance, small_matrix
from tinygames import tiny, tiny_pm

from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import make_game
from gpusolve.core.modes import hard_mode_allows
from gpusolve.search import optimal
from gpusolve.search.bounds import (
    answerers,
    first_pass,
    guess_caps,
    reference_hard_bucket_bound,
    screened_hard_pass,
)
from gpusolve.search.optimal import Options, Question, guess_table, solve

KINDS = ("wordle", "repeats", "jotto", "mastermind", "bulls", "black pegs")
"""The games with a hard mode: Wordle (also drawn mostly from words with a repeated letter),
Jotto, Mastermind (codes with repeated colours), Bulls and Cows (no repeats) and Mastermind
with black pegs only."""

REPEATS = [w for w in WORDLE_WORDS if len(set(w)) < len(w)]
"""Wordle answers with a repeated letter (GEESE, LLAMA, ...)."""


def instance(kind: str, seed: int, n_answers: int, n_guesses: int):
    """Return a small random game of ``kind`` (``KINDS``): answers among the guesses."""
    rng = random.Random(seed)
    if kind in ("wordle", "jotto"):
        return random_instance(kind, seed, n_answers, n_guesses)
    if kind == "repeats":
        game = make_game("wordle")
        guesses = rng.sample(REPEATS, (n_guesses + 1) // 2) + rng.sample(WORDLE_WORDS, n_guesses // 2)
        guesses = sorted(set(guesses))
    else:
        game = {"mastermind": make_game("mastermind", 3, 4), "bulls": make_game("bulls", 3, 5),
                "black pegs": make_game("mastermind", 3, 4, black_only=True)}[kind]
        codes = game.word_lists(None, None)[0]
        guesses = sorted(rng.sample(codes, min(n_guesses, len(codes))))
    return small_matrix(game, guesses, sorted(rng.sample(guesses, min(n_answers, len(guesses)))))


PAIR_MAX = st.sampled_from([0, 3, 96])
"""Buckets scored pairwise at most (0: every bucket guess by guess); never changes a bound."""


def hard_bounds(pm, answers, allowed, left: int, pair_max: int, cutoff: int | None = None):
    """Return (hard, normal) first-pass bounds of every allowed guess (by row) over the node ``answers``."""
    cols = np.array([pm.answers.index(a) for a in sorted(answers)], np.int32)
    rows = np.array(sorted(pm.guess_index[g] for g in allowed), np.int32)
    caps = guess_caps(guess_table(pm, cols, rows))
    return (first_pass(pm, cols, rows, rows, caps, left, cutoff=cutoff, pair_max=pair_max, hard=True),
            first_pass(pm, cols, rows, rows, caps, left, cutoff=cutoff))


def check_every_node(pm, max_guesses: int, pair_max: int) -> None:
    """Check the hard-mode bounds of every bucket of every guess at every node brute force visits:
    never above the true value, equal to the oracle's, never below the normal-mode bound."""

    def bounds(answers, depth, allowed):
        hard, normal = hard_bounds(pm, answers, allowed, depth - 1, pair_max)
        rows = np.array(sorted(pm.guess_index[g] for g in allowed))

        def check(j, g, p, bcols, bound):
            assert bound == reference_hard_bucket_bound(pm, pm.guess_index[g], bcols, rows, depth - 1)
            assert bound >= normal.buckets[j, p]

        return hard, [pm.guesses[r] for r in rows], check

    check_bounds_at_every_node(pm, node_values(pm, "hard", max_guesses), bounds)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10**6), n_answers=st.integers(4, 11),
       extra=st.integers(2, 14), max_guesses=st.integers(2, 4), pair_max=PAIR_MAX)
def test_hard_bounds_equal_the_oracle_and_never_exceed_the_value_at_any_node(kind, seed, n_answers, extra,
                                                                                  max_guesses, pair_max):
    check_every_node(instance(kind, seed, n_answers, n_answers + extra), max_guesses, pair_max)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10**6), n_answers=st.integers(6, 30),
       n_guesses=st.integers(40, 120), left=st.integers(2, 5), pair_max=PAIR_MAX)
def test_hard_bounds_equal_the_oracle_with_many_more_guesses_than_answers(kind, seed, n_answers, n_guesses,
                                                                          left, pair_max):
    """Where the guesses besides a bucket's own answers score best (a large game's buckets)."""
    pm = instance(kind, seed, n_answers, n_guesses)
    hard, normal = hard_bounds(pm, pm.answers, pm.guesses, left, pair_max)
    rows = np.arange(len(pm.guesses))
    for s in rows:
        replies = pm.codes[s]
        for p in np.unique(replies):
            if p != pm.game.solved:
                bucket = np.flatnonzero(replies == p)
                assert hard.buckets[s, p] == reference_hard_bucket_bound(pm, s, bucket, rows, left)
        assert (hard.buckets[s] >= normal.buckets[s]).all()


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(inst=tiny(max_answers=9, max_extra=6), max_guesses=st.integers(2, 4), pair_max=PAIR_MAX)
def test_hard_bounds_at_every_node_of_tiny_wordle_games(small_pm, inst, max_guesses, pair_max):
    check_every_node(tiny_pm(small_pm, inst), max_guesses, pair_max)


def check_screened_at_every_node(pm, max_guesses: int, pair_max: int, slack: int) -> None:
    """Check the screened hard-mode first pass (the normal-mode pass first) at every node brute force
    visits, against a cutoff ``slack`` above the node's least hard-mode first-pass total: each bound
    at most the true hard-mode value, the same start words below the cutoff as the hard pass alone
    leaves, with its bounds, and the others at or above it."""

    def bounds(answers, depth, allowed):
        cols = np.array([pm.answers.index(a) for a in sorted(answers)], np.int32)
        rows = np.array(sorted(pm.guess_index[g] for g in allowed), np.int32)
        caps = guess_caps(guess_table(pm, cols, rows))
        cutoff = int(first_pass(pm, cols, rows, rows, caps, depth - 1, hard=True).totals.min()) + slack
        hard = first_pass(pm, cols, rows, rows, caps, depth - 1, cutoff=cutoff, pair_max=pair_max, hard=True)
        kept = answerers(pm, cols, rows, caps, facts=True)
        screened = screened_hard_pass(pm, cols, rows, rows, caps, depth - 1, cutoff, kept, pair_max=pair_max)
        below = hard.totals < cutoff
        assert ((screened.totals < cutoff) == below).all()
        assert (screened.totals[below] == hard.totals[below]).all()
        assert (screened.buckets[below] == hard.buckets[below]).all()
        return screened, [pm.guesses[r] for r in rows], lambda *_: None

    check_bounds_at_every_node(pm, node_values(pm, "hard", max_guesses), bounds)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10**6), n_answers=st.integers(4, 11),
       extra=st.integers(2, 14), max_guesses=st.integers(2, 4), pair_max=PAIR_MAX, slack=st.integers(0, 12))
def test_the_screened_hard_pass_never_exceeds_the_hard_value_at_any_node(kind, seed, n_answers, extra,
                                                                          max_guesses, pair_max, slack):
    check_screened_at_every_node(instance(kind, seed, n_answers, n_answers + extra), max_guesses, pair_max,
                                 slack)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(inst=tiny(max_answers=9, max_extra=6), max_guesses=st.integers(2, 4), pair_max=PAIR_MAX,
       slack=st.integers(0, 12))
def test_the_screened_hard_pass_at_every_node_of_tiny_wordle_games(small_pm, inst, max_guesses, pair_max,
                                                                   slack):
    check_screened_at_every_node(tiny_pm(small_pm, inst), max_guesses, pair_max, slack)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10**6), n_answers=st.integers(6, 13),
       extra=st.integers(6, 20), max_guesses=st.integers(2, 5))
@pytest.mark.usefixtures("first_pass_everywhere")
def test_hard_search_with_every_batch_screened_matches_brute_force(monkeypatch, kind, seed, n_answers, extra,
                                                                   max_guesses):
    """Every set's batches with a cutoff screened by the normal-mode pass (``SCREEN_RATE`` 0, a start
    word a batch), with and without a cutoff at the value: the exact search's answers unchanged."""
    monkeypatch.setattr(optimal, "SCREEN_RATE", 0)
    monkeypatch.setattr(optimal, "FIRST_PASS_BATCH", 1)
    check_search(instance(kind, seed, n_answers, n_answers + extra), "hard", max_guesses)


@pytest.mark.usefixtures("first_pass_everywhere")
def test_the_search_screens_its_batches(monkeypatch):
    """The screened pass runs where the last batch was refuted enough (every batch after a set's first
    with ``SCREEN_RATE`` 0, none above 1), and the values stay exact."""
    calls = []

    def counted(*args, **kwargs):
        calls.append(1)
        return screened_hard_pass(*args, **kwargs)

    monkeypatch.setattr(optimal, "screened_hard_pass", counted)
    monkeypatch.setattr(optimal, "FIRST_PASS_BATCH", 1)
    for rate, screened in ((0, True), (1.01, False)):
        monkeypatch.setattr(optimal, "SCREEN_RATE", rate)
        calls.clear()
        check_search(instance("jotto", 3, 13, 33), "hard", 4)
        assert bool(calls) == screened


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["wordle", "repeats"]), seed=st.integers(0, 10**6), n_answers=st.integers(4, 11),
       extra=st.integers(2, 24), max_guesses=st.integers(2, 4))
def test_rule_twins_cost_the_same_at_every_node(kind, seed, n_answers, extra, max_guesses):
    """At every node brute force visits, guesses with equal ``twin_key`` have the same replies, the
    same allowed guesses after each of them (the reference rule) and the same true hard-mode cost."""
    pm = instance(kind, seed, n_answers, n_answers + extra)
    ctx = optimal._Context(pm, "hard", max_guesses)
    tree = node_values(pm, "hard", max_guesses)

    def what(r, answers, depth, allowed):  # what a guess row's cost depends on, and the cost
        g = pm.guesses[r]
        split = tree["buckets"](g, answers)
        after = {p: tree["after"](allowed, g, p) for p in split}
        cost = len(answers) + sum(tree["value"](frozenset(b), depth - 1, after[p])
                                  for p, b in split.items() if p != pm.game.solved)
        return {p: frozenset(b) for p, b in split.items()}, after, cost

    twins = 0
    for node in tree["values"]:
        cols = np.array(sorted(pm.answers.index(a) for a in node[0]), np.int32)
        classes: dict[bytes, list] = {}
        for g in node[2]:
            classes.setdefault(ctx.twin_key(cols, pm.guess_index[g]), []).append(pm.guess_index[g])
        for rows in classes.values():
            assert all(what(r, *node) == what(rows[0], *node) for r in rows[1:])
            twins += len(rows) - 1
    assert twins or n_answers + extra < 30


@pytest.mark.usefixtures("first_pass_everywhere")
def test_the_driver_searches_one_rule_twin_of_each_class(monkeypatch):
    """The driver's sets search one guess of each class of rule twins (fewer searches), and the
    totals of every start word stay brute force's."""
    pm = trap_instance(2, 30)  # a trap game (answers sharing four letters): twins among the guesses searched
    searched = []
    evaluate = optimal._Search.evaluate
    monkeypatch.setattr(optimal._Search, "evaluate", lambda *a, **k: searched.append(1) or evaluate(*a, **k))

    def totals():
        searched.clear()
        found = []
        for word in pm.guesses[::7]:
            try:
                found.append(solve(pm, Question(start=word, mode="hard", max_guesses=5),
                                   Options(workers=1, memo_mb=1)).total)
            except GpusolveError:
                found.append(None)
        return found, len(searched)

    twinned, fewer = totals()
    monkeypatch.setattr(optimal._Context, "twin_key", lambda self, answers, g: int(g).to_bytes(4, "little"))
    alone, more = totals()
    expected = [brute_force(pm, "hard", 5, start=w) for w in pm.guesses[::7]]
    assert twinned == alone == [None if v == INF else v for v in expected]
    assert fewer < more


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10**6), cutoff=st.integers(1, 80), pair_max=PAIR_MAX)
def test_a_cutoff_stops_the_hard_scan_early_with_proven_bounds(kind, seed, cutoff, pair_max):
    pm = instance(kind, seed, 14, 30)
    full, _ = hard_bounds(pm, pm.answers, pm.guesses, 5, pair_max)
    cut, _ = hard_bounds(pm, pm.answers, pm.guesses, 5, pair_max, cutoff)
    for j in range(len(pm.guesses)):
        assert (cut.buckets[j] <= full.buckets[j]).all()
        if full.totals[j] < cutoff:
            assert cut.totals[j] == full.totals[j] and cut.complete(j)
        else:
            assert cutoff <= cut.totals[j] <= full.totals[j]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10**6))
def test_the_rule_after_a_reply_depends_only_on_the_reply_the_start_word_would_get(kind, seed):
    """The kernel checks the rule once per group of guesses giving the start word one reply."""
    pm = instance(kind, seed, 12, 40)
    game = pm.game
    for s in pm.guesses:
        group: dict[int, list] = {}
        for h in pm.guesses:
            group.setdefault(game.reply(s, h), []).append(h)
        for p in {game.reply(s, a) for a in pm.answers}:
            for members in group.values():
                assert len({hard_mode_allows(game, h, [(s, p)]) for h in members}) == 1
            assert all(hard_mode_allows(game, a, [(s, p)]) for a in pm.answers if game.reply(s, a) == p)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_wordles_reply_key_and_the_reply_determine_each_other(seed):
    """The kernel groups Wordle's guesses by a key computed without the reply (the greens and how
    often each letter of the start word is held): equal keys exactly where equal replies."""
    from gpusolve.kernels.bounds_cpu import Words, _key_digits, _reply_key

    pm = instance("repeats", seed, 10, 60)
    game = pm.game
    words = Words(game.kind, game.length, game.colours, pm.letters, pm.letter_counts)
    for s, start in enumerate(pm.guesses):
        digits = _key_digits(words, s)
        pairs = {(_reply_key(words, s, h, *digits), game.reply(start, word))
                 for h, word in enumerate(pm.guesses)}
        assert len(pairs) == len({k for k, _ in pairs}) == len({q for _, q in pairs})
        assert max(k for k, _ in pairs) < 4 ** game.length


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 10**6), n_answers=st.integers(6, 13),
       extra=st.integers(6, 20), max_guesses=st.integers(2, 5))
@pytest.mark.usefixtures("first_pass_everywhere")
def test_hard_search_with_first_pass_matches_brute_force(kind, seed, n_answers, extra, max_guesses):
    assert optimal.DRIVER_MIN_ANSWERS == 1  # every set of the search gets first-pass bounds
    pm = instance(kind, seed, n_answers, n_answers + extra)
    expected = brute_force(pm, "hard", max_guesses)
    try:
        result = solve(pm, Question(mode="hard", max_guesses=max_guesses), Options(workers=1, memo_mb=1))
    except GpusolveError as e:
        assert expected == INF and "no strategy" in str(e)
        return
    assert result.total == expected and result.proven


def test_hard_first_pass_on_wordle(full_pm):
    """Above the normal-mode bound, and below the anchor's published hard-mode totals (alex1770/wordle
    ``results_hard_nyt20220316``: SALET 8,099, REAST 8,112, CRATE 8,121)."""
    cols = np.arange(full_pm.shape[1], dtype=np.int32)
    rows = np.arange(full_pm.shape[0], dtype=np.int32)
    caps = guess_caps(guess_table(full_pm, cols, rows))
    starts = np.array([full_pm.guess_index[w] for w in ("SALET", "REAST", "CRATE", "QAJAQ")], np.int32)
    hard = first_pass(full_pm, cols, starts, rows, caps, 5, hard=True)
    normal = first_pass(full_pm, cols, starts, rows, caps, 5)
    assert (hard.totals[:3] <= [8099, 8112, 8121]).all()
    assert (hard.totals > normal.totals).all()


class NamedCuda:
    """A backend that says it is CUDA and offloads everything, and fails on any launch."""

    name = "cuda"
    every_call = True

    def gpu_path(self) -> bool:
        return True

    def offloads(self, *sizes: int) -> bool:
        return True

    def launch(self, *args) -> None:
        raise AssertionError("the first pass launched a GPU kernel")


@pytest.mark.parametrize("hard", [False, True])
def test_the_first_pass_goes_to_the_gpu_on_the_cuda_backend_in_either_mode(monkeypatch, hard):
    """Hard mode's first pass has a CUDA twin (``kernels.bounds_cuda.start_hard_bounds``): on the
    CUDA backend it goes to the GPU as the normal one does."""
    from gpusolve.kernels import config

    from gpusolve.search import bounds

    monkeypatch.setattr(config, "FIRST_PASS_GPU_MIN_STARTS", 1)
    pm = instance("wordle", 5, 12, 30)
    cols = np.arange(12, dtype=np.int32)
    rows = np.arange(len(pm.guesses), dtype=np.int32)
    caps = guess_caps(guess_table(pm, cols, rows))
    modes = []
    monkeypatch.setattr(bounds, "_first_pass_cuda", lambda *a: modes.append(a[-1]) or NamedCuda().launch())
    pm.backend = NamedCuda()
    with pytest.raises(AssertionError, match="launched"):
        first_pass(pm, cols, rows, rows, caps, 4, hard=hard)
    assert modes == [hard]


@pytest.mark.cuda
@pytest.mark.parametrize(("kind", "seed"), [("wordle", 3), ("repeats", 8), ("jotto", 5), ("black pegs", 2)])
@pytest.mark.usefixtures("first_pass_everywhere")
def test_hard_search_with_the_gpu_first_pass_matches_brute_force(monkeypatch, kind, seed):
    """The exact search on the CUDA backend, every set's first pass on the GPU (the hard-mode
    kernel, over the guesses each node allows), finds brute force's least total."""
    from gpusolve.kernels import config
    from test_cuda_kernels import Launches

    monkeypatch.setattr(config, "FIRST_PASS_GPU_MIN_STARTS", 1)
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 8)
    pm = instance(kind, seed, 9, 20)
    expected = brute_force(pm, "hard", 4)
    pm.backend = Launches()
    result = solve(pm, Question(mode="hard", max_guesses=4), Options(workers=1, memo_mb=1))
    assert pm.backend.launched["start_hard_bounds"] >= 1 and not pm.backend.launched["start_bounds"]
    assert result.total == expected and result.proven


@pytest.mark.cuda
@pytest.mark.parametrize(("kind", "seed"), [("wordle", 11), ("jotto", 4)])
@pytest.mark.usefixtures("first_pass_everywhere")
def test_hard_exact_values_of_start_words_on_the_gpu_equal_the_cpus(monkeypatch, kind, seed):
    """The unit of the hard tables (``optimal-tree --rank --mode hard``: a start word's exact
    value): on the CUDA backend, its sets' first passes on the GPU, the same totals as the CPU's."""
    from gpusolve.kernels import config
    from test_cuda_kernels import Launches

    monkeypatch.setattr(config, "FIRST_PASS_GPU_MIN_STARTS", 1)
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 8)
    pm = instance(kind, seed, 12, 24)
    starts = pm.guesses[::6]

    def totals():
        found = []
        for word in starts:
            try:
                found.append(solve(pm, Question(start=word, mode="hard", max_guesses=4),
                                   Options(workers=1, memo_mb=1)).total)
            except GpusolveError:
                found.append(None)  # no strategy within the limit
        return found

    cpu = totals()
    pm.backend = Launches()
    assert totals() == cpu and pm.backend.launched["start_hard_bounds"] >= len(starts)
