#!/usr/bin/env bash
# Download here (with network) what scripts/gpu_check.sh installs on a GPU machine that has none:
# Python 3.12 wheels for x86-64 Linux, into .whl/ at the checkout's root. Git-ignore that folder
# first (once): echo /.whl/ >> .git/info/exclude
#
#   bash scripts/gpu_wheels.sh           # numpy 2.4 (numba-cuda 0.30 cannot compile with 2.5), platformdirs
#   bash scripts/gpu_wheels.sh --mlir    # also numba-cuda-mlir, for gpu_check.sh --mlir
#
# The GPU machine has the rest (numba-cuda 0.30.4, CuPy for CUDA 13, numba, typer, rich, pytest,
# hypothesis, matplotlib). numba-cuda-mlir's wheel (71 MB) is over what one device call carries
# (64 MiB with the checkout), so it travels unpacked and xz-compressed (.whl/mlir/, 48 MB):
# unpacking a wheel into a folder on the Python path is all an install with --target does.
set -euo pipefail
cd "$(dirname "$0")/.."
MLIR=0
for arg in "$@"; do
    case $arg in
        --mlir) MLIR=1 ;;
        *) echo "error: unknown option $arg (see the head of $0)" >&2; exit 2 ;;
    esac
done
PLATFORM=(--only-binary=:all: --python-version 3.12 --implementation cp
          --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64
          --platform manylinux2014_x86_64 --platform manylinux1_x86_64)
mkdir -p .whl
rm -f .whl/numpy-*.whl .whl/platformdirs-*.whl  # one version of each: two stop the install
python3 -m pip download -q --no-deps "${PLATFORM[@]}" -d .whl 'numpy>=2.4,<2.5' 'platformdirs>=3'
if ((MLIR)); then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    # the version pyproject.toml's mlir extra pins (what CI's PTX check compiles with)
    mlir=$(grep -o "numba-cuda-mlir\[cu13\]==[0-9.]*" pyproject.toml | sed 's/\[cu13\]//')
    python3 -m pip download -q --no-deps "${PLATFORM[@]}" -d "$tmp" "$mlir"
    mkdir -p "$tmp/site" .whl/mlir
    (cd "$tmp/site" && python3 -m zipfile -e "$tmp"/numba_cuda_mlir-*.whl .)
    tar -C "$tmp/site" -cf - . | xz -9 -T0 > .whl/mlir/numba-cuda-mlir.tar.xz
fi
ls -l .whl .whl/mlir 2>/dev/null
du -sh .whl
