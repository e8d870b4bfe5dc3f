"""Syntax tree → tidy TenFlang text.

One statement per line, single spaces, `define v = a` for copies, a blank line
wherever declarations give way to definitions (and back), macro bodies
indented by two spaces.  Numbers print as integers when they are integral and
as Python's shortest round-tripping `repr` otherwise, so printing then parsing
gives back the same tree.
"""
from __future__ import annotations

from .syntax_tree import Comment, Declare, Define, Dims, Expr, Macro, Num, Program, Var


def number(value: float) -> str:
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def shape(dims) -> str:
    """`[16, 4]`; in a macro an axis may name an integer parameter, `[C, 3]`."""
    return "[" + ", ".join(d.name if isinstance(d, Var) else str(d) for d in dims) + "]"


def initialiser(init) -> str:
    """` init 1`, ` init normal 0.02`, ` init he` (with its leading space)."""
    return " " + init_text(init.scheme, [n.value for n in init.args])


def init_text(scheme: str, values) -> str:
    """`init 1` for ("constant", [1.0]), `init uniform -0.1 0.1`, `init he`."""
    words = [number(v) for v in values]
    return "init " + " ".join(words if scheme == "constant" else [scheme, *words])


def attribute(value) -> str:
    """An attribute as written: `2`, a number `0.0001`, or a shape literal `[16, 4]`."""
    if isinstance(value, float):
        return number(value)
    return shape(value) if isinstance(value, tuple) else str(value)


def operand(o: Var | Num | Dims | Expr) -> str:
    """An operand as written; a nested expression (unexpanded programs only)
    in its parentheses (the parser caps their depth, so recursion is safe)."""
    if type(o) is Var:          # most operands: one type test (a GCP has ~1M)
        return o.name
    if isinstance(o, Num):
        return number(o.value)
    if isinstance(o, Expr):
        return "(" + " ".join([o.op, *map(operand, o.operands)]) + ")"
    return shape(o.values)


def right_side(s: Define) -> str:
    """What follows `=`: `op operands... attributes...` (`a` alone for a copy;
    a kept loop names its macro first, `scan cell h0 xs W`)."""
    cell = [s.cell] if s.cell else []
    return op_words(s.op, cell + list(map(operand, s.operands)), s.attrs)


def op_words(op: str, operands: list[str], attrs=()) -> str:
    """`op operands... attributes...` from operands already written (`a` alone
    for a copy): the one way a definition's right side is written, in a
    program and in the comments of generated code."""
    words = operands + list(map(attribute, attrs))
    return " ".join(words if op == "copy" else [op, *words])


def statement(s, indent: str = "") -> str:
    if isinstance(s, Define):
        return f"{indent}define {', '.join(s.targets)} = {right_side(s)}"
    if isinstance(s, Declare):
        dims = "" if s.shape is None else " " + shape(s.shape)
        init = "" if s.init is None else initialiser(s.init)
        return f"{indent}declare {s.kind} {s.name}{dims}{init}"
    if isinstance(s, Comment):
        return f"{indent}# {s.text}" if s.text else f"{indent}#"
    if isinstance(s, Macro):
        head = " ".join(("macro", s.name) + s.params + ("->", ", ".join(s.results)))
        return "\n".join([f"{indent}{head}", *lines(s.body, indent + "  "), f"{indent}end"])
    raise TypeError(f"not a statement: {s!r}")


def lines(statements, indent: str = "") -> list[str]:
    """Blank lines separate runs of declarations, runs of definitions, macros,
    and comment-led blocks; a comment sticks to what follows it, and a
    comment-led block is one run (a GCP block declares, then defines)."""
    out: list[str] = []
    previous, in_block = None, False
    for s in statements:
        kind = Macro if isinstance(s, Macro) else type(s)
        starts_group = kind is Comment or kind is Macro or (kind is not previous
                                                          and not in_block)
        if out and out[-1] != "" and starts_group and previous is not Comment:
            out.append("")
        out.append(statement(s, indent))
        previous, in_block = kind, kind is Comment or (in_block and kind is not Macro)
    return out


def print_program(program: Program | tuple) -> str:
    """The program's text; a program with kept loops begins with the macros
    they call (`Program.cells`), where its statements do not hold them."""
    if not isinstance(program, Program):
        return "\n".join(lines(program)) + "\n"
    written = {s.name for s in program.statements if isinstance(s, Macro)}
    cells = tuple(m for name, m in program.cells.items() if name not in written)
    return "\n".join(lines(cells + program.statements)) + "\n"
