"""One renderer contract (tenflang/interp/render.py): the CPU's C loops, the
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
from tenflang import native
from tenflang.gpu.kernels import RENDERER as CUDA
from tenflang.interp import c_loops, make_plan, numba_loops, run_plan
from tenflang.interp.codegen import compiled
from tenflang.interp.render import BLOCK, KernelSpec, Line, Value
from tenflang.interp.run import FUSE_FROM

from support.paths import SAMPLES_DIR

RENDERERS = {"c": c_loops.RENDERER, "numba": numba_loops.RENDERER, "cuda": CUDA}

# every role a fused group reads (interp/fusion.py), a literal, and a batch sum
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
    if native.unavailable_reason():
        pytest.skip(native.unavailable_reason())
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


def no_compiler(specs):
    raise native.Unavailable("no C compiler (a test's stand-in)")


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
