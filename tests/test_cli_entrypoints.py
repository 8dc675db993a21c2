"""The options that route to the variant searches from the commands the issues name."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from gpusolve.cli import app

runner = CliRunner()
FAMILY = str(Path(__file__).parent / "data" / "family.txt")


def test_optimal_tree_worst_case_objective_equals_the_worst_case_command():
    lists = ["--answers", FAMILY, "--json"]
    via_optimal = runner.invoke(app, ["optimal-tree", "--objective", "worst-case", *lists])
    direct = runner.invoke(app, ["worst-case", "--max-depth", "6", *lists])
    assert via_optimal.exit_code == 0, via_optimal.output
    a, b = json.loads(via_optimal.stdout), json.loads(direct.stdout)
    assert a["worst"] == b["worst"] and a["proven"]


def test_optimal_tree_worst_case_rank():
    result = runner.invoke(app, ["optimal-tree", "--objective", "worst-case", "--rank", "--candidates", "all",
                                 "--answers", FAMILY, "--guesses", "answers", "--max-guesses", "9",
                                 "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["rank"]["achieving"]


def test_unknown_objective_is_one_line():
    result = runner.invoke(app, ["optimal-tree", "--objective", "luck", "--guesses", FAMILY,
                                 "--answers", FAMILY])
    assert result.exit_code == 2 and result.output.strip() == (
        "error: unknown objective 'luck': choose total or worst-case")


def test_play_human_through_play():
    result = runner.invoke(app, ["play", "--human", "--target", "HATCH", "--guesses", FAMILY,
                                 "--answers", FAMILY], input="batch\nhatch\n")
    assert result.exit_code == 0, result.output
    assert "solved in 2" in result.output


def test_rank_and_tree_with_a_prior():
    ranked = runner.invoke(app, ["rank", "--prior", "frequency", "--top", "2", "--json"])
    assert ranked.exit_code == 0, ranked.output
    assert len(json.loads(ranked.stdout)) == 2
    tree = runner.invoke(app, ["tree", "--prior", "frequency", "--guesses", FAMILY, "--answers", FAMILY,
                               "--json"])
    assert tree.exit_code == 0, tree.output
    assert json.loads(tree.stdout)["first_guess"]
    bad = runner.invoke(app, ["rank", "--prior", "frequency", "--by", "tree"])
    assert bad.exit_code == 2 and bad.output.startswith("error: --prior goes with --by guess")


def test_optimal_tree_shows_its_tree_as_text():
    result = runner.invoke(app, ["optimal-tree", "--answers", FAMILY, "--start", "CHAMP", "--show", "1",
                                 "--quiet"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    root = next(i for i, line in enumerate(lines) if line.startswith("CHAMP "))
    assert lines[root] == "CHAMP 15" and lines[root + 1].startswith("  ")
