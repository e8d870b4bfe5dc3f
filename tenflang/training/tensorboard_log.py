"""TensorBoard event files of a run, written with tensorboardX (the
optional extra `tenflang[tensorboard]`; no TensorFlow).

    train(gcp, data, config, hooks=TensorBoard("runs/lenet", config))
    train(gcp, data, config, hooks=TensorBoard("runs/lenet", config,
                                               metrics=validation_metrics(shape, data, config)))

Tags (`tensorboard --logdir DIR` shows them; docs/guide/commands.md §5.2):

* per iteration: `train/loss` (the batch's mean loss), `train/lr` (the
  step's learning rate);
* per epoch, at the iteration that ends it: `epoch/loss` (the mean over the
  epoch), `epoch/val_loss` and `epoch/val_<output>` (the validation mean of
  every scalar output) with a validation split, `epoch/grad_norm` (the
  last step's L2 norm over all weights' gradients), and the histograms
  `weights/<name>` and `gradients/<name>` of every weight;
* the run's settings (TrainConfig's fields, those not None) as
  hyperparameters, with `epoch/loss` and `epoch/val_loss` as their metrics.

Events are written in the run's own thread (`EventLog`) and flushed every
`FLUSH` seconds, so a run can be watched live, and when the run ends;
`close()` ends the file of a run that failed.  A log that cannot be written
(a full disk) stops the run as a checkpoint that cannot be written does
(`Interrupted`: the weights are kept, the message says where).
"""
from __future__ import annotations

import dataclasses
import os
import time

import numpy as np

from tenflang.base.errors import TenflangError
from tenflang.interp.device import to_host
from .hooks import Hooks
from .state import Interrupted
from .watch import Figures

FLUSH = 2        # seconds between flushes of the event file
HPARAM_TYPES = (bool, int, float, str)


def require() -> None:
    """A TenflangError saying what to install when tensorboardX is missing."""
    try:
        import tensorboardX  # noqa: F401
    except ImportError:
        raise TenflangError("--logdir needs tensorboardX, which is not installed; "
                            "pip install 'tenflang[tensorboard]' (and tensorboard to view "
                            "the logs)") from None


class EventLog:
    """One event file of `logdir`, written in the caller's thread.  tensorboardX's
    SummaryWriter writes from a thread of its own: when that thread died of a full
    disk, the run blocked for ever on its full queue, deaf to Ctrl-C."""

    def __init__(self, logdir: str):
        require()
        from tensorboardX.event_file_writer import EventsWriter
        self.logdir = logdir
        try:
            os.makedirs(logdir, exist_ok=True)
            self.events = EventsWriter(os.path.join(logdir, "events"))
        except OSError as err:
            raise TenflangError(f"cannot write TensorBoard logs to {logdir}: "
                                f"{err.strerror or err}") from None
        self.flushed = time.monotonic()

    def add(self, summary, step: int | None = None) -> None:
        """Append a tensorboardX `Summary`; flush when `FLUSH` seconds have passed."""
        from tensorboardX.proto.event_pb2 import Event
        event = Event(summary=summary, wall_time=time.time())
        if step is not None:
            event.step = int(step)
        self.events.write_event(event)
        if time.monotonic() - self.flushed >= FLUSH:
            self.events.flush()
            self.flushed = time.monotonic()

    def close(self) -> None:
        self.events.close()


def default_bins() -> list[float]:
    """TensorBoard's histogram buckets, made as tensorboardX's SummaryWriter
    makes them (±1e-12 · 1.1^k below 1e20, and 0)."""
    buckets, v = [], 1e-12
    while v < 1e20:
        buckets.append(v)
        v *= 1.1
    return [-b for b in reversed(buckets)] + [0.0] + buckets


BINS = default_bins()


def hparams(config) -> dict:
    """TrainConfig's settings as TensorBoard hyperparameters (a tuple as text)."""
    out = {}
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if isinstance(value, (tuple, list)):
            value = ",".join(map(str, value))
        if isinstance(value, HPARAM_TYPES) and value != "":
            out[f.name] = value
    return out


class TensorBoard(Hooks):
    """Writes the run's events to `logdir` (see the module docstring): the
    run's `config`; `metrics` as `watch.validation_metrics` makes them, or
    `figures`, a `watch.Figures` another hook shares (then that one is
    called as a hook, not this one's)."""

    def __init__(self, logdir: str, config, metrics=None, figures: Figures | None = None):
        self.own = figures is None
        self.figures = figures or Figures(config, metrics)
        self.config = config
        names = getattr(self.figures.metrics, "names", ())
        self.metrics = ["epoch/loss"] + (["epoch/val_loss"] if config.val_fraction else []) + \
            [f"epoch/val_{n}" for n in names]
        self.gradients = None
        self.log = EventLog(logdir)

    def on_start(self, state):
        if self.own:
            self.figures.on_start(state)
        from tensorboardX.summary import hparams as hparam_summaries
        exp, ssi, _ = hparam_summaries(hparams(self.config), {m: 0.0 for m in self.metrics})
        self.write(state, [(exp, None), (ssi, None)])

    def on_step(self, state, step):
        if self.own:
            self.figures.on_step(state, step)
        from tensorboardX.summary import scalar
        first = step.iteration - step.steps
        losses = [(scalar("train/loss", loss), first + k + 1)
                  for k, loss in enumerate(state.history[-step.steps:])]
        self.write(state, losses + [(scalar("train/lr", step.lr), step.iteration)])
        self.gradients = step.gradients

    def on_epoch(self, state, info):
        from tensorboardX.summary import histogram, scalar
        e = self.figures.of(state, info)
        scalars = {"epoch/loss": e.loss, "epoch/grad_norm": e.grad_norm}
        if e.val_loss is not None:
            scalars["epoch/val_loss"] = e.val_loss
        scalars |= {f"epoch/val_{name}": value for name, value in e.metrics.items()}
        summaries = [(scalar(tag, value), e.iteration) for tag, value in scalars.items()]
        for kind, arrays in (("weights", state.weights), ("gradients", self.gradients or {})):
            summaries += [(histogram(f"{kind}/{name}", np.asarray(to_host(array)), BINS),
                           e.iteration) for name, array in arrays.items()]
        self.write(state, summaries)

    def on_end(self, result):
        self.close()

    def write(self, state, summaries: list) -> None:
        """Append (summary, step) pairs; a failure stops the run, keeping its weights."""
        if self.log is None:
            return
        try:
            for summary, step in summaries:
                self.log.add(summary, step)
        except OSError as err:
            logdir, self.log = self.log.logdir, None        # written no more, nor closed
            raise Interrupted(f"cannot write TensorBoard logs to {logdir}: "
                              f"{err.strerror or err}; training stopped at iteration "
                              f"{state.iteration}", state) from None

    def close(self):
        """End the session (the hyperparameters' status) and the event file."""
        if self.log is None:
            return
        from tensorboardX.summary import hparams as hparam_summaries
        _, _, sei = hparam_summaries(hparams(self.config), {})
        log, self.log = self.log, None
        try:
            log.add(sei)
            log.close()
        except OSError:
            pass        # a log failing at the end costs its last events, not the run
