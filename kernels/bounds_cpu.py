"""The partition bound of every bucket under many first guesses at once (numba, CPU).

For an answer set S with ``left >= 2`` guesses to go, any strategy's first guess g splits S
into buckets b, and every unsolved bucket costs at least ``2|b| - 1`` more guesses (one of its
answers at best is found by the next guess, the others need two or more). So

    V(S, left) >= 3|S| - max over g of (distinct replies of g on S + [g in S])

(the partition bound), and at least the level bound of ``m`` answers with that many replies
(``kernels.levels``: a guess's replies cap how many answers each later guess can find), which
is the stronger one once ``m`` exceeds the replies a guess gives. ``start_bounds`` evaluates
them for every bucket of every start word s (over the guesses a bucket may be answered with),
which gives each start word a first-pass bound ``n + sum over its buckets``: a proven lower
bound on its total that refutes most start words before any search, and tight bucket limits
for the search of the rest.

Only a bucket's own answers can score ``m + 1``, so they are scored first (``m²`` cells per
bucket); the other guesses score at most ``m``, and at most their ``cap`` (distinct replies
over the whole set). They are scanned by decreasing cap: a bucket is settled once the cap, or
``m``, falls to its best score, and with a ``cutoff`` the scan stops as soon as the bounds so
far (each bucket at least ``3m - max(best, min(m, cap))``) reach it; a small bucket whose bound
alone can take them there is scanned only to show that no guess scores above the score that
would (``_score_pairs``). Every bound written is proven at every moment; it is the exact partition
bound when the scan ran to its end.

**Hard mode** (``hard_bounds_of_start``): after start word s got reply p, only the guesses the
hard-mode rule of (s, p) allows may answer bucket p, at its first guess and every later one (the
rule of each later move only removes more). So each bucket's best score, its no-split test and
the level bound's ``k`` (its best score) are taken over the allowed guesses alone, and the bound
is still proven. A bucket's own answers are always allowed: each gave reply p to s, so it keeps
p's greens and contains each revealed letter as often as p revealed it (Wordle's rule), and
would give reply p to s were it the answer (the other games' rule).

Whether the rule of (s, p) allows guess h depends on h only through q = the reply s would get
were h the answer: in the other games the rule is q == p; in Wordle h keeps p's greens exactly
when q has them, and h holds a revealed letter c at least n times (n <= its count in s) exactly
when q reveals c at least n times. So the guesses are grouped by q once per start word, and the
rule is checked once per (bucket, group), on the group's first guess. Wordle's q is looked up by a
key of it that is quicker to compute (``_reply_key``: the greens and the letters held), so the
reply itself is computed once per group.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from . import levels, replies
from .config import INF
from .hardmode import SCRATCH
from .hardmode_cpu import hard_rule, rule_allows
from .setkeys import find, new_memo, set_hash, store, zobrist

level_bound = njit(cache=True, nogil=True)(levels.level_bound)
reply_code = njit(nogil=True, inline="always")(replies.reply_code)

Scores = namedtuple("Scores", "memo zobrist")
"""Bucket scores remembered from one first pass to the next over the same answer set and guesses
(``new_scores``): a ``kernels.setkeys`` memo of (a bucket's answer columns, guesses left) ->
``2 * best + split``, its final best score and whether a guess splits it, and the answers' hash
words. A bucket's score depends on its answers alone, not on the start word that made it, and
its record (the members) proves an entry, so a remembered score is the one a scan would find."""


def new_scores(n_answers: int) -> Scores:
    """Return empty ``Scores`` for a game of ``n_answers`` answer columns."""
    return Scores(new_memo(), zobrist(n_answers, 0x5C0E5))


Guesses = namedtuple("Guesses", "rows cap facts")
"""The guesses that may answer the buckets in a first pass: rows by decreasing ``cap``, in the
order of the answer-major replies' columns (``tmat``), and the letter facts' replies of each
(``facts``: ``Facts``, ``new_facts()`` where none are used)."""

Facts = namedtuple("Facts", "replies most done letters counts rank")
"""What the letter facts of Wordle's replies bound (``new_facts``, filled by ``fill_facts``):
``replies[f, j]``, the distinct replies of the j-th guess (by decreasing cap) on the answers of
the set that hold fact f, ``most[f, j]`` the most of them from the j-th guess on (``done[f]``:
filled), the guesses' ``letters`` and letter ``counts``, and ``rank[r]``, guess row r's place
in the ranking (-1: none). A fact is what one square of a
reply to start word s says of the answer: green at i (``answer[i] == s[i]``), and where s holds
that letter once, yellow at i (not there, but elsewhere) or grey (nowhere). Every answer of
the bucket of reply p holds the facts of p's squares, so the bucket is a subset of each fact's
answers, and no guess gives it more distinct replies than it gives those: a guess whose least
such count does not exceed the bucket's best score is skipped unscanned, and a bucket is
settled once no later guess can score above its best (Wordle, normal mode; elsewhere
``replies`` has no rows)."""

Words = namedtuple("Words", "kind length colours letters counts")
"""The guesses' words for the hard-mode rule: the reply rule's kind, word length and symbols, the
letters of every guess row and its letter counts (``kernels.hardmode.letter_counts``)."""


PAIR_MAX = 96
"""Buckets of at most this many answers are scored for every guess at once by comparing their
answers' reply rows pairwise (vectorized over the guesses); larger ones guess by guess."""

HARD_BLOCK = 2048
"""Guesses compared at once in hard mode's pairwise scoring (keeps the rows in the L1/L2 caches)."""

NORMAL_BLOCK = 1024
"""Guesses compared at once in normal mode's: a block is left once none of its guesses can end
above the score it must, the sooner the fewer they are (the captured first passes of DREYS, KENTS,
SEVER and TOZED, twice, alternating: 5.38 s at 1,024 against 5.83 at 2,048; not measured in hard
mode, which keeps 2,048)."""

CHECK_EVERY = 256
"""Guesses a first pass with letter facts scans between checks of its bound against the cutoff
(besides those where the caps fall: the facts lower it as the scan goes)."""

SETTLE_EVERY = 4
"""Answers the pairwise scoring adds to a block's scores between checks of whether any of its
guesses can still end above the best known (each answer left adds at most 1)."""


@njit(cache=True, nogil=True)
def _bucket_order(row0, answers, n_patterns, local, perm, first):
    """Sort the answers by their reply to the start word: ``local`` their positions in
    ``answers``, ``perm`` their columns, ``first[p]`` where reply p's bucket begins."""
    for p in range(n_patterns + 1):
        first[p] = 0
    for i in range(answers.shape[0]):
        first[row0[answers[i]] + 1] += 1
    for p in range(n_patterns):
        first[p + 1] += first[p]
    for i in range(answers.shape[0]):
        p = row0[answers[i]]
        local[first[p]] = i
        perm[first[p]] = answers[i]
        first[p] += 1
    for p in range(n_patterns, 0, -1):
        first[p] = first[p - 1]
    first[0] = 0


@njit(cache=True, nogil=True)
def _pair_scores(tmat, cap, local, lo, hi, key, allowed, floor, seen, score):
    """Return (the most distinct replies any allowed guess gives on the answers ``local[lo:hi]``
    where that is more than ``floor``, whether one gives all distinct): ``tmat`` is answer-major,
    a column per guess by decreasing ``cap`` (no guess scores more than its cap: the scan stops
    once the caps fall to the best score or ``floor``), column j allowed when ``allowed[key[j]]``.
    The caller's ``floor`` is a score it knows already, and below ``m`` unless a split is known
    or does not matter, so that the best score and the split it ends with are the whole scan's;
    or a score it need only show no guess exceeds (a result at most ``floor`` says just that).
    The guesses are compared in blocks of ``len(seen)`` (``seen``, ``score``: scratch as long)."""
    m = hi - lo
    width = tmat.shape[1]
    block = seen.shape[0]
    most = 0
    for g0 in range(0, width, block):
        if cap[g0] <= max(most, floor):
            break
        w = min(width, g0 + block) - g0
        for g in range(w):
            score[g] = 0
        settled = False
        for i in range(lo, hi):
            ri = tmat[local[i], g0:g0 + w]
            for g in range(w):
                seen[g] = 0
            j = lo  # the earlier answers 8 (then 4) at a time: each flag read and written once for them
            while j + 8 <= i:
                r0 = tmat[local[j], g0:g0 + w]
                r1 = tmat[local[j + 1], g0:g0 + w]
                r2 = tmat[local[j + 2], g0:g0 + w]
                r3 = tmat[local[j + 3], g0:g0 + w]
                r4 = tmat[local[j + 4], g0:g0 + w]
                r5 = tmat[local[j + 5], g0:g0 + w]
                r6 = tmat[local[j + 6], g0:g0 + w]
                r7 = tmat[local[j + 7], g0:g0 + w]
                for g in range(w):
                    c = ri[g]
                    seen[g] |= np.uint8((c == r0[g]) | (c == r1[g]) | (c == r2[g]) | (c == r3[g])
                                        | (c == r4[g]) | (c == r5[g]) | (c == r6[g]) | (c == r7[g]))
                j += 8
            if j + 4 <= i:
                r0 = tmat[local[j], g0:g0 + w]
                r1 = tmat[local[j + 1], g0:g0 + w]
                r2 = tmat[local[j + 2], g0:g0 + w]
                r3 = tmat[local[j + 3], g0:g0 + w]
                for g in range(w):
                    c = ri[g]
                    seen[g] |= np.uint8((c == r0[g]) | (c == r1[g]) | (c == r2[g]) | (c == r3[g]))
                j += 4
            for k in range(j, i):
                rk = tmat[local[k], g0:g0 + w]
                for g in range(w):
                    seen[g] |= np.uint8(ri[g] == rk[g])
            for g in range(w):
                score[g] += 1 - seen[g]
            if (i - lo) % SETTLE_EVERY == SETTLE_EVERY - 1 and _block_settled(
                    score, w, key[g0:g0 + w], allowed, hi - 1 - i, max(most, floor)):
                settled = True
                break
        for g in range(0 if settled else w):
            most = max(most, np.int64(score[g]) * allowed[key[g0 + g]])
            if most == m:
                return most, True
    return most, most == m


@njit(cache=True, nogil=True, inline="always")
def _block_settled(score, w, key, allowed, rest, best):
    """Return whether no allowed guess of a block (``score``: its first ``w`` scores so far) can
    end above ``best`` with ``rest`` more answers to add (each adds 1 at most)."""
    if allowed.shape[0] == 1:  # every key 0, one verdict for all (normal mode): a plain maximum, vectorized
        most = np.uint8(0)
        for g in range(w):
            most = max(most, score[g])
        return np.int64(most) * allowed[0] + rest <= best
    top = 0
    for g in range(w):
        top = max(top, np.int64(score[g]) * allowed[key[g]])
    return top + rest <= best


@njit(cache=True, nogil=True, inline="always")
def _floor(m, best, split, left):
    """Return the score a bucket of ``m`` answers scored ``best`` need not look below: its best
    score, less than ``m`` where a split is yet to be found and matters (2 guesses to go)."""
    return best if split or left != 2 else min(best, m - 1)


@njit(cache=True, nogil=True, inline="always")
def _bucket_bound(m, score, left):
    """Return the bound of a bucket of ``m`` answers no guess scores more than ``score`` on:
    the partition bound or the level bound, whichever is larger."""
    return max(3 * m - score, level_bound(m, left, score, 1))


@njit(cache=True, nogil=True)
def _enough(m, bound, left):
    """Return the largest score below ``m`` that gives a bucket of ``m`` answers at least ``bound``
    (``_bucket_bound``; -1: none)."""
    for u in range(m - 1, -1, -1):
        if _bucket_bound(m, u, left) >= bound:
            return u
    return -1


@njit(cache=True, nogil=True)
def _settle(m, best, split, left):
    """Return a bucket's bound from its best score (distinct replies + membership)."""
    if left == 2 and not split:
        return INF
    return _bucket_bound(m, best, left)


@njit(cache=True, nogil=True)
def _partial(fixed, first, active, na, best, final, most, left, out, room=None):
    """Return the total bound so far and write each bucket's: ``_bucket_bound`` of its best
    score where ``final``, else of ``max(best, min(m, most))`` (no guess left scores more; with
    ``room``, ``room[p]`` instead of ``most``)."""
    total = fixed
    for t in range(na):
        p = active[t]
        m = first[p + 1] - first[p]
        left_most = most if room is None else room[p]
        out[p] = _bucket_bound(m, best[p] if final[p] else max(best[p], min(m, left_most)), left)
        total += out[p]
    return total


@njit(cache=True, nogil=True)
def _before_scores(fixed, first, active, most, member_most, left, out, room=None):
    """Return the total bound before any bucket is scored, and write each bucket's: a guess
    scores at most ``min(m, most)`` on a bucket of ``m`` answers, and one of its own answers at
    most ``min(m, member_most) + 1`` (``member_most``: the most distinct replies any answer gives
    on the set); with ``room``, no guess gives more than ``room[p]`` distinct replies on it."""
    total = fixed
    for p in active:
        m = first[p + 1] - first[p]
        if room is not None:
            m_most = min(m, room[p])
            out[p] = _bucket_bound(m, max(min(m_most, most), min(m_most, member_most) + 1), left)
        else:
            out[p] = _bucket_bound(m, max(min(m, most), min(m, member_most) + 1), left)
        total += out[p]
    return total


@njit(cache=True, nogil=True)
def _trivial_buckets(first, n, solved, left, active, out):
    """Return (how many buckets need scoring, listed in ``active``; ``n`` plus the bounds of the
    others, written to ``out``: 0 for the empty and the solved one, 1 for 1 answer, 3 for 2,
    INF with at most one guess left)."""
    na = 0
    fixed = n
    for p in range(first.shape[0] - 1):
        m = first[p + 1] - first[p]
        out[p] = 0
        if m == 0 or p == solved:
            continue
        if m == 1:
            out[p] = 1
        elif left <= 1:
            out[p] = INF
        elif m == 2:
            out[p] = 3
        else:
            active[na] = p
            na += 1
            continue
        fixed += out[p]
    return na, fixed


@njit(cache=True, nogil=True)
def _buckets(codes, answers, s, solved, n_patterns, left, out):
    """Return the buckets of start row ``s`` over ``answers``: (``local`` and ``perm``, their
    answers' positions and columns sorted by reply, ``first[p]`` where reply p's bucket begins,
    ``active`` the replies whose buckets need scoring, ``n`` plus the bounds of the others),
    those bounds written to ``out`` (``_trivial_buckets``)."""
    n = answers.shape[0]
    local = np.empty(n, np.int32)
    perm = np.empty(n, np.int32)
    first = np.empty(n_patterns + 1, np.int64)
    _bucket_order(codes[s], answers, n_patterns, local, perm, first)
    active = np.empty(n_patterns, np.int64)
    na, fixed = _trivial_buckets(first, n, solved, left, active, out)
    return local, perm, first, active[:na], fixed


@njit(cache=True, nogil=True, inline="always")
def _distinct(row, perm, lo, hi, mark, stamp):
    """Return how many distinct replies ``row`` gives on the answers ``perm[lo:hi]``, marking
    each seen in ``mark`` with ``stamp`` (new for each call)."""
    k = 0
    for i in range(lo, hi):
        c = row[perm[i]]
        k += mark[c] != stamp
        mark[c] = stamp
    return k


@njit(cache=True, nogil=True)
def _score_members(codes, answer_rows, perm, first, active, n_patterns, facts=None, said=None, left=2):
    """Return (``best[p]``, the best score of bucket p's own answers (only they can score m + 1;
    m² cells a bucket), ``split[p]``, whether one splits it, ``mark`` and its last stamp) for the
    ``active`` buckets; with ``facts`` (``said``: each bucket's, ``left`` guesses to go), an answer
    they show cannot score above the best so far (nor split the bucket where that matters) is
    skipped."""
    best = np.zeros(n_patterns, np.int64)
    split = np.zeros(n_patterns, np.bool_)
    mark = np.zeros(n_patterns, np.int64)
    stamp = 0
    for p in active:
        lo = first[p]
        hi = first[p + 1]
        for i in range(lo, hi):
            if best[p] > hi - lo:
                break  # a member splits it: no guess scores more
            if facts is not None and facts.rank.shape[0]:
                j = facts.rank[answer_rows[perm[i]]]
                here = hi - lo if j < 0 else _within(facts, said[p], facts.replies, j, hi - lo)
                if best[p] >= here + 1 and (left != 2 or split[p] or here < hi - lo):
                    continue
            stamp += 1
            k = _distinct(codes[answer_rows[perm[i]]], perm, lo, hi, mark, stamp)
            split[p] |= k == hi - lo
            best[p] = max(best[p], k + 1)
    return best, split, mark, stamp


def new_facts(ranked: np.ndarray | None = None, letters: np.ndarray | None = None,
              counts: np.ndarray | None = None) -> Facts:
    """Return empty ``Facts`` over the guess rows ``ranked`` (by decreasing cap) of words
    ``letters`` (rows: guess rows; ``counts``: their letter counts), or ``Facts`` with no rows
    (none: no ``letters``)."""
    rank = np.zeros(0, np.int64)
    if ranked is None or letters is None or counts is None:
        letters, counts, ranked = np.zeros((0, 0), np.int64), np.zeros((0, 0), np.uint8), rank
    else:
        rank = np.full(len(letters), -1, np.int64)
        rank[ranked] = np.arange(len(ranked))
    n_facts = (2 * letters.shape[1] + 1) * counts.shape[1]
    return Facts(np.zeros((n_facts, len(ranked)), np.uint8), np.zeros((n_facts, len(ranked) + 1), np.uint8),
                 np.zeros(n_facts, np.uint8), np.ascontiguousarray(letters, np.int64),
                 np.ascontiguousarray(counts, np.uint8), rank)


@njit(cache=True, nogil=True, inline="always")
def _bucket_facts(facts, s, p, out):
    """Write to ``out`` the facts the squares of reply ``p`` to start row ``s`` say (-1: none):
    green at i is fact ``i * symbols + c``, yellow ``(length + i) * symbols + c``, grey ``2 *
    length * symbols + c`` (c: s's letter at i; yellow and grey only where s holds c once)."""
    length = facts.letters.shape[1]
    symbols = facts.counts.shape[1]
    for i in range(length - 1, -1, -1):
        square = p % 3
        p //= 3
        c = facts.letters[s, i]
        if square == 2:
            out[i] = i * symbols + c
        elif facts.counts[s, c] != 1:
            out[i] = -1
        elif square == 1:
            out[i] = (length + i) * symbols + c
        else:
            out[i] = 2 * length * symbols + c


@njit(cache=True, nogil=True, inline="always")
def _within(facts, said, at, j, most):
    """Return the most any guess from the j-th on can score on a bucket with the facts ``said``
    (``at``: the ``most`` rows or the ``replies``, for the j-th alone), at most ``most``."""
    for f in said:
        if f >= 0:
            most = min(most, np.int64(at[f, j]))
    return most


@njit(cache=True, nogil=True, inline="always")
def _holds(facts, f, a):
    """Return whether guess row ``a`` (an answer's) holds fact ``f``."""
    length = facts.letters.shape[1]
    symbols = facts.counts.shape[1]
    kind, rest = divmod(f, symbols * length)
    i, c = divmod(rest, symbols)
    if f >= 2 * length * symbols:
        return facts.counts[a, rest] == 0
    if kind == 0:
        return facts.letters[a, i] == c
    return facts.letters[a, i] != c and facts.counts[a, c] > 0


@njit(cache=True, nogil=True, inline="always")
def _popcount(x):
    """Return the set bits of the uint64 ``x``."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True, nogil=True)
def fill_facts(codes, tmat, answers, answer_rows, starts, n_patterns, pair_max, facts):
    """Fill the rows of ``facts`` that the buckets of more than ``pair_max`` answers (scanned
    guess by guess) of the start rows ``starts`` over ``answers`` need and are not filled yet
    (``tmat``: the ranked guesses' answer-major replies), where they are two or more; return None.
    A lone start word's buckets are disjoint subsets of a fact's set: filling the fact reads a
    reply per guess and answer of that set, more than skipping guesses can save on them."""
    if starts.shape[0] < 2:
        return
    width = tmat.shape[1]
    seen = np.zeros((width, 4), np.uint64)
    size = np.zeros(n_patterns, np.int64)
    need = np.empty(facts.letters.shape[1], np.int64)
    for s in starts:
        size[:] = 0
        for t in range(answers.shape[0]):
            size[codes[s, answers[t]]] += 1
        for p in range(size.shape[0]):
            if size[p] <= pair_max:
                continue
            _bucket_facts(facts, s, p, need)
            for f in need:
                if f < 0 or facts.done[f]:
                    continue
                seen[:] = 0
                for t in range(answers.shape[0]):
                    if _holds(facts, f, answer_rows[answers[t]]):
                        row = tmat[t]
                        for j in range(width):
                            seen[j, row[j] >> 6] |= np.uint64(1) << np.uint64(row[j] & 63)
                facts.most[f, width] = 0
                for j in range(width - 1, -1, -1):
                    facts.replies[f, j] = _popcount(seen[j, 0]) + _popcount(seen[j, 1]) + \
                        _popcount(seen[j, 2]) + _popcount(seen[j, 3])
                    facts.most[f, j] = max(facts.most[f, j + 1], facts.replies[f, j])
                facts.done[f] = 1


@njit(cache=True, nogil=True)
def _score_pairs(tmat, cap, layout, best, split, final, pair_max, fixed, most, left, out, room, cutoff,
                 scores, fresh):
    """Score the buckets of at most ``pair_max`` answers not ``final`` yet for every guess at once,
    largest first (``layout``: ``(local, perm, first, active)`` of ``_buckets``; ``scores``: those
    known; ``fresh``: those found, see ``bounds_of_start``), checking the bound so far
    (``_partial``) against ``cutoff`` before each; return that bound where it reaches the cutoff,
    else -1. Where a bucket's bound alone can take the total to the cutoff with a score above its
    best known (``_enough``), the scan only shows whether any guess scores more than that: a block
    of guesses is settled once each has that many replies in common, far sooner than at its best
    score. If none does, that score stands for the bucket (a proven bound, not its score: not
    remembered) and the start word is refuted; else the scan found the exact best score."""
    local, perm, first, active = layout
    na = active.shape[0]
    seen = np.empty(NORMAL_BLOCK, np.uint8)
    score = np.empty(NORMAL_BLOCK, np.uint8)
    key = np.zeros(tmat.shape[1], np.uint8)
    every = np.ones(1, np.uint8)
    while True:
        partial = 0
        if cutoff < INF:
            partial = _partial(fixed, first, active, na, best, final, most, left, out, room)
            if partial >= cutoff:
                return partial
        pick = -1
        for t in range(na):
            p = active[t]
            m = first[p + 1] - first[p]
            if not final[p] and m <= pair_max and (pick < 0 or m > first[pick + 1] - first[pick]):
                pick = p
        if pick < 0:
            return -1
        final[pick] = True
        m = first[pick + 1] - first[pick]
        if best[pick] >= m and (left != 2 or split[pick]):
            continue  # no other guess scores more than m
        members = perm[first[pick]:first[pick + 1]]
        known = find(scores.memo, members, set_hash(members, scores.zobrist), left, -1)
        if known >= 0:
            best[pick] = known >> 1
            split[pick] = known & 1
            continue
        floor = _floor(m, best[pick], split[pick], left)
        enough = _enough(m, out[pick] + cutoff - partial, left) if cutoff < INF else -1
        k, splits = _pair_scores(tmat, cap, local, first[pick], first[pick + 1], key, every,
                                 max(floor, enough), seen, score)
        if floor < enough and k <= enough:
            best[pick] = enough  # no guess scores more: the bound reaches the cutoff (not remembered)
            continue
        best[pick] = max(best[pick], k)
        split[pick] |= splits
        fresh[pick] = 1 + 2 * best[pick] + split[pick]


@njit(cache=True, nogil=True)
def bounds_of_start(codes, tmat, answers, s, guesses, solved, left, members_only, answer_rows, member_most,
                    cutoff, pair_max, scores, out, fresh):
    """Fill ``out[p]`` (one per reply) with a proven lower bound on V(bucket p of start row ``s``,
    ``left``) (0 for empty buckets and the solved reply) and return ``len(answers) + sum(out)``.

    ``guesses`` (``Guesses``: rows by decreasing cap; ``tmat[i, j]`` the reply of the j-th to
    ``answers[i]``) and each bucket's own answers (``answer_rows[a]`` is answer a's row;
    ``member_most`` the most distinct replies one gives on ``answers``) answer a bucket; with
    ``members_only``, its own answers alone. The scan stops early once the total reaches
    ``cutoff`` (before any bucket is scored where the caps already show it). Buckets of at most
    ``pair_max`` answers are scored pairwise (``PAIR_MAX``; the value never changes a result),
    unless ``scores`` (read only here) holds the bucket's score: ``fresh[p]`` gets ``1 + 2 * best
    + split`` of each bucket scored pairwise (0: none) for ``remember``. ``guesses.facts`` (read
    only here; filled by ``fill_facts`` for ``s``, or with no rows) skip a large bucket's guesses that
    cannot score above its best (never changes a result).
    """
    rows, cap, facts = guesses
    n_patterns = out.shape[0]
    local, perm, first, active, fixed = _buckets(codes, answers, s, solved, n_patterns, left, out)
    na = active.shape[0]
    most = cap[0] if rows.shape[0] and not members_only else 0
    # each bucket's facts, and the most a guess scores on it (from the gi-th guess on, once the
    # guesses before it are scanned: large buckets in the loop below; the others: every guess)
    said = np.full((n_patterns, facts.letters.shape[1]), -1, np.int64)
    room = np.empty(n_patterns, np.int64)
    for t in range(na):
        p = active[t]
        if facts.replies.shape[1]:
            _bucket_facts(facts, s, p, said[p])
            for k in range(said.shape[1]):
                if said[p, k] >= 0 and not facts.done[said[p, k]]:
                    said[p, k] = -1  # not filled: says nothing
        room[p] = _within(facts, said[p], facts.most, 0, most)
    if cutoff < INF and not members_only:
        total = _before_scores(fixed, first, active, most, member_most, left, out, room)
        if total >= cutoff:
            return total
    best, split, mark, stamp = _score_members(codes, answer_rows, perm, first, active, n_patterns,
                                              facts, said, left)
    # the other guesses score at most m and at most their cap: large buckets guess by guess,
    # by decreasing cap (a bucket is settled once neither the cap, its facts nor m let a later
    # guess score above its best) ...
    large = np.empty(n_patterns, np.int64)
    nl = 0
    for t in range(na):
        p = active[t]
        if first[p + 1] - first[p] > pair_max and not members_only:
            large[nl] = p
            nl += 1
    final = np.zeros(n_patterns, np.bool_)
    paired = members_only  # the small buckets scored
    gi = 0
    while nl > 0 and gi < rows.shape[0]:
        kg = cap[gi]
        lower = gi == 0 or kg != cap[gi - 1] or (facts.replies.shape[1] and gi % CHECK_EVERY == 0)
        if cutoff < INF and lower:
            for t in range(nl):
                room[large[t]] = _within(facts, said[large[t]], facts.most, gi, kg)
            partial = _partial(fixed, first, active, na, best, final, kg, left, out, room)
            if partial >= cutoff:
                return partial
            if not paired and _partial(fixed, first, active, na, best, final, kg, left, out) >= cutoff:
                # it would end here were no guess to score above this cap on the small buckets (not
                # scanned yet, so not proven): score them now, and go on with their exact scores
                paired = True
                refuted = _score_pairs(tmat, cap, (local, perm, first, active), best, split, final, pair_max,
                                       fixed, most, left, out, room, cutoff, scores, fresh)
                if refuted >= 0:
                    return refuted
        row = codes[rows[gi]]
        t = 0
        while t < nl:
            p = large[t]
            lo = first[p]
            hi = first[p + 1]
            rest = _within(facts, said[p], facts.most, gi, kg)
            if best[p] >= min(hi - lo, rest) and (left != 2 or split[p] or rest < hi - lo):
                # settled: no later guess scores more (nor, with 2 to go, splits it)
                final[p] = True
                nl -= 1
                large[t], large[nl] = large[nl], large[t]
                continue
            t += 1
            here = _within(facts, said[p], facts.replies, gi, hi - lo)  # the most this guess can score
            if best[p] >= here and (left != 2 or split[p] or here < hi - lo):
                continue
            stamp += 1
            k = _distinct(row, perm, lo, hi, mark, stamp)
            split[p] |= k == hi - lo
            best[p] = max(best[p], k)  # a member's score is known already: this is a non-member's
        gi += 1
    # ... then the small ones for every guess at once, largest first
    for t in range(na):
        final[active[t]] |= members_only or first[active[t] + 1] - first[active[t]] > pair_max
    if not paired:
        refuted = _score_pairs(tmat, cap, (local, perm, first, active), best, split, final, pair_max, fixed,
                               most, left, out, room, cutoff, scores, fresh)
        if refuted >= 0:
            return refuted
    total = fixed
    for t in range(na):
        p = active[t]
        out[p] = _settle(first[p + 1] - first[p], best[p], split[p], left)
        total += out[p]
    return min(total, INF)


@njit(nogil=True, cache=True)
def size_bounds(codes, answers, starts, most, solved, n_patterns, left, out):
    """Fill ``out[j]`` with a proven lower bound on the total of start row ``starts[j]`` from
    its bucket sizes alone: each bucket of ``m >= 3`` costs at least ``2m - 1``, at least
    ``3m - most`` and at least the level bound with ``most`` replies (no guess gives more than
    ``most`` distinct replies plus membership)."""
    for j in range(starts.shape[0]):
        row = codes[starts[j]]
        size = np.zeros(n_patterns, np.int64)
        for i in range(answers.shape[0]):
            size[row[answers[i]]] += 1
        total = answers.shape[0]
        for p in range(n_patterns):
            m = size[p]
            if m == 0 or p == solved:
                continue
            if m == 1:
                total += 1
            elif left <= 1:
                total += INF
            elif m == 2:
                total += 3
            else:
                total += max(2 * m - 1, 3 * m - min(m + 1, most), level_bound(m, left, most, 1))
        out[j] = min(total, INF)


@njit(nogil=True, cache=True)
def start_bounds(codes, tmat, answers, starts, guesses, solved, left, members_only, answer_rows, member_most,
                 cutoff, pair_max, scores, out, totals, fresh):
    """Fill ``out[j]`` (bucket bounds), ``totals[j]`` (first-pass bound) and ``fresh[j]`` (the
    bucket scores found) of start row ``starts[j]`` (see ``bounds_of_start``)."""
    for j in range(starts.shape[0]):
        totals[j] = bounds_of_start(codes, tmat, answers, starts[j], guesses, solved, left, members_only,
                                    answer_rows, member_most, cutoff, pair_max, scores, out[j],
                                    fresh[j])


@njit(cache=True)
def remember(scores, codes, answers, starts, left, fresh):
    """Store in ``scores`` the bucket scores ``start_bounds`` found (``fresh``) under the start rows
    ``starts`` over ``answers`` with ``left`` guesses to go; return None."""
    for j in range(starts.shape[0]):
        if not fresh[j].any():
            continue  # most start words: refuted before any bucket was scored pairwise
        replies = codes[starts[j]][answers]
        for p in range(fresh.shape[1]):
            if fresh[j, p]:
                members = answers[replies == p]
                store(scores.memo, members, set_hash(members, scores.zobrist), left, fresh[j, p] - 1)


Groups = namedtuple("Groups", "reply size head by_head first order allowed")
"""The guesses of one start word s by the reply s would get were each the answer, once
``_fill_groups`` ran: ``reply[j]`` of the j-th guess, ``size[q]`` how many got reply q,
``head[q]`` the first of them (by decreasing cap; -1: none), ``by_head`` the replies by
decreasing cap of their head; once ``_sort_groups`` ran (``first[-1] > 0``),
``order[first[q]:first[q + 1]]`` the guesses of reply q by decreasing cap; ``allowed[q]``
whether the rule of the bucket at hand allows them."""


@njit(cache=True, nogil=True)
def _new_groups(n, n_patterns):
    """Return empty ``Groups`` for ``n`` guesses (``_fill_groups`` fills them)."""
    return Groups(np.empty(n, np.int32), np.zeros(n_patterns, np.int64), np.full(n_patterns, -1, np.int64),
                  np.empty(n_patterns, np.int64), np.zeros(n_patterns + 1, np.int64), np.empty(n, np.int64),
                  np.zeros(n_patterns, np.uint8))


KEY_LENGTH_MAX = 6
"""Wordle words of at most this many letters find their reply to the start word through
``_reply_key`` (a table of ``4 ** length`` replies per start word)."""


@njit(cache=True, nogil=True)
def _key_digits(words, s):
    """Return (the distinct letters of start row ``s``, their counts in it, their place values
    in ``_reply_key``)."""
    letters = np.empty(words.length, np.int64)
    counts = np.empty(words.length, np.int64)
    place = np.empty(words.length, np.int64)
    u = 0
    value = 1
    for k in range(words.length):
        c = words.letters[s, k]
        if c in letters[:u]:
            continue
        letters[u] = c
        counts[u] = words.counts[s, c]
        place[u] = value
        value *= counts[u] + 1
        u += 1
    return letters[:u], counts[:u], place[:u]


@njit(cache=True, nogil=True, inline="always")
def _reply_key(words, s, h, letters, counts, place):
    """Return a key of Wordle's reply to start row ``s`` were guess row ``h`` the answer, less
    than ``4 ** length``: the positions where they agree (the greens) and how often ``h`` holds
    each letter of ``s``, at most as often as ``s`` does (how often the reply reveals it). The
    reply is a function of the two (its yellows go to the first non-green places of each
    letter), and each is read off the reply: equal keys, equal replies."""
    same = 0
    for k in range(words.length):
        same |= int(words.letters[h, k] == words.letters[s, k]) << k
    held = 0
    for t in range(letters.shape[0]):
        held += min(np.int64(words.counts[h, letters[t]]), counts[t]) * place[t]
    return (same << words.length) | held


@njit(cache=True, nogil=True)
def _fill_groups(words, s, guesses, groups):
    """Fill the ``Groups`` of start row ``s`` over ``guesses`` (``Guesses``), not yet sorted
    (Wordle's replies each computed once per key, ``_reply_key``)."""
    scratch = np.zeros(SCRATCH, np.int64)
    keyed = words.kind == replies.WORDLE and words.length <= KEY_LENGTH_MAX
    known = np.full(1 << (2 * words.length) if keyed else 0, -1, np.int64)
    letters, counts, place = _key_digits(words, s)
    for i in range(guesses.rows.shape[0]):
        h = guesses.rows[i]
        key = _reply_key(words, s, h, letters, counts, place) if keyed else 0
        q = known[key] if keyed else -1
        if q < 0:
            q = reply_code(words.kind, words.letters, s, words.letters, h, words.length, words.colours,
                           scratch)
            if keyed:
                known[key] = q
        groups.reply[i] = q
        groups.size[q] += 1
        if groups.head[q] < 0:
            groups.head[q] = i
    caps = np.array([guesses.cap[h] if h >= 0 else -1 for h in groups.head])
    groups.by_head[:] = np.argsort(-caps, kind="mergesort")


@njit(cache=True, nogil=True)
def _sort_groups(guesses, groups):
    """Fill ``groups.first`` and ``groups.order``: the guesses of each reply, by decreasing cap."""
    if groups.first[-1] > 0:
        return
    for q in range(groups.size.shape[0]):
        groups.first[q + 1] = groups.first[q] + groups.size[q]
    fill = groups.first[:-1].copy()
    for i in range(guesses.rows.shape[0]):
        q = groups.reply[i]
        groups.order[fill[q]] = i
        fill[q] += 1


@njit(cache=True, nogil=True)
def _allow_groups(words, s, p, guesses, groups, scratch):
    """Mark in ``groups.allowed`` the groups the hard-mode rule of (s, p) allows (checked on
    each group's head); return how many guesses they hold."""
    hard_rule(words.kind, words.length, words.letters, s, p, scratch)
    count = 0
    for q in range(groups.size.shape[0]):
        h = groups.head[q]
        groups.allowed[q] = h >= 0 and rule_allows(words.kind, words.length, words.colours, words.letters,
                                                   words.counts, s, p, guesses.rows[h], scratch)
        count += groups.allowed[q] * groups.size[q]
    return count


@njit(cache=True, nogil=True, inline="always")
def _settled(m, cap, left, found):
    """Return whether no guess of ``cap`` can raise ``found``'s best score of a bucket of ``m``
    answers (nor, with 2 guesses to go, split it where nothing has)."""
    return found[0] >= min(m, cap) and (left != 2 or found[2] or cap < m)


@njit(cache=True, nogil=True)
def _scan_allowed(codes, guesses, groups, perm, lo, hi, left, mark, found):
    """Raise ``found`` = (best score, stamp, split) of the answers ``perm[lo:hi]`` over the
    allowed groups' guesses, one at a time, each group by decreasing cap until no later guess
    can score more (the groups by decreasing first cap)."""
    m = hi - lo
    _sort_groups(guesses, groups)
    for q in groups.by_head:
        if groups.head[q] < 0 or _settled(m, guesses.cap[groups.head[q]], left, found):
            return  # the empty groups come last; no later guess scores more (nor splits it)
        if not groups.allowed[q]:
            continue
        for i in groups.order[groups.first[q]:groups.first[q + 1]]:
            if _settled(m, guesses.cap[i], left, found):
                break
            found[1] += 1
            k = _distinct(codes[guesses.rows[i]], perm, lo, hi, mark, found[1])
            found[2] |= k == m
            found[0] = max(found[0], k)  # members scored m + 1 already where they split it


PAIR_RATIO = 128
"""Hard mode scores a bucket of m answers pairwise over every guess at once (with a mask of
those allowed) when its allowed guesses number at least ``m / PAIR_RATIO`` of all, else guess
by guess over the allowed ones (the value never changes a result)."""


@njit(cache=True, nogil=True)
def hard_bounds_of_start(codes, words, tmat, answers, s, guesses, solved, n_patterns, left, answer_rows,
                         member_most, cutoff, pair_max, out):
    """Fill ``out[p]`` with a proven lower bound on V(bucket p of start row ``s``, ``left``) in
    hard mode (0 for empty buckets and the solved reply) and return ``len(answers) + sum(out)``.

    ``guesses`` (``Guesses``) are allowed before ``s``; bucket p is answered by those the hard-mode
    rule of (s, p) allows and by its own answers (see the module's docstring; ``member_most``: the
    most distinct replies one gives on ``answers``), scored pairwise where cheaper for buckets of
    at most ``pair_max`` answers (``PAIR_RATIO``). Buckets are settled largest first; the scan
    stops once the total reaches ``cutoff``, before any is scored where the caps show it.
    """
    local, perm, first, active, fixed = _buckets(codes, answers, s, solved, n_patterns, left, out)
    na = active.shape[0]
    active = active[np.argsort(first[active] - first[active + 1], kind="mergesort")]
    most = guesses.cap[0] if guesses.rows.shape[0] else 0
    if cutoff < INF:
        total = _before_scores(fixed, first, active, most, member_most, left, out)
        if total >= cutoff:
            return total
    best, split, mark, stamp = _score_members(codes, answer_rows, perm, first, active, n_patterns)
    found = np.zeros(3, np.int64)
    found[1] = stamp
    groups = _new_groups(guesses.rows.shape[0], n_patterns)
    grouped = False
    scratch = np.zeros(SCRATCH, np.int64)
    seen = np.empty(HARD_BLOCK, np.uint8)
    score = np.empty(HARD_BLOCK, np.uint8)
    final = np.zeros(n_patterns, np.bool_)
    for p in active:
        if cutoff < INF and _partial(fixed, first, active, na, best, final, most, left, out) >= cutoff:
            return _partial(fixed, first, active, na, best, final, most, left, out)
        final[p] = True
        m = first[p + 1] - first[p]
        if best[p] >= m and (left != 2 or split[p]):
            continue  # no other guess scores more than m
        if not grouped:  # only once a bucket needs more than its own answers
            _fill_groups(words, s, guesses, groups)
            grouped = True
        count = _allow_groups(words, s, p, guesses, groups, scratch)
        if m <= pair_max and count * PAIR_RATIO >= guesses.rows.shape[0] * m:
            k, splits = _pair_scores(tmat, guesses.cap, local, first[p], first[p + 1], groups.reply,
                                     groups.allowed, _floor(m, best[p], split[p], left), seen, score)
            best[p] = max(best[p], k)
            split[p] |= splits
            continue
        found[0] = best[p]
        found[2] = split[p]
        _scan_allowed(codes, guesses, groups, perm, first[p], first[p + 1], left, mark, found)
        best[p] = found[0]
        split[p] = found[2]
    total = fixed
    for p in active:
        out[p] = _settle(first[p + 1] - first[p], best[p], split[p], left)
        total += out[p]
    return min(total, INF)


@njit(nogil=True, cache=True)
def start_hard_bounds(codes, words, tmat, answers, starts, guesses, solved, n_patterns, left, answer_rows,
                      member_most, cutoff, pair_max, out, totals):
    """Fill ``out[j]`` (bucket bounds) and ``totals[j]`` (first-pass bound) of start row
    ``starts[j]`` in hard mode (see ``hard_bounds_of_start``; threads: ``kernels.threads``)."""
    for j in range(starts.shape[0]):
        totals[j] = hard_bounds_of_start(codes, words, tmat, answers, starts[j], guesses, solved, n_patterns,
                                         left, answer_rows, member_most, cutoff, pair_max, out[j])


__all__ = ["INF", "Facts", "Guesses", "Scores", "Words", "bounds_of_start", "fill_facts",
           "hard_bounds_of_start", "level_bound", "new_facts", "new_scores", "remember", "size_bounds",
           "start_bounds", "start_hard_bounds"]
