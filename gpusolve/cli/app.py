"""The Typer application, its shared options, and the boundary where errors become one line."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from typer.core import TyperGroup

from ..core.errors import GpusolveError

try:  # newer Typer runs on its own copy of click
    from typer._click.exceptions import NoArgsIsHelpError, UsageError
except ImportError:  # pragma: no cover - older Typer runs on click itself
    from click.exceptions import NoArgsIsHelpError, UsageError


def _fail(message: str) -> None:
    """Print one ``error:`` line on stderr and exit with code 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2) from None


def _usage(e: UsageError) -> None:
    """Fail with a usage error (unknown option, bad value, missing argument) as one line."""
    where = f" (see '{e.ctx.command_path} --help')" if e.ctx is not None else ""
    _fail(f"{e.format_message()}{where}")


class _Group(TyperGroup):
    """A command group that turns a GpusolveError or a usage error into one line on stderr and
    exit code 2."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except NoArgsIsHelpError:
            raise
        except UsageError as e:
            _usage(e)

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except GpusolveError as e:
            _fail(str(e))
        except NoArgsIsHelpError:
            raise
        except UsageError as e:
            _usage(e)
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            raise typer.Exit(130) from None


app = typer.Typer(
    cls=_Group,
    help="Exhaustive search for Wordle-family games (and War) on GPU or CPU.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

console = Console(highlight=False)

Game = Annotated[str, typer.Option("--game", help="wordle, jotto or mastermind.")]
Length = Annotated[
    int | None, typer.Option("--length", help="Letters per word, or pegs [default: 5; mastermind 4]")
]
Colours = Annotated[int, typer.Option("--colours", help="Mastermind colours.")]
Guesses = Annotated[
    str | None,
    typer.Option("--guesses", help="Guess list: answers, answers-2315, allowed, sgb, or a file. "
                 "[default: the game's own]"),
]
Answers = Annotated[
    str | None,
    typer.Option("--answers", help="Answer list: answers, answers-2315, allowed, sgb, or a file. "
                 "[default: the game's own]"),
]
Backend = Annotated[
    str | None,
    typer.Option("--backend", help="auto, cpu or cuda [default: $GPUSOLVE_BACKEND or auto]"),
]
Json = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
OUT_HELP = ("Write the tree here: JSON (gpusolve-tree/1); a .html name gets the explorer page, "
            "a .tree or .txt name the published text layout.")
TreeFormat = Annotated[str | None, typer.Option(
    "--format", help="The tree file's format: json, text (the published layout, hollow), text-full, "
    "html (a self-contained explorer page). Default: by the file name, else json.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")]


def print_json(data: object) -> None:
    """Print ``data`` as JSON on stdout."""
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def load_matrix(game: str, length: int, colours: int, guesses: str | None, answers: str | None,
                backend: str | None, jotto_order: str = "sorted"):
    """Return the pattern matrix for the command-line choice of game, lists and backend."""
    from ..core.games import make_game
    from ..core.patterns import pattern_matrix

    return pattern_matrix(make_game(game, length, colours), guesses, answers, backend,
                          jotto_order=jotto_order)
