"""CUDA kernel (numba.cuda, one thread per game, grid-stride): the contract of ``war_cpu``."""

from .gpu import cuda, uint8
from .war_game import MAX_CARDS
from .war_game import play_game as _play_game

play_game = cuda.jit(device=True)(_play_game)


@cuda.jit(cache=True)
def play_games(key, first, ranks, suits, down, cap, lengths, outcomes):
    """Fill ``lengths[i]`` (plays) and ``outcomes[i]`` of games ``first + i``."""
    hands = cuda.local.array((2, MAX_CARDS), dtype=uint8)
    pile = cuda.local.array(MAX_CARDS, dtype=uint8)
    start = cuda.grid(1)
    step = cuda.gridsize(1)
    for i in range(start, lengths.shape[0], step):
        plays, outcome = play_game(key, first + i, ranks, suits, down, cap, hands, pile)
        lengths[i] = plays
        outcomes[i] = outcome
