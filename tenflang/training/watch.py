"""Watching a run: its figures per epoch, one line per epoch, the final loss.

    train(gcp, data, config, hooks=EpochLines(config))
    figures = Figures(config, metrics=validation_metrics(shape, data, config))
    hooks = combine(figures, EpochLines(figures=figures), TensorBoard(dir, config, figures=figures))

`Figures` is a hook that gathers, once per epoch for every hook that shows
them (`EpochLines`, the TensorBoard log of `tensorboard_log`), an `Epoch`:

* `loss`: the mean training loss over the epoch's iterations (the last
  `epoch_iterations` of the history, so a resumed run reports the figures
  of the run it continues); `grad_norm`: the last step's gradient norm;
* `val_loss` and `metrics`: the validation loss, and the validation mean of
  every scalar output of the program `validation_metrics` was given (an
  accuracy for `define correct = equal (argmax scores) label`);
* `seconds` since the run (or this resumed part of it) started.

`EpochLines` prints an `Epoch` as Keras' `verbose=2` does, one plain line
per epoch.  Only a run of more than `MANY_EPOCHS` epochs (full-batch
training, where every iteration is an epoch) is held to at most one line a
second, so as not to flood a log; its first epoch and its last whole one
(whatever ends the run) always show:

    epoch 3/30 - iteration 30/300 - loss: 0.4321 - val_loss: 0.5012 - val_correct: 0.875 - 1.2 s

`final_loss(history, epoch_iterations)` is the figure the summary line
reports, with the words that say what it is.
"""
from __future__ import annotations

import math
import sys
import time
from dataclasses import field
from typing import Callable

import numpy as np

from tenflang.base.frozen import frozen
from tenflang.interp import make_plan
from tenflang.interp.runtime.population import statistic_names
from tenflang.ops.modes import EVALUATION
from tenflang.base.naming import adjoint
from tenflang.interp.engine import Engine
from .gradients import to_device
from .hooks import Hooks
from .sampling import split

EVERY = 1.0         # seconds between two epoch lines at least, in a run of many epochs
MANY_EPOCHS = 100   # a run of at most this many epochs prints every one


@frozen
class Epoch:
    epoch: int
    epochs: int            # in the whole run: ⌈max_iters / epoch_iterations⌉
    iteration: int
    max_iters: int
    loss: float            # mean training loss over the epoch's iterations
    grad_norm: float       # of the epoch's last step
    val_loss: float | None
    seconds: float
    metrics: dict = field(default_factory=dict)    # output name -> validation mean


class Figures(Hooks):
    """Gathers the figures of each epoch (see the module docstring);
    `metrics(weights, statistics) -> {name: mean}` gives the validation metrics."""

    def __init__(self, config, metrics: Callable | None = None, clock=time.perf_counter):
        self.config, self.metrics, self.clock = config, metrics, clock
        self.started, self.last_step, self.cache = clock(), None, None

    def on_start(self, state):
        self.started = self.clock()

    def on_step(self, state, step):
        self.last_step = step

    def of(self, state, info) -> Epoch:
        """The `Epoch` of the `EpochInfo` `info` (made once, for every hook asking)."""
        if self.cache is None or self.cache.iteration != info.iteration:
            self.cache = self.make(state, info)
        return self.cache

    def make(self, state, info) -> Epoch:
        per_epoch = info.epoch_iterations
        losses = state.history[-per_epoch:]
        metrics = (self.metrics(state.weights, state.current_statistics())
                   if self.metrics and info.val_loss is not None else {})
        return Epoch(info.epoch, math.ceil(self.config.max_iters / per_epoch), info.iteration,
                     self.config.max_iters, float(np.mean(losses)),
                     self.last_step.grad_norm if self.last_step else math.nan, info.val_loss,
                     self.clock() - self.started, metrics)


def epoch_line(e: Epoch) -> str:
    parts = [f"epoch {e.epoch}/{e.epochs}", f"iteration {e.iteration}/{e.max_iters}",
             f"loss: {e.loss:.4g}"]
    if e.val_loss is not None:
        parts.append(f"val_loss: {e.val_loss:.4g}")
    parts += [f"val_{name}: {value:.4g}" for name, value in e.metrics.items()]
    return " - ".join(parts + [f"{e.seconds:.1f} s"])


class EpochLines(Hooks):
    """One line per epoch on `stream` (stderr); in a run of more than
    `many` epochs at most one every `every` seconds, the first and the last
    always; `figures` as for `tensorboard_log.TensorBoard` (this one calls
    them only when it made them)."""

    def __init__(self, config=None, metrics=None, stream=None, every: float = EVERY,
                 figures: Figures | None = None, many: int = MANY_EPOCHS):
        self.own = figures is None
        self.figures = figures or Figures(config, metrics)
        self.stream, self.every, self.many = stream, every, many
        self.shown = None       # the clock of the last line shown
        self.skipped = None     # (state, info) of the last epoch not shown, if the latest
        self.stopping = False   # early stopping ends the run with this epoch

    def on_start(self, state):
        if self.own:
            self.figures.on_start(state)

    def on_step(self, state, step):
        self.stopping = step.stopping
        if self.own:
            self.figures.on_step(state, step)

    def on_epoch(self, state, info):
        now = self.figures.clock()
        if self.held_back(info, now):
            self.skipped = (state, info)
            return
        self.shown, self.skipped = now, None
        self.show(state, info)

    def held_back(self, info, now) -> bool:
        """Whether this epoch's line waits: only in a run of many epochs,
        within `every` seconds of the last line, and not its last epoch."""
        max_iters = self.figures.config.max_iters
        epochs = math.ceil(max_iters / info.epoch_iterations)
        # the last whole epoch (a run may end within the next), or early stopping's
        last = info.iteration + info.epoch_iterations > max_iters or self.stopping
        return (epochs > self.many and self.shown is not None and not last
                and now - self.shown < self.every)

    def on_end(self, result):
        """A run that converged on an epoch whose line waited shows it now:
        the last epoch always shows."""
        if self.skipped and self.skipped[1].iteration == result.iterations:
            self.show(*self.skipped)
        self.skipped = None

    def show(self, state, info):
        print(epoch_line(self.figures.of(state, info)), file=self.stream or sys.stderr,
              flush=True)


def validation_metrics(program, examples, config, engine: Engine | None = None):
    """`metrics(weights, statistics) -> {output: mean over the validation
    examples}` for every scalar output of `program` (a shape program, or a
    GCP: its gradient outputs left out), or None without a validation split
    or without such outputs.  As the validation loss, they are taken in
    evaluation mode, `statistics` the population values of the batch
    statistics at `weights` (training/gradients.py)."""
    examples = getattr(examples, "arrays", examples)      # an `Examples` read from a file
    decls, names = program.declarations(), metric_names(program)
    n = len(next(iter(examples.values()))) if examples else 0
    _, rows = split(n, config.val_fraction, config.seed)
    if not names or not len(rows):
        return None
    engine = engine or Engine()
    bound = {n for n, d in decls.items() if d.kind in ("input", "exp_output", "weight")}
    plan = make_plan(program, bound | statistic_names(program), names)
    data = to_device({k: np.asarray(v)[rows] for k, v in examples.items() if k in bound},
                     engine.xp, config.dtype)

    def metrics(weights: dict, statistics: dict) -> dict:
        values = engine.run(plan, {**data, **{k: w for k, w in weights.items() if k in bound},
                                   **statistics},
                            dtype=config.dtype, reduce="mean", mode=EVALUATION)
        return {name: float(values[name]) for name in names}
    metrics.names = names
    return metrics


def metric_names(program) -> list[str]:
    """The scalar outputs whose validation means an epoch line shows, in
    declaration order: a GCP's gradient outputs are not among them."""
    decls = program.declarations()
    gradients = {adjoint(n) for n, d in decls.items() if d.kind == "weight"}
    return [n for n, d in decls.items() if d.kind == "output" and not d.shape
            and n not in gradients]


def final_loss(history: list, epoch_iterations: int) -> tuple[float, str]:
    """(the loss a summary reports, what it is): the mean training loss over
    the last whole epoch (the last epoch line's and TensorBoard's figure; a run
    that ends within an epoch does not mix two), which for full-batch training
    is the last iteration's loss on the whole training set; the mean over the
    run when it is shorter than an epoch."""
    if not history:
        return math.nan, "no iteration"
    if epoch_iterations == 1:
        return float(history[-1]), "the training set's, at the last iteration"
    whole = len(history) // epoch_iterations * epoch_iterations
    if not whole:
        return float(np.mean(history)), f"the mean over the run, {len(history)} iterations"
    last = history[whole - epoch_iterations:whole]
    what = "the last epoch" if whole == len(history) else "the last whole epoch"
    return float(np.mean(last)), f"the mean over {what}, {len(last)} iterations"
