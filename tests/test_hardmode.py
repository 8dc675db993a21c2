"""The one hard-mode rule (kernels/hardmode.py), compiled for the CPU and for CUDA and as plain
Python, against its pure-Python oracle ``gpusolve.core.modes.hard_mode_allows``."""

from __future__ import annotations

import numpy as np
import pytest
from gpusolve.kernels import config, hardmode, hardmode_cpu, optimal_cpu
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusolve.core.backend import CpuBackend, CudaBackend
from gpusolve.core.games import make_game
from gpusolve.core.modes import hard_mode_allows
from gpusolve.core.patterns import PatternMatrix, build_codes

GAMES = [("wordle", 3), ("wordle", 4), ("wordle", 5), ("wordle", 6), ("jotto", 4), ("mastermind", 4)]


@st.composite
def position(draw, games=GAMES):
    """Draw (game, guess words, moves): words over a few symbols (so letters repeat), moves
    whose replies come from a hidden answer, or (one in four) any reply code."""
    name, length = draw(st.sampled_from(games))
    game = make_game(name, length)
    symbols = game.alphabet[:4] if name != "jotto" else "ABCDEFG"
    word = st.text(symbols, min_size=length, max_size=length)
    if name == "jotto":  # Jotto words have distinct letters
        word = st.permutations(symbols).map(lambda p: "".join(p[:length]))
    words = tuple(sorted(set(draw(st.lists(word, min_size=2, max_size=12)))))
    answer = draw(st.sampled_from(words))
    moves = []
    for guess in draw(st.lists(st.sampled_from(words), max_size=3)):
        reply = game.reply(guess, answer)
        if draw(st.integers(0, 3)) == 0:
            reply = draw(st.integers(0, game.n_patterns - 1))
        moves.append((guess, reply))
    return game, words, moves


def _pm(game, words, backend) -> PatternMatrix:
    return PatternMatrix(game, words, words, build_codes(game, words, words, CpuBackend()), backend)


def _oracle(game, words, moves) -> list[int]:
    return [i for i, w in enumerate(words) if hard_mode_allows(game, w, moves)]


@settings(max_examples=120, deadline=None)
@given(position())
def test_compiled_rule_matches_the_oracle(case):
    game, words, moves = case
    pm = _pm(game, words, CpuBackend())
    want = _oracle(game, words, moves)
    assert pm.hard_mode_rows(moves).tolist() == want
    # one move at a time through hard_filter: compiled, as plain Python, and the exact search's
    plain = hardmode.build(lambda f: f)[2]
    rows = np.arange(len(words), dtype=np.int32)
    scratch = np.zeros(hardmode.SCRATCH, np.int64)
    params = np.zeros(optimal_cpu.N_PARAMS, np.int64)
    params[optimal_cpu.P_KIND], params[optimal_cpu.P_LENGTH] = game.kind, game.length
    params[optimal_cpu.P_COLOURS] = game.colours
    for guess, reply in moves:
        g = pm.guess_index[guess]
        args = game.kind, game.length, game.colours, pm.letters, pm.letter_counts, rows, len(rows), g, reply
        out = np.empty_like(rows)
        k = hardmode_cpu.hard_filter(*args, out, scratch)
        assert out[:k].tolist() == [r for r in rows if hard_mode_allows(game, words[r], [(guess, reply)])]
        assert plain(*args, out, scratch) == k
        k2 = optimal_cpu.hard_filter(params, pm.letters, pm.letter_counts, pm.letters, rows, len(rows),
                                     g, reply, out, scratch)
        assert k2 == k
        assert not scratch[:hardmode.RULE].any()  # the reply rule's counts are left zero
        rows = out[:k].copy()
    assert rows.tolist() == want


def test_nyt_examples(wordle):
    """The NYT rule: greens stay, revealed letters are reused as often as revealed, and a grey
    letter may be played again."""
    pm = _pm(wordle, ("SPEED", "ABIDE", "CREPE", "ERASE", "STEEP", "EERIE", "DEEDS"), CpuBackend())
    moves = [("SPEED", wordle.parse_reply("..GY."))]  # E third, another E somewhere, not 4th
    allowed = {pm.guesses[r] for r in pm.hard_mode_rows(moves)}
    assert allowed == {w for w in pm.guesses if hard_mode_allows(wordle, w, moves)}
    assert allowed == {"SPEED", "CREPE", "STEEP", "DEEDS"}


@pytest.mark.cuda
@settings(max_examples=12, deadline=None)
@given(position(games=[("wordle", 3), ("wordle", 5), ("jotto", 4), ("mastermind", 4)]))
def test_cuda_rule_matches_the_cpu_kernel_and_the_oracle(case):
    game, words, moves = case
    threads, config.THREADS_PER_BLOCK = config.THREADS_PER_BLOCK, 4  # small blocks: grid-stride
    try:
        got = _pm(game, words, CudaBackend(every_call=True)).hard_mode_rows(moves)
    finally:
        config.THREADS_PER_BLOCK = threads
    assert got.tolist() == _pm(game, words, CpuBackend()).hard_mode_rows(moves).tolist()
    assert got.tolist() == _oracle(game, words, moves)
