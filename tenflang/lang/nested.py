"""Nested expressions (docs/design.md §2.4.1) lowered to one definition per op.

`define h = tanh (add (matmul W x) b)` becomes

    declare intvar h.1          define h.1 = matmul W x
    declare intvar h.2          define h.2 = add h.1 b
                                define h = tanh h.2

Inner results are intvars named `<target>.<k>`, numbered innermost first, in
the order they are computed; their shapes are inferred.  One `Namer` serves a
whole program, so a number is never given twice: when a macro call's nested
argument and a nested expression in the macro's body both ask for `h.1`, the
later takes the next free number.  Each generated line keeps the position of
its own op (errors point at its column) and the macro call sites of the line
it came from.  The passes here are loops over an explicit stack, and the
parser caps the depth (`limits.MAX_NESTING`).
"""
from __future__ import annotations

from dataclasses import replace

from tenflang.base.naming import Namer
from .syntax_tree import DeclKind, Declare, Define, Expr, Var


def nodes(define: Define):
    """Every `Expr` inside `define`'s operands (outermost first)."""
    stack = [o for o in reversed(define.operands) if isinstance(o, Expr)]
    while stack:
        expr = stack.pop()
        yield expr
        stack.extend(o for o in reversed(expr.operands) if isinstance(o, Expr))


def names_used(define: Define):
    """(name, position) of every variable `define` reads, nested ones included."""
    for operands in [define.operands, *(e.operands for e in nodes(define))]:
        for o in operands:
            if isinstance(o, Var):
                yield o.name, o.pos


def has_nested(define: Define) -> bool:
    return any(isinstance(o, Expr) for o in define.operands)


def lower(define: Define, namer: Namer) -> list:
    """`define` as declarations, then definitions, with no nested expression;
    the target's own definition last."""
    if not has_nested(define):
        return [define]
    declares, defines = [], []
    # post-order over an explicit stack: an expression is lowered once its operands are
    done: dict[int, Var] = {}
    stack: list[tuple[Expr, bool]] = [(o, False) for o in reversed(define.operands)
                                      if isinstance(o, Expr)]
    while stack:
        expr, ready = stack.pop()
        if not ready:
            stack.append((expr, True))
            stack.extend((o, False) for o in reversed(expr.operands) if isinstance(o, Expr))
            continue
        name = namer(define.name)
        declares.append(Declare(DeclKind.INTVAR, name, None, expr.pos, expr.pos, define.origin,
                                generated=True))
        defines.append(Define(name, expr.op, resolved(expr.operands, done), expr.pos, expr.op_pos,
                          define.origin))
        done[id(expr)] = Var(name, expr.pos)
    return declares + defines + [replace(define, operands=resolved(define.operands, done))]


def resolved(operands, done: dict[int, Var]) -> tuple:
    return tuple(done[id(o)] if isinstance(o, Expr) else o for o in operands)


def rename(operands, renaming) -> tuple:
    """`operands` with every variable, nested ones included, renamed by `renaming`
    (name -> Var; names not in it stay)."""
    return rename_expr(Expr("", tuple(operands)), renaming).operands


def rename_expr(top: Expr, renaming) -> Expr:
    """rename inside an Expr, bottom-up over an explicit stack."""
    done: dict[int, Expr] = {}
    stack: list[tuple[Expr, bool]] = [(top, False)]
    while stack:
        expr, ready = stack.pop()
        if not ready:
            stack.append((expr, True))
            stack.extend((o, False) for o in expr.operands if isinstance(o, Expr))
            continue
        done[id(expr)] = replace(expr, operands=tuple(
            done[id(o)] if isinstance(o, Expr)
            else replace(renaming[o.name], pos=o.pos) if isinstance(o, Var) and o.name in renaming
            else o for o in expr.operands))
    return done[id(top)]
