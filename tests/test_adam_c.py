"""Adam's update as one C loop (training/adam_c.py) against optimizers.adam's
numpy form: the same weights and state bit for bit, in float64 and float32,
with and without weight decay, over several steps; and the numpy form where
the loop does not apply."""
from __future__ import annotations

import numpy as np
import pytest

from tenflang import native
from tenflang.training import adam_c, optimizers
from tenflang.training.config import TrainConfig

pytestmark = pytest.mark.skipif(native.unavailable_reason() is not None,
                                reason="no C compiler here")


def config(weight_decay: float) -> TrainConfig:
    cfg = TrainConfig(optimizer="adam", lr=0.01, weight_decay=weight_decay)
    optimizers.fill(cfg)
    return cfg


def steps(dtype: str, weight_decay: float, fused: bool, env_switch) -> tuple:
    """Weight, m and v after five Adam steps on fixed gradients."""
    env_switch("TENFLANG_FUSE", "1" if fused else "0")
    rng = np.random.default_rng(4)
    w = rng.standard_normal((7, 5)).astype(dtype)
    slots: dict = {}
    for t in range(1, 6):
        g = (rng.standard_normal((7, 5)) * 10.0 ** rng.integers(-8, 3, (7, 5))).astype(dtype)
        optimizers.adam(w, g, slots, t, 0.01, config(weight_decay), np)
    return w, slots["m"], slots["v"]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("weight_decay", [0.0, 0.05])
def test_the_c_update_equals_numpy_bit_for_bit(dtype, weight_decay, env_switch):
    fused = steps(dtype, weight_decay, True, env_switch)
    plain = steps(dtype, weight_decay, False, env_switch)
    for a, b in zip(fused, plain):
        assert a.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(a, b)


def test_it_applies_only_to_contiguous_numpy_arrays_of_one_dtype(env_switch):
    env_switch("TENFLANG_FUSE", "1")         # whatever the caller's environment says
    cfg = config(0.0)
    w, m, v = np.ones((4, 3)), np.zeros((4, 3)), np.zeros((4, 3))
    assert adam_c.update(w, np.ones((4, 3)), m, v, 1, 0.1, cfg)
    assert not (w == 1.0).any()                       # the step was taken
    before = w.copy()
    assert not adam_c.update(w, np.ones((3, 4)).T, m, v, 2, 0.1, cfg)     # not contiguous
    assert not adam_c.update(w, np.ones((4, 3), np.float32), m, v, 2, 0.1, cfg)
    assert not adam_c.update(w, np.ones(12), m, v, 2, 0.1, cfg)           # another shape
    np.testing.assert_array_equal(w, before)          # nothing done
