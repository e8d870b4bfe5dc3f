"""ONNX for the erf family: `erf`, `gelu`, `gelu_deriv` (docs/design.md §2.3.2).

A float32 model uses ONNX's `Erf`.  onnxruntime has no float64 `Erf`, so a
float64 model computes it from a series of positive terms (Abramowitz and
Stegun, "Handbook of Mathematical Functions", 7.1.6):

    erf(x) = (2/√π) x e^(-x²) Σ_n (2x²)^n / (1·3·5···(2n+1))

Its terms never cancel, so `TERMS` of them give erf to about 1e-15 on
|x| ≤ `LIMIT`; beyond it erf is ±1 in float64, so x is clipped there first.
The powers are one `Pow` (the exponents 0, 1, … along a new last axis) and
the sum one `MatMul` with the coefficients: five nodes more than `Erf`.
GELU is ½ a (1 + erf(a/√2)), as PyTorch writes it.
"""
from __future__ import annotations

import math

import numpy as np

from .graph_builder import Builder, Value
from .onnx_conv import native

TERMS = 111
LIMIT = 6.0
TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


def coefficients(count: int) -> np.ndarray:
    """1 / (1·3·5···(2n+1)) for n < count."""
    return 1 / np.cumprod(np.arange(1, 2 * count, 2, dtype=np.float64))


def erf_of(b: Builder, name: str) -> str:
    if native(b):
        return b.node("Erf", [name])
    x = b.node("Clip", [name, b.literal(-LIMIT), b.literal(LIMIT)])
    square = b.node("Mul", [x, x])
    base = b.node("Unsqueeze", [b.node("Mul", [square, b.literal(2)]), b.ints([-1])])
    exponents = b.initializer("erf exponents", np.arange(TERMS, dtype=b.dtype))
    series = b.node("MatMul", [b.node("Pow", [base, exponents]),
                               b.initializer("erf coefficients", coefficients(TERMS))])
    scale = b.node("Mul", [x, b.node("Exp", [b.node("Neg", [square])])])
    return b.node("Mul", [b.node("Mul", [series, scale]), b.literal(TWO_OVER_SQRT_PI)])


def erf(b: Builder, a: Value) -> str:
    return erf_of(b, a.name)


def normal_cdf(b: Builder, a: Value) -> str:
    """Φ(a) = ½ (1 + erf(a/√2))."""
    inner = erf_of(b, b.node("Mul", [a.name, b.literal(math.sqrt(0.5))]))
    return b.node("Mul", [b.node("Add", [inner, b.literal(1)]), b.literal(0.5)])


def gelu(b: Builder, a: Value) -> str:
    return b.node("Mul", [a.name, normal_cdf(b, a)])


def gelu_deriv(b: Builder, a: Value) -> str:
    """Φ(a) + a φ(a), φ(a) = e^(-a²/2) / √(2π)."""
    square = b.node("Mul", [a.name, a.name])
    density = b.node("Exp", [b.node("Mul", [square, b.literal(-0.5)])])
    density = b.node("Mul", [density, b.literal(1 / math.sqrt(2 * math.pi))])
    return b.node("Add", [normal_cdf(b, a), b.node("Mul", [a.name, density])])


__all__ = ["erf", "gelu", "gelu_deriv"]
