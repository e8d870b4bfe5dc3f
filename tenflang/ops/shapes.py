"""Shape rules of the op table (tenflang/ops/table.py), and how shapes are written.

Conventions

* A shape is a per-example tuple of ints (the example axis is not part of
  it); `()` is a scalar.  Messages write shapes as `[2, 3]` (`fmt_shape`).

* A shape rule is a pure function `rule(*operand_shapes, *attributes)` that
  returns the result's shape or raises `ShapeMismatch`, built by `mismatch`:
  the op's name, the operands' shapes and, where an attribute is at fault,
  its name and value (`sum [2, 3] axis 2: axis 2 is out of range ...`).  The
  parser's shape checker turns it into a located error (lang/checks.py).

* Rules shared by several ops are built by a function of the op's name
  (`reduce_shape("sum")`), so each message names the op the program wrote.

* Image ops take `[C, H, W]` (channels, height, width) and kernels
  `[F, C, kh, kw]`; the output sizes are convolution.out_size's.
"""
from __future__ import annotations

import math
from typing import Callable

from . import convolution

Shape = tuple[int, ...]


class ShapeMismatch(ValueError):
    """An op applied to operands of incompatible shapes (message shows them)."""


def size(shape: Shape) -> int:
    return math.prod(shape)


def fmt_shape(shape: Shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def fmt_missing(kind: str, names: list[str], shapes: dict) -> str:
    """`missing weight 'b' ([])`, or for several `missing weights 'W' ([3, 2]), 'b' ([3])`:
    every name at once, so that one run tells the whole story."""
    listed = ", ".join(f"'{n}' ({fmt_shape(shapes[n])})" for n in names)
    return f"missing {kind}{'s' if len(names) > 1 else ''} {listed}"


def mismatch(op: str, shapes, reason: str, attrs: dict | None = None) -> ShapeMismatch:
    """`sum [2, 3] axis 2: axis 2 is out of range ...` (the attributes at fault named)."""
    shown = " × ".join(fmt_shape(s) for s in shapes)
    named = "".join(f" {k} {v}" for k, v in (attrs or {}).items())
    return ShapeMismatch(f"{op} {shown}{named}: {reason}")


def axis_of(a: Shape, axis: int) -> int:
    """A (possibly negative) axis of `a` as its 0-based position."""
    return axis % len(a)


# --- elementwise, reductions and linear algebra -----------------------------

def broadcast(op: str, *shapes: Shape) -> Shape:
    """numpy broadcasting of per-example shapes."""
    rank = max(len(s) for s in shapes)
    padded = [(1,) * (rank - len(s)) + tuple(s) for s in shapes]
    result = []
    for dims in zip(*padded):
        wide = {d for d in dims if d != 1}
        if len(wide) > 1:
            raise mismatch(op, shapes, "shapes cannot be broadcast together")
        result.append(wide.pop() if wide else 1)
    return tuple(result)


def broadcasts_to(shape: Shape, target: Shape) -> bool:
    """Whether numpy broadcasts `shape` to `target` without widening it: `broadcast`
    answering instead of raising, for callers that choose rather than check."""
    return len(shape) <= len(target) and all(
        d in (1, t) for d, t in zip(reversed(shape), reversed(target)))


def same(a: Shape) -> Shape:
    return a


def like_first(op: str) -> Callable[..., Shape]:
    """The first operand's shape; the others (numbers, usually literals) must
    broadcast to it without widening it (`leaky_relu x s`, `clip x lo hi`)."""
    def rule(a: Shape, *others: Shape) -> Shape:
        if broadcast(op, a, *others) != a:
            raise mismatch(op, (a, *others), f"the other operands must broadcast to the first "
                           f"operand's shape {fmt_shape(a)}")
        return a
    return rule


def reduce_shape(op: str) -> Callable[..., Shape]:
    """A reduction: everything to [] without an axis, else that axis removed."""
    def rule(a: Shape, axis=None) -> Shape:
        if axis is None:
            return ()
        if not -len(a) <= axis < len(a):
            raise mismatch(op, (a,), f"axis {axis} is out of range for a rank-{len(a)} operand"
                           + (" (axes are 0-based; -1 is the last)" if a else ""), {"axis": axis})
        return a[:axis_of(a, axis)] + a[axis_of(a, axis) + 1:]
    return rule


def last_axis_shape(name: str) -> Callable[[Shape], Shape]:
    def rule(a: Shape) -> Shape:
        if len(a) < 1:
            raise mismatch(name, (a,), "operand must have rank ≥ 1 (a vector [n], or rows "
                           "along the last axis)")
        return a
    return rule


def matmul_shape(a: Shape, b: Shape) -> Shape:
    if len(a) == 3:
        return batched_matmul_shape(a, b)
    if len(a) == 1:
        return vector_matrix_shape(a, b)
    if len(a) != 2:
        raise mismatch("matmul", (a, b), "first operand must be a matrix [m, k], a vector [k] "
                       "(times a matrix [k, n]) or a batch of matrices [b, m, k]")
    if len(b) not in (1, 2):
        raise mismatch("matmul", (a, b), "second operand must be a vector [k] or a matrix [k, n]")
    if a[1] != b[0]:
        raise mismatch("matmul", (a, b), "inner dimensions differ")
    return (a[0],) + b[1:]


def vector_matrix_shape(a: Shape, b: Shape) -> Shape:
    """[k] · [k, n] → [n] (PyTorch's x @ W)."""
    if len(b) != 2:
        raise mismatch("matmul", (a, b), "a vector [k] multiplies a matrix [k, n]"
                       + (" (two vectors: `dot`)" if len(b) == 1 else ""))
    if a[0] != b[0]:
        raise mismatch("matmul", (a, b), "inner dimensions differ")
    return b[1:]


def batched_matmul_shape(a: Shape, b: Shape) -> Shape:
    """[b, m, k] · [b, k, n] → [b, m, n] and [b, m, k] · [k, n] → [b, m, n]."""
    if len(b) not in (2, 3):
        raise mismatch("matmul", (a, b), "a batch of matrices [b, m, k] multiplies a batch "
                       "[b, k, n] or one matrix [k, n]")
    if len(b) == 3 and b[0] != a[0]:
        raise mismatch("matmul", (a, b), "batch sizes differ")
    if a[2] != b[-2]:
        raise mismatch("matmul", (a, b), "inner dimensions differ")
    return a[:2] + b[-1:]


def dot_shape(a: Shape, b: Shape) -> Shape:
    if len(a) != 1 or len(b) != 1:
        raise mismatch("dot", (a, b), "operands must be vectors [n]")
    if a != b:
        raise mismatch("dot", (a, b), "lengths differ")
    return ()


def outer_shape(a: Shape, b: Shape) -> Shape:
    if len(a) != 1 or len(b) != 1:
        raise mismatch("outer", (a, b), "operands must be vectors")
    return a + b


def transpose_shape(a: Shape) -> Shape:
    if len(a) < 2:
        raise mismatch("transpose", (a,), "operand must be a matrix [m, n] (or have rank ≥ 2: "
                       "the last two axes swap)")
    return a[:-2] + (a[-1], a[-2])


# --- arranging, indexing and classifying ------------------------------------

def reshape_shape(a: Shape, shape) -> Shape:
    known = size(tuple(d for d in shape if d != -1))
    if -1 in shape:
        if size(a) % known:
            raise mismatch("reshape", (a,), f"{size(a)} elements cannot be arranged as "
                           f"{fmt_shape(shape)}", {"shape": fmt_shape(shape)})
        shape = tuple(size(a) // known if d == -1 else d for d in shape)
    if size(shape) != size(a):
        raise mismatch("reshape", (a,), f"{size(a)} elements cannot be arranged as "
                       f"{fmt_shape(shape)} ({size(shape)} elements)", {"shape": fmt_shape(shape)})
    return tuple(shape)


def first_axis(op: str, shapes, attrs: dict | None = None) -> int:
    """The length of the first axis of shapes[0] (which must have one)."""
    if not shapes[0]:
        raise mismatch(op, shapes, "operand must have rank ≥ 1", attrs)
    return shapes[0][0]


def operands_and_axis(args, default: int = 0) -> tuple[tuple, int]:
    """A variadic op's arguments (`concat a b c 1`'s shapes, arrays or graph
    values, then its axis): the operands and the axis, `default` where the
    caller left it out."""
    if isinstance(args[-1], int):
        return tuple(args[:-1]), args[-1]
    return tuple(args), default


def concat_shape(*shapes_and_axis) -> Shape:
    """Two or more operands of one rank, equal but along the axis: their lengths add."""
    shapes, axis = operands_and_axis(shapes_and_axis)
    attrs = {"axis": axis} if axis else None
    first_axis("concat", shapes, attrs)
    a = shapes[0]
    if not -len(a) <= axis < len(a):
        raise mismatch("concat", shapes, f"axis {axis} is out of range for rank-{len(a)} "
                       "operands (axes are 0-based; -1 is the last)", attrs)
    k = axis_of(a, axis)
    if any(len(b) != len(a) or a[:k] + a[k + 1:] != b[:k] + b[k + 1:] for b in shapes[1:]):
        which = "the first axis" if k == 0 else f"axis {axis}"
        raise mismatch("concat", shapes, f"operands must have equal shapes except {which}", attrs)
    return a[:k] + (sum(b[k] for b in shapes),) + a[k + 1:]


def slice_shape(a: Shape, start, stop) -> Shape:
    n = first_axis("slice", (a,), {"start": start, "stop": stop})
    if not start < stop <= n:
        raise mismatch("slice", (a,), f"rows {start}..{stop} are out of range: need 0 ≤ start "
                       f"< stop ≤ {n}", {"start": start, "stop": stop})
    return (stop - start,) + a[1:]


def index_shape(a: Shape, i) -> Shape:
    n = first_axis("index", (a,), {"i": i})
    if i >= n:
        raise mismatch("index", (a,), f"index {i} is out of range: need 0 ≤ i < {n}", {"i": i})
    return a[1:]


def permute_shape(a: Shape, axes) -> Shape:
    if len(axes) != len(a):
        raise mismatch("permute", (a,), f"a rank-{len(a)} operand needs a permutation of "
                       f"{len(a)} axes, got {len(axes)}", {"axes": fmt_shape(axes)})
    return tuple(a[p] for p in axes)


def one_hot_shape(y: Shape, n) -> Shape:
    if y != ():
        raise mismatch("one_hot", (y,), "operand must be a scalar class index", {"n": n})
    return (n,)


def argmax_shape(a: Shape) -> Shape:
    first_axis("argmax", (a,))
    return a[:-1]


# --- the adjoint helpers: the compiler's sums and broadcasts -----------------

def sum_like_shape(a: Shape, b: Shape) -> Shape:
    if broadcast("sum_like", a, b) != a:
        raise mismatch("sum_like", (a, b), "second shape does not broadcast to the first")
    return b


def broadcast_like_shape(a: Shape, b: Shape, axis=None) -> Shape:
    if axis is not None:
        rest = reduce_shape("broadcast_like")(b, axis)
        if broadcast("broadcast_like", a, rest) != rest:
            raise mismatch("broadcast_like", (a, b), f"first shape is not the second without "
                           f"axis {axis}", {"axis": axis})
        return b
    if broadcast("broadcast_like", a, b) != b:
        raise mismatch("broadcast_like", (a, b), "first shape does not broadcast to the second")
    return b


def unslice_shape(g: Shape, a: Shape, start) -> Shape:
    if len(g) != len(a) or not g or g[1:] != a[1:] or start + g[0] > a[0]:
        raise mismatch("unslice", (g, a), f"the first operand does not fit in the second "
                       f"from row {start}", {"start": start})
    return a


# --- convolution and pooling -------------------------------------------------

def image_of(op: str, shapes, attrs: dict | None = None) -> Shape:
    x = shapes[0]
    if len(x) != 3:
        raise mismatch(op, shapes, "image must be [C, H, W] (channels, height, width)", attrs)
    return x


def conv2d_shape(x: Shape, K: Shape, stride=1, pad=0, groups=1) -> Shape:
    image_of("conv2d", (x, K))
    if len(K) != 4:
        raise mismatch("conv2d", (x, K), "kernel must be [F, C/groups, kh, kw]"
                       if groups > 1 else "kernel must be [F, C, kh, kw]")
    if groups > 1:
        conv2d_groups(x, K, groups)
    elif K[1] != x[0]:
        raise mismatch("conv2d", (x, K), f"kernel has {K[1]} input channel"
                       f"{'s' if K[1] != 1 else ''}, image has {x[0]}")
    height, width = x[1] + 2 * pad, x[2] + 2 * pad
    if K[2] > height or K[3] > width:
        raise mismatch("conv2d", (x, K), f"the {K[2]}×{K[3]} kernel is larger than the "
                       f"{height}×{width} image padded by {pad}", {"pad": pad})
    return (K[0], convolution.out_size(x[1], K[2], stride, pad),
            convolution.out_size(x[2], K[3], stride, pad))


def conv2d_groups(x: Shape, K: Shape, groups: int) -> None:
    """The channels and filters split into `groups` equal groups, the kernel's
    input channels those of one group (PyTorch's rule)."""
    def fault(reason):
        return mismatch("conv2d", (x, K), reason, {"groups": groups})
    if x[0] % groups:
        raise fault(f"the image's {x[0]} channels do not split into {groups} equal groups")
    if K[0] % groups:
        raise fault(f"the kernel's {K[0]} filters do not split into {groups} equal groups")
    if K[1] * groups != x[0]:
        raise fault(f"kernel has {K[1]} input channel{'s' if K[1] != 1 else ''} per group, "
                    f"image has {x[0] // groups} per group ({x[0]} in {groups} groups)")


def pool_shape(op: str) -> Callable[..., Shape]:
    def rule(x: Shape, k, stride=None, pad=0, ceil=0) -> Shape:
        attrs = {"k": k, "pad": pad} if pad else {"k": k}
        image_of(op, (x,), attrs)
        if 2 * pad > k:
            raise mismatch(op, (x,), f"padding {pad} is more than half the {k}×{k} window "
                           f"(need 2·pad ≤ k, as PyTorch's pooling does)", attrs)
        height, width = x[1] + 2 * pad, x[2] + 2 * pad
        if k > height or k > width:
            padding = f" padded by {pad}" if pad else ""
            raise mismatch(op, (x,), f"the {k}×{k} window is larger than the {height}×{width} "
                           f"image{padding}", attrs)
        return (x[0],) + tuple(convolution.out_size(n, k, stride or k, pad, ceil) for n in x[1:])
    return rule


def gather_shape(G: Shape, x: Shape, k, stride=None, pad=0, ceil=0) -> Shape:
    if G != x:
        raise mismatch("maxpool2d_gather", (G, x), "operands must have the same shape")
    return pool_shape("maxpool2d_gather")(x, k, stride, pad, ceil)
