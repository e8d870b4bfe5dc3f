"""ONNX for local response normalisation: `lrn` and `channel_sum` (docs/design.md §2.3.3).

`channel_sum x n front` is a band matrix M (M[c, c'] = 1 where c' is in c's
window) times the channels: x as `[C, R]` per example (R the other axes'
size), `MatMul(M, x)`, reshaped back.  A float32 `lrn` of an image with an
odd window is ONNX's `LRN`, whose window for odd n is PyTorch's; otherwise
(float64: onnxruntime's `LRN` is float32 only; an even n, whose ONNX window
sits one channel later than PyTorch's; a per-example shape other than
`[C, H, W]`) it is written out: `Div(x, Pow(k + α/n · channel_sum(x²), β))`.
"""
from __future__ import annotations

import math

import numpy as np

from .graph_builder import Builder, Value


def band(b: Builder, channels: int, n: int, front: int) -> str:
    """The `[C, C]` matrix of `channel_sum`'s windows, an initializer."""
    rows = np.arange(channels)[:, None]
    offset = np.arange(channels)[None, :] - rows + front       # t = c' - c + front
    matrix = ((offset >= 0) & (offset < n)).astype(b.dtype)
    return b.initializer(f"channel_sum/{channels}/{n}/{front}", matrix)


def channel_sum(b: Builder, x: Value, n: int, front: int) -> str:
    lead = [0] if x.batched else []
    rest = math.prod(x.shape[1:])
    columns = b.node("Reshape", [x.name, b.ints(lead + [x.shape[0], rest])])
    summed = b.node("MatMul", [band(b, x.shape[0], n, front), columns])
    return b.node("Reshape", [summed, b.ints(lead + list(x.shape))])


def lrn(b: Builder, x: Value, n: int, alpha: float, beta: float, k: float) -> str:
    if b.dtype == np.float32 and n % 2 and len(x.shape) == 3 and x.batched:
        return b.node("LRN", [x.name], size=n, alpha=alpha, beta=beta, bias=k)
    squares = Value(b.node("Mul", [x.name, x.name]), x.shape, x.batched)
    scaled = b.node("Mul", [b.literal(alpha / n), channel_sum(b, squares, n, n // 2)])
    d = b.node("Add", [b.literal(k), scaled])
    return b.node("Div", [x.name, b.node("Pow", [d, b.literal(beta)])])


__all__ = ["lrn", "channel_sum"]
