"""The CPU's fused loops called from the generated Python: one wrapper for
the C loops (interp/backends/c/c_loops.py) and their numba twin (interp/backends/numba/numba_loops.py).

    F = functions(groups)            # fused_k -> Loop; clib.Unavailable without either
    o, s = F["fused_1"](dtype, x, w) # the group's outputs in `Group.outputs` order

Conventions:

* `Loop(dtype, *inputs, out=None)` returns arrays as [B, *shape] and sums as
  [*shape] (over the examples; the caller divides by B for a mean).  It
  writes the arrays into `out`'s where given (None for a sum or an array to
  make: the memory plan's buffers, interp/runtime/memory.py), else allocates them,
  and one partial sum per block of `render.BLOCK` examples.  A loop with sums
  splits the examples at block boundaries over `threads()` threads and adds
  the partials up in block order, so a sum is the same for any number of
  threads; a loop without sums splits them by the elements each thread writes
  (`loop_pool.MIN_WORK` at least: a convolutional layer's bias and relu over 256
  examples of [6, 28, 28] is one block but 1.2 M elements).  A loop over
  per-example scalars (or a few elements, an inner loop the compiler unrolls)
  is vectorised over the examples, and one that calls vector math
  (c_loops.py) computes the examples of a vector and those of the loop's
  scalar tail with different code: such a loop is cut at multiples of
  `GRAIN` examples, a multiple of every vector width, which leaves each
  example where it was.  A loop over more elements per example is
  vectorised within each example, and cut anywhere.
  ctypes and numba's `nogil` release the GIL during each call, so the threads
  run at once.
* The C loops where a C compiler works (no import cost once cached), else
  numba where it is installed; else `clib.Unavailable`, and the caller runs
  the plan unfused on numpy.
"""
from __future__ import annotations

import math

import numpy as np

from tenflang.native import clib, loop_pool
from tenflang.native.loop_pool import parallel, submit, threads
from tenflang.base.naming import Generated, numbered
from .c import c_loops
from .render import BLOCK, group_specs, output_order

MIN_BLOCKS_PER_THREAD = 16  # below this a thread costs more than it saves
SMALL = BLOCK * (2 * MIN_BLOCKS_PER_THREAD - 1)   # up to this many examples: one call, no threads
GRAIN = 64                  # examples: a loop without sums is cut at multiples of this (docstring)


def spans(n: int, count: int, size: int = 1, sums: bool = True) -> list[tuple[int, int]]:
    """[start, stop) ranges of at most `count` threads covering 0..n-1 examples of
    `size` elements: cut at block boundaries for a loop with sums, else at
    multiples of `GRAIN` examples where fewer than `GRAIN` elements each (a loop
    the compiler may vectorise over the examples), anywhere where more."""
    if not sums:
        grain = GRAIN if size < GRAIN else 1
        grains = -(-n // grain)
        count = max(1, min(count, grains, n * size // loop_pool.MIN_WORK))
        cuts = [grain * (grains * t // count) for t in range(count)] + [n]
        return list(zip(cuts, cuts[1:]))
    blocks = math.ceil(n / BLOCK)
    count = max(1, min(count, blocks // MIN_BLOCKS_PER_THREAD))
    cuts = [BLOCK * (blocks * t // count) for t in range(count)] + [n]
    return [(a, min(b, n)) for a, b in zip(cuts, cuts[1:]) if a < n]


class Loop:
    """The Python wrapper `fused_k` of one group (see the module docstring)."""

    def __init__(self, group, spec, loops):
        self.spec, self.loops, self.order = spec, loops, output_order(group)
        self.batch = next(n for n, i in enumerate(group.inputs) if i.role.varies)
        self.size = math.prod(spec.shape)
        # `out` (in Group.outputs order) -> the arrays the loop writes (spec.outputs order)
        self.written = [self.order.index(k) for k in range(len(spec.outputs))]
        self.functions: dict = {}          # dtype -> the compiled loop

    def function(self, dtype):
        """The compiled loop for `dtype` (a numpy dtype or its name)."""
        if dtype not in self.functions:
            self.functions[dtype] = self.loops.function(self.spec, np.dtype(dtype).name)
        return self.functions[dtype]

    def __call__(self, dtype, *inputs, out=None):
        spec, f = self.spec, self.functions.get(dtype) or self.function(dtype)
        arrays = [np.ascontiguousarray(a, dtype=dtype) for a in inputs]
        n = arrays[self.batch].shape[0]
        outs = [out[k] if out and out[k] is not None else np.empty((n,) + spec.shape, dtype)
                for k in self.written]
        partials = [np.zeros((-(-n // BLOCK), self.size), dtype) for _ in spec.reduced]
        args = self.loops.arguments(arrays + outs + partials)
        if n <= SMALL if spec.reduced else n * self.size < 2 * loop_pool.MIN_WORK:
            f(0, n, *args)                          # one thread: `spans` would say so
        else:
            work = spans(n, threads(), self.size, bool(spec.reduced))
            with parallel():
                calls = [submit(f, a, b, *args) for a, b in work[1:]]
                f(*work[0], *args)
                for call in calls:
                    call.result()
        results = outs + [(p[0] if len(p) == 1 else p.sum(axis=0)).reshape(spec.shape)
                          for p in partials]
        return tuple(results[k] for k in self.order)


def functions(groups, numba: bool = True, dtype: str = "float64") -> dict:
    """fused_k -> its wrapper, for every group (C loops, their library for
    `dtype` built now; else numba's unless not `numba`: clib.Unavailable)."""
    groups = tuple(groups)
    specs = group_specs(groups)
    try:
        loops = c_loops.compiled(specs, dtype)
    except clib.Unavailable:
        if not numba:
            raise
        from .numba import numba_loops       # here: only a machine without a C compiler needs it
        loops = numba_loops.compiled(specs)
    return {numbered(Generated.FUSED, k): Loop(g, s, loops)
            for k, (g, s) in enumerate(zip(groups, specs), 1)}
