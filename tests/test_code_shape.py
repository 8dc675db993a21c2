"""The shape of the code, read from the source (no import runs): no function in ``kernels/`` or
``gpusolve/`` longer than ``MAX_LINES`` lines, no numba kernel (``@njit``, ``@jit``, ``@cuda.jit``,
or a function compiled by ``njit(...)(f)``) with more than ``MAX_PARAMS`` parameters: a longer list
is a bundle (a named tuple of arrays) waiting to be written."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 150
MAX_PARAMS = 16


def _sources() -> list[Path]:
    """Return every module of the package, kernels included."""
    return sorted([*(ROOT / "kernels").glob("*.py"), *(ROOT / "gpusolve").rglob("*.py")])


def _is_jit(expr: ast.expr) -> bool:
    """Return whether a decorator (or the callee of ``njit(...)(f)``) compiles with numba."""
    target = expr.func if isinstance(expr, ast.Call) else expr
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in ("njit", "jit")


def _params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    a = fn.args
    starred = (a.vararg is not None) + (a.kwarg is not None)
    return len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + starred


def _compiled_by_call(tree: ast.Module) -> set[str]:
    """Return the names of the functions a module compiles as ``njit(...)(f)`` (imports followed to
    the name the function is defined under)."""
    aliases = {a.asname: a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
               for a in node.names if a.asname}
    names = set()
    for node in ast.walk(tree):
        wrapped = isinstance(node, ast.Call) and isinstance(node.func, ast.Call) and node.args
        if wrapped and _is_jit(node.func):
            arg = node.args[0]
            name = arg.attr if isinstance(arg, ast.Attribute) else getattr(arg, "id", "")
            names.add(aliases.get(name, name))
    return names


def shape_violations(sources: dict[str, str]) -> list[str]:
    """Return the functions of ``sources`` (name -> text) that break the shape rules."""
    trees = {name: ast.parse(text) for name, text in sources.items()}
    by_call = set().union(*(_compiled_by_call(t) for t in trees.values()))
    bad = []
    for name, tree in trees.items():
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            lines = fn.end_lineno - fn.lineno + 1
            if lines > MAX_LINES:
                bad.append(f"{name}:{fn.lineno} {fn.name}: {lines} lines (at most {MAX_LINES})")
            kernel = any(_is_jit(d) for d in fn.decorator_list) or fn.name in by_call
            if kernel and _params(fn) > MAX_PARAMS:
                bad.append(f"{name}:{fn.lineno} {fn.name}: kernel of {_params(fn)} parameters "
                           f"(at most {MAX_PARAMS})")
    return bad


def test_functions_are_short_and_kernels_take_few_parameters():
    sources = {str(p.relative_to(ROOT)): p.read_text() for p in _sources()}
    bad = shape_violations(sources)
    assert not bad, "functions against the shape rules:\n" + "\n".join(bad)


def _function(name: str, params: int, body_lines: int, decorator: str = "") -> str:
    args = ", ".join(f"a{i}" for i in range(params))
    body = "".join(f"    x{i} = {i}\n" for i in range(body_lines - 1))
    return f"{decorator}def {name}({args}):\n{body}    return 0\n"


def test_the_rules_catch_planted_violations():
    """The check is not vacuous: a long function and wide kernels of every kind are reported, and the
    limits themselves pass."""
    planted = "\n".join([
        "from numba import cuda, njit\nimport numba\nfrom .other import wide_rule as _wide\n",
        _function("long", 2, MAX_LINES),                                   # MAX_LINES + 1 with the def
        _function("wide_njit", MAX_PARAMS + 1, 2, "@njit(cache=True)\n"),
        _function("wide_bare", MAX_PARAMS + 1, 2, "@njit\n"),
        _function("wide_cuda", MAX_PARAMS + 1, 2, "@cuda.jit\n"),
        _function("wide_numba", MAX_PARAMS + 1, 2, "@numba.jit(nopython=True)\n"),
        "compiled = njit(cache=True)(_wide)\n",
    ])
    other = _function("wide_rule", MAX_PARAMS + 1, 2)
    fine = _function("fine", MAX_PARAMS, MAX_LINES - 1, "@njit\n") + _function("plain_wide", 40, 2)
    bad = shape_violations({"planted.py": planted, "other.py": other, "fine.py": fine})
    assert [b.split()[1].rstrip(":") for b in bad] == ["long", "wide_njit", "wide_bare", "wide_cuda",
                                                        "wide_numba", "wide_rule"]
