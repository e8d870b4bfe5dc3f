"""Fused elementwise loops (interp/planning/fusion.py; rendered by interp/backends/c/c_loops.py, or
interp/backends/numba/numba_loops.py without a C compiler, through interp/backends/render.py's contract): the groups as data, results of
both engines equal to the step-by-step plan (numpy) to round-off on every
elementwise op with NaN, infinities, signed zeros and far tails, the batch sums
that end a group, sums that do not depend on the thread count, and machine
code reused from the disk cache."""
from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import tenflang
from tenflang.ops import table as ops
from tenflang.backprop import compile_gradient
from tenflang.interp import make_plan, run_plan
from tenflang.native import clib, cpython, loop_pool
from tenflang.interp.backends.c import c_loops
from tenflang.interp.backends import cpu_loops as loop_wrapper
from tenflang.interp.backends.render import BLOCK, group_specs
from tenflang.interp.runtime.codegen import (batched_names, build, compiled, fused_reductions,
                                             generate)
from tenflang.interp.planning.fusion import Group, Input, Output, fuse
from tenflang.interp.runtime.run import FUSE_FROM
from tenflang.training.gradients import gradient_plan
from tenflang.training.signature import signature

from support.paths import SAMPLES_DIR
from support.programs import sample_gcp


ELEMENTWISE = [op for op in ops.TABLE.values() if op.scalar is not None]
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e4, -1e4, 40.0, -40.0, 1e-300, 7e300, -7e300,
           math.inf, -math.inf, math.nan]


def no_compiler(groups, dtype="float64"):
    raise clib.Unavailable("no C compiler (a test's stand-in)")


@pytest.fixture(params=["c", "numba"])
def engine(request, monkeypatch):
    """Runs a test with the C loops, then with the numba loops a machine
    without a C compiler uses."""
    if request.param == "c" and clib.unavailable_reason():
        pytest.skip(clib.unavailable_reason())
    if request.param == "numba":
        pytest.importorskip("numba")
        monkeypatch.setattr(c_loops, "compiled", no_compiler)
    compiled.cache_clear()
    yield request.param
    compiled.cache_clear()


def every_op_program() -> str:
    """Every elementwise op on a per-example vector `a`, with a per-example vector
    `b` (binary ops), a shared weight `c` (ternary ops), a per-example scalar `e` and a scalar
    weight `k`, in one chain that ends in the output `r`."""
    lines = ["declare input a [4]", "declare input b [4]", "declare weight c [4]",
             "declare input e", "declare weight k", "declare output r [4]"]
    for op in ELEMENTWISE:
        lines.append(f"declare output {op.name}_v [4]")
        operands = " ".join("abc"[:op.arity])
        lines.append(f"define {op.name}_v = {op.name} {operands}")
    lines += ["declare intvar mix [4]", "define mix = mul a c", "declare intvar mix2 [4]",
              "define mix2 = add mix e", "define r = sub mix2 k"]
    return "\n".join(lines) + "\n"


def special_data(batch: int) -> dict:
    rng = np.random.default_rng(3)
    pick = lambda shape: rng.choice(SPECIAL + list(rng.standard_normal(16) * 3), shape)  # noqa: E731
    return {"a": pick((batch, 4)), "b": pick((batch, 4)), "c": pick(4), "e": pick(batch),
            "k": np.float64(2.5)}


def both(plan, data, env_switch, reduce=None):
    """(fused results, step-by-step results)."""
    with np.errstate(all="ignore"):
        fused = run_plan(plan, data, reduce=reduce)
        env_switch("TENFLANG_FUSE", "0")
        plain = run_plan(plan, data, reduce=reduce)
        env_switch("TENFLANG_FUSE", None)
    return fused, plain


def assert_close(fused: dict, plain: dict, rtol=1e-13):
    assert fused.keys() == plain.keys()
    for name in plain:
        a, b = np.asarray(fused[name]), np.asarray(plain[name])
        assert a.shape == b.shape, name
        assert np.array_equal(np.isnan(a), np.isnan(b)), name
        assert np.array_equal(a[np.isinf(b)], b[np.isinf(b)]), name
        finite = np.isfinite(b)
        np.testing.assert_allclose(a[finite], b[finite], rtol=rtol, atol=1e-300, err_msg=name)


def test_every_elementwise_op_fused_equals_numpy_on_special_values(env_switch, engine):
    program = tenflang.parse(every_op_program())
    data = special_data(FUSE_FROM)
    plan = make_plan(program, set(data))
    groups = generate(plan, None, True)[2]
    assert len(groups) >= 1 and {s.op.name for g in groups for s in g.steps} >= {
        op.name for op in ELEMENTWISE if op.name != "copy"}
    assert_close(*both(plan, data, env_switch))


def original_example_gradient_plan():
    gcp = sample_gcp("example_shape.tf")
    return gradient_plan(gcp, signature(gcp))


def test_the_original_examples_gradient_is_one_group_ending_in_batch_sums():
    plan = original_example_gradient_plan()
    batched = batched_names(plan)
    items = fuse(plan, "mean", batched, frozenset())
    assert len(items) == 1 and isinstance(items[0], Group)
    group = items[0]
    assert group.shape == () and group.size == 1
    assert group.inputs == (Input("x", "example"), Input("w", "constant"), Input("y", "example"))
    assert set(group.outputs) == {Output("lambda", "sum"), Output("d/dw", "sum")}
    assert [s.target for s in group.steps][:4] == ["z", "o", "diff", "lambda"]


def test_groups_leave_products_summed_in_blas_and_single_ufuncs_alone():
    source = (SAMPLES_DIR / "logistic_breast_cancer.tf").read_text()
    gcp = compile_gradient(tenflang.parse(source))
    plan = gradient_plan(gcp, signature(gcp))
    batched = batched_names(plan)
    blas = {t for t in fused_reductions(plan, batched) if plan.shapes[t] != ()}
    items = fuse(plan, "mean", batched, blas)
    groups = [g for g in items if isinstance(g, Group)]
    assert groups and all(len(g.steps) > 1 or any(o.reduce for o in g.outputs) for g in groups)
    assert not blas & {s.target for g in groups for s in g.steps}
    for g in groups:         # every input has a role; shapes agree with the plan
        assert all(plan.shapes[s.target] == g.shape for s in g.steps)
        assert {i.role for i in g.inputs} <= {"full", "example", "shared", "constant"}


@pytest.mark.parametrize("reduce", ["mean", "sum"])
def test_fused_gradient_equals_numpy_with_batch_sums(env_switch, reduce, engine):
    plan = original_example_gradient_plan()
    rng = np.random.default_rng(0)
    n = 3 * FUSE_FROM + 17                     # several blocks of partial sums, one short
    data = {"x": rng.standard_normal(n) * 30, "y": rng.random(n).round(), "w": np.float64(0.7)}
    fused, plain = both(plan, data, env_switch, reduce)
    assert_close(fused, plain, rtol=1e-12)


def test_fused_training_takes_the_same_steps(env_switch, engine):
    gcp = sample_gcp("example_shape.tf")
    rng = np.random.default_rng(1)
    x = rng.standard_normal(FUSE_FROM * 2)
    data = {"x": x, "y": (x > 0.2).astype(float)}
    cfg = tenflang.TrainConfig(lr=1.0, max_iters=30, tol=0)
    fused = tenflang.train(gcp, data, cfg)
    env_switch("TENFLANG_FUSE", "0")
    plain = tenflang.train(gcp, data, cfg)
    np.testing.assert_allclose(fused.weights["w"], plain.weights["w"], rtol=1e-12)
    np.testing.assert_allclose(fused.history, plain.history, rtol=1e-12)


def test_values_named_like_c_words_and_functions_are_renamed(env_switch, engine):
    names = ["exp", "int", "double", "log", "S", "i", "j", "block", "fmin", "expf"]
    lines = ["declare input x", "declare output r"] + [f"declare intvar {n}" for n in names]
    previous = "x"
    for n in names:
        lines.append(f"define {n} = {'exp' if n == 'exp' else 'tanh'} {previous}")
        previous = n
    lines.append(f"define r = log {previous}")
    plan = make_plan(tenflang.parse("\n".join(lines) + "\n"), {"x"})
    data = {"x": np.linspace(-1, 1, FUSE_FROM + 3)}
    if engine == "c":
        c_loops.compiled(group_specs(generate(plan, None, True)[2]))      # compiles, else Unavailable
    assert_close(*both(plan, data, env_switch))


def test_float32_loops_equal_the_float32_plan(env_switch, engine):
    plan = original_example_gradient_plan()
    rng = np.random.default_rng(2)
    n = 2 * FUSE_FROM + 5
    data = {"x": rng.standard_normal(n) * 3, "y": rng.random(n).round(), "w": np.float64(0.7)}
    with np.errstate(all="ignore"):
        fused = run_plan(plan, data, dtype="float32", reduce="sum")
        env_switch("TENFLANG_FUSE", "0")
        plain = run_plan(plan, data, dtype="float32", reduce="sum")
    for name in plain:
        assert np.asarray(fused[name]).dtype == np.float32, name
        np.testing.assert_allclose(fused[name], plain[name], rtol=1e-4, err_msg=name)


@pytest.mark.skipif(clib.unavailable_reason() is not None, reason="no C compiler here")
def test_loops_given_the_arrays_equal_loops_given_pointers(monkeypatch):
    """`loop_k_arrays` reads numpy's data pointer itself (no ~3 µs `a.ctypes.data`
    per array); where that read does not hold (cpython.struct_read) the wrapper
    passes addresses."""
    plan = original_example_gradient_plan()
    rng = np.random.default_rng(6)
    n = 2 * c_loops.BLOCK + 7
    data = {"x": rng.standard_normal(n) * 3, "y": rng.random(n).round(), "w": np.float64(0.7)}
    groups = generate(plan, "sum", True)[2]
    assert c_loops.compiled(group_specs(groups)).direct
    compiled.cache_clear()
    direct = run_plan(plan, data, reduce="sum")
    monkeypatch.setattr(cpython, "struct_read", lambda: False)
    compiled.cache_clear()
    assert not c_loops.compiled(group_specs(groups)).direct
    pointers = run_plan(plan, data, reduce="sum")
    compiled.cache_clear()
    assert all(np.array_equal(direct[k], pointers[k]) for k in direct)


@pytest.mark.parametrize("threads", ["1", "2", "3"])
def test_c_loop_sums_do_not_depend_on_the_thread_count(loop_threads, threads):
    plan = original_example_gradient_plan()
    rng = np.random.default_rng(5)
    n = 40 * BLOCK + 3 * loop_wrapper.MIN_BLOCKS_PER_THREAD * BLOCK + 11
    data = {"x": rng.standard_normal(n) * 3, "y": rng.random(n).round(), "w": np.float64(0.7)}
    loop_threads("1")
    one = run_plan(plan, data, reduce="sum")
    loop_threads(threads)
    assert len(loop_wrapper.spans(n, loop_wrapper.threads())) == int(threads)
    many = run_plan(plan, data, reduce="sum")
    assert all(np.array_equal(one[k], many[k]) for k in one)


BIAS_RELU = """declare input x [6, 28, 28]
declare weight c [6, 1, 1]
declare output r [6, 28, 28]
declare intvar a [6, 28, 28]
define a = add x c
define r = relu a
"""


def test_a_loop_without_sums_is_split_by_the_elements_it_writes():
    """Sums split at blocks of examples; a loop without them anywhere, or at
    multiples of `GRAIN` examples where each has fewer than `GRAIN` elements;
    each thread writing `loop_pool.MIN_WORK` elements at least."""
    spans, grain, least = loop_wrapper.spans, loop_wrapper.GRAIN, loop_pool.MIN_WORK
    assert grain == 64
    assert spans(256, 2, 6 * 28 * 28, sums=False) == [(0, 128), (128, 256)]
    assert spans(100, 3, 6 * 28 * 28, sums=False) == [(0, 33), (33, 66), (66, 100)]
    assert spans(64, 2, 16 * 8 * 8, sums=False) == [(0, 64)]      # 64 k elements: one thread
    assert spans(3, 8, least, sums=False) == [(0, 1), (1, 2), (2, 3)]
    assert spans(least, 2, 1, sums=False) == [(0, least)]          # scalars: MIN_WORK each
    assert spans(3 * least + 37, 3, 1, sums=False) == [
        (0, 64 * (6145 // 3)), (64 * (6145 // 3), 64 * (2 * 6145 // 3)),
        (64 * (2 * 6145 // 3), 3 * least + 37)]                    # 6145 grains of 64
    assert spans(3 * least + 37, 3, grain - 1, sums=False)[1][0] % grain == 0
    assert spans(256, 2, 6 * 28 * 28) == [(0, 256)]                 # one block of sums


def test_a_loop_called_for_some_examples_writes_those_only(engine):
    """A span that does not start at a block (a loop without sums split over threads)
    computes its own examples and no others."""
    plan = make_plan(tenflang.parse(BIAS_RELU), {"x", "c"})
    groups = generate(plan, None, True)[2]
    loop = loop_wrapper.functions(groups)["fused_1"]
    rng = np.random.default_rng(6)
    x, c = rng.standard_normal((100, 6, 28, 28)), rng.standard_normal((6, 1, 1))
    assert [o.name for o in groups[0].outputs] == ["r"]
    r = np.full_like(x, np.nan)
    loop.function("float64")(33, 66, *loop.loops.arguments([x, c, r]))
    assert np.isnan(r[:33]).all() and np.isnan(r[66:]).all()
    assert np.array_equal(r[33:66], np.maximum(x[33:66] + c, 0))


@pytest.mark.parametrize("threads", ["2", "3"])
def test_a_loop_without_sums_gives_the_same_bits_on_any_threads(loop_threads, engine, threads):
    plan = make_plan(tenflang.parse(BIAS_RELU), {"x", "c"})
    rng = np.random.default_rng(7)
    data = {"x": rng.standard_normal((300, 6, 28, 28)), "c": rng.standard_normal((6, 1, 1))}
    loop_threads("1")
    one = run_plan(plan, data)["r"]
    loop_threads(threads)
    assert len(loop_wrapper.spans(300, loop_pool.threads(), 6 * 28 * 28, sums=False)) == int(threads)
    many = run_plan(plan, data)["r"]
    assert np.array_equal(one, many) and np.array_equal(one, np.maximum(data["x"] + data["c"], 0))


@pytest.mark.skipif(clib.unavailable_reason() is not None, reason="no C compiler here")
def test_plan_fused_shows_the_call_and_the_c_loop(run_cli):
    code, out, err = run_cli(["tenflang", "plan", SAMPLES_DIR / "example_shape.tf", "--reduce",
                              "mean", "--fused"])
    assert code == 0, err
    python, c = out.split("// the fused loops (tenflang.interp.backends.c.c_loops)\n")
    assert "o, lambda_ = F.fused_1(dtype, x, w, y)    # fused: z, o, diff, lambda" in python
    compile(python, "plan", "exec")
    assert ("void loop_1(long start, long stop, const double *restrict v_x_in, "
            "const double *restrict v_w_in, const double *restrict v_y_in, "
            "double *restrict v_o_partial, double *restrict v_lambda_partial)") in c
    assert "const double v_o = (((v_z >= 0.0) ? 1.0 : exp((-fabs(v_z)))) / (1.0 + exp((-fabs(v_z)))));" \
        "    // o = logistic z" in c
    assert "v_lambda_partial[block] += v_lambda;" in c
    assert clib.library(c).loop_1        # the text shown is the text that compiles


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_forked_child_runs_c_loops_on_threads_of_its_own(loop_threads):
    loop_threads("2")
    plan = original_example_gradient_plan()
    n = 4 * loop_wrapper.MIN_BLOCKS_PER_THREAD * BLOCK
    data = {"x": np.linspace(-3, 3, n), "y": np.ones(n), "w": np.float64(0.7)}
    parent = run_plan(plan, data, reduce="sum")          # the parent's pool has threads now
    read, write = os.pipe()
    child = os.fork()
    if child == 0:                                       # the child: same sums, no hang
        try:
            same = all(np.array_equal(parent[k], v) for k, v in
                       run_plan(plan, data, reduce="sum").items())
            os.write(write, b"same" if same else b"different")
        finally:
            os._exit(0)
    os.close(write)
    deadline = time.monotonic() + 60
    while os.waitpid(child, os.WNOHANG) == (0, 0):       # a hung child fails the test
        if time.monotonic() > deadline:
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
            pytest.fail("the forked child hung in a fused loop")
        time.sleep(0.05)
    assert os.read(read, 16) == b"same"


def test_plan_fused_shows_numba_loops_without_a_c_compiler(run_cli, monkeypatch):
    pytest.importorskip("numba")          # an optional extra
    monkeypatch.setenv("CC", "no-such-compiler")
    code, out, err = run_cli(["tenflang", "plan", SAMPLES_DIR / "example_shape.tf", "--reduce",
                              "mean", "--fused"])
    assert code == 0, err
    assert "def loop_1(start, stop, x_in, w_in, y_in, o_partial, lambda_partial):" in out
    assert "lambda_partial[block] += lambda_" in out
    assert ("o = (1.0 if z >= 0.0 else math.exp(-abs(z))) / (1.0 + math.exp(-abs(z)))"
            "    # o = logistic z") in out
    compile(out, "plan", "exec")


PROBE = """
import numpy as np, tenflang
from tenflang.interp import make_plan, run_plan
from tenflang.interp.runtime.codegen import compiled
program = tenflang.parse("declare input x\\ndeclare output o\\ndeclare intvar t\\n"
                         "define t = mul x 3\\ndefine o = tanh t\\n")
plan = make_plan(program, {"x"})
out = run_plan(plan, {"x": np.linspace(-2, 2, 5000)})
assert np.allclose(out["o"], np.tanh(3 * np.linspace(-2, 2, 5000)))
fused_1 = compiled(plan, None, True)[2].fused_1
"""
NUMBA_CACHE = PROBE + """
loop = fused_1.function("float64")
print(sum(loop.stats.cache_hits.values()), sum(loop.stats.cache_misses.values()))
"""


def probe(code: str, env: dict) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_second_run_loads_the_c_library_from_the_disk_cache(tmp_path):
    log = tmp_path / "compiled"
    cc = tmp_path / "logging-cc"       # a compiler that notes each time it is run
    cc.write_text(f"#!/bin/sh\necho run >> {log}\nexec cc \"$@\"\n")
    cc.chmod(0o755)
    env = {"TENFLANG_CACHE_DIR": str(tmp_path / "cache"), "CC": str(cc)}
    probe(PROBE, env)
    built = len(list((tmp_path / "cache" / "native").glob("lib_*.so")))
    assert log.read_text().count("run") == built >= 1        # the loops (and the vector
    probe(PROBE, env)                                        # math probe: c_loops.py)
    assert log.read_text().count("run") == built             # loaded, not compiled
    assert len(list((tmp_path / "cache" / "native").glob("lib_*.so"))) == built


def test_second_run_loads_numba_machine_code_from_the_disk_cache(tmp_path):
    pytest.importorskip("numba")          # an optional extra
    env = {"TENFLANG_CACHE_DIR": str(tmp_path), "CC": "no-such-compiler", "TENFLANG_FUSE": "1"}
    first, second = probe(NUMBA_CACHE, env), probe(NUMBA_CACHE, env)
    assert first == ["0", "1"]                   # compiled, then written
    assert second == ["1", "0"]                  # loaded, not compiled
    assert list((tmp_path / "fused").glob("plan_*.py"))


@pytest.mark.parametrize("cc", ["cc", "no-such-compiler"])
def test_without_a_writable_cache_the_loops_still_run(tmp_path, cc):
    if cc != "cc":
        pytest.importorskip("numba")
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    probe(PROBE, {"TENFLANG_CACHE_DIR": str(blocked), "CC": cc})


def test_a_c_compiler_that_fails_falls_back_to_numba(tmp_path):
    pytest.importorskip("numba")          # an optional extra
    out = probe(PROBE + "print(type(fused_1.loops).__module__)",
                {"TENFLANG_CACHE_DIR": str(tmp_path), "CC": "false"})
    assert out == ["tenflang.interp.backends.numba.numba_loops"]


SMALL_BATCH_CHAINS = """declare input z [16, 16]
declare input d [16, 16]
declare input u [4]
declare intvar s [16, 16]
declare output a [16, 16]
declare intvar e [16, 16]
declare output t [16, 16]
declare intvar m [4]
declare output n [4]
define s = step z
define a = mul d s
define e = tanh z
define t = mul d e
define m = neg u
define n = mul m u
"""


BROADCASTS = """declare input x [3, 4, 5]
declare input u [1, 4, 1]
declare weight c [3, 1, 1]
declare weight w [5]
declare weight v [4, 1]
declare output r [3, 4, 5]
declare output s [3, 4, 5]
declare intvar a [3, 4, 5]
declare intvar b [3, 4, 5]
declare intvar d [3, 4, 5]
define a = add x c
define b = mul a u
define d = sub b w
define r = relu d
define s = mul r v
"""


@pytest.mark.parametrize("reduce", [None, "sum"])
def test_inputs_broadcast_along_some_axes_are_fused_and_read_at_their_coordinates(
        env_switch, engine, reduce):
    """A convolution's bias [C, 1, 1], a per-example [1, 4, 1], weights [5] and
    [4, 1] against [3, 4, 5]: one group reads them all (interp/planning/fusion.py), the
    loop splits j into `jo` over [3, 4] and `ji` over [5] (interp/backends/render.py),
    and every result, sums included, is numpy's broadcasting to the bit."""
    plan = make_plan(tenflang.parse(BROADCASTS), {"x", "u", "c", "w", "v"})
    groups = generate(plan, reduce, True)[2]
    assert len(groups) == 1 and [i.shape for i in groups[0].inputs] == [
        (3, 4, 5), (3, 1, 1), (1, 4, 1), (5,), (4, 1)]
    rng = np.random.default_rng(5)
    n = 2 * BLOCK + 9                          # blocks of partial sums, one short
    data = {"x": rng.standard_normal((n, 3, 4, 5)), "u": rng.standard_normal((n, 1, 4, 1)),
            "c": rng.standard_normal((3, 1, 1)), "w": rng.standard_normal(5),
            "v": rng.standard_normal((4, 1))}
    data["x"][0, 0, 0, :2] = [-0.0, math.nan]
    fused, plain = both(plan, data, env_switch, reduce)
    if reduce is None:                         # elementwise: the same operations, the same bits
        assert all(np.array_equal(fused[k], plain[k], equal_nan=True) for k in plain)
    assert_close(fused, plain)


def test_a_small_batch_fuses_only_wide_chains_without_math_functions(env_switch):
    """Below FUSE_FROM examples a loop beats numpy only on arithmetic and selects
    over enough elements per example (interp/planning/fusion.py): the relu-gradient-like
    chain is fused, the one calling tanh and the narrow one run as numpy calls,
    and the results are the step-by-step ones."""
    if clib.unavailable_reason():
        pytest.skip(clib.unavailable_reason())
    plan = make_plan(tenflang.parse(SMALL_BATCH_CHAINS), {"z", "d", "u"})
    source = build(plan, None, True, small=True)[0]
    assert "a, = F.fused_1(dtype, z, d)" in source and "fused_2" not in source
    assert "xp.tanh(z)" in source and "xp.negative(u)" in source
    assert "xp.tanh" not in build(plan, None, True)[0]       # a large batch: every chain
    compiled.cache_clear()
    try:
        rng = np.random.default_rng(4)
        data = {"z": rng.normal(size=(7, 16, 16)), "d": rng.normal(size=(7, 16, 16)),
                "u": rng.normal(size=(7, 4))}
        fused, plain = both(plan, data, env_switch)
    finally:
        compiled.cache_clear()
    assert_close(fused, plain)


def test_a_small_batch_without_a_c_compiler_runs_unfused(monkeypatch):
    """numba's import and compiles would cost a small batch more than its loops save."""
    monkeypatch.setattr(c_loops, "compiled", no_compiler)
    plan = make_plan(tenflang.parse(SMALL_BATCH_CHAINS), {"z", "d", "u"})
    compiled.cache_clear()
    try:
        forwards = compiled(plan, None, True, small=True)[2]
    finally:
        compiled.cache_clear()
    assert not [name for name in vars(forwards) if name.startswith("fused_")]


@pytest.mark.skipif(clib.unavailable_reason() is not None, reason="no C compiler here")
def test_a_float32_run_compiles_its_loops_in_float32_only(monkeypatch):
    """The library built when the plan is compiled is the run's dtype's: a
    float32 run pays no float64 compile (a large network's loops take seconds)."""
    sources = []
    library = clib.library.__wrapped__

    def noted(source, *args, **kwargs):
        sources.append(source)
        return library(source, *args, **kwargs)
    monkeypatch.setattr(clib, "library", noted)
    compiled.cache_clear()
    plan = original_example_gradient_plan()
    rng = np.random.default_rng(3)
    n = 2 * FUSE_FROM + 5
    data = {"x": rng.standard_normal(n), "y": rng.random(n).round(), "w": np.float64(0.7)}
    with np.errstate(all="ignore"):
        run_plan(plan, data, dtype="float32", reduce="sum")
    compiled.cache_clear()
    loops = [s for s in sources if s.startswith("/* Fused loops")]
    assert loops and all(", float (" in s.splitlines()[0] for s in loops), loops
