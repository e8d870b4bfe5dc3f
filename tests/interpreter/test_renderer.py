"""One renderer contract (tenflang/interp/backends/render.py): the CPU's C loops, the
numba loops and the CUDA kernels render one `KernelSpec` with the same
offsets, names and step lines; the numba loops are the C loops in Python
(bit-identical results, sums included); numba is an optional extra, and
without it and without a C compiler programs run unfused on numpy, the text
reader reads with its general path, and `tenflang plan --fused` says so."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import tenflang
from tenflang.native import clib
from tenflang.interp.backends.cuda.kernels import RENDERER as CUDA
from tenflang.interp.backends.c import c_loops
from tenflang.interp import make_plan, run_plan
from tenflang.interp.backends.numba import numba_loops
from tenflang.interp.runtime.codegen import compiled
from tenflang.interp.backends.render import BLOCK, KernelSpec, Line, Value, split_axes
from tenflang.interp.runtime.run import FUSE_FROM

from support.paths import SAMPLES_DIR

RENDERERS = {"c": c_loops.RENDERER, "numba": numba_loops.RENDERER, "cuda": CUDA}

# every role a fused group reads (interp/planning/fusion.py), a literal, and a batch sum
SPEC = KernelSpec(
    "loop_1", (5,),
    (Value("x", (5,), True), Value("s", (), True), Value("w", (5,), False), Value("k", (), False)),
    (Line("p", "a * b", ("x", "w"), "p = mul x w"), Line("q", "a + b", ("p", "s"), "q = add p s"),
     Line("r", "a - b", ("q", "k"), "r = sub q k"), Line("t", "a * b", ("r", 0.5), "t = mul r 0.5")),
    (Value("t", (5,), True),), (Value("r", (5,), True),))


@pytest.mark.parametrize("target", RENDERERS)
def test_every_renderer_reads_each_role_at_the_same_offset(target):
    text = "\n".join(RENDERERS[target].kernel(SPEC, "float64"))
    x, s, w, k = ("x", "s", "w", "k") if target == "numba" else ("v_x", "v_s", "v_w", "v_k")
    for name, index in [(x, "e * 5 + j"), (s, "e"), (w, "j"), (k, "0")]:
        assert f"{name} = {name}_in[{index}]" in text, (target, name)
    assert f"{'t' if target == 'numba' else 'v_t'}_out[e * 5 + j] = " in text
    assert "t = mul r 0.5" in text                     # each step keeps its TenFlang line


# a convolution's bias and relu over [C, H, W] = [16, 8, 8]
BIAS = KernelSpec(
    "loop_1", (16, 8, 8), (Value("p", (16, 8, 8), True), Value("c", (16, 1, 1), False)),
    (Line("q", "a + b", ("p", "c")), Line("r", "0.0 if a < 0.0 else a", ("q",))),
    (Value("q", (16, 8, 8), True), Value("r", (16, 8, 8), True)))


@pytest.mark.parametrize("group, shapes, split", [
    ((16, 8, 8), [(16, 8, 8), ()], 0), ((16, 8, 8), [(16, 8, 8), (16, 1, 1)], 1),
    ((16, 8, 8), [(16, 8, 8), (8,)], 2), ((16, 8, 8), [(16, 8, 8), (16, 8, 1)], 2),
    ((16, 8, 8), [(1, 8, 8)], 1), ((16, 8, 8), [(16, 1, 8), (8,)], 2),
    ((16, 8, 1), [(16, 1, 1), (1, 8, 1)], 1)])
def test_a_cpu_loop_splits_after_the_axes_an_input_is_broadcast_along(group, shapes, split):
    """The outer loop runs over the fewest leading axes after which every input
    is whole or of size 1 (a flat loop where that is none)."""
    spec = KernelSpec("loop_1", group, tuple(Value(f"x{k}", s, True) for k, s in
                                              enumerate(shapes)), (), ())
    assert split_axes(spec) == split


@pytest.mark.parametrize("target", ["c", "numba"])
def test_a_bias_is_read_once_per_inner_loop_on_the_cpu(target):
    """`c_in[jo]`, the same for the inner loop over a plane, which the C compiler
    vectorises; `c_in[j / 64]` it did not (interp/backends/render.py)."""
    text = "\n".join(RENDERERS[target].kernel(BIAS, "float32"))
    c, p = ("c", "p") if target == "numba" else ("v_c", "v_p")
    assert f"{c} = {c}_in[jo]" in text and f"{p} = {p}_in[e * 1024 + j]" in text
    assert "jo * 64 + ji" in text
    cuda = "\n".join(CUDA.kernel(BIAS, "float32"))           # one thread per element
    assert "v_c = v_c_in[(j / 64)]" in cuda and "jo" not in cuda


def test_a_split_c_loop_vectorises_and_equals_numpy(tmp_path):
    if clib.unavailable_reason():
        pytest.skip(clib.unavailable_reason())
    source = c_loops.module_source([BIAS], "float32")
    log = subprocess.run([clib.compiler(), *clib.FLAGS, "-fopt-info-vec-optimized", "-c",
                          "-x", "c", "-", "-o", str(tmp_path / "bias.o")], input=source,
                         capture_output=True, text=True)
    if log.returncode and "-fopt-info" in log.stderr:
        pytest.skip("the C compiler is not GCC: it has no -fopt-info")
    assert log.returncode == 0, log.stderr
    inner = next(k for k, line in enumerate(source.splitlines(), 1) if "for (long ji" in line)
    assert f":{inner}:" in log.stderr and "vectorized" in log.stderr     # the plane's loop
    p = np.random.default_rng(6).standard_normal((3, 16, 8, 8)).astype(np.float32)
    c = np.random.default_rng(7).standard_normal((1, 16, 1, 1)).astype(np.float32)
    q, r = np.empty_like(p), np.empty_like(p)
    loops = c_loops.compiled([BIAS])
    loops.function(BIAS, "float32")(0, 3, *loops.arguments([p, c, q, r]))
    assert np.array_equal(q, p + c) and np.array_equal(r, np.maximum(p + c, 0))


def test_a_value_named_like_an_array_or_an_index_gets_its_own_identifier():
    spec = KernelSpec("loop_1", (2,), (Value("x", (2,), True), Value("x_in", (2,), True)),
                      (Line("e", "a + b", ("x", "x_in")),), (Value("e", (2,), True),))
    text = "\n".join(numba_loops.RENDERER.kernel(spec, "float64"))
    assert "def loop_1(start, stop, x_in, x_in_in, e_out):" in text
    assert "x_in_2 = x_in_in[e * 2 + j]" in text and "e_ = x + x_in_2" in text
    assert "e_out[e * 2 + j] = e_" in text


SUMS = """declare input x [4]
declare weight w [4]
declare output o [4]
declare output l [4]
declare intvar h
declare intvar g
define h = mul x w
define g = add h (mul x x)
define o = sub g 0.25
define l = mul o o
"""


def test_numba_loops_are_the_c_loops_bit_for_bit(monkeypatch):
    if clib.unavailable_reason():
        pytest.skip(clib.unavailable_reason())
    pytest.importorskip("numba")
    plan = make_plan(tenflang.parse(SUMS), {"x", "w"})
    n = 3 * BLOCK + 17
    data = {"x": np.random.default_rng(3).standard_normal((n, 4)), "w": np.arange(4.0) / 3}
    out = {}
    for target in ("c", "numba"):
        if target == "numba":
            monkeypatch.setattr(c_loops, "compiled", no_compiler)
        compiled.cache_clear()
        out[target] = run_plan(plan, data, reduce="sum")
        assert "fused_1" in vars(compiled(plan, "sum", True)[2])
    assert out["c"]["l"].shape == (4,)                  # summed over the examples
    compiled.cache_clear()
    assert all(np.array_equal(out["c"][k], out["numba"][k]) for k in out["c"])


def no_compiler(specs, dtype="float64"):
    raise clib.Unavailable("no C compiler (a test's stand-in)")


def test_without_a_compiler_or_numba_the_plan_runs_unfused(monkeypatch):
    monkeypatch.setattr(c_loops, "compiled", no_compiler)
    monkeypatch.setitem(sys.modules, "numba", None)           # `import numba` fails
    compiled.cache_clear()
    plan = make_plan(tenflang.parse(SUMS), {"x", "w"})
    x = np.linspace(-1, 1, 4 * (FUSE_FROM + 3)).reshape(-1, 4)
    try:
        got = run_plan(plan, {"x": x, "w": np.ones(4)})
        assert "fused_1" not in vars(compiled(plan, None, True)[2])
    finally:
        compiled.cache_clear()
    np.testing.assert_allclose(got["o"], x + x * x - 0.25, rtol=1e-15)


@pytest.fixture
def no_numba(tmp_path, monkeypatch):
    """Commands run without a C compiler and with numba not importable."""
    fake = tmp_path / "site"
    fake.mkdir()
    (fake / "numba.py").write_text("raise ImportError('no numba in this test')\n")
    monkeypatch.setenv("PYTHONPATH", str(fake))
    monkeypatch.setenv("CC", "no-such-compiler")
    monkeypatch.setenv("TENFLANG_CACHE_DIR", str(tmp_path / "cache"))


def test_plan_fused_says_there_are_no_loops_without_a_compiler_or_numba(run_cli, no_numba):
    code, out, err = run_cli(["tenflang", "plan", SAMPLES_DIR / "example_shape.tf", "--reduce",
                              "mean", "--fused"])
    assert code == 0, err
    assert "# no fused loops here: no C compiler ('no-such-compiler' is not on PATH" in out
    assert "numba is not installed (no numba in this test;" in out
    assert "run unfused, on numpy" in out and "def loop_1" not in out


def test_training_without_a_compiler_or_numba_reads_and_trains(run_cli, no_numba, tmp_path):
    gcp, weights = tmp_path / "gcp.tf", tmp_path / "w.txt"
    assert run_cli(["tfcompiler", SAMPLES_DIR / "example_shape.tf", "-o", gcp])[0] == 0
    code, out, err = run_cli(["tfweightcalc", gcp, SAMPLES_DIR / "example_train.txt",
                              "-o", weights, "--max-iters", "20", "--quiet"])
    assert code == 0, err
    assert weights.read_text().strip()


def renamed(spec: KernelSpec, name: str, suffix: str, literal=None) -> KernelSpec:
    """`spec` with every value's name (and its own) changed; `literal`: a
    line's number changed too."""
    def v(value):
        return Value(value.name + suffix, value.shape, value.batched)
    lines = tuple(Line(line.target + suffix, line.form,
                       tuple(o + suffix if isinstance(o, str) else literal if literal is not None
                             else o for o in line.operands)) for line in spec.lines)
    return KernelSpec(name, spec.shape, tuple(map(v, spec.inputs)), lines,
                      tuple(map(v, spec.outputs)), tuple(map(v, spec.reduced)))


SCALED = KernelSpec("loop_1", (4,), (Value("x", (4,), True),),
                    (Line("y", "a * b", ("x", 0.0)),), (Value("y", (4,), True),))


def test_kernels_that_differ_only_in_their_names_are_compiled_once():
    """ResNet's repeated blocks: one function runs both, each on its own arrays."""
    twin = renamed(BIAS, "loop_2", "_b")
    source = c_loops.module_source([BIAS, twin], "float32")
    assert source.count("void loop_1(") == 1 and "void loop_2(" not in source
    assert "// loop_2 (q_b, r_b): loop_1's kernel, on its own arrays" in source
    if clib.unavailable_reason():
        pytest.skip(clib.unavailable_reason())
    loops = c_loops.compiled([BIAS, twin], "float32")
    rng = np.random.default_rng(8)
    for spec in (BIAS, twin):
        p = rng.standard_normal((3, 16, 8, 8)).astype(np.float32)
        c = rng.standard_normal((1, 16, 1, 1)).astype(np.float32)
        q, r = np.empty_like(p), np.empty_like(p)
        loops.function(spec, "float32")(0, 3, *loops.arguments([p, c, q, r]))
        assert np.array_equal(q, p + c) and np.array_equal(r, np.maximum(p + c, 0))


@pytest.mark.parametrize("other", [
    renamed(SCALED, "loop_2", "_b", literal=-0.0),         # 0.0 == -0.0 in Python only
    renamed(SCALED, "loop_2", "_b", literal=1),
    KernelSpec("loop_2", (4,), (Value("x", (4,), False),), SCALED.lines, SCALED.outputs),
    KernelSpec("loop_2", (4,), SCALED.inputs, (Line("y", "a + b", ("x", 0.0)),), SCALED.outputs),
    KernelSpec("loop_2", (4,), SCALED.inputs, (Line("y", "a * b", (0.0, "x")),), SCALED.outputs),
])
def test_kernels_that_compute_differently_are_kept_apart(other):
    source = c_loops.module_source([SCALED, other], "float64")
    assert "void loop_1(" in source and "void loop_2(" in source


def test_loops_that_differ_only_in_names_load_one_library(monkeypatch, tmp_path):
    """ResNet's statistics levels: a plan whose loops are another's but for
    their names compiles nothing, and its loops compute on its own arrays."""
    if clib.unavailable_reason():
        pytest.skip(clib.unavailable_reason())
    monkeypatch.setenv("TENFLANG_CACHE_DIR", str(tmp_path))
    clib.library.cache_clear()
    try:
        c_loops.compiled([BIAS], "float32")
        [built] = (tmp_path / "native").glob("lib_*.so")
        twin = renamed(BIAS, "loop_1", "_b")
        loops = c_loops.compiled([twin], "float32")
        assert list((tmp_path / "native").glob("lib_*.so")) == [built]
        p = np.random.default_rng(9).standard_normal((2, 16, 8, 8)).astype(np.float32)
        c = np.random.default_rng(10).standard_normal((1, 16, 1, 1)).astype(np.float32)
        q, r = np.empty_like(p), np.empty_like(p)
        loops.function(twin, "float32")(0, 2, *loops.arguments([p, c, q, r]))
        assert np.array_equal(q, p + c) and np.array_equal(r, np.maximum(p + c, 0))
        c_loops.compiled([renamed(BIAS, "loop_1", "_c", literal=None)], "float64")
        assert len(list((tmp_path / "native").glob("lib_*.so"))) == 2   # another dtype
    finally:
        clib.library.cache_clear()
