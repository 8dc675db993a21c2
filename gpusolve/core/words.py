"""Word lists: the bundled ones by name, any other by path, validated with one-line errors."""

from __future__ import annotations

import os
import re
import stat
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .errors import GpusolveError

Word = str
"""A word (or Mastermind code) in its display form: uppercase letters (or digits)."""


@dataclass(frozen=True)
class Bundled:
    """A word list shipped in ``data/``: its file, when the NYT game used it, and what it is."""

    file: str
    used: str
    what: str


BUNDLED = {
    "answers": Bundled("answers2309.txt", "2022-02-15 to 2023-03",
                       "NYT answers: the original 2,315 less AGORA FIBRE LYNCH PUPAL SLAVE WENCH"),
    "answers-2315": Bundled("answers2315.txt", "to 2022-02-14", "the original game's answers"),
    "answers-3160": Bundled("answers3160.txt", "2023-04", "possible answers as the NYT's WordleBot "
                            "listed them once an editor chose the answers"),
    "answers-3158": Bundled("answers3158.txt", "2023-07", "WordleBot's possible answers, July 2023 "
                            "(FANNY LYCRA YOWZA dropped, WHIZZ added)"),
    "allowed": Bundled("guesses12972.txt", "to 2022-02-14; 2022-03-16 to 2022-04-12",
                       "every accepted guess of the original game (answers included)"),
    "allowed-12947": Bundled("guesses12947.txt", "2022-02-15 to 2022-03-15",
                             "accepted guesses after the NYT's first edit (25 words removed)"),
    "allowed-12974": Bundled("guesses12974.txt", "2022-04-13 to 2022-08-29",
                             "accepted guesses with KORAN and QURAN added"),
    "allowed-14855": Bundled("guesses14855.txt", "from 2022-08-30",
                             "accepted guesses with 1,881 words added (current in 2023)"),
    "sgb": Bundled("sgb-words.txt", "", "five-letter words of Knuth's Stanford GraphBase (Jotto's list)"),
}
"""Names usable on the command line for the word lists shipped in ``data/`` (see data/README.md)."""


DATA = "data:"
"""Prefix of a list named by its file in ``data/`` (a game variant's own list, ``VARIANTS``)."""


def bundled_bytes(name: str) -> bytes:
    """Return the file of a bundled list as shipped."""
    return resources.files("gpusolve.data").joinpath(BUNDLED[name].file).read_bytes()


def read_words(spec: str, alphabet: str) -> tuple[Word, ...]:
    """Return the words of a bundled list name or a file path, uppercased and validated."""
    if spec in BUNDLED:
        text = bundled_bytes(spec).decode()
        source = spec
    elif spec.startswith(DATA) and resources.files("gpusolve.data").joinpath(spec[len(DATA):]).is_file():
        text = resources.files("gpusolve.data").joinpath(spec[len(DATA):]).read_text()
        source = spec
    else:
        path = Path(spec)
        if not path.is_file():
            names = ", ".join(BUNDLED)
            raise GpusolveError(f"word list {spec!r} is neither a bundled list ({names}) nor a file")
        try:
            text = path.read_text(encoding="utf-8-sig")  # a byte-order mark is no word
        except UnicodeDecodeError:
            raise GpusolveError(f"word list {spec} is not a text file (not UTF-8)") from None
        except OSError as e:
            raise GpusolveError(f"cannot read word list {spec}: {e.strerror or e}") from None
        source = str(path)
    return parse_words(text, source, alphabet)


def refuse_device(path: str | Path, what: str) -> None:
    """Raise a one-line error if ``path`` is a device (``/dev/zero`` would be read for ever): a
    file or a pipe (``/dev/stdin`` fed by one) is read, a device is not."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # reading it says what is wrong
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        raise GpusolveError(f"{what} {path} is a device, not a file")


def parse_words(text: str, source: str, alphabet: str) -> tuple[Word, ...]:
    """Return the validated words of ``text``, one per line (blank lines ignored)."""
    words = []
    valid = re.compile(f"[{re.escape(alphabet)}]+").fullmatch
    for number, line in enumerate(text.splitlines(), 1):
        word = line.strip().upper()
        if not word:
            continue
        if not valid(word):
            raise GpusolveError(
                f"{source}, line {number}: {line.strip()!r} is not a single word of "
                f"{describe_alphabet(alphabet)}"
            )
        words.append(word)
    if not words:
        raise GpusolveError(f"word list {source} is empty")
    lengths = Counter(map(len, words))
    if len(lengths) > 1:
        common = lengths.most_common(1)[0][0]
        odd = next(w for w in words if len(w) != common)
        raise GpusolveError(
            f"word list {source} mixes word lengths {sorted(lengths)}: e.g. {odd} "
            f"(most words have {common} letters)"
        )
    duplicates = [w for w, n in Counter(words).items() if n > 1]
    if duplicates:
        raise GpusolveError(f"word list {source} repeats {len(duplicates)} words: {shorten(duplicates)}")
    return tuple(words)


def describe_alphabet(alphabet: str) -> str:
    """Return how an alphabet is described in messages."""
    return "letters A-Z" if alphabet.isalpha() else f"symbols {alphabet}"


def shorten(words: list[str], most: int = 5) -> str:
    """Return the first few words joined, with a count of the rest."""
    more = f" and {len(words) - most} more" if len(words) > most else ""
    return " ".join(words[:most]) + more


def counted(n: int, noun: str) -> str:
    """Return a count with its noun, singular or plural: '1 answer', '2,309 answers', '2 guesses'."""
    if n == 1:
        return f"1 {noun}"
    return f"{n:,} {noun}{'es' if noun.endswith(('s', 'sh', 'ch', 'x')) else 's'}"
