"""Tokens → syntax tree: what each grammar rule of grammar/tenflang.lark builds.

`AstBuilder` has one method per rule of the grammar that makes a node; it is
called with the rule's children inline (tokens, and what the rules below
made), as lark's `v_args(inline=True)` calls a transformer.  The fast lane
(`fastparse`) calls it without lark; lark's own path (`larkpath`) wraps it in
a lark `Transformer`.  A token is anything `str`-like with `type`, `line` and
`column` (lark's `Token`, the fast lane's `FastToken`).  A value the language
refuses although it lexes (`1e999`, `[2.5]` as a shape) raises `BadToken`.
"""
from __future__ import annotations

import math
import re

from tenflang.base import limits
from .syntax_tree import Declare, Define, Dims, Expr, Init, Macro, Num, Pos, Var

INTEGER = re.compile(r"[+-]?[0-9]+")


def pos(token) -> Pos:
    return Pos(token.line, token.column)


class BadToken(Exception):
    """A token that lexes but means nothing (`1e999`); see `syntax.parse_source`."""

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


class AstBuilder:
    def program(self, *statements):
        return tuple(statements)

    def shape(self, *dims):
        """Integers; an axis naming a macro's parameter is a `Var` until the
        call gives it a number (macros.py)."""
        return tuple(Var(str(d), pos(d)) if d.type == "NAME" else int(d)
                     for d in dims if d is not None)

    def declare(self, kind, name, shape=None, init=None):
        if init is None:
            return Declare(str(kind), str(name), shape, pos(kind), pos(name))
        return Declare(str(kind), str(name), shape, pos(kind), pos(name), init=init)

    def init(self, first, *numbers):
        if first.type == "NUMBER":
            return Init("constant", (number(first),), pos(first))
        return Init(str(first), tuple(map(number, numbers)), pos(first))

    def apply(self, name, op, *operands):
        if not operands:
            return Define(str(name), "copy", (Var(str(op), pos(op)),), pos(name), pos(op))
        return Define(str(name), str(op), operands, pos(name), pos(op))

    def apply_many(self, targets, op, *operands):
        first, *more = targets
        return Define(str(first), str(op), operands, pos(first), pos(op), more=tuple(map(str, more)))

    def targets(self, *names):
        return names

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

    def results(self, *names):
        return tuple(map(str, names))

    def macro(self, name, params, arrow, results, body):
        return Macro(str(name), params, results[0], body, pos(name), more=results[1:])
