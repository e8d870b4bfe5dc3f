"""TensorBoard event files of a run, written with tensorboardX (the
optional extra `tenflang[tensorboard]`; no TensorFlow).

    train(gcp, data, config, hooks=TensorBoard("runs/lenet", config))
    train(gcp, data, config, hooks=TensorBoard("runs/lenet", config,
                                               metrics=validation_metrics(shape, data, config)))

Tags (`tensorboard --logdir DIR` shows them; docs/guide.md §5.2):

* per iteration: `train/loss` (the batch's mean loss), `train/lr` (the
  step's learning rate);
* per epoch, at the iteration that ends it: `epoch/loss` (the mean over the
  epoch), `epoch/val_loss` and `epoch/val_<output>` (the validation mean of
  every scalar output) with a validation split, `epoch/grad_norm` (the
  last step's L2 norm over all weights' gradients), and the histograms
  `weights/<name>` and `gradients/<name>` of every weight;
* the run's settings (TrainConfig's fields, those not None) as
  hyperparameters, with `epoch/loss` and `epoch/val_loss` as their metrics.

Events are flushed every `FLUSH` seconds, so a run can be watched live, and
when the run ends; `close()` ends the file of a run that failed.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from ..errors import TenflangError
from ..interp.device import to_host
from .hooks import Hooks
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


def summary_writer(logdir: str):
    """A tensorboardX SummaryWriter on `logdir`, or a TenflangError saying why not."""
    require()
    from tensorboardX import SummaryWriter
    try:
        return SummaryWriter(logdir=logdir, flush_secs=FLUSH)
    except OSError as err:
        raise TenflangError(f"cannot write TensorBoard logs to {logdir}: "
                            f"{err.strerror or err}") from None


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
        self.writer = summary_writer(logdir)

    def on_start(self, state):
        if self.own:
            self.figures.on_start(state)
        from tensorboardX.summary import hparams as hparam_summaries
        exp, ssi, _ = hparam_summaries(hparams(self.config), {m: 0.0 for m in self.metrics})
        self.writer.file_writer.add_summary(exp)
        self.writer.file_writer.add_summary(ssi)

    def on_step(self, state, step):
        if self.own:
            self.figures.on_step(state, step)
        first = step.iteration - step.steps
        for k, loss in enumerate(state.history[-step.steps:]):
            self.writer.add_scalar("train/loss", loss, first + k + 1)
        self.writer.add_scalar("train/lr", step.lr, step.iteration)
        self.gradients = step.gradients

    def on_epoch(self, state, info):
        e = self.figures.of(state, info)
        scalars = {"epoch/loss": e.loss, "epoch/grad_norm": e.grad_norm}
        if e.val_loss is not None:
            scalars["epoch/val_loss"] = e.val_loss
        scalars |= {f"epoch/val_{name}": value for name, value in e.metrics.items()}
        for tag, value in scalars.items():
            self.writer.add_scalar(tag, value, e.iteration)
        for kind, arrays in (("weights", state.weights), ("gradients", self.gradients or {})):
            for name, array in arrays.items():
                self.writer.add_histogram(f"{kind}/{name}", np.asarray(to_host(array)),
                                          e.iteration)

    def on_end(self, result):
        self.close()

    def close(self):
        """End the session (the hyperparameters' status) and the event file."""
        if self.writer is None:
            return
        from tensorboardX.summary import hparams as hparam_summaries
        _, _, sei = hparam_summaries(hparams(self.config), {})
        self.writer.file_writer.add_summary(sei)
        self.writer.close()
        self.writer = None
