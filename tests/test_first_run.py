"""What the README's first command compiles (issue 29): the exact search's numba functions once each,
none for a literal argument value, none of the symmetries' code (Wordle's lists have none), no
parallel loop (``parallel=True``: a second more each) and no string formatting (a slice assignment
compiles its shape error's message: two seconds); and since issue 37 none of hard mode's code (in
normal mode, about two seconds) and not numba's quicksort (``np.argsort``: seven functions, a second;
``kernels.sorting.argsort`` gives its order).
A fresh process with an empty numba cache records numba's compile events, as
``scripts/compile_table.py`` does (which times them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

RECORD = """
import json, sys
from numba.core import event

compiled = []

class Record(event.Listener):
    def on_start(self, ev):
        dispatcher = ev.data["dispatcher"]
        compiled.append([dispatcher.py_func.__module__ + "." + dispatcher.py_func.__qualname__,
                         [str(a) for a in ev.data["args"]], bool(dispatcher.targetoptions.get("parallel"))])

    def on_end(self, ev):
        pass

event.register("numba:compile", Record())
from gpusolve.cli import main

sys.argv = ["gpusolve", "optimal-tree", "--start", "SALET", "--quiet"]
try:
    main()
finally:
    print(json.dumps(compiled))
"""

HARD = ("hard_rule", "rule_allows", "_combined_rule", "_hard_key", "_same_moves", "_path_hash", "_rule_hash")
"""The search's hard-mode functions (``kernels.optimal_cpu``): a normal-mode search compiles none."""


def test_the_first_optimal_tree_compiles_each_search_function_once(tmp_path):
    """Every function of the exact search compiles once (no literal values, no second signature),
    nothing of the symmetries' kernels nor of hard mode's, no kernel of the command is a parallel loop,
    none formats a string and none sorts by numba's quicksort."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    done = subprocess.run([sys.executable, "-c", RECORD], capture_output=True, text=True, env=env,
                          cwd=tempfile.gettempdir(), timeout=900)
    assert done.returncode == 0, done.stderr
    assert "total: 7,897" in done.stdout
    compiled = json.loads(done.stdout.splitlines()[-1])
    ours = [(name, args) for name, args, _ in compiled if name.startswith("gpusolve.kernels.")]
    search = [name for name, _ in ours if name.startswith("gpusolve.kernels.optimal_cpu.")]
    assert len(search) > 20  # the search compiled here, not loaded from a cache
    assert sorted(name for name in search if search.count(name) > 1) == []
    assert [(name, args) for name, args in ours
            if name in search and any(a.startswith("Literal") for a in args)] == []
    assert [name for name, _ in ours if name.split(".")[2] in ("canonical_cpu", "symmetry_cpu")] == []
    assert [name for name, _, parallel in compiled if parallel] == []
    assert [name for name, _, _ in compiled if name.startswith("numba.cpython.unicode.")] == []
    assert [name for name in search if name.rsplit(".", 1)[1] in HARD] == []
    assert [name for name, _, _ in compiled if name.startswith("numba.misc.quicksort.")] == []
