"""The Typer application, its shared options, and the boundary where errors become one line.

This module and the command modules import only Typer (and Rich) at start-up: each command
imports the library (numpy, numba) when it runs, so ``gpusolve --help`` stays quick.
"""

from __future__ import annotations

import copy
import errno
import json
import os
import sys
import warnings
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from ..core.eras import DEFAULT, ERAS, LATEST, era
from ..core.errors import GpusolveError, Note
from ..core.games import game_names
from ..core.interrupt import heard, terminate_as_interrupt
from ..core.words import BUNDLED

try:  # newer Typer runs on its own copy of click
    from typer._click.exceptions import NoArgsIsHelpError, UsageError
except ImportError:  # pragma: no cover - older Typer runs on click itself
    from click.exceptions import NoArgsIsHelpError, UsageError

ALIASES = {"--after": "--state", "--history": "--state"}
"""Old spellings of options, still accepted (hidden from --help): a position is ``--state``."""


def _fail(message: str) -> None:
    """Print one ``error:`` line on stderr and exit with code 2."""
    typer.echo(f"error: {' '.join(str(message).split())}", err=True)
    raise typer.Exit(2) from None


def no_space(e: OSError) -> str:
    """Return the one-line error of a write to a full device (a file, or the output itself)."""
    return (f"cannot write {e.filename or 'the output'}: no space left on the device ({e.strerror}); "
            "free some space and run the command again")


def _usage(e: UsageError) -> None:
    """Fail with a usage error (unknown option, bad value, missing argument) as one line."""
    where = f" (see '{e.ctx.command_path} --help')" if e.ctx is not None else ""
    _fail(f"{e.format_message()}{where}")


def _aliased(args: list[str]) -> list[str]:
    """Return the arguments with old option spellings replaced by the current ones."""
    out = []
    for arg in args:
        name, eq, value = arg.partition("=")
        out.append(ALIASES[name] + eq + value if name in ALIASES else arg)
    return out


_show_warning = warnings.showwarning


def _show_note(message, category, *args: Any, **kw: Any) -> None:
    """Print a library Note as one ``note:`` line on stderr (other warnings as Python does)."""
    if issubclass(category, Note):
        typer.echo(f"note: {message}", err=True)
    else:
        _show_warning(message, category, *args, **kw)


class _AsGiven:
    """A command (or group) whose options take a value as given where it needs no conversion."""

    def get_params(self, ctx: typer.Context) -> list:
        """Return the options (--help too), each taking a value as given where it needs no conversion
        (``_as_given``)."""
        params = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            if hasattr(param, "get_runtime_param") and not hasattr(param, "as_given"):  # newer Typer
                param.process_value = param.as_given = _as_given(param, param.process_value)
        return params


class _Group(_AsGiven, TyperGroup):
    """A command group that turns a GpusolveError or a usage error into one line on stderr and
    exit code 2, and Ctrl-C (SIGTERM) into one line saying what was kept and exit code 130 (143)."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, _aliased(args))
        except NoArgsIsHelpError:
            raise
        except UsageError as e:
            _usage(e)

    def invoke(self, ctx: typer.Context) -> Any:
        _check_environment()
        try:
            with warnings.catch_warnings(), terminate_as_interrupt():
                warnings.simplefilter("always", Note)
                warnings.showwarning = _show_note
                return super().invoke(ctx)
        except GpusolveError as e:
            _fail(str(e))
        except NoArgsIsHelpError:
            raise
        except UsageError as e:
            _usage(e)
        except KeyboardInterrupt as e:
            kept = str(e) or "nothing was kept; run the command again to start over"
            typer.echo(f"interrupted: {kept}", err=True)
            raise typer.Exit(128 + heard()) from None
        except MemoryError:
            _fail("not enough memory for this request: try smaller lists or options (see --help)")
        except OSError as e:
            if e.errno not in (errno.ENOSPC, errno.EDQUOT):
                raise
            _fail(no_space(e))


def _check_environment() -> None:
    """Fail in one line on an environment numba cannot start with (it would raise on import)."""
    threads = os.environ.get("NUMBA_NUM_THREADS", "").strip()
    if threads and not (threads.isdigit() and int(threads) > 0):
        _fail(f"NUMBA_NUM_THREADS={threads!r} is not a number of threads: set it to 1 or more, or unset it")


class _Command(_AsGiven, TyperCommand):
    """A command; one that takes --guesses and --answers also takes --lists, an era of the NYT's
    game that sets both (either still given explicitly wins)."""

    def __init__(self, *args: Any, params: list | None = None, **kwargs: Any) -> None:
        params = list(params or [])
        names = [p.name for p in params]
        if "guesses" in names and "answers" in names:
            params.insert(names.index("answers") + 1, _lists_option())
        super().__init__(*args, params=params, **kwargs)


    def invoke(self, ctx: typer.Context) -> Any:
        """Run the command with --lists resolved into --guesses and --answers."""
        name = ctx.params.pop("lists", None)
        if name is not None:
            lists = era(name)
            ctx.params["guesses"] = ctx.params["guesses"] or lists.guesses
            ctx.params["answers"] = ctx.params["answers"] or lists.answers
        return super().invoke(ctx)


def _as_given(param: Any, process: Any) -> Any:
    """Return ``param``'s ``process_value`` taking a value that needs no conversion as it is (none,
    the default, or text for a text option) with the option's own check (its callback), and any other
    by ``process`` (Typer's conversion). Newer Typer builds a Pydantic validator for every option
    of the command it runs, given or not, before it converts: a quarter second for optimal-tree's 40
    options (and Pydantic's import)."""
    info = param.type_descriptor.parameter_info
    text = param.type_descriptor.annotation is str and getattr(info, "parser", None) is None

    def process_value(ctx: Any, value: Any) -> Any:
        if (value is None and param.required) or not (
                value is None or value is param.default or (text and isinstance(value, str))):
            return process(ctx, value)
        if value is None and (param.multiple or param.nargs == -1):
            value = ()
        return value if param.callback is None else param.callback(ctx, param, value)

    return process_value


class _App(typer.Typer):
    """The application: its commands are ``_Command``s."""

    def command(self, *args: Any, cls: type[TyperCommand] | None = None, **kwargs: Any) -> Any:
        """Return the decorator that registers a command (a ``_Command`` unless ``cls`` says)."""
        return super().command(*args, cls=cls or _Command, **kwargs)

    def only(self, name: str) -> typer.Typer:
        """Return the application holding only the command (or group of commands) ``name``, or all of
        it where it has none of that name: Typer builds the options of every command it holds
        before it parses any (0.15 s for all twenty, 0.02 s for optimal-tree alone)."""
        commands = [c for c in self.registered_commands
                    if (c.name or typer.main.get_command_name(c.callback.__name__)) == name]
        groups = [g for g in self.registered_groups if g.name == name]
        if not commands and not groups:
            return self
        one = copy.copy(self)
        one.registered_commands, one.registered_groups = commands, groups
        return one


app = _App(
    cls=_Group,
    help="Exhaustive search for Wordle-family games (and War) on GPU or CPU.\n\n"
    "The defaults are the 2022 lists (2,309 answers, 12,972 guesses). Play today's game: add "
    "--lists latest (the NYT's lists as of July 2023: 14,855 guesses, 3,158 possible answers) to any "
    "command; 'gpusolve lists' shows every era.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode=None,  # plain help: Rich's help formatting costs a quarter second at start-up
)


def _print_version(asked: bool) -> None:
    """Print the version (and, run from a git checkout, its commit) and exit, when asked."""
    if asked:
        from .. import __version__

        commit = git_commit()
        typer.echo(f"gpusolve {__version__}" + (f" (git {commit})" if commit else ""))
        raise typer.Exit()


def git_commit() -> str | None:
    """Return the commit of the git checkout this package runs from ('+' marks changes to tracked
    files), or None where it was installed without one."""
    import subprocess

    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, timeout=10)
        changed = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                                 capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode or not head.stdout.strip():
        return None
    return head.stdout.strip() + ("+" if changed.stdout.strip() else "")


@app.callback()
def _root(version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print the version (and the git commit of a checkout) and exit.")] = False) -> None:
    """Exhaustive search for Wordle-family games (and War) on GPU or CPU."""


class _Console:
    """Rich's console, made on first use (importing Rich costs start-up time): full width when
    output is not a terminal, so piped tables are never cut."""

    _console = None

    def real(self) -> Any:
        """Return Rich's console itself (what Rich's own classes need: this stand-in is no
        context manager)."""
        if _Console._console is None:
            from rich.console import Console

            console = Console(highlight=False)
            if not _on_a_terminal():  # Rich may think so where colour is forced (FORCE_COLOR...)
                console = Console(highlight=False, width=100_000)
            _Console._console = console
        return _Console._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real(), name)


console: Any = _Console()


def titled_table(title: str, *columns: str, **options: Any) -> Any:
    """Return a Rich table with a title; piped, at least as wide as its title (Rich wraps a title
    to its table's width)."""
    from rich.table import Table

    return Table(*columns, title=title, min_width=None if _on_a_terminal() else len(title), **options)


def _on_a_terminal() -> bool:
    """Return whether the output goes to a terminal (not a pipe or a file)."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


class ProgressDisplay:
    """The one progress display of every command: a transient line per phase on a terminal
    (what is counted, a bar, done/total, the best so far, nodes, time, rate and ETA), fed
    ``Progress`` events (``gpusolve.search.plumbing``). A new phase hides the lines of finished or
    open-ended ones. The rate (per minute; ``per_hour``: per hour) and the ETA count only what
    this process did since the phase's first event (``session_rate``): a resumed run's units done
    before count toward done/total, not toward the rate."""

    def __init__(self, enabled: bool, per_hour: bool = False) -> None:
        self.progress = None
        self.tasks: dict[str, Any] = {}
        if enabled and console.is_terminal:
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self.progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                                     TextColumn("{task.fields[count]}"), TextColumn("{task.fields[best]}"),
                                     TimeElapsedColumn(), _rate_column(per_hour), _eta_column(),
                                     console=console.real(), transient=True)

    def __enter__(self) -> ProgressDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress and self.tasks:
            self.progress.stop()

    def __call__(self, event: Any) -> None:
        """Show a ``Progress`` event (the display starts with the first one)."""
        if not self.progress:
            return
        if not self.tasks:
            self.progress.start()
        task = self.tasks.get(event.phase)
        if task is None:
            for old in self.tasks.values():
                t = self.progress.tasks[old]
                if t.total is None or t.completed >= t.total:
                    self.progress.update(old, visible=False)
            # a resumed run starts at its units done before: only what follows counts for the rate
            task = self.progress.add_task(event.phase, total=event.total, completed=event.done, count="",
                                          best="", since=self.progress.get_time(), base=event.done)
            self.tasks[event.phase] = task
        count = f"{event.done:,}/{event.total:,}" if event.total is not None else f"{event.done:,}"
        nodes = f"{event.nodes:,} nodes" if event.nodes is not None else ""
        extra = "  ".join(x for x in (event.best, nodes) if x)
        self.progress.update(task, completed=event.done, total=event.total, count=count, best=extra,
                             visible=True)


def session_rate(task: Any) -> float | None:
    """Return a display task's units per second since its phase's first event (the units done
    before it not counted), or None before the first unit."""
    done = task.completed - task.fields.get("base", 0)
    elapsed = task.get_time() - task.fields.get("since", task.get_time())
    return done / elapsed if done > 0 and elapsed > 0 else None


def duration(seconds: float) -> str:
    """Return a duration in a few characters: '42s', '7m 05s', '16h 43m', '2d 03h'."""
    s = round(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m {s % 60:02d}s"
    if s < 86400:
        return f"{s // 3600}h {s % 3600 // 60:02d}m"
    return f"{s // 86400}d {s % 86400 // 3600:02d}h"


def _rate_column(per_hour: bool) -> Any:
    """Return a progress column showing a task's ``session_rate`` per minute or per hour (blank
    until known)."""
    from rich.progress import ProgressColumn
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task: Any) -> Text:
            rate = session_rate(task)
            if rate is None:
                return Text("")
            return Text(f"{rate * 3600:,.0f}/h" if per_hour else f"{rate * 60:,.1f}/min")

    return Rate()


def _eta_column() -> Any:
    """Return a progress column showing the time left at a task's ``session_rate`` (blank when
    unknown)."""
    from rich.progress import ProgressColumn
    from rich.text import Text

    class Eta(ProgressColumn):
        def render(self, task: Any) -> Text:
            rate = session_rate(task)
            if rate is None or task.total is None:
                return Text("")
            return Text(f"ETA {duration(max(task.total - task.completed, 0) / rate)}")

    return Eta()


def lowered(value: Any) -> Any:
    """Return an option's text value in lower case (names of games, modes, metrics...)."""
    return value.lower() if isinstance(value, str) else value


def name_option(name: str, help: str, **kw: Any) -> Any:
    """Return a Typer option whose value is a case-insensitive name."""
    return typer.Option(name, help=help, callback=lowered, **kw)


Game = Annotated[str, name_option("--game", f"{', '.join(game_names())}.")]
Length = Annotated[int | None, typer.Option(
    "--length", help="Letters per word, or pegs (digits) per code [default: 5; mastermind, bulls 4]")]
Colours = Annotated[int | None, typer.Option(
    "--colours", "--digits", help="mastermind: colours; bulls: digits [default: 6; bulls 10]")]
Repeats = Annotated[bool | None, typer.Option(
    "--repeats/--no-repeats", help="mastermind, bulls: may a code repeat a colour (digit)? "
    "[default: mastermind yes, bulls no]")]
BlackOnly = Annotated[bool, typer.Option(
    "--black-only", help="mastermind, bulls: replies count black pegs (bulls) only.")]
Guesses = Annotated[
    str | None,
    typer.Option("--guesses", help=f"Guess list: {', '.join(BUNDLED)}, or a file. "
                 "[default: the game's own]"),
]
Answers = Annotated[
    str | None,
    typer.Option("--answers", help=f"Answer list: {', '.join(BUNDLED)}, or a file. "
                 "[default: the game's own]"),
]
Lists = Annotated[
    str | None,
    typer.Option("--lists", help="Both lists of an era of the NYT game: "
                 + ", ".join(f"{name} (the defaults)" if name == DEFAULT else name for name in ERAS)
                 + f", or latest (today's game: {LATEST}); --guesses/--answers override. "
                 "See 'gpusolve lists'."),
]
Backend = Annotated[
    str | None,
    name_option("--backend", "auto, cpu or cuda; count: the GPU path's launches run on the CPU and "
                "counted [default: $GPUSOLVE_BACKEND or auto]"),
]
Json = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
OUT_HELP = ("Write the tree here: JSON (gpusolve-tree/1); a .html name gets the explorer page, "
            "a .tree or .txt name the published text layout.")
TreeFormat = Annotated[str | None, name_option(
    "--format", "The tree file's format: json, text (the published layout, hollow), text-full, "
    "html (a self-contained explorer page). Default: by the file name, else json.")]
TimeLimit = Annotated[float | None, typer.Option(
    "--time-limit", min=0.001, help="Stop the search after this many seconds, as Ctrl-C does (then "
    "nothing is proven).")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")]
def _position(value: str | None) -> str | None:
    """Return a --state value, refusing an empty one (it would silently mean the opening)."""
    if value is not None and not value.strip(" ,"):
        raise typer.BadParameter("is empty: give the moves played as GUESS:REPLY,... (or leave it out)")
    return value


State = Annotated[str | None, typer.Option(
    "--state", callback=_position,
    help="The position: the moves played, GUESS:REPLY,... (e.g. SALET:.....,CRONY:.Y..G).")]
Mode = Annotated[str, name_option("--mode", "Guesses allowed: normal, hard or consistent.")]
METRIC_HELP = ("entropy, max, expectation, branches, guaranteed_wins, expected_wins, splits (= branches), "
               "prune (= expectation)")
Top = Annotated[int, typer.Option("--top", min=0, help="Show the N best.")]


def _lists_option() -> typer.core.TyperOption:
    """Return the --lists option, as Typer builds it for a command that declares it."""
    helper = typer.Typer(add_completion=False)

    @helper.command()
    def _(lists: Lists = None) -> None:
        """Never run: declares --lists."""

    return typer.main.get_command(helper).params[0]


def print_gpu_counts(report: dict | None) -> None:
    """Print what the GPU path gave the GPU, by phase (``--backend count``: the launches of each
    kernel, the cells computed, the bytes copied each way, the CPU seconds of the twins and of
    the CPU's own work); nothing on another backend."""
    if not report or "cpu_seconds" not in report:
        return
    from ..core.limits import mib

    table = titled_table("the GPU path, counted (--backend count: each launch run by its CPU twin)", "phase",
                         "launches", "cells", "to device", "to host", "twins CPU s", "CPU s (rest)")
    for phase, found in report["counts"].items():
        launches = ", ".join(f"{k.split('.')[-1]} {n:,}" for k, n in found.get("launches", {}).items())
        cpu = found.get("cpu_seconds")
        table.add_row(phase.replace("_", " "), launches or "-", f"{found.get('cells', 0):,}",
                      mib(found.get("bytes_to_device", 0)), mib(found.get("bytes_to_host", 0)),
                      f"{found.get('twin_cpu_seconds', 0.0):.1f}", "-" if cpu is None else f"{cpu:.1f}")
    console.print(table)
    console.print(f"CPU seconds of the process but the twins' launches: {report['cpu_seconds']:.1f}")


def print_json(data: object) -> None:

    """Print ``data`` as JSON on stdout (NaN and infinities as null: valid JSON)."""
    sys.stdout.write(json.dumps(_finite(data), indent=2, allow_nan=False) + "\n")


def _finite(data: object) -> object:
    """Return ``data`` with every float that JSON cannot hold (NaN, infinities) as None."""
    if isinstance(data, float):
        return data if data == data and abs(data) != float("inf") else None
    if isinstance(data, dict):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_finite(v) for v in data]
    return data


def check_outputs(*paths: tuple[str | Path | None, str]) -> None:
    """Check, before any work, that every (path, what) the user named can be written."""
    from ..core.outputs import check_output

    for path, what in paths:
        if path is not None:
            check_output(path, what)


def load_matrix(game: str, length: int | None, colours: int | None, guesses: str | None,
                answers: str | None, backend: str | None, jotto_order: str = "sorted",
                repeats: bool | None = None, black_only: bool = False, fits: Any = None):
    """Return the pattern matrix for the command-line choice of game, lists and backend, with a
    progress line while a large one is built; ``fits(game, guesses, answers)`` first checks, from
    the lists' sizes alone, that what the command will do with it fits (it raises if not)."""
    from ..core.games import make_game
    from ..core.patterns import list_sizes, pattern_matrix
    from ..search.plumbing import Progress

    spec = make_game(game, length, colours, repeats, black_only)
    if fits is not None:
        fits(spec, *list_sizes(spec, guesses, answers, jotto_order))
    with ProgressDisplay(True) as display:
        def rows(done: int, total: int) -> None:
            display(Progress("pattern matrix rows", done, total))

        return pattern_matrix(spec, guesses, answers, backend, jotto_order=jotto_order, progress=rows)
