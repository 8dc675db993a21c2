"""The opening book: after each of the popular openers (``OPENERS``) and any reply, the proven best
next guess and the guesses it needs, summed over the answers left; shipped with the package
(``data/book-*.txt``, written by ``scripts/make_book.py`` from the optimal tree of each opener).
A reply that leaves no strategy within the max guesses (a hard-mode trap) has no entry.

A book is keyed by the game, mode, max guesses and the lists' content (``lists_key``), so a list
changed by a single word, another mode or another limit never gets an answer proven on another;
``tests/test_book.py`` checks the shipped entries against a fresh exact search.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..core.errors import GpusolveError
from ..core.games import Game
from ..core.patterns import PatternMatrix
from ..core.words import Word
from .openers import lists_key

OPENERS = ("SALET", "CRANE", "SLATE", "TRACE", "CRATE", "RAISE", "ARISE", "STARE", "ROATE", "SOARE",
           "ADIEU", "AUDIO")
"""The openers a book covers: the best proven, and the usual ones players start with."""

HEADER = "# gpusolve opening book: opener reply answers best total"


@dataclass(frozen=True)
class Entry:
    """The proven best guess at a position after an opener and its reply, and its total (the
    guesses needed, summed over the position's answers, this guess included)."""

    guess: Word
    total: int
    answers: int


@dataclass(frozen=True)
class Book:
    """The entries of one game, mode, max guesses and lists, by (opener, reply code)."""

    key: tuple[str, str, int, str]
    """(game, mode, max guesses, lists_key)."""
    lists: str
    """The era whose lists it was proven on (``gpusolve lists``), as the book's file names it."""
    entries: dict[tuple[Word, int], Entry]

    def opener_total(self, opener: Word, answers: int) -> int | None:
        """Return the least total after ``opener`` over all ``answers`` (None: not in the book, or
        some reply leaves no strategy within the max guesses: a hard-mode trap, left out)."""
        booked = [e for (word, _), e in self.entries.items() if word == opener]
        # all answers but the opener's own; a reply left out leaves two or more
        whole = sum(e.answers for e in booked) >= answers - 1
        return answers + sum(e.total for e in booked) if booked and whole else None


def book_key(pm: PatternMatrix, mode: str, max_guesses: int) -> tuple[str, str, int, str]:
    """Return the key of the book for this game, lists, mode and max guesses."""
    return pm.game.name, mode, max_guesses, lists_key(pm.guesses, pm.answers)


def format_book(game: Game, book: Book) -> str:
    """Return the text of a book file: a header, the key, then a line per entry."""
    name, mode, max_guesses, digest = book.key
    lines = [HEADER, f"{name} {mode} {max_guesses} {book.lists} {digest}"]
    for (opener, reply), e in sorted(book.entries.items()):
        lines.append(f"{opener} {game.format_reply(reply)} {e.answers} {e.guess} {e.total}")
    return "\n".join(lines) + "\n"


def parse_key(line: str) -> tuple[tuple[str, str, int, str], str]:
    """Return (the key, the era) a book file's second line names; raise ValueError if malformed."""
    game, mode, max_guesses, lists, digest = line.split()
    return (game, mode, int(max_guesses), digest), lists


def parse_book(game: Game, text: str, name: str) -> Book:
    """Return the book a file's text holds, or raise a one-line error naming the file."""
    lines = text.splitlines()
    try:
        if lines[0] != HEADER:
            raise ValueError("no header")
        key, lists = parse_key(lines[1])
        entries = {}
        for line in lines[2:]:
            opener, reply, answers, guess, total = line.split()
            entries[opener, game.parse_reply(reply)] = Entry(guess, int(total), int(answers))
        return Book(key, lists, entries)
    except (ValueError, IndexError, GpusolveError) as e:
        raise GpusolveError(f"{name}: not an opening book ({e})") from None


@cache
def shipped_books() -> dict[tuple[str, str, int, str], tuple[str, str]]:
    """Return the file name and text of each book shipped (``data/book-*.txt``), by its key."""
    books = {}
    for f in resources.files("gpusolve.data").iterdir():
        if f.name.startswith("book-") and f.name.endswith(".txt"):
            text = f.read_text()
            books[parse_key(text.split("\n", 2)[1])[0]] = f.name, text
    return books


def opening_book(pm: PatternMatrix, mode: str, max_guesses: int = 6) -> Book | None:
    """Return the shipped book of this game, lists, mode and max guesses, or None where none is
    (only that book is read: another game's replies may not parse)."""
    shipped = shipped_books().get(book_key(pm, mode, max_guesses))
    return None if shipped is None else parse_book(pm.game, shipped[1], shipped[0])
