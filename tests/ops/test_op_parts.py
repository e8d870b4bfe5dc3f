"""Every op has the parts it needs, all in tenflang/ops/ (docs/design.md §5): a
place in the op reference, an ONNX form or the reason it has none, a per-element
form where it is elementwise, the functions its batch sum calls, and the way its
index operands are checked.  An op added to the table without one fails here,
naming the op and the part."""
from __future__ import annotations

import inspect

import pytest

from tenflang.interp.backends.c import image_c, rows_c
from tenflang.ops import TABLE
from tenflang.ops.onnx_forms.onnx_graph import NOT_EXPORTABLE, ONNX_OPS
from tenflang.ops.reference import GROUPS, group_of

OPS = sorted(TABLE)


@pytest.mark.parametrize("name", OPS)
def test_each_op_is_in_one_group_of_the_reference(name):
    assert group_of(name)
    assert sum(name in names.split() for _, names in GROUPS) == 1


def test_the_reference_lists_only_ops_of_the_table():
    listed = {n for _, names in GROUPS for n in names.split()}
    assert listed == set(TABLE), sorted(listed ^ set(TABLE))


@pytest.mark.parametrize("name", OPS)
def test_each_op_has_an_onnx_form_or_the_reason_it_has_none(name):
    assert (name in ONNX_OPS) != (name in NOT_EXPORTABLE), name


@pytest.mark.parametrize("name", OPS)
def test_an_elementwise_op_has_its_per_element_form(name):
    op = TABLE[name]
    if op.elementwise:
        assert op.scalar, f"'{name}' is elementwise: give it `scalar=` (one element as Python)"


@pytest.mark.parametrize("name", [n for n in OPS if TABLE[n].batch_sum])
def test_a_batch_sum_calls_only_xp_and_its_own_function(name):
    op = TABLE[name]
    calls = {word for word in op.batch_sum.replace("(", " ").split() if word.startswith("F.")}
    assert calls <= {f"F.{name}_sum"}, calls
    assert bool(calls) == (op.batch_sum_forward is not None), name
    assert set(op.batch_sum.format(a="a", b="b", c="c", attrs="1, 0"))    # its fields are known


@pytest.mark.parametrize("name", [n for n in OPS if TABLE[n].index])
def test_an_index_operand_is_an_operand_and_has_a_limit(name):
    op = TABLE[name]
    assert 0 <= op.index.operand < op.arity
    assert op.index.what.endswith(f"for {name}")
    assert len(inspect.signature(op.index.limit).parameters) == 2


def test_the_index_limits_read_the_operands_and_attributes():
    assert TABLE["one_hot"].index.limit([()], (10,)) == 10
    assert TABLE["take"].index.limit([(50, 8), (3,)], ()) == 50
    assert TABLE["take"].index.limit([(), (3,)], ()) is None


@pytest.mark.parametrize("kernels", [image_c.FORWARDS, rows_c.FORWARDS], ids=["image", "rows"])
def test_a_native_kernel_serves_an_op_of_the_table(kernels):
    """Each is an op's forward, its batch sum, or a step of one the generated code
    shares between an op and its adjoints (`conv2d_columns`: the windows once)."""
    sums = {f"{n}_sum" for n, op in TABLE.items() if op.batch_sum_forward}
    stray = sorted(k for k in kernels if k not in TABLE and k not in sums
                   and not any(k.startswith(f"{n}_") for n in TABLE))
    assert not stray
    for name in set(kernels) & set(TABLE):       # same call as the table's forward
        ours = inspect.signature(TABLE[name].forward).parameters
        assert len(inspect.signature(kernels[name]).parameters) == len(ours), name
