"""The training step as one C function (interp/backends/c/native_step.py,
interp/runtime/native_run.py).

* Every sample whose ops all have a native form gets a native step, in both
  dtypes, and its results equal the generated Python's (the reference path,
  run here directly) to round-off, at batch 1 and 9, with buffers reused
  between runs.
* Every strided copy (permute, slice, index, unslice, concat,
  broadcast_like, sum_like) and a weight gradient summed in one product
  reading its input transposed equal the generated Python's.
* A kept loop's cells run as native steps.
* A sample with an op the native step lacks (a convolution, a kept loop,
  batch statistics, dropout) has none, says which step, and `run_plan`
  still runs it, on the generated Python.
* A class index outside the classes raises the op's own error.
* `run_plan` calls the native step only for a reduced run of fewer than
  `FUSE_FROM` examples with TENFLANG_NATIVE not 0; a step not compiled yet
  is compiled only where a training run gets the compile back, and a
  compiled one loads from the cache for any training run; a one-off run
  takes the generated Python.
* `tenflang plan --native` prints the step's C, or why there is none.
"""
from __future__ import annotations

import numpy as np
import pytest

from tenflang.base.errors import TenflangError
from tenflang.interp.runtime import native_run, run
from tenflang.interp.runtime.memory import Buffers
from tenflang.native import clib, switches

from support.paths import SAMPLES
from test_memory_plan import problem, run as generated_python

NATIVE = ["example_shape.tf", "linear_regression.tf", "logistic_breast_cancer.tf",
          "mlp_digits.tf", "softmax_digits.tf", "rnn_digits.tf", "lstm_digits.tf",
          "attention_digits.tf"]
NOT_NATIVE = {"lenet_digits.tf": "conv2d", "charlm.tf": "kept loop",
              "resnet_digits.tf": "batch_mean", "vgg_digits.tf": "dropout_mask"}
TOLERANCE = {"float64": (1e-11, 1e-13), "float32": (2e-4, 2e-6)}

pytestmark = pytest.mark.skipif(
    clib.unavailable_reason() is not None or native_run.gemm_address("float64") is None,
    reason=f"no native step here: {clib.unavailable_reason() or 'numpy has no bundled OpenBLAS'}")


@pytest.fixture(autouse=True)
def compiles(monkeypatch):
    """Every native step compiled, whatever the run expects (`worth_compiling`)."""
    monkeypatch.setattr(native_run, "COMPILE_SECONDS", 0.0)
    monkeypatch.setattr(native_run, "_EXPECTED", [1])


def native(plan, data, dtype, buffers):
    env, batch = run.prepare(plan, data, np, dtype)
    return native_run.native_step(plan, "mean", dtype)(env, batch, buffers)


def test_every_sample_named_native_is_one_in_the_samples():
    assert set(NATIVE) | set(NOT_NATIVE) <= {p.name for p in SAMPLES}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", NATIVE)
def test_a_native_step_equals_the_generated_python(name, dtype):
    rtol, atol = TOLERANCE[dtype]
    buffers = Buffers()
    for batch, seed in ((9, 1), (9, 2), (1, 3)):       # buffers reused, then another shape
        plan, data = problem(name, batch, seed)
        assert native_run.why_not(plan, "mean", dtype) is None
        got = native(plan, data, dtype, buffers)
        want = generated_python(plan, data, False, dtype=dtype)
        assert got.keys() == want.keys()
        for key, value in want.items():
            assert got[key].dtype == np.dtype(dtype) and got[key].shape == value.shape, key
            np.testing.assert_allclose(got[key], value, rtol=rtol, atol=atol, err_msg=key)


@pytest.mark.parametrize("name", sorted(NOT_NATIVE))
def test_a_step_without_a_native_form_says_why_and_runs_as_python(name):
    plan, data = problem(name, 3)
    assert NOT_NATIVE[name] in native_run.why_not(plan, "mean", "float64")
    assert native_run.native_step(plan, "mean", "float64") is None
    if name in ("lenet_digits.tf", "resnet_digits.tf"):   # data `problem` can make for them
        got = run.run_plan(plan, data, reduce="mean", buffers=Buffers())
        want = generated_python(plan, data, False)
        for key, value in want.items():
            np.testing.assert_allclose(got[key], value, rtol=1e-9, atol=1e-12, err_msg=key)


def test_a_class_index_outside_the_classes_raises_the_ops_error():
    plan, data = problem("rnn_digits.tf", 4)
    label = next(n for n in plan.batched if plan.shapes[n] == ())
    data[label] = data[label].copy()
    data[label][2] = 10.5
    with pytest.raises(TenflangError) as native_error:
        run.run_plan(plan, data, reduce="mean")
    with pytest.raises(TenflangError) as python_error:
        generated_python(plan, data, False)
    assert str(native_error.value) == str(python_error.value)
    assert "one_hot" in str(native_error.value) and "10.5" in str(native_error.value)


@pytest.fixture
def calls(monkeypatch):
    """The runs `run_plan` handed to the native step."""
    seen = []
    real = run.run_native

    def counted(plan, env, batch, *args):
        seen.append(batch)
        return real(plan, env, batch, *args)
    monkeypatch.setattr(run, "run_native", counted)
    return seen


def test_run_plan_uses_the_native_step_for_a_small_reduced_batch(calls, monkeypatch):
    plan, data = problem("mlp_digits.tf", 8)
    run.run_plan(plan, data, reduce="mean")
    run.run_plan(plan, data)                     # no reduction: per-example values
    assert calls == [8]
    big_plan, big = problem("mlp_digits.tf", run.FUSE_FROM)
    run.run_plan(big_plan, big, reduce="mean")   # the loops' threads share a large batch
    assert calls == [8]
    monkeypatch.setenv("TENFLANG_NATIVE", "0")
    switches.native_kernels_on.cache_clear()
    try:
        run.run_plan(plan, data, reduce="mean")
    finally:
        switches.native_kernels_on.cache_clear()
    assert calls == [8]


def test_plan_native_prints_the_steps_c(run_cli):
    path = str(SAMPLES[0].parent / "mlp_digits.tf")
    code, out, err = run_cli(["tenflang", "plan", "--native", path, "--dtype", "float32"])
    assert code == 0, err
    assert "long tenflang_step(long B, const void *data, const void *buf, const void *out)" in out
    assert "// h.t = matmul W1 x" in out and "float *const v_d_dW1" in out


@pytest.mark.parametrize("args, message", [
    (["lenet_digits.tf"], "'a1.2' = conv2d: the op has no native form yet"),
    (["mlp_digits.tf", "--fused"], "--native shows the training step's C as it is"),
])
def test_plan_native_says_why_it_prints_nothing(run_cli, args, message):
    path = str(SAMPLES[0].parent / args[0])
    code, out, err = run_cli(["tenflang", "plan", "--native", path, *args[1:]])
    assert code == 2 and out == "" and message in err


SHARED_INPUT = """declare input x [4, 3]
declare exp_output y [4, 2]
declare weight W1 [3, 2]
declare weight W2 [3, 2]
declare weight b [2]
declare output s [4, 2]
declare loss l
define s = add (add (matmul x W1) (matmul (mul x x) W2)) b
define l = sum (mul (sub s y) (sub s y))
"""


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_weight_gradients_summed_in_one_product_equal_the_generated_python(dtype):
    """d/dW1 = Σ xᵀ d/ds over the examples, one GEMM reading x transposed: x's
    transpose read by that product alone, x·x's by two (its own and W2's)."""
    import tenflang
    from tenflang.training.gradients import gradient_plan
    from tenflang.training.signature import signature
    gcp = tenflang.compile_gradient(tenflang.parse(SHARED_INPUT))
    plan = gradient_plan(gcp, signature(gcp))
    rng = np.random.default_rng(0)
    data = {"x": rng.random((7, 4, 3)), "y": rng.random((7, 4, 2)),
            "W1": rng.random((3, 2)), "W2": rng.random((3, 2)), "b": rng.random(2)}
    got = native(plan, data, dtype, Buffers())
    want = generated_python(plan, data, False, dtype=dtype)
    for key, value in want.items():
        np.testing.assert_allclose(got[key], value, rtol=TOLERANCE[dtype][0], err_msg=key)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_a_kept_loops_cells_run_as_native_steps_and_equal_their_python(dtype, monkeypatch):
    """The character LM's GRU, kept as a loop: its cell and the cell's adjoint
    each one C call per step of the loop; the training step's results equal
    those with every cell run as generated Python."""
    from support.kept_loop_programs import loop_data
    from support.programs import sample_gcp
    from tenflang.interp.runtime import cells
    from tenflang.training.gradients import gradient_plan
    from tenflang.training.signature import signature
    gcp = sample_gcp("charlm.tf")
    plan = gradient_plan(gcp, signature(gcp))
    data, weights = loop_data(gcp, np.random.default_rng(0), 5, 0.3)
    native_cells = []
    real = cells.Cell.native

    def counted(self, xp, dtype_, batch, steps):
        step = real(self, xp, dtype_, batch, steps)
        native_cells.append(step is not None)
        return step
    monkeypatch.setattr(cells.Cell, "native", counted)
    got = run.run_plan(plan, {**data, **weights}, dtype=dtype, reduce="mean")
    assert native_cells and all(native_cells)
    monkeypatch.setattr(cells.Cell, "native", lambda *args: None)
    want = run.run_plan(plan, {**data, **weights}, dtype=dtype, reduce="mean")
    for key, value in want.items():
        np.testing.assert_allclose(got[key], value, rtol=TOLERANCE[dtype][0] * 10,
                                   atol=TOLERANCE[dtype][1], err_msg=key)


def test_a_step_is_compiled_only_where_the_run_gets_it_back(monkeypatch, tmp_path):
    monkeypatch.setenv("TENFLANG_CACHE_DIR", str(tmp_path))     # nothing compiled yet
    clib.library.cache_clear()                                  # nor loaded in this process
    monkeypatch.setattr(native_run, "COMPILE_SECONDS", 0.5)
    for name, empty in (("_EXPECTED", [0]), ("_BUILT", {}), ("_DECLINED", {}), ("_PENDING", {})):
        monkeypatch.setattr(native_run, name, empty)
    plan, _ = problem("mlp_digits.tf", 4)
    key = (plan, "mean", "float64")
    assert native_run.native_step(*key) is None                 # a one-off run
    with native_run.expecting(100):                             # a short run: not looked for
        assert native_run.native_step(*key) is None and not native_run.pending(key)
    with native_run.expecting(1000):                            # a tenth of a compile saved
        assert native_run.native_step(*key) is None and native_run.pending(key)
        native_run._PENDING[key].result(60)                     # compiled in the background
        assert native_run.native_step(*key) is not None         # the run switches to it
    monkeypatch.setattr(native_run, "_BUILT", {})               # another process
    clib.library.cache_clear()
    with native_run.expecting(1000):
        assert native_run.native_step(*key) is not None         # from the cache


def test_a_compile_worth_a_tenth_of_itself_runs_in_the_background(monkeypatch):
    import threading
    monkeypatch.setattr(native_run, "_PENDING", {})
    monkeypatch.setattr(native_run, "COMPILE_SECONDS", 0.5)
    release = threading.Event()

    def build():
        release.wait(10)
        return "library"
    never = lambda: False      # noqa: E731 (nothing in the cache)
    assert native_run.when_worth("a", lambda: "now", 0.6, never) == "now"   # worth it: now
    assert native_run.when_worth("a", build, 0.01, never) is None      # worth nothing: not asked
    assert not native_run.pending("a")
    assert native_run.when_worth("b", build, 0.2, never) is None      # started: the run goes on
    assert native_run.pending("b")
    assert native_run.when_worth("c", build, 0.2, never) is None      # one compile at a time
    assert not native_run.pending("c")
    release.set()
    native_run._PENDING["b"].result(10)
    assert not native_run.pending("b")
    assert native_run.when_worth("b", build, 0.2, never) == "library"   # the run switches
    assert native_run.when_worth("d", lambda: "cached", 0.0, lambda: True) == "cached"


COPIES = {    # programs whose training steps use every strided copy, forward and back
    "permute": "define p = permute (mul x W) [2, 0, 1]\ndefine l = sum (mul p p)",
    "slice and index": "define p = add (slice (mul x W) 1 3) (index (mul x W) 0)\n"
                       "define l = sum (mul p p)",
    "concat": "define p = concat (mul x W) (mul x x) 1\ndefine l = sum (mul p p)",
    "broadcast and sum_like": "define p = add (mul x W) b\n"
                              "define l = sum (mul (sub p (reshape (mean p -1) [3, 2, 1])) p)",
}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(COPIES))
def test_every_strided_copy_equals_the_generated_python(name, dtype):
    """x [3, 2, 4] per example, W [3, 2, 4], b [4]: each program's gradients
    through its copies (and their adjoints: unslice, sum_like, broadcast_like)."""
    import tenflang
    from tenflang.training.gradients import gradient_plan
    from tenflang.training.signature import signature
    head = ("declare input x [3, 2, 4]\ndeclare weight W [3, 2, 4]\ndeclare weight b [4]\n"
            "declare intvar p\ndeclare loss l\n")
    program = tenflang.parse(head + COPIES[name] + "\n")
    gcp = tenflang.compile_gradient(program)
    plan = gradient_plan(gcp, signature(gcp))
    ops = {s.op.name for s in plan.steps}
    assert native_run.why_not(plan, "mean", dtype) is None, ops
    rng = np.random.default_rng(1)
    data = {"x": rng.random((5, 3, 2, 4)), "W": rng.random((3, 2, 4)), "b": rng.random(4)}
    got = native(plan, data, dtype, Buffers())
    want = generated_python(plan, data, False, dtype=dtype)
    for key, value in want.items():
        np.testing.assert_allclose(got[key], value, rtol=TOLERANCE[dtype][0],
                                   atol=TOLERANCE[dtype][1], err_msg=key)
