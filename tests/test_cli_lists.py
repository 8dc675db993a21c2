"""`--lists ERA` on every command that takes word lists, and the `gpusolve lists` command."""

from __future__ import annotations

import functools
import json

import pytest
import typer
from typer.testing import CliRunner

import gpusolve.core.patterns
import gpusolve.runs.units
from gpusolve.cli import app
from gpusolve.core.eras import ERAS, LATEST, catalogue

runner = CliRunner()
SIZES = {row["name"]: row["words"] for row in catalogue()["lists"]}
STATE = "SALET:.G...,CORNY:....G"
LEFT = {"answers": 9, "answers-2315": 9, "answers-3160": 13, "answers-3158": 13}
"""Answers left after STATE in each answer list (HAPPY's game)."""


@pytest.fixture(scope="module", autouse=True)
def _matrices_read_once():
    """Load each era's pattern matrix from the disk cache once for this module, not per command."""
    remembered = functools.lru_cache(maxsize=None)(gpusolve.core.patterns.pattern_matrix)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gpusolve.core.patterns, "pattern_matrix", remembered)
        patch.setattr(gpusolve.runs.units, "pattern_matrix", remembered)
        yield


def run(*args):
    return runner.invoke(app, list(args))


def run_json(*args):
    result = run(*args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


CASES = {
    "patterns": (["patterns"], lambda out, e: (out["guesses"], out["answers"])
                 == (SIZES[e.guesses], SIZES[e.answers])),
    "rank": (["rank", "--top", "3"], lambda out, e: len(out) == 3),
    "rank --by tree": (["rank", "--by", "tree", "--task", "partition", "--mode", "consistent", "--top", "3",
                        "--workers", "0", "--quiet"], lambda out, e: out["candidates"] == SIZES[e.answers]
                       and out["params"]["n_answers"] == SIZES[e.answers]),
    "tree": (["tree", "--start", "SALET"], lambda out, e: sum(out["histogram"].values()) == SIZES[e.answers]),
    "optimal-tree": (["optimal-tree", "--state", STATE, "--quiet"],
                     lambda out, e: out["proven"] and sum(out["histogram"].values()) == LEFT[e.answers]),
    "optimal-tree --rank": (["optimal-tree", "--rank", "--words", "SALET", "--cutoff", "10", "--workers",
                             "0", "--quiet"], lambda out, e: out["params"]["n_guesses"] == SIZES[e.guesses]),
    "worst-case": (["optimal-tree", "--objective", "worst-case", "--state", STATE, "--quiet"],
                   lambda out, e: out["proven"] and out["answers"] == LEFT[e.answers]),
    "absurdle": (["absurdle", "--play", "SALET,CORNY"],
                 lambda out, e: [m["guess"] for m in out] == ["SALET", "CORNY"]),
    "preset": (["preset", "SALET", "CORNY"], lambda out, e: out["answers"] == SIZES[e.answers]),
    "solve": (["solve", "--state", STATE], lambda out, e: out["remaining"] == LEFT[e.answers]),
    "analyze": (["analyze", "--state", STATE, "--show", "3", "--think", "0.2"],
                lambda out, e: out["moves"][0]["answers_before"] == SIZES[e.answers]
                and out["moves"][1]["answers_after"] == LEFT[e.answers]),
    "play": (["play", "--random", "--target", "HAPPY"], lambda out, e: out["turns"][-1]["guess"] == "HAPPY"),
}
"""A quick invocation of each command (with --json) and a check that it ran on the era's lists."""

ONCE = {"verify", "tree-view", "evil", "antiwordle", "policies"}
"""Commands run on the latest era only (test_other_commands_on_the_latest_lists)."""
UNRUN = {"worst-case", "play-human", "prior-tree", "rank-prior"}
"""Hidden commands reached through others (optimal-tree --objective, play --human, --prior)."""


@pytest.mark.parametrize("name", ERAS)
@pytest.mark.parametrize("case", CASES)
def test_every_command_accepts_every_era(case, name):
    args, check = CASES[case]
    out = run_json(*args, "--json", "--lists", name)
    assert check(out, ERAS[name]), out


def test_every_command_with_word_lists_takes_lists_and_is_tested():
    group = typer.main.get_command(app)
    with_lists = set()
    for command_name, command in group.commands.items():
        params = [p.name for p in command.params]
        assert ("lists" in params) == ("guesses" in params), command_name
        if "lists" in params:
            assert params.index("lists") == params.index("answers") + 1  # shown beside --answers
            with_lists.add(command_name)
    assert with_lists == {case.split()[0] for case in CASES} | ONCE | UNRUN


def test_other_commands_on_the_latest_lists(tmp_path):
    tree = tmp_path / "t.json"
    run_json("tree", "--lists", "latest", "--mode", "consistent", "--out", str(tree), "--json")
    saved = json.loads(tree.read_text())
    assert (saved["guesses"], saved["answers"]) == (ERAS[LATEST].guesses, ERAS[LATEST].answers)
    result = run("verify", str(tree))  # the tree file names the era's lists
    assert result.exit_code == 0 and "3,158 answers" in result.output, result.output
    text, named = tmp_path / "t.tree", tmp_path / "named.json"
    assert run("tree-view", str(tree), "-o", str(text)).exit_code == 0  # the text layout names no lists
    assert run("tree-view", str(text), "-o", str(named), "--lists", "latest").exit_code == 0
    saved = json.loads(named.read_text())
    assert (saved["guesses"], saved["answers"]) == (ERAS[LATEST].guesses, ERAS[LATEST].answers)
    assert run("verify", str(named)).exit_code == 0
    assert run_json("evil", "--lists", "latest", "--json")[-1]["reply"] == "GGGGG"
    assert run_json("antiwordle", "--lists", "latest", "--json")["total"] > 3158
    rows = run_json("policies", "--lists", "latest", "--metrics", "entropy", "--modes", "normal", "--json")
    assert rows[0]["first_guess"] == "TARSE"


def test_explicit_lists_override_the_era():
    out = run_json("patterns", "--lists", "nyt-2023-07", "--answers", "answers", "--json")
    assert (out["guesses"], out["answers"]) == (14855, 2309)
    out = run_json("patterns", "--guesses", "allowed-14855", "--lists", "original", "--json")
    assert (out["guesses"], out["answers"]) == (14855, 2315)


def test_unknown_era_is_one_line():
    result = run("rank", "--lists", "nyt-2025")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: unknown word lists 'nyt-2025': choose one of " + ", ".join(ERAS)
        + " or latest (see 'gpusolve lists')"]


def test_help_says_how_to_play_today():
    result = run("--help")
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "--lists latest" in text and "14,855 guesses, 3,158 possible answers" in text
    assert "lists" in run("rank", "--help").output


def test_lists_catalogue():
    assert run_json("lists", "--json") == catalogue()
    result = run("lists")
    assert result.exit_code == 0
    for name in [*ERAS, "allowed-14855", "answers-3158", "3e443482b78d"]:
        assert name in result.output


def test_lists_difference():
    out = run_json("lists", "nyt-2023-04", "latest", "--json")
    assert out == {"from": "nyt-2023-04", "to": "latest", "guesses": {"added": [], "removed": []},
                   "answers": {"added": ["WHIZZ"], "removed": ["FANNY", "LYCRA", "YOWZA"]}}
    result = run("lists", "allowed", "allowed-12974")
    assert result.exit_code == 0
    assert result.output.splitlines() == ["2 added from allowed to allowed-12974: KORAN QURAN",
                                          "0 removed from allowed to allowed-12974"]


@pytest.mark.parametrize(("args", "fragment"), [
    (["latest"], "lists takes two names to compare (or none), not 1"),
    (["allowed", "latest"], "compare two word lists or two eras"),
    (["allowed", "/no/such.txt"], "neither a bundled list"),
])  # fmt: skip
def test_lists_errors(args, fragment):
    result = run("lists", *args)
    assert result.exit_code == 2 and result.output.startswith("error: ") and fragment in result.output
    assert len(result.output.strip().splitlines()) == 1
