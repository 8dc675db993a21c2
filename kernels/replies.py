"""The reply rule of every game as one scalar function, compiled for both targets.

``reply_code`` is plain Python that numba compiles twice: with ``njit`` for the CPU kernels
and with ``cuda.jit(device=True)`` for the GPU kernels, so both targets share one rule.
Words are rows of small integers (letter or colour indices); a reply is a small integer.
``counts`` is a caller-owned scratch array of at least 32 zeros (thread-local on both
targets); it is left all zero again on return.

Codes (see ``gpusolve.core.games`` for the text forms):

* ``WORDLE``: base 3, first letter most significant; digit 0 miss, 1 yellow, 2 green.
  Greens first, then yellows left to right, each limited by the answer's unmatched letters.
* ``JOTTO``: the number of distinct letters the two words share.
* ``MASTERMIND``: ``black * (pegs + 1) + white`` (Bulls and Cows too: bulls and cows).
* ``BLACK_PEGS``: ``black``, the number of right symbols in the right place.

The Wordle branch is branch-free in the squares (the per-square tests of a naive version
mispredict on most pairs and cost several times more).
"""

WORDLE = 0
JOTTO = 1
MASTERMIND = 2
BLACK_PEGS = 3
SCRATCH = 32


def reply_code(kind, guesses, g, answers, a, length, colours, counts):
    """Return the reply code for guess row ``g`` of ``guesses`` against answer row ``a``."""
    if kind == WORDLE:
        green = 0
        for k in range(length):
            hit = guesses[g, k] == answers[a, k]
            green |= int(hit) << k  # an int: numba-cuda-mlir shifts no bool
            counts[answers[a, k]] += 1 - hit
        code = 0
        for k in range(length):
            hit = (green >> k) & 1
            letter = guesses[g, k]
            take = (1 - hit) & (counts[letter] > 0)
            counts[letter] -= take
            code = code * 3 + 2 * hit + take
        for k in range(length):
            counts[answers[a, k]] = 0
        return code
    if kind == JOTTO:
        mask_g = 0
        mask_a = 0
        for k in range(length):
            mask_g |= 1 << int(guesses[g, k])
            mask_a |= 1 << int(answers[a, k])
        common = mask_g & mask_a
        count = 0
        while common:
            common &= common - 1
            count += 1
        return count
    black = 0
    if kind == BLACK_PEGS:
        for k in range(length):
            black += guesses[g, k] == answers[a, k]
        return black
    for k in range(length):
        black += guesses[g, k] == answers[a, k]
        counts[answers[a, k]] += 1
    total = 0
    for k in range(length):
        c = guesses[g, k]
        take = counts[c] > 0
        counts[c] -= take
        total += take
    for k in range(length):
        counts[answers[a, k]] = 0
    return black * (length + 1) + (total - black)
