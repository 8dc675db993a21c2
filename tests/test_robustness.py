"""Robustness and first contact (issue 29): positions at the end of a game, interruptions by
signal, shared run directories, damaged stores, broken outputs, huge lists, and output that says
what it means. Each test is named after what it protects."""

from __future__ import annotations

import errno
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_bad_inputs import (
    AWAY,
    FAMILY,
    SIGINT_AFTER_ONE_BATCH,
    SIGINT_IN_A_BUCKET,
    _interrupted,
    one_error,
    run,
)

from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import make_game

SMALL = ["--guesses", FAMILY, "--answers", FAMILY]
WORDLE = make_game("wordle")


def reply(guess: str, answer: str) -> str:
    return WORDLE.format_reply(WORDLE.reply(guess, answer))


# --- the end of a game: one answer left, or already won -------------------------------------------

def test_one_answer_left_is_guessed_in_one():
    state = f"SALET:{reply('SALET', 'POOCH')},CRONY:{reply('CRONY', 'POOCH')}"
    result = run("optimal-tree", "--state", state, "--json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["first_guess"], data["total"], data["proven"]) == ("POOCH", 1, True)
    assert data["histogram"] == {"3": 1}


def test_one_answer_left_after_a_given_other_guess_takes_two():
    state = f"SALET:{reply('SALET', 'POOCH')},CRONY:{reply('CRONY', 'POOCH')}"
    result = run("optimal-tree", "--state", state, "--start", "CRANE", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["first_guess"], data["total"], data["histogram"]) == ("CRANE", 2, {"4": 1})


def test_a_won_game_has_nothing_left_to_guess():
    result = run("optimal-tree", "--state", "CRANE:GGGGG", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["first_guess"], data["total"], data["proven"]) == (None, 0, True)
    assert "note: the game is already won: CRANE" in result.stderr
    text = run("optimal-tree", "--state", "CRANE:GGGGG")
    assert "nothing left to guess" in text.stdout and "internal error" not in text.output


def test_nothing_follows_a_won_game(tmp_path):
    one_error(run("rank", "--state", "CRANE:GGGGG"), "already won: CRANE (move 1) is the answer")
    one_error(run("worst-case", "--state", "CRANE:GGGGG"), "already won")
    one_error(run("optimal-tree", "--state", "CRANE:GGGGG", "--out", tmp_path / "t.json"), "no tree to write")
    one_error(run("optimal-tree", "--state", "CRANE:GGGGG,CRANE:GGGGG"), "move 1 (CRANE) won the game")


def test_hard_mode_positions_keep_the_rule():
    for command in ("rank", "optimal-tree", "solve", "worst-case"):
        one_error(run(command, "--mode", "hard", "--state", "SALET:G....,CRONY:....."),
                  "move 2: CRONY breaks hard mode: letter 1 must be S (green in SALET)")
    one_error(run("rank", "--mode", "consistent", "--state", "SALET:....."), "SALET is not a possible answer")


def test_hard_mode_ranks_only_the_guesses_it_allows():
    state = "SALET:.Y..G"
    hard = json.loads(run("rank", "--mode", "hard", "--state", state, "--top", "100000", "--json").stdout)
    normal = json.loads(run("rank", "--state", state, "--top", "100000", "--json").stdout)
    assert 0 < len(hard) < len(normal)
    assert all("A" in s["word"] and s["word"].endswith("T") for s in hard)


# --- advice and analysis say what they mean ---------------------------------------------------------

def test_solve_opens_with_the_proven_opener():
    for lists, word, total in (([], "SALET", "7,897"), (["--lists", "latest"], "TARSE", "11,219"),
                               (["--lists", "original"], "SALET", "7,920")):
        advice = json.loads(run("solve", *lists, "--state", "SALET:.....", "--json").stdout)
        assert advice["best"] != word or "proven" not in advice["method"]
        result = run("solve", *lists, input="quit\n")
        assert f"best next guess: {word} (proven best opener" in " ".join(result.stdout.split())
        assert total in result.stdout


def test_a_changed_list_claims_no_proof(tmp_path):
    from gpusolve.core.words import read_words

    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(read_words("answers", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")[1:]) + "\n")
    result = run("solve", "--answers", answers, input="quit\n")
    assert "greedy by entropy" in result.stdout and "proven" not in result.stdout
    hard = run("solve", "--mode", "hard", input="quit\n")
    assert "proven" not in hard.stdout
    weighted = run("solve", "--prior", "frequency", input="quit\n")
    assert weighted.exit_code == 0 and "proven" not in weighted.stdout


def test_the_proven_openers_match_the_bundled_lists():
    from gpusolve.core.eras import era
    from gpusolve.core.games import make_game as game
    from gpusolve.core.patterns import pattern_matrix
    from gpusolve.play.openers import PROVEN, proven_opener

    for opener in PROVEN.values():
        lists = era(opener.lists)
        pm = pattern_matrix(game("wordle"), lists.guesses, lists.answers, "cpu")
        assert proven_opener(pm, "normal") == opener
        assert pm.shape == (opener.guesses, opener.answers)


def test_advice_names_no_module():
    result = run("solve", "--state", "SALET:.....,CRONY:.Y..G")
    assert "exact: 2.000 more guesses on average" in result.stdout
    assert "gpusolve." not in result.output


def test_analyzing_a_won_game():
    state = f"SALET:{reply('SALET', 'POOCH')},CRONY:{reply('CRONY', 'POOCH')},POOCH:GGGGG"
    result = run("analyze", "--state", state, "--json")
    assert result.exit_code == 0, result.output
    last = json.loads(result.stdout)["moves"][-1]
    assert (last["best"], last["cost"], last["luck"], last["luck_exact"]) == ("POOCH", 0, 0, True)
    assert (last["answers_before"], last["answers_after"]) == (1, 0)
    text = run("analyze", "--state", state).stdout
    assert "solved: POOCH in 3 guesses" in text
    assert "AAHED" not in text and "50%" not in text and "answers left" not in text
    left = run("analyze", "--state", state.rsplit(",", 1)[0]).stdout
    assert "1 answer left" in left and "1 answers" not in left


# --- a scheduler address: checked before any work, never a traceback --------------------------------

@pytest.mark.parametrize(("address", "fragment"), [
    ("foo", "needs a host and a port"),
    ("tcp://foo", "needs a host and a port"),
    ("http://127.0.0.1:8786", "scheme http:// is not a Dask one"),
    ("tcp://127.0.0.1:99999", "port '99999' is not a number"),
    ("tcp://127.0.0.1:port", "port 'port' is not a number"),
    ("", "needs a host and a port"),
])
def test_malformed_scheduler_addresses(tmp_path, address, fragment):
    for command in (["optimal-tree", "--rank", "--words", "BATCH"], ["rank", "--by", "tree"]):
        one_error(run(*command, *SMALL, "--scheduler", address, "--run-dir", tmp_path / "r"), fragment)
    assert not (tmp_path / "r").exists()


def test_an_unreachable_scheduler(tmp_path, monkeypatch):
    from gpusolve.runs import fanout

    monkeypatch.setattr(fanout, "CONNECT_TIMEOUT", "1s")
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    one_error(run("optimal-tree", "--rank", *SMALL, "--words", "BATCH", "--run-dir", tmp_path / "r",
                  "--scheduler", address), f"cannot reach the Dask scheduler at {address}")


# --- SIGTERM (kill, systemd, cluster schedulers): as Ctrl-C, exit 143 ---------------------------------

def _terminated(done) -> str:
    """Assert a SIGTERM'd run ended as a Ctrl-C'd one does, with exit 143; return its last line."""
    assert done.returncode == 143, done.stderr
    assert "Traceback" not in done.stderr and "leaked" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("interrupted: ")
    return last


@pytest.mark.parametrize(("search", "said"), [
    (["--start", "BATCH"], "does not resume"),
    ([], "run the same command again to resume"),
])
def test_sigterm_during_an_exact_search(tmp_path, search, said):
    script = SIGINT_IN_A_BUCKET.replace("SIGINT", "SIGTERM")
    done = _interrupted(script, "optimal-tree", *SMALL, *search, "--run-dir", str(tmp_path / "run"))
    assert said in _terminated(done)


def test_sigterm_during_a_ranking_keeps_the_finished_start_words(tmp_path):
    args = ["optimal-tree", "--rank", *SMALL, "--candidates", "3", "--workers", "0", "--batch", "1",
            "--run-dir", str(tmp_path / "run"), "--json"]
    last = _terminated(_interrupted(SIGINT_AFTER_ONE_BATCH.replace("SIGINT", "SIGTERM"), *args))
    assert last.startswith("interrupted: 1 of ") and "run the same command again to resume" in last


def test_sigterm_to_the_driver_of_a_local_cluster(tmp_path):
    """Only the driver hears it (kill PID): it stops the workers and the cluster and says what it kept."""
    run_dir = tmp_path / "run"
    args = ["rank", "--by", "tree", "--task", "reference-greedy", "--answers", "answers", "--guesses",
            "answers", "--workers", "2", "--batch", "1", "--run-dir", str(run_dir), "--quiet"]
    code = f"import sys; from gpusolve.cli import main; sys.argv = ['gpusolve', *{args!r}]; main()"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=AWAY, text=True)
    _wait_for_a_result(run_dir, proc)
    proc.terminate()
    _, err = proc.communicate(timeout=120)
    done = subprocess.CompletedProcess(args, proc.returncode, "", err)
    assert "run the same command again to resume" in _terminated(done)


def _wait_for_a_result(run_dir: Path, proc: subprocess.Popen, seconds: float = 240) -> None:
    """Wait until the run store holds a finished unit (or the process ends)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.5)
        try:
            with sqlite3.connect(f"file:{run_dir / 'run.sqlite'}?mode=ro", uri=True) as db:
                if db.execute("SELECT count(*) FROM results").fetchone()[0]:
                    return
        except sqlite3.Error:
            continue


# --- run directories: one process at a time, damage and full disks said as such ----------------------

def ranking(words: str = "BATCH,CATCH") -> list[str]:
    return ["optimal-tree", "--rank", *SMALL, "--words", words, "--workers", "0", "--quiet"]


RANK = ranking()


def test_a_run_directory_in_use_is_refused(tmp_path):
    from gpusolve.runs.runstore import RunLock

    (tmp_path / "run").mkdir()
    held = RunLock(tmp_path / "run")  # as another process holds it (flock: per open file)
    try:
        one_error(run(*RANK, "--run-dir", tmp_path / "run"), f"run directory {tmp_path / 'run'} is in use "
                  f"by process {os.getpid()} on {socket.gethostname()}")
    finally:
        held.release()
    assert run(*RANK, "--run-dir", tmp_path / "run").exit_code == 0


def test_a_second_process_on_a_run_directory_is_refused(tmp_path):
    code = ("import time; from gpusolve.runs.runstore import RunStore; "
            f"s = RunStore({str(tmp_path / 'run')!r}, {{'task': 't'}}); print('held', flush=True); "
            "time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=AWAY)
    try:
        assert holder.stdout.readline().strip() == "held"
        one_error(run(*RANK, "--run-dir", tmp_path / "run"), f"is in use by process {holder.pid} on ")
    finally:
        holder.kill()
        holder.wait()
    refused = run(*RANK, "--run-dir", tmp_path / "run")  # its lock went with it; its parameters stay
    one_error(refused, "belongs to a run with other parameters")


def test_a_stale_lock_is_taken_over(tmp_path):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "run.lock").write_text(f"999999999 {socket.gethostname()}\n")  # a process long gone
    result = run(*RANK, "--run-dir", tmp_path / "run")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "run" / "run.lock").read_text() == f"{os.getpid()} {socket.gethostname()}\n"


def test_an_empty_run_store_is_not_started_over(tmp_path):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "run.sqlite").write_bytes(b"")
    one_error(run(*RANK, "--run-dir", tmp_path / "run"), "is empty (0 bytes): the run it held is lost")
    assert (tmp_path / "run" / "run.sqlite").stat().st_size == 0
    message = one_error(run(*RANK, "--run-dir", tmp_path / "run"))
    assert f"rm {tmp_path / 'run' / 'run.sqlite'}" in message


def _full_disk(monkeypatch) -> None:
    """Make every SQLite database this process opens as full as a full disk: no page may be added
    (SQLite then says 'database or disk is full', as it does when the disk is)."""
    connect = sqlite3.connect

    def full(*args, **kwargs):
        db = connect(*args, **kwargs)
        db.execute("PRAGMA max_page_count = 1")  # never below the pages it has
        return db

    monkeypatch.setattr(sqlite3, "connect", full)


def test_a_full_disk_is_said_to_be_full(tmp_path, monkeypatch):
    from gpusolve.runs.runstore import RunStore

    with RunStore(tmp_path / "run", {"task": "t"}) as store:
        store.save([("SALET", 0, {"total": 7897})])
    _full_disk(monkeypatch)
    with RunStore(tmp_path / "run", {"task": "t"}) as store, pytest.raises(GpusolveError) as e:
        store.save([(f"W{i}", i, {"total": i, "text": "x" * 100}) for i in range(300)])
    assert str(e.value).startswith(f"the disk holding run directory {tmp_path / 'run'} is full")
    assert "not a readable run store" not in str(e.value)
    monkeypatch.undo()
    with RunStore(tmp_path / "run", {"task": "t"}) as store:
        assert store.results() == {"SALET": {"total": 7897}}  # what was in it is kept


def test_a_new_run_directory_on_a_full_disk(tmp_path, monkeypatch):
    _full_disk(monkeypatch)
    one_error(run(*RANK, "--run-dir", tmp_path / "new"), f"the disk holding run directory {tmp_path / 'new'} "
              "is full")
    assert not (tmp_path / "new" / "run.sqlite").exists()  # no empty store left to refuse next time


def test_an_io_error_on_a_disk_with_no_space_left_is_a_full_disk(tmp_path, monkeypatch):
    from gpusolve.runs import runstore

    error = sqlite3.OperationalError("disk I/O error")
    assert not runstore._disk_full(error, tmp_path)
    monkeypatch.setattr(os, "statvfs", lambda path: os.statvfs_result((4096,) * 3 + (0,) * 7))
    assert runstore._disk_full(error, tmp_path)


def test_no_space_left_anywhere_is_one_line(tmp_path, monkeypatch):
    from gpusolve.core import treefiles

    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "t.json"))

    monkeypatch.setattr(treefiles, "save_tree", no_space)
    one_error(run("optimal-tree", *SMALL, "--start", "BATCH", "--max-guesses", "15", "--out",
                  tmp_path / "t.json"), f"cannot write {tmp_path / 't.json'}: no space left on the device")


# --- output: a full device, a terminal that cannot show a character, a closed pipe -----------------

def _cli(*args: str, env: dict | None = None, stdout=subprocess.PIPE, input: str | None = None
         ) -> subprocess.CompletedProcess:
    """Run the command line in a real process (from another folder)."""
    code = f"import sys; from gpusolve.cli import main; sys.argv = ['gpusolve', *{list(args)!r}]; main()"
    return subprocess.run([sys.executable, "-c", code], stdout=stdout, stderr=subprocess.PIPE, text=True,
                          cwd=AWAY, env={**os.environ, **(env or {})}, timeout=300, input=input)


@pytest.mark.parametrize("args", [["rank", "--top", "3"], ["rank", "--top", "3", "--json"], ["--help"],
                                  ["lists"], ["tree", *SMALL]])
def test_output_to_a_full_device(args):
    with open("/dev/full", "w") as full:
        done = _cli(*args, stdout=full)
    assert done.returncode == 2, done.stderr
    said = [line for line in done.stderr.splitlines() if not line.startswith("note: compiling")]
    assert said == ["error: cannot write the output: no space left on the device (No space left on "
                    "device); free some space and run the command again"]


def test_a_terminal_that_cannot_show_a_character():
    done = _cli("tree", *SMALL, "--start", "BATCH", env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "mean: 5.00 ? 2.24" in done.stdout and "?7:87%" in done.stdout  # ± and ≤ shown as ?


@pytest.mark.parametrize("args", [["lists"], ["--help"], ["tree", *SMALL, "--show", "9"]])
def test_output_into_a_closed_pipe(args):
    code = f"import sys; from gpusolve.cli import main; sys.argv = ['gpusolve', *{args!r}]; main()"
    reader = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              cwd=AWAY, bufsize=0)
    reader.stdout.read(10)
    reader.stdout.close()  # like `gpusolve lists | head -c 10`
    assert reader.stderr.read().decode() == ""
    assert reader.wait(timeout=120) in (0, 1)


# --- plain text ----------------------------------------------------------------------------------------

def test_tree_names_its_first_guess_without_quotes():
    result = run("tree", *SMALL, "--start", "BATCH")
    assert "first guess: BATCH\n" in result.stdout


def test_piped_tables_never_wrap_even_where_colour_is_forced():
    done = _cli("lists", env={"COLUMNS": "80", "FORCE_COLOR": "1", "TTY_COMPATIBLE": "1"})
    era = next(line for line in done.stdout.splitlines() if "nyt-2023-04" in line)
    assert "WordleBot's 3,160 possible answers" in era


def test_doctor_says_skipped_once():
    result = run("doctor")
    assert all(line.count("skipped") <= 1 for line in result.stdout.splitlines()), result.stdout


# --- trees, start words and word files as people write them ---------------------------------------

def test_a_tree_played_on_other_lists_names_the_reply(tmp_path):
    out = tmp_path / "t.json"
    assert run("tree", *SMALL, "--out", out).exit_code == 0
    others = ["FJORD", "NYMPH", "QUEEN", "WHOSE"]
    guesses, answers = tmp_path / "guesses.txt", tmp_path / "answers.txt"
    guesses.write_text(Path(FAMILY).read_text() + "\n".join(others) + "\n")
    answers.write_text("\n".join(others) + "\n")
    message = one_error(run("play", "--tree", out, "--all", "--guesses", guesses, "--answers", answers),
                        "it was not built for these word lists")
    reply_shown = message.split("the reply ", 1)[1].split(" ", 1)[0]
    assert len(reply_shown) == 5 and set(reply_shown) <= set("GY."), message


def test_start_words_count_once(tmp_path):
    result = run("optimal-tree", "--rank", *SMALL, "--words", "BATCH,batch,CATCH, Batch", "--workers", "0",
                 "--run-dir", tmp_path / "r", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [r["word"] for r in data["results"]] == ["BATCH", "CATCH"]
    assert data["candidates"] == data["computed"] == 2


def test_named_start_words_and_candidates_do_not_mix(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("BATCH\n")
    for given in (["--words-file", words], ["--words", "BATCH"]):
        one_error(run("optimal-tree", "--rank", *SMALL, *given, "--candidates", "3"),
                  "--candidates picks the start words by --metric")


def test_files_starting_with_a_byte_order_mark(tmp_path):
    bom = "\ufeff"
    family = Path(FAMILY).read_text()
    listed = tmp_path / "bom.txt"
    listed.write_text(bom + family, encoding="utf-8")
    plain = run("rank", *SMALL, "--json")
    marked = run("rank", "--guesses", listed, "--answers", listed, "--json")
    assert marked.exit_code == 0, marked.output
    assert marked.stdout == plain.stdout
    words = tmp_path / "words.txt"
    words.write_text(bom + "BATCH\nCATCH\n", encoding="utf-8")
    ranked = run("optimal-tree", "--rank", *SMALL, "--words-file", words, "--workers", "0", "--run-dir",
                 tmp_path / "r", "--json", "--quiet")
    assert ranked.exit_code == 0, ranked.output
    tree = tmp_path / "t.json"
    assert run("tree", *SMALL, "--out", tree).exit_code == 0
    tree.write_text(bom + tree.read_text(), encoding="utf-8")
    assert run("verify", tree).exit_code == 0


def test_piped_table_titles_never_wrap(tmp_path):
    result = run("optimal-tree", "--rank", *SMALL, "--words", "BATCH", "--workers", "0", "--run-dir",
                 tmp_path / "r", "--quiet")
    assert "1 start word by exact total (normal mode, 6 guesses) over 15 answers" in result.stdout


def test_one_of_a_thing_is_singular():
    state = f"SALET:{reply('SALET', 'POOCH')},CRONY:{reply('CRONY', 'POOCH')}"
    text = " ".join(run("optimal-tree", "--state", state).stdout.split())
    assert "value: 1 more guess over the 1 answer left" in text
    assert "over 1 answer, by entropy" in " ".join(run("rank", "--state", state, "--top", "1").stdout.split())


def test_the_version():
    import gpusolve

    result = run("--version")
    assert result.exit_code == 0
    version = re.escape(gpusolve.__version__)
    assert re.fullmatch(rf"gpusolve {version}( \(git [0-9a-f]{{12}}\+?\))?\n", result.stdout), result.stdout
    if (Path(gpusolve.__file__).resolve().parents[1] / ".git").exists():  # run from a checkout
        assert "(git " in result.stdout


# --- large lists: what cannot fit is refused before the long build; a long build is foretold --------

def _random_words(path: Path, n: int, keep: list[str] = ()) -> str:
    """Write ``n`` distinct five-letter strings (``keep`` among them) to ``path``; return its name."""
    import random

    rng = random.Random(29)
    words = set(keep)
    while len(words) < n:
        words.add("".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(5)))
    path.write_text("\n".join(sorted(words)) + "\n")
    return str(path)


def test_a_search_too_big_is_refused_before_the_matrix_is_built(tmp_path, monkeypatch):
    from gpusolve.core import limits, patterns

    big = _random_words(tmp_path / "big.txt", 3000)
    monkeypatch.setattr(limits, "available_memory", lambda total=False: 250 * 2**20)  # a small machine

    def built(*args, **kwargs):
        raise AssertionError("the matrix was built before the size was checked")

    monkeypatch.setattr(patterns, "build_codes", built)
    one_error(run("optimal-tree", "--guesses", big, "--answers", big, "--memo-mb", "16"), "needs up to")
    one_error(run("optimal-tree", "--guesses", big, "--answers", big, "--memo-mb", "16", "--start", "AAAAA"),
              "needs up to")


def test_a_long_build_is_foretold_and_shown(tmp_path, monkeypatch):
    from gpusolve.core import patterns
    from gpusolve.core.errors import Note

    guesses = _random_words(tmp_path / "g.txt", 400, Path(FAMILY).read_text().split())
    whole = patterns.pattern_matrix(make_game("wordle"), guesses, FAMILY, "cpu", use_cache=False)
    monkeypatch.setattr(patterns, "BUILD_CHUNK", 15 * 7)  # slices of 7 guess rows
    monkeypatch.setattr(patterns, "NOTE_SECONDS", -1.0)
    heard: list[tuple[int, int]] = []
    with pytest.warns(Note, match="building the pattern matrix of 400 guesses x 15 answers .* takes about"):
        sliced = patterns.pattern_matrix(make_game("wordle"), guesses, FAMILY, "cpu", use_cache=False,
                                         progress=lambda done, total: heard.append((done, total)))
    assert (sliced.codes == whole.codes).all()
    assert [d for d, _ in heard] == [*range(7, 400, 7), 400] and {t for _, t in heard} == {400}
    result = run("patterns", "--guesses", guesses, "--answers", FAMILY)
    assert result.exit_code == 0 and "note: building the pattern matrix of 400 guesses" in result.stderr


def test_a_matrix_is_not_cached_onto_a_full_disk(tmp_path, monkeypatch):
    import shutil

    monkeypatch.setenv("GPUSOLVE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    monkeypatch.setattr(shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(10**9, 10**9, 1000))
    result = run("patterns", *SMALL, "--json")
    assert result.exit_code == 0, result.output
    assert "note: nothing cached" in result.stderr and "free on its disk" in result.stderr
    assert not list(tmp_path.rglob("*.bin"))


# --- the campaign's own finds ------------------------------------------------------------------------

def test_a_device_is_not_read_as_a_file(tmp_path):
    one_error(run("verify", "/dev/zero"), "tree file /dev/zero is a device, not a file")
    one_error(run("play", "--tree", "/dev/zero", "--all"), "is a device, not a file")
    one_error(run("optimal-tree", "--rank", *SMALL, "--words-file", "/dev/zero"),
              "--words-file /dev/zero is a device, not a file")
    tree = tmp_path / "t.json"
    assert run("tree", *SMALL, "--out", tree).exit_code == 0
    piped = _cli("verify", "/dev/stdin", input=tree.read_text())
    assert piped.returncode == 0, piped.stderr  # a pipe is read


def test_one_answer_and_one_guess_are_singular(tmp_path):
    one = tmp_path / "one.txt"
    one.write_text("BATCH\n")
    lists = ["--guesses", one, "--answers", one]
    assert "over 1 answer, 1 guess, normal mode" in run("tree", *lists).stdout
    assert "1 answer (normal mode): 1 guess always suffices" in run("worst-case", *lists).stdout
    assert "pattern matrix 1 guess x 1 answer " in run("patterns", *lists).stdout


@pytest.mark.parametrize("threads", ["0", "-1", "many"])
def test_an_environment_numba_cannot_start_with(threads):
    done = _cli("rank", *SMALL, env={"NUMBA_NUM_THREADS": threads})
    said = f"error: NUMBA_NUM_THREADS={threads!r} is not a number of threads: set it to 1 or more"
    assert done.stderr.splitlines() == [said + ", or unset it"], done.stderr
    assert done.returncode == 2


def test_a_tree_without_free_guesses_says_so():
    assert "normal mode; no free guesses\n" in run("tree", *SMALL, "--free-max", "2").stdout


def test_a_hidden_answer_that_is_no_answer_is_named_so():
    one_error(run("play", "--human", "--target", "AAHED", input="quit\n"), "AAHED: not in the answer list")
