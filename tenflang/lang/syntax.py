"""Text → syntax tree.  With `fastparse`, the only module that sees lark.

The grammar is `grammar/tenflang.lark` (installed as the package data
`tenflang.grammar`).  A lark `Transformer` runs inline with the LALR parser, so
no parse tree is built: tokens become frozen dataclasses from `ast` directly.
A valid program takes the line lane (`lineparse`: a regular expression per
simple line, `fastparse` for the others) or, with macros, the fast lane
(`fastparse`: lark's tables, a leaner loop); anything else is parsed by lark
itself, and its syntax errors become `TenflangError`s that say what was expected.
"""
from __future__ import annotations

import functools
import math
import os
import re

import lark
from lark import Transformer, v_args

from .. import limits
from ..errors import Location, TenflangError, source_line
from ..files import cache_dir
from ..gcpause import paused_gc
from .ast import Declare, Define, Dims, Expr, Macro, Num, Pos, Program, Var
from .fastparse import Fallback, FastParser
from .lineparse import parse_lines
from .lexical import grammar_text

READABLE = {
    "NAME": "a name", "NUMBER": "a number", "INT": "an integer", "_NL": "end of line",
    "EQUAL": "'='", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','",
    "ARROW": "'->'",
    "_DECLARE": "'declare'", "_DEFINE": "'define'", "_MACRO": "'macro'", "_END": "'end'",
    "$END": "end of file",
}
INTEGER = re.compile(r"[+-]?[0-9]+")


def pos(token) -> Pos:
    return Pos(token.line, token.column)


class BadToken(Exception):
    """A token that lexes but means nothing (`1e999`); see `parse_source`."""

    def __init__(self, token, message: str):
        super().__init__(message)
        self.token, self.message = token, message


def number(token) -> Num:
    value = float(token)
    if not math.isfinite(value):
        raise BadToken(token, f"number '{token}' is out of range (not a finite float)")
    return Num(value, pos(token), str(token))


def dimension(token) -> int:
    if not INTEGER.fullmatch(token):
        raise BadToken(token, f"'{token}' in a shape literal: an integer is required")
    return int(token)


@v_args(inline=True)
class ToAst(Transformer):
    def program(self, *statements):
        return tuple(statements)

    def shape(self, *dims):
        return tuple(int(d) for d in dims if d is not None)

    def declare(self, kind, name, shape=None):
        return Declare(str(kind), str(name), shape, pos(kind), pos(name))

    def apply(self, name, op, *operands):
        if not operands:
            return Define(str(name), "copy", (Var(str(op), pos(op)),), pos(name), pos(op))
        return Define(str(name), str(op), operands, pos(name), pos(op))

    def constant(self, name, value):
        return Define(str(name), "copy", (number(value),), pos(name), pos(value))

    def operand(self, token):
        if isinstance(token, (Dims, Expr)):
            return token
        return Var(str(token), pos(token)) if token.type == "NAME" else number(token)

    def dims(self, bracket, *tokens):
        values = tuple(dimension(t) for t in tokens if t is not None and t.type == "NUMBER")
        return Dims(values, pos(bracket))

    def nested(self, paren, op, *operands):
        depth = 1 + max((o.depth for o in operands if isinstance(o, Expr)), default=0)
        if depth > limits.MAX_NESTING:
            raise BadToken(paren, f"expression nested deeper than {limits.MAX_NESTING} "
                           "parentheses; split it into several definitions")
        return Expr(str(op), operands, pos(paren), pos(op), depth)

    def params(self, *names):
        return tuple(map(str, names))

    def body(self, *statements):
        return statements

    def macro(self, name, params, arrow, result, body):
        return Macro(str(name), params, str(result), body, pos(name))


@functools.cache
def parser() -> lark.Lark:
    """The LALR parser; its tables are cached on disk (lark checks that the cache
    matches the grammar), which saves most of its construction at start-up."""
    cache = cache_dir()
    return lark.Lark(grammar_text(), start="program", parser="lalr", transformer=ToAst(),
                     maybe_placeholders=True,
                     cache=cache and os.path.join(cache, f"grammar-lark-{lark.__version__}.cache"))


@functools.cache
def fast_parser() -> FastParser | None:
    """The fast lane over `parser()`'s tables; None where this lark's internals
    are laid out otherwise (every program then takes lark's own path)."""
    try:
        return FastParser(parser())
    except (AttributeError, KeyError, TypeError, NotImplementedError):
        return None


def statements_of(text: str) -> tuple:
    """The statements of `text` (which ends in a newline): the line or the fast
    lane where they read the text, else lark, which raises the error the user sees."""
    fast = fast_parser()
    if fast is not None:
        try:
            statements = parse_lines(text, fast)
            return fast.parse(text) if statements is None else statements
        except (Fallback, BadToken):
            pass
    return parser().parse(text)


def parse_source(text: str, filename: str = "<input>") -> Program:
    """Parse TenFlang text into a `Program` (macros not yet expanded)."""
    try:
        with paused_gc():
            statements = statements_of(text if text.endswith("\n") else text + "\n")
    except lark.exceptions.UnexpectedInput as err:
        raise syntax_error(err, text, filename) from None
    except BadToken as err:
        line, column = err.token.line, err.token.column
        raise TenflangError(err.message,
                            Location(filename, line, column, source_line(text, line))) from None
    return Program(statements, filename, text)


MALFORMED_NUMBER = re.compile(r"[+-]?\.?\d[\w.+-]*")
MACRO_LINE = re.compile(r"[ \t\f]*(macro|end)\b[ \t\f]*([A-Za-z_]\w*)?")


def malformed_number(err, text: str) -> str | None:
    """The text of a number-like word the NUMBER terminal refused (`1.2.3`, `2x`)."""
    if isinstance(err, lark.exceptions.UnexpectedCharacters):
        start = err.pos_in_stream
    elif (isinstance(err, lark.exceptions.UnexpectedToken) and "NUMBER" in (err.expected or ())
          and err.token.type == "INT"):
        start = err.token.start_pos
    else:
        return None
    bad = MALFORMED_NUMBER.match(text, start) if isinstance(start, int) else None
    return bad.group() if bad else None


def open_macro(text: str, before_line: int | None = None) -> tuple[int, int, str] | None:
    """(line, column, name) of the macro still open at the end of `text` (or
    just before line `before_line`), if any."""
    found = None
    for number, line in enumerate(text.split("\n"), 1):
        if before_line is not None and number >= before_line:
            break
        head = MACRO_LINE.match(line)
        if head and head.group(1) == "macro":
            found = (number, head.start(1) + 1, head.group(2) or "?")
        elif head:
            found = None
    return found


def unbalanced(line: str) -> tuple[int, str] | None:
    """(column, message) of a parenthesis without its partner on a source line."""
    opened: list[int] = []
    for column, char in enumerate(line.split("#", 1)[0], 1):
        if char == "(":
            opened.append(column)
        elif char == ")" and not opened:
            return column, "')' closes no '(' (unbalanced parentheses)"
        elif char == ")":
            opened.pop()
    if opened:
        more = f" (and {len(opened) - 1} before it)" if len(opened) > 1 else ""
        return opened[-1], f"'(' is never closed{more}: ')' expected before the end of the line"
    return None


def parenthesis_error(err, text: str, line: int):
    """A located message for unbalanced parentheses, where they caused `err`."""
    token = getattr(err, "token", None)
    if token is None or token.type not in ("_NL", "$END", "RPAR"):
        return None
    return unbalanced(source_line(text, line) or "")


def expected_words(expected) -> str:
    words = sorted({READABLE.get(e, f"'{e.lower()}'") for e in expected})
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def syntax_error(err, text: str, filename: str) -> TenflangError:
    line, column = getattr(err, "line", None), getattr(err, "column", None)
    if not isinstance(line, int) or line < 1:
        line = text.count("\n") + (not text.endswith("\n")) or 1
        column = len(source_line(text, line) or "") + 1
    bad = malformed_number(err, text)
    parenthesis = parenthesis_error(err, text, line)
    if bad:
        message = f"malformed number '{bad}'"
    elif parenthesis:
        column, message = parenthesis
    elif isinstance(err, lark.exceptions.UnexpectedCharacters):
        message = f"unexpected character {text[err.pos_in_stream]!r}"
    elif (isinstance(err, lark.exceptions.UnexpectedToken) and err.token.type == "$END"
          and "_END" in err.expected and open_macro(text)):
        line, column, name = open_macro(text)
        message = f"macro '{name}' is never closed: 'end' expected before the end of the file"
    else:
        token = err.token if isinstance(err, lark.exceptions.UnexpectedToken) else None
        found = "end of line" if token is None or token.type in ("_NL", "$END") else repr(str(token))
        message = f"unexpected {found}"
        expected = set(getattr(err, "expected", None) or ())
        if "_END" in expected and not open_macro(text, line):
            expected.discard("_END")       # LALR merges states: 'end' only closes a macro
        if expected:
            message += f"; expected {expected_words(expected)}"
    return TenflangError(message, Location(filename, line, column, source_line(text, line)))
