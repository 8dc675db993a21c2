"""Every relative link of the README and docs/ names a file that exists, and a heading there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """Return GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Return the anchors of every heading of ``page``."""
    lines = page.read_text().splitlines()
    return {slug(line.lstrip("#")) for line in lines if re.match(r"#{1,6} ", line)}


def links(page: Path) -> list[tuple[Path, str]]:
    """Return (target file, anchor or '') of every relative link of ``page``."""
    found = []
    for target in LINK.findall(re.sub(r"`[^`\n]*`", "", page.read_text())):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        found.append(((page.parent / path).resolve() if path else page, anchor))
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_resolves(page):
    broken = [f"{target.name}#{anchor}" for target, anchor in links(page)
              if not target.exists() or (anchor and target.suffix == ".md" and anchor not in anchors(target))]
    assert not broken, f"{page.name}: broken links {broken}"


def test_the_slug_follows_github():
    assert slug("The first run: compiling the kernels (`scripts/compile_table.py`, issue 29)") == \
        "the-first-run-compiling-the-kernels-scriptscompile_tablepy-issue-29"
    assert anchors(ROOT / "docs" / "benchmarks.md") >= {"todays-figures"}
