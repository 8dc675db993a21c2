#!/usr/bin/env bash
# One command for whoever has a GPU (issues 27, 35), on a bare machine with no network: install
# what it lacks from .whl/ (scripts/gpu_wheels.sh), then run the CUDA tests on the GPU, the doctor
# and the GPU benchmark (scripts/bench_gpu.py: the exact searches, the whole proof normal and
# hard, the table sample through scripts/bench_table.py, and what the GPU was given); with
# --mlir, then the CUDA tests once more with the kernels compiled by numba-cuda-mlir
# (GPUSOLVE_CUDA_COMPILER=numba-cuda-mlir). Logs and results go to $OUT (default ./gpu-check); a
# short summary prints last (also $OUT/summary.txt).
#
#   bash scripts/gpu_check.sh [--mlir] [--repeats N] [--no-tests] [--no-bench] [--dry-run]
#
# The timing run, one device call of at most 9 minutes (16 cores): bash scripts/gpu_check.sh
# --no-tests --repeats 1 (carrying .whl; timeout_s 570).
#
# $BACKENDS (default cuda,auto,cpu) are the benchmark's backends, taking turns; $CALLS its library
# calls (bench_gpu.py --calls); $TABLE_SECONDS (default 150) the most the table sample may take;
# $CUDA_TESTS and $TESTS_K (pytest -k) narrow the CUDA tests. The doctor always runs (GPU == CPU
# on the real lists). --dry-run runs nothing: it says the steps and lists the benchmark's
# processes (bench_gpu.py --dry-run, its budget what the steps before it are expected to leave).
#
# The steps before the numba-cuda-mlir trial keep within $BUDGET seconds (default 510): the
# benchmark gets what the tests and the doctor left (bench_gpu.py --budget: it drops the rows
# that would not fit, in its stated order) and prints the rows it finished if stopped.
# --no-tests --no-bench --mlir runs the trial alone (a call that carries only .whl/mlir and the
# platformdirs wheel: all of .whl and the checkout are 63.2 MiB of the 64 MiB a call carries).
#
# What is known of that machine: Python 3.12 with numba-cuda 0.30.4, CuPy 14 for CUDA 13 and numpy
# 2.5 preinstalled (numba-cuda 0.30 cannot compile with numpy 2.5: numpy 2.4 comes from .whl/);
# platformdirs missing; compiling every CPU kernel first takes 60-90 s there, kept in
# $NUMBA_CACHE_DIR for the later steps. gpusolve runs from a copy of this checkout laid out as
# installed (kernels and data inside the package), and Python runs with -P, so the checkout's bare
# gpusolve/ folder never shadows it.
set -uo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
OUT=${OUT:-$REPO/gpu-check}
MLIR=0 REPEATS=3 TESTS=1 BENCH=1 DRY=0 BUDGET=${BUDGET:-510}
while (($#)); do
    case $1 in
        --mlir) MLIR=1 ;;
        --repeats) REPEATS=$2; shift ;;
        --no-tests) TESTS=0 ;;
        --no-bench) BENCH=0 ;;
        --dry-run) DRY=1 ;;
        *) echo "error: unknown option $1 (see the head of $0)" >&2; exit 2 ;;
    esac
    shift
done
BENCH_ARGS=(--out "$OUT/bench" --repeats "$REPEATS" --backends "${BACKENDS:-cuda,auto,cpu}"
            --calls "${CALLS-pattern_matrix,metrics,first_pass}" --table-seconds "${TABLE_SECONDS:-150}")
if ((DRY)); then  # the steps, and the benchmark's processes within what they are expected to leave
    before=$((10 + (TESTS ? 200 : 0) + 80))  # installing, the CUDA tests (187 s on an H200), the doctor
    echo "would install .whl/*.whl and lay out gpusolve in /tmp/gpusolve-site"
    ((TESTS)) && echo "would run the CUDA tests on the GPU: $(grep -l "mark.cuda" tests/test_*.py | tr '\n' ' ')"
    echo "would run gpusolve doctor; then, about $before s in, the benchmark:"
    ((BENCH)) && python3 scripts/bench_gpu.py --dry-run "${BENCH_ARGS[@]}" --budget $((BUDGET - before - 10)) \
        --out "$(mktemp -d)"
    ((MLIR)) && echo "would run the CUDA tests, the PTX check and the doctor under numba-cuda-mlir"
    exit 0
fi
mkdir -p "$OUT"
: > "$OUT/summary.txt"
export PYTHONUNBUFFERED=1 MPLBACKEND=Agg
export NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-/tmp/gpusolve-numba} GPUSOLVE_CACHE_DIR=${GPUSOLVE_CACHE_DIR:-/tmp/gpusolve-cache}
export GPUSOLVE_RUNS_DIR=/tmp/gpusolve-runs
CUDA_TESTS=${CUDA_TESTS:-$(grep -l "mark.cuda" tests/test_*.py | tr '\n' ' ')}
SECONDS=0

say() { echo "$*" | tee -a "$OUT/summary.txt"; }

lay_out() {  # lay_out SITE: gpusolve as installed, from this checkout
    mkdir -p "$1/gpusolve"
    cp -r gpusolve/. "$1/gpusolve/"
    cp -r kernels "$1/gpusolve/kernels"
    cp -r data "$1/gpusolve/data"
}

cuda_tests() {  # cuda_tests LOG: the CUDA tests on the GPU; the last line of pytest's report
    timeout "${TEST_SECONDS:-330}" python3 -P -m pytest -q -p no:cacheprovider -m cuda ${TESTS_K:+-k "$TESTS_K"} \
        $CUDA_TESTS > "$1" 2>&1
    local rc=$?
    ((rc == 124)) && echo "timed out after ${TEST_SECONDS:-330} s: $(grep -c '^FAILED' "$1") failed so far"
    tail -n 1 "$1"
}

# 1. What the machine lacks, and gpusolve itself
SITE=/tmp/gpusolve-site
rm -rf "$SITE"
if compgen -G ".whl/*.whl" > /dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" \
        .whl/*.whl > /tmp/gpusolve-install.log 2>&1 || { cat /tmp/gpusolve-install.log; exit 1; }
fi
lay_out "$SITE"
export PYTHONPATH=$SITE
say "== gpu_check $(date -u +%Y-%m-%dT%H:%MZ), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"

if ((TESTS)); then
    # 2. The CUDA tests on the GPU (the first compile of every CPU kernel happens here)
    found=$(cuda_tests "$OUT/cuda-tests.log")
    say "CUDA tests (numba-cuda): $found ($SECONDS s in)"
fi
# 3. The doctor: the backend auto picks and why; GPU == CPU on the real lists
timeout 180 python3 -P -m gpusolve doctor > "$OUT/doctor.log" 2>&1
say "doctor (exit $?; $SECONDS s in):"
grep -E "^(backend \(|device:|versions:|ok |FAILED |skipped |time )" "$OUT/doctor.log" | tee -a "$OUT/summary.txt"

# 4. The benchmark: every row of issues 27 and 35, cuda and auto against cpu, within the budget left
if ((BENCH)); then
    left=$((BUDGET - SECONDS > 60 ? BUDGET - SECONDS : 60))
    timeout "$left" python3 -P scripts/bench_gpu.py "${BENCH_ARGS[@]}" --budget $((left - 10)) \
        > "$OUT/bench.log" 2>&1

    say "benchmark (exit $?; $SECONDS s in):"
    sed -n '/^[0-9-]*, /,$p' "$OUT/bench.log" | tee -a "$OUT/summary.txt"
fi

# 5. numba-cuda-mlir: the same kernels compiled by it ($GPUSOLVE_CUDA_COMPILER, kernels/gpu.py),
#    with the machine's own numpy (2.5; .whl's numpy 2.4 stays out of $MSITE): the CUDA tests,
#    the PTX check (no GPU needed: CI runs it too) and the doctor
if ((MLIR)); then
    MSITE=/tmp/gpusolve-mlir
    rm -rf "$MSITE" && mkdir -p "$MSITE"
    tar -C "$MSITE" -xJf .whl/mlir/numba-cuda-mlir.tar.xz
    python3 -m pip install -q --no-index --no-deps --no-compile --target "$MSITE" .whl/platformdirs-*.whl \
        >> /tmp/gpusolve-install.log 2>&1
    lay_out "$MSITE"
    export GPUSOLVE_CUDA_COMPILER=numba-cuda-mlir
    say "numba-cuda-mlir: $(PYTHONPATH=$MSITE python3 -P -c 'import numpy, numba_cuda_mlir; from gpusolve.kernels import gpu; print(gpu.cuda.__name__, "from numba-cuda-mlir", numba_cuda_mlir.__version__, "numpy", numpy.__version__)' 2>&1 | tail -n 1)"
    found=$(PYTHONPATH=$MSITE cuda_tests "$OUT/mlir-tests.log")
    say "CUDA tests (numba-cuda-mlir): $found ($SECONDS s in)"
    PYTHONPATH=$MSITE timeout 240 python3 -P -m pytest -q -p no:cacheprovider -m ptx tests/test_ptx.py \
        > "$OUT/mlir-ptx.log" 2>&1
    say "PTX check (numba-cuda-mlir, no GPU used): $(tail -n 1 "$OUT/mlir-ptx.log") ($SECONDS s in)"
    PYTHONPATH=$MSITE timeout 120 python3 -P -m gpusolve doctor > "$OUT/mlir-doctor.log" 2>&1
    say "doctor with numba-cuda-mlir (exit $?):"
    grep -E "^(backend \(|ok |FAILED |skipped )" "$OUT/mlir-doctor.log" | tee -a "$OUT/summary.txt"
fi
say "gpu_check done in $SECONDS s; logs in $OUT"
