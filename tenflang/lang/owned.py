"""Weights a macro owns (docs/design.md §2.4.3).

A macro's body may declare weights; each call declares its own, named as
the call's locals are (`<target>.<weight>`), except in a `fold`/`scan`, whose
steps share one set named after the loop's target (`Owner`).  A shape in a
macro may name the macro's integer parameters (`[C, C, 3, 3]`): the parser
leaves such an axis a `Var`, and the call's whole number takes its place
(`axes`).  A name in a shape outside a macro, a name that is no parameter,
a call passing something else than a whole number, a weight's full name
already taken and a macro whose weights no call ever creates are located
errors.
"""
from __future__ import annotations

from dataclasses import replace

from tenflang.base.frozen import frozen
from tenflang.base.naming import Namer, local
from .syntax_tree import DeclKind, Declare, Define, Macro, Num, Program, Var
from .diagnostics import error_at
from .loops import LOOPS, shown
from .nested import nodes


@frozen
class Owner:
    """How one expansion names its weights: its call's target `target`, the
    prefix `owner` its weights take instead (the loop's target for a step of a
    `fold`, else `target` itself), and `shared`, the weights a loop's earlier
    steps declared (None outside a loop)."""
    target: str
    owner: str
    shared: set | None = None

    def weight(self, name: str) -> str:
        return local(self.owner, name)

    def inner(self, target: str) -> "Owner":
        """The owner of a call nested in this expansion, whose target is `target`."""
        if self.owner == self.target or not (target == self.target
                                             or target.startswith(self.target + ".")):
            return Owner(target, target, self.shared)
        return Owner(target, self.owner + target[len(self.target):], self.shared)


def has_named_axes(declare: Declare) -> bool:
    return declare.shape is not None and any(type(d) is Var for d in declare.shape)


def refuse_named_axes(program: Program, declare: Declare) -> None:
    """A declaration written in the program: a shape of integers only."""
    for axis in declare.shape or ():
        if type(axis) is Var:
            raise error_at(program, axis.pos, f"'{axis.name}' in the shape of "
                           f"'{declare.name}': outside a macro a shape holds integers; a name "
                           "there stands for an integer parameter of a macro")


def check_axes(program: Program, macro: Macro, declare: Declare) -> None:
    """Each name in a local's shape is a parameter of `macro`."""
    for axis in declare.shape or ():
        if type(axis) is Var and axis.name not in macro.params:
            raise error_at(program, axis.pos, f"'{axis.name}' in the shape of "
                           f"'{declare.name}' is not a parameter of macro '{macro.name}'; a "
                           "shape in a macro holds integers and the macro's integer parameters")


def axes(program: Program, macro: Macro, declare: Declare, renaming: dict, call: Define,
         origin) -> tuple | None:
    """`declare`'s shape with each named axis the whole number its call passes."""
    if not has_named_axes(declare):
        return declare.shape
    return tuple(axis if type(axis) is int else
                 whole_number(program, macro, declare, axis.name, renaming[axis.name], call,
                              origin)
                 for axis in declare.shape)


def whole_number(program, macro: Macro, declare: Declare, param: str, given, call: Define,
                 origin) -> int:
    if isinstance(given, Num) and given.value.is_integer() and given.value >= 1:
        return int(given.value)
    raise error_at(program, getattr(given, "pos", None) or call.op_pos,
                   f"the shape of '{declare.name}' in macro '{macro.name}' has the axis "
                   f"'{param}', so the call passes '{param}' a whole number ≥ 1; got "
                   f"{shown(given)}", origin)


def declared_weight(program: Program, macro: Macro, declare: Declare, owner: Owner,
                    namer: Namer, here) -> bool:
    """Claim the weight of `declare` for this call: False where an earlier step
    of the same loop declared it; an error where its name is already taken."""
    name = owner.weight(declare.name)
    if owner.shared is not None and name in owner.shared:
        return False
    if name in namer.used:
        first = program.declarations().get(name)
        where = f" on line {first.pos.line}" if first is not None and first.pos else ""
        raise error_at(program, declare.name_pos, f"macro '{macro.name}' declares "
                       f"the weight '{declare.name}', which this call names '{name}'; "
                       f"'{name}' is already declared{where}: give the call another target",
                       here)
    namer.used.add(name)
    if owner.shared is not None:
        owner.shared.add(name)
    return True


def expanded_declaration(program, macro: Macro, declare: Declare, renaming: dict, call: Define,
                       here, origin) -> Declare:
    """The call's declaration of `declare` (a weight or a local), its full name
    already in `renaming`."""
    return replace(declare, name=renaming[declare.name].name, origin=here,
                   shape=axes(program, macro, declare, renaming, call, origin))


def check_owners_called(program: Program, macros: dict[str, Macro], roots: set[str]) -> None:
    """Every macro that declares a weight is called, from the program (`roots`:
    the macros its definitions call) or from a macro it calls."""
    called, todo = set(), [r for r in roots if r in macros]
    while todo:
        name = todo.pop()
        if name not in called:
            called.add(name)
            todo.extend(op for s in macros[name].body if isinstance(s, Define)
                        for op in calls_in(s) if op in macros)
    for macro in macros.values():
        weights = [s for s in macro.body if isinstance(s, Declare) and s.kind == DeclKind.WEIGHT]
        if weights and macro.name not in called:
            raise error_at(program, weights[0].name_pos, f"macro '{macro.name}' declares the "
                           f"weight '{weights[0].name}' but is never called, so no such weight "
                           "exists; call the macro or remove the weight")


def calls_in(define: Define):
    """The names `define` may call: its op, a loop's macro, nested ops."""
    yield define.op
    if define.op in LOOPS and define.operands and isinstance(define.operands[0], Var):
        yield define.operands[0].name
    for expr in nodes(define):
        yield expr.op
