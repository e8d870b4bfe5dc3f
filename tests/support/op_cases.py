"""Every op of the table as a small program to differentiate, generated from the table.

    cases()                  # pytest params (op, operand shapes) of the ops without attributes
    attribute_cases()        # (op, operand shapes, attributes) of the ops with them
    program_for(op, shapes, attrs)   # m_i = w_i x_i; v = op m...; loss = sum(v r)
    data_for(op, shapes, seed, attrs)

The gradient tests (tests/compiler/test_gradients.py) check each against finite
differences; the ONNX export and the GPU tests run the same cases.
"""
from __future__ import annotations

import numpy as np
import pytest

from tenflang.lang.printer import attribute
from tenflang.ops import entries as opkinds, table as ops
from tenflang.ops.shapes import fmt_shape

BATCH = 4
POSITIVE = {"log", "sqrt", "pow"}            # ops that need operands in (0, ∞)
NON_DIFFERENTIABLE_AT = {"relu", "abs", "step", "sign", "max", "min"}  # kinks: keep away

UNARY_SHAPES = [(), (3,), (2, 3)]
BINARY_SHAPES = [((), ()), ((3,), (3,)), ((2, 3), (3,)), ((3,), ()), ((), (2, 3)),
                 ((2, 1), (1, 3))]
TENSOR_CASES = {
    "matmul": [((2, 3), (3,)), ((2, 3), (3, 4)), ((2, 3, 4), (2, 4, 2)), ((2, 3, 4), (4, 2)),
               ((3,), (3, 4))],
    "dot": [((3,), (3,))],
    "outer": [((2,), (3,))],
    "transpose": [((2, 3),), ((2, 3, 4),)],
    "sum": [((),), ((3,),), ((2, 3),)],
    "mean": [((),), ((3,),), ((2, 3),)],
    "logsumexp": [((3,),), ((2, 3),)],
    "softmax": [((4,),), ((2, 4),), ((2, 2, 3),)],
    "log_softmax": [((4,),), ((2, 4),), ((2, 2, 3),)],
    "flatten": [((),), ((3,),), ((2, 3, 2),)],
    "concat": [((2,), (3,)), ((1, 3), (2, 3)), ((2, 2, 2), (1, 2, 2)),
               ((2,), (3,), (1,)), ((1, 3), (2, 3), (1, 3), (3, 3))],      # variadic
    "argmax": [((4,),), ((2, 4),)],
    "equal": [((3,), (3,)), ((2, 3), (3,))],
    "sum_like": [((2, 3), (3,)), ((2, 3), (1, 3)), ((3,), ())],
    "broadcast_like": [((3,), (2, 3)), ((), (3,))],
    # a slope, or bounds, that broadcast to the first operand
    "leaky_relu": [((), ()), ((3,), ()), ((2, 3), (3,)), ((2, 3), (2, 1))],
    "clip": [((3,), (), ()), ((2, 3), (3,), ()), ((2, 3), (), (2, 3)), ((2, 3), (2, 1), (1, 3))],
    "where": [((3,), (3,), (3,)), ((2, 3), (3,), ()), ((), (2, 3), (2, 1)), ((2, 1), (1, 3), ())],
}
CONDITIONS = {"where"}    # their first operand is a condition: zeros and ones


def decl(kind, name, shape):
    return f"declare {kind} {name} {fmt_shape(shape)}"


def program_for(op: str, shapes, attrs=()) -> str:
    """Each operand m_i = mul w_i x_i (a weight times a per-example input), then
    v = op m... attrs..., loss = sum (mul v r) with a random per-example projection r."""
    result = ops.TABLE[op].result_shape(shapes, attrs)
    lines = []
    for i, shape in enumerate(shapes):
        lines += [decl("weight", f"w{i}", shape), decl("input", f"x{i}", shape),
                  f"declare intvar m{i}", f"define m{i} = mul w{i} x{i}"]
    operands = " ".join([f"m{i}" for i in range(len(shapes))] + [attribute(a) for a in attrs])
    lines += [decl("input", "r", result), "declare intvar v", "declare intvar p",
              "declare loss l", f"define v = {op} {operands}", "define p = mul v r",
              "define l = sum p"]
    return "\n".join(lines) + "\n"


def data_for(op: str, shapes, seed: int, attrs=()):
    rng = np.random.default_rng(seed)
    low = 0.5 if op in POSITIVE else -1.5
    draw = lambda shape, batch=(): rng.uniform(low, 1.5, batch + shape)  # noqa: E731
    weights = {f"w{i}": draw(s) for i, s in enumerate(shapes)}
    data = {f"x{i}": draw(s, (BATCH,)) for i, s in enumerate(shapes)}
    if op in NON_DIFFERENTIABLE_AT:       # keep |operand| and gaps away from the kinks
        for i in range(len(shapes)):
            data[f"x{i}"] = np.abs(data[f"x{i}"]) + 0.5 + i * 0.37
    if op in CONDITIONS:                  # both branches taken
        data["x0"] = rng.integers(0, 2, data["x0"].shape) * 1.0
    data["r"] = rng.normal(size=(BATCH,) + ops.TABLE[op].result_shape(shapes, attrs))
    return data, weights


def needs_attributes(op: opkinds.Op) -> bool:
    return any(a.required for a in op.attrs)


def cases():
    for name, op in sorted(ops.TABLE.items()):
        if needs_attributes(op) or name in CLASS_INDEX_OPS | INDEX_OPS or name in IMAGE_OPS \
                or name in LITERAL_OPS:
            continue                     # tested below, with their attributes
        if name in TENSOR_CASES:
            shapes_list = TENSOR_CASES[name]
        elif op.arity == 1:
            shapes_list = [(s,) for s in UNARY_SHAPES]
        else:
            shapes_list = BINARY_SHAPES
        for shapes in shapes_list:
            yield pytest.param(name, shapes, id=f"{name}-" + "x".join(fmt_shape(s) for s in shapes))


CLASS_INDEX_OPS = {"one_hot"}    # their operand holds integers: test_one_hot_gradient
INDEX_OPS = {"take", "take_grad"}    # an operand holds row indices: tests/ops/test_take.py
# an operand must be a literal: tests/ops/test_batch_modes.py checks their gradients
LITERAL_OPS = {name for name, op in ops.TABLE.items() if op.literals}
IMAGE_OPS = {"conv2d", "conv2d_image_grad", "conv2d_kernel_grad", "maxpool2d", "avgpool2d",
             "maxpool2d_grad", "avgpool2d_grad", "maxpool2d_gather"}   # need image shapes


# An op's attributes, generated from the op table: every axis of every example shape
# (and -1), for each op with an `axis` attribute; an op's other attributes list theirs.
ATTRIBUTE_CASES = {
    "broadcast_like": [(((2,), (2, 3)), (1,)), (((3,), (2, 3)), (0,)), (((), (3,)), (0,))],
    "reshape": [(((6,),), ((2, 3),)), (((2, 3),), ((3, -1),)), (((2, 3, 2),), ((4, 3),)),
                (((1,),), ((),)), (((4,),), ((2, 1, 2),))],
    "slice": [(((4,),), (1, 3)), (((3, 2),), (0, 1)), (((3, 2, 2),), (1, 3))],
    "index": [(((4,),), (2,)), (((3, 2),), (0,)), (((3, 2, 2),), (2,))],
    "unslice": [(((2,), (4,)), (1,)), (((1, 2), (3, 2)), (2,))],
    "permute": [(((2, 3),), ((1, 0),)), (((2, 3, 4),), ((1, 0, 2),)),
                (((2, 3, 4),), ((2, 0, 1),)), (((3,),), ((0,),))],
    # convolution and pooling: strides, paddings, windows (overlapping and not), odd sizes
    "conv2d": [(((2, 5, 5), (3, 2, 3, 3)), attrs) for attrs in [(), (1, 1), (2, 1), (3, 2)]]
              + [(((1, 6, 5), (2, 1, 2, 3)), (2, 0))]
              # groups: two towers, depthwise (groups = channels), two filters per group
              + [(((4, 5, 5), (6, 2, 3, 3)), (1, 1, 2)), (((3, 5, 5), (3, 1, 3, 3)), (2, 1, 3)),
                 (((2, 4, 5), (4, 1, 2, 2)), (1, 0, 2))],
    "conv2d_image_grad": [(((3, 5, 5), (3, 2, 3, 3), (2, 5, 5)), (1, 1)),
                          (((3, 3, 3), (3, 2, 3, 3), (2, 5, 5)), (2, 1)),
                          (((2, 3, 2), (2, 1, 2, 3), (1, 6, 5)), (2, 0)),
                          (((6, 5, 5), (6, 2, 3, 3), (4, 5, 5)), (1, 1, 2)),
                          (((3, 3, 3), (3, 1, 3, 3), (3, 5, 5)), (2, 1, 3))],
    "conv2d_kernel_grad": [(((3, 5, 5), (2, 5, 5), (3, 2, 3, 3)), (1, 1)),
                           (((3, 3, 3), (2, 5, 5), (3, 2, 3, 3)), (2, 1)),
                           (((2, 3, 2), (1, 6, 5), (2, 1, 2, 3)), (2, 0)),
                           (((6, 5, 5), (4, 5, 5), (6, 2, 3, 3)), (1, 1, 2)),
                           (((3, 3, 3), (3, 5, 5), (3, 1, 3, 3)), (2, 1, 3))],
    # pooling, padded too (PyTorch's padding: 2·pad ≤ k)
    **{op: [(((2, 4, 4),), (2,)), (((2, 4, 5),), (3, 1)), (((1, 5, 5),), (2, 1)),
            (((2, 5, 4),), (2, 3)), (((2, 4, 4),), (2, 1, 1)), (((1, 5, 5),), (3, 1, 1)),
            (((2, 5, 4),), (3, 2, 1)), (((1, 4, 5),), (4, 3, 2)),
            # ceil mode (Caffe's pooling): last windows past the image, padded or
            # not, one that would start in the padding dropped, and none past it
            (((2, 5, 5),), (2, 2, 0, 1)), (((1, 6, 5),), (3, 2, 0, 1)),
            (((2, 7, 6),), (3, 2, 1, 1)), (((1, 5, 5),), (3, 3, 1, 1)),
            (((2, 4, 4),), (2, 2, 0, 1))]
       for op in ("maxpool2d", "avgpool2d")},
    **{op: [(((2, 2, 2), (2, 4, 4)), (2,)), (((2, 2, 3), (2, 4, 5)), (3, 1)),
            (((1, 4, 4), (1, 5, 5)), (2, 1)), (((2, 5, 5), (2, 4, 4)), (2, 1, 1)),
            (((1, 3, 2), (1, 5, 4)), (3, 2, 1)),
            (((2, 3, 3), (2, 5, 5)), (2, 2, 0, 1)), (((2, 4, 4), (2, 7, 6)), (3, 2, 1, 1))]
       for op in ("maxpool2d_grad", "avgpool2d_grad")},
    "concat": [(((2, 3), (2, 2)), (1,)), (((2, 3), (2, 2)), (-1,)), (((2, 2, 2), (1, 2, 2)), (0,)),
               (((2, 3, 2), (2, 1, 2)), (1,)), (((2, 2, 3), (2, 2, 1)), (-1,)),
               (((2,), (3,)), (-1,)),
               # three and four operands: an inception block's branches
               (((2, 3), (2, 1), (2, 2)), (1,)), (((3, 2, 2), (1, 2, 2), (2, 2, 2)), (0,)),
               (((2, 2, 3), (2, 2, 1), (2, 2, 2), (2, 2, 1)), (-1,))],
    # local response normalisation: odd and even windows, wider than the channels, and
    # an alpha large enough for the window's term to show in the gradient
    "lrn": [(((5, 2, 2),), (3, 0.5, 0.75, 1.0)), (((6,),), (5, 0.8, 0.6, 2.0)),
            (((4, 2, 3),), (2, 0.5)), (((3, 2, 2),), (5, 1.0, 1.5, 0.5)), (((5, 2, 2),), (5,))],
    "channel_sum": [(((5,),), (3, 1)), (((4, 2, 2),), (2, 0)), (((3, 2),), (5, 2)),
                    (((2,),), (4, 3))],
    "maxpool2d_gather": [(((2, 4, 4), (2, 4, 4)), (2,)), (((2, 4, 5), (2, 4, 5)), (3, 1)),
                         (((2, 4, 4), (2, 4, 4)), (2, 1, 1)), (((1, 5, 4), (1, 5, 4)), (3, 2, 1)),
                         (((2, 5, 5), (2, 5, 5)), (2, 2, 0, 1)),
                         (((2, 7, 6), (2, 7, 6)), (3, 2, 1, 1))],
}


def attribute_cases():
    for name, op in sorted(ops.TABLE.items()):
        if name in ATTRIBUTE_CASES:
            listed = ATTRIBUTE_CASES[name]
        elif [a.name for a in op.attrs] == ["axis"]:
            listed = [((shape,), (axis,)) for (shape,) in TENSOR_CASES[name]
                      for axis in [*range(len(shape)), -1] if shape]
        else:
            continue
        for shapes, attrs in listed:
            yield pytest.param(name, shapes, attrs, id=f"{name}-" + "x".join(
                fmt_shape(s) for s in shapes) + "-" + "-".join(map(str, attrs)))
