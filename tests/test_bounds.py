"""First-pass bounds: never above the true value at any node of small random games, exact
partition bounds when run to the end, and the exact search's results unchanged by them."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from gpusolve.kernels import setkeys
from gpusolve.kernels.bounds_cpu import remember
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_optimal import INF, brute_force, random_instance

from gpusolve.core.errors import GpusolveError
from gpusolve.core.modes import hard_mode_allows
from gpusolve.search import optimal
from gpusolve.search.bounds import INF as BOUND_INF
from gpusolve.search.bounds import (
    answerers,
    first_pass,
    guess_caps,
    guess_table,
    reference_bucket_bound,
    size_bound,
)
from gpusolve.search.optimal import Options, Question, solve


def node_values(pm, mode: str, max_guesses: int) -> dict:
    """Return V(S, d, allowed) for every node the brute-force search visits."""
    game = pm.game
    reply = {(g, a): game.reply(g, a) for g in pm.guesses for a in pm.answers}
    seen: dict = {}

    @cache
    def value(answers: frozenset, depth: int, allowed: frozenset) -> float:
        if depth == 0:
            return INF
        best = INF
        for g in sorted(answers if mode == "consistent" else allowed):
            cost = len(answers)
            for p, bucket in buckets(g, answers).items():
                if p != game.solved:
                    cost += value(frozenset(bucket), depth - 1, after(allowed, g, p))
            best = min(best, cost)
        seen[answers, depth, allowed] = best
        return best

    def buckets(g, answers):
        out: dict[int, list] = {}
        for a in answers:
            out.setdefault(reply[g, a], []).append(a)
        return out

    def after(allowed, g, p):
        if mode != "hard":
            return allowed
        return frozenset(h for h in allowed if hard_mode_allows(game, h, [(g, p)]))

    value(frozenset(pm.answers), max_guesses, frozenset(pm.guesses))
    return {"values": seen, "value": value, "buckets": buckets, "after": after}


def bounds_at(pm, answers: list[str], guesses: list[str], left: int, mode: str, pair_max: int,
              facts: bool = False):
    """Return the first-pass bounds of every guess over the node ``answers`` (with letter facts
    where asked), checking that the size bound never exceeds them."""
    cols = np.array([pm.answers.index(a) for a in answers], np.int32)
    rows = np.array([pm.guess_index[g] for g in guesses], np.int32)
    table = guess_table(pm, cols, rows)
    caps = guess_caps(table)
    kept = answerers(pm, cols, rows, caps, mode == "consistent", facts=facts)
    fp = first_pass(pm, cols, rows, rows, caps, left, members_only=mode == "consistent",
                    pair_max=pair_max, kept=kept)
    sizes = size_bound(pm, cols, rows, int((table[:, 0] + table[:, 1]).max()), left)
    assert (sizes <= fp.totals).all()
    return fp


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(["wordle", "jotto", "mastermind"]),
    mode=st.sampled_from(["normal", "hard", "consistent"]),
    seed=st.integers(0, 10**6),
    n_answers=st.integers(5, 11),
    extra=st.integers(4, 14),
    max_guesses=st.integers(2, 4),
    pair_max=st.sampled_from([0, 3, 96]),
    facts=st.booleans(),
)
def test_bucket_bounds_never_exceed_the_true_value_at_any_node(kind, mode, seed, n_answers, extra,
                                                                max_guesses, pair_max, facts):
    pm = random_instance(kind, seed, n_answers, n_answers + extra)

    def bounds(answers, depth, allowed):
        members = sorted(answers)
        guesses = members if mode == "consistent" else sorted(allowed)

        def check(j, g, p, bcols, bound):
            own = pm.answer_rows[bcols] if mode == "consistent" else [pm.guess_index[h] for h in guesses]
            assert bound == reference_bucket_bound(pm, bcols, np.array(own), depth - 1)

        return bounds_at(pm, members, guesses, depth - 1, mode, pair_max, facts), guesses, check

    check_bounds_at_every_node(pm, node_values(pm, mode, max_guesses), bounds)


def check_bounds_at_every_node(pm, tree, bounds) -> None:
    """Check first-pass bounds at every node brute force visits (``tree``: ``node_values``): each
    bucket's bound at most its true value, each guess's total at most its cost, the least total at
    most the node's value. ``bounds(answers, depth, allowed)`` returns a node's (first pass, its
    guesses in order, ``check(j, guess, reply, bucket's answer columns, bound)``: the oracle's
    checks of one bucket's bound)."""
    for (answers, depth, allowed), v in tree["values"].items():
        if depth < 2 or len(answers) < 2:
            continue
        fp, guesses, check = bounds(answers, depth, allowed)
        for j, g in enumerate(guesses):
            cost = len(answers)
            for p, bucket in tree["buckets"](g, answers).items():
                if p == pm.game.solved:
                    continue
                truth = tree["value"](frozenset(bucket), depth - 1, tree["after"](allowed, g, p))
                bound = fp.buckets[j, p]
                assert bound <= truth or (bound >= BOUND_INF and truth == INF)
                check(j, g, p, np.array(sorted(pm.answers.index(a) for a in bucket)), bound)
                cost += truth
            assert fp.totals[j] <= cost or (fp.totals[j] >= BOUND_INF and cost == INF)
        assert fp.totals.min() <= v or v == INF


@pytest.mark.parametrize("hard", [False, True])
def test_a_stopped_search_stops_its_first_pass(hard):
    pm = random_instance("wordle", 5, 14, 30)
    cols = np.arange(len(pm.answers), dtype=np.int32)
    rows = np.arange(len(pm.guesses), dtype=np.int32)
    caps = guess_caps(guess_table(pm, cols, rows))
    full = first_pass(pm, cols, rows, rows, caps, 5, hard=hard)
    going = first_pass(pm, cols, rows, rows, caps, 5, hard=hard, stop=np.zeros(1, np.int64))
    assert (going.totals == full.totals).all() and (going.buckets == full.buckets).all()
    with pytest.raises(KeyboardInterrupt):
        first_pass(pm, cols, rows, rows, caps, 5, hard=hard, stop=np.ones(1, np.int64))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["wordle", "jotto", "mastermind"]), seed=st.integers(0, 10**6),
       cutoff=st.integers(1, 160), pair_max=st.sampled_from([0, 3, 4, 96]), facts=st.booleans(),
       size=st.sampled_from([(14, 30), (40, 60)]))
def test_a_cutoff_stops_early_with_proven_bounds(kind, seed, cutoff, pair_max, facts, size):
    pm = random_instance(kind, seed, *size)
    cols = np.arange(len(pm.answers), dtype=np.int32)
    rows = np.arange(len(pm.guesses), dtype=np.int32)
    caps = guess_caps(guess_table(pm, cols, rows))
    full = first_pass(pm, cols, rows, rows, caps, 5)
    assert (first_pass(pm, cols, rows, rows, caps, 5, pair_max=pair_max).buckets == full.buckets).all()
    kept = answerers(pm, cols, rows, caps, facts=facts)
    cut = first_pass(pm, cols, rows, rows, caps, 5, cutoff=cutoff, pair_max=pair_max, kept=kept)
    for j in range(len(rows)):
        assert (cut.buckets[j] <= full.buckets[j]).all()
        if full.totals[j] < cutoff:
            assert cut.totals[j] == full.totals[j] and cut.complete(j)
        else:
            assert cutoff <= cut.totals[j] <= full.totals[j]


@pytest.mark.parametrize("kind,seed,size", [("wordle", 0, (60, 120)), ("wordle", 1, (60, 120)),
                                            ("wordle", 2, (60, 120)), ("jotto", 0, (60, 120)),
                                            ("mastermind", 0, (40, 64)), ("mastermind", 1, (40, 64))])
def test_a_small_bucket_scanned_only_to_the_cutoff_is_bounded_by_its_best_score(kind, seed, size):
    """Cutoffs at and just above the lowest totals, where a small bucket's bound alone can reach
    them and its scan stops once no guess can score above the score that would: every bucket bound
    at most the whole first pass's (the exact partition bound, checked against the true values at
    every node above), the guesses below the cutoff with its exact totals, the others at least the
    cutoff (these games have such buckets; the brute-force games above seldom do)."""
    pm = random_instance(kind, seed, *size)
    cols = np.arange(len(pm.answers), dtype=np.int32)
    rows = np.arange(len(pm.guesses), dtype=np.int32)
    caps = guess_caps(guess_table(pm, cols, rows))
    for left in (2, 3, 4):
        full = first_pass(pm, cols, rows, rows, caps, left)
        for cutoff in sorted({int(t) + d for t in np.unique(full.totals)[:6] for d in (0, 1)}):
            cut = first_pass(pm, cols, rows, rows, caps, left, cutoff=cutoff)
            below = full.totals < cutoff
            assert (cut.buckets <= full.buckets).all()
            assert (cut.totals[below] == full.totals[below]).all() and (cut.totals[~below] >= cutoff).all()


@pytest.mark.parametrize("seed", [0, 7, 8])
def test_a_cutoff_never_bounds_a_small_bucket_by_guesses_not_scanned(seed):
    """Every cutoff near each start word's total: no bucket bound above the whole first pass's. A
    large bucket's scan may reach the cutoff once the small (pairwise) buckets are bounded by the
    current guess's cap too, which the guesses before it (larger caps, not scanned on them) may
    exceed: it must score them first (these games' small caps show it; 4-6 start words each)."""
    pm = random_instance("mastermind", seed, 40, 60)
    cols = np.arange(len(pm.answers), dtype=np.int32)
    rows = np.arange(len(pm.guesses), dtype=np.int32)
    caps = guess_caps(guess_table(pm, cols, rows))
    full = first_pass(pm, cols, rows, rows, caps, 5)
    for cutoff in sorted({int(t) + d for t in full.totals for d in (0, 1)}):
        cut = first_pass(pm, cols, rows, rows, caps, 5, cutoff=cutoff, pair_max=6)
        assert (cut.buckets <= full.buckets).all() and (cut.totals <= np.maximum(full.totals, cutoff)).all()
        assert ((cut.totals >= cutoff) == (full.totals >= cutoff)).all()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n_answers=st.integers(3, 40), extra=st.integers(0, 30),
       subset=st.integers(0, 2**40))
def test_letter_facts_never_undercount_a_bucket(seed, n_answers, extra, subset):
    """Each bucket of every start word over a random set: no guess gives it more distinct replies
    than the least its facts say, from any guess on (``kernels.bounds_cpu.Facts``)."""
    from gpusolve.kernels.bounds_cpu import _bucket_facts, _within, fill_facts

    pm = random_instance("wordle", seed, n_answers, n_answers + extra)
    cols = np.array([a for a in range(len(pm.answers)) if subset >> (a % 40) & 1] or [0], np.int32)
    rows = np.arange(len(pm.guesses), dtype=np.int32)
    kept = answerers(pm, cols, rows, guess_caps(guess_table(pm, cols, rows)), facts=True)
    facts = kept.facts
    fill_facts(np.ascontiguousarray(pm.codes), kept.replies, cols, pm.answer_rows.astype(np.int32), rows,
               pm.game.n_patterns, 0, facts)
    said = np.empty(pm.game.length, np.int64)
    for s in rows:
        replies = pm.codes[s, cols]
        for p in np.unique(replies):
            bucket = cols[replies == p]
            _bucket_facts(facts, s, p, said)
            scores = [len(np.unique(pm.codes[g, bucket])) for g in kept.rows]
            for j in range(len(kept.rows)):
                assert scores[j] <= _within(facts, said, facts.replies, j, 255)
                assert max(scores[j:]) <= _within(facts, said, facts.most, j, 255)


def test_letter_facts_are_filled_for_two_start_words_or_more():
    """A lone start word's first pass fills no fact (its buckets, disjoint subsets of a fact's set,
    hold fewer answers than filling it reads); two start words' do."""
    from gpusolve.kernels.bounds_cpu import fill_facts

    pm = random_instance("wordle", 7, 40, 60)
    cols = np.arange(len(pm.answers), dtype=np.int32)
    rows = np.arange(len(pm.guesses), dtype=np.int32)
    kept = answerers(pm, cols, rows, guess_caps(guess_table(pm, cols, rows)), facts=True)
    fill = (np.ascontiguousarray(pm.codes), kept.replies, cols, pm.answer_rows.astype(np.int32))
    fill_facts(*fill, rows[:1], pm.game.n_patterns, 0, kept.facts)
    assert not kept.facts.done.any()
    fill_facts(*fill, rows[:2], pm.game.n_patterns, 0, kept.facts)
    assert kept.facts.done.any()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["wordle", "jotto", "mastermind"]), seed=st.integers(0, 10**6),
       above=st.integers(0, 12) | st.none(), batch=st.integers(1, 9), key_bits=st.sampled_from([0, 2, 64]))
def test_bucket_scores_remembered_across_first_passes_change_no_bound(kind, seed, above, batch, key_bits):
    """A set's first passes in batches share its ``Answerers``, whose remembered bucket scores
    serve later batches (proven by each bucket's members, also where every bucket hashes alike):
    every batch gets the bounds a first pass of its own gets."""
    pm = random_instance(kind, seed, 40, 64)
    cols = np.arange(len(pm.answers), dtype=np.int32)
    rows = np.random.default_rng(seed).permutation(len(pm.guesses)).astype(np.int32)
    caps = guess_caps(guess_table(pm, cols, rows))
    cutoff = None if above is None else int(first_pass(pm, cols, rows, rows, caps, 4).totals.min()) + above
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(setkeys, "KEY_BITS", key_bits)
        kept = answerers(pm, cols, rows, caps)
    for lo in range(0, len(rows), batch):
        starts = rows[lo:lo + batch]
        shared = first_pass(pm, cols, starts, rows, caps, 4, cutoff=cutoff, kept=kept)
        alone = first_pass(pm, cols, starts, rows, caps, 4, cutoff=cutoff)
        assert (shared.totals == alone.totals).all() and (shared.buckets == alone.buckets).all()


def test_bucket_scores_are_remembered_and_read(full_pm):
    """On SALET's bucket of no reveals (221 answers), a first pass remembers the scores of the
    buckets it scores pairwise, the same first pass again finds every one of them (it stores
    none) and gets the same bounds, and scores made wrong on purpose change the bounds (they
    are read)."""
    pm = full_pm
    cols = np.flatnonzero(np.asarray(pm.codes[pm.guess_index["SALET"]]) == 0).astype(np.int32)
    rows = np.arange(len(pm.guesses), dtype=np.int32)
    caps = guess_caps(guess_table(pm, cols, rows))
    kept = answerers(pm, cols, rows, caps)
    starts = rows[::40]
    first = first_pass(pm, cols, starts, rows, caps, 4, kept=kept)
    used = int(kept.scores.memo[2][0])
    again = first_pass(pm, cols, starts, rows, caps, 4, kept=kept)
    assert len(cols) == 221 and used > 0 and int(kept.scores.memo[2][0]) == used
    assert (again.buckets == first.buckets).all()
    scored = (first.buckets > 3) & (first.buckets < BOUND_INF)
    remember(kept.scores, np.ascontiguousarray(pm.codes), cols, starts, 4, scored.astype(np.int64))
    assert (first_pass(pm, cols, starts, rows, caps, 4, kept=kept).totals > first.totals).any()


@pytest.fixture
def first_pass_everywhere(monkeypatch):
    """Give every search, however small its root, first-pass bounds (the same for every example)."""
    monkeypatch.setattr(optimal, "FIRST_PASS_MIN_ANSWERS", 1)
    monkeypatch.setattr(optimal, "DRIVER_MIN_ANSWERS", 1)
    monkeypatch.setattr(optimal, "FIRST_PASS_BATCH", 3)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    kind=st.sampled_from(["wordle", "jotto", "mastermind"]),
    mode=st.sampled_from(["normal", "hard", "consistent"]),
    seed=st.integers(0, 10**6),
    n_answers=st.integers(6, 13),
    extra=st.integers(6, 20),
    max_guesses=st.integers(2, 5),
)
def test_search_with_first_pass_matches_brute_force(first_pass_everywhere, kind, mode, seed, n_answers,
                                                    extra, max_guesses):
    check_search(random_instance(kind, seed, n_answers, n_answers + extra), mode, max_guesses)


def check_search(pm, mode: str, max_guesses: int) -> None:
    """Check the exact search (with two alternatives, and with a cutoff at the value and one above)
    against brute force."""
    expected = brute_force(pm, mode, max_guesses)
    try:
        result = solve(pm, Question(mode=mode, max_guesses=max_guesses, alternatives=2),
                       Options(workers=1, memo_mb=1))
    except GpusolveError as e:
        assert expected == INF and "no strategy" in str(e)
        return
    assert result.total == expected and result.proven
    for cutoff in (expected, expected + 1):
        r = solve(pm, Question(mode=mode, max_guesses=max_guesses, cutoff=cutoff),
                  Options(workers=1, memo_mb=1))
        assert r.below_cutoff == (expected < cutoff)
        assert r.total == (expected if expected < cutoff else None)


def test_first_pass_on_wordle_refutes_bad_start_words(full_pm):
    """The bounds the refutation rests on, for words whose totals are published elsewhere."""
    cols = np.arange(full_pm.shape[1], dtype=np.int32)
    rows = np.arange(full_pm.shape[0], dtype=np.int32)
    caps = guess_caps(guess_table(full_pm, cols, rows))
    starts = np.array([full_pm.guess_index[w] for w in ("SALET", "ONIUM", "GOBBY", "QAJAQ")], np.int32)
    fp = first_pass(full_pm, cols, starts, rows, caps, 5)
    assert fp.totals.tolist() == [7789, 8173, 8436, 8811]
    for pair_max in (0, 255):  # guess by guess, or every bucket pairwise
        again = first_pass(full_pm, cols, starts, rows, caps, 5, pair_max=pair_max)
        assert (again.buckets == fp.buckets).all()
    assert fp.totals[0] <= 7897  # SALET's exact total
