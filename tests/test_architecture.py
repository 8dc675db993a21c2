"""The layers of docs/architecture.md: what may import what, read from the source (no import runs)."""

from __future__ import annotations

import ast
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
EXCEPTIONS = {("gpusolve.search.optimal", "gpusolve.runs.subproblems")}
"""The exact search fills and reads the memo entries that long runs store (docs/architecture.md)."""


def _modules() -> list[tuple[str, Path]]:
    """Return (dotted name, path) of every module of the installed package, kernels included."""
    out = [(".".join(p.relative_to(ROOT).with_suffix("").parts), p)
           for p in (ROOT / "gpusolve").rglob("*.py")]
    out += [(f"gpusolve.kernels.{p.stem}", p) for p in (ROOT / "kernels").glob("*.py")]
    return out


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] not in ("__init__", "__main__") else "gpusolve"


def _imports(module: str, path: Path) -> set[str]:
    """Return the gpusolve modules ``path`` imports (relative imports resolved)."""
    package = module.split(".")[:-1]
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
                found.add(target)
    return found


def test_every_module_imports_only_its_own_layer_or_lower():
    bad = []
    for module, path in _modules():
        layer = _layer(module)
        if layer == "gpusolve":  # the package itself and ``python -m gpusolve``
            continue
        for target in _imports(module, path):
            if (module, target) in EXCEPTIONS or _layer(target) in MAY_IMPORT[layer]:
                continue
            bad.append(f"{module} imports {target}")
    assert not bad, "imports against docs/architecture.md:\n" + "\n".join(bad)


def test_the_rule_catches_a_kernel_importing_a_search(tmp_path):
    """The check is not vacuous: a kernel importing the search layer is reported."""
    path = tmp_path / "bad_cpu.py"
    path.write_text("from ..search.optimal import solve\n")
    targets = _imports("gpusolve.kernels.bad_cpu", path)
    assert targets == {"gpusolve.search.optimal"}
    assert _layer(next(iter(targets))) not in MAY_IMPORT["kernels"]


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
    """Every kernel, the backend and the tests take ``cuda`` from ``kernels/gpu.py``, so moving to
    numba-cuda-mlir is one line there (docs/kernels.md)."""
    paths = [p for _, p in _modules()] + [*(ROOT / "tests").glob("*.py"), *(ROOT / "scripts").glob("*.py")]
    assert [p.relative_to(ROOT).as_posix() for p in paths if _takes_cuda(p)] == ["kernels/gpu.py"]


def test_the_import_point_rule_catches_a_direct_import(tmp_path):
    for line in ("from numba import cuda\n", "import numba.cuda\n", "from numba_cuda_mlir import cuda\n"):
        path = tmp_path / "bad_cuda.py"
        path.write_text(line)
        assert _takes_cuda(path), line
