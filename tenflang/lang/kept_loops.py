"""Loops kept as loops (docs/design.md §2.4.2): a `fold`/`scan` whose macro
is run once per step instead of unrolled into the program.

    define hs = scan gru h0 xs W U b     # kept: one line, `Define.cell` = "gru"
    define hT = fold gru h0 xs W U b     # kept: the states, then the last one
      ->  define hT.states = scan gru h0 xs W U b
          define hT = index hT.states 15

A kept loop's macro is a **cell**: its body expanded once (nested expressions
lowered, the macros it calls expanded, attributes split), stored by name in
`Program.cells` and checked per use by `cell_shapes` (its parameters declared
with the operands' shapes, its results as outputs).  A `fold` keeps its T
states because its adjoint needs them (the GCP's `scan_back`, §2.5.1) and
gives the last.

A loop is kept when the reader's `loops` setting allows it (`keep`, or
`auto`: more than `limits.UNROLLED_STEPS` steps, or a GCP's loop, whose cell
has an adjoint macro) and the cell can run alone: every operand a name, no
weight declared in the cell, no op that draws (`dropout_mask`) or reads the
whole batch (`batch_mean`), and the cell checks with the state's shape in
and out.  Anything else is unrolled (lang/loops.py), which also reports any
error exactly as it always has.
"""
from __future__ import annotations

from tenflang.base import limits
from tenflang.base.errors import TenflangError
from tenflang.base.naming import cell_adjoint, local
from tenflang.ops import table as ops
from .syntax_tree import DeclKind, Declare, Define, Macro, Num, Program, Var

LOOP_SETTINGS = ("auto", "keep", "unroll")


def keeps(setting: str, steps: int, macro: Macro, macros: dict) -> bool:
    """Whether the reader's `loops` setting keeps a loop of `steps` steps."""
    if setting == "unroll":
        return False
    return (setting == "keep" or steps > limits.UNROLLED_STEPS
            or cell_adjoint(macro.name) in macros)


def cell_body(program: Program, macro: Macro, macros: dict) -> Macro:
    """`macro` with its body expanded and its attributes split: a cell."""
    from .checks import split_attributes
    from .macros import expand          # the reader expands a cell as it expands a program
    called = [m for m in macros.values() if m.name in calls_of(macro, macros)]
    heads = [Declare(DeclKind.INPUT, p, None) for p in macro.params] + [
        Declare(DeclKind.INTVAR, r, None) for r in macro.results]
    mini = Program(tuple(called + heads) + macro.body, program.filename, program.source)
    body = split_attributes(expand(mini)).statements[len(heads):]
    return Macro(macro.name, macro.params, macro.result, body, macro.pos, more=macro.more)


def calls_of(macro: Macro, macros: dict) -> set[str]:
    """The macros `macro` calls, directly or not."""
    from .owned import calls_in
    seen, todo = set(), [macro]
    while todo:
        for s in todo.pop().body:
            for op in calls_in(s) if isinstance(s, Define) else ():
                if op in macros and op not in seen:
                    seen.add(op)
                    todo.append(macros[op])
    return seen


def runs_alone(cell: Macro) -> bool:
    """No weight of its own, no drawn or whole-batch op: a cell the
    interpreter can run step by step."""
    for s in cell.body:
        if isinstance(s, Declare) and s.kind == DeclKind.WEIGHT:
            return False
        if isinstance(s, Define) and (s.op not in ops.TABLE or ops.TABLE[s.op].drawn
                                      or ops.TABLE[s.op].cross_example):
            return False
    return True


def cell_program(program: Program, cell: Macro, shapes: tuple, kinds=None) -> Program:
    """A cell as a program of its own: its parameters declared with `shapes`
    (as `kinds`, default inputs), its results as outputs, then its body; errors
    name `program`'s file."""
    kinds = kinds or [DeclKind.INPUT] * len(cell.params)
    heads = [Declare(k, p, s) for k, p, s in zip(kinds, cell.params, shapes)] + [
        Declare(DeclKind.OUTPUT, r, None) for r in cell.results]
    return Program(tuple(heads) + cell.body, program.filename, program.source)


def cell_shapes(program: Program, cell: Macro, shapes: tuple) -> dict:
    """The shapes of a cell's names, its parameters given `shapes`."""
    from .checks import check
    return check(cell_program(program, cell, shapes))


def kept(program: Program, loop: Define, macro: Macro, macros: dict, checker, namer,
         steps: int) -> list | None:
    """The lines of `loop` kept (module docstring), its cell added to
    `checker.cells`; None where it must be unrolled."""
    init, xs, *rest = loop.operands[1:]
    if not all(isinstance(o, Var) for o in loop.operands[1:]):
        return None
    from .checks import size_ok
    try:
        cell = checker.cells.get(macro.name) or cell_body(program, macro, macros)
        state = checker.operand_shape(loop, init)
        given = (state, checker.operand_shape(loop, xs)[1:],
                 *[checker.operand_shape(loop, o) for o in rest])
        if (not runs_alone(cell) or not size_ok((steps, *state))
                or cell_shapes(program, cell, given)[cell.result] != state):
            return None         # the stacked states too large: unrolled, a fold needs none
    except TenflangError:
        return None                 # unrolled, the error is reported as it always was
    checker.cells[macro.name] = cell
    where = dict(pos=loop.pos, op_pos=loop.op_pos, origin=loop.origin)
    if loop.op == "scan":
        return [Define(loop.name, "scan", (init, xs, *rest), cell=cell.name, **where)]
    states = namer.claim(local(loop.name, "states"))
    return [Declare(DeclKind.INTVAR, states, None, loop.pos, loop.pos, loop.origin, generated=True),
            Define(states, "scan", (init, xs, *rest), cell=cell.name, **where),
            Define(loop.name, "index", (Var(states), Num(float(steps - 1))), **where)]


# loops only a GCP writes (docs/design.md §2.5.1): the macro first, an attribute last
GCP_LOOPS = ("scan_back", "scan_checkpoints")


def gcp_loop(program: Program, define: Define, macros: dict, checker) -> Define:
    """A GCP's `scan_back adjoint/m …` or `scan_checkpoints m … k` in cell
    form: its macro a cell, a trailing whole number its attribute (every k-th
    state kept)."""
    from .diagnostics import error_at
    named, *operands = define.operands
    if not isinstance(named, Var) or named.name not in macros:
        raise error_at(program, define.op_pos, f"'{define.op}' takes {GCP_FORMS[define.op]}",
                       define.origin)
    attrs = ()
    if operands and isinstance(operands[-1], Num):
        every = operands.pop()
        if not float(every.value).is_integer() or every.value < 1:
            raise error_at(program, every.pos or define.op_pos, f"'{define.op}' keeps every k-th "
                           f"state: k is a whole number ≥ 1, got {every.text or every.value}",
                           define.origin)
        attrs = (int(every.value),)
    if named.name not in checker.cells:
        checker.cells[named.name] = cell_body(program, macros[named.name], macros)
    return Define(define.name, define.op, tuple(operands), define.pos, define.op_pos,
                  define.origin, attrs, cell=named.name, more=define.more)


GCP_FORMS = {"scan_back": "the adjoint macro of a loop's cell first "
                          "(`scan_back adjoint/m states init xs ... g [k]`)",
             "scan_checkpoints": "a loop's cell first (`scan_checkpoints m init xs ... k`)"}


def kept_rows(steps: int, every: int) -> int:
    """The states a loop of `steps` keeps when it keeps every `every`-th: steps
    every-1, 2·every-1, …, and the last."""
    return -(-steps // every)


def cell_operands(define: Define, given: tuple) -> tuple:
    """(T, the shapes a step passes the cell) of a kept loop whose operands
    have the shapes `given`; T None where the sequence has no first axis."""
    if define.op != "scan_back":
        state, xs, *rest = given
        return (xs[0] if xs else None), (state, xs[1:], *rest)
    states, state, xs, *rest, g = given
    return (xs[0] if xs else None), (state, xs[1:], *rest, state)


def loop_shapes(program: Program, define: Define, cell: Macro, given: tuple) -> tuple:
    """The shapes of a kept loop's targets from its operands' shapes `given`
    (`scan`, `scan_checkpoints`: init, xs, others; `scan_back`: states, init,
    xs, others, g; with k, every k-th state)."""
    from .checks import check_size
    from .diagnostics import error_at
    from tenflang.ops.shapes import fmt_shape
    steps, inner = cell_operands(define, given)
    state, xs = inner[0], given[2 if define.op == "scan_back" else 1]
    if steps is None:
        raise error_at(program, define.op_pos, f"'{define.op}' runs over the first axis of its "
                       "sequence, which is a scalar (shape [])", define.origin)
    names = cell_shapes(program, cell, inner)
    kept = kept_rows(steps, define.attrs[0] if define.attrs else 1)
    if define.op != "scan_back":
        if names[cell.result] != state:
            raise error_at(program, define.op_pos, f"macro '{cell.name}' gives "
                           f"{fmt_shape(names[cell.result])} from a state of {fmt_shape(state)}; "
                           "the state keeps one shape at every step", define.origin)
        check_size(program, define.pos, define.name, (kept, *state), define.origin)
        return ((kept, *state),)
    states, g = given[0], given[-1]
    if len(define.targets) != len(cell.results) or states != g or states != (kept, *state):
        raise error_at(program, define.op_pos, f"'scan_back' of macro '{cell.name}' defines "
                       f"{len(cell.results)} names from the states [T, ...], the initial state, "
                       "the sequence, the cell's other operands and the states' adjoint",
                       define.origin)
    return (state, xs, *given[3:-1])
