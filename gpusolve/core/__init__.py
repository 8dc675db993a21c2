"""The game model: games, word lists, modes, histories, the pattern matrix, backends, caches, trees."""
