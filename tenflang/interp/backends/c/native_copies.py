"""The native step's ops that move values without arithmetic, or add them
up along axes: each one `strided` call (native_step.c) over the example's
elements, with the strides of its operand and its result.

    COPIES["permute"](body, step, number)     # a native_step.Step's lines for the step

permute, slice and index read their operand at strides (an offset for the
first row); unslice and concat write into the result at strides (its other
rows zero, or the other parts); broadcast_like reads with stride 0 along the
axes it widens (a number: the result filled with it); sum_like adds with
stride 0 along the axes it sums.  Strides are in elements, row-major.
"""
from __future__ import annotations

import math

MAX_RANK = 8          # per-example axes a strided copy walks (native_step.c's MAX_RANK)


def strides(shape) -> list[int]:
    """Row-major strides of `shape`, in elements."""
    out, step = [], 1
    for d in reversed(shape):
        out.append(step)
        step *= d
    return out[::-1]


def longs(values) -> str:
    return "(const long[]){" + ", ".join(str(int(v)) for v in values or [0]) + "}"


def copy(body: Step, step, source: str, dims, from_strides, offset: int, to_strides=None,
         to_offset: int = 0, add: bool = False) -> None:
    """`strided` from `source` into the step's target (module HELPERS)."""
    if len(dims) > MAX_RANK:
        from .native_step import Unsupported        # it imports this module
        raise Unsupported(f"'{step.target}' = {step.op.name} of more than {MAX_RANK} axes")
    target = step.target
    to_strides = strides(dims) if to_strides is None else to_strides
    item = math.prod(body.shape(source)) if source in body.batched else 0
    body.emit(f"strided({body.count(target)}, {len(dims)}, {longs(dims)}, {body.var(source)}, "
              f"{item}, {offset}, {longs(from_strides)}, {body.var(target)}, "
              f"{math.prod(body.shape(target))}, {to_offset}, {longs(to_strides)}, {int(add)});")


def permute(body: Step, step, number: int) -> None:
    shape = body.shape(step.operands[0])
    axes = [a % len(shape) for a in step.attrs[0]]
    st = strides(shape)
    copy(body, step, step.operands[0], [shape[a] for a in axes], [st[a] for a in axes], 0)


def rows_of(body: Step, step, number: int) -> None:
    """slice (rows start..stop-1) and index (row i) along the first axis."""
    shape = body.shape(step.operands[0])
    start = step.attrs[0]
    stop = step.attrs[1] if step.op.name == "slice" else None
    st = strides(shape)
    dims, from_strides = ([stop - start] + list(shape[1:]), st) if stop is not None else (
        list(shape[1:]), st[1:])
    copy(body, step, step.operands[0], dims, from_strides, start * st[0])


def unslice(body: Step, step, number: int) -> None:
    g = step.operands[0]
    start, shape = step.attrs[0], body.shape(step.target)
    body.emit(f"memset({body.var(step.target)}, 0, sizeof({body.t}) * {body.count(step.target)} "
              f"* {math.prod(shape)});")
    st = strides(shape)
    copy(body, step, g, body.shape(g), strides(body.shape(g)), 0, st, start * st[0])


def concat(body: Step, step, number: int) -> None:
    shape = body.shape(step.target)
    axis = step.attrs[0] % len(shape) if step.attrs and step.attrs[0] is not None else 0
    st, at = strides(shape), 0
    for part in step.operands:
        dims = body.shape(part)
        copy(body, step, part, dims, strides(dims), 0, st, at * st[axis])
        at += dims[axis]


def broadcast_like(body: Step, step, number: int) -> None:
    g, shape = step.operands[0], body.shape(step.target)
    if not isinstance(g, str):         # a number everywhere
        body.emit(f"fill({body.count(step.target)} * {math.prod(shape)}, {float(g)!r}, "
                  f"{body.var(step.target)});")
        return
    gs = body.shape(g)
    axis = step.attrs[0] if step.attrs else None
    if axis is not None:          # a unit axis put back where a reduction took it
        axis = axis % len(shape)
        gs = (1,) * (len(shape) - 1 - len(gs)) + gs
        gs = gs[:axis] + (1,) + gs[axis:]
    gs = (1,) * (len(shape) - len(gs)) + gs
    st = strides(gs)
    copy(body, step, g, shape, [0 if d == 1 else s for d, s in zip(gs, st)], 0)


def sum_like(body: Step, step, number: int) -> None:
    a, shape = step.operands[0], body.shape(step.operands[0])
    out = (1,) * (len(shape) - len(body.shape(step.target))) + body.shape(step.target)
    body.emit(f"memset({body.var(step.target)}, 0, sizeof({body.t}) * {body.count(step.target)} "
              f"* {math.prod(out)});")
    st = strides(out)
    copy(body, step, a, shape, strides(shape), 0, [0 if d == 1 else s for d, s in zip(out, st)],
         add=True)


COPIES = {"permute": permute, "slice": rows_of, "index": rows_of, "unslice": unslice,
          "concat": concat, "broadcast_like": broadcast_like, "sum_like": sum_like}
