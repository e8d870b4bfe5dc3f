"""What a training run holds and returns: its `State` (all a checkpoint
needs to continue it), its `TrainResult`, and the two ways it stops early
with that state: `Diverged` (and `StepFailed`, an error met mid-run, which
is handled the same way) and `Interrupted`.

States live on the run's device while it trains; `host_state` is the copy in
host memory (numpy) that hooks, checkpoints and results receive.
"""
from __future__ import annotations

import math
from dataclasses import field

import numpy as np

from tenflang.base.frozen import mutable
from tenflang.base.errors import RunFailure
from tenflang.interp.device import to_host


@mutable(eq=False)        # holds arrays: compared by identity
class State:
    """Everything a checkpoint holds: enough to continue the same run."""
    weights: dict
    slots: dict = field(default_factory=dict)     # optimizer state, e.g. "m:W1"
    iteration: int = 0
    history: list = field(default_factory=list)   # training loss per iteration
    val_history: list = field(default_factory=list)   # (iteration, validation loss)
    best: dict | None = None     # with patience: the weights of the best evaluation
    grad_norm: float | None = None   # of the last step (a resume with no step left reports it)
    # the values of the batch statistics kept with `weights` (docs/design.md §2.3.2)
    statistics: dict = field(default_factory=dict)
    # `population(weights) -> statistics` of the run (set by `train`; None: none to compute):
    # population values or running averages (TrainConfig.statistics)
    population: object = field(default=None, repr=False, compare=False)

    def current_statistics(self) -> dict:
        """The values of the batch statistics kept for the current weights
        (none for a program without them), as evaluation binds them: what
        the validation loss and metrics are taken with."""
        return {} if self.population is None else self.population(self.weights)

    def best_evaluation(self) -> tuple[int, float] | None:
        """(iteration, validation loss) of the first lowest validation loss; a
        NaN or infinite one is never the best."""
        return min((e for e in self.val_history if math.isfinite(e[1])), key=lambda e: e[1],
                   default=None)


@mutable(eq=False)        # holds arrays: compared by identity
class TrainResult:
    weights: dict
    iterations: int
    loss: float
    grad_norm: float
    reason: str
    seconds: float
    history: list
    val_loss: float | None = None  # of the returned weights
    state: State | None = None     # the final state (host memory), for a checkpoint
    val_history: list = field(default_factory=list)   # (iteration, validation loss)
    best_iteration: int | None = None    # with patience: where the returned weights are from
    epoch_iterations: int = 1      # iterations per pass over the training examples
    warnings: list = field(default_factory=list)     # why the run may not be trusted
    # the batch statistics kept with `weights` (population values or running averages)
    statistics: dict = field(default_factory=dict)


class Diverged(RunFailure):
    def __init__(self, message: str, state: State):
        super().__init__(message)
        self.state = state


class StepFailed(Diverged):
    """A step raised an error after the run had taken steps (a class index
    computed from the weights out of range, out of memory): handled as
    divergence is, the last good weights kept."""


class Interrupted(RunFailure):
    def __init__(self, message: str, state: State):
        super().__init__(message)
        self.state = state


def host_arrays(arrays: dict) -> dict:
    return {k: np.array(to_host(v)) for k, v in arrays.items()}


def host_state(state: State, statistics: bool = False) -> State:
    """A copy of `state` in host memory (numpy), safe to write out; with
    `statistics`, the values of its batch statistics at its weights (for a
    checkpoint: with exact statistics, one forward pass over the training data)."""
    host = host_arrays
    values = state.statistics
    if statistics and state.population is not None:
        values = host(state.population(state.weights))
    return State(host(state.weights), host(state.slots), state.iteration, list(state.history),
                 list(state.val_history), None if state.best is None else host(state.best),
                 state.grad_norm, values)


def crossed(before: int, after: int, period: int) -> bool:
    """Whether going from iteration `before` to `after` passed a multiple of `period`."""
    return after // period > before // period
