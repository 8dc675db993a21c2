"""Long runs: start-word ranking, the run store, fan-out over Dask, reused subproblems, progress."""
