"""Write an opening book (``gpusolve.play.book``): data/book-wordle-LISTS-MODE.txt, the proven best
next guess and its total after each of the book's openers and every reply.

Usage: python scripts/make_book.py [--lists nyt-2022-03] [--mode normal] [--max-guesses 6]

Each opener's optimal tree (``optimal-tree --start OPENER``) is searched to the end; each subtree
of a proven optimal tree is optimal at its position (the total is the sum of the subtrees'), so
its first guess and total are the entry. ``tests/test_book.py`` checks the shipped books against
a fresh exact search; re-run this whenever the lists of an era change.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from gpusolve.core.cache import write_atomic
from gpusolve.core.eras import era
from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix
from gpusolve.core.trees import Node
from gpusolve.play.book import OPENERS, Book, Entry, book_key, format_book
from gpusolve.play.thinking import tree_total
from gpusolve.search import optimal

DATA = Path(__file__).resolve().parent.parent / "data"


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
        result = optimal.solve(pm, question)
        if not result.proven or not isinstance(result.tree, Node):
            raise SystemExit(f"{opener}: not proven")
        for reply, sub in result.tree.branches.items():
            if reply != pm.game.solved:
                guess = sub.guess if isinstance(sub, Node) else sub
                size = sub.size if isinstance(sub, Node) else 1
                entries[opener, reply] = Entry(guess, tree_total(sub), size)
        print(f"{opener} {result.total:,} ({len(result.tree.branches)} replies, "
              f"{time.perf_counter() - start:.1f} s)", flush=True)
    book = Book(book_key(pm, args.mode, args.max_guesses), args.lists, entries)
    path = DATA / f"book-wordle-{args.lists}-{args.mode}.txt"
    write_atomic(path, format_book(pm.game, book).encode())
    print(f"{path}: {len(entries):,} entries")


if __name__ == "__main__":
    main()
