"""The -O1 clean-up of a GCP: a pass over the blocks of the reverse sweep.

    forward, blocks = simplify(forward, blocks, keep, shapes)

The sweep (`reverse`) writes the literal algorithm; this pass goes through its
blocks in program order, then removes the dead lines.  Each backward line,
after its operands are replaced by what they stand for, either stays or is
replaced by a value:

* constants fold (`sub 2 1` → 1) when every operand is a number and the
  result is finite (`fold`: numpy's arithmetic, Python's where it is the same);
* identities vanish: `mul x 1`, `add x -0.0`, `sub x 0`, `div x 1`, `pow x 1`,
  `copy x` (a local partial `1` for `add`, `b` for `mul a b`: a name that
  stands for another name or a number), `sum_like`/`broadcast_like` to x's
  own shape — only where the result has x's shape, so broadcasting is never
  lost; `mul x 0` of a scalar is 0 (a symbolic zero, even for an infinite x)
  and `mul x -1` becomes `neg x`, `sub -0.0 x` too, and `add x x` becomes
  `mul 2 x` (a doubling, as a person writes it: the same bits).  Each gives
  the line's own bits: `add x 0` stays because -0.0 + 0.0 is +0.0, `sub 0 x`
  because 0 - 0 is +0.0, not `neg 0`;
* common subexpressions merge: a line computing what an earlier line (forward
  lines included) computes becomes that line's name;
* a sum of `unslice`s that tile their value (the adjoint of a value read in
  slices, a GRU's gates) becomes the `concat` of the pieces (`joined`).

Names in `keep` (the weight gradients, the losses and the metrics) are always
defined: a line of one that would vanish stays as `copy value`.  Forward lines
are kept as the user wrote them; only their dead ones go (`remove_dead`).
A block left with no line stays in the list (`gcp.assemble` writes none).
"""
from __future__ import annotations

import functools
import math
from dataclasses import field, replace

from tenflang.base.frozen import mutable
from tenflang.ops import table as ops
from tenflang.lang.syntax_tree import Define, Num, Var
from tenflang.ops.shapes import Shape
from .graph import computed_from

# exactly commutative in IEEE arithmetic; not max and min: numpy's `maximum`
# returns its second operand on a tie, so max(0, -0) is -0 and max(-0, 0) is 0
COMMUTATIVE = {"add", "mul", "dot"}
REWRITTEN = {"mul", "sub", "add"}      # the ops `rewrite` may spell otherwise
# ops whose per-element form is one IEEE operation on floats: Python folds them
# to numpy's bits (tests/compiler/test_compiler.py), and a program folding only these
# (`sub 2 1` in the partial of `pow a 2`) compiles without importing numpy
ARITHMETIC = frozenset({"add", "sub", "mul", "div", "neg"})


@mutable
class Simplifier:
    """The pass's state: `table` maps what a line computes (`key`) to the first
    name computing it; `subst` maps a vanished line's name to what it stood for."""
    keep: set[str]
    shapes: dict[str, Shape]
    table: dict = field(default_factory=dict)
    subst: dict[str, Var | Num] = field(default_factory=dict)

    @classmethod
    def after(cls, forward, keep: set[str], shapes) -> "Simplifier":
        """A simplifier for the backward lines that follow `forward`."""
        table: dict = {}
        for line in forward:
            if not line.cell:
                table.setdefault(key(line.op, line.operands, line.attrs), line.name)
        return cls(keep, shapes, table)

    def block(self, lines: list[Define]) -> list[Define]:
        """The lines that stay, in order (see `simplified`)."""
        kept = []
        for line in lines:
            line = simplified(line, self.subst, self.table, self.keep, self.shapes)
            if line is not None:
                kept.append(line)
        return kept


def simplify(forward: list[Define], blocks: list, keep: set[str], shapes):
    """The pass (module docstring): `forward` and `blocks` as -O1 keeps them."""
    simplifier = Simplifier.after(forward, keep, shapes)
    return remove_dead(forward, [(title, joined(simplifier.block(lines), shapes))
                                 for title, lines in blocks], keep)


def joined(lines: list[Define], shapes) -> list[Define]:
    """`lines` with each sum of `unslice`s that tile their value row by row (the
    adjoint of a value read in slices: a GRU's gates) written as the `concat`
    of the pieces; the unslices and partial sums left for `remove_dead`."""
    pieces: dict[str, tuple[str, tuple]] = {}     # name -> (the value, ((start, g), ...))
    for line in lines:
        if line.op == "unslice" and isinstance(line.operands[0], Var):
            pieces[line.name] = (line.operands[1].name, ((line.attrs[0], line.operands[0]),))
        elif line.op == "add" and all(type(o) is Var and o.name in pieces for o in line.operands):
            (a, first), (b, second) = (pieces[o.name] for o in line.operands)
            if a == b:
                pieces[line.name] = (a, first + second)
    summed = {o.name for line in lines if line.op == "add" and line.name in pieces
              for o in line.operands}
    return [concat_of(line, *pieces[line.name], shapes)
            if line.op == "add" and line.name in pieces and line.name not in summed else line
            for line in lines]


def concat_of(line: Define, value: str, parts: tuple, shapes) -> Define:
    """`line` as a `concat` of its pieces where they tile `value`, else itself."""
    end = 0
    for start, g in sorted(parts, key=lambda part: part[0]):
        if start != end:
            return line
        end += shapes[g.name][0]
    if end != shapes[value][0]:
        return line
    return Define(line.name, "concat", tuple(g for _, g in sorted(parts, key=lambda p: p[0])))


def simplified(line: Define, subst: dict, table: dict, keep: set[str], shapes) -> Define | None:
    """The line as it stays (itself where nothing changes), or None where it
    vanishes into a value, which `subst` then records for the lines after it."""
    operands = substituted(line.operands, subst)
    if line.cell:               # a loop: its operands substituted, never merged
        return line if operands is line.operands else replace(line, operands=operands)
    value = reduce(line.op, operands, shapes, line.name)
    if value is None:
        found = table.setdefault(key(line.op, operands, line.attrs), line.name)
        if found == line.name:
            op = line.op
            if op in REWRITTEN:
                op, operands = rewrite(op, operands)
            if op == line.op and operands is line.operands:
                return line
            return Define(line.name, op, operands, attrs=line.attrs)
        value = Var(found)
    if line.name in keep:
        return Define(line.name, "copy", (value,))
    subst[line.name] = value
    return None


def substituted(operands: tuple, subst: dict) -> tuple:
    """`operands` with each name replaced by what it stands for (the same tuple
    where none is replaced)."""
    for operand in operands:
        if isinstance(operand, Var) and operand.name in subst:
            return tuple([subst.get(o.name, o) if isinstance(o, Var) else o for o in operands])
    return operands


def key(op: str, operands, attrs=()) -> tuple:
    """What a line computes: equal keys, equal values (defaults filled in).  A
    name is a str and a number its float's hex (so 0 and -0.0 differ), so
    neither is ever taken for the other."""
    parts = tuple([o.name if type(o) is Var else (float(o.value).hex(),) for o in operands])
    if op in COMMUTATIVE:       # binary: in one order, names after numbers
        a, b = parts
        if (type(a) is str, a) > (type(b) is str, b):       # tuples before names
            parts = (b, a)
    return (op, parts, full_attrs(op, attrs))


@functools.lru_cache(maxsize=4096)
def full_attrs(op: str, attrs: tuple) -> tuple:
    return ops.TABLE[op].full(attrs)


def shape_of(operand, shapes) -> Shape:
    return () if isinstance(operand, Num) else shapes[operand.name]


def is_num(operand, value: float) -> bool:
    return isinstance(operand, Num) and operand.value == value


def is_exactly(operand, value: float) -> bool:
    """`operand` is the number `value`, the sign of a zero included."""
    return is_num(operand, value) and math.copysign(1.0, operand.value) == math.copysign(1.0, value)


def reduce(op: str, operands, shapes, name: str):
    """What the line reduces to (a Var or Num), or None if it must stay."""
    if op == "copy":
        return operands[0]
    if op in ("sum_like", "broadcast_like"):       # not elementwise: they never fold
        return same_shape(operands[0], shapes, shapes[name])
    numbers = [o for o in operands if isinstance(o, Num)]
    if not numbers:
        return None                 # nothing to fold, no identity element
    if len(numbers) == len(operands) and ops.TABLE[op].elementwise:
        return fold(op, operands)
    if op not in ("mul", "add", "sub", "div", "pow"):
        return None
    return identity(op, *operands, shapes, shapes[name])


def identity(op: str, a, b, shapes, result_shape):
    """`mul x 1`, `add x -0.0`, `sub x 0`, `div x 1`, `pow x 1` → x (where x has
    the result's shape); `mul x 0` → 0 for a scalar result."""
    if op == "mul":
        for x, y in ((a, b), (b, a)):
            if is_num(y, 1.0):
                return same_shape(x, shapes, result_shape)
            if is_num(y, 0.0) and result_shape == ():
                return Num(0.0)
    if op == "add":
        for x, y in ((a, b), (b, a)):
            if is_exactly(y, -0.0):
                return same_shape(x, shapes, result_shape)
    if op in ("sub", "div", "pow") and is_exactly(b, 0.0 if op == "sub" else 1.0):
        return same_shape(a, shapes, result_shape)
    return None


def same_shape(operand, shapes, shape):
    """`operand` where it has `shape` (so replacing the line loses no broadcasting)."""
    return operand if shape_of(operand, shapes) == shape else None


def fold(op: str, operands):
    """The line's value as a number, where it is finite; else None."""
    values = [o.value for o in operands]
    if op in ARITHMETIC:
        try:
            value = eval(scalar_form(op), {}, dict(zip("abc", values)))
        except ZeroDivisionError:         # numpy's inf or nan: not folded either
            return None
    else:
        import numpy as np        # only here: tfcompiler starts without numpy
        with np.errstate(all="ignore"):
            value = float(ops.TABLE[op].forward(np, *[np.array([v]) for v in values]).reshape(-1)[0])
    return Num(value) if math.isfinite(value) else None


@functools.cache
def scalar_form(op: str):
    """The op's per-element form (`entries.Op.scalar`), compiled."""
    return compile(ops.TABLE[op].scalar, f"<{op}>", "eval")


def rewrite(op: str, operands) -> tuple[str, tuple]:
    """Spell a surviving line the way a person would."""
    if op == "mul":
        for x, y in (operands, operands[::-1]):
            if is_num(y, -1.0):
                return "neg", (x,)
    if op == "sub" and is_exactly(operands[0], -0.0):
        return "neg", (operands[1],)
    if op == "add" and operands[0] == operands[1] and isinstance(operands[0], Var):
        return "mul", (Num(2.0), operands[0])      # x + x and 2·x are the same IEEE value
    return op, operands


def remove_dead(forward, blocks, keep: set[str]):
    """The lines that `keep` is computed from, in their blocks."""
    live = computed_from([*forward, *(line for _, lines in blocks for line in lines)], keep)
    return ([d for d in forward if d.name in live],
            [(title, [d for d in ls if any(t in live for t in d.targets)]) for title, ls in blocks])
