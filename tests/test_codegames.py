"""The code games: Bulls and Cows, and Mastermind's options (no repeated colours, black pegs only,
sizes beyond 4 x 6): lists, replies typed and printed, the kernels against the oracle, files."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gpusolve.core.backend import CpuBackend
from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import BLACK_PEGS, MASTERMIND, make_game, mastermind_reply
from gpusolve.core.history import parse_history
from gpusolve.core.patterns import build_codes, pattern_matrix
from gpusolve.core.treefiles import from_json, to_json
from gpusolve.runs.units import make_job


def test_bulls_and_cows_defaults():
    game = make_game("bulls")
    assert (game.kind, game.length, game.alphabet, game.repeats) == (MASTERMIND, 4, "0123456789", False)
    guesses, answers = game.word_lists(None, None)
    assert guesses == answers and len(answers) == 5040 == math.perm(10, 4)
    assert answers[:3] == ("0123", "0124", "0125") and all(len(set(w)) == 4 for w in answers)
    assert game.format_reply(game.reply("0123", "1032")) == "0B4C"
    assert game.format_reply(game.reply("1234", "1243")) == "2B2C"
    for text in ("2B1C", "2b 1c", "2,1", "2 1", "21", "2B1W"):
        assert game.parse_reply(text) == 2 * 5 + 1
    assert game.title == "Bulls and Cows (4 of 10 digits)"


@pytest.mark.parametrize(("text", "message"), [
    ("2B", "malformed reply"), ("5B0C", "can never happen"), ("3B1C", "can never happen"),
    ("x", "bulls and cows"),
])  # fmt: skip
def test_bulls_bad_replies(text, message):
    with pytest.raises(GpusolveError, match=message):
        make_game("bulls").parse_reply(text)


def test_mastermind_options():
    plain = make_game("mastermind", 4, 6, repeats=False)
    answers = plain.word_lists(None, None)[1]
    assert len(answers) == 360 and all(len(set(w)) == 4 for w in answers)
    black = make_game("mastermind", black_only=True)
    assert (black.kind, black.n_patterns, black.solved) == (BLACK_PEGS, 5, 4)
    assert black.format_reply(black.reply("1122", "1212")) == "2B"
    assert black.parse_reply("2b") == black.parse_reply("2") == 2
    with pytest.raises(GpusolveError, match="number of black pegs"):
        black.parse_reply("2B1W")
    assert len(black.word_lists(None, None)[0]) == 1296
    assert make_game("bulls", 3, 5, black_only=True).format_reply(3) == "3B"
    assert make_game("bulls", repeats=True).n_codes() == 10_000


@pytest.mark.parametrize(("args", "kw", "message"), [
    (("wordle",), {"repeats": False}, "--no-repeats is an option of mastermind"),
    (("jotto",), {"black_only": True}, "--black-only is an option"),
    (("mastermind", 5, 4), {"repeats": False}, "need at least 5"),
    (("bulls", 4, 11), {}, "2 to 10 digits"),
    (("mastermind", 4, 10), {}, "2 to 9 colours"),
    (("bulls", 10, 10), {}, "1 to 9 pegs"),
])  # fmt: skip
def test_bad_code_games(args, kw, message):
    with pytest.raises(GpusolveError, match=message):
        make_game(*args, **kw)


def test_lists_with_repeats_refused(tmp_path):
    path = tmp_path / "codes.txt"
    path.write_text("0123\n1123\n4567\n")
    with pytest.raises(GpusolveError, match="1123 repeat a symbol"):
        make_game("bulls").word_lists(str(path), None)


def test_sizes_refused_with_what_fits(monkeypatch):
    import gpusolve.core.limits as limits

    monkeypatch.setattr(limits, "available_memory", lambda total=False: 2**29)
    with pytest.raises(GpusolveError, match=r"Mastermind \(5 pegs, 8 colours\) with 32,768 codes.*"
                       r"at most 4 pegs of 8 colours fit, or 5 pegs of 7 colours$"):
        make_game("mastermind", 5, 8).word_lists(None, None)
    with pytest.raises(GpusolveError, match=r"Bulls and Cows \(5 of 10 digits\).*at most 4 pegs of 10 "
                       r"digits fit, or 5 pegs of 9 digits$"):
        make_game("bulls", 5).word_lists(None, None)


codes = st.sampled_from(["mastermind", "bulls"])


@settings(max_examples=100, deadline=None)
@given(codes, st.integers(1, 6), st.integers(2, 9), st.booleans(), st.booleans(), st.data())
def test_code_game_kernels_equal_oracle(name, pegs, colours, repeats, black_only, data):
    assume(repeats or colours >= pegs)
    game = make_game(name, pegs, colours, repeats, black_only)
    word = st.lists(st.sampled_from(game.alphabet), min_size=pegs, max_size=pegs,
                    unique=not repeats).map("".join)
    guesses = data.draw(st.lists(word, min_size=1, max_size=4))
    answers = data.draw(st.lists(word, min_size=1, max_size=4))
    matrix = build_codes(game, tuple(guesses), tuple(answers), CpuBackend())
    for i, g in enumerate(guesses):
        for j, a in enumerate(answers):
            black, white = mastermind_reply(g, a)
            assert matrix[i, j] == game.reply(g, a) == (black if black_only else black * (pegs + 1) + white)
            assert game.parse_reply(game.format_reply(game.reply(g, a))) == game.reply(g, a)


def test_histories_of_bulls_and_cows():
    pm = pattern_matrix(make_game("bulls", 3, 5), None, None, "cpu")
    moves = parse_history(pm, "012:0B2C,340:1,1")
    assert moves == [("012", 2), ("340", 5)]
    assert parse_history(pm, "012:02,340:11") == moves


def test_tree_files_keep_the_options():
    for game in (make_game("mastermind", 3, 4, repeats=False), make_game("bulls", 3, 5, black_only=True),
                 make_game("bulls", 3, 5, repeats=True)):
        doc = to_json("123" if game.name == "mastermind" else "012", game)
        assert from_json(doc)[1] == game
    assert "repeats" not in to_json("0123", make_game("bulls"))
    with pytest.raises(GpusolveError, match="game options"):
        from_json({**to_json("0123", make_game("bulls")), "repeats": "no"})


def test_run_parameters_name_the_options():
    pm = pattern_matrix(make_game("mastermind", 3, 3, black_only=True), None, None, "cpu")
    params = make_job("exact", pm, None, None).params()
    assert params["black_only"] is True and "repeats" not in params and params["colours"] == 3
    pm = pattern_matrix(make_game("bulls", 3, 4), None, None, "cpu")
    params = make_job("exact", pm, None, None).params()
    assert "repeats" not in params and "black_only" not in params and params["game"] == "bulls"


def test_every_code_listed_once():
    game = make_game("mastermind", 3, 4, repeats=False)
    assert game.word_lists(None, None)[0] == tuple("".join(p) for p in itertools.permutations("1234", 3))


BULLS = ("--game", "bulls", "--length", "3", "--digits", "5")


@pytest.mark.parametrize("args", [
    ("tree", "--json"), ("rank", "--top", "2", "--json"), ("optimal-tree", "--json"),
    ("optimal-tree", "--objective", "worst-case", "--json"), ("play", "--all", "--json"),
    ("analyze", "--state", "012:1B1C,340:0B1C"), ("evil",), ("absurdle",), ("antiwordle",),
])  # fmt: skip
def test_bulls_in_every_command(args, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from gpusolve.cli import app

    monkeypatch.setenv("GPUSOLVE_RUNS_DIR", str(tmp_path))
    result = CliRunner().invoke(app, [*args, *BULLS])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output


def test_bulls_tree_file_plays_back(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from gpusolve.cli import app

    monkeypatch.setenv("GPUSOLVE_RUNS_DIR", str(tmp_path))
    out = tmp_path / "bulls.json"
    runner = CliRunner()
    made = runner.invoke(app, ["optimal-tree", *BULLS, "--black-only", "--out", str(out)])
    assert made.exit_code == 0, made.output
    played = runner.invoke(app, ["play", "--tree", str(out), "--all", "--json"])
    assert played.exit_code == 0, played.output
    solve = runner.invoke(app, ["solve", *BULLS, "--black-only"], input="012 1B\n")
    assert solve.exit_code == 0 and "Traceback" not in solve.output, solve.output


@pytest.mark.parametrize(("args", "total"), [((), 5625), (("--max-guesses", "5"), 5626)])
def test_mastermind_published_optimum(args, total, tmp_path, monkeypatch):
    """Koyama and Lai's optimal Mastermind 4 x 6 totals, proven over every first guess
    (docs/codegames.md): 5,625 (mean 4.340), and 5,626 with at most 5 guesses; 1123 first."""
    import json

    from typer.testing import CliRunner

    from gpusolve.cli import app

    monkeypatch.setenv("GPUSOLVE_RUNS_DIR", str(tmp_path))
    result = CliRunner().invoke(app, ["optimal-tree", "--game", "mastermind", *args, "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    proof = json.loads(result.stdout)
    assert proof["best"] == [{"guess": "1123", "total": total}] and proof["others_at_least"] == total + 1
