"""`lrn` (local response normalisation) and `channel_sum` against loops written
here from the definition (PyTorch's `nn.LocalResponseNorm`, docs/design.md
§2.3.3), through the planned interpreter, and against PyTorch where installed.
Their gradients are checked against finite differences with the other ops'
(tests/support/op_cases.py)."""
from __future__ import annotations

import numpy as np
import pytest

import tenflang
from tenflang.ops import response_norm

# (per-example shape, n, alpha, beta, k): odd and even windows, a window wider
# than the channels, AlexNet's and GoogLeNet's settings
CASES = [((5, 3, 4), 5, 1e-4, 0.75, 2.0), ((6, 2, 2), 3, 0.5, 0.75, 1.0),
         ((4, 3), 2, 0.3, 0.6, 1.5), ((3,), 7, 1.0, 1.5, 0.5), ((8, 2, 2), 4, 2.0, 0.75, 1.0)]


def by_loops(x, n, alpha, beta, k):
    """v[c] = x[c] / (k + alpha/n Σ_{c' = c - n//2}^{c + (n-1)//2} x[c']²)^beta, one
    example and one channel at a time."""
    out = np.empty_like(x)
    channels = x.shape[1]
    for e in range(x.shape[0]):
        for c in range(channels):
            window = range(max(0, c - n // 2), min(channels, c + (n - 1) // 2 + 1))
            squares = sum(x[e, j] ** 2 for j in window)
            out[e, c] = x[e, c] / (k + alpha / n * squares) ** beta
    return out


def data(shape, seed=0, batch=3):
    return np.random.default_rng(seed).normal(size=(batch,) + shape) * 2


@pytest.mark.parametrize("case", CASES)
def test_lrn_is_the_definition(case):
    shape, n, alpha, beta, k = case
    x = data(shape)
    np.testing.assert_allclose(response_norm.lrn(np, x, n, alpha, beta, k),
                               by_loops(x, n, alpha, beta, k), rtol=1e-13)


@pytest.mark.parametrize("n,front", [(3, 1), (2, 0), (2, 1), (5, 4), (9, 3), (1, 0)])
def test_channel_sum_and_its_mirrored_adjoint(n, front):
    x, g = data((4, 2)), data((4, 2), seed=1)
    got = response_norm.channel_sum(np, x, n, front)
    want = np.zeros_like(x)
    for c in range(4):
        for t in range(n):
            if 0 <= c - front + t < 4:
                want[:, c] += x[:, c - front + t]
    np.testing.assert_allclose(got, want, rtol=1e-14)
    mirrored = response_norm.channel_sum(np, g, n, n - 1 - front)
    np.testing.assert_allclose(np.sum(g * got), np.sum(mirrored * x), rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lrn_keeps_the_dtype(dtype):
    x = data((5, 2, 2)).astype(dtype)
    assert response_norm.lrn(np, x, 5, 1e-4, 0.75, 2.0).dtype == dtype


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_program_with_lrn_runs_as_the_definition(dtype):
    program = tenflang.parse("declare input x [6, 2, 3]\ndeclare output v\n"
                             "define v = lrn x 3 0.5 0.7 1.5\n")
    x = data((6, 2, 3))
    got = tenflang.run_plan(tenflang.make_plan(program, {"x"}, ["v"]), {"x": x}, dtype=dtype)
    np.testing.assert_allclose(got["v"], by_loops(x, 3, 0.5, 0.7, 1.5),
                               rtol=1e-12 if dtype == "float64" else 1e-5)


def test_attributes_left_out_are_pytorchs_defaults():
    program = tenflang.parse("declare input x [5, 2, 2]\ndeclare output v\ndeclare output w\n"
                             "define v = lrn x 5\ndefine w = lrn x 5 0.0001 0.75 1\n")
    x = data((5, 2, 2)) * 100            # large enough for alpha = 1e-4 to matter
    got = tenflang.run_plan(tenflang.make_plan(program, {"x"}, ["v", "w"]), {"x": x})
    np.testing.assert_array_equal(got["v"], got["w"])
    np.testing.assert_allclose(got["v"], by_loops(x, 5, 1e-4, 0.75, 1.0), rtol=1e-12)
    assert not np.allclose(got["v"], x)


@pytest.mark.parametrize("case", CASES)
def test_lrn_and_its_gradient_are_torch(case):
    torch = pytest.importorskip("torch", reason="PyTorch is a second reference for lrn")
    shape, n, alpha, beta, k = case
    x = data(shape)
    tx = torch.from_numpy(x).requires_grad_()
    layer = torch.nn.LocalResponseNorm(n, alpha, beta, k)
    out = layer(tx.unsqueeze(-1) if len(shape) < 2 else tx)
    out = out.squeeze(-1) if len(shape) < 2 else out
    np.testing.assert_allclose(response_norm.lrn(np, x, n, alpha, beta, k),
                               out.detach().numpy(), rtol=1e-12)
