"""Absurdle: the search against brute force on tiny instances, the replier's tie rule, the
figures for the bundled lists, and the command."""

from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pytest
from gpusolve.kernels import absurdle_cpu, setkeys
from hypothesis import given, settings
from hypothesis import strategies as st
from tinygames import sub_matrix, tiny, tiny_pm
from typer.testing import CliRunner
from wordfiles import FAMILY

from gpusolve.cli import app
from gpusolve.core.patterns import PatternMatrix
from gpusolve.search.absurdle import _Search, absurdle, absurdle_line


def brute_absurdle(pm: PatternMatrix) -> int:
    """The fewest guesses that always beat the Absurdle replier (same tie rule), by recursion."""
    solved = pm.game.solved

    @lru_cache(None)
    def fewest(s: frozenset, left: int) -> float:
        if left == 0:
            return float("inf")
        best = float("inf")
        for g in range(pm.shape[0]):
            groups: dict[int, list] = {}
            for a in s:
                groups.setdefault(int(pm.codes[g, a]), []).append(a)
            others = sorted((r for r in groups if r != solved), key=lambda r: (-len(groups[r]), r))
            if not others:
                return 1
            kept = frozenset(groups[others[0]])
            if kept != s:
                best = min(best, 1 + fewest(kept, left - 1))
        return best

    return fewest(frozenset(range(pm.shape[1])), 8)


@settings(max_examples=60, deadline=None)
@given(tiny())
def test_absurdle_matches_brute_force(small_pm, inst):
    pm = tiny_pm(small_pm, inst)
    result = absurdle(pm)
    assert result.guesses == brute_absurdle(pm)
    words = [w for w, _ in result.line]
    played = absurdle_line(pm, words)
    assert played[-1][1] == pm.game.solved and played[-1][2] == 1
    assert len(words) == result.guesses


CLUSTERS = ("ATCH", "IGHT", "OUND", "ASTE", "ILLY", "ACK", "ASH", "OKE", "ATE", "ING", "ER", "Y")


def cluster_pm(small_pm, seed: int, n_answers: int, n_extra: int) -> PatternMatrix:
    """A small matrix whose answers look alike (one suffix, a few strays): hard to split."""
    rng = np.random.default_rng(seed)
    suffix = CLUSTERS[seed % len(CLUSTERS)]
    pool = [w for w in small_pm.answers if w.endswith(suffix)]
    answers = list(rng.choice(pool, min(n_answers, len(pool)), replace=False))
    answers += [w for w in rng.choice(small_pm.answers, seed % 3) if w not in answers]
    extra = rng.choice(small_pm.answers, n_extra, replace=False)
    guesses = list(dict.fromkeys(answers + list(extra)))
    return sub_matrix(small_pm, guesses, answers)


def kept_by_rule(pm: PatternMatrix, members, g: int) -> tuple[frozenset, int]:
    """The bucket the replier keeps (largest non-solved, lowest reply on ties) and its reply."""
    groups: dict[int, list] = {}
    for a in members:
        groups.setdefault(int(pm.codes[g, a]), []).append(a)
    others = sorted((r for r in groups if r != pm.game.solved), key=lambda r: (-len(groups[r]), r))
    reply = others[0] if others else pm.game.solved
    return frozenset(groups[reply]), reply


def brute_reductions(pm: PatternMatrix):
    """Return f(S, j): can j guesses always bring S down to one answer (plain recursion)."""

    @lru_cache(None)
    def f(s: frozenset, j: int) -> bool:
        if len(s) == 1:
            return True
        if j == 0:
            return False
        return any(kept != s and f(kept, j - 1)
                   for kept, _ in (kept_by_rule(pm, s, g) for g in range(pm.shape[0])))

    return f


def _plays_down(pm: PatternMatrix, members, rows) -> bool:
    words = [pm.guesses[r] for r in rows]
    return not words or absurdle_line(pm, words, members)[-1][2] == 1


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(4, 16), st.integers(0, 25))
def test_reduce_matches_brute_force(small_pm, seed, n_answers, n_extra):
    """Every pruning rule of the search (branch bound, size bound, memo, dedup) is exact."""
    pm = cluster_pm(small_pm, seed, n_answers, n_extra)
    brute = brute_reductions(pm)
    rng = np.random.default_rng(seed)
    sets = [np.arange(pm.shape[1], dtype=np.int32)]
    sets += [np.sort(rng.choice(pm.shape[1], max(1, pm.shape[1] // 2), replace=False)).astype(np.int32)]
    shared = _Search(pm, 10**9)
    for members in sets:
        for j in range(5):
            for search in (shared, _Search(pm, 10**9)):
                rows = search.reduce(members, j)
                assert (rows is not None) == brute(frozenset(members.tolist()), j)
                if rows is not None:
                    assert len(rows) <= j and _plays_down(pm, members, rows)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 14), st.integers(0, 20))
def test_colliding_set_hashes_change_nothing(small_pm, seed, n_answers, n_extra):
    """With 0-bit words every set hashes to 0: the search dedups kept sets and remembers
    failures by their members alone, so brute force still agrees."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(setkeys, "KEY_BITS", 0)
        pm = cluster_pm(small_pm, seed, n_answers, n_extra)
        s = _Search(pm, 10**9)
        assert not s.zobrist.any()
        brute = brute_reductions(pm)
        members = np.arange(pm.shape[1], dtype=np.int32)
        for j in range(5):
            assert (s.reduce(members, j) is not None) == brute(frozenset(members.tolist()), j)
        parts = [p for p in (members, members[::2], members[1:]) if len(p) >= 2]
        flat = np.concatenate(parts)
        starts = np.cumsum([0] + [len(p) for p in parts])
        for (g2, _), part in zip(s.reducible2(flat, starts), parts):
            assert (g2 >= 0) == brute(frozenset(part.tolist()), 2)
        whole = frozenset(members.tolist())
        assert absurdle(pm).guesses == 1 + next(j for j in range(len(members)) if brute(whole, j))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 16), st.integers(0, 25))
def test_two_guess_kernels_match_brute_force(small_pm, seed, n_answers, n_extra):
    """``reducible2`` (scoring itself or given scores) and the scores against the rule."""
    pm = cluster_pm(small_pm, seed, n_answers, n_extra)
    brute = brute_reductions(pm)
    rng = np.random.default_rng(seed)
    parts = [np.arange(pm.shape[1], dtype=np.int32)]
    parts += [np.sort(rng.choice(pm.shape[1], rng.integers(2, pm.shape[1] + 1), replace=False))
              .astype(np.int32) for _ in range(3)]
    flat = np.concatenate(parts)
    starts = np.zeros(len(parts) + 1, np.int64)
    np.cumsum([len(p) for p in parts], out=starts[1:])
    s = _Search(pm, 10**9)
    kept, reply, branches = s.scores(flat, starts)
    for i, members in enumerate(parts):
        for g in range(pm.shape[0]):
            want, r = kept_by_rule(pm, members.tolist(), g)
            assert (kept[i, g], reply[i, g]) == ((0 if r == pm.game.solved else len(want)), r)
            assert branches[i, g] == len({int(pm.codes[g, a]) for a in members})
    runs = [s.reducible2(flat, starts), _scored(s, flat, starts, kept, reply, branches)]
    assert runs[0].tolist() == runs[1].tolist()  # the same guesses, whoever scored
    for found in runs:
        for (g2, g3), members in zip(found, parts):
            assert (g2 >= 0) == brute(frozenset(members.tolist()), 2)
            if g2 >= 0:
                assert _plays_down(pm, members, [g2] + ([g3] if g3 >= 0 else []))


def _scored(s, flat, starts, kept, reply, branches):
    found = np.empty((len(starts) - 1, 2), np.int64)
    absurdle_cpu.reducible2_scored(s.codes, s.guesses, flat, starts, kept, reply, branches, s.zobrist,
                                   s.n_patterns, found, 1)
    return found


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 16), st.integers(0, 25))
def test_branch_bounds_are_sound(small_pm, seed, n_answers, n_extra):
    """A guess gives no more replies on a subset; a kept set needing t guesses has at most
    B(S) ** t answers, with B(S) the most replies any guess gives on the whole set."""
    pm = cluster_pm(small_pm, seed, n_answers, n_extra)
    brute = brute_reductions(pm)
    whole = list(range(pm.shape[1]))
    most = max(len({int(pm.codes[g, a]) for a in whole}) for g in range(pm.shape[0]))
    for g in range(pm.shape[0]):
        kept, _ = kept_by_rule(pm, whole, g)
        for h in range(pm.shape[0]):
            assert len({int(pm.codes[h, a]) for a in kept}) <= len({int(pm.codes[h, a]) for a in whole})
        t = next((t for t in range(6) if brute(kept, t)), None)
        if t is not None:
            assert len(kept) <= most ** t


def test_absurdle_reply_tie_rule(small_pm):
    # a guess sharing no letter keeps everything under the all-miss reply
    line = absurdle_line(small_pm, ["FUZZY"])
    assert line[0][1] == 0 and line[0][2] == 1349  # seed 000: FUZZY leaves a branch of 1,349


LINES = {  # the winning lines the search reports (smallest kept bucket first, ties in list order)
    "answers": ["TEARY .....", "SLING .G...", "CRUMB .....", "FLOOD GGGGG"],
    "allowed": ["AESIR .....", "YAULD .....", "TENCH ....Y", "WHOOP GGGGG"],
}


@pytest.mark.slow
@pytest.mark.parametrize("answers", ["answers", "answers-2315"])
@pytest.mark.parametrize("guesses", ["allowed", "answers"])
def test_absurdle_bundled_lists(wordle, guesses, answers):
    """Every bundled Wordle pairing: 4 guesses always win (1 to 3 refuted), proven."""
    from gpusolve.core.patterns import pattern_matrix

    pm = pattern_matrix(wordle, answers if guesses == "answers" else guesses, answers, "cpu")
    result = absurdle(pm)
    assert result.guesses == 4 and result.refuted == [1, 2, 3]
    assert [f"{w} {pm.game.format_reply(r)}" for w, r in result.line] == LINES[guesses]
    assert absurdle_line(pm, [w for w, _ in result.line])[-1][1:] == (pm.game.solved, 1)


@pytest.mark.slow
def test_absurdle_sgb_line_and_three_refuted(wordle):
    """SGB (5,756 x 5,756) needs 5 guesses: the line the full search reports (about 3 minutes,
    docs/variants.md) wins in 5, and 3 guesses do not suffice (4 refuted only in the full run)."""
    from gpusolve.core.patterns import pattern_matrix

    pm = pattern_matrix(wordle, "sgb", "sgb", "cpu")
    line = absurdle_line(pm, ["ALOES", "CARNY", "MIGHT", "WHICH", "KAPPA"])
    assert [(pm.game.format_reply(r), n) for _, r, n in line] == [
        ("Y....", 298), (".G...", 27), (".....", 2), (".....", 1), ("GGGGG", 1)]
    s = _Search(pm, 10**9)
    members = np.arange(pm.shape[1], dtype=np.int32)
    assert all(s.reduce(members, j) is None for j in range(3))


def test_cli_absurdle():
    runner = CliRunner()
    words = "--answers", FAMILY
    r = runner.invoke(app, ["absurdle", "--guesses", FAMILY, *words, "--json"])
    assert r.exit_code == 0 and '"worst"' in r.output


@pytest.mark.cuda
def test_absurdle_cuda_search_equals_cpu(small_pm, monkeypatch):
    """The search scoring every set on the GPU gives the same result, line included."""
    from gpusolve.kernels import config

    from gpusolve.core.backend import CudaBackend

    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)
    monkeypatch.setattr(config, "GPU_MIN_ANSWERS", 1)
    pm = cluster_pm(small_pm, 5, 5, 1)
    cpu = absurdle(pm)
    pm.backend = CudaBackend(every_call=True)
    gpu = absurdle(pm)
    assert (gpu.guesses, gpu.line, gpu.refuted) == (cpu.guesses, cpu.line, cpu.refuted)


@pytest.mark.cuda
def test_absurdle_cli_cuda_equals_cpu(monkeypatch, tmp_path):
    """``gpusolve absurdle --backend cuda`` prints what the CPU backend prints (simulator)."""
    from gpusolve.kernels import config

    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)
    monkeypatch.setattr(config, "GPU_MIN_ANSWERS", 6)  # the whole set's scores only
    answers = tmp_path / "answers.txt"
    answers.write_text("BATCH CATCH HATCH LATCH MATCH PATCH".replace(" ", "\n"))
    guesses = tmp_path / "guesses.txt"
    guesses.write_text("BATCH CATCH HATCH LATCH MATCH PATCH CHOMP BLOWN".replace(" ", "\n"))
    runner = CliRunner()
    out = {}
    for backend in ("cpu", "cuda"):
        r = runner.invoke(app, ["absurdle", "--guesses", str(guesses), "--answers", str(answers), "--json",
                                "--backend", backend])
        assert r.exit_code == 0, r.output
        out[backend] = {k: v for k, v in json.loads(r.stdout).items() if k != "seconds"}
    assert out["cpu"] == out["cuda"] and out["cpu"]["worst"] == 3


def test_progress_reports_depth_and_sets(small_pm):
    calls = []
    pm = cluster_pm(small_pm, 7, 12, 3)
    result = absurdle(pm, progress=lambda e: calls.append((e.depth, e.done)))
    assert calls and calls[0][1] >= 1 and all(1 <= d <= result.guesses for d, _ in calls)


def test_each_kept_set_is_examined_once(small_pm):
    """The three-guess loop hands every distinct kept set to the two-guess kernel exactly once."""
    pm = cluster_pm(small_pm, 2, 60, 5)  # the -ATCH words: 6 guesses bring them down to one
    s = _Search(pm, 10**9)
    seen = []
    inner = s.reducible2

    def spy(flat, starts, *rest):
        seen.extend(frozenset(flat[starts[i]:starts[i + 1]].tolist()) for i in range(len(starts) - 1))
        return inner(flat, starts, *rest)

    s.reducible2 = spy
    members = np.arange(pm.shape[1], dtype=np.int32)
    assert s.reduce(members, 3) is None
    assert len(seen) > 8 and len(seen) == len(set(seen))
