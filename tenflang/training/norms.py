"""Finiteness and norms of weights and gradients, taken where they live (numpy
or the GPU) and copied to the host as one small array per step (none on the
host).

A finite sum of squares proves an array finite with one dot product (BLAS, no
temporary): squares cannot cancel, so one inf or NaN makes the sum non-finite.
An array is looked at element by element only when that sum is not finite.
"""
from __future__ import annotations

import math

import numpy as np

from tenflang.interp.device import to_host


def weights_finite(weights: dict, xp) -> bool:
    """Whether every weight is finite (one copy from the device for all of them).
    A finite sum of the weights' squares proves it with one dot product each;
    only a non-finite one (a NaN or inf, or finite weights whose squares
    overflow) is looked at element by element."""
    if xp is np:        # summed as Python floats: nothing to warn, no errstate to enter
        total = sum([float(np.vdot(w, w)) for w in weights.values()])
    else:
        total = float(to_host(squared_norm(weights, xp)))
    if math.isfinite(total):
        return True
    return bool(to_host(xp.stack([xp.isfinite(w).all() for w in weights.values()])).all())


def squared_norm(grads: dict, xp):
    """Σ g² over every gradient, where the gradients are (one dot product each,
    no temporaries)."""
    return sum([xp.vdot(g, g) for g in grads.values()])


def gradient_norm(grads: dict, xp) -> float:
    """The L2 norm of the gradient over all weights (one copy from the device)."""
    return math.sqrt(float(to_host(squared_norm(grads, xp))))


def loss_and_norm(loss, grads: dict, xp) -> tuple[float, float]:
    """The loss and the gradient's L2 norm over all weights, as floats: both are
    computed where the gradient is and cross to the host in one copy (the
    loss in the norm's dtype, on the host as on the device)."""
    if isinstance(loss, float):         # a loss already on the host (a Dask run)
        return loss, gradient_norm(grads, xp)
    square = xp.asarray(squared_norm(grads, xp))
    if xp is np:                        # no copy to make
        return float(np.asarray(loss, dtype=square.dtype)), math.sqrt(float(square))
    both = to_host(xp.stack([xp.asarray(loss, dtype=square.dtype), square]))
    return float(both[0]), math.sqrt(float(both[1]))
