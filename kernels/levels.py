"""The level bound: the least total any strategy can reach, from how many replies a guess gives.

A guess finds at most one answer (itself) and splits the others into at most ``k`` buckets
besides the solved reply, so a strategy's j-th guesses (one per node at depth j) number at
most ``k**(j - 1)`` and find at most that many answers. Filling the levels in order, each
as full as it can be, gives the least total number of guesses over ``m`` answers within
``left`` guesses. It is a proven lower bound on V(S, left) for every set S of ``m`` answers on
which no allowed guess gives more than ``k`` replies besides the solved one (nor does any
guess on any subset of S, a fortiori), and INF when the levels cannot hold ``m`` answers.

With ``roots`` first guesses in place of one, the same filling bounds the buckets of a guess
together: after a guess that leaves ``r`` unsolved buckets holding ``m`` answers in all, they
cost at least ``level_bound(m, left - 1, k, r)``, however the answers are spread among them.

For ``m <= k + 1`` it is the familiar ``2m - 1``; it grows like ``m log_k m``, which is what
makes it matter in games with few replies (Mastermind and Bulls and Cows have 14): a bucket
of 1,440 codes costs at least 5,562 guesses there, against 2,879 by ``2m - 1``.

Plain Python that numba compiles for both targets (``kernels.bounds_cpu``,
``kernels.bounds_cuda``), like ``kernels.replies``.
"""

from .config import INF


def level_bound(m, left, k, roots):
    """Return the least total number of guesses over ``m`` answers found within ``left``
    guesses when no guess leaves more than ``k`` unsolved replies and at most ``roots`` guesses
    come first (1 for one set; INF where none can)."""
    total = 0
    room = roots
    for level in range(1, left + 1):
        take = min(m, room)
        total += take * level
        m -= take
        if m == 0:
            return total
        room = min(room * k, m)
    return INF if m > 0 else total
