"""What runs on the workers of a distributed run: one task per chunk and round.

Conventions:

* Every task is a pure function of its arguments (the chunk's arrays, the
  round's weights, the chunk's sampling), so that Dask can rerun it on
  another worker after a death and get the same result.
* A task returns SUMS over the examples it used, in host memory as float64:
  ``{"rows", "loss", "grads": {name: array}}``, added across chunks by
  `add_sums` in a fixed order; the client divides by the rows.
  `chunk_sums` sums the gradient of one step; `local_steps` takes several
  optimizer steps on the chunk alone and returns its weights and optimizer
  slots multiplied by its rows (``w:W1``, ``s:m:W1``), so that their sum
  divided by the total is the average weighted by batch share, and its last
  gradient (``g:W1``) likewise.
* A chunk's *sample* is None (every row, every step) or ``(rows, share,
  seed, chunk)``: step t takes `chunk_batch(rows, share, seed, chunk, t)`
  (tenflang.training.sampling).
* The GCP travels as text with its digest (tenflang/base/hashing.py); each worker process plans it once
  (`plan_for`).
* Dropout (docs/design.md §2.3.2) is keyed by the run's seed, the iteration and
  each example's index among the training rows of all the chunks, in chunk
  order (`example_keys`: the chunk's first training row's index plus the row
  within it), so the masks do not depend on which worker holds a chunk, on
  how many workers there are, nor on how the data is cut into chunks; without
  a validation split that is the example's index in the data set, as in a
  run on one machine.  `batch_mean` is
  the mean over the examples a task runs: each chunk's share of the batch
  (PyTorch's DistributedDataParallel without SyncBatchNorm); `statistic_sums`
  sums a level of the exact population statistics after training.
  `validation_sums` takes the held-out losses in evaluation mode, with those
  population values (training/gradients.py).
"""
from __future__ import annotations

import numpy as np

from tenflang.interp.device import to_host
from tenflang.interp.engine import Engine
from tenflang.interp.runtime.population import level_sums, levels
from tenflang.ops.entries import Reduction
from tenflang.interp.planning.plan import make_plan
from tenflang.ops.modes import EVALUATION, Mode
from tenflang.training.gradients import gradient_plan, to_device
from tenflang.training.signature import signature
from tenflang.training.state import State
from tenflang.training.optimizers import step
from tenflang.training.sampling import chunk_batch, chunk_split
from tenflang.training.watch import metric_names

_PLANS = {}       # GCP digest -> (plan, signature), per worker process
_PROGRAM = {}     # the GCP last parsed: its digest and program


def program_for(digest: str, text: str):
    """The GCP `text` whose digest is `digest`, parsed once per worker process."""
    if _PROGRAM.get("digest") != digest:
        from tenflang.lang import parse
        _PROGRAM.update(digest=digest, program=parse(text, "<gcp>"))
    return _PROGRAM["program"]


def plan_for(digest: str, text: str):
    """(plan, signature) of the GCP `text` whose digest is `digest`, made once
    per worker process and kept for the GCP last asked for."""
    if digest not in _PLANS:
        gcp = program_for(digest, text)
        sig = signature(gcp)
        _PLANS.clear()
        _PLANS[digest] = (gradient_plan(gcp, sig), sig)
    return _PLANS[digest]


def rows_of(chunk: dict) -> int:
    return len(next(iter(chunk.values()))) if chunk else 1


def module_of(chunk: dict):
    """numpy or cupy, whichever the chunk's arrays belong to (cupy is imported
    only for a chunk on a GPU worker)."""
    array = next(iter(chunk.values()), None)
    if array is None or isinstance(array, np.ndarray):
        return np
    import cupy
    return cupy


def batch_of(chunk: dict, sample, iteration: int) -> tuple[dict, object]:
    """(the chunk's examples for `iteration`: all of them, or its draw; their
    rows in the chunk, None for all)."""
    if sample is None:
        return chunk, None
    xp = module_of(chunk)
    rows = chunk_batch(*sample, iteration)
    return {name: array[xp.asarray(rows)] for name, array in chunk.items()}, rows


def example_keys(first: int, rows, count: int) -> np.ndarray:
    """The dropout keys of a chunk's examples (module docstring): `first`, the
    index of its first training row; `rows`, the rows of the batch (None: all
    `count` of them)."""
    rows = np.arange(count) if rows is None else np.asarray(to_host(rows))
    return first + rows


def mode_of(seed: int, iteration: int, first: int, rows, count: int) -> Mode:
    return Mode(seed=seed, iteration=iteration, rows=example_keys(first, rows, count))


def part_of(chunk: dict, held_out: int, seed: int, index: int, validation: bool) -> dict:
    """The training (or validation) rows of a chunk that holds out `held_out`
    of its examples (`chunk_split`)."""
    train, val = chunk_split(rows_of(chunk), held_out, seed, index)
    rows = module_of(chunk).asarray(val if validation else train)
    return {name: array[rows] for name, array in chunk.items()}


def round_value(value):
    """`value`: a task whose result is a round's weights, so that workers copy
    them from each other (see tenflang.distributed.cluster)."""
    return value


def chunk_sums(chunk: dict, round_: tuple, sample, key: tuple) -> dict:
    """Sums over the chunk's batch for the iteration of `round_` (digest,
    text, weights, dtype, iteration) of each weight's gradient and of the loss;
    `key`: (the run's seed, the chunk's first training row's index), what
    dropout is keyed by."""
    digest, text, weights, dtype, iteration = round_
    plan, sig = plan_for(digest, text)
    batch, rows = batch_of(chunk, sample, iteration)
    xp = module_of(chunk)       # on a GPU worker the fused groups run as CUDA kernels
    mode = mode_of(key[0], iteration, key[1], rows, rows_of(batch))
    values = Engine(xp).run(plan, {**batch, **weights}, dtype=dtype, reduce=Reduction.SUM, mode=mode)
    return {"rows": rows_of(batch),
            "loss": sum(float(values[name]) for name in sig.losses),
            "grads": {w: np.asarray(to_host(values[g]), dtype=np.float64)
                      for w, g in sig.gradients.items()}}


def local_steps(chunk: dict, round_: tuple, sample, count: int, first: int = 0) -> dict:
    """`count` optimizer steps on the chunk alone from the state of `round_`
    (digest, text, weights, slots, TrainConfig, iteration), its batch of each
    iteration drawn by `sample`; see the module docstring for what returns."""
    digest, text, weights, slots, cfg, iteration = round_
    plan, sig = plan_for(digest, text)
    xp = module_of(chunk)
    state = State(to_device(weights, xp, cfg.dtype, copy=True),
                  to_device(slots, xp, cfg.dtype, copy=True), iteration)
    losses, rows = [], None
    with np.errstate(all="ignore"):     # a non-finite loss is reported as divergence
        for _ in range(count):
            batch, picked = batch_of(chunk, sample, state.iteration)
            rows = rows_of(batch)
            values = Engine(xp).run(plan, {**batch, **state.weights}, dtype=cfg.dtype,
                                    reduce=Reduction.MEAN, mode=mode_of(cfg.seed, state.iteration,
                                                                first, picked, rows))
            grads = {w: values[g] for w, g in sig.gradients.items()}
            losses.append(sum(float(values[name]) for name in sig.losses))
            step(state, grads, cfg, xp)
            state.iteration += 1
    scaled = {f"w:{n}": v for n, v in state.weights.items()}
    scaled |= {f"s:{k}": v for k, v in state.slots.items()}
    scaled |= {f"g:{n}": g for n, g in grads.items()}
    return {"rows": rows, "loss": np.asarray(losses) * rows,
            "grads": {k: np.asarray(to_host(v), dtype=np.float64) * rows
                      for k, v in scaled.items()}}


def validation_sums(chunk: dict, round_: tuple) -> dict:
    """The sum of the losses over the chunk's held-out examples, in evaluation
    mode, from `round_` (digest, text, weights, the population values of the
    batch statistics, dtype); in `add_sums`' form, the sums of the GCP's
    metrics (`watch.metric_names`: what a local run's epoch lines show) as
    its "grads"."""
    digest, text, weights, statistics, dtype = round_
    program = program_for(digest, text)
    sig = signature(program)
    metrics = metric_names(program)
    plan = make_plan(program, set(sig.inputs) | set(weights) | set(statistics),
                     [*sig.losses, *metrics])
    values = Engine(module_of(chunk)).run(plan, {**chunk, **weights, **statistics}, dtype=dtype,
                                          reduce=Reduction.SUM, mode=EVALUATION)
    return {"rows": rows_of(chunk), "loss": sum(float(values[name]) for name in sig.losses),
            "grads": {name: np.asarray(float(values[name])) for name in metrics}}


def statistic_sums(chunk: dict, round_: tuple, level: int) -> dict:
    """The sums over the chunk's examples of the operands of the GCP's batch
    statistics of `level` (interp/runtime/population.py), from `round_` (digest, text,
    weights, the population values of the levels below, dtype); in
    `add_sums`' form, the sums as its "grads"."""
    digest, text, weights, found, dtype = round_
    program = program_for(digest, text)
    sums = level_sums(program, levels(program)[level], chunk, weights, found,
                      module_of(chunk), dtype)
    return {"rows": rows_of(chunk), "loss": 0.0,
            "grads": {k: np.asarray(to_host(v), dtype=np.float64) for k, v in sums.items()}}


def add_sums(*parts: dict) -> dict:
    """The sum of partial sums, added in argument order (the parts are not
    changed: Dask may hand the same result to a rerun task)."""
    total = {"rows": parts[0]["rows"], "loss": parts[0]["loss"],
             "grads": {w: g.copy() for w, g in parts[0]["grads"].items()}}
    for part in parts[1:]:
        total["rows"] += part["rows"]
        total["loss"] = total["loss"] + part["loss"]
        for w, g in part["grads"].items():
            total["grads"][w] += g
    return total
