"""What a training run tells the code around it: one hooks object.

    class Printer(Hooks):
        def on_step(self, state, step):
            print(step.iteration, step.loss)

    train(gcp, data, config, hooks=Printer())
    train(gcp, data, config, hooks=combine(Printer(), Checkpoints(save, every=100)))

`train` calls, in this order:

* `on_start(state)` once, before the first step (the state on the device;
  `state.iteration` > 0 for a resumed run);
* per pass of the loop (one optimizer step; with local steps on a cluster, a
  round of `step.steps` of them): the validation loss when the pass ends an
  epoch and a validation split is held out, `on_validation(state,
  iteration, loss)`; then `on_step(state, step)` with a `StepInfo`; then,
  when the pass ends an epoch, `on_epoch(state, epoch)` with an `EpochInfo`;
  then `should_stop()` — true stops the run with `Interrupted`;
* `on_end(result)` with the `TrainResult` of a run that ended well (one
  that raises `Diverged` or `Interrupted` carries its state in the error).

`state` is the run's live `State` (tenflang.training.state), its arrays on
the run's device: a hook that keeps or writes them takes `host_state(state)`.
`Hooks` does nothing; a hook overrides what it needs, or `Callbacks(on_step=f,
should_stop=g)` makes one from functions.  `combine(a, b, ...)` calls each in
turn (`should_stop` is true when any is).  `Checkpoints(save, every)` saves
the host state every `every` iterations and when early stopping ends a run.
"""
from __future__ import annotations

from typing import Callable

from tenflang.base.frozen import frozen
from tenflang.base.errors import TenflangError
from .state import State, crossed, host_state


@frozen(eq=False)           # holds arrays: compared by identity
class StepInfo:
    iteration: int            # steps taken so far, this pass's included (1 after the first)
    loss: float               # the pass's (last) training loss, mean over its batch
    grad_norm: float          # L2 norm of the gradient over all weights
    lr: float                 # the learning rate of the pass's (last) step
    rows: object = None       # the batch: indices into the training examples (None: all,
    #                           or drawn chunk by chunk on the cluster)
    steps: int = 1            # optimizer steps this pass took (K with --sync-every K)
    val_loss: float | None = None   # when the pass ended an epoch and was validated
    stopping: bool = False    # early stopping ends the run after this pass
    gradients: dict | None = None   # the step's gradient by weight, on the run's device
    #                                 (None for a round of local steps on the cluster)


@frozen
class EpochInfo:
    epoch: int                # epochs completed (1 after the first)
    iteration: int
    loss: float               # the last training loss of the epoch
    val_loss: float | None    # None without a validation split
    epoch_iterations: int = 1  # iterations per epoch (1 for full batch)


class Hooks:
    """The hooks of a run, each doing nothing (see the module docstring)."""

    def on_start(self, state: State) -> None:
        pass

    def on_step(self, state: State, step: StepInfo) -> None:
        pass

    def on_validation(self, state: State, iteration: int, loss: float) -> None:
        pass

    def on_epoch(self, state: State, epoch: EpochInfo) -> None:
        pass

    def should_stop(self) -> bool:
        return False

    def on_end(self, result) -> None:
        pass


class Combined(Hooks):
    """Several hooks objects, called in the order given."""

    def __init__(self, *hooks: Hooks):
        self.hooks = [h for h in hooks if h is not None]

    def on_start(self, state):
        for h in self.hooks:
            h.on_start(state)

    def on_step(self, state, step):
        for h in self.hooks:
            h.on_step(state, step)

    def on_validation(self, state, iteration, loss):
        for h in self.hooks:
            h.on_validation(state, iteration, loss)

    def on_epoch(self, state, epoch):
        for h in self.hooks:
            h.on_epoch(state, epoch)

    def should_stop(self):
        return any(h.should_stop() for h in self.hooks)

    def on_end(self, result):
        for h in self.hooks:
            h.on_end(result)


def combine(*hooks: Hooks | None) -> Hooks:
    """One hooks object calling each of `hooks` (None ones left out)."""
    given = [h for h in hooks if h is not None]
    return given[0] if len(given) == 1 else Combined(*given)


class Checkpoints(Hooks):
    """`save(host_state(state))` after every pass that crosses a multiple of
    `every` iterations, and after the pass early stopping ends the run with;
    the state saved holds the population values of the batch statistics."""

    def __init__(self, save: Callable[[State], None], every: int = 100):
        self.save, self.every = save, every

    def on_step(self, state, step):
        if crossed(step.iteration - step.steps, step.iteration, self.every) or step.stopping:
            self.save(host_state(state, statistics=True))


class Callbacks(Hooks):
    """Hooks from plain functions, by hook name:
    `Callbacks(on_step=lambda state, step: print(step.loss), should_stop=flag)`."""

    def __init__(self, **functions: Callable):
        unknown = sorted(set(functions) - HOOK_NAMES)
        if unknown:
            raise TenflangError(f"unknown hook {unknown[0]!r}; the hooks are: "
                                f"{', '.join(sorted(HOOK_NAMES))}")
        for name, function in functions.items():
            setattr(self, name, function)


HOOK_NAMES = frozenset(n for n in vars(Hooks) if n.startswith("on_") or n == "should_stop")
