"""What the README and the docs promise: the headline output, and every command they name."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from gpusolve.cli import app

ROOT = Path(__file__).parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
runner = CliRunner()


def _code(text: str) -> list[str]:
    """Return the code in a Markdown text: `spans` and the lines of fenced blocks."""
    blocks = re.findall(r"```[^\n]*\n(.*?)```", text, flags=re.S)
    rest = re.sub(r"```.*?```", "", text, flags=re.S)
    return re.findall(r"`([^`\n]+)`", rest) + [line for b in blocks for line in b.splitlines()]


def documented_commands() -> set[tuple[str, ...]]:
    """Return every command the docs show run, as (command,) or (group, command)."""
    found = set()
    for doc in DOCS:
        for code in _code(doc.read_text()):
            for first, second in re.findall(r"(?:^|[\s/])gpusolve ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?", code):
                found.add((first, second) if first == "war" and second else (first,))
    return found


def listed(*group: str) -> set[str]:
    """Return the commands ``gpusolve [group] --help`` lists."""
    out = runner.invoke(app, [*group, "--help"]).stdout
    section = out.split("Commands:", 1)[1]
    return {line.split()[0] for line in section.splitlines() if line.startswith("  ") and line.split()}


def test_every_documented_command_is_in_help():
    commands = documented_commands()
    assert {("optimal-tree",), ("war", "sweep"), ("solve",)} <= commands  # the parser finds them
    top, war = listed(), listed("war")
    missing = [" ".join(c) for c in sorted(commands)
               if (c[0] not in top) or (len(c) == 2 and c[1] not in war)]
    assert not missing, f"documented but not in gpusolve --help: {missing}"


def test_the_readme_command_table_is_the_help():
    cells = re.findall(r"^\| (`gpusolve [^|]*)\|", (ROOT / "README.md").read_text(), flags=re.M)
    table = {name for cell in cells for name in re.findall(r"`gpusolve ([a-z-]+)", cell)}
    assert table == listed(), "the README's table of commands and gpusolve --help differ"


def test_readme_headline_output():
    """The main job's output as the README shows it: SALET's 7,897 over the 2,309 answers."""
    readme = (ROOT / "README.md").read_text()
    shown = re.search(r"```\n(first guess: SALET\n.*?)```", readme, flags=re.S)[1].splitlines()
    result = runner.invoke(app, ["optimal-tree", "--start", "SALET", "--quiet"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:3] == shown[:3]
    assert shown[2] == "guesses needed: 2: 90, 3: 1237, 4: 904, 5: 78; worst 5"
    assert shown[1] == "total: 7,897 over 2,309 answers, mean 3.4201"
    proven = shown[3].split(";")[0]
    assert proven == "proven: yes, the least total after the first guess SALET (given, not chosen)"
    assert lines[3].startswith(proven + ";")
    nodes = shown[3].split(";")[1]
    assert lines[3].split(";")[1] == nodes, "the README's node count is not what the search visits"
