"""Building located errors from syntax-tree positions.

An error in a statement that came from a macro expansion points at the macro
body line and adds one note per call site, innermost first.
"""
from __future__ import annotations

from ..errors import Location, TenflangError, source_line
from .ast import Pos, Program


def location(program: Program, pos: Pos | None) -> Location:
    if pos is None:
        return Location(program.filename)
    return Location(program.filename, pos.line, pos.column, source_line(program.source, pos.line))


def error_at(program: Program, pos: Pos | None, message: str, origin=()) -> TenflangError:
    notes = tuple(("in the expansion of this macro call", location(program, site))
                  for site in origin)
    return TenflangError(message, location(program, pos), notes)
