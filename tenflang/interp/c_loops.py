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
  values keeping their TenFlang names behind a `v_` prefix
  (`tenflang.naming.c_identifier`: `x` -> `v_x`, `NAN` -> `v_NAN`), which no
  keyword, math.h macro or predefined macro starts with.  Arithmetic is IEEE double (or float), compiled without
  fast-math (`native.FLAGS`): results equal the unfused plan's to round-off.
* The wrapper `fused_k(dtype, *inputs, out=None)` returns the outputs in
  `Group.outputs` order: arrays as [B, *shape] (written into `out`'s arrays
  when given: the plan's buffers, interp/memory.py), sums as [*shape].  It
  splits the examples at block boundaries over `threads()` threads; ctypes
  releases the GIL during each call, so they run at once.
* The wrapper calls `entry_k(start, stop, arrays...)`, which takes the numpy
  arrays themselves (ctypes `py_object`: a pointer, no conversion) and reads
  each one's data pointer from numpy's public array struct (the field after
  the object header, `PyArrayObject_fields.data`).  Asking numpy for the
  pointers instead (`a.ctypes.data`) costs ~3 µs an array, more than a small
  loop; the library's `tf_data_of` is checked against `a.ctypes.data` once,
  and where they differ the wrapper passes pointers to `loop_k` as before.
* The library is compiled once per source and dtype and cached on disk
  (`native.library`); a machine without a C compiler raises
  `native.Unavailable` from `functions`, and the caller uses numba or numpy.
"""
from __future__ import annotations

import ctypes
import functools
import math

import numpy as np

from .. import native
from ..native import pool, threads
from ..naming import Identifiers, c_identifier
from .fusion import Role
from .scalar_c import CTYPES, literal, preamble, to_c

BLOCK = 1024               # examples per partial sum
MIN_BLOCKS_PER_THREAD = 16  # below this a thread costs more than it saves
INDEX = {Role.FULL: "[i * S + j]", Role.EXAMPLE: "[i]", Role.SHARED: "[j]", Role.CONSTANT: "[0]"}
LOOP_WORDS = ("i", "j", "S", "start", "stop", "block", "end")   # the loop's own words
OBJECT_HEAD = object.__basicsize__     # bytes before an object's first field (numpy's data pointer)
SMALL = BLOCK * (2 * MIN_BLOCKS_PER_THREAD - 1)   # up to this many examples: one call, no threads


def operand(value, names: Identifiers, ctype: str) -> str:
    return names(value) if isinstance(value, str) else literal(value, ctype, "c")


def step_line(step, names: Identifiers, dtype: str) -> str:
    ctype = CTYPES[dtype]
    args = dict(zip("abc", (operand(o, names, ctype) for o in step.operands)))
    words = " ".join(o if isinstance(o, str) else repr(o) for o in step.operands)
    code = to_c(step.op.scalar, args, dtype, where=f"{step.target} = {step.op.name}", dialect="c")
    return f"{ctype} {names(step.target)} = {code};    /* {step.target} = {step.op.name} {words} */"


def loop_source(k: int, group, dtype: str) -> list[str]:
    """The C function of group k (see the module docstring)."""
    t, names = CTYPES[dtype], Identifiers(c_identifier, LOOP_WORDS)
    ins = [f"const {t} *restrict {names(i.name, '_in')}" for i in group.inputs]
    outs = [f"{t} *restrict {names(o.name, '_part' if o.reduce else '_out')}"
            for o in group.outputs]
    body = " " * 16
    lines = [f"/* {', '.join(s.target for s in group.steps)} */",
             f"void loop_{k}(long start, long stop, {', '.join(ins + outs)})", "{",
             f"    const long S = {group.size};",
             f"    for (long block = start / {BLOCK}; block * {BLOCK} < stop; block++) {{",
             f"        long end = block * {BLOCK} + {BLOCK} < stop ? block * {BLOCK} + {BLOCK} : stop;",
             f"        for (long i = block * {BLOCK}; i < end; i++) {{",
             "            for (long j = 0; j < S; j++) {"]
    lines += [f"{body}{t} {names(i.name)} = {names(i.name, '_in')}{INDEX[i.role]};"
              for i in group.inputs]
    lines += [body + step_line(step, names, dtype) for step in group.steps]
    for o in group.outputs:
        lines.append(f"{body}{names(o.name, '_part')}[block * S + j] += {names(o.name)};" if o.reduce
                     else f"{body}{names(o.name, '_out')}[i * S + j] = {names(o.name)};")
    return lines + ["            }", "        }", "    }", "}"]


def entry_source(k: int, group, dtype: str) -> list[str]:
    """`entry_k`: loop k called with the numpy arrays (see the module docstring)."""
    t, count = CTYPES[dtype], len(group.inputs) + len(group.outputs)
    params = ", ".join(f"const void *a{n}" for n in range(count))
    args = ", ".join(f"({t} *)TF_DATA(a{n})" for n in range(count))
    return [f"void entry_{k}(long start, long stop, {params})",
            f"{{ loop_{k}(start, stop, {args}); }}"]


def module_source(groups, dtype: str = "float64") -> str:
    lines = [f"/* Fused loops of a TenFlang plan, {CTYPES[dtype]} "
             "(generated by tenflang.interp.c_loops). */", "#include <math.h>", "",
             preamble(dtype, "c").rstrip("\n"), "",
             f"#define TF_DATA(a) (*(char *const *)((const char *)(a) + {OBJECT_HEAD}))",
             "const void *tf_data_of(const void *a) { return TF_DATA(a); }"]
    for k, group in enumerate(groups, 1):
        lines += [""] + loop_source(k, group, dtype) + entry_source(k, group, dtype)
    return "\n".join(lines) + "\n"


def spans(n: int, count: int) -> list[tuple[int, int]]:
    """[start, stop) ranges covering 0..n-1, cut at block boundaries."""
    blocks = math.ceil(n / BLOCK)
    count = max(1, min(count, blocks // MIN_BLOCKS_PER_THREAD))
    cuts = [BLOCK * (blocks * t // count) for t in range(count)] + [n]
    return [(a, min(b, n)) for a, b in zip(cuts, cuts[1:]) if a < n]


class Loop:
    """The Python wrapper `fused_k` of one group (see the module docstring);
    `library(dtype name)` is the plan's compiled module, shared by its loops."""

    def __init__(self, k: int, group, library):
        self.k, self.group, self.library = k, group, library
        self.batch = next(n for n, i in enumerate(group.inputs) if i.role.varies)
        self.shape, self.size = tuple(group.shape), group.size
        self.summed = tuple(o.reduce is not None for o in group.outputs)
        self.functions: dict = {}          # numpy dtype -> (the C function, whether it takes arrays)

    def function(self, dtype):
        library = self.library(dtype.name)
        count = len(self.group.inputs) + len(self.group.outputs)
        direct = arrays_passed(library)
        f = getattr(library, f"{'entry' if direct else 'loop'}_{self.k}")
        f.argtypes = [ctypes.c_long, ctypes.c_long] + [
            ctypes.py_object if direct else ctypes.c_void_p] * count
        f.restype = None
        self.functions[dtype] = f, direct
        return f, direct

    def __call__(self, dtype, *inputs, out=None):
        f, direct = self.functions.get(dtype) or self.function(dtype)
        arrays = [np.ascontiguousarray(a, dtype=dtype) for a in inputs]
        n = arrays[self.batch].shape[0]
        outs = list(out) if out else [None] * len(self.summed)
        for m, summed in enumerate(self.summed):
            if summed:                   # one partial sum per block of examples
                outs[m] = np.zeros((-(-n // BLOCK), self.size), dtype)
            elif outs[m] is None:
                outs[m] = np.empty((n,) + self.shape, dtype)
        args = arrays + outs if direct else [a.ctypes.data for a in arrays + outs]
        if n <= SMALL:
            f(0, n, *args)
        else:
            work = spans(n, threads())
            calls = [pool().submit(f, a, b, *args) for a, b in work[1:]]
            f(*work[0], *args)
            for call in calls:
                call.result()
        if any(self.summed):
            for m, summed in enumerate(self.summed):
                if summed:
                    part = outs[m]
                    outs[m] = (part[0] if len(part) == 1 else part.sum(axis=0)).reshape(self.shape)
        return outs


@functools.lru_cache(maxsize=None)
def arrays_passed(library) -> bool:
    """Whether `library`'s entries read numpy's data pointer as numpy does."""
    probe = np.zeros(2)
    f = library.tf_data_of
    f.argtypes, f.restype = [ctypes.py_object], ctypes.c_void_p
    return f(probe) == probe.ctypes.data


def functions(groups) -> dict:
    """fused_k -> its wrapper, for every group.  The float64 library is built
    here, so that a machine without a working C compiler raises
    native.Unavailable now, not in the middle of a run."""
    groups = tuple(groups)

    @functools.lru_cache(maxsize=None)
    def library(dtype: str):         # one source and one library per dtype for all the loops
        return native.library(module_source(groups, dtype))
    library("float64")
    return {f"fused_{k}": Loop(k, group, library) for k, group in enumerate(groups, 1)}
