"""Where a training step's gradient comes from: a gradient source.

    train(gcp, data, config, LocalGradients(choose_engine("auto")))   # this process
    train(gcp, dataset, config, ClusterGradients(client))             # a Dask cluster

A source is opened once per run, `with source.open(gcp, sig, data, config,
hooks, state) as descent:`, and gives the loop a `Descent`:

* `rows(iteration)`: the batch of that iteration, indices into the training
  examples (None: every example, or drawn chunk by chunk on a cluster);
* `gradient(weights, iteration, rows) -> (mean gradient by weight, mean
  loss)` over that batch — a source that changes what a step computes per
  example (dropout keyed by each example's index) has both in hand;
* `validate(weights, statistics) -> mean loss` over the validation split (None
  without), in evaluation mode with `statistics`, the population values of
  the batch statistics at `weights` (`State.current_statistics`);
* `population(weights)`: the values of the GCP's batch statistics kept with
  `weights` (docs/design.md §2.3.2): their population values over the
  training examples (interp/runtime/population.py) or, with
  `TrainConfig.statistics` "running" (a local run's default), the running
  averages the steps keep (training/running_statistics.py);
* `epoch_iterations`, `train_count` (the training examples), and `xp`, the
  array module the weights live on;
* `local_round(state)`, with local steps on a cluster only (see
  tenflang.distributed.descent).

The local source checks the data here, once, where training reads it: an
`Examples` read from a file against the GCP with its file's lines in the
messages (and the indices `one_hot` and `take` read), anything else as
`tenflang.interp.runtime.arguments.check_data` checks what a Python caller passes.
"""
from __future__ import annotations

import contextlib
import functools
from typing import Callable

import numpy as np

from tenflang.base.frozen import mutable
from tenflang.base.dtypes import check_data_fits
from tenflang.data.examples import Examples, first_nonfinite
from tenflang.base.errors import TenflangError
from tenflang.lang.checks import check
from tenflang.ops.forwards import renumbered
from tenflang.interp import make_plan
from tenflang.interp.runtime.arguments import check_data
from tenflang.interp.device import to_host
from tenflang.interp.engine import Engine
from tenflang.interp.runtime import native_run
from tenflang.interp.runtime.memory import Buffers
from tenflang.interp.runtime.population import check_statistics, population, statistic_names
from tenflang.ops.modes import EVALUATION, Mode
from tenflang.ops.entries import Reduction
from .native_train import fused_step
from .running_statistics import RunningStatistics, running_population
from .sampling import batch_indices, split


@mutable(eq=False)        # holds functions: compared by identity
class Descent:
    """What an opened gradient source gives the loop (see the module docstring)."""
    gradient: Callable
    rows: Callable
    xp: object
    epoch_iterations: int = 1
    validate: Callable | None = None
    local_round: Callable | None = None
    population: Callable | None = None
    train_count: int | None = None          # the training examples (None: not known)
    # `step(state, rows, lr) -> (status, loss, norm, gradients)`: the whole step as one
    # C call (training/native_train.py), or None
    step: Callable | None = None


def to_device(arrays: dict, xp, dtype, copy: bool = False) -> dict:
    """The arrays on the device in `dtype`; `copy` always makes new ones (weights
    are updated in place, never the caller's), else data is shared when it can be."""
    move = xp.array if copy else xp.asarray
    return {n: move(np.asarray(a), dtype=dtype) for n, a in arrays.items()}


def gradient_plan(gcp, sig, statistics: tuple = ()):
    """The GCP planned with every data variable and weight bound, reporting the
    weight gradients and the losses (what one training step needs), and the
    batch's values of the batch `statistics` (for their running averages)."""
    return make_plan(gcp, set(sig.inputs) | set(sig.weights),
                     list(sig.gradients.values()) + list(sig.losses) + list(statistics))


def checked_examples(data, sig, dtype="float64") -> dict:
    """The arrays of `data`, checked against the GCP's data variables once,
    and within `dtype`'s range."""
    if isinstance(data, Examples):
        data.validate(sig.inputs, required=set(sig.inputs))
        data.check_indices(sig.indices)
        data.check_fits(dtype)
        return data.arrays
    arrays = check_data(dict(getattr(data, "arrays", data)), sig.inputs, sig.inputs)
    if arrays and not len(next(iter(arrays.values()))):
        raise TenflangError("no examples: the data holds 0 examples (training needs one or more)")
    bad = first_nonfinite(arrays)
    if bad:
        k, name, value = bad
        raise TenflangError(f"data '{name}' is {value!r} in example {k} (0-based); NaN and "
                            "infinity are rejected, as tfweightcalc rejects them without "
                            "--allow-nan (to train on them, pass load_examples(path, "
                            "allow_nan=True))")
    check_data_fits(arrays, dtype)
    return arrays


def epoch_iterations(n_train: int, batch_size: int | None) -> int:
    """Steps per pass over the training examples (1 for full batch)."""
    return 1 if not batch_size or batch_size >= n_train else -(-n_train // batch_size)


class LocalGradients:
    """The gradient computed in this process by `engine` (numpy or a GPU);
    `batches(iteration)`, when given, picks each iteration's rows instead of
    the epoch order (`tenflang.training.sampling.global_batch` reproduces a
    distributed run's)."""

    def __init__(self, engine: Engine | None = None, batches: Callable | None = None):
        self.engine, self.batches = engine or Engine(), batches

    @property
    def xp(self):
        return self.engine.xp

    @contextlib.contextmanager
    def open(self, gcp, sig, data, cfg, hooks=None, state=None):
        examples = checked_examples(data, sig, cfg.dtype)
        n = len(next(iter(examples.values()))) if examples else 1
        train_idx, val_idx = split(n, cfg.val_fraction, cfg.seed)
        rows = train_idx if len(val_idx) else slice(None)
        on_device = to_device({k: np.asarray(v)[rows] for k, v in examples.items()}, self.xp,
                              cfg.dtype)
        validate = self.validation(gcp, sig, examples, val_idx, cfg) if len(val_idx) else None
        original = train_idx if len(val_idx) else None      # training row -> data row
        exact = functools.partial(population, gcp, on_device, xp=self.xp, dtype=cfg.dtype)
        running = self.running(gcp, cfg, state)
        statistics = tuple(sorted(statistic_names(gcp))) if running else ()
        plan = gradient_plan(gcp, sig, statistics)
        with native_run.expecting(cfg.max_iters):     # what a native step's compile would pay for
            fused = fused_step(plan, sig, cfg, on_device) if self.xp is np and not running \
                else None
            yield Descent(self.gradient(plan, statistics, sig, on_device, cfg, original, running),
                          self.rows_of(len(train_idx), cfg),
                          self.xp, epoch_iterations(len(train_idx), cfg.batch_size), validate,
                          population=running_population(running, state, exact) if running
                          else exact, train_count=len(train_idx), step=fused)

    def running(self, gcp, cfg, state) -> RunningStatistics | None:
        """The running averages of the batch statistics (None: exact values, or
        none to keep), from those a resumed `state` holds (not one that is not
        finite, a diverged run's: it starts afresh)."""
        names = statistic_names(gcp)
        if cfg.statistics == "exact" or not names:
            return None
        saved = {k: v for k, v in (state.statistics if state else {}).items()
                 if k in names and np.isfinite(v).all()}
        if saved:                # a checkpoint's: their shapes checked (a full shape pass)
            saved = check_statistics(gcp, saved, check(gcp))
        return RunningStatistics(cfg.statistics_momentum, to_device(saved, self.xp, cfg.dtype,
                                                                    copy=True))

    def rows_of(self, n: int, cfg) -> Callable:
        if self.batches:
            return self.batches
        return lambda iteration: batch_indices(n, cfg.batch_size, cfg.seed, iteration, self.xp)

    def gradient(self, plan, statistics: tuple, sig, data: dict, cfg, original=None,
                 running: RunningStatistics | None = None) -> Callable:
        """`gradient(weights, iteration, rows)` of `plan` (`gradient_plan`'s, with
        the batch `statistics`) over the training examples `data` (`original`:
        each one's row in the data file, where a split moved them), updating
        the `running` averages of the batch statistics."""
        engine, xp = self.engine, self.xp
        buffers = Buffers()      # the step's intermediates: made once per batch shape

        def data_row(k: int, rows) -> int:     # a batch position, as the data file numbers it
            k = k if rows is None else int(to_host(xp.asarray(rows)[k]))
            return k if original is None else int(original[k])

        def gradient(weights: dict, iteration: int, rows):
            # take: the rows fancy indexing gathers, in a third of its time on a small batch
            batch = data if rows is None else {k: v.take(xp.asarray(rows), axis=0)
                                               for k, v in data.items()}
            # dropout keyed by each example's index among the training examples; the
            # indices stay where they are (on the device: no copy back per step)
            mode = Mode(seed=cfg.seed, iteration=iteration, rows=rows)
            try:
                values = engine.run(plan, {**batch, **weights}, dtype=cfg.dtype,
                                    reduce=Reduction.MEAN, mode=mode, buffers=buffers)
            except TenflangError as err:      # an index computed from the data: name its row
                raise renumbered(err, functools.partial(data_row, rows=rows)) from None
            if running:
                running.update({name: values[name] for name in statistics}, xp)
            # the loss stays on the device: the loop copies it back with the gradient norm
            return ({w: values[g] for w, g in sig.gradients.items()},
                    sum(values[name] for name in sig.losses))
        return gradient

    def validation(self, gcp, sig, examples: dict, rows, cfg) -> Callable:
        """`validate(weights, statistics) -> mean loss` over the validation `rows`
        (module docstring)."""
        plan = make_plan(gcp, set(sig.inputs) | set(sig.weights) | statistic_names(gcp),
                         list(sig.losses))
        data = to_device({k: np.asarray(v)[rows] for k, v in examples.items()}, self.xp,
                         cfg.dtype)

        def validate(weights: dict, statistics: dict) -> float:
            try:
                values = self.engine.run(plan, {**data, **weights, **statistics},
                                         dtype=cfg.dtype, reduce=Reduction.MEAN, mode=EVALUATION)
            except TenflangError as err:      # an index computed from the data: name its row
                raise renumbered(err, lambda k: rows[k]) from None
            return sum(float(v) for v in values.values())
        return validate
