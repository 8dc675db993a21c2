"""Game histories typed by users ("SALET:.....,CRONY:.Y..G") and the answers they leave."""

from __future__ import annotations

import numpy as np

from .errors import GpusolveError
from .games import MASTERMIND
from .patterns import PatternMatrix
from .words import Word

Move = tuple[Word, int]
"""A guess and the reply code it got."""


def parse_history(pm: PatternMatrix, text: str) -> list[Move]:
    """Return the moves of a comma-separated ``GUESS:REPLY`` history, each checked."""
    moves = []
    for item in _items(pm, text):
        if ":" not in item:
            raise GpusolveError(f"malformed move {item!r}: expected GUESS:REPLY, e.g. SALET:..Y.G")
        word, reply = item.split(":", 1)
        moves.append((pm.game.parse_word(word, pm.guess_index), pm.game.parse_reply(reply)))
    return moves


def read_position(pm: PatternMatrix, text: str | None, mode: str = "normal") -> list[Move]:
    """Return the moves of a ``--state`` (empty: the opening), each checked: known guess,
    well-formed reply, some answer left, no move after the one that won, allowed by ``mode``."""
    moves = parse_history(pm, text or "")
    remaining_answers(pm, moves)
    for number, (_, reply) in enumerate(moves[:-1], 1):
        if reply == pm.game.solved:
            raise GpusolveError(f"move {number} ({moves[number - 1][0]}) won the game: no move follows it")
    problem = mode_problem(pm, moves, mode)
    if problem:
        raise GpusolveError(f"{problem}; give the moves of a {mode}-mode game or another --mode")
    return moves


def mode_problem(pm: PatternMatrix, moves: list[Move], mode: str) -> str | None:
    """Return why ``mode`` would not have allowed one of ``moves`` (naming the move), or None."""
    from .modes import hard_mode_problem

    for number, (word, _) in enumerate(moves, 1):
        if mode == "hard":
            problem = hard_mode_problem(pm.game, word, moves[:number - 1])
            if problem:
                return f"move {number}: {problem}"
        elif mode == "consistent":
            possible = pm.answer_rows[remaining_answers(pm, moves[:number - 1])]
            if pm.guess_index[word] not in set(possible.tolist()):
                return f"move {number}: {word} is not a possible answer there (consistent mode)"
    return None


def allowed_rows(pm: PatternMatrix, moves: list[Move], mode: str) -> np.ndarray:
    """Return the guess rows ``mode`` allows after ``moves`` (normal: every guess)."""
    if mode == "consistent":
        return pm.answer_rows[remaining_answers(pm, moves)]
    if mode == "hard" and moves:
        return pm.hard_mode_rows(moves)
    return np.arange(pm.shape[0])


def won(pm: PatternMatrix, moves: list[Move]) -> bool:
    """Return whether the last move won the game (its reply is the solved one)."""
    return bool(moves) and moves[-1][1] == pm.game.solved


def refuse_won(pm: PatternMatrix, moves: list[Move], what: str) -> None:
    """Raise a one-line error if the moves already won the game (nothing is left to ``what``)."""
    if won(pm, moves):
        raise GpusolveError(f"the game is already won: {moves[-1][0]} (move {len(moves)}) is the answer; "
                            f"nothing is left to {what}")


def _items(pm: PatternMatrix, text: str) -> list[str]:
    """Return the ``GUESS:REPLY`` items of a history; a Mastermind reply may itself hold a comma
    (``1122:2,1``), so there a bare number continues the item before it."""
    items: list[str] = []
    for part in filter(None, (part.strip() for part in text.split(","))):
        if pm.game.kind == MASTERMIND and items and ":" not in part and part[:1].isdigit():
            items[-1] += "," + part
        else:
            items.append(part)
    return items


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


def stored_moves(pm: PatternMatrix, items: object, mode: str = "normal") -> list[Move]:
    """Return the moves a tree file starts from (its ``moves``: [[GUESS, REPLY], ...]), each
    checked: known guess, well-formed reply, allowed by ``mode``, some answer left, not solved."""
    if items is None:
        return []
    pairs = isinstance(items, list) and all(
        isinstance(m, list) and len(m) == 2 and all(isinstance(x, str) for x in m) for m in items)
    if not pairs:
        raise GpusolveError("malformed tree file: 'moves' must be a list of [GUESS, REPLY] pairs")
    moves: list[Move] = []
    for number, (word, reply) in enumerate(items, 1):
        try:
            move = pm.game.parse_word(word, pm.guess_index), pm.game.parse_reply(reply)
        except GpusolveError as e:
            raise GpusolveError(f"malformed tree file: move {number}: {e}") from None
        if moves and moves[-1][1] == pm.game.solved:
            raise GpusolveError(f"malformed tree file: move {number - 1} solved the game; no move follows")
        moves.append(move)
    problem = mode_problem(pm, moves, "hard") if mode == "hard" else None
    if problem:
        raise GpusolveError(f"malformed tree file: {problem}")
    if moves and moves[-1][1] == pm.game.solved:
        raise GpusolveError("malformed tree file: its moves solve the game; no tree follows")
    try:
        remaining_answers(pm, moves)
    except GpusolveError as e:
        raise GpusolveError(f"malformed tree file: its moves: {e}") from None
    return moves
