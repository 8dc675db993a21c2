"""One memo entry per class of answer sets: the compiled least image of a set's moves is the
pure-Python oracle's, the same for every symmetric image of the moves, maps the set onto the
set of the image's moves; and searches looking sets up by it give the plain search's values."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gpusolve.kernels import config
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_optimal import check_tree
from test_symmetry import CODE_GAMES, SMALL

from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix
from gpusolve.search import optimal
from gpusolve.search.optimal import Options, Question, _Context, solve


def random_moves(pm, rng: random.Random, count: int) -> list[tuple[str, int]]:
    """Return ``count`` (guess, reply) moves that some answer would give."""
    answer = rng.choice(pm.answers)
    return [(g, pm.game.reply(g, answer)) for g in rng.sample(pm.guesses, count)]


def compiled_least(pm, ctx: _Context, moves) -> tuple[list[tuple[str, int]], np.ndarray] | None:
    """Return the kernel's least image of ``moves`` (sorted) and the symmetry reaching it."""
    from gpusolve.kernels.canonical_cpu import least_moves, new_canon

    npat = pm.game.n_patterns
    canon = new_canon(ctx.perms, ctx.code_row, pm.answer_of_row, pm.game.colours, 8, 1)
    path = np.array([pm.guess_index[g] * npat + r for g, r in moves], np.int32)
    out = np.zeros(len(moves), np.int32)
    sig = np.zeros(1 + pm.game.colours, np.int64)
    if not least_moves(pm.letters, canon, path, len(moves), npat, pm.game.colours, sig, out):
        return None
    return [(pm.guesses[m // npat], int(m % npat)) for m in out], sig


def consistent(pm, moves) -> set[str]:
    """Return the answers consistent with every move."""
    return {a for a in pm.answers if all(pm.game.reply(g, a) == r for g, r in moves)}


@settings(max_examples=40, deadline=None)
@given(CODE_GAMES, st.integers(1, 5), st.randoms(use_true_random=False))
def test_least_image_is_the_oracles_and_the_same_for_every_symmetric_image(spec, count, rng):
    game = make_game(*spec)
    pm = pattern_matrix(game, None, None, "cpu")
    ctx = _Context(pm, "normal", 8)
    group = game.symmetries()
    moves = random_moves(pm, rng, count)
    least, sig = compiled_least(pm, ctx, moves)
    assert least == group.least_moves(moves)
    sigma = group.random(rng)
    image = [(sigma.apply(g, game.alphabet), r) for g, r in moves]
    assert compiled_least(pm, ctx, image)[0] == least == group.least_moves(image)
    # the symmetry found maps the set of the moves onto the set of their least image
    from gpusolve.kernels.canonical_cpu import image_row, new_canon

    canon = new_canon(ctx.perms, ctx.code_row, pm.answer_of_row, game.colours, 8, 1)
    rows = {pm.guesses[image_row(pm.letters, canon, sig, pm.guess_index[a], game.colours)]
            for a in consistent(pm, moves)}
    assert rows == consistent(pm, least)


def test_moves_not_symmetric_have_different_least_images():
    game = make_game("mastermind", 3, 3)
    group = game.symmetries()
    # 112 and 123 are in different classes even with the same reply
    assert group.least_moves([("112", 1)]) != group.least_moves([("123", 1)])
    assert group.least_moves([("112", 1), ("221", 3)]) == group.least_moves([("331", 3), ("113", 1)])


@pytest.fixture
def images_everywhere(monkeypatch):
    """Look every set of the compiled searches up by its least image, however small."""
    monkeypatch.setattr(config, "CANON_MIN_SET", 1)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(SMALL, st.sampled_from(["normal", "consistent"]), st.integers(3, 6), st.integers(0, 2),
       st.booleans(), st.randoms(use_true_random=False))
def test_search_by_least_images_equals_plain_search(images_everywhere, spec, mode, max_guesses, moves,
                                                    collide, rng):
    pm = pattern_matrix(make_game(*spec), None, None, "cpu")
    answer = rng.choice(pm.answers)
    history = [(g, pm.game.reply(g, answer)) for g in rng.sample(pm.guesses, moves) if g != answer]
    question = Question(moves=tuple(history), mode=mode, max_guesses=max_guesses + len(history),
                        alternatives=2)
    results = []
    for symmetry in (True, False):
        optimal.COLLIDE = collide and symmetry  # every lookup a hash collision
        try:
            r = solve(pm, question, Options(workers=1, symmetry=symmetry))
            results.append((r.total, r.proven))
            if not history:  # its tree holds guesses read from entries of images
                check_tree(r.tree, pm, max_guesses, r.total, mode)
        except GpusolveError as e:
            results.append(str(e))
        finally:
            optimal.COLLIDE = False
    assert results[0] == results[1]


def test_least_images_save_nodes_in_bulls_and_cows(images_everywhere):
    pm = pattern_matrix(make_game("bulls", 4, 6), None, None, "cpu")
    question = Question(max_guesses=6, start="0123")
    plain = solve(pm, question, Options(workers=1, memo_mb=64))
    config.CANON_MIN_SET = 0
    without = solve(pm, question, Options(workers=1, memo_mb=64))
    assert plain.total == without.total
    assert plain.nodes < without.nodes


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(SMALL, st.sampled_from(["normal", "consistent"]), st.integers(0, 1))
def test_worst_case_by_least_images_equals_plain(images_everywhere, monkeypatch, spec, mode, key_bits):
    from gpusolve.kernels import setkeys

    from gpusolve.search.worstcase import worst_case

    monkeypatch.setattr(config, "WORSTCASE_LARGE_SET", 10**6)
    pm = pattern_matrix(make_game(*spec), None, None, "cpu")
    plain = worst_case(pm, mode=mode, symmetry=False)
    old = setkeys.KEY_BITS
    setkeys.KEY_BITS = key_bits  # every set hashes alike: lookups prove members
    try:
        mapped = worst_case(pm, mode=mode)
    finally:
        setkeys.KEY_BITS = old
    assert (mapped.depth, mapped.proven_least) == (plain.depth, plain.proven_least)


def test_worst_case_by_least_images_visits_fewer_nodes(images_everywhere, monkeypatch):
    from gpusolve.search.worstcase import worst_case

    monkeypatch.setattr(config, "WORSTCASE_LARGE_SET", 10**6)  # every set in the compiled search
    pm = pattern_matrix(make_game("bulls", 3, 8), None, None, "cpu")
    mapped = worst_case(pm)
    config.CANON_MIN_SET = 0
    plain = worst_case(pm)
    assert (mapped.depth, mapped.refuted) == (plain.depth, plain.refuted) == (6, [1, 2, 3, 4, 5])
    assert mapped.nodes < plain.nodes
