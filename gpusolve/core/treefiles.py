"""Tree files: a guess tree (``gpusolve.core.trees``) as JSON, in the published text layout
(``treetext``) or as the explorer page (``gpusolve.view``), written atomically and read back
(the format told apart by the content).

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
from collections.abc import Sequence
from pathlib import Path

from ..view.html import page_tree, tree_page
from .errors import GpusolveError
from .games import GAME_OPTIONS, Game, make_game
from .outputs import write_output
from .trees import Node, Tree
from .treetext import check_text_game, from_text, to_text
from .words import refuse_device

SCHEMA = "gpusolve-tree/1"
MAX_DEPTH = 100
"""The deepest tree read from a file (a tree over n answers never needs more than n guesses;
every published strategy needs fewer than 20)."""


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
        if game is not None:
            check_text_game(game)
        if moves:
            raise GpusolveError("the text tree format holds whole games only: this tree starts after "
                                f"{len(moves)} moves (write it as JSON or HTML)")
    return fmt


def dump_tree(tree: Tree, game: Game, fmt: str = "json", **info: object) -> str:
    """Return the tree file's text in ``fmt`` (one of ``FORMATS``)."""
    if fmt == "html":
        return tree_page(to_json(tree, game, **info))
    if fmt.startswith("text"):
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
        return from_json(page_tree(text, str(path)))
    if start not in ("{", "["):
        tree, game = from_text(text, str(path))
        return tree, game, {}
    try:
        doc = json.loads(text)
    except RecursionError:
        raise GpusolveError(f"malformed tree file {path}: nested too deeply") from None
    except ValueError as e:
        raise GpusolveError(f"cannot read tree file {path}: {str(e).splitlines()[0]}") from None
    return from_json(doc)
