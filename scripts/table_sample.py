"""The table sample (issues 35 and 36): the start words whose exact values stand for a complete table.

For each of three settings (normal mode on the default lists; hard mode on the default lists;
hard mode on ``nyt-2023-07``) the sample is a seeded uniform draw of 100 start words from the
lists' guess list, plus the 20 start words with the highest finite totals in the anchor's
published table (alex1770/wordle). The words and the anchor's lines for them live in
``tests/data/table_sample/`` (a GPU machine has no network): each ``results_*`` file holds the
published lines of its sample unchanged, in published order, and its sidecar ``results_*.json``
says how they were drawn, which words form each part, and the published table's counts that
weight the projection (``gpusolve.runs.tables`` reads both, as it reads any anchor table).

    python scripts/table_sample.py --draw /work/anchor [--seed 36] [--out tests/data/table_sample]

draws the files anew from the anchor's published tables (never needed to use them).
"""

from __future__ import annotations

import argparse
import datetime
import json
from dataclasses import dataclass
from pathlib import Path
from string import ascii_uppercase

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tests" / "data" / "table_sample"

SETTINGS = {
    ("normal", "default"): "results_easy_nyt20220316",
    ("hard", "default"): "results_hard_nyt20220316",
    ("hard", "nyt-2023-07"): "results_hard_nyt20230701",
}
"""The anchor's published table of each (mode, lists) setting the sample covers."""

UNIFORM = 100
TOP = 20
SEED = 36
ANCHOR_COMMIT = "8fd3f1bdf884ff6757c24ad1227dc561fab7787d"
PARTS = ("uniform", "top")


@dataclass(frozen=True)
class Sample:
    """One setting's sample: its parts (upper-case words), the anchor's totals for them (None: no
    strategy finds every answer), and the published table's counts (``table``: lines,
    infeasible)."""

    mode: str
    lists: str
    uniform: tuple[str, ...]
    top: tuple[str, ...]
    totals: dict[str, int | None]
    provenance: dict

    def part(self, name: str) -> tuple[str, ...]:
        """Return the words of a part (``uniform``, ``top``) or of both (``all``, each word once)."""
        if name == "all":
            return tuple(dict.fromkeys(self.uniform + self.top))
        return {"uniform": self.uniform, "top": self.top}[name]

    @property
    def lines(self) -> int:
        """Return how many start words the published table holds."""
        return self.provenance["table"]["lines"]

    @property
    def infeasible(self) -> int:
        """Return how many of the published table's start words cannot find every answer."""
        return self.provenance["table"]["infeasible"]


def guess_list(lists: str) -> tuple[str, ...]:
    """Return the guess list of a lists name (``default``, or an era such as ``nyt-2023-07``)."""
    from gpusolve.core.eras import DEFAULT, era
    from gpusolve.core.words import read_words

    return read_words(era(DEFAULT if lists == "default" else lists).guesses, ascii_uppercase)


def load(mode: str, lists: str, folder: Path = FOLDER) -> Sample:
    """Return a setting's sample, checked: every word a guess of its lists, with one published
    line, and the top part the file's highest finite totals."""
    from gpusolve.core.errors import GpusolveError
    from gpusolve.runs.tables import read_table

    name = SETTINGS.get((mode, lists))
    if name is None:
        known = ", ".join(f"{m} on {li}" for m, li in SETTINGS)
        raise GpusolveError(f"no table sample for {mode} mode on the {lists} lists (there are: {known})")
    table = read_table(folder / name)
    said = table.provenance
    totals = {e.word: e.total for e in table.entries}
    uniform, top = tuple(said.get("uniform", ())), tuple(said.get("top", ()))
    if set(totals) != set(uniform) | set(top) or len(uniform) != said.get("uniform_size"):
        raise GpusolveError(f"{name}: its lines and its sidecar's words differ")
    highest = [e.word for e in table.entries if e.total is not None][-TOP:][::-1]  # the highest first
    if list(top) != highest or any(totals[w] is None for w in top):
        raise GpusolveError(f"{name}: the top part is not the highest finite totals of its lines")
    if outside := sorted(set(totals) - set(guess_list(lists))):
        raise GpusolveError(f"{name}: not guesses of the {lists} lists: {', '.join(outside[:5])}")
    return Sample(mode, lists, uniform, top, totals, said)


# ---------------------------------------------------------------- drawing the files

def draw(anchor: Path, seed: int, out: Path) -> None:
    """Write every setting's sample files from the anchor's published tables in ``anchor``."""
    import numpy as np

    out.mkdir(parents=True, exist_ok=True)
    for (mode, lists), name in SETTINGS.items():
        published = (anchor / name).read_text().splitlines()
        rows = [(line.split()[0].upper(), int(line.split()[2])) for line in published]
        words = sorted(guess_list(lists))
        if sorted(w for w, _ in rows) != words:
            raise SystemExit(f"error: {name} does not list every guess of the {lists} lists once")
        rng = np.random.default_rng(seed)
        uniform = [words[i] for i in sorted(rng.choice(len(words), UNIFORM, replace=False))]
        finite = sorted((t, w) for w, t in rows if t < 1_000_000_000)
        top = [w for _, w in finite[-TOP:]][::-1]  # the costliest first: --limit takes them
        keep = set(uniform) | set(top)
        (out / name).write_text("".join(line + "\n" for line in published if line.split()[0].upper() in keep))
        totals = [t for t, _ in finite]
        sidecar = {
            "what": f"the table sample of {mode} mode on the {lists} lists (scripts/table_sample.py)",
            "source": f"alex1770/wordle {ANCHOR_COMMIT}, {name} (lines copied unchanged, in its order)",
            "drawn": datetime.date.today().isoformat(),
            "how": f"uniform: numpy.random.default_rng({seed}).choice({len(words)}, {UNIFORM}, "
                   f"replace=False) over the {lists} lists' guesses sorted A-Z; top: the {TOP} highest "
                   "finite totals, the highest first",
            "seed": seed,
            "uniform_size": UNIFORM,
            "uniform": uniform,
            "top": top,
            "table": {"lines": len(rows), "infeasible": len(rows) - len(finite),
                      "median": totals[len(totals) // 2], "p99": totals[int(0.99 * len(totals))],
                      "top_least": totals[-TOP]},
        }
        keys = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in sidecar.items())
        (out / f"{name}.json").write_text("{\n" + keys + "\n}\n")  # a key a line
        print(f"{name}: {len(keep)} lines ({len(set(uniform) & set(top))} in both parts)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draw", type=Path, required=True, help="folder of the anchor's published tables")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=FOLDER)
    args = parser.parse_args()
    draw(args.draw, args.seed, args.out)


if __name__ == "__main__":
    main()
