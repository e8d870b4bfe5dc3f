"""The TenFlang front end: text → checked, macro-expanded syntax tree.

    program = parse(text, "shape.tf")          # raises TenflangError
    shapes = check(program)                    # per-example shape of every name

Nothing outside this package sees lark.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import Location, TenflangError
from .ast import Comment, Declare, Define, Macro, Num, Pos, Program, Var
from .checks import check
from .macros import expand
from .printer import print_program
from .syntax import parse_source


def parse(text: str, filename: str = "<input>", shape_program: bool = False) -> Program:
    """Parse, expand macros and check a program; `shape_program` applies the
    extra rules for tfcompiler's input (see `checks.check`)."""
    program = expand(parse_source(text, filename))
    check(program, shape_program)
    return program


def read_source(path: str) -> str:
    try:
        return Path(path).read_text()
    except (OSError, UnicodeDecodeError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise TenflangError(f"cannot read program: {reason}", Location(path)) from None


def parse_file(path: str, shape_program: bool = False) -> Program:
    return parse(read_source(path), path, shape_program)


__all__ = ["parse", "parse_file", "parse_source", "expand", "check", "print_program",
           "Program", "Declare", "Define", "Macro", "Comment", "Var", "Num", "Pos"]
