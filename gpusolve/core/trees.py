"""Guess trees: the in-memory form, scores per answer, summary statistics and their reports.

A tree is either a leaf word (the one remaining answer, guessed next) or a ``Node``: a guess,
the number of answers it covers, and a subtree per reply code. The solved reply of a node
whose guess is a possible answer maps to that same word. Tree files (JSON, the published text
layout, the explorer page) are read and written by ``gpusolve.core.treefiles``.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .errors import GpusolveError
from .games import Game
from .outputs import write_output
from .words import Word


@dataclass
class Node:
    """An interior node: the guess to make, how many answers remain, a subtree per reply."""

    guess: Word
    size: int
    branches: dict[int, Tree] = field(default_factory=dict)


Tree = Node | Word


def scores(tree: Tree, depth: int = 1) -> Iterator[tuple[Word, int]]:
    """Yield (answer, guesses needed) for every answer in the tree."""
    if isinstance(tree, str):
        yield tree, depth
        return
    for subtree in tree.branches.values():
        if isinstance(subtree, str):
            yield subtree, depth if subtree == tree.guess else depth + 1
        else:
            yield from scores(subtree, depth + 1)


@dataclass(frozen=True)
class Summary:
    """Statistics of the guesses needed over all answers of a tree."""

    first_guess: Word
    total: int
    n: int
    mean: float
    median: float
    stdev: float
    worst: int
    best: int
    histogram: dict[int, int]

    def as_dict(self) -> dict:
        """Return the summary as the documented JSON object."""
        return {
            "first_guess": self.first_guess,
            "mean": round(self.mean, 4),
            "median": self.median,
            "stdev": round(self.stdev, 4),
            "worst": self.worst,
            "best": self.best,
            "total": self.total,
            "histogram": {str(k): v for k, v in sorted(self.histogram.items())},
        }

    def over(self, limit: int) -> int:
        """Return how many answers need more than ``limit`` guesses."""
        return sum(v for k, v in self.histogram.items() if k > limit)

    def cumulative(self, upto: int = 10) -> str:
        """Return cumulative percentages, e.g. '≤2:5%, ≤3:43%, ...' as in the seeds."""
        parts = []
        for g in range(2, upto + 1):
            pct = 100 * sum(v for k, v in self.histogram.items() if k <= g) / self.n
            parts.append(f"≤{g}:{pct:.{1 if 99 < pct < 100 else 0}f}%")
        return ", ".join(parts)


def summarize(tree: Tree) -> Summary:
    """Return the statistics of a tree's scores."""
    first = tree if isinstance(tree, str) else tree.guess
    return summary_of(first, Counter(n for _, n in scores(tree)))


def summary_of(first_guess: Word, histogram: dict[int, int] | Sequence[int]) -> Summary:
    """Return the statistics of scores given as {guesses: answers} (or a list indexed by guesses)."""
    if not isinstance(histogram, dict):
        histogram = dict(enumerate(int(v) for v in histogram))
    histogram = {int(k): int(v) for k, v in sorted(histogram.items()) if v}
    if not histogram:
        raise GpusolveError("no scores to summarize")
    counts = [k for k, v in histogram.items() for _ in range(v)]
    return Summary(
        first_guess=first_guess,
        total=sum(counts),
        n=len(counts),
        mean=statistics.mean(counts),
        median=statistics.median(counts),
        stdev=statistics.stdev(counts) if len(counts) > 1 else 0.0,
        worst=max(counts),
        best=min(counts),
        histogram=histogram,
    )


def report_lines(summary: Summary, limit: int = 6, upto: int = 10) -> list[str]:
    """Return the seeds' report: median, mean ± stdev, worst, best; cumulative %; over ``limit``."""
    s = summary
    over = s.over(limit)
    return [
        f"median: {s.median:.0f} guesses, mean: {s.mean:.2f} ± {s.stdev:.2f}, worst: {s.worst}, "
        f"best: {s.best}",
        f"cumulative: {s.cumulative(upto)}",
        f"{over:,} of {s.n:,} answers ({100 * over / s.n:.2f}%) need more than {limit} guesses",
    ]


def histogram_lines(summary: Summary, width: int = 40) -> list[str]:
    """Return a text histogram: one line per number of guesses, with count, percent and bar."""
    top = max(summary.histogram.values())
    lines = []
    for k in range(summary.best, summary.worst + 1):
        v = summary.histogram.get(k, 0)
        bar = "█" * (round(width * v / top) if v else 0)
        lines.append(f"{k:>3} {v:>7,} {100 * v / summary.n:6.2f}% {bar}")
    return lines


def plot_histogram(summary: Summary, path: str | Path, title: str = "") -> None:
    """Write a PNG bar chart of the percentage of answers per number of guesses to ``path``."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    ks = list(range(1, summary.worst + 1))
    pct = [100 * summary.histogram.get(k, 0) / summary.n for k in ks]
    fig = Figure(figsize=(6, 4))
    ax = fig.subplots()
    ax.bar(ks, pct, width=0.9)
    ax.set_xticks(ks)
    ax.set_xlabel("Number of guesses")
    ax.set_ylabel("% of answers")
    ax.set_title(title or f"first guess {summary.first_guess}: mean {summary.mean:.3f}")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    write_output(path, buffer.getvalue(), "plot")


def render(tree: Tree, game: Game, depth: int | None = None) -> str:
    """Return the tree as indented text: 'reply GUESS size' per node, 'reply WORD' per leaf.

    ``depth`` limits how many levels of branches are shown (1: the root's replies only).
    """
    lines: list[str] = []

    def walk(reply: int | None, t: Tree, indent: str, level: int) -> None:
        head = indent if reply is None else f"{indent}{game.format_reply(reply)} "
        if isinstance(t, str):
            lines.append(f"{head}{t}")
            return
        lines.append(f"{head}{t.guess} {t.size}")
        if depth is not None and level > depth:
            return
        for r, sub in t.branches.items():
            walk(r, sub, indent + "  ", level + 1)

    walk(None, tree, "", 1)
    return "\n".join(lines)
