"""Game histories typed by users ("SALET:.....,CRONY:.Y..G") and the answers they leave."""

from __future__ import annotations

import numpy as np

from .errors import GpusolveError
from .patterns import PatternMatrix
from .words import Word

Move = tuple[Word, int]
"""A guess and the reply code it got."""


def parse_history(pm: PatternMatrix, text: str) -> list[Move]:
    """Return the moves of a comma-separated ``GUESS:REPLY`` history, each checked."""
    moves = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        if ":" not in item:
            raise GpusolveError(f"malformed move {item!r}: expected GUESS:REPLY, e.g. SALET:..Y.G")
        word, reply = item.split(":", 1)
        moves.append((pm.game.parse_word(word, pm.guess_index), pm.game.parse_reply(reply)))
    return moves


def remaining_answers(pm: PatternMatrix, moves: list[Move]) -> np.ndarray:
    """Return the answer columns consistent with every move, or raise if none is."""
    alive = np.arange(pm.shape[1], dtype=np.int32)
    for number, (word, reply) in enumerate(moves, 1):
        alive = alive[pm.codes[pm.guess_index[word], alive] == reply]
        if not len(alive):
            shown = pm.game.format_reply(reply)
            raise GpusolveError(
                f"reply {shown} to {word} (move {number}) is impossible given the earlier moves: "
                "no answer fits"
            )
    return alive
