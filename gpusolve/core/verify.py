"""Checking a guess tree against a game, its word lists and a guessing mode."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .games import Game
from .modes import check_mode, hard_mode_problem
from .patterns import PatternMatrix
from .trees import Node, Tree
from .words import Word

MAX_SHOWN = 5
"""Answers named in one problem before the rest are counted."""


def _path_text(game: Game, moves: list[tuple[Word, int]]) -> str:
    if not moves:
        return "at the root"
    return "after " + " ".join(f"{w}:{game.format_reply(r)}" for w, r in moves)


def _names(words: Sequence[Word]) -> str:
    shown = ", ".join(words[:MAX_SHOWN])
    return shown + (f" and {len(words) - MAX_SHOWN} more" if len(words) > MAX_SHOWN else "")


def verify_tree(tree: Tree, pm: PatternMatrix, mode: str = "normal", max_guesses: int | None = None,
                answers: Sequence[Word] | np.ndarray | None = None,
                moves: list[tuple[Word, int]] | None = None) -> list[str]:
    """Return the problems of ``tree`` (empty when it is valid), each one line.

    Valid: every answer (default: all of ``pm``'s; or the given words or columns) is reached
    exactly once, at a leaf (or solved branch) naming it; every edge's reply is the game's
    reply; every guess is in the guess list and allowed by ``mode`` given the path; node sizes
    are right; no answer needs more than ``max_guesses`` guesses. A tree built from a position
    (``moves`` played: checked by ``gpusolve.core.history.stored_moves``) covers only the answers
    those moves leave, and its guesses count after theirs.
    """
    from .history import remaining_answers

    check_mode(mode)
    moves = list(moves or [])
    game = pm.game
    answer_col = {w: i for i, w in enumerate(pm.answers)}
    if answers is None:
        cols = np.arange(pm.shape[1])
    else:
        items = list(answers)
        if items and isinstance(items[0], str):
            unknown = [w for w in items if w not in answer_col]
            if unknown:
                return [f"answers not in the answer list: {_names(unknown)}"]
            items = [answer_col[w] for w in items]
        cols = np.asarray(sorted(set(items)), dtype=np.int64)
    if moves:
        cols = np.intersect1d(cols, remaining_answers(pm, moves))
    problems: list[str] = []
    too_deep: list[tuple[Word, int]] = []

    def allowed(word: Word, moves: list[tuple[Word, int]], remaining: np.ndarray) -> str | None:
        if word not in pm.guess_index:
            return f"guess {word} is not in the guess list"
        if mode == "consistent" and answer_col.get(word, -1) not in set(remaining.tolist()):
            return f"guess {word} is not a remaining answer (consistent mode)"
        problem = hard_mode_problem(game, word, moves) if mode == "hard" else None
        if problem:
            return f"guess {problem}"
        return None

    def reached(word: Word, remaining: np.ndarray, moves: list[tuple[Word, int]], depth: int) -> None:
        words = [pm.answers[c] for c in remaining]
        where = _path_text(game, moves)
        if len(words) != 1 or words[0] != word:
            problems.append(f"{where}: leaf {word} but the answers left are {_names(words) or 'none'}")
            return
        if max_guesses is not None and depth > max_guesses:
            too_deep.append((word, depth))

    def walk(t: Tree, remaining: np.ndarray, moves: list[tuple[Word, int]], depth: int) -> None:
        where = _path_text(game, moves)
        if isinstance(t, str):
            why = allowed(t, moves, remaining)
            if why:
                problems.append(f"{where}: {why}")
            reached(t, remaining, moves, depth)
            return
        if not isinstance(t, Node):
            problems.append(f"{where}: not a node or a word: {str(t)[:40]}")
            return
        why = allowed(t.guess, moves, remaining)
        if why:
            problems.append(f"{where}: {why}")
            if t.guess not in pm.guess_index:
                return
        if t.size != len(remaining):
            problems.append(f"{where}: node {t.guess} says size {t.size} but {len(remaining)} answers remain")
        replies = pm.codes[pm.guess_index[t.guess], remaining]
        for code in np.unique(replies):
            code = int(code)
            if code not in t.branches:
                missed = [pm.answers[c] for c in remaining[replies == code]]
                problems.append(f"{where}, {t.guess}: no branch for reply {game.format_reply(code)}; "
                                f"never reached: {_names(missed)}")
        for code, sub in t.branches.items():
            below = remaining[replies == code]
            if not len(below):
                problems.append(f"{where}, {t.guess}: reply {game.format_reply(code)} cannot happen "
                                "(no remaining answer gives it)")
                continue
            if code == game.solved:
                if sub != t.guess:
                    problems.append(f"{where}, {t.guess}: the solved reply must end in {t.guess}, "
                                    f"not {sub if isinstance(sub, str) else sub.guess}")
                else:
                    reached(t.guess, below, moves, depth)
                continue
            walk(sub, below, [*moves, (t.guess, code)], depth + 1)

    walk(tree, cols, moves, len(moves) + 1)
    if too_deep:
        worst = max(d for _, d in too_deep)
        problems.append(f"{len(too_deep)} answers need more than {max_guesses} guesses "
                        f"(up to {worst}): {_names([w for w, _ in too_deep])}")
    return problems
