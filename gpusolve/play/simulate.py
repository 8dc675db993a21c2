"""Simulated games: a guesser (a tree, or random consistent guesses) against a chosen answer."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..core.errors import GpusolveError
from ..core.games import Game
from ..core.patterns import PatternMatrix
from ..core.trees import Summary, Tree, summary_of
from ..core.words import Word
from ..search.plumbing import OnProgress, Progress

Move = tuple[Word, int]
Guesser = Callable[[list[Move], np.ndarray], Word]
"""A guesser: given the moves so far and the remaining answer columns, the next guess."""


@dataclass(frozen=True)
class Turn:
    """One guess of a game, the reply it got, and how many answers remained after it."""

    guess: Word
    reply: int
    remaining: int


def tree_guesser(tree: Tree, game: Game, start: Sequence[Move] = ()) -> Guesser:
    """Return a guesser that follows ``tree`` (one-line error where the tree has no branch); a
    tree built from a position plays that position's moves (``start``) first."""
    start = list(start)

    def guess(moves: list[Move], remaining: np.ndarray) -> Word:
        if len(moves) < len(start):
            return start[len(moves)][0]
        t = tree
        for word, reply in moves[len(start):]:
            if isinstance(t, str) or reply not in t.branches:
                raise GpusolveError(f"the tree has no branch for the reply {game.format_reply(reply)} to "
                                    f"{word}: it was not built for these word lists")
            t = t.branches[reply]
        return t if isinstance(t, str) else t.guess

    return guess


def random_guesser(pm: PatternMatrix, seed: int | None = 0) -> Guesser:
    """Return a guesser that picks a random remaining answer (reproducible with ``seed``)."""
    rng = random.Random(seed)

    def guess(moves: list[Move], remaining: np.ndarray) -> Word:
        return pm.answers[int(remaining[rng.randrange(len(remaining))])]

    return guess


def play_game(pm: PatternMatrix, guesser: Guesser, target: Word) -> list[Turn]:
    """Return the turns of ``guesser`` playing until it names ``target`` (an answer)."""
    try:
        col = pm.answers.index(target)
    except ValueError:
        raise GpusolveError(f"unknown answer {target}: not in the answer list") from None
    game = pm.game
    remaining = np.arange(pm.shape[1])
    moves: list[Move] = []
    turns: list[Turn] = []
    for _ in range(pm.shape[1] + 1):
        word = guesser(moves, remaining)
        if word not in pm.guess_index:
            raise GpusolveError(f"the guesser played {word}, which is not in the guess list")
        row = pm.codes[pm.guess_index[word]]
        reply = int(row[col])
        remaining = remaining[row[remaining] == reply]
        moves.append((word, reply))
        turns.append(Turn(word, reply, len(remaining)))
        if reply == game.solved and word == target:
            return turns
    raise GpusolveError(f"the guesser did not find {target} in {pm.shape[1] + 1} guesses")


def play_all(pm: PatternMatrix, guesser: Guesser, targets: Sequence[Word] | None = None,
             progress: OnProgress | None = None) -> Summary:
    """Return the statistics of ``guesser`` playing every answer (or ``targets``) once;
    ``progress`` hears of every 100 games."""
    targets = pm.answers if targets is None else targets
    games = []
    for t in targets:
        games.append(play_game(pm, guesser, t))
        if progress and len(games) % 100 == 0:
            progress(Progress("games", len(games), len(targets)))
    if not games:
        raise GpusolveError("no answers to play")
    return summary_of(games[0][0].guess, Counter(len(turns) for turns in games))
