"""Local response normalisation (docs/design.md §2.3.3): `lrn x n [alpha [beta [k]]]`
and the channel window sum `channel_sum x n front` its derivative is written with.

Conventions are tenflang/ops/forwards.py's (`f(xp, *operands, *attrs)`, a leading
example axis) and tenflang/ops/shapes.py's.  The channels are the first
per-example axis (an image `[C, H, W]`, a vector `[C]`), so axis 1 of an array.

* `channel_sum x n front`: v[c] = Σ_{t=0}^{n-1} x[c - front + t], the channels
  outside 0..C-1 counted as zeros: a window of n channels starting `front`
  channels before c.  It is linear; its adjoint is the same sum with the
  window mirrored, `channel_sum g n (n - 1 - front)` (x[j] is in the window of
  c exactly when c is in the mirrored window of j).
* `lrn x n alpha beta k` is PyTorch's `nn.LocalResponseNorm(n, alpha, beta, k)`
  (Caffe's ACROSS_CHANNELS): v = x / d^β with d = k + (α/n) S and
  S = `channel_sum (x²) n ⌊n/2⌋` (PyTorch pads ⌊n/2⌋ channels in front and
  ⌊(n-1)/2⌋ behind, then averages n of them; ONNX's `LRN` centres an even
  window one channel later, so an even n is exported without it).
* Its derivative, by hand: ∂v_c/∂x_j = δ_cj d_c^-β − β x_c d_c^(-β-1) (α/n) 2x_j
  [j in the window of c], so the adjoint of x is

      g·d^-β − (2αβ/n)·x·Σ_{c: j in the window of c} (g·v/d)_c
    = g·d^-β − (2αβ/n)·x·channel_sum (g·v/d) n (n − 1 − ⌊n/2⌋)

  (x_c d_c^(-β-1) = v_c/d_c), written in TenFlang by `lrn_rules`: d appears
  twice there and the compiler shares it, so a GCP shows d once, then the
  two terms.  Both `channel_sum`s are ops with derivative rules, so a GCP
  re-compiles (second derivatives).
* Speed: one whole-batch add per window offset (n, LRN's 5), never a loop
  over examples, pixels or channels.
"""
from __future__ import annotations

from .entries import linear
from .shapes import Shape, mismatch

DEFAULTS = (1e-4, 0.75, 1.0)      # alpha, beta, k: PyTorch's and Caffe's


def channel_sum(xp, a, n: int, front: int):
    """v[:, c] = Σ_{t<n} a[:, c - front + t] (zeros outside the channels): one
    add per offset s = t - front that reaches a channel."""
    c = a.shape[1]
    out = xp.zeros_like(a)
    for s in range(-front, n - front):
        if abs(s) < c:
            out[:, max(0, -s):c - max(0, s)] += a[:, max(0, s):c - max(0, -s)]
    return out


def lrn(xp, a, n: int, alpha: float = DEFAULTS[0], beta: float = DEFAULTS[1],
        k: float = DEFAULTS[2]):
    """a / (k + α/n · Σ_window a²)^β, as PyTorch's `local_response_norm`."""
    d = channel_sum(xp, a * a, n, n // 2)
    d *= alpha / n
    d += k
    return a / d ** beta


def channels_of(op: str, a: Shape, attrs: dict) -> Shape:
    if not a:
        raise mismatch(op, (a,), "operand must have rank ≥ 1: its first axis is the "
                       "channels ([C], [C, H, W], ...)", attrs)
    return a


def channel_sum_shape(a: Shape, n: int, front: int) -> Shape:
    attrs = {"n": n, "front": front}
    if front >= n:
        raise mismatch("channel_sum", (a,), f"the window of {n} channel{'s' if n != 1 else ''} "
                       f"cannot start {front} before its channel (need front < n)", attrs)
    return channels_of("channel_sum", a, attrs)


def lrn_shape(a: Shape, n: int, alpha=DEFAULTS[0], beta=DEFAULTS[1], k=DEFAULTS[2]) -> Shape:
    return channels_of("lrn", a, {"n": n})


def channel_sum_rules(a: Shape, n: int, front: int):
    return (linear(f"channel_sum g {n} {n - 1 - front}"),)


def number(value: float) -> str:
    """A coefficient as a rule writes it: 15 significant digits, so that 2αβ/n
    reads 3e-05, not 3.0000000000000004e-05 (and 1.0 reads 1)."""
    value = float(f"{value:.15g}")
    return str(int(value)) if value.is_integer() else repr(value)


def lrn_rules(a: Shape, n: int, alpha: float, beta: float, k: float):
    """The module docstring's adjoint, d = k + (α/n)·channel_sum (a·a) n ⌊n/2⌋."""
    d = f"(add {number(k)} (mul {number(alpha / n)} (channel_sum (mul a a) {n} {n // 2})))"
    first = f"mul g (pow {d} {number(-beta)})"
    second = f"mul (mul {number(2 * alpha * beta / n)} a) (channel_sum (div (mul g v) {d}) " \
             f"{n} {n - 1 - n // 2})"
    return (linear(f"sub ({first}) ({second})"),)
