"""Write an opening book (``gpusolve.play.book``): data/book-wordle-LISTS-MODE.txt, the proven best
next guess and its total after each of the book's openers and every reply.

Usage: python scripts/make_book.py [--lists nyt-2022-03] [--mode normal] [--max-guesses 6]

Each opener's optimal tree (``optimal-tree --start OPENER``) is searched to the end; each subtree
of a proven optimal tree is optimal at its position (the total is the sum of the subtrees'), so
its first guess and total are the entry. Where some reply leaves no strategy within the max
guesses (hard mode's traps) the opener has no tree: each reply is then searched as its own
position, and those with none are left out. ``tests/test_book.py`` checks the shipped books against
a fresh exact search; re-run this whenever the lists of an era change.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from gpusolve.core.cache import write_atomic
from gpusolve.core.eras import era
from gpusolve.core.errors import Infeasible
from gpusolve.core.games import make_game
from gpusolve.core.patterns import PatternMatrix, pattern_matrix
from gpusolve.core.trees import Node, Tree
from gpusolve.core.words import Word
from gpusolve.play.book import OPENERS, Book, Entry, book_key, format_book
from gpusolve.play.thinking import tree_total
from gpusolve.search import optimal

DATA = Path(__file__).resolve().parent.parent / "data"


def proven(pm: PatternMatrix, question: optimal.Question) -> optimal.OptimalResult:
    """Return the optimal tree's result of a question, or fail if it is not proven."""
    result = optimal.solve(pm, question, optimal.Options(at_once=True))
    if not result.proven or not isinstance(result.tree, Node):
        raise SystemExit(f"{question}: not proven")
    return result


def feasible(pm: PatternMatrix, opener: Word, mode: str, max_guesses: int) -> dict[int, Tree]:
    """Return the optimal subtree after each reply to ``opener`` that leaves a strategy within
    ``max_guesses`` (hard mode: a trap may leave none), each searched as its own position."""
    codes = pm.codes[pm.guess_index[opener]]
    subtrees = {}
    for reply in np.unique(codes[codes != pm.game.solved]).tolist():
        left = np.flatnonzero(codes == reply)
        question = optimal.Question(moves=((opener, reply),), mode=mode, max_guesses=max_guesses)
        try:
            subtrees[reply] = proven(pm, question).tree if len(left) > 1 else pm.answers[left[0]]
        except Infeasible:
            continue
    return subtrees


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", default="nyt-2022-03", help="the era whose lists the book is for")
    parser.add_argument("--mode", default="normal")
    parser.add_argument("--max-guesses", type=int, default=6)
    args = parser.parse_args()
    lists = era(args.lists)
    pm = pattern_matrix(make_game("wordle"), lists.guesses, lists.answers)
    entries = {}
    for opener in OPENERS:
        start = time.perf_counter()
        question = optimal.Question(start=opener, mode=args.mode, max_guesses=args.max_guesses)
        try:
            tree = proven(pm, question).tree
            subtrees = {reply: sub for reply, sub in tree.branches.items() if reply != pm.game.solved}
            total = f"{tree_total(tree):,}"
        except Infeasible:  # some replies leave no strategy: each other one searched alone
            subtrees = feasible(pm, opener, args.mode, args.max_guesses)
            total = "no strategy within the max guesses"
        for reply, sub in subtrees.items():
            guess = sub.guess if isinstance(sub, Node) else sub
            entries[opener, reply] = Entry(guess, tree_total(sub), sub.size if isinstance(sub, Node) else 1)
        print(f"{opener} {total} ({len(subtrees)} replies booked, {time.perf_counter() - start:.1f} s)",
              flush=True)
    book = Book(book_key(pm, args.mode, args.max_guesses), args.lists, entries)
    path = DATA / f"book-wordle-{args.lists}-{args.mode}.txt"
    write_atomic(path, format_book(pm.game, book).encode())
    print(f"{path}: {len(entries):,} entries")


if __name__ == "__main__":
    main()
