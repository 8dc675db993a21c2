"""The text layout of published Wordle trees (alex1770/wordle's ``*.tree`` files), read and written.

One line per answer: the guesses that find it, each followed by its reply (B/Y/G per letter)
and the guess's number, the last reply all green, e.g. ``salet BBBBB1 courd BBBBB2 whiff GGGGG3``.
In the *full* style every line is written whole; in the *hollow* style (the default) a line
leaves blank the part it shares with the line above, so the tree shows as indentation::

    salet BBBBB1 courd BBBBB2 nymph BBBBY3 whiff GGGGG4
                                    BGYYB3 pygmy GGGGG4

Replies are listed in the order of their letters taken B < G < Y, first letter first.
"""

from __future__ import annotations

import re

from .errors import GpusolveError
from .games import WORDLE, Game, make_game, wordle_reply
from .trees import Node, Tree
from .words import Word

STYLES = ("hollow", "full")
_TO_TEXT = str.maketrans(".YG", "BYG")
_FROM_TEXT = str.maketrans("BYG", ".YG")
_ORDER = str.maketrans("BGY", "012")
_STEP = re.compile(r"([A-Za-z]+) +([BYGbyg]+)(\d+)")


def check_text_game(game: Game) -> None:
    """Raise a one-line error unless ``game`` has a text layout (Wordle, B/Y/G replies)."""
    if game.kind != WORDLE:
        raise GpusolveError(f"the text tree format is Wordle's (B/Y/G replies); write {game.name} "
                            "trees as JSON or HTML")


def to_text(tree: Tree, game: Game, style: str = "hollow") -> str:
    """Return the tree in the text layout, one line per answer (``style``: hollow or full)."""
    check_text_game(game)
    if style not in STYLES:
        raise GpusolveError(f"unknown text style {style!r}: choose hollow or full")
    solved = game.format_reply(game.solved).translate(_TO_TEXT)
    lines: list[str] = []

    def walk(t: Tree, prefix: str, step: int) -> None:
        if isinstance(t, str):
            lines.append(f"{prefix}{t.lower()} {solved}{step}")
            return
        prefix += t.guess.lower() + " "
        replies = sorted((game.format_reply(r).translate(_TO_TEXT), sub) for r, sub in t.branches.items())
        for reply, sub in sorted(replies, key=lambda item: item[0].translate(_ORDER)):
            here = f"{prefix}{reply}{step}"
            if reply == solved:
                lines.append(here)
            else:
                walk(sub, here + " ", step + 1)
            if style == "hollow":
                prefix = " " * len(prefix)

    walk(tree, "", 1)
    return "\n".join(lines) + "\n"


def from_text(text: str, source: str = "tree file") -> tuple[Tree, Game]:
    """Return (tree, game) read from the text layout (either style), or raise a one-line error
    naming the line: a malformed line, a prefix that disagrees with an earlier line, a reply
    that is not the one the line's answer gives."""
    game: Game | None = None
    solved = ""
    root: dict | None = None  # a trie: {"guess": WORD, "line": N, "replies": {reply: trie | line}}
    above: list[tuple[int, str]] = []  # the line above, whole: (column, token) per token
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue

        def fail(why: str, number: int = number) -> GpusolveError:
            return GpusolveError(f"{source} line {number}: {why}")

        if "\t" in line:
            raise fail("tabs are not allowed (indent with spaces)")
        indent = len(line) - len(line.lstrip(" "))
        own = [(m.start(), m.group()) for m in re.finditer(r"\S+", line)]
        if indent:
            inherited = [i for i, (column, _) in enumerate(above) if column == indent]
            if not inherited:
                raise fail(f"indented to column {indent + 1}, where no word or reply starts on the line "
                           "above")
            own = above[:inherited[0]] + own
        above = own
        tokens = [token for _, token in own]
        body = " ".join(tokens)
        steps = list(_STEP.finditer(body))
        if len(tokens) % 2 or " ".join(m.group() for m in steps) != body:
            raise fail(f"expected 'word REPLY1 word REPLY2 ...', got {body[:60]!r}")
        words = [m[1].upper() for m in steps]
        if game is None:
            game = make_game("wordle", len(words[0]))
            solved = "G" * game.length
        for i, m in enumerate(steps, 1):
            word, reply, digits = m[1].upper(), m[2].upper(), int(m[3])
            if len(word) != game.length or len(reply) != game.length:
                raise fail(f"{m.group()!r}: words and replies of this tree have {game.length} letters")
            if digits != i:
                raise fail(f"{m[2]}{m[3]} follows guess {i}, so it should end in {i}")
        if steps[-1][2].upper() != solved:
            raise fail(f"the last reply must be {solved} (the answer found)")
        if any(m[2].upper() == solved for m in steps[:-1]):
            raise fail(f"goes on after the reply {solved}, which ends the game")
        answer = words[-1]
        for m in steps[:-1]:
            right = wordle_reply(m[1].upper(), answer).translate(_TO_TEXT)
            if m[2].upper() != right:
                raise fail(f"{m[1].upper()} gets {right} from {answer}, not {m[2].upper()}")
        node = root = root or {"guess": words[0], "line": number, "replies": {}}
        for i, m in enumerate(steps):
            word, reply = m[1].upper(), m[2].upper()
            if node["guess"] != word:
                path = " ".join(f"{s[1].upper()} {s[2].upper()}" for s in steps[:i]) or "the start"
                raise fail(f"guesses {word} after {path}, but line {node['line']} guesses {node['guess']}")
            if i == len(steps) - 1:
                if reply in node["replies"]:
                    raise fail(f"repeats the answer {answer} of line {node['replies'][reply]}")
                node["replies"][reply] = number
            else:
                node = node["replies"].setdefault(
                    reply, {"guess": steps[i + 1][1].upper(), "line": number, "replies": {}})
    if root is None or game is None:
        raise GpusolveError(f"{source} holds no tree (no lines)")
    return _tree(root, game), game


def _tree(trie: dict, game: Game) -> Tree:
    """Return the tree of a trie: a guess with only its solved reply is a leaf."""
    solved = "G" * game.length
    replies = trie["replies"]
    guess: Word = trie["guess"]
    if set(replies) == {solved}:
        return guess
    branches = {game.parse_reply(r.translate(_FROM_TEXT)): guess if r == solved else _tree(sub, game)
                for r, sub in replies.items()}
    node = Node(guess, 0, dict(sorted(branches.items())))
    node.size = sum(1 if isinstance(s, str) else s.size for s in node.branches.values())
    return node
