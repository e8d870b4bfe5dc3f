"""Running a plan with its fused groups as CUDA kernels.

    values = run_fused(plan, data, cupy, "float32", reduce="mean")
    groups(plan, reduce)     # the `planning.fusion.Group`s a run of `plan` calls

The same contract as `tenflang.interp.run_plan` (same data in, same results
out), and the same code: the interpreter's generated Python with fusion on
(`codegen.generate`), whose calls `F.fused_<k>(dtype, *inputs)` reach the
group's CUDA kernel instead of a CPU loop.  Every other step is the op
table's forward on `xp` — cupy, so matrix products and the batch sums inside
them run on cuBLAS; a kept loop runs its cell's generated Python on `xp`
per step (interp/runtime/cells.py).

Kernels are made once per (plan, reduce, dtype) and cached by their source.
`runner` is how a kernel launch reaches the device (see `launch`).
"""
from __future__ import annotations

import functools
from types import SimpleNamespace

from .codegen import FORWARDS, build, generate
from ..backends.render import output_order
from .run import collect, prepare
from tenflang.ops.modes import TRAINING, Mode
from tenflang.base.naming import Generated, numbered
from ..backends.cuda.fused import kernel_specs
from ..backends.cuda.launch import FusedKernel, cupy_runner


class GroupCall:
    """`F.fused_<k>(dtype, *inputs)`: the group's outputs in `Group.outputs` order."""

    def __init__(self, kernel: FusedKernel, group, xp):
        self.kernel, self.xp = kernel, xp
        self.order = output_order(group)

    def __call__(self, dtype, *inputs):
        results = self.kernel(self.xp, *inputs)
        return tuple(results[k] for k in self.order)


@functools.lru_cache(maxsize=64)
def compiled_for_gpu(plan, reduce: str | None, dtype: str, xp, runner=cupy_runner):
    """(the generated function, the results it sums over the batch, its `F`)."""
    source, reduced, groups, _, loops = build(plan, reduce, True)
    namespace: dict = {}
    exec(compile(source, f"<tenflang gpu plan {id(plan):x}>", "exec"), namespace)
    calls = {numbered(Generated.FUSED, k): GroupCall(FusedKernel(spec, dtype, runner), group, xp)
             for k, (spec, group) in enumerate(zip(kernel_specs(groups), groups), start=1)}
    return namespace["run"], reduced, SimpleNamespace(**vars(FORWARDS), **calls, **loops)


def run_fused(plan, data: dict, xp, dtype: str = "float64", reduce: str | None = None,
              runner=cupy_runner, mode: Mode = TRAINING) -> dict:
    env, batch = prepare(plan, data, xp, dtype, mode)
    function, reduced, forwards = compiled_for_gpu(plan, reduce, dtype, xp, runner)
    values = function(env, xp, forwards, xp.dtype(dtype))
    return collect(plan, values, reduced, batch, reduce, xp)


def groups(plan, reduce: str | None = None) -> tuple:
    """The fused groups of `plan` (with `reduce`: of its training step), in the
    order the generated code calls them (`F.fused_1`, `F.fused_2`, …): the GPU
    fuses exactly the groups the CPU's loops do, each becoming one kernel."""
    return generate(plan, reduce, True)[2]
