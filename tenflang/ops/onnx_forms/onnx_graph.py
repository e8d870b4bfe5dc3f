"""The ONNX mapping of the op table, and a program's forward part as an ONNX graph.

`ONNX_OPS` maps each TenFlang op to a function `(builder, *operands) -> tensor
name` that adds the standard ONNX nodes computing it (one line per op where it
fits); `NOT_EXPORTABLE` lists, with the reason, an op that has none.  The
numerically stable forms of the op table are kept node for node (`logistic`,
`softplus`, `logsumexp`, the derivative helpers): ONNX's `Sigmoid` and
`Softplus` promise no stability, and onnxruntime has no float64 `Softplus`.
Axis and batching conventions: see `graph_builder`.
"""
from __future__ import annotations

import math

from .. import table as ops
from ..shapes import operands_and_axis
from .graph_builder import Builder, Value
from .onnx_conv import avgpool2d, conv2d, maxpool2d
from .onnx_erf import erf, gelu, gelu_deriv
from .onnx_norm import channel_sum, lrn


# ---------------------------------------------------------------- building blocks

def unary(op_type: str, **attrs):
    return lambda b, a: b.node(op_type, [a.name], **attrs)


def binary(op_type: str):
    return lambda b, a, c: b.node(op_type, b.align([a, c]))


def exp_neg_abs(b: Builder, name: str) -> str:
    """e^-|a| (never overflows)."""
    return b.node("Exp", [b.node("Neg", [b.node("Abs", [name])])])


def log1p(b: Builder, e: str) -> str:
    """ln(1 + e) to full precision for small e (ONNX has no Log1p): with
    u = 1 + e rounded, ln(u) · e / (u - 1) (Goldberg, "What every computer
    scientist should know about floating-point arithmetic", Theorem 4)."""
    u = b.node("Add", [e, b.literal(1)])
    d = b.node("Sub", [u, b.literal(1)])
    scaled = b.node("Div", [b.node("Mul", [e, b.node("Log", [u])]), d])
    return b.node("Where", [b.node("Equal", [d, b.literal(0)]), e, scaled])


def logistic(b: Builder, a: Value) -> str:
    """e^min(a, 0) / (1 + e^-|a|), as ops.logistic."""
    num = b.node("Exp", [b.node("Min", [a.name, b.literal(0)])])
    return b.node("Div", [num, b.node("Add", [exp_neg_abs(b, a.name), b.literal(1)])])


def softplus(b: Builder, a: Value) -> str:
    """max(a, 0) + ln(1 + e^-|a|), as ops.softplus."""
    return b.node("Add", [b.node("Relu", [a.name]), log1p(b, exp_neg_abs(b, a.name))])


def e_over_one_plus_e_squared(b: Builder, e: str) -> str:
    den = b.node("Add", [e, b.literal(1)])
    return b.node("Div", [e, b.node("Mul", [den, den])])


def logistic_deriv(b: Builder, a: Value) -> str:
    return e_over_one_plus_e_squared(b, exp_neg_abs(b, a.name))


def tanh_deriv(b: Builder, a: Value) -> str:
    e = exp_neg_abs(b, b.node("Mul", [a.name, b.literal(2)]))
    return b.node("Mul", [e_over_one_plus_e_squared(b, e), b.literal(4)])


def step(b: Builder, a: Value) -> str:
    return b.node("Cast", [b.node("Greater", [a.name, b.literal(0)])], to=b.elem)


def matmul(b: Builder, a: Value, c: Value) -> str:
    """MatMul, operands with the example axis given unit axes after N so that
    numpy's batching over leading axes lines up per example."""
    if len(a.shape) == 1:
        return vector_matrix(b, a, c)
    if len(c.shape) > 1:                            # matrix (or a stack of them) times matrix
        return b.node("MatMul", b.align([a, c], max(len(a.shape), len(c.shape))))
    if not c.batched:
        return b.node("MatMul", [a.name, c.name])
    if not a.batched and len(a.shape) == 2:         # a dense layer: x Aᵀ, one GEMM
        return b.node("Gemm", [c.name, a.name], transB=1)
    column = Value(b.node("Unsqueeze", [c.name, b.ints([-1])]), c.shape + (1,), True)
    product = b.node("MatMul", b.align([a, column], len(a.shape)))
    return b.node("Squeeze", [product, b.ints([-1])])


def vector_matrix(b: Builder, a: Value, c: Value) -> str:
    """x W ([k] · [k, n]): one MatMul, unless both vary per example ([N, 1, k] · [N, k, n])."""
    if not (a.batched and c.batched):
        return b.node("MatMul", [a.name, c.name])
    row = b.node("Unsqueeze", [a.name, b.ints([1])])
    return b.node("Squeeze", [b.node("MatMul", [row, c.name]), b.ints([1])])


def leaky_relu(b: Builder, a: Value, slope: Value) -> str:
    """Where(a > 0, a, slope · a): onnxruntime has no float64 LeakyRelu, whose slope is fixed."""
    x, s = b.align([a, slope])
    return b.node("Where", [b.node("Greater", [x, b.literal(0)]), x, b.node("Mul", [s, x])])


def where(b: Builder, c: Value, a: Value, other: Value) -> str:
    cond, x, y = b.align([c, a, other])
    return b.node("Where", [b.node("Not", [b.node("Equal", [cond, b.literal(0)])]), x, y])


def clip(b: Builder, a: Value, low: Value, high: Value) -> str:
    """Min(Max(a, lo), hi): ONNX's Clip takes only scalar bounds."""
    x, lo, hi = b.align([a, low, high])
    return b.node("Min", [b.node("Max", [x, lo]), hi])


def dot(b: Builder, a: Value, c: Value) -> str:
    if a.batched != c.batched:                      # one vector for the whole batch: GEMV
        rows, vector = (a, c) if a.batched else (c, a)
        return b.node("MatMul", [rows.name, vector.name])
    return b.node("ReduceSum", [b.node("Mul", [a.name, c.name]), b.ints([-1])], keepdims=0)


def outer(b: Builder, a: Value, c: Value) -> str:
    column = b.node("Unsqueeze", [a.name, b.ints([-1])])
    return b.node("Mul", [column, b.node("Unsqueeze", [c.name, b.ints([-2])])])


def transpose(b: Builder, a: Value) -> str:
    perm = list(range(len(a.shape) + a.batched))
    perm[-2:] = perm[:-3:-1]
    return b.node("Transpose", [a.name], perm=perm)


def reduced_axes(a: Value, axis: int | None) -> list[int]:
    """The per-example axes a reduction removes: all, or the one `axis` (-1 the last)."""
    return list(range(len(a.shape))) if axis is None else [axis % len(a.shape)]


def reduction(op_type: str):
    """`sum`/`mean` of everything (a scalar per example), or along one axis."""
    def rule(b: Builder, a: Value, axis: int | None = None) -> str:
        if not a.shape:
            return a.name
        return b.reduce(op_type, a, reduced_axes(a, axis), keepdims=0)
    return rule


def logsumexp(b: Builder, a: Value, axis: int | None = None) -> str:
    """top + ln Σ e^(a - top), top the maximum (0 where it is not finite), as ops.logsumexp."""
    if not a.shape:
        return a.name
    axes = reduced_axes(a, axis)
    top = b.reduce("ReduceMax", a, axes, keepdims=1)
    infinite = b.node("Or", [b.node("IsInf", [top]), b.node("IsNaN", [top])])
    top = b.node("Where", [infinite, b.literal(0), top])
    total = b.reduce("ReduceSum", a, axes, 0, name=b.node("Exp", [b.node("Sub", [a.name, top])]))
    squeezed = b.node("Squeeze", [top, b.ints(b.axis(a, k) for k in axes)])
    return b.node("Add", [squeezed, b.node("Log", [total])])


def sum_like(b: Builder, a: Value, like: Value) -> str:
    """a summed down to `like`'s shape: first the axes broadcasting added, then those it widened."""
    extra = len(a.shape) - len(like.shape)
    name = a.name
    if extra:
        name = b.reduce("ReduceSum", a, range(extra), keepdims=0)
    widened = [i for i, d in enumerate(like.shape) if d == 1 and a.shape[extra + i] != 1]
    if widened:
        name = b.reduce("ReduceSum", a, widened, keepdims=1, name=name)
    return name


def broadcast_like(b: Builder, a: Value, like: Value, axis: int | None = None) -> str:
    """a broadcast to `like`'s shape; with `axis`, a unit axis put back there first."""
    if axis is None:
        name = b.align([a])[0]
    else:
        k = axis % len(like.shape)
        padded = (1,) * (len(like.shape) - 1 - len(a.shape)) + tuple(a.shape)
        unit = ([0] if a.batched else []) + list(padded[:k] + (1,) + padded[k:])
        name = b.node("Reshape", [a.name, b.ints(unit)])
    shape = ([1] if a.batched else []) + list(like.shape)
    return b.node("Expand", [name, b.ints(shape)])


def reshape(b: Builder, a: Value, dims=None) -> str:
    """`reshape` and `flatten`: to the line's shape (-1 resolved), N kept by a 0."""
    return b.node("Reshape", [a.name, b.ints(([0] if a.batched else []) + list(b.shape))])


def with_example_axis(b: Builder, value: Value, like: Value) -> str:
    """`value` repeated along N as many times as `like` has examples."""
    if value.batched or not like.batched:
        return value.name
    n = b.node("Shape", [like.name], start=0, end=1)
    return b.node("Expand", [value.name, b.node("Concat", [n, b.ints(value.shape)], axis=0)])


def concat(b: Builder, *values_and_axis) -> str:
    """One Concat of all the operands, a weight repeated along N where another has it."""
    values, axis = operands_and_axis(values_and_axis)
    batched = next((v for v in values if v.batched), values[0])
    joined = [with_example_axis(b, v, batched) for v in values]
    return b.node("Concat", joined, axis=b.axis(batched, axis))


def slice_rows(b: Builder, a: Value, start: int, stop: int) -> str:
    return b.node("Slice", [a.name, b.ints([start]), b.ints([stop]), b.ints([b.axis(a, 0)])])


def index(b: Builder, a: Value, i: int) -> str:
    return b.node("Gather", [a.name, b.int_scalar(i)],
                  axis=b.axis(a, 0))


def unslice(b: Builder, g: Value, like: Value, start: int) -> str:
    """Zeros of `like`'s shape with g written at rows start, start + 1, …: a Pad."""
    rank = len(g.shape) + g.batched
    before = [0] * rank
    after = [0] * rank
    before[b.axis(g, 0)] = start
    after[b.axis(g, 0)] = like.shape[0] - start - g.shape[0]
    return b.node("Pad", [g.name, b.ints(before + after)], mode="constant")


def permute(b: Builder, a: Value, order) -> str:
    lead = [0] if a.batched else []
    return b.node("Transpose", [a.name], perm=lead + [p + a.batched for p in order])


def one_hot(b: Builder, y: Value, n: int) -> str:
    """OneHot on int64 (onnxruntime has no float64 OneHot), cast back to the
    graph's float; a class index without the example axis gets one for OneHot."""
    indices = y.integer or b.node("Cast", [y.name], to=b.onnx.TensorProto.INT64)
    alone = not y.batched and not y.shape
    if alone:
        indices = b.node("Unsqueeze", [indices, b.ints([0])])
    hot = b.node("OneHot", [indices, b.int_scalar(n), b.ints([0, 1])], axis=-1)
    if alone:
        hot = b.node("Squeeze", [hot, b.ints([0])])
    return b.node("Cast", [hot], to=b.elem)


def take(b: Builder, W: Value, i: Value) -> str:
    """Gather on axis 0 of a weight table, the indices cast to int64; a table
    that varies per example: GatherElements over its rows, flattened."""
    if not W.batched:
        indices = i.integer or b.node("Cast", [i.name], to=b.onnx.TensorProto.INT64)
        return b.node("Gather", [W.name, indices], axis=0)
    n, picked, rest = W.shape[0], math.prod(i.shape), math.prod(W.shape[1:])
    table = b.node("Reshape", [W.name, b.ints([0, n, rest])])
    indices = b.node("Cast", [with_example_axis(b, i, W)], to=b.onnx.TensorProto.INT64)
    indices = b.node("Expand", [b.node("Reshape", [indices, b.ints([0, picked, 1])]),
                                b.ints([1, picked, rest])])
    rows = b.node("GatherElements", [table, indices], axis=1)
    return b.node("Reshape", [rows, b.ints([0, *i.shape, *W.shape[1:]])])


def argmax(b: Builder, a: Value) -> str:
    first = b.node("ArgMax", [a.name], axis=-1, keepdims=0, select_last_index=0)
    return b.node("Cast", [first], to=b.elem)


def equal(b: Builder, a: Value, c: Value) -> str:
    return b.node("Cast", [b.node("Equal", b.align([a, c]))], to=b.elem)


# ---------------------------------------------------------------- the table

ONNX_OPS = {
    "copy": unary("Identity"),
    "neg": unary("Neg"), "exp": unary("Exp"), "log": unary("Log"), "tanh": unary("Tanh"),
    "relu": unary("Relu"), "sqrt": unary("Sqrt"), "abs": unary("Abs"), "sin": unary("Sin"),
    "cos": unary("Cos"), "sign": unary("Sign"),
    "logistic": logistic,                 # Exp, Min, Abs, Neg, Add, Div
    "softplus": softplus,                 # Relu, Exp, Abs, Neg, Add, Sub, Mul, Log, Div, Where
    "logistic_deriv": logistic_deriv,     # Exp, Abs, Neg, Add, Mul, Div
    "tanh_deriv": tanh_deriv,             # as logistic_deriv, of 2a, times 4
    "step": step,                         # Cast(Greater(a, 0))
    "erf": erf,                           # Erf (float32); Clip, Pow, MatMul, Exp, … (float64)
    "gelu": gelu, "gelu_deriv": gelu_deriv,   # Mul, Add and erf's nodes
    "leaky_relu": leaky_relu,             # Where(Greater(a, 0), a, Mul(b, a))
    "where": where,                       # Where(Not(Equal(a, 0)), b, c)
    "clip": clip,                         # Min(Max(a, b), c)
    "add": binary("Add"), "sub": binary("Sub"), "mul": binary("Mul"), "div": binary("Div"),
    "pow": binary("Pow"), "max": binary("Max"), "min": binary("Min"),
    "matmul": matmul,                     # MatMul; Gemm(x, W, transB=1) for a dense layer
    "dot": dot,                           # MatMul, or ReduceSum(Mul) when both vary per example
    "outer": outer,                       # Mul(Unsqueeze(a, -1), Unsqueeze(b, -2))
    "transpose": transpose,               # Transpose, the last two axes swapped
    "sum": reduction("ReduceSum"),
    "mean": reduction("ReduceMean"),
    "logsumexp": logsumexp,               # ReduceMax, IsInf, IsNaN, Or, Where, Exp, ReduceSum, Log
    "softmax": unary("Softmax", axis=-1),
    "log_softmax": unary("LogSoftmax", axis=-1),
    "sum_like": sum_like,                 # ReduceSum
    "broadcast_like": broadcast_like,     # Expand; Reshape first with an axis
    "conv2d": conv2d,                     # Conv (float32); Pad, Slice, Concat, MatMul (float64)
    "maxpool2d": maxpool2d,               # MaxPool
    "avgpool2d": avgpool2d,               # AveragePool (float32); Slice, Sum, Div (float64)
    "lrn": lrn,                           # LRN (float32, odd n); Mul, MatMul, Add, Pow, Div
    "channel_sum": channel_sum,           # Reshape, MatMul by a band matrix, Reshape
    "reshape": reshape, "flatten": reshape,   # Reshape (N kept)
    "concat": concat,                     # Concat on the axis (Expand to N first for a weight)
    "slice": slice_rows,                  # Slice
    "index": index,                       # Gather
    "unslice": unslice,                   # Pad
    "permute": permute,                   # Transpose
    "one_hot": one_hot,                   # Cast, OneHot, Cast
    "argmax": argmax,                     # ArgMax, Cast
    "equal": equal,                       # Equal, Cast
    "take": take,                         # Cast, Gather (GatherElements for a per-example table)
    # evaluation mode (docs/design.md §2.3.2): no dropout; a batch_mean is never reached, its
    # population value from the weights file being an initializer (export/model.py)
    "dropout_mask": lambda b, a, p: b.node("Expand", [b.literal(1), b.node("Shape", [a.name])]),
}

ADJOINT = ("an adjoint the compiler writes into gradient programs (export the shape program, "
           "whose forward part does not use it)")

# op -> why it cannot be exported (an op added to ops.TABLE needs a mapping or an entry here)
NOT_EXPORTABLE: dict[str, str] = {
    "conv2d_image_grad": ADJOINT, "conv2d_kernel_grad": ADJOINT, "maxpool2d_grad": ADJOINT,
    "maxpool2d_gather": ADJOINT, "avgpool2d_grad": ADJOINT, "take_grad": ADJOINT,
    "batch_mean": "a model evaluates each example alone: its population value, written by "
                  "tfweightcalc after the weights, is exported instead",
}

def result_is_batched(op: str, operands: list[Value]) -> bool:
    """Whether a result carries the example axis: when an operand does, other
    than one that gives only a shape (entries.Op.shape_only, e.g. b of `sum_like a b`)."""
    shape_only = ops.TABLE[op].shape_only
    return any(v.batched for i, v in enumerate(operands) if i not in shape_only)


__all__ = ["ONNX_OPS", "NOT_EXPORTABLE", "result_is_batched"]
