"""Loops kept as loops (docs/design.md §2.4.2, §2.5.1) give the gradients of
their unrolled twins: every `d/dw` of the GCP of a program read with
loops="keep" equals that of the same program read with loops="unroll", to
1e-12, at -O0 and -O1, for sequences of 1, 2, 16 and 257 steps.

The kept GCP runs as compiled and as re-read from its printed text, reducing
the batch (`reduce="mean"`) and per example (`reduce=None`); the reference
is the unrolled GCP as compiled.  The programs (tests/support/
kept_loop_programs.py): an RNN cell folded and scanned, the samples
charlm.tf, charlm_scan.tf and lstm_digits.tf with their windows edited, a
fold over a scan's states, a matrix state, a cell operand computed per
example, and a cell that ignores its state.  At 257 steps the samples' state
widths are shrunk and the weights are small: with large weights a long
recurrence is chaotic, and two summation orders (both correct) drift apart
by more than 1e-12; a sample's 257 steps are checked reducing the batch
only.  Finite differences check two of the programs kept.
"""
from __future__ import annotations

import functools

import numpy as np
import pytest

import tenflang
from support.gradcheck import gcp_gradients, numerical_gradient
from support.kept_loop_programs import (PROGRAMS, gcp_of, kept_cells, loop_data,
                                        matrix_state, per_example_operand, run_gradients)

STEPS = (1, 2, 16, 257)
SAMPLES = ("charlm", "charlm_scan", "lstm_digits")
TOLERANCE = dict(rtol=1e-12, atol=1e-12)


def setting(steps: int) -> tuple[bool, float, int]:
    """(shrink the samples, weight scale, batch) for a sequence of `steps`."""
    return (True, 0.1, 2) if steps > 100 else (False, 0.4, 3)


@functools.lru_cache(maxsize=None)
def case(name: str, steps: int):
    """(source, data, weights) of one program at one length, drawn once."""
    small, scale, batch = setting(steps)
    source = PROGRAMS[name](steps, small)
    unrolled = tenflang.parse(source, "t.tf", shape_program=True, loops="unroll")
    data, weights = loop_data(unrolled, np.random.default_rng(steps), batch, scale)
    return source, data, weights


def assert_same(got: dict, expected: dict, what: str) -> None:
    assert got.keys() == expected.keys()
    for name in expected:
        assert got[name].shape == expected[name].shape, (what, name)
        np.testing.assert_allclose(got[name], expected[name], **TOLERANCE,
                                   err_msg=f"{what}: d/d{name}")


def reductions(name: str, steps: int) -> tuple:
    """Both, but for a sample's 257 steps, whose unrolled twin runs a second
    per reduction (per example is checked at 1, 2 and 16 steps)."""
    return ("mean",) if steps > 100 and name in SAMPLES else ("mean", None)


@pytest.mark.parametrize("level", [0, 1])
@pytest.mark.parametrize("steps", STEPS)
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_kept_gradients_equal_the_unrolled_ones(name, steps, level):
    source, data, weights = case(name, steps)
    kept = tenflang.parse(source, "t.tf", shape_program=True, loops="keep")
    assert kept_cells(kept), "loops='keep' kept no loop"
    assert not kept_cells(tenflang.parse(source, "t.tf", shape_program=True, loops="unroll"))
    twin = gcp_of(source, "unroll", level)
    assert "scan_back" not in tenflang.print_program(twin)
    for reduce in reductions(name, steps):
        expected = run_gradients(twin, data, weights, reduce)
        assert any(np.any(g != 0) for g in expected.values())      # a test that can fail
        for reread in (False, True):
            gcp = gcp_of(source, "keep", level, reread)
            assert any(d.op == "scan_back" for d in gcp.definitions())
            got = run_gradients(gcp, data, weights, reduce)
            assert_same(got, expected, f"-O{level} reduce={reduce} reread={reread}")


@pytest.mark.parametrize("name", ["rnn_scan", "per_example_operand", "charlm"])
def test_per_example_gradients_average_to_the_batch_gradient(name):
    """reduce=None gives one gradient per example; their mean is reduce="mean"'s."""
    source, data, weights = case(name, 16)
    gcp = gcp_of(source, "keep", 1, reread=True)
    each = run_gradients(gcp, data, weights, None)
    mean = run_gradients(gcp, data, weights, "mean")
    batch = len(next(iter(data.values())))
    for w, value in each.items():
        assert value.shape == (batch, *np.shape(weights[w])), w
        np.testing.assert_allclose(value.mean(axis=0), mean[w], **TOLERANCE, err_msg=w)


@pytest.mark.parametrize("make", [per_example_operand, matrix_state], ids=lambda f: f.__name__)
def test_finite_differences_with_the_loops_kept(make):
    program = tenflang.parse(make(3), "fd.tf", shape_program=True, loops="keep")
    assert kept_cells(program)
    data, weights = loop_data(program, np.random.default_rng(5), 3, 0.5)
    for level in (0, 1):
        analytic = gcp_gradients(program, data, weights, level)      # re-read: still kept
        for name in weights:
            expected = numerical_gradient(program, data, weights, name)
            assert np.any(expected != 0), name
            np.testing.assert_allclose(analytic[name], expected, rtol=1e-5, atol=1e-7,
                                       err_msg=f"-O{level} d/d{name}")


NESTED_CALLS = """macro lin W x -> y
  define y = matmul W x
end
macro cell h x W U -> hn
  define hn = tanh (add (lin W x) (lin U h))
end
declare input xs [20, 3]
declare weight W [2, 3]
declare weight U [2, 2]
declare weight h0 [2]
declare output hT
declare loss l
define hT = fold cell h0 xs W U
define l = sum (mul hT hT)
"""


def test_a_cell_calling_macros_inside_its_expressions_is_kept():
    """The macros a cell calls, in nested expressions too, are expanded into it."""
    kept = tenflang.parse(NESTED_CALLS, "n.tf", shape_program=True)
    assert kept_cells(kept) == ["cell"]
    assert [d.op for d in kept.cells["cell"].body if hasattr(d, "op")].count("matmul") == 2
    data, weights = loop_data(kept, np.random.default_rng(7), 4, 0.5)
    expected = run_gradients(gcp_of(NESTED_CALLS, "unroll", 1), data, weights, "mean")
    got = run_gradients(gcp_of(NESTED_CALLS, "auto", 1, reread=True), data, weights, "mean")
    for w in expected:
        np.testing.assert_allclose(got[w], expected[w], rtol=1e-12, atol=1e-14, err_msg=w)
