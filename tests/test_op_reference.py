"""The op reference's worked examples are true (docs/make_op_reference.py).

For every example the reference shows (`examples(op)`: operand shapes of
concrete sizes and attribute values), the op's forward, run by the interpreter
on a batch, gives the result shape the reference prints (which it computes with
the op's shape rule), and the derivative rules it prints for those shapes
compile into a gradient program that parses again and passes the shape checker,
at -O0 and -O1.  tests/test_docs.py checks that the guide holds what the
generator prints.
"""
from __future__ import annotations

import numpy as np
import pytest

import tenflang
from tenflang import ops
from tenflang.backprop import compile_gradient
from tenflang.interp import evaluate
from tenflang.lang.checks import check
from tenflang.lang.printer import attribute
from tenflang.shapes import fmt_shape

from test_docs import load_generator
from test_gradients import program_for

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


def forward_source(op: str, shapes, attrs) -> str:
    lines = [f"declare input a{i} {fmt_shape(s)}" for i, s in enumerate(shapes)]
    operands = " ".join([f"a{i}" for i in range(len(shapes))] + [attribute(a) for a in attrs])
    return "\n".join(lines + ["declare output v", f"define v = {op} {operands}"]) + "\n"


@pytest.mark.parametrize("op,shapes,attrs", EXAMPLES)
def test_the_forward_gives_the_shape_shown(op, shapes, attrs):
    """Ones everywhere: a valid class index or row index for the ops that take one."""
    program = tenflang.parse(forward_source(op, shapes, attrs))
    data = {f"a{i}": np.ones((BATCH,) + s) for i, s in enumerate(shapes)}
    with np.errstate(all="ignore"):
        result = np.asarray(evaluate(program, data, {})["v"])
    shown = GENERATOR.shape_text(ops.TABLE[op].result_shape(shapes, attrs))
    assert fmt_shape(result.shape[1:]) == shown
    assert result.shape[0] == BATCH


@pytest.mark.parametrize("op,shapes,attrs", EXAMPLES)
def test_the_rules_shown_compile_on_those_shapes(op, shapes, attrs):
    program = tenflang.parse(program_for(op, shapes, attrs), "example.tf", shape_program=True)
    for level in (0, 1):
        gcp = compile_gradient(program, level)
        shapes_of = check(tenflang.parse(tenflang.print_program(gcp)))   # printed, it checks again
        assert all(shapes_of[f"d/dw{i}"] == s for i, s in enumerate(shapes))
