"""The tree explorer: one self-contained HTML page (inline script and style, the tree embedded as
JSON, no network) built from the ``explorer.html`` template shipped with the package."""

from __future__ import annotations

import html
import json
import re
from importlib import resources

from ..core.errors import GpusolveError

TEMPLATE = "explorer.html"
_DATA, _TITLE = "__TREE_DATA__", "__TITLE__"
_EMBEDDED = re.compile(r'<script type="application/json" id="tree-data">(.*?)</script>', re.S)


def embedded_json(doc: dict) -> str:
    """Return ``doc`` as JSON safe inside a <script> element (no '<', '>' or '&' left as is)."""
    text = json.dumps(doc, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def tree_page(doc: dict) -> str:
    """Return the explorer page for a ``gpusolve-tree/1`` document."""
    template = resources.files("gpusolve.view").joinpath(TEMPLATE).read_text(encoding="utf-8")
    root = doc.get("root")
    first = root if isinstance(root, str) else (root or {}).get("guess", "?")
    title = f"{str(doc.get('game', 'wordle')).capitalize()} tree: {first}"
    return template.replace(_TITLE, html.escape(title)).replace(_DATA, embedded_json(doc))


def page_tree(text: str, source: str = "page") -> dict:
    """Return the tree document embedded in an explorer page, or raise a one-line error."""
    found = _EMBEDDED.search(text)
    if not found:
        raise GpusolveError(f"{source} is an HTML page without an embedded gpusolve tree")
    try:
        return json.loads(found[1])
    except ValueError as e:
        raise GpusolveError(f"{source}: the embedded tree is not JSON: {str(e).splitlines()[0]}") from None
