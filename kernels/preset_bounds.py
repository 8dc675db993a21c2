"""The first pass of the preset search over one guess set, as plain Python compiled for both
targets (``njit`` in ``presets_cpu``, ``cuda.jit(device=True)`` in ``presets_cuda``).

``set_bounds_of`` returns (a lower bound on the total score, whether the set always wins
within ``more`` consistent guesses, the largest bin) of preset set ``sets[s]``: the same
numbers, to the last bit, as ``presets_cpu._set_bounds`` (bins in the same order, the same
floating-point operations in the same order). It allocates nothing and does not recurse, so
one GPU thread can score one set:

* bins: every answer that is not a preset word gets the key (replies to the presets, first
  preset most significant) * n + answer; a heap sort puts each bin's answers together.
* always wins: the recursion of ``presets_cpu.always_wins`` (every consistent guess, every
  sub-bin) as an explicit stack of ``frames`` rows (start, size, guesses left, guess
  position, next sub-bin, sub-bins end); the sub-bins of level L are sorted (insertion sort
  by reply) into region L + 1 of ``buf`` (regions of n entries).

Scratch (caller-owned, per thread): ``keys`` int64 [n], ``buf`` int32 [max(1, more) * n],
``seen`` int64 [n_patterns], ``frames`` int64 [MAX_LEVELS, 6] with more <= MAX_LEVELS + 1.
"""

MAX_LEVELS = 8


def set_bounds_of(codes, square, sets, s, answer_rows, n_patterns, more, keys, buf, seen, frames):
    """Return (lower bound on the total score, always wins, largest bin) of preset set ``sets[s]``."""
    n = answer_rows.shape[0]
    k = sets.shape[1]
    bound = 0.0
    m = 0
    for a in range(n):
        at = 0
        for i in range(k):
            if at == 0 and sets[s, i] == answer_rows[a]:
                at = i + 1
        if at:
            bound += at
        else:
            key = 0
            for i in range(k):
                key = key * n_patterns + int(codes[sets[s, i], a])
            keys[m] = key * n + a
            m += 1
    # heap sort keys[:m]
    for root0 in range(m // 2 - 1, -1, -1):
        root = root0
        while True:
            child = 2 * root + 1
            if child >= m:
                break
            if child + 1 < m and keys[child + 1] > keys[child]:
                child += 1
            if keys[root] >= keys[child]:
                break
            keys[root], keys[child] = keys[child], keys[root]
            root = child
    for end in range(m - 1, 0, -1):
        keys[0], keys[end] = keys[end], keys[0]
        root = 0
        while True:
            child = 2 * root + 1
            if child >= end:
                break
            if child + 1 < end and keys[child + 1] > keys[child]:
                child += 1
            if keys[root] >= keys[child]:
                break
            keys[root], keys[child] = keys[child], keys[root]
            root = child
    for p in range(n_patterns):
        seen[p] = 0
    stamp = 0
    wins = True
    biggest = 0
    lo = 0
    while lo < m:
        hi = lo + 1
        while hi < m and keys[hi] // n == keys[lo] // n:
            hi += 1
        size = hi - lo
        biggest = max(biggest, size)
        for q in range(size):
            buf[q] = keys[lo + q] % n
        # the lower bound: one level exact, then 2m - 1 per sub-bin of m
        if size <= 2:
            low = 1.0 if size == 1 else 3.0
        else:
            branches = 0
            for q in range(size):
                g = buf[q]
                stamp += 1
                for r in range(size):
                    a = buf[r]
                    if a != g and seen[square[g, a]] != stamp:
                        seen[square[g, a]] = stamp
                        branches += 1
            low = size + 2.0 * (size - 1) - branches / size
        bound += size * k + low
        if wins and size > more:
            if more <= 1:
                wins = False
            else:
                # every consistent guess, every sub-bin, within ``more`` guesses (explicit stack)
                level = 0
                frames[0, 0] = 0
                frames[0, 1] = size
                frames[0, 2] = more
                frames[0, 3] = 0
                frames[0, 4] = -1
                while True:
                    start = frames[level, 0]
                    if frames[level, 4] < 0:
                        if frames[level, 3] == frames[level, 1]:
                            if level == 0:
                                break
                            level -= 1
                            continue
                        g = buf[start + frames[level, 3]]
                        base = (level + 1) * n
                        count = 0
                        for q in range(frames[level, 1]):
                            a = buf[start + q]
                            if a != g:
                                c = square[g, a]
                                p = count
                                while p > 0 and square[g, buf[base + p - 1]] > c:
                                    buf[base + p] = buf[base + p - 1]
                                    p -= 1
                                buf[base + p] = a
                                count += 1
                        frames[level, 4] = 0
                        frames[level, 5] = count
                    first = frames[level, 4]
                    if first >= frames[level, 5]:
                        frames[level, 3] += 1
                        frames[level, 4] = -1
                        continue
                    g = buf[start + frames[level, 3]]
                    base = (level + 1) * n
                    c = square[g, buf[base + first]]
                    last = first + 1
                    while last < frames[level, 5] and square[g, buf[base + last]] == c:
                        last += 1
                    frames[level, 4] = last
                    left = frames[level, 2] - 1
                    if last - first <= left:
                        continue
                    if left <= 1:
                        wins = False
                        break
                    level += 1
                    frames[level, 0] = base + first
                    frames[level, 1] = last - first
                    frames[level, 2] = left
                    frames[level, 3] = 0
                    frames[level, 4] = -1
        lo = hi
    return bound, wins, biggest
