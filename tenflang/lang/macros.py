"""Macro expansion.

A macro is expanded where it is called.  Inside an expansion the parameters
stand for the call's operands, the result for the caller's target, and each
local `t` becomes `<target>.t`; nested calls nest the prefix (`o.h.t`), so
expansions never collide.  A macro may call only macros defined before it,
which rules recursion out; a call of itself is reported as recursion.
Expanded statements keep the position of the macro body line and record the
call sites in `origin`, innermost first, for error messages.  A weight the
body declares is named as a local is, but a `fold`'s steps share one set,
named after the loop's target (an `Owner`: lang/owned.py).

Macros calling macros can multiply (30 macros each calling the one before
twice expand to 2**30 lines), so each macro's expanded size and nesting depth
are computed when it is defined, before anything is expanded: a macro nested
deeper than `limits.MAX_MACRO_DEPTH` is an error at its line, and a call that
would take the program past `limits.MAX_EXPANDED_STATEMENTS` an error at the
call.  The depth bound also bounds the recursion of `expand_call`.
"""
from __future__ import annotations

from dataclasses import replace

from tenflang.base import limits
from tenflang.ops import table as ops
from .syntax_tree import DeclKind, Declare, Define, Macro, Program, Var
from .diagnostics import error_at
from .loops import LOOPS, Prefix, is_loop, loop_parts, unroll
from .kept_loops import GCP_LOOPS, gcp_loop, keeps, kept
from tenflang.base.naming import Namer, local
from .nested import has_nested, lower, names_used, nodes, rename
from .owned import (Owner, calls_in, check_axes, check_owners_called, declared_weight,
                    expanded_declaration, has_named_axes, refuse_named_axes)


def expand(program: Program, loops: str = "auto") -> Program:
    """The program with every macro definition removed and every call expanded;
    `loops` says which loops are kept as loops (lang/kept_loops.py), their
    cells in the result's `cells`."""
    if plain(program):
        return program
    macros: dict[str, Macro] = {}
    cost: dict[str, tuple[int, int]] = {}      # macro -> (expanded statements, depth)
    later = {s.name: s for s in program.statements if isinstance(s, Macro)}
    callable_names = set(later) - {s.name for s in program.statements if isinstance(s, Declare)}
    namer = Namer({s.name for s in program.statements if isinstance(s, Declare)})
    out: list = []
    prefix = Prefix(program, out)
    roots: set[str] = set()         # the macros the program's definitions call
    for statement in program.statements:
        if isinstance(statement, Macro):
            statement = with_calls(statement, later)
            check_macro(program, statement, macros, later)
            cost[statement.name] = macro_cost(program, statement, cost)
            macros[statement.name] = statement
            continue
        if isinstance(statement, Define):
            statement = as_call(statement, callable_names)
            for op, where in ops_called(statement):
                check_loop_place(program, statement, op, where)
                if op in later and op not in macros:
                    raise error_at(program, where, f"macro '{op}' is called before it is "
                                   f"defined{on_line(later[op])}; define a macro before its "
                                   "first call")
            check_size(program, statement, len(out) + define_cost(statement, cost), cost)
            roots.update(calls_in(statement))
            if is_loop(statement):
                expand_loop(program, statement, macros, cost, prefix, namer, loops)
            elif statement.op in GCP_LOOPS:
                out.append(gcp_loop(program, statement, macros, prefix.checker))
            else:
                out.extend(expand_define(program, statement, macros, (), namer))
        else:
            refuse_named_axes(program, statement)
            out.append(statement)
    check_owners_called(program, macros, roots)
    return replace(program, statements=tuple(out), cells=prefix.checker.cells)


def plain(program: Program) -> bool:
    """Nothing to expand: no macro, no loop, no nested expression, and within the
    size limit.  (A `fold` over an op in a program without macros must still reach
    expand_loop, whose error says that `fold` calls a macro.)"""
    return len(program.statements) <= limits.MAX_EXPANDED_STATEMENTS and not any(
        isinstance(s, Macro) or isinstance(s, Define) and (has_nested(s) or is_loop(s))
        or isinstance(s, Declare) and has_named_axes(s) for s in program.statements)


def ops_called(define: Define):
    """(op, position) of the op of `define` and of every nested expression in it."""
    yield define.op, define.op_pos
    for expr in nodes(define):
        yield expr.op, expr.op_pos


def expand_define(program, define: Define, macros, origin, namer: Namer,
                  owner: Owner | None = None) -> list:
    """`define` with its nested expressions lowered and its macro calls
    expanded; `owner` is that of the expansion `define` is part of."""
    out: list = []
    for line in lower(define, namer):
        if isinstance(line, Define) and line.op in macros:
            inner = owner.inner(line.name) if owner else None
            out.extend(expand_call(program, line, macros, origin, namer, owner=inner))
        else:
            out.append(line)
    return out


def expand_loop(program, define: Define, macros, cost, prefix: Prefix, namer: Namer,
                setting: str = "auto") -> None:
    """A `fold`/`scan` line: its nested operands, then the loop kept
    (lang/kept_loops.py) or its steps (lang/loops.py)."""
    macro = loop_parts(program, define, macros)[0]  # checked as written: no generated name
    *operands, loop = expand_define(program, define, macros, (), namer)
    prefix.out.extend(operands)
    steps = prefix.steps(loop)
    if steps is not None and keeps(setting, steps, macro, macros):
        lines = kept(program, loop, macro, macros, prefix.caught_up(), namer, steps)
        if lines is not None:
            prefix.out.extend(lines)
            return
    shared: set[str] = set()        # the steps' weights, declared at step 0

    def expand_step(call: Define, site) -> list:
        *row, call = lower(call, namer)
        return row + expand_call(program, call, macros, loop.origin, namer, site,
                                 Owner(call.name, loop.name, shared))
    unroll(program, loop, macros, prefix, namer, expand_step, lambda macro: cost[macro.name][0],
           define)


def check_loop_place(program: Program, define: Define, op: str, where, macro=None) -> None:
    """A loop is a definition of its own, in the program itself."""
    if op not in LOOPS:
        return
    if macro is not None:
        raise error_at(program, where, f"'{op}' is written in the program, not inside a macro "
                       f"('{macro.name}'): a loop's length comes from the program's shapes")
    if where is not define.op_pos:
        raise error_at(program, where, f"'{op}' is a definition of its own "
                       f"(`define v = {op} m init xs ...`), not part of an expression")


def define_cost(define: Define, cost: dict) -> int:
    """Statements `define` expands to: one per op, a macro call its macro's size."""
    return sum(cost[op][0] if op in cost else 1 for op, _ in ops_called(define))


def macro_cost(program: Program, macro: Macro, cost: dict) -> tuple[int, int]:
    """(statements one call expands to, macro calls nested in it, itself
    included), from the costs of the earlier macros it calls."""
    size, depth = 0, 1
    for s in macro.body:
        size += define_cost(s, cost) if isinstance(s, Define) else 1
        for op, _ in ops_called(s) if isinstance(s, Define) else ():
            if op in cost:
                depth = max(depth, 1 + cost[op][1])
    if depth > limits.MAX_MACRO_DEPTH:
        raise error_at(program, macro.pos, f"macro '{macro.name}' nests macro calls {depth} "
                       f"deep; the limit is {limits.MAX_MACRO_DEPTH}")
    return min(size, limits.MAX_EXPANDED_STATEMENTS + 1), depth


def check_size(program: Program, define: Define, total: int, cost: dict) -> None:
    if total > limits.MAX_EXPANDED_STATEMENTS:
        calls = [c for c in ops_called(define) if c[0] in cost]
        if not calls:            # a long program of plain statements
            raise error_at(program, define.pos, f"the program has more than "
                           f"{limits.MAX_EXPANDED_STATEMENTS} statements (the limit)")
        op, where = max(calls, key=lambda c: cost[c[0]][0])
        raise error_at(program, where, f"with this call of macro '{op}' the program expands "
                       f"to more than {limits.MAX_EXPANDED_STATEMENTS} statements (the limit); "
                       "do its macros call each other more often than intended?")


def as_call(define: Define, macro_names) -> Define:
    """`define v = m` names a macro `m` of no parameters: it is a call, not a copy."""
    if (define.op == "copy" and isinstance(define.operands[0], Var)
            and define.operands[0].name in macro_names):
        return replace(define, op=define.operands[0].name, operands=(),
                       op_pos=define.operands[0].pos)
    return define


def with_calls(macro: Macro, macro_names) -> Macro:
    """`macro` with its body's calls of parameterless macros in call form (a
    parameter, local or the result of the same name is a variable, not a call)."""
    names = set(macro_names) - set(macro.params) - set(macro.results) - {
        s.name for s in macro.body if isinstance(s, Declare)}
    return replace(macro, body=tuple(as_call(s, names) if isinstance(s, Define) else s
                                     for s in macro.body))


def on_line(macro: Macro) -> str:
    return f" (on line {macro.pos.line})" if macro.pos else ""


def check_macro(program: Program, macro: Macro, known: dict[str, Macro], later=None) -> None:
    if macro.name in known:
        raise error_at(program, macro.pos, f"macro '{macro.name}' is already defined")
    if macro.name in ops.TABLE or macro.name in LOOPS:
        raise error_at(program, macro.pos, f"'{macro.name}' is the name of an op; "
                       "a macro needs a name of its own")
    names = list(macro.params) + list(macro.results)
    if len(set(names)) != len(names):
        raise error_at(program, macro.pos, f"macro '{macro.name}' repeats a parameter name")
    locals_ = {s.name for s in macro.body if isinstance(s, Declare)}
    for statement in macro.body:
        if isinstance(statement, Macro):
            raise error_at(program, statement.pos, "a macro cannot be defined inside another macro")
        if isinstance(statement, Declare):
            check_local(program, macro, statement)
        elif isinstance(statement, Define):
            check_body_line(program, macro, statement, locals_, known, later or {})
    for result in macro.results:
        if not any(isinstance(s, Define) and s.name == result for s in macro.body):
            raise error_at(program, macro.pos,
                           f"macro '{macro.name}' never defines its result '{result}'")


def check_local(program: Program, macro: Macro, declare: Declare) -> None:
    if declare.name in macro.params or declare.name == macro.result:
        raise error_at(program, declare.name_pos,
                       f"'{declare.name}' is a parameter or the result of macro '{macro.name}' "
                       "and cannot be declared inside it")
    if declare.kind not in (DeclKind.INTVAR, DeclKind.WEIGHT):
        raise error_at(program, declare.pos, f"a macro declares intvars and weights; "
                       f"'{declare.name}' is declared {declare.kind}")
    check_axes(program, macro, declare)


def check_body_line(program, macro: Macro, define: Define, locals_, known, later) -> None:
    for op, where in ops_called(define):
        check_loop_place(program, define, op, where, macro)
        if op == macro.name:
            raise error_at(program, where, f"macro '{macro.name}' calls itself; "
                           "macros cannot be recursive")
        if op in later and op not in known:
            raise error_at(program, where, f"macro '{macro.name}' calls macro '{op}', "
                           f"which is defined after it{on_line(later[op])}; a macro "
                           "can call only macros defined before it")
    if define.name in macro.params:
        raise error_at(program, define.pos, f"'{define.name}' is a parameter of macro "
                       f"'{macro.name}' and cannot be defined")
    visible = set(macro.params) | locals_ | set(macro.results)
    for name, where in [(define.name, define.pos), *names_used(define)]:
        if name not in visible:
            raise error_at(program, where, f"'{name}' is not a parameter, local or the result "
                           f"of macro '{macro.name}'")


def expand_call(program: Program, call: Define, macros: dict[str, Macro], origin,
                namer: Namer, site=None, owner: Owner | None = None) -> list:
    """`call` expanded; `site` is the call site its lines record (default: the
    call's op), then `origin`; `owner` names its weights (default: after the
    call's target, lang/owned.py)."""
    macro = macros[call.op]
    if macro.more:
        raise error_at(program, call.op_pos, f"macro '{macro.name}' gives "
                       f"{len(macro.results)} results: a loop's adjoint, which only "
                       "`scan_back` calls", origin=origin)
    if len(call.operands) != len(macro.params):
        plural = "" if len(macro.params) == 1 else "s"
        raise error_at(program, call.op_pos, f"macro '{macro.name}' takes {len(macro.params)} "
                       f"operand{plural}, got {len(call.operands)}", origin=origin)
    here = (site or call.op_pos,) + origin
    owner = owner or Owner(call.name, call.name)
    renaming = dict(zip(macro.params, call.operands))
    renaming[macro.result] = Var(call.name)
    for s in macro.body:
        if isinstance(s, Declare):
            renaming[s.name] = Var(owner.weight(s.name) if s.kind == DeclKind.WEIGHT
                                   else local(call.name, s.name))
    out: list = []
    for s in macro.body:
        if isinstance(s, Declare):
            if s.kind == DeclKind.WEIGHT and not declared_weight(program, macro, s, owner,
                                                                 namer, here):
                continue        # an earlier step of the loop declared it
            out.append(expanded_declaration(program, macro, s, renaming, call, here, origin))
            namer.used.add(renaming[s.name].name)
            continue
        define = replace(s, name=renaming[s.name].name, origin=here,
                         operands=rename(s.operands, renaming))
        out.extend(expand_define(program, define, macros, here, namer, owner))
    return out

