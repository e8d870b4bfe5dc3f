"""The static memory plan (interp/runtime/memory.py): buffers by liveness, reused between runs.

* `Slots` gives a value a free slot of its shape, keeps a slot busy while a
  view or an in-place result may still read it, and never hands a slot freed
  by a step to that same step.
* Every sample's training step run with the memory plan (buffers kept
  between runs, fused or not) equals the same plan run without one, and
  no result shares memory with a buffer.
* The steady state: a run with kept buffers allocates less, by the buffers.
* `tfcompiler --stats` reports a training step's memory: the measured peak
  (tracemalloc, which numpy reports its arrays to) is within a quarter of it,
  on dense, convolutional and recurrent samples.
"""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from tenflang.native import clib
from tenflang.cli.compile_command import training_step_bytes
from tenflang.interp import run_plan
from tenflang.interp.runtime.codegen import compiled, memory_plan
from tenflang.interp.runtime.memory import Buffers, Slots
from tenflang.interp.runtime.run import collect, prepare
from tenflang.ops.modes import Mode
from tenflang.training.gradients import gradient_plan
from tenflang.training.signature import initial_weights, signature

from support.paths import SAMPLES
from support.programs import sample_gcp

NETWORKS = [p.name for p in SAMPLES if p.name not in ("charlm.tf", "charlm_scan.tf")]


def test_a_slot_is_reused_only_when_every_value_in_it_is_released():
    slots = Slots()
    a = slots.take("a", (3,), True)
    assert slots.take("b", (3,), True) != a           # both live
    slots.alias("v", ["a"])                           # a view of a
    slots.release(["a"])
    assert slots.take("c", (3,), True) not in (a,)    # the view still reads a's slot
    slots.release(["v"])
    assert slots.take("d", (3,), True) == a           # now free
    assert slots.take("e", (4,), True) == 3           # another shape: a slot of its own
    assert slots.take("f", (3,), False) == 4          # one row, not one per example
    assert slots.layout == [((3,), True)] * 3 + [((4,), True), ((3,), False)]


def test_the_peak_counts_the_steps_arrays_and_their_temporaries():
    slots = Slots()
    slots.make("s", (10,), True, scratch=(20, 0))     # 10 + 20 while made
    slots.make("t", (), True)
    slots.release(["s"])
    slots.take("u", (5,), True)
    slots.make("g", (4, 4), False)
    assert slots.elements() == (30 + 5, 16)


def problem(name: str, batch: int, seed: int = 0):
    """A sample's training plan and a batch of data for it (class indices where
    a value is a per-example scalar, so one_hot takes it)."""
    gcp = sample_gcp(name)
    sig = signature(gcp)
    plan = gradient_plan(gcp, sig)
    rng = np.random.default_rng(seed)
    data = {n: rng.integers(0, 2, batch).astype(float) if plan.shapes[n] == ()
            else rng.standard_normal((batch,) + tuple(plan.shapes[n])) for n in plan.batched}
    weights = initial_weights(sig, seed)
    return plan, data | {k: np.asarray(v, dtype=float) for k, v in weights.items()}


def run(plan, data, fused: bool, buffers=None, dtype="float64"):
    """The plan with a memory plan (`buffers`: a Buffers) or without (None)."""
    mode = Mode(seed=3, iteration=1, rows=None)
    env, batch = prepare(plan, data, np, dtype, mode)
    function, summed, forwards, layout = compiled(plan, "mean", fused, pooled=buffers is not None)
    args = (env, np, forwards, np.dtype(dtype))
    if buffers is not None:
        args += (buffers.arrays(layout, batch, np.dtype(dtype), np),)
    return collect(plan, function(*args), summed, batch, "mean", np)


@pytest.mark.parametrize("name", NETWORKS)
def test_a_step_with_buffers_equals_one_without(name):
    fused = [False] + ([True] if clib.unavailable_reason() is None else [])
    for f in fused:
        plan, first = problem(name, 9, seed=1)
        _, second = problem(name, 9, seed=2)
        buffers = Buffers()
        run(plan, first, f, buffers)                  # leaves its values in the buffers
        arrays = [id(a) for a in buffers.kept[next(iter(buffers.kept))]]
        kept = run(plan, second, f, buffers)
        fresh = run(plan, second, f)
        assert [id(a) for a in buffers.kept[next(iter(buffers.kept))]] == arrays
        for key, value in fresh.items():
            np.testing.assert_allclose(kept[key], value, rtol=1e-13, atol=1e-300, err_msg=key)
            assert not any(np.shares_memory(kept[key], a)
                           for arrays in buffers.kept.values() for a in arrays), key


def test_buffers_are_made_once_per_batch_shape():
    plan, data = problem("mlp_digits.tf", 16)
    buffers = Buffers()
    run_plan(plan, data, reduce="mean", buffers=buffers)
    run_plan(plan, data, reduce="mean", buffers=buffers)
    assert len(buffers.kept) == 1 and buffers.nbytes() > 0
    _, shorter = problem("mlp_digits.tf", 5)
    run_plan(plan, shorter, reduce="mean", buffers=buffers)
    assert len(buffers.kept) == 2          # an epoch's shorter last batch has its own


def peak_of(call) -> int:
    """The most bytes `call` allocated at once (numpy reports to tracemalloc)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        call()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("name", ["mlp_digits.tf", "softmax_digits.tf", "example_shape.tf"])
def test_kept_buffers_are_not_allocated_again(name, env_switch):
    env_switch("TENFLANG_FUSE", "0")
    plan, data = problem(name, 500)
    buffers = Buffers()
    run_plan(plan, data, reduce="mean", buffers=buffers)
    fresh = peak_of(lambda: run_plan(plan, data, reduce="mean"))
    steady = peak_of(lambda: run_plan(plan, data, reduce="mean", buffers=buffers))
    assert buffers.nbytes() > 0
    assert steady <= fresh - 0.9 * buffers.nbytes()


@pytest.mark.parametrize("name", ["mlp_digits.tf", "softmax_digits.tf", "example_shape.tf",
                                  "lenet_digits.tf", "vgg_digits.tf", "lstm_digits.tf"])
def test_stats_report_the_memory_a_training_step_uses(name, env_switch):
    env_switch("TENFLANG_FUSE", "0")
    # the report models the native image kernels; the numpy path's convolutions
    # (TENFLANG_NATIVE=0) hold less (vgg_digits: half the report)
    env_switch("TENFLANG_NATIVE", None)
    batch = 256
    plan, data = problem(name, batch)
    per_example, fixed = training_step_bytes(sample_gcp(name))
    assert per_example == memory_plan(plan).elements()[0] * 8
    run_plan(plan, data, reduce="mean")                 # compiled before measuring
    measured = peak_of(lambda: run_plan(plan, data, reduce="mean"))
    reported = per_example * batch + fixed
    assert 0.75 * reported <= measured <= 1.25 * reported, (measured, reported)


def test_tfcompiler_stats_shows_the_training_step(run_cli, tmp_path):
    code, _, err = run_cli(["tfcompiler", str(SAMPLES[0].parent / "mlp_digits.tf"), "--stats",
                            "-o", str(tmp_path / "gcp.tf")])
    assert code == 0, err
    row = next(line for line in err.splitlines() if line.startswith("training step per example"))
    per_example, _ = training_step_bytes(sample_gcp("mlp_digits.tf"))
    assert row.split()[-1] == f"{per_example:,}"


def test_plan_with_a_reduction_shows_the_buffers(run_cli):
    program = str(SAMPLES[0].parent / "example_shape.tf")
    code, out, err = run_cli(["tenflang", "plan", program, "--reduce", "mean"])
    assert code == 0, err
    assert out.startswith("def run(env, xp, F, dtype, buf):")
    # z = mul x w, then (z released) diff = sub o y: one buffer for both
    assert "z = xp.multiply(x, w, out=buf[0])" in out
    assert "diff = xp.subtract(o, y, out=buf[0])" in out
    code, out, err = run_cli(["tenflang", "plan", program])    # no reduction: no buffers
    assert code == 0, err
    assert out.startswith("def run(env, xp, F, dtype):") and "buf" not in out
