"""The searches' defaults that the command line shows in its help: plain numbers in a module
that imports nothing, so that ``gpusolve --help`` reads them without numpy or numba."""

DEFAULT_MEMO_MB = 512
"""Memo size of the exact search (MiB, all workers together; ``gpusolve.search.memo``)."""

DEFAULT_PAIR_MB = 256
"""Memory of the worst-case search's cache of pair separators (bit sets over the guesses), MiB."""

FREE_MIN = 3
"""Free (non-answer) guesses are never considered for this many remaining answers or fewer
(the greedy trees)."""
