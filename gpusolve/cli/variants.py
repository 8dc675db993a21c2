"""Commands for variants and play: ``preset``, ``absurdle``, ``worst-case``, ``solve``, ``analyze``,
``play-human``."""

from __future__ import annotations

from typing import Annotated

import typer

from .app import (
    METRIC_HELP,
    OUT_HELP,
    Answers,
    Backend,
    Colours,
    Game,
    Guesses,
    Json,
    Length,
    Mode,
    Quiet,
    State,
    Steps,
    Top,
    TreeFormat,
    app,
    check_outputs,
    console,
    load_matrix,
    name_option,
    print_json,
)


def _fmt(words) -> str:
    return "{" + " ".join(words) + "}"


@app.command()
def preset(
    words: Annotated[list[str] | None, typer.Argument(help="Preset words, played first in order.")] = None,
    search: Annotated[bool, typer.Option("--search", help="Search disjoint preset sets instead.")] = False,
    n_words: Annotated[int, typer.Option("--words", min=1, help="Preset words per set (with --search).")] = 4,
    samples: Annotated[int | None, typer.Option("--samples", min=1, help="Search this many random sets "
                                                "[default: every disjoint set]")] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Random seed for --samples.")] = 0,
    pool: Annotated[str, name_option("--pool", "Draw set words from: answers or guesses.")] = "answers",
    letters: Annotated[int, typer.Option("--letters", min=1, max=26,
                                         help="Use only the N most frequent letters.")] = 26,
    top: Annotated[int, typer.Option("--top", min=1, help="Show the N best means (with --search).")] = 10,
    max_guesses: Annotated[int, typer.Option("--max-guesses", min=1, help="Guesses allowed.")] = 6,
    show_bins: Annotated[int, typer.Option("--show-bins", min=1,
                                           help="List losing bins of at least N words.")] = 3,
    game: Game = "wordle", length: Length = None, colours: Colours = 6,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
    quiet: Quiet = False,
) -> None:
    """Play preset words first whatever the replies, then any consistent word (seed 003)."""
    from ..core.errors import GpusolveError
    from ..search.presets import preset_report, search_presets

    pm = load_matrix(game, length, colours, guesses, answers, backend)
    if search:
        with Steps(not (quiet or json)) as steps:
            result = search_presets(pm, n_words, samples, seed, pool, letters, top, max_guesses, steps)
        if json:
            print_json(result.as_dict())
            return
        how = "every" if result.exhaustive else "a random sample of"
        console.print(f"searched {how} {result.searched:,} disjoint {n_words}-word sets "
                      f"(pool of {result.pool:,} words) in {result.seconds:.1f} s; "
                      f"{len(result.winners):,} always win")
        from rich.table import Table

        table = Table(title=f"best mean scores ({result.evaluated_exactly:,} evaluated exactly)")
        for name in ("rank", "set", "mean", "always wins"):
            table.add_column(name, justify="left" if name == "set" else "right")
        for i, (ws, mean, wins) in enumerate(result.best, 1):
            table.add_row(str(i), " ".join(ws), f"{mean:.4f}", "yes" if wins else "no")
        console.print(table)
        if result.winners:
            shown = result.winners[:top]
            console.print(f"always-winning sets, best {len(shown)} by mean:")
            for ws, mean in shown:
                console.print(f"  {' '.join(ws)}  {mean:.4f}")
        return
    if not words:
        raise GpusolveError("give preset words, e.g. gpusolve preset HANDY SWIFT GLOVE CRUMP, or --search")
    report = preset_report(pm, words, max_guesses, show_bins)
    if json:
        print_json(report.as_dict())
        return
    freq = {s: (round(f) if f > 1 else round(f, 3)) for s, f in report.frequencies.items()}
    console.print(f"{_fmt(report.words)} wins {report.win_rate:.2%} of the time"
                  f"{' (always wins)' if report.always_wins else ''}")
    if report.seed_win_rate != report.win_rate:
        console.print(f"  (the seed's count, which scores every preset guess as a possible win, "
                      f"gives {report.seed_win_rate:.2%})")
    seed_mean = f" (seed's count: {report.seed_mean:.2f})" if report.seed_mean != report.mean else ""
    console.print(f"mean score: {report.mean:.2f}{seed_mean}; max score: {report.worst}")
    console.print(f"score frequencies: {freq}")
    console.print(f"bin sizes: {report.bin_sizes}")
    for bin_words, bad in report.losing_bins:
        console.print(f"bin {_fmt(bin_words)} can lose with: {_fmt(bad)}")


Budget = Annotated[int, typer.Option("--budget", min=1, help="Nodes the search may visit before giving up.")]
MaxDepth = Annotated[int, typer.Option("--max-depth", min=1, max=100, help="Give up beyond this depth.")]


@app.command("worst-case", hidden=True)
def worst_case_cmd(
    rank: Annotated[int | None, typer.Option(
        "--rank", min=0, help="Also check this many first guesses (best by largest bucket first; 0: all) "
        "for the optimum.")] = None,
    start: Annotated[str | None, typer.Option("--start", help="Fix the first guess.")] = None,
    mode: Annotated[str, name_option("--mode", "normal or consistent.")] = "normal",
    state: State = None,
    max_depth: MaxDepth = 12,
    min_depth: Annotated[int, typer.Option("--min-depth", min=1, help="Start at this depth (then the "
                                           "result is an upper bound, not proven least).")] = 1,
    out: Annotated[str | None, typer.Option("--out", help=OUT_HELP)] = None, fmt: TreeFormat = None,
    budget: Budget = 2_000_000_000,
    pair_mb: Annotated[int, typer.Option("--pair-mb", min=0,
                                         help="Memory for cached pair separators, MiB.")] = 256,
    game: Game = "wordle", length: Length = None, colours: Colours = 6,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
    quiet: Quiet = False,
) -> None:
    """The least number of guesses that always suffices against a true (look-ahead) adversary."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from ..core.history import parse_history, remaining_answers
    from ..core.limits import check_memo_mb
    from ..core.trees import save_tree, summarize, tree_format
    from ..search.worstcase import rank_worst_case, worst_case

    if pair_mb:
        check_memo_mb(pair_mb, "--pair-mb (--memo-mb with --objective worst-case)")
    check_outputs((out, "tree"))
    pm = load_matrix(game, length, colours, guesses, answers, backend)
    moves = parse_history(pm, state or "")
    if out:
        tree_format(out, fmt, pm.game, moves)
    alive = remaining_answers(pm, moves)
    display = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                       TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(), console=console,
                       transient=True, disable=quiet or json or not console.is_terminal)
    task = display.add_task("first guesses", total=None)

    def progress(done: int, total: int, depth: int) -> None:
        display.update(task, description=f"within {depth}: first guesses refuted", completed=done,
                       total=total)

    with display:
        result = worst_case(pm, alive, mode, start, max_depth, budget, min_depth=min_depth, progress=progress,
                            pair_mb=pair_mb)
    info = result.as_dict()
    summary = summarize(result.tree)
    info["tree"] = summary.as_dict()
    if rank is not None:
        good, checked = rank_worst_case(pm, result.depth, alive, mode, rank or None, budget, pair_mb)
        info["rank"] = {"checked": checked, "achieving": good}
    if out:
        save_tree(out, result.tree, pm.game, fmt, mode=mode, objective="worst-case",
                  guesses=guesses or pm.game.default_guesses, answers=answers or pm.game.default_answers,
                  max_guesses=result.depth, moves=[[w, pm.game.format_reply(c)] for w, c in moves])
    if json:
        print_json(info)
        return
    claim = (f"the least, proven ({', '.join(map(str, result.refuted)) or 'nothing'} refuted)"
             if result.proven_least else f"an upper bound (depths below {min_depth} not searched)")
    console.print(f"{result.n_answers:,} answers ({mode} mode): {result.depth} guesses always suffice, "
                  f"{claim}, in {result.seconds:.1f} s, {result.nodes:,} nodes")
    console.print(f"tree: first guess {summary.first_guess}, mean {summary.mean:.4f}, "
                  f"worst {summary.worst}, histogram {summary.histogram}")
    if rank is not None:
        console.print(f"first guesses achieving {result.depth} ({len(good):,} of {checked:,} checked): "
                      + " ".join(good[:50]) + (" ..." if len(good) > 50 else ""))
    if out:
        console.print(f"tree written to {out}")


@app.command()
def absurdle(
    play: Annotated[str | None, typer.Option("--play", help="Instead, play these guesses (comma "
                                             "separated) against the replier.")] = None,
    max_depth: MaxDepth = 10,
    budget: Budget = 2_000_000_000,
    game: Game = "wordle", length: Length = None, colours: Colours = 6,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
    quiet: Quiet = False,
) -> None:
    """Absurdle: the fewest guesses that always win when the replier keeps the largest bucket.

    Proven by search (every smaller number refuted); --backend cuda scores the guesses on the GPU.
    """
    from ..core.errors import GpusolveError
    from ..search.absurdle import absurdle as solve_absurdle
    from ..search.absurdle import absurdle_line

    pm = load_matrix(game, length, colours, guesses, answers, backend)
    if play is not None:
        words = [pm.game.parse_word(w, pm.guess_index) for w in play.split(",") if w.strip()]
        if not words:
            raise GpusolveError("--play is empty: give the guesses to play, e.g. --play RAISE,YAULD")
        line = absurdle_line(pm, words)
        if json:
            print_json([{"guess": w, "reply": pm.game.format_reply(r), "left": n} for w, r, n in line])
            return
        for w, r, n in line:
            console.print(f"{w} {pm.game.format_reply(r)}  {n:,} left")
        return
    if quiet or not console.is_terminal:
        result = solve_absurdle(pm, None, max_depth, budget)
    else:
        with console.status("searching") as status:
            result = solve_absurdle(pm, None, max_depth, budget, lambda depth, sets: status.update(
                f"trying {depth} guesses: {sets:,} answer sets examined"))
    if json:
        print_json(result.as_dict(pm.game))
        return
    console.print(f"Absurdle over {pm.shape[1]:,} answers with {pm.shape[0]:,} guesses: "
                  f"{result.guesses} guesses always win, proven "
                  f"({', '.join(map(str, result.refuted)) or 'nothing'} refuted) in {result.seconds:.1f} s, "
                  f"{result.nodes:,} answer sets examined ({pm.backend.name})")
    console.print("winning line: " + ", ".join(f"{w} {pm.game.format_reply(r)}" for w, r in result.line))


@app.command()
def evil(
    tree_file: Annotated[str | None, typer.Option("--tree", help="Play this tree (JSON).")] = None,
    metric: Annotated[str, name_option("--metric", "Else build a greedy tree minimizing this.")
                      ] = "max",
    mode: Mode = "normal",
    free_max: Annotated[int | None, typer.Option("--free-max", min=0, help="Free guesses only with at most "
                                                 "N answers left (the seed uses 125).")] = None,
    game: Game = "wordle", length: Length = None, colours: Colours = 6,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Evil Wordle: the game a tree plays when the replier always keeps the largest branch
    (ties: the lowest reply, ..... first)."""
    from ..core.games import make_game
    from ..core.trees import load_tree
    from ..search.adversary import evil_path, policy_metric
    from ..search.greedy import greedy_tree

    moves: list = []
    if tree_file:
        tree, game_spec, info = load_tree(tree_file)
        if info.get("moves"):  # a tree from a position: its moves come first
            from .tree import _tree_file

            tree, pm, _, moves = _tree_file(tree_file, guesses, answers, backend)
    else:
        pm = load_matrix(game, length, colours, guesses, answers, backend)
        tree, game_spec = greedy_tree(pm, policy_metric(metric), mode, free_max=free_max), pm.game
    game_spec = game_spec or make_game(game, length, colours)
    path = moves + evil_path(tree, game_spec.solved)
    if json:
        print_json([{"guess": g, "reply": game_spec.format_reply(r)} for g, r in path])
        return
    for number, (g, r) in enumerate(path, 1):
        console.print(f"{number}. {g} {game_spec.format_reply(r)}")
    console.print(f"the Evil replier holds out for {len(path)} guesses")


@app.command()
def antiwordle(
    game: Game = "wordle", length: Length = None, colours: Colours = 6,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Antiwordle: consistent guesses that keep branches big (least entropy), as long a game as
    possible."""
    from ..core.trees import summarize
    from ..search.adversary import antiwordle_tree

    pm = load_matrix(game, length, colours, guesses, answers, backend)
    s = summarize(antiwordle_tree(pm))
    if json:
        print_json(s.as_dict())
        return
    console.print(f'first guess: "{s.first_guess}"')
    console.print(f"median: {s.median:.0f} guesses, mean: {s.mean:.2f} ± {s.stdev:.2f}, worst: {s.worst}, "
                  f"best: {s.best}")
    console.print(f"cumulative: {s.cumulative()}")


@app.command()
def policies(
    metrics: Annotated[str, name_option("--metrics", "Comma-separated greedy metrics (or the "
                                        "seed's names maxinfo, maxsplits, maxprune).")]
    = "entropy,splits,prune",
    modes: Annotated[str, name_option("--modes", "Comma-separated modes.")] = "normal,hard",
    rules: Annotated[str, name_option("--rules", "greedy: gpusolve's greedy trees; seed-004: "
                                      "the seed's own guesser (Wordle; normal and hard).")] = "greedy",
    start: Annotated[str | None, typer.Option("--start", help="seed-004: the first guess [default: "
                                              "the seed's table start word per row].")] = None,
    search_start: Annotated[int | None, typer.Option("--search-start", help="seed-004: play the "
                                                     "seed's start-word search over its first N "
                                                     "openers (it used 100; slow).")] = None,
    free_max: Annotated[int | None, typer.Option(
        "--free-max", min=0, help="greedy: free guesses only with at most N answers left.")] = None,
    game: Game = "wordle", length: Length = None, colours: Colours = 6,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Seed 004's policies (MaxInfo = entropy, MaxSplits = splits, MaxPrune = prune): as greedy
    trees (first guess, mean, worst, games over 6), or with --rules seed-004 as the seed's own
    guesser plays them (its README table needs the original answers in play order, CIGAR first, as
    --answers FILE)."""
    from ..core.errors import GpusolveError

    if rules not in ("greedy", "seed-004"):
        raise GpusolveError(f"unknown rules {rules!r}: choose greedy or seed-004")
    if rules == "greedy" and (start or search_start):
        raise GpusolveError("--start and --search-start go with --rules seed-004")
    pm = load_matrix(game, length, colours, guesses, answers, backend)
    if rules == "seed-004":
        _seed_agents(pm, metrics.split(","), modes.split(","), start, search_start, json)
        return
    from ..search.adversary import policy_table

    with Steps(not json) as steps:
        rows = policy_table(pm, tuple(metrics.split(",")), tuple(modes.split(",")), free_max, steps)
    if json:
        print_json(rows)
        return
    from rich.table import Table

    table = Table(title=f"greedy policies over {pm.shape[1]:,} answers, {pm.shape[0]:,} guesses")
    for name in ("metric", "mode", "first guess", "mean", "worst", "over 6"):
        table.add_column(name, justify="left" if name in ("metric", "mode", "first guess") else "right")
    for r in rows:
        table.add_row(r["metric"], r["mode"], r["first_guess"], f"{r['mean']:.4f}", str(r["worst"]),
                      str(r["over_6"]))
    console.print(table)


def _seed_agents(pm, metrics, modes, start, search_start, json) -> None:
    from ..core.errors import GpusolveError
    from ..search.agents import MODES, Agent, policy_name

    bad = [m for m in modes if m not in MODES]
    if bad:
        raise GpusolveError(f"unknown mode {bad[0]!r} for seed 004's guesser: choose normal or hard")
    if search_start is not None and search_start < 1:
        raise GpusolveError(f"--search-start must be 1 or more, not {search_start}")
    runs = []
    for metric in metrics:
        for mode in modes:
            agent = Agent(pm, policy_name(metric), mode)
            runs.append(agent.search_start(search_start)[0] if search_start else agent.play(start))
    if json:
        print_json([r.as_dict() for r in runs])
        return
    from rich.table import Table

    how = f"best of its first {search_start} openers" if search_start else "start fixed"
    table = Table(title=f"seed 004's guesser over {pm.shape[1]:,} answers, {pm.shape[0]:,} guesses "
                        f"({how}); mean over the answers solved in 6; failed: not solved in 6")
    for name in ("policy", "mode", "first guess", "mean (solved)", "solved", "mean (all)", "failed"):
        table.add_column(name, justify="left" if name in ("policy", "mode", "first guess") else "right")
    for r in runs:
        table.add_row(r.policy, r.mode, r.start, f"{float(r.solved_mean):.4f}",
                      f"{len(r.answers) - len(r.failed):,}", f"{float(r.overall_mean):.4f}",
                      f"{len(r.failed):,}")
    console.print(table)
    console.print("mean (all): a failed answer counts 6 guesses (how the seed ranked start words)")
    for r in runs:
        if r.failed:
            more = f" … and {len(r.failed) - 25:,} more" if len(r.failed) > 25 else ""
            console.print(f"failed, {r.policy} {r.mode}: {' '.join(r.failed[:25])}{more}")


Prior = Annotated[str, name_option("--prior", "uniform or frequency (needs wordfreq).")]
STYLES = {"G": "bold white on green4", "Y": "bold black on yellow3", ".": "bold white on grey35"}


def coloured(game, word: str, reply: int) -> str:
    """Return rich markup showing a guess with its reply as coloured tiles (plain for non-squares)."""
    squares = game.format_reply(reply)
    if len(squares) != len(word) or set(squares) - set(STYLES):
        return f"{word} {squares}"
    return "".join(f"[{STYLES[s]}] {c} [/]" for c, s in zip(word, squares)) + f"  {squares}"


def _show_advice(assistant, advice, limit: int) -> None:
    from rich.table import Table

    if advice.method == "solved":
        console.print(f"solved: {advice.remaining[0]}")
        return
    n = len(advice.remaining)
    if advice.method == "letters found":
        console.print(f"all letters found: the answer is one of the {n} words of these letters: "
                      + " ".join(advice.remaining))
        return
    listing = ": " + " ".join(advice.remaining) if n <= limit else ""
    console.print(f"{n:,} answer{'s' if n != 1 else ''} left{listing}")
    console.print(f"best next guess: [bold]{advice.best}[/] ({advice.method})")
    if advice.alternatives:
        keys = [k for k in advice.alternatives[0] if k != "word"]
        table = Table(title="alternatives", title_justify="left")
        table.add_column("word")
        for key in keys:
            table.add_column(key.replace("_", " "), justify="right")
        for alt in advice.alternatives:
            table.add_row(alt["word"], *(str(alt[k]) for k in keys))
        console.print(table)


@app.command()
def solve(
    state: State = None,
    mode: Mode = "normal",
    metric: Annotated[str, name_option("--metric", f"Greedy metric for advice: {METRIC_HELP}.")
                      ] = "entropy",
    prior: Prior = "uniform",
    top: Annotated[int, typer.Option("--top", min=1, help="Alternatives shown.")] = 5,
    show: Annotated[int, typer.Option("--show", min=0, help="List the answers when at most N are left.")
                    ] = 20,
    game: Game = "wordle", length: Length = None, colours: Colours = 6,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Interactive assistant: type each guess you played and its reply (SALET .Y..G); it shows
    the answers left and the best next guess. Commands: undo, help, quit. With --state: advice on
    that position, once."""
    from rich.markup import escape

    from ..core.errors import GpusolveError
    from ..core.history import parse_history
    from ..core.words import read_words
    from ..play.assistant import Assistant, parse_turn

    pm = load_matrix(game, length, colours, guesses, answers, backend)
    words = None  # Jotto: the list as read, to name every anagram an all-letters reply leaves
    if pm.game.name == "jotto":
        words = read_words(answers or pm.game.default_answers, pm.game.alphabet)
    assistant = Assistant(pm, mode, metric, prior, top, words=words)
    if state is not None:
        for word, reply in parse_history(pm, state):
            assistant.play(word, reply)
        advice = assistant.advice()
        if json:
            print_json(advice.as_dict())
        else:
            _show_advice(assistant, advice, show)
        return
    console.print(f"gpusolve assistant ({mode} mode, {pm.shape[1]:,} answers). Type GUESS REPLY "
                  "(e.g. SALET .Y..G), 'undo', 'help' or 'quit'.")
    _show_advice(assistant, assistant.advice(), show)
    while True:
        try:
            line = input("> ").strip()
        except EOFError:
            break
        if not line:
            continue
        command = line.lower()
        if command in ("quit", "exit", "q"):
            break
        if command == "help":
            console.print("enter the guess you played and the reply: G green, Y yellow, . miss "
                          "(or 2/1/0, or the emoji squares); 'undo' takes back the last move")
            continue
        try:
            if command == "undo":
                word, reply = assistant.undo()
                console.print(f"undid {word} {pm.game.format_reply(reply)}")
            else:
                word, reply = parse_turn(pm, line)
                assistant.play(word, reply)
                console.print(coloured(pm.game, word, reply))
            advice = assistant.advice()
        except GpusolveError as e:
            console.print(f"[red]error:[/] {escape(str(e))}", markup=True)
            continue
        _show_advice(assistant, advice, show)
        if advice.method in ("solved", "letters found"):
            break


@app.command()
def analyze(
    history: Annotated[str | None, typer.Argument(hidden=True, show_default=False,
                                                  help="The moves (the same as --state).")] = None,
    state: State = None,
    show: Annotated[int, typer.Option("--show", min=0, help="Rank at most N remaining answers.")] = 30,
    game: Game = "wordle", length: Length = None, colours: Colours = 6,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Judge a played game: per move the answers left, skill (expected answers left by the best
    guess / by the guess played) and luck of the reply; then the answers left, most common first."""
    from rich.table import Table

    from ..core.errors import GpusolveError
    from ..core.history import parse_history
    from ..play.analysis import analyze_game, by_commonness

    if history is not None and state is not None:
        raise GpusolveError("give the moves once: --state GUESS:REPLY,...")
    state = state if state is not None else history
    if not state:
        raise GpusolveError("give the moves of a game: --state GUESS:REPLY,...")
    pm = load_matrix(game, length, colours, guesses, answers, backend)
    reports, alive = analyze_game(pm, parse_history(pm, state or ""))
    left = [pm.answers[a] for a in alive]
    try:
        ranked: list[tuple[str, float | None]] = list(by_commonness(left))
        note = ""
    except GpusolveError as e:  # wordfreq missing: list order, said so
        ranked, note = [(w, None) for w in left], f" (not ranked: {e})"
    if json:
        print_json({"moves": [r.as_dict(pm.game) for r in reports],
                    "remaining": [{"word": w, "zipf": None if z is None else round(z, 3)}
                                  for w, z in ranked[:show]]})
        return
    table = Table(title="moves")
    for name in ("#", "guess", "reply", "answers before", "after", "expected left", "best",
                 "best expected", "skill", "luck"):
        table.add_column(name, justify="left" if name in ("guess", "reply", "best") else "right")
    for r in reports:
        table.add_row(str(r.number), r.guess, pm.game.format_reply(r.reply), f"{r.before:,}",
                      f"{r.after:,}", f"{r.expected:.2f}", r.best, f"{r.best_expected:.2f}",
                      f"{r.skill:.0%}", f"{r.luck:.0%}")
    console.print(table)
    console.print(f"{len(left):,} answers left, most common first{note}:", markup=False)
    for w, z in ranked[:show]:
        console.print(f"  {w}" + ("" if z is None else f"  zipf {z:.2f}"))


@app.command("play-human", hidden=True)
def play_human(
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for the hidden answer.")] = None,
    answer: Annotated[str | None, typer.Option("--answer", help="Fix the hidden answer.")] = None,
    evil_replier: Annotated[bool, typer.Option("--evil", help="Play Absurdle: no fixed answer; the "
                                               "replier keeps the largest bucket.")] = False,
    mode: Mode = "normal",
    max_guesses: Annotated[int, typer.Option("--max-guesses", min=1,
                                             help="Guesses allowed (not with --evil).")] = 6,
    game: Game = "wordle", length: Length = None, colours: Colours = 6,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None,
) -> None:
    """Guess a hidden answer yourself, with coloured replies (--evil: against Absurdle)."""
    import random

    from ..core.errors import GpusolveError
    from ..core.modes import check_mode, hard_mode_problem
    from ..search.absurdle import absurdle_line

    check_mode(mode)
    pm = load_matrix(game, length, colours, guesses, answers, backend)
    if answer is not None:
        target = pm.game.parse_word(answer, {w: i for i, w in enumerate(pm.answers)})
    else:
        target = random.Random(seed).choice(pm.answers)
    moves: list = []
    played: list[str] = []
    limit = None if evil_replier else max_guesses
    rules = "Absurdle: no fixed answer" if evil_replier else f"{max_guesses} guesses"
    console.print(f"guess the word ({rules}); 'quit' gives up")
    while limit is None or len(moves) < limit:
        try:
            line = input(f"{len(moves) + 1}> ").strip()
        except EOFError:
            line = "quit"
        if line.lower() in ("quit", "exit", "q"):
            break
        try:
            word = pm.game.parse_word(line, pm.guess_index)
            problem = hard_mode_problem(pm.game, word, moves) if mode == "hard" else None
            if problem:
                raise GpusolveError(problem)
        except GpusolveError as e:
            console.print(f"[red]error:[/] {e}")
            continue
        played.append(word)
        if evil_replier:
            _, reply, left = absurdle_line(pm, played)[-1]
        else:
            reply, left = pm.game.reply(word, target), None
        moves.append((word, reply))
        console.print(coloured(pm.game, word, reply) + (f"  ({left:,} left)" if left is not None else ""))
        if reply == pm.game.solved:
            console.print(f"solved in {len(moves)}!")
            return
    if not evil_replier:
        console.print(f"the answer was {target}")


@app.command("prior-tree", hidden=True)
def prior_tree_cmd(
    prior: Prior = "frequency",
    metric: Annotated[str, name_option("--metric", "entropy, expectation, max, splits, prune")
                      ] = "entropy",
    mode: Annotated[str, name_option("--mode", "normal or consistent")] = "normal",
    free_max: Annotated[int | None, typer.Option("--free-max", min=0, help="Free guesses only with at most "
                                                 "N answers left.")] = None,
    out: Annotated[str | None, typer.Option("--out", help=OUT_HELP)] = None, fmt: TreeFormat = None,
    game: Game = "wordle", length: Length = None, colours: Colours = 6,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """A greedy tree with answers weighted by a prior (frequency: common words more likely)."""
    from ..core.trees import save_tree, summarize, tree_format
    from ..search.prior import answer_weights, prior_tree, weighted_mean

    check_outputs((out, "tree"))
    pm = load_matrix(game, length, colours, guesses, answers, backend)
    if out:
        tree_format(out, fmt, pm.game)
    weights = answer_weights(pm, prior)
    tree = prior_tree(pm, weights, metric, mode, free_max)
    s = summarize(tree)
    info = {**s.as_dict(), "prior": prior, "metric": metric, "mode": mode,
            "mean_under_prior": round(weighted_mean(tree, pm, weights), 4)}
    if out:
        save_tree(out, tree, pm.game, fmt, mode=mode, metric=metric, prior=prior)
    if json:
        print_json(info)
        return
    console.print(f"first guess {s.first_guess}: mean {s.mean:.4f} (uniform), "
                  f"{info['mean_under_prior']:.4f} under the {prior} prior; worst {s.worst}; "
                  f"histogram {s.histogram}")


@app.command("rank-prior", hidden=True)
def rank_prior(
    prior: Prior = "frequency",
    metric: Annotated[str, name_option("--metric", "entropy, expectation, max, splits, prune")
                      ] = "entropy",
    top: Top = 10,
    state: State = None,
    game: Game = "wordle", length: Length = None, colours: Colours = 6,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Rank every guess with answers weighted by a prior (the weighted kernel)."""
    from ..core.history import parse_history, remaining_answers
    from ..search.prior import answer_weights, rank_weighted

    pm = load_matrix(game, length, colours, guesses, answers, backend)
    alive = remaining_answers(pm, parse_history(pm, state or ""))
    ranked = rank_weighted(pm, metric, answer_weights(pm, prior), alive)[:top]
    if json:
        print_json([s.as_dict() for s in ranked])
        return
    from rich.table import Table

    table = Table(title=f"{pm.shape[0]:,} guesses over {len(alive):,} answers, {prior} prior, by {metric}")
    for name in ("rank", "word", "entropy", "expected left", "max", "branches", "win chance"):
        table.add_column(name, justify="left" if name == "word" else "right")
    for i, s in enumerate(ranked, 1):
        table.add_row(str(i), s.word, f"{s.entropy:.3f}", f"{s.expected:.2f}", str(s.max), str(s.branches),
                      f"{s.solve:.3f}")
    console.print(table)
