"""The hard-mode rule, written once as plain Python and compiled for both targets.

``build(jit)`` returns the rule's functions compiled with ``jit``: ``njit`` in ``hardmode_cpu``
(which the greedy and exact searches call), ``cuda.jit(device=True)`` in ``hardmode_cuda``;
``build(lambda f: f)`` gives them as plain Python. They call the reply rule of
``replies.py`` compiled with the same ``jit``. The pure-Python oracle is
``gpusolve.core.modes.hard_mode_allows``.

After guess row ``g`` got reply ``p``, a later guess row ``h`` is allowed when

* Wordle (the NYT rule): it keeps each green letter in its place and contains each revealed
  letter (green or yellow) at least as many times as that reply revealed it;
* the other games: it would have given reply ``p`` to ``g`` had it been the answer.

Words are rows of ``letters`` (the game's encoding); ``counts[h, c]`` is how many times symbol
c occurs in row h (``letter_counts``). ``scratch`` is int64, at least ``SCRATCH`` long, its
first ``replies.SCRATCH`` entries zero (left zero): the reply rule's counts, then from ``RULE``
on the rule ``hard_rule`` compiles for one (g, p): the letter required at each position (-1:
none), the number of (letter, least count) pairs, and the pairs.
"""

import numpy as np

from . import replies

RULE = replies.SCRATCH
"""Offset in ``scratch`` of a compiled rule (at most 3 * length + 1 entries)."""
SCRATCH = RULE + 32
"""Length of the ``scratch`` array (rules for words of up to 10 letters)."""


def letter_counts(letters, colours):
    """Return uint8 ``counts[h, c]``: how many times symbol c occurs in row h of ``letters``."""
    counts = np.zeros((letters.shape[0], max(colours, 1)), np.uint8)
    for h in range(letters.shape[0]):
        for k in range(letters.shape[1]):
            counts[h, letters[h, k]] += 1
    return counts


def build(jit):
    """Return (hard_rule, rule_allows, hard_filter, allows_after) compiled with ``jit``."""
    reply_code = jit(replies.reply_code)

    def hard_rule(kind, length, letters, g, p, scratch):
        """Compile the rule of guess row ``g`` with reply ``p`` into ``scratch[RULE:]`` (Wordle;
        the other games need none)."""
        if kind != replies.WORDLE:
            return
        code = p
        for k in range(length - 1, -1, -1):
            digit = code % 3
            code //= 3
            scratch[RULE + k] = letters[g, k] if digit == 2 else -1
            if digit:
                scratch[letters[g, k]] += 1
        u = 0
        for k in range(length):
            c = letters[g, k]
            if scratch[c] > 0:
                scratch[RULE + length + 1 + 2 * u] = c
                scratch[RULE + length + 2 + 2 * u] = scratch[c]
                scratch[c] = 0
                u += 1
        scratch[RULE + length] = u

    def meets_wordle_rule(length, letters, counts, h, scratch):
        """Return whether guess row ``h`` meets the Wordle rule compiled in ``scratch[RULE:]``."""
        for k in range(length):
            c = scratch[RULE + k]
            if c >= 0 and letters[h, k] != c:
                return False
        for t in range(scratch[RULE + length]):
            if counts[h, scratch[RULE + length + 1 + 2 * t]] < scratch[RULE + length + 2 + 2 * t]:
                return False
        return True

    hard_rule = jit(hard_rule)
    meets_wordle_rule = jit(meets_wordle_rule)

    def rule_allows(kind, length, colours, letters, counts, g, p, h, scratch):
        """Return whether guess row ``h`` meets the rule ``hard_rule`` compiled for (g, p)."""
        if kind != replies.WORDLE:
            return reply_code(kind, letters, g, letters, h, length, colours, scratch) == p
        return meets_wordle_rule(length, letters, counts, h, scratch)

    rule_allows = jit(rule_allows)

    def hard_filter(kind, length, colours, letters, counts, rows, m, g, p, out, scratch):
        """Write the rows of ``rows[:m]`` the rule of (g, p) allows to ``out`` (which may be
        ``rows`` itself); return how many."""
        hard_rule(kind, length, letters, g, p, scratch)
        k = 0
        if kind == replies.WORDLE:  # one loop per kind: the Wordle loop stores nothing to scratch
            for j in range(m):
                h = rows[j]
                if meets_wordle_rule(length, letters, counts, h, scratch):
                    out[k] = h
                    k += 1
        else:
            for j in range(m):
                h = rows[j]
                if rule_allows(kind, length, colours, letters, counts, g, p, h, scratch):
                    out[k] = h
                    k += 1
        return k

    def allows_after(kind, length, colours, letters, counts, moves_g, moves_p, h, scratch):
        """Return whether hard mode allows guess row ``h`` after every move (moves_g[t], moves_p[t])."""
        for t in range(moves_g.shape[0]):
            hard_rule(kind, length, letters, moves_g[t], moves_p[t], scratch)
            if not rule_allows(kind, length, colours, letters, counts, moves_g[t], moves_p[t], h, scratch):
                return False
        return True

    return hard_rule, rule_allows, jit(hard_filter), jit(allows_after)
