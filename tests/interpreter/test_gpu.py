"""The GPU backend against numpy, parametrised over the backend.

Every op's forward and gradient (the op-table cases of tests/support/op_cases.py)
and every sample's training agree with numpy: float64 to round-off, float32
to 1e-5.  The "cupy" cases need a CUDA GPU and cupy; without them they are
skipped with the reason (`tenflang.interp.device.cupy_or_reason`).  The
"cupy-rules" cases run everywhere on `CountingXP` (tests/support/counting_xp.py):
numpy underneath, cupy's rules at the host/device border, so an op whose
forward would copy to the host or mix host arrays in (and fail on cupy)
fails here.
What the GPU runs is `Engine(cupy).run` (tenflang.interp.engine): fused kernels plus cuBLAS.
"""
from __future__ import annotations

import zlib

import numpy as np
import pytest

import tenflang
from tenflang.interp.engine import Engine
from tenflang.interp import make_plan, run_plan
from tenflang.interp.device import cupy_or_reason, to_host
from tenflang.training.gradients import LocalGradients
from tenflang.training.config import TrainConfig
from tenflang.training.loop import train

from support import op_cases
from support.counting_xp import CountingXP
from test_device_residency import SAMPLE_DATA
from support.paths import SAMPLES_DIR

CUPY, REASON = cupy_or_reason()
BACKENDS = [pytest.param("cupy-rules"),
            pytest.param("cupy", marks=pytest.mark.skipif(CUPY is None, reason=f"no GPU: {REASON}"))]
TOLERANCE = {"float64": dict(rtol=1e-10, atol=1e-12), "float32": dict(rtol=1e-5, atol=1e-5)}


# Their forwards call cupyx.scipy.special on a device (numpy has no erf), which
# the counting module, numpy underneath, cannot stand in for: a real GPU runs them.
NEEDS_CUPYX = {"erf", "gelu", "gelu_deriv"}


def module(backend, op=None):
    if backend == "cupy-rules" and op in NEEDS_CUPYX:
        pytest.skip(f"`{op}` calls cupyx.scipy.special: checked on a real GPU only")
    return CountingXP() if backend == "cupy-rules" else CUPY


def op_case(op, shapes, dtype):
    source = op_cases.program_for(op, shapes)
    data, weights = op_cases.data_for(op, shapes, seed=zlib.crc32(repr((op, shapes)).encode()))
    if op in ("max", "min"):
        data["x1"] = -data["x1"] if op == "max" else data["x1"] + 3
    program = tenflang.parse(source)
    gcp = tenflang.parse(tenflang.print_program(tenflang.compile_gradient(program)))
    bound = {**data, **weights}
    return program, gcp, {k: np.asarray(v, dtype=dtype) for k, v in bound.items()}


def on(xp, data, dtype):
    return {k: xp.asarray(v, dtype=dtype) for k, v in data.items()}


def agree(got: dict, want: dict, dtype, where=""):
    assert set(got) == set(want)
    for name, value in want.items():
        np.testing.assert_allclose(to_host(got[name]), value, **TOLERANCE[dtype],
                                   err_msg=f"{where} {name}")


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op, shapes", list(op_cases.cases()))
@pytest.mark.parametrize("backend", BACKENDS)
def test_op_forward_and_gradient_agree_with_numpy(backend, op, shapes, dtype):
    xp = module(backend, op)
    program, gcp, data = op_case(op, shapes, dtype)
    forward = make_plan(program, set(data))
    agree(Engine(xp).run(forward, on(xp, data, dtype), dtype=dtype),
          run_plan(forward, data, dtype=dtype), dtype, f"{op} forward")
    outputs = [d.name for d in gcp.declarations().values() if d.kind in ("output", "loss")]
    step = make_plan(gcp, set(data), outputs)
    agree(Engine(xp).run(step, on(xp, data, dtype), dtype=dtype, reduce="mean"),
          run_plan(step, data, dtype=dtype, reduce="mean"), dtype, f"{op} gradient")


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("sample", sorted(SAMPLE_DATA))
@pytest.mark.parametrize("backend", BACKENDS)
def test_sample_training_agrees_with_numpy(backend, sample, dtype):
    program = tenflang.parse_file(SAMPLES_DIR / sample)
    gcp = tenflang.parse(tenflang.print_program(tenflang.compile_gradient(program)))
    examples = tenflang.load_examples(SAMPLES_DIR / SAMPLE_DATA[sample]).arrays
    cfg = TrainConfig(lr=0.01, max_iters=20, tol=0.0, batch_size=32, optimizer="adam",
                      dtype=dtype)
    want = train(gcp, examples, cfg)
    got = train(gcp, examples, cfg, LocalGradients(Engine(module(backend))))
    # 20 steps of Adam amplify round-off a little: compare the weights a step makes
    tol = TOLERANCE[dtype] if dtype == "float64" else dict(rtol=1e-4, atol=1e-5)
    for name, w in want.weights.items():
        np.testing.assert_allclose(got.weights[name], w, **tol, err_msg=f"{sample} {name}")
    np.testing.assert_allclose(got.history, want.history, **tol)


@pytest.mark.skipif(CUPY is not None, reason="a GPU is present: the benchmark would run")
def test_the_gpu_benchmark_refuses_without_a_gpu(tmp_path):
    import subprocess
    import sys
    from support.paths import ROOT
    from support.commands import cli_env
    out = tmp_path / "results_gpu.md"
    done = subprocess.run([sys.executable, ROOT / "bench" / "bench_gpu.py", "--quick",
                           "--out", out], capture_output=True, text=True, env=cli_env())
    assert done.returncode == 2 and "needs an NVIDIA GPU" in done.stderr
    assert "Traceback" not in done.stderr and not out.exists()


def test_the_gpu_benchmark_compares_the_same_math():
    """bench/bench_gpu.py's hand-written MLP step (run here on numpy) and
    tenflang's training end at the same weights; its 20-op chain runs."""
    import sys
    from support.paths import ROOT
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_gpu
    rng = np.random.default_rng(0)
    data = bench_gpu.mlp_data(64, rng)
    ours = bench_gpu.tenflang_steps(bench_gpu.MLP, data, np, 3, "float64")()
    theirs = bench_gpu.handwritten_mlp_steps(data, 3, np, "float64")()
    assert bench_gpu.relative_difference(ours, theirs) < 1e-12
    assert bench_gpu.relative_difference(ours, {k: v * 1.01 for k, v in theirs.items()}) > 1e-3
    chain = make_plan(tenflang.parse(bench_gpu.chain_program()), {"x"})
    assert len(chain.steps) == 20
    out = run_plan(chain, {"x": rng.uniform(0.1, 1.0, 10)})["o"]
    assert out.shape == (10,) and np.isfinite(out).all()
