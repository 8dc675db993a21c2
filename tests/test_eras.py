"""The NYT game's eras and the bundled lists: counts, checksums, what each edit changed."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from string import ascii_uppercase

import pytest

from gpusolve.core.eras import DEFAULT, ERAS, LATEST, catalogue, compare, era
from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import make_game
from gpusolve.core.words import BUNDLED, bundled_bytes, read_words

README = Path(__file__).parent.parent / "data" / "README.md"
SIZES = {"answers": 2309, "answers-2315": 2315, "answers-3160": 3160, "answers-3158": 3158,
         "allowed": 12972, "allowed-12947": 12947, "allowed-12974": 12974, "allowed-14855": 14855,
         "sgb": 5756}


def words(name):
    return set(read_words(name, ascii_uppercase))


def test_bundled_sizes():
    assert {name: len(read_words(name, ascii_uppercase)) for name in BUNDLED} == SIZES


def test_readme_states_every_files_sha256():
    text = README.read_text()
    for name, b in BUNDLED.items():
        assert f"{hashlib.sha256(bundled_bytes(name)).hexdigest()}  {b.file}" in text


@pytest.mark.parametrize("name", ERAS)
def test_every_era_is_a_valid_game(name):
    e = ERAS[name]
    guesses, answers = make_game().word_lists(e.guesses, e.answers)  # refuses answers not in the guesses
    assert len(guesses) == SIZES[e.guesses] and len(answers) == SIZES[e.answers]


def test_the_defaults_are_an_era():
    wordle = make_game()
    assert (ERAS[DEFAULT].guesses, ERAS[DEFAULT].answers) == (wordle.default_guesses, wordle.default_answers)
    assert era("latest") == ERAS[LATEST] == ERAS[list(ERAS)[-1]]


def test_eras_are_in_date_order():
    dates = [e.since for e in ERAS.values()]
    assert dates == sorted(dates) and all(re.fullmatch(r"\d{4}-\d{2}(-\d{2})?", d) for d in dates)


def test_unknown_era():
    with pytest.raises(GpusolveError, match=r"unknown word lists 'nyt-2024'.*original.*latest"):
        era("nyt-2024")


def test_what_each_edit_changed():
    removed = {"AGORA", "FIBRE", "LYNCH", "PUPAL", "SLAVE", "WENCH"}
    assert compare("original", "nyt-2022-02")["answers"] == {"added": [], "removed": sorted(removed)}
    cut = compare("original", "nyt-2022-02")["guesses"]
    assert cut["added"] == [] and len(cut["removed"]) == 25 and removed < set(cut["removed"])
    assert compare("nyt-2022-02", "nyt-2022-03")["guesses"] == {"added": cut["removed"], "removed": []}
    assert compare("nyt-2022-03", "nyt-2022-04") == {"guesses": {"added": ["KORAN", "QURAN"], "removed": []},
                                                    "answers": {"added": [], "removed": []}}
    grown = compare("nyt-2022-04", "nyt-2022-08")["guesses"]
    assert (len(grown["added"]), grown["removed"]) == (1881, [])
    assert compare("nyt-2023-04", "latest")["answers"] == {"added": ["WHIZZ"],
                                                         "removed": ["FANNY", "LYCRA", "YOWZA"]}
    editor = compare("nyt-2022-08", "nyt-2023-04")
    assert editor["guesses"] == {"added": [], "removed": []}
    assert len(editor["answers"]["added"]) == 858
    assert editor["answers"]["removed"] == ["GIPSY", "GYPSY", "MAMMY", "PANSY", "SEMEN", "WELCH", "WELSH"]


def test_compare_files_and_refuses_a_list_with_an_era(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("koran\nquran\nslate\n")
    assert compare("allowed-12974", str(path))["words"]["added"] == []
    assert len(compare(str(path), "allowed-12974")["words"]["added"]) == 12971
    with pytest.raises(GpusolveError, match="compare two word lists or two eras"):
        compare("allowed", "latest")


def test_catalogue():
    info = catalogue()
    assert [row["name"] for row in info["lists"]] == list(BUNDLED)
    assert {row["name"]: row["words"] for row in info["lists"]} == SIZES
    rows = {row["name"]: row for row in info["lists"]}
    assert rows["answers"]["default_for"] == ["wordle answers"]
    assert rows["sgb"]["default_for"] == ["jotto guesses", "jotto answers"]
    assert all(len(row["sha256"]) == 64 for row in info["lists"])
    eras = {row["name"]: row for row in info["eras"]}
    assert list(eras) == list(ERAS)
    newest = eras[LATEST]
    assert (newest["n_guesses"], newest["n_answers"], newest["latest"]) == (14855, 3158, True)
    assert [name for name, row in eras.items() if row["default"]] == [DEFAULT]
