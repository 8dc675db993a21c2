"""Fixed guess-set strategies: kernels against a pure-Python oracle, and the seed 003 figures."""

from __future__ import annotations

import itertools
import json
from collections import Counter, defaultdict

import numpy as np
import pytest
from gpusolve.kernels import presets_cpu as k
from gpusolve.kernels import setkeys
from hypothesis import given, settings
from hypothesis import strategies as st
from tinygames import sub_matrix
from typer.testing import CliRunner

from gpusolve.cli import app
from gpusolve.search.presets import candidate_pool, letter_mask, preset_report, search_presets

# ---- the oracle: seed 003's definitions, written plainly ----


def oracle_bins(game, guesses, targets):
    groups = defaultdict(list)
    for t in targets:
        if t not in guesses:
            groups[tuple(game.reply(g, t) for g in guesses)].append(t)
    return list(groups.values())


def oracle_always_wins(game, guesses, more, targets):
    return all(len(b) <= more or (more >= 1 and all(oracle_always_wins(game, [g], more - 1, b) for g in b))
               for b in oracle_bins(game, guesses, targets))


def oracle_scores(game, guesses, targets, so_far=0):
    """Score frequencies: presets that are targets win at their position; then random consistent."""
    result = Counter({so_far + i + 1: 1.0 for i, g in enumerate(guesses) if g in targets})
    so_far += len(guesses)
    for b in oracle_bins(game, guesses, targets):
        if len(b) == 1:
            result[so_far + 1] += 1.0
        else:
            for g in b:
                for s, f in oracle_scores(game, [g], b, so_far).items():
                    result[s] += f / len(b)
    return result


@st.composite
def small_instance(draw):
    n = draw(st.integers(4, 14))
    answer_ix = draw(st.lists(st.integers(0, 2308), min_size=n, max_size=n, unique=True))
    extra = draw(st.lists(st.integers(0, 2308), min_size=0, max_size=4, unique=True))
    presets = draw(st.integers(1, 3))
    return sorted(answer_ix), extra, presets


@settings(max_examples=40, deadline=None)
@given(small_instance())
def test_report_matches_oracle(small_pm, inst):
    answer_ix, extra, n_presets = inst
    answers = [small_pm.answers[i] for i in answer_ix]
    guesses = list(dict.fromkeys(answers + [small_pm.answers[i] for i in extra]))
    pm = sub_matrix(small_pm, guesses, answers)
    presets = guesses[-n_presets:] if extra else guesses[:n_presets]
    presets = list(dict.fromkeys(presets))
    expected = oracle_scores(pm.game, presets, answers)
    for bits in (64, 0):  # 0: every set hashes alike; the memo must tell them apart by members
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(setkeys, "KEY_BITS", bits)
            report = preset_report(pm, presets, max_guesses=6)
        assert set(report.frequencies) == {s for s, f in expected.items() if f > 1e-12}
        for s, f in expected.items():
            assert report.frequencies.get(s, 0.0) == pytest.approx(f, abs=1e-9)
    assert report.always_wins == oracle_always_wins(pm.game, presets, 6 - len(presets), answers)
    assert report.bin_sizes == dict(sorted(Counter(map(len, oracle_bins(pm.game, presets, answers))).items()))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 2308), min_size=1, max_size=9, unique=True), st.integers(0, 4))
def test_always_wins_and_total_kernels(small_pm, ix, more):
    words = [small_pm.answers[i] for i in ix]
    square = np.ascontiguousarray(small_pm.codes[small_pm.answer_rows])
    members = np.array(sorted(ix), dtype=np.int32)
    got = k.always_wins(square, members, more, 243)
    want = len(words) <= more or (more >= 1 and all(
        oracle_always_wins(small_pm.game, [g], more - 1, words) for g in words))
    assert got == want
    oracle = oracle_scores(small_pm.game, [], words)
    for zobrist in (setkeys.zobrist(2309, 1), np.zeros(2309, np.uint64)):  # zeros: every set collides
        total = k.expected_total(square, members, 243, zobrist, k.new_total_memo())
        assert total == pytest.approx(sum(s * f for s, f in oracle.items()))
    seen = np.zeros(243, np.int64)
    assert k.total_lower_bound(square, members, 243, seen) <= total + 1e-9


def test_disjoint_sets_kernel():
    words = ["ABCDE", "FGHIJ", "ABXYZ", "KLMNO", "PQRST"]
    masks = np.array([letter_mask(w) for w in words], dtype=np.int64)
    got = {tuple(r) for r in k.disjoint_sets(masks, 2).tolist()}
    want = {(i, j) for i in range(5) for j in range(i + 1, 5) if not masks[i] & masks[j]}
    assert got == want
    assert k.disjoint_sets(masks, 4).tolist() == [[0, 1, 3, 4], [1, 2, 3, 4]]


@pytest.mark.parametrize("seed", range(6))
def test_disjoint_sets_are_every_disjoint_tuple_in_order(seed):
    rng = np.random.default_rng(seed)
    masks = np.array([int(np.bitwise_or.reduce(1 << rng.choice(26, 5, replace=False))) for _ in range(40)],
                     dtype=np.int64)
    for size in (1, 2, 3, 4):
        want = [list(t) for t in itertools.combinations(range(40), size)
                if all(not masks[a] & masks[b] for a, b in itertools.combinations(t, 2))]
        assert k.disjoint_sets(masks, size).tolist() == want
        for most in (0, 3, len(want)):
            assert k.disjoint_sets(masks, size, most).tolist() == want[:most + 1]


# ---- seed 003 figures ----


def test_handy_swift_glove_crump(full_pm):
    r = preset_report(full_pm, ["HANDY", "SWIFT", "GLOVE", "CRUMP"])
    assert r.always_wins and r.win_rate == 1.0
    assert round(r.mean, 2) == 5.03 and r.worst == 6
    assert r.bin_sizes == {1: 2141, 2: 79, 3: 2}
    assert {s: round(f) for s, f in r.frequencies.items()} == {1: 1, 2: 1, 3: 1, 4: 1, 5: 2222, 6: 83}
    assert r.losing_bins == []


def test_arise_clomp_thunk_bawdy(full_pm):
    r = preset_report(full_pm, ["ARISE", "CLOMP", "THUNK", "BAWDY"])
    assert not r.always_wins and r.worst == 7
    # the seed's figures count CLOMP and THUNK (not answers) as wins at guesses 2 and 3
    assert f"{r.seed_win_rate:.2%}" == "99.76%"
    assert round(r.seed_mean, 2) == 5.06
    assert f"{r.win_rate:.2%}" == "99.67%"
    assert r.bin_sizes == {1: 2032, 2: 107, 3: 19, 4: 1}
    freq = {s: round(f) for s, f in r.frequencies.items()}
    assert freq == {1: 1, 4: 1, 5: 2159, 6: 140, 7: 8}
    losing = dict((tuple(b), w) for b, w in r.losing_bins)
    assert len(losing) == 11
    assert losing[("OTTER", "OVERT", "RETRO", "VOTER")] == ["RETRO"]
    assert losing[("FOCAL", "LOCAL", "VOCAL")] == ["FOCAL", "LOCAL", "VOCAL"]


def test_blind_shame_crypt_and_retch_snail(full_pm):
    r3 = preset_report(full_pm, ["BLIND", "SHAME", "CRYPT"])
    assert f"{r3.win_rate:.2%}" == "99.83%" and round(r3.mean, 2) == 4.19 and r3.worst == 9
    assert round(r3.frequencies[8], 3) == 0.086 and round(r3.frequencies[9], 3) == 0.004
    r2 = preset_report(full_pm, ["RETCH", "SNAIL"])
    assert f"{r2.win_rate:.2%}" == "99.38%" and round(r2.mean, 2) == 3.79 and r2.worst == 10
    assert max(r2.bin_sizes) == 39 and len(r2.losing_bins) == 34


def test_seed_winners_always_win(full_pm):
    for ws in ("CRUST VEGAN HOWDY BLIMP", "WELSH COMFY GRUNT VAPID", "SLURP MIGHT COVEN BAWDY",
               "STAID CRUMB WOVEN GLYPH", "DUTCH BALMY WOVEN SPRIG", "CLANG WISPY THUMB DROVE"):
        assert preset_report(full_pm, ws.split()).always_wins


@pytest.mark.slow
def test_exhaustive_four_word_search(full_pm):
    result = search_presets(full_pm, 4, top=3)
    assert result.exhaustive and result.searched == 44658 and result.pool == 1562
    assert len(result.winners) == 223
    winners = {w for w, _ in result.winners}
    assert ("CLANG", "DROVE", "THUMB", "WISPY") in winners  # one of the seed's, sorted
    best_winner, mean = result.winners[0]
    assert mean < 5.0316  # beats HANDY SWIFT GLOVE CRUMP
    assert preset_report(full_pm, best_winner).always_wins


def test_sampled_search_is_seeded(full_pm):
    a = search_presets(full_pm, 4, samples=120, seed=7, top=2)
    b = search_presets(full_pm, 4, samples=120, seed=7, top=2)
    assert not a.exhaustive and a.searched == 120 and a.best == b.best and a.winners == b.winners
    # the best of a sample is the best of its exact evaluations
    for ws, mean, _ in a.best:
        assert preset_report(full_pm, ws).mean == pytest.approx(mean)


def test_candidate_pool(full_pm):
    pool = candidate_pool(full_pm, letters=22)
    assert len(pool) == 1473 and all(len(set(w)) == 5 and not set(w) & set("JQXZ") for w in pool)


# ---- command line ----


def test_cli_preset_and_errors():
    runner = CliRunner()
    r = runner.invoke(app, ["preset", "--search", "--words", "4", "--samples", "60", "--json"])
    assert r.exit_code == 0 and '"sets_searched": 60' in r.output
    r = runner.invoke(app, ["preset", "HANDY", "SWIFT", "GLOVE", "CRUMP"])
    assert r.exit_code == 0 and "wins 100.00%" in r.output and "mean score: 5.03" in r.output
    r = runner.invoke(app, ["preset", "RETCH", "SNAIL", "--json"])
    assert r.exit_code == 0 and '"worst": 10' in r.output
    six = ["HANDY", "SWIFT", "GLOVE", "CRUMP", "ARISE", "BLOND"]
    for bad in (["preset", "HANDY", "HANDY"], ["preset", "QQQQQ"], ["preset"], ["preset", *six],
                ["preset", "--search", "--words", "9"]):
        r = runner.invoke(app, bad)
        assert r.exit_code == 2 and r.output.startswith("error: ") and r.output.count("\n") == 1


# ---- the allocation-free first pass shared with the CUDA kernel ----

SUFFIXES = ("ATCH", "IGHT", "OUND", "ASTE", "ILLY", "ACK", "ASH", "OKE", "ATE", "ING", "ER", "Y")


def _alike_instance(small_pm, seed: int, n_answers: int):
    """Answers that look alike (hard to tell apart), guesses = answers + strays, random sets."""
    rng = np.random.default_rng(seed)
    pool = [w for w in small_pm.answers if w.endswith(SUFFIXES[seed % len(SUFFIXES)])]
    answers = sorted(rng.choice(pool, min(n_answers, len(pool)), replace=False))
    guesses = list(dict.fromkeys(answers + list(rng.choice(small_pm.answers, 8, replace=False))))
    pm = sub_matrix(small_pm, guesses, answers)
    n_words = int(rng.integers(1, 4))
    sets = np.array([rng.choice(len(guesses), n_words, replace=False) for _ in range(12)], np.int32)
    return pm, sets


def _first_pass(fn, pm, sets, more):
    square = np.ascontiguousarray(pm.codes[pm.answer_rows])
    out = np.empty(len(sets)), np.empty(len(sets), np.bool_), np.empty(len(sets), np.int32)
    fn(np.ascontiguousarray(pm.codes), square, sets, pm.answer_rows, pm.game.n_patterns, more, *out, 2)
    return out


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 30), st.integers(0, 5))
def test_flat_first_pass_equals_set_bounds_and_oracle(small_pm, seed, n_answers, more):
    pm, sets = _alike_instance(small_pm, seed, n_answers)
    want = _first_pass(k.set_bounds, pm, sets, more)
    got = _first_pass(k.set_bounds_flat, pm, sets, more)
    assert [a.tolist() for a in got] == [a.tolist() for a in want]  # bit for bit
    for s, row in enumerate(sets):
        presets = [pm.guesses[r] for r in row]
        bins = oracle_bins(pm.game, presets, list(pm.answers))
        assert got[1][s] == oracle_always_wins(pm.game, presets, more, list(pm.answers))
        assert got[2][s] == max(map(len, bins), default=0)


@pytest.mark.cuda
def test_cli_preset_search_cuda_equals_cpu(monkeypatch, tmp_path):
    from gpusolve.kernels import config

    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 8)
    words = tmp_path / "words.txt"
    words.write_text("\n".join(["CRANE", "SPILT", "BOUGH", "DWARF", "MOUTH", "FLICK", "NYMPH", "GLOVE",
                                "SWIFT", "HANDY", "CRUMP", "BLIND", "SHAME", "CRYPT", "RETCH", "SNAIL"]))
    out = {}
    for backend in ("cpu", "cuda"):
        r = CliRunner().invoke(app, ["preset", "--search", "--words", "2", "--guesses", str(words),
                                     "--answers", str(words), "--json", "--backend", backend])
        assert r.exit_code == 0, r.output
        out[backend] = {key: v for key, v in json.loads(r.stdout).items() if key != "seconds"}
    assert out["cpu"] == out["cuda"] and out["cpu"]["sets_searched"] > 10
