"""Static checks and shape inference over an expanded program.

One pass in program order keeps, per name, its declaration and whether it has
a value yet (inputs, weights and exp_outputs have one from the start; the
rest once defined).  Each problem raises a located `TenflangError` at once.
The result maps every declared name to its per-example shape: data variables
take their declared shape (scalar when none is written); defined variables
take the shape their op's rule gives, which must agree with any declared one.
No tensor, declared or inferred, may hold more than
`limits.MAX_TENSOR_ELEMENTS` elements per example or have more than
`limits.MAX_RANK` axes (`check_size`); no integer attribute may exceed
`limits.MAX_ATTRIBUTE` in magnitude, nor a shape literal `limits.MAX_RANK` entries.
Only a weight may have an initialiser (`init ...`), a known one with its
numbers (`check_init`).

A `Program` is immutable, so its result is remembered on it: parsing, compiling
and planning the same program check it once (a compile used to check the shape
program three times).
"""
from __future__ import annotations

import functools
import math
import re
from dataclasses import replace

from tenflang.base import limits
from tenflang.ops import table as ops, other_names
from tenflang.base.naming import is_numbered
from tenflang.ops.entries import Attr, Op
from tenflang.ops.shapes import Shape, ShapeMismatch, fmt_shape
from .syntax_tree import (BOUND_KINDS, INIT_SCHEMES, KINDS, DeclKind, Declare, Define, Dims,
                          Num, Program, Var)
from . import printer
from .diagnostics import error_at
from .kept_loops import cell_operands, cell_shapes, loop_shapes

INTEGER = re.compile(r"[+-]?[0-9]+")
KIND_SET = frozenset(KINDS)


def split_attributes(program: Program) -> Program:
    """The program with each op's attributes moved from `operands` to `attrs`
    (after macro expansion, so a macro parameter may stand for an attribute).
    A name, a fraction or a shape literal where the op table wants something
    else raises a located error."""
    return replace(program, statements=tuple(
        split(program, s) if isinstance(s, Define) else s for s in program.statements))


def split(program, define: Define) -> Define:
    op = ops.lookup(define.op)
    if op is None or not op.attrs or (len(define.operands) < op.arity and not op.variadic):
        return define                     # check_define reports any problem
    count = op.operand_count([isinstance(o, (Num, Dims)) for o in define.operands])
    operands, given = define.operands[:count], define.operands[count:]
    at = lambda node, message: error_at(  # noqa: E731
        program, getattr(node, "pos", None) or define.op_pos, message, define.origin)
    if len(given) > len(op.attrs):
        raise at(given[len(op.attrs)], f"'{op.name}' takes {takes(op)}, got "
                 f"{len(define.operands)} values")
    missing = [a.name for a in op.attrs[len(given):] if a.required]
    if missing:
        raise at(None, f"'{op.name}' takes {takes(op)}; attribute '{missing[0]}' is missing")
    for operand in operands:
        if isinstance(operand, Dims):
            raise at(operand, f"a shape literal is not an operand of '{op.name}'; "
                     f"it takes {takes(op)}")
    return replace(define, operands=operands, attrs=tuple(
        attribute(op, attr, value, at) for attr, value in zip(op.attrs, given)))


def takes(op: Op) -> str:
    """`1 operand`, or with attributes `2 operands, then the attributes k [stride]`
    (optional ones in brackets, as docs/guide/op-reference.md writes them)."""
    more = " or more" if op.variadic else ""
    text = f"{op.arity}{more} operand{'s' if op.arity != 1 or op.variadic else ''}"
    if op.attrs:
        names = " ".join(a.name if a.required else f"[{a.name}]" for a in op.attrs)
        text += f", then the attribute{'s' if len(op.attrs) > 1 else ''} {names}"
    return text


def attribute(op: Op, attr: Attr, value, at):
    """The int (or tuple, for a shape literal) that an attribute literal stands for."""
    what, node = f"'{op.name}' attribute '{attr.name}'", value
    kind = "a number" if attr.number else "an integer"
    if isinstance(value, Var):
        raise at(value, f"{what} must be {kind} literal, not the name '{value.name}'")
    if isinstance(value, Dims) != attr.shape:
        raise at(value, f"{what} must be a shape literal [d1, ...]" if attr.shape
                 else f"{what} must be {kind}, not a shape literal")
    if isinstance(value, Num) and attr.number:
        value = float(value.value)
    elif isinstance(value, Num):
        if not (INTEGER.fullmatch(value.text) if value.text else value.value.is_integer()):
            raise at(value, f"{what} must be an integer, got {value.text or value.value}")
        value = int(value.text) if value.text else int(value.value)
    else:
        value = value.values
    problem = over_limits(value)
    if problem:
        raise at(node, f"{what} {problem}")
    problem = attr.check(value)
    if problem:
        raise at(node, f"{what} {problem}, got {printer.attribute(value)}")
    return value


def over_limits(value) -> str | None:
    """What makes an attribute's value (an int or a tuple) too large, or None."""
    values = value if isinstance(value, tuple) else (value,)
    if len(values) > limits.MAX_RANK:
        return f"has {len(values)} entries; the limit is {limits.MAX_RANK} (axes of a tensor)"
    big = next((v for v in values if abs(v) > limits.MAX_ATTRIBUTE), None)
    if big is not None:
        return f"is too large: {big}; the limit is {limits.MAX_ATTRIBUTE}"
    return None


def check(program: Program, shape_program: bool = False) -> dict[str, Shape]:
    """Validate `program` and return the shape of every declared variable (a
    copy of the remembered result after the first time; see the module docstring).
    `shape_program` adds the rules for `tfcompiler` input: no reserved names,
    at least one loss, every loss defined."""
    known = program.__dict__.get("_checked")
    if known is None or (shape_program and not known[0]):
        known = (shape_program, check_once(program, shape_program))
        object.__setattr__(program, "_checked", known)
    return dict(known[1])


def check_once(program: Program, shape_program: bool) -> dict[str, Shape]:
    checker = Checker(program, shape_program)
    ready: set[str] = set()         # the names an operand may read: defined or bound
    for statement in program.statements:
        if not (passes_define(checker, statement, ready) if isinstance(statement, Define)
                else passes_declare(checker, statement, ready)):
            checker.feed(statement)         # the whole check: the located error, if any
            if isinstance(statement, Define):
                ready.update(statement.targets)
            elif isinstance(statement, Declare) and statement.kind in BOUND_KINDS:
                ready.add(statement.name)
    return checker.finish()


def passes_declare(checker: Checker, declare, ready: set[str]) -> bool:
    """Record `declare` if it is plainly valid (the common case, decided at
    once); False leaves it to `Checker.feed`."""
    if not isinstance(declare, Declare):
        return False
    name, shape = declare.name, declare.shape
    if (declare.kind not in KIND_SET or name in checker.decls or declare.init is not None
            or len(name) > limits.MAX_NAME_CHARS
            or (checker.shape_program and ("." in name or "/" in name))
            or not (shape is None or size_ok(tuple(shape)))):
        return False
    checker.decls[name] = declare
    if declare.kind in BOUND_KINDS:
        checker.shapes[name] = tuple(shape or ())
        ready.add(name)
    return True


def passes_define(checker: Checker, define: Define, ready: set[str]) -> bool:
    """Record `define` if it is plainly valid: its target declared and not yet
    defined, its op known with no literal operands, every operand a number or
    a ready name, its shape inferred and as declared.  False leaves it to
    `Checker.feed`."""
    declared, op = checker.decls.get(define.name), ops.TABLE.get(define.op)
    if (declared is None or declared.kind in BOUND_KINDS or define.name in ready or op is None
            or not op.accepts(len(define.operands)) or op.literals):
        return False
    shapes = checker.shapes
    operand_shapes = []
    for operand in define.operands:
        if isinstance(operand, Var) and operand.name in ready:
            operand_shapes.append(shapes[operand.name])
        elif isinstance(operand, Num):
            operand_shapes.append(())
        else:
            return False
    try:
        shape = result_shape(define.op, tuple(operand_shapes), define.attrs)
    except ShapeMismatch:
        return False
    if not size_ok(shape) or (declared.shape is not None and tuple(declared.shape) != shape):
        return False
    shapes[define.name] = shape
    checker.defined.add(define.name)
    ready.add(define.name)
    return True


class Checker:
    """The checks in program order, one statement at a time: macro expansion
    feeds it the statements expanded so far to learn the shape a `fold` needs
    (lang/loops.py)."""

    def __init__(self, program: Program, shape_program: bool = False):
        self.program, self.shape_program = program, shape_program
        self.decls: dict[str, Declare] = {}
        self.shapes: dict[str, Shape] = {}
        self.defined: set[str] = set()
        self.cells: dict = program.cells       # a kept loop's macros (lang/kept_loops.py)

    def feed(self, statement) -> None:
        program, decls, shapes = self.program, self.decls, self.shapes
        if isinstance(statement, Define) and statement.cell:
            self.feed_loop(statement)
        elif isinstance(statement, Define):
            check_define(program, statement, decls, self.defined)
            shapes[statement.name] = infer(program, statement, decls, shapes)
            self.defined.add(statement.name)
        elif isinstance(statement, Declare):
            check_declare(program, statement, decls, self.shape_program)
            decls[statement.name] = statement
            if statement.kind in BOUND_KINDS:
                shapes[statement.name] = tuple(statement.shape or ())

    def feed_loop(self, define: Define) -> None:
        """A kept loop's line (lang/kept_loops.py): its targets declared, not
        yet defined, their shapes from its cell."""
        given = tuple(self.operand_shape(define, o) for o in define.operands)
        if define.cell not in self.cells:
            raise error_at(self.program, define.op_pos, f"'{define.cell}' is not a macro "
                           "defined before this line", define.origin)
        made = loop_shapes(self.program, define, self.cells[define.cell], given)
        for name, shape in zip(define.targets, made):
            declared = self.decls.get(name)
            if declared is None or declared.kind in BOUND_KINDS or name in self.defined:
                refuse_define(self.program, replace(define, name=name), self.decls,
                              self.defined, None)
            declared = self.decls[name].shape
            if declared is not None and tuple(declared) != shape:
                raise error_at(self.program, define.pos, f"'{name}' is declared with shape "
                               f"{fmt_shape(declared)} but its definition gives "
                               f"{fmt_shape(shape)}", define.origin)
            self.shapes[name] = shape
            self.defined.add(name)

    def operand_shape(self, define: Define, operand) -> Shape:
        """The shape of an operand of `define` (checked as `define`'s operands are)."""
        if isinstance(operand, Num):
            return ()
        check_use(self.program, define, operand, self.decls, self.defined)
        return self.shapes[operand.name]

    def finish(self) -> dict[str, Shape]:
        shapes = self.shapes
        if len(shapes) < len(self.decls):
            for name, decl in self.decls.items():
                shapes.setdefault(name, tuple(decl.shape or ()))
        check_losses(self.program, self.decls, shapes, self.defined, self.shape_program)
        return shapes


def check_declare(program, declare: Declare, decls, shape_program: bool) -> None:
    if declare.kind not in KINDS:
        raise error_at(program, declare.pos, f"unknown variable type '{declare.kind}'; "
                       f"expected one of {', '.join(KINDS)}", declare.origin)
    if declare.name in decls:
        first = decls[declare.name].pos
        raise error_at(program, declare.name_pos, f"'{declare.name}' is already declared"
                       + (f" on line {first.line}" if first else ""), declare.origin)
    check_name(program, declare)
    if (shape_program and not declare.origin and not declare.generated
            and ("." in declare.name or "/" in declare.name)):
        raise error_at(program, declare.name_pos, f"'{declare.name}': names containing '.' or "
                       "'/' are reserved for generated code", declare.origin)
    if declare.shape is not None and 0 in declare.shape:
        raise error_at(program, declare.name_pos, f"'{declare.name}' has an empty dimension "
                       f"in its shape {fmt_shape(declare.shape)}", declare.origin)
    if declare.shape is not None:
        check_size(program, declare.name_pos, declare.name, declare.shape, declare.origin)
    if declare.init is not None:
        check_init(program, declare)


INIT_FORMS = "a number, normal STD, uniform LO HI, he or glorot"


def check_init(program, declare: Declare) -> None:
    """A weight's initialiser: a known scheme with its numbers, which make sense
    for the weight's shape (he and glorot need a fan-in: two axes or more)."""
    init, name = declare.init, declare.name
    at = lambda message: error_at(program, init.pos or declare.name_pos,  # noqa: E731
                                  message, declare.origin)
    if declare.kind != DeclKind.WEIGHT:
        raise at(f"'{name}' is declared {declare.kind}: only a weight has an initial "
                 "value (init); its value comes from " +
                 ("the data" if declare.kind in BOUND_KINDS else "its definition"))
    takes = INIT_SCHEMES.get(init.scheme)
    if takes is None:
        raise at(f"unknown initialiser '{init.scheme}'; init takes {INIT_FORMS}")
    if len(init.args) != len(takes):
        form = " ".join([init.scheme, *takes])
        raise at(f"'init {init.scheme}' takes {len(takes) or 'no'} "
                 f"number{'' if len(takes) == 1 else 's'} (init {form}), got {len(init.args)}")
    problem = init_problem(init.scheme, [n.value for n in init.args], declare.shape or ())
    if problem:
        raise at(f"'{name}': {problem}")


def init_problem(scheme: str, args: list, shape: tuple) -> str | None:
    """What is wrong with an initialiser's numbers for a weight of `shape`, or None."""
    if scheme == "normal" and args[0] < 0:
        return f"init normal takes a standard deviation ≥ 0, got {printer.number(args[0])}"
    if scheme == "uniform" and not args[0] <= args[1]:
        return (f"init uniform LO HI needs LO ≤ HI, got {printer.number(args[0])} "
                f"and {printer.number(args[1])}")
    if scheme in ("he", "glorot") and len(shape) < 2:
        return (f"init {scheme} scales by the fan-in, which needs a weight of two axes "
                f"or more ([out, in, ...]); its shape is {fmt_shape(shape)}")
    return None


def check_name(program, declare: Declare) -> None:
    """A name within `limits.MAX_NAME_CHARS` (a macro's local as its call names it)."""
    if len(declare.name) > limits.MAX_NAME_CHARS:
        raise error_at(program, declare.name_pos, f"the name '{declare.name}' is longer than "
                       f"{limits.MAX_NAME_CHARS} characters (the limit)", declare.origin)


def size_ok(shape: tuple) -> bool:
    """A shape with no empty dimension, at most MAX_RANK axes and
    MAX_TENSOR_ELEMENTS elements."""
    return within(shape, limits.MAX_RANK, limits.MAX_TENSOR_ELEMENTS)


# a program repeats a few shapes many times; the limits are in the key (tests change them)
@functools.lru_cache(maxsize=4096)
def within(shape: tuple, rank: int, elements: int) -> bool:
    return 0 not in shape and len(shape) <= rank and math.prod(shape) <= elements


def check_size(program, pos, name: str, shape, origin=(), what: str = "") -> None:
    """A shape of at most MAX_RANK axes and MAX_TENSOR_ELEMENTS elements, else a
    located error naming `name` (then `what` it is, where that helps)."""
    subject = f"'{name}'{what}"
    if len(shape) > limits.MAX_RANK:
        raise error_at(program, pos, f"{subject} would have {len(shape)} axes per example; "
                       f"the limit is {limits.MAX_RANK}", origin)
    size = math.prod(shape)
    if size > limits.MAX_TENSOR_ELEMENTS:
        raise error_at(program, pos, f"{subject} would hold {size} elements per example "
                       f"({fmt_shape(shape)}); the limit is {limits.MAX_TENSOR_ELEMENTS}",
                       origin)


def check_define(program, define: Define, decls, defined: set[str]) -> None:
    declared, op = decls.get(define.name), ops.TABLE.get(define.op)
    if (declared is None or declared.kind in BOUND_KINDS or define.name in defined
            or op is None or not op.accepts(len(define.operands))):
        refuse_define(program, define, decls, defined, op)
    for operand in define.operands:
        if isinstance(operand, Var):
            if operand.name not in defined:      # else declared, defined before: fine
                check_use(program, define, operand, decls, defined)
        elif isinstance(operand, Dims):
            raise error_at(program, operand.pos or define.op_pos, "a shape literal goes only "
                           "where an op takes a shape attribute", define.origin)
    if op.literals:
        check_literals(program, define, op)


def refuse_define(program, define: Define, decls, defined: set[str], op) -> None:
    """The error of a definition whose target or op is wrong."""
    at = lambda pos, message: error_at(program, pos, message, define.origin)  # noqa: E731
    if define.name not in decls:
        raise at(define.pos, undeclared(program, define))
    kind = decls[define.name].kind
    if kind in BOUND_KINDS:
        raise at(define.pos, f"'{define.name}' is declared {kind} and cannot be defined; "
                 "its value comes from the data")
    if define.name in defined:
        raise at(define.pos, f"'{define.name}' is already defined")
    if op is None:
        import difflib              # an unknown op's message only
        close = difflib.get_close_matches(define.op, ops.TABLE, n=1)
        other = other_names.other_name(define.op)
        hint = (f"; {other}" if other else f"; did you mean '{close[0]}'?" if close else
                "; the ops are listed in docs/guide/op-reference.md")
        raise at(define.op_pos, f"unknown op '{define.op}'{hint}")
    raise at(define.op_pos, f"'{define.op}' takes {takes(op)}, got {len(define.operands)}")


def undeclared(program, define: Define) -> str:
    """The message for a definition of a name not declared above it: where it is
    declared nowhere, the line to add (`tenflang fmt --fix` adds it for you)."""
    name = define.name
    if any(isinstance(s, Declare) and s.name == name for s in program.statements):
        return f"'{name}' is defined before it is declared"
    if define.pos is None:
        return f"'{name}' is defined but never declared"
    fixer = "" if define.origin else " (tenflang fmt --fix adds it)"      # not in macros
    return (f"'{name}' is defined but never declared; add '{missing_declaration(name)}' "
            f"before line {define.pos.line}{fixer}")


def missing_declaration(name: str) -> str:
    """The line that declares a defined name nobody declared (`tenflang fmt --fix`
    adds it, with the inferred shape)."""
    return f"declare intvar {name}"


def check_literals(program, define: Define, op: Op) -> None:
    """The trailing operands the op table wants as number literals (`p` of `dropout_mask`)."""
    trailing = define.operands[len(define.operands) - len(op.literals):]
    for attr, operand in zip(op.literals, trailing):
        what = f"'{op.name}' operand '{attr.name}'"
        if not isinstance(operand, Num):
            given = ("an expression" if is_numbered(operand.name)
                     else f"the name '{operand.name}'")
            raise error_at(program, operand.pos or define.op_pos, f"{what} must be a number "
                           f"literal, not {given}", define.origin)
        problem = attr.check(operand.value)
        if problem:
            raise error_at(program, operand.pos or define.op_pos,
                           f"{what} {problem}, got {operand.text or operand.value}", define.origin)


def check_use(program, define: Define, operand: Var, decls, defined: set[str]) -> None:
    name = operand.name
    if name not in decls:
        message = f"'{name}' is not declared"
    elif name == define.name:
        message = f"'{name}' is used in its own definition"
    elif decls[name].kind not in BOUND_KINDS and name not in defined:
        message = f"'{name}' is used before it is defined"
    else:
        return
    raise error_at(program, operand.pos or define.op_pos, message, define.origin)


# a program repeats a few (op, shapes, attributes) many times: each shape once
@functools.lru_cache(maxsize=4096)
def result_shape(op: str, operand_shapes: tuple, attrs: tuple) -> Shape:
    return ops.TABLE[op].result_shape(operand_shapes, attrs)


def infer(program, define: Define, decls, shapes) -> Shape:
    operand_shapes = tuple([() if isinstance(o, Num) else shapes[o.name] for o in define.operands])
    try:
        shape = result_shape(define.op, operand_shapes, define.attrs)
    except ShapeMismatch as err:
        raise error_at(program, define.op_pos, str(err), define.origin) from None
    if not size_ok(shape):
        check_size(program, define.pos, define.name, shape, define.origin)
    declared = decls[define.name].shape
    if declared is not None and tuple(declared) != shape:
        raise error_at(program, define.pos, f"'{define.name}' is declared with shape "
                       f"{fmt_shape(declared)} but its definition gives "
                       f"{fmt_shape(shape)}", define.origin)
    return shape


def check_losses(program, decls, shapes, defined, shape_program: bool) -> None:
    loss = DeclKind.LOSS
    losses = [d for d in decls.values() if d.kind == loss]
    for loss in losses:
        if shapes[loss.name] != ():
            raise error_at(program, loss.name_pos, f"loss '{loss.name}' has shape "
                           f"{fmt_shape(shapes[loss.name])}; a loss must be a scalar "
                           "(reduce it with sum or mean)", loss.origin)
        if shape_program and loss.name not in defined:
            raise error_at(program, loss.name_pos, f"loss '{loss.name}' is declared but "
                           "never defined", loss.origin)
    if shape_program and not losses:
        raise error_at(program, None, "the program declares no loss; "
                       "tfcompiler needs at least one 'declare loss' to differentiate")


def data_indices(program: Program) -> dict[str, tuple[int, str]]:
    """Data variables read as indices: name -> (n, what reads them), for each
    operand an op reads as indices (`Op.index`: `one_hot y n`, `take W i` with W
    a table of n rows) that is a declared input or exp_output.  The data files
    are checked against it before a run, so a bad index is reported with its
    file and line, not mid-run."""
    decls, shapes = program.declarations(), check(program)
    out: dict[str, tuple[int, str]] = {}
    for name, n, what in index_reads(program, program.definitions(), shapes):
        if name in decls and decls[name].kind in BOUND_KINDS:
            if name not in out or n < out[name][0]:
                out[name] = (n, what)
    return out


def index_reads(program: Program, definitions, shapes):
    """(name, n, what reads it) for each operand the `definitions` read as
    indices, a kept loop's cell's included: its row parameter stands for the
    loop's sequence, its other parameters for the loop's other operands."""
    for define in definitions:
        if define.cell and define.op != "scan_back":
            yield from loop_index_reads(program, define, shapes)
            continue
        op = ops.TABLE.get(define.op)
        read = op.index if op else None
        if read is None:
            continue
        index = define.operands[read.operand]
        n = read.limit([shapes[o.name] if isinstance(o, Var) else () for o in define.operands],
                       define.attrs)
        if n is not None and isinstance(index, Var):
            yield index.name, n, read.what


def loop_index_reads(program: Program, define: Define, shapes):
    cell = program.cells[define.cell]
    init, xs, *rest = (o.name for o in define.operands)
    names = cell_shapes(program, cell, cell_operands(define, tuple(shapes[n] for n in
                                                                   (init, xs, *rest)))[1])
    outer = dict(zip(cell.params[1:], (xs, *rest)))        # the state is no data
    body = [s for s in cell.body if isinstance(s, Define)]
    for name, n, what in index_reads(program, body, names):
        if name in outer:
            yield outer[name], n, what
