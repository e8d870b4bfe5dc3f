"""The Weight Calculation Phase: gradient descent driven by a GCP.

    result = train(gcp, examples, config, gradients=None, hooks=None, *, init=None, resume=None)

    result = train(gcp, examples, TrainConfig(lr=0.5, max_iters=2000))
    result = train(gcp, examples, config, LocalGradients(choose_engine("gpu")),
                   combine(Checkpoints(save, every=100), Callbacks(should_stop=flag)))
    result = train(gcp, dataset, config, ClusterGradients(client, sync_every=4))

This is the one training entry: a local run, a GPU run and a run on a Dask
cluster differ only in their gradient source (tenflang.training.gradients,
tenflang.distributed.descent), which reads and checks the data once and
computes each step's gradient; what the code around a run wants to know
(progress, checkpoints, validation, logging) and whether to stop come
through one hooks object (tenflang.training.hooks).

What training reads from the GCP, and the starting weights, are in
`signature`; the settings (`TrainConfig`) in `config`.  Each iteration runs
the GCP once, batched, on one batch (the whole data set unless `batch_size`
is set) and takes the mean gradient over its examples — the original
design's `avg_gradient`, with no loop over examples — then takes one
optimizer step.  Training stops when the L2 norm of the gradient over
all weights falls below `tol`, after `max_iters` iterations, on divergence
(a non-finite loss or gradient: `Diverged`, the last finite weights kept),
when `hooks.should_stop()` turns true (`Interrupted`), or — with `patience`
— when the validation loss, evaluated after every epoch, has not improved
for `patience` evaluations (the best weights are returned, as Keras'
EarlyStopping with restore_best_weights).  Validation runs in evaluation
mode, as tfevaluate does (Keras and PyTorch's `eval()` alike): dropout off,
the batch statistics at the values the run keeps for the current weights
(`TrainConfig.statistics`: running averages, or population values at one
pass over the training data per epoch, shared with the validation metrics
and a checkpoint of the same iteration: `remembered`).  A run that stops on
a failure keeps its last good weights with their statistics, where these
can be had (`with_kept_statistics`).  The optimizers and
schedules are in `optimizers`; the warnings about untrustworthy runs in
`health`; the state, result and errors in `state`.

Determinism: initial weights come from `seed`; mini-batch order in epoch e is
the permutation drawn from `(seed, e)`, so a run resumed from a checkpoint
takes the very same steps as one that was never interrupted.
"""
from __future__ import annotations

import functools
import math
import time
from typing import Callable

import numpy as np

from tenflang.base.frozen import frozen
from tenflang.backprop.graph import unused_weights
from tenflang.base.dtypes import check_weights_fit
from tenflang.base.errors import RunFailure, TenflangError
from tenflang.interp.runtime.arguments import check_weights
from tenflang.interp.device import to_host
from tenflang.interp.runtime.population import statistic_lines
from tenflang.lang.syntax_tree import Program
from .config import TrainConfig
from .gradients import Descent, LocalGradients, to_device
from .health import untrusted
from .hooks import EpochInfo, Hooks, StepInfo
from .norms import loss_and_norm, weights_finite
from . import native_train, optimizers
from .optimizers import step
from .signature import Signature, initial_weights, signature
from .state import (Diverged, Interrupted, State, StepFailed, TrainResult, crossed, host_arrays,
                    host_state)


@frozen(eq=False)           # holds arrays: compared by identity
class Pass:
    """What one pass of the loop did: one step, or a round of local steps."""
    losses: list
    norm: float
    rows: object = None
    converged: bool = False      # the gradient norm was below tol: no step was taken
    gradients: dict | None = None


def one_step(state: State, descent: Descent, cfg: TrainConfig, kept: dict) -> Pass:
    """One gradient and one optimizer step on the iteration's batch; `kept`
    takes the weights from before the step (`keep`), the last good ones
    should the step's be infinite or NaN."""
    rows = descent.rows(state.iteration)
    if descent.step is not None:
        done = fused_step(state, descent, cfg, rows)
        if done is not None:
            return done
    grads, loss = descent.gradient(state.weights, state.iteration, rows)
    loss, norm = loss_and_norm(loss, optimizers.trainable(grads, cfg), descent.xp)
    check_finite([loss], norm, state, cfg)
    if norm < cfg.tol:
        return Pass([loss], norm, rows, converged=True)
    keep(kept, state.weights, descent.xp)
    finite = step(state, grads, cfg, descent.xp)
    if not (weights_finite(state.weights, descent.xp) if finite is None else finite):
        keep(state.weights, kept, descent.xp)     # the last good weights again
        raise weights_diverged(state, cfg)
    return Pass([loss], norm, rows, gradients=grads)


def fused_step(state: State, descent: Descent, cfg: TrainConfig, rows) -> Pass | None:
    """`one_step` as one C call (training/native_train.py), the same checks on its
    outcome; None where it did not step (a check of the plan failed, or the
    weights are not ones it updates): `one_step` then takes the step itself."""
    done = descent.step(state, rows, optimizers.learning_rate(cfg, state.iteration))
    if done is None or done[0] == native_train.CHECK:
        return None
    status, loss, norm, grads = done
    check_finite([loss], norm, state, cfg)
    if status == native_train.CONVERGED:
        return Pass([loss], norm, rows, converged=True)
    if status == native_train.DIVERGED:
        raise weights_diverged(state, cfg)
    return Pass([loss], norm, rows, gradients=grads)


def keep(into: dict, weights: dict, xp) -> None:
    """`weights`' values copied into the arrays of `into`, made on the first call
    (a step allocates no copy of the weights)."""
    for name, w in weights.items():
        if name not in into:
            into[name] = xp.empty_like(w)
        xp.copyto(into[name], w)


def one_round(state: State, descent: Descent, cfg: TrainConfig) -> Pass:
    """`descent.local_round(state) -> (losses, gradient norm, weights, slots)`:
    several local steps at once, whose weights and optimizer slots are adopted."""
    losses, norm, weights, slots = descent.local_round(state)
    check_finite(losses, norm, state, cfg)
    if not weights_finite(weights, np):
        raise weights_diverged(state, cfg)
    state.weights, state.slots = weights, slots
    return Pass(losses, norm)


def descend(state: State, descent: Descent, cfg: TrainConfig, hooks: Hooks):
    """The original design's calculate_weights loop, in place on `state`: one
    pass (`one_step`, or `one_round` with local steps on a cluster) after
    another, the hooks called as tenflang.training.hooks says.  With
    `descent.validate`, the validation loss is taken after every epoch and,
    with `cfg.patience`, used to stop early.  Returns (last loss, last
    gradient norm, why it stopped).  With local steps `tol` is checked after
    the round, on the norm it reports."""
    if state.iteration >= cfg.max_iters:     # a resumed run that has no step left
        if state.history and state.grad_norm is not None:   # what the run it continues said
            return state.history[-1], state.grad_norm, "max-iters"
        rows = descent.rows(state.iteration)
        grads, loss = descent.gradient(state.weights, state.iteration, rows)
        return (*loss_and_norm(loss, optimizers.trainable(grads, cfg), descent.xp), "max-iters")
    if descent.validate is not None and patience_spent(state, cfg):   # resumed where it stopped
        return state.history[-1], state.grad_norm, "early-stopped"
    loss, norm, first = math.nan, math.nan, state.iteration
    take = one_round if descent.local_round else functools.partial(one_step, kept={})
    while state.iteration < cfg.max_iters:
        before = state.iteration
        done = guarded(take, state, descent, cfg, first)
        loss, norm = done.losses[-1], done.norm
        state.grad_norm = norm
        if done.converged:      # no step taken: the history holds one loss per step
            return loss, norm, "converged"
        state.history.extend(done.losses)
        state.iteration += len(done.losses)
        epoch_ended = crossed(before, state.iteration, descent.epoch_iterations)
        val, stop = None, False
        if descent.validate is not None and epoch_ended:
            val, stop = guarded(lambda s, d, c: evaluate_validation(s, d.validate, c, hooks),
                                state, descent, cfg, first, validating=True)
        lr = optimizers.learning_rate(cfg, state.iteration - 1)
        hooks.on_step(state, StepInfo(state.iteration, loss, norm, lr, done.rows,
                                      len(done.losses), val, stop, done.gradients))
        if epoch_ended:
            hooks.on_epoch(state, EpochInfo(state.iteration // descent.epoch_iterations,
                                            state.iteration, loss, val,
                                            descent.epoch_iterations))
        if stop:
            return loss, norm, "early-stopped"
        if descent.local_round and norm < cfg.tol:
            return loss, norm, "converged"
        if hooks.should_stop():
            raise Interrupted(f"interrupted at iteration {state.iteration}", host_state(state))
    return loss, norm, "max-iters"


def guarded(take_pass, state: State, descent: Descent, cfg: TrainConfig, first: int,
            validating: bool = False) -> Pass:
    """`take_pass(state, descent, cfg)` (a step, a round or, `validating`, the
    validation after a step); an error it raises after the run's first step
    (bad data met mid-run, a class index computed from the weights, out of
    memory) becomes `StepFailed`, keeping the last good weights as divergence
    does.  In the first step it is bad input and goes on as it is."""
    try:
        return take_pass(state, descent, cfg)
    except RunFailure:
        raise
    except (TenflangError, MemoryError) as err:
        if state.iteration == first:
            raise
        what = err.message if isinstance(err, TenflangError) else "out of memory"
        where = (f"in the validation after iteration {state.iteration}" if validating
                 else f"at iteration {state.iteration + 1}")
        failed = StepFailed(f"training stopped {where}: {what}", host_state(state))
        failed.location = getattr(err, "location", failed.location)
        raise failed from None


def weights_diverged(state: State, cfg: TrainConfig) -> Diverged:
    """Divergence found in the weights a step made (`state` still holds the
    last good ones)."""
    advice = (f"with --eps 0, a weight whose gradient stays 0 divides 0 by 0: give --eps a "
              f"value above 0" if cfg.eps == 0 else f"try a smaller --lr (it was {cfg.lr:g})")
    return Diverged(f"training diverged at iteration {state.iteration + 1}: a weight became "
                    f"infinite or NaN; {advice}", host_state(state))


def check_finite(losses: list, norm: float, state: State, cfg: TrainConfig) -> None:
    """Raise `Diverged`, keeping `state` (the last good one), when a loss or
    the gradient norm of the iterations that follow it is not finite."""
    bad = next((k for k, loss in enumerate(losses) if not math.isfinite(loss)), None)
    if bad is None and math.isfinite(norm):
        return
    at = state.iteration + (len(losses) if bad is None else bad + 1)
    shown = losses[-1] if bad is None else losses[bad]
    raise Diverged(f"training diverged at iteration {at}: the loss is {shown} and the "
                   f"gradient norm {norm}; {likely_cause(state, shown, cfg)}", host_state(state))


def likely_cause(state: State, loss: float, cfg: TrainConfig) -> str:
    """What to try: a NaN before any step, or one that follows losses that did
    not grow, comes from the data or the program (log or sqrt of a negative
    value, 0/0), not from a step that was too long."""
    history = [h for h in state.history if math.isfinite(h)]
    from_data = "an example gives NaN (log or sqrt of a negative value, 0/0 in the data or " \
                "the program); check the data"
    if not history:
        return f"the weights have not moved yet, so {from_data}"
    if math.isnan(loss) and history[-1] <= 10 * history[0]:
        return f"the losses were not growing: {from_data}, or try a smaller --lr (it was " \
               f"{cfg.lr:g})"
    return f"try a smaller --lr (it was {cfg.lr:g})"


def evaluate_validation(state: State, validate: Callable, cfg: TrainConfig,
                        hooks: Hooks) -> tuple[float, bool]:
    """Record the validation loss of the current weights; with patience, keep
    the best weights.  Returns the loss and whether `patience` evaluations
    brought no improvement (Keras' EarlyStopping: `min_delta` 0, mode "min")."""
    val = validate(state.weights, state.current_statistics())
    best = state.best_evaluation()
    state.val_history.append((state.iteration, val))
    hooks.on_validation(state, state.iteration, val)
    if not cfg.patience:
        return val, False
    if math.isfinite(val) and (best is None or val < best[1]):
        state.best = {k: v.copy() for k, v in state.weights.items()}
        return val, False
    return val, patience_spent(state, cfg)


def patience_spent(state: State, cfg: TrainConfig) -> bool:
    """Whether the last `patience` evaluations brought no improvement on the
    best one (none yet with a finite loss: nothing to improve on)."""
    best = state.best_evaluation()
    if not cfg.patience or best is None:
        return False
    return sum(1 for it, _ in state.val_history if it > best[0]) >= cfg.patience


def start_state(sig: Signature, cfg: TrainConfig, xp, init=None, resume=None) -> State:
    optimizers.check_frozen(cfg.freeze, sig.weights)
    state = resume or State(initial_weights(sig, cfg.seed, init))
    check_weights_fit(state.weights, cfg.dtype)     # before to_device makes one infinite
    state.weights = to_device(state.weights, xp, cfg.dtype, copy=True)
    state.slots = to_device(state.slots, xp, cfg.dtype, copy=True)
    if state.best is not None:
        state.best = to_device(state.best, xp, cfg.dtype, copy=True)
    return state


def train(gcp: Program, examples, config: TrainConfig, gradients=None, hooks: Hooks | None = None,
          *, init: dict | None = None, resume: State | None = None) -> TrainResult:
    """Learn the weights of `gcp` from `examples` with the settings `config`.

    `examples`: for the local source, a dict of arrays with a leading example
    axis or an `Examples` read from a file; for a cluster, the `Dataset` of
    `tenflang.distributed.cluster.describe`.  `gradients`: where each step's
    gradient comes from — `LocalGradients(engine, batches)` (the default:
    numpy in this process) or `ClusterGradients(client, ...)`; it checks and
    loads the data once (tenflang.training.gradients).  `hooks`: one
    `Hooks` object (progress, checkpoints, validation, logging, stopping;
    `combine` joins several; tenflang.training.hooks).  `init` gives
    starting weights (any subset); `resume` continues a saved `State`.
    See the module docstring."""
    started = time.perf_counter()
    hooks = hooks or Hooks()
    source = gradients or LocalGradients()
    sig = signature(gcp)
    init = check_weights(dict(init or {}), sig.weights, subset=True)
    state = start_state(sig, config, source.xp, init, resume)
    start = Start(state, started, source.xp, gcp)
    with source.open(gcp, sig, examples, config, hooks, state) as descent:
        if descent.population and statistic_lines(gcp):
            state.population = remembered(descent.population, state)
        hooks.on_start(state)
        with np.errstate(all="ignore"):     # a non-finite loss is reported as divergence
            try:
                ending = descend(state, descent, config, hooks)
            except (Diverged, Interrupted) as failure:
                with_kept_statistics(failure.state, state.population)
                raise
        result = result_of(state, start, config, ending, descent.validate,
                           descent.epoch_iterations, descent.train_count)
        if state.population:
            with_statistics(result, state.population)
    hooks.on_end(result)
    return result


def remembered(population: Callable, state: State) -> Callable:
    """`population(weights)`, computed once for the weights of an iteration: the
    validation loss, its metrics and a checkpoint at the end of an epoch share
    one pass.  A step changes the weights in place, but only after
    `state.iteration` moved on; other weights (the last good ones, a host
    copy) are other objects."""
    last: list = [None, None, None]         # iteration, weights, their values

    def at(weights: dict) -> dict:
        if last[0] != state.iteration or last[1] is not weights:
            last[:] = state.iteration, weights, population(weights)
        return last[2]
    return at


def with_kept_statistics(kept: State, population: Callable | None) -> None:
    """The population values at the weights a failed run keeps (`kept`, in host
    memory), so that they can be evaluated (the ones `kept` holds may be a
    resumed checkpoint's, at other weights).  Where that pass fails too (out of
    memory, the cluster gone), the weights are kept without them: tfevaluate
    then says they are missing."""
    if population is None:
        return
    try:
        kept.statistics = host_arrays(population(kept.weights))
    except Exception:       # noqa: BLE001 - nothing may stop the weights being kept
        kept.statistics = {}


def with_statistics(result: TrainResult, population: Callable) -> None:
    """The population values of the batch statistics at the weights returned
    and at the final state's (the same unless early stopping kept better ones)."""
    result.statistics = host_arrays(population(result.weights))
    result.state.statistics = (result.statistics if result.weights is result.state.weights
                               else host_arrays(population(result.state.weights)))


class Start:
    """What the end of a run compares with: when it started, at which
    iteration, which weights were all zero and which no loss uses (see
    `health.untrusted`)."""

    def __init__(self, state: State, clock: float, xp=np, gcp: Program | None = None):
        self.clock = clock
        self.iteration = state.iteration
        self.zero = zero_weights(state.weights, xp)
        self.unused = tuple(unused_weights(gcp)) if gcp is not None else ()
        self.coupled = gcp is not None and bool(statistic_lines(gcp))   # has batch statistics


def one_example_a_step(cfg: TrainConfig, train_count: int | None) -> bool:
    return cfg.batch_size == 1 or train_count == 1


def result_of(state: State, start: Start, cfg: TrainConfig, ending: tuple, validate,
              epoch: int, train_count: int | None = None) -> TrainResult:
    """The `TrainResult` of a run that ended in `state` with (loss, gradient
    norm, reason) `ending`: with patience the best weights, the validation
    loss of the weights returned, the warnings."""
    final = host_state(state)
    weights, val_loss, best_iteration = final.weights, None, None
    if validate and cfg.patience and final.best is not None:
        (best_iteration, val_loss), weights = state.best_evaluation(), final.best
    elif validate:
        last = state.val_history[-1] if state.val_history else None
        val_loss = (last[1] if last and last[0] == state.iteration
                    else validate(state.weights, state.current_statistics()))
    # a weight --freeze keeps is meant to stay where it started, 0 included
    warnings = untrusted(final, start.iteration, start.zero - set(cfg.freeze), epoch, cfg.lr,
                         start.unused, converged=ending[2] == "converged",
                         centred_to_zero=start.coupled and one_example_a_step(cfg, train_count))
    warnings += nonfinite_validation(final.val_history)
    return TrainResult(weights, state.iteration, *ending, time.perf_counter() - start.clock,
                       final.history, val_loss, final, final.val_history, best_iteration, epoch,
                       warnings)


def nonfinite_validation(val_history: list) -> list[str]:
    """A warning when some validation losses were NaN or infinite (never the best)."""
    bad = [(it, v) for it, v in val_history if not math.isfinite(v)]
    if not bad:
        return []
    return [f"the validation loss was {bad[0][1]} at {len(bad)} of {len(val_history)} "
            f"evaluations (first after iteration {bad[0][0]}): an example of the validation "
            "split gives NaN or infinity (log or sqrt of a negative value, 0/0 in the data "
            "or the program); such an evaluation is never the best"]


def zero_weights(weights: dict, xp) -> set[str]:
    """The weights that are all zero (one copy from the device for all of them)."""
    flags = to_host(xp.stack([w.any() for w in weights.values()])) if weights else []
    return {name for name, nonzero in zip(weights, flags) if not nonzero}
