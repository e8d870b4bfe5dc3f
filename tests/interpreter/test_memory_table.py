"""The per-line memory table (interp/runtime/memory_table.py, `tfcompiler --memory`).

* A small program's table equals, line by line, what numpy holds when the
  test runs the same lines itself: real arrays, each deleted after its last
  use as the test finds it, counted by `nbytes` once per buffer (a view's
  memory is its base's), the data and the weights held throughout, and the
  copy of the weights a training step keeps (the last good ones) beside them.
* A weight gradient summed inside its product is weight-sized: its bytes do
  not grow with the batch; a value of the examples grows linearly.
* The peak splits into per example × batch + per batch.
"""
from __future__ import annotations

import numpy as np
import pytest

from tenflang.interp import make_plan
from tenflang.interp.runtime.memory_table import KEPT_WEIGHTS, step_memory, table_text
from tenflang.lang import parse
from tenflang.training.gradients import gradient_plan
from tenflang.training.signature import signature

from support.programs import sample_gcp

PROGRAM = """
declare input x [4, 3]
declare exp_output y [3, 4]
declare weight W [4, 3]
declare intvar a [4, 3]
declare intvar t [3, 4]
declare intvar b [3, 4]
declare intvar c [3, 4]
declare intvar s [3, 4]
declare output o [3, 4]
declare output p [3, 4]
define a = mul x W
define t = transpose a
define b = tanh t
define s = exp t
define c = sub b y
define o = add c s
define p = neg c
"""

# the lines above as the test runs them: target, numpy function, operands
NUMPY_LINES = [
    ("a", np.multiply, ("x", "W")),
    ("t", lambda a: a.transpose(0, 2, 1), ("a",)),
    ("b", np.tanh, ("t",)),
    ("s", np.exp, ("t",)),
    ("c", np.subtract, ("b", "y")),
    ("o", np.add, ("c", "s")),
    ("p", np.negative, ("c",)),
]
RESULTS = ("o", "p")


def held_bytes(arrays: dict) -> int:
    """Bytes of the distinct buffers behind `arrays` (a view counts as its base)."""
    buffers = {}
    for a in arrays.values():
        owner = a if a.base is None else a.base
        buffers[id(owner)] = owner.nbytes
    return sum(buffers.values())


def numpy_running_totals(batch: int, dtype) -> list[int]:
    """What numpy holds while each line runs, the lines' values freed after their last use."""
    rng = np.random.default_rng(0)
    arrays = {"x": rng.random((batch, 4, 3)), "y": rng.random((batch, 3, 4)),
              "W": rng.random((1, 4, 3))}
    arrays = {k: v.astype(dtype) for k, v in arrays.items()}
    data = set(arrays)
    last_use = {name: k for k, (_, _, operands) in enumerate(NUMPY_LINES) for name in operands}
    arrays[KEPT_WEIGHTS] = arrays["W"].copy()      # training/loop.py `keep`
    names = list(arrays)                # the rows of x, y, W and W's copy: each adds its own
    totals = [held_bytes({n: arrays[n] for n in names[:k + 1]}) for k in range(len(names))]
    for k, (target, function, operands) in enumerate(NUMPY_LINES):
        arrays[target] = function(*(arrays[o] for o in operands))
        totals.append(held_bytes(arrays))
        for name in operands:
            if last_use[name] == k and name not in data and name not in RESULTS:
                del arrays[name]
    return totals


@pytest.mark.parametrize("batch, dtype", [(1, "float64"), (5, "float32"), (64, "float64")])
def test_the_table_is_what_numpy_holds_line_by_line(batch, dtype):
    plan = make_plan(parse(PROGRAM), {"x", "y", "W"}, list(RESULTS))
    table = step_memory(plan, batch, dtype)
    assert [row.name for row in table.rows] == (["x", "y", "W", KEPT_WEIGHTS]
                                                + [t for t, _, _ in NUMPY_LINES])
    expected = numpy_running_totals(batch, dtype)
    assert [table.total(row.live) for row in table.rows] == expected
    assert table.total(table.peak().live) == max(expected)


def test_the_peak_is_per_example_times_the_batch_plus_per_batch():
    plan = make_plan(parse(PROGRAM), {"x", "y", "W"}, list(RESULTS))
    peak = step_memory(plan, 7, "float64").peak()
    # first reached at `s`: x y a b s of the examples (a held by its view t; five
    # at c, o and p too, four before), W and its kept copy per batch; 12 float64s each
    assert peak.name == "s" and peak.live == (5 * 12 * 8, 2 * 12 * 8)
    text = table_text(step_memory(plan, 7, "float64"))
    assert text.splitlines()[-1] == "peak: 3,552 bytes at s: 480 per example × 7 + 192 per batch"


def test_a_gradient_summed_inside_its_product_is_weight_sized():
    gcp = sample_gcp("mlp_digits.tf")
    plan = gradient_plan(gcp, signature(gcp))
    small, large = (step_memory(plan, batch, "float32") for batch in (1, 100))
    rows = {row.name: (row, other) for row, other in zip(small.rows, large.rows)}
    gradient, _ = rows["d/dW1"]
    assert not gradient.varies and gradient.bytes == (0, 32 * 64 * 4)
    assert small.total(gradient.bytes) == large.total(rows["d/dW1"][1].bytes)
    hidden, _ = rows["h"]
    assert hidden.varies and large.total(hidden.bytes) == 100 * small.total(hidden.bytes)


def test_every_column_lines_up():
    """Names and shapes start under their headers, numbers end under theirs."""
    gcp = sample_gcp("lenet_digits.tf")
    table = step_memory(gradient_plan(gcp, signature(gcp)), 16, "float32")
    header, *rows = table_text(table).splitlines()[1:-1]
    assert len(rows) == len(table.rows)
    for row, line in zip(table.rows, rows):
        assert line[header.index("value"):].startswith(row.name + " ")
        assert line[header.index("shape"):].startswith("16 × [" if row.varies else "[")
        end = header.index("live") + len("live")
        assert line[:end].endswith(f" {table.total(row.live):,}")
        end = header.index("bytes") + len("bytes")
        assert line[:end].endswith(" view" if row.bytes is None else f" {table.total(row.bytes):,}")


def test_columns_kept_for_the_kernel_gradient_are_a_row_until_it():
    """LeNet's second convolution: 16·3·3 × 4·4 columns per example, kept from the
    forward to the kernel gradient while they take at most 12 MiB (image_c), made
    again by the kernel gradient past that (its temp, then)."""
    gcp = sample_gcp("lenet_digits.tf")
    plan = gradient_plan(gcp, signature(gcp))
    columns = 16 * 9 * 16 * 8                            # float64 bytes per example
    table = step_memory(plan, 4, "float64")
    names = [row.name for row in table.rows]
    at = names.index("a1.columns")
    assert names[at + 1] == "a2.1" and table.rows[at].bytes == (columns, 0)
    kernel = table.rows[names.index("d/dK2")]
    assert kernel.temp == (0, 0) and kernel.freed[0] >= columns
    batch = (12 << 20) // columns + 1                    # past 12 MiB of columns
    table = step_memory(plan, batch, "float64")
    names = [row.name for row in table.rows]
    assert "a1.columns" not in names
    assert table.rows[names.index("d/dK2")].temp == (columns, 0)


def test_a_grouped_convolutions_columns_hold_all_its_channels():
    """Two groups of 4 channels: the columns the run keeps hold all 8 channels'
    3·3 windows at the 6·6 output pixels (each group's rows a view of them,
    image_c), not the kernel's 4 channels per filter."""
    from tenflang.backprop import compile_gradient
    gcp = compile_gradient(parse("declare input x [8, 6, 6]\ndeclare weight K [4, 4, 3, 3]\n"
                                 "declare intvar c\ndeclare loss l\n"
                                 "define c = conv2d x K 1 1 2\ndefine l = sum (mul c c)\n"), 1)
    table = step_memory(gradient_plan(gcp, signature(gcp)), 2, "float64")
    row = next(row for row in table.rows if row.name.endswith(".columns"))
    assert row.shape == (8 * 3 * 3, 6 * 6) and row.bytes == (8 * 9 * 36 * 8, 0)
