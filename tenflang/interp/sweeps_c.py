"""Sweeps (interp/sweeps.py) rendered as C loops on the CPU.

    module_source(sweeps, "float64")   # readable C: one function per sweep
    functions(sweeps)                  # sweep_k -> its Python wrapper

Conventions (those of interp/c_loops.py, whose chain lines these loops reuse):

* Per sweep k, `sweep_k(start, stop, rows, w, x, inputs..., outputs..., g)`
  runs examples start..stop-1 in blocks of `rows` examples.  Per example i:
  z = Σ_j x[i*D + j] w[j], the chain (the group's steps, in registers), then
  the row's share r·x[i] added into the block's partial sum of g
  (`g_part[block*D + j]`), the row still in the cache: X is read once.  The
  dot product keeps `LANES` partial sums (lane l takes the columns j ≡ l mod
  LANES but the tail's, which go to lane 0; then the lanes are added
  pairwise), so the compiler can use vector instructions without reordering
  IEEE arithmetic of its own accord.  (Rows in pairs, or a block's dot
  products before its chain, measured slower.)
* The group's other outputs are written `out[i]`, or summed per block
  (`part[block]`) when they are batch sums.
* `rows` depends on the batch alone (`block_rows`): at least c_loops.BLOCK,
  and large enough that there are at most MAX_BLOCKS partial sums of g (their
  memory stays below a thousandth of X's).  The wrapper splits the blocks over
  `threads()` threads and adds the partial sums up in block order, so results
  do not depend on the thread count, and equal the unfused plan's (BLAS's
  X·w and Xᵀr) to round-off.
"""
from __future__ import annotations

import ctypes
import functools
import math

import numpy as np

from .. import native
from ..native import pool, threads
from ..naming import Identifiers, c_identifier
from .c_loops import BLOCK, INDEX, MIN_BLOCKS_PER_THREAD, step_line
from .scalar_c import CTYPES, preamble

LANES = 8                  # partial sums of one dot product
MAX_BLOCKS = 256           # partial sums of g per call, at most
SWEEP_WORDS = ("i", "j", "D", "start", "stop", "rows", "block", "end", "row", "g")


def dot_source(dtype: str) -> str:
    """`tf_dot_<type>(a, b, n)`: Σ a_j b_j in LANES partial sums, added pairwise
    (module docstring); scalars, not an array, so they stay in registers."""
    t, lanes = CTYPES[dtype], [f"a{l}" for l in range(LANES)]
    terms = " ".join(f"{a} += a[j + {l}] * b[j + {l}];" for l, a in enumerate(lanes))
    total = lanes
    while len(total) > 1:
        half = len(total) // 2
        total = [f"({x} + {y})" for x, y in zip(total[:half], total[half:])]
    return (f"static inline {t} tf_dot_{t}(const {t} *restrict a, const {t} *restrict b, long n)\n"
            "{\n"
            f"    {t} {' = 0, '.join(lanes)} = 0;\n"
            "    long j = 0;\n"
            f"    for (; j + {LANES} <= n; j += {LANES}) {{\n        {terms}\n    }}\n"
            "    for (; j < n; j++) a0 += a[j] * b[j];\n"
            f"    return {total[0][1:-1]};\n"
            "}\n")


def sweep_source(k: int, sweep, dtype: str) -> list[str]:
    """The C function of sweep k (see the module docstring)."""
    t, names = CTYPES[dtype], Identifiers(c_identifier, SWEEP_WORDS)
    w, x, g = names(sweep.weights, "_in"), names(sweep.matrix, "_in"), names(sweep.target, "_part")
    ins = [f"const {t} *restrict {names(i.name, '_in')}" for i in sweep.inputs]
    outs = [f"{t} *restrict {names(o.name, '_part' if o.reduce else '_out')}"
            for o in sweep.outputs]
    params = [f"const {t} *restrict {w}", f"const {t} *restrict {x}", *ins, *outs,
              f"{t} *restrict {g}"]
    body = " " * 12
    lines = [f"/* {sweep.dense.target}, {', '.join(s.target for s in sweep.group.steps)}, "
             f"{sweep.target}: one pass over {sweep.matrix} */",
             f"void sweep_{k}(long start, long stop, long rows, {', '.join(params)})", "{",
             f"    const long D = {sweep.width};",
             "    for (long block = start / rows; block * rows < stop; block++) {",
             "        long end = block * rows + rows < stop ? block * rows + rows : stop;",
             f"        {t} *restrict g = {g} + block * D;",
             "        for (long i = block * rows; i < end; i++) {",
             f"{body}const {t} *restrict row = {x} + i * D;",
             f"{body}{t} {names(sweep.dense.target)} = tf_dot_{t}(row, {w}, D);    "
             f"/* {sweep.dense.target} = dot {' '.join(sweep.dense.operands)} */"]
    lines += [f"{body}{t} {names(i.name)} = {names(i.name, '_in')}{INDEX[i.role]};"
              for i in sweep.inputs]
    lines += [body + step_line(step, names, dtype) for step in sweep.group.steps]
    for o in sweep.outputs:
        lines.append(f"{body}{names(o.name, '_part')}[block] += {names(o.name)};" if o.reduce
                     else f"{body}{names(o.name, '_out')}[i] = {names(o.name)};")
    lines.append(f"{body}for (long j = 0; j < D; j++) g[j] += {names(sweep.residual)} * row[j];"
                 f"    /* {sweep.target} = {sweep.product.op.name} "
                 f"{' '.join(sweep.product.operands)}, summed */")
    return lines + ["        }", "    }", "}"]


def module_source(sweeps, dtype: str = "float64") -> str:
    lines = [f"/* Sweeps of a TenFlang plan, {CTYPES[dtype]} "
             "(generated by tenflang.interp.sweeps_c). */", "#include <math.h>", "",
             preamble(dtype, "c").rstrip("\n"), "", dot_source(dtype).rstrip("\n")]
    for k, sweep in enumerate(sweeps, 1):
        lines += [""] + sweep_source(k, sweep, dtype)
    return "\n".join(lines) + "\n"


def block_rows(n: int) -> int:
    """Examples per partial sum for a batch of n (module docstring)."""
    return max(BLOCK, math.ceil(n / MAX_BLOCKS))


def spans(n: int, rows: int, count: int) -> list[tuple[int, int]]:
    """[start, stop) ranges covering 0..n-1, cut at block boundaries."""
    blocks = math.ceil(n / rows)
    count = max(1, min(count, blocks // MIN_BLOCKS_PER_THREAD))
    cuts = [rows * (blocks * t // count) for t in range(count)] + [n]
    return [(a, min(b, n)) for a, b in zip(cuts, cuts[1:]) if a < n]


class Pass:
    """The Python wrapper `sweep_k(dtype, w, x, *inputs)` of one sweep: its
    outputs in `Sweep.outputs` order, then g (arrays [B], sums [], g [d])."""

    def __init__(self, k: int, sweep, library):
        self.k, self.sweep, self.library = k, sweep, library
        self.functions: dict = {}          # dtype name -> the C function

    def function(self, dtype: str):
        if dtype not in self.functions:
            f = getattr(self.library(dtype), f"sweep_{self.k}")
            f.argtypes = [ctypes.c_long] * 3 + [ctypes.c_void_p] * (
                3 + len(self.sweep.inputs) + len(self.sweep.outputs))
            f.restype = None
            self.functions[dtype] = f
        return self.functions[dtype]

    def __call__(self, dtype, *inputs):
        dtype = np.dtype(dtype)
        f = self.function(dtype.name)
        arrays = [np.ascontiguousarray(a, dtype=dtype) for a in inputs]
        n = arrays[1].shape[0]
        rows = block_rows(n)
        blocks = math.ceil(n / rows)
        outs = [np.zeros(blocks, dtype) if o.reduce else np.empty(n, dtype)
                for o in self.sweep.outputs] + [np.zeros((blocks, self.sweep.width), dtype)]
        pointers = [a.ctypes.data for a in arrays + outs]
        work = spans(n, rows, threads())
        calls = [pool().submit(f, a, b, rows, *pointers) for a, b in work[1:]]
        f(*work[0], rows, *pointers)
        for call in calls:
            call.result()
        kinds = [o.reduce for o in self.sweep.outputs] + [True]
        return tuple(out.sum(axis=0).reshape(out.shape[1:]) if reduce else out
                     for reduce, out in zip(kinds, outs))


def functions(sweeps) -> dict:
    """sweep_k -> its wrapper, for every sweep; the float64 library is built
    here, so a machine without a working C compiler raises native.Unavailable
    now, not in the middle of a run."""
    sweeps = tuple(sweeps)

    @functools.lru_cache(maxsize=None)
    def library(dtype: str):
        return native.library(module_source(sweeps, dtype))
    library("float64")
    return {f"sweep_{k}": Pass(k, sweep, library) for k, sweep in enumerate(sweeps, 1)}
