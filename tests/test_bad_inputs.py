"""The bad-input campaign, class by class: each case gives exactly one ``error:`` line on stderr
and exit code 2 (no traceback, nothing half-written), or, on Ctrl-C, a clean exit 130 that says
what was kept. The real command line runs in-process through Typer's runner; the cases where the
exit code, a signal or a traceback only show in a real process run as subprocesses."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpusolve.cli import app
from gpusolve.core.games import make_game

runner = CliRunner()
FAMILY = str(Path(__file__).parent / "data" / "family.txt")  # 15 answers: BATCH ... WIGHT
SMALL = ["--guesses", FAMILY, "--answers", FAMILY]
AWAY = tempfile.gettempdir()  # processes start here: the checkout's bare gpusolve/ lacks the kernels
ALLOWED = ["--answers", FAMILY]  # every allowed guess: six guesses suffice


def run(*args: object, input: str | None = None):
    return runner.invoke(app, [str(a) for a in args], prog_name="gpusolve", input=input)


def one_error(result, fragment: str = "") -> str:
    """Assert exit 2 with exactly one ``error:`` line on stderr (holding ``fragment``)."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = [line for line in result.stderr.splitlines() if line.strip() and not line.startswith("note: ")]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert fragment.lower() in lines[0].lower(), lines[0]
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return lines[0]


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --- numbers: every count, size and limit has a range --------------------------------------------

NUMBERS = [
    (["optimal-tree", *SMALL, "--workers", "0"], "--workers must be between 1"),
    (["optimal-tree", *SMALL, "--workers", "-2"], "--workers must be between 1"),
    (["optimal-tree", *SMALL, "--workers", "100000"], "--workers must be between 1"),
    (["optimal-tree", "--rank", *SMALL, "--workers", "-1"], "--workers must be between 0"),
    (["optimal-tree", "--rank", *SMALL, "--workers", "100000"], "--workers must be between 0"),
    (["rank", "--by", "tree", *SMALL, "--workers", "-1"], "--workers must be between 0"),
    (["optimal-tree", *SMALL, "--cutoff", "99999999999999999999"], "--cutoff"),
    (["optimal-tree", *SMALL, "--cutoff", "-100"], "--cutoff"),
    (["optimal-tree", *SMALL, "--cutoff", "0"], "--cutoff"),
    (["optimal-tree", *SMALL, "--memo-mb", "0"], "--memo-mb must be at least 1"),
    (["optimal-tree", *SMALL, "--memo-mb", "-1"], "--memo-mb must be at least 1"),
    (["optimal-tree", *SMALL, "--alternatives", "-5"], "--alternatives"),
    (["optimal-tree", *SMALL, "--max-guesses", "0"], "--max-guesses"),
    (["optimal-tree", *SMALL, "--max-guesses", "-3"], "--max-guesses"),
    (["optimal-tree", *SMALL, "--show", "-1"], "--show"),
    (["optimal-tree", *SMALL, "--candidates", "0"], "--candidates must be at least 1"),
    (["optimal-tree", *SMALL, "--candidates", "-4"], "--candidates must be at least 1"),
    (["optimal-tree", *SMALL, "--candidates", "many"], "--candidates takes a number or 'all'"),
    (["optimal-tree", *SMALL, "--candidates", ""], "--candidates takes a number or 'all'"),
    (["absurdle", *SMALL, "--play", ",,"], "--play is empty"),
    (["optimal-tree", "--rank", *SMALL, "--top", "-1"], "--top"),
    (["optimal-tree", "--rank", *SMALL, "--batch", "0"], "--batch"),
    (["rank", *SMALL, "--top", "-5"], "--top"),
    (["rank", *SMALL, "--worst", "-1"], "--worst"),
    (["tree", *SMALL, "--free-max", "-1"], "--free-max"),
    (["tree", *SMALL, "--free-min", "-1"], "--free-min"),
    (["tree", *SMALL, "--show", "-1"], "--show"),
    (["preset", "--search", *SMALL, "--letters", "0"], "--letters"),
    (["preset", "--search", *SMALL, "--letters", "27"], "--letters"),
    (["preset", "--search", *SMALL, "--words", "0"], "--words"),
    (["preset", "--search", *SMALL, "--words", "6"], "--words must be between 1 and 5"),
    (["preset", "--search", *SMALL, "--top", "-1"], "--top"),
    (["preset", "--search", *SMALL, "--samples", "0"], "--samples"),
    (["preset", *SMALL, "--show-bins", "0", "BATCH"], "--show-bins"),
    (["absurdle", *SMALL, "--max-depth", "-1"], "--max-depth"),
    (["absurdle", *SMALL, "--max-depth", "1000"], "--max-depth"),
    (["absurdle", *SMALL, "--budget", "-1"], "--budget"),
    (["worst-case", "--answers", FAMILY, "--pair-mb", "-1"], "--pair-mb"),
    (["worst-case", "--answers", FAMILY, "--max-depth", "0"], "--max-depth"),
    (["optimal-tree", "--objective", "worst-case", "--answers", FAMILY, "--max-guesses", "0"],
     "--max-guesses"),
    (["solve", *SMALL, "--top", "0"], "--top"),
    (["solve", *SMALL, "--show", "-1"], "--show"),
    (["analyze", "--state", "BATCH:.....", *SMALL, "--show", "-1"], "--show"),
    *[([command, "--state", "BATCH:.....", *SMALL, "--think", think], "Invalid value for '--think'")
      for command in ("solve", "analyze") for think in ("0", "-1", "nan", "soon")],
    (["play", "--human", *SMALL, "--max-guesses", "0"], "--max-guesses"),
    (["war", "sweep", "--ranks", "0"], "--ranks"),
    (["war", "sweep", "--suits", "-1"], "--suits"),
    (["war", "sweep", "--down", "-1", "--wars"], "--down"),
    (["war", "lengths", "--games", "-1"], "--games must be between 1"),
    (["war", "lengths", "--games", "10", "--cap", "0"], "--cap must be between 1"),
    (["rank", "--length", "0"], "not supported"),
    (["rank", "--game", "mastermind", "--colours", "100"], "2 to 9 colours"),
    (["rank", "--game", "jotto", "--length", "30"], "not supported"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "fragment"), NUMBERS)
def test_numbers_out_of_range(args, fragment):
    one_error(run(*args), fragment)


# --- memory: what cannot fit is refused up front, saying what would -----------------------------

def test_sizes_that_cannot_fit(monkeypatch):
    one_error(run("optimal-tree", "--start", "SALET", "--max-guesses", "1000000"), "at most --max-guesses")
    one_error(run("optimal-tree", "--start", "SALET", "--memo-mb", "10000000"), "use at most")
    one_error(run("patterns", "--game", "mastermind", "--length", "7"), "pegs of 6 colours fit")
    one_error(run("patterns", "--game", "mastermind", "--length", "9", "--colours", "9"), "pattern matrix")
    one_error(run("worst-case", "--answers", FAMILY, "--pair-mb", "10000000"), "use at most")
    one_error(run("war", "sweep", "--ranks", "1000", "--suits", "1000"),
              "a deck of 1000 ranks, up to 1000 cards each, is too big for the exact computation")
    one_error(run("war", "sweep", "--ranks", "40", "--suits", "40", "--wars"), "try fewer --ranks")
    from gpusolve.search import presets

    monkeypatch.setattr(presets, "MAX_SETS", 100)
    one_error(run("preset", "--search", "--words", "2"), "too many to search")


def test_a_huge_depth_limit_that_fits_is_moot():
    """Deeper limits than the answers left change nothing: the search caps its own depth."""
    deep = run("optimal-tree", *SMALL, "--max-guesses", "1000", "--json", "--quiet")
    fifteen = run("optimal-tree", *SMALL, "--max-guesses", "15", "--json", "--quiet")  # 15 answers
    assert deep.exit_code == fifteen.exit_code == 0, deep.output
    def proven(out: str) -> dict:  # what the whole proof established, not where or how fast
        data = json.loads(out)
        tree = {k: v for k, v in data["tree"].items() if k not in ("seconds", "nodes")}
        return {**{k: data[k] for k in ("best", "exact", "statement", "complete")}, "tree": tree}

    assert proven(deep.stdout) == proven(fifteen.stdout)
    one_error(run("optimal-tree", *SMALL, "--max-guesses", "7"), "no strategy finds every answer within 7")


# --- output paths: checked before the work, nothing half-written --------------------------------

def _output_cases(tmp: Path) -> list[tuple[list[str], str]]:
    blocker = tmp / "a-file"
    blocker.write_text("")
    cases = []
    for option, what in (("--out", "tree"), ("--plot", "plot")):
        for path, fragment in ((tmp, "it is a folder"), (tmp / "missing" / "x", f"folder {tmp / 'missing'}"),
                               (blocker / "x", f"{blocker} is not a folder"), ("/sys/gpusolve-x", "")):
            cases.append((["tree", *SMALL, option, str(path)], f"the {what} to {path}: {fragment}".strip()))
    cases += [
        (["optimal-tree", *SMALL, "--out", str(tmp)], "is a folder"),
        (["optimal-tree", *SMALL, "--out", str(tmp / "missing" / "t.json")], "does not exist"),
        (["optimal-tree", *SMALL, "--out", "/proc/gpusolve-x.json"], "cannot write the tree"),
        (["optimal-tree", *SMALL, "--out", "/sys/gpusolve-x.json"], "cannot write the tree"),
        (["worst-case", "--answers", FAMILY, "--out", str(tmp)], "is a folder"),
        (["optimal-tree", "--objective", "worst-case", "--answers", FAMILY, "--out", str(tmp)], "folder"),
        (["rank", "--by", "tree", *SMALL, "--output", str(tmp), "--workers", "0"], "is a folder"),
        (["optimal-tree", "--rank", *SMALL, "--output", str(tmp / "no" / "r.csv")], "does not exist"),
        (["war", "lengths", "--games", "10", "--plot", str(tmp)], "is a folder"),
        (["war", "lengths", "--games", "10", "--plot", str(blocker / "x.png")], "is not a folder"),
    ]
    return cases


def test_unwritable_outputs(tmp_path):
    pipe = tmp_path / "a-pipe"
    os.mkfifo(pipe)
    cases = [*_output_cases(tmp_path),
             (["tree", *SMALL, "--out", pipe], "not a regular file"),
             (["optimal-tree", "--rank", *SMALL, "--words", "BATCH", "--output", pipe], "not a regular file")]
    for args, fragment in cases:
        one_error(run(*args), fragment)
    assert files_in(tmp_path) == ["a-file", "a-pipe"]  # no temporary files, no run directories left


def test_a_link_keeps_pointing_at_the_file_written(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    (tmp_path / "link.json").symlink_to(target)
    assert run("tree", *SMALL, "--out", tmp_path / "link.json").exit_code == 0
    assert (tmp_path / "link.json").is_symlink() and json.loads(target.read_text())["root"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    one_error(run("tree", *SMALL, "--out", folder / "t.json"), "not writable")


@pytest.mark.parametrize("mask", [0o022, 0o027, 0o077])
def test_files_follow_the_umask(tmp_path, mask):
    old = os.umask(mask)
    try:
        assert run("tree", *SMALL, "--out", tmp_path / "t.json").exit_code == 0
    finally:
        os.umask(old)
    assert (tmp_path / "t.json").stat().st_mode & 0o777 == 0o666 & ~mask


# --- layouts by suffix: an --output whose suffix names no layout is refused before the work ----------

TABLE_LAYOUTS = "the layouts are csv (.csv), anchor (.txt) and json (.json)"
RANKING_LAYOUTS = "the layouts are csv (.csv) and json (.json)"


def test_an_output_suffix_that_names_no_layout(tmp_path):
    """``--output t.xlsx`` was written as JSON: now one line naming the layouts and their suffixes
    (and the option that names one), before any work: no run directory, no file."""
    run_dir = ["--run-dir", tmp_path / "r", "--workers", "0"]
    cases = [
        (["optimal-tree", "--rank", *SMALL, *run_dir, "--output", tmp_path / "t.xlsx"],
         f"layout of {tmp_path / 't.xlsx'} from its suffix (.xlsx): {TABLE_LAYOUTS}; or name the layout "
         "with --output-format"),
        (["optimal-tree", "--rank", *SMALL, *run_dir, "--output", tmp_path / "table"], "its suffix (none)"),
        (["rank", "--by", "tree", *SMALL, *run_dir, "--output", tmp_path / "t.xlsx"], RANKING_LAYOUTS),
        (["rank", "--by", "tree", *SMALL, *run_dir, "--output", tmp_path / "t.txt"], RANKING_LAYOUTS),
        (["rank", *SMALL, "--output", tmp_path / "t.csv"], "--output writes the ranking of start words by "
         "their greedy trees: it goes with --by tree"),
        (["tables", "export", tmp_path / "r", "-o", tmp_path / "t.xlsx"],
         f"{TABLE_LAYOUTS}; or name the layout with --format"),
    ]
    for args, fragment in cases:
        one_error(run(*args), fragment)
    assert files_in(tmp_path) == []


def test_a_named_layout_takes_any_suffix(tmp_path):
    run_dir = ["--run-dir", tmp_path / "r", "--workers", "0", "--quiet"]
    ranked = run("optimal-tree", "--rank", *SMALL, *run_dir, "--output", tmp_path / "t.xlsx",
                 "--output-format", "csv")
    assert ranked.exit_code == 0, ranked.output
    rows = [line for line in (tmp_path / "t.xlsx").read_text().splitlines() if not line.startswith("#")]
    assert rows[0].startswith("rank,word,total") and len(rows) == 11  # CSV: the header and 10 start words
    exported = run("tables", "export", tmp_path / "r", "-o", tmp_path / "t.table", "--format", "anchor")
    assert exported.exit_code == 0, exported.output
    assert len((tmp_path / "t.table").read_text().splitlines()) == 10


def test_a_table_without_table_lines(tmp_path):
    """An empty table (no lines, a CSV header alone, JSON without rows) is a bad file, not a table
    "identical" to another."""
    (tmp_path / "good.txt").write_text("salet 3.4201 7897\n")
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "blank.txt").write_text("\n  \n")
    (tmp_path / "header.csv").write_text("# mode: \"normal\"\nrank,word,total\n")
    (tmp_path / "rows.json").write_text('{"provenance": {}, "results": []}')
    for name in ("empty.txt", "blank.txt", "header.csv", "rows.json"):
        one_error(run("tables", "compare", tmp_path / name, tmp_path / name),
                  f"table {tmp_path / name} has no table lines")
        one_error(run("tables", "compare", tmp_path / "good.txt", tmp_path / name),
                  f"table {tmp_path / name}")


# --- word files ----------------------------------------------------------------------------------

def test_bad_word_files(tmp_path):
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\x00\x01\xff\xfe binary\n")
    nul = tmp_path / "nul.txt"
    nul.write_bytes(b"crane\n\x00\x00\x00\x00\x00\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    mixed = tmp_path / "mixed.txt"
    mixed.write_text("crane\nslate\nabc\n")
    repeated = tmp_path / "repeated.txt"
    repeated.write_text("crane\ncrane\n")
    jotto = tmp_path / "jotto.txt"
    jotto.write_text("aaaaa\nbbbbb\nmamma\n")
    cases = [
        (["rank", "--answers", binary], "not a text file"),
        (["rank", "--guesses", binary], "not a text file"),
        (["rank", "--answers", nul], "line 2"),
        (["rank", "--answers", empty], "is empty"),
        (["rank", "--answers", mixed], "mixes word lengths"),
        (["rank", "--answers", repeated], "repeats 1 words"),
        (["rank", "--answers", tmp_path], "neither a bundled list"),
        (["rank", "--answers", tmp_path / "missing.txt"], "neither a bundled list"),
        (["rank", "--game", "jotto", "--guesses", jotto, "--answers", jotto], "no word of 5 distinct"),
        (["rank", "--game", "jotto", "--answers", jotto], "no word of 5 distinct letters"),
        (["optimal-tree", "--rank", *SMALL, "--words-file", binary], "not a text file"),
        (["optimal-tree", "--rank", *SMALL, "--words-file", tmp_path], "is a folder"),
        (["optimal-tree", "--rank", *SMALL, "--words-file", empty], "no start words"),
        (["optimal-tree", "--rank", *SMALL, "--words-file", tmp_path / "missing"], "does not exist"),
        (["optimal-tree", "--rank", *SMALL, "--words", "QQQQQ"], "unknown word QQQQQ"),
        (["optimal-tree", "--rank", *SMALL, "--words", ","], "no start words"),
        (["rank", "--guesses", ""], "--guesses is empty"),
        (["rank", "--answers", " "], "--answers is empty"),
    ]  # fmt: skip
    for args, fragment in cases:
        one_error(run(*args), fragment)


# --- tree files: deep, malformed, and trees from a position ---------------------------------------

def _deep_tree(levels: int) -> str:
    """Return the JSON text of a tree nested ``levels`` guesses deep (too deep for json.dumps)."""
    node = '"BATCH"'
    for _ in range(levels):
        node = f'{{"guess": "CATCH", "size": 2, "branches": {{"GGGGG": "CATCH", ".GGGG": {node}}}}}'
    return (f'{{"schema": "gpusolve-tree/1", "game": "wordle", "guesses": {json.dumps(FAMILY)}, '
            f'"answers": {json.dumps(FAMILY)}, "max_guesses": 6, "root": {node}}}')


def _moves_tree(moves) -> dict:
    return {"schema": "gpusolve-tree/1", "game": "wordle", "guesses": FAMILY, "answers": FAMILY,
            "moves": moves, "root": "HATCH"}


def test_bad_tree_files(tmp_path):
    files = {
        "deep": _deep_tree(150),
        "deeper-still": _deep_tree(500),
        "deeper": "[" * 100_000 + "]" * 100_000,
        "binary": b"\xff\xfe\x00",
        "settings": _deep_tree(1).replace('"max_guesses": 6', '"max_guesses": "six"'),
        "moves-not-a-list": json.dumps(_moves_tree("BATCH:GGGGG")),
        "moves-unknown-word": json.dumps(_moves_tree([["QQQQQ", "....."]])),
        "moves-bad-reply": json.dumps(_moves_tree([["BATCH", "GGGGGG"]])),
        "moves-impossible": json.dumps(_moves_tree([["BATCH", "G...."], ["LATCH", ".GGGG"]])),
        "moves-solved": json.dumps(_moves_tree([["BATCH", "GGGGG"]])),
        "moves-not-pairs": json.dumps(_moves_tree([["BATCH"]])),
    }
    fragments = {"deep": "nested more than 100", "deeper-still": "nested", "deeper": "nested too deeply",
                 "binary": "not a text file",
                 "settings": "bad 'max_guesses'", "moves-not-a-list": "'moves' must be a list",
                 "moves-unknown-word": "unknown word QQQQQ", "moves-bad-reply": "malformed reply",
                 "moves-impossible": "impossible", "moves-solved": "solve the game",
                 "moves-not-pairs": "'moves' must be a list"}
    for name, text in files.items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        for command in (["verify", path], ["play", "--tree", path, "--all"], ["evil", "--tree", path]):
            if name.startswith("moves") and command[0] == "evil" and name != "moves-not-a-list":
                continue  # evil reads moves only to play them first; malformed ones still fail verify
            one_error(run(*command), fragments[name])


def test_hard_mode_moves_are_checked(tmp_path):
    path = tmp_path / "t.json"
    for moves, fragment in (
            ([["BATCH", "...GG"], ["FIGHT", "....."]], "letter 4 must be C (green in BATCH)"),
            ([["BATCH", "Y...."], ["FIGHT", "....."]], "it must contain B (revealed by BATCH)")):
        path.write_text(json.dumps({**_moves_tree(moves), "mode": "hard"}))
        one_error(run("verify", path), f"move 2: FIGHT breaks hard mode: {fragment}")


def test_a_tree_from_a_position_verifies_and_plays(tmp_path):
    game = make_game("wordle")
    state = f"FIGHT:{game.format_reply(game.reply('FIGHT', 'NIGHT'))}"
    out = tmp_path / "position.json"
    made = run("optimal-tree", *ALLOWED, "--state", state, "--out", out, "--json", "--quiet")
    assert made.exit_code == 0, made.output
    value = json.loads(made.stdout)
    assert json.loads(out.read_text())["moves"] == [state.split(":")]
    checked = run("verify", out, "--json")
    assert checked.exit_code == 0, checked.output
    summary = json.loads(checked.stdout)["summary"]
    n_left = sum(summary["histogram"].values())
    assert summary["total"] == value["total"] + n_left  # each answer's count includes FIGHT's turn
    assert summary["histogram"] == value["histogram"] and summary["worst"] == value["worst"]
    played = run("play", "--tree", out, "--all", "--json")
    assert played.exit_code == 0, played.output
    assert json.loads(played.stdout)["histogram"] == summary["histogram"]
    one = run("play", "--tree", out, "--target", "NIGHT", "--json")
    assert json.loads(one.stdout)["turns"][0]["guess"] == "FIGHT"
    one_error(run("play", "--tree", out, "--target", "BATCH"), "cannot be the answer after the tree's moves")
    evil = run("evil", "--tree", out, "--json")
    assert evil.exit_code == 0 and json.loads(evil.stdout)[0]["guess"] == "FIGHT"


def test_worst_case_trees_replay_through_verify(tmp_path):
    out = tmp_path / "worst.json"
    made = run("optimal-tree", "--objective", "worst-case", "--answers", FAMILY, "--out", out, "--json")
    assert made.exit_code == 0, made.output
    depth = json.loads(made.stdout)["worst"]
    checked = run("verify", out, "--json")
    assert checked.exit_code == 0, checked.output
    assert json.loads(checked.stdout)["summary"]["worst"] == depth
    tighter = run("verify", out, "--max-guesses", str(depth - 1))
    assert tighter.exit_code == 1 and f"more than {depth - 1} guesses" in tighter.stdout


# --- positions: one --state option, old spellings kept -------------------------------------------

POSITIONS = [
    (["optimal-tree", *SMALL, "--state", ""], "--state"),
    (["optimal-tree", *SMALL, "--state", " , "], "--state"),
    (["rank", *SMALL, "--state", ""], "--state"),
    (["rank", *SMALL, "--after", ""], "--state"),
    (["solve", *SMALL, "--history", ""], "--state"),
    (["analyze", *SMALL, "--state", ""], "--state"),
    (["analyze", *SMALL], "give the moves"),
    (["analyze", *SMALL, "BATCH:GGGGG", "--state", "BATCH:GGGGG"], "give the moves once"),
    (["worst-case", "--answers", FAMILY, "--state", ""], "--state"),
    (["rank", *SMALL, "--state", "QZQZQ:....."], "unknown word QZQZQ"),
    (["rank", *SMALL, "--after", "BATCH:..."], "malformed reply"),
    (["optimal-tree", *SMALL, "--state", "BATCH"], "expected GUESS:REPLY"),
    (["solve", *SMALL, "--state", "BATCH:GGGGG,CATCH:....."], "impossible"),
    (["rank", "--state", "SALET:....,"], "malformed reply"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "fragment"), POSITIONS)
def test_bad_positions(args, fragment):
    one_error(run(*args), fragment)


def test_every_spelling_of_a_position_gives_the_same_answer():
    state = "BATCH:.GGGG"
    got = [run(*args).stdout for args in (
        ["rank", *SMALL, "--state", state, "--json"], ["rank", *SMALL, "--after", state, "--json"],
        ["rank", *SMALL, f"--after={state}", "--json"])]
    assert got[0] and got[0] == got[1] == got[2]
    solved = [run(*args).stdout for args in (["solve", *SMALL, "--state", state, "--json"],
                                             ["solve", *SMALL, "--history", state, "--json"])]
    assert solved[0] and solved[0] == solved[1]
    analysed = [run(*args).stdout for args in (["analyze", *SMALL, "--state", state, "--json"],
                                               ["analyze", *SMALL, state, "--json"])]
    assert analysed[0] and analysed[0] == analysed[1]


# --- names: case-insensitive, unknown ones named ---------------------------------------------------

NAMES = [
    (["rank", "--game", "chess"], "unknown game"),
    (["rank", *SMALL, "--metric", "luck"], "unknown metric"),
    (["tree", *SMALL, "--mode", "easy"], "unknown mode"),
    (["rank", *SMALL, "--backend", "quantum"], "unknown backend"),
    (["optimal-tree", *SMALL, "--objective", "luck"], "unknown objective"),
    (["rank", *SMALL, "--prior", "zipf"], "unknown prior"),
    (["rank", *SMALL, "--by", "vibes"], "--by takes guess or tree"),
    (["preset", "--search", *SMALL, "--pool", "everything"], "unknown pool"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "fragment"), NAMES)
def test_unknown_names(args, fragment):
    one_error(run(*args), fragment)


def test_names_are_case_insensitive():
    for lower, upper in (
        (["rank", *SMALL, "--top", "2", "--json"],
         ["rank", *SMALL, "--top", "2", "--json", "--game", "WORDLE", "--metric", "Entropy",
          "--backend", "CPU", "--prior", "Uniform", "--by", "GUESS", "--mode", "Normal"]),
        (["tree", *SMALL, "--mode", "hard", "--json"], ["tree", *SMALL, "--mode", "HARD", "--json"]),
        (["optimal-tree", *ALLOWED, "--json", "--quiet"], ["optimal-tree", *ALLOWED, "--json", "--quiet",
                                                           "--objective", "TOTAL", "--candidates", "ALL"]),
    ):  # fmt: skip
        a, b = run(*lower), run(*upper)
        assert a.exit_code == b.exit_code == 0, b.output
        def kept(data):  # without timings and work counts, at any depth
            if isinstance(data, dict):
                return {k: kept(v) for k, v in data.items() if k not in ("seconds", "nodes", "phases")}
            return data

        assert kept(json.loads(a.stdout)) == kept(json.loads(b.stdout))


def test_tree_format_names_are_case_insensitive(tmp_path):
    lower, upper = tmp_path / "a", tmp_path / "b"
    for out, fmt in ((lower, "text"), (upper, "TEXT")):
        r = run("tree", *SMALL, "--start", "BATCH", "--out", str(out), "--format", fmt)
        assert r.exit_code == 0, r.output
    assert upper.read_text() == lower.read_text() and upper.read_text().startswith("batch ")


# --- run directories -------------------------------------------------------------------------------

def test_run_directories(tmp_path, monkeypatch):
    rank = ["optimal-tree", "--rank", *SMALL, "--words", "BATCH", "--workers", "0", "--quiet"]
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    db = sqlite3.connect(foreign / "run.sqlite")
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.execute("INSERT INTO recipes VALUES ('soup')")
    db.commit()
    db.close()
    before = (foreign / "run.sqlite").read_bytes()
    one_error(run(*rank, "--run-dir", foreign), "another program's database")
    assert (foreign / "run.sqlite").read_bytes() == before and files_in(foreign) == ["run.sqlite"]
    (tmp_path / "not-sqlite").mkdir()
    (tmp_path / "not-sqlite" / "run.sqlite").write_text("hello")
    one_error(run(*rank, "--run-dir", tmp_path / "not-sqlite"), "not a SQLite database")
    (tmp_path / "a-file").write_text("")
    one_error(run(*rank, "--run-dir", tmp_path / "a-file"), "is a file, not a folder")
    one_error(run(*rank, "--run-dir", "/proc/gpusolve-runs"), "cannot open run directory")
    good = tmp_path / "good"
    assert run(*rank, "--run-dir", good).exit_code == 0
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **k: not (mode & os.W_OK and Path(p) == good)
                        and real_access(p, mode))
    one_error(run(*rank, "--run-dir", good), f"run directory {good} is read-only")


# --- documented forms that were refused ------------------------------------------------------------

def test_documented_forms_work():
    assert run("rank", *SMALL, "--metric", "splits", "--top", "3").exit_code == 0
    splits = run("rank", *SMALL, "--metric", "splits", "--top", "3", "--json").stdout
    assert splits == run("rank", *SMALL, "--metric", "branches", "--top", "3", "--json").stdout
    for reply in ("2,1", "2B1W", "21", "2 1"):
        result = run("solve", "--game", "mastermind", "--state", f"1122:{reply}", "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["remaining"] == 32


def test_mastermind_turns_typed_with_a_comma():
    result = runner.invoke(app, ["solve", "--game", "mastermind"], input="1122 2,1\nquit\n")
    assert result.exit_code == 0 and "32 answers left" in result.stdout


def test_hard_mode_refusals_name_the_letter():
    result = runner.invoke(app, ["solve", "--mode", "hard"], input="SALET G....\nCRONY .....\nquit\n")
    assert "CRONY breaks hard mode: letter 1 must be S (green in SALET)" in result.stdout
    result = runner.invoke(app, ["solve", "--mode", "hard"], input="SALET .Y...\nCRONY .....\nquit\n")
    assert "CRONY breaks hard mode: it must contain A (revealed by SALET)" in result.stdout


def test_jotto_anagrams():
    solved = run("solve", "--game", "jotto", "--state", "TARES:5", "--json")
    assert solved.exit_code == 0, solved.output
    advice = json.loads(solved.stdout)
    assert advice["method"] == "letters found" and advice["best"] is None
    assert {"STARE", "TARES", "ASTER"} <= set(advice["answers"])
    assert advice["remaining"] == len(advice["answers"])
    stare = run("solve", "--game", "jotto", "--state", "STARE:2", "--json")
    assert stare.exit_code == 0, stare.output
    assert "note: STARE is played as TARES" in stare.stderr
    assert stare.stdout == run("solve", "--game", "jotto", "--state", "TARES:2", "--json").stdout
    text = run("solve", "--game", "jotto", "--state", "TARES:5")
    assert "solved" not in text.stdout and "STARE" in text.stdout


def test_candidates_say_what_was_proven():
    some = json.loads(run("optimal-tree", *ALLOWED, "--candidates", "3", "--json", "--quiet").stdout)
    every = json.loads(run("optimal-tree", *ALLOWED, "--json", "--quiet").stdout)
    given = json.loads(run("optimal-tree", *ALLOWED, "--start", "BATCH", "--json", "--quiet").stdout)
    assert "not of all" in some["proven_scope"] and "3 candidates" in some["proven_scope"]
    assert every["proven_scope"] == "the best of all first guesses"
    assert "given, not chosen" in given["proven_scope"]
    text = " ".join(run("optimal-tree", *ALLOWED, "--candidates", "3", "--quiet").stdout.split())
    assert "proven: yes, " in text
    assert "of the 3 candidates tried (the best by size bound), not of all" in text


def test_piped_tables_are_complete():
    result = run("rank", "--top", "2")
    header = next(line for line in result.stdout.splitlines() if "expectation" in line)
    assert "expected wins" in header and "…" not in result.stdout


def test_analyze_without_wordfreq(monkeypatch):
    monkeypatch.setitem(sys.modules, "wordfreq", None)  # import fails as on a plain install
    result = run("analyze", "--state", "SALET:.....,CRONY:.Y..G", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # valid JSON: no NaN
    assert data["remaining"] and all(r["zipf"] is None for r in data["remaining"])
    text = run("analyze", "--state", "SALET:.....,CRONY:.Y..G")
    assert "pip install 'gpusolve[freq]'" in text.stdout


def test_exact_ranking_without_dask(monkeypatch, tmp_path):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "distributed"
                        else real(name, *a))
    result = run("optimal-tree", "--rank", *SMALL, "--words", "BATCH,FIGHT", "--run-dir", tmp_path / "r",
                 "--json", "--quiet")
    assert result.exit_code == 0, result.output
    assert "note: dask is not installed: running in this process" in result.stderr
    assert sorted(r["word"] for r in json.loads(result.stdout)["results"]) == ["BATCH", "FIGHT"]


def test_an_unwritable_cache_folder_is_not_reported_as_the_cache(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("GPUSOLVE_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    result = run("patterns", "--game", "mastermind", "--length", "2", "--json")
    assert result.exit_code == 0, result.output
    assert "note: the cache folder" in result.stderr and "cannot be written" in result.stderr
    cache = json.loads(result.stdout)["cache"]
    assert cache and not cache.startswith(str(blocker)) and Path(cache).is_file()


# --- Ctrl-C: exit 130, what was kept, no traceback (real processes) -----------------------------

def _interrupted(script: str, *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    """Run the CLI in a process in which ``script`` arranges a SIGINT at a chosen moment."""
    code = textwrap.dedent(script) + textwrap.dedent(f"""
        import sys
        from gpusolve.cli import main
        sys.argv = ["gpusolve", *{list(args)!r}]
        main()
    """)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                          cwd=AWAY, env={**os.environ, "COLUMNS": "200"}, preexec_fn=hear_ctrl_c)


def hear_ctrl_c() -> None:
    """Let the child hear SIGINT even when the tests run in a background job (which ignores it,
    and a child inherits that: Python then never raises KeyboardInterrupt)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


SIGINT_IN_A_BUCKET = """
    import os, signal, time
    from gpusolve.search import optimal
    run = optimal._Search._run
    def _run(self, *a, **k):  # Ctrl-C while the main thread waits on the workers
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.2)
        return run(self, *a, **k)
    optimal._Search._run = _run
"""


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize(("search", "said"), [
    (["--start", "BATCH"], "does not resume"),  # one start word: nothing to resume
    ([], "run the same command again to resume"),  # the whole proof keeps its run directory
])
def test_ctrl_c_during_an_exact_search(tmp_path, workers, search, said):
    done = _interrupted(SIGINT_IN_A_BUCKET, "optimal-tree", *SMALL, *search, "--workers", workers,
                        "--out", str(tmp_path / "t.json"), "--run-dir", str(tmp_path / "run"))
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and "release unlocked lock" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("interrupted: ")
    assert said in done.stderr and "interrupted: interrupted" not in done.stderr
    assert all(not p.name.endswith(".tmp") for p in tmp_path.iterdir())


SIGINT_AFTER_ONE_BATCH = """
    import os, signal
    from gpusolve.runs import fanout
    batch = fanout.run_batch
    calls = []
    def run_batch(*a, **k):
        calls.append(1)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGINT)
        return batch(*a, **k)
    fanout.run_batch = run_batch
"""


def test_ctrl_c_during_a_ranking_keeps_the_finished_start_words(tmp_path):
    args = ["optimal-tree", "--rank", *SMALL, "--candidates", "3", "--workers", "0", "--batch", "1",
            "--run-dir", str(tmp_path / "run"), "--json"]
    done = _interrupted(SIGINT_AFTER_ONE_BATCH, *args)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("interrupted: 1 of ") and "run the same command again to resume" in last
    resumed = _interrupted("", *args)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["computed"] == len(json.loads(resumed.stdout)["results"]) - 1


SIGINT_IN_PRESET_BOUNDS = """
    import os, signal
    from gpusolve.kernels import presets_cpu
    bounds = presets_cpu.set_bounds
    def set_bounds(*a):
        os.kill(os.getpid(), signal.SIGINT)
        return bounds(*a)
    presets_cpu.set_bounds = set_bounds
"""


SIGINT_IN_A_BATTLE = """
    import os, signal
    from gpusolve import war
    battle = war.play_battle
    def play_battle(P):
        os.kill(os.getpid(), signal.SIGINT)
        return battle(P)
    war.play_battle = play_battle
"""


@pytest.mark.parametrize(("script", "args"), [
    (SIGINT_IN_PRESET_BOUNDS, ["preset", "--search", "--words", "2"]),
    (SIGINT_IN_A_BATTLE, ["war", "sweep", "--ranks", "13", "--suits", "8"]),
])
def test_ctrl_c_elsewhere_is_a_clean_exit(script, args):
    done = _interrupted(script, *args)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last == "interrupted: nothing was kept; run the command again to start over"


def test_errors_in_a_real_process():
    """The exit codes and the single stderr line, as a shell sees them."""
    for args, fragment in [(["optimal-tree", *SMALL, "--workers", "0"], "--workers"),
                           (["verify", "/nonexistent.json"], "does not exist"),
                           (["rank", "--top", "-5"], "--top")]:
        done = _interrupted("", *args)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ") and fragment in done.stderr


def test_output_into_a_closed_pipe_is_quiet():
    code = "import sys; from gpusolve.cli import main; sys.argv = ['gpusolve', 'rank', '--top', '99']; main()"
    reader = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              cwd=AWAY)
    reader.stdout.readline()
    reader.stdout.close()  # like `gpusolve rank | head -1`
    assert "Traceback" not in reader.stderr.read().decode()
    assert reader.wait(timeout=120) in (0, 1)


def test_ctrl_c_to_the_whole_terminal_group_during_a_cluster_run(tmp_path):
    """A terminal's Ctrl-C reaches the Dask workers too: one clean line, exit 130, results kept."""
    import signal
    import time

    run_dir = tmp_path / "run"
    args = ["rank", "--by", "tree", "--task", "reference-greedy", "--answers", "answers", "--guesses",
            "answers", "--workers", "2", "--batch", "1", "--run-dir", str(run_dir), "--quiet"]
    code = f"import sys; from gpusolve.cli import main; sys.argv = ['gpusolve', *{args!r}]; main()"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=AWAY, text=True, start_new_session=True, preexec_fn=hear_ctrl_c)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:  # until a start word is kept
        time.sleep(0.5)
        try:
            with sqlite3.connect(f"file:{run_dir / 'run.sqlite'}?mode=ro", uri=True) as db:
                if db.execute("SELECT count(*) FROM results").fetchone()[0]:
                    break
        except sqlite3.Error:
            continue
    os.killpg(proc.pid, signal.SIGINT)
    err = proc.communicate(timeout=120)[1]
    assert proc.returncode == 130, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("interrupted: ") and "run the same command" in lines[0]


def test_the_first_run_says_it_is_compiling(tmp_path):
    """An empty numba cache: one note on stderr while the kernels compile, none the next time."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    code = ("import sys; from gpusolve.cli import main; "
            "sys.argv = ['gpusolve', 'war', 'lengths', '--games', '10', '--json']; main()")
    first, again = (subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                                   cwd=AWAY,
                                   timeout=300) for _ in range(2))
    assert first.returncode == again.returncode == 0, first.stderr
    assert first.stderr.startswith("note: compiling the numba kernels") and first.stderr.count("\n") == 1
    assert again.stderr == ""
