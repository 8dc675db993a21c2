"""Hard mode's dead cores (``kernels.optimal_cpu``, Wordle): every set of every node of small random
hard-mode games, searched by one workspace in turn (its cores kept from set to set, as a start
word's buckets share them), gets the brute-force value, and the cores do refute guesses there."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gpusolve.kernels import optimal_cpu
from test_bounds import first_pass_everywhere, node_values  # noqa: F401 (a fixture)
from test_optimal import INF, WORDLE_WORDS, brute_force, small_matrix

from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import make_game
from gpusolve.search import optimal
from gpusolve.search.optimal import Options, Question, solve

FAMILIES = ("IGHT", "OUND", "ATCH", "OWER", "ASTE", "ILLY", "AUNT", "EACH", "OUGH", "UNCH")
"""Endings that several Wordle answers share (FIGHT, LIGHT, MIGHT, ...): once hard mode keeps
their letters green, a few of them left with two guesses have no guess splitting them."""


def trap_instance(seed: int, n_guesses: int):
    """Return a small Wordle game whose answers are drawn mostly from a few families of words sharing
    four letters (``FAMILIES``), its guesses the answers and ``n_guesses`` random words more."""
    rng = random.Random(seed)
    answers = set(rng.sample([w for w in WORDLE_WORDS if w[0] in "SCBT"], 4))
    for ending in rng.sample(FAMILIES, 3):
        family = [w for w in WORDLE_WORDS if w[1:] == ending]
        answers |= set(rng.sample(family, min(len(family), rng.randint(3, 6))))
    guesses = sorted(answers | set(rng.sample(WORDLE_WORDS, n_guesses)))
    return small_matrix(make_game("wordle"), guesses, sorted(answers))


def every_node(ctx, pm, depth: int):
    """Yield (answer columns, guesses left, allowed rows, moves) of every node below the root of the
    hard-mode game tree of ``pm``, each once, deepest sets last."""
    seen = set()
    everything = np.arange(len(pm.guesses), dtype=np.int32)
    stack = [(np.arange(len(pm.answers), dtype=np.int32), depth, everything, ())]
    while stack:
        answers, left, rows, path = stack.pop()
        key = (tuple(answers), left, tuple(rows), tuple(sorted(path)))
        if key in seen or len(answers) < 3 or left < 2:
            continue
        seen.add(key)
        yield answers, left, rows, path
        for g in rows:
            for _, bucket, allowed, kpath in ctx.children(answers, rows, int(g), path):
                stack.append((bucket, left - 1, allowed, kpath))


@pytest.mark.parametrize(("seed", "n_guesses", "depth"),
                         [(1, 8, 4), (2, 12, 4), (9, 8, 4), (4, 10, 3), (5, 10, 4), (6, 4, 4), (8, 8, 5)])
def test_every_node_gets_the_brute_force_value_with_the_cores_kept(seed, n_guesses, depth):
    pm = trap_instance(seed, n_guesses)
    ws = search_every_node(pm, depth, seed)
    cores = ws.work.moves.hard.cores
    assert cores.count[0] > 0  # recorded, and so put to the test
    for c in range(min(cores.count[0], optimal_cpu.CORES)):
        assert not splitters(pm, [pm.guesses[r] for r in cores.rows[c, :cores.size[c]]], cores.rule[c])


def search_every_node(pm, depth: int, seed: int) -> optimal._Workspace:
    """Search every node of the hard-mode game of ``pm`` in turn with one workspace (random cutoffs),
    asserting each result against brute force; return the workspace."""
    truth = node_values(pm, "hard", depth)["value"]
    ctx = optimal._Context(pm, "hard", depth)
    ws = optimal._Workspace(ctx, 1 << 12)
    stop = np.zeros(1, np.int64)
    rng = random.Random(seed)
    for answers, left, rows, path in every_node(ctx, pm, depth):
        want = truth(frozenset(pm.answers[a] for a in answers), left, frozenset(pm.guesses[r] for r in rows))
        beta = rng.choice([optimal_cpu.INF, 3 * len(answers), 2 * len(answers) + 2])
        got, _ = ws.solve(answers, left, beta, rows, path, stop)
        if want < beta:
            assert got == want, (answers, left, path)
        else:
            assert beta <= got <= want or (want == INF and got >= optimal_cpu.INF)
    return ws


def splitters(pm, core: list[str], rule: np.ndarray) -> list[str]:
    """Return the guesses meeting a combined hard-mode rule (a letter code per position, -1: none;
    then each letter's least count) that give every answer of ``core`` its own reply."""
    letters = {w: [int(x) for x in row] for w, row in zip(pm.guesses, pm.letters)}
    return [h for h in pm.guesses
            if all(c < 0 or letters[h][k] == c for k, c in enumerate(rule[:5]))
            and all(letters[h].count(c) >= least for c, least in enumerate(rule[5:]))
            and len({pm.game.reply(h, a) for a in core}) == len(core)]


@pytest.mark.usefixtures("first_pass_everywhere")
def test_the_killer_order_leaves_the_driver_s_values_as_brute_force_finds_them(monkeypatch):
    """Every set searched by the driver (``first_pass_everywhere``), in hard mode with no cutoff the
    bucket holding most answers of the last dead one first (``_Search._killer_first``): the same
    totals as brute force, the order moved at least once."""
    moved = []
    first = optimal._Search._killer_first

    def counted(self, todo, kids, left):
        before = list(todo)
        first(self, todo, kids, left)
        moved.append(todo != before)

    monkeypatch.setattr(optimal._Search, "_killer_first", counted)
    for seed in range(1, 7):
        pm = trap_instance(seed, 8)
        for depth in (3, 4):
            want = brute_force(pm, "hard", depth)
            try:
                got = solve(pm, Question(mode="hard", max_guesses=depth, tree=False),
                            Options(workers=1, memo_mb=1)).total
            except GpusolveError:
                got = INF
            assert got == want, (seed, depth)
    assert any(moved)
