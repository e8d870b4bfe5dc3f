"""Running a rendered kernel on the device: compile once, launch per batch.

    kernel = FusedKernel(spec, "float32")
    outputs = kernel(xp, *inputs)      # the spec's outputs, then its reduced values

Compiled kernels are cached by their source (`cupy.RawKernel`, itself cached
on disk by cupy), so two programs that fuse the same steps share one.  The
launch geometry is a grid-stride loop: blocks of `BLOCK` threads (the CUDA
renderer's `block`), at most
`MAX_BLOCKS` of them, whatever the batch size.

How a launch reaches the device is one function, the *runner*
`runner(source, name, grid, block, args)`: `cupy_runner` on a GPU; the test
suite passes one that runs the same source compiled for the host, so the
launch arithmetic (shapes, partial sums) is checked without a GPU.
"""
from __future__ import annotations

import functools

import numpy as np

from .kernels import RENDERER, KernelSpec, render, size
from .ptx import OPTIONS

BLOCK = RENDERER.block
MAX_BLOCKS = 8192          # × 256 threads: enough to fill any current GPU
REDUCE_THREADS = 1 << 16   # a batch reduction uses about this many threads …
MAX_RUN = 64               # … and no thread sums more than this many examples


@functools.lru_cache(maxsize=1024)
def raw_kernel(source: str, name: str):
    import cupy      # only ever reached with cupy as the array module
    return cupy.RawKernel(source, name, options=OPTIONS)


def cupy_runner(source: str, name: str, grid: int, block: int, args) -> None:
    args = tuple(np.int64(a) if isinstance(a, int) else a for a in args)
    raw_kernel(source, name)((grid,), (block,), args)


def reduction_rows(batch: int, n: int) -> int:
    """How many partial sums per element: enough threads, short serial sums."""
    return max(1, min(batch, max(REDUCE_THREADS // n, -(-batch // MAX_RUN))))


class FusedKernel:
    """One fused group, ready to run on arrays of `dtype` (see module docstring)."""

    def __init__(self, spec: KernelSpec, dtype: str, runner=cupy_runner,
                 block: int = BLOCK, max_blocks: int = MAX_BLOCKS):
        self.spec, self.dtype, self.runner = spec, dtype, runner
        self.source = render(spec, dtype)
        self.block, self.max_blocks = block, max_blocks

    def grid(self, threads: int) -> int:
        return max(1, min(self.max_blocks, -(-threads // self.block)))

    def __call__(self, xp, *inputs):
        spec, n = self.spec, size(self.spec.shape)
        inputs = [xp.ascontiguousarray(a, dtype=self.dtype) for a in inputs]
        batch = max([a.shape[0] for a, v in zip(inputs, spec.inputs) if v.batched], default=1)
        outputs = [xp.empty((batch if v.batched else 1,) + tuple(v.shape), dtype=self.dtype)
                   for v in spec.outputs]
        if not spec.reduced:
            self.runner(self.source, spec.name, self.grid(batch * n), self.block,
                        [*inputs, *outputs, batch])
            return outputs
        rows = reduction_rows(batch, n)
        partials = [xp.empty((rows, n), dtype=self.dtype) for _ in spec.reduced]
        self.runner(self.source, spec.name, self.grid(rows * n), self.block,
                    [*inputs, *outputs, *partials, batch, rows])
        return outputs + [(p[0] if rows == 1 else p.sum(axis=0)).reshape(spec.shape)
                          for p in partials]
