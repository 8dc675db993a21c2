"""The opening books shipped with the package: every reply of every opener, each opener's total the
anchor's, each entry what a fresh exact search proves (a sample here), and never used on other
lists, modes or limits."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from gpusolve.core.eras import era
from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import make_game
from gpusolve.core.history import remaining_answers
from gpusolve.core.patterns import pattern_matrix
from gpusolve.play.book import OPENERS, format_book, opening_book, parse_book, shipped_books
from gpusolve.play.thinking import Thinker

ANCHOR = {
    ("nyt-2022-03", "normal"): (7897, 7907, 7905, 7903, 7902, 7992, 8020, 7950, 7978, 7975, 8346, 8381),
    ("nyt-2023-07", "normal"): (11235, 11309, 11283, 11275, 11292, 11373, 11423, 11345, 11351, 11402, 11815,
                                11822),
    ("nyt-2022-03", "hard"): (8099, 8133, None, None, 8121, None, None, 8186, 8191, None, 8567, 8597),
}
"""The openers' least totals (``OPENERS``' order) in the anchor's published tables (alex1770/wordle's
results_easy_nyt20220316, results_easy_nyt20230701 and results_hard_nyt20220316; None: its
1000000000, no strategy finds every answer within 6 guesses)."""

SAMPLE = 24
"""Entries of each book checked against a fresh exact search (about a second on one core)."""


@pytest.fixture(scope="module", params=sorted(ANCHOR), ids="-".join)
def booked(request):
    """Return (the pattern matrix of an era, a mode, its shipped book)."""
    lists, mode = request.param
    pm = pattern_matrix(make_game("wordle"), era(lists).guesses, era(lists).answers, "cpu")
    return pm, mode, opening_book(pm, mode)


def test_every_book_shipped_is_tested():
    names = sorted(name for name, _ in shipped_books().values())
    assert names == sorted(f"book-wordle-{lists}-{mode}.txt" for lists, mode in ANCHOR)


def test_the_book_covers_every_reply_of_every_opener(booked):
    """Every reply, but those that leave no strategy within 6 guesses (a fresh search says so)."""
    pm, mode, book = booked
    thinker = Thinker(pm, mode, float("inf"), book=False)
    for opener, total in zip(OPENERS, ANCHOR[book.lists, mode]):
        codes = pm.codes[pm.guess_index[opener]]
        replies, sizes = np.unique(codes[codes != pm.game.solved], return_counts=True)
        entries = {reply: e for (word, reply), e in book.entries.items() if word == opener}
        left_out = set(replies.tolist()) - set(entries)
        assert set(entries) <= set(replies.tolist()) and bool(left_out) == (total is None)
        for reply in left_out:
            assert thinker.judge([(opener, reply)]).why == "no strategy finds every answer within 6 guesses"
        for reply, size in zip(replies.tolist(), sizes.tolist()):
            entry = entries.get(reply)
            left = remaining_answers(pm, [(opener, reply)])
            assert entry is None or entry.answers == size == len(left)
            assert entry is None or (entry.guess in pm.guess_index and 2 * size - 1 <= entry.total)
            if size == 1:
                assert (entry.guess, entry.total) == (pm.answers[left[0]], 1)
        assert book.opener_total(opener, len(pm.answers)) == total


def test_the_book_matches_a_fresh_exact_search(booked):
    """A fixed sample of the entries against the exact search without the book: the same least
    total, reached by the shipped guess too (a stale book fails here)."""
    pm, mode, book = booked
    thinker = Thinker(pm, mode, float("inf"), book=False)
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


def test_no_book_for_other_lists_modes_limits_or_games(full_pm, small_pm, tmp_path):
    assert opening_book(small_pm, "normal") is None  # other guesses: another lists key
    assert opening_book(full_pm, "consistent") is None
    assert opening_book(full_pm, "normal", max_guesses=5) is None
    assert Thinker(full_pm, "hard").book.key[1] == "hard"
    assert Thinker(full_pm, "hard", book=False).book is None
    words = tmp_path / "six.txt"  # Wordle of 6 letters, whose replies the books' could not be
    words.write_text("BANANA\nCASTLE\nPLANET\nSTRIPE\n")
    six = pattern_matrix(make_game("wordle", length=6), str(words), str(words), "cpu")
    assert Thinker(six, "normal").book is None


def test_a_book_file_reads_back_as_written_and_a_bad_one_is_refused(full_pm):
    book = opening_book(full_pm, "normal")
    text = format_book(full_pm.game, book)
    assert parse_book(full_pm.game, text, "b.txt") == book
    shipped = Path(__file__).parent.parent / "data" / "book-wordle-nyt-2022-03-normal.txt"
    assert shipped.read_text() == text
    for bad in ("", "SALET ..... 221 COURD 609\n", text.replace("COURD 609", "COURD")):
        with pytest.raises(GpusolveError, match=r"^b\.txt: not an opening book"):
            parse_book(full_pm.game, bad, "b.txt")
