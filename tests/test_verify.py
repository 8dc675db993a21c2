"""verify_tree catches every kind of broken tree; the tree / verify / play commands."""

from __future__ import annotations

import copy
import json

import pytest
from typer.testing import CliRunner

from gpusolve.cli import app
from gpusolve.core.games import make_game
from gpusolve.core.modes import hard_mode_allows
from gpusolve.core.patterns import pattern_matrix
from gpusolve.core.treefiles import load_tree, save_tree
from gpusolve.core.trees import Node
from gpusolve.core.verify import verify_tree
from gpusolve.search.greedy import greedy_tree

runner = CliRunner()


@pytest.fixture(scope="module")
def few_tree(small_pm):
    """The seed's 24-word tree (every 100th answer), ROAST at the root."""
    return greedy_tree(small_pm, "max", "consistent", answers=small_pm.answers[::100])


@pytest.fixture(scope="module")
def few(small_pm):
    return list(small_pm.answers[::100])


def R(pm, text):
    return pm.game.parse_reply(text)


def check(tree, pm, few, **kw):
    return verify_tree(tree, pm, answers=few, **kw)


def test_valid_trees_have_no_problems(small_pm, few_tree, few):
    assert check(few_tree, small_pm, few, mode="consistent", max_guesses=3) == []
    for mode in ("normal", "hard", "consistent"):
        tree = greedy_tree(small_pm, "entropy", mode, free_max=125)
        assert verify_tree(tree, small_pm, mode) == []


def test_a_missing_branch_leaves_answers_unreached(small_pm, few_tree, few):
    broken = copy.deepcopy(few_tree)
    del broken.branches[R(small_pm, "YYY..")]
    (problem,) = check(broken, small_pm, few)
    assert "no branch for reply YYY.." in problem and "ARBOR" in problem


def test_a_wrong_reply_on_an_edge(small_pm, few_tree, few):
    broken = copy.deepcopy(few_tree)
    broken.branches[R(small_pm, "GGGG.")] = broken.branches.pop(R(small_pm, "YYY.."))
    problems = check(broken, small_pm, few)
    assert any("reply GGGG. cannot happen" in p for p in problems)
    assert any("no branch for reply YYY.." in p for p in problems)


def test_a_guess_not_in_the_guess_list(small_pm, few_tree, few):
    broken = copy.deepcopy(few_tree)
    broken.branches[R(small_pm, "..G..")].guess = "ZZZZZ"
    assert any("ZZZZZ is not in the guess list" in p for p in check(broken, small_pm, few))


def test_a_leaf_in_the_wrong_place(small_pm, few_tree, few):
    broken = copy.deepcopy(few_tree)
    b = broken.branches
    b[R(small_pm, "YYY..")], b[R(small_pm, "Y.G..")] = b[R(small_pm, "Y.G..")], b[R(small_pm, "YYY..")]
    problems = check(broken, small_pm, few)
    assert any("leaf FRANK but the answers left are ARBOR" in p for p in problems)
    assert any("leaf ARBOR but the answers left are FRANK" in p for p in problems)


def test_a_wrong_solved_branch_and_a_wrong_size(small_pm, few_tree, few):
    broken = copy.deepcopy(few_tree)
    node = broken.branches[R(small_pm, "..G..")]
    node.branches[R(small_pm, "GGGGG")] = "QUACK"
    node.size = 3
    problems = check(broken, small_pm, few)
    assert any("solved reply must end in ABACK, not QUACK" in p for p in problems)
    assert any("says size 3 but 2 answers remain" in p for p in problems)


def test_too_many_guesses(small_pm, few_tree, few):
    (problem,) = check(few_tree, small_pm, few, max_guesses=2)
    assert problem.startswith("6 answers need more than 2 guesses (up to 3)")


def test_mode_violations(small_pm, few_tree, few):
    # QUACK/ABACK split by a word that drops ROAST's green A: fine in normal mode, not in hard
    g = small_pm.game
    other = next(w for w in small_pm.guesses
                 if w[2] != "A" and g.reply(w, "ABACK") != g.reply(w, "QUACK")
                 and w not in ("ABACK", "QUACK"))
    assert not hard_mode_allows(g, other, [("ROAST", R(small_pm, "..G.."))])
    broken = copy.deepcopy(few_tree)
    broken.branches[R(small_pm, "..G..")] = Node(other, 2, {g.reply(other, "ABACK"): "ABACK",
                                                            g.reply(other, "QUACK"): "QUACK"})
    assert check(broken, small_pm, few, mode="normal") == []
    assert any(f"guess {other} breaks hard mode" in p for p in check(broken, small_pm, few, mode="hard"))
    problems = check(broken, small_pm, few, mode="consistent")
    assert any(f"guess {other} is not a remaining answer" in p for p in problems)


def test_an_answer_missing_from_the_tree(small_pm, few_tree, few):
    problems = check(few_tree, small_pm, [*few, "HELLO"])
    assert any("no branch" in p and "HELLO" in p for p in problems)


def test_jotto_trees_verify(small_pm):
    pm = pattern_matrix(make_game("jotto"), "answers", "answers", "cpu")
    tree = greedy_tree(pm, "entropy", "hard", free_max=125)
    assert verify_tree(tree, pm, "hard") == []
    assert verify_tree(tree, pm, "hard", max_guesses=6) != []


# ---------------------------------------------------------------- the commands


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def test_tree_command_json_out_and_verify(tmp_path):
    out, plot = tmp_path / "t.json", tmp_path / "t.png"
    code, stdout, _ = run("tree", "--guesses", "answers", "--free-max", "125", "--out", out,
                          "--plot", plot, "--json")
    assert code == 0
    summary = json.loads(stdout)
    assert set(summary) == {"first_guess", "mean", "median", "stdev", "worst", "best", "total", "histogram"}
    assert (summary["first_guess"], round(summary["mean"], 2), summary["worst"]) == ("RAISE", 3.52, 6)
    assert plot.read_bytes()[:4] == b"\x89PNG"
    code, stdout, _ = run("verify", out)
    assert code == 0 and 'first guess: RAISE' in stdout
    code, stdout, _ = run("verify", out, "--json")
    assert json.loads(stdout)["valid"] is True


def test_tree_command_text(tmp_path):
    code, stdout, _ = run("tree", "--metric", "max", "--mode", "consistent", "--guesses", "answers",
                          "--show", "1")
    assert code == 0
    assert "median: 4 guesses, mean: 3.68 ± 0.86, worst: 8, best: 1" in stdout
    assert "15 of 2,309 answers (0.65%) need more than 6 guesses" in stdout
    assert "ARISE 2309" in stdout


def test_tree_command_reproduces_seed_001_with_its_tie_rule(tmp_path):
    out = tmp_path / "t.json"
    code, stdout, _ = run("tree", "--game", "jotto", "--answers", "sgb", "--guesses", "sgb",
                          "--ties", "seed-001", "--out", out)
    assert code == 0
    assert "normal mode; free guesses when 3 < remaining; ties as in seed-001" in stdout
    assert "median: 7 guesses, mean: 6.82 ± 1.00, worst: 10, best: 1" in stdout
    assert "≤3:0%, ≤4:1%, ≤5:8%, ≤6:35%, ≤7:78%, ≤8:97%, ≤9:99.6%, ≤10:100%" in stdout
    assert json.loads(out.read_text())["ties"] == "seed-001"
    code, stdout, _ = run("verify", out)
    assert code == 0 and "mean: 6.82 ± 1.00" in stdout


def test_verify_command_reports_problems(tmp_path, small_pm):
    path = tmp_path / "t.json"
    tree = greedy_tree(small_pm, "entropy", "consistent")
    save_tree(path, tree, small_pm.game, mode="consistent", guesses="answers", answers="answers")
    code, stdout, stderr = run("verify", path, "--max-guesses", "6")
    assert code == 1
    assert stderr.count("\n") == 1 and stderr.startswith("invalid tree: 1 problem")
    code, stdout, _ = run("verify", path, "--max-guesses", "6", "--json")
    assert code == 1 and json.loads(stdout)["valid"] is False
    assert load_tree(path)[0] == tree


@pytest.mark.parametrize(("args", "message"), [
    (["tree", "--start", "QQQQQ"], "unknown word QQQQQ"),
    (["tree", "--metric", "bogus", "--guesses", "answers"], "unknown metric"),
    (["tree", "--mode", "bogus", "--guesses", "answers"], "unknown mode"),
    (["tree", "--free-max", "-1", "--guesses", "answers"], "free-max"),
    (["tree", "--mode", "consistent", "--start", "SALET"], "not a possible answer"),
    (["tree", "--ties", "bogus"], "unknown tie rule 'bogus'"),
    (["tree", "--ties", "seed-001", "--metric", "branches"], "tie rule seed-001 applies to"),
    (["tree", "--ties", "seed-001", "--prior", "frequency"], "--ties applies to the uniform prior"),
    (["verify", "/nonexistent/tree.json"], "does not exist"),
    (["play", "--target", "QQQQQ", "--guesses", "answers"], "unknown answer QQQQQ"),
    (["play", "--random", "--metric", "max"], "choose one guesser"),
    (["play", "--tree", "/nonexistent/tree.json"], "does not exist"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    code, _, stderr = run(*args)
    assert code == 2
    assert stderr.startswith("error: ") and stderr.count("\n") == 1
    assert message in stderr


@pytest.mark.parametrize("text", [
    "{not json",
    '{"schema": "other"}',
    '{"schema": "gpusolve-tree/1", "root": {"guess": "RAISE"}}',
    '{"schema": "gpusolve-tree/1", "root": {"guess": "RAISE", "size": "x", "branches": {}}}',
    '{"schema": "gpusolve-tree/1", "root": {"guess": "RAISE", "size": 2, "branches": {"QQ": "A"}}}',
    '{"schema": "gpusolve-tree/1", "length": "five", "root": "RAISE"}',
    '[1, 2]',
])
def test_malformed_tree_files(tmp_path, text):
    path = tmp_path / "bad.json"
    path.write_text(text)
    for command in (["verify", path], ["play", "--tree", path, "--all"]):
        code, _, stderr = run(*command)
        assert code == 2, stderr
        assert stderr.startswith("error: ") and stderr.count("\n") == 1


def test_play_a_target_as_in_the_seed():
    code, stdout, _ = run("play", "--metric", "max", "--mode", "consistent", "--guesses", "answers",
                          "--target", "hello")
    assert code == 0
    assert stdout.splitlines() == [
        "Guess 1: ARISE, reply: ....Y; remaining: 120",
        "Guess 2: TOWEL, reply: .Y.YY; remaining: 5",
        "Guess 3: CELLO, reply: .GGGG; remaining: 1",
        "Guess 4: HELLO, reply: GGGGG; remaining: 1",
    ]


def test_play_all_with_a_tree_file_and_random(tmp_path, small_pm):
    path = tmp_path / "t.json"
    tree = greedy_tree(small_pm, "entropy", "normal", free_max=125)
    save_tree(path, tree, small_pm.game, mode="normal", guesses="answers", answers="answers")
    code, stdout, _ = run("play", "--tree", path, "--all", "--json")
    assert code == 0 and round(json.loads(stdout)["mean"], 2) == 3.52
    first = run("play", "--random", "--seed", "7", "--all", "--json", "--guesses", "answers")
    again = run("play", "--random", "--seed", "7", "--all", "--json", "--guesses", "answers")
    assert first == again and first[0] == 0
    assert 3.9 < json.loads(first[1])["mean"] < 4.3
    code, stdout, _ = run("play", "--random", "--seed", "7", "--json", "--guesses", "answers")
    game = json.loads(stdout)
    assert game["turns"][-1] == {"guess": game["target"], "reply": "GGGGG", "remaining": 1}
