"""The embedding table (docs/design.md §2.3.2): `take W i` picks rows of W by index,
and its adjoint `take_grad g i W` adds the rows of g back into W's shape.

Conventions are tenflang/ops/forwards.py's (`f(xp, *operands)`, a leading example
axis, size 1 for weights) and tenflang/ops/shapes.py's.  Indices arrive as floats,
as every value does; each must be an integer 0 ≤ i < n (n = W's first axis),
else a `TenflangError` names the example, as `one_hot`'s does.

Memory: `take_grad` per example is a [batch, n, ...] array, the price of a
per-example result.  A weight's gradient is summed over the examples, and
the interpreter sums a `take_grad` that is a weight gradient inside the op
(`take_grad_sum`, interp/runtime/codegen.py's REDUCIBLE): the batch's rows are added
into one array of W's shape, so a 50 000-row table costs what the rows used
cost, never 50 000 rows per example.
"""
from __future__ import annotations

from tenflang.base.errors import TenflangError
from .forwards import index_error
from .shapes import Shape, fmt_shape, mismatch


def take_shape(W: Shape, i: Shape) -> Shape:
    if not W:
        raise mismatch("take", (W, i), "the table must have rank ≥ 1: [n, ...], one row per index")
    return tuple(i) + tuple(W[1:])


def take_grad_shape(g: Shape, i: Shape, W: Shape) -> Shape:
    expected = take_shape(W, i)
    if tuple(g) != expected:
        raise mismatch("take_grad", (g, i, W), f"the adjoint must have the shape "
                       f"{fmt_shape(expected)} of `take`'s result")
    return W


def indices(xp, i, n: int, op: str):
    """`i` as integer indices, each checked to lie in 0..n-1.  Indices come in
    the run's float dtype, which holds whole numbers exactly only up to
    2^(mantissa bits + 1): a larger table could have a row no index can name."""
    exact = 2 ** (xp.finfo(i.dtype).nmant + 1)
    if n > exact:
        raise TenflangError(f"{op}: a table of {n:,} rows needs more than {i.dtype}, which holds "
                            f"whole numbers exactly only up to {exact:,} (an index above it "
                            "would name a neighbouring row); run in float64")
    bad = (i != xp.floor(i)) | (i < 0) | (i >= n)
    if bool(bad.any()):
        flat = bad.reshape(len(bad), -1)
        k = int(xp.argmax(flat.any(axis=1)))
        value = float(i[k].reshape(-1)[int(xp.argmax(flat[k]))])
        raise index_error(op, "row index", value, k, n)
    return i.astype(xp.int64)


def take(xp, W, i):
    """Per example, W[i]: shape(i) + W's shape without its first axis."""
    index = indices(xp, i, W.shape[1], "take")
    if W.shape[0] == 1:
        return W[0][index]
    examples = xp.arange(W.shape[0]).reshape((-1,) + (1,) * (index.ndim - 1))
    return W[examples, index]


def take_grad(xp, g, i, W):
    """Per example, zeros of W's shape with each row of g added at its index."""
    index = indices(xp, i, W.shape[1], "take_grad")
    batch = max(g.shape[0], index.shape[0])
    index = xp.broadcast_to(index, (batch,) + index.shape[1:])
    examples = xp.broadcast_to(xp.arange(batch).reshape((-1,) + (1,) * (index.ndim - 1)),
                               index.shape)
    out = xp.zeros((batch,) + W.shape[1:], dtype=g.dtype)
    rows = xp.broadcast_to(g, (batch,) + g.shape[1:]).reshape((-1,) + W.shape[2:])
    add_at(xp, out, (examples.reshape(-1), index.reshape(-1)), rows)
    return out


def take_grad_sum(xp, g, i, W):
    """`take_grad` summed over the examples, without a per-example table: W's shape."""
    index = indices(xp, i, W.shape[1], "take_grad")
    index = xp.broadcast_to(index, (max(g.shape[0], index.shape[0]),) + index.shape[1:])
    rows = xp.broadcast_to(g, index.shape + tuple(W.shape[2:])).reshape((-1,) + W.shape[2:])
    out = xp.zeros(W.shape[1:], dtype=g.dtype)
    add_at(xp, out, index.reshape(-1), rows)
    return out


def add_at(xp, out, where, values) -> None:
    """out[where] += values, repeated indices adding up (numpy's `add.at`)."""
    if hasattr(xp.add, "at"):
        xp.add.at(out, where, values)
    else:                                   # cupy before its ufunc.at
        import cupyx
        cupyx.scatter_add(out, where, values)
