"""Every op's derivative rule against finite differences, generated from the op table."""
from __future__ import annotations

import zlib

import numpy as np
import pytest

from tenflang.ops import table as ops

from support.gradcheck import check_gradients
from support.op_cases import (BATCH, CLASS_INDEX_OPS, INDEX_OPS, LITERAL_OPS, attribute_cases,
                              cases, data_for, decl, program_for)

@pytest.mark.parametrize("op,shapes", list(cases()))
def test_op_gradient(op, shapes):
    source = program_for(op, shapes)
    data, weights = data_for(op, shapes, seed=zlib.crc32(repr((op, shapes)).encode()))
    if op == "max" or op == "min":            # separate the operands so no ties occur
        data["x1"] = -data["x1"] if op == "max" else data["x1"] + 3
    check_gradients(source, data, weights)


def test_every_op_is_covered():
    covered = {c.values[0] for c in cases()} | {c.values[0] for c in attribute_cases()}
    assert covered | CLASS_INDEX_OPS | INDEX_OPS | LITERAL_OPS == set(ops.TABLE)


@pytest.mark.parametrize("op,shapes,attrs", list(attribute_cases()))
def test_op_gradient_with_attributes(op, shapes, attrs):
    source = program_for(op, shapes, attrs)
    seed = zlib.crc32(repr((op, shapes, attrs)).encode())
    data, weights = data_for(op, shapes, seed, attrs)
    check_gradients(source, data, weights)


def test_every_op_with_attributes_is_covered():
    covered = {c.values[0] for c in attribute_cases()}
    assert covered | CLASS_INDEX_OPS == {name for name, op in ops.TABLE.items() if op.attrs}


@pytest.mark.parametrize("literal_line", [
    "define v = pow m0 2", "define v = pow 2 m0", "define v = sub 1 m0", "define v = div 1 m0",
    "define v = mul m0 -3", "define v = max m0 0.5"])
def test_literal_operands(literal_line):
    source = "\n".join([decl("weight", "w0", (3,)), decl("input", "x0", (3,)),
                        "declare intvar m0", "define m0 = mul w0 x0", "declare intvar v",
                        "declare loss l", literal_line, "define l = sum v"]) + "\n"
    rng = np.random.default_rng(1)
    check_gradients(source, {"x0": rng.uniform(0.5, 1.5, (BATCH, 3))},
                    {"w0": rng.uniform(0.6, 1.4, 3)})


@pytest.mark.parametrize("classes", [1, 4])
def test_one_hot_gradient(classes):
    """Cross-entropy against class-index labels: the weights' gradients match finite
    differences, and the label's path (computed through `add`, no derivative) is zero."""
    source = "\n".join([
        decl("input", "x", (3,)), "declare exp_output label", decl("weight", "W", (classes, 3)),
        "declare intvar y", "declare intvar z", "declare intvar s", "declare intvar t",
        "declare intvar e", "declare loss l", "define y = add label 0", "define z = matmul W x",
        "define s = log_softmax z", "define t = one_hot y %d" % classes, "define e = dot s t",
        "define l = neg e"])
    rng = np.random.default_rng(classes)
    data = {"x": rng.normal(size=(BATCH, 3)), "label": rng.integers(0, classes, BATCH) * 1.0}
    check_gradients(source + "\n", data, {"W": rng.normal(size=(classes, 3))})
