"""Small word-list files for tests of long runs: a slice of the real lists, written to a folder."""

from __future__ import annotations

from pathlib import Path
from string import ascii_uppercase

from gpusolve.core.words import read_words

FAMILY = str(Path(__file__).parent / "data" / "family.txt")
"""15 answers BATCH ... WIGHT (tests/data/family.txt), by absolute path: the tests run from any folder."""


def small_lists(folder: Path, n_answers: int = 12, n_extra: int = 12, step: int = 97,
                extra_step: int = 613) -> tuple[str, str]:
    """Write every ``step``-th answer (``n_answers`` of them) and a guess list holding them plus
    ``n_extra`` other allowed words; return the (guesses, answers) paths."""
    answers = read_words("answers", ascii_uppercase)[::step][:n_answers]
    others = read_words("allowed", ascii_uppercase)[::extra_step]
    extra = [w for w in others if w not in answers][:n_extra]
    a, g = folder / "answers.txt", folder / "guesses.txt"
    a.write_text("\n".join(answers) + "\n")
    g.write_text("\n".join(sorted(set(answers) | set(extra))) + "\n")
    return str(g), str(a)


ANAGRAMS = ["SLATE", "LEAST", "STEAL", "TRACE", "CRATE", "REACT"]


def anagram_lists(folder: Path, step: int = 7) -> tuple[str, str]:
    """Write every ``step``-th answer as the answers and those plus some anagram start words as the
    guesses (anagrams leave the same set after an all-grey reply: a subproblem two searches share)."""
    answers = read_words("answers", ascii_uppercase)[::step]
    a, g = folder / "answers.txt", folder / "guesses.txt"
    a.write_text("\n".join(answers) + "\n")
    g.write_text("\n".join(sorted(set(answers) | set(ANAGRAMS))) + "\n")
    return str(g), str(a)
