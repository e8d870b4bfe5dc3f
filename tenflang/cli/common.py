"""What every command shares: error reporting, exit codes, atomic output.

Exit codes (DESIGN.md §4): 0 success; 1 a run that failed (diverged,
interrupted, I/O); 2 bad input or usage.  A `TenflangError` is printed as its
rendered message on stderr, with no traceback; anything else escaping is a bug
and keeps its traceback.
"""
from __future__ import annotations

import functools
import sys

import click

from ..errors import TenflangError
from ..files import write_atomically


def reports_errors(command):
    """Wrap a click callback so a TenflangError becomes a message and an exit code."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except TenflangError as err:
            click.echo(err.render(), err=True)
            sys.exit(err.exit_code)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(1)
        except BrokenPipeError:
            sys.exit(1)
    return wrapper


def write_output(path: str | None, text: str) -> None:
    """Write `text` to stdout, or atomically to `path`."""
    if path is None or path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomically(path, text)


# options shared by the commands that compute
device_option = click.option(
    "--device", type=click.Choice(["auto", "cpu", "gpu"]), default=None,
    help="Where to compute (default: $TENFLANG_DEVICE or auto).")
dtype_option = click.option(
    "--dtype", type=click.Choice(["float64", "float32"]), default="float64", show_default=True)
