"""The HTML tree explorer: a self-contained page, written wherever a tree is; and driven in a real
headless Chromium (Debian's, through playwright): click down to an answer, search another, switch
palettes, take a screenshot, and check that the page asked the network for nothing."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpusolve.cli import app
from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix
from gpusolve.core.treefiles import load_tree, save_tree, to_json
from gpusolve.core.trees import Node, scores, summarize
from gpusolve.search.greedy import greedy_tree
from gpusolve.view.html import page_tree, tree_page

runner = CliRunner()
CHROMIUM = os.environ.get("GPUSOLVE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
REQUIRED = os.environ.get("GPUSOLVE_BROWSER_TESTS") == "required" or os.environ.get("CI") == "true"
"""In CI (.ci/run installs Chromium and playwright) the browser tests must run, never skip."""
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--mute-audio"]


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def test_the_page_needs_nothing_from_outside(small_pm):
    page = tree_page(to_json(greedy_tree(small_pm, "max", "consistent", answers=small_pm.answers[::400]),
                             small_pm.game))
    assert "default-src 'none'" in page  # the Content-Security-Policy: the browser blocks any fetch
    for outside in (r"https?://", r"\b(src|href)\s*=", r"url\(", r"@import", r"<link", r"\bfetch\(",
                    r"XMLHttpRequest", r"WebSocket", r"\bimport\("):
        assert not re.search(outside, page.replace('http-equiv="Content-Security-Policy"', "")), outside


def test_the_embedded_tree_reads_back_and_cannot_break_out(tmp_path, small_pm):
    tree = greedy_tree(small_pm, "max", "consistent", answers=small_pm.answers[::100])
    nasty = "</script><script>alert(1)</script> & <!--"
    path = tmp_path / "t.html"
    save_tree(path, tree, small_pm.game, mode="consistent", answers=nasty)
    text = path.read_text()
    assert text.count("</script>") == 2 and "<!--" not in text
    back, game, info = load_tree(path)
    assert back == tree and game == small_pm.game and info["answers"] == nasty
    assert page_tree(text)["root"]["guess"] == "ROAST"


def test_out_html_wherever_trees_are_written(tmp_path):
    mastermind = ["--game", "mastermind", "--length", "3", "--colours", "3"]
    for name, args in (("opt.html", ["optimal-tree", *mastermind, "--quiet"]),
                       ("wc.html", ["optimal-tree", "--objective", "worst-case", *mastermind, "--quiet"]),
                       ("greedy.html", ["tree", *mastermind])):
        code, stdout, stderr = run(*args, "--out", tmp_path / name)
        assert code == 0, stderr
        assert (tmp_path / name).read_text().startswith("<!DOCTYPE html>")
        tree, game, _ = load_tree(tmp_path / name)
        assert game.name == "mastermind" and summarize(tree).n == 27
    code, stdout, _ = run("tree-view", tmp_path / "opt.html", "-o", tmp_path / "opt.json")
    assert code == 0 and "json tree written" in stdout
    code, stdout, _ = run("tree-view", tmp_path / "opt.json", "-o", tmp_path / "again.html")
    assert code == 0 and load_tree(tmp_path / "again.html") == load_tree(tmp_path / "opt.html")
    code, _, stderr = run("tree-view", tmp_path / "missing.json", "-o", tmp_path / "x.html")
    assert code == 2 and stderr.startswith("error: tree file") and "does not exist" in stderr


# The browser.

@pytest.fixture(scope="module")
def browser():
    """Yield a headless Chromium driven by playwright (Debian's Chromium, never a download)."""
    missing = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "playwright is not installed (pip install -e '.[browser]')"
    if CHROMIUM is None:
        missing = "no Chromium (apt-get install chromium, or set GPUSOLVE_CHROMIUM)"
    if missing:
        if REQUIRED:
            pytest.fail(f"the browser tests must run here: {missing}")
        pytest.skip(missing)
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, tmp_path):
    """Yield (page, requests, errors): a fresh page in its own profile, and what it asked for and said."""
    context = browser.new_context(viewport={"width": 1000, "height": 760})
    tab = context.new_page()
    requests, errors = [], []
    tab.on("request", lambda r: requests.append(r.url))
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    yield tab, requests, errors
    context.close()


def _open(tab, path):
    tab.goto(path.as_uri())
    tab.wait_for_selector("body[data-ready]")


def _stats(tree):
    depths = [d for _, d in scores(tree)]
    return len(depths), sum(depths), max(depths)


def _path(tree, answer):
    """Return [(node, reply text)] from the root to the answer (the last node may be the leaf word)."""
    steps, t = [], tree
    while True:
        reply, sub = next((r, s) for r, s in t.branches.items() if answer in (w for w, _ in scores(s)))
        steps.append((t, reply))
        if isinstance(sub, str):
            return steps, sub
        t = sub


@pytest.mark.slow
def test_the_salet_explorer_in_a_browser(tmp_path, page, salet_2315):
    tab, requests, errors = page
    pm, result = salet_2315
    tree, game = result.tree, pm.game
    path = tmp_path / "salet.html"
    save_tree(path, tree, game, mode="normal", guesses="allowed", answers="answers-2315", max_guesses=6)
    _open(tab, path)
    summary = summarize(tree)
    assert tab.inner_text("h1") == "Wordle tree: first guess SALET"
    assert "2,315 answers, 7,920 guesses in all (mean 3.4212), worst 5" in tab.inner_text("#info")
    hist = tab.inner_text("#hist")
    for k, v in summary.histogram.items():
        assert re.search(rf"{k} guesses\s+{v:,} \({100 * v / summary.n:.1f}%\)", hist), hist
    assert tab.locator("#tree *").count() < 2000  # lazy: only the root's replies are drawn

    # Click down to the first answer needing the most guesses; check every node on the way.
    answer = min(w for w, d in scores(tree) if d == summary.worst and _path(tree, w)[0][-1][1] != game.solved)
    steps, last = _path(tree, answer)
    node = tab.locator("#tree > .node")
    for number, (t, reply) in enumerate(steps, 1):
        n, total, worst = _stats(t)
        head = node.locator(":scope > .head")
        assert head.locator(".label").inner_text() == f"Guess {number}:"
        assert head.locator(".tiles").inner_text().replace("\n", "") == t.guess
        assert head.locator(".stats").inner_text() == (
            f"{n:,} answers · {total / n:.2f} guesses left on average · worst {worst}")
        branch = node.locator(f":scope > ul > li[data-reply='{game.format_reply(reply)}']")
        tiles = branch.locator(":scope > button .tile")
        assert [c.split()[-1] for c in tiles.evaluate_all("ts => ts.map(t => t.className)")] == [
            {"G": "g", "Y": "y", ".": "m"}[c] for c in game.format_reply(reply)]
        branch.locator(":scope > button").click()
        node = branch.locator(":scope > .child > .node")
    assert last == answer
    assert node.get_attribute("data-guess") == answer
    assert node.inner_text().split() == ["Guess", f"{summary.worst}:", *answer, "solved", "in",
                                         str(summary.worst)]

    # Search another answer: its path is shown, and the tree opens along it.
    other = min(w for w, d in scores(tree) if d == 2)
    steps, last = _path(tree, other)
    tab.fill("#search", other.lower())
    shown = tab.locator("#path .step .tiles")
    assert tab.inner_text("#path .found") == f"{other} in 2:"
    assert [s.replace("\n", "") for s in shown.all_inner_texts()] == ["SALET", other]
    assert tab.locator("li.onpath").count() == len(steps)
    assert tab.locator("li.onpath").last.get_attribute("data-reply") == game.format_reply(steps[-1][1])
    tab.fill("#search", "qqqqq")
    assert tab.inner_text("#search-note") == "QQQQQ is not an answer of this tree"
    tab.fill("#search", other)

    # Palettes: the game's, high contrast (orange/blue), colour-blind safe (Okabe-Ito blue/yellow).
    green = "#path .tile.g >> nth=0"
    assert tab.eval_on_selector(green, "t => getComputedStyle(t).backgroundColor") == "rgb(106, 170, 100)"
    for palette, colour in (("contrast", "rgb(245, 121, 58)"), ("safe", "rgb(0, 114, 178)")):
        tab.select_option("#palette", palette)
        assert tab.eval_on_selector(green, "t => getComputedStyle(t).backgroundColor") == colour
    tab.select_option("#palette", "game")

    shot = Path(os.environ.get("GPUSOLVE_SCREENSHOT_DIR", tmp_path)) / "explorer.png"  # CI keeps it
    shot.parent.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(shot))
    assert shot.read_bytes()[:4] == b"\x89PNG"
    assert requests == [path.as_uri()], requests  # the page itself, and nothing else
    assert errors == []


def test_jotto_and_mastermind_replies_in_a_browser(tmp_path, page):
    tab, requests, errors = page
    pm = pattern_matrix(make_game("mastermind", 3, 3), None, None, "cpu")
    tree = greedy_tree(pm, "max", "normal")
    save_tree(tmp_path / "mm.html", tree, pm.game)
    _open(tab, tmp_path / "mm.html")
    for code in tree.branches:
        black, white = divmod(code, 4)
        button = tab.locator(f"#tree > .node > ul > li[data-reply='{pm.game.format_reply(code)}'] > button")
        assert (button.locator(".key.b").count(), button.locator(".key.w").count()) == (black, white)
        assert button.locator(".peg").count() == 3
    button = tab.locator("#tree > .node > ul > li:not(.end) > button").first
    button.click()
    assert button.get_attribute("aria-expanded") == "true" and tab.locator(".child:visible").count() == 1
    button.click()
    assert button.get_attribute("aria-expanded") == "false" and tab.locator(".child:visible").count() == 0
    button.click()
    tab.click("#close-all")
    assert tab.locator(".child").count() == 0
    jotto = pattern_matrix(make_game("jotto"), "answers", "answers", "cpu")
    tree = greedy_tree(jotto, "max", "consistent", answers=jotto.answers[::50])
    assert isinstance(tree, Node)
    save_tree(tmp_path / "jotto.html", tree, jotto.game)
    _open(tab, tmp_path / "jotto.html")
    counts = tab.locator("#tree > .node > ul > li > button .count").all_inner_texts()
    assert sorted(counts) == sorted(str(code) for code in tree.branches)
    assert requests == [(tmp_path / n).as_uri() for n in ("mm.html", "jotto.html")]
    assert errors == []
