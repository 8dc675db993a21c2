"""Tables of exact start-word totals: ``tables compare`` (every difference between two tables,
ours or the anchor's published ones) and ``tables export`` (a run directory's table, finished or
not, without computing anything)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Annotated

import typer

from .app import Json, app, check_outputs, print_json

tables = typer.Typer(help="Tables of exact start-word totals: compare two, or export a run directory's.",
                     no_args_is_help=True, rich_markup_mode=None)
app.add_typer(tables, name="tables")

LARGEST = 10
"""The largest rank moves the text report names."""


@tables.command()
def compare(
    a: Annotated[Path, typer.Argument(help="A table: CSV or JSON (gpusolve's), or the anchor's results.")],
    b: Annotated[Path, typer.Argument(help="Another table, in any of these layouts.")],
    shared: Annotated[bool, typer.Option(
        "--shared", help="Compare only the start words both tables hold (a partial table against a "
        "complete one); ranks among those.")] = False,
    json: Json = False,
) -> None:
    """Report every difference between two tables (exit 0: the same, 1: they differ, as diff)."""
    from ..runs.tables import compare_tables, read_table

    result = compare_tables(read_table(a), read_table(b), shared)
    if json:
        print_json(result.as_dict())
    else:
        for line in _report(result):
            typer.echo(line)
    if not result.identical:
        raise typer.Exit(1)


def _side(name: str, table) -> str:
    """Return one line saying what a table is: its file, size, completeness, mode and lists."""
    from ..runs.tables import missing_text

    p = table.provenance
    about = [missing_text(table) if "complete" in p else f"{len(table.entries):,} start words"]
    about += [f"{p['mode']} mode"] if p.get("mode") else []
    about += [f"lists {p['lists']}"] if p.get("lists") else []
    return f"{name}: {table.path} ({'; '.join(about)})"


def _words(title: str, words: list[str]) -> list[str]:
    """Return the lines naming a list of words under a title (none: no lines)."""
    if not words:
        return []
    return [f"{title} ({len(words):,}):", *textwrap.wrap(" ".join(words), 100, initial_indent="  ",
                                                         subsequent_indent="  ")]


def _line(entry) -> str:
    """Return a start word's line as the report shows it: 7897, >= 7950, impossible."""
    if entry.settled == "impossible":
        return "impossible"
    return f">= {entry.total}" if entry.settled == "bound" else str(entry.total)


def _report(result) -> list[str]:
    """Return the comparison as text: what each table is, then every difference."""
    lines = [_side("A", result.a), _side("B", result.b)]
    if not result.shared_only:
        lines += _words("only in A", result.only_a) + _words("only in B", result.only_b)
    elif result.only_a or result.only_b:
        lines.append(f"not compared (--shared): {len(result.only_a):,} start words only in A, "
                     f"{len(result.only_b):,} only in B")
    if result.differ:
        consistent = sum(d.consistent for d in result.differ)
        both = f"; {consistent:,} of them a bound the other table's line meets" if consistent else ""
        lines.append(f"lines that differ ({len(result.differ):,}{both}):")
        width = max(len(d.word) for d in result.differ)
        for d in result.differ:
            note = "  (consistent)" if d.consistent else ""
            lines.append(f"  {d.word:<{width}}  A {_line(d.a):>10}  B {_line(d.b):>10}{note}")
    if result.moved:
        largest = ", ".join(f"{w} {ra:,} -> {rb:,}" for w, ra, rb in result.moved[:LARGEST])
        lines.append(f"ranks: {len(result.moved):,} of {result.shared:,} shared start words at another rank; "
                     f"the first {result.same_order:,} in the same order; largest moves: {largest}")
    if result.identical:
        scope = "shared " if result.shared_only else ""
        lines.append(f"identical: the same line for each of the {result.shared:,} {scope}start words")
    return lines


@tables.command()
def export(
    run_dir: Annotated[Path, typer.Argument(help="The run directory of an optimal-tree --rank run.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The table's file: .csv, .txt (the anchor's "
                                         "layout) or .json, or any name with --format.")],
    layout: Annotated[str | None, typer.Option(
        "--format", help="csv, anchor (word mean total; provenance in FILE.json) or json [default: by "
        "the file's suffix: .csv, .txt the anchor's, .json; any other suffix needs --format].")] = None,
    json: Json = False,
) -> None:
    """Write the table of a run directory's finished start words, computing nothing (the run may
    be going on, stopped or killed)."""
    from ..core.errors import GpusolveError
    from ..runs.runstore import read_run
    from ..runs.tables import TableOutput, layout_of, missing_text, table_of
    from .runs import program_labels

    check_outputs((output, "table"))
    out = TableOutput(output, layout_of(output, layout and layout.lower(), "--format"))
    run = read_run(run_dir)
    if run.params.get("task") not in ("exact", "reference-exact"):
        raise GpusolveError(f"run directory {run_dir} holds a {run.params.get('task')} run, not an exact "
                            "ranking (optimal-tree --rank): it has no table of exact totals")
    out.check(run.params.get("cutoff"))
    table = table_of(run.params, run.results, run.timings, labels=program_labels(), run_dir=run.path)
    files = out.write(table)
    if json:
        print_json({"files": [str(f) for f in files], "provenance": table.provenance})
    else:
        typer.echo(f"table ({missing_text(table)}) written to {', '.join(map(str, files))}")
