"""Guess trees: the in-memory form, scores per answer, summary statistics, and the tree files
(JSON; the published text layout, ``treetext``; the explorer page, ``gpusolve.view``).

A tree is either a leaf word (the one remaining answer, guessed next) or a ``Node``: a guess,
the number of answers it covers, and a subtree per reply code. The solved reply of a node
whose guess is a possible answer maps to that same word.

JSON schema ``gpusolve-tree/1`` (other formats: ``docs/trees.md``)::

    {"schema": "gpusolve-tree/1", "game": "wordle", "length": 5, "colours": 6,
     "mode": "normal", "guesses": "allowed", "answers": "answers", "max_guesses": 6,
     "root": NODE}
    NODE = {"guess": "SALET", "size": 2315, "branches": {".....": NODE | "WORD", ...}}

The code games add the options they were played with where not the defaults (``"repeats":
false`` for Mastermind without repeated colours, ``"black_only": true``; ``Game.options``).
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .errors import GpusolveError
from .games import GAME_OPTIONS, Game, make_game
from .outputs import write_output
from .words import Word, refuse_device

SCHEMA = "gpusolve-tree/1"
MAX_DEPTH = 100
"""The deepest tree read from a file (a tree over n answers never needs more than n guesses;
every published strategy needs fewer than 20)."""


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


def to_json(tree: Tree, game: Game, **info: object) -> dict:
    """Return the JSON document of a tree; ``info`` adds mode, list names, max_guesses..."""

    def node(t: Tree) -> object:
        if isinstance(t, str):
            return t
        return {
            "guess": t.guess,
            "size": t.size,
            "branches": {game.format_reply(r): node(s) for r, s in t.branches.items()},
        }

    return {"schema": SCHEMA, "game": game.name, "length": game.length,
            "colours": game.colours, **game.options(), **info, "root": node(tree)}


def from_json(doc: dict) -> tuple[Tree, Game, dict]:
    """Return (tree, game, info) from a JSON document, or raise a one-line error; ``info`` holds
    the document's other fields (mode, list names, max_guesses...), as ``to_json`` takes them."""
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise GpusolveError(f"not a gpusolve tree: expected schema {SCHEMA!r}")
    try:
        options = {key: doc[key] for key in GAME_OPTIONS if key in doc}
        if not all(isinstance(v, bool) for v in options.values()):
            raise TypeError
        game = make_game(doc.get("game", "wordle"), doc.get("length"), doc.get("colours"), **options)
    except (TypeError, ValueError):
        raise GpusolveError("malformed tree file: bad game, length, colours or game options") from None

    def node(t: object, depth: int) -> Tree:
        if depth > MAX_DEPTH:
            raise GpusolveError(f"malformed tree file: nested more than {MAX_DEPTH} guesses deep")
        if isinstance(t, str):
            return t.upper()
        if (not isinstance(t, dict) or not isinstance(t.get("branches"), dict)
                or not isinstance(t.get("guess"), str) or not isinstance(t.get("size", 0), int)):
            raise GpusolveError(f"malformed tree node: {str(t)[:60]}")
        return Node(t["guess"].upper(), t.get("size", 0),
                    {game.parse_reply(str(r)): node(s, depth + 1) for r, s in t["branches"].items()})

    info = {k: v for k, v in doc.items() if k not in ("schema", "root", "game", "length", "colours",
                                                      *GAME_OPTIONS)}
    for key, kind in (("guesses", str), ("answers", str), ("mode", str), ("max_guesses", int)):
        value = info.get(key)
        if value is not None and (not isinstance(value, kind) or isinstance(value, bool)
                                  or (kind is int and value < 1)):
            raise GpusolveError(f"malformed tree file: bad {key!r}: {str(value)[:40]}")
    return node(doc.get("root"), 1), game, info


FORMATS = ("json", "text", "text-full", "html")
"""Tree file formats: gpusolve-tree/1 JSON; the published text layout, hollow or full; the explorer page."""
_BY_SUFFIX = {".tree": "text", ".txt": "text", ".html": "html", ".htm": "html"}


def tree_format(path: str | Path, fmt: str | None = None, game: Game | None = None,
                moves: Sequence = ()) -> str:
    """Return the format to write ``path`` in (``fmt``, else by its suffix: .tree/.txt text,
    .html html, else json), or raise a one-line error if the tree cannot be written so."""
    fmt = fmt or _BY_SUFFIX.get(Path(path).suffix.lower(), "json")
    if fmt not in FORMATS:
        raise GpusolveError(f"unknown tree format {fmt!r}: choose one of {', '.join(FORMATS)}")
    if fmt.startswith("text"):
        from .treetext import check_text_game

        if game is not None:
            check_text_game(game)
        if moves:
            raise GpusolveError("the text tree format holds whole games only: this tree starts after "
                                f"{len(moves)} moves (write it as JSON or HTML)")
    return fmt


def dump_tree(tree: Tree, game: Game, fmt: str = "json", **info: object) -> str:
    """Return the tree file's text in ``fmt`` (one of ``FORMATS``)."""
    if fmt == "html":
        from ..view.html import tree_page

        return tree_page(to_json(tree, game, **info))
    if fmt.startswith("text"):
        from .treetext import to_text

        return to_text(tree, game, "full" if fmt == "text-full" else "hollow")
    return json.dumps(to_json(tree, game, **info)) + "\n"


def save_tree(path: str | Path, tree: Tree, game: Game, fmt: str | None = None, **info: object) -> None:
    """Write a tree to ``path`` atomically, in ``fmt`` (default: by the suffix, see ``tree_format``)."""
    fmt = tree_format(path, fmt, game, info.get("moves") or ())  # type: ignore[arg-type]
    write_output(path, dump_tree(tree, game, fmt, **info).encode(), "tree")


def load_tree(path: str | Path) -> tuple[Tree, Game, dict]:
    """Return (tree, game, info) read from a JSON file, a text-layout tree or an explorer page
    (told apart by their content), or raise a one-line error. A text tree carries no info: its
    game is Wordle."""
    refuse_device(path, "tree file")
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise GpusolveError(f"tree file {path} does not exist") from None
    except IsADirectoryError:
        raise GpusolveError(f"tree file {path} is a folder") from None
    except UnicodeDecodeError:
        raise GpusolveError(f"tree file {path} is not a text file (not UTF-8)") from None
    except OSError as e:
        raise GpusolveError(f"cannot read tree file {path}: {str(e).splitlines()[0]}") from None
    start = text.lstrip()[:1]
    if start == "<":
        from ..view.html import page_tree

        return from_json(page_tree(text, str(path)))
    if start not in ("{", "["):
        from .treetext import from_text

        tree, game = from_text(text, str(path))
        return tree, game, {}
    try:
        doc = json.loads(text)
    except RecursionError:
        raise GpusolveError(f"malformed tree file {path}: nested too deeply") from None
    except ValueError as e:
        raise GpusolveError(f"cannot read tree file {path}: {str(e).splitlines()[0]}") from None
    return from_json(doc)
