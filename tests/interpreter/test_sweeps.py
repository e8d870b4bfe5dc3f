"""Sweeps (interp/planning/sweeps.py, rendered by interp/backends/c/sweeps_c.py): a dense product,
its elementwise chain and its transposed product in one pass over the data.
The pattern as data; results equal to the unfused plan (numpy and BLAS) to
round-off on the logistic regression of the benchmark, the linear regression
sample and randomly drawn chains, shapes and dtypes; sums that do not depend on
the thread count; plans of other shapes untouched; no C compiler, no sweep."""
from __future__ import annotations

import os

import numpy as np
import pytest

import tenflang
from tenflang.native import clib, cpython, loop_pool
from tenflang.backprop import compile_gradient
from tenflang.interp.backends import cpu_loops as loop_wrapper
from tenflang.interp import make_plan, run_plan
from tenflang.interp.backends.c import sweeps_c
from tenflang.interp.backends.render import BLOCK
from tenflang.interp.runtime.codegen import compiled, generate
from tenflang.interp.runtime.run import FUSE_FROM
from tenflang.interp.planning.sweeps import MAX_WIDTH, Sweep
from tenflang.training.gradients import gradient_plan
from tenflang.training.signature import signature

from support.paths import SAMPLES, SAMPLES_DIR

pytestmark = pytest.mark.skipif(clib.unavailable_reason() is not None,
                                reason="sweeps are compiled C: no C compiler here")

LOGREG = """\
declare weight w [{d}]
declare weight b
declare input x [{d}]
declare exp_output y
declare output z
declare loss xent
define z = add (dot {first} {second}) b
define xent = sub (softplus z) (mul y z)
"""


def plan_of(source: str):
    gcp = compile_gradient(tenflang.parse(source))
    return gradient_plan(gcp, signature(gcp))


def sweeps_in(plan, reduce="mean") -> list:
    return [k for k in generate(plan, reduce, True, True)[2] if isinstance(k, Sweep)]


def swept_and_plain(plan, data: dict, env_switch, reduce="mean", dtype="float64"):
    """(results with sweeps, results of the step-by-step plan: numpy and BLAS)."""
    swept = run_plan(plan, data, reduce=reduce, dtype=dtype)
    env_switch("TENFLANG_FUSE", "0")
    plain = run_plan(plan, data, reduce=reduce, dtype=dtype)
    env_switch("TENFLANG_FUSE", None)
    return swept, plain


def assert_close(a: dict, b: dict, rtol: float):
    assert a.keys() == b.keys()
    for name in b:
        x, y = np.asarray(a[name]), np.asarray(b[name])
        assert x.shape == y.shape and x.dtype == y.dtype, name
        scale = max(np.abs(y).max(), 1e-30)       # sums: relative to the largest entry
        assert np.abs(x - y).max() <= rtol * scale, name


def logreg_data(n: int, d: int, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    return {"x": rng.standard_normal((n, d)), "y": rng.random(n).round(),
            "w": rng.standard_normal(d) * 0.3, "b": np.float64(0.2)}


def test_the_logistic_regression_step_is_one_sweep_over_x():
    plan = plan_of(LOGREG.format(d=100, first="w", second="x"))
    [sweep] = sweeps_in(plan)
    assert (sweep.weights, sweep.matrix, sweep.width, sweep.target) == ("w", "x", 100, "d/dw")
    assert sweep.dense.target == "z.1" and sweep.residual == "d/dz"
    assert {o.name for o in sweep.outputs} == {"xent", "d/db"}
    source = generate(plan, "mean", True, True)[0]
    assert "F.sweep_1(dtype, w, x, b, y)" in source and "F.dot" not in source
    assert "matmul" not in source          # X^T r is made in the sweep, not by BLAS


@pytest.mark.parametrize("order", [("w", "x"), ("x", "w")])
def test_logistic_regression_swept_equals_the_plain_plan(env_switch, order):
    plan = plan_of(LOGREG.format(d=100, first=order[0], second=order[1]))
    assert sweeps_in(plan)
    data = logreg_data(3 * BLOCK + 17, 100)
    swept, plain = swept_and_plain(plan, data, env_switch)
    assert_close(swept, plain, 1e-13)
    # and both are the gradient numpy computes by hand
    x, y, w, b = data["x"], data["y"], data["w"], data["b"]
    z = x @ w + b
    r = 0.5 * (1 + np.tanh(0.5 * z)) - y
    np.testing.assert_allclose(swept["d/dw"], r @ x / len(x), rtol=1e-12)
    np.testing.assert_allclose(swept["d/db"], r.mean(), rtol=1e-12)
    np.testing.assert_allclose(swept["xent"], (np.logaddexp(0, z) - y * z).mean(), rtol=1e-13)


def test_addresses_asked_of_numpy_give_the_same_bits(monkeypatch):
    """Where the array struct is not read (cpython.struct_read), the sweep gets
    numpy's `a.ctypes.data`: the same arrays, the same results."""
    plan = plan_of(LOGREG.format(d=20, first="w", second="x"))
    data = logreg_data(FUSE_FROM + 3, 20)
    read = run_plan(plan, data, reduce="mean")
    monkeypatch.setattr(cpython, "struct_read", lambda: False)
    asked = run_plan(plan, data, reduce="mean")
    assert all(np.array_equal(read[k], asked[k]) for k in read)


def test_the_linear_regression_sample_is_swept_and_equal(env_switch):
    plan = plan_of((SAMPLES_DIR / "linear_regression.tf").read_text())
    assert len(sweeps_in(plan)) == 1 and len(sweeps_in(plan, "sum")) == 1
    rng = np.random.default_rng(1)
    n = 2 * FUSE_FROM + 5
    data = {"x": rng.standard_normal((n, 3)), "y": rng.standard_normal(n),
            "w": rng.standard_normal(3), "b": np.float64(-0.4)}
    assert_close(*swept_and_plain(plan, data, env_switch, reduce="sum"), 1e-13)


# A chain drawn at random: unary ops on the dense result, the label and the bias
# mixed in, a loss at the end.  Each op is safe on every real (no log of a
# negative), so the comparison is of finite numbers.
UNARY = ["tanh", "logistic", "softplus", "sin", "cos", "abs", "relu", "erf", "gelu", "neg"]
BINARY = [("add", "y"), ("sub", "y"), ("mul", "y"), ("add", "b"), ("mul", "b"), ("max", "y")]


def random_program(rng, d: int) -> str:
    lines = [f"declare input x [{d}]", "declare exp_output y", f"declare weight w [{d}]",
             "declare weight b", "declare intvar v0", "define v0 = dot w x"]
    for k in range(1, int(rng.integers(2, 7))):
        if rng.random() < 0.5:
            op, other = BINARY[rng.integers(len(BINARY))]
            expr = f"{op} v{k - 1} {other}"
        else:
            expr = f"{UNARY[rng.integers(len(UNARY))]} v{k - 1}"
        lines += [f"declare intvar v{k}", f"define v{k} = {expr}"]
    last = f"v{k}"
    lines += ["declare intvar err", f"define err = sub {last} y",
              "declare loss fit", "define fit = mul err err"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_random_chains_swept_equal_the_plain_plan(env_switch, seed, dtype):
    rng = np.random.default_rng(seed)
    d = int(rng.choice([1, 7, 8, 13, 64]))
    n = int(rng.choice([FUSE_FROM, 2 * BLOCK + 3, 5 * BLOCK]))
    plan = plan_of(random_program(rng, d))
    assert len(sweeps_in(plan)) == 1, random_program(np.random.default_rng(seed), d)
    data = logreg_data(n, d, seed)
    data["y"] = rng.standard_normal(n)
    swept, plain = swept_and_plain(plan, data, env_switch, dtype=dtype)
    assert_close(swept, plain, 1e-12 if dtype == "float64" else 3e-5)


@pytest.mark.parametrize("threads", ["2", "3"])
def test_sweep_sums_do_not_depend_on_the_thread_count(loop_threads, threads):
    plan = plan_of(LOGREG.format(d=9, first="w", second="x"))
    n = 4 * loop_wrapper.MIN_BLOCKS_PER_THREAD * BLOCK + 7
    data = logreg_data(n, 9, 4)
    loop_threads("1")
    one = run_plan(plan, data, reduce="mean")
    loop_threads(threads)
    rows = sweeps_c.block_rows(n)
    assert len(sweeps_c.spans(n, rows, loop_pool.threads())) == int(threads)
    many = run_plan(plan, data, reduce="mean")
    assert all(np.array_equal(one[k], many[k]) for k in one)


def test_partial_sums_stay_few_for_a_large_batch():
    assert sweeps_c.block_rows(1000) == BLOCK
    n = 10_000_000
    assert -(-n // sweeps_c.block_rows(n)) <= sweeps_c.MAX_BLOCKS


def test_plans_of_other_shapes_are_untouched():
    for path in SAMPLES:
        plan = plan_of(path.read_text())
        for reduce in ("mean", "sum", None):
            if path.name == "linear_regression.tf" and reduce:
                continue
            assert generate(plan, reduce, True, True) == generate(plan, reduce, True), path.name


@pytest.mark.parametrize("extra", ["z.1", "d/dz"])
def test_a_reported_dense_result_or_residual_is_not_swept(extra):
    """Values the sweep keeps in registers must not be results."""
    source = LOGREG.format(d=5, first="w", second="x")
    gcp = compile_gradient(tenflang.parse(source))
    plan = plan_of(source)
    assert sweeps_in(plan)
    assert not sweeps_in(make_plan(gcp, set(plan.bound), results=plan.results + (extra,)))


def test_rows_too_long_for_the_cache_are_not_swept():
    assert sweeps_in(plan_of(LOGREG.format(d=MAX_WIDTH, first="w", second="x")))
    assert not sweeps_in(plan_of(LOGREG.format(d=MAX_WIDTH + 1, first="w", second="x")))


def test_a_dot_of_two_per_example_vectors_is_not_swept():
    source = LOGREG.format(d=5, first="x", second="x").replace("declare weight w [5]\n", "")
    assert not sweeps_in(plan_of(source))


def test_without_a_c_compiler_the_plan_runs_unswept(monkeypatch, env_switch):
    pytest.importorskip("numba")          # the groups' loops without C
    def no_compiler(source, *flags, **options):
        raise clib.Unavailable("no C compiler (a test's stand-in)")
    monkeypatch.setattr(clib, "library", no_compiler)
    compiled.cache_clear()
    try:
        plan = plan_of(LOGREG.format(d=6, first="w", second="x"))
        function, _, forwards, _ = compiled(plan, "mean", True)
        assert not hasattr(forwards, "sweep_1") and hasattr(forwards, "fused_1")   # numba
        data = logreg_data(FUSE_FROM, 6)
        assert_close(*swept_and_plain(plan, data, env_switch), 1e-13)
    finally:
        compiled.cache_clear()


def test_plan_fused_shows_the_sweep_and_its_c(run_cli, tmp_path):
    program = tmp_path / "logreg.tf"
    program.write_text(LOGREG.format(d=4, first="w", second="x"))
    gcp = tmp_path / "logreg.gcp.tf"
    gcp.write_text(tenflang.print_program(compile_gradient(tenflang.parse(program.read_text()))))
    code, out, err = run_cli(["tenflang", "plan", gcp, "--reduce", "mean", "--fused"])
    assert code == 0, err
    python, c = out.split("// the sweeps (tenflang.interp.backends.c.sweeps_c)\n")
    assert "F.sweep_1(dtype, w, x, b, y)    # one pass over x: z.1, z, xent.1" in python
    assert "for (long j = 0; j < D; j++) g[j] += v_d_dz * row[j];" in c
    assert clib.library(c).sweep_1      # the text shown is the text that compiles


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_training_with_sweeps_follows_gradient_descent_written_in_numpy(dtype):
    """tenflang.train (what tfweightcalc runs) on a swept program takes the steps
    of full-batch gradient descent on the mean cross-entropy."""
    gcp = compile_gradient(tenflang.parse(LOGREG.format(d=12, first="w", second="x")))
    assert sweeps_in(gradient_plan(gcp, signature(gcp)))
    data = logreg_data(2 * FUSE_FROM + 3, 12, 7)
    x, y, lr, steps = data["x"], data["y"], 0.5, 15
    result = tenflang.train(gcp, {"x": x, "y": y},
                            tenflang.TrainConfig(lr=lr, max_iters=steps, tol=0.0, dtype=dtype),
                            init={"w": np.zeros(12), "b": np.float64(0.0)})
    w, b = np.zeros(12), 0.0
    for _ in range(steps):
        r = 0.5 * (1 + np.tanh(0.5 * (x @ w + b))) - y
        w, b = w - lr * (r @ x) / len(x), b - lr * r.mean()
    rtol = 1e-11 if dtype == "float64" else 2e-4
    np.testing.assert_allclose(result.weights["w"], w, rtol=rtol, atol=rtol * np.abs(w).max())
    np.testing.assert_allclose(result.weights["b"], b, rtol=rtol, atol=rtol)


def test_the_gpu_plan_has_no_sweep(run_cli, tmp_path):
    """A GPU runs the fused kernels (a sweep is CPU C alone)."""
    gcp = tmp_path / "logreg.gcp.tf"
    gcp.write_text(tenflang.print_program(compile_gradient(tenflang.parse(
        LOGREG.format(d=4, first="w", second="x")))))
    code, out, err = run_cli(["tenflang", "plan", gcp, "--reduce", "mean", "--fused",
                              "--device", "gpu"])
    assert code == 0, err
    assert "sweep" not in out and "F.fused_1(" in out and "tenflang_fused_1" in out


@pytest.mark.skipif("avx2" not in (open("/proc/cpuinfo").read() if os.path.exists("/proc/cpuinfo")
                                   else ""), reason="no AVX2 on this CPU")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_the_avx2_variant_gives_the_plain_variants_bits(dtype):
    plan = plan_of(LOGREG.format(d=37, first="w", second="x"))
    [sweep] = sweeps_in(plan)
    [call] = sweeps_c.functions([sweep]).values()
    data = logreg_data(3 * BLOCK + 5, 37, 9)
    args = [data[n] for n in (sweep.weights, sweep.matrix)] + [data[i.name] for i in sweep.inputs]
    results = []
    for variant in sweeps_c.VARIANTS:
        one = sweeps_c.Pass(call.k, sweep, call.library, variant)
        results.append(one(dtype, *args))
    assert len(results[0]) == 3 and all(r.dtype == np.dtype(dtype) for r in results[0])
    for a, b in zip(*results):
        assert np.array_equal(a, b)
