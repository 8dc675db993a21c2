"""What the README's first command compiles (issue 29): the exact search's numba functions once each,
none for a literal argument value, none of the symmetries' code (Wordle's lists have none), no
parallel loop (``parallel=True``: a second more each) and no string formatting (a slice assignment
compiles its shape error's message: two seconds); and since issue 37 none of hard mode's code (in
normal mode, about two seconds) and not numba's quicksort (``np.argsort``: seven functions, a second;
``kernels.sorting.argsort`` gives its order). On two cores or more the search's functions
compile in a second process beside the first pass (issue 37, ``gpusolve.search.aside``): none of
them in the command's own process, and no cached function in both.
A fresh process with an empty numba cache records numba's compile events (in every process it
forks), as ``scripts/compile_table.py`` does (which times them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

RECORD = """
import json, os, sys
from numba.core import event

EVENTS = sys.argv[1]

class Record(event.Listener):
    def on_start(self, ev):
        dispatcher = ev.data["dispatcher"]
        f = dispatcher.py_func
        with open(EVENTS, "a") as out:
            out.write(json.dumps([os.getpid(), f.__module__ + "." + f.__qualname__,
                                  [str(a) for a in ev.data["args"]],
                                  bool(dispatcher.targetoptions.get("parallel"))]) + "\\n")

    def on_end(self, ev):
        pass

event.register("numba:compile", Record())
from gpusolve.cli import main

sys.argv = ["gpusolve", "optimal-tree", "--start", "SALET", "--quiet"]
main()
"""

SEARCH = ("_node", "_load_root", "look_up_set", "settle_set")
"""The search's functions Python calls: compiled aside on two cores or more."""

HARD = ("hard_rule", "rule_allows", "_combined_rule", "_hard_key", "_same_moves", "_path_hash", "_rule_hash",
        "_gather_cores", "_core_refutes", "_record_core", "_splits_none")
"""The search's hard-mode functions (``kernels.optimal_cpu``): a normal-mode search compiles none."""


def test_the_first_optimal_tree_compiles_each_search_function_once(tmp_path):
    """Every function of the exact search compiles once (no literal values, no second signature),
    nothing of the symmetries' kernels nor of hard mode's, no kernel of the command is a parallel loop,
    none formats a string and none sorts by numba's quicksort; the search's compile is aside."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    events = tmp_path / "compiled.jsonl"
    done = subprocess.run([sys.executable, "-c", RECORD, str(events)], capture_output=True, text=True,
                          env=env, cwd=tempfile.gettempdir(), timeout=900)
    assert done.returncode == 0, done.stderr
    assert "total: 7,897" in done.stdout
    records = [json.loads(line) for line in events.read_text().splitlines()]
    command = records[0][0]  # the first compiles are the command's own, before any fork
    if len(os.sched_getaffinity(0)) >= 2:
        aside = {pid for pid, *_ in records} - {command}
        assert len(aside) == 1
        here = {name.rsplit(".", 1)[1] for pid, name, *_ in records if pid == command}
        there = {name.rsplit(".", 1)[1] for pid, name, *_ in records if pid != command}
        assert set(SEARCH) <= there and not set(SEARCH) & here
        ours = [{name for p, name, *_ in records if p == pid and name.startswith("gpusolve.kernels.")}
                for pid in (command, *aside)]
        assert set.intersection(*ours) == set()  # numba's disk cache of a function has one writer
    compiled = [(name, args, parallel) for _, name, args, parallel in records]
    ours = [(name, args) for name, args, _ in compiled if name.startswith("gpusolve.kernels.")]
    search = [name for name, _ in ours if name.startswith("gpusolve.kernels.optimal_cpu.")]
    assert len(search) > 20  # the search compiled (here or aside), not loaded from a cache
    assert sorted(name for name in search if search.count(name) > 1) == []
    assert [(name, args) for name, args in ours
            if name in search and any(a.startswith("Literal") for a in args)] == []
    assert [name for name, _ in ours if name.split(".")[2] in ("canonical_cpu", "symmetry_cpu")] == []
    assert [name for name, _, parallel in compiled if parallel] == []
    assert [name for name, _, _ in compiled if name.startswith("numba.cpython.unicode.")] == []
    assert [name for name in search if name.rsplit(".", 1)[1] in HARD] == []
    assert [name for name, _, _ in compiled if name.startswith("numba.misc.quicksort.")] == []
