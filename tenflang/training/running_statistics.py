"""Running averages of the batch statistics, as PyTorch's BatchNorm keeps them
(docs/design.md §2.3.2; `TrainConfig.statistics` "running").

    running = RunningStatistics(momentum)
    running.update(batch_values, xp)          # after each gradient run
    population = running_population(running, state, exact)

Each gradient run of a training step reports the values its `batch_mean`
lines took on its batch (in training mode: each from the batch's values of
the ones below it, as the step saw them); `update` moves each average toward
them by `momentum`, r ← (1 − m)·r + m·b, and takes the first step's as they
are (PyTorch starts a mean at 0 and a variance at 1: a `batch_mean` line has
no such prior).  A run whose values are not finite moves nothing (it is
diverging: the weights it keeps are the last good ones).  The averages cost
a few additions per step: no pass over the data.

`running_population` is the run's `population(weights)`: the running
averages at the run's current weights (`state.weights`, or a copy equal to
them); for any other weights (the best ones --patience keeps, a run that took
no step yet) the averages say nothing, and the exact pass (`exact`,
interp/runtime/population.py) gives their values.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from tenflang.interp.device import to_host
from .norms import weights_finite


class RunningStatistics:
    """The running averages, by statistic name, on the run's device."""

    def __init__(self, momentum: float, start: dict | None = None):
        self.momentum, self.values = momentum, dict(start or {})

    def update(self, batch: dict, xp) -> None:
        if not weights_finite(batch, xp):      # one copy from the device for them all
            return
        for name, value in batch.items():
            if name not in self.values:
                self.values[name] = xp.array(value, copy=True)
                continue
            average = self.values[name]
            average *= 1 - self.momentum
            average += self.momentum * value


def same_weights(weights: dict, current: dict) -> bool:
    """Whether `weights` are `current` or equal copies of them (a host copy)."""
    if weights is current:
        return True
    return weights.keys() == current.keys() and all(
        np.array_equal(np.asarray(to_host(current[k])), np.asarray(to_host(weights[k])))
        for k in weights)


def running_population(running: RunningStatistics, state, exact: Callable) -> Callable:
    """`population(weights)` of a run keeping `running` (module docstring):
    copies, so that what a checkpoint saved stays as it was."""
    def population(weights: dict) -> dict:
        if state is None or not running.values or not same_weights(weights, state.weights):
            return exact(weights)
        return {name: value.copy() for name, value in running.values.items()}
    return population
