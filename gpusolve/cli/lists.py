"""``gpusolve lists``: the bundled word lists and the NYT game's eras, or what two of them differ by."""

from __future__ import annotations

from typing import Annotated

import typer

from ..core.eras import catalogue, compare
from ..core.errors import GpusolveError
from .app import Json, app, console, print_json, titled_table


@app.command("lists")
def lists_cmd(
    names: Annotated[list[str] | None, typer.Argument(
        help="Two lists (bundled names or files) or two eras: show the words added and removed "
        "from the first to the second. None: every bundled list and era.", show_default=False)] = None,
    json: Json = False,
) -> None:
    """Every bundled word list and every era of the NYT game (--lists NAME), or what two differ by."""
    if names:
        if len(names) != 2:
            raise GpusolveError(f"lists takes two names to compare (or none), not {len(names)}")
        _print_difference(*names, compare(*names), json)
        return
    info = catalogue()
    if json:
        print_json(info)
        return
    table = titled_table("eras of the NYT game (--lists NAME sets --guesses and --answers)")
    for column in ("era", "since", "guesses", "answers", "what changed"):
        table.add_column(column, no_wrap=column != "what changed")
    for e in info["eras"]:
        mark = "\n(defaults)" if e["default"] else "\n(latest)" if e["latest"] else ""
        table.add_row(e["name"] + mark, e["since"], f"{e['guesses']} ({e['n_guesses']:,})",
                      f"{e['answers']} ({e['n_answers']:,})", e["what"])
    console.print(table)
    table = titled_table("bundled word lists (--guesses NAME, --answers NAME; sha256: the first 12 hex "
                  "digits, --json: all)")
    for column in ("name", "words", "used", "what it is", "sha256"):
        table.add_column(column, justify="right" if column == "words" else "left",
                         no_wrap=column in ("name", "sha256"))
    for w in info["lists"]:
        default = "".join(f"; default {d}" for d in w["default_for"])
        table.add_row(w["name"], f"{w['words']:,}", w["used"], w["what"] + default, w["sha256"][:12])
    console.print(table)


def _print_difference(old: str, new: str, parts: dict[str, dict[str, list[str]]], json: bool) -> None:
    """Print the words added and removed from ``old`` to ``new``, part by part."""
    if json:
        print_json({"from": old, "to": new, **parts})
        return
    for part, change in parts.items():
        where = "" if part == "words" else f"{part}: "
        for how in ("added", "removed"):
            words = change[how]
            console.print(f"{where}{len(words):,} {how} from {old} to {new}"
                          + (": " + " ".join(words) if words else ""))
