"""Derivative rules (TenFlang prefix expressions from the op table) → lines.

A rule such as `mul b (pow a (sub b 1))` is parsed into a small tree and
lowered to one `define` per op: the root gets the target name, inner ops get
the block's temporaries (`fresh()`: `tmp/<node>/1`, ..., `naming.temporary`).  Leaves are the symbols
bound in `env` (a, b, c, v, g, p) or numbers.  Attribute literals follow an op's
operands, as in a program (`sum g 1`, `reshape g [4, 4]`): the op table says
how many operands an op takes (`Op.operand_count`), and the rest of its arguments
are attributes.
"""
from __future__ import annotations

import functools
import re

from tenflang.ops import table as ops
from tenflang.lang.syntax_tree import Define, Num, Var

TOKEN = re.compile(r"\(|\)|\[[^\]]*\]|[^\s()]+")      # a shape literal is one token


@functools.cache
def parse_rule(text: str):
    """'mul b (sub a 1)' -> ('mul', 'b', ('sub', 'a', '1')); a bare leaf stays a str."""
    tokens = TOKEN.findall(text)
    stack: list[list] = [[]]
    for token in tokens:
        if token == "(":
            stack.append([])
        elif token == ")":
            group = stack.pop()
            stack[-1].append(tuple(group))
        else:
            stack[-1].append(token)
    (top,) = stack
    return top[0] if len(top) == 1 else tuple(top)


@functools.cache
def compiled(text: str):
    """The rule as lowering reads it: a leaf (a symbol bound in env, or a `Num`)
    or a node (op, operand subtrees, attribute values)."""
    return node(parse_rule(text))


def node(tree):
    if not isinstance(tree, tuple):
        return leaf(tree)
    op, *args = tree
    count = ops.TABLE[op].operand_count([is_literal(t) for t in args])
    return op, tuple(node(t) for t in args[:count]), tuple(map(attribute, args[count:]))


def is_literal(symbol) -> bool:
    """A number or a shape literal `[…]` (a parenthesised operand is a tuple)."""
    return isinstance(symbol, str) and (symbol.startswith("[") or
                                         isinstance(leaf(symbol), Num))


def leaf(symbol: str) -> str | Num:
    """A number, or the name of a symbol `env` binds."""
    try:
        return Num(float(symbol))
    except ValueError:
        return symbol


def attribute(symbol: str):
    """`2` -> 2, `[4, -1]` -> (4, -1)."""
    if symbol.startswith("["):
        return tuple(int(d) for d in symbol[1:-1].split(",") if d.strip())
    return int(symbol)


def lower(rule: str, target: str, env: dict, fresh) -> list[Define]:
    """Lines defining `target` by `rule`; `fresh()` names temporaries."""
    tree = compiled(rule)
    if not isinstance(tree, tuple):
        return [Define(target, "copy", (value(tree, env, fresh, []),))]
    lines: list[Define] = []   # temporaries first (innermost first), the root last
    lines.append(line(target, tree, env, fresh, lines))
    return lines


def line(name: str | None, tree: tuple, env, fresh, lines) -> Define:
    """The line computing `tree`, its operands' lines appended to `lines` first;
    `name` None: a temporary, named once its operands are (innermost first)."""
    op, operands, attrs = tree
    values = tuple([value(o, env, fresh, lines) for o in operands])
    return Define(name or fresh(), op, values, attrs=attrs)


def value(tree, env, fresh, lines) -> Var | Num:
    """What an operand stands for: a bound symbol, a number (shared: a `Num` is
    immutable), or the temporary computing a subtree."""
    if isinstance(tree, str):
        return env[tree]
    if isinstance(tree, Num):
        return tree
    define = line(None, tree, env, fresh, lines)
    lines.append(define)
    return Var(define.name)
