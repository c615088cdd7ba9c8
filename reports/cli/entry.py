"""``rumsim``'s entry point: a user's mistake is one line on stderr and exit code 2, never a
traceback; a stop (Ctrl-C, SIGTERM) keeps what finished and exits with 130."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import typer

from engines._rules import RulesError
from reports.cli.answers import echo
from reports.cli.options import app
from simulate.errors import Interrupted, UserError

try:  # Typer >= 0.2x vendors click; older releases depend on it
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover
    from click import exceptions as click_errors


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; user mistakes become one line on stderr and exit code 2."""
    from simulate.runner import command_scope

    for stream in (sys.stdout, sys.stderr):
        # A console that cannot show a card suit or a dash gets a '?', not a traceback.
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    if sys.stdout is None:   # started with stdout closed (`rumsim games >&-`)
        return _fail("standard output is closed: there is nowhere to write the answer")
    threads = os.environ.get("NUMBA_NUM_THREADS")
    if threads is not None and not (threads.strip().isascii() and threads.strip().isdecimal()
                                    and int(threads) >= 1):
        # Numba would raise (0, negative) or print a warning and go on (junk) on first use
        return _fail(f"NUMBA_NUM_THREADS={threads[:40]!r} is not a number of threads (a whole "
                     "number from 1); unset it to use every core")
    command = typer.main.get_command(app)
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:  # a bare `rumsim`: what it can do, not an empty error
        argv = ["--help"]
    stop = None
    try:
        with command_scope() as stop:
            code = command.main(args=argv, prog_name="rumsim", standalone_mode=False)
            sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
        if stop.fault is not None:
            typer.echo(f"rumsim: error: {stop.fault}; what finished is kept and shown above",
                       err=True)
            return 1
        if stop.requested and not stop.changed_the_answer and code in (0, None):
            # The signal came after the last game: nothing was cut, the answer is whole.
            typer.echo("rumsim: the stop came after every game was played; the answer is "
                       "complete", err=True)
            return 0
        if stop.requested or code == 130:
            # The command kept and reported what finished; the exit code says it stopped.
            typer.echo("rumsim: interrupted", err=True)
            return 130
        if isinstance(code, int) and code:
            return code
    except Interrupted as exc:
        if stop is not None and stop.fault is not None:  # a lost cluster, not a signal
            typer.echo(f"rumsim: error: {stop.fault}; no answer was finished", err=True)
            return 1
        typer.echo(f"rumsim: interrupted: {exc}", err=True)
        return 130
    except (UserError, RulesError) as exc:
        return _fail(str(exc))
    except getattr(click_errors, "NoArgsIsHelpError", ()) as exc:
        # `rumsim plan`: the group's help (already printed when rich formats it), as a bare
        # `rumsim` gives its own; not a mistake.
        if exc.format_message().strip():
            echo(exc.format_message())
        return 0
    except click_errors.NoSuchOption as exc:
        hint = f" (did you mean {exc.possibilities[0]}?)" if exc.possibilities else ""
        return _fail(f"no such option {exc.option_name}{hint}")
    except click_errors.ClickException as exc:
        return _fail(" ".join(exc.format_message().split()))
    except (getattr(click_errors, "Abort", typer.Abort), typer.Abort):
        typer.echo("rumsim: interrupted", err=True)
        return 130
    except typer.Exit as exc:
        return exc.exit_code
    except BrokenPipeError:
        return _reader_gone()
    except SystemExit as exc:
        # Click turns a closed pipe into a silent exit(1); the reader having stopped reading
        # is not a failure of ours.
        if isinstance(exc.__context__, BrokenPipeError):
            return _reader_gone()
        raise
    except OSError as exc:
        # A fault while writing (a full disk, a vanished folder): one line; an older file of
        # that name is kept, since every file is written beside it and renamed at the end.
        from simulate.results import shown

        name = getattr(exc, "filename", None)  # a socket's error may carry an int here
        where = (f" {shown(Path(os.fsdecode(name)))}" if isinstance(name, (str, bytes, Path))
                 else " the output")
        typer.echo(f"rumsim: error: cannot write{where}: {exc.strerror or exc}", err=True)
        return 1
    except KeyboardInterrupt:
        typer.echo("rumsim: interrupted", err=True)
        return 130
    return 0


def _reader_gone() -> int:
    """`rumsim rules GAME | head -1`: the reader has what it wanted. Point stdout at /dev/null
    so that the interpreter's last flush does not complain either; exit quietly with 0."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno())
    except (OSError, AttributeError, ValueError):
        pass
    return 0


LONGEST_ERROR = 400  # characters of an error line: a 100 KB goal name is not echoed whole


def _fail(message: str) -> int:
    """One line on stderr (shortened in the middle when a user's text made it long), code 2."""
    line = " ".join(message.split("\n"))
    if len(line) > LONGEST_ERROR:
        cut = len(line) - LONGEST_ERROR
        line = f"{line[:LONGEST_ERROR - 100]} [...{cut:,} characters...] {line[-100:]}"
    if sys.stderr is not None:
        typer.echo(f"rumsim: error: {line}", err=True)
    return 2
