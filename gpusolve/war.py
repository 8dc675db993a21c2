"""The card game War: exact probabilities of the shortest games, and simulated game lengths.

A deck has ``ranks`` ranks of ``suits`` cards each, dealt alternately to players A and B. Each
*play* both turn over their top card. Equal cards start a war: ``down`` face-down plays, then a
face-up play that settles it (or starts another war). The higher card takes all the played cards,
in random order, to the bottom of its owner's deck. A player with no cards loses (also in the
middle of a war); both out at once is a tie.

Exact part (after Norvig's "War"): the probability that A wins every one of the n/2 battles of a
game (a *sweep*), and that a game with wars allowed ends after exactly n/2 plays, by incremental
enumeration over *abstract decks*: the sorted counts of the cards left of each rank, zeros
dropped. The arithmetic is generic: floats, or ``fractions.Fraction`` for exact results.

Simulation part: game lengths from the kernels in ``kernels/war_game.py`` (one game per CPU
iteration or GPU thread, counter-based random numbers, so a game depends only on (seed, index)).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, permutations
from math import comb

from .core.errors import GpusolveError
from .kernels.war_game import A_WINS, B_WINS, CAPPED, DRAW_BITS, MAX_CAP, MAX_CARDS, TIE
from .search.plumbing import OnProgress, Progress

AbstractDeck = tuple[int, ...]
"""Sorted counts of the cards left of each rank, zeros dropped: a full 52-card deck is 13 fours."""

Number = float | Fraction


def make_deck(ranks: int = 13, suits: int = 4) -> list[int]:
    """Return a concrete deck: ranks 1..ranks, each repeated ``suits`` times."""
    check_deck_size(ranks, suits)
    return [r for r in range(1, ranks + 1) for _ in range(suits)]


def abstract_deck(ranks: int = 13, suits: int = 4) -> AbstractDeck:
    """Return the abstract deck of ``ranks`` ranks with ``suits`` cards each."""
    check_deck_size(ranks, suits)
    return (suits,) * ranks


def check_deck_size(ranks: int, suits: int) -> None:
    """Raise GpusolveError unless ranks and suits are positive and make an even deck."""
    for name, value in (("ranks", ranks), ("suits", suits)):
        if value < 1:
            raise GpusolveError(f"--{name} must be at least 1, not {value}")
    if ranks * suits % 2:
        raise GpusolveError(f"a deck of {ranks} ranks x {suits} suits has an odd number of cards "
                            f"({ranks * suits}); the two players need equal halves")


MAX_STATES = 1_000_000
"""The most abstract decks an exact computation may have to hold (a few minutes of work)."""


def check_size(deck: AbstractDeck) -> None:
    """Raise a one-line error when the exact computation over ``deck`` could hold too many decks."""
    bound = comb(len(deck) + max(deck), max(deck))  # sorted count tuples: at most this many
    if bound > MAX_STATES:
        raise GpusolveError(f"a deck of {len(deck)} ranks, up to {max(deck)} cards each, is too big for "
                            f"the exact computation (up to {_size(bound)} distinct decks, the limit is "
                            f"{MAX_STATES:,}); try fewer --ranks or --suits, or 'war lengths' to simulate")


def _size(n: int) -> str:
    """Return a count as '1,234' or, when long, '~10^602'."""
    return f"{n:,}" if n < 10**12 else f"~10^{len(str(n)) - 1}"


def check_counts(counts) -> AbstractDeck:
    """Return ``counts`` as an abstract deck (sorted, zeros dropped); raise on bad counts."""
    counts = tuple(counts)
    if any(int(c) != c or c < 0 for c in counts):
        raise GpusolveError(f"card counts must be whole numbers >= 0, not {counts}")
    deck = tuple(sorted(int(c) for c in counts if c))
    if not deck or sum(deck) % 2:
        raise GpusolveError(f"a deck needs an even, positive number of cards, not {sum(deck)}")
    return deck


def remove(deck: AbstractDeck, i: int, j: int) -> AbstractDeck:
    """Return ``deck`` less one card of the rank at index i and one at index j (i == j: two)."""
    counts = list(deck)
    counts[i] -= 1
    counts[j] -= 1
    return tuple(sorted(c for c in counts if c > 0))


def rank_pairs(deck: AbstractDeck) -> Iterator[tuple[int, int, int]]:
    """Yield (i, j, ways): indexes of two ranks (i == j for one rank) standing for all pairs of
    ranks with the same counts, and how many unordered pairs of cards that class holds."""
    first: dict[int, int] = {}
    for index, count in enumerate(deck):
        first.setdefault(count, index)
    many = Counter(deck)
    values = sorted(many)
    for c in values:
        i, m = first[c], many[c]
        if c >= 2:
            yield i, i, m * c * (c - 1) // 2
        if m >= 2:
            yield i, i + 1, m * (m - 1) // 2 * c * c
    for c, d in combinations(values, 2):
        yield first[c], first[d], many[c] * many[d] * c * d


def sweep_probability(deck: AbstractDeck, exact: bool = False, progress: OnProgress | None = None) -> Number:
    """Return the probability that player A wins all n/2 battles (no wars) of a game;
    ``progress`` hears of each battle."""
    deck = check_counts(deck)
    check_size(deck)
    P: dict[AbstractDeck, Number] = {deck: Fraction(1) if exact else 1.0}
    for i in range(sum(deck) // 2):
        P = play_battle(P)
        if progress:
            progress(Progress("battles", i + 1, sum(deck) // 2))
    return P.get((), Fraction(0) if exact else 0.0)


def play_battle(P: dict[AbstractDeck, Number]) -> dict[AbstractDeck, Number]:
    """Return the distribution of decks after one more battle, over the outcomes A wins."""
    P1: dict[AbstractDeck, Number] = Counter()
    for deck, p in P.items():
        n = sum(deck)
        for i, j, ways in rank_pairs(deck):
            if i != j:  # A's card is the higher one in half of the orders
                P1[remove(deck, i, j)] += p * ways / (n * (n - 1))
    return P1


@dataclass(frozen=True)
class ShortGames:
    """Probabilities that a game with wars allowed lasts exactly n/2 plays (deck of n cards).

    ``win``: A wins (A won at least one battle and B none; B is out); ``tie``: nobody won a
    battle, the whole game was one long war and both run out together. Norvig's counts, from
    states where B never won a battle: ``seed_win`` (last play left no war pending: includes
    games that end on the last face-down card, and one-long-war games) and ``seed_tie`` (ended
    mid-war: includes games where A had won a battle, so holds cards, and wins).
    """

    deck: AbstractDeck
    down: int
    win: Number
    tie: Number
    seed_win: Number
    seed_tie: Number

    def as_dict(self) -> dict:
        """Return the probabilities as floats in a plain dict."""
        return {"deck": list(self.deck), "down": self.down,
                **{k: float(getattr(self, k)) for k in ("win", "tie", "seed_win", "seed_tie")}}


State = tuple[int, bool, AbstractDeck]
"""(face-down plays still due in the current war, whether A has won a battle, abstract deck)."""


def short_games(deck: AbstractDeck, down: int = 3, exact: bool = False,
                progress: OnProgress | None = None) -> ShortGames:
    """Return the probabilities that a game with wars allowed ends after exactly n/2 plays;
    ``progress`` hears of each play."""
    deck = check_counts(deck)
    check_size(deck)
    if down < 0:
        raise GpusolveError(f"--down must be 0 or more face-down cards, not {down}")
    P: dict[State, Number] = {(0, False, deck): Fraction(1) if exact else 1.0}
    for i in range(sum(deck) // 2):
        P = play_battle_or_face_down(P, down)
        if progress:
            progress(Progress("plays", i + 1, sum(deck) // 2))
    zero = Fraction(0) if exact else 0.0
    mass = {flag: sum((p for (_, won, _), p in P.items() if won == flag), zero) for flag in (0, 1)}
    return ShortGames(
        deck, down, win=mass[1], tie=mass[0],
        seed_win=sum((p for (d, _, _), p in P.items() if d == 0), zero),
        seed_tie=sum((p for (d, _, _), p in P.items() if d > 0), zero),
    )


def play_battle_or_face_down(P: dict[State, Number], down: int) -> dict[State, Number]:
    """Return the distribution of states after one more play, over the outcomes B wins no battle."""
    P1: dict[State, Number] = Counter()
    for (due, won, deck), p in P.items():
        n = sum(deck)
        pairs = n * (n - 1) // 2
        for i, j, ways in rank_pairs(deck):
            rest = remove(deck, i, j)
            if due > 0:  # a face-down play of a war
                P1[due - 1, won, rest] += p * ways / pairs
            elif i == j:  # equal face-up cards start a war
                P1[down, won, rest] += p * ways / pairs
            else:  # A wins half of these battles
                P1[0, True, rest] += p * ways / (2 * pairs)
    return P1


def distinct_deals(deck: list[int]) -> Iterator[tuple[int, ...]]:
    """Yield every distinct ordering of ``deck`` once, in lexicographic order (each one is equally
    likely under a fair shuffle: it stands for the same number of permutations)."""
    cards = sorted(deck)
    if len(set(cards)) == len(cards):  # all distinct: plain permutations, faster
        yield from permutations(cards)
        return
    while True:
        yield tuple(cards)
        i = len(cards) - 2  # the next ordering: Narayana Pandita's algorithm
        while i >= 0 and cards[i] >= cards[i + 1]:
            i -= 1
        if i < 0:
            return
        j = len(cards) - 1
        while cards[j] <= cards[i]:
            j -= 1
        cards[i], cards[j] = cards[j], cards[i]
        cards[i + 1:] = reversed(cards[i + 1:])


def sweeps_by_permutations(ranks: int, suits: int) -> Fraction:
    """Return the sweep probability by dealing every ordering of the deck (slow oracle)."""
    deals = wins = 0
    for deal in distinct_deals(make_deck(ranks, suits)):
        deals += 1
        wins += all(deal[k] > deal[k + 1] for k in range(0, len(deal), 2))
    return Fraction(wins, deals)


def short_games_by_permutations(ranks: int, suits: int, down: int = 3) -> ShortGames:
    """Return ``short_games`` by playing n/2 plays of every ordering of the deck (slow oracle)."""
    counts: Counter = Counter()
    for deal in distinct_deals(make_deck(ranks, suits)):
        a_won = b_won = False
        due = 0
        for k in range(0, len(deal), 2):
            a, b = deal[k], deal[k + 1]
            if due > 0:
                due -= 1
            elif a == b:
                due = down
            else:
                a_won |= a > b
                b_won |= b > a
        counts["deals"] += 1
        if not b_won:  # only A's cards taken: B is out after n/2 plays
            counts["win" if a_won else "tie"] += 1
            counts["seed_tie" if due else "seed_win"] += 1
    share = {k: Fraction(counts[k], counts["deals"]) for k in ("win", "tie", "seed_win", "seed_tie")}
    return ShortGames(abstract_deck(ranks, suits), down, **share)


# --- Simulated game lengths ---------------------------------------------------------------------

DEFAULT_CAP = 100_000
"""Plays after which a game is stopped and counted as capped."""

BATCH = 1 << 20
"""Games per kernel launch; the statistics are gathered batch by batch."""

MAX_GAMES = 1 << (64 - DRAW_BITS)
"""Game indexes stay below this, so the random streams of games never overlap."""

_MASK = (1 << 64) - 1


def stream_key(seed: int) -> int:
    """Return the 64-bit key of a seed's random streams (SplitMix64's finalizer of the seed)."""
    z = seed & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def check_simulation(games: int, ranks: int, suits: int, down: int, cap: int, seed: int) -> None:
    """Raise GpusolveError unless the arguments describe a simulation the kernels can run."""
    check_deck_size(ranks, suits)
    if ranks * suits > MAX_CARDS:
        raise GpusolveError(f"the simulation handles decks of at most {MAX_CARDS} cards, "
                            f"not {ranks * suits}")
    if down < 0:
        raise GpusolveError(f"--down must be 0 or more face-down cards, not {down}")
    if not 1 <= games <= MAX_GAMES:
        raise GpusolveError(f"--games must be between 1 and {MAX_GAMES:,}, not {games}")
    if not 1 <= cap <= MAX_CAP:
        raise GpusolveError(f"--cap must be between 1 and {MAX_CAP:,} plays, not {cap}")
    if not 0 <= seed <= _MASK:
        raise GpusolveError(f"--seed must be between 0 and 2**64 - 1, not {seed}")


def play_games(first: int, count: int, ranks: int = 13, suits: int = 4, down: int = 3,
               cap: int = DEFAULT_CAP, seed: int = 0, backend: str | None = None):
    """Return (plays, outcome) arrays of games ``first .. first + count - 1`` of a seed.

    Outcomes are codes A_WINS, B_WINS, TIE and CAPPED (stopped after ``cap`` plays).
    """
    from .core.backend import get_backend

    check_simulation(first + count, ranks, suits, down, cap, seed)
    return get_backend(backend).war_games(stream_key(seed), first, count, ranks, suits, down, cap)


@dataclass(frozen=True)
class GameLengths:
    """Statistics of simulated games: outcome counts and the histogram of finished games' plays."""

    games: int
    ranks: int
    suits: int
    down: int
    cap: int
    seed: int
    backend: str
    seconds: float
    a_wins: int
    b_wins: int
    ties: int
    capped: int
    histogram: object  # int64 array: histogram[k] = finished games of k plays

    @property
    def finished(self) -> int:
        """Return the number of games that ended before the cap."""
        return self.games - self.capped

    def summary(self) -> dict:
        """Return mean, stdev, min, median, max and mode of the finished games' plays (None if none)."""
        import numpy as np

        h = np.asarray(self.histogram)
        n = int(h.sum())
        if n == 0:
            return dict.fromkeys(("mean", "stdev", "min", "median", "max", "mode"))
        plays = np.arange(len(h), dtype=np.float64)
        mean = float(h @ plays) / n
        stdev = float(np.sqrt(h @ (plays - mean) ** 2 / (n - 1))) if n > 1 else None
        cumulative = np.cumsum(h)
        low = int(np.searchsorted(cumulative, (n - 1) // 2 + 1))
        high = int(np.searchsorted(cumulative, n // 2 + 1))
        seen = np.flatnonzero(h)
        return {"mean": mean, "stdev": stdev, "min": int(seen[0]), "median": (low + high) / 2,
                "max": int(seen[-1]), "mode": int(np.argmax(h))}

    def bins(self, count: int = 20) -> list[tuple[int, int, int]]:
        """Return up to ``count`` equal-width bins (first play, last play, games) from min to max."""
        import numpy as np

        h = np.asarray(self.histogram)
        seen = np.flatnonzero(h)
        if not len(seen):
            return []
        lo, hi = int(seen[0]), int(seen[-1])
        width = -(-(hi - lo + 1) // count)
        return [(start, min(hi, start + width - 1), int(h[start:start + width].sum()))
                for start in range(lo, hi + 1, width)]

    def as_dict(self) -> dict:
        """Return the statistics and a 20-bin histogram as a plain dict."""
        return {
            "games": self.games, "ranks": self.ranks, "suits": self.suits, "down": self.down,
            "cap": self.cap, "seed": self.seed, "backend": self.backend,
            "seconds": round(self.seconds, 3), "finished": self.finished, "a_wins": self.a_wins,
            "b_wins": self.b_wins, "ties": self.ties, "capped": self.capped, **self.summary(),
            "histogram": [{"from": lo, "to": hi, "games": g} for lo, hi, g in self.bins()],
        }


def game_lengths(games: int, ranks: int = 13, suits: int = 4, down: int = 3, cap: int = DEFAULT_CAP,
                 seed: int = 0, backend: str | None = None, progress: OnProgress | None = None
                 ) -> GameLengths:
    """Return the statistics of ``games`` simulated games of War (games 0..games-1 of ``seed``);
    ``progress`` hears of each batch."""
    import time

    import numpy as np

    from .core.backend import get_backend
    check_simulation(games, ranks, suits, down, cap, seed)
    engine = get_backend(backend)
    key = stream_key(seed)
    histogram = np.zeros(cap + 1, np.int64)
    outcomes = np.zeros(4, np.int64)
    start = time.perf_counter()
    for first in range(0, games, BATCH):
        plays, outcome = engine.war_games(key, first, min(BATCH, games - first), ranks, suits, down, cap)
        outcomes += np.bincount(outcome, minlength=4)
        histogram += np.bincount(plays[outcome != CAPPED], minlength=cap + 1)
        if progress:
            progress(Progress("games", min(games, first + BATCH), games))
    return GameLengths(
        games, ranks, suits, down, cap, seed, engine.name, time.perf_counter() - start,
        a_wins=int(outcomes[A_WINS]), b_wins=int(outcomes[B_WINS]), ties=int(outcomes[TIE]),
        capped=int(outcomes[CAPPED]), histogram=histogram,
    )


def plot_lengths(lengths: GameLengths, path) -> None:
    """Write a PNG histogram (75 bins, as in the seed) of the finished games' plays to ``path``."""
    from matplotlib.figure import Figure  # no pyplot: leaves the caller's backend alone

    from .core.outputs import write_output

    fig = Figure(figsize=(8, 4.5))
    ax = fig.subplots()
    edges = [(lo, hi + 1, g) for lo, hi, g in lengths.bins(75)]
    ax.bar([lo for lo, _, _ in edges], [g for _, _, g in edges],
           width=[hi - lo for lo, hi, _ in edges], align="edge")
    ax.set_xlabel("Game length (plays)")
    ax.set_ylabel("Games")
    ax.set_title(f"{lengths.finished:,} games of War, {lengths.ranks * lengths.suits} cards")
    write_output(path, lambda f: fig.savefig(f, format="png", dpi=100), "plot")
