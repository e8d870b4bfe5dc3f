"""Running a plan with its fused groups as CUDA kernels.

    values = run_fused(plan, data, cupy, "float32", reduce="mean")

The same contract as `tenflang.interp.run_plan` (same data in, same results
out), step by step: a step that starts a fused group launches the group's
kernel and skips the group's other steps; any other step is the op table's
forward on `xp` (matrix products and reductions: cuBLAS and cupy's own
kernels).  A result the training step sums over the examples is summed inside
its product (one GEMM) when the interpreter would do so, or inside its group's
kernel; values are released after their last use, as the plan says.

Kernels are made once per (plan, dtype, reduce) and cached by their source.
`runner` is how a kernel launch reaches the device (see `launch`).
"""
from __future__ import annotations

import functools

from ..interp.codegen import batched_names, fused_reductions, written
from ..interp.run import collect, prepare
from .fused import kernel_specs
from .groups import groups as plan_groups
from .launch import FusedKernel, cupy_runner


@functools.lru_cache(maxsize=64)
def fused_plan(plan, dtype: str, reduce: str | None, runner=cupy_runner):
    """{index of a group's first step: (kernel, group)}, the steps groups cover,
    and the results reduced inside their products."""
    groups = plan_groups(plan, reduce)
    specs = kernel_specs(plan, groups)
    first = {plan.steps.index(g.steps[0]): (FusedKernel(s, dtype, runner), g)
             for g, s in zip(groups, specs)}
    covered = {s.target for g in groups for s in g.steps}
    products = fused_reductions(plan, batched_names(plan)) if reduce else {}
    return first, covered, {k: v for k, v in products.items() if k not in covered}


def constant(xp, value: float, dtype: str):
    """A literal operand as a one-element array (made once: no copy per step)."""
    return _constants(xp, dtype)(float(value))


@functools.lru_cache(maxsize=8)
def _constants(xp, dtype):
    return functools.lru_cache(maxsize=256)(lambda v: xp.asarray([v], dtype=dtype))


def run_fused(plan, data: dict, xp, dtype: str = "float64", reduce: str | None = None,
              runner=cupy_runner) -> dict:
    env, batch = prepare(plan, data, xp, dtype)
    first, covered, products = fused_plan(plan, dtype, reduce, runner)
    summed = {}
    for i, step in enumerate(plan.steps):
        if i in first:
            launch_group(*first[i], env, summed, xp)
        elif step.target in products:
            a, b = (env[o] for o in step.operands)
            summed[step.target] = eval(products[step.target].format(a="a", b="b"),
                                       {"xp": xp, "a": a, "b": b})
        elif step.target not in covered:
            env[step.target] = step.op.forward(xp, *(
                env[o] if isinstance(o, str) else constant(xp, o, dtype) for o in step.operands),
                *written(step.attrs))
        for name in step.release:
            env.pop(name, None)
    return collect(plan, env | summed, summed, batch, reduce, xp)


def launch_group(kernel, group, env: dict, summed: dict, xp) -> None:
    """Run one group's kernel: its outputs into `env`, its batch sum into `summed`."""
    outputs = kernel(xp, *(env[n] for n in group.inputs))
    env.update(zip(group.outputs, outputs))
    if group.reduced:
        summed[group.reduced] = outputs[-1]
