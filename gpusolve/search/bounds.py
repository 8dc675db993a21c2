"""First-pass bounds: a proven lower bound on the total of every start word, before any search.

A start word splits the answers into buckets; each bucket of ``m >= 3`` answers costs at least
its partition bound ``3m - max over guesses of (distinct replies + [guess in bucket])`` and its
level bound with that many replies (see ``kernels/bounds_cpu.py``, ``kernels/levels.py``), a
bucket of 2 costs 3 and a bucket of 1 costs 1. The first-pass bound of the start word is the
number of answers plus the bounds of its buckets. It refutes most start words outright (their
bound already reaches the best total known), and the bucket bounds of the others give the
exact search tight limits from its first bucket on. In hard mode each bucket is scored over the
guesses the hard-mode rule allows after the start word's reply alone (``hard=True``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..core.backend import CpuBackend
from ..core.patterns import PatternMatrix
from ..kernels.config import INF

if TYPE_CHECKING:
    from ..kernels.bounds_cpu import Facts, Scores


@dataclass
class FirstPass:
    """First-pass bounds of some start words: ``totals[j]`` proven <= the total of ``starts[j]``,
    ``buckets[j, p]`` proven <= V(bucket of reply p); exact partition bounds where ``complete``."""

    starts: np.ndarray
    totals: np.ndarray
    buckets: np.ndarray
    cutoff: int

    def complete(self, j: int) -> bool:
        """Return whether start ``j``'s scan ran to its end (its bounds are not cut short)."""
        return self.cutoff >= INF or self.totals[j] < self.cutoff

    def raise_to(self, j: int, known: np.ndarray, n: int) -> None:
        """Raise start ``j``'s bucket bounds to the proven ``known`` ones (a start word over ``n``
        answers), and its total with them."""
        self.buckets[j] = np.maximum(self.buckets[j], known)
        self.totals[j] = min(n + int(self.buckets[j].sum()), INF)


def guess_table(pm: PatternMatrix, answers: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Return int64 rows (distinct replies, guess is an answer, sum of squared bucket sizes)
    of the guess ``rows`` over the answer columns ``answers``: the backend's reply statistics
    (one GPU launch for large sets on the CUDA backend, the CPU twin otherwise)."""
    from ..kernels.stats import BRANCHES, SOLVED, SUM_SQUARES

    table = pm.backend.set_stats(pm.codes, rows, answers, pm.game.n_patterns, pm.game.solved,
                                 (BRANCHES, SOLVED, SUM_SQUARES)).astype(np.int64)
    table[:, 1] = table[:, 1] > 0
    return table


_WHOLE: dict = {}


def whole_table(pm: PatternMatrix) -> np.ndarray:
    """Return ``guess_table`` of every guess over every answer, kept for the last matrix."""
    if _WHOLE.get("pm") is not pm:
        _WHOLE.clear()
        _WHOLE.update(pm=pm, table=guess_table(pm, np.arange(pm.shape[1]), np.arange(pm.shape[0])))
    return _WHOLE["table"]


def guess_caps(table: np.ndarray) -> np.ndarray:
    """Return each guess's cap (its distinct replies over the whole set) from a ``guess_table``."""
    return table[:, 0]


@dataclass(frozen=True)
class Answerers:
    """What the CPU first pass reads of the guesses that may answer a set's buckets, made once
    per set (``answerers``): their rows and caps by decreasing cap, the answer-major replies of
    those rows in that order (none where each bucket is answered by its own answers), the most
    distinct replies any of the set's answers gives on it, the scores of the buckets its
    first passes have scored pairwise so far (``kernels.bounds_cpu.Scores``: the next first pass
    over a bucket already scored reads its score, proven by the bucket's members), and the
    letter facts' replies that let its scans skip guesses (``kernels.bounds_cpu.Facts``; no rows
    where not asked for or not Wordle's replies)."""

    rows: np.ndarray
    caps: np.ndarray
    replies: np.ndarray
    member_most: int
    scores: Scores
    facts: Facts


def answerers(pm: PatternMatrix, answers: np.ndarray, rows: np.ndarray, caps: np.ndarray,
              members_only: bool = False, facts: bool = False) -> Answerers:
    """Return the ``Answerers`` of the guess ``rows`` (with their ``caps``) over ``answers``, with
    room for letter facts where ``facts`` asks (normal mode: the guesses scanned one by one)."""
    from ..kernels.bounds_cpu import new_facts, new_scores
    from ..kernels.replies import WORDLE
    from ..kernels.stats import BRANCHES

    order = np.argsort(-caps, kind="stable")
    ranked = np.ascontiguousarray(rows[order], np.int32)
    replies = np.zeros((0, 0), np.uint8) if members_only else \
        np.ascontiguousarray(answer_replies(pm, answers, ranked))
    own = CpuBackend().set_stats(pm.codes, pm.answer_rows[answers], answers, pm.game.n_patterns,
                                 pm.game.solved, (BRANCHES,))
    with_facts = facts and not members_only and pm.game.kind == WORDLE
    return Answerers(ranked, np.ascontiguousarray(caps[order], np.int64), replies, int(own[:, 0].max()),
                     new_scores(pm.shape[1]),
                     new_facts(ranked, pm.letters, pm.letter_counts) if with_facts else new_facts())


def first_pass(pm: PatternMatrix, answers: np.ndarray, starts: np.ndarray, rows: np.ndarray,
               caps: np.ndarray, left: int, members_only: bool = False, cutoff: int | None = None,
               kept: Answerers | None = None, pair_max: int | None = None, hard: bool = False,
               stop: np.ndarray | None = None) -> FirstPass:
    """Return the first-pass bounds of the guess rows ``starts`` over the answer columns
    ``answers`` with ``left`` guesses to go after them.

    ``rows`` (with their ``caps``) are the guesses that may answer a bucket (a superset is
    allowed: the bound stays proven); ``members_only``: each bucket is answered by its own
    answers instead (consistent mode); ``hard``: by those of ``rows`` the hard-mode rule allows
    after the start word's reply (hard mode; ``rows`` those allowed before it). With a ``cutoff``,
    a start word's scan stops once its bound reaches it. ``kept``: ``answerers(pm, answers, rows,
    caps, members_only)``, when the caller keeps it; ``pair_max`` tunes the kernels
    (``kernels.bounds_cpu.PAIR_MAX``, ``PAIR_RATIO``; never changes a result). ``stop``: a
    search's stop flag (``Budget.flag[1:]``), polled between the CPU threads' slices: once set,
    no slice starts and KeyboardInterrupt is raised (the search's own way of stopping).
    """
    import numba

    from ..kernels.bounds_cpu import (
        PAIR_MAX,
        Guesses,
        Words,
        fill_facts,
        remember,
        start_bounds,
        start_hard_bounds,
    )
    from ..kernels.threads import over_slices

    starts = np.ascontiguousarray(starts, np.int32)
    if on_gpu(pm, len(answers), len(starts), len(rows), cutoff=cutoff):
        return _first_pass_cuda(pm, answers, starts, rows, left, members_only, hard)
    if kept is None:
        kept = answerers(pm, answers, rows, caps, members_only)
    limit = INF if cutoff is None else int(min(cutoff, INF))
    pair_max = PAIR_MAX if pair_max is None else pair_max
    game = pm.game
    buckets = np.zeros((len(starts), game.n_patterns), np.int64)
    totals = np.zeros(len(starts), np.int64)
    fresh = np.zeros((len(starts), game.n_patterns), np.int64)
    codes, answers, answer_rows = (np.ascontiguousarray(pm.codes), np.ascontiguousarray(answers, np.int32),
                                   pm.answer_rows.astype(np.int32))
    words = Words(game.kind, game.length, game.colours, pm.letters, pm.letter_counts)
    guesses = Guesses(kept.rows, kept.caps, kept.facts)
    if kept.facts.replies.shape[1] and not hard:  # the threads only read them: filled here, before them
        fill_facts(codes, kept.replies, answers, answer_rows, starts, game.n_patterns, pair_max, kept.facts)

    def slice_of(lo: int, hi: int) -> None:  # the start words lo to hi, on a thread
        if stop is not None and stop[0]:
            return
        if hard:
            start_hard_bounds(codes, words, kept.replies, answers, starts[lo:hi], guesses, game.solved,
                              game.n_patterns, left, answer_rows, kept.member_most, limit, pair_max,
                              buckets[lo:hi], totals[lo:hi])
        else:
            start_bounds(codes, kept.replies, answers, starts[lo:hi], guesses, game.solved, left,
                         members_only, answer_rows, kept.member_most, limit, pair_max, kept.scores,
                         buckets[lo:hi], totals[lo:hi], fresh[lo:hi])

    over_slices(slice_of, len(starts), numba.get_num_threads())
    if stop is not None and stop[0]:
        raise KeyboardInterrupt
    if fresh.any():  # the threads only read the scores: they are written here, after them
        remember(kept.scores, codes, answers, starts, left, fresh)
    return FirstPass(starts, totals, buckets, limit)


def screened_hard_pass(pm: PatternMatrix, answers: np.ndarray, starts: np.ndarray, rows: np.ndarray,
                       caps: np.ndarray, left: int, cutoff: int, kept: Answerers, pair_max: int | None = None,
                       stop: np.ndarray | None = None) -> FirstPass:
    """Return hard mode's first-pass bounds of the guess rows ``starts`` (see ``first_pass``; on the
    CPU, ``kept`` with room for letter facts): the normal-mode pass first, and the hard-mode pass of
    those it leaves below ``cutoff`` alone. The same start words come out below ``cutoff`` as from
    the hard-mode pass alone, with the same bounds.

    Sound: a hard-mode strategy for a bucket guesses only rows the rules of its moves allow, all of
    them among ``rows`` (each rule only removes), so it is a normal-mode strategy over ``rows``, and
    the normal-mode first pass over ``rows`` (letter facts and remembered scores included: they only
    skip) bounds it from below; a start word whose normal-mode bound reaches ``cutoff`` is refuted
    in hard mode too (``tests/test_hard_bounds.py`` checks both bounds against the true hard-mode
    values at every node). The others get the hard-mode pass, at least the normal-mode one. The
    normal pass is the cheaper by far on a large set (PLASM's 745 answers after ``.....`` on
    ``nyt-2023-07``: 4.1 CPU s against 10.2 for 7,609 start words, refuting 7,531 of the hard
    pass's 7,585), but refutes few where the cutoff is far above most bounds: the caller screens
    only where the last batch was mostly refuted.
    """
    starts = np.asarray(starts, np.int32)
    first = first_pass(pm, answers, starts, rows, caps, left, cutoff=cutoff, kept=kept, pair_max=pair_max,
                       stop=stop)
    below = np.nonzero(first.totals < cutoff)[0]
    if len(below):
        hard = first_pass(pm, answers, starts[below], rows, caps, left, cutoff=cutoff, kept=kept,
                          pair_max=pair_max, hard=True, stop=stop)
        first.totals[below] = hard.totals
        first.buckets[below] = hard.buckets
    return first


def on_gpu(pm: PatternMatrix, answers: int, starts: int, guesses: int | None = None,
           cutoff: int | None = None) -> bool:
    """Return whether the first pass of ``starts`` start words over ``answers`` answers (each
    bucket answered by ``guesses`` guesses, default all; any mode) runs on the GPU: on the CUDA
    backend, for enough start words to fill it (a few start words are quicker on the CPU, which
    also stops at a cutoff; any number with ``every_call``) and enough work to start it
    (``CudaBackend.offloads``); never with a ``cutoff`` while another thread's launch holds the
    GPU (``busy``: the CPU's scans stop at the cutoff, and need not wait for it)."""
    from ..kernels import config

    cells = starts * answers * (pm.shape[0] if guesses is None else guesses)
    least = 1 if pm.backend.every_call else config.FIRST_PASS_GPU_MIN_STARTS
    return (pm.backend.gpu_path() and starts >= least
            and not (cutoff is not None and pm.backend.busy())
            and pm.backend.offloads(answers, pm.game.n_patterns, cells))


def _first_pass_cuda(pm: PatternMatrix, answers: np.ndarray, starts: np.ndarray, rows: np.ndarray, left: int,
                     members_only: bool, hard: bool) -> FirstPass:
    """Return the exact first-pass bounds computed on the GPU (one block per start word; the
    hard-mode kernel where ``hard``)."""
    from ..kernels import bounds_cuda, config

    gpu = pm.backend
    game = pm.game
    blocks = max(1, min(len(starts), config.BOUNDS_GPU_BLOCKS))
    buckets = gpu.empty((len(starts), game.n_patterns), np.int64)
    totals = gpu.empty(len(starts), np.int64)
    perm = gpu.empty(blocks * len(answers), np.int32)
    cells = len(starts) * len(answers) * len(rows)
    answers, starts, rows, answer_rows = (np.ascontiguousarray(a, np.int32)
                                          for a in (answers, starts, rows, pm.answer_rows))
    sets = (gpu.resident(pm.codes), gpu.resident(pm.answer_major), answers, starts, rows, game.solved)
    out = (perm, buckets, totals)
    if hard:
        gpu.launch(bounds_cuda.start_hard_bounds, blocks, *sets, left, answer_rows, game.kind, game.length,
                   game.colours, pm.letters, pm.letter_counts, *out,  # small: copied per launch
                   cells=cells)
    else:
        gpu.launch(bounds_cuda.start_bounds, blocks, *sets, game.n_patterns, left, members_only, answer_rows,
                   *out, cells=cells)
    return FirstPass(np.asarray(starts), gpu.to_host(totals), gpu.to_host(buckets), INF)


SECOND_PASS_WINDOW = 64
"""How far above its first-pass bound a bucket's second-pass bound is worked out (its cap): the
bound is proven whatever the cap, and a search never needs a bucket's bound higher than that."""


@dataclass
class SecondPass:
    """Second-pass bounds of some start words (``kernels.second_pass_cpu``): ``buckets[j, p]``,
    proven <= V(bucket of reply p under ``starts[j]``), each at least its first-pass bound, and
    ``totals[j]`` = answers + their sum, proven <= the total of ``starts[j]``."""

    starts: np.ndarray
    totals: np.ndarray
    buckets: np.ndarray


def second_pass(pm: PatternMatrix, answers: np.ndarray, first: FirstPass, rows: np.ndarray, left: int,
                branches: int, members_only: bool = False) -> SecondPass:
    """Return the second-pass bounds of the start words of ``first`` (their first-pass bounds
    over the answer columns ``answers``, ``left`` guesses to go after them; normal or consistent
    mode): every bucket of 3 or more answers answered by the guess ``rows`` (by its own answers
    with ``members_only``), no guess leaving more than ``branches`` unsolved replies on any of its
    subsets. One GPU launch on the CUDA backend for enough buckets (``kernels.config``), the
    CPU twin otherwise."""
    from ..kernels import config

    answers = np.asarray(answers, np.int32)
    buckets = first.buckets.copy()
    perm, units, where = _second_pass_units(pm, answers, first, left)
    if len(units):
        least = 1 if pm.backend.every_call else config.SECOND_PASS_GPU_MIN_UNITS
        gpu = (pm.backend.gpu_path() and len(units) >= least
               and pm.backend.offloads(len(answers), pm.game.n_patterns, len(rows) * len(perm)))
        engine = pm.backend if gpu else CpuBackend()
        out = engine.second_pass(pm.codes, pm.answer_major, pm.answer_rows.astype(np.int32), perm, units,
                                 np.ascontiguousarray(rows, np.int32), pm.game.solved, pm.game.n_patterns,
                                 left, branches, members_only)
        buckets[where[:, 0], where[:, 1]] = np.maximum(buckets[where[:, 0], where[:, 1]], out)
    totals = np.minimum(len(answers) + buckets.sum(axis=1), INF)
    return SecondPass(np.asarray(first.starts), totals, buckets)


def _second_pass_units(pm: PatternMatrix, answers: np.ndarray, first: FirstPass,
                       left: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (the answers of each start word grouped by reply, one row after another; the
    units ``(lo, hi, cap)`` of its buckets of 3 or more answers with a finite bound; each
    unit's (start index, reply))."""
    n = len(answers)
    perm = np.empty(len(first.starts) * n, np.int32)
    units, where = [], []
    for j, s in enumerate(first.starts):
        replies = pm.codes[s, answers]
        order = np.argsort(replies, kind="stable")
        perm[j * n:(j + 1) * n] = answers[order]
        sizes = np.bincount(replies, minlength=pm.game.n_patterns)
        ends = j * n + np.cumsum(sizes)
        for p in np.nonzero(sizes >= 3)[0]:
            bound = int(first.buckets[j, p])
            if p != pm.game.solved and left >= 2 and bound < INF:
                units.append((ends[p] - sizes[p], ends[p], min(INF, bound + SECOND_PASS_WINDOW)))
                where.append((j, p))
    return (perm, np.array(units, np.int64).reshape(-1, 3), np.array(where, np.int64).reshape(-1, 2))


def answer_replies(pm: PatternMatrix, answers: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Return the answer-major replies ``out[i, j]`` of guess row ``rows[j]`` to ``answers[i]``
    (gathered from the answer-major matrix: several times quicker than transposing a gather of
    the guess-major one)."""
    if pm.covers(answers, rows):
        return pm.answer_major
    return np.take(pm.answer_major[answers], rows, axis=1)


def size_bound(pm: PatternMatrix, answers: np.ndarray, starts: np.ndarray, most: int,
               left: int) -> np.ndarray:
    """Return a proven lower bound on the total of each start row from its bucket sizes alone
    (``most``: the most distinct replies plus membership any guess gives on ``answers``)."""
    import numba

    from ..kernels.bounds_cpu import size_bounds
    from ..kernels.threads import over_slices

    codes, answers, starts = (np.ascontiguousarray(pm.codes), np.ascontiguousarray(answers, np.int32),
                              np.ascontiguousarray(starts, np.int32))
    out = np.zeros(len(starts), np.int64)

    def words(lo: int, hi: int) -> None:  # the start words lo to hi, on a thread
        size_bounds(codes, answers, starts[lo:hi], int(most), pm.game.solved, pm.game.n_patterns, left,
                    out[lo:hi])

    over_slices(words, len(starts), numba.get_num_threads())
    return out


_ROOT: dict[tuple[int, str], tuple] = {}


def start_first_pass(pm: PatternMatrix, mode: str, max_guesses: int, starts: np.ndarray,
                     cutoff: int | None = None) -> FirstPass:
    """Return the first pass of the start rows ``starts`` over every answer in ``mode`` (each
    scan stopped once its bound reaches ``cutoff``: then a proven bound >= it, not the whole
    first pass); the guess table and reply matrix they need are kept for the next call."""
    rows, caps, kept = _root(pm, mode)
    answers = np.arange(pm.shape[1], dtype=np.int32)
    return first_pass(pm, answers, starts, rows, caps, max_guesses - 1, members_only=mode == "consistent",
                      cutoff=cutoff, kept=kept, hard=mode == "hard")


def _root(pm: PatternMatrix, mode: str) -> tuple[np.ndarray, np.ndarray, Answerers]:
    """Return (the guess rows that may answer a start word's buckets in ``mode``, their caps,
    their ``Answerers``), kept for the last matrix and mode."""
    key = (id(pm), mode)
    if key not in _ROOT:
        answers = np.arange(pm.shape[1], dtype=np.int32)
        rows = np.sort(pm.answer_rows).astype(np.int32) if mode == "consistent" else \
            np.arange(pm.shape[0], dtype=np.int32)
        caps = guess_caps(guess_table(pm, answers, rows))
        _ROOT.clear()
        _ROOT[key] = (pm, rows, caps, answerers(pm, answers, rows, caps, mode == "consistent"))
    return _ROOT[key][1:]


def start_second_pass(pm: PatternMatrix, mode: str, max_guesses: int, starts: np.ndarray,
                      known: dict[int, np.ndarray] | None = None) -> SecondPass:
    """Return the second-pass bounds of the start rows ``starts`` over every answer in normal or
    consistent ``mode``, on their whole first passes: ``known`` (start row -> bucket bounds of a
    ``start_first_pass`` that ran to its end) where given, computed here for the others."""
    members_only = mode == "consistent"
    rows, caps, kept = _root(pm, mode)
    answers = np.arange(pm.shape[1], dtype=np.int32)
    starts = np.ascontiguousarray(starts, np.int32)
    known = dict(known or {})
    missing = np.array([s for s in starts.tolist() if s not in known], np.int32)
    if len(missing):
        fresh = first_pass(pm, answers, missing, rows, caps, max_guesses - 1, members_only=members_only,
                           kept=kept)
        known.update(zip(missing.tolist(), fresh.buckets))
    buckets = np.array([known[s] for s in starts.tolist()], np.int64).reshape(len(starts), pm.game.n_patterns)
    first = FirstPass(starts, np.minimum(len(answers) + buckets.sum(axis=1), INF), buckets, INF)
    return second_pass(pm, answers, first, rows, max_guesses - 1, pm.branches, members_only)


def reference_hard_bucket_bound(pm: PatternMatrix, start: int, bucket: np.ndarray, rows: np.ndarray,
                                left: int) -> int:
    """Return the hard-mode bound of the bucket of answer columns ``bucket`` after start row
    ``start`` by brute force: ``reference_bucket_bound`` over the bucket's answers and the
    ``rows`` the pure-Python hard-mode rule allows after its reply (the oracle of the kernel)."""
    from ..core.modes import hard_mode_allows

    game = pm.game
    moves = [(pm.guesses[start], game.reply(pm.guesses[start], pm.answers[bucket[0]]))]
    allowed = [h for h in rows if hard_mode_allows(game, pm.guesses[h], moves)]
    return reference_bucket_bound(pm, bucket, np.union1d(allowed, pm.answer_rows[bucket]), left)


def reference_bucket_bound(pm: PatternMatrix, bucket: np.ndarray, rows: np.ndarray, left: int) -> int:
    """Return the bound of one bucket by brute force, partition and level bound (the oracle of
    the kernel)."""
    from ..kernels.levels import level_bound

    m = len(bucket)
    if m == 1:
        return 1
    if left <= 1:
        return INF
    if m == 2:
        return 3
    best, split = 0, False
    for g in rows:
        replies = set(pm.codes[g, bucket].tolist())
        split |= len(replies) == m
        best = max(best, len(replies) + (pm.game.solved in replies))
    if left == 2 and not split:
        return INF
    return max(3 * m - best, level_bound(m, left, best, 1))
