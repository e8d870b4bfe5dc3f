"""Running a plan with its fused groups as CUDA kernels.

    values = run_fused(plan, data, cupy, "float32", reduce="mean")

The same contract as `tenflang.interp.run_plan` (same data in, same results
out), item by item of the fusion (`groups.fuse`): a group launches its
kernel; any other step is the op table's forward on `xp` (matrix products and reductions: cuBLAS and cupy's own
kernels).  A result the training step sums over the examples is summed inside
its product (one GEMM) when the interpreter would do so, or inside its group's
kernel; values are released after their last use, as the plan says.

Kernels are made once per (plan, dtype, reduce) and cached by their source.
`runner` is how a kernel launch reaches the device (see `launch`).
"""
from __future__ import annotations

import functools

from ..interp.codegen import FORWARDS, batched_names, fused_reductions, written
from ..interp.run import collect, prepare
from .fused import kernel_specs
from .groups import Group, fuse
from .launch import FusedKernel, cupy_runner


@functools.lru_cache(maxsize=64)
def fused_plan(plan, dtype: str, reduce: str | None, runner=cupy_runner):
    """The plan's items (steps, and groups with their kernels) and the results
    reduced inside their products."""
    batched = batched_names(plan)
    products = fused_reductions(plan, batched) if reduce else {}
    items = fuse(plan, reduce, batched, frozenset(products))
    groups = [g for g in items if isinstance(g, Group)]
    kernels = iter([FusedKernel(s, dtype, runner) for s in kernel_specs(plan, groups)])
    return tuple((item, next(kernels) if isinstance(item, Group) else None)
                 for item in items), products


def constant(xp, value: float, dtype: str):
    """A literal operand as a one-element array (made once: no copy per step)."""
    return _constants(xp, dtype)(float(value))


@functools.lru_cache(maxsize=8)
def _constants(xp, dtype):
    return functools.lru_cache(maxsize=256)(lambda v: xp.asarray([v], dtype=dtype))


def run_fused(plan, data: dict, xp, dtype: str = "float64", reduce: str | None = None,
              runner=cupy_runner) -> dict:
    env, batch = prepare(plan, data, xp, dtype)
    items, products = fused_plan(plan, dtype, reduce, runner)
    summed = {}
    for item, kernel in items:
        if kernel is not None:
            launch_group(kernel, item, env, summed, xp)
        elif item.target in products:
            summed[item.target] = in_product(products[item.target], item, env, xp)
        else:
            env[item.target] = item.op.forward(xp, *(
                env[o] if isinstance(o, str) else constant(xp, o, dtype) for o in item.operands),
                *written(item.attrs))
        for name in item.release:
            env.pop(name, None)
    return collect(plan, env | summed, summed, batch, reduce, xp)


def in_product(template: str, step, env: dict, xp):
    """A batch sum done inside its product, by the interpreter's own code for it."""
    names = dict(zip("abc", step.operands))
    code = template.format(**{k: k for k in names},
                           attrs=", ".join(map(repr, written(step.attrs))))
    return eval(code, {"xp": xp, "F": FORWARDS, **{k: env[n] for k, n in names.items()}})


def launch_group(kernel, group, env: dict, summed: dict, xp) -> None:
    """Run one group's kernel: its outputs into `env`, its batch sums into `summed`."""
    outputs = kernel(xp, *(env[i.name] for i in group.inputs))
    kept = [o.name for o in group.outputs if not o.reduce]
    env.update(zip(kept, outputs))
    summed.update(zip([o.name for o in group.outputs if o.reduce], outputs[len(kept):]))
