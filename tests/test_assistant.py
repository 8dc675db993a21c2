"""The assistant (solve), game analysis, play-human and the frequency prior."""

from __future__ import annotations

import json
import math
import os
import pty
import re
import select
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytest
from gpusolve.kernels import prior_cpu as pk
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner
from wordfiles import FAMILY

from gpusolve.cli import app
from gpusolve.core.errors import GpusolveError
from gpusolve.core.history import parse_history
from gpusolve.core.modes import hard_mode_allows
from gpusolve.play.analysis import analyze_game, by_commonness
from gpusolve.play.assistant import Assistant, parse_turn
from gpusolve.search.prior import answer_weights, rank_weighted, weighted_table

runner = CliRunner()

# ---- the weighted kernel against a pure-Python oracle ----

# Tests of what exact advice says give the search all the time it needs: the default budget (2 s)
# can run out while a cold cache compiles the kernels or the machine is loaded.
UNHURRIED = float("inf")


def oracle_weighted(game, guess, answers, weights):
    groups: dict[int, list[float]] = {}
    for a, w in zip(answers, weights):
        groups.setdefault(game.reply(guess, a), []).append(w)
    total = sum(weights)
    entropy = -sum((sum(g) / total) * math.log2(sum(g) / total) for g in groups.values() if sum(g) > 0)
    expected = sum(sum(g) / total * len(g) for g in groups.values())
    solve = sum(groups.get(game.solved, [])) / total
    return entropy, expected, max(map(len, groups.values())), len(groups), solve


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 2308), min_size=1, max_size=30, unique=True),
       st.lists(st.integers(0, 12971), min_size=1, max_size=5),
       st.lists(st.floats(0.001, 5.0), min_size=30, max_size=30))
def test_weighted_kernel_matches_oracle(full_pm, cols, rows, ws):
    weights = np.zeros(full_pm.shape[1])
    weights[cols] = ws[:len(cols)]
    table = weighted_table(full_pm, weights, np.array(cols), np.array(rows))
    for i, r in enumerate(rows):
        want = oracle_weighted(full_pm.game, full_pm.guesses[r], [full_pm.answers[c] for c in cols],
                               [weights[c] for c in cols])
        got = table[i]
        assert got[pk.W_ENTROPY] == pytest.approx(want[0], abs=1e-9)
        assert got[pk.W_EXPECTED] == pytest.approx(want[1])
        assert (got[pk.W_MAX], got[pk.W_BRANCHES]) == (want[2], want[3])
        assert got[pk.W_SOLVE] == pytest.approx(want[4])


def test_uniform_weights_agree_with_unweighted_metrics(full_pm):
    from gpusolve.search.metrics import rank_guesses

    w = answer_weights(full_pm, "uniform")
    top = [s.word for s in rank_weighted(full_pm, "entropy", w)[:5]]
    assert top == [s.word for s in rank_guesses(full_pm, "entropy")[:5]]


def test_frequency_prior(full_pm):
    w = answer_weights(full_pm, "frequency")
    assert w.shape == (2309,) and np.all((w > 0) & (w < 1))
    index = full_pm.answers.index
    assert w[index("ABOUT")] > 0.99 and w[index("WOOER")] < 0.05
    with pytest.raises(GpusolveError):
        answer_weights(full_pm, "zipf")


def test_missing_wordfreq_is_one_line(monkeypatch, full_pm):
    import builtins

    real = builtins.__import__

    def no_wordfreq(name, *args, **kwargs):
        if name == "wordfreq":
            raise ImportError("no wordfreq")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_wordfreq)
    with pytest.raises(GpusolveError, match="pip install 'gpusolve\\[freq\\]'"):
        answer_weights(full_pm, "frequency")


# ---- the assistant as a library ----


def test_parse_turn_syntaxes(full_pm):
    for text in ("SALET .Y..G", "salet:.y..g", "SALET,01002", "SALET ⬜🟨⬜⬜🟩"):
        assert parse_turn(full_pm, text) == ("SALET", full_pm.game.parse_reply(".Y..G"))
    for bad in ("SALET", "SALET .Y..G extra", "QQQQQ .....", "SALET .Y..Q"):
        with pytest.raises(GpusolveError):
            parse_turn(full_pm, bad)


def test_assistant_play_undo_and_refusals(full_pm):
    a = Assistant(full_pm, think=UNHURRIED)
    opening = a.advice()
    assert (opening.best, len(opening.remaining)) == ("SALET", 2309)
    assert opening.method.startswith("proven best opener on the nyt-2022-03 lists: 7,897 guesses")
    a.play("SALET", full_pm.game.parse_reply("....."))
    assert len(a.remaining()) == 221
    with pytest.raises(GpusolveError, match="impossible"):
        a.play("TRICK", full_pm.game.parse_reply("G...."))
    assert len(a.moves) == 1  # state kept
    a.play("CRONY", full_pm.game.parse_reply(".Y..G"))
    advice = a.advice()
    assert advice.remaining == ["FURRY", "HURRY", "MURKY", "RUDDY", "RUGBY"]
    assert advice.method == "exact: 2.000 more guesses on average"
    assert a.undo()[0] == "CRONY" and len(a.remaining()) == 221
    a.undo()
    with pytest.raises(GpusolveError, match="nothing to undo"):
        a.undo()


def test_assistant_hard_mode_and_small_positions(full_pm):
    a = Assistant(full_pm, mode="hard")
    a.play("CRANE", full_pm.game.parse_reply("G...."))
    with pytest.raises(GpusolveError, match="hard mode"):
        a.play("SALET", full_pm.game.parse_reply("....."))
    advice = a.advice()
    assert all(w.startswith("C") for w in [x["word"] for x in advice.alternatives])
    b = Assistant(full_pm)
    for word, reply in parse_history(full_pm, "SALET:.....,CRONY:.Y..G,RHOMB:Y....,"):
        b.play(word, reply)
    small = b.advice()
    assert len(small.remaining) <= 2 and small.method == "exact"


# ---- analysis ----


def oracle_total(pm, mode, moves, guess=None, max_guesses=6):
    """Return the least total of guesses from the position ``moves`` reach, with ``guess`` first
    if given, by trying every guess at every node (no pruning)."""
    from functools import cache

    game = pm.game

    @cache
    def value(answers: frozenset, depth: int, allowed: frozenset, first=None) -> float:
        if depth == 0:
            return math.inf
        best = math.inf
        for g in [first] if first else sorted(allowed):
            buckets: dict[int, set] = {}
            for a in answers:
                buckets.setdefault(game.reply(g, a), set()).add(a)
            cost = len(answers)
            for p, bucket in buckets.items():
                if p != game.solved:
                    after = allowed if mode == "normal" else frozenset(
                        h for h in allowed if hard_mode_allows(game, h, [(g, p)]))
                    cost += value(frozenset(bucket), depth - 1, after)
            best = min(best, cost)
        return best

    alive = frozenset(a for a in pm.answers if all(game.reply(w, a) == r for w, r in moves))
    allowed = frozenset(g for g in pm.guesses if mode == "normal" or hard_mode_allows(game, g, list(moves)))
    return value(alive, max_guesses - len(moves), allowed, guess)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["normal", "hard"]))
def test_analysis_matches_brute_force(full_pm, seed, mode):
    """Every figure of a small game's analysis, exact, against the oracle: best left, played
    left, received left (so the cost and the luck)."""
    import random

    from tinygames import sub_matrix

    rng = random.Random(seed)
    answers = sorted(rng.sample(full_pm.answers, 10))
    guesses = sorted(set(answers) | set(rng.sample(full_pm.answers, 8)))
    pm = sub_matrix(full_pm, guesses, answers)
    hidden = rng.choice(answers)
    moves = []
    while not moves or moves[-1][1] != pm.game.solved:
        allowed = [g for g in guesses if mode == "normal" or hard_mode_allows(pm.game, g, moves)]
        word = rng.choice(allowed if len(moves) < 2 else [hidden])
        moves.append((word, pm.game.reply(word, hidden)))
    reports, left = analyze_game(pm, moves, mode, seconds=60)
    assert list(left) == [answers.index(hidden)]
    for r in reports:
        before, played = moves[:r.number - 1], moves[:r.number]
        n, after = r.before, r.after
        assert r.best.exact and r.played.exact and r.received.exact
        assert r.best_left == oracle_total(pm, mode, before) / n - 1
        assert r.played_left == oracle_total(pm, mode, before, r.guess) / n - 1
        assert r.received_left == (oracle_total(pm, mode, played) / after if after else 0)
        assert r.cost >= 0 and r.luck == r.played_left - r.received_left
        assert oracle_total(pm, mode, before, r.best.guess) == r.best.total


def test_analysis_against_the_proof(full_pm):
    """The opener the whole proof found best costs nothing (7,897 on the default lists); the next
    figures are the exact search's (SALET ..... leaves 221 answers needing 609 guesses)."""
    moves = parse_history(full_pm, "SALET:.....,CRONY:.Y..G,RHOMB:Y....")
    reports, left = analyze_game(full_pm, moves)
    salet, crony, rhomb = reports
    assert (salet.best.guess, salet.cost, salet.cost_exact) == ("SALET", 0, True)
    assert salet.best_left == 7897 / 2309 - 1 and salet.received_left == 609 / 221
    assert salet.luck == pytest.approx(7897 / 2309 - 1 - 609 / 221) and salet.luck_exact
    assert crony.best.guess == "COURD" and crony.best_left == 609 / 221 - 1
    assert crony.cost > 0 and crony.cost_exact and crony.received_left == 2
    assert rhomb.cost == 0 and rhomb.best.guess == "RHOMB" and rhomb.received_left == 1
    assert [full_pm.answers[a] for a in left] == ["FURRY"]
    hurried, _ = analyze_game(full_pm, moves[:2], seconds=0.001)
    assert hurried[0].cost_exact and hurried[0].luck_exact  # every reply to SALET: the opening book
    assert not hurried[1].cost_exact and hurried[1].cost >= 0
    ranked = by_commonness(["FURRY", "HURRY", "MURKY", "RUDDY", "RUGBY"])
    assert next(w for w, _ in ranked) == "RUGBY"


# ---- command line through typer ----


def test_cli_solve_history_and_errors():
    r = runner.invoke(app, ["solve", "--history", "SALET:.....,CRONY:.Y..G", "--json", "--think", "inf"])
    assert r.exit_code == 0 and '"remaining": 5' in r.output
    for lists in ("original", "nyt-2023-07"):
        r = runner.invoke(app, ["solve", "--lists", lists, "--state", "SALET:.....,CRONY:.Y..G", "--json",
                                "--think", "inf"])
        assert r.exit_code == 0 and json.loads(r.stdout)["proven"], r.output
    r = runner.invoke(app, ["solve", "--history", "SALET:.....,TRICK:G...."])
    assert r.exit_code == 2 and r.output.startswith("error: ") and "impossible" in r.output
    r = runner.invoke(app, ["solve", "--history", "SALET"])
    assert r.exit_code == 2 and r.output.startswith("error: malformed move")
    r = runner.invoke(app, ["solve", "--prior", "zipf", "--state", "SALET:....."])
    assert r.exit_code == 2 and "unknown prior" in r.output


def test_cli_solve_interactive_with_bad_input():
    keys = "SALET .....\nfoo\nTRICK G....\nCRONY .Y..G\nundo\nCRONY .Y..G\nquit\n"
    r = runner.invoke(app, ["solve", "--top", "2"], input=keys)
    assert r.exit_code == 0
    out = r.output
    assert "221 answers left" in out and "expected a guess and its reply" in out
    assert "impossible" in out and "undid CRONY .Y..G" in out
    assert out.count("5 answers left: FURRY HURRY MURKY RUDDY RUGBY") == 2


def test_cli_analyze_and_play_human():
    r = runner.invoke(app, ["analyze", "SALET:.....,CRONY:.Y..G", "--json"])
    assert r.exit_code == 0 and '"word": "RUGBY"' in r.output
    first = json.loads(r.stdout)["moves"][0]
    assert (first["best"], first["cost"], first["cost_exact"]) == ("SALET", 0, True)
    r = runner.invoke(app, ["analyze", "--mode", "hard", "SALET:.....,CRONY:.Y..G", "--think", "0.001"])
    assert r.exit_code == 0 and "hard mode" in r.output and "~: an estimate" in r.output
    r = runner.invoke(app, ["analyze", "SALET:.....,TRICK:G...."])
    assert r.exit_code == 2 and r.output.startswith("error: ")
    r = runner.invoke(app, ["play-human", "--answer", "CRONY"], input="SALET\nxyzzy\nCRONY\n")
    assert r.exit_code == 0 and "not in the guess list" in r.output and "solved in 2!" in r.output
    r = runner.invoke(app, ["play-human", "--seed", "3", "--max-guesses", "1"], input="SALET\n")
    assert r.exit_code == 0 and "the answer was" in r.output
    r = runner.invoke(app, ["play-human", "--evil"], input="SALET\nquit\n")
    assert r.exit_code == 0 and "(221 left)" in r.output  # Absurdle keeps SALET's biggest bucket


# ---- a real pseudo-terminal ----


class Screen:
    """A child process on a pseudo-terminal: send keys, read what it prints."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "COLUMNS": "100", "TERM": "xterm"}
        # outside the checkout, as a user runs it: there `python -m` finds the installed package
        self.proc = subprocess.Popen([sys.executable, "-m", "gpusolve", *args], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, close_fds=True, cwd=tempfile.gettempdir())
        os.close(slave)
        self.text = ""

    def expect(self, pattern: str, timeout: float = 120.0) -> str:
        end = time.monotonic() + timeout
        while not re.search(pattern, self.plain()):
            left = end - time.monotonic()
            if left <= 0 or (self.proc.poll() is not None and not select.select([self.master], [], [], 0)[0]):
                raise AssertionError(f"never saw {pattern!r}; screen:\n{self.plain()[-2000:]}")
            if select.select([self.master], [], [], min(left, 0.5))[0]:
                try:
                    self.text += os.read(self.master, 65536).decode(errors="replace")
                except OSError:
                    break
        return self.plain()

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def plain(self) -> str:
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", self.text)

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=60)
        finally:
            os.close(self.master)


def test_solve_in_a_pseudo_terminal():
    screen = Screen("solve", "--top", "2")
    try:
        screen.expect(r"2,309 answers left")
        screen.expect(r"> ")
        screen.send("SALET .....\r")
        screen.expect(r"221 answers left")
        screen.send("CRONY .Y..Q\r")
        screen.expect(r"error:.*reply")
        screen.send("TRICK G....\r")
        screen.expect(r"impossible")
        screen.send("CRONY .Y..G\r")
        screen.expect(r"5 answers left: FURRY HURRY MURKY RUDDY RUGBY")
        screen.send("undo\r")
        screen.expect(r"undid CRONY")
        screen.send("CRONY .Y..G\r")
        screen.send("RUGBY GGGGG\r")
        screen.expect(r"solved: RUGBY")
        assert screen.close() == 0
        assert "\x1b[" in screen.text  # coloured tiles on a terminal
    finally:
        if screen.proc.poll() is None:
            screen.proc.kill()


def test_ctrl_c_while_thinking_gives_the_greedy_advice_and_the_game_goes_on():
    screen = Screen("solve", "--top", "2", "--think", "300")
    try:
        screen.expect(r"> ")
        screen.send("FUZZY .....\r")  # 1,349 answers: a minute's exact search
        screen.expect(r"Z +Z +Y +\.\.\.\.\.")
        time.sleep(3)
        started = time.monotonic()
        screen.proc.send_signal(signal.SIGINT)  # what Ctrl-C sends (the terminal is not its own)
        screen.expect(r"greedy by entropy: the exact search was interrupted", timeout=30)
        assert time.monotonic() - started < 30
        screen.send("undo\r")
        screen.expect(r"undid FUZZY")
        screen.send("quit\r")
        assert screen.close() == 0
    finally:
        if screen.proc.poll() is None:
            screen.proc.kill()


def test_prior_tree_is_a_valid_tree(small_pm):
    from gpusolve.core.trees import scores, summarize
    from gpusolve.search.prior import prior_tree, weighted_mean

    cols = np.arange(0, 2309, 7, dtype=np.int32)
    for prior in ("uniform", "frequency"):
        w = answer_weights(small_pm, prior)
        tree = prior_tree(small_pm, w, "entropy", "normal", answers=cols)
        got = dict(scores(tree))
        assert sorted(got) == sorted(small_pm.answers[c] for c in cols)
        for answer in got:
            node = tree
            while not isinstance(node, str):
                node = node.branches[small_pm.game.reply(node.guess, answer)]
            assert node == answer
        if prior == "uniform":
            assert weighted_mean(tree, small_pm, w) == pytest.approx(summarize(tree).mean)
    with pytest.raises(GpusolveError):
        prior_tree(small_pm, w, mode="hard")


def test_cli_prior_tree(tmp_path):
    r = runner.invoke(app, ["prior-tree", "--guesses", FAMILY, "--answers",
                            FAMILY, "--json", "--out", str(tmp_path / "t.json")])
    assert r.exit_code == 0 and '"mean_under_prior"' in r.output and (tmp_path / "t.json").exists()


def test_cli_rank_prior():
    r = runner.invoke(app, ["rank-prior", "--top", "3", "--json"])
    assert r.exit_code == 0 and r.output.count('"word"') == 3
    r = runner.invoke(app, ["rank-prior", "--metric", "nonsense"])
    assert r.exit_code == 2 and r.output.startswith("error: unknown metric")


def test_advice_is_exact_within_the_thinking_budget(monkeypatch, full_pm):
    """The exact search answers wherever it finishes in time (221 answers after SALET .....: the
    value optimal-tree --state proves); past the budget the advice is greedy and says why; a
    position the proven tree reaches (the advice followed) needs no search at all; the opening
    book answers the same at once."""
    from gpusolve.search import optimal

    a = Assistant(full_pm, think=UNHURRIED, book=False)
    a.play("SALET", full_pm.game.parse_reply("....."))
    advice = a.advice()
    alone = optimal.solve(full_pm, optimal.Question(moves=tuple(a.moves), tree=False))
    assert (advice.best, advice.mean) == (alone.first_guess, alone.total / 221) == ("COURD", 609 / 221)
    assert advice.method == "exact: 2.756 more guesses on average" and advice.as_dict()["proven"]

    def no_search(*args, **kwargs):
        raise AssertionError("searched again")

    monkeypatch.setattr(optimal, "solve", no_search)
    a.play("COURD", full_pm.game.parse_reply("....."))
    followed = a.advice()
    monkeypatch.undo()
    fresh = Assistant(full_pm, think=UNHURRIED, book=False)
    for word, reply in a.moves:
        fresh.play(word, reply)
    again = fresh.advice()
    assert followed.method.startswith("exact: ")
    assert (followed.best, followed.mean) == (again.best, again.mean)
    hurried = Assistant(full_pm, think=0.001, book=False)
    hurried.play("SALET", full_pm.game.parse_reply("....."))
    greedy = hurried.advice()
    assert greedy.method == "greedy by entropy: the exact search did not finish in 0.001 s"
    assert greedy.best == "CORNU" and greedy.mean is None and not greedy.as_dict()["proven"]
    booked = Assistant(full_pm, think=0.001)
    booked.play("SALET", full_pm.game.parse_reply("....."))
    told = booked.advice()
    assert (told.best, told.method, told.mean) == ("COURD", advice.method, 609 / 221)
    with pytest.raises(GpusolveError, match="positive number of seconds"):
        Assistant(full_pm, think=float("nan"))


def test_exact_advice_in_hard_mode(full_pm):
    from gpusolve.search import optimal

    a = Assistant(full_pm, mode="hard", think=UNHURRIED)
    a.play("CRANE", full_pm.game.parse_reply("G...."))
    advice = a.advice()
    alone = optimal.solve(full_pm, optimal.Question(moves=tuple(a.moves), mode="hard", tree=False))
    assert advice.method.startswith("exact: ") and advice.best.startswith("C")
    assert advice.mean == alone.total / len(a.remaining())


def test_exact_advice_with_the_real_optimal_search(full_pm):
    a = Assistant(full_pm, think=UNHURRIED)
    for word, reply in parse_history(full_pm, "SALET:.....,CRONY:.Y..G"):
        a.play(word, reply)
    advice = a.advice()
    assert advice.method == "exact: 2.000 more guesses on average"
    # one of the guesses of least total (10), ties broken by the search's order (FURRY, RHOMB, ...)
    assert oracle_total(full_pm, "normal", a.moves, advice.best) == 10
