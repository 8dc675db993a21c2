"""One game of War as a scalar routine, compiled for both targets (as ``replies.py`` is).

``play_game`` is plain Python that numba compiles with ``njit`` for ``war_cpu`` and with
``cuda.jit(device=True)`` for ``war_cuda``, so both backends play identical games.

Cards are ranks ``0..ranks-1``, ``suits`` of each, held as uint8 in caller-owned scratch:
``hands`` (2, MAX_CARDS) holds each player's cards as a ring (top at ``top``, ``size`` cards),
``pile`` (MAX_CARDS,) the cards played since the last battle was settled.

Random numbers are counter-based (SplitMix64): draw k (k = 1, 2, ...) of game g is
``mix64(key + (g * 2**DRAW_BITS + k) * golden)`` with ``key = mix64(seed)`` made on the host, so
a game depends only on (seed, g): never on threads, blocks or batches. A game makes fewer than
2**DRAW_BITS draws (n - 1 for the deal, then fewer than two per play; plays <= MAX_CAP), so games'
streams never overlap. A draw picks j in [0, i] as ``(high 32 bits * (i + 1)) >> 32`` (bias below
256 / 2**32).
"""

import numpy as np

MAX_CARDS = 256
"""Most cards in a simulated deck (ranks are stored as uint8)."""

DRAW_BITS = 24
MAX_CAP = 1 << (DRAW_BITS - 2)
"""Largest play cap: keeps every game's draws below 2**DRAW_BITS."""

A_WINS, B_WINS, TIE, CAPPED = 0, 1, 2, 3
"""Outcome codes of ``play_game``."""

_DEAL, _NOBODY = 2, 3


def _halves(constant: int) -> tuple:
    """Return a 64-bit constant as its (high, low) 32-bit halves, as uint64s."""
    return np.uint64(constant >> 32), np.uint64(constant & 0xFFFFFFFF)


# SplitMix64's constants, as halves joined inside ``play_game``: numba-cuda-mlir (0.6.0) cannot
# lower a uint64 constant of 2**63 or more ("RuntimeError: std::bad_cast"); joined, both compilers
# fold them back into the one constant.
_GOLDEN = _halves(0x9E3779B97F4A7C15)
_M1 = _halves(0xBF58476D1CE4E5B9)
_M2 = _halves(0x94D049BB133111EB)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
_STREAM_SHIFT = np.uint64(DRAW_BITS)


def play_game(key, game, ranks, suits, down, cap, hands, pile):
    """Return (plays, outcome) of game number ``game``; outcome CAPPED after ``cap`` plays."""
    n = ranks * suits
    for c in range(n):
        pile[c] = c // suits
    held = n  # cards in the pile
    taker = _DEAL  # who gets the pile once it is shuffled: _DEAL, 0 (A), 1 (B) or _NOBODY
    golden = (_GOLDEN[0] << _S32) | _GOLDEN[1]
    m1 = (_M1[0] << _S32) | _M1[1]
    m2 = (_M2[0] << _S32) | _M2[1]
    counter = key + (np.uint64(game) << _STREAM_SHIFT) * golden
    top_a = top_b = size_a = size_b = 0
    plays = 0
    due = 0  # face-down plays still due in the current war
    while True:
        if taker != _NOBODY:  # shuffle the pile (Fisher-Yates, counter-based draws)
            for i in range(held - 1, 0, -1):
                counter += golden
                z = counter
                z = (z ^ (z >> _S30)) * m1
                z = (z ^ (z >> _S27)) * m2
                z = z ^ (z >> _S31)
                j = ((z >> _S32) * np.uint64(i + 1)) >> _S32
                card = pile[i]
                pile[i] = pile[j]
                pile[j] = card
            if taker == _DEAL:  # alternately to A and B
                for c in range(0, n, 2):
                    hands[0, c // 2] = pile[c]
                    hands[1, c // 2] = pile[c + 1]
                size_a = size_b = n // 2
            else:  # to the bottom of the winner's deck
                if taker == 0:
                    at = top_a + size_a
                    size_a += held
                else:
                    at = top_b + size_b
                    size_b += held
                for c in range(held):
                    if at >= n:
                        at -= n
                    hands[taker, at] = pile[c]
                    at += 1
            held = 0
            taker = _NOBODY
        if size_a == 0 or size_b == 0:
            break
        if plays == cap:
            return plays, CAPPED
        a = hands[0, top_a]
        b = hands[1, top_b]
        top_a += 1
        top_b += 1
        if top_a == n:
            top_a = 0
        if top_b == n:
            top_b = 0
        size_a -= 1
        size_b -= 1
        pile[held] = a
        pile[held + 1] = b
        held += 2
        plays += 1
        if due > 0:
            due -= 1
        elif a == b:
            due = down
        else:
            taker = 0 if a > b else 1
    if size_a == size_b:
        return plays, TIE
    return plays, (A_WINS if size_a else B_WINS)
