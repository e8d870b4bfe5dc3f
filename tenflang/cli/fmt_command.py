"""`tenflang fmt FILE... [--check]` — rewrite TenFlang programs in the canonical
layout (see `tenflang.fmt`).

A directory stands for every `*.tf` file under it; `-` formats standard input
to standard output.  Files are rewritten atomically, and only when their text
changes (each one is named on stderr).  `--check` writes nothing: it lists on
stdout the files that would change and exits 1 if there are any.  `--fix`
also adds each missing intvar declaration (its shape inferred) before the
definition that needs it, and names each one on stderr.  A file with
a syntax error gets the usual error message and is left untouched; the other
files are still formatted, and the exit status is 2.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from tenflang.base.errors import TenflangError, printable
from tenflang.base.outputs import write_file
from tenflang.base.inputs import read_stdin
from tenflang.lang import decode_source
from .common import say
from tenflang.lang.formatter import fixed_source, format_file


def expand_paths(paths) -> list[str]:
    out = []
    for path in paths:
        if path != "-" and Path(path).is_dir():
            out += sorted(str(p) for p in Path(path).rglob("*.tf") if p.is_file())
        else:
            out.append(path)
    return out


def format_stdin(check: bool, added: list | None) -> bool:
    text = decode_source(read_stdin("program"), "<stdin>")
    new = fixed_source(text, "<stdin>", added)
    if not check:
        write_file(None, new)
    return new != text


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("files", metavar="FILE...", nargs=-1, required=True,
                type=click.Path(allow_dash=True))
@click.option("--check", is_flag=True, help="Write nothing; list the files that would change "
              "and exit 1 if there are any.")
@click.option("--fix", is_flag=True, help="Also add every missing 'declare intvar' line, its "
              "shape inferred, and say what was added.")
def fmt_command(files, check, fix):
    """Format TenFlang programs in place: single spaces, aligned declarations,
    comments kept, macro bodies indented.  A directory means every *.tf file
    under it; - reads standard input and writes standard output."""
    status = 0
    for path in expand_paths(files):
        added = [] if fix else None
        try:
            changed = (format_stdin(check, added) if path == "-"
                       else format_file(path, check, added))
        except TenflangError as err:
            click.echo(err.render(), err=True)
            status = max(status, err.exit_code)
            continue
        report_added(path, added or [], check)
        if changed and check:
            click.echo(printable(path))
            status = max(status, 1)
        elif changed and path != "-":
            say(f"reformatted {path}")
    sys.exit(status)


def report_added(path: str, added: list, check: bool) -> None:
    """One line per declaration --fix added (or, with --check, would add)."""
    name = "<stdin>" if path == "-" else path
    verb = "would add" if check else "added"
    for line, declaration in added:
        say(f"{name}: {verb} '{declaration}' before line {line}")
