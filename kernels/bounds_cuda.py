"""CUDA twin of ``kernels.bounds_cpu.start_bounds``: the bucket bound of every bucket under
many start words, every (start word, bucket, guess) at once.

One block per start word (grid-stride over the start words): the block sorts the answers by
their reply to the start word (a shared-memory counting sort into its own row of ``perm``, and
into shared memory where they fit) and lists its buckets of 3 or more answers; then its
threads take the guesses (grid-stride) and, for every such bucket, count the guess's distinct
replies in a 256-bit mask of four registers, keeping each bucket's best score and whether a
guess splits it with shared-memory atomics. The guesses' replies come from the answer-major
matrix (``tmat[a, g]``): the threads of a warp, on neighbouring guesses, read neighbouring
bytes. No cutoff and no settling: the exact bucket bounds (partition and level), equal to the
CPU kernel's run to its end.

``start_hard_bounds``, the twin of ``bounds_cpu.start_hard_bounds``, is the same with each
bucket answered by its own answers and the guesses the hard-mode rule of (start word, reply)
allows: the rule is checked once per (bucket, reply the start word would get from a guess), into
a shared table of bits each thread reads for its guess.
"""
from . import levels
from .config import EXACT_MAX_PATTERNS as MAX_PATTERNS
from .config import INF
from .gpu import cuda, int32, int64, uint64
from .hardmode import SCRATCH
from .hardmode_cuda import hard_rule, rule_allows
from .patterns_cuda import reply_code

FIRSTS = MAX_PATTERNS + 1
"""Entries of a block's bucket-start table (one past every reply). Array shapes must be module-level
integers: a real GPU's compiler folds no expression or other module's attribute (issue 27)."""

SHARED_ANSWERS = 4096
"""Answers a block keeps, sorted by reply, in shared memory (int32: 16 KiB); with more answers
its threads read them from its row of ``perm``."""

level_bound = cuda.jit(device=True, inline=True)(levels.level_bound)


@cuda.jit(device=True, inline=True)
def _distinct(tmat, col, perm, base, lo, hi, solved):
    """Return (distinct replies of guess column ``col`` of the answer-major ``tmat`` over the
    answers ``perm[base + lo:base + hi]``, solved seen?)."""
    m0 = uint64(0)
    m1 = uint64(0)
    m2 = uint64(0)
    m3 = uint64(0)
    for i in range(lo, hi):
        c = tmat[perm[base + i], col]
        bit = uint64(1) << uint64(c & 63)
        w = c >> 6
        if w == 0:
            m0 |= bit
        elif w == 1:
            m1 |= bit
        elif w == 2:
            m2 |= bit
        else:
            m3 |= bit
    k = cuda.popc(m0) + cuda.popc(m1) + cuda.popc(m2) + cuda.popc(m3)
    sw = solved >> 6
    sm = m0 if sw == 0 else (m1 if sw == 1 else (m2 if sw == 2 else m3))
    return k, (sm >> uint64(solved & 63)) & uint64(1)


@cuda.jit(device=True, inline=True)
def _sort_buckets(row0, answers, solved, n_patterns, perm, base, staged, first, fill, best, split, active,
                  acc):
    """Sort the answers by their reply ``row0[a]`` to the start word into ``perm[base:]`` (and
    ``staged`` where they fit): ``first[p]`` where reply p's bucket begins, ``active`` the
    buckets of 3 or more answers (their count in ``acc[1]``), ``best`` and ``split`` zero,
    ``acc[0]`` the number of answers (the block's threads together)."""
    tid = cuda.threadIdx.x
    step = cuda.blockDim.x
    n = answers.shape[0]
    for p in range(tid, MAX_PATTERNS, step):
        fill[p] = 0
        best[p] = 0
        split[p] = 0
    if tid == 0:
        acc[0] = n
    cuda.syncthreads()
    for i in range(tid, n, step):
        cuda.atomic.add(fill, row0[answers[i]], 1)
    cuda.syncthreads()
    if tid == 0:
        first[0] = 0
        na = 0
        for p in range(n_patterns):
            first[p + 1] = first[p] + fill[p]
            if fill[p] >= 3 and p != solved:
                active[na] = p
                na += 1
            fill[p] = first[p]
        acc[1] = na
    cuda.syncthreads()
    for i in range(tid, n, step):
        at = cuda.atomic.add(fill, row0[answers[i]], 1)
        perm[base + at] = answers[i]
        if n <= SHARED_ANSWERS:
            staged[at] = answers[i]
    cuda.syncthreads()


@cuda.jit(device=True, inline=True)
def _score(tmat, col, staged, perm, base, n, first, p, solved, best, split):
    """Raise bucket p's best score (distinct replies + solved) with guess column ``col`` over its
    answers (``staged`` where the block keeps them, else ``perm[base:]``), and mark it split
    where the guess gives all distinct replies."""
    lo = first[p]
    hi = first[p + 1]
    if n <= SHARED_ANSWERS:
        k, seen = _distinct(tmat, col, staged, 0, lo, hi, solved)
    else:
        k, seen = _distinct(tmat, col, perm, base, lo, hi, solved)
    cuda.atomic.max(best, p, k + seen)
    if k == hi - lo:
        split[p] = 1


@cuda.jit(device=True, inline=True)
def _score_members(tmat, row0, answer_rows, staged, perm, base, n, first, solved, best, split):
    """Score each bucket of 3 or more with its own answers (they alone can score m + 1)."""
    for i in range(cuda.threadIdx.x, n, cuda.blockDim.x):
        p = row0[perm[base + i]]
        if first[p + 1] - first[p] >= 3 and p != solved:
            _score(tmat, answer_rows[perm[base + i]], staged, perm, base, n, first, p, solved, best, split)


@cuda.jit(device=True, inline=True)
def _write_bounds(j, first, best, split, solved, n_patterns, left, acc, out, totals):
    """Write ``out[j, p]``, the bound of every bucket from its best score and split, and
    ``totals[j]``, the answers (``acc[0]``) plus their sum (the block's threads together)."""
    tid = cuda.threadIdx.x
    cuda.syncthreads()
    for p in range(tid, n_patterns, cuda.blockDim.x):
        m = first[p + 1] - first[p]
        v = 0
        if m > 0 and p != solved:
            if m == 1:
                v = 1
            elif left <= 1:
                v = INF
            elif m == 2:
                v = 3
            elif left == 2 and split[p] == 0:
                v = INF
            else:
                v = max(3 * m - best[p], level_bound(m, left, best[p], 1))
        out[j, p] = v
        cuda.atomic.add(acc, 0, v)
    cuda.syncthreads()
    if tid == 0:
        totals[j] = min(acc[0], INF)
    cuda.syncthreads()


@cuda.jit(cache=True)
def start_bounds(codes, tmat, answers, starts, guesses, solved, n_patterns, left, members_only, answer_rows,
                 perm, out, totals):
    """Fill ``out[j]`` (bucket bounds) and ``totals[j]`` (first-pass bound) of start row
    ``starts[j]``; ``tmat`` is the answer-major matrix (``tmat[a, g] == codes[g, a]``), ``perm``
    scratch of one row of ``len(answers)`` per block."""
    staged = cuda.shared.array(SHARED_ANSWERS, dtype=int32)
    first = cuda.shared.array(FIRSTS, dtype=int64)
    fill = cuda.shared.array(MAX_PATTERNS, dtype=int64)
    best = cuda.shared.array(MAX_PATTERNS, dtype=int64)
    split = cuda.shared.array(MAX_PATTERNS, dtype=int64)
    active = cuda.shared.array(MAX_PATTERNS, dtype=int32)  # the buckets of 3 or more, their count last
    acc = cuda.shared.array(2, dtype=int64)
    tid = cuda.threadIdx.x
    step = cuda.blockDim.x
    n = answers.shape[0]
    base = cuda.blockIdx.x * n
    for j in range(cuda.blockIdx.x, starts.shape[0], cuda.gridDim.x):
        row0 = codes[starts[j]]
        for p in range(tid, MAX_PATTERNS, step):
            fill[p] = 0
            best[p] = 0
            split[p] = 0
        if tid == 0:
            acc[0] = n
        cuda.syncthreads()
        for i in range(tid, n, step):
            cuda.atomic.add(fill, row0[answers[i]], 1)
        cuda.syncthreads()
        if tid == 0:
            first[0] = 0
            na = 0
            for p in range(n_patterns):
                first[p + 1] = first[p] + fill[p]
                if fill[p] >= 3 and p != solved:
                    active[na] = p
                    na += 1
                fill[p] = first[p]
            acc[1] = na
        cuda.syncthreads()
        for i in range(tid, n, step):
            at = cuda.atomic.add(fill, row0[answers[i]], 1)
            perm[base + at] = answers[i]
            if n <= SHARED_ANSWERS:
                staged[at] = answers[i]
        cuda.syncthreads()
        # each bucket's own answers (they alone can score m + 1), then every other guess
        for i in range(tid, n, step):
            p = row0[perm[base + i]]
            lo = first[p]
            hi = first[p + 1]
            if hi - lo >= 3 and p != solved:
                own = answer_rows[perm[base + i]]
                if n <= SHARED_ANSWERS:
                    k, seen = _distinct(tmat, own, staged, 0, lo, hi, solved)
                else:
                    k, seen = _distinct(tmat, own, perm, base, lo, hi, solved)
                cuda.atomic.max(best, p, k + seen)
                if k == hi - lo:
                    split[p] = 1
        na = acc[1]
        for g in range(tid, 0 if members_only else guesses.shape[0], step):
            col = guesses[g]
            for t in range(na):
                p = active[t]
                lo = first[p]
                hi = first[p + 1]
                if n <= SHARED_ANSWERS:
                    k, seen = _distinct(tmat, col, staged, 0, lo, hi, solved)
                else:
                    k, seen = _distinct(tmat, col, perm, base, lo, hi, solved)
                cuda.atomic.max(best, p, k + seen)
                if k == hi - lo:
                    split[p] = 1
        cuda.syncthreads()
        for p in range(tid, n_patterns, step):
            m = first[p + 1] - first[p]
            v = 0
            if m > 0 and p != solved:
                if m == 1:
                    v = 1
                elif left <= 1:
                    v = INF
                elif m == 2:
                    v = 3
                elif left == 2 and split[p] == 0:
                    v = INF
                else:
                    v = max(3 * m - best[p], level_bound(m, left, best[p], 1))
            out[j, p] = v
            cuda.atomic.add(acc, 0, v)
        cuda.syncthreads()
        if tid == 0:
            totals[j] = min(acc[0], INF)
        cuda.syncthreads()


RULE_WORDS = MAX_PATTERNS // 64
"""uint64 words of a bucket's row of allowed replies (``start_hard_bounds``: a bit per reply)."""

ALLOWED = MAX_PATTERNS * RULE_WORDS
"""Entries of a block's table of allowed replies: a row per bucket of 3 or more."""


@cuda.jit(cache=True)
def start_hard_bounds(codes, tmat, answers, starts, guesses, solved, left, answer_rows, kind, length, colours,
                      letters, counts, perm, out, totals):
    """Fill ``out[j]`` and ``totals[j]`` of start row ``starts[j]`` in hard mode (the contract of
    ``bounds_cpu.start_hard_bounds`` run to its end): bucket p answered by its own answers and by
    the ``guesses`` the hard-mode rule of (s, p) allows. The rule allows a guess h as a function of
    q, the reply s would get were h the answer (``kernels.bounds_cpu``'s docstring): the block finds
    a guess of each q (``head``), checks the rule of every (bucket, q) on it once into a table of
    bits, and each thread looks its guess's q up there for every bucket. ``letters`` and
    ``counts`` are the guesses' words (``kernels.hardmode``); the replies' count is ``out``'s width."""
    staged = cuda.shared.array(SHARED_ANSWERS, dtype=int32)
    first = cuda.shared.array(FIRSTS, dtype=int64)
    fill = cuda.shared.array(MAX_PATTERNS, dtype=int64)
    best = cuda.shared.array(MAX_PATTERNS, dtype=int64)
    split = cuda.shared.array(MAX_PATTERNS, dtype=int64)
    active = cuda.shared.array(MAX_PATTERNS, dtype=int32)
    head = cuda.shared.array(MAX_PATTERNS, dtype=int32)  # the first guess of each reply q (none: every guess)
    allowed = cuda.shared.array(ALLOWED, dtype=uint64)  # bit q of row t: the rule of active[t] allows q
    acc = cuda.shared.array(2, dtype=int64)
    scratch = cuda.local.array(SCRATCH, dtype=int64)
    for c in range(SCRATCH):
        scratch[c] = 0
    tid = cuda.threadIdx.x
    step = cuda.blockDim.x
    n = answers.shape[0]
    n_patterns = out.shape[1]
    base = cuda.blockIdx.x * n
    for j in range(cuda.blockIdx.x, starts.shape[0], cuda.gridDim.x):
        s = starts[j]
        row0 = codes[s]
        for q in range(tid, MAX_PATTERNS, step):
            head[q] = guesses.shape[0]
        _sort_buckets(row0, answers, solved, n_patterns, perm, base, staged, first, fill, best, split, active,
                      acc)
        _score_members(tmat, row0, answer_rows, staged, perm, base, n, first, solved, best, split)
        for g in range(tid, guesses.shape[0], step):  # q: the reply s would get were guess g the answer
            q = reply_code(kind, letters, s, letters, guesses[g], length, colours, scratch)
            cuda.atomic.min(head, q, g)
        cuda.syncthreads()
        na = acc[1]
        for cell in range(tid, na * RULE_WORDS, step):
            p = active[cell // RULE_WORDS]
            hard_rule(kind, length, letters, s, p, scratch)
            bits = uint64(0)
            for q in range(cell % RULE_WORDS * 64, min(n_patterns, cell % RULE_WORDS * 64 + 64)):
                if head[q] < guesses.shape[0] and rule_allows(kind, length, colours, letters, counts, s, p,
                                                              guesses[head[q]], scratch):
                    bits |= uint64(1) << uint64(q & 63)
            allowed[cell] = bits
        cuda.syncthreads()
        for g in range(tid, guesses.shape[0], step):
            q = reply_code(kind, letters, s, letters, guesses[g], length, colours, scratch)
            word = q // 64
            bit = uint64(1) << uint64(q & 63)
            for t in range(na):
                if allowed[t * RULE_WORDS + word] & bit:
                    _score(tmat, guesses[g], staged, perm, base, n, first, active[t], solved, best, split)
        _write_bounds(j, first, best, split, solved, n_patterns, left, acc, out, totals)
