"""``gpusolve doctor``: what backend runs here, and proof that the GPU agrees with the CPU."""

from __future__ import annotations

import importlib.metadata
import os
import platform
import random
import time

import numba
import numpy as np

from . import __version__
from .core.backend import CpuBackend, CudaBackend, cuda_status, device_info
from .core.games import make_game
from .core.patterns import PatternMatrix, build_codes
from .kernels.stats import N_STATS
from .search.bounds import FirstPass, SecondPass, first_pass, guess_caps, guess_table, second_pass

PACKAGES = ("numpy", "numba", "numba-cuda", "numba-cuda-mlir", "nvidia-nvvm", "nvidia-cuda-nvcc-cu12",
            "cupy-cuda13x", "cupy-cuda12x", "cupy-cuda11x", "typer", "rich")
"""The packages whose versions the report gives (those installed): numba-cuda's NVVM comes from
nvidia-nvvm (CUDA 13) or nvidia-cuda-nvcc-cu12 (CUDA 12)."""


def versions() -> dict[str, str]:
    """Return the installed versions of gpusolve and the packages it relies on."""
    found = {"python": platform.python_version(), "gpusolve": __version__}
    for name in PACKAGES:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return found


def timed(function, *args):
    """Return (result, seconds) of one call."""
    start = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - start


def check(samples: int = 2000, seed: int = 0) -> dict:
    """Return the doctor's report: backend choice, device, versions, equivalence, timings."""
    usable, reason = cuda_status()
    simulated = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
    report = {
        "auto_backend": "cuda" if usable else "cpu",
        "reason": reason,
        "device": device_info(),
        "threads": numba.get_num_threads(),
        "versions": versions(),
        "checks": [],
        "timings": {},
    }
    game = make_game()
    guesses, answers = game.word_lists("allowed", "answers")
    if simulated:  # the simulator runs kernels in Python: check the GPU path on a slice
        answers = answers[::100]
        guesses = answers + guesses[::1000]  # every answer stays a guess (the exact search's rule)
    engines = [CpuBackend()] + ([CudaBackend(every_call=True)] if usable or simulated else [])
    matrices = {}
    for engine in engines:
        build_codes(game, guesses[:8], answers[:8], engine)  # compile or load the kernels first
        matrices[engine.name], seconds = timed(build_codes, game, guesses, answers, engine)
        report["timings"][f"pattern_matrix_{engine.name}_s"] = round(seconds, 4)
    cpu = matrices["cpu"]
    rng = random.Random(seed)
    pairs = [(rng.randrange(len(guesses)), rng.randrange(len(answers))) for _ in range(samples)]
    wrong = int(sum(cpu[g, a] != game.reply(guesses[g], answers[a]) for g, a in pairs))
    report["checks"].append({"name": f"CPU matrix vs pure-Python rule ({samples} random pairs)",
                             "ok": wrong == 0, "detail": f"{wrong} disagree"})
    rows = np.arange(len(guesses), dtype=np.int32)
    cols = np.arange(len(answers), dtype=np.int32)
    # the reply-histogram kernel: every statistic of every guess over all the answers, then
    # over three sets at once (every other answer, none, one)
    half = len(cols[::2])
    whole = (rows, cols, np.array([0, len(cols)]), game.n_patterns, game.solved, np.arange(N_STATS))
    sets = (rows, np.concatenate([cols[::2], cols[:1]]), np.array([0, half, half, half + 1]),
            game.n_patterns, game.solved, np.arange(N_STATS))
    stats = {}
    for engine in engines:
        engine.reply_stats(cpu, *whole)
        table, seconds = timed(engine.reply_stats, cpu, *whole)
        report["timings"][f"metrics_all_guesses_{engine.name}_s"] = round(seconds, 4)
        stats[engine.name] = (table, engine.reply_stats(cpu, *sets))
    passes, hard_passes, seconds_passes = {}, {}, {}
    for engine in engines:  # the first- and second-pass kernels: proven bounds of start words' buckets
        pm = PatternMatrix(game, guesses, answers, cpu, engine)
        first, seconds = timed(first_pass_bounds, pm)
        report["timings"][f"first_pass_64_starts_{engine.name}_s"] = round(seconds, 4)
        hard, seconds = timed(first_pass_bounds, pm, True)
        report["timings"][f"hard_first_pass_64_starts_{engine.name}_s"] = round(seconds, 4)
        hard_passes[engine.name] = (hard.totals, hard.buckets)
        second, seconds = timed(second_pass_bounds, pm, first)
        report["timings"][f"second_pass_8_starts_{engine.name}_s"] = round(seconds, 4)
        passes[engine.name] = (first.totals, first.buckets)
        seconds_passes[engine.name] = (second.totals, second.buckets)
    if usable or simulated:
        shape = f"{len(guesses):,} x {len(answers):,}" + (", simulated" if simulated else "")
        same = bool((matrices["cuda"] == cpu).all())
        report["checks"].append({"name": f"GPU matrix == CPU matrix ({shape})", "ok": same,
                                 "detail": "identical" if same else "differs"})
        same = all(np.array_equal(g, c) for g, c in zip(stats["cuda"], stats["cpu"]))
        report["checks"].append({"name": f"GPU reply statistics == CPU ({shape}; and 3 sets at once)",
                                 "ok": same, "detail": "identical" if same else "differs"})
        same = all(np.array_equal(g, c) for g, c in zip(passes["cuda"], passes["cpu"]))
        report["checks"].append({"name": f"GPU first-pass bounds == CPU ({shape}; 64 start words)",
                                 "ok": same, "detail": "identical" if same else "differs"})
        same = all(np.array_equal(g, c) for g, c in zip(hard_passes["cuda"], hard_passes["cpu"]))
        report["checks"].append({"name": f"GPU hard-mode first-pass bounds == CPU ({shape}; 64 start words)",
                                 "ok": same, "detail": "identical" if same else "differs"})
        same = all(np.array_equal(g, c) for g, c in zip(seconds_passes["cuda"], seconds_passes["cpu"]))
        report["checks"].append({"name": f"GPU second-pass bounds == CPU ({shape}; 8 start words)",
                                 "ok": same, "detail": "identical" if same else "differs"})
    else:
        report["checks"].append({"name": "GPU vs CPU equivalence", "ok": None,
                                 "detail": reason})
    report["ok"] = all(c["ok"] is not False for c in report["checks"])
    return report


def first_pass_bounds(pm: PatternMatrix, hard: bool = False) -> FirstPass:
    """Return the first pass of 64 start words spread over the guesses over every answer, with 5
    guesses to go after them, on ``pm``'s backend (in hard mode where ``hard``)."""
    answers = np.arange(pm.shape[1], dtype=np.int32)
    rows = np.arange(pm.shape[0], dtype=np.int32)
    starts = rows[:: max(1, len(rows) // 64)][:64]
    caps = guess_caps(guess_table(pm, answers, rows))
    return first_pass(pm, answers, starts, rows, caps, 5, hard=hard)


def second_pass_bounds(pm: PatternMatrix, first: FirstPass) -> SecondPass:
    """Return the second pass of 8 of the start words of ``first`` on ``pm``'s backend."""
    pick = np.arange(0, len(first.starts), max(1, len(first.starts) // 8))[:8]
    eight = FirstPass(first.starts[pick], first.totals[pick], first.buckets[pick], first.cutoff)
    answers = np.arange(pm.shape[1], dtype=np.int32)
    return second_pass(pm, answers, eight, np.arange(pm.shape[0], dtype=np.int32), 5, pm.branches)
