"""The CPU's fused loops called from the generated Python: one wrapper for
the C loops (interp/c_loops.py) and their numba twin (interp/numba_loops.py).

    F = functions(groups)            # fused_k -> Loop; native.Unavailable without either
    o, s = F["fused_1"](dtype, x, w) # the group's outputs in `Group.outputs` order

Conventions:

* `Loop(dtype, *inputs)` returns arrays as [B, *shape] and sums as [*shape]
  (over the examples; the caller divides by B for a mean).  It allocates the
  outputs and one partial sum per block of `render.BLOCK` examples, splits
  the examples at block boundaries over `threads()` threads and adds the
  partials up in block order, so a sum is the same for any number of threads.
  ctypes and numba's `nogil` release the GIL during each call, so the threads
  run at once.
* The C loops where a C compiler works (no import cost once cached), else
  numba where it is installed; else `native.Unavailable`, and the caller runs
  the plan unfused on numpy.
"""
from __future__ import annotations

import math

import numpy as np

from .. import native
from ..native import pool, threads
from ..naming import Generated, numbered
from . import c_loops, numba_loops
from .render import BLOCK, group_specs, output_order

MIN_BLOCKS_PER_THREAD = 16  # below this a thread costs more than it saves


def spans(n: int, count: int) -> list[tuple[int, int]]:
    """[start, stop) ranges covering 0..n-1, cut at block boundaries."""
    blocks = math.ceil(n / BLOCK)
    count = max(1, min(count, blocks // MIN_BLOCKS_PER_THREAD))
    cuts = [BLOCK * (blocks * t // count) for t in range(count)] + [n]
    return [(a, min(b, n)) for a, b in zip(cuts, cuts[1:]) if a < n]


class Loop:
    """The Python wrapper `fused_k` of one group (see the module docstring)."""

    def __init__(self, group, spec, loops):
        self.spec, self.loops, self.order = spec, loops, output_order(group)
        self.batch = next(n for n, i in enumerate(group.inputs) if i.role.varies)
        self.functions: dict = {}          # dtype name -> the compiled loop

    def function(self, dtype: str):
        if dtype not in self.functions:
            self.functions[dtype] = self.loops.function(self.spec, dtype)
        return self.functions[dtype]

    def __call__(self, dtype, *inputs):
        dtype, spec = np.dtype(dtype), self.spec
        f, size = self.function(dtype.name), math.prod(spec.shape)
        arrays = [np.ascontiguousarray(a, dtype=dtype) for a in inputs]
        n = arrays[self.batch].shape[0]
        outs = [np.empty((n, size), dtype) for _ in spec.outputs]
        partials = [np.zeros((math.ceil(n / BLOCK), size), dtype) for _ in spec.reduced]
        args = self.loops.arguments(arrays + outs + partials)
        work = spans(n, threads())
        calls = [pool().submit(f, a, b, *args) for a, b in work[1:]]
        f(*work[0], *args)
        for call in calls:
            call.result()
        results = [o.reshape((n,) + spec.shape) for o in outs] + \
            [p.sum(axis=0).reshape(spec.shape) for p in partials]
        return tuple(results[k] for k in self.order)


def functions(groups) -> dict:
    """fused_k -> its wrapper, for every group."""
    groups = tuple(groups)
    specs = group_specs(groups)
    try:
        loops = c_loops.compiled(specs)
    except native.Unavailable:
        loops = numba_loops.compiled(specs)
    return {numbered(Generated.FUSED, k): Loop(g, s, loops)
            for k, (g, s) in enumerate(zip(groups, specs), 1)}
