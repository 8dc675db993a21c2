"""The exact search's memo is proven by records, not keys: with every lookup made a hash
collision (``optimal.COLLIDE``), every value at every node still equals brute force, in every
mode, with memo tables shared across positions and start words and entries handed from one
search to the next."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_optimal import INF, brute_force, random_instance, small_matrix
from test_search_pins import code_game as code_matrix

from gpusolve.core.errors import GpusolveError
from gpusolve.core.modes import hard_mode_allows
from gpusolve.search import optimal
from gpusolve.search.memo import MemoPool
from gpusolve.search.optimal import Options, Question, solve


def _value(pm, mode, max_guesses, moves=(), start=None, memos=None, known=None, keep=0):
    """Return (least total or INF, the result) of a position, searched with one worker."""
    try:
        result = solve(pm, Question(start=start, moves=tuple(moves), mode=mode, max_guesses=max_guesses,
                                    tree=False),
                       Options(workers=1, memo_mb=1, memos=memos, known=known, keep_subproblems=keep,
                               min_work=0))
    except GpusolveError as e:
        assert "no strategy finds every answer within" in str(e)
        return INF, None
    assert result.proven
    return result.total, result


def _oracle(pm, mode, max_guesses, moves):
    """Return brute force's least total of the position the moves leave."""
    game = pm.game
    answers = [a for a in pm.answers if all(game.reply(g, a) == p for g, p in moves)]
    guesses = pm.guesses
    if mode == "hard":
        guesses = tuple(g for g in guesses if hard_mode_allows(game, g, list(moves)))
    return brute_force(small_matrix(game, guesses, answers), mode, max_guesses - len(moves))


def _positions(pm, rng, count):
    """Return the root and ``count`` random positions one or two moves deep (none solved)."""
    game = pm.game
    out = [()]
    for _ in range(count):
        moves = []
        alive = list(pm.answers)
        for _ in range(rng.choice((1, 2))):
            g = rng.choice(pm.guesses)
            p = game.reply(g, rng.choice(alive))
            if p == game.solved:
                break
            moves.append((g, p))
            alive = [a for a in alive if game.reply(g, a) == p]
        if moves:
            out.append(tuple(moves))
    return out


GAMES = {
    "kind": st.sampled_from(["wordle", "jotto", "mastermind"]),
    "mode": st.sampled_from(["normal", "hard", "consistent"]),
    "seed": st.integers(0, 10**6),
    "max_guesses": st.integers(3, 5),
}
"""Random small games: which game, mode, word lists (by seed) and guess limit."""


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAMES)
def test_every_lookup_a_collision_changes_no_value_at_any_node(kind, mode, seed, max_guesses):
    _collisions_change_no_value(kind, mode, seed, max_guesses)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAMES)
def test_sets_the_driver_searches_are_proven_by_their_records_too(kind, mode, seed, max_guesses):
    """Every set searched guess by guess by the driver (``DRIVER_MIN_ANSWERS`` 1), its values
    memo entries as the kernel's are: every lookup a collision still changes no value."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(optimal, "FIRST_PASS_MIN_ANSWERS", 1)
        mp.setattr(optimal, "DRIVER_MIN_ANSWERS", 1)
        _collisions_change_no_value(kind, mode, seed, max_guesses)


def _collisions_change_no_value(kind, mode, seed, max_guesses):
    """Check that random positions of a random game, one memo for them all and every lookup a hash
    collision, get brute force's values."""
    pm = random_instance(kind, seed, 9 if mode == "hard" else 11, 18)
    rng = random.Random(seed)
    memos = MemoPool()  # one memo for every position: entries meet sets of other paths
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(optimal, "COLLIDE", True)
        for moves in _positions(pm, rng, 6):
            if mode == "hard" and any(not hard_mode_allows(pm.game, g, list(moves[:i]))
                                      for i, (g, _) in enumerate(moves)):
                continue
            if mode == "consistent" and any(
                    any(pm.game.reply(h, g) != q for h, q in moves[:i]) for i, (g, _) in enumerate(moves)):
                continue
            got, _ = _value(pm, mode, max_guesses, moves, memos=memos)
            assert got == _oracle(pm, mode, max_guesses, moves), moves


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(["wordle", "mastermind"]),
    mode=st.sampled_from(["normal", "hard", "consistent"]),
    seed=st.integers(0, 10**6),
)
def test_every_lookup_a_collision_changes_no_value_on_larger_games(kind, mode, seed):
    """Sets too large for brute force, where many sets of one size and depth meet in the memo:
    every position's value equals the plain search's (itself checked against brute force)."""
    pm = random_instance(kind, seed, 40, 64)
    rng = random.Random(seed)
    positions = [m for m in _positions(pm, rng, 12)
                 if mode == "normal" or all(pm.game.reply(h, g) == q or mode == "hard"
                                            for i, (g, _) in enumerate(m) for h, q in m[:i])]
    if mode == "hard":
        positions = [m for m in positions
                     if all(hard_mode_allows(pm.game, g, list(m[:i])) for i, (g, _) in enumerate(m))]
    plain = [_value(pm, mode, 5, m)[0] for m in positions]
    memos = MemoPool()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(optimal, "COLLIDE", True)
        assert [_value(pm, mode, 5, m, memos=memos)[0] for m in positions] == plain


@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_an_entry_is_used_only_for_the_subproblem_its_record_proves(mode):
    """Entries of one search preloaded into another: as they are, they are used (store hits)
    and change nothing; with their keys and values kept but their records (depth, size, moves)
    handed one entry on, so that every key finds an entry proving another subproblem, and with
    every value forged to 0, none is used and the values are still right."""
    pm = random_instance("mastermind", 29, 60, 64)
    starts = pm.guesses[:3]
    first = _value(pm, mode, 5, start=starts[0], keep=10**6)[1]
    known = first.subproblems
    assert len(known) > 10
    plain = [_value(pm, mode, 5, start=g)[0] for g in starts]
    again = _value(pm, mode, 5, start=starts[0], known=known)[1]
    assert again.total == plain[0] and again.counters["store_hits"] > 0
    forged = known.take(np.arange(len(known)))
    records = (known.depth, known.size, known.path)
    forged.depth, forged.size, forged.path = (np.roll(a, 1, axis=0) for a in records)
    forged.value[:] = 0
    forged.exact[:] = True
    for g, want in zip(starts, plain):
        total, result = _value(pm, mode, 5, start=g, known=forged)
        assert total == want and result.counters["store_hits"] == 0


@pytest.mark.parametrize("collide", [False, True])
def test_a_large_set_is_found_again_by_its_record_in_a_later_search(collide):
    """Mastermind's 1122 and 2211 leave the same three sets of 256 codes (no 1 and no 2, and two
    more), which the driver searches: a second search sharing the memo finds them by their records
    (also where every set has the same key) and searches none again, only its own bucket of 208 (the
    driver's too: no cutoff is known for it); the first search's entries, put in a fresh memo, do
    the same."""
    pm = code_matrix("mastermind", 4, 6)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(optimal, "COLLIDE", collide)
        memos = MemoPool()
        first = _value(pm, "normal", 6, start="1122", memos=memos, keep=10**6)[1]
        again = _value(pm, "normal", 6, start="2211", memos=memos)[1]
        known = _value(pm, "normal", 6, start="2211", known=first.subproblems)[1]
    assert first.total == again.total == known.total == 5702
    assert first.counters["large_sets"] == 4
    assert again.counters["large_sets"] == known.counters["large_sets"] == 1
    assert again.nodes < first.nodes and known.nodes < first.nodes and known.counters["store_hits"] >= 3
    large = first.subproblems.size >= optimal.DRIVER_MIN_ANSWERS
    assert large.sum() == 3 and first.subproblems.exact[large].all()
