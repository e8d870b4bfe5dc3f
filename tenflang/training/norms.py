"""Finiteness and norms of weights and gradients, taken where they live (numpy
or the GPU) and copied to the host as one small array per step.

A finite sum proves an array finite with one reduction and no temporary; an
array is looked at element by element only when its sum is not finite.
"""
from __future__ import annotations

import math

import numpy as np

from ..interp.device import to_host


def weights_finite(weights: dict, xp) -> bool:
    """Whether every weight is finite (one copy from the device for all of them).
    A finite sum of all the weights proves it with one reduction each and no
    temporaries; only a non-finite sum (a NaN or inf, or finite weights whose
    sum overflows) is looked at element by element."""
    with np.errstate(over="ignore", invalid="ignore"):
        if math.isfinite(float(to_host(sum(w.sum() for w in weights.values())))):
            return True
    return bool(to_host(xp.stack([xp.isfinite(w).all() for w in weights.values()])).all())


def squared_norm(grads: dict, xp):
    """Σ g² over every gradient, where the gradients are (one dot product each,
    no temporaries)."""
    return sum(xp.vdot(g, g) for g in grads.values())


def gradient_norm(grads: dict, xp) -> float:
    """The L2 norm of the gradient over all weights (one copy from the device)."""
    return math.sqrt(float(to_host(squared_norm(grads, xp))))


def loss_and_norm(loss, grads: dict, xp) -> tuple[float, float]:
    """The loss and the gradient's L2 norm over all weights, as floats: both are
    computed where the gradient is and cross to the host in one copy."""
    if isinstance(loss, float):         # a loss already on the host (a Dask run)
        return loss, gradient_norm(grads, xp)
    square = xp.asarray(squared_norm(grads, xp))
    both = to_host(xp.stack([xp.asarray(loss, dtype=square.dtype), square]))
    return float(both[0]), math.sqrt(float(both[1]))
