"""The worst-case (minimax depth) search: every pruning rule against brute force on tiny
instances, the large-set path, and the CUDA statistics (a GPU, or NUMBA_ENABLE_CUDASIM=1)."""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import combinations

import numpy as np
import pytest
from gpusolve.kernels import config, setkeys
from gpusolve.kernels import worstcase_cpu as k
from gpusolve.kernels.stats import BRANCHES, MAX
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from tinygames import tiny_pm
from typer.testing import CliRunner
from wordfiles import FAMILY

from gpusolve.cli import app
from gpusolve.core.backend import CpuBackend, CudaBackend
from gpusolve.core.games import make_game
from gpusolve.core.patterns import PatternMatrix
from gpusolve.core.trees import scores
from gpusolve.core.verify import verify_tree
from gpusolve.search.worstcase import Within, _search, worst_case

SOLVED = 242


class Brute:
    """The slow, obviously right oracle: least depth of a set by plain recursion over every guess."""

    def __init__(self, pm: PatternMatrix, consistent: bool = False) -> None:
        self.pm, self.consistent = pm, consistent
        self.depth = lru_cache(None)(self._depth)

    def pool(self, s):
        return sorted(self.pm.answer_rows[a] for a in s) if self.consistent else range(self.pm.shape[0])

    def buckets(self, g, s) -> list[frozenset]:
        groups: dict[int, set] = {}
        for a in s:
            groups.setdefault(int(self.pm.codes[g, a]), set()).add(a)
        return [frozenset(b) for r, b in groups.items() if r != SOLVED]

    def separable(self, s) -> bool:
        return any(len({int(self.pm.codes[g, a]) for a in s}) == len(s) for g in self.pool(s))

    def _depth(self, s: frozenset) -> float:
        if len(s) == 1:
            return 1
        best = float("inf")
        for g in self.pool(s):
            rest = self.buckets(g, s)
            if any(len(b) == len(s) for b in rest):
                continue
            best = min(best, 1 + max((self.depth(b) for b in rest), default=0))
        return best


@lru_cache(None)
def clusters(answers: tuple) -> list[list[int]]:
    """Return groups of 4+ answers equal but for one letter (EIGHT FIGHT LIGHT ...): hard sets."""
    groups: dict[str, list[int]] = {}
    for i, w in enumerate(answers):
        for p in range(len(w)):
            groups.setdefault(w[:p] + "_" + w[p + 1:], []).append(i)
    return [g for g in groups.values() if len(g) >= 4]


@st.composite
def instance(draw, max_answers=10, max_extra=90):
    """Answer columns of the 2,309-word list and extra guess columns (up to 100 guesses: two
    64-bit words of guess bits): random answers, a run of neighbours, or families of near
    twins (which need up to 7 guesses)."""
    n = draw(st.integers(1, max_answers))
    kind = draw(st.sampled_from(["random", "run", "family"]))
    if kind == "run":
        first = draw(st.integers(0, 2309 - n))
        answers = list(range(first, first + n))
    elif kind == "family":
        families = clusters(make_game("wordle").word_lists("answers", "answers")[1])
        answers = list(dict.fromkeys(i for f in draw(st.lists(st.sampled_from(families), min_size=1,
                                                                   max_size=2)) for i in f))
        answers = (answers + draw(st.lists(st.integers(0, 2308), max_size=3, unique=True)))[:max_answers + 2]
        answers = list(dict.fromkeys(answers))
    else:
        answers = draw(st.lists(st.integers(0, 2308), min_size=n, max_size=n, unique=True))
    extra = draw(st.lists(st.integers(0, 2308), min_size=0, max_size=max_extra, unique=True))
    return answers, extra


@settings(max_examples=80, deadline=None)
@given(instance(), st.booleans(), st.sampled_from([0, 1, 256, None]), st.sampled_from([1, 3, 1000]))
def test_solvable_at_every_depth_matches_brute_force(small_pm, inst, consistent, pair_mb, large):
    """Depths 1-4, both modes, the pair cache tiny (constant eviction), roomy or off (as for huge
    answer lists), and every set through the large-set path (backend statistics) or none."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(config, "WORSTCASE_LARGE_SET", large)
        if pair_mb is None:
            mp.setattr("gpusolve.search.worstcase.MAX_PAIR_TABLE", 0)
            pair_mb = 1
        _check_all_depths(small_pm, inst, consistent, pair_mb)


@settings(max_examples=40, deadline=None)
@given(instance(), st.booleans(), st.sampled_from([1, 3, 1000]))
def test_colliding_set_hashes_change_nothing(small_pm, inst, consistent, large):
    """With 0-bit words every set hashes to 0: all the memo's sets of a depth share one key, and
    the memo tells them apart by their members, so brute force still agrees (through the
    compiled search and the large-set path)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(setkeys, "KEY_BITS", 0)
        mp.setattr(config, "WORSTCASE_LARGE_SET", large)
        _check_all_depths(small_pm, inst, consistent, 256)


def test_no_pair_table_recurses_at_three_left(small_pm, monkeypatch):
    """Without a pair table (answer lists too big for one) the compiled search must not take
    the pair-cache step: SCORE SHORE SNORE SPORE STORE SWORE with BLUNT need 5 (found by CI)."""
    monkeypatch.setattr(config, "WORSTCASE_LARGE_SET", 1000)
    monkeypatch.setattr("gpusolve.search.worstcase.MAX_PAIR_TABLE", 0)
    _check_all_depths(small_pm, ([1668, 1732, 1822, 1878, 1936, 1988], [231]), False, 1)


def _check_all_depths(small_pm, inst, consistent, pair_mb):
    pm = tiny_pm(small_pm, inst)
    brute = Brute(pm, consistent)
    members = np.arange(pm.shape[1], dtype=np.int32)
    want = brute.depth(frozenset(range(pm.shape[1])))
    s = _search(pm, "consistent" if consistent else "normal", None, 10**9, pair_mb)
    for depth in (4, 3, 2, 1):  # deepest first, so the memo holds the deeper results
        assert s.solvable(members, depth) == (want <= depth), depth
    result = worst_case(pm, mode="consistent" if consistent else "normal", pair_mb=pair_mb)
    assert result.depth == want and result.refuted == list(range(1, want))
    got = dict(scores(result.tree))
    assert sorted(got) == sorted(pm.answers) and max(got.values()) == want


@settings(max_examples=60, deadline=None)
@given(instance(), st.booleans(), st.sampled_from([1, 5, 50]), st.data())
def test_within_is_right_when_it_settles_and_its_trees_fit(small_pm, inst, consistent, nodes, data):
    """A check under a node budget says what brute force says or nothing (None); a roomy budget
    always settles; the memo shared with earlier, cut-short checks changes no answer; the tree of
    a set found within the depth verifies within it."""
    pm = tiny_pm(small_pm, inst)
    mode = "consistent" if consistent else "normal"
    brute = Brute(pm, consistent)
    depth = data.draw(st.integers(1, 4))
    within = Within(pm, depth, mode, pair_mb=1)
    subsets = [np.arange(pm.shape[1], dtype=np.int32)] + [
        np.array(sorted(data.draw(st.sets(st.integers(0, pm.shape[1] - 1), min_size=1))), np.int32)
        for _ in range(2)]
    for members in subsets:
        want = brute.depth(frozenset(int(a) for a in members)) <= depth
        assert within.check(members, nodes) in (None, want)
    for members in subsets:
        want = brute.depth(frozenset(int(a) for a in members)) <= depth
        assert within.check(members, 10**9) == want
        if want:
            tree = within.tree(members)
            assert sorted(dict(scores(tree))) == sorted(pm.answers[a] for a in members)
            assert max(k for _, k in scores(tree)) <= depth
            if len(members) == pm.shape[1]:
                assert verify_tree(tree, pm, mode, depth) == []


def test_within_leaves_hard_sets_unsettled_on_a_small_budget(small_pm):
    """SCORE SHORE SNORE SPORE STORE SWORE with BLUNT: 5 guesses needed, not settled in 3 nodes."""
    pm = tiny_pm(small_pm, ([1668, 1732, 1822, 1878, 1936, 1988], [231]))
    members = np.arange(pm.shape[1], dtype=np.int32)
    assert Within(pm, 4, pair_mb=1).check(members, 3) is None
    assert Within(pm, 4, pair_mb=1).check(members, 10**9) is False
    assert Within(pm, 5, pair_mb=1).check(members, 10**9) is True


@settings(max_examples=60, deadline=None)
@given(instance(max_answers=12))
def test_pair_bits_cores_and_separation(small_pm, inst):
    """The pair bit sets, separation test, unseparable cores and the strike rule, by brute force."""
    pm = tiny_pm(small_pm, inst)
    brute = Brute(pm)
    s = _search(pm, "normal", None, 10**9, 0)
    bits = s.pc[2]
    n_guesses = pm.shape[0]
    for a, b in combinations(range(pm.shape[1]), 2):
        row = bits[k.pair_slot(a, b, s.pc)]
        got = [bool(row[g >> 6] >> np.uint64(g & 63) & np.uint64(1)) for g in range(n_guesses)]
        assert got == [bool(pm.codes[g, a] != pm.codes[g, b]) for g in range(n_guesses)]
        assert not any(row[n_guesses >> 6] >> np.uint64(j) & np.uint64(1)
                       for j in range(n_guesses & 63, 64)) if n_guesses & 63 else True
    members = np.arange(pm.shape[1], dtype=np.int32)
    acc = np.empty(bits.shape[1], np.uint64)
    core = np.empty(len(members), np.int32)
    paired = np.empty(1, np.int64)
    length = k.unseparable_core(members, s.pc, acc, core, np.empty(k.FEW_GUESSES, np.int64),
                                np.empty((k.FEW_GUESSES, 4), np.uint64), paired)
    assert (length == 0) == brute.separable(set(range(pm.shape[1])))
    assert k.separable(s.codes, s.guesses, members, SOLVED, np.zeros(243, np.int64)) == (length == 0)
    if length:
        q = frozenset(core[:length].tolist())
        assert not brute.separable(q) and q <= set(range(pm.shape[1]))
        same = [len({int(pm.codes[g, a]) for a in q}) == 1 for g in range(n_guesses)]
        # the strike rule, through the bit sets for the first `paired` members (as the search
        # does, and for all of them or just two), one guess at a time for the rest
        for lead in {int(paired[0]), length, 2}:
            alive = np.full(bits.shape[1], ~np.uint64(0), np.uint64)
            alive[0] ^= np.uint64(1)  # a guess already struck stays struck
            k.strike_core(core, length, lead, alive, np.empty_like(alive), s.pc)
            for g in range(n_guesses):
                struck = not (alive[g >> 6] >> np.uint64(g & 63)) & np.uint64(1)
                assert struck == (same[g] or g == 0)


@settings(max_examples=60, deadline=None)
@given(instance(max_answers=12), st.integers(1, 4), st.data())
def test_size_caps_are_necessary(small_pm, inst, left, data):
    """A set solvable within k guesses never holds more than child_cap(k, most branches of any
    superset, n) answers; candidate_order keeps every guess that works."""
    pm = tiny_pm(small_pm, inst)
    brute = Brute(pm)
    n = pm.shape[1]
    members = np.arange(n, dtype=np.int32)
    table = CpuBackend().set_stats(pm.codes, np.arange(pm.shape[0]), members, 243, SOLVED, (MAX, BRANCHES))
    most = int(table[:, 1].max())
    sub = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    if brute.depth(frozenset(sub)) <= left:
        assert len(sub) <= k.child_cap(left, most, n)
    cap = k.child_cap(left - 1, most, n)
    kept = set(k.candidate_order(table[:, 0], table[:, 1], n, cap).tolist())
    for g in range(pm.shape[0]):
        rest = brute.buckets(g, frozenset(range(n)))
        if n > 1 and all(len(b) < n for b in rest) and all(brute.depth(b) <= left - 1 for b in rest):
            assert g in kept


@settings(max_examples=40, deadline=None)
@given(instance(max_answers=14))
def test_solve3_returns_a_working_guess_or_none_exists(small_pm, inst):
    pm = tiny_pm(small_pm, inst)
    brute = Brute(pm)
    n = pm.shape[1]
    assume(n >= 3)  # the search settles sets of 1 or 2 before
    members = np.arange(n, dtype=np.int32)
    s = _search(pm, "normal", None, 10**9, 0)
    order, most = k.node_order(s.codes, s.guesses, members, 3, 243, SOLVED)
    row = k.solve3(s.codes, s.guesses, members, order, most, 243, SOLVED, s.pc, s.budget.flag)
    if row >= 0:
        assert all(len(b) <= 2 or brute.separable(b) for b in brute.buckets(row, frozenset(range(n))))
    else:
        assert brute.depth(frozenset(range(n))) > 3


def test_every_answer_must_be_a_guess(small_pm):
    from gpusolve.core.errors import GpusolveError

    pm = tiny_pm(small_pm, ([0, 1, 2], []))
    with pytest.raises(GpusolveError, match="every answer among the guesses"):
        _search(pm, "normal", np.array([0, 1], np.int32), 100)


def test_large_path_gives_the_same_depth(small_pm, monkeypatch):
    """Every 10th answer (231) with guesses = answers: the same proof whether sets of 128+ or of
    2+ answers are split in Python (with 3 guesses left those take the guesses in their order
    over all the answers, so the tree may differ)."""
    cols = np.arange(0, 2309, 10, dtype=np.int32)
    ref = worst_case(small_pm, cols)
    monkeypatch.setattr(config, "WORSTCASE_LARGE_SET", 2)
    got = worst_case(small_pm, cols)
    assert (got.depth, got.refuted) == (ref.depth, ref.refuted) == (4, [1, 2, 3])
    assert max(dict(scores(got.tree)).values()) == 4 and len(dict(scores(got.tree))) == 231


def test_cli_tree_file_passes_verify(tmp_path):
    """The tree written with the default guess list names a real list, so verify can read it."""
    runner = CliRunner()
    out = str(tmp_path / "tree.json")
    r = runner.invoke(app, ["optimal-tree", "--objective", "worst-case", "--answers", FAMILY,
                            "--out", out, "--json"])
    assert r.exit_code == 0, r.output
    depth = json.loads(r.stdout)["worst"]
    r = runner.invoke(app, ["verify", out, "--max-guesses", str(depth)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["verify", out, "--max-guesses", str(depth - 1)])
    assert r.exit_code == 1


# ---- CUDA: the statistics of large sets in one launch (simulator: small inputs) --------------


@pytest.mark.cuda
def test_cuda_search_equals_cpu(small_pm, monkeypatch):
    monkeypatch.setattr(config, "WORSTCASE_LARGE_SET", 16)  # the simulator is slow: few launches
    monkeypatch.setattr(config, "GPU_MIN_ANSWERS", 16)
    answers = list(range(100, 124))
    cpu = worst_case(tiny_pm(small_pm, (answers, [5, 500, 900]), CpuBackend()))
    gpu = worst_case(tiny_pm(small_pm, (answers, [5, 500, 900]), CudaBackend(every_call=True)))
    assert (gpu.depth, gpu.refuted) == (cpu.depth, cpu.refuted)
    assert list(scores(gpu.tree)) == list(scores(cpu.tree))


@pytest.mark.cuda
def test_cli_worst_case_backend_cuda_equals_cpu(monkeypatch, tmp_path):
    monkeypatch.setattr(config, "WORSTCASE_LARGE_SET", 12)
    monkeypatch.setattr(config, "GPU_MIN_ANSWERS", 12)
    runner = CliRunner()
    out = {}
    for backend in ("cpu", "cuda"):
        family = FAMILY
        r = runner.invoke(app, ["optimal-tree", "--objective", "worst-case", "--guesses", family,
                                "--answers", family, "--max-guesses", "10", "--backend", backend, "--json",
                                "--out", str(tmp_path / f"{backend}.json")])
        assert r.exit_code == 0, r.output
        data = json.loads(r.stdout)
        data.pop("seconds")
        data.pop("nodes")  # the work differs (on CUDA, statistics strike guesses early); the result not
        out[backend] = data, (tmp_path / f"{backend}.json").read_text()
    assert out["cuda"] == out["cpu"]
    assert out["cpu"][0]["worst"] == 8 and out["cpu"][0]["proven"]


# ---- the Wordle lists -------------------------------------------------------------------


@pytest.mark.slow
def test_guesses_equal_answers_proof(small_pm):
    """Guesses = answers = 2,309 (the seeds' setting): 5 always suffice and 4 do not, proven."""
    r = worst_case(small_pm)
    got = dict(scores(r.tree))
    assert (r.depth, r.refuted, r.proven_least) == (5, [1, 2, 3, 4], True)
    assert r.tree.guess == "RAISE" and len(got) == 2309 and sum(got.values()) == 8324


@pytest.mark.slow
def test_12972_guesses_within_5_and_not_4_for_the_best_first_guesses(full_pm):
    """12,972 guesses x 2,309 answers: a tree within 5 (RAISE first); and the proof that 4 fail,
    restricted to the first 1,000 of the 12,972 first guesses in the search's order (the best
    by largest bucket). The whole proof (all 12,972) takes about 2 minutes: docs/variants.md."""
    from gpusolve.search.worstcase import rank_worst_case

    r = worst_case(full_pm, min_depth=5)
    got = dict(scores(r.tree))
    assert r.depth == 5 and not r.proven_least and r.tree.guess == "RAISE"
    assert len(got) == 2309 and max(got.values()) == 5 and sum(got.values()) == 8255
    good, checked = rank_worst_case(full_pm, 4, limit=1000)
    assert good == [] and checked == 1000
