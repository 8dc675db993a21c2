"""CPU kernel (numba, parallel over games): lengths and outcomes of many games of War."""

import numpy as np
from numba import njit, prange

from .war_game import MAX_CARDS
from .war_game import play_game as _play_game

play_game = njit(cache=True, inline="always")(_play_game)


@njit(parallel=True, cache=True)
def play_games(key, first, ranks, suits, down, cap, lengths, outcomes, threads):
    """Fill ``lengths[i]`` (plays) and ``outcomes[i]`` of games ``first + i``.

    Work is split in chunks over ``threads`` (pass ``numba.get_num_threads()``; reading it inside
    a kernel stops numba caching the kernel on disk); the results do not depend on it.
    """
    n = lengths.shape[0]
    chunks = 16 * threads
    size = (n + chunks - 1) // chunks
    for t in prange(chunks):
        hands = np.empty((2, MAX_CARDS), np.uint8)
        pile = np.empty(MAX_CARDS, np.uint8)
        for i in range(t * size, min(n, (t + 1) * size)):
            plays, outcome = play_game(key, first + i, ranks, suits, down, cap, hands, pile)
            lengths[i] = plays
            outcomes[i] = outcome
