"""Which steps of a plan run as one kernel: the GPU backend's interim grouping.

    items = fuse(plan, reduce, batched, blas_reduced)   # steps, some runs as Groups

The interpreter's fusion pass (docs/guide.md, "Fused loops") decides this for
the CPU's fused loops, as plain data of this very shape; until it is there
the GPU uses this module, and then these definitions go (the renderer reads
only the fields below).  A `Group` is a maximal run of consecutive steps that

* all have a per-element form (the op's `scalar`, else `FORMS` here),
* all vary per example, and whose shapes broadcast together (`shape`),
* are not results summed inside a matrix product (`blas_reduced`),

with its `inputs` (values read from outside), its `outputs` (values used
after the run or reported; with `reduce`, a reported value nothing else reads
is summed over the examples in the kernel: `Output.reduce == "sum"`) and
`release` (values defined before the run whose last use is in it).  A run of
one step with no reduction is left alone: a library kernel is as fast.

`FORMS`: each elementwise op's per-element scalar form, a Python expression
over `a`, `b`, exact in the tails as the op table's forwards are.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .. import ops
from ..interp.codegen import batched_names, fused_reductions

FORMS = {
    "copy": "a", "neg": "-a", "exp": "math.exp(a)", "log": "math.log(a)",
    "logistic": "math.exp(min(a, 0.0)) / (1.0 + math.exp(-abs(a)))",
    "tanh": "math.tanh(a)", "relu": "max(a, 0.0)", "sqrt": "math.sqrt(a)", "abs": "abs(a)",
    "sin": "math.sin(a)", "cos": "math.cos(a)",
    "softplus": "max(a, 0.0) + math.log1p(math.exp(-abs(a)))",
    "logistic_deriv": "math.exp(-abs(a)) / (1.0 + math.exp(-abs(a))) ** 2",
    "tanh_deriv": "4.0 * math.exp(-2.0 * abs(a)) / (1.0 + math.exp(-2.0 * abs(a))) ** 2",
    "step": "1.0 if a > 0 else 0.0",
    "sign": "1.0 if a > 0 else (-1.0 if a < 0 else a * 0.0)",
    "add": "a + b", "sub": "a - b", "mul": "a * b", "div": "a / b", "pow": "a ** b",
    "max": "max(a, b)", "min": "min(a, b)", "equal": "1.0 if a == b else 0.0",
}


@dataclass(frozen=True)
class Input:
    name: str


@dataclass(frozen=True)
class Output:
    name: str
    reduce: str | None        # None: the [B, ...] array; "sum": summed over the examples


@dataclass(frozen=True)
class Group:
    steps: tuple
    shape: tuple
    inputs: tuple[Input, ...]
    outputs: tuple[Output, ...]
    release: tuple[str, ...]

    @property
    def size(self) -> int:
        return math.prod(self.shape)


def scalar_form(op) -> str | None:
    return getattr(op, "scalar", None) or FORMS.get(op.name)


def broadcasts(shapes) -> tuple | None:
    try:
        return ops.broadcast("fused", *shapes)
    except ops.ShapeMismatch:
        return None


def fuse(plan, reduce: str | None, batched: set[str], blas_reduced=frozenset()) -> tuple:
    """The plan's steps in order, each maximal run (module docstring) as a Group."""
    last_read = {o: i for i, s in enumerate(plan.steps) for o in s.operands if isinstance(o, str)}
    items, run = [], []
    for i, step in enumerate(plan.steps):
        fits = (scalar_form(step.op) is not None and step.target in batched
                and step.target not in blas_reduced)
        joined = [plan.shapes[s.target] for _, s in run] + [plan.shapes[step.target]]
        if run and not (fits and broadcasts(joined) is not None):
            items += close(run, plan, reduce, last_read)
            run = []
        if fits:
            run.append((i, step))
        else:
            items.append(step)
    return tuple(items + close(run, plan, reduce, last_read))


def close(run: list, plan, reduce, last_read) -> list:
    """The run [(index, step)] as a Group, or its steps when fusing gains nothing."""
    if not run:
        return []
    end, steps = run[-1][0], [step for _, step in run]
    defined = {s.target for s in steps}
    inputs = dict.fromkeys(o for s in steps for o in s.operands
                           if isinstance(o, str) and o not in defined)
    shape = broadcasts([plan.shapes[s.target] for s in steps])
    outputs = []
    for t in dict.fromkeys(s.target for s in steps):
        later = last_read.get(t, -1) > end
        if later or t in plan.results:
            summed = reduce and not later and t in plan.results and plan.shapes[t] == shape
            outputs.append(Output(t, "sum" if summed else None))
    if len(steps) == 1 and not any(o.reduce for o in outputs):
        return steps
    release = tuple(n for s in steps for n in s.release if n not in defined)
    return [Group(tuple(steps), shape, tuple(map(Input, inputs)), tuple(outputs), release)]


def groups(plan, reduce: str | None = None) -> list[Group]:
    """The groups `fuse` makes of `plan` (what the GPU renders as kernels)."""
    batched = batched_names(plan)
    blas = set(fused_reductions(plan, batched)) if reduce else set()
    return [g for g in fuse(plan, reduce, batched, blas) if isinstance(g, Group)]
