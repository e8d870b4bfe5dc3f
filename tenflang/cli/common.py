"""What every command shares: error reporting, exit codes, output.

Exit codes (docs/design.md §4): 0 success; 1 a run that failed (diverged,
interrupted, I/O); 2 bad input or usage.  A `TenflangError` is printed as its
rendered message on stderr, with no traceback; so is running out of memory
(exit 1), also when a cleanup failed after it and raised something else;
anything else escaping is a bug and keeps its traceback.  A bad value of
one of TenFlang's environment variables is bad input too.  SIGTERM and
SIGHUP are answered as Ctrl-C is (`terminate_as_interrupt`).
"""
from __future__ import annotations

import contextlib
import functools
import math
import sys
import threading

import click

from . import OUT_OF_MEMORY
from tenflang.base import stopping
from tenflang.native import switches
from tenflang.base.errors import TenflangError, printable
from tenflang.base.dtypes import DTYPES
from tenflang.base.outputs import check_outputs, silence, write_file  # noqa: F401 (check_outputs: commands)


def reports_errors(command):
    """Wrap a click callback so a TenflangError becomes a message and an exit code."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        stderr, sys.stderr = sys.stderr, ForgivingStream(sys.stderr)
        try:
            with terminate_as_interrupt():
                if problem := switches.environment_problem():
                    raise TenflangError(problem)
                return command(*args, **kwargs)
        except TenflangError as err:
            click.echo(err.render(), err=True)
            sys.exit(err.exit_code)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(1)
        except MemoryError:
            out_of_memory()
        except BrokenPipeError:
            sys.exit(1)
        except Exception as err:
            if any(isinstance(e, MemoryError) for e in chain(err)):
                out_of_memory()       # a cleanup that failed after it (a half-closed file)
            raise
        finally:
            sys.stderr = stderr
    return wrapper


class ForgivingStream:
    """Standard error as the commands write to it: progress, epoch lines and
    messages must never stop a run nor cost its weights, so a stream that
    fails (its reader gone, a full disk) or is closed (`2>&-`) takes the rest
    of the run's text silently."""

    def __init__(self, stream):
        self.stream = stream.stream if isinstance(stream, ForgivingStream) else stream

    def write(self, text: str) -> int:
        self.attempt("write", text)
        return len(text)

    def flush(self) -> None:
        self.attempt("flush")

    def isatty(self) -> bool:
        return bool(self.attempt("isatty"))

    def attempt(self, method: str, *args):
        try:
            return self.stream is not None and getattr(self.stream, method)(*args)
        except (OSError, ValueError):        # ValueError: a closed file
            silence(self.stream)             # what it still buffers must not fail at exit
            self.stream = None

    def __getattr__(self, name):             # encoding, errors, fileno: click and tqdm ask
        return getattr(self.stream if self.stream is not None else sys.__stderr__, name)


@contextlib.contextmanager
def terminate_as_interrupt():
    """SIGINT, SIGTERM and SIGHUP raise KeyboardInterrupt while the command
    runs (the launchers leave SIGINT at its default while they start): every
    phase ends the same way on each (its cleanup runs, exit 1).  Only the
    first does: later ones change nothing, and are ignored once the command
    has answered, so that the process exits 1, never by the signal (`stopping`)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = stopping.install(stopping.interrupt_once)
    try:
        yield
    finally:
        stopping.restore(old)


def chain(err: BaseException):
    """`err` and the exceptions it was raised while handling, innermost last."""
    seen = set()
    while err is not None and id(err) not in seen:
        seen.add(id(err))
        yield err
        err = err.__cause__ or err.__context__


def out_of_memory():
    click.echo(OUT_OF_MEMORY, err=True)
    sys.exit(1)


def say(text: str) -> None:
    """A progress or warning line on stderr; user text in it (file names) is
    made safe for the terminal (`errors.printable`)."""
    click.echo(printable(text), err=True)


def write_output(path: str | None, text: str) -> None:
    """Write `text` to stdout (`path` None or "-") or to `path`, as `files.write_file`
    does: atomically for a regular file, through for a device or FIFO."""
    write_file(path, text)


class FiniteFloat(click.FloatRange):
    """A FloatRange that also refuses NaN and infinity (which compare false with
    every bound and would slip through): a usage error, exit 2."""
    name = "finite float"

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


# options shared by the commands that compute
device_option = click.option(
    "--device", type=click.Choice(["auto", "cpu", "gpu"]), default=None,
    help="Where to compute (default: $TENFLANG_DEVICE or auto).")
dtype_option = click.option(
    "--dtype", type=click.Choice(DTYPES), default=DTYPES[0], show_default=True)
