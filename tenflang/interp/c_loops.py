"""Fused groups (interp/fusion.py) rendered as C loops on the CPU.

    module_source(groups, "float64")   # readable C: one function per group
    functions(groups)                  # fused_k -> its Python wrapper

Conventions:

* Per group k, the C function `loop_k(start, stop, inputs..., outputs...)`
  computes examples start..stop-1 of every element; arrays are C-contiguous
  and flattened row-major, indexed per role (fusion.py's docstring):
  full `x[i*S + j]`, example `x[i]`, shared `x[j]`, constant `x[0]` (S: the
  group's elements per example).  An output array is written `out[i*S + j]`;
  a summed output gets one partial sum per block of BLOCK examples
  (`part[block*S + j]`), and the wrapper adds the partials up in block order,
  so a sum is the same for any number of threads.
* The body is each step's `Op.scalar` form written in C by `scalar_c`,
  values keeping their TenFlang names made identifiers (`codegen.python_name`,
  as in the plan).  Arithmetic is IEEE double (or float), compiled without
  fast-math (`native.FLAGS`): results equal the unfused plan's to round-off.
* The wrapper `fused_k(dtype, *inputs)` returns the outputs in
  `Group.outputs` order: arrays as [B, *shape], sums as [*shape].  It splits
  the examples at block boundaries over `threads()` threads; ctypes releases
  the GIL during each call, so they run at once.
* The library is compiled once per source and dtype and cached on disk
  (`native.library`); a machine without a C compiler raises
  `native.Unavailable` from `functions`, and the caller uses numba or numpy.
"""
from __future__ import annotations

import ctypes
import functools
import math
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .. import native
from .codegen import python_name
from .scalar_c import CTYPES, RESERVED_WORDS, literal, preamble, to_c

BLOCK = 1024               # examples per partial sum
MIN_BLOCKS_PER_THREAD = 16  # below this a thread costs more than it saves
INDEX = {"full": "[i * S + j]", "example": "[i]", "shared": "[j]", "constant": "[0]"}
RESERVED = {"i", "j", "S", "start", "stop", "block", "end"} | RESERVED_WORDS   # the loop's own words


def local_names(group) -> dict:
    """C identifiers: TenFlang name -> its value's local, and (name, "in" | "out"
    | "part") -> its array's; all distinct, none a word the loop uses."""
    names: dict = {}
    arrays = [(i.name, "in") for i in group.inputs] + [
        (o.name, "part" if o.reduce else "out") for o in group.outputs]
    for key in [i.name for i in group.inputs] + [s.target for s in group.steps] + arrays:
        base = python_name(key) if isinstance(key, str) else f"{python_name(key[0]).rstrip('_')}_{key[1]}"
        candidate, k = base, 2
        while candidate in RESERVED or candidate in names.values():
            candidate, k = f"{base}_{k}", k + 1
        names.setdefault(key, candidate)
    return names


def operand(value, names: dict, ctype: str) -> str:
    return names[value] if isinstance(value, str) else literal(value, ctype, "c")


def step_line(step, names: dict, dtype: str) -> str:
    ctype = CTYPES[dtype]
    args = dict(zip("ab", (operand(o, names, ctype) for o in step.operands)))
    words = " ".join(o if isinstance(o, str) else repr(o) for o in step.operands)
    code = to_c(step.op.scalar, args, dtype, where=f"{step.target} = {step.op.name}", dialect="c")
    return f"{ctype} {names[step.target]} = {code};    /* {step.target} = {step.op.name} {words} */"


def loop_source(k: int, group, dtype: str) -> list[str]:
    """The C function of group k (see the module docstring)."""
    t, names = CTYPES[dtype], local_names(group)
    ins = [f"const {t} *restrict {names[i.name, 'in']}" for i in group.inputs]
    outs = [f"{t} *restrict {names[o.name, 'part' if o.reduce else 'out']}"
            for o in group.outputs]
    body = " " * 16
    lines = [f"/* {', '.join(s.target for s in group.steps)} */",
             f"void loop_{k}(long start, long stop, {', '.join(ins + outs)})", "{",
             f"    const long S = {group.size};",
             f"    for (long block = start / {BLOCK}; block * {BLOCK} < stop; block++) {{",
             f"        long end = block * {BLOCK} + {BLOCK} < stop ? block * {BLOCK} + {BLOCK} : stop;",
             f"        for (long i = block * {BLOCK}; i < end; i++) {{",
             "            for (long j = 0; j < S; j++) {"]
    lines += [f"{body}{t} {names[i.name]} = {names[i.name, 'in']}{INDEX[i.role]};"
              for i in group.inputs]
    lines += [body + step_line(step, names, dtype) for step in group.steps]
    for o in group.outputs:
        lines.append(f"{body}{names[o.name, 'part']}[block * S + j] += {names[o.name]};" if o.reduce
                     else f"{body}{names[o.name, 'out']}[i * S + j] = {names[o.name]};")
    return lines + ["            }", "        }", "    }", "}"]


def module_source(groups, dtype: str = "float64") -> str:
    lines = [f"/* Fused loops of a TenFlang plan, {CTYPES[dtype]} "
             "(generated by tenflang.interp.c_loops). */", "#include <math.h>", "",
             preamble(dtype, "c").rstrip("\n")]
    for k, group in enumerate(groups, 1):
        lines += [""] + loop_source(k, group, dtype)
    return "\n".join(lines) + "\n"


def threads() -> int:
    """Threads a fused loop may use: $TENFLANG_NUM_THREADS, else $OMP_NUM_THREADS,
    else the CPUs this process may run on."""
    for var in ("TENFLANG_NUM_THREADS", "OMP_NUM_THREADS"):
        value = os.environ.get(var, "")
        if value.strip().isdigit() and int(value) > 0:
            return int(value)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@functools.lru_cache(maxsize=None)
def pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=threads(), thread_name_prefix="tenflang-loop")


if hasattr(os, "register_at_fork"):      # a forked child has none of the pool's threads
    os.register_at_fork(after_in_child=pool.cache_clear)


def spans(n: int, count: int) -> list[tuple[int, int]]:
    """[start, stop) ranges covering 0..n-1, cut at block boundaries."""
    blocks = math.ceil(n / BLOCK)
    count = max(1, min(count, blocks // MIN_BLOCKS_PER_THREAD))
    cuts = [BLOCK * (blocks * t // count) for t in range(count)] + [n]
    return [(a, min(b, n)) for a, b in zip(cuts, cuts[1:]) if a < n]


class Loop:
    """The Python wrapper `fused_k` of one group (see the module docstring)."""

    def __init__(self, k: int, group, groups):
        self.k, self.group, self.groups = k, group, groups
        self.batch = next(n for n, i in enumerate(group.inputs) if i.role in ("full", "example"))
        self.functions: dict = {}          # dtype name -> the C function

    def function(self, dtype: str):
        if dtype not in self.functions:
            f = getattr(native.library(module_source(self.groups, dtype)), f"loop_{self.k}")
            f.argtypes = [ctypes.c_long, ctypes.c_long] + [ctypes.c_void_p] * (
                len(self.group.inputs) + len(self.group.outputs))
            f.restype = None
            self.functions[dtype] = f
        return self.functions[dtype]

    def __call__(self, dtype, *inputs):
        dtype = np.dtype(dtype)
        f, size = self.function(dtype.name), self.group.size
        arrays = [np.ascontiguousarray(a, dtype=dtype) for a in inputs]
        n = arrays[self.batch].shape[0]
        outs = [np.zeros((math.ceil(n / BLOCK), size), dtype) if o.reduce
                else np.empty((n, size), dtype) for o in self.group.outputs]
        pointers = [a.ctypes.data for a in arrays + outs]
        work = spans(n, threads())
        calls = [pool().submit(f, a, b, *pointers) for a, b in work[1:]]
        f(*work[0], *pointers)
        for call in calls:
            call.result()
        shape = tuple(self.group.shape)
        return tuple(out.sum(axis=0).reshape(shape) if o.reduce else out.reshape((n,) + shape)
                     for o, out in zip(self.group.outputs, outs))


def functions(groups) -> dict:
    """fused_k -> its wrapper, for every group.  The float64 library is built
    here, so that a machine without a working C compiler raises
    native.Unavailable now, not in the middle of a run."""
    groups = tuple(groups)
    native.library(module_source(groups, "float64"))
    return {f"fused_{k}": Loop(k, group, groups) for k, group in enumerate(groups, 1)}
