"""The opening book shipped with the package: every reply of every opener, each entry what a fresh
exact search proves (a sample here), and never used on other lists, modes or limits."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from gpusolve.core.errors import GpusolveError
from gpusolve.core.history import remaining_answers
from gpusolve.play.book import OPENERS, format_book, opening_book, parse_book
from gpusolve.play.openers import proven_opener
from gpusolve.play.thinking import Thinker

SAMPLE = 24
"""Entries checked against a fresh exact search (a few seconds in all on one core)."""


def test_the_book_covers_every_reply_of_every_opener(full_pm):
    book = opening_book(full_pm, "normal")
    assert book is not None and book.lists == "nyt-2022-03"
    for opener in OPENERS:
        codes = full_pm.codes[full_pm.guess_index[opener]]
        replies, sizes = np.unique(codes[codes != full_pm.game.solved], return_counts=True)
        booked = {reply: e for (word, reply), e in book.entries.items() if word == opener}
        assert sorted(booked) == replies.tolist()
        for reply, size in zip(replies.tolist(), sizes.tolist()):
            entry = booked[reply]
            left = remaining_answers(full_pm, [(opener, reply)])
            assert entry.answers == size == len(left)
            assert entry.guess in full_pm.guess_index and 2 * size - 1 <= entry.total
            if size == 1:
                assert (entry.guess, entry.total) == (full_pm.answers[left[0]], 1)
    # the whole proof's value of its opener, which the book's entries sum to
    assert book.opener_total("SALET", 2309) == proven_opener(full_pm, "normal").total == 7897


def test_the_book_matches_a_fresh_exact_search(full_pm):
    """A fixed sample of the entries against the exact search without the book: the same least
    total, reached by the shipped guess too (a stale book fails here)."""
    book = opening_book(full_pm, "normal")
    thinker = Thinker(full_pm, "normal", float("inf"), book=False)
    positions = sorted(m for m, e in book.entries.items() if 3 <= e.answers < 128)
    for move in random.Random(37).sample(positions, SAMPLE):
        entry = book.entries[move]
        best = thinker.judge([move])
        assert (best.total, best.answers) == (entry.total, entry.answers), move
        assert thinker.judge([move], entry.guess).total == entry.total, move


def test_the_thinker_answers_from_the_book_at_once(full_pm):
    """No search could prove these within a millisecond: PERST after AUDIO Y.... (434 answers),
    CRANE's least total over all answers; another guess there is searched, and greedy in time."""
    thinker = Thinker(full_pm, "normal", 0.001)
    y = full_pm.game.parse_reply("Y....")
    verdict = thinker.judge([("AUDIO", y)])
    assert (verdict.guess, verdict.total, verdict.answers) == ("PERST", 1304, 434)
    assert thinker.judge([("AUDIO", y)], "PERST").total == 1304
    assert not thinker.judge([("AUDIO", y)], "CRANE").exact
    assert thinker.judge([], "CRANE").total == 7907
    assert not Thinker(full_pm, "normal", 0.001, book=False).judge([("AUDIO", y)]).exact


def test_no_book_for_other_lists_modes_or_limits(full_pm, small_pm):
    assert opening_book(small_pm, "normal") is None  # other guesses: another lists key
    assert opening_book(full_pm, "hard") is None
    assert opening_book(full_pm, "normal", max_guesses=5) is None
    assert Thinker(full_pm, "hard").book is None


def test_a_book_file_reads_back_as_written_and_a_bad_one_is_refused(full_pm):
    book = opening_book(full_pm, "normal")
    text = format_book(full_pm.game, book)
    assert parse_book(full_pm.game, text, "b.txt") == book
    shipped = Path(__file__).parent.parent / "data" / "book-wordle-nyt-2022-03-normal.txt"
    assert shipped.read_text() == text
    for bad in ("", "SALET ..... 221 COURD 609\n", text.replace("COURD 609", "COURD")):
        with pytest.raises(GpusolveError, match=r"^b\.txt: not an opening book"):
            parse_book(full_pm.game, bad, "b.txt")
