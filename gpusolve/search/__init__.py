"""The searches over a pattern matrix: metrics, greedy and exact trees, adversaries, presets, priors."""
