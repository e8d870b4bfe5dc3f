"""Which steps of a plan run as one kernel: the GPU backend's interim grouping.

Maximal runs of consecutive elementwise steps whose shapes broadcast together
become one `Group` (plain frozen dataclass: steps, inputs read from outside,
outputs used after the run, and `reduced`, the run's last value when the
training step sums it over the examples and nothing else reads it).  `FORMS`
gives each elementwise op its per-element scalar form, a Python expression
over `a`, `b`, exact in the tails as the op table's forwards are.

The interpreter's fusion pass (docs/guide.md, "Fused loops") groups the same
way for the CPU; when it and the op table's scalar forms are there, the GPU
renders its groups and these two definitions go.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import ops
from ..interp.codegen import batched_names

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
    "max": "max(a, b)", "min": "min(a, b)",
}


@dataclass(frozen=True)
class Group:
    steps: tuple
    inputs: tuple
    outputs: tuple
    reduced: str | None = None


def fits(run, step, shapes) -> bool:
    try:
        ops.broadcast("group", *(shapes[s.target] for s in run + [step]))
        return True
    except ops.ShapeMismatch:
        return False


def runs(plan):
    """Consecutive elementwise steps whose shapes broadcast together."""
    run = []
    for step in plan.steps:
        if not (step.op.elementwise and step.op.name in FORMS):
            if run:
                yield run
            run = []
        elif fits(run, step, plan.shapes):
            run.append(step)
        else:
            yield run
            run = [step]
    if run:
        yield run


def groups(plan, reduce: str | None = None) -> list[Group]:
    """The plan's groups; with `reduce` (a training step), a group may end in the
    batch reduction of a result."""
    batched = batched_names(plan)
    out = []
    for run in runs(plan):
        made = {s.target for s in run}
        inputs = dict.fromkeys(o for s in run for o in s.operands
                               if isinstance(o, str) and o not in made)
        later = {o for s in plan.steps if s not in run for o in s.operands if isinstance(o, str)}
        outputs = [s.target for s in run if s.target in later or s.target in plan.results]
        last = run[-1].target
        shape = ops.broadcast("group", *(plan.shapes[s.target] for s in run))
        reduced = last if (reduce and last in plan.results and last not in later
                           and last in batched and plan.shapes[last] == shape) else None
        out.append(Group(tuple(run), tuple(inputs), tuple(o for o in outputs if o != reduced),
                         reduced))
    return out
