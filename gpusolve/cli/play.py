"""Commands for playing: ``solve`` (the assistant), ``analyze`` (a played game), ``play-human``."""

from __future__ import annotations

from typing import Annotated

import typer

from ..core.words import counted
from ..search.defaults import ANALYZE_SECONDS, THINK_SECONDS
from .app import (
    METRIC_HELP,
    Answers,
    Backend,
    BlackOnly,
    Colours,
    Game,
    Guesses,
    Json,
    Length,
    Mode,
    Repeats,
    State,
    app,
    console,
    load_matrix,
    name_option,
    print_json,
)
from .policies import Prior

Think = Annotated[float, typer.Option(
    "--think", min=0.001, metavar="SECONDS",
    help="The time the exact search may take per position (inf: no limit); past it (or on Ctrl-C) "
         "the advice is greedy, and says so.")]

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
    console.print(f"{counted(n, 'answer')} left{listing}")
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
    think: Think = THINK_SECONDS,
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Interactive assistant: type each guess you played and its reply (SALET .Y..G); it shows
    the answers left and the best next guess: exact (proven) where the exact search finishes
    within --think seconds, else greedy. Commands: undo, help, quit. With --state: advice on
    that position, once."""
    from rich.markup import escape

    from ..core.errors import GpusolveError
    from ..core.history import read_position
    from ..core.words import read_words
    from ..play.assistant import Assistant, parse_turn

    pm = load_matrix(game, length, colours, guesses, answers, backend, repeats=repeats,
                     black_only=black_only)
    words = None  # Jotto: the list as read, to name every anagram an all-letters reply leaves
    if pm.game.name == "jotto":
        words = read_words(answers or pm.game.default_answers, pm.game.alphabet)
    assistant = Assistant(pm, mode, metric, prior, top, words=words, think=think)
    if state is not None:
        for word, reply in read_position(pm, state, mode):
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
    mode: Mode = "normal",
    think: Annotated[float, typer.Option(
        "--think", min=0.001, metavar="SECONDS",
        help="The time each exact search may take (inf: no limit); past it a figure is an "
             "estimate, marked ~.")
    ] = ANALYZE_SECONDS,
    show: Annotated[int, typer.Option("--show", min=0, help="Rank at most N remaining answers.")] = 30,
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None, json: Json = False,
) -> None:
    """Judge a played game against the optimum, in expected guesses left under optimal play: per
    move after the best guess and after the guess played (the difference: the move's skill cost),
    and the luck of the reply (the guesses left after it, against the average reply); then the
    answers left, most common first. Exact where the exact search finishes within --think, else
    estimated (~: the greedy entropy tree's mean)."""
    from rich.table import Table

    from ..core.errors import GpusolveError
    from ..core.history import read_position
    from ..core.modes import check_mode
    from ..play.analysis import ESTIMATE, analyze_game, by_commonness

    if history is not None and state is not None:
        raise GpusolveError("give the moves once: --state GUESS:REPLY,...")
    state = state if state is not None else history
    if not state:
        raise GpusolveError("give the moves of a game: --state GUESS:REPLY,...")
    check_mode(mode)
    pm = load_matrix(game, length, colours, guesses, answers, backend, repeats=repeats,
                     black_only=black_only)
    reports, alive = analyze_game(pm, read_position(pm, state, mode), mode, think)
    left = [pm.answers[a] for a in alive]
    try:
        ranked: list[tuple[str, float | None]] = list(by_commonness(left))
        note = ""
    except GpusolveError as e:  # wordfreq missing: list order, said so
        ranked, note = [(w, None) for w in left], f" (not ranked: {e})"
    if json:
        print_json({"moves": [r.as_dict(pm.game) for r in reports], "estimate": ESTIMATE,
                    "remaining": [{"word": w, "zipf": None if z is None else round(z, 3)}
                                  for w, z in ranked[:show]]})
        return
    table = Table(title=f"moves ({mode} mode): expected guesses left under optimal play")
    for name in ("#", "guess", "reply", "answers before", "after", "best", "best left", "played left",
                 "skill cost", "received left", "luck"):
        table.add_column(name, justify="left" if name in ("guess", "reply", "best") else "right")
    for r in reports:
        def shown(value: float, exact: bool, sign: str = "") -> str:
            return ("" if exact else "~") + f"{value:{sign}.3f}"

        table.add_row(str(r.number), r.guess, pm.game.format_reply(r.reply), f"{r.before:,}",
                      f"{r.after:,}", r.best.guess, shown(r.best_left, r.best.exact),
                      shown(r.played_left, r.played.exact), shown(r.cost, r.cost_exact),
                      shown(r.received_left, r.received.exact), shown(r.luck, r.luck_exact, "+"))
    console.print(table)
    if not all(r.cost_exact and r.luck_exact for r in reports):
        console.print(f"~: an estimate, {ESTIMATE}: the exact search did not finish within --think, or "
                      "no strategy finds every answer within 6 guesses from there", markup=False)
    if reports[-1].reply == pm.game.solved:
        console.print(f"solved: {reports[-1].guess} in {counted(len(reports), 'guess')}")
        return
    console.print(f"{counted(len(left), 'answer')} left, most common first{note}:", markup=False)
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
    game: Game = "wordle", length: Length = None, colours: Colours = None, repeats: Repeats = None,
    black_only: BlackOnly = False,
    guesses: Guesses = None, answers: Answers = None, backend: Backend = None,
) -> None:
    """Guess a hidden answer yourself, with coloured replies (--evil: against Absurdle)."""
    import random

    from ..core.errors import GpusolveError
    from ..core.modes import check_mode, hard_mode_problem
    from ..search.absurdle import absurdle_line

    check_mode(mode)
    pm = load_matrix(game, length, colours, guesses, answers, backend, repeats=repeats,
                     black_only=black_only)
    if answer is not None:
        target = pm.game.parse_word(answer, frozenset(pm.answers), "answer list")
    else:
        target = random.Random(seed).choice(pm.answers)
    moves: list = []
    played: list[str] = []
    limit = None if evil_replier else max_guesses
    rules = "Absurdle: no fixed answer" if evil_replier else f"{max_guesses} guesses"
    console.print(f"guess the {pm.game.noun} ({rules}); 'quit' gives up")
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
