"""The Weight Calculation Phase: gradient descent driven by a GCP.

    result = train(gcp, examples, TrainConfig(lr=0.5, max_iters=2000))

The weights, their shapes, their gradients (the GCP's `d/dw` outputs) and the
losses are read from the GCP.  Each iteration runs the GCP once, batched, on
one batch (the whole data set unless `batch_size` is set) and takes the mean
gradient over its examples — the original design's `avg_gradient`, with no loop over
examples — then takes one optimizer step.  Training stops when the L2 norm of
the gradient over all weights falls below `tol`, after `max_iters`
iterations, on divergence (a non-finite loss or gradient: `Diverged`, the
last finite weights kept), when `should_stop()` turns true (`Interrupted`),
or — with `patience` — when the validation loss, evaluated after every epoch,
has not improved for `patience` evaluations (the best weights are returned,
as Keras' EarlyStopping with restore_best_weights).  The optimizers and
schedules are in `optimizers`; the warnings about untrustworthy runs in
`health`.

Determinism: initial weights come from `seed`; mini-batch order in epoch e is
the permutation drawn from `(seed, e)`, so a run resumed from a checkpoint
takes the very same steps as one that was never interrupted.

Initialisation (documented in docs/guide.md §7): a matrix weight [out, in] is
drawn from Glorot's uniform U(-a, a), a = sqrt(6 / (in + out)), which breaks
the symmetry between hidden units; scalars and vectors start at zero.  `init`
may give any subset of the weights; the others start as they would without it.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..backprop import adjoint
from ..modes import Mode
from ..errors import Location, RunFailure, TenflangError
from ..interp.device import to_host
from .norms import loss_and_norm, weights_finite
from .sampling import batch_indices, split
from ..interp import make_plan
from ..interp.statistics import population, statistic_lines
from ..interp.arguments import check_data, check_weights
from ..gpu import run_on
from ..lang.ast import Define, Program
from ..lang.checks import check, class_indices
from ..lang.diagnostics import error_at
from .health import untrusted
from .optimizers import OPTIMIZERS, SCHEDULES, step


@dataclass(frozen=True)
class Signature:
    weights: dict          # weight name -> shape, declaration order
    gradients: dict        # weight name -> the GCP output holding its gradient
    inputs: dict           # data name -> per-example shape
    losses: tuple
    classes: dict = field(default_factory=dict)   # class-index data name -> n (one_hot)


def signature(gcp: Program) -> Signature:
    shapes = check(gcp)
    decls = gcp.declarations()
    where = Location(gcp.filename)
    weights = {n: shapes[n] for n, d in decls.items() if d.kind == "weight"}
    if not weights:
        raise TenflangError("the GCP declares no weights: there is nothing to learn", where)
    outputs = {n for n, d in decls.items() if d.kind == "output"}
    missing = [w for w in weights if adjoint(w) not in outputs]
    if missing:
        raise TenflangError(f"the GCP has no gradient output '{adjoint(missing[0])}' for weight "
                            f"'{missing[0]}'; is it a GCP made by tfcompiler?", where)
    check_gradients(gcp, weights, shapes)
    losses = tuple(n for n, d in decls.items() if d.kind == "loss")
    if not losses:
        raise TenflangError("the GCP declares no loss; tfweightcalc reports the loss it "
                            "minimises", where)
    inputs = {n: shapes[n] for n, d in decls.items() if d.kind in ("input", "exp_output")}
    return Signature(weights, {w: adjoint(w) for w in weights}, inputs, losses,
                     class_indices(gcp))


def check_gradients(gcp: Program, weights: dict, shapes: dict) -> None:
    """Every gradient output `d/dw` is defined and has its weight's shape (a
    hand-written GCP may get either wrong)."""
    defined = {s.name: s for s in gcp.statements if isinstance(s, Define)}
    decls = gcp.declarations()
    for w, shape in weights.items():
        grad = adjoint(w)
        if grad not in defined:
            raise error_at(gcp, decls[grad].name_pos, f"the gradient output '{grad}' is "
                           "declared but never defined")
        if tuple(shapes[grad]) != tuple(shape):
            raise error_at(gcp, defined[grad].pos, f"the gradient '{grad}' has shape "
                           f"{list(shapes[grad])}, but weight '{w}' has shape {list(shape)}")


@dataclass
class TrainConfig:
    """The settings of a run (docs/api.md lists them with their tfweightcalc
    options); checked when made."""
    lr: float = 0.1
    optimizer: str = "sgd"
    batch_size: int | None = None
    max_iters: int = 1000
    tol: float = 1e-6
    seed: int = 0
    momentum: float = 0.9
    betas: tuple = (0.9, 0.999)
    eps: float = 1e-8
    val_fraction: float = 0.0
    dtype: str = "float64"
    weight_decay: float = 0.0
    lr_schedule: str = "constant"
    patience: int | None = None

    def __post_init__(self):
        one_of("optimizer", self.optimizer, OPTIMIZERS)
        one_of("lr_schedule", self.lr_schedule, SCHEDULES)
        if not self.weight_decay >= 0:
            raise TenflangError(f"weight_decay (--weight-decay) must be 0 or more, not "
                                f"{self.weight_decay!r}")
        if self.patience is not None:
            if isinstance(self.patience, bool) or not isinstance(self.patience, int) \
                    or self.patience < 1:
                raise TenflangError(f"patience (--patience) must be a whole number of "
                                    f"evaluations, 1 or more, not {self.patience!r}")
            if not self.val_fraction:
                raise TenflangError("patience (--patience) needs a validation split to watch: "
                                    "set val_fraction (--val-fraction), e.g. 0.2")


def one_of(field_name: str, value, choices: dict) -> None:
    if value not in choices:
        raise TenflangError(f"unknown {field_name} {value!r}; choose one of: "
                            f"{', '.join(choices)}")


@dataclass
class State:
    """Everything a checkpoint holds: enough to continue the same run."""
    weights: dict
    slots: dict = field(default_factory=dict)     # optimizer state, e.g. "m:W1"
    iteration: int = 0
    history: list = field(default_factory=list)   # training loss per iteration
    val_history: list = field(default_factory=list)   # (iteration, validation loss)
    best: dict | None = None     # with patience: the weights of the best evaluation
    statistics: dict = field(default_factory=dict)   # population values at `weights` (a checkpoint's)

    def best_evaluation(self) -> tuple[int, float] | None:
        """(iteration, validation loss) of the first lowest validation loss."""
        return min(self.val_history, key=lambda e: e[1], default=None)


@dataclass
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
    statistics: dict = field(default_factory=dict)   # population values of the batch statistics


class Diverged(RunFailure):
    def __init__(self, message: str, state: State):
        super().__init__(message)
        self.state = state


class Interrupted(RunFailure):
    def __init__(self, message: str, state: State):
        super().__init__(message)
        self.state = state


def initial_weights(sig: Signature, seed: int, given: dict | None = None) -> dict:
    """The starting weights: those `given`, the others drawn as if none were."""
    rng = np.random.default_rng(seed)
    weights = {}
    for name, shape in sig.weights.items():
        if len(shape) >= 2:
            fan_out, fan_in = shape[0], math.prod(shape[1:])
            limit = math.sqrt(6.0 / (fan_in + fan_out))
            weights[name] = rng.uniform(-limit, limit, shape)
        else:
            weights[name] = np.zeros(shape)
    return weights | {n: v for n, v in (given or {}).items() if n in weights}


def to_device(arrays: dict, xp, dtype, copy: bool = False) -> dict:
    """The arrays on the device in `dtype`; `copy` always makes new ones (weights
    are updated in place, never the caller's), else data is shared when it can be."""
    move = xp.array if copy else xp.asarray
    return {n: move(np.asarray(a), dtype=dtype) for n, a in arrays.items()}


def gradient_plan(gcp: Program, sig: Signature):
    """The GCP planned with every data variable and weight bound, reporting the
    weight gradients and the losses (what one training step needs)."""
    return make_plan(gcp, set(sig.inputs) | set(sig.weights),
                     list(sig.gradients.values()) + list(sig.losses))


def local_gradient(gcp: Program, sig: Signature, data: dict, cfg: TrainConfig, xp,
                   batches: Callable | None = None):
    """`gradient(weights, iteration) -> (mean gradient by weight, mean loss)` over
    the iteration's batch of `data` (arrays already on the device): the rows
    `batches(iteration)` when given (None: all), else `batch_indices`."""
    plan = gradient_plan(gcp, sig)
    n = len(next(iter(data.values()))) if data else 1
    run = run_on(xp)          # on a GPU: the plan's fused groups as CUDA kernels

    def gradient(weights: dict, iteration: int):
        rows = (batches(iteration) if batches else
                batch_indices(n, cfg.batch_size, cfg.seed, iteration, xp))
        batch = data if rows is None else {k: v[xp.asarray(rows)] for k, v in data.items()}
        mode = Mode(seed=cfg.seed, iteration=iteration,
                    rows=None if rows is None else np.asarray(to_host(rows)))
        values = run(plan, {**batch, **weights}, xp=xp, dtype=cfg.dtype, reduce="mean", mode=mode)
        # the loss stays on the device: descend copies it back with the gradient norm
        return ({w: values[g] for w, g in sig.gradients.items()},
                sum(values[name] for name in sig.losses))
    return gradient


def descend(state: State, gradient: Callable, cfg: TrainConfig, xp,
            progress: Callable | None = None, should_stop: Callable[[], bool] = lambda: False,
            checkpoint: Callable[[State], None] | None = None, checkpoint_every: int = 100,
            validate: Callable[[dict], float] | None = None, epoch_iterations: int = 1,
            validated: Callable[[int, float], None] | None = None,
            local_round: Callable | None = None):
    """The original design's calculate_weights loop, in place on `state`, with any
    `gradient(weights, iteration)`.  With `validate(weights) -> loss`, the
    validation loss is taken after every `epoch_iterations` steps, reported
    to `validated(iteration, loss)` and, with `cfg.patience`, used to stop
    early.  Returns (last loss, last gradient norm, why it stopped).

    With `local_round(state) -> (losses, gradient norm, weights, slots)`,
    each pass of the loop takes len(losses) iterations at once, instead of
    one `gradient` and one step, and adopts the weights and optimizer slots
    it returns (local steps on a cluster: docs/distributed.md); `tol` is
    then checked after the round, on the norm it reports, and validation
    and checkpoints happen after the round that crosses their period."""
    if state.iteration >= cfg.max_iters:     # a resumed run that has no step left
        grads, loss = gradient(state.weights, state.iteration)
        return (*loss_and_norm(loss, grads, xp), "max-iters")
    loss, norm, reason = math.nan, math.nan, "max-iters"
    while state.iteration < cfg.max_iters:
        before = state.iteration
        if local_round:
            losses, norm, weights, slots = local_round(state)
            check_finite(losses, norm, state, cfg)
            if not weights_finite(weights, np):
                raise weights_diverged(state, cfg)
            state.weights, state.slots = weights, slots
        else:
            grads, loss = gradient(state.weights, state.iteration)
            loss, norm = loss_and_norm(loss, grads, xp)
            losses = [loss]
            check_finite(losses, norm, state, cfg)
            if norm < cfg.tol:
                state.history.append(loss)
                return loss, norm, "converged"
            previous = {k: w.copy() for k, w in state.weights.items()}
            step(state, grads, cfg, xp)
            if not weights_finite(state.weights, xp):
                state.weights = previous     # the last good weights, not the overflowed ones
                raise weights_diverged(state, cfg)
        loss = losses[-1]
        state.history.extend(losses)
        state.iteration += len(losses)
        if progress:
            progress(state.iteration, loss, norm)
        stop = validate is not None and crossed(before, state.iteration, epoch_iterations) \
            and evaluate_validation(state, validate, cfg, validated)
        if checkpoint and (crossed(before, state.iteration, checkpoint_every) or stop):
            checkpoint(host_state(state))
        if stop:
            reason = "early-stopped"
            break
        if local_round and norm < cfg.tol:
            return loss, norm, "converged"
        if should_stop():
            raise Interrupted(f"interrupted at iteration {state.iteration}", host_state(state))
    return loss, norm, reason


def crossed(before: int, after: int, period: int) -> bool:
    """Whether going from iteration `before` to `after` passed a multiple of `period`."""
    return after // period > before // period


def weights_diverged(state: State, cfg: TrainConfig) -> Diverged:
    """Divergence found in the weights a step made (`state` still holds the
    last good ones)."""
    return Diverged(f"training diverged at iteration {state.iteration + 1}: a weight became "
                    f"infinite or NaN; try a smaller --lr (it was {cfg.lr:g})", host_state(state))


def check_finite(losses: list, norm: float, state: State, cfg: TrainConfig) -> None:
    """Raise `Diverged`, keeping `state` (the last good one), when a loss or
    the gradient norm of the iterations that follow it is not finite."""
    bad = next((k for k, loss in enumerate(losses) if not math.isfinite(loss)), None)
    if bad is None and math.isfinite(norm):
        return
    at = state.iteration + (len(losses) if bad is None else bad + 1)
    shown = losses[-1] if bad is None else losses[bad]
    raise Diverged(f"training diverged at iteration {at}: the loss is {shown} and the "
                   f"gradient norm {norm}; try a smaller --lr (it was {cfg.lr:g})",
                   host_state(state))


def evaluate_validation(state: State, validate: Callable, cfg: TrainConfig,
                        validated: Callable | None) -> bool:
    """Record the validation loss of the current weights; with patience, keep
    the best weights and say whether `patience` evaluations brought no
    improvement (Keras' EarlyStopping: `min_delta` 0, mode "min")."""
    val = validate(state.weights)
    best = state.best_evaluation()
    state.val_history.append((state.iteration, val))
    if validated:
        validated(state.iteration, val)
    if not cfg.patience:
        return False
    if best is None or val < best[1]:
        state.best = {k: v.copy() for k, v in state.weights.items()}
        return False
    since = sum(1 for it, _ in state.val_history if it > state.best_evaluation()[0])
    return since >= cfg.patience


def start_state(sig: Signature, cfg: TrainConfig, xp, init=None, resume=None) -> State:
    state = resume or State(initial_weights(sig, cfg.seed, init))
    state.weights = to_device(state.weights, xp, cfg.dtype, copy=True)
    state.slots = to_device(state.slots, xp, cfg.dtype, copy=True)
    if state.best is not None:
        state.best = to_device(state.best, xp, cfg.dtype, copy=True)
    return state


def train(gcp: Program, examples: dict, config: TrainConfig, xp=np, init: dict | None = None,
          resume: State | None = None, batches: Callable | None = None, **loop) -> TrainResult:
    """Learn the weights of `gcp` from `examples` (data name -> array with a
    leading example axis).  `init` gives starting weights (any subset);
    `resume` continues a saved `State` (its weights, optimizer slots,
    iteration and histories).  `loop` passes progress, should_stop,
    checkpoint, checkpoint_every and validated to `descend`;
    `batches(iteration)`, when given, picks each iteration's rows of the
    training examples instead of `batch_indices`
    (`tenflang.training.sampling.global_batch` reproduces a distributed run).
    See the module docstring."""
    cfg = config
    started = time.perf_counter()
    sig = signature(gcp)
    examples = check_data(dict(getattr(examples, "arrays", examples)), sig.inputs, sig.inputs)
    init = check_weights(dict(init or {}), sig.weights, subset=True)
    n = len(next(iter(examples.values()))) if examples else 1
    train_idx, val_idx = split(n, cfg.val_fraction, cfg.seed)
    rows = train_idx if len(val_idx) else slice(None)
    data = to_device({k: np.asarray(v)[rows] for k, v in examples.items()}, xp, cfg.dtype)
    state = start_state(sig, cfg, xp, init, resume)
    start = Start(state, started, xp)
    epoch = epoch_iterations(len(train_idx), cfg.batch_size)
    validate = validation(gcp, sig, examples, val_idx, cfg, xp) if len(val_idx) else None
    if loop.get("checkpoint") and statistic_lines(gcp):
        loop["checkpoint"] = with_statistics(loop["checkpoint"], gcp, data, cfg, xp)
    with np.errstate(all="ignore"):     # a non-finite loss is reported as divergence
        loss, norm, reason = descend(state, local_gradient(gcp, sig, data, cfg, xp, batches),
                                     cfg, xp, validate=validate, epoch_iterations=epoch, **loop)
        result = result_of(state, start, cfg, (loss, norm, reason), validate, epoch)
        at = lambda weights: host_arrays(population(gcp, data, weights, xp, cfg.dtype))  # noqa
        result.statistics = at(result.weights)
        result.state.statistics = (result.statistics if result.weights is result.state.weights
                                   else at(result.state.weights))
    return result


def with_statistics(checkpoint: Callable, gcp: Program, data: dict, cfg: TrainConfig, xp):
    """`checkpoint(state)` with the population values of the batch statistics
    at the state's weights (DESIGN.md §2.3.2: in every checkpoint)."""
    def save(state: State) -> None:
        state.statistics = host_arrays(population(gcp, data, state.weights, xp, cfg.dtype))
        checkpoint(state)
    return save


class Start:
    """What the end of a run compares with: when it started, at which
    iteration, and which weights were all zero (see `health.untrusted`)."""

    def __init__(self, state: State, clock: float, xp=np):
        self.clock = clock
        self.iteration = state.iteration
        self.zero = zero_weights(state.weights, xp)


def result_of(state: State, start: Start, cfg: TrainConfig, ending: tuple, validate,
              epoch: int) -> TrainResult:
    """The `TrainResult` of a run that ended in `state` with (loss, gradient
    norm, reason) `ending`: with patience the best weights, the validation
    loss of the weights returned, the warnings."""
    final = host_state(state)
    weights, val_loss, best_iteration = final.weights, None, None
    if validate and cfg.patience and final.best is not None:
        (best_iteration, val_loss), weights = state.best_evaluation(), final.best
    elif validate:
        last = state.val_history[-1] if state.val_history else None
        val_loss = last[1] if last and last[0] == state.iteration else validate(state.weights)
    warnings = untrusted(final, start.iteration, start.zero, epoch, cfg.lr)
    return TrainResult(weights, state.iteration, *ending, time.perf_counter() - start.clock,
                       final.history, val_loss, final, final.val_history, best_iteration, epoch,
                       warnings)


def zero_weights(weights: dict, xp) -> set[str]:
    """The weights that are all zero (one copy from the device for all of them)."""
    flags = to_host(xp.stack([w.any() for w in weights.values()])) if weights else []
    return {name for name, nonzero in zip(weights, flags) if not nonzero}


def epoch_iterations(n_train: int, batch_size: int | None) -> int:
    """Steps per pass over the training examples (1 for full batch)."""
    return 1 if not batch_size or batch_size >= n_train else -(-n_train // batch_size)


def host_arrays(arrays: dict) -> dict:
    return {k: np.array(to_host(v)) for k, v in arrays.items()}


def host_state(state: State) -> State:
    """A copy of `state` in host memory (numpy), safe to write out."""
    host = host_arrays
    return State(host(state.weights), host(state.slots), state.iteration, list(state.history),
                 list(state.val_history), None if state.best is None else host(state.best))


def validation(program: Program, sig: Signature, examples: dict, rows, cfg: TrainConfig, xp):
    """`validate(weights) -> mean loss` over the validation `rows`."""
    plan = make_plan(program, set(sig.inputs) | set(sig.weights), list(sig.losses))
    data = to_device({k: np.asarray(v)[rows] for k, v in examples.items()}, xp, cfg.dtype)

    def validate(weights: dict) -> float:
        values = run_on(xp)(plan, {**data, **weights}, xp=xp, dtype=cfg.dtype, reduce="mean")
        return sum(float(v) for v in values.values())
    return validate
