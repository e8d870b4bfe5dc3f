"""ONNX for the image ops: `conv2d`, `maxpool2d`, `avgpool2d` (docs/design.md §2.3.1, §2.3.2).

A float32 model uses ONNX's `Conv`, `MaxPool` and `AveragePool`.  onnxruntime
has no float64 `Conv` or `AveragePool`, so a float64 model writes them with
ops it does have: the kh·kw strided windows of the (zero-padded) image as
`Slice`s, joined along the channel axis and multiplied by the kernel with one
`MatMul` (im2col), or summed and divided (average pooling); a grouped
convolution is that for each group's channels and filters (`Slice`s),
joined along the channel axis (`Concat`).  Both are
standard ONNX; the float64 form is what lets `--verify` hold a float64 model
to 1e-12.  An image without the example axis (a weight) gets a unit N for
the ONNX pooling and convolution ops, which need one.  Ceil-mode pooling is
written as padding (`maxpool2d`, `avgpool2d`), never as `ceil_mode`: onnx's
shape inference counted a last window starting in the padding that
onnxruntime (and PyTorch) leave out.
"""
from __future__ import annotations

import numpy as np

from ..convolution import pool_extra, window_sizes
from .graph_builder import Builder, Value


def with_batch(b: Builder, x: Value, op):
    """`op(name)` on x with a leading N (added and removed when x has none)."""
    if x.batched:
        return op(x.name)
    return b.node("Squeeze", [op(b.node("Unsqueeze", [x.name, b.ints([0])])), b.ints([0])])


def native(b: Builder) -> bool:
    return b.dtype != np.float64


def windows(b: Builder, x: Value, kh: int, kw: int, stride: int, pad: int,
            extra=(0, 0)) -> list[str]:
    """x[..., i::stride, j::stride] cut to the result's height and width, for
    each (i, j) of a kh × kw window, row-major; x zero-padded by `pad` first
    (and by `extra` more below and right: a ceil-mode pooling's overhang)."""
    height, width = b.shape[-2:]
    name = x.name
    if pad or any(extra):
        rank = len(x.shape) + x.batched
        before = [0] * (rank - 2) + [pad, pad]
        after = [0] * (rank - 2) + [pad + extra[0], pad + extra[1]]
        name = b.node("Pad", [name, b.ints(before + after)], mode="constant")
    reach = (stride * (height - 1) + 1, stride * (width - 1) + 1)
    return [b.node("Slice", [name, b.ints([i, j]), b.ints([i + reach[0], j + reach[1]]),
                             b.ints([-2, -1]), b.ints([stride, stride])])
            for i in range(kh) for j in range(kw)]


def lead(value: Value) -> list[int]:
    """A Reshape target's first entries: 0 keeps N."""
    return [0] if value.batched else []


def conv2d_matmul(b: Builder, x: Value, k: Value, stride: int, pad: int) -> str:
    """im2col: windows joined on the channel axis ([kh·kw·C, Ho·Wo] per example)
    times the kernel reordered to [F, kh·kw·C]."""
    filters, channels, kh, kw = k.shape
    joined = b.node("Concat", windows(b, x, kh, kw, stride, pad), axis=-3)
    height, width = b.shape[-2:]
    cols = b.node("Reshape", [joined, b.ints(lead(x) + [kh * kw * channels, height * width])])
    order = [0, 2, 3, 1] if not k.batched else [0, 1, 3, 4, 2]
    kernel = b.node("Transpose", [k.name], perm=order)
    kernel = b.node("Reshape", [kernel, b.ints(lead(k) + [filters, kh * kw * channels])])
    product = b.node("MatMul", [kernel, cols])
    result = Value(product, (filters, height * width), x.batched or k.batched)
    return b.node("Reshape", [product, b.ints(lead(result) + [filters, height, width])])


def conv2d(b: Builder, x: Value, k: Value, stride: int, pad: int, groups: int = 1) -> str:
    if native(b) and not k.batched:
        return with_batch(b, x, lambda image: b.node(
            "Conv", [image, k.name], strides=[stride, stride], pads=[pad] * 4, group=groups))
    if groups == 1:
        return conv2d_matmul(b, x, k, stride, pad)
    channels, filters = x.shape[0] // groups, k.shape[0] // groups
    parts = [conv2d_matmul(b, part(b, x, -3, i, channels), part(b, k, 0, i, filters), stride, pad)
             for i in range(groups)]
    return b.node("Concat", parts, axis=-3)


def part(b: Builder, v: Value, axis: int, i: int, count: int) -> Value:
    """Entries i·count, ..., (i + 1)·count - 1 of v along per-example axis `axis`."""
    name = b.node("Slice", [v.name, b.ints([i * count]), b.ints([(i + 1) * count]),
                            b.ints([b.axis(v, axis)])])
    shape = list(v.shape)
    shape[axis] = count
    return Value(name, tuple(shape), v.batched)


def pads(pad: int, extra=(0, 0), **more) -> dict:
    """A pooling node's padding attributes (none when there is no padding):
    `pad` around, `extra` more at the end of each axis."""
    if not pad and not any(extra):
        return {}
    return {"pads": [pad, pad, pad + extra[0], pad + extra[1]], **more}


def maxpool2d(b: Builder, x: Value, size: int, stride: int | None, pad: int = 0,
              ceil: int = 0) -> str:
    """MaxPool: its padding never wins a max, as PyTorch's.  In ceil mode the
    last windows' overhang is more padding at the end of each axis, which gives
    the same windows as `ceil_mode` without depending on how a runtime rounds."""
    stride = size if stride is None else stride
    extra = pool_extra(x.shape, size, stride, pad, ceil)
    return with_batch(b, x, lambda image: b.node(
        "MaxPool", [image], kernel_shape=[size, size], strides=[stride, stride],
        **pads(pad, extra)))


def avgpool2d(b: Builder, x: Value, size: int, stride: int | None, pad: int = 0,
              ceil: int = 0) -> str:
    """AveragePool counting the padded zeros (float32), or the windows of the
    zero-padded image summed and divided by k² (float64, and a ceil-mode
    pooling whose last windows reach past the padding: each divided by the
    padded entries it covers, `convolution.window_sizes`)."""
    stride = size if stride is None else stride
    extra = pool_extra(x.shape, size, stride, pad, ceil)
    if native(b) and not any(extra):
        return with_batch(b, x, lambda image: b.node(
            "AveragePool", [image], kernel_shape=[size, size], strides=[stride, stride],
            **pads(pad, count_include_pad=1)))
    total = b.node("Sum", windows(b, x, size, size, stride, pad, extra))
    if not any(extra):
        return b.node("Div", [total, b.literal(size * size)])
    rows, cols = (window_sizes(n, size, stride, pad, ceil) for n in x.shape[-2:])
    sizes = np.outer(rows, cols).astype(b.dtype)
    name = f"window sizes of {list(x.shape[-2:])} k {size} stride {stride} pad {pad}"
    return b.node("Div", [total, b.initializer(name, sizes)])


__all__ = ["conv2d", "maxpool2d", "avgpool2d"]
