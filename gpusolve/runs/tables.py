"""Tables of exact start-word totals, the product of a complete ranking (``optimal-tree --rank
--candidates all``): written with their provenance, read back (also the anchor's published
``results_*`` files) and compared.

Layouts (every one sorted as the anchor's: by total, then word; start words that cannot find
every answer last):

* ``csv``: ``# key: value`` provenance lines (values as JSON), then the header
  ``rank,word,total,mean,worst,settled,seconds`` and a row per start word;
* ``anchor``: alex1770/wordle's results layout, ``word mean total`` (lower case, the mean to 4
  places; a start word that cannot find every answer: ``word Infinity 1000000000``), so that
  ``diff`` against a published file works line by line; the provenance goes in a sidecar
  ``FILE.json``;
* ``json``: ``{"provenance": ..., "results": [...]}``, each row with its histogram.

A table may be partial (a run not finished, or stopped): it holds the finished start words only,
and its provenance says how many are missing (``complete: false``).
"""

from __future__ import annotations

import csv
import datetime
import functools
import io
import json
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import GpusolveError
from ..core.outputs import check_output, layout_by_suffix, write_output
from ..core.words import Word, read_text_file
from .units import list_hash

SETTLED = {
    "exact": "the least total, proven",
    "bound": "proven to need the total shown (the cutoff) or more",
    "impossible": "no strategy finds every answer within the guess limit",
}
"""How a start word's line was settled, as the tables name it."""

ANCHOR_INFINITY = 1_000_000_000
"""The anchor's total of a start word that cannot find every answer (its ``infinity``)."""

LAYOUTS = ("csv", "anchor", "json")
SUFFIXES = {".csv": "csv", ".txt": "anchor", ".json": "json"}
"""Layouts chosen by the file name's suffix (any other suffix is refused, unless the layout is named)."""

WRITE_EVERY = 60.0
"""Seconds between two writes of a running ranking's table (also written when it stops or ends)."""

ORDER = "by total, then word; start words that cannot find every answer last"
HASH = ("sha256 of the words (upper case, one a line, no final newline), first 16 hex digits, as run "
        "stores record")
CSV_FIELDS = ("rank", "word", "total", "mean", "worst", "settled", "seconds")


@dataclass(frozen=True)
class Entry:
    """One start word's line: its total (None: impossible), how it was settled, the most guesses
    it needs (exact lines), the seconds its search took, and its histogram where known."""

    word: Word
    total: int | None
    settled: str
    worst: int | None = None
    seconds: float | None = None
    histogram: dict | None = None

    def key(self) -> tuple:
        """Return the sort key: impossible last, then by total, bounds after exact, then word."""
        return (self.total is None, self.total or 0, self.settled == "bound", self.word)


@dataclass
class Table:
    """A table of start words (sorted) with its provenance (what, by which lists, mode, version)."""

    entries: list[Entry]
    provenance: dict = field(default_factory=dict)
    path: Path | None = None

    @property
    def n_answers(self) -> int | None:
        """Return the number of answers the totals are over, where the provenance says."""
        answers = self.provenance.get("answers")
        return answers.get("words") if isinstance(answers, dict) else None

    def ranks(self) -> dict[Word, int]:
        """Return each word's rank: 1 + the lines before it with a smaller total (ties share a rank)."""
        out: dict[Word, int] = {}
        previous, rank = None, 0
        for i, e in enumerate(self.entries, 1):
            if (e.total, e.settled) != previous:
                previous, rank = (e.total, e.settled), i
            out[e.word] = rank
        return out


def entry_of(word: Word, result: dict, seconds: float | None = None) -> Entry:
    """Return the line of a start word from its ranking result (a run store's ``value`` or a
    row's ``total``, with ``exact``)."""
    total = result.get("value", result.get("total"))
    settled = "impossible" if total is None else "exact" if result.get("exact", True) else "bound"
    return Entry(word, None if total is None else int(total), settled, result.get("worst"), seconds,
                 result.get("histogram"))


def sorted_entries(entries: Iterable[Entry]) -> list[Entry]:
    """Return the lines in the tables' order (``ORDER``)."""
    return sorted(entries, key=Entry.key)


# --- provenance -------------------------------------------------------------------------------

def start_words(params: dict) -> int:
    """Return how many start words a game has in a run's mode: every guess, in consistent mode
    every answer."""
    return int(params["n_answers"] if params.get("mode") == "consistent" else params["n_guesses"])


@functools.cache
def _bundled_hashes() -> dict[str, str]:
    """Return the bundled Wordle lists by content hash."""
    from string import ascii_uppercase

    from ..core.words import BUNDLED, read_words

    return {list_hash(read_words(name, ascii_uppercase)): name for name in BUNDLED}


def list_names(params: dict) -> tuple[str | None, str | None, str | None]:
    """Return the bundled lists a run's word lists are (by content; None: another list) and the
    era they make, for Wordle."""
    from ..core.eras import ERAS

    if params.get("game") != "wordle" or params.get("length", 5) != 5:
        return None, None, None
    known = _bundled_hashes()
    guesses, answers = known.get(str(params["guesses_hash"])), known.get(str(params["answers_hash"]))
    era = next((name for name, e in ERAS.items() if (e.guesses, e.answers) == (guesses, answers)), None)
    return guesses, answers, era


def _when(unix: float | None) -> str | None:
    """Return a Unix time as an ISO date and time in UTC (to the second)."""
    if unix is None:
        return None
    return datetime.datetime.fromtimestamp(unix, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def provenance(params: dict, entries: list[Entry], finished: Iterable[float | None], *,
               labels: dict | None = None, asked: int | None = None, run_dir: Path | None = None) -> dict:
    """Return a table's provenance: the run's parameters (``params``: a ranking job's, as its run
    store keeps them), the program that wrote it and how it was called (``labels``: gpusolve,
    commit, command, backend, guesses and answers as named), and how complete it is."""
    labels = labels or {}
    bundled_g, bundled_a, era = list_names(params)
    total = start_words(params)
    settled = {name: sum(e.settled == name for e in entries) for name in SETTLED}
    times = [t for t in finished if t is not None]
    return {
        "table": "exact start-word totals (gpusolve optimal-tree --rank)",
        "gpusolve": labels.get("gpusolve"),
        "commit": labels.get("commit"),
        "command": labels.get("command"),
        "game": params.get("game"),
        "mode": params.get("mode"),
        "max_guesses": params.get("max_guesses"),
        "cutoff": params.get("cutoff"),
        "lists": era,
        "guesses": {"name": labels.get("guesses") or bundled_g, "words": params.get("n_guesses"),
                    "hash": params.get("guesses_hash")},
        "answers": {"name": labels.get("answers") or bundled_a, "words": params.get("n_answers"),
                    "hash": params.get("answers_hash")},
        "hash": HASH,
        "backend": labels.get("backend"),
        "start_words": total,
        "asked": asked,
        "finished": len(entries),
        "missing": total - len(entries),
        "complete": len(entries) == total,
        "settled": settled,
        "seconds": round(sum(e.seconds or 0.0 for e in entries), 3),
        "first_finished": _when(min(times, default=None)),
        "last_finished": _when(max(times, default=None)),
        "written": _when(time.time()),
        "run_dir": str(Path(run_dir).resolve()) if run_dir else None,
        "order": ORDER,
    }


def table_of(params: dict, results: dict[Word, dict], timings: dict[Word, tuple[float | None, float | None]],
             words: Iterable[Word] | None = None, *, labels: dict | None = None, asked: int | None = None,
             run_dir: Path | None = None) -> Table:
    """Return the table of the finished ``words`` (default: every finished one) of a ranking run:
    ``results`` and ``timings`` (seconds, finish time) as its run store keeps them; the other
    arguments as ``provenance`` takes them."""
    chosen = results.keys() if words is None else [w for w in words if w in results]
    entries = sorted_entries(entry_of(w, results[w], timings.get(w, (None, None))[0]) for w in chosen)
    finished = [timings.get(e.word, (None, None))[1] for e in entries]
    return Table(entries, provenance(params, entries, finished, labels=labels, asked=asked, run_dir=run_dir))


def missing_text(table: Table) -> str:
    """Return how complete a table is in a few words: 'complete' or 'N of M; K missing'."""
    p = table.provenance
    if p.get("complete"):
        return f"complete: {len(table.entries):,} start words"
    return (f"partial: {len(table.entries):,} of {p.get('start_words', 0):,} start words, "
            f"{p.get('missing', 0):,} missing")


# --- writing ----------------------------------------------------------------------------------

def layout_of(path: str | Path, chosen: str | None = None, option: str = "--output-format") -> str:
    """Return the layout to write ``path`` in: ``chosen``, else by its suffix (``SUFFIXES``; another
    is refused, naming the layouts and ``option``, which chooses one)."""
    if chosen is not None:
        if chosen not in LAYOUTS:
            raise GpusolveError(f"unknown table layout {chosen!r}: choose {', '.join(LAYOUTS)}")
        return chosen
    return layout_by_suffix(path, SUFFIXES, option)


def sidecar(path: str | Path) -> Path:
    """Return the file holding the provenance of a table in the anchor's layout: ``FILE.json``."""
    path = Path(path)
    return path.with_name(path.name + ".json")


def outputs(path: str | Path, layout: str) -> list[Path]:
    """Return the files a table in ``layout`` is written to (the anchor's: the table and its sidecar)."""
    return [Path(path), sidecar(path)] if layout == "anchor" else [Path(path)]


def _mean(e: Entry, n_answers: int | None, places: int) -> str:
    return "" if e.total is None or not n_answers else f"{e.total / n_answers:.{places}f}"


def csv_text(table: Table) -> str:
    """Return a table as CSV: its provenance as ``# key: value`` lines, then the rows."""
    out = io.StringIO()
    for key, value in table.provenance.items():
        out.write(f"# {key}: {json.dumps(value)}\n")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    ranks = table.ranks()
    for e in table.entries:
        writer.writerow([ranks[e.word], e.word, "" if e.total is None else e.total,
                         _mean(e, table.n_answers, 6), "" if e.worst is None else e.worst, e.settled,
                         "" if e.seconds is None else f"{e.seconds:.3f}"])
    return out.getvalue()


def anchor_text(table: Table) -> str:
    """Return a table in the anchor's results layout (``word mean total``, lower case)."""
    bounds = [e.word for e in table.entries if e.settled == "bound"]
    if bounds:
        raise GpusolveError(f"the anchor's layout holds exact totals only, and {len(bounds):,} start "
                            f"words are only proven >= the cutoff ({', '.join(bounds[:3])}...): write .csv "
                            "or .json")
    if not table.n_answers:
        raise GpusolveError("the anchor's layout needs the number of answers (for the mean)")
    lines = []
    for e in table.entries:
        if e.total is None:
            lines.append(f"{e.word.lower()} Infinity {ANCHOR_INFINITY}")
        else:
            lines.append(f"{e.word.lower()} {_mean(e, table.n_answers, 4)} {e.total}")
    return "".join(line + "\n" for line in lines)


def json_text(table: Table) -> str:
    """Return a table as JSON: its provenance and its rows (with histograms)."""
    ranks = table.ranks()
    rows = [{"rank": ranks[e.word], "word": e.word, "total": e.total,
             "mean": None if e.total is None or not table.n_answers else round(e.total / table.n_answers, 6),
             "worst": e.worst, "settled": e.settled, "exact": e.settled != "bound", "seconds":
             None if e.seconds is None else round(e.seconds, 3), "histogram": e.histogram}
            for e in table.entries]
    return json.dumps({"provenance": table.provenance, "results": rows}, indent=1) + "\n"


def write_table(table: Table, path: str | Path, layout: str) -> list[Path]:
    """Write a table (atomically) in ``layout``; return the files written."""
    if layout == "anchor":
        text = anchor_text(table)
        about = json.dumps(table.provenance, indent=1) + "\n"
        write_output(sidecar(path), about.encode(), "table's provenance")
    else:
        text = csv_text(table) if layout == "csv" else json_text(table)
    write_output(path, text.encode(), "table")
    return outputs(path, layout)


@dataclass
class TableOutput:
    """Where a ranking writes its table as it goes (every ``every`` seconds), when it stops and
    when it ends: the file, its layout, and the labels of its provenance (``provenance``)."""

    path: Path
    layout: str
    labels: dict = field(default_factory=dict)
    every: float = WRITE_EVERY
    last: float = field(default=0.0, init=False)

    def check(self, cutoff: int | None) -> None:
        """Check, before any work, that the table can be written: its files, and a layout that can
        hold what the run proves."""
        if self.layout == "anchor" and cutoff is not None:
            raise GpusolveError("the anchor's layout holds exact totals only, not '>= cutoff' bounds: "
                                "drop --cutoff or write the table as .csv or .json")
        for file in outputs(self.path, self.layout):
            check_output(file, "table")

    def due(self) -> bool:
        """Return whether the table should be written again now (a running ranking's)."""
        return time.monotonic() - self.last >= self.every

    def write(self, table: Table) -> list[Path]:
        """Write the table; return the files written."""
        self.last = time.monotonic()
        return write_table(table, self.path, self.layout)


# --- reading ----------------------------------------------------------------------------------

def read_table(path: str | Path) -> Table:
    """Return a table read from a file in any layout: JSON, CSV (ours, or any with ``word`` and
    ``total`` columns) or the anchor's ``word mean total`` lines (with its sidecar's provenance)."""
    path = Path(path)
    text = read_text_file(path, "table")
    body = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    if text.lstrip().startswith("{"):
        table = _read_json(path, text)
    elif body and "," in body[0]:
        table = _read_csv(path, text)
    else:
        table = _read_anchor(path, text)
    if not table.entries:
        raise GpusolveError(f"table {path} has no table lines: no start word's total to compare")
    table.path = path
    table.entries = sorted_entries(table.entries)
    twice = sorted(w for w, n in Counter(e.word for e in table.entries).items() if n > 1)
    if twice:
        raise GpusolveError(f"table {path} has {len(twice)} words more than once ({', '.join(twice[:3])})")
    return table


def _read_json(path: Path, text: str) -> Table:
    try:
        doc = json.loads(text)
        rows = doc["results"]
        entries = [entry_of(str(r["word"]).upper(), r, r.get("seconds")) for r in rows]
    except (ValueError, KeyError, TypeError, AttributeError):
        raise GpusolveError(f"table {path} is JSON but not a ranking (a 'results' list of rows with "
                            "'word' and 'total')") from None
    return Table(entries, doc.get("provenance") or {})


def _read_csv(path: Path, text: str) -> Table:
    lines = text.splitlines()
    provenance = {}
    for line in lines:
        if line.startswith("# ") and ": " in line:
            key, _, value = line[2:].partition(": ")
            try:
                provenance[key] = json.loads(value)
            except ValueError:
                provenance[key] = value
    reader = csv.DictReader(line for line in lines if line.strip() and not line.startswith("#"))
    if not {"word", "total"} <= set(reader.fieldnames or ()):
        raise GpusolveError(f"table {path} is CSV without 'word' and 'total' columns "
                            f"(it has {', '.join(reader.fieldnames or ()) or 'none'})")
    entries = []
    for n, row in enumerate(reader, 2):
        try:
            entries.append(_csv_entry(row))
        except ValueError:
            raise GpusolveError(f"table {path}, row {n}: not a start word's line: {row}") from None
    return Table(entries, provenance)


def _csv_entry(row: dict) -> Entry:
    """Return the line of a CSV row (ours: ``settled``; a ranking's older CSV: ``exact``)."""
    word, total = row["word"].strip().upper(), (row["total"] or "").strip()
    if not word:
        raise ValueError
    settled = (row.get("settled") or "").strip()
    if not settled:
        bound = row.get("exact") in ("False", "false")
        settled = "impossible" if not total else "bound" if bound else "exact"
    if settled not in SETTLED:
        raise ValueError
    worst, seconds = (row.get("worst") or "").strip(), (row.get("seconds") or "").strip()
    return Entry(word, None if settled == "impossible" else int(total), settled,
                 int(worst) if worst else None, float(seconds) if seconds else None)


def _read_anchor(path: Path, text: str) -> Table:
    entries = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        fields = line.split()
        try:
            if len(fields) != 3:
                raise ValueError
            word, _, total = fields[0].upper(), float(fields[1]), int(fields[2])
        except ValueError:
            raise GpusolveError(f"table {path}, line {n}: not a table line (word mean total, or a CSV or "
                                f"JSON table): {line.strip()[:60]!r}") from None
        impossible = total >= ANCHOR_INFINITY
        entries.append(Entry(word, None if impossible else total, "impossible" if impossible else "exact"))
    provenance = {}
    if sidecar(path).is_file():
        try:
            provenance = json.loads(sidecar(path).read_text())
        except (OSError, ValueError):
            raise GpusolveError(f"the provenance {sidecar(path)} of table {path} is not JSON") from None
    return Table(entries, provenance if isinstance(provenance, dict) else {})


# --- comparing --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Difference:
    """A start word whose lines differ in two tables."""

    word: Word
    a: Entry
    b: Entry

    @property
    def consistent(self) -> bool:
        """Return whether both lines may be true: one is a bound ('>= T') the other meets."""
        a, b = self.a, self.b
        if "bound" not in (a.settled, b.settled):
            return False
        if a.settled == b.settled == "bound":
            return True
        bound, other = (a, b) if a.settled == "bound" else (b, a)
        return other.total is None or (bound.total is not None and other.total >= bound.total)

    def as_dict(self) -> dict:
        """Return the difference as JSON."""
        return {"word": self.word, "a": {"total": self.a.total, "settled": self.a.settled},
                "b": {"total": self.b.total, "settled": self.b.settled}, "consistent": self.consistent}


@dataclass
class Comparison:
    """Every difference between tables A and B: words in one only, lines that differ, and how the
    ranks of the words in both moved (``shared_only``: words in one only are no difference)."""

    a: Table
    b: Table
    only_a: list[Word]
    only_b: list[Word]
    differ: list[Difference]
    moved: list[tuple[Word, int, int]]
    """(word, rank in A, rank in B) of the shared words whose rank differs, largest moves first."""
    same_order: int
    """How many lines the two tables' shared words start with in the same order."""
    shared_only: bool = False

    @property
    def shared(self) -> int:
        """Return how many words both tables hold."""
        return len(self.a.entries) - len(self.only_a)

    @property
    def identical(self) -> bool:
        """Return whether the tables agree: the same lines (only the shared words' with ``shared_only``)."""
        return not self.differ and (self.shared_only or not (self.only_a or self.only_b))

    def as_dict(self, largest: int = 20) -> dict:
        """Return the comparison as JSON (every difference; the ``largest`` rank moves)."""
        def side(t: Table) -> dict:
            return {"path": str(t.path), "words": len(t.entries), "complete": t.provenance.get("complete"),
                    "mode": t.provenance.get("mode"), "lists": t.provenance.get("lists")}

        return {"a": side(self.a), "b": side(self.b), "identical": self.identical, "shared": self.shared,
                "shared_only": self.shared_only, "only_a": self.only_a, "only_b": self.only_b,
                "differ": [d.as_dict() for d in self.differ],
                "contradictions": sum(not d.consistent for d in self.differ),
                "ranks": {"moved": len(self.moved), "same_order": self.same_order,
                          "largest": [{"word": w, "a": ra, "b": rb} for w, ra, rb in self.moved[:largest]]}}


def compare_tables(a: Table, b: Table, shared_only: bool = False) -> Comparison:
    """Return every difference between tables ``a`` and ``b`` (``shared_only``: of the words both
    hold; ranks are then among those words)."""
    lines_a = {e.word: e for e in a.entries}
    lines_b = {e.word: e for e in b.entries}
    only_a = [e.word for e in a.entries if e.word not in lines_b]
    only_b = [e.word for e in b.entries if e.word not in lines_a]
    differ = [Difference(e.word, e, lines_b[e.word]) for e in a.entries if e.word in lines_b
              and (e.total, e.settled) != (lines_b[e.word].total, lines_b[e.word].settled)]
    if shared_only:
        ranks_a = Table([e for e in a.entries if e.word in lines_b]).ranks()
        ranks_b = Table([e for e in b.entries if e.word in lines_a]).ranks()
    else:
        ranks_a, ranks_b = a.ranks(), b.ranks()
    moved = sorted(((w, ra, ranks_b[w]) for w, ra in ranks_a.items() if w in ranks_b and ra != ranks_b[w]),
                   key=lambda m: (-abs(m[1] - m[2]), m[1]))
    order_a = [e.word for e in a.entries if e.word in lines_b]
    order_b = [e.word for e in b.entries if e.word in lines_a]
    same = next((i for i, (x, y) in enumerate(zip(order_a, order_b)) if x != y), len(order_a))
    return Comparison(a, b, only_a, only_b, differ, moved, same, shared_only)
