"""The parser's line lane: a program read a line at a time, most lines by one
regular expression.

Outside a macro a statement is one line (the grammar has no line
continuation), and nearly every line of a long program is
`declare <kind> <name> [shape]` or `define <name> = <op> <names and numbers>`.
`parse_lines` reads such a line with one regular expression built from the
grammar's own terminals (`lexical`), each token an atomic group so that it
matches exactly what lark's lexer takes there (`inputx` is one name, never
`input` and `x`), and makes the syntax tree `treebuild.AstBuilder` makes, positions
included.  Any other `declare`/`define` line (a nested expression, a shape
literal) is read by `fastparse` alone, numbered as in the text.  A program with
a macro, or a line this lane cannot read, is left to the lanes after it:
`parse_lines` returns None, or raises `Fallback` (bad input, which lark then
reports).

Conventions: lines end at '\\n' only and positions count from 1, as lark's
lexer counts them; a comment runs to the end of its line.
"""
from __future__ import annotations

import functools
import math
import re

from .syntax_tree import Declare, Define, Num, Pos, Var
from .fastparse import Fallback
from .lexical import NAME, NUMBER, grammar_text, terminal

WS = r"[\t \f\r]*"                       # the grammar's %ignore, newlines aside
TAIL = rf"{WS}(?:#[^\n]*)?"
DIGITS = re.compile("[0-9]+")


class Patterns:
    """The lane's regular expressions (attributes, named for what they match)."""

    def __init__(self, declare, define, operand, end, statement, macro):
        self.declare = declare          # a whole declaration: kind, name, '[', the dimensions
        self.define = define            # a definition's head: name, the op's name or a number
        self.operand = operand          # the next operand: a name or a number
        self.end = end                  # nothing left but spaces and a comment
        self.statement = statement      # a line starting a declaration or a definition
        self.macro = macro              # a line starting a macro


@functools.cache
def patterns() -> Patterns:
    """Compiled at the first parse, not at import (start-up time)."""
    grammar = grammar_text()
    declare, define, macro = (terminal(t, grammar) for t in ("_DECLARE", "_DEFINE", "_MACRO"))
    return Patterns(
        re.compile(rf"{WS}{declare}{WS}(?>({NAME})){WS}(?>({NAME}))"
                   rf"(?:{WS}(\[){WS}((?>[0-9]+){WS}(?:,{WS}(?>[0-9]+){WS})*)?\])?{TAIL}"),
        re.compile(rf"{WS}{define}{WS}(?>({NAME})){WS}={WS}(?>(?:({NAME})|({NUMBER})))"),
        re.compile(rf"{WS}(?>(?:({NAME})|({NUMBER})))"),
        re.compile(TAIL), re.compile(rf"{WS}(?:{declare}|{define})"),
        re.compile(rf"(?m)^{WS}{macro}"))


def parse_lines(text: str, fast) -> tuple | None:
    """The statements of `text` (see the module docstring); `fast` is the
    `fastparse.FastParser` for the lines this lane does not read itself."""
    known = patterns()
    if known.macro.search(text):
        return None
    statements: list = []
    for number, line in enumerate(text.split("\n"), 1):
        found = declare(known, line, number) or define(known, line, number)
        if found is not None:
            statements.append(found)
        elif known.statement.match(line):
            statements.extend(fast.parse(line + "\n", number))
        elif not known.end.fullmatch(line):
            raise Fallback
    return tuple(statements)


def declare(known: Patterns, line: str, number: int) -> Declare | None:
    found = known.declare.fullmatch(line)
    if found is None:
        return None
    shape = None if found.group(3) is None else tuple(map(int, DIGITS.findall(found.group(4) or "")))
    return Declare(found.group(1), found.group(2), shape, Pos(number, found.start(1) + 1),
                   Pos(number, found.start(2) + 1))


def define(known: Patterns, line: str, number: int) -> Define | None:
    found = known.define.match(line)
    if found is None:
        return None
    operands, at = [], found.end()
    while (operand := known.operand.match(line, at)) is not None:
        operands.append(leaf(operand, number))
        at = operand.end()
    if not known.end.fullmatch(line, at):
        return None
    name, target = found.group(1), Pos(number, found.start(1) + 1)
    head = leaf(found, number, 2)
    if isinstance(head, Num):
        return None if operands else Define(name, "copy", (head,), target, head.pos)
    if not operands:
        return Define(name, "copy", (head,), target, head.pos)
    return Define(name, head.name, tuple(operands), target, head.pos)


def leaf(found, number: int, group: int = 1) -> Var | Num:
    """The name or number a match's groups `group` (a name) or `group + 1`
    (a number) hold, as `treebuild.AstBuilder.operand` makes it."""
    text = found.group(group)
    if text is not None:
        return Var(text, Pos(number, found.start(group) + 1))
    text = found.group(group + 1)
    value = float(text)
    if not math.isfinite(value):
        raise Fallback                  # lark reports it (`treebuild.number`)
    return Num(value, Pos(number, found.start(group + 1) + 1), text)
