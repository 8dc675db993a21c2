"""scripts/table_sample.py and scripts/bench_table.py: the sample loads and is checked, the rows
print, the projection weighs its strata, a differing total fails the run."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpusolve.core.errors import GpusolveError

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
SCRIPT = SCRIPTS / "bench_table.py"


def module(name: str):
    """Return a script of scripts/ as a module."""
    sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    found = importlib.util.module_from_spec(spec)
    sys.modules[name] = found  # its dataclasses look their module up
    spec.loader.exec_module(found)
    return found


@pytest.fixture(scope="module")
def sample():
    return module("table_sample")


@pytest.fixture(scope="module")
def bench():
    return module("bench_table")


@pytest.mark.parametrize(("mode", "lists", "lines", "infeasible", "sampled_infeasible"), [
    ("normal", "default", 12_972, 0, 0),
    ("hard", "default", 12_972, 2_022, 23),
    ("hard", "nyt-2023-07", 14_855, 7_402, 48),
])
def test_every_setting_loads_checked(sample, mode, lists, lines, infeasible, sampled_infeasible):
    found = sample.load(mode, lists)
    assert (len(found.uniform), len(found.top), found.lines, found.infeasible) == (100, 20, lines, infeasible)
    assert len(found.part("all")) == len(set(found.uniform) | set(found.top))
    assert sum(found.totals[w] is None for w in found.uniform) == sampled_infeasible
    assert all(found.totals[w] is not None for w in found.top)
    least_top = min(found.totals[w] for w in found.top)
    assert all(t is None or t <= least_top for t in (found.totals[w] for w in found.uniform))
    assert set(found.totals) <= set(sample.guess_list(lists))


def test_the_two_2022_settings_draw_the_same_uniform_words(sample):
    assert sample.load("normal", "default").uniform == sample.load("hard", "default").uniform


def broken(tmp_path: Path, change) -> Path:
    """Return a copy of the sample's folder with the normal setting's sidecar changed."""
    folder = tmp_path / "sample"
    shutil.copytree(SCRIPTS.parent / "tests" / "data" / "table_sample", folder)
    sidecar = folder / "results_easy_nyt20220316.json"
    sidecar.write_text(json.dumps(change(json.loads(sidecar.read_text()))))
    return folder


@pytest.mark.parametrize(("change", "says"), [
    (lambda d: {**d, "uniform": d["uniform"][1:]}, "its lines and its sidecar's words differ"),
    (lambda d: {**d, "top": d["top"][1:] + d["uniform"][:1]}, "its lines and its sidecar's words differ"),
    (lambda d: {**d, "top": d["top"][::-1]}, "the top part is not the highest finite totals"),
])
def test_a_broken_sample_is_refused(sample, tmp_path, change, says):
    with pytest.raises(GpusolveError, match=says):
        sample.load("normal", "default", broken(tmp_path, change))


def test_a_word_outside_the_lists_is_refused(sample, tmp_path):
    folder = broken(tmp_path, lambda d: {**d, "uniform": ["QQQQQ", *d["uniform"][1:]]})
    table = folder / "results_easy_nyt20220316"
    first = sample.load("normal", "default").uniform[0].lower()
    table.write_text("".join("qqqqq 4.0000 9000\n" if line.startswith(first + " ") else line + "\n"
                             for line in table.read_text().splitlines()))
    with pytest.raises(GpusolveError, match="not guesses of the default lists: QQQQQ"):
        sample.load("normal", "default", folder)


def test_dry_run_says_each_word_on_each_program_with_the_anchors_total(sample):
    argv = [sys.executable, str(SCRIPT), "--dry-run", "--mode", "hard", "--lists", "nyt-2023-07",
            "--limit", "2", "--backends", "cpu,cuda", "--anchor", "/bin/wordle"]
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    rows = [line.split() for line in done.stdout.splitlines() if "would run:" in line]
    found = sample.load("hard", "nyt-2023-07")
    words = [*found.uniform[:2], *found.top[:2]]
    assert [r[1] for r in rows] == [w for w in words for _ in range(3)]
    assert [r[0] for r in rows] == ["uniform"] * 6 + ["top"] * 6
    assert all(sorted(r[2] for r in rows[i:i + 3]) == ["anchor", "cpu", "cuda"] for i in range(0, 12, 3))
    for r in rows:
        published = found.totals[r[1]]
        assert r[4].rstrip(";") == ("infeasible" if published is None else f"{published:,}")
        if r[2] == "anchor":
            assert r[-3:] == ["-w", r[1].lower(), "-H"]
        else:
            assert f"--rank --words {r[1]} --top 1 --mode hard --lists nyt-2023-07 --backend {r[2]} " \
                   "--workers 0" in " ".join(r)
    assert [r[2] for r in rows[:3]] != [r[2] for r in rows[3:6]]  # the programs take turns


def test_bad_options_give_one_error_line():
    for bad, says in ((["--backends", "gpu"], "error: --backends takes"),
                      (["--lists", "nyt-2023-07"], "error: the sample's normal-mode table"),
                      (["--workers", "two"], "error: --workers takes"),
                      (["--words", "SALET,QAJAQ"], "error: --words: not in the sample: SALET")):
        argv = [sys.executable, str(SCRIPT), "--dry-run", *bad]
        done = subprocess.run(argv, capture_output=True, text=True)
        assert done.returncode == 1 and done.stderr.strip().startswith(says)


def test_a_run_prints_its_rows_and_fails_on_a_differing_total(sample, tmp_path):
    # other lists: gpusolve's totals there differ from the anchor's published ones
    first = sample.load("normal", "default").uniform[0]
    answers = tmp_path / "answers.txt"
    answers.write_text("CRANE\nSLATE\nABACK\nTRACE\nCRATE\nLATCH\nMATCH\nPATCH\n")
    guesses = tmp_path / "guesses.txt"
    guesses.write_text(answers.read_text() + f"SALET\n{first}\n")
    out = tmp_path / "bench.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--part", "uniform", "--limit", "1", "--guesses",
                           str(guesses), "--answers", str(answers), "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    row = next(line.split() for line in done.stdout.splitlines() if line.startswith("uniform "))
    assert row[:3] == ["uniform", first, "cpu"] and row[4] == "!=" and row[5] == "8,527"
    assert int(row[3]) < 8 * 6
    for measure in ("search seconds (wall)", "search CPU seconds"):
        assert f"projected complete table, cpu, in {measure}:" in done.stdout
    assert "a process start on cpu:" in done.stdout and "DIFFERENT or failed" in done.stdout
    assert json.loads(out.read_text())["differ"] == [["cpu", "uniform", first, "!="]]


def test_the_projection_weighs_each_stratum_by_the_tables_counts(sample, bench):
    found = sample.load("hard", "default")
    feasible = [w for w in found.uniform if found.totals[w] is not None][:3]
    infeasible = [w for w in found.uniform if found.totals[w] is None][:2]

    def word(s, finished=True):
        return {"finished": finished, "search": s, "wall": s + 1, "cpu": s + 2, "search_cpu": s / 2,
                "total": 0}
    measured = {"uniform": {**{w: word(2.0) for w in feasible}, infeasible[0]: word(4.0),
                            infeasible[1]: word(1.0, finished=False)},
                "top": {w: word(10.0) for w in found.top}}
    p = bench.projection(found, measured, 8.0)
    strata = {s["stratum"]: s for s in p["strata"]}
    assert strata["top"]["weight"] == 1 and strata["top"]["seconds"] == 200
    assert strata["feasible"]["weight"] == (12_972 - 2_022 - 20) / 3
    assert strata["feasible"]["seconds"] == pytest.approx(2.0 * (12_972 - 2_022 - 20))
    assert strata["infeasible"]["seconds"] == pytest.approx(2_022 / 2 * (4.0 + 8.0))  # at the timeout
    assert p["seconds"] == pytest.approx(sum(s["seconds"] for s in p["strata"]))
    assert p["lower_bound"] == ["1 word(s) unfinished, counted at the timeout (CPU: until then)"]
    by_cpu = bench.projection(found, measured, 8.0, "search_cpu")
    in_cpu = {s["stratum"]: s["seconds"] for s in by_cpu["strata"]}
    assert in_cpu["top"] == 100 and in_cpu["infeasible"] == pytest.approx(2_022 / 2 * (2.0 + 0.5))
    alone = bench.projection(found, {"top": measured["top"]}, None)
    assert [s["stratum"] for s in alone["strata"] if s["weight"] is None] == ["feasible", "infeasible"]
    assert "no word measured of the other feasible start words (10,930)" in alone["lower_bound"]


def test_rows_say_unfinished_and_infeasible_words(bench):
    stopped = {"finished": False, "total": None, "search": None, "search_cpu": 1.0, "cpu": 2.0, "wall": 60.0}
    def cells(published, figures):
        return bench.row_line("uniform", "ABASH", published, "cpu", figures).split()[3:6]
    assert cells(12_534, stopped) == ["-", "unfinished", "12,534"]
    proven = {**stopped, "finished": True, "search": 3.0}
    assert cells(None, proven) == ["infeasible", "==", "infeasible"]
    assert cells(12_534, proven) == ["infeasible", "!=", "12,534"]


def test_words_picks_sample_words_in_their_parts():
    argv = [sys.executable, str(SCRIPT), "--dry-run", "--words", "qajaq,deist,AQUAS"]
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    rows = [line.split()[:2] for line in done.stdout.splitlines() if "would run:" in line]
    assert rows == [["uniform", "AQUAS"], ["uniform", "DEIST"], ["top", "QAJAQ"]]
