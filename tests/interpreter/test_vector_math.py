"""Fused C loops that call math functions in vectors (interp/backends/c/c_loops.py,
`vector_math`): they are found where glibc's libmvec is, the loops call its
vector forms, results are numpy's to a few units in the last place, and they
do not depend on where the arrays lie or on the thread count.  Where the
machine has no libmvec (or no C compiler) the tests that need it skip."""
from __future__ import annotations

import numpy as np
import pytest

import tenflang
from tenflang.native import clib, loop_pool
from tenflang.interp.backends.c import c_loops
from tenflang.interp.backends import cpu_loops as loop_wrapper
from tenflang.interp import make_plan, run_plan
from tenflang.interp.runtime import run as run_module
from tenflang.interp.runtime.codegen import build, compiled, generate
from tenflang.interp.backends.render import group_specs

MATH = """declare input x [5, 40]
declare weight c [40]
declare output t [5, 40]
declare output s [5, 40]
declare intvar a [5, 40]
declare intvar e [5, 40]
define a = add x c
define t = tanh a
define e = exp a
define s = mul t e
"""
# per-example scalars: the loop is vectorised over the examples
SCALARS = """declare input x
declare weight w
declare output o
declare intvar z
define z = mul x w
define o = logistic z
"""
EVERY_FUNCTION = ["tanh", "exp", "log", "logistic", "softplus", "sin", "cos", "erf", "gelu",
                  "logistic_deriv", "tanh_deriv", "gelu_deriv"]


def needs_vector_math():
    if clib.unavailable_reason():
        pytest.skip(clib.unavailable_reason())
    if not c_loops.vector_math():
        pytest.skip("no libmvec vector math here (glibc before 2.35, or another C library)")


@pytest.fixture
def fresh():
    compiled.cache_clear()
    yield
    compiled.cache_clear()


def every_function_program() -> str:
    lines = ["declare input x [37]"]
    for op in EVERY_FUNCTION:
        lines += [f"declare output {op}_v [37]", f"define {op}_v = {op} x"]
    return "\n".join(lines) + "\n"


def library_text(plan, dtype: str) -> bytes:
    groups = generate(plan, None, True)[2]
    loops = c_loops.compiled(group_specs(groups))
    with open(loops.library(dtype)._name, "rb") as f:
        return f.read()


@pytest.mark.parametrize("dtype, symbol", [("float64", b"v_tanh"), ("float32", b"v_tanhf")])
def test_the_loops_call_the_vector_forms(dtype, symbol):
    """The library of a loop calling tanh links libmvec's vector tanh (`_ZGV...v_tanh`:
    the vector function ABI's names)."""
    needs_vector_math()
    plan = make_plan(tenflang.parse(MATH), {"x", "c"})
    text = library_text(plan, dtype)
    assert any(f"_ZGV{isa}N{n}".encode() + symbol in text
               for isa in "bcde" for n in (2, 4, 8, 16))


def test_a_module_declares_the_functions_its_loops_call():
    needs_vector_math()
    plan = make_plan(tenflang.parse(MATH), {"x", "c"})
    specs = group_specs(generate(plan, None, True)[2])
    assert c_loops.called(specs) == ("exp", "tanh")
    source = c_loops.module_source(specs, "float32")
    assert "float tanhf(float);" in source and "float expf(float);" in source
    assert "sinf" not in source and source.count("declare simd") == 2


def test_loops_without_math_are_compiled_as_before():
    """Only a module calling a libmvec function is compiled with vector math."""
    plan = make_plan(tenflang.parse(MATH.replace("tanh a", "neg a").replace("exp a", "abs a")),
                     {"x", "c"})
    specs = group_specs(generate(plan, None, True)[2])
    assert not c_loops.vectorised(specs)
    assert "declare simd" not in c_loops.module_source(specs)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_results_are_numpys_to_a_few_units_in_the_last_place(env_switch, fresh, dtype):
    """Every op calling a libmvec function, on values across their ranges and on
    NaN, ±inf, ±0 and subnormals: the fused loop against the numpy path, within
    16 units of round-off of the value or of 1 (gelu's derivative cancels to
    ~0 near -0.75, the same in both; the functions themselves differ by 2 at most)."""
    needs_vector_math()
    plan = make_plan(tenflang.parse(every_function_program()), {"x"})
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.normal(size=(2000, 37)) * s for s in (0.01, 1, 4, 30)])
    x[0, :8] = [np.nan, np.inf, -np.inf, 0.0, -0.0, 5e-324, -1e-310, 1e300]
    x = x.astype(dtype)
    env_switch("TENFLANG_FUSE", "1")
    fused = run_plan(plan, {"x": x}, dtype=dtype)
    compiled.cache_clear()
    env_switch("TENFLANG_FUSE", "0")
    plain = run_plan(plan, {"x": x}, dtype=dtype)
    eps = np.finfo(dtype).eps
    for name in plain:
        a, b = fused[name], plain[name]
        assert np.array_equal(np.isnan(a), np.isnan(b)), name
        assert np.array_equal(a[np.isinf(b)], b[np.isinf(b)]), name
        ok = np.isfinite(b)       # relative to the value, or to 1 where a form cancels to ~0
        assert (np.abs(a[ok] - b[ok]) <= 16 * eps * np.maximum(np.abs(b[ok]), 1)).all(), name


def test_results_do_not_depend_on_where_the_arrays_lie(fresh):
    """The same inputs at four alignments: the same bits (no loop peeled to align
    an array, which would compute other elements with the scalar functions)."""
    needs_vector_math()
    plan = make_plan(tenflang.parse(MATH), {"x", "c"})
    rng = np.random.default_rng(4)
    x, c = rng.normal(size=(3000, 5, 40)) * 3, rng.normal(size=40)
    results = []
    for offset in range(4):
        room = np.empty(x.size + 4)
        shifted = room[offset:offset + x.size].reshape(x.shape)
        shifted[...] = x
        results.append(run_plan(plan, {"x": shifted, "c": c}))
    for other in results[1:]:
        assert all(np.array_equal(results[0][k], other[k]) for k in other)
    loop = loop_wrapper.functions(generate(plan, None, True)[2])["fused_1"]
    written = []
    for offset in range(4):                        # the loop itself, its outputs shifted too
        room = np.empty((1 + len(loop.written)) * (x.size + 4))
        views = [room[i * (x.size + 4) + offset:][:x.size].reshape(x.shape)
                 for i in range(1 + len(loop.written))]
        views[0][...] = x
        loop.function("float64")(0, len(x), *loop.loops.arguments([views[0], c] + views[1:]))
        written.append([v.copy() for v in views[1:]])
    assert all(np.array_equal(a, b) for other in written[1:] for a, b in zip(written[0], other))


@pytest.mark.parametrize("count", [2, 3, 4])
def test_results_do_not_depend_on_the_thread_count(monkeypatch, count):
    """Per-example scalars: the loop is vectorised over the examples, and a call's
    last few examples are computed by the scalar functions (other bits).  The
    threads' spans are cut at multiples of `GRAIN` examples, so every example is
    computed as by one call over the whole batch (a cut anywhere else changes
    some; tried: 50 of the first 199 cuts do)."""
    needs_vector_math()
    monkeypatch.setattr(loop_pool, "MIN_WORK", 1)         # a thread for a few examples
    plan = make_plan(tenflang.parse(SCALARS.replace("logistic z", "tanh z")), {"x", "w"})
    loop = loop_wrapper.functions(generate(plan, None, True)[2])["fused_1"]
    f = loop.function("float64")
    rng = np.random.default_rng(5)
    for n in (4097, 4133, 5000, 9999):
        x, w, one, many = rng.normal(size=n) * 3, np.ones(1), np.empty(n), np.empty(n)
        f(0, n, *loop.loops.arguments([x, w, one]))
        work = loop_wrapper.spans(n, count, 1, sums=False)
        assert len(work) == count
        for a, b in work:
            f(a, b, *loop.loops.arguments([x, w, many]))
        assert np.array_equal(one, many), n


def test_a_small_float64_batch_fuses_a_tanh_layer_and_float32_does_not(monkeypatch, fresh):
    """numpy's float64 tanh is scalar, its float32 one vectorised: a small batch
    fuses the tanh chain (from `SMALL_BATCH_MATH_SIZE` elements per example) in
    float64 where vector math is found, and leaves it to numpy in float32."""
    needs_vector_math()
    plan = make_plan(tenflang.parse(MATH), {"x", "c"})
    assert "xp.tanh" in build(plan, None, True, small=True)[0]
    source = build(plan, None, True, small=True, vector_math=True)[0]
    assert "xp.tanh" not in source and "F.fused_1(" in source
    asked = []
    real = run_module.compiled

    def spy(*args, **kwargs):
        asked.append(kwargs["vector_math"])
        return real(*args, **kwargs)
    monkeypatch.setattr(run_module, "compiled", spy)
    rng = np.random.default_rng(6)
    data = {"x": rng.normal(size=(32, 5, 40)), "c": rng.normal(size=40)}
    for dtype in ("float64", "float32"):
        out = run_plan(plan, data, dtype=dtype)
        expected = np.tanh(data["x"].astype(dtype) + data["c"].astype(dtype))
        np.testing.assert_allclose(out["t"], expected, rtol=4 * np.finfo(dtype).eps)
    assert asked == [True, False]


def test_a_failed_vector_build_falls_back_to_the_plain_loops(monkeypatch, fresh):
    """A library with vector math that does not build (a libmvec without one of the
    functions): the same loops, plain, and the same results as numpy's."""
    if clib.unavailable_reason():
        pytest.skip(clib.unavailable_reason())
    real = clib.library

    def refuse_libs(source, extra=(), libs=(), key=None):
        if libs:
            raise clib.Unavailable("no libmvec (a test's stand-in)")
        return real(source, extra, key=key)
    monkeypatch.setattr(clib, "library", refuse_libs)
    monkeypatch.setattr(c_loops, "vector_math", lambda: True)
    plan = make_plan(tenflang.parse(MATH), {"x", "c"})
    specs = group_specs(generate(plan, None, True)[2])
    assert c_loops.vectorised(specs)
    rng = np.random.default_rng(7)
    data = {"x": rng.normal(size=(1500, 5, 40)), "c": rng.normal(size=40)}
    out = run_plan(plan, data)
    np.testing.assert_allclose(out["t"], np.tanh(data["x"] + data["c"]), rtol=1e-15)
