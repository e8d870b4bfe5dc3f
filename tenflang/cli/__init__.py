"""Command-line tools: `tfcompiler`, `tfweightcalc`, `tfevaluate` (the original design's
names) and the `tenflang` group gathering them with `check`, `shard` and friends.
Each command is a thin wrapper over the Python API, in its own module, imported
only when that command runs (start-up pays for what a run uses).  Ctrl-C,
SIGTERM or SIGHUP while those modules load ends the process at once, exit 1,
with one line "interrupted" (`quiet_interrupts`): there is nothing to clean up yet;
so does running out of memory, with the line every command prints for it.

Start-up (bench/results_startup.md): the collector is off while a command's
modules load (they make only long-lived objects: collecting is wasted work);
at exit it is frozen, so the interpreter's last collection does not walk every
object of the process only to free them (`gc.freeze`; the handlers registered
later, which run first, still see a whole interpreter); numpy's OpenBLAS threads
sleep as soon as they are idle (`OPENBLAS_THREAD_TIMEOUT`, set as the `tenflang`
package loads, before numpy: tenflang/native/blas_threads.py)."""
import atexit
import contextlib
import gc
import importlib
import os
import sys
import threading

import click

from tenflang.base import stopping
from tenflang.base.gc_pause import paused_gc

atexit.register(gc.freeze)      # see the module docstring

# subcommand -> (module, click command); the three tf* names are the same objects
COMMANDS = {
    "compile": ("compile_command", "tfcompiler"),
    "train": ("train_command", "tfweightcalc"),
    "evaluate": ("evaluate_command", "tfevaluate"),
    "check": ("compile_command", "check_command"),
    "fmt": ("fmt_command", "fmt_command"),
    "plan": ("plan_command", "plan_command"),
    "shard": ("shard_command", "shard_command"),
    "export": ("export_command", "export_command"),
}
_TOOLS = {"tfcompiler": "compile", "tfweightcalc": "train", "tfevaluate": "evaluate"}


# the one line a command prints when memory runs out (also while its modules load)
OUT_OF_MEMORY = ("error: out of memory: the data, the program or its tensors are larger "
                 "than this machine's memory (training: try --batch-size; or smaller shapes)")


def _command(name: str) -> click.Command:
    module, attr = COMMANDS[name]
    with quiet_interrupts(), paused_gc():
        try:
            return getattr(importlib.import_module(f".{module}", __name__), attr)
        except MemoryError:         # too little left to load the command: no traceback
            os.write(2, OUT_OF_MEMORY.encode() + b"\n")
            sys.exit(1)


def _quit(signum, frame):
    os.write(2, b"interrupted\n")
    os._exit(1)


@contextlib.contextmanager
def quiet_interrupts():
    """Within (in the main thread): SIGINT, SIGTERM and SIGHUP end the process, exit 1."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = stopping.install(_quit)
    try:
        yield
    finally:
        stopping.restore(old)


class LazyGroup(click.Group):
    """A group whose subcommands' modules load when the subcommand is asked for."""

    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        return _command(name) if name in COMMANDS else None


def show_version(ctx, param, value):
    """--version: click's own looks the version up by package name, and ended in a
    traceback where TenFlang runs from a source tree."""
    if value and not ctx.resilient_parsing:
        from tenflang.base.version import version
        click.echo(f"tenflang, version {version()}")
        ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=show_version, help="Show the version and exit.")
def main():
    """TenFlang: compile, train and evaluate straight-line tensor programs."""


def __getattr__(name: str):
    """`tenflang.cli.tfweightcalc` and friends (the console entry points), loaded on use."""
    if name in _TOOLS:
        return _command(_TOOLS[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["main", "tfcompiler", "tfweightcalc", "tfevaluate"]
