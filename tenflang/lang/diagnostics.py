"""Building located errors from syntax-tree positions.

An error in a statement that came from a macro expansion points at the macro
body line and adds one note per call site, innermost first; a call made by a
step of a `fold`/`scan` is noted at that line with its step number.
"""
from __future__ import annotations

from tenflang.base.errors import Location, TenflangError, source_line
from .syntax_tree import Pos, Program, Step


def location(program: Program, pos: Pos | None) -> Location:
    if pos is None:
        return Location(program.filename)
    return Location(program.filename, pos.line, pos.column, source_line(program.source, pos.line))


def error_at(program: Program, pos: Pos | None, message: str, origin=()) -> TenflangError:
    notes = tuple(note(program, site) for site in origin)
    return TenflangError(message, location(program, pos), notes)


def note(program: Program, site: Pos | Step) -> tuple[str, Location]:
    if isinstance(site, Step):
        return f"in step {site.step} of this {site.loop}", location(program, site.pos)
    return "in the expansion of this macro call", location(program, site)
