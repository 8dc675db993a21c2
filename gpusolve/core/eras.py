"""The NYT game's word lists over time: named eras (a guess list and an answer list each), the
catalogue of bundled lists, and the words two lists or eras differ by."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from string import ascii_uppercase

from .errors import GpusolveError
from .words import BUNDLED, bundled_bytes, read_words


@dataclass(frozen=True)
class Era:
    """The lists the NYT game played with from a date on: bundled list names and what changed."""

    guesses: str
    answers: str
    since: str
    what: str


ERAS = {
    "original": Era("allowed", "answers-2315", "2021-10",
                    "Josh Wardle's game as the NYT bought it (the published optimal trees use it)"),
    "nyt-2022-02": Era("allowed-12947", "answers", "2022-02-15",
                       "the NYT's first edit: 6 answers and 25 guesses removed"),
    "nyt-2022-03": Era("allowed", "answers", "2022-03-16",
                       "the 25 guesses restored: the defaults, the project's benchmark"),
    "nyt-2022-04": Era("allowed-12974", "answers", "2022-04-13", "KORAN and QURAN accepted"),
    "nyt-2022-08": Era("allowed-14855", "answers", "2022-08-30", "1,881 more guesses accepted"),
    "nyt-2023-04": Era("allowed-14855", "answers-3160", "2023-04",
                       "an editor chooses the answers (from puzzle 646, 2023-03-27): "
                       "WordleBot's 3,160 possible answers"),
    "nyt-2023-07": Era("allowed-14855", "answers-3158", "2023-07",
                       "WordleBot's possible answers as of July 2023: the newest, today's game"),
}
"""The eras by name, oldest first; ``--lists NAME`` sets both lists to an era's."""

LATEST = "nyt-2023-07"
"""The newest era, also named ``latest``."""

DEFAULT = "nyt-2022-03"
"""The era whose lists are the defaults (2,309 answers, 12,972 guesses)."""


def era(name: str) -> Era:
    """Return the era of a name (``latest``: the newest), or fail naming the eras."""
    found = ERAS.get(LATEST if name == "latest" else name)
    if found is None:
        raise GpusolveError(f"unknown word lists {name!r}: choose one of {', '.join(ERAS)} or latest "
                            "(see 'gpusolve lists')")
    return found


def catalogue() -> dict:
    """Return every bundled list (size, use, sha256) and every era (lists, sizes, date)."""
    from .games import make_game

    sizes = {name: len(read_words(name, ascii_uppercase)) for name in BUNDLED}
    defaults: dict[str, list[str]] = {name: [] for name in BUNDLED}
    for game in ("wordle", "jotto"):
        spec = make_game(game)
        defaults[spec.default_guesses].append(f"{game} guesses")
        defaults[spec.default_answers].append(f"{game} answers")
    lists = [{"name": name, "file": b.file, "words": sizes[name], "used": b.used, "what": b.what,
              "default_for": defaults[name],
              "sha256": hashlib.sha256(bundled_bytes(name)).hexdigest()} for name, b in BUNDLED.items()]
    eras = [{"name": name, "since": e.since, "guesses": e.guesses, "answers": e.answers,
             "n_guesses": sizes[e.guesses], "n_answers": sizes[e.answers], "what": e.what,
             "default": name == DEFAULT, "latest": name == LATEST} for name, e in ERAS.items()]
    return {"lists": lists, "eras": eras}


def compare(old: str, new: str) -> dict[str, dict[str, list[str]]]:
    """Return the words added and removed from ``old`` to ``new``: two lists (bundled or files),
    by part ``words``, or two eras, by part ``guesses`` and ``answers``."""
    is_era = [name in ERAS or name == "latest" for name in (old, new)]
    if is_era[0] != is_era[1]:
        raise GpusolveError(f"compare two word lists or two eras, not {old!r} with {new!r}")
    if is_era[0]:
        a, b = era(old), era(new)
        pairs = {"guesses": (a.guesses, b.guesses), "answers": (a.answers, b.answers)}
    else:
        pairs = {"words": (old, new)}
    return {part: _difference(*names) for part, names in pairs.items()}


def _difference(old: str, new: str) -> dict[str, list[str]]:
    """Return the words of list ``new`` not in ``old`` (added) and of ``old`` not in ``new`` (removed)."""
    a, b = (set(read_words(name, ascii_uppercase)) for name in (old, new))
    return {"added": sorted(b - a), "removed": sorted(a - b)}
