"""The one error root of TenFlang.

Every failure caused by the user's input (a program, a data file, an option)
is a `TenflangError`.  It carries where the problem is (file, 1-based line and
column) and renders as a compiler-style message:

    shape.tf:9:17: error: 'q' is used before it is defined
        define o = add q w
                       ^

Notes (for example the call site of a macro expansion) render after it in the
same form.  The command-line tools catch only this class, print `render()` and
exit with status 2; anything else escaping is a bug.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    file: str | None = None
    line: int | None = None
    column: int | None = None
    source_line: str | None = None

    def prefix(self) -> str:
        if self.file is None and self.line is None:
            return ""
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def excerpt(self) -> str:
        if self.source_line is None:
            return ""
        text = self.source_line.rstrip("\r\n").replace("\t", " ")
        caret = " " * (max(self.column or 1, 1) - 1) + "^"
        return f"\n    {text}\n    {caret}"


class TenflangError(Exception):
    """Bad user input: a message plus where it happened and optional notes."""

    def __init__(self, message: str, location: Location | None = None,
                 notes: tuple[tuple[str, Location], ...] = (), exit_code: int = 2):
        super().__init__(message)
        self.message = message
        self.location = location or Location()
        self.notes = tuple(notes)
        self.exit_code = exit_code

    def render(self) -> str:
        lines = [f"{lead(self.location)}error: {self.message}{self.location.excerpt()}"]
        for text, where in self.notes:
            lines.append(f"{lead(where)}note: {text}{where.excerpt()}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


class RunFailure(TenflangError):
    """A run that failed for a reason other than bad input (diverged, interrupted,
    I/O): the command-line tools exit with status 1."""

    def __init__(self, message: str, location: Location | None = None):
        super().__init__(message, location, exit_code=1)


def lead(where: Location) -> str:
    prefix = where.prefix()
    return f"{prefix}: " if prefix else ""


def source_line(text: str, line: int) -> str | None:
    """The 1-based `line` of `text`, or None when out of range.  Lines end at
    '\n' only, as the lexer counts them (not at form feeds, U+2028, ...)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines[line - 1] if 1 <= line <= len(lines) else None
