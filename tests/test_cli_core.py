"""The core commands through Typer's runner: output, JSON, and one-line errors for bad input."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gpusolve.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def assert_one_line_error(result, fragment):
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert fragment in lines[0]
    assert "Traceback" not in result.output


def test_help_lists_commands():
    result = run("--help")
    assert result.exit_code == 0
    for command in ("patterns", "rank", "doctor"):
        assert command in result.output


def test_rank_json_reproduces_the_seed():
    result = run("rank", "--guesses", "answers", "--top", "3", "--worst", "1", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["word"] for r in rows] == ["RAISE", "SLATE", "CRATE", "FUZZY"]
    assert set(rows[0]) == {"word", "entropy", "max", "expectation", "branches",
                            "guaranteed_wins", "expected_wins"}
    assert round(rows[0]["entropy"], 3) == 5.878


def test_rank_table_after_moves():
    result = run("rank", "--guesses", "answers", "--after", "hello:.....", "--top", "2")
    assert result.exit_code == 0, result.output
    assert "over 406 answers" in result.output


def test_patterns_reports(tmp_path, monkeypatch):
    monkeypatch.setenv("GPUSOLVE_CACHE_DIR", str(tmp_path))
    result = run("patterns", "--game", "mastermind", "--json")
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    assert (info["guesses"], info["answers"], info["backend"]) == (1296, 1296, "cpu")
    assert info["cache"].startswith(str(tmp_path))


def test_doctor_runs():
    result = run("doctor", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] and report["checks"][0]["ok"]


@pytest.mark.parametrize(("args", "fragment"), [
    (("rank", "--after", "QZQZQ:....."), "unknown word QZQZQ"),
    (("rank", "--after", "HELLO:..."), "malformed reply"),
    (("rank", "--after", "HELLO"), "expected GUESS:REPLY"),
    (("rank", "--after", "HELLO:GGGGG,WORLD:....."), "impossible given the earlier moves"),
    (("rank", "--after", "HELL:....."), "has 4 letters"),
    (("rank", "--metric", "luck"), "unknown metric"),
    (("rank", "--answers", "/no/such/file"), "neither a bundled list"),
    (("rank", "--game", "chess"), "unknown game"),
    (("rank", "--backend", "quantum"), "unknown backend"),
    (("patterns", "--backend", "cuda"), "cuda backend is not available"),
])  # fmt: skip
def test_bad_input_is_one_line(args, fragment, monkeypatch):
    monkeypatch.delenv("NUMBA_ENABLE_CUDASIM", raising=False)
    assert_one_line_error(run(*args), fragment)


@pytest.mark.parametrize(("args", "fragment"), [
    (("--frobnicate",), "No such option: --frobnicate"),
    (("rank", "--frobnicate"), "see 'gpusolve rank --help'"),
    (("war", "sweep", "--frobnicate"), "see 'gpusolve war sweep --help'"),
    (("no-such-command",), "No such command"),
    (("verify",), "Missing argument"),
    (("optimal-tree", "--cutoff", "many"), "Invalid value for '--cutoff'"),
])  # fmt: skip
def test_usage_errors_are_one_line(args, fragment):
    result = runner.invoke(app, list(args), prog_name="gpusolve")
    assert_one_line_error(result, fragment)


def test_no_arguments_still_prints_help():
    result = run()
    assert "Usage:" in result.output and "optimal-tree" in result.output


def test_bad_word_list_file(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("crane\nslat3\n")
    assert_one_line_error(run("rank", "--guesses", str(bad), "--answers", str(bad)), "line 2")
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    assert_one_line_error(run("rank", "--answers", str(empty)), "is empty")


def test_options_given_as_text_or_left_out_are_taken_as_they_are():
    """Newer Typer builds a Pydantic validator for each of a command's options before converting
    its value, given or not (a quarter second for optimal-tree's 40, and Pydantic's import): text,
    defaults and options left out are taken as they are (their callbacks still run), so a fresh
    process parsing them imports no Pydantic. Numbers given are still converted and checked."""
    import subprocess
    import sys
    import tempfile

    code = ("import sys\n"
            "from gpusolve.cli import app\n"
            "try:\n"
            "    app(['optimal-tree', '--start', 'salet', '--mode', 'HARD', '--answers', 'answers-2315',\n"
            "         '--quiet', '--rank', '--bounds'])\n"  # refused right after parsing
            "except SystemExit:\n"
            "    pass\n"
            "print(sorted(m for m in ('pydantic',) if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=tempfile.gettempdir())  # the checkout's bare gpusolve/ lacks the kernels
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout + out.stderr
    assert "error: --bounds bounds the total of one first guess" in out.stderr
    assert_one_line_error(run("optimal-tree", "--cutoff", "7x"), "Invalid value for '--cutoff'")
    assert_one_line_error(run("optimal-tree", "--max-guesses", "0"), "--max-guesses")
    assert_one_line_error(run("optimal-tree", "--mode", "EASY", "--start", "SALET"), "unknown mode 'easy'")


def test_a_command_line_builds_only_the_command_it_names():
    """``main`` builds the options of the command named only (Typer builds every command's before it
    parses: 0.15 s); a name that is no command keeps them all, for the usage error."""
    import typer

    built = typer.main.get_command(app.only("optimal-tree"))
    assert list(built.commands) == ["optimal-tree"] and built.params[0].name == "version"
    assert list(typer.main.get_command(app.only("tables")).commands) == ["tables"]
    assert app.only("nosuch") is app and app.only("") is app
    assert len(typer.main.get_command(app).commands) > 20
