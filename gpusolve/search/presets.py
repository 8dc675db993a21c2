"""Fixed guess-set strategies (seed 003): play preset words first, then any consistent word.

The player guesses the presets in order whatever the replies, then guesses a uniformly random
answer still consistent with every reply. Scores are averaged over those random choices, so
score frequencies can be fractional. A set *always wins* when every consistent choice wins
within the guess limit.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

import numba
import numpy as np

from ..core.errors import GpusolveError
from ..core.patterns import PatternMatrix
from ..core.words import Word
from ..kernels import presets_cpu as k
from ..kernels import setkeys
from .plumbing import Budget, OnProgress, Progress

MAX_SETS = 10_000_000
"""The most disjoint sets one search examines (about 300 MiB, minutes of work on a few cores)."""

ZOBRIST_SEED = 20220214
"""Seed of the random 64-bit word per answer whose XOR finds answer sets in the memo (``kernels.setkeys``)."""


@dataclass
class PresetReport:
    """How a preset guess set fares over every answer.

    ``seed_win_rate`` and ``seed_mean`` count as seed 003 does: each preset guess scores as a
    win at its position even when it is not an answer (the extra wins are counted in the win
    rate over the answers and added to the mean's denominator).
    """

    words: tuple[Word, ...]
    n_answers: int
    win_rate: float
    mean: float
    worst: int
    frequencies: dict[int, float]
    bin_sizes: dict[int, int]
    always_wins: bool
    seed_win_rate: float
    seed_mean: float
    losing_bins: list[tuple[list[Word], list[Word]]] = field(default_factory=list)

    def as_dict(self) -> dict:
        """Return the report as a JSON-ready dict."""
        return {
            "words": list(self.words),
            "answers": self.n_answers,
            "win_percent": round(100 * self.win_rate, 4),
            "mean": round(self.mean, 6),
            "worst": self.worst,
            "always_wins": self.always_wins,
            "seed_win_percent": round(100 * self.seed_win_rate, 4),
            "seed_mean": round(self.seed_mean, 6),
            "score_frequencies": {str(s): round(f, 6) for s, f in self.frequencies.items()},
            "bin_sizes": {str(s): c for s, c in self.bin_sizes.items()},
            "losing_bins": [{"bin": b, "can_lose_with": w} for b, w in self.losing_bins],
        }


class _Square:
    """The answers x answers reply matrix of a pattern matrix and the memo key words."""

    def __init__(self, pm: PatternMatrix) -> None:
        self.pm = pm
        self.codes = np.ascontiguousarray(pm.codes)
        self.square = np.ascontiguousarray(pm.codes[pm.answer_rows])
        self.answer_rows = pm.answer_rows.astype(np.int32)
        self.n_patterns = pm.game.n_patterns
        self.zobrist = setkeys.zobrist(len(pm.answers), ZOBRIST_SEED)


def preset_rows(pm: PatternMatrix, words: list[str] | tuple[str, ...]) -> np.ndarray:
    """Return the guess rows of preset words (each checked, no repeats)."""
    rows = [pm.guess_index[pm.game.parse_word(w, pm.guess_index)] for w in words]
    if len(set(rows)) != len(rows):
        raise GpusolveError("preset words must be different from each other")
    if not rows:
        raise GpusolveError("give at least one preset word")
    return np.array(rows, dtype=np.int32)


def _split(sq: _Square, members: np.ndarray, guess: int) -> list[np.ndarray]:
    order, starts = k.split_bin(sq.square, members, np.int32(guess), sq.n_patterns)
    return [order[starts[i]:starts[i + 1]] for i in range(len(starts) - 1)]


def preset_report(pm: PatternMatrix, words: list[str] | tuple[str, ...], max_guesses: int = 6,
                  show_bins: int = 3) -> PresetReport:
    """Return the report of playing ``words`` first, then any consistent word."""
    rows = preset_rows(pm, words)
    if len(rows) >= max_guesses:
        raise GpusolveError(f"{len(rows)} preset words leave no guess of the {max_guesses}")
    sq = _Square(pm)
    order, starts, solved_at = k.preset_bins(sq.codes, rows, sq.answer_rows, sq.n_patterns)
    n_presets = len(rows)
    more = max_guesses - n_presets
    freq: Counter = Counter()
    for position in solved_at[solved_at > 0]:
        freq[int(position)] += 1.0
    memo = k.new_histogram_memo()
    sizes: Counter = Counter()
    wins = True
    losing = []
    bins = [order[starts[i]:starts[i + 1]] for i in range(len(starts) - 1)]
    for members in bins:
        sizes[len(members)] += 1
        h = k.score_histogram(sq.square, members, sq.n_patterns, sq.zobrist, memo)
        for j in range(1, len(h)):
            if h[j]:
                freq[n_presets + j] += float(h[j])
        if not k.always_wins(sq.square, members, more, sq.n_patterns):
            wins = False
    for members in sorted(bins, key=len, reverse=True):
        if len(members) < show_bins:
            break
        bad = [int(g) for g in members
               if not all(k.always_wins(sq.square, s, more - 1, sq.n_patterns)
                          for s in _split(sq, members, g))]
        if bad:
            losing.append((sorted(pm.answers[a] for a in members), sorted(pm.answers[a] for a in bad)))
    n = len(pm.answers)
    frequencies = {s: freq[s] for s in sorted(freq) if freq[s] > 1e-12}
    wins_within = sum(f for s, f in frequencies.items() if s <= max_guesses)
    # Seed 003 counts each preset guess as a win at its position even when it is not an answer.
    answer_rows = set(sq.answer_rows.tolist())
    not_answers = [i + 1 for i, r in enumerate(rows) if r not in answer_rows]
    total = sum(s * f for s, f in frequencies.items())
    return PresetReport(
        words=tuple(pm.guesses[r] for r in rows),
        n_answers=n,
        win_rate=wins_within / n,
        mean=total / n,
        worst=max(frequencies),
        frequencies=frequencies,
        bin_sizes=dict(sorted(sizes.items())),
        always_wins=wins,
        seed_win_rate=(wins_within + len(not_answers)) / n,
        seed_mean=(total + sum(not_answers)) / (n + len(not_answers)),
        losing_bins=losing,
    )


@dataclass
class PresetSearch:
    """The result of searching disjoint preset sets."""

    n_words: int
    pool: int
    searched: int
    exhaustive: bool
    winners: list[tuple[tuple[Word, ...], float]]
    best: list[tuple[tuple[Word, ...], float, bool]]
    evaluated_exactly: int
    seconds: float

    def as_dict(self) -> dict:
        """Return the search result as a JSON-ready dict."""
        return {
            "words": self.n_words,
            "pool": self.pool,
            "sets_searched": self.searched,
            "exhaustive": self.exhaustive,
            "winners": [{"set": list(w), "mean": round(m, 6)} for w, m in self.winners],
            "best_mean": [{"set": list(w), "mean": round(m, 6), "always_wins": a}
                          for w, m, a in self.best],
            "exact_evaluations": self.evaluated_exactly,
            "seconds": round(self.seconds, 3),
        }


def letter_mask(word: Word) -> int:
    """Return the bit mask of a word's letters."""
    mask = 0
    for c in word:
        mask |= 1 << (ord(c) - ord("A"))
    return mask


def candidate_pool(pm: PatternMatrix, pool: str = "answers", letters: int = 26) -> list[Word]:
    """Return the words with distinct letters, drawn from ``pool`` (answers or guesses), that
    use only the ``letters`` most frequent letters of the answers."""
    counts = Counter("".join(pm.answers))
    common = {c for c, _ in counts.most_common(letters)}
    source = {"answers": pm.answers, "guesses": pm.guesses}.get(pool)
    if source is None:
        raise GpusolveError(f"unknown pool {pool!r}: choose answers or guesses")
    return [w for w in source if len(set(w)) == len(w) and common.issuperset(w)]


def search_presets(pm: PatternMatrix, n_words: int = 4, samples: int | None = None, seed: int = 0,
                   pool: str = "answers", letters: int = 26, top: int = 10,
                   max_guesses: int = 6, progress: OnProgress | None = None,
                   budget: Budget | None = None) -> PresetSearch:
    """Return every always-winning disjoint set of ``n_words`` words found and the best means.

    All disjoint sets are searched unless ``samples`` asks for that many at random. Means are
    exact for the ``top`` best: sets are evaluated in order of a lower bound on their mean
    (each bin's first consistent guess taken exactly, then every sub-bin of m answers needs at
    least 2m - 1 guesses in all) until the bound passes the ``top``-th best mean found.
    ``progress`` hears of the work in steps; Ctrl-C and the ``budget``'s time limit stop it
    between them (KeyboardInterrupt, or a one-line error: nothing is claimed from a stopped search).
    """
    if pm.game.kind != 0 and pm.game.name != "wordle":  # pragma: no cover - guard
        raise GpusolveError("preset search is defined for letter games")
    if not 1 <= n_words < max_guesses:
        raise GpusolveError(f"--words must be between 1 and {max_guesses - 1}")
    start = time.perf_counter()
    words = candidate_pool(pm, pool, letters)
    masks = np.array([letter_mask(w) for w in words], dtype=np.int64)
    if not 1 <= letters <= 26 or top < 1:
        raise GpusolveError("--letters takes 1 to 26 and --top at least 1")
    sets = k.disjoint_sets(masks, n_words, MAX_SETS)
    if len(sets) > MAX_SETS:
        raise GpusolveError(f"more than {MAX_SETS:,} disjoint {n_words}-word sets in a pool of "
                            f"{len(words):,} words: too many to search; narrow it (--pool answers, "
                            "--letters, fewer --words)")
    if not len(sets):
        raise GpusolveError(f"no {n_words} words of the pool ({len(words):,} words) have disjoint letters")
    exhaustive = samples is None or samples >= len(sets)
    if not exhaustive:
        rng = np.random.default_rng(seed)
        sets = sets[np.sort(rng.choice(len(sets), samples, replace=False))]
    rows = np.array([pm.guess_index[w] for w in words], dtype=np.int32)
    sets = np.ascontiguousarray(rows[sets])
    sq = _Square(pm)
    threads = numba.get_num_threads()
    budget = budget or Budget(None)
    n = len(pm.answers)
    exact: dict[int, float] = {}

    def step(what: Progress) -> None:
        budget.check("the preset search")
        if progress:
            progress(what)

    def evaluate(indices: np.ndarray) -> None:
        todo = np.array([i for i in indices if i not in exact], dtype=np.int64)
        if len(todo):
            out = np.empty(len(todo))
            k.set_totals(sq.codes, sq.square, np.ascontiguousarray(sets[todo]), sq.answer_rows,
                         sq.n_patterns, sq.zobrist, out, threads)
            exact.update(zip(todo.tolist(), out.tolist()))
            step(Progress("exact means", len(exact)))

    with budget.guard():  # Ctrl-C and the time limit, checked at every step
        bounds, wins, _ = first_pass(pm, sq, sets, max_guesses - n_words, step)
        evaluate(np.flatnonzero(wins))
        by_bound = np.argsort(bounds, kind="stable")
        chunk = max(64, 4 * threads)
        for lo in range(0, len(by_bound), chunk):
            if len(exact) >= top:
                kth = sorted(exact.values())[top - 1]
                if bounds[by_bound[lo]] > kth + 1e-9:
                    break
            evaluate(by_bound[lo:lo + chunk])

    def named(i: int) -> tuple[Word, ...]:
        return tuple(pm.guesses[r] for r in sets[i])

    winners = sorted(((named(i), exact[i] / n) for i in np.flatnonzero(wins)), key=lambda x: x[1])
    best = sorted(exact.items(), key=lambda x: (x[1], x[0]))[:top]
    return PresetSearch(
        n_words=n_words,
        pool=len(words),
        searched=len(sets),
        exhaustive=exhaustive,
        winners=winners,
        best=[(named(i), t / n, bool(wins[i])) for i, t in best],
        evaluated_exactly=len(exact),
        seconds=time.perf_counter() - start,
    )


def first_pass(pm: PatternMatrix, sq: _Square, sets: np.ndarray, more: int, progress: OnProgress | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (lower bound on the total score, always wins, largest bin) of every preset set
    (rows of ``sets``) with ``more`` guesses after the presets: one GPU thread per set on the
    CUDA backend, all cores on the CPU in steps that ``progress`` hears of (the same numbers)."""
    if len(sets) and pm.backend.on_gpu():
        return gpu_set_bounds(pm, sq, sets, more)
    bounds = np.empty(len(sets))
    wins = np.empty(len(sets), dtype=np.bool_)
    biggest = np.empty(len(sets), dtype=np.int32)
    threads = numba.get_num_threads()
    step = 256 * threads
    for lo in range(0, len(sets), step):  # in steps: progress, and Ctrl-C between them
        hi = min(len(sets), lo + step)
        k.set_bounds(sq.codes, sq.square, sets[lo:hi], sq.answer_rows, sq.n_patterns, more,
                     bounds[lo:hi], wins[lo:hi], biggest[lo:hi], threads)
        if progress:
            progress(Progress("bounds", hi, len(sets)))
    return bounds, wins, biggest


def gpu_set_bounds(pm: PatternMatrix, sq: _Square, sets: np.ndarray, more: int
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return ``first_pass`` of every preset set, one GPU thread per set: the numbers
    ``presets_cpu.set_bounds`` gives."""
    from ..kernels import config, preset_bounds, presets_cuda

    n = len(pm.answers)
    if pm.game.n_patterns ** sets.shape[1] * n >= 2**62:
        raise GpusolveError("too many preset words for the GPU's bin keys; use --backend cpu")
    if more > preset_bounds.MAX_LEVELS + 1:
        raise GpusolveError(f"the GPU preset kernel handles at most {preset_bounds.MAX_LEVELS + 1} "
                            "guesses after the presets; use --backend cpu")
    gpu = pm.backend
    blocks = gpu.blocks(min(len(sets), config.PRESET_GPU_THREADS), per_thread=True)
    threads = blocks * config.THREADS_PER_BLOCK
    keys = gpu.empty((threads, n), np.int64)
    buf = gpu.empty((threads, max(1, more) * n), np.int32)
    seen = gpu.empty((threads, pm.game.n_patterns), np.int64)
    bounds = gpu.empty(len(sets), np.float64)
    wins = gpu.empty(len(sets), np.uint8)
    biggest = gpu.empty(len(sets), np.int32)
    gpu.launch(presets_cuda.set_bounds, blocks, gpu.resident(sq.codes), sq.square, sets, sq.answer_rows,
               pm.game.n_patterns, more, keys, buf, seen, bounds, wins, biggest, cells=len(sets) * n)
    return gpu.to_host(bounds), gpu.to_host(wins).astype(np.bool_), gpu.to_host(biggest)
