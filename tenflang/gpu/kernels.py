"""A fused group of elementwise steps rendered as one CUDA kernel's source.

    spec = KernelSpec(name, shape, inputs, lines, outputs, reduced)   # reduced: a tuple
    source = render(spec, "float32")

A group runs over one per-example shape G (the broadcast of its steps'
shapes) and the example axis: one thread per element (a grid-stride loop over
`batch * size(G)` elements), every step of the group computed in registers,
each input read once and each output written once — where the unfused plan
makes one pass over memory per step.  All shapes but the batch size are known
when the kernel is generated, so the broadcasting index of each input is
written out with constant strides; the batch size is an argument, so one
kernel serves every batch.

Values follow the interpreter's layout (forwards.py): a leading example axis of
size B (batched values) or 1 (weights, constants), then the per-example
axes, C-contiguous.  An input of a smaller per-example shape is read through
numpy's broadcasting (its shape aligned to G's rank from the left, as the
interpreter aligns per-example ranks).  An output of a smaller shape than G
is written by the one thread whose coordinates along the broadcast axes are
0, so no two threads write the same element.

With `reduced` values the group ends in batch reductions (the mean over the
examples of a weight gradient): thread (r, j) sums the examples r, r+rows,
r+2·rows, … of element j into `partial_<value>[r, j]`, and the caller sums
the `rows` partials (one small reduction on the device).  `rows`
is chosen at launch: 1 when G alone has enough elements to fill the device,
more when it has few (a per-example scalar over a million examples).

The source is for people too: each step is one line with the TenFlang line it
comes from; values keep the program's names behind the `v_` prefix of
`tenflang.naming.c_identifier` (the kernel's own names, `in_`, `out_`, `acc_`,
`partial_` arrays and the index words, never start so).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..interp.scalar_c import CTYPES, literal, preamble, to_c
from ..naming import Identifiers, c_identifier
from ..shapes import Shape

INDEX = "long long"
KERNEL_WORDS = ("i", "j", "e", "r", "n", "batch", "rows")   # the kernel's own words


@dataclass(frozen=True)
class Value:
    """A value a kernel reads or writes: the program's name and where it lives."""
    name: str
    shape: Shape              # per-example shape
    batched: bool             # has an example axis of size B (else of size 1)


@dataclass(frozen=True)
class Line:
    """One elementwise step: `target = form`, `a`/`b` being `operands`."""
    target: str
    form: str                 # the op's scalar form, a Python expression over a, b, c
    operands: tuple           # names, or numbers (literals)
    text: str = ""            # the TenFlang line it comes from (a comment)


@dataclass(frozen=True)
class KernelSpec:
    name: str                         # the kernel's C name
    shape: Shape                      # the per-example shape G it runs over
    inputs: tuple[Value, ...]
    lines: tuple[Line, ...]
    outputs: tuple[Value, ...]        # written element by element
    reduced: tuple[Value, ...] = ()   # summed over the examples (shape G)


def size(shape: Shape) -> int:
    return math.prod(shape)


def c_identifiers(names) -> dict[str, str]:
    """Program names -> distinct C identifiers (tenflang.naming: `d/dW1` -> `v_d_dW1`)."""
    ids = Identifiers(c_identifier, KERNEL_WORDS)
    return {name: ids(name) for name in names}


def aligned(shape: Shape, rank: int) -> Shape:
    return (1,) * (rank - len(shape)) + tuple(shape)


def strides(shape: Shape) -> list[int]:
    return [size(shape[k + 1:]) for k in range(len(shape))]


def coordinate(k: int, group: Shape) -> str:
    """Element j's coordinate along axis k of the group's shape."""
    stride = strides(group)[k]
    c = "j" if stride == 1 else f"(j / {stride})"
    return c if k == 0 else f"({c} % {group[k]})"


def offset(value: Value, group: Shape) -> str:
    """Where element (e, j) of the group reads/writes `value` (broadcasting)."""
    shape = aligned(value.shape, len(group))
    n = size(shape)
    if size(group) == 1:
        inner = "0"
    elif shape == tuple(group):
        inner = "j"
    else:
        terms = [f"{coordinate(k, group)} * {stride}" if stride != 1 else coordinate(k, group)
                 for k, stride in enumerate(strides(shape)) if shape[k] != 1]
        inner = " + ".join(terms) or "0"
    if not value.batched:
        return inner
    outer = "e" if n == 1 else f"e * {n}"
    return outer if inner == "0" else f"{outer} + {inner}"


def write_guard(value: Value, group: Shape, batched: bool) -> str | None:
    """The condition under which one thread alone writes a smaller output."""
    shape = aligned(value.shape, len(group))
    terms = [f"{coordinate(k, group)} == 0" for k in range(len(group))
             if shape[k] == 1 and group[k] != 1]
    if batched and not value.batched:
        terms.insert(0, "e == 0")
    return " && ".join(terms) or None


def operand_c(operand, local: dict[str, str], ctype: str) -> str:
    return local[operand] if isinstance(operand, str) else literal(operand, ctype)


def body(spec: KernelSpec, local: dict[str, str], dtype: str, indent: str) -> list[str]:
    """Loads, one line per step, stores (element (e, j) in scope)."""
    ctype = CTYPES[dtype]
    out = [f"{indent}const {ctype} {local[v.name]} = in_{local[v.name]}[{offset(v, spec.shape)}];"
           for v in spec.inputs]
    for line in spec.lines:
        names = dict(zip("abc", (operand_c(o, local, ctype) for o in line.operands)))
        code = to_c(line.form, names, dtype, where=line.text or line.target)
        comment = f"  // {line.text}" if line.text else ""
        out.append(f"{indent}const {ctype} {local[line.target]} = {code};{comment}")
    batched = any(v.batched for v in spec.inputs)
    for v in spec.outputs:
        store = f"out_{local[v.name]}[{offset(v, spec.shape)}] = {local[v.name]};"
        guard = write_guard(v, spec.shape, batched)
        out.append(f"{indent}{'if (' + guard + ') ' if guard else ''}{store}")
    return out


def kernel_parameters(spec: KernelSpec, local: dict[str, str], dtype: str) -> list[str]:
    ctype = CTYPES[dtype]
    params = [f"const {ctype}* __restrict__ in_{local[v.name]}" for v in spec.inputs]
    params += [f"{ctype}* __restrict__ out_{local[v.name]}" for v in spec.outputs]
    params += [f"{ctype}* __restrict__ partial_{local[v.name]}" for v in spec.reduced]
    params += [f"const {INDEX} batch"] + ([f"const {INDEX} rows"] if spec.reduced else [])
    return [f'extern "C" __global__ void {spec.name}('] + \
        [f"    {p}{',' if k < len(params) - 1 else ') {'}" for k, p in enumerate(params)]


def header(spec: KernelSpec, dtype: str) -> str:
    shape = ", ".join(["B"] + [str(d) for d in spec.shape])
    what = f"// {len(spec.lines)} elementwise step(s) fused, over [{shape}], {CTYPES[dtype]}"
    if spec.reduced:
        what += f"; {', '.join(v.name for v in spec.reduced)} summed over the examples"
    return what


def render(spec: KernelSpec, dtype: str = "float64") -> str:
    """The complete CUDA C source of `spec`'s kernel (what NVRTC compiles)."""
    local = c_identifiers([v.name for v in spec.inputs] + [ln.target for ln in spec.lines])
    n = size(spec.shape)
    ctype = CTYPES[dtype]
    loop = (f"for ({INDEX} i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; "
            f"i += (long long)gridDim.x * blockDim.x) {{")
    lines = [header(spec, dtype), preamble(dtype).rstrip("\n")] + kernel_parameters(spec, local, dtype)
    if not spec.reduced:
        lines += [f"    const {INDEX} n = batch * {n};", f"    {loop}",
                  f"        const {INDEX} e = i / {n}, j = i % {n};"]
        lines += body(spec, local, dtype, " " * 8) + ["    }", "}"]
        return "\n".join(lines) + "\n"
    acc = [(f"acc_{local[v.name]}", local[v.name]) for v in spec.reduced]
    lines += [f"    const {INDEX} n = rows * {n};", f"    {loop}",
              f"        const {INDEX} r = i / {n}, j = i % {n};"]
    lines += [f"        {ctype} {a} = {literal(0, ctype)};" for a, _ in acc]
    lines += [f"        for ({INDEX} e = r; e < batch; e += rows) {{"]
    lines += body(spec, local, dtype, " " * 12)
    lines += [f"            {a} += {v};" for a, v in acc] + ["        }"]
    lines += [f"        partial_{v}[i] = {a};" for a, v in acc] + ["    }", "}"]
    return "\n".join(lines) + "\n"
