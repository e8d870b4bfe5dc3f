"""The op reference's worked examples are true (docs/make_op_reference.py).

For every example the reference shows (`examples(op)`: operand shapes of
concrete sizes and attribute values), the op's forward, run by the interpreter
on a batch, gives the result shape the reference prints (which it computes with
the op's shape rule), and the derivative rules it prints for those shapes
compile into a gradient program that parses again and passes the shape checker,
at -O0 and -O1.  tests/project/test_docs.py checks that the guide holds what the
generator prints.
"""
from __future__ import annotations

import numpy as np
import pytest

import tenflang
from tenflang.ops import table as ops
from tenflang.backprop import compile_gradient
from tenflang.interp import evaluate
from tenflang.lang.checks import check
from tenflang.lang.printer import attribute
from tenflang.ops.modes import Mode
from tenflang.ops.shapes import fmt_shape

from support.doc_blocks import load_generator

GENERATOR = load_generator()
BATCH = 2


def shown_examples():
    for name, op in sorted(ops.TABLE.items()):
        for shapes, attrs in GENERATOR.examples(op):
            label = " · ".join(map(fmt_shape, shapes)) + "".join(f" {attribute(a)}" for a in attrs)
            yield pytest.param(name, shapes, attrs, id=f"{name} {label}")


EXAMPLES = list(shown_examples())


def test_every_op_has_a_worked_example():
    assert {p.values[0] for p in EXAMPLES} == set(ops.TABLE)


def operand_names(op: str, prefix: str, shapes) -> list[str]:
    """The operands (one per shape: a variadic op takes any number) as names, but
    a number literal where the op wants one (p of `dropout_mask`)."""
    table = ops.TABLE[op]
    first_literal = len(shapes) - len(table.literals)
    return [f"{prefix}{i}" if i < first_literal else "0.5" for i in range(len(shapes))]


def forward_source(op: str, shapes, attrs) -> str:
    names = operand_names(op, "a", shapes)
    lines = [f"declare input {n} {fmt_shape(s)}" for n, s in zip(names, shapes) if n[0] == "a"]
    operands = " ".join(names + [attribute(a) for a in attrs])
    return "\n".join(lines + ["declare output v", f"define v = {op} {operands}"]) + "\n"


@pytest.mark.parametrize("op,shapes,attrs", EXAMPLES)
def test_the_forward_gives_the_shape_shown(op, shapes, attrs):
    """Ones everywhere: a valid class index or row index for the ops that take one
    (in training mode, so batch statistics are the batch's own)."""
    program = tenflang.parse(forward_source(op, shapes, attrs))
    data = {n: np.ones((BATCH,) + s) for n, s in zip(operand_names(op, "a", shapes), shapes)
            if n[0] == "a"}
    with np.errstate(all="ignore"):
        result = np.asarray(evaluate(program, data, {}, mode=Mode())["v"])
    shown = GENERATOR.shape_text(ops.TABLE[op].result_shape(shapes, attrs))
    assert fmt_shape(result.shape[1:]) == shown
    assert result.shape[0] == BATCH


def gradient_source(op: str, shapes, attrs) -> str:
    """Operand m_i = mul w_i x_i (a weight times an input), v = op m… attrs…, and
    the loss sum (mul v r)."""
    names = operand_names(op, "m", shapes)
    lines = []
    for i, (name, shape) in enumerate(zip(names, shapes)):
        if name[0] == "m":
            lines += [f"declare weight w{i} {fmt_shape(shape)}",
                      f"declare input x{i} {fmt_shape(shape)}", f"declare intvar m{i}",
                      f"define m{i} = mul w{i} x{i}"]
    result = fmt_shape(ops.TABLE[op].result_shape(shapes, attrs))
    operands = " ".join(names + [attribute(a) for a in attrs])
    lines += [f"declare input r {result}", "declare intvar v", "declare intvar p",
              "declare loss l", f"define v = {op} {operands}", "define p = mul v r",
              "define l = sum p"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("op,shapes,attrs", EXAMPLES)
def test_the_rules_shown_compile_on_those_shapes(op, shapes, attrs):
    program = tenflang.parse(gradient_source(op, shapes, attrs), "example.tf",
                             shape_program=True)
    for level in (0, 1):
        gcp = compile_gradient(program, level)
        shapes_of = check(tenflang.parse(tenflang.print_program(gcp)))   # printed, it checks again
        assert all(shapes_of[f"d/dw{i}"] == s for i, s in enumerate(shapes)
                   if f"d/dw{i}" in shapes_of)
