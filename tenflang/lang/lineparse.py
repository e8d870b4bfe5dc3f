"""The parser's line lane: a program read a line at a time, most lines by one
regular expression.

Outside a macro a statement is one line (the grammar has no line
continuation), and nearly every line of a long program is
`declare <kind> <name> [shape]` or `define <name> = <op> <names and numbers>`.
`parse_lines` reads such a line with one regular expression built from the
grammar's own terminals (`lexical`), each token an atomic group so that it
matches exactly what lark's lexer takes there (`inputx` is one name, never
`input` and `x`), and makes the syntax tree `syntax.ToAst` makes, positions
included.  Any other `declare`/`define` line (a nested expression, a shape
literal) is read by `fastparse` alone, numbered as in the text.  A program with
a macro, or a line this lane cannot read, is left to the lanes after it:
`parse_lines` returns None, or raises `Fallback` (bad input, which lark then
reports).

Conventions: lines end at '\\n' only and positions count from 1, as lark's
lexer counts them; a comment runs to the end of its line.
"""
from __future__ import annotations

import math
import re

from .ast import Declare, Define, Num, Pos, Var
from .fastparse import Fallback
from .lexical import NAME, NUMBER, grammar_text, terminal

GRAMMAR = grammar_text()
KEYWORD = {word: terminal(f"_{word.upper()}", GRAMMAR) for word in ("declare", "define", "macro")}
WS = r"[\t \f\r]*"                       # the grammar's %ignore, newlines aside
TAIL = rf"{WS}(?:#[^\n]*)?"
DECLARE = re.compile(
    rf"{WS}{KEYWORD['declare']}{WS}(?>({NAME})){WS}(?>({NAME}))"
    rf"(?:{WS}(\[){WS}((?>[0-9]+){WS}(?:,{WS}(?>[0-9]+){WS})*)?\])?{TAIL}")
DEFINE = re.compile(rf"{WS}{KEYWORD['define']}{WS}(?>({NAME})){WS}={WS}"
                    rf"(?>(?:({NAME})|({NUMBER})))")
OPERAND = re.compile(rf"{WS}(?>(?:({NAME})|({NUMBER})))")
END = re.compile(TAIL)
STATEMENT = re.compile(rf"{WS}(?:{KEYWORD['declare']}|{KEYWORD['define']})")
MACRO = re.compile(rf"(?m)^{WS}{KEYWORD['macro']}")
DIGITS = re.compile("[0-9]+")


def parse_lines(text: str, fast) -> tuple | None:
    """The statements of `text` (see the module docstring); `fast` is the
    `fastparse.FastParser` for the lines this lane does not read itself."""
    if MACRO.search(text):
        return None
    statements: list = []
    for number, line in enumerate(text.split("\n"), 1):
        found = declare(line, number) or define(line, number)
        if found is not None:
            statements.append(found)
        elif STATEMENT.match(line):
            statements.extend(fast.parse(line + "\n", number))
        elif not END.fullmatch(line):
            raise Fallback
    return tuple(statements)


def declare(line: str, number: int) -> Declare | None:
    found = DECLARE.fullmatch(line)
    if found is None:
        return None
    shape = None if found.group(3) is None else tuple(map(int, DIGITS.findall(found.group(4) or "")))
    return Declare(found.group(1), found.group(2), shape, Pos(number, found.start(1) + 1),
                   Pos(number, found.start(2) + 1))


def define(line: str, number: int) -> Define | None:
    found = DEFINE.match(line)
    if found is None:
        return None
    operands, at = [], found.end()
    while (operand := OPERAND.match(line, at)) is not None:
        operands.append(leaf(operand, number))
        at = operand.end()
    if not END.fullmatch(line, at):
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
    (a number) hold, as `syntax.ToAst.operand` makes it."""
    text = found.group(group)
    if text is not None:
        return Var(text, Pos(number, found.start(group) + 1))
    text = found.group(group + 1)
    value = float(text)
    if not math.isfinite(value):
        raise Fallback                  # lark reports it (`syntax.number`)
    return Num(value, Pos(number, found.start(group + 1) + 1), text)
