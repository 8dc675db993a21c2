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
"""The default thinking budget of one exact search of the assistant and the analysis (seconds;
``gpusolve.play.thinking``): on the 2 cores of the development machine the exact search settles
the position after each of the usual openers and any reply within it for 95% or more of the
answers (scripts/bench_advice.py), and play still feels immediate."""

ANALYZE_SECONDS = 10.0
"""The default budget of one exact search of ``gpusolve analyze`` (seconds): a game is judged
once, after it is played, so it may wait longer than advice during play."""
