"""gpusolve: exhaustive search for Wordle-family guessing games (and War), on GPU or CPU."""

__version__ = "0.1.0"
