"""Playing: the solving assistant, analysis of a played game, simulated games."""
