"""Write the table of every launched CUDA kernel's registers, shared and local memory into
docs/kernels.md (between its ``kernel resources`` markers), or print it (``--print``).

    python scripts/kernel_resources.py [--print]

No GPU needed: each kernel of ``tests/data/cuda_launches.json`` (every launch of the CUDA tests)
is compiled to PTX by numba-cuda (``gpusolve.kernels.gpu.ptx``) for compute capability 8.0 and
9.0, and the PTX to machine code by nvJitLink (the ``dev`` extra's toolkit wheels, through
cuda.core), whose verbose log is ptxas's report. Re-run it after changing a kernel.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import re
from pathlib import Path

from gpusolve.kernels import gpu

ROOT = Path(__file__).resolve().parent.parent
LAUNCHES = ROOT / "tests" / "data" / "cuda_launches.json"
DOC = ROOT / "docs" / "kernels.md"
BEGIN = "<!-- kernel resources: written by scripts/kernel_resources.py -->"
END = "<!-- end of kernel resources -->"


def resources(kernel, signature: str, cc: tuple[int, int]) -> dict[str, int]:
    """Return ptxas's report of ``kernel`` compiled for ``signature`` and ``cc``: registers per
    thread, shared memory per block, stack (local memory) per thread, spilled bytes."""
    from cuda.core import Linker, LinkerOptions, ObjectCode

    linker = Linker(ObjectCode.from_ptx(gpu.ptx(kernel, signature, cc).encode()),
                    options=LinkerOptions(arch=f"sm_{cc[0]}{cc[1]}", verbose=True))
    linker.link("cubin")
    return parse_log(linker.get_info_log())


def parse_log(log: str) -> dict[str, int]:
    """Return the registers, shared memory, stack and spills of a verbose nvJitLink log."""
    used = re.search(r"used (\d+) registers, .*?(\d+) stack, (\d+) bytes smem", log)
    spills = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log)
    if not used or not spills:
        raise ValueError(f"no resource report in the linker's log:\n{log}")
    registers, stack, shared = map(int, used.groups())
    return {"registers": registers, "shared": shared, "stack": stack,
            "spills": int(spills.group(1)) + int(spills.group(2))}


def kernel(name: str):
    """Return the kernel ``module.kernel`` of gpusolve.kernels."""
    module, function = name.split(".")
    return getattr(importlib.import_module(f"gpusolve.kernels.{module}"), function)


def variants(name: str, signatures: list[str]) -> list[str]:
    """Return what tells the signatures of one kernel apart: the arguments whose types differ."""
    names = list(inspect.signature(kernel(name).py_func).parameters)
    split = [re.findall(r"\w+(?:\[[^\]]*\])?", s) for s in signatures]
    differ = [i for i in range(len(names)) if len({s[i] for s in split}) > 1]
    return [", ".join(f"{names[i]} {s[i].split('[')[0]}" for i in differ) or "—" for s in split]


def table(record: dict[str, list[str]]) -> str:
    """Return the markdown table of every recorded kernel and signature."""
    ccs = gpu.COMPUTE_CAPABILITIES
    head = " / ".join(f"{a}.{b}" for a, b in ccs)
    lines = [f"| kernel | launched with | registers per thread ({head}) | shared memory per block, bytes "
             f"({head}) | stack per thread, bytes | spilled, bytes |", "|---|---|---|---|---|---|"]
    for name, signatures in record.items():
        for signature, variant in zip(signatures, variants(name, signatures)):
            found = [resources(kernel(name), signature, cc) for cc in ccs]
            lines.append(f"| `{name}` | {variant} | {' / '.join(str(f['registers']) for f in found)} | "
                         f"{' / '.join(str(f['shared']) for f in found)} | "
                         f"{' / '.join(sorted({str(f['stack']) for f in found}))} | "
                         f"{max(f['spills'] for f in found)} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--print", action="store_true", help="print the table instead of writing the doc")
    args = parser.parse_args()
    text = table(json.loads(LAUNCHES.read_text()))
    if args.print:
        print(text)
        return
    doc = DOC.read_text()
    if BEGIN not in doc or END not in doc:
        raise SystemExit(f"error: {DOC} has no kernel-resources markers")
    head, rest = doc.split(BEGIN)
    DOC.write_text(f"{head}{BEGIN}\n{text}\n{END}{rest.split(END, 1)[1]}")
    print(f"wrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
