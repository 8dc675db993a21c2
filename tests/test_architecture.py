"""The layers of docs/architecture.md: what may import what, and that no module imports a module
that imports it (directly or round a longer cycle), read from the source: no import runs, and
imports inside functions count like the others. And the start-up rule, run in a fresh process:
the command line's help and the constants it shows load neither numpy nor numba."""

from __future__ import annotations

import ast
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MAY_IMPORT = {
    "kernels": {"kernels"},
    "core": {"core", "kernels", "view"},
    "view": {"view", "core"},
    "search": {"search", "core", "kernels"},
    "play": {"play", "search", "core", "kernels"},
    "runs": {"runs", "search", "core", "kernels"},
    "war": {"search", "core", "kernels"},
    "doctor": {"search", "core", "kernels", "gpusolve"},
    "cli": {"cli", "play", "runs", "search", "core", "kernels", "war", "doctor", "gpusolve"},
}
"""Layer -> the layers it may import (``gpusolve`` alone: the package's version)."""


def _modules() -> list[tuple[str, Path]]:
    """Return (dotted name, path) of every module of the installed package, kernels included
    (a package by its own name: ``gpusolve.cli`` is ``gpusolve/cli/__init__.py``)."""
    out = [(".".join(p.relative_to(ROOT).with_suffix("").parts), p)
           for p in (ROOT / "gpusolve").rglob("*.py")]
    out += [(f"gpusolve.kernels.{p.stem}", p) for p in (ROOT / "kernels").glob("*.py")]
    return [(m.removesuffix(".__init__"), p) for m, p in out]


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] != "__main__" else "gpusolve"


def _imports(module: str, path: Path, known: set[str] | None = None) -> set[str]:
    """Return the gpusolve modules ``path`` (the module ``module``) imports, anywhere in it:
    relative imports resolved, and ``from P import n`` read as the module ``P.n`` where that is
    one of the ``known`` modules (else as ``P``)."""
    known = {m for m, _ in _modules()} if known is None else known
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("gpusolve")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("gpusolve"):
                subs = {f"{target}.{a.name}" for a in node.names} & known
                found |= subs if len(subs) == len(node.names) else subs | {target}
    return found


def _cycles(modules: list[tuple[str, Path]]) -> list[list[str]]:
    """Return the import cycles among ``modules``: each set of modules that import one another
    round a loop (strongly connected, Tarjan), sorted, and any module importing itself."""
    known = {m for m, _ in modules}
    edges = {m: sorted(_imports(m, p, known) & known) for m, p in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        for t in edges[m]:
            if t not in index:
                visit(t)
                low[m] = min(low[m], low[t])
            elif t in stack:
                low[m] = min(low[m], index[t])
        if low[m] == index[m]:
            group = []
            while not group or group[-1] != m:
                group.append(stack.pop())
            if len(group) > 1 or m in edges[m]:
                out.append(sorted(group))

    for m in sorted(edges):
        if m not in index:
            visit(m)
    return sorted(out)


def test_every_module_imports_only_its_own_layer_or_lower():
    bad = []
    for module, path in _modules():
        layer = _layer(module)
        if layer == "gpusolve":  # the package itself and ``python -m gpusolve``
            continue
        for target in _imports(module, path):
            if _layer(target) not in MAY_IMPORT[layer]:
                bad.append(f"{module} imports {target}")
    assert not bad, "imports against docs/architecture.md:\n" + "\n".join(bad)


def test_no_module_imports_a_module_that_imports_it():
    cycles = _cycles(_modules())
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_rule_catches_a_kernel_importing_a_search(tmp_path):
    """The check is not vacuous: a kernel importing the search layer is reported."""
    path = tmp_path / "bad_cpu.py"
    path.write_text("from ..search.optimal import solve\n")
    targets = _imports("gpusolve.kernels.bad_cpu", path)
    assert targets == {"gpusolve.search.optimal"}
    assert _layer(next(iter(targets))) not in MAY_IMPORT["kernels"]


def test_the_cycle_check_catches_a_planted_cycle(tmp_path):
    """The check is not vacuous: a cycle closed by an import inside a function through a third
    module, and one closed by ``from package import module``, are each reported; a module that
    imports into a cycle without being imported back is not in it."""
    (tmp_path / "a.py").write_text("from .b import f\n")
    (tmp_path / "b.py").write_text("def f():\n    from . import c\n")
    (tmp_path / "c.py").write_text("import gpusolve.search.a\n")
    (tmp_path / "d.py").write_text("def g():\n    from .e import h\n")
    (tmp_path / "e.py").write_text("from ..search import d\n")
    (tmp_path / "f.py").write_text("from .a import x\nfrom ..core.trees import Node\n")
    planted = [(f"gpusolve.search.{p.stem}", p) for p in sorted(tmp_path.glob("*.py"))]
    assert _cycles(planted) == [["gpusolve.search.a", "gpusolve.search.b", "gpusolve.search.c"],
                                ["gpusolve.search.d", "gpusolve.search.e"]]
    assert _cycles(planted[:2] + planted[3:]) == [["gpusolve.search.d", "gpusolve.search.e"]]


def test_start_up_loads_neither_numpy_nor_numba():
    """``gpusolve --help`` (the CLI's modules, the defaults and ``INF`` they show) and the
    kernels' constants import no numpy or numba: start-up stays quick."""
    code = ("import sys\n"
            "from gpusolve.cli import app\n"
            "from gpusolve.kernels.config import INF\n"
            "from gpusolve.search.defaults import DEFAULT_MEMO_MB\n"
            "try:\n"
            "    app(['--help'])\n"
            "except SystemExit:\n"
            "    pass\n"
            "print(sorted(m for m in ('numpy', 'numba') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=tempfile.gettempdir())  # the checkout's bare gpusolve/ lacks the kernels
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_every_layer_is_known():
    assert {_layer(m) for m, _ in _modules()} - {"gpusolve"} <= set(MAY_IMPORT)


def _takes_cuda(path: Path) -> bool:
    """Return whether ``path`` imports numba's CUDA compiler itself (``numba.cuda`` or its successor)."""
    for node in ast.walk(ast.parse(path.read_text())):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                 [f"{node.module}.{a.name}" for a in node.names] if isinstance(node, ast.ImportFrom) else [])
        if any(n.startswith(("numba.cuda", "numba_cuda")) for n in names):
            return True
    return False


def test_the_cuda_compiler_has_one_import_point():
    """Every kernel, the backend and the tests take ``cuda`` from ``kernels/gpu.py``, which chooses
    numba-cuda or numba-cuda-mlir in one place ($GPUSOLVE_CUDA_COMPILER, docs/kernels.md)."""
    paths = [p for _, p in _modules()] + [*(ROOT / "tests").glob("*.py"), *(ROOT / "scripts").glob("*.py")]
    assert [p.relative_to(ROOT).as_posix() for p in paths if _takes_cuda(p)] == ["kernels/gpu.py"]


def test_the_import_point_rule_catches_a_direct_import(tmp_path):
    for line in ("from numba import cuda\n", "import numba.cuda\n", "from numba_cuda_mlir import cuda\n"):
        path = tmp_path / "bad_cuda.py"
        path.write_text(line)
        assert _takes_cuda(path), line
