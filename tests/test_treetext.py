"""The published text layout of trees: written as alex1770/wordle writes it, read in both styles,
errors named by line; the proven SALET tree round-trips and verifies at 7,920."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gpusolve.cli import app
from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import make_game
from gpusolve.core.treefiles import load_tree, save_tree, tree_format
from gpusolve.core.treetext import from_text, to_text
from gpusolve.core.verify import verify_tree
from gpusolve.search.greedy import greedy_tree

runner = CliRunner()

# The greedy 'max' tree (consistent mode) of every 400th answer, as the published files lay it
# out: replies in B < G < Y order, first letter first; each reply numbered by its guess.
HOLLOW = """\
aback BBGBB1 roast GGGGG2
      BBGBG1 frank GGGGG2
      BBGYB1 clasp GGGGG2
      GGGGG1
      YBBBB1 mason GGGGG2
      YBBBY1 taken GGGGG2
"""
FULL = """\
aback BBGBB1 roast GGGGG2
aback BBGBG1 frank GGGGG2
aback BBGYB1 clasp GGGGG2
aback GGGGG1
aback YBBBB1 mason GGGGG2
aback YBBBY1 taken GGGGG2
"""


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def six(small_pm):
    return greedy_tree(small_pm, "max", "consistent", answers=small_pm.answers[::400])


def test_the_published_layout_exactly(six, small_pm):
    assert to_text(six, small_pm.game) == HOLLOW
    assert to_text(six, small_pm.game, "full") == FULL
    for text in (HOLLOW, FULL, HOLLOW.upper(), FULL.replace("\n", "\r\n")):
        tree, game = from_text(text)
        assert tree == six and game.name == "wordle" and game.length == 5


def test_a_deeper_tree_in_both_styles(small_pm):
    tree = greedy_tree(small_pm, "max", "consistent", answers=small_pm.answers[::100])
    text = to_text(tree, small_pm.game)
    assert text.splitlines()[:2] == ["roast BBBBB1 bully BGBBB2 cumin GGGGG3", " " * 19 + "GGGGG2"]
    assert from_text(text)[0] == tree == from_text(to_text(tree, small_pm.game, "full"))[0]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), size=st.integers(1, 40), metric=st.sampled_from(["max", "entropy"]),
       mode=st.sampled_from(["consistent", "normal"]), style=st.sampled_from(["hollow", "full"]))
def test_random_trees_round_trip_and_still_verify(small_pm, seed, size, metric, mode, style):
    import random

    answers = random.Random(seed).sample(small_pm.answers, size)
    tree = greedy_tree(small_pm, metric, mode, answers=answers)
    back, _ = from_text(to_text(tree, small_pm.game, style))
    assert back == tree
    assert verify_tree(back, small_pm, mode, answers=answers) == []


@pytest.mark.parametrize(("text", "message"), [
    ("aback BBGBB1 roast\n", "line 1: expected 'word REPLY1 word REPLY2 ...'"),
    ("aback BBGBB1 roast GGGGG2\n     BBGBG1 frank GGGGG2\n", "line 2: indented to column 6"),
    ("   aback GGGGG1\n", "line 1: indented to column 4"),
    ("aback BBGBB2 roast GGGGG2\n", "line 1: BBGBB2 follows guess 1, so it should end in 1"),
    ("aback BBGBB1 roast GGGGG2\n      BBGBG1 roast GGGGG2\n",
     "line 2: ABACK gets BBGBB from ROAST, not BBGBG"),
    ("aback BBGBB1 roast GGGGG2\nslate BBGBB1 frank GGGGG2\n",
     "line 2: guesses SLATE after the start, but line 1 guesses ABACK"),
    ("aback BBGBB1 roast GGGGG2\naback BBGBB1 toast GGGGG2\n",
     "line 2: guesses TOAST after ABACK BBGBB, but line 1 guesses ROAST"),
    ("aback BBGBB1 roast BBBBB2\n", "line 1: the last reply must be GGGGG"),
    ("aback GGGGG1 aback GGGGG2\n", "line 1: goes on after the reply GGGGG"),
    ("aback BBGBB1 roast GGGGG2\n\naback BBGBB1 roast GGGGG2\n",
     "line 3: repeats the answer ROAST of line 1"),
    ("aback\tGGGGG1\n", "line 1: tabs are not allowed"),
    ("aback BBGBB1 roasts BBGBBB2\n", "line 1: 'roasts BBGBBB2': words and replies of this tree have 5"),
    ("\n\n", "holds no tree"),
])
def test_malformed_text_is_one_line_naming_the_line(tmp_path, text, message):
    with pytest.raises(GpusolveError, match="^tree file " + re.escape(message)):
        from_text(text)
    path = tmp_path / "bad.tree"
    path.write_text(text)
    for command in (["verify", path], ["play", "--tree", path, "--all"], ["tree-view", path]):
        code, _, stderr = run(*command)
        assert code == 2, stderr
        assert stderr.startswith(f"error: {path} ") and stderr.count("\n") == 1 and message in stderr


def test_formats_by_name_and_what_text_cannot_hold(six, small_pm):
    wordle, jotto = small_pm.game, make_game("jotto")
    assert [tree_format(p) for p in ("t.json", "t.tree", "t.TXT", "t.html", "t.htm", "t")] == [
        "json", "text", "text", "html", "html", "json"]
    assert tree_format("t.json", "text-full", wordle) == "text-full"
    with pytest.raises(GpusolveError, match="unknown tree format 'yaml'"):
        tree_format("t.json", "yaml")
    with pytest.raises(GpusolveError, match="Wordle's"):
        tree_format("t.tree", None, jotto)
    with pytest.raises(GpusolveError, match="after 1 moves"):
        tree_format("t.tree", None, wordle, [("SALET", 0)])
    with pytest.raises(GpusolveError, match="Wordle's"):
        to_text("ROAST", jotto)


def test_cli_writes_and_reads_every_format(tmp_path, six):
    base = ["tree", "--metric", "max", "--mode", "consistent", "--guesses", "answers"]
    code, _, _ = run(*base, "--out", tmp_path / "t.json")
    assert code == 0
    tree = load_tree(tmp_path / "t.json")[0]
    for name, fmt in (("t.tree", None), ("t.txt", "text-full"), ("t.html", None), ("plain", "text")):
        code, stdout, _ = run(*base, "--out", tmp_path / name, *(["--format", fmt] if fmt else []))
        assert code == 0 and f"tree written to {tmp_path / name}" in stdout
        assert load_tree(tmp_path / name)[0] == tree
    assert (tmp_path / "t.tree").read_text().startswith("arise ")
    assert (tmp_path / "t.txt").read_text().splitlines()[1].startswith("arise ")
    code, _, stderr = run("tree", "--game", "jotto", "--out", tmp_path / "j.tree")
    assert code == 2 and "write jotto trees as JSON or HTML" in stderr
    code, stdout, _ = run("tree-view", tmp_path / "t.json")
    assert code == 0 and stdout == (tmp_path / "t.tree").read_text()
    code, stdout, _ = run("tree-view", tmp_path / "t.tree", "--format", "text-full")
    assert code == 0 and stdout == (tmp_path / "t.txt").read_text()


@pytest.mark.slow
def test_salet_round_trips_and_verifies_at_7920(tmp_path, salet_2315):
    pm, result = salet_2315
    path = tmp_path / "salet.json"
    save_tree(path, result.tree, pm.game, mode="normal", guesses="allowed", answers="answers-2315",
              max_guesses=6)
    code, _, _ = run("tree-view", path, "-o", tmp_path / "salet.tree")
    assert code == 0
    lines = (tmp_path / "salet.tree").read_text().splitlines()
    assert len(lines) == 2315 and lines[0].startswith("salet BBBBB1 ") and lines[0].endswith("GGGGG4")
    code, _, _ = run("tree-view", tmp_path / "salet.tree", "-o", tmp_path / "back.json", "--mode", "normal",
                     "--guesses", "allowed", "--answers", "answers-2315")
    assert code == 0
    back, game, info = load_tree(tmp_path / "back.json")
    assert back == result.tree and game == pm.game
    assert info == {"mode": "normal", "guesses": "allowed", "answers": "answers-2315"}
    code, stdout, _ = run("verify", tmp_path / "salet.tree", "--answers", "answers-2315")
    assert code == 0 and "total: 7,920 guesses over 2,315 answers (mean 3.4212)" in stdout
    code, stdout, _ = run("verify", tmp_path / "salet.tree", "--answers", "answers-2315",
                          "--max-guesses", "5", "--json")
    assert code == 0 and json.loads(stdout)["summary"]["total"] == 7920
    code, _, stderr = run("verify", tmp_path / "salet.tree")  # the 2,309 list: 6 answers too many
    assert code == 1 and "node SALET says size 2315 but 2309 answers remain" in stderr
