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

Rendering is the one place where user text reaches the terminal, so it is made
safe here (`printable`): control characters (ESC, BEL, the C1 range, ...) are
shown escaped (`\x1b`), never sent raw; a quoted token is cut to
`limits.MAX_QUOTED_CHARS` and a source line to a window of
`limits.MAX_EXCERPT_CHARS` around its caret, so a 50 MB line gives a short
message.
"""
from __future__ import annotations

import re

from .frozen import frozen
from . import limits

# patterns compiled on first use (re's cache): a run that reports nothing pays nothing
_CONTROL = r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
# a quoted token: no blanks inside (prose between two quoted words has some)
_LONG_QUOTE = r"'([^'\s]{%d,})'" % (limits.MAX_QUOTED_CHARS + 1)


def printable(text: str) -> str:
    """`text` safe for a terminal: control and bidirectional-override characters
    written as escapes (`\x1b`, `\u202e`); tabs kept."""
    return re.sub(_CONTROL, lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def text_of_path(path: str) -> str:
    """A file name as text any UTF-8 writer takes (a DOT file, an ONNX graph's
    name): bytes of the name that are not UTF-8, which Python holds as lone
    surrogates, written as escapes (`sh\\xff.tf`)."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def shorten(message: str) -> str:
    """`message` with each quoted token longer than MAX_QUOTED_CHARS cut."""
    keep = limits.MAX_QUOTED_CHARS
    return re.sub(_LONG_QUOTE, lambda m: f"'{m.group(1)[:keep]}...' ({len(m.group(1))} characters)",
                  message)


def window(line: str, column: int) -> tuple[str, int]:
    """(the part of `line` shown, the caret's column in it): at most
    MAX_EXCERPT_CHARS characters around `column`, "..." marking a cut."""
    width = limits.MAX_EXCERPT_CHARS
    if len(line) <= width:
        return line, column
    start = max(0, min(column - 1 - width // 2, len(line) - width))
    head = "..." if start else ""
    tail = "..." if start + width < len(line) else ""
    return head + line[start:start + width] + tail, column - start + len(head)


@frozen
class Location:
    file: str | None = None
    line: int | None = None
    column: int | None = None
    source_line: str | None = None

    def prefix(self) -> str:
        if self.file is None and self.line is None:
            return ""
        parts = [printable(self.file or "<input>")]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def excerpt(self) -> str:
        if self.source_line is None:
            return ""
        text = self.source_line.rstrip("\r\n").replace("\t", " ")
        text, column = window(text, max(self.column or 1, 1))
        column = len(printable(text[:column - 1])) + 1      # escapes widen what precedes
        caret = " " * (column - 1) + "^"
        return f"\n    {printable(text)}\n    {caret}"


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
        lines = [f"{lead(self.location)}error: {safe(self.message)}{self.location.excerpt()}"]
        for text, where in self.notes:
            lines.append(f"{lead(where)}note: {safe(text)}{where.excerpt()}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


class RunFailure(TenflangError):
    """A run that failed for a reason other than bad input (diverged, interrupted,
    I/O): the command-line tools exit with status 1."""

    def __init__(self, message: str, location: Location | None = None):
        super().__init__(message, location, exit_code=1)


def safe(message: str) -> str:
    message = shorten(message)
    if len(message) > limits.MAX_MESSAGE_CHARS:
        message = message[:limits.MAX_MESSAGE_CHARS] + f"... ({len(message)} characters)"
    return printable(message)


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
