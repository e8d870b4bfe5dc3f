"""`fold` and `scan` (docs/design.md §2.4.2): loops over a sequence, unrolled when
the program is read, so the program stays straight-line.

    define hT = fold cell h0 xs W U b      # the last state
    define hs = scan cell h0 xs W U b      # every state, stacked: [T, ...]

call the macro `cell` once per row of `xs` (T rows, its first axis): step t is
`cell prev (index xs t) W U b`, `prev` being `h0` for t = 0 and step t-1's
result after.  Step t's result is `<target>.<t>` and its locals are below it
(`hT.3.1` for the row, `hT.3.<local>` for the macro's locals), expanded as
any macro call; `fold` ends with `define hT = hT.<T-1>`, `scan` stacks the
states, each reshaped to `[1, ...]`, with a balanced tree of `concat`s
(log T of them deep: each state is copied log T times, not T times).

T and the state's shape come from the shapes of the statements expanded so
far (`Prefix`: `checks.Checker` fed the expansion up to the loop), so `xs`
may be an input, a weight or any value computed before.  Every step's state
must keep `init`'s shape.  Errors inside a step point at the macro's line,
then at the loop with its step number (an `ast.Step` in the origin).
Nested operands of the loop line are computed once, before the steps; the
steps' names are claimed from the same `Namer`, so they never collide
(a name a nested operand took first gets a fresh variant).  The loop's
operands are checked as written, before that lowering, and a message shows
a nested operand as written (`(sum xs)`), never its generated name.
"""
from __future__ import annotations

from tenflang.base import limits
from tenflang.base.errors import TenflangError
from tenflang.ops.shapes import fmt_shape
from .syntax_tree import DeclKind, Declare, Define, Dims, Expr, Macro, Num, Step, Var
from .checks import Checker, check_size, split
from .diagnostics import error_at
from .nested import lower
from .printer import operand as written

LOOPS = ("fold", "scan")


class Prefix:
    """The shapes of the statements expanded so far (the list `out` that
    macro expansion appends to), checked as the final check will check them,
    on demand."""

    def __init__(self, program, out: list):
        self.checker, self.out, self.fed = Checker(program), out, 0

    def steps(self, loop: Define) -> int | None:
        """T of `loop` (its operands lowered), None where the sequence is not
        ready (unrolling reports why)."""
        try:
            shape = self.caught_up().operand_shape(loop, loop.operands[2])
        except TenflangError:
            return None
        return shape[0] if shape else None

    def caught_up(self) -> Checker:
        for statement in self.out[self.fed:]:
            self.checker.feed(split(self.checker.program, statement)
                              if isinstance(statement, Define) else statement)
        self.fed = len(self.out)
        return self.checker


def is_loop(define: Define) -> bool:
    return define.op in LOOPS


def unroll(program, define: Define, macros: dict[str, Macro], prefix: Prefix, namer,
           expand_step, step_cost, as_written: Define) -> None:
    """Append the steps of the loop `define` (its nested operands already
    lowered) to `prefix.out`; `expand_step(call, site)` expands one macro call,
    `step_cost(macro)` is the number of statements it expands to; `as_written`
    is `define` before lowering, for messages."""
    macro, init, xs, rest = loop_parts(program, define, macros)
    checker = prefix.caught_up()
    state = checker.operand_shape(define, init)
    steps = sequence_length(program, define, checker, xs, as_written.operands[2])
    if define.op == "scan":
        # before the steps: else the stacking's generated `reshape` is what breaks a limit
        check_size(program, define.pos, define.name, (steps, *state), define.origin,
                   f" (the {steps} states of this scan, stacked)")
    check_steps(program, define, steps, 5 + step_cost(macro), len(prefix.out))
    results, prev = [], init
    for t in range(steps):
        name = namer.claim(f"{define.name}.{t}")
        site = Step(define.op_pos, t, define.op)
        row = Expr("index", (xs, Num(float(t), xs.pos, str(t))), xs.pos, xs.pos)
        call = Define(name, macro.name, (prev, row, *rest), define.pos, define.operands[0].pos,
                      define.origin)
        prefix.out.append(Declare(DeclKind.INTVAR, name, None, define.pos, define.pos,
                                  (site,) + define.origin, generated=True))
        prefix.out.extend(expand_step(call, site))
        check_state(program, define, macro, prefix, name, state, t)
        results.append(name)
        prev = Var(name, init.pos)
    prefix.out.extend(ending(define, results, state, namer))


def loop_parts(program, define: Define, macros: dict[str, Macro]):
    """(macro, init, xs, the other operands) of `fold m init xs a ...`, checked."""
    if len(define.operands) < 3:
        raise error_at(program, define.op_pos, f"'{define.op}' takes a macro, an initial state "
                       f"and a sequence, then the macro's other operands: `{define.op} m init "
                       f"xs a ...`; got {len(define.operands)} values", define.origin)
    named, init, xs, *rest = define.operands
    if not isinstance(named, Var) or named.name not in macros:
        raise error_at(program, named.pos or define.op_pos, unknown_macro(define.op, named, macros),
                       define.origin)
    macro = macros[named.name]
    for operand in (init, xs, *rest):
        if isinstance(operand, Dims):
            raise error_at(program, operand.pos, f"a shape literal is not an operand of "
                           f"'{define.op}'", define.origin)
    if isinstance(xs, Num):
        raise error_at(program, xs.pos or define.op_pos, f"'{define.op}' runs over a sequence: "
                       "a name, not a number", define.origin)
    if len(macro.params) != 2 + len(rest):
        raise error_at(program, named.pos, f"macro '{macro.name}' takes {len(macro.params)} "
                       f"operands; '{define.op}' passes it the state, a row of {shown(xs)} and "
                       f"{len(rest)} more, {2 + len(rest)} in all", define.origin)
    return macro, init, xs, tuple(rest)


def shown(operand) -> str:
    """An operand as a message shows it: a name quoted, a nested expression as
    written (its lowered name, `hT.1`, is reserved for generated code and
    means nothing to the user: naming.is_numbered)."""
    return f"'{operand.name}'" if isinstance(operand, Var) else written(operand)


def unknown_macro(loop: str, named, macros) -> str:
    if isinstance(named, Expr):
        return (f"'{loop}' calls a macro: its first operand must be the name of a macro, not "
                f"the expression {written(named)}")
    if not isinstance(named, Var):
        return f"'{loop}' needs the name of a macro first, then the initial state and the sequence"
    import difflib              # a misspelt macro's message only
    close = difflib.get_close_matches(named.name, macros, n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"'{named.name}' is not a macro defined before this line; '{loop}' calls a macro{hint}"


def sequence_length(program, define: Define, checker: Checker, xs: Var, as_written) -> int:
    """T: the first axis of `xs`'s declared or inferred shape; `as_written`
    is the operand `xs` was lowered from, for the message."""
    shape = checker.operand_shape(define, xs)
    if not shape:
        # a name can be declared with its shape; an expression's shape is what it computes
        why = ("a sequence needs a first axis, one row per step" if isinstance(as_written, Expr)
               else f"the length of the sequence is unknown; declare {shown(as_written)} with "
               "its shape, e.g. [T, d]")
        raise error_at(program, xs.pos, f"'{define.op}' runs over the first axis of "
                       f"{shown(as_written)}, which is a scalar (shape []): {why}", define.origin)
    return shape[0]


def check_steps(program, define: Define, steps: int, per_step: int, so_far: int) -> None:
    """The unrolled loop within `limits.MAX_EXPANDED_STATEMENTS`."""
    if so_far + steps * per_step > limits.MAX_EXPANDED_STATEMENTS:
        raise error_at(program, define.op_pos, f"this {define.op} of {steps} steps expands the "
                       f"program to more than {limits.MAX_EXPANDED_STATEMENTS} statements "
                       "(the limit)", define.origin)


def check_state(program, define: Define, macro: Macro, prefix: Prefix, name: str, state,
                t: int) -> None:
    """Step t's result `name` has the state's shape, else an error at the
    macro's line that defines it, noting the loop and the step."""
    got = prefix.caught_up().shapes[name]
    if got != tuple(state):
        line = next(s for s in reversed(prefix.out) if isinstance(s, Define) and s.name == name)
        raise error_at(program, line.pos, f"the state of this {define.op} changes shape at "
                       f"step {t}: macro '{macro.name}' gives {fmt_shape(got)} from a state of "
                       f"{fmt_shape(state)}; the state keeps one shape at every step", line.origin)


def ending(define: Define, results: list[str], state, namer) -> list:
    """`fold`: the target is the last state; `scan`: the states stacked."""
    where = dict(pos=define.pos, op_pos=define.op_pos, origin=define.origin)
    if define.op == "fold":
        return [Define(define.name, "copy", (Var(results[-1], define.op_pos),), **where)]
    unit = Dims((1,) + tuple(state))
    level = [Expr("reshape", (Var(r), unit), define.op_pos, define.op_pos) for r in results]
    while len(level) > 2:
        level = [Expr("concat", tuple(level[i:i + 2]), define.op_pos, define.op_pos)
                 if i + 1 < len(level) else level[i] for i in range(0, len(level), 2)]
    top = (Define(define.name, "concat", tuple(level), **where) if len(level) == 2
           else Define(define.name, "reshape", level[0].operands, **where))
    return lower(top, namer)
