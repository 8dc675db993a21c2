"""Word lists: bundled names, counts, and one-line errors for every kind of bad file."""

from __future__ import annotations

from string import ascii_uppercase

import pytest

from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import make_game
from gpusolve.core.words import read_words


@pytest.mark.parametrize(("name", "count"), [
    ("answers", 2309), ("answers-2315", 2315), ("allowed", 12972),
    ("sgb", 5756),
])  # fmt: skip
def test_bundled_lists(name, count):
    words = read_words(name, ascii_uppercase)
    assert len(words) == count
    assert all(w.isupper() and len(w) == 5 for w in words)


def test_answers_are_allowed_guesses():
    allowed = set(read_words("allowed", ascii_uppercase))
    assert set(read_words("answers-2315", ascii_uppercase)) <= allowed


def test_dated_list_if_given_is_the_original_in_play_order(dated_answers):
    dated = read_words(str(dated_answers), ascii_uppercase)
    assert sorted(dated) == list(read_words("answers-2315", ascii_uppercase))
    assert dated[:3] == ("CIGAR", "REBUT", "SISSY") and dated[-1] == "SHAVE"


def write(tmp_path, text):
    path = tmp_path / "words.txt"
    path.write_text(text)
    return str(path)


def test_file_lists_are_case_insensitive(tmp_path):
    assert read_words(write(tmp_path, "crane\nSlate\n\n"), ascii_uppercase) == ("CRANE", "SLATE")


@pytest.mark.parametrize(("text", "message"), [
    ("", "is empty"),
    ("\n\n", "is empty"),
    ("crane\nsl ate\n", "line 2: 'sl ate' is not a single word"),
    ("crane\nsl4te\n", "line 2"),
    ("crane\nslates\n", "mixes word lengths"),
    ("crane\nslate\ncrane\nslate\n", "repeats 2 words: CRANE SLATE"),
])  # fmt: skip
def test_bad_files(tmp_path, text, message):
    with pytest.raises(GpusolveError, match=message):
        read_words(write(tmp_path, text), ascii_uppercase)


def test_missing_file():
    with pytest.raises(GpusolveError, match="neither a bundled list"):
        read_words("/no/such/file.txt", ascii_uppercase)


def test_answers_must_be_guesses(tmp_path):
    guesses = write(tmp_path, "crane\nslate\n")
    answers = tmp_path / "answers.txt"
    answers.write_text("crane\nshout\n")
    with pytest.raises(GpusolveError, match="1 answers are not in the guess list: SHOUT"):
        make_game().word_lists(guesses, str(answers))


def test_wrong_word_length(tmp_path):
    with pytest.raises(GpusolveError, match="4-letter words"):
        make_game().word_lists(write(tmp_path, "cran\nslat\n"), None)
