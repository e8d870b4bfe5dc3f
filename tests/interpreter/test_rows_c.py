"""The C row kernels (interp/backends/c/rows_c.py): softmax, log_softmax and one_hot equal
ops/forwards.py's numpy forms to round-off, on ordinary and hostile rows, in both
dtypes; a bad class index is the same error; and the plan uses them unless
TENFLANG_NATIVE=0 or there is no C compiler."""
from __future__ import annotations

import numpy as np
import pytest

import tenflang
from tenflang.ops import forwards
from tenflang.native import clib
from tenflang.base.errors import TenflangError
from tenflang.interp.runtime import codegen
from tenflang.interp.backends.c import rows_c
from tenflang.interp import run_plan


pytestmark = pytest.mark.usefixtures("native_on")     # tests of the native kernels


@pytest.fixture(autouse=True)
def compiler():
    if clib.unavailable_reason():
        pytest.skip(clib.unavailable_reason())


def hostile_rows(dtype: str, shape=(40, 3, 10)):
    rng = np.random.default_rng(2)
    a = rng.normal(size=shape) * 5
    rows = a.reshape(-1, shape[-1])
    rows[0, 3] = np.nan                              # NaN wins the maximum
    rows[1, 2] = np.inf                              # +inf: inf - inf
    rows[2, :4] = -np.inf                            # some -inf
    rows[3, :] = -np.inf                             # all -inf: the maximum is not finite
    rows[4, :] = [1e300, -1e300] * (shape[-1] // 2)  # overflow in float32
    rows[5, :] = 0.0
    rows[6, 1] = -0.0
    rows[7, :] = 700.0 + np.arange(shape[-1])        # exp overflows unshifted
    with np.errstate(over="ignore"):
        return a.astype(dtype)


def assert_round_off(got, expected, dtype):
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert np.array_equal(np.isnan(got), np.isnan(expected))
    finite = np.isfinite(expected)
    assert np.array_equal(got[~finite & ~np.isnan(expected)], expected[~finite & ~np.isnan(expected)])
    eps = np.finfo(dtype).eps
    err = np.abs(got[finite] - expected[finite])
    assert (err <= 16 * eps * np.maximum(np.abs(expected[finite]), 1)).all()


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("shape", [(40, 3, 10), (32, 10), (5, 1), (7, 2, 300)])
def test_rows_equal_numpys_to_round_off(dtype, name, shape):
    a = hostile_rows(dtype, shape) if shape[-1] >= 10 else \
        np.random.default_rng(3).normal(size=shape).astype(dtype)
    with np.errstate(all="ignore"):
        expected = getattr(forwards, name)(np, a)
        got = getattr(rows_c, name)(np, a)
    assert rows_c.library_for(np, a) is not None      # the C path ran
    assert_round_off(got, expected, dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_one_hot_equals_numpys_and_refuses_the_same_labels(dtype):
    y = (np.arange(50) % 7).astype(dtype)
    assert np.array_equal(rows_c.one_hot(np, y, 7), forwards.one_hot(np, y, 7))
    assert rows_c.one_hot(np, y, 7).dtype == np.dtype(dtype)
    for bad in (7.0, -1.0, 2.5, np.nan, np.inf, -0.5):
        z = y.copy()
        z[13] = bad
        with pytest.raises(TenflangError) as c_error:
            rows_c.one_hot(np, z, 7)
        with pytest.raises(TenflangError) as numpy_error:
            forwards.one_hot(np, z, 7)
        assert str(c_error.value) == str(numpy_error.value)
        assert "in example 13 (0-based) must be an integer in 0..6" in str(c_error.value)
    assert np.array_equal(rows_c.one_hot(np, np.array([-0.0], dtype), 2), [[1, 0]])


def test_float32_rows_of_many_classes_are_summed_in_double():
    """numpy's pairwise float32 sum over 50,000 classes errs by ~5 ε; an in-order
    float sum erred by 57: the kernels sum in double."""
    a = np.random.default_rng(5).normal(size=(2, 50_000)).astype(np.float32)
    exact = forwards.softmax(np, a.astype(np.float64))
    got = rows_c.softmax(np, a)
    assert np.abs(got - exact).max() <= 8 * np.finfo(np.float32).eps * np.abs(exact).max()
    exact = forwards.log_softmax(np, a.astype(np.float64))
    got = rows_c.log_softmax(np, a)
    assert np.abs(got - exact).max() <= 8 * np.finfo(np.float32).eps * np.abs(exact).max()


def test_one_hot_compares_class_indices_exactly():
    """2^24 is a float32 class index of 2^24 + 1 classes (n would round to 2^24)."""
    y = np.array([2.0 ** 24], np.float32)
    assert rows_c.one_hot(np, y, 2 ** 24 + 1)[0, -1] == 1


def test_other_arrays_take_the_numpy_path(env_switch):
    a = np.arange(12.0).reshape(3, 4)
    assert rows_c.library_for(np, a.astype(np.int64)) is None
    assert rows_c.library_for(np, np.empty((0, 4))) is None
    swapped = a.astype(">f8")                      # the kernels read native byte order only
    assert rows_c.library_for(np, swapped) is None
    np.testing.assert_array_equal(rows_c.softmax(np, swapped), forwards.softmax(np, a))
    assert np.array_equal(rows_c.one_hot(np, np.array([1.0, 2.0], ">f4"), 3), np.eye(3)[1:])
    assert rows_c.library_for(np, a) is not None
    env_switch("TENFLANG_NATIVE", "0")
    assert rows_c.library_for(np, a) is None
    np.testing.assert_array_equal(rows_c.softmax(np, a), forwards.softmax(np, a))


CLASSIFIER = """declare input x [6]
declare exp_output label
declare weight W [4, 6]
declare output z [4]
declare intvar logp
declare intvar hot
declare intvar fit
declare loss xent
define z = matmul W x
define logp = log_softmax z
define hot = one_hot label 4
define fit = dot logp hot
define xent = neg fit
"""


def test_a_classifier_step_is_the_same_with_and_without_the_kernels(env_switch):
    """The training gradient of softmax cross-entropy (log_softmax, one_hot,
    softmax in its plan): with the kernels and on the numpy path."""
    from tenflang.backprop import compile_gradient
    from tenflang.training.gradients import gradient_plan
    from tenflang.training.signature import signature
    gcp = compile_gradient(tenflang.parse(CLASSIFIER))
    sig = signature(gcp)
    plan = gradient_plan(gcp, sig)
    assert {"log_softmax", "softmax", "one_hot"} <= {s.op.name for s in plan.steps}
    rng = np.random.default_rng(4)
    data = {"x": rng.normal(size=(32, 6)), "label": rng.integers(0, 4, 32).astype(float),
            "W": rng.normal(size=(4, 6))}
    runs = []
    for switch in ("1", "0"):
        env_switch("TENFLANG_NATIVE", switch)
        codegen.compiled.cache_clear()
        runs.append(run_plan(plan, data, reduce="mean"))
    codegen.compiled.cache_clear()
    for k in runs[1]:
        np.testing.assert_allclose(runs[0][k], runs[1][k], rtol=1e-14, atol=1e-15)
    data["label"][5] = 4.0
    with pytest.raises(TenflangError, match="class index 4.0 in example 5"):
        run_plan(plan, data, reduce="mean")
