"""Tables of exact start-word totals: the layouts (CSV, the anchor's, JSON) and their provenance,
reading them back, comparing two tables, and the complete ranking as a resumable product (a table
written as it goes, on a stop, and at the end; Ctrl-C, SIGTERM and SIGKILL then a resume give
the straight run's table, no finished start word computed twice)."""

from __future__ import annotations

import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from string import ascii_uppercase

import pytest
from typer.testing import CliRunner
from wordfiles import small_lists

from gpusolve import __version__
from gpusolve.cli import app
from gpusolve.cli.app import git_commit
from gpusolve.core.backend import get_backend
from gpusolve.core.eras import ERAS
from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix
from gpusolve.core.words import read_words
from gpusolve.runs.runstore import DATABASE, read_run
from gpusolve.runs.startrank import rank_exact
from gpusolve.runs.tables import (
    Entry,
    Table,
    TableOutput,
    compare_tables,
    list_names,
    read_table,
    table_of,
    write_table,
)
from gpusolve.runs.units import list_hash, make_job

PINNED = Path(__file__).resolve().parent / "data" / "anchor"
"""Excerpts of the anchor's published tables, unchanged (their provenance: README.md there)."""
ANCHOR = Path("/tmp/anchor")
"""alex1770/wordle's published tables, where a checkout of it is (not part of this repository)."""
needs_anchor = pytest.mark.skipif(not (ANCHOR / "results_easy_nyt20220316").exists(),
                                  reason="no checkout of alex1770/wordle in /tmp/anchor")


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    return small_lists(tmp_path_factory.mktemp("lists"), n_answers=20, n_extra=12)


@pytest.fixture(scope="module")
def pm(lists):
    return pattern_matrix(make_game(), *lists)


def _params(n_guesses: int = 12972, n_answers: int = 2309, mode: str = "normal", **kw) -> dict:
    return {"task": "exact", "game": "wordle", "length": 5, "mode": mode, "max_guesses": 6, "cutoff": None,
            "n_guesses": n_guesses, "n_answers": n_answers, "guesses_hash": "g", "answers_hash": "a", **kw}


RESULTS = {
    "SALET": {"value": 7897, "exact": True, "worst": 5, "histogram": {"2": 90}},
    "REAST": {"value": 7900, "exact": True, "worst": 6},
    "CRATE": {"value": 7902, "exact": True, "worst": 6},
    "TRACE": {"value": 7902, "exact": True, "worst": 6},  # a tie: ordered by word
    "QAJAQ": {"value": None, "exact": True},  # impossible: last
    "ZOWEE": {"value": None, "exact": True},
}


def _lines(table: Table) -> list[tuple]:
    return [(e.word, e.total, e.settled) for e in table.entries]


# --- layouts ------------------------------------------------------------------------------------

def test_a_table_is_sorted_as_the_anchors_and_says_how_complete_it_is():
    table = table_of(_params(n_guesses=10), RESULTS, {"SALET": (1.5, 1.8e9)}, labels={"gpusolve": "x"})
    assert _lines(table) == [("SALET", 7897, "exact"), ("REAST", 7900, "exact"), ("CRATE", 7902, "exact"),
                             ("TRACE", 7902, "exact"), ("QAJAQ", None, "impossible"),
                             ("ZOWEE", None, "impossible")]
    assert table.ranks() == {"SALET": 1, "REAST": 2, "CRATE": 3, "TRACE": 3, "QAJAQ": 5, "ZOWEE": 5}
    p = table.provenance
    assert (p["start_words"], p["finished"], p["missing"], p["complete"]) == (10, 6, 4, False)
    assert p["settled"] == {"exact": 4, "bound": 0, "impossible": 2} and p["gpusolve"] == "x"
    assert p["seconds"] == 1.5 and p["first_finished"] == p["last_finished"] == "2027-01-15T08:00:00Z"
    whole = table_of(_params(n_guesses=6), RESULTS, {})
    assert whole.provenance["complete"] and whole.provenance["missing"] == 0
    some = table_of(_params(), RESULTS, {}, words=["TRACE", "SALET", "ABACK"], asked=3)
    assert _lines(some) == [("SALET", 7897, "exact"), ("TRACE", 7902, "exact")]
    assert some.provenance["asked"] == 3 and some.provenance["finished"] == 2


@pytest.mark.parametrize("layout", ["csv", "json", "anchor"])
def test_every_layout_reads_back_the_same_lines_and_provenance(tmp_path, layout):
    table = table_of(_params(), RESULTS, {w: (0.25, 1.8e9) for w in RESULTS}, labels={"commit": "abc"})
    path = tmp_path / "table"
    files = write_table(table, path, layout)
    assert files == ([path, tmp_path / "table.json"] if layout == "anchor" else [path])
    back = read_table(path)
    assert _lines(back) == _lines(table)
    assert back.provenance == json.loads(json.dumps(table.provenance))
    if layout != "anchor":
        assert [e.seconds for e in back.entries] == [0.25] * len(RESULTS)
        assert [e.worst for e in back.entries] == [e.worst for e in table.entries]


def test_the_anchor_layout_is_the_anchors_line_for_line(tmp_path):
    table = table_of(_params(), RESULTS, {})
    write_table(table, tmp_path / "results", "anchor")
    assert (tmp_path / "results").read_text().splitlines() == [
        "salet 3.4201 7897", "reast 3.4214 7900", "crate 3.4223 7902", "trace 3.4223 7902",
        "qajaq Infinity 1000000000", "zowee Infinity 1000000000"]


def test_the_anchor_layout_refuses_bounds_and_the_csv_marks_them(tmp_path):
    bounded = {**RESULTS, "RAISE": {"value": 7950, "exact": False}}
    table = table_of(_params(cutoff=7950), bounded, {})
    assert _lines(table)[4] == ("RAISE", 7950, "bound")
    with pytest.raises(GpusolveError, match="exact totals only"):
        write_table(table, tmp_path / "results", "anchor")
    with pytest.raises(GpusolveError, match="drop --cutoff"):
        TableOutput(tmp_path / "results.txt", "anchor").check(7950)
    write_table(table, tmp_path / "t.csv", "csv")
    rows = [line for line in (tmp_path / "t.csv").read_text().splitlines() if not line.startswith("#")]
    assert rows[0] == "rank,word,total,mean,worst,settled,seconds"
    assert rows[5] == "5,RAISE,7950,3.443049,,bound," and rows[6] == "6,QAJAQ,,,,impossible,"
    assert _lines(read_table(tmp_path / "t.csv")) == _lines(table)


@pytest.mark.parametrize("name, mode, n_answers", [("results_easy_nyt20220316", "normal", 2309),
                                                   ("results_hard_nyt20220830", "hard", 2309),
                                                   ("results_easy_nyt20230701", "normal", 3158)])
def test_the_anchor_layout_diffs_clean_against_the_published_tables(tmp_path, name, mode, n_answers):
    published = (PINNED / name).read_text()
    totals = {}  # read as plainly as possible: the oracle is the published text, not read_table
    for line in published.splitlines():
        word, _, total = line.split()
        totals[word.upper()] = {"value": None if total == "1000000000" else int(total), "exact": True}
    assert any(v["value"] is None for v in totals.values()) == (mode == "hard")
    # made from the totals alone, in another order, ours writes the published lines byte for byte
    table = table_of(_params(n_answers=n_answers, mode=mode), dict(reversed(totals.items())), {})
    assert write_table(table, tmp_path / name, "anchor") == [tmp_path / name, tmp_path / f"{name}.json"]
    assert (tmp_path / name).read_text() == published
    back = read_table(PINNED / name)
    assert back.provenance == {} and compare_tables(back, table).identical
    assert {e.word: e.total for e in back.entries} == {w: v["value"] for w, v in totals.items()}


@needs_anchor
def test_the_anchors_published_tables_read_back_and_write_out_unchanged(tmp_path):
    for path in sorted([*ANCHOR.glob("results_easy_nyt*"), *ANCHOR.glob("results_hard_nyt*")]):
        table = read_table(path)
        text = path.read_text().splitlines()
        assert len(table.entries) == len(text)
        exact = next(e for e in table.entries if e.settled == "exact")
        mean = float(next(line for line in text if line.startswith(exact.word.lower() + " ")).split()[1])
        table.provenance = {"answers": {"words": round(exact.total / mean)}}
        write_table(table, tmp_path / path.name, "anchor")
        ours = (tmp_path / path.name).read_text().splitlines()
        # the published hard tables write an impossible start word's mean as Infinity, but one as
        # 1e9 / 2,309 (433087.9168): the lines differ there only
        differ = [(a, b) for a, b in zip(ours, text) if a != b]
        assert all(a.split()[::2] == b.split()[::2] and b.split()[1] == "433087.9168" for a, b in differ)
        assert len(ours) == len(text)


def test_a_bad_table_is_one_error(tmp_path):
    (tmp_path / "x").write_text("salet 3.4201 7897\nthis is not a line\n")
    with pytest.raises(GpusolveError, match="line 2: not a table line"):
        read_table(tmp_path / "x")
    (tmp_path / "y.csv").write_text("a,b\n1,2\n")
    with pytest.raises(GpusolveError, match="without 'word' and 'total'"):
        read_table(tmp_path / "y.csv")
    (tmp_path / "z").write_text("salet 3.4201 7897\nSALET 3.4201 7897\n")
    with pytest.raises(GpusolveError, match="more than once"):
        read_table(tmp_path / "z")


@pytest.mark.parametrize("name", list(ERAS))
def test_provenance_names_every_era(name):
    def hashed(words):
        return list_hash(read_words(words, ascii_uppercase))

    e = ERAS[name]
    params = _params(guesses_hash=hashed(e.guesses), answers_hash=hashed(e.answers))
    assert list_names(params) == (e.guesses, e.answers, name)
    assert table_of(params, RESULTS, {}).provenance["lists"] == name


def test_provenance_names_the_bundled_lists_and_their_era():
    def hashed(name):
        return list_hash(read_words(name, ascii_uppercase))

    params = _params(guesses_hash=hashed("allowed"), answers_hash=hashed("answers"))
    assert list_names(params) == ("allowed", "answers", "nyt-2022-03")
    assert list_names({**params, "answers_hash": hashed("answers-2315")}) == ("allowed", "answers-2315",
                                                                              "original")
    assert list_names({**params, "answers_hash": "0123"}) == ("allowed", None, None)
    assert table_of(params, RESULTS, {}).provenance["lists"] == "nyt-2022-03"


# --- comparing ----------------------------------------------------------------------------------

def test_compare_reports_every_difference():
    a = Table([Entry("SALET", 7897, "exact"), Entry("REAST", 7900, "exact"), Entry("CRATE", 7902, "exact"),
               Entry("KORAN", 8500, "exact"), Entry("QAJAQ", None, "impossible")])
    same = compare_tables(a, Table(list(a.entries)))
    assert same.identical and not same.moved and same.same_order == 5
    b = Table(sorted([Entry("SALET", 7897, "exact"), Entry("REAST", 7903, "exact"),  # a total differs
                      Entry("CRATE", 7902, "exact"), Entry("QAJAQ", 9000, "bound"),  # consistent
                      Entry("QURAN", 8400, "exact")], key=Entry.key))
    c = compare_tables(a, b)
    assert not c.identical and c.only_a == ["KORAN"] and c.only_b == ["QURAN"] and c.shared == 4
    assert [(d.word, d.consistent) for d in c.differ] == [("REAST", False), ("QAJAQ", True)]
    assert c.moved == [("REAST", 2, 3), ("CRATE", 3, 2)] and c.same_order == 1
    shared = compare_tables(a, b, shared_only=True)
    assert not shared.identical and len(shared.differ) == 2
    trimmed = Table([e for e in b.entries if e.word in ("SALET", "CRATE")])
    assert compare_tables(a, trimmed, shared_only=True).identical
    assert not compare_tables(a, trimmed).identical
    doc = c.as_dict()
    assert doc["differ"][0] == {"word": "REAST", "a": {"total": 7900, "settled": "exact"},
                                "b": {"total": 7903, "settled": "exact"}, "consistent": False}
    assert doc["contradictions"] == 1 and doc["ranks"]["moved"] == len(c.moved)


def test_cli_compare_exits_like_diff(tmp_path):
    table = table_of(_params(), RESULTS, {})
    write_table(table, tmp_path / "a.csv", "csv")
    write_table(table, tmp_path / "a.txt", "anchor")
    other = {**RESULTS, "REAST": {"value": 7901, "exact": True}, "CRATE": {"value": None},
             "ABACK": {"value": 9000, "exact": True}}
    del other["ZOWEE"]
    write_table(table_of(_params(), other, {}), tmp_path / "b.json", "json")
    runner = CliRunner()
    same = runner.invoke(app, ["tables", "compare", str(tmp_path / "a.csv"), str(tmp_path / "a.txt")])
    assert same.exit_code == 0, same.output
    assert "identical: the same line for each of the 6 start words" in same.output
    differ = runner.invoke(app, ["tables", "compare", str(tmp_path / "a.txt"), str(tmp_path / "b.json")])
    assert differ.exit_code == 1
    assert "only in A (1):\n  ZOWEE\nonly in B (1):\n  ABACK\nlines that differ (2):\n" \
           "  REAST  A       7900  B       7901\n  CRATE  A       7902  B impossible\n" in differ.output
    doc = runner.invoke(app, ["tables", "compare", str(tmp_path / "a.csv"), str(tmp_path / "b.json"),
                              "--json"])
    assert doc.exit_code == 1 and [d["word"] for d in json.loads(doc.stdout)["differ"]] == ["REAST", "CRATE"]
    assert (json.loads(doc.stdout)["only_a"], json.loads(doc.stdout)["only_b"]) == (["ZOWEE"], ["ABACK"])
    (tmp_path / "bad.txt").write_text("salet 3.4201 7897\nsalet\n")
    (tmp_path / "bad.json").write_text('{"rows": []}')
    (tmp_path / "folder").mkdir()
    for name, message in (("nothing", "does not exist"), ("/dev/zero", "is a device"),
                          ("folder", "is a folder"), ("bad.txt", "line 2: not a table line"),
                          ("bad.json", "is JSON but not a ranking")):
        for args in ((tmp_path / "a.csv", tmp_path / name), (tmp_path / name, tmp_path / "a.csv")):
            bad = runner.invoke(app, ["tables", "compare", *map(str, args)])
            assert bad.exit_code == 2 and bad.output.startswith("error: ") and message in bad.output
            assert bad.output.count("\n") == 1


@needs_anchor
def test_cli_compare_two_published_eras():
    result = CliRunner().invoke(app, ["tables", "compare", str(ANCHOR / "results_easy_nyt20220316"),
                                      str(ANCHOR / "results_easy_nyt20220215"), "--json"])
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert len(doc["only_a"]) == 25 and not doc["only_b"] and doc["shared"] == 12947  # 25 guesses removed
    salet = [d for d in doc["differ"] if d["word"] == "SALET"]
    assert not salet and doc["differ"] and doc["ranks"]["same_order"] >= 1


# --- the ranking's table ------------------------------------------------------------------------

def test_the_complete_ranking_writes_its_table_in_every_layout(tmp_path, lists, monkeypatch):
    g, a = lists
    runner = CliRunner()
    base = ["optimal-tree", "--rank", "--candidates", "all", "--guesses", g, "--answers", a, "--max-guesses",
            "3", "--run-dir", str(tmp_path / "r"), "--workers", "0", "--quiet"]
    first = runner.invoke(app, [*base, "--output", str(tmp_path / "t.csv")])
    assert first.exit_code == 0, first.output
    assert "table (complete: 32 start words) written to" in " ".join(first.output.split())
    table = read_table(tmp_path / "t.csv")
    pm = pattern_matrix(make_game(), g, a)
    direct = rank_exact(pm, g, a, max_guesses=3, candidates=None, workers=0, run_dir=tmp_path / "direct")
    assert {e.word: e.total for e in table.entries} == {r["word"]: r["total"] for r in direct.rows}
    assert {e.settled for e in table.entries} == {"exact", "impossible"}  # 3 guesses: some cannot
    p = table.provenance
    assert p["complete"] and p["mode"] == "normal" and p["max_guesses"] == 3 and p["guesses"]["name"] == g
    assert p["guesses"]["hash"] == list_hash(pm.guesses) and p["gpusolve"] and p["backend"]
    n = len(pm.answers)
    for line in (tmp_path / "t.csv").read_text().splitlines()[len(p) + 1:]:  # after provenance and header
        rank, word, total, mean, worst, settled, seconds = line.split(",")
        row = next(r for r in direct.rows if r["word"] == word)
        assert settled == ("impossible" if row["total"] is None else "exact") and float(seconds) >= 0
        if settled == "exact":
            assert (int(total), float(mean), int(worst)) == (row["total"], round(row["total"] / n, 6),
                                                             row["worst"])
            assert int(rank) == 1 + sum(r["total"] is not None and r["total"] < row["total"]
                                        for r in direct.rows)
        else:
            assert total == mean == worst == ""
    monkeypatch.setattr(sys, "argv", ["gpusolve", *base, "--output", str(tmp_path / "t.txt")])
    again = runner.invoke(app, sys.argv[1:])
    assert again.exit_code == 0 and "provenance to" in again.output
    about = json.loads((tmp_path / "t.txt.json").read_text())
    assert about["complete"] is True and about["gpusolve"] == __version__ and about["commit"] == git_commit()
    assert about["command"] == shlex.join(sys.argv) and about["backend"] == f"auto ({get_backend().name})"
    assert (about["game"], about["mode"], about["max_guesses"]) == ("wordle", "normal", 3)
    assert about["cutoff"] is None
    assert about["guesses"] == {"name": g, "words": len(pm.guesses), "hash": list_hash(pm.guesses)}
    assert about["answers"] == {"name": a, "words": n, "hash": list_hash(pm.answers)}
    assert about["lists"] is None  # not an era's lists
    assert compare_tables(table, read_table(tmp_path / "t.txt")).identical
    js = runner.invoke(app, [*base, "--output", str(tmp_path / "t.data"), "--output-format", "JSON"])
    assert js.exit_code == 0 and json.loads((tmp_path / "t.data").read_text())["provenance"]["complete"]
    hard = runner.invoke(app, [*base[:-5], "--mode", "hard", "--run-dir", str(tmp_path / "h"), "--workers",
                               "0", "--quiet", "--output", str(tmp_path / "h.csv")])
    assert hard.exit_code == 0, hard.output
    hard_table = read_table(tmp_path / "h.csv")
    assert hard_table.provenance["mode"] == "hard" and hard_table.provenance["complete"]
    direct_hard = rank_exact(pm, g, a, mode="hard", max_guesses=3, candidates=None, workers=0,
                             run_dir=tmp_path / "direct-hard")
    assert {e.word: e.total for e in hard_table.entries} == {r["word"]: r["total"] for r in direct_hard.rows}


@pytest.mark.parametrize("args, message", [
    (["--output", "{tmp}/t.txt", "--cutoff", "40"], "the anchor's layout holds exact totals only"),
    (["--output-format", "csv"], "--output-format is the layout of the --output table"),
    (["--output", "{tmp}/t", "--output-format", "tsv"], "unknown table layout 'tsv'"),
    (["--output", "{tmp}/none/t.csv"], "folder"),
])
def test_cli_table_options_are_checked_before_any_work(tmp_path, lists, args, message):
    g, a = lists
    out = CliRunner().invoke(app, ["optimal-tree", "--rank", "--candidates", "all", "--guesses", g,
                                   "--answers", a, "--run-dir", str(tmp_path / "r"), "--workers", "0",
                                   *[x.format(tmp=tmp_path) for x in args]])
    assert out.exit_code == 2 and out.output.startswith("error: ") and message in out.output, out.output
    assert not (tmp_path / "r").exists()


def test_a_running_ranking_rewrites_its_table_as_it_goes(tmp_path, lists, pm, monkeypatch):
    written = []
    monkeypatch.setattr(TableOutput, "write", lambda self, table: written.append(len(table.entries)))
    sink = TableOutput(tmp_path / "t.csv", "csv", every=0.0)
    ranked = rank_exact(pm, *lists, task="reference-exact", candidates=None, workers=0, batch=4,
                        run_dir=tmp_path / "r", table=sink)
    n = len(pm.guesses)
    assert written == [*range(0, n, 4), n, n]  # at the start, after each batch, at the end
    assert ranked.table is not None and len(ranked.table.entries) == n


def test_cli_export_writes_a_run_directorys_table_finished_or_not(tmp_path, lists, pm):
    rank_exact(pm, *lists, task="reference-exact", words=pm.guesses[:7], workers=0, run_dir=tmp_path / "r")
    runner = CliRunner()
    out = runner.invoke(app, ["tables", "export", str(tmp_path / "r"), "-o", str(tmp_path / "t.txt"),
                              "--json"])
    assert out.exit_code == 0, out.output
    table = read_table(tmp_path / "t.txt")
    assert len(table.entries) == 7 and not table.provenance["complete"]
    assert table.provenance["missing"] == len(pm.guesses) - 7 and table.provenance["guesses"]["name"] is None
    assert json.loads(out.stdout)["provenance"]["finished"] == 7
    greedy = runner.invoke(app, ["rank", "--by", "tree", "--task", "partition", "--guesses", lists[0],
                                 "--answers", lists[1], "--run-dir", str(tmp_path / "g"), "--workers", "0",
                                 "--quiet"])
    assert greedy.exit_code == 0, greedy.output
    for run, message in ((tmp_path / "g", "not an exact ranking"),
                         (tmp_path / "none", "not a run directory")):
        bad = runner.invoke(app, ["tables", "export", str(run), "-o", str(tmp_path / "x.csv")])
        assert bad.exit_code == 2 and message in bad.output and bad.output.count("\n") == 1


# --- stopped at any point, then resumed ---------------------------------------------------------------

LOGGED = """
import os, sys, time
from gpusolve.runs import units
computed = units.UNITS["reference-exact"]
def logged(pm, job, rows, memo, threads=None):
    out = computed(pm, job, rows, memo, threads=threads)
    with open(os.environ["UNIT_LOG"], "a") as log:
        log.write("".join(pm.guesses[r] + "\\n" for r in rows))
    time.sleep(0.1 * len(rows))  # a quick machine's run is still under way when the signal comes
    return out
units.UNITS["reference-exact"] = logged
from gpusolve.cli import main
sys.argv[0] = "gpusolve"
main()
"""
"""The command line, each start word it computes written to $UNIT_LOG (a tenth of a second each)."""


def hear_ctrl_c() -> None:
    """Let the child hear Ctrl-C: it inherits an ignored SIGINT from the suite (a Python started
    with SIGINT ignored never raises KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _finished(db: Path) -> set[str]:
    """Return the start words a run store holds (none before it exists)."""
    if not db.exists():
        return set()
    con = sqlite3.connect(db, timeout=30)
    try:
        return {u for (u,) in con.execute("SELECT unit FROM results")}
    except sqlite3.OperationalError:  # tables not made yet
        return set()
    finally:
        con.close()


@pytest.mark.slow
def test_stopped_at_any_point_the_rerun_finishes_the_table_computing_no_finished_word(tmp_path):
    g, a = small_lists(tmp_path, n_answers=20, n_extra=12)
    run, out = tmp_path / "run", tmp_path / "table.csv"
    command = [sys.executable, "-c", LOGGED, "optimal-tree", "--rank", "--task", "reference-exact",
               "--guesses", g, "--answers", a, "--candidates", "all", "--workers", "0", "--quiet",
               "--run-dir", str(run), "--output", str(out)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    # Ctrl-C, SIGTERM, SIGKILL once 2, 8 and 16 start words are in the store, then to the end
    stops = [(signal.SIGINT, 2, 130), (signal.SIGTERM, 8, 143), (signal.SIGKILL, 16, -signal.SIGKILL),
             (None, 0, 0)]
    for i, (sig, at_least, code) in enumerate(stops):
        before = _finished(run / DATABASE)
        log = tmp_path / f"log{i}"
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**env, "UNIT_LOG": str(log)}, cwd=tmp_path, preexec_fn=hear_ctrl_c)
        deadline = time.monotonic() + 120
        while sig and len(_finished(run / DATABASE)) < at_least and proc.poll() is None \
                and time.monotonic() < deadline:
            time.sleep(0.005)
        if sig and proc.poll() is None:
            proc.send_signal(sig)
        _, stderr = proc.communicate(timeout=300)
        assert proc.returncode == code, stderr
        after = _finished(run / DATABASE)
        computed = log.read_text().split() if log.exists() else []
        assert not set(computed) & before, "a finished start word was computed again"
        assert before <= after  # nothing finished is lost
        if sig in (signal.SIGINT, signal.SIGTERM):  # the table of the finished words, said so
            table = read_table(out)
            assert {e.word for e in table.entries} == after and not table.provenance["complete"]
            assert table.provenance["missing"] == 32 - len(after)
            said = f"their table (partial: {len(after)} of 32 start words, {32 - len(after)} missing)"
            assert said in stderr
        elif sig is None:
            assert len(after) == 32 and set(computed) == after - before
    resumed = read_table(out)
    assert resumed.provenance["complete"]
    pm = pattern_matrix(make_game(), g, a)
    straight = rank_exact(pm, g, a, task="reference-exact", candidates=None, workers=0,
                          run_dir=tmp_path / "straight", table=TableOutput(tmp_path / "straight.csv", "csv"))
    assert _lines(resumed) == _lines(straight.table)
    assert read_run(run).results == read_run(tmp_path / "straight").results


@pytest.mark.slow
def test_sigterm_over_a_local_cluster_keeps_the_finished_words_and_the_rerun_completes(tmp_path):
    pytest.importorskip("distributed")
    g, a = small_lists(tmp_path, n_answers=20, n_extra=12)
    run, out = tmp_path / "run", tmp_path / "table.txt"
    # the slow reference search: a start word takes long enough to stop the run half way
    command = [sys.executable, "-m", "gpusolve", "optimal-tree", "--rank", "--task", "reference-exact",
               "--guesses", g, "--answers", a, "--candidates", "all", "--workers", "2", "--quiet", "--json",
               "--top", "100", "--run-dir", str(run), "--output", str(out)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    deadline = time.monotonic() + 300
    while len(_finished(run / DATABASE)) < 6 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=120)
    kept = _finished(run / DATABASE)
    assert proc.returncode == 143, stderr
    assert {e.word for e in read_table(out).entries} == kept and "start words are kept" in stderr
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["computed"] == len(json.loads(done.stdout)["results"]) - len(kept) > 0
    pm = pattern_matrix(make_game(), g, a)
    straight = rank_exact(pm, g, a, task="reference-exact", candidates=None, workers=0,
                          run_dir=tmp_path / "straight")
    table = read_table(out)
    assert table.provenance["complete"] and json.loads((tmp_path / "table.txt.json").read_text())["complete"]
    assert {e.word: e.total for e in table.entries} == {r["word"]: r["total"] for r in straight.rows}


def test_store_records_each_start_words_own_seconds(tmp_path, lists, pm):
    rank_exact(pm, *lists, task="reference-exact", words=pm.guesses[:6], workers=0, batch=3,
               run_dir=tmp_path / "r")
    with sqlite3.connect(tmp_path / "r" / DATABASE) as con:
        seconds = [s for (s,) in con.execute("SELECT seconds FROM results")]
    assert len(seconds) == 6 and len(set(seconds)) > 1  # not the batch's time for each
    job = make_job("reference-exact", pm, *lists, metric="")
    assert read_run(tmp_path / "r").params == {k: v for k, v in json.loads(json.dumps(job.params())).items()}
