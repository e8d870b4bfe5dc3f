"""A program compiled once into a plan, for batched runs.

The original design's interpreter builds a bindings dictionary line by line: inputs and
weights bound from the input dictionary, every other declaration NULL until
defined, NULL propagating through ops.  Which names are NULL depends only on
which data variables are present, so the plan settles it ahead of time:
steps whose result would be NULL are left out, and a run does no NULL checks.

Liveness is settled ahead of time too: each step lists the names whose last
use it is, and the run releases them, so peak memory follows the program's
live set rather than its length.

Data conventions: `input` and `exp_output` values carry a leading example
axis; `weight` values do not (the run adds a unit axis, see ops/forwards.py).

A `batch_mean` result given in the data (a population value, in evaluation:
tenflang/ops/modes.py) is bound like a weight and its line is not run.  So
is a name in `kept` (values an earlier run of the same examples computed,
with their example axis: the population pass continues from them,
interp/runtime/population.py).
"""
from __future__ import annotations

from dataclasses import replace

from tenflang.base.frozen import frozen
from tenflang.base.errors import TenflangError
from tenflang.ops import table as ops
from tenflang.lang.syntax_tree import BOUND_KINDS, DeclKind, Program, Var
from tenflang.lang.checks import check
from tenflang.ops.entries import Attr, Op

BATCHED_KINDS = frozenset({DeclKind.INPUT, DeclKind.EXP_OUTPUT})


@frozen
class Step:
    target: str
    op: Op
    operands: tuple          # names (str) or constants (float)
    release: tuple[str, ...]  # names whose last use is this step
    attrs: tuple = ()         # the op's attributes, defaults filled in
    cell: str = ""            # a kept loop's macro (interp/runtime/cells.py)
    more: tuple[str, ...] = ()    # a loop adjoint's targets after `target`

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.target,) + self.more


def op_of(define) -> Op:
    """The op a definition's step runs: the op table's, or a kept loop's."""
    return LOOP_OPS[define.op] if define.cell else ops.TABLE[define.op]


def not_an_array_op(*args):
    raise TypeError("a kept loop runs through interp/runtime/cells.py")


# a kept loop's step: an op of the plan, not of the op table (its derivative
# and shape come from its cell: lang/kept_loops.py, backprop/loop_adjoint.py)
LOOP_OPS = {name: Op(name, 3, not_an_array_op, not_an_array_op, not_an_array_op,
                     f"a kept loop ({name})", attrs=(Attr("every", 1),), variadic=True)
            for name in ("scan", "scan_checkpoints", "scan_back")}


@frozen(eq=False)     # compared by identity: generated code is cached per plan
class Plan:
    bound: tuple[str, ...]        # data names read from the inputs, in declaration order
    batched: frozenset[str]       # those with a leading example axis in the data
    steps: tuple[Step, ...]
    results: tuple[str, ...]      # names reported, in declaration order
    null: frozenset[str]          # results that are NULL
    shapes: dict                  # per-example shape of every declared name
    cells: dict = None            # the kept loops' macros (Program.cells)
    per_example: frozenset = frozenset()    # results a batch reduction leaves per example

    def sums(self, name: str) -> bool:
        """Whether a run with a batch reduction sums result `name` over the examples
        (a loop's cell keeps some results per example: interp/runtime/cells.py)."""
        return name in self.results and name not in self.per_example


def default_results(program: Program) -> list[str]:
    """What a run reports: outputs, then losses (declaration order)."""
    decls = program.declarations().values()
    return ([d.name for d in decls if d.kind == DeclKind.OUTPUT]
            + [d.name for d in decls if d.kind == DeclKind.LOSS])


def make_plan(program: Program, available, results=None, shapes=None,
              kept: frozenset = frozenset()) -> Plan:
    """Plan a run of `program` given the data names in `available` (`kept`:
    defined names given per example, module docstring)."""
    shapes = shapes or check(program)
    decls = program.declarations()
    given = {d.name for d in program.definitions()
             if d.name in available and (op_of(d).cross_example or d.name in kept)}
    bound = tuple(n for n, d in decls.items()
                  if (d.kind in BOUND_KINDS or n in given) and n in available)
    bound += tuple(sorted(given - set(bound)))      # kept names the program never declared
    results = tuple(default_results(program) if results is None else results)
    unknown = next((r for r in results if r not in decls and r not in shapes), None)
    if unknown is not None:     # a misspelt name would come back as NULL
        raise TenflangError(f"results: '{unknown}' is not a variable of the program")
    has_value = set(bound)
    steps = []
    for define in program.definitions():
        names = [o.name for o in define.operands if isinstance(o, Var)]
        if define.name not in given and all(n in has_value for n in names):
            has_value.update(define.targets)
            steps.append(Step(define.name, op_of(define), tuple(
                o.name if isinstance(o, Var) else o.value for o in define.operands),
                (), op_of(define).full(define.attrs),
                define.cell, define.more))
    needed = needed_steps(steps, {r for r in results if r in has_value})
    batched = frozenset(n for n in bound if n in kept or decls[n].kind in BATCHED_KINDS)
    return Plan(bound, batched, with_releases(needed, results), results,
                frozenset(r for r in results if r not in has_value), shapes, program.cells)


def needed_steps(steps, wanted: set[str]) -> list:
    """Only the steps some result depends on (backwards over the straight line)."""
    live, kept = set(wanted), []
    for step in reversed(steps):
        if step.target in live or step.more and not live.isdisjoint(step.more):
            kept.append(step)
            live.update(o for o in step.operands if isinstance(o, str))
    return kept[::-1]


def with_releases(steps, results) -> tuple[Step, ...]:
    """The steps, each with the names whose last use it is (a loop adjoint's
    target nothing reads is released where it is made)."""
    keep = set(results)
    last_use: dict[str, int] = {}
    for i, step in enumerate(steps):
        for name in step.targets if step.more else ():
            last_use[name] = i
        for o in step.operands:
            if isinstance(o, str):
                last_use[o] = i
    releases: dict[int, list[str]] = {}
    for name, i in last_use.items():
        if name not in keep:
            releases.setdefault(i, []).append(name)
    return tuple(replace(step, release=tuple(sorted(releases.get(i, ()))))
                 for i, step in enumerate(steps))


__all__ = ["Plan", "Step", "make_plan", "default_results"]
