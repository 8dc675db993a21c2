"""The search plumbing: answer columns, the one stop/budget object, progress events, and the
options that use them on the command line."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
from typer.testing import CliRunner
from wordfiles import FAMILY as FAMILY_FILE

from gpusolve.cli import app
from gpusolve.core.errors import GpusolveError
from gpusolve.search.absurdle import absurdle
from gpusolve.search.plumbing import Budget, Progress, answer_columns
from gpusolve.search.presets import search_presets
from gpusolve.search.worstcase import worst_case

FAMILY = ["--answers", FAMILY_FILE]
WORST = ["optimal-tree", "--objective", "worst-case", "--json", *FAMILY]


def test_answer_columns_from_words_or_columns(small_pm):
    cols = answer_columns(small_pm, [5, 3, 3])
    assert cols.dtype == np.int32 and cols.tolist() == [3, 5]
    words = answer_columns(small_pm, [small_pm.answers[7].lower(), small_pm.answers[2]])
    assert words.tolist() == [2, 7]
    assert len(answer_columns(small_pm, None)) == small_pm.shape[1]
    with pytest.raises(GpusolveError, match="not in the answer list"):
        answer_columns(small_pm, ["ZZZZZ"])
    with pytest.raises(GpusolveError, match="no answers"):
        answer_columns(small_pm, [])


def test_budget_stops_alike_and_says_why():
    nodes = Budget(3)
    assert nodes.spend(2) and not nodes.spend(2) and nodes.stopped and nodes.used == 2
    with pytest.raises(GpusolveError, match="node budget"):
        nodes.check()
    timed = Budget(None, seconds=0.05)
    with timed.guard():
        deadline = time.monotonic() + 5
        while not timed.stopped and time.monotonic() < deadline:
            time.sleep(0.01)
    assert timed.timed_out and timed.flag.tolist() == [0, 1]
    with pytest.raises(GpusolveError, match="time limit"):
        timed.check()
    heard = []
    user = Budget()
    with user.listening(lambda: heard.append(1)):
        user.interrupt()
    assert heard == [1] and user.stopped
    with pytest.raises(KeyboardInterrupt):
        user.check()


def test_searches_stop_on_their_budget(small_pm):
    cols = np.arange(60, dtype=np.int32)
    with pytest.raises(GpusolveError, match="node budget"):
        absurdle(small_pm, cols, budget=1)
    stopped = Budget(10**9)
    stopped.interrupt()
    with pytest.raises(KeyboardInterrupt):
        worst_case(small_pm, cols, budget=stopped)
    with pytest.raises(KeyboardInterrupt):
        search_presets(small_pm, 2, samples=50, budget=stopped)
    expired = Budget(None, seconds=1)
    expired.expire()
    with pytest.raises(GpusolveError, match="the preset search reached its time limit"):
        search_presets(small_pm, 2, samples=50, budget=expired)
    assert search_presets(small_pm, 2, samples=50, budget=Budget(None, seconds=600)).searched == 50


def test_preset_search_time_limit_on_the_command_line():
    runner = CliRunner()
    slow = runner.invoke(app, ["preset", "--search", "--words", "3", "--time-limit", "0.5", "-q"])
    assert slow.exit_code == 2, slow.output
    assert slow.output.startswith("error: the preset search reached its time limit (0.5 s)")
    wrong = runner.invoke(app, ["preset", "HANDY", "SWIFT", "--time-limit", "5"])
    assert wrong.exit_code == 2 and "--time-limit goes with --search" in wrong.output


def test_progress_events_from_a_search(small_pm):
    events = []
    absurdle(small_pm, np.arange(40, dtype=np.int32), progress=events.append)
    assert all(isinstance(e, Progress) and e.depth and e.done >= 1 for e in events)


def test_pair_mb_is_the_worst_case_option_and_memo_mb_its_old_spelling():
    runner = CliRunner()
    new = runner.invoke(app, [*WORST, "--pair-mb", "1"])
    old = runner.invoke(app, [*WORST, "--memo-mb", "1"])
    assert new.exit_code == old.exit_code == 0, new.output + old.output
    same = [{k: v for k, v in json.loads(r.stdout).items() if k != "seconds"} for r in (new, old)]
    assert same[0] == same[1] and "read as --pair-mb" in old.stderr
    wrong = runner.invoke(app, ["optimal-tree", "--pair-mb", "1", *FAMILY])
    assert wrong.exit_code == 2 and "--objective worst-case" in wrong.output
    whole = runner.invoke(app, ["optimal-tree", "--time-limit", "5", *FAMILY])
    assert whole.exit_code == 2 and "--time-limit goes with --start" in whole.output


def test_a_search_stopped_before_any_strategy_says_so():
    stopped = CliRunner().invoke(app, ["optimal-tree", "--start", "QAJAQ", "--time-limit", "0.5", "-q"])
    assert stopped.exit_code == 130, stopped.output
    assert "interrupted before any strategy was found: no result" in stopped.output
    assert "best result found so far" not in stopped.output and "nothing kept" in stopped.output
