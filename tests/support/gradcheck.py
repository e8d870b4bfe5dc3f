"""Finite-difference gradient checking, autograd's `check_grads` style.

`check_gradients(source, data, weights)` compiles the shape program at -O0
and -O1, runs each GCP on the batch, and compares every `d/dw` (averaged over
the examples) with central differences of the mean objective in float64.
"""
from __future__ import annotations

import numpy as np

import tenflang
from tenflang.backprop import adjoint, compile_gradient
from tenflang.interp import make_plan, run_plan


def objective(program, data: dict, weights: dict) -> float:
    plan = make_plan(program, set(data) | set(weights),
                     [d.name for d in program.declarations().values() if d.kind == "loss"])
    values = run_plan(plan, {**data, **weights}, reduce="mean")
    return float(sum(values.values()))


def numerical_gradient(program, data, weights, name, eps=1e-6) -> np.ndarray:
    w = np.array(weights[name], dtype=float)
    grad = np.zeros_like(w)
    for index in np.ndindex(w.shape):
        shifted = []
        for sign in (1, -1):
            moved = w.copy()
            moved[index] += sign * eps
            shifted.append(objective(program, data, {**weights, name: moved}))
        grad[index] = (shifted[0] - shifted[1]) / (2 * eps)
    return grad


def gcp_gradients(program, data, weights, level: int) -> dict:
    gcp = compile_gradient(program, level)
    again = tenflang.parse(tenflang.print_program(gcp))     # the text re-parses
    plan = make_plan(again, set(data) | set(weights), [adjoint(w) for w in weights])
    values = run_plan(plan, {**data, **weights}, reduce="mean")
    return {w: values[adjoint(w)] for w in weights}


def check_gradients(source: str, data: dict, weights: dict, rtol=1e-5, atol=1e-7) -> None:
    program = tenflang.parse(source, "check.tf", shape_program=True)
    for level in (0, 1):
        analytic = gcp_gradients(program, data, weights, level)
        for name in weights:
            expected = numerical_gradient(program, data, weights, name)
            got = np.asarray(analytic[name])
            assert got.shape == np.shape(weights[name]), (level, name, got.shape)
            np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol,
                                       err_msg=f"-O{level} {adjoint(name)}\n{source}")
