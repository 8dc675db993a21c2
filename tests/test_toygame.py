"""The toy game (``--game wordle3``, 3-letter Wordle over data/wordle3.txt): a registered variant
plays through the whole tool, and its optimal tree agrees with a brute-force minimum."""

from __future__ import annotations

import json
from functools import cache

from typer.testing import CliRunner

from gpusolve.cli import app
from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix
from gpusolve.search.optimal import Question, solve


def test_wordle3_is_wordle_over_its_own_list():
    game = make_game("wordle3")
    guesses, answers = game.word_lists(None, None)
    assert (game.name, game.length, game.n_patterns) == ("wordle3", 3, 27)
    assert len(answers) == len(guesses) == 284 and answers[0] == "ACT"
    assert game.reply("EAT", "TEA") == game.parse_reply("YYY")


def test_wordle3_optimal_total_matches_brute_force_on_a_few_answers():
    """Exact least total over 6 answers (every guess allowed, 3 guesses), by exhaustive recursion."""
    pm = pattern_matrix(make_game("wordle3"), None, None)
    cols = (0, 5, 17, 40, 41, 42)

    @cache
    def best(left: frozenset, depth: int) -> float:
        if depth == 0:
            return float("inf")
        out = float("inf")
        for g in range(pm.shape[0]):
            parts: dict[int, list[int]] = {}
            for a in left:
                parts.setdefault(int(pm.codes[g, a]), []).append(a)
            if len(parts) == 1 and pm.game.solved not in parts:
                continue
            cost = len(left) + sum(best(frozenset(p), depth - 1) for r, p in parts.items()
                                   if r != pm.game.solved)
            out = min(out, cost)
        return out

    got = solve(pm, Question(answers=cols, max_guesses=3, tree=False))
    assert got.total == best(frozenset(cols), 3)


def test_wordle3_from_the_command_line():
    """After EAT shows .G. (the 54 _A_ words), 8 guesses suffice; mean 206/54, proven."""
    args = ["optimal-tree", "--game", "WORDLE3", "--state", "EAT:.G.", "--max-guesses", "8", "--json"]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["proven"] and out["total"] == 206 and out["first_guess"] == "SPY"
    bad = CliRunner().invoke(app, ["optimal-tree", "--game", "wordle3", "--length", "5"])
    assert bad.exit_code == 2 and "3 letters" in bad.output
