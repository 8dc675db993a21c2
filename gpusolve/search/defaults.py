"""The searches' defaults that the command line shows in its help: plain numbers in a module
that imports nothing, so that ``gpusolve --help`` reads them without numpy or numba."""

DEFAULT_MEMO_MB = 512
"""Memo size of the exact search (MiB, all workers together; ``gpusolve.search.memo``)."""

DEFAULT_PAIR_MB = 256
"""Memory of the worst-case search's cache of pair separators (bit sets over the guesses), MiB."""

FREE_MIN = 3
"""Free (non-answer) guesses are never considered for this many remaining answers or fewer
(the greedy trees)."""

THINK_SECONDS = 2.0
"""The default thinking budget of one exact search of the assistant (seconds;
``gpusolve.play.thinking``): play still feels immediate, and after each of 12 usual openers and
any reply the costliest position needs 1.9-2.0 CPU-seconds over the two worker threads, and at
most 1.4-1.6 on the one thread that searches a set under 128 answers (scripts/bench_advice.py,
2026-11-27): within it on the 2 development cores when they are quiet. Those positions are in
the opening book (``gpusolve.play.book``) too, answered at once on any machine."""

ANALYZE_SECONDS = 10.0
"""The default budget of one exact search of ``gpusolve analyze`` (seconds): a game is judged
once, after it is played, so it may wait longer than advice during play."""
