"""Training keeps its data on the device (docs/guide/performance.md, "Running on a GPU").

Proved without a GPU: training runs on `CountingXP`, an array module that
behaves like cupy at the host/device border (tests/support/counting_xp.py) and counts
every copy across it.  The data crosses once, the weights once (and optimizer
state stays where it is made); per iteration two small copies come back (the
loss and the gradient norm the stopping rule needs, together; one flag saying
the step left every weight finite) and none goes out; at the start one copy says which weights are zero, at the end one
copy per weight and optimizer slot comes back.  A
stray `np.asarray(device_array)` anywhere in a step fails, as on cupy.
"""
from __future__ import annotations

import numpy as np
import pytest

import tenflang
from tenflang.interp.engine import Engine
from tenflang.training.gradients import LocalGradients
from tenflang.training.config import TrainConfig
from tenflang.training.loop import train

from support.paths import SAMPLES_DIR
from support.counting_xp import CountingXP

SAMPLE_DATA = {"example_shape.tf": "example_train.txt",
               "linear_regression.tf": "linear_train.txt",
               "logistic_breast_cancer.tf": "breast_cancer_train.txt",
               "mlp_digits.tf": "digits_train.txt",
               "softmax_digits.tf": "digits_train.txt"}


def counted_run(sample: str, iterations: int, **config):
    program = tenflang.parse_file(SAMPLES_DIR / sample)
    gcp = tenflang.parse(tenflang.print_program(tenflang.compile_gradient(program)))
    examples = tenflang.load_examples(SAMPLES_DIR / SAMPLE_DATA[sample]).arrays
    xp = CountingXP()
    cfg = TrainConfig(lr=0.01, max_iters=iterations, tol=0.0, **config)
    result = train(gcp, examples, cfg, LocalGradients(Engine(xp)))
    return xp, result, examples, gcp, cfg


@pytest.mark.parametrize("sample", sorted(SAMPLE_DATA))
@pytest.mark.parametrize("config", [{}, {"batch_size": 16, "optimizer": "adam"},
                                    {"optimizer": "momentum", "dtype": "float32"}],
                         ids=["full-batch-sgd", "minibatch-adam", "momentum-float32"])
def test_per_iteration_only_the_loss_and_norm_come_back(sample, config):
    short, *_ = counted_run(sample, 2, **config)
    long, result, examples, gcp, cfg = counted_run(sample, 7, **config)
    assert result.iterations == 7
    # what grows with the iterations is two small copies back per iteration (the loss
    # with the gradient norm; whether the step left every weight finite), nothing out
    assert long.d2h - short.d2h == 2 * 5
    assert long.h2d - short.h2d <= (1 if "batch_size" in config else 0)   # a new epoch's order
    # once: the data, the weights (and the first epoch's order); back: which weights start
    # at zero (one copy, for the run's health warnings), then the weights and slots
    n_weights = len(result.weights)
    assert short.h2d <= len(examples) + n_weights + 1
    assert short.d2h == 2 * 2 + 1 + n_weights + len(result.state.slots)


def test_the_counting_module_catches_an_implicit_copy():
    xp = CountingXP()
    device = xp.asarray(np.arange(3.0))
    with pytest.raises(TypeError, match="implicit conversion"):
        np.asarray(device)
    with pytest.raises(TypeError, match="host array"):
        xp.add(device, np.ones(3))
    assert float(xp.sum(device)) == 3.0 and (xp.h2d, xp.d2h) == (1, 1)


def test_results_on_the_counting_module_equal_numpy(env_switch):
    """The same numpy calls on both: the plain run without the CPU's C loops and
    kernels (which another array module never takes; they equal numpy to round-off)."""
    _, counted, examples, gcp, cfg = counted_run("mlp_digits.tf", 5, batch_size=32)
    env_switch("TENFLANG_FUSE", "0")
    env_switch("TENFLANG_NATIVE", "0")
    plain = train(gcp, examples, cfg)
    for name, w in plain.weights.items():
        np.testing.assert_array_equal(counted.weights[name], w)
    assert counted.history == plain.history
