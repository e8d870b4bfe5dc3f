"""Running a plan on a batch of examples, on an array module `xp`.

    values = run_plan(plan, data, xp=numpy, dtype="float64")

`data` maps names to arrays: inputs and exp_outputs with a leading example
axis of length B, weights without.  The result maps each of the plan's
results to an array with a leading example axis of length B (None for NULL).
With `reduce="sum"` (or "mean") each result is instead summed (averaged)
over the examples; for a result made by `outer` or `matmul` of two
per-example values the reduction is done inside the product (one GEMM), so
a dense layer's weight gradient never materialises a [B, out, in] array.
The plan runs as generated Python (see `codegen`).  With a reduction it
writes its intermediates into buffers (interp/runtime/memory.py): `buffers`, a
`Buffers` the caller keeps between runs (the training loop does), reuses
them for every run of the same batch shape; without, each run makes its own.  `mode` is training
(the default) or evaluation, as tenflang/ops/modes.py describes: it matters only
to `batch_mean` and `dropout_mask`.
"""
from __future__ import annotations

import numpy as np

from tenflang.native import blas_threads, malloc, switches
from tenflang.base.errors import TenflangError
from tenflang.ops.shapes import fmt_shape
from tenflang.ops.modes import MODE_KEY, TRAINING, Mode
from tenflang.ops.entries import Reduction
from ..backends.c import c_loops
from .codegen import compiled
from .native_run import run_native
from .memory import Buffers

# examples: below this numpy's vectorised calls beat most loops (math functions
# element by element), and only some groups are fused (docs/guide/performance.md, "Speed")
FUSE_FROM = 1000


def fuses(xp) -> bool:
    """Whether a run uses fused loops (interp/planning/fusion.py): on the CPU, unless
    TENFLANG_FUSE=0 (`switches.fused_loops_on`); below `FUSE_FROM` examples only some
    (`fusion.fuse`'s `small`)."""
    return xp is np and switches.fused_loops_on()


def prepare(plan, data: dict, xp, dtype, mode: Mode = TRAINING) -> tuple[dict, int]:
    """The run's values to start from (the data on `xp` in `dtype`, and the
    mode, its example indices settled), and the batch size."""
    env, batch = {}, None
    for name in plan.bound:
        if data.get(name) is None:
            raise TenflangError(f"missing '{name}': the plan binds {', '.join(plan.bound)}")
        value = xp.asarray(data[name], dtype=dtype)
        per_example = value.shape[1:] if name in plan.batched and value.ndim else value.shape
        if tuple(per_example) != tuple(plan.shapes[name]):
            raise TenflangError(f"'{name}' has shape {tuple(value.shape)}, expected "
                                f"{fmt_shape(plan.shapes[name])}"
                                f"{' per example' if name in plan.batched else ''}")
        if name in plan.batched:
            examples = value.shape[0] if value.ndim else 1
            if batch is not None and examples != batch:
                raise TenflangError(f"'{name}' has {examples} examples, expected {batch}")
            batch = examples
            env[name] = value if value.ndim else value.reshape(1)
        else:
            env[name] = value[None]
    batch = 1 if batch is None else batch
    try:
        env[MODE_KEY] = mode.for_batch(batch)
    except ValueError as err:
        raise TenflangError(str(err)) from None
    return env, batch


def run_plan(plan, data: dict, xp=np, dtype="float64", reduce: str | None = None,
             mode: Mode = TRAINING, buffers: Buffers | None = None) -> dict:
    if xp is np:
        malloc.keep_freed_memory()
        blas_threads.settle()           # BLAS's threads as many as the loops', once
    env, batch = prepare(plan, data, xp, dtype, mode)
    fusing = fuses(xp)
    small = fusing and batch < FUSE_FROM
    if small and reduce and switches.native_kernels_on():     # the step as one C call
        values = run_native(plan, env, batch, reduce, np.dtype(dtype).name, buffers or Buffers())
        if values is not None:
            return values
    # numpy's float32 math functions are vectorised already, its float64 ones are not
    vector_math = small and np.dtype(dtype) == np.float64 and c_loops.vector_math()
    function, fused, forwards, layout = compiled(plan, reduce, fusing, pooled=reduce is not None,
                                                 small=small, vector_math=vector_math,
                                                 dtype=np.dtype(dtype).name)
    if layout is None:
        return collect(plan, function(env, xp, forwards, xp.dtype(dtype)), fused, batch, reduce, xp)
    buf = (buffers or Buffers()).arrays(layout, batch, xp.dtype(dtype), xp)
    values = function(env, xp, forwards, xp.dtype(dtype), buf)
    return collect(plan, values, fused, batch, reduce, xp)


def collect(plan, values: dict, summed, batch: int, reduce: str | None, xp) -> dict:
    """The plan's results from the run's `values`; those in `summed` were already
    summed over the examples (inside a product or a fused loop)."""
    out = {}
    for name in plan.results:
        if name in plan.null:
            out[name] = None
        elif name in summed:
            out[name] = values[name] / batch if reduce == Reduction.MEAN else values[name]
        else:
            out[name] = finish(values[name], batch, reduce, xp)
    return out


def finish(value, batch: int, reduce: str | None, xp):
    if reduce is None:
        return xp.broadcast_to(value, (batch,) + value.shape[1:]) if value.shape[0] != batch else value
    total = value[0] * batch if value.shape[0] != batch else value.sum(axis=0)
    return total / batch if reduce == Reduction.MEAN else total
