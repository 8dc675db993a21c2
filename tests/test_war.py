"""The card game War: exact probabilities against the seed and brute force; simulation kernels
against a pure-Python game; simulated statistics against the exact ones; the CLI."""

from __future__ import annotations

import json
import statistics
from collections import deque
from fractions import Fraction
from itertools import permutations
from math import sqrt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gpusolve.cli import app
from gpusolve.core.errors import GpusolveError
from gpusolve.war import (
    A_WINS,
    B_WINS,
    CAPPED,
    DRAW_BITS,
    TIE,
    abstract_deck,
    check_counts,
    distinct_deals,
    game_lengths,
    play_battle,
    play_games,
    remove,
    short_games,
    short_games_by_permutations,
    stream_key,
    sweep_probability,
    sweeps_by_permutations,
)

DECK52 = abstract_deck(13, 4)
SMALL_DECKS = [(r, s) for r in range(2, 11) for s in range(1, 11) if r * s <= 10 and r * s % 2 == 0]
SEED_TABLE = {(2, 1): 0.50000, (2, 2): 0.16667, (2, 3): 0.05000, (2, 4): 0.01429, (2, 5): 0.00397,
              (3, 2): 0.06667, (4, 1): 0.25000, (4, 2): 0.03571, (5, 2): 0.01799, (6, 1): 0.12500,
              (8, 1): 0.06250, (10, 1): 0.03125}


# --- exact probabilities: the seed's figures -------------------------------------------------


def test_sweep_of_52_cards():
    p = sweep_probability(DECK52)
    exact = sweep_probability(DECK52, exact=True)
    # The seed prints 3.132436174322299e-09: its summation order rounds 5 ulps away from the
    # exact value, whose nearest float is ...294.
    assert float(exact) == p == 3.132436174322294e-09
    assert abs(p - 3.132436174322299e-09) < 2e-15 * p
    assert round(1 / (2 * p)) == 159_620_172
    assert abs(p / (24 / 51) ** 26 - 1.0167508045532485) < 1e-12


def test_the_seeds_worked_battles():
    first = {(3, 3) + (4,) * 11: 24 / 51}
    second = {(3, 3, 3, 3) + (4,) * 9: 0.16902761104441777, (2, 3, 3) + (4,) * 10: 0.050708283313325234,
              (2, 2) + (4,) * 11: 0.0017286914765906338}
    dist = play_battle({DECK52: 1.0})
    assert dist == pytest.approx(first, rel=1e-12)
    dist = play_battle(dist)
    assert dist == pytest.approx(second, rel=1e-12)
    dist = play_battle(dist)
    assert len(dist) == 7
    assert dist[(1, 1) + (4,) * 11] == pytest.approx(3.065055809557861e-06, rel=1e-12)
    assert remove((2, 3, 4), 0, 1) == (1, 2, 4)


def test_short_games_of_52_cards_as_the_seed_counts_them():
    games = short_games(DECK52)
    assert games.seed_win == pytest.approx(1.5476119509914642e-05, rel=1e-12)
    assert games.seed_tie == pytest.approx(3.1233217745837868e-06 + 2.0982962265274516e-06
                                           + 1.4095876874120516e-06, rel=1e-12)
    assert f"{1 / games.seed_win:,.2f}" == "64,615.68"
    assert f"{1 / games.seed_tie:,.2f}" == "150,802.14"


def test_short_games_of_52_cards_by_the_rules():
    games = short_games(DECK52, exact=True)
    assert games.win + games.tie == games.seed_win + games.seed_tie
    assert f"{1 / float(games.win):,.2f}" == "45,240.26"
    assert f"{1 / float(games.tie):,.0f}" == "320,425,113"
    floats = short_games(DECK52)
    for name in ("win", "tie", "seed_win", "seed_tie"):
        assert abs(getattr(floats, name) - getattr(games, name)) < 1e-14 * getattr(games, name)


@pytest.mark.parametrize(("ranks", "suits"), SEED_TABLE)
def test_the_seeds_small_deck_table(ranks, suits):
    assert round(sweep_probability(abstract_deck(ranks, suits)), 5) == SEED_TABLE[ranks, suits]


# --- exact probabilities: brute force over every deal ----------------------------------------


@pytest.mark.parametrize(("ranks", "suits"), [
    pytest.param(r, s, marks=[pytest.mark.slow] if r * s > 8 and s == 1 else []) for r, s in SMALL_DECKS])
def test_sweep_equals_brute_force(ranks, suits):
    assert sweep_probability(abstract_deck(ranks, suits), exact=True) == sweeps_by_permutations(ranks, suits)


@pytest.mark.parametrize(("ranks", "suits"), [(r, s) for r, s in SMALL_DECKS if r * s <= 8 or s > 1])
@pytest.mark.parametrize("down", [0, 1, 3])
def test_short_games_equal_brute_force(ranks, suits, down):
    assert short_games(abstract_deck(ranks, suits), down, exact=True) == \
        short_games_by_permutations(ranks, suits, down)


@pytest.mark.parametrize("deck", [[1, 2, 3], [1, 1, 2, 2], [3, 1, 3, 2, 1], [2, 2, 2], [1, 2, 2, 3, 3, 3]])
def test_distinct_deals_are_the_distinct_permutations(deck):
    deals = list(distinct_deals(deck))
    assert len(deals) == len(set(deals)) and set(deals) == set(permutations(deck))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=6).filter(lambda c: sum(c) % 2 == 0 and sum(c)),
       st.integers(0, 3))
def test_floats_track_fractions_on_any_deck(counts, down):
    assert sweep_probability(counts) == pytest.approx(float(sweep_probability(counts, exact=True)),
                                                      rel=1e-12, abs=1e-300)
    exact = short_games(counts, down, exact=True)
    assert exact.win + exact.tie == exact.seed_win + exact.seed_tie
    assert 0 <= sweep_probability(counts, exact=True) <= exact.win <= 1


@pytest.mark.parametrize("counts", [(4, -1, 3), (3,), (), (0, 0), (1.5, 0.5)])
def test_bad_counts_are_rejected(counts):
    with pytest.raises(GpusolveError):
        check_counts(counts)


# --- simulation: kernels against a pure-Python game -------------------------------------------

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    """SplitMix64's finalizer on Python ints."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def game_by_python(seed, game, ranks, suits, down, cap):
    """Return (plays, outcome) of one game, played with deques as in the seed's simulate_game."""
    key, draws = stream_key(seed), 0

    def shuffle(cards):
        nonlocal draws
        for i in range(len(cards) - 1, 0, -1):
            draws += 1
            z = mix64((key + ((game << DRAW_BITS) + draws) * GOLDEN) & MASK)
            j = ((z >> 32) * (i + 1)) >> 32
            cards[i], cards[j] = cards[j], cards[i]

    deck = [r for r in range(ranks) for _ in range(suits)]
    shuffle(deck)
    A, B = deque(deck[0::2]), deque(deck[1::2])
    played, due, plays = [], 0, 0
    while A and B:
        if plays == cap:
            return plays, CAPPED
        a, b = A.popleft(), B.popleft()
        played += [a, b]
        plays += 1
        if due:
            due -= 1
        elif a == b:
            due = down
        else:
            shuffle(played)
            (A if a > b else B).extend(played)
            played = []
    return plays, (TIE if not A and not B else A_WINS if A else B_WINS)


GAMES = [(13, 4, 3, 100_000), (2, 4, 1, 40), (3, 2, 0, 1000), (5, 4, 2, 60)]


@pytest.mark.parametrize(("ranks", "suits", "down", "cap"), GAMES)
def test_cpu_kernel_plays_the_python_games(ranks, suits, down, cap):
    plays, outcomes = play_games(5, 200, ranks, suits, down, cap, seed=2020, backend="cpu")
    expected = [game_by_python(2020, 5 + i, ranks, suits, down, cap) for i in range(200)]
    assert list(zip(plays.tolist(), outcomes.tolist())) == expected


def test_games_depend_only_on_seed_and_index():
    plays, outcomes = play_games(0, 3000, 4, 2, seed=7, backend="cpu")
    later, later_outcomes = play_games(1000, 500, 4, 2, seed=7, backend="cpu")
    assert (plays[1000:1500] == later).all() and (outcomes[1000:1500] == later_outcomes).all()
    other, _ = play_games(0, 3000, 4, 2, seed=8, backend="cpu")
    assert (other != plays).any()
    assert set(outcomes.tolist()) == {A_WINS, B_WINS, TIE}


@pytest.mark.cuda
@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
@pytest.mark.parametrize(("ranks", "suits", "down", "cap"), GAMES)
def test_cuda_kernel_equals_cpu_kernel(ranks, suits, down, cap):
    cpu = play_games(11, 300, ranks, suits, down, cap, seed=3, backend="cpu")
    gpu = play_games(11, 300, ranks, suits, down, cap, seed=3, backend="cuda")
    assert (cpu[0] == gpu[0]).all() and (cpu[1] == gpu[1]).all()


# --- simulation: statistics ----------------------------------------------------------------


def _within(count, games, p, sigmas=5.0):
    """Return whether ``count`` successes in ``games`` trials fit probability ``p``."""
    return abs(count - games * p) <= sigmas * sqrt(games * p * (1 - p)) + 1


@pytest.mark.parametrize(("ranks", "suits", "down"), [(8, 1, 3), (2, 4, 1), (3, 4, 0), (4, 2, 3)])
def test_shortest_games_match_the_exact_probabilities(ranks, suits, down):
    games = 200_000
    plays, outcomes = play_games(0, games, ranks, suits, down, seed=1, backend="cpu")
    exact = short_games(abstract_deck(ranks, suits), down, exact=True)
    shortest = plays == ranks * suits // 2
    assert plays.min() >= ranks * suits // 2
    assert _within(int((shortest & (outcomes <= B_WINS)).sum()), games, float(2 * exact.win))
    assert _within(int((shortest & (outcomes == TIE)).sum()), games, float(exact.tie))
    if suits == 1:
        assert exact.win == sweep_probability(abstract_deck(ranks, suits), exact=True)


def test_52_card_lengths_resemble_the_seeds_sample():
    result = game_lengths(100_000, seed=0, backend="cpu")
    s = result.summary()
    assert result.capped == 0 and result.finished == 100_000
    assert abs(s["mean"] - 294) < 6 and abs(s["stdev"] - 234) < 8
    assert abs(s["median"] - 224) < 6 and s["min"] >= 26


def test_summary_agrees_with_the_statistics_module():
    result = game_lengths(5000, ranks=5, suits=4, cap=45, seed=4, backend="cpu")
    plays, outcomes = play_games(0, 5000, 5, 4, cap=45, seed=4, backend="cpu")
    finished = plays[outcomes != CAPPED].tolist()
    s = result.summary()
    assert result.capped == 5000 - len(finished) > 0
    assert (result.a_wins, result.b_wins, result.ties) == tuple(
        int((outcomes == k).sum()) for k in (A_WINS, B_WINS, TIE))
    assert s["mean"] == pytest.approx(statistics.mean(finished))
    assert s["stdev"] == pytest.approx(statistics.stdev(finished))
    assert s["median"] == statistics.median(finished)
    assert (s["min"], s["max"]) == (min(finished), max(finished))
    assert s["mode"] == min(statistics.multimode(finished))
    assert sum(g for _, _, g in result.bins()) == len(finished)


# --- command line ----------------------------------------------------------------------------

runner = CliRunner()


def test_cli_sweep_json():
    result = runner.invoke(app, ["war", "sweep", "--json", "--exact"])
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    assert info["p_sweep"] == 3.132436174322294e-09
    assert round(info["games_per_sweep_by_either"]) == 159_620_172
    assert Fraction(info["exact"]) == sweep_probability(DECK52, exact=True)


def test_cli_sweep_wars_text():
    result = runner.invoke(app, ["war", "sweep", "--wars"])
    assert result.exit_code == 0, result.output
    assert "64,615.68" in result.stdout and "150,802.14" in result.stdout


def test_cli_lengths_json_and_plot(tmp_path):
    png = tmp_path / "lengths.png"
    result = runner.invoke(app, ["war", "lengths", "--games", "2000", "--ranks", "5", "--cap", "50",
                                 "--json", "--plot", str(png), "--backend", "cpu"])
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    assert info["games"] == 2000 == info["finished"] + info["capped"]
    assert info["a_wins"] + info["b_wins"] + info["ties"] == info["finished"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_lengths_text():
    result = runner.invoke(app, ["war", "lengths", "--games", "500", "--ranks", "4", "--suits", "2"])
    assert result.exit_code == 0, result.output
    assert "Median" in result.stdout and "capped" in result.stdout and "#" in result.stdout


@pytest.mark.parametrize("args", [
    ["sweep", "--ranks", "3", "--suits", "3"],
    ["sweep", "--suits", "0"],
    ["sweep", "--ranks", "-2"],
    ["sweep", "--wars", "--down", "-1"],
    ["lengths", "--games", "0"],
    ["lengths", "--games", "10", "--cap", "0"],
    ["lengths", "--games", "10", "--ranks", "13", "--suits", "40"],
    ["lengths", "--games", "10", "--seed", "-1"],
    ["lengths", "--games", "10", "--ranks", "5", "--suits", "1"],
])
def test_cli_bad_arguments_give_one_line_errors(args):
    result = runner.invoke(app, ["war", *args])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")


def test_cli_unwritable_plot_is_a_one_line_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = runner.invoke(app, ["war", "lengths", "--games", "10", "--plot", str(blocker / "x.png")])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: cannot write the plot") and result.stderr.count("\n") == 1
