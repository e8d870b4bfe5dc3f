"""The whole training step as one C call (training/native_train.py).

* A run taking its steps in C ends with the weights, losses, gradient norms
  and validation losses of the same run taking them in Python (the reference:
  `fused_step` turned off), for SGD and Adam, with weight decay, in float64
  and float32, with mini-batches whose last one is short, with a
  validation split, and full batch; and it does take its steps in C.
* Settings it does not run (momentum, clipping, frozen weights, another
  optimizer) leave the steps to Python.
* A loss that is not finite, weights that diverge, a norm below `tol` and a
  class index outside the classes end the run as they end it in Python:
  the same error, the same kept weights, the same reason.
"""
from __future__ import annotations

import numpy as np
import pytest

import tenflang
from tenflang.base.errors import RunFailure, TenflangError
from tenflang.interp.runtime import native_run, run
from tenflang.native import clib
from tenflang.training import gradients, native_train
from tenflang.training.config import TrainConfig
from tenflang.training.loop import train

from support.programs import sample_gcp

pytestmark = pytest.mark.skipif(
    clib.unavailable_reason() is not None or native_run.gemm_address("float64") is None,
    reason=f"no native step here: {clib.unavailable_reason() or 'numpy has no bundled OpenBLAS'}")

TOLERANCE = {"float64": 1e-12, "float32": 1e-5}


@pytest.fixture(autouse=True)
def compiles(monkeypatch):
    """Every run's step compiled, however short the run (`worth_compiling`)."""
    monkeypatch.setattr(native_run, "COMPILE_SECONDS", 0.0)


def digits(n=150, seed=0):
    rng = np.random.default_rng(seed)
    return {"x": rng.random((n, 64)), "y": np.eye(10)[rng.integers(0, 10, n)]}


@pytest.fixture
def steps(monkeypatch):
    """How many steps the run took in C."""
    taken = []
    real = native_train.FusedStep.__call__

    def counted(self, *args):
        done = real(self, *args)
        taken.append(done is not None and done[0] != native_train.CHECK)
        return done
    monkeypatch.setattr(native_train.FusedStep, "__call__", counted)
    return taken


def in_python(monkeypatch):
    """Training steps as before the native step: the loop and the generated Python."""
    monkeypatch.setattr(gradients, "fused_step", lambda *args: None)
    monkeypatch.setattr(run, "run_native", lambda *args: None)


def both(monkeypatch, gcp, data, cfg, **kwargs):
    """(the run in C, the same run in Python)."""
    fused = train(gcp, data, cfg, **kwargs)
    with monkeypatch.context() as m:
        in_python(m)
        return fused, train(gcp, data, cfg, **kwargs)


def assert_same_run(fused, python, dtype="float64"):
    rtol = TOLERANCE[dtype]
    assert fused.iterations == python.iterations and fused.reason == python.reason
    np.testing.assert_allclose(fused.history, python.history, rtol=rtol)
    np.testing.assert_allclose(fused.grad_norm, python.grad_norm, rtol=rtol)
    for name, w in python.weights.items():
        np.testing.assert_allclose(fused.weights[name], w, rtol=rtol, atol=rtol, err_msg=name)
    if python.val_loss is not None:
        np.testing.assert_allclose(fused.val_loss, python.val_loss, rtol=rtol)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("optimizer, lr", [("sgd", 0.2), ("adam", 0.01)])
@pytest.mark.parametrize("batch, val", [(32, 0.0), (40, 0.2), (None, 0.0)])
def test_a_run_in_c_equals_the_run_in_python(monkeypatch, steps, dtype, optimizer, lr, batch,
                                             val):
    cfg = TrainConfig(optimizer=optimizer, lr=lr, batch_size=batch, max_iters=25, tol=0,
                      dtype=dtype, weight_decay=0.01, val_fraction=val)
    fused, python = both(monkeypatch, sample_gcp("mlp_digits.tf"), digits(), cfg)
    assert steps and all(steps[:25])          # the first run's steps, all in C
    assert_same_run(fused, python, dtype)


@pytest.mark.parametrize("settings", [dict(optimizer="momentum", momentum=0.9),
                                      dict(clip_norm=1.0), dict(freeze=("W1",)),
                                      dict(optimizer="rmsprop")])
def test_settings_it_does_not_run_stay_in_python(monkeypatch, steps, settings):
    cfg = TrainConfig(**{"lr": 0.01, "batch_size": 32, "max_iters": 5, "tol": 0, **settings})
    fused, python = both(monkeypatch, sample_gcp("mlp_digits.tf"), digits(), cfg)
    assert steps == []
    assert_same_run(fused, python)


def test_a_norm_below_tol_converges_without_a_step(monkeypatch, steps):
    cfg = TrainConfig(lr=0.1, max_iters=50, tol=1e9, batch_size=16)
    fused, python = both(monkeypatch, sample_gcp("mlp_digits.tf"), digits(), cfg)
    assert fused.reason == "converged" and fused.iterations == 0 and steps == [True]
    assert_same_run(fused, python)


def failure(gcp, data, cfg, **kwargs):
    with pytest.raises((RunFailure, TenflangError)) as err:
        train(gcp, data, cfg, **kwargs)
    return err.value


def test_weights_that_diverge_end_the_run_as_in_python(monkeypatch, steps):
    gcp, data = sample_gcp("linear_regression.tf"), {"x": np.full((8, 3), 1e150),
                                                    "y": np.ones(8)}
    cfg = TrainConfig(lr=1e150, max_iters=5, tol=0, batch_size=4)
    fused = failure(gcp, data, cfg)
    in_python(monkeypatch)
    python = failure(gcp, data, cfg)
    assert steps and str(fused) == str(python) and "diverged" in str(fused)
    for name, w in python.state.weights.items():
        np.testing.assert_array_equal(fused.state.weights[name], w)


def test_a_loss_that_is_not_finite_ends_the_run_as_in_python(monkeypatch, steps):
    gcp = tenflang.compile_gradient(tenflang.parse(
        "declare input x [2]\ndeclare weight w [2]\ndeclare loss l\n"
        "define l = sum (log (mul w x))\n"))
    data, cfg = {"x": np.ones((6, 2))}, TrainConfig(lr=0.1, max_iters=3, tol=0, batch_size=3)
    fused = failure(gcp, data, cfg, init={"w": np.array([-1.0, 1.0])})
    in_python(monkeypatch)
    python = failure(gcp, data, cfg, init={"w": np.array([-1.0, 1.0])})
    assert steps == [True] and str(fused) == str(python) and "loss is nan" in str(fused)


def test_a_class_index_outside_the_classes_raises_the_ops_error(monkeypatch):
    gcp = sample_gcp("rnn_digits.tf")        # x [8, 8], label: a class 0..9 for one_hot
    data = {"x": np.random.default_rng(0).random((6, 8, 8)),
            "label": np.array([1.0, 2.0, 3.0, 10.5, 0.0, 1.0])}
    cfg = TrainConfig(lr=0.1, max_iters=2, tol=0, batch_size=6)
    fused = failure(gcp, data, cfg)
    in_python(monkeypatch)
    assert str(fused) == str(failure(gcp, data, cfg)) and "10.5" in str(fused)
