"""Fused groups (interp/fusion.py) rendered as numba loops on the CPU, where no
C compiler works (interp/c_loops.py is the first choice: no import cost).

    module_source(groups)        # readable Python: one @njit loop + a wrapper per group
    functions(groups)            # name -> wrapper, compiled (machine code cached on disk)

Conventions:

* Per group k, `loop_k` is the loop and `fused_k(dtype, *inputs)` its wrapper:
  it views every input as a 2-D array (rows: examples, or 1 when it does not
  vary; columns: the group's elements, or 1 for a scalar role), allocates the
  outputs, runs the loop and returns the outputs in `Group.outputs` order,
  arrays as [B, *shape], sums as [*shape] (over the examples; the caller divides
  by B for a mean).
* The body is each step's `Op.scalar` form with `a`, `b`, `c` replaced by the
  operands' local names: values keep their TenFlang names, made identifiers by
  `tenflang.naming.python_identifier` (a builtin such as `range` or `abs`
  gets a trailing `_`).  Sums are accumulated per block of BLOCK examples and
  then added up (round-off like numpy's, not n·eps).
* numba compiles with `error_model="numpy"` (x/0 is inf or nan, as in numpy)
  and without fastmath, so results equal the unfused plan's to round-off.
* The module's source is written once to the cache directory
  (`files.cache_dir("fused")`, named by its hash) and imported from there with
  numba's on-disk cache, so a second run loads machine code instead of
  compiling it.  numba is imported only here, on first use.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import os
import sys

from ..files import cache_dir, write_file
from ..naming import Identifiers, python_identifier
from .fusion import Role

BLOCK = 1024          # examples per partial sum
INDEX = {Role.FULL: "[i, j]", Role.EXAMPLE: "[i, 0]", Role.SHARED: "[0, j]", Role.CONSTANT: "[0, 0]"}
LOOP_WORDS = ("i", "j", "n", "start", "stop", "np", "math", "numba", "dtype")   # the loop's own words


def scalar_code(step, local) -> str:
    """The step's per-element expression over its operands' local names."""
    args = [local(o) if isinstance(o, str) else repr(float(o)) for o in step.operands]
    tree = ast.parse(step.op.scalar, mode="eval")
    values = dict(zip("abc", args))

    class Substitute(ast.NodeTransformer):
        def visit_Name(self, node):
            return ast.parse(values[node.id], mode="eval").body if node.id in values else node
    return ast.unparse(Substitute().visit(tree))


def loop_source(k: int, group) -> list[str]:
    """The numba loop of group k (see the module docstring)."""
    local = Identifiers(python_identifier, LOOP_WORDS)
    ins, outs = arrays(group, local)
    lines = ['@numba.njit(cache=True, error_model="numpy")',
             f"def loop_{k}(n, {', '.join(ins + outs)}):",
             f"    for start in range(0, n, {BLOCK}):",
             f"        stop = min(start + {BLOCK}, n)"]
    sums = [(o, out) for o, out in zip(group.outputs, outs) if o.reduce]
    lines += [f"        {out}_part = np.zeros({group.size})" for _, out in sums]
    lines += ["        for i in range(start, stop):", f"            for j in range({group.size}):"]
    body = "                "
    lines += [f"{body}{local(i.name)} = {name}{INDEX[i.role]}" for i, name in zip(group.inputs, ins)]
    for step in group.steps:
        lines.append(f"{body}{local(step.target)} = {scalar_code(step, local)}"
                     + f"    # {step.target} = {step.op.name} "
                     + " ".join(o if isinstance(o, str) else repr(o) for o in step.operands))
    for o, out in zip(group.outputs, outs):
        target = f"{out}_part[j] += " if o.reduce else f"{out}[i, j] = "
        lines.append(f"{body}{target}{local(o.name)}")
    lines += [f"        {out}[0] += {out}_part" for _, out in sums]
    return lines


def arrays(group, names: Identifiers) -> tuple[list[str], list[str]]:
    """The names of the group's input and output arrays."""
    return ([names(i.name, "_in") for i in group.inputs],
            [names(o.name, "_sum" if o.reduce else "_out") for o in group.outputs])


def wrapper_source(k: int, group) -> list[str]:
    ins, outs = arrays(group, Identifiers(python_identifier, LOOP_WORDS))
    batch = next(name for i, name in zip(group.inputs, ins) if i.role.varies)
    shape = repr(tuple(group.shape))
    lines = [f"def fused_{k}(dtype, {', '.join(ins)}):", f"    n = {batch}.shape[0]"]
    for o, out in zip(group.outputs, outs):
        lines.append(f"    {out} = np.zeros((1, {group.size}), dtype)" if o.reduce
                     else f"    {out} = np.empty((n, {group.size}), dtype)")
    flat = [f"{name}.reshape({name}.shape[0], -1)" for name in ins]
    lines.append(f"    loop_{k}(n, {', '.join(flat + outs)})")
    shaped = [f"{out}.reshape({shape})" if o.reduce else f"{out}.reshape((n,) + {shape})"
              for o, out in zip(group.outputs, outs)]
    return lines + [f"    return {', '.join(shaped)}" + ("," if len(shaped) == 1 else "")]


def module_source(groups) -> str:
    lines = ['"""Fused loops of a TenFlang plan (generated by tenflang.interp.numba_loops)."""',
             "import math", "", "import numba", "import numpy as np"]
    for k, group in enumerate(groups, 1):
        lines += ["", ""] + loop_source(k, group) + ["", ""] + wrapper_source(k, group)
    return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=64)
def load(source: str) -> dict:
    """The wrappers of a generated module, imported from the cache directory."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:20]
    folder = cache_dir("fused")
    namespace: dict = {}
    if folder is None:                     # no cache: compile in memory every run
        source = source.replace("cache=True, ", "")
        exec(compile(source, f"<tenflang fused {digest}>", "exec"), namespace)
        return namespace
    path = os.path.join(folder, f"plan_{digest}.py")
    if not os.path.exists(path):
        write_file(path, source)
    spec = importlib.util.spec_from_file_location(f"tenflang_fused_{digest}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module        # numba's cache finds the module by name
    spec.loader.exec_module(module)
    return vars(module)


def functions(groups) -> dict:
    """fused_k -> its wrapper, for every group."""
    namespace = load(module_source(groups))
    return {f"fused_{k}": namespace[f"fused_{k}"] for k in range(1, len(groups) + 1)}
