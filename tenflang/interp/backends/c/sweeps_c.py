"""Sweeps (interp/planning/sweeps.py) rendered as C loops on the CPU.

    module_source(sweeps, "float64")   # readable C: one function per sweep
    functions(sweeps)                  # sweep_k -> its Python wrapper

Conventions (those of interp/backends/render.py and c_loops.py, whose loads, chain
lines and stores these loops are):

* Per sweep k, `sweep_k(start, stop, rows, w, x, inputs..., outputs..., g)`
  runs examples start..stop-1 in blocks of `rows` examples.  Per example i:
  z = Σ_j x[e*D + j] w[j], the chain (the group's steps, in registers), then
  the row's share r·x[e] added into the block's partial sum of g
  (`g_partial[block*D + j]`), the row still in the cache: X is read once.  The
  dot product keeps `LANES` partial sums (lane l takes the columns j ≡ l mod
  LANES but the tail's, which go to lane 0; then the lanes are added
  pairwise), so the compiler can use vector instructions without reordering
  IEEE arithmetic of its own accord.  (Rows in pairs, or a block's dot
  products before its chain, measured slower.)
* Each sweep is compiled twice from the same text: `sweep_k_plain` for any
  CPU (the compile flags name no instruction set: SSE2 on x86-64) and, with
  GCC or clang on x86-64, `sweep_k_avx2` (`target("avx2")`: 4 doubles a
  vector instruction, no FMA, and contraction stays off: the same IEEE
  operations in the same order, so the same bits).  `sweep_k` calls the one
  the CPU runs.  The dot product and the axpy are about 60% of a logistic
  regression's sweep; AVX2 took its step from 19.8 to 16.2 ms (200,000 x 100).
* The group's other outputs are written `out[e]`, or summed per block
  (`partial[block]`) when they are batch sums.
* `rows` depends on the batch alone (`block_rows`): at least c_loops.BLOCK,
  and large enough that there are at most MAX_BLOCKS partial sums of g (their
  memory stays below a thousandth of X's).  The wrapper splits the blocks over
  `threads()` threads and adds the partial sums up in block order, so results
  do not depend on the thread count, and equal the unfused plan's (BLAS's
  X·w and Xᵀr) to round-off.
* The arrays reach `sweep_k` as addresses (`cpython.address`, whose rule is
  native/cpython.py's: the wrapper holds every array until the last thread returns).
"""
from __future__ import annotations

import ctypes
import functools
import math

import numpy as np

from tenflang.native import clib
from tenflang.native.cpython import address
from tenflang.native.loop_pool import parallel, submit, threads
from tenflang.base.naming import Generated, numbered
from .c_loops import RENDERER
from ..cpu_loops import MIN_BLOCKS_PER_THREAD
from ..render import BLOCK, KernelSpec, Value, group_spec, output_order
from ..scalar_c import CTYPES, DTYPES, preamble

LANES = 8                  # partial sums of one dot product
MAX_BLOCKS = 256           # partial sums of g per call, at most
SWEEP_WORDS = ("D", "row", "g")     # the sweep's words, beside render.WORDS
# each sweep is compiled twice, the one the CPU can run chosen at its call:
# variant -> its functions' qualifier (TF_AVX2: see DISPATCH) and name suffix
VARIANTS = {"plain": ("", "_plain"), "avx2": ("TF_AVX2 ", "_avx2")}
DISPATCH = """\
#if defined(__x86_64__) && defined(__GNUC__)
#define TF_AVX2 __attribute__((target("avx2")))
#define TF_HAS_AVX2() (__builtin_cpu_init(), __builtin_cpu_supports("avx2"))
#else
#define TF_AVX2
#define TF_HAS_AVX2() 0
#endif"""


def dot_source(dtype: str, variant: str = "plain") -> str:
    """`tf_dot_<type>[_avx2](a, b, n)`: Σ a_j b_j in LANES partial sums, added
    pairwise (module docstring); scalars, not an array, so they stay in registers."""
    qualifier, suffix = VARIANTS[variant]
    t, lanes = CTYPES[dtype], [f"a{l}" for l in range(LANES)]
    terms = " ".join(f"{a} += a[j + {l}] * b[j + {l}];" for l, a in enumerate(lanes))
    total = lanes
    while len(total) > 1:
        half = len(total) // 2
        total = [f"({x} + {y})" for x, y in zip(total[:half], total[half:])]
    return (f"{qualifier}static inline {t} tf_dot_{t}{suffix}(const {t} *restrict a, "
            f"const {t} *restrict b, long n)\n"
            "{\n"
            f"    {t} {' = 0, '.join(lanes)} = 0;\n"
            "    long j = 0;\n"
            f"    for (; j + {LANES} <= n; j += {LANES}) {{\n        {terms}\n    }}\n"
            "    for (; j < n; j++) a0 += a[j] * b[j];\n"
            f"    return {total[0][1:-1]};\n"
            "}\n")


def sweep_spec(k: int, sweep) -> KernelSpec:
    """The sweep's chain as render.py's spec: per-example scalars, z and r locals."""
    outs = [Value(o.name, (), True) for o in sweep.outputs]
    ins = tuple(Value(i.name, (), i.role.varies) for i in sweep.inputs)
    return KernelSpec(numbered(Generated.SWEEP, k), (), ins,
                      group_spec(sweep.group, "").lines,
                      tuple(v for v, o in zip(outs, sweep.outputs) if not o.reduce),
                      tuple(v for v, o in zip(outs, sweep.outputs) if o.reduce))


def sweep_source(k: int, sweep, dtype: str) -> list[str]:
    """The C functions of sweep k (see the module docstring): a variant per
    instruction set, and `sweep_k`, which calls the one the CPU has."""
    t, names, spec = CTYPES[dtype], RENDERER.names(SWEEP_WORDS), sweep_spec(k, sweep)
    arrays = names(sweep.weights, "_in"), names(sweep.matrix, "_in"), names(sweep.target, "_partial")
    params = [f"const {t} *restrict {arrays[0]}", f"const {t} *restrict {arrays[1]}",
              *RENDERER.parameters(spec, names, dtype), f"{t} *restrict {arrays[2]}"]
    signature = f"(long start, long stop, long rows, {', '.join(params)})"
    lines = body_lines(sweep, spec, names, dtype, arrays)
    out = [f"/* {sweep.dense.target}, {', '.join(s.target for s in sweep.group.steps)}, "
           f"{sweep.target}: one pass over {sweep.matrix} */"]
    for qualifier, suffix in VARIANTS.values():
        out += [f"{qualifier}void {spec.name}{suffix}{signature}", "{"]
        out += [line.replace(f"tf_dot_{t}(", f"tf_dot_{t}{suffix}(") for line in lines]
    args = ", ".join(["start", "stop", "rows"] + [p.split()[-1] for p in params])
    return out + ["", f"void {spec.name}{signature}", "{",
                  f"    if (TF_HAS_AVX2()) {spec.name}{VARIANTS['avx2'][1]}({args});",
                  f"    else {spec.name}{VARIANTS['plain'][1]}({args});", "}"]


def body_lines(sweep, spec, names, dtype: str, arrays: tuple) -> list[str]:
    """A variant's body: blocks of rows, per row the dot product, the chain and
    the axpy into the block's partial sum of g (`arrays`: w, x, g's names)."""
    t, body = CTYPES[dtype], " " * 12
    w, x, g = arrays
    lines = [f"    const long D = {sweep.width};",
             "    for (long block = start / rows; block * rows < stop; block++) {",
             "        long end = block * rows + rows < stop ? block * rows + rows : stop;",
             f"        {t} *restrict g = {g} + block * D;",
             "        for (long e = block * rows; e < end; e++) {",
             f"{body}const {t} *restrict row = {x} + e * D;",
             f"{body}const {t} {names(sweep.dense.target)} = tf_dot_{t}(row, {w}, D);    "
             f"// {sweep.dense.target} = dot {' '.join(sweep.dense.operands)}"]
    lines += RENDERER.body(spec, names, dtype, body)
    lines += [body + line for line in RENDERER.partial_sums(spec, names)]
    lines.append(f"{body}for (long j = 0; j < D; j++) g[j] += {names(sweep.residual)} * row[j];"
                 f"    // {sweep.target} = {sweep.product.op.name} "
                 f"{' '.join(sweep.product.operands)}, summed")
    return lines + ["        }", "    }", "}", ""]


def module_source(sweeps, dtype: str = "float64") -> str:
    lines = [f"/* Sweeps of a TenFlang plan, {CTYPES[dtype]} "
             "(generated by tenflang.interp.backends.c.sweeps_c). */", "#include <math.h>", "",
             preamble(dtype, "c").rstrip("\n"), "", DISPATCH]
    lines += [""] + [dot_source(dtype, variant).rstrip("\n") for variant in VARIANTS]
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

    def __init__(self, k: int, sweep, library, variant: str = ""):
        self.k, self.sweep, self.library = k, sweep, library
        self.suffix = VARIANTS[variant][1] if variant else ""     # "": the CPU's own
        self.functions: dict = {}          # dtype name -> the C function
        # Sweep's properties are computed at each use (a few µs apiece): taken once
        outputs = sweep.outputs
        self.kept = sum(not o.reduce for o in outputs)     # arrays, then sums (render.py)
        self.sums = len(outputs) - self.kept
        self.order = output_order(sweep)

    def function(self, dtype: str):
        if dtype not in self.functions:
            f = getattr(self.library(dtype), numbered(Generated.SWEEP, self.k) + self.suffix)
            f.argtypes = [ctypes.c_long] * 3 + [ctypes.c_void_p] * (
                3 + len(self.sweep.inputs) + len(self.sweep.outputs))
            f.restype = None
            self.functions[dtype] = f
        return self.functions[dtype]

    def __call__(self, dtype, *inputs):
        dtype = np.dtype(dtype)
        f = self.function(DTYPES[dtype])
        arrays = [np.ascontiguousarray(a, dtype=dtype) for a in inputs]
        n = arrays[1].shape[0]
        rows = block_rows(n)
        blocks = math.ceil(n / rows)
        kept = self.kept
        outs = [np.empty(n, dtype) for _ in range(kept)] + [
            np.zeros(blocks, dtype) for _ in range(self.sums)]
        g = np.zeros((blocks, self.sweep.width), dtype)
        pointers = [address(a) for a in arrays + outs + [g]]
        work = spans(n, rows, threads())
        with parallel():
            calls = [submit(f, a, b, rows, *pointers) for a, b in work[1:]]
            f(*work[0], rows, *pointers)
            for call in calls:
                call.result()
        outs = outs[:kept] + [out.sum(axis=0) for out in outs[kept:]]
        return tuple(outs[k] for k in self.order) + (g.sum(axis=0),)


def functions(sweeps, dtype: str = "float64") -> dict:
    """sweep_k -> its wrapper, for every sweep; the library of `dtype` (the
    run's) is built here, so a machine without a working C compiler raises
    clib.Unavailable now, not in the middle of a run."""
    sweeps = tuple(sweeps)

    @functools.lru_cache(maxsize=None)
    def library(dtype: str):
        return clib.library(module_source(sweeps, dtype))
    library(dtype)
    return {numbered(Generated.SWEEP, k): Pass(k, sweep, library)
            for k, sweep in enumerate(sweeps, 1)}
