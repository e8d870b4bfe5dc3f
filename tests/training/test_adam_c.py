"""Adam's update of every weight in one C call (training/adam_c.py) against
optimizers.adam's numpy form: the same weights and state bit for bit, in
float64 and float32, with and without weight decay, over several steps of
optimizers.step on weights of several shapes (one frozen); the numpy form
where the call does not apply to every weight, with nothing done by C; and
its finiteness flag, with which the loop keeps the last good weights."""
from __future__ import annotations

import numpy as np
import pytest

from tenflang.native import clib, cpython
from tenflang.training import adam_c, optimizers
from tenflang.training.config import TrainConfig
from tenflang.training.state import State

pytestmark = pytest.mark.skipif(clib.unavailable_reason() is not None,
                                reason="no C compiler here")

SHAPES = {"W1": (7, 5), "b1": (7,), "W2": (3, 7), "s": (), "frozen": (2, 2)}


def config(weight_decay: float) -> TrainConfig:
    cfg = TrainConfig(optimizer="adam", lr=0.01, weight_decay=weight_decay, freeze=("frozen",))
    optimizers.fill(cfg)
    return cfg


def numpy_form_refused(*args):
    raise AssertionError("the numpy form ran where the C update applies")


def initial(dtype: str, rng) -> dict:
    return {k: np.asarray(rng.standard_normal(s), dtype) for k, s in SHAPES.items()}


def steps(dtype: str, weight_decay: float, fused: bool, env_switch, monkeypatch) -> State:
    """The state after five Adam steps on fixed gradients."""
    env_switch("TENFLANG_FUSE", "1" if fused else "0")
    monkeypatch.setitem(optimizers.OPTIMIZERS, "adam",
                        numpy_form_refused if fused else optimizers.adam)
    rng = np.random.default_rng(4)
    state = State(initial(dtype, rng))
    for _ in range(5):
        grads = {k: np.asarray(rng.standard_normal(s) * 10.0 ** rng.integers(-8, 3, s), dtype)
                 for k, s in SHAPES.items()}
        optimizers.step(state, grads, config(weight_decay), np)
        state.iteration += 1
    return state


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("weight_decay", [0.0, 0.05])
def test_the_c_update_equals_numpy_bit_for_bit(dtype, weight_decay, env_switch, monkeypatch):
    assert_same_steps(dtype, weight_decay, env_switch, monkeypatch)


def test_a_toolchain_without_target_clones_gets_the_plain_loop(env_switch, monkeypatch):
    real = clib.library

    def picky(source, extra=()):
        if "#define NO_CLONES" not in source:
            raise clib.Unavailable("target_clones: not on this toolchain (a test's stand-in)")
        return real(source, extra)
    monkeypatch.setattr(clib, "library", picky)
    adam_c.kernel.cache_clear()
    try:
        assert adam_c.kernel("float32") is not None
        assert_same_steps("float32", 0.05, env_switch, monkeypatch)
    finally:
        adam_c.kernel.cache_clear()


def assert_same_steps(dtype: str, weight_decay: float, env_switch, monkeypatch) -> None:
    fused = steps(dtype, weight_decay, True, env_switch, monkeypatch)
    plain = steps(dtype, weight_decay, False, env_switch, monkeypatch)
    assert set(fused.slots) == set(plain.slots) == {
        f"{kind}:{name}" for kind in "mv" for name in SHAPES if name != "frozen"}
    for name in SHAPES:
        assert fused.weights[name].dtype == np.dtype(dtype)
        np.testing.assert_array_equal(fused.weights[name], plain.weights[name])
    for key, value in plain.slots.items():
        np.testing.assert_array_equal(fused.slots[key], value)
    start = initial(dtype, np.random.default_rng(4))
    np.testing.assert_array_equal(fused.weights["frozen"], start["frozen"])
    assert all((fused.weights[k] != start[k]).all() for k in SHAPES if k != "frozen")


def weight(shape=(4, 3), dtype="float64", g=None) -> tuple:
    """(w, g, m, v) of one weight: ones, a gradient of ones, zero state."""
    return (np.ones(shape, dtype), np.ones(shape, dtype) if g is None else g,
            np.zeros(shape, dtype), np.zeros(shape, dtype))


def test_it_applies_only_to_contiguous_numpy_arrays_of_one_dtype(env_switch):
    env_switch("TENFLANG_FUSE", "1")         # whatever the caller's environment says
    cfg = config(0.0)
    first, second = weight(), weight((5,))
    assert adam_c.update([first, second], 1, 0.1, cfg) is True
    assert not (first[0] == 1.0).any() and not (second[0] == 1.0).any()    # both took the step
    for bad in (weight(g=np.ones((3, 4)).T),                    # not contiguous
                weight(g=np.ones((4, 3), np.float32)),          # another dtype
                weight(g=np.ones(12)),                           # another shape
                weight(dtype="float32"),                         # a weight of another dtype
                weight(dtype="int64")):
        fine = weight()
        assert adam_c.update([fine, bad], 2, 0.1, cfg) is None
        assert (fine[0] == 1.0).all() and (bad[0] == 1.0).all()     # nothing done
    read_only = weight()
    read_only[0].flags.writeable = False
    assert adam_c.update([read_only], 1, 0.1, cfg) is None
    with pytest.raises(ValueError, match="read-only"):        # as numpy refuses it
        optimizers.adam(*read_only[:2], {"m": read_only[2], "v": read_only[3]}, 1, 0.1, cfg, np)
    assert adam_c.update([], 1, 0.1, cfg) is None
    env_switch("TENFLANG_FUSE", "0")
    fine = weight()
    assert adam_c.update([fine], 1, 0.1, cfg) is None and (fine[0] == 1.0).all()


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_the_c_update_says_whether_every_new_weight_is_finite(dtype, bad, env_switch):
    """Its flag replaces the loop's own pass over the weights: one entry that turns
    infinite or NaN, wherever it is in whichever weight, makes it False."""
    env_switch("TENFLANG_FUSE", "1")
    cfg = config(0.0)
    # (weight, entry): the first entry, the first weight's vector tail, the last entry
    for k, j in ((0, 0), (0, 8), (1, 20)):
        weights = [weight((3, 3), dtype), weight((21,), dtype)]
        assert adam_c.update(weights, 1, 0.1, cfg) is True
        weights[k][1].reshape(-1)[j] = bad          # its gradient
        assert adam_c.update(weights, 2, 0.1, cfg) is False


@pytest.mark.parametrize("fused", ["1", "0"])
def test_a_step_whose_weights_are_not_finite_leaves_the_last_good_ones(fused, env_switch):
    """With --eps 0 a weight whose gradient is 0 divides 0 by 0 in its first
    Adam step: the run diverges at iteration 1 keeping the starting weights
    exactly, whether the C update's flag or the loop's own check finds it."""
    import tenflang
    from tenflang.training.loop import Diverged, train
    env_switch("TENFLANG_FUSE", fused)
    gcp = tenflang.compile_gradient(tenflang.parse(
        "declare input x\ndeclare exp_output y\ndeclare weight a\ndeclare weight k\n"
        "declare output o\ndeclare loss l\ndefine o = add (mul a x) (mul k (mul k x))\n"
        "define l = pow (sub o y) 2\n"))
    start = {"a": np.array(0.5), "k": np.array(0.0)}
    data = {"x": np.arange(4.0), "y": np.arange(4.0) * 2}
    with pytest.raises(Diverged, match="diverged at iteration 1: a weight became infinite") as e:
        train(gcp, data, TrainConfig(optimizer="adam", lr=0.1, eps=0.0, max_iters=3, tol=0),
              init=start)
    assert {k: float(v) for k, v in e.value.state.weights.items()} == {"a": 0.5, "k": 0.0}


def test_cpythons_tuple_items_are_read_where_native_reads_them():
    import sys
    assert cpython.tuple_read() == (sys.implementation.name == "cpython")
